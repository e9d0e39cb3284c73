/* LIBRA's model: network cost, bytes per dimension of each collective, the
 * iteration time, and the workload folded into a few max terms. */
#include "model/libra.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = { "budget", "fixed", "bound", "ordering", "sum", "cost",
                                          "linear" };

const char *ry_con_kind_name(ry_con_kind k)
{
    return (unsigned)k <= RY_CON_LINEAR ? kind_names[k] : "?";
}

double ry_libra_cost(const ry_libra_net *n, const double *bw)
{
    double per_npu = 0;
    for (int i = 0; i < n->ndims; i++)
        per_npu += bw[i] * ry_libra_unit_cost(&n->dim[i]);
    return (double)n->npus * per_npu;
}

void ry_libra_coll_bytes(ry_coll c, double bytes, const int *group, int ndims, double *m)
{
    double s = bytes;
    for (int i = 0; i < ndims; i++)
        m[i] = 0;
    switch (c) {
    case RY_COLL_NONE:
        break;
    case RY_COLL_ALL_REDUCE:
    case RY_COLL_REDUCE_SCATTER:
        for (int i = 0; i < ndims; i++) {
            double g = group[i];
            if (g <= 1)
                continue;
            m[i] = (c == RY_COLL_ALL_REDUCE ? 2 : 1) * s * (g - 1) / g;
            s /= g;
        }
        break;
    case RY_COLL_ALL_GATHER:
        for (int i = ndims - 1; i >= 0; i--) {
            double g = group[i];
            if (g <= 1)
                continue;
            m[i] = s * (g - 1);
            s *= g;
        }
        break;
    case RY_COLL_ALL_TO_ALL:
        for (int i = 0; i < ndims; i++) {
            double g = group[i];
            if (g > 1)
                m[i] = s * (g - 1) / g;
        }
        break;
    }
}

/* ---- workload ------------------------------------------------------------------------- */

/* Same direction: a and b proportional (both have their max normalised). */
static int same_shape(const double *a, const double *b, int n)
{
    double ma = 0, mb = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] > ma)
            ma = a[i];
        if (b[i] > mb)
            mb = b[i];
    }
    for (int i = 0; i < n; i++)
        if (fabs(a[i] / ma - b[i] / mb) > 1e-12)
            return 0;
    return 1;
}

void ry_libra_terms_build(const ry_libra_net *n, const ry_libra_workload *w, ry_libra_terms *t)
{
    int d = n->ndims, cap = 0;
    memset(t, 0, sizeof *t);
    t->ndims = d;
    for (int l = 0; l < w->nlayers; l++) {
        const ry_libra_layer *ly = &w->layers[l];
        double count = (double)ly->count;
        for (int p = 0; p < RY_PHASES; p++) {
            const ry_libra_phase *ph = &ly->ph[p];
            t->compute += count * ph->compute;
            if (ph->coll == RY_COLL_NONE || !(ph->bytes > 0))
                continue;
            double m[RY_LIBRA_MAX_DIMS];
            ry_libra_coll_bytes(ph->coll, ph->bytes / 1e9, ph->group, d, m);
            int nz = 0, last = -1;
            for (int i = 0; i < d; i++)
                if (m[i] > 0) {
                    nz++;
                    last = i;
                }
            if (nz == 0)
                continue;
            t->collectives += ly->count;
            if (nz == 1) {
                t->single[last] += count * m[last];
                continue;
            }
            int j = 0;
            while (j < t->nmulti && !same_shape(t->multi[j], m, d))
                j++;
            if (j == t->nmulti) {
                RY_ALLOC_GROW(t->multi, t->nmulti + 1, cap);
                memset(t->multi[j], 0, sizeof t->multi[j]);
                t->nmulti++;
            }
            for (int i = 0; i < d; i++)
                t->multi[j][i] += count * m[i];
        }
    }
}

void ry_libra_terms_free(ry_libra_terms *t)
{
    free(t->multi);
    t->multi = NULL;
    t->nmulti = 0;
}

static double ratio(double gb, double bw)
{
    if (!(gb > 0))
        return 0;
    return bw > 0 ? gb / bw : HUGE_VAL;
}

