/* The model, sweeps and traffic as text, JSON, CSV and gnuplot scripts. */
#include "emit/model/emit_model.h"
#include "emit/model/emit_parallelism.h"
#include "emit/model/emit_moe.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "emit/format.h"
#include "emit/tier_text.h"
#include "util/numfmt.h"
#include "fabric/names.h"
#include "util/diag.h"
#include "util/escape.h"

static const char *conv_name(ry_flops_conv c)
{
    return c == RY_FLOPS_KORTHIKANTI ? "korthikanti" : "6NT";
}

/* Money as "$1,234,567". */
/* A time for the text reports: seconds to 4 significant digits ("6.109 s",
 * "85.9 ms"); one buffer per argument. */
static const char *secs(char *buf, double t) { return ry_num_si(buf, RY_NUM_CAP, t, "s", 4); }

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0; }

/* ---- model ----------------------------------------------------------------------------- */

static void terms_text(ry_buf *o, const ry_iter_terms *t)
{
    static const char *const what[] = { "compute", "data parallel across domains (network)",
                                        "data parallel inside domains (NVLink)",
                                        "tensor parallel (NVLink)" };
    double v[] = { t->compute, t->dp_cross, t->dp_in, t->tp };
    char b[RY_NUM_CAP];
    for (int i = 0; i < 4; i++)
        ry_buf_printf(o, "  %-38s %12s %7.1f%%\n", what[i], secs(b, v[i]), pct(v[i], t->total));
}

static void cost_text(ry_buf *o, const ry_spec *s, const ry_model *m, double tokens_per_s,
                      const ry_designs_capex *c);

static void model_text(ry_buf *o, const ry_spec *s, const ry_model *m, const ry_designs_capex *c)
{
    const ry_workload *w = &m->w;
    const ry_llm *l = &w->model;
    const ry_iter_in *in = &m->in;
    const ry_iter_terms *t = &m->best;
    char nb[RY_NUM_CAP];
    ry_buf_printf(o, "%s: %s on %s GPUs, %s HB domain%s of %s (%s), %s, %d plane%s\n\n",
                  s->name, l->name, ry_n(in->N), ry_n(in->N / in->K), in->N == in->K ? "" : "s",
                  ry_n(in->K),
                  s->node.name,
                  ry_design_name(s->design), s->planes, s->planes == 1 ? "" : "s");
    ry_buf_puts(o, "Workload (the rail-only paper's iteration-time model, its eq. 1; --paper)\n");
    ry_buf_printf(o, "  model       %s: %s parameters, %d blocks, d_model %s, ", l->name,
                  ry_num_sig(nb, sizeof nb, l->parameters, 4), l->layers, ry_n(l->d_model));
    if (l->heads)
        ry_buf_printf(o, "%d heads, ", l->heads);
    ry_buf_printf(o, "sequence %s, vocabulary %s, %d tensor-parallel collective rounds per "
                  "block\n", ry_n(l->seq_len), ry_n(l->vocab), l->mcc);
    ry_buf_printf(o, "  batch       %s sequences x %s = %s tokens per iteration\n", ry_n(w->batch),
                  ry_n(l->seq_len), ry_n(w->tokens));
    ry_buf_printf(o, "  precision   %s, %d byte%s per element (gradients and activations)\n",
                  ry_precision_name(w->precision), m->bytes, m->bytes == 1 ? "" : "s");
    ry_buf_printf(o, "  gpu         %s%s: %.4g TFLOP/s dense %s, NVLink %s Gb/s\n", w->gpu.name,
                  w->gpu_inferred ? " (from the node)" : "", m->peak_flops / 1e12,
                  w->precision == RY_PREC_FP8 ? "FP8" : "BF16/FP16",
                  ry_num_sig(nb, sizeof nb, w->gpu.nvlink_gbps, 4));
    ry_buf_printf(o, "  FLOPs       %s%s, compute efficiency %.3g\n\n",
                  w->flops == RY_FLOPS_6NT ? "6 x parameters x tokens"
                                           : "Korthikanti et al.: 72 B l s h^2 (1 + s/6h + "
                                             "V/12hl)",
                  w->recompute == RY_RECOMPUTE_FULL ? ", full recomputation (x 4/3)"
                  : w->recompute == RY_RECOMPUTE_SELECTIVE ? ", selective recomputation (no "
                                                             "FLOPs counted in the paper's eq. 1)"
                                                           : ", no recomputation",
                  w->efficiency);

    char v1[RY_NUM_CAP], v2[RY_NUM_CAP];
    ry_buf_puts(o, "Inputs of eq. 1 (GPUs = tensor parallel x data parallel inside a domain x "
                   "across domains)\n");
    ry_buf_printf(o, "  %-38s %s\n", "GPUs", ry_n(in->N));
    ry_buf_printf(o, "  %-38s %s\n", "GPUs per HB domain", ry_n(in->K));
    ry_buf_printf(o, "  %-38s %s\n", "transformer blocks", ry_n((long long)in->layers));
    ry_buf_printf(o, "  %-38s %s\n", "d_model", ry_n((long long)in->d_model));
    ry_buf_printf(o, "  %-38s %s: 12 x d_model^2 x %d B\n", "one block's gradients",
                  ry_num_si(v1, sizeof v1, in->S_T, "B", 4), m->bytes);
    ry_buf_printf(o, "  %-38s %s\n", "tokens per iteration", ry_n((long long)in->b));
    ry_buf_printf(o, "  %-38s %s: %d rounds x %d B\n", "tensor-parallel bytes per token, block",
                  ry_num_si(v1, sizeof v1, in->M_cc, "B", 4), l->mcc, m->bytes);
    ry_buf_printf(o, "  %-38s %s (model FLOPs %s)\n", "FLOPs per iteration executed",
                  ry_num_si(v1, sizeof v1, in->M_flop, "FLOP", 4),
                  ry_num_si(v2, sizeof v2, m->model_flops, "FLOP", 4));
    ry_buf_printf(o, "  %-38s %s: peak x efficiency\n", "compute per GPU",
                  ry_num_si(v1, sizeof v1, in->C, "FLOP/s", 4));
    ry_buf_printf(o, "  %-38s %s: NVLink %s Gb/s of the %s\n", "NVLink (HB domain) bandwidth per GPU",
                  ry_num_si(v1, sizeof v1, in->B_F, "B/s", 4),
                  ry_num_sig(v2, sizeof v2, w->gpu.nvlink_gbps, 4), w->gpu.name);
    ry_buf_printf(o, "  %-38s %s: NIC %s Gb/s x %d plane%s of the node", "network bandwidth per GPU",
                  ry_num_si(v1, sizeof v1, in->B_S, "B/s", 4),
                  ry_num_sig(v2, sizeof v2, m->nic_gbps / s->planes, 4), s->planes,
                  s->planes == 1 ? "" : "s");
    if (s->node.nic_gbps * s->planes > m->nic_gbps)
        ry_buf_printf(o, " (%sG NICs at the switch ports' speed)",
                      ry_num_sig(v1, sizeof v1, s->node.nic_gbps, 4));
    ry_buf_puts(o, "\n\n");

    ry_buf_printf(o, "Parallelism   tensor parallel (TP) %s, data parallel %s inside a domain x %s "
                  "across domains\n", ry_n(t->NM), ry_n(t->NDs), ry_n(t->NDf));
    if (w->tensor)
        ry_buf_printf(o, "  TP %d as the spec sets it\n", w->tensor);
    else
        ry_buf_printf(o, "  TP minimises eq. 1 over the divisors of the domain size %s with GPUs / "
                      "TP <= batch (%s)\n", ry_n(in->K), ry_n(w->batch));
    if (l->heads && l->heads % t->NM)
        ry_buf_printf(o, "  note: TP %lld does not divide the %d attention heads, as Megatron-style "
                      "tensor parallelism needs (the model ignores heads, as the paper does); set "
                      "workload.parallelism.tensor for a size that does\n", t->NM, l->heads);
    ry_buf_printf(o, "  the best TP were it any real number (eq. 1's minimiser): %s\n",
                  ry_num_sig(v1, sizeof v1, m->nm_cont, 4));
    ry_buf_printf(o, "  the paper's eq. 2 for it: %s (2 sqrt(2) smaller)\n\n",
                  ry_num_sig(v1, sizeof v1, m->eq2, 4));

    ry_buf_printf(o, "%-40s %12s %8s\n", "Iteration time", "", "share");
    terms_text(o, t);
    ry_buf_printf(o, "  %-38s %12s\n", "iteration time", secs(v1, t->total));
    char ideal[80];
    snprintf(ideal, sizeof ideal, "ideal: one domain of all GPUs, TP %lld", m->ideal.NM);
    ry_buf_printf(o, "  %-38s %12s\n", ideal, secs(v1, m->ideal.total));
    ry_buf_printf(o, "  %-38s %11.1f%%\n", "relative performance: ideal / this",
                  100 * m->relative);
    ry_buf_printf(o, "  %-38s %11.1f%%\n", "model FLOPs utilisation (MFU)", 100 * m->mfu);
    ry_buf_printf(o, "  %-38s %11.1f%%\n", "hardware FLOPs utilisation (HFU)", 100 * m->hfu);
    ry_buf_printf(o, "  %-38s %12s\n\n", "tokens per second",
                  ry_num_sig(v1, sizeof v1, m->tokens_per_s, 4));
    ry_emit_moe_text(o, s, m, m->best.total, -1);

    cost_text(o, s, m, m->tokens_per_s, c);
}

/* m: for a MoE model's line (its all-to-all term). The capex of each
 * design leads; the paper's model follows only when asked (c->paper). */

/* The heading of the rail-only paper's cost model, with its two prices. */
static void paper_heading(ry_buf *o, double port, double transceiver)
{
    ry_buf_printf(o, "\nrail-only paper's cost model (%s a port, %s a transceiver; not a capex "
                     "figure)\n", ry_n_money(port), ry_n_money(transceiver));
}
static void cost_text(ry_buf *o, const ry_spec *s, const ry_model *m, double tokens_per_s,
                      const ry_designs_capex *c)
{
    if (!c)
        return;
    static const char *const names[] = { "rail-optimized", "rail-only" };
    ry_buf_puts(o, "Network capex (list prices: each design's switches, optics and cables, "
                   "its own layout)\n");
    ry_buf_printf(o, "  %-15s %9s %17s %9s %15s %17s\n", "design", "switches", "optics (modules)",
                  "cables", "capex", "tokens/s per $1M");
    for (int i = 0; i < 2; i++) {
        if (!c->ok[i]) {
            ry_buf_printf(o, "  %-15s cannot be built: %s\n", names[i], c->err[i]);
            continue;
        }
        const ry_capex *x = &c->capex[i];
        char tpm[RY_NUM_CAP];
        ry_buf_printf(o, "  %-15s %9s %17s %9s %15s %17s\n", names[i], ry_n(x->switches),
                      ry_n(x->optics_modules), ry_n(x->cable_count), ry_n_money(x->total),
                      ry_num_sig(tpm, sizeof tpm,
                                 x->total > 0 ? tokens_per_s / (x->total / 1e6) : 0.0, 6));
    }
    int both = c->ok[0] && c->ok[1] && c->capex[0].total > 0 && c->capex[1].total > 0;
    double r0 = both ? c->capex[0].total : 0, r1 = both ? c->capex[1].total : 0;
    char diff[48];
    double d = both ? 100 * (1 - r1 / r0) : 0;
    if (fabs(d) < 0.05)
        snprintf(diff, sizeof diff, "the same capex");
    else
        snprintf(diff, sizeof diff, "%.1f%% %s capex", fabs(d), d > 0 ? "lower" : "higher");
    if (both && m->has_moe)
        ry_buf_printf(o, "  rail-only: %s; eq. 1's time is the same, the expert all-to-all "
                      "%+.1f%% (above); tokens/s here leave the all-to-all out\n", diff,
                      100 * m->moe.slowdown);
    else if (both)
        ry_buf_printf(o, "  rail-only: the same iteration time (cross-domain traffic only flows "
                      "between GPUs of one rail), %s, %.3gx the performance per dollar\n", diff,
                      r0 / r1);
    for (int i = 0; i < 2; i++)
        if (c->ok[i] && c->entries[i].by_position) {
            ry_buf_puts(o, "  ");
            ry_tier_entries_text(o, s, i ? RY_DESIGN_RAIL_ONLY : RY_DESIGN_RAIL_OPTIMIZED,
                                 c->bom[i].tiers, &c->entries[i]);
        }
    int unpriced = !(s->sw.price > 0);
    for (int j = 1; j <= s->n_tier; j++)    /* a tier list: each tier's model */
        unpriced |= !(ry_spec_tier_switch(s, j)->price > 0);
    if ((c->ok[0] || c->ok[1]) && unpriced)
        ry_buf_puts(o, "  (the switch has no list price: the capex leaves switches out; set "
                       "fabric.switch.price)\n");
    if (c->paper) {
        paper_heading(o, s->switch_port_cost, s->transceiver_cost);
        ry_buf_printf(o, "  %-15s %9s %26s %15s\n", "design", "switches",
                      "transceivers (2 per link)", "cost");
        for (int i = 0; i < 2; i++) {
            if (!c->ok[i])
                continue;
            ry_buf_printf(o, "  %-15s %9s %26s %15s\n", names[i], ry_n(c->bom[i].switches),
                          ry_n(c->bom[i].transceivers), ry_n_money(c->bom[i].cost_total));
        }
    }
}

