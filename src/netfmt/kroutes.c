/* `ip -j route show`: a JSON array of routes; a route with one next hop
 * names it in "dev" (with "gateway" or "via"), one with several in
 * "nexthops", an array of objects with "dev". Jansson reads the text. */
#include "netfmt/kroutes.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void add_dev(ry_kroutes *k, size_t *cap, const char *dev)
{
    if (k->ndev + 1 > *cap) {
        *cap = *cap ? 2 * *cap : 64;
        k->dev = ry_xrealloc(k->dev, *cap * sizeof *k->dev);
    }
    snprintf(k->dev[k->ndev++], sizeof k->dev[0], "%s", dev);
}

static int bad(const char *path, const char *what, size_t i)
{
    ry_error_at((ry_pos){ path, 0, 0 }, "route %zu: %s; expected the output of ip -j route show",
                i + 1, what);
    return -1;
}

int ry_kroutes_read(const char *path, ry_kroutes *k)
{
    memset(k, 0, sizeof *k);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > RY_KROUTES_MAX_BYTES) {
        ry_error_at((ry_pos){ path, 0, 0 }, "larger than %lld MiB; not a route dump",
                    RY_KROUTES_MAX_BYTES >> 20);
        return -1;
    }
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        ry_error_at((ry_pos){ path, je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0 },
                    "%s; expected the JSON of ip -j route show", je.text);
        return -1;
    }
    if (!json_is_array(root)) {
        json_decref(root);
        ry_error_at((ry_pos){ path, 1, 1 }, "not a list of routes; expected the JSON array of "
                    "ip -j route show");
        return -1;
    }
    size_t n = json_array_size(root), capdev = 0;
    k->r = ry_xcalloc(n ? n : 1, sizeof *k->r);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        json_t *o = json_array_get(root, i);
        json_t *dst = json_object_get(o, "dst"), *proto = json_object_get(o, "protocol");
        if (!json_is_object(o) || !json_is_string(dst)) {
            rc = bad(path, "no \"dst\"", i);
            break;
        }
        ry_kroute *r = &k->r[k->nr++];
        snprintf(r->dst, sizeof r->dst, "%s", json_string_value(dst));
        if (json_is_string(proto))
            snprintf(r->proto, sizeof r->proto, "%s", json_string_value(proto));
        r->first = (int)k->ndev;
        json_t *hops = json_object_get(o, "nexthops"), *dev = json_object_get(o, "dev");
        if (json_is_array(hops)) {
            for (size_t j = 0; j < json_array_size(hops); j++) {
                json_t *d = json_object_get(json_array_get(hops, j), "dev");
                if (!json_is_string(d)) {
                    rc = bad(path, "a next hop without \"dev\"", i);
                    break;
                }
                add_dev(k, &capdev, json_string_value(d));
            }
        } else if (json_is_string(dev)) {
            add_dev(k, &capdev, json_string_value(dev));
        }
        r->n = (int)k->ndev - r->first;
    }
    json_decref(root);
    if (rc < 0)
        ry_kroutes_free(k);
    return rc;
}

void ry_kroutes_free(ry_kroutes *k)
{
    free(k->r);
    free(k->dev);
    memset(k, 0, sizeof *k);
}
