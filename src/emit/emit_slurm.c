/* Slurm topology files. Formats follow Slurm's topology.conf(5) and
 * topology.yaml(5) and the parsers behind them: a SwitchName has Nodes= or
 * Switches=, never both, and at most 64 characters; every child switch is
 * defined; BlockSizes starts with the base block's node count, every block
 * has at least that many nodes (Slurm 24.11 and older refuse a smaller
 * one), and each further size is the base times a power of two (at most
 * 2^15). Slurm joins base blocks into larger ones in the order they are
 * listed (2^k consecutive blocks, aligned), so blocks are listed in node
 * order and a size is offered only where the blocks it joins share switches.
 *
 * How the tree is found: a node's logical leaf is the group of the leaves
 * its GPUs' plane-0 ports are cabled to (the scalable unit on rail designs,
 * the leaf itself on a fat tree); groups that share a node are one. For
 * each tier j above, a leaf's signature is the set of tier-j blocks (per
 * subnet) its real leaves reach; logical leaves with the same signature, or
 * already together one level down, form one tier-j group: they meet at tier
 * j on every rail and plane. A tier that joins nothing new is skipped; the
 * first tier where every leaf is in one group gives the root. */
#include "emit/emit_slurm.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/hostlist.h"

#define MAX_BLOCK_LEVELS 16     /* Slurm: levels 0..15 */

static ry_slurm_stats last;

void ry_slurm_last_stats(ry_slurm_stats *st) { *st = last; }

/* One level of the tree: level 0 holds the logical leaves, each further
 * level groups the level below. */
typedef struct level {
    int tier;           /* fabric tier whose switches join the groups (1: the leaves) */
    int ngroups;
    int *label;         /* per logical leaf: its group at this level */
    int *parent;        /* per group of the level below: its group here (NULL at level 0) */
    char **name;        /* per group */
} level;

typedef struct topo {
    const ry_fabric *f;
    long long nnodes;
    int gpn;
    int rail_design;            /* rail-optimized or rail-only: leaves are units */
    int merged;                 /* some node joins two groups into one leaf switch */
    char *pool;                 /* host names, NUL-terminated, back to back */
    const char **host;          /* per node, into pool */
    int nleaves;                /* logical leaves */
    int *leaf_key;              /* per logical leaf: the leaves' group (unit, leaf number) */
    int *node_leaf;             /* per node */
    long long *leaf_start;      /* per logical leaf, into leaf_nodes; nleaves + 1 */
    long long *leaf_nodes;      /* node ids by logical leaf, ascending */
    size_t *rleaf_start;        /* per logical leaf, into rleaf; nleaves + 1 */
    uint32_t *rleaf;            /* real tier-1 switches by logical leaf */
    level lv[RY_MAX_TIERS + 2];
    int nlv;
} topo;

/* ---- host names ---------------------------------------------------------------------------- */

static void make_host_names(topo *t)
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
static void find_leaves(topo *t)
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
static int group_at_tier(topo *t, int j, const level *prev, int *label)
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

static const char *top_word(int tier)
{
    return tier <= 2 ? "spine" : tier == 3 ? "core" : "top";
}

static void name_level(topo *t, level *lv, int index)
{
    const ry_fabric *f = t->f;
    int rail_only = f->design == RY_DESIGN_RAIL_ONLY;
    lv->name = ry_xmalloc((size_t)lv->ngroups * sizeof *lv->name);
    for (int g = 0; g < lv->ngroups; g++) {
        if (index == 0 && f->tiers <= 1)
            lv->name[g] = ry_xstrdup(rail_only ? "rail-switches" : "switch");
        else if (index == 0 && t->rail_design)
            lv->name[g] = xprintf("su%d", t->leaf_key[g] + 1);
        else if (index == 0)
            lv->name[g] = xprintf("leaf%d", t->leaf_key[g]);
        else if (lv->ngroups == 1)
            lv->name[g] = rail_only ? xprintf("rail-%ss", top_word(lv->tier))
                                    : ry_xstrdup(top_word(lv->tier));
        else if (lv->tier == 2)
            lv->name[g] = xprintf("pod%d", g + 1);
        else
            lv->name[g] = xprintf("t%d-block%d", lv->tier, g + 1);
    }
}

