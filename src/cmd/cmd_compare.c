#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "cmd/cmd.h"
#include "emit/emit_bom.h"
#include "emit/outdir.h"
#include "util/diag.h"

#define MAX_RADICES 32

static int parse_count(const ry_command *c, const char *opt, const char *v, long long max,
                       long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end != '\0' || x < 1 || x > max)
        return ry_usage_error(c, "%s takes a whole number from 1 to %lld (got '%s')", opt, max, v);
    *out = x;
    return 0;
}

int ry_cmd_compare(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("compare");
    const char *path = NULL, *output = NULL;
    long long gpus = 0, hb = 0, rails = 0, planes = 1;
    int radix[MAX_RADICES], nradix = 0;
    ry_format fmt = RY_FMT_TEXT;
    const char *fmtname = NULL, *sgpus = NULL, *shb = NULL, *srails = NULL, *splanes = NULL,
               *sradix = NULL;
    const ry_optspec opts[] = {
        { "--format", "-f", &fmtname, NULL }, { "--output", "-o", &output, NULL }, { "--gpus", NULL, &sgpus, NULL },
        { "--hb-domain", NULL, &shb, NULL },  { "--rails", NULL, &srails, NULL },  { "--planes", NULL, &splanes, NULL },
        { "--radix", NULL, &sradix, NULL },   { NULL, NULL, NULL, NULL }
    };
    int rc = ry_cmd_parse(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    if (ry_cmd_format(c, fmtname, 1, &fmt) < 0)
        return RY_EXIT_USAGE;
    if ((sgpus && parse_count(c, "--gpus", sgpus, 2147483647LL, &gpus)) ||
        (shb && parse_count(c, "--hb-domain", shb, 1048576, &hb)) ||
        (srails && parse_count(c, "--rails", srails, 1048576, &rails)) ||
        (splanes && parse_count(c, "--planes", splanes, 8, &planes)))
        return RY_EXIT_USAGE;
    if (sradix) {
        char *copy = ry_xstrdup(sradix), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            long long x;
            if (nradix == MAX_RADICES) {
                free(copy);
                return ry_usage_error(c, "at most %d radices", MAX_RADICES);
            }
            if (parse_count(c, "--radix", tok, 65535, &x)) {
                free(copy);
                return RY_EXIT_USAGE;
            }
            radix[nradix++] = (int)x;
        }
        free(copy);
        if (nradix == 0)
            return ry_usage_error(c, "--radix needs at least one number");
    }

    ry_spec *spec = NULL, built;
    const ry_spec *base;
    if (path) {
        if (gpus || hb || rails)
            return ry_usage_error(c, "give a SPEC or --gpus/--hb-domain, not both "
                                  "(use --set to change a spec)");
        spec = ry_cmd_load_spec(g, path);
        if (!spec)
            return RY_EXIT_INPUT;
        base = spec;
        if (nradix == 0)
            radix[nradix++] = spec->sw.radix;
    } else {
        if (!gpus || !hb || !nradix)
            return ry_usage_error(c, "give a SPEC, or --gpus N --hb-domain K --radix R[,R...]");
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
    rc = RY_EXIT_OK;
    ry_compare_row *rows = ry_xcalloc((size_t)nradix, sizeof *rows);
    for (int i = 0; i < nradix && rc == RY_EXIT_OK; i++) {
        ry_spec s = *base;
        s.sw.radix = radix[i];
        if (ry_spec_check(&s) < 0) {
            rc = RY_EXIT_INPUT;
            break;
        }
        ry_err err;
        if (ry_compare_one(&s, radix[i], &rows[i], &err) < 0) {
            ry_spec_error(&s, err.key, "radix %d: %s", radix[i], err.msg);
            rc = RY_EXIT_INPUT;
        }
    }
    if (rc == RY_EXIT_OK) {
        ry_buf out;
        ry_buf_init(&out);
        ry_emit_compare(&out, rows, nradix, fmt);
        if (ry_write_file_atomic(output, out.data, out.len) < 0)
            rc = RY_EXIT_IO;
        ry_buf_free(&out);
    }
    free(rows);
    if (spec)
        ry_spec_free(spec);
    return rc;
}
