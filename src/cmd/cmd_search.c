#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "analysis/failure_sweep.h"
#include "analysis/pareto.h"
#include "cmd/cmd.h"
#include "emit/emit_model_plot.h"
#include "emit/emit_search.h"
#include "model/plan.h"
#include "spec/catalog.h"
#include "spec/search.h"
#include "spec/yaml.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/hash.h"
#include "util/numfmt.h"
#include "util/progress.h"
#include "util/vary.h"

/* The design space of a spec, point by point: every combination of the
 * values search.vary and --vary give, each point loaded as the spec with
 * those values set (as --set sets them), built, laid out, cabled and
 * priced as bom prices it, the full model run for each workload of the
 * mix, and the failure scenarios' slowdown taken from whatif's analysis.
 * Points run on threads; the answer is the Pareto front of capex against
 * iteration time and against the slowdown, and the cheapest point within
 * the targets. */

#define MAX_POINTS 100000
#define MAX_WORKLOADS RY_SEARCH_MAX_WORKLOADS
#define MAX_THREADS 256

enum { O_VARY, O_TARGET, O_BUDGET, O_SLOW, O_FAIL, O_SEEDS, O_THREADS, O_FORMAT, O_OUTPUT,
       O_FORCE, O_N };
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
    [O_FAIL] = { "fail", 0, RY_OPT_LIST, "SCENARIO", NULL,
                 "a failure scenario (replaces search.failures): plane, or\n"
                 "KIND:N as whatif --random takes it (spine:1); repeatable" },
    [O_SEEDS] = { "seeds", 0, RY_OPT_VALUE, "N", NULL,
                  "random draws per KIND:N scenario (search.seeds, default 4)" },
    [O_THREADS] = { "threads", 'j', RY_OPT_VALUE, "N", NULL,
                    "points evaluated at once (0, the default: one per processor)" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|csv", "text (default): the table; csv: every point"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("write DIR/points.csv, front.csv, search.gp (with\n"
                                      "search.png and search.svg) and one spec per front\n"
                                      "point, front/point-N.yaml (N its number in the table)"),
    [O_FORCE] = RY_OPTION_FORCE,
    [O_N] = RY_OPTION_END
};

/* ---- the search's inputs -------------------------------------------------------------------- */

/* What the model and the failures give on a fabric. */
typedef struct times {
    int ok;
    char why[400];
    long long t, p, d, cp, ep;
    double iter_s, tokens_per_s, slowdown;
    double iter_w[RY_SEARCH_MAX_WORKLOADS];
    char stalls[64];
    unsigned char applied[RY_SEARCH_MAX_FAILURES];
    int napplied;               /* scenarios that apply to the fabric */
} times;

/* An entry of a table of results by key (timing, bound, each headed by
 * one): computed outside the lock, kept by the first thread to put it. */
typedef struct memo {
    struct memo *next;
    char *key;
} memo;

/* What a point's fabric gives. Every point whose spec differs only in
 * sections that price, name or address (cost, naming, infiniband,
 * ethernet) gets the same, but for the prices of the cost section
 * (ry_capex_reprice), so it is computed once per spec without those
 * sections (its text is the key). The times come with the first point of
 * the fabric within the budget; they stay NULL while every point of it is
 * over the budget (pruned, not modeled). */
typedef struct timing {
    memo head;
    int built;                  /* c and capex hold the fabric's */
    ry_compare_design c;
    ry_capex capex;
    char why[400];              /* not built: why */
    double over_target;         /* not built: its time, over the target */
    _Atomic(times *) times;
} timing;

/* The fastest possible time of a workload's spec on its cluster
 * (ry_plan_fastest), once per spec without the sections that shape,
 * spare, price, name or address the fabric (its text is the key). */
typedef struct bound {
    memo head;
    int ok;
    double total;
} bound;

#define TIMING_BUCKETS 4096

static const char *const untimed[] = { "cost", "naming", "infiniband", "ethernet", "search",
                                       NULL };
static const char *const unbounded[] = { "fabric", "spares", "cost", "naming", "infiniband",
                                         "ethernet", "search", NULL };

typedef struct search {
    const ry_spec *base;
    const char *path;
    char *text;                 /* the spec file, read once */
    const char *templates;
    const ry_override *sets;    /* the command line's --set */
    int nsets;
    ry_vary axes[RY_SEARCH_MAX_AXES + 8];
    char *axis_where[RY_SEARCH_MAX_AXES + 8];
    const ry_pos *value_pos[RY_SEARCH_MAX_AXES + 8];  /* search.vary's values; NULL: --vary's */
    /* per axis and value: the value of the same axis that dominates it (a
     * switch model the same but for a lower price), or -1 */
    int *dominated_by[RY_SEARCH_MAX_AXES + 8];
    long long pruned;
    int naxes;
    const ry_search_workload *wl;
    ry_search_workload own;     /* the spec's workload, when the mix is not given */
    int nwl;
    double wsum;
    const char *failures[RY_SEARCH_MAX_FAILURES];
    char fail_store[RY_SEARCH_MAX_FAILURES][64];
    int nfail;
    int seeds;
    ry_media_catalog *media;
    long long npoints;
    ry_search_point *pts;
    const char ***values;       /* the points' value arrays */
    double target_time, budget;     /* the bounds: a point beyond them is pruned */
    /* the timings and bounds computed, by key */
    mtx_t lock;
    memo *bucket[TIMING_BUCKETS];   /* timings */
    memo *bounds[TIMING_BUCKETS];   /* bounds */
    /* the work queue */
    atomic_llong next, done;
    atomic_llong bounded;       /* points pruned by the target time or the budget */
    atomic_int applied[RY_SEARCH_MAX_FAILURES];   /* points a scenario applied to */
} search;

