/* Running another program (Graphviz's dot, gnuplot): fork and exec with no
 * shell, standard input fed from a buffer, standard output and standard
 * error captured into buffers. One poll loop serves the three pipes, so a
 * program that writes a lot before it has read all its input cannot
 * deadlock against us. SIGPIPE is ignored while the program runs: one that
 * stops reading early makes our write fail, not kill railyard.
 *
 * Nothing here prints: the outcome comes back in an ry_proc_result, and
 * ry_proc_describe turns it into the one wording every caller uses. */
#ifndef RY_PROC_H
#define RY_PROC_H

#include <stddef.h>

#include "util/buf.h"

typedef struct ry_proc {
    const char *const *argv; /* argv[0]: a path, or a name looked up on $PATH;
                                NULL-terminated; borrowed */
    const char *dir;         /* the program's working directory; NULL: ours */
    const void *in;          /* standard input; NULL: /dev/null */
    size_t in_len;
    ry_buf *out;             /* standard output is appended here; NULL: discarded */
    ry_buf *err;             /* standard error is appended here; NULL: passed
                                through to ours */
} ry_proc;

typedef enum ry_proc_status {
    RY_PROC_OK,        /* exited with status 0 */
    RY_PROC_EXIT,      /* exited with a non-zero status: code */
    RY_PROC_SIGNAL,    /* killed by a signal: code */
    RY_PROC_NOT_FOUND, /* no such program, or not executable: err is errno */
    RY_PROC_ERROR      /* could not run it (pipe, fork, working directory,
                          poll): err is errno */
} ry_proc_status;

typedef struct ry_proc_result {
    ry_proc_status status;
    int code;          /* exit status or signal number */
    int err;           /* errno behind NOT_FOUND and ERROR */
    const char *step;  /* the call that failed for ERROR: "pipe", "fork",
                          "chdir", "poll"; static storage */
    size_t in_sent;    /* bytes written into the program's standard input:
                          less than in_len when it stopped reading early */
} ry_proc_result;

/* Runs p to completion. Returns 0 when the program exited with status 0,
 * else -1; *r says what happened either way. Output captured before a
 * failure stays in p->out and p->err. */
int ry_proc_run(const ry_proc *p, ry_proc_result *r);

/* Appends why a run that did not succeed failed, naming the command line
 * (the program and its first three arguments) and, for an exit or signal,
 * what the program said on standard error when p->err captured it: one
 * line after ": ", several indented on lines of their own.
 *   "cannot run gnuplot: not found"
 *   "cannot run /opt/dot: Permission denied"
 *   "cannot run gnuplot: cannot enter '/tmp/x': No such file or directory"
 *   "dot -Tsvg failed (exit status 1): Error: <stdin>: syntax error in line 3"
 *   "dot -Tsvg was killed by signal 9"
 * Appends nothing for RY_PROC_OK. */
void ry_proc_describe(const ry_proc *p, const ry_proc_result *r, ry_buf *msg);

#endif
