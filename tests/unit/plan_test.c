/* The full model (model/plan.h) against eq. 1 and against hand computations:
 *   - for every spec given on the command line (the model tests' specs), the
 *     paper mode (ry_plan_compute(s, 1)) is eq. 1 exactly: its choice and
 *     its terms are ry_model_compute's, and its configuration says one
 *     stage of N/N_M replicas;
 *   - a small GPT-like case whose block, memory parts, compute (GEMMs at
 *     the few-rows rate, fused attention, memory-bound kernels, the output
 *     layer), tensor parallel with its overlap, context parallel's ring,
 *     the interleaved bubble, point-to-point and the data-parallel
 *     reduction behind its overlap window (ZeRO 1 and 3) are recomputed
 *     here from the formulas of doc/llm-model.md ("The full model");
 *   - the search never returns a layout that does not fit, and finds the
 *     time a brute force over (t, c, p, d, v, mb, recomputation), as the
 *     search defines them, finds.
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
    return fabs(a - b) <= 1e-9 * fmax(1e-30, fmax(fabs(a), fabs(b)));
}

static int same_terms(const ry_iter_terms *a, const ry_iter_terms *b)
{
    return a->K == b->K && a->NM == b->NM && a->NDs == b->NDs && a->NDf == b->NDf &&
           a->compute == b->compute && a->tp == b->tp && a->dp_in == b->dp_in &&
           a->dp_cross == b->dp_cross && a->total == b->total;
}

/* The paper mode is eq. 1: the same choice and the same terms, bit for bit. */
static void test_paper_case(const char *templates, const char *path)
{
    ry_spec *s = ry_spec_load(path, NULL, 0, templates);
    CHECK(s && s->workload, "%s: loads with a workload", path);
    if (!s || !s->workload) {
        ry_spec_free(s);
        return;
    }
    ry_plan *pl = calloc(1, sizeof *pl);
    ry_model *m = calloc(1, sizeof *m);
    CHECK(pl && m, "memory");
    if (!pl || !m)
        exit(1);
    CHECK(ry_plan_compute(s, 1, pl) == 0, "%s: paper mode", path);
    CHECK(ry_model_compute(s, m) == 0, "%s: eq. 1", path);
    const ry_plan_cfg *b = &pl->best;
    CHECK(same_terms(&pl->base.best, &m->best) && same_terms(&pl->base.ideal, &m->ideal),
          "%s: the paper mode's terms are eq. 1's (N_M %lld vs %lld, T %g vs %g)", path,
          pl->base.best.NM, m->best.NM, pl->base.best.total, m->best.total);
    CHECK(b->t == m->best.NM && b->p == 1 && b->c == 1 && b->v == 1 &&
          b->d == m->in.N / m->best.NM && b->gpus == m->in.N && b->dp_in == m->best.NDs &&
          b->dp_cross == m->best.NDf && b->blocks == m->w.model.layers,
          "%s: the paper mode's layout is eq. 1's one stage: TP %lld PP %lld DP %lld", path,
          b->t, b->p, b->d);
    CHECK(b->compute == m->best.compute && b->tp == m->best.tp && b->dp_in_s == m->best.dp_in &&
          b->dp_cross_s == m->best.dp_cross && b->total == m->best.total && b->bubble == 0 &&
          b->pp == 0 && b->cp == 0,
          "%s: the paper mode's configuration carries eq. 1's terms", path);
    CHECK(pl->mfu == m->mfu && pl->hfu == m->hfu && pl->relative == m->relative &&
          pl->tokens_per_s == m->tokens_per_s && pl->efficiency == m->w.efficiency,
          "%s: the paper mode's MFU %g, eq. 1's %g", path, pl->mfu, m->mfu);
    /* ... and eq. 1's choice is the minimum of ry_iter_eval over the valid N_M. */
    for (long long nm = 1; nm <= m->in.K; nm++) {
        if (!ry_iter_valid(&m->in, m->in.K, nm) || m->w.tensor)
            continue;
        ry_iter_terms t;
        ry_iter_eval(&m->in, m->in.K, nm, &t);
        CHECK(t.total >= pl->base.best.total, "%s: N_M %lld beats the paper mode's choice",
              path, nm);
    }
    printf("%s: the paper mode is eq. 1 (TP %lld, T_iter %.6g s)\n", path, b->t, b->total);
    free(pl);
    free(m);
    ry_spec_free(s);
}

