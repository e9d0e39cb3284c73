/* The hostlist expander, and compression of what it expands back to the
 * same names. */
#include "fuzz.h"

#include <stdlib.h>

#include "util/hostlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *expr = fuzz_string(data, size);
    char **names = NULL, why[256];
    size_t n = 0;
    if (ry_hostlist_expand(expr, 100000, &names, &n, why, sizeof why) == 0) {
        char *back = ry_hostlist_compress((const char *const *)names, n);
        char **again = NULL;
        size_t m = 0;
        /* names with brackets or separators are not hostlist-safe: only
         * plain names must come back */
        int plain = 1;
        for (size_t i = 0; i < n && plain; i++)
            plain = strcspn(names[i], "[],- \t\n") == strlen(names[i]) && names[i][0];
        if (plain && ry_hostlist_expand(back, 100000, &again, &m, why, sizeof why) == 0) {
            if (m != n)
                abort();
            for (size_t i = 0; i < n; i++)
                if (strcmp(names[i], again[i]) != 0)
                    abort();
            ry_hostlist_free(again, m);
        } else if (plain) {
            abort();
        }
        free(back);
        ry_hostlist_free(names, n);
    }
    free(expr);
    fuzz_done();
    return 0;
}
