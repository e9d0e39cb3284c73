/* The workload: the LLM trained on the cluster, read from the spec's
 * `workload:` section by ry_spec_load, with the LLM and GPU catalogs
 * (templates/llms.yaml, templates/gpus.yaml: spec/catalog.h). The iteration
 * model (model/iteration.h) computes from this struct.
 *
 *   workload:
 *     model: gpt-3-175b     a catalog name (any case), or a map {name,
 *                           parameters, layers, d_model, heads, seq_len,
 *                           vocab, mcc, precision, batch}; a map whose name
 *                           is in the catalog starts from that entry
 *     gpu: gh200            a catalog name, else the GPU of the cluster's
 *                           node (gpus.yaml lists the nodes of each GPU)
 *     batch: 16384          global batch in sequences; or
 *     batch_tokens: 32Mi    in tokens (a multiple of seq_len)
 *     precision: bf16       bytes per element of gradients and activations,
 *                           and the FLOP/s used
 *     parallelism:
 *       tensor: auto        auto (the size minimising the iteration time) or
 *                           N: a divisor of the HB domain size
 *       expert: auto        MoE models: the expert-parallel group size
 *                           (model/moe.h), auto or N dividing the experts
 *     compute_efficiency: 1.0   fraction of the peak FLOP/s reached
 *     flops_convention: 6NT     6NT (6 x parameters x tokens) | korthikanti
 *     recompute: none       none | selective | full (one more forward pass:
 *                           hardware FLOPs = 4/3 x model FLOPs); unset, the
 *                           full model picks the least that fits
 *     gradient_precision: bf16   bf16 | fp32: the data-parallel reduction
 *     parallelism: {pipeline: auto, micro_batch: auto, zero: 1}
 *                           the full model's (model/plan.h)
 *
 * Every scalar key is a row of the spec schema (spec/schema.c) with its type,
 * range and default; railyard-spec(5) documents them. The rules between
 * keys are workload.c's, each reported at its key: an unknown model or GPU (with a "did you
 * mean"), a GPU that cannot be inferred from the node, fp8 on a GPU without
 * it, both batch and batch_tokens. These are errors of the spec, whatever
 * the command.
 *
 * The rules against the cluster's size are another class: a tensor size
 * that does not divide the HB domain, a batch smaller than the
 * data-parallel size (every replica needs at least one sequence). A
 * workload that breaks one is well written but does not fit this cluster;
 * the loader keeps the finding in s->workload_misfit (with s->workload
 * NULL) instead of failing, so the commands that never use the workload
 * can go on; the ones that use it (the models) call ry_workload_check_fit.
 * The batch rules hold only for the paper's eq. 1 (no pipeline stages): a
 * batch that breaks them goes to s->workload_paper_misfit, with the
 * workload kept, and only the paper mode refuses it. */
#ifndef RY_WORKLOAD_H
#define RY_WORKLOAD_H

#include "spec/catalog.h"
#include "spec/spec.h"
#include "spec/workload_types.h"
#include "spec/yaml.h"

/* (ry_workload and its enums: spec/workload_types.h) */

/* Reads the `workload:` section of a loaded document into s->workload
 * (left NULL when the section is absent). Errors are printed at their keys
 * and counted; the rules against the cluster (HB domain, GPUs) are skipped
 * when the cluster itself had errors, and a workload that breaks one is
 * left NULL with s->workload_misfit set, not counted. Called by
 * ry_spec_load. */
void ry_workload_read(ry_spec *s, const ry_ynode *root, const char *templates_dir);
void ry_workload_free(struct ry_workload *w);

/* 0 when the spec's workload fits its cluster (or there is no workload);
 * else prints s->workload_misfit as an error at its key (counted, the
 * wording of the rule) and returns -1. For the code that uses the workload. */
int ry_workload_check_fit(const ry_spec *s);
/* The same, and then eq. 1's batch rules (s->workload_paper_misfit): for
 * the code built on eq. 1 without pipeline stages (--paper, LIBRA). */
int ry_workload_check_paper_fit(const ry_spec *s);

#endif
