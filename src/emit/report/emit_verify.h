/* verify's report of a ry_verify (analysis/verify.h): text for people (the
 * summary line first), JSON with exactly the keys verified, as_planned,
 * findings and switches (railyard(1) lists them), and the work order: a CSV with one
 * physical action per row, in the order a technician walks the racks. */
#ifndef RY_EMIT_VERIFY_H
#define RY_EMIT_VERIFY_H

#include "analysis/verify.h"
#include "emit/report/emit_bom.h"
#include "fabric/ibplan.h"
#include "fabric/layout.h"
#include "util/buf.h"

/* Appends the report to out (text or JSON); pl is NULL for an Ethernet fabric. */
void ry_emit_verify(ry_buf *out, const ry_verify *v, const ry_ibplan *pl, const ry_layout *lay,
                    ry_format fmt);

/* Appends the work order: header rack,rack_unit,device,port,cage_port,label,
 * action,to, a NIC of the plan as cabling.csv names it (device node001, port
 * mlx5_0); rows sorted along the racks as a technician walks them (row 1
 * forward, row 2 back, ...), then by rack unit, device and port. */
void ry_emit_work_order(ry_buf *out, const ry_verify *v, const ry_layout *lay);

/* The same of nx findings xs of v (verify's own, or a phase's:
 * analysis/expand.h); a finding of a planned link with replace[i] set is
 * the row "replace" (the old cable comes out, a new one goes in between the
 * planned ends). replace may be NULL. */
void ry_emit_work_order_of(ry_buf *out, const ry_verify *v, const ry_vf_finding *xs,
                           const uint8_t *replace, size_t nx, const ry_layout *lay);
/* Its header line, and its rows without the header (a report that adds
 * rows of its own around them: analysis/expand.h's switches). */
void ry_emit_work_order_header(ry_buf *out);
void ry_emit_work_order_rows(ry_buf *out, const ry_verify *v, const ry_vf_finding *xs,
                             const uint8_t *replace, size_t nx, const ry_layout *lay);
/* A rack's place on the walk the rows follow (room by room; in each along
 * row 1, back along row 2, ...); -1 for no rack (rows of no rack come last). */
long long ry_work_order_walk(const ry_layout *lay, int rack);

/* What routing the fabric as found left out: found cables that carry no
 * route (left), NICs of the plan not cabled, and per leaf the NICs its
 * routes do not reach (holes, from analysis/hw_guids.h). */
struct ry_hole;
void ry_emit_as_found(ry_buf *out, const ry_verify *v, const ry_ibplan *pl, long long left,
                      const struct ry_hole *holes, size_t n);

#endif
