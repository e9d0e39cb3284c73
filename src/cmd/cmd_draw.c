#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/emit_dot.h"
#include "emit/outdir.h"
#include "util/buf.h"
#include "util/diag.h"

static const char *const formats[] = { "dot", "svg", "png", "pdf", NULL };

static int known_format(const char *s)
{
    for (int i = 0; formats[i]; i++)
        if (strcmp(s, formats[i]) == 0)
            return 1;
    return 0;
}

/* Format named by an output file's extension; "dot" when it names none. */
static const char *format_of(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return "dot";
    if (strcmp(dot + 1, "gv") == 0)
        return "dot";
    return known_format(dot + 1) ? dot + 1 : "dot";
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

/* The diagrams railyard build writes, into DIR/diagrams/. */
static int draw_dir(ry_global *g, const char *path, const char *dir)
{
    ry_spec *s;
    ry_fabric f;
    int rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    ry_outdir *o = ry_outdir_begin(dir);
    rc = RY_EXIT_IO;
    if (o) {
        if (ry_emit_diagrams(o, "diagrams", &f) < 0)
            ry_outdir_abort(o);
        else if (ry_outdir_commit(o) == 0)
            rc = RY_EXIT_OK;
    }
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}

int ry_cmd_draw(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("draw");
    const char *path = NULL, *output = NULL, *viewname = NULL, *format = NULL, *dir = NULL;
    int force = 0;
    const ry_optspec opts[] = {
        { "--view", NULL, &viewname, NULL },  { "--output", "-o", &output, NULL },
        { "--format", "-f", &format, NULL },  { "--dir", NULL, &dir, NULL },
        { "--force", NULL, NULL, &force },    { NULL, NULL, NULL, NULL }
    };
    int prc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (prc >= 0)
        return prc;
    if (dir && (viewname || output || format || force))
        return ry_usage_error(c, "--dir writes the diagrams of railyard build; it takes no "
                                 "--view, --output, --format or --force");
    if (dir)
        return draw_dir(g, path, dir);
    if (!viewname)
        viewname = "summary";
    if (format && !known_format(format))
        return ry_usage_error(c, "--format takes dot, svg, png or pdf (got '%s')", format);
    if (!format)
        format = format_of(output);
    ry_view v;
    int vr = ry_view_parse(viewname, &v);
    if (vr == -2)
        return ry_usage_error(c, "--view %s needs a whole number after '='", viewname);

    ry_spec *s;
    ry_fabric f;
    int rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    char msg[512], views[256], n1[32], n2[32];
    ry_view_list(&f, views, sizeof views);
    rc = RY_EXIT_OK;
    if (vr < 0) {
        ry_error("draw: no view '%s'; %s has the views %s", viewname, s->name, views);
        rc = RY_EXIT_INPUT;
    } else if (ry_view_check(&f, &v, msg, sizeof msg) < 0) {
        ry_error("draw: %s", msg);
        rc = RY_EXIT_INPUT;
    } else if (v.kind == RY_VIEW_FULL && f.nnodes > RY_DRAW_FULL_LIMIT && !force) {
        ry_error("draw: the full view of %s would have %s nodes (GPUs and switches), more than "
                 "%s: draw --view summary, rail=N or unit=N instead, or add --force",
                 s->name, thousands(n1, sizeof n1, (long long)f.nnodes),
                 thousands(n2, sizeof n2, RY_DRAW_FULL_LIMIT));
        rc = RY_EXIT_INPUT;
    }
    if (rc) {
        ry_fabric_free(&f);
        ry_spec_free(s);
        return rc;
    }

    ry_buf dot, img;
    ry_buf_init(&dot);
    ry_buf_init(&img);
    ry_emit_dot(&dot, &f, &v);
    const ry_buf *out = &dot;
    if (strcmp(format, "dot") != 0) {
        int r = ry_dot_render(dot.data, dot.len, format, &img);
        if (r == RY_DOT_MISSING) {
            ry_error("draw: --format %s needs Graphviz's dot program, which is not on PATH "
                     "(install graphviz, or write DOT with --format dot)", format);
            rc = RY_EXIT_IO;
        } else if (r < 0) {
            rc = RY_EXIT_IO;
        }
        out = &img;
    }
    if (rc == RY_EXIT_OK && ry_write_file_atomic(output, out->data ? out->data : "", out->len) < 0)
        rc = RY_EXIT_IO;
    ry_buf_free(&dot);
    ry_buf_free(&img);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
