#include "analysis/bom.h"
#include "analysis/sensitivity.h"
#include "cmd/cmd.h"
#include "emit/model/emit_model_plot.h"
#include "emit/report/emit_bom.h"
#include "emit/report/emit_sensitivity.h"
#include "util/buf.h"

/* The counts, the capex and the physical bill it sums; the paper's model
 * in text only with --cost paper (JSON and CSV always carry it, apart). */

enum { O_FORMAT, O_OUTPUT, O_COST, O_SENS, O_PLOT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json|csv", "text (default), json or csv"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_COST] = RY_OPTION_COST,
    [O_SENS] = { "sensitivity", 0, RY_OPT_FLAG, NULL, NULL,
                 "which prices move the capex: each switch model, optics part and\n"
                 "cable medium alone at either end of its range (cost.range_*)" },
    [O_PLOT] = { "plot", 0, RY_OPT_VALUE, "DIR", NULL,
                 "with --sensitivity, also write DIR/sensitivity.{csv,gp,png,svg}:\n"
                 "the tornado (runs gnuplot)" },
    [O_FORCE] = RY_OPTION_FORCE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_buf out;
    ry_buf_init(&out);
    const ry_cabling *cab = (ctx->needs & RY_NEED_CABLING) ? &ctx->phys.cab : NULL;
    ry_capex capex;
    if (cab)
        ry_capex_compute(ctx->spec, &ctx->bom, cab, &capex);
    int sens = ry_flag(ctx, O_SENS) && cab;
    const char *plot = ry_opt(ctx, O_PLOT);
    if (plot && !ry_flag(ctx, O_SENS))
        return ry_usage(ctx, "--plot draws the sensitivity: give --sensitivity too");
    if (ry_flag(ctx, O_SENS) && ctx->fmt == RY_FMT_CSV)
        return ry_usage(ctx, "--sensitivity is text or json (--plot DIR writes its CSV)");
    ry_price_items items;
    if (sens)
        ry_price_items_of(ctx->spec, &capex, cab, &items);
    ry_emit_bom_sens(&out, &ctx->bom, cab, cab ? &capex : NULL, ctx->fmt,
                     ry_cost_paper(ry_opt(ctx, O_COST)), sens ? &items : NULL);
    ry_cmd_status rc = RY_CMD_OK;
    /* the plot first: a failing plot leaves no report file behind either */
    if (sens && plot) {
        ry_buf csv, gp;
        ry_buf_init(&csv);
        ry_buf_init(&gp);
        char title[256];
        snprintf(title, sizeof title, "%s: capex at either end of each price range",
                 ctx->spec->name);
        ry_emit_sensitivity_plot(&csv, &gp, title, "sensitivity", &items);
        int plotted;
        if (ry_plot_write_set(plot, ry_out_flags(ctx), "sensitivity", &csv, &gp, &plotted) < 0)
            rc = RY_CMD_IO;
        ry_buf_free(&csv);
        ry_buf_free(&gp);
    }
    if (rc == RY_CMD_OK)
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    ry_buf_free(&out);
    return rc;
}

const ry_cmd_entry ry_cmd_bom = {
    .name = "bom",
    .synopsis = "SPEC [--format text|json|csv] [--cost capex|paper] [--sensitivity [--plot DIR]] "
                "[-o FILE] [--force]",
    .summary = "bill of materials and capex of the fabric",
    .positional = "SPEC",
    .options = options,
    .needs = RY_NEED_BOM | RY_NEED_CABLING,
    .run = run,
};
