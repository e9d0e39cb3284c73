/* The iteration-time model and the traffic analysis against independent
 * computations:
 *   - every term of eq. 1 computed by hand for a small case;
 *   - the optimum equals a brute force over every N_M in 1..K;
 *   - the ideal equals eq. 3 written out (the model with K = N);
 *   - the optimal iteration time never rises as K grows along a divisor
 *     chain (when B_F >= B_S);
 *   - pair types counted one by one for small clusters equal the closed
 *     forms, and the bytes of all pairs equal eq. 1's communication terms
 *     times the bandwidths;
 *   - the up-down next hops equal the routing tables of analysis/route.c on
 *     InfiniBand fabrics of every design;
 *   - link loads from the aggregated routing equal routing every flow one
 *     by one, and the trimmed fabric keeps exactly the busy links.
 * Exits non-zero on a failure, printing it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bom.h"
#include "analysis/route.h"
#include "fabric/fabric.h"
#include "fabric/ibplan.h"
#include "model/iteration.h"
#include "analysis/traffic.h"
#include "net/updown.h"

#include "check.h"

static long long hops_compared, links_compared;


static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* ---- eq. 1 by hand -------------------------------------------------------------------- */

static void test_terms(void)
{
    /* N = 64, K = 8, N_M = 2: N_Ds = 4, N_Df = 8. */
    ry_iter_in in = { .N = 64, .K = 8, .layers = 2, .d_model = 4, .S_T = 384, .b = 100,
                      .M_cc = 16, .M_flop = 1e6, .C = 1e3, .B_F = 100, .B_S = 10, .batch = 0 };
    ry_iter_terms t;
    ry_iter_eval(&in, 8, 2, &t);
    CHECK(t.NDs == 4 && t.NDf == 8, "N_Ds %lld N_Df %lld", t.NDs, t.NDf);
    CHECK(close_to(t.compute, 15.625), "compute %g, want 1e6/(64*1e3) = 15.625", t.compute);
    CHECK(close_to(t.dp_cross, 16.8), "DP across %g, want 2*2*384*7/(64*10) = 16.8", t.dp_cross);
    CHECK(close_to(t.dp_in, 5.76), "DP inside %g, want 2*2*384*3/(8*100) = 5.76", t.dp_in);
    CHECK(close_to(t.tp, 2.0), "TP %g, want 2*16*100*4*1/(64*100) = 2", t.tp);
    CHECK(close_to(t.total, 15.625 + 16.8 + 5.76 + 2.0), "total %g", t.total);
    /* N_M = 8 = K: nothing inside the domain for DP. */
    ry_iter_eval(&in, 8, 8, &t);
    CHECK(t.dp_in == 0 && close_to(t.tp, 2 * 16 * 100 * 4 * 7 / 6400.0), "N_M = K: %g %g",
          t.dp_in, t.tp);
    /* The batch limit: 64 / N_M <= 16 sequences needs N_M >= 4. */
    in.batch = 16;
    CHECK(!ry_iter_valid(&in, 8, 2) && ry_iter_valid(&in, 8, 4) && !ry_iter_valid(&in, 8, 3),
          "batch limit");
    CHECK(ry_iter_best(&in, 8, 2, &t) < 0, "a forced N_M beyond the batch is refused");
    /* The paper's eq. 2 and the continuous minimiser differ by 2 sqrt 2. */
    double e2 = ry_iter_eq2(&in), c = ry_iter_nm_continuous(&in);
    CHECK(close_to(c / e2, 2 * sqrt(2.0)), "eq. 2 %g vs continuous %g", e2, c);
    CHECK(close_to(e2, sqrt(64 * 384.0) / (2 * sqrt(100 * 16 * 4.0))), "eq. 2 %g", e2);
}

