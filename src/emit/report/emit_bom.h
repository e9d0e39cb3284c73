/* The bill of materials and the design comparison as text, JSON and CSV. */
#ifndef RY_EMIT_BOM_H
#define RY_EMIT_BOM_H

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "analysis/compare.h"
#include "emit/format.h"
#include "util/buf.h"

struct ry_growth;    /* analysis/growth.h */

/* The bill of materials: the counts, then (with a cabling plan, may be
 * NULL) the capex and the physical bill it sums; paper 1 adds the rail-only
 * paper's cost model, labelled as such (text; JSON and CSV always carry
 * it, under "paper_cost" and section "paper"). */
void ry_emit_bom(ry_buf *out, const ry_bom *b, const ry_cabling *phys, const ry_capex *capex,
                 ry_format fmt, int paper);
/* The same with the price sensitivity of the capex (sens, may be NULL):
 * its table after the capex in text, "sensitivity" in JSON. */
struct ry_price_items;
void ry_emit_bom_sens(ry_buf *out, const ry_bom *b, const ry_cabling *phys,
                      const ry_capex *capex, ry_format fmt, int paper,
                      const struct ry_price_items *sens);
/* validate's and build's summary: the spec's figures, the counts and the
 * capex (x may be NULL: then "not priced" and why, from unpriced); paper 1
 * adds the paper's cost model. */
void ry_emit_summary(ry_buf *out, const ry_spec *s, const ry_fabric *f, const ry_bom *b,
                     const ry_capex *x, const char *unpriced, int paper);
/* validate's lines on a growth reserve (growth.target_*): what it costs now
 * and what it saves later (analysis/growth.h); g NULL: why it was not
 * counted (failed). */
void ry_emit_growth(ry_buf *out, const struct ry_growth *g, const char *failed);
/* The summary's lines for the n output groups build skipped; earlier[i]:
 * DIR holds group[i]'s files from an earlier run (kept as they were). */
void ry_emit_summary_skipped(ry_buf *out, const char *const *group, const int *earlier, int n);
/* validate --format json: the summary's figures, the bill of materials and
 * the capex (null when x is NULL); with checks (may be NULL) the design
 * checks under "checks"; with a growth reserve (f->reserve) "growth": g's
 * figures, or null when g is NULL (not counted). */
struct ry_design_check;
void ry_emit_validate_json(ry_buf *out, const char *path, const ry_spec *s, const ry_fabric *f,
                           const ry_bom *b, const ry_capex *x,
                           const struct ry_design_check *checks, int strict,
                           const struct ry_growth *g);
/* The capex block (text: "capex", its parts and total), for every report
 * that prices a fabric (its JSON object: ry_capex_json, emit/format.h). */
void ry_emit_capex_text(ry_buf *out, const ry_capex *x);
/* One line naming the rail-only paper's cost model, its two prices and its
 * total for b: for the reports that show it only when asked. */
void ry_emit_paper_cost_line(ry_buf *out, const ry_bom *b);
/* compare --paper's rows; s the spec (NULL when built from --gpus): a
 * fabric.tiers list is named above the text table, its rows' radix 0. */
void ry_emit_compare(ry_buf *out, const ry_spec *s, const ry_compare_row *rows, int nrows,
                     ry_format fmt);

#endif