static json_t *terms_json(const ry_iter_terms *t)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}", "hb_domain",
                     (json_int_t)t->K, "tensor", (json_int_t)t->NM, "dp_in",
                     (json_int_t)t->NDs, "dp_cross", (json_int_t)t->NDf, "compute_s",
                     t->compute, "dp_cross_s", t->dp_cross, "dp_in_s", t->dp_in, "tp_s", t->tp,
                     "total_s", t->total);
}

static json_t *cost_json(double tokens_per_s, const ry_designs_capex *c);

static json_t *model_json(const ry_spec *s, const ry_model *m, const ry_designs_capex *c)
{
    const ry_workload *w = &m->w;
    const ry_llm *l = &w->model;
    const ry_iter_in *in = &m->in;
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(s->name));
    json_object_set_new(j, "design", json_string(ry_design_name(s->design)));
    json_object_set_new(j, "model", json_pack("{s:s, s:f, s:i, s:i, s:i, s:i, s:i, s:i}", "name",
                        l->name, "parameters", l->parameters, "layers", l->layers, "d_model",
                        l->d_model, "heads", l->heads, "seq_len", l->seq_len, "vocab", l->vocab,
                        "mcc", l->mcc));
    json_object_set_new(j, "gpu", json_pack("{s:s, s:b, s:f, s:f}", "name", w->gpu.name,
                        "from_node", w->gpu_inferred, "peak_flops", m->peak_flops,
                        "nvlink_gbps", w->gpu.nvlink_gbps));
    json_object_set_new(j, "workload", json_pack("{s:I, s:I, s:s, s:i, s:o, s:f, s:s, s:s}",
                        "batch", (json_int_t)w->batch, "batch_tokens", (json_int_t)w->tokens,
                        "precision", ry_precision_name(w->precision), "bytes", m->bytes,
                        "tensor", w->tensor ? json_integer(w->tensor) : json_string("auto"),
                        "compute_efficiency", w->efficiency, "flops_convention",
                        conv_name(w->flops), "recompute", ry_recompute_names[w->recompute]));
    json_object_set_new(j, "constants", json_pack("{s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, "
                        "s:f, s:f, s:f, s:f}", "N", (json_int_t)in->N, "K", (json_int_t)in->K,
                        "l", in->layers, "d_model", in->d_model, "S_T", in->S_T, "b", in->b,
                        "M_cc", in->M_cc, "M_flop", in->M_flop, "model_flops", m->model_flops,
                        "C", in->C, "B_F", in->B_F, "B_S", in->B_S));
    json_object_set_new(j, "optimum", terms_json(&m->best));
    json_object_set_new(j, "ideal", terms_json(&m->ideal));
    json_object_set_new(j, "tensor_continuous", json_real(m->nm_cont));
    json_object_set_new(j, "tensor_paper_eq2", json_real(m->eq2));
    json_object_set_new(j, "relative_performance", json_real(m->relative));
    json_object_set_new(j, "mfu", json_real(m->mfu));
    json_object_set_new(j, "hfu", json_real(m->hfu));
    json_object_set_new(j, "tokens_per_s", json_real(m->tokens_per_s));
    if (m->has_moe)
        json_object_set_new(j, "moe", ry_moe_json(s, m, m->best.total, -1));
    if (c)
        json_object_set_new(j, "cost", cost_json(m->tokens_per_s, c));
    return j;
}

static json_t *cost_json(double tokens_per_s, const ry_designs_capex *c)
{
    json_t *cost = json_object();
    static const char *const names[] = { "rail_optimized", "rail_only" };
    for (int i = 0; i < 2; i++) {
        if (!c->ok[i]) {
            json_object_set_new(cost, names[i], json_pack("{s:s}", "error", c->err[i]));
            continue;
        }
        const ry_bom *b = &c->bom[i];
        const ry_capex *x = &c->capex[i];
        /* "transceivers", "paper_cost" and "paper_tokens_per_s_per_musd" are
         * the rail-only paper's model; "capex" leads the text and is what the
         * reports agree on. */
        json_t *j = json_pack("{s:I, s:I, s:I, s:f, s:f}",
                              "switches", (json_int_t)b->switches, "links",
                              (json_int_t)b->links, "transceivers",
                              (json_int_t)b->transceivers, "paper_cost", b->cost_total,
                              "paper_tokens_per_s_per_musd",
                              tokens_per_s / (b->cost_total / 1e6));
        json_object_set_new(j, "cable_ends", json_integer(b->transceivers));
        json_object_set_new(j, "capex", ry_capex_json(x));
        json_object_set_new(j, "capex_tokens_per_s_per_musd",
                            json_real(x->total > 0 ? tokens_per_s / (x->total / 1e6) : 0.0));
        if (c->entries[i].by_position)  /* a fabric.tiers list taken by position */
            json_object_set_new(j, "tier_entries", ry_tier_entries_json(b->tiers, &c->entries[i]));
        json_object_set_new(cost, names[i], j);
    }
    return cost;
}

void ry_emit_model(ry_buf *o, const ry_spec *s, const ry_model *m, const ry_designs_capex *c,
                   ry_format fmt)
{
    if (fmt == RY_FMT_JSON)
        ry_json_out(o, model_json(s, m, c), 0);
    else
        model_text(o, s, m, c);
}

/* ---- the full model ---------------------------------------------------------------------- */

static void gbytes(ry_buf *o, const char *what, double v, double total)
{
    ry_buf_printf(o, "  %-38s %9.2f GB %7.1f%%\n", what, v / 1e9, pct(v, total));
}

/* The precision the gradients are kept and reduced in, the word of the
 * bytes the model counts: fp32, else the compute precision when it has
 * them (fp16 stays fp16; eq. 1 counts fp8 runs' in fp8), else bf16. */
static const char *grad_word(const ry_plan *pl)
{
    ry_precision p = pl->base.w.precision;
    if (pl->grad_bytes == 4)
        return "fp32";
    return pl->grad_bytes == ry_precision_bytes(p) ? ry_precision_name(p) : "bf16";
}

/* Memory per GPU: a section of both modes' text. */
static void memory_text(ry_buf *o, const ry_plan *pl, const ry_plan_cfg *c)
{
    const ry_plan_mem *mm = &c->mem;
    const ry_workload *w = &pl->base.w;
    ry_buf_printf(o, "Memory per GPU (first stage: TP %s x PP %s x DP %s, ZeRO stage %d, "
                  "recomputation: %s)\n", ry_n(c->t), ry_n(c->p), ry_n(c->d), w->zero,
                  ry_recompute_names[mm->recompute]);
    gbytes(o, "weights (16-bit)", mm->weights, mm->total);
    char what[160];
    snprintf(what, sizeof what, "gradients (%s)", grad_word(pl));
    gbytes(o, what, mm->grads, mm->total);
    gbytes(o, "optimizer (fp32 master, Adam m and v)", mm->optimizer, mm->total);
    int fb = c->first_blocks > 0 ? c->first_blocks : c->blocks;
    int off = w->offload < fb ? w->offload : fb - 1;
    if (off > 0)
        snprintf(what, sizeof what, "activations (%.3g micro-batch%s of %lld; %d of %d blocks' "
                 "in host memory)", mm->inflight, mm->inflight == 1 ? "" : "es", c->mb, off, fb);
    else
        snprintf(what, sizeof what, "activations (%.3g micro-batch%s of %lld)", mm->inflight,
                 mm->inflight == 1 ? "" : "es", c->mb);
    gbytes(o, what, mm->activations, mm->total);
    if (mm->gather > 0)
        gbytes(o, "ZeRO-3 gather buffers (2 blocks)", mm->gather, mm->total);
    if (mm->reserve > 0)
        gbytes(o, "reserve (CUDA context, buffers, allocator)", mm->reserve, mm->total);
    ry_buf_printf(o, "  %-38s %9.2f GB", "total", mm->total / 1e9);
    if (mm->capacity > 0)
        ry_buf_printf(o, " of %.1f GB (%s: %.0f GB HBM, in GiB): %s\n", mm->capacity / 1e9,
                      w->gpu.name, w->gpu.memory_bytes / 1e9, mm->feasible ? "fits" : "does NOT fit");
    else
        ry_buf_printf(o, ": the %s's memory is unknown (gpus.yaml has no memory)\n",
                      w->gpu.name);
}

static void mfu_warning(ry_buf *o, const ry_plan *pl)
{
    if (pl->mfu_unpublished)
        ry_buf_printf(o, "  warning: MFU %.1f%%%s is above the highest any published large run "
                      "reports (%.1f%% of the BF16 peak, MegaScale, NSDI 2024): check the "
                      "efficiencies\n", 100 * (pl->mfu_fp8 > 0 ? pl->mfu_fp8 : pl->mfu),
                      pl->mfu_fp8 > 0 ? " of the FP8 peak" : "", 100 * RY_PLAN_MFU_PUBLISHED);
}

