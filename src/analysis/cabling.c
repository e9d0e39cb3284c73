/* The cabling plan: media chosen per link from the routed length, the
 * physical bill of materials counted from the chosen cables and the cages
 * they plug into. */
#include "analysis/cabling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "spec/catalog.h"
#include "util/buf.h"
#include "util/diag.h"

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

static int cage_ports_of(const ry_fabric *f, const ry_node *n)
{
    int cp = n->kind == RY_NODE_GPU ? f->spec->node.cage_ports : f->spec->sw.cage_ports;
    return cp > 0 ? cp : 1;
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
    int p = ry_port_number(f, port), cp = cage_ports_of(f, nd);
    if (cp > 1)
        return snprintf(buf, n, "%d/%d", (p - 1) / cp + 1, (p - 1) % cp + 1);
    return snprintf(buf, n, "%d", p);
}

int ry_cable_label(const ry_fabric *f, uint32_t link, char *buf, size_t n)
{
    return snprintf(buf, n, "%s-%06u", f->spec->name, link + 1);
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

/* What one link costs on a medium: the cable and its share of the ends. */
static double link_cost(const ry_medium *m, int li, int lo_gpu)
{
    double c = m->cable_price + m->cable_price_per_m * m->lengths[li];
    if (m->has_switch_end)
        c += m->switch_end.price / m->switch_end.ports;
    if (lo_gpu && m->has_node_end)
        c += m->node_end.price / m->node_end.ports;
    else if (m->has_switch_end)
        c += m->switch_end.price / m->switch_end.ports;
    return c;
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

typedef struct part_count {
    char part[48];
    long long count;
    double price, power;
    int medium;
} part_count;

static void count_part(part_count **pc, int *n, int *cap, const ry_media_end *e, int medium,
                       long long k)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*pc)[i].part, e->part) == 0) {
            (*pc)[i].count += k;
            return;
        }
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *pc = ry_xrealloc(*pc, (size_t)*cap * sizeof **pc);
    }
    part_count *x = &(*pc)[(*n)++];
    snprintf(x->part, sizeof x->part, "%s", e->part);
    x->count = k;
    x->price = e->price;
    x->power = e->power;
    x->medium = medium;
}

/* Transceivers of one device: per cage, the ports on each optic share as
 * few units as the optic's ports allow (twin-port units serve two). */
static void count_device_ends(const ry_cabling *c, const ry_node *nd, uint32_t port0,
                              uint32_t nports, uint32_t stride, part_count **pc, int *npc, int *cap)
{
    const ry_fabric *f = c->f;
    int cp = cage_ports_of(f, nd);
    int gpu = nd->kind == RY_NODE_GPU;
    for (uint32_t p0 = 0; p0 < nports; p0 += (uint32_t)cp) {
        int used[8] = { 0 }, med[8];
        int nm = 0;
        for (uint32_t p = p0; p < p0 + (uint32_t)cp && p < nports; p++) {
            int32_t lk = f->ports[port0 + p * stride].link;
            if (lk < 0)
                continue;
            int m = c->cables[lk].medium;
            const ry_medium *M = &c->media[m];
            if (gpu ? !M->has_node_end : !M->has_switch_end)
                continue;
            int j = 0;
            while (j < nm && med[j] != m)
                j++;
            if (j == nm)
                med[nm++] = m;
            used[j]++;
        }
        for (int j = 0; j < nm; j++) {
            const ry_medium *M = &c->media[med[j]];
            const ry_media_end *e = gpu ? &M->node_end : &M->switch_end;
            int per = e->ports < cp ? e->ports : cp;
            count_part(pc, npc, cap, e, med[j], (used[j] + per - 1) / per);
        }
    }
}

static int cmp_part(const void *a, const void *b)
{
    return strcmp(((const part_count *)a)->part, ((const part_count *)b)->part);
}

