/* Failure sweeps (failure_sweep.h). */
#include "analysis/failure_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DRAW 4096

/* The sweep's buffers over one fabric. */
struct ry_fsweep_bufs {
    ry_failure_ws *ws;
    ry_failure *fs;
    ry_failure_report r;
    ry_fail_elem *e;
    uint32_t *uplinks_down;     /* per switch (node id - first_switch), while filtering */
};

ry_fsweep_bufs *ry_fsweep_bufs_new(const ry_fabric *f)
{
    ry_fsweep_bufs *b = ry_xcalloc(1, sizeof *b);
    b->ws = ry_failure_ws_new(f);
    b->fs = ry_failure_new(f);
    ry_failure_report_init(&b->r, f);
    b->e = ry_xcalloc(MAX_DRAW, sizeof *b->e);
    b->uplinks_down = ry_xcalloc(f->nnodes - f->first_switch + 1, sizeof *b->uplinks_down);
    return b;
}

void ry_fsweep_bufs_free(ry_fsweep_bufs *b)
{
    if (!b)
        return;
    ry_failure_ws_free(b->ws);
    ry_failure_free(b->fs);
    ry_failure_report_free(&b->r);
    free(b->e);
    free(b->uplinks_down);
    free(b);
}

const ry_failure_report *ry_fsweep_bufs_analyze(ry_fsweep_bufs *b, const ry_fabric *f,
                                                const ry_fail_elem *e, int n)
{
    ry_failure_clear(b->fs);
    ry_failure_apply(f, e, n, b->fs);
    ry_failure_analyze(b->ws, b->fs, &b->r);
    return &b->r;
}

typedef struct sweeper {
    const ry_fsweep_in *in;
    ry_fsweep_bufs *b, *own;
    ry_failure_ws *ws;
    ry_failure *fs;
    ry_fail_elem *e;
    uint32_t *uplinks_down;
} sweeper;

static void sweeper_init(sweeper *s, const ry_fsweep_in *in)
{
    memset(s, 0, sizeof *s);
    s->in = in;
    s->b = in->bufs ? in->bufs : (s->own = ry_fsweep_bufs_new(in->f));
    s->ws = s->b->ws;
    s->fs = s->b->fs;
    s->e = s->b->e;
    s->uplinks_down = s->b->uplinks_down;
}

static void sweeper_free(sweeper *s)
{
    ry_fsweep_bufs_free(s->own);
}

/* The lower switch of a link between switches, or -1. */
static long long uplink_of(const ry_fabric *f, const ry_fail_elem *e)
{
    if (e->kind != RY_FAIL_LINK)
        return -1;
    uint32_t lo = f->ports[f->links[e->id].lo].owner;
    return f->nodes[lo].kind == RY_NODE_SWITCH ? (long long)(lo - f->first_switch) : -1;
}

/* Drops the elements spares replace; returns how many are left. */
static int swap_spares(sweeper *s, int n, int spare_switches, int spare_uplinks)
{
    const ry_fabric *f = s->in->f;
    long long touched[MAX_DRAW];
    int kept = 0, switches = 0, nt = 0;
    for (int i = 0; i < n; i++) {
        ry_fail_elem *e = &s->e[i];
        long long up = uplink_of(f, e);
        if (e->kind == RY_FAIL_SWITCH && switches < spare_switches) {
            switches++;
            continue;
        }
        if (up >= 0 && s->uplinks_down[up] < (uint32_t)spare_uplinks) {
            if (s->uplinks_down[up]++ == 0)
                touched[nt++] = up;
            continue;
        }
        s->e[kept++] = *e;
    }
    for (int i = 0; i < nt; i++)
        s->uplinks_down[touched[i]] = 0;
    return kept;
}

