/* The full training model (see plan.h and doc/llm-model.md, "The full
 * model"). Every formula names its source there; here, why each term has
 * its shape. */
#include "model/plan.h"
#include "model/moe.h"
#include "net/collective.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/diag.h"

static long long ceil_div(long long a, long long b)
{
    return (a + b - 1) / b;
}

/* The GPUs an expert is split over in configuration c (expert tensor
 * parallelism; 1 in a configuration that never set it). */
static long long cfg_etp(const ry_plan_cfg *c)
{
    return c->etp > 1 ? c->etp : 1;
}

/* ---- the block's shape ----------------------------------------------------------------- */

void ry_plan_arch_init(ry_plan *pl)
{
    ry_plan_arch *a = &pl->arch;
    const ry_workload *w = &pl->base.w;
    const ry_llm *l = &w->model;
    memset(a, 0, sizeof *a);
    double h = l->d_model, s = l->seq_len, L = l->layers, V = l->vocab;
    double heads = l->heads ? l->heads : (h / 128 >= 1 ? floor(h / 128) : 1);
    double kv = l->kv_heads ? l->kv_heads : heads;
    /* A head's query/key and value sizes (d_model / heads unless the model
     * says); the widths of Q, of K and of V. */
    double dk = l->head_dim ? l->head_dim : h / heads, dv = l->v_head_dim ? l->v_head_dim : dk;
    double qd = heads * dk, hkv = kv * dk, vd = kv * dv;
    double f = l->ffn_hidden ? l->ffn_hidden : 4 * h;
    double mats = l->mlp == RY_MLP_SWIGLU ? 3 : 2;
    /* Attention: the Q, K, V projections and the output projection; with
     * latent attention, Q through its rank (or straight), K and V down to
     * their shared rank plus the rotary key, then up to every head's
     * non-rotary key and value. */
    double attn_gemm = 2 * h * (qd + hkv + vd) + 2 * heads * dv * h;
    if (l->kv_lora_rank > 0) {
        double r = l->qk_rope_head_dim, ql = l->q_lora_rank, kl = l->kv_lora_rank;
        attn_gemm = 2 * (ql > 0 ? h * ql + ql * qd : h * qd) + 2 * h * (kl + r) +
                    2 * kl * heads * (dk - r + dv) + 2 * heads * dv * h;
        hkv = qd;
        vd = heads * dv;
        /* Selective recomputation reruns the up-projections (as DeepSeek-V3
         * trains, its report's section 3.2.2): the latents are kept, not
         * every head's Q, K and V. */
        a->act_mla_saved = 2 * (qd + hkv + vd) - 2 * ((ql > 0 ? ql : qd) + kl + r);
        if (a->act_mla_saved < 0)
            a->act_mla_saved = 0;
    }
    double dense_mlp = 2 * mats * h * f;
    double Lm = l->moe.experts > 0 ? ry_llm_moe_blocks(l) : 0, Ld = L - Lm;
    double moe_mlp = 0, moe_elem = 0, moe_act = 0, expert = 0;
    if (Lm > 0) {
        const struct ry_llm_moe *e = &l->moe;
        double k = e->top_k + e->shared_experts, fe = e->expert_hidden;
        /* The experts a token goes through (SwiGLU, as the catalog counts
         * them) and the router's scores. */
        moe_mlp = 2 * 3 * h * fe * k + 2 * h * e->experts;
        /* Their activation functions, and the token copies into and out of
         * the experts' order (permute, unpermute). */
        moe_elem = 3 * fe * k + 4 * h * e->top_k;
        /* Kept per token: each expert's input copy, its SwiGLU's gate and
         * up projections and their product (the down projection's input,
         * for its weight gradient). */
        moe_act = 2 * (3 * fe * k + h * k);
        a->gemm_in_moe = 2 * h * k;
        expert = 3 * h * fe * e->experts * Lm / L;
    }
    a->gemm = attn_gemm + (Ld * dense_mlp + Lm * moe_mlp) / L;
    /* Elements GEMMs read per token (FP8 casts them): the QKV and output
     * projections' inputs and the MLP's two; the experts' per expert. */
    a->gemm_inputs = 2 * h + (Ld * (h + f) + Lm * (l->moe.top_k + l->moe.shared_experts) *
                              (h + (Lm > 0 ? l->moe.expert_hidden : 0))) / L;
    a->gemm_expert = Lm * (moe_mlp - 2 * h * (Lm > 0 ? l->moe.experts : 0)) / L;
    /* QK^T and the product with V: 2 s (heads x head_dim) and 2 s (heads x
     * v_head_dim) per token without the mask; a causal mask halves what a
     * fused kernel computes. A sliding window of w keys: a query sees
     * min(i + 1, w) of them, w - w (w - 1) / 2s on average; unfused
     * attention computes the whole s x s all the same. */
    a->attn_full = 2 * s * (qd + heads * dv);
    a->attn = a->attn_full / 2;
    a->attn_keys = s;
    if (l->window > 0 && l->window < s) {
        double wn = l->window, Lw = l->window_layers ? l->window_layers : L;
        if (Lw > L)
            Lw = L;
        double keys = wn - wn * (wn - 1) / (2 * s);
        a->attn_win = a->attn_full / s * keys * Lw / L;
        a->attn = a->attn * (L - Lw) / L + a->attn_win;
        a->attn_window = wn;
        a->window_share = Lw / L;
    }
    a->kv_width = hkv + vd;
    /* A head smaller than 128 fills the attention kernel's tiles less:
     * (head_dim / 128)^0.5, between what FlashAttention-3 (H100) and
     * FlashAttention-4 (GB300) measure at 64 against 128 (doc/llm-model.md,
     * "Compute"). */
    a->head_factor = dk < 128 ? sqrt(dk / 128) : 1;
    a->logits = 2 * h * V;
    /* Memory-bound kernels, elements read and written per token, forward:
     * the two norms and residual adds (10 h), what only sequence
     * parallelism splits; rotary embedding on Q and K, the MLP's activation
     * function, split over the tensor group. */
    a->elem_rep = 10 * h + (l->dropout ? 6 * h : 0);
    a->elem_split = 2 * (qd + hkv) + (Ld * mats * f + Lm * moe_elem) / L;
    /* Activations kept for backward (bytes, 16-bit), after Korthikanti et
     * al. 2022: the norms' inputs and the inputs of the QKV and first MLP
     * GEMMs (8 h), dropout masks; Q, K, V, the attention output, the
     * softmax statistics (fp32 per head), the MLP's intermediates. */
    a->act_rep = 8 * h + (l->dropout ? 2 * h : 0);
    /* The MLP keeps its first GEMM's outputs and the second's input (GELU:
     * the input of the activation and its output; SwiGLU: the gate and up
     * projections and their product, 2 f bytes each; one H200 measures
     * 35.5-39 s b h bytes a SwiGLU block with grouped-query attention
     * keeps, where this counts 34 for Llama 3 8B). Selective recomputation
     * recomputes the product (the activation function), as Megatron's
     * "moe_act" and "mlp" recompute modules do. */
    a->act_split = 2 * (qd + hkv + vd) + 2 * heads * dv + 4 * heads +
                   (Ld * 2 * mats * f + Lm * moe_act) / L + (l->dropout ? h : 0);
    a->act_product = (Ld * (mats == 3 ? 2 * f : 0) +
                      Lm * 2 * (Lm > 0 ? l->moe.expert_hidden : 0) *
                      (l->moe.top_k + l->moe.shared_experts)) / L;
    a->gemm_in_moe = a->gemm_in_moe * Lm / L;
    /* Unfused attention keeps the scores, the softmax and the dropout mask:
     * 5 a s bytes per token (Korthikanti et al., Table 2). */
    a->act_scores = 5 * heads;
    a->embedding = V * h;
    double P = l->parameters;
    a->expert_params = expert;
    a->dense_params = (P - a->embedding - expert * L) / L;
    if (a->dense_params <= 0) {
        a->dense_params = (P - expert * L) / L;
        a->embedding = 0;
    }
    double b = (double)w->tokens, mtp = l->mtp_layers;
    /* Multi-token prediction: each of its blocks after the last, with the
     * output layer again (its 2 h x h projection left out, a few percent of
     * a block). */
    a->arch_flops = 3 * b * ((L + mtp) * (a->gemm + a->attn) + (1 + mtp) * a->logits);
    const ry_model *m = &pl->base;
    int conv = w->flops_given ? (int)w->flops : RY_FLOPS_ARCH;
    a->model_flops = conv == RY_FLOPS_ARCH ? a->arch_flops : m->model_flops;
}

