/* The full training model: eq. 1 of the rail-only paper (model/iteration.h)
 * extended with what a real run needs to fit and to be fast, as
 * doc/llm-model.md ("The full model") states with its sources:
 *
 *  - tensor (t, inside an HB domain) x pipeline (p stages) x data (d)
 *    parallelism, N = t p d, searched over every layout whose GPUs fit
 *    memory; micro-batches of mb sequences, m = ceil(B/d)/mb per replica;
 *  - memory per GPU (Rajbhandari et al. 2020, ZeRO; Korthikanti et al.
 *    2022, activations): weights, gradients, Adam states, activations of
 *    the first stage's in-flight micro-batches, with none, selective or full
 *    recomputation, against the GPU's HBM;
 *  - the 1F1B pipeline bubble, (p - 1)/m of the compute (Narayanan et al.
 *    2021), and the point-to-point activations between stages;
 *  - the data-parallel gradient reduction in its own precision.
 *
 * The paper's eq. 1 is the case p = 1, mb = B/d, efficiency 1, gradients in
 * the compute precision, no memory limit: ry_plan_eval then equals
 * ry_iter_eval term by term (a unit test checks it). The paper mode
 * (--paper) is ry_model_compute itself; ry_plan_memory reports its memory.
 *
 * Layout: GPU rank = tp + t (dp + d pp): tensor groups are consecutive
 * ranks of a domain, the d replicas of one stage come next, stages last.
 * A layout is kept when a stage fills whole HB domains (K divides t d: then
 * a stage boundary joins GPU g to g + t d, the same local rank, so the same
 * rail, and pipeline traffic stays on one rail of a rail-optimized or
 * rail-only fabric) or a domain holds whole stages (t d divides K: the
 * boundaries inside a domain are NVLink, the others cross to another rank,
 * forwarded through the domain first on rail-only, as PXN does).
 *
 * Only ry_plan_compute reports errors, at the spec's keys, as
 * ry_model_compute does; the rest computes. ry_plan holds no heap memory. */
#ifndef RY_PLAN_H
#define RY_PLAN_H

#include "model/iteration.h"

/* Bytes per GPU of one configuration (the first pipeline stage: the
 * embedding and the most in-flight micro-batches). */
typedef struct ry_plan_mem {
    double weights, grads, optimizer, activations;
    double total, capacity;     /* capacity 0: the GPU's memory is unknown */
    int feasible;               /* total <= capacity (or capacity unknown) */
    int recompute;              /* ry_recompute these activations assume */
    int inflight;               /* micro-batches whose activations stage 0 holds */
} ry_plan_mem;

/* One configuration and its iteration time. */
typedef struct ry_plan_cfg {
    long long t, p, d;          /* tensor, pipeline, data parallel */
    long long dp_in, dp_cross;  /* d = dp_in x dp_cross: inside and across HB domains */
    long long mb, m;            /* sequences per micro-batch, micro-batches per replica */
    long long seqs;             /* sequences of the busiest replica: ceil(B/d) */
    int blocks;                 /* transformer blocks of the biggest stage: ceil(l/p) */
    int p2p_cross;              /* 1: stage boundaries cross HB domains (B_S), 0: NVLink */
    double compute, bubble, tp, pp, dp_in_s, dp_cross_s;   /* seconds */
    double total;
    double hw_flops;            /* executed per iteration, with this recomputation */
    ry_plan_mem mem;
} ry_plan_cfg;

typedef struct ry_plan {
    ry_model base;              /* eq. 1's inputs (ry_model_inputs); results only in paper mode */
    int paper;                  /* 1: the paper's eq. 1 chose; the plan only reports memory */
    double efficiency;          /* compute efficiency used */
    int grad_bytes;             /* per element of the data-parallel reduction */
    ry_plan_cfg best;           /* the chosen configuration at the cluster's K */
    ry_plan_cfg ideal;          /* K = N */
    int ideal_ok;
    long long considered, fit;  /* configurations evaluated; of them, fitting memory */
    double mfu, hfu, relative, tokens_per_s;
    int mfu_unpublished;        /* MFU above RY_PLAN_MFU_PUBLISHED */
} ry_plan;

/* The default compute efficiency outside paper mode: Llama 3's reported
 * BF16 MFU at 8,192 H100 GPUs, 43% (Llama Team, "The Llama 3 Herd of
 * Models", 2024, Table 4). */
#define RY_PLAN_EFFICIENCY 0.43
/* The highest MFU a published large run reports: MegaScale, 55.2% for a
 * 175B model on 12,288 GPUs (Jiang et al., NSDI 2024). Above it: flagged. */
#define RY_PLAN_MFU_PUBLISHED 0.552

/* Memory per GPU of configuration c (t, p, d, mb, m set) with recomputation
 * rc, from the plan's inputs. */
void ry_plan_memory(const ry_plan *pl, const ry_plan_cfg *c, int rc, ry_plan_mem *mem);

/* The iteration time of c (t, p, d, mb, m, seqs, blocks) at HB domain K. */
void ry_plan_eval(const ry_plan *pl, long long K, int rc, ry_plan_cfg *c);

/* The fastest configuration that fits at HB domain K, honouring the
 * workload's fixed sizes. -1 when none fits: *least (if not NULL) gets
 * the configuration of least memory that was considered (t 0 when no
 * layout was valid at all). */
int ry_plan_search(ry_plan *pl, long long K, ry_plan_cfg *best, ry_plan_cfg *least);

/* The full model (paper 0) or the paper's eq. 1 with memory reported
 * (paper 1). -1 after an error printed at the spec: no workload, a misfit,
 * or (full model) no configuration that fits, with what would. */
int ry_plan_compute(const ry_spec *s, int paper, ry_plan *pl);

/* The layout a report ran, in the words every command prints
 * (emit/emit_layout.h): what `model` chose (the full model, or eq. 1's
 * with --paper), as traffic, optimize, whatif and sweep take it from
 * ry_plan_compute. */
typedef enum { RY_PAR_FULL, RY_PAR_PAPER, RY_PAR_GIVEN } ry_par_source;

typedef struct ry_parallelism {
    long long tp, pp, dp, ep;   /* tensor, pipeline, data, expert parallel (1: none) */
    int recompute;              /* ry_recompute */
    ry_par_source source;    /* GIVEN: libra.tensor_parallel fixed it */
} ry_parallelism;

/* The layout of pl's chosen configuration. */
void ry_plan_parallelism(const ry_plan *pl, ry_parallelism *out);

/* The chosen configuration rerun after failures (whatif): the network
 * bandwidth per GPU scaled by bs_ratio (the slowest HB domain's share, 0:
 * a domain cut off, the job stalls when anything crosses domains), the
 * layout kept, and the bytes handed to the HB domain over NVLink
 * (fwd_max, fwd_sum in units of one GPU's cross-domain data-parallel
 * bytes, twice: out and back) added at B_F. In paper mode it is eq. 1's
 * ry_iter_degrade; in the full model every term over B_S moves (the
 * data-parallel all-reduce across domains and a stage boundary's
 * point-to-point when it crosses domains). The terms report compute with
 * the pipeline bubble, and tensor parallel with the point-to-point. */
void ry_plan_degrade(const ry_plan *pl, double bs_ratio, double fwd_max, double fwd_sum,
                     ry_iter_degraded *d);

#endif
