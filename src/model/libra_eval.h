/* What LIBRA's report and plot show of a solved problem, computed here so
 * the emitters (emit/model/emit_libra*.c) only format: the state of every
 * constraint at the optimum, the starts' gaps, the totals, and the curve of
 * time and cost against the split between two dimensions.
 *
 * Ownership: ry_libra_summary_compute and ry_libra_split_compute fill a
 * caller's struct whose arrays belong to it; the matching _free releases
 * them (safe on a zeroed struct). The problem and result are only read:
 * the structs copy what they need and keep no pointer into them. */
#ifndef RY_LIBRA_EVAL_H
#define RY_LIBRA_EVAL_H

#include "model/libra.h"
#include "util/diag.h"

/* A constraint at a design. */
typedef struct ry_libra_con_state {
    double slack;       /* >= 0: holds, in its normalised units (GB/s); 0 for == */
    int binding;        /* an equality, or slack <= RY_LIBRA_TOL */
    double cost_cap;    /* RY_CON_COST: the limit it sets, USD */
} ry_libra_con_state;

typedef struct ry_libra_summary {
    double traffic_total;           /* GB per iteration over every dimension */
    double best_bw_total, base_bw_total;    /* GB/s per NPU over every dimension */
    double best_objective;          /* time, or time x cost, at the optimum */
    double best_time_cost, base_time_cost;  /* time x cost, s USD */
    ry_libra_con_state *cons;       /* p->ncons, at the optimum */
    int ncons;
    double *start_gap;              /* per start: objective / best_objective - 1 */
    int nstarts;
} ry_libra_summary;

void ry_libra_summary_compute(const ry_libra_problem *p, const ry_libra_result *r,
                              ry_libra_summary *s);
void ry_libra_summary_free(ry_libra_summary *s);

/* The two dimensions the plot sweeps: libra.plot_dims, else both of a 2-D
 * network, else the two busiest at the optimum (in dimension order). */
void ry_libra_plot_dims(const ry_libra_problem *p, const ry_libra_result *r, int *a, int *b);

/* One point of the split curve. */
typedef struct ry_libra_point {
    double share;               /* bw_a / (bw_a + bw_b) */
    double bw_a, bw_b;          /* GB/s per NPU */
    double time, cost, time_x_cost;
} ry_libra_point;

typedef struct ry_libra_split {
    int a, b;                   /* the dimensions swept (ry_libra_plot_dims) */
    double pair;                /* bw_a + bw_b at the optimum, held along the curve */
    ry_libra_point optimum;     /* the optimum itself */
    ry_libra_point *curve;      /* npoints splits, shares 1/(n+1) .. n/(n+1), the
                                   other dimensions at the optimum */
    int npoints;
} ry_libra_split;

/* Fills s; -1 with err set when there is nothing to sweep (a network of
 * one dimension, or two dimensions without bandwidth at the optimum). */
int ry_libra_split_compute(const ry_libra_problem *p, const ry_libra_result *r, int npoints,
                           ry_libra_split *s, ry_err *err);
void ry_libra_split_free(ry_libra_split *s);

#endif
