/* The expert all-to-all as text and JSON (see emit_moe.h). */
#include "emit/model/emit_moe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "emit/format.h"
#include "util/numfmt.h"
#include "fabric/names.h"
#include "spec/catalog.h"
#include "emit/json_out.h"

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0; }

void ry_emit_moe_text(ry_buf *o, const ry_spec *s, const ry_model *m, double iter,
                      double exposed)
{
    if (!m->has_moe)
        return;
    const ry_llm *l = &m->w.model;
    const ry_moe_in *in = &m->moe_in;
    const ry_moe_a2a *a = &m->moe;
    int held = exposed >= 0;
    char n1[RY_NUM_CAP], n2[RY_NUM_CAP], n3[RY_NUM_CAP], n4[RY_NUM_CAP];
    if (held)
        ry_buf_printf(o, "Mixture of experts (expert all-to-all: the iteration time above holds "
                      "its exposed part, %s)\n", ry_num_si(n1, sizeof n1, exposed, "s", 4));
    else
        ry_buf_printf(o, "Mixture of experts (expert all-to-all, not in the iteration time "
                      "above)\n");
    ry_buf_printf(o, "  experts     %d routed, top-%d", l->moe.experts, l->moe.top_k);
    if (l->moe.shared_experts)
        ry_buf_printf(o, ", %d shared (local)", l->moe.shared_experts);
    int all = ry_llm_moe_blocks(l);
    if (in->blocks < all)
        ry_buf_printf(o, ", expert hidden %s; %d MoE blocks on a pipeline stage (%d in the "
                      "model's %d); %s active parameters (the ones a token's compute counts)\n",
                      ry_num_int(n1, sizeof n1, l->moe.expert_hidden), in->blocks, all,
                      l->layers, ry_num_sig(n2, sizeof n2, l->moe.active_parameters, 3));
    else
        ry_buf_printf(o, ", expert hidden %s; %d MoE blocks of %d; %s active parameters "
                      "(the ones a token's compute counts)\n",
                      ry_num_int(n1, sizeof n1, l->moe.expert_hidden), in->blocks, l->layers,
                      ry_num_sig(n2, sizeof n2, l->moe.active_parameters, 3));
    ry_buf_printf(o, "  EP          %s GPUs per expert-parallel group (%s): %s in each of %s "
                  "HB domain%s; experts per GPU: %s\n", ry_num_int(n1, sizeof n1, a->ep),
                  m->w.expert ? "as the spec sets it" : "auto: the largest that fits",
                  ry_num_int(n2, sizeof n2, a->ep_in), ry_num_int(n3, sizeof n3, a->domains),
                  a->domains == 1 ? "" : "s",
                  ry_num_sig(n4, sizeof n4, (double)l->moe.experts / (double)a->ep, 3));
    ry_buf_printf(o, "  routing     uniform; %s tokens per GPU, %d all-to-alls per block "
                  "(dispatch + combine, forward + backward%s)\n",
                  ry_num_sig(n1, sizeof n1, a->tokens_per_gpu, 4), in->passes,
                  in->passes > 4 ? " + recomputed forward" : "");
    ry_buf_printf(o, "  per GPU, block and all-to-all: %s = tokens x top_k x d_model x %d B\n",
                  ry_num_si(n1, sizeof n1, a->pass_bytes, "B", 3), in->bytes);
    ry_buf_printf(o, "    kept %s, to the domain over NVLink %s, to other domains %s "
                  "(%.1f%% of it to the sender's rail)\n", ry_num_si(n1, sizeof n1, a->self, "B", 3),
                  ry_num_si(n2, sizeof n2, a->nvlink, "B", 3), ry_num_si(n3, sizeof n3, a->net, "B", 3),
                  pct(a->net_same_rail, a->net));
    ry_buf_printf(o, "    rail-only: %s forwarded over NVLink to the destination's rail first\n",
                  ry_num_si(n1, sizeof n1, a->fwd, "B", 3));
    /* The iteration without the all-to-all, and each design's with it. */
    double T = held ? iter - exposed : iter;
    if (held) {
        ry_buf_printf(o, "  %-22s %14s %14s %14s\n", "per iteration", "NVLink bytes",
                      "network bytes", "all-to-all");
        ry_buf_printf(o, "  %-22s %14s %14s %14s\n", "rail-optimized",
                      ry_num_si(n1, sizeof n1, a->it_nvlink, "B", 3),
                      ry_num_si(n2, sizeof n2, a->it_net, "B", 3),
                      ry_num_si(n3, sizeof n3, a->opt_s, "s", 4));
        ry_buf_printf(o, "  %-22s %14s %14s %14s\n", "rail-only",
                      ry_num_si(n1, sizeof n1, a->it_nvlink + a->it_fwd, "B", 3),
                      ry_num_si(n2, sizeof n2, a->it_net, "B", 3),
                      ry_num_si(n3, sizeof n3, a->ro_s, "s", 4));
    } else {
        ry_buf_printf(o, "  %-22s %14s %14s %14s %16s\n", "per iteration", "NVLink bytes",
                      "network bytes", "all-to-all", "iteration + a2a");
        ry_buf_printf(o, "  %-22s %14s %14s %14s %16s\n", "rail-optimized",
                      ry_num_si(n1, sizeof n1, a->it_nvlink, "B", 3),
                      ry_num_si(n2, sizeof n2, a->it_net, "B", 3),
                      ry_num_si(n3, sizeof n3, a->opt_s, "s", 4),
                      ry_num_si(n4, sizeof n4, T + a->opt_s, "s", 4));
        ry_buf_printf(o, "  %-22s %14s %14s %14s %16s\n", "rail-only",
                      ry_num_si(n1, sizeof n1, a->it_nvlink + a->it_fwd, "B", 3),
                      ry_num_si(n2, sizeof n2, a->it_net, "B", 3),
                      ry_num_si(n3, sizeof n3, a->ro_s, "s", 4),
                      ry_num_si(n4, sizeof n4, T + a->ro_s, "s", 4));
    }
    ry_buf_printf(o, "  rail-only all-to-all %+.1f%% against rail-optimized (iteration %+.2f%%); "
                  "NVLink carries %sx the bytes\n", 100 * a->slowdown,
                  pct(a->ro_s - a->opt_s, T + a->opt_s), ry_num_sig(n1, sizeof n1, 1 + a->nvlink_extra, 4));
    if (held)
        ry_buf_printf(o, "  on this %s fabric the all-to-all takes %s, of which the iteration time "
                      "above holds %s%s\n\n",
                      ry_design_name(s->design), ry_num_si(n1, sizeof n1, m->moe_s, "s", 4),
                      ry_num_si(n2, sizeof n2, exposed, "s", 4),
                      exposed < m->moe_s * (1 - 1e-9) ? " (the rest hidden behind compute)" : "");
    else
        ry_buf_printf(o, "  on this %s fabric: iteration time + all-to-all = %s, %s tokens per "
                      "second\n\n", ry_design_name(s->design),
                      ry_num_si(n1, sizeof n1, T + m->moe_s, "s", 4),
                      ry_num_sig(n2, sizeof n2, m->in.b / (T + m->moe_s), 4));
}

