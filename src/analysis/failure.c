/* Failures and what they leave (see failure.h for the design).
 *
 * The workspace holds every per-node, per-port and per-domain buffer, and
 * the hash tables of the pair counts; ry_failure_analyze only writes into
 * them. Components are those of the switch graph (GPUs do not forward
 * between their NIC ports: each plane is a subnet of its own, and with
 * fabric.homing dual-tor a ToR pair's two planes are one subnet). */
#include "analysis/failure.h"

#include "analysis/cabling.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/unionfind.h"

/* ---- the set ----------------------------------------------------------------------------- */

ry_failure *ry_failure_new(const ry_fabric *f)
{
    ry_failure *fs = ry_xcalloc(1, sizeof *fs);
    fs->nnodes = f->nnodes;
    fs->nlinks = f->nlinks;
    fs->node_down = ry_xcalloc(f->nnodes ? f->nnodes : 1, 1);
    fs->link_down = ry_xcalloc(f->nlinks ? f->nlinks : 1, 1);
    return fs;
}

void ry_failure_clear(ry_failure *fs)
{
    memset(fs->node_down, 0, fs->nnodes);
    memset(fs->link_down, 0, fs->nlinks);
}

void ry_failure_free(ry_failure *fs)
{
    if (!fs)
        return;
    free(fs->node_down);
    free(fs->link_down);
    free(fs);
}

/* ---- names --------------------------------------------------------------------------------- */

static uint32_t gpu_port(const ry_fabric *f, long long gpu, int plane)
{
    return f->nodes[gpu].port0 + (uint32_t)plane;
}

void ry_fail_elem_name(const ry_fabric *f, ry_fail_elem *e)
{
    char buf[96];
    switch (e->kind) {
    case RY_FAIL_SWITCH:
        ry_node_name(f, (uint32_t)e->id, e->name, sizeof e->name);
        break;
    case RY_FAIL_LINK: {
        uint32_t hi = f->links[e->id].hi;
        ry_node_name(f, f->ports[hi].owner, buf, sizeof buf);
        snprintf(e->name, sizeof e->name, "%.80s/%d", buf, ry_port_number(f, hi));
        break;
    }
    case RY_FAIL_NIC: {
        ry_ca_desc(f, (uint32_t)e->id, buf, sizeof buf);
        char *sp = strrchr(buf, ' ');
        if (sp)
            *sp = '/';
        snprintf(e->name, sizeof e->name, "%s", buf);
        break;
    }
    case RY_FAIL_RAIL:
        snprintf(e->name, sizeof e->name, "rail%lld", (long long)e->id);
        break;
    case RY_FAIL_PLANE:
        snprintf(e->name, sizeof e->name, "plane%lld", (long long)e->id);
        break;
    }
}

/* A whole number of digits only, or -1. */
static long long digits(const char *s)
{
    if (!*s || strlen(s) > 12)
        return -1;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return -1;
    return strtoll(s, NULL, 10);
}

static int expected(const ry_fabric *f, const char *name, ry_err *err, const char *why)
{
    char sw[64] = "leaf0", nic[96] = "node001/mlx5_0";
    if (f->nnodes > f->first_switch)
        ry_node_name(f, f->first_switch, sw, sizeof sw);
    if (f->gpus > 0) {
        ry_ca_desc(f, 0, nic, sizeof nic);
        char *sp = strrchr(nic, ' ');
        if (sp)
            *sp = '/';
    }
    char label[192] = "";
    if (f->nlinks > 0)
        ry_cable_label(f, 0, label, sizeof label);
    ry_err_set(err, "", "%s '%s': expected a switch (%s), a cable label (%s), "
               "SWITCH/PORT (%s/1), HOST/NIC (%s), rail0..rail%d or plane0..plane%d", why, name,
               sw, label, sw, nic, f->rails - 1, f->planes - 1);
    return -1;
}

/* A cable label (ry_cable_label): "<spec>-<switch>-<port>" or
 * "<spec>-<host>-<NIC>", the device and its port split at a '-' (the
 * rightmost that names a cabled port); 0 with e set to the link, -1 when
 * name is no cable's label. */
static int link_by_label(const ry_fabric *f, const ry_name_index *ix, const char *name,
                         ry_fail_elem *e)
{
    size_t sn = strlen(f->spec->name), n = strlen(name);
    if (strncmp(name, f->spec->name, sn) != 0 || name[sn] != '-' || n - sn - 1 >= 160)
        return -1;
    const char *rest = name + sn + 1;
    for (const char *d = strrchr(rest, '-'); d; ) {
        char left[160], desc[200];
        size_t len = (size_t)(d - rest);
        memcpy(left, rest, len);
        left[len] = '\0';
        int32_t sw = ry_name_index_switch(ix, left), l = -1;
        long long p;
        if (sw >= 0 && (p = digits(d + 1)) >= 1 && p <= (long long)f->nodes[sw].nports)
            l = f->ports[f->nodes[sw].port0 + (uint32_t)(p - 1)].link;
        if (sw < 0) {
            snprintf(desc, sizeof desc, "%s %s", left, d + 1);
            int32_t gp = ry_name_index_nic(ix, desc);
            if (gp >= 0)
                l = f->ports[gp].link;
        }
        if (l >= 0) {
            e->kind = RY_FAIL_LINK;
            e->id = l;
            return 0;
        }
        while (--d > rest && *d != '-')
            ;
        if (d <= rest)
            break;
    }
    return -1;
}

/* "leaf0/9/1": a switch and its port as the cabling plan and the switch's
 * OS name it (cage/port[/split], ry_port_label); 0 with e set to the
 * port's link, -1 when name is not that. */
