/* The cluster spec: load, apply --set overrides, validate, resolve the catalog.
 *
 * The keys, their types, ranges and defaults are the table in spec/schema.c
 * (how to add one: spec/schema.h); railyard-spec(5) documents them. This file
 * reads the document section by section: the scalar keys through the table,
 * the structures that are not scalars (a node or switch model given as a
 * catalog name or a map, fabric.oversubscription, cabling.tiers and
 * cabling.links) with readers of their own.
 * The workload:, network: and libra: sections are read the same way, through
 * the table, by spec/workload.c and spec/libra_spec.c, the catalog files by
 * spec/catalog.c: every section is read once, here in spec/, into ry_spec.
 *
 * --set KEY=VALUE overrides a key before validation; VALUE is read as YAML
 * (128 is a number, "128" a string, [2:1, 1:1] a list). Setting a key under a
 * catalog name turns it into a map: --set fabric.switch.radix=128 with
 * `switch: qm9700` gives {name: qm9700, radix: 128}. Setting cluster.gpus
 * drops cluster.nodes and the other way round.
 *
 * Every error is reported at its key's position (value errors at the value)
 * and validation goes on, so one run lists every problem. */
#include "spec/spec.h"

#include "spec/catalog.h"
#include "spec/libra_spec.h"
#include "spec/schema.h"
#include "spec/search.h"
#include "spec/workload.h"
#include "spec/yaml.h"
#include "util/diag.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#define MAX_GPUS RY_MAX_GPUS

typedef struct loadctx {
    ry_spec *s;
    int top_unknown;        /* unknown top-level keys: a missing section is likely one */
    const char *templates;
    ry_catalog *cat;
    int cat_tried;
    unsigned bad;           /* RY_BAD_*: keys that failed to load */
} loadctx;

/* ---- defaults and built-in specs -------------------------------------------------------- */

void ry_spec_defaults(ry_spec *s)
{
    memset(s, 0, sizeof *s);
    ry_schema_defaults(s);
    /* The built-in spec's name and node model; rails 0 means hb_domain. */
    snprintf(s->name, sizeof s->name, "cluster");
    snprintf(s->node.name, sizeof s->node.name, "generic");
    s->node.hb_domain = s->hb_domain;
    s->node.nic_gbps = s->sw.port_gbps;
}

int ry_spec_check(ry_spec *s)
{
    int before = ry_error_count();
    if (s->rails == 0)
        s->rails = s->hb_domain;
    if (s->node.gpus_per_node > 0 && s->nodes == 0 && s->gpus % s->node.gpus_per_node == 0)
        s->nodes = s->gpus / s->node.gpus_per_node;
    ry_spec_rules_cluster(s, ry_schema_check_struct(s));
    return ry_error_count() > before ? -1 : 0;
}

/* ---- readers ------------------------------------------------------------------------------ */

static ry_catalog *catalog(loadctx *c)
{
    if (!c->cat_tried) {
        c->cat_tried = 1;
        c->cat = ry_catalog_load_shared(c->templates);
    }
    return c->cat;
}

/* The catalog when an inline map might start from an entry but does not
 * need one: a missing catalog directory is then no error. */
static ry_catalog *catalog_if_present(loadctx *c)
{
    if (!c->cat_tried && (!ry_catalog_has_file(c->templates, "switches.yaml") ||
                          !ry_catalog_has_file(c->templates, "nodes.yaml")))
        return NULL;
    return catalog(c);
}

/* A node model: a catalog name, or a map (optionally starting from a catalog
 * entry). Keys the map leaves out are 0, filled in by the caller. */
static int read_node(loadctx *c, const ry_ynode *n, ry_node_model *out)
{
    memset(out, 0, sizeof *out);
    if (n->kind != RY_YMAP) {
        if (n->kind != RY_YSCALAR || ry_ynode_is_null(n)) {
            ry_error_at(n->pos, "cluster.node must be a catalog name like dgx-h100 or a map "
                        "{name, gpus_per_node, hb_domain, nic_speed} (got %s)",
                        ry_ynode_describe(n));
            return -1;
        }
        ry_catalog *cat = catalog(c);
        return cat ? ry_catalog_get_node(cat, n, "cluster.node", out) : -1;
    }

    int bad = ry_schema_check_keys(n, "cluster.node", NULL) > 0;
    const ry_ynode *name = ry_ymap_get(n, "name");
    const ry_ynode *gpn = ry_ymap_get(n, "gpus_per_node");
    ry_keyval v = { .s = "custom" };
    if (name && ry_key_get(ry_key_find("cluster.node.name"), name, NULL, &v) < 0)
        return -1;
    if (name) {
        ry_catalog *cat = gpn ? catalog_if_present(c) : catalog(c);
        const ry_catalog_node *e = cat ? ry_catalog_find_node(cat, v.s) : NULL;
        if (e) {
            *out = e->model;
        } else if (!gpn) {
            /* Without gpus_per_node the name must be meant as a catalog entry. */
            if (!cat || ry_catalog_get_node(cat, name, "cluster.node.name", out) < 0)
                return -1;
        }
    }
    if (!out->name[0])
        snprintf(out->name, sizeof out->name, "%s", v.s);
    bad |= ry_schema_read(n, "cluster.node", out, NULL, NULL) != 0;
    const ry_ynode *nics = ry_ymap_get(n, "nics");
    if (nics)
        bad |= ry_read_nics(nics, "cluster.node.nics", out) < 0;
    const ry_ynode *trays = ry_ymap_get(n, "rack_trays");
    if (trays)
        bad |= ry_read_trays(trays, "cluster.node.rack_trays", out) < 0;
    return bad ? -1 : 0;
}

