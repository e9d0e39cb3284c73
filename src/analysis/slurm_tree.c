/* The Slurm view of a fabric (see slurm_tree.h).
 *
 * How the tree is found: a node's logical leaf is the group of the leaves
 * its GPUs' plane-0 ports are cabled to (the scalable unit on rail designs,
 * the leaf itself on a fat tree); groups that share a node are one. For
 * each tier j above, a leaf's signature is the set of tier-j blocks (per
 * subnet) its real leaves reach; logical leaves with the same signature, or
 * already together one level down, form one tier-j group: they meet at tier
 * j on every rail and plane. A tier that joins nothing new is skipped; the
 * first tier where every leaf is in one group gives the root.
 *
 * Block sizes follow Slurm's rules: the first is the base block's node
 * count (every block has at least that many nodes: Slurm 24.11 and older
 * refuse a smaller one), and each further size is the base times a power of
 * two. Slurm joins base blocks into larger ones in the order they are
 * listed (2^k consecutive blocks, aligned), so blocks are listed in node
 * order and a size is offered only where the blocks it joins share
 * switches. */
#include "analysis/slurm_tree.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"

/* ---- host names ---------------------------------------------------------------------------- */

static void make_host_names(ry_slurm_tree *t)
{
    ry_buf b;
    ry_buf_init(&b);
    size_t *off = ry_xmalloc((size_t)t->nnodes * sizeof *off);
    char name[128];
    for (long long n = 0; n < t->nnodes; n++) {
        ry_host_name(t->f, n, name, sizeof name);
        off[n] = b.len;
        ry_buf_add(&b, name, strlen(name) + 1);
    }
    t->pool = b.data;
    t->host = ry_xmalloc((size_t)t->nnodes * sizeof *t->host);
    for (long long n = 0; n < t->nnodes; n++)
        t->host[n] = t->pool + off[n];
    free(off);
}

/* ---- the tree ------------------------------------------------------------------------------ */

typedef struct sig {
    int leaf;
    uint64_t *e;        /* sorted, distinct (subnet << 32 | tier-j block) */
    size_t n;
} sig;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_sig(const void *a, const void *b)
{
    const sig *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    for (size_t i = 0; i < n; i++)
        if (x->e[i] != y->e[i])
            return x->e[i] < y->e[i] ? -1 : 1;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return x->leaf - y->leaf;
}

static int uf_find(int *uf, int x)
{
    while (uf[x] != x)
        x = uf[x] = uf[uf[x]];
    return x;
}

static void uf_union(int *uf, int a, int b)
{
    a = uf_find(uf, a);
    b = uf_find(uf, b);
    if (a != b)
        uf[a > b ? a : b] = a < b ? a : b;
}

/* The switch one tier above sw, or -1 (the top). */
static int64_t up_of(const ry_fabric *f, uint32_t sw)
{
    const ry_node *n = &f->nodes[sw];
    for (uint32_t p = 0; p < n->nports; p++) {
        int32_t peer = f->ports[n->port0 + p].peer;
        if (peer >= 0 && f->nodes[f->ports[peer].owner].tier == n->tier + 1)
            return f->ports[peer].owner;
    }
    return -1;
}

/* The group of the leaf GPU g's plane-0 port is cabled to (0 on a single
 * switch). */
static int gpu_key(const ry_fabric *f, long long g)
{
    if (f->tiers <= 1)
        return 0;
    int32_t peer = f->ports[f->nodes[g].port0].peer;
    int k = peer >= 0 ? f->nodes[f->ports[peer].owner].group : 0;
    return k < 0 ? 0 : k;
}

/* Logical leaves: the groups of the leaves a node's GPUs are cabled to, and
 * groups that share a node are one (a node split across scalable units, or
 * wider than a fat-tree leaf); each is named after its first group. */
