/* cabling.xlsx, the cabling plan's workbook (emit_xlsx.c says what each
 * sheet holds). */
#ifndef RY_EMIT_XLSX_H
#define RY_EMIT_XLSX_H

#include <stddef.h>

#include "analysis/bom.h"
#include "emit/cabling/cab_rows.h"
#include "ooxml/xlsx_rows.h"

/* What one workbook sheet holds: at most Excel's RY_XLSX_MAX_ROWS
 * (ooxml/xlsx_rows.h); more racks than RY_XLSX_RACK_SHEETS get one list
 * instead of a sheet each (a tab bar of hundreds of racks is no longer a
 * way to find one, and each sheet holds a temporary file open while it is
 * written). */
#define RY_XLSX_RACK_SHEETS 256

typedef struct ry_xlsx_limits {
    size_t max_rows;            /* data rows a sheet holds (header excluded), >= 1 */
    int max_rack_sheets;        /* more racks: the Racks list */
} ry_xlsx_limits;

/* The workbook, written to path (a plain file, not staged): the Cables and
 * Racks lists split into sheets of lim->max_rows rows. -1 on error
 * (printed). */
int ry_emit_cabling_xlsx(const ry_cab_names *nm, const ry_capex *capex, const char *path,
                         const ry_xlsx_limits *lim);

#endif
