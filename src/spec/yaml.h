/* YAML with source positions: a small tree (scalars, maps, lists) loaded with
 * libyaml's event API, plus typed getters that report errors at the node.
 *
 * Ownership: every node belongs to its ry_ydoc and is freed with it; nothing
 * returned by these functions is freed by the caller.
 *
 * Aliases are resolved by sharing: `*a` points at the node anchored by `&a`,
 * it is not copied. A shared node has refs > 1; ry_ydoc_set copies a shared
 * map before changing it, so an override never leaks into other users of the
 * anchor. An alias may only name a node that is complete (defined earlier and
 * not an ancestor), so the tree is a DAG and every walk ends. Documents whose
 * aliases would expand them past RY_YAML_MAX_NODES nodes are rejected
 * ("billion laughs"), so even a naive recursive walk stays bounded. */
#ifndef RY_YAML_H
#define RY_YAML_H

#include <stddef.h>

#include "util/diag.h"

/* Limits that keep hostile inputs cheap. */
#define RY_YAML_MAX_NODES 1000000   /* events read, and nodes after alias expansion */
#define RY_YAML_MAX_DEPTH 256       /* nesting of maps and lists */
#define RY_YAML_MAX_BYTES (64L << 20)

typedef enum { RY_YSCALAR = 0, RY_YMAP = 1, RY_YSEQ = 2 } ry_ykind;

typedef struct ry_ynode ry_ynode;
struct ry_ynode {
    ry_ykind kind;
    ry_pos pos;         /* start of the node (file owned by the doc, or "--set") */
    char *value;        /* scalar text ("" for an empty scalar); NULL for collections */
    int quoted;         /* scalar was written quoted or as a block (| or >): a string */
    int refs;           /* parents pointing at this node (> 1 when aliased) */
    size_t n;           /* map entries or list items */
    size_t cap;
    ry_ynode **keys;    /* map: key scalars, keys[i] goes with items[i] */
    ry_ynode **items;   /* map values or list items */
    unsigned long size; /* nodes under this one once aliases are expanded (saturates) */
};

typedef struct ry_ydoc {
    char *file;         /* path as given, used in positions */
    ry_ynode *root;     /* NULL when the stream holds no document (empty file) */
    ry_ynode **all;     /* every node, for freeing */
    size_t nall, capall;
    unsigned long events;
    /* A document whose nodes this one's maps also point at (the catalog file
     * a catalog overlay adds its entries to); freed with this one. */
    struct ry_ydoc *under;
} ry_ydoc;

/* Reads and parses path ("-" reads standard input). On any error prints
 * "path:line:col: error: ..." and returns NULL. what names the file in read
 * errors: "spec" gives "path:1:1: error: cannot read spec: Is a directory".
 * A file with no document (empty, only comments) loads with root == NULL;
 * more than one document is an error. */
ry_ydoc *ry_ydoc_load(const char *path, const char *what);
/* Same for text in memory (tests, fuzzing); file is used in positions. */
ry_ydoc *ry_ydoc_load_string(const char *file, const char *text, size_t len);
void ry_ydoc_free(ry_ydoc *d);

/* "a map", "a list", "nothing" (null), "the string \"x\"", "'word'", "42":
 * what a node is, for "(got ...)" in messages. Returns a static buffer. */
const char *ry_ynode_describe(const ry_ynode *n);
/* A scalar meaning null: ~, null, Null, NULL or nothing, unquoted. */
int ry_ynode_is_null(const ry_ynode *n);

/* Child of a map by exact key, or NULL (also NULL when map is not a map). */
ry_ynode *ry_ymap_get(const ry_ynode *map, const char *key);
/* The key node of that entry (for positions of key errors), or NULL. */
ry_ynode *ry_ymap_key(const ry_ynode *map, const char *key);

/* Node at a dotted path ("fabric.switch.radix"; a numeric part indexes a
 * list: "fabric.oversubscription.1"), or NULL. When key_out is given it gets
 * the key node of the last part (NULL for list items and the root). */
ry_ynode *ry_ydoc_find(const ry_ydoc *d, const char *dotted, ry_ynode **key_out);

