#include "fabric/ibplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/hash.h"

/* ry_guid_switch's fields: plane in 3 bits, tier in 4, number in 24 (a
 * switch has at least 4 ports, so a fabric has at most RY_MAX_PORTS / 4). */
_Static_assert(RY_MAX_PLANES <= 8 && RY_MAX_TIERS < 16 && RY_MAX_PORTS / 4 <= (1LL << 24),
               "switch GUID fields overflow");

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

/* A phase of a reserve (fabric/reserve.h): every port the LID it has in
 * the target's plan, so LIDs stay as the cluster grows. */
static void reserve_lids(ry_ibplan *pl)
{
    const ry_fabric *f = pl->f;
    const ry_reserve_ids *r = f->reserve;
    uint32_t block = 1u << pl->lmc;
    for (int k = 0; k < pl->nsubnets; k++) {
        ry_subnet *sn = &pl->subnets[k];
        uint32_t max = 0;
        for (size_t i = 0; i < sn->nsw; i++) {
            uint16_t lid = r->sw_lid[sn->sw[i] - f->first_switch];
            pl->sw_lid[sn->sw[i] - f->first_switch] = lid;
            if (lid > max)
                max = lid;
        }
        for (size_t i = 0; i < sn->nca; i++) {
            uint16_t lid = r->ca_lid[sn->ca[i]];
            pl->ca_lid[sn->ca[i]] = lid;
            if (lid + block - 1 > max)
                max = lid + block - 1;
        }
        sn->max_lid = max;
    }
}

int ry_ibplan_build(const ry_fabric *f, ry_ibplan *pl, ry_err *err)
{
    const ry_spec *s = f->spec;
    memset(pl, 0, sizeof *pl);
    pl->f = f;
    pl->lmc = s->ib.lmc;
    if (ry_spec_is_ethernet(s)) {
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
    for (int t = 1; t <= f->tiers && s->n_tier; t++)
        if (f->tier[t].sw && f->tier[t].ports > RY_IB_MAX_PORTS) {
            /* split ports count one each: a 144-port switch split in 2 has 288 */
            char key[48];
            snprintf(key, sizeof key, "fabric.tiers.%d", t - 1);
            ry_err_set(err, key, "tier %d's %s has %d ports with its split ones, and a subnet "
                       "manager addresses at most %d ports per switch: split fewer (a count "
                       "on the side, \"400G x 128\") or use a switch of fewer ports",
                       t, f->tier[t].sw->name, f->tier[t].ports, RY_IB_MAX_PORTS);
            return -1;
        }
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        RY_ASSERT(f->nodes[i].number >= 0 && f->nodes[i].number < (1 << 24));
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
                       "subnet per rail, planes one per plane)%s use fewer GPUs",
                       sn->name, need, sn->nsw, sn->nca, block, RY_IB_MAX_UCAST_LID,
                       pl->lmc ? ", lmc 0, or" : " or");
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
    if (f->reserve && f->reserve->sw_lid)
        reserve_lids(pl);
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
    free(pl->sw_guid);
    free(pl->ca_guid);
    free(pl->ca_port_guid);
    memset(pl, 0, sizeof *pl);
}

void ry_ibplan_set_sw_guid(ry_ibplan *pl, uint32_t node, uint64_t guid)
{
    const ry_fabric *f = pl->f;
    if (!pl->sw_guid)
        pl->sw_guid = ry_xcalloc(f->nnodes - f->first_switch + 1, sizeof *pl->sw_guid);
    pl->sw_guid[node - f->first_switch] = guid;
}

void ry_ibplan_set_ca_guid(ry_ibplan *pl, uint32_t gpu_port, uint64_t node_guid,
                           uint64_t port_guid)
{
    const ry_fabric *f = pl->f;
    size_t n = (size_t)f->gpus * (size_t)f->planes + 1;
    if (!pl->ca_guid) {
        pl->ca_guid = ry_xcalloc(n, sizeof *pl->ca_guid);
        pl->ca_port_guid = ry_xcalloc(n, sizeof *pl->ca_port_guid);
    }
    pl->ca_guid[gpu_port] = node_guid;
    pl->ca_port_guid[gpu_port] = port_guid;
}

/* GUID -> LID of the kept assignment, open addressing. */
typedef struct lid_tab {
    uint64_t *key;
    uint16_t *lid;
    unsigned mask;
} lid_tab;

static uint16_t kept_lid(const lid_tab *t, uint64_t g)
{
    for (unsigned h = (unsigned)ry_hash_u64(g) & t->mask; t->lid[h]; h = (h + 1) & t->mask)
        if (t->key[h] == g)
            return t->lid[h];
    return 0;
}

/* A kept LID that cannot be kept: not unicast, not aligned, or taken. */
static int bad_kept(const ry_ibplan *pl, const ry_subnet *sn, const uint8_t *used, int sw,
                    uint32_t lid, uint64_t g, ry_err *err)
{
    uint32_t block = 1u << pl->lmc, n = sw ? 1 : block;
    if (lid + n - 1 > RY_IB_MAX_UCAST_LID || (!sw && lid % block)) {
        ry_err_set(err, NULL, "LID 0x%04x of GUID 0x%016llx is not %s", lid,
                   (unsigned long long)g, lid % block && !sw
                   ? "aligned to the LMC: keep the LMC the subnet manager ran with"
                   : "a unicast LID");
        return 1;
    }
    if (memchr(used + lid, 1, n)) {
        ry_err_set(err, NULL, "LID 0x%04x is kept for two ports of subnet %s (GUID 0x%016llx "
                   "among them)", lid, sn->name, (unsigned long long)g);
        return 1;
    }
    return 0;
}