static json_t *design_json(double nvl, double net, double nvl_s, double net_s, double tot,
                           double T)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "nvlink_bytes", nvl, "network_bytes", net,
                     "nvlink_s", nvl_s, "network_s", net_s, "all_to_all_s", tot,
                     "t_iter_with_a2a_s", T + tot);
}

json_t *ry_moe_json(const ry_spec *s, const ry_model *m, double iter, double exposed)
{
    if (!m->has_moe)
        return NULL;
    const ry_llm *l = &m->w.model;
    const ry_moe_in *in = &m->moe_in;
    const ry_moe_a2a *a = &m->moe;
    double T = exposed >= 0 ? iter - exposed : iter;
    json_t *j = json_object();
    json_object_set_new(j, "experts", json_integer(l->moe.experts));
    json_object_set_new(j, "top_k", json_integer(l->moe.top_k));
    json_object_set_new(j, "shared_experts", json_integer(l->moe.shared_experts));
    json_object_set_new(j, "expert_hidden", json_integer(l->moe.expert_hidden));
    json_object_set_new(j, "active_parameters", json_real(l->moe.active_parameters));
    json_object_set_new(j, "moe_blocks", json_integer(in->blocks));
    json_object_set_new(j, "expert_parallel", json_integer(a->ep));
    json_object_set_new(j, "expert_parallel_auto", json_boolean(m->w.expert == 0));
    json_object_set_new(j, "ep_per_domain", json_integer(a->ep_in));
    json_object_set_new(j, "ep_domains", json_integer(a->domains));
    json_object_set_new(j, "passes", json_integer(in->passes));
    json_object_set_new(j, "tokens_per_gpu", json_real(a->tokens_per_gpu));
    json_object_set_new(j, "pass_bytes", json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "sent",
                        a->pass_bytes, "kept", a->self, "nvlink", a->nvlink, "network", a->net,
                        "network_same_rail", a->net_same_rail, "forwarded", a->fwd));
    json_object_set_new(j, "rail_optimized", design_json(a->it_nvlink, a->it_net, a->opt_nvlink_s,
                        a->opt_net_s, a->opt_s, T));
    json_object_set_new(j, "rail_only", design_json(a->it_nvlink + a->it_fwd, a->it_net,
                        a->ro_nvlink_s, a->ro_net_s, a->ro_s, T));
    json_object_set_new(j, "forwarded_bytes", json_real(a->it_fwd));
    json_object_set_new(j, "slowdown", json_real(a->slowdown));
    json_object_set_new(j, "nvlink_extra", json_real(a->nvlink_extra));
    json_object_set_new(j, "all_to_all_s", json_real(m->moe_s));
    /* the iteration reported holds the all-to-all's exposed part (the full
     * model), or none of it (eq. 1) */
    json_object_set_new(j, "in_iteration_s", json_real(exposed >= 0 ? exposed : 0));
    json_object_set_new(j, "t_iter_with_a2a_s", json_real(T + m->moe_s));
    json_object_set_new(j, "design", json_string(ry_design_name(s->design)));
    return j;
}

