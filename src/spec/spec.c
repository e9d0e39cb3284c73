/* The cluster spec: load, apply --set overrides, validate, resolve the catalog.
 *
 * Spec keys, version 1 (the reference for railyard-spec(5)):
 *
 *   version: 1              optional; if present it must be 1
 *   x-anything: ...         top-level keys starting with x- are ignored: a place
 *                           to define YAML anchors (&name) used further down
 *   name: superpod-4su      required; [a-z0-9._-]+, at most 63 characters
 *
 *   cluster:                required
 *     nodes: 127            servers; give exactly one of nodes and gpus
 *     gpus: 1016            total GPUs; a multiple of the HB domain size (and of
 *                           gpus_per_node); at most 2147483647
 *     node: dgx-h100        a catalog name (templates/nodes.yaml, any case), or
 *                           a map {name, gpus_per_node, hb_domain, nic_speed,
 *                           description}; a map whose name is in the catalog
 *                           starts from that entry and overrides the keys given.
 *                           Optional: without it the node is "custom".
 *     gpus_per_node: 8      overrides the node's value; default: the node's,
 *                           else hb_domain, else 8
 *     hb_domain: 8          K, GPUs per high-bandwidth (NVLink) domain; default:
 *                           the node's, else gpus_per_node. K and gpus_per_node
 *                           must divide one another.
 *     rails: 8              default K; 1 <= rails <= K and rails divides K
 *     planes: 1             NIC ports per GPU, one network plane each; 1..8
 *     scalable_unit: 32     HB domains per scalable unit; 0 (default) = fill a leaf
 *
 *   fabric:                 optional
 *     design: rail-optimized   rail-optimized (default) | rail-only | fat-tree
 *     switch: qm9700        a catalog name (templates/switches.yaml), or a map
 *                           {name, radix, speed, description}; a map whose name
 *                           is in the catalog starts from that entry. radix: an
 *                           even number in 4..65535; speed: as below, default
 *                           the node's NIC speed. Default: "generic", radix 64
 *                           at 400G.
 *     oversubscription: "1:1"  "D:U" (downlinks:uplinks, D >= U >= 1), or a list
 *                           of them from the leaf tier up (at most 8; tiers past
 *                           the list are 1:1). Default 1:1.
 *     tiers: auto           auto (default) or 1..8
 *
 *   cost:                   optional
 *     model: paper          only "paper" for now: transceivers plus switch ports
 *     transceiver: 374      USD per transceiver, >= 0 (default 374)
 *     switch_port: 748      USD per switch port, >= 0 (default 748)
 *
 *   workload:               optional: the LLM trained, read by spec/workload.c
 *                           (its keys and rules are listed in spec/workload.h)
 *
 *   network:, libra:        optional: LIBRA's network dimensions and optimisation,
 *                           read by spec/libra_spec.c (keys in spec/libra_spec.h)
 *
 * Every section is read here, once, into ry_spec; the catalog files are read
 * by spec/catalog.c. Models and analyses compute from the struct.
 *
 * Speeds: "400G", "400Gb/s", "400Gbps", "1.6T", EDR (100), HDR (200), HDR100,
 * NDR (400), NDR200, XDR (800), FDR (56), or a plain number of Gb/s.
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
#include "spec/pattern.h"
#include "spec/workload.h"
#include "spec/yaml.h"
#include "util/buf.h"
#include "util/diag.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define DEFAULT_TRANSCEIVER_COST 374.0
#define DEFAULT_SWITCH_PORT_COST 748.0
#define MAX_GPUS INT_MAX
#define MAX_DOMAIN (1 << 20)
#define MAX_RADIX 65535
#define MAX_PLANES 8
#define DEFAULT_GUID_BASE 0x0002c90000000000ULL
#define DEFAULT_PKEY_BASE 0x0100
#define DEFAULT_NODE_PATTERN "node{n1:03}"

/* Top-level sections. A module that reads its own section from spec->doc
 * (layout, workload, ...) adds its name here; unknown names are errors.
 * Keys starting with "x-" are free for the user (a place for YAML anchors). */
static const char *const top_keys[] = {
    "version", "name", "cluster", "fabric", "cost", "infiniband", "naming", "layout", "cabling",
    "network", "libra",
    "workload", "x-*",
    NULL
};

static const char *const cluster_keys[] = {
    "nodes", "gpus", "node", "gpus_per_node", "hb_domain", "rails", "planes",
    "scalable_unit", NULL
};
static const char *const node_keys[] = {
    "name", "gpus_per_node", "hb_domain", "nic_speed", "description", "rack_units", "per_rack",
    "cage_ports", NULL
};
static const char *const fabric_keys[] = {
    "design", "switch", "oversubscription", "tiers", NULL
};
static const char *const switch_keys[] = { "name", "radix", "speed", "description", "protocol",
                                           "rack_units", "cage_ports", NULL };
static const char *const layout_keys[] = { "rows", "racks_per_row", "rack_units", "first_unit",
                                           "nodes_per_rack", "node_units", "switch_units",
                                           "network", "rack_pitch", "row_pitch", "tray_height",
                                           "slack", NULL };
static const char *const network_places[] = { "per-unit", "end-of-row", "middle-of-row", NULL };
static const char *const cabling_keys[] = { "tiers", "links", NULL };
static const char *const link_keys[] = { "end", "medium", NULL };
static const char *const protocols[] = { "infiniband", "ethernet", NULL };
static const char *const ib_keys[] = { "guid_base", "lmc", "routing_engine", "lft_portguid",
                                       "pkey_base", NULL };
