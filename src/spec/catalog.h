/* The catalog: every file of the templates directory (--templates DIR laid
 * over $RAILYARD_TEMPLATES laid over the installed one: a file from the first
 * that has it, its entries over those of the same file below, an entry
 * replacing the one of its name; `replace: true` at a file's top takes it
 * alone) is read here and nowhere else:
 *
 *   switches.yaml, nodes.yaml   switch and node models (ry_catalog)
 *   media.yaml                  cables and optics with prices (ry_media_catalog)
 *   llms.yaml, gpus.yaml        LLMs and GPUs of the iteration model (ry_llm_catalog)
 *   libra-costs.yaml            LIBRA's prices per technology (ry_libra_costs)
 *
 * Each file has one top-level key holding a map of entries by name; names
 * are looked up without case, and a name a spec gives that is not there is
 * reported by ry_catalog_unknown (one wording, with a "did you mean").
 * Loaders print every error of the file at its line:col and return NULL;
 * every _free accepts NULL.
 *
 * File format of switches.yaml and nodes.yaml:
 *
 *   switches:
 *     qm9700:                     # name: [a-z0-9._-]+, at most 63 characters
 *       description: "..."        # required, one line
 *       vendor: NVIDIA            # optional
 *       radix: 64                 # ports at `speed`; even, 4..65535
 *       speed: NDR                # see ry_parse_speed
 *       cage_ports: 2             # optional: ports per cage (twin-port OSFP)
 *       cages: 32                 # optional: cages on the faceplate; radix over
 *                                 # cages * cage_ports > 1 = split ports
 *       connector: osfp           # optional: the cages' form factor
 *       sharp: true               # optional: reduces in the network (SHARP),
 *                                 # network.sharp's condition (default false)
 *
 *   nodes:
 *     dgx-h100:
 *       description: "..."
 *       vendor: NVIDIA            # optional
 *       gpus_per_node: 8
 *       hb_domain: 8              # GPUs per HB (NVLink) domain; one divides the other
 *       nic_speed: 400G           # per GPU NIC port; or
 *       nic_bandwidth: 800G       # per GPU, split over its planes (nic_speed = it / planes)
 *       cage_ports: 2             # optional: NIC ports per cage
 *       connector: osfp           # optional: the NIC cages' form factor
 *
 * connector and cages are catalog keys only: a spec's inline model gets them
 * from the entry it names. A connector is [a-z0-9-]+, at most 15 characters.
 *
 * Errors in a catalog file are reported at that file's line:col. */
#ifndef RY_CATALOG_H
#define RY_CATALOG_H

#include <stddef.h>

#include "spec/catalog_words.h"
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
    int refs;                       /* holders; ry_catalog_free drops one */
} ry_catalog;

/* Loads DIR/switches.yaml and DIR/nodes.yaml. Prints every error found and
 * returns NULL on failure. */
ry_catalog *ry_catalog_load(const char *dir);
/* The same, shared by the process: the catalog loaded last for the same
 * directory chain and the same bytes of every file the load can read is
 * handed out again, read-only (ry_catalog_free drops the reference). A
 * failed load is not kept: its errors are printed at each call. */
ry_catalog *ry_catalog_load_shared(const char *dir);
void ry_catalog_free(ry_catalog *c);

/* 1 when FILE is in DIR or a directory below it in the chain (DIR, then
 * $RAILYARD_TEMPLATES, then the installed catalog): the file a loader reads. */
int ry_catalog_has_file(const char *dir, const char *file);

/* Entry by name, compared without case; NULL when absent. */
const ry_catalog_switch *ry_catalog_find_switch(const ry_catalog *c, const char *name);
const ry_catalog_node *ry_catalog_find_node(const ry_catalog *c, const char *name);

/* 1 when two switch models make the same fabric, layout and cabling: the
 * same ports, speed, cages, connector, height and power (their names and
 * prices aside). */
/* Physical ports per cage and links per physical port (2 for split ports)
 * of a switch model: cage_ports, and radix over cages * cage_ports. */
void ry_switch_cage_shape(const ry_switch_model *sw, int *ports, int *split);

int ry_switch_same_shape(const ry_switch_model *a, const ry_switch_model *b);

/* The first InfiniBand switch of the catalog (file order) whose ports run
 * at gbps, or NULL: the switch a starter spec names for a node's NICs. */
const ry_catalog_switch *ry_catalog_ib_switch_at(const ry_catalog *c, double gbps);

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
/* A node's NIC table (a list of {rdma, netdev, cage}) into out->nics; errors
 * at the node, named by what. */
int ry_read_nics(const ry_ynode *n, const char *what, ry_node_model *out);
/* A rack's other trays (a list of {kind, part, per_rack, rack_units, power})
 * into out->trays; errors at the node, named by what. */
int ry_read_trays(const ry_ynode *n, const char *what, ry_node_model *out);

/* ---- media: templates/media.yaml ------------------------------------------------------ */

typedef enum { RY_MEDIA_DAC, RY_MEDIA_LACC, RY_MEDIA_AOC, RY_MEDIA_MMF, RY_MEDIA_SMF } ry_media_kind;

/* "dac", "lacc", "aoc", "mmf", "smf". */
const char *ry_media_kind_name(int kind);

