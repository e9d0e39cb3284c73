/* CSV fields, one rule for every CSV railyard writes: RFC 4180 quoting
 * (only when a field holds a comma, a quote or a line break; quotes
 * doubled), control bytes other than tab, CR and LF and bytes outside UTF-8
 * shown as \xNN (util/escape.h, CSV). A field's text is otherwise written
 * as it is: NetBox, the cable validation tool and pandas import these files,
 * and a field starting with =, +, - or @ is data to them. Formula guarding
 * belongs to the reader that evaluates formulas: the xlsx workbook writes
 * every text as a string cell, which a spreadsheet never evaluates.
 *
 * Records end with LF, what awk, cut, Python's csv module, spreadsheets and
 * NetBox's import all read; --crlf (ry_csv_set_crlf) makes every CSV end its
 * records with CR LF as RFC 4180 writes them. */
#ifndef RY_CSV_H
#define RY_CSV_H

#include "util/buf.h"

void ry_csv_field(ry_buf *b, const char *s);

/* n fields, each as ry_csv_field, with commas between: the cells a record
 * starts with (the caller writes the rest); ry_csv_row writes them as a
 * whole record, its end included. */
void ry_csv_fields(ry_buf *b, const char *const *fields, int n);
void ry_csv_row(ry_buf *b, const char *const *fields, int n);

/* A record whose cells are set by column, in any order, printf style (up
 * to RY_CSV_CELL - 1 bytes each); the cells not set are empty. Start it
 * zeroed with its number of columns (at most RY_CSV_COLS):
 *     ry_csv_rec r = { .n = NCOLS };
 * then ry_csv_set the cells and ry_csv_put it, a whole record. */
#define RY_CSV_COLS 24
#define RY_CSV_CELL 64
typedef struct ry_csv_rec {
    int n;
    char cell[RY_CSV_COLS][RY_CSV_CELL];
} ry_csv_rec;

void ry_csv_set(ry_csv_rec *r, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ry_csv_put(ry_buf *b, const ry_csv_rec *r);

/* The end of a record: "\n", or "\r\n" after ry_csv_set_crlf(1). */
void ry_csv_set_crlf(int on);
const char *ry_csv_eol(void);
void ry_csv_end(ry_buf *b);

#endif