static void find_leaves(ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    int maxkey = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        if (f->nodes[i].tier == 1 && f->nodes[i].group > maxkey)
            maxkey = f->nodes[i].group;
    int *kuf = ry_xmalloc(((size_t)maxkey + 1) * sizeof *kuf);
    for (int k = 0; k <= maxkey; k++)
        kuf[k] = k;
    int *key = ry_xmalloc((size_t)t->nnodes * sizeof *key);
    for (long long n = 0; n < t->nnodes; n++) {
        key[n] = gpu_key(f, n * t->gpn);
        for (int i = 1; i < t->gpn; i++) {
            int k = gpu_key(f, n * t->gpn + i);
            if (uf_find(kuf, k) != uf_find(kuf, key[n])) {
                uf_union(kuf, key[n], k);
                t->merged = 1;
            }
        }
    }
    for (long long n = 0; n < t->nnodes; n++)
        key[n] = uf_find(kuf, key[n]);
    int *kmap = ry_xmalloc(((size_t)maxkey + 1) * sizeof *kmap);
    for (int k = 0; k <= maxkey; k++)
        kmap[k] = -1;
    t->leaf_key = ry_xmalloc(((size_t)maxkey + 1) * sizeof *t->leaf_key);
    t->node_leaf = ry_xmalloc((size_t)t->nnodes * sizeof *t->node_leaf);
    for (long long n = 0; n < t->nnodes; n++) {
        if (kmap[key[n]] < 0) {
            t->leaf_key[t->nleaves] = key[n];
            kmap[key[n]] = t->nleaves++;
        }
        t->node_leaf[n] = kmap[key[n]];
    }
    /* nodes by logical leaf (counting sort keeps node order) */
    t->leaf_start = ry_xcalloc((size_t)t->nleaves + 1, sizeof *t->leaf_start);
    t->leaf_nodes = ry_xmalloc((size_t)t->nnodes * sizeof *t->leaf_nodes);
    for (long long n = 0; n < t->nnodes; n++)
        t->leaf_start[t->node_leaf[n] + 1]++;
    for (int l = 0; l < t->nleaves; l++)
        t->leaf_start[l + 1] += t->leaf_start[l];
    long long *fill = ry_xmalloc((size_t)t->nleaves * sizeof *fill);
    memcpy(fill, t->leaf_start, (size_t)t->nleaves * sizeof *fill);
    for (long long n = 0; n < t->nnodes; n++)
        t->leaf_nodes[fill[t->node_leaf[n]]++] = n;
    free(fill);

    /* real leaves by logical leaf */
    t->rleaf_start = ry_xcalloc((size_t)t->nleaves + 1, sizeof *t->rleaf_start);
    int *of = ry_xmalloc((f->nnodes - f->first_switch) * sizeof *of);
    size_t nreal = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *sw = &f->nodes[i];
        int l = -1;
        if (sw->tier == 1)
            l = f->tiers <= 1 ? 0 : sw->group >= 0 ? kmap[uf_find(kuf, sw->group)] : -1;
        of[i - f->first_switch] = l;
        if (l >= 0) {
            t->rleaf_start[l + 1]++;
            nreal++;
        }
    }
    for (int l = 0; l < t->nleaves; l++)
        t->rleaf_start[l + 1] += t->rleaf_start[l];
    t->rleaf = ry_xmalloc((nreal ? nreal : 1) * sizeof *t->rleaf);
    size_t *rf = ry_xmalloc((size_t)t->nleaves * sizeof *rf);
    memcpy(rf, t->rleaf_start, (size_t)t->nleaves * sizeof *rf);
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        if (of[i - f->first_switch] >= 0)
            t->rleaf[rf[of[i - f->first_switch]]++] = (uint32_t)i;
    free(rf);
    free(of);
    free(kmap);
    free(kuf);
    free(key);
}