/* The later of two keys of one map, for "both given" errors. */
static const ry_ynode *later_key(const ry_ynode *a, const ry_ynode *b)
{
    if (a->pos.file != b->pos.file)
        return strcmp(a->pos.file, "--set") == 0 ? a : b;
    if (a->pos.line != b->pos.line)
        return a->pos.line > b->pos.line ? a : b;
    return a->pos.col > b->pos.col ? a : b;
}

/* A node whose NIC bandwidth is split over its planes (nic_bandwidth): each
 * plane's port gets its share, the planes being the spec's (cluster.planes,
 * else the node's). A nic_speed the spec gives stands, if the planes' ports
 * fit in the NIC. */
static void nic_split(loadctx *c, const ry_ynode *nn, const ry_ynode *cl)
{
    ry_spec *s = c->s;
    if (!(s->node.nic_total_gbps > 0) || s->planes < 1 || (c->bad & (RY_BAD_NODE | RY_BAD_PLANES)))
        return;
    double share = s->node.nic_total_gbps / s->planes;
    const ry_ynode *ns = nn && nn->kind == RY_YMAP ? ry_ymap_get(nn, "nic_speed") : NULL;
    if (!ns) {
        s->node.nic_gbps = share;
        return;
    }
    if (s->node.nic_gbps <= share * (1 + 1e-9))
        return;
    const ry_ynode *pl = ry_ymap_get(cl, "planes");
    if (!pl && nn->kind == RY_YMAP)
        pl = ry_ymap_get(nn, "planes");
    ry_error_at(ns->pos, "cluster.node.nic_speed: %d plane%s of %gG is %gG per GPU, more than "
                "the %s NIC's %gG (nic_bandwidth)%s: give nic_speed %gG or fewer planes",
                s->planes, s->planes == 1 ? "" : "s", s->node.nic_gbps,
                s->node.nic_gbps * s->planes, s->node.name, s->node.nic_total_gbps,
                pl ? "" : " with the node's planes", share);
    c->bad |= RY_BAD_NODE;
}

