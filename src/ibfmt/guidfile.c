#include "ibfmt/guidfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "io/input.h"
#include "util/lines.h"

#define MAX_LINE 1024
#define MAX_ERRORS 50
#define MAX_BYTES (256LL << 20)

typedef struct reader {
    const char *path;
    FILE *fp;
    ry_lines lines;
    int line, errors;
} reader;

static int reader_open(reader *r, const char *path)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    const char *why;
    r->fp = ry_input_fopen(path, &why);
    if (!r->fp) {
        ry_io_error("cannot read '%s': %s", path, why);
        return -1;
    }
    ry_lines_init(&r->lines, r->fp, MAX_LINE + 1, MAX_BYTES);
    return 0;
}

/* The next line without its newline, or NULL at the end. */
static char *reader_next(reader *r)
{
    size_t n;
    int too_long;
    char *l;
    while (r->errors < MAX_ERRORS && (l = ry_lines_next(&r->lines, &n, &too_long))) {
        r->line++;
        while (n > 0 && (l[n - 1] == '\n' || l[n - 1] == '\r'))
            l[--n] = '\0';
        if (too_long || n > MAX_LINE) {
            ry_error_at((ry_pos){ r->path, r->line, MAX_LINE + 1 }, "line longer than %d "
                        "characters", MAX_LINE);
            r->errors++;
            continue;
        }
        if (memchr(l, '\0', n)) {
            ry_error_at((ry_pos){ r->path, r->line, (int)strlen(l) + 1 }, "NUL byte in a text "
                        "file");
            r->errors++;
            continue;
        }
        return l;
    }
    return NULL;
}

static int reader_close(reader *r)
{
    int rc = RY_EXIT_OK;
    if (r->lines.err) {
        ry_io_error("cannot read '%s': %s", r->path, strerror(r->lines.err_no ? r->lines.err_no
                                                                               : EIO));
        rc = RY_EXIT_IO;
    } else if (r->lines.too_big) {
        ry_error_at((ry_pos){ r->path, r->line + 1, 1 }, "the file is larger than %lld MiB",
                    MAX_BYTES >> 20);
        rc = RY_EXIT_INPUT;
    } else if (r->errors) {
        rc = RY_EXIT_INPUT;
    }
    if (r->errors >= MAX_ERRORS)
        ry_error("%s: too many errors, giving up", r->path);
    ry_lines_free(&r->lines);
    fclose(r->fp);
    return rc;
}

static void rerr(reader *r, const char *line, const char *at, const char *msg, const char *want)
{
    ry_error_at((ry_pos){ r->path, r->line, (int)(at - line) + 1 }, "%s, expected %s", msg, want);
    r->errors++;
}

/* A hex number at *p (0x optional) ending at a separator; advances *p. */
static int hex_at(const char **p, const char *seps, uint64_t *v)
{
    const char *s = *p;
    char *e;
    if (!isxdigit((unsigned char)*s))
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &e, 16);
    if (errno || (*e && !strchr(seps, *e)))
        return -1;
    *v = x;
    *p = e;
    return 0;
}

/* ---- guid2lid ---------------------------------------------------------------- */

int ry_guid2lid_load(const char *path, ry_guid2lid *g)
{
    memset(g, 0, sizeof *g);
    reader r;
    if (reader_open(&r, path) < 0)
        return RY_EXIT_IO;
    size_t cap = 0;
    char *l;
    while ((l = reader_next(&r))) {
        const char *p = l + strspn(l, " \t");
        if (!*p || *p == '#')
            continue;
        uint64_t v[3];
        int k;
        for (k = 0; k < 3; k++) {
            p += strspn(p, " \t");
            if (*p == '0' && (p[1] == 'x' || p[1] == 'X'))
                p += 2;
            if (hex_at(&p, " \t", &v[k]) < 0)
                break;
        }
        if (k < 3) {
            rerr(&r, l, p, k == 0 ? "not a port GUID" : "not a LID", "\"0xGUID 0xLID 0xLID\"");
            continue;
        }
        if (v[1] == 0 || v[1] > 0xBFFF || v[2] < v[1] || v[2] > 0xBFFF) {
            rerr(&r, l, l + strspn(l, " \t"), "LIDs out of the unicast range",
                 "LIDs 0x0001 to 0xbfff, the last not below the first");
            continue;
        }
        RY_ALLOC_GROW2(g->guid, g->lid, g->n + 1, cap);
        g->guid[g->n] = v[0];
        g->lid[g->n++] = (uint16_t)v[1];
    }
    return reader_close(&r);
}