/* ---- one point ---------------------------------------------------------------------------- */

/* Index p's values: the first axis varies fastest. */
static void point_values(const search *S, long long p, const char **vals)
{
    for (int k = 0; k < S->naxes; k++) {
        vals[k] = S->axes[k].values[p % S->axes[k].n];
        p /= S->axes[k].n;
    }
}

/* The first line of what a point's load or model said, without the
 * "file:line:col: error: " the whole spec shares. */
static void first_reason(const ry_buf *diag, char *why, size_t cap)
{
    const char *s = diag->len ? diag->data : "the point cannot be evaluated";
    const char *e = strstr(s, "error: ");
    if (e && e - s < 300 && !memchr(s, '\n', (size_t)(e - s)))
        s = e + 7;
    size_t n = strcspn(s, "\n");
    if (n < cap) {
        snprintf(why, cap, "%.*s", (int)n, s);
        return;
    }
    /* too long for the table: cut at a word, and say so */
    size_t k = cap - 4;
    while (k > cap / 2 && s[k] != ' ')
        k--;
    snprintf(why, cap, "%.*s...", (int)k, s);
}

typedef struct mix {
    ry_plan *pl[MAX_WORKLOADS];
    double weight[MAX_WORKLOADS];
    int n;
    double wsum;
} mix;

/* The workloads' slowdown after one failure, weighted as the mix is. */
static double mix_slowdown(void *arg, const ry_failure_report *r, int *stalled)
{
    const mix *m = arg;
    double sum = 0;
    *stalled = 0;
    for (int i = 0; i < m->n; i++) {
        ry_iter_degraded d;
        ry_plan_degrade(m->pl[i], r->bs_ratio, r->fwd_max, r->fwd_sum, &d);
        if (d.stalled || !isfinite(d.slowdown)) {
            *stalled = 1;
            return INFINITY;
        }
        sum += m->weight[i] * d.slowdown;
    }
    return sum / m->wsum;
}

/* One plane down: its switches and their links. */
static int plane_scenario(const ry_fabric *f, ry_fsweep_bufs *bufs, mix *m, double *slow,
                          int *stalled)
{
    if (f->spec->planes < 2)
        return 0;
    ry_fail_elem e = { .kind = RY_FAIL_PLANE, .id = 0 };
    *slow = mix_slowdown(m, ry_fsweep_bufs_analyze(bufs, f, &e, 1), stalled);
    return 1;
}

/* The failure scenarios' mean slowdown into tm. */
static void point_failures(const search *S, const ry_design_build *b, mix *m, times *tm)
{
    double sum = 0;
    int n = 0;
    ry_fsweep_bufs *bufs = ry_fsweep_bufs_new(&b->fabric);
    for (int i = 0; i < S->nfail; i++) {
        double slow = 1;
        int stalled = 0, applies;
        if (strcmp(S->failures[i], "plane") == 0) {
            applies = plane_scenario(&b->fabric, bufs, m, &slow, &stalled);
        } else {
            char kind[64];
            snprintf(kind, sizeof kind, "%s", S->failures[i]);
            char *colon = strchr(kind, ':');
            int count = colon ? atoi(colon + 1) : 1;
            if (colon)
                *colon = '\0';
            ry_fsweep_in in = { .f = &b->fabric, .slowdown = mix_slowdown, .arg = m,
                                .kind = kind, .lo = count, .hi = count, .seeds = S->seeds,
                                .seed0 = 1, .spare_switches = b->spec.spares.switches,
                                .spare_uplinks = b->spec.spares.uplinks, .bufs = bufs };
            ry_fsweep_stats st;
            ry_err err;
            applies = ry_fsweep_run(&in, &st, &err) == 0 && st.ok;
            if (applies) {
                stalled = st.stalled > 0;
                slow = st.slow_mean;
            }
        }
        if (!applies)
            continue;
        tm->applied[i] = 1;
        tm->napplied++;
        if (stalled) {
            if (!tm->stalls[0])
                snprintf(tm->stalls, sizeof tm->stalls, "%s", S->failures[i]);
            continue;
        }
        sum += slow;
        n++;
    }
    ry_fsweep_bufs_free(bufs);
    tm->slowdown = tm->stalls[0] ? INFINITY : n ? sum / n : 1;
}

/* The workloads modeled on the point's specs into ti, their plans into m
 * (the caller frees them with mix_free, whatever this returns); 0 after
 * an error said to the caller's capture. */
static int model_point(const search *S, ry_spec *const *spec, mix *m, times *ti)
{
    *m = (mix){ .n = 0, .wsum = S->wsum };
    double t_sum = 0, tok_sum = 0;
    for (int w = 0; w < S->nwl; w++) {
        ry_plan *pl = ry_xcalloc(1, sizeof *pl);
        m->pl[m->n] = pl;
        m->weight[m->n++] = S->wl[w].weight;
        if (!spec[w]->workload) {
            if (spec[w]->workload_misfit.key[0])
                ry_spec_error(spec[w], spec[w]->workload_misfit.key, "%s",
                              spec[w]->workload_misfit.msg);
            else
                ry_error("the point has no workload to model");
            return 0;
        }
        if (ry_plan_compute(spec[w], 0, pl) < 0)
            return 0;
        ti->iter_w[w] = pl->best.total;
        t_sum += S->wl[w].weight * pl->best.total;
        tok_sum += S->wl[w].weight * pl->tokens_per_s * pl->best.total;   /* tokens */
        if (w == 0) {
            ry_parallelism par;
            ry_plan_parallelism(pl, &par);
            ti->t = par.tp;
            ti->p = par.pp;
            ti->d = par.dp;
            ti->cp = par.cp;
            ti->ep = par.ep;
        }
    }
    ti->iter_s = t_sum / S->wsum;
    /* the mix's tokens over its time: w_i iterations of each workload */
    ti->tokens_per_s = t_sum > 0 ? tok_sum / t_sum : 0;
    return 1;
}