static void read_cluster(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *cl = ry_ymap_get(root, "cluster");
    const ry_ynode *clkey = ry_ymap_key(root, "cluster");
    int is_null;

    if (!cl) {
        if (!c->top_unknown)
            ry_error_at(root->pos, "missing section 'cluster': it gives the node model and how "
                        "many nodes or gpus");
        c->bad |= RY_BAD_GPUS | RY_BAD_NODE;
        return;
    }
    if (ry_yget_map(cl, "cluster", &is_null) < 0) {
        c->bad |= RY_BAD_GPUS | RY_BAD_NODE;
        return;
    }
    int unknown = ry_schema_check_keys(cl, "cluster", NULL);

    /* Node model first: the other keys default from it. */
    const ry_ynode *nn = ry_ymap_get(cl, "node");
    ry_node_model node;
    memset(&node, 0, sizeof node);
    if (nn && read_node(c, nn, &node) < 0)
        c->bad |= RY_BAD_NODE | RY_BAD_GPN | RY_BAD_HB;
    if (!nn)
        snprintf(node.name, sizeof node.name, "custom");

    ry_keyval v;
    long long gpn = 0, k = 0;
    int r = ry_schema_get(cl, "cluster.gpus_per_node", &v);
    if (r < 0)
        c->bad |= RY_BAD_GPN;
    else if (r > 0)
        gpn = v.i;
    r = ry_schema_get(cl, "cluster.hb_domain", &v);
    if (r < 0)
        c->bad |= RY_BAD_HB;
    else if (r > 0)
        k = v.i;
    if (!gpn)
        gpn = node.gpus_per_node;
    if (!k)
        k = node.hb_domain;
    if (!gpn)
        gpn = k ? k : 8;
    if (!k)
        k = gpn;
    s->node = node;
    s->node.gpus_per_node = (int)gpn;
    s->node.hb_domain = (int)k;
    s->hb_domain = (int)k;

    /* nodes or gpus, exactly one. */
    const ry_ynode *nk = ry_ymap_key(cl, "nodes"), *gk = ry_ymap_key(cl, "gpus");
    if (nk && gk) {
        const ry_ynode *second = later_key(nk, gk);
        ry_error_at(second->pos, "cluster.nodes and cluster.gpus are mutually exclusive: "
                    "give one of them");
        c->bad |= RY_BAD_GPUS;
    } else if (!nk && !gk) {
        /* An unknown key is likely a misspelt nodes or gpus: said already. */
        if (!unknown)
            ry_error_at(clkey->pos, "cluster needs nodes (servers) or gpus (total GPUs)");
        c->bad |= RY_BAD_GPUS;
    } else if (nk) {
        if (ry_schema_get(cl, "cluster.nodes", &v) < 0) {
            c->bad |= RY_BAD_GPUS;
        } else if (!(c->bad & RY_BAD_GPN) && v.i > MAX_GPUS / gpn) {
            ry_error_at(ry_ymap_get(cl, "nodes")->pos, "cluster.nodes is too large: %lld nodes "
                        "of %lld GPUs is more than %d GPUs", v.i, gpn, MAX_GPUS);
            c->bad |= RY_BAD_GPUS;
        } else {
            s->nodes = v.i;
            s->gpus = v.i * gpn;
        }
    } else {
        if (ry_schema_get(cl, "cluster.gpus", &v) < 0) {
            c->bad |= RY_BAD_GPUS;
        } else {
            s->gpus = v.i;
            s->nodes = v.i / gpn;
        }
    }

    s->rails = (int)k;
    if (node.planes > 0)
        s->planes = node.planes;    /* cluster.planes below wins */
    r = ry_schema_get(cl, "cluster.rails", &v);
    if (r < 0)
        c->bad |= RY_BAD_RAILS;
    else if (r > 0)
        s->rails = (int)v.i;
    c->bad |= ry_schema_read(cl, "cluster", s, NULL, NULL);
    nic_split(c, nn, cl);
}

static void speed_text(char *buf, size_t cap, double gbps)
{
    snprintf(buf, cap, "%gG", gbps);
}

static int read_switch(loadctx *c, const ry_ynode *n, ry_switch_model *out)
{
    memset(out, 0, sizeof *out);
    if (n->kind != RY_YMAP) {
        if (n->kind != RY_YSCALAR || ry_ynode_is_null(n)) {
            ry_error_at(n->pos, "fabric.switch must be a catalog name like qm9700 or a map "
                        "{name, radix, speed} (got %s)", ry_ynode_describe(n));
            return -1;
        }
        ry_catalog *cat = catalog(c);
        return cat ? ry_catalog_get_switch(cat, n, "fabric.switch", out) : -1;
    }

    int bad = ry_schema_check_keys(n, "fabric.switch", NULL) > 0;
    const ry_ynode *name = ry_ymap_get(n, "name");
    const ry_ynode *radix = ry_ymap_get(n, "radix");
    ry_keyval v = { .s = "custom" };
    if (name && ry_key_get(ry_key_find("fabric.switch.name"), name, NULL, &v) < 0)
        return -1;
    if (name) {
        ry_catalog *cat = radix ? catalog_if_present(c) : catalog(c);
        const ry_catalog_switch *e = cat ? ry_catalog_find_switch(cat, v.s) : NULL;
        if (e) {
            *out = e->model;
        } else if (!radix) {
            if (!cat || ry_catalog_get_switch(cat, name, "fabric.switch.name", out) < 0)
                return -1;
        }
    } else if (!radix) {
        ry_error_at(n->pos, "fabric.switch needs a catalog name or a radix");
        return -1;
    }
    if (!out->name[0])
        snprintf(out->name, sizeof out->name, "%s", v.s);
    bad |= ry_schema_read(n, "fabric.switch", out, NULL, NULL) != 0;
    return bad ? -1 : 0;
}

/* "D:U" with whole numbers. */
static int parse_ratio(const char *s, ry_ratio *r)
{
    long long d = 0, u = 0;
    const char *p = s;
    int nd = 0, nu = 0;
    for (; isdigit((unsigned char)*p) && nd < 8; p++, nd++)
        d = d * 10 + (*p - '0');
    if (*p++ != ':')
        return -1;
    for (; isdigit((unsigned char)*p) && nu < 8; p++, nu++)
        u = u * 10 + (*p - '0');
    if (*p || !nd || !nu)
        return -1;
    r->down = (int)d;
    r->up = (int)u;
    return 0;
}

