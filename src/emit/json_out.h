/* A JSON document as railyard writes it: indented by two, its keys in the
 * order they were set (reports read top-down, and the same run gives the
 * same bytes), a newline at the end. One writer for every JSON report, so
 * the layout is the same everywhere. */
#ifndef RY_JSON_OUT_H
#define RY_JSON_OUT_H

#include <jansson.h>

#include "util/buf.h"

/* Appends j to o as above and takes the reference (j is decref'd, as
 * Jansson's _new functions do). precision: significant digits of reals
 * (JSON_REAL_PRECISION), or 0 for Jansson's shortest round trip. */
void ry_json_out(ry_buf *o, json_t *j, int precision);
/* The same with Jansson's flags as they are, for a file whose reader has
 * its own layout (SONiC's config_db.json: JSON_INDENT(4) | JSON_SORT_KEYS). */
void ry_json_out_flags(ry_buf *o, json_t *j, size_t flags);

#endif