static void random_in(ry_iter_in *in, long long *K)
{
    static const long long Ks[] = { 1, 2, 4, 6, 8, 12, 16, 18, 36, 64, 72, 256 };
    *K = Ks[rnd(sizeof Ks / sizeof *Ks)];
    in->K = *K;
    in->N = *K * (1 + rnd(64));
    in->layers = 1 + rnd(128);
    in->d_model = 256 * (1 + rnd(80));
    double bytes = rnd(2) ? 2 : 1;
    in->S_T = 12 * in->d_model * in->d_model * bytes;
    in->batch = rnd(3) ? (long long)(1 + rnd((uint32_t)in->N * 2)) : 0;
    in->b = (double)(in->batch ? in->batch : in->N) * 2048;
    in->M_cc = (8 + 4 * rnd(2)) * bytes;
    in->M_flop = 6 * 1e11 * (1 + rnd(1000)) * in->b / 2048;
    in->C = 1e14 * (1 + rnd(30));
    in->B_S = 1e9 * (1 + rnd(200)) / 8;
    in->B_F = in->B_S * (1 + rnd(40));     /* B_F >= B_S */
}

static void test_optimum_and_ideal(void)
{
    for (int i = 0; i < 3000; i++) {
        ry_iter_in in;
        long long K;
        random_in(&in, &K);
        /* brute force over every size */
        ry_iter_terms t, best;
        memset(&best, 0, sizeof best);
        int found = 0;
        for (long long nm = 1; nm <= K; nm++) {
            if (K % nm || (in.batch && in.N / nm > in.batch))
                continue;
            ry_iter_eval(&in, K, nm, &t);
            if (!found || t.total < best.total) {
                best = t;
                found = 1;
            }
        }
        int rc = ry_iter_best(&in, K, 0, &t);
        CHECK((rc == 0) == found, "case %d: optimum found %d, brute force %d", i, rc == 0, found);
        if (rc == 0 && found)
            CHECK(close_to(t.total, best.total) && t.NM == best.NM, "case %d (N %lld K %lld): "
                  "optimum N_M %lld %g, brute force N_M %lld %g", i, in.N, K, t.NM, t.total,
                  best.NM, best.total);
        /* ideal: eq. 3 written out, at the same N_M */
        ry_iter_terms id;
        for (long long nm = 1; nm <= in.N && nm <= 64; nm++) {
            if (in.N % nm)
                continue;
            ry_iter_eval(&in, in.N, nm, &id);
            double N = (double)in.N;
            double eq3 = in.M_flop / (N * in.C) +
                         in.layers / (in.B_F * N) *
                             (2 * in.S_T * (N / (double)nm - 1) +
                              in.M_cc * in.b * in.d_model * (double)(nm - 1));
            CHECK(close_to(id.total, eq3), "ideal at N_M %lld: %g, eq. 3 %g", nm, id.total, eq3);
        }
    }
}

static void test_monotone(void)
{
    for (int i = 0; i < 2000; i++) {
        ry_iter_in in;
        long long K;
        random_in(&in, &K);
        /* a divisor chain of N: 1, 2, 4, ... and N's own factors */
        in.N = 1LL << (4 + rnd(12));
        if (rnd(2))
            in.N *= 3;
        double prev = INFINITY;
        long long prevK = 0;
        for (long long k = 1; k <= in.N; k *= 2) {
            ry_iter_terms t;
            if (in.N % k || ry_iter_best(&in, k, 0, &t) < 0)
                continue;
            CHECK(t.total <= prev * (1 + 1e-12), "case %d: T(K=%lld) = %.9g > T(K=%lld) = %.9g",
                  i, k, t.total, prevK, prev);
            prev = t.total;
            prevK = k;
        }
    }
}

/* ---- traffic pairs ---------------------------------------------------------------------- */

static void fill_spec(ry_spec *s, ry_design d, long long gpus, int K, int rails, int radix,
                      int planes)
{
    ry_spec_defaults(s);
    s->design = d;
    s->gpus = gpus;
    s->hb_domain = K;
    s->node.hb_domain = K;
    s->node.gpus_per_node = K % 8 == 0 ? 8 : K;
    s->rails = rails;
    s->sw.radix = radix;
    s->planes = planes;
    s->nodes = 0;
}

