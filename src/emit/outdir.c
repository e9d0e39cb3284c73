/* Output transactions: staged trees swapped whole, single files renamed
 * into place (the design and its limits are in outdir.h). */
#define _GNU_SOURCE 1
#include "emit/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <threads.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/cleanup.h"
#include "util/diag.h"
#include "util/progress.h"

#define MANIFEST ".railyard-manifest"
#define JOURNAL ".railyard-journal"
#define OLD_DIR ".railyard-old"
/* Names of the form .NAME.railyard-stage-<pid>-<hex> stay within NAME_MAX. */
#define NAME_KEEP 64

/* Paths named in one refusal; the rest are counted. */
#define SHOW_PATHS 5

typedef struct strv {
    char **v;
    size_t n, cap;
} strv;

static void strv_add(strv *s, const char *str)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->v = ry_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = ry_xstrdup(str);
}

static void strv_free(strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts and removes duplicates. */
static void strv_sort(strv *s)
{
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (k && strcmp(s->v[k - 1], s->v[i]) == 0)
            free(s->v[i]);
        else
            s->v[k++] = s->v[i];
    }
    s->n = k;
}

static int strv_has(const strv *s, const char *str)
{
    return s->n && bsearch(&str, s->v, s->n, sizeof *s->v, cmp_str) != NULL;
}

/* 1 when some entry of sorted s starts with prefix. */
static int strv_has_prefix(const strv *s, const char *prefix)
{
    size_t lo = 0, hi = s->n, n = strlen(prefix);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(s->v[mid], prefix) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && strncmp(s->v[lo], prefix, n) == 0;
}

struct ry_outdir {
    char *dir;          /* as the user named it, for messages */
    char *target;       /* DIR with symbolic links resolved, absolute */
    char *parent;       /* its parent directory */
    char *name;         /* its last component */
    char *stage;        /* the staging directory */
    int inside;         /* staging inside DIR (a mount point, or parent not writable) */
    int existed;
    struct stat st;     /* DIR's, when it existed */
    unsigned flags;
    int slot;           /* cleanup registration of the stage */
    strv files;         /* relative paths written */
    strv own;           /* top-level groups declared */
    strv made;          /* parents of a new DIR made by begin, outermost first */
    strv manifest;      /* the previous run's files (DIR's manifest), sorted */
    int failed;
    struct job *jobs;   /* ry_outdir_spawn's, newest first */
    struct memfile **mem;   /* a run in memory (ry_outdir_begin_memory): its files */
    size_t nmem, capmem;
    int memory;
};

/* A file of a run in memory: open_memstream's buffer. */
typedef struct memfile {
    char *rel, *data;
    size_t len;
    FILE *fp;           /* while open */
} memfile;

typedef struct job {
    thrd_t th;
    int (*fn)(void *);
    void *arg;
    int rc;
    struct job *next;
} job;

static int job_main(void *arg)
{
    job *j = arg;
    j->rc = j->fn(j->arg);
    return 0;
}

int ry_outdir_spawn(ry_outdir *o, int (*fn)(void *), void *arg)
{
    job *j = ry_xcalloc(1, sizeof *j);
    j->fn = fn;
    j->arg = arg;
    /* The job starts with the signals of util/cleanup.h blocked, so their
     * handler runs on this thread: it stops writing into the staging area
     * while the handler removes it, which a job's own thread would not. */
    sigset_t saved;
    ry_cleanup_block(&saved);
    int started = thrd_create(&j->th, job_main, j) == thrd_success;
    ry_cleanup_unblock(&saved);
    if (!started) {
        int rc = fn(arg);
        free(j);
        if (rc < 0)
            o->failed = 1;
        return rc < 0 ? -1 : 0;
    }
    j->next = o->jobs;
    o->jobs = j;
    return 0;
}

/* Waits for every job; a failed one fails the run. */
static void join_jobs(ry_outdir *o)
{
    while (o->jobs) {
        job *j = o->jobs;
        thrd_join(j->th, NULL);
        if (j->rc < 0)
            o->failed = 1;
        o->jobs = j->next;
        free(j);
    }
}

static char *join(const char *a, const char *b)
{
    ry_buf p;
    ry_buf_init(&p);
    ry_buf_printf(&p, "%s%s%s", a, a[0] && a[strlen(a) - 1] == '/' ? "" : "/", b);
    return p.data;
}

static char *first_component(const char *rel)
{
    size_t n = strcspn(rel, "/");
    char *s = ry_xmalloc(n + 1);
    memcpy(s, rel, n);
    s[n] = '\0';
    return s;
}

/* "." + the first NAME_KEEP bytes of name + "." + kind + "-" */
static char *hidden_prefix(const char *name, const char *kind)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_printf(&b, ".%.*s.railyard-%s-", NAME_KEEP, name, kind);
    return b.data;
}

/* A relative path without empty, "." or ".." components. */
static int relpath_ok(const char *rel)
{
    if (!rel || !*rel || rel[0] == '/')
        return 0;
    for (const char *s = rel; *s;) {
        size_t n = strcspn(s, "/");
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return 0;
        s += n;
        if (*s == '/')
            s++;
        else
            break;
    }
    return rel[strlen(rel) - 1] != '/';
}

/* Makes every missing directory of path; with made, records those it made. */
static int mkdir_p(const char *path, strv *made)
{
    char *p = ry_xstrdup(path);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) == 0) {
                if (made)
                    strv_add(made, p);
            } else if (errno != EEXIST) {
                rc = -1;
                break;
            } else {
                struct stat st;
                if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
                    errno = ENOTDIR;
                    rc = -1;
                    break;
                }
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    free(p);
    return rc;
}

/* Follows symbolic links at the last component of path. Returns a heap
 * path (which may not exist), or NULL with errno set. */
