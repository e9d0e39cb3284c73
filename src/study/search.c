/* The search engine (study/search.h): the points of a spec's design
 * space, each built, priced, modeled and failed, on threads within a
 * memory budget, and the fronts of the results. */
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <threads.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "analysis/failure_sweep.h"
#include "analysis/pareto.h"
#include "model/plan.h"
#include "net/collective.h"
#include "net/flow.h"
#include "spec/catalog.h"
#include "spec/search.h"
#include "spec/yaml.h"
#include "study/search.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/hash.h"
#include "util/numfmt.h"
#include "util/progress.h"
#include "util/vary.h"

#define MAX_POINTS RY_SEARCH_MAX_POINTS
#define MAX_WORKLOADS RY_SEARCH_MAX_WORKLOADS
#define MAX_THREADS RY_SEARCH_MAX_THREADS

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

typedef struct ry_search search;

struct ry_search {
    const ry_spec *base;
    const char *path;
    char *text;                 /* the spec file, read once */
    const char *templates;
    const ry_override *sets;    /* the command line's --set */
    int nsets;
    ry_vary axes[RY_SEARCH_MAX_AXES + 8];
    char *axis_where[RY_SEARCH_MAX_AXES + 8];
    const ry_pos *value_pos[RY_SEARCH_MAX_AXES + 8];  /* search.vary's values; NULL: --vary's */
    /* The default space: every point's scalable unit is the one that fills
     * its leaves (cluster.scalable_unit 0), whatever its switch and taper. */
    int fit_su;
    char space_note[320];       /* "" unless the default space is searched */
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
    int objective;                  /* 0 capex, 1 ownership */
    int analytic;               /* the analytic shares, not the flow engine */
    /* the timings and bounds computed, by key */
    mtx_t lock;
    memo *bucket[TIMING_BUCKETS];   /* timings */
    memo *bounds[TIMING_BUCKETS];   /* bounds */
    /* the work queue */
    atomic_llong next, done;
    atomic_llong bounded;       /* points pruned by the target time or the budget */
    atomic_int applied[RY_SEARCH_MAX_FAILURES];   /* points a scenario applied to */
    /* the memory budget of the builds running at once */
    long long memory, in_use;
    long long reserved;         /* of memory: the other threads' own (RY_SEARCH_THREAD_BYTES) */
    mtx_t gate;
    cnd_t room;
};

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
static double mix_slowdown(void *arg, const ry_failure *fs, const ry_failure_report *r,
                           int *stalled)
{
    const mix *m = arg;
    (void)fs;
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
    *slow = mix_slowdown(m, NULL, ry_fsweep_bufs_analyze(bufs, f, &e, 1), stalled);
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
static int model_point(const search *S, ry_spec *const *spec, const ry_fabric *f, mix *m,
                       times *ti)
{
    *m = (mix){ .n = 0, .wsum = S->wsum };
    /* the layouts' collectives on the point's fabric, one engine for the mix */
    ry_plan_net pn;
    ry_err nerr;
    if (S->analytic)
        f = NULL;
    int engine = f && ry_plan_net_init(&pn, f, &nerr) == 0;
    if (f && !engine) {
        ry_spec_error(spec[0], nerr.key[0] ? "network" : NULL, "%s", nerr.msg);
        return 0;
    }
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
        if (ry_plan_compute_layout(spec[w], engine ? &pn : NULL, pl) < 0) {
            if (engine)
                ry_plan_net_free(&pn);
            return 0;
        }
        m->pl[m->n - 1]->net = NULL;    /* the engine does not outlive this call */
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
    if (engine)
        ry_plan_net_free(&pn);
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

/* Room for the sets of a point (point_sets); the caller frees it. */
static ry_override *new_sets(const search *S)
{
    return ry_xcalloc((size_t)(S->nsets + S->naxes + 1 + RY_SEARCH_MAX_SETS),
                      sizeof(ry_override));
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
    if (S->fit_su) {
        sets[n] = (ry_override){ "cluster.scalable_unit", "0", n + 1, "the default space" };
        n++;
    }
    for (int i = 0; w && i < w->n; i++) {
        sets[n] = (ry_override){ w->sets[i].key, w->sets[i].value, n + 1, "search.workloads" };
        n++;
    }
    return n;
}

/* ---- memory --------------------------------------------------------------------------------- */

long long ry_search_point_bytes(long long gpus, int planes)
{
    if (gpus < 0)
        gpus = 0;
    if (planes < 1)
        planes = 1;
    /* the graph, layout, cabling plan and bill of one build: at 1,048,576
     * GPUs, about 330 bytes per GPU port resident and 470 of address space
     * (arrays grown by doubling); 512 with a margin, and 8 MiB for what
     * does not grow with the cluster */
    double b = 512.0 * (double)gpus * planes + 8.0 * 1024 * 1024;
    return b > (double)LLONG_MAX / 4 ? LLONG_MAX / 4 : (long long)b;
}

long long ry_search_engine_bytes(const ry_spec *spec)
{
    if (!spec || !spec->workload || spec->gpus < 2)
        return 0;
    /* the tiers a hop may cross up and down: the blocks the cluster spans,
     * and the top */
    ry_fabric_block blocks[RY_MAX_TIERS];
    int nb = ry_spec_fabric_blocks(spec, blocks);
    double tiers = 1;
    for (int i = 0; i < nb; i++)
        tiers += blocks[i].gpus < spec->gpus;
    double gpus = (double)spec->gpus, planes = spec->planes > 0 ? spec->planes : 1;
    /* the resources: each link both ways, a link per GPU port a tier (1:1),
     * and each GPU's NVLink both ways */
    double nres = 2 * gpus * planes * tiers + 2 * gpus;
    const ry_workload *w = spec->workload;
    double flows, entries, shared, on_shared;
    if (w->model.moe.experts > 0) {
        /* the expert all-to-all: every GPU to the ep - 1 others of its group
         * on each plane, through a GPU of the destination's rail (two NVLink
         * entries), up and down every tier; every resource it crosses may
         * be shared */
        double ep = w->expert > 0 ? w->expert : w->model.moe.experts;
        if (ep > gpus)
            ep = gpus;
        flows = gpus * planes * (ep - 1);
        entries = on_shared = flows * (2 + 2 * tiers);
        shared = entries / 2 < nres ? entries / 2 : nres;
    } else {
        /* a ring or a shift of every GPU: one hop each on each plane, up
         * and down every tier, on a path of its own (at 524,288 GPUs the
         * model's phases share no resource) */
        flows = gpus * planes;
        entries = flows * 2 * tiers;
        shared = on_shared = 0;
    }
    double b = ry_net_bytes_estimate((size_t)nres, flows, entries, shared, on_shared);
    if (b > RY_COLL_PHASE_BYTES)
        b = RY_COLL_PHASE_BYTES;        /* a bigger phase is not run */
    return (long long)b;
}

/* What a point of spec takes while built and modeled: its build and,
 * unless the shares are analytic, the engine's biggest phase among the
 * mix's workloads (spec[0 .. n)). */
static long long point_need(const search *S, ry_spec *const *spec, int n)
{
    long long need = ry_search_point_bytes(spec[0]->gpus, spec[0]->planes), engine = 0;
    for (int w = 0; w < n && !S->analytic; w++) {
        long long e = ry_search_engine_bytes(spec[w]);
        if (e > engine)
            engine = e;
    }
    return need + engine;
}

int ry_search_threads(int want, int nproc, long long memory, long long per_point)
{
    long long n = want > 0 ? want : nproc;
    if (want <= 0 && memory / (per_point + RY_SEARCH_THREAD_BYTES) < n)
        n = memory / (per_point + RY_SEARCH_THREAD_BYTES);
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    return n < 1 ? 1 : (int)n;
}

/* A line "Key: N kB" of a /proc file, in bytes; -1 when absent. */
static long long proc_kb(const char *path, const char *key)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[256];
    long long v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, fp))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            v = strtoll(line + n + 1, NULL, 10) * 1024;
            break;
        }
    fclose(fp);
    return v;
}

