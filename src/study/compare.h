/* compare's engine: the three designs of one cluster (rail-optimized,
 * rail-only, fat tree) built, laid out, cabled and priced as bom prices
 * them (analysis/compare.h), and with a workload the full model's fastest
 * layout for each and the slowdown one spine failure costs (whatif's
 * analysis and ry_plan_degrade). The results are ry_compare_design
 * (analysis/compare.h), reported by emit/report/emit_compare.h. Nothing to
 * free: each design's build is freed once its figures are taken. */
#ifndef RY_STUDY_COMPARE_H
#define RY_STUDY_COMPARE_H

#include "analysis/compare.h"
#include "spec/spec.h"

/* Fills c's model figures (modeled, layout, iteration time, tokens/s and
 * per $1M, the spine failure's slowdown) for design build b; -1 (error
 * printed) when the model cannot be computed. */
int ry_compare_model_design(const ry_design_build *b, ry_compare_design *c);

/* d[i] for each design i (ry_design order): built and filled, or its err
 * set when the design cannot be built; modeled too when want_model. The
 * number of designs built, or -1 when the model cannot be computed. */
int ry_compare_designs(const ry_spec *s, const ry_media_catalog *media, int want_model,
                       ry_compare_design d[3]);

/* compare --paper: rows[i] for each of the nradix radices, the paper's
 * Table 2 row of base's cluster with switches of that radix. 0, or -1 at
 * the first radix whose spec or fabric is refused (error printed at the
 * key to blame). */
int ry_compare_paper(const ry_spec *base, const int *radix, int nradix, ry_compare_row *rows);

#endif
