#include "analysis/bom.h"
#include "cmd/cmd.h"
#include "emit/report/emit_bom.h"
#include "util/buf.h"

/* The counts, the capex and the physical bill it sums; the paper's model
 * in text only with --cost paper (JSON and CSV always carry it, apart). */

enum { O_FORMAT, O_OUTPUT, O_COST, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json|csv", "text (default), json or csv"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_COST] = RY_OPTION_COST,
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
    ry_emit_bom(&out, &ctx->bom, cab, cab ? &capex : NULL, ctx->fmt,
                ry_cost_paper(ry_opt(ctx, O_COST)));
    ry_cmd_status rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    ry_buf_free(&out);
    return rc;
}

const ry_cmd_entry ry_cmd_bom = {
    .name = "bom",
    .synopsis = "SPEC [--format text|json|csv] [--cost capex|paper] [-o FILE]",
    .summary = "bill of materials and capex of the fabric",
    .positional = "SPEC",
    .options = options,
    .needs = RY_NEED_BOM | RY_NEED_CABLING,
    .run = run,
};
