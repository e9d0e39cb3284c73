/* The traffic of one training iteration, GPU pair by GPU pair (the paper's
 * section 2.2 with the full model's pipeline stages), and where it goes on
 * the built fabric.
 *
 * GPU g sits in HB domain g / K at local rank r = g mod K. The layout is the
 * full model's (model/plan.h): g = tp + N_M (dp + D pp) for tensor rank tp,
 * data-parallel replica dp < D and stage pp < P, N = N_M D P. Tensor-parallel
 * (MP) groups are N_M consecutive ranks of a domain; the hierarchical
 * all-reduce of a stage's gradients runs first inside the domain among the
 * N_Ds replicas holding the same shard (DP stage 2), then across the stage's
 * domains among the N_Df GPUs of the same rank (DP stage 1, same rail);
 * D = N_Ds N_Df. Each collective is the all-to-all form the model assumes:
 * an all-reduce of X bytes among p GPUs sends 2X/p bytes from every member
 * to every other. Per ordered pair and iteration, with l_s the blocks of a
 * stage and b_r the tokens of a replica,
 *   MP:          l_s * M_cc * b_r * d_model / N_M
 *   DP stage 2:  l_s * 2 * S_T / (N_M N_Ds)
 *   DP stage 1:  l_s * 2 * S_T / (N_M N_Ds N_Df)
 *   PP:          the point-to-point of a stage boundary, GPU g to g + N_M D
 *                (activations forward) and back (their gradients), the
 *                model's m * s * mb * d_model * bytes / N_M each way
 * (with P = 1: l * M_cc * b * d_model / N, l * 2 * S_T / K, l * 2 * S_T / N,
 * eq. 1's terms). Nothing here is an N x N matrix: pairs are counted per type
 * in closed form; DP stage 1 and the boundaries that cross domains are the
 * traffic on the network. */
#ifndef RY_TRAFFIC_H
#define RY_TRAFFIC_H

#include "net/collective.h"
#include "net/updown.h"
#include "fabric/fabric.h"

typedef enum {
    RY_TR_MP = 0,           /* tensor parallel, inside a domain */
    RY_TR_DP_CROSS = 1,     /* DP stage 1, across domains, same rank */
    RY_TR_DP_IN = 2,        /* DP stage 2, inside a domain */
    RY_TR_PP = 3,           /* pipeline point-to-point, adjacent stages */
    RY_TR_NONE = 4,
    RY_TR_TYPES = 5
} ry_traffic_type;

const char *ry_traffic_type_name(ry_traffic_type t);

typedef struct ry_traffic {
    long long N, K, NM, NDs, NDf;
    long long PP, D;                    /* pipeline stages, replicas of a stage */
    int rails, planes;
    double pair_bytes[RY_TR_TYPES];     /* per ordered pair and iteration */
    long long pairs[RY_TR_TYPES];       /* unordered pairs of each type */
    double bytes[RY_TR_TYPES];          /* sent in one iteration, all pairs */
    long long total_pairs;              /* N (N - 1) / 2 */
    double total_bytes;
} ry_traffic;

/* The layout a model chose and the sizes of what its collectives move, as
 * plain numbers: the caller copies them from the model (model/plan.h), so
 * traffic does not depend on how the model found them. */
typedef struct ry_traffic_in {
    long long N, K, NM;     /* GPUs, HB domain, tensor-parallel size (NM | K | N) */
    double layers;          /* l_s: transformer blocks of a stage */
    double d_model;
    double b;               /* tokens per iteration, D b_r (b_r: a replica's) */
    double S_T, M_cc;       /* bytes: one block's gradients, per collective round */
    long long PP;           /* pipeline stages (N_M D divides K or K divides N_M D); 0: 1 */
    double p2p;             /* bytes a stage boundary's GPU sends its neighbour one way */
} ry_traffic_in;

/* The traffic of that parallelism on the spec's cluster. */
void ry_traffic_plan(const ry_spec *s, const ry_traffic_in *in, ry_traffic *t);

/* Type of the traffic between GPUs i != j. */
ry_traffic_type ry_traffic_pair(const ry_traffic *t, long long i, long long j);

/* DP stage 1 and the stage boundaries that cross domains routed over the
 * fabric with up-down routes (updown.h), each GPU's bytes split evenly over
 * its planes. On rail-only a boundary between two rails goes first over
 * NVLink to the GPU of the sender's domain on the receiver's rail, as the
 * expert all-to-all's does (moe_traffic.h). */
typedef struct ry_traffic_map {
    double *up, *down;          /* per link: bytes toward the upper and the lower end */
    long long flows;            /* (source, destination, plane) routed */
    long long hops;             /* switch-to-switch and GPU links crossed, summed over flows */
    double network_bytes;       /* bytes GPUs put on the network */
    double pp_bytes;            /* of them, the pipeline's point-to-point */
    long long pp_flows;         /* of the flows, the pipeline's */
    struct {
        long long links, idle;
        double bytes, max;      /* both directions summed; the busiest link */
    } tier[RY_MAX_TIERS + 1];   /* by the upper end's tier: [1] = GPU to leaf */
    long long links, idle;
    /* ry_traffic_map_engine (all 0 for ry_traffic_map_fabric's map): */
    int engine;                 /* 1: the loads are the flow engine's */
    int phases;                 /* dimensions placed on the engine */
    int analytic_phases;        /* of the rest, routed up-down instead (too many flows) */
    char analytic[48];          /* those dimensions: "data", "pipeline", "experts", by ", " */
} ry_traffic_map;

