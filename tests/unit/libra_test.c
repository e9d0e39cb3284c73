/* LIBRA's model and optimiser against cases whose answers are known:
 *   - bytes per dimension of each collective, by the formulas of libra.md;
 *   - the folded terms give the same time as the layers, for random ones;
 *   - one collective over several dimensions under a total budget: the
 *     optimum gives each dimension bandwidth in proportion to its bytes, so
 *     every dimension is busy for the same time;
 *   - collectives on one dimension each: bw_i proportional to sqrt(bytes_i);
 *   - a fixed dimension; an ordering that binds; perf-per-cost on two
 *     dimensions against a fine grid;
 *   - random problems on 2, 3 and 4 dimensions with random bounds, fixed
 *     values and orderings: never worse than a grid of the simplex (2 and 3
 *     dimensions), never worse than the equal split, every constraint within
 *     1e-6, every start at the optimum of the (convex) time objective, the
 *     same bits on a second run;
 *   - infeasible and unbounded problems are refused;
 *   - ASTRA-sim 1.0 and LIBRA workload files (tests/data/libra/).
 * Usage: libra_test [DATADIR] (default $TOP_SRCDIR/tests/data/libra);
 * LIBRA_TEST_TRIALS=N runs N random problems instead of 40. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/libra.h"
#include "spec/libra_spec.h"
#include "util/diag.h"

#include "check.h"



static uint64_t rng = 0x2545f4914f6cdd1dULL;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static int close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fmax(1e-300, fmax(fabs(a), fabs(b)));
}

/* A network of d dimensions, all switches of the given sizes and price 1
 * (unless prices given). */
static void net_init(ry_libra_problem *p, int d, const int *sizes, const double *prices)
{
    ry_libra_problem_init(p);
    p->net.ndims = d;
    p->net.npus = 1;
    for (int i = 0; i < d; i++) {
        ry_libra_dim *dm = &p->net.dim[i];
        snprintf(dm->name, sizeof dm->name, "d%d", i);
        dm->block = RY_LIBRA_SWITCH;
        dm->size = sizes[i];
        dm->link = prices ? prices[i] : 1;
        p->net.npus *= sizes[i];
    }
    p->starts = 8;
}

static void add_con(ry_libra_problem *p, const double *coef, ry_con_op op, double rhs,
                    const char *text)
{
    ry_libra_con *c = ry_libra_problem_add_con(p);
    double mx = 0;
    for (int i = 0; i < p->net.ndims; i++)
        mx = fmax(mx, fabs(coef[i]));
    for (int i = 0; i < p->net.ndims; i++)
        c->coef[i] = coef[i] / mx;
    c->rhs = rhs / mx;
    c->op = op;
    c->kind = ry_libra_con_classify(c, p->net.ndims, 0);
    snprintf(c->text, sizeof c->text, "%s", text);
    snprintf(c->where, sizeof c->where, "test");
}

static void budget(ry_libra_problem *p, double B)
{
    double one[RY_LIBRA_MAX_DIMS];
    for (int i = 0; i < p->net.ndims; i++) {
        one[i] = 1;
        p->baseline[i] = B / p->net.ndims;
    }
    add_con(p, one, RY_CON_EQ, B, "sum == B");
}

/* A layer whose one phase runs a collective. */
static void layer(ry_libra_problem *p, ry_coll c, double bytes, const int *group, double compute)
{
    ry_libra_layer *l = ry_libra_workload_add(&p->wl);
    l->ph[RY_PHASE_WG].coll = c;
    l->ph[RY_PHASE_WG].bytes = bytes;
    l->ph[RY_PHASE_WG].compute = compute;
    for (int i = 0; i < p->net.ndims; i++)
        l->ph[RY_PHASE_WG].group[i] = group[i];
}

