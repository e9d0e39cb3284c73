/* whatif's engine: a failure scenario on the spec's design and on its
 * counterpart (rail-only and rail-optimized of each other; a fat tree's is
 * rail-optimized), and the failure sweep over seeded random draws, with
 * the results the reports take (emit/model/emit_whatif.h). The engine runs
 * analysis/failure*.c and the model (ry_plan_degrade; with the full model
 * also the layout on the flow engine over the fabric before and after the
 * failures, the failure set handed down as node_down/link_down,
 * ry_net_set_down and ry_plan_time_on) and prints nothing;
 * cmd_whatif.c parses the options, reads --fabric and writes the results.
 *
 * Memory: a ry_whatif_run owns what it points to but f (borrowed) and is
 * freed by ry_whatif_run_free; a ry_whatif_sweep borrows everything, its
 * arrays held by a ry_whatif_sweep_mem (ry_whatif_sweep_mem_free). */
#ifndef RY_STUDY_WHATIF_H
#define RY_STUDY_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "net/eth_routes.h"
#include "analysis/failure.h"
#include "analysis/failure_sweep.h"
#include "fabric/ethplan.h"
#include "fabric/names.h"
#include "model/iteration.h"
#include "model/plan.h"

#define RY_WHATIF_CUT_LISTED 4096   /* NICs cut named in the JSON; the count is always whole */

/* One design's results; everything borrowed. */
typedef struct ry_whatif_side {
    const ry_fabric *f;                 /* NULL: the design could not be built (err) */
    ry_design design;
    const char *err;
    const ry_fail_elem *elems;
    int nelems;
    const ry_fail_elem *unmapped;       /* elements of the spec's design with no counterpart */
    int nunmapped;
    int nbase;                          /* cables down before the failures (as built) */
    long long as_built_files;           /* sides[0]: --fabric files read, 0 for none */
    const ry_failure_report *before, *after;
    const uint32_t *cut;                /* GPU ports cut off, the first ncut_listed of ncut */
    size_t ncut, ncut_listed;
    int trained;                        /* train holds the model's rerun */
    ry_iter_degraded train;
    int has_ecmp;                       /* Ethernet: BGP's ECMP widths leaf to leaf */
    ry_eth_widths ecmp_before, ecmp_after;
    /* The flow engine (trained, run->engine): the layout's collectives on
     * the fabric before and after the failures, each routed over its own
     * live links (ry_net_set_down, ry_plan_time_on). */
    int engine;                         /* eng_* hold its results */
    const char *eng_err;                /* the engine does not fit the fabric (not run) */
    const char *routing;                /* the network: section's routing */
    const ry_plan_cfg *eng_before, *eng_after;
    int eng_unrouted_before, eng_unrouted_after;    /* phases with a hop that has no route */
    const char *eng_why_before, *eng_why_after;     /* the first such hop, "" for none */
} ry_whatif_side;

/* A failure sweep (whatif --sweep) of the spec's design and its
 * counterpart; everything borrowed. */
typedef struct ry_whatif_sweep {
    const ry_spec *s;
    const ry_model *m;                  /* NULL: no workload, no slowdown */
    const ry_plan *pl;                  /* its plan (the layout), NULL with m */
    const char *kind;
    int lo, hi, seeds;
    unsigned long long seed0;
    int nsides;
    int engine;                         /* slowdowns timed on the flow engine (not paper mode) */
    const char *routing;                /* filled: the engine's routing, by name */
    struct {
        ry_design design;
        const char *err;                /* the design could not be built or swept */
        int engine;                     /* its slowdowns came from the engine */
        const char *engine_err;         /* why not, when the engine was asked for */
        const ry_fsweep_stats *pts;     /* hi - lo + 1 */
        int needed;                     /* spares for target at hi; -1 none within max, -2 not asked */
    } side[2];
    double target;                      /* worst slowdown the spares must keep */
    int spares_max;
} ry_whatif_sweep;

/* One design under the failures: what the engine holds for a side (the
 * command fills elems, n and base from --fail, --random and --fabric). */
typedef struct ry_whatif_run {
    ry_spec spec;               /* the counterpart's spec (a copy of the loaded one) */
    ry_fabric own;              /* the counterpart's fabric */
    const ry_fabric *f;         /* borrowed: ctx->fabric or &own */
    ry_name_index *ix;
    ry_failure *fs;
    ry_failure_ws *ws;
    ry_failure_report before, after;
    ry_fail_elem *elems, *unmapped;
    int n, nun;
    ry_fail_elem *base;         /* what is down before the failures (--fabric) */
    int nbase;
    uint32_t *cut;
    ry_ethplan eth;             /* an Ethernet fabric's plan (eth.asn NULL: none) */
    ry_eth_widths ecmp_before, ecmp_after;
    int engine;                 /* time the layout on the flow engine too (set by the caller) */
    ry_plan_cfg eng_before, eng_after;
    int eng_unrouted_before, eng_unrouted_after;
    char eng_why_before[256], eng_why_after[256], eng_err[256];
    char err[640];
} ry_whatif_run;

void ry_whatif_run_free(ry_whatif_run *r);
/* The counterpart of design d. */
ry_design ry_whatif_counterpart(ry_design d);
/* The counterpart's spec and fabric; -1 with why in errbuf. */
int ry_whatif_build_counterpart(const ry_spec *s, ry_spec *cs, ry_fabric *cf, char *errbuf,
                                size_t n);
/* b (its counterpart built into b->own) takes a's failures, and its
 * as-built cables where the counterpart has them, by ry_fail_translate:
 * at most max_elems. */
void ry_whatif_translate(const ry_whatif_run *a, ry_whatif_run *b, int max_elems);
/* The failures of r applied to its fabric, the reports before and after,
 * and with the model m (may be NULL) the training's slowdown; with
 * r->engine and m the full model's, the layout's collectives timed on the
 * flow engine too, on the fabric before and after the failures (each
 * routed around what failed); out borrows from r. */
void ry_whatif_analyze(ry_whatif_run *r, const ry_plan *m, ry_whatif_side *out, ry_design d);

/* What a sweep's sides hold (the counterpart's spec and fabric, the
 * points, the reasons a side failed). */
typedef struct ry_whatif_sweep_mem {
    ry_spec cspec;
    ry_fabric cfab;
    char errbuf[2][640];
    char engbuf[2][320];
    ry_fsweep_stats *pts[2];
} ry_whatif_sweep_mem;

/* Sweeps each side of w (its inputs set: s, m, pl, kind, lo, hi, seeds,
 * seed0, target, spares_max, nsides, engine) on f, the spec's fabric, and
 * the counterpart, with the model m (NULL: none); fills w->side[] from mem.
 * With engine and the full model, each draw's slowdown is the layout timed
 * on the flow engine over the fabric routed around the draw's failures (a
 * draw with a phase that has no route is stalled), against the healthy
 * fabric's time; a side whose engine cannot be set up stays analytic and
 * says why (engine_err).
 * -1 with err when the spec's own design cannot be swept (kind names
 * nothing it has); a counterpart that cannot be built or swept says why in
 * its side's err. mem is to be freed either way. */
int ry_whatif_sweep_run(ry_whatif_sweep *w, const ry_fabric *f, ry_plan *m,
                        ry_whatif_sweep_mem *mem, ry_err *err);
void ry_whatif_sweep_mem_free(ry_whatif_sweep_mem *mem);

#endif
