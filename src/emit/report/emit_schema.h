/* The spec's JSON Schema, made from the schema table (spec/schema.c), for
 * editors and validators: every key with its type, range and words, its
 * one-line doc and railyard-spec(5)'s summary as the description; unknown
 * keys rejected as railyard rejects them. Rules between keys, and the
 * readers' own checks (catalog names, D:U ratios, times), are railyard's:
 * the schema lets those values through with their description only. */
#ifndef RY_EMIT_SCHEMA_H
#define RY_EMIT_SCHEMA_H

#include "util/buf.h"

/* The schema as JSON (draft-07), one object, indented, ending in '\n'. */
void ry_emit_spec_schema(ry_buf *out);

#endif
