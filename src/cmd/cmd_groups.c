/* The output groups of `railyard build`, one row each. The commands that
 * write one group (opensm, ethernet, cabling, slurm, kubernetes, draw --dir) run its row, so a
 * group's files are the same bytes whichever command writes them. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/progress.h"
#include "emit/cabling/emit_cabling.h"
#include "emit/topo/emit_dot.h"
#include "emit/topo/emit_k8s.h"
#include "emit/ib/emit_opensm.h"
#include "emit/topo/emit_slurm.h"
#include "io/outdir.h"
#include "util/diag.h"
#include "util/numfmt.h"

static int is_infiniband(const ry_ctx *ctx)
{
    return !ry_spec_is_ethernet(ctx->spec);
}

static int emit_opensm(const ry_ctx *ctx, ry_outdir *o, ry_group_tally *t)
{
    return ry_emit_opensm(o, "opensm", &ctx->ibplan, &t->opensm);
}

static void report_opensm(const ry_ctx *ctx, const char *dir, const ry_group_tally *t)
{
    const ry_opensm_stats *st = &t->opensm;
    printf("%s: %d subnet%s, %s LFT entries written to %s/opensm/\n", ctx->spec->name,
           st->subnets, st->subnets == 1 ? "" : "s", ry_n((long long)st->lft_entries), dir);
}

static int is_ethernet(const ry_ctx *ctx)
{
    return ry_spec_is_ethernet(ctx->spec);
}

static int emit_ethernet(const ry_ctx *ctx, ry_outdir *o, ry_group_tally *t)
{
    return ry_emit_ethernet(o, "ethernet", &ctx->ethplan,
                            (ctx->needs & RY_NEED_CABLING) ? &ctx->phys.cab : NULL, &t->eth);
}

static void report_ethernet(const ry_ctx *ctx, const char *dir, const ry_group_tally *t)
{
    const ry_eth_stats *st = &t->eth;
    printf("%s: FRR and SONiC configs of %s switches (%s BGP sessions), addressing of %s "
           "hosts written to %s/ethernet/\n", ctx->spec->name, ry_n(st->switches),
           ry_n(st->sessions), ry_n(st->hosts), dir);
}

static int emit_cabling(const ry_ctx *ctx, ry_outdir *o, ry_group_tally *t)
{
    (void)t;
    ry_capex capex;
    ry_capex_compute(ctx->spec, &ctx->bom, &ctx->phys.cab, &capex);
    return ry_emit_cabling(o, "cabling", &ctx->phys.cab, &capex);
}

static void report_cabling(const ry_ctx *ctx, const char *dir, const ry_group_tally *t)
{
    (void)t;
    const ry_physical *ph = &ctx->phys;
    printf("%s: %s cables, %s optics modules in %s racks written to %s/cabling/\n",
           ctx->spec->name, ry_n(ph->cab.ncables), ry_n(ph->cab.ntransceivers),
           ry_n(ph->lay.nracks), dir);
}

static int emit_slurm(const ry_ctx *ctx, ry_outdir *o, ry_group_tally *t)
{
    (void)t;
    return ry_emit_slurm(o, "slurm", ctx->slurm);
}

static void report_slurm(const ry_ctx *ctx, const char *dir, const ry_group_tally *tally)
{
    (void)tally;
    const ry_slurm_tree *t = ctx->slurm;
    printf("%s: %s nodes on %s leaf switch%s (%s switches in the tree), %s block%s, "
           "written to %s/slurm/\n", ctx->spec->name, ry_n(t->nnodes), ry_n(t->nleaves),
           t->nleaves == 1 ? "" : "es", ry_n(t->nswitches), ry_n(t->blocks.n),
           t->blocks.n == 1 ? "" : "s", dir);
}

static int emit_kubernetes(const ry_ctx *ctx, ry_outdir *o, ry_group_tally *t)
{
    (void)t;
    return ry_emit_k8s_labels(o, "kubernetes", ctx->slurm);
}

static int check_kubernetes(const ry_ctx *ctx, ry_err *err)
{
    return ry_k8s_check_names(ctx->slurm, err);
}

static void report_kubernetes(const ry_ctx *ctx, const char *dir, const ry_group_tally *tally)
{
    (void)tally;
    const ry_slurm_tree *t = ctx->slurm;
    printf("%s: labels of %s nodes (%d switch level%s%s) written to %s/kubernetes/\n",
           ctx->spec->name, ry_n(t->nnodes), t->nlv, t->nlv == 1 ? "" : "s",
           t->blocks.hb ? ", HB domains" : "", dir);
}

static int emit_diagrams(const ry_ctx *ctx, ry_outdir *o, ry_group_tally *t)
{
    (void)t;
    return ry_emit_diagrams(o, "diagrams", &ctx->fabric);
}

const ry_group ry_groups[] = {
    { "opensm", RY_NEED_IBPLAN, is_infiniband, NULL, emit_opensm, report_opensm },
    { "ethernet", RY_NEED_ETHPLAN, is_ethernet, NULL, emit_ethernet, report_ethernet },
    { "cabling", RY_NEED_CABLING | RY_NEED_BOM, NULL, NULL, emit_cabling, report_cabling },
    { "slurm", RY_NEED_SLURM, NULL, NULL, emit_slurm, report_slurm },
    { "kubernetes", RY_NEED_SLURM, NULL, check_kubernetes, emit_kubernetes, report_kubernetes },
    { "diagrams", 0, NULL, NULL, emit_diagrams, NULL },
    { NULL, 0, NULL, NULL, NULL, NULL }
};
_Static_assert(sizeof ry_groups / sizeof ry_groups[0] == RY_GROUP_COUNT + 1,
               "RY_GROUP_COUNT (cmd.h) is the number of rows of ry_groups");

const ry_group *ry_group_find(const char *name)
{
    for (const ry_group *g = ry_groups; g->name; g++)
        if (strcmp(g->name, name) == 0)
            return g;
    return NULL;
}

ry_cmd_status ry_write_groups(const ry_ctx *ctx, const char *dir, const int *want,
                              int (*top)(const ry_ctx *ctx, ry_outdir *o), ry_group_tally *t)
{
    ry_group_tally local;
    if (!t)
        t = &local;
    memset(t, 0, sizeof *t);
    for (int i = 0; ry_groups[i].name; i++) {
        ry_err err;
        if (want[i] == RY_GROUP_WRITE && ry_groups[i].check &&
            ry_groups[i].check(ctx, &err) < 0) {
            ry_spec_error(ctx->spec, err.key, "%s%s%s%s", err.msg,
                          top ? " (or leave the " : "", top ? ry_groups[i].name : "",
                          top ? " files out with --skip)" : "");
            return RY_CMD_INPUT;
        }
    }
    ry_outdir *o = ry_outdir_begin(dir, ry_out_flags(ctx));
    if (!o)
        return RY_CMD_IO;
    /* build replaces every group it can write but those skipped, so that
     * DIR describes one spec (no opensm/ left from an InfiniBand fabric);
     * a skipped group's files stay as an earlier run wrote them. */
    if (top) {
        static const char *const files[] = { "summary.txt", "bom.json", "fabric.json" };
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
            ry_outdir_own(o, files[i]);
        for (int i = 0; ry_groups[i].name; i++)
            if (want[i] != RY_GROUP_KEEP)
                ry_outdir_own(o, ry_groups[i].name);
    }
    /* the groups first: the cabling plan's workbook is written on a thread
     * of its own, beside the rest (fabric.json is large too) */
    int bad = 0;
    for (int i = 0; !bad && ry_groups[i].name; i++)
        if (want[i] == RY_GROUP_WRITE) {
            ry_progress_step("writing %s/%s/", dir, ry_groups[i].name);
            bad = ry_groups[i].emit(ctx, o, t) < 0;
        }
    if (!bad && top)
        ry_progress_step("writing %s/fabric.json", dir);
    bad = bad || (top && top(ctx, o) < 0);
    if (bad) {
        ry_outdir_abort(o);
        return RY_CMD_IO;
    }
    ry_progress_step("publishing %s", dir);
    int rc = ry_outdir_commit(o);
    ry_progress_end();      /* the command's closing line follows */
    return rc < 0 ? RY_CMD_IO : RY_CMD_OK;
}

ry_cmd_status ry_run_group_command(ry_ctx *ctx)
{
    return ry_run_group(ctx, ctx->cmd->name);
}

ry_cmd_status ry_run_group(ry_ctx *ctx, const char *name)
{
    const ry_group *g = ry_group_find(name);
    int want[RY_GROUP_COUNT] = { 0 };
    RY_ASSERT(g);
    want[g - ry_groups] = RY_GROUP_WRITE;
    const char *dir = ctx->out;
    RY_ASSERT(dir);
    ry_group_tally t;
    ry_cmd_status rc = ry_write_groups(ctx, dir, want, NULL, &t);
    if (rc == RY_CMD_OK && g->report)
        g->report(ctx, dir, &t);
    return rc;
}