/* A plan by hand: 64 GPUs in domains of 8, a GPT block (GELU, f = 4 h,
 * multi-head attention, no dropout) of h 64, 4 heads, 8 blocks. */
enum { H = 64, HEADS = 4, SEQ = 32, VOCAB = 1000, LAYERS = 8, BATCH = 64 };

static void small_plan(ry_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    ry_model *m = &pl->base;
    ry_workload *w = &m->w;
    ry_llm *l = &w->model;
    snprintf(l->name, sizeof l->name, "hand");
    l->parameters = LAYERS * 12.0 * H * H + (double)VOCAB * H;   /* blocks + embedding */
    l->layers = LAYERS;
    l->d_model = H;
    l->heads = HEADS;
    l->seq_len = SEQ;
    l->vocab = VOCAB;
    l->mcc = 8;
    w->batch = BATCH;
    w->tokens = (long long)BATCH * SEQ;
    w->zero = 1;
    w->flash_attention = 1;
    w->sequence_parallel = 1;
    w->overlap_data = 1;
    w->overlap_tensor = 0.5;
    w->overlap_context = 1;
    w->gpu.memory_bytes = 1e12;
    w->gpu.hbm_bytes_s = 2e9;
    m->bytes = 2;
    m->in = (ry_iter_in){ .N = 64, .K = 8, .layers = LAYERS, .d_model = H,
                          .S_T = 12 * H * H * 2.0, .b = BATCH * SEQ, .M_cc = 16,
                          .C = 1e9, .B_F = 1e6, .B_S = 1e5, .batch = BATCH };
    pl->efficiency = 0.5;
    pl->attn_eff = 0.25;
    pl->gemm_peak = 1e9;
    pl->bf16_peak = 1e9;
    pl->grad_bytes = 4;
    ry_plan_arch_init(pl);
}

/* The block by hand (doc/llm-model.md, the table of the block's shape). */
static void test_arch(const ry_plan *pl)
{
    const ry_plan_arch *a = &pl->arch;
    double h = H, f = 4 * h;
    CHECK(close_to(a->gemm, 2 * h * 3 * h + 2 * h * h + 2 * 2 * h * f), "GEMM FLOPs %g, want 24 h^2",
          a->gemm);
    CHECK(a->gemm_expert == 0 && close_to(a->attn, 2.0 * SEQ * h) &&
          close_to(a->attn_full, 4.0 * SEQ * h) && close_to(a->logits, 2 * h * VOCAB),
          "attention %g, output layer %g", a->attn, a->logits);
    /* 10 h norms and residuals; rotary 2 (h + h_kv); GELU's 2 f (two matrices). */
    CHECK(close_to(a->elem_rep, 10 * h) && close_to(a->elem_split, 2 * 2 * h + 2 * f),
          "memory-bound elements %g + %g", a->elem_rep, a->elem_split);
    /* 8 h replicated; Q, K, V 6 h, attention output 2 h, softmax statistics
     * 4 a, the MLP's 4 f: Korthikanti's 34 h without dropout's 10 h, with
     * the statistics. */
    CHECK(close_to(a->act_rep, 8 * h) && close_to(a->act_split, 6 * h + 2 * h + 4 * HEADS + 4 * f),
          "activations %g + %g", a->act_rep, a->act_split);
    CHECK(close_to(a->dense_params, 12 * h * h) && close_to(a->embedding, h * VOCAB) &&
          a->expert_params == 0, "parameters %g per block, embedding %g", a->dense_params,
          a->embedding);
}

/* The terms of one configuration, recomputed from the formulas: rc none or
 * selective (fused attention), ZeRO 1 or 3, no experts. */
typedef struct {
    double gemm, attn, mem, per_mb, tp, tp_x, cp, cp_x, bubble, pp, dp_in, dp_x, total;
    double dp_raw, window;
} hand_t;

