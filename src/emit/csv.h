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

/* The end of a record: "\n", or "\r\n" after ry_csv_set_crlf(1). */
void ry_csv_set_crlf(int on);
const char *ry_csv_eol(void);
void ry_csv_end(ry_buf *b);

#endif