static void build_levels(topo *t)
{
    const ry_fabric *f = t->f;
    level *l0 = &t->lv[0];
    l0->tier = 1;
    l0->ngroups = t->nleaves;
    l0->label = ry_xmalloc((size_t)t->nleaves * sizeof *l0->label);
    for (int l = 0; l < t->nleaves; l++)
        l0->label[l] = l;
    t->nlv = 1;
    int *label = ry_xmalloc((size_t)t->nleaves * sizeof *label);
    for (int j = 2; j <= f->tiers && t->lv[t->nlv - 1].ngroups > 1; j++) {
        level *prev = &t->lv[t->nlv - 1];
        int n = group_at_tier(t, j, prev, label);
        if (n >= prev->ngroups)
            continue;
        level *lv = &t->lv[t->nlv++];
        lv->tier = j;
        lv->ngroups = n;
        lv->label = label;
        label = ry_xmalloc((size_t)t->nleaves * sizeof *label);
    }
    free(label);
    if (t->lv[t->nlv - 1].ngroups > 1) {
        /* Leaves that never meet (not a railyard fabric): one root above all,
         * so Slurm may still span them. */
        level *lv = &t->lv[t->nlv++];
        lv->tier = f->tiers + 1;
        lv->ngroups = 1;
        lv->label = ry_xcalloc((size_t)t->nleaves, sizeof *lv->label);
    }
    for (int i = 1; i < t->nlv; i++) {
        level *lv = &t->lv[i], *prev = &t->lv[i - 1];
        lv->parent = ry_xmalloc((size_t)prev->ngroups * sizeof *lv->parent);
        for (int l = 0; l < t->nleaves; l++)
            lv->parent[prev->label[l]] = lv->label[l];
    }
    for (int i = 0; i < t->nlv; i++)
        name_level(t, &t->lv[i], i);
}

static void topo_build(topo *t, const ry_fabric *f)
{
    memset(t, 0, sizeof *t);
    t->f = f;
    t->gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    t->nnodes = f->gpus / t->gpn;
    t->rail_design = f->design != RY_DESIGN_FAT_TREE;
    make_host_names(t);
    find_leaves(t);
    build_levels(t);
}

static void topo_free(topo *t)
{
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
}

/* ---- blocks -------------------------------------------------------------------------------- */

typedef struct blocks {
    int hb;                     /* blocks are HB domains (else the logical leaves) */
    int nodes_per_hb;           /* nodes of one HB domain when hb */
    int n;
    long long *start;           /* per block, into nodes; n + 1 */
    const long long *nodes;     /* node ids by block */
    long long *own;             /* nodes when the blocks own the array */
    long long base;             /* smallest block's node count */
    long long largest;          /* largest block's node count */
    int nsizes;
    long long sizes[MAX_BLOCK_LEVELS];
} blocks;

