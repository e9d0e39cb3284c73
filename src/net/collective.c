#include "net/collective.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

static const char *const op_names[] = { "all-reduce", "all-gather", "reduce-scatter",
                                        "all-to-all", "sendrecv", NULL };

const char *ry_coll_op_name(ry_coll_op op)
{
    return (unsigned)op < 5 ? op_names[op] : "?";
}

int ry_coll_op_parse(const char *s)
{
    for (int i = 0; s && op_names[i]; i++)
        if (strcmp(s, op_names[i]) == 0)
            return i;
    return -1;
}

double ry_coll_bus_factor(ry_coll_op op, size_t n)
{
    double dn = (double)n;
    if (n < 1)
        return 0;
    switch (op) {
    case RY_NCCL_ALL_REDUCE:
        return 2 * (dn - 1) / dn;
    case RY_NCCL_ALL_GATHER:
    case RY_NCCL_REDUCE_SCATTER:
    case RY_NCCL_ALL_TO_ALL:
        return (dn - 1) / dn;
    case RY_NCCL_SENDRECV:
    default:
        return 1;
    }
}

void ry_coll_opts_default(ry_coll_opts *o)
{
    memset(o, 0, sizeof *o);
    o->op = RY_NCCL_ALL_REDUCE;
    o->bytes = 1073741824.0;
    o->shift = 1;
    o->pxn = 1;
    o->qps = 1;
}

/* ---- placement ---------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static int gpus_per_node(const ry_fabric *f)
{
    int g = f->spec ? f->spec->node.gpus_per_node : 0;
    return g > 0 ? g : 1;
}

int ry_job_place(const ry_fabric *f, size_t nranks, ry_placement how, uint64_t seed,
                 ry_job *job, ry_err *err)
{
    memset(job, 0, sizeof *job);
    long long g = gpus_per_node(f);
    long long total = (f->gpus + g - 1) / g;
    if (nranks < 1 || (long long)nranks > f->gpus) {
        ry_err_set(err, "ranks", "%zu ranks do not fit the cluster's %lld GPUs", nranks,
                   f->gpus);
        return -1;
    }
    long long need = ((long long)nranks + g - 1) / g;
    long long *nodes = ry_xmalloc((size_t)need * sizeof *nodes);
    if (how == RY_PLACE_SCATTERED) {
        /* A partial Fisher-Yates shuffle of the node indexes: the first
         * need positions are the draw. */
        long long *idx = ry_xmalloc((size_t)total * sizeof *idx);
        for (long long i = 0; i < total; i++)
            idx[i] = i;
        uint64_t s = seed;
        for (long long i = 0; i < need; i++) {
            uint64_t r = splitmix64(&s) % (uint64_t)(total - i);
            long long j = i + (long long)r, t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
            nodes[i] = idx[i];
        }
        free(idx);
        qsort(nodes, (size_t)need, sizeof *nodes, cmp_ll);
    } else {
        for (long long i = 0; i < need; i++)
            nodes[i] = i;
    }
    job->gpu = ry_xmalloc(nranks * sizeof *job->gpu);
    size_t r = 0;
    for (long long i = 0; i < need && r < nranks; i++)
        for (long long k = 0; k < g && r < nranks; k++) {
            long long gpu = nodes[i] * g + k;
            if (gpu >= f->gpus)
                break;
            job->gpu[r++] = (uint32_t)gpu;
        }
    job->nranks = r;
    job->nodes = need;
    job->first_node = nodes[0];
    free(nodes);
    if (r < nranks) {
        ry_err_set(err, "ranks", "%zu ranks do not fit the nodes drawn (the cluster's last node "
                   "is partly populated); choose fewer --ranks", nranks);
        ry_job_free(job);
        return -1;
    }
    return 0;
}

void ry_job_free(ry_job *job)
{
    if (!job)
        return;
    free(job->gpu);
    job->gpu = NULL;
    job->nranks = 0;
}

/* ---- the phase ---------------------------------------------------------- */

typedef struct coll_ctx {
    ry_net *net;
    const ry_fabric *f;
    ry_flows *fl;
    int pxn;
    long long gpn;
    ry_err *err;
} coll_ctx;

