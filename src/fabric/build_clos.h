/* The Clos builder (build_clos.c): the graph of a checked spec at its own
 * size. ry_fabric_build (fabric/build.c) calls it, or reserve mode
 * (fabric/reserve.c) for a phase of a larger target, which calls it for the
 * target; it calls neither back. */
#ifndef RY_BUILD_CLOS_H
#define RY_BUILD_CLOS_H

#include "fabric/fabric.h"

/* Builds s (its growth target, if any, not considered) into f. -1 with err
 * set, f freed, when it cannot be built (ry_fabric_build has the cases). */
int ry_clos_build(const ry_spec *s, ry_fabric *f, ry_err *err);

#endif
