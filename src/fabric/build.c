/* The builder's entry: a cluster's graph, at its own size or as a phase of
 * its growth target. Above both builders, so neither calls the other's
 * caller: reserve mode builds the target with the Clos builder and cuts it
 * down. */
#include "fabric/build_clos.h"
#include "fabric/fabric.h"
#include "fabric/reserve.h"

int ry_fabric_build(const ry_spec *s, ry_fabric *f, ry_err *err)
{
    if (s->growth.target_gpus > s->gpus)
        return ry_reserve_build(s, f, err);     /* a phase of a larger target */
    return ry_clos_build(s, f, err);
}

int ry_fabric_tiers_needed(const ry_spec *s, ry_err *err)
{
    ry_fabric f;
    if (ry_fabric_build(s, &f, err) < 0)
        return -1;
    int t = f.tiers;
    ry_fabric_free(&f);
    return t;
}
