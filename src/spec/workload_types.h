/* The workload section's type and its enums, below its reader: the spec's
 * key table (spec/schema.c, which also holds the enums' words) lays its
 * rows on them. The reader is declared in spec/workload.h. */
#ifndef RY_WORKLOAD_TYPES_H
#define RY_WORKLOAD_TYPES_H

#include "spec/catalog_words.h"
#include "spec/spec.h"

/* workload.flops_convention, in the order of its words (spec/schema.c). */
typedef enum { RY_FLOPS_6NT = 0, RY_FLOPS_KORTHIKANTI = 1, RY_FLOPS_ARCH = 2 } ry_flops_conv;
/* workload.recompute, in the order of its words. */
typedef enum { RY_RECOMPUTE_NONE = 0, RY_RECOMPUTE_FULL = 1, RY_RECOMPUTE_SELECTIVE = 2 } ry_recompute;
/* workload.gradient_precision, in the order of its words. */
typedef enum { RY_GRAD_BF16 = 0, RY_GRAD_FP32 = 1 } ry_grad_precision;
extern const char *const ry_recompute_names[];
extern const char *const ry_grad_precision_names[];
/* workload.fp8_recipe: how FP8 GEMM inputs are scaled (model/plan.c's casts). */
typedef enum {
    RY_FP8_DELAYED = 0,     /* per tensor, the scale from past iterations' maxima */
    RY_FP8_TENSORWISE = 1,  /* per tensor, the scale from this tensor's maximum: a pass more */
    RY_FP8_BLOCKWISE = 2,   /* 1 x 128 / 128 x 128 blocks: rowwise and columnwise copies */
    RY_FP8_MXFP8 = 3        /* 32-element blocks, E8M0 scales: rowwise and columnwise copies */
} ry_fp8_recipe;
extern const char *const ry_fp8_recipe_names[];

typedef struct ry_workload {
    ry_llm model;
    ry_gpu gpu;
    int gpu_inferred;       /* the GPU came from the node, not workload.gpu */
    long long batch;        /* sequences */
    long long tokens;       /* batch * seq_len: b in the model */
    ry_precision precision;
    int tensor;             /* 0 = auto */
    double efficiency;
    ry_flops_conv flops;
    int recompute;          /* ry_recompute */
    int offload;            /* blocks whose kept activations wait in host memory */
    int expert;             /* expert-parallel size of a MoE model; 0 = auto */
    int expert_tensor;      /* expert tensor parallelism: each expert split over this many */
    /* The full model's (model/plan.h); the paper's eq. 1 reads none of them. */
    int pipeline;           /* stages; 0 = auto */
    int micro_batch;        /* sequences per micro-batch; 0 = auto */
    int zero;               /* ZeRO stage 0-3: what data parallelism shards */
    int fsdp;               /* ZeRO-3 as FSDP gathers: forward and backward, not the recompute */
    int context;            /* context-parallel size; 0 = auto */
    int virtual_stages;     /* interleaved chunks per GPU; 0 = auto */
    int first_stage, last_stage;    /* blocks of the first and last stages; 0 = even */
    int data;               /* data-parallel replicas; 0 = auto (idle GPUs allowed) */
    int sequence_parallel;  /* sequence parallelism with tensor parallelism */
    int flash_attention;
    double overlap_data, overlap_tensor, overlap_context, overlap_expert;   /* 0..1 */
    int flops_given;        /* flops_convention was set (else the mode's default) */
    ry_grad_precision grad_precision;   /* of the data-parallel gradient reduction */
    ry_fp8_recipe fp8_recipe;           /* with precision fp8 */
    int efficiency_given;   /* compute_efficiency was set (else the mode's default) */
    int recompute_given;    /* recompute was set (else the full model searches it) */
} ry_workload;

#endif
