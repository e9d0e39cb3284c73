/* The catalog's types that the spec's key table (spec/schema.c) lays its
 * rows on, and their word lists, below the catalog's readers: the
 * precisions and MLP kinds (their words and sizes in catalog_words.c), an
 * LLM's shape and a GPU's figures. The readers are declared in spec/catalog.h. */
#ifndef RY_CATALOG_WORDS_H
#define RY_CATALOG_WORDS_H

#include <stddef.h>

#include "spec/spec.h"
#include "spec/yaml.h"

typedef enum { RY_PREC_BF16 = 0, RY_PREC_FP16 = 1, RY_PREC_FP8 = 2 } ry_precision;

/* "bf16", "fp16", "fp8"; NULL-terminated list for ry_yget_enum. */
extern const char *const ry_precision_names[];
const char *ry_precision_name(ry_precision p);
int ry_precision_bytes(ry_precision p);

/* workload.model.mlp: a GELU MLP has two d_model x ffn_hidden matrices, a
 * SwiGLU MLP three. */
typedef enum { RY_MLP_GELU = 0, RY_MLP_SWIGLU = 1 } ry_mlp;
extern const char *const ry_mlp_names[];

typedef struct ry_llm {
    char name[RY_NAME_MAX];
    double parameters;
    int layers;
    int d_model;
    int heads;              /* 0 = unknown */
    int seq_len;
    int vocab;
    int mcc;                /* tensor-parallel collective rounds per block */
    ry_precision precision;
    long long batch;        /* default global batch, sequences */
    /* The block's shape (the full model's FLOPs and activations): */
    int kv_heads;           /* key/value heads (grouped-query attention); 0 = heads */
    int ffn_hidden;         /* the dense MLP's hidden size; 0 = 4 d_model */
    int mlp;                /* ry_mlp */
    int dropout;            /* dropout layers in the block (their masks are kept) */
    int head_dim;           /* query/key size of a head; 0 = d_model / heads */
    int v_head_dim;         /* value size of a head; 0 = head_dim */
    /* Multi-head latent attention (DeepSeek-V2/V3): Q and K/V through
     * low-rank projections; 0 = plain projections. */
    int q_lora_rank, kv_lora_rank, qk_rope_head_dim;
    int window;             /* sliding-window attention: keys a query sees; 0 = all */
    int window_layers;      /* blocks with the window; 0 = every block */
    int mtp_layers;         /* multi-token prediction: blocks after the last, each
                             * with the output layer again (DeepSeek-V3: 1) */
    /* Mixture of experts (the entry's moe: map); experts == 0: a dense model.
     * Blocks dense_layers, dense_layers + every, ... (counting from 0, the
     * (every)-th block after the dense ones) hold experts instead of the
     * dense MLP: ry_llm_moe_blocks() of them. */
    struct ry_llm_moe {
        double active_parameters;   /* per token, embeddings included */
        int experts;                /* routed experts per MoE block */
        int top_k;                  /* routed experts per token */
        int shared_experts;         /* experts every token goes through */
        int expert_hidden;          /* FFN hidden size of one expert */
        int dense_layers;           /* leading blocks with a dense MLP */
        int every;                  /* after them, every n-th block is MoE */
    } moe;
} ry_llm;

typedef struct ry_gpu {
    char name[RY_NAME_MAX];
    double bf16_flops;      /* dense, FLOP/s */
    double fp8_flops;       /* dense, FLOP/s; 0 = no FP8 */
    double nvlink_gbps;     /* per GPU, Gb/s */
    double memory_bytes;    /* HBM per GPU (the catalog's GB x 1e9); 0 = unknown */
    double hbm_bytes_s;     /* HBM bandwidth, bytes/s; 0 = unknown */
    double gemm_eff;        /* fraction of the dense peak a training GEMM reaches */
    double gemm_eff_fp8;    /* the same for FP8 GEMMs (0: gemm_eff) */
    double attn_eff;        /* fraction of the BF16 peak fused (flash) attention reaches
                             * with long keys (with attn_half: its asymptote) */
    double attn_half;       /* keys a query sees at which attention reaches half of
                             * attn_eff; 0 = attn_eff at every length */
    double nic_gbps;        /* informational */
    int mx_formats;         /* tensor cores take microscaled (MXFP8) blocks */
} ry_gpu;

/* A catalog name: [a-z0-9._-]+, at most RY_NAME_MAX - 1 characters. */
int ry_catalog_name_ok(const char *s);

/* A speed (an InfiniBand rate such as "NDR", or a number of Gb/s with an
 * optional unit: "400G", "800Gb/s", "1.6T") at n into *gbps and its
 * text; errors at n, named by what. */
int ry_yget_speed(const ry_ynode *n, const char *what, double *gbps, char *text, size_t cap);

#endif
