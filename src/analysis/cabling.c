/* The cabling plan: media chosen from the routed lengths, the physical bill
 * of materials counted from the chosen cables and the cages they plug into.
 *
 * A cage holds one module (a transceiver, or the head of a copper or active
 * optical cable), so every port of a cage carries the same medium, and the
 * same stock length (NVIDIA asks for the two fibres of a twin-port
 * transceiver to be about as long; a twin-port copper cable is one part).
 * Cages join the links that pass through them into groups (the links of a
 * cage, the cages at their other ends, and so on): each group gets one
 * medium, the cheapest that carries every link's speed, fits the cages at
 * both ends (connector, and a module serving all of a cage's ports) and
 * reaches the longest run of the group; that run's stock length is every
 * link's. The bill counts one module per used cage and one cable per link,
 * or per `legs` links of a cage for splitter cables. */
#include "analysis/cabling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "spec/catalog.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/phys.h"
#include "util/unionfind.h"

/* ---- names ------------------------------------------------------------------------------ */

static void length_code(double len, char *buf, size_t n)
{
    double whole = floor(len);
    if (len - whole >= 0.25)
        snprintf(buf, n, "%02dA", (int)whole);
    else
        snprintf(buf, n, "%03d", (int)whole);
}

static int part_with_length(const char *pat, double len, char *buf, size_t n)
{
    const char *at = strstr(pat, "{len}");
    if (!at)
        return snprintf(buf, n, "%s", pat);
    char code[16];
    length_code(len, code, sizeof code);
    return snprintf(buf, n, "%.*s%s%s", (int)(at - pat), pat, code, at + 5);
}

int ry_cable_part(const ry_cabling *c, uint32_t link, char *buf, size_t n)
{
    return part_with_length(c->media[c->cables[link].medium].cable_part, ry_cable_length(c, link),
                            buf, n);
}

int ry_port_label(const ry_fabric *f, uint32_t port, char *buf, size_t n)
{
    const ry_node *nd = &f->nodes[f->ports[port].owner];
    if (nd->kind == RY_NODE_GPU) {
        char desc[96];
        ry_ca_desc(f, port, desc, sizeof desc);
        const char *sp = strrchr(desc, ' ');
        return snprintf(buf, n, "%s", sp ? sp + 1 : desc);
    }
    int sub, parts;
    const ry_switch_model *m = ry_node_model_of(f, nd);
    int phys = ry_switch_port_phys(f, nd, port - nd->port0, &sub, &parts);
    if (parts == 1)
        return ry_switch_port_label(m, phys + 1, buf, n);
    /* a port its tier splits is named as the model's ports split that way */
    ry_switch_model split = *m;
    split.radix = m->radix * parts;
    return ry_switch_port_label(&split, phys * parts + sub + 1, buf, n);
}

int ry_switch_port_label(const ry_switch_model *sw, int number, char *buf, size_t n)
{
    int p = number - 1, cp, k;
    ry_switch_cage_shape(sw, &cp, &k);
    int cage = p / (cp * k) + 1, in_cage = p / k % cp + 1, split = p % k + 1;
    if (cp > 1 && k > 1)
        return snprintf(buf, n, "%d/%d/%d", cage, in_cage, split);
    if (cp > 1)
        return snprintf(buf, n, "%d/%d", cage, in_cage);
    if (k > 1)
        return snprintf(buf, n, "%d/%d", cage, split);
    return snprintf(buf, n, "%d", p + 1);
}

int ry_cable_label(const ry_fabric *f, uint32_t link, char *buf, size_t n)
{
    uint32_t lo = f->links[link].lo;
    const ry_node *nd = ry_port_node(f, lo);
    int len = snprintf(buf, n, "%s-", f->spec->name);
    if (len < 0 || (size_t)len >= n)
        return len;
    if (nd->kind == RY_NODE_SWITCH) {
        int k = ry_node_name(f, f->ports[lo].owner, buf + len, n - (size_t)len);
        if (k < 0 || (size_t)(len + k) >= n)
            return len + k;
        return len + k + snprintf(buf + len + k, n - (size_t)(len + k), "-%d",
                                  ry_port_number(f, lo));
    }
    /* a NIC's: "<host>-<rdma>", as cabling.csv names the host and the NIC */
    int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    long long gpu = nd->index;
    int k = ry_host_name(f, gpu / gpn, buf + len, n - (size_t)len);
    if (k < 0 || (size_t)(len + k) >= n)
        return len + k;
    len += k;
    char dev[32];
    ry_nic_rdma(&f->spec->node, (int)(gpu % gpn) + (int)(lo - nd->port0) * gpn, dev, sizeof dev);
    return len + snprintf(buf + len, n - (size_t)len, "-%s", dev);
}

