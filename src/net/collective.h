/* Collectives as NCCL runs them, placed on the fabric as built: a job's
 * ranks (GPUs, placed by node), an operation and a size S in bytes become
 * the flows of one phase (net/flow.h), run by max-min filling; the result
 * is the time and the two bandwidths nccl-tests prints.
 *
 * algbw and busbw are nccl-tests' (its doc/PERFORMANCE.md): algbw = S / t;
 * busbw = algbw x 2(n-1)/n for all-reduce, (n-1)/n for all-gather,
 * reduce-scatter and all-to-all, 1 for sendrecv: the rate each rank's
 * busiest link would need, comparable with a link's speed whatever n is.
 *
 * The flows (ranks ordered node by node, each node's GPUs in order):
 *   ring (all-reduce, all-gather, reduce-scatter), C channels. Channel c
 *     visits each node's GPUs over NVLink starting at local GPU c mod g (g
 *     the node's GPUs in the job) and leaves the node from the GPU before
 *     it, to local GPU c mod g of the next node: on a rail design through
 *     the GPU of the destination's rail in its own node (PXN), so the hop
 *     between nodes goes rail r to rail r, and channel c's hops use plane
 *     (c / g) mod planes. Pipelined steady state: every hop of every
 *     channel carries f x S / C at once (f = 2(n-1)/n for all-reduce,
 *     (n-1)/n otherwise); one phase, its time is the collective's.
 *   all-to-all: every rank sends S / n to every other at once, split evenly
 *     over the planes; across rails on a rail design through the GPU of the
 *     source's node on the destination's rail (PXN).
 *   sendrecv: rank i sends S to rank (i + shift) mod n, over the planes,
 *     across rails by PXN as all-to-all.
 * Hops inside an HB domain go over NVLink. With pxn off a hop across rails
 * goes from the source's own NIC (refused on rail-only: no route).
 * Not modelled: latency (the alpha term), protocols (LL, LL128, Simple),
 * tree, NVLS and SHARP (in-network reduction), several jobs at once. */
#ifndef RY_NET_COLLECTIVE_H
#define RY_NET_COLLECTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "net/flow.h"
#include "util/diag.h"

typedef enum {
    RY_NCCL_ALL_REDUCE = 0,
    RY_NCCL_ALL_GATHER,
    RY_NCCL_REDUCE_SCATTER,
    RY_NCCL_ALL_TO_ALL,
    RY_NCCL_SENDRECV
} ry_coll_op;

/* "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "sendrecv";
 * ry_coll_op_parse gives -1 for another word. */
const char *ry_coll_op_name(ry_coll_op op);
int ry_coll_op_parse(const char *s);
/* nccl-tests' busbw / algbw for n ranks. */
double ry_coll_bus_factor(ry_coll_op op, size_t n);

/* The flows one phase may hold (connections x planes x queue pairs):
 * 1,048,576 take about 150 MB with their routes and fill in seconds; an
 * all-to-all of 1,024 ranks is that many. */
#define RY_COLL_MAX_FLOWS (1u << 20)

/* The memory one phase of a model's groups (ry_coll_groups) may take
 * (ry_net_bytes_estimate): 256 MiB hold about 1,500,000 flows of 5 entries
 * on shared resources (an all-to-all's), 1,900,000 on their own (a
 * ring's); every expert-parallel group of 64 at once over 16,384 GPUs is
 * about 1,000,000. */
#define RY_COLL_PHASE_BYTES (256.0 * 1024 * 1024)

/* Where a job's nodes are. */
typedef enum { RY_PLACE_CONTIGUOUS = 0, RY_PLACE_SCATTERED = 1 } ry_placement;

/* A job: its ranks' GPUs, node by node (a node's GPUs in order; the last
 * node may be partly used). _place fills it, _free frees it (NULL-safe). */
typedef struct ry_job {
    size_t nranks;
    uint32_t *gpu;          /* rank -> GPU index */
    long long nodes;        /* nodes it takes */
    long long first_node;   /* the lowest of them (a host's index) */
} ry_job;

/* Places nranks ranks on whole nodes of GPUs per node each: contiguous,
 * the first nodes; scattered, nodes drawn from all without repetition by
 * a PRNG of seed (splitmix64: the same on every platform), then taken in
 * ascending order as a scheduler's node list is. -1 with err set when the
 * cluster has fewer GPUs. */
int ry_job_place(const ry_fabric *f, size_t nranks, ry_placement how, uint64_t seed,
                 ry_job *job, ry_err *err);
void ry_job_free(ry_job *job);

typedef struct ry_coll_opts {
    ry_coll_op op;
    double bytes;           /* S, > 0 */
    int channels;           /* rings; 0: NICs per node x 2 (NCCL's usual) */
    long long shift;        /* sendrecv: the peer's rank offset, not a multiple of n */
    int pxn;                /* cross rails through a GPU of the destination's rail */
    int qps;                /* the engine's queue pairs per connection (for the bound) */
} ry_coll_opts;

/* Defaults: all-reduce, 1 GiB, channels 0, shift 1, pxn on, qps 1. */
void ry_coll_opts_default(ry_coll_opts *o);

typedef struct ry_coll_result {
    double time_s;
    double algbw, busbw;    /* bytes/s */
    int channels;           /* rings used (0 for all-to-all and sendrecv) */
    size_t flows;           /* flows of the phase */
    ry_net_result net;      /* the phase: bottleneck and its utilisation */
} ry_coll_result;

/* Builds the phase of o on job over n, runs it and fills out. -1 with err
 * set (key "" or the option's name: "ranks", "shift", "channels") when the
 * job has fewer than 2 ranks, the phase would exceed RY_COLL_MAX_FLOWS, or
 * the fabric has no route for a hop. */
int ry_coll_run(ry_net *n, const ry_job *job, const ry_coll_opts *o, ry_coll_result *out,
                ry_err *err);

/* A parallel dimension of a training job as the model lays it out: the
 * job's ranks 0 .. ranks - 1 in groups of `count` ranks `stride` apart (a
 * group starts at every rank r with r mod (stride x count) < stride), all
 * groups at once, each GPU's bytes split over the planes:
 *   ring (RY_NCCL_ALL_REDUCE, _ALL_GATHER, _REDUCE_SCATTER): each member
 *     sends bytes to the next, the last to the first (one ring: the
 *     pipelined steady state of the group's collective);
 *   RY_NCCL_ALL_TO_ALL: each member sends bytes / count to every other;
 *   RY_NCCL_SENDRECV: each member but the last sends bytes to the next (a
 *     pipeline's stage boundaries).
 * out->net and out->time_s are the phase's; *share (0, 1] is what the
 * switches leave of the ends' rates: the time the phase would take if only
 * the GPUs' own links (NIC ports, NVLink) limited it, over its time. -1
 * with err set when a hop has no route or the phase's flows would take
 * more than RY_COLL_PHASE_BYTES (err->key "flows"; the count of flows is
 * not bounded otherwise): the phase runs whole or not at all. */
int ry_coll_groups(ry_net *n, const ry_job *job, ry_coll_op op, long long ranks,
                   long long stride, long long count, double bytes, int pxn,
                   ry_coll_result *out, double *share, ry_err *err);

/* The same phase at another size: the fluid model has no latency term, so
 * every rate stays and every time scales by bytes / r->bytes-at (at: the
 * size r was run at). out gets r with the time and bandwidths of bytes. */
void ry_coll_scale(const ry_coll_result *r, double at, double bytes, ry_coll_result *out);

#endif
