/* The LIBRA problem of a loaded spec: s->libra (spec/libra_spec.h, read once
 * by ry_spec_load) gives the network, the workload's layers and the
 * constraints as written; here the constraints are normalised, the workload
 * is derived from the LLM when the spec gives no layers, and the baseline is
 * chosen. Nothing here reads YAML: every message names the spec position
 * kept in s->libra. */
#include "model/libra.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/iteration.h"
#include "model/plan.h"
#include "spec/workload.h"

#define MAXD RY_LIBRA_MAX_DIMS

/* The layout of the workload: the full model's choice (model/plan.h, as
 * `railyard model` reports it), or with libra.tensor_parallel given, that
 * tensor size with one stage over eq. 1's inputs. pl->best gets t, p, d,
 * blocks, seqs and the busiest GPU's compute (with the pipeline bubble). */
static int workload_layout(const ry_spec *s, const ry_libra_spec *ls, ry_plan *pl,
                           ry_libra_problem *p)
{
    if (ls->tensor_parallel <= 0) {
        if (ry_plan_compute(s, 0, pl) < 0)
            return -1;
        ry_plan_parallelism(pl, &p->par);
        return 0;
    }
    /* Eq. 1's layout, one stage: its batch rules hold. */
    if (ry_workload_check_paper_fit(s) < 0)
        return -1;
    ry_model_inputs(s, &pl->base);
    const ry_iter_in *in = &pl->base.in;
    if (!(in->layers >= 1 && in->C > 0 && in->N > 0 && in->b > 0))
        return -1;      /* the workload section's own errors say why */
    ry_plan_cfg *c = &pl->best;
    c->t = ls->tensor_parallel;
    c->p = 1;
    c->d = in->N / c->t;
    c->blocks = pl->base.w.model.layers;
    c->compute = in->M_flop / ((double)in->N * in->C);
    c->mem.recompute = pl->base.w.recompute;
    pl->grad_bytes = pl->base.bytes;
    ry_plan_parallelism(pl, &p->par);
    p->par.source = RY_PAR_GIVEN;
    return 0;
}

/* One block per layer of a pipeline stage, with the layout and inputs of
 * `railyard model` (model/plan.h): the busiest GPU's compute and pipeline
 * bubble split evenly over the three phases; forward and input gradient
 * each an all-reduce of M_cc * tokens per replica * d_model / 4 bytes over
 * the tensor-parallel groups (the two add up to that model's
 * tensor-parallel term when the group is one dimension); the weight
 * gradient an all-reduce of S_T / N_M bytes (one block's gradients in the
 * reduction's precision, split by tensor parallelism) over the stage's
 * data-parallel groups, innermost dimension first, as that model's
 * hierarchical all-reduce. The stages take the outermost dimensions; their
 * point-to-point is not a collective LIBRA models. */
static int derive_workload(const ry_spec *s, const ry_libra_spec *ls, ry_libra_problem *p)
{
    /* A workload the cluster cannot run is refused at its key (the loader
     * leaves s->workload NULL then). */
    if (ry_workload_check_fit(s) < 0)
        return -1;
    if (!s->workload)
        return -1;      /* the spec loader said so */
    ry_plan *pl = ry_xcalloc(1, sizeof *pl);
    if (workload_layout(s, ls, pl, p) < 0) {
        free(pl);
        return -1;
    }
    p->has_par = 1;
    const ry_iter_in *in = &pl->base.in;
    const ry_plan_cfg *c = &pl->best;
    const char *name = pl->base.w.model.name;
    long long nm = c->t, td = c->t * c->d;
    /* The stage's NPUs innermost, then the tensor group inside them. */
    int stage[MAXD], outer[MAXD], tp[MAXD], dp[MAXD];
    char why[256];
    ry_libra_net inner = p->net;
    int bad = ry_libra_split_tp(&p->net, td, stage, outer, why, sizeof why) < 0;
    if (!bad) {
        for (int i = 0; i < inner.ndims; i++)
            inner.dim[i].size = stage[i];
        bad = ry_libra_split_tp(&inner, nm, tp, dp, why, sizeof why) < 0;
    }
    if (bad) {
        ry_error_at(ls->tensor_parallel > 0 ? ls->tensor_parallel_pos : p->pos,
                    "workload %s (TP %lld x PP %lld x DP %lld): %s", name, c->t, c->p, c->d,
                    why);
        free(pl);
        return -1;
    }
    ry_libra_layer *ly = ry_libra_workload_add(&p->wl);
    snprintf(ly->name, sizeof ly->name, "%.50s block", name);
    ly->count = c->blocks;
    double compute = (c->compute + c->bubble) / c->blocks / 3;
    double tokens = in->b / (double)c->d;   /* per replica */
    if (c->seqs > 0)
        tokens = (double)c->seqs * pl->base.w.model.seq_len;
    double S_T = 12 * in->d_model * in->d_model * pl->grad_bytes;
    for (int ph = 0; ph < RY_PHASES; ph++) {
        ry_libra_phase *x = &ly->ph[ph];
        x->compute = compute;
        x->coll = RY_COLL_ALL_REDUCE;
        x->bytes = ph == RY_PHASE_WG ? S_T / (double)nm : in->M_cc * tokens * in->d_model / 4;
        for (int i = 0; i < p->net.ndims; i++)
            x->group[i] = ph == RY_PHASE_WG ? dp[i] : tp[i];
    }
    if (c->p > 1)
        snprintf(p->wl.source, sizeof p->wl.source, "workload %.60s: %lld of %d layers "
                 "(one stage), tensor %lld x pipeline %lld x data %lld", name, ly->count,
                 pl->base.w.model.layers, nm, c->p, c->d);
    else
        snprintf(p->wl.source, sizeof p->wl.source, "workload %.60s: %lld layers, tensor %lld "
                 "x data %lld", name, ly->count, nm, c->d);
    free(pl);
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
