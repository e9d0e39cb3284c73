/* GUID lists that come with real hardware or a running subnet manager:
 *
 *   guid2lid   OpenSM's LID cache ($OSM_CACHE_DIR/guid2lid): "0xGUID 0xLID
 *              0xLID" per port, the base and the last LID of its block;
 *   inventory  a CSV as vendors ship with the hardware: rows
 *              "host,nic,port_guid,node_guid" for each NIC port and
 *              "switch,node_guid" for each switch, under an optional header
 *              row; GUIDs in hex, with or without 0x; '#' starts a comment.
 *
 * Errors are printed as file:line:col; loading goes on to report them all.
 * Returns RY_EXIT_OK, RY_EXIT_INPUT or RY_EXIT_IO; the result needs its
 * _free in every case (NULL-safe). */
#ifndef RY_GUIDFILE_H
#define RY_GUIDFILE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ry_guid2lid {
    uint64_t *guid;
    uint16_t *lid;
    size_t n;
} ry_guid2lid;

int ry_guid2lid_load(const char *path, ry_guid2lid *g);
void ry_guid2lid_free(ry_guid2lid *g);

typedef struct ry_inv_row {
    char *name;         /* "node001 mlx5_0" (host and NIC) or a switch's name */
    int is_switch;
    uint64_t node_guid, port_guid;      /* port_guid: NIC rows only */
    int line;
} ry_inv_row;

typedef struct ry_inventory {
    char *path;
    ry_inv_row *rows;
    size_t n;
} ry_inventory;

int ry_inventory_load(const char *path, ry_inventory *inv);
void ry_inventory_free(ry_inventory *inv);

#endif
