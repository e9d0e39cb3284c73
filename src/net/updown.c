/* Up-down next hops without LIDs (see updown.h). */
#include "net/updown.h"

#include <stdlib.h>
#include <string.h>

#include "net/updown_graph.h"
#include "util/diag.h"

/* What is known toward one destination leaf. */
typedef struct ud_leaf {
    long long leaf;         /* -1 = none yet */
    uint64_t used;          /* when last made current */
    uint32_t gen;
    uint32_t *below;        /* == gen: the leaf is below the switch */
    uint32_t *jgen;         /* == gen: jval is valid */
    uint8_t *jval;
    uint32_t *cgen;         /* == gen: candidates of the switch are cached */
    uint32_t *c0, *cn;      /* offset and count in pool */
    uint32_t *pool;
    size_t npool, cap_pool;
} ud_leaf;

/* Destination leaves whose state is kept at once: a caller alternating
 * among a few (a ring's neighbours on other rails) walks each one's
 * switches once. A new leaf takes the slot least recently used, whatever
 * its number (the leaves of one node's rails are often a multiple of the
 * slots apart). */
#define RY_UD_SLOTS 16

struct ry_updown {
    ry_updown_graph g;      /* switches, leaves, ends in LID order, neighbours */
    int32_t *end_index;     /* GPU port id -> end, or -1 */
    uint32_t *queue;
    ud_leaf slot[RY_UD_SLOTS];  /* arrays allocated on first use */
    ud_leaf *cur;           /* the current destination leaf's */
    uint64_t clock;         /* counts the changes of the current leaf */
    uint32_t own;           /* ry_updown_candidates at the destination's own leaf */
    const uint8_t *swdown;  /* per fabric node: a failed switch (NULL: none), borrowed */
    const uint8_t *ldown;   /* per fabric link: a failed link (NULL: none), borrowed */
};

/* Port q of group v of local switch s leads over a failed link or into a
 * failed switch. */
static int port_dead(const ry_updown *u, uint32_t s, const ry_ud_group *v, uint32_t q)
{
    if (!u->ldown && !u->swdown)
        return 0;
    const ry_updown_graph *g = &u->g;
    const ry_fabric *f = g->f;
    uint32_t port = f->nodes[g->sw[s]].port0 + ry_ud_port(g, v, q);
    if (u->ldown && f->ports[port].link >= 0 && u->ldown[f->ports[port].link])
        return 1;
    return u->swdown && (u->swdown[g->sw[s]] || u->swdown[g->sw[v->sw]]);
}

/* Some link of group v of s is up (and both switches are). */
static int group_alive(const ry_updown *u, uint32_t s, const ry_ud_group *v)
{
    for (uint32_t q = 0; q < v->nlinks; q++)
        if (!port_dead(u, s, v, q))
            return 1;
    return 0;
}

static int is_below(const ry_updown *u, uint32_t s) { return u->cur->below[s] == u->cur->gen; }

/* Makes leaf l's state the current one; marks every switch with l below
 * it (those reached going up from it) when the slot held another leaf. */
static void set_leaf(ry_updown *u, uint32_t l)
{
    if (u->cur && u->cur->leaf == (long long)l)
        return;
    ud_leaf *t = &u->slot[0];
    for (int i = 0; i < RY_UD_SLOTS; i++) {
        ud_leaf *x = &u->slot[i];
        if (x->leaf == (long long)l) {
            t = x;
            break;
        }
        if (x->used < t->used)
            t = x;
    }
    u->cur = t;
    t->used = ++u->clock;
    if (t->leaf == (long long)l)
        return;
    const ry_updown_graph *g = &u->g;
    size_t S = g->S ? g->S : 1;
    if (!t->below) {
        t->below = ry_xcalloc(S, sizeof *t->below);
        t->jgen = ry_xcalloc(S, sizeof *t->jgen);
        t->jval = ry_xcalloc(S, 1);
        t->cgen = ry_xcalloc(S, sizeof *t->cgen);
        t->c0 = ry_xcalloc(S, sizeof *t->c0);
        t->cn = ry_xcalloc(S, sizeof *t->cn);
    }
    t->leaf = l;
    if (++t->gen == 0) {    /* wrapped: start the stamps again */
        memset(t->below, 0, g->S * sizeof *t->below);
        memset(t->jgen, 0, g->S * sizeof *t->jgen);
        memset(t->cgen, 0, g->S * sizeof *t->cgen);
        t->gen = 1;
    }
    t->npool = 0;
    size_t qh = 0, qt = 0;
    uint32_t s0 = g->leaf_sw[l];
    if (u->swdown && u->swdown[g->sw[s0]])
        return;     /* a failed leaf: below nothing */
    t->below[s0] = t->gen;
    u->queue[qt++] = s0;
    while (qh < qt) {
        uint32_t s = u->queue[qh++];
        for (uint32_t i = g->up0[s]; i < g->up0[s + 1]; i++) {
            uint32_t x = g->up[i].sw;
            if (t->below[x] != t->gen && group_alive(u, s, &g->up[i])) {
                t->below[x] = t->gen;
                u->queue[qt++] = x;
            }
        }
    }
}

