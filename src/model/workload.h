/* The workload: the LLM trained on the cluster, read from the spec's
 * `workload:` section, with the LLM and GPU catalogs (templates/llms.yaml,
 * templates/gpus.yaml).
 *
 *   workload:
 *     model: gpt-3-175b     a catalog name (any case), or a map {name,
 *                           parameters, layers, d_model, heads, seq_len,
 *                           vocab, mcc, precision, batch}; a map whose name
 *                           is in the catalog starts from that entry
 *     gpu: gh200            a catalog name; default: the GPU of the cluster's
 *                           node (gpus.yaml lists the nodes of each GPU)
 *     batch: 16384          global batch in sequences; or
 *     batch_tokens: 32Mi    in tokens (a multiple of seq_len; k, M, G are
 *                           powers of 1000, Ki, Mi, Gi of 1024). Default:
 *                           the model's published batch
 *     precision: bf16       bf16 | fp16 | fp8: bytes per element of
 *                           gradients and activations, and the FLOP/s used.
 *                           Default: the model's
 *     parallelism:
 *       tensor: auto        auto (the size minimising the iteration time) or
 *                           N: a divisor of the HB domain size
 *     compute_efficiency: 1.0   fraction of the peak FLOP/s reached, (0, 1]
 *     flops_convention: 6NT     6NT (6 x parameters x tokens) | korthikanti
 *     recompute: none       none | full (one more forward pass: hardware
 *                           FLOPs = 4/3 x model FLOPs)
 *
 * Rules, each reported at its key: an unknown model or GPU (with a "did you
 * mean"), a GPU that cannot be inferred from the node, fp8 on a GPU without
 * it, both batch and batch_tokens, a tensor size that does not divide the HB
 * domain, a batch smaller than the data-parallel size (every replica needs
 * at least one sequence). */
#ifndef RY_WORKLOAD_H
#define RY_WORKLOAD_H

#include "spec/spec.h"
#include "spec/yaml.h"

typedef enum { RY_PREC_BF16 = 0, RY_PREC_FP16 = 1, RY_PREC_FP8 = 2 } ry_precision;
typedef enum { RY_FLOPS_6NT = 0, RY_FLOPS_KORTHIKANTI = 1 } ry_flops_conv;

const char *ry_precision_name(ry_precision p);
int ry_precision_bytes(ry_precision p);

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
} ry_llm;

typedef struct ry_gpu {
    char name[RY_NAME_MAX];
    double bf16_flops;      /* dense, FLOP/s */
    double fp8_flops;       /* dense, FLOP/s; 0 = no FP8 */
    double nvlink_gbps;     /* per GPU, Gb/s */
    double nic_gbps;        /* informational */
} ry_gpu;

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
    int recompute;          /* 0 none, 1 full */
} ry_workload;

/* Reads the `workload:` section of a loaded document into s->workload
 * (left NULL when the section is absent). Errors are printed at their keys
 * and counted; rules against the cluster (HB domain, GPUs) are skipped when
 * the cluster itself had errors. Called by ry_spec_load. */
void ry_workload_read(ry_spec *s, const ry_ynode *root, const char *templates_dir);
void ry_workload_free(struct ry_workload *w);

/* The catalogs, for tests and listings. */
typedef struct ry_llm_catalog {
    ry_ydoc *llm_doc, *gpu_doc;
    ry_llm *llms;
    int nllms;
    ry_gpu *gpus;
    int ngpus;
    char **gpu_nodes;       /* per GPU: its node names joined by '\n' */
} ry_llm_catalog;

/* Loads DIR/llms.yaml and DIR/gpus.yaml; prints every error and returns NULL
 * on failure. */
ry_llm_catalog *ry_llm_catalog_load(const char *dir);
void ry_llm_catalog_free(ry_llm_catalog *c);
const ry_llm *ry_llm_find(const ry_llm_catalog *c, const char *name);
const ry_gpu *ry_gpu_find(const ry_llm_catalog *c, const char *name);
/* The GPU whose `nodes` list has this node name, or NULL. */
const ry_gpu *ry_gpu_for_node(const ry_llm_catalog *c, const char *node);

#endif
