/* The boxes and bundles of a diagram's view (see diagram.h).
 *
 * Boxes are keyed so that rows line up: a switch's key is its pod (tier 1,
 * 2: the tier-2 block it sits in; above: the first pod below it), with the
 * rail in front where rails are drawn apart (rail-only summary, unit view).
 * A row with too many keys is cut into at most COLS ranges of a power-of-two
 * width shared by every row of the plane, so a range of pods below lines up
 * with the blocks above it. */
#include "analysis/diagram.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

#define COLS 8              /* boxes per tier row and plane, when aggregated */
#define LEAF_SINGLE 16      /* rail and unit views name up to this many leaves */
#define UPPER_SINGLE 8      /* ... and this many switches of an upper tier */
#define HB_SINGLE 8         /* the unit view draws up to this many HB domains one by one */
#define HB_CELLS 16         /* rail ports drawn on an HB box of the unit view, at most */
#define LABEL_LINES 4       /* more lines than this, all alike, between two tiers: one note */
#define KEY_BITS 40
#define KEY_MIXED ((1ULL << KEY_BITS) - 1)

/* ---- a small hash map: 64-bit key -> index ------------------------------ */

typedef struct map {
    uint64_t *k;
    int32_t *v;
    size_t cap, n;
} map;

static size_t map_hash(uint64_t k, size_t cap)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 17) & (cap - 1);
}

static void map_free(map *m)
{
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* The value slot of key: -1 when new (the caller sets it). */
static int32_t *map_slot(map *m, uint64_t key)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        uint64_t *nk = ry_xcalloc(nc, sizeof *nk);
        int32_t *nv = ry_xmalloc(nc * sizeof *nv);
        for (size_t i = 0; i < nc; i++)
            nv[i] = -1;
        for (size_t i = 0; i < m->cap; i++) {
            if (m->v[i] < 0)
                continue;
            size_t h = map_hash(m->k[i], nc);
            while (nv[h] >= 0)
                h = (h + 1) & (nc - 1);
            nk[h] = m->k[i];
            nv[h] = m->v[i];
        }
        free(m->k);
        free(m->v);
        m->k = nk;
        m->v = nv;
        m->cap = nc;
    }
    size_t h = map_hash(key, m->cap);
    while (m->v[h] >= 0 && m->k[h] != key)
        h = (h + 1) & (m->cap - 1);
    if (m->v[h] < 0) {
        m->k[h] = key;
        m->n++;
    }
    return &m->v[h];
}

/* ---- views --------------------------------------------------------------- */

int ry_view_parse(const char *text, ry_view *v)
{
    const char *num = NULL;
    if (strcmp(text, "summary") == 0) {
        v->kind = RY_VIEW_SUMMARY;
    } else if (strcmp(text, "full") == 0) {
        v->kind = RY_VIEW_FULL;
    } else if (strncmp(text, "rail=", 5) == 0) {
        v->kind = RY_VIEW_RAIL;
        num = text + 5;
    } else if (strncmp(text, "unit=", 5) == 0) {
        v->kind = RY_VIEW_UNIT;
        num = text + 5;
    } else {
        return -1;
    }
    v->n = 0;
    if (num) {
        char *end;
        errno = 0;
        long long x = strtoll(num, &end, 10);
        if (errno || end == num || *end != '\0')
            return -2;
        /* units are counted from 1, as in Slurm's suN and floor.csv */
        v->n = v->kind == RY_VIEW_UNIT ? x - 1 : x;
    }
    return 0;
}

void ry_view_list(const ry_fabric *f, char *buf, size_t n)
{
    char r[32] = "0", u[32] = "1";
    if (f->rails > 1)
        snprintf(r, sizeof r, "0-%d", f->rails - 1);
    if (f->num_units > 1)
        snprintf(u, sizeof u, "1-%d", f->num_units);
    snprintf(buf, n, "summary, rail=N (N = %s), unit=N (N = %s), full", r, u);
}

