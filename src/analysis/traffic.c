/* Traffic of one iteration per GPU pair, and DP stage 1 and the stage
 * boundaries across domains routed over the fabric (see traffic.h). */
#include "analysis/traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "net/updown.h"
#include "util/diag.h"

const char *ry_traffic_type_name(ry_traffic_type t)
{
    static const char *const names[] = { "mp", "dp-cross", "dp-in", "pp", "none" };
    return (unsigned)t < RY_TR_TYPES ? names[t] : "?";
}

void ry_traffic_plan(const ry_spec *s, const ry_traffic_in *in, ry_traffic *t)
{
    memset(t, 0, sizeof *t);
    t->N = in->N;
    t->K = in->K;
    t->NM = in->NM;
    t->PP = in->PP > 0 ? in->PP : 1;
    t->D = in->N / (in->NM * t->PP);
    /* A stage fills whole domains (K | N_M D) or a domain holds whole
     * stages (N_M D | K, no data parallelism across domains). */
    long long td = in->NM * t->D;
    t->NDs = td % in->K == 0 ? in->K / in->NM : t->D;
    t->NDf = t->D / t->NDs;
    t->rails = s->rails > 0 ? s->rails : (int)in->K;
    t->planes = s->planes > 0 ? s->planes : 1;
    double shard = in->layers * 2 * in->S_T / (double)in->NM;
    t->pair_bytes[RY_TR_MP] =
        in->layers * in->M_cc * (in->b / (double)t->D) * in->d_model / (double)in->NM;
    t->pair_bytes[RY_TR_DP_IN] = shard / (double)t->NDs;
    t->pair_bytes[RY_TR_DP_CROSS] = shard / (double)t->D;
    t->pair_bytes[RY_TR_PP] = t->PP > 1 ? in->p2p : 0;
    /* Peers of a GPU, counted over all GPUs; a stage boundary joins td
     * pairs, P - 1 boundaries. */
    double peers[RY_TR_TYPES] = { (double)(t->NM - 1), (double)(t->NDf - 1),
                                  (double)(t->NDs - 1), 0, 0 };
    t->total_pairs = t->N * (t->N - 1) / 2;
    long long busy = 0;
    for (int k = 0; k < RY_TR_NONE; k++) {
        t->pairs[k] = k == RY_TR_PP ? (t->PP - 1) * td : t->N * (long long)peers[k] / 2;
        t->bytes[k] = 2 * (double)t->pairs[k] * t->pair_bytes[k];
        busy += t->pairs[k];
        t->total_bytes += t->bytes[k];
    }
    t->pairs[RY_TR_NONE] = t->total_pairs - busy;
}

ry_traffic_type ry_traffic_pair(const ry_traffic *t, long long i, long long j)
{
    if (i == j)
        return RY_TR_NONE;
    long long td = t->NM * t->D, si = i / td, sj = j / td, oi = i % td, oj = j % td;
    if (si != sj)
        return oi == oj && (si - sj == 1 || sj - si == 1) ? RY_TR_PP : RY_TR_NONE;
    if (oi / t->NM == oj / t->NM)
        return RY_TR_MP;
    if (oi % t->NM != oj % t->NM)
        return RY_TR_NONE;
    /* One shard, two replicas: inside a domain, or the same rank of two. */
    if (i / t->K == j / t->K)
        return RY_TR_DP_IN;
    return i % t->K == j % t->K ? RY_TR_DP_CROSS : RY_TR_NONE;
}

/* ---- routing the flows ------------------------------------------------------------- */

typedef struct flowstate {
    const ry_fabric *f;
    ry_traffic_map *m;
    double B;               /* bytes per flow */
    uint32_t *stamp;        /* per switch (node - first_switch): == gen when listed */
    uint8_t *phase;         /* 1 climbing list, 2 descending list */
    long long *cnt;         /* flows toward the destination waiting at the switch */
    uint32_t *list[2][RY_MAX_TIERS + 1];
    size_t nlist[2][RY_MAX_TIERS + 1];
    uint32_t gen;
} flowstate;

static void enlist(flowstate *fs, uint32_t s, int phase)
{
    int t = fs->f->nodes[fs->f->first_switch + s].tier;
    fs->list[phase - 1][t][fs->nlist[phase - 1][t]++] = s;
    fs->phase[s] = (uint8_t)phase;
}

