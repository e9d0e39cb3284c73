#include "util/lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

#define BLOCK (1u << 20)

void ry_lines_init(ry_lines *r, FILE *fp, size_t max_line, unsigned long long max_bytes)
{
    memset(r, 0, sizeof *r);
    r->fp = fp;
    r->max_line = max_line;
    r->max_bytes = max_bytes;
    r->cap = (max_line + 2 > BLOCK ? max_line + 2 : BLOCK) + 1;
    r->buf = ry_xmalloc(r->cap);
}

void ry_lines_free(ry_lines *r)
{
    free(r->buf);
    r->buf = NULL;
}

/* Reads more after the unread bytes, which move to the front. 0 at the end. */
static int fill(ry_lines *r)
{
    if (r->eof)
        return 0;
    size_t rem = r->end - r->start;
    memmove(r->buf, r->buf + r->start, rem);
    r->start = 0;
    r->end = rem;
    size_t want = r->cap - 1 - r->end;
    if (r->bytes + want > r->max_bytes + 1)
        want = (size_t)(r->max_bytes + 1 - r->bytes);
    size_t got = want ? fread(r->buf + r->end, 1, want, r->fp) : 0;
    r->end += got;
    r->bytes += got;
    if (r->bytes > r->max_bytes) {
        r->too_big = 1;
        r->eof = 1;
        return 0;
    }
    if (got == 0) {
        r->eof = 1;
        if (ferror(r->fp)) {
            r->err = 1;
            r->err_no = errno ? errno : EIO;
        }
        return 0;
    }
    return 1;
}

char *ry_lines_next(ry_lines *r, size_t *n, int *too_long)
{
    *too_long = 0;
    if (r->held) {
        r->buf[r->start] = r->saved;
        r->held = 0;
    }
    /* the rest of a line that was too long */
    while (r->skip) {
        char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        if (nl) {
            r->start = (size_t)(nl - r->buf) + 1;
            r->skip = 0;
            break;
        }
        r->start = r->end;
        if (!fill(r))
            return NULL;
    }
    for (;;) {
        char *line = r->buf + r->start;
        size_t rem = r->end - r->start;
        char *nl = memchr(line, '\n', rem);
        if (nl && (size_t)(nl - line) <= r->max_line) {
            *n = (size_t)(nl - line) + 1;
            r->start += *n;
            r->saved = r->buf[r->start];
            r->held = 1;
            r->buf[r->start] = '\0';
            return line;
        }
        if (nl || rem > r->max_line) {
            /* too long: hand out its start, skip the rest */
            *n = r->max_line + 1;
            *too_long = 1;
            r->start += *n;
            r->saved = r->buf[r->start];
            r->held = 1;
            r->buf[r->start] = '\0';
            r->skip = 1;
            return line;
        }
        if (r->too_big || r->err)
            return NULL;
        if (r->eof) {
            if (rem == 0)
                return NULL;
            *n = rem;
            r->buf[r->end] = '\0';
            r->start = r->end;
            return line;
        }
        fill(r);
        if (r->too_big || r->err)
            return NULL;
    }
}

void ry_linepos_init(ry_linepos *c, const char *buf)
{
    c->buf = buf;
    c->off = c->bol = 0;
    c->line = 1;
}

int ry_linepos_at(ry_linepos *c, size_t off, int *col)
{
    if (off < c->off)
        ry_linepos_init(c, c->buf);
    const char *p = c->buf + c->off, *e = c->buf + off;
    while (p < e && (p = memchr(p, '\n', (size_t)(e - p)))) {
        c->line++;
        c->bol = (size_t)(++p - c->buf);
    }
    c->off = off;
    if (col)
        *col = (int)(off - c->bol) + 1;
    return c->line;
}