static void plan_text(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_designs_capex *c)
{
    const ry_model *m = &pl->base;
    const ry_workload *w = &m->w;
    const ry_llm *l = &w->model;
    const ry_iter_in *in = &m->in;
    const ry_plan_cfg *b = &pl->best;
    char nb[RY_NUM_CAP], v1[RY_NUM_CAP], v2[RY_NUM_CAP];
    ry_buf_printf(o, "%s: %s on %s GPUs, %s HB domain%s of %s (%s), %s, %d plane%s\n\n",
                  s->name, l->name, ry_n(in->N), ry_n(in->N / in->K), in->N == in->K ? "" : "s",
                  ry_n(in->K),
                  s->node.name,
                  ry_design_name(s->design), s->planes, s->planes == 1 ? "" : "s");
    ry_buf_puts(o, "Workload (the full model; --paper for the rail-only paper's iteration-time "
                   "model, its eq. 1)\n");
    ry_buf_printf(o, "  model       %s: %s parameters, %d blocks, d_model %s, ", l->name,
                  ry_num_sig(nb, sizeof nb, l->parameters, 4), l->layers, ry_n(l->d_model));
    if (l->heads)
        ry_buf_printf(o, "%d heads, ", l->heads);
    ry_buf_printf(o, "sequence %s, vocabulary %s\n", ry_n(l->seq_len), ry_n(l->vocab));
    ry_buf_printf(o, "  batch       %s sequences x %s = %s tokens per iteration\n", ry_n(w->batch),
                  ry_n(l->seq_len), ry_n(w->tokens));
    char prec[160];
    snprintf(prec, sizeof prec, "fp8 GEMMs, %s scaling (activations, attention and "
             "communication 16-bit)", ry_fp8_recipe_names[w->fp8_recipe]);
    ry_buf_printf(o, "  precision   %s, gradients reduced in %s (%d bytes)\n",
                  w->precision == RY_PREC_FP8 ? prec
                  : w->precision == RY_PREC_FP16 ? "fp16 compute" : "bf16 compute",
                  grad_word(pl), pl->grad_bytes);
    ry_buf_printf(o, "  gpu         %s%s: %.4g TFLOP/s dense %s, NVLink %s Gb/s, ", w->gpu.name,
                  w->gpu_inferred ? " (from the node)" : "", m->peak_flops / 1e12,
                  w->precision == RY_PREC_FP8 ? "FP8" : "BF16/FP16",
                  ry_num_sig(nb, sizeof nb, w->gpu.nvlink_gbps, 4));
    if (w->gpu.memory_bytes > 0)
        ry_buf_printf(o, "%.0f GB\n", w->gpu.memory_bytes / 1e9);
    else
        ry_buf_puts(o, "memory unknown\n");
    char hb[RY_NUM_CAP];
    char half[96] = "", hn[RY_NUM_CAP];
    if (w->gpu.attn_half > 0)
        snprintf(half, sizeof half, " x keys / (keys + %s)",
                 ry_num_int(hn, sizeof hn, w->gpu.attn_half));
    ry_buf_printf(o, "  kernels     GEMMs at %.3g of the %s peak (%s), fused attention at %.3g%s of "
                  "the BF16 peak, memory-bound kernels at %s\n", pl->efficiency,
                  w->precision == RY_PREC_FP8 ? "FP8" : "BF16",
                  w->efficiency_given ? "workload.compute_efficiency"
                  : w->gpu.gemm_eff > 0 ? "the GPU catalog's" : "railyard's default",
                  pl->attn_eff, half, w->gpu.hbm_bytes_s > 0
                  ? ry_num_si(hb, sizeof hb, w->gpu.hbm_bytes_s, "B/s", 4)
                  : "2 TB/s (the catalog has no hbm)");
    ry_buf_printf(o, "  FLOPs       %s\n",
                  !w->flops_given || w->flops == RY_FLOPS_ARCH
                  ? "from the block's shape: GEMMs, causal attention, output layer (x3 for "
                    "backward)"
                  : w->flops == RY_FLOPS_6NT
                  ? "6 x parameters x tokens"
                  : "Korthikanti et al.: 72 B l s h^2 (1 + s/6h + V/12hl)");
    ry_buf_printf(o, "  links       NVLink (HB domain) bandwidth per GPU %s; network bandwidth per "
                  "GPU %s: NIC %s Gb/s x %d plane%s of the node",
                  ry_num_si(v1, sizeof v1, in->B_F, "B/s", 4),
                  ry_num_si(v2, sizeof v2, in->B_S, "B/s", 4),
                  ry_num_sig(nb, sizeof nb, m->nic_gbps / s->planes, 4), s->planes,
                  s->planes == 1 ? "" : "s");
    if (s->node.nic_gbps * s->planes > m->nic_gbps)
        ry_buf_printf(o, " (%sG NICs at the switch ports' speed)",
                      ry_num_sig(nb, sizeof nb, s->node.nic_gbps, 4));
    if (pl->net_share > 0 && pl->net_share < 1)
        ry_buf_printf(o, "; across the fabric %s per GPU, what the tapers up to the %s tier "
                      "leave (%s%%)", ry_num_si(v2, sizeof v2, in->B_S * pl->net_share, "B/s", 4),
                      ry_tier_name(pl->net_tier, pl->net_tier + 1),
                      ry_num_sig(nb, sizeof nb, 100 * pl->net_share, 3));
    if (pl->net_share > 0 && pl->net_share < 1) {
        char n2[32], n3[32], n4[32];
        ry_buf_printf(o, "; the layout's collectives keep of the network bandwidth: context "
                      "%s%%, pipeline %s%%, data %s%%, experts %s%% (all of it when their groups "
                      "stay inside one block of a tapered tier)",
                      ry_num_sig(nb, sizeof nb, 100 * b->share_cp, 3),
                      ry_num_sig(n2, sizeof n2, 100 * b->share_pp, 3),
                      ry_num_sig(n3, sizeof n3, 100 * b->share_dp, 3),
                      ry_num_sig(n4, sizeof n4, 100 * b->share_ep, 3));
    }
    ry_buf_puts(o, "\n");
    if (pl->net) {
        const ry_plan_net *pn = pl->net;
        const ry_spec *sp = s;
        char n2[32], n3[32], n4[32], t1[32], t2[32];
        ry_buf_printf(o, "  network     the layout's collectives run on the fabric as built "
                      "(%s routing, %s placement, %s): they keep context %s%%, pipeline %s%%, "
                      "data %s%%, experts %s%% of the network bandwidth; iteration %s (the "
                      "analytic shares of the tapers give %s)",
                      ry_net_routing_name((ry_net_routing)sp->net.routing),
                      sp->net.placement[0] ? sp->net.placement : "contiguous",
                      pn->asked == 1 ? "1 phase" : "phases",
                      ry_num_sig(nb, sizeof nb, 100 * b->share_cp, 3),
                      ry_num_sig(n2, sizeof n2, 100 * b->share_pp, 3),
                      ry_num_sig(n3, sizeof n3, 100 * b->share_dp, 3),
                      ry_num_sig(n4, sizeof n4, 100 * b->share_ep, 3),
                      ry_num_si(t1, sizeof t1, b->total, "s", 4),
                      ry_num_si(t2, sizeof t2, pl->analytic.total, "s", 4));
        if (pn->fallback)
            ry_buf_printf(o, "; %d phase%s kept the analytic share (%s)", pn->fallback,
                          pn->fallback == 1 ? "" : "s", pn->why);
        ry_buf_puts(o, "\n");
    }
    ry_buf_puts(o, "\n");

    ry_buf_printf(o, "Parallelism   tensor %s x context %s x pipeline %s x data %s (the fastest "
                  "of %s layouts and recomputations tried, %s fit memory)\n", ry_n(b->t),
                  ry_n(b->c), ry_n(b->p), ry_n(b->d), ry_n(pl->considered), ry_n(pl->fit));
    ry_buf_printf(o, "  tensor      %s GPU%s of one HB domain%s%s\n", ry_n(b->t),
                  b->t == 1 ? "" : "s",
                  w->tensor ? " (as the spec sets it)" : "",
                  b->t > 1 ? (w->sequence_parallel ? ", sequence parallel"
                                                   : ", without sequence parallelism")
                           : "");
    if (b->c > 1)
        ry_buf_printf(o, "  context     %s GPUs share each sequence (ring attention, %s)\n",
                      ry_n(b->c), b->cp_cross ? "across HB domains" : "inside an HB domain");
    const ry_llm *ml = &w->model;
    char busiest[200];
    if (b->p == 1)
        snprintf(busiest, sizeof busiest, "%d blocks%s", b->blocks,
                 ml->mtp_layers ? " (the last of them multi-token prediction's)" : "");
    else if (b->logits > 0 && (w->first_stage || w->last_stage || ml->mtp_layers))
        snprintf(busiest, sizeof busiest, "the busiest the last: %d blocks%s and %d output "
                 "layer%s", b->blocks, ml->mtp_layers ? " (multi-token prediction's among them)"
                 : "", b->logits, b->logits == 1 ? "" : "s");
    else if (w->first_stage || w->last_stage || ml->mtp_layers)
        snprintf(busiest, sizeof busiest, "the busiest %d blocks (first %d)", b->blocks,
                 b->first_blocks);
    else
        snprintf(busiest, sizeof busiest, "%d blocks in the biggest", b->blocks);
    ry_buf_printf(o, "  pipeline    %s stage%s, %s; %s, %s micro-batch%s of %s sequence%s per "
                  "replica\n", ry_n(b->p), b->p == 1 ? "" : "s", busiest,
                  b->v > 1 ? "interleaved 1F1B" : "1F1B", ry_n(b->m), b->m == 1 ? "" : "es",
                  ry_n(b->mb), b->mb == 1 ? "" : "s");
    if (b->v > 1)
        ry_buf_printf(o, "              %s chunks per GPU: the bubble is 1/%s of plain 1F1B's\n",
                      ry_n(b->v), ry_n(b->v));
    if (b->p > 1)
        ry_buf_printf(o, "              stage boundaries %s\n", b->p2p_cross
                      ? (b->dp_cross > 1 || b->t * b->c * b->d >= in->K
                         ? "cross HB domains between GPUs of one local rank: one rail"
                         : "inside and across HB domains (across: another rank, through the "
                           "domain first)")
                      : "inside HB domains (NVLink)");
    ry_buf_printf(o, "  data        %s replicas; the weights' %s copies (context x data) = %s "
                  "inside a domain x %s across domains; %s sequences on the busiest replica; "
                  "ZeRO stage %d%s\n", ry_n(b->d), ry_n(b->c * b->d), ry_n(b->dp_in),
                  ry_n(b->dp_cross), ry_n(b->seqs), w->zero,
                  w->fsdp ? " (FSDP: a block gathered for its forward and its backward)" : "");
    if (b->ep > 1)
        ry_buf_printf(o, "  expert      groups of %s GPUs inside a stage, %s expert%s each\n",
                      ry_n(b->ep), ry_n(l->moe.experts / b->ep),
                      l->moe.experts / b->ep == 1 ? "" : "s");
    if (b->gpus < in->N)
        ry_buf_printf(o, "  idle        %s of the %s GPUs: %s\n", ry_n(in->N - b->gpus),
                      ry_n(in->N), w->data ? "workload.parallelism.data leaves them"
                      : "no layout that uses them is faster (the batch and the sizes must divide)");
    ry_buf_printf(o, "  recompute   %s%s\n\n", ry_recompute_names[b->mem.recompute],
                  w->recompute_given ? " (as the spec sets it)" : " (the least that fits)");

    memory_text(o, pl, b);
    ry_buf_putc(o, '\n');

    ry_buf_printf(o, "%-40s %12s %8s\n", "Iteration time", "", "share");
    const char *what[] = { "compute", "  GEMMs and the output layer", "  attention",
                           "  memory-bound kernels", "pipeline bubble",
                           "tensor parallel (NVLink), exposed",
                           b->cp_cross ? "context-parallel ring (network), exposed"
                                       : "context-parallel ring (NVLink), exposed",
                           "expert all-to-all, exposed",
                           b->p2p_cross ? "pipeline point-to-point (network)"
                                        : "pipeline point-to-point (NVLink)",
                           "data parallel inside domains (NVLink)",
                           "data parallel across domains (network)" };
    double v[] = { b->compute, b->gemm_s, b->attn_s, b->mem_s, b->bubble, b->tp, b->cp,
                   b->moe, b->pp, b->dp_in_s, b->dp_cross_s };
    for (int i = 0; i < 11; i++) {
        if ((i == 6 && b->c <= 1) || (i == 7 && !l->moe.experts) || ((i == 8 || i == 4) && b->p <= 1))
            continue;
        ry_buf_printf(o, "  %-38s %12s %7.1f%%\n", what[i], secs(v1, v[i]), pct(v[i], b->total));
    }
    ry_buf_printf(o, "  %-38s %12s\n", "iteration time", secs(v1, b->total));
    if (b->hidden > 0)
        ry_buf_printf(o, "  %-38s %12s\n", "communication behind compute (not added)",
                      secs(v1, b->hidden));
    if (pl->ideal_ok) {
        char ideal[80];
        snprintf(ideal, sizeof ideal, "ideal: one domain of all, TP %lld x PP %lld", pl->ideal.t,
                 pl->ideal.p);
        ry_buf_printf(o, "  %-38s %12s\n", ideal, secs(v1, pl->ideal.total));
        ry_buf_printf(o, "  %-38s %11.1f%%\n", "relative performance: ideal / this",
                      100 * pl->relative);
    }
    ry_buf_printf(o, "  %-38s %11.1f%%\n", "model FLOPs utilisation (MFU, BF16 peak)",
                  100 * pl->mfu);
    if (pl->mfu_fp8 > 0)
        ry_buf_printf(o, "  %-38s %11.1f%%\n", "MFU against the FP8 peak", 100 * pl->mfu_fp8);
    ry_buf_printf(o, "  %-38s %11.1f%%\n", "hardware FLOPs utilisation (HFU)", 100 * pl->hfu);
    ry_buf_printf(o, "  %-38s %12s\n", "tokens per second",
                  ry_num_sig(v1, sizeof v1, pl->tokens_per_s, 4));
    mfu_warning(o, pl);
    if (b->bubble > 0.25 * b->total)
        ry_buf_printf(o, "  note: the pipeline bubble is %.0f%% of the iteration: %lld "
                      "micro-batch%s per replica for %lld stages; a larger batch (or fewer "
                      "GPUs) would shrink it\n", pct(b->bubble, b->total), b->m,
                      b->m == 1 ? "" : "es", b->p);
    ry_buf_putc(o, '\n');
    ry_emit_moe_text(o, s, &pl->base, b->total, b->moe);
    cost_text(o, s, &pl->base, pl->tokens_per_s, c);
}