/* The busiest links a load lists. */
#define RY_TRAFFIC_TOP 5

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
    /* The busiest links, busiest first (ties: the lower link id), each by
     * its busier direction: the fabric's bottlenecks. */
    struct ry_traffic_hot {
        long long link;
        int up;                     /* 1: its busier direction is toward the upper end */
        double bytes, util;
    } top[RY_TRAFFIC_TOP];
    int ntop;
} ry_traffic_load;

/* The load of map over an iteration of iter_s > 0 seconds. */
void ry_traffic_load_compute(const ry_fabric *f, const ry_traffic_map *map, double iter_s,
                             ry_traffic_load *out);

/* -1 with err set when a flow has no route (a fabric the builder would not make). */
int ry_traffic_map_fabric(const ry_fabric *f, const ry_traffic *t, ry_traffic_map *m,
                          ry_err *err);
void ry_traffic_map_free(ry_traffic_map *m);

/* The same traffic placed on the flow engine (net/collective.h) over the
 * fabric as built, job's ranks 0 .. N - 1 being the layout's GPUs, routed
 * as the engine's options say (static tables, ECMP's hash, adaptive
 * spreading): each dimension's groups at once, as the model lays them out,
 * with the bytes per GPU above:
 *   DP stage 1: groups of N_Df ranks K apart inside a stage, each member
 *     sending every other the pair's bytes (the all-to-all form);
 *   PP: groups of P ranks N_M D apart, each member sending the pair's
 *     bytes to the next stage's and back to the previous one's.
 * Each GPU's bytes are split over the planes; on rail-only a hop across
 * rails first crosses NVLink to the GPU of the sender's domain on the
 * receiver's rail, as above. A flow crossing several links at a hop
 * (adaptive) puts its share on each. A dimension of more flows than one
 * phase may hold (RY_COLL_MAX_FLOWS) keeps the up-down routes above
 * (counted in analytic_phases, named in analytic). The sums run in an order
 * fixed by the job and the routes: the same spec gives the same bytes. -1
 * with err set when a flow has no route. */
int ry_traffic_map_engine(ry_net *n, const ry_job *job, const ry_traffic *t, ry_traffic_map *m,
                          ry_err *err);

/* One dimension on the engine (net/collective.h's group phase, placed not
 * run) added to m's links, its flows that reach the network counted in
 * m->flows and *flows, its crossings in m->hops and the phase in m->phases.
 * Across rails only rail-only takes the NVLink hop first (PXN); elsewhere
 * a flow leaves from the sender's own NIC, as the up-down routes have it.
 * 1 when the phase would pass RY_COLL_MAX_FLOWS: nothing added,
 * m->analytic_phases counted and what added to m->analytic; -1 with err set
 * when a flow has no route. */
int ry_traffic_engine_groups(ry_net *n, const ry_job *job, ry_coll_op op, long long ranks,
                             long long stride, long long count, double bytes, int back,
                             const char *what, ry_traffic_map *m, long long *flows, ry_err *err);

/* Adds one flow of B bytes from GPU port sp to GPU port dp along subnet u's
 * up-down route to m's links (the GPU's uplink included); -1 without one. */
int ry_traffic_walk(const ry_fabric *f, ry_updown *u, uint32_t sp, uint32_t dp,
                    double B, ry_traffic_map *m);

/* Flows of B bytes each, routed between pairs of GPUs into m. */
typedef struct ry_pair_walk {
    const ry_fabric *f;
    ry_traffic_map *m;
    ry_err *err;
    double B;
    const void *in;             /* the caller's description of its traffic (borrowed) */
} ry_pair_walk;

/* The flow from the NIC of GPU src, on the plane of GPU port dp, to dp:
 * walked on u into w->m and counted (flows, and in hops its first hop, GPU
 * to leaf). No route: -1 with w->err naming both GPUs, the plane and what
 * the flow is for ("expert all-to-all"). */
int ry_traffic_route_pair(ry_pair_walk *w, ry_updown *u, long long src, uint32_t dp,
                          const char *what);

/* Calls each(w, u, dp) for every GPU end port dp of every subnet of w->f (u
 * the subnet's up-down walker), subnet by subnet in end order, until one
 * returns non-zero; returns that, or 0. */
int ry_traffic_each_end(ry_pair_walk *w, int (*each)(ry_pair_walk *w, ry_updown *u,
                                                     uint32_t dp));

/* The fabric without the links that carry nothing and the switches left
 * with no link: a new graph (out->spec = f->spec) for the bill of materials. */
void ry_fabric_trim(const ry_fabric *f, const ry_traffic_map *m, ry_fabric *out);

#endif
