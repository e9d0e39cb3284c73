/* Each server's addressing, as netplan YAML and as the same ip commands:
 * one /31 per NIC port toward its ToR, and a routing table per NIC port
 * with a rule by source address, so that traffic from a NIC's address
 * leaves on that NIC (its rail), not on the main table's NIC. The main
 * table reaches the fabric through the first NIC port, for software that
 * binds no address. And the NICs' RoCE QoS as dcb(8) and mlx5 sysfs
 * commands matching the switches' profile.
 *
 * Names reach the scripts as shell words (util/escape.h's SHELL: as they
 * are when plain, which the spec's readers see to) and the comments of
 * both files as one line each (LINE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/eth/eth.h"
#include "fabric/names.h"
#include "util/escape.h"

#define TABLE0 100      /* NIC port i routes in table TABLE0 + i, its rule at that priority */

/* A shell word of a name of at most 31 bytes: each byte at most 4 ('\''
 * or \xNN) and the quotes. */
#define WORD_MAX (31 * 4 + 3)

typedef struct nic {
    uint32_t port;      /* NIC port id */
    int i;              /* index in the node: GPU in node + plane * GPUs per node */
    char dev[32], rdma[32], sw[96], swport[32];
    char dev_sh[WORD_MAX], rdma_sh[WORD_MAX];   /* dev and rdma as shell words */
    char dev_line[WORD_MAX];    /* dev in a comment */
    char sysctl_sh[WORD_MAX];   /* dev in a sysctl key: its dots as '/' */
    char about[256];    /* the comment's "rdma; cabled to switch port", one line */
    int gpu, rail, plane;
} nic;

/* A name of at most 31 bytes as a shell word. */
static void word(char out[WORD_MAX], const char *name)
{
    ry_escape_to(out, WORD_MAX, name, RY_ESC_SHELL);
}

/* The cabled NIC ports of server h, in NIC order. */
static int host_nics(const ry_ethplan *pl, long long h, nic *out, int cap)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    int gpn = s->node.gpus_per_node, n = 0;
    for (int i = 0; i < gpn * f->planes && n < cap; i++) {
        long long gpu = h * gpn + i % gpn;
        int plane = i / gpn;
        uint32_t port = (uint32_t)(gpu * f->planes + plane);
        int32_t peer = f->ports[port].peer;
        if (peer < 0)
            continue;
        nic *x = &out[n++];
        x->port = port;
        x->i = i;
        x->gpu = (int)gpu;
        x->rail = f->nodes[gpu].rail;
        x->plane = plane;
        ry_eth_nic_name(f, port, x->dev, sizeof x->dev);
        ry_nic_rdma(&s->node, i, x->rdma, sizeof x->rdma);
        ry_node_name(f, f->ports[peer].owner, x->sw, sizeof x->sw);
        ry_eth_port_name(pl, (uint32_t)peer, x->swport, sizeof x->swport);
        word(x->dev_sh, x->dev);
        word(x->rdma_sh, x->rdma);
        ry_escape_to(x->dev_line, sizeof x->dev_line, x->dev, RY_ESC_LINE);
        /* sysctl(8) reads a key's dots as separators; an interface's own
         * dots (a VLAN's eth0.100) are written as '/' */
        char key[32];
        snprintf(key, sizeof key, "%s", x->dev);
        for (char *c = key; *c; c++)
            if (*c == '.')
                *c = '/';
        word(x->sysctl_sh, key);
        char about[256];
        snprintf(about, sizeof about, "%s; cabled to %s %s", x->rdma, x->sw, x->swport);
        ry_escape_to(x->about, sizeof x->about, about, RY_ESC_LINE);
    }
    return n;
}

/* The text of one server's files besides its NICs': the host and spec
 * names in comments, the pools as shell words. */
typedef struct texts {
    char host[256], spec[256];                  /* one line each */
    char hosts[WORD_MAX], loopbacks[WORD_MAX], prefix6[WORD_MAX];   /* shell words */
} texts;

static void texts_of(const ry_spec *s, const char *host, texts *w)
{
    ry_escape_to(w->host, sizeof w->host, host, RY_ESC_LINE);
    ry_escape_to(w->spec, sizeof w->spec, s->name, RY_ESC_LINE);
    ry_escape_to(w->hosts, sizeof w->hosts, s->eth.hosts, RY_ESC_SHELL);
    ry_escape_to(w->loopbacks, sizeof w->loopbacks, s->eth.loopbacks, RY_ESC_SHELL);
    ry_escape_to(w->prefix6, sizeof w->prefix6, s->eth.ipv6_prefix, RY_ESC_SHELL);
}