static ry_workload test_workload(long long batch)
{
    ry_workload w;
    memset(&w, 0, sizeof w);
    snprintf(w.model.name, sizeof w.model.name, "toy");
    w.model.parameters = 1e9;
    w.model.layers = 4;
    w.model.d_model = 1024;
    w.model.seq_len = 128;
    w.model.vocab = 1000;
    w.model.mcc = 8;
    snprintf(w.gpu.name, sizeof w.gpu.name, "toy");
    w.gpu.bf16_flops = 1e14;
    w.gpu.nvlink_gbps = 4000;
    w.batch = batch;
    w.tokens = batch * 128;
    w.efficiency = 1;
    return w;
}

/* The model's chosen parallelism, as traffic takes it. */
static void plan_traffic(const ry_spec *s, const ry_model *m, ry_traffic *t)
{
    const ry_iter_in *in = &m->in;
    ry_traffic_in ti = { in->N, in->K, m->best.NM, in->layers, in->d_model, in->b, in->S_T,
                         in->M_cc, 1, 0 };   /* one stage: eq. 1's layout */
    ry_traffic_plan(s, &ti, t);
    CHECK(t->NDs == m->best.NDs && t->NDf == m->best.NDf, "traffic's N_Ds %lld N_Df %lld, the "
          "model's %lld %lld", t->NDs, t->NDf, m->best.NDs, m->best.NDf);
}

static void test_pairs(void)
{
    static const int Ks[] = { 1, 2, 4, 8, 12, 16 };
    for (int i = 0; i < 60; i++) {
        int K = Ks[rnd(sizeof Ks / sizeof *Ks)];
        ry_spec s;
        fill_spec(&s, RY_DESIGN_RAIL_OPTIMIZED, (long long)K * (1 + rnd(24)), K, K, 16, 1);
        if (ry_spec_check(&s) < 0)
            continue;
        ry_workload w = test_workload(s.gpus * (1 + rnd(3)));
        w.tensor = 0;
        s.workload = &w;
        ry_model m;
        if (ry_model_compute(&s, &m) < 0) {
            CHECK(0, "model refused a valid toy workload");
            continue;
        }
        ry_traffic t;
        plan_traffic(&s, &m, &t);
        long long cnt[RY_TR_TYPES] = { 0 };
        double bytes = 0;
        for (long long a = 0; a < s.gpus; a++)
            for (long long b = 0; b < s.gpus; b++) {
                if (a == b)
                    continue;
                ry_traffic_type k = ry_traffic_pair(&t, a, b);
                CHECK(ry_traffic_pair(&t, b, a) == k, "asymmetric pair %lld %lld", a, b);
                if (a < b)
                    cnt[k]++;
                bytes += t.pair_bytes[k];
                if (k == RY_TR_DP_CROSS)
                    CHECK(a % K == b % K && a / K != b / K, "DP across %lld %lld", a, b);
            }
        for (int k = 0; k < RY_TR_TYPES; k++)
            CHECK(cnt[k] == t.pairs[k], "K %d N %lld N_M %lld: %s pairs %lld, closed form %lld",
                  K, s.gpus, t.NM, ry_traffic_type_name((ry_traffic_type)k), cnt[k],
                  t.pairs[k]);
        /* every byte of eq. 1's communication, summed over the GPUs */
        const ry_iter_terms *b = &m.best;
        double want = (double)s.gpus *
                      (b->dp_cross * m.in.B_S + (b->dp_in + b->tp) * m.in.B_F);
        CHECK(close_to(bytes, want) && close_to(t.total_bytes, want),
              "bytes of all pairs %g (closed form %g), eq. 1 %g", bytes, t.total_bytes, want);
        s.workload = NULL;
    }
}

