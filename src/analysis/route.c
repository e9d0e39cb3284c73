/* Up-down (up*, down*) routing on the fabric graph.
 *
 * For every switch s and leaf l, J(s,l) is the lowest tier of a switch that
 * is s itself or above it and has l below it: a minimal legal route from s
 * to a CA on l climbs to tier J and descends. Leaf sets below each switch
 * are bitsets; J is computed top-down with one byte-wise minimum per parent.
 * At s, a destination on leaf l leaves through
 *   - a down port to a child with l below it, when l is below s;
 *   - else an up port to a parent p with J(p,l) == J(s,l);
 * and among those candidates the destination index c picks one:
 * (c / D + c mod D) mod n at tier t, D = u1 * ... * u(t-1): D-mod-K up to a
 * fixed rotation per switch on full trees (a shift permutation then uses
 * every link once), and spread on partial ones.
 *
 * The subnet's switches, leaves, CAs and neighbour lists, and that digit,
 * come from updown_graph.h, shared with the LID-free walker (updown.h). The
 * leaf sets and J are dense S x L tables here, which a subnet bounded by the
 * LID space affords and every row of the tables reads; the walker keeps
 * them per destination leaf instead, for subnets of any size. */
#include "analysis/route.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/updown_graph.h"
#include "util/diag.h"

struct ry_router {
    const ry_ibplan *pl;
    const ry_subnet *sn;
    ry_updown_graph g;      /* switches, leaves, CAs (in LID order), neighbours */
    uint64_t *below;        /* S x words: leaves below (leaf itself included) */
    size_t words;
    uint8_t *J;             /* S x L */
    uint8_t *sw_next;       /* S x S: next port toward each switch (BFS), lazily built */
    uint8_t *cand;          /* scratch */
};

static int bit(const uint64_t *b, size_t i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }

ry_router *ry_router_new(const ry_ibplan *pl, int k)
{
    ry_router *r = ry_xcalloc(1, sizeof *r);
    const ry_subnet *sn = &pl->subnets[k];
    r->pl = pl;
    r->sn = sn;
    ry_updown_graph *g = &r->g;
    ry_updown_graph_build(pl->f, k, g);
    /* The plan numbers the same switches and CAs the same way. */
    RY_ASSERT(g->S == sn->nsw && g->nends == sn->nca);
    for (size_t c = 0; c < sn->nca; c++)
        RY_ASSERT(g->end[c] == sn->ca[c]);
    size_t S = g->S, L = g->L;

    /* Leaves below each switch: switches are in tier order within a subnet. */
    r->words = (L + 63) / 64;
    if (r->words == 0)
        r->words = 1;
    r->below = ry_xcalloc(S * r->words, sizeof *r->below);
    for (size_t s = 0; s < S; s++) {
        uint64_t *b = &r->below[s * r->words];
        if (g->leaf_of[s] >= 0)
            b[g->leaf_of[s] >> 6] |= 1ULL << (g->leaf_of[s] & 63);
        for (uint32_t x = g->down0[s]; x < g->down0[s + 1]; x++) {
            const uint64_t *c = &r->below[g->down[x].sw * r->words];
            RY_ASSERT(g->down[x].sw < s);
            for (size_t w = 0; w < r->words; w++)
                b[w] |= c[w];
        }
    }
    /* J top-down. */
    r->J = ry_xmalloc(S * (L ? L : 1));
    for (size_t s = S; s-- > 0;) {
        uint8_t *j = &r->J[s * L];
        memset(j, 0xFF, L);
        for (uint32_t x = g->up0[s]; x < g->up0[s + 1]; x++) {
            const uint8_t *pj = &r->J[g->up[x].sw * L];
            RY_ASSERT(g->up[x].sw > s);
            for (size_t l = 0; l < L; l++)
                j[l] = pj[l] < j[l] ? pj[l] : j[l];
        }
        const uint64_t *b = &r->below[s * r->words];
        for (size_t l = 0; l < L; l++)
            if (bit(b, l))
                j[l] = g->tier[s];
    }
    r->cand = ry_xmalloc(256);
    return r;
}

void ry_router_free(ry_router *r)
{
    if (!r)
        return;
    ry_updown_graph_free(&r->g);
    free(r->below);
    free(r->J);
    free(r->sw_next);
    free(r->cand);
    free(r);
}

/* Shortest-path next hops toward every switch, for switch LIDs: one BFS per
 * destination over the neighbour lists. */
