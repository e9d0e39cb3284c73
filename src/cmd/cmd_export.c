#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "emit/emit_fabric_json.h"
#include "emit/emit_graphml.h"
#include "emit/outdir.h"
#include "util/buf.h"
#include "util/diag.h"

/* The graph is streamed, not built in memory (a million GPUs make about a
 * gigabyte of GraphML), and written beside the target until complete. */
static int write_graphml(FILE *fp, const void *f)
{
    return ry_emit_graphml(fp, f);
}

static int write_json(FILE *fp, const void *f)
{
    ry_emit_fabric_json(fp, f);
    return ferror(fp) ? -1 : 0;
}

int ry_cmd_export(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("export");
    const char *path = NULL, *output = NULL, *format = "graphml";
    const ry_optspec opts[] = { { "--format", "-f", &format, NULL }, { "--output", "-o", &output, NULL },
                                { NULL, NULL, NULL, NULL } };
    int rc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    int graphml = strcmp(format, "graphml") == 0;
    if (!graphml && strcmp(format, "json") != 0)
        return ry_usage_error(c, "--format takes graphml or json (got '%s')", format);
    ry_spec *s;
    ry_fabric f;
    rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    rc = ry_write_stream_atomic(output, graphml ? write_graphml : write_json, &f) < 0
             ? RY_EXIT_IO : RY_EXIT_OK;
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
