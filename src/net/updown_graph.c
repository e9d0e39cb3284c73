/* One subnet as up-down routing sees it (see updown_graph.h). */
#include "net/updown_graph.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

/* Counts a port of a switch toward neighbour x in its group of this switch
 * (at[x]), or opens one. */
static void add_group(ry_ud_group **v, size_t *n, size_t *cap, uint32_t x, int32_t *at)
{
    if (at[x] >= 0) {
        (*v)[at[x]].nlinks++;
        return;
    }
    RY_ALLOC_GROW(*v, *n + 1, *cap);
    at[x] = (int32_t)*n;
    (*v)[(*n)++] = (ry_ud_group){ x, 1, 0 };
}

/* Places a switch's groups [from, to) in the port list: each its nlinks
 * slots from *np on, to be filled again from nlinks 0. */
static void place_groups(ry_ud_group *v, size_t from, size_t to, size_t *np)
{
    for (size_t i = from; i < to; i++) {
        v[i].first = (uint32_t)*np;
        *np += v[i].nlinks;
        v[i].nlinks = 0;
    }
}

void ry_updown_graph_build(const ry_fabric *f, int k, ry_updown_graph *g)
{
    memset(g, 0, sizeof *g);
    g->f = f;
    size_t nsw_all = f->nnodes - f->first_switch;
    g->local = ry_xmalloc((nsw_all ? nsw_all : 1) * sizeof *g->local);
    for (size_t i = 0; i < nsw_all; i++)
        g->local[i] = f->nodes[f->first_switch + i].subnet == k ? (int32_t)g->S++ : -1;
    size_t S = g->S ? g->S : 1;
    g->sw = ry_xmalloc(S * sizeof *g->sw);
    g->tier = ry_xmalloc(S);
    g->leaf_of = ry_xmalloc(S * sizeof *g->leaf_of);
    g->leaf_sw = ry_xmalloc(S * sizeof *g->leaf_sw);
    for (size_t i = 0; i < nsw_all; i++)
        if (g->local[i] >= 0) {
            uint32_t s = (uint32_t)g->local[i];
            g->sw[s] = (uint32_t)(f->first_switch + i);
            g->tier[s] = f->nodes[g->sw[s]].tier;
            g->leaf_of[s] = -1;
        }

    /* One walk over the switches' ports: ends in leaf order, neighbours. */
    size_t cap = 1024, nup = 0, cup = 0, ndown = 0, cdown = 0, np = 0, cport = 1024;
    g->gport = ry_xmalloc(cport * sizeof *g->gport);
    g->end = ry_xmalloc(cap * sizeof *g->end);
    g->end_leaf = ry_xmalloc(cap * sizeof *g->end_leaf);
    g->up0 = ry_xmalloc((S + 1) * sizeof *g->up0);
    g->down0 = ry_xmalloc((S + 1) * sizeof *g->down0);
    int32_t *at = ry_xmalloc(S * sizeof *at);   /* neighbour -> its group of this switch */
    for (size_t s = 0; s < S; s++)
        at[s] = -1;
    for (size_t s = 0; s < g->S; s++) {
        const ry_node *n = &f->nodes[g->sw[s]];
        g->up0[s] = (uint32_t)nup;
        g->down0[s] = (uint32_t)ndown;
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f->ports[n->port0 + p].peer;
            if (peer < 0)
                continue;
            uint32_t on = f->ports[peer].owner;
            const ry_node *o = &f->nodes[on];
            if (o->kind == RY_NODE_GPU) {
                if (g->leaf_of[s] < 0) {
                    g->leaf_of[s] = (int32_t)g->L;
                    g->leaf_sw[g->L++] = (uint32_t)s;
                }
                RY_ALLOC_GROW2(g->end, g->end_leaf, g->nends + 1, cap);
                g->end_leaf[g->nends] = (uint32_t)g->leaf_of[s];
                g->end[g->nends++] = (uint32_t)peer;
                continue;
            }
            int32_t x = g->local[on - f->first_switch];
            RY_ASSERT(x >= 0);
            if (o->tier > n->tier)
                add_group(&g->up, &nup, &cup, (uint32_t)x, at);
            else
                add_group(&g->down, &ndown, &cdown, (uint32_t)x, at);
        }
        /* the groups' ports, in port order */
        place_groups(g->up, g->up0[s], nup, &np);
        place_groups(g->down, g->down0[s], ndown, &np);
        RY_ALLOC_GROW(g->gport, np, cport);
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f->ports[n->port0 + p].peer;
            if (peer < 0)
                continue;
            uint32_t on = f->ports[peer].owner;
            if (f->nodes[on].kind == RY_NODE_GPU)
                continue;
            int32_t x = g->local[on - f->first_switch];
            ry_ud_group *e = f->nodes[on].tier > n->tier ? &g->up[at[x]] : &g->down[at[x]];
            g->gport[e->first + e->nlinks++] = p;
        }
        for (size_t i = g->up0[s]; i < nup; i++)
            at[g->up[i].sw] = -1;
        for (size_t i = g->down0[s]; i < ndown; i++)
            at[g->down[i].sw] = -1;
    }
    free(at);
    g->up0[g->S] = (uint32_t)nup;
    g->down0[g->S] = (uint32_t)ndown;
    g->leaf_first = ry_xmalloc((g->L + 1) * sizeof *g->leaf_first);
    for (size_t c = g->nends; c-- > 0;)
        g->leaf_first[g->end_leaf[c]] = (uint32_t)c;
    g->leaf_first[g->L] = (uint32_t)g->nends;

    /* Capped, so that the product cannot overflow on absurd trees. */
    g->div[0] = g->div[1] = 1;
    for (int t = 2; t <= RY_MAX_TIERS + 1; t++) {
        uint64_t u = f->up_ports[t - 1] > 0 ? (uint64_t)f->up_ports[t - 1] : 1;
        g->div[t] = g->div[t - 1] * u;
        if (g->div[t] > (1ULL << 40))
            g->div[t] = 1ULL << 40;
    }
}

void ry_updown_graph_free(ry_updown_graph *g)
{
    free(g->sw);
    free(g->local);
    free(g->tier);
    free(g->leaf_of);
    free(g->leaf_sw);
    free(g->end);
    free(g->end_leaf);
    free(g->leaf_first);
    free(g->up);
    free(g->down);
    free(g->up0);
    free(g->down0);
    free(g->gport);
    memset(g, 0, sizeof *g);
}