static json_t *memory_json(const ry_plan_cfg *c)
{
    const ry_plan_mem *mm = &c->mem;
    return json_pack("{s:f, s:f, s:b, s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:f}", "per_gpu_bytes",
                     mm->total, "capacity_bytes", mm->capacity, "feasible", mm->feasible,
                     "weights_bytes", mm->weights, "gradients_bytes", mm->grads,
                     "optimizer_bytes", mm->optimizer, "activations_bytes", mm->activations,
                     "gather_bytes", mm->gather, "reserve_bytes", mm->reserve,
                     "recompute", ry_recompute_names[mm->recompute], "micro_batches_in_flight",
                     mm->inflight);
}

static json_t *cfg_json(const ry_plan_cfg *c, long long K)
{
    json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:b, s:f, s:f, s:f, s:f, "
                          "s:f, s:f, s:f}", "hb_domain", (json_int_t)K, "tensor", (json_int_t)c->t,
                          "pipeline", (json_int_t)c->p, "data", (json_int_t)c->d, "dp_in",
                          (json_int_t)c->dp_in, "dp_cross", (json_int_t)c->dp_cross,
                          "micro_batch", (json_int_t)c->mb, "micro_batches", (json_int_t)c->m,
                          "blocks_per_stage", c->blocks, "p2p_cross_domain", c->p2p_cross,
                          "compute_s", c->compute, "bubble_s", c->bubble, "tp_s", c->tp, "pp_s",
                          c->pp, "dp_in_s", c->dp_in_s, "dp_cross_s", c->dp_cross_s, "total_s",
                          c->total);
    json_t *x = json_pack("{s:I, s:I, s:I, s:I, s:b, s:f, s:f, s:f, s:f, s:f, s:f}", "context",
                          (json_int_t)(c->c > 0 ? c->c : 1), "virtual",
                          (json_int_t)(c->v > 0 ? c->v : 1), "expert",
                          (json_int_t)(c->ep > 0 ? c->ep : 1), "gpus", (json_int_t)c->gpus,
                          "cp_cross_domain", c->cp_cross, "gemm_s", c->gemm_s, "attention_s",
                          c->attn_s, "memory_bound_s", c->mem_s, "cp_s", c->cp, "moe_s", c->moe,
                          "hidden_s", c->hidden);
    json_object_update(j, x);
    json_decref(x);
    json_object_set_new(j, "dp_cross_bytes", json_real(c->dp_x_bytes));
    return j;
}

static json_t *plan_json(const ry_spec *s, const ry_plan *pl, const ry_designs_capex *c)
{
    const ry_model *m = &pl->base;
    const ry_workload *w = &m->w;
    const ry_llm *l = &w->model;
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(s->name));
    json_object_set_new(j, "design", json_string(ry_design_name(s->design)));
    json_object_set_new(j, "mode", json_string("full"));
    json_object_set_new(j, "model", json_pack("{s:s, s:f, s:i, s:i, s:i, s:i, s:i}", "name",
                        l->name, "parameters", l->parameters, "layers", l->layers, "d_model",
                        l->d_model, "heads", l->heads, "seq_len", l->seq_len, "vocab",
                        l->vocab));
    json_object_set_new(j, "gpu", json_pack("{s:s, s:b, s:f, s:f, s:f}", "name", w->gpu.name,
                        "from_node", w->gpu_inferred, "peak_flops", m->peak_flops,
                        "nvlink_gbps", w->gpu.nvlink_gbps, "memory_bytes",
                        w->gpu.memory_bytes));
    json_object_set_new(j, "workload", json_pack("{s:I, s:I, s:s, s:s, s:f, s:b, s:s, s:i}",
                        "batch", (json_int_t)w->batch, "batch_tokens", (json_int_t)w->tokens,
                        "precision", ry_precision_name(w->precision), "gradient_precision",
                        ry_grad_precision_names[w->grad_precision], "compute_efficiency",
                        pl->efficiency, "efficiency_default", !w->efficiency_given,
                        "flops_convention",
                        conv_name(w->flops_given ? w->flops : RY_FLOPS_ARCH), "zero", w->zero));
    json_t *wl = json_object_get(j, "workload");
    json_object_set_new(wl, "fsdp", json_boolean(w->fsdp));
    json_object_set_new(wl, "activation_offload", json_integer(w->offload));
    json_object_set_new(wl, "first_stage_layers", json_integer(w->first_stage));
    json_object_set_new(wl, "last_stage_layers", json_integer(w->last_stage));
    /* The attention's shape as the model runs it (0: not set). */
    json_t *jm = json_object_get(j, "model");
    json_object_set_new(jm, "head_dim", json_integer(l->head_dim));
    json_object_set_new(jm, "v_head_dim", json_integer(l->v_head_dim));
    json_object_set_new(jm, "kv_lora_rank", json_integer(l->kv_lora_rank));
    json_object_set_new(jm, "q_lora_rank", json_integer(l->q_lora_rank));
    json_object_set_new(jm, "qk_rope_head_dim", json_integer(l->qk_rope_head_dim));
    json_object_set_new(jm, "window", json_integer(l->window));
    json_object_set_new(jm, "window_layers", json_integer(l->window_layers));
    json_object_set_new(jm, "mtp_layers", json_integer(l->mtp_layers));
    if (w->precision == RY_PREC_FP8)
        json_object_set_new(wl, "fp8_recipe", json_string(ry_fp8_recipe_names[w->fp8_recipe]));
    json_object_set_new(wl, "tensor", w->tensor ? json_integer(w->tensor) : json_string("auto"));
    json_object_set_new(wl, "pipeline", w->pipeline ? json_integer(w->pipeline)
                                                    : json_string("auto"));
    json_object_set_new(wl, "micro_batch", w->micro_batch ? json_integer(w->micro_batch)
                                                          : json_string("auto"));
    json_object_set_new(wl, "recompute", json_string(w->recompute_given
                                                     ? ry_recompute_names[w->recompute]
                                                     : "auto"));
    const ry_iter_in *in = &m->in;
    json_object_set_new(j, "constants", json_pack("{s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, "
                        "s:f, s:f, s:f}", "N", (json_int_t)in->N, "K", (json_int_t)in->K,
                        "l", in->layers, "d_model", in->d_model, "b", in->b, "M_cc", in->M_cc,
                        "model_flops", m->model_flops, "C", m->peak_flops * pl->efficiency,
                        "peak_flops", m->peak_flops, "B_F", in->B_F, "B_S", in->B_S));
    json_object_set_new(j, "optimum", cfg_json(&pl->best, m->in.K));
    json_t *fs = json_pack("{s:f, s:i}", "share", pl->net_share > 0 ? pl->net_share : 1,
                           "tier", pl->net_tier);
    /* On a tapered fabric: what the chosen layout's collectives keep. */
    if (pl->net_share > 0 && pl->net_share < 1) {
        const ry_plan_cfg *b = &pl->best;
        json_object_set_new(fs, "groups", json_pack("{s:f, s:f, s:f, s:f, s:f}", "tensor", 1.0,
                                                    "context", b->share_cp, "pipeline",
                                                    b->share_pp, "data", b->share_dp, "expert",
                                                    b->share_ep));
    }
    json_object_set_new(j, "fabric_share", fs);
    if (pl->net) {
        const ry_plan_cfg *b = &pl->best;
        json_object_set_new(j, "network", json_pack(
            "{s:s, s:s, s:{s:f, s:f, s:f, s:f}, s:f, s:f, s:i, s:i, s:i}",
            "routing", ry_net_routing_name((ry_net_routing)s->net.routing),
            "placement", s->net.placement[0] ? s->net.placement : "contiguous",
            "shares", "context", b->share_cp, "pipeline", b->share_pp, "data", b->share_dp,
            "expert", b->share_ep, "iteration_s", b->total, "analytic_iteration_s",
            pl->analytic.total, "phases", pl->net->asked, "analytic_phases", pl->net->fallback,
            "layouts_timed", 1 + pl->reranked));
    }
    json_object_set_new(j, "memory", memory_json(&pl->best));
    if (pl->ideal_ok)
        json_object_set_new(j, "ideal", cfg_json(&pl->ideal, m->in.N));
    json_object_set_new(j, "configurations", json_integer(pl->considered));
    json_object_set_new(j, "configurations_fit", json_integer(pl->fit));
    json_object_set_new(j, "relative_performance", json_real(pl->relative));
    json_object_set_new(j, "model_flops", json_real(m->model_flops));
    json_object_set_new(j, "hw_flops", json_real(pl->best.hw_flops));
    json_object_set_new(j, "mfu", json_real(pl->mfu));
    if (pl->mfu_fp8 > 0)
        json_object_set_new(j, "mfu_fp8_peak", json_real(pl->mfu_fp8));
    json_object_set_new(j, "hfu", json_real(pl->hfu));
    json_object_set_new(j, "mfu_above_published", json_boolean(pl->mfu_unpublished));
    json_object_set_new(j, "tokens_per_s", json_real(pl->tokens_per_s));
    const ry_plan_arch *a = &pl->arch;
    json_object_set_new(j, "block", json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
                        "dense_parameters", a->dense_params, "expert_parameters",
                        a->expert_params, "embedding_parameters", a->embedding,
                        "gemm_flops_per_token", a->gemm, "attention_flops_per_token", a->attn,
                        "output_flops_per_token", a->logits, "model_flops", a->model_flops));
    json_object_set_new(j, "gradient_bytes", json_integer(pl->grad_bytes));
    json_object_set_new(j, "kernels", json_pack("{s:f, s:f, s:f, s:f, s:f}", "gemm_efficiency",
                        pl->efficiency, "attention_efficiency", pl->attn_eff,
                        "attention_half_length", w->gpu.attn_half, "gemm_peak_flops",
                        pl->gemm_peak, "hbm_bytes_s", w->gpu.hbm_bytes_s));
    if (m->has_moe)
        json_object_set_new(j, "moe", ry_moe_json(s, m, pl->best.total, pl->best.moe));
    if (c)
        json_object_set_new(j, "cost", cost_json(pl->tokens_per_s, c));
    return j;
}

