#include "cmd/cmd.h"

static const ry_option options[] = {
    RY_OPTION_OUTPUT_DIR("output directory; files go to DIR/cabling/"),
    RY_OPTION_FORCE,
    RY_OPTION_END
};

static ry_cmd_status run(ry_ctx *ctx)
{
    return ry_run_group(ctx, "cabling");
}

const ry_cmd_entry ry_cmd_cabling = {
    .name = "cabling",
    .synopsis = "SPEC -o DIR [--force]",
    .summary = "the cabling plan: racks, cable lengths, media, spreadsheets",
    .positional = "SPEC",
    .options = options,
    .details = "Writes cabling.csv (one row per cable), cabling.xlsx (cables, bill of materials,\n"
               "one sheet per rack), netbox-cables.csv, p2p.csv (cable validation sheet) and,\n"
               "for InfiniBand, ibdiagnet.topo.\n",
    .needs = RY_NEED_CABLING | RY_NEED_OUTDIR,
    .run = run,
};
