/* The benchmarks' clock: seconds on the monotonic clock. */
#ifndef RY_BENCH_CLOCK_H
#define RY_BENCH_CLOCK_H

#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