/* Typed getters. what is the dotted key for messages ("cluster.gpus"). Each
 * returns 0 and sets *out, or prints an error at the node and returns -1.
 *
 * ry_yget_int: a plain integer (decimal, 0x.., 0o..) in [min, max]. Floats,
 * quoted numbers and words are errors; so are values beyond 64 bits ("is too
 * large"). Messages: "cluster.gpus must be an integer >= 1 (got -3)",
 * "cluster.planes must be an integer in 1..8 (got 9)",
 * "cluster.gpus is too large (got 3000000000; at most 2147483647)". */
int ry_yget_int(const ry_ynode *n, const char *what, long long min, long long max,
                long long *out);
/* Whether n is an unquoted integer scalar, without a message: 1 with *out
 * set (saturated, and *range -1/+1, when it does not fit in 64 bits), else 0. */
int ry_yscalar_int(const ry_ynode *n, long long *out, int *range);
/* A plain finite number (integer or decimal) in [min, max]. */
int ry_yget_number(const ry_ynode *n, const char *what, double min, double max,
                   double *out);
/* Any non-null scalar, quoted or not. */
int ry_yget_string(const ry_ynode *n, const char *what, const char **out);
/* true/false (also yes/no, on/off), unquoted, any case. */
int ry_yget_bool(const ry_ynode *n, const char *what, int *out);
/* One of words (NULL-terminated), compared without case; *out is its index.
 * An unknown word gets "did you mean". */
int ry_yget_enum(const ry_ynode *n, const char *what, const char *const *words, int *out);
/* The node is a map (or null, meaning an empty map: returns 0 with *is_null
 * set when is_null is given). Error "X must be a map (got ...)" otherwise. */
int ry_yget_map(const ry_ynode *n, const char *what, int *is_null);

/* Checks that every key of map is in allowed (NULL-terminated; an entry
 * ending in '*' allows every key with that prefix, e.g. "x-*"). Each unknown
 * key is an error at the key: "unknown key 'nodse' in cluster; did you mean
 * 'nodes'?" (what == NULL or "" names the top level). Returns the number of
 * unknown keys. */
int ry_ycheck_keys(const ry_ynode *map, const char *what, const char *const *allowed);

/* The closest word to got among words (n of them, or NULL-terminated when
 * n < 0), compared without case: edit distance <= 2, or one is a prefix of the
 * other. NULL when nothing is close. */
const char *ry_suggest(const char *got, const char *const *words, int n);

/* Sets the scalar at a dotted path, as `--set KEY=VALUE` does. value is
 * parsed as YAML (so "128" is a number, "\"128\"" a string, "[2:1, 1:1]" a
 * list). at is where KEY starts ({"--set", argno, 1}); parts of the key and
 * the value get positions at their offsets in "KEY=VALUE". Missing maps on
 * the way are created; a scalar on the way becomes {name: scalar} (so
 * fabric.switch.radix can be set when the spec says `switch: qm9700`); null
 * becomes an empty map. Returns 0, or -1 after printing an error. */
int ry_ydoc_set(ry_ydoc *d, const char *dotted, const char *value, ry_pos at);
/* Removes the entry at a dotted path if present; returns 1 if removed. */
int ry_ydoc_remove(ry_ydoc *d, const char *dotted);

/* A copy of d leaving out the top-level keys in skip (NULL-terminated, may
 * be NULL) with their values: new nodes (a node aliased twice is one node
 * of the copy, referred to twice), the same positions (in the copy's own
 * file name). Costs the size of what is copied, not of d. */
ry_ydoc *ry_ydoc_copy(const ry_ydoc *d, const char *const *skip);

/* The document as YAML (block maps and lists, aliases written out, no
 * comments), leaving out the top-level keys in skip (NULL-terminated, may
 * be NULL). A scalar written quoted stays a quoted string; a plain one is
 * written plain where YAML reads it back as the same text, else quoted.
 * Loading the output gives the same tree. */
struct ry_buf;
void ry_ydoc_emit(const ry_ydoc *d, const char *const *skip, struct ry_buf *out);

#endif
