/* Max-min fair rates by progressive filling (net/fill.c) against cases
 * solved by hand and against the definition on random instances: no
 * resource over its capacity, and every flow has a bottleneck, a full
 * resource on which no flow runs faster than it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "net/flow.h"
#include "check.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1e-300); }

static ry_net_result run(const double *cap, size_t nres, ry_flows *fl, double *load)
{
    ry_net_result r;
    ry_err err = { { 0 }, { 0 } };
    int rc = ry_flows_run(cap, nres, fl, &r, load, &err);
    CHECK(rc == 0, "ry_flows_run: %s", err.msg);
    return r;
}

/* Two flows on one link: half each; the whole takes their bytes over the rate. */
static void shared_link(void)
{
    double cap[1] = { 10 };
    uint32_t r0[1] = { 0 };
    ry_flows fl;
    ry_flows_init(&fl);
    ry_flows_add(&fl, 30, r0, NULL, 1);
    ry_flows_add(&fl, 30, r0, NULL, 1);
    ry_net_result r = run(cap, 1, &fl, NULL);
    CHECK(near(fl.rate[0], 5) && near(fl.rate[1], 5), "rates %g %g, want 5 5", fl.rate[0], fl.rate[1]);
    CHECK(near(r.time_s, 6), "time %g, want 6", r.time_s);
    CHECK(r.bottleneck == 0 && near(r.bottleneck_util, 1), "bottleneck %u at %g", r.bottleneck,
          r.bottleneck_util);
    CHECK(r.rounds == 1, "%d rounds, want 1 (both finish together)", r.rounds);
    ry_flows_free(&fl);
}

/* The textbook case: A (1) carries f1 and f2, B (2) carries f2 and f3:
 * f1 = f2 = 1/2 at A, f3 takes the rest of B, 3/2. */
static void textbook(void)
{
    double cap[2] = { 1, 2 };
    uint32_t a[1] = { 0 }, ab[2] = { 0, 1 }, b[1] = { 1 };
    ry_flows fl;
    ry_flows_init(&fl);
    ry_flows_add(&fl, 1, a, NULL, 1);
    ry_flows_add(&fl, 1, ab, NULL, 2);
    ry_flows_add(&fl, 1, b, NULL, 1);
    double load[2] = { 0, 0 };
    ry_net_result r = run(cap, 2, &fl, load);
    CHECK(near(fl.rate[0], 0.5) && near(fl.rate[1], 0.5) && near(fl.rate[2], 1.5),
          "rates %g %g %g, want 0.5 0.5 1.5", fl.rate[0], fl.rate[1], fl.rate[2]);
    CHECK(r.bottleneck == 0, "bottleneck %u, want 0", r.bottleneck);
    CHECK(near(load[0], 2) && near(load[1], 2), "loads %g %g, want 2 2", load[0], load[1]);
    /* f3 ends at 2/3; then f1 and f2 stay at 1/2 (A holds them): 2 */
    CHECK(near(fl.done[2], 1 / 1.5) && near(r.time_s, 2), "f3 done %g, all %g", fl.done[2],
          r.time_s);
    ry_flows_free(&fl);
}

/* When a flow finishes the other speeds up: 1 and 3 bytes on a link of 1
 * take 4, as the link's bytes over its rate. */
static void rounds(void)
{
    double cap[1] = { 1 };
    uint32_t r0[1] = { 0 };
    ry_flows fl;
    ry_flows_init(&fl);
    ry_flows_add(&fl, 1, r0, NULL, 1);
    ry_flows_add(&fl, 3, r0, NULL, 1);
    ry_net_result r = run(cap, 1, &fl, NULL);
    CHECK(near(fl.done[0], 2) && near(fl.done[1], 4), "done %g %g, want 2 4", fl.done[0],
          fl.done[1]);
    CHECK(near(r.time_s, 4) && r.rounds == 2, "time %g in %d rounds", r.time_s, r.rounds);
    ry_flows_free(&fl);
}

/* A flow split half and half over two links beside a flow on the first:
 * the first link holds weight 3/2 and fills at level 2/3. */
static void weights(void)
{
    double cap[2] = { 1, 1 };
    uint32_t both[2] = { 0, 1 }, first[1] = { 0 };
    float half[2] = { 0.5f, 0.5f };
    ry_flows fl;
    ry_flows_init(&fl);
    ry_flows_add(&fl, 1, both, half, 2);
    ry_flows_add(&fl, 1, first, NULL, 1);
    run(cap, 2, &fl, NULL);
    CHECK(near(fl.rate[0], 2.0 / 3) && near(fl.rate[1], 2.0 / 3), "rates %g %g, want 2/3",
          fl.rate[0], fl.rate[1]);
    ry_flows_free(&fl);
}