/* ---- where the terms come from (--explain) ------------------------------------------ */

typedef struct rate_row {
    const char *term;
    double seconds;
    double rate;            /* FLOP/s or bytes/s */
    const char *unit;       /* "FLOP/s" or "B/s" */
    char from[400];
} rate_row;

/* The full model's terms, each with the rate it ran at and where that rate
 * comes from (the catalog entry and key, the spec's key, or a built-in
 * constant of doc/llm-model.md); the count of rows. */
static int explain_rows(const ry_spec *s, const ry_plan *pl, rate_row *r)
{
    const ry_workload *w = &pl->base.w;
    const ry_gpu *g = &w->gpu;
    const ry_plan_cfg *b = &pl->best;
    int fp8 = w->precision == RY_PREC_FP8, n = 0;
    double tok = (double)w->model.seq_len * (double)b->mb / (double)(b->c > 0 ? b->c : 1);
    double rows = tok / (tok + RY_PLAN_GEMM_ROWS);
    const char *eff = w->efficiency_given ? "the spec's workload.efficiency"
                      : fp8 && g->gemm_eff_fp8 > 0 ? "gemm_efficiency_fp8"
                      : g->gemm_eff > 0 ? "gemm_efficiency"
                      : "no catalog figure: the built-in 0.7";
    /* The rate each compute term ran at: its FLOPs on the busiest GPU over
     * its seconds (expert GEMMs and windowed blocks slower than the rest). */
    int rc = b->mem.recompute;
    double M = (double)b->m, tt = (double)b->t, nb = b->blocks;
    double gflops = M * tok * (nb * (3 + (rc == RY_RECOMPUTE_FULL)) * pl->arch.gemm +
                               3 * pl->arch.logits * b->logits) / tt;
    double aflops = M * tok * nb * (3 + (rc != RY_RECOMPUTE_NONE)) *
                    (w->flash_attention ? pl->arch.attn : pl->arch.attn_full) / tt;
    r[n] = (rate_row){ "GEMMs and the output layer", b->gemm_s,
                       b->gemm_s > 0 ? gflops / b->gemm_s : 0, "FLOP/s", "" };
    snprintf(r[n++].from, sizeof r->from, "gpus %s: %s peak x %.3g (%s) x %.3g (%.0f rows a GEMM: "
             "rows / (rows + %.0f))", g->name, fp8 ? "fp8_tflops" : "bf16_tflops",
             pl->efficiency, eff, rows, tok, RY_PLAN_GEMM_ROWS);
    if (w->model.moe.experts > 0) {
        size_t len = strlen(r[n - 1].from);
        double ne = ry_plan_expert_rows(pl, b);
        snprintf(r[n - 1].from + len, sizeof r->from - len, "; expert GEMMs x %.2f of the "
                 "efficiency (built-in), a routed expert's x %.3g (%.0f tokens an expert: rows / "
                 "(rows + %.0f))", RY_PLAN_EXPERT_EFFICIENCY, ne / (ne + RY_PLAN_GEMM_ROWS), ne,
                 RY_PLAN_GEMM_ROWS);
    }
    double keys = pl->arch.attn_keys / (double)(b->c > 0 ? b->c : 1);
    r[n] = (rate_row){ "attention", b->attn_s, b->attn_s > 0 ? aflops / b->attn_s : 0,
                       "FLOP/s", "" };
    snprintf(r[n].from, sizeof r->from, "gpus %s: bf16_tflops x %.3g (%s)", g->name,
             w->flash_attention ? pl->attn_eff : pl->efficiency,
             !w->flash_attention ? "no fused attention: the GEMMs' efficiency"
             : g->attn_eff > 0 ? "attention_efficiency" : "no catalog figure: the built-in 0.5");
    if (w->flash_attention) {
        size_t len = strlen(r[n].from);
        char k1[RY_NUM_CAP], k2[RY_NUM_CAP];
        if (g->attn_half > 0)
            len += (size_t)snprintf(r[n].from + len, sizeof r->from - len, " x %.3g (%s keys a "
                                    "query sees: keys / (keys + %s), attention_half_length)",
                                    keys / (keys + g->attn_half),
                                    ry_num_int(k1, sizeof k1, keys),
                                    ry_num_int(k2, sizeof k2, g->attn_half));
        if (pl->arch.head_factor < 1 && len < sizeof r->from)
            len += (size_t)snprintf(r[n].from + len, sizeof r->from - len, " x %.3g (heads of "
                                    "%.0f: (head_dim / 128)^0.5)", pl->arch.head_factor,
                                    pl->arch.head_factor * pl->arch.head_factor * 128);
        if (pl->arch.attn_window > 0 && len < sizeof r->from)
            snprintf(r[n].from + len, sizeof r->from - len, "; %.0f%% of the blocks see a "
                     "window of %.0f keys", 100 * pl->arch.window_share, pl->arch.attn_window);
    }
    n++;
    r[n] = (rate_row){ "memory-bound kernels", b->mem_s,
                       g->hbm_bytes_s > 0 ? g->hbm_bytes_s : 2e12, "B/s", "" };
    snprintf(r[n++].from, sizeof r->from, "gpus %s: %s", g->name,
             g->hbm_bytes_s > 0 ? "hbm" : "no catalog figure: the built-in 2 TB/s");
    double nvl = pl->base.in.B_F / 2 * RY_PLAN_NVLINK_EFFICIENCY;
    char nvl_from[160];
    snprintf(nvl_from, sizeof nvl_from, "gpus %s: nvlink, one direction, x %.2f (built-in: the bus "
             "bandwidth NCCL reaches)", g->name, RY_PLAN_NVLINK_EFFICIENCY);
    const char *net_how = pl->net ? "the flow engine over the fabric as built"
                                  : "the analytic shares of the fabric's tapers";
    double net = pl->base.in.B_S * RY_PLAN_NETWORK_EFFICIENCY;
    if (b->t > 1) {
        r[n] = (rate_row){ "tensor parallel", b->tp, nvl, "B/s", "" };
        snprintf(r[n++].from, sizeof r->from, "%s", nvl_from);
    }
    if (b->c > 1) {
        r[n] = (rate_row){ "context-parallel ring", b->cp,
                           b->cp_cross ? net * b->share_cp : nvl, "B/s", "" };
        if (b->cp_cross)
            snprintf(r[n++].from, sizeof r->from, "the NIC (%s) x %.2f (built-in) x share %.4g "
                     "(%s)", s->node.name, RY_PLAN_NETWORK_EFFICIENCY, b->share_cp, net_how);
        else
            snprintf(r[n++].from, sizeof r->from, "%s", nvl_from);
    }
    if (w->model.moe.experts > 0) {
        char a[RY_NUM_CAP], c[RY_NUM_CAP];
        r[n] = (rate_row){ "expert all-to-all", b->moe, 0, "", "" };
        snprintf(r[n++].from, sizeof r->from, "NVLink inside a domain (%s), the NIC x %.2f "
                 "(built-in) x share %.4g across (%s, %s)", ry_num_si(a, sizeof a, nvl, "B/s", 4),
                 RY_PLAN_NETWORK_EFFICIENCY, b->share_ep,
                 ry_num_si(c, sizeof c, net * b->share_ep, "B/s", 4), net_how);
    }
    if (b->p > 1) {
        r[n] = (rate_row){ "pipeline point-to-point", b->pp,
                           b->p2p_cross ? net * b->share_pp : nvl, "B/s", "" };
        if (b->p2p_cross)
            snprintf(r[n++].from, sizeof r->from, "the NIC x %.2f (built-in) x share %.4g (%s)",
                     RY_PLAN_NETWORK_EFFICIENCY, b->share_pp, net_how);
        else
            snprintf(r[n++].from, sizeof r->from, "%s", nvl_from);
    }
    r[n] = (rate_row){ "data parallel inside domains", b->dp_in_s, nvl, "B/s", "" };
    snprintf(r[n++].from, sizeof r->from, "%s", nvl_from);
    r[n] = (rate_row){ "data parallel across domains", b->dp_cross_s, net * b->share_dp, "B/s",
                       "" };
    snprintf(r[n++].from, sizeof r->from, "the NIC (%s) x %.2f (built-in) x share %.4g (%s)",
             s->node.name, RY_PLAN_NETWORK_EFFICIENCY, b->share_dp, net_how);
    return n;
}

#define RY_EXPLAIN_ROWS 10

static void explain_text(ry_buf *o, const ry_spec *s, const ry_plan *pl)
{
    rate_row r[RY_EXPLAIN_ROWS];
    int n = explain_rows(s, pl, r);
    char v1[RY_NUM_CAP], v2[RY_NUM_CAP];
    ry_buf_puts(o, "\nWhere the terms come from (each term's time, the rate it ran at, and where "
                   "that rate comes from)\n");
    for (int i = 0; i < n; i++)
        ry_buf_printf(o, "  %-30s %12s%s%s\n      %s\n", r[i].term, secs(v1, r[i].seconds),
                      r[i].rate > 0 ? "  at " : "",
                      r[i].rate > 0 ? ry_num_si(v2, sizeof v2, r[i].rate, r[i].unit, 4) : "",
                      r[i].from);
    ry_buf_printf(o, "  exposed terms, the bubble and the compute make the iteration time, %s, "
                  "said once above\n\n", secs(v1, pl->best.total));
}

static json_t *explain_json(const ry_spec *s, const ry_plan *pl)
{
    rate_row r[RY_EXPLAIN_ROWS];
    int n = explain_rows(s, pl, r);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:s, s:s}", "term", r[i].term,
                                           "seconds", r[i].seconds, "rate", r[i].rate, "unit",
                                           r[i].unit, "from", r[i].from));
    return a;
}

void ry_emit_plan(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_designs_capex *c,
                  ry_format fmt, int explain)
{
    ry_parallelism lay;
    ry_plan_parallelism(pl, &lay);
    if (pl->paper && fmt == RY_FMT_JSON) {
        json_t *j = model_json(s, &pl->base, c);
        json_object_set_new(j, "layout", ry_parallelism_json(&lay));
        json_object_set_new(j, "memory", memory_json(&pl->best));
        json_object_set_new(j, "mfu_above_published", json_boolean(pl->mfu_unpublished));
        ry_json_out(o, j, 0);
        return;
    }
    if (fmt == RY_FMT_JSON) {
        json_t *j = plan_json(s, pl, c);
        json_object_set_new(j, "layout", ry_parallelism_json(&lay));
        if (explain)
            json_object_set_new(j, "explain", explain_json(s, pl));
        ry_json_out(o, j, 0);
        return;
    }
    ry_buf t;
    ry_buf_init(&t);
    if (pl->paper) {
        model_text(&t, s, &pl->base, c);
        ry_buf_putc(&t, '\n');
        memory_text(&t, pl, &pl->best);
        ry_buf_puts(&t, "  (reported only: the paper's eq. 1 chose the layout without a memory "
                        "limit)\n");
        mfu_warning(&t, pl);
    } else {
        plan_text(&t, s, pl, c);
        if (explain)
            explain_text(&t, s, pl);
    }
    ry_emit_with_parallelism(o, t.data, t.len, &lay);
    ry_buf_free(&t);
}

/* ---- sweep ------------------------------------------------------------------------------- */