long long ry_search_memory_available(void)
{
    long long avail = proc_kb("/proc/meminfo", "MemAvailable");
    if (avail < 0) {
        long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        avail = pages > 0 && size > 0 ? (long long)pages * size : LLONG_MAX;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        long long mapped = proc_kb("/proc/self/status", "VmSize");
        long long room = (long long)rl.rlim_cur - (mapped > 0 ? mapped : 0);
        if (room < avail)
            avail = room > 0 ? room : 0;
    }
    return avail;
}

/* Waits until a build of spec fits in the budget beside the builds
 * running, and holds its share (*held, for build_leave); 0 with err set
 * when it alone needs more than the budget. One build always runs, so the
 * wait ends. */
static int build_enter(search *S, ry_spec *const *spec, long long *held, ry_err *err)
{
    long long need = point_need(S, spec, S->nwl);
    *held = 0;
    if (need > S->memory) {
        char a[48], b[48];
        ry_err_set(err, NULL, "not built: its %s GPUs need about %s of memory, more than the "
                   "search's memory budget of %s (--memory)", ry_n(spec[0]->gpus),
                   ry_num_si(a, sizeof a, (double)need, "B", 3),
                   ry_num_si(b, sizeof b, (double)S->memory, "B", 3));
        return 0;
    }
    mtx_lock(&S->gate);
    while (S->in_use > 0 && S->in_use + need > S->memory - S->reserved)
        cnd_wait(&S->room, &S->gate);
    S->in_use += need;
    mtx_unlock(&S->gate);
    *held = need;
    return 1;
}

