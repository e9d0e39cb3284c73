/* The search: the input is a spec (with a search: section, or its own
 * point alone); its points are enumerated and the first 4 built, priced,
 * modeled and failed by the engine railyard search runs (study/search.h),
 * on one thread, within a memory budget of 16 MiB (a point that needs
 * more, some 30,000 GPU ports, is not built) and at most 2 draws per
 * failure scenario, so that one input stays well under a second. The
 * results are printed as the command prints them, into memory. */
#include "fuzz.h"

#include <stdlib.h>

#include "emit/report/emit_search.h"
#include "study/search.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_spec fs;
    ry_spec *s = fuzz_spec_input(&fs, data, size);
    if (s) {
        ry_search_in in;
        ry_search_in_init(&in, s, fs.path, fuzz_templates());
        in.threads = 1;
        in.memory = 16 << 20;
        in.max_points = 4;
        if (in.seeds > 2)
            in.seeds = 2;
        ry_search *S;
        ry_search_result res;
        if (ry_search_run(&in, &S, &res) == 0) {
            ry_buf out;
            ry_buf_init(&out);
            ry_emit_search_text(&out, &res);
            ry_emit_search_csv(&out, &res, 0);
            ry_emit_search_plot(&out, &res);
            for (long long p = 0; p < res.npoints; p++)
                if (res.pts[p].front)
                    ry_search_point_spec(S, p, &out);
            ry_buf_free(&out);
        }
        ry_search_free(S);
    }
    fuzz_spec_free(&fs);
    fuzz_done();
    return 0;
}