/* ---- memory ----------------------------------------------------------------------------- */

/* Recomputation's extra forward passes of the GEMMs and of attention. */
static double extra_gemm(int rc)
{
    return rc == RY_RECOMPUTE_FULL ? 1 : 0;
}

static double extra_attn(int rc)
{
    return rc == RY_RECOMPUTE_NONE ? 0 : 1;
}

/* FLOPs executed per iteration with recomputation rc. */
static double hw_flops(const ry_plan *pl, int rc)
{
    const ry_plan_arch *a = &pl->arch;
    const ry_workload *w = &pl->base.w;
    double b = (double)w->tokens, L = w->model.layers + w->model.mtp_layers;
    double attn = w->flash_attention ? a->attn : a->attn_full;
    return b * (L * ((3 + extra_gemm(rc)) * a->gemm + (3 + extra_attn(rc)) * attn) +
                3 * (1 + w->model.mtp_layers) * a->logits);
}

void ry_plan_memory(const ry_plan *pl, const ry_plan_cfg *c, int rc, ry_plan_mem *mem)
{
    const ry_workload *w = &pl->base.w;
    const ry_plan_arch *a = &pl->arch;
    const ry_llm *l = &w->model;
    double s = l->seq_len;
    double t = (double)c->t, r = (double)(c->c * c->d), ep = (double)(c->ep > 0 ? c->ep : 1);
    ep *= (double)cfg_etp(c);   /* each expert's slice: ep x etp GPUs share them */
    /* Experts are not split over the tensor group (expert tensor
     * parallelism 1): ep GPUs of the stage share them, its t c d / ep
     * groups are their replicas. */
    double er = t * r / ep > 1 ? t * r / ep : 1;
    /* Parameters of the first stage: its blocks and the embedding (vocab
     * parallel over the tensor group); experts split over the expert group. */
    int fb = c->first_blocks > 0 ? c->first_blocks : c->blocks;
    double dense = (a->dense_params * fb + a->embedding) / t;
    double expert = a->expert_params * fb / ep;
    /* ZeRO (Rajbhandari et al. 2020): stage 1 shards the optimizer over the
     * replicas, 2 also the gradients, 3 also the weights. Mixed-precision
     * Adam: 16-bit weights, gradients in the reduction's precision, fp32
     * master weights and two fp32 moments (12 bytes). */
    memset(mem, 0, sizeof *mem);
    mem->weights = 2 * (dense / (w->zero >= 3 ? r : 1) + expert / (w->zero >= 3 ? er : 1));
    mem->grads = pl->grad_bytes * (dense / (w->zero >= 2 ? r : 1) +
                                   expert / (w->zero >= 2 ? er : 1));
    mem->optimizer = 12 * (dense / (w->zero >= 1 ? r : 1) + expert / (w->zero >= 1 ? er : 1));
    /* ZeRO-3 gathers a block's weights before it runs and the next one
     * while it runs. */
    if (w->zero >= 3)
        mem->gather = 2 * 2 * (a->dense_params / t + a->expert_params / ep);
    /* Activations per block and micro-batch: tokens split over the context
     * group; the replicated part split by sequence parallelism. */
    double tok = s * (double)c->mb / (double)c->c;
    double sp = c->t > 1 && w->sequence_parallel ? t : 1;
    double h = l->d_model, rep = a->act_rep, split = a->act_split;
    /* FP8 keeps the GEMMs' inputs in FP8 for backward: the norms' outputs
     * (4 h of the replicated part), the output projection's input (2 h),
     * the experts' input copies, the down projections' inputs (SwiGLU's
     * products). */
    if (w->precision == RY_PREC_FP8) {
        rep -= 2 * h;
        split -= h + a->gemm_in_moe / 2 + a->act_product / 2;
    }
    /* Selective recomputation with fused attention recomputes the norms
     * (their outputs are not kept); without it, the attention core. */
    if (rc == RY_RECOMPUTE_SELECTIVE && w->flash_attention) {
        rep -= w->precision == RY_PREC_FP8 ? 2 * h : 4 * h;
        split -= a->act_mla_saved + (w->precision == RY_PREC_FP8 ? a->act_product / 2 : a->act_product);
    }
    double full = tok * (rep / sp + split / t);
    if (!w->flash_attention && rc == RY_RECOMPUTE_NONE)
        full += tok * a->act_scores * s / (double)c->c / t;
    double per = rc == RY_RECOMPUTE_FULL ? tok * 2 * l->d_model / sp : full;
    /* 1F1B: the first stage holds min(p, m) micro-batches; interleaving
     * adds (p - 1)/(p v) of them (Korthikanti et al., section 4.2.3). */
    double inflight = (double)(c->p < c->m ? c->p : c->m);
    if (c->v > 1)
        inflight *= 1 + (double)(c->p - 1) / (double)(c->p * c->v);
    mem->inflight = inflight;
    /* Offloaded blocks keep their activations in host memory (over the
     * host link, behind compute) until their backward. */
    double kept = fb - w->offload;
    if (kept < 1)
        kept = 1;
    mem->activations = per * kept * inflight;
    if (rc == RY_RECOMPUTE_FULL)
        mem->activations += full;   /* the block being recomputed */
    if (c->p == 1)                  /* the output layer's fp32 logits, on the one stage */
        mem->activations += tok * (double)l->vocab / t * 4;
    mem->recompute = rc;
    double cap = w->gpu.memory_bytes;
    if (cap > 0) {
        /* The HBM as it is built, GiB for the datasheet's GB. */
        double hbm = cap * 1.073741824;
        mem->reserve = RY_PLAN_RESERVE_BYTES + RY_PLAN_RESERVE_SHARE * (hbm - RY_PLAN_RESERVE_BYTES);
        mem->capacity = hbm;
    }
    mem->total = mem->weights + mem->grads + mem->optimizer + mem->gather + mem->activations +
                 mem->reserve;
    mem->feasible = !(mem->capacity > 0) || mem->total <= mem->capacity;
}

/* ---- time ------------------------------------------------------------------------------- */

/* Effective one-way bandwidths per GPU, bytes/s. */
static double nvlink_bw(const ry_plan *pl)
{
    return pl->base.in.B_F / 2 * RY_PLAN_NVLINK_EFFICIENCY;
}

/* The network at `share` of it (ry_plan_group_share). */
static double net_bw(const ry_plan *pl, double share)
{
    return pl->base.in.B_S * RY_PLAN_NETWORK_EFFICIENCY * share;
}

/* Group starts (ranks r with r mod L < s) in [0, z], z < the job's GPUs. */
static long long starts_upto(long long z, long long L, long long s)
{
    if (z < 0)
        return 0;
    long long q = (z + 1) / L, r = (z + 1) % L;
    return q * s + (r < s ? r : s);
}

/* Group starts in [lo, hi] (clipped to the job's ranks). */
static long long starts_in(long long lo, long long hi, long long L, long long s, long long n)
{
    if (lo < 0)
        lo = 0;
    if (hi > n - 1)
        hi = n - 1;
    return lo > hi ? 0 : starts_upto(hi, L, s) - starts_upto(lo - 1, L, s);
}

