/* The cabling family's shared rows: the names of servers, switches, racks,
 * ports, cables and parts, and one cable as a row with its two ends, from
 * which cabling.csv, the workbook (emit_xlsx.c), the cable validation tool's
 * files (emit_p2p.c) and NetBox's import set (emit_netbox.c) are written.
 * It calls none of them: emit_cabling.c calls them, they call this. */
#ifndef RY_EMIT_CAB_ROWS_H
#define RY_EMIT_CAB_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/cabling.h"

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

/* A room's name: "H01" (data hall 1), "N1" (network room 1). */
void ry_cab_room_name(const ry_room *rm, char *buf, size_t n);

#endif