static void mix_free(mix *m)
{
    for (int i = 0; i < m->n; i++)
        free(m->pl[i]);
    m->n = 0;
}

/* The entry of key in table, or NULL. */
static void *memo_get(search *S, memo *const *table, const char *key, uint64_t h)
{
    mtx_lock(&S->lock);
    memo *m = table[h % TIMING_BUCKETS];
    while (m && strcmp(m->key, key) != 0)
        m = m->next;
    mtx_unlock(&S->lock);
    return m;
}

/* fresh put in table as key's, unless another thread put one first: the
 * entry kept (when it is not fresh, the caller frees fresh). */
static void *memo_put(search *S, memo **table, memo *fresh, const char *key, uint64_t h)
{
    mtx_lock(&S->lock);
    memo *m = table[h % TIMING_BUCKETS];
    while (m && strcmp(m->key, key) != 0)
        m = m->next;
    if (!m) {
        fresh->key = ry_xstrdup(key);
        fresh->next = table[h % TIMING_BUCKETS];
        table[h % TIMING_BUCKETS] = fresh;
        m = fresh;
    }
    mtx_unlock(&S->lock);
    return m;
}

/* The sets of point p (the command line's, then the axes', then the
 * workload's) into sets; returns their count. */
static int point_sets(const search *S, const char **vals, const ry_search_workload *w,
                      ry_override *sets)
{
    int n = 0;
    for (int i = 0; i < S->nsets; i++)
        sets[n++] = S->sets[i];
    for (int k = 0; k < S->naxes; k++) {
        sets[n] = (ry_override){ S->axes[k].key, vals[k], n + 1, S->axis_where[k] };
        n++;
    }
    for (int i = 0; w && i < w->n; i++) {
        sets[n] = (ry_override){ w->sets[i].key, w->sets[i].value, n + 1, "search.workloads" };
        n++;
    }
    return n;
}

/* The times of spec (one per workload): the model's, and the failures'
 * on its fabric built again; diagnostics go to the caller's capture. */
static times *time_fabric(const search *S, ry_spec *const *spec, ry_buf *diag)
{
    times *ti = ry_xcalloc(1, sizeof *ti);
    mix m;
    ry_buf_reset(diag);
    if (model_point(S, spec, &m, ti)) {
        ry_err err;
        ry_design_build *b = ry_design_build_new(spec[0], spec[0]->design, S->media, &err);
        if (b) {
            point_failures(S, b, &m, ti);
            ti->ok = 1;
            ry_design_build_free(b);
        } else {
            ry_err_text(&err, ti->why, sizeof ti->why);
        }
    } else {
        first_reason(diag, ti->why, sizeof ti->why);
    }
    mix_free(&m);
    return ti;
}

/* The capex of point spec on fabric tm, priced at the point's prices. */
static ry_capex point_capex(const ry_spec *spec, const timing *tm)
{
    ry_capex cx = tm->capex;
    ry_capex_reprice(spec, &cx);
    return cx;
}

/* The fabric of spec (one per workload) into tm: modeled, and unless its
 * time is over the target, built and priced, and its failures analysed
 * when the point is within the budget. */
static void compute(const search *S, ry_spec *const *spec, ry_buf *diag, timing *tm)
{
    times *ti = ry_xcalloc(1, sizeof *ti);
    mix m;
    ry_buf_reset(diag);
    int modeled = model_point(S, spec, &m, ti);
    if (!modeled)
        first_reason(diag, ti->why, sizeof ti->why);
    if (modeled && S->target_time > 0 && ti->iter_s > S->target_time) {
        tm->over_target = ti->iter_s;
        goto out;
    }
    ry_err err;
    ry_design_build *b = ry_design_build_new(spec[0], spec[0]->design, S->media, &err);
    if (!b) {
        ry_err_text(&err, tm->why, sizeof tm->why);
        goto out;
    }
    tm->built = 1;
    ry_compare_design_costs(b, &tm->c);
    tm->capex = b->capex;
    if (!(S->budget > 0 && point_capex(spec[0], tm).total > S->budget)) {
        if (modeled) {
            point_failures(S, b, &m, ti);
            ti->ok = 1;
        }
        atomic_store(&tm->times, ti);
        ti = NULL;
    }
    ry_design_build_free(b);
out:
    mix_free(&m);
    free(ti);
}

/* The fastest possible time of the point (the mix's, weighted as its
 * times are) into *fastest; 0 when a workload has none (no layout fits:
 * the point's own model says so). */
