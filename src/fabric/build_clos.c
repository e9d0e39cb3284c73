/* The Clos builder: rail-optimized, rail-only and fat-tree fabrics for any
 * GPU count, including partly filled scalable units and pods.
 *
 * Shape of one tree (one plane of a rail-optimized or fat-tree fabric, one
 * rail of a rail-only fabric):
 *   tier 1   leaves: d1 ports down to GPUs, u1 up (full uplinks even when a
 *            leaf is partly filled, so the fabric can grow);
 *   tier 2   pods: up to d2 leaves, each wired to every tier-2 switch of its
 *            pod with the same number of parallel links;
 *   tier j   blocks of up to dj tier-(j-1) blocks; the switches at the same
 *            position in each member block form a column, wired to every
 *            tier-j switch of that column (the classic folded Clos);
 *   top      all remaining blocks in one block, all k ports down.
 * Below the top, a column of lower switches with u uplinks each gets u
 * upper switches, one link to each (a partial pod keeps every position, so
 * every column of the tier above reaches it). At the top, a column of c
 * switches gets the smallest number M of switches that divides u and has
 * enough ports (M*k >= c*u), so wiring is even. On full trees this
 * reproduces the closed forms ceil(2n/k) per lower tier and n/k at the top
 * (tests check it).
 * Ports: a lower switch's uplinks go in bundles of b (a cage's ports when
 * both sides' cages are that large and b divides u/M, else 1): uplink k
 * (port d_lower + k) is position k mod b of bundle B = k / b, which goes to
 * upper switch B mod M as its copy Q = B / M, on that switch's ports
 * (Q * C + x) * b + k mod b, with C = d_upper / (u/M) and x the member's
 * rank in the column: at the top of a two-tier tree the leaves rank
 * unit-major, elsewhere in block order. Added units append members, and
 * when M doubles (b unchanged) the links whose B mod M stays keep their
 * ports, so a fabric that grows keeps most of its cables. */
#include "fabric/build_clos.h"
#include "fabric/names.h"
#include "spec/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

typedef struct idvec {
    uint32_t *v;
    size_t n, cap;
} idvec;

static void idvec_push(idvec *a, uint32_t x)
{
    RY_ALLOC_GROW(a->v, a->n + 1, a->cap);
    a->v[a->n++] = x;
}

static void idvec_free(idvec *a)
{
    free(a->v);
    memset(a, 0, sizeof *a);
}

typedef struct tree {
    ry_fabric *f;
    int plane;
    int tiers;                       /* tiers of this tree */
    int down[RY_MAX_TIERS + 2];      /* per tier, for this tree's tier count */
    int up[RY_MAX_TIERS + 2];
    int ports[RY_MAX_TIERS + 2];     /* ports of one switch of the tier */
    int group[RY_MAX_TIERS + 2];     /* lower blocks per block below the top */
    ry_tier_ports tp[RY_MAX_TIERS + 2];
    int *next_index;                 /* per tier switch counters of the plane */
    int *next_index_b;               /* dual-tor: the pair's second plane's */
    int pair;                        /* dual-tor: ports plane and plane + 1 share the tree */
    int subnet;
} tree;

/* Tier j (1-based) of a t-tier tree; the spec's rules have checked that
 * every tier resolves (spec/tiers.c), so a failure here is a zero tier. */
static ry_tier_ports tier_of(const ry_spec *s, int t, int j)
{
    ry_tier_ports p;
    ry_err err;
    if (ry_tier_ports_of(s, t, j, &p, &err) < 0)
        memset(&p, 0, sizeof p);
    return p;
}

static void tree_setup(tree *tr, const ry_spec *s, int t)
{
    tr->tiers = t;
    for (int j = 1; j <= t; j++) {
        tr->tp[j] = tier_of(s, t, j);
        tr->down[j] = tr->tp[j].down;
        tr->up[j] = tr->tp[j].up;
        tr->ports[j] = tr->tp[j].ports;
        tr->group[j] = tr->tp[j].blocks;
    }
}

static uint32_t new_switch(tree *tr, int tier, int rail, int group)
{
    uint32_t id = ry_fabric_add_node(tr->f, RY_NODE_SWITCH, tier, tr->plane, rail, group,
                                     tr->next_index[tier]++, (uint32_t)tr->ports[tier]);
    tr->f->nodes[id].subnet = tr->subnet;
    return id;
}

/* Attach a GPU's plane port to the next free down port of a switch. */
static void attach_gpu(tree *tr, uint32_t gpu, uint32_t sw, int slot)
{
    ry_fabric *f = tr->f;
    ry_fabric_add_link(f, f->nodes[gpu].port0 + (uint32_t)tr->plane,
                       f->nodes[sw].port0 + (uint32_t)slot);
}

/* NIC ports a tree takes per GPU: 2 when a ToR pair shares it. */
static int tree_ports(const tree *tr)
{
    return tr->pair ? 2 : 1;
}