static int port_by_label(const ry_fabric *f, const ry_name_index *ix, const char *name,
                         ry_fail_elem *e)
{
    const char *slash = strchr(name, '/');
    char left[160], lab[32];
    size_t len = (size_t)(slash - name);
    if (len >= sizeof left)
        return -1;
    memcpy(left, name, len);
    left[len] = '\0';
    int32_t sw = ry_name_index_switch(ix, left);
    if (sw < 0)
        return -1;
    const ry_node *nd = &f->nodes[sw];
    for (uint32_t i = 0; i < nd->nports; i++) {
        uint32_t p = nd->port0 + i;
        if (ry_port_label(f, p, lab, sizeof lab) > 0 && strcmp(lab, slash + 1) == 0
            && f->ports[p].link >= 0) {
            e->kind = RY_FAIL_LINK;
            e->id = f->ports[p].link;
            return 0;
        }
    }
    return -1;
}

int ry_fail_elem_parse(const ry_fabric *f, const ry_name_index *ix, const char *name,
                       ry_fail_elem *e, ry_err *err)
{
    memset(e, 0, sizeof *e);
    long long n;
    if (strncmp(name, "rail", 4) == 0 && (n = digits(name + 4)) >= 0) {
        if (n >= f->rails)
            return expected(f, name, err, "no such rail");
        e->kind = RY_FAIL_RAIL;
        e->id = n;
    } else if (strncmp(name, "plane", 5) == 0 && (n = digits(name + 5)) >= 0) {
        if (n >= f->planes)
            return expected(f, name, err, "no such plane");
        e->kind = RY_FAIL_PLANE;
        e->id = n;
    } else if (strchr(name, '/')) {
        char left[160];
        const char *slash = strrchr(name, '/');
        size_t len = (size_t)(slash - name);
        if (len >= sizeof left)
            return expected(f, name, err, "unknown element");
        memcpy(left, name, len);
        left[len] = '\0';
        int32_t sw = ry_name_index_switch(ix, left);
        if (sw >= 0) {
            long long p = digits(slash + 1);
            if (p < 1 || p > (long long)f->nodes[sw].nports) {
                ry_err_set(err, "", "no port '%s': expected %s/N, N a port number from 1 to %u",
                           name, left, f->nodes[sw].nports);
                return -1;
            }
            int32_t l = f->ports[f->nodes[sw].port0 + (uint32_t)(p - 1)].link;
            if (l < 0) {
                ry_err_set(err, "", "%s is not cabled: expected a cabled port of %s", name, left);
                return -1;
            }
            e->kind = RY_FAIL_LINK;
            e->id = l;
        } else if (port_by_label(f, ix, name, e) == 0) {
            /* SWITCH/CAGE/PORT: the port as the switch names it (cabling.csv's a_cage_port) */
        } else {
            char desc[200];
            snprintf(desc, sizeof desc, "%s %s", left, slash + 1);
            int32_t gp = ry_name_index_nic(ix, desc);
            if (gp < 0)
                return expected(f, name, err, "unknown element");
            e->kind = RY_FAIL_NIC;
            e->id = gp;
        }
    } else {
        int32_t sw = ry_name_index_switch(ix, name);
        if (sw >= 0) {
            e->kind = RY_FAIL_SWITCH;
            e->id = sw;
        } else if (link_by_label(f, ix, name, e) == 0) {
            /* a cable by its label */
        } else {
            return expected(f, name, err, "unknown element");
        }
    }
    ry_fail_elem_name(f, e);
    return 0;
}

/* ---- random draws ------------------------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64* */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Whether a switch of tier t answers to the kind's name. */
static int tier_is(const ry_fabric *f, int t, const char *kind)
{
    char tn[16];
    snprintf(tn, sizeof tn, "t%d", t);
    return strcmp(kind, ry_tier_name(t, f->tiers)) == 0 || strcmp(kind, tn) == 0;
}

