/* The flow-level network engine: flows over the fabric as built, routed as
 * its switches route them, given max-min fair rates.
 *
 * Resources. Every link carries two directions, each its own resource with
 * the link's rate (ry_link_gbps): link l upward (from its lower to its upper
 * end) is resource 2l, downward 2l + 1. Inside an HB domain GPUs talk over
 * NVLink: GPU g's NVLink out is resource 2 nlinks + 2g, in 2 nlinks + 2g + 1,
 * each at the options' nvlink rate. Rates are in bytes/s.
 *
 * A flow is a number of bytes and the resources it crosses, each with a
 * weight: the share of the flow's rate that goes over it. A flow on one path
 * has weight 1 on each of its resources; a flow the switches spread (per-
 * packet spraying, adaptive routing) splits at each hop over the candidate
 * next hops, and each link of the split carries its share.
 *
 * Routing (ry_net_connect):
 *   static    InfiniBand: the linear forwarding tables railyard writes
 *             (net/updown.h, the same next hops as analysis/route.c);
 *             Ethernet: per-flow ECMP, as `ecmp`.
 *   ecmp      Ethernet: at each switch the next hop is picked among BGP's
 *             equal-cost next hops (net/eth_routes.h) by a hash of the
 *             flow's 5-tuple (source and destination address, UDP, the
 *             RoCEv2 destination port 4791, a source port per connection)
 *             and, with hash_qp, the destination queue pair. Every switch
 *             uses the same hash function and seed unless per_switch_seed
 *             (the same hash at every tier is what polarises it).
 *             InfiniBand has no ECMP: refused.
 *   adaptive  every switch spreads each flow evenly over its candidate next
 *             hops (InfiniBand: every minimal up-down port toward the
 *             destination; Ethernet: every ECMP next hop): the fluid limit
 *             of adaptive routing and of per-packet spraying.
 * A connection of qps queue pairs is qps flows of bytes / qps each; they
 * hash apart only when hash_qp is set (otherwise they share the 5-tuple).
 *
 * Rates. ry_net_run gives every flow its max-min fair rate by progressive
 * filling (all rates rise together; a resource that fills freezes the flows
 * through it), then lets time run: when flows finish, the rest are filled
 * again, in rounds, until all are done. The phase's time is when the last
 * finishes. Not modelled: packets, buffers, congestion control, PFC, the
 * time a message spends in a switch (latency is the caller's alpha term). */
#ifndef RY_NET_FLOW_H
#define RY_NET_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "util/diag.h"

typedef enum {
    RY_NET_STATIC = 0,
    RY_NET_ECMP = 1,
    RY_NET_ADAPTIVE = 2
} ry_net_routing;

/* "static", "ecmp", "adaptive"; ry_net_routing_parse gives -1 for another word. */
const char *ry_net_routing_name(ry_net_routing r);
int ry_net_routing_parse(const char *s);

typedef struct ry_net_opts {
    ry_net_routing routing;
    int qps;                    /* queue pairs per connection, >= 1 (NCCL_IB_QPS_PER_CONNECTION) */
    int hash_qp;                /* ECMP hashes the RoCE destination queue pair too */
    int per_switch_seed;        /* each switch hashes with its own seed */
    uint32_t seed;              /* the hash seed */
    double nvlink_bytes_s;      /* a GPU's NVLink rate each way, bytes/s (> 0) */
} ry_net_opts;

/* Defaults: static, 1 queue pair, no hash_qp, one seed, NVLink at 450 GB/s
 * each way (H100's 900 GB/s both ways). */
void ry_net_opts_default(ry_net_opts *o);

/* The flows of a phase. Flow i carries bytes[i] over the resources
 * res[off[i] .. off[i + 1]) with weights w[...]. */
typedef struct ry_flows {
    size_t n, cap;              /* flows */
    double *bytes;
    size_t *off;                /* n + 1 entries (off[0] = 0) */
    uint32_t *res;              /* entries: resource ids */
    float *w;                   /* entries: weights in (0, 1] */
    size_t nent, capent;
    double *rate;               /* ry_net_run: each flow's rate at the first filling */
    double *done;               /* ry_net_run: each flow's completion time, s */
} ry_flows;

