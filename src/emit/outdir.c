#include "emit/outdir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/diag.h"

struct ry_outdir {
    char *dir;          /* final directory */
    char *stage;        /* staging directory, a sibling of dir */
    char **files;       /* relative paths staged */
    size_t nfiles, cap;
    int failed;
};

static int mkdir_p(const char *path)
{
    char *p = ry_xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; ; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) < 0 && errno != EEXIST) {
                rc = -1;
                break;
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    free(p);
    return rc;
}

ry_outdir *ry_outdir_begin(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        ry_error("cannot write output to '%s': it exists and is not a directory", dir);
        return NULL;
    }
    ry_outdir *o = ry_xcalloc(1, sizeof *o);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    o->dir = ry_xmalloc(n + 1);
    memcpy(o->dir, dir, n);
    o->dir[n] = '\0';
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_printf(&b, "%s.railyard-tmp-%ld", o->dir, (long)getpid());
    o->stage = b.data;
    if (mkdir_p(o->stage) < 0) {
        ry_error("cannot create '%s': %s", o->stage, strerror(errno));
        free(o->dir);
        free(o->stage);
        free(o);
        return NULL;
    }
    return o;
}

FILE *ry_outdir_open(ry_outdir *o, const char *relpath)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_printf(&b, "%s/%s", o->stage, relpath);
    char *slash = strrchr(b.data, '/');
    *slash = '\0';
    if (mkdir_p(b.data) < 0) {
        ry_error("cannot create '%s': %s", b.data, strerror(errno));
        ry_buf_free(&b);
        o->failed = 1;
        return NULL;
    }
    *slash = '/';
    FILE *fp = fopen(b.data, "w");
    if (!fp) {
        ry_error("cannot write '%s': %s", b.data, strerror(errno));
        o->failed = 1;
    } else {
        if (o->nfiles == o->cap) {
            o->cap = o->cap ? o->cap * 2 : 16;
            o->files = ry_xrealloc(o->files, o->cap * sizeof *o->files);
        }
        o->files[o->nfiles++] = ry_xstrdup(relpath);
    }
    ry_buf_free(&b);
    return fp;
}

int ry_outdir_close(ry_outdir *o, FILE *fp)
{
    int bad = ferror(fp);
    if (fclose(fp) != 0)
        bad = 1;
    if (bad) {
        ry_error("write error in '%s': %s", o->stage, strerror(errno));
        o->failed = 1;
        return -1;
    }
    return 0;
}

int ry_outdir_put(ry_outdir *o, const char *relpath, const void *data, size_t len)
{
    FILE *fp = ry_outdir_open(o, relpath);
    if (!fp)
        return -1;
    if (len)
        fwrite(data, 1, len, fp);
    return ry_outdir_close(o, fp);
}

static void free_outdir(ry_outdir *o)
{
    for (size_t i = 0; i < o->nfiles; i++)
        free(o->files[i]);
    free(o->files);
    free(o->dir);
    free(o->stage);
    free(o);
}

/* Removes staged files and then the directories they were in, deepest first. */
static void remove_stage(ry_outdir *o)
{
    ry_buf b;
    ry_buf_init(&b);
    for (size_t i = 0; i < o->nfiles; i++) {
        ry_buf_reset(&b);
        ry_buf_printf(&b, "%s/%s", o->stage, o->files[i]);
        unlink(b.data);
        for (char *s = strrchr(b.data, '/'); s && s > b.data + strlen(o->stage);
             s = strrchr(b.data, '/')) {
            *s = '\0';
            rmdir(b.data);
        }
    }
    rmdir(o->stage);
    ry_buf_free(&b);
}

int ry_outdir_commit(ry_outdir *o)
{
    if (o->failed) {
        ry_outdir_abort(o);
        return -1;
    }
    struct stat st;
    int rc = 0;
    if (stat(o->dir, &st) < 0) {
        /* Fresh target: one rename publishes everything at once. */
        if (rename(o->stage, o->dir) == 0) {
            free_outdir(o);
            return 0;
        }
    }
    ry_buf src, dst;
    ry_buf_init(&src);
    ry_buf_init(&dst);
    for (size_t i = 0; i < o->nfiles && rc == 0; i++) {
        ry_buf_reset(&src);
        ry_buf_reset(&dst);
        ry_buf_printf(&src, "%s/%s", o->stage, o->files[i]);
        ry_buf_printf(&dst, "%s/%s", o->dir, o->files[i]);
        char *slash = strrchr(dst.data, '/');
        *slash = '\0';
        if (mkdir_p(dst.data) < 0) {
            ry_error("cannot create '%s': %s", dst.data, strerror(errno));
            rc = -1;
            break;
        }
        *slash = '/';
        if (rename(src.data, dst.data) < 0) {
            ry_error("cannot move '%s' to '%s': %s", src.data, dst.data, strerror(errno));
            rc = -1;
        }
    }
    ry_buf_free(&src);
    ry_buf_free(&dst);
    remove_stage(o);
    free_outdir(o);
    return rc;
}

void ry_outdir_abort(ry_outdir *o)
{
    remove_stage(o);
    free_outdir(o);
}

int ry_write_stream_atomic(const char *path, int (*write)(FILE *fp, const void *arg),
                           const void *arg)
{
    if (!path || strcmp(path, "-") == 0) {
        int bad = write(stdout, arg) < 0;
        if (fflush(stdout) != 0 || bad || ferror(stdout)) {
            ry_error("cannot write to standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    ry_buf tmp;
    ry_buf_init(&tmp);
    ry_buf_printf(&tmp, "%s.railyard-tmp-%ld", path, (long)getpid());
    FILE *fp = fopen(tmp.data, "w");
    int rc = -1;
    if (!fp) {
        ry_error("cannot write '%s': %s", path, strerror(errno));
    } else {
        int bad = write(fp, arg) < 0 || ferror(fp);
        if (fclose(fp) != 0)
            bad = 1;
        if (bad || rename(tmp.data, path) < 0) {
            ry_error("cannot write '%s': %s", path, strerror(errno));
            unlink(tmp.data);
        } else {
            rc = 0;
        }
    }
    ry_buf_free(&tmp);
    return rc;
}

typedef struct bytes {
    const char *data;
    size_t len;
} bytes;

static int write_bytes(FILE *fp, const void *arg)
{
    const bytes *b = arg;
    return fwrite(b->data, 1, b->len, fp) == b->len ? 0 : -1;
}

int ry_write_file_atomic(const char *path, const char *data, size_t len)
{
    bytes b = { data, len };
    return ry_write_stream_atomic(path, write_bytes, &b);
}
