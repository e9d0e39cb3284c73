/* The expert all-to-all (see moe.h and doc/llm-model.md). */
#include "model/moe.h"

#include <stdlib.h>
#include <string.h>

#include "model/iteration.h"
#include "spec/catalog.h"
#include "util/diag.h"

int ry_moe_ep_valid(const ry_moe_in *in, long long E)
{
    if (in->NM < 1 || in->K < 1 || in->K % in->NM || in->N % in->K)
        return 0;
    long long NDs = in->K / in->NM, NDf = in->N / in->K;
    if (E < 1 || E > in->experts || in->experts % E)
        return 0;
    if (E <= NDs)
        return NDs % E == 0;
    return E % NDs == 0 && NDf % (E / NDs) == 0;
}

long long ry_moe_ep_auto(const ry_moe_in *in)
{
    for (long long E = in->experts; E > 1; E--)
        if (ry_moe_ep_valid(in, E))
            return E;
    return 1;
}

/* The most destinations in one remote domain that a GPU of the group
 * reaches through another rail: E_in minus the fewest members on a
 * sender's own rail, over every sender (all GPUs: every TP position). */
static long long cross_rail_members(const ry_moe_in *in, long long E_in)
{
    long long R = in->rails > 0 ? in->rails : in->K;
    long long *cnt = ry_xcalloc((size_t)R, sizeof *cnt);
    long long worst = 0;
    for (long long p = 0; p < in->NM; p++) {
        for (long long j = 0; j < E_in; j++)
            cnt[(p + in->NM * j) % R]++;
        for (long long j = 0; j < E_in; j++) {
            long long c = cnt[(p + in->NM * j) % R];
            if (E_in - c > worst)
                worst = E_in - c;
        }
        for (long long j = 0; j < E_in; j++)
            cnt[(p + in->NM * j) % R] = 0;
    }
    free(cnt);
    return worst;
}

double ry_moe_a2a_time(const ry_moe_in *in, ry_design d, ry_moe_a2a *a)
{
    memset(a, 0, sizeof *a);
    long long E = in->ep > 0 ? in->ep : ry_moe_ep_auto(in);
    if (!ry_moe_ep_valid(in, E))
        return -1;
    long long NDs = in->K / in->NM;
    a->ep = E;
    a->ep_in = E < NDs ? E : NDs;
    a->domains = E / a->ep_in;
    a->tokens_per_gpu = in->tokens / (double)in->N;
    a->pass_bytes = a->tokens_per_gpu * in->top_k * in->d_model * in->bytes;
    double each = a->pass_bytes / (double)E;    /* to one member */
    a->self = each;
    a->nvlink = each * (double)(a->ep_in - 1);
    a->net = each * (double)(E - a->ep_in);
    if (a->domains > 1) {
        long long cross = cross_rail_members(in, a->ep_in);
        a->fwd = each * (double)(a->domains - 1) * (double)cross;
        /* net_same_rail: the members on the sender's rail, at the sender
         * that forwards most (the fewest on its rail). */
        a->net_same_rail = each * (double)(a->domains - 1) * (double)(a->ep_in - cross);
    }
    double k = (double)in->passes * in->blocks;
    a->it_nvlink = k * a->nvlink;
    a->it_net = k * a->net;
    a->it_fwd = k * a->fwd;
    a->opt_nvlink_s = a->it_nvlink / in->B_F;
    a->opt_net_s = a->it_net / in->B_S;
    a->opt_s = a->opt_nvlink_s + a->opt_net_s;
    a->ro_nvlink_s = (a->it_nvlink + a->it_fwd) / in->B_F;
    a->ro_net_s = a->opt_net_s;
    a->ro_s = a->ro_nvlink_s + a->ro_net_s;
    a->slowdown = a->opt_s > 0 ? a->ro_s / a->opt_s - 1 : 0;
    a->nvlink_extra = a->it_nvlink > 0 ? a->it_fwd / a->it_nvlink : 0;
    return d == RY_DESIGN_RAIL_ONLY ? a->ro_s : a->opt_s;
}

int ry_moe_for_model(const ry_spec *s, ry_model *m)
{
    const ry_llm *l = &m->w.model;
    m->has_moe = 0;
    if (l->moe.experts <= 0)
        return 0;
    ry_moe_in *in = &m->moe_in;
    memset(in, 0, sizeof *in);
    in->N = m->in.N;
    in->K = m->in.K;
    in->NM = m->best.NM;
    in->rails = s->rails > 0 ? s->rails : (int)m->in.K;
    in->tokens = m->in.b;
    in->d_model = l->d_model;
    in->bytes = m->bytes;
    in->experts = l->moe.experts;
    in->top_k = l->moe.top_k;
    in->blocks = ry_llm_moe_blocks(l);
    in->passes = m->w.recompute == RY_RECOMPUTE_FULL ? 6 : 4;
    in->ep = m->w.expert;
    in->B_F = m->in.B_F;
    in->B_S = m->in.B_S;
    double t = ry_moe_a2a_time(in, s->design, &m->moe);
    if (t < 0) {
        long long NDs = in->K / in->NM, E = in->ep, NDf = in->N / in->K;
        if (E < NDs)
            ry_spec_error(s, "workload.parallelism.expert", "workload.parallelism.expert (%lld) "
                          "must divide the %lld data-parallel GPUs of an HB domain (N_Ds = K / "
                          "N_M = %lld / %lld) to stay in one domain; the largest size that fits "
                          "is %lld", E, NDs, in->K, in->NM, ry_moe_ep_auto(in));
        else
            ry_spec_error(s, "workload.parallelism.expert", "workload.parallelism.expert (%lld) "
                          "spans %s%lld HB domains of N_Ds = %lld data-parallel GPUs (N_M = "
                          "%lld), which must be a whole number dividing the %lld domains; the "
                          "largest size that fits is %lld", E, E % NDs ? "a fraction of " : "",
                          E / NDs + (E % NDs != 0), NDs, in->NM, NDf, ry_moe_ep_auto(in));
        return -1;
    }
    m->has_moe = 1;
    m->moe_s = t;
    return 0;
}
