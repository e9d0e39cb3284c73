/* Failure sweeps: for n = lo..hi failures of one kind (leaf, spine, core,
 * cable, nic), many seeded random draws on a fabric, and what they do on
 * average and at worst: the share of GPUs cut off the network, the
 * network bandwidth the slowest HB domain keeps, and with a model the
 * iteration time's slowdown (given as a function of the failure report:
 * the caller's model, e.g. ry_iter_degrade, which analysis/ does not see).
 *
 * Spares (the spec's spares section) are swapped in before the analysis:
 * of the elements a scenario draws, the first `switches` failed switches
 * are replaced, and the first `uplinks` failed uplinks (links between
 * switches, by their lower switch) of each switch.
 *
 * A draw's seed is seed0 + i for i = 0..seeds-1, the same for every n and
 * every fabric: the sweep of a design is reproducible, and two designs are
 * swept with the same seeds (each draws from its own elements). */
#ifndef RY_FAILURE_SWEEP_H
#define RY_FAILURE_SWEEP_H

#include "analysis/failure.h"

typedef struct ry_fsweep_stats {
    int ok;                     /* 0: the fabric has fewer than n elements of the kind */
    int runs;                   /* scenarios drawn */
    double cut_mean, cut_worst; /* GPUs cut off the network, share of all */
    double bw_mean, bw_worst;   /* network bandwidth of the slowest HB domain, share kept */
    int stalled;                /* scenarios where an HB domain has no network left */
    /* with a model, over the scenarios that are not stalled */
    double slow_mean, slow_worst;
} ry_fsweep_stats;

/* T_iter after the failures (fs, what they left: r) over before; *stalled
 * set when the job cannot run (an HB domain without network). */
typedef double (*ry_fsweep_slowdown)(void *arg, const ry_failure *fs, const ry_failure_report *r,
                                     int *stalled);

/* The buffers of a sweep over one fabric (a workspace, a failure set, a
 * report), made once for several sweeps of that fabric: ry_fsweep_in's
 * bufs. NULL-safe _free. */
typedef struct ry_fsweep_bufs ry_fsweep_bufs;
ry_fsweep_bufs *ry_fsweep_bufs_new(const ry_fabric *f);
void ry_fsweep_bufs_free(ry_fsweep_bufs *b);
/* The n elements failed alone on f (b's fabric), analysed with b's
 * buffers: the report, b's own until the next use of b. */
const ry_failure_report *ry_fsweep_bufs_analyze(ry_fsweep_bufs *b, const ry_fabric *f,
                                                const ry_fail_elem *e, int n);

typedef struct ry_fsweep_in {
    const ry_fabric *f;
    ry_fsweep_slowdown slowdown;    /* NULL: no model, no slowdown */
    void *arg;
    const char *kind;           /* as --random takes it: leaf, spine, core, tN, switch, cable, nic */
    int lo, hi;                 /* failures per scenario */
    int seeds;
    unsigned long long seed0;
    int spare_switches, spare_uplinks;
    ry_fsweep_bufs *bufs;       /* NULL: the sweep makes its own */
} ry_fsweep_in;

/* Fills out[0 .. hi - lo] (one per n). -1 with err set when kind names
 * nothing the fabric has. */
int ry_fsweep_run(const ry_fsweep_in *in, ry_fsweep_stats *out, ry_err *err);

/* The fewest spares (switches for a switch kind, uplinks per switch for
 * cable) that keep the worst slowdown of n failures at or under target,
 * over the same seeds; -1 when even max spares do not. Needs slowdown. */
int ry_fsweep_spares_needed(const ry_fsweep_in *in, int n, double target, int max);

#endif
