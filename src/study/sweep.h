/* sweep's engine: every combination of the --vary values is a point,
 * loaded as the spec with those values set and modeled (ry_sweep_run), with
 * the result the reports take (emit/model/emit_model.h: sweep.csv and its
 * plot). A point's values are borrowed from the vary lists; its values
 * array is the caller's to free. */
#ifndef RY_STUDY_SWEEP_H
#define RY_STUDY_SWEEP_H

#include "model/iteration.h"
#include "model/plan.h"
#include "spec/spec.h"
#include "util/vary.h"

/* At most this many --vary axes (each of RY_VARY limits). */
#define RY_SWEEP_MAX_AXES 8

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

/* What one point's load or model said (diag: its messages, point: its
 * values as "key=value, ..."), handed to the caller to report once. */
typedef void ry_sweep_said(void *arg, const char *diag, const char *point);

/* Runs the npts points of the nv axes vs (the first varies fastest) on the
 * spec at path with sets[nsets] (the command line's --set) and each point's
 * values set after them, named "--vary KEY=VALUE" in messages; pts[npts]
 * zeroed on entry. Each point's messages go to said (none printed). title
 * gets "SPEC NAME: MODEL" of the first valid point. Returns the number of
 * valid points. */
long long ry_sweep_run(const char *path, const ry_override *sets, int nsets, const ry_vary *vs,
                       int nv, const char *templates, int paper, ry_sweep_point *pts,
                       long long npts, char *title, size_t cap, ry_sweep_said *said, void *arg);

#endif
