/* FRR's frr.conf of every switch: one integrated file per switch that
 * zebra, bgpd and bfdd each read their sections of (`frr defaults
 * datacenter`: the fast timers a fabric wants). Fabric links are BGP
 * unnumbered: `neighbor PORT interface` peers over the link's IPv6
 * link-local address and carries IPv4 with IPv6 next hops (RFC 8950).
 * Text from the spec (its name, a description's host and interface) is
 * one line each (util/escape.h's LINE): a line break would start a
 * command of its own. */
#include <stdio.h>

#include "emit/eth/eth.h"
#include "fabric/names.h"
#include "util/escape.h"

static void write_prefix_lists(FILE *fp, const ry_ethplan *pl)
{
    const ry_spec *s = pl->f->spec;
    fprintf(fp, "ip prefix-list LOCAL seq 10 permit %s ge 32\n", s->eth.loopbacks);
    fprintf(fp, "ip prefix-list LOCAL seq 20 permit %s ge 31 le 31\n", s->eth.hosts);
    fprintf(fp, "!\nroute-map LOCAL permit 10\n match ip address prefix-list LOCAL\nexit\n!\n");
    if (s->eth.ipv6 != RY_IPV6_OFF) {
        fprintf(fp, "ipv6 prefix-list LOCAL6 seq 10 permit %s ge 64\n", s->eth.ipv6_prefix);
        fprintf(fp, "!\nroute-map LOCAL6 permit 10\n match ipv6 address prefix-list LOCAL6\n"
                    "exit\n!\n");
    }
}

static int write_switch(FILE *fp, const ry_ethplan *pl, uint32_t id, long long *sessions)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    const ry_node *n = &f->nodes[id];
    char name[96], a[64], b[128], pn[32];
    ry_node_name(f, id, name, sizeof name);
    uint32_t asn = ry_eth_asn(pl, id);
    int v6 = s->eth.ipv6 != RY_IPV6_OFF;
    fprintf(fp, "! %s: %s, tier %d of %d, plane %d; ASN %u\n", name,
            ry_tier_name(n->tier, f->tiers), n->tier, f->tiers, n->plane, asn);
    char line[256];
    fprintf(fp, "! written by railyard from the spec %s; FRR's integrated config "
                "(/etc/frr/frr.conf)\n!\n", ry_escape_to(line, sizeof line, s->name, RY_ESC_LINE));
    fprintf(fp, "frr defaults datacenter\nhostname %s\nservice integrated-vtysh-config\n!\n",
            name);
    fprintf(fp, "interface lo\n ip address %s/32\n", ry_ip4_text(ry_eth_loopback(pl, id), a,
                                                                   sizeof a));
    if (v6) {
        uint8_t x[16];
        ry_eth_loopback6(pl, id, x);
        fprintf(fp, " ipv6 address %s/128\n", ry_ip6_text(x, a, sizeof a));
    }
    fprintf(fp, "exit\n!\n");
    /* every cabled port: a host link with its /31, or a fabric link */
    for (uint32_t p = n->port0; p < n->port0 + n->nports; p++) {
        int32_t peer = f->ports[p].peer;
        if (peer < 0)
            continue;
        const ry_node *m = ry_port_node(f, (uint32_t)peer);
        ry_eth_port_name(pl, p, pn, sizeof pn);
        fprintf(fp, "interface %s\n", pn);
        if (m->kind == RY_NODE_GPU) {
            char host[64], dev[32];
            uint32_t nic = (uint32_t)peer;
            ry_host_name(f, m->index / s->node.gpus_per_node, host, sizeof host);
            ry_eth_nic_name(f, nic, dev, sizeof dev);
            snprintf(b, sizeof b, "%s %s", host, dev);
            fprintf(fp, " description %s\n", ry_escape_to(line, sizeof line, b, RY_ESC_LINE));
            fprintf(fp, " ip address %s/31\n", ry_ip4_text(ry_eth_link_addr(pl, nic), a,
                                                           sizeof a));
            if (v6) {
                uint8_t x[16];
                ry_eth_link6(pl, nic, 1, x);
                fprintf(fp, " ipv6 address %s/64\n ipv6 address %s/64\n",
                        ry_ip6_text(x, a, sizeof a), RY_ETH_TOR_LL);
                if (s->eth.ipv6 == RY_IPV6_SLAAC) {
                    ry_eth_link6(pl, nic, 0, x);
                    fprintf(fp, " ipv6 nd prefix %s/64\n no ipv6 nd suppress-ra\n",
                            ry_ip6_text(x, a, sizeof a));
                }
            }
        } else {
            ry_node_name(f, f->ports[peer].owner, b, sizeof b);
            ry_eth_port_name(pl, (uint32_t)peer, a, sizeof a);
            fprintf(fp, " description %s %s\n", b, a);
        }
        fprintf(fp, "exit\n!\n");
    }
    fprintf(fp, "router bgp %u\n bgp router-id %s\n", asn,
            ry_ip4_text(ry_eth_loopback(pl, id), a, sizeof a));
    fprintf(fp, " no bgp ebgp-requires-policy\n bgp bestpath as-path multipath-relax\n");
    fprintf(fp, " neighbor FABRIC peer-group\n neighbor FABRIC remote-as external\n"
                " neighbor FABRIC bfd\n");
    for (uint32_t p = n->port0; p < n->port0 + n->nports; p++) {
        int32_t peer = f->ports[p].peer;
        if (peer < 0 || ry_port_node(f, (uint32_t)peer)->kind != RY_NODE_SWITCH)
            continue;
        ry_eth_port_name(pl, p, pn, sizeof pn);
        fprintf(fp, " neighbor %s interface peer-group FABRIC\n", pn);
        ++*sessions;
    }
    int w = pl->width[id - f->first_switch];
    fprintf(fp, " !\n address-family ipv4 unicast\n  redistribute connected route-map LOCAL\n"
                "  maximum-paths %d\n exit-address-family\n", w);
    if (v6)
        fprintf(fp, " !\n address-family ipv6 unicast\n  neighbor FABRIC activate\n"
                    "  redistribute connected route-map LOCAL6\n  maximum-paths %d\n"
                    " exit-address-family\n", w);
    fprintf(fp, "exit\n!\n");
    write_prefix_lists(fp, pl);
    fprintf(fp, "end\n");
    return 0;
}

static int frr_conf(FILE *fp, const ry_ethplan *pl, uint32_t id, const char *rel, void *ctx)
{
    (void)rel;
    ry_eth_stats *st = ctx;
    long long sess = 0;
    write_switch(fp, pl, id, &sess);
    st->sessions += sess;
    st->switches++;
    return 0;
}

int ry_eth_write_frr(ry_outdir *o, const char *dir, const ry_ethplan *pl, ry_eth_stats *st)
{
    if (ry_eth_each_switch(o, dir, pl, "frr.conf", frr_conf, st) < 0)
        return -1;
    st->sessions /= 2;      /* each session counted at both ends */
    return 0;
}
