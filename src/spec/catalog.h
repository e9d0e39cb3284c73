/* The catalog: switch and node models read from templates/switches.yaml and
 * templates/nodes.yaml, looked up by name (without case).
 *
 * File format (both files, one top-level key each):
 *
 *   switches:
 *     qm9700:                     # name: [a-z0-9._-]+, at most 63 characters
 *       description: "..."        # required, one line
 *       vendor: NVIDIA            # optional
 *       radix: 64                 # ports at `speed`; even, 4..65535
 *       speed: NDR                # see ry_parse_speed
 *
 *   nodes:
 *     dgx-h100:
 *       description: "..."
 *       vendor: NVIDIA            # optional
 *       gpus_per_node: 8
 *       hb_domain: 8              # GPUs per HB (NVLink) domain; one divides the other
 *       nic_speed: 400G           # per GPU NIC port
 *
 * Errors in a catalog file are reported at that file's line:col. */
#ifndef RY_CATALOG_H
#define RY_CATALOG_H

#include <stddef.h>

#include "spec/spec.h"
#include "spec/yaml.h"

typedef struct ry_catalog_switch {
    ry_switch_model model;
    const char *description;    /* owned by the catalog */
    const char *vendor;         /* "" when not given */
    ry_pos pos;                 /* the entry's name in switches.yaml */
} ry_catalog_switch;

typedef struct ry_catalog_node {
    ry_node_model model;
    const char *description;
    const char *vendor;
    ry_pos pos;
} ry_catalog_node;

typedef struct ry_catalog {
    char *dir;
    ry_ydoc *switch_doc, *node_doc;
    ry_catalog_switch *switches;    /* in file order */
    int nswitches;
    ry_catalog_node *nodes;
    int nnodes;
} ry_catalog;

/* Loads DIR/switches.yaml and DIR/nodes.yaml. Prints every error found and
 * returns NULL on failure. */
ry_catalog *ry_catalog_load(const char *dir);
void ry_catalog_free(ry_catalog *c);

/* Entry by name, compared without case; NULL when absent. */
const ry_catalog_switch *ry_catalog_find_switch(const ry_catalog *c, const char *name);
const ry_catalog_node *ry_catalog_find_node(const ry_catalog *c, const char *name);

/* The catalog entry a spec scalar names; errors at the scalar with a
 * did-you-mean among catalog names ("fabric.switch: unknown switch 'qm9070';
 * did you mean 'qm9700'?"). what is the dotted key. Returns 0 or -1. */
int ry_catalog_get_switch(const ry_catalog *c, const ry_ynode *n, const char *what,
                          ry_switch_model *out);
int ry_catalog_get_node(const ry_catalog *c, const ry_ynode *n, const char *what,
                        ry_node_model *out);

/* Link speed in Gb/s from "400G", "400Gb/s", "400Gbps", "1.6T", "NDR",
 * "NDR200", "HDR", "HDR100", "XDR", "EDR", "FDR" or a plain number (Gb/s).
 * Case does not matter. Returns 0, or -1 when s is not a speed. */
int ry_parse_speed(const char *s, double *gbps);

/* A speed from a spec or catalog scalar; text (cap bytes) gets it as written.
 * Errors at the node: "fabric.switch.speed must be a speed like 400G, NDR or
 * 400 (got 'fast')". */
int ry_yget_speed(const ry_ynode *n, const char *what, double *gbps, char *text, size_t cap);

/* The entries map under a catalog file's one top-level key ("switches",
 * "llms", ...), or NULL with the error printed at its position. */
const ry_ynode *ry_catalog_entries(const ry_ydoc *d, const char *top);

/* "what: unknown kind 'x'; did you mean 'y'?" at n's position, or the list of
 * the catalog's names followed by hint ("; or give a map {...}", or ""). */
void ry_catalog_unknown(const ry_ynode *n, const char *what, const char *kind,
                        const char **names, int count, const char *hint);

#endif