/* ---- traffic ----------------------------------------------------------------------------- */

static void moe_traffic_text(ry_buf *o, const ry_spec *s, const ry_model *m, const ry_fabric *f,
                             const ry_moe_traffic *mt)
{
    const ry_moe_a2a *a = &m->moe;
    char b1[32], b2[32], b3[32], b4[32];
    double pair = mt->sent > 0 ? mt->sent / (double)(mt->pairs_nvlink + mt->pairs_same_rail +
                                                    mt->pairs_cross_rail) : 0;
    char n1[RY_NUM_CAP], n2[RY_NUM_CAP], n3[RY_NUM_CAP];
    ry_buf_printf(o, "\nExpert all-to-all (EP = %s: %s GPUs in each of %s HB domain%s; "
                  "%s per ordered pair and iteration)\n", ry_num_int(n1, sizeof n1, a->ep),
                  ry_num_int(n2, sizeof n2, a->ep_in), ry_num_int(n3, sizeof n3, a->domains),
                  a->domains == 1 ? "" : "s", ry_fmt_bytes(b1, sizeof b1, pair));
    ry_buf_printf(o, "  %-40s %14s %14s\n", "ordered pairs", "pairs", "bytes");
    ry_buf_printf(o, "  %-40s %14s %14s\n", "in one domain (NVLink)", ry_num_int(n1, sizeof n1, mt->pairs_nvlink),
                  ry_fmt_bytes(b1, sizeof b1, mt->nvlink));
    ry_buf_printf(o, "  %-40s %14s %14s\n", "across domains, one rail", ry_num_int(n1, sizeof n1, mt->pairs_same_rail),
                  ry_fmt_bytes(b1, sizeof b1, pair * (double)mt->pairs_same_rail));
    ry_buf_printf(o, "  %-40s %14s %14s\n", "across domains and rails", ry_num_int(n1, sizeof n1, mt->pairs_cross_rail),
                  ry_fmt_bytes(b1, sizeof b1, pair * (double)mt->pairs_cross_rail));
    ry_buf_printf(o, "  sent %s, received %s (over NVLink %s, off the network %s)\n",
                  ry_fmt_bytes(b1, sizeof b1, mt->sent), ry_fmt_bytes(b2, sizeof b2, mt->received),
                  ry_fmt_bytes(b3, sizeof b3, mt->nvlink),
                  ry_fmt_bytes(b4, sizeof b4, mt->delivered));
    if (f->design == RY_DESIGN_RAIL_ONLY)
        ry_buf_printf(o, "  rail-only: %s cross rails; they go over NVLink first to the GPU "
                      "of the sender's domain on the receiver's rail (the forwarding hop, "
                      "a2a-gpus.csv), then over that rail\n",
                      ry_fmt_bytes(b1, sizeof b1, mt->forwarded));
    else
        ry_buf_printf(o, "  %s: every GPU reaches every GPU over the network (no forwarding); "
                      "on rail-only %s would take an NVLink hop first\n",
                      ry_design_name(s->design),
                      ry_fmt_bytes(b1, sizeof b1, a->it_fwd * (double)m->moe_in.N));
    ry_buf_printf(o, "  on the %s fabric%s: flows %s, bytes on the network %s, link crossings "
                  "%s\n", ry_design_name(s->design),
                  mt->net.engine && !mt->net.analytic_phases ? " (on the flow engine)" : "",
                  ry_num_int(n1, sizeof n1, mt->net.flows),
                  ry_fmt_bytes(b1, sizeof b1, mt->network), ry_num_int(n2, sizeof n2, mt->net.hops));
    if (mt->net.analytic_phases)
        ry_buf_printf(o, "  routed up-down instead of on the flow engine: more flows than the "
                      "%s one phase of the engine holds\n", ry_num_int(n1, sizeof n1,
                                                                       (long long)RY_COLL_MAX_FLOWS));
    ry_buf_printf(o, "  %-18s %9s %9s %7s %14s %14s\n", "links", "count", "idle", "idle", "bytes",
                  "busiest");
    for (int tr = 1; tr <= f->tiers; tr++) {
        char what[48];
        snprintf(what, sizeof what, "%s-%s", tr == 1 ? "gpu" : ry_tier_name(tr - 1, f->tiers),
                 ry_tier_name(tr, f->tiers));
        ry_buf_printf(o, "  %-18s %9s %9s %6.1f%% %14s %14s\n", what,
                      ry_num_int(n1, sizeof n1, mt->net.tier[tr].links),
                      ry_num_int(n2, sizeof n2, mt->net.tier[tr].idle),
                      pct((double)mt->net.tier[tr].idle, (double)mt->net.tier[tr].links),
                      ry_fmt_bytes(b1, sizeof b1, mt->net.tier[tr].bytes),
                      ry_fmt_bytes(b2, sizeof b2, mt->net.tier[tr].max));
    }
    ry_buf_printf(o, "  %-18s %9s %9s %6.1f%%\n", "all", ry_num_int(n1, sizeof n1, mt->net.links),
                  ry_num_int(n2, sizeof n2, mt->net.idle),
                  pct((double)mt->net.idle, (double)mt->net.links));
    ry_buf_puts(o, "  (the trimmed fabric above keeps the links the all-to-all uses)\n");
}

