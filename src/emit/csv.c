#include "emit/csv.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/diag.h"
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

void ry_csv_set(ry_csv_rec *r, int col, const char *fmt, ...)
{
    RY_ASSERT(col >= 0 && col < r->n && r->n <= RY_CSV_COLS);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->cell[col], sizeof r->cell[col], fmt, ap);
    va_end(ap);
}

void ry_csv_put(ry_buf *b, const ry_csv_rec *r)
{
    const char *cells[RY_CSV_COLS];
    for (int i = 0; i < r->n; i++)
        cells[i] = r->cell[i];
    ry_csv_row(b, cells, r->n);
}

static int csv_crlf;   /* set once from the command line, before any output */

void ry_csv_set_crlf(int on) { csv_crlf = on; }

const char *ry_csv_eol(void) { return csv_crlf ? "\r\n" : "\n"; }

void ry_csv_end(ry_buf *b) { ry_buf_puts(b, ry_csv_eol()); }
