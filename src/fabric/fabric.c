#include "fabric/fabric.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

/* Arrays grow by doubling; a 1M-GPU fabric reallocates a few dozen times. */
#define GROW(arr, n, cap, min)                                           \
    do {                                                                 \
        if ((n) >= (cap)) {                                              \
            size_t nc_ = (cap) ? (cap) * 2 : (min);                      \
            (arr) = ry_xrealloc((arr), nc_ * sizeof *(arr));             \
            (cap) = nc_;                                                 \
        }                                                                \
    } while (0)

uint32_t ry_fabric_add_node(ry_fabric *f, ry_node_kind kind, int tier, int plane,
                            int rail, int group, int index, uint32_t nports)
{
    GROW(f->nodes, f->nnodes, f->cap_nodes, 1024);
    uint32_t id = (uint32_t)f->nnodes++;
    ry_node *n = &f->nodes[id];
    n->kind = (uint8_t)kind;
    n->tier = (uint8_t)tier;
    n->plane = (uint16_t)plane;
    n->rail = rail;
    n->nrails = rail >= 0 ? 1 : 0;
    n->group = group;
    n->index = index;
    n->number = index;
    n->subnet = -1;
    n->port0 = (uint32_t)f->nports;
    n->nports = nports;
    if (f->nports + nports > f->cap_ports) {
        size_t nc = f->cap_ports ? f->cap_ports : 4096;
        while (nc < f->nports + nports)
            nc *= 2;
        f->ports = ry_xrealloc(f->ports, nc * sizeof *f->ports);
        f->cap_ports = nc;
    }
    for (uint32_t p = 0; p < nports; p++) {
        ry_port *pt = &f->ports[f->nports + p];
        pt->owner = id;
        pt->peer = -1;
        pt->link = -1;
    }
    f->nports += nports;
    return id;
}

uint32_t ry_fabric_add_link(ry_fabric *f, uint32_t lo_port, uint32_t hi_port)
{
    RY_ASSERT(lo_port < f->nports && hi_port < f->nports);
    RY_ASSERT(f->ports[lo_port].peer < 0 && f->ports[hi_port].peer < 0);
    GROW(f->links, f->nlinks, f->cap_links, 1024);
    uint32_t id = (uint32_t)f->nlinks++;
    f->links[id].lo = lo_port;
    f->links[id].hi = hi_port;
    f->ports[lo_port].peer = (int32_t)hi_port;
    f->ports[hi_port].peer = (int32_t)lo_port;
    f->ports[lo_port].link = (int32_t)id;
    f->ports[hi_port].link = (int32_t)id;
    return id;
}

double ry_link_gbps(const ry_fabric *f, uint32_t link)
{
    const ry_spec *s = f->spec;
    double g = s->sw.port_gbps;
    const ry_node *lo = ry_port_node(f, f->links[link].lo);
    if (lo->kind == RY_NODE_GPU && s->node.nic_gbps > 0 && s->node.nic_gbps < g)
        g = s->node.nic_gbps;
    return g;
}

void ry_fabric_free(ry_fabric *f)
{
    free(f->nodes);
    free(f->ports);
    free(f->links);
    memset(f, 0, sizeof *f);
}
