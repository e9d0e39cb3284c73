/* The full training model: eq. 1 of the rail-only paper (model/iteration.h)
 * grown into a model that predicts published training runs, as
 * doc/llm-model.md ("The full model") states with its sources and the table
 * of runs it is checked against:
 *
 *  - tensor (t, inside an HB domain, with or without sequence parallelism)
 *    x context (c) x pipeline (p stages, v interleaved chunks per GPU) x
 *    data (d) parallelism, expert parallelism (ep) inside a stage; t c p d
 *    <= N (GPUs may stay idle when that is faster); micro-batches of mb
 *    sequences, m = ceil(ceil(B/d)/mb) per replica; every size searched
 *    unless the spec fixes it;
 *  - compute from the block's shape: GEMMs at the GPU's GEMM efficiency
 *    (FP8 speeds only them), attention at its own, memory-bound kernels at
 *    the HBM bandwidth, recomputation's extra forward;
 *  - memory per GPU: weights, gradients, Adam states (experts divided by
 *    ep, ZeRO's shards), ZeRO-3's gather buffers, activations of the first
 *    stage's in-flight micro-batches from the block's shape, a reserve;
 *  - communication with its overlap: tensor-parallel collectives, the
 *    context-parallel ring, the expert all-to-all (model/moe.h), pipeline
 *    point-to-point and bubble, the data-parallel reduction (or ZeRO-3's
 *    gathers) behind backward and forward.
 *
 * The paper mode (--paper) is ry_model_compute itself, eq. 1 exactly;
 * ry_plan_memory reports its memory.
 *
 * Layout: GPU rank = tp + t (cp + c (dp + d pp)): tensor groups are
 * consecutive ranks of a domain, then the context group, the d replicas of
 * one stage, stages last. A layout is kept when a stage fills whole HB
 * domains (K divides t c d: a stage boundary joins GPU g to g + t c d, the
 * same local rank, so the same rail) or a domain holds whole stages (t c d
 * divides K), and the tensor x context group fills domains or fits in one.
 *
 * Only ry_plan_compute reports errors, at the spec's keys, as
 * ry_model_compute does; the rest computes. ry_plan holds no heap memory. */
#ifndef RY_PLAN_H
#define RY_PLAN_H

#include "model/iteration.h"
#include "net/collective.h"

/* The model's block, from its shape (ry_plan_arch_init): per token and per
 * block (the average of the model's dense and MoE blocks), forward pass. */
typedef struct ry_plan_arch {
    double gemm;            /* FLOPs of the matrix multiplies (projections, MLP or experts) */
    double gemm_expert;     /* of gemm: the experts' (routed and shared) */
    double gemm_inputs;     /* elements the GEMMs read per token (FP8 casts them) */
    double attn;            /* FLOPs of the attention core, causal (QK^T and the product with V) */
    double attn_full;       /* the same without the causal mask (what unfused attention computes) */
    double attn_keys;       /* keys a query sees in a block without a window: s */
    double attn_window;     /* with a sliding window: its keys (0: none) */
    double window_share;    /* of the blocks, those with the window */
    double attn_win;        /* of attn: the windowed blocks' share of it */
    double kv_width;        /* K and V elements per token (the context ring's) */
    double act_product;     /* of act_split: SwiGLU's products (the activation function's
                             * output), which selective recomputation reruns */
    double act_mla_saved;   /* of act_split: what selective recomputation of latent
                             * attention's up-projections does not keep */
    double head_factor;     /* attention's rate for the head size (ry_plan_attn_rate) */
    double logits;          /* FLOPs of the output layer, once per token */
    double elem_split;      /* elements memory-bound kernels move, split over the tensor group */
    double elem_rep;        /* those only sequence parallelism splits */
    double act_split;       /* bytes kept for backward, split over the tensor group */
    double act_rep;         /* those only sequence parallelism splits */
    double act_scores;      /* bytes per token of unfused attention's scores (x s), split */
    double gemm_in_moe;     /* of act_split: the experts' input copies (16-bit) */
    double dense_params;    /* parameters of an average block outside the routed experts */
    double expert_params;   /* routed-expert parameters of an average block */
    double embedding;       /* V d_model */
    double model_flops;     /* per iteration, the workload's convention (MFU) */
    double arch_flops;      /* per iteration, counted from the shape, causal attention */
} ry_plan_arch;

