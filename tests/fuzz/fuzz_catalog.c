/* The catalog files: the first byte picks which one the rest replaces
 * (switches, nodes, media, LLMs, GPUs, LIBRA prices); the others are the
 * source tree's. A spec that uses all of them is then loaded, its cabling
 * planned and its LIBRA problem read. */
#include "fuzz.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "spec/catalog.h"
#include "model/libra.h"

static const char *const files[] = { "switches.yaml", "nodes.yaml", "media.yaml",
                                     "llms.yaml", "gpus.yaml", "libra-costs.yaml" };
#define NFILES (sizeof files / sizeof files[0])

static char dir[64];

static void remove_dir(void)
{
    for (size_t i = 0; i < NFILES; i++) {
        char to[128];
        snprintf(to, sizeof to, "%s/%s", dir, files[i]);
        unlink(to);
    }
    rmdir(dir);
}

/* A scratch catalog directory: links to the source tree's files. */
static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/railyard-fuzz-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    for (size_t i = 0; i < NFILES; i++) {
        char from[4096], to[128];
        snprintf(from, sizeof from, "%s/templates/%s", RY_FUZZ_SRCDIR, files[i]);
        snprintf(to, sizeof to, "%s/%s", dir, files[i]);
        if (symlink(from, to) < 0)
            abort();
    }
    atexit(remove_dir);
}

static void put(const char *name, const uint8_t *data, size_t size)
{
    char path[128], tmp[140];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    FILE *fp = fopen(tmp, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0 || rename(tmp, path) < 0)
        abort();
}

static void restore(const char *name)
{
    char from[4096], to[128];
    snprintf(from, sizeof from, "%s/templates/%s", RY_FUZZ_SRCDIR, name);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    unlink(to);
    if (symlink(from, to) < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!dir[0])
        make_dir();
    const char *name = files[data[0] % NFILES];
    put(name, data + 1, size - 1);
    fuzz_spec fs;
    ry_spec *s = fuzz_spec_path(&fs, RY_FUZZ_SRCDIR "/examples/libra-llm.yaml", NULL, 0, dir);
    if (s) {
        ry_libra_problem p;
        ry_libra_problem_init(&p);
        ry_libra_problem_build(s, &p);
        ry_libra_problem_free(&p);
    }
    ry_media_catalog_free(ry_media_catalog_load(dir));
    fuzz_spec_free(&fs);
    restore(name);
    fuzz_done();
    return 0;
}
