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
 * every link once), and spread on partial ones. */
#include "analysis/route.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

typedef struct nbr {        /* a distinct neighbour switch and its port group */
    uint32_t sw;            /* local switch index */
    uint16_t port;          /* first IB port number */
    uint16_t nlinks;        /* parallel links, on consecutive ports */
} nbr;

struct ry_router {
    const ry_ibplan *pl;
    const ry_fabric *f;
    const ry_subnet *sn;
    size_t S, L;            /* switches, leaves */
    int32_t *local;         /* node id - first_switch -> local index, or -1 */
    uint8_t *tier;          /* per local switch */
    int32_t *leaf_of;       /* per local switch: leaf index or -1 */
    uint64_t *below;        /* S x words: leaves below (leaf itself included) */
    size_t words;
    uint8_t *J;             /* S x L */
    nbr *up, *down, *all;   /* per switch neighbour lists (offsets below) */
    uint32_t *up0, *down0;  /* S + 1 offsets into up[] / down[] */
    uint32_t *ca_first;     /* L + 1: CA index range per leaf (CAs are grouped by leaf) */
    uint64_t div[RY_MAX_TIERS + 2];  /* product of uplink counts below tier t */
    uint8_t *sw_next;       /* S x S: next port toward each switch (BFS), lazily built */
    uint8_t *cand;          /* scratch */
};

static int bit(const uint64_t *b, size_t i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }

/* Neighbour lists of a switch: distinct upper and lower switches, in port order. */
static void neighbours(ry_router *r, size_t s, nbr **up, size_t *nup, size_t *cup,
                       nbr **down, size_t *ndown, size_t *cdown)
{
    const ry_fabric *f = r->f;
    const ry_node *n = &f->nodes[r->sn->sw[s]];
    for (uint32_t p = 0; p < n->nports; p++) {
        int32_t peer = f->ports[n->port0 + p].peer;
        if (peer < 0)
            continue;
        uint32_t o = f->ports[peer].owner;
        if (f->nodes[o].kind != RY_NODE_SWITCH)
            continue;
        uint32_t ls = (uint32_t)r->local[o - f->first_switch];
        int upward = f->nodes[o].tier > n->tier;
        nbr **v = upward ? up : down;
        size_t *nv = upward ? nup : ndown, *cv = upward ? cup : cdown;
        if (*nv > 0 && (*v)[*nv - 1].sw == ls && (*v)[*nv - 1].port + (*v)[*nv - 1].nlinks == p + 1) {
            (*v)[*nv - 1].nlinks++;
            continue;
        }
        if (*nv == *cv) {
            *cv = *cv ? *cv * 2 : 1024;
            *v = ry_xrealloc(*v, *cv * sizeof **v);
        }
        (*v)[(*nv)++] = (nbr){ ls, (uint16_t)(p + 1), 1 };
    }
}