static void write_netplan(FILE *fp, const ry_ethplan *pl, const texts *w, const nic *x, int n)
{
    const ry_spec *s = pl->f->spec;
    const char *host = w->host, *spec = w->spec;
    char a[64], g[64], p6[64];
    fprintf(fp, "# netplan of %s: %d NIC port%s, each routed by its own table (railyard, spec "
                "%s)\n", host, n, n == 1 ? "" : "s", spec);
    fprintf(fp, "network:\n  version: 2\n  renderer: networkd\n  ethernets:\n");
    for (int k = 0; k < n; k++) {
        uint32_t sw = ry_eth_link_addr(pl, x[k].port);
        int t = TABLE0 + x[k].i;
        fprintf(fp, "    %s:\n      # GPU %d of the cluster, rail %d, plane %d, %s\n", x[k].dev,
                x[k].gpu, x[k].rail, x[k].plane, x[k].about);
        fprintf(fp, "      mtu: %d\n", s->eth.mtu);
        fprintf(fp, "      addresses:\n        - %s/31\n", ry_ip4_text(sw + 1, a, sizeof a));
        uint8_t z[16];
        if (s->eth.ipv6 == RY_IPV6_STATIC) {
            ry_eth_link6(pl, x[k].port, 2, z);
            fprintf(fp, "        - \"%s/64\"\n", ry_ip6_text(z, a, sizeof a));
        }
        if (s->eth.ipv6 != RY_IPV6_OFF)
            fprintf(fp, "      accept-ra: %s\n", s->eth.ipv6 == RY_IPV6_SLAAC ? "true" : "false");
        ry_ip4_text(sw, g, sizeof g);
        fprintf(fp, "      routes:\n");
        const char *pools[2] = { s->eth.hosts, s->eth.loopbacks };
        for (int j = 0; j < 2; j++)
            fprintf(fp, "        - to: %s\n          via: %s\n          table: %d\n",
                    pools[j], g, t);
        if (k == 0)
            for (int j = 0; j < 2; j++)
                fprintf(fp, "        - to: %s\n          via: %s\n", pools[j], g);
        if (s->eth.ipv6 != RY_IPV6_OFF) {
            fprintf(fp, "        - to: \"%s\"\n          via: \"%s\"\n          table: %d\n",
                    s->eth.ipv6_prefix, RY_ETH_TOR_LL, t);
            if (k == 0)
                fprintf(fp, "        - to: \"%s\"\n          via: \"%s\"\n", s->eth.ipv6_prefix,
                        RY_ETH_TOR_LL);
        }
        fprintf(fp, "      routing-policy:\n        - from: %s/32\n          table: %d\n"
                    "          priority: %d\n", ry_ip4_text(sw + 1, a, sizeof a), t, t);
        if (s->eth.ipv6 != RY_IPV6_OFF) {
            ry_eth_link6(pl, x[k].port, 0, z);
            fprintf(fp, "        - from: \"%s/64\"\n          table: %d\n          priority: %d\n",
                    ry_ip6_text(z, p6, sizeof p6), t, t);
        }
    }
}

