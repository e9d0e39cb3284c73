#include <stdio.h>
#include <string.h>

#include "analysis/bom.h"
#include "cmd/cmd.h"
#include "emit/ib/emit_opensm.h"
#include "emit/report/emit_bom.h"
#include "emit/topo/emit_fabric_json.h"
#include "io/outdir.h"
#include "util/buf.h"
#include "util/numfmt.h"
#include "util/progress.h"

enum { O_OUTPUT, O_SKIP, O_FORCE, O_HW, O_N = O_HW + RY_HW_ROWS };
static const ry_option options[] = {
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("output directory: new, empty, or one railyard\n"
                                      "wrote (replaced as a whole)"),
    [O_SKIP] = { "skip", 0, RY_OPT_VALUE, "GROUPS", NULL,
                 "leave out output groups: opensm, ethernet, cabling, slurm,\n"
                 "kubernetes, diagrams (an earlier run's files of a skipped\n"
                 "group stay as they are)" },
    [O_FORCE] = RY_OPTION_FORCE,
    RY_OPTIONS_HARDWARE,
    [O_N] = RY_OPTION_END
};

/* What this run does with each group: writes it when it applies to the
 * spec and is not skipped; keeps an earlier run's files of a skipped one;
 * drops those of a group the spec does not have. */
