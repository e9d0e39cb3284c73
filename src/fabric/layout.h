/* Physical layout: every server and switch in a rack and unit, racks in rows,
 * rows in rooms (data halls and network rooms), rooms in buildings.
 *
 * The floor follows the fabric's own hierarchy. A level-t block is a part of
 * the network joined below tier t: servers (those of one HB domain count as
 * one) with the switches of tiers 1..t that join them. Level 1 is a scalable
 * unit, level 2 a pod, and so on; the top level is the whole fabric.
 *   - Data halls hold whole blocks of the hall level L, the highest level
 *     whose every block fits in one hall (layout.hall_racks racks and
 *     layout.hall_power kW); a hall never mixes two level-(L+1) blocks. So
 *     scalable units and pods are never split across halls. When one level-1
 *     block is larger than a hall (rail-only leaves joining many HB
 *     domains), halls hold whole HB domains; a leaf stands with the server
 *     it serves first, or in a network room when its servers span more
 *     than two halls.
 *   - Buildings hold whole blocks of the building level B >= L, the highest
 *     level whose every block needs at most layout.halls_per_building halls.
 *   - Switches of tiers 2..L stand in network racks in the middle rows of
 *     their hall, tiers L+1..B in the network room in the middle of their
 *     building, tiers above B in the network room of the campus' central
 *     building. A fabric that fits in one hall is one hall, no network room.
 * Within a hall, compute racks hold layout.nodes_per_rack servers; leaves
 * stand beside their scalable unit (per-unit) or at the end or middle of
 * each row (a fat tree's default: its units are a leaf and a few servers);
 * a row's racks are those that hold something. Rows are layout.racks_per_row long, or shaped so a hall is about
 * as deep as it is wide. Network racks hold as many switches as space and
 * the rack power budget allow (layout.switches_per_rack at most).
 *
 * Geometry: a room's door is in the middle of its front wall; the rooms of a
 * building stand on both sides of one corridor layout.hall_gap wide, and
 * layout.hall_gap apart along it (halls, the network room in the middle,
 * halls); buildings stand on a square campus grid, layout.building_gap
 * apart. Rack names: "R01-03" (row
 * 1, rack 3) when the layout is one room, else "H02-R01-03" in hall 2 and
 * "N1-R01-03" in network room 1. */
#ifndef RY_LAYOUT_H
#define RY_LAYOUT_H

#include <stdint.h>

#include "fabric/fabric.h"

typedef enum { RY_RACK_COMPUTE = 0, RY_RACK_NETWORK = 1 } ry_rack_kind;
typedef enum { RY_ROOM_HALL = 0, RY_ROOM_NETWORK = 1 } ry_room_kind;

typedef struct ry_rack {
    int room;               /* index into rooms */
    int row, col;           /* 0-based, within the room; row 0 is nearest the door */
    uint8_t kind;           /* ry_rack_kind */
    int used_units;         /* the trays' (cluster.node.rack_trays) included */
    uint8_t trays;          /* a compute rack holding the node's rack trays */
    double power_w;         /* servers, trays and switches in it (0 when the catalog has
                             * no power) */
} ry_rack;

typedef struct ry_room {
    uint8_t kind;           /* ry_room_kind */
    int number;             /* 1-based among rooms of its kind (hall 2: "H02") */
    int building;           /* 0-based */
    int rows, racks_per_row;
    int first_rack, nracks; /* racks[first_rack .. first_rack + nracks) */
    int side;               /* 0 or 1: which side of the building's corridor */
    double x0, width, depth;/* place along the corridor, metres */
    double power_w;
} ry_room;

typedef struct ry_building {
    int gx, gy;             /* place on the campus grid */
    double entry;           /* corridor position where its cables leave (network room door) */
    double length, depth;   /* metres */
    int nhalls;
} ry_building;

typedef struct ry_layout {
    const ry_fabric *f;     /* borrowed */
    ry_rack *racks;
    int nracks, nrows;      /* nrows: rows of every room */
    ry_room *rooms;
    int nrooms, nhalls;
    ry_building *buildings;
    int nbuildings;
    int32_t *node_rack;     /* per server (GPU index / gpus_per_node) */
    int16_t *node_unit;     /* lowest unit of the server */
    int32_t *sw_rack;       /* per switch (node id - first_switch) */
    int16_t *sw_unit;
    int node_units, switch_units;   /* switch_units: the tallest switch's */
    int tier_units[RY_MAX_TIERS + 1];   /* [tier]: height of its switches (its model's) */
    int tray_unit0;         /* lowest unit of a compute rack's first tray: above its
                             * layout.nodes_per_rack servers */
    int gpus_per_node;
    int hall_level, building_level;  /* L and B above (1-based tiers) */
    int racks_per_row;      /* of the halls */
    int switches_per_rack;
    double rack_budget_w;   /* per-rack power budget, watts (0: none known) */
    double pitch_x, pitch_y;/* campus grid, metres */
} ry_layout;

/* Places everything; -1 with err set when the layout cannot hold the
 * cluster (a scalable unit larger than a hall, a rack too short for one
 * server, too few rows, ...). Nothing to free on failure. */
int ry_layout_build(const ry_fabric *f, ry_layout *lay, ry_err *err);
void ry_layout_free(ry_layout *lay);

/* Rack and lowest unit of a graph node (a GPU: its server). */
void ry_layout_where(const ry_layout *lay, uint32_t node, int *rack, int *unit, int *units);

/* Height in rack units of a switch node: its tier's model's rack_units (1
 * when the catalog has none), or layout.switch_units when the spec sets it. */
static inline int ry_layout_switch_units(const ry_layout *lay, const ry_node *n)
{
    return lay->tier_units[n->tier];
}

/* Lowest unit of copy c (0-based) of tray kind k of the node's rack_trays
 * in a compute rack: the kinds in list order above the servers. */
int ry_layout_tray_unit(const ry_layout *lay, int k, int c);

/* "R01-03", "H02-R01-03" or "N1-R01-03" (see above). */
int ry_rack_name(const ry_layout *lay, int rack, char *buf, size_t n);

/* Routed cable length in metres between two graph nodes' ports, before
 * slack: within a rack straight between the units; within a room up to the
 * tray, along the trays (Manhattan) and down; between rooms through both
 * doors and along the corridor, and between buildings along the campus
 * grid. */
double ry_layout_route_m(const ry_layout *lay, uint32_t a, uint32_t b);

#endif
