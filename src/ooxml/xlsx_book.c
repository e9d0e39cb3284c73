/* A workbook: libxlsxwriter, quiet, in a scratch directory, with rows put
 * in at the end (xlsx_book.h). */
#include "ooxml/xlsx_book.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "util/alloc.h"
#include "util/stderr_lock.h"
#include "util/cleanup.h"
#include "util/diag.h"

#define FIXED_CREATED ((time_t)946684800)   /* 2000-01-01T00:00:00Z */

/* ---- libxlsxwriter, quiet -------------------------------------------------------------------- */

static int lib_mute(void)
{
    ry_stderr_lock();       /* no other thread's diagnostic goes to /dev/null */
    fflush(stderr);
    int saved = dup(STDERR_FILENO), nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && nul >= 0)
        dup2(nul, STDERR_FILENO);
    if (nul >= 0)
        close(nul);
    return saved;
}

static void lib_unmute(int saved)
{
    if (saved >= 0) {
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    ry_stderr_unlock();
}

/* ---- the workbook ----------------------------------------------------------------------------- */

int ry_xbook_open(ry_xbook *b, const char *path, const char *tag, const char *title,
                  unsigned long long xml_bound)
{
    memset(b, 0, sizeof *b);
    b->tmp = ry_tmpdir_new(tag, xml_bound <= RY_XLSX_SHM_XML);
    if (!b->tmp)
        return -1;
    lxw_workbook_options opt = {
        .constant_memory = LXW_TRUE, .tmpdir = b->tmp, .use_zip64 = xml_bound > 0xFFFFFFFFull
    };
    size_t n = strlen(b->tmp) + 16;
    b->inner = ry_xmalloc(n);
    snprintf(b->inner, n, "%s/book.xlsx", b->tmp);
    int m = lib_mute();
    b->wb = workbook_new_opt(b->inner, &opt);
    lib_unmute(m);
    if (!b->wb) {
        ry_error("cannot start the workbook '%s'", path);
        ry_tmpdir_free(b->tmp);
        free(b->inner);
        return -1;
    }
    b->path = ry_xstrdup(path);
    lxw_doc_properties props = { .title = (char *)title, .created = FIXED_CREATED };
    workbook_set_properties(b->wb, &props);
    return 0;
}

lxw_worksheet *ry_xbook_sheet(ry_xbook *b, const char *name)
{
    int m = lib_mute();
    lxw_worksheet *ws = workbook_add_worksheet(b->wb, name);
    lib_unmute(m);
    if (ws)
        b->nsheets++;
    else
        b->failed = 1;
    return ws;
}

ry_xrows *ry_xbook_rows(ry_xbook *b, int ncols)
{
    ry_xrows *r = ry_xrows_new(b->tmp, b->nsheets, ncols);
    if (!r)
        b->failed = 1;
    RY_ALLOC_GROW(b->rows, b->nrows + 1, b->cap_rows);
    b->rows[b->nrows++] = r;
    return r;
}

int ry_xbook_close(ry_xbook *b)
{
    int m = lib_mute();
    lxw_error e = workbook_close(b->wb);
    lib_unmute(m);
    int rc = 0;
    if (e != LXW_NO_ERROR || b->failed) {
        ry_error("cannot write the workbook '%s': %s", b->path,
                 e != LXW_NO_ERROR ? lxw_strerror(e) : "a cell or sheet was refused");
        rc = -1;
    }
    if (rc == 0)
        rc = ry_xlsx_splice(b->inner, b->path, b->rows, b->nrows);
    else
        for (int i = 0; i < b->nrows; i++)
            ry_xrows_free(b->rows[i]);
    free(b->rows);
    free(b->inner);
    free(b->path);
    ry_tmpdir_free(b->tmp);
    return rc;
}

int ry_xlsx_enough_files(long long sheets)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)sheets + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1;
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
        return 1;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
    if (rl.rlim_cur < need && rl.rlim_max != RLIM_INFINITY)
        rl.rlim_cur = rl.rlim_max;
    return setrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur >= need;
}