static int read_ratio(const ry_ynode *n, const char *what, ry_ratio *r)
{
    if (n->kind != RY_YSCALAR || ry_ynode_is_null(n) || parse_ratio(n->value, r) < 0) {
        ry_error_at(n->pos, "%s must be \"D:U\" (down-links:up-links) with whole numbers "
                    "D >= U >= 1, like \"2:1\" (got %s)", what, ry_ynode_describe(n));
        return -1;
    }
    if (r->down < 1 || r->up < 1) {
        ry_error_at(n->pos, "%s must be \"D:U\" with whole numbers D >= U >= 1 (got %s)", what,
                    n->value);
        return -1;
    }
    if (r->down < r->up) {
        ry_error_at(n->pos, "%s must have D >= U, at least as many down-links as up-links "
                    "(got %s)", what, n->value);
        return -1;
    }
    return 0;
}

static void read_oversub(loadctx *c, const ry_ynode *n)
{
    ry_spec *s = c->s;
    const char *what = "fabric.oversubscription";
    if (n->kind == RY_YSCALAR) {
        if (read_ratio(n, what, &s->oversub[0]) < 0)
            c->bad |= RY_BAD_OVERSUB;
        else
            s->n_oversub = 1;
        return;
    }
    if (n->kind != RY_YSEQ || n->n == 0 || n->n > RY_MAX_TIERS) {
        const char *got = n->kind != RY_YSEQ ? ry_ynode_describe(n)
                        : n->n ? "too many entries" : "an empty list";
        ry_error_at(n->pos, "%s must be \"D:U\" or a list of 1 to %d of them, leaf tier first "
                    "(got %s)", what, RY_MAX_TIERS, got);
        c->bad |= RY_BAD_OVERSUB;
        return;
    }
    for (size_t i = 0; i < n->n; i++) {
        char w[64];
        snprintf(w, sizeof w, "%s[%zu]", what, i);
        if (read_ratio(n->items[i], w, &s->oversub[i]) < 0)
            c->bad |= RY_BAD_OVERSUB;
    }
    if (!(c->bad & RY_BAD_OVERSUB))
        s->n_oversub = (int)n->n;
}

/* "400G" or "200G x 256": a speed and, optionally, how many ports. */
static int read_side(const ry_ynode *n, const char *what, double *gbps, int *count)
{
    char buf[64];
    const char *v = n->kind == RY_YSCALAR && !ry_ynode_is_null(n) ? n->value : NULL;
    if (v && strlen(v) < sizeof buf) {
        snprintf(buf, sizeof buf, "%s", v);
        /* the count: after the last 'x' (or '*') followed by digits only,
         * so that a speed's own letters (xdr) are not taken for it */
        char *x = NULL;
        for (char *q = buf; *q; q++) {
            if (*q != 'x' && *q != 'X' && *q != '*')
                continue;
            const char *d = q + 1;
            while (*d == ' ')
                d++;
            if (isdigit((unsigned char)*d) && strspn(d, "0123456789 ") == strlen(d))
                x = q;
        }
        long long cnt = 0;
        int ok = 1;
        if (x) {
            char *e = x + 1, *end;
            *x = '\0';
            while (*e == ' ')
                e++;
            cnt = strtoll(e, &end, 10);
            while (*end == ' ')
                end++;
            ok = end != e && !*end && cnt >= 1 && cnt <= 65535;
        }
        for (char *t = buf + strlen(buf); t > buf && t[-1] == ' '; t--)
            t[-1] = '\0';
        if (ok && ry_parse_speed(buf, gbps) == 0 && *gbps > 0) {
            *count = (int)cnt;
            return 0;
        }
    }
    ry_error_at(n->pos, "%s must be a port speed, optionally with a count: \"400G\" or "
                "\"200G x 256\" (got %s)", what, ry_ynode_describe(n));
    return -1;
}

/* fabric.tiers: auto, a count, or a list of tiers from the leaves up. An
 * entry without a switch takes the one below it (the leaves fabric.switch). */