/* One subnet: kept LIDs first (checked), then the rest in the plan's order
 * into the free aligned blocks. With soft, a LID that cannot be kept is
 * given a free one instead of being an error. */
static int keep_subnet(ry_ibplan *pl, ry_subnet *sn, const lid_tab *t, int soft, ry_err *err)
{
    const ry_fabric *f = pl->f;
    uint32_t block = 1u << pl->lmc;
    size_t all = sn->nsw + sn->nca;
    uint8_t *used = ry_xcalloc(RY_IB_MAX_UCAST_LID + 2, 1), *done = ry_xcalloc(all + 1, 1);
    int rc = 0;
    uint32_t max = 0, next = 1;
    /* pass 0 takes the kept LIDs, pass 1 gives the others the free ones */
    for (int pass = 0; pass < 2 && !rc; pass++) {
        for (size_t i = 0; i < all && !rc; i++) {
            int sw = i < sn->nsw;
            uint32_t id = sw ? sn->sw[i] : sn->ca[i - sn->nsw];
            uint64_t g = sw ? ry_plan_sw_guid(pl, id) : ry_plan_ca_port_guid(pl, id);
            uint32_t n = sw ? 1 : block, lid = pass == 0 ? kept_lid(t, g) : 0;
            if (done[i] || (pass == 0 && !lid))
                continue;
            if (pass == 0 && bad_kept(pl, sn, used, sw, lid, g, err)) {
                rc = soft ? 0 : -1;
                continue;
            }
            if (pass == 1) {
                if (!sw)
                    next = (next + block - 1) / block * block;
                while (next + n - 1 <= RY_IB_MAX_UCAST_LID && memchr(used + next, 1, n))
                    next += sw ? 1 : block;
                lid = next;
                if (lid + n - 1 > RY_IB_MAX_UCAST_LID) {
                    ry_err_set(err, NULL, "subnet %s runs out of unicast LIDs around the kept "
                               "ones", sn->name);
                    rc = -1;
                    break;
                }
            }
            memset(used + lid, 1, n);
            done[i] = 1;
            if (sw)
                pl->sw_lid[id - f->first_switch] = (uint16_t)lid;
            else
                pl->ca_lid[id] = (uint16_t)lid;
            if (lid + n - 1 > max)
                max = lid + n - 1;
        }
    }
    sn->max_lid = max;
    free(used);
    free(done);
    return rc;
}

int ry_ibplan_keep_lids(ry_ibplan *pl, const uint64_t *guids, const uint16_t *lids, size_t n,
                        unsigned flags, ry_err *err)
{
    lid_tab t;
    unsigned cap = 16;
    while (cap < n * 2 + 16)
        cap *= 2;
    t.mask = cap - 1;
    t.key = ry_xcalloc(cap, sizeof *t.key);
    t.lid = ry_xcalloc(cap, sizeof *t.lid);
    for (size_t i = 0; i < n; i++) {
        if (!lids[i])
            continue;
        unsigned h = (unsigned)ry_hash_u64(guids[i]) & t.mask;
        while (t.lid[h] && t.key[h] != guids[i])
            h = (h + 1) & t.mask;
        t.key[h] = guids[i];
        t.lid[h] = lids[i];
    }
    int rc = 0;
    for (int k = 0; k < pl->nsubnets && !rc; k++)
        rc = keep_subnet(pl, &pl->subnets[k], &t, flags & RY_KEEP_SOFT, err);
    free(t.key);
    free(t.lid);
    return rc;
}

/* pl keeps from's LIDs for the GUIDs that plan `named` gives from's ports
 * (from's own, or pl's when both plan the same graph). */
static int keep_lids_from(ry_ibplan *pl, const ry_ibplan *from, const ry_ibplan *named,
                          ry_err *err)
{
    size_t n = 0, cap = 0;
    for (int k = 0; k < from->nsubnets; k++)
        cap += from->subnets[k].nsw + from->subnets[k].nca;
    uint64_t *g = ry_xmalloc((cap ? cap : 1) * sizeof *g);
    uint16_t *l = ry_xmalloc((cap ? cap : 1) * sizeof *l);
    const ry_fabric *f = from->f;
    for (int k = 0; k < from->nsubnets; k++) {
        const ry_subnet *sn = &from->subnets[k];
        for (size_t i = 0; i < sn->nsw; i++) {
            g[n] = ry_plan_sw_guid(named, sn->sw[i]);
            l[n++] = from->sw_lid[sn->sw[i] - f->first_switch];
        }
        for (size_t c = 0; c < sn->nca; c++) {
            g[n] = ry_plan_ca_port_guid(named, sn->ca[c]);
            l[n++] = from->ca_lid[sn->ca[c]];
        }
    }
    int rc = ry_ibplan_keep_lids(pl, g, l, n, RY_KEEP_SOFT, err);
    free(g);
    free(l);
    return rc;
}

int ry_ibplan_keep_lids_of(ry_ibplan *pl, const ry_ibplan *from, ry_err *err)
{
    return keep_lids_from(pl, from, pl, err);
}

int ry_ibplan_keep_lids_by_guid(ry_ibplan *pl, const ry_ibplan *from, ry_err *err)
{
    return keep_lids_from(pl, from, from, err);
}