/* Adds n flows waiting at switch s (local to the whole fabric's switches). */
static void arrive(flowstate *fs, uint32_t s, long long n, int phase)
{
    if (fs->stamp[s] != fs->gen) {
        fs->stamp[s] = fs->gen;
        fs->cnt[s] = 0;
        enlist(fs, s, phase);
    } else if (phase == 2 && fs->phase[s] == 1) {
        /* a climbing switch found to turn: listed again for the way down */
        enlist(fs, s, 2);
    }
    fs->cnt[s] += n;
}

/* The up-down hop from switch node sw toward GPU port dp: the port it
 * leaves by has its peer port in *peer and its link in *link. 1 when the
 * hop climbs a tier, 0 when not, -1 without a route. */
static int next_hop(const ry_fabric *f, ry_updown *u, uint32_t sw, uint32_t dp, int32_t *peer,
                    int32_t *link)
{
    int p = ry_updown_next(u, sw, dp);
    if (p < 0)
        return -1;
    uint32_t port = f->nodes[sw].port0 + (uint32_t)p;
    *peer = f->ports[port].peer;
    *link = f->ports[port].link;
    RY_ASSERT(*peer >= 0 && *link >= 0);
    const ry_node *x = &f->nodes[f->ports[*peer].owner];
    return x->kind == RY_NODE_SWITCH && x->tier > f->nodes[sw].tier;
}

static void add_bytes(ry_traffic_map *m, int32_t link, int up, double bytes)
{
    if (up)
        m->up[link] += bytes;
    else
        m->down[link] += bytes;
}

/* Moves the flows waiting at s one hop toward gpu_port; 1 if they went up,
 * 0 if down or delivered, -1 without a route. */
static int hop(flowstate *fs, ry_updown *u, uint32_t s, uint32_t gpu_port, int climbing)
{
    const ry_fabric *f = fs->f;
    int32_t peer, link;
    int up = next_hop(f, u, f->first_switch + s, gpu_port, &peer, &link);
    if (up < 0)
        return -1;
    const ry_node *x = &f->nodes[f->ports[peer].owner];
    if (climbing && !up)
        return 0;   /* turns here: handled on the way down */
    long long n = fs->cnt[s];
    add_bytes(fs->m, link, up, (double)n * fs->B);
    fs->m->hops += n;
    fs->cnt[s] = 0;
    if (x->kind == RY_NODE_SWITCH)
        arrive(fs, f->ports[peer].owner - f->first_switch, n, up ? 1 : 2);
    return up;
}

