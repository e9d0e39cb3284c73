#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "emit/emit_fabric_json.h"
#include "emit/emit_graphml.h"
#include "util/buf.h"
#include "util/diag.h"

/* Streams the graph in one format; -1 on a write error. */
static int write_graph(FILE *fp, const ry_fabric *f, int graphml)
{
    if (graphml)
        return ry_emit_graphml(fp, f);
    ry_emit_fabric_json(fp, f);
    return ferror(fp) ? -1 : 0;
}

/* The graph is streamed, not built in memory (a million GPUs make about a
 * gigabyte of GraphML), so a file is written beside the target and renamed
 * into place only when complete. */
static int export_to(const char *path, const ry_fabric *f, int graphml)
{
    if (!path || strcmp(path, "-") == 0) {
        int bad = write_graph(stdout, f, graphml) < 0;
        if (fflush(stdout) != 0 || bad) {
            ry_error("cannot write to standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    ry_buf tmp;
    ry_buf_init(&tmp);
    ry_buf_printf(&tmp, "%s.railyard-tmp-%ld", path, (long)getpid());
    FILE *fp = fopen(tmp.data, "w");
    int rc = -1;
    if (!fp) {
        ry_error("cannot write '%s': %s", path, strerror(errno));
    } else {
        int bad = write_graph(fp, f, graphml) < 0;
        if (fclose(fp) != 0)
            bad = 1;
        if (bad || rename(tmp.data, path) < 0) {
            ry_error("cannot write '%s': %s", path, strerror(errno));
            unlink(tmp.data);
        } else {
            rc = 0;
        }
    }
    ry_buf_free(&tmp);
    return rc;
}

int ry_cmd_export(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("export");
    const char *path = NULL, *output = NULL, *format = "graphml";
    const ry_optspec opts[] = { { "--format", "-f", &format }, { "--output", "-o", &output },
                                { NULL, NULL, NULL } };
    int rc = ry_cmd_parse(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    int graphml = strcmp(format, "graphml") == 0;
    if (!graphml && strcmp(format, "json") != 0)
        return ry_usage_error(c, "--format takes graphml or json (got '%s')", format);
    if (!path)
        return ry_usage_error(c, "missing SPEC");
    ry_spec *s;
    ry_fabric f;
    rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    rc = export_to(output, &f, graphml) < 0 ? RY_EXIT_IO : RY_EXIT_OK;
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
