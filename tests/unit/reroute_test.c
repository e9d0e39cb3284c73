/* Routing around failures (src/analysis/route.c), on the fabrics of
 * tests/data/ib/ and the examples, subnet by subnet, for a failed top
 * switch, middle switch, leaf, switch-to-switch link, NIC link, a random
 * handful of each, and every switch of the subnet:
 *   - with nothing failed, ry_router_new_failed gives ry_router_new's rows;
 *   - ry_router_fail on a router without failures (and in two steps) gives
 *     the same bytes as ry_router_new_failed with the same failures;
 *   - no entry leaves by a failed link or into a failed switch, no entry
 *     names a failed switch's or a dead CA's LID, a failed switch's row is
 *     empty;
 *   - against up-down distances computed here from the fabric's ports: from
 *     every live switch, a CA with an up*-down* path is reached by following
 *     the tables, never going up after going down, in exactly the minimal
 *     up-down number of hops, and a CA without one has no entry;
 *   - balance: at every switch the port toward a CA (LMC 0) is the
 *     D-mod-K digit's pick (ry_updown_digit, as without failures) among the
 *     surviving ports on a minimal up-down path, in port order;
 *   - the flow engine's LID-free walker over the same failures
 *     (ry_updown_new_failed) takes the tables' port at every switch toward
 *     every CA, and has no route where they have no entry.
 *
 * usage: reroute_test SRCDIR; exits non-zero on a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/route.h"
#include "net/updown.h"
#include "net/updown_graph.h"
#include "check.h"
#include "fabric/fabric.h"
#include "fabric/ibplan.h"
#include "spec/spec.h"

static long long digits_checked, walker_hops;
static unsigned long long rng = 88172645463325252ULL;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

typedef struct scenario {
    const char *what;
    uint32_t nodes[64], links[64];
    size_t nn, nl;
} scenario;

/* The port a switch's entry leaves by: the fabric port id. */
static uint32_t port_id(const ry_fabric *f, uint32_t sw, int p) { return f->nodes[sw].port0 + (uint32_t)p - 1; }

static int port_dead(const ry_fabric *f, const uint8_t *nd, const uint8_t *ld, uint32_t pid)
{
    int32_t peer = f->ports[pid].peer;
    if (peer < 0)
        return 1;
    return ld[f->ports[pid].link] || nd[f->ports[pid].owner] || nd[f->ports[peer].owner];
}

