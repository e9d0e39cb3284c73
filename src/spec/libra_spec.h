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

#include "spec/spec.h"
#include "spec/yaml.h"
#include "util/diag.h"

#define RY_LIBRA_MAX_DIMS 8
#define RY_LIBRA_NAME_MAX 32

/* ---- network -------------------------------------------------------------------------- */

typedef enum {
    RY_LIBRA_RING = 0,
    RY_LIBRA_FULLY_CONNECTED = 1,
    RY_LIBRA_SWITCH = 2
} ry_libra_block;

/* "ring", "fully-connected", "switch". */
const char *ry_libra_block_name(ry_libra_block b);
/* The same words, NULL-terminated (network.dims[].block). */
extern const char *const ry_libra_block_words[];

/* Whether name can name a dimension in constraints: 0 when it can; 1 when it
 * is not a lowercase letter then letters, digits or '_', at most
 * RY_LIBRA_NAME_MAX - 1 characters, or is a positional name bwN; 2 when it
 * is a word of the constraints' own (sum, total, cost). */
int ry_libra_dim_name_check(const char *name);
/* The position N of a positional name bwN (below RY_LIBRA_MAX_DIMS), or -1. */
int ry_libra_positional(const char *s);

typedef struct ry_libra_dim {
    char name[RY_LIBRA_NAME_MAX];   /* [a-z][a-z0-9_]*: used in constraints */
    ry_libra_block block;
    int size;                       /* n_i >= 1 */
    double link, sw, nic;           /* USD per GB/s per NPU; sw, nic count for switches only */
    ry_pos pos;                     /* the dimension's entry in the spec */
} ry_libra_dim;

typedef struct ry_libra_net {
    int ndims;
    ry_libra_dim dim[RY_LIBRA_MAX_DIMS];
    long long npus;                 /* product of the sizes */
    int derived;                    /* 1: built from the cluster section */
} ry_libra_net;

/* u_i: the link price, plus switch and NIC prices for a switch block. For
 * ring, fully-connected and switch blocks alike LIBRA's per-building-block
 * cost sums to NPUs * bw_i * u_i. */
double ry_libra_unit_cost(const ry_libra_dim *d);

/* ---- collectives ---------------------------------------------------------------------- */

typedef enum {
    RY_COLL_NONE = 0,
    RY_COLL_ALL_REDUCE = 1,
    RY_COLL_REDUCE_SCATTER = 2,
    RY_COLL_ALL_GATHER = 3,
    RY_COLL_ALL_TO_ALL = 4
} ry_coll;

/* "none", "all-reduce", "reduce-scatter", "all-gather", "all-to-all". */
const char *ry_coll_name(ry_coll c);
/* The same words, NULL-terminated. */
extern const char *const ry_coll_names[];
/* Accepts those names with '-', '_' or nothing between the words, any
 * case (so ASTRA-sim's ALLREDUCE too). Returns 0, or -1. */
int ry_coll_parse(const char *s, ry_coll *out);

/* ---- workload ------------------------------------------------------------------------- */

enum { RY_PHASE_FWD = 0, RY_PHASE_IG = 1, RY_PHASE_WG = 2, RY_PHASES = 3 };

/* "forward", "input_grad", "weight_grad". */
const char *ry_libra_phase_name(int phase);

/* A time: a number with ns, us, ms or s (any case), or a plain number. Returns
 * 1 with *out in seconds, 0 for a plain number with *out the number itself,
 * or -1 when text is not a time >= 0. */
int ry_libra_parse_time(const char *text, double *out);
/* A size in bytes: a number with B, kB, MB, GB, TB, KiB, MiB, GiB or TiB, or
 * a plain number of bytes. Returns 0 with *out set, or -1. */
int ry_libra_parse_bytes(const char *text, double *out);
/* The units of libra.time_unit (NULL-terminated) and seconds per unit. */
extern const char *const ry_libra_time_units[];
double ry_libra_time_scale(int unit);

typedef struct ry_libra_phase {
    double compute;                 /* seconds */
    ry_coll coll;
    double bytes;
    int group[RY_LIBRA_MAX_DIMS];   /* NPUs per dimension in the group; 1 = unused */
} ry_libra_phase;

typedef struct ry_libra_layer {
    char name[64];
    long long count;                /* the layer repeats count times */
    ry_libra_phase ph[RY_PHASES];
} ry_libra_layer;

typedef struct ry_libra_workload {
    ry_libra_layer *layers;
    int nlayers, cap;
    char source[160];               /* where it came from, for reports */
} ry_libra_workload;

/* Appends a zeroed layer (count 1, groups 1) and returns it. */
ry_libra_layer *ry_libra_workload_add(ry_libra_workload *w);
void ry_libra_workload_free(ry_libra_workload *w);

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

/* ---- the sections ----------------------------------------------------------------------- */

typedef enum { RY_LIBRA_TIME = 0, RY_LIBRA_PERF_PER_COST = 1 } ry_libra_objective;

/* "time", "perf-per-cost". */
const char *ry_libra_objective_name(ry_libra_objective o);
/* The same words, NULL-terminated (libra.objective). */
extern const char *const ry_libra_objective_words[];

typedef enum { RY_LIBRA_LE = 0, RY_LIBRA_EQ = 1, RY_LIBRA_GE = 2 } ry_libra_relop;

/* One comparison of a constraint as written, everything moved to the left:
 *   sum_i c[i] * bw_i + cost * (network cost) + k   op   0
 * A chain "100 <= a <= 400" gives two; budgets are written as constraints
 * ("sum == 1000", "cost <= 4e8"). Some bandwidth always takes part: a
 * relation whose cost term is all there is needs a priced network. */
typedef struct ry_libra_rel {
    double c[RY_LIBRA_MAX_DIMS];
    double cost;
    double k;
    ry_libra_relop op;
    char text[160];         /* as written, for messages */
    char where[64];         /* the spec key: "libra.constraints[2]", "libra.budget" */
    ry_pos pos;
} ry_libra_rel;

typedef struct ry_libra_spec {
    ry_libra_net net;               /* network:, or two dimensions derived from cluster: */
    int has_libra;                  /* 0: only network: was given */
    ry_pos pos;                     /* the libra key */
    ry_libra_objective objective;
    int starts;
    int time_unit;                  /* libra.time_unit: an index of ry_libra_time_units */
    double cycle_time;              /* libra.cycle_time, seconds */
    int plot_dims[2];               /* -1: not given */
    int has_baseline;
    double baseline[RY_LIBRA_MAX_DIMS];
    int has_budget;                 /* libra.budget or libra.cost_budget is there */
    ry_libra_workload wl;           /* libra.layers or libra.workload_file */
    int from_workload;              /* neither: the workload: section's LLM gives it */
    long long tensor_parallel;      /* libra.tensor_parallel; 0 = not given */
    ry_pos tensor_parallel_pos;
    ry_libra_rel *rels;             /* budgets, then libra.constraints, in order */
    int nrels, caprels;
} ry_libra_spec;

/* For the spec loader: reads network: and libra: (and the workload file)
 * into s->libra when the spec has either section. Errors are printed at
 * their positions and counted. */
void ry_libra_spec_read(ry_spec *s, const ry_ynode *root, const char *templates_dir);
void ry_libra_spec_free(ry_libra_spec *l);

#endif