static void read_tiers(loadctx *c, const ry_ynode *n)
{
    ry_spec *s = c->s;
    if (n->kind != RY_YSEQ) {
        ry_keyval v;
        if (ry_key_get(ry_key_find("fabric.tiers"), n, NULL, &v) < 0)
            c->bad |= RY_BAD_TIERS;
        else
            s->tiers = (int)v.i;
        return;
    }
    if (n->n == 0 || n->n > RY_MAX_TIERS) {
        ry_error_at(n->pos, "fabric.tiers as a list needs 1 to %d tiers, leaves first (got %s)",
                    RY_MAX_TIERS, n->n ? "too many entries" : "an empty list");
        c->bad |= RY_BAD_TIERS;
        return;
    }
    /* an entry's fields, read in this order (each through its fabric.tiers[] row) */
    static const char *const fields[] = { "switch", "down", "up", "taper", "group" };
    enum { F_SWITCH, F_DOWN, F_UP, F_TAPER, F_GROUP };
    int bad = 0;
    for (size_t i = 0; i < n->n; i++) {
        const ry_ynode *e = n->items[i];
        ry_tier_spec *t = &s->tier[i];
        char w[64];
        memset(t, 0, sizeof *t);
        if (e->kind != RY_YMAP) {
            ry_error_at(e->pos, "fabric.tiers entries are maps {switch: sn5600, down: \"400G\", "
                        "up: \"800G\", taper: \"1:1\", group: 16} (got %s)",
                        ry_ynode_describe(e));
            bad = 1;
            continue;
        }
        if (ry_schema_check_keys(e, "fabric.tiers[]", "fabric.tiers entry") > 0)
            bad = 1;
        for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
            const ry_ynode *v;
            ry_keyval kv;
            int r = ry_schema_entry_field(e, "fabric.tiers", fields[f], "fabric.tiers", i, NULL,
                                          w, sizeof w, f == F_GROUP ? &kv : NULL, &v);
            if (r <= 0) {
                bad |= r < 0;
                continue;
            }
            switch (f) {
            case F_SWITCH: {
                ry_switch_model sw;
                if (read_switch(c, v, &sw) < 0) {
                    bad = 1;
                } else {
                    t->sw = sw;
                    t->has_switch = 1;
                }
                break;
            }
            case F_DOWN: bad |= read_side(v, w, &t->down_gbps, &t->down_count) < 0; break;
            case F_UP: bad |= read_side(v, w, &t->up_gbps, &t->up_count) < 0; break;
            case F_TAPER:
                if (v->kind != RY_YSCALAR || ry_ynode_is_null(v) ||
                    parse_ratio(v->value, &t->taper) < 0 || t->taper.down < 1 ||
                    t->taper.up < 1) {
                    ry_error_at(v->pos, "%s must be \"D:U\", bandwidth down to bandwidth up "
                                "with whole numbers >= 1, like \"15:1\" or \"1:2\" (got %s)",
                                w, ry_ynode_describe(v));
                    memset(&t->taper, 0, sizeof t->taper);
                    bad = 1;
                }
                break;
            default: t->group = (int)kv.i; break;
            }
        }
    }
    if (bad) {
        c->bad |= RY_BAD_TIERS | RY_BAD_SWITCH;
        return;
    }
    s->n_tier = (int)n->n;
    s->tiers = s->n_tier;
}

static void fabric_custom(void *ctx, const ry_key *k, const ry_ynode *n)
{
    loadctx *c = ctx;
    if (strcmp(k->key, "fabric.switch") == 0) {
        ry_switch_model sw;
        if (read_switch(c, n, &sw) < 0)
            c->bad |= RY_BAD_SWITCH;
        else
            c->s->sw = sw;
    } else {
        RY_ASSERT(strcmp(k->key, "fabric.oversubscription") == 0);
        read_oversub(c, n);
    }
}

/* A tier list: entries without a switch take the one below (the leaves
 * fabric.switch), and the leaves' model is the fabric's switch for
 * everything that asks for one model. */
static void tiers_inherit(ry_spec *s, const ry_ynode *f)
{
    const ry_ynode *fs = ry_ymap_key(f, "switch"), *t0 = NULL;
    if (s->tier[0].has_switch && fs) {
        t0 = ry_ydoc_find(s->doc, "fabric.tiers.0.switch", NULL);
        if (fs->pos.file && s->path && strcmp(fs->pos.file, s->path) != 0)
            /* an option (--switch, --radix, --set fabric.switch...) */
            ry_error_at(fs->pos, "sets fabric.switch, and this spec's fabric.tiers gives each "
                        "tier its own switch (the leaves' in fabric.tiers[0].switch): change "
                        "a tier's switch in fabric.tiers instead");
        else
            ry_error_at(t0 ? t0->pos : fs->pos, "the leaves' switch is given twice, as "
                        "fabric.switch and fabric.tiers[0].switch: give it in one place");
        return;
    }
    if (s->n_oversub > 0) {
        ry_error_at(ry_ymap_key(f, "oversubscription")->pos, "fabric.oversubscription and a "
                    "fabric.tiers list both give tapers: give each tier's taper in its entry");
        return;
    }
    for (int i = 0; i < s->n_tier; i++) {
        ry_tier_spec *t = &s->tier[i];
        if (!t->has_switch)
            t->sw = i ? s->tier[i - 1].sw : s->sw;
        if (!(t->sw.port_gbps > 0))
            t->sw.port_gbps = s->node.nic_gbps;
        if (!t->sw.speed[0])
            speed_text(t->sw.speed, sizeof t->sw.speed, t->sw.port_gbps);
    }
    s->sw = s->tier[0].sw;
    ry_spec_rules_tiers(s);
}