/* Checks one subnet's tables against the failures, independently of route.c. */
static void check_tables(const char *name, const scenario *sc, const ry_ibplan *pl, int k,
                         const uint8_t *lft, const uint8_t *nd, const uint8_t *ld)
{
    const ry_fabric *f = pl->f;
    const ry_subnet *sn = &pl->subnets[k];
    size_t S = sn->nsw, stride = sn->max_lid + 1;
    uint32_t blk = 1u << pl->lmc;
    long long bad_port = 0, bad_dead = 0, missing = 0, extra = 0, longer = 0, valley = 0;
    long long digit_off = 0, digit_checked = 0;
    ry_updown_graph ug;
    ry_updown_graph_build(f, k, &ug);
    uint8_t cand[256];
    /* local index of a switch node */
    int32_t *loc = malloc(f->nnodes * sizeof *loc);
    for (size_t i = 0; i < f->nnodes; i++)
        loc[i] = -1;
    for (size_t i = 0; i < S; i++)
        loc[sn->sw[i]] = (int32_t)i;
    for (size_t i = 0; i < S; i++) {
        const uint8_t *row = &lft[i * stride];
        uint32_t id = sn->sw[i];
        for (size_t lid = 1; lid < stride; lid++) {
            uint8_t p = row[lid];
            if (p == RY_LFT_NONE)
                continue;
            if (nd[id]) {
                bad_dead++;
                continue;
            }
            if (p != 0 && port_dead(f, nd, ld, port_id(f, id, p)))
                bad_port++;
        }
        for (size_t j = 0; j < S; j++)
            if (nd[sn->sw[j]] && row[pl->sw_lid[sn->sw[j] - f->first_switch]] != RY_LFT_NONE)
                bad_dead++;
        for (size_t c = 0; c < sn->nca; c++)
            if (port_dead(f, nd, ld, sn->ca[c]) || nd[sn->ca[c] / (uint32_t)f->planes])
                for (uint32_t o = 0; o < blk; o++)
                    bad_dead += row[pl->ca_lid[sn->ca[c]] + o] != RY_LFT_NONE;
    }
    /* up-down distances per destination leaf: dn over children (tiers
     * ascending), then ud over parents (tiers descending) */
    int *dn = malloc(S * sizeof *dn), *ud = malloc(S * sizeof *ud);
    int32_t tport[256];                 /* per port: its minimal neighbour, or -1 */
    uint8_t *seen = calloc(S ? S : 1, 1);
    for (size_t l = 0; l < S; l++) {
        uint32_t lid_sw = sn->sw[l];
        if (nd[lid_sw])
            continue;
        int has_ca = 0;
        for (size_t c = 0; c < sn->nca; c++)
            if ((uint32_t)f->ports[f->ports[sn->ca[c]].peer].owner == lid_sw)
                has_ca = 1;
        if (!has_ca)
            continue;
        for (int pass = 0; pass < 2; pass++)
            for (size_t y = 0; y < S; y++) {
                size_t s = pass ? S - 1 - y : y;
                uint32_t id = sn->sw[s];
                const ry_node *n = &f->nodes[id];
                int best = pass ? dn[s] : (s == l ? 0 : 1 << 20);
                if (nd[id])
                    best = 1 << 20;
                else
                    for (uint32_t p = 0; p < n->nports; p++) {
                        uint32_t pid = n->port0 + p;
                        if (port_dead(f, nd, ld, pid))
                            continue;
                        uint32_t o = f->ports[f->ports[pid].peer].owner;
                        if (loc[o] < 0)
                            continue;
                        int v = pass ? (f->nodes[o].tier > n->tier ? ud[loc[o]] : 1 << 20)
                                     : (f->nodes[o].tier < n->tier ? dn[loc[o]] : 1 << 20);
                        if (v + 1 < best)
                            best = v + 1;
                    }
                (pass ? ud : dn)[s] = best;
            }
        for (size_t c = 0; c < sn->nca; c++) {
            uint32_t gp = sn->ca[c];
            if ((uint32_t)f->ports[f->ports[gp].peer].owner != lid_sw || port_dead(f, nd, ld, gp))
                continue;
            for (uint32_t o = 0; o < blk; o++) {
                uint16_t lid = (uint16_t)(pl->ca_lid[gp] + o);
                for (size_t s = 0; s < S; s++) {
                    if (nd[sn->sw[s]])
                        continue;
                    if (ud[s] >= 1 << 20) {
                        extra += lft[s * stride + lid] != RY_LFT_NONE;
                        continue;
                    }
                    if (blk == 1 && s != l) {
                        /* the live ports on a minimal up-down path, by
                         * neighbour (in the order of its first cabled port,
                         * live or not), each neighbour's in port order */
                        const ry_node *n = &f->nodes[sn->sw[s]];
                        int down = dn[s] < 1 << 20;
                        size_t nc = 0;
                        for (uint32_t p = 0; p < n->nports; p++) {
                            uint32_t pid = n->port0 + p;
                            tport[p] = -1;
                            if (port_dead(f, nd, ld, pid))
                                continue;
                            int32_t t = loc[f->ports[f->ports[pid].peer].owner];
                            if (t < 0)
                                continue;
                            int tt = f->nodes[sn->sw[t]].tier;
                            if (down ? tt < n->tier && dn[t] == dn[s] - 1
                                     : tt > n->tier && ud[t] == ud[s] - 1)
                                tport[p] = t;
                        }
                        for (uint32_t p0 = 0; p0 < n->nports; p0++) {
                            int32_t peer = f->ports[n->port0 + p0].peer;
                            int32_t t = peer < 0 ? -1 : loc[f->ports[peer].owner];
                            if (t < 0 || seen[t])
                                continue;
                            seen[t] = 1;
                            for (uint32_t p = p0; p < n->nports; p++)
                                if (tport[p] == t)
                                    cand[nc++] = (uint8_t)(p + 1);
                        }
                        for (uint32_t p = 0; p < n->nports; p++) {
                            int32_t peer = f->ports[n->port0 + p].peer;
                            if (peer >= 0 && loc[f->ports[peer].owner] >= 0)
                                seen[loc[f->ports[peer].owner]] = 0;
                        }
                        digit_checked++;
                        if (!nc || lft[s * stride + lid] !=
                                       cand[ry_updown_digit(&ug, s, c, down) % nc])
                            digit_off++;
                    }
                    size_t at = s;
                    int hops = 0, down = 0, arrived = 0;
                    while (hops <= 2 * RY_MAX_TIERS + 2) {
                        uint8_t p = lft[at * stride + lid];
                        if (p == RY_LFT_NONE || p == 0)
                            break;
                        uint32_t pid = port_id(f, sn->sw[at], p);
                        if (f->ports[pid].peer < 0)
                            break;
                        hops++;
                        if ((int32_t)gp == f->ports[pid].peer) {
                            arrived = 1;
                            break;
                        }
                        uint32_t on = f->ports[f->ports[pid].peer].owner;
                        if (loc[on] < 0)
                            break;
                        int up = f->nodes[on].tier > f->nodes[sn->sw[at]].tier;
                        if (up && down)
                            valley++;
                        down |= !up;
                        at = (size_t)loc[on];
                    }
                    if (!arrived)
                        missing++;
                    else if (hops != ud[s] + 1)
                        longer++;
                }
            }
        }
    }
    CHECK(!bad_port && !bad_dead, "%s, %s: %lld entries over a failed port, %lld toward or at a "
          "failed element", name, sc->what, bad_port, bad_dead);
    CHECK(!digit_off, "%s, %s: %lld of %lld ports are not the D-mod-K pick among the minimal "
          "ports", name, sc->what, digit_off, digit_checked);
    ry_updown_graph_free(&ug);
    digits_checked += digit_checked;
    CHECK(!missing && !extra && !longer && !valley, "%s, %s: %lld up-down routes missing, %lld "
          "entries without an up-down path, %lld longer than minimal, %lld valleys",
          name, sc->what, missing, extra, longer, valley);
    free(dn);
    free(seen);
    free(ud);
    free(loc);
}

