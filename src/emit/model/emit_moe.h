/* The expert all-to-all of a MoE model (model/moe.h) in `railyard model`'s
 * text and JSON, and in `railyard traffic`'s (analysis/moe_traffic.h). */
#ifndef RY_EMIT_MOE_H
#define RY_EMIT_MOE_H

#include <jansson.h>

#include "analysis/moe_traffic.h"
#include "emit/format.h"
#include "model/iteration.h"
#include "util/buf.h"

/* The section of `railyard model` (nothing for a dense model). iter: the
 * iteration time reported above; exposed < 0 when the all-to-all is not in
 * it (eq. 1, --paper: the section adds it), else the part of it the
 * iteration holds (the full model: nothing is added again). */
void ry_emit_moe_text(ry_buf *o, const ry_spec *s, const ry_model *m, double iter,
                      double exposed);
/* The "moe" object of its JSON (a new reference), or NULL for a dense
 * model; iter and exposed as above. */
json_t *ry_moe_json(const ry_spec *s, const ry_model *m, double iter, double exposed);

/* `railyard traffic`'s section on the expert all-to-all (text); with JSON,
 * o holds the traffic object ry_emit_traffic wrote and gets a "moe" key
 * added (the object is read back and written again, so ry_emit_traffic
 * keeps its signature). */
void ry_emit_moe_traffic(ry_buf *o, const ry_spec *s, const ry_model *m, const ry_fabric *f,
                         const ry_moe_traffic *mt, ry_format fmt);
/* a2a-gpus.csv: per GPU, the bytes of the forwarding hop (out and in) and
 * the all-to-all bytes its NIC sends and receives. */
void ry_emit_moe_gpus(ry_buf *o, const ry_fabric *f, const ry_moe_traffic *mt);

#endif
