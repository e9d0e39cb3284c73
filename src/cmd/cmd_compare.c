#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "cmd/cmd.h"
#include "emit/report/emit_bom.h"
#include "emit/report/emit_compare.h"
#include "model/plan.h"
#include "study/compare.h"
#include "spec/workload.h"
#include "util/buf.h"
#include "util/diag.h"

/* Two views. The default sets the three designs of one cluster side by
 * side as they are built, cabled and priced (bom's capex, design by
 * design), with the workload's training speed and a spine failure's cost.
 * --paper is the rail-only paper's Table 2: its cost model, per radix. */

#define MAX_RADICES 32

enum { O_GPUS, O_NODE, O_SWITCH, O_MODEL, O_HB, O_RAILS, O_PLANES, O_RADIX, O_PAPER, O_SENS,
       O_FORMAT, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_GPUS] = { "gpus", 0, RY_OPT_VALUE, "N", NULL, "number of GPUs (instead of a spec)" },
    [O_NODE] = { "node", 0, RY_OPT_VALUE, "MODEL", NULL,
                 "with --gpus: the node model (railyard catalog nodes)" },
    [O_SWITCH] = { "switch", 0, RY_OPT_VALUE, "MODEL", NULL,
                   "the switch model (railyard catalog switches); with a\n"
                   "SPEC it replaces the spec's" },
    [O_MODEL] = { "model", 0, RY_OPT_VALUE, "NAME", NULL,
                  "the LLM trained (railyard catalog llms): iteration time,\n"
                  "tokens/s and a spine failure's slowdown per design" },
    [O_HB] = { "hb-domain", 0, RY_OPT_VALUE, "K", NULL,
               "GPUs per HB domain (default the node's; rails default to K)" },
    [O_RAILS] = { "rails", 0, RY_OPT_VALUE, "R", NULL, "rails per HB domain (default K)" },
    [O_PLANES] = { "planes", 0, RY_OPT_VALUE, "P", NULL, "network planes (default 1)" },
    [O_RADIX] = { "radix", 0, RY_OPT_VALUE, "R[,R...]", NULL,
                  "switch radix (default the spec's or the switch model's);\n"
                  "a list of radices with --paper" },
    [O_PAPER] = { "paper", 0, RY_OPT_FLAG, NULL, NULL,
                  "the rail-only paper's Table 2 view: switches, transceivers and\n"
                  "its cost model per radix (--gpus N --hb-domain K --radix R,...)" },
    [O_SENS] = { "sensitivity", 0, RY_OPT_FLAG, NULL, NULL,
                 "which prices flip the cheapest design: each kind (switches,\n"
                 "optics, cables) and each item at either end of its range" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|json|csv", "text (default), json or csv"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status parse_count(const ry_ctx *ctx, int row, long long max, long long *out)
{
    const char *v = ry_opt(ctx, row);
    char *end;
    if (!v)
        return RY_CMD_OK;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end != '\0' || x < 1 || x > max)
        return ry_usage(ctx, "--%s takes a whole number from 1 to %lld (got '%s')",
                        options[row].name, max, v);
    *out = x;
    return RY_CMD_OK;
}

/* --radix R[,R...] */
static ry_cmd_status parse_radices(const ry_ctx *ctx, int *radix, int *nradix)
{
    const char *v = ry_opt(ctx, O_RADIX);
    for (const char *p = v; p && *p; ) {
        size_t n = strcspn(p, ",");
        char tok[32];
        char *end;
        snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), p);
        errno = 0;
        long long x = strtoll(tok, &end, 10);
        if (n) {
            if (*nradix == MAX_RADICES)
                return ry_usage(ctx, "at most %d radices", MAX_RADICES);
            if (errno || end == tok || *end || n >= sizeof tok || x < 1 || x > 65535)
                return ry_usage(ctx, "--radix takes a whole number from 1 to 65535 (got '%.*s')",
                                (int)n, p);
            radix[(*nradix)++] = (int)x;
        }
        p += n + (p[n] == ',');
    }
    if (v && *nradix == 0)
        return ry_usage(ctx, "--radix needs at least one number");
    return RY_CMD_OK;
}

/* The numbers of the command line, parsed (and checked) before anything is loaded. */
typedef struct numbers {
    long long gpus, hb, rails, planes;
    int radix[MAX_RADICES], nradix;
} numbers;

static ry_cmd_status parse_numbers(const ry_ctx *ctx, numbers *n)
{
    ry_cmd_status rc;
    memset(n, 0, sizeof *n);
    n->planes = 1;
    if ((rc = parse_count(ctx, O_GPUS, 2147483647LL, &n->gpus)) ||
        (rc = parse_count(ctx, O_HB, 1048576, &n->hb)) ||
        (rc = parse_count(ctx, O_RAILS, 1048576, &n->rails)) ||
        (rc = parse_count(ctx, O_PLANES, 8, &n->planes)))
        return rc;
    return parse_radices(ctx, n->radix, &n->nradix);
}

/* The options the designs view hands to the spec loader, each as the
 * override of one key, named by its option in messages. */
