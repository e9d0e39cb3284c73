#include "net/collective.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/alloc.h"
#include "util/words.h"

static const char *const op_names[] = { "all-reduce", "all-gather", "reduce-scatter",
                                        "all-to-all", "sendrecv", NULL };

const char *ry_coll_op_name(ry_coll_op op)
{
    return (unsigned)op < 5 ? op_names[op] : "?";
}

int ry_coll_op_parse(const char *s)
{
    return ry_word_index(op_names, s);
}

static const char *const algo_names[] = { "ring", "tree", "auto", NULL };

const char *ry_coll_algo_name(ry_coll_algo a)
{
    return (unsigned)a < 3 ? algo_names[a] : "?";
}

int ry_coll_algo_parse(const char *s)
{
    return ry_word_index(algo_names, s);
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
    o->algo = RY_ALGO_RING;
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

int ry_jobs_place(const ry_fabric *f, size_t nranks, size_t njobs, ry_placement how,
                  uint64_t seed, ry_job *jobs, ry_err *err)
{
    memset(jobs, 0, njobs * sizeof *jobs);
    long long g = gpus_per_node(f);
    long long total = (f->gpus + g - 1) / g;
    if (nranks < 1 || (long long)nranks > f->gpus) {
        ry_err_set(err, "ranks", "%zu ranks do not fit the cluster's %lld GPUs", nranks,
                   f->gpus);
        return -1;
    }
    long long need = ((long long)nranks + g - 1) / g;
    if (njobs < 1 || (double)need * (double)njobs > (double)total) {
        ry_err_set(err, "jobs", "%zu jobs of %zu ranks take %lld nodes each, %.0f in all; the "
                   "cluster has %lld", njobs, nranks, need, (double)need * (double)njobs, total);
        return -1;
    }
    long long all = need * (long long)njobs;
    long long *nodes = ry_xmalloc((size_t)all * sizeof *nodes);
    if (how == RY_PLACE_SCATTERED) {
        /* A partial Fisher-Yates shuffle of the node indexes: the first
         * `all` positions are the draw, job j's the j-th `need` of them. */
        long long *idx = ry_xmalloc((size_t)total * sizeof *idx);
        for (long long i = 0; i < total; i++)
            idx[i] = i;
        uint64_t s = seed;
        for (long long i = 0; i < all; i++) {
            uint64_t r = splitmix64(&s) % (uint64_t)(total - i);
            long long j = i + (long long)r, t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
            nodes[i] = idx[i];
        }
        free(idx);
        for (size_t j = 0; j < njobs; j++)
            qsort(nodes + (long long)j * need, (size_t)need, sizeof *nodes, cmp_ll);
    } else {
        for (long long i = 0; i < all; i++)
            nodes[i] = i;
    }
    for (size_t j = 0; j < njobs; j++) {
        ry_job *job = &jobs[j];
        const long long *mine = nodes + (long long)j * need;
        job->gpu = ry_xmalloc(nranks * sizeof *job->gpu);
        size_t r = 0;
        for (long long i = 0; i < need && r < nranks; i++)
            for (long long k = 0; k < g && r < nranks; k++) {
                long long gpu = mine[i] * g + k;
                if (gpu >= f->gpus)
                    break;
                job->gpu[r++] = (uint32_t)gpu;
            }
        job->nranks = r;
        job->nodes = need;
        job->first_node = mine[0];
        if (r < nranks) {
            ry_err_set(err, "ranks", "%zu ranks do not fit the nodes drawn (the cluster's last "
                       "node is partly populated); choose fewer --ranks", nranks);
            for (size_t i = 0; i <= j; i++)
                ry_job_free(&jobs[i]);
            free(nodes);
            return -1;
        }
    }
    free(nodes);
    return 0;
}

int ry_job_place(const ry_fabric *f, size_t nranks, ry_placement how, uint64_t seed,
                 ry_job *job, ry_err *err)
{
    return ry_jobs_place(f, nranks, 1, how, seed, job, err);
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
    double *nominal;        /* per resource: the ends' bytes as planned (NULL: not kept) */
} coll_ctx;

static void add_nominal(void *ctx, uint32_t res, double bytes)
{
    ((double *)ctx)[res] += bytes;
}

static int rail_design(const ry_fabric *f)
{
    return f->design == RY_DESIGN_RAIL_OPTIMIZED || f->design == RY_DESIGN_RAIL_ONLY;
}

/* The GPU of src's HB domain on dst's rail (NVLink reaches it: in src's
 * node, or another node of a multi-node domain such as a DGX GH200's 256
 * superchips), or src itself when none is. The domain's GPUs are
 * consecutive; its GPU of local index r is usually rail r, so that one is
 * tried first. On rail-only, where nothing else reaches dst's rail, a
 * domain with none at those places lends the one at dst's place in its own
 * domain when on that rail, else its first on the rail. */
static uint32_t pxn_via(const coll_ctx *c, uint32_t src, uint32_t dst)
{
    const ry_fabric *f = c->f;
    int rail = f->nodes[dst].rail;
    /* the source's own node first (a tray of an NVL72 has a NIC on every rail) */
    long long nb = (long long)src / c->gpn * c->gpn;
    for (long long k = 0; k < c->gpn && nb + k < f->gpus; k++)
        if (nb + k != (long long)src && f->nodes[nb + k].rail == rail &&
            f->nodes[nb + k].group == f->nodes[src].group)
            return (uint32_t)(nb + k);
    long long K = f->spec && f->spec->hb_domain > c->gpn ? f->spec->hb_domain : c->gpn;
    long long base = (long long)src / K * K;
    if (rail >= 0 && rail < K && base + rail < f->gpus && f->nodes[base + rail].rail == rail &&
        f->nodes[base + rail].group == f->nodes[src].group)
        return (uint32_t)(base + rail);
    for (long long k = 0; k < K && base + k < f->gpus; k++)
        if (f->nodes[base + k].rail == rail && f->nodes[base + k].group == f->nodes[src].group)
            return (uint32_t)(base + k);
    if (f->design != RY_DESIGN_RAIL_ONLY)
        return src;
    long long s0 = src, d0 = dst;
    while (s0 > 0 && f->nodes[s0 - 1].group == f->nodes[src].group)
        s0--;
    while (d0 > 0 && f->nodes[d0 - 1].group == f->nodes[dst].group)
        d0--;
    long long at = s0 + ((long long)dst - d0);
    if (at < f->gpus && f->nodes[at].group == f->nodes[src].group && f->nodes[at].rail == rail)
        return (uint32_t)at;
    for (long long g = s0; g < f->gpus && f->nodes[g].group == f->nodes[src].group; g++)
        if (f->nodes[g].rail == rail)
            return (uint32_t)g;
    return src;
}

/* One hop of bytes from src to dst: NVLink inside an HB domain, else the
 * network on plane, through a GPU of dst's rail when pxn says so. */
static int hop(coll_ctx *c, uint32_t src, uint32_t dst, int plane, uint32_t conn, double bytes)
{
    const ry_fabric *f = c->f;
    uint32_t via = src;
    if (f->nodes[src].group != f->nodes[dst].group && c->pxn && rail_design(f) &&
        f->nodes[src].rail != f->nodes[dst].rail)
        via = pxn_via(c, src, dst);
    if (c->nominal)
        ry_net_end_loads(c->net, src, via, dst, plane, bytes, add_nominal, c->nominal);
    if (via != src)
        return ry_net_connect_via(c->net, c->fl, src, via, dst, plane, conn, bytes, c->err);
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

/* ---- tree, NVLS, SHARP ------------------------------------------------ */

/* The parent of position r in NCCL's binary tree of m positions rooted at
 * 0 (-1 for the root): clear r's lowest set bit and set the next one up,
 * or, past the end, only clear it. Leaves are the odd positions. */
static long long btree_parent(long long r, long long m)
{
    if (r == 0)
        return -1;
    long long bit = r & -r, up = (r ^ bit) | (bit << 1);
    return up < m ? up : (r ^ bit);
}

/* Which of m members sits at position p of tree t of the double binary
 * tree: tree 0 as is; tree 1 mirrored (m even) or shifted by one (m odd),
 * so that a member inside one tree is a leaf of the other. */
static long long dtree_member(int t, long long p, long long m)
{
    if (t == 0)
        return p;
    return m % 2 == 0 ? m - 1 - p : (p + 1) % m;
}

/* The job's ranks in runs of one node (by == 0) or one HB domain (by ==
 * 1): start[i], count[i]; returns the runs (start and count hold n). */
static size_t runs_of(const coll_ctx *c, const ry_job *job, int by, size_t *start, size_t *count)
{
    size_t k = 0, a = 0;
    while (a < job->nranks) {
        uint32_t g0 = job->gpu[a];
        size_t b = a + 1;
        while (b < job->nranks &&
               (by ? c->f->nodes[job->gpu[b]].group == c->f->nodes[g0].group
                   : job->gpu[b] / c->gpn == g0 / c->gpn))
            b++;
        start[k] = a;
        count[k++] = b - a;
        a = b;
    }
    return k;
}

/* Both ways between a and b, bytes each. */
static int both_ways(coll_ctx *c, uint32_t a, uint32_t b, int plane, uint32_t conn, double bytes)
{
    if (hop(c, a, b, plane, conn, bytes) < 0)
        return -1;
    return hop(c, b, a, plane, conn, bytes);
}

/* Tree all-reduce as NCCL runs it: channel ch carries S / C through tree
 * ch mod 2 of the double binary tree across nodes; inside each node a
 * chain of its GPUs from local GPU (ch / 2) mod g, whose first (the head)
 * is the node's member of the tree. Pipelined steady state: every edge of
 * chain and tree carries S / C up (reduce) and S / C down (broadcast) at
 * once; one phase. */
static int build_tree(coll_ctx *c, const ry_job *job, int channels, double bytes)
{
    size_t n = job->nranks;
    size_t *start = ry_xmalloc(n * sizeof *start), *count = ry_xmalloc(n * sizeof *count);
    size_t m = runs_of(c, job, 0, start, count);
    uint32_t *head = ry_xmalloc(m * sizeof *head);
    int planes = c->f->planes > 0 ? c->f->planes : 1;
    double per = bytes / channels;
    int rc = 0;
    for (int ch = 0; ch < channels && rc == 0; ch++) {
        int t = ch % 2, plane = (int)((ch / (2 * c->gpn)) % planes);
        for (size_t i = 0; i < m && rc == 0; i++) {
            size_t h = (size_t)(ch / 2) % count[i];
            head[i] = job->gpu[start[i] + h];
            for (size_t k = 0; k + 1 < count[i] && rc == 0; k++)
                rc = both_ways(c, job->gpu[start[i] + (h + k) % count[i]],
                               job->gpu[start[i] + (h + k + 1) % count[i]], plane,
                               (uint32_t)ch, per);
        }
        for (long long p = 1; p < (long long)m && rc == 0; p++) {
            long long q = btree_parent(p, (long long)m);
            rc = both_ways(c, head[dtree_member(t, p, (long long)m)],
                           head[dtree_member(t, q, (long long)m)], plane, (uint32_t)ch, per);
        }
    }
    free(head);
    free(start);
    free(count);
    return rc;
}

/* A flow of bytes over one resource. */
static void one_res(coll_ctx *c, uint32_t res, double bytes)
{
    ry_flows_add(c->fl, bytes, &res, NULL, 1);
}

/* bytes up from GPU g's NIC to its leaf and bytes down, split over the
 * planes: the ends of an aggregation tree that reduces in the switches. */
static int sharp_ends(coll_ctx *c, uint32_t g, double bytes)
{
    const ry_fabric *f = c->f;
    int planes = f->planes > 0 ? f->planes : 1;
    for (int p = 0; p < planes; p++) {
        int32_t l = f->ports[f->nodes[g].port0 + (uint32_t)p].link;
        if (l < 0) {
            char a[96];
            ry_node_name(f, g, a, sizeof a);
            ry_err_set(c->err, "sharp", "%s has no link on plane %d to reach the switches' "
                       "reduction", a, p);
            return -1;
        }
        one_res(c, 2 * (uint32_t)l, bytes / planes);
        one_res(c, 2 * (uint32_t)l + 1, bytes / planes);
    }
    return 0;
}

/* All-reduce in two levels, inside each HB domain and across them. Inside
 * (m GPUs): with NVLS each GPU sends S to the NVLink switch and receives S
 * back (multimem reduce and broadcast); without it a reduce-scatter and an
 * all-gather to every peer directly, 2S/m to each. Across (D >= 2
 * domains): the GPU of each domain's local index k (the shard of S / M, M
 * the most GPUs a domain has, held in a smaller domain by its GPU k mod m)
 * all-reduces its shard with the others of index k: SHARP (inter 2: S / M
 * up its NIC and S / M down), a ring of the D (inter 0: 2(D-1)/D of the
 * shard each hop) or the double binary tree (inter 1: each tree half the
 * shard, each edge both ways). One phase, all at once. */
static int build_hier(coll_ctx *c, const ry_job *job, int nvls, int inter, double S)
{
    size_t n = job->nranks;
    size_t *start = ry_xmalloc(n * sizeof *start), *count = ry_xmalloc(n * sizeof *count);
    size_t D = runs_of(c, job, 1, start, count), M = 0;
    uint32_t nvl = 2 * (uint32_t)c->f->nlinks;
    int rc = 0;
    for (size_t d = 0; d < D && rc == 0; d++) {
        size_t cnt = count[d];
        M = cnt > M ? cnt : M;
        if (cnt < 2)
            continue;
        for (size_t i = 0; i < cnt && rc == 0; i++) {
            uint32_t g = job->gpu[start[d] + i];
            if (nvls) {
                one_res(c, nvl + 2 * g, S);
                one_res(c, nvl + 2 * g + 1, S);
                continue;
            }
            for (size_t j = 0; j < cnt && rc == 0; j++)
                if (j != i)
                    rc = hop(c, g, job->gpu[start[d] + j], 0, 0, 2 * S / (double)cnt);
        }
    }
    uint32_t *mem = ry_xmalloc((D ? D : 1) * sizeof *mem);
    double shard = M ? S / (double)M : 0;
    for (size_t k = 0; D >= 2 && k < M && rc == 0; k++) {
        for (size_t d = 0; d < D; d++)
            mem[d] = job->gpu[start[d] + k % count[d]];
        if (inter == 2) {
            for (size_t d = 0; d < D && rc == 0; d++)
                rc = sharp_ends(c, mem[d], shard);
        } else if (inter == 0) {
            double per = 2.0 * (double)(D - 1) / (double)D * shard;
            for (size_t d = 0; d < D && rc == 0; d++)
                rc = send_split(c, mem[d], mem[(d + 1) % D], per);
        } else {
            for (int t = 0; t < 2 && rc == 0; t++)
                for (long long p = 1; p < (long long)D && rc == 0; p++) {
                    long long q = btree_parent(p, (long long)D);
                    uint32_t a = mem[dtree_member(t, p, (long long)D)];
                    uint32_t b = mem[dtree_member(t, q, (long long)D)];
                    rc = send_split(c, a, b, shard / 2);
                    if (rc == 0)
                        rc = send_split(c, b, a, shard / 2);
                }
        }
    }
    free(mem);
    free(start);
    free(count);
    return rc;
}

/* HB domains the job's ranks are in (runs of one domain). */
static size_t domains_of(const ry_fabric *f, const ry_job *job)
{
    size_t d = job->nranks ? 1 : 0;
    for (size_t i = 1; i < job->nranks; i++)
        d += f->nodes[job->gpu[i]].group != f->nodes[job->gpu[i - 1]].group;
    return d;
}

/* Most GPUs of the job in one HB domain. */
static size_t domain_max(const ry_fabric *f, const ry_job *job)
{
    size_t best = 0, run = 0;
    for (size_t i = 0; i < job->nranks; i++) {
        run = i && f->nodes[job->gpu[i]].group == f->nodes[job->gpu[i - 1]].group ? run + 1 : 1;
        best = run > best ? run : best;
    }
    return best;
}

/* How one job's all-reduce runs: the plan's word and its parts. */
typedef enum { PLAN_RING, PLAN_TREE, PLAN_NVLS, PLAN_HIER } plan_kind;
typedef struct coll_plan {
    plan_kind kind;
    int nvls, inter;        /* PLAN_HIER: NVLS inside, and across: 0 ring, 1 tree, 2 SHARP */
    char name[16];          /* "ring", "tree", "nvls", "sharp", "nvls+ring" ... */
} coll_plan;

/* The plan of job under o with the algorithm across nodes algo (ring or
 * tree; SHARP, when on, replaces it). */
static void plan_of(const ry_fabric *f, const ry_job *job, const ry_coll_opts *o, int algo,
                    coll_plan *p)
{
    memset(p, 0, sizeof *p);
    p->kind = PLAN_RING;
    if (o->op == RY_NCCL_ALL_REDUCE) {
        size_t D = domains_of(f, job);
        if (o->nvls && D == 1)
            p->kind = PLAN_NVLS;
        else if (D > 1 && (o->sharp || o->nvls)) {
            p->kind = PLAN_HIER;
            p->nvls = o->nvls;
            p->inter = o->sharp ? 2 : algo == RY_ALGO_TREE;
        } else if (algo == RY_ALGO_TREE)
            p->kind = PLAN_TREE;
    }
    static const char *const inter_names[] = { "ring", "tree", "sharp" };
    switch (p->kind) {
    case PLAN_TREE:
        snprintf(p->name, sizeof p->name, "tree");
        break;
    case PLAN_NVLS:
        snprintf(p->name, sizeof p->name, "nvls");
        break;
    case PLAN_HIER:
        snprintf(p->name, sizeof p->name, "%s%s", p->nvls ? "nvls+" : "", inter_names[p->inter]);
        break;
    default:
        snprintf(p->name, sizeof p->name, o->op <= RY_NCCL_REDUCE_SCATTER ? "ring" : "direct");
    }
}

/* Flows the job's phase will hold, at most (a hop inside an HB domain is one). */
static double flows_bound(const ry_fabric *f, const ry_job *job, const ry_coll_opts *o,
                          const coll_plan *p, int channels)
{
    double n = (double)job->nranks, planes = f->planes > 0 ? f->planes : 1;
    double qps = o->qps > 0 ? o->qps : 1;
    switch (o->op) {
    case RY_NCCL_ALL_TO_ALL:
        return n * (n - 1) * planes * qps;
    case RY_NCCL_SENDRECV:
        return n * planes * qps;
    default:
        break;
    }
    switch (p->kind) {
    case PLAN_TREE:
        return 2 * n * channels * qps;
    case PLAN_NVLS:
        return 2 * n;
    case PLAN_HIER:
        return n * (double)domain_max(f, job) + 4 * n * planes * qps;
    default:
        return n * channels * qps;
    }
}

/* Every check of o against the fabric and the jobs, before a flow. */
static int coll_check(const ry_fabric *f, const ry_job *jobs, size_t njobs,
                      const ry_coll_opts *o, ry_err *err)
{
    for (size_t j = 0; j < njobs; j++) {
        size_t nr = jobs[j].nranks;
        if (nr < 2) {
            ry_err_set(err, "ranks", "a collective needs at least 2 ranks (got %zu)", nr);
            return -1;
        }
        if (o->op == RY_NCCL_SENDRECV && o->shift % (long long)nr == 0) {
            ry_err_set(err, "shift", "a shift of %lld sends each of the %zu ranks to itself; "
                       "expected a shift that is not a multiple of the ranks", o->shift, nr);
            return -1;
        }
    }
    if (!(o->bytes > 0)) {
        ry_err_set(err, "bytes", "the size must be more than 0 bytes");
        return -1;
    }
    if (o->hierarchical && o->op != RY_NCCL_ALL_TO_ALL) {
        ry_err_set(err, "all_to_all", "--hierarchical (network.all_to_all: hierarchical) is "
                   "all-to-all's; %s has no hierarchical form (expected direct)",
                   ry_coll_op_name(o->op));
        return -1;
    }
    if (o->algo == RY_ALGO_TREE && o->op != RY_NCCL_ALL_REDUCE) {
        ry_err_set(err, "algorithm", "tree is an all-reduce algorithm; %s runs as a ring "
                   "(expected ring or auto)", ry_coll_op_name(o->op));
        return -1;
    }
    const ry_spec *s = f->spec;
    if (o->sharp) {
        if (s && ry_spec_is_ethernet(s)) {
            ry_err_set(err, "sharp", "SHARP reduces in InfiniBand switches; this fabric's "
                       "switches (%s) are Ethernet (expected false)", s->sw.name);
            return -1;
        }
        for (int t = 1; t <= f->tiers; t++) {
            const ry_switch_model *m = f->tier[t].sw ? f->tier[t].sw : s ? &s->sw : NULL;
            if (m && !m->sharp) {
                ry_err_set(err, "sharp", "the %s switches of tier %d do not reduce in the "
                           "network: SHARP needs switches with sharp: true in the catalog "
                           "(NVIDIA Quantum, Quantum-2, Quantum-X800: qm8700, qm9700, "
                           "q3400 ...) (expected false)", m->name, t);
                return -1;
            }
        }
    }
    if (o->nvls && (s ? s->hb_domain : 1) < 2) {
        ry_err_set(err, "nvls", "NVLS reduces in the NVLink switches of an HB domain; this "
                   "cluster's HB domain is %d GPU (expected false)", s ? s->hb_domain : 1);
        return -1;
    }
    return 0;
}

/* Builds every job's flows under algo (ring or tree), runs the phase and
 * fills out[j]. */
static int run_with(ry_net *n, const ry_job *jobs, size_t njobs, const ry_coll_opts *o,
                    int algo, ry_coll_result *out, ry_err *err)
{
    const ry_fabric *f = ry_net_fabric(n);
    coll_ctx c = { n, f, NULL, o->pxn, gpus_per_node(f), err, NULL };
    int ring = o->op <= RY_NCCL_REDUCE_SCATTER;
    int planes = f->planes > 0 ? f->planes : 1;
    int channels = o->channels > 0 ? o->channels : (int)(c.gpn * planes * 2);
    coll_plan *plan = ry_xcalloc(njobs, sizeof *plan);
    double bound = 0;
    for (size_t j = 0; j < njobs; j++) {
        plan_of(f, &jobs[j], o, algo, &plan[j]);
        bound += flows_bound(f, &jobs[j], o, &plan[j], channels);
    }
    if (bound > RY_COLL_MAX_FLOWS) {
        ry_err_set(err, "ranks", "%s of %zu ranks%s is %.0f flows, more than the %u one phase "
                   "may hold; choose fewer --ranks%s%s", ry_coll_op_name(o->op), jobs[0].nranks,
                   njobs > 1 ? " in each job" : "", bound, RY_COLL_MAX_FLOWS,
                   njobs > 1 ? " or --jobs" : "", ring ? " or --channels" : "");
        free(plan);
        return -1;
    }
    ry_flows fl;
    ry_flows_init(&fl);
    c.fl = &fl;
    size_t *first = ry_xmalloc((njobs + 1) * sizeof *first);
    int rc = 0;
    for (size_t j = 0; j < njobs && rc == 0; j++) {
        const ry_job *job = &jobs[j];
        size_t nr = job->nranks;
        first[j] = fl.n;
        switch (plan[j].kind) {
        case PLAN_TREE:
            rc = build_tree(&c, job, channels, o->bytes);
            break;
        case PLAN_NVLS:
        case PLAN_HIER:
            rc = build_hier(&c, job, plan[j].nvls || plan[j].kind == PLAN_NVLS, plan[j].inter,
                            o->bytes);
            break;
        default:
            if (ring)
                rc = build_ring(&c, job, channels,
                                ry_coll_bus_factor(o->op, nr) * o->bytes / channels);
            else if (o->op == RY_NCCL_ALL_TO_ALL)
                rc = build_a2a(&c, job, o->bytes);
            else
                rc = build_sendrecv(&c, job, o->shift, o->bytes);
        }
    }
    first[njobs] = fl.n;
    ry_net_result net;
    memset(&net, 0, sizeof net);
    if (rc == 0)
        rc = ry_net_run(n, &fl, &net, NULL, err);
    for (size_t j = 0; j < njobs && rc == 0; j++) {
        ry_coll_result *r = &out[j];
        memset(r, 0, sizeof *r);
        r->net = net;
        r->flows = first[j + 1] - first[j];
        r->channels = plan[j].kind == PLAN_TREE || (plan[j].kind == PLAN_RING && ring)
                      ? channels : 0;
        snprintf(r->algorithm, sizeof r->algorithm, "%s", plan[j].name);
        if (njobs == 1)
            r->time_s = net.time_s;
        else
            for (size_t i = first[j]; i < first[j + 1]; i++)
                r->time_s = fl.done[i] > r->time_s ? fl.done[i] : r->time_s;
        if (r->time_s > 0) {
            r->algbw = o->bytes / r->time_s;
            r->busbw = r->algbw * ry_coll_bus_factor(o->op, jobs[j].nranks);
        }
    }
    if (rc < 0 && njobs == 1)
        out[0].flows = fl.n;
    free(first);
    free(plan);
    ry_flows_free(&fl);
    return rc;
}

/* ---- hierarchical all-to-all -------------------------------------------- */

/* The first GPU of g's HB domain (its domain's GPUs are consecutive). */
/* The GPU of src's domain (starting at s0) that gathers src's bytes for dst
 * (its domain starting at d0): the one at dst's place in its domain, when it
 * exists and, on a rail design, is on dst's rail; else the PXN relay, or
 * src itself. */
static uint32_t hier_via(const coll_ctx *c, uint32_t src, uint32_t s0, uint32_t dst, uint32_t d0)
{
    const ry_fabric *f = c->f;
    long long v = (long long)s0 + ((long long)dst - d0);
    if (v < f->gpus && f->nodes[v].group == f->nodes[src].group &&
        (!rail_design(f) || f->nodes[v].rail == f->nodes[dst].rail))
        return (uint32_t)v;
    return rail_design(f) ? pxn_via(c, src, dst) : src;
}

/* One job's two phases into fl1 (NVLink, inside the domains) and fl2 (the
 * network, between them). */
static int build_hier_a2a(coll_ctx *c, const ry_job *job, double bytes, ry_flows *fl1,
                          ry_flows *fl2)
{
    const ry_fabric *f = c->f;
    size_t n = job->nranks;
    double b = bytes / (double)n;
    /* each rank's domain, found once a domain; K its most GPUs (a relay
     * may lie past the job's last GPU in it) */
    uint32_t *start = ry_xmalloc(n * sizeof *start);
    long long K = 1;
    for (size_t r = 0; r < n; r++) {
        if (r && f->nodes[job->gpu[r]].group == f->nodes[job->gpu[r - 1]].group) {
            start[r] = start[r - 1];
            continue;
        }
        uint32_t end;
        start[r] = ry_net_domain(f, job->gpu[r], &end);
        if ((long long)(end - start[r]) > K)
            K = (long long)(end - start[r]);
    }
    double *acc = ry_xcalloc((size_t)K, sizeof *acc);
    int rc = 0, pxn = c->pxn;
    /* phase 1: each source's bytes gathered by relay */
    c->fl = fl1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint32_t src = job->gpu[i];
        for (size_t j = 0; j < n; j++)
            if (j != i)
                acc[hier_via(c, src, start[i], job->gpu[j], start[j]) - start[i]] += b;
        for (long long k = 0; k < K && rc == 0; k++)
            if (acc[k] > 0 && start[i] + (uint32_t)k != src)
                rc = hop(c, src, start[i] + (uint32_t)k, 0, 0, acc[k]);
        memset(acc, 0, (size_t)K * sizeof *acc);
    }
    /* phase 2: to each destination, what each relay of a source domain holds */
    c->fl = fl2;
    c->pxn = 0;
    for (size_t j = 0; j < n && rc == 0; j++) {
        uint32_t dst = job->gpu[j];
        size_t a = 0;
        while (a < n && rc == 0) {
            size_t e = a;
            while (e < n && start[e] == start[a])
                e++;
            if (f->nodes[job->gpu[a]].group != f->nodes[dst].group) {
                for (size_t i = a; i < e; i++)
                    acc[hier_via(c, job->gpu[i], start[i], dst, start[j]) - start[a]] += b;
                for (long long k = 0; k < K && rc == 0; k++)
                    if (acc[k] > 0)
                        rc = send_split(c, start[a] + (uint32_t)k, dst, acc[k]);
                memset(acc, 0, (size_t)K * sizeof *acc);
            }
            a = e;
        }
    }
    c->pxn = pxn;
    free(acc);
    free(start);
    return rc;
}

/* The latest completion among flows [a, b) of a run phase. */
static double last_done(const ry_flows *fl, size_t a, size_t b)
{
    double t = 0;
    for (size_t i = a; i < b; i++)
        t = fl->done[i] > t ? fl->done[i] : t;
    return t;
}

static int run_hier_a2a(ry_net *n, const ry_job *jobs, size_t njobs, const ry_coll_opts *o,
                        ry_coll_result *out, ry_err *err)
{
    const ry_fabric *f = ry_net_fabric(n);
    coll_ctx c = { n, f, NULL, o->pxn, gpus_per_node(f), err, NULL };
    double planes = f->planes > 0 ? f->planes : 1, qps = o->qps > 0 ? o->qps : 1;
    double b1 = 0, b2 = 0;
    for (size_t j = 0; j < njobs; j++) {
        /* a GPU's NVLink flows: one to each other GPU of its domain; its
         * network flows: one to each GPU at its place in the other domains */
        double nr = (double)jobs[j].nranks, m = (double)domain_max(f, &jobs[j]);
        double d = (double)domains_of(f, &jobs[j]);
        b1 += nr * (m - 1);
        b2 += nr * (d - 1) * planes * qps;
    }
    if (b1 > RY_COLL_MAX_FLOWS || b2 > RY_COLL_MAX_FLOWS) {
        ry_err_set(err, "ranks", "a hierarchical all-to-all of %zu ranks%s is up to %.0f flows "
                   "in its %s phase, more than the %u one phase may hold; choose fewer --ranks%s",
                   jobs[0].nranks, njobs > 1 ? " in each job" : "", b1 > b2 ? b1 : b2,
                   b1 > b2 ? "first" : "second", RY_COLL_MAX_FLOWS, njobs > 1 ? " or --jobs" : "");
        return -1;
    }
    ry_flows fl1, fl2;
    ry_flows_init(&fl1);
    ry_flows_init(&fl2);
    size_t *first = ry_xmalloc(2 * (njobs + 1) * sizeof *first);
    int rc = 0;
    for (size_t j = 0; j < njobs && rc == 0; j++) {
        first[2 * j] = fl1.n;
        first[2 * j + 1] = fl2.n;
        rc = build_hier_a2a(&c, &jobs[j], o->bytes, &fl1, &fl2);
    }
    first[2 * njobs] = fl1.n;
    first[2 * njobs + 1] = fl2.n;
    ry_net_result r1, r2;
    memset(&r1, 0, sizeof r1);
    memset(&r2, 0, sizeof r2);
    r1.bottleneck = r2.bottleneck = UINT32_MAX;
    if (rc == 0 && fl1.n)
        rc = ry_net_run(n, &fl1, &r1, NULL, err);
    if (rc == 0 && fl2.n)
        rc = ry_net_run(n, &fl2, &r2, NULL, err);
    for (size_t j = 0; j < njobs && rc == 0; j++) {
        ry_coll_result *r = &out[j];
        memset(r, 0, sizeof *r);
        r->net = r2.time_s >= r1.time_s ? r2 : r1;
        r->flows = first[2 * j + 2] - first[2 * j] + first[2 * j + 3] - first[2 * j + 1];
        snprintf(r->algorithm, sizeof r->algorithm, "hierarchical");
        r->time_s = last_done(&fl1, first[2 * j], first[2 * j + 2]) +
                    last_done(&fl2, first[2 * j + 1], first[2 * j + 3]);
        if (r->time_s > 0) {
            r->algbw = o->bytes / r->time_s;
            r->busbw = r->algbw * ry_coll_bus_factor(o->op, jobs[j].nranks);
        }
    }
    free(first);
    ry_flows_free(&fl1);
    ry_flows_free(&fl2);
    return rc;
}

static double slowest(const ry_coll_result *r, size_t k)
{
    double t = 0;
    for (size_t j = 0; j < k; j++)
        t = r[j].time_s > t ? r[j].time_s : t;
    return t;
}

int ry_coll_run_jobs(ry_net *n, const ry_job *jobs, size_t njobs, const ry_coll_opts *o,
                     ry_coll_result *out, ry_err *err)
{
    memset(out, 0, njobs * sizeof *out);
    if (njobs < 1) {
        ry_err_set(err, "jobs", "no job to run");
        return -1;
    }
    if (coll_check(ry_net_fabric(n), jobs, njobs, o, err) < 0)
        return -1;
    if (o->hierarchical)
        return run_hier_a2a(n, jobs, njobs, o, out, err);
    /* auto: the faster of ring and tree across nodes, the ring on a tie
     * (only all-reduce without SHARP has the choice). */
    if (o->algo != RY_ALGO_AUTO || o->op != RY_NCCL_ALL_REDUCE || o->sharp)
        return run_with(n, jobs, njobs, o, o->algo == RY_ALGO_TREE ? RY_ALGO_TREE : RY_ALGO_RING,
                        out, err);
    if (run_with(n, jobs, njobs, o, RY_ALGO_RING, out, err) < 0)
        return -1;
    ry_coll_result *tree = ry_xcalloc(njobs, sizeof *tree);
    int rc = run_with(n, jobs, njobs, o, RY_ALGO_TREE, tree, err);
    if (rc == 0 && slowest(tree, njobs) < slowest(out, njobs))
        memcpy(out, tree, njobs * sizeof *out);
    free(tree);
    return rc;
}

int ry_coll_run(ry_net *n, const ry_job *job, const ry_coll_opts *o, ry_coll_result *out,
                ry_err *err)
{
    return ry_coll_run_jobs(n, job, 1, o, out, err);
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

/* The flows a group phase's loads are summed from at a time: a phase of
 * any size is placed in batches of this many (ry_coll_groups_load). */
#define RY_COLL_LOAD_BATCH 65536

typedef struct group_load {
    ry_res_visit visit;
    void *ctx;
    size_t nres2;               /* 2 x the fabric's links: the link resources */
    ry_coll_load *out;
} group_load;

/* The batch's loads handed on, and the batch emptied. */
static void flush_loads(ry_flows *fl, group_load *g)
{
    for (size_t i = 0; i < fl->n; i++) {
        double links = 0;
        for (size_t e = fl->off[i]; e < fl->off[i + 1]; e++) {
            g->visit(g->ctx, fl->res[e], fl->bytes[i] * fl->w[e]);
            if (fl->res[e] < g->nres2)
                links += fl->w[e];
        }
        /* a spread flow's shares of each hop sum to 1 */
        g->out->crossings += (long long)(links + 0.5);
        if (links > 0)
            g->out->net_flows++;
    }
    g->out->flows += fl->n;
    ry_flows_clear(fl);
}

static int too_big(ry_err *err, long long count, long long ranks, double flows, int more)
{
    ry_err_set(err, "flows", "groups of %lld ranks over %lld: %s%.0f flows, more than the "
               "%.0f MiB one phase may take", count, ranks, more ? "over " : "", flows,
               RY_COLL_PHASE_BYTES / 1048576);
    return -1;
}

/* The flows of a group phase (ry_coll_groups), flushed to gl in batches
 * when gl is not NULL; back: SENDRECV's members also send to the one
 * before. nres nonzero (the engine's resources): the phase built whole
 * stops once its memory (ry_net_bytes_estimate) passes RY_COLL_PHASE_BYTES. */
static int build_groups(coll_ctx *c, const ry_job *job, ry_coll_op op, long long ranks,
                        long long stride, long long count, double bytes, int back,
                        group_load *gl, size_t nres)
{
    long long L = stride * count;
    int rc = 0;
    for (long long r = 0; r < ranks && rc == 0; r++) {
        if (nres && ry_net_bytes_estimate(nres, (double)c->fl->n, (double)c->fl->nent, 0, 0) >
                        RY_COLL_PHASE_BYTES) {
            rc = too_big(c->err, count, ranks, (double)c->fl->n, 1);
            break;
        }
        long long k = r % L / stride, first = r - k * stride;
        uint32_t src = job->gpu[r];
        if (gl && c->fl->n >= RY_COLL_LOAD_BATCH)
            flush_loads(c->fl, gl);
        if (op == RY_NCCL_ALL_TO_ALL) {
            for (long long j = 0; j < count && rc == 0; j++) {
                long long q = first + j * stride;
                if (j != k && q < ranks)
                    rc = send_split(c, src, job->gpu[q], bytes / (double)count);
            }
            continue;
        }
        long long next = k + 1 < count && r + stride < ranks ? r + stride : -1;
        if (next < 0 && op != RY_NCCL_SENDRECV)
            next = first;                   /* the ring closes */
        if (next >= 0 && next != r)
            rc = send_split(c, src, job->gpu[next], bytes);
        if (rc == 0 && back && op == RY_NCCL_SENDRECV && k > 0)
            rc = send_split(c, src, job->gpu[r - stride], bytes);
    }
    if (gl && rc == 0)
        flush_loads(c->fl, gl);
    return rc;
}

/* The ranks a group phase takes (at most the job's), or 0 when it has
 * nothing to send: groups of fewer than 2, fewer than 2 ranks, no bytes. */
static long long groups_ranks(const ry_job *job, long long ranks, long long stride,
                              long long count, double bytes)
{
    if (ranks > (long long)job->nranks)
        ranks = (long long)job->nranks;
    return count < 2 || stride < 1 || ranks < 2 || !(bytes > 0) ? 0 : ranks;
}

/* The most flows a group phase makes: each hop one connection of qps
 * queue pairs on each plane (a PXN hop's NVLink part is in the same flow;
 * a hop over NVLink alone is one). -1 with err set past RY_COLL_MAX_FLOWS. */
static int groups_bound(const ry_net *n, ry_coll_op op, long long ranks, long long count,
                        int back, ry_err *err)
{
    const ry_fabric *f = ry_net_fabric(n);
    double planes = f->planes > 0 ? f->planes : 1;
    double per = op == RY_NCCL_ALL_TO_ALL ? (double)(count - 1) : back ? 2 : 1;
    double bound = (double)ranks * per * planes * ry_net_qps(n);
    if (bound > RY_COLL_MAX_FLOWS) {
        ry_err_set(err, "flows", "groups of %lld ranks over %lld: up to %.0f flows, more than "
                   "the %u one phase may hold", count, ranks, bound, RY_COLL_MAX_FLOWS);
        return -1;
    }
    return 0;
}

int ry_coll_groups(ry_net *n, const ry_job *job, ry_coll_op op, long long ranks,
                   long long stride, long long count, double bytes, int pxn,
                   ry_coll_result *out, double *share, ry_err *err)
{
    memset(out, 0, sizeof *out);
    *share = 1;
    const ry_fabric *f = ry_net_fabric(n);
    coll_ctx c = { n, f, NULL, pxn, gpus_per_node(f), err, NULL };
    if ((ranks = groups_ranks(job, ranks, stride, count, bytes)) == 0)
        return 0;
    /* The phase's memory (ry_net_bytes_estimate) within RY_COLL_PHASE_BYTES:
     * checked on the fewest flows it can hold (one a hop, two entries each),
     * as it is built and, built, with the resources its flows share. */
    size_t nres = ry_net_resources(n);
    double per = op == RY_NCCL_ALL_TO_ALL ? (double)(count - 1) : 1;
    double least = (double)ranks * per;
    if (ry_net_bytes_estimate(nres, least, 2 * least, 0, 0) > RY_COLL_PHASE_BYTES)
        return too_big(err, count, ranks, least, 0);
    /* the engine's own flows: their memory kept from one phase to the next */
    ry_flows *fl = ry_net_scratch(n);
    c.fl = fl;
    /* with something down, the ends as planned: relaying around a dead
     * port loads other GPUs' links, which the share must count */
    if (ry_net_down_any(n))
        c.nominal = ry_xcalloc(nres, sizeof *c.nominal);
    int rc = build_groups(&c, job, op, ranks, stride, count, bytes, 0, NULL, nres);
    /* with every entry on a shared resource, the most it can take */
    if (rc == 0 && ry_net_bytes_estimate(nres, (double)fl->n, (double)fl->nent, (double)fl->nent,
                                         (double)fl->nent) > RY_COLL_PHASE_BYTES) {
        size_t nse, ns = ry_flows_shared(fl, nres, &nse);
        if (ry_net_bytes_estimate(nres, (double)fl->n, (double)fl->nent, (double)ns, (double)nse) >
            RY_COLL_PHASE_BYTES)
            rc = too_big(err, count, ranks, (double)fl->n, 0);
    }
    ends_ctx e = { n, 0 };
    if (rc == 0)
        rc = ry_net_run_each(n, fl, &out->net, end_time, &e, err);
    if (c.nominal) {
        e.ends = 0;
        for (size_t r = 0; r < nres; r++)
            if (c.nominal[r] > 0)
                end_time(&e, (uint32_t)r, c.nominal[r]);
        free(c.nominal);
    }
    out->flows = fl->n;
    ry_flows_clear(fl);
    if (rc == 0 && out->net.time_s > 0) {
        out->time_s = out->net.time_s;
        *share = e.ends / out->time_s;
        if (*share > 1)
            *share = 1;
    }
    return rc;
}

int ry_coll_groups_load(ry_net *n, const ry_job *job, ry_coll_op op, long long ranks,
                        long long stride, long long count, double bytes, int pxn, int back,
                        ry_res_visit visit, void *ctx, ry_coll_load *out, ry_err *err)
{
    memset(out, 0, sizeof *out);
    const ry_fabric *f = ry_net_fabric(n);
    coll_ctx c = { n, f, NULL, pxn, gpus_per_node(f), err, NULL };
    if ((ranks = groups_ranks(job, ranks, stride, count, bytes)) == 0)
        return 0;
    if (groups_bound(n, op, ranks, count, back, err) < 0)
        return -1;
    ry_flows fl;
    ry_flows_init(&fl);
    c.fl = &fl;
    group_load gl = { visit, ctx, 2 * f->nlinks, out };
    int rc = build_groups(&c, job, op, ranks, stride, count, bytes, back, &gl, 0);
    ry_flows_free(&fl);
    return rc;
}

void ry_coll_scale(const ry_coll_result *r, double at, double bytes, ry_coll_result *out)
{
    *out = *r;
    double k = at > 0 ? bytes / at : 0;
    out->time_s = r->time_s * k;
    out->net.time_s = r->net.time_s * k;
}
