/* The LIBRA sections' types and word lists, below their readers: the spec's
 * key table (spec/schema.c) lays its rows on these types, and
 * libra_words.c holds the words and small parsers declared here. The
 * readers (libra_spec.c, libra_astra.c, libra_workload.c) are declared in
 * spec/libra_spec.h. */
#ifndef RY_LIBRA_WORDS_H
#define RY_LIBRA_WORDS_H

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

/* Group sizes a workload file's layers take unless the spec gives them. */
typedef struct ry_libra_groups {
    int have[RY_PHASES];
    int group[RY_PHASES][RY_LIBRA_MAX_DIMS];
} ry_libra_groups;

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

#endif