/* One scenario of n failures with seed; 0, or -1 when the fabric has too few. */
static int scenario(sweeper *s, int n, unsigned long long seed, int spare_switches,
                    int spare_uplinks, double *slow, int *stalled)
{
    const ry_fsweep_in *in = s->in;
    int cnt = 0;
    if (n > 0) {
        char item[64];
        ry_err err;
        snprintf(item, sizeof item, "%s:%d", in->kind, n);
        if (ry_fail_random(in->f, item, seed, s->e, MAX_DRAW, &cnt, &err) < 0)
            return -1;
        cnt = swap_spares(s, cnt, spare_switches, spare_uplinks);
    }
    ry_failure_clear(s->fs);
    ry_failure_apply(in->f, s->e, cnt, s->fs);
    ry_failure_analyze(s->ws, s->fs, &s->b->r);
    *stalled = 0;
    *slow = in->slowdown ? in->slowdown(in->arg, s->fs, &s->b->r, stalled) : 1;
    return 0;
}

int ry_fsweep_run(const ry_fsweep_in *in, ry_fsweep_stats *out, ry_err *err)
{
    /* The kind first: "leaf:0" draws nothing but names the kind. */
    {
        char item[64];
        int cnt = 0;
        ry_fail_elem one;
        snprintf(item, sizeof item, "%s:0", in->kind);
        if (ry_fail_random(in->f, item, 1, &one, 1, &cnt, err) < 0)
            return -1;
    }
    RY_ASSERT(in->lo >= 0 && in->hi >= in->lo && in->hi <= MAX_DRAW && in->seeds > 0);
    sweeper s;
    sweeper_init(&s, in);
    for (int n = in->lo; n <= in->hi; n++) {
        ry_fsweep_stats *st = &out[n - in->lo];
        memset(st, 0, sizeof *st);
        st->ok = 1;
        st->bw_worst = 1;
        st->slow_worst = 1;
        int slowed = 0;
        for (int i = 0; i < in->seeds && st->ok; i++) {
            double slow;
            int stalled;
            if (scenario(&s, n, in->seed0 + (unsigned long long)i, in->spare_switches,
                         in->spare_uplinks, &slow, &stalled) < 0) {
                st->ok = 0;
                break;
            }
            double cut = s.b->r.gpus ? (double)s.b->r.gpus_cut / (double)s.b->r.gpus : 0;
            st->runs++;
            st->cut_mean += cut;
            if (cut > st->cut_worst)
                st->cut_worst = cut;
            st->bw_mean += s.b->r.bs_ratio;
            if (s.b->r.bs_ratio < st->bw_worst)
                st->bw_worst = s.b->r.bs_ratio;
            if (!in->slowdown) {
                /* without a model: a domain without network stalls a job */
                if (s.b->r.bs_ratio <= 0)
                    st->stalled++;
            } else {
                if (stalled || !isfinite(slow)) {
                    st->stalled++;
                } else {
                    slowed++;
                    st->slow_mean += slow;
                    if (slow > st->slow_worst)
                        st->slow_worst = slow;
                }
            }
        }
        if (st->runs) {
            st->cut_mean /= st->runs;
            st->bw_mean /= st->runs;
        }
        st->slow_mean = slowed ? st->slow_mean / slowed : (in->slowdown ? NAN : 1);
        if (!slowed && in->slowdown)
            st->slow_worst = NAN;
    }
    sweeper_free(&s);
    return 0;
}

int ry_fsweep_spares_needed(const ry_fsweep_in *in, int n, double target, int max)
{
    RY_ASSERT(in->slowdown);
    int uplinks = strcmp(in->kind, "cable") == 0;
    sweeper s;
    sweeper_init(&s, in);
    int found = -1;
    for (int sp = 0; sp <= max && found < 0; sp++) {
        int ok = 1;
        for (int i = 0; i < in->seeds && ok; i++) {
            double slow;
            int stalled;
            if (scenario(&s, n, in->seed0 + (unsigned long long)i, uplinks ? 0 : sp,
                         uplinks ? sp : 0, &slow, &stalled) < 0)
                ok = 0;
            else if (stalled || !isfinite(slow) || slow > target)
                ok = 0;
        }
        if (ok)
            found = sp;
    }
    sweeper_free(&s);
    return found;
}
