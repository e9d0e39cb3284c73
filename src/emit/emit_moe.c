/* The expert all-to-all as text and JSON (see emit_moe.h). */
#include "emit/emit_moe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "emit/emit_model.h"
#include "fabric/names.h"
#include "spec/catalog.h"

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0; }

void ry_emit_moe_text(ry_buf *o, const ry_spec *s, const ry_model *m)
{
    if (!m->has_moe)
        return;
    const ry_llm *l = &m->w.model;
    const ry_moe_in *in = &m->moe_in;
    const ry_moe_a2a *a = &m->moe;
    ry_buf_printf(o, "Mixture of experts (expert all-to-all, not in the iteration time above)\n");
    ry_buf_printf(o, "  experts     %d routed, top-%d", l->moe.experts, l->moe.top_k);
    if (l->moe.shared_experts)
        ry_buf_printf(o, ", %d shared (local)", l->moe.shared_experts);
    ry_buf_printf(o, ", expert hidden %d; %d MoE blocks of %d; %.4g active parameters "
                  "(6NT counts these)\n", l->moe.expert_hidden, in->blocks, l->layers,
                  l->moe.active_parameters);
    ry_buf_printf(o, "  EP          %lld GPUs per expert-parallel group (%s): %lld in each of %lld "
                  "HB domain%s; experts per GPU: %g\n", a->ep,
                  m->w.expert ? "as the spec sets it" : "auto: the largest that fits", a->ep_in,
                  a->domains, a->domains == 1 ? "" : "s", (double)l->moe.experts / (double)a->ep);
    ry_buf_printf(o, "  routing     uniform; %.6g tokens per GPU, %d all-to-alls per block "
                  "(dispatch + combine, forward + backward%s)\n", a->tokens_per_gpu, in->passes,
                  in->passes > 4 ? " + recomputed forward" : "");
    ry_buf_printf(o, "  per GPU, block and all-to-all: %.6g bytes = tokens x top_k x d_model x %d B\n",
                  a->pass_bytes, in->bytes);
    ry_buf_printf(o, "    kept %.6g, to the domain over NVLink %.6g, to other domains %.6g "
                  "(%.1f%% of it to the sender's rail)\n", a->self, a->nvlink, a->net,
                  pct(a->net_same_rail, a->net));
    ry_buf_printf(o, "    rail-only: %.6g forwarded over NVLink to the destination's rail first\n",
                  a->fwd);
    ry_buf_printf(o, "  %-22s %14s %14s %14s %14s\n", "per iteration", "NVLink bytes",
                  "network bytes", "all-to-all s", "T_iter + a2a s");
    double T = m->best.total;
    ry_buf_printf(o, "  %-22s %14.6g %14.6g %14.6f %14.6f\n", "rail-optimized", a->it_nvlink,
                  a->it_net, a->opt_s, T + a->opt_s);
    ry_buf_printf(o, "  %-22s %14.6g %14.6g %14.6f %14.6f\n", "rail-only", a->it_nvlink + a->it_fwd,
                  a->it_net, a->ro_s, T + a->ro_s);
    ry_buf_printf(o, "  rail-only all-to-all %+.1f%% against rail-optimized (iteration %+.2f%%); "
                  "NVLink carries %.4gx the bytes\n", 100 * a->slowdown,
                  pct(a->ro_s - a->opt_s, T + a->opt_s), 1 + a->nvlink_extra);
    ry_buf_printf(o, "  on this %s fabric: T_iter + all-to-all = %.6f s, %.6g tokens per second\n\n",
                  ry_design_name(s->design), T + m->moe_s, m->in.b / (T + m->moe_s));
}

static json_t *design_json(double nvl, double net, double nvl_s, double net_s, double tot,
                           double T)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "nvlink_bytes", nvl, "network_bytes", net,
                     "nvlink_s", nvl_s, "network_s", net_s, "all_to_all_s", tot,
                     "t_iter_with_a2a_s", T + tot);
}

json_t *ry_moe_json(const ry_spec *s, const ry_model *m)
{
    if (!m->has_moe)
        return NULL;
    const ry_llm *l = &m->w.model;
    const ry_moe_in *in = &m->moe_in;
    const ry_moe_a2a *a = &m->moe;
    double T = m->best.total;
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
    ry_buf_printf(o, "\nExpert all-to-all (EP = %lld: %lld GPUs in each of %lld HB domain%s; "
                  "%s per ordered pair and iteration)\n", a->ep, a->ep_in, a->domains,
                  a->domains == 1 ? "" : "s", ry_fmt_bytes(b1, sizeof b1, pair));
    ry_buf_printf(o, "  %-40s %14s %14s\n", "ordered pairs", "pairs", "bytes");
    ry_buf_printf(o, "  %-40s %14lld %14s\n", "in one domain (NVLink)", mt->pairs_nvlink,
                  ry_fmt_bytes(b1, sizeof b1, mt->nvlink));
    ry_buf_printf(o, "  %-40s %14lld %14s\n", "across domains, one rail", mt->pairs_same_rail,
                  ry_fmt_bytes(b1, sizeof b1, pair * (double)mt->pairs_same_rail));
    ry_buf_printf(o, "  %-40s %14lld %14s\n", "across domains and rails", mt->pairs_cross_rail,
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
    ry_buf_printf(o, "  on the %s fabric: flows %lld, bytes on the network %s, link crossings "
                  "%lld\n", ry_design_name(s->design), mt->net.flows,
                  ry_fmt_bytes(b1, sizeof b1, mt->network), mt->net.hops);
    ry_buf_printf(o, "  %-18s %9s %9s %7s %14s %14s\n", "links", "count", "idle", "idle", "bytes",
                  "busiest");
    for (int tr = 1; tr <= f->tiers; tr++) {
        char what[48];
        snprintf(what, sizeof what, "%s-%s", tr == 1 ? "gpu" : ry_tier_name(tr - 1, f->tiers),
                 ry_tier_name(tr, f->tiers));
        ry_buf_printf(o, "  %-18s %9lld %9lld %6.1f%% %14s %14s\n", what,
                      mt->net.tier[tr].links, mt->net.tier[tr].idle,
                      pct((double)mt->net.tier[tr].idle, (double)mt->net.tier[tr].links),
                      ry_fmt_bytes(b1, sizeof b1, mt->net.tier[tr].bytes),
                      ry_fmt_bytes(b2, sizeof b2, mt->net.tier[tr].max));
    }
    ry_buf_printf(o, "  %-18s %9lld %9lld %6.1f%%\n", "all", mt->net.links, mt->net.idle,
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
    char *txt = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    ry_buf_reset(o);
    ry_buf_puts(o, txt);
    ry_buf_putc(o, '\n');
    free(txt);
    json_decref(j);
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
        ry_csv_field(o, desc);
        ry_buf_putc(o, ',');
        ry_csv_field(o, sp ? sp : "");
        ry_buf_printf(o, ",%d,%d,%.9g,%.9g,%.9g,%.9g", f->nodes[g].group, f->nodes[g].rail,
                      mt->gpu_fwd_out[g], mt->gpu_fwd_in[g], mt->gpu_net_out[g], mt->gpu_net_in[g]);
        ry_csv_end(o);
    }
}
