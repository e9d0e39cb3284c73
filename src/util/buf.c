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
void ry_buf_putc(ry_buf *b, char c) { ry_buf_add(b, &c, 1); }

void ry_buf_printf(ry_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
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