static void hand_eval(const ry_plan *pl, const ry_plan_cfg *c, int rc, hand_t *o)
{
    const ry_plan_arch *a = &pl->arch;
    const ry_workload *w = &pl->base.w;
    double t = (double)c->t, cp = (double)c->c, h = H, M = (double)c->m;
    double tok = SEQ * (double)c->mb / cp, blocks = c->blocks;
    double ae = rc == RY_RECOMPUTE_NONE ? 3 : 4;
    double sp = c->t > 1 ? t : 1;
    double nv = pl->base.in.B_F / 2 * 0.8, net = pl->base.in.B_S * 0.9;
    memset(o, 0, sizeof *o);
    /* GEMMs at efficiency x tokens / (tokens + 128), the output layer at the same rate. */
    double rate = pl->gemm_peak * pl->efficiency * tok / (tok + 128);
    o->gemm = (tok * blocks * 3 * a->gemm + tok * 3 * a->logits) / t / rate;
    /* Heads of H / HEADS = 16: attention at (16 / 128)^0.5 of its rate; the
     * GPU has no attention_half_length, so no length factor. */
    o->attn = tok * blocks * ae * a->attn / t /
              (pl->bf16_peak * pl->attn_eff * sqrt((double)H / HEADS / 128));
    o->mem = tok * blocks * 3 * 2 * (a->elem_split / t + a->elem_rep / sp) /
             w->gpu.hbm_bytes_s;
    o->per_mb = o->gemm + o->attn + o->mem;
    if (c->t > 1)
        o->tp = blocks * 8 * tok * h * 2 * (t - 1) / t / nv;
    o->tp_x = o->tp - fmin(o->tp * w->overlap_tensor, o->gemm);
    if (c->c > 1)
        o->cp = blocks * (cp - 1) * (tok * 2 * h * 2 / t) * 3 / (c->cp_cross ? net : nv);
    o->cp_x = o->cp - fmin(o->cp * w->overlap_context, o->attn);
    double slot = o->per_mb + o->tp_x + o->cp_x;
    o->bubble = c->p > 1 ? (double)(c->p - 1) / (double)c->v * slot : 0;
    if (c->p > 1)
        o->pp = (c->p > 2 || c->v > 1 ? 2 : 1) * (double)c->v * M * (tok * h * 2 / t) /
                (c->p2p_cross ? net : nv);
    double phi = (a->dense_params * blocks + a->embedding) / t, g = phi * pl->grad_bytes;
    double din = (double)c->dp_in, dx = (double)c->dp_cross, dpi, dpx, window;
    if (w->zero >= 3) {
        /* forward and backward gathers (2 x 16-bit) and the gradients'
         * reduce-scatter, every micro-batch, at one GPU's rate */
        double r = din * dx, vol = M * (2 * 2 * phi + g) * (r - 1) / r;
        dpi = dx > 1 ? 0 : vol / nv;
        dpx = dx > 1 ? vol / net : 0;
        window = o->per_mb * M;
    } else {
        dpi = 2 * g * (din - 1) / din / nv;
        dpx = 2 * g / din * (dx - 1) / dx / net;
        window = o->per_mb;
    }
    double dp = dpi + dpx, hid = fmin(dp * w->overlap_data, window);
    o->dp_raw = dp;
    o->window = window;
    o->dp_in = dp > 0 ? dpi * (dp - hid) / dp : 0;
    o->dp_x = dp > 0 ? dpx * (dp - hid) / dp : 0;
    o->total = M * slot + o->bubble + o->pp + o->dp_in + o->dp_x;
}