/* ---- choosing media ----------------------------------------------------------------------- */

/* A medium the spec names, or -1 with err set at key. */
static int find_medium(const ry_media_catalog *cat, const char *name, const char *key,
                       ry_err *err)
{
    int m = ry_media_find(cat, name);
    if (m >= 0)
        return m;
    const char **names = ry_xcalloc((size_t)cat->nmedia + 1, sizeof *names);
    for (int i = 0; i < cat->nmedia; i++)
        names[i] = cat->media[i].name;
    char msg[sizeof err->msg];
    ry_catalog_unknown_text(msg, sizeof msg, key, "medium", name, names, cat->nmedia, "");
    free(names);
    ry_err_set(err, key, "%s", msg);
    return -1;
}

static int carries(const ry_medium *m, double gbps)
{
    for (int i = 0; i < m->nspeeds; i++)
        if (m->speeds[i] == gbps)
            return 1;
    return 0;
}

/* Index of the shortest stock length >= need, or -1. */
static int stock_for(const ry_medium *m, double need)
{
    for (int i = 0; i < m->nlengths; i++)
        if (m->lengths[i] + 1e-9 >= need)
            return i;
    return -1;
}

static void link_name(const ry_fabric *f, uint32_t link, char *buf, size_t n)
{
    char a[96], b[96], pa[32], pb[32];
    const ry_link *k = &f->links[link];
    uint32_t lo = f->ports[k->lo].owner, hi = f->ports[k->hi].owner;
    if (f->nodes[lo].kind == RY_NODE_GPU) {
        char desc[96];
        ry_ca_desc(f, k->lo, desc, sizeof desc);
        snprintf(a, sizeof a, "%s", desc);
        char *sp = strrchr(a, ' ');
        if (sp)
            *sp = '/';
        pa[0] = '\0';
    } else {
        ry_node_name(f, lo, a, sizeof a);
        snprintf(pa, sizeof pa, "/%d", ry_port_number(f, k->lo));
    }
    ry_node_name(f, hi, b, sizeof b);
    snprintf(pb, sizeof pb, "/%d", ry_port_number(f, k->hi));
    snprintf(buf, n, "%s%s - %s%s", a, pa, b, pb);
}

/* The ends a cabling.links override can name, sorted by name: switches
 * ("leaf3", then /PORT) and GPU ports ("node001/mlx5_3"). Built once for all
 * the overrides, so each costs a binary search, not a walk of the fabric. */
typedef struct end_name {
    char *name;
    uint32_t id;        /* a switch's node, or a GPU port */
    int gpu;
} end_name;

typedef struct end_index {
    end_name *v;
    size_t n;
} end_index;

static int cmp_end(const void *a, const void *b)
{
    const end_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->gpu - y->gpu;     /* a switch before a host of the same name */
}

static void end_index_build(const ry_fabric *f, end_index *ix)
{
    size_t ngpu = (size_t)(f->gpus * f->planes);
    ix->n = 0;
    ix->v = ry_xmalloc((f->nnodes - f->first_switch + ngpu + 1) * sizeof *ix->v);
    char name[96];
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        ry_node_name(f, (uint32_t)i, name, sizeof name);
        ix->v[ix->n++] = (end_name){ ry_xstrdup(name), (uint32_t)i, 0 };
    }
    for (uint32_t gp = 0; gp < (uint32_t)ngpu; gp++) {
        ry_ca_desc(f, gp, name, sizeof name);
        char *sp = strrchr(name, ' ');
        if (sp)
            *sp = '/';
        ix->v[ix->n++] = (end_name){ ry_xstrdup(name), gp, 1 };
    }
    qsort(ix->v, ix->n, sizeof *ix->v, cmp_end);
}

static void end_index_free(end_index *ix)
{
    for (size_t i = 0; i < ix->n; i++)
        free(ix->v[i].name);
    free(ix->v);
}

/* The first entry named name (of either kind), or NULL. */
static const end_name *end_find(const end_index *ix, const char *name, size_t len)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strncmp(ix->v[mid].name, name, len);
        if (c == 0 && ix->v[mid].name[len])
            c = 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < ix->n && strncmp(ix->v[lo].name, name, len) == 0 && !ix->v[lo].name[len])
        return &ix->v[lo];
    return NULL;
}

/* The end "device/port" of a cabling.links override, resolved to a link:
 * a switch's name and port first, else a GPU's host/NIC. */