void ry_flows_init(ry_flows *fl);
void ry_flows_free(ry_flows *fl);
void ry_flows_clear(ry_flows *fl);      /* no flows; keeps the memory */
/* A flow by hand: n resources with weights (NULL: all 1). The same resource
 * may not appear twice in one flow. Returns its index. */
size_t ry_flows_add(ry_flows *fl, double bytes, const uint32_t *res, const float *w, size_t n);

typedef struct ry_net ry_net;   /* a fabric's resources and routes */

/* The engine over a built fabric (borrowed: it must outlive the engine).
 * NULL with err set when the options do not fit the fabric (ecmp on
 * InfiniBand, qps < 1, no NVLink rate). */
ry_net *ry_net_new(const ry_fabric *f, const ry_net_opts *o, ry_err *err);
void ry_net_free(ry_net *n);

const ry_fabric *ry_net_fabric(const ry_net *n);
/* 1 when flows take paths by a hash (ECMP: Ethernet, not adaptive): their
 * paths are one draw among many; ry_net_set_seed draws again (the flows
 * added after it). */
int ry_net_hashes(const ry_net *n);
void ry_net_set_seed(ry_net *n, uint32_t seed);
size_t ry_net_resources(const ry_net *n);
/* Flows a connection over the network makes: its queue pairs (one over NVLink). */
int ry_net_qps(const ry_net *n);
/* The engine's own flows, emptied: a phase built in them keeps their
 * memory for the next (one user at a time; ry_net_free frees them). */
ry_flows *ry_net_scratch(ry_net *n);
/* Failures: node_down[node id] (failed switches) and link_down[link id]
 * (failed cables and NIC links), nonzero = failed, NULL = none; copied.
 * A failed switch's links count as down. The flows added after it are
 * routed over what is left: InfiniBand up-down over the live links (a
 * switch's candidates are its live ports toward the destination, the same
 * digit picking among them as the failure-aware tables of analysis/route.c),
 * Ethernet BGP's equal-cost next hops over the live links. A GPU whose NIC
 * port on the plane is down (its cable, its leaf, a failed rail or plane)
 * has its connections relayed over NVLink by up to 8 GPUs of its HB domain
 * whose ports are up, the bytes spread evenly (at the far end too when a
 * relay's network does not reach it: rail-only); with none, ry_net_connect
 * fails, naming it. */
void ry_net_set_down(ry_net *n, const uint8_t *node_down, const uint8_t *link_down);
/* GPU g's HB domain: its GPUs are first .. *end - 1 (a domain's GPUs are
 * consecutive, one group); returns first. */
uint32_t ry_net_domain(const ry_fabric *f, uint32_t g, uint32_t *end);

/* 1 when something is down (ry_net_set_down). */
int ry_net_down_any(const ry_net *n);

/* Forwarding tables read from the fabric (InfiniBand, `--lfts`): with
 * static routing a flow leaves each switch by the port the switch's table
 * names for the destination's LID, in place of the up-down tables railyard
 * writes (adaptive routing still spreads over the up-down candidates). */
typedef struct ry_net_tables {
    int max_lid;
    uint16_t *gpu_lid;      /* per GPU port (gpu x planes + plane): its LID, 0: none known */
    uint8_t *port;          /* per switch (node id - first_switch), per LID 0 .. max_lid:
                             * the port number it forwards by, 255: no entry */
    int32_t *port_id;       /* per switch, per port number 0 .. 255: the fabric's port, -1 */
} ry_net_tables;
/* t borrowed until ry_net_free or the next call; NULL: railyard's own. */
void ry_net_set_tables(ry_net *n, const ry_net_tables *t);
void ry_net_tables_free(ry_net_tables *t);
double ry_net_capacity(const ry_net *n, uint32_t res);     /* bytes/s */
/* A resource as a person reads it: "leaf3 p17 -> spine0 p2 (up)" or
 * "gpu12 NVLink out". */
void ry_net_resource_name(const ry_net *n, uint32_t res, char *buf, size_t cap);

