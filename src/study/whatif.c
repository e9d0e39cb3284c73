/* whatif's engine (study/whatif.h). */
#include "study/whatif.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

void ry_whatif_run_free(ry_whatif_run *r)
{
    ry_name_index_free(r->ix);
    ry_failure_free(r->fs);
    ry_failure_ws_free(r->ws);
    ry_failure_report_free(&r->before);
    ry_failure_report_free(&r->after);
    free(r->elems);
    free(r->unmapped);
    free(r->base);
    free(r->cut);
    ry_ethplan_free(&r->eth);
    ry_fabric_free(&r->own);
}

/* The ECMP widths BGP gives leaf to leaf with what fs holds down, on an
 * Ethernet fabric whose plan can be made (else nothing). */
static void ecmp_widths(ry_whatif_run *r, ry_eth_widths *w)
{
    ry_err err;
    if (!ry_spec_is_ethernet(r->f->spec))
        return;
    if (!r->eth.asn && ry_ethplan_build(r->f, &r->eth, &err) < 0)
        return;
    ry_eth_routes *rt = ry_eth_routes_new(r->f, &r->eth);
    ry_eth_leaf_widths(rt, r->fs->node_down, r->fs->link_down, w);
    ry_eth_routes_free(rt);
}

/* The counterpart: rail-only and rail-optimized of each other; a fat tree's
 * is rail-optimized, the usual alternative to it (compare's baseline). */
ry_design ry_whatif_counterpart(ry_design d)
{
    return d == RY_DESIGN_RAIL_OPTIMIZED ? RY_DESIGN_RAIL_ONLY : RY_DESIGN_RAIL_OPTIMIZED;
}

/* The layout of m timed on the engine over r's fabric with what r->fs
 * holds down: into *c, the phases without a route counted in *unrouted,
 * the first one's reason in why. */
static void engine_time(ry_whatif_run *r, ry_plan_net *pn, const ry_plan *m, ry_plan_cfg *c,
                        int *unrouted, char *why, size_t n)
{
    ry_net_set_down(pn->net, r->fs->node_down, r->fs->link_down);
    ry_plan_time_on(m, pn, c);
    *unrouted = pn->unrouted;
    snprintf(why, n, "%s", pn->unrouted ? pn->unrouted_why : "");
}

void ry_whatif_analyze(ry_whatif_run *r, const ry_plan *m, ry_whatif_side *out, ry_design d)
{
    r->ws = ry_failure_ws_new(r->f);
    r->fs = ry_failure_new(r->f);
    ry_failure_report_init(&r->before, r->f);
    ry_failure_report_init(&r->after, r->f);
    /* the engine: the full model's layout, on this fabric as routed */
    ry_plan_net pn;
    int eng = r->engine && m && !m->paper;
    memset(&pn, 0, sizeof pn);
    if (eng) {
        ry_err err = { { 0 }, { 0 } };
        if (ry_plan_net_init(&pn, r->f, &err) < 0) {
            snprintf(r->eng_err, sizeof r->eng_err, "%.200s", err.msg);
            eng = 0;
        }
    }
    ry_failure_apply(r->f, r->base, r->nbase, r->fs);
    ry_failure_analyze(r->ws, r->fs, &r->before);
    ecmp_widths(r, &r->ecmp_before);
    if (eng)
        engine_time(r, &pn, m, &r->eng_before, &r->eng_unrouted_before, r->eng_why_before,
                    sizeof r->eng_why_before);
    ry_failure_apply(r->f, r->elems, r->n, r->fs);
    ry_failure_analyze(r->ws, r->fs, &r->after);
    ecmp_widths(r, &r->ecmp_after);
    if (eng)
        engine_time(r, &pn, m, &r->eng_after, &r->eng_unrouted_after, r->eng_why_after,
                    sizeof r->eng_why_after);
    ry_plan_net_free(&pn);
    memset(out, 0, sizeof *out);
    if (r->engine && m && !m->paper) {
        out->engine = eng;
        out->eng_err = eng ? NULL : r->eng_err;
        out->routing = ry_net_routing_name((ry_net_routing)r->f->spec->net.routing);
        out->eng_before = &r->eng_before;
        out->eng_after = &r->eng_after;
        out->eng_unrouted_before = r->eng_unrouted_before;
        out->eng_unrouted_after = r->eng_unrouted_after;
        out->eng_why_before = r->eng_why_before;
        out->eng_why_after = r->eng_why_after;
    }
    if (r->eth.asn) {
        out->has_ecmp = 1;
        out->ecmp_before = r->ecmp_before;
        out->ecmp_after = r->ecmp_after;
    }
    out->f = r->f;
    out->design = d;
    out->elems = r->elems;
    out->nelems = r->n;
    out->unmapped = r->unmapped;
    out->nunmapped = r->nun;
    out->nbase = r->nbase;
    out->before = &r->before;
    out->after = &r->after;
    r->cut = ry_xmalloc(RY_WHATIF_CUT_LISTED * sizeof *r->cut);
    out->ncut = ry_failure_cut_ports(r->f, r->fs, r->cut, RY_WHATIF_CUT_LISTED);
    out->ncut_listed = out->ncut < RY_WHATIF_CUT_LISTED ? out->ncut : RY_WHATIF_CUT_LISTED;
    out->cut = r->cut;
    if (m) {
        out->trained = 1;
        ry_plan_degrade(m, r->after.bs_ratio, r->after.fwd_max, r->after.fwd_sum, &out->train);
    }
}

int ry_whatif_build_counterpart(const ry_spec *s, ry_spec *cs, ry_fabric *cf, char *errbuf,
                                size_t n)
{
    ry_err err;
    ry_spec_as_design(s, ry_whatif_counterpart(s->design), cs);
    if (ry_fabric_build(cs, cf, &err) < 0) {
        ry_err_text(&err, errbuf, n);
        return -1;
    }
    return 0;
}

