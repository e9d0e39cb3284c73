#include "util/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit code 4 (RY_EXIT_INTERNAL in util/diag.h, which may not be included
 * here: diag.c allocates). */
#define EXIT_OOM 4

static void *oom(size_t n)
{
    fprintf(stderr, "railyard: out of memory (asked for %zu bytes)\n", n);
    exit(EXIT_OOM);
}

void *ry_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    return p ? p : oom(n);
}

void *ry_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    return p ? p : oom(n * size);
}

void *ry_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    return q ? q : oom(n);
}

void *ry_xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return oom(SIZE_MAX);
    return ry_xrealloc(p, n * size);
}

char *ry_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(ry_xmalloc(n), s, n);
}

size_t ry_alloc_nr(size_t alloc, size_t nr)
{
    size_t grown = alloc > (SIZE_MAX - 16) / 3 * 2 ? SIZE_MAX : (alloc + 16) / 2 * 3;
    return grown < nr ? nr : grown;
}
