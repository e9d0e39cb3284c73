/* Diagrams of a fabric in Graphviz's DOT language, and their rendering with
 * the dot program.
 *
 * Views: summary (each tier's switches in a few boxes, HB domains in a few
 * more, bundles of links between them), rail=N (the switches that carry one
 * rail), unit=N (one scalable unit and what it reaches above) and full (every
 * node and link; small fabrics only). The aggregated views are built by
 * walking the graph into boxes and bundles, so their DOT stays at a few
 * hundred nodes for any fabric size. */
#ifndef RY_EMIT_DOT_H
#define RY_EMIT_DOT_H

#include <stddef.h>

#include "emit/outdir.h"
#include "fabric/fabric.h"
#include "util/buf.h"

typedef enum { RY_VIEW_SUMMARY, RY_VIEW_RAIL, RY_VIEW_UNIT, RY_VIEW_FULL } ry_view_kind;

typedef struct ry_view {
    ry_view_kind kind;
    long long n;        /* the rail or the unit */
} ry_view;

/* Nodes (GPUs and switches) above which the full view needs --force. */
#define RY_DRAW_FULL_LIMIT 2000

/* Parses "summary", "rail=N", "unit=N" or "full": 0, -1 for an unknown view
 * name, -2 for a rail= or unit= without a whole number. */
int ry_view_parse(const char *text, ry_view *v);

/* 0 when the view exists in f; else -1 with msg saying what exists. */
int ry_view_check(const ry_fabric *f, const ry_view *v, char *msg, size_t n);

/* The views a fabric has, for messages: "summary, rail=N (N = 0-7), ...". */
void ry_view_list(const ry_fabric *f, char *buf, size_t n);

/* Appends the DOT text of a view (deterministic: same fabric, same bytes). */
void ry_emit_dot(ry_buf *b, const ry_fabric *f, const ry_view *v);

/* Runs Graphviz's dot on DOT text (with util/proc.h's runner) and
 * appends its output in format ("svg", "png", "pdf") to out. Returns 0,
 * RY_DOT_MISSING when no dot program is on PATH (nothing printed), or -1
 * after printing why dot failed. */
#define RY_DOT_MISSING (-2)
int ry_dot_render(const char *dot, size_t len, const char *format, ry_buf *out);

/* Writes prefix/summary.dot, rail0.dot and unit0.dot and, when dot is
 * installed, their SVGs (else a one-line note on stderr). -1 on a write
 * error. */
int ry_emit_diagrams(ry_outdir *o, const char *prefix, const ry_fabric *f);

#endif
