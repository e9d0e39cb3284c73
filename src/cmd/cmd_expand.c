#include <stdlib.h>
#include <string.h>

#include "analysis/expand.h"
#include "cmd/cmd.h"
#include "emit/report/emit_expand.h"
#include "emit/report/emit_verify.h"
#include "io/outdir.h"
#include "fabric/ibplan.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/progress.h"

enum { O_FORMAT, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default), or json: the same figures"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("also write expand.txt, expand.json, switches.csv,\n"
                                      "cables.csv, the work order (work-order.csv) and\n"
                                      "the new phase's files (as railyard build writes them,\n"
                                      "its LIDs the old phase's) to DIR"),
    [O_FORCE] = RY_OPTION_FORCE,
    [O_N] = RY_OPTION_END
};

/* The spec of the old phase: OLD when NEW is given, else SPEC as it is. */
static const char *old_path;

static ry_cmd_status check(ry_ctx *ctx)
{
    if (ctx->nmore > 1)
        return ry_usage(ctx, "expand compares two specs, OLD and NEW; %d given", 1 + ctx->nmore);
    if (ctx->fmt == RY_FMT_CSV)
        return ry_usage(ctx, "--format takes text or json (the tables are CSV files in -o DIR)");
    old_path = ctx->arg;
    if (ctx->nmore == 1) {
        /* the dispatcher loads NEW (with --set); run loads OLD */
        ctx->arg = ctx->more[0];
        ctx->nmore = 0;
    } else if (ctx->nsets == 0) {
        return ry_usage(ctx, "one SPEC compares with itself: give NEW, or --set the new size "
                        "(--set cluster.nodes=N)");
    }
    return RY_CMD_OK;
}

typedef struct old_phase {
    ry_spec *spec;
    ry_fabric f;
    ry_layout lay;
    ry_cabling cab;
    int built, laid, cabled;
} old_phase;

static void old_free(old_phase *o)
{
    if (o->cabled)
        ry_cabling_free(&o->cab);
    if (o->laid)
        ry_layout_free(&o->lay);
    if (o->built)
        ry_fabric_free(&o->f);
    ry_spec_free(o->spec);
}

static ry_cmd_status old_load(ry_ctx *ctx, old_phase *o)
{
    ry_err err;
    memset(o, 0, sizeof *o);
    ry_progress_step("reading %s", old_path);
    o->spec = ry_spec_load(old_path, NULL, 0, ry_templates_dir(ctx->templates));
    if (!o->spec)
        return ry_input_status();
    ry_progress_step("building the old fabric of %lld GPUs", o->spec->gpus);
    if (ry_fabric_build(o->spec, &o->f, &err) < 0)
        goto bad;
    o->built = 1;
    if (ry_layout_build(&o->f, &o->lay, &err) < 0)
        goto bad;
    o->laid = 1;
    if (ry_cabling_build(&o->f, &o->lay, ctx->phys.media, &o->cab, &err) < 0)
        goto bad;
    o->cabled = 1;
    if (ry_spec_is_ethernet(o->f.spec) != ry_spec_is_ethernet(ctx->spec)) {
        ry_error("%s is %s and %s %s: a phase keeps its fabric's kind", old_path,
                 ry_spec_is_ethernet(o->f.spec) ? "Ethernet" : "InfiniBand", ctx->arg,
                 ry_spec_is_ethernet(ctx->spec) ? "Ethernet" : "InfiniBand");
        return RY_CMD_INPUT;
    }
    return RY_CMD_OK;
bad:
    ry_spec_error(o->spec, err.key, "%s", err.msg);
    return RY_CMD_INPUT;
}

/* The groups of `railyard build` the new phase writes: those its spec has. */
static void wanted(const ry_ctx *ctx, int *want)
{
    for (int i = 0; ry_groups[i].name; i++)
        want[i] = ry_groups[i].applies && !ry_groups[i].applies(ctx) ? RY_GROUP_DROP
                                                                     : RY_GROUP_WRITE;
}

/* With -o, everything the groups need is loaded before anything is written. */
static unsigned needs_more(const ry_ctx *ctx)
{
    if (!ctx->out)
        return 0;
    int want[RY_GROUP_COUNT];
    unsigned needs = RY_NEED_BOM;
    wanted(ctx, want);
    for (int i = 0; ry_groups[i].name; i++)
        if (want[i] == RY_GROUP_WRITE)
            needs |= ry_groups[i].needs;
    return needs;
}

static const ry_expand *top_x;     /* the phase write_top writes */

