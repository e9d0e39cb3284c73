/* Flows and their max-min fair rates (net/flow.h).
 *
 * Progressive filling, exactly: every flow not yet frozen runs at the
 * common level t. A resource r with unfrozen weight W_r (the sum of the
 * weights of its unfrozen flows) and room R_r left at level t_r fills at
 * level t_r + R_r / W_r. The resources wait in a binary heap on that level
 * (ties by resource id, so the order is the same on every machine); the
 * first to fill freezes its unfrozen flows at the level it filled at, and
 * each other resource of those flows gives back their weight: its room is
 * brought to the current level and its weight lowered. A level only rises
 * when weight is given back, so a resource's key in the heap is a lower
 * bound: the top is checked when it comes up and, when stale, goes back
 * down with its true level. Each flow freezes once, so a filling costs
 * O(E) plus the heap's work on the resources that come up.
 *
 * Rounds. The first filling's rates hold until the first flows finish;
 * then the flows left are filled again, and so on. Flows that finish
 * within 1% of the first (symmetric collectives finish together) leave in
 * the same round, each at its own time: the others get the room those
 * leave up to 1% of the round early, so the phase's time is at most 1%
 * short of the exact fluid answer. The rounds stop early when the phase's
 * time is known: the slowest flow's time at the current rates (a bound
 * from above: a flow's rate never drops when others leave) meets the
 * bytes a resource has left over its rate (a bound from below). Then, and
 * past RY_NET_ROUNDS rounds, the flows left keep their rates to the end. */
#include "net/flow.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

#define RY_NET_ROUNDS 64
#define SAME_FINISH 0.01        /* relative: finishing times this close leave together */
#define BOUNDS_MEET 1e-6        /* relative: the phase's bounds meet (weights are floats) */

void ry_flows_init(ry_flows *fl)
{
    memset(fl, 0, sizeof *fl);
}

void ry_flows_free(ry_flows *fl)
{
    free(fl->bytes);
    free(fl->off);
    free(fl->res);
    free(fl->w);
    free(fl->rate);
    free(fl->done);
    ry_flows_init(fl);
}

void ry_flows_clear(ry_flows *fl)
{
    fl->n = 0;
    fl->nent = 0;
    if (fl->off)
        fl->off[0] = 0;
}

size_t ry_flows_add(ry_flows *fl, double bytes, const uint32_t *res, const float *w, size_t n)
{
    size_t cap = fl->cap;
    RY_ALLOC_GROW(fl->bytes, fl->n + 1, cap);
    if (cap != fl->cap) {                   /* off has one entry more than bytes */
        fl->off = ry_xreallocarray(fl->off, cap + 1, sizeof *fl->off);
        if (fl->cap == 0)
            fl->off[0] = 0;
        fl->cap = cap;
    }
    size_t capent = fl->capent;
    RY_ALLOC_GROW(fl->res, fl->nent + n, capent);
    if (capent != fl->capent) {             /* w has res's capacity */
        fl->w = ry_xreallocarray(fl->w, capent, sizeof *fl->w);
        fl->capent = capent;
    }
    for (size_t i = 0; i < n; i++) {
        fl->res[fl->nent + i] = res[i];
        fl->w[fl->nent + i] = w ? w[i] : 1.0f;
    }
    fl->nent += n;
    fl->bytes[fl->n] = bytes;
    fl->off[++fl->n] = fl->nent;
    return fl->n - 1;
}

/* ---- the heap of resources on the level they fill at ------------------------- */

typedef struct filler {
    size_t nres;
    double *room;           /* per resource: capacity left at level at[r] */
    double *at;
    double *wsum;           /* unfrozen weight */
    uint32_t *left;         /* unfrozen flows through it */
    double *key;            /* the level it fills at */
    uint32_t *heap;         /* resource ids */
    uint32_t *pos;          /* per resource: its place in heap, UINT32_MAX: not there */
    size_t nheap;
    size_t *roff;           /* flows through each resource: rflow[roff[r] .. roff[r + 1]) */
    uint32_t *rflow;
    float *rw;
    size_t *next;           /* work: transpose's cursor per resource */
} filler;

static int before(const filler *h, uint32_t a, uint32_t b)
{
    return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && a < b);
}

static void place(filler *h, size_t i, uint32_t r)
{
    h->heap[i] = r;
    h->pos[r] = (uint32_t)i;
}

static void sift_up(filler *h, size_t i)
{
    uint32_t r = h->heap[i];
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(h, r, h->heap[p]))
            break;
        place(h, i, h->heap[p]);
        i = p;
    }
    place(h, i, r);
}