/* Adds the flows of one connection from GPU src to GPU dst (GPU indexes,
 * 0 .. gpus - 1) carrying bytes: over NVLink when both are in one HB domain
 * and nvlink is nonzero, else from src's NIC port on plane `plane` to dst's
 * port on the same plane, routed as the options say. conn tells apart
 * connections between the same two GPUs (NCCL's channels): it is in the
 * ECMP hash. -1 with err set when the fabric has no route. */
int ry_net_connect(ry_net *n, ry_flows *fl, uint32_t src, uint32_t dst, int plane,
                   int nvlink, uint32_t conn, double bytes, ry_err *err);

/* The same through GPU via (PXN, as NCCL does across rails): src to via
 * over NVLink (they must share an HB domain), then via's NIC port on plane
 * to dst; one flow through both parts (its rate is that of the slower). */
int ry_net_connect_via(ry_net *n, ry_flows *fl, uint32_t src, uint32_t via, uint32_t dst,
                       int plane, uint32_t conn, double bytes, ry_err *err);

/* The outcome of a phase. */
typedef struct ry_net_result {
    double time_s;              /* when the last flow finishes (0: no flows) */
    double min_rate, max_rate;  /* the flows' rates at the first filling, bytes/s */
    uint32_t bottleneck;        /* the resource that filled first (UINT32_MAX: none) */
    double bottleneck_util;     /* its bytes over (capacity x time_s) */
    int rounds;                 /* fillings run */
} ry_net_result;

/* Runs the phase: rates, completion times (fl->rate, fl->done) and, when
 * load is not NULL, the bytes each resource carries (ry_net_resources
 * entries, added to what is there). 0, or -1 with err set (out of memory,
 * a flow through a resource of no capacity). */
int ry_net_run(const ry_net *n, ry_flows *fl, ry_net_result *out, double *load, ry_err *err);

/* The same with, in place of load, visit(ctx, res, bytes) called once for
 * each resource the flows cross, with the bytes it carries (in no
 * particular order): what a caller wants of the loads without an array of
 * every resource of the fabric. */
typedef void (*ry_res_visit)(void *ctx, uint32_t res, double bytes);
int ry_net_run_each(const ry_net *n, ry_flows *fl, ry_net_result *out, ry_res_visit visit,
                    void *ctx, ry_err *err);

/* What a connection from src to dst on plane (through via over NVLink
 * when via is not src: PXN) puts on the GPUs' own links as if nothing were
 * down: visit(ctx, res, bytes) for the NVLink out of src and into via (or
 * dst, in one HB domain), via's NIC link up and dst's NIC link down. The
 * ends' load of the phase as planned, for a share that counts what
 * relaying around a dead port costs. */
void ry_net_end_loads(const ry_net *n, uint32_t src, uint32_t via, uint32_t dst, int plane,
                      double bytes, ry_res_visit visit, void *ctx);

/* The memory a phase takes, in bytes: its ry_flows (grown by
 * ry_flows_add: room for half as many again) and ry_net_run's state, for
 * `flows` flows crossing `entries` resources in all (a flow's entries
 * summed), `shared` resources two flows or more cross and `shared_entries`
 * entries on them, out of the engine's nres (ry_net_resources). Per flow
 * 78 bytes, per entry 12 and 8 more on a shared resource, per shared
 * resource 64, per resource 5/16 (bitmaps). From above: a phase of 491,520
 * flows and 3,014,656 entries (none shared) over 5,242,880 resources maps
 * 63 MB, estimated 76 MB. */
double ry_net_bytes_estimate(size_t nres, double flows, double entries, double shared,
                             double shared_entries);

/* The resources two flows or more of fl cross, out of nres; the entries on
 * them into *entries (NULL: not asked). */
size_t ry_flows_shared(const ry_flows *fl, size_t nres, size_t *entries);

/* The same on bare resources, for a caller with its own capacities. */
int ry_flows_run(const double *capacity, size_t nres, ry_flows *fl, ry_net_result *out,
                 double *load, ry_err *err);

#endif
