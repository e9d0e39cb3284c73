#include "emit/csv.h"

#include "util/escape.h"

void ry_csv_field(ry_buf *b, const char *s)
{
    ry_escape_str(b, s, RY_ESC_CSV);
}

void ry_csv_fields(ry_buf *b, const char *const *fields, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            ry_buf_putc(b, ',');
        ry_csv_field(b, fields[i]);
    }
}

void ry_csv_row(ry_buf *b, const char *const *fields, int n)
{
    ry_csv_fields(b, fields, n);
    ry_csv_end(b);
}

static int csv_crlf;   /* set once from the command line, before any output */

void ry_csv_set_crlf(int on) { csv_crlf = on; }

const char *ry_csv_eol(void) { return csv_crlf ? "\r\n" : "\n"; }

void ry_csv_end(ry_buf *b) { ry_buf_puts(b, ry_csv_eol()); }
