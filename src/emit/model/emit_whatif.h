/* `railyard whatif`: a failure scenario on the spec's design and its
 * counterpart, side by side, as text or JSON. */
#ifndef RY_EMIT_WHATIF_H
#define RY_EMIT_WHATIF_H

#include "emit/format.h"
#include "model/plan.h"
#include "study/whatif.h"
#include "util/buf.h"

/* sides[0] is the spec's design, sides[1] (when nsides is 2) its counterpart.
 * pl: the workload's model (full or --paper), or NULL when the spec has none. */
void ry_emit_whatif(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_whatif_side *sides,
                    int nsides, ry_format fmt);

/* Text or JSON (stdout), CSV (DIR/whatif-sweep.csv) and a gnuplot script
 * drawing slowdown and GPUs cut off against failures. */
void ry_emit_whatif_sweep(ry_buf *o, const ry_whatif_sweep *w, ry_format fmt);
void ry_emit_whatif_sweep_csv(ry_buf *o, const ry_whatif_sweep *w);
void ry_emit_whatif_sweep_script(ry_buf *o, const ry_whatif_sweep *w);

#endif