/* Bytes per GPU of one configuration (the first pipeline stage: the
 * embedding and the most in-flight micro-batches). */
typedef struct ry_plan_mem {
    double weights, grads, optimizer, activations;
    double gather;              /* ZeRO-3: two blocks' gathered weights (one prefetched) */
    double reserve;             /* CUDA context, communication buffers, allocator */
    double total, capacity;     /* capacity 0: the GPU's memory is unknown */
    int feasible;               /* total <= capacity (or capacity unknown) */
    int recompute;              /* ry_recompute these activations assume */
    double inflight;            /* micro-batches whose activations stage 0 holds (interleaving: fractional) */
} ry_plan_mem;

/* One configuration and its iteration time. Times are the busiest GPU's
 * seconds per iteration; communication terms are what is left exposed
 * after the overlap (hidden: the part that ran behind compute). */
typedef struct ry_plan_cfg {
    long long t, p, d;          /* tensor, pipeline, data parallel */
    long long c, v, ep;         /* context parallel, interleaved chunks per GPU, expert parallel */
    long long etp;              /* expert tensor parallel: each expert over etp GPUs (0, 1: none) */
    long long gpus;             /* t c p d: the GPUs the layout uses (the rest idle) */
    long long dp_in, dp_cross;  /* the weights' replicas, c d = dp_in x dp_cross: inside and across HB domains */
    long long mb, m;            /* sequences per micro-batch, micro-batches per replica */
    long long seqs;             /* sequences of the busiest replica: ceil(B/d) */
    int blocks;                 /* transformer blocks of the busiest stage (ry_plan_stages) */
    int first_blocks;           /* of the first stage (the memory's) */
    int logits;                 /* output layers on the busiest stage (the last: 1 + MTP) */
    int p2p_cross;              /* 1: stage boundaries cross HB domains (B_S), 0: NVLink */
    int cp_cross;               /* 1: the context-parallel ring crosses HB domains */
    double compute;             /* the kernels: GEMMs, attention, memory-bound, output layer */
    double gemm_s, attn_s, mem_s;   /* of compute: GEMMs (and the output layer), attention, memory-bound */
    double bubble, tp, pp, cp, moe, dp_in_s, dp_cross_s;   /* seconds, exposed */
    double hidden;              /* communication that ran behind compute */
    double dp_x_bytes;          /* data-parallel bytes per GPU across domains, per iteration */
    /* Of the network bandwidth per GPU, what the fabric's tapers leave each
     * collective's groups (ry_plan_group_share; 1 inside a block or on a
     * network without tapers): the context ring, the stage boundaries, the
     * data-parallel reduction across domains, the expert all-to-all. */
    double share_cp, share_pp, share_dp, share_ep;
    double total;
    double hw_flops;            /* executed per iteration, with this recomputation */
    ry_plan_mem mem;
} ry_plan_cfg;

#define RY_PLAN_SHARE_MEMO 512

/* Two iteration times closer than this (relative) are the same speed to
 * the model: the flow engine's phases are exact to 1% (net/fill.c), and a
 * hashed fabric's times are a mean over draws. compare and search say so. */
#define RY_PLAN_RESOLUTION 0.01

/* The network engine behind a plan's shares (net/): the fabric as built,
 * routed as the spec's network: section says, the job's ranks placed on it
 * (network.placement). ry_plan_compute_on chooses the layout on the
 * analytic shares (ry_plan_group_share), then times the chosen layout's
 * collectives on the engine: each parallel dimension's groups run all at
 * once (net/collective.h, ry_coll_groups) and their share of the NICs'
 * rate replaces the analytic one. Where the switches hash flows onto
 * paths (ECMP), a phase's paths are one draw of the hash: its time is the
 * mean over RY_PLAN_NET_DRAWS seeds. A phase the engine cannot take (more
 * flows than it holds) keeps the analytic share and is counted. */