int ry_fail_random(const ry_fabric *f, const char *spec, uint64_t seed, ry_fail_elem *e,
                   int cap, int *n, ry_err *err)
{
    uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (!st)
        st = 1;
    size_t maxc = f->nlinks > f->nnodes ? f->nlinks : f->nnodes;
    int64_t *cand = ry_xmalloc((maxc ? maxc : 1) * sizeof *cand);
    int rc = 0;
    for (const char *p = spec; *p && rc == 0; ) {
        size_t len = strcspn(p, ",");
        char item[64], *colon;
        long long count;
        if (len == 0 || len >= sizeof item) {
            ry_err_set(err, "", "bad --random item '%.*s': expected KIND:COUNT, e.g. leaf:2",
                       (int)len, p);
            rc = -1;
            break;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        p += len + (p[len] == ',');
        if (!(colon = strchr(item, ':')) || (count = digits(colon + 1)) < 0) {
            ry_err_set(err, "", "bad --random item '%s': expected KIND:COUNT, e.g. leaf:2", item);
            rc = -1;
            break;
        }
        *colon = '\0';
        size_t nc = 0;
        ry_fail_kind k = RY_FAIL_SWITCH;
        if (strcmp(item, "cable") == 0 || strcmp(item, "nic") == 0) {
            k = RY_FAIL_LINK;
            for (size_t l = 0; l < f->nlinks; l++)
                if (item[0] == 'c' || ry_port_node(f, f->links[l].lo)->kind == RY_NODE_GPU)
                    cand[nc++] = (int64_t)l;
        } else {
            for (size_t i = f->first_switch; i < f->nnodes; i++)
                if (tier_is(f, f->nodes[i].tier, item))
                    cand[nc++] = (int64_t)i;
            if (nc == 0) {
                char kinds[256] = "";
                size_t at = 0;
                for (int t = 1; t <= f->tiers && at < sizeof kinds; t++)
                    at += (size_t)snprintf(kinds + at, sizeof kinds - at, "%s, ",
                                           ry_tier_name(t, f->tiers));
                ry_err_set(err, "", "no switch of kind '%s' in the fabric: expected %scable or "
                           "nic", item, kinds);
                rc = -1;
                break;
            }
        }
        if ((size_t)count > nc) {
            ry_err_set(err, "", "--random %s:%lld: the fabric has only %zu", item, count, nc);
            rc = -1;
            break;
        }
        for (long long i = 0; i < count; i++) {
            size_t j = (size_t)i + (size_t)(rng_next(&st) % (uint64_t)(nc - (size_t)i));
            int64_t t = cand[i];
            cand[i] = cand[j];
            cand[j] = t;
            if (*n >= cap) {
                ry_err_set(err, "", "too many failed elements (at most %d)", cap);
                rc = -1;
                break;
            }
            ry_fail_elem *x = &e[(*n)++];
            memset(x, 0, sizeof *x);
            x->kind = k;
            x->id = cand[i];
            /* a GPU's cable is named as its NIC */
            if (k == RY_FAIL_LINK && ry_port_node(f, f->links[x->id].lo)->kind == RY_NODE_GPU) {
                x->kind = RY_FAIL_NIC;
                x->id = f->links[x->id].lo;
            }
            ry_fail_elem_name(f, x);
        }
    }
    free(cand);
    return rc;
}

/* ---- applying and translating -------------------------------------------------------------- */

void ry_failure_apply(const ry_fabric *f, const ry_fail_elem *e, int n, ry_failure *fs)
{
    for (int i = 0; i < n; i++) {
        switch (e[i].kind) {
        case RY_FAIL_SWITCH:
            fs->node_down[e[i].id] = 1;
            break;
        case RY_FAIL_LINK:
            fs->link_down[e[i].id] = 1;
            break;
        case RY_FAIL_NIC: {
            int32_t l = f->ports[e[i].id].link;
            if (l >= 0)
                fs->link_down[l] = 1;
            break;
        }
        case RY_FAIL_RAIL:
        case RY_FAIL_PLANE: {
            int rail = e[i].kind == RY_FAIL_RAIL;
            for (size_t s = f->first_switch; s < f->nnodes; s++) {
                const ry_node *nd = &f->nodes[s];
                if (rail ? nd->nrails == 1 && nd->rail == e[i].id : nd->plane == e[i].id)
                    fs->node_down[s] = 1;
            }
            /* a packed switch carries several rails: the rail's NIC cables */
            for (long long g = 0; rail && g < f->gpus; g++)
                if (f->nodes[g].rail == e[i].id)
                    for (int p = 0; p < f->planes; p++) {
                        int32_t l = f->ports[gpu_port(f, g, p)].link;
                        if (l >= 0)
                            fs->link_down[l] = 1;
                    }
            break;
        }
        }
    }
    for (size_t l = 0; l < f->nlinks; l++)
        if (fs->node_down[f->ports[f->links[l].lo].owner] ||
            fs->node_down[f->ports[f->links[l].hi].owner])
            fs->link_down[l] = 1;
}

static int push(ry_fail_elem *out, int cap, int *n, const ry_fabric *to, ry_fail_kind k,
                int64_t id)
{
    for (int i = 0; i < *n; i++)
        if (out[i].kind == k && out[i].id == id)
            return 0;
    if (*n >= cap)
        return -1;
    ry_fail_elem *x = &out[(*n)++];
    memset(x, 0, sizeof *x);
    x->kind = k;
    x->id = id;
    ry_fail_elem_name(to, x);
    return 0;
}

void ry_fail_translate(const ry_fabric *from, const ry_fail_elem *e, int n, const ry_fabric *to,
                       const ry_name_index *ix_to, ry_fail_elem *out, int cap, int *nout,
                       ry_fail_elem *unmapped, int *nun)
{
    char buf[160];
    for (int i = 0; i < n; i++) {
        const ry_fail_elem *x = &e[i];
        int mapped = 0;
        switch (x->kind) {
        case RY_FAIL_NIC:
            mapped = push(out, cap, nout, to, RY_FAIL_NIC, x->id) == 0;
            break;
        case RY_FAIL_RAIL:
            mapped = x->id < to->rails && push(out, cap, nout, to, RY_FAIL_RAIL, x->id) == 0;
            break;
        case RY_FAIL_PLANE:
            mapped = x->id < to->planes && push(out, cap, nout, to, RY_FAIL_PLANE, x->id) == 0;
            break;
        case RY_FAIL_LINK: {
            const ry_link *l = &from->links[x->id];
            if (ry_port_node(from, l->lo)->kind == RY_NODE_GPU) {
                mapped = push(out, cap, nout, to, RY_FAIL_NIC, l->lo) == 0;
                break;
            }
            ry_node_name(from, from->ports[l->hi].owner, buf, sizeof buf);
            int32_t sw = ry_name_index_switch(ix_to, buf);
            int num = ry_port_number(from, l->hi);
            if (sw >= 0 && (uint32_t)num <= to->nodes[sw].nports) {
                int32_t tl = to->ports[to->nodes[sw].port0 + (uint32_t)(num - 1)].link;
                mapped = tl >= 0 && push(out, cap, nout, to, RY_FAIL_LINK, tl) == 0;
            }
            break;
        }
        case RY_FAIL_SWITCH: {
            /* a leaf: the counterpart's leaf holding most of its GPU ports
             * (the same leaf between rail-only and rail-optimized) */
            const ry_node *nd = &from->nodes[x->id];
            int64_t best = -1;
            int bestn = 0;
            for (uint32_t p = 0; nd->tier == 1 && p < nd->nports; p++) {
                int32_t peer = from->ports[nd->port0 + p].peer;
                if (peer < 0 || ry_port_node(from, (uint32_t)peer)->kind != RY_NODE_GPU)
                    continue;
                int32_t tpeer = to->ports[peer].peer;   /* GPU port ids agree */
                if (tpeer < 0)
                    continue;
                int64_t cand = to->ports[tpeer].owner;
                int cnt = 0;
                for (uint32_t q = 0; q < nd->nports; q++) {
                    int32_t pq = from->ports[nd->port0 + q].peer;
                    if (pq >= 0 && ry_port_node(from, (uint32_t)pq)->kind == RY_NODE_GPU &&
                        to->ports[pq].peer >= 0 &&
                        (int64_t)to->ports[to->ports[pq].peer].owner == cand)
                        cnt++;
                }
                if (cnt > bestn || (cnt == bestn && cand < best)) {
                    best = cand;
                    bestn = cnt;
                }
            }
            if (best >= 0) {
                mapped = push(out, cap, nout, to, RY_FAIL_SWITCH, best) == 0;
            } else {
                ry_node_name(from, (uint32_t)x->id, buf, sizeof buf);
                int32_t sw = ry_name_index_switch(ix_to, buf);
                mapped = sw >= 0 && push(out, cap, nout, to, RY_FAIL_SWITCH, sw) == 0;
            }
            break;
        }
        }
        if (!mapped)
            unmapped[(*nun)++] = *x;
    }
}

/* ---- the report ---------------------------------------------------------------------------- */

void ry_failure_report_init(ry_failure_report *r, const ry_fabric *f)
{
    memset(r, 0, sizeof *r);
    r->nrails = f->rails;
    r->nplanes = f->planes;
    r->nunits = f->num_units > 0 ? f->num_units : 1;
    r->rail = ry_xcalloc((size_t)r->nrails, sizeof *r->rail);
    r->plane = ry_xcalloc((size_t)r->nplanes, sizeof *r->plane);
    r->unit = ry_xcalloc((size_t)r->nunits, sizeof *r->unit);
}

void ry_failure_report_free(ry_failure_report *r)
{
    if (!r)
        return;
    free(r->rail);
    free(r->plane);
    free(r->unit);
    memset(r, 0, sizeof *r);
}

void ry_fail_tier_name(const ry_fabric *f, int t, char *buf, size_t n)
{
    snprintf(buf, n, "%s-%s", t == 1 ? "gpu" : ry_tier_name(t - 1, f->tiers),
             ry_tier_name(t, f->tiers));
}

/* ---- the workspace ------------------------------------------------------------------------- */

/* A GPU's ports by network: the ports that one switch graph takes. With
 * fabric.homing dual-tor a network takes two ports (2w and 2w + 1, on the
 * two ToRs of a pair under one aggregation layer), else one (a plane of
 * its own; dual-plane puts a pair's ToRs in two planes). */
static int ports_per_network(const ry_fabric *f)
{
    return f->spec->homing == RY_HOMING_DUAL_TOR && f->planes % 2 == 0 ? 2 : 1;
}

/* An open-addressing table of groups keyed by a tuple of component ids,
 * cleared by a generation count instead of a memset. */
typedef struct group_tab {
    uint32_t *gen;
    int64_t *rep;           /* the first member: a GPU or a domain */
    long long *count;
    uint64_t *hash;
    size_t mask;
    size_t used;            /* entries of the current generation */
    uint32_t now;
} group_tab;

struct ry_failure_ws {
    const ry_fabric *f;     /* borrowed */
    long long K, domains;
    uint32_t *uf;           /* [nnodes] */
    int32_t *comp;          /* [nnodes]: dense component of a switch root, -1 */
    double *upcap, *upcap_up, *downcap, *downcap_up, *factor;   /* [nnodes] */
    int32_t *unit;          /* [nnodes]: scalable unit of a GPU or leaf, -1 */
    int32_t *port_comp;     /* [gpus * planes]: component of a GPU's plane port, -1 */
    int32_t *net_comp;      /* [gpus * planes], dual-tor: a ToR pair's distinct components */
    double *bw, *bw_healthy;/* [gpus], Gb/s */
    int32_t *dset;          /* [gpus * planes]: each domain's sorted set of components */
    long long *doff;        /* [domains + 1] */
    int64_t *dgroup;        /* [domains]: the group's first domain */
    int64_t *grep;          /* [domains]: the groups' first domains */
    long long *gcount;
    double worst_healthy;
    group_tab tab;
};

static void tab_init(group_tab *t, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 16)
        cap *= 2;
    t->mask = cap - 1;
    t->gen = ry_xcalloc(cap, sizeof *t->gen);
    t->rep = ry_xmalloc(cap * sizeof *t->rep);
    t->count = ry_xmalloc(cap * sizeof *t->count);
    t->hash = ry_xmalloc(cap * sizeof *t->hash);
    t->used = 0;
    t->now = 0;
}