double ry_libra_terms_time(const ry_libra_terms *t, const double *bw, double *busy)
{
    double time = t->compute;
    if (busy)
        for (int i = 0; i < t->ndims; i++)
            busy[i] = 0;
    for (int i = 0; i < t->ndims; i++) {
        double x = ratio(t->single[i], bw[i]);
        time += x;
        if (busy)
            busy[i] += x;
    }
    for (int j = 0; j < t->nmulti; j++) {
        double worst = 0;
        for (int i = 0; i < t->ndims; i++) {
            double x = ratio(t->multi[j][i], bw[i]);
            if (x > worst)
                worst = x;
            if (busy)
                busy[i] += x;
        }
        time += worst;
    }
    return time;
}

void ry_libra_terms_traffic(const ry_libra_terms *t, double *gb)
{
    for (int i = 0; i < t->ndims; i++) {
        gb[i] = t->single[i];
        for (int j = 0; j < t->nmulti; j++)
            gb[i] += t->multi[j][i];
    }
}

double ry_libra_time(const ry_libra_net *n, const ry_libra_workload *w, const double *bw)
{
    double time = 0;
    for (int l = 0; l < w->nlayers; l++) {
        const ry_libra_layer *ly = &w->layers[l];
        double layer = 0;
        for (int p = 0; p < RY_PHASES; p++) {
            const ry_libra_phase *ph = &ly->ph[p];
            double m[RY_LIBRA_MAX_DIMS], worst = 0;
            ry_libra_coll_bytes(ph->coll, ph->bytes, ph->group, n->ndims, m);
            for (int i = 0; i < n->ndims; i++) {
                double x = ratio(m[i] / 1e9, bw[i]);
                if (x > worst)
                    worst = x;
            }
            layer += ph->compute + worst;
        }
        time += (double)ly->count * layer;
    }
    return time;
}

/* ---- constraints ---------------------------------------------------------------------- */

double ry_libra_con_violation(const ry_libra_con *c, int ndims, const double *bw)
{
    double lhs = 0;
    for (int i = 0; i < ndims; i++)
        lhs += c->coef[i] * bw[i];
    double r = lhs - c->rhs;
    return c->op == RY_CON_EQ ? fabs(r) : r;
}

ry_con_kind ry_libra_con_classify(const ry_libra_con *c, int ndims, int has_cost)
{
    if (has_cost)
        return RY_CON_COST;
    int nz = 0, pos = 0, neg = 0, same = 1;
    double first = 0;
    for (int i = 0; i < ndims; i++) {
        double v = c->coef[i];
        if (v == 0)
            continue;
        if (nz == 0)
            first = v;
        else if (v != first)
            same = 0;
        nz++;
        if (v > 0)
            pos++;
        else
            neg++;
    }
    if (nz == ndims && same && ndims > 1)
        return RY_CON_BUDGET;
    if (nz == 1)
        return c->op == RY_CON_EQ ? RY_CON_FIXED : RY_CON_BOUND;
    if (nz == 2 && pos == 1 && neg == 1 && c->op == RY_CON_LE && c->rhs == 0) {
        double a = 0, b = 0;
        for (int i = 0; i < ndims; i++) {
            if (c->coef[i] > 0)
                a = c->coef[i];
            else if (c->coef[i] < 0)
                b = -c->coef[i];
        }
        if (a == b)
            return RY_CON_ORDER;
    }
    if (same)
        return RY_CON_SUM;
    return RY_CON_LINEAR;
}

/* ---- problem -------------------------------------------------------------------------- */

void ry_libra_problem_init(ry_libra_problem *p)
{
    memset(p, 0, sizeof *p);
    p->objective = RY_LIBRA_TIME;
    p->starts = 12;
    p->plot_dims[0] = p->plot_dims[1] = -1;
}

void ry_libra_problem_free(ry_libra_problem *p)
{
    ry_libra_workload_free(&p->wl);
    free(p->cons);
    p->cons = NULL;
    p->ncons = p->capcons = 0;
}

ry_libra_con *ry_libra_problem_add_con(ry_libra_problem *p)
{
    RY_ALLOC_GROW(p->cons, p->ncons + 1, p->capcons);
    ry_libra_con *c = &p->cons[p->ncons++];
    memset(c, 0, sizeof *c);
    return c;
}
