/* Benchmark: failure scenarios on one fabric, as a sweep runs them.
 * usage: whatif_bench GPUS [DESIGN [SCENARIOS [RANDOM]]]
 * DESIGN: rail-optimized (default), rail-only or fat-tree; RANDOM: the
 * --random kinds drawn per scenario (default leaf:2,spine:1), seeds 0..
 * Prints the time per scenario (draw, apply, analyze; buffers reused). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "analysis/failure.h"
#include "fabric/fabric.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: whatif_bench GPUS [DESIGN [SCENARIOS [RANDOM]]]\n");
        return 2;
    }
    ry_spec s;
    ry_spec_defaults(&s);
    s.gpus = atoll(argv[1]);
    s.node.gpus_per_node = 8;
    s.nodes = s.gpus / 8;
    s.rails = s.hb_domain;
    if (argc > 2)
        s.design = strcmp(argv[2], "rail-only") == 0 ? RY_DESIGN_RAIL_ONLY
                 : strcmp(argv[2], "fat-tree") == 0 ? RY_DESIGN_FAT_TREE
                 : RY_DESIGN_RAIL_OPTIMIZED;
    int n = argc > 3 ? atoi(argv[3]) : 1000;
    const char *rnd = argc > 4 ? argv[4] : "leaf:2,spine:1";
    ry_fabric f;
    ry_err err;
    if (ry_fabric_build(&s, &f, &err) < 0) {
        fprintf(stderr, "build failed: %s\n", err.msg);
        return 1;
    }
    ry_failure_ws *ws = ry_failure_ws_new(&f);
    ry_failure *fs = ry_failure_new(&f);
    ry_failure_report r;
    ry_failure_report_init(&r, &f);
    static ry_fail_elem e[8192];
    double t0 = bench_now(), sum_bs = 0;
    long long cut = 0;
    for (int i = 0; i < n; i++) {
        int ne = 0;
        if (ry_fail_random(&f, rnd, (uint64_t)i, e, 8192, &ne, &err) < 0) {
            fprintf(stderr, "--random %s: %s\n", rnd, err.msg);
            return 1;
        }
        ry_failure_clear(fs);
        ry_failure_apply(&f, e, ne, fs);
        ry_failure_analyze(ws, fs, &r);
        cut += r.gpus_cut;
        sum_bs += r.bs_ratio;
    }
    double t = bench_now() - t0;
    printf("%s %lld GPUs, %zu switches, %zu links: %d scenarios of %s in %.3f s, "
           "%.2f ms each (mean GPUs cut %.1f, mean B_S kept %.4f)\n",
           ry_design_name(s.design), s.gpus, f.nnodes - f.first_switch, f.nlinks, n, rnd, t,
           1e3 * t / n, (double)cut / n, sum_bs / n);
    ry_failure_report_free(&r);
    ry_failure_free(fs);
    ry_failure_ws_free(ws);
    ry_fabric_free(&f);
    return 0;
}
