/* LIBRA's optimisation with NLopt.
 *
 * Formulation. The iteration time is
 *     T(bw) = C + sum_i P_i/bw_i + sum_j max_i M_ji/bw_i
 * (ry_libra_terms): collectives on one dimension fold into P, those on
 * several into a few max terms. The max is not smooth, so every term (each
 * P_i too) gets an epigraph variable t_j with t_j * bw_i >= M_ji for every
 * dimension it uses; minimising C + sum_j t_j over (bw, t) under the linear
 * constraints is smooth, its objective linear, and for the time objective
 * the problem is convex ({bw t >= M, bw, t >= 0} is a convex set). The
 * product form rather than t_j >= M_ji/bw_i keeps the gradients bounded as a
 * bandwidth nears 0, where SLSQP's linearisation of 1/bw would otherwise
 * throw it. Perf-per-cost minimises T * cost, cost linear in bw. Variables
 * are scaled so the equal split has bw = 1 and every term is 1 there.
 *
 * Two stages, because SLSQP's work grows with the cube of the variables and
 * a workload of varied collectives has a hundred max terms or more:
 *   1. every start solves a smoothed problem in the d bandwidths alone, each
 *      max replaced by a p-norm (at most d^(1/p) above it), p raised from 4
 *      to 1024 with warm starts (SLSQP; COBYLA when SLSQP fails);
 *   2. the best start of each distinct optimum within 1% of the best is
 *      polished on the exact epigraph problem, with rows only for the
 *      dimensions within 10% of each term's max there, rows that become
 *      the max added and the solve repeated (an active set, at most 4 rounds).
 *
 * Before solving: the constraints must have a common point (else a smallest
 * set of them that cannot hold together is named), the time must not keep
 * falling without end (every dimension that carries bytes needs an upper
 * limit), and perf-per-cost must not improve by shrinking every bandwidth
 * towards 0 (bw = 0 must break a constraint).
 *
 * Starting points are deterministic: the equal split, bandwidth in
 * proportion to the bytes (and to their square root), one start leaning on
 * each dimension, then pseudo-random splits from a fixed seed. Each start is
 * projected onto the constraints (a small QP, also SLSQP) before the solve
 * and again after it when NLopt's answer is off by more than 1e-9 GB/s. Every
 * result is evaluated exactly; the best feasible one wins, ties (within
 * 1e-9) going to the cheaper design, then to the earlier start; the equal
 * split is kept when it is feasible and better. */
#include "model/libra.h"

#include <math.h>
#include <nlopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXD RY_LIBRA_MAX_DIMS
#define POLISH_TOL 1e-9         /* GB/s: project when NLopt is further off than this */
#define FEAS_TOL 1e-7           /* GB/s: a set of constraints is feasible within this */
#define TRAFFIC_FLOOR 1e-9      /* scaled lower bound of a dimension that carries bytes */

typedef struct solver {
    const ry_libra_problem *p;
    ry_libra_terms terms;
    int d, J, n;                /* dimensions, max terms, variables (d + J) */
    double s;                   /* bandwidth scale: x_i = bw_i / s */
    double Tn, Kn;              /* time and cost at x = 1, for scaling */
    double *tau;                /* seconds of max term j when its worst x_i = 1 */
    double (*r)[MAXD];          /* M_ji / max_i M_ji */
    int nrows;                  /* epigraph rows in use: (j, i) with r > 0 */
    int *row_j, *row_i;
    int nall;                   /* every row */
    int *all_j, *all_i;
    double pnorm;               /* the smoothed max: a p-norm */
    double u[MAXD];             /* USD at x_i = 1 */
    int traffic[MAXD];
    double lb[MAXD];            /* scaled lower bounds */
    /* linear constraints in x: a.x <= b or a.x == b */
    int nle, neq;
    double (*ale)[MAXD], *ble;
    double (*aeq)[MAXD], *beq;
    const int *active;          /* constraint subset for feasibility tests (NULL: all) */
    double target[MAXD];        /* projection target */
    int nslack;                 /* feasibility: slack variables */
    int *slack_con, *slack_sign;
    int evals;
} solver;

/* ---- objective and constraints for NLopt ------------------------------------------------ */

/* C + sum_j tau_j t_j, and its gradient (0 for the bandwidths). */
static double time_of(const solver *S, const double *x, double *dT)
{
    double T = S->terms.compute;
    if (dT)
        for (int i = 0; i < S->d; i++)
            dT[i] = 0;
    for (int j = 0; j < S->J; j++) {
        T += S->tau[j] * x[S->d + j];
        if (dT)
            dT[S->d + j] = S->tau[j];
    }
    return T;
}

/* The objective from a time T (and its gradient in grad): T, or T times
 * the network cost, both normalised. */
static double finish_objective(const solver *S, unsigned n, const double *x, double T,
                               double *grad)
{
    if (S->p->objective == RY_LIBRA_TIME) {
        if (grad)
            for (unsigned k = 0; k < n; k++)
                grad[k] /= S->Tn;
        return T / S->Tn;
    }
    double K = 0;
    for (int i = 0; i < S->d; i++)
        K += S->u[i] * x[i];
    if (grad) {
        for (unsigned k = 0; k < n; k++)
            grad[k] = grad[k] / S->Tn * (K / S->Kn);
        for (int i = 0; i < S->d; i++)
            grad[i] += T / S->Tn * S->u[i] / S->Kn;
    }
    return T / S->Tn * (K / S->Kn);
}

static double objective(unsigned n, const double *x, double *grad, void *data)
{
    solver *S = data;
    S->evals++;
    return finish_objective(S, n, x, time_of(S, x, grad), grad);
}

/* The smoothed time: each max term's max replaced by the p-norm of its
 * r_ji/x_i (at most d^(1/p) above the max), over the bandwidths alone. */
