/* LIBRA's report: text for people, JSON and CSV for programs. */
#include "emit/model/emit_libra.h"
#include "emit/model/emit_parallelism.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"
#include "model/libra_eval.h"

#define MAXD RY_LIBRA_MAX_DIMS

/* 123456789 -> "123,456,789" (rounded to whole dollars). */
static const char *money(char *buf, size_t cap, double v)
{
    return ry_num_fixed(buf, cap, v, 0);
}

/* A quantity to six significant digits, grouped (never in e-notation). */
typedef struct num6 {
    char s[RY_NUM_CAP];
} num6;

static num6 sig6(double v)
{
    num6 n;
    ry_num_sig(n.s, sizeof n.s, v, 6);
    return n;
}

static num6 fixed4(double v)
{
    num6 n;
    ry_num_fixed(n.s, sizeof n.s, v, 4);
    return n;
}

static const char *status_name(int st)
{
    switch (st) {
    case 1: return "success";
    case 2: return "stopval";
    case 3: return "ftol";
    case 4: return "xtol";
    case 5: return "maxeval";
    case 6: return "maxtime";
    case -1: return "failure";
    case -2: return "invalid";
    case -3: return "out-of-memory";
    case -4: return "roundoff";
    case -5: return "forced-stop";
    default: return "?";
    }
}