static int resolve_end(const ry_fabric *f, const end_index *ix, const char *end, uint32_t *link)
{
    const char *slash = strrchr(end, '/');
    if (!slash)
        return -1;
    const end_name *e = end_find(ix, end, (size_t)(slash - end));
    for (; e && e < ix->v + ix->n && !e->gpu && strlen(e->name) == (size_t)(slash - end) &&
           strncmp(e->name, end, (size_t)(slash - end)) == 0; e++) {
        char *t;
        long p = strtol(slash + 1, &t, 10);
        const ry_node *nd = &f->nodes[e->id];
        if (*t || p < 1 || p > (long)nd->nports || f->ports[nd->port0 + (uint32_t)p - 1].link < 0)
            return -1;
        *link = (uint32_t)f->ports[nd->port0 + (uint32_t)p - 1].link;
        return 0;
    }
    for (e = end_find(ix, end, strlen(end)); e && e < ix->v + ix->n && !strcmp(e->name, end); e++) {
        if (!e->gpu)
            continue;
        if (f->ports[e->id].link < 0)
            return -1;
        *link = (uint32_t)f->ports[e->id].link;
        return 0;
    }
    return -1;
}

/* ---- cages -------------------------------------------------------------------------------- */

/* The cages of one side of a link: a switch's, or a server's NIC cages. */
typedef struct cage_kind {
    const char *connector;      /* "" = any plug fits */
    const char *model;          /* for messages */
    int ports;                  /* ports a module must serve: the cage's physical ports */
} cage_kind;

/* Whether a cage of form factor `cage` takes a plug of form factor `plug`:
 * the same one, or an older QSFP in a newer QSFP cage (QSFP112 and QSFP-DD
 * cages take QSFP56 and QSFP28 plugs, QSFP56 cages QSFP28 ones). A form
 * factor nobody gave fits everything. */
static int connector_fits(const char *cage, const char *plug)
{
    return ry_cage_fits(cage, plug);
}

#define END_CABLE (-1)  /* the cable's own end plugs in */
#define END_NONE (-2)   /* nothing of the medium fits */

/* The module medium m puts into a cage of kind k (side RY_END_SWITCH or
 * RY_END_NODE): of the ends whose connector fits and which serve all the
 * cage's ports, the one with the fewest ports (single-port modules in
 * single-port cages, twin-port ones in twin-port cages). */
static int end_for(const ry_medium *m, int side, const cage_kind *k)
{
    if (!m->nends[side])
        return connector_fits(k->connector, m->connector) ? END_CABLE : END_NONE;
    int best = END_NONE;
    for (int i = 0; i < m->nends[side]; i++) {
        const ry_media_end *e = &m->ends[side][i];
        if (!connector_fits(k->connector, e->connector[0] ? e->connector : m->connector) ||
            e->ports < k->ports)
            continue;
        if (best == END_NONE || e->ports < m->ends[side][best].ports)
            best = i;
    }
    return best;
}

/* "the twin-port osfp cages of qm9700" */
static void cage_text(const cage_kind *k, char *buf, size_t n)
{
    snprintf(buf, n, "the %s%s%scages of %s", k->ports == 2 ? "twin-port " : "",
             k->connector, k->connector[0] ? " " : "", k->model);
}

/* Every cabled port's cage, numbered switch cages first (switch by switch,
 * from port 1), then servers' NIC cages, server by server. A server's NIC
 * port i (GPU in the server + plane * GPUs per server) is in the cage its
 * node's NIC table names ("OSFP3P2": cage OSFP3, port 2); ports the table
 * does not place share cages by the rule: of one plane, in GPU order,
 * node.cage_ports to a cage. */
typedef struct cage_plan {
    int32_t *of_port;           /* per port: its cage */
    int32_t ncages, nswitch;    /* cages; those at switches, [0, nswitch) */
    uint8_t *kind;              /* per cage: the kind of cage (chooser.kind) */
    int nkinds;                 /* a kind per switch tier, then the servers' */
} cage_plan;

/* The cage of a NIC table's label: "OSFP3P2" less its port, "P2". */
static size_t nic_cage_len(const char *label)
{
    size_t n = strlen(label), k = n;
    while (k > 0 && label[k - 1] >= '0' && label[k - 1] <= '9')
        k--;
    return k > 1 && k < n && label[k - 1] == 'P' ? k - 1 : n;
}

/* Per NIC port i of a server, the index of its cage among the server's
 * cages; returns the number of cages a server has. */
static int server_cages(const ry_spec *s, int gpn, int planes, int *local)
{
    int cp = s->node.cage_ports > 0 ? s->node.cage_ports : 1, n = 0;
    for (int i = 0; i < gpn * planes; i++) {
        const char *c = ry_nic_cage(&s->node, i);
        size_t len = nic_cage_len(c);
        local[i] = -1;
        for (int j = 0; j < i && len && local[i] < 0; j++) {
            const char *d = ry_nic_cage(&s->node, j);
            if (nic_cage_len(d) == len && strncmp(c, d, len) == 0)
                local[i] = local[j];
        }
        for (int j = 0; j < i && !len && local[i] < 0; j++)
            if (!ry_nic_cage(&s->node, j)[0] && j / gpn == i / gpn && j % gpn / cp == i % gpn / cp)
                local[i] = local[j];
        if (local[i] < 0)
            local[i] = n++;
    }
    return n;
}

