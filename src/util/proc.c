/* Running another program (see proc.h).
 *
 * The child reports a failed chdir or exec through a close-on-exec pipe:
 * the parent reads it before anything else, so "not found" is known for
 * sure (reading EOF means the exec happened) and never mistaken for a
 * program that failed with status 127. Every pipe end is moved above
 * descriptor 2 and made close-on-exec, so the child's dup2 calls cannot
 * overwrite one another and it inherits nothing else of ours. */
#include "util/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/diag.h"

/* The default search path when $PATH is unset or empty. */
#define PROC_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"
/* Bytes moved per read or write. */
#define PROC_CHUNK 65536

/* The program to exec: argv0 itself when it names a path, else the first
 * executable regular file of that name on $PATH. NULL when there is none. */
static char *resolve(const char *argv0)
{
    if (strchr(argv0, '/'))
        return ry_xstrdup(argv0);
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = PROC_DEFAULT_PATH;
    ry_buf b;
    ry_buf_init(&b);
    while (*path) {
        size_t n = strcspn(path, ":");
        ry_buf_reset(&b);
        if (n == 0)
            ry_buf_puts(&b, ".");
        else
            ry_buf_add(&b, path, n);
        ry_buf_printf(&b, "/%s", argv0);
        struct stat st;
        if (stat(b.data, &st) == 0 && S_ISREG(st.st_mode) && access(b.data, X_OK) == 0)
            return b.data;
        path += n;
        if (*path == ':')
            path++;
    }
    ry_buf_free(&b);
    return NULL;
}

/* A pipe whose ends are close-on-exec and above 2. */
static int pipe_high(int fd[2])
{
    int raw[2];
    if (pipe(raw) < 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        fd[i] = fcntl(raw[i], F_DUPFD_CLOEXEC, 3);
        close(raw[i]);
    }
    if (fd[0] < 0 || fd[1] < 0) {
        int e = errno;
        if (fd[0] >= 0)
            close(fd[0]);
        if (fd[1] >= 0)
            close(fd[1]);
        errno = e;
        return -1;
    }
    return 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* What the child sends back when it cannot get as far as running the
 * program. */
typedef struct child_fail {
    int step; /* 0: chdir, 1: exec */
    int err;
} child_fail;

/* In the child, after fork: only async-signal-safe calls. */
__attribute__((noreturn)) static void child(const ry_proc *p, const char *prog, int in, int out, int err, int status)
{
    if (in < 0)
        in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (out < 0)
        out = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (in >= 0)
        dup2(in, 0);
    if (out >= 0)
        dup2(out, 1);
    if (err >= 0)
        dup2(err, 2);
    signal(SIGPIPE, SIG_DFL);
    child_fail f = { 0, 0 };
    if (p->dir && chdir(p->dir) < 0) {
        f.err = errno;
    } else {
        execv(prog, (char *const *)p->argv);
        f.step = 1;
        f.err = errno;
    }
    ssize_t w = write(status, &f, sizeof f);
    (void)w;
    _exit(127);
}

static void fail(ry_proc_result *r, ry_proc_status st, int err, const char *step)
{
    r->status = st;
    r->err = err;
    r->step = step;
}

/* Feeds standard input and drains standard output and error until all
 * three are closed. 0, or an errno from poll. */
static int pump(const ry_proc *p, int in, int out, int err, ry_proc_result *r)
{
    char chunk[PROC_CHUNK];
    const char *src = p->in;
    while (in >= 0 || out >= 0 || err >= 0) {
        struct pollfd pf[3];
        int np = 0, ii = -1, io = -1, ie = -1;
        if (in >= 0) {
            pf[np] = (struct pollfd){ in, POLLOUT, 0 };
            ii = np++;
        }
        if (out >= 0) {
            pf[np] = (struct pollfd){ out, POLLIN, 0 };
            io = np++;
        }
        if (err >= 0) {
            pf[np] = (struct pollfd){ err, POLLIN, 0 };
            ie = np++;
        }
        if (poll(pf, (nfds_t)np, -1) < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close_fd(&in);
            close_fd(&out);
            close_fd(&err);
            return e;
        }
        if (ii >= 0 && pf[ii].revents) {
            size_t left = p->in_len - r->in_sent;
            ssize_t w = write(in, src + r->in_sent, left < PROC_CHUNK ? left : PROC_CHUNK);
            if (w > 0)
                r->in_sent += (size_t)w;
            /* EPIPE: the program stopped reading; in_sent tells the caller */
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || r->in_sent == p->in_len)
                close_fd(&in);
        }
        int *fds[2] = { &out, &err };
        int idx[2] = { io, ie };
        ry_buf *to[2] = { p->out, p->err };
        for (int k = 0; k < 2; k++) {
            if (idx[k] < 0 || !pf[idx[k]].revents)
                continue;
            ssize_t got = read(*fds[k], chunk, sizeof chunk);
            if (got > 0)
                ry_buf_add(to[k], chunk, (size_t)got);
            else if (got == 0 || (errno != EAGAIN && errno != EINTR))
                close_fd(fds[k]);
        }
    }
    return 0;
}

