/* One subnet as up-down routing sees it: what the routing tables (route.h)
 * and the LID-free walker (updown.h) both start from, built once here so
 * that they number switches, leaves and destinations the same way.
 *
 * The switches of subnet k (node.subnet) get local indices 0..S-1 in node
 * order, which is tier order and the LID order of the InfiniBand plan. A
 * leaf is a switch with GPU ports below it; leaves are numbered in switch
 * order, and the end ports (GPU ports) c = 0, 1, ... in leaf order, each
 * leaf's by port: the order ibplan.h gives the CAs their LIDs. A switch's
 * neighbour switches are listed up and down in the order of their first
 * port, all parallel links to one neighbour as one group, its ports in
 * port order (consecutive, every m-th, or runs of a cage's ports: the top
 * tier's copies), whatever their spacing.
 *
 * Among the candidate ports toward end c, both routers pick with the same
 * D-mod-K digit (ry_updown_digit). */
#ifndef RY_UPDOWN_GRAPH_H
#define RY_UPDOWN_GRAPH_H

#include <stdint.h>

#include "fabric/fabric.h"

typedef struct ry_ud_group {
    uint32_t sw;            /* local index of the neighbour switch */
    uint32_t nlinks;        /* parallel links, on ports gport[first + q], q < nlinks
                             * (ry_ud_port; 0-based, within the switch) */
    uint32_t first;
} ry_ud_group;

typedef struct ry_updown_graph {
    const ry_fabric *f;     /* borrowed */
    size_t S, L, nends;     /* switches, leaves, end ports */
    uint32_t *sw;           /* local switch -> node id */
    int32_t *local;         /* node id - first_switch -> local switch, or -1 */
    uint8_t *tier;          /* per local switch */
    int32_t *leaf_of;       /* local switch -> leaf, or -1 */
    uint32_t *leaf_sw;      /* leaf -> local switch */
    uint32_t *end;          /* end -> GPU port id */
    uint32_t *end_leaf;     /* end -> leaf */
    uint32_t *leaf_first;   /* L + 1: a leaf's ends are [leaf_first[l], leaf_first[l + 1]) */
    ry_ud_group *up, *down; /* a switch's groups: [up0[s], up0[s + 1]), likewise down */
    uint32_t *up0, *down0;  /* S + 1 offsets */
    uint32_t *gport;        /* the groups' port indices, each group's ascending */
    uint64_t div[RY_MAX_TIERS + 2];  /* D at tier t: product of the uplink counts below it */
} ry_updown_graph;

/* Port index (0-based) of a group's link q. */
static inline uint32_t ry_ud_port(const ry_updown_graph *g, const ry_ud_group *v, uint32_t q)
{
    return g->gport[v->first + q];
}

/* Subnet k of the fabric. ry_updown_graph_free releases what it allocates. */
void ry_updown_graph_build(const ry_fabric *f, int k, ry_updown_graph *g);
void ry_updown_graph_free(ry_updown_graph *g);

/* The index, modulo the number of candidates, of the port switch s takes
 * toward end c: going down (toward a child that has c's leaf below it) or
 * up. It is c / D + c mod D with D the product of the uplink counts below
 * the tier of the ports chosen among: D-mod-K up to a fixed rotation per
 * switch on full trees, so a shift permutation uses every link once, and
 * spread over the ports on partial ones. A leaf numbers the ends it sends up
 * without its own, so a window of consecutive destinations that wraps around
 * the subnet still takes consecutive up-links. */
static inline uint64_t ry_updown_digit(const ry_updown_graph *g, size_t s, uint64_t c, int down)
{
    int32_t own = g->leaf_of[s];
    if (own >= 0 && c >= g->leaf_first[own + 1])
        c -= g->leaf_first[own + 1] - g->leaf_first[own];
    uint64_t div = g->div[down ? g->tier[s] - 1 : g->tier[s]];
    return c / div + c % div;
}

#endif