static double smooth_time(const solver *S, const double *x, double *grad)
{
    double T = S->terms.compute, p = S->pnorm;
    if (grad)
        for (int i = 0; i < S->d; i++)
            grad[i] = 0;
    for (int j = 0; j < S->J; j++) {
        double a[MAXD], M = 0, sum = 0;
        for (int i = 0; i < S->d; i++) {
            a[i] = S->r[j][i] > 0 ? S->r[j][i] / x[i] : 0;
            if (a[i] > M)
                M = a[i];
        }
        for (int i = 0; i < S->d; i++)
            if (a[i] > 0)
                sum += pow(a[i] / M, p);
        double g = M * pow(sum, 1 / p);
        T += S->tau[j] * g;
        if (grad)
            for (int i = 0; i < S->d; i++)
                if (a[i] > 0)
                    grad[i] -= S->tau[j] * pow(a[i] / g, p - 1) * a[i] / x[i];
    }
    return T;
}

static double smooth_objective(unsigned n, const double *x, double *grad, void *data)
{
    solver *S = data;
    S->evals++;
    /* over the bandwidths alone: n == d */
    return finish_objective(S, n, x, smooth_time(S, x, grad), grad);
}

/* r_ji - x_i t_j <= 0, i.e. t_j >= r_ji / x_i: the product form keeps the
 * gradients bounded as x_i approaches 0, and {x t >= r, x, t >= 0} is still
 * a convex set. */
static void epigraph(unsigned m, double *res, unsigned n, const double *x, double *grad, void *data)
{
    solver *S = data;
    if (grad)
        memset(grad, 0, (size_t)m * n * sizeof *grad);
    for (unsigned k = 0; k < m; k++) {
        int j = S->row_j[k], i = S->row_i[k];
        double xi = x[i], tj = x[S->d + j];
        res[k] = S->r[j][i] - xi * tj;
        if (grad) {
            grad[k * n + i] = -tj;
            grad[k * n + S->d + j] = -xi;
        }
    }
}

/* Rows a.x - b of linear constraints, and their gradients (a), in NLopt's
 * layout: the one body of the <= and the == constraints. */
static void linear_rows(unsigned m, double *res, unsigned n, const double *x, double *grad,
                        const double (*a)[MAXD], const double *b, int d)
{
    if (grad)
        memset(grad, 0, (size_t)m * n * sizeof *grad);
    for (unsigned k = 0; k < m; k++) {
        double v = -b[k];
        for (int i = 0; i < d; i++) {
            v += a[k][i] * x[i];
            if (grad)
                grad[k * n + i] = a[k][i];
        }
        res[k] = v;
    }
}

static void linear_le(unsigned m, double *res, unsigned n, const double *x, double *grad,
                      void *data)
{
    solver *S = data;
    linear_rows(m, res, n, x, grad, (const double (*)[MAXD])S->ale, S->ble, S->d);
}

static void linear_eq(unsigned m, double *res, unsigned n, const double *x, double *grad,
                      void *data)
{
    solver *S = data;
    linear_rows(m, res, n, x, grad, (const double (*)[MAXD])S->aeq, S->beq, S->d);
}

/* ---- setting up --------------------------------------------------------------------------- */

static void solver_init(solver *S, const ry_libra_problem *p)
{
    memset(S, 0, sizeof *S);
    S->p = p;
    S->d = p->net.ndims;
    ry_libra_terms_build(&p->net, &p->wl, &S->terms);
    /* Every term gets an epigraph variable, the one-dimension sums too:
     * then no 1/bw is left in the objective. */
    int nsingle = 0;
    for (int i = 0; i < S->d; i++)
        nsingle += S->terms.single[i] > 0;
    S->J = S->terms.nmulti + nsingle;
    S->n = S->d + S->J;

    double sum = 0;
    for (int i = 0; i < S->d; i++)
        sum += p->baseline[i];
    S->s = sum > 0 ? sum / S->d : 1;

    double gb[MAXD];
    ry_libra_terms_traffic(&S->terms, gb);
    for (int i = 0; i < S->d; i++) {
        S->traffic[i] = gb[i] > 0;
        S->u[i] = (double)p->net.npus * ry_libra_unit_cost(&p->net.dim[i]) * S->s;
        S->lb[i] = S->traffic[i] ? TRAFFIC_FLOOR : 0;
    }
    S->tau = ry_xcalloc((size_t)S->J + 1, sizeof *S->tau);
    S->r = ry_xcalloc((size_t)S->J + 1, sizeof *S->r);
    S->row_j = ry_xcalloc((size_t)S->J * S->d + 1, sizeof *S->row_j);
    S->row_i = ry_xcalloc((size_t)S->J * S->d + 1, sizeof *S->row_i);
    S->all_j = ry_xcalloc((size_t)S->J * S->d + 1, sizeof *S->all_j);
    S->all_i = ry_xcalloc((size_t)S->J * S->d + 1, sizeof *S->all_i);
    int j = 0;
    for (int m = 0; m < S->terms.nmulti; m++, j++)
        memcpy(S->r[j], S->terms.multi[m], sizeof S->r[j]);
    for (int i = 0; i < S->d; i++)
        if (S->terms.single[i] > 0)
            S->r[j++][i] = S->terms.single[i];
    for (j = 0; j < S->J; j++) {
        double mx = 0;
        for (int i = 0; i < S->d; i++)
            if (S->r[j][i] > mx)
                mx = S->r[j][i];
        S->tau[j] = mx / S->s;
        for (int i = 0; i < S->d; i++) {
            S->r[j][i] /= mx;
            if (S->r[j][i] > 0) {
                S->all_j[S->nall] = S->row_j[S->nall] = j;
                S->all_i[S->nall] = S->row_i[S->nall] = i;
                S->nall++;
            }
        }
    }
    S->nrows = S->nall;
    double bw[MAXD] = { 0 };
    for (int i = 0; i < S->d; i++)
        bw[i] = S->s;
    S->Tn = ry_libra_terms_time(&S->terms, bw, NULL);
    S->Kn = ry_libra_cost(&p->net, bw);
    if (!(S->Tn > 0))
        S->Tn = 1;

    S->ale = ry_xcalloc((size_t)p->ncons + 1, sizeof *S->ale);
    S->ble = ry_xcalloc((size_t)p->ncons + 1, sizeof *S->ble);
    S->aeq = ry_xcalloc((size_t)p->ncons + 1, sizeof *S->aeq);
    S->beq = ry_xcalloc((size_t)p->ncons + 1, sizeof *S->beq);
    S->slack_con = ry_xcalloc((size_t)2 * p->ncons + 1, sizeof *S->slack_con);
    S->slack_sign = ry_xcalloc((size_t)2 * p->ncons + 1, sizeof *S->slack_sign);
}

