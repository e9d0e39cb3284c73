/* Benchmark: routing tables of subnet 0 computed in memory (no file), then
 * incremental re-routing after one failure (a leaf, a middle switch, a top
 * switch, a switch-to-switch link), each checked against a full recompute
 * with the same failure.
 * usage: reroute_bench SPEC [GPUS [REPEATS]]   (templates: $RAILYARD_TEMPLATES)
 * Prints one "key value" line per measure, times in seconds (best of
 * REPEATS, default 3), so scripts can read them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "clock.h"
#include "analysis/route.h"
#include "fabric/fabric.h"
#include "fabric/ibplan.h"
#include "spec/spec.h"

/* The i-th switch of subnet k at tier t. */
static uint32_t switch_at(const ry_ibplan *pl, int k, int t, size_t i)
{
    const ry_subnet *sn = &pl->subnets[k];
    for (size_t s = 0; s < sn->nsw; s++)
        if (pl->f->nodes[sn->sw[s]].tier == t && i-- == 0)
            return sn->sw[s];
    return sn->sw[0];
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: reroute_bench SPEC [GPUS [REPEATS]]\n");
        return 2;
    }
    char gpus[32] = "";
    ry_override set = { "cluster.gpus", gpus, 0, NULL };
    if (argc > 2)
        snprintf(gpus, sizeof gpus, "%s", argv[2]);
    int repeats = argc > 3 ? atoi(argv[3]) : 3;
    ry_spec *s = ry_spec_load(argv[1], &set, argc > 2, ry_templates_dir(NULL));
    if (!s)
        return 1;
    ry_fabric f;
    ry_ibplan pl;
    ry_err err;
    if (ry_fabric_build(s, &f, &err) < 0 || ry_ibplan_build(&f, &pl, &err) < 0) {
        fprintf(stderr, "reroute_bench: %s\n", err.msg);
        return 1;
    }
    const ry_subnet *sn = &pl.subnets[0];
    size_t bytes = sn->nsw * ((size_t)sn->max_lid + 1);
    printf("gpus %lld\nsubnets %d\nswitches %zu\ncas %zu\nmax_lid %u\ntiers %d\n", f.gpus,
           pl.nsubnets, sn->nsw, sn->nca, sn->max_lid, sn->tiers);

    double best = 1e9;
    for (int i = 0; i < repeats; i++) {
        double t0 = bench_now();
        ry_router *r = ry_router_new(&pl, 0);
        ry_router_tables(r);
        double t = bench_now() - t0;
        ry_router_free(r);
        if (t < best)
            best = t;
    }
    printf("full_route_s %.4f\n", best);

    /* one failure at a time, incremental against full */
    const ry_node *leaf = &f.nodes[switch_at(&pl, 0, 1, 5)];
    uint32_t uplink = 0;
    for (uint32_t p = 0; p < leaf->nports; p++) {
        const ry_port *pt = &f.ports[leaf->port0 + p];
        if (pt->peer >= 0 && ry_port_node(&f, (uint32_t)pt->peer)->tier > leaf->tier) {
            uplink = (uint32_t)pt->link;
            break;
        }
    }
    struct { const char *name; uint32_t node; int is_link; } cases[] = {
        { "leaf", switch_at(&pl, 0, 1, 5), 0 },
        { "middle", switch_at(&pl, 0, sn->tiers > 2 ? 2 : 1, 7), 0 },
        { "top", switch_at(&pl, 0, sn->tiers, 3), 0 },
        { "link", uplink, 1 },
    };
    uint8_t *nd = calloc(f.nnodes, 1), *ld = calloc(f.nlinks, 1);
    int all_equal = 1;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double tb = 1e9;
        size_t changed = 0;
        for (int i = 0; i < repeats; i++) {
            ry_router *r = ry_router_new(&pl, 0);
            ry_router_tables(r);
            double t0 = bench_now();
            changed = cases[c].is_link ? ry_router_fail(r, NULL, 0, &cases[c].node, 1)
                                       : ry_router_fail(r, &cases[c].node, 1, NULL, 0);
            double t = bench_now() - t0;
            if (t < tb)
                tb = t;
            if (i == 0) {
                (cases[c].is_link ? ld : nd)[cases[c].node] = 1;
                ry_router *full = ry_router_new_failed(&pl, 0, nd, ld);
                double t1 = bench_now();
                int eq = memcmp(ry_router_tables(full), ry_router_tables(r), bytes) == 0;
                printf("full_%s_s %.4f\n", cases[c].name, bench_now() - t1);
                all_equal &= eq;
                (cases[c].is_link ? ld : nd)[cases[c].node] = 0;
                ry_router_free(full);
            }
            ry_router_free(r);
        }
        printf("incremental_%s_s %.4f\nchanged_%s %zu\n", cases[c].name, tb, cases[c].name,
               changed);
    }
    printf("incremental_equals_full %s\n", all_equal ? "yes" : "NO");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak_rss_mb %.1f\n", (double)ru.ru_maxrss / 1024.0);
    free(nd);
    free(ld);
    ry_ibplan_free(&pl);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return !all_equal;
}