static double objective(const ry_libra_problem *p, const double *bw)
{
    ry_libra_terms t;
    ry_libra_terms_build(&p->net, &p->wl, &t);
    double T = ry_libra_terms_time(&t, bw, NULL);
    ry_libra_terms_free(&t);
    return p->objective == RY_LIBRA_TIME ? T : T * ry_libra_cost(&p->net, bw);
}

static double violation(const ry_libra_problem *p, const double *bw)
{
    double worst = 0;
    for (int k = 0; k < p->ncons; k++)
        worst = fmax(worst, ry_libra_con_violation(&p->cons[k], p->net.ndims, bw));
    for (int i = 0; i < p->net.ndims; i++)
        worst = fmax(worst, -bw[i]);
    return worst;
}

/* ---- collectives ---------------------------------------------------------------------- */

static void test_bytes(void)
{
    int g[4] = { 4, 4, 1, 8 };
    double m[4], S = 1e9;
    ry_libra_coll_bytes(RY_COLL_ALL_REDUCE, S, g, 4, m);
    CHECK(close_rel(m[0], 2 * S * 3 / 4, 1e-15) && close_rel(m[1], 2 * (S / 4) * 3 / 4, 1e-15) &&
          m[2] == 0 && close_rel(m[3], 2 * (S / 16) * 7 / 8, 1e-15),
          "all-reduce bytes %g %g %g %g", m[0], m[1], m[2], m[3]);
    ry_libra_coll_bytes(RY_COLL_REDUCE_SCATTER, S, g, 4, m);
    CHECK(close_rel(m[0], S * 3 / 4, 1e-15) && close_rel(m[1], (S / 4) * 3 / 4, 1e-15) &&
          close_rel(m[3], (S / 16) * 7 / 8, 1e-15), "reduce-scatter bytes");
    ry_libra_coll_bytes(RY_COLL_ALL_GATHER, S, g, 4, m);
    /* descending: dim 3 first with the shard S, then dim 1 with 8S, dim 0 with 32S */
    CHECK(close_rel(m[3], S * 7, 1e-15) && close_rel(m[1], 8 * S * 3, 1e-15) &&
          close_rel(m[0], 32 * S * 3, 1e-15) && m[2] == 0, "all-gather bytes %g %g %g", m[0],
          m[1], m[3]);
    ry_libra_coll_bytes(RY_COLL_ALL_TO_ALL, S, g, 4, m);
    CHECK(close_rel(m[0], S * 3 / 4, 1e-15) && close_rel(m[1], S * 3 / 4, 1e-15) &&
          close_rel(m[3], S * 7 / 8, 1e-15), "all-to-all bytes");
    ry_libra_coll_bytes(RY_COLL_NONE, S, g, 4, m);
    CHECK(m[0] == 0 && m[1] == 0 && m[3] == 0, "none moves no bytes");
    ry_coll c;
    CHECK(ry_coll_parse("ALLREDUCE", &c) == 0 && c == RY_COLL_ALL_REDUCE, "parse ALLREDUCE");
    CHECK(ry_coll_parse("reduce_scatter", &c) == 0 && c == RY_COLL_REDUCE_SCATTER,
          "parse reduce_scatter");
    CHECK(ry_coll_parse("All-Gather", &c) == 0 && c == RY_COLL_ALL_GATHER, "parse All-Gather");
    CHECK(ry_coll_parse("ALLREDUCE_EP", &c) < 0, "ALLREDUCE_EP is refused");
}

static void test_cost(void)
{
    ry_libra_problem p;
    int sizes[3] = { 4, 8, 16 };
    net_init(&p, 3, sizes, NULL);
    p.net.dim[0].block = RY_LIBRA_RING;
    p.net.dim[0].link = 2;
    p.net.dim[0].sw = 100;      /* not paid by a ring */
    p.net.dim[1].block = RY_LIBRA_FULLY_CONNECTED;
    p.net.dim[1].link = 4;
    p.net.dim[2].link = 7.8;
    p.net.dim[2].sw = 18;
    p.net.dim[2].nic = 31.6;
    double bw[3] = { 100, 50, 25 };
    double want = 512.0 * (100 * 2 + 50 * 4 + 25 * (7.8 + 18 + 31.6));
    CHECK(close_rel(ry_libra_cost(&p.net, bw), want, 1e-14), "cost %g want %g",
          ry_libra_cost(&p.net, bw), want);
    ry_libra_problem_free(&p);
}

