/* whatif --fail and --random: the input is an option value, split at commas
 * as the command splits it; each element is parsed on a two-plane
 * rail-optimized fabric, and a parsed element's canonical name must parse
 * back to the same element. The whole input is also a --random spec. */
#include "fuzz.h"

#include <stdlib.h>

#include "analysis/failure.h"
#include "fabric/names.h"

#define MAX_ELEMS 64

static fuzz_spec fixture;
static ry_fabric *fab;
static ry_name_index *ix;

static void setup(void)
{
    if (fab)
        return;
    fab = fuzz_fixture(&fixture, "tests/data/ib/two-plane.yaml");
    if (!(ix = ry_name_index_new(fab))) {
        fprintf(stderr, "fuzz_fail: no name index\n");
        abort();
    }
}

static void one(const char *name)
{
    ry_fail_elem e, back;
    ry_err err;
    if (ry_fail_elem_parse(fab, ix, name, &e, &err) < 0)
        return;
    ry_fail_elem_name(fab, &e);
    if (ry_fail_elem_parse(fab, ix, e.name, &back, &err) < 0 || back.kind != e.kind ||
        back.id != e.id) {
        fprintf(stderr, "fuzz_fail: '%s' names %s, which does not name it back\n", name, e.name);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    char *s = fuzz_string(data, size);
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, ",");
        char name[256];
        if (len > 0 && len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            one(name);
        }
        p += len + (p[len] == ',');
    }
    ry_fail_elem *e = ry_xcalloc(MAX_ELEMS, sizeof *e);
    int n = 0;
    ry_err err;
    uint64_t seed = size ? data[0] : 1;
    if (ry_fail_random(fab, s, seed, e, MAX_ELEMS, &n, &err) == 0) {
        if (n < 0 || n > MAX_ELEMS)
            abort();
        ry_failure *fs = ry_failure_new(fab);
        ry_failure_apply(fab, e, n, fs);
        ry_failure_free(fs);
    }
    free(e);
    free(s);
    fuzz_done();
    return 0;
}