static int point_fastest(search *S, ry_spec *const *spec, double *fastest)
{
    double sum = 0;
    ry_buf key;
    ry_buf_init(&key);
    int ok = 1;
    for (int w = 0; w < S->nwl && ok; w++) {
        ry_buf_reset(&key);
        ry_ydoc_emit(spec[w]->doc, unbounded, &key);
        ry_buf_putc(&key, '\0');
        uint64_t h = ry_hash_str(key.data);
        const bound *bd = memo_get(S, S->bounds, key.data, h);
        if (!bd) {
            bound *fresh = ry_xcalloc(1, sizeof *fresh);
            ry_plan *pl = ry_xcalloc(1, sizeof *pl);
            fresh->ok = ry_plan_fastest(spec[w], pl, &fresh->total) == 0;
            free(pl);
            if ((bd = memo_put(S, S->bounds, &fresh->head, key.data, h)) != fresh)
                free(fresh);    /* another thread's came first: the same */
        }
        ok = bd->ok;
        sum += S->wl[w].weight * bd->total;
    }
    ry_buf_free(&key);
    *fastest = ok ? sum / S->wsum : 0;
    return ok;
}

/* A key that names a switch model: fabric.switch, fabric.tiers.N.switch. */
static int switch_key(const char *key)
{
    if (strcmp(key, "fabric.switch") == 0)
        return 1;
    if (strncmp(key, "fabric.tiers.", 13) != 0)
        return 0;
    const char *p = key + 13;
    size_t n = strspn(p, "0123456789");
    return n > 0 && strcmp(p + n, ".switch") == 0;
}

/* Dominated tiers: on an axis of switch models, a model the catalog holds
 * the same as another of the axis but dearer makes every point a point
 * with the other makes again at a lower capex (the same fabric, layout,
 * cabling, time and failures): those points are pruned, not built. */
static void find_dominated(search *S, const ry_catalog *cat)
{
    for (int k = 0; k < S->naxes; k++) {
        if (!switch_key(S->axes[k].key))
            continue;
        const ry_vary *a = &S->axes[k];
        S->dominated_by[k] = ry_xcalloc((size_t)a->n, sizeof *S->dominated_by[k]);
        for (int i = 0; i < a->n; i++) {
            S->dominated_by[k][i] = -1;
            const ry_catalog_switch *x = ry_catalog_find_switch(cat, a->values[i]);
            for (int j = 0; x && j < a->n; j++) {
                const ry_catalog_switch *y = ry_catalog_find_switch(cat, a->values[j]);
                if (y && y != x && ry_switch_same_shape(&x->model, &y->model) &&
                    y->model.price > 0 && y->model.price < x->model.price &&
                    (S->dominated_by[k][i] < 0 ||
                     y->model.price <
                         ry_catalog_find_switch(cat, a->values[S->dominated_by[k][i]])
                             ->model.price))
                    S->dominated_by[k][i] = j;
            }
        }
    }
}

/* 1 with pt->why said when a value of point p is dominated. */
static int pruned(search *S, long long p, ry_search_point *pt)
{
    for (int k = 0; k < S->naxes; k++) {
        if (!S->dominated_by[k])
            continue;
        const ry_vary *a = &S->axes[k];
        int i = 0;
        while (i < a->n && a->values[i] != S->values[p][k])
            i++;
        if (i == a->n || S->dominated_by[k][i] < 0)
            continue;
        snprintf(pt->why, sizeof pt->why, "pruned: %s=%s makes the same fabric, time and "
                 "failures at a lower capex (%s is %s at a lower price)", a->key,
                 a->values[S->dominated_by[k][i]], a->values[S->dominated_by[k][i]],
                 a->values[i]);
        pt->pruned = 1;
        return 1;
    }
    return 0;
}

