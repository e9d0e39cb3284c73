/* Up-down next hops without LIDs (see updown.h). */
#include "analysis/updown.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

typedef struct adj {
    uint32_t port;          /* port index within the switch */
    uint32_t peer;          /* local index of the neighbour switch */
} adj;

struct ry_updown {
    const ry_fabric *f;
    size_t S, L, nca;
    uint32_t *sw;           /* local -> node id */
    int32_t *local;         /* node id - first_switch -> local, or -1 */
    uint8_t *tier;
    int32_t *leaf_of;       /* local -> leaf index, or -1 */
    uint32_t *leaf_sw;      /* leaf -> local switch */
    uint32_t *ca;           /* end ports (GPU port ids), leaf order */
    uint32_t *ca_leaf;      /* end -> leaf */
    uint32_t *leaf_first;   /* leaf -> its first end (ends are in leaf order), L + 1 */
    int32_t *ca_index;      /* GPU port id -> end index, or -1 */
    adj *up, *down;         /* neighbour switches by port, per switch: */
    uint32_t *up0, *down0;  /* S + 1 offsets */
    uint64_t div[RY_MAX_TIERS + 2];

    /* State for the current destination leaf. */
    long long leaf;         /* -1 = none yet */
    uint32_t gen;
    uint32_t *below;        /* == gen: the leaf is below the switch */
    uint32_t *jgen;         /* == gen: jval is valid */
    uint8_t *jval;
    uint32_t *queue;
    uint32_t *cgen;         /* == gen: candidates of the switch are cached */
    uint32_t *c0, *cn;      /* offset and count in pool */
    uint32_t *pool;
    size_t npool, cap_pool;
};

static int is_below(const ry_updown *u, uint32_t s) { return u->below[s] == u->gen; }

/* Marks every switch with leaf l below it: those reached going up from it. */
static void set_leaf(ry_updown *u, uint32_t l)
{
    if (u->leaf == (long long)l)
        return;
    u->leaf = l;
    if (++u->gen == 0) {    /* wrapped: start the stamps again */
        memset(u->below, 0, u->S * sizeof *u->below);
        memset(u->jgen, 0, u->S * sizeof *u->jgen);
        memset(u->cgen, 0, u->S * sizeof *u->cgen);
        u->gen = 1;
    }
    u->npool = 0;
    size_t qh = 0, qt = 0;
    uint32_t s0 = u->leaf_sw[l];
    u->below[s0] = u->gen;
    u->queue[qt++] = s0;
    while (qh < qt) {
        uint32_t s = u->queue[qh++];
        for (uint32_t i = u->up0[s]; i < u->up0[s + 1]; i++) {
            uint32_t x = u->up[i].peer;
            if (u->below[x] != u->gen) {
                u->below[x] = u->gen;
                u->queue[qt++] = x;
            }
        }
    }
}

/* J(s, current leaf): the lowest tier at or above s with the leaf below;
 * 0xFF when none. Recursion depth is at most the number of tiers. */
static uint8_t jof(ry_updown *u, uint32_t s)
{
    if (u->jgen[s] == u->gen)
        return u->jval[s];
    uint8_t j = 0xFF;
    if (is_below(u, s))
        j = u->tier[s];
    else
        for (uint32_t i = u->up0[s]; i < u->up0[s + 1]; i++) {
            uint8_t x = jof(u, u->up[i].peer);
            if (x < j)
                j = x;
        }
    u->jgen[s] = u->gen;
    u->jval[s] = j;
    return j;
}

/* Candidate ports of s toward the current leaf, cached per leaf. */
static void candidates(ry_updown *u, uint32_t s)
{
    if (u->cgen[s] == u->gen)
        return;
    u->cgen[s] = u->gen;
    u->c0[s] = (uint32_t)u->npool;
    size_t need = u->npool + (u->up0[s + 1] - u->up0[s]) + (u->down0[s + 1] - u->down0[s]);
    if (need > u->cap_pool) {
        u->cap_pool = need * 2;
        u->pool = ry_xrealloc(u->pool, u->cap_pool * sizeof *u->pool);
    }
    if (is_below(u, s)) {
        for (uint32_t i = u->down0[s]; i < u->down0[s + 1]; i++)
            if (is_below(u, u->down[i].peer))
                u->pool[u->npool++] = u->down[i].port;
    } else {
        uint8_t j = jof(u, s);
        for (uint32_t i = u->up0[s]; j != 0xFF && i < u->up0[s + 1]; i++)
            if (jof(u, u->up[i].peer) == j)
                u->pool[u->npool++] = u->up[i].port;
    }
    u->cn[s] = (uint32_t)(u->npool - u->c0[s]);
}