static void tab_free(group_tab *t)
{
    free(t->gen);
    free(t->rep);
    free(t->count);
    free(t->hash);
}

static void tab_reset(group_tab *t)
{
    t->used = 0;
    if (++t->now == 0) {
        memset(t->gen, 0, (t->mask + 1) * sizeof *t->gen);
        t->now = 1;
    }
}

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

ry_failure_ws *ry_failure_ws_new(const ry_fabric *f)
{
    ry_failure_ws *ws = ry_xcalloc(1, sizeof *ws);
    size_t nn = f->nnodes ? f->nnodes : 1, np = (size_t)f->gpus * (size_t)f->planes + 1;
    ws->f = f;
    ws->K = f->spec->hb_domain > 0 ? f->spec->hb_domain : 1;
    ws->domains = f->gpus / ws->K;
    ws->uf = ry_xmalloc(nn * sizeof *ws->uf);
    ws->comp = ry_xmalloc(nn * sizeof *ws->comp);
    ws->upcap = ry_xcalloc(nn, sizeof *ws->upcap);
    ws->upcap_up = ry_xcalloc(nn, sizeof *ws->upcap_up);
    ws->downcap = ry_xcalloc(nn, sizeof *ws->downcap);
    ws->downcap_up = ry_xcalloc(nn, sizeof *ws->downcap_up);
    ws->factor = ry_xcalloc(nn, sizeof *ws->factor);
    ws->unit = ry_xmalloc(nn * sizeof *ws->unit);
    ws->port_comp = ry_xmalloc(np * sizeof *ws->port_comp);
    if (ports_per_network(f) == 2)
        ws->net_comp = ry_xmalloc(np * sizeof *ws->net_comp);
    ws->bw = ry_xcalloc((size_t)f->gpus + 1, sizeof *ws->bw);
    ws->bw_healthy = ry_xcalloc((size_t)f->gpus + 1, sizeof *ws->bw_healthy);
    ws->dset = ry_xmalloc(np * sizeof *ws->dset);
    ws->doff = ry_xmalloc(((size_t)ws->domains + 1) * sizeof *ws->doff);
    ws->dgroup = ry_xmalloc(((size_t)ws->domains + 1) * sizeof *ws->dgroup);
    ws->grep = ry_xmalloc(((size_t)ws->domains + 1) * sizeof *ws->grep);
    ws->gcount = ry_xmalloc(((size_t)ws->domains + 1) * sizeof *ws->gcount);
    tab_init(&ws->tab, (size_t)f->gpus > (size_t)ws->domains ? (size_t)f->gpus : 1);

    /* units: a GPU's from its domain, a leaf's from a GPU below it */
    int S = f->su_domains > 0 ? f->su_domains : 1;
    for (size_t i = 0; i < f->nnodes; i++)
        ws->unit[i] = -1;
    for (long long g = 0; g < f->gpus; g++) {
        ws->unit[g] = (int32_t)(g / ws->K / S);
        for (int p = 0; p < f->planes; p++) {
            int32_t l = f->ports[gpu_port(f, g, p)].link;
            if (l >= 0) {
                uint32_t leaf = f->ports[f->links[l].hi].owner;
                if (ws->unit[leaf] < 0)
                    ws->unit[leaf] = ws->unit[g];
            }
        }
    }
    /* healthy capacities, bandwidth and oversubscription */
    for (size_t l = 0; l < f->nlinks; l++) {
        double g = ry_link_gbps(f, (uint32_t)l);
        uint32_t lo = f->ports[f->links[l].lo].owner, hi = f->ports[f->links[l].hi].owner;
        ws->downcap[hi] += g;
        if (f->nodes[lo].kind == RY_NODE_GPU)
            ws->bw_healthy[lo] += g;
        else
            ws->upcap[lo] += g;
    }
    ws->worst_healthy = 0;
    for (size_t s = f->first_switch; s < f->nnodes; s++)
        if (ws->upcap[s] > 0 && ws->downcap[s] / ws->upcap[s] > ws->worst_healthy)
            ws->worst_healthy = ws->downcap[s] / ws->upcap[s];
    return ws;
}