static void eval_point(search *S, long long p, ry_buf *diag)
{
    ry_search_point *pt = &S->pts[p];
    const char **vals = S->values[p];
    if (pruned(S, p, pt))
        return;
    ry_override sets[RY_MAX_SETS + RY_SEARCH_MAX_AXES + 8 + RY_SEARCH_MAX_SETS];
    ry_spec *spec[MAX_WORKLOADS] = { 0 };
    ry_buf key;
    ry_buf_init(&key);
    pt->label = -1;
    ry_buf_reset(diag);
    ry_diag_capture(diag);
    for (int w = 0; w < S->nwl; w++) {
        int n = point_sets(S, vals, &S->wl[w], sets);
        spec[w] = ry_spec_load_point(S->path, S->text, sets, n, S->templates);
        if (!spec[w])
            goto out;
    }
    pt->design = spec[0]->design;

    /* bounded: no fabric of this cluster trains it within the target time */
    if (point_fastest(S, spec, &pt->fastest_s) && S->target_time > 0 &&
        pt->fastest_s > S->target_time) {
        snprintf(pt->why, sizeof pt->why, "pruned: %.4f s an iteration at best (on a "
                 "non-blocking network), over the target time of %g s", pt->fastest_s,
                 S->target_time);
        pt->pruned = 1;
        atomic_fetch_add(&S->bounded, 1);
        goto out;
    }
    ry_buf_reset(diag);

    /* another point's, when the spec is the same but for prices and names */
    ry_ydoc_emit(spec[0]->doc, untimed, &key);
    ry_buf_putc(&key, '\0');
    uint64_t h = ry_hash_str(key.data);
    timing *tm = memo_get(S, S->bucket, key.data, h);
    if (!tm) {
        timing *fresh = ry_xcalloc(1, sizeof *fresh);
        compute(S, spec, diag, fresh);
        if ((tm = memo_put(S, S->bucket, &fresh->head, key.data, h)) != fresh) {
            free(atomic_load(&fresh->times));
            free(fresh);
        }
    }
    pt->keyed = 1;
    if (tm->over_target > 0) {
        snprintf(pt->why, sizeof pt->why, "pruned: %.4f s an iteration, over the target time "
                 "of %g s (not built)", tm->over_target, S->target_time);
        pt->pruned = 1;
        atomic_fetch_add(&S->bounded, 1);
        goto out;
    }
    if (!tm->built) {
        snprintf(pt->why, sizeof pt->why, "%s", tm->why);
        goto out;
    }
    const ry_compare_design *c = &tm->c;
    ry_capex cx = point_capex(spec[0], tm);
    pt->built = 1;
    pt->tiers = c->tiers;
    pt->switches = cx.switches;
    pt->optics = c->optics;
    pt->cables = c->cables;
    pt->racks = c->racks;
    pt->power_w = c->power_w;
    pt->gpus = c->gpus;
    pt->capex = cx.total;
    pt->capex_switches = cx.switches_cost;
    pt->capex_optics = cx.optics;
    pt->capex_cables = cx.cables;
    pt->capex_racks = cx.racks_cost;
    pt->capex_spares = cx.spares;
    if (S->budget > 0 && pt->capex > S->budget) {
        char money[48], limit[48];
        snprintf(pt->why, sizeof pt->why, "pruned: its capex, %s, is over the budget of %s",
                 ry_num_money(money, sizeof money, pt->capex, 0),
                 ry_num_money(limit, sizeof limit, S->budget, 0));
        pt->pruned = 1;
        atomic_fetch_add(&S->bounded, 1);
        goto out;
    }
    /* the fabric's first point within the budget times it */
    times *ti = atomic_load(&tm->times);
    if (!ti) {
        times *fresh = time_fabric(S, spec, diag), *none = NULL;
        if (atomic_compare_exchange_strong(&tm->times, &none, fresh))
            ti = fresh;
        else
            free(fresh), ti = none;
    }
    for (int i = 0; i < S->nfail; i++)
        if (ti->applied[i])
            atomic_fetch_add(&S->applied[i], 1);
    if (ti->ok) {
        pt->ok = 1;
        pt->t = ti->t;
        pt->p = ti->p;
        pt->d = ti->d;
        pt->c = ti->cp;
        pt->ep = ti->ep;
        pt->iter_s = ti->iter_s;
        memcpy(pt->iter_w, ti->iter_w, sizeof pt->iter_w);
        pt->tokens_per_s = ti->tokens_per_s;
        pt->tokens_per_musd = pt->capex > 0 ? pt->tokens_per_s / (pt->capex / 1e6) : 0;
        pt->slowdown = ti->slowdown;
        pt->scenarios = ti->napplied;
        snprintf(pt->stalls, sizeof pt->stalls, "%s", ti->stalls);
    } else {
        snprintf(pt->why, sizeof pt->why, "%s", ti->why);
    }
out:
    ry_diag_capture(NULL);
    if (!pt->ok && !pt->why[0])
        first_reason(diag, pt->why, sizeof pt->why);
    ry_buf_free(&key);
    for (int w = 0; w < S->nwl; w++)
        ry_spec_free(spec[w]);
}

/* Takes points off the queue until none is left; the main thread (paint
 * set) paints the progress between them. */
static void work(search *S, int paint)
{
    ry_buf diag;
    ry_buf_init(&diag);
    for (;;) {
        long long p = atomic_fetch_add(&S->next, 1);
        if (p >= S->npoints)
            break;
        eval_point(S, p, &diag);
        long long d = atomic_fetch_add(&S->done, 1) + 1;
        if (paint)
            ry_progress_step("point %lld of %lld", d, S->npoints);
    }
    ry_buf_free(&diag);
}

static int worker(void *arg)
{
    work(arg, 0);
    return 0;
}

