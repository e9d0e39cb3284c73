/* Designs side by side for one cluster: rail-optimized (the SOTA baseline),
 * rail-only and fat-tree, per switch radix. */
#ifndef RY_COMPARE_H
#define RY_COMPARE_H

#include "analysis/bom.h"

typedef struct ry_compare_row {
    long long gpus;
    int hb_domain;
    int radix;
    ry_bom bom[3];          /* indexed by ry_design */
    double reduction;       /* rail-only cost saving vs rail-optimized, percent */
} ry_compare_row;

/* Build the three designs of `base` with the switch radix set to `radix`.
 * Returns -1 with err set when a design cannot be built. */
int ry_compare_one(const ry_spec *base, int radix, ry_compare_row *row, ry_err *err);

#endif