static void read_fabric(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *f = ry_ymap_get(root, "fabric");
    int is_null;

    s->sw.port_gbps = 0;
    if (!f || ry_yget_map(f, "fabric", &is_null) < 0 || is_null)
        goto speeds;
    ry_schema_check_keys(f, "fabric", NULL);
    c->bad |= ry_schema_read(f, "fabric", s, fabric_custom, c);
    if ((int)s->design == RY_DESIGN_RACK_TOR_WORD) {
        s->design = RY_DESIGN_FAT_TREE;
        s->rack_tor = 1;
    }
    const ry_ynode *tn = ry_ymap_get(f, "tiers");
    if (tn)
        read_tiers(c, tn);

speeds:
    /* An inline switch without a speed runs at the node's NIC speed; a node
     * without a NIC speed uses the switch's; 400G when neither says. */
    if (!(s->sw.port_gbps > 0))
        s->sw.port_gbps = s->node.nic_gbps > 0 ? s->node.nic_gbps : 400;
    if (!s->sw.speed[0])
        speed_text(s->sw.speed, sizeof s->sw.speed, s->sw.port_gbps);
    if (!(s->node.nic_gbps > 0))
        s->node.nic_gbps = s->sw.port_gbps;
    if (s->n_tier > 0)
        tiers_inherit(s, f);
}

/* A section of scalar keys only: read through the table. */
static void read_section(loadctx *c, const ry_ynode *root, const char *section)
{
    const ry_ynode *m = ry_ymap_get(root, section);
    int is_null;
    if (!m || ry_yget_map(m, section, &is_null) < 0 || is_null)
        return;
    ry_schema_check_keys(m, section, NULL);
    c->bad |= ry_schema_read(m, section, c->s, NULL, NULL);
}

/* network: its scalar keys (the flow engine's); network.dims is LIBRA's,
 * whose reader checks the section's keys when it reads the section. */
static void read_network(loadctx *c, const ry_ynode *root)
{
    const ry_ynode *m = ry_ymap_get(root, "network");
    int is_null;
    if (!m || ry_yget_map(m, "network", &is_null) < 0 || is_null)
        return;
    if (!ry_libra_reads_network(root))
        ry_schema_check_keys(m, "network", NULL);
    c->bad |= ry_schema_read(m, "network", c->s, NULL, NULL);
}

/* layout: racks and rows. A node or switch model's height and servers per
 * rack are the defaults of the layout's. layout.network left out is -1:
 * the layout chooses by design (a fat tree's units are a leaf and a few
 * servers, so per-unit network racks would hold one switch each). */
static void read_layout(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    if (s->node.units > 0)
        s->layout.node_units = s->node.units;
    if (s->node.per_rack > 0)
        s->layout.nodes_per_rack = s->node.per_rack;
    if (s->sw.units > 0)
        s->layout.switch_units = s->sw.units;
    for (int i = 0; i < s->n_tier; i++)     /* the tallest of the tiers' models */
        if (s->tier[i].sw.units > s->layout.switch_units)
            s->layout.switch_units = s->tier[i].sw.units;
    read_section(c, root, "layout");
    s->layout.switch_units_set = s->doc && ry_ydoc_find(s->doc, "layout.switch_units", NULL);
    if (s->doc && !ry_ydoc_find(s->doc, "layout.network", NULL))
        s->layout.network = -1;
    ry_spec_rules_layout(s);
}

/* cabling: media forced per tier ({1: ndr-dac}) or per link end. Medium
 * names are checked against the media catalog by the cabling plan. */
static void read_cabling_tiers(ry_spec *s, const ry_ynode *t)
{
    int is_null;
    if (ry_yget_map(t, "cabling.tiers", &is_null) < 0 || is_null)
        return;
    for (size_t i = 0; i < t->n; i++) {
        const ry_ynode *k = t->keys[i];
        char *end;
        long tier = strtol(k->value ? k->value : "", &end, 10);
        const char *med;
        if (!k->value || *end || tier < 1 || tier > RY_MAX_TIERS) {
            ry_error_at(k->pos, "cabling.tiers: keys are tiers 1 to %d (1 = GPU to leaf) "
                        "(got %s)", RY_MAX_TIERS, ry_ynode_describe(k));
            continue;
        }
        if (ry_yget_string(t->items[i], "cabling.tiers medium", &med) == 0)
            snprintf(s->cabling.tier_medium[tier], sizeof s->cabling.tier_medium[tier], "%s",
                     med);
    }
}