/* The top switches of a column of c lower switches of u uplinks each: the
 * smallest m of at least lo (fabric.top_min) that divides u and has the
 * ports (m * d >= c * u); -1 when none (lo > u). */
static int smallest_divisor_with_room(int u, int d, long long c, int lo)
{
    for (int m = lo > 1 ? lo : 1; m <= u; m++)
        if (u % m == 0 && (long long)m * d >= c * u)
            return m;
    return -1;
}

/* Whether a t-tier tree takes nleaves leaves: below the top, tier j groups
 * the blocks under it by its group size; the top takes the rest in one
 * block, at most its down ports (a column of c blocks of u uplinks each
 * gets u top switches, one link to each, when c is at most those ports). */
static int tree_fits(const ry_spec *s, int t, long long nleaves)
{
    long long blocks = nleaves;
    for (int j = 2; j < t; j++) {
        long long g = tier_of(s, t, j).blocks;
        if (g < 1)
            return 0;
        blocks = (blocks + g - 1) / g;
    }
    return blocks <= tier_of(s, t, t).down;
}

/* Tier count a tree of nleaves leaves needs (2 at least). */
static int tree_tiers_needed(const ry_spec *s, long long nleaves)
{
    for (int t = 2; t <= RY_MAX_TIERS; t++)
        if (tree_fits(s, t, nleaves))
            return t;
    return RY_MAX_TIERS + 1;
}

/* The top of a one-tier tree (a single switch) takes n GPUs. */
static int one_switch_fits(const ry_spec *s, long long n)
{
    return s->tiers <= 1 && n <= tier_of(s, 1, 1).down;
}

typedef struct member_key { int32_t group; uint32_t pos; } member_key;