static char *follow_links(const char *path)
{
    char *p = ry_xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(p, &st) < 0 || !S_ISLNK(st.st_mode))
            return p;
        char link[PATH_MAX];
        ssize_t n = readlink(p, link, sizeof link - 1);
        if (n < 0) {
            free(p);
            return NULL;
        }
        link[n] = '\0';
        char *next;
        char *slash = strrchr(p, '/');
        if (link[0] == '/' || !slash) {
            next = ry_xstrdup(link);
        } else {
            slash[1] = '\0';
            next = join(p, link);
        }
        free(p);
        p = next;
    }
    free(p);
    errno = ELOOP;
    return NULL;
}

/* Splits an absolute canonical path into parent and last component. */
static void split_path(const char *path, char **parent, char **name)
{
    const char *slash = strrchr(path, '/');
    if (slash == path)
        *parent = ry_xstrdup("/");
    else {
        *parent = ry_xmalloc((size_t)(slash - path) + 1);
        memcpy(*parent, path, (size_t)(slash - path));
        (*parent)[slash - path] = '\0';
    }
    *name = ry_xstrdup(slash + 1);
}

/* 1 when directory path is the root of a mount (exchange across it is
 * impossible). */
static int is_mount_point(const char *path, const struct stat *st, const char *parent)
{
#ifdef STATX_ATTR_MOUNT_ROOT
    struct statx sx;
    if (statx(AT_FDCWD, path, 0, STATX_TYPE, &sx) == 0 &&
        (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
        return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
#endif
    struct stat pst;
    return stat(parent, &pst) < 0 || pst.st_dev != st->st_dev || pst.st_ino == st->st_ino;
}

static int renameat2_compat(const char *from, const char *to, unsigned flags)
{
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
#else
    (void)from;
    (void)to;
    (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/* ---- the journal of a swap inside DIR ----------------------------------------------------------- */

/* Moves DIR/X into stage/.railyard-old/X. */
static int move_aside(const char *target, const char *stage, const char *x)
{
    char *from = join(target, x), *olddir = join(stage, OLD_DIR), *to = join(olddir, x);
    mkdir(olddir, 0700);
    int rc = rename(from, to);
    if (rc < 0 && (errno == EEXIST || errno == ENOTEMPTY || errno == EISDIR || errno == ENOTDIR)) {
        ry_rmtree(to);
        rc = rename(from, to);
    }
    if (rc < 0)
        ry_error("cannot move '%s' aside: %s", from, strerror(errno));
    free(from);
    free(olddir);
    free(to);
    return rc;
}

/* Publishes the entries of a swap inside DIR: "drop X" moves DIR/X aside,
 * "put X" moves stage/X to DIR/X. Idempotent, so the next run can finish
 * what a killed one started: stage/X exists until X is published. */
static int roll_forward(const char *target, const char *stage, const strv *lines)
{
    int rc = 0;
    for (size_t i = 0; i < lines->n; i++) {
        const char *l = lines->v[i];
        struct stat st, sst;
        if (strncmp(l, "drop ", 5) == 0) {
            char *d = join(target, l + 5);
            if (lstat(d, &st) == 0 && move_aside(target, stage, l + 5) < 0)
                rc = -1;
            free(d);
        } else if (strncmp(l, "put ", 4) == 0) {
            char *from = join(stage, l + 4), *to = join(target, l + 4);
            if (lstat(from, &sst) == 0) {
                if (lstat(to, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISDIR(sst.st_mode)) &&
                    move_aside(target, stage, l + 4) < 0)
                    rc = -1;
                else if (rename(from, to) < 0) {
                    ry_error("cannot move '%s' to '%s': %s", from, to, strerror(errno));
                    rc = -1;
                }
            }
            free(from);
            free(to);
        }
    }
    return rc;
}

static int read_lines(const char *path, strv *out)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[PATH_MAX + 16];
    while (fgets(line, sizeof line, fp)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            line[--n] = '\0';
        if (n)
            strv_add(out, line);
    }
    int bad = ferror(fp);
    fclose(fp);
    return bad ? -1 : 0;
}

static int sorted_entries(const char *dir, strv *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            strv_add(out, e->d_name);
    closedir(d);
    strv_sort(out);
    return 0;
}

/* Finishes a swap inside DIR that a killed run left half done. */
static int recover_journal(const ry_outdir *o)
{
    char *path = join(o->target, JOURNAL);
    strv lines = { 0 };
    int rc = 0;
    if (read_lines(path, &lines) == 0) {
        const char *stage = lines.n && strncmp(lines.v[0], "stage ", 6) == 0 ? lines.v[0] + 6 : "";
        long pid = -1;
        if (strncmp(stage, ".railyard-stage-", 16) == 0 && !strchr(stage, '/'))
            pid = strtol(stage + 16, NULL, 10);
        if (pid <= 0) {
            ry_error("'%s' is not a journal railyard wrote; remove it", path);
            rc = -1;
        } else if (pid != (long)getpid() && ry_pid_alive(pid)) {
            ry_error("another railyard (pid %ld) is writing into '%s'", pid, o->dir);
            rc = -1;
        } else {
            char *sp = join(o->target, stage);
            rc = roll_forward(o->target, sp, &lines);
            if (rc == 0) {
                unlink(path);
                ry_rmtree(sp);
            }
            free(sp);
        }
    }
    strv_free(&lines);
    free(path);
    return rc;
}

/* A killed fallback swap (no RENAME_EXCHANGE): DIR renamed aside as
 * .NAME.railyard-old-PID-HEX, the complete new tree still at the matching
 * stage name: finish it. */
static void recover_swap(const ry_outdir *o)
{
    char *oldp = hidden_prefix(o->name, "old"), *stagep = hidden_prefix(o->name, "stage");
    DIR *d = opendir(o->parent);
    struct stat st;
    if (d && lstat(o->target, &st) < 0 && errno == ENOENT) {
        struct dirent *e;
        size_t n = strlen(oldp);
        while ((e = readdir(d))) {
            if (strncmp(e->d_name, oldp, n) != 0)
                continue;
            long pid = strtol(e->d_name + n, NULL, 10);
            if (pid <= 0 || ry_pid_alive(pid))
                continue;
            ry_buf s;
            ry_buf_init(&s);
            ry_buf_printf(&s, "%s/%s%s", o->parent, stagep, e->d_name + n);
            if (rename(s.data, o->target) == 0) {
                ry_buf_free(&s);
                break;
            }
            ry_buf_free(&s);
        }
    }
    if (d)
        closedir(d);
    ry_sweep_stale(o->parent, oldp);
    free(oldp);
    free(stagep);
}

/* ---- begin ---------------------------------------------------------------------------------------- */

static void free_outdir(ry_outdir *o)
{
    for (size_t i = 0; i < o->nmem; i++) {
        if (o->mem[i]->fp)
            fclose(o->mem[i]->fp);
        free(o->mem[i]->rel);
        free(o->mem[i]->data);
        free(o->mem[i]);
    }
    free(o->mem);
    free(o->dir);
    free(o->target);
    free(o->parent);
    free(o->name);
    free(o->stage);
    strv_free(&o->files);
    strv_free(&o->own);
    strv_free(&o->made);
    strv_free(&o->manifest);
    free(o);
}

/* Sets target, parent, name, existed and st; makes a new DIR's parents. */
static int resolve_dir(ry_outdir *o)
{
    char *p = ry_xstrdup(o->dir);
    for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
        p[n - 1] = '\0';
    char *t = follow_links(p);
    free(p);
    if (!t) {
        ry_error("cannot write output to '%s': %s", o->dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (stat(t, &o->st) == 0) {
        if (!S_ISDIR(o->st.st_mode)) {
            ry_error("cannot write output to '%s': it exists and is not a directory", o->dir);
            rc = -1;
        } else if (!(o->target = realpath(t, NULL))) {
            ry_error("cannot write output to '%s': %s", o->dir, strerror(errno));
            rc = -1;
        } else {
            o->existed = 1;
        }
    } else if (errno == ENOENT) {
        char *slash = strrchr(t, '/');
        const char *base = slash ? slash + 1 : t;
        char *par = slash ? ry_xstrdup(slash == t ? "/" : t) : ry_xstrdup(".");
        if (slash && slash != t)
            par[slash - t] = '\0';
        char *real = NULL;
        if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
            ry_error("cannot write output to '%s': not a directory name", o->dir);
            rc = -1;
        } else if (mkdir_p(par, &o->made) < 0 || !(real = realpath(par, NULL))) {
            ry_error("cannot create '%s': %s", par, strerror(errno));
            rc = -1;
        } else {
            o->target = join(real, base);
        }
        free(real);
        free(par);
    } else {
        ry_error("cannot write output to '%s': %s", o->dir, strerror(errno));
        rc = -1;
    }
    free(t);
    if (rc == 0)
        split_path(o->target, &o->parent, &o->name);
    return rc;
}

/* Makes an unpredictable directory prefix<pid>-<hex> in dir; errno set on
 * failure other than a name taken. */
static char *make_stage(const char *dir, const char *prefix)
{
    for (int tries = 0; tries < 100; tries++) {
        char rnd[17];
        ry_random_hex(rnd, sizeof rnd);
        ry_buf b;
        ry_buf_init(&b);
        ry_buf_printf(&b, "%s%s%s%ld-%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", prefix,
                      (long)getpid(), rnd);
        if (mkdir(b.data, 0700) == 0)
            return b.data;
        int err = errno;
        ry_buf_free(&b);
        if (err != EEXIST) {
            errno = err;
            return NULL;
        }
    }
    errno = EEXIST;
    return NULL;
}

static void remove_made(ry_outdir *o)
{
    for (size_t i = o->made.n; i-- > 0;)
        rmdir(o->made.v[i]);
}

/* "a, b, c, d, e and 3 more" of the first SHOW_PATHS of v (each after
 * prefix), into b. */
static void list_paths(ry_buf *b, const char *prefix, const strv *v)
{
    for (size_t i = 0; i < v->n && i < SHOW_PATHS; i++)
        ry_buf_printf(b, "%s'%s%s'", i == 0 ? "" : ", ", prefix, v->v[i]);
    if (v->n > SHOW_PATHS)
        ry_buf_printf(b, " and %zu more", v->n - SHOW_PATHS);
}

/* Reads DIR's manifest into o->manifest: 1 when DIR has one, 0 when not,
 * -1 (error printed) when it cannot be read. */
static int read_manifest(ry_outdir *o)
{
    char *mf = join(o->target, MANIFEST);
    strv lines = { 0 };
    struct stat st;
    int rc = 1;
    strv_free(&o->manifest);
    if (lstat(mf, &st) < 0) {
        rc = errno == ENOENT ? 0 : -1;
        if (rc < 0)
            ry_error("cannot read '%s': %s", mf, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        ry_error("cannot read '%s': not a regular file", mf);
        rc = -1;
    } else if (read_lines(mf, &lines) < 0) {
        ry_error("cannot read '%s': %s", mf, strerror(errno));
        rc = -1;
    }
    for (size_t i = 0; i < lines.n; i++)
        if (lines.v[i][0] != '#' && relpath_ok(lines.v[i]))
            strv_add(&o->manifest, lines.v[i]);
    strv_sort(&o->manifest);
    strv_free(&lines);
    free(mf);
    return rc;
}

/* An existing DIR without a manifest must be empty (railyard's bookkeeping
 * aside), unless forced: railyard wrote none of it, so it is not railyard's
 * to write into (as git clone refuses a non-empty directory). -1 (error
 * printed) when refused. */
static int check_foreign(ry_outdir *o)
{
    strv names = { 0 }, shown = { 0 };
    if (sorted_entries(o->target, &names) < 0) {
        ry_error("cannot read '%s': %s", o->dir, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < names.n; i++) {
        if (strncmp(names.v[i], ".railyard-", 10) == 0)
            continue;
        char *p = join(o->target, names.v[i]);
        struct stat st;
        int dir = lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
        free(p);
        char *shown_name = dir ? join(names.v[i], "") : ry_xstrdup(names.v[i]);
        strv_add(&shown, shown_name);
        free(shown_name);
    }
    strv_free(&names);
    int rc = 0;
    if (shown.n && (o->flags & RY_OUT_FORCE)) {
        ry_warn("writing into '%s', which railyard did not write (forced): files at paths "
                "railyard writes are replaced, the rest is kept", o->dir);
    } else if (shown.n) {
        ry_buf b;
        ry_buf_init(&b);
        char *prefix = join(o->dir, "");
        list_paths(&b, prefix, &shown);
        free(prefix);
        ry_error("'%s' is not empty and railyard did not write it (it has no %s): it holds "
                 "%s; name a new or empty directory, or use --force to write into it "
                 "(railyard's files then replace those at the same paths): nothing written",
                 o->dir, MANIFEST, b.data);
        ry_buf_free(&b);
        rc = -1;
    }
    strv_free(&shown);
    return rc;
}

ry_outdir *ry_outdir_begin(const char *dir, unsigned flags)
{
    if (!dir || !*dir) {
        ry_error("the output directory's name is empty");
        return NULL;
    }
    ry_outdir *o = ry_xcalloc(1, sizeof *o);
    o->dir = ry_xstrdup(dir);
    o->flags = flags;
    o->slot = -1;
    if (resolve_dir(o) < 0)
        goto fail;
    /* What killed runs left: a half-done swap, staging directories. */
    char *prefix = hidden_prefix(o->name, "stage");
    if (o->name[0])
        recover_swap(o);
    if (o->existed && recover_journal(o) < 0) {
        free(prefix);
        goto fail;
    }
    int has_manifest = o->existed ? read_manifest(o) : 0;
    if (has_manifest < 0 || (o->existed && !has_manifest && check_foreign(o) < 0)) {
        free(prefix);
        goto fail;
    }
    if (o->name[0])
        ry_sweep_stale(o->parent, prefix);
    if (o->existed)
        ry_sweep_stale(o->target, ".railyard-stage-");
    ry_tmpdir_sweep();

    o->inside = o->existed && (!o->name[0] || is_mount_point(o->target, &o->st, o->parent));
    /* Made and registered with the signals held: none may fall between. */
    sigset_t saved;
    ry_cleanup_block(&saved);
    if (!o->inside) {
        o->stage = make_stage(o->parent, prefix);
        if (!o->stage && o->existed && (errno == EACCES || errno == EPERM || errno == EROFS))
            o->inside = 1;
    }
    if (o->inside)
        o->stage = make_stage(o->target, ".railyard-stage-");
    int err = errno;
    if (o->stage)
        o->slot = ry_cleanup_add(o->stage);
    ry_cleanup_unblock(&saved);
    free(prefix);
    if (!o->stage) {
        ry_error("cannot create a staging directory for '%s': %s", o->dir, strerror(err));
        goto fail;
    }
    return o;
fail:
    remove_made(o);
    free_outdir(o);
    return NULL;
}

ry_outdir *ry_outdir_begin_memory(void)
{
    ry_outdir *o = ry_xcalloc(1, sizeof *o);
    o->dir = ry_xstrdup("(memory)");
    o->slot = -1;
    o->memory = 1;
    return o;
}

int ry_outdir_file(const ry_outdir *o, size_t i, const char **relpath, const char **data,
                   size_t *len)
{
    if (!o || i >= o->nmem || o->mem[i]->fp)
        return 0;
    *relpath = o->mem[i]->rel;
    *data = o->mem[i]->data ? o->mem[i]->data : "";
    *len = o->mem[i]->len;
    return 1;
}

static FILE *open_memory(ry_outdir *o, const char *relpath)
{
    RY_ASSERT(relpath_ok(relpath) && strncmp(relpath, ".railyard-", 10) != 0);
    if (o->nmem == o->capmem) {
        o->capmem = o->capmem ? 2 * o->capmem : 16;
        o->mem = ry_xrealloc(o->mem, o->capmem * sizeof *o->mem);
    }
    memfile *m = ry_xcalloc(1, sizeof *m);
    m->rel = ry_xstrdup(relpath);
    m->fp = open_memstream(&m->data, &m->len);
    if (!m->fp) {
        ry_error("cannot keep '%s' in memory: %s", relpath, strerror(errno));
        o->failed = 1;
        free(m->rel);
        free(m);
        return NULL;
    }
    o->mem[o->nmem++] = m;
    strv_add(&o->files, relpath);
    return m->fp;
}

/* A file of a run in memory closed: 1 (its stream closed), or 0 when fp is
 * not one of the run's. */
static int close_memory(ry_outdir *o, FILE *fp, int *bad)
{
    for (size_t i = o->nmem; i-- > 0;)
        if (o->mem[i]->fp == fp) {
            o->mem[i]->fp = NULL;
            *bad = ferror(fp) || fclose(fp) != 0;
            return 1;
        }
    return 0;
}

int ry_outdir_earlier(const ry_outdir *o, const char *group)
{
    if (!o)
        return 0;
    char *p = join(group, "");
    int hit = strv_has(&o->manifest, group) || strv_has_prefix(&o->manifest, p);
    free(p);
    return hit;
}

void ry_outdir_own(ry_outdir *o, const char *group)
{
    if (o && relpath_ok(group) && !strchr(group, '/'))
        strv_add(&o->own, group);
}

char *ry_outdir_path(ry_outdir *o, const char *relpath)
{
    if (!o)
        return NULL;
    RY_ASSERT(relpath_ok(relpath) && strncmp(relpath, ".railyard-", 10) != 0);
    if (o->memory) {
        ry_error("'%s': a run in memory has no file to name", relpath);
        o->failed = 1;
        return NULL;
    }
    char *path = join(o->stage, relpath);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    if (mkdir_p(path, NULL) < 0) {
        ry_error("cannot create '%s': %s", path, strerror(errno));
        free(path);
        o->failed = 1;
        return NULL;
    }
    *slash = '/';
    strv_add(&o->files, relpath);
    return path;
}

FILE *ry_outdir_open(ry_outdir *o, const char *relpath)
{
    if (o && o->memory)
        return open_memory(o, relpath);
    char *path = ry_outdir_path(o, relpath);
    if (!path)
        return NULL;
    FILE *fp = fopen(path, "w");
    if (!fp) {
        ry_error("cannot write '%s': %s", path, strerror(errno));
        o->failed = 1;
    }
    free(path);
    return fp;
}

int ry_outdir_close(ry_outdir *o, FILE *fp)
{
    int bad = 0;
    if (!o->memory || !close_memory(o, fp, &bad)) {
        bad = ferror(fp);
        if (fclose(fp) != 0)
            bad = 1;
    }
    if (bad) {
        ry_error("write error in '%s': %s", o->dir, strerror(errno ? errno : EIO));
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

FILE *ry_outdir_open_in(ry_outdir *o, const char *dir, const char *name)
{
    char *rel = join(dir, name);
    FILE *fp = ry_outdir_open(o, rel);
    free(rel);
    return fp;
}

int ry_outdir_put_in(ry_outdir *o, const char *dir, const char *name, const void *data,
                     size_t len)
{
    char *rel = join(dir, name);
    int rc = ry_outdir_put(o, rel, data, len);
    free(rel);
    return rc;
}

char *ry_outdir_path_in(ry_outdir *o, const char *dir, const char *name)
{
    char *rel = join(dir, name);
    char *path = ry_outdir_path(o, rel);
    free(rel);
    return path;
}

void ry_outdir_abort(ry_outdir *o)
{
    if (!o)
        return;
    join_jobs(o);
    if (o->stage && !o->memory)
        ry_rmtree(o->stage);
    ry_cleanup_forget(o->slot);
    remove_made(o);
    free_outdir(o);
}

/* ---- commit: carrying the old tree over ---------------------------------------------------------- */

typedef struct carry {
    ry_outdir *o;
    strv groups;        /* groups this run replaces, sorted */
    strv kept;          /* railyard's files of other groups, carried over */
    strv conflicts;     /* the user's paths where railyard writes, in walk order */
    int failed;
} carry;

/* A file the previous run wrote (DIR's manifest lists it). */
static int old_file(const carry *c, const char *rel)
{
    return strv_has(&c->o->manifest, rel);
}

/* A directory that held files of railyard's: dropped when it ends up empty. */
static int old_dir(const carry *c, const char *rel)
{
    char *p = join(rel, "");
    int hit = strv_has_prefix(&c->o->manifest, p);
    free(p);
    return hit;
}

static int replaced(const carry *c, const char *rel)
{
    char *g = first_component(rel);
    int hit = strv_has(&c->groups, g);
    free(g);
    return hit;
}

/* A path of the user's where railyard writes: refused unless forced. */
static void conflict(carry *c, const char *rel)
{
    strv_add(&c->conflicts, rel);
}

/* The user's paths where railyard writes: refused (-1, error printed), or
 * named in a warning when forced. */
static int report_conflicts(const carry *c)
{
    const ry_outdir *o = c->o;
    if (!c->conflicts.n)
        return 0;
    ry_buf b;
    ry_buf_init(&b);
    char *prefix = join(o->dir, "");
    list_paths(&b, prefix, &c->conflicts);
    free(prefix);
    size_t n = c->conflicts.n;
    if (o->flags & RY_OUT_FORCE)
        ry_warn("replacing %s, which railyard did not write (forced)", b.data);
    else
        ry_error("%zu path%s of '%s' that railyard did not write (not in %s) would be "
                 "replaced: %s; move %s away, or use --force to replace %s: nothing written",
                 n, n == 1 ? "" : "s", o->dir, MANIFEST, b.data, n == 1 ? "it" : "them",
                 n == 1 ? "it" : "them");
    ry_buf_free(&b);
    return o->flags & RY_OUT_FORCE ? 0 : -1;
}

static int copy_file(const char *from, const char *to, const struct stat *st)
{
    if (S_ISLNK(st->st_mode)) {
        char link[PATH_MAX];
        ssize_t n = readlink(from, link, sizeof link - 1);
        if (n < 0)
            return -1;
        link[n] = '\0';
        return symlink(link, to);
    }
    if (!S_ISREG(st->st_mode))
        return mknod(to, st->st_mode, st->st_rdev);
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return -1;
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int rc = out < 0 ? -1 : 0;
    char buf[1 << 16];
    ssize_t n;
    while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 || write(out, buf, (size_t)n) != n)
            rc = -1;
    }
    if (rc == 0 && fchmod(out, st->st_mode & 07777) < 0)
        rc = -1;
    if (rc == 0 && geteuid() == 0 && fchown(out, st->st_uid, st->st_gid) < 0)
        rc = -1;
    int err = errno;
    close(in);
    if (out >= 0 && close(out) < 0)
        rc = -1;
    if (rc < 0 && out >= 0)
        unlink(to);
    errno = err;
    return rc;
}

/* Brings the old file at rel into the new tree unchanged. */
static void carry_file(carry *c, const char *rel, const struct stat *st)
{
    char *from = join(c->o->target, rel), *to = join(c->o->stage, rel);
    if (link(from, to) < 0) {
        if (errno == ENOTDIR || errno == EEXIST)
            conflict(c, rel);
        else if (copy_file(from, to, st) < 0) {
            ry_error("cannot carry '%s' over into the new output: %s", from, strerror(errno));
            c->failed = 1;
        }
    }
    free(from);
    free(to);
}

/* Records the manifest's files of group g, left in place, as kept. */
static void keep_group(carry *c, const char *g)
{
    const strv *m = &c->o->manifest;
    char *p = join(g, "");
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->v[i], g) == 0 || strncmp(m->v[i], p, strlen(p)) == 0)
            strv_add(&c->kept, m->v[i]);
    free(p);
}

/* Walks the old tree below rel (blocked: the new tree has a file where the
 * old one has the directory rel, so nothing below can be carried). */
static void walk(carry *c, const char *rel, int blocked)
{
    ry_outdir *o = c->o;
    char *dir = rel[0] ? join(o->target, rel) : ry_xstrdup(o->target);
    strv names = { 0 };
    if (sorted_entries(dir, &names) < 0) {
        ry_error("cannot read '%s': %s", dir, strerror(errno));
        c->failed = 1;
    }
    for (size_t i = 0; i < names.n; i++) {
        const char *name = names.v[i];
        if (!rel[0] && strncmp(name, ".railyard-", 10) == 0)
            continue;
        char *r = rel[0] ? join(rel, name) : ry_xstrdup(name);
        /* Inside DIR, groups this run does not replace stay where they are. */
        if (o->inside && !rel[0] && !replaced(c, r)) {
            keep_group(c, r);
            free(r);
            continue;
        }
        char *from = join(o->target, r), *to = join(o->stage, r);
        struct stat st, nst;
        if (lstat(from, &st) < 0) {
            ry_error("cannot read '%s': %s", from, strerror(errno));
            c->failed = 1;
        } else if (S_ISDIR(st.st_mode)) {
            if (st.st_dev != o->st.st_dev || is_mount_point(from, &st, dir)) {
                ry_error("cannot replace '%s' whole: '%s' is a mount point", o->dir, from);
                c->failed = 1;
            } else if (blocked || (lstat(to, &nst) == 0 && !S_ISDIR(nst.st_mode))) {
                if (!old_dir(c, r))
                    conflict(c, r);
                else
                    walk(c, r, 1);
            } else {
                int fresh = mkdir(to, 0700) == 0;
                walk(c, r, 0);
                /* Directories that only held railyard's stale files go. */
                if (fresh && (!old_dir(c, r) || rmdir(to) < 0)) {
                    if (chmod(to, st.st_mode & 07777) < 0 ||
                        (geteuid() == 0 && chown(to, st.st_uid, st.st_gid) < 0))
                        ry_warn("cannot set the mode of '%s': %s", to, strerror(errno));
                }
            }
        } else if (old_file(c, r)) {
            if (!replaced(c, r) && !blocked) {
                carry_file(c, r, &st);
                strv_add(&c->kept, r);
            }
        } else if (blocked || lstat(to, &nst) == 0) {
            conflict(c, r);
        } else {
            carry_file(c, r, &st);
        }
        free(from);
        free(to);
        free(r);
    }
    strv_free(&names);
    free(dir);
}

/* The manifest: files, sorted; a comment names each group kept from an
 * earlier run (build --skip, or a single-group command into build's DIR). */
static int write_manifest(ry_outdir *o, const strv *files, const strv *kept)
{
    char *path = join(o->stage, MANIFEST);
    FILE *fp = fopen(path, "w");
    int bad = !fp;
    if (fp) {
        fputs("# Files railyard wrote here; the next run into this directory replaces them.\n",
              fp);
        strv groups = { 0 };
        for (size_t i = 0; i < kept->n; i++) {
            char *g = first_component(kept->v[i]);
            char *shown = kept->v[i][strlen(g)] ? join(g, "") : ry_xstrdup(g);
            strv_add(&groups, shown);
            free(shown);
            free(g);
        }
        strv_sort(&groups);
        for (size_t i = 0; i < groups.n; i++)
            fprintf(fp, "# %s: from an earlier run, kept as it was (this run did not write "
                    "it)\n", groups.v[i]);
        strv_free(&groups);
        for (size_t i = 0; i < files->n; i++)
            fprintf(fp, "%s\n", files->v[i]);
        bad = ferror(fp) != 0;
        if (fclose(fp) != 0)
            bad = 1;
    }
    if (bad)
        ry_error("cannot write '%s': %s", path, strerror(errno));
    free(path);
    return bad ? -1 : 0;
}

/* ---- commit: publishing ----------------------------------------------------------------------- */

/* DIR renamed aside and the new tree renamed in, for file systems without
 * RENAME_EXCHANGE. Signals are blocked by the caller. */
static int swap_by_renames(ry_outdir *o)
{
    char *stagep = hidden_prefix(o->name, "stage"), *oldp = hidden_prefix(o->name, "old");
    const char *base = strrchr(o->stage, '/') + 1;
    ry_buf old;
    ry_buf_init(&old);
    ry_buf_printf(&old, "%s/%s%s", o->parent, oldp, base + strlen(stagep));
    free(stagep);
    free(oldp);
    int rc = rename(o->target, old.data);
    if (rc == 0 && rename(o->stage, o->target) < 0) {
        int err = errno;
        rename(old.data, o->target);
        errno = err;
        rc = -1;
    }
    if (rc == 0) {
        free(o->stage);
        o->stage = old.data;
        ry_cleanup_move(o->slot, o->stage);
    } else {
        ry_buf_free(&old);
    }
    return rc;
}

static int publish_swap(ry_outdir *o)
{
    mode_t mask = umask(0);
    umask(mask);
    int rc = chmod(o->stage, o->existed ? o->st.st_mode & 07777 : 0777 & ~mask);
    if (rc == 0 && o->existed && geteuid() == 0)
        rc = chown(o->stage, o->st.st_uid, o->st.st_gid);
    if (rc < 0) {
        ry_error("cannot set the mode of '%s': %s", o->stage, strerror(errno));
        return -1;
    }
    sigset_t saved;
    ry_cleanup_block(&saved);
    if (o->existed) {
        rc = renameat2_compat(o->stage, o->target, RENAME_EXCHANGE);
        if (rc < 0 && (errno == EINVAL || errno == ENOSYS))
            rc = swap_by_renames(o);
    } else {
        rc = renameat2_compat(o->stage, o->target, RENAME_NOREPLACE);
        if (rc < 0 && (errno == EINVAL || errno == ENOSYS)) {
            struct stat st;
            if (lstat(o->target, &st) == 0)
                errno = EEXIST;
            else
                rc = rename(o->stage, o->target);
        }
        if (rc == 0)
            ry_cleanup_forget(o->slot);
    }
    int err = errno;
    ry_cleanup_unblock(&saved);
    if (rc < 0) {
        ry_error("cannot replace '%s': %s", o->dir, strerror(err));
        return -1;
    }
    /* The stage's name now holds the previous tree (nothing if DIR was new). */
    if (o->existed && ry_rmtree(o->stage) < 0)
        ry_warn("cannot remove the previous output '%s': %s (the next run will)", o->stage,
                strerror(errno));
    ry_cleanup_forget(o->slot);
    return 0;
}

/* Swaps the replaced groups one by one under a journal (staging inside DIR). */
static int publish_inside(ry_outdir *o, const carry *c)
{
    strv lines = { 0 }, staged = { 0 };
    ry_buf l;
    ry_buf_init(&l);
    ry_buf_printf(&l, "stage %s", strrchr(o->stage, '/') + 1);
    strv_add(&lines, l.data);
    sorted_entries(o->stage, &staged);
    for (size_t i = 0; i < c->groups.n; i++) {
        const char *g = c->groups.v[i];
        char *p = join(o->target, g);
        struct stat st;
        if (!strv_has(&staged, g) && lstat(p, &st) == 0) {
            ry_buf_reset(&l);
            ry_buf_printf(&l, "drop %s", g);
            strv_add(&lines, l.data);
        }
        free(p);
    }
    for (size_t i = 0; i < staged.n; i++) {
        if (strncmp(staged.v[i], ".railyard-", 10) == 0)
            continue;
        ry_buf_reset(&l);
        ry_buf_printf(&l, "put %s", staged.v[i]);
        strv_add(&lines, l.data);
    }
    strv_add(&lines, "put " MANIFEST);
    ry_buf_free(&l);
    strv_free(&staged);

    /* The journal is renamed into place whole, then followed. */
    char *tmp = join(o->stage, JOURNAL), *journal = join(o->target, JOURNAL);
    FILE *fp = fopen(tmp, "w");
    int rc = fp ? 0 : -1;
    for (size_t i = 0; fp && i < lines.n; i++)
        fprintf(fp, "%s\n", lines.v[i]);
    if (fp && (ferror(fp) | fclose(fp)))
        rc = -1;
    sigset_t saved;
    ry_cleanup_block(&saved);
    if (rc == 0 && rename(tmp, journal) < 0)
        rc = -1;
    if (rc < 0) {
        ry_error("cannot write '%s': %s", journal, strerror(errno));
    } else if (roll_forward(o->target, o->stage, &lines) < 0) {
        ry_error("'%s' is partly replaced; the next run into it completes the change", o->dir);
        ry_cleanup_forget(o->slot);
        rc = -2;
    } else {
        unlink(journal);
    }
    ry_cleanup_unblock(&saved);
    if (rc == 0) {
        ry_rmtree(o->stage);
        ry_cleanup_forget(o->slot);
    }
    free(tmp);
    free(journal);
    strv_free(&lines);
    return rc;
}

int ry_outdir_commit(ry_outdir *o)
{
    if (!o)
        return -1;
    join_jobs(o);
    ry_progress_end();      /* the command's closing line on the terminal follows */
    if (o->failed || o->memory) {
        int rc = o->failed ? -1 : 0;
        ry_outdir_abort(o);
        return rc;
    }
    carry c;
    memset(&c, 0, sizeof c);
    c.o = o;
    strv_sort(&o->files);
    for (size_t i = 0; i < o->own.n; i++)
        strv_add(&c.groups, o->own.v[i]);
    for (size_t i = 0; i < o->files.n; i++) {
        char *g = first_component(o->files.v[i]);
        strv_add(&c.groups, g);
        free(g);
    }
    strv_sort(&c.groups);
    /* read again: a run that committed meanwhile wrote it anew */
    if (o->existed && read_manifest(o) < 0)
        c.failed = 1;
    else if (o->existed)
        walk(&c, "", 0);
    int rc = report_conflicts(&c);
    if (c.failed)
        rc = -1;
    if (rc == 0) {
        strv all = { 0 };
        for (size_t i = 0; i < o->files.n; i++)
            strv_add(&all, o->files.v[i]);
        for (size_t i = 0; i < c.kept.n; i++)
            strv_add(&all, c.kept.v[i]);
        strv_sort(&all);
        rc = write_manifest(o, &all, &c.kept);
        strv_free(&all);
    }
    if (rc == 0)
        rc = o->inside ? publish_inside(o, &c) : publish_swap(o);
    strv_free(&c.groups);
    strv_free(&c.kept);
    strv_free(&c.conflicts);
    if (rc == -2) {     /* half published: the journal and stage stay for the next run */
        free_outdir(o);
        return -1;
    }
    if (rc < 0) {
        ry_outdir_abort(o);
        return -1;
    }
    free_outdir(o);
    return 0;
}

/* ---- single files ------------------------------------------------------------------------------- */

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor, else -1. */
static int fd_path(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    const char *s = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0)
        s = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0)
        s = path + 14;
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    long fd = strtol(s, &end, 10);
    return *end || fd > INT_MAX ? -1 : (int)fd;
}

static int write_fp(FILE *fp, int (*write)(FILE *fp, const void *arg), const void *arg)
{
    int bad = write(fp, arg) < 0;
    if (fflush(fp) != 0 || ferror(fp))
        bad = 1;
    return bad ? -1 : 0;
}

/* A device, FIFO or socket: written through, never replaced. */
static int write_through(const char *path, const struct stat *st,
                         int (*write)(FILE *fp, const void *arg), const void *arg)
{
    int fd;
    if (S_ISSOCK(st->st_mode)) {
        struct sockaddr_un sa;
        memset(&sa, 0, sizeof sa);
        sa.sun_family = AF_UNIX;
        fd = strlen(path) < sizeof sa.sun_path ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
        if (strlen(path) >= sizeof sa.sun_path)
            errno = ENAMETOOLONG;
        if (fd >= 0) {
            memcpy(sa.sun_path, path, strlen(path) + 1);
            if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
                int err = errno;
                close(fd);
                errno = err;
                fd = -1;
            }
        }
    } else {
        fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    }
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int rc = write_fp(fp, write, arg);
    int err = errno;
    if (fclose(fp) != 0)
        rc = -1;
    else
        errno = err;
    return rc;
}

/* A regular file or a new one: a same-directory temporary renamed over it. */
/* Writes a temporary beside path and renames it over path; with
 * no_clobber, links it to path instead, which fails (EEXIST) when path has
 * come to exist meanwhile: a new file appears whole or not at all. */
static int replace_file(const char *path, const struct stat *old,
                        int (*write)(FILE *fp, const void *arg), const void *arg, int no_clobber)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? ry_xstrdup(path) : ry_xstrdup(".");
    if (slash)
        dir[slash == path ? 1 : slash - path] = '\0';
    char *prefix = hidden_prefix(slash ? slash + 1 : path, "tmp");
    ry_sweep_stale(dir, prefix);
    ry_buf tmp;
    ry_buf_init(&tmp);
    int fd = -1, slot = -1;
    /* Made and registered with the signals held: none may fall between. */
    sigset_t saved;
    ry_cleanup_block(&saved);
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        char rnd[17];
        ry_random_hex(rnd, sizeof rnd);
        ry_buf_reset(&tmp);
        ry_buf_printf(&tmp, "%s/%s%ld-%s", dir, prefix, (long)getpid(), rnd);
        fd = open(tmp.data, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    int open_err = errno;
    if (fd >= 0)
        slot = ry_cleanup_add(tmp.data);
    ry_cleanup_unblock(&saved);
    free(prefix);
    free(dir);
    if (fd < 0) {
        ry_buf_free(&tmp);
        errno = open_err;
        return -1;
    }
    int rc = 0;
    if (old && (fchmod(fd, old->st_mode & 07777) < 0 ||
                (geteuid() == 0 && fchown(fd, old->st_uid, old->st_gid) < 0)))
        rc = -1;
    FILE *fp = fdopen(fd, "w");
    if (!fp) {
        close(fd);
        rc = -1;
    } else {
        if (rc == 0)
            rc = write_fp(fp, write, arg);
        int err = errno;
        if (fclose(fp) != 0)
            rc = -1;
        else
            errno = err;
    }
    if (rc == 0 && (no_clobber ? link(tmp.data, path) : rename(tmp.data, path)) < 0)
        rc = -1;
    if (rc < 0 || no_clobber) {
        int err = errno;
        unlink(tmp.data);
        errno = err;
    }
    ry_cleanup_forget(slot);
    ry_buf_free(&tmp);
    return rc;
}

int ry_write_stream_atomic(const char *path, int (*write)(FILE *fp, const void *arg),
                           const void *arg)
{
    int fd = path ? fd_path(path) : 1;
    if (path && strcmp(path, "-") == 0)
        fd = 1;
    if (fd == 1 || fd == 2) {
        ry_progress_end();  /* the output goes to the terminal the line is on */
        FILE *fp = fd == 1 ? stdout : stderr;
        if (write_fp(fp, write, arg) < 0) {
            ry_error("cannot write to standard %s: %s", fd == 1 ? "output" : "error",
                     strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!*path) {
        ry_error("the output file's name is empty");
        return -1;
    }
    int rc;
    if (fd > 2) {
        int dup_fd = dup(fd);
        FILE *fp = dup_fd >= 0 ? fdopen(dup_fd, "w") : NULL;
        rc = fp ? write_fp(fp, write, arg) : -1;
        int err = errno;
        if (fp && fclose(fp) != 0)
            rc = -1;
        else
            errno = err;
    } else {
        char *target = follow_links(path);
        struct stat st;
        int exists = target && stat(target, &st) == 0;
        if (!target || (!exists && errno != ENOENT)) {
            rc = -1;
        } else if (exists && S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            rc = -1;
        } else if (exists && !S_ISREG(st.st_mode)) {
            rc = write_through(target, &st, write, arg);
        } else {
            rc = replace_file(target, exists ? &st : NULL, write, arg, 0);
        }
        free(target);
    }
    if (rc < 0)
        ry_error("cannot write '%s': %s", path, strerror(errno));
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

int ry_write_file_new(const char *path, const char *data, size_t len)
{
    if (!path || strcmp(path, "-") == 0 || fd_path(path) >= 0)
        return ry_write_file_atomic(path, data, len);
    struct stat st;
    if (lstat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
                                  S_ISLNK(st.st_mode))) {
        if (!S_ISLNK(st.st_mode) || stat(path, &st) == 0)
            return -2;
        errno = ENOENT;     /* a dangling link: its target is not made */
        ry_error("cannot write '%s': a symbolic link to a missing file", path);
        return -1;
    }
    if (lstat(path, &st) == 0)      /* a device or FIFO: written through */
        return ry_write_file_atomic(path, data, len);
    if (!*path) {
        ry_error("the output file's name is empty");
        return -1;
    }
    bytes b = { data, len };
    if (replace_file(path, NULL, write_bytes, &b, 1) < 0) {
        if (errno == EEXIST)
            return -2;
        ry_error("cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
