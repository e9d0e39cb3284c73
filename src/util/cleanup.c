/* Removal of temporary files on a signal (see cleanup.h). */
#define _GNU_SOURCE 1
#include "util/cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/diag.h"

/* A handful at a time: a staging directory, a temporary file, a library's
 * scratch directory and a plot's. */
#define SLOTS 16

static char slot_path[SLOTS][PATH_MAX];
static volatile sig_atomic_t slot_used[SLOTS];
static volatile sig_atomic_t owner_pid;

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
    /* A child between fork and exec runs this handler too: only the
     * process that registered the paths removes them. */
    if ((pid_t)owner_pid == getpid()) {
        for (int i = 0; i < SLOTS; i++)
            if (slot_used[i])
                ry_rmtree(slot_path[i]);
    }
    _exit(128 + sig);
}

void ry_cleanup_init(void)
{
    owner_pid = (sig_atomic_t)getpid();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        sigaddset(&sa.sa_mask, caught[i]);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        struct sigaction old;
        if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(caught[i], &sa, NULL);
    }
    /* Past the file-size limit a write fails with EFBIG instead of the
     * process dying with its staging area on the disk. */
    signal(SIGXFSZ, SIG_IGN);
}

int ry_cleanup_add(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return -1;
    for (int i = 0; i < SLOTS; i++) {
        if (slot_used[i])
            continue;
        memcpy(slot_path[i], path, strlen(path) + 1);
        slot_used[i] = 1;
        return i;
    }
    return -1;
}

int ry_cleanup_move(int handle, const char *path)
{
    if (handle < 0 || handle >= SLOTS || strlen(path) >= PATH_MAX)
        return -1;
    sigset_t saved;
    ry_cleanup_block(&saved);
    memcpy(slot_path[handle], path, strlen(path) + 1);
    ry_cleanup_unblock(&saved);
    return 0;
}

void ry_cleanup_forget(int handle)
{
    if (handle >= 0 && handle < SLOTS)
        slot_used[handle] = 0;
}

void ry_cleanup_block(sigset_t *saved)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(SIG_BLOCK, &set, saved);
}

void ry_cleanup_unblock(const sigset_t *saved)
{
    sigprocmask(SIG_SETMASK, saved, NULL);
}

/* ---- removal, async-signal-safe ---------------------------------------------------------------- */

/* 1 when the directory open at fd is the root of a mount other than the one
 * of its parent (device dev): removal stops there. */
static int other_mount(int fd, dev_t dev)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_dev != dev)
        return 1;
#ifdef STATX_ATTR_MOUNT_ROOT
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_TYPE, &sx) == 0 &&
        (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
        (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
        return 1;
#endif
    return 0;
}

struct dirent64_raw {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Empties the directory open at fd; depth bounds the recursion. */
static int empty_dir(int fd, dev_t dev, int depth)
{
    char buf[2048] __attribute__((aligned(8)));
    int rc = 0;
    if (depth > 128) {
        errno = ELOOP;
        return -1;
    }
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        for (long off = 0; off < n;) {
            struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
            off += d->d_reclen;
            const char *name = d->d_name;
            if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
                continue;
            if (unlinkat(fd, name, 0) == 0 || errno == ENOENT)
                continue;
            if (errno != EISDIR && errno != EPERM) {
                rc = -1;
                continue;
            }
            int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) {
                rc = -1;
                continue;
            }
            if (other_mount(sub, dev)) {
                close(sub);
                errno = EBUSY;
                rc = -1;
                continue;
            }
            if (empty_dir(sub, dev, depth + 1) < 0)
                rc = -1;
            close(sub);
            if (unlinkat(fd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
                rc = -1;
        }
    }
    return rc;
}

int ry_rmtree(const char *path)
{
    if (unlink(path) == 0 || errno == ENOENT)
        return 0;
    if (errno != EISDIR && errno != EPERM)
        return -1;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    int rc = fstat(fd, &st);
    if (rc == 0) {
#ifdef STATX_ATTR_MOUNT_ROOT
        struct statx sx;
        if (statx(fd, "", AT_EMPTY_PATH, STATX_TYPE, &sx) == 0 &&
            (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
            (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT)) {
            close(fd);
            errno = EBUSY;
            return -1;
        }
#endif
        rc = empty_dir(fd, st.st_dev, 0);
    }
    close(fd);
    if (rc == 0 && rmdir(path) < 0 && errno != ENOENT)
        rc = -1;
    return rc;
}

/* ---- names -------------------------------------------------------------------------------------- */

void ry_random_hex(char *buf, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[64];
    size_t want = (n - 1 + 1) / 2;
    if (want > sizeof raw)
        want = sizeof raw;
    size_t got = 0;
    while (got < want) {
        ssize_t r = getrandom(raw + got, want - got, GRND_NONBLOCK);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got < want) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t r = read(fd, raw + got, want - got);
            if (r > 0)
                got += (size_t)r;
            close(fd);
        }
    }
    if (got < want) {
        /* No randomness: still unlikely to collide, and every name is made
         * with O_EXCL or mkdir, which never follow a planted link. */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid();
        for (; got < want; got++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            raw[got] = (unsigned char)(x >> 56);
        }
    }
    size_t i = 0;
    for (; i + 1 < n && i / 2 < want; i++)
        buf[i] = hex[i % 2 ? raw[i / 2] & 15 : raw[i / 2] >> 4];
    buf[i] = '\0';
}

int ry_pid_alive(long pid)
{
    if (pid <= 0)
        return 1;
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* The pid in NAME = PREFIX<pid>-<hex>, or -1 when name has another form. */
static long stale_pid(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0)
        return -1;
    const char *s = name + n;
    long pid = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        pid = pid * 10 + (*s - '0');
        if (pid > 1L << 31)
            return -1;
    }
    if (*s++ != '-' || !*s)
        return -1;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return -1;
    return pid;
}