static void check_eval(const ry_plan *pl, ry_plan_cfg c, int rc, const char *what)
{
    hand_t o;
    ry_plan_eval(pl, pl->base.in.K, rc, &c);
    hand_eval(pl, &c, rc, &o);
    double M = (double)c.m;
    CHECK(close_to(c.gemm_s, o.gemm * M) && close_to(c.attn_s, o.attn * M) &&
          close_to(c.mem_s, o.mem * M) && close_to(c.compute, o.per_mb * M),
          "%s: compute %g (GEMMs %g, attention %g, memory-bound %g), by hand %g (%g, %g, %g)",
          what, c.compute, c.gemm_s, c.attn_s, c.mem_s, o.per_mb * M, o.gemm * M, o.attn * M,
          o.mem * M);
    CHECK(close_to(c.tp, o.tp_x * M), "%s: TP %g, by hand %g", what, c.tp, o.tp_x * M);
    CHECK(close_to(c.cp, o.cp_x * M), "%s: CP %g, by hand %g", what, c.cp, o.cp_x * M);
    CHECK(close_to(c.bubble, o.bubble), "%s: bubble %g, by hand %g", what, c.bubble, o.bubble);
    CHECK(close_to(c.pp, o.pp), "%s: point-to-point %g, by hand %g", what, c.pp, o.pp);
    CHECK(close_to(c.dp_in_s, o.dp_in) && close_to(c.dp_cross_s, o.dp_x),
          "%s: DP %g + %g, by hand %g + %g", what, c.dp_in_s, c.dp_cross_s, o.dp_in, o.dp_x);
    CHECK(close_to(c.total, o.total), "%s: total %g, by hand %g", what, c.total, o.total);
    CHECK(close_to(c.total, c.compute + c.tp + c.cp + c.bubble + c.pp + c.dp_in_s +
                                c.dp_cross_s), "%s: the terms add up", what);
}

/* Memory of c by hand (doc/llm-model.md, "Memory per GPU"). */
static void check_memory(const ry_plan *pl, const ry_plan_cfg *c, int rc, const char *what)
{
    const ry_workload *w = &pl->base.w;
    double h = H, t = (double)c->t, r = (double)(c->c * c->d);
    double dense = (12 * h * h * c->blocks + h * VOCAB) / t;
    double wt = 2 * dense / (w->zero >= 3 ? r : 1), gr = 4 * dense / (w->zero >= 2 ? r : 1);
    double opt = 12 * dense / (w->zero >= 1 ? r : 1);
    double gather = w->zero >= 3 ? 2 * 2 * 12 * h * h / t : 0;
    double tok = SEQ * (double)c->mb / (double)c->c, sp = c->t > 1 ? t : 1;
    double rep = 8 * h - (rc == RY_RECOMPUTE_SELECTIVE ? 4 * h : 0);
    double split = 6 * h + 2 * h + 4 * HEADS + 16 * h;
    double full = tok * (rep / sp + split / t);
    double inflight = (double)(c->p < c->m ? c->p : c->m);
    if (c->v > 1)
        inflight *= 1 + (double)(c->p - 1) / (double)(c->p * c->v);
    double act = (rc == RY_RECOMPUTE_FULL ? tok * 2 * h / sp : full) * c->blocks * inflight;
    if (rc == RY_RECOMPUTE_FULL)
        act += tok * (8 * h / sp + split / t);
    if (c->p == 1)
        act += tok * VOCAB / t * 4;
    double hbm = w->gpu.memory_bytes * 1.073741824;
    double reserve = 2e9 + 0.08 * (hbm - 2e9);
    double total = wt + gr + opt + gather + act + reserve;
    ry_plan_mem mm;
    ry_plan_memory(pl, c, rc, &mm);
    CHECK(close_to(mm.weights, wt) && close_to(mm.grads, gr) && close_to(mm.optimizer, opt) &&
          close_to(mm.gather + 1, gather + 1),
          "%s: weights %g grads %g optimizer %g gather %g, by hand %g %g %g %g", what,
          mm.weights, mm.grads, mm.optimizer, mm.gather, wt, gr, opt, gather);
    CHECK(close_to(mm.inflight, inflight) && close_to(mm.activations, act),
          "%s: activations %g (%g in flight), by hand %g (%g)", what, mm.activations,
          mm.inflight, act, inflight);
    CHECK(close_to(mm.reserve, reserve) && close_to(mm.capacity, hbm) &&
          close_to(mm.total, total) && mm.feasible == (total <= hbm) && mm.recompute == rc,
          "%s: total %g of %g, by hand %g of %g", what, mm.total, mm.capacity, total, hbm);
}

