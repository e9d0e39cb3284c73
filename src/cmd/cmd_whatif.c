#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/eth_routes.h"
#include "analysis/failure.h"
#include "analysis/failure_sweep.h"
#include "cmd/cmd.h"
#include "emit/model/emit_model_plot.h"
#include "emit/ib/emit_opensm.h"
#include "io/outdir.h"
#include "emit/model/emit_whatif.h"
#include "study/whatif.h"
#include "fabric/names.h"
#include "model/iteration.h"
#include "model/plan.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/progress.h"

#define MAX_ELEMS 4096

#define MAX_SWEEP 4096        /* failures per scenario */
#define MAX_SEEDS 100000

enum { O_FAIL, O_RANDOM, O_SEED, O_FABRIC, O_SWEEP, O_SEEDS, O_TARGET, O_ALONE, O_PAPER,
       O_ANALYTIC, O_FORMAT, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_FAIL] = { "fail", 0, RY_OPT_LIST, "ELEMENT[,ELEMENT...]", NULL,
                 "fail a switch (leaf3), a cable (its label, leaf3/17 or leaf3/9/1),\n"
                 "a host NIC (node012/mlx5_3), railN or planeN (repeatable)" },
    [O_RANDOM] = { "random", 0, RY_OPT_VALUE, "KIND:N[,KIND:N...]", NULL,
                   "also fail N random elements of a kind: a tier's name\n"
                   "(leaf, spine, core), cable or nic" },
    [O_SEED] = { "seed", 0, RY_OPT_VALUE, "S", NULL,
                 "seed of --random, first seed of --sweep (default 1)" },
    [O_FABRIC] = { "fabric", 0, RY_OPT_LIST, "FILE", NULL,
                   "ibnetdiscover output of a subnet as built (repeatable):\n"
                   "its missing and miswired cables are down before the failures" },
    [O_SWEEP] = { "sweep", 0, RY_OPT_VALUE, "KIND=LO..HI", NULL,
                  "sweep LO to HI random failures of a kind (leaf=0..8):\n"
                  "mean and worst slowdown and GPUs cut off, per design" },
    [O_SEEDS] = { "seeds", 0, RY_OPT_VALUE, "N", NULL, "draws per point of --sweep (default 20)" },
    [O_TARGET] = { "target", 0, RY_OPT_VALUE, "X", NULL,
                   "worst slowdown the spares must keep, as 1.1 or 10%\n"
                   "(default 1.1; --sweep with a workload)" },
    [O_ALONE] = { "alone", 0, RY_OPT_FLAG, NULL, NULL, "the spec's design only, no counterpart" },
    [O_PAPER] = RY_OPTION_PAPER,
    [O_ANALYTIC] = { "analytic", 0, RY_OPT_FLAG, NULL, NULL,
                     "the analytic rerun only: the layout not timed on the flow engine\n"
                     "over the fabric routed around the failures (--sweep too)" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default) or json"),
    /* -o DIR: the re-routed OpenSM subnet directories, once the
     * failure-aware router takes (node_down, link_down). */
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("--sweep: write DIR/whatif-sweep.csv, .gp, .png and .svg;\n"
                                      "else DIR/opensm/<subnet>/ routed around the failures"),
    [O_FORCE] = RY_OPTION_FORCE,
    [O_N] = RY_OPTION_END
};