static int rail_design(const ry_fabric *f)
{
    return f->design == RY_DESIGN_RAIL_OPTIMIZED || f->design == RY_DESIGN_RAIL_ONLY;
}

/* The GPU of src's node on dst's rail, or src itself when none is. */
static uint32_t pxn_via(const coll_ctx *c, uint32_t src, uint32_t dst)
{
    const ry_fabric *f = c->f;
    int rail = f->nodes[dst].rail;
    long long base = (long long)src / c->gpn * c->gpn;
    for (long long k = 0; k < c->gpn && base + k < f->gpus; k++)
        if (f->nodes[base + k].rail == rail)
            return (uint32_t)(base + k);
    return src;
}

/* One hop of bytes from src to dst: NVLink inside an HB domain, else the
 * network on plane, through a GPU of dst's rail when pxn says so. */
static int hop(coll_ctx *c, uint32_t src, uint32_t dst, int plane, uint32_t conn, double bytes)
{
    const ry_fabric *f = c->f;
    if (f->nodes[src].group != f->nodes[dst].group && c->pxn && rail_design(f) &&
        f->nodes[src].rail != f->nodes[dst].rail) {
        uint32_t via = pxn_via(c, src, dst);
        if (via != src)
            return ry_net_connect_via(c->net, c->fl, src, via, dst, plane, conn, bytes, c->err);
    }
    if (ry_net_connect(c->net, c->fl, src, dst, plane, 1, conn, bytes, c->err) == 0)
        return 0;
    if (!c->pxn && f->nodes[src].rail != f->nodes[dst].rail) {
        char why[sizeof c->err->msg];
        snprintf(why, sizeof why, "%s", c->err->msg);
        ry_err_set(c->err, "pxn", "gpu%u (rail %d) to gpu%u (rail %d) crosses rails, which this "
                   "fabric cannot route from the source's own NIC (%s); NCCL crosses rails "
                   "through a GPU of the destination's rail (PXN: leave out --no-pxn)",
                   (unsigned)src, (int)f->nodes[src].rail, (unsigned)dst,
                   (int)f->nodes[dst].rail, why);
    }
    return -1;
}

/* The ring of channel ch as a sequence of GPUs: node by node, each node's
 * GPUs rotated to start at local GPU ch mod (its GPUs). */
static void ring_order(const coll_ctx *c, const ry_job *job, int ch, uint32_t *seq)
{
    size_t a = 0;
    while (a < job->nranks) {
        long long node = job->gpu[a] / c->gpn;
        size_t b = a + 1;
        while (b < job->nranks && job->gpu[b] / c->gpn == node)
            b++;
        size_t cnt = b - a, e = (size_t)ch % cnt;
        for (size_t k = 0; k < cnt; k++)
            seq[a + k] = job->gpu[a + (e + k) % cnt];
        a = b;
    }
}

static int build_ring(coll_ctx *c, const ry_job *job, int channels, double per_hop)
{
    size_t n = job->nranks;
    uint32_t *seq = ry_xmalloc(n * sizeof *seq);
    int planes = c->f->planes > 0 ? c->f->planes : 1;
    int rc = 0;
    for (int ch = 0; ch < channels && rc == 0; ch++) {
        ring_order(c, job, ch, seq);
        int plane = (int)((ch / c->gpn) % planes);
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = hop(c, seq[i], seq[(i + 1) % n], plane, (uint32_t)ch, per_hop);
    }
    free(seq);
    return rc;
}

/* bytes from src to dst, split evenly over the planes (once over NVLink). */
static int send_split(coll_ctx *c, uint32_t src, uint32_t dst, double bytes)
{
    const ry_fabric *f = c->f;
    int planes = f->planes > 0 ? f->planes : 1;
    if (f->nodes[src].group == f->nodes[dst].group)
        return hop(c, src, dst, 0, 0, bytes);
    for (int p = 0; p < planes; p++)
        if (hop(c, src, dst, p, (uint32_t)p, bytes / planes) < 0)
            return -1;
    return 0;
}