static void write_ip_script(FILE *fp, const ry_ethplan *pl, const texts *w, const nic *x, int n)
{
    const ry_spec *s = pl->f->spec;
    const char *host = w->host, *spec = w->spec;
    const char *hosts = w->hosts, *loopbacks = w->loopbacks, *prefix6 = w->prefix6;
    char a[64], g[64];
    fprintf(fp, "#!/bin/sh\n# %s: addresses, a routing table per NIC port and its rule "
                "(railyard, spec %s).\n# The same as %s.yaml, as ip commands; run as root. "
                "Safe to run again.\nset -e\n", host, spec, host);
    fprintf(fp, "# ARP from each NIC's own address; answer only for it\n"
                "sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2\n");
    for (int k = 0; k < n; k++) {
        uint32_t sw = ry_eth_link_addr(pl, x[k].port);
        int t = TABLE0 + x[k].i;
        ry_ip4_text(sw, g, sizeof g);
        ry_ip4_text(sw + 1, a, sizeof a);
        const char *dev = x[k].dev_sh;
        fprintf(fp, "# %s: GPU %d, rail %d, plane %d, %s\n", x[k].dev_line, x[k].gpu, x[k].rail,
                x[k].plane, x[k].about);
        fprintf(fp, "ip link set dev %s mtu %d up\n", dev, s->eth.mtu);
        fprintf(fp, "ip addr replace %s/31 dev %s\n", a, dev);
        fprintf(fp, "ip route replace %s via %s dev %s table %d\n", hosts, g, dev, t);
        fprintf(fp, "ip route replace %s via %s dev %s table %d\n", loopbacks, g, dev, t);
        if (k == 0) {
            fprintf(fp, "ip route replace %s via %s dev %s\n", hosts, g, dev);
            fprintf(fp, "ip route replace %s via %s dev %s\n", loopbacks, g, dev);
        }
        fprintf(fp, "ip rule del priority %d 2>/dev/null || true\n", t);
        fprintf(fp, "ip rule add from %s table %d priority %d\n", a, t, t);
        if (s->eth.ipv6 != RY_IPV6_OFF) {
            uint8_t z[16];
            char p6[64];
            if (s->eth.ipv6 == RY_IPV6_SLAAC)
                fprintf(fp, "sysctl -qw net.ipv6.conf.%s.accept_ra=2 net.ipv6.conf.%s.autoconf=1\n",
                        x[k].sysctl_sh, x[k].sysctl_sh);
            else {
                ry_eth_link6(pl, x[k].port, 2, z);
                fprintf(fp, "ip -6 addr replace %s/64 dev %s nodad\n", ry_ip6_text(z, a, sizeof a),
                        dev);
            }
            /* via the ToR's link-local fe80::1, there from the start (a
             * SLAAC /64 is on-link only once an advertisement arrives) */
            fprintf(fp, "ip -6 route replace %s via %s dev %s table %d\n", prefix6,
                    RY_ETH_TOR_LL, dev, t);
            if (k == 0)
                fprintf(fp, "ip -6 route replace %s via %s dev %s\n", prefix6, RY_ETH_TOR_LL,
                        dev);
            ry_eth_link6(pl, x[k].port, 0, z);
            fprintf(fp, "ip -6 rule del priority %d 2>/dev/null || true\n", t);
            fprintf(fp, "ip -6 rule add from %s/64 table %d priority %d\n",
                    ry_ip6_text(z, p6, sizeof p6), t, t);
        }
    }
}

static void write_qos_script(FILE *fp, const ry_ethplan *pl, const texts *w, const nic *x, int n)
{
    const ry_spec *s = pl->f->spec;
    const char *host = w->host, *spec = w->spec;
    ry_roce_qos q;
    ry_roce_qos_of(s->eth.qos, &q);
    fprintf(fp, "#!/bin/sh\n# %s: RoCE QoS of the NICs, profile %s, matching the switches "
                "(railyard, spec %s).\n", host, ry_roce_qos_name(s->eth.qos), spec);
    fprintf(fp, "# RoCE on DSCP %d, priority %d; CNPs on DSCP %d, priority %d; PFC %s.\n"
                "# dcb(8) from iproute2 sets trust and PFC on any DCB-capable NIC; the sysfs "
                "lines are\n# ConnectX's (mlx5): DCQCN on the RoCE priority and the RDMA-CM "
                "traffic class.\nset -e\n", q.roce_dscp, q.roce_prio, q.cnp_dscp, q.cnp_prio,
            q.pfc ? "on the RoCE priority only" : "off (lossy: ECN alone)");
    char pfc[128] = "";
    for (int p = 0; p < 8; p++) {
        size_t l = strlen(pfc);
        snprintf(pfc + l, sizeof pfc - l, "%s%d:%s", p ? " " : "", p,
                 q.pfc && p == q.roce_prio ? "on" : "off");
    }
    for (int k = 0; k < n; k++) {
        const char *dev = x[k].dev_sh;
        char line[64];
        fprintf(fp, "# %s (%s)\n", x[k].dev_line, ry_escape_to(line, sizeof line, x[k].rdma,
                                                          RY_ESC_LINE));
        fprintf(fp, "dcb app replace dev %s dscp-prio %d:%d %d:%d\n", dev, q.roce_dscp,
                q.roce_prio, q.cnp_dscp, q.cnp_prio);
        fprintf(fp, "dcb pfc set dev %s prio-pfc %s\n", dev, pfc);
        fprintf(fp, "echo 1 > /sys/class/net/%s/ecn/roce_np/enable/%d\n", dev, q.roce_prio);
        fprintf(fp, "echo 1 > /sys/class/net/%s/ecn/roce_rp/enable/%d\n", dev, q.roce_prio);
        fprintf(fp, "echo %d > /sys/class/net/%s/ecn/roce_np/cnp_dscp\n", q.cnp_dscp, dev);
        fprintf(fp, "echo %d > /sys/class/infiniband/%s/tc/1/traffic_class\n",
                q.roce_dscp << 2 | 2, x[k].rdma_sh);
    }
}

static int by_rail(const void *a, const void *b)
{
    const nic *x = *(const nic *const *)a, *y = *(const nic *const *)b;
    if (x->rail != y->rail)
        return x->rail < y->rail ? -1 : 1;
    return (x->plane > y->plane) - (x->plane < y->plane);
}