double ry_plan_group_share(const ry_fabric_block *b, int nb, long long gpus, long long stride,
                           long long count, int spread)
{
    double share = 1;
    if (count < 2 || stride < 1)
        return 1;
    long long L = stride * count, span = (count - 1) * stride;
    for (int i = 0; i < nb; i++) {
        long long B = b[i].gpus;
        if (!(b[i].cut > 1) || B < 1 || gpus <= B)
            continue;
        /* The busiest block's flows out. With a stride below B, a group
         * with members both sides of a boundary x has one in [x - stride,
         * x) and one in [x, x + stride): in both blocks. Those crossing x
         * start in [x - span, x - 1]. */
        long long flows = 0;
        if (stride >= B) {
            flows = B;
        } else {
            /* Away from both ends (x0 >= span + B, x1 < gpus) no window is
             * clipped, and a window's count depends only on where it starts
             * mod L: block k's count repeats with period P = L / gcd(B, L)
             * in k. The head blocks, one period and the last block give the
             * maximum over all blocks. */
            long long nblk = (gpus + B - 1) / B, head = span / B + 2;
            long long g = B, h = L;
            while (h) {
                long long t = g % h;
                g = h;
                h = t;
            }
            long long period = L / g;
            for (long long k = 0; k < nblk; k++) {
                if (k >= head + period && k < nblk - 1)
                    k = nblk - 1;
                long long x0 = k * B;
                long long x1 = x0 + B, f = 0;
                if (x0 > 0)
                    f += starts_in(x0 - span, x0 - 1, L, stride, gpus);
                if (x1 < gpus)
                    f += starts_in(x1 - span, x1 - 1, L, stride, gpus);
                if (x0 > 0 && x1 < gpus)
                    f -= starts_in(x1 - span, x0 - 1, L, stride, gpus);
                if (f > flows)
                    flows = f;
            }
        }
        if (flows < 1)
            continue;
        double cap = (double)B / b[i].cut;
        double x = spread || flows >= B ? 1 / b[i].cut : cap / (double)flows;
        if (x < share)
            share = x;
    }
    return share;
}

/* ry_plan_group_share on pl's blocks, remembered. The plan is the caller's
 * own (one thread's), so its memo may change under a const view. */
static double plan_share(const ry_plan *pl, long long gpus, long long stride, long long count,
                         int spread)
{
    if (count < 2 || stride < 1 || pl->shares_one)
        return 1;
    uint64_t h = (uint64_t)gpus * 0x9e3779b97f4a7c15ULL ^ (uint64_t)stride * 0xc2b2ae3d27d4eb4fULL ^
                 (uint64_t)count * 0x165667b19e3779f9ULL ^ (uint64_t)spread;
    struct ry_plan_share_memo *m =
        (struct ry_plan_share_memo *)&pl->share_memo[(h ^ h >> 29) % RY_PLAN_SHARE_MEMO];
    if (m->used && m->gpus == gpus && m->stride == stride && m->count == count &&
        m->spread == spread)
        return m->share;
    *m = (struct ry_plan_share_memo){ gpus, stride, count, spread, 1,
                                      ry_plan_group_share(pl->blocks, pl->n_blocks, gpus, stride,
                                                          count, spread) };
    return m->share;
}

/* The engine's answer (ry_plan_net) for the groups, remembered; the
 * analytic share when the engine is not attached or active, or cannot take
 * the phase (too many flows, no route: counted in fallback). */
static double share_of(const ry_plan *pl, long long gpus, long long stride, long long count,
                       ry_coll_op op)
{
    int spread = op == RY_NCCL_ALL_TO_ALL;
    ry_plan_net *pn = pl->net;
    /* shares_one 2: what the engine already answered, else 1 (a bound) */
    if (pl->shares_one == 2 && pn && count >= 2 && stride >= 1)
        for (int i = 0; i < pn->nmemo; i++)
            if (pn->memo[i].gpus == gpus && pn->memo[i].stride == stride &&
                pn->memo[i].count == count && pn->memo[i].op == (int)op)
                return pn->memo[i].share;
    if (!pn || !pn->active || count < 2 || stride < 1 || pl->shares_one)
        return plan_share(pl, gpus, stride, count, spread);
    for (int i = 0; i < pn->nmemo; i++)
        if (pn->memo[i].gpus == gpus && pn->memo[i].stride == stride &&
            pn->memo[i].count == count && pn->memo[i].op == (int)op)
            return pn->memo[i].share;
    /* Hashed paths are a draw (a job's queue pairs and ports are new each
     * run): the mean time over RY_PLAN_NET_DRAWS draws, a harmonic mean of
     * the shares. */
    int draws = ry_net_hashes(pn->net) ? RY_PLAN_NET_DRAWS : 1;
    double inv = 0, share = 1;
    for (int k = 0; k < draws; k++) {
        ry_coll_result r;
        ry_err err = { { 0 }, { 0 } };
        double one;
        if (draws > 1)
            ry_net_set_seed(pn->net, (uint32_t)k);
        if (ry_coll_groups(pn->net, &pn->job, op, gpus, stride, count, RY_PLAN_NET_BYTES, 1, &r,
                           &one, &err) < 0) {
            pn->fallback++;
            snprintf(pn->why, sizeof pn->why, "%.200s", err.msg);
            if (strcmp(err.key, "flows") != 0 && !pn->unrouted++)
                snprintf(pn->unrouted_why, sizeof pn->unrouted_why, "%.200s", err.msg);
            inv = 0;
            break;
        }
        pn->flows += (long long)r.flows;
        inv += 1 / one;
    }
    if (draws > 1)
        ry_net_set_seed(pn->net, 0);
    if (inv > 0) {
        pn->asked++;
        share = draws / inv;
    } else {
        share = plan_share(pl, gpus, stride, count, spread);
    }
    if (pn->nmemo < RY_PLAN_NET_MEMO)
        pn->memo[pn->nmemo++] = (struct ry_plan_net_memo){ gpus, stride, count, (int)op, share };
    return share;
}

/* 1 when ep experts groups of consecutive ranks fit c's stage (model/moe.h
 * with N_M 1): MoE parallel folding, the expert groups laid out apart from
 * the attention's tensor groups (expert tensor parallelism 1), as
 * Megatron-Core does (Liu et al. 2025, "MoE Parallel Folding"). */
static int ep_folded(const ry_plan *pl, const ry_plan_cfg *c, long long ep)
{
    long long stage = c->t * c->c * c->d, K = (long long)pl->base.in.K;
    ry_moe_in in;
    memset(&in, 0, sizeof in);
    in.N = stage;
    in.K = K < stage ? K : stage;
    /* With expert tensor parallelism an expert's etp GPUs are consecutive
     * and the group takes one of each. */
    in.NM = cfg_etp(c);
    in.experts = pl->base.w.model.moe.experts;
    return ep >= 1 && ry_moe_ep_valid(&in, ep);
}

/* The expert all-to-all runs inside a stage (its groups take the stage's
 * ranks): nothing of it leaves a block that holds the stage; otherwise the
 * uniform bound. The engine runs the expert groups themselves once the
 * size is known: ep consecutive ranks of the stage, folded, or ep at one
 * tensor position where those do not fit. */
static double ep_share(const ry_plan *pl, const ry_plan_cfg *c)
{
    if (pl->net && pl->net->active && c->ep > 1)
        return share_of(pl, c->gpus, ep_folded(pl, c, c->ep) ? cfg_etp(c) : c->t,
                        c->ep,
                        RY_NCCL_ALL_TO_ALL);
    return plan_share(pl, c->gpus, 1, c->t * c->c * c->d, 1);
}

/* The shares of c's collectives on pl's fabric (ry_plan_cfg). */
static void group_shares(const ry_plan *pl, ry_plan_cfg *c)
{
    long long tc = c->t * c->c, st = tc * c->d;
    c->share_cp = c->c > 1 && c->cp_cross ? share_of(pl, c->gpus, c->t, c->c, RY_NCCL_ALL_REDUCE)
                                          : 1;
    c->share_pp = c->p > 1 && c->p2p_cross ? share_of(pl, c->gpus, st, c->p, RY_NCCL_SENDRECV)
                                           : 1;
    /* Hierarchically, the reduction across domains runs over the dp_cross
     * ranks at one position of a domain (t dp_in apart); ZeRO-3's
     * collectives span every replica (t apart). */
    if (c->dp_cross > 1)
        c->share_dp = pl->base.w.zero >= 3
                      ? share_of(pl, c->gpus, c->t, c->c * c->d, RY_NCCL_ALL_REDUCE)
                      : share_of(pl, c->gpus, c->t * c->dp_in, c->dp_cross, RY_NCCL_ALL_REDUCE);
    else
        c->share_dp = 1;
    c->share_ep = pl->base.w.model.moe.experts > 0 ? ep_share(pl, c) : 1;
}

/* The expert all-to-all's inputs for configuration c (model/moe.h): one
 * stage's t c d GPUs, its MoE blocks, every token of the batch, the
 * recomputation's passes. Expert groups are folded (ep_folded): ep
 * consecutive ranks of the stage, across its tensor positions, as a stage
 * without tensor groups places them; where those do not fit, the stage's
 * data ranks at one tensor position. With c->ep 0, the larger of the two
 * placements' largest sizes, folded when equal. 0 when no expert size is
 * valid. */
