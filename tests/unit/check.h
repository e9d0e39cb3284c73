/* The unit tests' checks: CHECK(cond, fmt, ...) counts a check and prints
 * where and what when it fails; main returns failures != 0. */
#ifndef RY_TEST_CHECK_H
#define RY_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                      \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

#endif
