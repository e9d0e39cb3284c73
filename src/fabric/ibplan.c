#include "fabric/ibplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

static void subnet_name(const ry_fabric *f, ry_subnet *sn)
{
    if (f->design != RY_DESIGN_RAIL_ONLY)
        snprintf(sn->name, sizeof sn->name, "plane%d", sn->plane);
    else if (sn->nrails == 1)
        snprintf(sn->name, sizeof sn->name, "plane%d-rail%d", sn->plane, sn->rail0);
    else
        snprintf(sn->name, sizeof sn->name, "plane%d-rails%d-%d", sn->plane, sn->rail0,
                 sn->rail0 + sn->nrails - 1);
}

int ry_ibplan_build(const ry_fabric *f, ry_ibplan *pl, ry_err *err)
{
    const ry_spec *s = f->spec;
    memset(pl, 0, sizeof *pl);
    pl->f = f;
    pl->lmc = s->ib.lmc;
    if (s->sw.ethernet) {
        ry_err_set(err, "fabric.switch", "%s is an Ethernet switch: subnet-manager files are for "
                   "InfiniBand fabrics (set fabric.switch.protocol: infiniband if it is one)",
                   s->sw.name);
        return -1;
    }
    if (f->radix > RY_IB_MAX_PORTS) {
        ry_err_set(err, "fabric.switch", "a %d-port switch is not InfiniBand: a subnet manager "
                   "addresses at most %d ports per switch (use a radix of 254 or less, or an "
                   "Ethernet switch with protocol: ethernet)", f->radix, RY_IB_MAX_PORTS);
        return -1;
    }
    if (s->ib.pkey_base + f->rails - 1 > 0x7ffe) {
        ry_err_set(err, "infiniband.pkey_base", "%d rails from P_Key 0x%04x run past 0x7ffe, the "
                   "last partition key: use a lower infiniband.pkey_base", f->rails,
                   s->ib.pkey_base);
        return -1;
    }
    int n = f->nsubnets;
    pl->nsubnets = n;
    pl->subnets = ry_xcalloc((size_t)n, sizeof *pl->subnets);
    size_t nsw = f->nnodes - f->first_switch;
    pl->sw_lid = ry_xcalloc(nsw, sizeof *pl->sw_lid);
    pl->ca_lid = ry_xcalloc((size_t)(f->gpus * f->planes), sizeof *pl->ca_lid);

    /* Count, then fill: switches by id, CAs by walking leaves' down ports. */
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        ry_subnet *sn = &pl->subnets[f->nodes[i].subnet];
        sn->nsw++;
        if (f->nodes[i].tier > sn->tiers)
            sn->tiers = f->nodes[i].tier;
    }
    for (int k = 0; k < n; k++) {
        pl->subnets[k].sw = ry_xmalloc(pl->subnets[k].nsw * sizeof(uint32_t));
        pl->subnets[k].rail0 = -1;
        pl->subnets[k].nsw = 0;
    }
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        ry_subnet *sn = &pl->subnets[nd->subnet];
        sn->plane = nd->plane;
        if (nd->tier == 1 && nd->rail >= 0) {
            int lo = sn->rail0 < 0 || nd->rail < sn->rail0 ? nd->rail : sn->rail0;
            int hi = nd->rail + nd->nrails;
            if (sn->rail0 >= 0 && sn->rail0 + sn->nrails > hi)
                hi = sn->rail0 + sn->nrails;
            sn->rail0 = lo;
            sn->nrails = hi - lo;
        }
        sn->sw[sn->nsw++] = (uint32_t)i;
    }
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        if (nd->tier != 1)
            continue;
        for (uint32_t p = 0; p < nd->nports; p++) {
            int32_t peer = f->ports[nd->port0 + p].peer;
            if (peer >= 0 && f->nodes[f->ports[peer].owner].kind == RY_NODE_GPU)
                pl->subnets[nd->subnet].nca++;
        }
    }
    int bad = 0;
    for (int k = 0; k < n; k++) {
        ry_subnet *sn = &pl->subnets[k];
        subnet_name(f, sn);
        unsigned long long need = sn->nsw;
        unsigned long long block = 1ULL << pl->lmc;
        need = (need + block - 1) / block * block + sn->nca * block;
        if (need > RY_IB_MAX_UCAST_LID && !bad) {
            ry_err_set(err, "cluster", "subnet %s needs %llu LIDs (%zu switches + %zu end ports x "
                       "%llu) but InfiniBand has %d unicast LIDs: split it (rail-only gives one "
                       "subnet per rail, planes one per plane), use fewer GPUs, or lmc 0",
                       sn->name, need, sn->nsw, sn->nca, block, RY_IB_MAX_UCAST_LID);
            bad = 1;
        }
        sn->ca = ry_xmalloc((sn->nca ? sn->nca : 1) * sizeof(uint32_t));
        sn->nca = 0;
    }
    if (bad) {
        ry_ibplan_free(pl);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        ry_subnet *sn = &pl->subnets[k];
        uint32_t lid = 1;
        for (size_t i = 0; i < sn->nsw; i++)
            pl->sw_lid[sn->sw[i] - f->first_switch] = (uint16_t)lid++;
        sn->max_lid = lid - 1;
    }
    uint32_t block = 1u << pl->lmc;
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        if (nd->tier != 1)
            continue;
        ry_subnet *sn = &pl->subnets[nd->subnet];
        for (uint32_t p = 0; p < nd->nports; p++) {
            int32_t peer = f->ports[nd->port0 + p].peer;
            if (peer < 0 || f->nodes[f->ports[peer].owner].kind != RY_NODE_GPU)
                continue;
            uint32_t lid = (sn->max_lid + block) / block * block;   /* next aligned block */
            if (sn->max_lid == 0)
                lid = block;
            pl->ca_lid[peer] = (uint16_t)lid;
            sn->max_lid = lid + block - 1;
            sn->ca[sn->nca++] = (uint32_t)peer;
        }
    }
    return 0;
}

void ry_ibplan_free(ry_ibplan *pl)
{
    for (int k = 0; k < pl->nsubnets; k++) {
        free(pl->subnets[k].sw);
        free(pl->subnets[k].ca);
    }
    free(pl->subnets);
    free(pl->sw_lid);
    free(pl->ca_lid);
    memset(pl, 0, sizeof *pl);
}
