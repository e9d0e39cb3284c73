/* Price sensitivity: the tornado of one capex (bom --sensitivity) and
 * which prices flip the cheapest of several designs (compare
 * --sensitivity). analysis/sensitivity.h computes; this writes. */
#ifndef RY_EMIT_SENSITIVITY_H
#define RY_EMIT_SENSITIVITY_H

#include "analysis/sensitivity.h"
#include "util/buf.h"

struct json_t;

/* The items by swing (capex at the top of the range less at the bottom),
 * largest first; ix[0..n) their indices. */
int ry_sensitivity_order(const ry_price_items *p, int *ix);

/* The tornado as a table: item, its list cost, its range, the capex at
 * either end, the swing. */
void ry_emit_sensitivity_text(ry_buf *o, const ry_price_items *p);
struct json_t *ry_sensitivity_json(const ry_price_items *p);
/* The same as CSV and a gnuplot script drawing the tornado (BASE.png and
 * BASE.svg), for ry_plot_write_set. */
void ry_emit_sensitivity_plot(ry_buf *csv, ry_buf *gp, const char *title, const char *base,
                              const ry_price_items *p);

#endif
