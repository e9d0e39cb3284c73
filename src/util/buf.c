#include "util/buf.h"
#include "util/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ry_buf_init(ry_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

void ry_buf_free(ry_buf *b)
{
    free(b->data);
    ry_buf_init(b);
}

void ry_buf_reset(ry_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static void reserve(ry_buf *b, size_t extra)
{
    RY_ALLOC_GROW(b->data, b->len + extra + 1, b->cap);
}

void ry_buf_add(ry_buf *b, const void *p, size_t n)
{
    reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void ry_buf_puts(ry_buf *b, const char *s) { ry_buf_add(b, s, strlen(s)); }
void ry_buf_putc(ry_buf *b, char c)
{
    if (b->len + 2 <= b->cap) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
    } else {
        ry_buf_add(b, &c, 1);
    }
}

void ry_buf_printf(ry_buf *b, const char *fmt, ...)
{
    /* Formatted straight into the spare room; only what does not fit is
     * formatted again, once the buffer has grown. */
    size_t spare = b->cap - b->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(spare ? b->data + b->len : NULL, spare, fmt, ap);
    va_end(ap);
    if (n < 0) {
        if (spare)
            b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n >= spare) {
        reserve(b, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

int ry_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int sub = prev + (a[i - 1] != b[j - 1]);
            int del = row[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            prev = cur;
        }
    }
    return row[lb];
}