static void build_switch_routes(ry_router *r)
{
    const ry_updown_graph *g = &r->g;
    size_t S = g->S;
    r->sw_next = ry_xmalloc(S * S);
    memset(r->sw_next, RY_LFT_NONE, S * S);
    uint32_t *queue = ry_xmalloc(S * sizeof *queue);
    uint8_t *seen = ry_xmalloc(S);
    for (size_t x = 0; x < S; x++) {
        memset(seen, 0, S);
        size_t qh = 0, qt = 0;
        queue[qt++] = (uint32_t)x;
        seen[x] = 1;
        r->sw_next[x * S + x] = 0;
        while (qh < qt) {
            uint32_t u = queue[qh++];
            /* neighbours t of u reach x through u: t's port toward u */
            for (int dir = 0; dir < 2; dir++) {
                const ry_ud_group *v = dir ? g->down : g->up;
                uint32_t a = dir ? g->down0[u] : g->up0[u], b = dir ? g->down0[u + 1] : g->up0[u + 1];
                for (uint32_t i = a; i < b; i++) {
                    uint32_t t = v[i].sw;
                    if (seen[t])
                        continue;
                    seen[t] = 1;
                    queue[qt++] = t;
                    /* find t's port group toward u (the reverse list) */
                    const ry_ud_group *w = dir ? g->up : g->down;
                    uint32_t c = dir ? g->up0[t] : g->down0[t], d = dir ? g->up0[t + 1] : g->down0[t + 1];
                    for (uint32_t j = c; j < d; j++)
                        if (w[j].sw == u) {
                            r->sw_next[x * S + t] = (uint8_t)(w[j].port + 1 + x % w[j].nlinks);
                            break;
                        }
                }
            }
        }
    }
    free(queue);
    free(seen);
}

void ry_router_row(ry_router *r, size_t s, uint8_t *row)
{
    const ry_updown_graph *g = &r->g;
    const ry_fabric *f = g->f;
    const ry_subnet *sn = r->sn;
    const ry_ibplan *pl = r->pl;
    memset(row, RY_LFT_NONE, sn->max_lid + 1);
    if (!r->sw_next)
        build_switch_routes(r);
    for (size_t x = 0; x < g->S; x++)
        row[pl->sw_lid[g->sw[x] - f->first_switch]] = r->sw_next[x * g->S + s];

    const ry_node *n = &f->nodes[g->sw[s]];
    const uint64_t *b = &r->below[s * r->words];
    const uint8_t *j = &r->J[s * g->L];
    uint32_t block = 1u << pl->lmc;
    for (size_t l = 0; l < g->L; l++) {
        size_t nc = 0;
        int down = bit(b, l);
        if ((int)l == g->leaf_of[s]) {
            /* CAs on this leaf: their own port. */
            for (uint32_t c = g->leaf_first[l]; c < g->leaf_first[l + 1]; c++) {
                uint32_t gp = g->end[c];
                int port = (int)((uint32_t)f->ports[gp].peer - n->port0) + 1;
                for (uint32_t o = 0; o < block; o++)
                    row[pl->ca_lid[gp] + o] = (uint8_t)port;
            }
            continue;
        }
        if (down) {
            for (uint32_t x = g->down0[s]; x < g->down0[s + 1]; x++)
                if (bit(&r->below[g->down[x].sw * r->words], l))
                    for (uint32_t q = 0; q < g->down[x].nlinks; q++)
                        r->cand[nc++] = (uint8_t)(g->down[x].port + 1 + q);
        } else {
            if (j[l] == 0xFF)
                continue;   /* unreachable: left without a route */
            for (uint32_t x = g->up0[s]; x < g->up0[s + 1]; x++)
                if (r->J[g->up[x].sw * g->L + l] == j[l])
                    for (uint32_t q = 0; q < g->up[x].nlinks; q++)
                        r->cand[nc++] = (uint8_t)(g->up[x].port + 1 + q);
        }
        RY_ASSERT(nc > 0);
        /* The D-mod-K digit of each destination picks its port; the 2^lmc
         * LIDs of a CA start a fraction of the candidates apart. */
        uint64_t rot = nc >> pl->lmc ? nc >> pl->lmc : 1;
        for (uint32_t c = g->leaf_first[l]; c < g->leaf_first[l + 1]; c++) {
            uint16_t lid = pl->ca_lid[g->end[c]];
            uint64_t base = ry_updown_digit(g, s, c, down);
            for (uint32_t o = 0; o < block; o++)
                row[lid + o] = r->cand[(base + o * rot) % nc];
        }
    }
}