static void build_leave(search *S, long long held)
{
    if (!held)
        return;
    mtx_lock(&S->gate);
    S->in_use -= held;
    cnd_broadcast(&S->room);
    mtx_unlock(&S->gate);
}

/* The design build of spec within the memory budget (build_done frees
 * it); NULL with err set. */
static ry_design_build *build_point(search *S, ry_spec *const *spec, long long *held,
                                    ry_err *err)
{
    if (!build_enter(S, spec, held, err))
        return NULL;
    ry_design_build *b = ry_design_build_new(spec[0], spec[0]->design, S->media, err);
    if (!b)
        build_leave(S, *held);
    return b;
}

static void build_done(search *S, ry_design_build *b, long long held)
{
    ry_design_build_free(b);
    build_leave(S, held);
}

/* The times of spec (one per workload): the model's, and the failures'
 * on its fabric built again; diagnostics go to the caller's capture. */
static times *time_fabric(search *S, ry_spec *const *spec, ry_buf *diag)
{
    times *ti = ry_xcalloc(1, sizeof *ti);
    mix m;
    ry_buf_reset(diag);
    ry_err err;
    long long held;
    m = (mix){ .n = 0, .wsum = S->wsum };
    ry_design_build *b = build_point(S, spec, &held, &err);
    if (!b) {
        ry_err_text(&err, ti->why, sizeof ti->why);
    } else {
        if (model_point(S, spec, &b->fabric, &m, ti)) {
            point_failures(S, b, &m, ti);
            ti->ok = 1;
        } else {
            first_reason(diag, ti->why, sizeof ti->why);
        }
        build_done(S, b, held);
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

/* The fabric of spec (one per workload) into tm: built, modeled on it (the
 * layout's collectives on the flow engine), and unless its time is over
 * the target, priced, and its failures analysed when the point is within
 * the budget. */
static void compute(search *S, ry_spec *const *spec, ry_buf *diag, timing *tm)
{
    times *ti = ry_xcalloc(1, sizeof *ti);
    mix m = { .n = 0, .wsum = S->wsum };
    ry_buf_reset(diag);
    ry_err err;
    long long held;
    ry_design_build *b = build_point(S, spec, &held, &err);
    if (!b) {
        ry_err_text(&err, tm->why, sizeof tm->why);
        goto out;
    }
    /* the model on the fabric as built: its collectives on the engine */
    int modeled = model_point(S, spec, &b->fabric, &m, ti);
    if (!modeled)
        first_reason(diag, ti->why, sizeof ti->why);
    if (modeled && S->target_time > 0 && ti->iter_s > S->target_time) {
        tm->over_target = ti->iter_s;
        build_done(S, b, held);
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
    build_done(S, b, held);
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
 * cabling, time and failures): those points are pruned, not built. The
 * same shape draws the same power, so the cheaper make's ownership is the
 * lower too. */
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
    ry_override *sets = new_sets(S);
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
    pt->ownership = cx.ownership;
    snprintf(pt->waste, sizeof pt->waste, "%s", c->waste);
    snprintf(pt->unpriced, sizeof pt->unpriced, "%s", c->unpriced);
    pt->price = S->objective ? pt->ownership : pt->capex;
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
    free(sets);
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
        x[i] = r->pts[i].price;
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
        if (!a || p->price < a->price || (p->price == a->price && p->iter_s < a->iter_s))
            r->answer = i;
    }
    free(x);
    free(y);
    free(z);
    free(ok);
    free(on);
}

long long ry_search_answer_with(const ry_search_result *r, int kind, double f,
                                double support_pct, double switch_rate, double cable_rate)
{
    long long answer = -1;
    double best = 0, best_t = 0;
    for (long long i = 0; i < r->npoints; i++) {
        const ry_search_point *p = &r->pts[i];
        if (!p->ok || (r->nfailures && p->stalls[0]) ||
            (r->max_slowdown > 0 && p->slowdown > r->max_slowdown) ||
            !(p->iter_s <= r->target_time))
            continue;
        double hw = p->capex_switches + p->capex_optics + p->capex_cables;
        double part = kind == 0 ? p->capex_switches : kind == 1 ? p->capex_optics
                                                                : p->capex_cables;
        double delta = (f - 1) * part * (hw > 0 ? 1 + p->capex_spares / hw : 1);
        double capex = p->capex + delta;
        if (r->budget > 0 && capex > r->budget)
            continue;
        double price = capex;
        if (r->objective)
            price = p->ownership + delta +
                    (f - 1) * part * r->years *
                        (kind == 0 ? support_pct / 100 + switch_rate : cable_rate);
        if (answer < 0 || price < best || (price == best && p->iter_s < best_t)) {
            answer = i;
            best = price;
            best_t = p->iter_s;
        }
    }
    return answer;
}

/* ---- the search ----------------------------------------------------------------------------- */

void ry_search_in_init(ry_search_in *in, const ry_spec *base, const char *path,
                       const char *templates)
{
    *in = (ry_search_in){ .base = base, .path = path, .templates = templates };
    in->seeds = base->search.seeds > 0 ? base->search.seeds : 4;
    in->target_time = base->search.target_time;
    in->budget = base->search.budget;
    in->max_slowdown = base->search.max_slowdown;
    in->objective = base->search.objective;
    in->threads = base->search.threads;
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
static void gather_axes(const ry_search_in *in, search *S, const ry_search_space *sp)
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
    for (int i = 0; in->vary && in->vary[i] && S->naxes < RY_SEARCH_MAX_AXES + 8; i++) {
        ry_vary v;
        const char *why;
        if (ry_vary_parse(in->vary[i], &v, &why) < 0)
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

/* A search with no axes (no search.vary, no --vary) searches the space a
 * planner starts from: the three designs; leaves at 1:1, 2:1 and 4:1 (a
 * fabric.tiers list keeps its tiers: then the designs alone); and the
 * catalog's priced switches of the spec's protocol whose ports run at the
 * NIC's speed; each point with the scalable unit that fills its leaves.
 * Says it in S->space_note. */
static void default_axes(search *S, const ry_spec *base)
{
    static const char *const designs[] = { "rail-optimized", "rail-only", "fat-tree" };
    static const char *const tapers[] = { "1:1", "2:1", "4:1" };
    const char *why;
    ry_vary *a = &S->axes[S->naxes];
    a->key = ry_xstrdup("fabric.design");
    for (int i = 0; i < 3; i++)
        ry_vary_add(a, designs[i], &why);
    S->axis_where[S->naxes++] = ry_xstrdup("the default space: fabric.design");
    if (base->n_tier) {
        snprintf(S->space_note, sizeof S->space_note, "the three designs (fabric.tiers keeps "
                 "its switches and tapers)");
        return;
    }
    a = &S->axes[S->naxes];
    a->key = ry_xstrdup("fabric.oversubscription");
    for (int i = 0; i < 3; i++)
        ry_vary_add(a, tapers[i], &why);
    S->axis_where[S->naxes++] = ry_xstrdup("the default space: fabric.oversubscription");
    S->fit_su = 1;
    ry_catalog *cat = ry_catalog_load(S->templates);
    int nsw = 0;
    ry_vary sw = { 0 };
    sw.key = ry_xstrdup("fabric.switch");
    for (int i = 0; cat && i < cat->nswitches && sw.n < RY_VARY_MAX_VALUES; i++) {
        const ry_switch_model *m = &cat->switches[i].model;
        if (m->ethernet != base->sw.ethernet || m->port_gbps != base->node.nic_gbps ||
            !(m->price > 0))
            continue;
        ry_vary_add(&sw, m->name, &why);
        nsw++;
    }
    ry_catalog_free(cat);
    char speed[32];
    snprintf(speed, sizeof speed, "%gG", base->node.nic_gbps);
    if (nsw == 0) {
        ry_vary_free(&sw);
        snprintf(S->space_note, sizeof S->space_note, "the three designs, leaves at 1:1, 2:1 "
                 "and 4:1, the spec's switch (the catalog has no priced %s switch of %s); scalable "
                 "units that fill the leaves", base->sw.ethernet ? "Ethernet" : "InfiniBand", speed);
        return;
    }
    int own = 0;
    for (int i = 0; i < sw.n && !own; i++)
        own = strcmp(sw.values[i], base->sw.name) == 0;
    if (!own)
        ry_warn("%s: the spec's own switch, %s, is not in the default space (not a priced %s "
                "catalog entry of %s): search.vary or --vary fabric.switch=... searches it",
                base->path, base->sw.name[0] ? base->sw.name : "inline",
                base->sw.ethernet ? "Ethernet" : "InfiniBand", speed);
    S->axes[S->naxes] = sw;
    S->axis_where[S->naxes++] = ry_xstrdup("the default space: fabric.switch");
    snprintf(S->space_note, sizeof S->space_note, "the three designs, leaves at 1:1, 2:1 and "
             "4:1, the catalog's priced %s switches of %s; scalable units that fill the "
             "leaves", base->sw.ethernet ? "Ethernet" : "InfiniBand",
             speed);
}

/* The mix: search.workloads, or the spec's own workload; 0 after an
 * error (there is none to time a point by). */
static int gather_workloads(search *S, const ry_spec *base, const ry_search_space *sp)
{
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
        return 0;
    }
    for (int w = 0; w < S->nwl; w++)
        S->wsum += S->wl[w].weight;
    return 1;
}

/* The failure scenarios: --fail, else search.failures, else the default
 * list (1 returned). */
static int gather_failures(search *S, const ry_search_in *in, const ry_search_space *sp)
{
    int dflt = 0;
    if (in->fails && in->fails[0]) {
        for (int i = 0; in->fails[i] && S->nfail < RY_SEARCH_MAX_FAILURES; i++)
            snprintf(S->fail_store[S->nfail++], 64, "%s", in->fails[i]);
    } else if (sp && sp->nfailures >= 0) {
        for (int i = 0; i < sp->nfailures; i++)
            snprintf(S->fail_store[S->nfail++], 64, "%s", sp->failures[i]);
    } else {
        static const char *const defaults[] = { "spine:1", "leaf:1", "plane" };
        dflt = 1;
        for (int i = 0; i < 3; i++)
            snprintf(S->fail_store[S->nfail++], 64, "%s", defaults[i]);
    }
    for (int i = 0; i < S->nfail; i++)
        S->failures[i] = S->fail_store[i];
    return dflt;
}

/* The points' table, after the run. */
static void tally(search *S, const ry_search_space *sp, ry_search_result *res)
{
    res->nfailures = S->nfail;
    res->failures = S->failures;
    res->seeds = S->seeds;
    res->npoints = S->npoints;
    res->pts = S->pts;
    res->naxes = S->naxes;
    res->axes = S->axes;
    res->workloads = S->wl;
    res->nworkloads = S->nwl;
    for (long long p = 0; p < S->npoints; p++) {
        res->pruned += S->pts[p].pruned;
        res->nok += S->pts[p].ok;
        S->pts[p].label = label_of(S, sp, S->values[p]);
    }
    warn_unlabelled(S, sp);
    for (int i = 0; i < TIMING_BUCKETS; i++)
        for (const memo *m = S->bucket[i]; m; m = m->next) {
            const timing *t = (const timing *)m;
            res->fabrics++;
            res->fabrics_built += t->built;
        }
    for (long long p = 0; p < S->npoints; p++)
        res->keyed += S->pts[p].keyed;
    for (int i = 0; i < S->nfail; i++)
        res->applied[i] = atomic_load(&S->applied[i]);
}

int ry_search_run(const ry_search_in *in, ry_search **out, ry_search_result *res)
{
    const ry_spec *base = in->base;
    const ry_search_space *sp = base->search_space;
    search *S = ry_xcalloc(1, sizeof *S);
    *out = S;
    memset(res, 0, sizeof *res);
    mtx_init(&S->lock, mtx_plain);
    mtx_init(&S->gate, mtx_plain);
    cnd_init(&S->room);
    S->base = base;
    S->path = in->path;
    S->templates = in->templates;
    S->sets = in->sets;
    S->nsets = in->nsets;
    gather_axes(in, S, sp);
    if (S->naxes == 0)
        default_axes(S, base);
    res->space_note = S->space_note;
    if (!gather_workloads(S, base, sp))
        return 1;
    res->default_failures = gather_failures(S, in, sp);
    S->seeds = in->seeds > 0 ? in->seeds : 4;
    res->target_time = S->target_time = in->target_time;
    res->budget = S->budget = in->budget;
    S->analytic = in->analytic;
    res->max_slowdown = in->max_slowdown;
    res->objective = S->objective = in->objective;
    res->years = base->own_years;

    /* the points */
    double product = 1;
    for (int k = 0; k < S->naxes; k++)
        product *= S->axes[k].n;
    if (product > MAX_POINTS) {
        ry_error("%s: the search has %.0f points (the product of its keys' values), more than "
                 "%s: vary fewer keys or fewer values", base->path, product, ry_n(MAX_POINTS));
        return 1;
    }
    S->npoints = (long long)product;
    if (in->max_points > 0 && S->npoints > in->max_points)
        S->npoints = in->max_points;
    /* a --set of a key the search varies: the axis' values win */
    for (int i = 0; i < in->nsets; i++)
        for (int k = 0; k < S->naxes; k++) {
            const char *key = in->sets[i].key ? in->sets[i].key : "";
            size_t n = in->sets[i].value ? strlen(key) : strcspn(key, "=");
            if (strlen(S->axes[k].key) == n && strncmp(S->axes[k].key, key, n) == 0)
                ry_warn("--set %.*s: search varies this key; its values replace the --set one "
                        "at every point", (int)n, key);
        }
    if (!(S->text = read_text(S->path)))
        return 3;
    if (ry_search_preflight(base, S->text, S->sets, S->nsets, S->templates, S->axes,
                            S->value_pos, S->naxes) < 0) {
        ry_error("%s: search: a value of search.vary, search.workloads or --vary is refused "
                 "(above); nothing was run", S->path);
        return 1;
    }
    ry_catalog *cat = ry_catalog_load(S->templates);
    if (!cat)
        return ry_exit_status(1);
    find_dominated(S, cat);
    ry_catalog_free(cat);
    if (!(S->media = ry_media_catalog_load(S->templates)))
        return ry_exit_status(1);
    S->pts = ry_xcalloc((size_t)S->npoints, sizeof *S->pts);
    S->values = ry_xcalloc((size_t)S->npoints, sizeof *S->values);
    for (long long p = 0; p < S->npoints; p++) {
        S->values[p] = ry_xcalloc((size_t)(S->naxes ? S->naxes : 1), sizeof *S->values[p]);
        point_values(S, p, S->values[p]);
        S->pts[p].values = S->values[p];
    }
    /* as many threads as the processors, and the memory holds builds of
     * the spec's own size */
    S->memory = in->memory > 0 ? in->memory : ry_search_memory_available();
    int nthreads = ry_search_threads(in->threads, processors(), S->memory,
                                     ry_search_point_bytes(base->gpus, base->planes) +
                                     (S->analytic ? 0 : ry_search_engine_bytes(base)));
    if (nthreads > S->npoints)
        nthreads = (int)S->npoints;
    S->reserved = (long long)(nthreads - 1) * RY_SEARCH_THREAD_BYTES;
    res->threads = nthreads;
    res->memory = S->memory;
    ry_progress_step("%lld points on %d thread%s", S->npoints, nthreads,
                     nthreads == 1 ? "" : "s");
    ry_hash_str("");    /* the process's hash key made before the threads share it */
    run_points(S, nthreads);

    res->spec = base;
    res->space = sp;
    tally(S, sp, res);
    fronts(res);
    ry_progress_end();
    /* none to answer with: an error, unless the targets pruned them */
    if (res->nok == 0 && atomic_load(&S->bounded) == 0) {
        long long first = 0;
        while (first + 1 < S->npoints && S->pts[first].pruned)
            first++;
        ry_error("%s: none of the %s point%s can be built and modeled; #%lld says: %s",
                 base->path, ry_n(S->npoints), S->npoints == 1 ? "" : "s", first + 1,
                 S->pts[first].why);
        return 1;
    }
    return 0;
}

void ry_search_free(ry_search *S)
{
    if (!S)
        return;
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
    mtx_destroy(&S->gate);
    cnd_destroy(&S->room);
    free(S);
}

int ry_search_point_spec(const ry_search *S, long long p, ry_buf *out)
{
    ry_override *sets = new_sets(S);
    int n = point_sets(S, S->values[p], NULL, sets);
    ry_spec *s = ry_spec_load_point(S->path, S->text, sets, n, S->templates);
    free(sets);
    if (!s)
        return -1;
    ry_buf_printf(out, "# %s, a point of railyard search on the front of capex against "
                  "iteration time:\n", s->name);
    for (int k = 0; k < S->naxes; k++) {
        ry_buf_printf(out, "#   %s = ", S->axes[k].key);
        ry_escape_str(out, S->values[p][k], RY_ESC_LINE);
        ry_buf_putc(out, '\n');
    }
    static const char *const skip[] = { "search", NULL };
    ry_ydoc_emit(s->doc, skip, out);
    ry_spec_free(s);
    return 0;
}
