/* `railyard whatif`: a failure scenario on the spec's design and its
 * counterpart, side by side, as text or JSON. */
#ifndef RY_EMIT_WHATIF_H
#define RY_EMIT_WHATIF_H

#include "analysis/failure.h"
#include "analysis/eth_routes.h"
#include "analysis/failure_sweep.h"
#include "emit/emit_bom.h"
#include "model/iteration.h"
#include "model/plan.h"
#include "util/buf.h"

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
} ry_whatif_side;

/* sides[0] is the spec's design, sides[1] (when nsides is 2) its counterpart.
 * pl: the workload's model (full or --paper), or NULL when the spec has none. */
void ry_emit_whatif(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_whatif_side *sides,
                    int nsides, ry_format fmt);

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
    struct {
        ry_design design;
        const char *err;                /* the design could not be built or swept */
        const ry_fsweep_stats *pts;     /* hi - lo + 1 */
        int needed;                     /* spares for target at hi; -1 none within max, -2 not asked */
    } side[2];
    double target;                      /* worst slowdown the spares must keep */
    int spares_max;
} ry_whatif_sweep;

/* Text or JSON (stdout), CSV (DIR/whatif-sweep.csv) and a gnuplot script
 * drawing slowdown and GPUs cut off against failures. */
void ry_emit_whatif_sweep(ry_buf *o, const ry_whatif_sweep *w, ry_format fmt);
void ry_emit_whatif_sweep_csv(ry_buf *o, const ry_whatif_sweep *w);
void ry_emit_whatif_sweep_script(ry_buf *o, const ry_whatif_sweep *w);

#endif