#define RY_PLAN_NET_MEMO 32
/* Layouts the engine may re-time after the analytic shares' choice: the
 * fastest of that many shapes (ry_plan_compute_on). */
#define RY_PLAN_TOP 6
#define RY_PLAN_NET_DRAWS 5             /* hashed paths: the mean over this many draws */
#define RY_PLAN_NET_BYTES 1048576.0     /* a hop's bytes in the engine's phase (the
                                           share does not depend on it) */
typedef struct ry_plan_net {
    ry_net *net;
    ry_job job;
    int active;                 /* share questions go to the engine */
    int asked, fallback;        /* phases run; questions answered analytically instead */
    long long flows;            /* flows of the phases run */
    char why[256];              /* the last fallback's reason */
    int unrouted;               /* of the fallbacks: phases with a hop the fabric has no route for */
    char unrouted_why[256];     /* the first of them's reason */
    struct ry_plan_net_memo {
        long long gpus, stride, count;
        int op;                 /* ry_coll_op */
        double share;
    } memo[RY_PLAN_NET_MEMO];
    int nmemo;
} ry_plan_net;

/* The engine over a built fabric (its spec's network: section); -1 with
 * err set when the options do not fit the fabric. */
int ry_plan_net_init(ry_plan_net *pn, const ry_fabric *f, ry_err *err);
void ry_plan_net_free(ry_plan_net *pn);

typedef struct ry_plan {
    ry_model base;              /* eq. 1's inputs (ry_model_inputs); results only in paper mode */
    int paper;                  /* 1: the paper's eq. 1 chose; the plan only reports memory */
    double efficiency;          /* paper: eq. 1's; full: the GEMM efficiency used */
    double attn_eff, gemm_peak; /* fused attention's efficiency; the GEMMs' peak FLOP/s */
    double bf16_peak;           /* MFU's denominator per GPU */
    int grad_bytes;             /* per element of the data-parallel reduction */
    int rails;                  /* the spec's (the expert all-to-all's placement) */
    double net_share;           /* of the NIC bandwidth across the fabric's tapers for traffic
                                   spread over the cluster (the uniform bound; full) */
    int net_tier;               /* the highest tier the cluster's traffic crosses up */
    ry_fabric_block blocks[RY_MAX_TIERS];  /* the fabric's blocks (ry_spec_fabric_blocks) */
    int n_blocks;
    ry_plan_arch arch;
    ry_plan_cfg best;           /* the chosen configuration at the cluster's K */
    ry_plan_cfg analytic;       /* ry_plan_compute_on: best as the analytic shares timed it */
    ry_plan_net *net;           /* ry_plan_compute_on: the engine (borrowed), else NULL */
    ry_plan_cfg ideal;          /* K = N */
    int ideal_ok;
    long long considered, fit;  /* configurations evaluated; of them, fitting memory */
    /* The layout search's fastest layouts by the analytic shares, one a
     * shape (tensor, context, pipeline, data, expert), fastest first: the
     * engine re-times them (ry_plan_compute_on) */
    ry_plan_cfg top[RY_PLAN_TOP];
    int ntop, collect_top;
    int shares_one;             /* every share 1: the fabric's ends alone (a lower bound) */
    int reranked;               /* ry_plan_compute_on: layouts the engine timed beyond the first */
    double mfu, hfu, relative, tokens_per_s;
    double mfu_fp8;             /* FP8 runs: MFU against the FP8 peak */
    int mfu_unpublished;        /* MFU (BF16 peak) above RY_PLAN_MFU_PUBLISHED */
    /* ry_plan_group_share's answers on this plan's blocks, by their
     * arguments (a direct-mapped cache: the layout search asks the same few
     * hundred questions many times, each a pass over the blocks' boundaries) */
    struct ry_plan_share_memo {
        long long gpus, stride, count;
        int spread, used;
        double share;
    } share_memo[RY_PLAN_SHARE_MEMO];
} ry_plan;