static const char *block_name(const topo *t, const blocks *b, int i, char *buf, size_t cap)
{
    if (!b->hb)
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

static void blocks_build(blocks *b, const topo *t)
{
    const ry_spec *s = t->f->spec;
    memset(b, 0, sizeof *b);
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
    for (int j = 1; j < MAX_BLOCK_LEVELS && (1 << j) <= b->n; j++)
        if (joins_within(lab, np, b->n, 1 << j))
            b->sizes[b->nsizes++] = b->base << j;
    for (int p = 0; p < np; p++)
        free(lab[p]);
    free(lab);
}

static void blocks_free(blocks *b)
{
    free(b->start);
    free(b->own);
}

/* ---- writing ------------------------------------------------------------------------------- */

static void node_list(ry_buf *out, const topo *t, const long long *ids, long long n)
{
    const char **names = ry_xmalloc((size_t)(n ? n : 1) * sizeof *names);
    for (long long i = 0; i < n; i++)
        names[i] = t->host[ids[i]];
    ry_hostlist_compress_buf(out, names, (size_t)n);
    free(names);
}

/* Child switch names of group g of level i (i >= 1). */
static void child_list(ry_buf *out, const topo *t, int i, int g)
{
    const level *lv = &t->lv[i], *prev = &t->lv[i - 1];
    const char **names = ry_xmalloc((size_t)prev->ngroups * sizeof *names);
    size_t n = 0;
    for (int c = 0; c < prev->ngroups; c++)
        if (lv->parent[c] == g)
            names[n++] = prev->name[c];
    ry_hostlist_compress_buf(out, names, n);
    free(names);
}

static long long count_switches(const ry_fabric *f, int tier)
{
    long long n = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        n += f->nodes[i].tier == tier;
    return n;
}

/* The cluster in one line. */
static void explain_cluster(ry_buf *c, const topo *t)
{
    const ry_fabric *f = t->f;
    ry_buf_printf(c, "%lld nodes (%lld GPUs, %d per node, %d per HB domain), %s, %d switch "
                  "tier%s", t->nnodes, f->gpus, t->gpn, f->spec->hb_domain,
                  ry_design_name(f->design), f->tiers, f->tiers == 1 ? "" : "s");
    if (f->planes > 1)
        ry_buf_printf(c, ", %d planes", f->planes);
    ry_buf_puts(c, ".\n\n");
}

/* What the tree's names stand for. */
static void explain_tree(ry_buf *c, const topo *t)
{
    const ry_fabric *f = t->f;
    const ry_spec *s = f->spec;
    const char *plane_note = f->planes > 1 ? ", in every plane" : "";
    if (f->tiers <= 1) {
        if (f->design == RY_DESIGN_RAIL_ONLY)
            ry_buf_printf(c, "Every rail fits in one switch, so rails are packed into %lld "
                          "switches%s; rail-switches stands for all of them: each node is on "
                          "every one, rail by rail.\n", count_switches(f, 1), plane_note);
        else
            ry_buf_printf(c, "One switch%s holds every node: switch.\n",
                          f->planes > 1 ? " per plane" : "");
        return;
    }
    if (t->rail_design)
        ry_buf_printf(c, "Slurm's tree gives each node one leaf switch, but a %s node has one "
                      "NIC port per rail, each cabled to its rail's leaf in the node's scalable "
                      "unit (%d HB domains, %d GPUs). So each leaf switch here is logical: suN "
                      "stands for all the rail leaves of scalable unit N%s, which together "
                      "connect its nodes rail by rail.%s\n",
                      ry_design_name(f->design), f->su_domains,
                      f->su_domains * s->hb_domain, plane_note,
                      t->merged ? " A node whose GPUs fall in two units joins them: suN then "
                                  "also stands for the units after N that it was joined with "
                                  "(see the leaves listed with each switch)." : "");
    else
        ry_buf_printf(c, "%s: leafN is the fabric's leaf N%s%s.\n",
                      t->merged ? "Nodes are wider than a leaf" : "Each leaf holds whole nodes",
                      f->planes > 1 ? " (pP-leafN in every plane P, which serve the same "
                                      "nodes)" : "",
                      t->merged ? " with the leaves its nodes share, so each node is under one "
                                  "leaf switch (see the leaves listed with each switch)" : "");
    for (int i = 1; i < t->nlv; i++) {
        const level *lv = &t->lv[i];
        const char *what = t->rail_design ? "units" : "leaves";
        if (lv->tier > f->tiers) {
            ry_buf_printf(c, "%s joins %s that share no switch.\n", lv->name[0], what);
        } else if (lv->ngroups > 1) {
            char tag[32];
            snprintf(tag, sizeof tag, lv->tier == 2 ? "podN" : "t%d-blockN", lv->tier);
            ry_buf_printf(c, "%s: %s share tier-%d%s switches%s, so traffic among them stays "
                          "below tier %d.\n", tag,
                          t->rail_design ? "units whose rail leaves" : "leaves that", lv->tier,
                          lv->tier == 2 ? " (spine)" : lv->tier == 3 ? " (core)" : "",
                          t->rail_design ? (f->planes > 1 ? " on every rail and plane"
                                                          : " on every rail")
                                         : (f->planes > 1 ? " in every plane" : ""),
                          lv->tier + 1);
        } else if (f->design == RY_DESIGN_RAIL_ONLY) {
            ry_buf_printf(c, "Rails never join in a rail-only fabric: each rail has its own "
                          "%s switches (%lld in all, %d rails%s). %s stands for them together: "
                          "nodes of different units reach each other rail by rail through "
                          "their rail's own %ss (traffic between rails first crosses the HB "
                          "domain), so to Slurm they act as one switch above the units.\n",
                          top_word(lv->tier), count_switches(f, lv->tier), f->rails,
                          f->planes > 1 ? " per plane" : "", lv->name[0], top_word(lv->tier));
        } else {
            ry_buf_printf(c, "%s stands for the %lld %s switches (tier %d) that join all %s%s.\n",
                          lv->name[0], count_switches(f, lv->tier), top_word(lv->tier),
                          lv->tier, what,
                          lv->tier < f->tiers ? (t->rail_design ? " rail by rail (the tiers above "
                                                                  "join the rails)"
                                                                : " (the tiers above join the "
                                                                  "planes)")
                                              : "");
        }
    }
}

static void explain_blocks(ry_buf *c, const topo *t, const blocks *b)
{
    const ry_fabric *f = t->f;
    if (b->hb)
        ry_buf_printf(c, "Base blocks are the HB (NVLink) domains: hbdN holds the %d nodes "
                      "(%d GPUs) of HB domain N, so a job within one block never leaves "
                      "NVLink.\n", b->nodes_per_hb, f->spec->hb_domain);
    else if (f->tiers > 1 && t->rail_design)
        ry_buf_printf(c, "Base blocks are the scalable units: a node's HB domain is no larger "
                      "than the node, so the smallest group with a network of its own is a "
                      "unit, whose nodes meet on the unit's rail leaves (suN: unit N).\n");
    else if (f->tiers > 1)
        ry_buf_printf(c, "Base blocks are the leaves: a node's HB domain is no larger than the "
                      "node, so the smallest group with a network of its own is a leaf and "
                      "the nodes on it (leafN: leaf N).\n");
    else
        ry_buf_printf(c, "Every node is on the same switches, so there is one block.\n");
    char nb[32];
    int small = 0;
    while (b->start[small + 1] - b->start[small] != b->base)
        small++;
    ry_buf_printf(c, "BlockSizes: %lld, the smallest block's node count", b->base);
    if (b->base < b->largest)
        ry_buf_printf(c, " (%s is partly filled)", block_name(t, b, small, nb, sizeof nb));
    ry_buf_puts(c, ": every block must hold at least the first size (Slurm 24.11 and older "
                "refuse a smaller one). Slurm joins 2^k consecutive blocks into larger ones in "
                "the order listed; each further size is offered only where the blocks it "
                "joins share switches (one unit, one pod, or the whole fabric at the top).\n");
}

/* Writes text as "# " comment lines of at most 78 columns. */
static void put_comment(FILE *fp, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == 0) {
            fputs("#\n", fp);
        } else {
            while (len > 0) {
                size_t take = len;
                if (take > 76) {
                    take = 76;
                    while (take > 0 && p[take] != ' ')
                        take--;
                    if (take == 0)
                        take = 76;
                }
                fprintf(fp, "# %.*s\n", (int)take, p);
                p += take;
                len -= take;
                while (len > 0 && *p == ' ')
                    p++, len--;
            }
        }
        p += len + (nl ? 1 : 0);
        if (!nl)
            break;
    }
}

