#include "fabric/names.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec/pattern.h"
#include "util/diag.h"
#include "util/hash.h"

const char *ry_tier_name(int tier, int tiers)
{
    static const char *names[] = { "gpu", "leaf", "spine", "core" };
    if (tier == 1)
        return tiers == 1 ? "switch" : "leaf";
    if (tier == tiers && tier > 3)
        return "top";
    if (tier >= 0 && tier <= 3)
        return names[tier];
    return "tier";
}

int ry_node_name(const ry_fabric *f, uint32_t id, char *buf, size_t n)
{
    const ry_node *nd = &f->nodes[id];
    if (nd->kind == RY_NODE_GPU)
        return snprintf(buf, n, "gpu%d", nd->index);
    /* a phase of a reserve names its switches as the target does */
    int tiers = f->reserve ? f->reserve->target_tiers : f->tiers;
    const char *t = ry_tier_name(nd->tier, tiers);
    int len = 0;
    if (f->planes > 1)
        len = snprintf(buf, n, "p%d-", nd->plane);
    if (len < 0 || (size_t)len >= n)
        return len;
    if (tiers > 3 && nd->tier > 3 && nd->tier < tiers)
        return len + snprintf(buf + len, n - (size_t)len, "t%d-%d", nd->tier, nd->number);
    const ry_spec *s = f->spec;
    const char *pat = !s || nd->tier > 3 ? ""
                      : nd->tier == 1    ? s->leaf_pattern
                      : nd->tier == 2    ? s->spine_pattern
                                         : s->core_pattern;
    if (pat[0]) {
        /* checked when the spec was read: the name fits and is plain */
        char why[8];
        int k = ry_name_pattern(pat, nd->number, nd->tier == 1 ? nd->group : 0, buf + len,
                                n - (size_t)len, why, sizeof why);
        if (k >= 0)
            return len + k;
    }
    return len + snprintf(buf + len, n - (size_t)len, "%s%d", t, nd->number);
}

/* A name's slot in an open-addressed set of cap (a power of two) slots;
 * names are kept in lower case, as NetBox and DNS compare them. */
static size_t name_slot(char **set, size_t cap, const char *name)
{
    size_t i = (size_t)ry_hash_str(name) & (cap - 1);
    while (set[i] && strcmp(set[i], name) != 0)
        i = (i + 1) & (cap - 1);
    return i;
}

/* The end of the digits of s[i..n) from i. */
static size_t digits_end(const char *s, size_t i, size_t n)
{
    while (i < n && isdigit((unsigned char)s[i]))
        i++;
    return i;
}

/* s[0..n) is a rack's name, in any case: R<row>-<col>, after H<hall>- or
 * N<room>- in a layout of several rooms (ry_rack_name). */
static int rack_shaped(const char *s, size_t n)
{
    size_t i = 0, e;
    if (n > 0 && (tolower((unsigned char)s[0]) == 'h' || tolower((unsigned char)s[0]) == 'n')) {
        e = digits_end(s, 1, n);
        if (e == 1 || e >= n || s[e] != '-')
            return 0;
        i = e + 1;
    }
    if (i >= n || tolower((unsigned char)s[i]) != 'r')
        return 0;
    e = digits_end(s, i + 1, n);
    if (e == i + 1 || e >= n || s[e] != '-')
        return 0;
    i = e + 1;
    e = digits_end(s, i, n);
    return e > i && e == n;
}

/* The kind of the rack tray whose NetBox device name ("<rack>-<kind>-<n>",
 * emit_netbox.c) name is, in any case, or NULL. */
static const char *tray_named(const char *name, const ry_node_model *m)
{
    size_t len = strlen(name), p = len;
    while (p > 0 && isdigit((unsigned char)name[p - 1]))
        p--;
    if (p == len || p < 2 || name[p - 1] != '-')
        return NULL;
    for (int k = 0; k < m->ntrays; k++) {
        size_t kl = strlen(m->trays[k].kind);
        if (p < kl + 3 || name[p - 2 - kl] != '-' ||
            strncasecmp(name + p - 1 - kl, m->trays[k].kind, kl) != 0)
            continue;
        if (rack_shaped(name, p - 2 - kl))
            return m->trays[k].kind;
    }
    return NULL;
}