/* ---- the folded terms ------------------------------------------------------------------ */

static void random_workload(ry_libra_problem *p, int nlayers)
{
    for (int l = 0; l < nlayers; l++) {
        ry_libra_layer *ly = ry_libra_workload_add(&p->wl);
        ly->count = 1 + (long long)(urand() * 3);
        for (int ph = 0; ph < RY_PHASES; ph++) {
            ry_libra_phase *x = &ly->ph[ph];
            x->compute = urand() * 1e-3;
            x->coll = (ry_coll)(urand() * 5);
            x->bytes = (1 + urand()) * 1e8;
            for (int i = 0; i < p->net.ndims; i++)
                x->group[i] = urand() < 0.5 ? 1 : p->net.dim[i].size;
        }
    }
}

static void test_terms(void)
{
    for (int trial = 0; trial < 50; trial++) {
        ry_libra_problem p;
        int sizes[4] = { 4, 8, 4, 32 };
        net_init(&p, 4, sizes, NULL);
        random_workload(&p, 1 + (int)(urand() * 40));
        ry_libra_terms t;
        ry_libra_terms_build(&p.net, &p.wl, &t);
        double bw[4];
        for (int i = 0; i < 4; i++)
            bw[i] = 10 + 500 * urand();
        double a = ry_libra_terms_time(&t, bw, NULL), b = ry_libra_time(&p.net, &p.wl, bw);
        CHECK(close_rel(a, b, 1e-12), "terms time %.17g, layers %.17g", a, b);
        CHECK(t.nmulti <= 4 * 16, "at most a max term per collective and dimension set (%d)",
              t.nmulti);
        ry_libra_terms_free(&t);
        ry_libra_problem_free(&p);
    }
}

/* ---- known optima ----------------------------------------------------------------------- */

static void test_proportional(void)
{
    /* One all-reduce over three dimensions: bw_i proportional to m_i. */
    ry_libra_problem p;
    int sizes[3] = { 4, 8, 16 };
    net_init(&p, 3, sizes, NULL);
    int g[3] = { 4, 8, 16 };
    layer(&p, RY_COLL_ALL_REDUCE, 4e9, g, 0.01);
    budget(&p, 900);
    ry_libra_result r;
    CHECK(ry_libra_solve(&p, &r) == 0, "proportional: solve");
    double m[3], sm = 0;
    ry_libra_coll_bytes(RY_COLL_ALL_REDUCE, 4e9, g, 3, m);
    for (int i = 0; i < 3; i++)
        sm += m[i];
    for (int i = 0; i < 3; i++)
        CHECK(close_rel(r.best.bw[i], 900 * m[i] / sm, 1e-6), "proportional: bw%d %.9g want "
              "%.9g", i, r.best.bw[i], 900 * m[i] / sm);
    CHECK(close_rel(r.best.busy[0], r.best.busy[2], 1e-6), "equal busy times %g %g",
          r.best.busy[0], r.best.busy[2]);
    CHECK(close_rel(r.best.time, 0.01 + sm / 1e9 / 900, 1e-9), "time %.12g want %.12g",
          r.best.time, 0.01 + sm / 1e9 / 900);
    CHECK(r.best.violation <= RY_LIBRA_TOL, "proportional: violation %g", r.best.violation);
    CHECK(r.speedup >= 1, "proportional: speedup %g", r.speedup);
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);
}

