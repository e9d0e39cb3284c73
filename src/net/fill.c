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

#include "net/fill.h"
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

double ry_net_bytes_estimate(size_t nres, double flows, double entries, double shared,
                             double shared_entries)
{
    /* a flow: bytes and off (8 + 8, x 1.5 grown), rate and done (16); the
     * filling's key, heap and pos (16), xres (4), alone and active (2),
     * left and rate (16). An entry: res and w (8, x 1.5 grown); on a shared resource
     * rflow and rw (8). A shared resource: gid, capv, room, at, wsum, left,
     * roff and its key, heap and pos (64). A resource: the seen and shared
     * bitmaps and their ranks (5 / 16). */
    return flows * 78 + entries * 12 + shared_entries * 8 + shared * 64 + (double)nres * 5 / 16;
}

size_t ry_flows_shared(const ry_flows *fl, size_t nres, size_t *entries)
{
    size_t words = nres / 64 + 1, ns = 0, nse = 0;
    uint64_t *seen = ry_xcalloc(2 * words, sizeof *seen), *twice = seen + words;
    for (size_t e = 0; e < fl->nent; e++) {
        uint32_t r = fl->res[e];
        if (r >= nres)
            continue;
        uint64_t bit = UINT64_C(1) << (r & 63);
        if (seen[r >> 6] & bit)
            twice[r >> 6] |= bit;
        seen[r >> 6] |= bit;
    }
    for (size_t i = 0; i < words; i++)
        ns += (size_t)__builtin_popcountll(twice[i]);
    for (size_t e = 0; entries && e < fl->nent; e++) {
        uint32_t r = fl->res[e];
        nse += r < nres && ((twice[r >> 6] >> (r & 63)) & 1);
    }
    if (entries)
        *entries = nse;
    free(seen);
    return ns;
}

/* ---- the heap of resources on the level they fill at ------------------------- */

/* A resource one flow alone crosses (exclusive) only caps that flow: it
 * fills at its capacity over the flow's weight on it, unless the flow froze
 * elsewhere first. So the exclusive resources are not kept one by one: a
 * flow's are one element of the heap, at the least of their levels, named by
 * that resource (the least id among ties), which is the one that would have
 * come up first of them. The resources two or more flows cross (shared) get
 * dense ids 0 .. ns - 1 in id order: a bitmap of them and its ranks find a
 * resource's. Per-resource state is then proportional to the shared
 * resources, and a phase of flows on paths of their own (a ring, a shift)
 * keeps one element per flow. The heap's elements are the shared resources
 * (0 .. ns - 1) and the flows (ns + f); ties go by the resource id. A flow
 * with no shared resource is not queued at all (fill()): it runs at its
 * own level. */
typedef struct filler {
    const ry_flows *fl;
    double (*cap)(const void *, uint32_t);
    const void *cctx;
    size_t ns;              /* shared resources */
    uint64_t *shared;       /* bitmap over resource ids */
    uint32_t *rank;         /* shared resources below each 64-bit word */
    uint32_t *gid;          /* shared: its resource id */
    double *capv;           /* shared: its capacity */
    double *room;           /* shared: capacity left at level at[] */
    double *at;
    double *wsum;           /* shared: unfrozen weight */
    uint32_t *left;         /* shared: unfrozen flows through it */
    uint32_t *xres;         /* flow: its first exclusive resource, UINT32_MAX: none */
    unsigned char *alone;   /* flow: it crosses no shared resource */
    double *key;            /* element: the level it fills at (a flow's: fixed) */
    uint32_t *heap;         /* elements */
    uint32_t *pos;          /* element: its place in heap, UINT32_MAX: not there */
    size_t nheap;
    size_t *roff;           /* active flows through each shared resource: */
    uint32_t *rflow;        /* rflow[roff[s] .. roff[s + 1]) */
    float *rw;
} filler;

#define NONE UINT32_MAX

/* Set bits of x: the instruction where the build targets it, else inline
 * arithmetic (the library's __popcountdi2 is a call on every flow entry of
 * the filling's inner loop). */
