/* The iteration-time model, sweeps and the traffic analysis as text, JSON,
 * CSV and gnuplot scripts. */
#ifndef RY_EMIT_MODEL_H
#define RY_EMIT_MODEL_H

#include "analysis/bom.h"
#include "analysis/traffic.h"
#include "emit/format.h"
#include "model/iteration.h"
#include "model/plan.h"
#include "study/sweep.h"
#include "util/buf.h"

/* `railyard model`: inputs, every constant, the optimum, the ideal, the
 * costs (c may be NULL). fmt: text or JSON. */
void ry_emit_model(ry_buf *o, const ry_spec *s, const ry_model *m, const ry_designs_capex *c,
                   ry_format fmt);

/* `railyard model` with the full model (pl->paper 0), or the paper's
 * report of ry_emit_model followed by the chosen layout's memory. explain
 * (full model): each term's time, the rate it ran at and where that rate
 * comes from (text: a section at the end; JSON: "explain"). */
void ry_emit_plan(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_designs_capex *c,
                  ry_format fmt, int explain);

/* sweep.csv: a header, then one row per point (invalid ones empty); with
 * the full model, its columns after eq. 1's; last, the layout's words. */
void ry_emit_sweep_csv(ry_buf *o, const char *const *keys, int nkeys, const ry_sweep_point *pts,
                       int npts);
/* A gnuplot script drawing the sweep into sweep.png and sweep.svg: the
 * iteration time (the ideal dashed) and the relative performance against
 * the first varied key, one line per combination of the others. The data
 * is inline, so the script stands alone. */
void ry_emit_sweep_script(ry_buf *o, const char *title, const char *const *keys, int nkeys,
                          const ry_sweep_point *pts, int npts);

/* The capex beside the traffic: the fabric's and the trimmed fabric's (NULL
 * when not priced, with the reason in unpriced), and the designs' (the
 * rail-only fabric's at [1]; its paper flag shows the paper's model too). */
typedef struct ry_traffic_capex {
    const ry_capex *full, *trimmed;
    const ry_designs_capex *designs;
    char unpriced[640];
} ry_traffic_capex;

/* `railyard traffic`: the layout mapped, pair statistics, link loads per
 * tier, the trimmed fabric and the capex. trimmed and c may be NULL; f names the busiest
 * link's ends. */
void ry_emit_traffic(ry_buf *o, const ry_spec *s, const ry_fabric *f, const ry_model *m,
                     const ry_parallelism *lay, const ry_traffic *t,
                     const ry_traffic_map *map, const ry_traffic_load *ld, const ry_bom *full,
                     const ry_bom *trimmed, const ry_traffic_capex *c, ry_format fmt);
/* links.csv: every link with its ends and the bytes each way; an end is
 * named as cabling.csv names it: a GPU's by host and NIC (node001, mlx5_0),
 * a switch's by its name and IB port number (leaf0, 33). */
void ry_emit_traffic_links(ry_buf *o, const ry_fabric *f, const ry_traffic_map *map);

/* The heatmap windows: the first HB domain and the first four (at most
 * 1024 GPUs each). */
long long ry_heatmap_size(const ry_traffic *t, int wide);
/* heatmap.csv: the pairs i < j of the wide window with traffic. */
void ry_emit_heatmap_pairs(ry_buf *o, const ry_traffic *t);
/* The window as float32 bytes per ordered pair, row-major (gnuplot binary). */
void ry_heatmap_matrix(ry_buf *o, const ry_traffic *t, int wide);
/* The gnuplot script reading heatmap-1.bin and heatmap-4.bin, writing heatmap.png. */
void ry_emit_heatmap_script(ry_buf *o, const ry_spec *s, const ry_traffic *t);
/* Without gnuplot: the wide window as a binary PGM, log grey scale. */
void ry_emit_heatmap_pgm(ry_buf *o, const ry_traffic *t);

#endif