static int build_a2a(coll_ctx *c, const ry_job *job, double bytes)
{
    size_t n = job->nranks;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j && send_split(c, job->gpu[i], job->gpu[j], bytes / (double)n) < 0)
                return -1;
    return 0;
}

static int build_sendrecv(coll_ctx *c, const ry_job *job, long long shift, double bytes)
{
    long long n = (long long)job->nranks, k = ((shift % n) + n) % n;
    for (long long i = 0; i < n; i++)
        if (send_split(c, job->gpu[i], job->gpu[(i + k) % n], bytes) < 0)
            return -1;
    return 0;
}

/* Flows the phase will hold, at most (a hop inside an HB domain is one). */
static double flows_bound(const ry_fabric *f, const ry_job *job, const ry_coll_opts *o,
                          int channels)
{
    double n = (double)job->nranks, planes = f->planes > 0 ? f->planes : 1;
    double qps = o->qps > 0 ? o->qps : 1;
    switch (o->op) {
    case RY_NCCL_ALL_TO_ALL:
        return n * (n - 1) * planes * qps;
    case RY_NCCL_SENDRECV:
        return n * planes * qps;
    default:
        return n * channels * qps;
    }
}

int ry_coll_run(ry_net *n, const ry_job *job, const ry_coll_opts *o, ry_coll_result *out,
                ry_err *err)
{
    memset(out, 0, sizeof *out);
    const ry_fabric *f = ry_net_fabric(n);
    coll_ctx c = { n, f, NULL, o->pxn, gpus_per_node(f), err };
    size_t nr = job->nranks;
    if (nr < 2) {
        ry_err_set(err, "ranks", "a collective needs at least 2 ranks (got %zu)", nr);
        return -1;
    }
    if (!(o->bytes > 0)) {
        ry_err_set(err, "bytes", "the size must be more than 0 bytes");
        return -1;
    }
    if (o->op == RY_NCCL_SENDRECV && o->shift % (long long)nr == 0) {
        ry_err_set(err, "shift", "a shift of %lld sends each of the %zu ranks to itself; "
                   "expected a shift that is not a multiple of the ranks", o->shift, nr);
        return -1;
    }
    int ring = o->op <= RY_NCCL_REDUCE_SCATTER;
    int planes = f->planes > 0 ? f->planes : 1;
    int channels = o->channels > 0 ? o->channels : (int)(c.gpn * planes * 2);
    double bound = flows_bound(f, job, o, channels);
    if (bound > RY_COLL_MAX_FLOWS) {
        ry_err_set(err, "ranks", "%s of %zu ranks is %.0f flows, more than the %u one phase "
                   "may hold; choose fewer --ranks%s", ry_coll_op_name(o->op), nr, bound,
                   RY_COLL_MAX_FLOWS, ring ? " or --channels" : "");
        return -1;
    }
    ry_flows fl;
    ry_flows_init(&fl);
    c.fl = &fl;
    int rc;
    if (ring)
        rc = build_ring(&c, job, channels, ry_coll_bus_factor(o->op, nr) * o->bytes / channels);
    else if (o->op == RY_NCCL_ALL_TO_ALL)
        rc = build_a2a(&c, job, o->bytes);
    else
        rc = build_sendrecv(&c, job, o->shift, o->bytes);
    if (rc == 0)
        rc = ry_net_run(n, &fl, &out->net, NULL, err);
    out->flows = fl.n;
    ry_flows_free(&fl);
    if (rc < 0)
        return -1;
    out->channels = ring ? channels : 0;
    out->time_s = out->net.time_s;
    if (out->time_s > 0) {
        out->algbw = o->bytes / out->time_s;
        out->busbw = out->algbw * ry_coll_bus_factor(o->op, nr);
    }
    return 0;
}

/* The time the ends alone would take: each GPU's NIC links (their lower
 * end is a GPU) and NVLink, at their bytes over their rate. */
typedef struct ends_ctx {
    const ry_net *n;
    double ends;
} ends_ctx;

