/* gnuplot as a program in a private directory (see emit_model_plot.h). */
#include "emit/emit_model_plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/diag.h"

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
    const char *tmp = getenv("TMPDIR");
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_printf(&b, "%s/railyard-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(b.data)) {
        ry_error("cannot create a temporary directory '%s': %s", b.data, strerror(errno));
        ry_buf_free(&b);
        return NULL;
    }
    ry_plotdir *p = ry_xcalloc(1, sizeof *p);
    p->dir = b.data;
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
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        ry_buf_printf(msg, "cannot start %s: %s", prog, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* gnuplot's messages go to a file the parent reads back. */
        if (chdir(p->dir) < 0)
            _exit(126);
        int fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0666);
        int nul = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (nul >= 0)
            dup2(nul, 0);
        execlp(prog, prog, script, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            ry_buf_printf(msg, "waiting for %s: %s", prog, strerror(errno));
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    ry_buf log;
    ry_buf_init(&log);
    ry_plotdir_read(p, "gnuplot.log", &log);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        ry_buf_printf(msg, "cannot run %s", prog);
    else
        ry_buf_printf(msg, "%s failed%s%s", prog, log.len ? ": " : "", log.len ? log.data : "");
    ry_buf_free(&log);
    return -1;
}

void ry_plotdir_free(ry_plotdir *p)
{
    if (!p)
        return;
    DIR *d = opendir(p->dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char *path = path_in(p, e->d_name);
            unlink(path);
            free(path);
        }
        closedir(d);
    }
    rmdir(p->dir);
    free(p->dir);
    free(p);
}
