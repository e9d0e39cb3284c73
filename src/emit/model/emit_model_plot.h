/* Plots with gnuplot, run as a program: a script and its data are written
 * into a private temporary directory, gnuplot runs there, and the images
 * are read back so the caller writes them into its output directory
 * atomically. pngcairo and svg output carries no timestamp, so the same
 * script gives the same bytes with the same gnuplot.
 *
 * The program is $RAILYARD_GNUPLOT when set (empty or "none": no gnuplot),
 * else gnuplot found on $PATH. */
#ifndef RY_EMIT_MODEL_PLOT_H
#define RY_EMIT_MODEL_PLOT_H

#include <stddef.h>

#include "util/buf.h"

/* The gnuplot to run, or NULL when there is none. Static storage. */
const char *ry_gnuplot_program(void);

typedef struct ry_plotdir ry_plotdir;

/* A fresh temporary directory; NULL (error printed) on failure. */
ry_plotdir *ry_plotdir_new(void);
/* Writes a file into it; -1 (error printed) on failure. */
int ry_plotdir_write(ry_plotdir *p, const char *name, const void *data, size_t len);
/* Runs gnuplot on the script file name in the directory (util/proc.h's
 * runner). -1 when it fails: why, with what gnuplot said, is in *msg. */
int ry_plotdir_run(ry_plotdir *p, const char *script, ry_buf *msg);
/* Reads a file gnuplot wrote; -1 when it is missing. */
int ry_plotdir_read(ry_plotdir *p, const char *name, ry_buf *out);
/* Removes the directory and everything in it. */
void ry_plotdir_free(ry_plotdir *p);

/* The whole round: script gp written as `script` into a fresh directory,
 * gnuplot run on it, and the n images it writes (names[i]) read into
 * imgs[i]. 0 when all were made; -1 with why in *msg (empty when gnuplot
 * is not installed at all). */
int ry_plot_render(const char *script, const ry_buf *gp, const char *const *names, ry_buf *imgs,
                   int n, ry_buf *msg);

/* A table and its plots into an output directory (io/outdir.h, flags
 * its): BASE.csv, BASE.gp and, when gnuplot makes them, BASE.png and
 * BASE.svg (those of an earlier run go when it does not; a warning says
 * why). *plotted: whether the images were written. 0, or -1 (error
 * printed, the directory as it was). */
int ry_plot_write_set(const char *dir, unsigned flags, const char *base, const ry_buf *csv,
                      const ry_buf *gp, int *plotted);

#endif
