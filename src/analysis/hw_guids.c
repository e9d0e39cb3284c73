#include "analysis/hw_guids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/route.h"
#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"

/* "leaf3, node002 mlx5_1 and 17 more": the devices left without a GUID. */
static int report_unset(const ry_ibplan *pl, const char *where, ry_err *err)
{
    const ry_fabric *f = pl->f;
    size_t nnic = (size_t)f->gpus * (size_t)f->planes;
    long long n = 0;
    ry_buf b;
    ry_buf_init(&b);
    char name[160];
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        if (!pl->sw_guid || !pl->sw_guid[i - f->first_switch]) {
            if (n++ < 3) {
                ry_node_name(f, (uint32_t)i, name, sizeof name);
                ry_buf_printf(&b, "%s%s", n > 1 ? ", " : "", name);
            }
        }
    for (size_t gp = 0; gp < nnic; gp++)
        if (f->ports[gp].peer >= 0 && (!pl->ca_guid || !pl->ca_guid[gp])) {
            if (n++ < 3) {
                ry_ca_desc(f, (uint32_t)gp, name, sizeof name);
                ry_buf_printf(&b, "%s%s", n > 1 ? ", " : "", name);
            }
        }
    if (n > 3)
        ry_buf_printf(&b, " and %lld more", n - 3);
    if (n)
        ry_err_set(err, NULL, "%s no GUID for %s", where, b.data);
    ry_buf_free(&b);
    return n ? -1 : 0;
}

int ry_hw_guids_from_fabric(const ry_verify *v, ry_ibplan *pl, int as_found, ry_err *err)
{
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            int32_t m = v->nmap[k][i];
            if (m < 0)
                continue;
            if (ry_netfile_is_switch(nf, i))
                ry_ibplan_set_sw_guid(pl, (uint32_t)m, nf->nodes[i].guid);
            else {
                int p1 = ry_netfile_port(nf, i, 1);
                ry_ibplan_set_ca_guid(pl, (uint32_t)m, nf->nodes[i].guid,
                                      p1 >= 0 ? nf->ports[p1].guid : nf->nodes[i].guid + 1);
            }
        }
    }
    return as_found ? 0 : report_unset(pl, "the fabric files give", err);
}

int ry_hw_guids_from_inventory(const ry_inventory *inv, ry_ibplan *pl, ry_err *err)
{
    ry_name_index *ix = ry_name_index_new(pl->f);
    int rc = 0;
    for (size_t i = 0; i < inv->n && !rc; i++) {
        const ry_inv_row *r = &inv->rows[i];
        int32_t id = r->is_switch ? ry_name_index_switch(ix, r->name)
                                  : ry_name_index_nic(ix, r->name);
        if (id < 0) {
            ry_err_set(err, NULL, "%s:%d: %s '%s' is not in the plan", inv->path, r->line,
                       r->is_switch ? "switch" : "NIC", r->name);
            rc = -1;
        } else if (r->is_switch) {
            ry_ibplan_set_sw_guid(pl, (uint32_t)id, r->node_guid);
        } else {
            ry_ibplan_set_ca_guid(pl, (uint32_t)id, r->node_guid, r->port_guid);
        }
    }
    ry_name_index_free(ix);
    if (!rc) {
        char where[256];
        snprintf(where, sizeof where, "%s gives", inv->path);
        rc = report_unset(pl, where, err);
    }
    return rc;
}