static void wanted(const ry_ctx *ctx, int *want)
{
    const char *skip = ry_opt(ctx, O_SKIP);
    for (int i = 0; ry_groups[i].name; i++) {
        int skipped = 0;
        size_t n = strlen(ry_groups[i].name);
        for (const char *p = skip; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
            if (strcspn(p, ",") == n && strncmp(p, ry_groups[i].name, n) == 0)
                skipped = 1;
        if (ry_groups[i].applies && !ry_groups[i].applies(ctx))
            want[i] = RY_GROUP_DROP;
        else
            want[i] = skipped ? RY_GROUP_KEEP : RY_GROUP_WRITE;
    }
}

static ry_cmd_status check(ry_ctx *ctx)
{
    const char *skip = ry_opt(ctx, O_SKIP);
    for (const char *p = skip; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        size_t n = strcspn(p, ",");
        int known = 0;
        for (int i = 0; ry_groups[i].name; i++)
            known |= strlen(ry_groups[i].name) == n && strncmp(p, ry_groups[i].name, n) == 0;
        if (!known && n)
            return ry_usage(ctx, "--skip takes output groups: opensm, ethernet, cabling, slurm, kubernetes, "
                            "diagrams (got '%.*s')", (int)n, p);
    }
    ry_hw_args hw = ry_hw_args_of(ctx, O_HW);
    return ry_hw_check(ctx, &hw);
}

/* Everything that can fail on bad input is loaded before the first byte is
 * written: the needs of every group written. */
static unsigned needs_more(const ry_ctx *ctx)
{
    int want[RY_GROUP_COUNT];
    unsigned needs = 0;
    wanted(ctx, want);
    for (int i = 0; ry_groups[i].name; i++)
        if (want[i] == RY_GROUP_WRITE)
            needs |= ry_groups[i].needs;
    ry_hw_args hw = ry_hw_args_of(ctx, O_HW);
    return needs | ry_hw_needs(&hw);
}

/* Why the summary's capex is missing: the cabling plan's error when
 * --skip cabling left it out and it cannot be made. */
static char unpriced[640];

/* summary.txt, bom.json and fabric.json */
static int write_top(const ry_ctx *ctx, ry_outdir *o)
{
    const ry_bom *b = &ctx->bom;
    const ry_cabling *cab = (ctx->needs & RY_NEED_CABLING) ? &ctx->phys.cab : NULL;
    ry_capex capex;
    if (cab)
        ry_capex_compute(ctx->spec, b, cab, &capex);
    ry_buf buf;
    ry_buf_init(&buf);
    ry_emit_summary(&buf, ctx->spec, &ctx->fabric, b, cab ? &capex : NULL, unpriced, 0);
    int want[RY_GROUP_COUNT], earlier[RY_GROUP_COUNT], n = 0;
    const char *skipped[RY_GROUP_COUNT];
    wanted(ctx, want);
    for (int i = 0; ry_groups[i].name; i++)
        if (want[i] == RY_GROUP_KEEP) {
            skipped[n] = ry_groups[i].name;
            earlier[n++] = ry_outdir_earlier(o, ry_groups[i].name);
        }
    ry_emit_summary_skipped(&buf, skipped, earlier, n);
    int bad = ry_outdir_put(o, "summary.txt", buf.data, buf.len) < 0;
    ry_buf_reset(&buf);
    ry_emit_bom(&buf, b, cab, cab ? &capex : NULL, RY_FMT_JSON, 0);
    bad |= ry_outdir_put(o, "bom.json", buf.data, buf.len) < 0;
    ry_buf_free(&buf);
    FILE *fp = bad ? NULL : ry_outdir_open(o, "fabric.json");
    if (fp) {
        ry_emit_fabric_json(fp, &ctx->fabric);
        bad |= ry_outdir_close(o, fp) < 0;
    }
    return bad || !fp ? -1 : 0;
}

/* Routing tables past this size are named before they are written. */
#define LARGE_LFTS 100e6

/* Says, before anything is written, when opensm's routing tables will be
 * large, and how to leave them out. */
static void say_large(const ry_ctx *ctx, const int *want)
{
    for (int i = 0; ry_groups[i].name; i++) {
        if (strcmp(ry_groups[i].name, "opensm") != 0 || want[i] != RY_GROUP_WRITE)
            continue;
        ry_opensm_stats st;
        ry_opensm_lfts_estimate(&ctx->ibplan, &st);
        if (st.bytes < LARGE_LFTS)
            return;
        char size[RY_NUM_CAP];
        ry_num_si(size, sizeof size, (double)st.bytes, "B", 3);
        ry_progress_hide();
        fprintf(stderr, "railyard: build: the routing tables (opensm/*/lfts.dump: %s entries, "
                "every LID on every switch) take about %s, the largest part of %s/; "
                "--skip opensm leaves them out, and `railyard opensm` writes them alone\n",
                ry_n((long long)st.lft_entries), size, ctx->out);
    }
}

static ry_cmd_status run(ry_ctx *ctx)
{
    int want[RY_GROUP_COUNT];
    wanted(ctx, want);
    ry_hw_args hw = ry_hw_args_of(ctx, O_HW);
    ry_cmd_status rc = ry_apply_hardware(ctx, &hw);
    /* The summary's capex needs the cabling plan, also under --skip cabling. */
    ry_err err;
    unpriced[0] = '\0';
    int phys = rc == RY_CMD_OK ? ry_ctx_try_cabling(ctx, &err) : 0;
    if (phys == -2)
        return RY_CMD_INPUT;
    if (phys < 0)
        snprintf(unpriced, sizeof unpriced, "%s", err.msg);
    if (rc == RY_CMD_OK)
        say_large(ctx, want);
    if (rc == RY_CMD_OK)
        rc = ry_write_groups(ctx, ctx->out, want, write_top, NULL);
    char capex_text[96] = "";
    if (rc == RY_CMD_OK && (ctx->needs & RY_NEED_CABLING)) {
        ry_capex capex;
        ry_capex_compute(ctx->spec, &ctx->bom, &ctx->phys.cab, &capex);
        if (capex.switch_price > 0 && capex.total > 0)
            snprintf(capex_text, sizeof capex_text, ", capex %s", ry_n_money_short(capex.total));
    }
    if (rc == RY_CMD_OK)
        printf("%s: %s GPUs, %s switches, %s links%s written to %s/\n", ctx->spec->name,
               ry_n(ctx->bom.gpus), ry_n(ctx->bom.switches), ry_n(ctx->bom.links), capex_text,
               ctx->out);
    return rc;
}

const ry_cmd_entry ry_cmd_build = {
    .name = "build",
    .synopsis = "SPEC -o DIR [--skip GROUP[,GROUP...]] [--force] [--fabric FILE]... "
                "[--as-found] [--ignore-rates] [--guids FILE] [--lids FILE]",
    .summary = "build the fabric and write every output into DIR",
    .positional = "SPEC",
    .options = options,
    .details = "Writes DIR/summary.txt, DIR/bom.json, DIR/fabric.json, DIR/cabling/ (see\n"
               "railyard cabling), DIR/slurm/ (see railyard slurm), DIR/kubernetes/ (see railyard\n"
               "kubernetes), DIR/diagrams/ (the summary, rail 0 and unit 1 views, see railyard\n"
               "draw) and, for InfiniBand fabrics,\n"
               "DIR/opensm/<subnet>/ (see railyard opensm, also for --fabric, --as-found,\n"
               "--guids and --lids), for Ethernet fabrics DIR/ethernet/ (see railyard\n"
               "ethernet).\n",
    .needs = RY_NEED_BOM | RY_NEED_OUTDIR,
    .needs_more = needs_more,
    .check = check,
    .run = run,
};