static const char *const routing_engines[] = { "file", "ftree", "updn", "minhop", NULL };
static const char *const naming_keys[] = { "node", NULL };
static const char *const cost_keys[] = { "model", "transceiver", "switch_port", NULL };
static const char *const design_names[] = { "rail-optimized", "rail-only", "fat-tree", NULL };
static const char *const cost_models[] = { "paper", NULL };

const char *ry_design_name(ry_design d)
{
    return (unsigned)d < 3 ? design_names[d] : "?";
}

/* Fields that failed to load: rules that involve them are skipped, so one
 * mistake gives one error. */
enum {
    BAD_NAME = 1 << 0,
    BAD_GPUS = 1 << 1,
    BAD_GPN = 1 << 2,
    BAD_HB = 1 << 3,
    BAD_RAILS = 1 << 4,
    BAD_PLANES = 1 << 5,
    BAD_SU = 1 << 6,
    BAD_SWITCH = 1 << 7,
    BAD_OVERSUB = 1 << 8,
    BAD_TIERS = 1 << 9,
    BAD_COST = 1 << 10,
    BAD_NODE = 1 << 11,
};

typedef struct loadctx {
    ry_spec *s;
    int top_unknown;        /* unknown top-level keys: a missing section is likely one */
    const char *templates;
    ry_catalog *cat;
    int cat_tried;
    unsigned bad;
} loadctx;

/* ---- positions ------------------------------------------------------------------- */

ry_pos ry_spec_pos(const ry_spec *s, const char *key)
{
    ry_pos none = { s ? s->path : NULL, 0, 0 };
    if (!s || !s->doc)
        return none;
    ry_pos top = { s->doc->file, 1, 1 };
    char buf[256];
    snprintf(buf, sizeof buf, "%s", key ? key : "");
    for (;;) {
        ry_ynode *k = NULL;
        ry_ynode *v = buf[0] ? ry_ydoc_find(s->doc, buf, &k) : NULL;
        if (v) {
            /* A value error points at the value; a whole section at its key. */
            if (v->kind == RY_YSCALAR || !k)
                return v->pos;
            return k->pos;
        }
        char *dot = strrchr(buf, '.');
        if (!dot)
            return top;
        *dot = '\0';
    }
}

void ry_spec_error(const ry_spec *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ry_verror_at(ry_spec_pos(s, key), fmt, ap);
    va_end(ap);
}

static int has_key(const ry_spec *s, const char *key)
{
    return s->doc && ry_ydoc_find(s->doc, key, NULL) != NULL;
}

/* The first of the keys present in the document, else the last one. */
static const char *blame(const ry_spec *s, const char *a, const char *b, const char *c)
{
    if (has_key(s, a))
        return a;
    if (b && has_key(s, b))
        return b;
    return c ? c : (b ? b : a);
}

/* ---- rules on the filled struct ------------------------------------------------------- */

static int name_ok(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= RY_NAME_MAX)
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
              *p == '-'))
            return 0;
    return 1;
}

static void name_error(ry_pos pos, const char *got)
{
    ry_error_at(pos, "name must be lowercase letters, digits, '.', '_' or '-', at most %d "
                "characters (got '%.80s%s')", RY_NAME_MAX - 1, got, strlen(got) > 80 ? "..." : "");
}

/* Same wording as ry_yget_int, for specs built in code. */
static int rule_int(const ry_spec *s, const char *key, long long v, long long min, long long max)
{
    if (v >= min && v <= max)
        return 0;
    if (min >= -1000000 && max <= 1000000)
        ry_spec_error(s, key, "%s must be an integer in %lld..%lld (got %lld)", key, min, max, v);
    else if (v > max)
        ry_spec_error(s, key, "%s is too large (got %lld; at most %lld)", key, v, max);
    else
        ry_spec_error(s, key, "%s must be an integer >= %lld (got %lld)", key, min, v);
    return -1;
}

static int rule_radix(const ry_spec *s, long long radix)
{
    const char *key = "fabric.switch.radix";
    if (radix > MAX_RADIX) {
        ry_spec_error(s, key, "%s is too large (got %lld; at most %d)", key, radix, MAX_RADIX);
        return -1;
    }
    if (radix < 4 || radix % 2) {
        ry_spec_error(s, key, "%s must be an even number >= 4 (got %lld)", key, radix);
        return -1;
    }
    return 0;
}

static int rule_ratio(const ry_spec *s, const char *key, const char *what, ry_ratio r)
{
    if (r.down >= 1 && r.up >= 1 && r.down >= r.up)
        return 0;
    if (r.down < 1 || r.up < 1)
        ry_spec_error(s, key, "%s must be \"D:U\" with whole numbers D >= U >= 1 (got %d:%d)",
                      what, r.down, r.up);
    else
        ry_spec_error(s, key, "%s must have D >= U, at least as many down-links as up-links "
                      "(got %d:%d)", what, r.down, r.up);
    return -1;
}

/* Single-field rules: done by the readers when loading from a document, here
 * for specs built in code. */
