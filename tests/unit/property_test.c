/* Property tests of the Clos builder over generated clusters.
 *
 * For each case (GPUs, HB domain, rails, radix, design, oversubscription,
 * planes, scalable unit) the graph is built through the public API and then
 * checked by walking it, independently of how the builder works:
 *   - no switch uses more ports than its radix, every port cabled at most once;
 *   - every GPU has exactly `planes` links, port p into a plane-p switch;
 *   - even wiring: a switch reaches each of its upper neighbours over the same
 *     number of parallel links, and every non-top switch uses all its uplinks;
 *   - full bisection at 1:1 (cabled up >= cabled down on every non-top
 *     switch), and down <= ratio * up when oversubscribed;
 *   - connectivity: one component per plane (rail-optimized, fat-tree), one
 *     per rail or per packed switch (rail-only), and no rail-only component
 *     holds two rails unless it is a single packed switch;
 *   - rail-optimized leaves carry one rail;
 *   - counts equal closed forms: full trees (ceil(2n/k) per lower tier, n/k
 *     at the top, t*n links), and for partial 2-tier fabrics the leaf count
 *     from the scalable-unit layout and the spine count from the divisor rule.
 * Exits non-zero on the first failing case, printing it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bom.h"
#include "fabric/fabric.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static int failures;
static int closed_full, closed_packed, closed_partial;
static char case_desc[256];


/* union-find over nodes */
static uint32_t *uf;
static uint32_t find(uint32_t x)
{
    while (uf[x] != x)
        x = uf[x] = uf[uf[x]];
    return x;
}

static long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

static int closed_tiers(long long n, int k)
{
    if (n <= k)
        return 1;
    long long cap = k;
    for (int t = 2; t <= 8; t++) {
        cap = cap * k / 2;
        if (cap >= n)
            return t;
    }
    return 99;
}

/* Closed-form switch count of one non-blocking Clos over n endpoints. */
static long long closed_switches(long long n, int k, int t)
{
    if (t == 1)
        return 1;
    return (long long)(t - 1) * ceil_div(2 * n, k) + ceil_div(n, k);
}