/* --fail values, each a comma-separated list, then --random. */
static ry_cmd_status elements(ry_ctx *ctx, ry_whatif_run *r)
{
    ry_err err;
    const char **v = ctx->list[O_FAIL];
    for (int i = 0; i < ctx->given[O_FAIL]; i++) {
        for (const char *p = v[i]; *p; ) {
            size_t len = strcspn(p, ",");
            char name[256];
            if (len == 0 || len >= sizeof name) {
                p += len + (p[len] == ',');
                if (len)
                    return ry_usage(ctx, "--fail: element too long (%zu characters)", len);
                continue;
            }
            memcpy(name, p, len);
            name[len] = '\0';
            p += len + (p[len] == ',');
            /* "leaf1, leaf2": blanks around a name are not part of it */
            char *nm = name;
            while (*nm == ' ' || *nm == '\t')
                nm++;
            for (size_t k = strlen(nm); k && (nm[k - 1] == ' ' || nm[k - 1] == '\t'); k--)
                nm[k - 1] = '\0';
            if (!*nm)
                continue;
            if (r->n == MAX_ELEMS)
                return ry_usage(ctx, "too many failed elements (at most %d)", MAX_ELEMS);
            if (ry_fail_elem_parse(r->f, r->ix, nm, &r->elems[r->n], &err) < 0)
                return ry_usage(ctx, "--fail: %s", err.msg);
            /* the same element twice is one failure */
            int dup = 0;
            for (int k = 0; k < r->n && !dup; k++)
                dup = r->elems[k].kind == r->elems[r->n].kind
                      && r->elems[k].id == r->elems[r->n].id;
            if (!dup)
                r->n++;
        }
    }
    const char *rnd = ry_opt(ctx, O_RANDOM);
    if (rnd) {
        unsigned long long seed = 1;
        const char *sv = ry_opt(ctx, O_SEED);
        if (sv) {
            char *end;
            errno = 0;
            seed = strtoull(sv, &end, 10);
            if (errno || end == sv || *end || sv[0] == '-')
                return ry_usage(ctx, "--seed takes a whole number from 0 to "
                                "18446744073709551615 (got '%s')", sv);
        }
        if (ry_fail_random(r->f, rnd, seed, r->elems, MAX_ELEMS, &r->n, &err) < 0)
            return ry_usage(ctx, "--random: %s", err.msg);
    }
    return RY_CMD_OK;
}

/* --fabric: the cables found missing or moved off their switch
 * (ry_as_built_down) are down before the failures. */
static ry_cmd_status as_built(ry_ctx *ctx, ry_whatif_run *r, long long *nfiles)
{
    int n = ctx->given[O_FABRIC];
    uint8_t *down = ry_xcalloc(r->f->nlinks + 1, 1);
    ry_cmd_status rc = ry_as_built_down(r->f, ctx->list[O_FABRIC], n, down);
    if (rc == RY_CMD_OK) {
        size_t cnt = 0;
        for (size_t l = 0; l < r->f->nlinks; l++)
            cnt += down[l];
        r->base = ry_xcalloc(cnt + 1, sizeof *r->base);
        for (size_t l = 0; l < r->f->nlinks; l++) {
            if (!down[l])
                continue;
            ry_fail_elem *e = &r->base[r->nbase++];
            uint32_t lo = r->f->links[l].lo;
            e->kind = ry_port_node(r->f, lo)->kind == RY_NODE_GPU ? RY_FAIL_NIC : RY_FAIL_LINK;
            e->id = e->kind == RY_FAIL_NIC ? (int64_t)lo : (int64_t)l;
            ry_fail_elem_name(r->f, e);
        }
        *nfiles = n;
    }
    free(down);
    return rc;
}

static ry_cmd_status check(ry_ctx *ctx)
{
    if (ry_opt(ctx, O_SWEEP)) {
        if (ctx->given[O_FAIL] || ry_opt(ctx, O_RANDOM) || ctx->given[O_FABRIC])
            return ry_usage(ctx, "--sweep draws its own failures: it does not go with --fail, "
                            "--random or --fabric");
        return RY_CMD_OK;
    }
    if (ry_opt(ctx, O_SEEDS) || ry_opt(ctx, O_TARGET))
        return ry_usage(ctx, "--seeds and --target go with --sweep");
    if (!ctx->given[O_FAIL] && !ry_opt(ctx, O_RANDOM) && !ctx->given[O_FABRIC])
        return ry_usage(ctx, "nothing fails: give --fail ELEMENT, --random KIND:N, --fabric FILE "
                        "or --sweep KIND=LO..HI");
    if (ry_opt(ctx, O_SEED) && !ry_opt(ctx, O_RANDOM))
        return ry_usage(ctx, "--seed goes with --random or --sweep");
    return RY_CMD_OK;
}

/* The workload's model (the full model, or eq. 1 with --paper), or NULL:
 * none, or one the cluster cannot run (reported, ignored, by the
 * dispatcher). -1 when it cannot be computed. */
