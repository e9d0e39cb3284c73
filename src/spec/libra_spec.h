/* LIBRA's spec sections and workload files: what the spec says, read once
 * by ry_spec_load into s->libra (NULL when the spec has neither section).
 * model/libra.h builds the problem it solves from this (ry_libra_problem_build).
 *
 *   network:                the d dimensions, innermost first (optional: without it
 *     dims:                 the cluster gives dim 0 = its HB domain, a switch of
 *       - name: package     size K, and dim 1 = the scale-out fabric, a switch of
 *         block: ring       size N/K, priced as LIBRA's node and pod technologies)
 *         size: 4
 *         tech: package     prices from templates/libra-costs.yaml, and/or
 *         link: 4           USD per GB/s per NPU; switch and nic count for
 *         switch: 13        switch blocks only
 *         nic: 31.6
 *
 *   libra:
 *     objective: time       (railyard optimize --objective wins)
 *     budget: 1000          total GB/s per NPU: sum of all dims == 1000;
 *                           "<= 1000" for an upper limit
 *     cost_budget: 4e8      network cost <= this many USD
 *     constraints:          linear (in)equalities on dimension names, bw0..bwN,
 *       - "package == 500"  sum (every dimension) and cost (USD); ==, <=, >=,
 *       - "package >= node" chains like "100 <= node <= 400"
 *     baseline: [250, ...]  the design to compare with
 *     starts: 12            starting points of the solver
 *     plot_dims: [a, b]     the two dimensions --plot sweeps
 *     layers: [...]         the workload in YAML: {name, count, forward,
 *                           input_grad, weight_grad}; a phase is {compute,
 *                           collective, bytes, groups}
 *     workload_file: f.txt  or an ASTRA-sim 1.0 workload file (also LIBRA's
 *                           header-less form)
 *     cycle_time: 1ns       one compute cycle of the file
 *     time_unit: ms         unit of plain numbers in layers' compute
 *     tensor_parallel: 16   group sizes from a tensor-parallel degree: forward and
 *                           input-gradient collectives on the innermost dims that
 *                           hold 16 NPUs, weight gradients on the rest
 *     groups: {forward: [4, 4, 1, 1], input_grad: ..., weight_grad: ...}
 *                           group sizes per dimension, for phases without their own
 *
 * Every scalar key is a row of the spec schema (spec/schema.c) with its type,
 * range and default; railyard-spec(5) documents them. The rules between keys
 * (names against dimensions, group sizes against sizes, the workload's
 * sources) are libra_spec.c's. Errors are reported at their file:line:col,
 * all of them before giving up. */
#ifndef RY_LIBRA_SPEC_H
#define RY_LIBRA_SPEC_H

#include <stddef.h>

#include "spec/libra_words.h"
#include "spec/spec.h"
#include "spec/yaml.h"
#include "util/diag.h"

/* u_i: the link price, plus switch and NIC prices for a switch block. For
 * ring, fully-connected and switch blocks alike LIBRA's per-building-block
 * cost sums to NPUs * bw_i * u_i. */
double ry_libra_unit_cost(const ry_libra_dim *d);

/* Appends a zeroed layer (count 1, groups 1) and returns it. */
ry_libra_layer *ry_libra_workload_add(ry_libra_workload *w);
void ry_libra_workload_free(ry_libra_workload *w);

/* Reads an ASTRA-sim 1.0 workload file: a line with the parallelism (DATA,
 * MODEL, HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_TRANSFORMER[_FWD_IN_BCKWD]
 * model_parallel_NPU_group: G, HYBRID_DLRM[_ENHANCED], HYBRID_CUSTOMIZED,
 * MICRO, DISTRIBUTED_INFERENCE), a line with the layer count, then per layer
 * the 12 fields: name, reserved, forward compute, type, bytes, input-grad
 * compute, type, bytes, weight-grad compute, type, bytes, update time (and,
 * under HYBRID_CUSTOMIZED, the layer's own parallelism). LIBRA's files, rows
 * without the two header lines, are read too. Compute times are cycles of
 * cycle_s seconds. Group sizes come from given (per phase, when have[]) or
 * else from the parallelism. Appends to w; returns 0 or -1 after printing
 * errors at path:line:col. */
int ry_libra_read_astra(const char *path, const ry_libra_net *net, const ry_libra_groups *given,
                        double cycle_s, ry_libra_workload *w);

/* Splits a tensor-parallel group of tp NPUs over the innermost dimensions:
 * tensor[i] * data[i] == size[i]. Returns 0, or -1 when tp does not split
 * the sizes (why gets a message). */
int ry_libra_split_tp(const ry_libra_net *net, long long tp, int *tensor, int *data, char *why,
                      size_t cap);

/* For the spec loader: reads network: and libra: (and the workload file)
 * into s->libra when the spec has either section. Errors are printed at
 * their positions and counted. */
void ry_libra_spec_read(ry_spec *s, const ry_ynode *root, const char *templates_dir);
/* 1 when ry_libra_spec_read reads the network: section (it has dims, or a
 * libra: section comes with it); the flow engine's keys alone are not
 * LIBRA's. */
int ry_libra_reads_network(const ry_ynode *root);
void ry_libra_spec_free(ry_libra_spec *l);

#endif