ry_updown *ry_updown_new(const ry_fabric *f, int k)
{
    ry_updown *u = ry_xcalloc(1, sizeof *u);
    u->f = f;
    u->leaf = -1;
    size_t nsw_all = f->nnodes - f->first_switch;
    u->local = ry_xmalloc((nsw_all ? nsw_all : 1) * sizeof *u->local);
    for (size_t i = 0; i < nsw_all; i++) {
        const ry_node *n = &f->nodes[f->first_switch + i];
        u->local[i] = n->subnet == k ? (int32_t)u->S++ : -1;
    }
    size_t S = u->S ? u->S : 1;
    u->sw = ry_xmalloc(S * sizeof *u->sw);
    u->tier = ry_xmalloc(S);
    u->leaf_of = ry_xmalloc(S * sizeof *u->leaf_of);
    u->leaf_sw = ry_xmalloc(S * sizeof *u->leaf_sw);
    for (size_t i = 0; i < nsw_all; i++)
        if (u->local[i] >= 0) {
            uint32_t s = (uint32_t)u->local[i];
            u->sw[s] = (uint32_t)(f->first_switch + i);
            u->tier[s] = f->nodes[u->sw[s]].tier;
            u->leaf_of[s] = -1;
        }

    /* Ends in leaf order, as the LID plan numbers them. */
    size_t nports = (size_t)f->gpus * (size_t)f->planes;
    u->ca_index = ry_xmalloc((nports ? nports : 1) * sizeof *u->ca_index);
    for (size_t i = 0; i < nports; i++)
        u->ca_index[i] = -1;
    size_t cap = 1024;
    u->ca = ry_xmalloc(cap * sizeof *u->ca);
    u->ca_leaf = ry_xmalloc(cap * sizeof *u->ca_leaf);
    size_t nup = 0, ndown = 0;
    for (size_t s = 0; s < u->S; s++) {
        const ry_node *n = &f->nodes[u->sw[s]];
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f->ports[n->port0 + p].peer;
            if (peer < 0)
                continue;
            const ry_node *o = &f->nodes[f->ports[peer].owner];
            if (o->kind == RY_NODE_GPU) {
                if (u->leaf_of[s] < 0) {
                    u->leaf_of[s] = (int32_t)u->L;
                    u->leaf_sw[u->L++] = (uint32_t)s;
                }
                if (u->nca == cap) {
                    cap *= 2;
                    u->ca = ry_xrealloc(u->ca, cap * sizeof *u->ca);
                    u->ca_leaf = ry_xrealloc(u->ca_leaf, cap * sizeof *u->ca_leaf);
                }
                u->ca_index[peer] = (int32_t)u->nca;
                u->ca_leaf[u->nca] = (uint32_t)u->leaf_of[s];
                u->ca[u->nca++] = (uint32_t)peer;
            } else if (o->tier > n->tier)
                nup++;
            else
                ndown++;
        }
    }
    u->leaf_first = ry_xmalloc(((size_t)u->L + 1) * sizeof *u->leaf_first);
    for (size_t c = u->nca; c-- > 0;)
        u->leaf_first[u->ca_leaf[c]] = (uint32_t)c;
    u->leaf_first[u->L] = (uint32_t)u->nca;
    u->up = ry_xmalloc((nup ? nup : 1) * sizeof *u->up);
    u->down = ry_xmalloc((ndown ? ndown : 1) * sizeof *u->down);
    u->up0 = ry_xmalloc((S + 1) * sizeof *u->up0);
    u->down0 = ry_xmalloc((S + 1) * sizeof *u->down0);
    nup = ndown = 0;
    for (size_t s = 0; s < u->S; s++) {
        const ry_node *n = &f->nodes[u->sw[s]];
        u->up0[s] = (uint32_t)nup;
        u->down0[s] = (uint32_t)ndown;
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f->ports[n->port0 + p].peer;
            if (peer < 0)
                continue;
            uint32_t on = f->ports[peer].owner;
            const ry_node *o = &f->nodes[on];
            if (o->kind == RY_NODE_GPU)
                continue;
            int32_t x = u->local[on - f->first_switch];
            RY_ASSERT(x >= 0);
            adj a = { p, (uint32_t)x };
            if (o->tier > n->tier)
                u->up[nup++] = a;
            else
                u->down[ndown++] = a;
        }
    }
    u->up0[u->S] = (uint32_t)nup;
    u->down0[u->S] = (uint32_t)ndown;

    u->div[1] = 1;
    for (int t = 2; t <= RY_MAX_TIERS + 1; t++) {
        uint64_t up = f->up_ports[t - 1] > 0 ? (uint64_t)f->up_ports[t - 1] : 1;
        u->div[t] = u->div[t - 1] * up;
        if (u->div[t] > (1ULL << 40))
            u->div[t] = 1ULL << 40;
    }
    u->below = ry_xcalloc(S, sizeof *u->below);
    u->jgen = ry_xcalloc(S, sizeof *u->jgen);
    u->jval = ry_xcalloc(S, 1);
    u->cgen = ry_xcalloc(S, sizeof *u->cgen);
    u->c0 = ry_xcalloc(S, sizeof *u->c0);
    u->cn = ry_xcalloc(S, sizeof *u->cn);
    u->queue = ry_xmalloc(S * sizeof *u->queue);
    return u;
}

