/* The full training model (see plan.h and doc/llm-model.md, "The full
 * model"). Every formula names its source there; here, why each term has
 * its shape. */
#include "model/plan.h"
#include "model/moe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/buf.h"
#include "util/diag.h"

static long long ceil_div(long long a, long long b)
{
    return (a + b - 1) / b;
}

/* FLOPs executed per iteration with recomputation rc: full runs the
 * forward pass again (4/3); selective recomputes only the attention core,
 * QK^T and the product with V, 4 s^2 h FLOPs per sequence and block
 * (Korthikanti et al. 2022, section 5). */
static double hw_flops(const ry_plan *pl, int rc)
{
    const ry_model *m = &pl->base;
    const ry_llm *l = &m->w.model;
    double f = m->model_flops;
    if (rc == RY_RECOMPUTE_FULL)
        return f * 4.0 / 3.0;
    if (rc == RY_RECOMPUTE_SELECTIVE)
        return f + 4.0 * (double)m->w.batch * l->seq_len * (double)l->seq_len * l->d_model *
                       l->layers;
    return f;
}

void ry_plan_memory(const ry_plan *pl, const ry_plan_cfg *c, int rc, ry_plan_mem *mem)
{
    const ry_workload *w = &pl->base.w;
    const ry_llm *l = &w->model;
    double h = l->d_model, s = l->seq_len, L = l->layers;
    double a = l->heads ? l->heads : (h / 128 >= 1 ? h / 128 : 1);
    double t = (double)c->t, d = (double)c->d;
    /* Parameters of the first stage: its blocks and the embedding (vocab
     * parallel over the tensor group). With one stage, all of them. */
    double emb = (double)l->vocab * h, blk;
    if (l->parameters > emb)
        blk = (l->parameters - emb) / L;
    else
        blk = l->parameters / L, emb = 0;
    double phi = (blk * c->blocks + emb) / t;
    /* ZeRO (Rajbhandari et al. 2020): stage 1 shards the optimizer over
     * the data-parallel replicas, 2 also the gradients, 3 also the weights.
     * Mixed-precision Adam: 16-bit weights, gradients in the reduction's
     * precision, fp32 master weights and two fp32 moments (12 bytes). */
    memset(mem, 0, sizeof *mem);
    mem->weights = 2 * phi / (w->zero >= 3 ? d : 1);
    mem->grads = pl->grad_bytes * phi / (w->zero >= 2 ? d : 1);
    mem->optimizer = 12 * phi / (w->zero >= 1 ? d : 1);
    /* Activations per block and micro-batch, 16-bit, tensor and sequence
     * parallel over t (Korthikanti et al. 2022, Table 2): s b h (34 + 5 a
     * s / h) / t; selective recomputation drops the 5 a s / h attention
     * part; full keeps only each block's input, 2 s b h / t, plus one
     * block's working set while it is recomputed. 1F1B: the first stage
     * holds min(p, m) micro-batches (Narayanan et al. 2021). */
    double sbh = s * (double)c->mb * h;
    double per;
    if (rc == RY_RECOMPUTE_FULL)
        per = 2 * sbh / t;
    else if (rc == RY_RECOMPUTE_SELECTIVE)
        per = 34 * sbh / t;
    else
        per = sbh * (34 + 5 * a * s / h) / t;
    mem->inflight = (int)(c->p < c->m ? c->p : c->m);
    mem->activations = per * c->blocks * mem->inflight;
    if (rc == RY_RECOMPUTE_FULL)
        mem->activations += 34 * sbh / t;
    mem->recompute = rc;
    mem->total = mem->weights + mem->grads + mem->optimizer + mem->activations;
    mem->capacity = w->gpu.memory_bytes;
    mem->feasible = !(mem->capacity > 0) || mem->total <= mem->capacity;
}

