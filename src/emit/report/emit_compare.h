/* compare's designs view: rail-optimized, rail-only and fat tree of one
 * cluster side by side (analysis/compare.h: ry_compare_design), as text
 * (one screen), JSON or CSV (one row per design). Text and JSON name the
 * cheapest design and, with a workload, the fastest per dollar. */
#ifndef RY_EMIT_COMPARE_H
#define RY_EMIT_COMPARE_H

#include "analysis/compare.h"
#include "emit/report/emit_bom.h"
#include "util/buf.h"

/* sens: with which prices flip the cheapest design (text and JSON). */
void ry_emit_designs_sens(ry_buf *out, const ry_spec *s, const ry_compare_design *d, int n,
                          ry_format fmt, int sens);
void ry_emit_designs(ry_buf *out, const ry_spec *s, const ry_compare_design *d, int n,
                     ry_format fmt);

#endif
