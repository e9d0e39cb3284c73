/* railyard init: a commented starter spec for a node model of the catalog. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/report/emit_starter.h"
#include "io/outdir.h"
#include "spec/catalog.h"
#include "util/buf.h"

enum { O_GPUS, O_NODE, O_NAME, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_GPUS] = { "gpus", 0, RY_OPT_VALUE, "N", NULL, "GPUs in the cluster (required)" },
    [O_NODE] = { "node", 0, RY_OPT_VALUE, "MODEL", NULL,
                 "the node model, a name of `railyard catalog nodes` (required)" },
    [O_NAME] = { "name", 0, RY_OPT_VALUE, "NAME", NULL, "the cluster's name (default my-cluster)" },
    [O_OUTPUT] = { "output", 'o', RY_OPT_VALUE, "FILE", NULL,
                   "write to FILE, which must not exist, instead of standard output" },
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status check(ry_ctx *ctx)
{
    const char *g = ry_opt(ctx, O_GPUS), *name = ry_opt(ctx, O_NAME);
    if (!g)
        return ry_usage(ctx, "missing --gpus N");
    if (!ry_opt(ctx, O_NODE))
        return ry_usage(ctx, "missing --node MODEL (see railyard catalog nodes)");
    char *end;
    errno = 0;
    long long n = strtoll(g, &end, 10);
    if (errno || *end || n < 1 || n > RY_MAX_GPUS || !(*g >= '0' && *g <= '9'))
        return ry_usage(ctx, "--gpus takes a whole number of GPUs, 1..%d (got '%s')", RY_MAX_GPUS,
                        g);
    if (name && !ry_catalog_name_ok(name))
        return ry_usage(ctx, "--name must be lowercase letters, digits, '.', '_' or '-', at most "
                        "%d characters (got '%s')", RY_NAME_MAX - 1, name);
    return RY_CMD_OK;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_catalog *cat = ry_catalog_load(ry_templates_dir(ctx->templates));
    if (!cat)
        return ry_input_status();
    const char *model = ry_opt(ctx, O_NODE);
    long long gpus = strtoll(ry_opt(ctx, O_GPUS), NULL, 10);
    const ry_catalog_node *node = ry_catalog_find_node(cat, model);
    ry_cmd_status rc = RY_CMD_OK;
    if (!node) {
        const char **names = ry_xcalloc((size_t)cat->nnodes + 1, sizeof *names);
        for (int i = 0; i < cat->nnodes; i++)
            names[i] = cat->nodes[i].model.name;
        char msg[1024];
        ry_catalog_unknown_text(msg, sizeof msg, "--node", "node", model, names, cat->nnodes, "");
        free(names);
        rc = ry_usage(ctx, "%s", msg);
        goto out;
    }
    const ry_node_model *m = &node->model;
    long long unit = m->hb_domain > m->gpus_per_node ? m->hb_domain : m->gpus_per_node;
    if (gpus % unit) {
        long long lo = gpus / unit * unit;
        char below[48] = "";
        if (lo)
            snprintf(below, sizeof below, "%lld or ", lo);
        rc = ry_usage(ctx, "--gpus must be a multiple of %lld for %s (%s of %lld GPUs): %s%lld",
                      unit, m->name, m->hb_domain > m->gpus_per_node ? "an NVLink domain" : "a node", unit,
                      below, lo + unit);
        goto out;
    }
    ry_buf b;
    ry_buf_init(&b);
    ry_emit_starter(&b, ry_opt(ctx, O_NAME) ? ry_opt(ctx, O_NAME) : "my-cluster", gpus, node,
                    ry_catalog_ib_switch_at(cat, m->nic_gbps));
    rc = ry_write_output(ctx, ctx->out, b.data, b.len);
    ry_buf_free(&b);
out:
    ry_catalog_free(cat);
    return rc;
}

const ry_cmd_entry ry_cmd_init = {
    .name = "init",
    .synopsis = "--gpus N --node MODEL [--name NAME] [-o FILE [--force]]",
    .summary = "a commented starter spec for a node model of the catalog",
    .options = options,
    .details = "\nThe spec names the node model and the catalog's first InfiniBand switch at\n"
               "its NIC speed; `railyard validate FILE` accepts it as written.\n",
    .check = check,
    .run = run,
};
