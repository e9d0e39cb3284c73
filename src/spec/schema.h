/* The spec schema: one row per key of the spec (schema.c), and the generic
 * code that reads, checks, stores and defaults every scalar key from it.
 *
 * Adding a spec key: 4 things to do
 *
 *  1. A field for it in ry_spec (spec.h), or in ry_node_model / ry_switch_model
 *     for a key under cluster.node / fabric.switch; ry_workload / ry_llm
 *     (workload.h, catalog.h) under workload:, the structs of libra_spec.h
 *     under network: and libra:. A key that is only checked (a description)
 *     needs none.
 *  2. One row in ry_spec_keys[] (schema.c), under its section's rows: full
 *     dotted name, type, range, default as a spec would write it, unit, a
 *     one-line doc, and where the value goes (SPEC(), NODE(), SWITCH(),
 *     WORKLOAD(), LLM(), LIBRA(), DIM(), LAYER() or PHASE()).
 *     The reader, the range check, the default, "unknown key ... did you
 *     mean" and the checks of specs built in code all follow from the row. A
 *     rule about the key alone goes in the row (range, flags, a check
 *     function); a rule between keys goes with the cross-key rules below the
 *     table (those of workload: and LIBRA's sections beside their readers,
 *     in workload.c and libra_spec.c).
 *  3. Its entry in railyard-spec(5), in its section: `.TP`, then
 *     `.BR key " (summary)"` where summary is what
 *     `tests/unit/spec_keys_test --list` prints for the row, then the prose.
 *  4. `make check`: tests/spec-keys.sh holds the table and the man page to
 *     each other; a bad spec in tests/data/bad (with its line in expected.txt)
 *     for each new error message.
 *
 * Structures that are not scalars (the node, switch and LLM models, a catalog
 * name or a map; fabric.oversubscription; cabling.tiers and cabling.links;
 * network.dims and libra.layers, lists of maps; libra's lists and group
 * sizes) are rows of type RY_KEY_CUSTOM read by their own readers (load.c,
 * workload.c, libra_spec.c); their scalar sub-keys are rows like any other.
 * A list's entries are named "list[]": cabling.links[].end. */
#ifndef RY_SCHEMA_H
#define RY_SCHEMA_H

#include <stddef.h>

#include "spec/spec.h"
#include "spec/yaml.h"

typedef enum {
    RY_KEY_SECTION,     /* a map of further rows */
    RY_KEY_INT,         /* whole number in min..max; int or long long field */
    RY_KEY_AUTO_INT,    /* "auto" (stored as 0) or a whole number in min..max */
    RY_KEY_NUMBER,      /* finite number in dmin..dmax; double field */
    RY_KEY_BOOL,        /* true/false, yes/no, on/off; int field */
    RY_KEY_STRING,      /* at most max characters; char[] field */
    RY_KEY_NAME,        /* [a-z0-9._-]+, at most RY_NAME_MAX - 1 characters */
    RY_KEY_ENUM,        /* one of words, any case; int field (the index), or the
                         * word itself into a char[] with RY_KEY_TEXT */
    RY_KEY_SPEED,       /* a link speed (ry_parse_speed); double Gb/s, and the
                         * text as written at off2 when size2 > 0 */
    RY_KEY_GUID,        /* a 64-bit GUID, hex or decimal; unsigned long long */
    RY_KEY_CUSTOM,      /* read by its section's reader (not a scalar) */
    RY_KEY_ANY          /* a pattern of keys that are ignored ("x-*") */
} ry_key_type;

/* Which struct a row's field is in: ry_spec, ry_node_model, ry_switch_model,
 * ry_workload, ry_llm, ry_libra_spec, ry_libra_dim, ry_libra_layer,
 * ry_libra_phase. */
typedef enum {
    RY_IN_SPEC = 0,
    RY_IN_NODE,
    RY_IN_SWITCH,
    RY_IN_WORKLOAD,
    RY_IN_LLM,
    RY_IN_LIBRA,
    RY_IN_DIM,
    RY_IN_LAYER,
    RY_IN_PHASE
} ry_key_in;