static const struct {
    int row;
    const char *key, *where;
} as_keys[] = {
    { O_GPUS, "cluster.gpus", "--gpus" },
    { O_NODE, "cluster.node", "--node" },
    { O_HB, "cluster.hb_domain", "--hb-domain" },
    { O_RAILS, "cluster.rails", "--rails" },
    { O_PLANES, "cluster.planes", "--planes" },
    { O_SWITCH, "fabric.switch", "--switch" },
    { O_RADIX, "fabric.switch.radix", "--radix" },
    { O_MODEL, "workload.model", "--model" },
};

static ry_cmd_status check(ry_ctx *ctx)
{
    numbers n;
    ry_cmd_status rc = parse_numbers(ctx, &n);
    if (rc)
        return rc;
    if (ctx->arg && (ry_opt(ctx, O_GPUS) || ry_opt(ctx, O_HB) || ry_opt(ctx, O_RAILS)))
        return ry_usage(ctx, "give a SPEC or --gpus/--hb-domain, not both "
                        "(use --set to change a spec)");
    if (ry_flag(ctx, O_PAPER)) {
        for (int r = O_NODE; r <= O_MODEL; r++)
            if (ry_opt(ctx, r))
                return ry_usage(ctx, "--%s is for the designs view, not --paper", options[r].name);
        if (!ctx->arg) {
            char miss[96] = "";
            if (!ry_opt(ctx, O_GPUS))
                snprintf(miss, sizeof miss, "--gpus N");
            if (!ry_opt(ctx, O_HB))
                snprintf(miss + strlen(miss), sizeof miss - strlen(miss), "%s--hb-domain K",
                         miss[0] ? ", " : "");
            if (!ry_opt(ctx, O_RADIX))
                snprintf(miss + strlen(miss), sizeof miss - strlen(miss), "%s--radix R[,R...]",
                         miss[0] ? ", " : "");
            if (miss[0])
                return ry_usage(ctx, "--paper without a SPEC needs --gpus N --hb-domain K "
                                "--radix R[,R...]: missing %s", miss);
        }
        return RY_CMD_OK;
    }
    if (n.nradix > 1)
        return ry_usage(ctx, "--radix takes one radix here; a list of radices is the --paper "
                        "view");
    if (!ctx->arg) {
        if (!ry_opt(ctx, O_GPUS))
            return ry_usage(ctx, "give a SPEC, or --gpus N --node MODEL --switch MODEL (or "
                            "--paper --gpus N --hb-domain K --radix R[,R...])");
        if (!ry_opt(ctx, O_NODE) || !ry_opt(ctx, O_SWITCH))
            return ry_usage(ctx, "--gpus N needs %s (see railyard catalog %s), or --paper "
                            "with --hb-domain K --radix R[,R...] for the paper's table",
                            !ry_opt(ctx, O_NODE) && !ry_opt(ctx, O_SWITCH)
                                ? "--node MODEL and --switch MODEL"
                                : !ry_opt(ctx, O_NODE) ? "--node MODEL" : "--switch MODEL",
                            !ry_opt(ctx, O_NODE) && !ry_opt(ctx, O_SWITCH) ? "nodes, switches"
                                : !ry_opt(ctx, O_NODE) ? "nodes" : "switches");
    } else if (ry_opt(ctx, O_NODE)) {
        return ry_usage(ctx, "--node goes with --gpus (use --set cluster.node=MODEL to change a "
                        "spec)");
    }
    /* the options as overrides, after the command line's own --set */
    for (size_t i = 0; i < sizeof as_keys / sizeof as_keys[0]; i++) {
        const char *v = ry_opt(ctx, as_keys[i].row);
        if (!v)
            continue;
        if (ctx->nsets == RY_MAX_SETS)
            return ry_usage(ctx, "too many --set options (at most %d)", RY_MAX_SETS);
        ry_override *o = &ctx->sets[ctx->nsets];
        o->key = as_keys[i].key;
        o->value = v;
        o->argno = ++ctx->nsets;
        o->where = as_keys[i].where;
    }
    return RY_CMD_OK;
}

/* The designs side by side. */
static ry_cmd_status run_designs(ry_ctx *ctx);

/* A workload that does not fit the cluster and is not used: said once. */
static void warn_unused_workload(const ry_spec *s)
{
    if (s->workload_misfit.key[0])
        ry_warn_at(ry_spec_pos(s, s->workload_misfit.key), "%s; ignored by compare",
                   s->workload_misfit.msg);
}