int ry_view_check(const ry_fabric *f, const ry_view *v, char *msg, size_t n)
{
    if (v->kind == RY_VIEW_RAIL && (v->n < 0 || v->n >= f->rails)) {
        if (f->rails == 1)
            snprintf(msg, n, "no rail %lld: %s has one rail, rail=0", v->n, f->spec->name);
        else
            snprintf(msg, n, "no rail %lld: %s has %d rails, rail=0 to rail=%d", v->n,
                     f->spec->name, f->rails, f->rails - 1);
        return -1;
    }
    if (v->kind == RY_VIEW_UNIT && (v->n < 0 || v->n >= f->num_units)) {
        if (f->num_units == 1)
            snprintf(msg, n, "no scalable unit %lld: %s has one, unit=1", v->n + 1, f->spec->name);
        else
            snprintf(msg, n, "no scalable unit %lld: %s has %d, unit=1 to unit=%d", v->n + 1,
                     f->spec->name, f->num_units, f->num_units);
        return -1;
    }
    return 0;
}

/* ---- boxes and bundles ---------------------------------------------------- */

/* The walk's working state; the boxes, bundles and notes move into the
 * ry_diagram at the end, the rest is freed. */
typedef struct ctx {
    const ry_fabric *f;
    ry_view v;
    int K, gpn, S;
    long long domains;
    int32_t *pod;           /* per switch (id - first_switch) */
    int32_t *boxof;         /* per node: box; -1 not drawn; -2 drawn, no box yet */
    ry_diagram_box *bx;
    size_t nbx, capbx, nsbx;        /* nsbx: switch boxes come first */
    map bmap;
    ry_diagram_bundle *bd;
    size_t nbd, capbd;
    map dmap;
    int hb_single;
    ry_diagram_note note[RY_MAX_TIERS + 1];
} ctx;

static const ry_node *owner(const ry_fabric *f, uint32_t port)
{
    return &f->nodes[f->ports[port].owner];
}

int ry_diagram_link_rail(const ry_node *lo, const ry_node *hi)
{
    if (lo->kind == RY_NODE_GPU)
        return lo->rail;
    return hi->rail >= 0 && hi->nrails <= 1 ? hi->rail : -1;
}

static int carries(const ry_node *n, long long rail)
{
    if (n->rail < 0)
        return 0;
    int nr = n->nrails > 0 ? n->nrails : 1;
    return rail >= n->rail && rail < (long long)n->rail + nr;
}

/* Pod of every switch: leaves the tier-2 block above them, tier 2 its own,
 * higher tiers the first pod below them; 0 where there is no tier 2. */
static void compute_pods(ctx *c)
{
    const ry_fabric *f = c->f;
    size_t nsw = f->nnodes - f->first_switch;
    c->pod = ry_xmalloc((nsw ? nsw : 1) * sizeof *c->pod);
    for (size_t i = 0; i < nsw; i++) {
        const ry_node *n = &f->nodes[f->first_switch + i];
        c->pod[i] = n->tier == 2 ? n->group : n->tier == 1 ? -1 : INT32_MAX;
    }
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *lo = owner(f, f->links[l].lo), *hi = owner(f, f->links[l].hi);
        if (lo->kind == RY_NODE_SWITCH && lo->tier == 1 && hi->tier == 2) {
            int32_t *p = &c->pod[f->ports[f->links[l].lo].owner - f->first_switch];
            if (*p < 0)
                *p = hi->group;
        }
    }
    for (int j = 3; j <= f->tiers; j++)
        for (size_t l = 0; l < f->nlinks; l++) {
            uint32_t a = f->ports[f->links[l].lo].owner, b = f->ports[f->links[l].hi].owner;
            if (f->nodes[b].tier != j || f->nodes[a].kind != RY_NODE_SWITCH)
                continue;
            int32_t pa = c->pod[a - f->first_switch];
            int32_t *pb = &c->pod[b - f->first_switch];
            if (pa >= 0 && pa < *pb)
                *pb = pa;
        }
    for (size_t i = 0; i < nsw; i++)
        if (c->pod[i] < 0 || c->pod[i] == INT32_MAX)
            c->pod[i] = 0;
}