static inline uint32_t pop64(uint64_t x)
{
#if defined(__POPCNT__)
    return (uint32_t)__builtin_popcountll(x);
#else
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

static int is_shared(const filler *h, uint32_t r)
{
    return (h->shared[r >> 6] >> (r & 63)) & 1;
}

static uint32_t shared_id(const filler *h, uint32_t r)
{
    uint64_t below = h->shared[r >> 6] & ((UINT64_C(1) << (r & 63)) - 1);
    return h->rank[r >> 6] + pop64(below);
}

static uint32_t ident(const filler *h, uint32_t x)
{
    return x < h->ns ? h->gid[x] : h->xres[x - h->ns];
}

static int before(const filler *h, uint32_t a, uint32_t b)
{
    return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && ident(h, a) < ident(h, b));
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
    h->pos[r] = NONE;
    uint32_t last = h->heap[--h->nheap];
    if (i == h->nheap)
        return;
    place(h, i, last);
    sift_down(h, i);
    sift_up(h, h->pos[last]);
}

static void push(filler *h, uint32_t x)
{
    h->heap[h->nheap] = x;
    h->pos[x] = (uint32_t)h->nheap++;
}

/* The active flows through each shared resource, in flow order. */
static void transpose(filler *h, const unsigned char *active)
{
    const ry_flows *fl = h->fl;
    memset(h->roff, 0, (h->ns + 1) * sizeof *h->roff);
    for (size_t f = 0; f < fl->n; f++)
        if (active[f])
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                if (is_shared(h, fl->res[e]))
                    h->roff[shared_id(h, fl->res[e]) + 1]++;
    for (size_t s = 0; s < h->ns; s++)
        h->roff[s + 1] += h->roff[s];
    /* left[] is the cursor here; fill() counts it again */
    for (size_t s = 0; s < h->ns; s++)
        h->left[s] = 0;
    for (size_t f = 0; f < fl->n; f++)
        if (active[f])
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                if (is_shared(h, fl->res[e])) {
                    uint32_t s = shared_id(h, fl->res[e]);
                    size_t k = h->roff[s] + h->left[s]++;
                    h->rflow[k] = (uint32_t)f;
                    h->rw[k] = fl->w[e];
                }
}

/* Freezes flow f at level t: each other shared resource of it still in the
 * heap gives back its weight. */
static void freeze(filler *h, uint32_t f, double t, double *rate)
{
    const ry_flows *fl = h->fl;
    rate[f] = t;
    for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++) {
        uint32_t r = fl->res[e];
        if (!is_shared(h, r))
            continue;
        uint32_t q = shared_id(h, r);
        if (h->pos[q] == NONE)
            continue;
        h->room[q] -= h->wsum[q] * (t - h->at[q]);
        h->at[q] = t;
        h->wsum[q] -= fl->w[e];
        if (h->wsum[q] < FLT_MIN)
            h->wsum[q] = FLT_MIN;
        h->left[q]--;
    }
}

/* One filling of the active flows (transpose() took their shared
 * resources): their rates into rate[]. *first: the element that filled
 * first (NONE: none). */
static void fill(filler *h, const unsigned char *active, double *rate, uint32_t *first)
{
    const ry_flows *fl = h->fl;
    *first = NONE;
    h->nheap = 0;
    for (size_t s = 0; s < h->ns; s++) {
        h->room[s] = h->capv[s];
        h->at[s] = 0;
        h->wsum[s] = 0;
        h->left[s] = 0;
        h->pos[s] = NONE;
        for (size_t k = h->roff[s]; k < h->roff[s + 1]; k++) {
            h->wsum[s] += h->rw[k];
            h->left[s]++;
        }
        if (h->left[s]) {
            h->key[s] = h->room[s] / h->wsum[s];
            push(h, (uint32_t)s);
        }
    }
    /* A flow that crosses no shared resource freezes at its own level
     * whatever the others do, and frees no weight: it is not queued. Of
     * those the one that comes first in the heap's order would have come
     * up before every element that follows it: it is the first to fill
     * when it comes before the heap's first. */
    uint32_t lone = NONE;
    for (size_t f = 0; f < fl->n; f++) {
        uint32_t x = (uint32_t)(h->ns + f);
        h->pos[x] = NONE;
        if (!active[f] || h->xres[f] == NONE)
            continue;
        if (!h->alone[f]) {
            push(h, x);
            continue;
        }
        double k = h->key[x];
        rate[f] = k;
        if (lone == NONE || k < h->key[lone] ||
            (k == h->key[lone] && h->xres[f] < h->xres[lone - h->ns]))
            lone = x;           /* before(h, x, lone) */
    }
    for (size_t i = h->nheap / 2; i-- > 0;)
        sift_down(h, i);

    while (h->nheap) {
        uint32_t x = h->heap[0];
        if (x >= h->ns) {                   /* a flow's exclusive resources */
            uint32_t f = x - (uint32_t)h->ns;
            heap_remove(h, x);
            if (rate[f] >= 0)
                continue;
            if (*first == NONE)
                *first = x;
            freeze(h, f, h->key[x], rate);
            continue;
        }
        if (h->left[x] == 0) {              /* every flow through it froze elsewhere */
            heap_remove(h, x);
            continue;
        }
        double room = h->room[x] > 0 ? h->room[x] : 0;
        double t = h->at[x] + room / h->wsum[x];
        if (t > h->key[x]) {                /* its key went stale: it fills later */
            h->key[x] = t;
            sift_down(h, 0);
            continue;
        }
        if (*first == NONE)
            *first = x;
        heap_remove(h, x);
        for (size_t k = h->roff[x]; k < h->roff[x + 1]; k++) {
            uint32_t f = h->rflow[k];
            if (rate[f] < 0)
                freeze(h, f, t, rate);
        }
    }
    if (lone != NONE && (*first == NONE || before(h, lone, *first)))
        *first = lone;
}

