/* The whole graph as GraphML (http://graphml.graphdrawing.org/), for graph
 * tools: one node per GPU and switch, one undirected edge per link, with the
 * fabric's attributes declared as keys. */
#ifndef RY_EMIT_GRAPHML_H
#define RY_EMIT_GRAPHML_H

#include <stdio.h>

#include "analysis/cabling.h"
#include "fabric/fabric.h"

/* Streams the graph to fp (no document tree in memory); -1 with an error
 * printed when writing fails. With cab (may be NULL) every edge carries
 * its cable: label, medium, kind, part and length. */
int ry_emit_graphml(FILE *fp, const ry_fabric *f, const ry_cabling *cab);

#endif