static int member_cmp(const void *a, const void *b)
{
    const member_key *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The ranks of the members of column p of blocks [first, last), in block
 * order: the top of a two-tier tree ranks its leaves unit-major (by
 * scalable unit, then in their order, so a ToR pair stays side by side),
 * so that the leaves of added units rank after those already there; any
 * other column ranks its members in block order. */
static void member_ranks(const tree *tr, int j, const idvec *lower, const idvec *lstart,
                         size_t first, size_t last, size_t p, long long *rank)
{
    size_t n = 0;
    for (size_t x = first; x < last; x++)
        if (lstart->v[x + 1] - lstart->v[x] > p) {
            rank[n] = (long long)n;
            n++;
        }
    if (j != 2 || tr->tiers != 2 || n < 2)
        return;
    member_key *k = ry_xmalloc(n * sizeof *k);
    n = 0;
    for (size_t x = first; x < last; x++)
        if (lstart->v[x + 1] - lstart->v[x] > p) {
            k[n] = (member_key){ tr->f->nodes[lower->v[lstart->v[x] + p]].group, (uint32_t)n };
            n++;
        }
    qsort(k, n, sizeof *k, member_cmp);
    for (size_t r = 0; r < n; r++)
        rank[k[r].pos] = (long long)r;
    free(k);
}

/* Logical ports of one cage on a side of tier j: its model's ports per cage
 * times the model's and the tier's split; 0 when that side's cages do not
 * start on a cage boundary (then a run of its ports may span two cages). */
static int side_cage(const tree *tr, int j, int up)
{
    const ry_tier_ports *t = &tr->tp[j];
    const ry_switch_model *sw = t->sw ? t->sw : &tr->f->spec->sw;
    int sports, split;
    ry_switch_cage_shape(sw, &sports, &split);
    int phys = sports * split;
    if (up && (t->sw ? t->cages_down : t->down) % phys != 0)
        return 0;
    if (!t->sw)
        return phys;
    return phys * (up ? t->up_split : t->down_split);
}

/* The bundle of tier j's port rule: the lower switch's ports per cage when
 * the upper side's cages are as large and they divide per = u / m, so that
 * a whole cage goes to one upper switch and lands in one of its cages;
 * else 1 (a port at a time). */
static int bundle_of(const tree *tr, int j, int per)
{
    int b = side_cage(tr, j - 1, 1);
    if (b > 1 && b == side_cage(tr, j, 0) && per % b == 0)
        return b;
    return 1;
}

/* Build tier j over the lower blocks; groups[g] = lower blocks in new block g.
 * Writes the new tier's switch ids and block boundaries. */
static void build_tier(tree *tr, int j, const idvec *lower, const idvec *lstart,
                       const size_t *groups, size_t ngroups, idvec *out, idvec *ostart)
{
    ry_fabric *f = tr->f;
    int u = tr->up[j - 1], d = tr->down[j], ldown = tr->down[j - 1];
    long long *rank = ry_xmalloc((lstart->n ? lstart->n : 1) * sizeof *rank);
    size_t b = 0;
    for (size_t g = 0; g < ngroups; g++) {
        size_t first = b, last = b + groups[g];
        b = last;
        idvec_push(ostart, (uint32_t)out->n);
        size_t maxpos = 0;
        for (size_t x = first; x < last; x++) {
            size_t sz = lstart->v[x + 1] - lstart->v[x];
            if (sz > maxpos)
                maxpos = sz;
        }
        for (size_t p = 0; p < maxpos; p++) {
            long long c = 0;
            for (size_t x = first; x < last; x++)
                if (lstart->v[x + 1] - lstart->v[x] > p)
                    c++;
            /* Below the top every column gets all u upper switches, even in a
             * partial block, so every column reaches every block and a
             * partial pod is as well connected as a full one; at the top the
             * smallest even wiring with enough ports. */
            int m = j < tr->tiers ? u
                                  : smallest_divisor_with_room(u, d, c, tr->f->spec->top_min);
            RY_ASSERT(m > 0 && (long long)m * d >= c * u);
            /* Uplinks go in bundles of b (a cage's ports, bundle_of): uplink
             * k of a lower switch is position jb = k mod b of its bundle
             * B = k / b, which goes to upper switch B mod m as its copy
             * Q = B / m, on upper ports (Q * C + x) * b + jb (x the member's
             * rank, C = d / per >= c): an upper switch's ports of one copy
             * form a block of whole cages, so adding members, or upper
             * switches when m doubles and b stays, keeps the links whose
             * B mod m stays. */
            int per = u / m, C = d / per, bs = bundle_of(tr, j, per);
            RY_ASSERT(c <= C);
            size_t base = out->n;
            for (int i = 0; i < m; i++)
                idvec_push(out, new_switch(tr, j, -1, (int)(ostart->n - 1)));
            member_ranks(tr, j, lower, lstart, first, last, p, rank);
            for (size_t x = first, r = 0; x < last; x++) {
                if (lstart->v[x + 1] - lstart->v[x] <= p)
                    continue;
                uint32_t lo = lower->v[lstart->v[x] + p];
                long long at = rank[r++];
                for (int k = 0; k < u; k++) {
                    int B = k / bs, Q = B / m;
                    long long hp = ((long long)Q * C + at) * bs + k % bs;
                    RY_ASSERT(hp < d);
                    uint32_t hi = out->v[base + (size_t)(B % m)];
                    ry_fabric_add_link(f, f->nodes[lo].port0 + (uint32_t)(ldown + k),
                                       f->nodes[hi].port0 + (uint32_t)hp);
                }
            }
        }
    }
    free(rank);
    idvec_push(ostart, (uint32_t)out->n);
}

/* Build tiers 2..t above the leaves, in the order given. */
static void build_upper(tree *tr, const idvec *leaves)
{
    idvec lower = { 0 }, lstart = { 0 }, out = { 0 }, ostart = { 0 };
    for (size_t i = 0; i < leaves->n; i++) {
        idvec_push(&lower, leaves->v[i]);
        idvec_push(&lstart, (uint32_t)i);
    }
    idvec_push(&lstart, (uint32_t)leaves->n);
    size_t *groups = NULL;
    for (int j = 2; j <= tr->tiers; j++) {
        size_t nblocks = lstart.n - 1, ngroups;
        free(groups);
        if (j == tr->tiers) {
            groups = ry_xmalloc(sizeof *groups);
            groups[0] = nblocks;
            ngroups = 1;
        } else {
            size_t gsz = (size_t)tr->group[j];
            ngroups = (nblocks + gsz - 1) / gsz;
            groups = ry_xmalloc(ngroups * sizeof *groups);
            for (size_t g = 0; g < ngroups; g++)
                groups[g] = g + 1 < ngroups ? gsz : nblocks - g * gsz;
        }
        out.n = ostart.n = 0;
        build_tier(tr, j, &lower, &lstart, groups, ngroups, &out, &ostart);
        idvec t1 = lower, t2 = lstart;
        lower = out;
        lstart = ostart;
        out = t1;
        ostart = t2;
    }
    free(groups);
    idvec_free(&lower);
    idvec_free(&lstart);
    idvec_free(&out);
    idvec_free(&ostart);
}

typedef struct layout {
    long long gpus, domains;
    int K, R, c;        /* c: GPUs per HB domain on one rail */
    int S;              /* HB domains per scalable unit */
    long long units;
} layout;

/* Create the leaves of the given rails (one tree) and attach their GPUs:
 * rail-major, then scalable unit, each (unit, rail) filling leaves of d1. */
static void rail_leaves(tree *tr, const layout *L, int rail0, int nrails, idvec *leaves)
{
    int d1 = tr->down[1];
    for (int r = rail0; r < rail0 + nrails; r++) {
        for (long long u = 0; u < L->units; u++) {
            long long dom0 = u * L->S, dom1 = dom0 + L->S;
            if (dom1 > L->domains)
                dom1 = L->domains;
            int slot = d1;
            long long made = 0;
            uint32_t leaf = 0;
            for (long long dom = dom0; dom < dom1; dom++) {
                for (int l = r; l < L->K; l += L->R) {
                    if (slot == d1) {
                        leaf = new_switch(tr, 1, r, (int)u);
                        idvec_push(leaves, leaf);
                        made++;
                        slot = 0;
                    }
                    attach_gpu(tr, (uint32_t)(dom * L->K + l), leaf, slot++);
                }
            }
            /* fabric.full_units: a partial unit's leaves as a whole one's */
            long long whole = ((long long)L->S * L->c + d1 - 1) / d1;
            for (; tr->f->spec->full_units && made < whole; made++)
                idvec_push(leaves, new_switch(tr, 1, r, (int)u));
        }
    }
}

typedef void (*leaves_fn)(tree *tr, const void *ctx, idvec *leaves);

/* The leaves of a tree: with a ToR pair (fabric.homing dual-tor), the
 * leaves of the pair's two planes, in pairs (the first plane's k-th leaf,
 * then the second's), so a pair shares its pod; the second plane's leaves
 * count on their own. */
static void tree_leaves(tree *tr, leaves_fn make, const void *ctx, idvec *leaves)
{
    if (!tr->pair) {
        make(tr, ctx, leaves);
        return;
    }
    idvec a = { 0 }, b = { 0 };
    int plane = tr->plane, *ni = tr->next_index;
    make(tr, ctx, &a);
    tr->plane = plane + 1;
    tr->next_index = tr->next_index_b;
    make(tr, ctx, &b);
    tr->plane = plane;
    tr->next_index = ni;
    RY_ASSERT(a.n == b.n);
    for (size_t i = 0; i < a.n; i++) {
        idvec_push(leaves, a.v[i]);
        idvec_push(leaves, b.v[i]);
    }
    idvec_free(&a);
    idvec_free(&b);
}

typedef struct rail_ctx { const layout *L; int rail0, nrails; } rail_ctx;

static void rail_leaves_fn(tree *tr, const void *ctx, idvec *leaves)
{
    const rail_ctx *c = ctx;
    rail_leaves(tr, c->L, c->rail0, c->nrails, leaves);
}

static int resolve_tiers(const ry_spec *s, int needed, long long n, ry_err *err)
{
    const ry_switch_model *top = ry_spec_tier_switch(s, s->n_tier ? s->n_tier : 1);
    if (s->n_tier > 0 && !s->tiers_by_position && needed > s->n_tier) {
        char want[32];
        if (needed > RY_MAX_TIERS)
            snprintf(want, sizeof want, "more than %d", RY_MAX_TIERS);
        else
            snprintf(want, sizeof want, "%d", needed);
        ry_err_set(err, "fabric.tiers", "%lld GPUs need %s tiers of these switches, and "
                   "fabric.tiers lists %d: add a tier, or give the top (%s) more ports",
                   n, want, s->n_tier, top->name);
        return -1;
    }
    if (needed > RY_MAX_TIERS) {
        ry_err_set(err, "fabric.switch", "%lld GPUs need more than %d tiers of radix-%d switches; "
                   "use a larger radix", n, RY_MAX_TIERS, s->sw.radix);
        return -1;
    }
    if (s->tiers == 0)
        return needed;
    if (s->tiers < needed) {
        ry_err_set(err, "fabric.tiers", "%lld GPUs need at least %d tiers of radix-%d switches "
                   "(got tiers: %d); use tiers: auto or a larger radix", n, needed, s->sw.radix,
                   s->tiers);
        return -1;
    }
    return s->tiers;
}

/* Tiers above the leaves: as many as the tree needs (or the spec forces);
 * frees the leaf list. Returns the tier count, or -1 with err set. */
static int finish_tree(tree *tr, const ry_spec *s, idvec *leaves, long long n, ry_err *err)
{
    int t = resolve_tiers(s, tree_tiers_needed(s, (long long)leaves->n), n, err);
    if (t > 0 && s->top_min > 1) {
        tree probe = { 0 };
        tree_setup(&probe, s, t);
        int u = t > 1 ? probe.up[t - 1] : 0;
        if (s->top_min > u) {
            if (t == 1)
                ry_err_set(err, "fabric.top_min", "fabric.top_min: %d: the fabric is one switch, "
                           "with no tier above it; drop the key, or set fabric.tiers: 2",
                           s->top_min);
            else
                ry_err_set(err, "fabric.top_min", "fabric.top_min: %d, but a %s has %d uplinks, "
                           "so it reaches at most %d top switches: set it to %d or less",
                           s->top_min, ry_tier_name(t - 1, t), u, u, u);
            t = -1;
        }
    }
    if (t > 0) {
        tree_setup(tr, s, t);
        build_upper(tr, leaves);
    }
    idvec_free(leaves);
    return t;
}

/* One tree over a set of rails (all rails: rail-optimized). */
static int build_rail_tree(tree *tr, const ry_spec *s, const layout *L, int rail0, int nrails,
                           ry_err *err)
{
    long long n = (long long)nrails * (L->gpus / L->R);
    int np = tree_ports(tr), plane = tr->plane;
    idvec leaves = { 0 };
    if (one_switch_fits(s, n * np)) {
        /* One switch is the whole tree. */
        tree_setup(tr, s, 1);
        uint32_t sw = new_switch(tr, 1, nrails == 1 ? rail0 : -1, 0);
        int slot = 0;
        for (int q = 0; q < np; q++, tr->plane++)
            for (int r = rail0; r < rail0 + nrails; r++)
                for (long long dom = 0; dom < L->domains; dom++)
                    for (int l = r; l < L->K; l += L->R)
                        attach_gpu(tr, (uint32_t)(dom * L->K + l), sw, slot++);
        tr->plane = plane;
        return 1;
    }
    tree_setup(tr, s, 2);   /* leaf ports do not depend on the tier count (leaf < top) */
    rail_ctx c = { L, rail0, nrails };
    tree_leaves(tr, rail_leaves_fn, &c, &leaves);
    /* Pods take d2 leaves in rail-major order: a rail's leaves share pods
     * (same-rail traffic turns at tier 2) and counts stay those of a Clos. */
    return finish_tree(tr, s, &leaves, n * np, err);
}

/* A fat tree's scalable unit is a leaf group: the GPUs of one leaf, so
 * that a host's {unit}, Slurm's leaf switches, the diagrams' unit view and
 * the summary all count the same thing. */
static void fat_tree_units(ry_fabric *f, long long per_leaf)
{
    long long K = f->spec->hb_domain;
    f->unit_gpus = per_leaf;
    f->su_domains = per_leaf >= K ? (int)(per_leaf / K) : 1;
    f->num_units = (int)((f->gpus + per_leaf - 1) / per_leaf);
}

/* GPUs under one fat-tree leaf (ry_spec_leaf_group's rule); 0 when no leaf
 * can be made. */
static long long fat_per_leaf(const ry_spec *s)
{
    ry_leaf_group lg;
    return ry_spec_leaf_group(s, &lg) < 0 ? 0 : lg.leaf_gpus;
}

typedef struct fat_ctx { long long n, per_leaf; } fat_ctx;

static void fat_leaves_fn(tree *tr, const void *ctx, idvec *leaves)
{
    const fat_ctx *c = ctx;
    uint32_t leaf = 0;
    for (long long g = 0; g < c->n; g++) {
        if (g % c->per_leaf == 0) {
            leaf = new_switch(tr, 1, -1, (int)(g / c->per_leaf));
            idvec_push(leaves, leaf);
        }
        attach_gpu(tr, (uint32_t)g, leaf, (int)(g % c->per_leaf));
    }
}

static int build_fat_tree(tree *tr, const ry_spec *s, const layout *L, ry_err *err)
{
    long long n = L->gpus;
    int np = tree_ports(tr), plane = tr->plane;
    if (one_switch_fits(s, n * np)) {
        fat_tree_units(tr->f, n);
        tree_setup(tr, s, 1);
        uint32_t sw = new_switch(tr, 1, -1, 0);
        for (int q = 0; q < np; q++, tr->plane++)
            for (long long g = 0; g < n; g++)
                attach_gpu(tr, (uint32_t)g, sw, (int)(q * n + g));
        tr->plane = plane;
        return 1;
    }
    tree_setup(tr, s, 2);
    int d1 = tr->down[1];
    long long per_leaf = fat_per_leaf(s);
    if (per_leaf > d1) {
        ry_err_set(err, "layout.nodes_per_rack", "a rack-tor leaf takes a rack's %lld NIC ports "
                   "(%d servers of %d GPUs), and it has %d down: fewer servers a rack, or "
                   "more down ports (fabric.tiers)", per_leaf, s->layout.nodes_per_rack,
                   s->node.gpus_per_node, d1);
        return -1;
    }
    fat_tree_units(tr->f, per_leaf);
    idvec leaves = { 0 };
    fat_ctx c = { n, per_leaf };
    tree_leaves(tr, fat_leaves_fn, &c, &leaves);
    return finish_tree(tr, s, &leaves, n * np, err);
}

/* Rails range of every switch from what hangs below it (ids ascend by tier
 * within a tree, so one pass in id order sees children first). */
static void compute_rails(ry_fabric *f)
{
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        ry_node *n = &f->nodes[i];
        int lo = -1, hi = -1;
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f->ports[n->port0 + p].peer;
            if (peer < 0)
                continue;
            const ry_node *c = &f->nodes[f->ports[peer].owner];
            if (c->tier >= n->tier || c->rail < 0)
                continue;
            int clo = c->rail, chi = c->rail + (c->nrails > 0 ? c->nrails : 1) - 1;
            if (lo < 0 || clo < lo)
                lo = clo;
            if (chi > hi)
                hi = chi;
        }
        n->rail = lo;
        n->nrails = lo < 0 ? 0 : hi - lo + 1;
    }
}