void ry_failure_ws_free(ry_failure_ws *ws)
{
    if (!ws)
        return;
    free(ws->uf);
    free(ws->comp);
    free(ws->upcap);
    free(ws->upcap_up);
    free(ws->downcap);
    free(ws->downcap_up);
    free(ws->factor);
    free(ws->unit);
    free(ws->port_comp);
    free(ws->net_comp);
    free(ws->bw);
    free(ws->bw_healthy);
    free(ws->dset);
    free(ws->doff);
    free(ws->dgroup);
    free(ws->grep);
    free(ws->gcount);
    tab_free(&ws->tab);
    free(ws);
}

/* ---- the analysis -------------------------------------------------------------------------- */

static int link_is_up(const ry_fabric *f, const ry_failure *fs, size_t l)
{
    if (!fs)
        return 1;
    return !fs->link_down[l] && !fs->node_down[f->ports[f->links[l].lo].owner] &&
           !fs->node_down[f->ports[f->links[l].hi].owner];
}

static void cap_add(ry_fail_cap *c, double g, int up)
{
    c->links++;
    c->gbps += g;
    if (up) {
        c->links_up++;
        c->gbps_up += g;
    }
}

/* Capacity per tier, rail, plane, unit; per switch the capacity up and
 * down that is left; the switch graph's components. */
