#include "analysis/bom.h"
#include "cmd/cmd.h"
#include "emit/model/emit_model.h"
#include "model/plan.h"
#include "util/buf.h"
#include "util/diag.h"

#include <stdlib.h>

enum { O_FORMAT, O_OUTPUT, O_PAPER, O_COST, O_ANALYTIC, O_EXPLAIN, O_FORCE, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default) or json"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_PAPER] = RY_OPTION_PAPER,
    [O_COST] = RY_OPTION_COST,
    [O_ANALYTIC] = { "analytic", 0, RY_OPT_FLAG, NULL, NULL,
                     "time the collectives with the analytic shares of the fabric's tapers,\n"
                     "not on the flow engine over the fabric as built (faster, blind to\n"
                     "routing, hashing and placement)" },
    [O_EXPLAIN] = { "explain", 0, RY_OPT_FLAG, NULL, NULL,
                    "each term's time, the rate it ran at and where that rate comes\n"
                    "from (the catalog's key, the spec's, or a built-in constant)" },
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

/* The full model times its collectives on the fabric as built. */
static int on_engine(const ry_ctx *ctx)
{
    return !ctx->given[O_PAPER] && !ry_flag(ctx, O_ANALYTIC) && ctx->spec->workload;
}

static unsigned needs_more(const ry_ctx *ctx)
{
    return on_engine(ctx) ? RY_NEED_FABRIC : 0;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_plan *pl = ry_xcalloc(1, sizeof *pl);
    ry_plan_net pn = { 0 };
    int engine = on_engine(ctx) && (ctx->needs & RY_NEED_FABRIC);
    if (engine) {
        ry_err err = { { 0 }, { 0 } };
        if (ry_plan_net_init(&pn, &ctx->fabric, &err) < 0) {
            ry_spec_error(ctx->spec, err.key[0] ? "network" : NULL, "%s", err.msg);
            free(pl);
            return RY_CMD_INPUT;
        }
    }
    int mrc = engine ? ry_plan_compute_on(ctx->spec, &pn, pl)
                     : ry_plan_compute(ctx->spec, ctx->given[O_PAPER] > 0, pl);
    if (mrc < 0) {
        ry_plan_net_free(&pn);
        free(pl);
        return RY_CMD_INPUT;
    }
    /* What follows (the designs' capex, the report) needs neither the
     * engine nor the fabric it ran on, only pn's counts: their memory goes
     * back before each design's own layout is built. */
    ry_plan_net_free(&pn);
    if (engine) {
        ry_fabric_free(&ctx->fabric);
        ctx->needs &= ~(unsigned)RY_NEED_FABRIC;
    }
    ry_media_catalog *media = ry_media_catalog_load(ry_templates_dir(ctx->templates));
    if (!media) {
        ry_plan_net_free(&pn);
        free(pl);
        return ry_input_status();
    }
    ry_designs_capex *cost = ry_xmalloc(sizeof *cost);
    ry_designs_capex_compute(ctx->spec, media, cost);
    ry_media_catalog_free(media);
    cost->paper = ry_cost_paper(ry_opt(ctx, O_COST));
    ry_buf out;
    ry_buf_init(&out);
    ry_emit_plan(&out, ctx->spec, pl, cost, ctx->fmt, ry_flag(ctx, O_EXPLAIN) && !pl->paper);
    ry_plan_net_free(&pn);
    free(pl);
    free(cost);
    ry_cmd_status rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    ry_buf_free(&out);
    return rc;
}

const ry_cmd_entry ry_cmd_model = {
    .name = "model",
    .synopsis = "SPEC [--paper] [--cost capex|paper] [--analytic] [--explain] [--format text|json] "
                "[-o FILE [--force]]",
    .summary = "iteration time of the spec's LLM workload, its optimum and its capex",
    .positional = "SPEC",
    .options = options,
    .details = "The full model (needs a workload: section, see railyard-spec(5)): the fastest\n"
               "tensor x pipeline x data-parallel layout whose weights, gradients, optimizer\n"
               "states and activations fit the GPU's memory, its iteration time with the\n"
               "pipeline bubble and point-to-point terms, the ideal (one HB domain of all GPUs),\n"
               "MFU and HFU, and the capex of rail-optimized and rail-only fabrics (each laid out\n"
               "and cabled; --cost paper: the rail-only paper's cost model besides).\n"
               "The chosen layout's collectives (the data-parallel reduction, the stage\n"
               "boundaries, the context ring, the expert all-to-all) run on the flow engine over\n"
               "the fabric as built, routed and placed as the spec's network: section says\n"
               "(doc/network-model.md); --analytic keeps the analytic shares of the tapers.\n"
               "--paper: the rail-only paper's eq. 1 exactly, memory reported beside it.\n",
    .needs = RY_NEED_SPEC,
    .needs_more = needs_more,
    .reports_workload_fit = 1,  /* the model refuses a misfit itself */
    .run = run,
};