static void solver_free(solver *S)
{
    ry_libra_terms_free(&S->terms);
    free(S->tau);
    free(S->r);
    free(S->row_j);
    free(S->row_i);
    free(S->all_j);
    free(S->all_i);
    free(S->ale);
    free(S->ble);
    free(S->aeq);
    free(S->beq);
    free(S->slack_con);
    free(S->slack_sign);
}

/* Residual of a against the orthonormal rows q[0..nq): what is left of it
 * outside their span. */
static double outside(const double (*q)[MAXD], int nq, const double *a, double *res, int d)
{
    double norm = 0;
    for (int i = 0; i < d; i++)
        res[i] = a[i];
    for (int k = 0; k < nq; k++) {
        double dot = 0;
        for (int i = 0; i < d; i++)
            dot += q[k][i] * res[i];
        for (int i = 0; i < d; i++)
            res[i] -= dot * q[k][i];
    }
    for (int i = 0; i < d; i++)
        norm += res[i] * res[i];
    return sqrt(norm);
}

/* Loads the constraints in mask (NULL: all) into the scaled arrays. With
 * reduce, equalities whose normals follow from the others are left out, and
 * so are inequalities on what the equalities fix and repeated inequalities:
 * SLSQP stalls on dependent equality constraints ("a == 80" twice, or
 * sum == B with a + b and c + d given). Whether the ones left out hold is
 * checked on the result against every constraint (max_violation), so an
 * inconsistent one is still found. */
static void load_constraints(solver *S, const int *mask, int reduce)
{
    const ry_libra_problem *p = S->p;
    int d = S->d, nq = 0;
    double q[MAXD][MAXD], res[MAXD];
    S->nle = S->neq = 0;
    for (int k = 0; k < p->ncons; k++) {
        if (mask && !mask[k])
            continue;
        const ry_libra_con *c = &p->cons[k];
        if (c->op != RY_CON_EQ)
            continue;
        if (reduce) {
            double r = outside((const double (*)[MAXD])q, nq, c->coef, res, d);
            if (r <= 1e-9 || nq == d)
                continue;
            for (int i = 0; i < d; i++)
                q[nq][i] = res[i] / r;
            nq++;
        }
        for (int i = 0; i < d; i++)
            S->aeq[S->neq][i] = c->coef[i];
        S->beq[S->neq++] = c->rhs / S->s;
    }
    for (int k = 0; k < p->ncons; k++) {
        if (mask && !mask[k])
            continue;
        const ry_libra_con *c = &p->cons[k];
        if (c->op == RY_CON_EQ)
            continue;
        if (reduce) {
            if (outside((const double (*)[MAXD])q, nq, c->coef, res, d) <= 1e-9)
                continue;
            int dup = 0;
            for (int e = 0; e < S->nle && !dup; e++) {
                int same = fabs(S->ble[e] - c->rhs / S->s) <= 1e-12 * (1 + fabs(S->ble[e]));
                for (int i = 0; i < d && same; i++)
                    same = fabs(S->ale[e][i] - c->coef[i]) <= 1e-12;
                dup = same;
            }
            if (dup)
                continue;
        }
        for (int i = 0; i < d; i++)
            S->ale[S->nle][i] = c->coef[i];
        S->ble[S->nle++] = c->rhs / S->s;
    }
}

static double max_violation(const ry_libra_problem *p, const int *mask, const double *bw)
{
    double worst = 0;
    for (int k = 0; k < p->ncons; k++) {
        if (mask && !mask[k])
            continue;
        double v = ry_libra_con_violation(&p->cons[k], p->net.ndims, bw);
        if (v > worst)
            worst = v;
    }
    for (int i = 0; i < p->net.ndims; i++)
        if (-bw[i] > worst)
            worst = -bw[i];
    return worst;
}

/* NLopt returns the best point whose constraints hold within these
 * tolerances (scaled units, bandwidths near 1): with 0 it would hand back
 * the start whenever the optimum is off by rounding. The result is checked
 * and projected afterwards. */
#define LIN_TOL 1e-11
#define EPI_TOL 1e-10

static void add_linear(nlopt_opt o, solver *S)
{
    double tol[1024];
    for (int k = 0; k < 1024; k++)
        tol[k] = LIN_TOL;
    if (S->nle)
        nlopt_add_inequality_mconstraint(o, (unsigned)S->nle, linear_le, S,
                                         S->nle <= 1024 ? tol : NULL);
    if (S->neq)
        nlopt_add_equality_mconstraint(o, (unsigned)S->neq, linear_eq, S,
                                       S->neq <= 1024 ? tol : NULL);
}

/* ---- projection onto the constraints --------------------------------------------------- */

static double proj_objective(unsigned n, const double *x, double *grad, void *data)
{
    solver *S = data;
    double f = 0;
    for (unsigned i = 0; i < n; i++) {
        double e = x[i] - S->target[i];
        f += e * e;
        if (grad)
            grad[i] = 2 * e;
    }
    return f;
}

/* The point of the (scaled) constraints nearest to y, in x; the constraints
 * loaded in S. Returns NLopt's code. */