static int check_case(const ry_spec *s)
{
    ry_fabric f;
    ry_err err;
    if (ry_fabric_build(s, &f, &err) < 0) {
        printf("FAIL %s: build failed: %s: %s\n", case_desc, err.key, err.msg);
        failures++;
        return -1;
    }
    const int k = s->sw.radix, P = s->planes, R = s->rails, K = s->hb_domain;
    const long long N = s->gpus;
    int rc = 0;
    uf = malloc(f.nnodes * sizeof *uf);
    for (size_t i = 0; i < f.nnodes; i++)
        uf[i] = (uint32_t)i;
    int *cnt = calloc(f.nnodes, sizeof *cnt);

#define FAIL_IF(cond, ...) do { if (cond) { printf("FAIL %s: ", case_desc); printf(__VA_ARGS__); \
        printf("\n"); failures++; rc = -1; goto out; } } while (0)

    /* ports and GPUs */
    for (size_t i = 0; i < f.nnodes; i++) {
        const ry_node *n = &f.nodes[i];
        if (n->kind == RY_NODE_GPU) {
            FAIL_IF(n->nports != (uint32_t)P, "gpu %zu has %u ports, want %d", i, n->nports, P);
            FAIL_IF(n->rail != (int)((i % (size_t)K) % (size_t)R), "gpu %zu on rail %d", i, n->rail);
            for (int p = 0; p < P; p++) {
                int32_t peer = f.ports[n->port0 + (uint32_t)p].peer;
                FAIL_IF(peer < 0, "gpu %zu port %d not cabled", i, p);
                const ry_node *sw = &f.nodes[f.ports[peer].owner];
                FAIL_IF(sw->kind != RY_NODE_SWITCH || sw->tier != 1 || sw->plane != p,
                        "gpu %zu port %d goes to tier %d plane %d", i, p, sw->tier, sw->plane);
            }
        } else {
            FAIL_IF(n->nports != (uint32_t)k, "switch %zu has %u ports, radix %d", i, n->nports, k);
        }
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f.ports[n->port0 + p].peer;
            if (peer >= 0) {
                FAIL_IF(f.ports[peer].peer != (int32_t)(n->port0 + p), "port %u peer not mutual",
                        n->port0 + p);
                FAIL_IF(f.ports[peer].owner == i, "self link at node %zu", i);
            }
        }
    }
    /* per switch: up/down use, even wiring, bisection */
    for (size_t i = f.first_switch; i < f.nnodes; i++) {
        const ry_node *n = &f.nodes[i];
        int down = 0, up = 0;
        /* count parallel links to each upper neighbour */
        uint32_t nbr[1024];
        int nn = 0;
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f.ports[n->port0 + p].peer;
            if (peer < 0)
                continue;
            uint32_t o = f.ports[peer].owner;
            const ry_node *m = &f.nodes[o];
            FAIL_IF(m->tier == n->tier, "link inside tier %d at switch %zu", n->tier, i);
            FAIL_IF(m->plane != n->plane && m->kind == RY_NODE_SWITCH, "link across planes");
            FAIL_IF(m->tier + 1 != n->tier && m->tier != n->tier + 1,
                    "link skips a tier (%d-%d)", n->tier, m->tier);
            if (m->tier < n->tier) {
                down++;
            } else {
                up++;
                if (cnt[o]++ == 0 && nn < 1024)
                    nbr[nn++] = o;
            }
        }
        FAIL_IF(down == 0, "switch %zu has nothing below it", i);
        int top = up == 0;
        if (!top) {
            /* a non-top switch uses every uplink the tier provisions */
            FAIL_IF(up != f.up_ports[n->tier], "switch %zu tier %d uses %d of %d uplinks", i,
                    n->tier, up, f.up_ports[n->tier]);
            FAIL_IF(down > f.down_ports[n->tier], "switch %zu has %d down > %d", i, down,
                    f.down_ports[n->tier]);
            for (int x = 1; x < nn; x++)
                FAIL_IF(cnt[nbr[x]] != cnt[nbr[0]], "uneven wiring at switch %zu: %d vs %d links",
                        i, cnt[nbr[x]], cnt[nbr[0]]);
            FAIL_IF(up % nn != 0, "uplinks not divided evenly");
            ry_ratio r = { 1, 1 };
            if (n->tier - 1 < s->n_oversub)
                r = s->oversub[n->tier - 1];
            FAIL_IF((long long)down * r.up > (long long)up * r.down,
                    "switch %zu tier %d: %d down vs %d up exceeds %d:%d", i, n->tier, down, up,
                    r.down, r.up);
        } else {
            FAIL_IF(down > k, "top switch over radix");
        }
        for (int x = 0; x < nn; x++)
            cnt[nbr[x]] = 0;
        if (s->design == RY_DESIGN_RAIL_OPTIMIZED && n->tier == 1 && f.tiers > 1)
            FAIL_IF(n->nrails != 1, "rail-optimized leaf %zu carries %d rails", i, n->nrails);
    }
    /* connectivity: union over switch-to-switch links only (GPUs would join
     * planes), so each tree of switches is one component */
    for (size_t l = 0; l < f.nlinks; l++) {
        uint32_t lo = f.ports[f.links[l].lo].owner, hi = f.ports[f.links[l].hi].owner;
        if (f.nodes[lo].kind == RY_NODE_GPU)
            continue;
        uint32_t a = find(lo), b = find(hi);
        if (a != b)
            uf[a] = b;
    }
    {
        long long comps = 0, want;
        for (size_t i = f.first_switch; i < f.nnodes; i++)
            comps += find((uint32_t)i) == i;
        if (s->design != RY_DESIGN_RAIL_ONLY) {
            want = P;
        } else {
            long long nr = N / R;
            want = P * ((nr <= k && s->tiers <= 1) ? ceil_div(R, k / nr) : R);
        }
        FAIL_IF(comps != want, "%lld switch trees, want %lld", comps, want);
        FAIL_IF(f.nsubnets != want, "%d subnets, want %lld", f.nsubnets, want);
        if (s->design == RY_DESIGN_RAIL_ONLY) {
            /* no link joins two rails */
            for (size_t l = 0; l < f.nlinks; l++) {
                const ry_node *a = &f.nodes[f.ports[f.links[l].lo].owner];
                const ry_node *b = &f.nodes[f.ports[f.links[l].hi].owner];
                if (a->kind == RY_NODE_GPU) {
                    FAIL_IF(a->rail < b->rail || a->rail >= b->rail + b->nrails,
                            "gpu of rail %d on a switch of rails %d..", a->rail, b->rail);
                    continue;
                }
                FAIL_IF(a->nrails != 1 || b->nrails != 1 || a->rail != b->rail,
                        "rail-only link between rails %d(+%d) and %d(+%d)", a->rail, a->nrails,
                        b->rail, b->nrails);
            }
        }
    }
    /* every uplink equally useful: the leaves a switch reaches by going up
     * and down (its cover) are all leaves of its tree, and each parent's
     * cover is the same, so no uplink leads into a part of the fabric that
     * cannot reach the rest (a bandwidth bottleneck, though connected) */
    {
        size_t nl = 0;
        int32_t *leaf_idx = malloc(f.nnodes * sizeof *leaf_idx);
        for (size_t i = 0; i < f.nnodes; i++)
            leaf_idx[i] = f.nodes[i].kind == RY_NODE_SWITCH && f.nodes[i].tier == 1 ? (int32_t)nl++ : -1;
        size_t words = (nl + 63) / 64, nsw = f.nnodes - f.first_switch;
        if (f.tiers >= 2 && nl <= 4096) {
            uint64_t *below = calloc(nsw * words, 8), *cover = calloc(nsw * words, 8);
            for (size_t i = f.first_switch; i < f.nnodes; i++) {       /* children first */
                uint64_t *b = &below[(i - f.first_switch) * words];
                const ry_node *n = &f.nodes[i];
                if (leaf_idx[i] >= 0)
                    b[leaf_idx[i] / 64] |= 1ULL << (leaf_idx[i] % 64);
                for (uint32_t p = 0; p < n->nports; p++) {
                    int32_t peer = f.ports[n->port0 + p].peer;
                    if (peer < 0)
                        continue;
                    uint32_t o = f.ports[peer].owner;
                    if (f.nodes[o].kind == RY_NODE_SWITCH && f.nodes[o].tier < n->tier)
                        for (size_t w = 0; w < words; w++)
                            b[w] |= below[(o - f.first_switch) * words + w];
                }
            }
            int bad = 0;
            for (size_t i = f.nnodes; i-- > f.first_switch && !bad;) {  /* parents first */
                uint64_t *c = &cover[(i - f.first_switch) * words];
                const ry_node *n = &f.nodes[i];
                int parents = 0;
                for (uint32_t p = 0; p < n->nports; p++) {
                    int32_t peer = f.ports[n->port0 + p].peer;
                    if (peer < 0)
                        continue;
                    uint32_t o = f.ports[peer].owner;
                    if (f.nodes[o].tier <= n->tier)
                        continue;
                    const uint64_t *pc = &cover[(o - f.first_switch) * words];
                    if (parents++ == 0)
                        memcpy(c, pc, words * 8);
                    else if (memcmp(c, pc, words * 8) != 0)
                        bad = 1;
                }
                if (!parents)
                    memcpy(c, &below[(i - f.first_switch) * words], words * 8);
            }
            /* leaves of one tree: every leaf's cover is its whole tree */
            for (size_t i = f.first_switch; i < f.nnodes && !bad; i++)
                if (leaf_idx[i] >= 0)
                    for (size_t j = f.first_switch; j < f.nnodes; j++)
                        if (leaf_idx[j] >= 0 && f.nodes[j].subnet == f.nodes[i].subnet &&
                            !(cover[(i - f.first_switch) * words + leaf_idx[j] / 64] >>
                              (leaf_idx[j] % 64) & 1))
                            bad = 2;
            free(below);
            free(cover);
            free(leaf_idx);
            FAIL_IF(bad == 1, "two uplinks of one switch reach different parts of the fabric");
            FAIL_IF(bad == 2, "a leaf cannot reach a leaf of its tree up and down");
        } else {
            free(leaf_idx);
        }
    }
    /* closed forms */
    {
        ry_bom b;
        ry_bom_compute(&f, &b);
        FAIL_IF(b.endpoints != N * P, "%lld GPU links, want %lld", b.endpoints, N * P);
        FAIL_IF(b.transceivers != 2 * b.links, "transceivers");
        int d1 = f.down_ports[1] ? f.down_ports[1] : k;
        int full = s->n_oversub == 0 && s->scalable_unit == 0;
        if (full && s->design != RY_DESIGN_RAIL_ONLY) {
            int t = closed_tiers(N, k);
            long long unit = 1;
            for (int j = 1; j < t; j++)
                unit *= k / 2;
            /* leaves and pods come out full when (k/2)^(t-1) divides n and
             * a rail's GPUs of one unit fill whole leaves */
            /* a full tree scaled down by a power of two, whose leaves fill:
             * fat-tree leaves with whole nodes, rail-optimized leaves with
             * one rail's GPUs */
            long long cap = k, c = K / R;
            for (int j = 1; j < t; j++)
                cap = cap * k / 2;
            int pow2 = cap % N == 0 && ((cap / N) & (cap / N - 1)) == 0;
            int aligned = s->design == RY_DESIGN_FAT_TREE
                              ? (k / 2) % s->node.gpus_per_node == 0
                              : (k / 2) % c == 0 && (N / R) % (k / 2) == 0;
            if (t > 1 && pow2 && N % unit == 0 && aligned) {
                closed_full++;
                FAIL_IF(b.tiers != t, "%d tiers, closed form %d", b.tiers, t);
                FAIL_IF(b.switches != P * closed_switches(N, k, t), "%lld switches, closed form %lld",
                        b.switches, P * closed_switches(N, k, t));
                FAIL_IF(b.links != (long long)P * t * N, "%lld links, closed form %lld", b.links,
                        (long long)P * t * N);
            }
        }
        if (s->design == RY_DESIGN_RAIL_ONLY && s->tiers == 0) {
            long long nr = N / R;
            if (nr <= k) {
                closed_packed++;
                FAIL_IF(b.switches != P * ceil_div(R, k / nr), "packed rail-only: %lld switches, want %lld",
                        b.switches, P * ceil_div(R, k / nr));
            }
        }
        if (s->design == RY_DESIGN_RAIL_OPTIMIZED && b.tiers == 2) {
            /* partial 2-tier: leaves from the unit layout, spines from the divisor rule */
            int c = K / R;
            long long S = s->scalable_unit ? s->scalable_unit : (c <= d1 ? d1 / c : 1);
            long long D = N / K, leaves = 0;
            for (long long d0 = 0; d0 < D; d0 += S) {
                long long dom = D - d0 < S ? D - d0 : S;
                leaves += R * ceil_div(dom * c, d1);
            }
            int u1 = f.up_ports[1];
            closed_partial++;
            long long m = 1;
            while (u1 % m != 0 || m * k < leaves * u1)
                m++;
            FAIL_IF(b.tier[1].switches != P * leaves, "%lld leaves, want %lld", b.tier[1].switches,
                    P * leaves);
            FAIL_IF(b.tier[2].switches != P * m, "%lld spines, want %lld", b.tier[2].switches, P * m);
        }
    }
