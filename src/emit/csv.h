/* CSV fields, one rule for every CSV railyard writes: RFC 4180 quoting
 * (only when a field holds a comma, a quote or a line break; quotes
 * doubled), and text that a spreadsheet would take for a formula (starting
 * with =, +, -, @, a tab or a carriage return, and not a plain number) is
 * neutralised with a leading apostrophe, as OWASP recommends against CSV
 * injection.
 *
 * Records end with LF, what awk, cut, Python's csv module, spreadsheets and
 * NetBox's import all read; --crlf (ry_csv_set_crlf) makes every CSV end its
 * records with CR LF as RFC 4180 writes them. */
#ifndef RY_CSV_H
#define RY_CSV_H

#include "util/buf.h"

void ry_csv_field(ry_buf *b, const char *s);

/* The end of a record: "\n", or "\r\n" after ry_csv_set_crlf(1). */
void ry_csv_set_crlf(int on);
const char *ry_csv_eol(void);
void ry_csv_end(ry_buf *b);

#endif