/* Without a catalog figure, the fraction of the dense peak a training GEMM
 * reaches and fused attention reaches (doc/llm-model.md, "Compute"). */
#define RY_PLAN_GEMM_EFFICIENCY 0.7
#define RY_PLAN_ATTN_EFFICIENCY 0.5
/* The experts' grouped GEMMs, with routing and token permutation, against
 * a dense GEMM's efficiency (doc/llm-model.md, "Compute"). */
#define RY_PLAN_EXPERT_EFFICIENCY 0.55
/* Rows (tokens) at which a GEMM reaches half its efficiency: the rate is
 * gemm_efficiency x tokens / (tokens + RY_PLAN_GEMM_ROWS). */
#define RY_PLAN_GEMM_ROWS 128.0
/* Bus bandwidth NCCL reaches of a link's one-way rate: NVLink and the
 * network (doc/llm-model.md, "Communication"). */
#define RY_PLAN_NVLINK_EFFICIENCY 0.8
#define RY_PLAN_NETWORK_EFFICIENCY 0.9
/* The memory the model cannot use: the CUDA context and communication
 * buffers, and the allocator's fragmentation, a share of the rest. */
#define RY_PLAN_RESERVE_BYTES 2e9
#define RY_PLAN_RESERVE_SHARE 0.08
/* The highest MFU a published large run reports: MegaScale, 55.2% for a
 * 175B model on 12,288 GPUs (Jiang et al., NSDI 2024). Above it: flagged. */
#define RY_PLAN_MFU_PUBLISHED 0.552

/* The block of the plan's workload into pl->arch (ry_plan_compute does it). */
void ry_plan_arch_init(ry_plan *pl);

/* Memory per GPU of configuration c (t, p, d, c, v, ep, mb, m, blocks set)
 * with recomputation rc, from the plan's inputs. */
void ry_plan_memory(const ry_plan *pl, const ry_plan_cfg *c, int rc, ry_plan_mem *mem);

/* The layout rule (above) for c's t, c, d, p at HB domain K: 1 when kept,
 * with dp_in, dp_cross (the weights' c d replicas inside and across
 * domains) and where the context ring and stage boundaries run set; 0 when
 * not kept. */
int ry_plan_layout(long long K, ry_plan_cfg *c);

/* c's pipeline stages (its p): the blocks of its busiest stage, of its
 * first, and the output layers the busiest holds, from the workload's
 * first_stage_layers and last_stage_layers (the rest split evenly) and the
 * model's multi-token-prediction blocks (on the last stage, each with the
 * output layer again). 0 when p stages cannot hold the split. */
int ry_plan_stages(const ry_plan *pl, ry_plan_cfg *c);

/* Fused attention's FLOP/s on pl's GPU when a query sees `keys` keys in
 * one kernel (a context-parallel chunk, a window): the catalog's
 * attention_efficiency x keys / (keys + attention_half_length), x the head
 * size's factor (arch.head_factor). */
double ry_plan_attn_rate(const ry_plan *pl, double keys);

/* Bytes an FP8 cast moves per element of a GEMM's 16-bit input, by
 * workload.fp8_recipe (ry_fp8_recipe): delayed scaling reads it and writes
 * it once (3); tensorwise (current) scaling reads it once more for its
 * maximum first (5); blockwise and MXFP8 write a rowwise and a columnwise
 * copy, the backward's GEMMs reducing along the other dimension, with
 * their blocks' scales (4.06 both). */
double ry_plan_cast_bytes(int recipe);

/* The rows of a routed expert's GEMMs in configuration c: the tokens one
 * expert sees in a micro-batch (0 without experts). */
double ry_plan_expert_rows(const ry_plan *pl, const ry_plan_cfg *c);

/* The iteration time of c (its sizes, seqs, blocks, dp_in, dp_cross and the
 * boundaries set) at HB domain K, with the workload's overlaps. */
void ry_plan_eval(const ry_plan *pl, long long K, int rc, ry_plan_cfg *c);