static int project(solver *S, const double *y, double *x)
{
    nlopt_opt o = nlopt_create(NLOPT_LD_SLSQP, (unsigned)S->d);
    nlopt_set_lower_bounds(o, S->lb);
    nlopt_set_min_objective(o, proj_objective, S);
    add_linear(o, S);
    nlopt_set_xtol_abs1(o, 1e-15);
    nlopt_set_ftol_abs(o, 1e-30);
    nlopt_set_maxeval(o, 500);
    for (int i = 0; i < S->d; i++) {
        S->target[i] = y[i];
        x[i] = y[i] < S->lb[i] ? S->lb[i] : y[i];
    }
    double f;
    int rc = nlopt_optimize(o, x, &f);
    nlopt_destroy(o);
    return rc;
}

/* ---- feasibility ---------------------------------------------------------------------------- */

/* Elastic form: minimise the sum of squared slacks s_k >= 0 with
 * a.x - b <= s_k (and -(a.x - b) <= s for equalities). */
static double slack_objective(unsigned n, const double *x, double *grad, void *data)
{
    solver *S = data;
    double f = 0;
    if (grad)
        memset(grad, 0, n * sizeof *grad);
    for (int k = 0; k < S->nslack; k++) {
        double v = x[S->d + k];
        f += v * v;
        if (grad)
            grad[S->d + k] = 2 * v;
    }
    return f;
}

static void slack_cons(unsigned m, double *res, unsigned n, const double *x, double *grad,
                       void *data)
{
    solver *S = data;
    if (grad)
        memset(grad, 0, (size_t)m * n * sizeof *grad);
    for (unsigned k = 0; k < m; k++) {
        int c = S->slack_con[k], sg = S->slack_sign[k];
        const double *a = c < S->nle ? S->ale[c] : S->aeq[c - S->nle];
        double b = c < S->nle ? S->ble[c] : S->beq[c - S->nle];
        double v = -b;
        for (int i = 0; i < S->d; i++) {
            v += a[i] * x[i];
            if (grad)
                grad[k * n + i] = sg * a[i];
        }
        res[k] = sg * v - x[S->d + k];
        if (grad)
            grad[k * n + S->d + k] = -1;
    }
}

/* Whether the constraints in mask (with bw >= 0) have a common point. */
static int feasible(solver *S, const int *mask, double *bw_out)
{
    const ry_libra_problem *p = S->p;
    double lb_save[MAXD];
    memcpy(lb_save, S->lb, sizeof lb_save);
    for (int i = 0; i < S->d; i++)
        S->lb[i] = 0;
    load_constraints(S, mask, 1);

    double y[MAXD] = { 0 }, x[MAXD] = { 0 }, bw[MAXD] = { 0 };
    for (int i = 0; i < S->d; i++)
        y[i] = p->baseline[i] / S->s;
    project(S, y, x);
    for (int i = 0; i < S->d; i++)
        bw[i] = x[i] * S->s;
    int ok = max_violation(p, mask, bw) <= FEAS_TOL;

    if (!ok) {
        S->nslack = 0;
        for (int c = 0; c < S->nle; c++) {
            S->slack_con[S->nslack] = c;
            S->slack_sign[S->nslack++] = 1;
        }
        for (int c = 0; c < S->neq; c++)
            for (int sg = 1; sg >= -1; sg -= 2) {
                S->slack_con[S->nslack] = S->nle + c;
                S->slack_sign[S->nslack++] = sg;
            }
        int n = S->d + S->nslack;
        double *z = ry_xcalloc((size_t)n, sizeof *z), *lb = ry_xcalloc((size_t)n, sizeof *lb);
        for (int i = 0; i < S->d; i++)
            z[i] = x[i];
        for (int k = 0; k < S->nslack; k++) {
            /* each slack starts at its constraint's violation */
            int c = S->slack_con[k], sg = S->slack_sign[k];
            const double *a = c < S->nle ? S->ale[c] : S->aeq[c - S->nle];
            double v = c < S->nle ? -S->ble[c] : -S->beq[c - S->nle];
            for (int i = 0; i < S->d; i++)
                v += a[i] * z[i];
            z[S->d + k] = sg * v > 0 ? sg * v : 0;
        }
        nlopt_opt o = nlopt_create(NLOPT_LD_SLSQP, (unsigned)n);
        nlopt_set_lower_bounds(o, lb);
        nlopt_set_min_objective(o, slack_objective, S);
        nlopt_add_inequality_mconstraint(o, (unsigned)S->nslack, slack_cons, S, NULL);
        nlopt_set_ftol_abs(o, 1e-30);
        nlopt_set_xtol_abs1(o, 1e-15);
        nlopt_set_maxeval(o, 2000);
        double f;
        nlopt_optimize(o, z, &f);
        nlopt_destroy(o);
        for (int i = 0; i < S->d; i++)
            bw[i] = z[i] * S->s;
        ok = max_violation(p, mask, bw) <= FEAS_TOL;
        free(z);
        free(lb);
    }
    memcpy(S->lb, lb_save, sizeof lb_save);
    if (bw_out)
        memcpy(bw_out, bw, sizeof bw);
    return ok;
}

/* "file:line:col: note: where: text", after an error (not counted). */
static void note_at(ry_pos pos, const char *where, const char *text)
{
    fflush(stdout);
    if (pos.file && pos.line > 0)
        fprintf(stderr, "%s:%d:%d: note: ", pos.file, pos.line, pos.col > 0 ? pos.col : 1);
    else
        fputs("railyard: note: ", stderr);
    fprintf(stderr, "%s: %s\n", where, text);
}

/* Deletion filter: drop each constraint in turn when the rest stay
 * infeasible; what remains is a smallest set that cannot hold together.
 * Then the same on what is left without that set, so disjoint conflicts
 * are all named in one run (up to five). */
