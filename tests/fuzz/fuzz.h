/* Shared by the fuzz targets: an input as a file railyard can open by
 * name, the catalog and examples of the source tree, a spec loaded and its
 * fabric built as validate does it (fuzz_spec: the input, an example or a
 * fixture), and a quiet reset of the error count between runs.
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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fabric/fabric.h"
#include "spec/spec.h"
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

/* The source tree's catalog (or $RAILYARD_TEMPLATES). */
static inline const char *fuzz_templates(void)
{
    return ry_templates_dir(RY_FUZZ_SRCDIR "/templates");
}

/* A spec and its fabric: fuzz_spec_input or fuzz_spec_path loads it,
 * fuzz_spec_build builds it, fuzz_spec_free frees what was made. */
typedef struct fuzz_spec {
    char path[4096];    /* the spec's file name */
    int fd;             /* the input's in-memory file, or -1 */
    ry_spec *spec;      /* NULL when it did not load */
    ry_fabric fabric;   /* when built */
    int built;
} fuzz_spec;

/* Loads the spec at path with nsets overrides, on the catalog templates
 * (NULL: the source tree's). Returns fs->spec. */
static inline ry_spec *fuzz_spec_path(fuzz_spec *fs, const char *path, const ry_override *sets,
                                      int nsets, const char *templates)
{
    memset(fs, 0, sizeof *fs);
    fs->fd = -1;
    snprintf(fs->path, sizeof fs->path, "%s", path);
    fs->spec = ry_spec_load(path, sets, nsets, templates ? templates : fuzz_templates());
    return fs->spec;
}

/* Loads the input as a spec file (fs->path names it). Returns fs->spec. */
static inline ry_spec *fuzz_spec_input(fuzz_spec *fs, const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0) {
        memset(fs, 0, sizeof *fs);
        fs->fd = -1;
        return NULL;
    }
    fuzz_spec_path(fs, path, NULL, 0, NULL);
    fs->fd = fd;
    return fs->spec;
}

/* Builds the fabric of a spec that loaded, when it has at most max_gpus
 * GPUs (a valid spec can be huge: keep to what a run can afford). Returns
 * it, or NULL. */
static inline ry_fabric *fuzz_spec_build(fuzz_spec *fs, long long max_gpus)
{
    ry_err err;
    if (!fs->built && fs->spec && fs->spec->gpus <= max_gpus &&
        ry_fabric_build(fs->spec, &fs->fabric, &err) == 0)
        fs->built = 1;
    return fs->built ? &fs->fabric : NULL;
}

static inline void fuzz_spec_free(fuzz_spec *fs)
{
    if (fs->built)
        ry_fabric_free(&fs->fabric);
    ry_spec_free(fs->spec);
    if (fs->fd >= 0)
        close(fs->fd);
    memset(fs, 0, sizeof *fs);
    fs->fd = -1;
}

/* A fixture of the source tree (rel, like tests/data/ib/two-plane.yaml),
 * loaded and built once for the process: it must be, or the run aborts. */
static inline ry_fabric *fuzz_fixture(fuzz_spec *fs, const char *rel)
{
    if (fs->built)
        return &fs->fabric;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", RY_FUZZ_SRCDIR, rel);
    if (!fuzz_spec_path(fs, path, NULL, 0, NULL) || !fuzz_spec_build(fs, (long long)1 << 40)) {
        fprintf(stderr, "fuzz: the fixture %s does not load and build\n", rel);
        abort();
    }
    return &fs->fabric;
}

static inline void fuzz_done(void)
{
    ry_error_reset();
}

#endif