static json_t *moe_traffic_json(const ry_model *m, const ry_fabric *f, const ry_moe_traffic *mt)
{
    json_t *tiers = json_array();
    for (int tr = 1; tr <= f->tiers; tr++)
        json_array_append_new(tiers, json_pack("{s:i, s:I, s:I, s:f, s:f}", "tier", tr, "links",
                              (json_int_t)mt->net.tier[tr].links, "idle",
                              (json_int_t)mt->net.tier[tr].idle, "bytes",
                              mt->net.tier[tr].bytes, "busiest", mt->net.tier[tr].max));
    json_t *j = json_object();
    json_object_set_new(j, "expert_parallel", json_integer(m->moe.ep));
    json_object_set_new(j, "ep_per_domain", json_integer(m->moe.ep_in));
    json_object_set_new(j, "ep_domains", json_integer(m->moe.domains));
    json_object_set_new(j, "pairs", json_pack("{s:I, s:I, s:I}", "nvlink",
                        (json_int_t)mt->pairs_nvlink, "same_rail", (json_int_t)mt->pairs_same_rail,
                        "cross_rail", (json_int_t)mt->pairs_cross_rail));
    json_object_set_new(j, "sent", json_real(mt->sent));
    json_object_set_new(j, "received", json_real(mt->received));
    json_object_set_new(j, "nvlink", json_real(mt->nvlink));
    json_object_set_new(j, "forwarded", json_real(mt->forwarded));
    json_object_set_new(j, "network", json_real(mt->network));
    json_object_set_new(j, "delivered", json_real(mt->delivered));
    json_object_set_new(j, "flows", json_integer(mt->net.flows));
    json_object_set_new(j, "link_crossings", json_integer(mt->net.hops));
    json_object_set_new(j, "links", json_integer(mt->net.links));
    json_object_set_new(j, "idle", json_integer(mt->net.idle));
    json_object_set_new(j, "per_tier", tiers);
    if (mt->net.engine) {
        json_object_set_new(j, "loads", json_string(mt->net.analytic_phases ? "analytic"
                                                                            : "engine"));
        json_object_set_new(j, "analytic_dimensions", mt->net.analytic_phases
                                                       ? json_string(mt->net.analytic)
                                                       : json_null());
    }
    return j;
}