/* What the fabric's tapers leave a collective, as a share of a GPU's
 * network bandwidth. Its groups are `count` ranks `stride` apart (ranks as
 * the layout above numbers them: a group starts at every rank r with r mod
 * (stride x count) < stride), all of them communicating at once over ranks
 * 0 to gpus - 1, which fill the blocks b[0..nb) in order. For every block
 * of a tapered tier (cut above 1), the flows leaving one block: a ring or
 * chain through a group in rank order leaves a block once for every group
 * with members in it and outside it (a group inside a block, none); a
 * group whose stride reaches a block's size has no two members in one
 * block, so every GPU sends out (the uniform bound). spread: an all-to-all,
 * whose every member sends to every other: a group inside a block keeps 1,
 * any other the uniform bound. The share is the least over the tiers of
 * the block's uplink bandwidth (gpus / cut NICs) over its busiest block's
 * flows, at most 1. */
double ry_plan_group_share(const ry_fabric_block *b, int nb, long long gpus, long long stride,
                           long long count, int spread);

/* The fastest configuration that fits at HB domain K, honouring the
 * workload's fixed sizes. -1 when none fits: *least (if not NULL) gets
 * the configuration of least memory that was considered (t 0 when no
 * layout was valid at all). */
int ry_plan_search(ry_plan *pl, long long K, ry_plan_cfg *best, ry_plan_cfg *least);

/* The full model (paper 0) or the paper's eq. 1 with memory reported
 * (paper 1). -1 after an error printed at the spec: no workload, a misfit,
 * or (full model) no configuration that fits, with what would. */
int ry_plan_compute(const ry_spec *s, int paper, ry_plan *pl);
/* The full model with the chosen layout's collectives timed on the engine
 * (pn, see ry_plan_net; NULL: ry_plan_compute). */
int ry_plan_compute_on(const ry_spec *s, ry_plan_net *pn, ry_plan *pl);
/* The same without the ideal (the cluster as one HB domain: ideal_ok 0,
 * relative 0), for the callers that never report it: a search's points. */
int ry_plan_compute_layout(const ry_spec *s, ry_plan_net *pn, ry_plan *pl);

/* pl's chosen configuration, its layout kept, timed again on the engine
 * pn as it stands (ry_net_set_down: a fabric with failures) into *out:
 * pn's memo and counts start afresh, so pn->unrouted counts the phases
 * with no route on that fabric (their shares stay the analytic ones). */
void ry_plan_time_on(const ry_plan *pl, ry_plan_net *pn, ry_plan_cfg *out);

/* The fastest possible iteration of the spec's workload on its cluster
 * (its GPUs, nodes, HB domain and NICs), whatever the fabric: the full
 * model's best layout on a non-blocking network at the NICs' own speed,
 * into *total. No fabric makes the workload faster (ry_plan_compute's
 * time is at least this), so a search bounds its points with it. -1,
 * silently but for the workload's own misfit, when no layout fits; pl is
 * the caller's workspace. */
int ry_plan_fastest(const ry_spec *s, ry_plan *pl, double *total);

/* The layout a report ran, in the words every command prints
 * (emit/model/emit_parallelism.h): what `model` chose (the full model, or eq. 1's
 * with --paper), as traffic, optimize, whatif and sweep take it from
 * ry_plan_compute. */
typedef enum { RY_PAR_FULL, RY_PAR_PAPER, RY_PAR_GIVEN } ry_par_source;

typedef struct ry_parallelism {
    long long tp, pp, dp, ep;   /* tensor, pipeline, data, expert parallel (1: none) */
    long long etp;              /* expert tensor parallel (1: none) */
    long long cp, vp;           /* context parallel, interleaved chunks per GPU (1: none) */
    long long idle;             /* GPUs the layout leaves idle */
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
 * point-to-point when it crosses domains). Before and after are both the
 * analytic shares' (a configuration timed on the flow engine is timed
 * again without it), so the slowdown compares like with like. The terms
 * report compute with the pipeline bubble, and tensor parallel with the
 * point-to-point. */
void ry_plan_degrade(const ry_plan *pl, double bs_ratio, double fwd_max, double fwd_sum,
                     ry_iter_degraded *d);

#endif
