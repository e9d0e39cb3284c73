/* check-routes' report of a ry_rc_result (analysis/route_check.h): text for
 * people, JSON with every figure and failing route (keys in railyard(1)),
 * and CSV with one row per check. */
#ifndef RY_EMIT_ROUTE_CHECK_H
#define RY_EMIT_ROUTE_CHECK_H

#include "analysis/route_check.h"
#include "emit/report/emit_bom.h"
#include "ibfmt/lftfile.h"
#include "ibfmt/netfile.h"
#include "util/buf.h"

/* Appends the report of r, a check of nf and lft (both only read), to out.
 * CSV columns: check, ok (1 or 0), failed, total, unit; rows reachable
 * (routes that stop, of all routes), loops (routes that come back to a
 * switch, of all routes), minimal (longer routes, of arriving ones),
 * credit_loops (channels on the cycle found, of all channels). */
void ry_emit_route_check(ry_buf *out, const ry_netfile *nf, const ry_lft *lft,
                         const ry_rc_result *r, ry_format fmt);

#endif
