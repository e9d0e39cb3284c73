/* Kubernetes node labels of a fabric, in the keys NVIDIA topograph v1.0
 * writes (its pkg/topology/topology.go), so topology-aware schedulers that
 * read them (Kueue, KAI Scheduler) work before, or without, topograph:
 *   fabric.topograph.run/tier-N       the switch level N above the node,
 *                                     closest first (tier-0: its leaf);
 *   accelerator.topograph.run/domain  its HB (NVLink) domain, when a domain
 *                                     spans several nodes.
 * The values are the switch names of the Slurm tree (analysis/slurm_tree.h),
 * level by level, so Kubernetes and topology.conf describe the same tree.
 *
 * One file, node-labels.yaml: a v1 List of Node objects carrying only
 * metadata.name and metadata.labels, for
 *   kubectl apply --server-side --field-manager=railyard -f node-labels.yaml
 * Deterministic: nodes in node order, labels sorted by key. */
#ifndef RY_EMIT_K8S_H
#define RY_EMIT_K8S_H

#include "analysis/slurm_tree.h"
#include "emit/outdir.h"

/* The label keys, as topograph v1.0 names them. */
#define RY_K8S_FABRIC_TIER_PREFIX "fabric.topograph.run/tier-"
#define RY_K8S_ACCEL_DOMAIN "accelerator.topograph.run/domain"

/* Writes <prefix>/node-labels.yaml into o; -1 when it cannot be written. */
int ry_emit_k8s_labels(ry_outdir *o, const char *prefix, const ry_slurm_tree *t);

#endif
