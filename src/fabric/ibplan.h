/* The InfiniBand plan of a fabric: subnets, GUIDs and LIDs.
 *
 * Subnets are the fabric's connected switch groups: one per plane for
 * rail-optimized and fat-tree fabrics, one per rail (or per switch of packed
 * rails) and plane for rail-only ones. Every GPU NIC port on a plane is a
 * one-port CA. GUIDs are derived, never stored:
 *   CA node GUID   = base + 2^32 + 16 * (gpu * planes + plane); port 1 GUID = node + 1
 *   switch GUID    = base + 2^33 + (switch seq); its port-0 GUID is the same
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
} ry_ibplan;

/* Plans the subnets; -1 with err set when the fabric is not InfiniBand-able:
 * Ethernet switches, radix above 254 ports, or a subnet beyond the unicast
 * LID space. */
int ry_ibplan_build(const ry_fabric *f, ry_ibplan *pl, ry_err *err);
void ry_ibplan_free(ry_ibplan *pl);

static inline uint64_t ry_guid_switch(const ry_fabric *f, uint32_t node)
{
    return f->spec->ib.guid_base + (1ULL << 33) + (node - f->first_switch);
}
/* CA node GUID of a GPU port (port id = gpu * planes + plane). */
static inline uint64_t ry_guid_ca(const ry_fabric *f, uint32_t gpu_port)
{
    return f->spec->ib.guid_base + (1ULL << 32) + 16ULL * gpu_port;
}

#endif
