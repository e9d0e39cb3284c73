/* sweep's engine: the model at one point of a sweep (every combination of
 * the --vary values is a point, loaded by cmd_sweep.c as the spec with
 * those values set), with the result the reports take (emit/model/
 * emit_model.h: sweep.csv and its plot). Nothing to free: a point's values
 * are borrowed from the command's --vary lists. */
#ifndef RY_STUDY_SWEEP_H
#define RY_STUDY_SWEEP_H

#include "model/iteration.h"
#include "model/plan.h"
#include "spec/spec.h"

/* One point of a sweep: the values of the varied keys, as given. */
typedef struct ry_sweep_point {
    const char **values;
    int ok;                 /* 0: the spec was invalid at this point */
    ry_model m;             /* eq. 1's, or the full model's choice in its terms */
    int full;               /* 1: the full model (cfg holds its choice) */
    ry_plan_cfg cfg;
    char model[RY_NAME_MAX];
    long long gpus, hb_domain;
    ry_plan_mem mem;        /* the layout's memory per GPU (--paper: reported only) */
    ry_parallelism par;     /* the layout, as every report names it */
} ry_sweep_point;

/* The model at one point: eq. 1 (paper 1) or the full model; fills pt's m,
 * full, cfg, mem and par. -1 (error printed) when it cannot be computed. */
int ry_sweep_point_compute(const ry_spec *s, int paper, ry_sweep_point *pt);

#endif
