/* The subprocess runner (src/util/proc.c) with the shell's own tools:
 * megabytes through the pipes both ways (a program that writes before it
 * reads, standard output and error at once), a missing or non-executable
 * program told apart from one that fails (even with status 127), exit
 * status, signal, standard error captured and quoted, a program that stops
 * reading, the working directory, no standard input.
 *
 * usage: proc_test; exits non-zero on a failure. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util/proc.h"

typedef struct run {
    ry_buf out, err, msg;
    ry_proc_result r;
    int rc;
} run;

/* Runs argv with input in[0..len) and both outputs captured. */
static void run_it(run *x, const char *const *argv, const char *dir, const void *in, size_t len)
{
    ry_buf_init(&x->out);
    ry_buf_init(&x->err);
    ry_buf_init(&x->msg);
    ry_proc p = { argv, dir, in, len, &x->out, &x->err };
    x->rc = ry_proc_run(&p, &x->r);
    ry_proc_describe(&p, &x->r, &x->msg);
}

static void run_free(run *x)
{
    ry_buf_free(&x->out);
    ry_buf_free(&x->err);
    ry_buf_free(&x->msg);
}

static int all_bytes(const ry_buf *b, size_t n, char c)
{
    if (b->len != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (b->data[i] != c)
            return 0;
    return 1;
}

int main(void)
{
    size_t big = 8u << 20;
    char *data = malloc(big);
    for (size_t i = 0; i < big; i++)
        data[i] = (char)('a' + i % 23);
    run x;

    /* 8 MB in and out: the pipes hold 64 KB, so only polling both ends
     * gets through */
    const char *cat[] = { "cat", NULL };
    run_it(&x, cat, NULL, data, big);
    CHECK(x.rc == 0 && x.r.status == RY_PROC_OK, "cat: rc %d status %d", x.rc, x.r.status);
    CHECK(x.out.len == big && memcmp(x.out.data, data, big) == 0, "cat: %zu bytes back", x.out.len);
    CHECK(x.r.in_sent == big, "cat: %zu bytes sent", x.r.in_sent);
    CHECK(x.msg.len == 0, "cat: message '%s'", x.msg.data);
    run_free(&x);

    /* writes 2 MB before reading its input */
    const char *first[] = { "sh", "-c", "head -c 2000000 /dev/zero; cat", NULL };
    run_it(&x, first, NULL, data, big);
    CHECK(x.rc == 0, "write first: %s", x.msg.data);
    CHECK(x.out.len == 2000000 + big && memcmp(x.out.data + 2000000, data, big) == 0,
          "write first: %zu bytes back", x.out.len);
    run_free(&x);

    /* standard output and error, 3 MB each, at once */
    const char *both[] = { "sh", "-c", "head -c 3000000 /dev/zero & head -c 3000000 /dev/zero >&2; wait",
                           NULL };
    run_it(&x, both, NULL, NULL, 0);
    CHECK(x.rc == 0, "both: %s", x.msg.data);
    CHECK(all_bytes(&x.out, 3000000, 0), "both: %zu bytes of output", x.out.len);
    CHECK(all_bytes(&x.err, 3000000, 0), "both: %zu bytes of error", x.err.len);
    run_free(&x);

    /* not found on PATH, not found by path, not executable */
    const char *none[] = { "railyard-no-such-program", NULL };
    run_it(&x, none, NULL, data, 100);
    CHECK(x.rc == -1 && x.r.status == RY_PROC_NOT_FOUND, "missing: status %d", x.r.status);
    CHECK(strcmp(x.msg.data, "cannot run railyard-no-such-program: not found") == 0, "missing: '%s'",
          x.msg.data);
    run_free(&x);
    const char *nopath[] = { "/nonexistent/dir/prog", "-x", NULL };
    run_it(&x, nopath, NULL, NULL, 0);
    CHECK(x.r.status == RY_PROC_NOT_FOUND && x.r.err == ENOENT, "missing path: status %d err %d",
          x.r.status, x.r.err);
    CHECK(strcmp(x.msg.data, "cannot run /nonexistent/dir/prog: not found") == 0, "missing path: '%s'",
          x.msg.data);
    run_free(&x);
    char tmpl[] = "/tmp/proc_test.XXXXXX";
    int fd = mkstemp(tmpl);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    const char *noexec[] = { tmpl, NULL };
    run_it(&x, noexec, NULL, NULL, 0);
    CHECK(x.r.status == RY_PROC_NOT_FOUND && x.r.err == EACCES, "not executable: status %d err %d",
          x.r.status, x.r.err);
    CHECK(strstr(x.msg.data, "cannot run /tmp/proc_test.") && strstr(x.msg.data, strerror(EACCES)),
          "not executable: '%s'", x.msg.data);
    run_free(&x);
    unlink(tmpl);

    /* a non-zero exit, with what the program said; 127 is an exit too */
    const char *exit3[] = { "sh", "-c", "echo; echo '  first line' >&2; echo second >&2; exit 3", NULL };
    run_it(&x, exit3, NULL, NULL, 0);
    CHECK(x.rc == -1 && x.r.status == RY_PROC_EXIT && x.r.code == 3, "exit 3: status %d code %d",
          x.r.status, x.r.code);
    CHECK(strcmp(x.err.data, "  first line\nsecond\n") == 0, "exit 3: error '%s'", x.err.data);
    CHECK(strcmp(x.out.data, "\n") == 0, "exit 3: output '%s'", x.out.data);
    CHECK(strcmp(x.msg.data, "sh -c echo; echo '  first line' >&2; echo second >&2; exit 3 failed "
                             "(exit status 3):\n    first line\n  second") == 0,
          "exit 3: '%s'", x.msg.data);
    run_free(&x);
    const char *exit1[] = { "sh", "-c", "printf '\\n \\n  the reason \\n\\n' >&2; exit 1", NULL };
    run_it(&x, exit1, NULL, NULL, 0);
    CHECK(x.r.status == RY_PROC_EXIT && x.r.code == 1, "exit 1: status %d", x.r.status);
    CHECK(strcmp(x.msg.data, "sh -c printf '\\n \\n  the reason \\n\\n' >&2; exit 1 failed "
                             "(exit status 1): the reason") == 0,
          "exit 1: '%s'", x.msg.data);
    run_free(&x);
    const char *exit127[] = { "sh", "-c", "exit 127", NULL };
    run_it(&x, exit127, NULL, NULL, 0);
    CHECK(x.r.status == RY_PROC_EXIT && x.r.code == 127, "exit 127: status %d", x.r.status);
    CHECK(strcmp(x.msg.data, "sh -c exit 127 failed (exit status 127)") == 0, "exit 127: '%s'",
          x.msg.data);
    run_free(&x);

    /* a signal */
    const char *killed[] = { "sh", "-c", "kill -TERM $$", NULL };
    run_it(&x, killed, NULL, NULL, 0);
    CHECK(x.r.status == RY_PROC_SIGNAL && x.r.code == SIGTERM, "signal: status %d code %d", x.r.status,
          x.r.code);
    CHECK(strstr(x.msg.data, "was killed by signal 15") != NULL, "signal: '%s'", x.msg.data);
    run_free(&x);

    /* stops reading at once: no SIGPIPE for us, the shortfall is reported */
    const char *quit[] = { "true", NULL };
    run_it(&x, quit, NULL, data, big);
    CHECK(x.rc == 0 && x.r.in_sent < big, "stops reading: rc %d, %zu sent", x.rc, x.r.in_sent);
    run_free(&x);
    struct sigaction sa;
    sigaction(SIGPIPE, NULL, &sa);
    CHECK(sa.sa_handler == SIG_DFL, "SIGPIPE not restored");

    /* working directory */
    char dir[PATH_MAX];
    /* /tmp's physical name, and a different directory of our own */
    CHECK(chdir("/tmp") == 0 && getcwd(dir, sizeof dir) != NULL && chdir("/") == 0, "getcwd");
    const char *pwd[] = { "sh", "-c", "pwd -P", NULL };
    run_it(&x, pwd, "/tmp", NULL, 0);
    CHECK(x.rc == 0 && x.out.len == strlen(dir) + 1 && strncmp(x.out.data, dir, strlen(dir)) == 0,
          "dir: '%s'", x.out.data);
    run_free(&x);
    run_it(&x, pwd, "/nonexistent/dir", NULL, 0);
    CHECK(x.r.status == RY_PROC_ERROR && x.r.err == ENOENT, "bad dir: status %d", x.r.status);
    CHECK(strstr(x.msg.data, "cannot enter '/nonexistent/dir'") != NULL, "bad dir: '%s'", x.msg.data);
    run_free(&x);

    /* no input: /dev/null */
    run_it(&x, cat, NULL, NULL, 0);
    CHECK(x.rc == 0 && x.out.len == 0, "no input: rc %d, %zu bytes", x.rc, x.out.len);
    run_free(&x);

    free(data);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
