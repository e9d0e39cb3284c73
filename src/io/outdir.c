/* Output transactions: staged trees swapped whole, single files renamed
 * into place (the design and its limits are in outdir.h). */
#define _GNU_SOURCE 1
#include "io/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/xattr.h>
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
    int sfd1;           /* the staging directory's descriptor + 1; 0 until opened */
    char *last_dir;     /* the directory (relative) the last file went into */
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

/* ---- naming an output: symbolic links ----------------------------------------------------------- */

/* "nobody (uid 65534)", or "uid 1234" for a uid without a name. */
static void owner_name(ry_buf *b, uid_t uid)
{
    struct passwd *pw = getpwuid(uid);
    if (pw && pw->pw_name)
        ry_buf_printf(b, "%s (uid %lu)", pw->pw_name, (unsigned long)uid);
    else
        ry_buf_printf(b, "uid %lu", (unsigned long)uid);
}

/* The kernel's protected_symlinks rule, applied whatever the sysctl says: a
 * link in a sticky, world-writable directory is followed only by the link's
 * owner, or when the link belongs to the directory's owner. Elsewhere only
 * who may write the directory could have planted the link. */
static int may_follow(const struct stat *link, const struct stat *dir)
{
    return link->st_uid == geteuid() || link->st_uid == dir->st_uid ||
           (dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH);
}

/* The error of a link railyard does not follow. */
static void refuse_link(const char *shown, const char *dir, const char *name,
                        const struct stat *link, const struct stat *dst)
{
    ry_buf who, downer;
    ry_buf_init(&who);
    ry_buf_init(&downer);
    owner_name(&who, link->st_uid);
    owner_name(&downer, dst->st_uid);
    ry_error("cannot write output to '%s': '%s%s%s' is a symbolic link owned by %s in the "
             "sticky, world-writable directory '%s' owned by %s; railyard follows such a link "
             "only for the link's owner or the directory's, as the kernel's protected_symlinks "
             "rule does: name the link's target instead", shown, dir[1] ? dir : "", "/", name,
             who.data, dir, downer.data);
    ry_buf_free(&who);
    ry_buf_free(&downer);
}

/* Resolves path to an absolute path without symbolic links and without
 * "." or ".." components, walking it from / (or the working directory)
 * with openat(O_PATH|O_NOFOLLOW), fstatat and readlinkat: a link in any
 * component is followed only where may_follow allows, and the last one
 * not at all unless follow_last. Components from the first missing one on
 * are taken as written (a ".." among them fails, ENOENT). Returns a heap path, or NULL with errno set and,
 * for a link not followed (errno EPERM), the error printed naming shown. */
