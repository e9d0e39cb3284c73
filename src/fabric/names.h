/* Node names derived from ids (never stored): gpu17, leaf3, spine0, core12,
 * with a "pN-" prefix when the fabric has several planes. */
#ifndef RY_NAMES_H
#define RY_NAMES_H

#include "fabric/fabric.h"

const char *ry_tier_name(int tier, int tiers);
int ry_node_name(const ry_fabric *f, uint32_t id, char *buf, size_t n);

#endif