static void cage_plan_build(const ry_fabric *f, int gpn, cage_plan *cp)
{
    const ry_spec *s = f->spec;
    int planes = f->planes;
    cp->of_port = ry_xmalloc((f->nports ? f->nports : 1) * sizeof *cp->of_port);
    for (size_t p = 0; p < f->nports; p++)
        cp->of_port[p] = -1;
    int64_t next = 0;
    size_t capk = 1024;
    cp->nkinds = f->tiers + 1;
    cp->kind = ry_xmalloc(capk);
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        const ry_switch_model *m = ry_node_model_of(f, nd);
        int sports, split, sub, parts, maxphys = 0;
        ry_switch_cage_shape(m, &sports, &split);
        int per_cage = sports * split;
        /* a port its tier splits (fabric.tiers) stays in its model port's cage */
        for (uint32_t p = 0; p < nd->nports; p++) {
            int phys = ry_switch_port_phys(f, nd, p, &sub, &parts);
            cp->of_port[nd->port0 + p] = (int32_t)(next + phys / per_cage);
            if (phys + 1 > maxphys)
                maxphys = phys + 1;
        }
        int64_t end = next + (maxphys + per_cage - 1) / per_cage;
        while ((size_t)end >= capk)
            cp->kind = ry_xrealloc(cp->kind, capk *= 2);
        memset(cp->kind + next, nd->tier - 1, (size_t)(end - next));
        next = end;
    }
    cp->nswitch = (int32_t)next;
    int *local = ry_xmalloc((size_t)gpn * (size_t)planes * sizeof *local);
    int64_t per_server = server_cages(s, gpn, planes, local);
    for (long long g = 0; g < f->gpus; g++) {
        const ry_node *nd = &f->nodes[g];
        long long server = g / gpn, gi = g % gpn;
        for (uint32_t p = 0; p < nd->nports && p < (uint32_t)planes; p++)
            cp->of_port[nd->port0 + p] =
                (int32_t)(next + server * per_server + local[gi + (long long)p * gpn]);
    }
    free(local);
    int64_t end = next + (f->gpus + gpn - 1) / gpn * per_server;
    RY_ASSERT(end < INT32_MAX);
    cp->kind = ry_xrealloc(cp->kind, (size_t)end + 1);
    memset(cp->kind + next, cp->nkinds - 1, (size_t)(end - next));
    cp->ncages = (int32_t)end;
}

/* ---- groups of links that share cages --------------------------------------------------- */

/* The groups: links of group i are link[start[i] .. start[i + 1]), in link
 * order; ncage[nk * i + k] counts the group's cages of kind k (a switch
 * tier's, or the servers'). */
typedef struct groups {
    uint32_t *start, *link;
    int32_t *first;             /* per cage: its lowest cabled link, or -1 */
    int32_t *ncage;
    int nk;
    uint32_t n;
} groups;

static void groups_build(const ry_fabric *f, const cage_plan *cp, groups *g)
{
    size_t nl = f->nlinks ? f->nlinks : 1;
    uint32_t *up = ry_xmalloc(nl * sizeof *up);
    for (size_t l = 0; l < f->nlinks; l++)
        up[l] = (uint32_t)l;
    g->first = ry_xmalloc((size_t)(cp->ncages ? cp->ncages : 1) * sizeof *g->first);
    for (int32_t c = 0; c < cp->ncages; c++)
        g->first[c] = -1;
    for (size_t p = 0; p < f->nports; p++) {
        int32_t lk = f->ports[p].link, c = cp->of_port[p];
        if (lk < 0 || c < 0)
            continue;
        if (g->first[c] < 0 || lk < g->first[c]) {
            if (g->first[c] >= 0)
                ry_uf_join(up, (uint32_t)g->first[c], (uint32_t)lk);
            g->first[c] = lk;
        } else {
            ry_uf_join(up, (uint32_t)g->first[c], (uint32_t)lk);
        }
    }
    /* Number the groups by their lowest link (every root is its group's
     * lowest link); up[] becomes each link's group. */
    for (size_t l = 0; l < f->nlinks; l++)
        up[l] = ry_uf_find(up, (uint32_t)l);
    uint32_t n = 0;
    for (size_t l = 0; l < f->nlinks; l++)
        up[l] = up[l] == l ? n++ : up[up[l]];
    g->n = n;
    g->start = ry_xcalloc((size_t)n + 1, sizeof *g->start);
    g->link = ry_xmalloc(nl * sizeof *g->link);
    for (size_t l = 0; l < f->nlinks; l++)
        g->start[up[l] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        g->start[i + 1] += g->start[i];
    uint32_t *fill = ry_xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, g->start, ((size_t)n + 1) * sizeof *fill);
    for (size_t l = 0; l < f->nlinks; l++)
        g->link[fill[up[l]]++] = (uint32_t)l;
    free(fill);
    g->nk = cp->nkinds;
    g->ncage = ry_xcalloc((size_t)n * (size_t)g->nk + 1, sizeof *g->ncage);
    for (int32_t c = 0; c < cp->ncages; c++)
        if (g->first[c] >= 0)
            g->ncage[(size_t)g->nk * up[g->first[c]] + cp->kind[c]]++;
    free(up);
}

