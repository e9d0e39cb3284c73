#include "analysis/compare.h"

#include <string.h>

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
        ry_fabric_free(&f);
    }
    double sota = row->bom[RY_DESIGN_RAIL_OPTIMIZED].cost_total;
    double ro = row->bom[RY_DESIGN_RAIL_ONLY].cost_total;
    row->reduction = sota > 0 ? 100.0 * (1.0 - ro / sota) : 0.0;
    return 0;
}
