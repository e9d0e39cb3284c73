/* The as-built fabric against the plan.
 *
 * Given the topologies ibnetdiscover printed for a fabric's subnets (one
 * ry_netfile each, any number of the plan's subnets) and the planned graph,
 * ry_verify_run places every discovered device on a planned one and sorts
 * every cable into as planned or a finding:
 *
 *   channel adapters  by their NodeDescription, "HOST NIC" as the host's rdma
 *                     service sets it (ry_ca_desc);
 *   switches          by NodeDescription when it names a planned switch, else
 *                     by structure: each cable from a placed device votes for
 *                     the planned switch the plan puts at its other end; a
 *                     switch takes the candidate with a strict majority of its
 *                     votes, the strongest proposals first, and rounds repeat
 *                     while switches get placed (leaves from their hosts, then
 *                     spines from their leaves, and so on up). A minority of
 *                     miswired cables does not move the majority.
 *   cables            a found cable whose two ends are planned peers is as
 *                     planned (or degraded when it runs slower). Any other is
 *                     the cable of the planned link of its lower end when that
 *                     link is not found in place, else of its upper end's:
 *                     miswired, with the end that moved. A swap of two cables
 *                     is thus two miswired cables, never missing + unexpected.
 *                     A cable claimed by neither is unexpected; a planned link
 *                     neither found nor claimed is missing.
 *
 * Everything is computed; nothing is printed (emit/report/emit_verify.c words it).
 * Ownership: ry_verify borrows the fabric and the netfiles; ry_verify_free
 * frees what ry_verify_run allocated (NULL-safe, also after a failure). */
#ifndef RY_VERIFY_H
#define RY_VERIFY_H

#include <stdint.h>

#include "fabric/ethplan.h"
#include "fabric/fabric.h"
#include "ibfmt/netfile.h"

typedef enum {
    RY_VF_MISSING, RY_VF_UNEXPECTED, RY_VF_MISWIRED, RY_VF_DEGRADED, RY_VF_UNKNOWN,
    RY_VF_NKINDS
} ry_vf_kind;

typedef enum {
    RY_VC_NONE, RY_VC_PORT_SWAP, RY_VC_RAIL_SWAP, RY_VC_PLANE_SWAP, RY_VC_UNIT_SWAP,
    RY_VC_UPLINK, RY_VC_OTHER, RY_VC_N
} ry_vf_class;

/* Why a discovered device is not in the plan. */
typedef enum {
    RY_VU_NOT_PLANNED,      /* a CA whose NodeDescription names no planned NIC */
    RY_VU_NO_VOTES,         /* a switch with no cable to a placed device */
    RY_VU_NO_MAJORITY,      /* a switch whose cables disagree on where it stands */
    RY_VU_TAKEN             /* a switch where another one with more agreeing cables stands */
} ry_vu_reason;

/* A port of the discovered fabric. */
typedef struct ry_vf_port {
    int32_t file;           /* index of its netfile, -1 = none */
    int32_t port;           /* port index in that netfile */
} ry_vf_port;

typedef struct ry_vf_finding {
    uint8_t kind;           /* ry_vf_kind */
    uint8_t cls;            /* ry_vf_class (miswired), else RY_VC_NONE */
    uint8_t moved_hi;       /* miswired: 1 when the upper end moved, 0 the lower */
    uint8_t reason;         /* unknown-device: ry_vu_reason */
    int32_t link;           /* the planned link, -1 for unexpected and unknown-device */
    ry_vf_port fa, fb;      /* the found cable, lower end first; fb.file -1 when none */
    int32_t cand;           /* unknown switch: the planned switch most cables point to, -1 */
    int32_t votes, total;   /* unknown switch: cables that point to cand, cables that point */
} ry_vf_finding;

/* Per planned link: what was found of it. */
typedef enum {
    RY_VL_UNSEEN, RY_VL_OK, RY_VL_DEGRADED, RY_VL_ON_SWITCH, RY_VL_MOVED, RY_VL_MISSING,
    RY_VL_UNVERIFIED,
    RY_VL_PEERED        /* routed: moved, but still between switches of its two tiers */
} ry_vl_state;

typedef struct ry_vf_tally {
    long long kept, total;          /* links kept (in place, degraded, on the planned
                                     * switch) of those planned */
} ry_vf_tally;

