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
 * Failures (route.h) only take ports away: a dead port is neither a
 * candidate nor an edge of the leaf sets and J, a dead switch has no leaf
 * below it and no J. The graph, the end numbering and the divisors D stay
 * those of the whole subnet, so the digit of a destination does not move
 * and, with nothing failed, the tables are the same bytes.
 *
 * Incremental failures (ry_router_fail): the leaf sets and J are cheap
 * (S x L bits and bytes) and are recomputed whole; a row entry toward leaf l
 * at s depends only on below/J of s and of its neighbours at l and on s's
 * ports, so only the (s, l) where one of those changed are refilled. A
 * switch-LID route tree (one BFS per destination switch x) changes only when
 * a failed link is a tree edge of x's BFS or a failed switch has children in
 * it; removing anything else leaves the BFS order, hence the tree, as it was.
 *
 * The subnet's switches, leaves, CAs and neighbour lists, and that digit,
 * come from updown_graph.h, shared with the LID-free walker (updown.h). The
 * leaf sets and J are dense S x L tables here, which a subnet bounded by the
 * LID space affords and every row of the tables reads; the walker keeps
 * them per destination leaf instead, for subnets of any size. */
#include "analysis/route.h"

#include <stdlib.h>
#include <string.h>

#include "net/updown_graph.h"
#include "util/diag.h"

struct ry_router {
    const ry_ibplan *pl;
    const ry_subnet *sn;
    ry_updown_graph g;      /* switches, leaves, CAs (in LID order), neighbours */
    uint64_t *below;        /* S x words: leaves below (leaf itself included) */
    size_t words;
    uint8_t *J;             /* S x L */
    uint8_t *sw_next;       /* S x S: [x * S + t] port at t toward switch x (BFS), lazily built */
    uint8_t *cand;          /* scratch */
    /* failures */
    int failed;             /* anything failed at all */
    uint8_t *ndown;         /* per fabric node */
    uint8_t *ldown;         /* per fabric link */
    uint8_t *pdead;         /* per fabric port: its link, or a node at either end, failed */
    uint8_t *swdown;        /* per local switch */
    uint16_t *up_alive, *down_alive;  /* live links per group */
    uint32_t *up_rev, *down_rev;      /* the neighbour's first group back toward the switch */
    /* tables, when built */
    uint8_t *lft;           /* S x (max_lid + 1) */
    size_t stride;
};

static int bit(const uint64_t *b, size_t i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }

static uint32_t sw_port0(const ry_router *r, size_t s)
{
    return r->g.f->nodes[r->g.sw[s]].port0;
}

/* Ports of this subnet a failure takes away, then the live links per group. */
static void mark_dead(ry_router *r)
{
    const ry_fabric *f = r->g.f;
    const ry_updown_graph *g = &r->g;
    r->failed = 0;
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_link *k = &f->links[l];
        uint8_t d = r->ldown[l] || r->ndown[f->ports[k->lo].owner] || r->ndown[f->ports[k->hi].owner];
        r->pdead[k->lo] = r->pdead[k->hi] = d;
        r->failed |= d;
    }
    for (size_t s = 0; s < g->S; s++) {
        r->swdown[s] = r->ndown[g->sw[s]];
        uint32_t p0 = sw_port0(r, s);
        for (int dir = 0; dir < 2; dir++) {
            const ry_ud_group *v = dir ? g->down : g->up;
            uint16_t *alive = dir ? r->down_alive : r->up_alive;
            uint32_t a = dir ? g->down0[s] : g->up0[s], b = dir ? g->down0[s + 1] : g->up0[s + 1];
            for (uint32_t x = a; x < b; x++) {
                uint16_t n = 0;
                for (uint32_t q = 0; q < v[x].nlinks; q++)
                    n += !r->pdead[p0 + ry_ud_port(g, &v[x], q)];
                alive[x] = n;
            }
        }
    }
}

/* Leaf sets below each switch (switches are in tier order within a subnet),
 * then J top-down, both over the live links. */