static void groups_free(groups *g)
{
    free(g->start);
    free(g->link);
    free(g->first);
    free(g->ncage);
}

/* ---- choosing media ------------------------------------------------------------------------ */

typedef struct chooser {
    const ry_fabric *f;
    const ry_medium *media;
    int nmedia;
    cage_kind kind[RY_MAX_TIERS + 1];  /* a switch tier's cages [tier - 1], then the
                                        * servers' [nk - 1] */
    int nk;
    int *end;                   /* [nk * m + kind]: end_for */
    const int32_t *forced;      /* per link: a medium, or -1 */
    const int *tier_m;          /* per tier: a medium, or -1 */
    double slack2;
} chooser;

/* The side of a medium's ends a kind of cage takes. */
#define KSIDE(ch, k) ((k) == (ch)->nk - 1 ? RY_END_NODE : RY_END_SWITCH)

/* What a group costs on medium m at stock length li: its cables (per
 * link, or per `legs` links) and one module per cage. */
static double group_cost(const chooser *ch, const groups *g, uint32_t i, int m, int li)
{
    const ry_medium *M = &ch->media[m];
    uint32_t n = g->start[i + 1] - g->start[i];
    double cables = (double)((n + (uint32_t)M->legs - 1) / (uint32_t)M->legs);
    double c = cables * (M->cable_price + M->cable_price_per_m * M->lengths[li]);
    for (int k = 0; k < ch->nk; k++) {
        int e = ch->end[ch->nk * m + k];
        if (e >= 0)
            c += g->ncage[(size_t)ch->nk * i + k] * M->ends[KSIDE(ch, k)][e].price;
    }
    return c;
}

/* Whether medium m fits every cage of group i. */
static int group_fits(const chooser *ch, const groups *g, uint32_t i, int m)
{
    for (int k = 0; k < ch->nk; k++)
        if (g->ncage[(size_t)ch->nk * i + k] && ch->end[ch->nk * m + k] == END_NONE)
            return 0;
    return 1;
}

/* The first link of group i that medium m does not carry, or -1. */
static int64_t group_uncarried(const chooser *ch, const groups *g, uint32_t i, int m)
{
    for (uint32_t k = g->start[i]; k < g->start[i + 1]; k++)
        if (!carries(&ch->media[m], ry_link_gbps(ch->f, g->link[k])))
            return g->link[k];
    return -1;
}

/* The distinct link speeds of a group, gathered in one pass over its links
 * (a group's links nearly always share one speed); n < 0 when there are
 * more than fit, and then group_uncarried answers link by link. */
typedef struct group_speeds {
    double gbps[8];
    int n;
} group_speeds;

static void speeds_add(group_speeds *gs, double gbps)
{
    for (int j = 0; j < gs->n; j++)
        if (gs->gbps[j] == gbps)
            return;
    if (gs->n >= 0 && gs->n < (int)(sizeof gs->gbps / sizeof gs->gbps[0]))
        gs->gbps[gs->n++] = gbps;
    else
        gs->n = -1;
}

/* Whether medium m carries every link of group i: group_uncarried < 0. */
static int group_carried(const chooser *ch, const groups *g, uint32_t i, int m,
                         const group_speeds *gs)
{
    if (gs->n < 0)
        return group_uncarried(ch, g, i, m) < 0;
    for (int j = 0; j < gs->n; j++)
        if (!carries(&ch->media[m], gs->gbps[j]))
            return 0;
    return 1;
}

/* The cages a medium must fit in group i, as text for messages. */
static void group_cages_text(const chooser *ch, const groups *g, uint32_t i, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int k = 0; k < ch->nk; k++) {
        char a[160];
        int dup = 0;
        if (!g->ncage[(size_t)ch->nk * i + k])
            continue;
        cage_text(&ch->kind[k], a, sizeof a);
        for (int j = 0; j < k; j++)     /* tiers of one model: one mention */
            dup |= g->ncage[(size_t)ch->nk * i + j] && strcmp(ch->kind[j].model,
                                                              ch->kind[k].model) == 0;
        if (!dup && o < n)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " and " : "", a);
    }
}

