/* The files of NVIDIA's UFM Cable Validation Tool (documented in "NVIDIA UFM
 * Cable Validation Tool", Topology Files: P2P File, and Optional Files):
 * the P2P workbook of the cables, its HCA mapping and its floor layout. */
#ifndef RY_EMIT_P2P_H
#define RY_EMIT_P2P_H

#include "emit/cabling/cab_rows.h"
#include "io/outdir.h"

/* Writes <prefix>/p2p.xlsx (sheet "P2P", continued on "P2P 2", ... past
 * Excel's rows), p2p.csv (the same cells as text), hca_mapping.csv and
 * floor.csv into o. -1 (error printed) when a file cannot be written. */
int ry_emit_p2p(ry_outdir *o, const char *prefix, const ry_cab_names *nm);

#endif
