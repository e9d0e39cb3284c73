/* A progress line on standard error for runs that take a while: once a run
 * has gone on for RAILYARD_PROGRESS_DELAY seconds (default 2), the step it is
 * in, "railyard build: planning GUIDs, LIDs and routes (5 s)", is written
 * and rewritten in place (\r) four times a second by a thread of its own,
 * and erased at the end. Only when standard error is a terminal and --quiet
 * was not given; otherwise every function here does nothing. The steps are
 * named by the dispatcher (src/cmd), the only layer that knows them: the
 * layers below neither print nor know of this. Diagnostics erase the line
 * first (util/diag.c), and it stays away until the next step. */
#ifndef RY_PROGRESS_H
#define RY_PROGRESS_H

/* Starts the line for command cmd (not copied: a string that lives for
 * the run); nothing when quiet or standard error is no terminal. */
void ry_progress_begin(const char *cmd, int quiet);

/* The step the run is in now, printf-style. */
void ry_progress_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Erases the line until the next step (before a message on standard
 * error). */
void ry_progress_hide(void);

/* Erases the line and stops (before the run's own output, and at exit);
 * may be called more than once. */
void ry_progress_end(void);

#endif
