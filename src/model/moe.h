/* The expert all-to-all of a mixture-of-experts model, on rail-optimized
 * and rail-only fabrics (doc/llm-model.md, "Mixture of experts").
 *
 * Placement. Expert parallelism (EP) of size E groups E data-parallel
 * replicas: the GPUs with the same tensor-parallel position p (rank mod
 * N_M) and data-parallel ranks in one block of E, the data-parallel rank of
 * GPU g being (g / K) N_Ds + (g mod K) / N_M, as in analysis/traffic.h. So
 * a group holds E_in = min(E, N_Ds) GPUs in each of D = E / E_in HB domains,
 * at ranks p, p + N_M, ... (E <= N_Ds: E divides N_Ds; E > N_Ds: N_Ds
 * divides E and D divides N_Df). Each GPU holds experts / E experts (E
 * divides the experts).
 *
 * Traffic. Each GPU routes t = b / N tokens (sequence parallelism splits a
 * replica's tokens over its tensor-parallel group) to top_k routed experts,
 * uniformly at random: per MoE block and pass (dispatch and combine,
 * forward; their gradients, backward; the forward again with full
 * recomputation) it sends V = t top_k d_model bytes-per-element bytes,
 * V / E to every member of its group, itself included. Shared experts run
 * where the token is and move nothing.
 *
 * Rail-optimized: bytes to the group in the domain go over NVLink (B_F),
 * bytes to other domains over the NIC (B_S) and the spine. Rail-only: bytes
 * to a GPU of another domain on the sender's rail go over the rail; bytes to
 * one on another rail go first over NVLink to the GPU of the sender's domain
 * with the destination's rank (a member of the group: same N_M position),
 * then over that GPU's rail (the forwarding of the paper's section 3, PXN
 * in NCCL). Every GPU's NIC then carries what it did on rail-optimized;
 * NVLink carries the forwarded bytes besides. As in eq. 1, time is bytes
 * over bandwidth and the parts add (no overlap, no latency): per pass
 *   rail-optimized  V_in / B_F + V_x / B_S
 *   rail-only       (V_in + V_fwd) / B_F + V_x / B_S
 * V_fwd taken at the GPU that forwards most when rails are fewer than K. */
#ifndef RY_MOE_H
#define RY_MOE_H

#include "spec/spec.h"

typedef struct ry_moe_in {
    long long N, K, NM;     /* GPUs, HB domain, tensor-parallel size (NM | K | N) */
    int rails;              /* rail of rank r: r mod rails */
    double tokens;          /* b: tokens per iteration */
    double d_model;
    int bytes;              /* per element */
    int experts, top_k;     /* routed */
    int blocks;             /* MoE blocks */
    int passes;             /* all-to-alls per block and iteration: 4, 6 with recomputation */
    long long ep;           /* expert-parallel size; 0 = auto (ry_moe_ep_auto) */
    double B_F, B_S;        /* bytes/s per GPU */
} ry_moe_in;

typedef struct ry_moe_a2a {
    long long ep, ep_in, domains;   /* E, E_in members per domain, D domains */
    double tokens_per_gpu;          /* t */
    /* Per GPU, one pass of one block (bytes sent): */
    double pass_bytes;              /* V, to every member, itself included */
    double self, nvlink, net;       /* kept, to the domain (NVLink), to other domains */
    double net_same_rail;           /* of net: to GPUs on the sender's rail */
    double fwd;                     /* rail-only: forwarded over NVLink first (busiest GPU) */
    /* Per GPU and iteration (x passes x blocks): */
    double it_nvlink, it_net, it_fwd;
    double opt_nvlink_s, opt_net_s, opt_s;      /* rail-optimized (and fat-tree), seconds */
    double ro_nvlink_s, ro_net_s, ro_s;         /* rail-only */
    double slowdown;                /* ro_s / opt_s - 1 (0 without traffic) */
    double nvlink_extra;            /* rail-only NVLink bytes / rail-optimized's - 1 (0: none) */
} ry_moe_a2a;

/* Whether E is a valid expert-parallel size for in (the placement above). */
int ry_moe_ep_valid(const ry_moe_in *in, long long E);
/* The largest valid E: as many experts spread as the placement allows. */
long long ry_moe_ep_auto(const ry_moe_in *in);

/* The all-to-all of one iteration on both designs into *a; returns the
 * seconds per iteration on design d (rail-only: a->ro_s, any other: a->opt_s),
 * or -1 when in->ep is not a valid size. */
double ry_moe_a2a_time(const ry_moe_in *in, ry_design d, ry_moe_a2a *a);

/* `railyard model`'s MoE term: for a model with experts, fills m->moe_in and
 * m->moe from the spec and m's optimum (m->has_moe = 1); nothing for a dense
 * model. -1 after an error at workload.parallelism.expert. */
struct ry_model;
int ry_moe_for_model(const ry_spec *s, struct ry_model *m);

#endif
