/* Name patterns: text with placeholders {n} (0-based index), {n1} (1-based),
 * {unit} and {unit1} (scalable unit), each optionally with a zero-padded
 * width as in {n1:03}. */
#ifndef RY_PATTERN_H
#define RY_PATTERN_H

#include <stddef.h>

/* Formats pat for index n in unit u. Returns the length, or -1 with a reason
 * in why when the pattern is malformed or gives a name that is empty, too
 * long for buf, or has a character outside [A-Za-z0-9._-]. */
int ry_name_pattern(const char *pat, long long n, long long unit, char *buf, size_t cap,
                    char *why, size_t whycap);

#endif