/* "suN: 32 nodes, 8 leaves (leaf[0,4,...])" for a logical leaf. */
static void describe_leaf(ry_buf *c, const topo *t, int l)
{
    const ry_fabric *f = t->f;
    size_t nr = t->rleaf_start[l + 1] - t->rleaf_start[l];
    long long nn = t->leaf_start[l + 1] - t->leaf_start[l];
    ry_buf_printf(c, "%s: %lld node%s", t->lv[0].name[l], nn, nn == 1 ? "" : "s");
    if (f->tiers <= 1 || (!t->rail_design && nr == 1))
        return;
    char **names = ry_xmalloc((nr ? nr : 1) * sizeof *names);
    for (size_t i = 0; i < nr; i++) {
        char buf[96];
        ry_node_name(f, t->rleaf[t->rleaf_start[l] + i], buf, sizeof buf);
        names[i] = ry_xstrdup(buf);
    }
    ry_buf list;
    ry_buf_init(&list);
    ry_hostlist_compress_buf(&list, (const char *const *)names, nr);
    ry_buf_printf(c, ", %zu leaves", nr);
    if (list.len <= 100)
        ry_buf_printf(c, ": %s", list.data);
    ry_buf_free(&list);
    for (size_t i = 0; i < nr; i++)
        free(names[i]);
    free(names);
}

