/* OpenSM subnet-manager files, one directory per subnet:
 * opensm/<subnet>/{topology.net, root_guids.conf, cn_guids.conf, lfts.dump,
 * partitions.conf, node-name-map, guid2lid, opensm.conf}, and the subnet's
 * IBDM files beside them (ibdiagnet.topo, ibdiag_ibnl/: emit_ibdm.h). */
#ifndef RY_EMIT_OPENSM_H
#define RY_EMIT_OPENSM_H

#include "emit/outdir.h"
#include "fabric/ibplan.h"

/* What ry_emit_opensm wrote, for reports and benchmarks. */
typedef struct ry_opensm_stats {
    unsigned long long lft_entries, bytes;  /* of the LFT files */
    int subnets;
} ry_opensm_stats;

/* Writes every subnet's files under prefix ("opensm"); -1 on a write error.
 * When st is not NULL it is set to the totals written (the caller's struct;
 * nothing is kept between calls). */
int ry_emit_opensm(ry_outdir *o, const char *prefix, const ry_ibplan *pl, ry_opensm_stats *st);

#endif
