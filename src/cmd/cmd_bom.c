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
    for (int i = 1; i < argc; i++) {
        int r = ry_global_option(g, argc, argv, &i);
        if (r < 0)
            return RY_EXIT_USAGE;
        if (r > 0)
            continue;
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            ry_command_usage(c, stdout);
            return RY_EXIT_OK;
        }
        const char *v;
        if ((r = ry_opt_arg(c, argc, argv, &i, "--format", "-f", &v)) != 0) {
            if (r < 0)
                return RY_EXIT_USAGE;
            if (ry_format_parse(v, &fmt) < 0)
                return ry_usage_error(c, "--format takes text, json or csv (got '%s')", v);
        } else if ((r = ry_opt_arg(c, argc, argv, &i, "--output", "-o", &output)) != 0) {
            if (r < 0)
                return RY_EXIT_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return ry_usage_error(c, "unknown option '%s'", a);
        } else if (path) {
            return ry_usage_error(c, "one spec at a time (got '%s' and '%s')", path, a);
        } else {
            path = a;
        }
    }
    if (!path)
        return ry_usage_error(c, "missing SPEC");
    ry_spec *s;
    ry_fabric f;
    int rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    ry_bom b;
    ry_bom_compute(&f, &b);
    ry_buf out;
    ry_buf_init(&out);
    ry_emit_bom(&out, &b, fmt);
    rc = ry_write_file_atomic(output, out.data, out.len) < 0 ? RY_EXIT_IO : RY_EXIT_OK;
    ry_buf_free(&out);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
