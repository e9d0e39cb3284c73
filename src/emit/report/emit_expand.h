/* expand's report of a ry_expand (analysis/expand.h): the phase in words
 * (switches and cables by state and tier, the capex bought, reused and
 * retired, the downtime by tier and rail), or JSON with the same figures;
 * the switches and cables one per row (CSV); the work order is verify's
 * (emit_verify.h), since a phase is what verify finds of the new plan on
 * the old fabric, with the switches installed and removed around it. */
#ifndef RY_EMIT_EXPAND_H
#define RY_EMIT_EXPAND_H

#include "analysis/expand.h"
#include "emit/report/emit_bom.h"
#include "util/buf.h"

void ry_emit_expand(ry_buf *out, const ry_expand *x, ry_format fmt);

/* switches.csv: name,tier,model,state,rack,rack_unit,old_rack,old_rack_unit
 * (the new plan's switches in node order, then the removed ones). */
void ry_emit_expand_switches(ry_buf *out, const ry_expand *x);

/* cables.csv: state,replaced,label,old_label,tier,rail,old_lower,old_upper,new_lower,
 * new_upper,medium,length_m,old_medium,old_length_m (the new plan's cables
 * in link order, then the removed ones). */
void ry_emit_expand_cables(ry_buf *out, const ry_expand *x);

/* work-order.csv: verify's work order of the phase (emit_verify.h: one row
 * per cable), after a row "install switch" per switch added (in the new
 * layout's rack and unit) and before a row "remove switch" per switch
 * removed (in the old layout's), each walked along the racks as the cables'
 * rows are; a switch's row has no port nor label, and its model in "to". */
void ry_emit_expand_work_order(ry_buf *out, const ry_expand *x);

#endif