static int moe_inputs(const ry_plan *pl, const ry_plan_cfg *c, int rc, long long K,
                      ry_moe_in *in)
{
    const ry_llm *l = &pl->base.w.model;
    memset(in, 0, sizeof *in);
    long long stage = c->t * c->c * c->d;
    in->N = stage;
    in->K = K < stage ? K : stage;
    in->NM = c->t;
    in->rails = pl->rails > 0 ? pl->rails : (int)pl->base.in.K;
    in->tokens = (double)c->seqs * (double)c->d * l->seq_len;
    in->d_model = l->d_model;
    in->bytes = pl->base.bytes;
    in->experts = l->moe.experts;
    in->top_k = l->moe.top_k;
    in->blocks = (int)ceil_div((long long)ry_llm_moe_blocks(l) * c->blocks, l->layers);
    in->passes = rc == RY_RECOMPUTE_FULL ? 6 : 4;
    in->B_F = nvlink_bw(pl);
    in->B_S = net_bw(pl, ep_share(pl, c));
    if (in->K < 1 || in->N % in->K || in->K % in->NM)
        in->NM = 1;
    ry_moe_in flat = *in;
    flat.NM = cfg_etp(c);
    if (c->etp > 1) {           /* folded or not at all */
        if (in->K < 1 || in->K % flat.NM)
            return 0;
        *in = flat;
        in->ep = c->ep > 0 ? c->ep : ry_moe_ep_auto(in);
        return ry_moe_ep_valid(in, in->ep);
    }
    if (c->ep > 0) {
        flat.ep = c->ep;
        if (ry_moe_ep_valid(&flat, c->ep))
            *in = flat;
        in->ep = c->ep;
        return ry_moe_ep_valid(in, c->ep);
    }
    long long e1 = ry_moe_ep_valid(in, 1) ? ry_moe_ep_auto(in) : 0;
    long long e2 = ry_moe_ep_auto(&flat);
    if (e2 >= e1)
        *in = flat;
    in->ep = e2 >= e1 ? e2 : e1;
    return in->ep >= 1;
}

/* The expert all-to-all of one iteration, per GPU, on the spec's design
 * (-1: no valid expert size); *ep_out the size. */
static double moe_time(const ry_plan *pl, const ry_plan_cfg *c, int rc, long long K,
                       long long *ep_out)
{
    if (pl->base.w.model.moe.experts <= 0)
        return 0;
    ry_moe_in in;
    ry_moe_a2a a;
    double t = moe_inputs(pl, c, rc, K, &in) ? ry_moe_a2a_time(&in, pl->base.design, &a) : -1;
    if (ep_out)
        *ep_out = t < 0 ? 0 : a.ep;
    return t;
}

int ry_plan_stages(const ry_plan *pl, ry_plan_cfg *c)
{
    const ry_workload *w = &pl->base.w;
    const ry_llm *l = &w->model;
    const ry_plan_arch *a = &pl->arch;
    long long L = l->layers, p = c->p, mtp = l->mtp_layers;
    if (p <= 1 && (w->first_stage || w->last_stage))
        return 0;               /* the split asks for stages */
    if (p <= 1) {
        c->blocks = (int)(L + mtp);
        c->first_blocks = (int)(L + mtp);
        c->logits = (int)(1 + mtp);
        return 1;
    }
    long long f = w->first_stage, g = w->last_stage;
    long long k = p - (f > 0) - (g > 0), rest = L - f - g;
    if (rest < k || (k == 0 && rest != 0) || rest < 0)
        return 0;
    long long even = k > 0 ? ceil_div(rest, k) : 0;
    c->first_blocks = (int)(f > 0 ? f : even);
    if (!f && !g && !mtp) {
        /* The busiest: ceil(l/p) blocks, and the output layer (the last
         * stage's, taken as that many blocks too). */
        c->blocks = (int)even;
        c->logits = 1;
        return 1;
    }
    /* The last stage's blocks, its MTP blocks and output layers, against
     * the others' blocks, the output layer as the FLOPs of that many
     * blocks. */
    long long last = (g > 0 ? g : even) + mtp, other = c->first_blocks;
    if (p > 2 && even > other)  /* the stages between the first and the last */
        other = even;
    double lb = a->gemm + a->attn > 0 ? a->logits / (a->gemm + a->attn) : 0;
    if ((double)last + (1 + mtp) * lb >= (double)other) {
        c->blocks = (int)last;
        c->logits = (int)(1 + mtp);
    } else {
        c->blocks = (int)other;
        c->logits = 0;
    }
    return c->blocks >= 1;
}

double ry_plan_attn_rate(const ry_plan *pl, double keys)
{
    double half = pl->base.w.gpu.attn_half, e = pl->attn_eff * pl->arch.head_factor;
    return pl->bf16_peak * (half > 0 ? e * keys / (keys + half) : e);
}

double ry_plan_cast_bytes(int recipe)
{
    switch (recipe) {
    case RY_FP8_TENSORWISE:     /* the maximum's pass, then the cast */
        return 2 + 2 + 1;
    case RY_FP8_BLOCKWISE:      /* two copies, a 4-byte scale per 128 elements each */
        return 2 + 2 * (1 + 4.0 / 128);
    case RY_FP8_MXFP8:          /* two copies, a 1-byte scale per 32 elements each */
        return 2 + 2 * (1 + 1.0 / 32);
    default:                    /* the scale known beforehand: read and write once */
        return 2 + 1;
    }
}

double ry_plan_expert_rows(const ry_plan *pl, const ry_plan_cfg *c)
{
    const ry_llm *l = &pl->base.w.model;
    if (l->moe.experts <= 0)
        return 0;
    /* The ep members' tokens of one micro-batch (each its 1/t of the
     * GEMMs' work, as the FLOPs are split), top_k copies each, over the
     * routed experts. */
    double tok = (double)l->seq_len * (double)c->mb / (double)(c->c > 0 ? c->c : 1);
    double ep = (double)(c->ep > 0 ? c->ep : 1), etp = (double)cfg_etp(c);
    /* With expert tensor parallelism each of the etp GPUs of an expert
     * takes every token routed to it, for its slice of the hidden size. */
    return tok * l->moe.top_k * ep * etp / ((double)c->t * l->moe.experts);
}

