/* The Ethernet plan: ASNs by RFC 7938's rule, pools checked against what
 * the fabric needs, interface names. Addresses are closed forms of ids
 * (ethplan.h); only the ASNs and the ECMP widths are stored. */
#include "fabric/ethplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/buf.h"
#include "util/hash.h"
#include "util/phys.h"

#define ASN_MAX 4294967294ULL          /* 4294967295 is reserved (RFC 7300) */
#define ASN16_PRIVATE_LO 64512ULL      /* RFC 6996 */
#define ASN16_PRIVATE_HI 65534ULL

/* A shared ASN's key: its network (subnet), tier and block (-1 on the top
 * tier, where one ASN serves the network). */
static uint64_t asn_key(const ry_fabric *f, const ry_node *n)
{
    uint32_t group = n->tier == f->tiers ? 0xffffffffu : (uint32_t)n->group;
    return ((uint64_t)(uint32_t)n->subnet << 36) ^ ((uint64_t)n->tier << 32) ^ group;
}

/* ASNs in switch order: a leaf's its own, a shared one taken at the first
 * switch of its key (open addressing over the keys; the order of the
 * numbers does not depend on the hash). */
static void plan_asns(ry_ethplan *pl)
{
    const ry_fabric *f = pl->f;
    size_t nsw = f->nnodes - f->first_switch, cap = 16;
    while (cap < 2 * nsw)
        cap *= 2;
    uint64_t *keys = ry_xcalloc(cap, sizeof *keys);
    uint32_t *vals = ry_xcalloc(cap, sizeof *vals);
    unsigned char *used = ry_xcalloc(cap, 1);
    unsigned long long next = (unsigned long long)f->spec->eth.asn_base;
    for (size_t i = 0; i < nsw; i++) {
        const ry_node *n = &f->nodes[f->first_switch + i];
        if (n->tier == 1 || f->tiers == 1) {
            pl->asn[i] = (uint32_t)next++;
            continue;
        }
        uint64_t k = asn_key(f, n);
        size_t h = (size_t)ry_hash_u64(k) & (cap - 1);
        while (used[h] && keys[h] != k)
            h = (h + 1) & (cap - 1);
        if (!used[h]) {
            used[h] = 1;
            keys[h] = k;
            vals[h] = (uint32_t)next++;
        }
        pl->asn[i] = vals[h];
    }
    pl->nasn = (uint32_t)(next - (unsigned long long)f->spec->eth.asn_base);
    pl->asn_last = (uint32_t)(next - 1);
    free(keys);
    free(vals);
    free(used);
}

/* Each switch's ECMP width: its uplinks (every route to a network outside
 * its cone leaves by all of them), or its most parallel links down to one
 * switch (the top tier's routes down), at least 1. */
static void plan_widths(ry_ethplan *pl)
{
    const ry_fabric *f = pl->f;
    uint32_t *stamp = ry_xcalloc(f->nnodes, sizeof *stamp);
    uint16_t *count = ry_xcalloc(f->nnodes, sizeof *count);
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        const ry_node *n = &f->nodes[id];
        int up = 0, par = 1;
        for (uint32_t p = n->port0; p < n->port0 + n->nports; p++) {
            int32_t peer = f->ports[p].peer;
            if (peer < 0)
                continue;
            uint32_t o = f->ports[peer].owner;
            const ry_node *m = &f->nodes[o];
            if (m->kind != RY_NODE_SWITCH)
                continue;
            if (m->tier > n->tier) {
                up++;
                continue;
            }
            if (stamp[o] != id + 1) {
                stamp[o] = id + 1;
                count[o] = 0;
            }
            if (++count[o] > par)
                par = count[o];
        }
        int w = up > par ? up : par;
        pl->width[id - f->first_switch] = (uint16_t)(w > 65535 ? 65535 : w);
    }
    free(stamp);
    free(count);
}

/* Lanes one model port of tier j's switches takes in names: 8 per OSFP or
 * QSFP-DD cage, 4 per other cages, shared by the cage's ports; never fewer
 * than the tier's splits, so every part has a lane of its own. */
