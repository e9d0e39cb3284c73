/* What a growth reserve (growth.target_nodes or target_gpus, fabric/reserve.h)
 * costs now and saves later, for validate's summary.
 *
 * Now: the capex (ry_fabric_capex) of the phase with the reserve against the
 * same phase built without it: switches bought early, their rack units and
 * racks. Later: the phase built without the reserve set against the target,
 * cable by cable by their ends (a switch end by its name and port, a GPU end
 * by the GPU and plane): a cable the target has not between the same ends
 * would have to move or go; a switch whose name the target has not would
 * be retired. The phase with the reserve is held to the same test (it
 * should move nothing). Names are compared, never ids, so two separately
 * built graphs meet. */
#ifndef RY_GROWTH_H
#define RY_GROWTH_H

#include "analysis/bom.h"
#include "fabric/fabric.h"

typedef struct ry_growth {
    long long target_gpus, target_nodes;
    /* now */
    ry_capex with, without;         /* the phase with and without the reserve */
    long long switches_with, switches_without;
    long long switch_units_with, switch_units_without;  /* rack units of the switches */
    /* later */
    long long cables_without;       /* cables of the phase without the reserve */
    long long moved_without;        /* of them, those the target has not: moved or removed */
    long long switches_retired;     /* switches of the phase without it the target has not */
    long long cables_with;          /* cables of the phase with the reserve */
    long long moved_with;           /* of them, those the target has not (0 when it holds) */
    long long cables_target;        /* cables of the target */
} ry_growth;

/* For f, a phase built with its reserve (f->reserve set): builds the phase
 * without it and the target, and compares. -1 with err set when one of them
 * cannot be built, laid out or cabled. Leaves nothing to free. */
int ry_growth_compute(const ry_fabric *f, const ry_media_catalog *media, ry_growth *g,
                      ry_err *err);

#endif
