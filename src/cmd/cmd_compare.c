#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "cmd/cmd.h"
#include "emit/emit_bom.h"
#include "util/buf.h"
#include "util/diag.h"

#define MAX_RADICES 32

enum { O_GPUS, O_HB, O_RAILS, O_PLANES, O_RADIX, O_FORMAT, O_OUTPUT, O_N };
static const ry_option options[] = {
    [O_GPUS] = { "gpus", 0, RY_OPT_VALUE, "N", NULL, "number of GPUs (instead of a spec)" },
    [O_HB] = { "hb-domain", 0, RY_OPT_VALUE, "K", NULL, "GPUs per HB domain (rails default to K)" },
    [O_RAILS] = { "rails", 0, RY_OPT_VALUE, "R", NULL, "rails per HB domain (default K)" },
    [O_PLANES] = { "planes", 0, RY_OPT_VALUE, "P", NULL, "network planes (default 1)" },
    [O_RADIX] = { "radix", 0, RY_OPT_VALUE, "R[,R...]", NULL,
                  "switch radices to compare (with a spec: default its switch)" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|json|csv", "text (default), json or csv"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
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

static ry_cmd_status check(ry_ctx *ctx)
{
    numbers n;
    ry_cmd_status rc = parse_numbers(ctx, &n);
    if (rc)
        return rc;
    if (ctx->arg && (ry_opt(ctx, O_GPUS) || ry_opt(ctx, O_HB) || ry_opt(ctx, O_RAILS)))
        return ry_usage(ctx, "give a SPEC or --gpus/--hb-domain, not both "
                        "(use --set to change a spec)");
    return RY_CMD_OK;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    numbers n;
    ry_cmd_status rc = parse_numbers(ctx, &n);
    if (rc)
        return rc;
    long long gpus = n.gpus, hb = n.hb, rails = n.rails, planes = n.planes;
    int *radix = n.radix, nradix = n.nradix;

    ry_spec built;
    const ry_spec *base = ctx->spec;
    if (base) {
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
    for (int i = 0; i < nradix && rc == RY_CMD_OK; i++) {
        ry_spec s;
        ry_compare_spec_for(base, radix[i], &s);
        if (ry_spec_check(&s) < 0) {
            rc = RY_CMD_INPUT;
            break;
        }
        ry_err err;
        if (ry_compare_one(&s, radix[i], &rows[i], &err) < 0) {
            ry_spec_error(&s, err.key, "radix %d: %s", radix[i], err.msg);
            rc = RY_CMD_INPUT;
        }
    }
    if (rc == RY_CMD_OK) {
        ry_buf out;
        ry_buf_init(&out);
        ry_emit_compare(&out, rows, nradix, ctx->fmt);
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
        ry_buf_free(&out);
    }
    free(rows);
    return rc;
}

const ry_cmd_entry ry_cmd_compare = {
    .name = "compare",
    .synopsis = "SPEC | --gpus N --hb-domain K --radix R[,R...] [--format text|json|csv]",
    .summary = "rail-optimized, rail-only and fat-tree side by side per switch radix",
    .positional = "SPEC",
    .positional_optional = 1,
    .options = options,
    .details = "With SPEC, compares the designs for the spec's cluster (--set applies); without,\n"
               "for the cluster given by --gpus, --hb-domain, --rails and --planes.\n",
    .needs = RY_NEED_SPEC,
    .check = check,
    .run = run,
};