ry_router *ry_router_new(const ry_ibplan *pl, int k)
{
    ry_router *r = ry_xcalloc(1, sizeof *r);
    const ry_fabric *f = pl->f;
    const ry_subnet *sn = &pl->subnets[k];
    r->pl = pl;
    r->f = f;
    r->sn = sn;
    r->S = sn->nsw;
    size_t nsw_all = f->nnodes - f->first_switch;
    r->local = ry_xmalloc(nsw_all * sizeof *r->local);
    for (size_t i = 0; i < nsw_all; i++)
        r->local[i] = -1;
    for (size_t i = 0; i < r->S; i++)
        r->local[sn->sw[i] - f->first_switch] = (int32_t)i;
    r->tier = ry_xmalloc(r->S);
    r->leaf_of = ry_xmalloc(r->S * sizeof *r->leaf_of);

    /* Leaves in CA order, with the CA index range of each. */
    r->ca_first = ry_xmalloc((r->S + 1) * sizeof *r->ca_first);
    for (size_t i = 0; i < r->S; i++) {
        r->tier[i] = f->nodes[sn->sw[i]].tier;
        r->leaf_of[i] = -1;
    }
    for (size_t c = 0; c < sn->nca; c++) {
        uint32_t sw = f->ports[f->ports[sn->ca[c]].peer].owner;
        size_t ls = (size_t)r->local[sw - f->first_switch];
        if (r->leaf_of[ls] < 0) {
            r->leaf_of[ls] = (int32_t)r->L;
            r->ca_first[r->L++] = (uint32_t)c;
        }
    }
    r->ca_first[r->L] = (uint32_t)sn->nca;

    size_t nup = 0, cup = 0, ndown = 0, cdown = 0;
    r->up0 = ry_xmalloc((r->S + 1) * sizeof *r->up0);
    r->down0 = ry_xmalloc((r->S + 1) * sizeof *r->down0);
    for (size_t s = 0; s < r->S; s++) {
        r->up0[s] = (uint32_t)nup;
        r->down0[s] = (uint32_t)ndown;
        neighbours(r, s, &r->up, &nup, &cup, &r->down, &ndown, &cdown);
    }
    r->up0[r->S] = (uint32_t)nup;
    r->down0[r->S] = (uint32_t)ndown;

    /* Leaves below each switch: switches are in tier order within a subnet. */
    r->words = (r->L + 63) / 64;
    if (r->words == 0)
        r->words = 1;
    r->below = ry_xcalloc(r->S * r->words, sizeof *r->below);
    for (size_t s = 0; s < r->S; s++) {
        uint64_t *b = &r->below[s * r->words];
        if (r->leaf_of[s] >= 0)
            b[r->leaf_of[s] >> 6] |= 1ULL << (r->leaf_of[s] & 63);
        for (uint32_t x = r->down0[s]; x < r->down0[s + 1]; x++) {
            const uint64_t *c = &r->below[r->down[x].sw * r->words];
            RY_ASSERT(r->down[x].sw < s);
            for (size_t w = 0; w < r->words; w++)
                b[w] |= c[w];
        }
    }
    /* J top-down. */
    r->J = ry_xmalloc(r->S * (r->L ? r->L : 1));
    for (size_t s = r->S; s-- > 0;) {
        uint8_t *j = &r->J[s * r->L];
        memset(j, 0xFF, r->L);
        for (uint32_t x = r->up0[s]; x < r->up0[s + 1]; x++) {
            const uint8_t *pj = &r->J[r->up[x].sw * r->L];
            RY_ASSERT(r->up[x].sw > s);
            for (size_t l = 0; l < r->L; l++)
                j[l] = pj[l] < j[l] ? pj[l] : j[l];
        }
        const uint64_t *b = &r->below[s * r->words];
        for (size_t l = 0; l < r->L; l++)
            if (bit(b, l))
                j[l] = r->tier[s];
    }
    r->div[1] = 1;
    for (int t = 2; t <= RY_MAX_TIERS + 1; t++) {
        uint64_t u = f->up_ports[t - 1] > 0 ? (uint64_t)f->up_ports[t - 1] : 1;
        r->div[t] = r->div[t - 1] * u;
        if (r->div[t] > (1ULL << 40))
            r->div[t] = 1ULL << 40;
    }
    r->cand = ry_xmalloc(256);
    return r;
}

