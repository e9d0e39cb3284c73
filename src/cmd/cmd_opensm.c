#include "cmd/cmd.h"

static const ry_option options[] = {
    RY_OPTION_OUTPUT_DIR("output directory; files go to DIR/opensm/<subnet>/"),
    RY_OPTION_FORCE,
    RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    return ry_run_group(ctx, "opensm");
}

const ry_cmd_entry ry_cmd_opensm = {
    .name = "opensm",
    .synopsis = "SPEC -o DIR [--force]",
    .summary = "OpenSM subnet-manager files and routing tables, one directory per subnet",
    .positional = "SPEC",
    .options = options,
    .details = "Per subnet: topology.net (ibnetdiscover format, loads in ibsim), root_guids.conf,\n"
               "cn_guids.conf, lfts.dump (routing tables for opensm -R file -U), partitions.conf,\n"
               "node-name-map, guid2lid and opensm.conf.\n",
    .needs = RY_NEED_IBPLAN | RY_NEED_OUTDIR,
    .run = run,
};
