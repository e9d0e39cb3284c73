#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analysis/diagram.h"
#include "cmd/cmd.h"
#include "emit/topo/emit_dot.h"
#include "util/buf.h"
#include "util/diag.h"

enum { O_VIEW, O_OUTPUT, O_FORMAT, O_FORCE, O_DIR, O_N };
static const ry_option options[] = {
    [O_VIEW] = { "view", 0, RY_OPT_VALUE, "VIEW", NULL,
                 "summary (default): each tier's switches and the HB domains\n"
                 "in a few boxes, bundles of links with counts and bandwidth;\n"
                 "rail=N: the switches that carry rail N and the HB domains\n"
                 "below them; unit=N: scalable unit N (from 1, as in Slurm's\n"
                 "suN), its leaves by rail and\n"
                 "the tiers above it reaches; full: every node and link" },
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_FORMAT] = RY_OPTION_FORMAT("dot|svg|png|pdf",
                                  "dot, svg, png or pdf (default: from FILE's extension, else\n"
                                  "dot); all but dot run Graphviz's dot program"),
    [O_FORCE] = { "force", 0, RY_OPT_FLAG, NULL, NULL,
                  "draw the full view of a fabric over 2,000 nodes; replace\n"
                  "FILE, or files in DIR, that railyard did not write" },
    [O_DIR] = { "dir", 0, RY_OPT_VALUE, "DIR", NULL,
                "write DIR/diagrams/ as railyard build does: summary, rail0\n"
                "and unit1, in DOT and (with Graphviz) SVG" },
    [O_N] = RY_OPTION_END
};

static const char *const formats[] = { "dot", "svg", "png", "pdf", NULL };

/* The format an output file's extension names: "dot" for .dot and .gv,
 * NULL for no extension, "" for one that names no format. */
static const char *format_of(const char *path)
{
    const char *base = path ? strrchr(path, '/') : NULL;
    const char *dot = path ? strrchr(base ? base : path, '.') : NULL;
    if (!dot)
        return NULL;
    if (strcasecmp(dot + 1, "gv") == 0)
        return "dot";
    for (int i = 0; formats[i]; i++)
        if (strcasecmp(dot + 1, formats[i]) == 0)
            return formats[i];
    return "";
}

static ry_cmd_status check(ry_ctx *ctx)
{
    if (ry_opt(ctx, O_DIR)) {
        if (ry_opt(ctx, O_VIEW) || ctx->out || ry_opt(ctx, O_FORMAT))
            return ry_usage(ctx, "--dir writes the diagrams of railyard build; it takes no "
                            "--view, --output or --format");
        ctx->out = ry_opt(ctx, O_DIR);
        return RY_CMD_OK;
    }
    const char *given = ry_opt(ctx, O_FORMAT), *ext = format_of(ctx->out);
    if (ext && !*ext && !given)
        return ry_usage(ctx, "cannot tell the format from the name '%s': name the file .dot, "
                        ".gv, .svg, .png or .pdf, or give --format", ctx->out);
    if (ext && *ext && given && strcmp(ext, given) != 0)
        return ry_usage(ctx, "--format %s and the file name '%s' say different things", given,
                        ctx->out);
    ry_view v;
    const char *viewname = ry_opt(ctx, O_VIEW);
    if (viewname && ry_view_parse(viewname, &v) == -2)
        return ry_usage(ctx, "--view %s needs a whole number after '='", viewname);
    return RY_CMD_OK;
}

/* 5040 -> "5,040" */
static const char *thousands(char *buf, size_t n, long long x)
{
    if (x >= 1000000)
        snprintf(buf, n, "%lld,%03lld,%03lld", x / 1000000, x / 1000 % 1000, x % 1000);
    else if (x >= 1000)
        snprintf(buf, n, "%lld,%03lld", x / 1000, x % 1000);
    else
        snprintf(buf, n, "%lld", x);
    return buf;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    if (ry_opt(ctx, O_DIR))
        return ry_run_group(ctx, "diagrams");
    const char *viewname = ry_opt(ctx, O_VIEW) ? ry_opt(ctx, O_VIEW) : "summary";
    const char *format = ry_opt(ctx, O_FORMAT);
    if (!format)
        format = format_of(ctx->out) ? format_of(ctx->out) : "dot";
    const ry_spec *s = ctx->spec;
    const ry_fabric *f = &ctx->fabric;
    ry_view v;
    int vr = ry_view_parse(viewname, &v);
    char msg[512], views[256], n1[32], n2[32];
    ry_view_list(f, views, sizeof views);
    if (vr < 0) {
        ry_error("draw: no view '%s'; %s has the views %s", viewname, s->name, views);
        return RY_CMD_INPUT;
    }
    if (ry_view_check(f, &v, msg, sizeof msg) < 0) {
        ry_error("draw: %s", msg);
        return RY_CMD_INPUT;
    }
    if (v.kind == RY_VIEW_FULL && f->nnodes > RY_DRAW_FULL_LIMIT && !ry_flag(ctx, O_FORCE)) {
        ry_error("draw: the full view of %s would have %s nodes (GPUs and switches), more than "
                 "%s: draw --view summary, rail=N or unit=N instead, or add --force",
                 s->name, thousands(n1, sizeof n1, (long long)f->nnodes),
                 thousands(n2, sizeof n2, RY_DRAW_FULL_LIMIT));
        return RY_CMD_INPUT;
    }
    ry_buf dot, img;
    ry_buf_init(&dot);
    ry_buf_init(&img);
    ry_diagram *d = ry_diagram_build(f, &v);
    ry_emit_dot(&dot, d);
    ry_diagram_free(d);
    const ry_buf *out = &dot;
    ry_cmd_status rc = RY_CMD_OK;
    if (strcmp(format, "dot") != 0) {
        int r = ry_dot_render(dot.data, dot.len, format, &img);
        if (r == RY_DOT_MISSING) {
            ry_error("draw: --format %s needs Graphviz's dot program, which is not on PATH "
                     "(install graphviz, or write DOT with --format dot)", format);
            rc = RY_CMD_IO;
        } else if (r < 0) {
            rc = RY_CMD_IO;
        }
        out = &img;
    }
    if (rc == RY_CMD_OK)
        rc = ry_write_output(ctx, ctx->out, out->data, out->len);
    ry_buf_free(&dot);
    ry_buf_free(&img);
    return rc;
}

const ry_cmd_entry ry_cmd_draw = {
    .name = "draw",
    .synopsis = "SPEC [--view VIEW] [-o FILE] [--format dot|svg|png|pdf] [--force] | SPEC --dir DIR",
    .summary = "diagrams of the fabric: summary, one rail, one scalable unit, or everything",
    .positional = "SPEC",
    .options = options,
    .needs = RY_NEED_FABRIC,
    .check = check,
    .run = run,
};