static void test_sqrt(void)
{
    /* Collectives on one dimension each: T = sum A_i/bw_i, bw_i ~ sqrt(A_i). */
    ry_libra_problem p;
    int sizes[4] = { 2, 4, 8, 16 };
    net_init(&p, 4, sizes, NULL);
    double A[4], root = 0;
    for (int i = 0; i < 4; i++) {
        int g[4] = { 1, 1, 1, 1 };
        g[i] = sizes[i];
        layer(&p, RY_COLL_ALL_TO_ALL, 1e9 * (i + 1) * (i + 1), g, 0);
        double m[4];
        ry_libra_coll_bytes(RY_COLL_ALL_TO_ALL, 1e9 * (i + 1) * (i + 1), g, 4, m);
        A[i] = m[i] / 1e9;
        root += sqrt(A[i]);
    }
    budget(&p, 1000);
    ry_libra_result r;
    CHECK(ry_libra_solve(&p, &r) == 0, "sqrt: solve");
    for (int i = 0; i < 4; i++)
        CHECK(close_rel(r.best.bw[i], 1000 * sqrt(A[i]) / root, 1e-6), "sqrt: bw%d %.9g want "
              "%.9g", i, r.best.bw[i], 1000 * sqrt(A[i]) / root);
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);
}

static void test_fixed(void)
{
    /* One all-reduce over 3 dims, dim 0 fixed: the other two share the rest
     * in proportion to their bytes. */
    ry_libra_problem p;
    int sizes[3] = { 4, 8, 16 };
    net_init(&p, 3, sizes, NULL);
    int g[3] = { 4, 8, 16 };
    layer(&p, RY_COLL_ALL_REDUCE, 4e9, g, 0);
    budget(&p, 900);
    double c0[3] = { 1, 0, 0 };
    add_con(&p, c0, RY_CON_EQ, 100, "d0 == 100");
    ry_libra_result r;
    CHECK(ry_libra_solve(&p, &r) == 0, "fixed: solve");
    double m[3];
    ry_libra_coll_bytes(RY_COLL_ALL_REDUCE, 4e9, g, 3, m);
    CHECK(fabs(r.best.bw[0] - 100) <= 1e-6, "fixed: bw0 %.12g", r.best.bw[0]);
    /* dim 0 at 100 is the bottleneck unless the rest makes it so: check the
     * rest split in proportion */
    double rest = 800;
    CHECK(close_rel(r.best.bw[1], rest * m[1] / (m[1] + m[2]), 1e-5) ||
          r.best.busy[0] >= fmax(r.best.busy[1], r.best.busy[2]) - 1e-9,
          "fixed: bw1 %.9g", r.best.bw[1]);
    CHECK(r.best.violation <= RY_LIBRA_TOL, "fixed: violation %g", r.best.violation);
    CHECK(!r.base_feasible, "fixed: the equal split breaks d0 == 100");
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);
}

static void test_ordering(void)
{
    /* Dim 1 carries 4x the bytes of dim 0: unconstrained, bw1 = 2 bw0
     * (sqrt rule); with bw0 >= bw1 the ordering binds: bw0 = bw1 = B/2. */
    ry_libra_problem p;
    int sizes[2] = { 8, 8 };
    net_init(&p, 2, sizes, NULL);
    int g0[2] = { 8, 1 }, g1[2] = { 1, 8 };
    layer(&p, RY_COLL_ALL_REDUCE, 1e9, g0, 0);
    layer(&p, RY_COLL_ALL_REDUCE, 4e9, g1, 0);
    budget(&p, 600);
    ry_libra_result r;
    CHECK(ry_libra_solve(&p, &r) == 0, "ordering: free solve");
    CHECK(close_rel(r.best.bw[1], 400, 1e-6), "ordering: free bw1 %.9g want 400", r.best.bw[1]);
    ry_libra_result_free(&r);
    double ord[2] = { -1, 1 };      /* bw1 - bw0 <= 0 */
    add_con(&p, ord, RY_CON_LE, 0, "d0 >= d1");
    CHECK(ry_libra_solve(&p, &r) == 0, "ordering: solve");
    CHECK(fabs(r.best.bw[0] - 300) <= 1e-6 && fabs(r.best.bw[1] - 300) <= 1e-6,
          "ordering binds: %.12g %.12g", r.best.bw[0], r.best.bw[1]);
    CHECK(r.best.violation <= RY_LIBRA_TOL, "ordering: violation %g", r.best.violation);
    CHECK(r.base_feasible && r.speedup >= 1 - 1e-12, "ordering: equal split feasible, no "
          "worse (%g)", r.speedup);
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);
}