static void capacity(ry_failure_ws *ws, const ry_failure *fs, ry_failure_report *r)
{
    const ry_fabric *f = ws->f;
    for (size_t i = 0; i < f->nnodes; i++) {
        ws->uf[i] = (uint32_t)i;
        ws->upcap_up[i] = ws->downcap_up[i] = 0;
    }
    for (size_t l = 0; l < f->nlinks; l++) {
        double g = ry_link_gbps(f, (uint32_t)l);
        int up = link_is_up(f, fs, l);
        const ry_link *k = &f->links[l];
        uint32_t lo = f->ports[k->lo].owner, hi = f->ports[k->hi].owner;
        const ry_node *nl = &f->nodes[lo], *nh = &f->nodes[hi];
        int gpu = nl->kind == RY_NODE_GPU;
        if (!up)
            r->links_down++;
        if (nh->tier <= RY_MAX_TIERS)
            cap_add(&r->tier[nh->tier], g, up);
        if ((gpu || nl->nrails == 1) && nl->rail >= 0 && nl->rail < r->nrails)
            cap_add(&r->rail[nl->rail], g, up);
        int plane = gpu ? (int)(k->lo - nl->port0) : nh->plane;
        if (plane < r->nplanes)
            cap_add(&r->plane[plane], g, up);
        if ((gpu || nl->tier == 1) && ws->unit[lo] >= 0 && ws->unit[lo] < r->nunits)
            cap_add(&r->unit[ws->unit[lo]], g, up);
        if (up) {
            ws->downcap_up[hi] += g;
            if (!gpu) {
                ws->upcap_up[lo] += g;
                ry_uf_join(ws->uf, lo, hi);
            }
        }
    }
}

/* The share of a switch's healthy uplink capacity that still leads to the
 * top, tier by tier from the top down: an uplink counts by its speed times
 * its upper switch's share. */
static void up_factors(ry_failure_ws *ws, const ry_failure *fs)
{
    const ry_fabric *f = ws->f;
    for (int t = f->tiers; t >= 1; t--)
        for (size_t s = f->first_switch; s < f->nnodes; s++) {
            const ry_node *nd = &f->nodes[s];
            if (nd->tier != t)
                continue;
            if (fs && fs->node_down[s]) {
                ws->factor[s] = 0;
                continue;
            }
            if (ws->upcap[s] <= 0) {
                ws->factor[s] = 1;
                continue;
            }
            double sum = 0;
            for (uint32_t p = 0; p < nd->nports; p++) {
                int32_t l = f->ports[nd->port0 + p].link;
                if (l < 0 || f->links[l].lo != nd->port0 + p || !link_is_up(f, fs, (size_t)l))
                    continue;
                sum += ry_link_gbps(f, (uint32_t)l) * ws->factor[f->ports[f->links[l].hi].owner];
            }
            ws->factor[s] = sum / ws->upcap[s];
        }
}

static long long choose2(long long n) { return n * (n - 1) / 2; }

/* With two ports a network: each GPU's distinct components of a network
 * in net_comp, ascending, -1 after them (one port a network: port_comp
 * is that already). */
static const int32_t *net_comps(ry_failure_ws *ws, int m)
{
    if (m == 1)
        return ws->port_comp;
    size_t n = (size_t)ws->f->gpus * (size_t)ws->f->planes;
    for (size_t i = 0; i < n; i += 2) {
        int32_t a = ws->port_comp[i], b = ws->port_comp[i + 1];
        if (a < 0 || a == b) {
            a = b;
            b = -1;
        } else if (b >= 0 && b < a) {
            int32_t x = a;
            a = b;
            b = x;
        }
        ws->net_comp[i] = a;
        ws->net_comp[i + 1] = b;
    }
    return ws->net_comp;
}

/* The key of a GPU (its row nc of net_comps) in a pass that takes take[k]
 * components of network net[k], k < nn: those components, or with one
 * taken of two, the one a bit of pick chooses (in the order of such
 * networks). Returns the key's length, or -1 when the GPU has fewer
 * components than the pass takes or fewer choices than pick asks. */
__attribute__((always_inline))
static inline int pair_key(const int32_t *nc, const int *net, const int *take, int nn, int m,
                           unsigned pick, int32_t *key)
{
    int len = 0, bit = 0;
    for (int k = 0; k < nn; k++) {
        const int32_t *c = nc + net[k] * m;
        int n = c[0] < 0 ? 0 : m == 1 || c[1] < 0 ? 1 : 2;
        if (n < take[k])
            return -1;
        if (take[k] == n) {
            key[len++] = c[0];
            if (n == 2)
                key[len++] = c[1];
        } else {
            key[len++] = c[(pick >> bit++) & 1];
        }
    }
    return pick >> bit ? -1 : len;
}

/* Doubles the table, keeping the entries of the current generation. */
static void tab_grow(group_tab *t)
{
    group_tab n;
    tab_init(&n, t->mask + 1);
    n.now = 1;
    for (size_t i = 0; i <= t->mask; i++) {
        if (t->gen[i] != t->now)
            continue;
        size_t j = (size_t)t->hash[i] & n.mask;
        while (n.gen[j] == n.now)
            j = (j + 1) & n.mask;
        n.gen[j] = n.now;
        n.hash[j] = t->hash[i];
        n.rep[j] = t->rep[i];
        n.count[j] = t->count[i];
    }
    n.used = t->used;
    tab_free(t);
    *t = n;
}

/* GPU pairs that share a component: a path leaves one GPU by one of its
 * ports and arrives at the other by one of its own, in the same switch
 * graph (GPUs do not forward between their ports). A GPU's components are
 * a set C(g); a pair reaches when C(a) and C(b) meet, and by
 * inclusion-exclusion over the nonempty sets S of components the pairs
 * are sum (-1)^(|S|+1) C(n_S, 2), n_S the GPUs whose C(g) holds S.
 *
 * A component lies in one network, so S is counted in the pass of its
 * shape: how many of its components each network holds (0 or 1, and 2
 * where a network takes two ports), (m + 1)^W - 1 passes. A GPU adds to a
 * pass the sets of that shape its C(g) holds: one on a network of one port
 * per plane (this is inclusion-exclusion over the planes, grouping GPUs by
 * their tuple of components), and one of two when a ToR pair's two ports
 * sit in two components and the pass takes one of them. */
