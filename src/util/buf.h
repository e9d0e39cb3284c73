/* Growable byte buffer with printf-style appends. */
#ifndef RY_BUF_H
#define RY_BUF_H

#include <stddef.h>

typedef struct ry_buf {
    char *data;     /* always NUL-terminated when len > 0 or after init */
    size_t len, cap;
} ry_buf;

void ry_buf_init(ry_buf *b);
void ry_buf_free(ry_buf *b);
void ry_buf_reset(ry_buf *b);
void ry_buf_add(ry_buf *b, const void *p, size_t n);
void ry_buf_puts(ry_buf *b, const char *s);
void ry_buf_putc(ry_buf *b, char c);
void ry_buf_printf(ry_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Edit distance, for "did you mean" hints. */
int ry_edit_distance(const char *a, const char *b);

#endif
