#include "fabric/fabric.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

/* Arrays grow by a factor (RY_ALLOC_GROW); a 1M-GPU fabric reallocates a
 * few dozen times. */

uint32_t ry_fabric_add_node(ry_fabric *f, ry_node_kind kind, int tier, int plane,
                            int rail, int group, int index, uint32_t nports)
{
    RY_ALLOC_GROW(f->nodes, f->nnodes + 1, f->cap_nodes);
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
    RY_ALLOC_GROW(f->ports, f->nports + nports, f->cap_ports);
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
    RY_ALLOC_GROW(f->links, f->nlinks + 1, f->cap_links);
    uint32_t id = (uint32_t)f->nlinks++;
    f->links[id].lo = lo_port;
    f->links[id].hi = hi_port;
    f->ports[lo_port].peer = (int32_t)hi_port;
    f->ports[hi_port].peer = (int32_t)lo_port;
    f->ports[lo_port].link = (int32_t)id;
    f->ports[hi_port].link = (int32_t)id;
    return id;
}

/* A port's speed with its node at hand (the callers that walk a node's
 * ports, or hold both ends of a link, skip the lookup). */
static double node_port_gbps(const ry_fabric *f, const ry_node *n, uint32_t port)
{
    if (n->kind == RY_NODE_GPU)
        return f->spec->node.nic_gbps;
    const ry_tier_ports *t = &f->tier[n->tier];
    uint32_t p = port - n->port0;
    if (!t->sw)
        return f->spec->sw.port_gbps;
    if (p < (uint32_t)t->down)
        return t->down_gbps;
    if (p < (uint32_t)(t->down + t->up))
        return t->up_gbps;
    return t->sw->port_gbps;
}

double ry_port_gbps(const ry_fabric *f, uint32_t port)
{
    return node_port_gbps(f, ry_port_node(f, port), port);
}

int ry_switch_port_phys(const ry_fabric *f, const ry_node *n, uint32_t p, int *sub, int *split)
{
    const ry_tier_ports *t = &f->tier[n->tier];
    int q = (int)p;
    *sub = 0;
    *split = 1;
    if (!t->sw)
        return q;
    if (q < t->down) {
        *split = t->down_split;
        *sub = q % t->down_split;
        return q / t->down_split;
    }
    q -= t->down;
    if (q < t->up) {
        *split = t->up_split;
        *sub = q % t->up_split;
        return t->cages_down + q / t->up_split;
    }
    return t->cages_down + t->cages_up + (q - t->up);
}

double ry_link_gbps_at(const ry_fabric *f, uint32_t lo_port, const ry_node *lo,
                       uint32_t hi_port, const ry_node *hi)
{
    const ry_spec *s = f->spec;
    double g = node_port_gbps(f, hi, hi_port);
    if (lo->kind == RY_NODE_GPU) {
        if (s->node.nic_gbps > 0 && s->node.nic_gbps < g)
            g = s->node.nic_gbps;
    } else {
        double u = node_port_gbps(f, lo, lo_port);
        if (u < g)
            g = u;
    }
    return g;
}

double ry_link_gbps(const ry_fabric *f, uint32_t link)
{
    const ry_link *l = &f->links[link];
    return ry_link_gbps_at(f, l->lo, ry_port_node(f, l->lo), l->hi, ry_port_node(f, l->hi));
}

void ry_fabric_init_like(ry_fabric *f, const ry_fabric *src)
{
    memset(f, 0, sizeof *f);
    f->spec = src->spec;
    f->design = src->design;
    f->radix = src->radix;
    f->planes = src->planes;
    f->rails = src->rails;
    f->gpus = src->gpus;
    memcpy(f->down_ports, src->down_ports, sizeof f->down_ports);
    memcpy(f->up_ports, src->up_ports, sizeof f->up_ports);
    memcpy(f->tier, src->tier, sizeof f->tier);
    f->su_domains = src->su_domains;
}

void ry_fabric_free(ry_fabric *f)
{
    free(f->nodes);
    free(f->ports);
    free(f->links);
    if (f->reserve) {
        free(f->reserve->sw_lid);
        free(f->reserve->ca_lid);
        free(f->reserve->target_sw);
        if (f->reserve->target)
            ry_fabric_free(f->reserve->target);
        free(f->reserve->target);
        free(f->reserve->target_spec);     /* shallow: its pointers are the phase spec's */
        free(f->reserve);
    }
    memset(f, 0, sizeof *f);
}