static void compute_updown(ry_router *r)
{
    const ry_updown_graph *g = &r->g;
    size_t S = g->S, L = g->L;
    memset(r->below, 0, S * r->words * sizeof *r->below);
    for (size_t s = 0; s < S; s++) {
        if (r->swdown[s])
            continue;
        uint64_t *b = &r->below[s * r->words];
        if (g->leaf_of[s] >= 0)
            b[g->leaf_of[s] >> 6] |= 1ULL << (g->leaf_of[s] & 63);
        for (uint32_t x = g->down0[s]; x < g->down0[s + 1]; x++) {
            if (!r->down_alive[x])
                continue;
            const uint64_t *c = &r->below[g->down[x].sw * r->words];
            RY_ASSERT(g->down[x].sw < s);
            for (size_t w = 0; w < r->words; w++)
                b[w] |= c[w];
        }
    }
    for (size_t s = S; s-- > 0;) {
        uint8_t *j = &r->J[s * L];
        memset(j, 0xFF, L);
        if (r->swdown[s])
            continue;
        for (uint32_t x = g->up0[s]; x < g->up0[s + 1]; x++) {
            if (!r->up_alive[x])
                continue;
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
}

ry_router *ry_router_new_failed(const ry_ibplan *pl, int k, const uint8_t *node_down,
                                const uint8_t *link_down)
{
    ry_router *r = ry_xcalloc(1, sizeof *r);
    const ry_subnet *sn = &pl->subnets[k];
    const ry_fabric *f = pl->f;
    r->pl = pl;
    r->sn = sn;
    ry_updown_graph *g = &r->g;
    ry_updown_graph_build(f, k, g);
    /* The plan numbers the same switches and CAs the same way. */
    RY_ASSERT(g->S == sn->nsw && g->nends == sn->nca);
    for (size_t c = 0; c < sn->nca; c++)
        RY_ASSERT(g->end[c] == sn->ca[c]);
    size_t S = g->S, L = g->L;

    r->ndown = ry_xcalloc(f->nnodes + 1, 1);
    r->ldown = ry_xcalloc(f->nlinks + 1, 1);
    if (node_down)
        memcpy(r->ndown, node_down, f->nnodes);
    if (link_down)
        memcpy(r->ldown, link_down, f->nlinks);
    r->pdead = ry_xcalloc(f->nports + 1, 1);
    r->swdown = ry_xcalloc(S + 1, 1);
    r->up_alive = ry_xcalloc(g->up0[S] + 1, sizeof *r->up_alive);
    r->down_alive = ry_xcalloc(g->down0[S] + 1, sizeof *r->down_alive);
    mark_dead(r);
    r->up_rev = ry_xmalloc((g->up0[S] + 1) * sizeof *r->up_rev);
    r->down_rev = ry_xmalloc((g->down0[S] + 1) * sizeof *r->down_rev);
    for (size_t s = 0; s < S; s++)
        for (int dir = 0; dir < 2; dir++) {
            const ry_ud_group *v = dir ? g->down : g->up, *w = dir ? g->up : g->down;
            uint32_t *rev = dir ? r->down_rev : r->up_rev;
            uint32_t a = dir ? g->down0[s] : g->up0[s], b = dir ? g->down0[s + 1] : g->up0[s + 1];
            for (uint32_t i = a; i < b; i++) {
                uint32_t t = v[i].sw, c = dir ? g->up0[t] : g->down0[t];
                uint32_t d = dir ? g->up0[t + 1] : g->down0[t + 1];
                rev[i] = d;
                for (uint32_t j = c; j < d && rev[i] == d; j++)
                    if (w[j].sw == s)
                        rev[i] = j;
                RY_ASSERT(rev[i] < d);
            }
        }

    r->words = (L + 63) / 64;
    if (r->words == 0)
        r->words = 1;
    r->below = ry_xcalloc(S * r->words + 1, sizeof *r->below);
    r->J = ry_xmalloc(S * (L ? L : 1) + 1);
    compute_updown(r);
    r->cand = ry_xmalloc(256);
    r->stride = (size_t)sn->max_lid + 1;
    return r;
}

ry_router *ry_router_new(const ry_ibplan *pl, int k)
{
    return ry_router_new_failed(pl, k, NULL, NULL);
}

void ry_router_free(ry_router *r)
{
    if (!r)
        return;
    ry_updown_graph_free(&r->g);
    void *v[] = { r->below, r->J, r->sw_next, r->cand, r->ndown, r->ldown, r->pdead,
                  r->swdown, r->up_alive, r->down_alive, r->up_rev, r->down_rev, r->lft };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        free(v[i]);
    free(r);
}

/* ---- switch LIDs ------------------------------------------------------------ */

/* The port of t toward neighbour u for destination switch x: in t's first
 * group toward u with a live link (from `first`, t's first group toward u),
 * the (x mod live)-th live link. 0 if none. */
static uint8_t port_toward(const ry_router *r, uint32_t t, uint32_t u, int up, uint32_t x,
                           uint32_t first)
{
    const ry_updown_graph *g = &r->g;
    const ry_ud_group *w = up ? g->up : g->down;
    const uint16_t *alive = up ? r->up_alive : r->down_alive;
    if (alive[first] == w[first].nlinks)
        return (uint8_t)(ry_ud_port(g, &w[first], x % w[first].nlinks) + 1);
    uint32_t d = up ? g->up0[t + 1] : g->down0[t + 1];
    for (uint32_t j = first; j < d; j++) {
        if (w[j].sw != u || !alive[j])
            continue;
        if (alive[j] == w[j].nlinks)
            return (uint8_t)(ry_ud_port(g, &w[j], x % w[j].nlinks) + 1);
        uint32_t pick = x % alive[j], p0 = sw_port0(r, t);
        for (uint32_t q = 0; q < w[j].nlinks; q++)
            if (!r->pdead[p0 + ry_ud_port(g, &w[j], q)] && pick-- == 0)
                return (uint8_t)(ry_ud_port(g, &w[j], q) + 1);
    }
    return 0;
}

/* Shortest-path next hops toward switch x: one BFS over the live links. */
static void bfs_from(ry_router *r, uint32_t x, uint32_t *queue, uint8_t *seen)
{
    const ry_updown_graph *g = &r->g;
    size_t S = g->S;
    uint8_t *next = &r->sw_next[(size_t)x * S];
    memset(next, RY_LFT_NONE, S);
    if (r->swdown[x])
        return;
    memset(seen, 0, S);
    size_t qh = 0, qt = 0;
    queue[qt++] = x;
    seen[x] = 1;
    next[x] = 0;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        /* neighbours t of u reach x through u: t's port toward u */
        for (int dir = 0; dir < 2; dir++) {
            const ry_ud_group *v = dir ? g->down : g->up;
            const uint16_t *alive = dir ? r->down_alive : r->up_alive;
            const uint32_t *rev = dir ? r->down_rev : r->up_rev;
            uint32_t a = dir ? g->down0[u] : g->up0[u], b = dir ? g->down0[u + 1] : g->up0[u + 1];
            for (uint32_t i = a; i < b; i++) {
                uint32_t t = v[i].sw;
                if (seen[t] || !alive[i])
                    continue;
                seen[t] = 1;
                queue[qt++] = t;
                /* u's up groups are t's down groups toward u, and the reverse */
                next[t] = port_toward(r, t, u, dir, x, rev[i]);
            }
        }
    }
}

static void build_switch_routes(ry_router *r)
{
    size_t S = r->g.S;
    r->sw_next = ry_xmalloc(S * S + 1);
    uint32_t *queue = ry_xmalloc((S + 1) * sizeof *queue);
    uint8_t *seen = ry_xmalloc(S + 1);
    for (size_t x = 0; x < S; x++)
        bfs_from(r, (uint32_t)x, queue, seen);
    free(queue);
    free(seen);
}

/* ---- rows --------------------------------------------------------------------- */

/* The entries of leaf l's CAs at s with one LID each: ry_updown_digit(c)
 * mod nc picks the candidate, stepped along c instead of divided per CA.
 * Within a leaf the own-leaf shift of the digit is constant, and c / D + c
 * mod D grows by one per CA except where c mod D wraps. */
static void fill_leaf_digits(ry_router *r, size_t s, size_t l, int down, size_t nc, uint8_t *row)
{
    const ry_updown_graph *g = &r->g;
    uint32_t c0 = g->leaf_first[l], c1 = g->leaf_first[l + 1];
    if (c0 == c1)
        return;
    uint64_t first = ry_updown_digit(g, s, c0, down);
    /* the c that ry_updown_digit divides, and its divisor */
    int32_t own = g->leaf_of[s];
    uint64_t cc = c0, div = g->div[down ? g->tier[s] - 1 : g->tier[s]];
    if (own >= 0 && cc >= g->leaf_first[own + 1])
        cc -= g->leaf_first[own + 1] - g->leaf_first[own];
    uint64_t rem = cc % div, idx = first % nc;
    /* where c mod D wraps, the digit moves by 2 - D: back by D - 2 mod nc */
    uint64_t wrap = div >= 2 ? nc - (div - 2) % nc : 1;
    for (uint32_t c = c0; c < c1; c++) {
        if (!r->pdead[g->end[c]])
            row[r->pl->ca_lid[g->end[c]]] = r->cand[idx];
        if (++rem == div) {
            rem = 0;
            idx = (idx + wrap) % nc;
        } else if (++idx == nc) {
            idx = 0;
        }
    }
}

/* Switch s's entries toward the CAs of leaf l; `clear` when the row may
 * hold older entries for them. */
static void fill_leaf(ry_router *r, size_t s, size_t l, uint8_t *row, int clear)
{
    const ry_updown_graph *g = &r->g;
    const ry_fabric *f = g->f;
    const ry_ibplan *pl = r->pl;
    uint32_t block = 1u << pl->lmc;
    uint32_t p0 = sw_port0(r, s);
    for (uint32_t c = g->leaf_first[l]; clear && c < g->leaf_first[l + 1]; c++)
        memset(&row[pl->ca_lid[g->end[c]]], RY_LFT_NONE, block);
    if (r->swdown[s])
        return;
    if ((int)l == g->leaf_of[s]) {
        /* CAs on this leaf: their own port. */
        for (uint32_t c = g->leaf_first[l]; c < g->leaf_first[l + 1]; c++) {
            uint32_t gp = g->end[c];
            if (r->pdead[gp])
                continue;
            int port = (int)((uint32_t)f->ports[gp].peer - p0) + 1;
            memset(&row[pl->ca_lid[gp]], port, block);
        }
        return;
    }
    size_t nc = 0;
    int down = bit(&r->below[s * r->words], l);
    const ry_ud_group *v = down ? g->down : g->up;
    const uint16_t *alive = down ? r->down_alive : r->up_alive;
    uint32_t a = down ? g->down0[s] : g->up0[s], b = down ? g->down0[s + 1] : g->up0[s + 1];
    uint8_t jl = r->J[s * g->L + l];
    if (!down && jl == 0xFF)
        return;   /* unreachable: left without a route */
    for (uint32_t x = a; x < b; x++) {
        if (!alive[x])
            continue;
        if (down ? !bit(&r->below[v[x].sw * r->words], l) : r->J[v[x].sw * g->L + l] != jl)
            continue;
        for (uint32_t q = 0; q < v[x].nlinks; q++)
            if (alive[x] == v[x].nlinks || !r->pdead[p0 + ry_ud_port(g, &v[x], q)])
                r->cand[nc++] = (uint8_t)(ry_ud_port(g, &v[x], q) + 1);
    }
    RY_ASSERT(nc > 0);
    /* The D-mod-K digit of each destination picks its port; the 2^lmc
     * LIDs of a CA start a fraction of the candidates apart. */
    if (block == 1) {
        fill_leaf_digits(r, s, l, down, nc, row);
        return;
    }
    uint64_t rot = nc >> pl->lmc ? nc >> pl->lmc : 1;
    for (uint32_t c = g->leaf_first[l]; c < g->leaf_first[l + 1]; c++) {
        if (r->pdead[g->end[c]])
            continue;
        uint16_t lid = pl->ca_lid[g->end[c]];
        uint64_t base = ry_updown_digit(g, s, c, down);
        for (uint32_t o = 0; o < block; o++)
            row[lid + o] = r->cand[(base + o * rot) % nc];
    }
}

static void fill_row(ry_router *r, size_t s, uint8_t *row)
{
    const ry_updown_graph *g = &r->g;
    memset(row, RY_LFT_NONE, r->stride);
    if (!r->sw_next)
        build_switch_routes(r);
    if (r->swdown[s])
        return;
    for (size_t x = 0; x < g->S; x++)
        row[r->pl->sw_lid[g->sw[x] - g->f->first_switch]] = r->sw_next[x * g->S + s];
    for (size_t l = 0; l < g->L; l++)
        fill_leaf(r, s, l, row, 0);
}

void ry_router_row(ry_router *r, size_t s, uint8_t *row)
{
    if (r->lft)
        memcpy(row, &r->lft[s * r->stride], r->stride);
    else
        fill_row(r, s, row);
}

const uint8_t *ry_router_tables(ry_router *r)
{
    if (r->lft)
        return r->lft;
    uint8_t *lft = ry_xmalloc(r->g.S * r->stride + 1);
    for (size_t s = 0; s < r->g.S; s++)
        fill_row(r, s, &lft[s * r->stride]);
    r->lft = lft;
    return lft;
}

/* ---- incremental failures ------------------------------------------------------ */

/* The local switch at the far end of port number p (1-based) of switch t,
 * or -1. */
static int32_t neighbour_at(const ry_router *r, uint32_t t, uint8_t p)
{
    const ry_fabric *f = r->g.f;
    if (p == 0 || p == RY_LFT_NONE)
        return -1;
    int32_t peer = f->ports[sw_port0(r, t) + p - 1u].peer;
    if (peer < 0)
        return -1;
    uint32_t o = f->ports[peer].owner;
    return o < f->first_switch ? -1 : r->g.local[o - f->first_switch];
}

/* Whether x's route tree uses an edge of u toward t (either way). */
static int tree_edge(const ry_router *r, uint32_t x, uint32_t u, uint32_t t)
{
    const uint8_t *next = &r->sw_next[(size_t)x * r->g.S];
    return neighbour_at(r, t, next[t]) == (int32_t)u || neighbour_at(r, u, next[u]) == (int32_t)t;
}

size_t ry_router_fail(ry_router *r, const uint32_t *nodes, size_t nnodes,
                      const uint32_t *links, size_t nlinks)
{
    ry_updown_graph *g = &r->g;
    const ry_fabric *f = g->f;
    size_t S = g->S, L = g->L, W = r->words;
    ry_router_tables(r);
    uint8_t *old_pdead = ry_xmalloc(f->nports + 1);
    memcpy(old_pdead, r->pdead, f->nports);
    uint8_t *old_swdown = ry_xmalloc(S + 1);
    memcpy(old_swdown, r->swdown, S);
    uint64_t *old_below = ry_xmalloc(S * W * sizeof *old_below + 1);
    memcpy(old_below, r->below, S * W * sizeof *old_below);
    uint8_t *old_J = ry_xmalloc(S * L + 1);
    memcpy(old_J, r->J, S * L);

    for (size_t i = 0; i < nnodes; i++)
        if (nodes[i] < f->nnodes)
            r->ndown[nodes[i]] = 1;
    for (size_t i = 0; i < nlinks; i++)
        if (links[i] < f->nlinks)
            r->ldown[links[i]] = 1;
    mark_dead(r);
    compute_updown(r);

    /* Switches with a newly dead port; leaves whose below/J changed. */
    uint8_t *touched = ry_xcalloc(S + 1, 1);
    uint64_t *chg = ry_xcalloc(S * W + 1, sizeof *chg);
    for (size_t s = 0; s < S; s++) {
        uint32_t p0 = sw_port0(r, s), np = f->nodes[g->sw[s]].nports;
        for (uint32_t p = 0; p < np && !touched[s]; p++)
            touched[s] = r->pdead[p0 + p] != old_pdead[p0 + p];
        touched[s] |= r->swdown[s] != old_swdown[s];
        for (size_t w = 0; w < W; w++)
            chg[s * W + w] = r->below[s * W + w] ^ old_below[s * W + w];
        const uint8_t *a = &r->J[s * L], *b = &old_J[s * L];
        for (size_t l = 0; l < L; l++)
            if (a[l] != b[l])
                chg[s * W + (l >> 6)] |= 1ULL << (l & 63);
    }

    /* Count changes against a copy of the rows refilled. */
    size_t changed = 0;
    uint8_t *save = ry_xmalloc(r->stride);
    uint64_t *dirty = ry_xmalloc(W * sizeof *dirty);
    for (size_t s = 0; s < S; s++) {
        uint8_t *row = &r->lft[s * r->stride];
        memcpy(dirty, &chg[s * W], W * sizeof *dirty);
        int any = touched[s];
        for (int dir = 0; dir < 2; dir++) {
            const ry_ud_group *v = dir ? g->down : g->up;
            uint32_t a = dir ? g->down0[s] : g->up0[s], b = dir ? g->down0[s + 1] : g->up0[s + 1];
            for (uint32_t x = a; x < b; x++)
                for (size_t w = 0; w < W; w++)
                    dirty[w] |= chg[v[x].sw * W + w];
        }
        for (size_t w = 0; w < W && !any; w++)
            any = dirty[w] != 0;
        if (!any)
            continue;
        memcpy(save, row, r->stride);
        for (size_t l = 0; l < L; l++)
            if (touched[s] || bit(dirty, l))
                fill_leaf(r, s, l, row, 1);
        for (size_t i = 0; i < r->stride; i++)
            changed += save[i] != row[i];
    }
    free(save);
    free(dirty);

    /* CAs newly dead: no entry toward them anywhere. */
    uint32_t block = 1u << r->pl->lmc;
    for (size_t c = 0; c < g->nends; c++) {
        uint32_t gp = g->end[c];
        if (!r->pdead[gp] || old_pdead[gp])
            continue;
        uint16_t lid = r->pl->ca_lid[gp];
        for (size_t s = 0; s < S; s++)
            for (uint32_t o = 0; o < block; o++) {
                uint8_t *e = &r->lft[s * r->stride + lid + o];
                changed += *e != RY_LFT_NONE;
                *e = RY_LFT_NONE;
            }
    }

    /* Switch LIDs: redo the BFS of the destinations whose tree a failure
     * cuts. */
    uint32_t *queue = ry_xmalloc((S + 1) * sizeof *queue);
    uint8_t *seen = ry_xmalloc(S + 1);
    const uint16_t *sw_lid = r->pl->sw_lid;
    for (size_t x = 0; x < S; x++) {
        int redo = r->swdown[x] && !old_swdown[x];
        for (size_t u = 0; u < S && !redo; u++) {
            if (!touched[u])
                continue;
            uint32_t p0 = sw_port0(r, u), np = f->nodes[g->sw[u]].nports;
            if (r->swdown[u] && !old_swdown[u]) {
                /* a failed switch with children in x's tree */
                for (uint32_t p = 0; p < np && !redo; p++) {
                    int32_t peer = f->ports[p0 + p].peer;
                    if (peer < 0 || f->ports[peer].owner < f->first_switch || old_pdead[p0 + p])
                        continue;
                    int32_t t = g->local[f->ports[peer].owner - f->first_switch];
                    redo = t >= 0 && neighbour_at(r, (uint32_t)t,
                                                  r->sw_next[x * S + (size_t)t]) == (int32_t)u;
                }
                continue;
            }
            for (uint32_t p = 0; p < np && !redo; p++) {
                if (!r->pdead[p0 + p] || old_pdead[p0 + p])
                    continue;
                int32_t peer = f->ports[p0 + p].peer;
                if (peer < 0 || f->ports[peer].owner < f->first_switch)
                    continue;
                int32_t t = g->local[f->ports[peer].owner - f->first_switch];
                /* toward a failed switch: the rule above */
                if (t < 0 || (r->swdown[t] && !old_swdown[t]))
                    continue;
                redo = tree_edge(r, (uint32_t)x, (uint32_t)u, (uint32_t)t);
            }
        }
        /* a failed switch's row loses its entry; nobody else's changes */
        if (!redo && !r->swdown[x]) {
            for (size_t u = 0; u < S; u++)
                if (r->swdown[u] && !old_swdown[u])
                    r->sw_next[x * S + u] = RY_LFT_NONE;
            continue;
        }
        if (!redo)
            continue;
        bfs_from(r, (uint32_t)x, queue, seen);
        size_t col = sw_lid[g->sw[x] - f->first_switch];
        for (size_t s = 0; s < S; s++) {
            uint8_t *e = &r->lft[s * r->stride + col];
            uint8_t v = r->sw_next[x * S + s];
            changed += *e != v;
            *e = v;
        }
    }
    /* newly failed switches: their whole row goes */
    for (size_t s = 0; s < S; s++)
        if (r->swdown[s] && !old_swdown[s]) {
            uint8_t *row = &r->lft[s * r->stride];
            for (size_t i = 0; i < r->stride; i++) {
                changed += row[i] != RY_LFT_NONE;
                row[i] = RY_LFT_NONE;
            }
        }
    free(queue);
    free(seen);
    free(touched);
    free(chg);
    free(old_pdead);
    free(old_swdown);
    free(old_below);
    free(old_J);
    return changed;
}