/* The naming key of a tier (0: servers) when the spec sets it, else NULL. */
static const char *naming_key(const ry_spec *s, int tier)
{
    if (tier == 0)
        return s->node_pattern[0] ? "naming.node" : NULL;
    if (tier == 1)
        return s->leaf_pattern[0] ? "naming.leaf" : NULL;
    if (tier == 2)
        return s->spine_pattern[0] ? "naming.spine" : NULL;
    if (tier == 3)
        return s->core_pattern[0] ? "naming.core" : NULL;
    return NULL;
}

static const char *device_kind(const ry_fabric *f, int tier)
{
    return tier == 0 ? "server" : ry_tier_name(tier, f->tiers);
}

int ry_names_unique(const ry_fabric *f, ry_err *err)
{
    const ry_spec *s = f->spec;
    if (!s || (!s->node_pattern[0] && !s->leaf_pattern[0] && !s->spine_pattern[0] &&
               !s->core_pattern[0]))
        return 0;
    long long hosts = s->node.gpus_per_node > 0 ? f->gpus / s->node.gpus_per_node : f->gpus;
    size_t want = (size_t)hosts + (f->nnodes - f->first_switch), cap = 16;
    while (cap < 2 * want)
        cap *= 2;
    char **set = ry_xcalloc(cap, sizeof *set);
    uint8_t *tier_of = ry_xcalloc(cap, sizeof *tier_of);
    char name[RY_NAME_MAX + 16];
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < want; i++) {
        int isw = i >= (size_t)hosts;
        int t = isw ? f->nodes[f->first_switch + (i - (size_t)hosts)].tier : 0;
        if (isw)
            ry_node_name(f, (uint32_t)(f->first_switch + (i - (size_t)hosts)), name, sizeof name);
        else
            ry_host_name(f, (long long)i, name, sizeof name);
        const char *tray = tray_named(name, &s->node);
        if (tray) {
            const char *key = naming_key(s, t) ? naming_key(s, t) : "naming";
            ry_err_set(err, key, "'%s' is a rack tray's name in NetBox (rack-kind-n, kind %s): "
                       "the naming patterns must give other names", name, tray);
            rc = -1;
            break;
        }
        char low[sizeof name];
        size_t c = 0;
        for (; name[c] && c + 1 < sizeof low; c++)
            low[c] = (char)tolower((unsigned char)name[c]);
        low[c] = '\0';
        size_t k = name_slot(set, cap, low);
        if (set[k]) {
            /* blame the pattern that made the second name, else the first's */
            int t0 = tier_of[k];
            const char *key = naming_key(s, t) ? naming_key(s, t)
                              : naming_key(s, t0) ? naming_key(s, t0) : "naming";
            ry_err_set(err, key, "two devices would be named '%s' (a %s and a %s): the naming "
                       "patterns of servers, leaves, spines and cores must give different names",
                       name, device_kind(f, t0), device_kind(f, t));
            rc = -1;
        } else {
            set[k] = ry_xstrdup(low);
            tier_of[k] = (uint8_t)t;
        }
    }
    for (size_t i = 0; i < cap; i++)
        free(set[i]);
    free(set);
    free(tier_of);
    return rc;
}

int ry_host_name(const ry_fabric *f, long long node, char *buf, size_t n)
{
    const ry_spec *s = f->spec;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long unit = f->unit_gpus > 0 ? node * gpn / f->unit_gpus : 0;
    char why[128], def[24];
    const char *pat = s->node_pattern;
    if (!pat[0]) {
        /* The default numbers hosts with one width, enough for the cluster
         * (node0001..node1024), so names sort as they count. */
        int w = 3;
        long long gpus = f->reserve ? f->reserve->target_gpus : f->gpus;   /* a phase: the target's */
        for (long long k = 1000; k <= gpus / gpn && w < 12; k *= 10)
            w++;
        snprintf(def, sizeof def, "node{n1:%02d}", w);
        pat = def;
    }
    int len = ry_name_pattern(pat, node, unit, buf, n, why, sizeof why);
    if (len < 0)
        len = snprintf(buf, n, "node%lld", node + 1);
    return len;
}

