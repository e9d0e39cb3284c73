#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/model/emit_model_plot.h"
#include "emit/report/emit_search.h"
#include "spec/search.h"
#include "study/search.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/vary.h"

/* railyard search: the options, and the engine's results (study/search.h)
 * printed and written. */

#define MAX_THREADS RY_SEARCH_MAX_THREADS

enum { O_VARY, O_TARGET, O_BUDGET, O_SLOW, O_OBJECTIVE, O_SENS, O_FAIL, O_SEEDS, O_THREADS, O_MEMORY, O_ANALYTIC,
       O_FORMAT, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_VARY] = { "vary", 0, RY_OPT_LIST, "KEY=VALUES", NULL,
                 "a spec key and its values, as sweep --vary takes them\n"
                 "(added to search.vary; the same key replaces it); repeatable" },
    [O_TARGET] = { "target-time", 0, RY_OPT_VALUE, "SECONDS", NULL,
                   "the answer's iteration time at most this (search.target_time;\n"
                   "0: within 1% of the fastest)" },
    [O_BUDGET] = { "budget", 0, RY_OPT_VALUE, "USD", NULL,
                   "the answer's capex at most this (search.budget; 0: none)" },
    [O_SLOW] = { "max-slowdown", 0, RY_OPT_VALUE, "X", NULL,
                 "the answer's expected slowdown under the failures at most\n"
                 "this (search.max_slowdown), like 1.02" },
    [O_OBJECTIVE] = { "objective", 0, RY_OPT_VALUE, "WHAT", NULL,
                      "capex (default) or ownership: what the front and the answer\n"
                      "price (search.objective; ownership: capex, energy and\n"
                      "support over cost.years)" },
    [O_SENS] = { "sensitivity", 0, RY_OPT_FLAG, NULL, NULL,
                 "whether the answer holds with every price of a kind\n"
                 "(switches, optics, cables) at either end of its range" },
    [O_FAIL] = { "fail", 0, RY_OPT_LIST, "SCENARIO", NULL,
                 "a failure scenario (replaces search.failures): plane, or\n"
                 "KIND:N as whatif --random takes it (spine:1); repeatable" },
    [O_SEEDS] = { "seeds", 0, RY_OPT_VALUE, "N", NULL,
                  "random draws per KIND:N scenario (search.seeds, default 4)" },
    [O_THREADS] = { "threads", 'j', RY_OPT_VALUE, "N", NULL,
                    "points evaluated at once (0, the default: one per processor,\n"
                    "fewer when the memory holds fewer builds of the spec's size)" },
    [O_MEMORY] = { "memory", 0, RY_OPT_VALUE, "SIZE", NULL,
                   "the memory the points being built may take at once, in bytes\n"
                   "or with K, M, G or T (powers of 1024): 8G (default: what is\n"
                   "available, MemAvailable within ulimit -v)" },
    [O_ANALYTIC] = { "analytic", 0, RY_OPT_FLAG, NULL, NULL,
                     "time each point's collectives with the analytic shares of\n"
                     "its fabric's tapers, not the flow engine (faster)" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|csv", "text (default): the table; csv: every point"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("write DIR/points.csv, front.csv, search.gp (with\n"
                                      "search.png and search.svg) and one spec per front\n"
                                      "point, front/point-N.yaml (N its number in the table)"),
    [O_FORCE] = RY_OPTION_FORCE,
    [O_N] = RY_OPTION_END
};

/* ---- the command ---------------------------------------------------------------------------- */

static ry_cmd_status parse_number(const ry_ctx *ctx, int row, double lo, double hi, double *out)
{
    const char *v = ry_opt(ctx, row);
    if (!v)
        return RY_CMD_OK;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(x) || x < lo || x > hi)
        return ry_usage(ctx, "--%s takes a number from %g to %g (got '%s')", options[row].name,
                        lo, hi, v);
    *out = x;
    return RY_CMD_OK;
}

/* --memory SIZE: bytes, or a number with K, M, G or T (powers of 1024);
 * 0 after a usage error (said). */
static long long parse_memory(const ry_ctx *ctx)
{
    const char *v = ry_opt(ctx, O_MEMORY);
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    static const char units[] = "KMGT";
    const char *u = *end ? strchr(units, *end & ~0x20) : NULL;
    if (u && *u) {
        x *= pow(1024, (double)(u - units + 1));
        end++;
        if ((*end & ~0x20) == 'I' && (end[1] & ~0x20) == 'B')
            end += 2;
        else if ((*end & ~0x20) == 'B')
            end++;
    }
    if (errno || end == v || *end || !isfinite(x) || x < 1024 * 1024 || x > 1e18) {
        ry_usage(ctx, "--memory takes a size of at least 1M, in bytes or with K, M, G or T "
                 "(got '%s')", v);
        return 0;
    }
    return (long long)x;
}

