/* Benchmark: build a rail-optimized fabric and its bill of materials.
 * usage: build_bench GPUS [RADIX [HB_DOMAIN [REPEATS]]]
 * Prints wall time per build (best of REPEATS) and the process's peak RSS. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "clock.h"
#include "analysis/bom.h"
#include "fabric/fabric.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: build_bench GPUS [RADIX [HB_DOMAIN [REPEATS]]]\n");
        return 2;
    }
    ry_spec s;
    ry_spec_defaults(&s);
    s.gpus = atoll(argv[1]);
    s.sw.radix = argc > 2 ? atoi(argv[2]) : 64;
    s.hb_domain = argc > 3 ? atoi(argv[3]) : 8;
    s.rails = s.hb_domain;
    s.node.gpus_per_node = 8;
    s.nodes = s.gpus / 8;
    int repeats = argc > 4 ? atoi(argv[4]) : 3;
    double best = 1e9;
    ry_bom b;
    for (int i = 0; i < repeats; i++) {
        double t0 = bench_now();
        ry_fabric f;
        ry_err err;
        if (ry_fabric_build(&s, &f, &err) < 0) {
            fprintf(stderr, "build failed: %s\n", err.msg);
            return 1;
        }
        ry_bom_compute(&f, &b);
        ry_fabric_free(&f);
        double t = bench_now() - t0;
        if (t < best)
            best = t;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("rail-optimized %lld GPUs radix %d: %d tiers, %lld switches, %lld links; "
           "build+bom %.3f s (best of %d), peak RSS %.1f MB\n",
           s.gpus, s.sw.radix, b.tiers, b.switches, b.links, best, repeats,
           (double)ru.ru_maxrss / 1024.0);
    return 0;
}
