/* LLDP tables: the input is one switch's table (lldpcli's JSON or SONiC's
 * show lldp table) taken as leaf0's, turned into the as-built graph of a
 * small Ethernet plan and verified, reported as text, JSON and a work
 * order. */
#include "fuzz.h"

#include <stdlib.h>

#include "analysis/verify.h"
#include "analysis/verify_lldp.h"
#include "emit/report/emit_verify.h"
#include "fabric/ethplan.h"
#include "fabric/layout.h"
#include "netfmt/lldp.h"

static fuzz_spec fixture;
static ry_fabric *fab;
static ry_ethplan plan;
static ry_layout lay;

static void setup(void)
{
    ry_err err;
    if (fab)
        return;
    fab = fuzz_fixture(&fixture, "tests/data/eth/ro-2tier.yaml");
    if (ry_ethplan_build(fab, &plan, &err) < 0 || ry_layout_build(fab, &lay, &err) < 0) {
        fprintf(stderr, "fuzz_lldp: the plan does not load\n");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    ry_lldp t;
    if (ry_lldp_read(path, &t) == 0) {
        free(t.local);
        t.local = ry_xstrdup("leaf0");
        ry_netfile nf;
        ry_err err;
        ry_pos at;
        if (ry_lldp_graph(&plan, &t, 1, &nf, &err, &at) == 0) {
            ry_verify v;
            if (ry_verify_run(fab, &nf, 1, RY_VERIFY_NO_RATES, &v, &err) == 0) {
                v.eth = &plan;
                ry_buf b;
                ry_buf_init(&b);
                ry_emit_verify(&b, &v, NULL, &lay, RY_FMT_TEXT);
                ry_emit_verify(&b, &v, NULL, &lay, RY_FMT_JSON);
                ry_emit_work_order(&b, &v, &lay);
                ry_buf_free(&b);
            }
            ry_verify_free(&v);
        }
        ry_netfile_free(&nf);
    }
    ry_lldp_free(&t);
    close(fd);
    fuzz_done();
    return 0;
}
