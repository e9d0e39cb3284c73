/* The width and lane speed of an InfiniBand link rate, as the diagnostics
 * print it: ibnetdiscover's "2xNDR" (topology.net) and ibdm's "-4x-10G->"
 * (ibdiagnet.topo) both start from here. */
#ifndef RY_IB_RATE_H
#define RY_IB_RATE_H

#include "fabric/fabric.h"

/* Lanes and per-lane Gb/s of a port of gbps on switch model sw whose tier
 * splits it in `split` (1: not split): the model's generation (its speed as
 * written: NDR, NDR200, HDR100 ...) gives the lane rate and the port's rate
 * over it the width, so a split NDR200 port runs 2 lanes of NDR and an
 * HDR100 port 2 of HDR; a speed written in Gb/s takes 4 lanes, or 4 / split
 * on a port split by the model (radix over cages x cage ports) or its tier.
 * *width is 0 and *lane 0 when no InfiniBand width and lane rate give gbps. */
void ry_ib_link_width(const ry_switch_model *sw, int split, double gbps, int *width,
                      double *lane);

/* The same for a link of the fabric at its speed (ry_link_gbps): each
 * switch end by its model and its tier's split, the slower lane rate of
 * the two when both ends are switches of different generations (a link
 * trains at what both ends run). */
void ry_ib_link_rate(const ry_fabric *f, uint32_t link, int *width, double *lane);

/* The name ibnetdiscover prints for a lane rate ("NDR" for 100 Gb/s), or
 * NULL when none. */
const char *ry_ib_lane_name(double lane);

#endif