static int route_subnet(flowstate *fs, const ry_traffic *t, int k, ry_err *err)
{
    const ry_fabric *f = fs->f;
    ry_updown *u = ry_updown_new(f, k);
    size_t n = ry_updown_ends(u);
    /* A DP stage 1 group: one rank of the domains of one stage (every
     * domain when there is one stage), numbered rank + K x (domain / dps). */
    long long dps = t->NM * t->D >= t->K ? t->NM * t->D / t->K : 1;
    long long K = t->K * (t->N / t->K / dps);
    int rc = 0;
    /* The leaves holding each group's GPUs, with counts: ends come in leaf
     * order, so a counting sort by group keeps each group's leaves together. */
    uint32_t *rank_of = ry_xmalloc((n ? n : 1) * sizeof *rank_of);
    uint32_t *leaf_of = ry_xmalloc((n ? n : 1) * sizeof *leaf_of);
    uint32_t *first = ry_xcalloc((size_t)K + 1, sizeof *first);
    /* GPUs past the layout's (idle ones) take the extra rank K: no flows. */
    for (size_t c = 0; c < n; c++) {
        uint32_t gp = ry_updown_end(u, c);
        const ry_node *g = &f->nodes[f->ports[gp].owner];
        rank_of[c] = g->index >= t->N ? (uint32_t)K
                                      : (uint32_t)(g->index % t->K + t->K * (g->index / t->K / dps));
        leaf_of[c] = f->ports[f->ports[gp].peer].owner - f->first_switch;
        if (rank_of[c] < K)
            first[rank_of[c] + 1]++;
    }
    for (long long r = 0; r < K; r++)
        first[r + 1] += first[r];
    uint32_t *fill = ry_xmalloc(((size_t)K + 1) * sizeof *fill);
    memcpy(fill, first, ((size_t)K + 1) * sizeof *fill);
    uint32_t *by_rank = ry_xmalloc((n ? n : 1) * sizeof *by_rank);
    for (size_t c = 0; c < n; c++)
        if (rank_of[c] < K)
            by_rank[fill[rank_of[c]]++] = leaf_of[c];
    /* (leaf, count) runs per rank */
    uint32_t *run_leaf = ry_xmalloc((n ? n : 1) * sizeof *run_leaf);
    uint32_t *run_cnt = ry_xmalloc((n ? n : 1) * sizeof *run_cnt);
    uint32_t *run0 = ry_xcalloc((size_t)K + 1, sizeof *run0);
    size_t nrun = 0;
    for (long long r = 0; r < K; r++) {
        run0[r] = (uint32_t)nrun;
        for (uint32_t i = first[r]; i < first[r + 1]; i++) {
            if (nrun > run0[r] && run_leaf[nrun - 1] == by_rank[i])
                run_cnt[nrun - 1]++;
            else {
                run_leaf[nrun] = by_rank[i];
                run_cnt[nrun++] = 1;
            }
        }
    }
    run0[K] = (uint32_t)nrun;

    for (size_t c = 0; c < n && rc == 0; c++) {
        uint32_t gp = ry_updown_end(u, c), r = rank_of[c];
        if (r >= K)
            continue;
        if (++fs->gen == 0) {
            memset(fs->stamp, 0, (f->nnodes - f->first_switch) * sizeof *fs->stamp);
            fs->gen = 1;
        }
        memset(fs->nlist, 0, sizeof fs->nlist);
        long long sources = 0;
        for (uint32_t i = run0[r]; i < run0[r + 1]; i++) {
            long long cnt = run_cnt[i] - (run_leaf[i] == leaf_of[c] ? 1 : 0);
            if (cnt > 0)
                arrive(fs, run_leaf[i], cnt, 1);
            sources += cnt;
        }
        if (sources != t->NDf - 1) {
            ry_err_set(err, "fabric.design", "the %lld GPUs of rank %lld of a stage are not all "
                       "in one network (found %lld of them in subnet %d)", t->NDf,
                       (long long)r % t->K, sources + 1, k);
            rc = -1;
            break;
        }
        fs->m->flows += sources;
        /* Climb tier by tier, then descend. */
        for (int tier = 1; tier <= f->tiers && rc == 0; tier++)
            for (size_t i = 0; i < fs->nlist[0][tier] && rc == 0; i++) {
                uint32_t s = fs->list[0][tier][i];
                if (fs->phase[s] != 1 || fs->cnt[s] == 0)
                    continue;
                int up = hop(fs, u, s, gp, 1);
                if (up < 0)
                    rc = -1;
                else if (up == 0)
                    enlist(fs, s, 2);
            }
        for (int tier = f->tiers; tier >= 1 && rc == 0; tier--)
            for (size_t i = 0; i < fs->nlist[1][tier] && rc == 0; i++) {
                uint32_t s = fs->list[1][tier][i];
                if (fs->cnt[s] == 0)
                    continue;
                if (hop(fs, u, s, gp, 0) != 0)
                    rc = -1;    /* a descending route never climbs again */
            }
        if (rc < 0) {
            char name[64];
            ry_node_name(f, f->ports[gp].owner, name, sizeof name);
            ry_err_set(err, "fabric", "no up-down route toward %s (plane %d): the fabric is not "
                       "a connected Clos", name, (int)(gp - f->nodes[f->ports[gp].owner].port0));
        }
    }
    free(rank_of);
    free(leaf_of);
    free(first);
    free(fill);
    free(by_rank);
    free(run_leaf);
    free(run_cnt);
    free(run0);
    ry_updown_free(u);
    return rc;
}

int ry_traffic_walk(const ry_fabric *f, ry_updown *u, uint32_t sp, uint32_t dp, double B,
                    ry_traffic_map *m)
{
    int32_t link = f->ports[sp].link;
    RY_ASSERT(link >= 0);
    m->up[link] += B;
    uint32_t sw = f->ports[f->ports[sp].peer].owner;
    for (int hops = 0; hops <= 2 * RY_MAX_TIERS; hops++) {
        int32_t peer, l;
        int up = next_hop(f, u, sw, dp, &peer, &l);
        if (up < 0)
            return -1;
        uint32_t x = f->ports[peer].owner;
        const ry_node *xn = &f->nodes[x];
        add_bytes(m, l, up, B);
        m->hops++;
        if (xn->kind != RY_NODE_SWITCH)
            return (uint32_t)peer == dp ? 0 : -1;
        sw = x;
    }
    return -1;
}