void ry_plan_eval(const ry_plan *pl, long long K, int rc, ry_plan_cfg *c)
{
    const ry_model *m = &pl->base;
    const ry_workload *w = &m->w;
    const ry_llm *l = &w->model;
    const ry_plan_arch *a = &pl->arch;
    double t = (double)c->t, cp = (double)c->c, h = l->d_model, s = l->seq_len;
    double sp = c->t > 1 && w->sequence_parallel ? t : 1;
    c->hw_flops = hw_flops(pl, rc);
    group_shares(pl, c);
    /* One micro-batch on the busiest GPU: mb sequences, split over the
     * context group, through the stage's blocks, 1/t of each GEMM. */
    double tok = s * (double)c->mb / cp;
    double blocks = c->blocks;
    double ge = 3 + extra_gemm(rc), ae = 3 + extra_attn(rc);
    /* A GEMM of few rows fills the GPU's tiles less: the rate falls as
     * rows / (rows + RY_PLAN_GEMM_ROWS). A dense GEMM's rows are the
     * micro-batch's tokens on this GPU; a routed expert's are the tokens
     * that expert sees (ry_plan_expert_rows). The experts' grouped GEMMs,
     * with the routing and permutation around them, run at a fraction of
     * a dense GEMM's rate. */
    double rate = pl->gemm_peak * pl->efficiency * tok / (tok + RY_PLAN_GEMM_ROWS);
    double gemm = tok * blocks * ge * (a->gemm - a->gemm_expert) / rate / t;
    if (a->gemm_expert > 0) {
        double ne = ry_plan_expert_rows(pl, c), k = l->moe.top_k + l->moe.shared_experts;
        double routed = a->gemm_expert * l->moe.top_k / k;
        double erate = pl->gemm_peak * pl->efficiency * RY_PLAN_EXPERT_EFFICIENCY;
        gemm += tok * blocks * ge * ((a->gemm_expert - routed) / (rate * RY_PLAN_EXPERT_EFFICIENCY)
                                     + routed / (erate * ne / (ne + RY_PLAN_GEMM_ROWS))) / t;
    }
    /* The output layer runs on the last stage (with one stage, this one). */
    gemm += tok * 3 * a->logits * c->logits / t / rate;
    double attn;
    if (w->flash_attention) {
        /* A query sees the context chunk's keys in one kernel (the ring's
         * steps), or the window's. */
        double keys = a->attn_keys / cp;
        double wkeys = a->attn_window > 0 && a->attn_window < keys ? a->attn_window : keys;
        attn = tok * blocks * ae / t * ((a->attn - a->attn_win) / ry_plan_attn_rate(pl, keys) +
                                        a->attn_win / ry_plan_attn_rate(pl, wkeys));
    } else {
        attn = tok * blocks * ae * a->attn_full / t / (pl->bf16_peak * pl->efficiency);
    }
    /* Memory-bound kernels: forward, backward (twice the traffic) and the
     * recomputed forward, 16-bit elements; FP8 adds the casts of every GEMM
     * input (ry_plan_cast_bytes). */
    double elem = a->elem_split / t + a->elem_rep / sp;
    if (!w->flash_attention)
        elem += 4 * (l->heads ? l->heads : h / 128) * s / cp / t;
    double bytes = 2 * elem * ge;
    if (w->precision == RY_PREC_FP8)
        bytes += 3 * ry_plan_cast_bytes(w->fp8_recipe) * a->gemm_inputs / t;
    double hbm = w->gpu.hbm_bytes_s > 0 ? w->gpu.hbm_bytes_s : 2e12;
    double mem = tok * blocks * bytes / hbm;
    double per_mb = gemm + attn + mem;
    /* Tensor parallel: the mcc rounds of each block (half again with full
     * recomputation's forward), 16-bit, at NVLink; the overlap hides a
     * share behind the GEMMs. */
    double tp = 0;
    if (c->t > 1) {
        double rounds = l->mcc * (rc == RY_RECOMPUTE_FULL ? 1.5 : 1);
        tp = blocks * rounds * tok * h * 2 * (t - 1) / t / nvlink_bw(pl);
    }
    double tp_hidden = tp * w->overlap_tensor;
    if (tp_hidden > gemm)
        tp_hidden = gemm;
    /* Context parallel: a ring passes every chunk's K and V (16-bit) around
     * the group forward; backward passes them again with their gradients. */
    double cpt = 0, cp_hidden = 0;
    if (c->c > 1) {
        double kvb = tok * a->kv_width * 2 / t;
        double bw = c->cp_cross ? net_bw(pl, c->share_cp) : nvlink_bw(pl);
        cpt = blocks * (cp - 1) * kvb * (1 + 2) / bw;
        cp_hidden = cpt * w->overlap_context;
        if (cp_hidden > attn)
            cp_hidden = attn;
    }
    /* The expert all-to-all of the iteration, per micro-batch. */
    double moe = 0, moe_hidden = 0;
    if (l->moe.experts > 0) {
        moe = moe_time(pl, c, rc, K, NULL) / (double)c->m;
        if (moe < 0)
            moe = 0;
        /* Expert tensor parallelism: the tokens an expert's GPUs received
         * gathered among them before its GEMMs and their outputs reduced
         * and scattered after, each pass of each MoE block (an expert's
         * GPUs are consecutive ranks: NVLink). */
        if (c->etp > 1) {
            double e = (double)c->etp;
            double mb_blocks = ceil((double)ry_llm_moe_blocks(l) * blocks / l->layers);
            double passes = rc == RY_RECOMPUTE_FULL ? 6 : 4;
            moe += mb_blocks * passes * (tok / t) * l->moe.top_k * h * 2 * (e - 1) /
                   nvlink_bw(pl);
        }
        moe_hidden = moe * w->overlap_expert;
        if (moe_hidden > per_mb)
            moe_hidden = per_mb;
    }
    double slot = per_mb + (tp - tp_hidden) + (cpt - cp_hidden) + (moe - moe_hidden);
    double M = (double)c->m;
    c->gemm_s = gemm * M;
    c->attn_s = attn * M;
    c->mem_s = mem * M;
    c->compute = per_mb * M;
    c->tp = (tp - tp_hidden) * M;
    c->cp = (cpt - cp_hidden) * M;
    c->moe = (moe - moe_hidden) * M;
    c->hidden = (tp_hidden + cp_hidden + moe_hidden) * M;
    /* The bubble: (p - 1) slots, a v-th of one with v interleaved chunks
     * (Narayanan et al. 2021, section 2.2). */
    c->bubble = c->p > 1 ? (double)(c->p - 1) / (double)c->v * slot : 0;
    /* Point to point: one activation per micro-batch and chunk boundary
     * forward, its gradient backward, split over the tensor and context
     * groups (the scatter/gather of Narayanan et al. 2021, section 4.1). */
    c->pp = 0;
    if (c->p > 1) {
        double x = tok * h * 2 / t;     /* 16-bit, FP8 runs too */
        double bw = c->p2p_cross ? net_bw(pl, c->share_pp) : nvlink_bw(pl);
        /* A middle stage sends both ways; with two stages of one chunk
         * each GPU sends one way (activations forward or gradients back). */
        double ways = c->p > 2 || c->v > 1 ? 2 : 1;
        c->pp = ways * (double)c->v * M * x / bw;
    }
    /* Data parallel: the stage's weights per GPU, reduced over their c d
     * replicas (experts over theirs), hierarchically as eq. 1 does:
     * reduce-scatter and all-gather inside the domains, then across. */
    double ep = (double)(c->ep > 0 ? c->ep : 1) * (double)cfg_etp(c);
    double phi = (a->dense_params * blocks + a->embedding) / t + a->expert_params * blocks / ep;
    double g = phi * pl->grad_bytes;
    double din = (double)c->dp_in, dx = (double)c->dp_cross, dp_in, dp_x, window;
    if (w->zero >= 3) {
        /* ZeRO-3 gathers a block's weights for its forward, again for its
         * recomputed forward and for its backward (they are released after
         * each use), and reduce-scatters its gradients, for every
         * micro-batch. Each collective spans every replica at once, block
         * by block: its bytes cross the network at one GPU's rate, not
         * spread over the domain as a hierarchical all-reduce's are. The
         * gathers hide behind the forward and backward passes, not behind
         * the recomputation that waits for them. FSDP gathers a block
         * once for its forward and once for its backward: the recomputed
         * forward runs inside the backward on the backward's gathered
         * weights, and the next block's gather hides behind both. */
        double r = din * dx;
        double gathers = 2 + (w->fsdp ? 0 : extra_gemm(rc));
        double vol = M * (gathers * 2 * phi + g) * (r - 1) / r;
        dp_in = dx > 1 ? 0 : vol / nvlink_bw(pl);
        dp_x = dx > 1 ? vol / net_bw(pl, c->share_dp) : 0;
        c->dp_x_bytes = dx > 1 ? vol : 0;
        window = w->fsdp ? per_mb * M : per_mb * M * 3 / ge;
    } else {
        double vol = 2 * g;
        dp_in = vol * (din - 1) / din / nvlink_bw(pl);
        c->dp_x_bytes = (vol / din) * (dx - 1) / dx;
        dp_x = c->dp_x_bytes / net_bw(pl, c->share_dp);
        /* The reduction runs behind the last micro-batch's backward and the
         * weights' all-gather behind the first one's forward: one slot. */
        window = per_mb;
    }
    double dp = dp_in + dp_x;
    double dp_hidden = dp * w->overlap_data;
    if (dp_hidden > window)
        dp_hidden = window;
    double keep = dp > 0 ? (dp - dp_hidden) / dp : 0;
    c->dp_in_s = dp_in * keep;
    c->dp_cross_s = dp_x * keep;
    c->hidden += dp_hidden;
    c->total = c->compute + c->tp + c->cp + c->moe + c->bubble + c->pp + c->dp_in_s +
               c->dp_cross_s;
}

