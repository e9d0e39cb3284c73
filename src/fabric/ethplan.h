/* The Ethernet plan of a fabric: BGP ASNs, loopbacks, host-link addresses
 * and interface names, from which every Ethernet config is written.
 *
 * Routing is eBGP on every fabric link, unnumbered (RFC 5549/8950: IPv4
 * routes over IPv6 link-local next hops), with ASNs as RFC 7938 gives them
 * for data centers:
 *   leaf                        an ASN of its own
 *   middle tier (tier 2 of 3)   one ASN per block (pod) of its network
 *   top tier                    one ASN per network (plane, or rail of a
 *                               rail-only fabric)
 * so that no path that goes down and up again is ever accepted (the shared
 * ASN is already on it). ASNs count up from ethernet.asn_base in switch
 * order, a shared one at its first switch.
 *
 * Addresses are derived, never stored:
 *   switch loopback   loopbacks' network + 1 + (switch seq)      /32
 *   host link         hosts' network + 2 * (NIC port id)          /31
 *                     (the ToR port takes the even address, the NIC the odd)
 *   IPv6              ipv6_prefix's first /64 holds the loopbacks (::1 +
 *                     seq); host link i is the /64 number i + 1: ToR ::1,
 *                     NIC ::2 (static) or its own SLAAC address; the
 *                     hosts route via the ToR port's fe80::1
 * NIC port id = gpu * planes + plane, as everywhere.
 *
 * Interface names: a switch port is Ethernet<first lane> as SONiC names
 * them (8 lanes per OSFP or QSFP-DD cage, 4 per QSFP, a split port's parts
 * on its lanes in order); a host's NIC port is the node model's netdev for
 * it, or eth<i>. */
#ifndef RY_ETHPLAN_H
#define RY_ETHPLAN_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "util/inet.h"

/* The most ECMP next hops a route may have: FRR as Debian builds it
 * (--enable-multipath=256); a wider planned fan-out is refused. */
#define RY_ETH_MAX_PATHS 256
/* The link-local address every ToR port to a server carries besides its
 * own, the hosts' IPv6 gateway: known before any advertisement arrives. */
#define RY_ETH_TOR_LL "fe80::1"
/* Linux interface names: IFNAMSIZ - 1. */
#define RY_ETH_IFNAME_MAX 15

typedef struct ry_ethplan {
    const ry_fabric *f;     /* borrowed */
    ry_prefix4 lo, hosts;
    ry_prefix6 v6;
    uint32_t *asn;          /* per switch (node id - first_switch) */
    uint16_t *width;        /* per switch: its planned ECMP width (maximum-paths) */
    uint32_t nasn;          /* distinct ASNs */
    uint32_t asn_last;
    int lanes[RY_MAX_TIERS + 1];    /* [tier]: lanes one model port's name steps by */
} ry_ethplan;

/* Plans ASNs and addresses; -1 with err set (err->key: the key to change)
 * when the fabric is not Ethernet, an ASN would pass 4294967294 (or leave
 * the 2-byte private range it starts in), a pool is too small, pools meet,
 * a name is too long for Linux or a fan-out is wider than
 * RY_ETH_MAX_PATHS. */
int ry_ethplan_build(const ry_fabric *f, ry_ethplan *pl, ry_err *err);
void ry_ethplan_free(ry_ethplan *pl);

static inline uint32_t ry_eth_asn(const ry_ethplan *pl, uint32_t node)
{
    return pl->asn[node - pl->f->first_switch];
}
static inline uint32_t ry_eth_loopback(const ry_ethplan *pl, uint32_t node)
{
    return pl->lo.addr + 1 + (node - pl->f->first_switch);
}
/* The ToR side of a NIC port's /31; the NIC's is one more. */
static inline uint32_t ry_eth_link_addr(const ry_ethplan *pl, uint32_t nic_port)
{
    return pl->hosts.addr + 2 * nic_port;
}
/* IPv6: a switch's loopback, and host link i's /64 with host part h. */
void ry_eth_loopback6(const ry_ethplan *pl, uint32_t node, uint8_t out[16]);
void ry_eth_link6(const ry_ethplan *pl, uint32_t nic_port, unsigned long long h, uint8_t out[16]);

/* A switch port's interface name (port id of a switch): Ethernet<lane>. */
int ry_eth_port_name(const ry_ethplan *pl, uint32_t port, char *buf, size_t n);
/* Its first lane and its lanes. */
int ry_eth_port_lanes(const ry_ethplan *pl, uint32_t port, int *first);
/* A NIC port's netdev on its host. */
int ry_eth_nic_name(const ry_fabric *f, uint32_t nic_port, char *buf, size_t n);

/* The role of a switch in SONiC's words, DEVICE_METADATA's type: a GPU
 * fabric is a back end, its leaves the servers' ToRs (BackEndToRRouter),
 * its spines above them BackEndLeafRouter, a core SpineRouter. SONiC's
 * buffer templates read the role without "BackEnd" as t0, t1, t2 and the
 * cable to a server 5 m, ToR to leaf 40 m, leaf to spine 300 m
 * (sonic-buildimage files/build_templates/buffers_config.j2). */
const char *ry_eth_role(const ry_node *n);

#endif
