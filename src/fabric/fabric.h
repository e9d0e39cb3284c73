/* The network graph: flat arrays and integer ids, no per-node allocation.
 *
 * Nodes are GPUs (tier 0, one port per plane) and switches (tier 1 = leaf ..
 * tier t = top). Every switch owns `radix` ports whether cabled or not, so free
 * ports are counted by walking. Port p of a switch is InfiniBand port p+1
 * (port 0 is the switch's management port); port p of a GPU is its NIC port
 * on plane p. Names, GUIDs and LIDs are derived from ids on output. */
#ifndef RY_FABRIC_H
#define RY_FABRIC_H

#include <stdint.h>
#include <stddef.h>

#include "spec/spec.h"

typedef enum { RY_NODE_GPU = 0, RY_NODE_SWITCH = 1 } ry_node_kind;

typedef struct ry_node {
    uint8_t kind;       /* ry_node_kind */
    uint8_t tier;       /* 0 for GPUs, 1 = leaf, ... */
    uint16_t plane;     /* switches: their plane; GPUs: 0 */
    int32_t rail;       /* GPU: its rail; switch: the (first) rail it serves, -1 if several */
    int32_t nrails;     /* switches: rails carried (>1 on packed rail-only switches) */
    int32_t group;      /* GPU: HB domain; leaf: scalable unit; upper tiers: block id */
    int32_t index;      /* GPU: global GPU index; switch: index within (plane, tier) */
    int32_t number;     /* switch: the number its name shows (naming.switch_order) */
    int32_t subnet;     /* connected component id (an InfiniBand subnet) */
    uint32_t port0;     /* id of the node's first port */
    uint32_t nports;
} ry_node;

typedef struct ry_port {
    uint32_t owner;     /* node id */
    int32_t peer;       /* port id at the other end, or -1 */
    int32_t link;       /* link id, or -1 */
} ry_port;

typedef struct ry_link {
    uint32_t lo;        /* port id on the lower-tier node */
    uint32_t hi;        /* port id on the upper-tier node */
} ry_link;

/* What a phase of a larger target (reserve mode, fabric/reserve.h) keeps of
 * the target's identity; owned by the fabric, freed with it. */
typedef struct ry_reserve_ids {
    long long target_gpus;  /* the target's GPUs */
    int target_tiers;       /* the target's tiers: names count with them */
    uint16_t *sw_lid;       /* per switch (id - first_switch): its LID in the target's
                             * InfiniBand plan; NULL when the target has no plan */
    uint16_t *ca_lid;       /* per GPU port (gpu * planes + plane): likewise */
    uint32_t *target_sw;    /* per switch (id - first_switch): its id in the target,
                             * less the target's first_switch (the layout stands each
                             * switch where the target's layout does) */
    struct ry_spec *target_spec;    /* the target's spec: a shallow copy of the phase's */
    struct ry_fabric *target;       /* the target's graph, built once (the layout's) */
} ry_reserve_ids;

typedef struct ry_fabric {
    const ry_spec *spec;
    ry_design design;
    int tiers;          /* switch tiers (1 = a single switch per plane / rail group) */
    int radix;
    int planes;
    int rails;
    long long gpus;
    int nsubnets;

    ry_node *nodes;  size_t nnodes, cap_nodes;
    ry_port *ports;  size_t nports, cap_ports;
    ry_link *links;  size_t nlinks, cap_links;

    uint32_t first_switch;   /* nodes [0, gpus) are GPUs; switches follow */

    /* Per-tier wiring parameters chosen by the builder (1-based tier). */
    int down_ports[RY_MAX_TIERS + 1];
    int up_ports[RY_MAX_TIERS + 1];
    ry_tier_ports tier[RY_MAX_TIERS + 1];   /* [tier]: its switch model and ports */
    int su_domains;          /* HB domains per scalable unit actually used */
    int num_units;           /* scalable units */
    long long unit_gpus;     /* GPUs per scalable unit: su_domains x HB domain on rail
                              * designs; on a fat tree a leaf's GPUs (its unit is its
                              * leaf group, su_domains the whole HB domains in it) */
    ry_reserve_ids *reserve; /* reserve mode: the target's ids; NULL otherwise */
} ry_fabric;