/* Leaves are built rail-major (the pods take them so); their names count
 * unit-major unless the spec asks otherwise, so that one unit's leaves are
 * neighbours: within a plane, by (unit, rail, construction order). Only the
 * number shown changes; ids, ports and routes stay those of construction. */
typedef struct leaf_key { int32_t plane, group, rail, index; uint32_t id; } leaf_key;

static int leaf_cmp(const void *a, const void *b)
{
    const leaf_key *x = a, *y = b;
    if (x->plane != y->plane)
        return x->plane < y->plane ? -1 : 1;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->rail != y->rail)
        return x->rail < y->rail ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void number_leaves(ry_fabric *f)
{
    if (f->spec->switch_order != 0 || f->design == RY_DESIGN_FAT_TREE)
        return;
    size_t n = 0;
    leaf_key *k = ry_xmalloc((f->nnodes - f->first_switch + 1) * sizeof *k);
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        if (nd->tier == 1)
            k[n++] = (leaf_key){ nd->plane, nd->group, nd->rail, nd->index, (uint32_t)i };
    }
    qsort(k, n, sizeof *k, leaf_cmp);
    int plane = -1, next = 0;
    for (size_t i = 0; i < n; i++) {
        if (k[i].plane != plane) {
            plane = k[i].plane;
            next = 0;
        }
        f->nodes[k[i].id].number = next++;
    }
    free(k);
}