static void end_time(void *ctx, uint32_t res, double bytes)
{
    ends_ctx *e = ctx;
    const ry_fabric *f = ry_net_fabric(e->n);
    size_t l = res / 2;
    if (!(bytes > 0) || (l < f->nlinks && ry_port_node(f, f->links[l].lo)->kind != RY_NODE_GPU))
        return;
    double t = bytes / ry_net_capacity(e->n, res);
    if (t > e->ends)
        e->ends = t;
}

static int too_big(ry_err *err, long long count, long long ranks, double flows, int more)
{
    ry_err_set(err, "flows", "groups of %lld ranks over %lld: %s%.0f flows, more than the "
               "%.0f MiB one phase may take", count, ranks, more ? "over " : "", flows,
               RY_COLL_PHASE_BYTES / 1048576);
    return -1;
}

int ry_coll_groups(ry_net *n, const ry_job *job, ry_coll_op op, long long ranks,
                   long long stride, long long count, double bytes, int pxn,
                   ry_coll_result *out, double *share, ry_err *err)
{
    memset(out, 0, sizeof *out);
    *share = 1;
    const ry_fabric *f = ry_net_fabric(n);
    coll_ctx c = { n, f, NULL, pxn, gpus_per_node(f), err };
    if (ranks > (long long)job->nranks)
        ranks = (long long)job->nranks;
    if (count < 2 || stride < 1 || ranks < 2 || !(bytes > 0))
        return 0;
    /* The phase's memory (ry_net_bytes_estimate) within RY_COLL_PHASE_BYTES:
     * checked on the fewest flows it can hold (one a hop, two entries each),
     * as it is built and, built, with the resources its flows share. */
    size_t nres = ry_net_resources(n);
    double per = op == RY_NCCL_ALL_TO_ALL ? (double)(count - 1) : 1;
    double least = (double)ranks * per;
    if (ry_net_bytes_estimate(nres, least, 2 * least, 0, 0) > RY_COLL_PHASE_BYTES)
        return too_big(err, count, ranks, least, 0);
    ry_flows fl;
    ry_flows_init(&fl);
    c.fl = &fl;
    long long L = stride * count;
    int rc = 0;
    for (long long r = 0; r < ranks && rc == 0; r++) {
        if (ry_net_bytes_estimate(nres, (double)fl.n, (double)fl.nent, 0, 0) >
            RY_COLL_PHASE_BYTES) {
            rc = too_big(err, count, ranks, (double)fl.n, 1);
            break;
        }
        long long k = r % L / stride, first = r - k * stride;
        uint32_t src = job->gpu[r];
        if (op == RY_NCCL_ALL_TO_ALL) {
            for (long long j = 0; j < count && rc == 0; j++) {
                long long q = first + j * stride;
                if (j != k && q < ranks)
                    rc = send_split(&c, src, job->gpu[q], bytes / (double)count);
            }
            continue;
        }
        long long next = k + 1 < count && r + stride < ranks ? r + stride : -1;
        if (next < 0 && op != RY_NCCL_SENDRECV)
            next = first;                   /* the ring closes */
        if (next >= 0 && next != r)
            rc = send_split(&c, src, job->gpu[next], bytes);
    }
    if (rc == 0) {
        size_t nse, ns = ry_flows_shared(&fl, nres, &nse);
        if (ry_net_bytes_estimate(nres, (double)fl.n, (double)fl.nent, (double)ns, (double)nse) >
            RY_COLL_PHASE_BYTES)
            rc = too_big(err, count, ranks, (double)fl.n, 0);
    }
    ends_ctx e = { n, 0 };
    if (rc == 0)
        rc = ry_net_run_each(n, &fl, &out->net, end_time, &e, err);
    out->flows = fl.n;
    ry_flows_free(&fl);
    if (rc == 0 && out->net.time_s > 0) {
        out->time_s = out->net.time_s;
        *share = e.ends / out->time_s;
        if (*share > 1)
            *share = 1;
    }
    return rc;
}

void ry_coll_scale(const ry_coll_result *r, double at, double bytes, ry_coll_result *out)
{
    *out = *r;
    double k = at > 0 ? bytes / at : 0;
    out->time_s = r->time_s * k;
    out->net.time_s = r->net.time_s * k;
}
