/* Slurm topology files, so the scheduler places jobs where the network is
 * best:
 *   topology.conf        the topology/tree plugin (Slurm 22.05 on),
 *   topology-block.conf  the topology/block plugin: Slurm 24.05 and later
 *                        (BlockSizes; 23.11 knows only BlockLevels), to be
 *                        installed as topology.conf,
 *   topology.yaml        both, as Slurm 25.05's topology.yaml (tree the
 *                        cluster default, block selectable per partition),
 *   slurm.conf.fragment  NodeName (Gres, Features), PartitionName and
 *                        TopologyPlugin lines,
 *   gres.conf            the GPUs' device files.
 *
 * The tree and the blocks are derived in analysis/slurm_tree.h; this writes
 * them, with comments in each file saying what its names stand for. Host
 * names follow the spec's naming pattern; node lists are hostlist
 * expressions. */
#ifndef RY_EMIT_SLURM_H
#define RY_EMIT_SLURM_H

#include "analysis/slurm_tree.h"
#include "io/outdir.h"

/* Writes <prefix>/topology.conf, topology-block.conf, topology.yaml,
 * slurm.conf.fragment and gres.conf into o; -1 when a file cannot be written. */
int ry_emit_slurm(ry_outdir *o, const char *prefix, const ry_slurm_tree *t);

#endif