static void sift_down(filler *h, size_t i)
{
    uint32_t r = h->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->nheap)
            break;
        if (c + 1 < h->nheap && before(h, h->heap[c + 1], h->heap[c]))
            c++;
        if (!before(h, h->heap[c], r))
            break;
        place(h, i, h->heap[c]);
        i = c;
    }
    place(h, i, r);
}

static void heap_remove(filler *h, uint32_t r)
{
    size_t i = h->pos[r];
    h->pos[r] = UINT32_MAX;
    uint32_t last = h->heap[--h->nheap];
    if (i == h->nheap)
        return;
    place(h, i, last);
    sift_down(h, i);
    sift_up(h, h->pos[last]);
}

/* The flows through each resource, of those with active[f] set. */
static void transpose(filler *h, const ry_flows *fl, const unsigned char *active)
{
    memset(h->roff, 0, (h->nres + 1) * sizeof *h->roff);
    for (size_t f = 0; f < fl->n; f++)
        if (active[f])
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                h->roff[fl->res[e] + 1]++;
    for (size_t r = 0; r < h->nres; r++)
        h->roff[r + 1] += h->roff[r];
    size_t *next = h->next;
    memcpy(next, h->roff, h->nres * sizeof *next);
    for (size_t f = 0; f < fl->n; f++)
        if (active[f])
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++) {
                size_t k = next[fl->res[e]]++;
                h->rflow[k] = (uint32_t)f;
                h->rw[k] = fl->w[e];
            }
}

/* One filling of the flows transpose() took: their rates into rate[].
 * *first: the resource that filled first (UINT32_MAX: none). */
static void fill(filler *h, const double *cap, const ry_flows *fl, double *rate, uint32_t *first)
{
    *first = UINT32_MAX;
    h->nheap = 0;
    for (size_t r = 0; r < h->nres; r++) {
        h->room[r] = cap[r];
        h->at[r] = 0;
        h->wsum[r] = 0;
        h->left[r] = 0;
        h->pos[r] = UINT32_MAX;
        for (size_t k = h->roff[r]; k < h->roff[r + 1]; k++) {
            h->wsum[r] += h->rw[k];
            h->left[r]++;
        }
        if (h->left[r]) {
            h->key[r] = h->room[r] / h->wsum[r];
            h->heap[h->nheap] = (uint32_t)r;
            h->pos[r] = (uint32_t)h->nheap++;
        }
    }
    for (size_t i = h->nheap / 2; i-- > 0;)
        sift_down(h, i);

    while (h->nheap) {
        uint32_t r = h->heap[0];
        if (h->left[r] == 0) {              /* every flow through it froze elsewhere */
            heap_remove(h, r);
            continue;
        }
        double room = h->room[r] > 0 ? h->room[r] : 0;
        double t = h->at[r] + room / h->wsum[r];
        if (t > h->key[r]) {                /* its key went stale: it fills later */
            h->key[r] = t;
            sift_down(h, 0);
            continue;
        }
        if (*first == UINT32_MAX)
            *first = r;
        heap_remove(h, r);
        for (size_t k = h->roff[r]; k < h->roff[r + 1]; k++) {
            uint32_t f = h->rflow[k];
            if (rate[f] >= 0)
                continue;
            rate[f] = t;
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++) {
                uint32_t q = fl->res[e];
                if (q == r || h->pos[q] == UINT32_MAX)
                    continue;
                h->room[q] -= h->wsum[q] * (t - h->at[q]);
                h->at[q] = t;
                h->wsum[q] -= fl->w[e];
                if (h->wsum[q] < FLT_MIN)
                    h->wsum[q] = FLT_MIN;
                h->left[q]--;
            }
        }
    }
}