static void test_hand(void)
{
    ry_plan pl;
    small_plan(&pl);
    test_arch(&pl);
    /* t 2, p 4 with 2 chunks each, d 8: a stage of 16 GPUs fills two
     * domains (d_in 4 x d_x 2), boundaries across domains; 8 sequences per
     * replica in micro-batches of 2: m 4; 2 blocks per stage. */
    ry_plan_cfg c;
    memset(&c, 0, sizeof c);
    c.t = 2, c.c = 1, c.p = 4, c.v = 2, c.d = 8, c.ep = 1, c.dp_in = 4, c.dp_cross = 2;
    c.p2p_cross = 1, c.seqs = 8, c.mb = 2, c.m = 4, c.blocks = 2, c.gpus = 64, c.logits = 1;
    check_eval(&pl, c, RY_RECOMPUTE_NONE, "TP 2 PP 4 (v 2) DP 8");
    check_eval(&pl, c, RY_RECOMPUTE_SELECTIVE, "TP 2 PP 4 (v 2) DP 8, selective");
    /* The reduction hides only behind one micro-batch: here it is longer,
     * partly exposed (what the window cap is about). */
    hand_t o;
    hand_eval(&pl, &c, RY_RECOMPUTE_NONE, &o);
    CHECK(o.dp_raw > o.window && o.dp_in > 0 && o.dp_x > 0,
          "the case exposes part of the reduction (%g of %g)", o.dp_in + o.dp_x, o.dp_raw);
    pl.base.w.overlap_data = 0;
    check_eval(&pl, c, RY_RECOMPUTE_NONE, "no data-parallel overlap");
    pl.base.w.overlap_data = 1;
    /* Two stages, one chunk: a stage of 32 GPUs, 4 domains (d_in 4 x d_x 4). */
    ry_plan_cfg c2 = c;
    c2.p = 2, c2.v = 1, c2.d = 16, c2.dp_in = 4, c2.dp_cross = 4, c2.seqs = 4, c2.m = 2;
    c2.blocks = 4;
    check_eval(&pl, c2, RY_RECOMPUTE_NONE, "TP 2 PP 2 DP 16");
    /* Context parallel 2 inside a domain, its ring over NVLink. */
    ry_plan_cfg c3 = c;
    c3.c = 2, c3.p = 2, c3.v = 1, c3.d = 8, c3.dp_in = 4, c3.dp_cross = 4, c3.seqs = 8;
    c3.mb = 1, c3.m = 8, c3.blocks = 4;
    check_eval(&pl, c3, RY_RECOMPUTE_NONE, "TP 2 CP 2 PP 2 DP 8");
    /* Stages of t 2 x d 2, two a domain: the boundary over NVLink. */
    ry_plan_cfg c4 = c;
    c4.p = 2, c4.v = 1, c4.d = 2, c4.dp_in = 2, c4.dp_cross = 1, c4.p2p_cross = 0;
    c4.seqs = 32, c4.mb = 8, c4.m = 4, c4.blocks = 4, c4.gpus = 8;
    check_eval(&pl, c4, RY_RECOMPUTE_NONE, "TP 2 PP 2 DP 2 (8 GPUs, one domain)");

    check_memory(&pl, &c, RY_RECOMPUTE_NONE, "memory, none");
    check_memory(&pl, &c, RY_RECOMPUTE_SELECTIVE, "memory, selective");
    check_memory(&pl, &c, RY_RECOMPUTE_FULL, "memory, full");
    check_memory(&pl, &c2, RY_RECOMPUTE_NONE, "memory, two stages");
    check_memory(&pl, &c3, RY_RECOMPUTE_NONE, "memory, context parallel");
    ry_plan_cfg c1 = c;
    c1.p = 1, c1.v = 1, c1.d = 32, c1.dp_cross = 8, c1.seqs = 2, c1.mb = 2, c1.m = 1;
    c1.blocks = 8;
    check_memory(&pl, &c1, RY_RECOMPUTE_NONE, "memory, one stage (the logits)");
    check_eval(&pl, c1, RY_RECOMPUTE_NONE, "TP 2 PP 1 DP 32");
    pl.base.w.zero = 2;
    check_memory(&pl, &c, RY_RECOMPUTE_NONE, "memory, ZeRO-2");
    pl.base.w.zero = 3;
    check_memory(&pl, &c, RY_RECOMPUTE_SELECTIVE, "memory, ZeRO-3");
    check_eval(&pl, c, RY_RECOMPUTE_SELECTIVE, "ZeRO-3 across domains");
    check_eval(&pl, c4, RY_RECOMPUTE_NONE, "ZeRO-3 inside a domain");
}

