/* The filling behind ry_flows_run and ry_net_run (net/flow.h), on
 * capacities looked up by resource id: a caller need not hold one per
 * resource of the fabric. */
#ifndef RY_NET_FILL_H
#define RY_NET_FILL_H

#include "net/flow.h"

/* As ry_flows_run, resource r's capacity being capacity(cctx, r) (asked
 * for the resources the flows cross only); and, when visit is not NULL,
 * visit(vctx, r, bytes) once for each resource the flows cross, with the
 * bytes it carries. Its own memory is proportional to the flows, their
 * entries, the resources two flows or more cross, and nres / 4 bytes. */
int ry_fill_run(double (*capacity)(const void *cctx, uint32_t res), const void *cctx, size_t nres,
                ry_flows *fl, ry_net_result *out, double *load, ry_res_visit visit, void *vctx,
                ry_err *err);

#endif
