/* The expert all-to-all per pair and on the fabric's links (see moe_traffic.h). */
#include "analysis/moe_traffic.h"

#include <stdlib.h>
#include <string.h>

#include "net/updown.h"
#include "fabric/names.h"
#include "util/diag.h"

long long ry_moe_group_first(const ry_moe_traffic_in *in, long long g)
{
    long long NDs = in->K / in->NM, r = g % in->K;
    long long q = (g / in->K) * NDs + r / in->NM;
    long long q0 = q / in->ep * in->ep;
    return (q0 / NDs) * in->K + (q0 % NDs) * in->NM + r % in->NM;
}

/* Member j (< ep) of the group whose first member is first. */
static long long member(const ry_moe_traffic_in *in, long long first, long long j)
{
    long long NDs = in->K / in->NM, r = first % in->K;
    long long q = (first / in->K) * NDs + r / in->NM + j;
    return (q / NDs) * in->K + (q % NDs) * in->NM + r % in->NM;
}

static int rail_of(const ry_fabric *f, long long g)
{
    return f->nodes[g].rail;
}

/* The GPU whose NIC puts the bytes from s to d on the network. */
static long long net_source(const ry_fabric *f, const ry_moe_traffic_in *in, long long s,
                            long long d)
{
    if (f->design != RY_DESIGN_RAIL_ONLY || rail_of(f, s) == rail_of(f, d))
        return s;
    return (s / in->K) * in->K + d % in->K;
}

/* The expert all-to-all's flows into GPU port dp: from each member of its
 * group outside its domain. */
static int moe_end(ry_pair_walk *w, ry_updown *u, uint32_t dp)
{
    const ry_fabric *f = w->f;
    const ry_moe_traffic_in *in = w->in;
    long long d = f->ports[dp].owner;
    if (d >= in->N)
        return 0;       /* an idle GPU: the layout leaves it out */
    long long first = ry_moe_group_first(in, d);
    for (long long j = 0; j < in->ep; j++) {
        long long s = member(in, first, j);
        if (s / in->K == d / in->K)
            continue;
        if (ry_traffic_route_pair(w, u, net_source(f, in, s, d), dp, "expert all-to-all") < 0)
            return -1;
    }
    return 0;
}

static int route(const ry_fabric *f, const ry_moe_traffic_in *in, ry_moe_traffic *m,
                 ry_err *err)
{
    ry_pair_walk w = { f, &m->net, err, in->pair_bytes / f->planes, in };
    return ry_traffic_each_end(&w, moe_end);
}

/* The groups on the engine: ep ranks N_M apart, every member sending each
 * other the pair's bytes; up-down when past the engine's bound. */
static int route_engine(ry_net *net, const ry_job *job, const ry_moe_traffic_in *in,
                        ry_moe_traffic *m, ry_err *err)
{
    long long flows;
    int rc = ry_traffic_engine_groups(net, job, RY_NCCL_ALL_TO_ALL, in->N, in->NM, in->ep,
                                      in->pair_bytes * (double)in->ep, 0, "experts", &m->net,
                                      &flows, err);
    return rc == 1 ? route(ry_net_fabric(net), in, m, err) : rc;
}

static int moe_map(const ry_fabric *f, ry_net *net, const ry_job *job,
                   const ry_moe_traffic_in *in, ry_moe_traffic *m, ry_err *err);

int ry_moe_traffic_map(const ry_fabric *f, const ry_moe_traffic_in *in, ry_moe_traffic *m,
                       ry_err *err)
{
    return moe_map(f, NULL, NULL, in, m, err);
}

int ry_moe_traffic_map_engine(ry_net *n, const ry_job *job, const ry_moe_traffic_in *in,
                              ry_moe_traffic *m, ry_err *err)
{
    return moe_map(ry_net_fabric(n), n, job, in, m, err);
}

static int moe_map(const ry_fabric *f, ry_net *net, const ry_job *job,
                   const ry_moe_traffic_in *in, ry_moe_traffic *m, ry_err *err)
{
    memset(m, 0, sizeof *m);
    size_t nl = f->nlinks ? f->nlinks : 1, ng = f->gpus ? (size_t)f->gpus : 1;
    m->net.up = ry_xcalloc(nl, sizeof *m->net.up);
    m->net.down = ry_xcalloc(nl, sizeof *m->net.down);
    m->gpu_fwd_out = ry_xcalloc(ng, sizeof *m->gpu_fwd_out);
    m->gpu_fwd_in = ry_xcalloc(ng, sizeof *m->gpu_fwd_in);
    m->gpu_net_out = ry_xcalloc(ng, sizeof *m->gpu_net_out);
    m->gpu_net_in = ry_xcalloc(ng, sizeof *m->gpu_net_in);
    m->net.engine = net != NULL;
    if (in->ep <= 1 || !(in->pair_bytes > 0))
        goto stats;
    /* Pairs, NVLink and the forwarding hop. */
    for (long long s = 0; s < f->gpus && s < in->N; s++) {
        long long first = ry_moe_group_first(in, s);
        for (long long j = 0; j < in->ep; j++) {
            long long d = member(in, first, j);
            if (d == s)
                continue;
            m->sent += in->pair_bytes;
            if (s / in->K == d / in->K) {
                m->pairs_nvlink++;
                m->nvlink += in->pair_bytes;
                continue;
            }
            if (rail_of(f, s) == rail_of(f, d)) {
                m->pairs_same_rail++;
            } else {
                m->pairs_cross_rail++;
            }
            long long ns = net_source(f, in, s, d);
            if (ns != s) {
                m->forwarded += in->pair_bytes;
                m->gpu_fwd_out[s] += in->pair_bytes;
                m->gpu_fwd_in[ns] += in->pair_bytes;
            }
        }
    }
    if ((net ? route_engine(net, job, in, m, err) : route(f, in, m, err)) < 0)
        return -1;
    /* What GPU NICs put on and take off the network. */
    for (long long g = 0; g < f->gpus; g++) {
        const ry_node *n = &f->nodes[g];
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t l = f->ports[n->port0 + p].link;
            if (l < 0)
                continue;
            m->gpu_net_out[g] += m->net.up[l];
            m->gpu_net_in[g] += m->net.down[l];
        }
        m->network += m->gpu_net_out[g];
        m->delivered += m->gpu_net_in[g];
    }
    m->received = m->nvlink + m->delivered;
    m->net.network_bytes = m->network;
stats:
    for (size_t l = 0; l < f->nlinks; l++) {
        int tier = f->nodes[f->ports[f->links[l].hi].owner].tier;
        double b = m->net.up[l] + m->net.down[l];
        m->net.tier[tier].links++;
        m->net.tier[tier].bytes += b;
        if (b > m->net.tier[tier].max)
            m->net.tier[tier].max = b;
        if (b == 0) {
            m->net.tier[tier].idle++;
            m->net.idle++;
        }
        m->net.links++;
    }
    return 0;
}

void ry_moe_traffic_free(ry_moe_traffic *m)
{
    ry_traffic_map_free(&m->net);
    free(m->gpu_fwd_out);
    free(m->gpu_fwd_in);
    free(m->gpu_net_out);
    free(m->gpu_net_in);
    memset(m, 0, sizeof *m);
}