enum {
    RY_KEY_REQUIRED = 1 << 0,   /* a spec must give it (its reader says so) */
    RY_KEY_EVEN = 1 << 1,       /* INT: an even number */
    RY_KEY_TEXT = 1 << 2,       /* ENUM: store the word, not its index */
    RY_KEY_READER = 1 << 3,     /* read by its section's reader, not ry_schema_read (it
                                 * depends on other keys, or its errors come in an order
                                 * of their own); checked and defaulted like any other */
    RY_KEY_ZERO_UNSET = 1 << 4, /* a stored 0 means "not given", not a value */
};

/* Fields that failed to load: rules that involve them are skipped, so one
 * mistake gives one error. Each row names the bits its failure sets. */
enum {
    RY_BAD_NAME = 1 << 0,
    RY_BAD_GPUS = 1 << 1,
    RY_BAD_GPN = 1 << 2,
    RY_BAD_HB = 1 << 3,
    RY_BAD_RAILS = 1 << 4,
    RY_BAD_PLANES = 1 << 5,
    RY_BAD_SU = 1 << 6,
    RY_BAD_SWITCH = 1 << 7,
    RY_BAD_OVERSUB = 1 << 8,
    RY_BAD_TIERS = 1 << 9,
    RY_BAD_COST = 1 << 10,
    RY_BAD_NODE = 1 << 11,
    RY_BAD_OTHER = 1 << 12,
};

/* A value read from a spec scalar. s points into the document (or at a
 * word of the row). */
typedef struct ry_keyval {
    long long i;            /* INT, AUTO_INT, BOOL, ENUM (index) */
    double d;               /* NUMBER, SPEED (Gb/s) */
    unsigned long long u;   /* GUID */
    const char *s;          /* STRING, NAME, ENUM (the word), NUMBER and SPEED (as
                             * written) */
} ry_keyval;

