#include "cmd/cmd.h"

static const ry_option options[] = {
    RY_OPTION_OUTPUT_DIR("output directory; files go to DIR/slurm/"),
    RY_OPTION_FORCE,
    RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    return ry_run_group(ctx, "slurm");
}

const ry_cmd_entry ry_cmd_slurm = {
    .name = "slurm",
    .synopsis = "SPEC -o DIR [--force]",
    .summary = "Slurm topology files: tree and block plugins, and topology.yaml",
    .positional = "SPEC",
    .options = options,
    .details = "Writes topology.conf (topology/tree: one logical leaf switch per scalable unit,\n"
               "or per leaf on a fat tree, up to one root), topology-block.conf (topology/block:\n"
               "HB domains as blocks when they span nodes, else the leaf switches) and\n"
               "topology.yaml (both, for Slurm 25.05 and later). Host names follow naming.node.\n",
    .needs = RY_NEED_SLURM | RY_NEED_OUTDIR,
    .run = run,
};