static void run_scenario(const char *name, const ry_ibplan *pl, int k, const scenario *sc)
{
    const ry_fabric *f = pl->f;
    const ry_subnet *sn = &pl->subnets[k];
    uint8_t *nd = calloc(f->nnodes + 1, 1), *ld = calloc(f->nlinks + 1, 1);
    for (size_t i = 0; i < sc->nn; i++)
        nd[sc->nodes[i]] = 1;
    for (size_t i = 0; i < sc->nl; i++)
        ld[sc->links[i]] = 1;
    size_t bytes = sn->nsw * (sn->max_lid + 1);
    ry_router *full = ry_router_new_failed(pl, k, nd, ld);
    const uint8_t *a = ry_router_tables(full);
    check_tables(name, sc, pl, k, a, nd, ld);

    /* the engine's walker around the same failures */
    ry_updown *u = ry_updown_new_failed(f, k, nd, ld);
    long long walked = 0, off = 0;
    for (size_t x = 0; x < sn->nsw; x++)
        for (size_t c = 0; c < sn->nca; c++) {
            uint32_t gp = sn->ca[c];
            int want = a[x * (sn->max_lid + 1) + pl->ca_lid[gp]];
            int p = ry_updown_next(u, sn->sw[x], gp);
            walked++;
            off += (want == RY_LFT_NONE ? -1 : want - 1) != p;
        }
    ry_updown_free(u);
    walker_hops += walked;
    CHECK(off == 0, "%s, %s: the walker around the failures differs from the tables at %lld "
          "of %lld (switch, CA) pairs", name, sc->what, off, walked);

    ry_router *inc = ry_router_new(pl, k);
    ry_router_tables(inc);
    size_t changed = ry_router_fail(inc, sc->nodes, sc->nn, sc->links, sc->nl);
    const uint8_t *b = ry_router_tables(inc);
    CHECK(memcmp(a, b, bytes) == 0, "%s, %s: incremental tables differ from a full recompute",
          name, sc->what);
    /* the count of changed entries, against the tables without failures */
    ry_router *none = ry_router_new(pl, k);
    const uint8_t *z = ry_router_tables(none);
    size_t diff = 0;
    for (size_t i = 0; i < bytes; i++)
        diff += z[i] != a[i];
    CHECK(diff == changed, "%s, %s: ry_router_fail reports %zu changed entries, %zu differ",
          name, sc->what, changed, diff);
    ry_router_free(none);
    ry_router_free(inc);

    /* in two steps: nodes first, then links */
    inc = ry_router_new(pl, k);
    ry_router_fail(inc, sc->nodes, sc->nn, NULL, 0);
    ry_router_fail(inc, NULL, 0, sc->links, sc->nl);
    CHECK(memcmp(a, ry_router_tables(inc), bytes) == 0, "%s, %s: two-step incremental tables "
          "differ", name, sc->what);
    ry_router_free(inc);
    ry_router_free(full);
    free(nd);
    free(ld);
}

