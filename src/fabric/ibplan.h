/* The InfiniBand plan of a fabric: subnets, GUIDs and LIDs.
 *
 * Subnets are the fabric's connected switch groups: one per plane for
 * rail-optimized and fat-tree fabrics, one per rail (or per switch of packed
 * rails) and plane for rail-only ones. Every GPU NIC port on a plane is a
 * one-port CA. GUIDs are derived, never stored:
 *   CA node GUID   = base + 2^32 + 16 * (gpu * planes + plane); port 1 GUID = node + 1
 *   switch GUID    = base + 2^33 + plane * 2^28 + tier * 2^24 + number, the
 *                    (plane, tier, number) its name shows; its port-0 GUID is
 *                    the same
 * so GUIDs follow names: a switch that keeps its name when the fabric grows
 * keeps its GUID. Plane < 8, tier < 16 and number < 2^24 (RY_MAX_PORTS over
 * the smallest radix), so switch GUIDs stay below base + 2^33 + 2^31.
 * LIDs per subnet: switches 1..S in node order, then CAs in leaf order, each
 * CA an aligned block of 2^lmc LIDs. */
#ifndef RY_IBPLAN_H
#define RY_IBPLAN_H

#include <stdint.h>

#include "fabric/fabric.h"

#define RY_IB_MAX_UCAST_LID 0xBFFF   /* 49,151 unicast LIDs */
#define RY_IB_MAX_PORTS 254

typedef struct ry_subnet {
    char name[48];
    int plane;
    int rail0, nrails;       /* rails carried: [rail0, rail0 + nrails) */
    int tiers;
    uint32_t *sw;  size_t nsw;   /* switch node ids, ascending (LID = 1 + index) */
    uint32_t *ca;  size_t nca;   /* GPU port ids in LID order, grouped by leaf */
    uint32_t max_lid;
} ry_subnet;

typedef struct ry_ibplan {
    const ry_fabric *f;
    int lmc;
    ry_subnet *subnets;
    int nsubnets;
    uint16_t *ca_lid;        /* per GPU port id (gpu * planes + plane): base LID */
    uint16_t *sw_lid;        /* per switch (node id - first_switch) */
    /* GUIDs of the real hardware (ry_ibplan_set_guids), or NULL: derived. */
    uint64_t *sw_guid;       /* per switch: node GUID, 0 = derived */
    uint64_t *ca_guid;       /* per NIC port: CA node GUID, 0 = derived */
    uint64_t *ca_port_guid;  /* per NIC port: port GUID */
} ry_ibplan;

/* Plans the subnets; -1 with err set when the fabric is not InfiniBand-able:
 * Ethernet switches, radix above 254 ports, or a subnet beyond the unicast
 * LID space. */
int ry_ibplan_build(const ry_fabric *f, ry_ibplan *pl, ry_err *err);
void ry_ibplan_free(ry_ibplan *pl);

/* Switch node GUID: keyed on the (plane, tier, number) its name shows. */
static inline uint64_t ry_guid_switch(const ry_fabric *f, uint32_t node)
{
    const ry_node *n = &f->nodes[node];
    return f->spec->ib.guid_base + (1ULL << 33) + ((uint64_t)n->plane << 28) +
           ((uint64_t)n->tier << 24) + (uint64_t)(uint32_t)n->number;
}
/* CA node GUID of a GPU port (port id = gpu * planes + plane). */
static inline uint64_t ry_guid_ca(const ry_fabric *f, uint32_t gpu_port)
{
    return f->spec->ib.guid_base + (1ULL << 32) + 16ULL * gpu_port;
}

/* The GUIDs the files carry: the hardware's where they are set, else derived. */
static inline uint64_t ry_plan_sw_guid(const ry_ibplan *pl, uint32_t node)
{
    uint64_t g = pl->sw_guid ? pl->sw_guid[node - pl->f->first_switch] : 0;
    return g ? g : ry_guid_switch(pl->f, node);
}
static inline uint64_t ry_plan_ca_guid(const ry_ibplan *pl, uint32_t gpu_port)
{
    uint64_t g = pl->ca_guid ? pl->ca_guid[gpu_port] : 0;
    return g ? g : ry_guid_ca(pl->f, gpu_port);
}
static inline uint64_t ry_plan_ca_port_guid(const ry_ibplan *pl, uint32_t gpu_port)
{
    uint64_t g = pl->ca_guid ? pl->ca_port_guid[gpu_port] : 0;
    return g ? g : ry_guid_ca(pl->f, gpu_port) + 1;
}

/* Sets the hardware GUIDs of a switch or a NIC port (allocating the arrays on
 * first use). */
void ry_ibplan_set_sw_guid(ry_ibplan *pl, uint32_t node, uint64_t guid);
void ry_ibplan_set_ca_guid(ry_ibplan *pl, uint32_t gpu_port, uint64_t node_guid,
                           uint64_t port_guid);

/* Keeps the LIDs a running subnet manager assigned: for every port GUID of
 * the plan (a switch's node GUID) in guids[0..n), its LID becomes lids[i];
 * the others get free LIDs after them. -1 with err set when a LID is taken
 * twice, is not a unicast LID, or is not aligned to the LMC (unless
 * RY_KEEP_SOFT). */
enum { RY_KEEP_SOFT = 1 };   /* a LID that cannot be kept takes a free one: no error */
int ry_ibplan_keep_lids(ry_ibplan *pl, const uint64_t *guids, const uint16_t *lids, size_t n,
                        unsigned flags, ry_err *err);

/* Every port of pl keeps the LID it has in from, a plan of the same graph's
 * ids (the fabric as planned, pl the fabric as found), where it can
 * (RY_KEEP_SOFT): a missing cable does not move the LIDs of other ports. */
int ry_ibplan_keep_lids_of(ry_ibplan *pl, const ry_ibplan *from, ry_err *err);

/* Every port of pl whose GUID from also has keeps from's LID for it, where
 * it can (RY_KEEP_SOFT): from is another plan (a fabric's earlier phase),
 * matched by GUIDs alone. */
int ry_ibplan_keep_lids_by_guid(ry_ibplan *pl, const ry_ibplan *from, ry_err *err);

#endif