static void read_cabling_links(ry_spec *s, const ry_ynode *l)
{
    const ry_key *kend = ry_key_find("cabling.links[].end");
    const ry_key *kmed = ry_key_find("cabling.links[].medium");
    if (l->kind != RY_YSEQ) {
        ry_error_at(l->pos, "cabling.links must be a list of {end, medium} (got %s)",
                    ry_ynode_describe(l));
        return;
    }
    s->cabling.links = ry_xcalloc(l->n ? l->n : 1, sizeof *s->cabling.links);
    for (size_t i = 0; i < l->n; i++) {
        const ry_ynode *e = l->items[i];
        ry_keyval end, med;
        char what[64];
        if (e->kind != RY_YMAP) {
            ry_error_at(e->pos, "cabling.links entries are maps {end: leaf3/33, medium: ndr-smf} "
                        "(got %s)", ry_ynode_describe(e));
            continue;
        }
        ry_schema_check_keys(e, "cabling.links[]", "cabling.links entry");
        const ry_ynode *en = ry_ymap_get(e, "end"), *mn = ry_ymap_get(e, "medium");
        if (!en || !mn) {
            ry_error_at(e->pos, "a cabling.links entry needs end (like leaf3/33 or "
                        "node001/mlx5_3) and medium");
            continue;
        }
        snprintf(what, sizeof what, "cabling.links[%zu].end", i);
        if (ry_key_get(kend, en, what, &end) < 0)
            continue;
        snprintf(what, sizeof what, "cabling.links[%zu].medium", i);
        if (ry_key_get(kmed, mn, what, &med) < 0)
            continue;
        struct ry_link_override *o = &s->cabling.links[s->cabling.nlinks++];
        snprintf(o->end, sizeof o->end, "%s", end.s);
        snprintf(o->medium, sizeof o->medium, "%s", med.s);
        o->index = (int)i;
    }
}

static void cabling_custom(void *ctx, const ry_key *k, const ry_ynode *n)
{
    loadctx *c = ctx;
    if (strcmp(k->key, "cabling.tiers") == 0)
        read_cabling_tiers(c->s, n);
    else
        read_cabling_links(c->s, n);
}

static void read_cabling(loadctx *c, const ry_ynode *root)
{
    const ry_ynode *m = ry_ymap_get(root, "cabling");
    int is_null;
    if (!m || ry_yget_map(m, "cabling", &is_null) < 0 || is_null)
        return;
    ry_schema_check_keys(m, "cabling", NULL);
    ry_schema_read(m, "cabling", c->s, cabling_custom, c);
}

/* ---- overrides ---------------------------------------------------------------------------- */

static void apply_override(ry_ydoc *d, const ry_override *o)
{
    ry_pos at = o->where ? (ry_pos){ o->where, 0, 0 } : (ry_pos){ "--set", o->argno, 1 };
    const char *key = o->key ? o->key : "";
    const char *value = o->value;
    char *split = NULL;

    if (!value) {
        const char *eq = strchr(key, '=');
        if (!eq) {
            ry_error_at(at, "--set needs KEY=VALUE, like fabric.switch.radix=128 (got '%s')", key);
            return;
        }
        split = ry_xstrdup(key);
        split[eq - key] = '\0';
        key = split;
        value = split + (eq - o->key) + 1;
    }
    if (ry_ydoc_set(d, key, value, at) == 0) {
        /* gpus and nodes say the same thing; the last one set wins. */
        if (strcmp(key, "cluster.gpus") == 0)
            ry_ydoc_remove(d, "cluster.nodes");
        else if (strcmp(key, "cluster.nodes") == 0)
            ry_ydoc_remove(d, "cluster.gpus");
        else if (strcmp(key, "growth.target_gpus") == 0)
            ry_ydoc_remove(d, "growth.target_nodes");
        else if (strcmp(key, "growth.target_nodes") == 0)
            ry_ydoc_remove(d, "growth.target_gpus");
    }
    free(split);
}

/* ---- loading ------------------------------------------------------------------------------- */

static ry_spec *spec_from_doc(ry_ydoc *doc, const ry_override *sets, int nsets,
                              const char *templates_dir, int with_search);

ry_spec *ry_spec_load(const char *path, const ry_override *sets, int nsets,
                      const char *templates_dir)
{
    ry_ydoc *doc = ry_ydoc_load(path, "spec");
    return doc ? spec_from_doc(doc, sets, nsets, templates_dir, 1) : NULL;
}