/* A rail-only fabric's upper switches are built rail by rail; their names
 * count rail-minor (the k-th switch of rail r of a tier is number
 * k * rails + r), so that a rail's k-th spine keeps its name when every
 * rail grows. */
static void number_rail_upper(ry_fabric *f)
{
    if (f->spec->switch_order != 0 || f->design != RY_DESIGN_RAIL_ONLY)
        return;
    size_t n = 0;
    leaf_key *k = ry_xmalloc((f->nnodes - f->first_switch + 1) * sizeof *k);
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        if (nd->tier >= 2 && nd->nrails == 1)
            k[n++] = (leaf_key){ nd->plane * (RY_MAX_TIERS + 1) + nd->tier, nd->rail, 0,
                                 nd->index, (uint32_t)i };
    }
    qsort(k, n, sizeof *k, leaf_cmp);
    for (size_t i = 0, run = 0; i < n; i++, run++) {
        if (i == 0 || k[i].plane != k[i - 1].plane || k[i].group != k[i - 1].group)
            run = 0;
        f->nodes[k[i].id].number = (int32_t)(run * (size_t)f->rails + (size_t)k[i].group);
    }
    free(k);
}

/* ---- size in closed form ---------------------------------------------------
 * The builder's own rules, counted without building: leaves from the units
 * and rails; below the top, tier j takes groups of d_j lower blocks and
 * gives each position of a block u_{j-1} switches, so a block of tier j has
 * pos_j = pos_{j-1} * u_{j-1} positions; the top gives each of pos_{t-1}
 * positions the smallest divisor m of u_{t-1} with m * k >= c * u_{t-1}.
 * Counts saturate at SIZE_CAP, far past any limit, so nothing overflows. */
