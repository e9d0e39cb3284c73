/* The workbook's sheet limits at a small scale: writes the cabling workbook
 * of one spec with the rows a sheet holds and the racks that get a sheet
 * each given on the command line, so tests/cabling.sh can split a fabric of
 * a few thousand cables (Excel's real limit, 1,048,575 rows under the
 * header, would need a million cables) and read the sheets back with
 * openpyxl.
 *
 * usage: xlsx_test TEMPLATES SPEC OUT.xlsx MAX_ROWS MAX_RACK_SHEETS */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "emit/cabling/emit_xlsx.h"
#include "fabric/fabric.h"
#include "fabric/layout.h"
#include "spec/catalog.h"
#include "spec/spec.h"

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: xlsx_test TEMPLATES SPEC OUT.xlsx MAX_ROWS MAX_RACK_SHEETS\n");
        return 2;
    }
    ry_xlsx_limits lim = { (size_t)strtoull(argv[4], NULL, 10), atoi(argv[5]) };
    ry_spec *s = ry_spec_load(argv[2], NULL, 0, argv[1]);
    if (!s)
        return 1;
    ry_fabric f;
    ry_layout lay;
    ry_cabling c;
    ry_err err;
    int rc = 1;
    if (ry_fabric_build(s, &f, &err) < 0) {
        fprintf(stderr, "fabric: %s\n", err.msg);
        goto out_spec;
    }
    if (ry_layout_build(&f, &lay, &err) < 0) {
        fprintf(stderr, "layout: %s\n", err.msg);
        goto out_fabric;
    }
    ry_media_catalog *media = ry_media_catalog_load(argv[1]);
    if (!media)
        goto out_layout;
    if (ry_cabling_build(&f, &lay, media, &c, &err) < 0) {
        fprintf(stderr, "cabling: %s\n", err.msg);
        goto out_media;
    }
    ry_cab_names nm;
    ry_cab_names_init(&nm, &c);
    ry_bom b;
    ry_capex capex;
    ry_bom_compute(&f, &b);
    ry_capex_compute(s, &b, &c, &capex);
    rc = ry_emit_cabling_xlsx(&nm, &capex, argv[3], &lim) < 0;
    ry_cab_names_free(&nm);
    ry_cabling_free(&c);
out_media:
    ry_media_catalog_free(media);
out_layout:
    ry_layout_free(&lay);
out_fabric:
    ry_fabric_free(&f);
out_spec:
    ry_spec_free(s);
    return rc;
}