void ry_emit_sweep_csv(ry_buf *o, const char *const *keys, int nkeys, const ry_sweep_point *pts,
                       int npts)
{
    for (int k = 0; k < nkeys; k++) {
        ry_csv_field(o, keys[k]);
        ry_buf_putc(o, ',');
    }
    ry_buf_puts(o, "status,gpus,hb_domain,model,batch,batch_tokens,tensor,dp_in,dp_cross,"
                   "t_iter_s,t_compute_s,t_dp_cross_s,t_dp_in_s,t_tp_s,t_ideal_s,ideal_tensor,"
                   "relative_performance,mfu,hfu,tokens_per_s");
    int full = 0;
    for (int i = 0; i < npts; i++)
        full |= pts[i].full;
    if (full)
        ry_buf_puts(o, ",pipeline,data,micro_batch,micro_batches,recompute,t_bubble_s,t_pp_s,"
                       "memory_bytes,capacity_bytes");
    ry_buf_puts(o, ",layout\n");
    for (int i = 0; i < npts; i++) {
        const ry_sweep_point *p = &pts[i];
        for (int k = 0; k < nkeys; k++) {
            ry_csv_field(o, p->values[k]);
            ry_buf_putc(o, ',');
        }
        if (!p->ok) {
            ry_buf_puts(o, full ? "invalid,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n"
                                : "invalid,,,,,,,,,,,,,,,,,,,,\n");
            continue;
        }
        const ry_model *m = &p->m;
        const ry_iter_terms *t = &m->best;
        ry_buf_printf(o, "ok,%lld,%lld,%s,%lld,%lld,%lld,%lld,%lld,%.9g,%.9g,%.9g,%.9g,%.9g,"
                      "%.9g,%lld,%.6f,%.6f,%.6f,%.9g", p->gpus, p->hb_domain, p->model,
                      m->w.batch, m->w.tokens, t->NM, t->NDs, t->NDf, t->total, t->compute,
                      t->dp_cross, t->dp_in, t->tp, m->ideal.total, m->ideal.NM, m->relative,
                      m->mfu, m->hfu, m->tokens_per_s);
        if (full) {
            const ry_plan_cfg *c = &p->cfg;
            ry_buf_printf(o, ",%lld,%lld,%lld,%lld,%s,%.9g,%.9g,%.9g,%.9g", c->p, c->d, c->mb,
                          c->m, ry_recompute_names[c->mem.recompute], c->bubble, c->pp,
                          c->mem.total, c->mem.capacity);
        }
        ry_buf w;
        ry_buf_init(&w);
        ry_emit_parallelism_words(&w, &p->par);
        ry_buf_putc(o, ',');
        ry_csv_field(o, w.data);
        ry_buf_free(&w);
        ry_buf_putc(o, '\n');
    }
}

static int numeric(const char *v, double *x)
{
    char *end;
    *x = strtod(v, &end);
    return end != v && *end == '\0' && isfinite(*x);
}

/* Same values of the keys after the first: the same series. */
static int same_series(const ry_sweep_point *a, const ry_sweep_point *b, int nkeys)
{
    for (int k = 1; k < nkeys; k++)
        if (strcmp(a->values[k], b->values[k]) != 0)
            return 0;
    return 1;
}

void ry_emit_sweep_script(ry_buf *o, const char *title, const char *const *keys, int nkeys,
                          const ry_sweep_point *pts, int npts)
{
    /* x: numeric when every value is; a log2 axis over wide positive ranges. */
    int num = 1;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < npts; i++) {
        double x;
        if (!numeric(pts[i].values[0], &x))
            num = 0;
        else {
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    }
    int logx = num && lo > 0 && hi / lo >= 8;

    /* Series in order of first appearance; x in point order within each. */
    int *series = ry_xmalloc((size_t)(npts ? npts : 1) * sizeof *series);
    int nseries = 0;
    int *first = ry_xmalloc((size_t)(npts ? npts : 1) * sizeof *first);
    for (int i = 0; i < npts; i++) {
        int s = 0;
        while (s < nseries && !same_series(&pts[first[s]], &pts[i], nkeys))
            s++;
        if (s == nseries)
            first[nseries++] = i;
        series[i] = s;
    }
    ry_buf_puts(o, "# railyard sweep: iteration time and relative performance.\n"
                   "# Run: gnuplot sweep.gp (writes sweep.png and sweep.svg)\n");
    for (int s = 0; s < nseries; s++) {
        ry_buf_printf(o, "$S%d << EOD\n", s);
        int xi = 0;
        for (int i = 0; i < npts; i++) {
            if (series[i] != s)
                continue;
            if (pts[i].ok)
                ry_buf_printf(o, "%s %.9g %.9g %.6f %d\n", num ? pts[i].values[0] : "0",
                              pts[i].m.best.total, pts[i].m.ideal.total,
                              100 * pts[i].m.relative, xi);
            else
                ry_buf_printf(o, "\n");     /* a gap in the line */
            xi++;
        }
        ry_buf_puts(o, "EOD\n");
    }
    ry_buf_puts(o, "set datafile missing '?'\n");
    ry_buf_puts(o, "set style data linespoints\nset grid\n");
    ry_buf_puts(o, "set xlabel ");
    ry_escape_str(o, keys[0], RY_ESC_GNUPLOT);
    ry_buf_putc(o, '\n');
    if (logx)
        ry_buf_printf(o, "set logscale x 2\nset xrange [%.9g:%.9g]\n", lo / 1.2, hi * 1.2);
    else if (num && hi > lo)
        ry_buf_printf(o, "set xrange [%.9g:%.9g]\n", lo - (hi - lo) / 20, hi + (hi - lo) / 20);
    if (!num) {
        /* Categories: tick labels at 0, 1, ... from the first series. */
        ry_buf_puts(o, "set xtics (");
        int xi = 0;
        for (int i = 0; i < npts; i++)
            if (series[i] == 0) {
                ry_buf_printf(o, "%s", xi ? ", " : "");
                ry_escape_str(o, pts[i].values[0], RY_ESC_GNUPLOT);
                ry_buf_printf(o, " %d", xi++);
            }
        ry_buf_printf(o, ")\nset xrange [-0.5:%d.5]\n", xi - 1);
    }
    const char *xcol = num ? "1" : "5";
    ry_buf_puts(o, "set linetype 1 lc rgb '#1f77b4' lw 2 pt 7\n"
                   "set linetype 2 lc rgb '#d62728' lw 2 pt 5\n"
                   "set linetype 3 lc rgb '#2ca02c' lw 2 pt 9\n"
                   "set linetype 4 lc rgb '#ff7f0e' lw 2 pt 11\n"
                   "set linetype 5 lc rgb '#9467bd' lw 2 pt 13\n"
                   "set linetype 6 lc rgb '#8c564b' lw 2 pt 3\n"
                   "set linetype cycle 6\n");
    for (int pass = 0; pass < 2; pass++) {
        ry_gp_terminal(o, pass, 1400, 560, "sweep");
        ry_buf_puts(o, "set multiplot layout 1,2 title ");
        ry_escape_str(o, title, RY_ESC_GNUPLOT);
        ry_buf_puts(o, "\nunset key\nset ylabel 'iteration time (s)'\nset yrange [0:*]\n"
                       "set title 'Iteration time (dashed: ideal, K = N)'\nplot ");
        for (int s = 0; s < nseries; s++)
            ry_buf_printf(o, "%s$S%d using %s:2 lt %d, $S%d using %s:3 lt %d dt 2 pt 0",
                          s ? ", " : "", s, xcol, s + 1, s, xcol, s + 1);
        /* The key goes where relative performance is high: bottom right. */
        ry_buf_puts(o, "\nset key bottom right box opaque\nset ylabel 'T_ideal / T_iter (%)'\n"
                       "set yrange [0:105]\nset title 'Relative performance'\nplot ");
        for (int s = 0; s < nseries; s++) {
            ry_buf b;
            ry_buf_init(&b);
            ry_buf_puts(&b, "");
            for (int k = 1; k < nkeys; k++)
                ry_buf_printf(&b, "%s%s=%s", k > 1 ? ", " : "", keys[k], pts[first[s]].values[k]);
            ry_buf_printf(o, "%s$S%d using %s:4 lt %d title ", s ? ", " : "", s, xcol, s + 1);
            ry_escape_str(o, nkeys > 1 ? b.data : "T_ideal / T_iter", RY_ESC_GNUPLOT);
            ry_buf_free(&b);
        }
        ry_buf_puts(o, "\nunset multiplot\nset output\n");
    }
    free(series);
    free(first);
}

/* ---- traffic ----------------------------------------------------------------------------- */

static const char *const type_text[RY_TR_TYPES] = {
    "TP (tensor parallel, in domain)", "DP stage 1 (across domains)",
    "DP stage 2 (inside domains)", "PP (pipeline, adjacent stages)", "none"
};

/* One fabric's line: its capex (x may be NULL: not priced) and how it
 * compares with the reference's. */
static void bom_line(ry_buf *o, const char *what, const ry_bom *b, const ry_capex *x,
                     const ry_capex *ref)
{
    ry_buf_printf(o, "  %-16s %9s %9s %17s %15s", what, ry_n(b->switches), ry_n(b->links),
                  x ? ry_n(x->optics_modules) : "", x ? ry_n_money(x->total) : "not priced");
    if (x && ref && ref->total > 0 && x != ref) {
        double d = 100 * (1 - x->total / ref->total);
        if (fabs(d) < 0.05)
            ry_buf_puts(o, "  the same");
        else
            ry_buf_printf(o, "  %5.1f%% %s", fabs(d), d > 0 ? "less" : "more");
    }
    ry_buf_putc(o, '\n');
}

static void paper_line(ry_buf *o, const char *what, const ry_bom *b)
{
    ry_buf_printf(o, "  %-16s %9s %26s %15s\n", what, ry_n(b->switches), ry_n(b->transceivers),
                  ry_n_money(b->cost_total));
}

static void traffic_end(const ry_fabric *f, uint32_t port, char *dev, size_t dn, char *pn,
                        size_t pnn);

/* A busy link's ends in the direction it is busiest, as links.csv names
 * them: HOST/NIC, SWITCH/PORT. */
static void hot_ends(const ry_fabric *f, const struct ry_traffic_hot *h, char ends[2][256])
{
    const ry_link *k = &f->links[h->link];
    for (int i = 0; i < 2; i++) {
        char dev[160], pn[48];
        traffic_end(f, (i == 0) == (h->up != 0) ? k->lo : k->hi, dev, sizeof dev, pn, sizeof pn);
        snprintf(ends[i], sizeof ends[i], "%s/%s", dev, pn);
    }
}