out:
    free(cnt);
    free(uf);
    ry_fabric_free(&f);
    return rc;
}

int main(int argc, char **argv)
{
    int ncases = argc > 1 ? atoi(argv[1]) : 300;
    static const int radices[] = { 8, 12, 16, 24, 32, 36, 40, 48, 64, 128 };
    static const int domains[] = { 1, 2, 4, 8, 8, 8, 16, 18, 36, 72, 256 };
    static const ry_ratio ratios[] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 5, 3 } };
    int done = 0;
    for (int i = 0; i < ncases; i++) {
        ry_spec s;
        ry_spec_defaults(&s);
        snprintf(s.name, sizeof s.name, "case%d", i);
        s.design = (ry_design)rnd(3);
        s.sw.radix = radices[rnd(sizeof radices / sizeof *radices)];
        s.hb_domain = domains[rnd(sizeof domains / sizeof *domains)];
        /* rails: a divisor of K */
        int divs[64], nd = 0;
        for (int d = 1; d <= s.hb_domain && nd < 64; d++)
            if (s.hb_domain % d == 0)
                divs[nd++] = d;
        s.rails = rnd(2) ? s.hb_domain : divs[rnd((uint32_t)nd)];
        s.node.gpus_per_node = s.hb_domain % 8 == 0 ? 8 : s.hb_domain;
        s.node.hb_domain = s.hb_domain;
        s.planes = rnd(5) == 0 ? 2 : 1;
        long long domains_n = 1 + rnd(i % 3 == 0 ? 4000 : 300);
        if (i % 4 == 0) {
            /* a full tree: (k/2)^(t-1) * k GPUs, scaled down by a power of two */
            int k = s.sw.radix, t = 2 + (int)rnd(2);
            long long n = k;
            for (int j = 1; j < t; j++)
                n *= k / 2;
            n >>= rnd(3);
            if (n >= s.hb_domain && n % s.hb_domain == 0 && n <= 600000)
                domains_n = n / s.hb_domain;
        }
        s.gpus = domains_n * s.hb_domain;
        /* keep within 5 tiers of the smallest radices and a quick run */
        long long limit = s.sw.radix <= 16 ? 60000 : 600000;
        if (s.gpus > limit)
            s.gpus = (limit / s.hb_domain) * s.hb_domain;
        s.nodes = s.gpus / s.node.gpus_per_node;
        if (rnd(4) == 0) {
            s.n_oversub = 1;
            s.oversub[0] = ratios[rnd(4)];
            if (rnd(2)) {
                s.n_oversub = 2;
                s.oversub[1] = ratios[rnd(4)];
            }
        }
        if (rnd(6) == 0)
            s.scalable_unit = 1 + (int)rnd(20);
        if (s.sw.radix / (s.n_oversub ? s.oversub[0].down + s.oversub[0].up : 2) < 1)
            s.n_oversub = 0;
        snprintf(case_desc, sizeof case_desc,
                 "#%d %s gpus=%lld K=%d rails=%d radix=%d planes=%d su=%d oversub=%s%d:%d", i,
                 ry_design_name(s.design), s.gpus, s.hb_domain, s.rails, s.sw.radix, s.planes,
                 s.scalable_unit, s.n_oversub ? "" : "(none)",
                 s.n_oversub ? s.oversub[0].down : 1, s.n_oversub ? s.oversub[0].up : 1);
        if (ry_spec_check(&s) < 0) {
            printf("FAIL %s: generated spec rejected\n", case_desc);
            failures++;
            continue;
        }
        check_case(&s);
        done++;
    }
    printf("%d cases, %d failed; closed forms checked: %d full trees, %d packed rail-only, "
           "%d partial two-tier\n", done, failures, closed_full, closed_packed, closed_partial);
    /* the generator must reach every closed form, or the test proves little */
    if (closed_full < 10 || closed_packed < 5 || closed_partial < 20) {
        printf("FAIL: too few closed-form cases generated\n");
        return 1;
    }
    return failures ? 1 : 0;
}
