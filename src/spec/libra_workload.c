/* A LIBRA workload's layers: one added with the schema's defaults, all
 * freed. Below both readers of a workload, the spec's (spec/libra_spec.c)
 * and ASTRA-sim's file (spec/libra_astra.c), which is one of the first's. */
#include "spec/libra_spec.h"

#include <stdlib.h>
#include <string.h>

#include "spec/schema.h"
#include "util/alloc.h"

ry_libra_layer *ry_libra_workload_add(ry_libra_workload *w)
{
    RY_ALLOC_GROW(w->layers, w->nlayers + 1, w->cap);
    ry_libra_layer *l = &w->layers[w->nlayers++];
    memset(l, 0, sizeof *l);
    ry_schema_defaults_in(RY_IN_LAYER, l);
    for (int p = 0; p < RY_PHASES; p++) {
        ry_schema_defaults_in(RY_IN_PHASE, &l->ph[p]);
        for (int i = 0; i < RY_LIBRA_MAX_DIMS; i++)
            l->ph[p].group[i] = 1;
    }
    return l;
}

void ry_libra_workload_free(ry_libra_workload *w)
{
    free(w->layers);
    w->layers = NULL;
    w->nlayers = w->cap = 0;
}