void ry_plan_eval(const ry_plan *pl, long long K, int rc, ry_plan_cfg *c)
{
    const ry_model *m = &pl->base;
    const ry_iter_in *in = &m->in;
    const ry_llm *l = &m->w.model;
    double t = (double)c->t, B = (double)m->w.batch;
    double C = m->peak_flops * pl->efficiency;
    (void)K;
    c->hw_flops = hw_flops(pl, rc);
    double share = (double)c->seqs / B * (double)c->blocks / in->layers;
    /* The busiest GPU's work: its replica's sequences, its stage's blocks,
     * a 1/t share of each. One stage, B/d sequences: M_flop / (N C). */
    c->compute = c->hw_flops * share / (t * C);
    /* Tensor parallel as eq. 1, for the stage's blocks and the replica's tokens. */
    c->tp = c->blocks * in->M_cc * (double)c->seqs * l->seq_len * in->d_model * (t - 1) / t /
            in->B_F;
    /* 1F1B: (p - 1) micro-batch slots idle out of m (Narayanan et al. 2021). */
    c->bubble = (double)(c->p - 1) / (double)c->m * (c->compute + c->tp);
    /* Point to point: one activation per micro-batch forward, its gradient
     * backward, s mb h elements split over the tensor group (the
     * scatter/gather of Narayanan et al. 2021, section 4.1). A middle stage
     * sends both ways; with two stages each sends one way. */
    c->pp = 0;
    if (c->p > 1) {
        double x = (double)l->seq_len * (double)c->mb * in->d_model * m->bytes / t;
        double bw = c->p2p_cross ? in->B_S : in->B_F;
        c->pp = (c->p > 2 ? 2 : 1) * (double)c->m * x / bw;
    }
    /* Gradients of the stage's blocks, 1/t each, reduced hierarchically as
     * eq. 1 does, in their own precision; ZeRO-3 gathers the weights again
     * forward and backward: 1.5 x (Rajbhandari et al. 2020, section 7). */
    double g = c->blocks * 12 * in->d_model * in->d_model * pl->grad_bytes / t;
    double z = m->w.zero >= 3 ? 1.5 : 1;
    c->dp_in_s = z * 2 * g * (double)(c->dp_in - 1) / (double)c->dp_in / in->B_F;
    c->dp_cross_s = z * 2 * (g / (double)c->dp_in) * (double)(c->dp_cross - 1) /
                    (double)c->dp_cross / in->B_S;
    c->total = c->compute + c->bubble + c->tp + c->pp + c->dp_in_s + c->dp_cross_s;
}

/* The layout of t, p, d at K (see plan.h); 0 when it is not one kept. */
static int layout(long long K, ry_plan_cfg *c)
{
    long long td = c->t * c->d;
    if (td % K == 0) {
        c->dp_in = K / c->t;
        c->dp_cross = td / K;
        c->p2p_cross = c->p > 1;
        return 1;
    }
    if (K % td == 0) {
        c->dp_in = c->d;
        c->dp_cross = 1;
        c->p2p_cross = c->p > K / td;
        return 1;
    }
    return 0;
}