int ry_traffic_route_pair(ry_pair_walk *w, ry_updown *u, long long src, uint32_t dp,
                          const char *what)
{
    const ry_fabric *f = w->f;
    long long d = f->ports[dp].owner;
    uint32_t plane = dp - f->nodes[d].port0;
    uint32_t sp = f->nodes[src].port0 + plane;
    if (ry_updown_index(u, sp) < 0 || ry_traffic_walk(f, u, sp, dp, w->B, w->m) < 0) {
        char a[64], b[64];
        ry_node_name(f, (uint32_t)src, a, sizeof a);
        ry_node_name(f, (uint32_t)d, b, sizeof b);
        ry_err_set(w->err, "fabric", "no route from %s to %s (plane %u) for the %s: the fabric "
                   "has no such path", a, b, plane, what);
        return -1;
    }
    w->m->flows++;
    w->m->hops++;   /* the first hop, GPU to leaf */
    return 0;
}

int ry_traffic_each_end(ry_pair_walk *w, int (*each)(ry_pair_walk *w, ry_updown *u,
                                                     uint32_t dp))
{
    int rc = 0;
    for (int k = 0; k < w->f->nsubnets && rc == 0; k++) {
        ry_updown *u = ry_updown_new(w->f, k);
        size_t n = ry_updown_ends(u);
        for (size_t c = 0; c < n && rc == 0; c++)
            rc = each(w, u, ry_updown_end(u, c));
        ry_updown_free(u);
    }
    return rc;
}

/* The stage boundaries that cross domains: to GPU d from d - N_M D (its
 * activations) and from d + N_M D (their gradients), each from the NIC of
 * the sender's domain on d's rail when rail-only keeps rails apart (the
 * NVLink hop before it is the domain's own), else from the sender's. */
static int pp_end(ry_pair_walk *w, ry_updown *u, uint32_t dp)
{
    const ry_fabric *f = w->f;
    const ry_traffic *t = w->in;
    long long td = t->NM * t->D;
    long long d = f->ports[dp].owner;
    for (int dir = -1; dir <= 1; dir += 2) {
        long long s = d + dir * td;
        if (s < 0 || s >= t->N || s / t->K == d / t->K)
            continue;
        long long ns = s;
        if (f->design == RY_DESIGN_RAIL_ONLY && f->nodes[s].rail != f->nodes[d].rail)
            ns = (s / t->K) * t->K + d % t->K;
        if (ry_traffic_route_pair(w, u, ns, dp, "pipeline's point-to-point") < 0)
            return -1;
        w->m->pp_flows++;
        w->m->network_bytes += w->B;
        w->m->pp_bytes += w->B;
    }
    return 0;
}

static int route_pp(const ry_fabric *f, const ry_traffic *t, ry_traffic_map *m, ry_err *err)
{
    ry_pair_walk w = { f, m, err, t->pair_bytes[RY_TR_PP] / f->planes, t };
    return ry_traffic_each_end(&w, pp_end);
}

static void map_tiers(const ry_fabric *f, ry_traffic_map *m);