static void test_infeasible(void)
{
    ry_libra_problem p;
    int sizes[3] = { 4, 4, 4 };
    net_init(&p, 3, sizes, NULL);
    int g[3] = { 4, 4, 4 };
    layer(&p, RY_COLL_ALL_REDUCE, 1e9, g, 0);
    budget(&p, 400);
    double c0[3] = { 1, 0, 0 };
    add_con(&p, c0, RY_CON_EQ, 500, "d0 == 500");
    ry_libra_result r;
    int before = ry_error_count();
    CHECK(ry_libra_solve(&p, &r) < 0, "a fixed value above the budget is refused");
    CHECK(ry_error_count() > before, "with an error printed");
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);

    net_init(&p, 3, sizes, NULL);
    layer(&p, RY_COLL_ALL_REDUCE, 1e9, g, 0);
    budget(&p, 400);
    double a[3] = { 1, -1, 0 }, b[3] = { -1, 1, 0 };
    add_con(&p, a, RY_CON_LE, -10, "d1 >= d0 + 10");
    add_con(&p, b, RY_CON_LE, -10, "d0 >= d1 + 10");
    CHECK(ry_libra_solve(&p, &r) < 0, "contradictory orderings are refused");
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);

    /* Unbounded: no budget on a dimension that carries bytes. */
    net_init(&p, 2, sizes, NULL);
    layer(&p, RY_COLL_ALL_REDUCE, 1e9, g, 0);
    double c1[2] = { 1, 0 };
    add_con(&p, c1, RY_CON_LE, 100, "d0 <= 100");
    p.baseline[0] = p.baseline[1] = 50;
    CHECK(ry_libra_solve(&p, &r) < 0, "a dimension without an upper limit is refused");
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);
}

static void test_ppc_grid(void)
{
    /* Perf-per-cost on two dimensions with compute: a fine grid of the
     * split must not beat the solver. */
    ry_libra_problem p;
    int sizes[2] = { 8, 64 };
    double prices[2] = { 17, 57.4 };
    net_init(&p, 2, sizes, prices);
    int g0[2] = { 8, 1 }, g1[2] = { 1, 64 }, g2[2] = { 8, 64 };
    layer(&p, RY_COLL_ALL_REDUCE, 3e9, g0, 0.05);
    layer(&p, RY_COLL_ALL_REDUCE, 1e9, g1, 0.02);
    layer(&p, RY_COLL_ALL_REDUCE, 2e9, g2, 0.01);
    budget(&p, 500);
    p.objective = RY_LIBRA_PERF_PER_COST;
    ry_libra_result r;
    CHECK(ry_libra_solve(&p, &r) == 0, "ppc: solve");
    double best = HUGE_VAL;
    for (int k = 1; k < 100000; k++) {
        double bw[2] = { 500.0 * k / 100000, 500 - 500.0 * k / 100000 };
        best = fmin(best, objective(&p, bw));
    }
    double got = objective(&p, r.best.bw);
    CHECK(got <= best * (1 + 1e-9), "ppc: solver %.12g, grid %.12g", got, best);
    ry_libra_result_free(&r);
    ry_libra_problem_free(&p);
}

/* Random problems on 2 and 3 dimensions with random constraints that a
 * random point meets, against a grid over the budget's simplex. */
