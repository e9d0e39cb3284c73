/* The layout a report ran, in the same words in every command's output:
 *   TP 8 x PP 64 x DP 32 x EP 1, selective recomputation (the full model's choice)
 * text reports print it on a line of its own after "layout: ", JSON as the
 * "layout" object, CSV as a "layout" column. */
#ifndef RY_EMIT_LAYOUT_H
#define RY_EMIT_LAYOUT_H

#include <jansson.h>

#include "model/plan.h"
#include "util/buf.h"

/* The words, without a line end. */
void ry_emit_parallelism_words(ry_buf *o, const ry_parallelism *l);
/* "layout: " and the words, with a line end. */
void ry_emit_parallelism_line(ry_buf *o, const ry_parallelism *l);
/* A text report with the layout's line after its first line (the title). */
void ry_emit_with_parallelism(ry_buf *o, const char *report, size_t len, const ry_parallelism *l);
/* {"tp", "pp", "dp", "ep", "recompute", "chosen_by", "text"}: a new reference. */
json_t *ry_parallelism_json(const ry_parallelism *l);

#endif