void ry_router_free(ry_router *r)
{
    if (!r)
        return;
    free(r->local);
    free(r->tier);
    free(r->leaf_of);
    free(r->ca_first);
    free(r->up);
    free(r->down);
    free(r->up0);
    free(r->down0);
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
    size_t S = r->S;
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
                const nbr *v = dir ? r->down : r->up;
                uint32_t a = dir ? r->down0[u] : r->up0[u], b = dir ? r->down0[u + 1] : r->up0[u + 1];
                for (uint32_t i = a; i < b; i++) {
                    uint32_t t = v[i].sw;
                    if (seen[t])
                        continue;
                    seen[t] = 1;
                    queue[qt++] = t;
                    /* find t's port group toward u (the reverse list) */
                    const nbr *w = dir ? r->up : r->down;
                    uint32_t c = dir ? r->up0[t] : r->down0[t], d = dir ? r->up0[t + 1] : r->down0[t + 1];
                    for (uint32_t j = c; j < d; j++)
                        if (w[j].sw == u) {
                            r->sw_next[x * S + t] = (uint8_t)(w[j].port + x % w[j].nlinks);
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
    const ry_fabric *f = r->f;
    const ry_subnet *sn = r->sn;
    const ry_ibplan *pl = r->pl;
    memset(row, RY_LFT_NONE, sn->max_lid + 1);
    if (!r->sw_next)
        build_switch_routes(r);
    for (size_t x = 0; x < r->S; x++)
        row[pl->sw_lid[sn->sw[x] - f->first_switch]] = r->sw_next[x * r->S + s];

    const ry_node *n = &f->nodes[sn->sw[s]];
    const uint64_t *b = &r->below[s * r->words];
    const uint8_t *j = &r->J[s * r->L];
    int t = r->tier[s];
    uint32_t block = 1u << pl->lmc;
    for (size_t l = 0; l < r->L; l++) {
        size_t nc = 0;
        uint64_t div;
        if ((int)l == r->leaf_of[s]) {
            /* CAs on this leaf: their own port. */
            for (uint32_t c = r->ca_first[l]; c < r->ca_first[l + 1]; c++) {
                uint32_t gp = sn->ca[c];
                int port = (int)((uint32_t)f->ports[gp].peer - n->port0) + 1;
                for (uint32_t o = 0; o < block; o++)
                    row[pl->ca_lid[gp] + o] = (uint8_t)port;
            }
            continue;
        }
        if (bit(b, l)) {
            for (uint32_t x = r->down0[s]; x < r->down0[s + 1]; x++)
                if (bit(&r->below[r->down[x].sw * r->words], l))
                    for (int q = 0; q < r->down[x].nlinks; q++)
                        r->cand[nc++] = (uint8_t)(r->down[x].port + q);
            div = r->div[t - 1];
        } else {
            if (j[l] == 0xFF)
                continue;   /* unreachable: left without a route */
            for (uint32_t x = r->up0[s]; x < r->up0[s + 1]; x++)
                if (r->J[r->up[x].sw * r->L + l] == j[l])
                    for (int q = 0; q < r->up[x].nlinks; q++)
                        r->cand[nc++] = (uint8_t)(r->up[x].port + q);
            div = r->div[t];
        }
        RY_ASSERT(nc > 0);
        /* D-mod-K digit c / div, plus the lower digits c % div: on a full
         * tree those are the same for every destination this switch really
         * carries (a fixed rotation, so shift permutations stay free of
         * contention); where a partial pod funnels destinations of every
         * lower digit through one switch, they spread them over its ports.
         * The 2^lmc LIDs of a port start a fraction of the candidates apart. */
        uint64_t rot = nc >> pl->lmc ? nc >> pl->lmc : 1;
        /* A leaf numbers the destinations it sends up without its own CAs,
         * so a window of consecutive destinations that wraps around the
         * subnet still takes consecutive up-links. */
        int32_t own = r->leaf_of[s];
        uint32_t skip_from = own >= 0 ? r->ca_first[own + 1] : UINT32_MAX;
        uint32_t skip = own >= 0 ? r->ca_first[own + 1] - r->ca_first[own] : 0;
        for (uint32_t c = r->ca_first[l]; c < r->ca_first[l + 1]; c++) {
            uint16_t lid = pl->ca_lid[sn->ca[c]];
            uint64_t ci = c >= skip_from ? c - skip : c;
            uint64_t base = ci / div + ci % div;
            for (uint32_t o = 0; o < block; o++)
                row[lid + o] = r->cand[(base + o * rot) % nc];
        }
    }
}
