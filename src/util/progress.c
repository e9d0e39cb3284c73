/* The progress line (see progress.h). One mutex guards the state and every
 * write of the line, so the painting thread and the run never interleave
 * their bytes of it. */
#include "util/progress.h"
#include "util/stderr_lock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

static struct {
    int on;             /* the thread runs (set and cleared by the run's thread) */
    int stop, shown, hidden;
    const char *cmd;
    char step[160];
    double delay;       /* seconds before the first paint */
    struct timespec t0;
    mtx_t mu;
    cnd_t wake;
    thrd_t th;
} P;

static double elapsed(void)
{
    struct timespec now;
    timespec_get(&now, TIME_UTC);
    return (double)(now.tv_sec - P.t0.tv_sec) + (now.tv_nsec - P.t0.tv_nsec) / 1e9;
}

/* Under P.mu. */
static void erase(void)
{
    if (P.shown) {
        ry_stderr_lock();
        fputs("\r\033[K", stderr);
        fflush(stderr);
        ry_stderr_unlock();
        P.shown = 0;
    }
}

/* Under P.mu. */
static void paint(void)
{
    double t = elapsed();
    if (P.hidden || !P.step[0] || t < P.delay)
        return;
    /* Under the lock every stderr writer holds: a thread that silences
     * descriptor 2 for a library (ooxml/xlsx_book.c) cannot swallow the line. */
    ry_stderr_lock();
    fprintf(stderr, "\r\033[K%s %s: %s (%.0f s)", "railyard", P.cmd, P.step, t);
    fflush(stderr);
    ry_stderr_unlock();
    P.shown = 1;
}

static int painter(void *arg)
{
    (void)arg;
    mtx_lock(&P.mu);
    while (!P.stop) {
        paint();
        struct timespec until;
        timespec_get(&until, TIME_UTC);
        until.tv_nsec += 250000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        cnd_timedwait(&P.wake, &P.mu, &until);
    }
    erase();
    mtx_unlock(&P.mu);
    return 0;
}

void ry_progress_begin(const char *cmd, int quiet)
{
    if (P.on || quiet || !isatty(STDERR_FILENO))
        return;
    const char *d = getenv("RAILYARD_PROGRESS_DELAY");
    char *end = NULL;
    P.delay = d && *d ? strtod(d, &end) : 2;
    if (d && *d && (*end || !(P.delay >= 0)))
        P.delay = 2;
    P.cmd = cmd;
    P.stop = P.shown = P.hidden = 0;
    P.step[0] = '\0';
    timespec_get(&P.t0, TIME_UTC);
    if (mtx_init(&P.mu, mtx_plain) != thrd_success)
        return;
    if (cnd_init(&P.wake) != thrd_success) {
        mtx_destroy(&P.mu);
        return;
    }
    if (thrd_create(&P.th, painter, NULL) != thrd_success) {
        cnd_destroy(&P.wake);
        mtx_destroy(&P.mu);
        return;     /* no thread: no line, the run goes on */
    }
    P.on = 1;
}

void ry_progress_step(const char *fmt, ...)
{
    if (!P.on)
        return;
    mtx_lock(&P.mu);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P.step, sizeof P.step, fmt, ap);
    va_end(ap);
    P.hidden = 0;
    paint();
    mtx_unlock(&P.mu);
}

void ry_progress_hide(void)
{
    if (!P.on)
        return;
    mtx_lock(&P.mu);
    erase();
    P.hidden = 1;
    mtx_unlock(&P.mu);
}

void ry_progress_end(void)
{
    if (!P.on)
        return;
    mtx_lock(&P.mu);
    P.stop = 1;
    cnd_signal(&P.wake);
    mtx_unlock(&P.mu);
    thrd_join(P.th, NULL);
    cnd_destroy(&P.wake);
    mtx_destroy(&P.mu);
    P.on = 0;
}
