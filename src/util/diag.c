#include "util/diag.h"
#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "util/buf.h"
#include "util/escape.h"

/* Per thread: a worker's errors (search runs points on threads) are its
 * own, counted and captured apart from the main thread's. */
static _Thread_local int error_count;

/* Where diagnostics go: stderr, or a buffer while a caller captures them. */
static _Thread_local ry_buf *capture;

void ry_diag_capture(ry_buf *b) { capture = b; }

static void d_putc(int c)
{
    if (capture) {
        ry_buf_putc(capture, (char)c);
        return;
    }
    ry_stderr_lock();
    fputc(c, stderr);
    ry_stderr_unlock();
}

static void d_puts(const char *s)
{
    if (capture) {
        ry_buf_puts(capture, s);
        return;
    }
    ry_stderr_lock();
    fputs(s, stderr);
    ry_stderr_unlock();
}

static void d_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void d_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (capture) {
        char t[1024];
        vsnprintf(t, sizeof t, fmt, ap);
        ry_buf_puts(capture, t);
    } else {
        ry_stderr_lock();
        vfprintf(stderr, fmt, ap);
        ry_stderr_unlock();
    }
    va_end(ap);
}

/* Prints a message escaped as util/escape.h's TEXT: an escape sequence
 * quoted from an input file cannot drive the terminal. */
static void put_message(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void put_message(const char *fmt, va_list ap)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_escape_vprintf(&b, RY_ESC_TEXT, fmt, ap);
    d_puts(b.data ? b.data : "");
    ry_buf_free(&b);
}

static int io_errors;

const char *ry_err_text(const ry_err *e, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s", e->key, e->key[0] ? ": " : "", e->msg);
    return buf;
}

void ry_err_set(ry_err *e, const char *key, const char *fmt, ...)
{
    va_list ap;
    snprintf(e->key, sizeof e->key, "%s", key ? key : "");
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

/* "FILE:LINE:COL: WHAT: ", "FILE: WHAT: " or "railyard: WHAT: ". */
static void put_where(ry_pos pos, const char *what)
{
    ry_progress_hide();
    fflush(stdout);
    char file[1024];    /* a file named on the command line is input too */
    if (pos.file)
        ry_escape_to(file, sizeof file, pos.file, RY_ESC_TERM);
    if (pos.file && pos.line > 0)
        d_printf("%s:%d:%d: %s: ", file, pos.line, pos.col > 0 ? pos.col : 1, what);
    else if (pos.file)
        d_printf("%s: %s: ", file, what);
    else
        d_printf("railyard: %s: ", what);
}

void ry_verror_at(ry_pos pos, const char *fmt, va_list ap)
{
    put_where(pos, "error");
    put_message(fmt, ap);
    d_putc('\n');
    error_count++;
}

void ry_error_at(ry_pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ry_verror_at(pos, fmt, ap);
    va_end(ap);
}

void ry_error(const char *fmt, ...)
{
    va_list ap;
    ry_progress_hide();
    fflush(stdout);
    d_puts("railyard: error: ");
    va_start(ap, fmt);
    put_message(fmt, ap);
    va_end(ap);
    d_putc('\n');
    error_count++;
}

void ry_warn(const char *fmt, ...)
{
    va_list ap;
    ry_progress_hide();
    fflush(stdout);
    d_puts("railyard: warning: ");
    va_start(ap, fmt);
    put_message(fmt, ap);
    va_end(ap);
    d_putc('\n');
}

void ry_warn_at(ry_pos pos, const char *fmt, ...)
{
    va_list ap;
    put_where(pos, "warning");
    va_start(ap, fmt);
    put_message(fmt, ap);
    va_end(ap);
    d_putc('\n');
}

int ry_error_count(void) { return error_count; }
void ry_error_reset(void) { error_count = io_errors = 0; }

void ry_io_error_at(ry_pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ry_verror_at(pos, fmt, ap);
    va_end(ap);
    io_errors++;
}

void ry_io_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ry_verror_at((ry_pos){ NULL, 0, 0 }, fmt, ap);
    va_end(ap);
    io_errors++;
}

int ry_exit_status(int rc)
{
    return rc == RY_EXIT_INPUT && io_errors ? RY_EXIT_IO : rc;
}

void ry_internal_error(const char *file, int line, const char *what)
{
    fflush(stdout);
    fprintf(stderr, "railyard: internal error at %s:%d: %s does not hold\n", file, line, what);
    exit(RY_EXIT_INTERNAL);
}

const char *ry_shown(char buf[RY_SHOWN_MAX], const char *s)
{
    size_t n = 0;
    while (n <= RY_SHOWN_CHARS && s[n])
        n++;
    size_t cut = n > RY_SHOWN_CHARS ? RY_SHOWN_CHARS : n;
    ry_buf b;
    ry_buf_init(&b);
    ry_escape(&b, s, cut, RY_ESC_TERM);     /* at most 4 bytes for each byte */
    snprintf(buf, RY_SHOWN_MAX, "%s%s", b.data, n > cut ? "..." : "");
    ry_buf_free(&b);
    return buf;
}
