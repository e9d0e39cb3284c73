/* The search: section of a spec, the design space `railyard search`
 * explores: the spec keys it varies and their values, the workloads it
 * weighs, the failures it prices, the targets it filters by, and names for
 * the published designs that fall on its points.
 *
 *   search:
 *     vary:                       # a spec key, its values (as sweep --vary)
 *       fabric.design: [rail-optimized, rail-only]
 *       fabric.tiers.1.taper: ["1:1", "3:1", "7:1"]
 *     workloads:                  # workload keys set over the spec's, weighted
 *       - {model: llama-3-405b, weight: 3}
 *       - {model: llama-3-70b}
 *     failures: [spine:1, leaf:1, plane]
 *     target_time: 6              # scalars: ry_spec's search struct
 *     published:
 *       - {name: "1:7 taper", set: {fabric.tiers.1.taper: "7:1"}}
 *
 * Read with the rest of the spec (spec.c), so validate checks it; the
 * points themselves are checked when search loads each one. */
#ifndef RY_SEARCH_SPEC_H
#define RY_SEARCH_SPEC_H

#include "spec/spec.h"
#include "spec/yaml.h"
#include "util/vary.h"

#define RY_SEARCH_MAX_AXES 16
#define RY_SEARCH_MAX_FAILURES 16
#define RY_SEARCH_MAX_SETS 32
#define RY_SEARCH_MAX_WORKLOADS 16

typedef struct ry_search_set {
    char *key, *value;
    ry_pos pos;                 /* where the value was written */
} ry_search_set;

/* A workload of the mix: keys set over the spec's workload section. */
typedef struct ry_search_workload {
    double weight;
    int n;
    ry_search_set sets[RY_SEARCH_MAX_SETS];   /* "workload.model", "llama-3-70b" */
    char label[64];             /* its model, or "workload N" */
} ry_search_workload;

/* A name for the points whose values match every key of set. */
typedef struct ry_search_label {
    char name[64];
    ry_pos pos;                 /* the entry */
    int n;
    ry_search_set sets[RY_SEARCH_MAX_SETS];
} ry_search_label;

typedef struct ry_search_space {
    int naxes;
    ry_vary axes[RY_SEARCH_MAX_AXES];
    ry_pos axis_pos[RY_SEARCH_MAX_AXES];
    ry_pos *value_pos[RY_SEARCH_MAX_AXES];   /* each value's item */
    int nworkloads;
    ry_search_workload *workloads;
    int nfailures;              /* -1: not given (the command's default) */
    char failures[RY_SEARCH_MAX_FAILURES][64];
    int nlabels;
    ry_search_label *labels;
} ry_search_space;

/* Reads root's search section into s->search_space (NULL without one).
 * Errors at the nodes; the caller counts them. */
void ry_search_spec_read(ry_spec *s, const ry_ynode *root);
void ry_search_space_free(ry_search_space *sp);

/* The spec file's text, read again to load its points (NUL-terminated,
 * the caller frees it); NULL after an error naming path. */
char *ry_search_spec_text(const char *path);

/* Each value of each axis loaded on the spec by itself, over sets (the
 * command line's --set), and each workload of the mix by itself: a value
 * the spec refuses is an error where it was written (its line and column,
 * or "--vary KEY=VALUE"), and an axis of a key the workloads set is an
 * error. axes NULL: the spec's own search.vary (vpos its positions; an
 * axis whose vpos is NULL came from --vary). text: the spec file's, or
 * NULL to read s->path. -1 after the errors. */
int ry_search_preflight(const ry_spec *s, const char *text, const ry_override *sets, int nsets,
                        const char *templates, const ry_vary *axes, const ry_pos *const *vpos,
                        int naxes);

/* A key search may vary (--vary's): a key of the spec's schema, not of the
 * search section, not the name. -1 after an error at pos naming what. */
int ry_search_key_check(const char *key, ry_pos pos, const char *what);

/* A failure scenario as search.failures and search --fail take it:
 * "plane" (the first plane, when there are several), or KIND:N as
 * whatif --random takes it (leaf:1, spine:1, switch:2, cable:4). 0 when
 * good, -1 with *why set. */
int ry_search_failure_check(const char *text, const char **why);

#endif
