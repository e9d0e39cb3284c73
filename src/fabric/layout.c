/* Physical layout (see layout.h for the model).
 *
 * Given the fabric, the steps are:
 *   1. blocks: union-find over servers and switches, adding tier 1, 2, ...
 *      links in turn; after tier t the sets are the level-t blocks.
 *   2. size: racks and power of every block at every level (a scalable unit:
 *      its compute racks and leaf racks; above: the units' racks plus
 *      network racks for tiers 2..t).
 *   3. halls: the hall level L is the highest level whose blocks each fit
 *      in a hall; level-L blocks are packed into halls in fabric order,
 *      starting a new hall where the level-(L+1) block changes.
 *   4. buildings: the building level B likewise, halls packed into
 *      buildings; network rooms for tiers above L.
 *   5. racks: each room filled row by row; the hall's upper tiers in whole
 *      rows in its middle.
 * Everything is in fabric order, so the same spec gives the same layout. */
#include "fabric/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/unionfind.h"

#define UNIT_M 0.04445      /* one rack unit */
#define PLINTH_M 0.1        /* floor to the bottom of unit 1 */
#define MARGIN_M 1.2        /* a room's walls to its outer racks (service aisle) */

typedef struct tmp {
    const ry_fabric *f;
    const ry_spec *s;
    int T, gpn, npr, spr, rpr, mode, nnet;
    int in_rack;            /* layout.network in-rack: leaves in their servers' racks
                             * (placed as per-unit otherwise: mode 0) */
    int rack_sw;            /* in-rack: leaves a compute rack holds above its servers */
    int U;                  /* level of the units packed into halls: 1, or 0 (HB domains) */
    long long S;            /* servers */
    size_t nsw, ni;         /* switches; items = servers then switches */
    double node_w, sw_w, hall_w;
    double tray_w;          /* a compute rack's other trays (cluster.node.rack_trays) */
    int32_t *id[RY_MAX_TIERS + 1];  /* [t][item]: level-t block, -1 if above tier t */
    int n[RY_MAX_TIERS + 1];        /* blocks per level */
    /* level-1 blocks: servers and leaves, in fabric order */
    int n1;
    int32_t *b1_first, *srv;        /* CSR: servers of block b at srv[b1_first[b] ..] */
    int32_t *b1_leaf0, *leaf;       /* CSR: leaves (switch item - S) */
    int32_t *b1_even;               /* fabric.homing: a block's leaves of even planes, which
                                     * come first; the pair's other ToRs stand in other
                                     * racks (NULL: no pairs) */
    int32_t *b1_item;               /* first item of each level-1 block */
    double *u1;                     /* racks of each level-1 block */
    /* halls */
    int L, B, nhall;
    int32_t *hall_of;               /* per level-1 block */
    int32_t *hall_bld;              /* per hall: building */
    /* racks being placed */
    ry_rack *r;
    int nr, cap;
} tmp;

static void units_free(tmp *t)
{
    free(t->b1_first);
    free(t->srv);
    free(t->b1_leaf0);
    free(t->leaf);
    free(t->b1_item);
    free(t->b1_even);
    t->b1_first = t->srv = t->b1_leaf0 = t->leaf = t->b1_item = t->b1_even = NULL;
}

static void tmp_free(tmp *t)
{
    for (int i = 0; i <= RY_MAX_TIERS; i++)
        free(t->id[i]);
    free(t->b1_first);
    free(t->srv);
    free(t->b1_leaf0);
    free(t->leaf);
    free(t->b1_item);
    free(t->b1_even);
    free(t->u1);
    free(t->hall_of);
    free(t->hall_bld);
    free(t->r);
}

/* ---- 1. blocks --------------------------------------------------------- */

static int32_t item_of(const tmp *t, uint32_t node)
{
    const ry_fabric *f = t->f;
    return f->nodes[node].kind == RY_NODE_GPU ? (int32_t)(node / (uint32_t)t->gpn)
                                              : (int32_t)(t->S + (node - f->first_switch));
}

static int item_tier(const tmp *t, int32_t item)
{
    return item < t->S ? 0 : t->f->nodes[t->f->first_switch + (size_t)(item - t->S)].tier;
}

static void make_blocks(tmp *t)
{
    const ry_fabric *f = t->f;
    uint32_t *p = ry_xmalloc(t->ni * sizeof *p);
    for (size_t i = 0; i < t->ni; i++)
        p[i] = (uint32_t)i;
    int hb = f->spec->hb_domain;
    if (hb > t->gpn)        /* servers of one HB domain stand together */
        for (long long s = 0; s < t->S; s++)
            ry_uf_join(p, (uint32_t)s, (uint32_t)(s * t->gpn / hb * hb / t->gpn));
    /* level 0: servers of one HB domain */
    t->id[0] = ry_xmalloc(t->ni * sizeof *t->id[0]);
    t->n[0] = 0;
    for (size_t i = 0; i < t->ni; i++) {
        int32_t r = (int32_t)ry_uf_find(p, (uint32_t)i);
        t->id[0][i] = i >= (size_t)t->S ? -1 : r == (int32_t)i ? t->n[0]++ : t->id[0][r];
    }
    for (int lv = 1; lv <= t->T; lv++) {
        for (size_t l = 0; l < f->nlinks; l++) {
            uint32_t hi = f->ports[f->links[l].hi].owner, lo = f->ports[f->links[l].lo].owner;
            if (f->nodes[hi].tier == lv)
                ry_uf_join(p, (uint32_t)item_of(t, lo), (uint32_t)item_of(t, hi));
        }
        int32_t *id = ry_xmalloc(t->ni * sizeof *id);
        int n = 0;
        for (size_t i = 0; i < t->ni; i++) {
            if (item_tier(t, (int32_t)i) > lv) {
                id[i] = -1;
                continue;
            }
            int32_t r = (int32_t)ry_uf_find(p, (uint32_t)i);
            id[i] = r == (int32_t)i ? n++ : id[r];
        }
        t->id[lv] = id;
        t->n[lv] = n;
    }
    free(p);
}

/* The server a leaf serves first: its lowest cabled server. */
static long long leaf_server(const tmp *t, uint32_t sw)
{
    const ry_fabric *f = t->f;
    const ry_node *n = &f->nodes[sw];
    long long best = -1;
    for (uint32_t q = 0; q < n->nports; q++) {
        int32_t peer = f->ports[n->port0 + q].peer;
        if (peer >= 0 && f->nodes[f->ports[peer].owner].kind == RY_NODE_GPU) {
            long long sv = f->ports[peer].owner / (uint32_t)t->gpn;
            if (best < 0 || sv < best)
                best = sv;
        }
    }
    return best < 0 ? 0 : best;
}

typedef struct key3 {
    long long a, b, c;
    int32_t v;
} key3;

static int cmp_key3(const void *x, const void *y)
{
    const key3 *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return p->c < q->c ? -1 : p->c > q->c;
}

/* The units packed into halls, level-1 blocks (or HB domains when U is 0):
 * their servers (in index order) and leaves (by the server they serve
 * first, then id; with HB domains, the domain of that server). Tier-1
 * switches are the leaves. */
