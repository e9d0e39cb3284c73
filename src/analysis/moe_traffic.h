/* The expert all-to-all of a MoE model, GPU pair by GPU pair and on the
 * built fabric's links (the placement and sizes of model/moe.h, handed over
 * as plain numbers: analysis does not depend on the model).
 *
 * Expert-parallel groups: the GPUs of one tensor-parallel position p (rank
 * mod N_M) whose data-parallel ranks, (g / K) N_Ds + (g mod K) / N_M, fall in
 * one block of E. Each GPU sends every other member of its group the same
 * bytes per iteration. Inside a domain they go over NVLink. Across domains:
 *   - rail-optimized and fat-tree: from the sender's NIC to the receiver's,
 *     routed up-down over the fabric (any GPU reaches any GPU);
 *   - rail-only: to a receiver on the sender's rail, the same; to one on
 *     another rail, first over NVLink to the GPU of the sender's domain with
 *     the receiver's rank (the forwarding hop, counted apart), then from that
 *     GPU's NIC over its rail. A flow whose two ends are not in one subnet is
 *     an error, never a link the fabric does not have.
 * Each GPU's network bytes are split evenly over its planes, as in
 * analysis/traffic.h. */
#ifndef RY_MOE_TRAFFIC_H
#define RY_MOE_TRAFFIC_H

#include "analysis/traffic.h"
#include "fabric/fabric.h"

typedef struct ry_moe_traffic_in {
    long long N, K, NM, ep;     /* GPUs, HB domain, tensor-parallel size, EP size */
    double pair_bytes;          /* from one member to another per iteration */
} ry_moe_traffic_in;

typedef struct ry_moe_traffic {
    ry_traffic_map net;         /* the network part: per link, per tier (net.flows: flows) */
    long long pairs_nvlink;     /* ordered pairs in one domain */
    long long pairs_same_rail;  /* ordered pairs across domains, one rail */
    long long pairs_cross_rail; /* across domains, different rails */
    double sent;                /* bytes GPUs send to other GPUs (each byte once) */
    double received;            /* bytes GPUs receive from other GPUs */
    double nvlink;              /* sent over NVLink to the receiver itself */
    double forwarded;           /* rail-only: the NVLink hop of forwarded bytes */
    double network;             /* put on the network by GPU NICs */
    double delivered;           /* taken off the network by GPU NICs */
    double *gpu_fwd_out, *gpu_fwd_in;   /* per GPU: forwarding hop bytes */
    double *gpu_net_out, *gpu_net_in;   /* per GPU: NIC bytes, all planes */
} ry_moe_traffic;

/* -1 with err set when a flow has no route on the fabric. */
int ry_moe_traffic_map(const ry_fabric *f, const ry_moe_traffic_in *in, ry_moe_traffic *m,
                       ry_err *err);
/* The same with the network part placed on the flow engine over the
 * fabric as built (ry_traffic_map_engine: job's ranks 0 .. N - 1, routed as
 * the engine's options say): the groups as ep ranks N_M apart, each member
 * sending every other the pair's bytes. The pairs, NVLink and forwarding
 * hop are counted as above; what the NICs put on the network is the
 * engine's. Past the engine's bound the up-down routes (net.analytic_phases,
 * net.analytic). */
int ry_moe_traffic_map_engine(ry_net *n, const ry_job *job, const ry_moe_traffic_in *in,
                              ry_moe_traffic *m, ry_err *err);
void ry_moe_traffic_free(ry_moe_traffic *m);

/* The first GPU of g's expert-parallel group and the stride between
 * members inside a domain (placement above); members are first + stride * j
 * for j < min(E, N_Ds) in each of the group's domains. */
long long ry_moe_group_first(const ry_moe_traffic_in *in, long long g);

#endif
