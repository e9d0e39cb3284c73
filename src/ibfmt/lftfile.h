/* Linear forwarding tables read the way OpenSM's `file` routing engine
 * reads them (osm_ucast_file.c): OpenSM's opensm-lfts.dump, dump_fts or
 * ibroute output, and railyard's own lfts.dump. */
#ifndef RY_LFTFILE_H
#define RY_LFTFILE_H

#include <stdint.h>

#include "ibfmt/netfile.h"

#define RY_LFT_NONE 255   /* no route for the LID */

typedef struct ry_lft {
    char *path;
    int nnodes;           /* rows: one per topology node */
    int max_lid;          /* rows hold LIDs 0 .. max_lid (the topology's highest) */
    uint8_t **row;        /* per topology node: out port per LID; NULL when the node is
                             not a switch or the file has no block for it */
    uint8_t *none;        /* a row of RY_LFT_NONE for switches without a block */
    int blocks;           /* switch blocks applied */
    long long entries;    /* entry lines applied */
    long long remapped;   /* entries whose LID was moved to their portguid's LID */
    long long ignored;    /* entries for LIDs no port of the topology owns */
    int missing;          /* switches of the topology with no block */
} ry_lft;

/* Reads path against the topology nf. Header and entry rules are OpenSM's:
 * a header is a line starting "Unicast lids" holding " guid 0x<hex>" and
 * whitespace; an entry starts "0x<lid>" then whitespace, a decimal port and
 * whitespace, optionally " portguid 0x<hex>" whose port's LID replaces the
 * written one. Errors (file:line:col) end with RY_EXIT_INPUT; RY_EXIT_IO when
 * the file cannot be read. l needs ry_lft_free in every case. */
int ry_lft_load(const char *path, const ry_netfile *nf, ry_lft *l);
void ry_lft_free(ry_lft *l);

static inline const uint8_t *ry_lft_row(const ry_lft *l, int node)
{
    return l->row[node] ? l->row[node] : l->none;
}

#endif
