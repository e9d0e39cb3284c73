#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/emit_fabric_json.h"
#include "emit/emit_graphml.h"
#include "emit/outdir.h"

enum { O_FORMAT, O_OUTPUT, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("graphml|json",
                                  "graphml (default): every GPU and switch and every link, with\n"
                                  "their attributes as GraphML keys; json: fabric.json"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_N] = RY_OPTION_END
};

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

static ry_cmd_status run(ry_ctx *ctx)
{
    const char *format = ry_opt(ctx, O_FORMAT);
    int json = format && strcmp(format, "json") == 0;
    return ry_write_stream_atomic(ctx->out, json ? write_json : write_graphml, &ctx->fabric) < 0
               ? RY_CMD_IO : RY_CMD_OK;
}

const ry_cmd_entry ry_cmd_export = {
    .name = "export",
    .synopsis = "SPEC [--format graphml|json] [-o FILE]",
    .summary = "the whole graph for graph tools: GraphML or JSON",
    .positional = "SPEC",
    .options = options,
    .needs = RY_NEED_FABRIC,
    .run = run,
};