/* The phase's own files beside the new plan's groups. */
static int write_top(const ry_ctx *ctx, ry_outdir *o)
{
    (void)ctx;
    const ry_expand *x = top_x;
    ry_buf b;
    ry_buf_init(&b);
    int bad = 0;
    ry_emit_expand(&b, x, RY_FMT_TEXT);
    bad = bad || ry_outdir_put(o, "expand.txt", b.data, b.len) < 0;
    ry_buf_reset(&b);
    ry_emit_expand(&b, x, RY_FMT_JSON);
    bad = bad || ry_outdir_put(o, "expand.json", b.data, b.len) < 0;
    ry_buf_reset(&b);
    ry_emit_expand_switches(&b, x);
    bad = bad || ry_outdir_put(o, "switches.csv", b.data, b.len) < 0;
    ry_buf_reset(&b);
    ry_emit_expand_cables(&b, x);
    bad = bad || ry_outdir_put(o, "cables.csv", b.data, b.len) < 0;
    ry_buf_reset(&b);
    ry_emit_expand_work_order(&b, x);
    bad = bad || ry_outdir_put(o, "work-order.csv", b.data, b.len) < 0;
    ry_buf_free(&b);
    return bad ? -1 : 0;
}

/* The new phase's files: every port that stays keeps the LID the old plan
 * gave it (matched by GUID, which the names give). */
static ry_cmd_status write_dir(ry_ctx *ctx, const old_phase *old, const ry_expand *x)
{
    if (ctx->needs & RY_NEED_IBPLAN) {
        ry_ibplan opl;
        ry_err err;
        if (ry_ibplan_build(&old->f, &opl, &err) < 0) {
            ry_spec_error(old->spec, err.key, "%s", err.msg);
            return RY_CMD_INPUT;
        }
        int rc = ry_ibplan_keep_lids_by_guid(&ctx->ibplan, &opl, &err);
        ry_ibplan_free(&opl);
        if (rc < 0) {
            ry_error("%s", err.msg);
            return RY_CMD_INPUT;
        }
    }
    int want[RY_GROUP_COUNT];
    wanted(ctx, want);
    top_x = x;
    return ry_write_groups(ctx, ctx->out, want, write_top, NULL);
}

static ry_cmd_status run(ry_ctx *ctx)
{
    old_phase old;
    ry_cmd_status rc = old_load(ctx, &old);
    ry_expand x;
    ry_err err;
    memset(&x, 0, sizeof x);
    if (rc == RY_CMD_OK && ry_expand_check(&old.f, &ctx->fabric, &err) < 0) {
        /* at the key of NEW that changed */
        ry_spec_error(ctx->spec, err.key, "%s", err.msg);
        rc = RY_CMD_INPUT;
    }
    if (rc == RY_CMD_OK) {
        ry_progress_step("comparing the phases");
        if (ry_expand_run(&old.f, &old.cab, &ctx->fabric, &ctx->phys.cab, &x, &err) < 0) {
            ry_error("%s", err.msg);
            rc = RY_CMD_INPUT;
        }
    }
    if (rc == RY_CMD_OK && ctx->out)
        rc = write_dir(ctx, &old, &x);
    if (rc == RY_CMD_OK) {
        ry_buf out;
        ry_buf_init(&out);
        ry_emit_expand(&out, &x, ctx->fmt);
        rc = ry_write_output(ctx, NULL, out.data, out.len);
        ry_buf_free(&out);
    }
    ry_expand_free(&x);
    old_free(&old);
    return rc;
}

const ry_cmd_entry ry_cmd_expand = {
    .name = "expand",
    .synopsis = "OLD [NEW] [--set KEY=VALUE]... [--format text|json] [-o DIR]",
    .summary = "grow a fabric by a phase: what stays, what is bought, what moves, the work order",
    .positional = "OLD",
    .more_positional = "NEW",
    .more_positional_optional = 1,
    .options = options,
    .details = "OLD is the spec of the fabric that stands, NEW the spec of the next phase;\n"
               "--set changes NEW (with one spec, NEW is OLD changed by --set:\n"
               "railyard expand cluster.yaml --set cluster.nodes=512).\n"
               "The old plan is taken as found and the new one verified against it, so\n"
               "the phase is what `railyard verify` of the new plan would report on the old\n"
               "fabric: cables kept (as planned), moved (miswired: one end elsewhere),\n"
               "added (missing) and removed (unexpected); switches kept by name, added or\n"
               "removed. A kept or moved cable of another medium, or too short, is\n"
               "replaced; a server or switch the new layout stands elsewhere is relocated.\n"
               "A phase grows the servers and switch models that stand: a shrink, another\n"
               "server model or a kept switch of another model is refused (exit 1).\n"
               "Capex of the phase at list prices: bought (new switches, new cables and\n"
               "their optics), reused, retired; the network's energy and support a year\n"
               "before and after, and the new phase's ownership over cost.years.\n"
               "Downtime: the old links taken down while\n"
               "the phase is cabled, by tier and rail, and the GPUs they cut off.\n"
               "The work order has verify's form: one action per cable of the phase\n"
               "(connect, move, remove, replace), in the order a technician walks the\n"
               "racks of the new layout.\n"
               "Exit status: 0, 1 when a spec is wrong, NEW is not a growth of OLD or the\n"
               "plans cannot be compared (too few hosts named alike), 2 on a bad command\n"
               "line, 3 when a file cannot be read or written.\n",
    .needs = RY_NEED_CABLING,
    .needs_more = needs_more,
    .check = check,
    .run = run,
};
