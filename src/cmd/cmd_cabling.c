#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cabling.h"
#include "cmd/cmd.h"
#include "emit/emit_cabling.h"
#include "emit/outdir.h"
#include "util/diag.h"

int ry_cmd_plan_cabling(ry_global *g, const ry_spec *s, const ry_fabric *f, ry_physical *ph)
{
    ry_err err;
    memset(ph, 0, sizeof *ph);
    if (ry_layout_build(f, &ph->lay, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        return -1;
    }
    if (ry_media_load(ry_templates_dir(g->templates), &ph->media, &ph->nmedia) < 0) {
        ry_layout_free(&ph->lay);
        return -1;
    }
    if (ry_cabling_build(f, &ph->lay, ph->media, ph->nmedia, &ph->cab, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_layout_free(&ph->lay);
        free(ph->media);
        return -1;
    }
    return 0;
}

void ry_physical_free(ry_physical *ph)
{
    ry_cabling_free(&ph->cab);
    ry_layout_free(&ph->lay);
    free(ph->media);
    memset(ph, 0, sizeof *ph);
}

static int emit(ry_outdir *o, const void *cab)
{
    return ry_emit_cabling(o, "cabling", cab);
}

int ry_cmd_cabling(ry_global *g, int argc, char **argv)
{
    const char *dir;
    ry_spec *s;
    ry_fabric f;
    int rc = ry_cmd_spec_dir(g, ry_command_find("cabling"), argc, argv, &dir, &s, &f);
    if (rc >= 0)
        return rc;
    ry_physical ph;
    if (ry_cmd_plan_cabling(g, s, &f, &ph) < 0) {
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    rc = ry_cmd_write_dir(dir, emit, &ph.cab);
    if (rc == RY_EXIT_OK)
        printf("%s: %lld cables, %lld transceivers in %d racks written to %s/cabling/\n", s->name,
               ph.cab.ncables, ph.cab.ntransceivers, ph.lay.nracks, dir);
    ry_physical_free(&ph);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
