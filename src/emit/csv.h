/* CSV fields, one rule for every CSV railyard writes: RFC 4180 quoting
 * (only when a field holds a comma, a quote or a line break; quotes
 * doubled), and text that a spreadsheet would take for a formula (starting
 * with =, +, -, @, a tab or a carriage return, and not a plain number) is
 * neutralised with a leading apostrophe, as OWASP recommends against CSV
 * injection. */
#ifndef RY_CSV_H
#define RY_CSV_H

#include "util/buf.h"

void ry_csv_field(ry_buf *b, const char *s);

#endif