static unsigned rules_single(ry_spec *s)
{
    unsigned bad = 0;
    if (!name_ok(s->name)) {
        name_error(ry_spec_pos(s, "name"), s->name);
        bad |= BAD_NAME;
    }
    if (rule_int(s, "cluster.gpus", s->gpus, 1, MAX_GPUS))
        bad |= BAD_GPUS;
    if (rule_int(s, "cluster.gpus_per_node", s->node.gpus_per_node, 1, MAX_DOMAIN))
        bad |= BAD_GPN;
    if (rule_int(s, "cluster.hb_domain", s->hb_domain, 1, MAX_DOMAIN))
        bad |= BAD_HB;
    if (rule_int(s, "cluster.rails", s->rails, 1, MAX_DOMAIN))
        bad |= BAD_RAILS;
    if (rule_int(s, "cluster.planes", s->planes, 1, MAX_PLANES))
        bad |= BAD_PLANES;
    if (rule_int(s, "cluster.scalable_unit", s->scalable_unit, 0, INT_MAX))
        bad |= BAD_SU;
    if (rule_radix(s, s->sw.radix))
        bad |= BAD_SWITCH;
    if (!(s->sw.port_gbps > 0) || !(s->node.nic_gbps > 0)) {
        ry_spec_error(s, "fabric.switch.speed", "link speeds must be > 0 Gb/s (got switch %g, "
                      "NIC %g)", s->sw.port_gbps, s->node.nic_gbps);
        bad |= BAD_SWITCH;
    }
    if (s->n_oversub < 0 || s->n_oversub > RY_MAX_TIERS) {
        ry_spec_error(s, "fabric.oversubscription", "fabric.oversubscription has %d entries "
                      "(at most %d)", s->n_oversub, RY_MAX_TIERS);
        bad |= BAD_OVERSUB;
    } else {
        for (int i = 0; i < s->n_oversub; i++)
            if (rule_ratio(s, "fabric.oversubscription", "fabric.oversubscription", s->oversub[i]))
                bad |= BAD_OVERSUB;
    }
    if (s->tiers < 0 || s->tiers > RY_MAX_TIERS) {
        ry_spec_error(s, "fabric.tiers", "fabric.tiers must be auto or an integer in 1..%d "
                      "(got %d)", RY_MAX_TIERS, s->tiers);
        bad |= BAD_TIERS;
    }
    if (!(s->transceiver_cost >= 0)) {
        ry_spec_error(s, "cost.transceiver", "cost.transceiver must be a number >= 0 (got %g)",
                      s->transceiver_cost);
        bad |= BAD_COST;
    }
    if (!(s->switch_port_cost >= 0)) {
        ry_spec_error(s, "cost.switch_port", "cost.switch_port must be a number >= 0 (got %g)",
                      s->switch_port_cost);
        bad |= BAD_COST;
    }
    return bad;
}

/* Rules between fields. */
static void rules_cross(ry_spec *s, unsigned bad)
{
    int k = s->hb_domain, gpn = s->node.gpus_per_node;

    if (k <= 0)
        bad |= BAD_HB;
    if (gpn <= 0)
        bad |= BAD_GPN;
    if (s->rails <= 0)
        bad |= BAD_RAILS;
    if (!(bad & (BAD_HB | BAD_GPN)) && k % gpn && gpn % k) {
        const char *key = blame(s, "cluster.hb_domain", "cluster.gpus_per_node", "cluster.node");
        ry_spec_error(s, key, "cluster.hb_domain (%d) and cluster.gpus_per_node (%d) must divide "
                      "one another: an HB domain is part of a node or a whole number of nodes",
                      k, gpn);
        bad |= BAD_HB;
    }
    if (!(bad & (BAD_GPUS | BAD_HB | BAD_GPN | BAD_NODE))) {
        int unit = k > gpn ? k : gpn;
        if (s->gpus % unit) {
            if (has_key(s, "cluster.nodes"))
                ry_spec_error(s, "cluster.nodes", "cluster.nodes must be a multiple of %d, the "
                              "nodes of one HB domain (%d GPUs, %d per node) (got %lld)",
                              unit / gpn, k, gpn, s->nodes);
            else
                ry_spec_error(s, "cluster.gpus", "cluster.gpus must be a multiple of %d (%s) "
                              "(got %lld)", unit,
                              k >= gpn ? "the HB domain size cluster.hb_domain"
                                       : "the GPUs per node",
                              s->gpus);
            bad |= BAD_GPUS;
        }
    }
    if (!(bad & (BAD_RAILS | BAD_HB))) {
        if (s->rails > k)
            ry_spec_error(s, "cluster.rails", "cluster.rails must be at most the HB domain size "
                          "%d: each GPU of a domain sits on one rail (got %d)", k, s->rails);
        else if (k % s->rails)
            ry_spec_error(s, "cluster.rails", "cluster.rails must divide the HB domain size %d "
                          "(got %d)", k, s->rails);
    }
}

/* ---- defaults and built-in specs -------------------------------------------------------- */

void ry_spec_defaults(ry_spec *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "cluster");
    snprintf(s->node.name, sizeof s->node.name, "generic");
    s->node.gpus_per_node = 8;
    s->node.hb_domain = 8;
    s->node.nic_gbps = 400;
    s->hb_domain = 8;
    s->rails = 0;           /* = hb_domain, filled by ry_spec_check */
    s->planes = 1;
    s->scalable_unit = 0;
    s->design = RY_DESIGN_RAIL_OPTIMIZED;
    snprintf(s->sw.name, sizeof s->sw.name, "generic");
    s->sw.radix = 64;
    s->sw.port_gbps = 400;
    snprintf(s->sw.speed, sizeof s->sw.speed, "400G");
    s->n_oversub = 0;
    s->tiers = 0;
    s->transceiver_cost = DEFAULT_TRANSCEIVER_COST;
    s->switch_port_cost = DEFAULT_SWITCH_PORT_COST;
    s->ib.guid_base = DEFAULT_GUID_BASE;
    s->ib.lmc = 0;
    snprintf(s->ib.routing_engine, sizeof s->ib.routing_engine, "file");
    s->ib.lft_portguid = 1;
    s->ib.pkey_base = DEFAULT_PKEY_BASE;
    snprintf(s->node_pattern, sizeof s->node_pattern, "%s", DEFAULT_NODE_PATTERN);
    s->layout.rows = 0;
    s->layout.racks_per_row = 16;
    s->layout.rack_units = 48;
    s->layout.first_unit = 2;
    s->layout.nodes_per_rack = 4;
    s->layout.node_units = 8;
    s->layout.switch_units = 1;
    s->layout.network = 0;
    s->layout.rack_pitch = 0.6;
    s->layout.row_pitch = 2.4;
    s->layout.tray_height = 2.6;
    s->layout.slack = 0.5;
}