/* Marks what the view draws: boxof = -2 for drawn nodes, -1 for the rest. */
static void select_nodes(ctx *c)
{
    const ry_fabric *f = c->f;
    c->boxof = ry_xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *c->boxof);
    for (size_t i = 0; i < f->nnodes; i++) {
        const ry_node *n = &f->nodes[i];
        int on = 1;
        if (c->v.kind == RY_VIEW_RAIL)
            on = n->kind == RY_NODE_GPU ? n->rail == c->v.n : carries(n, c->v.n);
        else if (c->v.kind == RY_VIEW_UNIT)
            on = n->kind == RY_NODE_GPU && n->group / c->S == c->v.n;
        c->boxof[i] = on ? -2 : -1;
    }
    if (c->v.kind != RY_VIEW_UNIT)
        return;
    /* the unit's leaves, then upwards every switch a drawn switch links to */
    for (int j = 0; j < f->tiers; j++)
        for (size_t l = 0; l < f->nlinks; l++) {
            uint32_t a = f->ports[f->links[l].lo].owner, b = f->ports[f->links[l].hi].owner;
            if (f->nodes[a].tier == j && c->boxof[a] == -2)
                c->boxof[b] = -2;
        }
}

static ry_diagram_box *new_box(ctx *c, uint64_t tag, int32_t *slot)
{
    RY_ALLOC_GROW(c->bx, c->nbx + 1, c->capbx);
    ry_diagram_box *x = &c->bx[c->nbx];
    memset(x, 0, sizeof *x);
    x->tag = tag;
    x->rail_lo = x->rail_hi = -1;
    x->unit_lo = x->unit_hi = -1;
    x->grp_lo = x->grp_hi = -1;
    x->dom_lo = x->dom_hi = -1;
    *slot = (int32_t)c->nbx++;
    return x;
}

static void widen(int *lo, int *hi, int a, int b)
{
    if (a < 0)
        return;
    if (*lo < 0 || a < *lo)
        *lo = a;
    if (b > *hi)
        *hi = b;
}