int ry_plan_layout(long long K, ry_plan_cfg *c)
{
    long long tc = c->t * c->c, st = tc * c->d, r = c->c * c->d;
    if (tc % K && K % tc)
        return 0;
    c->cp_cross = tc > K;
    if (st % K == 0) {
        /* K/t tensor groups a domain, each another replica (t | K and K |
         * t r, so K/t divides r); a group wider than a domain, one. */
        c->dp_in = tc >= K ? 1 : K / c->t;
        c->dp_cross = r / c->dp_in;
        c->p2p_cross = c->p > 1;
        return 1;
    }
    if (K % st)
        return 0;
    c->dp_in = r;
    c->dp_cross = 1;
    c->p2p_cross = c->p > K / st;
    return 1;
}

/* The largest d <= dmax whose layout is kept at K: with u = K/(t c), a
 * multiple of u, or a divisor of u below it; any d when t c fills whole
 * domains. 0 when none. */
static long long fit_d(long long K, const ry_plan_cfg *c, long long dmax)
{
    long long tc = c->t * c->c;
    if (dmax < 1)
        return 0;
    if (tc % K == 0)
        return dmax;
    long long u = K / tc;
    if (dmax >= u)
        return dmax - dmax % u;
    for (long long d = dmax; d >= 1; d--)
        if (u % d == 0)
            return d;
    return 0;
}

/* The largest divisor of B that is at most dmax and kept at K (the
 * replicas then share the batch evenly), from B's divisors in descending
 * order. 0 when none. */
static long long fit_d_even(long long K, ry_plan_cfg *c, long long dmax, const long long *divs,
                            int ndivs)
{
    for (int i = 0; i < ndivs; i++) {
        if (divs[i] > dmax)
            continue;
        c->d = divs[i];
        if (ry_plan_layout(K, c))
            return divs[i];
    }
    return 0;
}

/* Tries c with every micro-batch size, chunk count and recomputation the
 * workload allows; keeps the fastest that fits. */
static int same_shape(const ry_plan_cfg *a, const ry_plan_cfg *b)
{
    return a->t == b->t && a->c == b->c && a->p == b->p && a->d == b->d && a->ep == b->ep;
}

/* c among the fastest shapes (pl->top), if it is. */
static void top_keep(ry_plan *pl, const ry_plan_cfg *c)
{
    int i = 0;
    while (i < pl->ntop && !same_shape(&pl->top[i], c))
        i++;
    if (i < pl->ntop) {
        if (!(c->total < pl->top[i].total * (1 - 1e-9)))
            return;
        memmove(&pl->top[i], &pl->top[i + 1], (size_t)(pl->ntop - i - 1) * sizeof *pl->top);
        pl->ntop--;
    }
    int at = pl->ntop;
    while (at > 0 && c->total < pl->top[at - 1].total * (1 - 1e-9))
        at--;
    if (at >= RY_PLAN_TOP)
        return;
    int n = pl->ntop < RY_PLAN_TOP ? pl->ntop : RY_PLAN_TOP - 1;
    memmove(&pl->top[at + 1], &pl->top[at], (size_t)(n - at) * sizeof *pl->top);
    pl->top[at] = *c;
    if (pl->ntop < RY_PLAN_TOP)
        pl->ntop++;
}

static void try_cfg(ry_plan *pl, long long K, ry_plan_cfg *c, ry_plan_cfg *best, int *found,
                    ry_plan_cfg *least, int *any)
{
    const ry_workload *w = &pl->base.w;
    const ry_llm *l = &w->model;
    c->seqs = ceil_div(w->batch, c->d);
    if (!ry_plan_stages(pl, c))
        return;
    c->gpus = c->t * c->c * c->p * c->d;
    /* Expert groups inside a stage; auto: as many experts spread as the
     * placement allows. */
    c->ep = 1;
    c->etp = w->expert_tensor > 1 ? w->expert_tensor : 1;
    if (l->moe.experts > 0) {
        long long ep = 0;
        ry_plan_cfg x = *c;
        x.ep = w->expert;
        x.m = 1;
        x.mb = 1;
        if (moe_time(pl, &x, RY_RECOMPUTE_NONE, K, &ep) < 0 || ep < 1)
            return;
        c->ep = ep;
    }
    for (long long mb = w->micro_batch ? w->micro_batch : 1; mb <= c->seqs; mb *= 2) {
        c->mb = mb;
        c->m = ceil_div(c->seqs, mb);
        for (long long v = 1; v <= (c->p > 1 ? c->blocks : 1); v++) {
            if (w->virtual_stages ? v != w->virtual_stages
                                  : (v > 1 && (c->blocks % v || c->m % c->p || v > 8)))
                continue;
            c->v = v;
            static const int order[] = { RY_RECOMPUTE_NONE, RY_RECOMPUTE_SELECTIVE,
                                         RY_RECOMPUTE_FULL };
            for (int i = 0; i < 3; i++) {
                int rc = w->recompute_given ? w->recompute : order[i];
                if (w->recompute_given && i)
                    break;
                ry_plan_mem mem;
                ry_plan_memory(pl, c, rc, &mem);
                pl->considered++;
                if (least && (!*any || mem.total < least->mem.total)) {
                    *least = *c;
                    least->mem = mem;
                }
                *any = 1;
                if (!mem.feasible)
                    continue;
                pl->fit++;
                c->mem = mem;
                ry_plan_eval(pl, K, rc, c);
                if (pl->collect_top) {
                    /* its time on the fabric's ends alone: the same where
                     * every share is 1 already */
                    ry_plan_cfg lb = *c;
                    if (c->share_cp < 1 || c->share_pp < 1 || c->share_dp < 1 ||
                        c->share_ep < 1) {
                        pl->shares_one = 1;
                        ry_plan_eval(pl, K, rc, &lb);
                        pl->shares_one = 0;
                    }
                    top_keep(pl, &lb);
                }
                if (!*found || c->total < best->total * (1 - 1e-9) ||
                    (c->total <= best->total * (1 + 1e-9) && c->gpus < best->gpus)) {
                    *best = *c;
                    *found = 1;
                }
                break;
            }
        }
        if (w->micro_batch)
            break;
    }
}