/* Chooses group i's medium and length into c->cables; -1 with err set when
 * nothing fits. */
static int choose_group(const chooser *ch, const groups *g, uint32_t i, ry_cabling *c,
                        ry_err *err)
{
    const ry_fabric *f = ch->f;
    const ry_medium *media = ch->media;
    /* The longest run, and the medium forced on the group (one at most). */
    uint32_t far = g->link[g->start[i]];
    double need = 0;
    int force = -1;
    uint32_t flink = 0;
    group_speeds gs = { .n = 0 };
    for (uint32_t k = g->start[i]; k < g->start[i + 1]; k++) {
        uint32_t l = g->link[k];
        const ry_link *lk = &f->links[l];
        uint32_t lo = f->ports[lk->lo].owner, hi = f->ports[lk->hi].owner;
        double d = ry_layout_route_m(c->lay, lo, hi) + ch->slack2;
        speeds_add(&gs, ry_link_gbps_at(f, lk->lo, &f->nodes[lo], lk->hi, &f->nodes[hi]));
        c->cables[l].routed_m = (float)d;
        if (d > c->longest_m)
            c->longest_m = d;
        if (d > need) {
            need = d;
            far = l;
        }
        int tier = f->nodes[hi].tier;
        int fm = ch->forced[l] >= 0 ? ch->forced[l] : ch->tier_m[tier];
        if (fm < 0)
            continue;
        if (force >= 0 && fm != force) {
            char a[256], b[256];
            link_name(f, flink, a, sizeof a);
            link_name(f, l, b, sizeof b);
            ry_err_set(err, ch->forced[l] >= 0 ? "cabling.links" : "cabling.tiers",
                       "links %s (%s) and %s (%s) share cages, which hold one module each: "
                       "force one medium on both", a, media[force].name, b, media[fm].name);
            return -1;
        }
        force = fm;
        flink = l;
    }
    int best = -1, bestlen = -1;
    double bestcost = 0;
    for (int m = 0; m < ch->nmedia; m++) {
        if ((force >= 0 && m != force) || !group_carried(ch, g, i, m, &gs) ||
            !group_fits(ch, g, i, m))
            continue;
        int li = stock_for(&media[m], need);
        if (li < 0)
            continue;
        double cost = group_cost(ch, g, i, m, li);
        if (best < 0 || cost < bestcost) {
            best = m;
            bestlen = li;
            bestcost = cost;
        }
    }
    if (best < 0) {
        char name[256], cages[400];
        group_cages_text(ch, g, i, cages, sizeof cages);
        if (force >= 0) {
            const char *key = ch->forced[flink] >= 0 ? "cabling.links" : "cabling.tiers";
            int64_t bad = group_uncarried(ch, g, i, force);
            uint32_t l = bad >= 0 ? (uint32_t)bad : far;
            link_name(f, l, name, sizeof name);
            double gbps = ry_link_gbps(f, l);
            if (bad >= 0)
                ry_err_set(err, key, "link %s needs %.1f m at %gG but medium %s does not carry "
                           "that speed", name, c->cables[l].routed_m, gbps, media[force].name);
            else if (!group_fits(ch, g, i, force))
                ry_err_set(err, key, "link %s needs %.1f m at %gG but medium %s does not fit %s",
                           name, need, gbps, media[force].name, cages);
            else
                ry_err_set(err, key, "link %s needs %.1f m at %gG but medium %s does not reach "
                           "that far", name, need, gbps, media[force].name);
            return -1;
        }
        link_name(f, far, name, sizeof name);
        double gbps = ry_link_gbps(f, far);
        /* Nothing reaches, or nothing fits: then the side no medium of the
         * speed fits is the key to blame (the node's or the switch's). */
        int any = 0, node_fits = 0;
        for (int m = 0; m < ch->nmedia && !any; m++) {
            if (group_uncarried(ch, g, i, m) >= 0)
                continue;
            any = group_fits(ch, g, i, m);
            node_fits |= ch->end[ch->nk * m + ch->nk - 1] != END_NONE;
        }
        if (any)
            ry_err_set(err, "layout", "link %s needs %.1f m at %gG and no medium in "
                       "templates/media.yaml reaches that far at that speed: shorten the runs "
                       "(layout) or add a medium", name, need, gbps);
        else
            ry_err_set(err, g->ncage[(size_t)ch->nk * i + ch->nk - 1] && !node_fits ? "cluster.node"
                                                                           : "fabric.switch",
                       "link %s at %gG: no medium in templates/media.yaml carries that speed "
                       "and fits %s (one module per cage): add a medium", name, gbps, cages);
        return -1;
    }
    for (uint32_t k = g->start[i]; k < g->start[i + 1]; k++) {
        c->cables[g->link[k]].medium = (uint16_t)best;
        c->cables[g->link[k]].len_idx = (uint16_t)bestlen;
    }
    return 0;
}

