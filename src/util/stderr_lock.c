#include "util/stderr_lock.h"

#include <threads.h>

static mtx_t stderr_mtx;
static once_flag stderr_once = ONCE_FLAG_INIT;

static void stderr_init(void) { mtx_init(&stderr_mtx, mtx_plain); }

void ry_stderr_lock(void)
{
    call_once(&stderr_once, stderr_init);
    mtx_lock(&stderr_mtx);
}

void ry_stderr_unlock(void) { mtx_unlock(&stderr_mtx); }
