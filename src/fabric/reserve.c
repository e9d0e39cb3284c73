/* Reserve mode: the phase as the target's graph cut down (see reserve.h).
 *
 * The target is built whole, once, and kept in the phase's ry_reserve_ids
 * (the layout stands the phase where the target's layout does); the phase
 * owns its arrays, its ry_reserve_ids and the target. Which tier is the phase's top is
 * found by counting, per switch, the kept leaves below it: in the Clos the
 * builder makes, the switches below one switch head disjoint subtrees (a
 * spine's leaves, a core's pods at one position), so a count over its
 * distinct children is exact. */
#include "fabric/reserve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/build_clos.h"
#include "fabric/ibplan.h"
#include "util/diag.h"

void ry_reserve_target_spec(const ry_spec *s, ry_spec *out)
{
    *out = *s;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long g = s->growth.target_gpus > s->gpus ? s->growth.target_gpus : s->gpus;
    out->gpus = g;
    out->nodes = g / gpn;
    out->growth.target_gpus = 0;
    out->growth.target_nodes = 0;
}

/* A tier's switch model borrowed from the target's spec copy t points into
 * it: the same field of s. */
static const ry_switch_model *rebase(const ry_switch_model *m, const ry_spec *t, const ry_spec *s)
{
    const char *p = (const char *)m, *lo = (const char *)t;
    if (m && p >= lo && p < lo + sizeof *t)
        return (const ry_switch_model *)((const char *)s + (p - lo));
    return m;
}

/* Whether the peer of port p of node n is a lower switch, and which. */
static int lower_switch(const ry_fabric *f, const ry_node *n, uint32_t p, uint32_t *child)
{
    int32_t peer = f->ports[n->port0 + p].peer;
    if (peer < 0)
        return 0;
    uint32_t c = f->ports[peer].owner;
    const ry_node *cn = &f->nodes[c];
    if (cn->kind != RY_NODE_SWITCH || cn->tier >= n->tier)
        return 0;
    *child = c;
    return 1;
}