static void make_units(tmp *t)
{
    const int32_t *uid = t->id[t->U];
    int n1 = t->n1 = t->n[t->U];
    t->b1_first = ry_xcalloc((size_t)n1 + 1, sizeof *t->b1_first);
    t->b1_leaf0 = ry_xcalloc((size_t)n1 + 1, sizeof *t->b1_leaf0);
    t->b1_item = ry_xmalloc(((size_t)n1 + 1) * sizeof *t->b1_item);
    for (int b = 0; b < n1; b++)
        t->b1_item[b] = -1;
    for (size_t i = 0; i < t->ni; i++) {
        int32_t b = uid[i];
        if (b >= 0 && t->b1_item[b] < 0)
            t->b1_item[b] = (int32_t)i;
    }
    for (long long s = 0; s < t->S; s++)
        t->b1_first[uid[s] + 1]++;
    for (int b = 0; b < n1; b++)
        t->b1_first[b + 1] += t->b1_first[b];
    t->srv = ry_xmalloc(((size_t)t->S + 1) * sizeof *t->srv);
    int32_t *at = ry_xmalloc(((size_t)n1 + 1) * sizeof *at);
    memcpy(at, t->b1_first, (size_t)n1 * sizeof *at);
    for (long long s = 0; s < t->S; s++)
        t->srv[at[uid[s]]++] = (int32_t)s;
    free(at);
    size_t nl = 0;
    key3 *k = ry_xmalloc((t->nsw ? t->nsw : 1) * sizeof *k);
    for (size_t i = 0; i < t->nsw; i++) {
        uint32_t node = (uint32_t)(t->f->first_switch + i);
        if (t->f->nodes[node].tier != 1)
            continue;
        long long first = leaf_server(t, node);
        int32_t b = t->U ? uid[t->S + (long long)i] : uid[first];
        k[nl++] = (key3){ b, first, (long long)i, (int32_t)i };
        t->b1_leaf0[b + 1]++;
    }
    qsort(k, nl, sizeof *k, cmp_key3);
    for (int b = 0; b < n1; b++)
        t->b1_leaf0[b + 1] += t->b1_leaf0[b];
    t->leaf = ry_xmalloc((nl ? nl : 1) * sizeof *t->leaf);
    for (size_t i = 0; i < nl; i++)
        t->leaf[i] = k[i].v;
    free(k);
    /* ToR pairs (fabric.homing): a block's leaves of even planes first, its
     * odd ones after, so that the two ToRs of a pair stand in two racks */
    free(t->b1_even);
    t->b1_even = NULL;
    if (t->s->homing == RY_HOMING_SINGLE || t->in_rack)
        return;
    t->b1_even = ry_xcalloc((size_t)n1 + 1, sizeof *t->b1_even);
    int32_t *tmpv = ry_xmalloc((nl ? nl : 1) * sizeof *tmpv);
    for (int b = 0; b < n1; b++) {
        int32_t lo = t->b1_leaf0[b], hi = t->b1_leaf0[b + 1], o = lo;
        for (int odd = 0; odd < 2; odd++)
            for (int32_t x = lo; x < hi; x++)
                if (t->f->nodes[t->f->first_switch + (size_t)t->leaf[x]].plane % 2 == odd)
                    tmpv[o++] = t->leaf[x];
        for (int32_t x = lo; x < hi; x++) {
            t->leaf[x] = tmpv[x];
            t->b1_even[b] += t->f->nodes[t->f->first_switch + (size_t)tmpv[x]].plane % 2 == 0;
        }
    }
    free(tmpv);
}

/* Network racks a block's leaves take when they stand beside it: the ToRs
 * of a pair in two sets of racks (fabric.homing). */
static int leaf_racks(const tmp *t, int b, int n)
{
    if (!t->b1_even)
        return (n + t->spr - 1) / t->spr;
    int even = t->b1_even[b] < n ? t->b1_even[b] : n;
    return (even + t->spr - 1) / t->spr + (n - even + t->spr - 1) / t->spr;
}

/* ---- 2. size ----------------------------------------------------------- */

static int nsrv(const tmp *t, int b) { return t->b1_first[b + 1] - t->b1_first[b]; }
static int nleaf(const tmp *t, int b) { return t->b1_leaf0[b + 1] - t->b1_leaf0[b]; }

static int ceil_div(long long a, long long b) { return (int)((a + b - 1) / b); }

/* In-rack: the leaves of block b its compute racks cannot hold. */
static int over_leaves(const tmp *t, int b)
{
    if (!t->in_rack)
        return nleaf(t, b);
    int held = ceil_div(nsrv(t, b), t->npr) * t->rack_sw;
    return nleaf(t, b) > held ? nleaf(t, b) - held : 0;
}

/* Racks of each level-1 block: per-unit, its compute racks and leaf racks;
 * in rows with network racks, its share of whole rows. */
static void size_units(tmp *t)
{
    free(t->u1);
    t->u1 = ry_xmalloc(((size_t)t->n1 + 1) * sizeof *t->u1);
    for (int b = 0; b < t->n1; b++) {
        if (t->mode == 0)
            t->u1[b] = ceil_div(nsrv(t, b), t->npr) + leaf_racks(t, b, over_leaves(t, b));
        else
            t->u1[b] = (double)nsrv(t, b) / ((double)(t->rpr - t->nnet) * t->npr) * t->rpr;
    }
}

/* Racks of a hall holding `units` racks of level-1 blocks and `upper`
 * switches of higher tiers (whole rows in the middle). */
static long long hall_racks(const tmp *t, double units, long long upper)
{
    long long r = (long long)ceil(units - 1e-9) + (upper + t->spr - 1) / t->spr;
    if (t->mode != 0)
        r += t->rpr;        /* a row that two blocks share */
    return r;
}

typedef struct agg {
    double units, power;
    long long upper;
} agg;

/* Racks and power of every level-lv block. */
static agg *size_level(const tmp *t, int lv)
{
    agg *a = ry_xcalloc((size_t)t->n[lv] + 1, sizeof *a);
    for (int b = 0; b < t->n1; b++) {
        int32_t x = t->id[lv][t->b1_item[b]];
        a[x].units += t->u1[b];
        a[x].power += nsrv(t, b) * t->node_w + nleaf(t, b) * t->sw_w +
                      ceil_div(nsrv(t, b), t->npr) * t->tray_w;
    }
    for (size_t i = 0; i < t->nsw; i++) {
        int tier = t->f->nodes[t->f->first_switch + i].tier;
        if (tier < 2 || tier > lv)
            continue;
        int32_t x = t->id[lv][t->S + (long long)i];
        a[x].upper++;
        a[x].power += ry_node_model_of(t->f, &t->f->nodes[t->f->first_switch + i])->power_w;
    }
    return a;
}

static int fits_hall(const tmp *t, const agg *a)
{
    return hall_racks(t, a->units, a->upper) <= t->s->layout.hall_racks &&
           a->power <= t->hall_w * (1 + 1e-12);
}

/* ---- 3. halls ---------------------------------------------------------- */