int ry_traffic_map_fabric(const ry_fabric *f, const ry_traffic *t, ry_traffic_map *m,
                          ry_err *err)
{
    memset(m, 0, sizeof *m);
    size_t nl = f->nlinks ? f->nlinks : 1;
    m->up = ry_xcalloc(nl, sizeof *m->up);
    m->down = ry_xcalloc(nl, sizeof *m->down);
    int rc = 0;
    double B = t->pair_bytes[RY_TR_DP_CROSS] / f->planes;
    if (t->NDf > 1 && B > 0) {
        /* What every GPU port sends: one flow to each same-rank GPU. */
        for (long long g = 0; g < f->gpus && g < t->N; g++) {
            const ry_node *n = &f->nodes[g];
            for (uint32_t p = 0; p < n->nports; p++) {
                int32_t link = f->ports[n->port0 + p].link;
                RY_ASSERT(link >= 0);
                m->up[link] += (double)(t->NDf - 1) * B;
                m->network_bytes += (double)(t->NDf - 1) * B;
            }
        }
        flowstate fs;
        memset(&fs, 0, sizeof fs);
        fs.f = f;
        fs.m = m;
        fs.B = B;
        size_t S = f->nnodes - f->first_switch;
        fs.stamp = ry_xcalloc(S ? S : 1, sizeof *fs.stamp);
        fs.phase = ry_xcalloc(S ? S : 1, 1);
        fs.cnt = ry_xcalloc(S ? S : 1, sizeof *fs.cnt);
        /* A switch is listed at most once per phase. */
        for (int ph = 0; ph < 2; ph++)
            for (int tier = 1; tier <= f->tiers; tier++)
                fs.list[ph][tier] = ry_xmalloc((S ? S : 1) * sizeof(uint32_t));
        for (int k = 0; k < f->nsubnets && rc == 0; k++)
            rc = route_subnet(&fs, t, k, err);
        for (int ph = 0; ph < 2; ph++)
            for (int tier = 1; tier <= f->tiers; tier++)
                free(fs.list[ph][tier]);
        free(fs.stamp);
        free(fs.phase);
        free(fs.cnt);
        /* Flows that a GPU port sends to a GPU on its own leaf never reach a
         * switch above; every flow is one GPU uplink and one downlink. */
        m->hops += m->flows;
    }
    if (rc == 0 && t->PP > 1 && t->pair_bytes[RY_TR_PP] > 0)
        rc = route_pp(f, t, m, err);
    map_tiers(f, m);
    return rc;
}

/* m's counts by tier, of the bytes on its links. */
static void map_tiers(const ry_fabric *f, ry_traffic_map *m)
{
    for (size_t l = 0; l < f->nlinks; l++) {
        int tier = f->nodes[f->ports[f->links[l].hi].owner].tier;
        double b = m->up[l] + m->down[l];
        m->tier[tier].links++;
        m->tier[tier].bytes += b;
        if (b > m->tier[tier].max)
            m->tier[tier].max = b;
        if (b == 0) {
            m->tier[tier].idle++;
            m->idle++;
        }
        m->links++;
    }
}

void ry_traffic_map_free(ry_traffic_map *m)
{
    free(m->up);
    free(m->down);
    memset(m, 0, sizeof *m);
}

/* ---- on the flow engine --------------------------------------------------------------- */

/* The engine's resource bytes into a map: a link's two directions (net/flow.h:
 * 2l up, 2l + 1 down); NVLink stays inside the domains. */
typedef struct engine_sum {
    const ry_fabric *f;
    ry_traffic_map *m;
} engine_sum;

static void engine_visit(void *ctx, uint32_t res, double bytes)
{
    engine_sum *e = ctx;
    size_t l = res / 2;
    if (l < e->f->nlinks)
        add_bytes(e->m, (int32_t)l, !(res & 1), bytes);
}

/* What GPUs put on the network: the bytes up their own links. */
static double gpu_out(const ry_fabric *f, const ry_traffic_map *m)
{
    double b = 0;
    for (size_t l = 0; l < f->nlinks; l++)
        if (ry_port_node(f, f->links[l].lo)->kind == RY_NODE_GPU)
            b += m->up[l];
    return b;
}

/* One dimension's traffic (type k of t alone) routed up-down into m, for a
 * phase the engine cannot hold. */
static int analytic_part(const ry_fabric *f, const ry_traffic *t, int k, ry_traffic_map *m,
                         ry_err *err)
{
    ry_traffic one = *t;
    for (int j = 0; j < RY_TR_TYPES; j++)
        if (j != k)
            one.pair_bytes[j] = 0;
    ry_traffic_map a;
    int rc = ry_traffic_map_fabric(f, &one, &a, err);
    for (size_t l = 0; rc == 0 && l < f->nlinks; l++) {
        m->up[l] += a.up[l];
        m->down[l] += a.down[l];
    }
    m->flows += a.flows;
    m->hops += a.hops;
    m->pp_flows += a.pp_flows;
    ry_traffic_map_free(&a);
    return rc;
}

