/* -T catalog overlays: the first byte picks a catalog file; the rest, cut
 * at its first NUL byte, is that file in two layers: the part before the
 * NUL in $RAILYARD_TEMPLATES and the part after it in the -T directory
 * (with no NUL, the whole input is the -T layer over the source tree's
 * file). Beneath both lies the source tree's catalog, so entries are laid
 * over entries three deep; every catalog reader then loads the -T
 * directory, and a spec that uses the catalog is loaded with it. */
#include "fuzz.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "model/libra.h"
#include "spec/catalog.h"

static const char *const files[] = { "switches.yaml", "nodes.yaml", "media.yaml",
                                     "llms.yaml", "gpus.yaml", "libra-costs.yaml" };
#define NFILES (sizeof files / sizeof files[0])

static char top[64], lower[96], upper[96];

static void path_in(char *buf, size_t cap, const char *dir, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

static void remove_dirs(void)
{
    char p[160];
    for (size_t i = 0; i < NFILES; i++) {
        path_in(p, sizeof p, lower, files[i]);
        unlink(p);
        path_in(p, sizeof p, upper, files[i]);
        unlink(p);
    }
    rmdir(lower);
    rmdir(upper);
    rmdir(top);
}

/* lower: links to the source tree's files; upper: empty. */
static void make_dirs(void)
{
    snprintf(top, sizeof top, "/tmp/railyard-fuzz-XXXXXX");
    if (!mkdtemp(top))
        abort();
    snprintf(lower, sizeof lower, "%s/lower", top);
    snprintf(upper, sizeof upper, "%s/upper", top);
    if (mkdir(lower, 0700) < 0 || mkdir(upper, 0700) < 0)
        abort();
    for (size_t i = 0; i < NFILES; i++) {
        char from[4096], to[160];
        snprintf(from, sizeof from, "%s/templates/%s", RY_FUZZ_SRCDIR, files[i]);
        path_in(to, sizeof to, lower, files[i]);
        if (symlink(from, to) < 0)
            abort();
    }
    setenv("RAILYARD_TEMPLATES", lower, 1);
    atexit(remove_dirs);
}

static void put(const char *dir, const char *name, const uint8_t *data, size_t size)
{
    char path[160], tmp[170];
    path_in(path, sizeof path, dir, name);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    FILE *fp = fopen(tmp, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0 || rename(tmp, path) < 0)
        abort();
}

static void restore(const char *name)
{
    char from[4096], to[160];
    snprintf(from, sizeof from, "%s/templates/%s", RY_FUZZ_SRCDIR, name);
    path_in(to, sizeof to, lower, name);
    unlink(to);
    if (symlink(from, to) < 0)
        abort();
    path_in(to, sizeof to, upper, name);
    unlink(to);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!top[0])
        make_dirs();
    const char *name = files[data[0] % NFILES];
    const uint8_t *rest = data + 1, *nul = memchr(rest, 0, size - 1);
    if (nul) {
        put(lower, name, rest, (size_t)(nul - rest));
        put(upper, name, nul + 1, size - 1 - (size_t)(nul - rest) - 1);
    } else {
        put(upper, name, rest, size - 1);
    }
    ry_catalog_free(ry_catalog_load(upper));
    ry_media_catalog_free(ry_media_catalog_load(upper));
    ry_llm_catalog_free(ry_llm_catalog_load(upper));
    ry_libra_costs_free(ry_libra_costs_load(upper));
    fuzz_spec fs;
    ry_spec *s = fuzz_spec_path(&fs, RY_FUZZ_SRCDIR "/examples/libra-llm.yaml", NULL, 0, upper);
    if (s) {
        ry_libra_problem p;
        ry_libra_problem_init(&p);
        ry_libra_problem_build(s, &p);
        ry_libra_problem_free(&p);
    }
    fuzz_spec_free(&fs);
    restore(name);
    fuzz_done();
    return 0;
}
