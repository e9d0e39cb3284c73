/* The full model (model/plan.h) against eq. 1 and against hand computations:
 *   - for every spec given on the command line (the model tests' specs), at
 *     its HB domain and every power of two up to 1024 dividing its GPUs, at
 *     every tensor-parallel size eq. 1 accepts, the full model's terms with
 *     one stage, efficiency and gradient bytes as the paper's, no memory
 *     limit, equal ry_iter_eval's term by term; the paper mode's choice is
 *     eq. 1's;
 *   - a small case's pipeline bubble and point-to-point terms, and its
 *     memory, by hand;
 *   - the search never returns a layout that does not fit, and finds the
 *     one a brute force over the same layouts finds.
 * Usage: plan_test TEMPLATES SPEC... ; exits non-zero on a failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/iteration.h"
#include "model/plan.h"
#include "spec/spec.h"
#include "spec/workload.h"

#include "check.h"

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* One (K, N_M) of eq. 1 against the full model with one stage, B/d
 * sequences in one micro-batch; 1 when compared. */
static int compare_one(const char *path, const ry_plan *pl, long long K, long long nm)
{
    const ry_model *m = &pl->base;
    const ry_iter_in *in = &m->in;
    if (!ry_iter_valid(in, K, nm) || m->w.batch % (in->N / nm))
        return 0;
    ry_iter_terms t;
    ry_iter_eval(in, K, nm, &t);
    ry_plan_cfg c;
    memset(&c, 0, sizeof c);
    c.t = nm;
    c.p = 1;
    c.d = in->N / nm;
    c.dp_in = K / nm;
    c.dp_cross = in->N / K;
    c.seqs = m->w.batch / c.d;
    c.mb = c.seqs;
    c.m = 1;
    c.blocks = m->w.model.layers;
    ry_plan_eval(pl, K, m->w.recompute, &c);
    CHECK(close_to(c.compute, t.compute) && close_to(c.tp, t.tp) &&
          close_to(c.dp_in_s, t.dp_in) && close_to(c.dp_cross_s, t.dp_cross) && c.bubble == 0 &&
          c.pp == 0 && close_to(c.total, t.total),
          "%s K %lld N_M %lld: full model %g %g %g %g (total %g) vs eq. 1 %g %g %g %g (%g)",
          path, K, nm, c.compute, c.tp, c.dp_in_s, c.dp_cross_s, c.total, t.compute, t.tp,
          t.dp_in, t.dp_cross, t.total);
    return 1;
}

/* Eq. 1 as the special case: one stage, B/d sequences, no recomputation
 * beyond the paper's, gradients in the compute precision. */
static void test_paper_case(const char *templates, const char *path)
{
    ry_spec *s = ry_spec_load(path, NULL, 0, templates);
    CHECK(s && s->workload, "%s: loads with a workload", path);
    if (!s || !s->workload) {
        ry_spec_free(s);
        return;
    }
    ry_plan pl;
    CHECK(ry_plan_compute(s, 1, &pl) == 0, "%s: paper mode", path);
    const ry_model *m = &pl.base;
    const ry_iter_in *in = &m->in;
    CHECK(pl.best.t == m->best.NM && pl.best.p == 1 && close_to(pl.best.total, m->best.total),
          "%s: the paper mode's choice is eq. 1's", path);
    /* Eq. 1's full model: efficiency and gradient bytes as the paper's. */
    pl.paper = 0;
    pl.efficiency = m->w.efficiency;
    pl.grad_bytes = m->bytes;
    /* At the spec's HB domain and at every power of two the model tests sweep. */
    int compared = 0;
    for (long long nm = 1; nm <= in->K; nm++)
        compared += compare_one(path, &pl, in->K, nm);
    for (long long K = 2; K <= 1024; K *= 2)
        for (long long nm = 1; K != in->K && in->N % K == 0 && nm <= K; nm++)
            compared += compare_one(path, &pl, K, nm);
    CHECK(compared > 0, "%s: no tensor-parallel size compared", path);
    printf("%s: eq. 1 = the full model with one stage at %d (HB domain, tensor-parallel "
           "size) pairs\n", path, compared);
    ry_spec_free(s);
}

