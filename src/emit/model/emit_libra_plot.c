/* LIBRA's plot: iteration time and network cost against the split of the
 * bandwidth between two dimensions (model/libra_eval.h computes the curve),
 * drawn by gnuplot run as a program (its script on standard input, the
 * image read from its standard output). */
#include "emit/model/emit_libra.h"

#include <stdio.h>
#include <stdlib.h>

#include "emit/model/emit_model_plot.h"
#include "io/outdir.h"
#include "model/libra_eval.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/proc.h"

#define NPOINTS 199

static void point_row(ry_buf *out, const ry_libra_point *pt)
{
    ry_buf_printf(out, "%.6f,%.10g,%.10g,%.10g,%.10g,%.10g\n", pt->share, pt->bw_a, pt->bw_b,
                  pt->time, pt->cost, pt->time_x_cost);
}

static void curve_csv(ry_buf *out, const ry_libra_split *sp)
{
    for (int k = 0; k < sp->npoints; k++)
        point_row(out, &sp->curve[k]);
}

static void script(ry_buf *o, const char *name, const ry_libra_problem *p,
                   const ry_libra_split *sp, const ry_buf *curve)
{
    const char *na = p->net.dim[sp->a].name, *nb = p->net.dim[sp->b].name;
    ry_buf_puts(o, "set encoding utf8\nset datafile separator \",\"\n");
    ry_buf t;
    ry_buf_init(&t);
    ry_buf_printf(&t, "%s: time and cost against the split of %s + %s (%.6g GB/s per NPU; "
                  "other dimensions at the optimum)", name, na, nb, sp->pair);
    ry_buf_puts(o, "set title ");
    ry_escape_str(o, t.data, RY_ESC_GNUPLOT);
    ry_buf_reset(&t);
    ry_buf_printf(&t, "share of %s + %s on %s", na, nb, na);
    ry_buf_puts(o, " noenhanced\nset xlabel ");
    ry_escape_str(o, t.data, RY_ESC_GNUPLOT);
    ry_buf_puts(o, " noenhanced\n");
    ry_buf_free(&t);
    ry_buf_puts(o, "set ylabel \"iteration time (s)\"\n"
                   "set y2label \"network cost (million USD)\"\n"
                   "set logscale y\nset ytics nomirror\nset y2tics\nset grid\n"
                   "set xrange [0:1]\nset key top center box opaque\n");
    ry_buf_puts(o, "$curve << EOD\n");
    ry_buf_add(o, curve->data, curve->len);
    ry_buf_puts(o, "EOD\n$optimum << EOD\n");
    ry_buf_printf(o, "%.6f,%.10g,%.10g\n", sp->optimum.share, sp->optimum.time,
                  sp->optimum.cost);
    ry_buf_puts(o, "EOD\n");
    ry_buf_puts(o, "plot $curve using 1:4 with lines lw 2 lc rgb \"#1f77b4\" title \"iteration "
                   "time\", \\\n"
                   "     $curve using 1:($5/1e6) axes x1y2 with lines lw 2 dt 2 lc rgb \"#d62728\" "
                   "title \"network cost\", \\\n"
                   "     $optimum using 1:2 with points pt 7 ps 1.6 lc rgb \"#2ca02c\" "
                   "title \"optimum\"\n");
}

/* Runs gnuplot on the script; its standard output goes to img. */
static int run_gnuplot(const char *prog, const char *scr, size_t len, ry_buf *img)
{
    const char *argv[] = { prog, NULL };
    ry_buf said, msg;
    ry_buf_init(&said);
    ry_buf_init(&msg);
    ry_proc run = { argv, NULL, scr, len, img, &said };
    ry_proc_result r;
    int rc = ry_proc_run(&run, &r);
    if (rc < 0)
        ry_proc_describe(&run, &r, &msg);
    else if (img->len == 0)
        ry_buf_printf(&msg, "%s wrote no image", prog);
    if (msg.len) {
        ry_error("%s", msg.data);
        rc = -1;
    }
    ry_buf_free(&said);
    ry_buf_free(&msg);
    return rc;
}

int ry_emit_libra_plot(const char *dir, unsigned flags, const char *name,
                       const ry_libra_problem *p, const ry_libra_result *r)
{
    ry_libra_split sp;
    ry_err err;
    if (ry_libra_split_compute(p, r, NPOINTS, &sp, &err) < 0) {
        ry_error("%s", err.msg);
        return -1;
    }
    ry_buf curve, csv, body, gp, png, svg, run;
    ry_buf_init(&curve);
    ry_buf_init(&csv);
    ry_buf_init(&body);
    ry_buf_init(&gp);
    ry_buf_init(&png);
    ry_buf_init(&svg);
    ry_buf_init(&run);
    curve_csv(&curve, &sp);
    ry_buf_puts(&csv, "share_a,bw_a_gbytes_per_s,bw_b_gbytes_per_s,time_s,libra_cost_usd,"
                      "time_x_cost\n");
    ry_buf_add(&csv, curve.data, curve.len);
    script(&body, name, p, &sp, &curve);

    ry_buf_puts(&gp, "# ");
    ry_escape_str(&gp, name, RY_ESC_LINE);
    ry_buf_puts(&gp, ": `gnuplot libra-split.gp` draws libra-split.png\n"
                     "set terminal pngcairo size 960,600 font \"sans,10\"\n"
                     "set output \"libra-split.png\"\n");
    ry_buf_add(&gp, body.data, body.len);

    int rc = 0;
    const char *prog = ry_gnuplot_program();
    if (!prog) {
        ry_warn("no gnuplot (%s): %s/libra-split.csv and libra-split.gp are written, the "
                "images are not", getenv("RAILYARD_GNUPLOT") ? "RAILYARD_GNUPLOT is none"
                                                             : "not on PATH", dir);
    } else {
        ry_buf_puts(&run, "set terminal pngcairo size 960,600 font \"sans,10\"\nset output\n");
        ry_buf_add(&run, body.data, body.len);
        if (run_gnuplot(prog, run.data, run.len, &png) < 0)
            rc = -1;
    }
    if (rc == 0 && prog) {
        ry_buf_reset(&run);
        ry_buf_puts(&run, "set terminal svg size 960,600 font \"sans,10\" background "
                          "rgb \"white\"\nset output\n");
        ry_buf_add(&run, body.data, body.len);
        if (run_gnuplot(prog, run.data, run.len, &svg) < 0)
            rc = -1;
    }
    if (rc == 0) {
        ry_outdir *o = ry_outdir_begin(dir, flags);
        ry_outdir_own(o, "libra-split.png");
        ry_outdir_own(o, "libra-split.svg");
        if (!o) {
            rc = -1;
        } else if (ry_outdir_put(o, "libra-split.csv", csv.data, csv.len) < 0 ||
                   ry_outdir_put(o, "libra-split.gp", gp.data, gp.len) < 0 ||
                   (prog && (ry_outdir_put(o, "libra-split.png", png.data, png.len) < 0 ||
                             ry_outdir_put(o, "libra-split.svg", svg.data, svg.len) < 0))) {
            ry_outdir_abort(o);
            rc = -1;
        } else if (ry_outdir_commit(o) < 0) {
            rc = -1;
        }
    }
    ry_buf_free(&curve);
    ry_buf_free(&csv);
    ry_buf_free(&body);
    ry_buf_free(&gp);
    ry_buf_free(&png);
    ry_buf_free(&svg);
    ry_buf_free(&run);
    ry_libra_split_free(&sp);
    return rc;
}
