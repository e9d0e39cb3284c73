/* The expert all-to-all as text and JSON (see emit_moe.h). */
#include "emit/emit_moe.h"

#include "spec/catalog.h"

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0; }

void ry_emit_moe_text(ry_buf *o, const ry_spec *s, const ry_model *m)
{
    if (!m->has_moe)
        return;
    const ry_llm *l = &m->w.model;
    const ry_moe_in *in = &m->moe_in;
    const ry_moe_a2a *a = &m->moe;
    ry_buf_printf(o, "Mixture of experts (expert all-to-all, not in eq. 1's terms above)\n");
    ry_buf_printf(o, "  experts     %d routed, top-%d", l->moe.experts, l->moe.top_k);
    if (l->moe.shared_experts)
        ry_buf_printf(o, ", %d shared (local)", l->moe.shared_experts);
    ry_buf_printf(o, ", expert hidden %d; %d MoE blocks of %d; %.4g active parameters "
                  "(6NT counts these)\n", l->moe.expert_hidden, in->blocks, l->layers,
                  l->moe.active_parameters);
    ry_buf_printf(o, "  EP          %lld GPUs per expert-parallel group (%s): %lld in each of %lld "
                  "HB domain%s, %g experts per GPU\n", a->ep,
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
                  "NVLink carries %.1f%% more bytes\n", 100 * a->slowdown,
                  pct(a->ro_s - a->opt_s, T + a->opt_s), 100 * a->nvlink_extra);
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
