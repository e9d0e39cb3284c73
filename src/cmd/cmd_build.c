#include <stdio.h>
#include <string.h>

#include "analysis/bom.h"
#include "cmd/cmd.h"
#include "emit/emit_bom.h"
#include "emit/emit_fabric_json.h"
#include "emit/emit_cabling.h"
#include "emit/emit_dot.h"
#include "emit/emit_opensm.h"
#include "emit/emit_slurm.h"
#include "emit/outdir.h"
#include "fabric/ibplan.h"
#include "util/diag.h"

int ry_cmd_build(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("build");
    const char *path = NULL, *dir = NULL, *skip = "";
    const ry_optspec opts[] = { { "--output", "-o", &dir, NULL }, { "--skip", NULL, &skip, NULL },
                                { NULL, NULL, NULL, NULL } };
    int rc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", skip);
    for (char *sv = NULL, *tok = strtok_r(copy, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv))
        if (strcmp(tok, "opensm") != 0 && strcmp(tok, "cabling") != 0 &&
            strcmp(tok, "slurm") != 0 && strcmp(tok, "diagrams") != 0)
            return ry_usage_error(c, "--skip takes output groups: opensm, cabling, slurm, "
                                  "diagrams (got '%s')", tok);
    if (!dir)
        return ry_usage_error(c, "missing -o DIR");

    /* Everything that can fail on bad input happens before the first byte is written. */
    ry_spec *s;
    ry_fabric f;
    rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    ry_bom b;
    ry_bom_compute(&f, &b);
    /* Subnet-manager files for InfiniBand fabrics; planned before writing so
     * that a fabric OpenSM cannot take fails with nothing written. */
    int want_ib = !s->sw.ethernet && !strstr(skip, "opensm");
    ry_ibplan pl;
    memset(&pl, 0, sizeof pl);
    ry_err err;
    if (want_ib && ry_ibplan_build(&f, &pl, &err) < 0) {
        ry_spec_error(s, err.key, "%s (or leave the OpenSM files out with --skip opensm)", err.msg);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }

    int want_slurm = !strstr(skip, "slurm");
    if (want_slurm && ry_slurm_check(&f, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_ibplan_free(&pl);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    int want_cab = !strstr(skip, "cabling");
    ry_physical ph;
    memset(&ph, 0, sizeof ph);
    if (want_cab && ry_cmd_plan_cabling(g, s, &f, &ph) < 0) {
        ry_ibplan_free(&pl);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }

    ry_outdir *o = ry_outdir_begin(dir);
    if (!o) {
        ry_physical_free(&ph);
        ry_ibplan_free(&pl);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_IO;
    }
    ry_buf buf;
    ry_buf_init(&buf);
    ry_emit_summary(&buf, s, &f, &b);
    int bad = ry_outdir_put(o, "summary.txt", buf.data, buf.len) < 0;
    ry_buf_reset(&buf);
    ry_emit_bom(&buf, &b, want_cab ? &ph.cab : NULL, RY_FMT_JSON);
    bad |= ry_outdir_put(o, "bom.json", buf.data, buf.len) < 0;
    ry_buf_free(&buf);
    FILE *fp = ry_outdir_open(o, "fabric.json");
    if (fp) {
        ry_emit_fabric_json(fp, &f);
        bad |= ry_outdir_close(o, fp) < 0;
    }
    if (want_ib && !bad)
        bad |= ry_emit_opensm(o, "opensm", &pl) < 0;
    if (want_cab && !bad)
        bad |= ry_emit_cabling(o, "cabling", &ph.cab) < 0;
    if (want_slurm && !bad)
        bad |= ry_emit_slurm(o, "slurm", &f) < 0;
    if (!strstr(skip, "diagrams") && !bad)
        bad |= ry_emit_diagrams(o, "diagrams", &f) < 0;
    if (ry_outdir_commit(o) < 0)
        bad = 1;
    ry_ibplan_free(&pl);
    ry_physical_free(&ph);
    if (!bad)
        printf("%s: %lld GPUs, %lld switches, %lld links written to %s/\n", s->name, b.gpus,
               b.switches, b.links, dir);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return bad ? RY_EXIT_IO : RY_EXIT_OK;
}
