#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/topo/emit_fabric_json.h"
#include "emit/topo/emit_graphml.h"
#include "io/outdir.h"

enum { O_FORMAT, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("graphml|json",
                                  "graphml (default): every GPU and switch and every link, with\n"
                                  "their attributes as GraphML keys; json: fabric.json"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

/* The graph is streamed, not built in memory (a million GPUs make about a
 * gigabyte of GraphML), and written beside the target until complete. */
typedef struct graphml_job {
    const ry_fabric *f;
    const ry_cabling *cab;      /* NULL: edges without their cables */
} graphml_job;

static int write_graphml(FILE *fp, const void *arg)
{
    const graphml_job *j = arg;
    return ry_emit_graphml(fp, j->f, j->cab);
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
    if (json)
        return ry_write_stream_atomic(ctx->out, write_json, &ctx->fabric, ry_out_flags(ctx)) < 0 ? RY_CMD_IO
                                                                              : RY_CMD_OK;
    /* Edges carry their cables when the cabling plan can be made; a spec
     * whose floor cannot be laid out still exports its graph. */
    ry_err err;
    int phys = ry_ctx_try_cabling(ctx, &err);
    if (phys == -2)
        return RY_CMD_INPUT;
    if (phys < 0)
        ry_warn("no cabling plan (%s): edges carry no medium, part or length", err.msg);
    graphml_job j = { &ctx->fabric, phys == 0 ? &ctx->phys.cab : NULL };
    return ry_write_stream_atomic(ctx->out, write_graphml, &j, ry_out_flags(ctx)) < 0 ? RY_CMD_IO : RY_CMD_OK;
}

const ry_cmd_entry ry_cmd_export = {
    .name = "export",
    .synopsis = "SPEC [--format graphml|json] [-o FILE [--force]]",
    .summary = "the whole graph for graph tools: GraphML or JSON",
    .positional = "SPEC",
    .options = options,
    .needs = RY_NEED_FABRIC,
    .run = run,
};
