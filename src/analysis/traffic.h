/* The traffic of one training iteration, GPU pair by GPU pair (the paper's
 * section 2.2), and where it goes on the built fabric.
 *
 * GPU g sits in HB domain g / K at local rank r = g mod K. Tensor-parallel
 * (MP) groups are N_M consecutive ranks of a domain; the hierarchical
 * all-reduce of the gradients runs first inside the domain among the N_Ds
 * GPUs holding the same shard (ranks equal mod N_M: DP stage 2), then across
 * domains among the N_Df GPUs of the same rank (DP stage 1, same rail). Each
 * collective is the all-to-all form the model assumes: an all-reduce of X
 * bytes among p GPUs sends 2X/p bytes from every member to every other. Per
 * ordered pair and iteration that is
 *   MP:          l * M_cc * b * d_model / N
 *   DP stage 2:  l * 2 * S_T / K
 *   DP stage 1:  l * 2 * S_T / N
 * so summing over pairs gives back the communication terms of eq. 1 times
 * the bandwidths. Nothing here is an N x N matrix: pairs are counted per
 * type in closed form and only DP stage 1 crosses the network. */
#ifndef RY_TRAFFIC_H
#define RY_TRAFFIC_H

#include "fabric/fabric.h"

typedef enum {
    RY_TR_MP = 0,           /* tensor parallel, inside a domain */
    RY_TR_DP_CROSS = 1,     /* DP stage 1, across domains, same rank */
    RY_TR_DP_IN = 2,        /* DP stage 2, inside a domain */
    RY_TR_NONE = 3,
    RY_TR_TYPES = 4
} ry_traffic_type;

const char *ry_traffic_type_name(ry_traffic_type t);

typedef struct ry_traffic {
    long long N, K, NM, NDs, NDf;
    int rails, planes;
    double pair_bytes[RY_TR_TYPES];     /* per ordered pair and iteration */
    long long pairs[RY_TR_TYPES];       /* unordered pairs of each type */
    double bytes[RY_TR_TYPES];          /* sent in one iteration, all pairs */
    long long total_pairs;              /* N (N - 1) / 2 */
    double total_bytes;
} ry_traffic;

/* The parallelism a model chose and the sizes of what its collectives move,
 * as plain numbers: the caller copies them from the model (ry_iter_in of
 * model/iteration.h and the optimum's N_M), so traffic does not depend on
 * how the model found them. */
typedef struct ry_traffic_in {
    long long N, K, NM;     /* GPUs, HB domain, tensor-parallel size (NM | K | N) */
    double layers;          /* l */
    double d_model;
    double b;               /* tokens per iteration */
    double S_T, M_cc;       /* bytes: one block's gradients, per collective round */
} ry_traffic_in;

/* The traffic of that parallelism on the spec's cluster. */
void ry_traffic_plan(const ry_spec *s, const ry_traffic_in *in, ry_traffic *t);

/* Type of the traffic between GPUs i != j. */
ry_traffic_type ry_traffic_pair(const ry_traffic *t, long long i, long long j);

/* DP stage 1 routed over the fabric with up-down routes (updown.h), each
 * GPU's bytes split evenly over its planes. */
typedef struct ry_traffic_map {
    double *up, *down;          /* per link: bytes toward the upper and the lower end */
    long long flows;            /* (source, destination, plane) routed */
    long long hops;             /* switch-to-switch and GPU links crossed, summed over flows */
    double network_bytes;       /* bytes GPUs put on the network */
    struct {
        long long links, idle;
        double bytes, max;      /* both directions summed; the busiest link */
    } tier[RY_MAX_TIERS + 1];   /* by the upper end's tier: [1] = GPU to leaf */
    long long links, idle;
} ry_traffic_map;

/* What the mapped bytes ask of the links over one iteration of iter_s
 * seconds. A link is full duplex: its load is its busier direction's bytes,
 * its utilisation that load / (iter_s x its speed in bytes/s), speeds in
 * Gb/s (ry_link_gbps) and bytes/s = Gb/s x 1e9 / 8. */
typedef struct ry_traffic_load {
    double iter_s;
    struct {
        double mean_gbytes_per_s;   /* each way, averaged over the tier's links */
        double busiest_gbytes_per_s;    /* the busiest link's busier direction */
        double busiest_gbps;        /* that link's speed */
        double busiest_util;        /* its utilisation, 0..1 when the links keep up */
    } tier[RY_MAX_TIERS + 1];
    int busiest_tier;               /* of the busiest link overall; 0: no traffic */
    long long busiest_link;         /* its id, -1 when none */
    double busiest_gbytes_per_s, busiest_gbps, busiest_util;
} ry_traffic_load;

/* The load of map over an iteration of iter_s > 0 seconds. */
void ry_traffic_load_compute(const ry_fabric *f, const ry_traffic_map *map, double iter_s,
                             ry_traffic_load *out);

/* -1 with err set when a flow has no route (a fabric the builder would not make). */
int ry_traffic_map_fabric(const ry_fabric *f, const ry_traffic *t, ry_traffic_map *m,
                          ry_err *err);
void ry_traffic_map_free(ry_traffic_map *m);

/* The fabric without the links that carry nothing and the switches left
 * with no link: a new graph (out->spec = f->spec) for the bill of materials. */
void ry_fabric_trim(const ry_fabric *f, const ry_traffic_map *m, ry_fabric *out);

#endif
