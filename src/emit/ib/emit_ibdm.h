/* IBDM files of one InfiniBand subnet, beside its OpenSM files:
 * <prefix>/<subnet>/ibdiagnet.topo, the topology file that ibdmchk -t and
 * ibdiagnet -t read, and <prefix>/<subnet>/ibdiag_ibnl/<type>.ibnl, an IBNL
 * system definition for every system type the topology names (the switch
 * model, and one per set of CAs a host has on the subnet). */
#ifndef RY_EMIT_IBDM_H
#define RY_EMIT_IBDM_H

#include "io/outdir.h"
#include "fabric/ibplan.h"

/* -1 (error printed) when a file cannot be written. */
int ry_emit_ibdm(ry_outdir *o, const char *prefix, const ry_ibplan *pl, const ry_subnet *sn);

#endif
