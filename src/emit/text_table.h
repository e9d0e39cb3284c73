/* Text tables whose columns fit their figures: every cell is kept until the
 * table is written, then each column is as wide as its widest cell (header
 * included), so a billion-dollar total or a million-port tier stays in its
 * column. align holds one letter per column: 'l' (names) or 'r' (figures);
 * columns are two spaces apart.
 *
 * Memory: ry_text_table_write frees the cells; a table is used once. */
#ifndef RY_TEXT_TABLE_H
#define RY_TEXT_TABLE_H

#include "util/buf.h"

#define RY_TABLE_MAX_COLS 16

typedef struct ry_text_table {
    int ncols;
    char align[RY_TABLE_MAX_COLS + 1];
    ry_buf cells;           /* NUL-separated, row by row */
    int ncells;
} ry_text_table;

void ry_text_table_init(ry_text_table *t, const char *align);
/* Appends the next cell, row by row (the first row is the header). */
void ry_text_table_cell(ry_text_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Writes the table, every line starting with indent. */
void ry_text_table_write(ry_text_table *t, ry_buf *o, const char *indent);

/* "$1,234,567" or, with cents, "$1,234,567.89": money in a table shows cents
 * on every row or on none (ry_money_has_cents tells which). */
void ry_money_text(ry_buf *o, double v, int cents);
int ry_money_has_cents(double v);

#endif
