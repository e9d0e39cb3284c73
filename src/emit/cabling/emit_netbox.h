/* NetBox's import set of the cabling plan (emit_netbox.c lists its files). */
#ifndef RY_EMIT_NETBOX_H
#define RY_EMIT_NETBOX_H

#include "emit/cabling/cab_rows.h"
#include "io/outdir.h"

/* NetBox's import set, numbered in import order, into <prefix> (the cables
 * file, 08-cables.csv, is written with the other cable lists). -1 (error
 * printed) when a file cannot be written. */
int ry_emit_netbox(ry_outdir *o, const char *prefix, const ry_cab_names *nm);

#endif