/* Groups of the logical leaves at tier j, nested in prev; returns the count. */
static int group_at_tier(ry_slurm_tree *t, int j, const ry_slurm_level *prev, int *label)
{
    const ry_fabric *f = t->f;
    sig *sg = ry_xcalloc((size_t)t->nleaves, sizeof *sg);
    for (int l = 0; l < t->nleaves; l++) {
        size_t nr = t->rleaf_start[l + 1] - t->rleaf_start[l];
        sg[l].leaf = l;
        sg[l].e = ry_xmalloc((nr ? nr : 1) * sizeof *sg[l].e);
        for (size_t i = 0; i < nr; i++) {
            int64_t a = t->rleaf[t->rleaf_start[l] + i];
            for (int s = 1; s < j && a >= 0; s++)
                a = up_of(f, (uint32_t)a);
            if (a < 0)
                continue;
            const ry_node *n = &f->nodes[a];
            sg[l].e[sg[l].n++] = (uint64_t)(uint32_t)n->subnet << 32 | (uint32_t)n->group;
        }
        qsort(sg[l].e, sg[l].n, sizeof *sg[l].e, cmp_u64);
        size_t m = 0;
        for (size_t i = 0; i < sg[l].n; i++)
            if (!m || sg[l].e[i] != sg[l].e[m - 1])
                sg[l].e[m++] = sg[l].e[i];
        sg[l].n = m;
    }
    int *uf = ry_xmalloc((size_t)t->nleaves * sizeof *uf);
    for (int l = 0; l < t->nleaves; l++)
        uf[l] = l;
    qsort(sg, (size_t)t->nleaves, sizeof *sg, cmp_sig);
    for (int i = 1; i < t->nleaves; i++) {
        sig a = sg[i - 1], b = sg[i];
        a.leaf = b.leaf = 0;
        if (cmp_sig(&a, &b) == 0)
            uf_union(uf, sg[i - 1].leaf, sg[i].leaf);
    }
    /* nesting: leaves together one level down stay together */
    int *first = ry_xmalloc((size_t)prev->ngroups * sizeof *first);
    for (int g = 0; g < prev->ngroups; g++)
        first[g] = -1;
    for (int l = 0; l < t->nleaves; l++) {
        int g = prev->label[l];
        if (first[g] < 0)
            first[g] = l;
        else
            uf_union(uf, first[g], l);
    }
    /* number the groups in leaf order */
    int *num = ry_xmalloc((size_t)t->nleaves * sizeof *num);
    int n = 0;
    for (int l = 0; l < t->nleaves; l++)
        num[l] = -1;
    for (int l = 0; l < t->nleaves; l++) {
        int r = uf_find(uf, l);
        if (num[r] < 0)
            num[r] = n++;
        label[l] = num[r];
    }
    for (int l = 0; l < t->nleaves; l++)
        free(sg[l].e);
    free(sg);
    free(uf);
    free(first);
    free(num);
    return n;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ry_xstrdup(buf);
}

const char *ry_slurm_tier_word(int tier)
{
    return tier <= 2 ? "spine" : tier == 3 ? "core" : "top";
}

/* A fat tree's logical leaf: the name of its plane-0 leaf (node id, or -1
 * for none), the plane's prefix left out when it stands for the leaves of
 * every plane. */
static char *leaf_name(const ry_fabric *f, int32_t node, int key)
{
    char buf[RY_NAME_MAX + 16];
    if (node < 0)
        return xprintf("leaf%d", key);
    ry_node_name(f, (uint32_t)node, buf, sizeof buf);
    const char *name = buf;
    if (f->planes > 1 && strncmp(name, "p0-", 3) == 0)
        name += 3;
    return ry_xstrdup(name);
}

static void name_level(ry_slurm_tree *t, ry_slurm_level *lv, int index)
{
    const ry_fabric *f = t->f;
    int rail_only = f->design == RY_DESIGN_RAIL_ONLY;
    lv->name = ry_xmalloc((size_t)lv->ngroups * sizeof *lv->name);
    /* the plane-0 leaf of each group, for a fat tree's leaf names */
    int32_t *leaf_of = NULL;
    int maxkey = -1;
    if (index == 0 && f->tiers > 1 && !t->rail_design) {
        for (size_t i = f->first_switch; i < f->nnodes; i++)
            if (f->nodes[i].tier == 1 && f->nodes[i].group > maxkey)
                maxkey = f->nodes[i].group;
        leaf_of = ry_xmalloc(((size_t)maxkey + 2) * sizeof *leaf_of);
        for (int k = 0; k <= maxkey; k++)
            leaf_of[k] = -1;
        for (size_t i = f->first_switch; i < f->nnodes; i++) {
            const ry_node *nd = &f->nodes[i];
            if (nd->tier == 1 && nd->plane == 0 && nd->group >= 0 && leaf_of[nd->group] < 0)
                leaf_of[nd->group] = (int32_t)i;
        }
    }
    for (int g = 0; g < lv->ngroups; g++) {
        if (index == 0 && f->tiers <= 1)
            lv->name[g] = ry_xstrdup(rail_only ? "rail-switches" : "switch");
        else if (index == 0 && t->rail_design)
            lv->name[g] = xprintf("su%d", t->leaf_key[g] + 1);
        else if (index == 0)
            lv->name[g] = leaf_name(f, t->leaf_key[g] <= maxkey ? leaf_of[t->leaf_key[g]] : -1,
                                    t->leaf_key[g]);
        else if (lv->ngroups == 1)
            lv->name[g] = rail_only ? xprintf("rail-%ss", ry_slurm_tier_word(lv->tier))
                                    : ry_xstrdup(ry_slurm_tier_word(lv->tier));
        else if (lv->tier == 2)
            lv->name[g] = xprintf("pod%d", g + 1);
        else
            lv->name[g] = xprintf("t%d-block%d", lv->tier, g + 1);
    }
    free(leaf_of);
}

