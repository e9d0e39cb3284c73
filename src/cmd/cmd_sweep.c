#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/vary.h"
#include "emit/model/emit_model.h"
#include "emit/model/emit_model_plot.h"
#include "util/numfmt.h"
#include "io/outdir.h"
#include "model/iteration.h"
#include "model/plan.h"
#include "study/sweep.h"
#include "util/buf.h"
#include "util/diag.h"

#define MAX_VARY RY_SWEEP_MAX_AXES
#define MAX_POINTS 20000

enum { O_VARY, O_OUTPUT, O_FORCE, O_PAPER, O_N };
static const ry_option options[] = {
    [O_VARY] = { "vary", 0, RY_OPT_LIST, "KEY=VALUES", NULL,
                 "a spec key and its values: a list (512,1024,2048), a range\n"
                 "A..B (A, 2A, 4A, ... up to B), A..B+STEP or A..B*FACTOR;\n"
                 "repeatable: every combination is a point" },
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("write DIR/sweep.csv, sweep.gp, sweep.png and sweep.svg\n"
                                      "(standard output gets the CSV without -o)"),
    [O_FORCE] = RY_OPTION_FORCE,
    [O_PAPER] = RY_OPTION_PAPER,
    [O_N] = RY_OPTION_END
};

/* --paper: eq. 1 chose without a memory limit, and its output is the
 * paper's; how many of its layouts fit the GPU's memory is said apart. */
static void paper_memory(const ry_sweep_point *pts, long long npts)
{
    long long valid = 0, fit = 0, known = 0;
    double worst = 0, cap = 0;
    for (long long i = 0; i < npts; i++) {
        if (!pts[i].ok)
            continue;
        valid++;
        if (pts[i].mem.capacity <= 0)
            continue;
        known++;
        fit += pts[i].mem.feasible;
        if (!pts[i].mem.feasible && pts[i].mem.total > worst) {
            worst = pts[i].mem.total;
            cap = pts[i].mem.capacity;
        }
    }
    if (!known)
        fprintf(stderr, "railyard: sweep --paper: the GPU's memory is unknown (gpus.yaml): "
                "no memory check\n");
    else if (fit == known)
        fprintf(stderr, "railyard: sweep --paper: eq. 1's layout fits the GPU's memory at all "
                "%s valid point%s\n", ry_n(valid), valid == 1 ? "" : "s");
    else
        fprintf(stderr, "railyard: sweep --paper: eq. 1's layout fits the GPU's memory at %s "
                "of %s point%s (it ignores memory; the worst needs %.1f GB per GPU of %.0f GB; "
                "without --paper the full model chooses layouts that fit)\n", ry_n(fit), ry_n(known),
                known == 1 ? "" : "s", worst / 1e9, cap / 1e9);
}

/* KEY=LIST|RANGE; -1 after a usage error (nothing left to free). */
static int parse_vary(const ry_ctx *c, const char *arg, ry_vary *v)
{
    const char *why = NULL;
    if (ry_vary_parse(arg, v, &why) == 0)
        return 0;
    char shown[RY_SHOWN_MAX];
    ry_usage(c, "--vary %s: %s", ry_shown(shown, arg), why);
    return -1;
}

/* What went wrong at the points, one entry per reason: a diagnostic line
 * with its numbers masked, so "the batch (64 sequences) is smaller than the
 * 256 HB domains" and the same at 128 are one reason hit by two points. */
#define MAX_REASONS 64
#define EXAMPLES 3
typedef struct reason {
    char *text;             /* the first line seen */
    char *shape;            /* its numbers masked */
    int points;
    char *example[EXAMPLES];   /* the first points it hit */
} reason;

typedef struct reasons {
    reason r[MAX_REASONS];
    int n, dropped;
} reasons;

static char *masked(const char *line)
{
    char *m = ry_xstrdup(line), *w = m;
    for (const char *p = line; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            while (p[1] >= '0' && p[1] <= '9')
                p++;
            *w++ = '#';
        } else {
            *w++ = *p;
        }
    }
    *w = '\0';
    return m;
}

/* Counts each distinct reason among a point's diagnostics once. */
static void reasons_add(reasons *rs, const char *diag, const char *point)
{
    int seen[MAX_REASONS] = { 0 };
    char *copy = ry_xstrdup(diag), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *shape = masked(line);
        int i = 0;
        while (i < rs->n && strcmp(rs->r[i].shape, shape) != 0)
            i++;
        if (i == rs->n) {
            if (rs->n == MAX_REASONS) {
                rs->dropped++;
                free(shape);
                continue;
            }
            rs->r[rs->n++] = (reason){ .text = ry_xstrdup(line), .shape = shape };
        } else {
            free(shape);
        }
        if (seen[i])
            continue;
        seen[i] = 1;
        reason *r = &rs->r[i];
        if (r->points < EXAMPLES)
            r->example[r->points] = ry_xstrdup(point);
        r->points++;
    }
    free(copy);
}

static void reasons_print(const reasons *rs, FILE *fp)
{
    for (int i = 0; i < rs->n; i++) {
        const reason *r = &rs->r[i];
        fprintf(fp, "%s\n  (%s point%s: ", r->text, ry_n(r->points), r->points == 1 ? "" : "s");
        for (int k = 0; k < r->points && k < EXAMPLES; k++)
            fprintf(fp, "%s%s", k ? "; " : "", r->example[k]);
        if (r->points > EXAMPLES)
            fprintf(fp, "; ...");
        fputs(")\n", fp);
    }
    if (rs->dropped)
        fprintf(fp, "railyard: sweep: %d more kinds of message not shown\n", rs->dropped);
}