static int processors(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Runs the points on nthreads threads (the calling one among them), the
 * progress line counting them. */
static void run_points(search *S, int nthreads)
{
    thrd_t th[MAX_THREADS];
    int started = 0;
    for (int i = 1; i < nthreads; i++) {
        if (thrd_create(&th[started], worker, S) != thrd_success)
            break;
        started++;
    }
    work(S, 1);     /* the main thread works too */
    for (int i = 0; i < started; i++)
        thrd_join(th[i], NULL);
}

/* ---- the answer ----------------------------------------------------------------------------- */

static int label_of(const search *S, const ry_search_space *sp, const char **vals)
{
    for (int l = 0; sp && l < sp->nlabels; l++) {
        const ry_search_label *lb = &sp->labels[l];
        int match = 1;
        for (int i = 0; i < lb->n && match; i++) {
            int found = 0;
            for (int k = 0; k < S->naxes && !found; k++)
                if (strcmp(S->axes[k].key, lb->sets[i].key) == 0)
                    found = 1, match = strcmp(vals[k], lb->sets[i].value) == 0;
            if (!found)
                match = 0;
        }
        if (match)
            return l;
    }
    return -1;
}

/* A published design that names no point: which of its keys is not
 * varied, or which value is not among the key's. */
static void warn_unlabelled(const search *S, const ry_search_space *sp)
{
    for (int l = 0; sp && l < sp->nlabels; l++) {
        const ry_search_label *lb = &sp->labels[l];
        long long hits = 0;
        for (long long p = 0; p < S->npoints && !hits; p++)
            hits = S->pts[p].label == l;
        if (hits)
            continue;
        char why[400] = "another design comes first in search.published for each of its points";
        for (int i = 0; i < lb->n; i++) {
            int k = 0;
            while (k < S->naxes && strcmp(S->axes[k].key, lb->sets[i].key) != 0)
                k++;
            if (k == S->naxes) {
                snprintf(why, sizeof why, "%s is not a key search varies", lb->sets[i].key);
                break;
            }
            int j = 0;
            while (j < S->axes[k].n && strcmp(S->axes[k].values[j], lb->sets[i].value) != 0)
                j++;
            if (j == S->axes[k].n) {
                if (!S->value_pos[k]) {
                    why[0] = '\0';     /* --vary chose the values: not the spec's mistake */
                    break;
                }
                snprintf(why, sizeof why, "%s takes no value '%s' here (values are matched as "
                         "written)", lb->sets[i].key, lb->sets[i].value);
                break;
            }
        }
        if (!why[0])
            continue;
        ry_warn_at(lb->pos, "published design '%s' names no point: %s", lb->name, why);
    }
}

static void fronts(ry_search_result *r)
{
    long long n = r->npoints;
    double *x = ry_xcalloc((size_t)n, sizeof *x), *y = ry_xcalloc((size_t)n, sizeof *y);
    double *z = ry_xcalloc((size_t)n, sizeof *z);
    unsigned char *ok = ry_xcalloc((size_t)n, 1), *on = ry_xcalloc((size_t)n, 1);
    for (long long i = 0; i < n; i++) {
        x[i] = r->pts[i].capex;
        y[i] = r->pts[i].iter_s;
        z[i] = r->pts[i].slowdown;
        ok[i] = (unsigned char)r->pts[i].ok;
    }
    r->nfront = (long long)ry_pareto_front(x, y, ok, (size_t)n, on);
    for (long long i = 0; i < n; i++)
        r->pts[i].front = on[i];
    /* a point that stalls under a failure is on no failure front */
    for (long long i = 0; i < n; i++)
        ok[i] = ok[i] && !r->pts[i].stalls[0];
    r->nfront_fail = (long long)ry_pareto_front(x, z, ok, (size_t)n, on);
    for (long long i = 0; i < n; i++)
        r->pts[i].front_fail = on[i];
    /* The answer runs through every failure and keeps to the budget and the
     * slowdown; without a time target it trains as fast as the fastest such
     * point, within RY_SEARCH_AS_FAST. */
    r->fastest = INFINITY;
    for (long long i = 0; i < n; i++) {
        ry_search_point *p = &r->pts[i];
        p->meets = ok[i] && (r->budget <= 0 || p->capex <= r->budget) &&
                   (r->max_slowdown <= 0 || p->slowdown <= r->max_slowdown);
        if (p->meets && p->iter_s < r->fastest)
            r->fastest = p->iter_s;
    }
    r->as_fast = r->target_time <= 0;
    if (r->as_fast && isfinite(r->fastest))
        r->target_time = r->fastest * (1 + RY_SEARCH_AS_FAST);
    r->answer = -1;
    for (long long i = 0; i < n; i++) {
        ry_search_point *p = &r->pts[i];
        p->meets = p->meets && p->iter_s <= r->target_time;
        if (!p->meets)
            continue;
        const ry_search_point *a = r->answer >= 0 ? &r->pts[r->answer] : NULL;
        if (!a || p->capex < a->capex || (p->capex == a->capex && p->iter_s < a->iter_s))
            r->answer = i;
    }
    free(x);
    free(y);
    free(z);
    free(ok);
    free(on);
}

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
    if (ry_opt(ctx, O_SLOW) && (parse_number(ctx, O_SLOW, 0, 1e6, &x), x != 0 && x < 1))
        return ry_usage(ctx, "--max-slowdown takes 0 (no limit) or a slowdown of at least 1, "
                        "like 1.02 (got '%s')", ry_opt(ctx, O_SLOW));
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
        if (ry_vary_parse(vary[i], &v, &why) < 0)
            return ry_usage(ctx, "--vary %s: %s", vary[i], why);
        int bad = ry_search_key_check(v.key, (ry_pos){ "--vary", i + 1, 1 }, "--vary") < 0;
        ry_vary_free(&v);
        if (bad)
            return RY_CMD_USAGE;
        if (i == 7 && vary[i + 1])
            return ry_usage(ctx, "at most 8 --vary options");
    }
    return RY_CMD_OK;
}

static char *read_text(const char *path)
{
    if (strcmp(path, "-") == 0) {
        ry_error("-: cannot read the spec again: search reads its spec from a file, not "
                 "standard input");
        return NULL;
    }
    return ry_search_spec_text(path);
}

/* The axes: search.vary, then --vary (the same key replaces the spec's). */
static void gather_axes(const ry_ctx *ctx, search *S, const ry_search_space *sp)
{
    for (int k = 0; sp && k < sp->naxes; k++) {
        ry_vary *a = &S->axes[S->naxes];
        a->key = ry_xstrdup(sp->axes[k].key);
        for (int j = 0; j < sp->axes[k].n; j++) {
            const char *why;
            ry_vary_add(a, sp->axes[k].values[j], &why);
        }
        size_t len = strlen(a->key) + 16;
        S->axis_where[S->naxes] = ry_xmalloc(len);
        snprintf(S->axis_where[S->naxes], len, "search.vary.%s", a->key);
        S->value_pos[S->naxes] = sp->value_pos[k];
        S->naxes++;
    }
    const char **vary = ctx->list[O_VARY];
    for (int i = 0; vary && vary[i]; i++) {
        ry_vary v;
        const char *why;
        if (ry_vary_parse(vary[i], &v, &why) < 0)
            continue;
        int k = 0;
        while (k < S->naxes && strcmp(S->axes[k].key, v.key) != 0)
            k++;
        if (k < S->naxes) {
            ry_vary_free(&S->axes[k]);
            free(S->axis_where[k]);
        } else {
            S->naxes++;
        }
        S->axes[k] = v;
        S->value_pos[k] = NULL;
        size_t len = strlen(v.key) + 16;
        S->axis_where[k] = ry_xmalloc(len);
        snprintf(S->axis_where[k], len, "--vary %s", v.key);
    }
}

