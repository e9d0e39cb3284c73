/* `ip -j route show`: a JSON array of routes; a route with one next hop
 * names it in "dev" (with "gateway" or "via"), one with several in
 * "nexthops", an array of objects with "dev". Jansson reads the text one
 * route at a time: the file is held, never a tree of all of it. */
#include "netfmt/kroutes.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/input.h"
#include "util/lines.h"

static const char want[] = "expected the JSON array of ip -j route show";

static void add_dev(ry_kroutes *k, size_t *cap, const char *dev)
{
    RY_ALLOC_GROW(k->dev, k->ndev + 1, *cap);
    snprintf(k->dev[k->ndev++], sizeof k->dev[0], "%s", dev);
}

static int bad(const char *path, const char *what, size_t i)
{
    ry_error_at((ry_pos){ path, 0, 0 }, "route %zu: %s; expected the output of ip -j route show",
                i + 1, what);
    return -1;
}

static int too_big(const char *path)
{
    ry_error_at((ry_pos){ path, 0, 0 }, "larger than %lld MiB; not a route dump",
                RY_KROUTES_MAX_BYTES >> 20);
    return -1;
}

/* The file, NUL-terminated, at most the limit; NULL with the error printed
 * and *rc -1 (too large) or -2 (cannot read). */
static char *slurp(const char *path, size_t *len, int *rc)
{
    const char *why = NULL;
    FILE *fp = ry_input_fopen(path, &why);
    if (!fp) {
        ry_io_error("%s: %s", path, why ? why : strerror(errno));
        *rc = -2;
        return NULL;
    }
    const size_t max = (size_t)RY_KROUTES_MAX_BYTES;
    struct stat st;
    size_t cap = fstat(fileno(fp), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 2 : 4096;
    if (cap > max + 2) {
        fclose(fp);
        *rc = too_big(path);            /* before a byte is read */
        return NULL;
    }
    size_t n = 0;
    char *buf = ry_xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            if (n > max)
                break;
            cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
            buf = ry_xrealloc(buf, cap);
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0)
            break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err || n > max) {
        free(buf);
        if (err)
            ry_io_error("%s: cannot read", path);
        *rc = err ? -2 : too_big(path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* One route, object o, the i-th. */
static int read_route(ry_kroutes *k, size_t *capr, size_t *capdev, const char *path, size_t i,
                      json_t *o)
{
    json_t *dst = json_object_get(o, "dst"), *proto = json_object_get(o, "protocol");
    if (!json_is_object(o) || !json_is_string(dst))
        return bad(path, "no \"dst\"", i);
    RY_ALLOC_GROW(k->r, k->nr + 1, *capr);
    ry_kroute *r = &k->r[k->nr++];
    memset(r, 0, sizeof *r);
    snprintf(r->dst, sizeof r->dst, "%s", json_string_value(dst));
    if (json_is_string(proto))
        snprintf(r->proto, sizeof r->proto, "%s", json_string_value(proto));
    r->first = (int)k->ndev;
    json_t *hops = json_object_get(o, "nexthops"), *dev = json_object_get(o, "dev");
    if (json_is_array(hops)) {
        for (size_t j = 0; j < json_array_size(hops); j++) {
            json_t *d = json_object_get(json_array_get(hops, j), "dev");
            if (!json_is_string(d))
                return bad(path, "a next hop without \"dev\"", i);
            add_dev(k, capdev, json_string_value(d));
        }
    } else if (json_is_string(dev)) {
        add_dev(k, capdev, json_string_value(dev));
    }
    r->n = (int)k->ndev - r->first;
    return 0;
}

static size_t skip_space(const char *buf, size_t len, size_t off)
{
    while (off < len && isspace((unsigned char)buf[off]))
        off++;
    return off;
}

/* An error at buf[off]. */
static int bad_at(const char *path, ry_linepos *lines, size_t off, const char *what)
{
    int col, line = ry_linepos_at(lines, off, &col);
    ry_error_at((ry_pos){ path, line, col }, "%s; %s", what, want);
    return -1;
}

/* The routes of buf: '[', then each route by itself, ',' between, ']'. */
static int read_routes(ry_kroutes *k, const char *path, const char *buf, size_t len)
{
    ry_linepos lines;
    ry_linepos_init(&lines, buf);
    size_t off = skip_space(buf, len, 0), capr = 0, capdev = 0;
    if (off >= len || buf[off] != '[')
        return bad_at(path, &lines, off, "not a list of routes");
    off = skip_space(buf, len, off + 1);
    if (off < len && buf[off] == ']')
        off++;
    else
        for (size_t i = 0;; i++) {
            json_error_t je;
            json_t *o = json_loadb(buf + off, len - off, JSON_REJECT_DUPLICATES |
                                   JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &je);
            if (!o) {
                int col0, line = ry_linepos_at(&lines, off, &col0);
                int col = (je.column > 0 ? je.column : 1) + (je.line <= 1 ? col0 - 1 : 0);
                ry_error_at((ry_pos){ path, line + (je.line > 0 ? je.line - 1 : 0), col },
                            "%s; %s", je.text, want);
                return -1;
            }
            int rc = read_route(k, &capr, &capdev, path, i, o);
            json_decref(o);
            if (rc < 0)
                return -1;
            off = skip_space(buf, len, off + je.position);
            if (off < len && buf[off] == ']') {
                off++;
                break;
            }
            if (off >= len || buf[off] != ',')
                return bad_at(path, &lines, off, off < len ? "',' or ']' expected after a route"
                              : "']' expected at the end of the file");
            off = skip_space(buf, len, off + 1);
        }
    off = skip_space(buf, len, off);
    if (off < len)
        return bad_at(path, &lines, off, "more after the list of routes");
    return 0;
}

int ry_kroutes_read(const char *path, ry_kroutes *k)
{
    memset(k, 0, sizeof *k);
    size_t len = 0;
    int rc = 0;
    char *buf = slurp(path, &len, &rc);
    if (!buf)
        return rc;
    rc = read_routes(k, path, buf, len);     /* a NUL byte is no JSON: Jansson says where */
    free(buf);
    if (rc < 0)
        ry_kroutes_free(k);
    else if (!k->r)
        k->r = ry_xcalloc(1, sizeof *k->r);     /* read, and empty */
    return rc;
}

void ry_kroutes_free(ry_kroutes *k)
{
    free(k->r);
    free(k->dev);
    memset(k, 0, sizeof *k);
}