__attribute__((always_inline))
static inline long long pairs_of(ry_failure_ws *ws, const int32_t *nc, int m)
{
    const ry_fabric *f = ws->f;
    int P = f->planes, W = P / m;
    group_tab *t = &ws->tab;
    long long total = 0;
    unsigned passes = 1;
    for (int w = 0; w < W; w++)
        passes *= (unsigned)(m + 1);
    int net[RY_MAX_PLANES], take[RY_MAX_PLANES];
    int32_t key[RY_MAX_PLANES], rkey[RY_MAX_PLANES];
    for (unsigned code = 1; code < passes; code++) {
        int nn = 0, size = 0, ones = 0;
        for (unsigned w = 0, c = code; w < (unsigned)W; w++, c /= (unsigned)(m + 1))
            if (c % (unsigned)(m + 1)) {
                net[nn] = (int)w;
                take[nn] = (int)(c % (unsigned)(m + 1));
                size += take[nn];
                ones += m == 2 && take[nn] == 1;
                nn++;
            }
        tab_reset(t);
        long long within = 0;
        int64_t krep = -1;          /* the entry whose key rkey holds */
        int rlen = 0;
        for (long long g = 0; g < f->gpus; g++)
            for (unsigned pick = 0; pick < (1u << ones); pick++) {
                int len = pair_key(nc + g * P, net, take, nn, m, pick, key);
                if (len < 0)
                    break;
                uint64_t h = code;
                for (int k = 0; k < len; k++)
                    h = mix(h, (uint64_t)key[k]);
                size_t i = (size_t)h & t->mask;
                for (;; i = (i + 1) & t->mask) {
                    if (t->gen[i] != t->now) {
                        if (2 * (t->used + 1) > t->mask + 1) {
                            /* more sets than GPUs (ToR pairs split apart):
                             * grow, and probe again from h's slot */
                            tab_grow(t);
                            i = ((size_t)h - 1) & t->mask;
                            continue;
                        }
                        t->gen[i] = t->now;
                        t->hash[i] = h;
                        t->rep[i] = g << 8 | pick;
                        t->count[i] = 1;
                        t->used++;
                        break;
                    }
                    if (t->hash[i] != h)
                        continue;
                    int64_t rep = t->rep[i];
                    if (rep != krep) {      /* few groups: mostly the last one's */
                        krep = rep;
                        rlen = pair_key(nc + (rep >> 8) * P, net, take, nn, m,
                                        (unsigned)(rep & 0xff), rkey);
                    }
                    int same = rlen == len;
                    for (int k = 0; k < len && same; k++)
                        same = rkey[k] == key[k];
                    if (same) {
                        within += t->count[i]++;    /* C(n+1,2) - C(n,2) = n */
                        break;
                    }
                }
            }
        total += size % 2 ? within : -within;
    }
    return total;
}

static long long fabric_pairs(ry_failure_ws *ws)
{
    /* m a constant in each call (pairs_of inlined), so that the loops fold it */
    if (ports_per_network(ws->f) == 2)
        return pairs_of(ws, net_comps(ws, 2), 2);
    return pairs_of(ws, net_comps(ws, 1), 1);
}

static int sets_meet(const int32_t *a, long long na, const int32_t *b, long long nb)
{
    long long i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i] == b[j])
            return 1;
        if (a[i] < b[j])
            i++;
        else
            j++;
    }
    return 0;
}

/* GPU pairs that reach each other with the help of NVLink: the same HB
 * domain, or domains that share a component (one forwards into it over
 * NVLink, the other out of it). Domains are grouped by equal sets. */
static long long forward_pairs(ry_failure_ws *ws, ry_failure_report *r)
{
    const ry_fabric *f = ws->f;
    int P = f->planes;
    long long K = ws->K, D = ws->domains, ng = 0;
    group_tab *t = &ws->tab;
    tab_reset(t);
    long long off = 0;
    for (long long d = 0; d < D; d++) {
        ws->doff[d] = off;
        long long n0 = off;
        for (long long i = d * K * P; i < (d + 1) * K * P; i++)
            if (ws->port_comp[i] >= 0)
                ws->dset[off++] = ws->port_comp[i];
        qsort(ws->dset + n0, (size_t)(off - n0), sizeof *ws->dset, cmp_i32);
        long long m = n0;
        for (long long i = n0; i < off; i++)
            if (i == n0 || ws->dset[i] != ws->dset[m - 1])
                ws->dset[m++] = ws->dset[i];
        off = m;
        if (off == n0)
            r->domains_cut++;
        uint64_t h = 0x51ED;
        for (long long i = n0; i < off; i++)
            h = mix(h, (uint64_t)ws->dset[i]);
        size_t s = (size_t)h & t->mask;
        for (;; s = (s + 1) & t->mask) {
            if (t->gen[s] != t->now) {
                t->gen[s] = t->now;
                t->hash[s] = h;
                t->rep[s] = ng;
                t->used++;
                ws->grep[ng] = d;
                ws->gcount[ng++] = 1;
                break;
            }
            if (t->hash[s] != h)
                continue;
            /* rd < d: its set ends where the next domain's starts */
            long long rd = ws->grep[t->rep[s]], rn = ws->doff[rd + 1] - ws->doff[rd];
            if (rn == off - n0 && memcmp(ws->dset + ws->doff[rd], ws->dset + n0,
                                         (size_t)rn * sizeof *ws->dset) == 0) {
                ws->gcount[t->rep[s]]++;
                break;
            }
        }
    }
    ws->doff[D] = off;
    long long pairs = D * choose2(K);
    for (long long a = 0; a < ng; a++) {
        long long da = ws->grep[a], na = ws->doff[da + 1] - ws->doff[da];
        if (na == 0)
            continue;
        pairs += choose2(ws->gcount[a]) * K * K;
        for (long long b = a + 1; b < ng; b++) {
            long long db = ws->grep[b], nb = ws->doff[db + 1] - ws->doff[db];
            if (sets_meet(ws->dset + ws->doff[da], na, ws->dset + ws->doff[db], nb))
                pairs += ws->gcount[a] * ws->gcount[b] * K * K;
        }
    }
    return pairs;
}