static ry_cmd_status check(ry_ctx *ctx)
{
    double x;
    ry_cmd_status rc;
    if ((rc = parse_number(ctx, O_TARGET, 0, 1e9, &x)) ||
        (rc = parse_number(ctx, O_BUDGET, 0, 1e15, &x)) ||
        (rc = parse_number(ctx, O_SLOW, 0, 1e6, &x)) ||
        (rc = parse_number(ctx, O_SEEDS, 1, 1000, &x)) ||
        (rc = parse_number(ctx, O_THREADS, 0, MAX_THREADS, &x)))
        return rc;
    if (ry_opt(ctx, O_MEMORY) && !parse_memory(ctx))
        return RY_CMD_USAGE;
    if (ry_opt(ctx, O_SLOW) && (parse_number(ctx, O_SLOW, 0, 1e6, &x), x != 0 && x < 1))
        return ry_usage(ctx, "--max-slowdown takes 0 (no limit) or a slowdown of at least 1, "
                        "like 1.02 (got '%s')", ry_opt(ctx, O_SLOW));
    if (ry_flag(ctx, O_SENS) && ctx->fmt == RY_FMT_CSV)
        return ry_usage(ctx, "--sensitivity is text only");
    const char *obj = ry_opt(ctx, O_OBJECTIVE);
    if (obj && strcmp(obj, "capex") != 0 && strcmp(obj, "ownership") != 0)
        return ry_usage(ctx, "--objective takes capex or ownership (got '%s')", obj);
    for (int r = O_SEEDS; r <= O_THREADS; r++)
        if (ry_opt(ctx, r) && (parse_number(ctx, r, 0, 1e9, &x), x != floor(x)))
            return ry_usage(ctx, "--%s takes a whole number (got '%s')", options[r].name,
                            ry_opt(ctx, r));
    const char **fails = ctx->list[O_FAIL];
    for (int i = 0; fails && fails[i]; i++) {
        const char *why = NULL;
        if (strlen(fails[i]) >= 64 || ry_search_failure_check(fails[i], &why) < 0)
            return ry_usage(ctx, "--fail '%s': %s", fails[i], why ? why : "too long");
        if (i == RY_SEARCH_MAX_FAILURES - 1 && fails[i + 1])
            return ry_usage(ctx, "at most %d --fail scenarios", RY_SEARCH_MAX_FAILURES);
    }
    const char **vary = ctx->list[O_VARY];
    for (int i = 0; vary && vary[i]; i++) {
        ry_vary v;
        const char *why = NULL;
        char shown[RY_SHOWN_MAX];
        if (ry_vary_parse(vary[i], &v, &why) < 0)
            return ry_usage(ctx, "--vary %s: %s", ry_shown(shown, vary[i]), why);
        int bad = ry_search_key_check(v.key, (ry_pos){ "--vary", i + 1, 1 }, "--vary") < 0;
        ry_vary_free(&v);
        if (bad)
            return RY_CMD_USAGE;
        if (i == 7 && vary[i + 1])
            return ry_usage(ctx, "at most 8 --vary options");
    }
    return RY_CMD_OK;
}

static ry_cmd_status write_dir(const ry_ctx *ctx, const ry_search_result *r,
                               const ry_search *S);

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_search_in in;
    ry_search_in_init(&in, ctx->spec, ctx->arg, ry_templates_dir(ctx->templates));
    in.sets = ctx->sets;
    in.nsets = ctx->nsets;
    in.vary = ctx->list[O_VARY];
    in.fails = ctx->list[O_FAIL];
    double x;
    if (ry_opt(ctx, O_SEEDS) && parse_number(ctx, O_SEEDS, 1, 1000, &x) == RY_CMD_OK)
        in.seeds = (int)x;
    parse_number(ctx, O_TARGET, 0, 1e9, &in.target_time);
    parse_number(ctx, O_BUDGET, 0, 1e15, &in.budget);
    parse_number(ctx, O_SLOW, 0, 1e6, &in.max_slowdown);
    const char *obj = ry_opt(ctx, O_OBJECTIVE);
    if (obj)    /* checked: capex or ownership */
        in.objective = strcmp(obj, "ownership") == 0;
    if (ry_opt(ctx, O_THREADS) && parse_number(ctx, O_THREADS, 0, MAX_THREADS, &x) == RY_CMD_OK)
        in.threads = (int)x;
    if (ry_opt(ctx, O_MEMORY))
        in.memory = parse_memory(ctx);
    in.analytic = ry_flag(ctx, O_ANALYTIC);
    ry_search *S;
    ry_search_result res;
    ry_cmd_status rc = (ry_cmd_status)ry_search_run(&in, &S, &res);
    if (rc == RY_CMD_OK) {
        ry_buf out;
        ry_buf_init(&out);
        if (ctx->fmt == RY_FMT_CSV)
            ry_emit_search_csv(&out, &res, 0);
        else
            ry_emit_search_text(&out, &res);
        if (ry_flag(ctx, O_SENS) && ctx->fmt != RY_FMT_CSV) {
            const ry_spec *s = ctx->spec;
            double range[3] = { s->range_switches, s->range_optics, s->range_cables };
            ry_emit_search_sensitivity(&out, &res, range, s->own_support_pct, s->rel.switch_rate,
                                       s->rel.cable_rate);
        }
        if (ctx->out)
            rc = write_dir(ctx, &res, S);
        if (rc == RY_CMD_OK)
            rc = ry_write_output(ctx, NULL, out.data, out.len);
        ry_buf_free(&out);
    }
    ry_search_free(S);
    return rc;
}