int ry_plan_search(ry_plan *pl, long long K, ry_plan_cfg *best, ry_plan_cfg *least)
{
    const ry_workload *w = &pl->base.w;
    const ry_llm *l = &w->model;
    long long N = pl->base.in.N, B = w->batch;
    int found = 0, any = 0;
    if (least)
        memset(least, 0, sizeof *least);
    /* B's divisors up to N, largest first. */
    int ndivs = 0, cap = 64;
    long long *divs = ry_xcalloc((size_t)cap, sizeof *divs), *hi = NULL;
    int nhi = 0;
    hi = ry_xcalloc((size_t)cap, sizeof *hi);
    for (long long x = 1; x * x <= B; x++) {
        if (B % x)
            continue;
        if (ndivs == cap || nhi == cap) {
            cap *= 2;
            divs = ry_xrealloc(divs, (size_t)cap * sizeof *divs);
            hi = ry_xrealloc(hi, (size_t)cap * sizeof *hi);
        }
        divs[ndivs++] = x;
        if (x != B / x)
            hi[nhi++] = B / x;
    }
    /* Descending: the large cofactors in the order found, then the small
     * divisors reversed. */
    long long *all = ry_xcalloc((size_t)(ndivs + nhi) + 1, sizeof *all);
    int n = 0;
    for (int i = 0; i < nhi; i++)
        all[n++] = hi[i];
    for (int i = ndivs - 1; i >= 0; i--)
        all[n++] = divs[i];
    free(divs);
    free(hi);
    divs = all;
    ndivs = n;
    for (long long t = 1; t <= K && t <= N; t++) {
        if (K % t || (w->tensor && t != w->tensor))
            continue;
        /* Megatron splits heads over the tensor group. */
        if (!w->tensor && l->heads && l->heads % t)
            continue;
        for (long long cp = 1; t * cp <= N; cp *= 2) {
            if (w->context ? cp != w->context : (l->seq_len % cp || cp > 64))
                continue;
            if (!(K % (t * cp) == 0 || (t * cp) % K == 0))
                continue;
            for (long long p = 1; p <= l->layers && t * cp * p <= N; p++) {
                if (w->pipeline && p != w->pipeline)
                    continue;
                long long dmax = N / (t * cp * p);
                if (dmax > B)
                    dmax = B;
                if (w->data) {
                    if (w->data > dmax)
                        continue;
                    dmax = w->data;
                }
                ry_plan_cfg c;
                memset(&c, 0, sizeof c);
                c.t = t;
                c.c = cp;
                c.p = p;
                long long tried = 0;
                for (int even = 0; even < 2; even++) {
                    long long d = w->data ? (even ? 0 : dmax)
                                  : even ? fit_d_even(K, &c, dmax, divs, ndivs)
                                         : fit_d(K, &c, dmax);
                    if (d < 1 || d == tried)
                        continue;
                    tried = d;
                    c.d = d;
                    if (!ry_plan_layout(K, &c))
                        continue;
                    try_cfg(pl, K, &c, best, &found, least, &any);
                }
            }
        }
    }
    free(divs);
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
        } else if (i == FREE && (w->tensor || w->pipeline || w->micro_batch || w->context ||
                                 w->virtual_stages || w->data)) {
            xw->tensor = xw->pipeline = xw->micro_batch = 0;
            xw->context = xw->virtual_stages = xw->data = 0;
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
        gb(&msg, least->mem.capacity > 0 ? least->mem.capacity : w->gpu.memory_bytes);
        ry_buf_printf(&msg, " (%.0f GB HBM, in GiB)", w->gpu.memory_bytes / 1e9);
        int rc = least->mem.recompute;
        ry_buf_printf(&msg, ": the least is TP %lld x CP %lld x PP %lld x DP %lld %s%s "
                      "recomputation and ZeRO stage %d, ", least->t, least->c, least->p,
                      least->d, rc == RY_RECOMPUTE_NONE ? "without" : "with ",
                      rc == RY_RECOMPUTE_NONE ? "" : ry_recompute_names[rc], w->zero);
        gb(&msg, least->mem.total);
        ry_buf_puts(&msg, " per GPU (weights ");
        gb(&msg, least->mem.weights);
        ry_buf_puts(&msg, ", gradients ");
        gb(&msg, least->mem.grads);
        ry_buf_puts(&msg, ", optimizer ");
        gb(&msg, least->mem.optimizer);
        ry_buf_puts(&msg, ", activations ");
        gb(&msg, least->mem.activations);
        if (least->mem.gather > 0) {
            ry_buf_puts(&msg, ", ZeRO-3 gather buffers ");
            gb(&msg, least->mem.gather);
        }
        ry_buf_puts(&msg, ", reserve ");
        gb(&msg, least->mem.reserve);
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
    c->c = 1;
    c->v = 1;
    c->ep = pl->base.has_moe && pl->base.moe.ep > 1 ? pl->base.moe.ep : 1;
    c->d = pl->base.in.N / t->NM;
    c->gpus = pl->base.in.N;
    c->dp_in = t->NDs;
    c->dp_cross = t->NDf;
    c->seqs = ceil_div(w->batch, c->d);
    c->mb = w->micro_batch && w->micro_batch <= c->seqs ? w->micro_batch : 1;
    c->m = ceil_div(c->seqs, c->mb);
    c->blocks = w->model.layers;
    c->logits = 1;
    c->compute = t->compute;
    c->gemm_s = t->compute;
    c->tp = t->tp;
    c->dp_in_s = t->dp_in;
    c->dp_cross_s = t->dp_cross;
    c->total = t->total;
    c->hw_flops = pl->base.hw_flops;
    ry_plan_memory(pl, c, w->recompute, &c->mem);
}

/* The chosen configuration as eq. 1's terms (compute with the bubble,
 * tensor parallel with the point-to-point and the context ring, the expert
 * all-to-all with it), for what reads a ry_model. */
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
    t->tp = c->tp + c->pp + c->cp + c->moe;
    t->total = c->total;
}

/* The expert all-to-all of the chosen configuration into the model's MoE
 * report (ry_emit_moe_text): the stage's placement, its expert size, the
 * recomputation chosen. */
static void plan_moe(const ry_spec *s, ry_plan *pl)
{
    ry_model *m = &pl->base;
    const ry_plan_cfg *c = &pl->best;
    m->has_moe = 0;
    if (m->w.model.moe.experts <= 0 ||
        !moe_inputs(pl, c, c->mem.recompute, m->in.K, &m->moe_in))
        return;
    double t = ry_moe_a2a_time(&m->moe_in, s->design, &m->moe);
    m->has_moe = t >= 0;
    m->moe_s = t;
}

/* A fixed expert size that no layout places (no configuration was even
 * considered, and one is without the fixed size): refused at its key with
 * the largest size that some layout places. 0 when that is not the case. */
static int ep_unplaced(const ry_spec *s, const ry_plan *pl, const ry_plan_cfg *least)
{
    const ry_workload *w = &pl->base.w;
    if (!w->expert || least->t)
        return 0;
    ry_plan x = *pl;
    ry_plan_cfg c, lx;
    long long E = w->model.moe.experts, fits = 0;
    for (long long e = E; e >= 1 && !fits; e--) {
        if (E % e)
            continue;
        x.base.w.expert = (int)e;
        ry_plan_search(&x, pl->base.in.K, &c, &lx);
        fits = lx.t ? e : 0;
    }
    if (!fits)
        return 0;
    ry_spec_error(s, "workload.parallelism.expert", "workload.parallelism.expert (%d) must "
                  "divide the %lld routed experts and the GPUs of one pipeline stage (tensor x "
                  "context x data), and no layout with the sizes the workload fixes has such a "
                  "stage; the largest size that fits is %lld", w->expert, E, fits);
    return 1;
}

/* The model's inputs, peaks and efficiencies, and the workload's block,
 * for the full model; the fabric's shares are the caller's. */
static void plan_inputs(const ry_spec *s, ry_plan *pl)
{
    ry_model_inputs(s, &pl->base);
    const ry_workload *w = &pl->base.w;
    const ry_gpu *g = &w->gpu;
    int fp8 = w->precision == RY_PREC_FP8;
    pl->bf16_peak = g->bf16_flops;
    pl->gemm_peak = fp8 ? g->fp8_flops : g->bf16_flops;
    double ge = g->gemm_eff > 0 ? g->gemm_eff : RY_PLAN_GEMM_EFFICIENCY;
    if (fp8 && g->gemm_eff_fp8 > 0)
        ge = g->gemm_eff_fp8;
    pl->efficiency = w->efficiency_given ? w->efficiency : ge;
    pl->attn_eff = g->attn_eff > 0 ? g->attn_eff : RY_PLAN_ATTN_EFFICIENCY;
    pl->grad_bytes = w->grad_precision == RY_GRAD_FP32 ? 4 : 2;
    ry_plan_arch_init(pl);
}

/* What follows from the chosen configuration: MFU, tokens, the terms. */
static void finish(const ry_spec *s, ry_plan *pl)
{
    const ry_workload *w = &pl->base.w;
    const ry_gpu *g = &w->gpu;
    int fp8 = w->precision == RY_PREC_FP8;
    const ry_plan_cfg *b = &pl->best;
    double T = b->total, used = (double)b->gpus;
    pl->mfu = pl->arch.model_flops / (used * pl->bf16_peak * T);
    pl->hfu = b->hw_flops / (used * pl->bf16_peak * T);
    if (fp8)
        pl->mfu_fp8 = pl->arch.model_flops / (used * g->fp8_flops * T);
    pl->base.model_flops = pl->arch.model_flops;
    pl->relative = pl->ideal_ok ? pl->ideal.total / T : 0;
    pl->tokens_per_s = pl->base.in.b / T;
    /* The published figure is a BF16 run's: an FP8 run compares its MFU
     * against the FP8 peak with it. */
    pl->mfu_unpublished = (fp8 ? pl->mfu_fp8 : pl->mfu) > RY_PLAN_MFU_PUBLISHED;
    cfg_terms(&pl->best, pl->base.in.K, &pl->base.best);
    plan_moe(s, pl);
}