static ry_cmd_status run(ry_ctx *ctx)
{
    if (ry_flag(ctx, O_SENS) && ctx->fmt == RY_FMT_CSV)
        return ry_usage(ctx, "--sensitivity is text or json");
    if (ry_flag(ctx, O_SENS) && ry_flag(ctx, O_PAPER))
        return ry_usage(ctx, "--sensitivity prices the designs as built, not --paper's model");
    if (!ry_flag(ctx, O_PAPER))
        return run_designs(ctx);
    if (ctx->spec)
        warn_unused_workload(ctx->spec);

    numbers n;
    ry_cmd_status rc = parse_numbers(ctx, &n);
    if (rc)
        return rc;
    long long gpus = n.gpus, hb = n.hb, rails = n.rails, planes = n.planes;
    int *radix = n.radix, nradix = n.nradix;

    ry_spec built;
    const ry_spec *base = ctx->spec;
    if (base) {
        if (nradix > 0 && base->n_tier > 0) {
            /* one radix for every tier would not be the fabric the spec lists */
            ry_spec_error(base, "fabric.tiers", "compare --paper --radix varies the one switch "
                          "radix, and fabric.tiers gives each tier its own switch: leave out "
                          "--radix to compare the tiers as listed, or change a tier's switch "
                          "in fabric.tiers");
            return RY_CMD_INPUT;
        }
        if (nradix == 0)
            radix[nradix++] = base->sw.radix;
    } else {
        if (!gpus || !hb || !nradix)
            return ry_usage(ctx, "give a SPEC, or --gpus N --hb-domain K --radix R[,R...]");
        ry_spec_defaults(&built);
        snprintf(built.name, sizeof built.name, "compare-%lld", gpus);
        built.gpus = gpus;
        built.hb_domain = (int)hb;
        built.rails = (int)(rails ? rails : hb);
        built.planes = (int)planes;
        built.node.gpus_per_node = hb % 8 == 0 ? 8 : (int)hb;
        built.node.hb_domain = (int)hb;
        built.nodes = gpus / built.node.gpus_per_node;
        built.sw.radix = radix[0];
        base = &built;
    }
    ry_compare_row *rows = ry_xcalloc((size_t)nradix, sizeof *rows);
    if (ry_compare_paper(base, radix, nradix, rows) < 0)
        rc = RY_CMD_INPUT;
    if (rc == RY_CMD_OK) {
        ry_buf out;
        ry_buf_init(&out);
        ry_emit_compare(&out, ctx->spec, rows, nradix, ctx->fmt);
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
        ry_buf_free(&out);
    }
    free(rows);
    return rc;
}

static ry_cmd_status run_designs(ry_ctx *ctx)
{
    ry_spec *own = NULL;
    const ry_spec *s = ctx->spec;
    if (!s) {
        /* --gpus: a built-in spec the options complete (check made them overrides) */
        own = ry_spec_load_text("compare", "version: 1\nname: compare\n", ctx->sets, ctx->nsets,
                                ry_templates_dir(ctx->templates));
        if (!own)
            return ry_input_status();
        snprintf(own->name, sizeof own->name, "compare-%lld", own->gpus);
        s = own;
    }
    /* --model asked for the model: a misfit is its error (ry_plan_compute says it) */
    int want_model = s->workload != NULL || ry_opt(ctx, O_MODEL);
    if (!ry_opt(ctx, O_MODEL))
        warn_unused_workload(s);
    ry_cmd_status rc = RY_CMD_OK;
    ry_media_catalog *media = ry_media_catalog_load(ry_templates_dir(ctx->templates));
    if (!media) {
        ry_spec_free(own);
        return ry_input_status();
    }
    ry_compare_design d[3];
    int built = ry_compare_designs(s, media, want_model, d);
    if (built < 0)
        rc = RY_CMD_INPUT;
    if (rc == RY_CMD_OK && built == 0) {
        for (int i = 0; i < 3; i++)
            ry_spec_error(s, "fabric.design", "%s: %s", ry_design_name((ry_design)i), d[i].err);
        rc = RY_CMD_INPUT;
    }
    if (rc == RY_CMD_OK) {
        ry_buf out;
        ry_buf_init(&out);
        ry_emit_designs_sens(&out, s, d, 3, ctx->fmt, ry_flag(ctx, O_SENS));
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
        ry_buf_free(&out);
    }
    ry_media_catalog_free(media);
    ry_spec_free(own);
    return rc;
}

const ry_cmd_entry ry_cmd_compare = {
    .name = "compare",
    .synopsis = "SPEC | --gpus N --node MODEL --switch MODEL [--radix R] [--model NAME] "
                "[--sensitivity] [--format text|json|csv] | --paper (SPEC | --gpus N "
                "--hb-domain K --radix R,...)",
    .summary = "rail-optimized, rail-only and fat-tree side by side: switches, optics, capex, "
               "ownership, speed, failures",
    .positional = "SPEC",
    .positional_optional = 1,
    .options = options,
    .details = "\nWith SPEC, compares the designs for the spec's cluster (--set applies); without,\n"
               "for --gpus N of the --node model on the --switch model. Each design is built,\n"
               "laid out and cabled, and priced as `railyard bom` prices it (its capex); with a\n"
               "workload (the spec's, or --model) the full model gives each design its fastest\n"
               "layout, tokens/s per $1M of capex, and the slowdown when one spine fails.\n"
               "--paper: the rail-only paper's Table 2 per radix, for --gpus, --hb-domain,\n"
               "--rails and --planes, or a SPEC.\n",
    .needs = RY_NEED_SPEC,
    .reports_workload_fit = 1,
    .check = check,
    .run = run,
};