static void build_levels(ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    ry_slurm_level *l0 = &t->lv[0];
    l0->tier = 1;
    l0->ngroups = t->nleaves;
    l0->label = ry_xmalloc((size_t)t->nleaves * sizeof *l0->label);
    for (int l = 0; l < t->nleaves; l++)
        l0->label[l] = l;
    t->nlv = 1;
    int *label = ry_xmalloc((size_t)t->nleaves * sizeof *label);
    for (int j = 2; j <= f->tiers && t->lv[t->nlv - 1].ngroups > 1; j++) {
        ry_slurm_level *prev = &t->lv[t->nlv - 1];
        int n = group_at_tier(t, j, prev, label);
        if (n >= prev->ngroups)
            continue;
        ry_slurm_level *lv = &t->lv[t->nlv++];
        lv->tier = j;
        lv->ngroups = n;
        lv->label = label;
        label = ry_xmalloc((size_t)t->nleaves * sizeof *label);
    }
    free(label);
    if (t->lv[t->nlv - 1].ngroups > 1) {
        /* Leaves that never meet (not a railyard fabric): one root above all,
         * so Slurm may still span them. */
        ry_slurm_level *lv = &t->lv[t->nlv++];
        lv->tier = f->tiers + 1;
        lv->ngroups = 1;
        lv->label = ry_xcalloc((size_t)t->nleaves, sizeof *lv->label);
    }
    for (int i = 1; i < t->nlv; i++) {
        ry_slurm_level *lv = &t->lv[i], *prev = &t->lv[i - 1];
        lv->parent = ry_xmalloc((size_t)prev->ngroups * sizeof *lv->parent);
        for (int l = 0; l < t->nleaves; l++)
            lv->parent[prev->label[l]] = lv->label[l];
    }
    for (int i = 0; i < t->nlv; i++)
        name_level(t, &t->lv[i], i);
}

/* ---- blocks -------------------------------------------------------------------------------- */

const char *ry_slurm_block_name(const ry_slurm_tree *t, int i, char *buf, size_t cap)
{
    if (!t->blocks.hb)
        return t->lv[0].name[i];
    snprintf(buf, cap, "hbd%d", i + 1);
    return buf;
}

/* Whether every aligned run of a consecutive blocks lies in one group of the
 * finest partition that has a group of a or more blocks. lab[p][i] is block
 * i's group in partition p (finest first; the last has one group). */
static int joins_within(int **lab, int np, int nb, int a)
{
    int p = 0;
    int *count = ry_xcalloc((size_t)nb, sizeof *count);
    for (; p < np - 1; p++) {
        memset(count, 0, (size_t)nb * sizeof *count);
        int big = 0;
        for (int i = 0; i < nb; i++)
            if (++count[lab[p][i]] >= a)
                big = 1;
        if (big)
            break;
    }
    free(count);
    for (int i = 0; i < nb; i += a)
        for (int k = i + 1; k < i + a && k < nb; k++)
            if (lab[p][k] != lab[p][i])
                return 0;
    return 1;
}