typedef struct ry_key ry_key;
struct ry_key {
    const char *key;            /* full dotted name: "fabric.switch.radix" */
    ry_key_type type;
    unsigned flags;
    long long min, max;         /* INT, AUTO_INT; STRING: max = longest length */
    double dmin, dmax;          /* NUMBER; dmax >= 1e300 means no upper bound */
    const char *const *words;   /* ENUM, NULL-terminated */
    const char *def;            /* default, as a spec would write it; NULL: none */
    const char *def_doc;        /* the default in words when it depends on other
                                 * keys (shown instead of def) */
    const char *type_doc;       /* what it is, for CUSTOM rows and rows read by a read
                                 * function ("catalog name or map", "time"); shown
                                 * instead of the type's own words */
    const char *unit;           /* "metres", "kW", "GPUs", ...; NULL: none. INT, AUTO_INT
                                 * and NUMBER values take the unit's suffixes (a count's
                                 * k..Ti) and errors name it: railyard-spec(5), UNITS */
    const char *doc;            /* one line */
    ry_key_in in;               /* the struct the field is in */
    size_t off, size;           /* the field; size 0: not stored */
    size_t off2, size2;         /* SPEED: the text as written */
    unsigned bad;               /* RY_BAD_* set when the key fails to load */
    /* An extra rule about this key alone, run on the value read; prints at
     * pos (what names the key) and returns -1 when it does not hold. */
    int (*check)(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
    /* Replaces the type's reading for keys with a message of their own. */
    int (*read)(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v);
};

extern const ry_key ry_spec_keys[];
extern const size_t ry_spec_nkeys;

/* The row of a full dotted key, or NULL. */
const ry_key *ry_key_find(const char *key);

/* Reads n as row k: type, range and the row's rule; messages name what
 * (NULL: the key). Returns 0 with *v set, or -1 after printing an error. */
int ry_key_get(const ry_key *k, const ry_ynode *n, const char *what, ry_keyval *v);

/* One number of a list key's items (libra.baseline[i]) read as the key's
 * unit reads a number: plain, or with the unit or a multiplier, in
 * min..max. 0 with *out set, or -1 after printing an error naming what. */
int ry_key_get_item(const char *key, const ry_ynode *n, const char *what, double min,
                    double max, double *out);

/* The child of map under key's last part read as its row: 0 when absent, 1
 * with *v set, -1 after an error. */
int ry_schema_get(const ry_ynode *map, const char *key, ry_keyval *v);
/* The same, with messages naming prefix and the key's last part: a list
 * entry's "network.dims[2]" gives "network.dims[2].size" (NULL: the key). */
int ry_schema_get_as(const ry_ynode *map, const char *key, const char *prefix, ry_keyval *v);
/* ry_schema_get_as, then the value stored into base as the row's field. */
int ry_schema_take(const ry_ynode *map, const char *key, const char *prefix, void *base);

/* Field `field` of entry i of a list of maps (its rows named list + "[]."
 * + field: "cluster.node.nics[].rdma", "fabric.tiers[].down"): its node
 * into *v and its name for messages, "what[i].field", into w. 1 present, 0
 * absent (an error when the row requires it: missing, then hint, else the
 * row's doc), -1 after an error. With kv the value is read as its row
 * (ry_key_get); a CUSTOM row's caller passes NULL and reads *v itself. */
int ry_schema_entry_field(const ry_ynode *e, const char *list, const char *field,
                          const char *what, size_t i, const char *hint, char *w, size_t wcap,
                          ry_keyval *kv, const ry_ynode **v);

/* Unknown keys of map, a map of section (a full dotted key, "" for the top
 * level): an error at each key the table has no row for under section, with
 * "did you mean" among those rows. what names the map in messages (NULL:
 * section). Returns the number of unknown keys. */
int ry_schema_check_keys(const ry_ynode *map, const char *section, const char *what);

/* Called for each CUSTOM row of a section present in the map. */
typedef void (*ry_schema_custom_fn)(void *ctx, const ry_key *k, const ry_ynode *n);

/* Reads every row of section present in map, in table order, and stores each
 * into base (a ry_spec, ry_node_model or ry_switch_model, as the rows' in
 * says); rows without a field are only checked. CUSTOM rows go to custom
 * (when given); RY_KEY_READER rows are left to the caller. Returns the
 * RY_BAD_* bits of the rows that failed. */
unsigned ry_schema_read(const ry_ynode *map, const char *section, void *base,
                        ry_schema_custom_fn custom, void *ctx);

/* Stores v into base as row k's field (nothing when it has none). */
void ry_key_store(const ry_key *k, void *base, const ry_keyval *v);

/* Every row's default into s (rows under cluster.node into s->node, under
 * fabric.switch into s->sw). */
void ry_schema_defaults(ry_spec *s);
/* The defaults of the rows whose field is in a struct of kind in, into base
 * (a new workload, model, dimension, layer or phase). */
void ry_schema_defaults_in(ry_key_in in, void *base);

/* The rules of every stored row of s and s->sw, on the values in the struct
 * (specs built in code): errors at the keys' positions. Returns RY_BAD_*. */
unsigned ry_schema_check_struct(const ry_spec *s);

/* The row as railyard-spec(5) heads its entry: "integer, 1..8; default 1",
 * "even integer, 4..65535; default 64; ports". */
void ry_key_summary(const ry_key *k, char *buf, size_t cap);

/* The suffixes a value of an INT, AUTO_INT or NUMBER row may end in
 * (railyard-spec(5), UNITS): its unit's symbols ("m", "cm", ...) or, for a
 * count, the prefixes k, M, G, T, Ki, Mi, Gi, Ti; then the unit's own name.
 * Stores at most cap of them into out and returns how many there are. */
size_t ry_key_unit_suffixes(const ry_key *k, const char **out, size_t cap);

/* ---- cross-key rules (schema.c, beside the table) ---- */

/* cluster: HB domain and GPUs per node, GPUs and nodes, rails. Keys in bad
 * failed to load and are left out. */
void ry_spec_rules_cluster(ry_spec *s, unsigned bad);
/* infiniband: an LMC the routing engine can route. */
void ry_spec_rules_ib(ry_spec *s);
/* layout: a rack tall enough for a server and a switch, a tray above it. */
void ry_spec_rules_layout(ry_spec *s);

#endif
