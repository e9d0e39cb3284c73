/* Reserve cost and savings of a growth target (see growth.h). The graphs,
 * layouts and cabling plans are made here and freed before returning; the
 * phases meet the target through expand (analysis/expand.h). */
#include "analysis/growth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cabling.h"
#include "analysis/expand.h"
#include "fabric/layout.h"
#include "fabric/reserve.h"
#include "util/diag.h"

/* Rack units of a fabric's switches, as its layout stands them. */
static long long switch_units(const ry_layout *lay)
{
    const ry_fabric *f = lay->f;
    long long u = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        u += ry_layout_switch_units(lay, &f->nodes[i]);
    return u;
}

/* A built fabric's layout and cabling plan. */
typedef struct phys {
    ry_layout lay;
    ry_cabling cab;
    int laid, cabled;
} phys;

static int phys_of(const ry_fabric *f, const ry_media_catalog *media, phys *p, ry_err *err)
{
    memset(p, 0, sizeof *p);
    if (ry_layout_build(f, &p->lay, err) < 0)
        return -1;
    p->laid = 1;
    if (ry_cabling_build(f, &p->lay, media, &p->cab, err) < 0)
        return -1;
    p->cabled = 1;
    return 0;
}

static void phys_free(phys *p)
{
    if (p->cabled)
        ry_cabling_free(&p->cab);
    if (p->laid)
        ry_layout_free(&p->lay);
}

/* The capex of f from its cabling plan; the switches' names from the spec
 * that owns them (not a copy's). */
static void capex_of(const ry_fabric *f, const ry_spec *owner, const phys *p, ry_capex *out)
{
    ry_bom b;
    ry_bom_compute(f, &b);
    ry_capex_compute(f->spec, &b, &p->cab, out);
    out->switch_name = owner->sw.name;
    out->switch_part = owner->sw.part;
}

/* What growing phase f (with its plan p) to the target (tp) takes. */
static int later(const ry_fabric *f, const phys *p, const ry_fabric *target, const phys *tp,
                 ry_growth_later *l, ry_err *err)
{
    ry_expand x;
    if (ry_expand_run(f, &p->cab, target, &tp->cab, &x, err) < 0) {
        ry_expand_free(&x);
        return -1;
    }
    l->cables = (long long)f->nlinks;
    long long kept = 0, replaced = 0;
    for (int t = 0; t < RY_XT_N; t++) {
        kept += x.cab[RY_XC_KEPT][t];
        replaced += x.replaced_n[t];
        l->switches_retired += x.sw[RY_XC_REMOVED][t];
    }
    l->moved = l->cables - kept;
    l->replaced = replaced;
    l->retired = x.sw_money.retired + x.cab_money.retired;
    l->gpus_cut = x.gpus_cut;
    l->relocated = x.relocated_servers + x.relocated_switches;
    ry_expand_free(&x);
    return 0;
}

int ry_growth_compute(const ry_fabric *f, const ry_cabling *cab, const ry_media_catalog *media,
                      ry_growth *g, ry_err *err)
{
    const ry_spec *s = f->spec;
    memset(g, 0, sizeof *g);
    ry_spec plain = *s, ts;
    plain.growth.target_gpus = 0;
    plain.growth.target_nodes = 0;
    ry_reserve_target_spec(s, &ts);
    g->target_gpus = ts.gpus;
    g->target_nodes = ts.nodes;

    ry_fabric without, target;
    if (ry_fabric_build(&plain, &without, err) < 0)
        return -1;
    if (ry_fabric_build(&ts, &target, err) < 0) {
        ry_fabric_free(&without);
        return -1;
    }
    /* the phase's own plan is the caller's */
    phys pw = { .lay = *cab->lay, .cab = *cab }, pwo, pt;
    memset(&pt, 0, sizeof pt);
    int rc = phys_of(&without, media, &pwo, err);
    if (rc == 0)
        rc = phys_of(&target, media, &pt, err);
    if (rc == 0) {
        capex_of(f, s, &pw, &g->with);
        capex_of(&without, s, &pwo, &g->without);
        g->switches_with = (long long)(f->nnodes - f->first_switch);
        g->switches_without = (long long)(without.nnodes - without.first_switch);
        g->switch_units_with = switch_units(cab->lay);
        g->switch_units_without = switch_units(&pwo.lay);
        g->cables_target = (long long)target.nlinks;
        rc = later(&without, &pwo, &target, &pt, &g->without_later, err);
    }
    if (rc == 0)
        rc = later(f, &pw, &target, &pt, &g->with_later, err);
    phys_free(&pwo);
    phys_free(&pt);
    ry_fabric_free(&without);
    ry_fabric_free(&target);
    return rc;
}