int ry_proc_run(const ry_proc *p, ry_proc_result *r)
{
    memset(r, 0, sizeof *r);
    char *prog = resolve(p->argv[0]);
    if (!prog) {
        fail(r, RY_PROC_NOT_FOUND, ENOENT, "exec");
        return -1;
    }
    /* pipes: 0 stdin, 1 stdout, 2 stderr, 3 the child's report */
    int pp[4][2];
    for (int i = 0; i < 4; i++)
        pp[i][0] = pp[i][1] = -1;
    int want[4] = { p->in != NULL, p->out != NULL, p->err != NULL, 1 };
    for (int i = 0; i < 4; i++) {
        if (want[i] && pipe_high(pp[i]) < 0) {
            fail(r, RY_PROC_ERROR, errno, "pipe");
            for (int j = 0; j < i; j++) {
                close_fd(&pp[j][0]);
                close_fd(&pp[j][1]);
            }
            free(prog);
            return -1;
        }
    }
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child(p, prog, pp[0][0], pp[1][1], pp[2][1], pp[3][1]);
    int fork_err = errno;
    free(prog);
    close_fd(&pp[0][0]);
    close_fd(&pp[1][1]);
    close_fd(&pp[2][1]);
    close_fd(&pp[3][1]);
    if (pid < 0) {
        for (int i = 0; i < 4; i++)
            close_fd(&pp[i][i == 0 ? 1 : 0]);
        sigaction(SIGPIPE, &old, NULL);
        fail(r, RY_PROC_ERROR, fork_err, "fork");
        return -1;
    }

    /* EOF here means the exec succeeded */
    child_fail f;
    ssize_t got;
    while ((got = read(pp[3][0], &f, sizeof f)) < 0 && errno == EINTR)
        ;
    close_fd(&pp[3][0]);
    int perr = 0;
    if (got == (ssize_t)sizeof f) {
        close_fd(&pp[0][1]);
        close_fd(&pp[1][0]);
        close_fd(&pp[2][0]);
    } else {
        if (pp[0][1] >= 0) {
            fcntl(pp[0][1], F_SETFL, fcntl(pp[0][1], F_GETFL) | O_NONBLOCK);
            if (p->in_len == 0)
                close_fd(&pp[0][1]);
        }
        perr = pump(p, pp[0][1], pp[1][0], pp[2][0], r);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGPIPE, &old, NULL);

    if (got == (ssize_t)sizeof f) {
        int missing = f.step == 1 && (f.err == ENOENT || f.err == ENOTDIR || f.err == EACCES);
        fail(r, missing ? RY_PROC_NOT_FOUND : RY_PROC_ERROR, f.err,
             f.step == 1 ? "exec" : "chdir");
        return -1;
    }
    if (perr) {
        fail(r, RY_PROC_ERROR, perr, "poll");
        return -1;
    }
    if (WIFEXITED(status)) {
        r->code = WEXITSTATUS(status);
        r->status = r->code == 0 ? RY_PROC_OK : RY_PROC_EXIT;
    } else {
        r->code = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        r->status = RY_PROC_SIGNAL;
    }
    return r->status == RY_PROC_OK ? 0 : -1;
}

/* The command line for messages: the program and up to three arguments. */
static void put_command(ry_buf *msg, const ry_proc *p)
{
    ry_buf_puts(msg, p->argv[0]);
    for (int i = 1; i < 4 && p->argv[i]; i++)
        ry_buf_printf(msg, " %s", p->argv[i]);
    if (p->argv[1] && p->argv[2] && p->argv[3] && p->argv[4])
        ry_buf_puts(msg, " ...");
}

/* What the program said on standard error, if captured: one line after
 * ": ", several (at most REASON_LINES) on lines of their own, indented, so
 * that a caret under a quoted line still points at the right place. */
#define REASON_LINES 10
static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void put_reason(ry_buf *msg, const ry_proc *p)
{
    if (!p->err || !p->err->len)
        return;
    const char *s = p->err->data, *end = s + p->err->len;
    /* drop blank lines before and trailing white space after */
    for (const char *t = s; t < end && is_blank(*t); t++)
        if (*t == '\n')
            s = t + 1;
    while (end > s && is_blank(end[-1]))
        end--;
    if (s == end)
        return;
    if (!memchr(s, '\n', (size_t)(end - s))) {
        while (*s == ' ' || *s == '\t')
            s++;
        ry_buf_puts(msg, ": ");
        ry_buf_add(msg, s, (size_t)(end - s) < 300 ? (size_t)(end - s) : 300);
        return;
    }
    ry_buf_putc(msg, ':');
    for (int line = 0; s < end; line++) {
        if (line == REASON_LINES) {
            ry_buf_puts(msg, "\n  ...");
            break;
        }
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (n && s[n - 1] == '\r')
            n--;
        ry_buf_puts(msg, "\n  ");
        ry_buf_add(msg, s, n < 300 ? n : 300);
        s = nl ? nl + 1 : end;
    }
}

void ry_proc_describe(const ry_proc *p, const ry_proc_result *r, ry_buf *msg)
{
    switch (r->status) {
    case RY_PROC_OK:
        break;
    case RY_PROC_NOT_FOUND:
        ry_buf_printf(msg, "cannot run %s: %s", p->argv[0],
                      r->err == ENOENT ? "not found" : strerror(r->err));
        break;
    case RY_PROC_ERROR:
        ry_buf_printf(msg, "cannot run %s: ", p->argv[0]);
        if (strcmp(r->step, "chdir") == 0)
            ry_buf_printf(msg, "cannot enter '%s'", p->dir ? p->dir : "");
        else
            ry_buf_puts(msg, r->step);
        ry_buf_printf(msg, ": %s", strerror(r->err));
        break;
    case RY_PROC_EXIT:
        put_command(msg, p);
        ry_buf_printf(msg, " failed (exit status %d)", r->code);
        put_reason(msg, p);
        break;
    case RY_PROC_SIGNAL:
        put_command(msg, p);
        ry_buf_printf(msg, " was killed by signal %d", r->code);
        put_reason(msg, p);
        break;
    }
}
