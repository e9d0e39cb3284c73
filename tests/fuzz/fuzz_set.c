/* --set: each line of the input is one KEY=VALUE override of the bundled
 * SuperPOD example (at most 16). */
#include "fuzz.h"

#include <stdlib.h>

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
    fuzz_spec fs;
    fuzz_spec_path(&fs, RY_FUZZ_SRCDIR "/examples/superpod-4su.yaml", sets, n, NULL);
    fuzz_spec_free(&fs);
    free(text);
    fuzz_done();
    return 0;
}
