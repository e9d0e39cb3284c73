/* Lines of a text file read in large blocks, with a bound on the length of a
 * line and on the bytes read, so a file without newlines (/dev/zero) or an
 * endless one costs bounded memory and time. Each line is handed out in
 * place, NUL-terminated, with its newline. */
#ifndef RY_LINES_H
#define RY_LINES_H

#include <stddef.h>
#include <stdio.h>

typedef struct ry_lines {
    FILE *fp;                   /* borrowed */
    size_t max_line;            /* longest line handed out whole, newline not counted */
    unsigned long long max_bytes;
    unsigned long long bytes;   /* read so far */
    int err;                    /* a read error (errno in err_no) */
    int err_no;
    int too_big;                /* stopped at max_bytes */
    /* private */
    char *buf;
    size_t cap, start, end;
    int eof, held, skip;
    char saved;
} ry_lines;

void ry_lines_init(ry_lines *r, FILE *fp, size_t max_line, unsigned long long max_bytes);
void ry_lines_free(ry_lines *r);

/* The next line, *n bytes with its newline (none on a last line without
 * one), or NULL at the end, on a read error or past max_bytes (see err and
 * too_big). A line longer than max_line comes as its first max_line + 1
 * bytes with *too_long set; the rest of it is skipped. */
char *ry_lines_next(ry_lines *r, size_t *n, int *too_long);

/* Line and column of places in a text held in memory, counted forward
 * from the last place asked: asking at places in order costs one pass over
 * the text, not one from its start each time. */
typedef struct ry_linepos {
    const char *buf;            /* borrowed */
    size_t off, bol;            /* the last place asked, the start of its line */
    int line;
} ry_linepos;

void ry_linepos_init(ry_linepos *c, const char *buf);
/* The 1-based line of buf[off]; its 1-based column (in bytes) in *col
 * when col is not NULL. */
int ry_linepos_at(ry_linepos *c, size_t off, int *col);

#endif