static ry_cmd_status write_dir(const ry_ctx *ctx, const ry_search_result *r, const search *S);

static ry_cmd_status run(ry_ctx *ctx)
{
    const ry_spec *base = ctx->spec;
    const ry_search_space *sp = base->search_space;
    search *S = ry_xcalloc(1, sizeof *S);
    ry_cmd_status rc = RY_CMD_OK;
    ry_search_result res;
    memset(&res, 0, sizeof res);
    mtx_init(&S->lock, mtx_plain);
    S->base = base;
    S->path = ctx->arg;
    S->templates = ry_templates_dir(ctx->templates);
    S->sets = ctx->sets;
    S->nsets = ctx->nsets;
    gather_axes(ctx, S, sp);

    /* the mix: search.workloads, or the spec's own workload */
    if (sp && sp->nworkloads) {
        S->wl = sp->workloads;
        S->nwl = sp->nworkloads;
    } else {
        S->own.weight = 1;
        snprintf(S->own.label, sizeof S->own.label, "%s",
                 base->workload ? base->workload->model.name : "workload");
        S->wl = &S->own;
        S->nwl = 1;
    }
    if (!(sp && sp->nworkloads) && !base->workload) {
        if (base->workload_misfit.key[0])
            ry_spec_error(base, base->workload_misfit.key, "%s", base->workload_misfit.msg);
        else
            ry_error("%s: search needs a workload to time each point: give a workload "
                     "section (workload.model: one of railyard catalog llms) or "
                     "search.workloads", base->path);
        rc = RY_CMD_INPUT;
        goto out;
    }
    for (int w = 0; w < S->nwl; w++)
        S->wsum += S->wl[w].weight;

    /* the failure scenarios */
    const char **fails = ctx->list[O_FAIL];
    if (fails && fails[0]) {
        for (int i = 0; fails[i] && S->nfail < RY_SEARCH_MAX_FAILURES; i++)
            snprintf(S->fail_store[S->nfail++], 64, "%s", fails[i]);
    } else if (sp && sp->nfailures >= 0) {
        for (int i = 0; i < sp->nfailures; i++)
            snprintf(S->fail_store[S->nfail++], 64, "%s", sp->failures[i]);
    } else {
        static const char *const defaults[] = { "spine:1", "leaf:1", "plane" };
        res.default_failures = 1;
        for (int i = 0; i < 3; i++)
            snprintf(S->fail_store[S->nfail++], 64, "%s", defaults[i]);
    }
    for (int i = 0; i < S->nfail; i++)
        S->failures[i] = S->fail_store[i];
    double x;
    S->seeds = base->search.seeds > 0 ? base->search.seeds : 4;
    if (ry_opt(ctx, O_SEEDS) && parse_number(ctx, O_SEEDS, 1, 1000, &x) == RY_CMD_OK)
        S->seeds = (int)x;
    res.target_time = base->search.target_time;
    res.budget = base->search.budget;
    res.max_slowdown = base->search.max_slowdown;
    parse_number(ctx, O_TARGET, 0, 1e9, &res.target_time);
    parse_number(ctx, O_BUDGET, 0, 1e15, &res.budget);
    parse_number(ctx, O_SLOW, 0, 1e6, &res.max_slowdown);
    S->target_time = res.target_time;
    S->budget = res.budget;
    int nthreads = base->search.threads;
    if (ry_opt(ctx, O_THREADS) && parse_number(ctx, O_THREADS, 0, MAX_THREADS, &x) == RY_CMD_OK)
        nthreads = (int)x;
    if (nthreads <= 0)
        nthreads = processors();

    /* the points */
    double product = 1;
    for (int k = 0; k < S->naxes; k++)
        product *= S->axes[k].n;
    if (product > MAX_POINTS) {
        ry_error("%s: the search has %.0f points (the product of its keys' values), more than "
                 "%s: vary fewer keys or fewer values", base->path, product, ry_n(MAX_POINTS));
        rc = RY_CMD_INPUT;
        goto out;
    }
    S->npoints = (long long)product;
    /* a --set of a key the search varies: the axis' values win */
    for (int i = 0; i < ctx->nsets; i++)
        for (int k = 0; k < S->naxes; k++) {
            const char *key = ctx->sets[i].key ? ctx->sets[i].key : "";
            size_t n = ctx->sets[i].value ? strlen(key) : strcspn(key, "=");
            if (strlen(S->axes[k].key) == n && strncmp(S->axes[k].key, key, n) == 0)
                ry_warn("--set %.*s: search varies this key; its values replace the --set one "
                        "at every point", (int)n, key);
        }
    if (!(S->text = read_text(S->path))) {
        rc = RY_CMD_IO;
        goto out;
    }
    if (ry_search_preflight(base, S->text, S->sets, S->nsets, S->templates, S->axes,
                            S->value_pos, S->naxes) < 0) {
        ry_error("%s: search: a value of search.vary, search.workloads or --vary is refused "
                 "(above); nothing was run", S->path);
        rc = RY_CMD_INPUT;
        goto out;
    }
    ry_catalog *cat = ry_catalog_load(S->templates);
    if (!cat) {
        rc = ry_input_status();
        goto out;
    }
    find_dominated(S, cat);
    ry_catalog_free(cat);
    if (!(S->media = ry_media_catalog_load(S->templates))) {
        rc = ry_input_status();
        goto out;
    }
    S->pts = ry_xcalloc((size_t)S->npoints, sizeof *S->pts);
    S->values = ry_xcalloc((size_t)S->npoints, sizeof *S->values);
    for (long long p = 0; p < S->npoints; p++) {
        S->values[p] = ry_xcalloc((size_t)(S->naxes ? S->naxes : 1), sizeof *S->values[p]);
        point_values(S, p, S->values[p]);
        S->pts[p].values = S->values[p];
    }
    if (nthreads > S->npoints)
        nthreads = (int)S->npoints;
    ry_progress_step("%lld points on %d thread%s", S->npoints, nthreads,
                     nthreads == 1 ? "" : "s");
    ry_hash_str("");    /* the process's hash key made before the threads share it */
    run_points(S, nthreads);

    res.spec = base;
    res.space = sp;
    res.nfailures = S->nfail;
    res.failures = S->failures;
    res.seeds = S->seeds;
    res.npoints = S->npoints;
    res.pts = S->pts;
    res.naxes = S->naxes;
    res.axes = S->axes;
    res.workloads = S->wl;
    res.nworkloads = S->nwl;
    for (long long p = 0; p < S->npoints; p++) {
        res.pruned += S->pts[p].pruned;
        res.nok += S->pts[p].ok;
        S->pts[p].label = label_of(S, sp, S->values[p]);
    }
    warn_unlabelled(S, sp);
    for (int i = 0; i < TIMING_BUCKETS; i++)
        for (const memo *m = S->bucket[i]; m; m = m->next) {
            const timing *t = (const timing *)m;
            res.fabrics++;
            res.fabrics_built += t->built;
        }
    for (long long p = 0; p < S->npoints; p++)
        res.keyed += S->pts[p].keyed;
    for (int i = 0; i < S->nfail; i++)
        res.applied[i] = atomic_load(&S->applied[i]);
    fronts(&res);
    ry_progress_end();
    /* none to answer with: an error, unless the targets pruned them */
    if (res.nok == 0 && atomic_load(&S->bounded) == 0) {
        long long first = 0;
        while (first + 1 < S->npoints && S->pts[first].pruned)
            first++;
        ry_error("%s: none of the %s point%s can be built and modeled; #%lld says: %s",
                 base->path, ry_n(S->npoints), S->npoints == 1 ? "" : "s", first + 1,
                 S->pts[first].why);
        rc = RY_CMD_INPUT;
        goto out;
    }
    ry_buf out;
    ry_buf_init(&out);
    if (ctx->fmt == RY_FMT_CSV)
        ry_emit_search_csv(&out, &res, 0);
    else
        ry_emit_search_text(&out, &res);
    if (ctx->out)
        rc = write_dir(ctx, &res, S);
    if (rc == RY_CMD_OK)
        rc = ry_write_output(ctx, NULL, out.data, out.len);
    ry_buf_free(&out);
out:
    for (int k = 0; k < S->naxes; k++) {
        ry_vary_free(&S->axes[k]);
        free(S->axis_where[k]);
        free(S->dominated_by[k]);
    }
    for (long long p = 0; S->values && p < S->npoints; p++)
        free(S->values[p]);
    free(S->values);
    free(S->pts);
    free(S->text);
    ry_media_catalog_free(S->media);
    for (int i = 0; i < TIMING_BUCKETS; i++) {
        for (memo *m = S->bucket[i], *next; m; m = next) {
            next = m->next;
            free(atomic_load(&((timing *)m)->times));
            free(m->key);
            free(m);
        }
        for (memo *m = S->bounds[i], *next; m; m = next) {
            next = m->next;
            free(m->key);
            free(m);
        }
    }
    mtx_destroy(&S->lock);
    free(S);
    return rc;
}