/* A switch of subnet k at tier t (the i-th of them, modulo), or -1. */
static int64_t switch_at(const ry_ibplan *pl, int k, int t, unsigned i)
{
    const ry_subnet *sn = &pl->subnets[k];
    size_t n = 0;
    for (size_t s = 0; s < sn->nsw; s++)
        n += pl->f->nodes[sn->sw[s]].tier == t;
    if (!n)
        return -1;
    i %= (unsigned)n;
    for (size_t s = 0; s < sn->nsw; s++)
        if (pl->f->nodes[sn->sw[s]].tier == t && i-- == 0)
            return sn->sw[s];
    return -1;
}

/* A link of subnet k: between switches (kind 1) or to a GPU (kind 0). */
static int64_t link_of(const ry_ibplan *pl, int k, int to_switch, unsigned i)
{
    const ry_fabric *f = pl->f;
    uint32_t *v = malloc(f->nlinks * sizeof *v);
    size_t n = 0;
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *lo = ry_port_node(f, f->links[l].lo), *hi = ry_port_node(f, f->links[l].hi);
        if (hi->subnet == k && ry_node_is_switch(hi) && ry_node_is_switch(lo) == to_switch)
            v[n++] = (uint32_t)l;
    }
    int64_t r = n ? (int64_t)v[i % n] : -1;
    free(v);
    return r;
}