void ry_failure_analyze(ry_failure_ws *ws, const ry_failure *fs, ry_failure_report *r)
{
    const ry_fabric *f = ws->f;
    int P = f->planes;
    /* keep the report's arrays, clear the rest */
    ry_fail_cap *rail = r->rail, *plane = r->plane, *unit = r->unit;
    int nr = r->nrails, np = r->nplanes, nu = r->nunits;
    memset(r, 0, sizeof *r);
    r->rail = rail;
    r->plane = plane;
    r->unit = unit;
    r->nrails = nr;
    r->nplanes = np;
    r->nunits = nu;
    memset(rail, 0, (size_t)nr * sizeof *rail);
    memset(plane, 0, (size_t)np * sizeof *plane);
    memset(unit, 0, (size_t)nu * sizeof *unit);
    r->gpus = f->gpus;
    r->domains = ws->domains;
    r->tiers = f->tiers;
    r->pairs = choose2(f->gpus);
    for (size_t s = f->first_switch; fs && s < f->nnodes; s++)
        r->switches_down += fs->node_down[s] != 0;

    capacity(ws, fs, r);
    up_factors(ws, fs);

    /* oversubscription left */
    r->worst_switch = -1;
    r->worst_oversub_healthy = ws->worst_healthy;
    for (size_t s = f->first_switch; s < f->nnodes; s++) {
        if ((fs && fs->node_down[s]) || ws->upcap[s] <= 0 || ws->downcap_up[s] <= 0)
            continue;
        double ov = ws->upcap_up[s] > 0 ? ws->downcap_up[s] / ws->upcap_up[s] : INFINITY;
        if (ws->upcap_up[s] <= 0)
            r->switches_isolated++;
        if (r->worst_switch < 0 || ov > r->worst_oversub) {
            r->worst_oversub = ov;
            r->worst_switch = (int32_t)s;
        }
    }

    /* components and the GPUs' ports */
    for (size_t s = f->first_switch; s < f->nnodes; s++)
        ws->comp[s] = -1;
    int32_t ncomp = 0;
    for (long long g = 0; g < f->gpus; g++) {
        double bw = 0;
        int up = 0;
        for (int p = 0; p < P; p++) {
            uint32_t gp = gpu_port(f, g, p);
            int32_t l = f->ports[gp].link;
            int32_t *pc = &ws->port_comp[g * P + p];
            *pc = -1;
            if (l < 0)
                continue;
            if (!link_is_up(f, fs, (size_t)l)) {
                r->nic_ports_cut++;
                continue;
            }
            uint32_t leaf = f->ports[f->links[l].hi].owner, root = ry_uf_find(ws->uf, leaf);
            if (ws->comp[root] < 0)
                ws->comp[root] = ncomp++;
            *pc = ws->comp[root];
            bw += ry_link_gbps(f, (uint32_t)l) * ws->factor[leaf];
            up++;
        }
        ws->bw[g] = bw;
        if (up == 0)
            r->gpus_cut++;
        else if (up < P)
            r->gpus_degraded++;
    }
    r->pairs_fabric = fabric_pairs(ws);
    long long fwd = forward_pairs(ws, r);
    r->pairs_forward = fwd - r->pairs_fabric;
    r->pairs_none = r->pairs - fwd;

    /* bandwidth per domain, and what forwarding moves over NVLink */
    long long K = ws->K;
    r->bs_ratio = 1;
    r->gating_domain = -1;
    for (long long d = 0; d < ws->domains; d++) {
        double b = 0, bh = 0;
        for (long long g = d * K; g < (d + 1) * K; g++) {
            b += ws->bw[g];
            bh += ws->bw_healthy[g];
        }
        double ratio = bh > 0 ? b / bh : 1;
        if (r->gating_domain < 0 || ratio < r->bs_ratio) {
            r->bs_ratio = ratio;
            r->gating_domain = d;
        }
        if (b <= 0)
            continue;
        for (long long g = d * K; g < (d + 1) * K; g++) {
            double x = 1 - (double)K * ws->bw[g] / b;
            if (fabs(x) > r->fwd_max)
                r->fwd_max = fabs(x);
            if (x > 0)
                r->fwd_sum += x;
        }
    }
    if (r->bs_ratio >= 1)
        r->gating_domain = -1;
}

size_t ry_failure_cut_ports(const ry_fabric *f, const ry_failure *fs, uint32_t *out, size_t cap)
{
    size_t n = 0;
    for (long long g = 0; g < f->gpus; g++)
        for (int p = 0; p < f->planes; p++) {
            uint32_t gp = gpu_port(f, g, p);
            int32_t l = f->ports[gp].link;
            if (l < 0 || link_is_up(f, fs, (size_t)l))
                continue;
            if (n < cap)
                out[n] = gp;
            n++;
        }
    return n;
}
