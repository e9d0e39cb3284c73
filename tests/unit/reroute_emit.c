/* Writes a spec's OpenSM files with elements failed, through
 * ry_emit_opensm_failed, for the shell tests (tests/reroute-files.sh and
 * tests/reroute-ibsim.sh).
 * usage: reroute_emit SPEC DIR [switch NAME | link SWITCH PORT | plane P | none]...
 *   switch NAME       the switch of that name (as in node-name-map) fails
 *   link SWITCH PORT  the cable on that switch's IB port fails (to a switch or a NIC)
 *   plane P           every switch of plane P fails
 *   none              nothing (the arrays are given, all zero)
 * Templates from $RAILYARD_TEMPLATES. Exits 1 on a name that is not found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/ib/emit_opensm.h"
#include "fabric/fabric.h"
#include "fabric/ibplan.h"
#include "fabric/names.h"
#include "spec/spec.h"

static int64_t switch_named(const ry_fabric *f, const char *name)
{
    char buf[96];
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        ry_node_name(f, (uint32_t)i, buf, sizeof buf);
        if (strcmp(buf, name) == 0)
            return (int64_t)i;
    }
    fprintf(stderr, "reroute_emit: no switch named '%s'\n", name);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: reroute_emit SPEC DIR [switch NAME | link SWITCH PORT | "
                        "plane P | none]...\n");
        return 2;
    }
    ry_spec *s = ry_spec_load(argv[1], NULL, 0, ry_templates_dir(NULL));
    if (!s)
        return 1;
    ry_fabric f;
    ry_ibplan pl;
    ry_err err;
    if (ry_fabric_build(s, &f, &err) < 0 || ry_ibplan_build(&f, &pl, &err) < 0) {
        fprintf(stderr, "reroute_emit: %s\n", err.msg);
        return 1;
    }
    uint8_t *nd = calloc(f.nnodes, 1), *ld = calloc(f.nlinks, 1);
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "switch") == 0 && i + 1 < argc) {
            int64_t n = switch_named(&f, argv[++i]);
            if (n < 0)
                return 1;
            nd[n] = 1;
        } else if (strcmp(argv[i], "link") == 0 && i + 2 < argc) {
            int64_t n = switch_named(&f, argv[++i]);
            int port = atoi(argv[++i]);
            if (n < 0)
                return 1;
            if (port < 1 || (uint32_t)port > f.nodes[n].nports ||
                f.ports[f.nodes[n].port0 + (uint32_t)port - 1].link < 0) {
                fprintf(stderr, "reroute_emit: %s has no cable on port %d\n", argv[i - 1], port);
                return 1;
            }
            ld[f.ports[f.nodes[n].port0 + (uint32_t)port - 1].link] = 1;
        } else if (strcmp(argv[i], "plane") == 0 && i + 1 < argc) {
            int p = atoi(argv[++i]);
            for (size_t n = f.first_switch; n < f.nnodes; n++)
                if (f.nodes[n].plane == p)
                    nd[n] = 1;
        } else if (strcmp(argv[i], "none") != 0) {
            fprintf(stderr, "reroute_emit: what is '%s'?\n", argv[i]);
            return 2;
        }
    }
    ry_outdir *o = ry_outdir_begin(argv[2], 0);
    if (!o)
        return 3;
    ry_opensm_stats st;
    if (ry_emit_opensm_failed(o, "opensm", &pl, nd, ld, &st) < 0) {
        ry_outdir_abort(o);
        return 3;
    }
    if (ry_outdir_commit(o) < 0)
        return 3;
    printf("%d subnets, %llu LFT entries\n", st.subnets, st.lft_entries);
    free(nd);
    free(ld);
    ry_ibplan_free(&pl);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return 0;
}
