/* Slurm topology files, so the scheduler places jobs where the network is
 * best:
 *   topology.conf        the topology/tree plugin,
 *   topology-block.conf  the topology/block plugin (Slurm 23.11 and later),
 *   topology.yaml        both, as Slurm 25.05's topology.yaml (tree the
 *                        cluster default, block selectable per partition).
 *
 * Slurm's tree gives each node one leaf switch; a rail-optimized or
 * rail-only node has one leaf per rail, so each scalable unit (all the rail
 * leaves of its nodes) is one logical switch. Fat-tree leaves hold whole
 * nodes and stay themselves. Above them, units (or leaves) are grouped where
 * they meet below the top on every rail and plane, up to one root. Blocks
 * are the HB (NVLink) domains when a domain spans several nodes (an NVL72
 * rack), else the tree's leaf switches. Each file's comments say what its
 * names stand for. Host names follow the spec's naming pattern; node lists
 * are hostlist expressions. */
#ifndef RY_EMIT_SLURM_H
#define RY_EMIT_SLURM_H

#include "emit/outdir.h"
#include "fabric/fabric.h"

/* Writes <prefix>/topology.conf, topology-block.conf and topology.yaml
 * into o; -1 when a file cannot be written. */
int ry_emit_slurm(ry_outdir *o, const char *prefix, const ry_fabric *f);

/* Checks what the Slurm files need of a fabric that a spec can get wrong:
 * distinct host names (a naming pattern without {n} or {n1} repeats them).
 * -1 with err set (err->key names the spec key) when it fails. */
int ry_slurm_check(const ry_fabric *f, ry_err *err);

/* Counts of the last ry_emit_slurm call, for the command's report. */
typedef struct ry_slurm_stats {
    long long nodes;
    int leaf_switches;      /* logical leaf switches in topology.conf */
    int switches;           /* every SwitchName line */
    int blocks;             /* base blocks in topology-block.conf */
    int block_sizes;        /* values on the BlockSizes line */
} ry_slurm_stats;
void ry_slurm_last_stats(ry_slurm_stats *st);

#endif