static void blocks_build(ry_slurm_blocks *b, const ry_slurm_tree *t)
{
    const ry_spec *s = t->f->spec;
    int k = s->hb_domain;
    b->hb = k > t->gpn && k / t->gpn >= 2;
    if (b->hb) {
        b->nodes_per_hb = k / t->gpn;
        b->n = (int)(t->nnodes / b->nodes_per_hb);
        b->start = ry_xmalloc(((size_t)b->n + 1) * sizeof *b->start);
        for (int i = 0; i <= b->n; i++)
            b->start[i] = (long long)i * b->nodes_per_hb;
        b->own = ry_xmalloc((size_t)t->nnodes * sizeof *b->own);
        for (long long n = 0; n < t->nnodes; n++)
            b->own[n] = n;
        b->nodes = b->own;
    } else {
        b->n = t->nleaves;
        b->start = ry_xmalloc(((size_t)b->n + 1) * sizeof *b->start);
        memcpy(b->start, t->leaf_start, ((size_t)b->n + 1) * sizeof *b->start);
        b->nodes = t->leaf_nodes;
    }
    b->base = -1;
    for (int i = 0; i < b->n; i++) {
        long long c = b->start[i + 1] - b->start[i];
        if (b->base < 0 || c < b->base)
            b->base = c;
        if (c > b->largest)
            b->largest = c;
    }

    /* partitions of the blocks, finest first: the blocks themselves, then
     * every level of the tree (the last is the root) */
    int np = t->nlv + 1;
    int **lab = ry_xmalloc((size_t)np * sizeof *lab);
    for (int p = 0; p < np; p++) {
        lab[p] = ry_xmalloc((size_t)b->n * sizeof **lab);
        for (int i = 0; i < b->n; i++)
            lab[p][i] = p == 0 ? i : t->lv[p - 1].label[t->node_leaf[b->nodes[b->start[i]]]];
    }
    b->sizes[b->nsizes++] = b->base;
    for (int j = 1; j < RY_SLURM_MAX_BLOCK_LEVELS && (1 << j) <= b->n; j++)
        if (joins_within(lab, np, b->n, 1 << j))
            b->sizes[b->nsizes++] = b->base << j;
    for (int p = 0; p < np; p++)
        free(lab[p]);
    free(lab);
}


/* ---- node sets ----------------------------------------------------------------------------- */

/* A node's rails, ascending and distinct, into out (gpn of room); 0 when
 * they are all the fabric's rails (nothing to tell apart). */
static int node_rails(const ry_slurm_tree *t, long long n, int *out)
{
    const ry_fabric *f = t->f;
    int k = 0;
    for (int i = 0; i < t->gpn; i++) {
        int r = f->nodes[n * t->gpn + i].rail, j = k;
        while (j > 0 && out[j - 1] > r)
            j--;
        if (j > 0 && out[j - 1] == r)
            continue;
        memmove(out + j + 1, out + j, (size_t)(k - j) * sizeof *out);
        out[j] = r;
        k++;
    }
    return k >= f->rails ? 0 : k;
}

typedef struct set_key {
    long long node;
    int leaf, hbd, nrails;
    int *rails;         /* borrowed, gpn of room per node */
} set_key;

/* Compares the features, then (with node) the node. */
static int cmp_features(const set_key *x, const set_key *y, int node)
{
    if (x->leaf != y->leaf)
        return x->leaf < y->leaf ? -1 : 1;
    if (x->hbd != y->hbd)
        return x->hbd < y->hbd ? -1 : 1;
    if (x->nrails != y->nrails)
        return x->nrails < y->nrails ? -1 : 1;
    for (int i = 0; i < x->nrails; i++)
        if (x->rails[i] != y->rails[i])
            return x->rails[i] < y->rails[i] ? -1 : 1;
    return node ? (x->node < y->node ? -1 : x->node > y->node) : 0;
}

static int cmp_set_key(const void *a, const void *b)
{
    return cmp_features(a, b, 1);
}

