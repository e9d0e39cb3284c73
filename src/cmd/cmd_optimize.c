#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/outdir.h"
#include "model/libra.h"
#include "model/libra_report.h"
#include "model/libra_spec.h"
#include "util/buf.h"
#include "util/diag.h"

int ry_cmd_optimize(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("optimize");
    const char *path = NULL, *output = NULL, *fmtname = NULL, *objective = NULL, *plot = NULL;
    const ry_optspec opts[] = { { "--objective", NULL, &objective, NULL },
                                { "--format", "-f", &fmtname, NULL },
                                { "--output", "-o", &output, NULL },
                                { "--plot", NULL, &plot, NULL },
                                { NULL, NULL, NULL, NULL } };
    int rc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    ry_format fmt = RY_FMT_TEXT;
    if (ry_cmd_format(c, fmtname, 1, &fmt) < 0)
        return RY_EXIT_USAGE;
    int obj = -1;
    if (objective) {
        if (strcmp(objective, "time") == 0)
            obj = RY_LIBRA_TIME;
        else if (strcmp(objective, "perf-per-cost") == 0)
            obj = RY_LIBRA_PERF_PER_COST;
        else
            return ry_usage_error(c, "--objective takes time or perf-per-cost (got '%s')",
                                  objective);
    }
    if (plot && !*plot)
        return ry_usage_error(c, "--plot needs a directory");

    ry_spec *s = ry_cmd_load_spec(g, path);
    if (!s)
        return RY_EXIT_INPUT;
    ry_libra_problem p;
    ry_libra_problem_init(&p);
    if (ry_libra_read(s, ry_templates_dir(g->templates), &p) < 0) {
        ry_libra_problem_free(&p);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    if (obj >= 0)
        p.objective = (ry_libra_objective)obj;
    ry_libra_result r;
    if (ry_libra_solve(&p, &r) < 0) {
        ry_libra_result_free(&r);
        ry_libra_problem_free(&p);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    ry_buf out;
    ry_buf_init(&out);
    ry_libra_report(&out, s->name, &p, &r, fmt);
    rc = RY_EXIT_OK;
    /* The plot first: a failing plot leaves no report file behind either. */
    if (plot && ry_libra_plot(plot, s->name, &p, &r) < 0)
        rc = RY_EXIT_IO;
    if (rc == RY_EXIT_OK && ry_write_file_atomic(output, out.data, out.len) < 0)
        rc = RY_EXIT_IO;
    ry_buf_free(&out);
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);
    ry_spec_free(s);
    return rc;
}
