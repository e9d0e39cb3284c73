/* What a growth reserve (growth.target_nodes or target_gpus, fabric/reserve.h)
 * costs now and saves later, for validate's summary.
 *
 * Now: the capex (ry_fabric_capex) of the phase with the reserve against the
 * same phase built without it: switches bought early, their rack units and
 * racks. Later: the phase built without the reserve grown to the target,
 * as `railyard expand` sees it (analysis/expand.h): the cables that move or
 * go, those replaced, the switches retired and their list price, the GPUs
 * cut off while it is done, the devices relocated. The phase with the
 * reserve is held to the same test (it should move nothing). */
#ifndef RY_GROWTH_H
#define RY_GROWTH_H

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "fabric/fabric.h"

/* What growing a phase to the target takes (expand of the phase to it). */
typedef struct ry_growth_later {
    long long cables;               /* the phase's cables */
    long long moved;                /* of them, not kept in place: moved or removed */
    long long replaced;             /* kept or moved, but too short or of another medium */
    long long switches_retired;     /* the phase's switches the target has not */
    double retired;                 /* list price of the switches, cables and optics retired */
    long long gpus_cut;             /* GPUs cut off while the cables are moved */
    long long relocated;            /* servers and switches the target's layout puts elsewhere */
} ry_growth_later;

typedef struct ry_growth {
    long long target_gpus, target_nodes;
    /* now */
    ry_capex with, without;         /* the phase with and without the reserve */
    long long switches_with, switches_without;
    long long switch_units_with, switch_units_without;  /* rack units of the switches */
    /* later: the phase without the reserve, and with it (nothing, when it holds) */
    ry_growth_later without_later, with_later;
    long long cables_target;        /* cables of the target */
} ry_growth;

/* For f, a phase built with its reserve (f->reserve set), and cab its
 * cabling plan (borrowed, with its layout): builds the phase without it and
 * the target, and compares. -1 with err set when one of them cannot be
 * built, laid out or cabled. Leaves nothing to free. */
int ry_growth_compute(const ry_fabric *f, const ry_cabling *cab, const ry_media_catalog *media,
                      ry_growth *g, ry_err *err);

#endif