int ry_sweep_stale(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int removed = 0;
    ry_buf path;
    ry_buf_init(&path);
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid = stale_pid(e->d_name, prefix);
        if (pid < 0 || pid == (long)getpid() || ry_pid_alive(pid))
            continue;
        struct stat st;
        ry_buf_reset(&path);
        ry_buf_printf(&path, "%s/%s", dir, e->d_name);
        /* Only what this user made: a process of another pid namespace
         * sharing the directory would look dead. */
        if (lstat(path.data, &st) < 0 || st.st_uid != geteuid())
            continue;
        if (ry_rmtree(path.data) == 0)
            removed++;
    }
    closedir(d);
    ry_buf_free(&path);
    return removed;
}

/* ---- private scratch directories ---------------------------------------------------------------- */

typedef struct tag_set {
    char v[8][32];
    int n;
} tag_set;

static const char *tmp_base(int shm_ok)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = shm_ok && access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    return base;
}

void ry_tmpdir_sweep(void)
{
    const char *bases[2] = { tmp_base(1), tmp_base(0) };
    for (int b = 0; b < 2; b++) {
        if (b == 1 && strcmp(bases[0], bases[1]) == 0)
            break;
        DIR *d = opendir(bases[b]);
        if (!d)
            continue;
        tag_set tags;
        tags.n = 0;
        struct dirent *e;
        /* railyard-TAG-<pid>-<hex>, TAG lowercase letters */
        while ((e = readdir(d)) && tags.n < 8) {
            const char *s = e->d_name;
            if (strncmp(s, "railyard-", 9) != 0)
                continue;
            size_t n = 9;
            while (s[n] >= 'a' && s[n] <= 'z')
                n++;
            if (n == 9 || s[n] != '-' || n + 1 >= sizeof tags.v[0])
                continue;
            int seen = 0;
            for (int i = 0; i < tags.n && !seen; i++)
                seen = strncmp(tags.v[i], s, n + 1) == 0 && tags.v[i][n + 1] == '\0';
            if (!seen) {
                memcpy(tags.v[tags.n], s, n + 1);
                tags.v[tags.n++][n + 1] = '\0';
            }
        }
        closedir(d);
        for (int i = 0; i < tags.n; i++)
            ry_sweep_stale(bases[b], tags.v[i]);
    }
}

char *ry_tmpdir_new(const char *tag, int shm_ok)
{
    const char *base = tmp_base(shm_ok);
    ry_buf prefix, path;
    ry_buf_init(&prefix);
    ry_buf_init(&path);
    ry_buf_printf(&prefix, "railyard-%s-", tag);
    ry_sweep_stale(base, prefix.data);
    int err = EEXIST;
    /* Made and registered with the signals held: none may fall between. */
    sigset_t saved;
    ry_cleanup_block(&saved);
    for (int tries = 0; tries < 100 && err == EEXIST; tries++) {
        char rnd[17];
        ry_random_hex(rnd, sizeof rnd);
        ry_buf_reset(&path);
        ry_buf_printf(&path, "%s/%s%ld-%s", base, prefix.data, (long)getpid(), rnd);
        err = mkdir(path.data, 0700) == 0 ? 0 : errno;
    }
    if (!err)
        ry_cleanup_add(path.data);
    ry_cleanup_unblock(&saved);
    ry_buf_free(&prefix);
    if (err) {
        ry_error("cannot create a temporary directory '%s': %s", path.data, strerror(err));
        ry_buf_free(&path);
        return NULL;
    }
    return path.data;
}

void ry_tmpdir_free(char *dir)
{
    if (!dir)
        return;
    ry_rmtree(dir);
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i] && strcmp(slot_path[i], dir) == 0)
            ry_cleanup_forget(i);
    free(dir);
}
