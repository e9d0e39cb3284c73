/* Diagnostics: every user-facing error names where (file:line:col) and what.
 * Errors are printed as they are found and counted, so validation can report
 * all of them before the command gives up. */
#ifndef RY_DIAG_H
#define RY_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include "util/alloc.h"         /* ry_xmalloc and friends, for the callers that had them here */
#include "util/stderr_lock.h"

/* Exit codes shared by every command. */
enum {
    RY_EXIT_OK = 0,
    RY_EXIT_INPUT = 1,    /* bad input: spec, catalog, arguments' values */
    RY_EXIT_USAGE = 2,    /* bad command line */
    RY_EXIT_IO = 3,       /* cannot read or write a file */
    RY_EXIT_INTERNAL = 4  /* a bug: an invariant did not hold */
};

/* A place in an input file. line and col are 1-based; 0 means unknown. */
typedef struct ry_pos {
    const char *file;
    int line;
    int col;
} ry_pos;

/* A deferred error from code that must not print (the builder, analyses):
 * key names the spec key the error is about ("fabric.tiers"), or is empty. */
typedef struct ry_err {
    char key[96];
    char msg[512];
} ry_err;

/* "key: message", or the message alone when there is no key; returns buf. */
const char *ry_err_text(const ry_err *e, char *buf, size_t cap);
void ry_err_set(ry_err *e, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "file:line:col: error: msg" on stderr; counts one error. */
void ry_error_at(ry_pos pos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ry_verror_at(ry_pos pos, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* "railyard: msg" on stderr; counts one error. */
void ry_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "railyard: warning: msg" on stderr; not counted. */
void ry_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "file:line:col: warning: msg" on stderr; not counted. */
void ry_warn_at(ry_pos pos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int ry_error_count(void);
void ry_error_reset(void);

/* Diagnostics go into b instead of stderr until ry_diag_capture(NULL)
 * (sweep collects each point's errors to report them once per reason);
 * they are counted as usual. Both the capture and the count are the
 * calling thread's own. */
struct ry_buf;
void ry_diag_capture(struct ry_buf *b);

/* Errors about a file that could not be read or written (a missing spec,
 * catalog or input file): printed and counted like the above, and they
 * make the run's status RY_EXIT_IO instead of RY_EXIT_INPUT. */
void ry_io_error_at(ry_pos pos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ry_io_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The exit status of a command that returned rc: RY_EXIT_INPUT becomes
 * RY_EXIT_IO when the input could not be read at all (ry_io_error). */
int ry_exit_status(int rc);

/* Aborts with exit code 4 after printing where the invariant failed. */
#define RY_ASSERT(c) \
    ((c) ? (void)0 : ry_internal_error(__FILE__, __LINE__, #c))
void ry_internal_error(const char *file, int line, const char *what)
    __attribute__((noreturn));

/* Input text as a message may quote it: at most RY_SHOWN_CHARS bytes (then
 * "..."), escaped as util/escape.h's TERM (control bytes and bytes outside
 * UTF-8 as \xNN), so a quoted file can neither flood the terminal nor drive
 * it. Returns buf. */
#define RY_SHOWN_CHARS 40
#define RY_SHOWN_MAX (4 * RY_SHOWN_CHARS + 8)
const char *ry_shown(char buf[RY_SHOWN_MAX], const char *s);

#endif