int ry_plan_net_init(ry_plan_net *pn, const ry_fabric *f, ry_err *err)
{
    memset(pn, 0, sizeof *pn);
    const ry_spec *s = f->spec;
    ry_net_opts o;
    ry_net_opts_default(&o);
    o.routing = (ry_net_routing)s->net.routing;
    o.qps = s->net.qps > 0 ? s->net.qps : 1;
    o.hash_qp = s->net.hash_qp;
    o.per_switch_seed = !s->net.same_seed;
    if (s->workload && s->workload->gpu.nvlink_gbps > 0)      /* each way: half of both */
        o.nvlink_bytes_s = s->workload->gpu.nvlink_gbps * 1e9 / 8 / 2;
    int scattered = 0;
    unsigned long long seed = 0;
    if (s->net.placement[0] && ry_spec_placement_parse(s->net.placement, &scattered, &seed) < 0)
        scattered = 0;
    pn->net = ry_net_new(f, &o, err);
    if (!pn->net)
        return -1;
    if (ry_job_place(f, (size_t)f->gpus, scattered ? RY_PLACE_SCATTERED : RY_PLACE_CONTIGUOUS,
                     seed, &pn->job, err) < 0) {
        ry_net_free(pn->net);
        pn->net = NULL;
        return -1;
    }
    return 0;
}

void ry_plan_net_free(ry_plan_net *pn)
{
    if (!pn)
        return;
    ry_job_free(&pn->job);
    ry_net_free(pn->net);
    pn->net = NULL;
}

int ry_plan_fastest(const ry_spec *s, ry_plan *pl, double *total)
{
    memset(pl, 0, sizeof *pl);
    if (!s->workload || ry_workload_check_fit(s) < 0)
        return -1;
    plan_inputs(s, pl);
    /* every port at the NIC's own speed, and no block or taper: a share
     * of 1 for every collective */
    double nic = s->node.nic_gbps * s->planes * 1e9 / 8;
    if (nic > pl->base.in.B_S)
        pl->base.in.B_S = nic;
    pl->net_share = 1;
    pl->n_blocks = 0;
    if (ry_plan_search(pl, pl->base.in.K, &pl->best, NULL) < 0)
        return -1;
    *total = pl->best.total;
    return 0;
}

/* collect: keep the fastest shapes on the fabric's ends alone (pl->top)
 * for the engine to time (compute_on). */
static int compute(const ry_spec *s, int paper, int ideal, int collect, ry_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->paper = paper;
    if (paper) {
        if (ry_model_compute(s, &pl->base) < 0)
            return -1;
        pl->efficiency = pl->base.w.efficiency;
        pl->grad_bytes = pl->base.bytes;
        ry_plan_arch_init(pl);
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
    plan_inputs(s, pl);
    /* Traffic spread over the cluster gets what the tapers above its leaf
     * groups and pods leave (a 1:7 aggregation tier: a seventh), the share
     * reported; each collective gets what its groups load of the blocks'
     * uplinks (ry_plan_group_share, from the fabric's blocks). */
    pl->net_share = ry_spec_fabric_share(s, s->gpus, &pl->net_tier);
    pl->n_blocks = ry_spec_fabric_blocks(s, pl->blocks);
    ry_plan_cfg least;
    pl->collect_top = collect;
    int found = ry_plan_search(pl, pl->base.in.K, &pl->best, &least);
    pl->collect_top = 0;
    if (found < 0)
        return ep_unplaced(s, pl, &least) ? -1 : no_fit(s, pl, &least);
    long long considered = pl->considered, fit = pl->fit;
    pl->ideal_ok = ideal && ry_plan_search(pl, pl->base.in.N, &pl->ideal, NULL) == 0;
    pl->considered = considered;
    pl->fit = fit;
    finish(s, pl);
    return 0;
}

int ry_plan_compute(const ry_spec *s, int paper, ry_plan *pl)
{
    return compute(s, paper, 1, 0, pl);
}

static int compute_on(const ry_spec *s, ry_plan_net *pn, int ideal, ry_plan *pl)
{
    if (compute(s, 0, ideal, pn != NULL, pl) < 0)
        return -1;
    if (!pn)
        return 0;
    pl->net = pn;
    pl->analytic = pl->best;
    long long K = pl->base.in.K;
    /* The analytic shares' choice on the engine; then the layouts fastest
     * on the fabric's ends alone (every share 1: a lower bound of any
     * fabric's time, the same at every taper), one a shape, in that order
     * while the bound beats the fastest engine time so far. The fastest on
     * the engine is the layout. */
    ry_plan_cfg chosen = pl->best;
    pn->active = 1;
    ry_plan_eval(pl, K, chosen.mem.recompute, &chosen);
    for (int i = 0; i < pl->ntop; i++) {
        const ry_plan_cfg *x = &pl->top[i];
        if (same_shape(x, &pl->analytic) && x->v == pl->analytic.v &&
            x->mb == pl->analytic.mb && x->mem.recompute == pl->analytic.mem.recompute)
            continue;
        if (!(x->total < chosen.total * (1 - 1e-9)))
            break;
        /* the bound again with the shares the engine already gave */
        ry_plan_cfg e = *x;
        pl->shares_one = 2;
        ry_plan_eval(pl, K, x->mem.recompute, &e);
        pl->shares_one = 0;
        if (!(e.total < chosen.total * (1 - 1e-9)))
            continue;
        e = *x;
        pl->reranked++;
        ry_plan_eval(pl, K, x->mem.recompute, &e);
        if (e.total < chosen.total * (1 - 1e-9))
            chosen = e;
    }
    pn->active = 0;
    if (!same_shape(&chosen, &pl->analytic)) {
        pl->analytic = chosen;      /* its analytic time: the engine inactive */
        ry_plan_eval(pl, K, chosen.mem.recompute, &pl->analytic);
    }
    pl->best = chosen;
    pn->active = 1;
    /* the expert all-to-all's own report (plan_moe) with the engine's share
     * of its groups, the one the iteration has (remembered: no phase runs) */
    finish(s, pl);
    pn->active = 0;
    return 0;
}

int ry_plan_compute_on(const ry_spec *s, ry_plan_net *pn, ry_plan *pl)
{
    return compute_on(s, pn, 1, pl);
}

int ry_plan_compute_layout(const ry_spec *s, ry_plan_net *pn, ry_plan *pl)
{
    return compute_on(s, pn, 0, pl);
}

void ry_plan_time_on(const ry_plan *pl, ry_plan_net *pn, ry_plan_cfg *out)
{
    ry_plan *q = ry_xmalloc(sizeof *q);
    *q = *pl;
    q->net = pn;
    pn->active = 1;
    pn->nmemo = 0;
    pn->asked = pn->fallback = pn->unrouted = 0;
    pn->flows = 0;
    pn->why[0] = pn->unrouted_why[0] = '\0';
    *out = pl->best;
    ry_plan_eval(q, q->base.in.K, pl->best.mem.recompute, out);
    pn->active = 0;
    free(q);
}

void ry_plan_parallelism(const ry_plan *pl, ry_parallelism *out)
{
    memset(out, 0, sizeof *out);
    out->tp = pl->best.t;
    out->pp = pl->best.p;
    out->dp = pl->best.d;
    out->cp = pl->best.c > 1 ? pl->best.c : 1;
    out->vp = pl->best.v > 1 ? pl->best.v : 1;
    out->idle = pl->best.gpus > 0 && pl->best.gpus < pl->base.in.N ? pl->base.in.N - pl->best.gpus
                                                                    : 0;
    out->ep = pl->paper ? (pl->base.has_moe && pl->base.moe.ep > 1 ? pl->base.moe.ep : 1)
                        : (pl->best.ep > 1 ? pl->best.ep : 1);
    out->etp = !pl->paper && pl->best.etp > 1 ? pl->best.etp : 1;
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
    /* Before and after on the same footing: the rerun below takes the
     * analytic shares (no engine), so the healthy time is taken so too; a
     * configuration timed on the flow engine (a tapered fabric) would
     * otherwise seem to speed up when a switch fails. */
    ry_plan h = *pl;
    h.net = NULL;
    ry_plan_cfg b = *c;
    ry_plan_eval(&h, K, c->mem.recompute, &b);
    c = &b;
    cfg_terms(c, K, &d->before);
    d->bs_before = pl->base.in.B_S;
    d->bs_after = pl->base.in.B_S * bs_ratio;
    d->v_bytes = c->dp_x_bytes;
    int crosses = c->dp_cross > 1 || (c->p > 1 && c->p2p_cross);
    if (crosses && bs_ratio <= 0) {
        d->stalled = 1;
        d->after = d->before;
        d->after.dp_cross = d->after.total = INFINITY;
        d->slowdown = INFINITY;
        return;
    }
    ry_plan q = h;
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
