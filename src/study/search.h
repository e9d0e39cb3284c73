/* The search engine: the design space of a spec, point by point. Every
 * combination of the values search.vary and --vary give is a point,
 * loaded as the spec with those values set (as --set sets them), built,
 * laid out, cabled and priced as bom prices it, the full model run for
 * each workload of the mix, and the failure scenarios' slowdown taken from
 * whatif's analysis. Points run on threads; the answer is the Pareto front
 * of capex against iteration time and against the slowdown, and the
 * cheapest point within the targets. The engine writes no file: the
 * command (cmd_search.c) prints and writes its results.
 *
 * Memory. A point's build takes memory in proportion to its GPU ports
 * (ry_search_point_bytes, the closed form). The points being built at once
 * keep within a budget (--memory, or the memory available to the process:
 * MemAvailable, and the address-space limit), and the default thread count
 * is what the budget holds of the spec's own point; a point that alone
 * needs more than the budget is not built, and says why.
 *
 * Memory of the results: ry_search_run fills a ry_search_result whose
 * arrays belong to the ry_search it returns; ry_search_free (NULL-safe)
 * frees both. */
#ifndef RY_STUDY_SEARCH_H
#define RY_STUDY_SEARCH_H

#include "model/plan.h"
#include "spec/search.h"
#include "spec/spec.h"
#include "util/buf.h"

/* Without a target, the answer is the cheapest point this close to the
 * fastest point's iteration time: what the model resolves. */
#define RY_SEARCH_AS_FAST RY_PLAN_RESOLUTION

/* At most this many points (the product of the axes' value counts). */
#define RY_SEARCH_MAX_POINTS 100000
#define RY_SEARCH_MAX_THREADS 256

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
    double ownership;           /* capex and cost.years of energy and support (ry_capex) */
    double price;               /* what the objective prices: capex or ownership */
    char waste[160];            /* ports bought that carry nothing (ry_bom_waste), or "" */
    char unpriced[RY_NAME_MAX]; /* a switch model with no price, or "" */
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
    const char *space_note;     /* "" unless no axis was given: the default space, said */
    long long applied[RY_SEARCH_MAX_FAILURES];  /* points each scenario applied to */
    int seeds;
    long long npoints, nok;
    ry_search_point *pts;
    long long nfront, nfront_fail;
    long long answer;           /* the cheapest within the targets, -1 none */
    double target_time, budget, max_slowdown;
    int objective;              /* 0 capex, 1 ownership: the front's and the answer's price */
    int years;                  /* of the ownership */
    double fastest;             /* the fastest point within the other targets */
    int as_fast;                /* no time target given: target_time is the fastest's + 1% */
    long long pruned;           /* points not modeled: dominated switch models, bounds */
    long long fabrics;          /* distinct specs but for prices, names and addresses */
    long long fabrics_built;    /* of them, built */
    long long keyed;            /* points that reached one (their spec loaded, not pruned) */
    int threads;                /* the points ran on this many threads */
    long long memory;           /* within this budget of bytes */
} ry_search_result;

/* What a search runs on: the spec and the command line's choices, each
 * already checked by the caller (the command's option table). */
typedef struct ry_search_in {
    const ry_spec *base;        /* the spec as loaded (borrowed) */
    const char *path;           /* its file, read again for each point ("-" refused) */
    const char *templates;      /* the catalog directory (ry_templates_dir's) */
    const ry_override *sets;    /* --set */
    int nsets;
    const char *const *vary;    /* --vary KEY=VALUES, NULL-terminated; NULL: none */
    const char *const *fails;   /* --fail scenarios, NULL-terminated; NULL or empty: the
                                 * spec's search.failures, else spine:1, leaf:1, plane */
    int seeds;                  /* draws per KIND:N scenario */
    double target_time, budget, max_slowdown;   /* the answer's bounds (0: none) */
    int objective;              /* 0 capex, 1 ownership (search.objective, --objective) */
    int threads;                /* 0: as many as processors and memory allow */
    long long memory;           /* bytes the points may take at once; 0: what is available */
    long long max_points;       /* > 0: only the first this many points are evaluated */
    int analytic;               /* the analytic shares, not the flow engine */
} ry_search_in;

/* in for base with the spec's search section's choices (the bounds, seeds,
 * threads); the rest empty. */
void ry_search_in_init(ry_search_in *in, const ry_spec *base, const char *path,
                       const char *templates);

typedef struct ry_search ry_search;

/* Runs the search of in into *res and *out (freed with ry_search_free,
 * whatever this returns). Returns an exit status: 0, 1 (bad input: the
 * spec, a value or no point evaluated, said), or 3 (the spec could not be
 * read again). */
int ry_search_run(const ry_search_in *in, ry_search **out, ry_search_result *res);

/* The answer (a point's index, -1 none) with every price of one kind
 * (0 switches, 1 optics, 2 cables: analysis/sensitivity.h's ry_price_kind)
 * at f times list: each point's capex (and ownership: its support with the
 * switches' price at support_pct a year, the spares its failures use at
 * switch_rate and cable_rate a year) repriced, the budget applied to
 * it, the time and slowdown targets as found. */
long long ry_search_answer_with(const ry_search_result *r, int kind, double f,
                                double support_pct, double switch_rate, double cable_rate);
void ry_search_free(ry_search *S);

/* A point's spec: the spec's document with point p's values set, without
 * its search section, headed by a comment naming the values. -1 (said)
 * when it does not load. */
int ry_search_point_spec(const ry_search *S, long long p, ry_buf *out);

/* The memory one point takes to be built, laid out, cabled and priced
 * (the peak of its address space, in bytes), from its GPUs and planes:
 * 512 bytes per GPU port and 8 MiB (measured at 1,048,576 GPUs of one
 * plane: about 470 bytes per port mapped, 330 resident). */
long long ry_search_point_bytes(long long gpus, int planes);

/* The memory the flow engine takes to model a point of spec (its biggest
 * phase, net/flow.h's ry_net_bytes_estimate), from the spec alone: for a
 * dense model a ring or shift of every GPU, one hop each on each plane,
 * up and down every tier; for a mixture of experts the expert all-to-all
 * of every GPU with the ep - 1 others of its group (ep: workload
 * parallelism.expert, else the model's experts), through a GPU of the
 * destination's rail. At most RY_COLL_PHASE_BYTES (a phase past it is not
 * run); 0 without a workload. The search counts it with the point's build
 * unless its shares are analytic. */
long long ry_search_engine_bytes(const ry_spec *spec);

/* What a thread maps of its own: its malloc arena (64 MiB reserved) and
 * its stack (8 MiB). */
#define RY_SEARCH_THREAD_BYTES (72LL << 20)

/* The threads that run points: want (0: one per processor, nproc of
 * them; fewer when memory (bytes) holds fewer threads each building a
 * point of per_point bytes); at least 1. */
int ry_search_threads(int want, int nproc, long long memory, long long per_point);

/* The memory this process may still take, in bytes: the system's
 * available memory (MemAvailable) within the address-space limit
 * (RLIMIT_AS) less what the process maps now; LLONG_MAX when neither is
 * known. */
long long ry_search_memory_available(void);

#endif
