/* LIBRA: the bandwidth of each network dimension chosen for a training
 * workload (Won, Rashidi, Srinivasan, Krishna, ISPASS 2024), solved with
 * NLopt instead of a commercial solver.
 *
 * The model (doc/libra.md):
 *   - a d-dimensional network; dimension i has a size n_i, a building block
 *     (ring, fully-connected, switch) and a price per GB/s per NPU u_i;
 *     NPUs = product of n_i; cost = NPUs * sum_i bw_i * u_i;
 *   - a collective of S bytes with group size c_i on dimension i sends m_i
 *     bytes per NPU on dimension i (ry_libra_coll_bytes); it takes
 *     max_i m_i / bw_i, the dimensions being pipelined;
 *   - an iteration is a list of layers of three phases (forward, input
 *     gradient, weight gradient), each a compute time and at most one
 *     collective; T = sum of compute and collective times (no overlap).
 *
 * Units: bandwidth in GB/s (1 GB = 1e9 B) per NPU, bytes, seconds, USD.
 * Ownership: every struct owns its arrays; *_free releases them.
 *
 * What the spec says (the network, the workload's layers, the constraints
 * as written) is read by spec/libra_spec.c; ry_libra_problem_build turns it
 * into the problem solved here. */
#ifndef RY_LIBRA_H
#define RY_LIBRA_H

#include <stddef.h>

#include "model/plan.h"
#include "spec/libra_spec.h"
#include "spec/spec.h"
#include "util/diag.h"

/* NPUs * sum_i bw_i * u_i, USD. */
double ry_libra_cost(const ry_libra_net *n, const double *bw);

/* ---- collectives ---------------------------------------------------------------------- */

/* Bytes per NPU on each dimension for a collective of `bytes` bytes with
 * group[i] NPUs on dimension i (1 = the dimension is not used):
 *   all-reduce     ascending:  m_i = 2 S (c_i-1)/c_i, then S /= c_i
 *   reduce-scatter ascending:  m_i = S (c_i-1)/c_i,   then S /= c_i
 *   all-gather     descending: m_i = S (c_i-1),       then S *= c_i
 *                  (bytes is each NPU's initial shard)
 *   all-to-all:                m_i = S (c_i-1)/c_i,   S unchanged */
void ry_libra_coll_bytes(ry_coll c, double bytes, const int *group, int ndims, double *m);

/* ---- workload ------------------------------------------------------------------------- */

/* The workload folded into what the time depends on:
 *   T(bw) = compute + sum_i single[i]/bw_i + sum_j max_i multi[j][i]/bw_i
 * with GB in single and multi. Collectives on one dimension add up per
 * dimension; collectives on several dimensions whose per-dimension bytes are
 * proportional share one max term (max scales), so a workload of any length
 * keeps at most a few dozen terms. */
typedef struct ry_libra_terms {
    int ndims;
    double compute;                         /* seconds */
    double single[RY_LIBRA_MAX_DIMS];       /* GB */
    int nmulti;
    double (*multi)[RY_LIBRA_MAX_DIMS];     /* GB */
    long long collectives;                  /* collectives per iteration, counts included */
} ry_libra_terms;

void ry_libra_terms_build(const ry_libra_net *n, const ry_libra_workload *w, ry_libra_terms *t);
void ry_libra_terms_free(ry_libra_terms *t);
/* T(bw) from the terms; busy (may be NULL) gets each dimension's busy time,
 * sum over collectives of m_i/bw_i. HUGE_VAL when a dimension that carries
 * bytes has no bandwidth. */
double ry_libra_terms_time(const ry_libra_terms *t, const double *bw, double *busy);
/* Bytes (GB) each dimension carries per iteration. */
void ry_libra_terms_traffic(const ry_libra_terms *t, double *gb);

/* T(bw) straight from the layers (the reference the terms are tested against). */
double ry_libra_time(const ry_libra_net *n, const ry_libra_workload *w, const double *bw);

/* ---- constraints ---------------------------------------------------------------------- */

typedef enum { RY_CON_LE = 0, RY_CON_EQ = 1 } ry_con_op;

typedef enum {
    RY_CON_BUDGET = 0,      /* sum of every dimension == or <= B */
    RY_CON_FIXED,           /* one dimension == x */
    RY_CON_BOUND,           /* one dimension <= or >= x */
    RY_CON_ORDER,           /* a >= b */
    RY_CON_SUM,             /* a sum of some dimensions */
    RY_CON_COST,            /* the network cost */
    RY_CON_LINEAR           /* anything else */
} ry_con_kind;