int ry_cabling_build(const ry_fabric *f, const ry_layout *lay, const ry_media_catalog *cat,
                     ry_cabling *c, ry_err *err)
{
    const ry_spec *s = f->spec;
    const ry_medium *media = cat->media;
    int nmedia = cat->nmedia;
    memset(c, 0, sizeof *c);
    c->f = f;
    c->lay = lay;
    c->media = media;
    c->nmedia = nmedia;
    if (nmedia > 65535) {
        ry_err_set(err, "", "too many media in the catalog");
        return -1;
    }
    /* Forced media: per tier, then per link. */
    int tier_m[RY_MAX_TIERS + 1];
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
    int32_t *forced = ry_xmalloc((f->nlinks ? f->nlinks : 1) * sizeof *forced);
    for (size_t l = 0; l < f->nlinks; l++)
        forced[l] = -1;
    end_index ix = { NULL, 0 };
    if (s->cabling.nlinks)
        end_index_build(f, &ix);
    for (int i = 0; i < s->cabling.nlinks; i++) {
        const struct ry_link_override *o = &s->cabling.links[i];
        char key[64];
        uint32_t link;
        snprintf(key, sizeof key, "cabling.links.%d.medium", o->index);
        int m = find_medium(cat, o->medium, key, err);
        if (m < 0) {
            free(forced);
            end_index_free(&ix);
            return -1;
        }
        if (resolve_end(f, &ix, o->end, &link) < 0) {
            snprintf(key, sizeof key, "cabling.links.%d.end", o->index);
            ry_err_set(err, key, "no cabled port '%s': ends are switch/port like leaf3/33 or "
                       "host/NIC like node001/mlx5_3", o->end);
            free(forced);
            end_index_free(&ix);
            return -1;
        }
        forced[link] = m;
    }
    end_index_free(&ix);

    c->cables = ry_xcalloc(f->nlinks ? f->nlinks : 1, sizeof *c->cables);
    double slack2 = 2 * s->layout.slack;
    int rc = 0;
    for (size_t l = 0; l < f->nlinks && rc == 0; l++) {
        const ry_link *k = &f->links[l];
        uint32_t lo = f->ports[k->lo].owner, hi = f->ports[k->hi].owner;
        int lo_gpu = f->nodes[lo].kind == RY_NODE_GPU;
        double gbps = ry_link_gbps(f, (uint32_t)l);
        double need = ry_layout_route_m(lay, lo, hi) + slack2;
        int force = forced[l] >= 0 ? forced[l] : tier_m[f->nodes[hi].tier];
        int best = -1, bestlen = -1;
        double bestcost = 0;
        for (int m = 0; m < nmedia; m++) {
            if (force >= 0 && m != force)
                continue;
            if (!carries(&media[m], gbps))
                continue;
            int li = stock_for(&media[m], need);
            if (li < 0)
                continue;
            double cost = link_cost(&media[m], li, lo_gpu);
            if (best < 0 || cost < bestcost) {
                best = m;
                bestlen = li;
                bestcost = cost;
            }
        }
        if (best < 0) {
            char name[256];
            link_name(f, (uint32_t)l, name, sizeof name);
            if (force >= 0)
                ry_err_set(err, forced[l] >= 0 ? "cabling.links" : "cabling.tiers",
                           "link %s needs %.1f m at %gG but medium %s %s", name, need, gbps,
                           media[force].name, carries(&media[force], gbps)
                               ? "does not reach that far"
                               : "does not carry that speed");
            else
                ry_err_set(err, "layout", "link %s needs %.1f m at %gG and no medium in "
                           "templates/media.yaml reaches that far at that speed: shorten the "
                           "runs (layout) or add a medium", name, need, gbps);
            rc = -1;
            break;
        }
        c->cables[l].medium = (uint16_t)best;
        c->cables[l].len_idx = (uint16_t)bestlen;
        c->cables[l].routed_m = (float)need;
    }
    free(forced);
    if (rc < 0) {
        ry_cabling_free(c);
        return -1;
    }

    /* Physical BOM: cables by medium and length. */
    long long *cnt = ry_xcalloc((size_t)nmedia * 32, sizeof *cnt);
    for (size_t l = 0; l < f->nlinks; l++)
        cnt[c->cables[l].medium * 32 + c->cables[l].len_idx]++;
    int cap = 64;
    c->bom = ry_xmalloc((size_t)cap * sizeof *c->bom);
    for (int m = 0; m < nmedia; m++)
        for (int li = 0; li < media[m].nlengths; li++) {
            long long k = cnt[m * 32 + li];
            if (!k)
                continue;
            if (c->nbom == cap)
                c->bom = ry_xrealloc(c->bom, (size_t)(cap *= 2) * sizeof *c->bom);
            ry_pbom_line *b = &c->bom[c->nbom++];
            memset(b, 0, sizeof *b);
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

    /* Transceivers by part, counted per cage. */
    part_count *pc = NULL;
    int npc = 0, pcap = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        count_device_ends(c, nd, nd->port0, nd->nports, 1, &pc, &npc, &pcap);
    }
    /* Servers: NIC ports in mlx5 order (GPU within the node, then plane). */
    int gpn = lay->gpus_per_node;
    uint32_t planes = (uint32_t)f->planes;
    for (long long sv = 0; sv < f->gpus / gpn; sv++) {
        for (uint32_t p = 0; p < planes; p++) {
            uint32_t first_gpu = (uint32_t)(sv * gpn);
            ry_node fake = f->nodes[first_gpu];
            count_device_ends(c, &fake, f->nodes[first_gpu].port0 + p, (uint32_t)gpn, planes, &pc,
                              &npc, &pcap);
        }
    }
    if (npc > 1)
        qsort(pc, (size_t)npc, sizeof *pc, cmp_part);
    for (int i = 0; i < npc; i++) {
        if (c->nbom == cap)
            c->bom = ry_xrealloc(c->bom, (size_t)(cap *= 2) * sizeof *c->bom);
        ry_pbom_line *b = &c->bom[c->nbom++];
        memset(b, 0, sizeof *b);
        snprintf(b->what, sizeof b->what, "transceiver");
        snprintf(b->part, sizeof b->part, "%s", pc[i].part);
        snprintf(b->medium, sizeof b->medium, "%s", media[pc[i].medium].name);
        b->count = pc[i].count;
        b->unit_price = pc[i].price;
        b->cost = pc[i].price * (double)pc[i].count;
        b->power_w = pc[i].power * (double)pc[i].count;
        c->ntransceivers += b->count;
        c->cost_transceivers += b->cost;
        c->power_w += b->power_w;
    }
    free(pc);
    c->cost_total = c->cost_cables + c->cost_transceivers;
    return 0;
}

void ry_cabling_free(ry_cabling *c)
{
    free(c->cables);
    free(c->bom);
    c->cables = NULL;
    c->bom = NULL;
}
