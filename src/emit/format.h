/* The shared vocabulary of the emitters: what every output family may use
 * and no family owns. emit/ is split by family (ib/, cabling/, eth/, model/,
 * report/, topo/); a family includes only its own files and the shared
 * units at the top of emit/: this header (format names, money, capex, bytes),
 * csv.h (CSV fields and rows), text_table.h (text tables), tier_text.h (a
 * spec's tiers in words), colors.h (the rail palette) and comment.h ("# "
 * blocks of configuration files). tests/layers.sh keeps it so.
 *
 * Adding an output format: 4 things to do.
 *  1. Put the emitter in its family's folder (emit/<family>/emit_X.c and .h);
 *     the header opens with what the format is and who reads it. A format of
 *     no family yet is a new emit/<family>/, ranked with the others by
 *     tests/layers.sh without a line to change.
 *  2. Use the shared units above for money, bytes, CSV fields and tables; a
 *     word two families need moves here (or beside this header), never into
 *     a sibling family's file.
 *  3. List both files in Makefile.am's librailyard_a_SOURCES.
 *  4. Wire it from its command (cmd/cmd_X.c) or, for `build`, as an output
 *     group (cmd/cmd_groups.c: one row, RY_GROUP_COUNT grows with it), and
 *     name the file in doc/railyard.1's OUTPUT section; a test reads it
 *     with the program that consumes it. */
#ifndef RY_EMIT_FORMAT_H
#define RY_EMIT_FORMAT_H

#include <stddef.h>

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "analysis/reliability.h"
#include "util/buf.h"

typedef enum { RY_FMT_TEXT, RY_FMT_JSON, RY_FMT_CSV } ry_format;

/* Parses "text", "json", "csv"; -1 if unknown. */
int ry_format_parse(const char *s, ry_format *out);

struct json_t;
/* An amount of money as JSON: integral amounts as JSON integers, so
 * consumers need no rounding (a new reference). */
struct json_t *ry_json_money(double v);
/* The capex object of every report that prices a fabric (a new reference). */
struct json_t *ry_capex_json(const ry_capex *x);
/* The cost of ownership of a capex (its "ownership" object): years, PUE,
 * energy price, support share; capex, energy, support and their total over
 * the years; the network's power; the servers' energy apart. Energy and the
 * power are null when a switch model's power is unknown. */
struct json_t *ry_ownership_json(const ry_capex *x);
/* A design's expected failures and their cost (analysis/reliability.h):
 * the totals a year, the goodput, the dollars, and per class its count,
 * rate, failures, the GPU-hours one failure loses (restart, repair) and
 * the year's. */
struct json_t *ry_reliability_json(const ry_reliability *r);
/* A physical bill line's item as reports name it: "cable" or "optics". */
const char *ry_pbom_item_name(const ry_pbom_line *l);

/* A size in bytes for people: SI units (B, kB, MB, GB, TB, PB, EB), three
 * significant digits ("860 GB", "19.1 TB"); returns buf. */
const char *ry_fmt_bytes(char *buf, size_t cap, double bytes);

/* A plot script draws each figure twice, as STEM.png and STEM.svg: pass 0
 * and pass 1 of its loop start with the terminal of that pass (the same
 * size and font in both), so the two images are the same figure. */
void ry_gp_terminal(ry_buf *o, int pass, int width, int height, const char *stem);

#endif
