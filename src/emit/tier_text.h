/* A tier of fabric.tiers in words, for the outputs that name each tier's
 * switch: its ports by speed. */
#ifndef RY_TIER_TEXT_H
#define RY_TIER_TEXT_H

#include <stddef.h>

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

#endif