static void errors(void)
{
    double cap[2] = { 1, 0 };
    uint32_t bad[1] = { 1 }, far[1] = { 7 };
    ry_flows fl;
    ry_flows_init(&fl);
    ry_net_result r;
    ry_err err = { { 0 }, { 0 } };
    CHECK(ry_flows_run(cap, 2, &fl, &r, NULL, &err) == 0 && r.time_s == 0, "no flows: time 0");
    ry_flows_add(&fl, 1, bad, NULL, 1);
    CHECK(ry_flows_run(cap, 2, &fl, &r, NULL, &err) < 0, "a resource of no capacity is refused");
    ry_flows_clear(&fl);
    ry_flows_add(&fl, 1, far, NULL, 1);
    CHECK(ry_flows_run(cap, 2, &fl, &r, NULL, &err) < 0, "a resource past the end is refused");
    ry_flows_free(&fl);
}

/* A plain fluid run to compare with: the max-min rates by the book (each
 * step, the resource with the least room per unfrozen weight freezes its
 * flows), then time to the first finish, and again. */
static double reference_time(const double *cap, size_t nres, const ry_flows *fl)
{
    size_t n = fl->n;
    double *left = malloc(n * sizeof *left), *rate = malloc(n * sizeof *rate);
    int *alive = malloc(n * sizeof *alive), *frozen = malloc(n * sizeof *frozen);
    for (size_t f = 0; f < n; f++)
        left[f] = fl->bytes[f], alive[f] = 1;
    double now = 0;
    for (;;) {
        size_t nalive = 0;
        for (size_t f = 0; f < n; f++)
            nalive += alive[f], frozen[f] = !alive[f], rate[f] = 0;
        if (!nalive)
            break;
        double level = 0;
        for (;;) {
            double best = INFINITY;
            for (size_t r = 0; r < nres; r++) {
                double used = 0, w = 0;
                for (size_t f = 0; f < n; f++)
                    for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                        if (fl->res[e] == r && alive[f])
                            (frozen[f] ? (used += rate[f] * fl->w[e]) : (w += fl->w[e]));
                if (w > 0 && (cap[r] - used) / w < best)
                    best = (cap[r] - used) / w;
            }
            if (best == INFINITY)
                break;
            level = best;
            for (size_t r = 0; r < nres; r++) {
                double used = 0, w = 0;
                for (size_t f = 0; f < n; f++)
                    for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                        if (fl->res[e] == r && alive[f])
                            (frozen[f] ? (used += rate[f] * fl->w[e]) : (w += fl->w[e]));
                if (w > 0 && (cap[r] - used) / w <= level * (1 + 1e-12))
                    for (size_t f = 0; f < n; f++)
                        for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                            if (fl->res[e] == r && alive[f] && !frozen[f])
                                frozen[f] = 2;
            }
            for (size_t f = 0; f < n; f++)
                if (frozen[f] == 2)
                    frozen[f] = 1, rate[f] = level;
        }
        double dt = INFINITY;
        for (size_t f = 0; f < n; f++)
            if (alive[f] && left[f] / rate[f] < dt)
                dt = left[f] / rate[f];
        now += dt;
        for (size_t f = 0; f < n; f++)
            if (alive[f]) {
                left[f] -= rate[f] * dt;
                if (left[f] <= 1e-9 * fl->bytes[f])
                    alive[f] = 0;
            }
    }
    free(left), free(rate), free(alive), free(frozen);
    return now;
}