/* ---- the bill ------------------------------------------------------------------------------ */

typedef struct part_count {
    char part[48];
    long long count;
    double price, power;
    int medium;
} part_count;

static void count_part(part_count **pc, int *n, int *cap, const ry_media_end *e, int medium)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*pc)[i].part, e->part) == 0) {
            (*pc)[i].count++;
            return;
        }
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *pc = ry_xrealloc(*pc, (size_t)*cap * sizeof **pc);
    }
    part_count *x = &(*pc)[(*n)++];
    snprintf(x->part, sizeof x->part, "%s", e->part);
    x->count = 1;
    x->price = e->price;
    x->power = e->power;
    x->medium = medium;
}

static int cmp_part(const void *a, const void *b)
{
    return strcmp(((const part_count *)a)->part, ((const part_count *)b)->part);
}

static ry_pbom_line *bom_add(ry_cabling *c, int *cap)
{
    if (c->nbom == *cap)
        c->bom = ry_xrealloc(c->bom, (size_t)(*cap *= 2) * sizeof *c->bom);
    ry_pbom_line *b = &c->bom[c->nbom++];
    memset(b, 0, sizeof *b);
    return b;
}

/* Cables by medium and length: one per link, or for splitters one per
 * `legs` links of the cage at the upper end. */
static void bom_cables(ry_cabling *c, const cage_plan *cp, int *cap)
{
    const ry_fabric *f = c->f;
    const ry_medium *media = c->media;
    long long *cnt = ry_xcalloc((size_t)c->nmedia * 32, sizeof *cnt);
    int32_t *at_cage = NULL;
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_cable *k = &c->cables[l];
        if (media[k->medium].legs <= 1) {
            cnt[k->medium * 32 + k->len_idx]++;
            continue;
        }
        if (!at_cage)
            at_cage = ry_xcalloc((size_t)(cp->ncages ? cp->ncages : 1), sizeof *at_cage);
        if (at_cage[cp->of_port[f->links[l].hi]]++ % media[k->medium].legs == 0)
            cnt[k->medium * 32 + k->len_idx]++;
    }
    free(at_cage);
    for (int m = 0; m < c->nmedia; m++)
        for (int li = 0; li < media[m].nlengths; li++) {
            long long k = cnt[m * 32 + li];
            if (!k)
                continue;
            ry_pbom_line *b = bom_add(c, cap);
            snprintf(b->what, sizeof b->what, "cable");
            part_with_length(media[m].cable_part, media[m].lengths[li], b->part, sizeof b->part);
            snprintf(b->medium, sizeof b->medium, "%s", media[m].name);
            b->length_m = media[m].lengths[li];
            b->count = k;
            b->unit_price = media[m].cable_price + media[m].cable_price_per_m * b->length_m;
            b->cost = b->unit_price * (double)k;
            b->power_w = 2 * media[m].power * (double)k;
            c->ncables += k;
            c->cost_cables += b->cost;
            c->cable_m += b->length_m * (double)k;
            c->power_w += b->power_w;
        }
    free(cnt);
}

/* Modules by part: one per cabled cage whose medium plugs in a module. */
static void bom_modules(ry_cabling *c, const chooser *ch, const cage_plan *cp, const groups *g,
                        int *cap)
{
    part_count *pc = NULL;
    int npc = 0, pcap = 0;
    for (int32_t k = 0; k < cp->ncages; k++) {
        if (g->first[k] < 0)
            continue;
        int kind = cp->kind[k], side = KSIDE(ch, kind), m = c->cables[g->first[k]].medium;
        int e = ch->end[ch->nk * m + kind];
        if (e >= 0)
            count_part(&pc, &npc, &pcap, &c->media[m].ends[side][e], m);
    }
    if (npc > 1)
        qsort(pc, (size_t)npc, sizeof *pc, cmp_part);
    for (int i = 0; i < npc; i++) {
        ry_pbom_line *b = bom_add(c, cap);
        snprintf(b->what, sizeof b->what, "transceiver");
        snprintf(b->part, sizeof b->part, "%s", pc[i].part);
        snprintf(b->medium, sizeof b->medium, "%s", c->media[pc[i].medium].name);
        b->count = pc[i].count;
        b->unit_price = pc[i].price;
        b->cost = pc[i].price * (double)pc[i].count;
        b->power_w = pc[i].power * (double)pc[i].count;
        c->ntransceivers += b->count;
        c->cost_transceivers += b->cost;
        c->power_w += b->power_w;
    }
    free(pc);
}