static void report_infeasible(solver *S)
{
    const ry_libra_problem *p = S->p;
    int *alive = ry_xcalloc((size_t)p->ncons + 1, sizeof *alive);
    int *mask = ry_xcalloc((size_t)p->ncons + 1, sizeof *mask);
    for (int k = 0; k < p->ncons; k++)
        alive[k] = 1;
    int reported = 0;
    for (int round = 0; round < 5 && !feasible(S, alive, NULL); round++) {
        memcpy(mask, alive, (size_t)p->ncons * sizeof *mask);
        for (int k = 0; k < p->ncons; k++) {
            if (!mask[k])
                continue;
            mask[k] = 0;
            if (feasible(S, mask, NULL))
                mask[k] = 1;
        }
        int first = -1, count = 0;
        for (int k = 0; k < p->ncons; k++)
            if (mask[k]) {
                if (first < 0)
                    first = k;
                count++;
            }
        if (count == 0)
            break;
        reported++;
        if (count == 1)
            ry_error_at(p->cons[first].pos, "infeasible constraint: %s '%s' cannot hold with "
                        "every bandwidth >= 0", p->cons[first].where, p->cons[first].text);
        else
            ry_error_at(p->cons[first].pos, "infeasible constraints: these %d cannot all hold "
                        "(bandwidths >= 0):", count);
        for (int k = 0; k < p->ncons && count > 1; k++)
            if (mask[k])
                note_at(p->cons[k].pos, p->cons[k].where, p->cons[k].text);
        for (int k = 0; k < p->ncons; k++)
            if (mask[k])
                alive[k] = 0;
    }
    if (!reported)
        ry_error_at(p->pos, "the constraints cannot all hold");
    free(mask);
    free(alive);
}

/* Implied bounds on each bandwidth from the constraints (interval
 * propagation); lb starts at 0, ub at +inf. */
static void implied_bounds(const ry_libra_problem *p, double *lb, double *ub)
{
    int d = p->net.ndims;
    for (int i = 0; i < d; i++) {
        lb[i] = 0;
        ub[i] = HUGE_VAL;
    }
    for (int round = 0; round < 4 * d + 4; round++) {
        int changed = 0;
        for (int k = 0; k < p->ncons; k++) {
            const ry_libra_con *c = &p->cons[k];
            for (int sg = 1; sg >= (c->op == RY_CON_EQ ? -1 : 1); sg -= 2) {
                /* sum sg*c_i x_i <= sg*rhs */
                for (int i = 0; i < d; i++) {
                    double ci = sg * c->coef[i];
                    if (ci == 0)
                        continue;
                    double rest = 0;
                    for (int k2 = 0; k2 < d && isfinite(rest); k2++) {
                        double ck = sg * c->coef[k2];
                        if (k2 == i || ck == 0)
                            continue;
                        rest += ck > 0 ? ck * lb[k2] : (isfinite(ub[k2]) ? ck * ub[k2] : -HUGE_VAL);
                    }
                    if (!isfinite(rest))
                        continue;
                    double bound = (sg * c->rhs - rest) / ci;
                    if (ci > 0 && bound < ub[i] - 1e-12 * (1 + fabs(bound))) {
                        ub[i] = bound;
                        changed = 1;
                    } else if (ci < 0 && bound > lb[i] + 1e-12 * (1 + fabs(bound))) {
                        lb[i] = bound;
                        changed = 1;
                    }
                }
            }
        }
        if (!changed)
            break;
    }
}

