/* Failures of a fabric and what they leave: connectivity, capacity and the
 * per-GPU network bandwidth the iteration-time model reruns with.
 *
 * A failure set is two byte arrays over the graph: node_down[node id]
 * (failed switches) and link_down[link id] (failed cables and NIC links).
 * A failed switch's links count as down (ry_failure_apply marks them), so a
 * reader of link_down alone sees every dead link; a failure-aware router
 * takes exactly (node_down, link_down). A failed rail or plane is its
 * switches: the switches that serve that rail alone (rail-optimized: its
 * leaves; rail-only: its whole tree), every switch of the plane.
 *
 * Elements are named as railyard names them: a switch (leaf3, p1-spine0),
 * a cable by its label (NAME-000123, cabling.csv) or as SWITCH/PORT
 * (leaf3/17, InfiniBand port number), a host NIC (node012/mlx5_3), railN,
 * planeN. Random failures of a kind (leaf:2,spine:1) are drawn with a
 * seeded generator of our own, so a seed gives the same set on every
 * machine.
 *
 * Cost: ry_failure_analyze is linear in nodes + links (one union-find pass,
 * one pass per link and GPU) plus the pair counts: GPU pairs by
 * inclusion-exclusion over the sets of components the GPUs' ports reach
 * (2^P - 1 passes with a hash of component tuples; with fabric.homing
 * dual-tor 3^(P/2) - 1, a GPU up to 2^(P/2) entries a pass when its ToR
 * pairs are split apart), HB-domain pairs by grouping domains with equal sets of
 * components and comparing the groups (G^2 for G distinct sets, G = 1 on a
 * healthy fabric and small after a few failures). Nothing is allocated per
 * call: the workspace and the report are made once per fabric and reused,
 * which is what a sweep of many scenarios wants.
 *
 * Ownership: _new returns heap objects with NULL-safe _free. */
#ifndef RY_FAILURE_H
#define RY_FAILURE_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/names.h"
#include "util/diag.h"

typedef struct ry_failure {
    uint8_t *node_down;     /* [nnodes]: 1 = failed switch */
    uint8_t *link_down;     /* [nlinks]: 1 = link down (its own failure or an end's) */
    size_t nnodes, nlinks;
} ry_failure;

ry_failure *ry_failure_new(const ry_fabric *f);
void ry_failure_clear(ry_failure *fs);
void ry_failure_free(ry_failure *fs);

typedef enum ry_fail_kind {
    RY_FAIL_SWITCH,         /* id: node id */
    RY_FAIL_LINK,           /* id: link id (a cable between switches, or a NIC's cable) */
    RY_FAIL_NIC,            /* id: GPU port id (gpu * planes + plane) */
    RY_FAIL_RAIL,           /* id: rail */
    RY_FAIL_PLANE           /* id: plane */
} ry_fail_kind;

typedef struct ry_fail_elem {
    ry_fail_kind kind;
    int64_t id;
    char name[96];          /* canonical name: leaf3, leaf3/17, node001/mlx5_0, rail2 */
} ry_fail_elem;

/* One element by name. ix: the fabric's name index (ry_name_index_new).
 * -1 with err set (its message names what was expected) when the name
 * names nothing of the fabric. */
int ry_fail_elem_parse(const ry_fabric *f, const ry_name_index *ix, const char *name,
                       ry_fail_elem *e, ry_err *err);

/* The canonical name of an element into e->name. */
void ry_fail_elem_name(const ry_fabric *f, ry_fail_elem *e);

/* Random draws: "leaf:2,spine:1" — KIND:COUNT pairs, KIND a switch tier's
 * name (switch, leaf, spine, core, top, tN), "cable" (any link) or "nic"
 * (a GPU's link). The same fabric, spec and seed draw the same elements
 * (a xorshift generator of our own, a partial Fisher-Yates shuffle per
 * kind). Appends to e (capacity cap, count *n); -1 with err set on a bad
 * spec or a count above the candidates. */
int ry_fail_random(const ry_fabric *f, const char *spec, uint64_t seed, ry_fail_elem *e,
                   int cap, int *n, ry_err *err);

/* Marks the elements in fs (which keeps what it held): switches, rails
 * and planes in node_down, and every link of a down switch in link_down. */
void ry_failure_apply(const ry_fabric *f, const ry_fail_elem *e, int n, ry_failure *fs);