int ry_traffic_engine_groups(ry_net *n, const ry_job *job, ry_coll_op op, long long ranks,
                             long long stride, long long count, double bytes, int back,
                             const char *what, ry_traffic_map *m, long long *flows, ry_err *err)
{
    const ry_fabric *f = ry_net_fabric(n);
    engine_sum es = { f, m };
    ry_coll_load ld;
    ry_err e = { { 0 }, { 0 } };
    *flows = 0;
    /* Only rail-only lacks a path between rails: there, and there alone,
     * the bytes cross NVLink first (as the up-down routes have them). */
    int pxn = f->design == RY_DESIGN_RAIL_ONLY;
    if (ry_coll_groups_load(n, job, op, ranks, stride, count, bytes, pxn, back, engine_visit,
                            &es, &ld, &e) < 0) {
        if (strcmp(e.key, "flows") == 0) {
            size_t at = strlen(m->analytic);
            snprintf(m->analytic + at, sizeof m->analytic - at, "%s%s", at ? ", " : "", what);
            m->analytic_phases++;
            return 1;
        }
        *err = e;
        return -1;
    }
    m->phases++;
    m->flows += (long long)ld.net_flows;
    m->hops += ld.crossings;
    *flows = (long long)ld.net_flows;
    return 0;
}

/* Type k's groups on the engine, or up-down when too many flows. */
static int engine_part(ry_net *n, const ry_job *job, const ry_traffic *t, int k,
                       ry_traffic_map *m, ry_err *err)
{
    long long flows;
    int rc;
    if (k == RY_TR_DP_CROSS)
        rc = ry_traffic_engine_groups(n, job, RY_NCCL_ALL_TO_ALL, t->N, t->K, t->NDf,
                                      t->pair_bytes[k] * (double)t->NDf, 0, "data", m, &flows,
                                      err);
    else
        rc = ry_traffic_engine_groups(n, job, RY_NCCL_SENDRECV, t->N, t->NM * t->D, t->PP,
                                      t->pair_bytes[k], 1, "pipeline", m, &flows, err);
    if (rc == 1)
        return analytic_part(ry_net_fabric(n), t, k, m, err);
    if (rc == 0 && k == RY_TR_PP)
        m->pp_flows += flows;
    return rc;
}

int ry_traffic_map_engine(ry_net *n, const ry_job *job, const ry_traffic *t, ry_traffic_map *m,
                          ry_err *err)
{
    const ry_fabric *f = ry_net_fabric(n);
    memset(m, 0, sizeof *m);
    size_t nl = f->nlinks ? f->nlinks : 1;
    m->up = ry_xcalloc(nl, sizeof *m->up);
    m->down = ry_xcalloc(nl, sizeof *m->down);
    m->engine = 1;
    int rc = 0;
    if (t->NDf > 1 && t->pair_bytes[RY_TR_DP_CROSS] > 0)
        rc = engine_part(n, job, t, RY_TR_DP_CROSS, m, err);
    double dp = gpu_out(f, m);
    if (rc == 0 && t->PP > 1 && t->pair_bytes[RY_TR_PP] > 0)
        rc = engine_part(n, job, t, RY_TR_PP, m, err);
    m->network_bytes = gpu_out(f, m);
    m->pp_bytes = m->network_bytes - dp;
    map_tiers(f, m);
    return rc;
}

/* ---- trimming ------------------------------------------------------------------------ */

static uint32_t uf_find(uint32_t *p, uint32_t x)
{
    while (p[x] != x)
        x = p[x] = p[p[x]];
    return x;
}

