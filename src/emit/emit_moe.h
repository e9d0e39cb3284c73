/* The expert all-to-all of a MoE model (model/moe.h) in `railyard model`'s
 * text and JSON, and in `railyard traffic`'s (analysis/moe_traffic.h). */
#ifndef RY_EMIT_MOE_H
#define RY_EMIT_MOE_H

#include <jansson.h>

#include "model/iteration.h"
#include "util/buf.h"

/* The section of `railyard model` (nothing for a dense model). */
void ry_emit_moe_text(ry_buf *o, const ry_spec *s, const ry_model *m);
/* The "moe" object of its JSON (a new reference), or NULL for a dense model. */
json_t *ry_moe_json(const ry_spec *s, const ry_model *m);

#endif