/* The same elements on another design of the same cluster: NICs and NIC
 * cables by their GPU port; a leaf as the leaf of `to` that holds most of
 * its GPU ports (one for one: the same leaf between rail-only and
 * rail-optimized; ties to the lower id); other switches and switch cables by name; rails and
 * planes as they are. Writes at most cap elements to out; *nout their
 * count; the names of `from` that have no counterpart go to
 * unmapped[*nun] (capacity cap too). */
void ry_fail_translate(const ry_fabric *from, const ry_fail_elem *e, int n, const ry_fabric *to,
                       const ry_name_index *ix_to, ry_fail_elem *out, int cap, int *nout,
                       ry_fail_elem *unmapped, int *nun);

/* Links and capacity of a set of links (a tier, rail, plane or unit). */
typedef struct ry_fail_cap {
    long long links, links_up;
    double gbps, gbps_up;       /* ry_link_gbps summed */
} ry_fail_cap;

static inline double ry_fail_cap_kept(const ry_fail_cap *c)
{
    return c->gbps > 0 ? c->gbps_up / c->gbps : 1.0;
}

typedef struct ry_failure_report {
    /* connectivity */
    long long gpus, domains;
    long long switches_down, links_down;
    long long gpus_cut;         /* no NIC port left on any plane */
    long long gpus_degraded;    /* some planes' NIC ports lost, not all */
    long long nic_ports_cut;    /* NIC link down or its leaf down */
    long long pairs;            /* GPU pairs, N(N-1)/2 */
    long long pairs_fabric;     /* pairs with a path on the fabric: some port of one
                                 * and some port of the other in one component */
    long long pairs_forward;    /* with no fabric path, reached through an HB domain over NVLink */
    long long pairs_none;       /* reached neither way */
    long long domains_cut;      /* HB domains with no NIC port left */
    /* capacity: tiers[1..tiers] are the links whose upper end is at that
     * tier (1: GPU-leaf); rails, planes, units per index. A link between
     * switches counts to a rail when its lower switch serves that rail alone,
     * to a unit when its lower switch is a leaf. */
    int tiers;
    ry_fail_cap tier[RY_MAX_TIERS + 1];
    int nrails, nplanes, nunits;
    ry_fail_cap *rail, *plane, *unit;
    /* down capacity / up capacity of the switches below the top, counted
     * on links that are up: the worst, where, and its healthy value */
    double worst_oversub;       /* INFINITY: a switch with GPUs below it and no uplink */
    int32_t worst_switch;       /* node id, -1 when no switch has uplinks */
    double worst_oversub_healthy;
    long long switches_isolated;/* up, with links below, all uplinks down */
    /* bandwidth for the model: per HB domain, the fabric bandwidth its NIC
     * ports reach (each port's speed times the share of its leaf's uplink
     * capacity that still leads up, tier by tier), over the healthy one.
     * The domain pools it over NVLink (its GPUs forward for each other),
     * so the slowest domain gates the cross-domain all-reduce. */
    double bs_ratio;            /* min over domains; 0 when a domain is cut off */
    long long gating_domain;
    /* forwarding, in units of V (one GPU's cross-domain all-reduce bytes):
     * a GPU whose ports carry less than its share hands the rest to its
     * domain over NVLink, and gets as much back on the receiving side */
    double fwd_max;             /* max over GPUs of |1 - K*B(g)/B(domain)| */
    double fwd_sum;             /* sum over GPUs of max(0, 1 - K*B(g)/B(domain)) */
} ry_failure_report;

void ry_failure_report_init(ry_failure_report *r, const ry_fabric *f);
void ry_failure_report_free(ry_failure_report *r);

/* Buffers for the analysis of one fabric, reused across scenarios. */
typedef struct ry_failure_ws ry_failure_ws;
ry_failure_ws *ry_failure_ws_new(const ry_fabric *f);
void ry_failure_ws_free(ry_failure_ws *ws);

/* What fs leaves of the fabric (fs NULL or clear: the healthy fabric). */
void ry_failure_analyze(ry_failure_ws *ws, const ry_failure *fs, ry_failure_report *r);

/* The GPU ports (gpu * planes + plane) that fs cuts off, in id order:
 * their link or its leaf is down. Writes at most cap; returns how many
 * there are. */
size_t ry_failure_cut_ports(const ry_fabric *f, const ry_failure *fs, uint32_t *out, size_t cap);

/* The tier's name of links whose upper end is at tier t: "gpu-leaf", "leaf-spine". */
void ry_fail_tier_name(const ry_fabric *f, int t, char *buf, size_t n);

#endif
