#include "analysis/compare.h"

#include <stdio.h>
#include <string.h>

void ry_compare_spec_for(const ry_spec *base, int radix, ry_spec *out)
{
    *out = *base;
    out->sw.radix = radix;
    if (radix != base->sw.radix)
        out->scalable_unit = 0;
}

int ry_compare_one(const ry_spec *base, int radix, ry_compare_row *row, ry_err *err)
{
    memset(row, 0, sizeof *row);
    row->gpus = base->gpus;
    row->hb_domain = base->hb_domain;
    row->radix = radix;
    for (int d = 0; d < 3; d++) {
        ry_spec s = *base;
        s.design = (ry_design)d;
        s.sw.radix = radix;
        ry_fabric f;
        if (ry_fabric_build(&s, &f, err) < 0)
            return -1;
        ry_bom_compute(&f, &row->bom[d]);
        if (d == RY_DESIGN_RAIL_OPTIMIZED) {
            row->su_domains = f.su_domains;
            row->su_from_spec = base->scalable_unit > 0;
        }
        ry_fabric_free(&f);
    }
    double sota = row->bom[RY_DESIGN_RAIL_OPTIMIZED].cost_total;
    double ro = row->bom[RY_DESIGN_RAIL_ONLY].cost_total;
    row->reduction = sota > 0 ? 100.0 * (1.0 - ro / sota) : 0.0;
    return 0;
}

int ry_design_bom(const ry_spec *s, ry_design d, ry_bom *b, char *err, size_t cap)
{
    ry_spec t = *s;
    t.design = d;
    if (d != s->design)
        t.tiers = 0;
    ry_fabric f;
    ry_err e;
    if (ry_fabric_build(&t, &f, &e) < 0) {
        snprintf(err, cap, "%s%s%s", e.key, e.key[0] ? ": " : "", e.msg);
        return -1;
    }
    ry_bom_compute(&f, b);
    ry_fabric_free(&f);
    return 0;
}

void ry_design_costs(const ry_spec *s, ry_design_cost *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 2; i++)
        c->ok[i] = ry_design_bom(s, i ? RY_DESIGN_RAIL_ONLY : RY_DESIGN_RAIL_OPTIMIZED,
                                 &c->bom[i], c->err[i], sizeof c->err[i]) == 0;
}
