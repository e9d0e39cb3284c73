#include <stdio.h>
#include <string.h>

#include "analysis/bom.h"
#include "cmd/cmd.h"
#include "emit/emit_bom.h"
#include "emit/outdir.h"
#include "util/diag.h"

int ry_cmd_bom(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("bom");
    const char *path = NULL, *output = NULL;
    ry_format fmt = RY_FMT_TEXT;
    const char *fmtname = NULL;
    const ry_optspec opts[] = { { "--format", "-f", &fmtname, NULL }, { "--output", "-o", &output, NULL },
                                { NULL, NULL, NULL, NULL } };
    int rc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    if (ry_cmd_format(c, fmtname, 1, &fmt) < 0)
        return RY_EXIT_USAGE;
    ry_spec *s;
    ry_fabric f;
    rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    ry_bom b;
    ry_bom_compute(&f, &b);
    ry_buf out;
    ry_buf_init(&out);
    /* The physical bill of materials beside the paper's model (text, JSON). */
    ry_physical ph;
    int have_ph = fmt != RY_FMT_CSV;
    if (have_ph && ry_cmd_plan_cabling(g, s, &f, &ph) < 0) {
        ry_buf_free(&out);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    ry_emit_bom(&out, &b, have_ph ? &ph.cab : NULL, fmt);
    if (have_ph)
        ry_physical_free(&ph);
    rc = ry_write_file_atomic(output, out.data, out.len) < 0 ? RY_EXIT_IO : RY_EXIT_OK;
    ry_buf_free(&out);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