ry_spec *ry_spec_load_text(const char *file, const char *text, const ry_override *sets,
                           int nsets, const char *templates_dir)
{
    ry_ydoc *doc = ry_ydoc_load_string(file, text, strlen(text));
    return doc ? spec_from_doc(doc, sets, nsets, templates_dir, 1) : NULL;
}

/* A search loads one text under other overrides thousands of times: its
 * parse is kept (the last one, by file name and bytes, for the process)
 * and each load takes a copy without the search section, which a point
 * does not read. A text that does not parse is not kept: its errors are
 * printed at each load. */
static mtx_t point_lock;
static once_flag point_once = ONCE_FLAG_INIT;
static struct {
    char *file, *text;
    size_t len;
    ry_ydoc *doc;
} point_parsed;

static void point_init(void)
{
    mtx_init(&point_lock, mtx_plain);
}

ry_spec *ry_spec_load_point(const char *file, const char *text, const ry_override *sets,
                            int nsets, const char *templates_dir)
{
    static const char *const skip[] = { "search", NULL };
    size_t len = strlen(text);
    call_once(&point_once, point_init);
    mtx_lock(&point_lock);
    if (!point_parsed.doc || strcmp(point_parsed.file, file) != 0 || point_parsed.len != len ||
        memcmp(point_parsed.text, text, len) != 0) {
        ry_ydoc *parsed = ry_ydoc_load_string(file, text, len);
        if (!parsed) {
            mtx_unlock(&point_lock);
            return NULL;
        }
        ry_ydoc_free(point_parsed.doc);
        free(point_parsed.file);
        free(point_parsed.text);
        point_parsed.doc = parsed;
        point_parsed.file = ry_xstrdup(file);
        point_parsed.text = ry_xstrdup(text);
        point_parsed.len = len;
    }
    ry_ydoc *doc = ry_ydoc_copy(point_parsed.doc, skip);
    mtx_unlock(&point_lock);
    return spec_from_doc(doc, sets, nsets, templates_dir, 0);
}

/* Takes doc (freed with the spec, or on failure). */
static ry_spec *spec_from_doc(ry_ydoc *doc, const ry_override *sets, int nsets,
                              const char *templates_dir, int with_search)
{
    int before = ry_error_count();
    ry_spec *s = ry_xcalloc(1, sizeof *s);
    ry_spec_defaults(s);
    s->doc = doc;
    s->path = doc->file;

    if (!doc->root) {
        ry_pos top = { doc->file, 1, 1 };
        ry_error_at(top, "the spec is empty: expected a map with name, cluster and fabric");
        goto fail;
    }
    if (doc->root->kind != RY_YMAP) {
        ry_error_at(doc->root->pos, "the spec must be a map of sections (name:, cluster:, "
                    "fabric:, ...) (got %s)", ry_ynode_describe(doc->root));
        goto fail;
    }
    for (int i = 0; i < nsets; i++)
        apply_override(doc, &sets[i]);

    loadctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.templates = ry_templates_dir(templates_dir);

    const ry_ynode *root = doc->root;
    c.top_unknown = ry_schema_check_keys(root, "", NULL);
    c.bad |= ry_schema_read(root, "", s, NULL, NULL);   /* version, name */
    if (!ry_ymap_get(root, "name")) {
        if (!c.top_unknown)
            ry_error_at(root->pos, "missing key 'name': the cluster's name, like superpod-4su");
        c.bad |= RY_BAD_NAME;
    }
    read_cluster(&c, root);
    read_fabric(&c, root);
    read_section(&c, root, "cost");
    read_section(&c, root, "infiniband");
    read_section(&c, root, "ethernet");
    ry_spec_rules_ib(s);
    read_section(&c, root, "naming");
    read_layout(&c, root);
    read_section(&c, root, "reliability");
    read_section(&c, root, "spares");
    read_section(&c, root, "growth");
    read_cabling(&c, root);
    read_network(&c, root);
    ry_spec_rules_cluster(s, c.bad);
    ry_workload_read(s, root, c.templates);
    ry_libra_spec_read(s, root, c.templates);
    if (with_search)
        ry_search_spec_read(s, root);
    ry_catalog_free(c.cat);

    if (ry_error_count() > before)
        goto fail;
    return s;
fail:
    ry_spec_free(s);
    return NULL;
}

void ry_spec_free(ry_spec *s)
{
    if (!s)
        return;
    ry_ydoc_free(s->doc);
    free(s->cabling.links);
    ry_workload_free(s->workload);
    ry_libra_spec_free(s->libra);
    ry_search_space_free(s->search_space);
    free(s);
}