void ry_fabric_trim(const ry_fabric *f, const ry_traffic_map *m, ry_fabric *out)
{
    /* each tier's model and split ports (fabric.tiers) too: the trimmed
     * switches keep their ports, so their speeds, names and prices */
    ry_fabric_init_like(out, f);
    out->tiers = f->tiers;
    out->num_units = f->num_units;

    /* Switches that keep at least one link. */
    uint32_t *map = ry_xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *map);
    uint8_t *keep = ry_xcalloc(f->nnodes ? f->nnodes : 1, 1);
    for (size_t l = 0; l < f->nlinks; l++)
        if (m->up[l] + m->down[l] > 0) {
            keep[f->ports[f->links[l].lo].owner] = 1;
            keep[f->ports[f->links[l].hi].owner] = 1;
        }
    for (size_t i = 0; i < f->nnodes; i++) {
        const ry_node *n = &f->nodes[i];
        map[i] = UINT32_MAX;
        if (i == f->first_switch)
            out->first_switch = (uint32_t)out->nnodes;
        if (n->kind == RY_NODE_GPU || keep[i]) {
            map[i] = ry_fabric_add_node(out, (ry_node_kind)n->kind, n->tier, n->plane, n->rail,
                                        n->group, n->index, n->nports);
            out->nodes[map[i]].nrails = n->nrails;
            out->nodes[map[i]].number = n->number;
        }
    }
    if (f->first_switch == f->nnodes)
        out->first_switch = (uint32_t)out->nnodes;
    uint32_t *uf = ry_xmalloc((out->nnodes ? out->nnodes : 1) * sizeof *uf);
    for (size_t i = 0; i < out->nnodes; i++)
        uf[i] = (uint32_t)i;
    for (size_t l = 0; l < f->nlinks; l++) {
        if (!(m->up[l] + m->down[l] > 0))
            continue;
        uint32_t lo = f->links[l].lo, hi = f->links[l].hi;
        uint32_t a = f->ports[lo].owner, b = f->ports[hi].owner;
        uint32_t na = map[a], nb = map[b];
        ry_fabric_add_link(out, out->nodes[na].port0 + (lo - f->nodes[a].port0),
                           out->nodes[nb].port0 + (hi - f->nodes[b].port0));
        if (f->nodes[a].kind == RY_NODE_SWITCH)
            uf[uf_find(uf, na)] = uf_find(uf, nb);
    }
    /* Subnets: connected groups of the switches left. */
    int32_t *comp = ry_xmalloc((out->nnodes ? out->nnodes : 1) * sizeof *comp);
    for (size_t i = 0; i < out->nnodes; i++)
        comp[i] = -1;
    for (size_t i = out->first_switch; i < out->nnodes; i++) {
        uint32_t r = uf_find(uf, (uint32_t)i);
        if (comp[r] < 0)
            comp[r] = out->nsubnets++;
        out->nodes[i].subnet = comp[r];
    }
    free(comp);
    free(uf);
    free(map);
    free(keep);
}

/* Link l into out's busiest links, kept busiest first; a tie goes after
 * the links already there (lower ids come first). */
static void hot_add(ry_traffic_load *out, long long l, int up, double bytes, double util)
{
    int i = out->ntop;
    while (i > 0 && util > out->top[i - 1].util)
        i--;
    if (i >= RY_TRAFFIC_TOP)
        return;
    int last = out->ntop < RY_TRAFFIC_TOP ? out->ntop : RY_TRAFFIC_TOP - 1;
    memmove(&out->top[i + 1], &out->top[i], (size_t)(last - i) * sizeof out->top[0]);
    out->top[i] = (struct ry_traffic_hot){ l, up, bytes, util };
    if (out->ntop < RY_TRAFFIC_TOP)
        out->ntop++;
}

void ry_traffic_load_compute(const ry_fabric *f, const ry_traffic_map *map, double iter_s,
                             ry_traffic_load *out)
{
    memset(out, 0, sizeof *out);
    out->iter_s = iter_s;
    out->busiest_link = -1;
    if (!(iter_s > 0))
        return;
    for (size_t l = 0; l < f->nlinks; l++) {
        int tier = f->nodes[f->ports[f->links[l].hi].owner].tier;
        double b = map->up[l] > map->down[l] ? map->up[l] : map->down[l];
        double gbps = ry_link_gbps(f, (uint32_t)l);
        double util = gbps > 0 ? b / (iter_s * gbps * 1e9 / 8) : 0;
        if (b > 0 && util > out->tier[tier].busiest_util) {
            out->tier[tier].busiest_gbytes_per_s = b / iter_s / 1e9;
            out->tier[tier].busiest_gbps = gbps;
            out->tier[tier].busiest_util = util;
        }
        if (b > 0)
            hot_add(out, (long long)l, map->up[l] >= map->down[l], b, util);
        if (b > 0 && util > out->busiest_util) {
            out->busiest_util = util;
            out->busiest_tier = tier;
            out->busiest_link = (long long)l;
            out->busiest_gbytes_per_s = b / iter_s / 1e9;
            out->busiest_gbps = gbps;
        }
    }
    for (int t = 1; t <= RY_MAX_TIERS; t++)
        if (map->tier[t].links > 0)
            out->tier[t].mean_gbytes_per_s =
                map->tier[t].bytes / (2.0 * (double)map->tier[t].links) / iter_s / 1e9;
}