/* A plan by hand: 64 GPUs in domains of 8, a model of 8 blocks. */
static void small_plan(ry_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    ry_model *m = &pl->base;
    ry_workload *w = &m->w;
    ry_llm *l = &w->model;
    snprintf(l->name, sizeof l->name, "hand");
    l->parameters = 8 * 12.0 * 64 * 64 + 1000 * 64;   /* blocks + embedding */
    l->layers = 8;
    l->d_model = 64;
    l->heads = 4;
    l->seq_len = 32;
    l->vocab = 1000;
    l->mcc = 8;
    w->batch = 64;
    w->tokens = 64 * 32;
    w->zero = 1;
    w->gpu.memory_bytes = 1e12;
    m->bytes = 2;
    m->peak_flops = 1e9;
    m->model_flops = 6 * l->parameters * (double)w->tokens;
    m->hw_flops = m->model_flops;
    m->in = (ry_iter_in){ .N = 64, .K = 8, .layers = 8, .d_model = 64,
                          .S_T = 12 * 64 * 64 * 2.0, .b = 64 * 32, .M_cc = 16,
                          .M_flop = m->model_flops, .C = 1e9, .B_F = 1e6, .B_S = 1e5,
                          .batch = 64 };
    pl->efficiency = 0.5;
    pl->grad_bytes = 4;
}

static void test_hand(void)
{
    ry_plan pl;
    small_plan(&pl);
    /* t 2, p 4, d 8: t d = 16, two whole domains per stage; 8 sequences per
     * replica, micro-batches of 2: m 4; 2 blocks per stage. */
    ry_plan_cfg c;
    memset(&c, 0, sizeof c);
    c.t = 2, c.p = 4, c.d = 8, c.dp_in = 4, c.dp_cross = 2, c.p2p_cross = 1;
    c.seqs = 8, c.mb = 2, c.m = 4, c.blocks = 2;
    ry_plan_eval(&pl, 8, RY_RECOMPUTE_NONE, &c);
    double P = 8 * 12.0 * 64 * 64 + 64000, F = 6 * P * 2048;
    double compute = F * (8.0 / 64) * (2.0 / 8) / (2 * 0.5e9);
    double tp = 2 * 16 * (8 * 32.0) * 64 * (1.0 / 2) / 1e6;
    CHECK(close_to(c.compute, compute), "compute %g, want %g", c.compute, compute);
    CHECK(close_to(c.tp, tp), "TP %g, want %g", c.tp, tp);
    CHECK(close_to(c.bubble, 3.0 / 4 * (compute + tp)), "bubble %g, want (p-1)/m (%g + %g)",
          c.bubble, compute, tp);
    /* A middle stage sends 4 activations forward and 4 gradients back, each
     * s mb h x 2 bytes / t, over the network (B_S). */
    double pp = 2 * 4 * (32.0 * 2 * 64 * 2 / 2) / 1e5;
    CHECK(close_to(c.pp, pp), "point-to-point %g, want %g", c.pp, pp);
    /* Gradients of 2 blocks / t in fp32: 2 x 12 x 64^2 x 4 / 2 bytes. */
    double g = 2 * 12.0 * 64 * 64 * 4 / 2;
    CHECK(close_to(c.dp_in_s, 2 * g * 3 / 4 / 1e6), "DP inside %g", c.dp_in_s);
    CHECK(close_to(c.dp_cross_s, 2 * (g / 4) * 1 / 2 / 1e5), "DP across %g", c.dp_cross_s);
    CHECK(close_to(c.total, compute + c.bubble + tp + pp + c.dp_in_s + c.dp_cross_s), "total");
    /* Two stages: each sends one way only. */
    ry_plan_cfg c2 = c;
    c2.p = 2, c2.d = 16, c2.dp_cross = 4, c2.seqs = 4, c2.m = 2, c2.blocks = 4;
    ry_plan_eval(&pl, 8, RY_RECOMPUTE_NONE, &c2);
    CHECK(close_to(c2.pp, 2 * (32.0 * 2 * 64 * 2 / 2) / 1e5), "two stages: %g", c2.pp);

    /* Memory of c: phi = (blk x 2 + emb) / t with blk = 12 h^2. */
    ry_plan_mem mm;
    ry_plan_memory(&pl, &c, RY_RECOMPUTE_NONE, &mm);
    double phi = (12.0 * 64 * 64 * 2 + 64000) / 2;
    double act1 = 32.0 * 2 * 64 * (34 + 5 * 4 * 32.0 / 64) / 2;   /* one block, one micro-batch */
    CHECK(close_to(mm.weights, 2 * phi) && close_to(mm.grads, 4 * phi) &&
          close_to(mm.optimizer, 12 * phi / 8), "weights %g grads %g optimizer %g", mm.weights,
          mm.grads, mm.optimizer);
    CHECK(mm.inflight == 4 && close_to(mm.activations, act1 * 2 * 4), "activations %g, want %g",
          mm.activations, act1 * 8);
    ry_plan_memory(&pl, &c, RY_RECOMPUTE_FULL, &mm);
    CHECK(close_to(mm.activations, 32.0 * 2 * 64 * 2 / 2 * 2 * 4 + 32.0 * 2 * 64 * 34 / 2),
          "full recomputation %g", mm.activations);
    pl.base.w.zero = 3;
    ry_plan_memory(&pl, &c, RY_RECOMPUTE_SELECTIVE, &mm);
    CHECK(close_to(mm.weights, 2 * phi / 8) && close_to(mm.grads, 4 * phi / 8) &&
          close_to(mm.activations, 32.0 * 2 * 64 * 34 / 2 * 2 * 4), "ZeRO-3, selective");
}