int ry_plan_search(ry_plan *pl, long long K, ry_plan_cfg *best, ry_plan_cfg *least)
{
    const ry_workload *w = &pl->base.w;
    const ry_llm *l = &w->model;
    long long N = pl->base.in.N, B = w->batch;
    int found = 0, any = 0;
    if (least)
        memset(least, 0, sizeof *least);
    for (long long t = 1; t <= K; t++) {
        if (K % t || N % t || (w->tensor && t != w->tensor))
            continue;
        /* Megatron splits heads over the tensor group. */
        if (!w->tensor && l->heads && l->heads % t)
            continue;
        for (long long p = 1; p <= l->layers && p <= N / t; p++) {
            if ((N / t) % p || (w->pipeline && p != w->pipeline))
                continue;
            ry_plan_cfg c;
            memset(&c, 0, sizeof c);
            c.t = t;
            c.p = p;
            c.d = N / (t * p);
            if (c.d > B || !layout(K, &c))
                continue;
            c.seqs = ceil_div(B, c.d);
            c.mb = w->micro_batch ? w->micro_batch : 1;
            if (c.mb > c.seqs)
                continue;
            c.m = ceil_div(c.seqs, c.mb);
            c.blocks = (int)ceil_div(l->layers, p);
            /* The least recomputation that fits: each one more is slower. */
            static const int order[] = { RY_RECOMPUTE_NONE, RY_RECOMPUTE_SELECTIVE,
                                         RY_RECOMPUTE_FULL };
            for (int i = 0; i < 3; i++) {
                int rc = w->recompute_given ? w->recompute : order[i];
                if (w->recompute_given && i)
                    break;
                ry_plan_mem mem;
                ry_plan_memory(pl, &c, rc, &mem);
                pl->considered++;
                if (least && (!any || mem.total < least->mem.total)) {
                    *least = c;
                    least->mem = mem;
                }
                any = 1;
                if (!mem.feasible)
                    continue;
                pl->fit++;
                c.mem = mem;
                ry_plan_eval(pl, K, rc, &c);
                if (!found || c.total < best->total) {
                    *best = c;
                    found = 1;
                }
                break;
            }
        }
    }
    return found ? 0 : -1;
}

/* ---- the command's entry ------------------------------------------------------------- */

static void gb(ry_buf *b, double bytes)
{
    ry_buf_printf(b, "%.1f GB", bytes / 1e9);
}

/* What would fit when nothing does: the same search with one thing
 * changed; for the HB domain and the GPUs, the smallest doubling that fits. */
static void what_would(const ry_plan *pl, ry_buf *msg)
{
    const ry_workload *w = &pl->base.w;
    long long N = pl->base.in.N, K = pl->base.in.K;
    enum { ZERO3, FULL, FREE, DOMAIN, GPUS, TRIES };
    static const char *const what[TRIES] = { "workload.parallelism.zero: 3",
                                             "workload.recompute: full",
                                             "tensor and pipeline sizes left to auto",
                                             "HB domains of ", "" };
    int n = 0;
    for (int i = 0; i < TRIES; i++) {
        ry_plan x = *pl;
        ry_workload *xw = &x.base.w;
        long long k = K, found = 0;
        ry_plan_cfg c;
        if (i == ZERO3 && w->zero < 3) {
            xw->zero = 3;
            found = ry_plan_search(&x, K, &c, NULL) == 0;
        } else if (i == FULL && w->recompute_given && w->recompute != RY_RECOMPUTE_FULL) {
            xw->recompute = RY_RECOMPUTE_FULL;
            found = ry_plan_search(&x, K, &c, NULL) == 0;
        } else if (i == FREE && (w->tensor || w->pipeline || w->micro_batch)) {
            xw->tensor = xw->pipeline = xw->micro_batch = 0;
            found = ry_plan_search(&x, K, &c, NULL) == 0;
        } else if (i == DOMAIN) {
            for (k = 2 * K; !found && k <= N && N % k == 0; k *= 2)
                found = ry_plan_search(&x, k, &c, NULL) == 0;
            k /= 2;
        } else if (i == GPUS) {
            /* More GPUs: more stages and replicas to share the state over. */
            for (x.base.in.N = 2 * N; !found && x.base.in.N <= 1024 * N; x.base.in.N *= 2)
                found = ry_plan_search(&x, K, &c, NULL) == 0;
            x.base.in.N /= 2;
        }
        if (!found)
            continue;
        ry_buf_puts(msg, n++ ? "; " : "; what would fit: ");
        ry_buf_puts(msg, what[i]);
        if (i == DOMAIN)
            ry_buf_printf(msg, "%lld GPUs", k);
        else if (i == GPUS)
            ry_buf_printf(msg, "%lld GPUs in all", x.base.in.N);
        ry_buf_printf(msg, " (TP %lld x PP %lld x DP %lld, ", c.t, c.p, c.d);
        gb(msg, c.mem.total);
        ry_buf_puts(msg, " per GPU)");
    }
    if (!n)
        ry_buf_puts(msg, "; nothing railyard tried fits either (ZeRO-3, full recomputation, "
                         "larger HB domains, up to 1024 times the GPUs)");
}