/* Pipeline layouts (model/plan.h): GPU g = tp + t (dp + d pp). Each pair's
 * type from its coordinates, against ry_traffic_pair and the closed-form
 * counts, on layouts where a stage fills whole domains or a domain holds
 * whole stages. */
static void test_pairs_pipeline(void)
{
    static const int Ks[] = { 2, 4, 8, 16 };
    int tried = 0;
    for (int i = 0; i < 400 && tried < 60; i++) {
        long long K = Ks[rnd(sizeof Ks / sizeof *Ks)], t = 1 << rnd(5), p = 2 + rnd(6),
                  d = 1 << rnd(6), td = t * d, N = td * p;
        if (K % t || (td % K && K % td) || N % K || N > 2048)
            continue;
        tried++;
        ry_spec s;
        fill_spec(&s, RY_DESIGN_RAIL_OPTIMIZED, N, (int)K, (int)K, 16, 1);
        ry_traffic_in ti = { N, K, t, 3, 64, 1e6, 1e4, 16, p, 5e5 };
        ry_traffic tr;
        ry_traffic_plan(&s, &ti, &tr);
        CHECK(tr.PP == p && tr.D == d && tr.NDs * tr.NDf == d, "K %lld TP %lld PP %lld DP %lld: "
              "D %lld = %lld x %lld", K, t, p, d, tr.D, tr.NDs, tr.NDf);
        long long cnt[RY_TR_TYPES] = { 0 };
        for (long long a = 0; a < N; a++)
            for (long long b = a + 1; b < N; b++) {
                long long ta = a % t, da = a / t % d, pa = a / td;
                long long tb = b % t, db = b / t % d, pb = b / td;
                ry_traffic_type want = RY_TR_NONE;
                if (pa == pb && da == db)
                    want = RY_TR_MP;
                else if (pa == pb && ta == tb && a / K == b / K)
                    want = RY_TR_DP_IN;
                else if (pa == pb && ta == tb && a % K == b % K)
                    want = RY_TR_DP_CROSS;
                else if (ta == tb && da == db && pb == pa + 1)
                    want = RY_TR_PP;
                ry_traffic_type k = ry_traffic_pair(&tr, a, b);
                CHECK(k == want && ry_traffic_pair(&tr, b, a) == k, "K %lld TP %lld PP %lld DP "
                      "%lld: pair %lld %lld is %s, want %s", K, t, p, d, a, b,
                      ry_traffic_type_name(k), ry_traffic_type_name(want));
                cnt[k]++;
            }
        for (int k = 0; k < RY_TR_TYPES; k++)
            CHECK(cnt[k] == tr.pairs[k], "K %lld TP %lld PP %lld DP %lld: %s pairs %lld, closed "
                  "form %lld", K, t, p, d, ry_traffic_type_name((ry_traffic_type)k), cnt[k],
                  tr.pairs[k]);
        CHECK(close_to(tr.bytes[RY_TR_PP], 2.0 * (double)(p - 1) * (double)td * 5e5),
              "pp bytes %g", tr.bytes[RY_TR_PP]);
    }
    CHECK(tried >= 20, "only %d pipeline layouts tried", tried);
}

/* ---- routes ------------------------------------------------------------------------------- */

typedef struct fcase {
    ry_design d;
    long long gpus;
    int K, rails, radix, planes;
    int down, up;           /* leaf oversubscription, 0 = 1:1 */
} fcase;