void ry_emit_moe_traffic(ry_buf *o, const ry_spec *s, const ry_model *m, const ry_fabric *f,
                         const ry_moe_traffic *mt, ry_format fmt)
{
    if (!m->has_moe)
        return;
    if (fmt != RY_FMT_JSON) {
        moe_traffic_text(o, s, m, f, mt);
        return;
    }
    json_t *j = json_loadb(o->data, o->len, 0, NULL);
    if (!j)
        return;
    json_object_set_new(j, "moe", moe_traffic_json(m, f, mt));
    ry_buf_reset(o);
    ry_json_out(o, j, 0);
}

void ry_emit_moe_gpus(ry_buf *o, const ry_fabric *f, const ry_moe_traffic *mt)
{
    /* a GPU by its host and NIC (its first plane's), as cabling.csv names them */
    ry_buf_puts(o, "host,nic,domain,rail,forward_out,forward_in,network_out,network_in");
    ry_csv_end(o);
    for (long long g = 0; g < f->gpus; g++) {
        char desc[192];
        ry_ca_desc(f, (uint32_t)(g * f->planes), desc, sizeof desc);
        char *sp = strchr(desc, ' ');
        if (sp)
            *sp++ = '\0';
        ry_csv_fields(o, (const char *const[]){ desc, sp ? sp : "" }, 2);
        ry_buf_printf(o, ",%d,%d,%.9g,%.9g,%.9g,%.9g", f->nodes[g].group, f->nodes[g].rail,
                      mt->gpu_fwd_out[g], mt->gpu_fwd_in[g], mt->gpu_net_out[g], mt->gpu_net_in[g]);
        ry_csv_end(o);
    }
}
