/* The cabling plan's files: one row per cable (= per link of the graph, in
 * link id order) for people, NetBox and NVIDIA's cable validation tool,
 * plus a workbook with the cables, the physical bill of
 * materials and the racks (emit_xlsx.c). */
#ifndef RY_EMIT_CABLING_H
#define RY_EMIT_CABLING_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "emit/outdir.h"

/* Writes <prefix>/cabling.csv, racks.csv, rooms.csv, cabling.xlsx, the cable
 * validation tool's p2p.xlsx, p2p.csv, hca_mapping.csv and floor.csv
 * (emit_p2p.c) and NetBox's import set in <prefix>/netbox/ (emit_netbox.c;
 * its cables are 08-cables.csv) into o (ibdiagnet's topology is per subnet,
 * beside the OpenSM files: emit_ibdm.h). -1 (error printed) when a file
 * cannot be written. capex (may be NULL) completes the workbook's BOM sheet:
 * switches, racks and spares beside the cables and optics, its total the
 * capex. */
int ry_emit_cabling(ry_outdir *o, const char *prefix, const ry_cabling *c, const ry_capex *capex);

/* ---- shared by emit_cabling.c, emit_xlsx.c and emit_netbox.c only ------------ */

/* Names of servers, switches, racks, ports, cables and parts, made once per
 * run: every cable is written four times (CSVs, Cables, two rack sheets). */
typedef struct ry_cab_names {
    const ry_cabling *c;
    const ry_fabric *f;
    const ry_layout *lay;
    int gpn;                    /* GPUs per server */
    long long nservers;
    char *pool;                 /* NUL-terminated names, back to back */
    size_t *server, *sw, *rack; /* offsets into pool */
    size_t *port;               /* per port id: "mlx5_3" or the faceplate label */
    size_t *label;              /* per link */
    size_t *part;               /* per medium * 32 + stock length index */
} ry_cab_names;

/* One end of a cable. */
typedef struct ry_cab_end {
    uint32_t node;              /* graph node: a GPU (its server) or a switch */
    uint32_t port;              /* port id */
    int is_server;
    int rack, row, unit;        /* rack index; row and unit 1-based (lowest unit) */
    const char *rack_name, *device, *type;
    const char *port_name;      /* "mlx5_3" at a server, ry_port_label at a switch (cabling.csv
                                 * writes a switch port's number beside it) */
    int number;                 /* server: N of its mlx5_N (ry_nic_number); switch: the IB
                                 * port number */
} ry_cab_end;

/* One cable: A = the lower-tier end, Z = the upper switch. */
typedef struct ry_cab_row {
    ry_cab_end a, z;
    const char *label, *part;
    const ry_medium *medium;
    double length_m, gbps;
    int rail;                   /* -1: several rails (empty in the files) */
    int plane, tier;            /* tier of the upper end */
} ry_cab_row;

void ry_cab_names_init(ry_cab_names *nm, const ry_cabling *c);
void ry_cab_names_free(ry_cab_names *nm);
void ry_cab_end_of(const ry_cab_names *nm, uint32_t port, ry_cab_end *e);
void ry_cab_row_of(const ry_cab_names *nm, uint32_t link, ry_cab_row *r);

/* What one workbook sheet holds. Excel's limit is 1,048,576 rows with the
 * header; more racks than RY_XLSX_RACK_SHEETS get one list instead of a
 * sheet each (a tab bar of hundreds of racks is no longer a way to find
 * one, and each sheet holds a temporary file open while it is written). */
#define RY_XLSX_MAX_ROWS 1048575
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

/* A room's name: "H01" (data hall 1), "N1" (network room 1). */
void ry_cab_room_name(const ry_room *rm, char *buf, size_t n);

/* NetBox's import set, numbered in import order, into <prefix> (the cables
 * file, 08-cables.csv, is written with the other cable lists). -1 (error
 * printed) when a file cannot be written. */
int ry_emit_netbox(ry_outdir *o, const char *prefix, const ry_cab_names *nm);

#endif
