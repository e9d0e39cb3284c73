/* What railyard search prints and writes: the one-screen table, the
 * points and the front as CSV, the gnuplot script of capex against
 * iteration time with the front marked and the published designs named,
 * and a front point's spec. */
#ifndef RY_EMIT_SEARCH_H
#define RY_EMIT_SEARCH_H

#include "study/search.h"
#include "util/buf.h"

void ry_emit_search_text(ry_buf *out, const ry_search_result *r);
/* Whether the answer holds with every price of a kind (switches, optics,
 * cables) at either end of its range (range[kind], percent), support at
 * support_pct and spares at the failure rates a year (the ownership
 * objective). */
void ry_emit_search_sensitivity(ry_buf *out, const ry_search_result *r, const double range[3],
                                double support_pct, double switch_rate, double cable_rate);
/* every point (front: only the front's) as CSV */
void ry_emit_search_csv(ry_buf *out, const ry_search_result *r, int front_only);
/* the gnuplot script, data inline, writing search.png and search.svg */
void ry_emit_search_plot(ry_buf *out, const ry_search_result *r);

#endif
