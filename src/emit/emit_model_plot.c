/* gnuplot as a program in a private directory (see emit_model_plot.h). */
#include "emit/emit_model_plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