void ry_guid2lid_free(ry_guid2lid *g)
{
    if (!g)
        return;
    free(g->guid);
    free(g->lid);
    memset(g, 0, sizeof *g);
}

/* ---- inventory ---------------------------------------------------------------- */

/* Splits a CSV line in place into at most 8 fields (no quoting: names and
 * GUIDs hold no commas). */
static int split(char *l, char **f, int max)
{
    int n = 0;
    for (char *p = l;;) {
        if (n == max)
            return max + 1;
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    for (int i = 0; i < n; i++) {
        while (*f[i] == ' ' || *f[i] == '\t' || *f[i] == '"')
            f[i]++;
        size_t m = strlen(f[i]);
        while (m > 0 && (f[i][m - 1] == ' ' || f[i][m - 1] == '\t' || f[i][m - 1] == '"'))
            f[i][--m] = '\0';
    }
    return n;
}

/* The field f (split from line; at the same offset in copy) as a GUID. */
static int guid_field(reader *r, const char *copy, const char *line, const char *f, uint64_t *v)
{
    const char *p = f;
    if (*p == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (hex_at(&p, "", v) < 0 || *v == 0) {
        rerr(r, copy, copy + (f - line), "not a GUID",
             "a non-zero hex number such as 0x0c42a10300abcdef");
        return -1;
    }
    return 0;
}

static int check_unique(const ry_inventory *inv);

int ry_inventory_load(const char *path, ry_inventory *inv)
{
    memset(inv, 0, sizeof *inv);
    inv->path = ry_xstrdup(path);
    reader r;
    if (reader_open(&r, path) < 0)
        return RY_EXIT_IO;
    size_t cap = 0;
    int seen = 0;
    char *l, copy[MAX_LINE + 2];
    while ((l = reader_next(&r))) {
        const char *s = l + strspn(l, " \t");
        if (!*s || *s == '#')
            continue;
        snprintf(copy, sizeof copy, "%s", l);
        char *f[8];
        int n = split(l, f, 8);
        if (!seen++ && n >= 2 && n <= 8 && (strstr(copy, "guid") || strstr(copy, "GUID")) &&
            !isxdigit((unsigned char)f[n - 1][0]))
            continue;   /* the header */
        ry_inv_row row = { NULL, n == 2, 0, 0, r.line };
        if (n != 2 && n != 4) {
            rerr(&r, copy, copy, "wrong number of fields",
                 "host,nic,port_guid,node_guid or switch,node_guid");
            continue;
        }
        if (!f[0][0] || (n == 4 && !f[1][0])) {
            rerr(&r, copy, copy, "an empty name", "a host and a NIC name, or a switch name");
            continue;
        }
        if (n == 4 && guid_field(&r, copy, l, f[2], &row.port_guid) < 0)
            continue;
        if (guid_field(&r, copy, l, n == 4 ? f[3] : f[1], &row.node_guid) < 0)
            continue;
        size_t len = strlen(f[0]) + (n == 4 ? strlen(f[1]) + 1 : 0) + 1;
        row.name = ry_xmalloc(len);
        if (n == 4)
            snprintf(row.name, len, "%s %s", f[0], f[1]);
        else
            snprintf(row.name, len, "%s", f[0]);
        RY_ALLOC_GROW(inv->rows, inv->n + 1, cap);
        inv->rows[inv->n++] = row;
    }
    int rc = reader_close(&r);
    if (rc == RY_EXIT_OK && check_unique(inv))
        rc = RY_EXIT_INPUT;
    return rc;
}

/* ---- one device, one row; one GUID, one device ----------------------------- */

typedef struct inv_key {
    uint64_t guid;
    size_t row;
    int port;           /* 1: a NIC's port GUID or a switch's GUID (unique), 0: a NIC's node GUID */
} inv_key;

static int cmp_inv_key(const void *a, const void *b)
{
    const inv_key *x = a, *y = b;
    if (x->guid != y->guid)
        return x->guid < y->guid ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static int cmp_row_name(const void *a, const void *b, void *rows)
{
    const ry_inv_row *r = rows;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(r[x].name, r[y].name);
    return c ? c : (x > y) - (x < y);
}

/* Sorts idx[0..n) by name, stably (qsort_r is a GNU extension). */
static void sort_by_name(size_t *idx, size_t *tmp, size_t n, const ry_inv_row *rows)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_by_name(idx, tmp, h, rows);
    sort_by_name(idx + h, tmp, n - h, rows);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp_row_name(&idx[i], &idx[j], (void *)rows) <= 0 ? idx[i++] : idx[j++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

static size_t host_len(const char *name)
{
    const char *sp = strchr(name, ' ');
    return sp ? (size_t)(sp - name) : strlen(name);
}

/* A device named twice, or a GUID given to two devices, is an error at the
 * later row: the files written from it would give one GUID two LIDs (and
 * check-routes refuses them). A NIC's node GUID may repeat on one host (two
 * ports of one adapter); port GUIDs and switch GUIDs never. */
static int check_unique(const ry_inventory *inv)
{
    int errors = 0;
    size_t n = inv->n;
    size_t *idx = ry_xmalloc((n + 1) * sizeof *idx), *tmp = ry_xmalloc((n + 1) * sizeof *tmp);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_by_name(idx, tmp, n, inv->rows);
    for (size_t i = 1; i < n && errors < MAX_ERRORS; i++) {
        const ry_inv_row *a = &inv->rows[idx[i - 1]], *b = &inv->rows[idx[i]];
        if (strcmp(a->name, b->name) == 0 && a->is_switch == b->is_switch) {
            ry_error_at((ry_pos){ inv->path, b->line, 1 }, "%s '%s' is listed twice (first on "
                        "line %d), expected one row per device", b->is_switch ? "switch" : "NIC",
                        b->name, a->line);
            errors++;
        }
    }
    free(idx);
    free(tmp);
    inv_key *k = ry_xmalloc((2 * n + 1) * sizeof *k);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const ry_inv_row *r = &inv->rows[i];
        k[m++] = (inv_key){ r->node_guid, i, r->is_switch };
        if (!r->is_switch)
            k[m++] = (inv_key){ r->port_guid, i, 1 };
    }
    qsort(k, m, sizeof *k, cmp_inv_key);
    for (size_t i = 1; i < m && errors < MAX_ERRORS; i++) {
        if (k[i].guid != k[i - 1].guid)
            continue;
        const ry_inv_row *a = &inv->rows[k[i - 1].row], *b = &inv->rows[k[i].row];
        /* one adapter's node GUID on its ports of one host */
        if (!k[i].port && !k[i - 1].port && !a->is_switch && !b->is_switch &&
            host_len(a->name) == host_len(b->name) &&
            strncmp(a->name, b->name, host_len(a->name)) == 0)
            continue;
        const ry_inv_row *later = b->line >= a->line ? b : a, *first = later == b ? a : b;
        if (later == first)
            continue;   /* a NIC whose port GUID is its node GUID */
        ry_error_at((ry_pos){ inv->path, later->line, 1 },
                    "GUID 0x%016llx of %s '%s' is also a GUID of %s '%s' (line %d), expected "
                    "one GUID per device", (unsigned long long)k[i].guid,
                    later->is_switch ? "switch" : "NIC", later->name,
                    first->is_switch ? "switch" : "NIC", first->name, first->line);
        errors++;
    }
    free(k);
    return errors;
}

void ry_inventory_free(ry_inventory *inv)
{
    if (!inv)
        return;
    for (size_t i = 0; i < inv->n; i++)
        free(inv->rows[i].name);
    free(inv->rows);
    free(inv->path);
    memset(inv, 0, sizeof *inv);
}
