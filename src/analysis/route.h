/* Routing tables (LFTs) for one InfiniBand subnet: up-down routing with
 * destination-based balancing over the usable parallel ports (D-mod-K on
 * full trees), minimal, deterministic, correct on partial and oversubscribed
 * trees. Routes to switch LIDs (management traffic) take a shortest path.
 *
 * Failures. A router can route around failed switches and links: node_down
 * and link_down are byte arrays indexed by fabric node id and link id
 * (nonzero = failed; NULL = none failed), read once and copied. A failed GPU
 * takes its NIC ports down; a failed NIC port is its link. Then
 *   - no entry leads into a failed switch or over a failed link;
 *   - a failed switch's own LID and a dead CA's LIDs get no entry anywhere
 *     (RY_LFT_NONE), and a failed switch's row is all RY_LFT_NONE;
 *   - every CA still reachable by an up*-down* path (tiers as built) gets a
 *     route from every switch that reaches it that way, minimal among
 *     up-down paths; the others get none;
 *   - among the surviving candidates the same D-mod-K digit as without
 *     failures picks the port (the ends keep their numbers), so with no
 *     failure the tables are exactly those of ry_router_new;
 *   - switch LIDs: shortest path over the surviving links.
 * Failed LIDs are not renumbered: every survivor keeps its LID. */
#ifndef RY_ROUTE_H
#define RY_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/ibplan.h"

#define RY_LFT_NONE 0xFF

typedef struct ry_router ry_router;

/* Prepares routing for subnet k of the plan; ry_router_free releases it. */
ry_router *ry_router_new(const ry_ibplan *pl, int k);
/* The same around failures (see above); NULL arrays = none failed. */
ry_router *ry_router_new_failed(const ry_ibplan *pl, int k, const uint8_t *node_down,
                                const uint8_t *link_down);
void ry_router_free(ry_router *r);

/* Fills row[0..max_lid] with the output port (IB port number, 0 = the switch
 * itself, RY_LFT_NONE = no route) of the i-th switch of the subnet. Computed
 * on demand, one row at a time, unless ry_router_tables built them all. */
void ry_router_row(ry_router *r, size_t i, uint8_t *row);

/* Builds every row in memory and returns them: switch i's row (max_lid + 1
 * bytes) at i * (max_lid + 1). Owned by the router, valid until it is freed;
 * ry_router_fail updates it in place. */
const uint8_t *ry_router_tables(ry_router *r);

/* Adds failures (node ids, link ids of the fabric; already failed ones and
 * elements of other subnets are ignored) and updates the tables, building
 * them first if needed. Only the destinations and switches a new failure
 * can affect are recomputed; the tables equal those of ry_router_new_failed
 * given every failure so far. Returns the number of table entries changed. */
size_t ry_router_fail(ry_router *r, const uint32_t *nodes, size_t nnodes,
                      const uint32_t *links, size_t nlinks);

#endif
