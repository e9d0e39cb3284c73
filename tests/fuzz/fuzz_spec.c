/* The spec loader: the input is a spec, read with the source tree's catalog;
 * when it loads, the fabric is built as validate builds it. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_spec fs;
    /* Building is bounded by the spec's sizes, which can be huge and valid:
     * keep to fabrics a run can afford. */
    if (fuzz_spec_input(&fs, data, size))
        fuzz_spec_build(&fs, 65536);
    fuzz_spec_free(&fs);
    fuzz_done();
    return 0;
}