int ry_spec_check(ry_spec *s)
{
    int before = ry_error_count();
    if (s->rails == 0)
        s->rails = s->hb_domain;
    if (s->node.gpus_per_node > 0 && s->nodes == 0 && s->gpus % s->node.gpus_per_node == 0)
        s->nodes = s->gpus / s->node.gpus_per_node;
    rules_cross(s, rules_single(s));
    return ry_error_count() > before ? -1 : 0;
}

/* ---- readers ------------------------------------------------------------------------------ */

static ry_catalog *catalog(loadctx *c)
{
    if (!c->cat_tried) {
        c->cat_tried = 1;
        c->cat = ry_catalog_load(c->templates);
    }
    return c->cat;
}

/* The catalog when an inline map might start from an entry but does not
 * need one: a missing catalog directory is then no error. */
static ry_catalog *catalog_if_present(loadctx *c)
{
    if (!c->cat_tried) {
        ry_buf p;
        ry_buf_init(&p);
        ry_buf_printf(&p, "%s/switches.yaml", c->templates);
        int here = access(p.data, F_OK) == 0;
        ry_buf_free(&p);
        if (!here)
            return NULL;
    }
    return catalog(c);
}

static int get_int(const ry_ynode *map, const char *key, const char *what, long long min,
                   long long max, long long *out)
{
    const ry_ynode *n = ry_ymap_get(map, key);
    if (!n)
        return 0;
    return ry_yget_int(n, what, min, max, out) < 0 ? -1 : 1;
}

static void read_name(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *n = ry_ymap_get(root, "name");
    const char *v;
    if (!n) {
        if (!c->top_unknown)
            ry_error_at(root->pos, "missing key 'name': the cluster's name, like superpod-4su");
        c->bad |= BAD_NAME;
        return;
    }
    if (ry_yget_string(n, "name", &v) < 0) {
        c->bad |= BAD_NAME;
        return;
    }
    if (!name_ok(v)) {
        name_error(n->pos, v);
        c->bad |= BAD_NAME;
        return;
    }
    snprintf(s->name, sizeof s->name, "%s", v);
}

