#include "cmd/cmd.h"

static const ry_option options[] = {
    RY_OPTION_OUTPUT_DIR("output directory; files go to DIR/slurm/"),
    RY_OPTION_FORCE,
    RY_OPTION_END
};

const ry_cmd_entry ry_cmd_slurm = {
    .name = "slurm",
    .synopsis = "SPEC -o DIR [--force]",
    .summary = "Slurm files: topology (tree, block, yaml), slurm.conf nodes, gres.conf",
    .positional = "SPEC",
    .options = options,
    .details = "Writes topology.conf (topology/tree: one logical leaf switch per scalable unit,\n"
               "or per leaf on a fat tree, up to one root; Slurm 22.05 on), topology-block.conf\n"
               "(topology/block: HB domains as blocks when they span nodes, else the leaf\n"
               "switches; Slurm 24.05 on, installed as topology.conf), topology.yaml (both, for\n"
               "Slurm 25.05 and later), slurm.conf.fragment (NodeName lines with Gres=gpu:N and\n"
               "Features, PartitionName lines, TopologyPlugin) and gres.conf. Host names follow\n"
               "naming.node.\n",
    .needs = RY_NEED_SLURM | RY_NEED_OUTDIR,
    .run = ry_run_group_command,
};