static void check_subnet(const char *name, const ry_ibplan *pl, int k)
{
    const ry_subnet *sn = &pl->subnets[k];
    /* nothing failed: today's rows */
    ry_router *r0 = ry_router_new(pl, k), *r1 = ry_router_new_failed(pl, k, NULL, NULL);
    uint8_t *row = malloc(sn->max_lid + 1);
    const uint8_t *t1 = ry_router_tables(r1);
    size_t differ = 0;
    for (size_t i = 0; i < sn->nsw; i++) {
        ry_router_row(r0, i, row);
        differ += memcmp(row, &t1[i * (sn->max_lid + 1)], sn->max_lid + 1) != 0;
    }
    CHECK(differ == 0, "%s subnet %d: %zu rows differ with nothing failed", name, k, differ);
    free(row);
    ry_router_free(r0);
    ry_router_free(r1);

    scenario sc;
    int top = sn->tiers;
    for (int t = top; t >= 1; t--)
        for (unsigned i = 0; i < 2; i++) {
            int64_t s = switch_at(pl, k, t, i * 7 + 1);
            if (s < 0)
                continue;
            memset(&sc, 0, sizeof sc);
            sc.what = t == 1 ? "a leaf" : t == top ? "a top switch" : "a middle switch";
            sc.nodes[sc.nn++] = (uint32_t)s;
            run_scenario(name, pl, k, &sc);
        }
    for (int kind = 0; kind < 2; kind++)
        for (unsigned i = 0; i < 3; i++) {
            int64_t l = link_of(pl, k, kind, i * 13 + 5);
            if (l < 0)
                continue;
            memset(&sc, 0, sizeof sc);
            sc.what = kind ? "a switch link" : "a NIC link";
            sc.links[sc.nl++] = (uint32_t)l;
            run_scenario(name, pl, k, &sc);
        }
    /* a switch cut off above it, or left with one up-link */
    for (int t = 1; t < top; t++)
        for (int keep = 0; keep < 2; keep++) {
            int64_t s = switch_at(pl, k, t, 3);
            if (s < 0)
                continue;
            memset(&sc, 0, sizeof sc);
            sc.what = keep ? "all up-links of a switch but one" : "all up-links of a switch";
            const ry_node *n = &pl->f->nodes[s];
            int skip = keep;
            for (uint32_t p = 0; p < n->nports && sc.nl < 64; p++) {
                const ry_port *pt = &pl->f->ports[n->port0 + p];
                if (pt->peer < 0 || ry_port_node(pl->f, (uint32_t)pt->peer)->tier <= n->tier)
                    continue;
                if (skip-- > 0)
                    continue;
                sc.links[sc.nl++] = (uint32_t)pt->link;
            }
            run_scenario(name, pl, k, &sc);
        }
    /* random handfuls */
    for (int rep = 0; rep < 6; rep++) {
        memset(&sc, 0, sizeof sc);
        sc.what = "several failures";
        unsigned nsw = rnd(3), nl = 1 + rnd(8);
        for (unsigned i = 0; i < nsw; i++) {
            int64_t s = switch_at(pl, k, 1 + (int)rnd((unsigned)top), rnd(1000));
            if (s >= 0)
                sc.nodes[sc.nn++] = (uint32_t)s;
        }
        for (unsigned i = 0; i < nl; i++) {
            int64_t l = link_of(pl, k, rnd(4) != 0, rnd(100000));
            if (l >= 0)
                sc.links[sc.nl++] = (uint32_t)l;
        }
        run_scenario(name, pl, k, &sc);
    }
    /* the whole subnet (a plane) */
    memset(&sc, 0, sizeof sc);
    sc.what = "every switch";
    for (size_t i = 0; i < sn->nsw && sc.nn < 64; i++)
        sc.nodes[sc.nn++] = sn->sw[i];
    if (sc.nn == sn->nsw)
        run_scenario(name, pl, k, &sc);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: reroute_test SRCDIR\n");
        return 2;
    }
    static const char *specs[] = {
        "tests/data/ib/fat-tree.yaml", "tests/data/ib/fat-tree-3tier-oversub.yaml",
        "tests/data/ib/fat-tree-3tier-partial.yaml", "tests/data/ib/fat-tree-lmc.yaml",
        "tests/data/ib/railonly-2tier.yaml", "tests/data/ib/railonly-packed.yaml",
        "tests/data/ib/ro-2tier-h100.yaml", "tests/data/ib/ro-3tier-partial-pod.yaml",
        "tests/data/ib/ro-3tier.yaml", "tests/data/ib/ro-oversub.yaml",
        "tests/data/ib/ro-partial-su.yaml", "tests/data/ib/two-plane.yaml",
        "examples/b200-2plane.yaml", "examples/rail-only-gh200.yaml", "examples/superpod-4su.yaml",
    };
    char tdir[4096], path[4096];
    snprintf(tdir, sizeof tdir, "%s/templates", argv[1]);
    int subnets = 0;
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        snprintf(path, sizeof path, "%s/%s", argv[1], specs[i]);
        ry_spec *s = ry_spec_load(path, NULL, 0, tdir);
        if (!s) {
            CHECK(0, "%s does not load", specs[i]);
            continue;
        }
        ry_fabric f;
        ry_ibplan pl;
        ry_err err;
        if (ry_fabric_build(s, &f, &err) < 0) {
            CHECK(0, "%s: no fabric: %s", specs[i], err.msg);
            ry_spec_free(s);
            continue;
        }
        if (ry_ibplan_build(&f, &pl, &err) < 0) {
            CHECK(0, "%s: no IB plan: %s", specs[i], err.msg);
        } else {
            for (int k = 0; k < pl.nsubnets && k < 3; k++, subnets++)
                check_subnet(specs[i], &pl, k);
            ry_ibplan_free(&pl);
        }
        ry_fabric_free(&f);
        ry_spec_free(s);
    }
    CHECK(subnets >= 15, "only %d subnets checked", subnets);
    CHECK(digits_checked > 100000, "only %lld ports checked against the digit", digits_checked);
    CHECK(walker_hops > 100000, "only %lld next hops of the walker checked", walker_hops);
    printf("%d checks, %d failed, %d subnets, %lld ports against the digit, %lld walker hops "
           "against the tables\n", checks, failures, subnets, digits_checked, walker_hops);
    return failures != 0;
}