static void read_version(const ry_ynode *root)
{
    const ry_ynode *n = ry_ymap_get(root, "version");
    if (!n)
        return;
    if (n->kind != RY_YSCALAR || n->quoted || strcmp(n->value, "1") != 0)
        ry_error_at(n->pos, "version must be 1 (got %s): this railyard reads spec version 1",
                    ry_ynode_describe(n));
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

    int bad = ry_ycheck_keys(n, "cluster.node", node_keys) > 0;
    const ry_ynode *name = ry_ymap_get(n, "name");
    const ry_ynode *gpn = ry_ymap_get(n, "gpus_per_node");
    const char *nm = "custom";
    if (name && ry_yget_string(name, "cluster.node.name", &nm) < 0)
        return -1;
    if (strlen(nm) >= RY_NAME_MAX) {
        ry_error_at(name->pos, "cluster.node.name is longer than %d characters", RY_NAME_MAX - 1);
        return -1;
    }
    if (name) {
        ry_catalog *cat = gpn ? catalog_if_present(c) : catalog(c);
        const ry_catalog_node *e = cat ? ry_catalog_find_node(cat, nm) : NULL;
        if (e) {
            *out = e->model;
        } else if (!gpn) {
            /* Without gpus_per_node the name must be meant as a catalog entry. */
            if (!cat || ry_catalog_get_node(cat, name, "cluster.node.name", out) < 0)
                return -1;
        }
    }
    if (!out->name[0])
        snprintf(out->name, sizeof out->name, "%s", nm);

    long long v;
    int r = get_int(n, "gpus_per_node", "cluster.node.gpus_per_node", 1, MAX_DOMAIN, &v);
    if (r > 0)
        out->gpus_per_node = (int)v;
    bad |= r < 0;
    r = get_int(n, "hb_domain", "cluster.node.hb_domain", 1, MAX_DOMAIN, &v);
    if (r > 0)
        out->hb_domain = (int)v;
    bad |= r < 0;
    const ry_ynode *sp = ry_ymap_get(n, "nic_speed");
    char text[16];
    if (sp && ry_yget_speed(sp, "cluster.node.nic_speed", &out->nic_gbps, text, sizeof text) < 0)
        bad = 1;
    const ry_ynode *d = ry_ymap_get(n, "description");
    const char *dv;
    if (d && ry_yget_string(d, "cluster.node.description", &dv) < 0)
        bad = 1;
    if ((r = get_int(n, "rack_units", "cluster.node.rack_units", 1, 64, &v)) > 0)
        out->units = (int)v;
    bad |= r < 0;
    if ((r = get_int(n, "per_rack", "cluster.node.per_rack", 1, 1024, &v)) > 0)
        out->per_rack = (int)v;
    bad |= r < 0;
    if ((r = get_int(n, "cage_ports", "cluster.node.cage_ports", 1, 8, &v)) > 0)
        out->cage_ports = (int)v;
    bad |= r < 0;
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
        c->bad |= BAD_GPUS | BAD_NODE;
        return;
    }
    if (ry_yget_map(cl, "cluster", &is_null) < 0) {
        c->bad |= BAD_GPUS | BAD_NODE;
        return;
    }
    int unknown = ry_ycheck_keys(cl, "cluster", cluster_keys);

    /* Node model first: the other keys default from it. */
    const ry_ynode *nn = ry_ymap_get(cl, "node");
    ry_node_model node;
    memset(&node, 0, sizeof node);
    if (nn && read_node(c, nn, &node) < 0)
        c->bad |= BAD_NODE | BAD_GPN | BAD_HB;
    if (!nn)
        snprintf(node.name, sizeof node.name, "custom");

    long long gpn = 0, k = 0, v;
    int r = get_int(cl, "gpus_per_node", "cluster.gpus_per_node", 1, MAX_DOMAIN, &gpn);
    if (r < 0)
        c->bad |= BAD_GPN;
    r = get_int(cl, "hb_domain", "cluster.hb_domain", 1, MAX_DOMAIN, &k);
    if (r < 0)
        c->bad |= BAD_HB;
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
        c->bad |= BAD_GPUS;
    } else if (!nk && !gk) {
        /* An unknown key is likely a misspelt nodes or gpus: said already. */
        if (!unknown)
            ry_error_at(clkey->pos, "cluster needs nodes (servers) or gpus (total GPUs)");
        c->bad |= BAD_GPUS;
    } else if (nk) {
        if (get_int(cl, "nodes", "cluster.nodes", 1, MAX_GPUS, &v) < 0) {
            c->bad |= BAD_GPUS;
        } else if (!(c->bad & BAD_GPN) && v > MAX_GPUS / gpn) {
            ry_error_at(ry_ymap_get(cl, "nodes")->pos, "cluster.nodes is too large: %lld nodes "
                        "of %lld GPUs is more than %d GPUs", v, gpn, MAX_GPUS);
            c->bad |= BAD_GPUS;
        } else {
            s->nodes = v;
            s->gpus = v * gpn;
        }
    } else {
        if (get_int(cl, "gpus", "cluster.gpus", 1, MAX_GPUS, &v) < 0) {
            c->bad |= BAD_GPUS;
        } else {
            s->gpus = v;
            s->nodes = v / gpn;
        }
    }

    s->rails = (int)k;
    if (get_int(cl, "rails", "cluster.rails", 1, MAX_DOMAIN, &v) < 0)
        c->bad |= BAD_RAILS;
    else if (ry_ymap_get(cl, "rails"))
        s->rails = (int)v;
    s->planes = 1;
    if (get_int(cl, "planes", "cluster.planes", 1, MAX_PLANES, &v) < 0)
        c->bad |= BAD_PLANES;
    else if (ry_ymap_get(cl, "planes"))
        s->planes = (int)v;
    s->scalable_unit = 0;
    if (get_int(cl, "scalable_unit", "cluster.scalable_unit", 0, INT_MAX, &v) < 0)
        c->bad |= BAD_SU;
    else if (ry_ymap_get(cl, "scalable_unit"))
        s->scalable_unit = (int)v;
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

    int bad = ry_ycheck_keys(n, "fabric.switch", switch_keys) > 0;
    const ry_ynode *name = ry_ymap_get(n, "name");
    const ry_ynode *radix = ry_ymap_get(n, "radix");
    const char *nm = "custom";
    if (name && ry_yget_string(name, "fabric.switch.name", &nm) < 0)
        return -1;
    if (strlen(nm) >= RY_NAME_MAX) {
        ry_error_at(name->pos, "fabric.switch.name is longer than %d characters",
                    RY_NAME_MAX - 1);
        return -1;
    }
    if (name) {
        ry_catalog *cat = radix ? catalog_if_present(c) : catalog(c);
        const ry_catalog_switch *e = cat ? ry_catalog_find_switch(cat, nm) : NULL;
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
        snprintf(out->name, sizeof out->name, "%s", nm);

    if (radix) {
        long long v;
        if (radix->kind != RY_YSCALAR || radix->quoted || ry_ynode_is_null(radix)) {
            ry_error_at(radix->pos, "fabric.switch.radix must be an even number >= 4 (got %s)",
                        ry_ynode_describe(radix));
            bad = 1;
        } else if (ry_yget_int(radix, "fabric.switch.radix", LLONG_MIN, LLONG_MAX, &v) < 0) {
            bad = 1;
        } else if (v > MAX_RADIX) {
            ry_error_at(radix->pos, "fabric.switch.radix is too large (got %lld; at most %d)", v,
                        MAX_RADIX);
            bad = 1;
        } else if (v < 4 || v % 2) {
            ry_error_at(radix->pos, "fabric.switch.radix must be an even number >= 4 (got %lld)",
                        v);
            bad = 1;
        } else {
            out->radix = (int)v;
        }
    }
    const ry_ynode *sp = ry_ymap_get(n, "speed");
    if (sp && ry_yget_speed(sp, "fabric.switch.speed", &out->port_gbps, out->speed,
                            sizeof out->speed) < 0)
        bad = 1;
    const ry_ynode *d = ry_ymap_get(n, "description");
    const char *dv;
    if (d && ry_yget_string(d, "fabric.switch.description", &dv) < 0)
        bad = 1;
    long long x;
    int r;
    if ((r = get_int(n, "rack_units", "fabric.switch.rack_units", 1, 64, &x)) > 0)
        out->units = (int)x;
    bad |= r < 0;
    if ((r = get_int(n, "cage_ports", "fabric.switch.cage_ports", 1, 8, &x)) > 0)
        out->cage_ports = (int)x;
    bad |= r < 0;
    const ry_ynode *pr = ry_ymap_get(n, "protocol");
    int proto;
    if (pr) {
        if (ry_yget_enum(pr, "fabric.switch.protocol", protocols, &proto) < 0)
            bad = 1;
        else
            out->ethernet = proto == 1;
    }
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
            c->bad |= BAD_OVERSUB;
        else
            s->n_oversub = 1;
        return;
    }
    if (n->kind != RY_YSEQ || n->n == 0 || n->n > RY_MAX_TIERS) {
        const char *got = n->kind != RY_YSEQ ? ry_ynode_describe(n)
                        : n->n ? "too many entries" : "an empty list";
        ry_error_at(n->pos, "%s must be \"D:U\" or a list of 1 to %d of them, leaf tier first "
                    "(got %s)", what, RY_MAX_TIERS, got);
        c->bad |= BAD_OVERSUB;
        return;
    }
    for (size_t i = 0; i < n->n; i++) {
        char w[64];
        snprintf(w, sizeof w, "%s[%zu]", what, i);
        if (read_ratio(n->items[i], w, &s->oversub[i]) < 0)
            c->bad |= BAD_OVERSUB;
    }
    if (!(c->bad & BAD_OVERSUB))
        s->n_oversub = (int)n->n;
}

