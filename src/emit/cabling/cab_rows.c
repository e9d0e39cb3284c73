/* The names and rows every cabling file is written from (cab_rows.h). */
#include "emit/cabling/cab_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/buf.h"

/* ---- names and rows ----------------------------------------------------------------------- */

static size_t pool_add(ry_buf *b, const char *s)
{
    size_t at = b->len;
    ry_buf_add(b, s, strlen(s) + 1);
    return at;
}

void ry_cab_names_init(ry_cab_names *nm, const ry_cabling *c)
{
    const ry_fabric *f = c->f;
    const ry_layout *lay = c->lay;
    memset(nm, 0, sizeof *nm);
    nm->c = c;
    nm->f = f;
    nm->lay = lay;
    nm->gpn = lay->gpus_per_node > 0 ? lay->gpus_per_node : 1;
    nm->nservers = f->gpus / nm->gpn;
    size_t nsw = f->nnodes - f->first_switch;
    nm->server = ry_xmalloc((size_t)(nm->nservers ? nm->nservers : 1) * sizeof *nm->server);
    nm->sw = ry_xmalloc((nsw ? nsw : 1) * sizeof *nm->sw);
    nm->rack = ry_xmalloc((size_t)(lay->nracks ? lay->nracks : 1) * sizeof *nm->rack);
    nm->port = ry_xmalloc((f->nports ? f->nports : 1) * sizeof *nm->port);
    nm->label = ry_xmalloc((f->nlinks ? f->nlinks : 1) * sizeof *nm->label);
    nm->part = ry_xmalloc((size_t)(c->nmedia ? c->nmedia : 1) * 32 * sizeof *nm->part);
    ry_buf b;
    ry_buf_init(&b);
    char name[160];
    for (long long s = 0; s < nm->nservers; s++) {
        ry_host_name(f, s, name, sizeof name);
        nm->server[s] = pool_add(&b, name);
    }
    for (size_t i = 0; i < nsw; i++) {
        ry_node_name(f, (uint32_t)(f->first_switch + i), name, sizeof name);
        nm->sw[i] = pool_add(&b, name);
    }
    for (int r = 0; r < lay->nracks; r++) {
        ry_rack_name(lay, r, name, sizeof name);
        nm->rack[r] = pool_add(&b, name);
    }
    /* A server's NIC port i, i = GPU within the server + plane * GPUs per
     * server, is named as in ry_ca_desc (the node's NIC table, else
     * mlx5_<i>); one string per i. */
    int nnic = nm->gpn * f->planes;
    size_t *nic = ry_xmalloc((size_t)nnic * sizeof *nic);
    for (int i = 0; i < nnic; i++) {
        ry_nic_rdma(&f->spec->node, i, name, sizeof name);
        nic[i] = pool_add(&b, name);
    }
    for (size_t p = 0; p < f->nports; p++) {
        uint32_t node = f->ports[p].owner;
        const ry_node *nd = &f->nodes[node];
        if (nd->kind == RY_NODE_GPU) {
            nm->port[p] = nic[node % (uint32_t)nm->gpn + (p - nd->port0) * (uint32_t)nm->gpn];
        } else {
            ry_port_label(f, (uint32_t)p, name, sizeof name);
            nm->port[p] = pool_add(&b, name);
        }
    }
    free(nic);
    for (size_t i = 0; i < (size_t)(c->nmedia ? c->nmedia : 1) * 32; i++)
        nm->part[i] = SIZE_MAX;
    for (size_t l = 0; l < f->nlinks; l++) {
        ry_cable_label(f, (uint32_t)l, name, sizeof name);
        nm->label[l] = pool_add(&b, name);
        size_t k = (size_t)c->cables[l].medium * 32 + c->cables[l].len_idx;
        if (nm->part[k] == SIZE_MAX) {
            ry_cable_part(c, (uint32_t)l, name, sizeof name);
            nm->part[k] = pool_add(&b, name);
        }
    }
    nm->pool = b.data;
}

void ry_cab_names_free(ry_cab_names *nm)
{
    free(nm->pool);
    free(nm->server);
    free(nm->sw);
    free(nm->rack);
    free(nm->port);
    free(nm->label);
    free(nm->part);
    memset(nm, 0, sizeof *nm);
}

void ry_cab_end_of(const ry_cab_names *nm, uint32_t port, ry_cab_end *e)
{
    const ry_fabric *f = nm->f;
    uint32_t node = f->ports[port].owner;
    const ry_node *nd = &f->nodes[node];
    int units;
    e->node = node;
    e->port = port;
    ry_layout_where(nm->lay, node, &e->rack, &e->unit, &units);
    e->row = nm->lay->racks[e->rack].row + 1;
    e->rack_name = nm->pool + nm->rack[e->rack];
    e->port_name = nm->pool + nm->port[port];
    if (nd->kind == RY_NODE_GPU) {
        e->is_server = 1;
        e->device = nm->pool + nm->server[node / (uint32_t)nm->gpn];
        e->type = f->spec->node.name;
        e->number = ry_nic_number(&f->spec->node, (int)(node % (uint32_t)nm->gpn) +
                                                      (int)(port - nd->port0) * nm->gpn);
    } else {
        e->is_server = 0;
        e->device = nm->pool + nm->sw[node - f->first_switch];
        e->type = ry_node_model_of(f, nd)->name;     /* its tier's (fabric.tiers) */
        e->number = ry_port_number(f, port);
    }
}

void ry_cab_row_of(const ry_cab_names *nm, uint32_t link, ry_cab_row *r)
{
    const ry_fabric *f = nm->f;
    const ry_cabling *c = nm->c;
    const ry_link *k = &f->links[link];
    ry_cab_end_of(nm, k->lo, &r->a);
    ry_cab_end_of(nm, k->hi, &r->z);
    r->label = nm->pool + nm->label[link];
    r->part = nm->pool + nm->part[(size_t)c->cables[link].medium * 32 + c->cables[link].len_idx];
    r->medium = &c->media[c->cables[link].medium];
    r->length_m = ry_cable_length(c, link);
    r->gbps = ry_link_gbps(f, link);
    const ry_node *lo = &f->nodes[r->a.node], *hi = &f->nodes[r->z.node];
    /* The GPU's rail on a server's cable; above, the upper switch's when it
     * serves exactly one rail; else none (the cable carries several). */
    if (lo->kind == RY_NODE_GPU)
        r->rail = lo->rail;
    else
        r->rail = hi->rail >= 0 && hi->nrails <= 1 ? hi->rail : -1;
    r->plane = hi->plane;
    r->tier = hi->tier;
}

void ry_cab_room_name(const ry_room *rm, char *buf, size_t n)
{
    snprintf(buf, n, rm->kind == RY_ROOM_HALL ? "H%02d" : "N%d", rm->number);
}
