/* Reserve mode: a phase of a cluster that grows to a final size
 * (growth.target_nodes or growth.target_gpus) is the target's fabric cut
 * down to the phase's GPUs, so that every later phase only adds.
 *
 * Given the target's graph T and the phase's GPUs [0, gpus):
 *   keep the GPUs and their links;
 *   keep a leaf that has a kept GPU (fabric.full_units: every leaf of a
 *     scalable unit that has one);
 *   per subnet, the top of the phase is the lowest tier one of whose
 *     switches has every kept leaf below it (one block holds them all);
 *     keep the switches of tiers 2..top that have a link from a kept switch
 *     of the tier below, and drop the rest;
 *   keep the links between kept nodes, but from tier 2 up a switch keeps
 *     only as many uplinks (its first) as its kept down-links need at its
 *     taper, and an upper switch only when a kept link reaches it: a later
 *     phase adds those cables without moving any (every link between kept
 *     nodes stays when the pruned phase would leave a subnet's leaves
 *     apart).
 * Kept switches keep every port (the unused ones are the reserve), their
 * number (so their names, and the cable labels named after them), plane,
 * tier, rails and group; every port keeps the target's LID (ry_reserve_ids,
 * fabric.h). Node and link ids are dense again, GPUs first, in the
 * target's order, so the result is deterministic. */
#ifndef RY_RESERVE_H
#define RY_RESERVE_H

#include "fabric/fabric.h"

/* Builds into f the phase of s (s->growth.target_gpus > s->gpus) as above;
 * f->spec is s. -1 with err set when the target cannot be built. */
int ry_reserve_build(const ry_spec *s, ry_fabric *f, ry_err *err);

/* The target's spec: s at the target's size, without a growth target
 * (nothing else derives from the size before the builder). */
void ry_reserve_target_spec(const ry_spec *s, ry_spec *out);

#endif