static void test_random(void)
{
    const char *env = getenv("LIBRA_TEST_TRIALS");
    int trials = env && atoi(env) > 0 ? atoi(env) : 40;
    for (int trial = 0; trial < trials; trial++) {
        int d = 2 + trial % 3;
        int sizes[4] = { 4, 8, 16, 2 };
        double prices[4] = { 2 + 10 * urand(), 4 + 10 * urand(), 20 + 40 * urand(),
                             1 + 60 * urand() };
        ry_libra_problem p;
        net_init(&p, d, sizes, prices);
        random_workload(&p, 2 + (int)(urand() * 20));
        double B = 100 + 900 * urand();
        budget(&p, B);
        /* a point inside the simplex and constraints it meets */
        double w[4], sw = 0, pt[4];
        for (int i = 0; i < d; i++)
            sw += w[i] = 0.2 + urand();
        for (int i = 0; i < d; i++)
            pt[i] = B * w[i] / sw;
        int ncon = (int)(urand() * 3);
        for (int k = 0; k < ncon; k++) {
            double c[4] = { 0, 0, 0, 0 };
            int i = (int)(urand() * d), j = (i + 1) % d;
            double u = urand();
            if (u < 0.2) {
                c[i] = 1;
                add_con(&p, c, RY_CON_EQ, pt[i], "fixed");
            } else if (u < 0.5) {
                c[i] = 1;
                add_con(&p, c, RY_CON_LE, pt[i] * (1 + 0.5 * urand()), "bound");
            } else {
                c[i] = -1;      /* d_i >= d_j - slack */
                c[j] = 1;
                add_con(&p, c, RY_CON_LE, fmax(0, pt[j] - pt[i]) + 1, "ordering");
            }
        }
        p.objective = trial % 4 < 2 ? RY_LIBRA_TIME : RY_LIBRA_PERF_PER_COST;
        ry_libra_result r, r2;
        int rc = ry_libra_solve(&p, &r);
        CHECK(rc == 0, "random %d: solve", trial);
        if (rc == 0) {
            double got = objective(&p, r.best.bw);
            CHECK(violation(&p, r.best.bw) <= RY_LIBRA_TOL, "random %d: violation %g", trial,
                  violation(&p, r.best.bw));
            if (r.base_feasible)
                CHECK(got <= objective(&p, r.base.bw) * (1 + 1e-12), "random %d: worse than "
                      "the equal split", trial);
            /* grid (2 and 3 dimensions) */
            double best = HUGE_VAL;
            int n = d == 2 ? 20000 : d == 3 ? 400 : 0;
            for (int a = 1; a < n; a++)
                for (int b = d == 2 ? 0 : 1; b < (d == 2 ? 1 : n - a); b++) {
                    double bw[4] = { B * a / n, d == 2 ? B - B * a / n : B * b / n, 0, 0 };
                    if (d == 3)
                        bw[2] = B - bw[0] - bw[1];
                    if (violation(&p, bw) <= 1e-9)
                        best = fmin(best, objective(&p, bw));
                }
            CHECK(got <= best * (1 + 1e-7), "random %d (%s, %dD): solver %.12g, grid %.12g",
                  trial, ry_libra_objective_name(p.objective), d, got, best);
            /* convex: every start reaches the optimum, up to the smoothing */
            if (p.objective == RY_LIBRA_TIME)
                CHECK(r.worst_gap <= 2e-3 && r.ndistinct == 1, "random %d: a start stopped "
                      "%g away (%d optima)", trial, r.worst_gap, r.ndistinct);
            if (getenv("LIBRA_TEST_DUMP") && atoi(getenv("LIBRA_TEST_DUMP")) == trial) {
                for (int k = 0; k < p.ncons; k++) {
                    printf("con %s:", p.cons[k].text);
                    for (int i = 0; i < d; i++)
                        printf(" %g", p.cons[k].coef[i]);
                    printf(" %s %g\n", p.cons[k].op == RY_CON_EQ ? "==" : "<=", p.cons[k].rhs);
                }
                for (int k = 0; k < r.nstarts; k++) {
                    printf("start %d %s obj %.10g st %d ev %d bw", k, r.starts[k].label,
                           r.starts[k].objective, r.starts[k].status, r.starts[k].evals);
                    for (int i = 0; i < d; i++)
                        printf(" %g", r.starts[k].bw[i]);
                    printf("\n");
                }
            }
            for (int k = 0; k < r.nstarts; k++)
                CHECK(r.starts[k].status > 0 || r.starts[k].status == -4, "random %d: start "
                      "%d status %d", trial, k, r.starts[k].status);
            CHECK(ry_libra_solve(&p, &r2) == 0, "random %d: second solve", trial);
            CHECK(memcmp(r.best.bw, r2.best.bw, sizeof r.best.bw) == 0, "random %d: the "
                  "second run differs", trial);
            ry_libra_result_free(&r2);
        }
        ry_libra_result_free(&r);
        ry_libra_problem_free(&p);
    }
}