/* Errors for problems without an optimum. Returns -1 after printing. */
static int check_bounded(solver *S)
{
    const ry_libra_problem *p = S->p;
    double lb[MAXD], ub[MAXD];
    implied_bounds(p, lb, ub);
    int bad = 0;
    for (int i = 0; i < S->d; i++) {
        const ry_libra_dim *dm = &p->net.dim[i];
        if (!S->traffic[i])
            continue;
        if (ub[i] <= 1e-12) {
            ry_error_at(p->pos, "dimension '%s' carries collective traffic but the constraints "
                        "force its bandwidth to 0: the iteration would never finish", dm->name);
            bad = 1;
            continue;
        }
        int needs_ub = p->objective == RY_LIBRA_TIME || ry_libra_unit_cost(dm) == 0;
        if (needs_ub && !isfinite(ub[i])) {
            ry_error_at(p->pos, "dimension '%s' has no upper limit: %s as its bandwidth grows; "
                        "add a budget (libra.budget), a cost budget (libra.cost_budget) or a "
                        "bound like '%s <= 400'", dm->name,
                        p->objective == RY_LIBRA_TIME ? "the iteration time keeps falling"
                                                      : "it costs nothing and the time falls",
                        dm->name);
            bad = 1;
        }
    }
    if (p->objective == RY_LIBRA_PERF_PER_COST) {
        double zero[MAXD] = { 0 };
        if (!(S->Kn > 0)) {
            ry_error_at(p->pos, "perf-per-cost needs prices: every dimension of the network "
                        "costs 0 per GB/s");
            bad = 1;
        } else if (max_violation(p, NULL, zero) <= FEAS_TOL) {
            ry_error_at(p->pos, "perf-per-cost has no optimum here: the constraints allow every "
                        "bandwidth to shrink towards 0, and time x cost keeps improving as they "
                        "do; make the budget an equality (libra.budget: N) or add lower bounds");
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* ---- a point well inside ------------------------------------------------------------------- */

static double center_objective(unsigned n, const double *x, double *grad, void *data)
{
    (void)data;
    if (grad) {
        memset(grad, 0, n * sizeof *grad);
        grad[n - 1] = -1;
    }
    return -x[n - 1];
}

/* s - x_i <= 0 for every dimension that carries traffic */
static void center_cons(unsigned m, double *res, unsigned n, const double *x, double *grad,
                        void *data)
{
    solver *S = data;
    if (grad)
        memset(grad, 0, (size_t)m * n * sizeof *grad);
    unsigned k = 0;
    for (int i = 0; i < S->d && k < m; i++) {
        if (!S->traffic[i])
            continue;
        res[k] = x[n - 1] - x[i];
        if (grad) {
            grad[k * n + n - 1] = 1;
            grad[k * n + i] = -1;
        }
        k++;
    }
}

/* The feasible point whose smallest bandwidth among the dimensions that
 * carry traffic is largest (capped at the mean of the equal split): starts
 * are blended towards it, so none sits where 1/bw is enormous. Returns that
 * smallest bandwidth, scaled; xc gets the point. */
static double center(solver *S, double total, double *xc)
{
    int d = S->d, m = 0;
    for (int i = 0; i < d; i++)
        m += S->traffic[i];
    double y[MAXD] = { 0 }, z[MAXD + 1] = { 0 }, lb[MAXD + 1] = { 0 }, ub[MAXD + 1];
    for (int i = 0; i < d; i++) {
        y[i] = S->p->baseline[i] / S->s;
        ub[i] = HUGE_VAL;
    }
    project(S, y, z);
    memcpy(xc, z, (size_t)d * sizeof *xc);
    if (m == 0)
        return total / d;
    ub[d] = total / d;
    nlopt_opt o = nlopt_create(NLOPT_LD_SLSQP, (unsigned)d + 1);
    nlopt_set_lower_bounds(o, lb);
    nlopt_set_upper_bounds(o, ub);
    nlopt_set_min_objective(o, center_objective, S);
    nlopt_add_inequality_mconstraint(o, (unsigned)m, center_cons, S, NULL);
    add_linear(o, S);
    nlopt_set_ftol_abs(o, 1e-14);
    nlopt_set_xtol_abs1(o, 1e-14);
    nlopt_set_maxeval(o, 500);
    double f;
    nlopt_optimize(o, z, &f);
    nlopt_destroy(o);
    double bw[MAXD] = { 0 };
    for (int i = 0; i < d; i++)
        bw[i] = z[i] * S->s;
    if (max_violation(S->p, NULL, bw) > POLISH_TOL)
        return 0;       /* keep the projected equal split */
    memcpy(xc, z, (size_t)d * sizeof *xc);
    double low = HUGE_VAL;
    for (int i = 0; i < d; i++)
        if (S->traffic[i])
            low = fmin(low, z[i]);
    return low;
}

/* ---- the local solves ----------------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *st)
{
    uint64_t x = *st;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *st = x;
    return x;
}

/* Starting split number k (scaled, summing to total). */
static void start_point(const solver *S, int k, double total, double *x, char *label,
                        size_t cap, uint64_t *rng)
{
    int d = S->d;
    double w[MAXD], sum = 0, gb[MAXD];
    ry_libra_terms_traffic(&S->terms, gb);
    double gsum = 0;
    for (int i = 0; i < d; i++)
        gsum += gb[i];
    int fixed = 3 + d;
    if (k == 0) {
        snprintf(label, cap, "equal");
        for (int i = 0; i < d; i++)
            x[i] = S->p->baseline[i] / S->s;
        return;
    }
    if ((k == 1 || k == 2) && gsum > 0) {
        snprintf(label, cap, k == 1 ? "traffic" : "sqrt-traffic");
        double root = 0;
        for (int i = 0; i < d; i++)
            root += sqrt(gb[i]);
        for (int i = 0; i < d; i++)
            w[i] = (k == 1 ? gb[i] / gsum : sqrt(gb[i]) / root) + 0.01 / d;
    } else if (k >= 3 && k < fixed) {
        int lean = k - 3;
        snprintf(label, cap, "lean %s", S->p->net.dim[lean].name);
        for (int i = 0; i < d; i++)
            w[i] = (i == lean ? 0.5 : 0) + 0.5 / d;
    } else {
        snprintf(label, cap, "random %d", k < fixed ? k : k - fixed + 1);
        for (int i = 0; i < d; i++)
            w[i] = 0.05 + (double)(rng_next(rng) >> 11) / 9007199254740992.0;
    }
    for (int i = 0; i < d; i++)
        sum += w[i];
    for (int i = 0; i < d; i++)
        x[i] = w[i] / sum * total;
}

static double objective_value(const ry_libra_problem *p, double T, double K)
{
    return p->objective == RY_LIBRA_TIME ? T : T * K;
}

static void evaluate(const solver *S, const double *bw, ry_libra_design *dz)
{
    memcpy(dz->bw, bw, sizeof dz->bw);
    dz->time = ry_libra_terms_time(&S->terms, bw, dz->busy);
    dz->cost = ry_libra_cost(&S->p->net, bw);
    dz->violation = max_violation(S->p, NULL, bw);
}

static int usable_start(const ry_libra_start *st)
{
    return isfinite(st->objective) && st->violation <= RY_LIBRA_TOL;
}

/* The scaled point x (d bandwidths) as a start's result: projected onto
 * the constraints when NLopt left it off by more than POLISH_TOL, then
 * evaluated exactly. */
static void finish(solver *S, double *x, ry_libra_start *st)
{
    double bw[MAXD] = { 0 };
    for (int i = 0; i < S->d; i++)
        bw[i] = x[i] * S->s;
    st->polished = 0;
    if (max_violation(S->p, NULL, bw) > POLISH_TOL) {
        double y[MAXD] = { 0 };
        memcpy(y, x, (size_t)S->d * sizeof *x);
        project(S, y, x);
        for (int i = 0; i < S->d; i++)
            bw[i] = x[i] * S->s;
        st->polished = 1;
    }
    ry_libra_design dz;
    evaluate(S, bw, &dz);
    memcpy(st->bw, bw, sizeof st->bw);
    st->time = dz.time;
    st->cost = dz.cost;
    st->violation = dz.violation;
    st->objective = objective_value(S->p, dz.time, dz.cost);
}

/* Stage 1 of a start: the smoothed problem in the d bandwidths alone, the
 * p-norm sharpened step by step towards the max. */
static void smooth_solve(solver *S, nlopt_algorithm alg, const double *x0, ry_libra_start *st)
{
    static const double pnorms[] = { 4, 16, 64, 256, 1024 };
    double x[MAXD] = { 0 };
    for (int i = 0; i < S->d; i++)
        x[i] = x0[i] < S->lb[i] ? S->lb[i] : x0[i];
    S->evals = 0;
    st->status = NLOPT_SUCCESS;
    for (size_t k = 0; k < sizeof pnorms / sizeof pnorms[0]; k++) {
        S->pnorm = pnorms[k];
        nlopt_opt o = nlopt_create(alg, (unsigned)S->d);
        nlopt_set_lower_bounds(o, S->lb);
        nlopt_set_min_objective(o, smooth_objective, S);
        add_linear(o, S);
        nlopt_set_ftol_rel(o, 1e-13);
        nlopt_set_xtol_rel(o, 1e-11);
        nlopt_set_maxeval(o, alg == NLOPT_LD_SLSQP ? 500 : 4000);
        double f, keep[MAXD];
        memcpy(keep, x, sizeof keep);
        int rc = nlopt_optimize(o, x, &f);
        nlopt_destroy(o);
        int finite = 1;
        for (int i = 0; i < S->d; i++)
            finite &= isfinite(x[i]) != 0;
        if (!finite) {
            memcpy(x, keep, sizeof keep);
            rc = NLOPT_FAILURE;
        }
        if (rc < 0 && rc != NLOPT_ROUNDOFF_LIMITED)
            st->status = rc;
        else if (st->status >= 0 || st->status == NLOPT_ROUNDOFF_LIMITED)
            st->status = rc;
    }
    st->evals = S->evals;
    finish(S, x, st);
}

/* The exact epigraph problem over the rows in S->row_*, from the scaled
 * bandwidths x (t starts at each term's max); x gets the result. */
static int epigraph_solve(solver *S, double *x)
{
    int n = S->n;
    double *z = ry_xcalloc((size_t)n, sizeof *z), *lb = ry_xcalloc((size_t)n, sizeof *lb);
    for (int i = 0; i < S->d; i++) {
        z[i] = x[i] < S->lb[i] ? S->lb[i] : x[i];
        lb[i] = S->lb[i];
    }
    for (int j = 0; j < S->J; j++) {
        double worst = 0;
        for (int i = 0; i < S->d; i++)
            if (S->r[j][i] > 0 && S->r[j][i] / z[i] > worst)
                worst = S->r[j][i] / z[i];
        z[S->d + j] = worst;
    }
    nlopt_opt o = nlopt_create(NLOPT_LD_SLSQP, (unsigned)n);
    nlopt_set_lower_bounds(o, lb);
    nlopt_set_min_objective(o, objective, S);
    if (S->nrows) {
        double *tol = ry_xmalloc((size_t)S->nrows * sizeof *tol);
        for (int k = 0; k < S->nrows; k++)
            tol[k] = EPI_TOL;
        nlopt_add_inequality_mconstraint(o, (unsigned)S->nrows, epigraph, S, tol);
        free(tol);
    }
    add_linear(o, S);
    nlopt_set_ftol_rel(o, 1e-15);
    nlopt_set_xtol_rel(o, 1e-13);
    nlopt_set_maxeval(o, 1000);
    double f;
    int rc = nlopt_optimize(o, z, &f);
    nlopt_destroy(o);
    int finite = 1;
    for (int i = 0; i < S->d; i++)
        finite &= isfinite(z[i]) != 0;
    if (finite)
        memcpy(x, z, (size_t)S->d * sizeof *x);
    free(z);
    free(lb);
    return finite ? rc : NLOPT_FAILURE;
}

/* Stage 2: the exact problem from a smoothed optimum, with epigraph rows only
 * for the dimensions near each term's max there (the others cannot become
 * its max nearby); rows that do become the max are added and the solve
 * repeated. Fills out (label kept) when the result is feasible and better. */
static int polish(solver *S, const ry_libra_start *from, ry_libra_start *out)
{
    double x[MAXD] = { 0 };
    for (int i = 0; i < S->d; i++)
        x[i] = from->bw[i] / S->s;
    char *use = ry_xcalloc((size_t)S->nall + 1, 1);
    int improved = 0, evals = 0;
    S->evals = 0;
    for (int round = 0; round < 4; round++) {
        int added = 0;
        for (int k = 0; k < S->nall; k++) {
            int j = S->all_j[k], i = S->all_i[k];
            double worst = 0;
            for (int q = 0; q < S->d; q++)
                if (S->r[j][q] > 0)
                    worst = fmax(worst, S->r[j][q] / x[q]);
            if (!use[k] && S->r[j][i] / x[i] >= 0.9 * worst) {
                use[k] = 1;
                added++;
            }
        }
        if (round > 0 && !added)
            break;
        S->nrows = 0;
        for (int k = 0; k < S->nall; k++)
            if (use[k]) {
                S->row_j[S->nrows] = S->all_j[k];
                S->row_i[S->nrows] = S->all_i[k];
                S->nrows++;
            }
        double y[MAXD];
        memcpy(y, x, sizeof y);
        int rc = epigraph_solve(S, y);
        ry_libra_start st = *from;
        finish(S, y, &st);
        if (rc >= 0 || rc == NLOPT_ROUNDOFF_LIMITED) {
            if (usable_start(&st) && st.objective < (improved ? out->objective
                                                              : from->objective)) {
                *out = st;
                snprintf(out->label, sizeof out->label, "%s", from->label);
                improved = 1;
            }
            memcpy(x, y, sizeof x);
        }
    }
    evals = S->evals;
    S->nrows = S->nall;
    memcpy(S->row_j, S->all_j, (size_t)S->nall * sizeof *S->row_j);
    memcpy(S->row_i, S->all_i, (size_t)S->nall * sizeof *S->row_i);
    free(use);
    if (improved)
        out->evals = evals;
    return improved;
}

int ry_libra_solve(const ry_libra_problem *p, ry_libra_result *r)
{
    memset(r, 0, sizeof *r);
    solver S;
    solver_init(&S, p);
    nlopt_srand(20240501);
    int rc = -1;

    r->nterms = S.J;
    r->compute = S.terms.compute;
    r->collectives = S.terms.collectives;
    ry_libra_terms_traffic(&S.terms, r->traffic);

    if (!feasible(&S, NULL, NULL)) {
        report_infeasible(&S);
        goto out;
    }
    if (check_bounded(&S) < 0)
        goto out;
    load_constraints(&S, NULL, 1);

    /* The equal split, as given. */
    evaluate(&S, p->baseline, &r->base);
    r->base_feasible = r->base.violation <= RY_LIBRA_TOL;
    for (int k = 0; k < p->ncons && !r->base_feasible && !r->base_violates[0]; k++)
        if (ry_libra_con_violation(&p->cons[k], S.d, p->baseline) > RY_LIBRA_TOL)
            snprintf(r->base_violates, sizeof r->base_violates, "%.60s: %.160s",
                     p->cons[k].where, p->cons[k].text);

    /* Stage 1: every start on the smoothed problem. */
    int nst = p->starts > 0 ? p->starts : 1;
    r->starts = ry_xcalloc((size_t)nst, sizeof *r->starts);
    r->nstarts = nst;
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    double total = 0;
    for (int i = 0; i < S.d; i++)
        total += p->baseline[i] / S.s;
    if (!(total > 0))
        total = S.d;
    double xc[MAXD] = { 0 };
    center(&S, total, xc);
    int best = -1;
    for (int k = 0; k < nst; k++) {
        ry_libra_start *st = &r->starts[k];
        double y[MAXD] = { 0 }, x0[MAXD] = { 0 };
        start_point(&S, k, total, y, st->label, sizeof st->label, &rng);
        project(&S, y, x0);
        /* a tenth of the way to the centre: feasible still, and off the
         * walls where a dimension with traffic has next to no bandwidth */
        for (int i = 0; i < S.d; i++)
            x0[i] = 0.9 * x0[i] + 0.1 * xc[i];
        smooth_solve(&S, NLOPT_LD_SLSQP, x0, st);
        if (!usable_start(st) || (st->status < 0 && st->status != NLOPT_ROUNDOFF_LIMITED)) {
            ry_libra_start alt = *st;
            smooth_solve(&S, NLOPT_LN_COBYLA, x0, &alt);
            if (usable_start(&alt) && (!usable_start(st) || alt.objective < st->objective))
                *st = alt;
        }
        /* Objectives within 1e-9 tie (the time can be flat along a
         * dimension no term's max depends on): the cheaper design wins, then
         * the earlier start. */
        if (usable_start(st)) {
            const ry_libra_start *b = best >= 0 ? &r->starts[best] : NULL;
            if (!b || st->objective < b->objective * (1 - 1e-9) ||
                (st->objective <= b->objective * (1 + 1e-9) && st->cost < b->cost * (1 - 1e-9)))
                best = k;
        }
    }
    if (best < 0) {
        ry_error_at(p->pos, "the solver found no design that meets every constraint to %g "
                    "GB/s from %d starting points", RY_LIBRA_TOL, nst);
        goto out;
    }

    /* Distinct local optima: objectives more than 1e-5 apart. */
    double bestobj = r->starts[best].objective;
    r->ndistinct = 0;
    for (int k = 0; k < nst; k++) {
        ry_libra_start *st = &r->starts[k];
        st->cluster = -1;
        if (!usable_start(st))
            continue;
        for (int q = 0; q < k; q++)
            if (r->starts[q].cluster >= 0 &&
                fabs(r->starts[q].objective - st->objective) <= 1e-5 * fabs(bestobj)) {
                st->cluster = r->starts[q].cluster;
                break;
            }
        if (st->cluster < 0)
            st->cluster = r->ndistinct++;
    }

    /* Stage 2: the exact problem from the best start of each distinct
     * optimum within 1% of the best; the lowest wins. */
    ry_libra_start chosen = r->starts[best];
    r->chosen = best;
    for (int c = 0; c < r->ndistinct; c++) {
        int k = 0;
        while (k < nst && r->starts[k].cluster != c)
            k++;
        for (int q = k + 1; q < nst; q++)
            if (r->starts[q].cluster == c && r->starts[q].objective < r->starts[k].objective)
                k = q;
        if (r->starts[k].objective > bestobj * 1.01)
            continue;
        ry_libra_start pol;
        if (polish(&S, &r->starts[k], &pol) && pol.objective < chosen.objective) {
            chosen = pol;
            r->chosen = k;
            r->polish_evals = pol.evals;
        }
    }
    r->polish_gain = 1 - chosen.objective / r->starts[r->chosen].objective;
    double final = chosen.objective;
    for (int k = 0; k < nst; k++) {
        double gap = r->starts[k].cluster >= 0 ? r->starts[k].objective / final - 1 : 0;
        if (gap > r->worst_gap)
            r->worst_gap = gap;
    }

    evaluate(&S, chosen.bw, &r->best);
    double base_obj = objective_value(p, r->base.time, r->base.cost);
    if (r->base_feasible && base_obj < final * (1 - 1e-12)) {
        r->best = r->base;
        r->chosen = -1;
        r->solver_worse = 1;
        r->solver_best = final;
    }
    r->speedup = r->base.time / r->best.time;
    r->ppc_gain = (r->base.time * r->base.cost) / (r->best.time * r->best.cost);
    rc = 0;
out:
    solver_free(&S);
    return rc;
}

void ry_libra_result_free(ry_libra_result *r)
{
    free(r->starts);
    r->starts = NULL;
    r->nstarts = 0;
}