const char *ry_con_kind_name(ry_con_kind k);

/* sum_i coef[i] * bw_i  (<= or ==)  rhs, scaled so max |coef| == 1: a
 * residual is in GB/s of the dimension with the largest coefficient. */
typedef struct ry_libra_con {
    double coef[RY_LIBRA_MAX_DIMS];
    ry_con_op op;
    double rhs;
    ry_con_kind kind;
    char text[160];         /* as written, for messages */
    char where[64];         /* the spec key: "libra.constraints[2]", "libra.budget" */
    ry_pos pos;
} ry_libra_con;

/* lhs - rhs for <= (> 0 is a violation); |lhs - rhs| for ==. */
double ry_libra_con_violation(const ry_libra_con *c, int ndims, const double *bw);
/* Kind of a normalised constraint. */
ry_con_kind ry_libra_con_classify(const ry_libra_con *c, int ndims, int has_cost);

/* ---- the problem and its solution ----------------------------------------------------- */

#define RY_LIBRA_TOL 1e-6   /* every constraint holds to this (normalised units) */

typedef struct ry_libra_problem {
    ry_libra_net net;
    ry_libra_workload wl;
    ry_libra_con *cons;
    int ncons, capcons;
    ry_libra_objective objective;
    double baseline[RY_LIBRA_MAX_DIMS];     /* the equal-bandwidth design */
    char baseline_from[256];                /* how it was made, for reports */
    int starts;                             /* starting points (default 12) */
    int plot_dims[2];                       /* -1: chosen from the result */
    ry_pos pos;                             /* the libra section (or the file) */
    int has_par;                            /* 1: the workload's layout is par */
    ry_parallelism par;                     /* derived from the LLM (as `model` chooses) */
} ry_libra_problem;

void ry_libra_problem_init(ry_libra_problem *p);
/* The problem of a loaded spec (s->libra, read by ry_spec_load): the
 * network, the workload (the spec's layers or file, or one block per layer
 * of the workload section's LLM), the constraints normalised, the baseline.
 * p is initialised here. Returns 0, or -1 after printing every error at its
 * spec position. */
int ry_libra_problem_build(const ry_spec *s, ry_libra_problem *p);
void ry_libra_problem_free(ry_libra_problem *p);
ry_libra_con *ry_libra_problem_add_con(ry_libra_problem *p);

/* One start: the smoothed problem solved from a starting point, its result
 * evaluated exactly. */
typedef struct ry_libra_start {
    char label[32];                 /* "equal", "traffic", "dim node", "random 3" */
    double bw[RY_LIBRA_MAX_DIMS];
    double time, cost, objective;   /* objective: time, or time * cost */
    double violation;               /* largest constraint violation */
    int status;                     /* NLopt's result code */
    int evals;
    int polished;                   /* projected back onto the constraints */
    int cluster;                    /* index of the distinct optimum it reached */
} ry_libra_start;

typedef struct ry_libra_design {
    double bw[RY_LIBRA_MAX_DIMS];
    double busy[RY_LIBRA_MAX_DIMS]; /* seconds each dimension is busy per iteration */
    double time, cost;
    double violation;
} ry_libra_design;

typedef struct ry_libra_result {
    ry_libra_design best, base;
    int base_feasible;              /* the equal split meets every constraint */
    char base_violates[256];        /* the first constraint it breaks, when not */
    double speedup;                 /* base.time / best.time */
    double ppc_gain;                /* (base.time * base.cost) / (best.time * best.cost) */
    int chosen;                     /* the start chosen; -1 when the equal split was kept */
    int solver_worse;               /* the solver's best was worse than the equal split */
    ry_libra_start *starts;
    int nstarts;
    int ndistinct;                  /* distinct local optima among the starts */
    double worst_gap;               /* worst start's objective over the best, relative */
    double polish_gain;             /* the exact solve's gain over the chosen start's */
    int polish_evals;
    double solver_best;             /* the solver's objective when the equal split was kept */
    int nterms;                     /* max terms after folding (epigraph variables) */
    double compute;                 /* compute seconds per iteration */
    long long collectives;
    double traffic[RY_LIBRA_MAX_DIMS];  /* GB per iteration per dimension */
} ry_libra_result;

/* Checks that the problem is feasible and bounded (errors name the
 * constraints at their spec positions) and solves it from p->starts
 * deterministic starting points. Returns 0, or -1 after printing errors. */
int ry_libra_solve(const ry_libra_problem *p, ry_libra_result *r);
void ry_libra_result_free(ry_libra_result *r);

#endif