#define SIZE_CAP (1LL << 62)

static long long sat_mul(long long a, long long b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > SIZE_CAP / b ? SIZE_CAP : a * b;
}

static long long sat_add(long long a, long long b)
{
    return a > SIZE_CAP - b ? SIZE_CAP : a + b;
}

typedef struct graph_size {
    long long switches, ports, links;
    int tiers;
} graph_size;

/* Adds one tree of nleaves leaves over n GPUs; tiers 0: as many as needed.
 * -1 when the tree cannot be built (the builder then says why). */
static int size_tree(const ry_spec *s, long long n, long long nleaves, int tiers, graph_size *z)
{
    if (one_switch_fits(s, n) && tiers <= 1) {
        z->switches = sat_add(z->switches, 1);
        z->ports = sat_add(z->ports, tier_of(s, 1, 1).ports);
        z->tiers = z->tiers > 1 ? z->tiers : 1;
        return 0;
    }
    int t = tree_tiers_needed(s, nleaves);
    if (t > RY_MAX_TIERS || (tiers > 0 && tiers < t))
        return -1;
    if (tiers > 0)
        t = tiers;
    tree tr = { 0 };
    tree_setup(&tr, s, t);
    long long blocks = nleaves, pos = 1, sw = nleaves;
    z->switches = sat_add(z->switches, nleaves);
    z->ports = sat_add(z->ports, sat_mul(nleaves, tr.ports[1]));
    z->links = sat_add(z->links, sat_mul(nleaves, tr.up[1]));
    for (int j = 2; j <= t; j++) {
        int u = tr.up[j - 1];
        if (j < t) {
            blocks = (blocks + tr.group[j] - 1) / tr.group[j];
            sw = sat_mul(sat_mul(blocks, pos), u);
            pos = sat_mul(pos, u);
        } else {
            int m = smallest_divisor_with_room(u, tr.down[j], blocks, s->top_min);
            if (m < 0)
                return -1;
            sw = sat_mul(pos, m);
        }
        z->switches = sat_add(z->switches, sw);
        z->ports = sat_add(z->ports, sat_mul(sw, tr.ports[j]));
        z->links = sat_add(z->links, sat_mul(sw, tr.up[j]));
    }
    z->tiers = z->tiers > t ? z->tiers : t;
    return 0;
}

