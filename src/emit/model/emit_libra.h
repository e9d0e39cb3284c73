/* LIBRA's results as text, JSON or CSV, and the plot of time and cost
 * against the split between two dimensions. The numbers come from
 * model/libra_eval.h; these only format and write them. */
#ifndef RY_EMIT_LIBRA_H
#define RY_EMIT_LIBRA_H

#include "emit/format.h"
#include "model/libra.h"
#include "util/buf.h"

/* The report of an optimisation (name: the spec's name). Text: the
 * dimensions with optimum and equal-split bandwidth, time, cost, speedup,
 * each constraint's slack, the starts and the optimum chosen. JSON and CSV
 * carry the same numbers (railyard(1) lists the keys and columns). */
void ry_emit_libra(ry_buf *out, const char *name, const ry_libra_problem *p,
                   const ry_libra_result *r, ry_format fmt);

/* Writes DIR/libra-split.csv, libra-split.gp (the gnuplot script, data
 * inline), libra-split.png and libra-split.svg, the images drawn by running
 * gnuplot ($RAILYARD_GNUPLOT, else from PATH; without one, or with
 * RAILYARD_GNUPLOT empty or "none", the CSV and the script only, with a
 * warning). The curve: 199 splits of bw_a + bw_b (held at the optimum's
 * sum), the other dimensions at the optimum; CSV header: share_a,
 * bw_a_gbps, bw_b_gbps, time_s, libra_cost_usd, time_x_cost. All or nothing:
 * files are staged and moved into place together (flags: ry_outdir_begin's).
 * Returns 0, or -1 after printing an error (nothing to sweep, gnuplot
 * failing, a write error). */
int ry_emit_libra_plot(const char *dir, unsigned flags, const char *name,
                       const ry_libra_problem *p, const ry_libra_result *r);

#endif
