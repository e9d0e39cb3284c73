#include "cmd/cmd.h"

enum { O_OUTPUT, O_FORCE, O_HW, O_N = O_HW + RY_HW_ROWS };
static const ry_option options[] = {
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("output directory; files go to DIR/opensm/<subnet>/"),
    [O_FORCE] = RY_OPTION_FORCE,
    RY_OPTIONS_HARDWARE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status check(ry_ctx *ctx)
{
    ry_hw_args hw = ry_hw_args_of(ctx, O_HW);
    return ry_hw_check(ctx, &hw);
}

static unsigned needs_more(const ry_ctx *ctx)
{
    ry_hw_args hw = ry_hw_args_of(ctx, O_HW);
    return ry_hw_needs(&hw);
}

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_hw_args hw = ry_hw_args_of(ctx, O_HW);
    ry_cmd_status rc = ry_apply_hardware(ctx, &hw);
    return rc ? rc : ry_run_group(ctx, "opensm");
}

const ry_cmd_entry ry_cmd_opensm = {
    .name = "opensm",
    .synopsis = "SPEC -o DIR [--force] [--fabric FILE]... [--as-found] [--ignore-rates] "
                "[--guids FILE] [--lids FILE]",
    .summary = "OpenSM subnet-manager files and routing tables, one directory per subnet",
    .positional = "SPEC",
    .options = options,
    .details = "Per subnet: topology.net (ibnetdiscover format, loads in ibsim), root_guids.conf,\n"
               "cn_guids.conf, lfts.dump (routing tables for opensm -R file -U), partitions.conf,\n"
               "node-name-map, guid2lid and opensm.conf; ibdiagnet.topo (for ibdmchk -t and\n"
               "ibdiagnet -t) and ibdiag_ibnl/, the IBNL definitions of its system types.\n"
               "GUIDs are derived from infiniband.guid_base unless --fabric (the fabric's own,\n"
               "matched as verify matches them) or --guids (an inventory) gives the hardware's.\n",
    .needs = RY_NEED_IBPLAN | RY_NEED_OUTDIR,
    .needs_more = needs_more,
    .check = check,
    .run = run,
};
