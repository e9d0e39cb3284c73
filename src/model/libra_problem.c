/* The LIBRA problem of a loaded spec: s->libra (spec/libra_spec.h, read once
 * by ry_spec_load) gives the network, the workload's layers and the
 * constraints as written; here the constraints are normalised, the workload
 * is derived from the LLM when the spec gives no layers, and the baseline is
 * chosen. Nothing here reads YAML: every message names the spec position
 * kept in s->libra. */
#include "model/libra.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/iteration.h"
#include "spec/workload.h"

#define MAXD RY_LIBRA_MAX_DIMS

/* One block per layer of the LLM, with the inputs of `railyard model`
 * (model/iteration.h): compute split evenly over the three phases; forward
 * and input gradient each an all-reduce of M_cc * tokens per replica *
 * d_model / 4 bytes over the tensor-parallel groups (the two add up to that
 * model's tensor-parallel term when the group is one dimension); the weight
 * gradient an all-reduce of S_T / N_M bytes (one block's gradients, split by
 * tensor parallelism) over the data-parallel groups, innermost dimension
 * first, as that model's hierarchical all-reduce. */
static int derive_workload(const ry_spec *s, const ry_libra_spec *ls, ry_libra_problem *p)
{
    /* Eq. 1's layout, one stage: its batch rules hold. */
    if (ry_workload_check_paper_fit(s) < 0)
        return -1;
    if (!s->workload)
        return -1;      /* the spec loader said so */
    ry_model m;
    ry_model_inputs(s, &m);
    const ry_iter_in *in = &m.in;
    if (!(in->layers >= 1 && in->C > 0 && in->N > 0 && in->b > 0))
        return -1;      /* the workload section's own errors say why */
    long long tp_given = ls->tensor_parallel;
    long long nm = tp_given;
    if (nm <= 0) {
        ry_iter_terms t;
        if (ry_iter_best(in, in->K, m.w.tensor, &t) < 0) {
            ry_error_at(p->pos, "no tensor-parallel size fits the workload on HB domains of "
                        "%lld; give libra.tensor_parallel", in->K);
            return -1;
        }
        nm = t.NM;
    }
    int tp[MAXD], dp[MAXD];
    char why[256];
    if (ry_libra_split_tp(&p->net, nm, tp, dp, why, sizeof why) < 0) {
        ry_error_at(tp_given > 0 ? ls->tensor_parallel_pos : p->pos, "workload %s: %s",
                    m.w.model.name, why);
        return -1;
    }
    ry_libra_layer *ly = ry_libra_workload_add(&p->wl);
    snprintf(ly->name, sizeof ly->name, "%.50s block", m.w.model.name);
    ly->count = llround(in->layers);
    double compute = in->M_flop / ((double)in->N * in->C) / in->layers / 3;
    double tokens = in->b * (double)nm / (double)in->N;   /* per replica */
    for (int ph = 0; ph < RY_PHASES; ph++) {
        ry_libra_phase *x = &ly->ph[ph];
        x->compute = compute;
        x->coll = RY_COLL_ALL_REDUCE;
        x->bytes = ph == RY_PHASE_WG ? in->S_T / (double)nm : in->M_cc * tokens * in->d_model / 4;
        for (int i = 0; i < p->net.ndims; i++)
            x->group[i] = ph == RY_PHASE_WG ? dp[i] : tp[i];
    }
    snprintf(p->wl.source, sizeof p->wl.source, "workload %.60s: %lld layers, tensor %lld x "
             "data %lld", m.w.model.name, ly->count, nm, in->N / nm);
    return 0;
}

/* sum_i coef[i] * bw_i (<= or ==) rhs with max |coef| == 1, the cost term
 * priced: cost = NPUs * sum_i bw_i * u_i. The spec loader has checked that
 * some coefficient is not 0. */