static int cmp_tag(const void *a, const void *b)
{
    const ry_diagram_box *x = a, *y = b;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* Sorts boxes [from, nbx) by tag and renumbers the nodes that point at them. */
static void sort_boxes(ctx *c, size_t from)
{
    size_t n = c->nbx - from;
    if (n == 0)
        return;
    uint64_t *tags = ry_xmalloc(n * sizeof *tags);
    for (size_t i = 0; i < n; i++)
        tags[i] = c->bx[from + i].tag;
    qsort(c->bx + from, n, sizeof *c->bx, cmp_tag);
    /* tags are unique: find each old box's new place */
    int32_t *remap = ry_xmalloc(n * sizeof *remap);
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (c->bx[from + mid].tag < tags[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        remap[i] = (int32_t)(from + lo);
    }
    for (size_t i = 0; i < c->f->nnodes; i++)
        if (c->boxof[i] >= (int32_t)from)
            c->boxof[i] = remap[c->boxof[i] - (int32_t)from];
    free(remap);
    free(tags);
}

static long long pow2_width(long long span, int cols)
{
    long long w = 1;
    while ((span + w - 1) / w > cols)
        w *= 2;
    return w;
}

static void make_switch_boxes(ctx *c)
{
    const ry_fabric *f = c->f;
    int P = f->planes, T = f->tiers;
    size_t nsw = f->nnodes - f->first_switch;
    int32_t maxpod = 0;
    for (size_t i = 0; i < nsw; i++)
        if (c->pod[i] > maxpod)
            maxpod = c->pod[i];
    long long podw = 1;
    while (podw <= maxpod)
        podw *= 2;
    int rail_major = c->v.kind == RY_VIEW_UNIT
                     || (c->v.kind == RY_VIEW_SUMMARY && f->design == RY_DESIGN_RAIL_ONLY);

    long long *kmin = ry_xmalloc((size_t)P * sizeof *kmin), *kmax = ry_xmalloc((size_t)P * sizeof *kmax);
    long long *rowcount = ry_xcalloc((size_t)P * (size_t)(T + 1), sizeof *rowcount);
    for (int p = 0; p < P; p++) {
        kmin[p] = -1;
        kmax[p] = -1;
    }
    long long *key = ry_xmalloc((nsw ? nsw : 1) * sizeof *key);
    for (size_t i = 0; i < nsw; i++) {
        uint32_t id = f->first_switch + (uint32_t)i;
        const ry_node *n = &f->nodes[id];
        if (c->boxof[id] != -2)
            continue;
        key[i] = c->pod[i] + (rail_major ? (long long)(n->rail < 0 ? 0 : n->rail) * podw : 0);
        if (kmin[n->plane] < 0 || key[i] < kmin[n->plane])
            kmin[n->plane] = key[i];
        if (key[i] > kmax[n->plane])
            kmax[n->plane] = key[i];
        rowcount[(size_t)n->plane * (size_t)(T + 1) + n->tier]++;
    }
    for (size_t i = 0; i < nsw; i++) {
        uint32_t id = f->first_switch + (uint32_t)i;
        const ry_node *n = &f->nodes[id];
        if (c->boxof[id] != -2)
            continue;
        long long rows = rowcount[(size_t)n->plane * (size_t)(T + 1) + n->tier];
        int single = c->v.kind != RY_VIEW_SUMMARY
                     && rows <= (n->tier == 1 ? LEAF_SINGLE : UPPER_SINGLE);
        long long w = pow2_width(kmax[n->plane] - kmin[n->plane] + 1, COLS);
        uint64_t col = single ? (uint64_t)n->index : (uint64_t)((key[i] - kmin[n->plane]) / w);
        uint64_t tag = ((uint64_t)(15 - n->tier) << 56) | ((uint64_t)n->plane << KEY_BITS) | col;
        int32_t *slot = map_slot(&c->bmap, tag);
        ry_diagram_box *x;
        if (*slot < 0) {
            x = new_box(c, tag, slot);
            x->single = single;
            x->first = id;
            x->tier = n->tier;
            x->plane = n->plane;
        } else {
            x = &c->bx[*slot];
        }
        c->boxof[id] = *slot;
        x->count++;
        widen(&x->rail_lo, &x->rail_hi, n->rail, n->rail + (n->nrails > 0 ? n->nrails : 1) - 1);
        if (n->tier >= 2)
            widen(&x->grp_lo, &x->grp_hi, n->group, n->group);
        if (n->tier == 1 && f->design != RY_DESIGN_FAT_TREE && T > 1)
            widen(&x->unit_lo, &x->unit_hi, n->group, n->group);
    }
    free(key);
    free(rowcount);
    free(kmin);
    free(kmax);
    sort_boxes(c, 0);
    c->nsbx = c->nbx;
}

static void make_hb_boxes(ctx *c)
{
    const ry_fabric *f = c->f;
    long long d0 = 0, d1 = c->domains;
    long long w = 1;
    if (c->v.kind == RY_VIEW_UNIT) {
        d0 = c->v.n * c->S;
        d1 = d0 + c->S < c->domains ? d0 + c->S : c->domains;
        /* few rails: the domains in up to COLS boxes, each with a port per
         * rail, one line per port to its rail's leaf; many rails: one ry_diagram_box */
        long long nd = d1 - d0;
        int cells = (long long)f->rails * f->planes <= HB_CELLS;
        c->hb_single = cells && nd <= HB_SINGLE;
        w = c->hb_single ? 1 : cells ? pow2_width(nd, COLS) : pow2_width(nd, 1);
    }
    for (long long d = d0; d < d1; d++) {
        uint32_t g0 = (uint32_t)(d * c->K);
        uint64_t key = KEY_MIXED;
        int first = 1, shown = 0;
        for (uint32_t g = g0; g < g0 + (uint32_t)c->K; g++) {
            if (c->boxof[g] != -2)
                continue;
            shown++;
            if (c->v.kind == RY_VIEW_UNIT)
                continue;
            /* the box of the leaf its plane-0 port hangs off */
            int32_t peer = f->ports[f->nodes[g].port0].peer;
            int32_t lb = peer < 0 ? -1 : c->boxof[f->ports[peer].owner];
            uint64_t k = lb < 0 ? KEY_MIXED : (uint64_t)lb;
            if (first)
                key = k;
            else if (k != key)
                key = KEY_MIXED;
            first = 0;
        }
        if (!shown)
            continue;
        if (c->v.kind == RY_VIEW_UNIT)
            key = (uint64_t)((d - d0) / w);
        uint64_t tag = (15ULL << 56) | key;
        int32_t *slot = map_slot(&c->bmap, tag);
        ry_diagram_box *x;
        if (*slot < 0) {
            x = new_box(c, tag, slot);
            x->hb = 1;
            x->single = c->v.kind == RY_VIEW_UNIT && c->hb_single;
            x->first = g0;
            if (c->v.kind == RY_VIEW_UNIT && (long long)f->rails * f->planes <= HB_CELLS)
                x->cells = f->rails * f->planes;
        } else {
            x = &c->bx[*slot];
        }
        x->count++;
        x->gpus += shown;
        if (x->dom_lo < 0)
            x->dom_lo = d;
        x->dom_hi = d;
        widen(&x->unit_lo, &x->unit_hi, (int)(d / c->S), (int)(d / c->S));
        for (uint32_t g = g0; g < g0 + (uint32_t)c->K; g++) {
            if (c->boxof[g] != -2)
                continue;
            c->boxof[g] = *slot;
            widen(&x->rail_lo, &x->rail_hi, f->nodes[g].rail, f->nodes[g].rail);
        }
    }
    sort_boxes(c, c->nsbx);
}

static int cmp_bundle(const void *a, const void *b)
{
    const ry_diagram_bundle *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void make_bundles(ctx *c)
{
    const ry_fabric *f = c->f;
    for (size_t l = 0; l < f->nlinks; l++) {
        uint32_t lp = f->links[l].lo, hp = f->links[l].hi;
        uint32_t a = f->ports[lp].owner, b = f->ports[hp].owner;
        int32_t ba = c->boxof[a], bb = c->boxof[b];
        if (ba < 0 || bb < 0)
            continue;
        const ry_node *lo = &f->nodes[a], *hi = &f->nodes[b];
        int port = -1;
        if (c->bx[ba].cells)
            port = lo->rail * f->planes + (int)(lp - lo->port0);
        uint64_t key = ((uint64_t)bb << 40) | ((uint64_t)ba << 16) | (uint64_t)(port + 1);
        int32_t *slot = map_slot(&c->dmap, key);
        if (*slot < 0) {
            RY_ALLOC_GROW(c->bd, c->nbd + 1, c->capbd);
            ry_diagram_bundle *nb = &c->bd[c->nbd];
            memset(nb, 0, sizeof *nb);
            nb->key = key;
            nb->up = bb;
            nb->down = ba;
            nb->port = port;
            nb->speed = ry_link_gbps(f, (uint32_t)l);
            nb->rail = -2;
            *slot = (int32_t)c->nbd++;
        }
        ry_diagram_bundle *x = &c->bd[*slot];
        double g = ry_link_gbps(f, (uint32_t)l);
        x->n++;
        x->gbps += g;
        if (g != x->speed)
            x->speed = -1;
        int r = ry_diagram_link_rail(lo, hi);
        if (x->rail == -2)
            x->rail = r;
        else if (x->rail != r)
            x->rail = -1;
    }
    qsort(c->bd, c->nbd, sizeof *c->bd, cmp_bundle);
}

/* Many lines between two tiers, all alike, get one note (see diagram.h);
 * lines from an HB box's ports are counted in the box's text. */
static void note_bundles(ctx *c)
{
    const ry_fabric *f = c->f;
    for (int t = 1; t <= f->tiers; t++) {
        size_t n = 0;
        int alike = 1;
        const ry_diagram_bundle *first = NULL;
        for (size_t i = 0; i < c->nbd; i++) {
            const ry_diagram_bundle *e = &c->bd[i];
            if (c->bx[e->up].tier != t || e->port >= 0)
                continue;
            if (first && (e->n != first->n || e->speed != first->speed || e->speed < 0))
                alike = 0;
            if (!first)
                first = e;
            n++;
        }
        if (c->v.kind == RY_VIEW_SUMMARY || n <= LABEL_LINES || !alike)
            continue;
        for (size_t i = 0; i < c->nbd; i++)
            if (c->bx[c->bd[i].up].tier == t)
                c->bd[i].quiet = 1;
        c->note[t] = (ry_diagram_note){ first->n, first->speed, first->gbps };
    }
    for (size_t i = 0; i < c->nbd; i++)
        if (c->bd[i].port >= 0)
            c->bd[i].quiet = 1;
}

/* ---- the whole ---------------------------------------------------------------- */

/* fabric.homing dual-tor or dual-plane: each leaf box of plane 2i and the
 * box of plane 2i + 1 with the same leaves (count, rails, units) are the
 * two sides of ToR pairs: the pair's two ToRs take the same GPUs, one NIC
 * port each. Each box pairs once. */
static void pair_boxes(ctx *c)
{
    for (size_t i = 0; i < c->nbx; i++)
        c->bx[i].pair = -1;
    if (c->f->spec->homing == RY_HOMING_SINGLE)
        return;
    for (size_t i = 0; i < c->nsbx; i++) {
        ry_diagram_box *x = &c->bx[i];
        if (x->tier != 1 || x->plane % 2)
            continue;
        for (size_t j = 0; j < c->nsbx; j++) {
            ry_diagram_box *y = &c->bx[j];
            if (y->tier == 1 && y->plane == x->plane + 1 && y->pair < 0 && y->count == x->count &&
                y->rail_lo == x->rail_lo && y->rail_hi == x->rail_hi &&
                y->unit_lo == x->unit_lo && y->unit_hi == x->unit_hi) {
                x->pair = (int32_t)j;
                y->pair = (int32_t)i;
                break;
            }
        }
    }
}

ry_diagram *ry_diagram_build(const ry_fabric *f, const ry_view *v)
{
    ry_diagram *d = ry_xcalloc(1, sizeof *d);
    d->f = f;
    d->v = *v;
    d->K = f->spec->hb_domain > 0 ? f->spec->hb_domain : 1;
    d->gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    d->S = f->su_domains > 0 ? f->su_domains : 1;
    d->domains = f->gpus / d->K;
    if (v->kind == RY_VIEW_FULL)
        return d;
    ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.v = *v;
    c.K = d->K;
    c.gpn = d->gpn;
    c.S = d->S;
    c.domains = d->domains;
    compute_pods(&c);
    select_nodes(&c);
    make_switch_boxes(&c);
    make_hb_boxes(&c);
    make_bundles(&c);
    note_bundles(&c);
    pair_boxes(&c);
    d->bx = c.bx;
    d->nbx = c.nbx;
    d->nsbx = c.nsbx;
    d->bd = c.bd;
    d->nbd = c.nbd;
    memcpy(d->note, c.note, sizeof d->note);
    free(c.pod);
    free(c.boxof);
    map_free(&c.bmap);
    map_free(&c.dmap);
    return d;
}

void ry_diagram_free(ry_diagram *d)
{
    if (!d)
        return;
    free(d->bx);
    free(d->bd);
    free(d);
}