/* Leaves of one rail tree over rails rail0.. (rail_leaves' rule). */
static long long rail_tree_leaves(const ry_spec *s, int d1, long long S, int rail0, int nrails)
{
    long long K = s->hb_domain, R = s->rails, domains = s->gpus / K;
    long long full = domains / S, rest = domains % S, leaves = 0;
    for (int r = rail0; r < rail0 + nrails; r++) {
        long long c = r < K ? (K - r + R - 1) / R : 0;
        leaves = sat_add(leaves, sat_mul(full, (S * c + d1 - 1) / d1));
        if (rest)
            leaves = sat_add(leaves, ((s->full_units ? S : rest) * c + d1 - 1) / d1);
    }
    return leaves;
}

/* Switches, ports and links the spec's graph would have with the given
 * tiers (0: auto); -1 when the builder would refuse the spec anyway. */
static int size_graph(const ry_spec *s, int tiers, graph_size *z)
{
    memset(z, 0, sizeof *z);
    ry_leaf_group lg;
    if (ry_spec_leaf_group(s, &lg) < 0)
        return -1;
    int d1 = lg.down;
    ry_spec st = *s;
    st.tiers = tiers;
    long long np = s->homing == RY_HOMING_DUAL_TOR ? 2 : 1;   /* NIC ports a tree takes */
    long long R = s->rails, G = s->gpus, S = lg.unit_domains;
    graph_size one = { 0 };
    if (s->design == RY_DESIGN_RAIL_OPTIMIZED) {
        if (size_tree(&st, G * np, np * rail_tree_leaves(s, d1, S, 0, (int)R), tiers, &one) < 0)
            return -1;
    } else if (s->design == RY_DESIGN_FAT_TREE) {
        long long per_leaf = lg.leaf_gpus;
        if (per_leaf > d1)
            return -1;
        if (size_tree(&st, G * np, np * ((G + per_leaf - 1) / per_leaf), tiers, &one) < 0)
            return -1;
    } else {
        long long nr = G / R;
        if (one_switch_fits(&st, nr * np)) {
            ry_tier_ports top = tier_of(s, 1, 1);
            long long pack = top.down / (nr * np);
            one.switches = (R + pack - 1) / pack;
            one.ports = sat_mul(one.switches, top.ports);
            one.tiers = 1;
        } else {
            for (int r = 0; r < R; r++)
                if (size_tree(&st, nr * np, np * rail_tree_leaves(s, d1, S, r, 1), tiers,
                              &one) < 0)
                    return -1;
        }
    }
    z->tiers = one.tiers;
    z->switches = sat_mul(one.switches, s->planes / np);
    z->ports = sat_add(sat_mul(one.ports, s->planes / np), sat_mul(G, s->planes));
    z->links = sat_add(sat_mul(one.links, s->planes / np), sat_mul(G, s->planes));
    return 0;
}

/* "2,131,008" */
static const char *grouped(char *buf, size_t n, long long v)
{
    char d[32];
    int len = snprintf(d, sizeof d, "%lld", v), o = 0;
    for (int i = 0; i < len && (size_t)o + 2 < n; i++) {
        buf[o++] = d[i];
        if ((len - i - 1) % 3 == 0 && i + 1 < len)
            buf[o++] = ',';
    }
    buf[o] = '\0';
    return buf;
}

/* Refuses a graph past RY_MAX_PORTS, blaming what made it large: forced
 * tiers when auto would fit, else more planes, else the radix. */
static int check_size(const ry_spec *s, ry_err *err)
{
    graph_size z, auto_z, one_plane;
    if (size_graph(s, s->tiers, &z) < 0 || z.ports <= RY_MAX_PORTS)
        return 0;
    char sw[32], po[32], li[32], lim[32];
    grouped(sw, sizeof sw, z.switches);
    grouped(po, sizeof po, z.ports);
    grouped(li, sizeof li, z.links);
    grouped(lim, sizeof lim, RY_MAX_PORTS);
    double gb = (double)z.ports * RY_BYTES_PER_PORT / 1e9;
    if (s->tiers > 0 && size_graph(s, 0, &auto_z) == 0 && auto_z.ports <= RY_MAX_PORTS) {
        ry_err_set(err, "fabric.tiers", "fabric.tiers=%d would build %s switches with %s ports "
                   "and %s links (about %.1f GB); the limit is %s ports: use tiers: auto "
                   "(%d tier%s here)", s->tiers, sw, po, li, gb, lim, auto_z.tiers,
                   auto_z.tiers == 1 ? "" : "s");
        return -1;
    }
    ry_spec one = *s;
    one.planes = 1;
    if (s->planes > 1 && size_graph(&one, s->tiers, &one_plane) == 0 &&
        one_plane.ports <= RY_MAX_PORTS) {
        ry_err_set(err, "cluster.planes", "cluster.planes=%d would build %s switches with %s "
                   "ports and %s links (about %.1f GB); the limit is %s ports: fewer planes or "
                   "fewer GPUs", s->planes, sw, po, li, gb, lim);
        return -1;
    }
    ry_err_set(err, "fabric.switch.radix", "%lld GPUs on radix-%d switches in %d tiers would "
               "build %s switches with %s ports and %s links (about %.1f GB); the limit is %s "
               "ports: another radix or fewer GPUs", s->gpus, s->sw.radix, z.tiers, sw, po, li,
               gb, lim);
    return -1;
}