static void add_con(ry_libra_problem *p, const ry_libra_rel *r)
{
    const ry_libra_net *net = &p->net;
    double coef[MAXD], mx = 0;
    for (int i = 0; i < net->ndims; i++) {
        coef[i] = r->c[i] + r->cost * (double)net->npus * ry_libra_unit_cost(&net->dim[i]);
        if (fabs(coef[i]) > mx)
            mx = fabs(coef[i]);
    }
    ry_libra_con *con = ry_libra_problem_add_con(p);
    double sg = r->op == RY_LIBRA_GE ? -1 : 1;
    for (int i = 0; i < net->ndims; i++)
        con->coef[i] = sg * coef[i] / mx;
    con->rhs = -sg * r->k / mx;
    con->op = r->op == RY_LIBRA_EQ ? RY_CON_EQ : RY_CON_LE;
    con->kind = ry_libra_con_classify(con, net->ndims, r->cost != 0);
    snprintf(con->text, sizeof con->text, "%s", r->text);
    snprintf(con->where, sizeof con->where, "%s", r->where);
    con->pos = r->pos;
}

/* libra.baseline, else the budget split equally, else equal bandwidth at
 * the cost budget. */
static int make_baseline(const ry_libra_spec *ls, ry_libra_problem *p)
{
    int d = p->net.ndims;
    if (ls->has_baseline) {
        memcpy(p->baseline, ls->baseline, sizeof p->baseline);
        snprintf(p->baseline_from, sizeof p->baseline_from, "libra.baseline");
        return 0;
    }
    for (int k = 0; k < p->ncons; k++) {
        const ry_libra_con *con = &p->cons[k];
        if (con->kind == RY_CON_BUDGET && con->rhs > 0) {
            for (int i = 0; i < d; i++)
                p->baseline[i] = con->rhs / con->coef[0] / d;
            snprintf(p->baseline_from, sizeof p->baseline_from, "%.60s (%.160s) split equally",
                     con->where, con->text);
            return 0;
        }
    }
    for (int k = 0; k < p->ncons; k++) {
        const ry_libra_con *con = &p->cons[k];
        double sum = 0;
        int pos = 1;
        for (int i = 0; i < d; i++) {
            sum += con->coef[i];
            pos &= con->coef[i] > 0;
        }
        if (con->kind == RY_CON_COST && pos && con->rhs > 0) {
            for (int i = 0; i < d; i++)
                p->baseline[i] = con->rhs / sum;
            snprintf(p->baseline_from, sizeof p->baseline_from, "equal bandwidth at %.60s "
                     "(%.160s)", con->where, con->text);
            return 0;
        }
    }
    if (!ls->has_budget)
        ry_error_at(p->pos, "libra needs a baseline to compare with: give libra.budget (GB/s "
                    "per NPU over all dimensions), libra.cost_budget or libra.baseline");
    return -1;
}

int ry_libra_problem_build(const ry_spec *s, ry_libra_problem *p)
{
    int before = ry_error_count();
    ry_libra_problem_init(p);
    const ry_libra_spec *ls = s->libra;
    if (!ls || !ls->has_libra) {
        ry_pos top = { s->path, 1, 1 };
        if (!s->doc)
            ry_error_at(top, "a LIBRA optimisation needs a spec file with a libra section");
        else
            ry_error_at(top, "the spec has no libra section: it gives the workload (layers or "
                        "workload_file) and the budget to optimise for");
        return -1;
    }
    p->net = ls->net;
    p->pos = ls->pos;
    p->objective = ls->objective;
    p->starts = ls->starts;
    p->plot_dims[0] = ls->plot_dims[0];
    p->plot_dims[1] = ls->plot_dims[1];
    if (ls->from_workload) {
        derive_workload(s, ls, p);
    } else {
        for (int i = 0; i < ls->wl.nlayers; i++)
            *ry_libra_workload_add(&p->wl) = ls->wl.layers[i];
        memcpy(p->wl.source, ls->wl.source, sizeof p->wl.source);
    }
    for (int k = 0; k < ls->nrels; k++)
        add_con(p, &ls->rels[k]);
    make_baseline(ls, p);
    return ry_error_count() > before ? -1 : 0;
}
