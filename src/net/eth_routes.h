/* BGP's routes on an Ethernet fabric, as the configs of emit/eth/ make
 * them: eBGP on every fabric link, ASNs of the plan (fabric/ethplan.h),
 * best path by AS-path length, every equal-length path used (multipath-
 * relax), a route refused when it carries the receiver's own ASN.
 *
 * Given a destination switch D (the switch a prefix is connected to):
 *   D's path is (asn(D)); a neighbour Y of a switch X with a route learns
 *   X's best path; Y takes it unless asn(Y) is on it.
 * Pseudo code: breadth-first from D, level by level; at level k + 1 a
 *   switch Y takes every link from a level-k switch X whose path lacks
 *   asn(Y): those links are Y's next hops, and Y's path is asn(Y) then the
 *   path of the lowest-numbered such X (equal-length paths carry the same
 *   ASNs under the plan's sharing, so the choice does not change who
 *   refuses what).
 * Links down (a failure set) carry nothing. Linear in the links per
 * destination. */
#ifndef RY_ETH_ROUTES_H
#define RY_ETH_ROUTES_H

#include <stdint.h>

#include "fabric/ethplan.h"

typedef struct ry_eth_routes {
    const ry_fabric *f;         /* borrowed */
    const ry_ethplan *pl;       /* borrowed */
    int32_t *dist;              /* per switch (node id - first_switch): AS hops to D, -1: none */
    uint32_t *best;             /* per switch: the switch whose path it took */
    uint32_t *nh0, *nhn;        /* per switch: its next hops nh[nh0 .. nh0 + nhn) */
    uint32_t *nh;               /* next-hop ports (the switch's own port ids) */
    size_t nnh, cap;
    uint32_t *front, *next;     /* work: switch ids of a level */
} ry_eth_routes;

ry_eth_routes *ry_eth_routes_new(const ry_fabric *f, const ry_ethplan *pl);
void ry_eth_routes_free(ry_eth_routes *r);

/* The routes of every switch toward switch dest (a node id); link_down
 * may be NULL (nothing down). */
void ry_eth_routes_to(ry_eth_routes *r, uint32_t dest, const uint8_t *link_down);

/* ECMP widths from every leaf to every other leaf of its network: the
 * fewest and most next hops, and pairs with no route at all although
 * both leaves are up. */
typedef struct ry_eth_widths {
    long long pairs;            /* (leaf, other leaf) pairs of one network */
    long long unrouted;         /* of them without a route */
    int min, max;               /* next hops among the routed ones (0, 0: none) */
} ry_eth_widths;
void ry_eth_leaf_widths(ry_eth_routes *r, const uint8_t *node_down, const uint8_t *link_down,
                        ry_eth_widths *w);



/* The kernel's forwarding tables against the routes above. */
#include "netfmt/kroutes.h"

#define RY_ETH_CHECK_SHOWN 10
typedef struct ry_eth_check {
    long long routes;       /* (switch, prefix) pairs the plan routes */
    long long agree;        /* of them with a kernel route over exactly the planned ports */
    long long missing;      /* planned, not in the kernel */
    long long differ;       /* in the kernel over other ports (or more, or fewer) */
    long long extra;        /* BGP routes in the kernel to a plan's prefix the plan does not route */
    long long foreign;      /* BGP routes to prefixes outside the plan's pools (not judged) */
    long long tables;       /* switches whose table was read */
    int nshown;
    char shown[RY_ETH_CHECK_SHOWN][256];    /* the first mismatches, one line each */
} ry_eth_check;

/* tables[i] is switch (first_switch + i)'s table, or has nr 0 and no r
 * when it was not read (then the switch is not judged). Switches and links
 * down as in a failure set (NULL: none). Fills c. */
void ry_eth_check_tables(const ry_ethplan *pl, const ry_kroutes *tables, const uint8_t *node_down,
                         const uint8_t *link_down, ry_eth_check *c);
#endif
