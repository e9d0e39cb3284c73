#include <string.h>

#include "cmd/cmd.h"
#include "emit/model/emit_libra.h"
#include "model/libra.h"
#include "util/buf.h"

enum { O_OBJECTIVE, O_FORMAT, O_OUTPUT, O_PLOT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_OBJECTIVE] = { "objective", 0, RY_OPT_CHOICE, "OBJ", "time|perf-per-cost",
                      "time (default) or perf-per-cost (time x network cost);\n"
                      "overrides libra.objective" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|json|csv", "text (default), json or csv"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_PLOT] = { "plot", 0, RY_OPT_VALUE, "DIR", NULL,
                 "also write DIR/libra-split.{csv,gp,png,svg}: time and cost\n"
                 "against the split between two dimensions (runs gnuplot)" },
    [O_FORCE] = RY_OPTION_FORCE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_libra_problem *p = ctx->libra;
    const char *objective = ry_opt(ctx, O_OBJECTIVE), *plot = ry_opt(ctx, O_PLOT);
    if (objective)
        p->objective = strcmp(objective, "time") == 0 ? RY_LIBRA_TIME : RY_LIBRA_PERF_PER_COST;
    ry_libra_result r;
    if (ry_libra_solve(p, &r) < 0) {
        ry_libra_result_free(&r);
        return RY_CMD_INPUT;
    }
    ry_buf out;
    ry_buf_init(&out);
    ry_emit_libra(&out, ctx->spec->name, p, &r, ctx->fmt);
    ry_cmd_status rc = RY_CMD_OK;
    /* The plot first: a failing plot leaves no report file behind either. */
    if (plot && ry_emit_libra_plot(plot, ry_out_flags(ctx), ctx->spec->name, p, &r) < 0)
        rc = RY_CMD_IO;
    if (rc == RY_CMD_OK)
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    ry_buf_free(&out);
    ry_libra_result_free(&r);
    return rc;
}

const ry_cmd_entry ry_cmd_optimize = {
    .name = "optimize",
    .synopsis = "SPEC [--objective time|perf-per-cost] [--format text|json|csv] [-o FILE] "
                "[--plot DIR] [--force]",
    .summary = "LIBRA: the bandwidth of each network dimension for a training workload",
    .positional = "SPEC",
    .options = options,
    .details = "Reads network: (or, without it, two dimensions from cluster:) and libra: from\n"
               "SPEC and finds the bandwidth per NPU of every dimension that minimises the\n"
               "iteration time, or time x cost, under the budget and constraints; reports it\n"
               "against the budget split equally. A workload taken from the LLM section runs\n"
               "the layout `model` chooses (one pipeline stage's blocks), named on the report.\n",
    .needs = RY_NEED_LIBRA,
    .run = run,
};