/* /etc/nccl.conf of a host (NCCL reads NAME=VALUE lines, '#' starting a
 * comment line: src/misc/param.cc). NCCL's queue pairs carry traffic class
 * 0 unless NCCL_IB_TC says otherwise (NCCL_IB_TC_DEFAULT, net_ib): DSCP 0,
 * a lossy queue. The RDMA device names are catalog names of letters,
 * digits, '_', '.' and '-' (spec/catalog.c), nothing NCCL's list reads
 * otherwise. */
static void write_nccl_conf(FILE *fp, const ry_ethplan *pl, const texts *w, const nic *x, int n)
{
    const ry_spec *s = pl->f->spec;
    ry_roce_qos q;
    ry_roce_qos_of(s->eth.qos, &q);
    const nic *order[RY_NICS_MAX];
    for (int k = 0; k < n; k++)
        order[k] = &x[k];
    qsort(order, (size_t)n, sizeof *order, by_rail);
    fprintf(fp, "# %s: NCCL on the fabric's RoCE class (railyard, spec %s); install as\n"
                "# /etc/nccl.conf, or name it in NCCL_CONF_FILE. NCCL reads NAME=VALUE lines.\n",
            w->host, w->spec);
    fprintf(fp, "# NCCL's queue pairs carry traffic class 0 (DSCP 0, a lossy queue) unless "
                "told:\n# DSCP %d << 2 with ECT(0) is the RoCE class, priority %d%s.\n"
                "NCCL_IB_TC=%d\n", q.roce_dscp, q.roce_prio,
            q.pfc ? ", lossless (PFC)" : ", ECN alone", q.roce_dscp << 2 | 2);
    fputs("# The GID of each NIC's IPv4 address, RoCE v2, chosen by NCCL (2.21 and later;\n"
          "# before, set NCCL_IB_GID_INDEX to the index show_gids gives it).\n"
          "NCCL_IB_ADDR_FAMILY=AF_INET\nNCCL_IB_ROCE_VERSION_NUM=2\n", fp);
    fputs("# The NICs in rail order, rail 0 first, each its device's port 1.\nNCCL_IB_HCA==", fp);
    for (int k = 0; k < n; k++)
        fprintf(fp, "%s%s:1", k ? "," : "", order[k]->rdma);
    fputc('\n', fp);
}

int ry_eth_write_hosts(ry_outdir *o, const char *dir, const ry_ethplan *pl, ry_eth_stats *st)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    enum { CAP = RY_NICS_MAX };
    nic x[CAP];
    char host[64], rel[256], name[96];
    snprintf(rel, sizeof rel, "%s/hosts", dir);
    for (long long h = 0; h < s->nodes; h++) {
        int n = host_nics(pl, h, x, CAP);
        if (n == 0)
            continue;
        ry_host_name(f, h, host, sizeof host);
        texts w;
        texts_of(s, host, &w);
        static const char *const ext[] = { ".yaml", ".sh", ".qos.sh", ".nccl.conf" };
        for (int e = 0; e < 4; e++) {
            snprintf(name, sizeof name, "%s%s", host, ext[e]);
            FILE *fp = ry_outdir_open_in(o, rel, name);
            if (!fp)
                return -1;
            if (e == 0)
                write_netplan(fp, pl, &w, x, n);
            else if (e == 1)
                write_ip_script(fp, pl, &w, x, n);
            else if (e == 2)
                write_qos_script(fp, pl, &w, x, n);
            else
                write_nccl_conf(fp, pl, &w, x, n);
            if (ry_outdir_close(o, fp) < 0)
                return -1;
        }
        st->hosts++;
    }
    /* netplan sets no sysctl: the ARP settings the .sh sets, for every host */
    FILE *fp = ry_outdir_open_in(o, dir, "host-sysctl.conf");
    if (!fp)
        return -1;
    char spec[sizeof ((texts *)0)->spec];
    ry_escape_to(spec, sizeof spec, s->name, RY_ESC_LINE);
    fprintf(fp, "# Every host of %s (railyard): a NIC per rail, each its own /31, answers ARP\n"
                "# only for the address of the interface asked and sends it as the source.\n"
                "# Install as /etc/sysctl.d/60-railyard.conf beside the netplan of "
                "hosts/<host>.yaml\n# (hosts/<host>.sh sets the same), then sysctl --system.\n"
                "net.ipv4.conf.all.arp_ignore = 1\nnet.ipv4.conf.all.arp_announce = 2\n", spec);
    return ry_outdir_close(o, fp);
}
