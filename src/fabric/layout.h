/* Physical layout: racks in rows, every server and switch in a rack and unit.
 *
 * Racks stand in rows of layout.racks_per_row; rack i of the placement order
 * is at row i / racks_per_row, position i % racks_per_row (names R01-03:
 * row 1, rack 3). Compute racks hold layout.nodes_per_rack servers from
 * layout.first_unit up; network racks hold leaves (per scalable unit, at the
 * end or in the middle of each row, as layout.network says) and, in rows of
 * their own after the compute rows, the upper tiers. */
#ifndef RY_LAYOUT_H
#define RY_LAYOUT_H

#include <stdint.h>

#include "fabric/fabric.h"

typedef enum { RY_RACK_COMPUTE = 0, RY_RACK_NETWORK = 1 } ry_rack_kind;

typedef struct ry_rack {
    int row, col;           /* 0-based */
    uint8_t kind;           /* ry_rack_kind */
    int used_units;
} ry_rack;

typedef struct ry_layout {
    const ry_fabric *f;
    ry_rack *racks;
    int nracks, nrows;
    int32_t *node_rack;     /* per server (GPU index / gpus_per_node) */
    int16_t *node_unit;     /* lowest unit of the server */
    int32_t *sw_rack;       /* per switch (node id - first_switch) */
    int16_t *sw_unit;
    int node_units, switch_units;
    int gpus_per_node;
} ry_layout;

/* Places everything; -1 with err set when the layout cannot hold the
 * cluster (too few rows, a rack too short for one server, ...). */
int ry_layout_build(const ry_fabric *f, ry_layout *lay, ry_err *err);
void ry_layout_free(ry_layout *lay);

/* Rack and lowest unit of a graph node (a GPU: its server). */
void ry_layout_where(const ry_layout *lay, uint32_t node, int *rack, int *unit, int *units);

/* "R01-03": row and position, 1-based. */
int ry_rack_name(const ry_layout *lay, int rack, char *buf, size_t n);

/* Routed cable length in metres between two graph nodes' ports, before
 * slack: within a rack straight between the units, else up to the tray,
 * along the trays (Manhattan) and down. */
double ry_layout_route_m(const ry_layout *lay, uint32_t a, uint32_t b);

#endif