/* The largest graph built: switch ports plus GPU ports. 4,194,304 GPUs (the
 * most a spec may have) on radix-64 switches, one plane, take 41,943,040
 * ports and peak at about 1.5 GB in `validate`; forced tiers, a very large
 * radix or more planes can imply far more at any GPU count, so the builder
 * counts the graph first (in closed form) and refuses one past this. */
#define RY_MAX_PORTS (1LL << 26)
/* Peak memory per port of `validate`, measured on the graph above. */
#define RY_BYTES_PER_PORT 36

/* Build the graph for a checked spec. On failure returns -1 with err set
 * (err->key names the spec key to blame): among others a graph of more than
 * RY_MAX_PORTS ports, refused before anything is allocated. With a growth
 * target larger than the cluster, the graph is the target's cut down to the
 * cluster (fabric/reserve.h). */
int ry_fabric_build(const ry_spec *spec, ry_fabric *f, ry_err *err);
void ry_fabric_free(ry_fabric *f);

/* Tiers a design needs for a spec; -1 with err set if it cannot be built. */
int ry_fabric_tiers_needed(const ry_spec *spec, ry_err *err);

/* Empties f and gives it src's spec and the builder's choices for it:
 * design, radix, planes, rails, GPUs, each tier's ports and model, and
 * su_domains; not the counts of what was built (tiers, units, nodes), which
 * a graph cut from src (reserve mode, a trimmed fabric) derives from what it
 * keeps. */
void ry_fabric_init_like(ry_fabric *f, const ry_fabric *src);

/* Low-level construction, used by the builder. */
uint32_t ry_fabric_add_node(ry_fabric *f, ry_node_kind kind, int tier, int plane,
                            int rail, int group, int index, uint32_t nports);
uint32_t ry_fabric_add_link(ry_fabric *f, uint32_t lo_port, uint32_t hi_port);

/* Speed of a link in Gb/s: the switch port's, or the NIC's on a server
 * link when the NIC is slower. The one rule every output uses. */
double ry_link_gbps(const ry_fabric *f, uint32_t link);
/* The same with the link's ends and their nodes at hand (lo_port on node lo,
 * hi_port on node hi, as the link has them): for loops that already read
 * them, since each lookup is a cache miss on a large graph. */
double ry_link_gbps_at(const ry_fabric *f, uint32_t lo_port, const ry_node *lo,
                       uint32_t hi_port, const ry_node *hi);
/* Speed of a port in Gb/s: a switch port's by its tier and side (down, up,
 * free), a GPU's its NIC's. */
double ry_port_gbps(const ry_fabric *f, uint32_t port);
/* Port p (0-based) of switch n on its model's faceplate: the model's port
 * (0-based) it is, or is a part of when its tier splits the side it is on
 * (fabric.tiers: a 400G port as 2 x 200G); *sub is the part (0-based) and
 * *split the parts of that port (1 when not split). */
int ry_switch_port_phys(const ry_fabric *f, const ry_node *n, uint32_t p, int *sub, int *split);
/* The switch model of a switch node (its tier's). */
static inline const ry_switch_model *ry_node_model_of(const ry_fabric *f, const ry_node *n)
{
    const ry_switch_model *m = n->kind == RY_NODE_SWITCH ? f->tier[n->tier].sw : NULL;
    return m ? m : &f->spec->sw;
}

static inline const ry_node *ry_port_node(const ry_fabric *f, uint32_t port)
{
    return &f->nodes[f->ports[port].owner];
}
/* InfiniBand port number of a port id: switch ports start at 1, GPU NIC ports too. */
static inline int ry_port_number(const ry_fabric *f, uint32_t port)
{
    return (int)(port - f->nodes[f->ports[port].owner].port0) + 1;
}
static inline int ry_node_is_switch(const ry_node *n) { return n->kind == RY_NODE_SWITCH; }

#endif