int ry_fabric_as_found(const ry_verify *v, ry_fabric *out, long long *nleft, ry_err *err)
{
    const ry_fabric *f = v->f;
    *out = *f;
    if (f->reserve) {
        /* names as the plan's; LIDs come from the plan (keep_lids_of) */
        out->reserve = ry_xcalloc(1, sizeof *out->reserve);
        out->reserve->target_gpus = f->reserve->target_gpus;
        out->reserve->target_tiers = f->reserve->target_tiers;
    }
    out->nodes = ry_xmalloc(f->nnodes * sizeof *out->nodes);
    memcpy(out->nodes, f->nodes, f->nnodes * sizeof *out->nodes);
    out->cap_nodes = f->nnodes;
    out->ports = ry_xmalloc(f->nports * sizeof *out->ports);
    memcpy(out->ports, f->ports, f->nports * sizeof *out->ports);
    out->cap_ports = f->nports;
    for (size_t p = 0; p < f->nports; p++)
        out->ports[p].peer = out->ports[p].link = -1;
    out->links = NULL;
    out->nlinks = out->cap_links = 0;
    long long left = 0;
    int rc = 0;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nports; i++) {
            int32_t j = nf->ports[i].peer;
            if (j < i)
                continue;
            int32_t a = v->pmap[k][i], b = v->pmap[k][j];
            if (a < 0 || b < 0) {
                left++;
                continue;
            }
            const ry_node *na = ry_port_node(out, (uint32_t)a);
            const ry_node *nb = ry_port_node(out, (uint32_t)b);
            /* a cable between switches of two subnets would make them one: routes
             * are per subnet (a NIC, one port, joins the subnet it is plugged into) */
            int cross = ry_node_is_switch(na) && ry_node_is_switch(nb) && na->subnet != nb->subnet;
            if (cross && !rc) {
                char da[160], db[160];
                int pa, pb;
                ry_verify_plan_end(f, (uint32_t)a, da, sizeof da, &pa);
                ry_verify_plan_end(f, (uint32_t)b, db, sizeof db, &pb);
                ry_err_set(err, NULL, "%s:%d: the cable from %s port %d (plane %d) to %s port %d "
                           "(plane %d) joins two subnets of the plan: unplug it, or give each "
                           "subnet's devices in their own file", nf->path,
                           nf->ports[i].line ? nf->ports[i].line : nf->ports[j].line, da, pa,
                           na->plane, db, pb, nb->plane);
                rc = -1;
            }
            if (cross) {
                left++;
                continue;
            }
            /* a NIC on an upper tier, or a cable within a tier, carries no up-down route */
            if (na->tier == nb->tier || (na->tier == 0 && nb->tier != 1) ||
                (nb->tier == 0 && na->tier != 1)) {
                left++;
                continue;
            }
            if (na->tier < nb->tier)
                ry_fabric_add_link(out, (uint32_t)a, (uint32_t)b);
            else
                ry_fabric_add_link(out, (uint32_t)b, (uint32_t)a);
        }
    }
    *nleft = left;
    return rc;
}

static void add_hole(ry_hole **h, size_t *n, size_t *cap, ry_hole x)
{
    RY_ALLOC_GROW(*h, *n + 1, *cap);
    (*h)[(*n)++] = x;
}

size_t ry_as_found_holes(const ry_verify *v, const ry_ibplan *pl, ry_hole **out)
{
    const ry_fabric *planned = v->f, *f = pl->f;
    size_t n = 0, cap = 0, nnic = (size_t)f->gpus * (size_t)f->planes;
    ry_hole *h = NULL;
    for (size_t gp = 0; gp < nnic; gp++) {
        int32_t pp = planned->ports[gp].peer;
        if (pp >= 0 && f->ports[gp].peer < 0 &&
            v->subnet_seen[ry_port_node(planned, (uint32_t)pp)->subnet])
            add_hole(&h, &n, &cap, (ry_hole){ -1, (int32_t)gp, 0 });
    }
    for (int k = 0; k < pl->nsubnets; k++) {
        const ry_subnet *sn = &pl->subnets[k];
        ry_router *r = ry_router_new(pl, k);
        uint8_t *row = ry_xmalloc(sn->max_lid + 1);
        for (size_t i = 0; i < sn->nsw; i++) {
            const ry_node *nd = &f->nodes[sn->sw[i]];
            int32_t src = 0;
            for (uint32_t p = 0; p < nd->nports; p++) {
                int32_t peer = f->ports[nd->port0 + p].peer;
                src += peer >= 0 && ry_port_node(f, (uint32_t)peer)->kind == RY_NODE_GPU;
            }
            if (!src)
                continue;
            ry_router_row(r, i, row);
            for (size_t c = 0; c < sn->nca; c++)
                if (row[pl->ca_lid[sn->ca[c]]] == RY_LFT_NONE)
                    add_hole(&h, &n, &cap,
                             (ry_hole){ (int32_t)sn->sw[i], (int32_t)sn->ca[c], src });
        }
        free(row);
        ry_router_free(r);
    }
    *out = h;
    return n;
}
