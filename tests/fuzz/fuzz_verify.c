/* verify: the input is a fabric as ibnetdiscover prints it, placed on a
 * small rail-optimized plan (two planes) and reported as text, JSON and a
 * work order; with --as-found's graph and routes when it loads. */
#include "fuzz.h"

#include <stdlib.h>

#include "analysis/hw_guids.h"
#include "analysis/verify.h"
#include "emit/report/emit_verify.h"
#include "fabric/fabric.h"
#include "fabric/ibplan.h"
#include "fabric/layout.h"

static fuzz_spec fixture;
static ry_fabric *fab;
static ry_ibplan plan;
static ry_layout lay;

static int setup(void)
{
    ry_err err;
    if (fab)
        return 0;
    fab = fuzz_fixture(&fixture, "tests/data/ib/two-plane.yaml");
    if (ry_ibplan_build(fab, &plan, &err) < 0 || ry_layout_build(fab, &lay, &err) < 0) {
        fprintf(stderr, "fuzz_verify: the plan does not load\n");
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    ry_netfile nf;
    if (ry_netfile_load_flags(path, &nf, RY_NF_LIDS_OPTIONAL) == RY_EXIT_OK) {
        ry_verify v;
        ry_err err;
        if (ry_verify_run(fab, &nf, 1, 0, &v, &err) == 0) {
            ry_buf b;
            ry_buf_init(&b);
            ry_emit_verify(&b, &v, &plan, &lay, RY_FMT_TEXT);
            ry_emit_verify(&b, &v, &plan, &lay, RY_FMT_JSON);
            ry_emit_work_order(&b, &v, &lay);
            ry_buf_free(&b);
            ry_fabric found;
            ry_ibplan fp;
            long long left;
            if (ry_fabric_as_found(&v, &found, &left, &err) == 0 &&
                ry_ibplan_build(&found, &fp, &err) == 0) {
                ry_hole *holes = NULL;
                ry_as_found_holes(&v, &fp, &holes);
                free(holes);
                ry_hw_guids_from_fabric(&v, &fp, 1, &err);
                ry_ibplan_free(&fp);
            }
            ry_fabric_free(&found);
        }
        ry_verify_free(&v);
    }
    ry_netfile_free(&nf);
    close(fd);
    fuzz_done();
    return 0;
}
