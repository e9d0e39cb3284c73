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
               "Excel's 1,048,575 rows continues on \"Cables 2\", ...), racks.csv and\n"
               "rooms.csv (where every rack and room stands, with its power), for NVIDIA's\n"
               "cable validation tool p2p.xlsx (its P2P file: swp ports on Ethernet switches,\n"
               "sw<cage>p<n> on XDR switches (NVOS),\n"
               "rail<n> or the NIC port's number on hosts; p2p.csv has the same cells),\n"
               "hca_mapping.csv (port to RDMA device, from the node's NIC table) and\n"
               "floor.csv (rack to building, hall, row and scalable unit), for InfiniBand\n"
               "ibdiagnet.topo, and netbox/: NetBox's\n"
               "import set, to import in the order of its numbers: 01-sites.csv,\n"
               "02-locations.csv (buildings, halls, network rooms), 03-racks.csv,\n"
               "04-manufacturers.csv, 05-device-types/*.yaml (node and switch, ports as\n"
               "interface templates), 06-device-roles.csv, 07-devices.csv, 08-cables.csv.\n",
    .needs = RY_NEED_CABLING | RY_NEED_OUTDIR,
    .run = ry_run_group_command,
};
