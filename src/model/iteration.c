/* The iteration-time model (see iteration.h and doc/llm-model.md). */
#include "model/iteration.h"

#include <math.h>
#include <string.h>

#include "util/diag.h"

void ry_iter_eval(const ry_iter_in *in, long long K, long long NM, ry_iter_terms *t)
{
    double N = (double)in->N;
    memset(t, 0, sizeof *t);
    t->K = K;
    t->NM = NM;
    t->NDs = K / NM;
    t->NDf = in->N / K;
    t->compute = in->M_flop / (N * in->C);
    t->dp_cross = in->layers * 2 * in->S_T * (double)(t->NDf - 1) / (N * in->B_S);
    t->dp_in = in->layers * 2 * in->S_T * (double)(t->NDs - 1) / ((double)K * in->B_F);
    t->tp = in->layers * in->M_cc * in->b * in->d_model * (double)(NM - 1) / (N * in->B_F);
    t->total = t->compute + t->dp_cross + t->dp_in + t->tp;
}

int ry_iter_valid(const ry_iter_in *in, long long K, long long NM)
{
    if (K < 1 || NM < 1 || in->N % K || K % NM)
        return 0;
    return in->batch <= 0 || in->N / NM <= in->batch;
}

int ry_iter_best(const ry_iter_in *in, long long K, long long forced, ry_iter_terms *t)
{
    if (forced > 0) {
        if (!ry_iter_valid(in, K, forced))
            return -1;
        ry_iter_eval(in, K, forced, t);
        return 0;
    }
    int found = 0;
    ry_iter_terms x;
    /* Divisors in pairs up to sqrt(K). */
    for (long long d = 1; d * d <= K; d++) {
        if (K % d)
            continue;
        long long pair[2] = { d, K / d };
        for (int i = 0; i < (pair[0] == pair[1] ? 1 : 2); i++) {
            if (!ry_iter_valid(in, K, pair[i]))
                continue;
            ry_iter_eval(in, K, pair[i], &x);
            if (!found || x.total < t->total || (x.total == t->total && x.NM < t->NM)) {
                *t = x;
                found = 1;
            }
        }
    }
    return found ? 0 : -1;
}

double ry_iter_eq2(const ry_iter_in *in)
{
    return sqrt((double)in->N * in->S_T) / (2 * sqrt(in->b * in->M_cc * in->d_model));
}

double ry_iter_nm_continuous(const ry_iter_in *in)
{
    return sqrt(2 * (double)in->N * in->S_T / (in->b * in->M_cc * in->d_model));
}

void ry_model_inputs(const ry_spec *s, ry_model *m)
{
    memset(m, 0, sizeof *m);
    RY_ASSERT(s->workload != NULL);
    m->w = *s->workload;
    m->design = s->design;
    const ry_workload *w = &m->w;
    const ry_llm *l = &w->model;
    m->bytes = ry_precision_bytes(w->precision);
    m->peak_flops = w->precision == RY_PREC_FP8 ? w->gpu.fp8_flops : w->gpu.bf16_flops;
    /* A mixture of experts computes with the parameters a token goes through. */
    double P = l->moe.experts > 0 ? l->moe.active_parameters : l->parameters, b = (double)w->tokens, h = l->d_model, L = l->layers;
    double sq = l->seq_len, V = l->vocab, B = (double)w->batch;
    if (w->flops == RY_FLOPS_KORTHIKANTI)
        m->model_flops = 72 * B * L * sq * h * h * (1 + sq / (6 * h) + V / (12 * h * L));
    else
        m->model_flops = 6 * P * b;
    /* Full recomputation runs the forward pass twice: a forward pass is a
     * third of the forward + backward FLOPs. */
    m->hw_flops = m->model_flops * (w->recompute == RY_RECOMPUTE_FULL ? 4.0 / 3.0 : 1.0);
    /* A NIC faster than the switch port links at the port's speed
     * (fabric.accept_slower_ports), as every output cables it. */
    double link = s->node.nic_gbps, leaf = ry_spec_leaf_gbps(s);
    if (leaf > 0 && leaf < link)
        link = leaf;
    m->nic_gbps = link * s->planes;

    ry_iter_in *in = &m->in;
    in->N = s->gpus;
    in->K = s->hb_domain;
    in->layers = L;
    in->d_model = h;
    in->S_T = 12 * h * h * m->bytes;
    in->b = b;
    in->M_cc = (double)l->mcc * m->bytes;
    in->M_flop = m->hw_flops;
    in->C = m->peak_flops * w->efficiency;
    in->B_F = w->gpu.nvlink_gbps * 1e9 / 8;
    in->B_S = m->nic_gbps * 1e9 / 8;
    in->batch = w->batch;
}

