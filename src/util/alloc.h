/* Allocation that never returns NULL, and the one idiom for growing an
 * array. Out of memory, or a size that does not fit in size_t, ends the run
 * with exit code 4 (RY_EXIT_INTERNAL): nothing below the command can do
 * better, and no caller has to test for NULL.
 *
 * The bottom of util/: it calls nothing of railyard's, so every other file
 * (util/buf.c and util/diag.c among them) may call it. */
#ifndef RY_ALLOC_H
#define RY_ALLOC_H

#include <stddef.h>

void *ry_xmalloc(size_t n);
void *ry_xcalloc(size_t n, size_t size);
void *ry_xrealloc(void *p, size_t n);
/* p resized to n elements of size bytes each. */
void *ry_xreallocarray(void *p, size_t n, size_t size);
char *ry_xstrdup(const char *s);

/* The size to grow an array of alloc elements to when it must hold nr:
 * half again plus 16, or nr when that is more. Growing by a factor keeps
 * n appends at O(n) copying. */
size_t ry_alloc_nr(size_t alloc, size_t nr);

/* Makes array x, with room for alloc elements, hold at least nr; alloc is
 * an lvalue of any integer type, updated when x grows. The usual call,
 * before an append:
 *     RY_ALLOC_GROW(v, n + 1, cap);
 *     v[n++] = item;
 * Only x's first alloc elements are kept; new room is not cleared. */
#define RY_ALLOC_GROW(x, nr, alloc)                                        \
    do {                                                                   \
        if ((size_t)(nr) > (size_t)(alloc)) {                              \
            size_t ry_grow_ = ry_alloc_nr((size_t)(alloc), (size_t)(nr));  \
            (x) = ry_xreallocarray((x), ry_grow_, sizeof *(x));            \
            (alloc) = ry_grow_;                                            \
        }                                                                  \
    } while (0)

/* RY_ALLOC_GROW for two parallel arrays x and y (element i of one goes
 * with element i of the other) that share one capacity alloc: both grow
 * together, to the same size.
 *     RY_ALLOC_GROW2(guid, lid, n + 1, cap);
 *     guid[n] = g;
 *     lid[n++] = l; */
#define RY_ALLOC_GROW2(x, y, nr, alloc)                                    \
    do {                                                                   \
        if ((size_t)(nr) > (size_t)(alloc)) {                              \
            size_t ry_grow_ = ry_alloc_nr((size_t)(alloc), (size_t)(nr));  \
            (x) = ry_xreallocarray((x), ry_grow_, sizeof *(x));            \
            (y) = ry_xreallocarray((y), ry_grow_, sizeof *(y));            \
            (alloc) = ry_grow_;                                            \
        }                                                                  \
    } while (0)

#endif
