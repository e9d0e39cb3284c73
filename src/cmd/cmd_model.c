#include "analysis/compare.h"
#include "cmd/cmd.h"
#include "emit/emit_model.h"
#include "model/iteration.h"
#include "util/buf.h"

enum { O_FORMAT, O_OUTPUT, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default) or json"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_design_cost cost;
    ry_design_costs(ctx->spec, &cost);
    ry_buf out;
    ry_buf_init(&out);
    ry_emit_model(&out, ctx->spec, ctx->model, &cost, ctx->fmt);
    ry_cmd_status rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    ry_buf_free(&out);
    return rc;
}

const ry_cmd_entry ry_cmd_model = {
    .name = "model",
    .synopsis = "SPEC [--format text|json] [-o FILE]",
    .summary = "iteration time of the spec's LLM workload, its optimum and its cost",
    .positional = "SPEC",
    .options = options,
    .details = "The rail-only paper's model (needs a workload: section, see railyard-spec(5)):\n"
               "the iteration time and its terms at the tensor-parallel size that minimises it,\n"
               "the ideal (one HB domain of all GPUs), relative performance, MFU and HFU, every\n"
               "constant used, and the network cost of rail-optimized and rail-only fabrics.\n",
    .needs = RY_NEED_MODEL,
    .run = run,
};