/* ry_sweep_said: a point's messages, kept by reason. */
static void said(void *arg, const char *diag, const char *point)
{
    reasons_add(arg, diag, point);
}

static void reasons_free(reasons *rs)
{
    for (int i = 0; i < rs->n; i++) {
        free(rs->r[i].text);
        free(rs->r[i].shape);
        for (int k = 0; k < EXAMPLES; k++)
            free(rs->r[i].example[k]);
    }
}

/* Writes the files of a sweep into dir; returns an exit code. */
static int write_sweep(const char *dir, unsigned flags, const char *title,
                       const char *const *keys, int nkeys, const ry_sweep_point *pts, int npts,
                       int good)
{
    ry_buf csv, gp;
    ry_buf_init(&csv);
    ry_buf_init(&gp);
    ry_emit_sweep_csv(&csv, keys, nkeys, pts, npts);
    ry_emit_sweep_script(&gp, title, keys, nkeys, pts, npts);
    int plotted = 0;
    int bad = ry_plot_write_set(dir, flags, "sweep", &csv, &gp, &plotted) < 0;
    if (!bad)
        printf("%s point%s (%s valid, %s invalid) written to %s/sweep.csv%s\n", ry_n(npts),
               npts == 1 ? "" : "s", ry_n(good), ry_n(npts - good), dir,
               plotted ? " with sweep.png and sweep.svg" : "");
    ry_buf_free(&csv);
    ry_buf_free(&gp);
    return bad ? RY_EXIT_IO : RY_EXIT_OK;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_vary vs[MAX_VARY];
    int nv = 0;
    ry_cmd_status rc = RY_CMD_OK;
    const char **given = ctx->list[O_VARY];
    for (int i = 0; given && given[i] && rc == RY_CMD_OK; i++) {
        if (nv == MAX_VARY)
            rc = ry_usage(ctx, "at most %d --vary options", MAX_VARY);
        else if (parse_vary(ctx, given[i], &vs[nv]) < 0)
            rc = RY_CMD_USAGE;
        else
            nv++;
    }
    if (rc == RY_CMD_OK && nv == 0)
        rc = ry_usage(ctx, "give at least one --vary KEY=VALUES");
    long long npts = 1;
    for (int k = 0; rc == RY_CMD_OK && k < nv; k++) {
        npts *= vs[k].n;
        if (npts > MAX_POINTS)
            rc = ry_usage(ctx, "the sweep has more than %s points", ry_n(MAX_POINTS));
    }
    if (rc != RY_CMD_OK) {
        for (int k = 0; k < nv; k++)
            ry_vary_free(&vs[k]);
        return rc;
    }
    const char *path = ctx->arg, *dir = ctx->out;
    const char *keys[MAX_VARY];
    for (int k = 0; k < nv; k++)
        keys[k] = vs[k].key;
    ry_sweep_point *pts = ry_xcalloc((size_t)npts, sizeof *pts);
    char title[256];
    reasons *why = ry_xcalloc(1, sizeof *why);
    long long good = ry_sweep_run(path, ctx->sets, ctx->nsets, vs, nv,
                                  ry_templates_dir(ctx->templates), ctx->given[O_PAPER] > 0, pts,
                                  npts, title, sizeof title, said, why);
    fflush(stdout);
    reasons_print(why, stderr);
    if (ctx->given[O_PAPER] && good)
        paper_memory(pts, npts);
    if (good < npts)
        fprintf(stderr, "railyard: sweep: %s point%s, %s valid, %s invalid (%s)\n", ry_n(npts),
                npts == 1 ? "" : "s", ry_n(good), ry_n(npts - good),
                good ? "their rows are left empty" : "nothing written");
    reasons_free(why);
    free(why);
    if (!good) {
        ry_error("sweep: none of the %s point%s is valid", ry_n(npts), npts == 1 ? "" : "s");
        rc = RY_CMD_INPUT;
    } else if (dir)
        rc = (ry_cmd_status)write_sweep(dir, ry_out_flags(ctx), title, keys, nv, pts, (int)npts,
                                        good);
    else {
        ry_buf out;
        ry_buf_init(&out);
        ry_emit_sweep_csv(&out, keys, nv, pts, (int)npts);
        rc = ry_write_output(ctx, NULL, out.data, out.len);
        ry_buf_free(&out);
    }
    for (long long p = 0; p < npts; p++)
        free(pts[p].values);
    free(pts);
    for (int k = 0; k < nv; k++)
        ry_vary_free(&vs[k]);
    return rc;
}

const ry_cmd_entry ry_cmd_sweep = {
    .name = "sweep",
    .synopsis = "SPEC --vary KEY=VALUES [--vary KEY=VALUES]... [--paper] [-o DIR] [--force]",
    .summary = "the model over a grid of spec values: CSV and plots",
    .positional = "SPEC",
    .options = options,
    .details = "Values apply like --set before validation; a point whose spec is invalid is\n"
               "left empty, and each reason is reported once with the points it hit (exit 1\n"
               "when no point is valid). The plots draw the iteration time (ideal dashed) and\n"
               "the relative performance against the first --vary key, one line per value of\n"
               "the others. Without gnuplot only the CSV and the script are written. The full\n"
               "model adds its columns (pipeline, memory, ...); --paper sweeps eq. 1 alone.\n"
               "The last column, layout, names each point's layout as `model` does.\n",
    .run = run,
};