static void read_tiers(loadctx *c, const ry_ynode *n)
{
    const char *v = n->kind == RY_YSCALAR ? n->value : "";
    if (n->kind == RY_YSCALAR && strcasecmp(v, "auto") == 0) {
        c->s->tiers = 0;
        return;
    }
    int ok = n->kind == RY_YSCALAR && !n->quoted && v[0] >= '1' && v[0] <= '9' && !v[1];
    if (ok && v[0] - '0' <= RY_MAX_TIERS) {
        c->s->tiers = v[0] - '0';
        return;
    }
    ry_error_at(n->pos, "fabric.tiers must be auto or an integer in 1..%d (got %s)", RY_MAX_TIERS,
                ry_ynode_describe(n));
    c->bad |= BAD_TIERS;
}

static void read_fabric(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *f = ry_ymap_get(root, "fabric");
    int is_null;

    s->design = RY_DESIGN_RAIL_OPTIMIZED;
    snprintf(s->sw.name, sizeof s->sw.name, "generic");
    s->sw.radix = 64;
    s->sw.port_gbps = 0;
    if (!f || ry_yget_map(f, "fabric", &is_null) < 0 || is_null)
        goto speeds;
    ry_ycheck_keys(f, "fabric", fabric_keys);

    const ry_ynode *n = ry_ymap_get(f, "design");
    int d;
    if (n && ry_yget_enum(n, "fabric.design", design_names, &d) == 0)
        s->design = (ry_design)d;

    n = ry_ymap_get(f, "switch");
    if (n) {
        ry_switch_model sw;
        if (read_switch(c, n, &sw) < 0)
            c->bad |= BAD_SWITCH;
        else
            s->sw = sw;
    }
    n = ry_ymap_get(f, "oversubscription");
    if (n)
        read_oversub(c, n);
    n = ry_ymap_get(f, "tiers");
    if (n)
        read_tiers(c, n);

speeds:
    /* An inline switch without a speed runs at the node's NIC speed; a node
     * without a NIC speed uses the switch's; 400G when neither says. */
    if (!(s->sw.port_gbps > 0))
        s->sw.port_gbps = s->node.nic_gbps > 0 ? s->node.nic_gbps : 400;
    if (!s->sw.speed[0])
        speed_text(s->sw.speed, sizeof s->sw.speed, s->sw.port_gbps);
    if (!(s->node.nic_gbps > 0))
        s->node.nic_gbps = s->sw.port_gbps;
}

static void read_cost(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *m = ry_ymap_get(root, "cost");
    int is_null, model;

    s->transceiver_cost = DEFAULT_TRANSCEIVER_COST;
    s->switch_port_cost = DEFAULT_SWITCH_PORT_COST;
    if (!m || ry_yget_map(m, "cost", &is_null) < 0 || is_null)
        return;
    ry_ycheck_keys(m, "cost", cost_keys);
    const ry_ynode *n = ry_ymap_get(m, "model");
    if (n && ry_yget_enum(n, "cost.model", cost_models, &model) < 0)
        c->bad |= BAD_COST;
    n = ry_ymap_get(m, "transceiver");
    if (n && ry_yget_number(n, "cost.transceiver", 0, 1e300, &s->transceiver_cost) < 0)
        c->bad |= BAD_COST;
    n = ry_ymap_get(m, "switch_port");
    if (n && ry_yget_number(n, "cost.switch_port", 0, 1e300, &s->switch_port_cost) < 0)
        c->bad |= BAD_COST;
}