int ry_flows_run(const double *capacity, size_t nres, ry_flows *fl, ry_net_result *out,
                 double *load, ry_err *err)
{
    memset(out, 0, sizeof *out);
    out->bottleneck = UINT32_MAX;
    size_t n = fl->n;
    if (n == 0)
        return 0;
    if (nres >= UINT32_MAX || n >= UINT32_MAX) {
        ry_err_set(err, NULL, "%zu flows over %zu resources: more than the engine counts", n, nres);
        return -1;
    }
    for (size_t e = 0; e < fl->nent; e++) {
        uint32_t r = fl->res[e];
        if (r >= nres || !(capacity[r] > 0) || !(fl->w[e] > 0)) {
            ry_err_set(err, NULL, "a flow crosses resource %u: %s", (unsigned)r,
                       r >= nres ? "no such resource" :
                       !(capacity[r] > 0) ? "it has no capacity" : "with no share of the flow");
            return -1;
        }
    }
    fl->rate = ry_xrealloc(fl->rate, n * sizeof *fl->rate);
    fl->done = ry_xrealloc(fl->done, n * sizeof *fl->done);

    filler h = { .nres = nres };
    h.room = ry_xmalloc(nres * sizeof *h.room);
    h.at = ry_xmalloc(nres * sizeof *h.at);
    h.wsum = ry_xmalloc(nres * sizeof *h.wsum);
    h.key = ry_xmalloc(nres * sizeof *h.key);
    h.left = ry_xmalloc(nres * sizeof *h.left);
    h.heap = ry_xmalloc(nres * sizeof *h.heap);
    h.pos = ry_xmalloc(nres * sizeof *h.pos);
    h.roff = ry_xmalloc((nres + 1) * sizeof *h.roff);
    h.next = ry_xmalloc((nres ? nres : 1) * sizeof *h.next);
    h.rflow = ry_xmalloc((fl->nent ? fl->nent : 1) * sizeof *h.rflow);
    h.rw = ry_xmalloc((fl->nent ? fl->nent : 1) * sizeof *h.rw);

    unsigned char *active = ry_xmalloc(n);
    double *left = ry_xmalloc(n * sizeof *left);
    double *rate = ry_xmalloc(n * sizeof *rate);
    size_t nactive = 0;
    for (size_t f = 0; f < n; f++) {
        active[f] = fl->bytes[f] > 0 && fl->off[f + 1] > fl->off[f];
        left[f] = fl->bytes[f];
        fl->rate[f] = 0;
        fl->done[f] = 0;
        nactive += active[f];
    }

    double now = 0, bottleneck_bytes = 0;
    int round = 0;
    while (nactive) {
        uint32_t first;
        for (size_t f = 0; f < n; f++)
            rate[f] = -1;
        transpose(&h, fl, active);  /* the flows left only: a round costs what they cross */
        fill(&h, capacity, fl, rate, &first);
        round++;
        if (round == 1) {
            out->bottleneck = first;
            if (first != UINT32_MAX)    /* every flow with bytes is in this round */
                for (size_t k = h.roff[first]; k < h.roff[first + 1]; k++)
                    bottleneck_bytes += fl->bytes[h.rflow[k]] * h.rw[k];
            out->min_rate = DBL_MAX;
            for (size_t f = 0; f < n; f++)
                if (active[f]) {
                    fl->rate[f] = rate[f];
                    if (rate[f] < out->min_rate)
                        out->min_rate = rate[f];
                    if (rate[f] > out->max_rate)
                        out->max_rate = rate[f];
                }
        }
        double dt = DBL_MAX, slowest = 0;
        for (size_t f = 0; f < n; f++)
            if (active[f]) {
                double need = left[f] / rate[f];
                if (need < dt)
                    dt = need;
                if (need > slowest)
                    slowest = need;
            }
        /* Rates only rise as flows leave, so the slowest flow's time at
         * these rates bounds the phase from above; a resource's bytes left
         * over its rate bound it from below. When they meet, the phase's
         * time is known: the rest run at these rates (their own times are
         * then bounds from above). */
        double floor = 0;
        for (size_t r = 0; r < nres; r++) {
            double b = 0;
            for (size_t k = h.roff[r]; k < h.roff[r + 1]; k++)
                b += left[h.rflow[k]] * h.rw[k];
            if (b / capacity[r] > floor)
                floor = b / capacity[r];
        }
        int last = round >= RY_NET_ROUNDS || slowest <= floor * (1 + BOUNDS_MEET);
        double until = dt * (1 + SAME_FINISH);
        for (size_t f = 0; f < n; f++) {
            if (!active[f])
                continue;
            double need = left[f] / rate[f];
            if (last || need <= until) {
                fl->done[f] = now + need;
                if (fl->done[f] > out->time_s)
                    out->time_s = fl->done[f];
                active[f] = 0;
                nactive--;
            } else {
                left[f] -= rate[f] * dt;
            }
        }
        now += dt;
    }
    out->rounds = round;

    if (out->bottleneck != UINT32_MAX && out->time_s > 0)
        out->bottleneck_util = bottleneck_bytes / (capacity[out->bottleneck] * out->time_s);
    if (load)
        for (size_t f = 0; f < n; f++)
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                load[fl->res[e]] += fl->bytes[f] * fl->w[e];

    free(active);
    free(left);
    free(rate);
    free(h.room);
    free(h.at);
    free(h.wsum);
    free(h.key);
    free(h.left);
    free(h.heap);
    free(h.pos);
    free(h.roff);
    free(h.next);
    free(h.rflow);
    free(h.rw);
    return 0;
}
