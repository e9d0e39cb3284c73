/* The Ethernet configs of a fabric (railyard ethernet, build's ethernet/
 * group), from its Ethernet plan (fabric/ethplan.h):
 *   switches/<switch>/frr.conf   FRR: eBGP unnumbered, BFD, ECMP   eth_frr.c
 *   switches/<switch>/config_db.json  SONiC's CONFIG_DB: ports,   eth_sonic.c
 *                                interfaces, BGP_NEIGHBOR, QoS
 *   hosts/<host>.yaml            netplan: addresses, per-NIC tables eth_hosts.c
 *   hosts/<host>.sh              the same as ip commands
 *   hosts/<host>.qos.sh          the NICs' RoCE QoS (dcb, sysfs)
 *   asn-plan.csv, addresses.csv  the plan as tables                 eth_plan.c
 *   summary.txt                  one screen
 * The writers of this folder share this header and nothing else; each
 * writes its files into the run's directory `dir` of the outdir. */
#ifndef RY_EMIT_ETH_H
#define RY_EMIT_ETH_H

#include "io/outdir.h"
#include "analysis/cabling.h"
#include "fabric/ethplan.h"

/* What the group wrote, for its closing line. */
typedef struct ry_eth_stats {
    long long switches, hosts, sessions;
    long long sonic;            /* config_db.json files */
} ry_eth_stats;

/* Every file above under dir/; -1 on a write error (printed). */
int ry_emit_ethernet(ry_outdir *o, const char *dir, const ry_ethplan *pl, const ry_cabling *cab,
                     ry_eth_stats *st);

int ry_eth_write_frr(ry_outdir *o, const char *dir, const ry_ethplan *pl, ry_eth_stats *st);
/* cab: the cabling plan, for CABLE_LENGTH (NULL: the lengths SONiC's own
 * buffer template gives each pair of roles) */
int ry_eth_write_sonic(ry_outdir *o, const char *dir, const ry_ethplan *pl, const ry_cabling *cab,
                       ry_eth_stats *st);
int ry_eth_write_hosts(ry_outdir *o, const char *dir, const ry_ethplan *pl, ry_eth_stats *st);
int ry_eth_write_plan(ry_outdir *o, const char *dir, const ry_ethplan *pl,
                      const ry_eth_stats *st);

/* Writes dir/switches/<switch>/<file> of every switch, in node order, with
 * write(fp, pl, id, rel, ctx), rel the file's folder: the writers' one loop
 * over the switches. -1 when write returns -1 (after printing why) or a file
 * cannot be written (printed). */
typedef int (*ry_eth_switch_writer)(FILE *fp, const ry_ethplan *pl, uint32_t id,
                                    const char *rel, void *ctx);
int ry_eth_each_switch(ry_outdir *o, const char *dir, const ry_ethplan *pl, const char *file,
                       ry_eth_switch_writer write, void *ctx);

/* The plan in a few lines, for validate: ASNs, pools, QoS. */
struct ry_buf;
void ry_eth_plan_text(struct ry_buf *o, const ry_ethplan *pl);

/* The RoCE QoS profile's numbers, the one place each default is set (and
 * its source named, eth_qos.c). */
typedef struct ry_roce_qos {
    int roce_dscp, roce_prio;   /* RoCE data: DSCP and priority / traffic class */
    int cnp_dscp, cnp_prio;     /* congestion notifications */
    int pfc;                    /* 1: PFC on roce_prio (lossless) */
    int ecn_min_kb, ecn_max_kb, ecn_prob;  /* WRED/ECN marking on the RoCE queue: KiB, % */
} ry_roce_qos;
void ry_roce_qos_of(int profile, ry_roce_qos *q);
const char *ry_roce_qos_name(int profile);

#endif
