/* The Slurm view of a fabric: the switch tree of Slurm's topology/tree
 * plugin and the blocks of its topology/block plugin, with the nodes' host
 * names. emit/topo/emit_slurm.c writes Slurm's files from it.
 *
 * Slurm's tree gives each node one leaf switch; a rail-optimized or
 * rail-only node has one leaf per rail, so each scalable unit (all the rail
 * leaves of its nodes) is one logical leaf switch. Fat-tree leaves hold
 * whole nodes and stay themselves. Above them, units (or leaves) are
 * grouped where they meet below the top on every rail and plane, up to one
 * root. Blocks are the HB (NVLink) domains when a domain spans several
 * nodes (an NVL72 rack), else the tree's logical leaves.
 *
 * Ownership: ry_slurm_tree_build returns a heap object that owns every
 * array and string in it; ry_slurm_tree_free (NULL-safe) frees it all. The
 * fabric is borrowed and must outlive the tree. Deterministic: the same
 * fabric gives the same tree, names and order. */
#ifndef RY_SLURM_TREE_H
#define RY_SLURM_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "util/diag.h"

/* Slurm's block levels 0..15: a block size is the base times 2^k, k < 16. */
#define RY_SLURM_MAX_BLOCK_LEVELS 16

/* One level of the tree: level 0 holds the logical leaves, each further
 * level groups the level below. */
typedef struct ry_slurm_level {
    int tier;           /* fabric tier whose switches join the groups (1: the
                           leaves; tiers + 1: a root above leaves that never meet) */
    int ngroups;
    int *label;         /* per logical leaf: its group at this level */
    int *parent;        /* per group of the level below: its group here (NULL at level 0) */
    char **name;        /* per group: its SwitchName */
} ry_slurm_level;

/* topology/block's blocks: ranges of node ids, listed in node order. */
typedef struct ry_slurm_blocks {
    int hb;                     /* blocks are HB domains (else the logical leaves) */
    int nodes_per_hb;           /* nodes of one HB domain when hb */
    int n;
    long long *start;           /* per block, into nodes; n + 1 */
    const long long *nodes;     /* node ids by block: own, or the tree's leaf_nodes */
    long long *own;
    long long base;             /* smallest block's node count */
    long long largest;          /* largest block's node count */
    int nsizes;                 /* BlockSizes: base, then base << k where the joined
                                   blocks share switches */
    long long sizes[RY_SLURM_MAX_BLOCK_LEVELS];
} ry_slurm_blocks;

/* Nodes that get the same slurm.conf line: same logical leaf, same HB
 * domain block (when blocks are HB domains) and same rails. */
typedef struct ry_slurm_nodeset {
    int leaf;                   /* logical leaf */
    int hbd;                    /* HB domain block, or -1 (blocks are not HB domains) */
    int nrails;                 /* rails of the nodes' GPUs when fewer than all, else 0 */
    int *rails;                 /* nrails of them, ascending */
    long long start;            /* into ry_slurm_tree.set_nodes */
    long long first;            /* its first (smallest) node */
    long long n;
} ry_slurm_nodeset;

typedef struct ry_slurm_tree {
    const ry_fabric *f;         /* borrowed */
    long long nnodes;
    int gpn;                    /* GPUs per node */
    int rail_design;            /* rail-optimized or rail-only: leaves are units */
    int merged;                 /* some node joins two groups into one leaf switch */
    char *pool;                 /* host names, NUL-terminated, back to back */
    const char **host;          /* per node, into pool */
    int nleaves;                /* logical leaves */
    int *leaf_key;              /* per logical leaf: the leaves' group (unit, leaf number) */
    int *node_leaf;             /* per node: its logical leaf */
    long long *leaf_start;      /* per logical leaf, into leaf_nodes; nleaves + 1 */
    long long *leaf_nodes;      /* node ids by logical leaf, ascending */
    size_t *rleaf_start;        /* per logical leaf, into rleaf; nleaves + 1 */
    uint32_t *rleaf;            /* real tier-1 switches by logical leaf */
    ry_slurm_level lv[RY_MAX_TIERS + 2];
    int nlv;
    int nswitches;              /* groups of every level: SwitchName lines */
    long long tier_switches[RY_MAX_TIERS + 2]; /* the fabric's switches per tier */
    ry_slurm_blocks blocks;
    int nsets;                  /* node sets, ordered by their first node */
    ry_slurm_nodeset *sets;
    long long *set_nodes;       /* node ids by set, ascending within a set */
} ry_slurm_tree;

/* Derives the tree and the blocks of f. Never fails (out of memory ends
 * the run); ry_slurm_check says beforehand whether Slurm can take them. */
ry_slurm_tree *ry_slurm_tree_build(const ry_fabric *f);
void ry_slurm_tree_free(ry_slurm_tree *t);

/* "spine" (tier 2 and below), "core" (tier 3) or "top": the word for the
 * switches of a tier in the tree's names. */
const char *ry_slurm_tier_word(int tier);

/* Block i's name: "hbdN" for HB domains, else its logical leaf's name.
 * Returns buf or a string of t. */
const char *ry_slurm_block_name(const ry_slurm_tree *t, int i, char *buf, size_t cap);

/* Checks what the Slurm files need of a fabric that a spec can get wrong:
 * distinct host names (a naming pattern without {n} or {n1} repeats them).
 * -1 with err set (err->key names the spec key) when it fails. */
int ry_slurm_check(const ry_fabric *f, ry_err *err);

#endif