static double array_cap(const void *ctx, uint32_t r)
{
    return ((const double *)ctx)[r];
}

int ry_flows_run(const double *capacity, size_t nres, ry_flows *fl, ry_net_result *out,
                 double *load, ry_err *err)
{
    return ry_fill_run(array_cap, capacity, nres, fl, out, load, NULL, NULL, err);
}

int ry_fill_run(double (*capacity)(const void *ctx, uint32_t res), const void *cctx, size_t nres,
                ry_flows *fl, ry_net_result *out, double *load, ry_res_visit visit, void *vctx,
                ry_err *err)
{
    memset(out, 0, sizeof *out);
    out->bottleneck = UINT32_MAX;
    size_t n = fl->n;
    if (n == 0)
        return 0;
    if (nres >= UINT32_MAX || n >= UINT32_MAX / 2) {
        ry_err_set(err, NULL, "%zu flows over %zu resources: more than the engine counts", n, nres);
        return -1;
    }
    /* the shared resources: those two entries or more cross; each entry
     * checked, each resource's capacity where it first comes */
    filler h = { .fl = fl, .cap = capacity, .cctx = cctx };
    size_t words = nres / 64 + 1;
    uint64_t *seen = ry_xcalloc(words, sizeof *seen);
    h.shared = ry_xcalloc(words, sizeof *h.shared);
    size_t nse = 0;                 /* entries on shared resources */
    for (size_t e = 0; e < fl->nent; e++) {
        uint32_t r = fl->res[e];
        uint64_t bit = UINT64_C(1) << (r & 63);
        double c = r >= nres ? 0 : seen[r >> 6] & bit ? 1 : capacity(cctx, r);
        if (r >= nres || !(c > 0) || !(fl->w[e] > 0)) {
            ry_err_set(err, NULL, "a flow crosses resource %u: %s", (unsigned)r,
                       r >= nres ? "no such resource" :
                       !(c > 0) ? "it has no capacity" : "with no share of the flow");
            free(seen);
            free(h.shared);
            return -1;
        }
        if (seen[r >> 6] & bit)
            h.shared[r >> 6] |= bit;
        seen[r >> 6] |= bit;
    }
    free(seen);
    fl->rate = ry_xrealloc(fl->rate, n * sizeof *fl->rate);
    fl->done = ry_xrealloc(fl->done, n * sizeof *fl->done);
    h.rank = ry_xmalloc(words * sizeof *h.rank);
    for (size_t i = 0; i < words; i++) {
        h.rank[i] = (uint32_t)h.ns;
        h.ns += (size_t)__builtin_popcountll(h.shared[i]);
    }
    size_t ns = h.ns, ns1 = ns ? ns : 1;
    h.gid = ry_xmalloc(ns1 * sizeof *h.gid);
    for (size_t i = 0, k = 0; i < words; i++)
        for (uint64_t b = h.shared[i]; b; b &= b - 1)
            h.gid[k++] = (uint32_t)(i * 64 + (size_t)__builtin_ctzll(b));
    for (size_t e = 0; e < fl->nent; e++)
        nse += (size_t)is_shared(&h, fl->res[e]);
    h.capv = ry_xmalloc(ns1 * sizeof *h.capv);
    for (size_t s = 0; s < ns; s++)
        h.capv[s] = capacity(cctx, h.gid[s]);
    h.room = ry_xmalloc(ns1 * sizeof *h.room);
    h.at = ry_xmalloc(ns1 * sizeof *h.at);
    h.wsum = ry_xmalloc(ns1 * sizeof *h.wsum);
    h.left = ry_xmalloc(ns1 * sizeof *h.left);
    h.roff = ry_xmalloc((ns + 1) * sizeof *h.roff);
    h.rflow = ry_xmalloc((nse ? nse : 1) * sizeof *h.rflow);
    h.rw = ry_xmalloc((nse ? nse : 1) * sizeof *h.rw);
    h.key = ry_xmalloc((ns + n) * sizeof *h.key);
    h.heap = ry_xmalloc((ns + n) * sizeof *h.heap);
    h.pos = ry_xmalloc((ns + n) * sizeof *h.pos);
    h.xres = ry_xmalloc(n * sizeof *h.xres);
    h.alone = ry_xmalloc(n);

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
        /* the level its exclusive resources cap it at: the first to fill */
        double *k = &h.key[ns + f];
        h.xres[f] = NONE;
        h.alone[f] = 1;
        for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++) {
            uint32_t r = fl->res[e];
            if (is_shared(&h, r)) {
                h.alone[f] = 0;
                continue;
            }
            double lv = capacity(cctx, r) / (double)fl->w[e];
            if (h.xres[f] == NONE || lv < *k || (lv == *k && r < h.xres[f])) {
                *k = lv;
                h.xres[f] = r;
            }
        }
    }

    double now = 0, bottleneck_bytes = 0;
    int round = 0;
    while (nactive) {
        uint32_t first;
        for (size_t f = 0; f < n; f++)
            rate[f] = -1;
        transpose(&h, active);      /* the flows left only: a round costs what they cross */
        fill(&h, active, rate, &first);
        round++;
        if (round == 1) {
            if (first != NONE) {        /* every flow with bytes is in this round */
                out->bottleneck = ident(&h, first);
                if (first < ns) {
                    for (size_t k = h.roff[first]; k < h.roff[first + 1]; k++)
                        bottleneck_bytes += fl->bytes[h.rflow[k]] * h.rw[k];
                } else {
                    size_t f = first - ns;
                    for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                        if (fl->res[e] == out->bottleneck)
                            bottleneck_bytes += fl->bytes[f] * fl->w[e];
                }
            }
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
        for (size_t s = 0; s < ns; s++) {
            double b = 0;
            for (size_t k = h.roff[s]; k < h.roff[s + 1]; k++)
                b += left[h.rflow[k]] * h.rw[k];
            b /= h.capv[s];
            if (b > floor)
                floor = b;
        }
        /* a flow's own resources: the one it fills first (its key, the least
         * capacity over weight) has the most of its bytes left to carry */
        for (size_t f = 0; f < n; f++)
            if (active[f] && h.xres[f] != NONE && left[f] / h.key[ns + f] > floor)
                floor = left[f] / h.key[ns + f];
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
        out->bottleneck_util = bottleneck_bytes / (capacity(cctx, out->bottleneck) * out->time_s);
    if (load)
        for (size_t f = 0; f < n; f++)
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++)
                load[fl->res[e]] += fl->bytes[f] * fl->w[e];
    if (visit) {                    /* each resource's bytes, summed in flow order */
        double *sum = h.room;
        memset(sum, 0, ns1 * sizeof *sum);
        for (size_t f = 0; f < n; f++)
            for (size_t e = fl->off[f]; e < fl->off[f + 1]; e++) {
                uint32_t r = fl->res[e];
                if (is_shared(&h, r))
                    sum[shared_id(&h, r)] += fl->bytes[f] * fl->w[e];
                else
                    visit(vctx, r, fl->bytes[f] * fl->w[e]);
            }
        for (size_t s = 0; s < ns; s++)
            visit(vctx, h.gid[s], sum[s]);
    }

    free(active);
    free(left);
    free(rate);
    free(h.shared);
    free(h.rank);
    free(h.gid);
    free(h.capv);
    free(h.room);
    free(h.at);
    free(h.wsum);
    free(h.left);
    free(h.roff);
    free(h.rflow);
    free(h.rw);
    free(h.key);
    free(h.heap);
    free(h.pos);
    free(h.xres);
    free(h.alone);
    return 0;
}
