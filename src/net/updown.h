/* Up-down next hops toward GPU ports without LIDs: the rule of
 * analysis/route.c (the routing tables railyard writes for OpenSM), for
 * subnets of any size and switches of any radix.
 *
 * The end ports of a subnet are numbered c = 0, 1, ... in leaf order (leaves
 * by node id, a leaf's GPUs by port), as their LIDs are. At switch s, toward
 * end port c on leaf l:
 *   - s is l: the port to c;
 *   - l is below s: the down ports toward a child with l below it;
 *   - else: the up ports toward a parent p with J(p,l) == J(s,l), J being
 *     the lowest tier of a switch at or above s that has l below;
 * and the candidates, by neighbour (in the order of its first port) and
 * each neighbour's links in port order, are picked by (c/D + c mod D) mod n,
 * D the product of the uplink counts of the tiers below (route.c's D-mod-K
 * digit). The numbering, the neighbour lists and the digit are route.c's own
 * (updown_graph.h); the two are tested against each other on InfiniBand
 * fabrics.
 *
 * Work per destination leaf: one walk up from the leaf (the switches with l
 * below) and a memo of J, so routing every end port costs about what the
 * routes themselves touch. The state of 16 leaves is kept at once (a new
 * leaf replaces the one least recently used), so a caller alternating among
 * a few leaves (a ring's neighbours on other rails) walks each once. */
#ifndef RY_UPDOWN_H
#define RY_UPDOWN_H

#include <stdint.h>

#include "fabric/fabric.h"

typedef struct ry_updown ry_updown;

/* A walker over subnet k of the fabric (node.subnet of its switches). */
ry_updown *ry_updown_new(const ry_fabric *f, int k);
/* The same over what survives failures: node_down (per fabric node) and
 * link_down (per fabric link), nonzero = failed, NULL = none; borrowed,
 * they must outlive the walker and not change under it. No route leads
 * over a failed link or through a failed switch: up-down over the links
 * left (a switch's leaves below, and J, over live links only), the digit
 * picking among the live candidates as analysis/route.c's failure-aware
 * tables do; a GPU port whose link or leaf failed has no route from
 * anywhere. */
ry_updown *ry_updown_new_failed(const ry_fabric *f, int k, const uint8_t *node_down,
                                const uint8_t *link_down);
void ry_updown_free(ry_updown *u);

/* End ports of the subnet, in order: count and the GPU port id of each. */
size_t ry_updown_ends(const ry_updown *u);
uint32_t ry_updown_end(const ry_updown *u, size_t c);
/* Index of a GPU port among the ends, or -1 when it is not in the subnet. */
long long ry_updown_index(const ry_updown *u, uint32_t gpu_port);

/* The port index (0-based, within the switch) through which switch node sw
 * forwards toward GPU port gpu_port; -1 when sw is not in the subnet or has
 * no route. */
int ry_updown_next(ry_updown *u, uint32_t sw, uint32_t gpu_port);

/* Every port ry_updown_next picks among there (the candidates above, in
 * their order; at the destination's own leaf the one port to it): their
 * count, and *ports set to their port indices (0-based, within the
 * switch), valid until the next call on u. 0 (and *ports NULL) when sw is
 * not in the subnet, gpu_port not one of its ends, or sw has no route. */
size_t ry_updown_candidates(ry_updown *u, uint32_t sw, uint32_t gpu_port, const uint32_t **ports);

#endif