/* The definition, on random instances. */
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t draw(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static void random_instances(void)
{
    for (int t = 0; t < 200; t++) {
        size_t nres = 1 + draw(12), nflows = 1 + draw(30);
        double cap[12];
        for (size_t r = 0; r < nres; r++)
            cap[r] = 1 + draw(100);
        ry_flows fl;
        ry_flows_init(&fl);
        for (size_t f = 0; f < nflows; f++) {
            uint32_t res[12];
            float w[12];
            size_t n = 0;
            for (size_t r = 0; r < nres; r++)
                if (draw(3) == 0) {
                    res[n] = (uint32_t)r;
                    w[n++] = draw(4) == 0 ? 0.25f * (float)(1 + draw(4)) : 1.0f;
                }
            if (n == 0)
                res[n] = draw((uint32_t)nres), w[n++] = 1;
            ry_flows_add(&fl, 1 + draw(50), res, w, n);
        }
        ry_net_result res = run(cap, nres, &fl, NULL);
        double want = reference_time(cap, nres, &fl);
        /* flows within 1% of the first to finish leave together: at most 1% short */
        CHECK(res.time_s <= want * (1 + 1e-9) && res.time_s >= want * (1 - 0.0101),
              "instance %d: phase of %.9g, the plain fluid run gives %.9g", t, res.time_s, want);
        double use[12] = { 0 };
        for (size_t f = 0; f < fl.n; f++)
            for (size_t e = fl.off[f]; e < fl.off[f + 1]; e++)
                use[fl.res[e]] += fl.rate[f] * fl.w[e];
        int over = 0, unbound = 0;
        for (size_t r = 0; r < nres; r++)
            over += use[r] > cap[r] * (1 + 1e-9);
        for (size_t f = 0; f < fl.n; f++) {
            int bound = 0;
            for (size_t e = fl.off[f]; e < fl.off[f + 1] && !bound; e++) {
                uint32_t r = fl.res[e];
                if (use[r] < cap[r] * (1 - 1e-9))
                    continue;
                int fastest = 1;
                for (size_t g = 0; g < fl.n && fastest; g++)
                    for (size_t k = fl.off[g]; k < fl.off[g + 1]; k++)
                        if (fl.res[k] == r && fl.rate[g] > fl.rate[f] * (1 + 1e-9))
                            fastest = 0;
                bound = fastest;
            }
            unbound += !bound;
        }
        CHECK(over == 0, "instance %d: %d resources over capacity", t, over);
        CHECK(unbound == 0, "instance %d: %d flows without a bottleneck", t, unbound);
        ry_flows_free(&fl);
    }
}

/* A resource one flow alone crosses is kept as a cap on that flow, not as a
 * resource (fill.c): the same phase with a flow of 0 bytes through every
 * resource, so that none is any flow's alone, gives the same rates, times,
 * bottleneck and utilisation, bit for bit. Paths of their own (a shift, a
 * ring) with a few shared links, ties among a flow's own resources, and
 * weights below 1. */
static void own_resources(void)
{
    for (int t = 0; t < 300; t++) {
        size_t nres = 2 + draw(39), nflows = 1 + draw(25);  /* at most 40 */
        double cap[40];
        for (size_t r = 0; r < nres; r++)
            cap[r] = draw(2) ? 10 : 1 + draw(20);       /* ties */
        ry_flows a, b;
        ry_flows_init(&a);
        ry_flows_init(&b);
        uint32_t all[41];
        for (size_t r = 0; r < nres; r++)
            all[r] = (uint32_t)r;
        ry_flows_add(&b, 0, all, NULL, nres);
        for (size_t f = 0; f < nflows; f++) {
            uint32_t res[41];
            float w[41];
            size_t n = 0;
            for (size_t r = 0; r < nres; r++)
                if (draw(4) == 0) {
                    res[n] = (uint32_t)r;
                    w[n++] = draw(3) == 0 ? 0.5f : 1.0f;
                }
            if (n == 0)
                res[n] = draw((uint32_t)nres), w[n++] = 1;
            double bytes = 1 + draw(40);
            ry_flows_add(&a, bytes, res, w, n);
            ry_flows_add(&b, bytes, res, w, n);
        }
        ry_net_result ra = run(cap, nres, &a, NULL), rb = run(cap, nres, &b, NULL);
        int same = ra.time_s == rb.time_s && ra.min_rate == rb.min_rate &&
                   ra.max_rate == rb.max_rate && ra.bottleneck == rb.bottleneck &&
                   ra.bottleneck_util == rb.bottleneck_util && ra.rounds == rb.rounds;
        for (size_t f = 0; f < a.n && same; f++)
            same = a.rate[f] == b.rate[f + 1] && a.done[f] == b.done[f + 1];
        CHECK(same, "instance %d: own resources folded: %.17g s, bottleneck %u; kept: %.17g s, "
              "bottleneck %u", t, ra.time_s, ra.bottleneck, rb.time_s, rb.bottleneck);
        ry_flows_free(&a);
        ry_flows_free(&b);
    }
}

/* ry_flows_shared counts the resources two flows or more cross, and
 * ry_net_bytes_estimate grows with each of its counts. */
static void shared_count(void)
{
    uint32_t a[3] = { 0, 5, 9 }, b[2] = { 5, 9 }, c[2] = { 9, 70 };
    ry_flows fl;
    ry_flows_init(&fl);
    ry_flows_add(&fl, 1, a, NULL, 3);
    size_t nse;
    CHECK(ry_flows_shared(&fl, 100, &nse) == 0 && nse == 0, "one flow: shared resources");
    ry_flows_add(&fl, 1, b, NULL, 2);
    ry_flows_add(&fl, 1, c, NULL, 2);
    size_t ns = ry_flows_shared(&fl, 100, &nse);
    CHECK(ns == 2 && nse == 5, "%zu shared, %zu entries on them; want 2 (5 and 9), 5", ns, nse);
    ry_flows_free(&fl);
    double e = ry_net_bytes_estimate(1000, 10, 40, 5, 12);
    CHECK(e > ry_net_bytes_estimate(1000, 9, 40, 5, 12) &&
          e > ry_net_bytes_estimate(1000, 10, 39, 5, 12) &&
          e > ry_net_bytes_estimate(1000, 10, 40, 4, 12) &&
          e > ry_net_bytes_estimate(1000, 10, 40, 5, 11) &&
          e > ry_net_bytes_estimate(900, 10, 40, 5, 12), "the estimate does not grow with each count");
}

int main(void)
{
    shared_link();
    textbook();
    rounds();
    weights();
    errors();
    random_instances();
    own_resources();
    shared_count();
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