int ry_ca_desc(const ry_fabric *f, uint32_t gpu_port, char *buf, size_t n)
{
    const ry_spec *s = f->spec;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long gpu = gpu_port / (uint32_t)f->planes;
    int plane = (int)(gpu_port % (uint32_t)f->planes);
    int len = ry_host_name(f, gpu / gpn, buf, n);
    if (len < 0 || (size_t)len >= n)
        return len;
    char dev[32];
    ry_nic_rdma(&s->node, (int)(gpu % gpn) + plane * gpn, dev, sizeof dev);
    return len + snprintf(buf + len, n - (size_t)len, " %s", dev);
}

/* ---- names to ids ---------------------------------------------------------- */

typedef struct name_tab {
    uint64_t *key;
    int32_t *val;
    unsigned mask;
} name_tab;

struct ry_name_index {
    const ry_fabric *f;
    name_tab nic, sw;
};

static void tab_init(name_tab *t, size_t n)
{
    unsigned cap = 16;
    while (cap < n * 2 + 16)
        cap *= 2;
    t->mask = cap - 1;
    t->key = ry_xmalloc((size_t)cap * sizeof *t->key);
    t->val = ry_xmalloc((size_t)cap * sizeof *t->val);
    memset(t->val, 0xff, (size_t)cap * sizeof *t->val);
}

static void tab_add(name_tab *t, const char *name, int32_t id)
{
    uint64_t h = ry_hash_str(name);
    unsigned i = (unsigned)h & t->mask;
    while (t->val[i] >= 0)
        i = (i + 1) & t->mask;
    t->key[i] = h;
    t->val[i] = id;
}

static int32_t tab_find(const name_tab *t, const char *name, const ry_fabric *f, int nic)
{
    uint64_t h = ry_hash_str(name);
    char buf[160];
    for (unsigned i = (unsigned)h & t->mask; t->val[i] >= 0; i = (i + 1) & t->mask) {
        if (t->key[i] != h)
            continue;
        if (nic)
            ry_ca_desc(f, (uint32_t)t->val[i], buf, sizeof buf);
        else
            ry_node_name(f, (uint32_t)t->val[i], buf, sizeof buf);
        if (strcmp(buf, name) == 0)
            return t->val[i];
    }
    return -1;
}

ry_name_index *ry_name_index_new(const ry_fabric *f)
{
    ry_name_index *ix = ry_xcalloc(1, sizeof *ix);
    size_t nnic = (size_t)f->gpus * (size_t)f->planes, nsw = f->nnodes - f->first_switch;
    char buf[160];
    ix->f = f;
    tab_init(&ix->nic, nnic);
    tab_init(&ix->sw, nsw);
    for (size_t gp = 0; gp < nnic; gp++) {
        ry_ca_desc(f, (uint32_t)gp, buf, sizeof buf);
        tab_add(&ix->nic, buf, (int32_t)gp);
    }
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        ry_node_name(f, (uint32_t)i, buf, sizeof buf);
        tab_add(&ix->sw, buf, (int32_t)i);
    }
    return ix;
}

void ry_name_index_free(ry_name_index *ix)
{
    if (!ix)
        return;
    free(ix->nic.key);
    free(ix->nic.val);
    free(ix->sw.key);
    free(ix->sw.val);
    free(ix);
}

int32_t ry_name_index_nic(const ry_name_index *ix, const char *desc)
{
    return tab_find(&ix->nic, desc, ix->f, 1);
}

int32_t ry_name_index_switch(const ry_name_index *ix, const char *name)
{
    return tab_find(&ix->sw, name, ix->f, 0);
}
