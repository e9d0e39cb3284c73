/* gnuplot as a program in a private directory (see emit_model_plot.h). */
#include "emit/model/emit_model_plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/outdir.h"
#include "util/cleanup.h"
#include "util/diag.h"
#include "util/proc.h"

struct ry_plotdir {
    char *dir;
};

const char *ry_gnuplot_program(void)
{
    static char found[4096];
    const char *env = getenv("RAILYARD_GNUPLOT");
    if (env)
        return *env && strcmp(env, "none") != 0 ? env : NULL;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && n + sizeof "/gnuplot" < sizeof found) {
            memcpy(found, path, n);
            memcpy(found + n, "/gnuplot", sizeof "/gnuplot");
            if (access(found, X_OK) == 0)
                return found;
        }
        path += n + (colon ? 1 : 0);
    }
    return NULL;
}

ry_plotdir *ry_plotdir_new(void)
{
    char *dir = ry_tmpdir_new("plot", 0);
    if (!dir)
        return NULL;
    ry_plotdir *p = ry_xcalloc(1, sizeof *p);
    p->dir = dir;
    return p;
}

static char *path_in(const ry_plotdir *p, const char *name)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_printf(&b, "%s/%s", p->dir, name);
    return b.data;
}

int ry_plotdir_write(ry_plotdir *p, const char *name, const void *data, size_t len)
{
    char *path = path_in(p, name);
    FILE *fp = fopen(path, "wb");
    int rc = 0;
    if (!fp || (len && fwrite(data, 1, len, fp) != len))
        rc = -1;
    if (fp && fclose(fp) != 0)
        rc = -1;
    if (rc < 0)
        ry_error("cannot write '%s': %s", path, strerror(errno));
    free(path);
    return rc;
}

int ry_plotdir_read(ry_plotdir *p, const char *name, ry_buf *out)
{
    char *path = path_in(p, name);
    FILE *fp = fopen(path, "rb");
    free(path);
    if (!fp)
        return -1;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        ry_buf_add(out, chunk, n);
    int bad = ferror(fp);
    fclose(fp);
    return bad ? -1 : 0;
}

int ry_plotdir_run(ry_plotdir *p, const char *script, ry_buf *msg)
{
    const char *prog = ry_gnuplot_program();
    if (!prog) {
        ry_buf_puts(msg, "gnuplot is not installed");
        return -1;
    }
    /* gnuplot writes its images into the directory; what it says on
     * either stream is kept for the message */
    const char *argv[] = { prog, script, NULL };
    ry_buf said;
    ry_buf_init(&said);
    ry_proc run = { argv, p->dir, NULL, 0, &said, &said };
    ry_proc_result r;
    int rc = ry_proc_run(&run, &r);
    if (rc < 0)
        ry_proc_describe(&run, &r, msg);
    ry_buf_free(&said);
    return rc;
}

void ry_plotdir_free(ry_plotdir *p)
{
    if (!p)
        return;
    ry_tmpdir_free(p->dir);
    free(p);
}

int ry_plot_render(const char *script, const ry_buf *gp, const char *const *names, ry_buf *imgs,
                   int n, ry_buf *msg)
{
    if (!ry_gnuplot_program())
        return -1;
    ry_plotdir *pd = ry_plotdir_new();
    int rc = pd && ry_plotdir_write(pd, script, gp->data, gp->len) == 0
             && ry_plotdir_run(pd, script, msg) == 0 ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; i++)
        if (ry_plotdir_read(pd, names[i], &imgs[i]) < 0) {
            ry_buf_printf(msg, "gnuplot wrote no %s", names[i]);
            rc = -1;
        }
    ry_plotdir_free(pd);
    return rc;
}

int ry_plot_write_set(const char *dir, unsigned flags, const char *base, const ry_buf *csv,
                      const ry_buf *gp, int *plotted)
{
    char name[4][64];
    static const char *const ext[] = { "csv", "gp", "png", "svg" };
    for (int i = 0; i < 4; i++)
        snprintf(name[i], sizeof name[i], "%s.%s", base, ext[i]);
    ry_buf img[2], msg;
    ry_buf_init(&img[0]);
    ry_buf_init(&img[1]);
    ry_buf_init(&msg);
    const char *const images[] = { name[2], name[3] };
    *plotted = 0;
    if (ry_gnuplot_program()) {
        if (ry_plot_render(name[1], gp, images, img, 2, &msg) == 0)
            *plotted = 1;
        else if (msg.len)
            ry_warn("no plot: %s", msg.data);
    } else
        ry_warn("gnuplot is not installed: writing %s and %s without the plots "
                "(install gnuplot-nox, or run gnuplot %s later)", name[0], name[1], name[1]);
    ry_outdir *o = ry_outdir_begin(dir, flags);
    int bad = !o;
    /* Plots of an earlier run go when gnuplot made none this time. */
    ry_outdir_own(o, name[2]);
    ry_outdir_own(o, name[3]);
    const ry_buf *b[] = { csv, gp, &img[0], &img[1] };
    for (int i = 0; !bad && i < 4; i++)
        if (i < 2 || *plotted)
            bad = ry_outdir_put(o, name[i], b[i]->data, b[i]->len) < 0;
    if (o) {
        if (bad)
            ry_outdir_abort(o);
        else
            bad = ry_outdir_commit(o) < 0;
    }
    ry_buf_free(&img[0]);
    ry_buf_free(&img[1]);
    ry_buf_free(&msg);
    return bad ? -1 : 0;
}
