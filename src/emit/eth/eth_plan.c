/* The Ethernet plan as tables (asn-plan.csv, addresses.csv), the one-screen
 * summary, and the group's entry that runs every writer of this folder. */
#include <stdio.h>
#include <string.h>

#include "emit/eth/eth.h"
#include "fabric/names.h"
#include "util/buf.h"
#include "util/numfmt.h"

static int write_asn_plan(ry_outdir *o, const char *dir, const ry_ethplan *pl)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    FILE *fp = ry_outdir_open_in(o, dir, "asn-plan.csv");
    if (!fp)
        return -1;
    char name[96], a[64];
    fprintf(fp, "switch,role,tier,plane,block,asn,loopback,%smaximum_paths\n",
            s->eth.ipv6 != RY_IPV6_OFF ? "loopback6," : "");
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        const ry_node *n = &f->nodes[id];
        ry_node_name(f, id, name, sizeof name);
        fprintf(fp, "%s,%s,%d,%d,%d,%u,%s,", name, ry_tier_name(n->tier, f->tiers), n->tier,
                n->plane, n->tier == f->tiers && f->tiers > 1 ? -1 : n->group,
                ry_eth_asn(pl, id), ry_ip4_text(ry_eth_loopback(pl, id), a, sizeof a));
        if (s->eth.ipv6 != RY_IPV6_OFF) {
            uint8_t z[16];
            ry_eth_loopback6(pl, id, z);
            fprintf(fp, "%s,", ry_ip6_text(z, a, sizeof a));
        }
        fprintf(fp, "%d\n", pl->width[id - f->first_switch]);
    }
    return ry_outdir_close(o, fp);
}

static int write_addresses(ry_outdir *o, const char *dir, const ry_ethplan *pl)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    FILE *fp = ry_outdir_open_in(o, dir, "addresses.csv");
    if (!fp)
        return -1;
    int gpn = s->node.gpus_per_node, v6 = s->eth.ipv6 != RY_IPV6_OFF;
    fprintf(fp, "host,netdev,rdma,gpu,rail,plane,address,switch,port,switch_address%s\n",
            v6 ? ",prefix6" : "");
    char host[64], dev[32], rdma[32], sw[96], port[32], a[64], b[64];
    for (long long h = 0; h < s->nodes; h++) {
        ry_host_name(f, h, host, sizeof host);
        for (int i = 0; i < gpn * f->planes; i++) {
            long long gpu = h * gpn + i % gpn;
            uint32_t nic = (uint32_t)(gpu * f->planes + i / gpn);
            int32_t peer = f->ports[nic].peer;
            if (peer < 0)
                continue;
            ry_eth_nic_name(f, nic, dev, sizeof dev);
            ry_nic_rdma(&s->node, i, rdma, sizeof rdma);
            ry_node_name(f, f->ports[peer].owner, sw, sizeof sw);
            ry_eth_port_name(pl, (uint32_t)peer, port, sizeof port);
            uint32_t x = ry_eth_link_addr(pl, nic);
            fprintf(fp, "%s,%s,%s,%lld,%d,%d,%s/31,%s,%s,%s", host, dev, rdma, gpu,
                    f->nodes[gpu].rail, i / gpn, ry_ip4_text(x + 1, a, sizeof a), sw, port,
                    ry_ip4_text(x, b, sizeof b));
            if (v6) {
                uint8_t z[16];
                ry_eth_link6(pl, nic, 0, z);
                fprintf(fp, ",%s/64", ry_ip6_text(z, a, sizeof a));
            }
            fputc('\n', fp);
        }
    }
    return ry_outdir_close(o, fp);
}

