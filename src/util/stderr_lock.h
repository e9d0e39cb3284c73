/* Standard error is one stream for every thread: whoever writes to it, or
 * points it elsewhere for a while (a library that prints its own failures,
 * run quiet), holds this lock, so that no diagnostic of another thread is
 * written while it points elsewhere. Not recursive. A file of its own so
 * that util/diag.c and util/progress.c share it without calling each other
 * in a circle. */
#ifndef RY_STDERR_LOCK_H
#define RY_STDERR_LOCK_H

void ry_stderr_lock(void);
void ry_stderr_unlock(void);

#endif