static void report_text(ry_buf *o, const char *name, const ry_libra_problem *p,
                        const ry_libra_result *r, const ry_libra_summary *sm)
{
    const ry_libra_net *n = &p->net;
    int d = n->ndims;
    char m1[64], m2[64];
    ry_buf_printf(o, "LIBRA: %s, objective %s\n", name, ry_libra_objective_name(p->objective));
    ry_buf_printf(o, "network: %d dimension%s, %s NPUs%s\n", d, d == 1 ? "" : "s", ry_n(n->npus),
                  n->derived ? " (from the cluster: HB domain, scale-out)" : "");
    ry_buf_printf(o, "workload: %s; %s collective%s and %s s of compute per iteration; "
                  "%d max term%s\n", p->wl.source, ry_n(r->collectives),
                  r->collectives == 1 ? "" : "s", sig6(r->compute).s, r->nterms,
                  r->nterms == 1 ? "" : "s");
    ry_buf_printf(o, "baseline: %s\n\n", p->baseline_from);

    ry_buf_printf(o, "%-12s %-15s %6s %9s %12s | %12s %11s | %12s %11s\n", "dimension",
                  "block", "size", "USD/GB/s", "traffic GB", "optimum GB/s", "busy s",
                  "equal GB/s", "busy s");
    for (int i = 0; i < d; i++) {
        const ry_libra_dim *dm = &n->dim[i];
        char uc[RY_NUM_CAP];
        ry_num_sig(uc, sizeof uc, ry_libra_unit_cost(dm), 4);
        ry_buf_printf(o, "%-12s %-15s %6s %9s %12s | %12s %11s | %12s %11s\n",
                      dm->name, ry_libra_block_name(dm->block), ry_n(dm->size), uc,
                      sig6(r->traffic[i]).s, fixed4(r->best.bw[i]).s, sig6(r->best.busy[i]).s,
                      fixed4(r->base.bw[i]).s, sig6(r->base.busy[i]).s);
    }
    ry_buf_printf(o, "%-12s %-15s %6s %9s %12s | %12s %11s | %12s %11s\n\n", "total", "",
                  "", "", sig6(sm->traffic_total).s, fixed4(sm->best_bw_total).s, "",
                  fixed4(sm->base_bw_total).s, "");

    ry_buf_printf(o, "%-22s %18s %18s\n", "", "optimum", "equal split");
    ry_buf_printf(o, "%-22s %18s %18s\n", "iteration time (s)", sig6(r->best.time).s,
                  sig6(r->base.time).s);
    ry_buf_printf(o, "%-22s %18s %18s\n", "LIBRA cost (USD)",
                  money(m1, sizeof m1, r->best.cost), money(m2, sizeof m2, r->base.cost));
    ry_buf_printf(o, "%-22s %18s %18s\n", "time x cost (s USD)",
                  sig6(sm->best_time_cost).s, sig6(sm->base_time_cost).s);
    ry_buf_printf(o, "speedup %.4fx, perf-per-cost gain %.4fx over the equal split\n",
                  r->speedup, r->ppc_gain);
    ry_buf_puts(o, "(LIBRA cost: NPUs x bandwidth x LIBRA's own USD/GB/s of each dimension, "
                   "templates/libra-costs.yaml\n or network.dims; not a capex: railyard bom "
                   "prices a fabric's switches, optics and cables)\n");
    if (!r->base_feasible)
        ry_buf_printf(o, "note: the equal split breaks %s; it is a reference, not a "
                      "candidate\n", r->base_violates);
    if (r->solver_worse)
        ry_buf_printf(o, "note: the solver's best (%s) was worse than the equal split, which "
                      "meets every constraint; the equal split is reported\n",
                      sig6(r->solver_best).s);
    ry_buf_putc(o, '\n');

    char viol[RY_NUM_CAP];
    ry_num_sig(viol, sizeof viol, r->best.violation, 2);
    ry_buf_printf(o, "constraints (largest violation %s GB/s; a constraint binds at slack "
                  "0):\n", viol);
    for (int k = 0; k < p->ncons; k++) {
        const ry_libra_con *c = &p->cons[k];
        const ry_libra_con_state *cs = &sm->cons[k];
        char state[96];
        if (c->op == RY_CON_EQ)
            snprintf(state, sizeof state, "holds (equality)");
        else if (c->kind == RY_CON_COST)
            snprintf(state, sizeof state, "%s of %s USD", money(m1, sizeof m1, r->best.cost),
                     money(m2, sizeof m2, cs->cost_cap));
        else if (cs->binding)
            snprintf(state, sizeof state, "binds");
        else
            snprintf(state, sizeof state, "slack %s", sig6(cs->slack).s);
        ry_buf_printf(o, "  %-22s %-9s %-32s %s\n", c->where, ry_con_kind_name(c->kind), c->text,
                      state);
    }
    if (p->ncons == 0)
        ry_buf_puts(o, "  none\n");
    ry_buf_putc(o, '\n');

    ry_buf_printf(o, "solver: NLopt SLSQP, %d starts on the smoothed problem (%d bandwidths), "
                  "then the exact epigraph form (%d max term%s); %d distinct local optim%s, "
                  "worst start %+.4f%% from the optimum\n", r->nstarts, d, r->nterms,
                  r->nterms == 1 ? "" : "s",
                  r->ndistinct, r->ndistinct == 1 ? "um" : "a", 100 * r->worst_gap);
    char gain[RY_NUM_CAP];
    ry_num_sig(gain, sizeof gain, fabs(100 * r->polish_gain), 2);
    if (r->chosen >= 0 && r->polish_gain > 0)
        ry_buf_printf(o, "chosen: start %d '%s', polished on the exact problem (objective "
                      "%s%s%% relative, %d evaluations)\n", r->chosen + 1,
                      r->starts[r->chosen].label, r->polish_gain > 0 ? "-" : "+",
                      gain, r->polish_evals);
    else if (r->chosen >= 0)
        ry_buf_printf(o, "chosen: start %d '%s' (polishing on the exact problem found nothing "
                      "better)\n", r->chosen + 1, r->starts[r->chosen].label);
    else
        ry_buf_puts(o, "chosen: the equal split\n");
    ry_buf_printf(o, "  %-3s %-18s %14s %14s %10s %6s %-9s %s\n", "#", "start", "time s",
                  "objective", "gap", "evals", "status", "optimum");
    /* objective: time, or time x cost; gap: from the polished optimum */
    for (int k = 0; k < r->nstarts; k++) {
        const ry_libra_start *s = &r->starts[k];
        char gap[32], cl[16];
        double g = sm->start_gap[k];
        if (isfinite(s->objective) && s->cluster >= 0)
            snprintf(gap, sizeof gap, "%+.4f%%", fabs(g) < 5e-7 ? 0.0 : 100 * g);
        else
            snprintf(gap, sizeof gap, "-");
        if (s->cluster >= 0)
            snprintf(cl, sizeof cl, "%d", s->cluster + 1);
        else
            snprintf(cl, sizeof cl, "infeasible");
        ry_buf_printf(o, "  %-3d %-18s %14s %14s %10s %6d %-9s %s%s\n", k + 1, s->label,
                      sig6(s->time).s, sig6(s->objective).s, gap, s->evals,
                      status_name(s->status), cl,
                      s->polished ? " (projected)" : "");
    }
}

