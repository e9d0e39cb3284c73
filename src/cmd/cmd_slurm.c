#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/emit_slurm.h"
#include "emit/outdir.h"
#include "fabric/fabric.h"
#include "util/diag.h"

static int emit(ry_outdir *o, const void *f)
{
    return ry_emit_slurm(o, "slurm", f);
}

int ry_cmd_slurm(ry_global *g, int argc, char **argv)
{
    const char *dir;
    ry_spec *s;
    ry_fabric f;
    int rc = ry_cmd_spec_dir(g, ry_command_find("slurm"), argc, argv, &dir, &s, &f);
    if (rc >= 0)
        return rc;
    ry_err err;
    if (ry_slurm_check(&f, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    rc = ry_cmd_write_dir(dir, emit, &f);
    if (rc == RY_EXIT_OK) {
        ry_slurm_stats st;
        ry_slurm_last_stats(&st);
        printf("%s: %lld nodes on %d leaf switch%s (%d switches in the tree), %d block%s, "
               "written to %s/slurm/\n", s->name, st.nodes, st.leaf_switches,
               st.leaf_switches == 1 ? "" : "es", st.switches, st.blocks,
               st.blocks == 1 ? "" : "s", dir);
    }
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
