/* Diagrams of a fabric in Graphviz's DOT language, and their rendering with
 * the dot program. The views and what they show (boxes and bundles) are
 * computed in analysis/diagram.h; this writes them. */
#ifndef RY_EMIT_DOT_H
#define RY_EMIT_DOT_H

#include <stddef.h>

#include "analysis/diagram.h"
#include "io/outdir.h"
#include "fabric/fabric.h"
#include "util/buf.h"

/* Appends the DOT text of a diagram (deterministic: same fabric and view,
 * same bytes). */
void ry_emit_dot(ry_buf *b, const ry_diagram *d);

/* Runs Graphviz's dot on DOT text (with util/proc.h's runner) and
 * appends its output in format ("svg", "png", "pdf") to out. Returns 0,
 * RY_DOT_MISSING when no dot program is on PATH (nothing printed), or -1
 * after printing why dot failed. */
#define RY_DOT_MISSING (-2)
int ry_dot_render(const char *dot, size_t len, const char *format, ry_buf *out);

/* Writes prefix/summary.dot, rail0.dot and unit1.dot and, when dot is
 * installed, their SVGs (else a one-line note on stderr). -1 on a write
 * error. */
int ry_emit_diagrams(ry_outdir *o, const char *prefix, const ry_fabric *f);

#endif
