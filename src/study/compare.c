/* compare's engine (study/compare.h). */
#include "study/compare.h"

#include <stdlib.h>
#include <string.h>

#include "model/plan.h"
#include "util/diag.h"

/* Each design built and priced as bom prices it; with a workload, the full
 * model's fastest layout for it (its collectives on the flow engine over
 * the design as built), and the slowdown one spine failure costs
 * (whatif's analysis and ry_plan_degrade, as whatif --fail SPINE reports). */
int ry_compare_model_design(const ry_design_build *b, ry_compare_design *c)
{
    ry_plan *pl = ry_xcalloc(1, sizeof *pl);
    ry_plan_net pn;
    ry_err err;
    if (ry_plan_net_init(&pn, &b->fabric, &err) < 0) {
        ry_spec_error(&b->spec, err.key[0] ? "network" : NULL, "%s", err.msg);
        free(pl);
        return -1;
    }
    int rc = ry_plan_compute_on(&b->spec, &pn, pl);
    c->analytic_iter_s = pl->analytic.total;
    pl->net = NULL;
    ry_plan_net_free(&pn);
    if (rc < 0) {
        free(pl);
        return -1;
    }
    c->modeled = 1;
    c->t = pl->best.t;
    c->p = pl->best.p;
    c->d = pl->best.d;
    ry_parallelism par;
    ry_plan_parallelism(pl, &par);
    c->cp = par.cp > 0 ? par.cp : 1;
    c->iter_s = pl->best.total;
    c->tokens_per_s = pl->tokens_per_s;
    c->tokens_per_s_per_musd = c->capex > 0 ? pl->tokens_per_s / (c->capex / 1e6) : 0;
    for (int t = 1; t <= c->tiers && t <= RY_MAX_TIERS; t++) {
        ry_compare_fail *x = &c->fail[t];
        if (!x->tier)
            continue;
        ry_iter_degraded dg;
        ry_plan_degrade(pl, x->bw_kept, x->fwd_max, x->fwd_sum, &dg);
        x->slowdown = dg.slowdown;
        x->stalled = dg.stalled;
    }
    if (c->spine) {
        c->spine_slowdown = c->fail[2].slowdown;
        c->spine_stalled = c->fail[2].stalled;
    }
    free(pl);
    return 0;
}

int ry_compare_designs(const ry_spec *s, const ry_media_catalog *media, int want_model,
                       ry_compare_design d[3])
{
    int built = 0, rc = 0;
    for (int i = 0; i < 3 && rc == 0; i++) {
        ry_err err;
        ry_design_build *b = ry_design_build_new(s, (ry_design)i, media, &err);
        if (!b) {
            memset(&d[i], 0, sizeof d[i]);
            d[i].design = (ry_design)i;
            ry_err_text(&err, d[i].err, sizeof d[i].err);
            continue;
        }
        ry_compare_design_fill(b, &d[i]);
        built++;
        if (want_model)
            rc = ry_compare_model_design(b, &d[i]);
        ry_compare_reliability(s, &d[i]);
        ry_design_build_free(b);
    }
    return rc < 0 ? -1 : built;
}

int ry_compare_paper(const ry_spec *base, const int *radix, int nradix, ry_compare_row *rows)
{
    for (int i = 0; i < nradix; i++) {
        ry_spec s;
        ry_compare_spec_for(base, radix[i], &s);
        if (ry_spec_check(&s) < 0)
            return -1;
        ry_err err;
        if (ry_compare_one(&s, radix[i], &rows[i], &err) < 0) {
            ry_spec_error(&s, err.key, "radix %d: %s", radix[i], err.msg);
            return -1;
        }
    }
    return 0;
}