static int tier_lanes(const ry_fabric *f, int j)
{
    const ry_tier_ports *t = &f->tier[j];
    const ry_switch_model *m = t->sw ? t->sw : &f->spec->sw;
    int per_cage = m->cages > 0 && m->radix > m->cages ? m->radix / m->cages : 1;
    int cage_lanes;
    if (m->connector[0])
        cage_lanes = ry_cage_lanes(m->connector);
    else
        cage_lanes = m->port_gbps * per_cage >= 400 ? 8 : 4;
    int l = cage_lanes / per_cage;
    if (l < 1)
        l = 1;
    int split = t->down_split > t->up_split ? t->down_split : t->up_split;
    while (l < split || l % split)
        l++;
    return l;
}

int ry_eth_port_lanes(const ry_ethplan *pl, uint32_t port, int *first)
{
    const ry_fabric *f = pl->f;
    const ry_node *n = ry_port_node(f, port);
    int sub, split;
    int mp = ry_switch_port_phys(f, n, port - n->port0, &sub, &split);
    int l = pl->lanes[n->tier];
    *first = mp * l + sub * (l / split);
    return l / split;
}

int ry_eth_port_name(const ry_ethplan *pl, uint32_t port, char *buf, size_t n)
{
    int first;
    ry_eth_port_lanes(pl, port, &first);
    return snprintf(buf, n, "Ethernet%d", first);
}

int ry_eth_nic_name(const ry_fabric *f, uint32_t nic_port, char *buf, size_t n)
{
    const ry_spec *s = f->spec;
    int gpn = s->node.gpus_per_node;
    long long gpu = nic_port / (uint32_t)f->planes;
    int plane = (int)(nic_port % (uint32_t)f->planes);
    int i = (int)(gpu % gpn) + plane * gpn;
    const char *nd = ry_nic_netdev(&s->node, i);
    return nd[0] ? snprintf(buf, n, "%s", nd) : snprintf(buf, n, "eth%d", i);
}

const char *ry_eth_role(const ry_node *n)
{
    return n->tier == 1 ? "BackEndToRRouter" : n->tier == 2 ? "BackEndLeafRouter" : "SpineRouter";
}

void ry_eth_loopback6(const ry_ethplan *pl, uint32_t node, uint8_t out[16])
{
    ry_ip6_compose(&pl->v6, 64, 0, 1ULL + (node - pl->f->first_switch), out);
}

void ry_eth_link6(const ry_ethplan *pl, uint32_t nic_port, unsigned long long h, uint8_t out[16])
{
    ry_ip6_compose(&pl->v6, 64, 1ULL + nic_port, h, out);
}

static int check_pools(ry_ethplan *pl, ry_err *err)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    const char *why;
    if (ry_prefix4_parse(s->eth.loopbacks, &pl->lo, &why) < 0 ||
        ry_prefix4_parse(s->eth.hosts, &pl->hosts, &why) < 0) {
        ry_err_set(err, "ethernet.hosts", "%s", why);
        return -1;
    }
    unsigned long long nsw = f->nnodes - f->first_switch;
    unsigned long long nics = (unsigned long long)f->gpus * (unsigned long long)f->planes;
    if (nsw + 1 > ry_prefix4_size(&pl->lo)) {
        ry_err_set(err, "ethernet.loopbacks", "ethernet.loopbacks %s holds %llu loopbacks; the fabric has %llu "
                   "switches (give a shorter prefix)", s->eth.loopbacks,
                   ry_prefix4_size(&pl->lo) - 1, nsw);
        return -1;
    }
    if (2 * nics > ry_prefix4_size(&pl->hosts)) {
        ry_err_set(err, "ethernet.hosts", "ethernet.hosts %s holds %llu host links (/31s); the fabric has %llu "
                   "NIC ports (give a shorter prefix)", s->eth.hosts,
                   ry_prefix4_size(&pl->hosts) / 2, nics);
        return -1;
    }
    if (ry_prefix4_overlap(&pl->lo, &pl->hosts)) {
        ry_err_set(err, "ethernet.loopbacks", "ethernet.loopbacks %s meets ethernet.hosts %s (give pools that do "
                   "not overlap)", s->eth.loopbacks, s->eth.hosts);
        return -1;
    }
    if (s->eth.ipv6 != RY_IPV6_OFF) {
        if (ry_prefix6_parse(s->eth.ipv6_prefix, &pl->v6, &why) < 0) {
            ry_err_set(err, "ethernet.ipv6_prefix", "%s", why);
            return -1;
        }
        unsigned long long n64 = pl->v6.len <= 0 ? ~0ULL : 1ULL << (64 - pl->v6.len);
        if (nics + 1 > n64) {
            ry_err_set(err, "ethernet.ipv6_prefix", "ethernet.ipv6_prefix %s holds %llu /64s; the fabric needs %llu "
                       "(one for the loopbacks, one per NIC port; give a shorter prefix)",
                       s->eth.ipv6_prefix, n64, nics + 1);
            return -1;
        }
    }
    return 0;
}

