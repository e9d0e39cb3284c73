#include <stdio.h>
#include <string.h>

#include "analysis/bom.h"
#include "cmd/cmd.h"
#include "emit/emit_bom.h"
#include "fabric/fabric.h"
#include "util/buf.h"
#include "util/diag.h"

/* Loads a spec and builds its fabric, reporting failures at spec positions.
 * Shared by the commands that start from a spec. */
int ry_cmd_spec_fabric(ry_global *g, const char *path, ry_spec **sp, ry_fabric *f)
{
    ry_spec *s = ry_cmd_load_spec(g, path);
    if (!s)
        return RY_EXIT_INPUT;
    ry_err err;
    if (ry_fabric_build(s, f, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    *sp = s;
    return RY_EXIT_OK;
}

int ry_cmd_validate(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("validate");
    const char *path = NULL;
    int rc = ry_cmd_parse_spec(g, c, argc, argv, NULL, &path);
    if (rc >= 0)
        return rc;
    ry_spec *s;
    ry_fabric f;
    rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    ry_bom b;
    ry_bom_compute(&f, &b);
    ry_buf out;
    ry_buf_init(&out);
    ry_buf_printf(&out, "%s: ok\n\n", path);
    ry_emit_summary(&out, s, &f, &b);
    fwrite(out.data, 1, out.len, stdout);
    ry_buf_free(&out);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return RY_EXIT_OK;
}