static int write_tree_conf(ry_outdir *o, const char *prefix, const topo *t)
{
    const ry_fabric *f = t->f;
    char rel[512];
    snprintf(rel, sizeof rel, "%s/topology.conf", prefix);
    FILE *fp = ry_outdir_open(o, rel);
    if (!fp)
        return -1;
    ry_buf c, line;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_printf(&c, "Slurm topology of %s for the topology/tree plugin (slurm.conf: "
                  "TopologyPlugin=topology/tree), written by railyard from the spec.\n",
                  f->spec->name);
    explain_cluster(&c, t);
    explain_tree(&c, t);
    put_comment(fp, c.data);
    for (int l = 0; l < t->nleaves; l++) {
        ry_buf_reset(&c);
        describe_leaf(&c, t, l);
        fputc('\n', fp);
        put_comment(fp, c.data);
        ry_buf_reset(&line);
        node_list(&line, t, t->leaf_nodes + t->leaf_start[l], t->leaf_start[l + 1] - t->leaf_start[l]);
        fprintf(fp, "SwitchName=%s Nodes=%s\n", t->lv[0].name[l], line.data);
    }
    for (int i = 1; i < t->nlv; i++) {
        fputc('\n', fp);
        for (int g = 0; g < t->lv[i].ngroups; g++) {
            ry_buf_reset(&line);
            child_list(&line, t, i, g);
            fprintf(fp, "SwitchName=%s Switches=%s\n", t->lv[i].name[g], line.data);
        }
    }
    ry_buf_free(&c);
    ry_buf_free(&line);
    return ry_outdir_close(o, fp);
}

static void put_block_sizes(FILE *fp, const blocks *b, const char *sep)
{
    for (int i = 0; i < b->nsizes; i++)
        fprintf(fp, "%s%lld", i ? sep : "", b->sizes[i]);
}

static int write_block_conf(ry_outdir *o, const char *prefix, const topo *t, const blocks *b)
{
    char rel[512];
    snprintf(rel, sizeof rel, "%s/topology-block.conf", prefix);
    FILE *fp = ry_outdir_open(o, rel);
    if (!fp)
        return -1;
    ry_buf c, line;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_printf(&c, "Slurm topology of %s for the topology/block plugin (slurm.conf: "
                  "TopologyPlugin=topology/block), written by railyard from the spec.\n",
                  t->f->spec->name);
    explain_cluster(&c, t);
    explain_blocks(&c, t, b);
    put_comment(fp, c.data);
    fputc('\n', fp);
    char nb[32];
    for (int i = 0; i < b->n; i++) {
        ry_buf_reset(&line);
        node_list(&line, t, b->nodes + b->start[i], b->start[i + 1] - b->start[i]);
        fprintf(fp, "BlockName=%s Nodes=%s\n", block_name(t, b, i, nb, sizeof nb), line.data);
    }
    fputs("BlockSizes=", fp);
    put_block_sizes(fp, b, ",");
    fputc('\n', fp);
    ry_buf_free(&c);
    ry_buf_free(&line);
    return ry_outdir_close(o, fp);
}