static int cmp_set_first(const void *a, const void *b)
{
    const ry_slurm_nodeset *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Groups the nodes by (logical leaf, HB domain, rails): one slurm.conf
 * NodeName line each. Sets come out in the order of their first node. */
static void sets_build(ry_slurm_tree *t)
{
    long long nn = t->nnodes;
    set_key *k = ry_xmalloc((size_t)(nn ? nn : 1) * sizeof *k);
    int *rails = ry_xmalloc((size_t)(nn ? nn : 1) * (size_t)t->gpn * sizeof *rails);
    for (long long n = 0; n < nn; n++) {
        k[n].node = n;
        k[n].leaf = t->node_leaf[n];
        k[n].hbd = t->blocks.hb ? (int)(n / t->blocks.nodes_per_hb) : -1;
        k[n].rails = rails + n * t->gpn;
        k[n].nrails = node_rails(t, n, k[n].rails);
    }
    qsort(k, (size_t)nn, sizeof *k, cmp_set_key);
    t->set_nodes = ry_xmalloc((size_t)(nn ? nn : 1) * sizeof *t->set_nodes);
    size_t cap = 0;
    for (long long i = 0; i < nn; i++) {
        t->set_nodes[i] = k[i].node;
        if (i > 0 && cmp_features(&k[i - 1], &k[i], 0) == 0) {
            t->sets[t->nsets - 1].n++;
            continue;
        }
        RY_ALLOC_GROW(t->sets, (size_t)t->nsets + 1, cap);
        ry_slurm_nodeset *s = &t->sets[t->nsets++];
        s->leaf = k[i].leaf;
        s->hbd = k[i].hbd;
        s->nrails = k[i].nrails;
        s->rails = NULL;
        if (s->nrails) {
            s->rails = ry_xmalloc((size_t)s->nrails * sizeof *s->rails);
            memcpy(s->rails, k[i].rails, (size_t)s->nrails * sizeof *s->rails);
        }
        s->start = i;
        s->first = k[i].node;
        s->n = 1;
    }
    /* in node order: sorted by first node, which is the smallest of each set */
    qsort(t->sets, (size_t)t->nsets, sizeof *t->sets, cmp_set_first);
    free(rails);
    free(k);
}

/* ---- the whole -------------------------------------------------------------------------- */

ry_slurm_tree *ry_slurm_tree_build(const ry_fabric *f)
{
    ry_slurm_tree *t = ry_xcalloc(1, sizeof *t);
    t->f = f;
    t->gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    t->nnodes = f->gpus / t->gpn;
    t->rail_design = f->design != RY_DESIGN_FAT_TREE;
    make_host_names(t);
    find_leaves(t);
    build_levels(t);
    for (int i = 0; i < t->nlv; i++)
        t->nswitches += t->lv[i].ngroups;
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        if (f->nodes[i].tier < RY_MAX_TIERS + 2)
            t->tier_switches[f->nodes[i].tier]++;
    blocks_build(&t->blocks, t);
    sets_build(t);
    return t;
}

void ry_slurm_tree_free(ry_slurm_tree *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nlv; i++) {
        for (int g = 0; g < t->lv[i].ngroups; g++)
            free(t->lv[i].name[g]);
        free(t->lv[i].name);
        free(t->lv[i].label);
        free(t->lv[i].parent);
    }
    free(t->pool);
    free(t->host);
    free(t->leaf_key);
    free(t->node_leaf);
    free(t->leaf_start);
    free(t->leaf_nodes);
    free(t->rleaf_start);
    free(t->rleaf);
    free(t->blocks.start);
    free(t->blocks.own);
    for (int i = 0; i < t->nsets; i++)
        free(t->sets[i].rails);
    free(t->sets);
    free(t->set_nodes);
    free(t);
}

/* ---- checks -------------------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int ry_slurm_check(const ry_fabric *f, ry_err *err)
{
    ry_slurm_tree t;
    memset(&t, 0, sizeof t);
    t.f = f;
    t.gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    t.nnodes = f->gpus / t.gpn;
    make_host_names(&t);
    const char **sorted = ry_xmalloc((size_t)(t.nnodes ? t.nnodes : 1) * sizeof *sorted);
    memcpy(sorted, t.host, (size_t)t.nnodes * sizeof *sorted);
    qsort(sorted, (size_t)t.nnodes, sizeof *sorted, cmp_str);
    int rc = 0;
    for (long long i = 1; i < t.nnodes; i++) {
        if (strcmp(sorted[i - 1], sorted[i]) != 0)
            continue;
        long long a = -1, b = -1;
        for (long long n = 0; n < t.nnodes && b < 0; n++)
            if (strcmp(t.host[n], sorted[i]) == 0) {
                if (a < 0)
                    a = n;
                else
                    b = n;
            }
        ry_err_set(err, "naming.node", "naming.node '%s' names nodes %lld and %lld both '%s', "
                   "but Slurm needs one name per node: use {n} or {n1} in the pattern",
                   f->spec->node_pattern, a + 1, b + 1, sorted[i]);
        rc = -1;
        break;
    }
    free(sorted);
    free(t.pool);
    free(t.host);
    return rc;
}