/* keep[] for the target tf and the phase's GPUs. */
static void choose_kept(const ry_fabric *tf, long long gpus, uint8_t *keep)
{
    const ry_spec *ts = tf->spec;
    size_t N = tf->nnodes, nsw = N - tf->first_switch;
    long long unit_gpus = tf->unit_gpus > 0 ? tf->unit_gpus : tf->gpus;
    long long units = (gpus + unit_gpus - 1) / unit_gpus;
    int whole = ts->full_units && ts->design != RY_DESIGN_FAT_TREE && tf->tiers >= 2;
    for (long long g = 0; g < gpus; g++)
        keep[g] = 1;
    /* leaves */
    for (size_t i = tf->first_switch; i < N; i++) {
        const ry_node *n = &tf->nodes[i];
        if (n->tier != 1)
            continue;
        if (whole && n->group < units)
            keep[i] = 1;
        for (uint32_t p = 0; p < n->nports && !keep[i]; p++) {
            int32_t peer = tf->ports[n->port0 + p].peer;
            if (peer >= 0 && tf->ports[peer].owner < (uint32_t)gpus)
                keep[i] = 1;
        }
    }
    /* kept leaves below each switch; ids ascend by tier within a tree,
     * so children come first */
    long long *below = ry_xcalloc(nsw + 1, sizeof *below);
    uint32_t *stamp = ry_xmalloc((nsw + 1) * sizeof *stamp);
    int nsub = tf->nsubnets > 0 ? tf->nsubnets : 1;
    long long *leaves = ry_xcalloc((size_t)nsub, sizeof *leaves);
    int *top = ry_xmalloc((size_t)nsub * sizeof *top);
    for (int k = 0; k < nsub; k++)
        top[k] = RY_MAX_TIERS + 1;
    for (size_t j = 0; j < nsw; j++)
        stamp[j] = UINT32_MAX;
    for (size_t i = tf->first_switch; i < N; i++) {
        const ry_node *n = &tf->nodes[i];
        size_t x = i - tf->first_switch;
        if (n->tier == 1) {
            below[x] = keep[i];
            leaves[n->subnet] += keep[i];
            continue;
        }
        for (uint32_t p = 0; p < n->nports; p++) {
            uint32_t c;
            if (!lower_switch(tf, n, p, &c) || stamp[c - tf->first_switch] == (uint32_t)i)
                continue;
            stamp[c - tf->first_switch] = (uint32_t)i;
            below[x] += below[c - tf->first_switch];
        }
    }
    for (size_t i = tf->first_switch; i < N; i++) {
        const ry_node *n = &tf->nodes[i];
        if (leaves[n->subnet] > 0 && below[i - tf->first_switch] == leaves[n->subnet] &&
            n->tier < top[n->subnet])
            top[n->subnet] = n->tier;
    }
    /* upper tiers up to the top: a switch with a kept switch below */
    for (size_t i = tf->first_switch; i < N; i++) {
        const ry_node *n = &tf->nodes[i];
        if (n->tier < 2 || n->tier > top[n->subnet])
            continue;
        for (uint32_t p = 0; p < n->nports && !keep[i]; p++) {
            uint32_t c;
            if (lower_switch(tf, n, p, &c) && keep[c])
                keep[i] = 1;
        }
    }
    free(below);
    free(stamp);
    free(leaves);
    free(top);
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* Whether the kept leaves of each subnet are one component over the kept
 * links. */
static int leaves_joined(const ry_fabric *tf, const uint8_t *keep, const uint8_t *keep_link)
{
    size_t N = tf->nnodes;
    uint32_t *up = ry_xmalloc((N ? N : 1) * sizeof *up);
    for (size_t i = 0; i < N; i++)
        up[i] = (uint32_t)i;
    for (size_t l = 0; l < tf->nlinks; l++) {
        if (!keep_link[l])
            continue;
        uint32_t a = uf_find(up, tf->ports[tf->links[l].lo].owner);
        uint32_t b = uf_find(up, tf->ports[tf->links[l].hi].owner);
        if (a != b)
            up[a] = b;
    }
    int nsub = tf->nsubnets > 0 ? tf->nsubnets : 1, ok = 1;
    uint32_t *root = ry_xmalloc((size_t)nsub * sizeof *root);
    for (int k = 0; k < nsub; k++)
        root[k] = UINT32_MAX;
    for (size_t i = tf->first_switch; i < N && ok; i++) {
        const ry_node *n = &tf->nodes[i];
        if (n->tier != 1 || !keep[i])
            continue;
        int k = n->subnet > 0 ? n->subnet : 0;
        uint32_t r = uf_find(up, (uint32_t)i);
        if (root[k] == UINT32_MAX)
            root[k] = r;
        else if (root[k] != r)
            ok = 0;
    }
    free(root);
    free(up);
    return ok;
}

/* Links above the spines a later phase can add without moving anything:
 * a kept switch of tier 2 and up keeps as many of its uplinks (its first,
 * in port order) as its kept down-links need at its own taper, and a
 * switch above stays only when a kept link reaches it. The leaves keep
 * every uplink (their GPUs use them now) and so every spine they reach.
 * When that would leave a subnet's kept leaves apart, every link between
 * kept switches stays, as before. keep_link[l]: link l is in the phase. */
static void prune_uplinks(const ry_fabric *tf, uint8_t *keep, uint8_t *keep_link)
{
    size_t N = tf->nnodes;
    uint8_t *keep0 = ry_xmalloc(N ? N : 1);
    memcpy(keep0, keep, N);
    for (size_t l = 0; l < tf->nlinks; l++)
        keep_link[l] = keep[tf->ports[tf->links[l].lo].owner] &&
                       keep[tf->ports[tf->links[l].hi].owner];
    for (int t = 2; t < tf->tiers; t++) {
        for (size_t i = tf->first_switch; i < N; i++) {
            const ry_node *n = &tf->nodes[i];
            if (n->tier != t || !keep[i])
                continue;
            long long down = 0, down_kept = 0, up = 0;
            for (uint32_t p = 0; p < n->nports; p++) {
                const ry_port *q = &tf->ports[n->port0 + p];
                if (q->link < 0 || q->peer < 0)
                    continue;
                int upper = tf->nodes[tf->ports[q->peer].owner].tier > t;
                if (upper) {
                    up++;
                } else {
                    down++;
                    down_kept += keep_link[q->link];
                }
            }
            long long want = down > 0 ? (down_kept * up + down - 1) / down : 0;
            for (uint32_t p = 0; p < n->nports; p++) {
                const ry_port *q = &tf->ports[n->port0 + p];
                if (q->link < 0 || q->peer < 0 || tf->nodes[tf->ports[q->peer].owner].tier <= t)
                    continue;
                if (keep_link[q->link] && want > 0)
                    want--;
                else
                    keep_link[q->link] = 0;
            }
        }
        /* the tier above: only what a kept link reaches */
        for (size_t i = tf->first_switch; i < N; i++) {
            const ry_node *n = &tf->nodes[i];
            if (n->tier != t + 1 || !keep[i])
                continue;
            int reached = 0;
            for (uint32_t p = 0; p < n->nports && !reached; p++) {
                const ry_port *q = &tf->ports[n->port0 + p];
                reached = q->link >= 0 && q->peer >= 0 && keep_link[q->link] &&
                          tf->nodes[tf->ports[q->peer].owner].tier < t + 1;
            }
            if (!reached) {
                keep[i] = 0;
                for (uint32_t p = 0; p < n->nports; p++)
                    if (tf->ports[n->port0 + p].link >= 0)
                        keep_link[tf->ports[n->port0 + p].link] = 0;
            }
        }
    }
    if (!leaves_joined(tf, keep, keep_link)) {
        memcpy(keep, keep0, N);
        for (size_t l = 0; l < tf->nlinks; l++)
            keep_link[l] = keep[tf->ports[tf->links[l].lo].owner] &&
                           keep[tf->ports[tf->links[l].hi].owner];
    }
    free(keep0);
}

/* The phase of tf into f: kept nodes and the kept links between them, ids
 * dense. */
static void copy_kept(const ry_fabric *tf, const uint8_t *keep, const uint8_t *keep_link,
                      ry_fabric *f)
{
    size_t N = tf->nnodes;
    uint32_t *map = ry_xmalloc((N ? N : 1) * sizeof *map);
    int *submap = ry_xmalloc(((size_t)tf->nsubnets + 1) * sizeof *submap);
    for (int k = 0; k <= tf->nsubnets; k++)
        submap[k] = -1;
    int nsub = 0;
    for (size_t i = 0; i < N; i++) {
        const ry_node *n = &tf->nodes[i];
        map[i] = UINT32_MAX;
        if (i == tf->first_switch)
            f->first_switch = (uint32_t)f->nnodes;
        if (!keep[i])
            continue;
        map[i] = ry_fabric_add_node(f, (ry_node_kind)n->kind, n->tier, n->plane, n->rail,
                                    n->group, n->index, n->nports);
        ry_node *m = &f->nodes[map[i]];
        m->nrails = n->nrails;
        m->number = n->number;
        if (n->subnet >= 0) {
            if (submap[n->subnet] < 0)
                submap[n->subnet] = nsub++;
            m->subnet = submap[n->subnet];
        }
        if (n->tier > f->tiers)
            f->tiers = n->tier;
    }
    if (tf->first_switch == N)
        f->first_switch = (uint32_t)f->nnodes;
    f->nsubnets = nsub;
    for (size_t l = 0; l < tf->nlinks; l++) {
        uint32_t lo = tf->links[l].lo, hi = tf->links[l].hi;
        uint32_t a = tf->ports[lo].owner, b = tf->ports[hi].owner;
        if (!keep[a] || !keep[b] || !keep_link[l])
            continue;
        ry_fabric_add_link(f, f->nodes[map[a]].port0 + (lo - tf->nodes[a].port0),
                           f->nodes[map[b]].port0 + (hi - tf->nodes[b].port0));
    }
    /* the target's LIDs, when it has an InfiniBand plan */
    ry_ibplan pl;
    ry_err e;
    if (ry_ibplan_build(tf, &pl, &e) == 0) {
        size_t nsw = f->nnodes - f->first_switch, nca = (size_t)(f->gpus * f->planes);
        f->reserve->sw_lid = ry_xcalloc(nsw + 1, sizeof *f->reserve->sw_lid);
        f->reserve->ca_lid = ry_xcalloc(nca + 1, sizeof *f->reserve->ca_lid);
        for (size_t i = tf->first_switch; i < N; i++)
            if (keep[i])
                f->reserve->sw_lid[map[i] - f->first_switch] = pl.sw_lid[i - tf->first_switch];
        memcpy(f->reserve->ca_lid, pl.ca_lid, nca * sizeof *pl.ca_lid);   /* same port ids */
        ry_ibplan_free(&pl);
    }
    size_t nsw = f->nnodes - f->first_switch;
    f->reserve->target_sw = ry_xmalloc((nsw + 1) * sizeof *f->reserve->target_sw);
    for (size_t i = tf->first_switch; i < N; i++)
        if (keep[i])
            f->reserve->target_sw[map[i] - f->first_switch] = (uint32_t)(i - tf->first_switch);
    free(map);
    free(submap);
}

int ry_reserve_build(const ry_spec *s, ry_fabric *f, ry_err *err)
{
    ry_spec *t = ry_xmalloc(sizeof *t);
    ry_reserve_target_spec(s, t);
    ry_fabric *tf = ry_xmalloc(sizeof *tf);
    if (ry_clos_build(t, tf, err) < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        ry_err_set(err, s->growth.target_nodes ? "growth.target_nodes" : "growth.target_gpus",
                   "the target of %lld GPUs cannot be built: %s (at %s)", t->gpus, msg,
                   err->key[0] ? err->key : "the cluster");
        free(tf);
        free(t);
        return -1;
    }
    ry_fabric_init_like(f, tf);
    f->spec = s;
    f->gpus = s->gpus;
    for (int j = 0; j <= RY_MAX_TIERS; j++)
        f->tier[j].sw = rebase(tf->tier[j].sw, t, s);
    f->unit_gpus = tf->unit_gpus;
    long long per = tf->unit_gpus > 0 ? tf->unit_gpus : s->gpus;
    f->num_units = (int)((s->gpus + per - 1) / per);
    f->reserve = ry_xcalloc(1, sizeof *f->reserve);
    f->reserve->target_gpus = t->gpus;
    f->reserve->target_tiers = tf->tiers;
    f->reserve->target_spec = t;
    f->reserve->target = tf;

    uint8_t *keep = ry_xcalloc(tf->nnodes + 1, 1);
    uint8_t *keep_link = ry_xcalloc(tf->nlinks + 1, 1);
    choose_kept(tf, s->gpus, keep);
    prune_uplinks(tf, keep, keep_link);
    copy_kept(tf, keep, keep_link, f);
    free(keep_link);
    free(keep);
    return 0;
}
