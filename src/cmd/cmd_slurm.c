#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/emit_slurm.h"
#include "emit/outdir.h"
#include "fabric/fabric.h"
#include "util/diag.h"

int ry_cmd_slurm(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("slurm");
    const char *path = NULL, *dir = NULL;
    const ry_optspec opts[] = { { "--output", "-o", &dir }, { NULL, NULL, NULL } };
    int rc = ry_cmd_parse(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    if (!path)
        return ry_usage_error(c, "missing SPEC");
    if (!dir)
        return ry_usage_error(c, "missing -o DIR");

    ry_spec *s;
    ry_fabric f;
    rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    ry_err err;
    if (ry_slurm_check(&f, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    ry_outdir *o = ry_outdir_begin(dir);
    int bad = !o;
    if (o) {
        bad = ry_emit_slurm(o, "slurm", &f) < 0;
        if (bad)
            ry_outdir_abort(o);
        else
            bad = ry_outdir_commit(o) < 0;
    }
    if (!bad) {
        ry_slurm_stats st;
        ry_slurm_last_stats(&st);
        printf("%s: %lld nodes on %d leaf switch%s (%d switches in the tree), %d block%s, "
               "written to %s/slurm/\n", s->name, st.nodes, st.leaf_switches,
               st.leaf_switches == 1 ? "" : "es", st.switches, st.blocks,
               st.blocks == 1 ? "" : "s", dir);
    }
    ry_fabric_free(&f);
    ry_spec_free(s);
    return bad ? RY_EXIT_IO : RY_EXIT_OK;
}
