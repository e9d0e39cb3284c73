/* The real hardware in the plan: its GUIDs, and the fabric as it is cabled.
 *
 * ry_hw_guids_from_fabric and ry_hw_guids_from_inventory set the plan's
 * GUIDs (ry_ibplan_set_*) to the hardware's, every device of the plan or an
 * error naming those left without one; the files OpenSM reads then carry
 * them. ry_fabric_as_found copies the planned graph with the cables
 * verify found between planned ports (switch to switch across tiers, NIC to
 * leaf) instead of the planned ones, for routing a fabric with findings. */
#ifndef RY_HW_GUIDS_H
#define RY_HW_GUIDS_H

#include "analysis/verify.h"
#include "fabric/ibplan.h"
#include "ibfmt/guidfile.h"

/* as_found: devices not in the files keep the plan's derived GUIDs (they
 * carry no route); otherwise they are an error. */
int ry_hw_guids_from_fabric(const ry_verify *v, ry_ibplan *pl, int as_found, ry_err *err);
int ry_hw_guids_from_inventory(const ry_inventory *inv, ry_ibplan *pl, ry_err *err);

/* A copy of v's planned fabric cabled as found; ry_fabric_free it (also
 * after a failure). *left is the number of found cables left out (same
 * tier, or not between planned ports: they carry no route). Returns 0, or
 * -1 with err (file:line) when a found cable joins two planned subnets. */
int ry_fabric_as_found(const ry_verify *v, ry_fabric *out, long long *left, ry_err *err);

/* What the as-found routes cannot deliver: a NIC of the plan that is not
 * cabled (leaf -1: no route reaches it), or a NIC a leaf's row has no route
 * to (no NIC on that leaf reaches it). */
typedef struct ry_hole {
    int32_t leaf;       /* switch node id, or -1 */
    int32_t nic;        /* NIC port id (gpu * planes + plane) */
    int32_t sources;    /* the NICs on the leaf, whose routes to nic fail */
} ry_hole;

/* pl is the plan of the as-found fabric (its f), v the verification of the
 * planned one; *out is allocated (free it). Returns the number of holes. */
size_t ry_as_found_holes(const ry_verify *v, const ry_ibplan *pl, ry_hole **out);

#endif