static int workload_model(const ry_ctx *ctx, ry_plan *model, ry_plan **m)
{
    const ry_spec *s = ctx->spec;
    *m = NULL;
    if (s->workload && !s->workload_misfit.key[0]) {
        /* the layout `model` chooses: on the flow engine over the spec's
         * fabric unless --analytic or --paper (an engine that cannot be set
         * up leaves the analytic choice; the report says why later) */
        ry_plan_net pn = { 0 };
        ry_err err = { { 0 }, { 0 } };
        int rc;
        if (!ctx->given[O_PAPER] && !ry_flag(ctx, O_ANALYTIC) &&
            ry_plan_net_init(&pn, &ctx->fabric, &err) == 0) {
            rc = ry_plan_compute_on(s, &pn, model);
            ry_plan_net_free(&pn);
            model->net = NULL;
        } else {
            rc = ry_plan_compute(s, ctx->given[O_PAPER] > 0, model);
        }
        if (rc < 0)
            return -1;
        *m = model;
    }
    return 0;
}

static int whole(const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* "leaf=0..8" or "leaf=3". */
static ry_cmd_status sweep_arg(ry_ctx *ctx, char *kind, size_t n, int *lo, int *hi)
{
    const char *v = ry_opt(ctx, O_SWEEP), *eq = strchr(v, '=');
    if (!eq || eq == v || (size_t)(eq - v) >= n)
        return ry_usage(ctx, "--sweep takes KIND=LO..HI, e.g. leaf=0..8 (got '%s')", v);
    memcpy(kind, v, (size_t)(eq - v));
    kind[eq - v] = '\0';
    char a[32], b[32];
    const char *dots = strstr(eq + 1, "..");
    size_t la = dots ? (size_t)(dots - eq - 1) : strlen(eq + 1);
    const char *bs = dots ? dots + 2 : eq + 1;
    long long x, y;
    if (la >= sizeof a || strlen(bs) >= sizeof b)
        return ry_usage(ctx, "--sweep: bad range '%s': expected LO..HI, whole numbers", eq + 1);
    memcpy(a, eq + 1, la);
    a[la] = '\0';
    snprintf(b, sizeof b, "%s", bs);
    if (whole(a, 0, MAX_SWEEP, &x) < 0 || whole(b, 0, MAX_SWEEP, &y) < 0 || y < x)
        return ry_usage(ctx, "--sweep: bad range '%s': expected LO..HI, whole numbers with "
                        "0 <= LO <= HI <= %d", eq + 1, MAX_SWEEP);
    *lo = (int)x;
    *hi = (int)y;
    return RY_CMD_OK;
}

static ry_cmd_status run_sweep(ry_ctx *ctx)
{
    const ry_spec *s = ctx->spec;
    char kind[32];
    int lo = 0, hi = 0;
    ry_cmd_status rc = sweep_arg(ctx, kind, sizeof kind, &lo, &hi);
    if (rc != RY_CMD_OK)
        return rc;
    long long seeds = 20, seed0 = 1;
    const char *v;
    if ((v = ry_opt(ctx, O_SEEDS)) && whole(v, 1, MAX_SEEDS, &seeds) < 0)
        return ry_usage(ctx, "--seeds takes a whole number from 1 to %d (got '%s')", MAX_SEEDS, v);
    if ((v = ry_opt(ctx, O_SEED)) && whole(v, 0, (long long)1 << 62, &seed0) < 0)
        return ry_usage(ctx, "--seed takes a whole number from 0 to 2^62 (got '%s')", v);
    double target = 1.1;
    if ((v = ry_opt(ctx, O_TARGET))) {
        char *end;
        errno = 0;
        target = strtod(v, &end);
        if (end != v && *end == '%' && !end[1]) {
            target = 1 + target / 100;
            end++;
        }
        if (errno || end == v || *end || !(target >= 1) || target > 1000)
            return ry_usage(ctx, "--target takes a slowdown from 1 to 1000, as 1.1 or 10%% "
                            "(got '%s')", v);
    }
    ry_plan *model = ry_xcalloc(1, sizeof *model), *m;
    if (workload_model(ctx, model, &m) < 0) {
        free(model);
        return RY_CMD_INPUT;
    }
    if ((ry_opt(ctx, O_TARGET) || ctx->given[O_PAPER]) && !m) {
        free(model);
        return ry_usage(ctx, "%s needs a workload: section in the spec (the slowdown is the "
                        "iteration time's)", ry_opt(ctx, O_TARGET) ? "--target" : "--paper");
    }
    if (ry_opt(ctx, O_TARGET) && strcmp(kind, "nic") == 0) {
        free(model);
        return ry_usage(ctx, "--target: no spare repairs a NIC (spares are switches and uplink "
                        "cables)");
    }

    ry_whatif_sweep w;
    memset(&w, 0, sizeof w);
    w.s = s;
    w.m = m ? &m->base : NULL;
    w.pl = m;
    w.kind = kind;
    w.lo = lo;
    w.hi = hi;
    w.seeds = (int)seeds;
    w.seed0 = (unsigned long long)seed0;
    w.target = target;
    w.spares_max = hi;
    w.nsides = ry_flag(ctx, O_ALONE) ? 1 : 2;
    w.engine = !ry_flag(ctx, O_ANALYTIC);
    ry_whatif_sweep_mem mem;
    ry_err err;
    if (ry_whatif_sweep_run(&w, &ctx->fabric, m, &mem, &err) < 0) {
        rc = ry_usage(ctx, "--sweep: %s", err.msg);
        goto out;
    }
    ry_buf out;
    ry_buf_init(&out);
    ry_emit_whatif_sweep(&out, &w, ctx->fmt);
    if (ctx->out) {
        ry_buf csv, gp;
        ry_buf_init(&csv);
        ry_buf_init(&gp);
        ry_emit_whatif_sweep_csv(&csv, &w);
        ry_emit_whatif_sweep_script(&gp, &w);
        int plotted;
        if (ry_plot_write_set(ctx->out, ry_out_flags(ctx), "whatif-sweep", &csv, &gp,
                              &plotted) < 0)
            rc = RY_CMD_IO;
        ry_buf_free(&csv);
        ry_buf_free(&gp);
    }
    if (rc == RY_CMD_OK) {
        ry_progress_end();
        fwrite(out.data, 1, out.len, stdout);
        if (fflush(stdout) != 0)
            rc = RY_CMD_IO;
    }
    ry_buf_free(&out);
out:
    ry_whatif_sweep_mem_free(&mem);
    free(model);
    return rc;
}

/* -o DIR with failures: the InfiniBand plan for the re-routed subnets. */
static unsigned needs_more(const ry_ctx *ctx)
{
    return ctx->out && !ry_opt(ctx, O_SWEEP) ? RY_NEED_IBPLAN : 0;
}

/* DIR/opensm/<subnet>/ as `railyard opensm` writes them, for the fabric the
 * failures leave: the failed elements absent, the tables routed around
 * them. */
static ry_cmd_status write_routed(ry_ctx *ctx, const ry_failure *fs)
{
    ry_outdir *o = ry_outdir_begin(ctx->out, ry_out_flags(ctx));
    if (!o)
        return RY_CMD_IO;
    ry_outdir_own(o, "opensm");
    ry_opensm_stats st;
    if (ry_emit_opensm_failed(o, "opensm", &ctx->ibplan, fs->node_down, fs->link_down, &st) < 0) {
        ry_outdir_abort(o);
        return RY_CMD_IO;
    }
    if (ry_outdir_commit(o) < 0)
        return RY_CMD_IO;
    /* stderr: stdout carries the report */
    fprintf(stderr, "railyard: %d subnet%s routed around the failures written to %s/opensm/ "
            "(they replace what opensm/ held)\n", st.subnets, st.subnets == 1 ? "" : "s",
            ctx->out);
    return RY_CMD_OK;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    if (ry_opt(ctx, O_SWEEP))
        return run_sweep(ctx);
    const ry_spec *s = ctx->spec;
    ry_whatif_run runs[2];
    ry_whatif_side sides[2];
    memset(runs, 0, sizeof runs);
    memset(sides, 0, sizeof sides);
    ry_plan *model = ry_xcalloc(1, sizeof *model), *m = NULL;
    ry_cmd_status rc = RY_CMD_OK;
    int ns = 1;

    ry_whatif_run *a = &runs[0];
    a->f = &ctx->fabric;
    a->ix = ry_name_index_new(a->f);
    a->elems = ry_xcalloc(MAX_ELEMS, sizeof *a->elems);
    a->unmapped = ry_xcalloc(1, sizeof *a->unmapped);
    if ((rc = elements(ctx, a)) != RY_CMD_OK)
        goto out;
    long long nfiles = 0;
    if (ctx->given[O_FABRIC] && (rc = as_built(ctx, a, &nfiles)) != RY_CMD_OK)
        goto out;
    if (workload_model(ctx, model, &m) < 0) {
        rc = RY_CMD_INPUT;
        goto out;
    }
    /* the full model's layout on the flow engine too, as `model` times it */
    a->engine = !ry_flag(ctx, O_ANALYTIC);
    ry_whatif_analyze(a, m, &sides[0], s->design);

    if (!ry_flag(ctx, O_ALONE)) {
        ry_whatif_run *b = &runs[1];
        ns = 2;
        if (ry_whatif_build_counterpart(s, &b->spec, &b->own, b->err, sizeof b->err) < 0) {
            sides[1].design = b->spec.design;
            sides[1].err = b->err;
        } else {
            ry_whatif_translate(a, b, MAX_ELEMS);
            b->engine = a->engine;
            ry_whatif_analyze(b, m, &sides[1], b->spec.design);
        }
    }
    ry_buf out;
    ry_buf_init(&out);
    sides[0].as_built_files = nfiles;
    ry_emit_whatif(&out, s, m, sides, ns, ctx->fmt);
    if (ctx->out)
        rc = write_routed(ctx, a->fs);
    if (rc == RY_CMD_OK)
        rc = ry_write_output(ctx, NULL, out.data, out.len);
    ry_buf_free(&out);
out:
    ry_whatif_run_free(&runs[0]);
    ry_whatif_run_free(&runs[1]);
    free(model);
    return rc;
}

const ry_cmd_entry ry_cmd_whatif = {
    .name = "whatif",
    .synopsis = "SPEC {--fail ELEMENT... | --random KIND:N,... | --sweep KIND=LO..HI} [--seed S] "
                "[--seeds N] [--target X] [--fabric FILE]... [--alone] [--paper] [--analytic] "
                "[-o DIR [--force]] [--format text|json]",
    .summary = "what failed switches, cables, NICs, rails or planes do to the fabric and training",
    .positional = "SPEC",
    .options = options,
    .check = check,
    .details =
        "Fails the elements on the spec's design and on its counterpart (rail-optimized and\n"
        "rail-only of each other; a fat tree's is rail-optimized), and reports side by side:\n"
        "GPUs cut off, GPU pairs with no path on the fabric and how many of them an HB\n"
        "domain reaches over NVLink, capacity kept per tier, rail, plane and unit, the worst\n"
        "oversubscription left, and with a workload: section the iteration time before and\n"
        "after (the full model, --paper: eq. 1; the job keeps its layout; the slowest HB\n"
        "domain's network bandwidth gates the cross-domain traffic; forwarded traffic loads\n"
        "NVLink). --sweep: mean and worst over seeded random draws against the number of\n"
        "failures, and the spares (railyard-spec(5): spares) a --target slowdown needs.\n"
        "A failed switch takes its links down; a rail is its switches that serve it alone\n"
        "and its NIC cables; a plane is its switches. A leaf maps to the counterpart's\n"
        "leaf that holds most of its GPUs, other switches and cables by name.\n"
        "With --fabric (ibnetdiscover output, as verify reads it) the cables verify finds\n"
        "missing, and switch cables moved to another switch, are down before the failures\n"
        "(a NIC cabled to another rail still reaches the fabric): \"before\" is the\n"
        "fabric as built.\n"
        "The full model's layout is also timed on the flow engine (doc/network-model.md),\n"
        "as `model` times it, on the fabric before and after the failures, each routed\n"
        "around what failed as the spec's network: section routes (up-down over the live\n"
        "links, ECMP over the live next hops); a GPU whose NIC port is gone is relayed\n"
        "over NVLink by its HB domain, and where none can relay the phase has no route,\n"
        "reported. --sweep times every draw so (the sweep's slowdowns); --analytic: the\n"
        "analytic rerun only, for single failures and sweeps.\n",
    .needs = RY_NEED_FABRIC,
    .needs_more = needs_more,
    .run = run,
};