int ry_model_check_spec(const ry_spec *s)
{
    if (ry_workload_check_fit(s) < 0)
        return -1;
    if (!s->workload) {
        ry_spec_error(s, "workload", "the spec has no workload section: add one with at least "
                      "`workload: {model: gpt-3-175b}` (see railyard-spec(5))");
        return -1;
    }
    double leaf = ry_spec_leaf_gbps(s);
    if (s->node.nic_gbps > leaf && !s->accept_slower_ports) {
        ry_spec_error(s, s->n_tier ? "fabric.tiers.0.down" : "fabric.switch",
                      "the GPU NICs run at %gG but the switch ports at %gG: "
                      "choose a switch of %gG ports, or set fabric.accept_slower_ports: true "
                      "to model the %gG links", s->node.nic_gbps, leaf,
                      s->node.nic_gbps, leaf);
        return -1;
    }
    return 0;
}

int ry_model_compute(const ry_spec *s, ry_model *m)
{
    if (ry_model_check_spec(s) < 0)
        return -1;
    if (ry_workload_check_paper_fit(s) < 0)
        return -1;
    ry_model_inputs(s, m);
    const ry_iter_in *in = &m->in;
    if (ry_iter_best(in, in->K, m->w.tensor, &m->best) < 0 ||
        ry_iter_best(in, in->N, m->w.tensor, &m->ideal) < 0) {
        /* The spec reader rules this out; kept for specs built in code. */
        ry_spec_error(s, "workload", "no tensor-parallel size divides the HB domain %lld and "
                      "leaves every one of the %lld replicas a sequence", in->K, in->N);
        return -1;
    }
    m->eq2 = ry_iter_eq2(in);
    m->nm_cont = ry_iter_nm_continuous(in);
    m->relative = m->ideal.total / m->best.total;
    double cap = (double)in->N * m->peak_flops * m->best.total;
    m->mfu = m->model_flops / cap;
    m->hfu = m->hw_flops / cap;
    m->tokens_per_s = in->b / m->best.total;
    return ry_moe_for_model(s, m);
}

void ry_iter_degrade(const ry_model *m, double bs_ratio, double fwd_max, double fwd_sum,
                     ry_iter_degraded *d)
{
    memset(d, 0, sizeof *d);
    ry_iter_in in = m->in;
    d->before = m->best;
    d->bs_before = in.B_S;
    d->v_bytes = in.layers * 2 * in.S_T * (double)(m->best.NDf - 1) / (double)in.N;
    d->bs_after = in.B_S * bs_ratio;
    if (m->best.NDf > 1 && bs_ratio <= 0) {
        d->stalled = 1;
        d->after = m->best;
        d->after.dp_cross = d->after.total = INFINITY;
        d->slowdown = INFINITY;
        return;
    }
    if (bs_ratio > 0)
        in.B_S = d->bs_after;
    ry_iter_eval(&in, m->best.K, m->best.NM, &d->after);
    d->fwd_bytes_max = 2 * fwd_max * d->v_bytes;
    d->fwd_bytes_total = 2 * fwd_sum * d->v_bytes;
    d->nvlink_s = in.B_F > 0 ? d->fwd_bytes_max / in.B_F : 0;
    d->after.total += d->nvlink_s;
    d->slowdown = d->before.total > 0 ? d->after.total / d->before.total : 1;
}
