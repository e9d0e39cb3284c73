/* sweep's engine (study/sweep.h). */
#include "study/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
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

long long ry_sweep_run(const char *path, const ry_override *sets, int nsets, const ry_vary *vs,
                       int nv, const char *templates, int paper, ry_sweep_point *pts,
                       long long npts, char *title, size_t cap, ry_sweep_said *said, void *arg)
{
    ry_override *all = ry_xcalloc((size_t)nsets + (size_t)nv, sizeof *all);
    if (nsets > 0)
        memcpy(all, sets, (size_t)nsets * sizeof *all);
    /* A value's messages name it as the user wrote it: --vary KEY=VALUE. */
    char **where = ry_xcalloc((size_t)nv, sizeof *where);
    int idx[RY_SWEEP_MAX_AXES] = { 0 };
    long long good = 0;
    ry_buf diag, point;
    ry_buf_init(&diag);
    ry_buf_init(&point);
    if (cap)
        title[0] = '\0';
    for (long long p = 0; p < npts; p++) {
        ry_sweep_point *pt = &pts[p];
        pt->values = ry_xcalloc((size_t)nv, sizeof *pt->values);
        ry_buf_reset(&point);
        for (int k = 0; k < nv; k++) {
            pt->values[k] = vs[k].values[idx[k]];
            free(where[k]);
            size_t n = strlen(vs[k].key) + strlen(pt->values[k]) + 9;
            where[k] = ry_xmalloc(n);
            snprintf(where[k], n, "--vary %s=%s", vs[k].key, pt->values[k]);
            all[nsets + k] = (ry_override){ vs[k].key, vs[k].values[idx[k]], nsets + k + 1,
                                            where[k] };
            ry_buf_printf(&point, "%s%s=%s", k ? ", " : "", vs[k].key, pt->values[k]);
        }
        ry_buf_reset(&diag);
        ry_diag_capture(&diag);
        ry_spec *s = ry_spec_load(path, all, nsets + nv, templates);
        int ok = s && ry_sweep_point_compute(s, paper, pt) == 0;
        ry_diag_capture(NULL);
        if (ok) {
            pt->ok = 1;
            good++;
            snprintf(pt->model, sizeof pt->model, "%s", pt->m.w.model.name);
            pt->gpus = s->gpus;
            pt->hb_domain = s->hb_domain;
            if (cap && !title[0])
                snprintf(title, cap, "%s: %s", s->name, pt->model);
        } else if (!diag.len) {
            ry_buf_puts(&diag, "railyard: error: sweep: the model cannot be computed here");
        }
        if (diag.len)
            said(arg, diag.data, point.data);
        ry_spec_free(s);
        /* the first key varies fastest */
        for (int k = 0; k < nv && ++idx[k] == vs[k].n; k++)
            idx[k] = 0;
    }
    for (int k = 0; k < nv; k++)
        free(where[k]);
    free(where);
    free(all);
    ry_buf_free(&diag);
    ry_buf_free(&point);
    return good;
}
