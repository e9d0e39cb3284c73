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
    int su_domains;         /* HB domains per scalable unit (rail-optimized) */
    int su_from_spec;       /* 1: the spec's own scalable unit, 0: one that fills a leaf */
} ry_compare_row;

/* The spec of one row: base with the switch radix set to radix. The
 * scalable unit is chosen per radix: the spec's own at the spec's radix,
 * one that fills a leaf of the radix at any other (a unit sized for 64-port
 * leaves would leave half of every 128-port leaf empty, and make the bigger
 * switch look dearer than it is). */
void ry_compare_spec_for(const ry_spec *base, int radix, ry_spec *out);

/* Build the three designs of `base` with the switch radix set to `radix`.
 * Returns -1 with err set when a design cannot be built. */
int ry_compare_one(const ry_spec *base, int radix, ry_compare_row *row, ry_err *err);

/* The network cost of one cluster as rail-optimized and rail-only fabrics,
 * both built and their bills of materials walked: what the LLM model and
 * the traffic analysis set beside their results. */
typedef struct ry_design_cost {
    int ok[2];              /* [0] rail-optimized, [1] rail-only */
    ry_bom bom[2];
    char err[2][640];       /* "key: message" when a design cannot be built */
} ry_design_cost;

void ry_design_costs(const ry_spec *s, ry_design_cost *c);
/* One design's bill of materials (forced tiers apply to the spec's own
 * design only). -1 with the reason in err when it cannot be built. */
int ry_design_bom(const ry_spec *s, ry_design d, ry_bom *b, char *err, size_t cap);

#endif