/* J(s, current leaf): the lowest tier at or above s with the leaf below;
 * 0xFF when none. Recursion depth is at most the number of tiers. */
static uint8_t jof(ry_updown *u, uint32_t s)
{
    ud_leaf *t = u->cur;
    if (t->jgen[s] == t->gen)
        return t->jval[s];
    const ry_updown_graph *g = &u->g;
    uint8_t j = 0xFF;
    if (is_below(u, s))
        j = g->tier[s];
    else
        for (uint32_t i = g->up0[s]; i < g->up0[s + 1]; i++) {
            if (!group_alive(u, s, &g->up[i]))
                continue;
            uint8_t x = jof(u, g->up[i].sw);
            if (x < j)
                j = x;
        }
    t->jgen[s] = t->gen;
    t->jval[s] = j;
    return j;
}

/* Candidate ports of s toward the current leaf, cached per leaf. */
static void candidates(ry_updown *u, uint32_t s)
{
    ud_leaf *t = u->cur;
    if (t->cgen[s] == t->gen)
        return;
    const ry_updown_graph *g = &u->g;
    t->cgen[s] = t->gen;
    t->c0[s] = (uint32_t)t->npool;
    size_t need = t->npool + g->f->nodes[g->sw[s]].nports;
    RY_ALLOC_GROW(t->pool, need, t->cap_pool);
    if (is_below(u, s)) {
        for (uint32_t i = g->down0[s]; i < g->down0[s + 1]; i++)
            if (is_below(u, g->down[i].sw))
                for (uint32_t q = 0; q < g->down[i].nlinks; q++)
                    if (!port_dead(u, s, &g->down[i], q))
                        t->pool[t->npool++] = ry_ud_port(g, &g->down[i], q);
    } else if (!u->swdown || !u->swdown[g->sw[s]]) {
        uint8_t j = jof(u, s);
        for (uint32_t i = g->up0[s]; j != 0xFF && i < g->up0[s + 1]; i++)
            if (group_alive(u, s, &g->up[i]) && jof(u, g->up[i].sw) == j)
                for (uint32_t q = 0; q < g->up[i].nlinks; q++)
                    if (!port_dead(u, s, &g->up[i], q))
                        t->pool[t->npool++] = ry_ud_port(g, &g->up[i], q);
    }
    t->cn[s] = (uint32_t)(t->npool - t->c0[s]);
}

ry_updown *ry_updown_new(const ry_fabric *f, int k)
{
    return ry_updown_new_failed(f, k, NULL, NULL);
}

ry_updown *ry_updown_new_failed(const ry_fabric *f, int k, const uint8_t *node_down,
                                const uint8_t *link_down)
{
    ry_updown *u = ry_xcalloc(1, sizeof *u);
    u->swdown = node_down;
    u->ldown = link_down;
    for (int i = 0; i < RY_UD_SLOTS; i++)
        u->slot[i].leaf = -1;
    ry_updown_graph *g = &u->g;
    ry_updown_graph_build(f, k, g);
    size_t nports = (size_t)f->gpus * (size_t)f->planes;
    u->end_index = ry_xmalloc((nports ? nports : 1) * sizeof *u->end_index);
    for (size_t i = 0; i < nports; i++)
        u->end_index[i] = -1;
    for (size_t c = 0; c < g->nends; c++)
        u->end_index[g->end[c]] = (int32_t)c;
    size_t S = g->S ? g->S : 1;
    u->queue = ry_xmalloc(S * sizeof *u->queue);
    return u;
}