static void traffic_text(ry_buf *o, const ry_spec *s, const ry_fabric *f, const ry_model *m,
                         const ry_traffic *t, const ry_traffic_map *map, const ry_traffic_load *ld,
                         const ry_bom *full, const ry_bom *trimmed, const ry_traffic_capex *tc)
{
    const ry_designs_capex *c = tc ? tc->designs : NULL;
    char b1[RY_NUM_CAP], b2[RY_NUM_CAP], tb[RY_NUM_CAP];
    ry_buf_printf(o, "%s: one iteration of %s on %s GPUs in HB domains of %s "
                  "(tensor parallel %s, data parallel %s inside a domain x %s across domains, "
                  "%s pipeline stage%s)\n\n", s->name, m->w.model.name, ry_n(t->N), ry_n(t->K),
                  ry_n(t->NM), ry_n(t->NDs), ry_n(t->NDf), ry_n(t->PP),
                  t->PP == 1 ? "" : "s");
    ry_buf_puts(o, "GPU pairs by traffic type (unordered pairs; bytes per iteration summed over "
                   "both directions)\n");
    ry_buf_printf(o, "  %-32s %16s %9s %14s %14s %8s\n", "type", "pairs", "share", "bytes/pair",
                  "bytes", "share");
    for (int k = 0; k < RY_TR_TYPES; k++)
        if (t->pairs[k] > 0)    /* a type no pair has has no bytes per pair either */
            ry_buf_printf(o, "  %-32s %16s %8.4f%% %14s %14s %7.2f%%\n", type_text[k],
                      ry_n(t->pairs[k]), pct((double)t->pairs[k], (double)t->total_pairs),
                      ry_fmt_bytes(b1, sizeof b1, 2 * t->pair_bytes[k]),
                      ry_fmt_bytes(b2, sizeof b2, t->bytes[k]), pct(t->bytes[k], t->total_bytes));
    ry_buf_printf(o, "  %-32s %16s %8.4f%% %14s %14s\n\n", "total", ry_n(t->total_pairs), 100.0, "",
                  ry_fmt_bytes(b1, sizeof b1, t->total_bytes));
    if (t->PP > 1)
        ry_buf_printf(o, "DP stage 1 and the stage boundaries that cross HB domains leave them; "
                      "DP stage 1 between GPUs of the same rank, so of the same rail (rail = rank "
                      "mod %d).\n\n", t->rails);
    else
        ry_buf_printf(o, "Only DP stage 1 leaves the HB domains, between GPUs of the same rank, so "
                      "of the same rail (rail = rank mod %d).\n\n", t->rails);
    if (map->engine)
        ry_buf_printf(o, "On the %s fabric as built (%s on the flow engine: %s routing, %s "
                      "placement, %d plane%s), over an iteration of %s\n",
                      ry_design_name(s->design),
                      t->PP > 1 ? "DP stage 1 and the pipeline's point-to-point" : "DP stage 1",
                      ry_net_routing_name((ry_net_routing)s->net.routing),
                      s->net.placement[0] ? s->net.placement : "contiguous", t->planes,
                      t->planes == 1 ? "" : "s", secs(b2, ld->iter_s));
    else
        ry_buf_printf(o, "On the %s fabric (%s routed up-down, %d plane%s), over an iteration "
                      "of %s\n", ry_design_name(s->design),
                      t->PP > 1 ? "DP stage 1 and the pipeline's point-to-point" : "DP stage 1",
                      t->planes, t->planes == 1 ? "" : "s", secs(b2, ld->iter_s));
    if (map->analytic_phases)
        ry_buf_printf(o, "  %s routed up-down instead: more flows than the %s one phase of the "
                      "engine holds\n", map->analytic, ry_n((long long)RY_COLL_MAX_FLOWS));
    ry_buf_printf(o, "  flows %s, bytes on the network %s, link crossings %s\n", ry_n(map->flows),
                  ry_fmt_bytes(b1, sizeof b1, map->network_bytes), ry_n(map->hops));
    if (t->PP > 1)
        ry_buf_printf(o, "  of them pipeline point-to-point: flows %s, bytes %s\n",
                      ry_n(map->pp_flows), ry_fmt_bytes(b1, sizeof b1, map->pp_bytes));
    ry_buf_printf(o, "  %-18s %9s %9s %7s %12s %12s %12s %12s %8s\n", "links", "count", "idle",
                  "idle", "bytes", "busiest", "mean GB/s", "busiest GB/s", "busiest");
    ry_buf_printf(o, "  %-18s %9s %9s %7s %12s %12s %12s %12s %8s\n", "", "", "", "", "", "",
                  "each way", "one way", "use");
    int tiers = full ? full->tiers : 0;
    for (int tr = 1; tr <= tiers; tr++) {
        char what[48];
        snprintf(what, sizeof what, "%s-%s", tr == 1 ? "gpu" : ry_tier_name(tr - 1, tiers),
                 ry_tier_name(tr, tiers));
        char g1[RY_NUM_CAP], g2[RY_NUM_CAP];
        ry_buf_printf(o, "  %-18s %9s %9s %6.1f%% %12s %12s %12s %12s %7.2f%%\n", what,
                      ry_n(map->tier[tr].links), ry_n(map->tier[tr].idle),
                      pct((double)map->tier[tr].idle, (double)map->tier[tr].links),
                      ry_fmt_bytes(b1, sizeof b1, map->tier[tr].bytes),
                      ry_fmt_bytes(b2, sizeof b2, map->tier[tr].max),
                      ry_num_sig(g1, sizeof g1, ld->tier[tr].mean_gbytes_per_s, 3),
                      ry_num_sig(g2, sizeof g2, ld->tier[tr].busiest_gbytes_per_s, 3),
                      100 * ld->tier[tr].busiest_util);
    }
    ry_buf_printf(o, "  %-18s %9s %9s %6.1f%%\n", "all", ry_n(map->links), ry_n(map->idle),
                  pct((double)map->idle, (double)map->links));
    if (ld->busiest_link >= 0)
        ry_buf_printf(o, "  busiest link: %s one way over the iteration on a %s Gb/s "
                      "link, %.2f%% of its %s\n",
                      ry_num_si(b1, sizeof b1, ld->busiest_gbytes_per_s * 1e9, "B/s", 3),
                      ry_num_sig(b2, sizeof b2, ld->busiest_gbps, 4), 100 * ld->busiest_util,
                      ry_num_si(tb, sizeof tb, ld->busiest_gbps / 8 * 1e9, "B/s", 3));
    else
        ry_buf_puts(o, "  no link carries DP or pipeline traffic\n\n");
    if (ld->busiest_link >= 0 && map->engine) {
        ry_buf_puts(o, "  busiest links (one way over the iteration):\n");
        for (int i = 0; i < ld->ntop; i++) {
            char ends[2][256];
            hot_ends(f, &ld->top[i], ends);
            ry_buf_printf(o, "    %s -> %s  %s, %.2f%%\n", ends[0], ends[1],
                          ry_num_si(b1, sizeof b1, ld->top[i].bytes / ld->iter_s, "B/s", 3),
                          100 * ld->top[i].util);
        }
    }
    if (ld->busiest_link >= 0)
        ry_buf_putc(o, '\n');
    if (!full)
        return;
    const ry_capex *fx = tc ? tc->full : NULL;
    ry_buf_puts(o, "Bill of materials and capex (list prices: switches, optics and cables)\n");
    ry_buf_printf(o, "  %-16s %9s %9s %17s %15s\n", "fabric", "switches", "links",
                  "optics (modules)", "capex");
    bom_line(o, ry_design_name(s->design), full, fx, fx);
    if (trimmed)
        bom_line(o, "trimmed", trimmed, tc ? tc->trimmed : NULL, fx);
    if (c && s->design != RY_DESIGN_RAIL_ONLY && c->ok[1]) {
        bom_line(o, "rail-only", &c->bom[1], &c->capex[1], fx);
        if (c->entries[1].by_position) {    /* a fabric.tiers list taken by position */
            ry_buf_puts(o, "  ");
            ry_tier_entries_text(o, s, RY_DESIGN_RAIL_ONLY, c->bom[1].tiers, &c->entries[1]);
        }
    }
    if (tc && tc->unpriced[0])
        ry_buf_printf(o, "  not priced: %s\n", tc->unpriced);
    if (trimmed && trimmed->links == full->links && trimmed->switches == full->switches)
        ry_buf_puts(o, "  trimmed: every link carries traffic; nothing is removed\n");
    else if (trimmed)
        ry_buf_printf(o, "  trimmed: %.1f%% of the links and %s switch%s carry nothing and "
                      "are removed; the iteration time is unchanged\n",
                      pct((double)(full->links - trimmed->links), (double)full->links),
                      ry_n(full->switches - trimmed->switches),
                      full->switches - trimmed->switches == 1 ? "" : "es");
    if (c && c->paper) {
        paper_heading(o, full->price_port, full->price_transceiver);
        ry_buf_printf(o, "  %-16s %9s %26s %15s\n", "fabric", "switches",
                      "transceivers (2 per link)", "cost");
        paper_line(o, ry_design_name(s->design), full);
        if (trimmed)
            paper_line(o, "trimmed", trimmed);
        if (s->design != RY_DESIGN_RAIL_ONLY && c->ok[1])
            paper_line(o, "rail-only", &c->bom[1]);
    }
}

/* "transceivers" and "paper_cost" are the rail-only paper's model;
 * "capex" (null when not priced) is what the reports agree on. */
static json_t *bom_small(const ry_bom *b, const ry_capex *x)
{
    json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:f}", "switches", (json_int_t)b->switches,
                          "links", (json_int_t)b->links, "transceivers",
                          (json_int_t)b->transceivers, "subnets", (json_int_t)b->subnets,
                          "paper_cost", b->cost_total);
    json_object_set_new(j, "cable_ends", json_integer(b->transceivers));
    json_object_set_new(j, "capex", x ? ry_capex_json(x) : json_null());
    return j;
}

/* A link end as the cabling plan names it: a GPU's end by its host and NIC
 * (the node model's NIC table, as cabling.csv, ibnetdiscover and Slurm
 * name them), a switch's by its name and IB port number. */
static void traffic_end(const ry_fabric *f, uint32_t port, char *dev, size_t dn, char *pn,
                        size_t pnn)
{
    uint32_t node = f->ports[port].owner;
    const ry_node *nd = &f->nodes[node];
    if (nd->kind == RY_NODE_GPU) {
        int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
        ry_host_name(f, node / (uint32_t)gpn, dev, dn);
        ry_nic_rdma(&f->spec->node, (int)(node % (uint32_t)gpn) + (int)(port - nd->port0) * gpn,
                    pn, pnn);
    } else {
        ry_node_name(f, node, dev, dn);
        snprintf(pn, pnn, "%d", ry_port_number(f, port));
    }
}