static int write_yaml(ry_outdir *o, const char *prefix, const topo *t, const blocks *b)
{
    char rel[512];
    snprintf(rel, sizeof rel, "%s/topology.yaml", prefix);
    FILE *fp = ry_outdir_open(o, rel);
    if (!fp)
        return -1;
    ry_buf c, line;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_printf(&c, "Slurm topology of %s for Slurm 25.05 and later (topology.yaml beside "
                  "slurm.conf; Slurm then ignores topology.conf), written by railyard from "
                  "the spec. Two topologies: \"tree\" (topology/tree), the cluster default, "
                  "and \"block\" (topology/block), for partitions that name it "
                  "(Topology=block).\n",
                  t->f->spec->name);
    explain_cluster(&c, t);
    explain_tree(&c, t);
    ry_buf_puts(&c, "\n");
    explain_blocks(&c, t, b);
    put_comment(fp, c.data);
    fputs("- topology: tree\n  cluster_default: true\n  tree:\n    switches:\n", fp);
    for (int l = 0; l < t->nleaves; l++) {
        ry_buf_reset(&line);
        node_list(&line, t, t->leaf_nodes + t->leaf_start[l], t->leaf_start[l + 1] - t->leaf_start[l]);
        fprintf(fp, "      - switch: \"%s\"\n        nodes: \"%s\"\n", t->lv[0].name[l], line.data);
    }
    for (int i = 1; i < t->nlv; i++)
        for (int g = 0; g < t->lv[i].ngroups; g++) {
            ry_buf_reset(&line);
            child_list(&line, t, i, g);
            fprintf(fp, "      - switch: \"%s\"\n        children: \"%s\"\n", t->lv[i].name[g],
                    line.data);
        }
    fputs("- topology: block\n  cluster_default: false\n  block:\n    block_sizes:\n", fp);
    for (int i = 0; i < b->nsizes; i++)
        fprintf(fp, "      - %lld\n", b->sizes[i]);
    fputs("    blocks:\n", fp);
    char nb[32];
    for (int i = 0; i < b->n; i++) {
        ry_buf_reset(&line);
        node_list(&line, t, b->nodes + b->start[i], b->start[i + 1] - b->start[i]);
        fprintf(fp, "      - block: \"%s\"\n        nodes: \"%s\"\n",
                block_name(t, b, i, nb, sizeof nb), line.data);
    }
    ry_buf_free(&c);
    ry_buf_free(&line);
    return ry_outdir_close(o, fp);
}

int ry_emit_slurm(ry_outdir *o, const char *prefix, const ry_fabric *f)
{
    topo t;
    blocks b;
    topo_build(&t, f);
    blocks_build(&b, &t);
    memset(&last, 0, sizeof last);
    last.nodes = t.nnodes;
    last.leaf_switches = t.nleaves;
    for (int i = 0; i < t.nlv; i++)
        last.switches += t.lv[i].ngroups;
    last.blocks = b.n;
    last.block_sizes = b.nsizes;
    int rc = 0;
    if (write_tree_conf(o, prefix, &t) < 0 || write_block_conf(o, prefix, &t, &b) < 0 ||
        write_yaml(o, prefix, &t, &b) < 0)
        rc = -1;
    blocks_free(&b);
    topo_free(&t);
    return rc;
}

/* ---- checks -------------------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int ry_slurm_check(const ry_fabric *f, ry_err *err)
{
    topo t;
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