static int no_fit(const ry_spec *s, const ry_plan *pl, const ry_plan_cfg *least)
{
    const ry_workload *w = &pl->base.w;
    ry_buf msg;
    ry_buf_init(&msg);
    if (!least->t) {
        ry_buf_printf(&msg, "no tensor x pipeline x data-parallel layout of the %lld GPUs "
                      "leaves every replica a sequence of the batch (%lld) with the sizes the "
                      "workload fixes", pl->base.in.N, w->batch);
    } else {
        ry_buf_printf(&msg, "no layout of %s fits the %s's ", w->model.name, w->gpu.name);
        gb(&msg, w->gpu.memory_bytes);
        ry_buf_printf(&msg, ": the least is TP %lld x PP %lld x DP %lld with %s recomputation "
                      "and ZeRO stage %d, ", least->t, least->p, least->d,
                      ry_recompute_names[least->mem.recompute], w->zero);
        gb(&msg, least->mem.total);
        ry_buf_puts(&msg, " per GPU (weights ");
        gb(&msg, least->mem.weights);
        ry_buf_puts(&msg, ", gradients ");
        gb(&msg, least->mem.grads);
        ry_buf_puts(&msg, ", optimizer ");
        gb(&msg, least->mem.optimizer);
        ry_buf_puts(&msg, ", activations ");
        gb(&msg, least->mem.activations);
        ry_buf_puts(&msg, ")");
        what_would(pl, &msg);
    }
    ry_spec_error(s, "workload", "%s", msg.data);
    ry_buf_free(&msg);
    return -1;
}

/* The paper's choice, described as a configuration of the full model. */
static void from_paper(ry_plan *pl, const ry_iter_terms *t, ry_plan_cfg *c)
{
    const ry_workload *w = &pl->base.w;
    memset(c, 0, sizeof *c);
    c->t = t->NM;
    c->p = 1;
    c->d = pl->base.in.N / t->NM;
    c->dp_in = t->NDs;
    c->dp_cross = t->NDf;
    c->seqs = ceil_div(w->batch, c->d);
    c->mb = w->micro_batch && w->micro_batch <= c->seqs ? w->micro_batch : 1;
    c->m = ceil_div(c->seqs, c->mb);
    c->blocks = w->model.layers;
    c->compute = t->compute;
    c->tp = t->tp;
    c->dp_in_s = t->dp_in;
    c->dp_cross_s = t->dp_cross;
    c->total = t->total;
    c->hw_flops = pl->base.hw_flops;
    ry_plan_memory(pl, c, w->recompute, &c->mem);
}

/* The chosen configuration as eq. 1's terms (compute with the bubble,
 * tensor parallel with the point-to-point), for what reads a ry_model. */
static void cfg_terms(const ry_plan_cfg *c, long long K, ry_iter_terms *t)
{
    memset(t, 0, sizeof *t);
    t->K = K;
    t->NM = c->t;
    t->NDs = c->dp_in;
    t->NDf = c->dp_cross;
    t->compute = c->compute + c->bubble;
    t->dp_cross = c->dp_cross_s;
    t->dp_in = c->dp_in_s;
    t->tp = c->tp + c->pp;
    t->total = c->total;
}

