/* Shared by the fuzz targets: an input as a file railyard can open by
 * name, the catalog and examples of the source tree, and a quiet reset of
 * the error count between runs.
 *
 * Each target defines LLVMFuzzerTestOneInput. Built with --enable-fuzzing
 * it links libFuzzer; in every other build it links replay.c, which feeds
 * it the files of its corpus (make check replays them all). */
#ifndef RY_FUZZ_H
#define RY_FUZZ_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/diag.h"

#ifndef RY_FUZZ_SRCDIR
#define RY_FUZZ_SRCDIR "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An in-memory file holding data; its name goes in path (/proc/self/fd/N).
 * Returns the descriptor to close, or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t cap)
{
    int fd = memfd_create("railyard-fuzz", 0);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}

/* Input as a NUL-terminated string (cut at the first NUL). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = ry_xmalloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static inline void fuzz_done(void)
{
    ry_error_reset();
}

#endif