static json_t *num_array(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

static void report_json(ry_buf *o, const char *name, const ry_libra_problem *p,
                        const ry_libra_result *r, const ry_libra_summary *sm)
{
    const ry_libra_net *n = &p->net;
    int d = n->ndims;
    json_t *dims = json_array();
    for (int i = 0; i < d; i++) {
        const ry_libra_dim *dm = &n->dim[i];
        json_array_append_new(dims, json_pack(
            "{s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "name", dm->name,
            "block", ry_libra_block_name(dm->block), "size", dm->size,
            "unit_cost_usd_per_gbytes_per_s", ry_libra_unit_cost(dm), "traffic_gbytes",
            r->traffic[i], "bandwidth_gbytes_per_s", r->best.bw[i], "busy_s", r->best.busy[i],
            "baseline_bandwidth_gbytes_per_s", r->base.bw[i], "baseline_busy_s",
            r->base.busy[i]));
    }
    json_t *cons = json_array();
    for (int k = 0; k < p->ncons; k++) {
        const ry_libra_con *c = &p->cons[k];
        json_array_append_new(cons, json_pack(
            "{s:s, s:s, s:s, s:s, s:f, s:b}", "where", c->where, "text", c->text,
            "kind", ry_con_kind_name(c->kind), "op", c->op == RY_CON_EQ ? "==" : "<=",
            "slack", sm->cons[k].slack, "binding", sm->cons[k].binding));
    }
    json_t *starts = json_array();
    for (int k = 0; k < r->nstarts; k++) {
        const ry_libra_start *s = &r->starts[k];
        json_t *j = json_pack("{s:s, s:o, s:f, s:f, s:s, s:i, s:b}", "label", s->label,
                              "bandwidth_gbytes_per_s", num_array(s->bw, d), "time_s", s->time,
                              "libra_cost_usd", s->cost, "status", status_name(s->status),
                              "evals", s->evals, "projected", s->polished);
        json_object_set_new(j, "objective", isfinite(s->objective) ? json_real(s->objective)
                                                                   : json_null());
        json_object_set_new(j, "gap", s->cluster >= 0 ? json_real(sm->start_gap[k])
                                                      : json_null());
        json_object_set_new(j, "optimum", s->cluster >= 0 ? json_integer(s->cluster + 1)
                                                          : json_null());
        json_array_append_new(starts, j);
    }
    json_t *root = json_pack(
        "{s:s, s:s, s:I, s:o, s:{s:s, s:i, s:I, s:f, s:i},"
        " s:{s:o, s:f, s:f, s:f},"
        " s:{s:o, s:f, s:f, s:f, s:b, s:s},"
        " s:f, s:f, s:o, s:f}",
        "name", name, "objective", ry_libra_objective_name(p->objective),
        "npus", (json_int_t)n->npus, "dimensions", dims,
        "workload", "source", p->wl.source, "layers", p->wl.nlayers,
        "collectives", (json_int_t)r->collectives, "compute_s", r->compute,
        "max_terms", r->nterms,
        "optimum", "bandwidth_gbytes_per_s", num_array(r->best.bw, d), "time_s", r->best.time,
        "libra_cost_usd", r->best.cost, "time_x_cost", sm->best_time_cost,
        "baseline", "bandwidth_gbytes_per_s", num_array(r->base.bw, d), "time_s", r->base.time,
        "libra_cost_usd", r->base.cost, "time_x_cost", sm->base_time_cost,
        "feasible", r->base_feasible, "from", p->baseline_from,
        "speedup", r->speedup, "perf_per_cost_gain", r->ppc_gain,
        "constraints", cons, "max_violation", r->best.violation);
    json_t *solver = json_pack("{s:s, s:i, s:i, s:i, s:f, s:f, s:i, s:b, s:o}", "algorithm",
                               "SLSQP", "max_terms", r->nterms, "starts", r->nstarts,
                               "distinct_optima", r->ndistinct, "worst_gap", r->worst_gap,
                               "polish_gain", r->polish_gain, "polish_evals", r->polish_evals,
                               "kept_baseline", r->solver_worse, "runs", starts);
    json_object_set_new(solver, "chosen", r->chosen >= 0 ? json_string(r->starts[r->chosen].label)
                                                         : json_string("equal split"));
    json_object_set_new(root, "solver", solver);
    if (p->has_par)
        json_object_set_new(root, "layout", ry_parallelism_json(&p->par));
    /* libra_cost_usd is LIBRA's own model (USD per GB/s of each dimension), not a capex */
    json_object_set_new(root, "cost_model", json_string("libra"));
    ry_json_out(o, root, 12);
}

static void report_csv(ry_buf *o, const ry_libra_problem *p, const ry_libra_result *r,
                       const ry_libra_summary *sm)
{
    const ry_libra_net *n = &p->net;
    int d = n->ndims;
    /* LIBRA's bandwidths are GB/s (bytes); bandwidth_gbps is the same in
     * Gb/s (bits), as links are rated (railyard-spec(5), UNITS). */
    ry_buf_puts(o, "dim,name,block,size,unit_cost_usd_per_gbytes_per_s,traffic_gbytes,"
                   "bandwidth_gbytes_per_s,bandwidth_gbps,busy_s,"
                   "baseline_bandwidth_gbytes_per_s,baseline_busy_s,time_s,libra_cost_usd,"
                   "baseline_time_s,baseline_libra_cost_usd,speedup,perf_per_cost_gain\n");
    for (int i = 0; i < d; i++) {
        const ry_libra_dim *dm = &n->dim[i];
        ry_buf_printf(o, "%d,%s,%s,%d,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,,,,,,\n", i,
                      dm->name, ry_libra_block_name(dm->block), dm->size,
                      ry_libra_unit_cost(dm), r->traffic[i], r->best.bw[i], r->best.bw[i] * 8,
                      r->best.busy[i], r->base.bw[i], r->base.busy[i]);
    }
    ry_buf_printf(o, "total,,,%lld,,%.10g,%.10g,%.10g,,%.10g,,%.10g,%.10g,%.10g,%.10g,%.10g,"
                  "%.10g\n", n->npus, sm->traffic_total, sm->best_bw_total,
                  sm->best_bw_total * 8, sm->base_bw_total, r->best.time, r->best.cost,
                  r->base.time, r->base.cost, r->speedup, r->ppc_gain);
}

void ry_emit_libra(ry_buf *out, const char *name, const ry_libra_problem *p,
                   const ry_libra_result *r, ry_format fmt)
{
    ry_libra_summary sm;
    ry_libra_summary_compute(p, r, &sm);
    if (fmt == RY_FMT_JSON)
        report_json(out, name, p, r, &sm);
    else if (fmt == RY_FMT_CSV)
        report_csv(out, p, r, &sm);
    else if (p->has_par) {
        ry_buf t;
        ry_buf_init(&t);
        report_text(&t, name, p, r, &sm);
        ry_emit_with_parallelism(out, t.data, t.len, &p->par);
        ry_buf_free(&t);
    } else
        report_text(out, name, p, r, &sm);
    ry_libra_summary_free(&sm);
}