void ry_updown_free(ry_updown *u)
{
    if (!u)
        return;
    free(u->sw);
    free(u->local);
    free(u->tier);
    free(u->leaf_of);
    free(u->leaf_sw);
    free(u->ca);
    free(u->ca_leaf);
    free(u->leaf_first);
    free(u->ca_index);
    free(u->up);
    free(u->down);
    free(u->up0);
    free(u->down0);
    free(u->below);
    free(u->jgen);
    free(u->jval);
    free(u->cgen);
    free(u->c0);
    free(u->cn);
    free(u->queue);
    free(u->pool);
    free(u);
}

size_t ry_updown_ends(const ry_updown *u) { return u->nca; }

uint32_t ry_updown_end(const ry_updown *u, size_t c)
{
    RY_ASSERT(c < u->nca);
    return u->ca[c];
}

long long ry_updown_index(const ry_updown *u, uint32_t gpu_port)
{
    if ((size_t)gpu_port >= (size_t)u->f->gpus * (size_t)u->f->planes)
        return -1;
    return u->ca_index[gpu_port];
}

int ry_updown_next(ry_updown *u, uint32_t sw, uint32_t gpu_port)
{
    const ry_fabric *f = u->f;
    if (sw < f->first_switch || sw >= f->nnodes)
        return -1;
    int32_t s = u->local[sw - f->first_switch];
    long long c = ry_updown_index(u, gpu_port);
    if (s < 0 || c < 0)
        return -1;
    uint32_t l = u->ca_leaf[c];
    if (u->leaf_of[s] == (int32_t)l)
        return (int)((uint32_t)f->ports[gpu_port].peer - f->nodes[sw].port0);
    set_leaf(u, l);
    candidates(u, (uint32_t)s);
    uint32_t nc = u->cn[s];
    if (nc == 0)
        return -1;
    int t = u->tier[s];
    uint64_t div = is_below(u, (uint32_t)s) ? u->div[t - 1] : u->div[t];
    /* as route.c: a leaf numbers the ends it sends up without its own */
    int32_t own = u->leaf_of[s];
    uint64_t ci = (uint64_t)c;
    if (own >= 0 && ci >= u->leaf_first[own + 1])
        ci -= u->leaf_first[own + 1] - u->leaf_first[own];
    uint64_t base = ci / div + ci % div;
    return (int)u->pool[u->c0[s] + base % nc];
}
