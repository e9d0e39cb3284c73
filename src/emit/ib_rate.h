/* The width and lane speed of an InfiniBand link rate, as the diagnostics
 * print it: ibnetdiscover's "2xNDR" (topology.net) and ibdm's "-4x-10G->"
 * (ibdiagnet.topo) both start from here. */
#ifndef RY_IB_RATE_H
#define RY_IB_RATE_H

#include "spec/spec.h"

/* Lanes and per-lane Gb/s of a link of gbps on the spec's switch: the
 * switch's generation (its speed as written: NDR, NDR200, HDR100 ...) gives
 * the lane rate and the link's rate over it the width, so a split NDR200
 * port runs 2 lanes of NDR and an HDR100 port 2 of HDR; a speed written in
 * Gb/s takes 4 lanes, or 4 / split on a switch whose ports are split
 * (radix over cages x cage ports). *width is 0 and *lane 0 when no
 * InfiniBand width and lane rate give gbps. */
void ry_ib_link_width(const ry_spec *s, double gbps, int *width, double *lane);

/* The name ibnetdiscover prints for a lane rate ("NDR" for 100 Gb/s), or
 * NULL when none. */
const char *ry_ib_lane_name(double lane);

#endif