/* Forced media, per tier (tier_m) and per link (*forced); -1 with err set. */
static int forced_media(const ry_fabric *f, const ry_media_catalog *cat, int *tier_m,
                        int32_t **forced, ry_err *err)
{
    const ry_spec *s = f->spec;
    for (int t = 0; t <= RY_MAX_TIERS; t++) {
        tier_m[t] = -1;
        if (!s->cabling.tier_medium[t][0])
            continue;
        char key[48];
        snprintf(key, sizeof key, "cabling.tiers.%d", t);
        tier_m[t] = find_medium(cat, s->cabling.tier_medium[t], key, err);
        if (tier_m[t] < 0)
            return -1;
    }
    *forced = ry_xmalloc((f->nlinks ? f->nlinks : 1) * sizeof **forced);
    for (size_t l = 0; l < f->nlinks; l++)
        (*forced)[l] = -1;
    end_index ix = { NULL, 0 };
    if (s->cabling.nlinks)
        end_index_build(f, &ix);
    int rc = 0;
    for (int i = 0; i < s->cabling.nlinks && rc == 0; i++) {
        const struct ry_link_override *o = &s->cabling.links[i];
        char key[64];
        uint32_t link;
        snprintf(key, sizeof key, "cabling.links.%d.medium", o->index);
        int m = find_medium(cat, o->medium, key, err);
        if (m < 0) {
            rc = -1;
        } else if (resolve_end(f, &ix, o->end, &link) < 0) {
            snprintf(key, sizeof key, "cabling.links.%d.end", o->index);
            ry_err_set(err, key, "no cabled port '%s': ends are switch/port like leaf3/33 or "
                       "host/NIC like node001/mlx5_3", o->end);
            rc = -1;
        } else {
            (*forced)[link] = m;
        }
    }
    end_index_free(&ix);
    if (rc < 0) {
        free(*forced);
        *forced = NULL;
    }
    return rc;
}

int ry_cabling_build(const ry_fabric *f, const ry_layout *lay, const ry_media_catalog *cat,
                     ry_cabling *c, ry_err *err)
{
    const ry_spec *s = f->spec;
    memset(c, 0, sizeof *c);
    c->f = f;
    c->lay = lay;
    c->media = cat->media;
    c->nmedia = cat->nmedia;
    if (cat->nmedia > 65535) {
        ry_err_set(err, "", "too many media in the catalog");
        return -1;
    }
    int tier_m[RY_MAX_TIERS + 1];
    int32_t *forced;
    if (forced_media(f, cat, tier_m, &forced, err) < 0)
        return -1;

    chooser ch = {
        .f = f, .media = cat->media, .nmedia = cat->nmedia, .forced = forced, .tier_m = tier_m,
        .slack2 = 2 * s->layout.slack, .nk = f->tiers + 1,
    };
    for (int t = 1; t <= f->tiers; t++) {
        const ry_switch_model *sw = f->tier[t].sw ? f->tier[t].sw : &s->sw;
        int sports, split;
        ry_switch_cage_shape(sw, &sports, &split);
        ch.kind[t - 1] = (cage_kind){ sw->connector, sw->name, sports };
    }
    ch.kind[ch.nk - 1] = (cage_kind){ s->node.connector,
                                      s->node.name[0] ? s->node.name : "the servers",
                                      s->node.cage_ports > 0 ? s->node.cage_ports : 1 };
    ch.end = ry_xmalloc((size_t)cat->nmedia * (size_t)ch.nk * sizeof *ch.end);
    for (int m = 0; m < cat->nmedia; m++)
        for (int k = 0; k < ch.nk; k++)
            ch.end[ch.nk * m + k] = end_for(&cat->media[m], KSIDE(&ch, k), &ch.kind[k]);
    cage_plan cp;
    groups g;
    cage_plan_build(f, lay->gpus_per_node > 0 ? lay->gpus_per_node : 1, &cp);
    groups_build(f, &cp, &g);

    c->cables = ry_xcalloc(f->nlinks ? f->nlinks : 1, sizeof *c->cables);
    int rc = 0;
    for (uint32_t i = 0; i < g.n && rc == 0; i++)
        rc = choose_group(&ch, &g, i, c, err);
    free(forced);
    if (rc == 0) {
        int cap = 64;
        c->bom = ry_xmalloc((size_t)cap * sizeof *c->bom);
        bom_cables(c, &cp, &cap);
        bom_modules(c, &ch, &cp, &g, &cap);
        c->cost_total = c->cost_cables + c->cost_transceivers;
    }
    free(ch.end);
    free(cp.of_port);
    free(cp.kind);
    groups_free(&g);
    if (rc < 0)
        ry_cabling_free(c);
    return rc;
}

void ry_cabling_free(ry_cabling *c)
{
    free(c->cables);
    free(c->bom);
    c->cables = NULL;
    c->bom = NULL;
}
