/* One escaping rule for everything printed from input (see escape.h). */
#include "util/escape.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 when the
 * byte at s starts none (overlong forms, surrogates and values above
 * U+10FFFF are not valid). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    unsigned v = c & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    return len;
}

/* A byte shown as \xNN, the backslash written as how writes one. */
static void shown_byte(ry_buf *b, unsigned char c, ry_esc how)
{
    int doubled = how == RY_ESC_DOT || how == RY_ESC_YAML || how == RY_ESC_JSON;
    ry_buf_printf(b, "%s\\x%02x", doubled ? "\\" : "", c);
}

/* A tab, CR or LF: as the context keeps it, or shown. */
static void line_char(ry_buf *b, unsigned char c, ry_esc how)
{
    const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
    switch (how) {
    case RY_ESC_TEXT:
    case RY_ESC_XML:
        if (c == '\r')
            ry_buf_puts(b, how == RY_ESC_XML ? "&#13;" : "\\x0d");
        else
            ry_buf_putc(b, (char)c);
        return;
    case RY_ESC_CSV:
        ry_buf_putc(b, (char)c);
        return;
    case RY_ESC_DOT:
        if (c == '\n')
            ry_buf_puts(b, "\\n");
        else
            shown_byte(b, c, how);
        return;
    case RY_ESC_YAML:
    case RY_ESC_JSON:
        ry_buf_puts(b, named);
        return;
    case RY_ESC_GNUPLOT:
        ry_buf_putc(b, ' ');
        return;
    default:
        shown_byte(b, c, how);
    }
}

/* A printable ASCII character, quoted as how quotes it. */
static void ascii_char(ry_buf *b, char c, ry_esc how)
{
    switch (how) {
    case RY_ESC_CSV:
        if (c == '"')
            ry_buf_putc(b, '"');
        break;
    case RY_ESC_DOT:
    case RY_ESC_YAML:
    case RY_ESC_JSON:
        if (c == '"' || c == '\\')
            ry_buf_putc(b, '\\');
        break;
    case RY_ESC_GNUPLOT:
        if (c == '\'')
            ry_buf_putc(b, '\'');
        break;
    case RY_ESC_SHELL:
        if (c == '\'') {
            ry_buf_puts(b, "'\\''");     /* end the quotes, a quoted quote, quote again */
            return;
        }
        break;
    case RY_ESC_XML:
        switch (c) {
        case '&': ry_buf_puts(b, "&amp;"); return;
        case '<': ry_buf_puts(b, "&lt;"); return;
        case '>': ry_buf_puts(b, "&gt;"); return;
        case '"': ry_buf_puts(b, "&quot;"); return;
        case '\'': ry_buf_puts(b, "&#39;"); return;     /* HTML-like labels too */
        default: break;
        }
        break;
    default:
        break;
    }
    ry_buf_putc(b, c);
}

/* A byte a shell word may hold without quotes. */
static int shell_plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("_./:=@%+,-", c));
}

/* The quote that opens and closes a whole string in how, or 0. */
static char opening_quote(const char *s, size_t n, ry_esc how)
{
    int quote = 0;
    switch (how) {
    case RY_ESC_CSV:
        for (size_t i = 0; i < n && !quote; i++)
            quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
        return quote ? '"' : 0;
    case RY_ESC_GNUPLOT:
        return '\'';
    case RY_ESC_SHELL:
        quote = n == 0;
        for (size_t i = 0; i < n && !quote; i++)
            quote = !shell_plain((unsigned char)s[i]);
        return quote ? '\'' : 0;
    default:
        return 0;
    }
}

void ry_escape(ry_buf *b, const char *s, size_t n, ry_esc how)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    char quote = opening_quote(s, n, how);
    if (quote)
        ry_buf_putc(b, quote);
    while (p < end) {
        size_t len = utf8_len(p, (size_t)(end - p));
        if (len == 0) {                         /* not UTF-8 */
            shown_byte(b, *p++, how);
        } else if (len > 1) {
            if (p[0] == 0xc2 && p[1] < 0xa0) {  /* a C1 control */
                shown_byte(b, p[0], how);
                shown_byte(b, p[1], how);
            } else {
                ry_buf_add(b, p, len);
            }
            p += len;
        } else if (*p == '\n' || *p == '\t' || *p == '\r') {
            line_char(b, *p++, how);
        } else if (*p < 0x20 || *p == 0x7f) {
            shown_byte(b, *p++, how);
        } else {
            ascii_char(b, (char)*p++, how);
        }
    }
    if (quote)
        ry_buf_putc(b, quote);
    if (!b->data)
        ry_buf_puts(b, "");     /* an empty field still gives a string */
}

void ry_escape_str(ry_buf *b, const char *s, ry_esc how)
{
    ry_escape(b, s, strlen(s), how);
}

const char *ry_escape_to(char *buf, size_t cap, const char *s, ry_esc how)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_escape_str(&b, s, how);
    size_t n = b.len < cap ? b.len : cap - 1;
    while (n > 0 && n < b.len && ((unsigned char)b.data[n] & 0xc0) == 0x80)
        n--;            /* not inside a UTF-8 character */
    memcpy(buf, b.data, n);
    buf[n] = '\0';
    ry_buf_free(&b);
    return buf;
}

void ry_escape_vprintf(ry_buf *b, ry_esc how, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n > 0) {
        char *t = ry_xmalloc((size_t)n + 1);
        vsnprintf(t, (size_t)n + 1, fmt, ap);
        ry_escape(b, t, (size_t)n, how);
        free(t);
    }
}
