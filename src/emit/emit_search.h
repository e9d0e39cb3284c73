/* What railyard search prints and writes: the one-screen table, the
 * points and the front as CSV, the gnuplot script of capex against
 * iteration time with the front marked and the published designs named,
 * and a front point's spec. */
#ifndef RY_EMIT_SEARCH_H
#define RY_EMIT_SEARCH_H

#include "spec/search.h"
#include "spec/spec.h"
#include "util/buf.h"

/* Without a target, the answer is the cheapest point this close to the
 * fastest point's iteration time. */
#define RY_SEARCH_AS_FAST 0.01

typedef struct ry_search_point {
    int built;                  /* the fabric was built and priced */
    int ok;                     /* and every workload modeled: a candidate */
    int pruned;                 /* not modeled: a dominated switch model, or beyond the
                                 * target time or the budget (why says) */
    int keyed;                  /* its spec loaded and looked up (not pruned) */
    int scenarios;              /* failure scenarios that apply to its fabric */
    char why[400];              /* why not: the first error, "key: message" */
    const char **values;        /* per axis (the axes' strings) */
    int design;                 /* ry_design */
    int tiers;
    long long switches, optics, cables;
    int racks;
    double power_w;
    double capex, capex_switches, capex_optics, capex_cables, capex_racks, capex_spares;
    long long t, p, d, c, ep;   /* the first workload's layout: tensor, pipeline, data,
                                 * context, expert parallel (1: none) */
    long long gpus;
    double iter_s;              /* the workloads' iteration times, weighted mean */
    double fastest_s;           /* the fastest possible (ry_plan_fastest), weighted the
                                 * same; 0: none */
    double iter_w[RY_SEARCH_MAX_WORKLOADS];  /* each workload's */
    double tokens_per_s;        /* weighted mean */
    double tokens_per_musd;     /* tokens/s per $1M of capex */
    double slowdown;            /* mean over the failure scenarios (INFINITY: one stalls) */
    char stalls[64];            /* the first scenario that stalls the job */
    int label;                  /* search.published entry it matches, -1 none */
    unsigned char front, front_fail;   /* on the capex-time, capex-slowdown fronts */
    unsigned char meets;        /* within the targets */
} ry_search_point;

typedef struct ry_search_result {
    const ry_spec *spec;
    const ry_search_space *space;   /* the labels (NULL without a search section) */
    int naxes;
    const ry_vary *axes;        /* search.vary then --vary */
    int nworkloads;
    const ry_search_workload *workloads;
    int nfailures;
    const char *const *failures;
    int default_failures;       /* the failures are the default list, not the spec's */
    long long applied[RY_SEARCH_MAX_FAILURES];  /* points each scenario applied to */
    int seeds;
    long long npoints, nok;
    ry_search_point *pts;
    long long nfront, nfront_fail;
    long long answer;           /* the cheapest within the targets, -1 none */
    double target_time, budget, max_slowdown;
    double fastest;             /* the fastest point within the other targets */
    int as_fast;                /* no time target given: target_time is the fastest's + 1% */
    long long pruned;           /* points not modeled: dominated switch models, bounds */
    long long fabrics;          /* distinct specs but for prices, names and addresses */
    long long fabrics_built;    /* of them, built */
    long long keyed;            /* points that reached one (their spec loaded, not pruned) */
} ry_search_result;

void ry_emit_search_text(ry_buf *out, const ry_search_result *r);
/* every point (front: only the front's) as CSV */
void ry_emit_search_csv(ry_buf *out, const ry_search_result *r, int front_only);
/* the gnuplot script, data inline, writing search.png and search.svg */
void ry_emit_search_plot(ry_buf *out, const ry_search_result *r);

#endif