static const fcase fcases[] = {
    { RY_DESIGN_RAIL_OPTIMIZED, 160, 8, 8, 32, 1, 0, 0 },   /* 2 tiers, partial */
    { RY_DESIGN_RAIL_OPTIMIZED, 256, 8, 8, 8, 1, 0, 0 },    /* 3+ tiers */
    { RY_DESIGN_RAIL_OPTIMIZED, 96, 8, 8, 12, 1, 2, 1 },    /* oversubscribed */
    { RY_DESIGN_RAIL_OPTIMIZED, 512, 16, 4, 16, 2, 0, 0 },  /* rails < K, two planes */
    { RY_DESIGN_RAIL_ONLY, 512, 16, 16, 16, 1, 0, 0 },
    { RY_DESIGN_RAIL_ONLY, 64, 8, 8, 16, 1, 0, 0 },         /* packed rails */
    { RY_DESIGN_FAT_TREE, 120, 8, 8, 16, 2, 0, 0 },
    { RY_DESIGN_FAT_TREE, 1024, 8, 8, 16, 1, 0, 0 },
};

static int build_case(const fcase *c, ry_spec *s, ry_fabric *f)
{
    fill_spec(s, c->d, c->gpus, c->K, c->rails, c->radix, c->planes);
    if (c->down) {
        s->n_oversub = 1;
        s->oversub[0] = (ry_ratio){ c->down, c->up };
    }
    ry_err err;
    if (ry_spec_check(s) < 0 || ry_fabric_build(s, f, &err) < 0) {
        CHECK(0, "case %s %lld GPUs radix %d does not build", ry_design_name(c->d), c->gpus,
              c->radix);
        return -1;
    }
    return 0;
}

static void test_updown_vs_router(void)
{
    for (size_t i = 0; i < sizeof fcases / sizeof *fcases; i++) {
        ry_spec s;
        ry_fabric f;
        if (build_case(&fcases[i], &s, &f) < 0)
            continue;
        ry_ibplan pl;
        ry_err err;
        if (ry_ibplan_build(&f, &pl, &err) < 0) {
            CHECK(0, "no IB plan: %s", err.msg);
            ry_fabric_free(&f);
            continue;
        }
        long long compared = 0, differ = 0;
        uint8_t *row = malloc(0x10000);
        for (int k = 0; k < pl.nsubnets; k++) {
            const ry_subnet *sn = &pl.subnets[k];
            ry_router *r = ry_router_new(&pl, k);
            ry_updown *u = ry_updown_new(&f, k);
            CHECK(ry_updown_ends(u) == sn->nca, "subnet %d: %zu ends, plan has %zu", k,
                  ry_updown_ends(u), sn->nca);
            for (size_t c = 0; c < sn->nca && c < ry_updown_ends(u); c++)
                CHECK(ry_updown_end(u, c) == sn->ca[c], "end %zu differs from the LID order", c);
            for (size_t x = 0; x < sn->nsw; x++) {
                ry_router_row(r, x, row);
                for (size_t c = 0; c < sn->nca; c++) {
                    uint32_t gp = sn->ca[c];
                    int p = ry_updown_next(u, sn->sw[x], gp);
                    int want = row[pl.ca_lid[gp]];
                    compared++;
                    if ((want == RY_LFT_NONE ? -1 : want - 1) != p)
                        differ++;
                }
            }
            ry_updown_free(u);
            ry_router_free(r);
        }
        hops_compared += compared;
        CHECK(differ == 0 && compared > 0, "%s %lld GPUs: %lld of %lld next hops differ from "
              "route.c", ry_design_name(fcases[i].d), fcases[i].gpus, differ, compared);
        free(row);
        ry_ibplan_free(&pl);
        ry_fabric_free(&f);
    }
}

