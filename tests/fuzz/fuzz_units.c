/* Numbers with units (railyard-spec(5), UNITS): the first byte picks a
 * spec key that reads a number (a count, metres, kW, percent, ...), the
 * rest is the scalar as written ("50cm", "4Ki", "1.5e3 W"). A value read
 * must lie in the key's range. */
#include "fuzz.h"

#include <math.h>
#include <stdlib.h>

#include "spec/schema.h"
#include "spec/yaml.h"

static const ry_key *rows[1024];
static size_t nrows;

static void setup(void)
{
    if (nrows)
        return;
    for (size_t i = 0; i < ry_spec_nkeys && nrows < sizeof rows / sizeof rows[0]; i++) {
        const ry_key *k = &ry_spec_keys[i];
        if ((k->type == RY_KEY_INT || k->type == RY_KEY_AUTO_INT ||
             k->type == RY_KEY_NUMBER) && !k->read)
            rows[nrows++] = k;
    }
    if (!nrows)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size < 1)
        return 0;
    const ry_key *k = rows[(data[0] & 0x7f) % nrows];
    char *text = fuzz_string(data + 1, size - 1);
    ry_ynode n;
    memset(&n, 0, sizeof n);
    n.kind = RY_YSCALAR;
    n.pos.file = "fuzz.yaml";
    n.pos.line = n.pos.col = 1;
    n.value = text;
    n.quoted = data[0] >> 7;     /* "50cm" as a quoted string */
    ry_keyval v;
    if (ry_key_get(k, &n, NULL, &v) == 0) {
        if (k->type == RY_KEY_NUMBER && (!isfinite(v.d) || v.d < k->dmin || v.d > k->dmax)) {
            fprintf(stderr, "fuzz_units: %s read '%s' as %g, outside %g..%g\n", k->key, text,
                    v.d, k->dmin, k->dmax);
            abort();
        }
        if (k->type == RY_KEY_INT && (v.i < k->min || v.i > k->max)) {
            fprintf(stderr, "fuzz_units: %s read '%s' as %lld, outside %lld..%lld\n", k->key,
                    text, v.i, k->min, k->max);
            abort();
        }
    }
    double d;
    if (ry_key_get_item(k->key, &n, "item", 0, 1e12, &d) == 0 && !(d >= 0 && d <= 1e12)) {
        fprintf(stderr, "fuzz_units: item of %s read '%s' as %g\n", k->key, text, d);
        abort();
    }
    free(text);
    fuzz_done();
    return 0;
}