/* ---- workload files --------------------------------------------------------------------- */

static void four_d(ry_libra_net *n)
{
    static const int sizes[4] = { 4, 8, 4, 32 };
    static const char *const names[4] = { "package", "node", "pod", "scale_out" };
    memset(n, 0, sizeof *n);
    n->ndims = 4;
    n->npus = 4096;
    for (int i = 0; i < 4; i++) {
        snprintf(n->dim[i].name, sizeof n->dim[i].name, "%s", names[i]);
        n->dim[i].size = sizes[i];
        n->dim[i].link = 1;
    }
}

static void test_astra(const char *dir)
{
    char path[2048];
    ry_libra_net net;
    four_d(&net);
    ry_libra_workload w;

    /* HYBRID_TRANSFORMER_FWD_IN_BCKWD, tensor group 16: forward and input
     * gradient on 4 x 4, weight gradient on 1 x 2 x 4 x 32. */
    memset(&w, 0, sizeof w);
    snprintf(path, sizeof path, "%.1000s/transformer.txt", dir);
    CHECK(ry_libra_read_astra(path, &net, NULL, 1e-9, &w) == 0, "read %s", path);
    CHECK(w.nlayers == 4, "transformer: %d layers", w.nlayers);
    if (w.nlayers == 4) {
        const ry_libra_layer *l = &w.layers[0];
        CHECK(strcmp(l->name, "attn_qkv") == 0, "name %s", l->name);
        CHECK(l->ph[0].coll == RY_COLL_NONE && l->ph[1].coll == RY_COLL_ALL_REDUCE &&
              l->ph[2].coll == RY_COLL_ALL_REDUCE, "transformer: collectives");
        CHECK(close_rel(l->ph[0].compute, 4100000e-9, 1e-15), "cycles to seconds %g",
              l->ph[0].compute);
        CHECK(l->ph[1].bytes == 402653184 && l->ph[2].bytes == 113246208, "bytes %g %g",
              l->ph[1].bytes, l->ph[2].bytes);
        int fw[4] = { 4, 4, 1, 1 }, wg[4] = { 1, 2, 4, 32 };
        CHECK(memcmp(l->ph[0].group, fw, sizeof fw) == 0 &&
              memcmp(l->ph[1].group, fw, sizeof fw) == 0, "tensor groups %d %d %d %d",
              l->ph[1].group[0], l->ph[1].group[1], l->ph[1].group[2], l->ph[1].group[3]);
        CHECK(memcmp(l->ph[2].group, wg, sizeof wg) == 0, "data groups %d %d %d %d",
              l->ph[2].group[0], l->ph[2].group[1], l->ph[2].group[2], l->ph[2].group[3]);
        CHECK(w.layers[3].ph[0].coll == RY_COLL_ALL_GATHER &&
              w.layers[2].ph[1].coll == RY_COLL_REDUCE_SCATTER &&
              w.layers[3].ph[2].coll == RY_COLL_ALL_TO_ALL, "transformer: other collectives");
    }
    ry_libra_workload_free(&w);

    /* DATA: weight gradients over every dimension. */
    memset(&w, 0, sizeof w);
    snprintf(path, sizeof path, "%.1000s/data.txt", dir);
    CHECK(ry_libra_read_astra(path, &net, NULL, 1e-9, &w) == 0, "read %s", path);
    CHECK(w.nlayers == 3, "data: %d layers", w.nlayers);
    if (w.nlayers == 3) {
        int all[4] = { 4, 8, 4, 32 }, none[4] = { 1, 1, 1, 1 };
        CHECK(memcmp(w.layers[1].ph[2].group, all, sizeof all) == 0, "data: wg on all dims");
        CHECK(memcmp(w.layers[1].ph[0].group, none, sizeof none) == 0, "data: fwd on none");
    }
    ry_libra_workload_free(&w);

    /* LIBRA's rows without a header need the groups from the spec. */
    memset(&w, 0, sizeof w);
    snprintf(path, sizeof path, "%.1000s/rows-only.txt", dir);
    int before = ry_error_count();
    CHECK(ry_libra_read_astra(path, &net, NULL, 1e-9, &w) < 0 && ry_error_count() > before,
          "rows without groups are refused");
    ry_libra_workload_free(&w);
    ry_libra_groups g;
    memset(&g, 0, sizeof g);
    int fw[4] = { 4, 4, 1, 1 }, wg[4] = { 1, 2, 4, 32 };
    for (int ph = 0; ph < 3; ph++) {
        g.have[ph] = 1;
        memcpy(g.group[ph], ph == 2 ? wg : fw, sizeof fw);
    }
    memset(&w, 0, sizeof w);
    CHECK(ry_libra_read_astra(path, &net, &g, 1e-9, &w) == 0, "rows with groups");
    CHECK(w.nlayers == 5, "rows: %d layers", w.nlayers);
    if (w.nlayers == 5)
        CHECK(memcmp(w.layers[4].ph[2].group, wg, sizeof wg) == 0, "rows: groups given");
    ry_libra_workload_free(&w);

    /* HYBRID_CUSTOMIZED: each row names its parallelism. */
    memset(&w, 0, sizeof w);
    snprintf(path, sizeof path, "%.1000s/customized.txt", dir);
    CHECK(ry_libra_read_astra(path, &net, NULL, 1e-9, &w) == 0, "read %s", path);
    if (w.nlayers == 2) {
        int m0[4] = { 4, 1, 1, 1 }, all[4] = { 4, 8, 4, 32 };
        CHECK(memcmp(w.layers[0].ph[0].group, m0, sizeof m0) == 0, "customized: "
              "HYBRID_DATA_MODEL puts the model on dimension 0");
        CHECK(memcmp(w.layers[1].ph[2].group, all, sizeof all) == 0, "customized: DATA");
    } else {
        CHECK(0, "customized: %d layers", w.nlayers);
    }
    ry_libra_workload_free(&w);

    /* Broken files: each refused with an error. */
    static const char *const bad[] = { "bad-collective.txt", "bad-count.txt", "bad-policy.txt",
                                       "bad-tp.txt", "bad-number.txt", NULL };
    for (int k = 0; bad[k]; k++) {
        memset(&w, 0, sizeof w);
        snprintf(path, sizeof path, "%.1000s/%.100s", dir, bad[k]);
        before = ry_error_count();
        CHECK(ry_libra_read_astra(path, &net, NULL, 1e-9, &w) < 0 && ry_error_count() > before,
              "%s is refused", bad[k]);
        ry_libra_workload_free(&w);
    }
}

int main(int argc, char **argv)
{
    char dir[1024];
    const char *top = getenv("TOP_SRCDIR");
    if (argc > 1)
        snprintf(dir, sizeof dir, "%s", argv[1]);
    else
        snprintf(dir, sizeof dir, "%s/tests/data/libra", top ? top : ".");
    test_bytes();
    test_cost();
    test_terms();
    test_proportional();
    test_sqrt();
    test_fixed();
    test_ordering();
    test_infeasible();
    test_ppc_grid();
    test_random();
    test_astra(dir);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