/* The search: never a layout that does not fit, the fastest of those that do. */
static void test_search(void)
{
    ry_plan pl;
    small_plan(&pl);
    double caps[] = { 1e12, 3e6, 1.5e6, 1e6, 10 };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        pl.base.w.gpu.memory_bytes = caps[i];
        pl.considered = pl.fit = 0;
        ry_plan_cfg best, least;
        int r = ry_plan_search(&pl, 8, &best, &least);
        /* Brute force over the same space. */
        double want = INFINITY;
        int any = 0;
        for (long long t = 1; t <= 8; t *= 2)
            for (long long p = 1; p <= 8; p *= 2) {
                long long d = 64 / (t * p);
                if (d > 64 || 4 % t)
                    continue;
                for (int rc = 0; rc < 3; rc++) {
                    static const int order[] = { 0, 2, 1 };
                    ry_plan_cfg c;
                    memset(&c, 0, sizeof c);
                    c.t = t, c.p = p, c.d = d, c.mb = 1, c.seqs = 64 / d, c.m = c.seqs;
                    c.blocks = (int)(8 / p);
                    if (t * d % 8 == 0)
                        c.dp_in = 8 / t, c.dp_cross = t * d / 8, c.p2p_cross = p > 1;
                    else
                        c.dp_in = d, c.dp_cross = 1, c.p2p_cross = p > 8 / (t * d);
                    ry_plan_mem mm;
                    ry_plan_memory(&pl, &c, order[rc], &mm);
                    if (!mm.feasible)
                        continue;
                    ry_plan_eval(&pl, 8, order[rc], &c);
                    any = 1;
                    want = c.total < want ? c.total : want;
                    break;
                }
            }
        CHECK((r == 0) == any, "capacity %g: search %d, brute force %d", caps[i], r, any);
        if (r == 0) {
            CHECK(best.mem.feasible && best.mem.total <= caps[i], "capacity %g: a layout that "
                  "does not fit (%g)", caps[i], best.mem.total);
            CHECK(close_to(best.total, want), "capacity %g: %g, brute force %g", caps[i],
                  best.total, want);
        } else {
            CHECK(least.t > 0 && least.mem.total > caps[i], "capacity %g: least %g", caps[i],
                  least.mem.total);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: plan_test TEMPLATES SPEC...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++)
        test_paper_case(argv[1], argv[i]);
    test_hand();
    test_search();
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
