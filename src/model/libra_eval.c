/* What LIBRA's report and plot show (see libra_eval.h). */
#include "model/libra_eval.h"

#include <stdlib.h>
#include <string.h>

static double lhs_of(const ry_libra_con *c, int d, const double *bw)
{
    double v = 0;
    for (int i = 0; i < d; i++)
        v += c->coef[i] * bw[i];
    return v;
}

static void con_state(const ry_libra_con *c, int d, const ry_libra_design *dz,
                      ry_libra_con_state *st)
{
    double sl = -ry_libra_con_violation(c, d, dz->bw);
    st->slack = c->op == RY_CON_EQ ? 0.0 : sl;
    st->binding = c->op == RY_CON_EQ || sl <= RY_LIBRA_TOL;
    /* the normalised constraint scales the cost: its slack in USD is
     * slack x cost / lhs */
    double lhs = lhs_of(c, d, dz->bw);
    st->cost_cap = c->kind == RY_CON_COST ? dz->cost + sl * (dz->cost / (lhs > 0 ? lhs : 1)) : 0;
}

void ry_libra_summary_compute(const ry_libra_problem *p, const ry_libra_result *r,
                              ry_libra_summary *s)
{
    int d = p->net.ndims;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < d; i++) {
        s->best_bw_total += r->best.bw[i];
        s->base_bw_total += r->base.bw[i];
        s->traffic_total += r->traffic[i];
    }
    s->best_time_cost = r->best.time * r->best.cost;
    s->base_time_cost = r->base.time * r->base.cost;
    s->best_objective = p->objective == RY_LIBRA_TIME ? r->best.time : s->best_time_cost;
    s->ncons = p->ncons;
    s->cons = ry_xcalloc((size_t)p->ncons + 1, sizeof *s->cons);
    for (int k = 0; k < p->ncons; k++)
        con_state(&p->cons[k], d, &r->best, &s->cons[k]);
    s->nstarts = r->nstarts;
    s->start_gap = ry_xcalloc((size_t)r->nstarts + 1, sizeof *s->start_gap);
    for (int k = 0; k < r->nstarts; k++)
        s->start_gap[k] = r->starts[k].objective / s->best_objective - 1;
}

void ry_libra_summary_free(ry_libra_summary *s)
{
    free(s->cons);
    free(s->start_gap);
    s->cons = NULL;
    s->start_gap = NULL;
}

void ry_libra_plot_dims(const ry_libra_problem *p, const ry_libra_result *r, int *a, int *b)
{
    int d = p->net.ndims;
    if (p->plot_dims[0] >= 0 && p->plot_dims[1] >= 0) {
        *a = p->plot_dims[0];
        *b = p->plot_dims[1];
    } else if (d <= 2) {
        *a = 0;
        *b = d > 1 ? 1 : 0;
    } else {
        int i1 = -1, i2 = -1;
        for (int i = 0; i < d; i++) {
            if (i1 < 0 || r->best.busy[i] > r->best.busy[i1]) {
                i2 = i1;
                i1 = i;
            } else if (i2 < 0 || r->best.busy[i] > r->best.busy[i2]) {
                i2 = i;
            }
        }
        *a = i1 < i2 ? i1 : i2;
        *b = i1 < i2 ? i2 : i1;
    }
}

static ry_libra_point at_share(const ry_libra_problem *p, const ry_libra_terms *t,
                               const double *opt, int a, int b, double share)
{
    double bw[RY_LIBRA_MAX_DIMS];
    memcpy(bw, opt, sizeof bw);
    double pair = opt[a] + opt[b];
    bw[a] = share * pair;
    bw[b] = pair - bw[a];
    ry_libra_point pt = { share, bw[a], bw[b], ry_libra_terms_time(t, bw, NULL),
                          ry_libra_cost(&p->net, bw), 0 };
    pt.time_x_cost = pt.time * pt.cost;
    return pt;
}

int ry_libra_split_compute(const ry_libra_problem *p, const ry_libra_result *r, int npoints,
                           ry_libra_split *s, ry_err *err)
{
    memset(s, 0, sizeof *s);
    int a, b;
    ry_libra_plot_dims(p, r, &a, &b);
    if (a == b) {
        ry_err_set(err, "libra.plot_dims", "--plot needs two dimensions; the network has one");
        return -1;
    }
    double pair = r->best.bw[a] + r->best.bw[b];
    if (!(pair > 0)) {
        ry_err_set(err, "libra.plot_dims", "--plot: dimensions '%s' and '%s' have no bandwidth "
                   "at the optimum; choose others with libra.plot_dims", p->net.dim[a].name,
                   p->net.dim[b].name);
        return -1;
    }
    s->a = a;
    s->b = b;
    s->pair = pair;
    ry_libra_point opt = { r->best.bw[a] / pair, r->best.bw[a], r->best.bw[b], r->best.time,
                           r->best.cost, r->best.time * r->best.cost };
    s->optimum = opt;
    s->npoints = npoints;
    s->curve = ry_xcalloc((size_t)npoints + 1, sizeof *s->curve);
    ry_libra_terms t;
    ry_libra_terms_build(&p->net, &p->wl, &t);
    for (int k = 0; k < npoints; k++)
        s->curve[k] = at_share(p, &t, r->best.bw, a, b, (double)(k + 1) / (npoints + 1));
    ry_libra_terms_free(&t);
    return 0;
}

void ry_libra_split_free(ry_libra_split *s)
{
    free(s->curve);
    s->curve = NULL;
    s->npoints = 0;
}