static int check_asns(const ry_ethplan *pl, ry_err *err)
{
    unsigned long long base = (unsigned long long)pl->f->spec->eth.asn_base;
    unsigned long long last = base + pl->nasn - 1;
    if (last > ASN_MAX) {
        ry_err_set(err, "ethernet.asn_base", "ethernet.asn_base: the plan takes %u ASNs from %llu, past the last "
                   "4-byte ASN 4294967294 (start lower: 4200000000 leaves 94,967,295)",
                   pl->nasn, base);
        return -1;
    }
    if (base >= ASN16_PRIVATE_LO && base <= ASN16_PRIVATE_HI && last > ASN16_PRIVATE_HI) {
        ry_err_set(err, "ethernet.asn_base", "ethernet.asn_base: the plan takes %u ASNs from %llu, past the 2-byte "
                   "private range's end 65534 (start at 4200000000, the 4-byte private range)",
                   pl->nasn, base);
        return -1;
    }
    return 0;
}

static int check_names(const ry_ethplan *pl, ry_err *err)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    char b[64];
    /* every NIC port of a server has an interface name of its own */
    int nports = s->node.gpus_per_node * f->planes;
    for (int i = 0; i < nports && i < RY_NICS_MAX; i++) {
        ry_eth_nic_name(f, (uint32_t)(i % s->node.gpus_per_node) * (uint32_t)f->planes +
                        (uint32_t)(i / s->node.gpus_per_node), b, sizeof b);
        if (strlen(b) > RY_ETH_IFNAME_MAX) {
            ry_err_set(err, "cluster.node.nics", "cluster.node.nics: netdev '%s' is longer than "
                       "Linux's %d characters", b, RY_ETH_IFNAME_MAX);
            return -1;
        }
        for (int j = 0; j < i; j++) {
            char c[64];
            ry_eth_nic_name(f, (uint32_t)(j % s->node.gpus_per_node) * (uint32_t)f->planes +
                            (uint32_t)(j / s->node.gpus_per_node), c, sizeof c);
            if (strcmp(b, c) == 0) {
                ry_err_set(err, "cluster.node.nics", "cluster.node.nics: NIC ports %d and %d "
                           "are both named '%s' (a server's interfaces need names of their "
                           "own)", j, i, b);
                return -1;
            }
        }
    }
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        if (pl->width[id - f->first_switch] > RY_ETH_MAX_PATHS) {
            ry_node_name(f, id, b, sizeof b);
            ry_err_set(err, "fabric.tiers", "%s would spread its routes over %d next hops; "
                       "FRR takes at most %d (fewer uplinks per switch, or more tiers)", b,
                       pl->width[id - f->first_switch], RY_ETH_MAX_PATHS);
            return -1;
        }
    }
    return 0;
}

int ry_ethplan_build(const ry_fabric *f, ry_ethplan *pl, ry_err *err)
{
    memset(pl, 0, sizeof *pl);
    pl->f = f;
    if (!ry_spec_is_ethernet(f->spec)) {
        ry_err_set(err, "fabric.switch", "fabric.switch %s is an InfiniBand switch; Ethernet configs need "
                   "Ethernet switches (fabric.switch.protocol: ethernet)", f->spec->sw.name);
        return -1;
    }
    if (check_pools(pl, err) < 0)
        return -1;
    size_t nsw = f->nnodes - f->first_switch;
    pl->asn = ry_xcalloc(nsw ? nsw : 1, sizeof *pl->asn);
    pl->width = ry_xcalloc(nsw ? nsw : 1, sizeof *pl->width);
    for (int j = 1; j <= f->tiers; j++)
        pl->lanes[j] = tier_lanes(f, j);
    plan_asns(pl);
    plan_widths(pl);
    if (check_asns(pl, err) < 0 || check_names(pl, err) < 0) {
        ry_ethplan_free(pl);
        return -1;
    }
    return 0;
}

void ry_ethplan_free(ry_ethplan *pl)
{
    free(pl->asn);
    free(pl->width);
    pl->asn = NULL;
    pl->width = NULL;
}
