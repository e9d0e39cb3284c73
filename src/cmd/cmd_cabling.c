#include "cmd/cmd.h"

static const ry_option options[] = {
    RY_OPTION_OUTPUT_DIR("output directory; files go to DIR/cabling/"),
    RY_OPTION_FORCE,
    RY_OPTION_END
};

const ry_cmd_entry ry_cmd_cabling = {
    .name = "cabling",
    .synopsis = "SPEC -o DIR [--force]",
    .summary = "the cabling plan: racks, cable lengths, media, spreadsheets",
    .positional = "SPEC",
    .options = options,
    .details = "Writes cabling.csv (one row per cable), cabling.xlsx (cables, bill of materials,\n"
               "one sheet per rack, or one Racks list past 256 racks; a list longer than\n"
               "Excel's 1,048,575 rows continues on \"Cables 2\", ...), netbox-cables.csv,\n"
               "p2p.csv (cable validation sheet), racks.csv and rooms.csv (where every rack\n"
               "and room stands, with its power). ibdiagnet's topology is per subnet: see\n"
               "railyard opensm.\n",
    .needs = RY_NEED_CABLING | RY_NEED_OUTDIR,
    .run = ry_run_group_command,
};