typedef struct ry_media_end {   /* a module that plugs into a cage at one end */
    char part[40];
    int ports;                  /* cage ports one unit serves: 2 = twin-port */
    double price, power;        /* USD and W per unit */
    char connector[16];         /* "" = the medium's */
} ry_media_end;

#define RY_MEDIA_MAX_ENDS 4     /* modules per side: single-port, twin-port, ... */
enum { RY_END_SWITCH = 0, RY_END_NODE = 1 };

typedef struct ry_medium {
    char name[32];
    char description[128];
    int kind;                   /* ry_media_kind */
    double speeds[8];           /* Gb/s */
    int nspeeds;
    double lengths[32];         /* stock lengths, ascending; the last is the reach */
    int nlengths;
    char cable_part[40];        /* may hold "{len}" */
    double cable_price, cable_price_per_m;
    double power;               /* W per end, active cables */
    char connector[16];         /* form factor of its ends ("" = fits any cage) */
    int legs;                   /* links one cable carries: 2 for a 1:2 splitter (default 1) */
    double price_range;         /* percent its cable's and modules' prices may be off
                                 * list, either way (0: the spec's cost.range_*) */
    /* Modules per side ([RY_END_SWITCH], [RY_END_NODE]), in file order; none
     * (nends 0) when the cable's own ends plug into the cages (DAC, AOC). */
    ry_media_end ends[2][RY_MEDIA_MAX_ENDS];
    int nends[2];
} ry_medium;

typedef struct ry_media_catalog {
    ry_medium *media;           /* in file order */
    int nmedia;
} ry_media_catalog;

/* Loads DIR/media.yaml. */
ry_media_catalog *ry_media_catalog_load(const char *dir);
void ry_media_catalog_free(ry_media_catalog *c);
/* Index of the medium with this name (any case), or -1. */
int ry_media_find(const ry_media_catalog *c, const char *name);

/* ---- LLMs and GPUs: templates/llms.yaml, templates/gpus.yaml --------------------------- */

/* (ry_precision, ry_mlp, ry_llm and ry_gpu: spec/catalog_words.h) */

/* MoE blocks of l: (layers - dense_layers) / every; 0 for a dense model. */
int ry_llm_moe_blocks(const ry_llm *l);


typedef struct ry_llm_catalog {
    ry_ydoc *llm_doc, *gpu_doc;
    ry_llm *llms;
    int nllms;
    ry_gpu *gpus;
    int ngpus;
    char **gpu_nodes;       /* per GPU: its node names joined by '\n' */
    int refs;               /* holders; ry_llm_catalog_free drops one */
} ry_llm_catalog;

/* Loads DIR/llms.yaml and DIR/gpus.yaml. */
ry_llm_catalog *ry_llm_catalog_load(const char *dir);
/* Shared by the process, as ry_catalog_load_shared. */
ry_llm_catalog *ry_llm_catalog_load_shared(const char *dir);
void ry_llm_catalog_free(ry_llm_catalog *c);
const ry_llm *ry_llm_find(const ry_llm_catalog *c, const char *name);
const ry_gpu *ry_gpu_find(const ry_llm_catalog *c, const char *name);
/* The GPU whose `nodes` list has this node name, or NULL. */
const ry_gpu *ry_gpu_for_node(const ry_llm_catalog *c, const char *node);

/* Reads the keys present in map m into *l through the rows of
 * workload.model's keys (spec/schema.c); what prefixes messages
 * ("llms.gpt-3-175b" or "workload.model"). Returns the number of errors.
 * Shared by the catalog and inline models of the workload section. */
int ry_llm_read_keys(const ry_ynode *m, const char *what, ry_llm *l);
/* 0 when l has every key a model needs, else 1 after an error at pos. */
int ry_llm_complete(const ry_llm *l, ry_pos pos, const char *what);

/* ---- LIBRA prices: templates/libra-costs.yaml ------------------------------------------ *
 *
 *   technologies:
 *     pod:
 *       description: "..."      optional
 *       link: 6                 USD per GB/s per NPU; each price optional (0)
 *       switch: 16.2
 *       nic: 22.5 */

typedef struct ry_libra_tech {
    const char *name;           /* owned by the catalog's document */
    double link, sw, nic;
} ry_libra_tech;

typedef struct ry_libra_costs {
    ry_ydoc *doc;
    const char *file;           /* for messages about the file as a whole */
    ry_libra_tech *techs;       /* in file order */
    int ntechs;
} ry_libra_costs;

/* Loads DIR/libra-costs.yaml. */
ry_libra_costs *ry_libra_costs_load(const char *dir);
void ry_libra_costs_free(ry_libra_costs *c);
const ry_libra_tech *ry_libra_tech_find(const ry_libra_costs *c, const char *name);

/* ---- shared ------------------------------------------------------------------------------ */

/* The entries map under a catalog file's one top-level key ("switches",
 * "llms", ...), or NULL with the error printed at its position. */
const ry_ynode *ry_catalog_entries(const ry_ydoc *d, const char *top);

/* "what: unknown kind 'x'; did you mean 'y'?" at n's position, or the list of
 * the catalog's names followed by hint ("; or give a map {...}", or ""). */
void ry_catalog_unknown(const ry_ynode *n, const char *what, const char *kind,
                        const char **names, int count, const char *hint);
/* The same message as text, for checks that report through an ry_err. */
void ry_catalog_unknown_text(char *buf, size_t cap, const char *what, const char *kind,
                             const char *got, const char **names, int count, const char *hint);

#endif
