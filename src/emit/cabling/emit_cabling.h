/* The cabling plan's files: one row per cable (= per link of the graph, in
 * link id order) for people, NetBox and NVIDIA's cable validation tool,
 * plus a workbook with the cables, the physical bill of
 * materials and the racks (emit_xlsx.c). */
#ifndef RY_EMIT_CABLING_H
#define RY_EMIT_CABLING_H

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "io/outdir.h"

/* Writes <prefix>/cabling.csv, racks.csv, rooms.csv, cabling.xlsx, the cable
 * validation tool's p2p.xlsx, p2p.csv, hca_mapping.csv and floor.csv
 * (emit_p2p.c) and NetBox's import set in <prefix>/netbox/ (emit_netbox.c;
 * its cables are 08-cables.csv) into o (ibdiagnet's topology is per subnet,
 * beside the OpenSM files: emit_ibdm.h). -1 (error printed) when a file
 * cannot be written. capex (may be NULL) completes the workbook's BOM sheet:
 * switches, racks and spares beside the cables and optics, its total the
 * capex. */
int ry_emit_cabling(ry_outdir *o, const char *prefix, const ry_cabling *c, const ry_capex *capex);

#endif