static char *resolve_path(const char *path, int follow_last, const char *shown)
{
    ry_buf res;     /* the resolved prefix; "" is / */
    ry_buf_init(&res);
    ry_buf_puts(&res, "");
    if (path[0] != '/') {
        char *cwd = getcwd(NULL, 0);
        if (!cwd) {
            ry_buf_free(&res);
            return NULL;
        }
        if (strcmp(cwd, "/") != 0)
            ry_buf_puts(&res, cwd);
        free(cwd);
    }
    int cur = open(res.len ? res.data : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    char *rest = ry_xstrdup(path);
    size_t pos = 0, missing = 0;    /* components appended past the last one that exists */
    int hops = 0, err = 0;
    while (cur >= 0 && !err) {
        while (rest[pos] == '/')
            pos++;
        if (!rest[pos])
            break;
        size_t n = strcspn(rest + pos, "/");
        char name[NAME_MAX + 1];
        if (n > NAME_MAX) {
            err = ENAMETOOLONG;
            break;
        }
        memcpy(name, rest + pos, n);
        name[n] = '\0';
        pos += n;
        size_t after = pos;
        while (rest[after] == '/')
            after++;
        int last = rest[after] == '\0';
        if (strcmp(name, ".") == 0)
            continue;
        if (strcmp(name, "..") == 0) {
            if (missing) {      /* as the kernel: a missing directory has no ".." */
                err = ENOENT;
                break;
            }
            char *slash = strrchr(res.data, '/');
            if (slash) {
                res.len = (size_t)(slash - res.data);
                res.data[res.len] = '\0';
            }
            int up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
            close(cur);
            cur = up;
            continue;
        }
        struct stat st;
        if (missing) {
            missing++;
        } else if (fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
            if (errno != ENOENT)
                err = errno;
            missing = 1;
        } else if (S_ISLNK(st.st_mode) && (follow_last || !last)) {
            struct stat dst;
            char link[PATH_MAX];
            ssize_t len = -1;
            if (++hops > 40)
                err = ELOOP;
            else if (fstat(cur, &dst) < 0)
                err = errno;
            else if (!may_follow(&st, &dst)) {
                refuse_link(shown, res.len ? res.data : "/", name, &st, &dst);
                err = EPERM;
            } else if ((len = readlinkat(cur, name, link, sizeof link - 1)) < 0)
                err = errno;
            if (err)
                break;
            link[len] = '\0';
            ry_buf next;
            ry_buf_init(&next);
            ry_buf_printf(&next, "%s/%s", link, rest + pos);
            free(rest);
            rest = next.data;
            pos = 0;
            if (link[0] == '/') {
                ry_buf_reset(&res);
                ry_buf_puts(&res, "");
                close(cur);
                cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
            }
            continue;
        } else if (S_ISDIR(st.st_mode)) {
            int down = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            close(cur);
            cur = down;
        } else if (!last) {
            err = ENOTDIR;
        }
        ry_buf_printf(&res, "/%s", name);
    }
    if (cur < 0 && !err)
        err = errno;
    if (cur >= 0)
        close(cur);
    free(rest);
    if (err) {
        ry_buf_free(&res);
        errno = err;
        return NULL;
    }
    if (!res.len)
        ry_buf_puts(&res, "/");
    return res.data;
}

/* Opens the directory at an absolute path that has no symbolic link
 * (resolve_path's), one component at a time with O_NOFOLLOW: a link put in
 * meanwhile fails the open (ELOOP or ENOTDIR). */
static int open_dir_nofollow(const char *path)
{
    int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    for (const char *s = path; fd >= 0 && *s;) {
        while (*s == '/')
            s++;
        size_t n = strcspn(s, "/");
        if (!n)
            break;
        char name[NAME_MAX + 1];
        if (n > NAME_MAX) {
            close(fd);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(name, s, n);
        name[n] = '\0';
        s += n;
        int down = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        close(fd);
        errno = e;
        fd = down;
    }
    return fd;
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

/* A journal is a few lines a group; a larger file is not one railyard wrote. */
#define JOURNAL_MAX (1 << 20)

static int read_manifest(ry_outdir *o);

/* Moves X, in DIR (open at tfd), into the staging directory's
 * .railyard-old (the stage open at sfd) under a fresh name. */
static int move_aside(int tfd, int sfd, const char *dir, const char *x)
{
    int ofd = -1;
    if (mkdirat(sfd, OLD_DIR, 0700) == 0 || errno == EEXIST)
        ofd = openat(sfd, OLD_DIR, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    char rnd[17];
    ry_random_hex(rnd, sizeof rnd);
    int rc = ofd < 0 ? -1 : renameat(tfd, x, ofd, rnd);
    if (rc < 0)
        ry_error("cannot move '%s/%s' aside: %s", dir, x, strerror(errno));
    if (ofd >= 0)
        close(ofd);
    return rc;
}

/* Publishes the entries of a swap inside DIR (open at tfd; dir, for
 * messages) from the stage (open at sfd): "drop X" moves DIR/X aside, "put
 * X" moves stage/X to DIR/X. Every X is one name (no '/'), so nothing
 * outside DIR is reached. Idempotent, so the next run can finish what a
 * killed one started: stage/X exists until X is published. */
static int roll_forward(int tfd, int sfd, const char *dir, const strv *lines)
{
    int rc = 0;
    for (size_t i = 0; i < lines->n; i++) {
        const char *l = lines->v[i];
        struct stat st, sst;
        if (strncmp(l, "drop ", 5) == 0) {
            if (fstatat(tfd, l + 5, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                move_aside(tfd, sfd, dir, l + 5) < 0)
                rc = -1;
        } else if (strncmp(l, "put ", 4) == 0) {
            const char *x = l + 4;
            if (fstatat(sfd, x, &sst, AT_SYMLINK_NOFOLLOW) == 0) {
                if (fstatat(tfd, x, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    (S_ISDIR(st.st_mode) || S_ISDIR(sst.st_mode)) &&
                    move_aside(tfd, sfd, dir, x) < 0)
                    rc = -1;
                else if (renameat(sfd, x, tfd, x) < 0) {
                    ry_error("cannot move '%s' into '%s': %s", x, dir, strerror(errno));
                    rc = -1;
                }
            }
        }
    }
    return rc;
}

static int read_lines_fp(FILE *fp, strv *out)
{
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

static int read_lines(const char *path, strv *out)
{
    FILE *fp = fopen(path, "r");
    return fp ? read_lines_fp(fp, out) : -1;
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

/* The pid of a staging directory's name .railyard-stage-<pid>-<hex>, else -1. */
static long stage_pid(const char *name)
{
    if (strncmp(name, ".railyard-stage-", 16) != 0)
        return -1;
    const char *s = name + 16;
    char *end;
    if (*s < '1' || *s > '9')
        return -1;
    long pid = strtol(s, &end, 10);
    if (*end != '-' || !end[1] || end[strspn(end + 1, "0123456789abcdef") + 1])
        return -1;
    return pid;
}

/* The name of a journal line "drop X" or "put X": one top-level name in
 * DIR (the manifest's rule for a path, and no '/'), not railyard's
 * bookkeeping; NULL otherwise. */
static const char *journal_name(const char *line, int *put)
{
    const char *x = strncmp(line, "drop ", 5) == 0 ? line + 5
                  : strncmp(line, "put ", 4) == 0 ? line + 4 : NULL;
    *put = x == line + 4;
    if (!x || !relpath_ok(x) || strchr(x, '/') || strncmp(x, ".railyard-", 10) == 0)
        return NULL;
    return x;
}

/* Why the journal's lines are not those railyard writes (publish_inside):
 * "stage NAME", then "drop X" lines, "put X" lines, and "put " MANIFEST
 * last. Empty when they are. */
static void journal_syntax(const strv *lines, ry_buf *why)
{
    char shown[RY_SHOWN_MAX];
    if (lines->n < 2 || strncmp(lines->v[0], "stage ", 6) != 0 ||
        stage_pid(lines->v[0] + 6) <= 0) {
        ry_buf_printf(why, "its first line does not name a staging directory of railyard's");
        return;
    }
    int puts_seen = 0;
    for (size_t i = 1; i + 1 < lines->n; i++) {
        int put;
        if (!journal_name(lines->v[i], &put) || (puts_seen && !put)) {
            ry_buf_printf(why, "line %zu ('%s') does not name a file or directory at the top of "
                          "the output directory (one name, no '/', '.' or '..')", i + 1,
                          ry_shown(shown, lines->v[i]));
            return;
        }
        puts_seen |= put;
    }
    if (strcmp(lines->v[lines->n - 1], "put " MANIFEST) != 0)
        ry_buf_printf(why, "its last line is not 'put " MANIFEST "'");
}

/* Why replaying the journal (lines, syntax checked) into DIR (open at tfd)
 * from the stage (open at sfd) would touch what is not railyard's: each
 * name it removes or replaces must be one DIR's manifest lists, and a DIR
 * without a manifest may hold only names the journal publishes (unless
 * RY_OUT_FORCE, as for a run). Empty when it would not. */
static void journal_owns(ry_outdir *o, int tfd, int sfd, const strv *lines, int has_manifest,
                         ry_buf *why)
{
    int force = (o->flags & RY_OUT_FORCE) != 0;
    struct stat st;
    int staged_manifest = fstatat(sfd, MANIFEST, &st, AT_SYMLINK_NOFOLLOW) == 0;
    for (size_t i = 1; i + 1 < lines->n && !why->len; i++) {
        int put;
        const char *x = journal_name(lines->v[i], &put);
        int staged = put && fstatat(sfd, x, &st, AT_SYMLINK_NOFOLLOW) == 0;
        int there = fstatat(tfd, x, &st, AT_SYMLINK_NOFOLLOW) == 0;
        if (staged && !staged_manifest)
            ry_buf_printf(why, "its staging directory still holds '%s' but no longer the "
                          "manifest published after it", x);
        else if ((staged || !put) && there && !force && !ry_outdir_earlier(o, x))
            ry_buf_printf(why, "it would %s '%s/%s', which railyard did not write (not in %s)",
                          put ? "replace" : "remove", o->dir, x, MANIFEST);
    }
    if (why->len || has_manifest || force)
        return;
    strv names = { 0 };
    sorted_entries(o->target, &names);
    for (size_t i = 0; i < names.n && !why->len; i++) {
        ry_buf l;
        ry_buf_init(&l);
        ry_buf_printf(&l, "put %s", names.v[i]);
        int published = 0;
        for (size_t k = 1; k < lines->n && !published; k++)
            published = strcmp(lines->v[k], l.data) == 0;
        if (!published && strncmp(names.v[i], ".railyard-", 10) != 0)
            ry_buf_printf(why, "'%s' has no %s and holds '%s/%s', which the journal does not "
                          "publish", o->dir, MANIFEST, o->dir, names.v[i]);
        ry_buf_free(&l);
    }
    strv_free(&names);
}

/* Reads DIR's journal (open at tfd): a regular file of this user's, of a
 * journal's size: 1; -1 with the reason in why otherwise; 0 when there is
 * none. */
static int read_journal(int tfd, strv *lines, ry_buf *why)
{
    int fd = openat(tfd, JOURNAL, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 && errno == ENOENT)
        return 0;
    if (fd < 0 && errno == ELOOP)
        ry_buf_printf(why, "it is a symbolic link");
    else if (fd < 0 || fstat(fd, &st) < 0)
        ry_buf_printf(why, "%s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        ry_buf_printf(why, "it is not a regular file");
    else if (st.st_uid != geteuid()) {
        ry_buf_printf(why, "it belongs to ");
        owner_name(why, st.st_uid);
        ry_buf_printf(why, ", not to you");
    } else if (st.st_size > JOURNAL_MAX)
        ry_buf_printf(why, "it is larger than a journal (%lld bytes)", (long long)st.st_size);
    if (!why->len) {
        FILE *fp = fdopen(fd, "r");
        if (!fp || read_lines_fp(fp, lines) < 0)
            ry_buf_printf(why, "%s", strerror(errno));
        if (fp)
            fd = -1;
    }
    if (fd >= 0)
        close(fd);
    return why->len ? -1 : 1;
}

/* Checks the journal's lines (read from DIR, open at tfd) and, when DIR is
 * shown to be railyard's, replays them. -1 with why set when the journal
 * is refused (nothing changed), or with an error printed. */
static int replay_journal(ry_outdir *o, int tfd, const strv *lines, ry_buf *why)
{
    journal_syntax(lines, why);
    if (why->len)
        return -1;
    const char *stage = lines->v[0] + 6;
    long pid = stage_pid(stage);
    if (pid != (long)getpid() && ry_pid_alive(pid)) {
        ry_error("another railyard (pid %ld) is writing into '%s'", pid, o->dir);
        return -1;
    }
    struct stat st;
    int sfd = openat(tfd, stage, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sfd < 0 || fstat(sfd, &st) < 0 || st.st_uid != geteuid() || st.st_dev != o->st.st_dev)
        ry_buf_printf(why, "the staging directory it names, '%s/%s', is %s", o->dir, stage,
                      sfd < 0 && errno == ENOENT ? "missing" : "not one you made there");
    int rc = 0, has_manifest = 0;
    if (!why->len && (has_manifest = read_manifest(o)) < 0)
        rc = -1;
    if (!why->len && rc == 0)
        journal_owns(o, tfd, sfd, lines, has_manifest, why);
    if (why->len)
        rc = -1;
    if (rc == 0)
        rc = roll_forward(tfd, sfd, o->dir, lines);
    if (rc == 0) {
        char *sp = join(o->target, stage);
        unlinkat(tfd, JOURNAL, 0);
        ry_rmtree(sp);
        free(sp);
    }
    if (sfd >= 0)
        close(sfd);
    return rc;
}

/* Finishes a swap inside DIR that a killed run left half done, once DIR
 * is shown to be railyard's: the journal is a regular file of this user's
 * in railyard's form, names a staging directory inside DIR that this user
 * made, and moves only railyard's names (journal_owns). 0 when there is
 * none or it is done, -1 (error printed, nothing changed) when refused. */
static int recover_journal(ry_outdir *o)
{
    int tfd = open_dir_nofollow(o->target);
    if (tfd < 0) {
        ry_error("cannot open '%s': %s", o->dir, strerror(errno));
        return -1;
    }
    strv lines = { 0 };
    ry_buf why;
    ry_buf_init(&why);
    int rc = read_journal(tfd, &lines, &why);
    if (rc > 0)
        rc = replay_journal(o, tfd, &lines, &why);
    if (why.len) {
        char *path = join(o->dir, JOURNAL);
        ry_error("'%s' is not a journal railyard wrote for this directory: %s; nothing was "
                 "changed (remove it, and the staging directory it names, if no railyard "
                 "is writing here)", path, why.data);
        free(path);
    }
    close(tfd);
    ry_buf_free(&why);
    strv_free(&lines);
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
            /* Only this user's own directories, as ry_sweep_stale removes. */
            struct stat ost, sst;
            char *oldpath = join(o->parent, e->d_name);
            int mine = lstat(oldpath, &ost) == 0 && S_ISDIR(ost.st_mode) &&
                       ost.st_uid == geteuid() && lstat(s.data, &sst) == 0 &&
                       S_ISDIR(sst.st_mode) && sst.st_uid == geteuid();
            free(oldpath);
            if (mine && rename(s.data, o->target) == 0) {
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

/* Forgets the staging directory's descriptor (before the stage moves). */
static void close_stage(ry_outdir *o)
{
    if (o->sfd1)
        close(o->sfd1 - 1);
    o->sfd1 = 0;
    free(o->last_dir);
    o->last_dir = NULL;
}

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
    close_stage(o);
    strv_free(&o->files);
    strv_free(&o->own);
    strv_free(&o->made);
    strv_free(&o->manifest);
    free(o);
}

/* Sets target, parent, name, existed and st; makes a new DIR's parents.
 * Symbolic links on the way are followed as resolve_path allows. */
static int resolve_dir(ry_outdir *o)
{
    char *t = resolve_path(o->dir, 1, o->dir);
    if (!t) {
        if (errno != EPERM)
            ry_error("cannot write output to '%s': %s", o->dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (lstat(t, &o->st) == 0) {
        if (!S_ISDIR(o->st.st_mode)) {
            ry_error("cannot write output to '%s': it exists and is not a directory", o->dir);
            rc = -1;
        } else {
            o->existed = 1;
        }
    } else if (errno == ENOENT) {
        char *par, *base;
        split_path(t, &par, &base);
        if (mkdir_p(par, &o->made) < 0) {
            ry_error("cannot create '%s': %s", par, strerror(errno));
            rc = -1;
        }
        free(par);
        free(base);
    } else {
        ry_error("cannot write output to '%s': %s", o->dir, strerror(errno));
        rc = -1;
    }
    if (rc == 0) {
        o->target = t;
        split_path(o->target, &o->parent, &o->name);
    } else {
        free(t);
    }
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
    if (!o->existed && lstat(o->target, &o->st) == 0 && S_ISDIR(o->st.st_mode))
        o->existed = 1;     /* what recover_swap put back */
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

/* Makes the directories of relpath in the staging directory, by its
 * descriptor: only those below the part it shares with the last file's
 * directory (files come a directory at a time), and a directory there
 * already is one this run made (the stage is this user's, mode 0700). */
static int stage_dirs(ry_outdir *o, const char *relpath)
{
    if (!o->sfd1) {
        int fd = open_dir_nofollow(o->stage);
        if (fd < 0)
            return -1;
        o->sfd1 = fd + 1;
    }
    const char *slash = strrchr(relpath, '/');
    size_t n = slash ? (size_t)(slash - relpath) : 0;
    const char *last = o->last_dir ? o->last_dir : "";
    size_t lastlen = strlen(last);
    if (lastlen == n && strncmp(last, relpath, n) == 0)
        return 0;
    /* the longest common prefix that ends a component on both sides */
    size_t common = 0;
    for (size_t i = 0; i < n && i < lastlen && relpath[i] == last[i];) {
        i++;
        if ((i == n || relpath[i] == '/') && (i == lastlen || last[i] == '/'))
            common = i;
    }
    char *d = ry_xmalloc(n + 1);
    memcpy(d, relpath, n);
    d[n] = '\0';
    for (size_t j = common + 1; j <= n; j++) {
        if (j < n && d[j] != '/')
            continue;
        d[j] = '\0';
        int rc = mkdirat(o->sfd1 - 1, d, 0777);
        if (j < n)
            d[j] = '/';
        if (rc < 0 && errno != EEXIST) {
            free(d);
            return -1;
        }
    }
    free(o->last_dir);
    o->last_dir = d;
    return 0;
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
    if (stage_dirs(o, relpath) < 0) {
        char *slash = strrchr(path, '/');
        *slash = '\0';
        ry_error("cannot create '%s': %s", path, strerror(errno));
        free(path);
        o->failed = 1;
        return NULL;
    }
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
    /* by the stage's descriptor: no walk of the whole path per file */
    int fd = openat(o->sfd1 - 1, relpath, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                    0666);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp) {
        ry_error("cannot write '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
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
    strv uncopied;      /* paths whose copy would change owner, group or mode */
    int link_err;       /* why the first of them could not be hard-linked */
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

/* Gives path (a link itself, not its target) st's owner and group: both as
 * root, the group alone as its member; what cannot be set stays (as_before
 * tells). */
static int keep_owner(const char *path, const struct stat *st)
{
    if (geteuid() == 0)
        return fchownat(AT_FDCWD, path, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW);
    struct stat now;
    if (lstat(path, &now) == 0 && now.st_gid != st->st_gid)
        fchownat(AT_FDCWD, path, (uid_t)-1, st->st_gid, AT_SYMLINK_NOFOLLOW);
    return 0;
}

/* 1 when path has st's owner, group and (but for a link) mode. */
static int as_before(const char *path, const struct stat *st)
{
    struct stat now;
    return lstat(path, &now) == 0 && now.st_uid == st->st_uid && now.st_gid == st->st_gid &&
           (S_ISLNK(st->st_mode) || (now.st_mode & 07777) == (st->st_mode & 07777));
}

/* Copies from (of stat st) to to, keeping its mode, and its owner and
 * group as far as keep_owner can. */
static int copy_file(const char *from, const char *to, const struct stat *st)
{
    if (S_ISLNK(st->st_mode)) {
        char link[PATH_MAX];
        ssize_t n = readlink(from, link, sizeof link - 1);
        if (n < 0)
            return -1;
        link[n] = '\0';
        return symlink(link, to) < 0 || keep_owner(to, st) < 0 ? -1 : 0;
    }
    if (!S_ISREG(st->st_mode))
        return mknod(to, st->st_mode, st->st_rdev) < 0 || chmod(to, st->st_mode & 07777) < 0 ||
               keep_owner(to, st) < 0 ? -1 : 0;
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
    if (rc == 0 && (keep_owner(to, st) < 0 || fchmod(out, st->st_mode & 07777) < 0))
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

/* A path of DIR that can be carried over only by a copy that would change
 * its owner, group or mode (err: why the hard link failed; 0 for a
 * directory, always made anew): refused unless forced. */
static void uncopied(carry *c, const char *rel, int err)
{
    strv_add(&c->uncopied, rel);
    if (!c->link_err)
        c->link_err = err;
}

/* The paths uncopied recorded: refused (-1, error printed). */
static int report_uncopied(const carry *c)
{
    const ry_outdir *o = c->o;
    size_t n = c->uncopied.n;
    if (!n)
        return 0;
    ry_buf b;
    ry_buf_init(&b);
    char *prefix = join(o->dir, "");
    list_paths(&b, prefix, &c->uncopied);
    free(prefix);
    ry_error("%zu path%s of '%s' would not keep %s owner, group and mode in the new output: "
             "%s (%s%s, and a copy would be yours); use --force to carry %s over as such "
             "copies: nothing written", n, n == 1 ? "" : "s", o->dir, n == 1 ? "its" : "their",
             b.data, c->link_err ? "the file system refused a hard link: " : "a directory is "
             "made anew", c->link_err ? strerror(c->link_err) : "", n == 1 ? "it" : "them");
    ry_buf_free(&b);
    return -1;
}

/* Brings the old file at rel into the new tree unchanged: a hard link, or
 * a copy of the same owner, group and mode (any copy when forced). */
static void carry_file(carry *c, const char *rel, const struct stat *st)
{
    char *from = join(c->o->target, rel), *to = join(c->o->stage, rel);
    int force = (c->o->flags & RY_OUT_FORCE) != 0;
    if (link(from, to) < 0) {
        int err = errno;
        if (err == ENOTDIR || err == EEXIST) {
            conflict(c, rel);
        } else if (!force && st->st_uid != geteuid()) {
            uncopied(c, rel, err);
        } else if (copy_file(from, to, st) < 0) {
            ry_error("cannot carry '%s' over into the new output: %s", from, strerror(errno));
            c->failed = 1;
        } else if (!force && !as_before(to, st)) {
            unlink(to);
            uncopied(c, rel, err);
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
                    if (chmod(to, st.st_mode & 07777) < 0 || keep_owner(to, &st) < 0)
                        ry_warn("cannot set the mode of '%s': %s", to, strerror(errno));
                    else if (!(o->flags & RY_OUT_FORCE) && !as_before(to, &st)) {
                        char *shown = join(r, "");
                        uncopied(c, shown, 0);
                        free(shown);
                    }
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
    char *journal = join(o->target, JOURNAL);
    int tfd = open_dir_nofollow(o->target), sfd = open_dir_nofollow(o->stage);
    int fd = sfd < 0 ? -1 : openat(sfd, JOURNAL, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                   O_CLOEXEC, 0600);
    FILE *fp = fd < 0 ? NULL : fdopen(fd, "w");
    int rc = fp && tfd >= 0 ? 0 : -1;
    if (!fp && fd >= 0)
        close(fd);
    for (size_t i = 0; fp && i < lines.n; i++)
        fprintf(fp, "%s\n", lines.v[i]);
    if (fp && (ferror(fp) | fclose(fp)))
        rc = -1;
    sigset_t saved;
    ry_cleanup_block(&saved);
    if (rc == 0 && renameat(sfd, JOURNAL, tfd, JOURNAL) < 0)
        rc = -1;
    if (rc < 0) {
        ry_error("cannot write '%s': %s", journal, strerror(errno));
    } else if (roll_forward(tfd, sfd, o->dir, &lines) < 0) {
        ry_error("'%s' is partly replaced; the next run into it completes the change", o->dir);
        ry_cleanup_forget(o->slot);
        rc = -2;
    } else {
        unlinkat(tfd, JOURNAL, 0);
    }
    ry_cleanup_unblock(&saved);
    if (tfd >= 0)
        close(tfd);
    if (sfd >= 0)
        close(sfd);
    if (rc == 0) {
        ry_rmtree(o->stage);
        ry_cleanup_forget(o->slot);
    }
    free(journal);
    strv_free(&lines);
    return rc;
}

int ry_outdir_commit(ry_outdir *o)
{
    if (!o)
        return -1;
    join_jobs(o);
    close_stage(o);
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
    /* The new tree takes DIR's place: it must be DIR's owner's and group's. */
    struct stat sst;
    if (o->existed && !o->inside && !(o->flags & RY_OUT_FORCE) &&
        (keep_owner(o->stage, &o->st) < 0 || lstat(o->stage, &sst) < 0 ||
         sst.st_uid != o->st.st_uid || sst.st_gid != o->st.st_gid))
        uncopied(&c, "", 0);
    int rc = report_conflicts(&c);
    if (rc == 0)
        rc = report_uncopied(&c);
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
    strv_free(&c.uncopied);
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

/* A device, FIFO or socket (name in the directory open at dfd; path, for a
 * socket): written through, never replaced. */
static int write_through(int dfd, const char *name, const char *path, const struct stat *st,
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
        fd = openat(dfd, name, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
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

/* ---- the mark of a file railyard wrote ----
 * A single file railyard writes carries the extended attribute user.railyard:
 * its size and modification time as written. A file that has it, with the
 * same size and time, is railyard's and unchanged since: a later run may
 * replace it. Any other non-empty file is the user's (or was edited since),
 * and is replaced only when forced. An empty file holds nothing to lose (a
 * name from mktemp). Where the file system keeps no extended attributes
 * there is no mark, and replacing needs --force. */
#define MARK_NAME "user.railyard"

static void mark_value(const struct stat *st, char *buf, size_t cap)
{
    snprintf(buf, cap, "railyard 1 %lld %lld.%09ld", (long long)st->st_size,
             (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
}

/* Marks the file open at fd as written by railyard, as it is now; where the
 * file system refuses, the file goes unmarked (it is still written). */
static void mark_written(int fd)
{
    struct stat st;
    char v[96];
    if (fstat(fd, &st) < 0)
        return;
    mark_value(&st, v, sizeof v);
    (void)fsetxattr(fd, MARK_NAME, v, strlen(v), 0);
}

/* 1 when the regular file name (in the directory open at dfd) may be
 * replaced: empty, or marked by railyard and unchanged since. 0 otherwise;
 * *no_marks set when its file system keeps none. */
static int replaceable(int dfd, const char *name, int *no_marks)
{
    *no_marks = 0;
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    char want[96], got[96];
    int ok = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if (st.st_size == 0) {
            ok = 1;
        } else {
            ssize_t n = fgetxattr(fd, MARK_NAME, got, sizeof got - 1);
            if (n < 0 && errno == ENOTSUP)
                *no_marks = 1;
            if (n >= 0) {
                got[n] = 0;
                mark_value(&st, want, sizeof want);
                ok = strcmp(got, want) == 0;
            }
        }
    }
    close(fd);
    return ok;
}

static void refuse_file(const char *path, int no_marks)
{
    ry_error("'%s' exists and railyard did not write it%s; name a new file, or use --force to "
             "replace it: nothing written", path,
             no_marks ? " (its file system keeps no mark of the files railyard writes)"
                      : ", or it was changed since");
}

/* A regular file or a new one: a same-directory temporary renamed over it. */
/* Writes a temporary in directory dir (open at dfd) and renames it over
 * name there; with no_clobber, links it to name instead, which fails
 * (EEXIST) when name has come to exist meanwhile: a new file appears whole
 * or not at all. */
static int replace_file(int dfd, const char *dir, const char *name, const struct stat *old,
                        int (*write)(FILE *fp, const void *arg), const void *arg, int no_clobber)
{
    char *prefix = hidden_prefix(name, "tmp");
    ry_sweep_stale(dir, prefix);
    ry_buf tmp;
    ry_buf_init(&tmp);
    int fd = -1, slot = -1;
    size_t base = 0;    /* where the temporary's own name starts in tmp */
    /* Made and registered with the signals held: none may fall between. */
    sigset_t saved;
    ry_cleanup_block(&saved);
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        char rnd[17];
        ry_random_hex(rnd, sizeof rnd);
        ry_buf_reset(&tmp);
        ry_buf_printf(&tmp, "%s/", strcmp(dir, "/") ? dir : "");
        base = tmp.len;
        ry_buf_printf(&tmp, "%s%ld-%s", prefix, (long)getpid(), rnd);
        fd = openat(dfd, tmp.data + base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    int open_err = errno;
    if (fd >= 0)
        slot = ry_cleanup_add(tmp.data);
    ry_cleanup_unblock(&saved);
    free(prefix);
    if (fd < 0) {
        ry_buf_free(&tmp);
        errno = open_err;
        return -1;
    }
    const char *tname = tmp.data + base;
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
        if (rc == 0)
            mark_written(fd);
        int err = errno;
        if (fclose(fp) != 0)
            rc = -1;
        else
            errno = err;
    }
    if (rc == 0 && (no_clobber ? linkat(dfd, tname, dfd, name, 0)
                              : renameat(dfd, tname, dfd, name)) < 0)
        rc = -1;
    if (rc < 0 || no_clobber) {
        int err = errno;
        unlinkat(dfd, tname, 0);
        errno = err;
    }
    ry_cleanup_forget(slot);
    ry_buf_free(&tmp);
    return rc;
}

/* Resolves path (resolve_path, the last link followed when follow_last) and
 * opens its directory with O_NOFOLLOW: the descriptor, with the directory's
 * path and the last component's name, both heap. -1 with errno set (a path
 * ending in '/' names a directory: EISDIR), -2 when a link was not
 * followed (the error printed). */
static int open_parent(const char *path, int follow_last, char **dir, char **name)
{
    *dir = *name = NULL;
    if (path[strlen(path) - 1] == '/') {
        errno = EISDIR;
        return -1;
    }
    char *t = resolve_path(path, follow_last, path);
    if (!t)
        return errno == EPERM ? -2 : -1;
    if (strcmp(t, "/") == 0) {
        free(t);
        errno = EISDIR;
        return -1;
    }
    split_path(t, dir, name);
    free(t);
    return open_dir_nofollow(*dir);
}

int ry_write_stream_atomic(const char *path, int (*write)(FILE *fp, const void *arg),
                           const void *arg, unsigned flags)
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
    int rc, refused = 0;
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
        char *dir = NULL, *name = NULL;
        int no_marks = 0;
        int dfd = open_parent(path, 1, &dir, &name);
        struct stat st;
        int exists = dfd >= 0 && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
        if (dfd == -2) {
            free(dir);
            free(name);
            return -1;      /* a link not followed: said */
        }
        if (dfd < 0 || (!exists && errno != ENOENT)) {
            rc = -1;
        } else if (exists && S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            rc = -1;
        } else if (exists && S_ISLNK(st.st_mode)) {
            errno = ELOOP;  /* put there since the walk */
            rc = -1;
        } else if (exists && !S_ISREG(st.st_mode)) {
            char *target = join(dir, name);
            rc = write_through(dfd, name, target, &st, write, arg);
            free(target);
        } else if (exists && !(flags & RY_OUT_FORCE) && !replaceable(dfd, name, &no_marks)) {
            refuse_file(path, no_marks);
            refused = 1;
            rc = -1;
        } else {
            rc = replace_file(dfd, dir, name, exists ? &st : NULL, write, arg, 0);
        }
        if (dfd >= 0)
            close(dfd);
        free(dir);
        free(name);
    }
    if (rc < 0 && !refused)
        ry_error("cannot write '%s': %s", path, strerror(errno));
    return rc;
}

int ry_output_file_check(const char *path, unsigned flags)
{
    if (!path || !*path || strcmp(path, "-") == 0 || fd_path(path) >= 0 || (flags & RY_OUT_FORCE))
        return 0;
    char *dir = NULL, *name = NULL;
    int dfd = open_parent(path, 1, &dir, &name);
    int rc = 0, no_marks = 0;
    struct stat st;
    if (dfd == -2) {
        rc = -1;    /* a link not followed: said */
    } else if (dfd >= 0 && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
               S_ISREG(st.st_mode) && !replaceable(dfd, name, &no_marks)) {
        refuse_file(path, no_marks);
        rc = -1;
    }
    if (dfd >= 0)
        close(dfd);
    free(dir);
    free(name);
    return rc;  /* any other failure is the write's to report */
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

int ry_write_file_atomic(const char *path, const char *data, size_t len, unsigned flags)
{
    bytes b = { data, len };
    return ry_write_stream_atomic(path, write_bytes, &b, flags);
}