/* infiniband: the GUID/LID plan and the OpenSM files. */
static void read_ib(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *m = ry_ymap_get(root, "infiniband");
    int is_null, v;
    if (!m || ry_yget_map(m, "infiniband", &is_null) < 0 || is_null)
        return;
    ry_ycheck_keys(m, "infiniband", ib_keys);
    const ry_ynode *n = ry_ymap_get(m, "guid_base");
    if (n) {
        /* A hex string ("0x0002c90000000000") or a number; the plan adds up
         * to 2^33 + the switch count, which must not wrap. */
        char *end = NULL;
        unsigned long long g = 0;
        int ok = n->kind == RY_YSCALAR && n->value && n->value[0] != '-';
        if (ok) {
            errno = 0;
            g = strtoull(n->value, &end, 0);
            ok = errno == 0 && end != n->value && *end == '\0';
        }
        if (!ok)
            ry_error_at(n->pos, "infiniband.guid_base must be a 64-bit GUID like "
                        "0x0002c90000000000 (got %s)", ry_ynode_describe(n));
        else if (g > 0xFFFFFFF000000000ULL || g == 0)
            ry_error_at(n->pos, "infiniband.guid_base 0x%016llx leaves no room for the plan "
                        "(CA GUIDs use base + 2^32.., switches base + 2^33..): use a non-zero "
                        "base below 0xfffffff000000000", g);
        else
            s->ib.guid_base = g;
    }
    long long x;
    int r = get_int(m, "lmc", "infiniband.lmc", 0, 7, &x);
    if (r > 0)
        s->ib.lmc = (int)x;
    n = ry_ymap_get(m, "routing_engine");
    if (n && ry_yget_enum(n, "infiniband.routing_engine", routing_engines, &v) == 0)
        snprintf(s->ib.routing_engine, sizeof s->ib.routing_engine, "%s", routing_engines[v]);
    n = ry_ymap_get(m, "lft_portguid");
    if (n && ry_yget_bool(n, "infiniband.lft_portguid", &v) == 0)
        s->ib.lft_portguid = v;
    r = get_int(m, "pkey_base", "infiniband.pkey_base", 1, 0x7ffe, &x);
    if (r > 0)
        s->ib.pkey_base = (int)x;
    if (s->ib.lmc > 0 && strcmp(s->ib.routing_engine, "ftree") == 0)
        ry_spec_error(s, "infiniband.lmc", "infiniband.lmc %d cannot be routed by ftree, which "
                      "needs LMC 0: use lmc: 0 or routing_engine: updn", s->ib.lmc);
}

/* layout: racks and rows. Rules between keys (a rack tall enough for one
 * server, a tray above the racks) are checked here; whether the cluster fits
 * is the layout builder's to say. */
static void read_layout(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *m = ry_ymap_get(root, "layout");
    int is_null, v;
    long long x;
    double d;
    if (s->node.units > 0)
        s->layout.node_units = s->node.units;
    if (s->node.per_rack > 0)
        s->layout.nodes_per_rack = s->node.per_rack;
    if (s->sw.units > 0)
        s->layout.switch_units = s->sw.units;
    if (!m || ry_yget_map(m, "layout", &is_null) < 0 || is_null)
        goto check;
    ry_ycheck_keys(m, "layout", layout_keys);
    static const struct { const char *key; long long min, max; size_t off; } ints[] = {
        { "rows", 1, 10000, offsetof(ry_spec, layout.rows) },
        { "racks_per_row", 1, 10000, offsetof(ry_spec, layout.racks_per_row) },
        { "rack_units", 4, 80, offsetof(ry_spec, layout.rack_units) },
        { "first_unit", 1, 80, offsetof(ry_spec, layout.first_unit) },
        { "nodes_per_rack", 1, 1024, offsetof(ry_spec, layout.nodes_per_rack) },
        { "node_units", 1, 80, offsetof(ry_spec, layout.node_units) },
        { "switch_units", 1, 80, offsetof(ry_spec, layout.switch_units) },
    };
    char what[64];
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        snprintf(what, sizeof what, "layout.%s", ints[i].key);
        if (get_int(m, ints[i].key, what, ints[i].min, ints[i].max, &x) > 0)
            *(int *)((char *)s + ints[i].off) = (int)x;
    }
    static const struct { const char *key; double min, max; size_t off; } reals[] = {
        { "rack_pitch", 0.1, 100, offsetof(ry_spec, layout.rack_pitch) },
        { "row_pitch", 0.5, 1000, offsetof(ry_spec, layout.row_pitch) },
        { "tray_height", 0.5, 20, offsetof(ry_spec, layout.tray_height) },
        { "slack", 0, 50, offsetof(ry_spec, layout.slack) },
    };
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++) {
        const ry_ynode *n = ry_ymap_get(m, reals[i].key);
        snprintf(what, sizeof what, "layout.%s", reals[i].key);
        if (n && ry_yget_number(n, what, reals[i].min, reals[i].max, &d) == 0)
            *(double *)((char *)s + reals[i].off) = d;
    }
    const ry_ynode *n = ry_ymap_get(m, "network");
    if (n && ry_yget_enum(n, "layout.network", network_places, &v) == 0)
        s->layout.network = v;