/* A front point's spec: the spec's document with the point's values set,
 * without its search section. */
static int point_spec(const search *S, long long p, ry_buf *out)
{
    ry_override sets[RY_MAX_SETS + RY_SEARCH_MAX_AXES + 8 + RY_SEARCH_MAX_SETS];
    int n = point_sets(S, S->values[p], NULL, sets);
    ry_spec *s = ry_spec_load_point(S->path, S->text, sets, n, S->templates);
    if (!s)
        return -1;
    ry_buf_printf(out, "# %s, a point of railyard search on the front of capex against "
                  "iteration time:\n", s->name);
    for (int k = 0; k < S->naxes; k++)
        ry_buf_printf(out, "#   %s = %s\n", S->axes[k].key, S->values[p][k]);
    static const char *const skip[] = { "search", NULL };
    ry_ydoc_emit(s->doc, skip, out);
    ry_spec_free(s);
    return 0;
}

static ry_cmd_status write_dir(const ry_ctx *ctx, const ry_search_result *r, const search *S)
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
        bad = point_spec(S, p, &y) < 0 || ry_outdir_put_in(o, "front", name, y.data, y.len) < 0;
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
                "[--max-slowdown X] [--fail SCENARIO]... [--seeds N] [-j N] "
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
               "Points run on -j threads; the output is the same for any number.\n",
    .needs = RY_NEED_SPEC,
    .reports_workload_fit = 1,
    .check = check,
    .run = run,
};
