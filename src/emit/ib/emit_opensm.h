/* OpenSM subnet-manager files, one directory per subnet:
 * opensm/<subnet>/{topology.net, root_guids.conf, cn_guids.conf, lfts.dump,
 * partitions.conf, node-name-map, guid2lid, opensm.conf}, and the subnet's
 * IBDM files beside them (ibdiagnet.topo, ibdiag_ibnl/: emit_ibdm.h). */
#ifndef RY_EMIT_OPENSM_H
#define RY_EMIT_OPENSM_H

#include <stdint.h>

#include "io/outdir.h"
#include "fabric/ibplan.h"

/* What ry_emit_opensm wrote, for reports and benchmarks. */
typedef struct ry_opensm_stats {
    unsigned long long lft_entries, bytes;  /* of the LFT files */
    int subnets;
} ry_opensm_stats;

/* What the LFT files will hold, before they are written: every LID of a
 * subnet on each of its switches, at the bytes write_lfts gives a line (an
 * upper bound: a LID a switch has no route to is left out). */
void ry_opensm_lfts_estimate(const ry_ibplan *pl, ry_opensm_stats *st);

/* Writes every subnet's files under prefix ("opensm"); -1 on a write error.
 * When st is not NULL it is set to the totals written (the caller's struct;
 * nothing is kept between calls). */
int ry_emit_opensm(ry_outdir *o, const char *prefix, const ry_ibplan *pl, ry_opensm_stats *st);

/* The same files for the fabric after failures: node_down and link_down are
 * byte arrays by fabric node id and link id, nonzero = failed, NULL = none
 * (a failed GPU or a failed NIC link cuts its CA off). The subnet is written
 * as it stands: a failed switch, a failed link and a CA cut off are absent
 * from topology.net, the GUID lists, guid2lid and partitions.conf; every
 * survivor keeps its LID and GUID (OpenSM keeps LIDs across a failure);
 * lfts.dump holds the tables routed around the failures (analysis/route.h)
 * for the surviving switches. A subnet whose every switch failed gets no
 * directory (st->subnets counts those written). The IBDM files are written
 * only for subnets no failure touches. With both arrays NULL, or nothing of
 * a subnet failed, the bytes are those of ry_emit_opensm. */
int ry_emit_opensm_failed(ry_outdir *o, const char *prefix, const ry_ibplan *pl,
                          const uint8_t *node_down, const uint8_t *link_down,
                          ry_opensm_stats *st);

#endif
