/* LIBRA's spec sections and workload files.
 *
 *   network:                the d dimensions, innermost first (optional: without it
 *     dims:                 the cluster gives dim 0 = its HB domain, a switch of
 *       - name: package     size K, and dim 1 = the scale-out fabric, a switch of
 *         block: ring       size N/K, priced as LIBRA's node and pod technologies)
 *         size: 4           ring | fully-connected | switch; size >= 1
 *         tech: package     prices from templates/libra-costs.yaml, and/or
 *         link: 4           USD per GB/s per NPU; switch and nic count for
 *         switch: 13        switch blocks only
 *         nic: 31.6
 *
 *   libra:
 *     objective: time       time | perf-per-cost (railyard optimize --objective wins)
 *     budget: 1000          total GB/s per NPU: sum of all dims == 1000;
 *                           "<= 1000" for an upper limit
 *     cost_budget: 4e8      network cost <= this many USD
 *     constraints:          linear (in)equalities on dimension names, bw0..bwN,
 *       - "package == 500"  sum (every dimension) and cost (USD); ==, <=, >=,
 *       - "package >= node" chains like "100 <= node <= 400"
 *     baseline: [250, ...]  the design to compare with (default: the budget,
 *                           or the cost budget, split equally)
 *     starts: 12            starting points of the solver
 *     plot_dims: [a, b]     the two dimensions --plot sweeps
 *     layers: [...]         the workload in YAML: {name, count, forward,
 *                           input_grad, weight_grad}; a phase is {compute,
 *                           collective, bytes, groups}
 *     workload_file: f.txt  or an ASTRA-sim 1.0 workload file (also LIBRA's
 *                           header-less form)
 *     cycle_time: 1ns       one compute cycle of the file (default 1 ns)
 *     time_unit: ms         unit of plain numbers in layers' compute (default ms)
 *     tensor_parallel: 16   group sizes from a tensor-parallel degree: forward and
 *                           input-gradient collectives on the innermost dims that
 *                           hold 16 NPUs, weight gradients on the rest
 *     groups: {forward: [4, 4, 1, 1], input_grad: ..., weight_grad: ...}
 *                           group sizes per dimension, for phases without their own
 *
 * Errors are reported at their file:line:col, all of them before giving up. */
#ifndef RY_LIBRA_SPEC_H
#define RY_LIBRA_SPEC_H

#include "model/libra.h"
#include "spec/spec.h"

/* Reads network: and libra: (and the workload file) into p, which the
 * caller has initialised. Returns 0, or -1 after printing every error. */
int ry_libra_read(const ry_spec *s, const char *templates, ry_libra_problem *p);

/* For the spec loader: reads the sections when the spec has either, so
 * `railyard validate` reports their errors; prints them, keeps nothing. */
void ry_libra_check_spec(const ry_spec *s, const char *templates);

/* Group sizes a workload file's layers take unless the spec gives them. */
typedef struct ry_libra_groups {
    int have[RY_PHASES];
    int group[RY_PHASES][RY_LIBRA_MAX_DIMS];
} ry_libra_groups;

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

#endif
