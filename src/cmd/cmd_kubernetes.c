#include "cmd/cmd.h"

static const ry_option options[] = {
    RY_OPTION_OUTPUT_DIR("output directory; the file goes to DIR/kubernetes/"),
    RY_OPTION_FORCE,
    RY_OPTION_END
};

const ry_cmd_entry ry_cmd_kubernetes = {
    .name = "kubernetes",
    .synopsis = "SPEC -o DIR [--force]",
    .summary = "Kubernetes node labels of the switch tree, in topograph's keys",
    .positional = "SPEC",
    .options = options,
    .details = "Writes node-labels.yaml: a List of Node objects with only labels, for\n"
               "kubectl apply --server-side --field-manager=railyard -f node-labels.yaml.\n"
               "fabric.topograph.run/tier-N is level N of the Slurm tree (tier-0: the node's\n"
               "scalable unit, or leaf on a fat tree); accelerator.topograph.run/domain its HB\n"
               "domain when a domain spans nodes (the keys of NVIDIA topograph v1.0).\n",
    .needs = RY_NEED_SLURM | RY_NEED_OUTDIR,
    .run = ry_run_group_command,
};
