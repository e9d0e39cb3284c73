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
#include "io/outdir.h"

/* The label keys, as topograph v1.0 names them. */
#define RY_K8S_FABRIC_TIER_PREFIX "fabric.topograph.run/tier-"
#define RY_K8S_ACCEL_DOMAIN "accelerator.topograph.run/domain"

/* A host's Kubernetes node name: the host name in lowercase, as the
 * kubelet registers it. 0 when that is a valid node name (an RFC 1123
 * subdomain: at most 253 characters, dot-separated labels of lowercase
 * letters, digits and '-', each 1 to 63 long, starting and ending with a
 * letter or digit), else -1 (buf still holds the lowercased name). */
int ry_k8s_node_name(const char *host, char *buf, size_t n);

/* 0 when every host of the tree has a valid node name, else -1 with err
 * at naming.node naming the first host that has none. */
int ry_k8s_check_names(const ry_slurm_tree *t, ry_err *err);

/* Writes <prefix>/node-labels.yaml into o; -1 when it cannot be written.
 * Node names are ry_k8s_node_name's (check them first). */
int ry_emit_k8s_labels(ry_outdir *o, const char *prefix, const ry_slurm_tree *t);

#endif