/* The layout rule (plan.h) on cases worked by hand at K = 8. */
static void test_layout(void)
{
    static const struct {
        long long t, c, d, p;
        int kept;
        long long dp_in, dp_cross;
        int cp_cross, p2p_cross;
    } cases[] = {
        { 2, 1, 4, 2, 1, 4, 1, 0, 1 },      /* a stage is one domain: 4 replicas inside */
        { 2, 1, 8, 3, 1, 4, 2, 0, 1 },      /* two domains a stage: 4 inside x 2 across */
        { 2, 2, 4, 1, 1, 4, 2, 0, 0 },      /* context x data = 8 copies, 4 in a domain */
        { 8, 2, 3, 2, 1, 1, 6, 1, 1 },      /* tensor x context wider than a domain */
        { 4, 1, 1, 4, 1, 1, 1, 0, 1 },      /* 2 stages a domain, 4 stages: 2 domains */
        { 4, 1, 1, 2, 1, 1, 1, 0, 0 },      /* both stages in one domain: NVLink */
        { 2, 1, 3, 1, 0, 0, 0, 0, 0 },      /* 6 GPUs a stage: neither divides 8 */
        { 3, 1, 8, 1, 0, 0, 0, 0, 0 },      /* a tensor group of 3 in a domain of 8 */
        { 8, 3, 1, 1, 1, 1, 3, 1, 0 },      /* tensor x context 24: three whole domains */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ry_plan_cfg c;
        memset(&c, 0, sizeof c);
        c.t = cases[i].t, c.c = cases[i].c, c.d = cases[i].d, c.p = cases[i].p;
        int kept = ry_plan_layout(8, &c);
        CHECK(kept == cases[i].kept && (!kept || (c.dp_in == cases[i].dp_in &&
                                                   c.dp_cross == cases[i].dp_cross &&
                                                   c.cp_cross == cases[i].cp_cross &&
                                                   c.p2p_cross == cases[i].p2p_cross)),
              "layout t %lld c %lld d %lld p %lld: kept %d, dp %lld x %lld, cp %d, p2p %d",
              c.t, c.c, c.d, c.p, kept, c.dp_in, c.dp_cross, c.cp_cross, c.p2p_cross);
    }
}

/* The largest d <= dmax kept by the layout rule, and the largest such
 * divisor of the batch: the two data-parallel sizes the search tries. */
static void search_ds(long long K, const ry_plan_cfg *c0, long long dmax, long long out[2])
{
    out[0] = out[1] = 0;
    for (long long d = dmax; d >= 1; d--) {
        ry_plan_cfg c = *c0;
        c.d = d;
        if (!ry_plan_layout(K, &c))
            continue;
        if (!out[0])
            out[0] = d;
        if (!out[1] && BATCH % d == 0)
            out[1] = d;
    }
}