static int write_summary(ry_outdir *o, const char *dir, const ry_ethplan *pl,
                         const ry_eth_stats *st)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    FILE *fp = ry_outdir_open_in(o, dir, "summary.txt");
    if (!fp)
        return -1;
    char a[64], b[64], c[32];
    long long per_tier[RY_MAX_TIERS + 1] = { 0 };
    int wmin[RY_MAX_TIERS + 1], wmax[RY_MAX_TIERS + 1];
    for (int j = 0; j <= RY_MAX_TIERS; j++)
        wmin[j] = 1 << 30, wmax[j] = 0;
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        int t = f->nodes[id].tier, w = pl->width[id - f->first_switch];
        per_tier[t]++;
        if (w < wmin[t])
            wmin[t] = w;
        if (w > wmax[t])
            wmax[t] = w;
    }
    fprintf(fp, "ethernet: %s, %s GPUs, %s on %d tier%s, eBGP unnumbered on every fabric link\n",
            s->name, ry_num_int(c, sizeof c, f->gpus), ry_spec_design_word(s), f->tiers,
            f->tiers == 1 ? "" : "s");
    fprintf(fp, "ASNs         %u to %u (%u): a leaf its own; %s\n",
            (unsigned)s->eth.asn_base, pl->asn_last, pl->nasn,
            f->tiers >= 3 ? "a middle tier's block one; the top tier one per network"
            : f->tiers == 2 ? "the spines one per network" : "no fabric links");
    fprintf(fp, "switches    ");
    for (int j = 1; j <= f->tiers; j++)
    {
        fprintf(fp, " %s %s (ECMP ", ry_tier_name(j, f->tiers), ry_num_int(c, sizeof c, per_tier[j]));
        if (wmin[j] == wmax[j])
            fprintf(fp, "%d)%s", wmax[j], j < f->tiers ? "," : "");
        else
            fprintf(fp, "%d..%d)%s", wmin[j], wmax[j], j < f->tiers ? "," : "");
    }
    fprintf(fp, "\n");
    unsigned long long nsw = f->nnodes - f->first_switch;
    fprintf(fp, "loopbacks    %s to %s of %s\n", ry_ip4_text(pl->lo.addr + 1, a, sizeof a),
            ry_ip4_text(pl->lo.addr + (uint32_t)nsw, b, sizeof b), s->eth.loopbacks);
    unsigned long long nics = (unsigned long long)f->gpus * (unsigned long long)f->planes;
    fprintf(fp, "host links   %s /31s from %s (%s to %s), the ToR's address even\n",
            ry_num_int(c, sizeof c, (long long)nics), s->eth.hosts,
            ry_ip4_text(pl->hosts.addr, a, sizeof a),
            ry_ip4_text(pl->hosts.addr + (uint32_t)(2 * nics - 1), b, sizeof b));
    if (s->eth.ipv6 != RY_IPV6_OFF)
        fprintf(fp, "IPv6         %s: loopbacks in its first /64, a /64 per host link (%s)\n",
                s->eth.ipv6_prefix, s->eth.ipv6 == RY_IPV6_SLAAC ? "SLAAC on hosts" :
                "hosts ::2");
    ry_roce_qos q;
    ry_roce_qos_of(s->eth.qos, &q);
    fprintf(fp, "RoCE QoS     %s: DSCP %d -> TC %d%s; CNP DSCP %d strict priority; ECN %d-%d KiB "
                "at %d%%\n", ry_roce_qos_name(s->eth.qos), q.roce_dscp, q.roce_prio,
            q.pfc ? ", PFC on 3" : ", PFC off", q.cnp_dscp, q.ecn_min_kb, q.ecn_max_kb,
            q.ecn_prob);
    fprintf(fp, "BGP          %s sessions, BFD on each; hosts MTU %d, switch ports 9216\n",
            ry_num_int(c, sizeof c, st->sessions), s->eth.mtu);
    fprintf(fp, "files        switches/<switch>/frr.conf, config_db.json (%s each); "
                "hosts/<host>.yaml, .sh, .qos.sh, .nccl.conf (%s each); host-sysctl.conf; "
                "asn-plan.csv; addresses.csv\n",
            ry_num_int(a, sizeof a, st->switches), ry_num_int(b, sizeof b, st->hosts));
    return ry_outdir_close(o, fp);
}

void ry_eth_plan_text(ry_buf *o, const ry_ethplan *pl)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    char a[32], b[32];
    unsigned long long nics = (unsigned long long)f->gpus * (unsigned long long)f->planes;
    ry_roce_qos q;
    ry_roce_qos_of(s->eth.qos, &q);
    ry_buf_printf(o, "\nethernet:      eBGP unnumbered, ASNs %u to %u (%u); %s loopbacks of %s, "
                  "%s host links (/31) of %s\n", (unsigned)s->eth.asn_base, pl->asn_last, pl->nasn,
                  ry_num_int(a, sizeof a, (long long)(f->nnodes - f->first_switch)),
                  s->eth.loopbacks, ry_num_int(b, sizeof b, (long long)nics), s->eth.hosts);
    ry_buf_printf(o, "               RoCE QoS %s (PFC %s), IPv6 %s\n",
                  ry_roce_qos_name(s->eth.qos), q.pfc ? "on priority 3" : "off",
                  s->eth.ipv6 == RY_IPV6_OFF ? "off" : s->eth.ipv6 == RY_IPV6_STATIC ? "static"
                  : "SLAAC");
}

int ry_eth_write_plan(ry_outdir *o, const char *dir, const ry_ethplan *pl,
                      const ry_eth_stats *st)
{
    if (write_asn_plan(o, dir, pl) < 0 || write_addresses(o, dir, pl) < 0)
        return -1;
    return write_summary(o, dir, pl, st);
}

int ry_eth_each_switch(ry_outdir *o, const char *dir, const ry_ethplan *pl, const char *file,
                       ry_eth_switch_writer write, void *ctx)
{
    const ry_fabric *f = pl->f;
    char name[96], rel[256];
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        ry_node_name(f, id, name, sizeof name);
        snprintf(rel, sizeof rel, "%s/switches/%s", dir, name);
        FILE *fp = ry_outdir_open_in(o, rel, file);
        if (!fp)
            return -1;
        int rc = write(fp, pl, id, rel, ctx);
        if (ry_outdir_close(o, fp) < 0 || rc < 0)
            return -1;
    }
    return 0;
}

int ry_emit_ethernet(ry_outdir *o, const char *dir, const ry_ethplan *pl, const ry_cabling *cab,
                     ry_eth_stats *st)
{
    memset(st, 0, sizeof *st);
    if (ry_eth_write_frr(o, dir, pl, st) < 0 || ry_eth_write_sonic(o, dir, pl, cab, st) < 0 ||
        ry_eth_write_hosts(o, dir, pl, st) < 0)
        return -1;
    return ry_eth_write_plan(o, dir, pl, st);
}
