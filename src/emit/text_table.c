#include "emit/text_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/diag.h"
#include "util/escape.h"

void ry_text_table_init(ry_text_table *t, const char *align)
{
    size_t n = strlen(align);
    RY_ASSERT(n > 0 && n <= RY_TABLE_MAX_COLS);
    memcpy(t->align, align, n + 1);
    t->ncols = (int)n;
    t->ncells = 0;
    ry_buf_init(&t->cells);
}

void ry_text_table_cell(ry_text_table *t, const char *fmt, ...)
{
    char small[256], shown[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    ry_escape_to(shown, sizeof shown, small, RY_ESC_TERM);    /* a cell may quote input */
    ry_buf_add(&t->cells, shown, strlen(shown) + 1);
    t->ncells++;
}

void ry_text_table_write(ry_text_table *t, ry_buf *o, const char *indent)
{
    size_t width[RY_TABLE_MAX_COLS] = { 0 };
    const char *p = t->cells.data;
    for (int i = 0; i < t->ncells; i++) {
        size_t n = strlen(p);
        if (n > width[i % t->ncols])
            width[i % t->ncols] = n;
        p += n + 1;
    }
    p = t->cells.data;
    for (int i = 0; i < t->ncells; i++) {
        int c = i % t->ncols;
        size_t n = strlen(p);
        int last = c == t->ncols - 1 || i == t->ncells - 1;
        if (c == 0)
            ry_buf_puts(o, indent);
        else
            ry_buf_puts(o, "  ");
        if (t->align[c] == 'l') {
            ry_buf_puts(o, p);
            if (!last)
                for (size_t k = n; k < width[c]; k++)
                    ry_buf_putc(o, ' ');
        } else {
            for (size_t k = n; k < width[c]; k++)
                ry_buf_putc(o, ' ');
            ry_buf_puts(o, p);
        }
        if (last) {
            while (o->len > 0 && o->data[o->len - 1] == ' ')
                o->data[--o->len] = '\0';
            ry_buf_putc(o, '\n');
        }
        p += n + 1;
    }
    ry_buf_free(&t->cells);
    t->ncells = 0;
}

int ry_money_has_cents(double v)
{
    double c = round(fabs(v) * 100.0);
    return fmod(c, 100.0) != 0.0;
}

void ry_money_text(ry_buf *o, double v, int cents)
{
    double c = round(fabs(v) * 100.0);
    double whole = cents ? floor(c / 100.0) : round(c / 100.0);
    char digits[64];
    snprintf(digits, sizeof digits, "%.0f", whole);
    size_t n = strlen(digits);
    if (v < 0 && (cents ? c > 0 : whole > 0))
        ry_buf_putc(o, '-');
    ry_buf_putc(o, '$');
    for (size_t i = 0; i < n; i++) {
        ry_buf_putc(o, digits[i]);
        if ((n - i - 1) % 3 == 0 && i + 1 < n)
            ry_buf_putc(o, ',');
    }
    if (cents)
        ry_buf_printf(o, ".%02d", (int)fmod(c, 100.0));
}