static ry_cmd_status write_dir(const ry_ctx *ctx, const ry_search_result *r, const ry_search *S)
{
    ry_buf pts, front, gp, img[2], msg;
    ry_buf_init(&pts);
    ry_buf_init(&front);
    ry_buf_init(&gp);
    ry_buf_init(&img[0]);
    ry_buf_init(&img[1]);
    ry_buf_init(&msg);
    ry_emit_search_csv(&pts, r, 0);
    ry_emit_search_csv(&front, r, 1);
    ry_emit_search_plot(&gp, r);
    int plotted = 0;
    static const char *const images[] = { "search.png", "search.svg" };
    if (ry_gnuplot_program()) {
        if (ry_plot_render("search.gp", &gp, images, img, 2, &msg) == 0)
            plotted = 1;
        else if (msg.len)
            ry_warn("no plot: %s", msg.data);
    } else {
        ry_warn("gnuplot is not installed: writing search.gp without the plots (install "
                "gnuplot-nox, or run gnuplot search.gp later)");
    }
    ry_outdir *o = ry_outdir_begin(ctx->out, ry_out_flags(ctx));
    int bad = !o;
    if (o) {
        ry_outdir_own(o, "front");
        ry_outdir_own(o, "search.png");
        ry_outdir_own(o, "search.svg");
    }
    if (!bad)
        bad = ry_outdir_put(o, "points.csv", pts.data, pts.len) < 0 ||
              ry_outdir_put(o, "front.csv", front.data, front.len) < 0 ||
              ry_outdir_put(o, "search.gp", gp.data, gp.len) < 0;
    for (int i = 0; !bad && plotted && i < 2; i++)
        bad = ry_outdir_put(o, images[i], img[i].data, img[i].len) < 0;
    int width = snprintf(NULL, 0, "%lld", r->npoints);
    for (long long p = 0; !bad && p < r->npoints; p++) {
        if (!r->pts[p].front)
            continue;
        ry_buf y;
        ry_buf_init(&y);
        char name[48];
        snprintf(name, sizeof name, "point-%0*lld.yaml", width, p + 1);
        bad = ry_search_point_spec(S, p, &y) < 0 || ry_outdir_put_in(o, "front", name, y.data, y.len) < 0;
        ry_buf_free(&y);
    }
    if (o) {
        if (bad)
            ry_outdir_abort(o);
        else
            bad = ry_outdir_commit(o) < 0;
    }
    ry_buf_free(&pts);
    ry_buf_free(&front);
    ry_buf_free(&gp);
    ry_buf_free(&img[0]);
    ry_buf_free(&img[1]);
    ry_buf_free(&msg);
    return bad ? RY_CMD_IO : RY_CMD_OK;
}

const ry_cmd_entry ry_cmd_search = {
    .name = "search",
    .synopsis = "SPEC [--vary KEY=VALUES]... [--target-time S] [--budget USD] "
                "[--max-slowdown X] [--objective capex|ownership] [--sensitivity] "
                "[--fail SCENARIO]... [--seeds N] [-j N] [--memory SIZE] [--analytic] "
                "[--format text|csv] [-o DIR] [--force]",
    .summary = "the cheapest fabric that trains as fast: the Pareto front of capex and time",
    .positional = "SPEC",
    .options = options,
    .details = "Every combination of the values of search.vary and --vary is a point: the\n"
               "spec with those values set (as --set sets them), built, cabled and priced\n"
               "as `railyard bom` prices it, the full model run for each workload of\n"
               "search.workloads (or the spec's workload), and the failure scenarios of\n"
               "search.failures (default spine:1, leaf:1, plane) analysed as whatif does.\n"
               "A point that cannot be built or modeled says why. The answer: the points on\n"
               "the front of capex against iteration time (and against the expected\n"
               "slowdown under the failures), and the cheapest point within the targets.\n"
               "Points run on -j threads; the output is the same for any number. The\n"
               "fabrics being built at once keep within --memory (default: the memory\n"
               "available, MemAvailable within ulimit -v), each taking about 512 bytes\n"
               "per GPU port; by default there are no more threads than that memory\n"
               "holds builds of the spec's size, and a point that alone needs more is\n"
               "not built, and says so.\n",
    .needs = RY_NEED_SPEC,
    .reports_workload_fit = 1,
    .check = check,
    .run = run,
};