int ry_plan_compute(const ry_spec *s, int paper, ry_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->paper = paper;
    if (paper) {
        if (ry_model_compute(s, &pl->base) < 0)
            return -1;
        pl->efficiency = pl->base.w.efficiency;
        pl->grad_bytes = pl->base.bytes;
        from_paper(pl, &pl->base.best, &pl->best);
        from_paper(pl, &pl->base.ideal, &pl->ideal);
        pl->ideal_ok = 1;
        pl->mfu = pl->base.mfu;
        pl->hfu = pl->base.hfu;
        pl->relative = pl->base.relative;
        pl->tokens_per_s = pl->base.tokens_per_s;
        pl->mfu_unpublished = pl->mfu > RY_PLAN_MFU_PUBLISHED;
        return 0;
    }
    if (ry_model_check_spec(s) < 0)
        return -1;
    ry_model_inputs(s, &pl->base);
    const ry_workload *w = &pl->base.w;
    pl->efficiency = w->efficiency_given ? w->efficiency : RY_PLAN_EFFICIENCY;
    pl->grad_bytes = w->grad_precision == RY_GRAD_FP32 ? 4 : 2;
    ry_plan_cfg least;
    if (ry_plan_search(pl, pl->base.in.K, &pl->best, &least) < 0)
        return no_fit(s, pl, &least);
    long long considered = pl->considered, fit = pl->fit;
    pl->ideal_ok = ry_plan_search(pl, pl->base.in.N, &pl->ideal, NULL) == 0;
    pl->considered = considered;
    pl->fit = fit;
    double T = pl->best.total, cap = (double)pl->base.in.N * pl->base.peak_flops * T;
    pl->mfu = pl->base.model_flops / cap;
    pl->hfu = pl->best.hw_flops / cap;
    pl->relative = pl->ideal_ok ? pl->ideal.total / T : 0;
    pl->tokens_per_s = pl->base.in.b / T;
    pl->mfu_unpublished = pl->mfu > RY_PLAN_MFU_PUBLISHED;
    /* A MoE model's all-to-all, a term apart as in paper mode, at the chosen
     * tensor-parallel size: per GPU the bytes do not depend on the stages
     * (a stage's GPUs see p times the tokens through 1/p of the blocks). */
    cfg_terms(&pl->best, pl->base.in.K, &pl->base.best);
    return ry_moe_for_model(s, &pl->base);
}

void ry_plan_parallelism(const ry_plan *pl, ry_parallelism *out)
{
    memset(out, 0, sizeof *out);
    out->tp = pl->best.t;
    out->pp = pl->best.p;
    out->dp = pl->best.d;
    out->ep = pl->base.has_moe && pl->base.moe.ep > 1 ? pl->base.moe.ep : 1;
    out->recompute = pl->best.mem.recompute;
    out->source = pl->paper ? RY_PAR_PAPER : RY_PAR_FULL;
}

void ry_plan_degrade(const ry_plan *pl, double bs_ratio, double fwd_max, double fwd_sum,
                     ry_iter_degraded *d)
{
    if (pl->paper) {
        ry_iter_degrade(&pl->base, bs_ratio, fwd_max, fwd_sum, d);
        return;
    }
    memset(d, 0, sizeof *d);
    const ry_plan_cfg *c = &pl->best;
    long long K = pl->base.in.K;
    cfg_terms(c, K, &d->before);
    d->bs_before = pl->base.in.B_S;
    d->bs_after = pl->base.in.B_S * bs_ratio;
    d->v_bytes = c->dp_cross_s * pl->base.in.B_S;
    int crosses = c->dp_cross > 1 || (c->p > 1 && c->p2p_cross);
    if (crosses && bs_ratio <= 0) {
        d->stalled = 1;
        d->after = d->before;
        d->after.dp_cross = d->after.total = INFINITY;
        d->slowdown = INFINITY;
        return;
    }
    ry_plan q = *pl;
    if (bs_ratio > 0)
        q.base.in.B_S = d->bs_after;
    ry_plan_cfg a = *c;
    ry_plan_eval(&q, K, c->mem.recompute, &a);
    cfg_terms(&a, K, &d->after);
    d->fwd_bytes_max = 2 * fwd_max * d->v_bytes;
    d->fwd_bytes_total = 2 * fwd_sum * d->v_bytes;
    d->nvlink_s = q.base.in.B_F > 0 ? d->fwd_bytes_max / q.base.in.B_F : 0;
    d->after.total += d->nvlink_s;
    d->slowdown = d->before.total > 0 ? d->after.total / d->before.total : 1;
}
