/* railyard catalog: the catalog's entries as tables, and the spec's JSON Schema. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/report/emit_catalog.h"
#include "emit/report/emit_schema.h"
#include "spec/catalog.h"
#include "util/buf.h"

enum { O_FORMAT, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default): an aligned table per section;\n"
                                               "json: every figure of every entry"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status check(ry_ctx *ctx)
{
    if (!ctx->arg || strcmp(ctx->arg, "schema") == 0)
        return RY_CMD_OK;
    for (int s = 0; s < RY_CAT_N; s++)
        if (strcmp(ctx->arg, ry_cat_section_name((ry_cat_section)s)) == 0)
            return RY_CMD_OK;
    return ry_usage(ctx, "no section '%s': switches, nodes, gpus, llms, media, prices or schema",
                    ctx->arg);
}

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_buf out;
    ry_buf_init(&out);
    if (ctx->arg && strcmp(ctx->arg, "schema") == 0) {
        ry_emit_spec_schema(&out);
        ry_cmd_status rc = ry_write_output(ctx, ctx->out, out.data, out.len);
        ry_buf_free(&out);
        return rc;
    }
    unsigned which = (1u << RY_CAT_N) - 1;
    for (int s = 0; ctx->arg && s < RY_CAT_N; s++)
        if (strcmp(ctx->arg, ry_cat_section_name((ry_cat_section)s)) == 0)
            which = 1u << s;
    const char *dir = ry_templates_dir(ctx->templates);
    ry_cat_sources src = { 0 };
    ry_catalog *cat = NULL;
    ry_llm_catalog *llm = NULL;
    ry_media_catalog *media = NULL;
    ry_libra_costs *prices = NULL;
    int bad = 0;
    if (which & (1u << RY_CAT_SWITCHES | 1u << RY_CAT_NODES))
        bad |= !(src.cat = cat = ry_catalog_load(dir));
    if (which & (1u << RY_CAT_GPUS | 1u << RY_CAT_LLMS | 1u << RY_CAT_NODES))
        bad |= !(src.llm = llm = ry_llm_catalog_load(dir));
    if (which & (1u << RY_CAT_MEDIA))
        bad |= !(src.media = media = ry_media_catalog_load(dir));
    if (which & (1u << RY_CAT_PRICES))
        bad |= !(src.prices = prices = ry_libra_costs_load(dir));
    ry_cmd_status rc = ry_input_status();
    if (!bad) {
        ry_emit_catalog(&out, &src, which, ctx->fmt);
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    }
    ry_buf_free(&out);
    ry_catalog_free(cat);
    ry_llm_catalog_free(llm);
    ry_media_catalog_free(media);
    ry_libra_costs_free(prices);
    return rc;
}

const ry_cmd_entry ry_cmd_catalog = {
    .name = "catalog",
    .synopsis = "[switches|nodes|gpus|llms|media|prices|schema] [--format text|json] [-o FILE [--force]]",
    .summary = "the catalog's switches, nodes, GPUs, LLMs, media and prices; the spec's schema",
    .positional = "SECTION",
    .positional_optional = 1,
    .options = options,
    .details = "\nWithout SECTION, every section. The catalog is the one -T, $RAILYARD_TEMPLATES\n"
               "or the installed one gives (a file missing from -T DIR comes from the next).\n"
               "schema: the spec's JSON Schema (draft-07) for editors, whatever the format.\n",
    .check = check,
    .run = run,
};