void ry_whatif_translate(const ry_whatif_run *a, ry_whatif_run *b, int max_elems)
{
    b->f = &b->own;
    b->ix = ry_name_index_new(b->f);
    b->elems = ry_xcalloc((size_t)max_elems, sizeof *b->elems);
    b->unmapped = ry_xcalloc((size_t)a->n + 1, sizeof *b->unmapped);
    ry_fail_translate(a->f, a->elems, a->n, b->f, b->ix, b->elems, max_elems, &b->n,
                      b->unmapped, &b->nun);
    /* the as-built's cables too, where the counterpart has them */
    if (a->nbase) {
        int nun = 0;
        ry_fail_elem *lost = ry_xcalloc((size_t)a->nbase, sizeof *lost);
        b->base = ry_xcalloc((size_t)a->nbase, sizeof *b->base);
        ry_fail_translate(a->f, a->base, a->nbase, b->f, b->ix, b->base, a->nbase,
                          &b->nbase, lost, &nun);
        free(lost);
    }
}

/* The sweep's slowdown: the model rerun as a single scenario reruns it. */
static double model_slowdown(void *arg, const ry_failure *fs, const ry_failure_report *r,
                             int *stalled)
{
    (void)fs;
    ry_iter_degraded d;
    ry_plan_degrade(arg, r->bs_ratio, r->fwd_max, r->fwd_sum, &d);
    *stalled = d.stalled;
    return d.slowdown;
}

/* The sweep's slowdown on the flow engine: the layout timed over the
 * fabric routed around the draw's failures, over the healthy time. */
typedef struct eng_sweep {
    const ry_plan *m;
    ry_plan_net pn;
    double before;
} eng_sweep;

static double engine_slowdown(void *arg, const ry_failure *fs, const ry_failure_report *r,
                              int *stalled)
{
    eng_sweep *e = arg;
    ry_plan_cfg c;
    (void)r;
    ry_net_set_down(e->pn.net, fs->node_down, fs->link_down);
    ry_plan_time_on(e->m, &e->pn, &c);
    *stalled = e->pn.unrouted > 0 || !(c.total > 0);
    return *stalled ? NAN : c.total / e->before;
}

/* The engine for a side: 0 with e ready, -1 with why. */
static int engine_sweep_init(eng_sweep *e, const ry_fabric *f, const ry_plan *m, char *why,
                             size_t n)
{
    ry_err err = { { 0 }, { 0 } };
    memset(e, 0, sizeof *e);
    e->m = m;
    if (ry_plan_net_init(&e->pn, f, &err) < 0) {
        snprintf(why, n, "%.300s", err.msg);
        return -1;
    }
    ry_plan_cfg c;
    ry_plan_time_on(m, &e->pn, &c);
    if (e->pn.unrouted > 0 || !(c.total > 0)) {
        snprintf(why, n, "the healthy fabric: %.280s", e->pn.unrouted_why);
        ry_plan_net_free(&e->pn);
        return -1;
    }
    e->before = c.total;
    return 0;
}

int ry_whatif_sweep_run(ry_whatif_sweep *w, const ry_fabric *f, ry_plan *m,
                        ry_whatif_sweep_mem *mem, ry_err *err)
{
    const ry_spec *s = w->s;
    memset(mem, 0, sizeof *mem);
    w->routing = ry_net_routing_name((ry_net_routing)s->net.routing);
    for (int d = 0; d < w->nsides; d++) {
        const ry_fabric *sf = f;
        w->side[d].design = d == 0 ? s->design : ry_whatif_counterpart(s->design);
        w->side[d].needed = -2;
        if (d == 1) {
            if (ry_whatif_build_counterpart(s, &mem->cspec, &mem->cfab, mem->errbuf[d],
                                            sizeof mem->errbuf[d]) < 0) {
                w->side[d].err = mem->errbuf[d];
                continue;
            }
            sf = &mem->cfab;
        }
        ry_fsweep_in in = { sf, m ? model_slowdown : NULL, m, w->kind, w->lo, w->hi, w->seeds,
                            w->seed0, s->spares.switches, s->spares.uplinks, NULL };
        eng_sweep e;
        int eng = 0;
        if (w->engine && m && !m->paper) {
            if (engine_sweep_init(&e, sf, m, mem->engbuf[d], sizeof mem->engbuf[d]) == 0) {
                in.slowdown = engine_slowdown;
                in.arg = &e;
                eng = 1;
            } else {
                w->side[d].engine_err = mem->engbuf[d];
            }
        }
        w->side[d].engine = eng;
        mem->pts[d] = ry_xcalloc((size_t)(w->hi - w->lo + 1), sizeof *mem->pts[d]);
        int rc = ry_fsweep_run(&in, mem->pts[d], err);
        if (rc == 0) {
            w->side[d].pts = mem->pts[d];
            /* Spares repair switches (a switch kind) and uplinks (cable); a
             * NIC has none. */
            if (m && strcmp(w->kind, "nic") != 0)
                w->side[d].needed = ry_fsweep_spares_needed(&in, w->hi, w->target,
                                                            w->spares_max);
        }
        if (eng)
            ry_plan_net_free(&e.pn);
        if (rc < 0) {
            if (d == 0)
                return -1;
            snprintf(mem->errbuf[d], sizeof mem->errbuf[d], "%s", err->msg);
            w->side[d].err = mem->errbuf[d];
        }
    }
    return 0;
}

void ry_whatif_sweep_mem_free(ry_whatif_sweep_mem *mem)
{
    free(mem->pts[0]);
    free(mem->pts[1]);
    ry_fabric_free(&mem->cfab);
}
