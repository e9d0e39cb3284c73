/* sweep's engine (study/sweep.h). */
#include "study/sweep.h"

#include <stdlib.h>

#include "util/diag.h"

/* The model at one point: eq. 1 (paper), or the full model's choice put
 * in eq. 1's terms for the columns and plots they share. */
int ry_sweep_point_compute(const ry_spec *s, int paper, ry_sweep_point *pt)
{
    ry_plan *pl = ry_xcalloc(1, sizeof *pl);
    int rc = ry_plan_compute(s, paper, pl);
    if (rc == 0) {
        pt->mem = pl->best.mem;
        ry_plan_parallelism(pl, &pt->par);
    }
    if (rc == 0 && paper) {
        /* eq. 1's own results; the memory its layout needs is reported apart */
        pt->m = pl->base;
    } else if (rc == 0) {
        const ry_plan_cfg *b = &pl->best, *id = &pl->ideal;
        pt->m = pl->base;
        pt->full = 1;
        pt->cfg = *b;
        pt->m.best = (ry_iter_terms){ .K = pl->base.in.K, .NM = b->t, .NDs = b->dp_in,
                                      .NDf = b->dp_cross, .compute = b->compute,
                                      .dp_cross = b->dp_cross_s, .dp_in = b->dp_in_s,
                                      .tp = b->tp, .total = b->total };
        pt->m.ideal = (ry_iter_terms){ .K = pl->base.in.N, .NM = id->t, .NDs = id->dp_in,
                                       .NDf = id->dp_cross, .compute = id->compute,
                                       .dp_cross = id->dp_cross_s, .dp_in = id->dp_in_s,
                                       .tp = id->tp, .total = pl->ideal_ok ? id->total : 0 };
        pt->m.relative = pl->relative;
        pt->m.mfu = pl->mfu;
        pt->m.hfu = pl->hfu;
        pt->m.tokens_per_s = pl->tokens_per_s;
    }
    free(pl);
    return rc;
}
