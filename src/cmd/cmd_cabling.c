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
    .details = "Writes cabling.csv (one row per cable; a switch port as its IB port number,\n"
               "a_port/z_port, and as the switch names it, a_cage_port/z_cage_port: 33 and\n"
               "17/1 on a QM9700), cabling.xlsx (cables, bill of materials,\n"
               "one sheet per rack, or one Racks list past 256 racks; a list longer than\n"
               "Excel's 1,048,575 rows continues on \"Cables 2\", ...), racks.csv and\n"
               "rooms.csv (where every rack and room stands, with its power); for NVIDIA's\n"
               "cable validation tool p2p.xlsx (its P2P file: swp ports on Ethernet switches,\n"
               "sw<cage>p<n> on XDR switches (NVOS), rail<n> or the NIC port's number on\n"
               "hosts; p2p.csv has the same cells), hca_mapping.csv (port to RDMA device,\n"
               "from the node's NIC table) and floor.csv (rack to building, hall, row and\n"
               "scalable unit); and netbox/: NetBox's import set, to import in the order of\n"
               "its numbers: 01-sites.csv, 02-locations.csv (buildings, halls, network rooms),\n"
               "03-racks.csv, 04-manufacturers.csv, 05-device-types/*.yaml (node and switch,\n"
               "ports as interface templates), 06-device-roles.csv, 07-devices.csv,\n"
               "08-cables.csv. ibdiagnet's topology is per subnet: see railyard opensm.\n",
    .needs = RY_NEED_CABLING | RY_NEED_BOM | RY_NEED_OUTDIR,
    .run = ry_run_group_command,
};