/* Sort key of a level-1 block: its blocks from the top level down to L+1. */
static int cmp_units(const void *x, const void *y, void *ctx)
{
    const tmp *t = ctx;
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    for (int lv = t->T; lv > t->L; lv--) {
        int32_t p = t->id[lv][t->b1_item[a]], q = t->id[lv][t->b1_item[b]];
        if (p != q)
            return p < q ? -1 : 1;
    }
    int32_t p = t->id[t->L][t->b1_item[a]], q = t->id[t->L][t->b1_item[b]];
    if (p != q)
        return p < q ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* qsort has no context argument in C11: a sort over small keys instead. */
static void sort_units(tmp *t, int32_t *order)
{
    key3 *k = ry_xmalloc(((size_t)t->n1 + 1) * sizeof *k);
    for (int b = 0; b < t->n1; b++) {
        long long hi = 0;
        for (int lv = t->T; lv > t->L; lv--)
            hi = hi * ((long long)t->n[lv] + 1) + t->id[lv][t->b1_item[b]];
        if (t->T - t->L > 2)    /* keys would overflow: compare level by level */
            hi = 0;
        k[b] = (key3){ hi, t->id[t->L][t->b1_item[b]], b, b };
    }
    qsort(k, (size_t)t->n1, sizeof *k, cmp_key3);
    for (int b = 0; b < t->n1; b++)
        order[b] = k[b].v;
    free(k);
    if (t->T - t->L > 2) {      /* insertion sort by the full key; rare and small */
        for (int i = 1; i < t->n1; i++) {
            int32_t v = order[i];
            int j = i;
            while (j > 0 && cmp_units(&order[j - 1], &v, t) > 0) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = v;
        }
    }
}

/* Chooses L and packs the units (in `order`) into halls. 1 when level-1
 * blocks are too large for a hall (then HB domains are the units). */
static int pack_halls(tmp *t, int32_t *order, ry_err *err)
{
    t->L = -1;
    for (int lv = t->T; lv >= t->U && t->L < 0; lv--) {
        agg *a = size_level(t, lv);
        int ok = 1;
        for (int b = 0; b < t->n[lv] && ok; b++)
            ok = fits_hall(t, &a[b]);
        if (ok)
            t->L = lv;
        if (lv == t->U && !ok) {
            if (t->U == 1) {
                free(a);
                return 1;
            }
            int worst = 0;
            for (int b = 1; b < t->n[lv]; b++)
                if (hall_racks(t, a[b].units, 0) > hall_racks(t, a[worst].units, 0))
                    worst = b;
            long long racks = hall_racks(t, a[worst].units, a[worst].upper);
            if (racks > t->s->layout.hall_racks)
                ry_err_set(err, "layout.hall_racks", "a hall of %d racks cannot hold the "
                           "servers of one HB domain (%lld racks); raise layout.hall_racks",
                           t->s->layout.hall_racks, racks);
            else
                ry_err_set(err, "layout.hall_power", "a hall of %.0f kW cannot power the "
                           "servers of one HB domain (%.0f kW); raise layout.hall_power",
                           t->s->layout.hall_power, a[worst].power / 1000);
            free(a);
            return -1;
        }
        free(a);
    }
    sort_units(t, order);
    free(t->hall_of);
    t->hall_of = ry_xmalloc(((size_t)t->n1 + 1) * sizeof *t->hall_of);
    /* a hall takes whole level-L blocks while they fit */
    int L = t->L;
    agg *a = size_level(t, L);
    agg cur = { 0 };
    int h = -1;
    int32_t parent = -2, blk = -1;
    for (int i = 0; i < t->n1; i++) {
        int b = order[i];
        int32_t x = t->id[L][t->b1_item[b]];
        int32_t px = L < t->T ? t->id[L + 1][t->b1_item[b]] : -1;
        if (x != blk) {
            agg next = { cur.units + a[x].units, cur.power + a[x].power, cur.upper + a[x].upper };
            if (h < 0 || px != parent || !fits_hall(t, &next)) {
                h++;
                next = a[x];
            }
            cur = next;
            blk = x;
            parent = px;
        }
        t->hall_of[b] = h;
    }
    t->nhall = h + 1;
    free(a);
    return 0;
}

/* Packs the units into halls; where a level-1 block is larger than a hall
 * (rail-only leaves join many HB domains), halls take whole HB domains
 * instead. *order is remade for the new units. */
static int pack(tmp *t, int32_t **order, ry_err *err)
{
    int rc = pack_halls(t, *order, err);
    if (rc == 1) {
        units_free(t);
        t->U = 0;
        make_units(t);
        free(*order);
        *order = ry_xmalloc(((size_t)t->n1 + 1) * sizeof **order);
        size_units(t);
        rc = pack_halls(t, *order, err);
    }
    return rc == 0 ? 0 : -1;
}

/* ---- 4. buildings ------------------------------------------------------ */

/* Level-lv block of a hall (all its units share it for lv > L). */
static int32_t hall_block(const tmp *t, const int32_t *first_unit, int h, int lv)
{
    return t->id[lv][t->b1_item[first_unit[h]]];
}

static int pack_buildings(tmp *t, const int32_t *first_unit)
{
    int hpb = t->s->layout.halls_per_building;
    t->hall_bld = ry_xmalloc(((size_t)t->nhall + 1) * sizeof *t->hall_bld);
    t->B = t->L;
    for (int lv = t->T; lv > t->L && t->B == t->L; lv--) {
        int ok = 1, run = 0;
        for (int h = 0; h < t->nhall && ok; h++) {
            run = h && hall_block(t, first_unit, h, lv) == hall_block(t, first_unit, h - 1, lv)
                      ? run + 1 : 1;
            ok = run <= hpb;
        }
        if (ok)
            t->B = lv;
    }
    int b = -1, in = 0;
    for (int h = 0; h < t->nhall;) {
        /* the halls of one level-B block (one hall when B == L) */
        int g = h + 1;
        if (t->B > t->L)
            while (g < t->nhall && hall_block(t, first_unit, g, t->B) ==
                                       hall_block(t, first_unit, h, t->B))
                g++;
        int newp = b < 0 || (t->B < t->T && hall_block(t, first_unit, h, t->B + 1) !=
                                                 hall_block(t, first_unit, h - 1, t->B + 1));
        if (newp || in + (g - h) > hpb) {
            b++;
            in = 0;
        }
        in += g - h;
        for (; h < g; h++)
            t->hall_bld[h] = b;
    }
    return b + 1;
}

/* ---- 5. racks ---------------------------------------------------------- */

static int add_rack(tmp *t, int room, int kind, int pos, int rpr)
{
    RY_ALLOC_GROW(t->r, t->nr + 1, t->cap);
    ry_rack *k = &t->r[t->nr];
    memset(k, 0, sizeof *k);
    k->kind = (uint8_t)kind;
    k->room = room;
    k->row = pos / rpr;
    k->col = pos % rpr;
    return t->nr++;
}

/* A switch into network rack `rack` on top of the switches already there
 * (a network rack holds switches only), each as high as its model. */
static void put_switch(tmp *t, ry_layout *lay, int32_t sw, int rack)
{
    const ry_node *n = &t->f->nodes[t->f->first_switch + sw];
    int u = ry_layout_switch_units(lay, n);
    lay->sw_rack[sw] = rack;
    lay->sw_unit[sw] = (int16_t)(t->s->layout.first_unit + t->r[rack].used_units);
    t->r[rack].used_units += u;
    t->r[rack].power_w += ry_node_model_of(t->f, n)->power_w;
}

/* In-rack: a leaf above the servers and trays of compute rack `rack`, the
 * k-th there (the leaves are of one tier, so of one height). */
static void put_switch_in_rack(tmp *t, ry_layout *lay, int32_t sw, int rack, int k)
{
    const ry_node *n = &t->f->nodes[t->f->first_switch + sw];
    int u = ry_layout_switch_units(lay, n);
    lay->sw_rack[sw] = rack;
    lay->sw_unit[sw] = (int16_t)(lay->tray_unit0 + ry_rack_tray_units(&t->s->node) + k * u);
    t->r[rack].used_units += u;
    t->r[rack].power_w += ry_node_model_of(t->f, n)->power_w;
}

static void put_server(tmp *t, ry_layout *lay, int32_t sv, int rack, int slot)
{
    lay->node_rack[sv] = rack;
    lay->node_unit[sv] = (int16_t)(t->s->layout.first_unit + slot * lay->node_units);
    if (!t->r[rack].trays && t->s->node.ntrays) {
        /* the rack's first server brings the rack's other trays */
        t->r[rack].trays = 1;
        t->r[rack].used_units += ry_rack_tray_units(&t->s->node);
        t->r[rack].power_w += ry_rack_tray_power(&t->s->node);
    }
    t->r[rack].used_units += lay->node_units;
    t->r[rack].power_w += t->node_w;
}

/* Switches sw[0..n) into network racks from grid position *pos (rows of
 * rpr), spr to a rack. */
static void put_switches(tmp *t, ry_layout *lay, int room, const int32_t *sw, size_t n,
                         int *pos, int rpr)
{
    int rack = -1;
    for (size_t i = 0; i < n; i++) {
        if (i % (size_t)t->spr == 0)
            rack = add_rack(t, room, RY_RACK_NETWORK, (*pos)++, rpr);
        put_switch(t, lay, sw[i], rack);
    }
}

static void next_row(int *pos, int rpr)
{
    if (*pos % rpr)
        *pos += rpr - *pos % rpr;
}

/* A hall: its level-1 blocks units[0..nu) and switches of tiers 2..L up[0..nup). */
static int fill_hall(tmp *t, ry_layout *lay, int room, const int32_t *units, int nu,
                     const int32_t *up, size_t nup, ry_err *err)
{
    int rpr = t->rpr, pos = 0, placed = nup == 0;
    double total = 0, cum = 0;
    for (int i = 0; i < nu; i++)
        total += t->u1[units[i]];
    if (t->mode == 0) {
        for (int i = 0; i < nu; i++) {
            int b = units[i];
            if (!placed && cum > 0 && cum >= total / 2) {
                next_row(&pos, rpr);
                put_switches(t, lay, room, up, nup, &pos, rpr);
                next_row(&pos, rpr);
                placed = 1;
            }
            int rack = -1, rack0 = t->nr;
            for (int k = 0; k < nsrv(t, b); k++) {
                if (k % t->npr == 0)
                    rack = add_rack(t, room, RY_RACK_COMPUTE, pos++, rpr);
                put_server(t, lay, t->srv[t->b1_first[b] + k], rack, k % t->npr);
            }
            int held = t->in_rack ? nleaf(t, b) - over_leaves(t, b) : 0;
            for (int k = 0; k < held; k++)  /* in-rack: round the unit's racks */
                put_switch_in_rack(t, lay, t->leaf[t->b1_leaf0[b] + k],
                                   rack0 + k % (t->nr - rack0), k / (t->nr - rack0));
            int even = t->b1_even ? t->b1_even[b] : nleaf(t, b);
            put_switches(t, lay, room, t->leaf + t->b1_leaf0[b] + held,
                         (size_t)(even - held), &pos, rpr);
            put_switches(t, lay, room, t->leaf + t->b1_leaf0[b] + even,
                         (size_t)(nleaf(t, b) - even), &pos, rpr);
            cum += t->u1[b];
        }
        if (!placed) {
            next_row(&pos, rpr);
            put_switches(t, lay, room, up, nup, &pos, rpr);
        }
        return 0;
    }
    /* rows of compute racks with nnet network racks each (at the end or in
     * the middle), holding the leaves whose first server is in the row */
    long long hs = 0;
    for (int i = 0; i < nu; i++)
        hs += nsrv(t, units[i]);
    int32_t *sv = ry_xmalloc(((size_t)hs + 1) * sizeof *sv);
    long long *at = ry_xmalloc(((size_t)t->S + 1) * sizeof *at);
    size_t nl = 0;
    hs = 0;
    for (int i = 0; i < nu; i++) {
        int b = units[i];
        for (int k = 0; k < nsrv(t, b); k++) {
            at[t->srv[t->b1_first[b] + k]] = hs;
            sv[hs++] = t->srv[t->b1_first[b] + k];
        }
        nl += (size_t)nleaf(t, b);
    }
    int32_t *lv = ry_xmalloc((nl ? nl : 1) * sizeof *lv);
    long long *lpos = ry_xmalloc((nl ? nl : 1) * sizeof *lpos);
    nl = 0;
    for (int i = 0; i < nu; i++)
        for (int k = t->b1_leaf0[units[i]]; k < t->b1_leaf0[units[i] + 1]; k++) {
            lv[nl] = t->leaf[k];
            lpos[nl++] = at[leaf_server(t, (uint32_t)(t->f->first_switch + (size_t)t->leaf[k]))];
        }
    free(at);
    int nnet = 1, rc = 0;
    for (;; nnet++) {
        if (nnet >= rpr) {
            ry_err_set(err, "layout.racks_per_row", "rows of %d racks cannot hold both the "
                       "servers and the leaves serving them: use more racks per row or "
                       "layout.network: per-unit", rpr);
            rc = -1;
            goto out;
        }
        long long per_row = (long long)(rpr - nnet) * t->npr;
        int fits = 1;
        for (size_t i = 0, c = 0; i < nl && fits; i++) {
            c = i && lpos[i] / per_row == lpos[i - 1] / per_row ? c + 1 : 1;
            fits = c <= (size_t)nnet * (size_t)t->spr;
        }
        if (fits)
            break;
    }
    int ncomp = rpr - nnet, netcol = t->mode == 1 ? ncomp : ncomp / 2;
    long long per_row = (long long)ncomp * t->npr;
    int nrows = hs ? (int)((hs + per_row - 1) / per_row) : 0;
    size_t li = 0;
    int row = 0;
    int *col_rack = ry_xmalloc((size_t)rpr * sizeof *col_rack);
    for (int r = 0; r < nrows; r++, row++) {
        if (!placed && r >= (nrows + 1) / 2) {
            pos = row * rpr;
            put_switches(t, lay, room, up, nup, &pos, rpr);
            next_row(&pos, rpr);
            row = pos / rpr;
            placed = 1;
        }
        /* racks only where something stands: a hall's last row may be short */
        long long first = (long long)r * per_row, nsv = hs - first < per_row ? hs - first : per_row;
        size_t l1 = li;
        while (l1 < nl && lpos[l1] / per_row == r)
            l1++;
        int ncomp_used = (int)((nsv + t->npr - 1) / t->npr);
        int nnet_used = (int)((l1 - li + (size_t)t->spr - 1) / (size_t)t->spr);
        for (int c = 0, ci = 0; c < rpr; c++) {
            int net = c >= netcol && c < netcol + nnet;
            col_rack[c] = -1;
            if (net ? c - netcol < nnet_used : ci++ < ncomp_used)
                col_rack[c] = add_rack(t, room, net ? RY_RACK_NETWORK : RY_RACK_COMPUTE,
                                       row * rpr + c, rpr);
        }
        for (long long k = 0; k < nsv; k++) {
            int c = (int)(k / t->npr);
            if (c >= netcol)
                c += nnet;
            put_server(t, lay, sv[first + k], col_rack[c], (int)(k % t->npr));
        }
        for (size_t k = 0; li < l1; li++, k++)
            put_switch(t, lay, lv[li], col_rack[netcol + (int)(k / (size_t)t->spr)]);
    }
    if (!placed) {
        pos = row * rpr;
        put_switches(t, lay, room, up, nup, &pos, rpr);
    }
    free(col_rack);
out:
    free(sv);
    free(lv);
    free(lpos);
    return rc;
}

/* Racks per row of a room of n racks, about as deep as wide. */
static int shaped_rpr(const ry_spec *s, double n)
{
    int r = (int)lround(sqrt(n * s->layout.row_pitch / s->layout.rack_pitch));
    return r < 1 ? 1 : r;
}

static int finish_room(tmp *t, ry_layout *lay, ry_room *rm, ry_err *err)
{
    const ry_spec *s = t->s;
    rm->nracks = t->nr - rm->first_rack;
    rm->rows = 0;
    for (int i = rm->first_rack; i < t->nr; i++) {
        if (t->r[i].row + 1 > rm->rows)
            rm->rows = t->r[i].row + 1;
        rm->power_w += t->r[i].power_w;
    }
    rm->width = rm->racks_per_row * s->layout.rack_pitch + 2 * MARGIN_M;
    rm->depth = rm->rows * s->layout.row_pitch + 2 * MARGIN_M;
    lay->nrows += rm->rows;
    if (s->layout.rows > 0 && rm->rows > s->layout.rows) {
        ry_err_set(err, "layout.rows", "the layout is too small: %s %d needs %d rows of %d "
                   "racks (got rows: %d); add rows or racks per row",
                   rm->kind == RY_ROOM_HALL ? "hall" : "network room", rm->number, rm->rows,
                   rm->racks_per_row, s->layout.rows);
        return -1;
    }
    return 0;
}

static int cmp_switch_desc(const void *x, const void *y, const ry_fabric *f)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    int ta = f->nodes[f->first_switch + (size_t)a].tier, tb = f->nodes[f->first_switch + (size_t)b].tier;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* The building in the middle of buildings lo..hi on the campus grid. */
static int middle_building(const ry_layout *lay, int lo, int hi)
{
    double x0 = 1e9, x1 = -1, y0 = 1e9, y1 = -1, best = 1e300;
    int mid = lo;
    for (int b = lo; b <= hi; b++) {
        x0 = fmin(x0, lay->buildings[b].gx);
        x1 = fmax(x1, lay->buildings[b].gx);
        y0 = fmin(y0, lay->buildings[b].gy);
        y1 = fmax(y1, lay->buildings[b].gy);
    }
    for (int b = lo; b <= hi; b++) {
        double d = fabs(lay->buildings[b].gx - (x0 + x1) / 2) +
                   fabs(lay->buildings[b].gy - (y0 + y1) / 2);
        if (d < best - 1e-9) {
            best = d;
            mid = b;
        }
    }
    return mid;
}

/* With HB domains as the units, a leaf stands with the first server it
 * serves; one whose servers stand in more than two halls (a rail-only leaf
 * joins one GPU of many domains) goes to the network room in the middle of
 * their buildings instead. -1 for a leaf that stays, else the building. */
static int32_t *spanning_leaves(const tmp *t, const ry_layout *lay)
{
    const ry_fabric *f = t->f;
    int32_t *where = ry_xmalloc((t->nsw ? t->nsw : 1) * sizeof *where);
    int32_t *unit_of = ry_xmalloc(((size_t)t->S + 1) * sizeof *unit_of);
    for (int b = 0; b < t->n1; b++)
        for (int k = t->b1_first[b]; k < t->b1_first[b + 1]; k++)
            unit_of[t->srv[k]] = b;
    for (size_t i = 0; i < t->nsw; i++) {
        where[i] = -1;
        const ry_node *n = &f->nodes[f->first_switch + i];
        if (t->U != 0 || n->tier != 1)
            continue;
        int hlo = -1, hhi = -1;
        for (uint32_t q = 0; q < n->nports; q++) {
            int32_t peer = f->ports[n->port0 + q].peer;
            if (peer < 0 || f->nodes[f->ports[peer].owner].kind != RY_NODE_GPU)
                continue;
            int h = t->hall_of[unit_of[f->ports[peer].owner / (uint32_t)t->gpn]];
            hlo = hlo < 0 || h < hlo ? h : hlo;
            hhi = h > hhi ? h : hhi;
        }
        if (hhi - hlo >= 2)
            where[i] = middle_building(lay, t->hall_bld[hlo], t->hall_bld[hhi]);
    }
    free(unit_of);
    return where;
}

/* Takes the leaves that go elsewhere out of their units' lists. */
static void drop_leaves(tmp *t, const int32_t *where)
{
    int o = 0;
    for (int b = 0; b < t->n1; b++) {
        int k0 = t->b1_leaf0[b], k1 = t->b1_leaf0[b + 1];
        t->b1_leaf0[b] = o;
        for (int k = k0; k < k1; k++)
            if (where[t->leaf[k]] < 0)
                t->leaf[o++] = t->leaf[k];
    }
    t->b1_leaf0[t->n1] = o;
}

static _Thread_local const ry_fabric *sort_fabric;   /* qsort's context, per thread */
static int cmp_sw(const void *x, const void *y) { return cmp_switch_desc(x, y, sort_fabric); }

static int layout_build(const ry_fabric *f, ry_layout *lay, ry_err *err);

/* A phase of a reserve (fabric/reserve.h) stands where the target's layout
 * puts it: the target's rooms and racks, each rack's space and power the
 * target's (reserved for what the later phases add), each server and switch
 * in its target rack and unit, so a later phase relocates nothing. */
static int reserve_layout(const ry_fabric *f, ry_layout *lay, ry_err *err)
{
    int rc = layout_build(f->reserve->target, lay, err);
    if (rc == 0) {
        size_t nsw = f->nnodes - f->first_switch;
        int32_t *rack = ry_xmalloc((nsw + 1) * sizeof *rack);
        int16_t *unit = ry_xmalloc((nsw + 1) * sizeof *unit);
        for (size_t i = 0; i < nsw; i++) {
            rack[i] = lay->sw_rack[f->reserve->target_sw[i]];
            unit[i] = lay->sw_unit[f->reserve->target_sw[i]];
        }
        free(lay->sw_rack);
        free(lay->sw_unit);
        lay->sw_rack = rack;
        lay->sw_unit = unit;
        lay->f = f;     /* servers keep their index: node_rack serves as it is */
    }
    return rc;
}

int ry_layout_build(const ry_fabric *f, ry_layout *lay, ry_err *err)
{
    if (f->reserve && f->reserve->target)
        return reserve_layout(f, lay, err);
    return layout_build(f, lay, err);
}

static int layout_build(const ry_fabric *f, ry_layout *lay, ry_err *err)
{
    const ry_spec *s = f->spec;
    memset(lay, 0, sizeof *lay);
    lay->f = f;
    tmp t = { 0 };
    t.f = f;
    t.s = s;
    t.T = f->tiers < 1 ? 1 : f->tiers;
    t.gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    t.S = f->gpus / t.gpn;
    t.nsw = f->nnodes - f->first_switch;
    t.ni = (size_t)t.S + t.nsw;
    t.npr = s->layout.nodes_per_rack;
    t.mode = s->layout.network >= 0 ? s->layout.network
             : s->rack_tor ? RY_NETWORK_IN_RACK : f->design == RY_DESIGN_FAT_TREE ? 1 : 0;
    if (t.mode == RY_NETWORK_IN_RACK) {
        /* placed as per-unit, but with the leaves in the servers' racks */
        t.mode = 0;
        t.in_rack = 1;
    }
    t.node_w = s->node.power_w;
    t.tray_w = ry_rack_tray_power(&s->node);
    /* Racks are packed for the most power-hungry switch model; each rack
     * then counts its own switches' power. */
    t.sw_w = s->sw.power_w;
    for (int j = 1; j <= f->tiers; j++)
        if (f->tier[j].sw && f->tier[j].sw->power_w > t.sw_w)
            t.sw_w = f->tier[j].sw->power_w;
    t.hall_w = s->layout.hall_power * 1000;
    lay->node_units = s->layout.node_units;
    lay->switch_units = s->layout.switch_units;
    for (int j = 1; j <= f->tiers; j++) {
        const ry_switch_model *m = f->tier[j].sw ? f->tier[j].sw : &s->sw;
        lay->tier_units[j] = s->layout.switch_units_set ? s->layout.switch_units
                             : m->units > 0 ? m->units : 1;
    }
    lay->gpus_per_node = t.gpn;
    lay->tray_unit0 = s->layout.first_unit + s->layout.nodes_per_rack * lay->node_units;
    if (t.in_rack) {
        int above = s->layout.rack_units + 1 - lay->tray_unit0 - ry_rack_tray_units(&s->node);
        t.rack_sw = above > 0 ? above / lay->tier_units[1] : 0;
        if (t.rack_sw < 1) {
            ry_err_set(err, "layout.network", "layout.network in-rack puts the leaves above "
                       "the servers, and a %dU rack of %d servers of %dU from unit %d has no "
                       "%dU left: fewer layout.nodes_per_rack, or another layout.network",
                       s->layout.rack_units, s->layout.nodes_per_rack, lay->node_units,
                       s->layout.first_unit, lay->tier_units[1]);
            return -1;
        }
    }
    lay->rack_budget_w = s->layout.rack_power > 0 ? s->layout.rack_power * 1000
                         : s->node.per_rack > 0 && t.node_w > 0
                         ? s->node.per_rack * t.node_w + ry_rack_tray_power(&s->node) : 0;
    int room_units = s->layout.rack_units - s->layout.first_unit + 1;
    int space = room_units / lay->switch_units;
    t.spr = space;
    if (s->layout.switches_per_rack > 0) {
        if (s->layout.switches_per_rack > space) {
            ry_err_set(err, "layout.switches_per_rack", "%d switches of %dU do not fit in a "
                       "%dU rack from unit %d (at most %d)", s->layout.switches_per_rack,
                       lay->switch_units, s->layout.rack_units, s->layout.first_unit, space);
            return -1;
        }
        t.spr = s->layout.switches_per_rack;
    } else if (lay->rack_budget_w > 0 && t.sw_w > 0 && t.sw_w * t.spr > lay->rack_budget_w) {
        t.spr = (int)(lay->rack_budget_w / t.sw_w);
        if (t.spr < 1) {
            ry_err_set(err, "layout.rack_power", "one switch (%.0f W) draws more than a rack's "
                       "power budget (%.1f kW); raise layout.rack_power",
                       t.sw_w, lay->rack_budget_w / 1000);
            return -1;
        }
    }
    lay->switches_per_rack = t.spr;

    int rc = -1;
    int32_t *order = NULL, *first_unit = NULL, *list = NULL;
    make_blocks(&t);
    t.U = 1;
    make_units(&t);
    order = ry_xmalloc(((size_t)t.n1 + 1) * sizeof *order);
    /* per-unit racks do not depend on the row length: pack, then shape the rows */
    int mode = t.mode;
    t.mode = 0;
    size_units(&t);
    if (pack(&t, &order, err) < 0)
        goto out;
    t.mode = mode;
    {
        /* the largest hall's racks decide the rows' length */
        double big = 0, cur = 0;
        for (int i = 0; i < t.n1; i++) {
            cur = i && t.hall_of[order[i]] == t.hall_of[order[i - 1]] ? cur + t.u1[order[i]]
                                                                      : t.u1[order[i]];
            if (cur > big)
                big = cur;
        }
        int g = t.n1 ? (int)t.u1[0] : 1;
        if (s->layout.racks_per_row > 0) {
            t.rpr = s->layout.racks_per_row;
        } else {
            double target = sqrt(big * s->layout.row_pitch / s->layout.rack_pitch);
            if (t.mode == 0 && g > 0 && g <= 2 * target)
                t.rpr = g * (int)fmax(1, lround(target / g));
            else
                t.rpr = (int)fmax(t.mode ? 4 : 1, lround(target));
        }
    }
    if (t.mode != 0) {
        if (t.rpr < 2) {
            ry_err_set(err, "layout.racks_per_row", "layout.network %s needs at least 2 racks "
                       "per row (got racks_per_row: %d)",
                       t.mode == 1 ? "end-of-row" : "middle-of-row", t.rpr);
            goto out;
        }
        /* network racks per row: enough for the densest row's leaves */
        long long leaves = 0;
        for (int b = 0; b < t.n1; b++)
            leaves += nleaf(&t, b);
        double rho = t.S ? (double)leaves / (double)t.S : 0;
        t.nnet = 1;
        while (t.nnet < t.rpr - 1 && t.nnet < ceil(rho * (t.rpr - t.nnet) * t.npr / t.spr))
            t.nnet++;
        size_units(&t);
        if (pack(&t, &order, err) < 0)
            goto out;
    }
    lay->racks_per_row = t.rpr;
    lay->hall_level = t.L;

    /* halls in order and their first level-1 block */
    first_unit = ry_xmalloc(((size_t)t.nhall + 1) * sizeof *first_unit);
    for (int i = t.n1 - 1; i >= 0; i--)
        first_unit[t.hall_of[order[i]]] = order[i];
    int nb = t.L < t.T ? pack_buildings(&t, first_unit) : 1;
    if (t.L == t.T) {
        t.B = t.T;
        t.hall_bld = ry_xcalloc((size_t)t.nhall + 1, sizeof *t.hall_bld);
    }
    lay->building_level = t.B;
    lay->nbuildings = nb;
    lay->buildings = ry_xcalloc((size_t)nb, sizeof *lay->buildings);
    int gcols = (int)ceil(sqrt((double)nb));
    for (int b = 0; b < nb; b++) {
        lay->buildings[b].gx = b % gcols;
        lay->buildings[b].gy = b / gcols;
    }
    /* above B, a block's switches stand in the building in the middle of
     * the block's buildings (the campus' middle for the top tier) */
    int32_t *centre[RY_MAX_TIERS + 1] = { 0 };
    for (int lv = t.B + 1; lv <= t.T; lv++) {
        int nx = t.n[lv];
        int32_t *lo = ry_xmalloc(((size_t)nx + 1) * sizeof *lo);
        int32_t *hi = ry_xmalloc(((size_t)nx + 1) * sizeof *hi);
        for (int x = 0; x < nx; x++)
            lo[x] = hi[x] = -1;
        for (int b = 0; b < t.n1; b++) {
            int32_t x = t.id[lv][t.b1_item[b]], bl = t.hall_bld[t.hall_of[b]];
            if (lo[x] < 0 || bl < lo[x])
                lo[x] = bl;
            if (bl > hi[x])
                hi[x] = bl;
        }
        centre[lv] = ry_xcalloc((size_t)nx + 1, sizeof *centre[lv]);
        for (int x = 0; x < nx; x++) {
            if (lo[x] < 0)
                continue;
            centre[lv][x] = middle_building(lay, lo[x], hi[x]);
        }
        free(lo);
        free(hi);
    }

    /* where every switch above the leaves goes: its hall (tiers 2..L), its
     * building's network room (L+1..B) or the middle one of its block's buildings (above B) */
    int32_t *span = spanning_leaves(&t, lay);
    drop_leaves(&t, span);
    int32_t *sw_dest = ry_xmalloc((t.nsw ? t.nsw : 1) * sizeof *sw_dest);
    {
        int32_t *hall_of_L = ry_xcalloc((size_t)t.n[t.L] + 1, sizeof *hall_of_L);
        int32_t *bld_of_B = ry_xcalloc((size_t)t.n[t.B] + 1, sizeof *bld_of_B);
        for (int b = 0; b < t.n1; b++) {
            hall_of_L[t.id[t.L][t.b1_item[b]]] = t.hall_of[b];
            bld_of_B[t.id[t.B][t.b1_item[b]]] = t.hall_bld[t.hall_of[b]];
        }
        for (size_t i = 0; i < t.nsw; i++) {
            int tier = f->nodes[f->first_switch + i].tier;
            int32_t it = (int32_t)(t.S + (long long)i);
            if (tier < 2)
                sw_dest[i] = span[i] >= 0 ? t.nhall + span[i] : -1;
            else if (tier <= t.L)
                sw_dest[i] = hall_of_L[t.id[t.L][it]];
            else if (tier <= t.B)
                sw_dest[i] = t.nhall + bld_of_B[t.id[t.B][it]];
            else
                sw_dest[i] = t.nhall + centre[tier][t.id[tier][it]];
        }
        free(hall_of_L);
        free(bld_of_B);
        free(span);
        for (int lv = 0; lv <= RY_MAX_TIERS; lv++)
            free(centre[lv]);
    }
    /* switches grouped by destination: halls, then buildings' rooms */
    int ndest = t.nhall + nb;
    int32_t *dest0 = ry_xcalloc((size_t)ndest + 1, sizeof *dest0);
    list = ry_xmalloc((t.nsw ? t.nsw : 1) * sizeof *list);
    for (size_t i = 0; i < t.nsw; i++)
        if (sw_dest[i] >= 0)
            dest0[sw_dest[i] + 1]++;
    for (int d = 0; d < ndest; d++)
        dest0[d + 1] += dest0[d];
    {
        int32_t *at = ry_xmalloc(((size_t)ndest + 1) * sizeof *at);
        memcpy(at, dest0, (size_t)ndest * sizeof *at);
        for (size_t i = 0; i < t.nsw; i++)
            if (sw_dest[i] >= 0)
                list[at[sw_dest[i]]++] = (int32_t)i;
        free(at);
    }
    free(sw_dest);
    sort_fabric = f;
    for (int d = 0; d < ndest; d++)
        qsort(list + dest0[d], (size_t)(dest0[d + 1] - dest0[d]), sizeof *list, cmp_sw);

    lay->node_rack = ry_xmalloc(((size_t)t.S + 1) * sizeof *lay->node_rack);
    lay->node_unit = ry_xmalloc(((size_t)t.S + 1) * sizeof *lay->node_unit);
    lay->sw_rack = ry_xmalloc((t.nsw ? t.nsw : 1) * sizeof *lay->sw_rack);
    lay->sw_unit = ry_xmalloc((t.nsw ? t.nsw : 1) * sizeof *lay->sw_unit);
    for (size_t i = 0; i < t.nsw; i++)
        lay->sw_rack[i] = -1;
    int nrooms_max = t.nhall + nb;
    lay->rooms = ry_xcalloc((size_t)nrooms_max, sizeof *lay->rooms);
    int nnet = 0;
    {
        /* units of each hall, in order */
        int32_t *u0 = ry_xcalloc((size_t)t.nhall + 1, sizeof *u0);
        for (int i = 0; i < t.n1; i++)
            u0[t.hall_of[order[i]] + 1]++;
        for (int h = 0; h < t.nhall; h++)
            u0[h + 1] += u0[h];
        int h = 0;
        for (int b = 0; b < nb; b++) {
            int h0 = h;
            while (h < t.nhall && t.hall_bld[h] == b)
                h++;
            int nh = h - h0, mid = nh / 2;
            lay->buildings[b].nhalls = nh;
            int hasnet = dest0[t.nhall + b + 1] > dest0[t.nhall + b];
            for (int k = 0; k <= nh; k++) {
                if (k == mid && hasnet) {
                    ry_room *rm = &lay->rooms[lay->nrooms++];
                    rm->kind = RY_ROOM_NETWORK;
                    rm->number = ++nnet;
                    rm->building = b;
                    rm->first_rack = t.nr;
                    size_t n = (size_t)(dest0[t.nhall + b + 1] - dest0[t.nhall + b]);
                    rm->racks_per_row = s->layout.racks_per_row > 0
                                            ? s->layout.racks_per_row
                                            : shaped_rpr(s, (double)((n + (size_t)t.spr - 1) /
                                                                     (size_t)t.spr));
                    int pos = 0;
                    put_switches(&t, lay, lay->nrooms - 1, list + dest0[t.nhall + b], n, &pos,
                                 rm->racks_per_row);
                    if (finish_room(&t, lay, rm, err) < 0) {
                        free(u0);
                        goto out_rooms;
                    }
                }
                if (k == nh)
                    break;
                int hh = h0 + k;
                ry_room *rm = &lay->rooms[lay->nrooms++];
                rm->kind = RY_ROOM_HALL;
                rm->number = hh + 1;
                rm->building = b;
                rm->first_rack = t.nr;
                rm->racks_per_row = t.rpr;
                if (fill_hall(&t, lay, lay->nrooms - 1, order + u0[hh], u0[hh + 1] - u0[hh],
                              list + dest0[hh], (size_t)(dest0[hh + 1] - dest0[hh]), err) < 0 ||
                    finish_room(&t, lay, rm, err) < 0) {
                    free(u0);
                    goto out_rooms;
                }
                if (rm->nracks > s->layout.hall_racks) {
                    ry_err_set(err, "layout.hall_racks", "hall %d needs %d racks, more than "
                               "layout.hall_racks (%d); raise it or use layout.network: "
                               "per-unit", rm->number, rm->nracks, s->layout.hall_racks);
                    free(u0);
                    goto out_rooms;
                }
            }
        }
        free(u0);
    }
    lay->nhalls = t.nhall;

    /* geometry: rooms in pairs across each building's corridor */
    {
        double maxlen = 0, maxdep = 0;
        for (int b = 0, i = 0; b < nb; b++) {
            ry_building *bd = &lay->buildings[b];
            double x = 0, dep[2] = { 0, 0 };
            int net = -1, i0 = i;
            /* a building with an odd number of rooms ends with one alone:
             * the next building's rooms start right after it */
            while (i < lay->nrooms && lay->rooms[i].building == b) {
                ry_room *p = &lay->rooms[i];
                ry_room *q = i + 1 < lay->nrooms && lay->rooms[i + 1].building == b ? p + 1 : NULL;
                p->side = 0;
                p->x0 = x;
                double w = p->width;
                if (q) {
                    q->side = 1;
                    q->x0 = x;
                    w = fmax(w, q->width);
                }
                x += w + s->layout.hall_gap;
                i += q ? 2 : 1;
            }
            for (int k = i0; k < i; k++) {
                ry_room *rm = &lay->rooms[k];
                if (rm->kind == RY_ROOM_NETWORK)
                    net = k;
                dep[rm->side] = fmax(dep[rm->side], rm->depth);
            }
            bd->depth = dep[0] + s->layout.hall_gap + dep[1];
            bd->length = x > 0 ? x - s->layout.hall_gap : 0;
            bd->entry = net >= 0 ? lay->rooms[net].x0 + lay->rooms[net].width / 2 : bd->length / 2;
            maxlen = fmax(maxlen, bd->length);
            maxdep = fmax(maxdep, bd->depth);
        }
        lay->pitch_x = maxlen + s->layout.building_gap;
        lay->pitch_y = maxdep + s->layout.building_gap;
    }
    lay->racks = t.r;
    lay->nracks = t.nr;
    t.r = NULL;
    rc = 0;
out_rooms:
    free(dest0);
out:
    free(list);
    free(order);
    free(first_unit);
    tmp_free(&t);
    if (rc < 0)
        ry_layout_free(lay);
    return rc;
}

void ry_layout_free(ry_layout *lay)
{
    free(lay->racks);
    free(lay->rooms);
    free(lay->buildings);
    free(lay->node_rack);
    free(lay->node_unit);
    free(lay->sw_rack);
    free(lay->sw_unit);
    memset(lay, 0, sizeof *lay);
}

void ry_layout_where(const ry_layout *lay, uint32_t node, int *rack, int *unit, int *units)
{
    const ry_fabric *f = lay->f;
    if (f->nodes[node].kind == RY_NODE_GPU) {
        long long sv = node / (uint32_t)lay->gpus_per_node;
        *rack = lay->node_rack[sv];
        *unit = lay->node_unit[sv];
        *units = lay->node_units;
    } else {
        *rack = lay->sw_rack[node - f->first_switch];
        *unit = lay->sw_unit[node - f->first_switch];
        *units = ry_layout_switch_units(lay, &f->nodes[node]);
    }
}

int ry_layout_tray_unit(const ry_layout *lay, int k, int c)
{
    const ry_node_model *m = &lay->f->spec->node;
    int u = lay->tray_unit0;
    for (int i = 0; i < k && i < m->ntrays; i++)
        u += m->trays[i].per_rack * m->trays[i].units;
    return u + c * m->trays[k].units;
}

int ry_rack_name(const ry_layout *lay, int rack, char *buf, size_t n)
{
    const ry_rack *k = &lay->racks[rack];
    if (lay->nrooms <= 1)
        return snprintf(buf, n, "R%02d-%02d", k->row + 1, k->col + 1);
    const ry_room *rm = &lay->rooms[k->room];
    if (rm->kind == RY_ROOM_HALL)
        return snprintf(buf, n, "H%02d-R%02d-%02d", rm->number, k->row + 1, k->col + 1);
    return snprintf(buf, n, "N%d-R%02d-%02d", rm->number, k->row + 1, k->col + 1);
}

/* From a rack's top to its room's door, along the trays. */
static double to_door(const ry_layout *lay, const ry_rack *k)
{
    const ry_spec *s = lay->f->spec;
    const ry_room *rm = &lay->rooms[k->room];
    return fabs(k->col + 0.5 - rm->racks_per_row / 2.0) * s->layout.rack_pitch +
           (k->row + 0.5) * s->layout.row_pitch + MARGIN_M;
}

double ry_layout_route_m(const ry_layout *lay, uint32_t a, uint32_t b)
{
    const ry_spec *s = lay->f->spec;
    int ra, ua, na, rb, ub, nb;
    ry_layout_where(lay, a, &ra, &ua, &na);
    ry_layout_where(lay, b, &rb, &ub, &nb);
    double ha = PLINTH_M + (ua - 1 + na / 2.0) * UNIT_M;
    double hb = PLINTH_M + (ub - 1 + nb / 2.0) * UNIT_M;
    if (ra == rb)
        return fabs(ha - hb);
    const ry_rack *x = &lay->racks[ra], *y = &lay->racks[rb];
    double ends = (s->layout.tray_height - ha) + (s->layout.tray_height - hb);
    if (x->room == y->room)
        return ends + fabs((double)(x->col - y->col)) * s->layout.rack_pitch +
               fabs((double)(x->row - y->row)) * s->layout.row_pitch;
    const ry_room *p = &lay->rooms[x->room], *q = &lay->rooms[y->room];
    double dp = p->x0 + p->width / 2, dq = q->x0 + q->width / 2;
    double along;
    if (p->building == q->building) {
        along = fabs(dp - dq) + (p->side != q->side ? s->layout.hall_gap : 0);
    } else {
        const ry_building *bp = &lay->buildings[p->building], *bq = &lay->buildings[q->building];
        along = fabs(dp - bp->entry) + fabs(dq - bq->entry) + s->layout.hall_gap +
                abs(bp->gx - bq->gx) * lay->pitch_x + abs(bp->gy - bq->gy) * lay->pitch_y;
    }
    return ends + to_door(lay, x) + along + to_door(lay, y);
}