int ry_clos_build(const ry_spec *s, ry_fabric *f, ry_err *err)
{
    memset(f, 0, sizeof *f);
    f->spec = s;
    f->design = s->design;
    f->radix = s->sw.radix;
    f->planes = s->planes;
    f->rails = s->rails;
    f->gpus = s->gpus;
    if (check_size(s, err) < 0)
        return -1;

    layout L;
    L.gpus = s->gpus;
    L.K = s->hb_domain;
    L.R = s->rails;
    L.c = L.K / L.R;
    L.domains = L.gpus / L.K;
    int k = s->sw.radix;
    ry_leaf_group lg;
    if (ry_spec_leaf_group(s, &lg) < 0) {
        ry_err_set(err, "fabric.oversubscription", "a radix-%d leaf cannot be split %d:%d",
                   k, s->n_oversub ? s->oversub[0].down : 1, s->n_oversub ? s->oversub[0].up : 1);
        return -1;
    }
    L.S = lg.unit_domains;
    L.units = (L.domains + L.S - 1) / L.S;
    f->su_domains = L.S;
    f->num_units = (int)L.units;
    f->unit_gpus = (long long)L.S * L.K;    /* a fat tree sets its own (fat_tree_units) */

    for (long long g = 0; g < L.gpus; g++) {
        int local = (int)(g % L.K);
        ry_fabric_add_node(f, RY_NODE_GPU, 0, 0, local % L.R, (int)(g / L.K), (int)g,
                           (uint32_t)s->planes);
    }
    f->first_switch = (uint32_t)f->nnodes;

    int next_index[RY_MAX_TIERS + 2], next_index_b[RY_MAX_TIERS + 2];
    int tmax = 0, subnet = 0, pair = s->homing == RY_HOMING_DUAL_TOR;
    for (int p = 0; p < s->planes; p += pair ? 2 : 1) {
        memset(next_index, 0, sizeof next_index);
        memset(next_index_b, 0, sizeof next_index_b);
        tree tr = { .f = f, .plane = p, .next_index = next_index, .next_index_b = next_index_b,
                    .pair = pair };
        int t;
        if (s->design == RY_DESIGN_RAIL_OPTIMIZED) {
            tr.subnet = subnet++;
            t = build_rail_tree(&tr, s, &L, 0, L.R, err);
        } else if (s->design == RY_DESIGN_FAT_TREE) {
            tr.subnet = subnet++;
            t = build_fat_tree(&tr, s, &L, err);
        } else {
            long long nr = L.gpus / L.R;
            int np = pair ? 2 : 1;
            if (one_switch_fits(s, nr * np)) {
                /* Pack whole rails into each single-tier switch. */
                int pack = (int)(tier_of(s, 1, 1).down / (nr * np));
                tree_setup(&tr, s, 1);
                for (int r0 = 0; r0 < L.R; r0 += pack) {
                    tr.subnet = subnet++;
                    int nrl = L.R - r0 < pack ? L.R - r0 : pack;
                    uint32_t sw = new_switch(&tr, 1, r0, r0 / pack);
                    int slot = 0;
                    for (int q = 0; q < np; q++, tr.plane++)
                        for (int r = r0; r < r0 + nrl; r++)
                            for (long long dom = 0; dom < L.domains; dom++)
                                for (int l = r; l < L.K; l += L.R)
                                    attach_gpu(&tr, (uint32_t)(dom * L.K + l), sw, slot++);
                    tr.plane = p;
                }
                t = 1;
            } else {
                t = 0;
                for (int r = 0; r < L.R; r++) {
                    tr.subnet = subnet++;
                    t = build_rail_tree(&tr, s, &L, r, 1, err);
                    if (t < 0)
                        break;
                }
            }
        }
        if (t < 0) {
            ry_fabric_free(f);
            return -1;
        }
        if (t > tmax) {
            tmax = t;
            for (int j = 1; j <= t; j++) {
                f->down_ports[j] = tr.down[j];
                f->up_ports[j] = tr.up[j];
                f->tier[j] = tr.tp[j];
            }
        }
    }
    f->tiers = tmax;
    f->nsubnets = subnet;
    compute_rails(f);
    number_leaves(f);
    number_rail_upper(f);
    if (ry_names_unique(f, err) < 0) {
        ry_fabric_free(f);
        return -1;
    }
    return 0;
}
