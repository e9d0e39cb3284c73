/* The LFT reader (OpenSM's file, dump_fts output, railyard's lfts.dump) on
 * the fat-tree fixture's topology, then every check of check-routes. */
#include "fuzz.h"

#include <stdlib.h>

#include "analysis/route_check.h"
#include "ibfmt/lftfile.h"
#include "ibfmt/netfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ry_netfile nf;
    static int loaded;
    if (!loaded) {
        if (ry_netfile_load(RY_FUZZ_SRCDIR "/tests/data/routes/fat-tree/topology.net", &nf))
            abort();
        loaded = 1;
    }
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    ry_lft lft;
    memset(&lft, 0, sizeof lft);
    if (ry_lft_load(path, &nf, &lft) == 0) {
        ry_rc_opts opts = { RY_RC_SHIFTS_ALL, 3, 0 };
        ry_rc_result res;
        ry_err err;
        if (ry_route_check(&nf, &lft, &opts, &res, &err) == 0)
            ry_route_check_free(&res);
    }
    ry_lft_free(&lft);
    close(fd);
    fuzz_done();
    return 0;
}
