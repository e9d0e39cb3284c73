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
 *     source's HB domain on the destination's rail (PXN): in its node, or
 *     another node of a multi-node domain (a DGX GH200's 256 superchips).
 *   hierarchical all-to-all (hierarchical on; a 2D all-to-all, and the
 *     forwarding the rail-only paper costs): two phases, one after the
 *     other. First, inside each HB domain, every GPU sends over NVLink to
 *     each GPU of its domain the S / n of every destination at that GPU's
 *     place in its own domain (the domain's GPU of the destination's rail
 *     on a rail design). Then each GPU sends, over the network and in one
 *     connection a destination, what its domain gathered for each GPU at its
 *     place in the other domains. The time is the two phases' sum: nothing
 *     of the network step starts before the NVLink step ends.
 *   sendrecv: rank i sends S to rank (i + shift) mod n, over the planes,
 *     across rails by PXN as all-to-all.
 *   tree (all-reduce, --algo tree): NCCL's double binary tree across
 *     nodes, a chain of GPUs inside each node. Channel c runs tree c mod 2
 *     (the second tree mirrors the first, or shifts it by one for an odd
 *     count of nodes, so a node inside one tree is a leaf of the other),
 *     its chain from local GPU (c / 2) mod g, the chain's first GPU the
 *     node's member of the tree (on a rail design every member of channel
 *     c is on one rail), plane (c / 2g) mod planes. Fluid model of the
 *     pipeline: every edge of chain and tree carries S / C up (the
 *     reduction) and S / C down (the broadcast) at once, one phase; a node
 *     inside a tree (two children) sends 3 S / C on it, a leaf S / C, so a
 *     NIC serving one channel of each tree sends 4 S / C: on a non-blocking
 *     fabric busbw is the ring's x (n-1)/n. The tree's gain, latency in
 *     log n steps at small sizes, is the alpha term this model leaves out.
 *   NVLS (all-reduce, nvls on): inside an HB domain each GPU sends S to
 *     the NVLink switch and receives S back (the switch reduces and
 *     multicasts; the S / m of its own reduced shard is left out); a job
 *     within one HB domain is that alone. A job of D >= 2
 *     domains runs in two levels (build_hier): inside each domain NVLS (or,
 *     without it, a reduce-scatter and an all-gather straight to every
 *     peer, 2S/m each, m the domain's GPUs), across domains each domain's
 *     GPU of local index k all-reduces the shard S / m with the others of
 *     index k: a ring or the double binary tree (--algo) of the D.
 *   SHARP (all-reduce, sharp on): across domains each such GPU sends its
 *     shard up its NIC to the switches' aggregation tree and receives the
 *     reduced shard down: a node's NICs move S each way, not 2(n-1)/n S.
 *     Only the NIC links are flows: the links of the aggregation tree carry
 *     one reduced stream each (no more than a NIC's) and are left out, as
 *     are SHARP's limits (trees per subnet, streams per switch). A job
 *     within one HB domain has nothing to reduce across: ring, tree or NVLS.
 *   auto (--algo auto): the faster of ring and tree, the ring on a tie.
 * Several jobs at once (ry_coll_run_jobs): every job's flows in one phase,
 * each job's time when its last flow finishes.
 * On rail-only, when the source's node has no GPU on the destination's
 * rail, a GPU of its HB domain does (a domain wider than a node: the GPU
 * at the destination's place in it, else its first on that rail).
 * Hops inside an HB domain go over NVLink. With pxn off a hop across rails
 * goes from the source's own NIC (refused on rail-only: no route).
 * Not modelled: latency (the alpha term), protocols (LL, LL128, Simple),
 * tree, NVLS and SHARP for collectives other than all-reduce, jobs that
 * start at different times. */
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

/* All-reduce's algorithm across nodes (network.algorithm, --algo). */
typedef enum { RY_ALGO_RING = 0, RY_ALGO_TREE, RY_ALGO_AUTO } ry_coll_algo;
/* "ring", "tree", "auto"; ry_coll_algo_parse gives -1 for another word. */
const char *ry_coll_algo_name(ry_coll_algo a);
int ry_coll_algo_parse(const char *s);

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
/* njobs jobs of nranks ranks each on disjoint nodes: contiguous, job j the
 * j-th run of nodes; scattered, the draw continued for every job's nodes
 * (job j the j-th of them, each in ascending order; njobs = 1 is
 * ry_job_place's). -1 with err set (key "jobs" when the nodes run out),
 * nothing to free. */
int ry_jobs_place(const ry_fabric *f, size_t nranks, size_t njobs, ry_placement how,
                  uint64_t seed, ry_job *jobs, ry_err *err);
void ry_job_free(ry_job *job);

typedef struct ry_coll_opts {
    ry_coll_op op;
    double bytes;           /* S, > 0 */
    int channels;           /* rings; 0: NICs per node x 2 (NCCL's usual) */
    long long shift;        /* sendrecv: the peer's rank offset, not a multiple of n */
    int pxn;                /* cross rails through a GPU of the destination's rail */
    int qps;                /* the engine's queue pairs per connection (for the bound) */
    int algo;               /* ry_coll_algo: all-reduce across nodes */
    int sharp;              /* all-reduce reduces in the switches across HB domains */
    int nvls;               /* all-reduce reduces in the NVLink switches inside them */
    int hierarchical;       /* all-to-all in two steps (ry_coll_run_jobs) */
} ry_coll_opts;

/* Defaults: all-reduce, 1 GiB, channels 0, shift 1, pxn on, qps 1, ring,
 * no SHARP, no NVLS. */
void ry_coll_opts_default(ry_coll_opts *o);

typedef struct ry_coll_result {
    double time_s;
    double algbw, busbw;    /* bytes/s */
    int channels;           /* rings or tree channels used (0 for the others) */
    char algorithm[16];     /* what ran: "ring", "tree", "nvls", "sharp", "nvls+ring",
                             * "nvls+tree", "nvls+sharp"; "direct" or "hierarchical"
                             * for all-to-all, "direct" for sendrecv */
    size_t flows;           /* flows of the phase */
    ry_net_result net;      /* the phase: bottleneck and its utilisation */
} ry_coll_result;

/* Builds the phase of o on job over n, runs it and fills out. -1 with err
 * set (key "" or the option's name: "ranks", "shift", "channels") when the
 * job has fewer than 2 ranks, the phase would exceed RY_COLL_MAX_FLOWS, or
 * the fabric has no route for a hop. */
int ry_coll_run(ry_net *n, const ry_job *job, const ry_coll_opts *o, ry_coll_result *out,
                ry_err *err);
/* The same for njobs jobs at once, in one phase: out[j] is job j's (its
 * time when its last flow finishes; net the phase's). A hierarchical
 * all-to-all runs every job's first phase at once, then every job's
 * second: a job's time is the sum of its own two, net the longer phase's.
 * Further keys of err:
 * "algorithm" (tree for another op than all-reduce), "all_to_all"
 * (hierarchical for another op than all-to-all), "sharp" (an Ethernet
 * fabric, or switches without sharp in the catalog), "nvls" (an HB domain
 * of one GPU). */
int ry_coll_run_jobs(ry_net *n, const ry_job *jobs, size_t njobs, const ry_coll_opts *o,
                     ry_coll_result *out, ry_err *err);

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

/* ry_coll_groups' phase placed on the fabric but not run: what each
 * resource carries does not depend on the rates. visit(ctx, res, bytes) is
 * called for each resource a flow crosses, flow by flow (a resource many
 * times: the caller sums), in an order fixed by the job and the routes.
 * back: with RY_NCCL_SENDRECV each member but the first also sends bytes to
 * the one before (a pipeline's gradients going back). The flows are placed
 * in batches, so memory stays that of a batch whatever the phase's size.
 * out gets the flows placed, those of them that cross a fabric link (not
 * NVLink alone) and the link crossings (a flow's hops over fabric links,
 * its spread shares of a hop summed). Errors as
 * ry_coll_groups' (err->key "flows": more than RY_COLL_MAX_FLOWS flows at
 * most, a hop's queue pairs on every plane, counted both ways with back). */
typedef struct ry_coll_load {
    size_t flows, net_flows;
    long long crossings;
} ry_coll_load;

int ry_coll_groups_load(ry_net *n, const ry_job *job, ry_coll_op op, long long ranks,
                        long long stride, long long count, double bytes, int pxn, int back,
                        ry_res_visit visit, void *ctx, ry_coll_load *out, ry_err *err);

/* The same phase at another size: the fluid model has no latency term, so
 * every rate stays and every time scales by bytes / r->bytes-at (at: the
 * size r was run at). out gets r with the time and bandwidths of bytes. */
void ry_coll_scale(const ry_coll_result *r, double at, double bytes, ry_coll_result *out);

#endif