check:;
    double top = 0.1 + s->layout.rack_units * 0.04445;
    if (s->layout.tray_height < top)
        ry_spec_error(s, "layout.tray_height", "layout.tray_height %.2f m is below the top of a "
                      "%dU rack (%.2f m): the overhead tray must clear the racks",
                      s->layout.tray_height, s->layout.rack_units, top);
    int room = s->layout.rack_units - s->layout.first_unit + 1;
    if (s->layout.node_units > room)
        ry_spec_error(s, has_key(s, "layout.node_units") ? "layout.node_units" : "layout.rack_units",
                      "a %dU node does not fit in a %dU rack from unit %d", s->layout.node_units,
                      s->layout.rack_units, s->layout.first_unit);
    else if (s->layout.nodes_per_rack * s->layout.node_units > room)
        ry_spec_error(s, has_key(s, "layout.nodes_per_rack") ? "layout.nodes_per_rack"
                                                               : "layout.rack_units",
                      "%d nodes of %dU do not fit in a %dU rack from unit %d (at most %d)",
                      s->layout.nodes_per_rack, s->layout.node_units, s->layout.rack_units,
                      s->layout.first_unit, room / s->layout.node_units);
    if (s->layout.switch_units > room)
        ry_spec_error(s, "layout.switch_units", "a %dU switch does not fit in a %dU rack",
                      s->layout.switch_units, s->layout.rack_units);
}

/* cabling: media forced per tier ({1: ndr-dac}) or per link end. Medium
 * names are checked against the media catalog by the cabling plan. */
static void read_cabling(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *m = ry_ymap_get(root, "cabling");
    int is_null;
    if (!m || ry_yget_map(m, "cabling", &is_null) < 0 || is_null)
        return;
    ry_ycheck_keys(m, "cabling", cabling_keys);
    const ry_ynode *t = ry_ymap_get(m, "tiers");
    if (t && ry_yget_map(t, "cabling.tiers", &is_null) == 0 && !is_null) {
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
    const ry_ynode *l = ry_ymap_get(m, "links");
    if (!l)
        return;
    if (l->kind != RY_YSEQ) {
        ry_error_at(l->pos, "cabling.links must be a list of {end, medium} (got %s)",
                    ry_ynode_describe(l));
        return;
    }
    s->cabling.links = ry_xcalloc(l->n ? l->n : 1, sizeof *s->cabling.links);
    for (size_t i = 0; i < l->n; i++) {
        const ry_ynode *e = l->items[i];
        const char *end, *med;
        if (e->kind != RY_YMAP) {
            ry_error_at(e->pos, "cabling.links entries are maps {end: leaf3/33, medium: ndr-smf} "
                        "(got %s)", ry_ynode_describe(e));
            continue;
        }
        ry_ycheck_keys(e, "cabling.links entry", link_keys);
        const ry_ynode *en = ry_ymap_get(e, "end"), *mn = ry_ymap_get(e, "medium");
        if (!en || !mn) {
            ry_error_at(e->pos, "a cabling.links entry needs end (like leaf3/33 or "
                        "node001/mlx5_3) and medium");
            continue;
        }
        if (ry_yget_string(en, "cabling.links end", &end) < 0 ||
            ry_yget_string(mn, "cabling.links medium", &med) < 0)
            continue;
        struct ry_link_override *o = &s->cabling.links[s->cabling.nlinks++];
        snprintf(o->end, sizeof o->end, "%s", end);
        snprintf(o->medium, sizeof o->medium, "%s", med);
        o->index = (int)i;
    }
}

/* naming: host name pattern, checked by formatting a sample. */
static void read_naming(loadctx *c, const ry_ynode *root)
{
    ry_spec *s = c->s;
    const ry_ynode *m = ry_ymap_get(root, "naming");
    int is_null;
    if (!m || ry_yget_map(m, "naming", &is_null) < 0 || is_null)
        return;
    ry_ycheck_keys(m, "naming", naming_keys);
    const ry_ynode *n = ry_ymap_get(m, "node");
    const char *v;
    if (!n || ry_yget_string(n, "naming.node", &v) < 0)
        return;
    char sample[RY_NAME_MAX], why[160];
    if (strlen(v) >= RY_NAME_MAX || ry_name_pattern(v, 123456, 1234, sample, sizeof sample,
                                                     why, sizeof why) < 0) {
        ry_error_at(n->pos, "naming.node: %s (got '%s'); expected text with {n}, {n1}, {unit} "
                    "or {unit1}, optionally with a width as in node{n1:03}",
                    strlen(v) >= RY_NAME_MAX ? "too long" : why, v);
        return;
    }
    if (!strstr(v, "{n}") && !strstr(v, "{n1}") && !strstr(v, "{n:") && !strstr(v, "{n1:")) {
        ry_error_at(n->pos, "naming.node must contain {n} or {n1} so that every server gets "
                    "its own name (got '%s')", v);
        return;
    }
    snprintf(s->node_pattern, sizeof s->node_pattern, "%s", v);
}

/* ---- overrides ---------------------------------------------------------------------------- */

static void apply_override(ry_ydoc *d, const ry_override *o)
{
    ry_pos at = { "--set", o->argno, 1 };
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
    }
    free(split);
}

/* ---- loading ------------------------------------------------------------------------------- */

ry_spec *ry_spec_load(const char *path, const ry_override *sets, int nsets,
                      const char *templates_dir)
{
    int before = ry_error_count();
    ry_ydoc *doc = ry_ydoc_load(path, "spec");
    if (!doc)
        return NULL;

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
    c.top_unknown = ry_ycheck_keys(root, "", top_keys);
    read_version(root);
    read_name(&c, root);
    read_cluster(&c, root);
    read_fabric(&c, root);
    read_cost(&c, root);
    read_ib(&c, root);
    read_naming(&c, root);
    read_layout(&c, root);
    read_cabling(&c, root);
    rules_cross(s, c.bad);
    ry_workload_read(s, root, c.templates);
    ry_libra_spec_read(s, root, c.templates);
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
    free(s);
}
