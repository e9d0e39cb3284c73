/* The design checks (analysis/design_check.h) as text and JSON. */
#ifndef RY_EMIT_CHECKS_H
#define RY_EMIT_CHECKS_H

#include "analysis/design_check.h"
#include "util/buf.h"

struct json_t;

/* The "design checks" section of validate's text output. */
void ry_emit_checks(ry_buf *out, const ry_design_check *c, int strict);
/* The same figures as a new JSON object (the caller owns the reference). */
struct json_t *ry_checks_json(const ry_design_check *c, int strict);
/* 1 when the checks pass: no errors, and no warnings under --strict. */
int ry_checks_pass(const ry_design_check *c, int strict);

#endif