/* The search: never a layout that does not fit, the fastest of those that do. */
static void test_search(void)
{
    ry_plan pl;
    small_plan(&pl);
    /* What the model can use of the HBM: 0.92 of what is above 2 GB (the
     * reserve), from a catalog GB figure read as GiB. */
    double usable[] = { 1e12, 1.2e6, 6e5, 5e5, 4e5, 3e5, 10 };
    long long K = 8, N = 64;
    for (size_t i = 0; i < sizeof usable / sizeof usable[0]; i++) {
        double cap = (2e9 + usable[i] / 0.92) / 1.073741824;
        pl.base.w.gpu.memory_bytes = cap;
        pl.considered = pl.fit = 0;
        ry_plan_cfg best, least;
        int r = ry_plan_search(&pl, K, &best, &least);
        /* Brute force over the same space. */
        double want = INFINITY;
        long long nfit = 0, n = 0;
        ry_plan_cfg wc;
        memset(&wc, 0, sizeof wc);
        for (long long t = 1; t <= K; t++) {
            if (K % t || HEADS % t)
                continue;
            for (long long cp = 1; cp <= 64 && t * cp <= N; cp *= 2) {
                if (SEQ % cp)
                    continue;
                for (long long p = 1; p <= LAYERS && t * cp * p <= N; p++) {
                    ry_plan_cfg c0;
                    memset(&c0, 0, sizeof c0);
                    c0.t = t, c0.c = cp, c0.p = p, c0.ep = 1;
                    long long ds[2];
                    long long dmax = N / (t * cp * p);
                    search_ds(K, &c0, dmax < BATCH ? dmax : BATCH, ds);
                    for (int k = 0; k < 2; k++) {
                        if (!ds[k] || (k == 1 && ds[1] == ds[0]))
                            continue;
                        ry_plan_cfg c = c0;
                        c.d = ds[k];
                        ry_plan_layout(K, &c);
                        c.seqs = (BATCH + c.d - 1) / c.d;
                        c.blocks = (int)((LAYERS + p - 1) / p);
                        c.logits = 1;
                        c.gpus = t * cp * p * c.d;
                        for (long long mb = 1; mb <= c.seqs; mb *= 2) {
                            c.mb = mb;
                            c.m = (c.seqs + mb - 1) / mb;
                            for (long long v = 1; v <= (p > 1 ? c.blocks : 1) && v <= 8; v++) {
                                if (v > 1 && (c.blocks % v || c.m % p))
                                    continue;
                                c.v = v;
                                static const int order[] = { RY_RECOMPUTE_NONE,
                                                             RY_RECOMPUTE_SELECTIVE,
                                                             RY_RECOMPUTE_FULL };
                                for (int o = 0; o < 3; o++) {
                                    ry_plan_mem mm;
                                    ry_plan_memory(&pl, &c, order[o], &mm);
                                    n++;
                                    if (mm.total > mm.capacity)
                                        continue;
                                    nfit++;
                                    ry_plan_cfg e = c;
                                    ry_plan_eval(&pl, K, order[o], &e);
                                    if (e.total < want)
                                        want = e.total, wc = e;
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        CHECK((r == 0) == (nfit > 0), "usable %g: search %d, brute force %lld of %lld fit",
              usable[i], r, nfit, n);
        CHECK(pl.considered == n && pl.fit == nfit,
              "usable %g: the search considered %lld (%lld fit), the brute force %lld (%lld)",
              usable[i], pl.considered, pl.fit, n, nfit);
        if (r == 0) {
            CHECK(best.mem.feasible && best.mem.total <= best.mem.capacity,
                  "usable %g: a layout that does not fit (%g)", usable[i], best.mem.total);
            CHECK(close_to(best.total, want),
                  "usable %g: %g (TP %lld CP %lld PP %lld v %lld DP %lld mb %lld), brute force "
                  "%g (TP %lld CP %lld PP %lld v %lld DP %lld mb %lld)", usable[i], best.total,
                  best.t, best.c, best.p, best.v, best.d, best.mb, want, wc.t, wc.c, wc.p, wc.v,
                  wc.d, wc.mb);
            printf("usable %.3g bytes: TP %lld x CP %lld x PP %lld (v %lld) x DP %lld, mb %lld, "
                   "%s, T %.6g s, %.4g bytes; %lld of %lld fit\n", usable[i], best.t, best.c, best.p,
                   best.v, best.d, best.mb, ry_recompute_names[best.mem.recompute], best.total,
                   best.mem.total - best.mem.reserve, nfit, n);
        } else {
            CHECK(least.t > 0 && least.mem.total > least.mem.capacity,
                  "usable %g: least %g", usable[i], least.mem.total);
            printf("usable %.3g bytes: nothing fits (least %.6g bytes)\n", usable[i],
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
    test_layout();
    test_search();
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
