#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/emit_opensm.h"
#include "emit/outdir.h"
#include "fabric/ibplan.h"
#include "util/diag.h"

static int emit(ry_outdir *o, const void *pl)
{
    return ry_emit_opensm(o, "opensm", pl);
}

int ry_cmd_opensm(ry_global *g, int argc, char **argv)
{
    const char *dir;
    ry_spec *s;
    ry_fabric f;
    int rc = ry_cmd_spec_dir(g, ry_command_find("opensm"), argc, argv, &dir, &s, &f);
    if (rc >= 0)
        return rc;
    ry_ibplan pl;
    ry_err err;
    if (ry_ibplan_build(&f, &pl, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    rc = ry_cmd_write_dir(dir, emit, &pl);
    if (rc == RY_EXIT_OK) {
        ry_opensm_stats st;
        ry_opensm_last_stats(&st);
        printf("%s: %d subnet%s, %llu LFT entries written to %s/opensm/\n", s->name, st.subnets,
               st.subnets == 1 ? "" : "s", st.lft_entries, dir);
    }
    ry_ibplan_free(&pl);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
