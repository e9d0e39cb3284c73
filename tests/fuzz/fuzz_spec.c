/* The spec loader: the input is a spec, read with the source tree's catalog;
 * when it loads, the fabric is built as validate builds it. */
#include "fuzz.h"

#include "fabric/fabric.h"
#include "spec/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    ry_spec *s = ry_spec_load(path, NULL, 0, ry_templates_dir(RY_FUZZ_SRCDIR "/templates"));
    /* Building is bounded by the spec's sizes, which can be huge and valid:
     * keep to fabrics a run can afford. */
    if (s && s->gpus <= 65536) {
        ry_fabric f;
        ry_err err;
        if (ry_fabric_build(s, &f, &err) == 0)
            ry_fabric_free(&f);
    }
    ry_spec_free(s);
    close(fd);
    fuzz_done();
    return 0;
}
