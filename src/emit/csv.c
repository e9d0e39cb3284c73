#include "emit/csv.h"

#include <stdlib.h>
#include <string.h>

/* "-12.5" or "+3" is data; "-1+cmd|' /C calc'!A0" or "=SUM(A1)" is not. */
static int plain_number(const char *s)
{
    char *end;
    if (!*s)
        return 0;
    strtod(s, &end);
    return *end == '\0' && !strpbrk(s, "xXpP");   /* no hex floats, no inf/nan text tricks */
}

void ry_csv_field(ry_buf *b, const char *s)
{
    int formula = strchr("=+-@\t\r", s[0]) && s[0] && !plain_number(s);
    if (!formula && !s[strcspn(s, ",\"\r\n")]) {
        ry_buf_puts(b, s);
        return;
    }
    int quote = s[strcspn(s, ",\"\r\n")] != '\0';
    if (quote)
        ry_buf_putc(b, '"');
    if (formula)
        ry_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '"')
            ry_buf_putc(b, '"');
        ry_buf_putc(b, *s);
    }
    if (quote)
        ry_buf_putc(b, '"');
}

static int csv_crlf;   /* set once from the command line, before any output */

void ry_csv_set_crlf(int on) { csv_crlf = on; }

const char *ry_csv_eol(void) { return csv_crlf ? "\r\n" : "\n"; }

void ry_csv_end(ry_buf *b) { ry_buf_puts(b, ry_csv_eol()); }
