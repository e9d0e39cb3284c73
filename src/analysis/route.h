/* Routing tables (LFTs) for one InfiniBand subnet: up-down routing with
 * destination-based balancing over the usable parallel ports (D-mod-K on
 * full trees), minimal, deterministic, correct on partial and oversubscribed
 * trees. Routes to switch LIDs (management traffic) take a shortest path. */
#ifndef RY_ROUTE_H
#define RY_ROUTE_H

#include <stdint.h>

#include "fabric/ibplan.h"

#define RY_LFT_NONE 0xFF

typedef struct ry_router ry_router;

/* Prepares routing for subnet k of the plan. */
ry_router *ry_router_new(const ry_ibplan *pl, int k);
void ry_router_free(ry_router *r);

/* Fills row[0..max_lid] with the output port (IB port number, 0 = the switch
 * itself, RY_LFT_NONE = no route) of the i-th switch of the subnet. */
void ry_router_row(ry_router *r, size_t i, uint8_t *row);

#endif
