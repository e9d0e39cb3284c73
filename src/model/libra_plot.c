/* LIBRA's plot: iteration time and network cost against the split of the
 * bandwidth between two dimensions, drawn by gnuplot run as a program (its
 * script on standard input, the image read from its standard output). */
#include "model/libra_report.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit/emit_model_plot.h"
#include "emit/outdir.h"

#define NPOINTS 199

void ry_libra_plot_dims(const ry_libra_problem *p, const ry_libra_result *r, int *a, int *b)
{
    int d = p->net.ndims;
    if (p->plot_dims[0] >= 0 && p->plot_dims[1] >= 0) {
        *a = p->plot_dims[0];
        *b = p->plot_dims[1];
    } else if (d <= 2) {
        *a = 0;
        *b = d > 1 ? 1 : 0;
    } else {
        int i1 = -1, i2 = -1;
        for (int i = 0; i < d; i++) {
            if (i1 < 0 || r->best.busy[i] > r->best.busy[i1]) {
                i2 = i1;
                i1 = i;
            } else if (i2 < 0 || r->best.busy[i] > r->best.busy[i2]) {
                i2 = i;
            }
        }
        *a = i1 < i2 ? i1 : i2;
        *b = i1 < i2 ? i2 : i1;
    }
}

typedef struct point {
    double share, bwa, bwb, time, cost;
} point;

static point at_share(const ry_libra_problem *p, const ry_libra_terms *t, const double *opt,
                      int a, int b, double share)
{
    double bw[RY_LIBRA_MAX_DIMS];
    memcpy(bw, opt, sizeof bw);
    double pair = opt[a] + opt[b];
    bw[a] = share * pair;
    bw[b] = pair - bw[a];
    point pt = { share, bw[a], bw[b], ry_libra_terms_time(t, bw, NULL),
                 ry_libra_cost(&p->net, bw) };
    return pt;
}

static void point_row(ry_buf *out, const point *pt)
{
    ry_buf_printf(out, "%.6f,%.10g,%.10g,%.10g,%.10g,%.10g\n", pt->share, pt->bwa, pt->bwb,
                  pt->time, pt->cost, pt->time * pt->cost);
}

void ry_libra_curve_csv(ry_buf *out, const ry_libra_problem *p, const ry_libra_result *r, int a,
                        int b, int npoints)
{
    ry_libra_terms t;
    ry_libra_terms_build(&p->net, &p->wl, &t);
    for (int k = 0; k < npoints; k++) {
        point pt = at_share(p, &t, r->best.bw, a, b, (double)(k + 1) / (npoints + 1));
        point_row(out, &pt);
    }
    ry_libra_terms_free(&t);
}

