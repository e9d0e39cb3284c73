/* A tier of fabric.tiers in words, for the outputs that name each tier's
 * switch: its ports by speed. */
#ifndef RY_TIER_TEXT_H
#define RY_TIER_TEXT_H

#include <stddef.h>

#include <jansson.h>

#include "spec/spec.h"
#include "util/buf.h"

/* A tier's ports by speed, down, up, then free, adjacent runs of one speed
 * joined: "64 x 200G + 32 x 400G" (leaves with split down ports), "64 x
 * 400G". Returns buf. */
const char *ry_tier_ports_text(char *buf, size_t n, const ry_tier_ports *t);

/* The tiers of a spec's fabric.tiers list, leaves first, sep between
 * them: "leaf qm9700 (64 x 200G + 32 x 400G), spine q3400 (288 x 400G)".
 * Nothing for a spec without a list. */
void ry_spec_tiers_text(ry_buf *o, const ry_spec *s, const char *sep);

/* A design that took the spec's fabric.tiers list by position (compare):
 * which entry each of its tiers took, a line: "rail-only: 2 tiers from
 * fabric.tiers by position: leaf [0], spine [1] as the top (every port
 * down); [2] not used". Nothing when it took the list as written. */
void ry_tier_entries_text(ry_buf *o, const ry_spec *s, ry_design design, int tiers,
                          const ry_tier_entries *e);
/* The same as JSON: per tier {tier, name, entry, use: "as-listed", "as-top"
 * or "repeated"}. A new reference. */
json_t *ry_tier_entries_json(int tiers, const ry_tier_entries *e);

#endif
