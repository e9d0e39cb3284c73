#include <stdio.h>

#include "analysis/bom.h"
#include "cmd/cmd.h"
#include "emit/emit_bom.h"
#include "model/libra.h"
#include "util/buf.h"

enum { O_FORMAT, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default): a one-screen summary; json: the\n"
                                               "same figures for scripts"),
    [O_N] = RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    /* LIBRA's rules that need the model (a baseline, the tensor-parallel
     * size of the LLM) hold when its problem can be built. */
    if (ctx->spec->libra && ctx->spec->libra->has_libra) {
        ry_libra_problem p;
        int bad = ry_libra_problem_build(ctx->spec, &p) < 0;
        ry_libra_problem_free(&p);
        if (bad)
            return RY_CMD_INPUT;
    }
    ry_buf out;
    ry_buf_init(&out);
    if (ctx->fmt == RY_FMT_JSON) {
        ry_emit_validate_json(&out, ctx->arg, ctx->spec, &ctx->fabric, &ctx->bom);
    } else {
        ry_buf_printf(&out, "%s: ok\n\n", ctx->arg);
        ry_emit_summary(&out, ctx->spec, &ctx->fabric, &ctx->bom);
    }
    ry_cmd_status rc = ry_write_output(ctx, NULL, out.data, out.len);
    ry_buf_free(&out);
    return rc;
}

const ry_cmd_entry ry_cmd_validate = {
    .name = "validate",
    .synopsis = "SPEC [--format text|json]",
    .summary = "parse and check a spec, print a one-screen summary",
    .positional = "SPEC",
    .options = options,
    .details = "Reads SPEC, applies --set overrides, checks every key and rule, builds the\n"
               "fabric and prints a summary. Exits 1 with file:line:col errors on bad input.\n",
    .needs = RY_NEED_BOM,
    .run = run,
};
