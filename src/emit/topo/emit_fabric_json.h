/* fabric.json: every node, its ports, and every link, for other tools. */
#ifndef RY_EMIT_FABRIC_JSON_H
#define RY_EMIT_FABRIC_JSON_H

#include <stdio.h>

#include "fabric/fabric.h"

/* Streams the graph as JSON (no whole-document tree in memory). */
void ry_emit_fabric_json(FILE *fp, const ry_fabric *f);

#endif
