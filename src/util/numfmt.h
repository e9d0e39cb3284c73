/* Numbers for people: the one style of every text report. Counts have their
 * thousands grouped ("16,384"); quantities are given with a fixed number of
 * significant digits and an SI prefix on their unit ("7.05 GB", "3.32 PB",
 * "8.9 ms"), or grouped with fixed decimals where the unit is customary
 * ("1,871.3 km", "$98,041,856"); nothing is ever in e-notation. CSV and JSON
 * keep plain numbers: these are for text only.
 *
 * Each function writes into buf (cap bytes; RY_NUM_CAP is always enough)
 * and returns buf, so calls can stand in a printf argument list. */
#ifndef RY_NUMFMT_H
#define RY_NUMFMT_H

#include <stddef.h>

#define RY_NUM_CAP 64

/* 16384 -> "16,384"; -1234 -> "-1,234" */
const char *ry_num_int(char *buf, size_t cap, long long v);

/* v with `decimals` digits after the point, the integer part grouped:
 * (1871.25, 1) -> "1,871.3"; (98041856.4, 0) -> "98,041,856" */
const char *ry_num_fixed(char *buf, size_t cap, double v, int decimals);

/* v with `sig` significant digits (1 to 6), grouped, never in e-notation, no
 * trailing zeros after the point: (1310500, 3) -> "1,310,000";
 * (0.0012345, 3) -> "0.00123"; (12.5, 3) -> "12.5" */
const char *ry_num_sig(char *buf, size_t cap, double v, int sig);

/* v of `unit` with an SI prefix (p n u m, none, k M G T P E) chosen so that
 * the number is at least 1 and under 1,000, to `sig` significant digits:
 * (7.04643e9, "B", 3) -> "7.05 GB"; (0.0089, "s", 2) -> "8.9 ms";
 * (0, "B", 3) -> "0 B". Micro is written "u". */
const char *ry_num_si(char *buf, size_t cap, double v, const char *unit, int sig);

/* A length in metres: under 1 km "412.5 m", else "1,871.3 km". */
const char *ry_num_length(char *buf, size_t cap, double metres);

/* Dollars, whole: "$98,041,856"; cents: (v, 2) -> "$748.00". */
const char *ry_num_money(char *buf, size_t cap, double v, int decimals);

/* Dollars shortened for a summary, to 4 significant digits with k, M, B
 * or T: "$126.7M", "$4.682M", "$950k", "$1.2B"; under $1,000 as they are
 * ("$748"). */
const char *ry_num_money_short(char *buf, size_t cap, double v);

/* ry_num_int into one of 16 buffers of the calling thread, taken in turn:
 * for argument lists, ry_buf_printf(o, "%s of %s", ry_n(a), ry_n(b)). At
 * most 16 in one call; the text is valid until the 16th call after. */
const char *ry_n(long long v);
/* ry_num_money(v, 0) into the same buffers: "$98,041,856". */
const char *ry_n_money(double v);
/* ry_num_money_short into the same buffers: "$98.04M". */
const char *ry_n_money_short(double v);

#endif