void ry_updown_free(ry_updown *u)
{
    if (!u)
        return;
    ry_updown_graph_free(&u->g);
    free(u->end_index);
    for (int i = 0; i < RY_UD_SLOTS; i++) {
        ud_leaf *t = &u->slot[i];
        free(t->below);
        free(t->jgen);
        free(t->jval);
        free(t->cgen);
        free(t->c0);
        free(t->cn);
        free(t->pool);
    }
    free(u->queue);
    free(u);
}

size_t ry_updown_ends(const ry_updown *u) { return u->g.nends; }

uint32_t ry_updown_end(const ry_updown *u, size_t c)
{
    RY_ASSERT(c < u->g.nends);
    return u->g.end[c];
}

long long ry_updown_index(const ry_updown *u, uint32_t gpu_port)
{
    if ((size_t)gpu_port >= (size_t)u->g.f->gpus * (size_t)u->g.f->planes)
        return -1;
    return u->end_index[gpu_port];
}

/* A GPU port whose link, or its leaf, failed. */
static int end_dead(const ry_updown *u, uint32_t gpu_port)
{
    const ry_fabric *f = u->g.f;
    int32_t l = f->ports[gpu_port].link, peer = f->ports[gpu_port].peer;
    if (u->ldown && l >= 0 && u->ldown[l])
        return 1;
    return u->swdown && peer >= 0 && u->swdown[f->ports[peer].owner];
}

/* Local switch s and end c of a (switch, GPU port) pair; 0, or -1 when sw is
 * not a switch of the subnet or the port not one of its ends. */
static int locate(const ry_updown *u, uint32_t sw, uint32_t gpu_port, int32_t *s, long long *c)
{
    const ry_fabric *f = u->g.f;
    if (sw < f->first_switch || sw >= f->nnodes)
        return -1;
    *s = u->g.local[sw - f->first_switch];
    *c = ry_updown_index(u, gpu_port);
    return *s < 0 || *c < 0 ? -1 : 0;
}

size_t ry_updown_candidates(ry_updown *u, uint32_t sw, uint32_t gpu_port, const uint32_t **ports)
{
    const ry_updown_graph *g = &u->g;
    const ry_fabric *f = g->f;
    int32_t s;
    long long c;
    *ports = NULL;
    if (locate(u, sw, gpu_port, &s, &c) < 0)
        return 0;
    if (end_dead(u, gpu_port))
        return 0;   /* a dead end port: no route anywhere */
    uint32_t l = g->end_leaf[c];
    if (g->leaf_of[s] == (int32_t)l) {
        u->own = (uint32_t)f->ports[gpu_port].peer - f->nodes[sw].port0;
        *ports = &u->own;
        return 1;
    }
    set_leaf(u, l);
    candidates(u, (uint32_t)s);
    *ports = &u->cur->pool[u->cur->c0[s]];
    return u->cur->cn[s];
}

int ry_updown_next(ry_updown *u, uint32_t sw, uint32_t gpu_port)
{
    const ry_updown_graph *g = &u->g;
    const ry_fabric *f = g->f;
    int32_t s;
    long long c;
    if (locate(u, sw, gpu_port, &s, &c) < 0)
        return -1;
    if (end_dead(u, gpu_port))
        return -1;
    uint32_t l = g->end_leaf[c];
    if (g->leaf_of[s] == (int32_t)l)
        return (int)((uint32_t)f->ports[gpu_port].peer - f->nodes[sw].port0);
    set_leaf(u, l);
    candidates(u, (uint32_t)s);
    const ud_leaf *t = u->cur;
    uint32_t nc = t->cn[s];
    if (nc == 0)
        return -1;
    uint64_t base = ry_updown_digit(g, (size_t)s, (uint64_t)c, is_below(u, (uint32_t)s));
    return (int)t->pool[t->c0[s] + base % nc];
}
