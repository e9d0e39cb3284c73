/* --set: each line of the input is one KEY=VALUE override of the bundled
 * SuperPOD example (at most 16). */
#include "fuzz.h"

#include <stdlib.h>

#include "spec/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    ry_override sets[16] = { { 0 } };
    int n = 0;
    for (char *line = text, *next; line && n < 16; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *eq = strchr(line, '=');
        sets[n].key = line;
        sets[n].value = NULL;
        if (eq) {
            *eq = '\0';
            sets[n].value = eq + 1;
        }
        sets[n].argno = n + 1;
        sets[n].where = NULL;
        n++;
    }
    ry_spec *s = ry_spec_load(RY_FUZZ_SRCDIR "/examples/superpod-4su.yaml", sets, n,
                              ry_templates_dir(RY_FUZZ_SRCDIR "/templates"));
    ry_spec_free(s);
    free(text);
    fuzz_done();
    return 0;
}