typedef struct ry_verify {
    const ry_fabric *f;             /* borrowed */
    const ry_netfile *nf;           /* borrowed, nnf of them */
    const ry_ethplan *eth;          /* borrowed: an Ethernet fabric's interface names for
                                     * the reports, or NULL; the caller sets it after
                                     * ry_verify_run */
    int nnf;
    unsigned flags;                 /* RY_VERIFY_* */
    int32_t **nmap;                 /* per file, per node: a switch's planned node id, a CA's
                                     * planned NIC port id (gpu * planes + plane), or -1 */
    int32_t **pmap;                 /* per file, per port: the planned port id, or -1 */
    uint8_t *state;                 /* per planned link: ry_vl_state */
    uint8_t *subnet_seen;           /* per subnet: 1 when a discovered switch stands in it */
    long long as_planned;           /* cables in place at full rate */
    long long planned;              /* planned cables of the subnets seen */
    long long count[RY_VF_NKINDS];
    ry_vf_finding *findings;        /* sorted by kind, then plan position */
    size_t nfindings;
    int switches_placed, switches_found;
    long long nics_placed, nics_found;  /* CAs placed by NodeDescription, CAs found */
    long long planned_all;          /* planned cables of every subnet */
    char *why;                      /* after a failure: what stops the comparison, in
                                     * words (several lines), or NULL: then err says it */
    ry_pos why_at;                  /* where in a fabric file it is (file NULL: nowhere) */
    int ngroups;                    /* leaf groups (scalable units) */
    ry_vf_tally *rail_unit;         /* GPU links per (plane, unit, rail) */
    ry_vf_tally *leaf_up;           /* leaf uplinks per (plane, unit) */
    ry_vf_tally *tier_up;           /* uplinks per (plane, tier) */
    /* The likeliest causes, for a summary before the findings. */
    long long renamed_cas;          /* CAs the plan does not name, each on the cable of a
                                     * planned NIC not found (finding's cand: that NIC) */
    long long renamed_hosts;        /* the planned hosts they stand on */
    char renamed_found[64], renamed_plan[64];  /* the first: its name, the plan's */
    char renamed_pattern[128];      /* a naming.node value naming every one of them as
                                     * found, that the spec accepts; or "" */
    long long silent_hosts;         /* planned hosts none of whose NIC cables was found,
                                     * nor any CA standing on them (off, or, on LLDP
                                     * tables, running no LLDP agent) */
    long long silent_links;         /* their planned cables */
    char silent_first[64];          /* the first one's name */
    int absent_switches;            /* planned switches of the subnets seen, none of whose
                                     * cables was found, and no switch placed on */
    long long absent_links;         /* their planned cables */
    int32_t absent_first;           /* the first one's planned node id, -1 */
    int by_cables;                  /* switches placed by their cables, their names not
                                     * the plan's */
    char by_cables_found[64];       /* the first: its name as found (raw), */
    int32_t by_cables_at;           /* and where it stands (node id), -1 */
    int misnamed_switches;          /* switches placed by name whose cables, most of them,
                                     * say they stand where another planned switch is */
    int32_t misnamed_at, misnamed_as;   /* the first: placed on, cabled as (node ids) */
} ry_verify;

/* Asked before a hint proposes a spec value: 1 when the spec, with key
 * set to value, loads and passes every check. */
typedef int (*ry_verify_accept)(void *arg, const char *key, const char *value);

/* Places the devices and sorts the cables. Returns 0, or -1 with err set
 * (and v->why for the longer reasons) when the files cannot be compared with
 * the plan. It fails closed:
 *   - a switch, or a CA's port GUID, in two files (a subnet given twice);
 *   - two CAs described as one planned NIC, two switches as one planned
 *     switch (names the plan relies on must be unique);
 *   - a switch described as a planned switch of another subnet than the
 *     one most of its cables lead to (a file of another plane or plan);
 *   - fewer than half of the CAs found named as the plan names its NICs:
 *     v->why says how the fabric names its hosts (a pattern inferred from
 *     the names, "dgx{n1:04}"), which spec key takes it and an example;
 *   - nothing of the plan placed, or no planned cable to compare.
 * ry_verify_error gives the words for err. */
/* flags: links are never degraded; switches are placed by name only (a
 * switch the plan does not name is an unknown device, never placed by
 * structure). */
/* RY_VERIFY_ROUTED: a routed (L3) fabric, every link its own /31 and BGP
 * peering over the interface: a NIC's cable carries traffic only on its
 * planned port (its address is that port's), a switch's wherever it joins
 * switches of its two tiers (the session comes up over any cable). */
enum { RY_VERIFY_NO_RATES = 1, RY_VERIFY_BY_NAME = 2, RY_VERIFY_ROUTED = 4 };
int ry_verify_run(const ry_fabric *f, const ry_netfile *nf, int nnf, unsigned flags, ry_verify *v,
                  ry_err *err);
/* The same, its hints proposing only values accept(arg, key, value)
 * takes; with accept NULL, every naming value it infers is proposed. */
int ry_verify_run_hinted(const ry_fabric *f, const ry_netfile *nf, int nnf, unsigned flags,
                         ry_verify_accept accept, void *arg, ry_verify *v, ry_err *err);
void ry_verify_free(ry_verify *v);
const char *ry_verify_error(const ry_verify *v, const ry_err *err);

/* A planned port's name in findings: a switch's node name and its port
 * number; a NIC's NodeDescription ("node001 mlx5_0") and port 1. */
void ry_verify_plan_end(const ry_fabric *f, uint32_t port, char *dev, size_t n, int *portnum);

/* A found port's name: the planned name of the device it was placed on,
 * else its NodeDescription (or node id), escaped as util/escape.h TERM
 * (control bytes as \xNN); the port number as discovered. */
void ry_verify_found_end(const ry_verify *v, ry_vf_port p, char *dev, size_t n, int *portnum);

/* The planned rate of a link in Gb/s (the rule every output uses). */
double ry_verify_planned_gbps(const ry_verify *v, uint32_t link);

/* What a finding costs, for its impact line. */
typedef struct ry_vf_impact {
    int32_t gpu;            /* a NIC cable: the GPU, else -1 */
    int loses_link;         /* 1 when the GPU (or the switch) no longer has this link as planned */
    int32_t sw;             /* the switch whose links are counted: the NIC's leaf, or the
                             * lower switch of a switch-to-switch cable; -1 */
    long long sw_kept, sw_total;        /* its GPU links (leaf) or uplinks kept */
    int scope;              /* 0 none, 1 rail of a unit, 2 a unit's leaf uplinks,
                             * 3 a plane's uplinks of the switch's tier */
    int plane, rail, unit, tier;
    long long kept, total;  /* links of the scope kept of planned */
    double found_gbps, planned_gbps;    /* degraded */
} ry_vf_impact;

void ry_verify_impact(const ry_verify *v, const ry_vf_finding *x, ry_vf_impact *im);

#endif