static json_t *traffic_json(const ry_spec *s, const ry_fabric *f, const ry_model *m,
                            const ry_traffic *t, const ry_traffic_map *map, const ry_traffic_load *ld,
                            const ry_bom *full, const ry_bom *trimmed, const ry_traffic_capex *tc)
{
    const ry_designs_capex *c = tc ? tc->designs : NULL;
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(s->name));
    json_object_set_new(j, "model", json_string(m->w.model.name));
    json_object_set_new(j, "gpus", json_integer(t->N));
    json_object_set_new(j, "hb_domain", json_integer(t->K));
    json_object_set_new(j, "rails", json_integer(t->rails));
    json_object_set_new(j, "tensor", json_integer(t->NM));
    json_object_set_new(j, "dp_in", json_integer(t->NDs));
    json_object_set_new(j, "dp_cross", json_integer(t->NDf));
    json_object_set_new(j, "pipeline", json_integer(t->PP));
    json_t *types = json_object();
    for (int k = 0; k < RY_TR_TYPES; k++)
        json_object_set_new(types, ry_traffic_type_name((ry_traffic_type)k),
                            json_pack("{s:I, s:f, s:f, s:f, s:f}", "pairs",
                                      (json_int_t)t->pairs[k], "pair_share",
                                      (double)t->pairs[k] / (double)t->total_pairs,
                                      "bytes_per_pair", 2 * t->pair_bytes[k], "bytes",
                                      t->bytes[k], "byte_share",
                                      t->total_bytes > 0 ? t->bytes[k] / t->total_bytes : 0));
    json_object_set_new(j, "types", types);
    json_object_set_new(j, "pairs", json_integer(t->total_pairs));
    json_object_set_new(j, "bytes", json_real(t->total_bytes));
    json_t *tiers = json_array();
    for (int tr = 1; full && tr <= full->tiers; tr++)
        json_array_append_new(tiers, json_pack(
            "{s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f}", "tier", tr, "links",
            (json_int_t)map->tier[tr].links, "idle", (json_int_t)map->tier[tr].idle, "bytes",
            map->tier[tr].bytes, "busiest_bytes", map->tier[tr].max, "mean_gbytes_per_s",
            ld->tier[tr].mean_gbytes_per_s, "busiest_gbytes_per_s",
            ld->tier[tr].busiest_gbytes_per_s, "busiest_link_gbps", ld->tier[tr].busiest_gbps,
            "busiest_utilisation", ld->tier[tr].busiest_util));
    json_t *net = json_pack("{s:s, s:I, s:f, s:I, s:f, s:I, s:I, s:I, s:f, s:o}", "design",
                            ry_design_name(s->design), "flows", (json_int_t)map->flows, "bytes",
                            map->network_bytes, "pp_flows", (json_int_t)map->pp_flows,
                            "pp_bytes", map->pp_bytes, "link_crossings", (json_int_t)map->hops,
                            "links", (json_int_t)map->links, "idle", (json_int_t)map->idle,
                            "iteration_s", ld->iter_s, "per_tier", tiers);
    json_t *busiest = json_null();
    if (ld->busiest_link >= 0) {
        /* its ends as links.csv and cabling.csv name them: HOST/NIC, SWITCH/PORT */
        char end[2][256];
        for (int i = 0; i < 2; i++) {
            const ry_link *k = &f->links[ld->busiest_link];
            char dev[160], pn[48];
            traffic_end(f, i ? k->hi : k->lo, dev, sizeof dev, pn, sizeof pn);
            snprintf(end[i], sizeof end[i], "%s/%s", dev, pn);
        }
        busiest = json_pack("{s:I, s:i, s:s, s:s, s:f, s:f, s:f}", "link",
                            (json_int_t)ld->busiest_link, "tier", ld->busiest_tier, "lower",
                            end[0], "upper", end[1], "gbytes_per_s", ld->busiest_gbytes_per_s,
                            "speed_gbps", ld->busiest_gbps, "utilisation", ld->busiest_util);
    }
    json_object_set_new(net, "busiest_link", busiest);
    if (map->engine) {
        /* how the loads were found, and the bottlenecks by name */
        json_object_set_new(net, "loads", json_string("engine"));
        json_object_set_new(net, "routing",
                            json_string(ry_net_routing_name((ry_net_routing)s->net.routing)));
        json_object_set_new(net, "placement", json_string(s->net.placement[0] ? s->net.placement
                                                                               : "contiguous"));
        json_object_set_new(net, "phases", json_integer(map->phases));
        json_object_set_new(net, "analytic_phases", json_integer(map->analytic_phases));
        json_object_set_new(net, "analytic_dimensions",
                            map->analytic_phases ? json_string(map->analytic) : json_null());
        json_t *hot = json_array();
        for (int i = 0; i < ld->ntop; i++) {
            char ends[2][256];
            hot_ends(f, &ld->top[i], ends);
            json_array_append_new(hot, json_pack(
                "{s:I, s:i, s:s, s:s, s:s, s:f, s:f}", "link", (json_int_t)ld->top[i].link,
                "tier", f->nodes[f->ports[f->links[ld->top[i].link].hi].owner].tier, "from",
                ends[0], "to", ends[1], "direction", ld->top[i].up ? "up" : "down", "bytes",
                ld->top[i].bytes, "utilisation", ld->top[i].util));
        }
        json_object_set_new(net, "busiest_links", hot);
    }
    json_object_set_new(j, "network", net);
    if (full)
        json_object_set_new(j, "fabric", bom_small(full, tc ? tc->full : NULL));
    if (trimmed)
        json_object_set_new(j, "trimmed", bom_small(trimmed, tc ? tc->trimmed : NULL));
    if (c && c->ok[1]) {
        json_t *ro = bom_small(&c->bom[1], &c->capex[1]);
        if (c->entries[1].by_position)  /* a fabric.tiers list taken by position */
            json_object_set_new(ro, "tier_entries",
                                ry_tier_entries_json(c->bom[1].tiers, &c->entries[1]));
        json_object_set_new(j, "rail_only", ro);
    }
    return j;
}

void ry_emit_traffic(ry_buf *o, const ry_spec *s, const ry_fabric *f, const ry_model *m,
                     const ry_parallelism *lay, const ry_traffic *t,
                     const ry_traffic_map *map, const ry_traffic_load *ld, const ry_bom *full,
                     const ry_bom *trimmed, const ry_traffic_capex *c, ry_format fmt)
{
    if (fmt == RY_FMT_JSON) {
        json_t *j = traffic_json(s, f, m, t, map, ld, full, trimmed, c);
        json_object_set_new(j, "layout", ry_parallelism_json(lay));
        ry_json_out(o, j, 0);
        return;
    }
    ry_buf x;
    ry_buf_init(&x);
    traffic_text(&x, s, f, m, t, map, ld, full, trimmed, c);
    ry_emit_with_parallelism(o, x.data, x.len, lay);
    ry_buf_free(&x);
}

void ry_emit_traffic_links(ry_buf *o, const ry_fabric *f, const ry_traffic_map *map)
{
    ry_buf_puts(o, "link,tier,lower,lower_port,upper,upper_port,bytes_up,bytes_down\n");
    for (size_t l = 0; l < f->nlinks; l++) {
        char lo[160], lp[48], hi[160], hp[48];
        traffic_end(f, f->links[l].lo, lo, sizeof lo, lp, sizeof lp);
        traffic_end(f, f->links[l].hi, hi, sizeof hi, hp, sizeof hp);
        ry_buf_printf(o, "%zu,%d,%s,%s,%s,%s,%.9g,%.9g\n", l,
                      f->nodes[f->ports[f->links[l].hi].owner].tier, lo, lp, hi, hp, map->up[l],
                      map->down[l]);
    }
}

/* ---- heatmap ------------------------------------------------------------------------------ */

long long ry_heatmap_size(const ry_traffic *t, int wide)
{
    long long cap = 1024, w = wide ? 4 * t->K : t->K;
    if (w > cap)
        w = t->K <= cap ? cap / t->K * t->K : cap;
    return w < t->N ? w : t->N;
}

void ry_emit_heatmap_pairs(ry_buf *o, const ry_traffic *t)
{
    long long w = ry_heatmap_size(t, 1);
    ry_buf_puts(o, "i,j,type,bytes_each_way\n");
    for (long long i = 0; i < w; i++)
        for (long long j = i + 1; j < w; j++) {
            ry_traffic_type k = ry_traffic_pair(t, i, j);
            if (k != RY_TR_NONE)
                ry_buf_printf(o, "%lld,%lld,%s,%.9g\n", i, j, ry_traffic_type_name(k),
                              t->pair_bytes[k]);
        }
}

/* GPUs per heatmap cell: windows wider than 256 GPUs are drawn in blocks
 * (the busiest pair of each) so thin lines survive the scaling. */
static long long heatmap_cell(long long w)
{
    return w > 256 ? (w + 255) / 256 : 1;
}

void ry_heatmap_matrix(ry_buf *o, const ry_traffic *t, int wide)
{
    long long w = ry_heatmap_size(t, wide), q = heatmap_cell(w), n = (w + q - 1) / q;
    for (long long a = 0; a < n; a++)
        for (long long b = 0; b < n; b++) {
            double v = 0;
            for (long long i = a * q; i < (a + 1) * q && i < w; i++)
                for (long long j = b * q; j < (b + 1) * q && j < w; j++) {
                    double x = i == j ? 0 : t->pair_bytes[ry_traffic_pair(t, i, j)];
                    v = x > v ? x : v;
                }
            /* No traffic is NaN: gnuplot leaves those pixels blank. */
            float f = v > 0 ? (float)v : NAN;
            ry_buf_add(o, &f, sizeof f);
        }
}

void ry_emit_heatmap_script(ry_buf *o, const ry_spec *s, const ry_traffic *t)
{
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < RY_TR_NONE; k++)
        if (t->pair_bytes[k] > 0 && t->pairs[k] > 0) {
            lo = t->pair_bytes[k] < lo ? t->pair_bytes[k] : lo;
            hi = t->pair_bytes[k] > hi ? t->pair_bytes[k] : hi;
        }
    if (!(hi > 0))
        lo = 1, hi = 10;
    lo = pow(10, floor(log10(lo)));
    hi = pow(10, ceil(log10(hi)));
    if (hi <= lo)
        hi = lo * 10;
    long long w1 = ry_heatmap_size(t, 0), w4 = ry_heatmap_size(t, 1);
    ry_buf_puts(o, "# railyard traffic heatmaps: bytes GPU i sends GPU j in one iteration.\n"
                   "set terminal pngcairo size 1400,640 font 'DejaVu Sans,11' noenhanced\n"
                   "set output 'heatmap.png'\n");
    ry_buf title;
    ry_buf_init(&title);
    ry_buf_printf(&title, "%s: %s, N_M = %lld, N_Ds = %lld, N_Df = %lld (white: no traffic)",
                  s->name, s->workload ? s->workload->model.name : "", t->NM, t->NDs, t->NDf);
    ry_buf_puts(o, "set multiplot layout 1,2 title ");
    ry_escape_str(o, title.data, RY_ESC_GNUPLOT);
    ry_buf_putc(o, '\n');
    ry_buf_free(&title);
    ry_buf_printf(o, "set logscale cb\nset cbrange [%g:%g]\nset format cb '%%.0e'\n"
                  "set cblabel 'bytes per iteration'\n", lo, hi);
    ry_buf_puts(o, "set palette defined (0 '#08306b', 1 '#2171b5', 2 '#6a3d9a', 3 '#d62728', "
                   "4 '#ff7f0e')\nset size ratio -1\nunset key\nset xlabel 'GPU j'\n"
                   "set ylabel 'GPU i'\n");
    const char *files[2] = { "heatmap-1.bin", "heatmap-4.bin" };
    long long ws[2] = { w1, w4 };
    for (int p = 0; p < 2; p++) {
        long long dom = ws[p] / t->K;
        long long q = heatmap_cell(ws[p]), n = (ws[p] + q - 1) / q;
        char cell[96] = "";
        if (q > 1)
            snprintf(cell, sizeof cell, "; a cell: the busiest of %lldx%lld pairs", q, q);
        if (p == 0 || dom < 1)
            ry_buf_printf(o, "set title 'the first %lld GPUs%s%s'\n", ws[p],
                          ws[p] == t->K ? " (one HB domain)" : "", cell);
        else
            ry_buf_printf(o, "set title 'the first %lld HB domains (%lld GPUs%s)'\n", dom, ws[p],
                          cell);
        ry_buf_printf(o, "set xrange [-0.5:%lld.5]\nset yrange [%lld.5:-0.5]\n", ws[p] - 1,
                      ws[p] - 1);
        ry_buf_printf(o, "plot '%s' binary array=(%lld,%lld) dx=%lld dy=%lld origin=(%g,%g) "
                      "format='%%float32' with image\n", files[p], n, n, q, q,
                      (double)(q - 1) / 2, (double)(q - 1) / 2);
    }
    ry_buf_puts(o, "unset multiplot\nset output\n");
}

void ry_emit_heatmap_pgm(ry_buf *o, const ry_traffic *t)
{
    long long w = ry_heatmap_size(t, 1);
    double hi = 0, lo = INFINITY;
    for (int k = 0; k < RY_TR_NONE; k++)
        if (t->pair_bytes[k] > 0 && t->pairs[k] > 0) {
            hi = t->pair_bytes[k] > hi ? t->pair_bytes[k] : hi;
            lo = t->pair_bytes[k] < lo ? t->pair_bytes[k] : lo;
        }
    ry_buf_printf(o, "P5\n# railyard traffic: log bytes, white = none\n%lld %lld\n255\n", w, w);
    double span = hi > lo ? log10(hi) - log10(lo) : 1;
    for (long long i = 0; i < w; i++)
        for (long long j = 0; j < w; j++) {
            double v = i == j ? 0 : t->pair_bytes[ry_traffic_pair(t, i, j)];
            unsigned char g = 255;
            if (v > 0)
                g = (unsigned char)(200 - 200 * (log10(v) - log10(lo)) / span);
            ry_buf_putc(o, (char)g);
        }
}