static void script(ry_buf *o, const char *name, const ry_libra_problem *p,
                   const ry_libra_result *r, int a, int b, const ry_buf *curve)
{
    const char *na = p->net.dim[a].name, *nb = p->net.dim[b].name;
    double pair = r->best.bw[a] + r->best.bw[b];
    ry_buf_puts(o, "set encoding utf8\nset datafile separator \",\"\n");
    ry_buf_printf(o, "set title \"%s: time and cost against the split of %s + %s (%.6g GB/s "
                  "per NPU; other dimensions at the optimum)\" noenhanced\n", name, na, nb, pair);
    ry_buf_printf(o, "set xlabel \"share of %s + %s on %s\" noenhanced\n", na, nb, na);
    ry_buf_puts(o, "set ylabel \"iteration time (s)\"\n"
                   "set y2label \"network cost (million USD)\"\n"
                   "set logscale y\nset ytics nomirror\nset y2tics\nset grid\n"
                   "set xrange [0:1]\nset key top center box opaque\n");
    ry_buf_puts(o, "$curve << EOD\n");
    ry_buf_add(o, curve->data, curve->len);
    ry_buf_puts(o, "EOD\n$optimum << EOD\n");
    ry_buf_printf(o, "%.6f,%.10g,%.10g\n", pair > 0 ? r->best.bw[a] / pair : 0.5, r->best.time,
                  r->best.cost);
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
    int in[2], out[2], err[2];
    if (pipe(in) < 0 || pipe(out) < 0 || pipe(err) < 0) {
        ry_error("cannot run %s: %s", prog, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        ry_error("cannot run %s: %s", prog, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        execlp(prog, prog, (char *)NULL);
        fprintf(stderr, "cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);

    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    ry_buf msg;
    ry_buf_init(&msg);
    size_t sent = 0;
    int infd = in[1];
    struct pollfd fds[3];
    int open_out = 1, open_err = 1;
    while (open_out || open_err) {
        int nf = 0;
        int io = -1, ie = -1, ii = -1;
        if (open_out) {
            fds[nf] = (struct pollfd){ out[0], POLLIN, 0 };
            io = nf++;
        }
        if (open_err) {
            fds[nf] = (struct pollfd){ err[0], POLLIN, 0 };
            ie = nf++;
        }
        if (infd >= 0) {
            fds[nf] = (struct pollfd){ infd, POLLOUT, 0 };
            ii = nf++;
        }
        if (poll(fds, (nfds_t)nf, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (ii >= 0 && fds[ii].revents) {
            ssize_t w = write(infd, scr + sent, len - sent > 65536 ? 65536 : len - sent);
            if (w > 0)
                sent += (size_t)w;
            if (w < 0 || sent == len) {
                close(infd);
                infd = -1;
            }
        }
        char buf[65536];
        if (io >= 0 && fds[io].revents) {
            ssize_t got = read(out[0], buf, sizeof buf);
            if (got > 0)
                ry_buf_add(img, buf, (size_t)got);
            else
                open_out = 0;
        }
        if (ie >= 0 && fds[ie].revents) {
            ssize_t got = read(err[0], buf, sizeof buf);
            if (got > 0)
                ry_buf_add(&msg, buf, (size_t)got);
            else
                open_err = 0;
        }
    }
    if (infd >= 0)
        close(infd);
    close(out[0]);
    close(err[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGPIPE, &old, NULL);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && img->len > 0;
    if (!ok) {
        /* The first line of what gnuplot said is usually the reason. */
        const char *m = msg.len ? msg.data : "no output";
        while (*m == '\n' || *m == ' ')
            m++;
        ry_error("gnuplot failed (%s%s): %.300s", WIFEXITED(status) ? "exit " : "signal",
                 WIFEXITED(status) ? (WEXITSTATUS(status) == 127 ? "127, not found" : "status")
                                   : "", m);
    }
    ry_buf_free(&msg);
    return ok ? 0 : -1;
}

int ry_libra_plot(const char *dir, unsigned flags, const char *name, const ry_libra_problem *p,
                  const ry_libra_result *r)
{
    int a, b;
    ry_libra_plot_dims(p, r, &a, &b);
    if (a == b) {
        ry_error("--plot needs two dimensions; the network has one");
        return -1;
    }
    if (!(r->best.bw[a] + r->best.bw[b] > 0)) {
        ry_error("--plot: dimensions '%s' and '%s' have no bandwidth at the optimum; choose "
                 "others with libra.plot_dims", p->net.dim[a].name, p->net.dim[b].name);
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
    ry_libra_curve_csv(&curve, p, r, a, b, NPOINTS);
    ry_buf_puts(&csv, "share_a,bw_a_gbps,bw_b_gbps,time_s,cost_usd,time_x_cost\n");
    ry_buf_add(&csv, curve.data, curve.len);
    script(&body, name, p, r, a, b, &curve);

    ry_buf_printf(&gp, "# %s: `gnuplot libra-split.gp` draws libra-split.png\n"
                  "set terminal pngcairo size 960,600 font \"sans,10\"\n"
                  "set output \"libra-split.png\"\n", name);
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
    return rc;
}
