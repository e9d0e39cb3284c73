#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "cmd/cmd.h"
#include "emit/emit_model.h"
#include "emit/outdir.h"
#include "model/iteration.h"
#include "util/diag.h"

int ry_cmd_model(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("model");
    const char *path = NULL, *output = NULL, *fmtname = NULL;
    ry_format fmt = RY_FMT_TEXT;
    const ry_optspec opts[] = { { "--format", "-f", &fmtname, NULL }, { "--output", "-o", &output, NULL },
                                { NULL, NULL, NULL, NULL } };
    int rc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    if (ry_cmd_format(c, fmtname, 0, &fmt) < 0)
        return RY_EXIT_USAGE;
    ry_spec *s = ry_cmd_load_spec(g, path);
    if (!s)
        return RY_EXIT_INPUT;
    ry_model m;
    if (ry_model_compute(s, &m) < 0) {
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    ry_design_cost cost;
    ry_design_costs(s, &cost);
    ry_buf out;
    ry_buf_init(&out);
    ry_emit_model(&out, s, &m, &cost, fmt);
    rc = ry_write_file_atomic(output, out.data, out.len) < 0 ? RY_EXIT_IO : RY_EXIT_OK;
    ry_buf_free(&out);
    ry_spec_free(s);
    return rc;
}
