/* railyard: GPU-cluster networks from a YAML spec. The command table; the
 * dispatcher (src/cmd/cmd.c) parses options, loads what a command needs,
 * runs it and returns its exit code. */
#include "cmd/cmd.h"
#include "util/cleanup.h"

/* In the order `railyard --help` lists them. */
static const ry_cmd_entry *const commands[] = {
    &ry_cmd_validate, &ry_cmd_bom,    &ry_cmd_compare, &ry_cmd_build,       &ry_cmd_cabling,
    &ry_cmd_draw,     &ry_cmd_export, &ry_cmd_opensm,  &ry_cmd_ethernet, &ry_cmd_slurm,       &ry_cmd_kubernetes,
    &ry_cmd_check_routes,    &ry_cmd_verify,   &ry_cmd_expand, &ry_cmd_optimize, &ry_cmd_model, &ry_cmd_sweep, &ry_cmd_search, &ry_cmd_traffic, &ry_cmd_collective, &ry_cmd_whatif,
    &ry_cmd_catalog, &ry_cmd_init,
    NULL
};

int main(int argc, char **argv)
{
    /* Temporaries and staging areas go with the run on SIGINT, SIGTERM, SIGHUP. */
    ry_cleanup_init();
    return ry_cmd_main(commands, argc, argv);
}
