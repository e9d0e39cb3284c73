/* The bill of materials and the design comparison as text, JSON and CSV. */
#ifndef RY_EMIT_BOM_H
#define RY_EMIT_BOM_H

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "analysis/compare.h"
#include "util/buf.h"

typedef enum { RY_FMT_TEXT, RY_FMT_JSON, RY_FMT_CSV } ry_format;

/* Parses "text", "json", "csv"; -1 if unknown. */
int ry_format_parse(const char *s, ry_format *out);

/* The bill of materials; with a cabling plan (may be NULL) the physical
 * bill of materials follows the paper's model (text and JSON). */
void ry_emit_bom(ry_buf *out, const ry_bom *b, const ry_cabling *phys, const ry_capex *capex,
                 ry_format fmt);
void ry_emit_summary(ry_buf *out, const ry_spec *s, const ry_fabric *f, const ry_bom *b);
/* The summary's lines for the n output groups build skipped; earlier[i]:
 * DIR holds group[i]'s files from an earlier run (kept as they were). */
void ry_emit_summary_skipped(ry_buf *out, const char *const *group, const int *earlier, int n);
/* validate --format json: the summary's figures and the bill of materials;
 * with checks (may be NULL) the design checks under "checks". */
struct ry_design_check;
void ry_emit_validate_json(ry_buf *out, const char *path, const ry_spec *s, const ry_fabric *f,
                           const ry_bom *b, const struct ry_design_check *checks, int strict);
void ry_emit_compare(ry_buf *out, const ry_compare_row *rows, int nrows, ry_format fmt);

#endif
