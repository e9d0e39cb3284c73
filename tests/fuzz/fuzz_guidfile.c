/* The GUID lists: the input read as an inventory CSV and as a guid2lid
 * file, each applied to a small plan (the inventory's GUIDs, then the kept
 * LIDs). */
#include "fuzz.h"

#include <stdlib.h>

#include "analysis/hw_guids.h"
#include "fabric/ibplan.h"
#include "ibfmt/guidfile.h"

static fuzz_spec fixture;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ry_err err;
    ry_fabric *fab = fuzz_fixture(&fixture, "tests/data/ib/two-plane.yaml");
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    ry_ibplan pl;
    if (ry_ibplan_build(fab, &pl, &err) < 0)
        abort();
    ry_inventory inv;
    if (ry_inventory_load(path, &inv) == RY_EXIT_OK)
        ry_hw_guids_from_inventory(&inv, &pl, &err);
    ry_inventory_free(&inv);
    ry_guid2lid g;
    if (ry_guid2lid_load(path, &g) == RY_EXIT_OK)
        ry_ibplan_keep_lids(&pl, g.guid, g.lid, g.n, (unsigned)(size & 1), &err);
    ry_guid2lid_free(&g);
    ry_ibplan_free(&pl);
    close(fd);
    fuzz_done();
    return 0;
}
