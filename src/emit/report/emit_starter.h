/* railyard init's starter spec: a commented spec that names a node model
 * and a switch of the catalog, which `railyard validate` accepts. */
#ifndef RY_EMIT_STARTER_H
#define RY_EMIT_STARTER_H

#include "spec/catalog.h"
#include "util/buf.h"

/* The spec for gpus GPUs of node (a multiple of the larger of its
 * gpus_per_node and hb_domain), named name; sw is the switch to name, or
 * NULL to leave the default (a generic switch at the NIC speed). */
void ry_emit_starter(ry_buf *out, const char *name, long long gpus, const ry_catalog_node *node,
                     const ry_catalog_switch *sw);

#endif