/* Every DP-across flow walked hop by hop with ry_updown_next. */
static void naive_loads(const ry_fabric *f, const ry_traffic *t, double *up, double *down)
{
    double B = t->pair_bytes[RY_TR_DP_CROSS] / f->planes;
    for (int k = 0; k < f->nsubnets; k++) {
        ry_updown *u = ry_updown_new(f, k);
        for (size_t c = 0; c < ry_updown_ends(u); c++) {
            uint32_t dst = ry_updown_end(u, c);
            const ry_node *dg = &f->nodes[f->ports[dst].owner];
            for (size_t e = 0; e < ry_updown_ends(u); e++) {
                uint32_t src = ry_updown_end(u, e);
                const ry_node *sg = &f->nodes[f->ports[src].owner];
                if (ry_traffic_pair(t, sg->index, dg->index) != RY_TR_DP_CROSS)
                    continue;
                up[f->ports[src].link] += B;
                uint32_t sw = f->ports[f->ports[src].peer].owner;
                for (int hops = 0; hops < 2 * RY_MAX_TIERS + 2; hops++) {
                    int p = ry_updown_next(u, sw, dst);
                    if (p < 0)
                        break;
                    uint32_t port = f->nodes[sw].port0 + (uint32_t)p;
                    uint32_t peer = (uint32_t)f->ports[port].peer;
                    const ry_node *x = &f->nodes[f->ports[peer].owner];
                    if (x->kind == RY_NODE_SWITCH && x->tier > f->nodes[sw].tier)
                        up[f->ports[port].link] += B;
                    else
                        down[f->ports[port].link] += B;
                    if (x->kind == RY_NODE_GPU)
                        break;
                    sw = f->ports[peer].owner;
                }
            }
        }
        ry_updown_free(u);
    }
}

static void test_loads(void)
{
    for (size_t i = 0; i < sizeof fcases / sizeof *fcases; i++) {
        ry_spec s;
        ry_fabric f;
        if (build_case(&fcases[i], &s, &f) < 0)
            continue;
        ry_workload w = test_workload(s.gpus);
        w.tensor = fcases[i].K >= 4 ? 2 : 1;
        s.workload = &w;
        ry_model m;
        if (ry_model_compute(&s, &m) < 0) {
            CHECK(0, "model refused case %zu", i);
            ry_fabric_free(&f);
            continue;
        }
        ry_traffic t;
        plan_traffic(&s, &m, &t);
        ry_traffic_map map;
        ry_err err;
        int rc = ry_traffic_map_fabric(&f, &t, &map, &err);
        CHECK(rc == 0, "case %zu: %s", i, err.msg);
        double *up = calloc(f.nlinks, sizeof *up), *down = calloc(f.nlinks, sizeof *down);
        naive_loads(&f, &t, up, down);
        long long differ = 0, busy = 0;
        for (size_t l = 0; l < f.nlinks; l++) {
            if (!close_to(up[l], map.up[l]) || !close_to(down[l], map.down[l]))
                differ++;
            busy += up[l] + down[l] > 0;
        }
        links_compared += (long long)f.nlinks;
        CHECK(differ == 0, "%s %lld GPUs: %lld links load differently from flow-by-flow routes",
              ry_design_name(fcases[i].d), fcases[i].gpus, differ);
        CHECK(map.flows == s.gpus * s.planes * (t.NDf - 1), "flows %lld", map.flows);
        CHECK(close_to(map.network_bytes, (double)s.gpus * m.best.dp_cross * m.in.B_S),
              "network bytes %g vs eq. 1 %g", map.network_bytes,
              (double)s.gpus * m.best.dp_cross * m.in.B_S);
        ry_fabric tf;
        ry_fabric_trim(&f, &map, &tf);
        CHECK((long long)tf.nlinks == busy && (long long)(f.nlinks - tf.nlinks) == map.idle,
              "trimmed fabric has %zu links, %lld busy", tf.nlinks, busy);
        ry_bom b;
        ry_bom_compute(&tf, &b);
        CHECK(b.links == busy, "trimmed bill of materials: %lld links", b.links);
        ry_fabric_free(&tf);
        free(up);
        free(down);
        ry_traffic_map_free(&map);
        ry_fabric_free(&f);
    }
}

int main(void)
{
    test_terms();
    test_optimum_and_ideal();
    test_monotone();
    test_pairs();
    test_pairs_pipeline();
    test_updown_vs_router();
    test_loads();
    printf("%lld next hops equal to route.c's tables, %lld link loads equal to flow-by-flow "
           "routing\n", hops_compared, links_compared);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
