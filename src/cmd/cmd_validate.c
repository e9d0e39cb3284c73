#include <stdio.h>
#include <stdlib.h>

#include "analysis/bom.h"
#include "analysis/design_check.h"
#include "analysis/growth.h"
#include "cmd/cmd.h"
#include "emit/report/emit_bom.h"
#include "emit/report/emit_checks.h"
#include "model/libra.h"
#include "spec/search.h"
#include "util/buf.h"

enum { O_FORMAT, O_STRICT, O_COST, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default): a one-screen summary; json: the\n"
                                               "same figures for scripts"),
    [O_STRICT] = { "strict", 0, RY_OPT_FLAG, NULL, NULL,
                   "the design checks' warnings are errors (exit 1)" },
    [O_COST] = RY_OPTION_COST,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    /* LIBRA's rules that need the model (a baseline, the tensor-parallel
     * size of the LLM) hold when its problem can be built; one made from a
     * workload that does not fit the cluster cannot be, and the
     * workload-fit check reports that. */
    const ry_libra_spec *ls = ctx->spec->libra;
    if (ls && ls->has_libra && !(ls->from_workload && ctx->spec->workload_misfit.key[0])) {
        ry_libra_problem p;
        int bad = ry_libra_problem_build(ctx->spec, &p) < 0;
        ry_libra_problem_free(&p);
        if (bad)
            return RY_CMD_INPUT;
    }
    /* the search section's values, each on the spec by itself */
    if (ctx->spec->search_space &&
        ry_search_preflight(ctx->spec, NULL, ctx->sets, ctx->nsets,
                            ry_templates_dir(ctx->templates), NULL, NULL, 0) < 0)
        return RY_CMD_INPUT;
    int strict = ry_flag(ctx, O_STRICT);
    ry_design_check *dc = ry_xmalloc(sizeof *dc);
    ry_design_check_compute(&ctx->fabric, &ctx->bom, dc);
    /* the floor: a layout or plan that cannot be made is a finding too */
    ry_err err;
    int phys = ry_ctx_try_cabling(ctx, &err);
    if (phys == -2) {
        free(dc);
        return RY_CMD_INPUT;
    }
    ry_capex capex;
    if (phys == 0) {
        ry_design_check_physical(&ctx->phys.cab, dc);
        ry_capex_compute(ctx->spec, &ctx->bom, &ctx->phys.cab, &capex);
    } else {
        ry_design_check_add(dc, RY_CHECK_ERROR, "cabling", err.key, "%s", err.msg);
    }
    /* an Ethernet fabric's plan: pools, ASNs and names that cannot be
     * made are findings at their keys */
    ry_ethplan eth = { 0 };
    int have_eth = 0;
    if (ry_spec_is_ethernet(ctx->spec)) {
        if (ry_ethplan_build(&ctx->fabric, &eth, &err) == 0)
            have_eth = 1;
        else
            ry_design_check_add(dc, RY_CHECK_ERROR, "ethernet", err.key, "%s", err.msg);
    }
    const ry_capex *cx = phys == 0 ? &capex : NULL;
    /* the reserve of a growth target: its cost now, its savings later */
    ry_growth *growth = NULL;
    ry_err growth_err = { "", "no cabling plan" };
    if (ctx->fabric.reserve && phys == 0) {
        growth = ry_xmalloc(sizeof *growth);
        if (ry_growth_compute(&ctx->fabric, &ctx->phys.cab, ctx->phys.media, growth,
                              &growth_err) < 0) {
            free(growth);
            growth = NULL;
        }
    }
    int pass = ry_checks_pass(dc, strict);
    /* Errors (and warnings under --strict) also go where errors go, at
     * the key they are about. */
    for (int i = 0; i < dc->nfindings; i++) {
        const ry_check_finding *x = &dc->finding[i];
        if (x->level == RY_CHECK_ERROR || (strict && x->level == RY_CHECK_WARNING))
            ry_spec_error(ctx->spec, x->key, "%s", x->msg);
    }
    ry_buf out;
    ry_buf_init(&out);
    if (ctx->fmt == RY_FMT_JSON) {
        ry_emit_validate_json(&out, ctx->arg, ctx->spec, &ctx->fabric, &ctx->bom, cx, dc,
                              strict, growth);
    } else {
        if (pass)
            ry_buf_printf(&out, "%s: ok\n\n", ctx->arg);
        else
            ry_buf_printf(&out, "%s: the design checks fail\n\n", ctx->arg);
        ry_emit_summary(&out, ctx->spec, &ctx->fabric, &ctx->bom, cx, phys ? err.msg : NULL,
                        ry_cost_paper(ry_opt(ctx, O_COST)));
        if (ctx->fabric.reserve)
            ry_emit_growth(&out, growth, growth_err.msg);
        if (have_eth)
            ry_eth_plan_text(&out, &eth);
        ry_emit_checks(&out, dc, strict);
    }
    ry_ethplan_free(&eth);
    free(growth);
    free(dc);
    ry_cmd_status rc = ry_write_output(ctx, NULL, out.data, out.len);
    ry_buf_free(&out);
    return rc == RY_CMD_OK && !pass ? RY_CMD_INPUT : rc;
}

const ry_cmd_entry ry_cmd_validate = {
    .name = "validate",
    .synopsis = "SPEC [--strict] [--format text|json] [--cost capex|paper]",
    .summary = "parse and check a spec, print a one-screen summary",
    .positional = "SPEC",
    .options = options,
    .details = "Reads SPEC, applies --set overrides, checks every key and rule, builds the\n"
               "fabric and prints a summary with its capex (list prices of switches, optics\n"
               "and cables), then the design checks: NIC against switch port speed, a workload\n"
               "that does not fit the cluster, the fill and down:up bandwidth of each tier,\n"
               "idle ports and their cost, and a cheaper neighbouring size or scalable unit\n"
               "(priced by the rail-only paper's cost model); on the floor, runs near their\n"
               "medium's reach and racks over their power budget. With a growth target, what\n"
               "its reserve costs now and the cables and switches it saves moving later.\n"
               "Exits 1 with file:line:col errors on bad input or a failed check (with\n"
               "--strict, also on a warning).\n",
    .needs = RY_NEED_BOM,
    .reports_workload_fit = 1,  /* the workload-fit design check */
    .run = run,
};
