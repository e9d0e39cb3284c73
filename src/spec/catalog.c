/* The catalog of switch and node models: templates/switches.yaml and nodes.yaml. */
#include "spec/catalog.h"

#include "spec/schema.h"

#include "util/buf.h"
#include "util/diag.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>

#ifndef RY_DATADIR
#define RY_DATADIR "/usr/local/share/railyard"
#endif

const char *ry_templates_dir(const char *option)
{
    if (option && *option)
        return option;
    const char *env = getenv("RAILYARD_TEMPLATES");
    if (env && *env)
        return env;
#ifdef RY_SRC_TEMPLATES
    /* An uninstalled build reads the catalog of its source tree until
     * `make install` has put one in the data directory. */
    struct stat st;
    if (stat(RY_DATADIR "/switches.yaml", &st) != 0 && stat(RY_SRC_TEMPLATES, &st) == 0)
        return RY_SRC_TEMPLATES;
#endif
    return RY_DATADIR;
}

/* ---- speeds ------------------------------------------------------------------------ */

static const struct {
    const char *name;
    double gbps;
} ib_rates[] = {
    /* InfiniBand generations at 4x, and the usual split-port names. */
    { "fdr", 56 },  { "edr", 100 }, { "hdr100", 100 }, { "hdr", 200 },
    { "ndr200", 200 }, { "ndr", 400 }, { "xdr", 800 },
};

int ry_parse_speed(const char *s, double *gbps)
{
    char buf[32];
    size_t n = 0;

    /* Lowercase, without blanks ("400 Gb/s" is fine). */
    for (; *s; s++) {
        if (isspace((unsigned char)*s))
            continue;
        if (n + 1 >= sizeof buf)
            return -1;
        buf[n++] = (char)tolower((unsigned char)*s);
    }
    buf[n] = '\0';
    if (!n)
        return -1;
    for (size_t i = 0; i < sizeof ib_rates / sizeof ib_rates[0]; i++)
        if (strcmp(buf, ib_rates[i].name) == 0) {
            *gbps = ib_rates[i].gbps;
            return 0;
        }
    if (!isdigit((unsigned char)buf[0]))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (errno == ERANGE || !(v > 0))
        return -1;
    static const struct {
        const char *unit;
        double scale;
    } units[] = {
        { "", 1 },        { "g", 1 },     { "gb/s", 1 },     { "gbps", 1 },
        { "gbit/s", 1 },  { "gbe", 1 },   { "t", 1000 },     { "tb/s", 1000 },
        { "tbps", 1000 },
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            v *= units[i].scale;
            if (v > 1e6)
                return -1;
            *gbps = v;
            return 0;
        }
    return -1;
}

int ry_yget_speed(const ry_ynode *n, const char *what, double *gbps, char *text, size_t cap)
{
    RY_ASSERT(n != NULL);
    if (n->kind == RY_YSCALAR && !ry_ynode_is_null(n) && strlen(n->value) < cap &&
        ry_parse_speed(n->value, gbps) == 0) {
        snprintf(text, cap, "%s", n->value);
        return 0;
    }
    ry_error_at(n->pos, "%s must be a speed like 400G, 400Gb/s, NDR, HDR, XDR or a number "
                "of Gb/s (got %s)", what, ry_ynode_describe(n));
    return -1;
}

/* ---- loading ------------------------------------------------------------------------ */

static int check_name(const ry_ynode *key, const char *file_kind)
{
    const char *s = key->value;
    size_t len = strlen(s);
    int ok = len > 0 && len < RY_NAME_MAX;
    for (const char *p = s; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || isdigit((unsigned char)*p) || *p == '.' ||
             *p == '_' || *p == '-';
    if (!ok)
        ry_error_at(key->pos, "%s name '%s' must be lowercase letters, digits, '.', '_' "
                    "or '-', at most %d characters", file_kind, s, RY_NAME_MAX - 1);
    return ok ? 0 : -1;
}

const ry_ynode *ry_catalog_entries(const ry_ydoc *d, const char *top)
{
    const char *const allowed[] = { top, NULL };
    ry_pos start = { d->file, 1, 1 };
    if (!d->root) {
        ry_error_at(start, "catalog is empty (expected '%s:' with entries)", top);
        return NULL;
    }
    if (d->root->kind != RY_YMAP) {
        ry_error_at(d->root->pos, "catalog must be a map with the key '%s' (got %s)", top,
                    ry_ynode_describe(d->root));
        return NULL;
    }
    if (ry_ycheck_keys(d->root, "", allowed))
        return NULL;
    const ry_ynode *e = ry_ymap_get(d->root, top);
    if (!e) {
        ry_error_at(start, "catalog has no '%s:' section", top);
        return NULL;
    }
    if (e->kind != RY_YMAP) {
        ry_error_at(e->pos, "%s must be a map of entries by name (got %s)", top,
                    ry_ynode_describe(e));
        return NULL;
    }
    return e;
}

/* The node of "key" in an entry; a missing required key is an error. what
 * gets "switches.qm9700.radix" for messages (kind is the file's top key). */
static const ry_ynode *entry_key(const char *entry_kind, const ry_ynode *entry,
                                 const ry_ynode *name, const char *key, int required, char *what,
                                 size_t cap)
{
    const ry_ynode *v = ry_ymap_get(entry, key);
    snprintf(what, cap, "%s.%.60s.%s", entry_kind, name->value, key);
    if (!v && required)
        ry_error_at(name->pos, "catalog entry '%s' has no %s", name->value, key);
    return v;
}

static const char *entry_string(const char *kind, const ry_ynode *entry, const ry_ynode *name,
                                const char *key, int required, int *bad)
{
    char what[160];
    const char *s = "";
    const ry_ynode *v = entry_key(kind, entry, name, key, required, what, sizeof what);
    if (!v)
        *bad |= required;
    else if (ry_yget_string(v, what, &s) < 0)
        *bad = 1;
    return s;
}

/* The keys of an entry that a spec's model map has too (section
 * "fabric.switch" or "cluster.node"), read by the spec schema's rows into
 * model; the first nrequired keys must be given. Messages name
 * "switches.qm9700.radix". */
static int entry_rows(const ry_ynode *ent, const ry_ynode *name, const char *kind,
                      const char *section, const char *const *keys, int nrequired, void *model)
{
    int bad = 0;
    for (int i = 0; keys[i]; i++) {
        char what[160], row[64];
        ry_keyval v;
        const ry_ynode *n = entry_key(kind, ent, name, keys[i], i < nrequired, what, sizeof what);
        snprintf(row, sizeof row, "%s.%s", section, keys[i]);
        const ry_key *k = ry_key_find(row);
        RY_ASSERT(k != NULL);
        if (!n)
            bad |= i < nrequired;
        else if (ry_key_get(k, n, what, &v) < 0)
            bad = 1;
        else
            ry_key_store(k, model, &v);
    }
    return bad ? -1 : 0;
}

static int load_switches(ry_catalog *c)
{
    static const char *const keys[] = { "description", "vendor", "radix", "speed", "protocol",
                                        "rack_units", "cage_ports", NULL };
    const ry_ynode *e = ry_catalog_entries(c->switch_doc, "switches");
    int errors = 0;
    if (!e)
        return -1;
    c->switches = ry_xcalloc(e->n, sizeof *c->switches);
    for (size_t i = 0; i < e->n; i++) {
        const ry_ynode *name = e->keys[i], *ent = e->items[i];
        ry_catalog_switch *s = &c->switches[c->nswitches];
        char what[160];
        int bad = check_name(name, "switch") < 0;
        if (ent->kind != RY_YMAP) {
            ry_error_at(ent->pos, "switch '%s' must be a map of keys (got %s)", name->value,
                        ry_ynode_describe(ent));
            errors++;
            continue;
        }
        snprintf(what, sizeof what, "switches.%.60s", name->value);
        bad |= ry_ycheck_keys(ent, what, keys) > 0;
        s->description = entry_string("switches", ent, name, "description", 1, &bad);
        s->vendor = entry_string("switches", ent, name, "vendor", 0, &bad);
        static const char *const row_keys[] = { "radix", "speed", "protocol", "rack_units",
                                                "cage_ports", NULL };
        bad |= entry_rows(ent, name, "switches", "fabric.switch", row_keys, 2, &s->model) < 0;
        if (bad) {
            errors++;
            continue;
        }
        snprintf(s->model.name, sizeof s->model.name, "%s", name->value);
        s->pos = name->pos;
        c->nswitches++;
    }
    return errors ? -1 : 0;
}

static int load_nodes(ry_catalog *c)
{
    static const char *const keys[] = { "description", "vendor", "gpus_per_node", "hb_domain",
                                        "nic_speed", "rack_units", "per_rack", "cage_ports", NULL };
    const ry_ynode *e = ry_catalog_entries(c->node_doc, "nodes");
    int errors = 0;
    if (!e)
        return -1;
    c->nodes = ry_xcalloc(e->n, sizeof *c->nodes);
    for (size_t i = 0; i < e->n; i++) {
        const ry_ynode *name = e->keys[i], *ent = e->items[i];
        ry_catalog_node *nd = &c->nodes[c->nnodes];
        char what[160];
        int bad = check_name(name, "node") < 0;
        if (ent->kind != RY_YMAP) {
            ry_error_at(ent->pos, "node '%s' must be a map of keys (got %s)", name->value,
                        ry_ynode_describe(ent));
            errors++;
            continue;
        }
        snprintf(what, sizeof what, "nodes.%.60s", name->value);
        bad |= ry_ycheck_keys(ent, what, keys) > 0;
        nd->description = entry_string("nodes", ent, name, "description", 1, &bad);
        nd->vendor = entry_string("nodes", ent, name, "vendor", 0, &bad);
        static const char *const row_keys[] = { "gpus_per_node", "hb_domain", "nic_speed",
                                                "rack_units", "per_rack", "cage_ports", NULL };
        bad |= entry_rows(ent, name, "nodes", "cluster.node", row_keys, 3, &nd->model) < 0;
        int gpn = nd->model.gpus_per_node, k = nd->model.hb_domain;   /* 0: not read */
        if (gpn > 0 && k > 0 && k % gpn && gpn % k) {
            ry_error_at(ry_ymap_get(ent, "hb_domain")->pos, "nodes.%.60s.hb_domain must divide, "
                        "or be a multiple of, gpus_per_node (%d) (got %d)", name->value, gpn, k);
            bad = 1;
        }
        if (bad) {
            errors++;
            continue;
        }
        snprintf(nd->model.name, sizeof nd->model.name, "%s", name->value);
        nd->pos = name->pos;
        c->nnodes++;
    }
    return errors ? -1 : 0;
}

static ry_ydoc *load_file(const char *dir, const char *file, const char *what)
{
    ry_buf path;
    ry_buf_init(&path);
    ry_buf_printf(&path, "%s/%s", dir, file);
    ry_ydoc *d = ry_ydoc_load(path.data, what);
    ry_buf_free(&path);
    return d;
}

ry_catalog *ry_catalog_load(const char *dir)
{
    ry_catalog *c = ry_xcalloc(1, sizeof *c);
    int rc = 0;
    c->dir = ry_xstrdup(dir);
    c->switch_doc = load_file(dir, "switches.yaml",
                              "switch catalog (see --templates, RAILYARD_TEMPLATES)");
    c->node_doc = load_file(dir, "nodes.yaml",
                            "node catalog (see --templates, RAILYARD_TEMPLATES)");
    if (!c->switch_doc || load_switches(c) < 0)
        rc = -1;
    if (!c->node_doc || load_nodes(c) < 0)
        rc = -1;
    if (rc < 0) {
        ry_catalog_free(c);
        return NULL;
    }
    return c;
}

void ry_catalog_free(ry_catalog *c)
{
    if (!c)
        return;
    free(c->switches);
    free(c->nodes);
    ry_ydoc_free(c->switch_doc);
    ry_ydoc_free(c->node_doc);
    free(c->dir);
    free(c);
}

const ry_catalog_switch *ry_catalog_find_switch(const ry_catalog *c, const char *name)
{
    for (int i = 0; c && i < c->nswitches; i++)
        if (strcasecmp(c->switches[i].model.name, name) == 0)
            return &c->switches[i];
    return NULL;
}

const ry_catalog_node *ry_catalog_find_node(const ry_catalog *c, const char *name)
{
    for (int i = 0; c && i < c->nnodes; i++)
        if (strcasecmp(c->nodes[i].model.name, name) == 0)
            return &c->nodes[i];
    return NULL;
}

void ry_catalog_unknown(const ry_ynode *n, const char *what, const char *kind,
                        const char **names, int count, const char *hint)
{
    const char *s = ry_suggest(n->value, names, count);
    if (s) {
        ry_error_at(n->pos, "%s: unknown %s '%s'; did you mean '%s'?", what, kind, n->value, s);
        return;
    }
    ry_buf b;
    ry_buf_init(&b);
    for (int i = 0; i < count; i++)
        ry_buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    ry_error_at(n->pos, "%s: unknown %s '%s' (the catalog has: %s%s)", what, kind, n->value,
                count ? b.data : "nothing", hint);
    ry_buf_free(&b);
}

int ry_catalog_get_switch(const ry_catalog *c, const ry_ynode *n, const char *what,
                          ry_switch_model *out)
{
    const char *name;
    if (ry_yget_string(n, what, &name) < 0)
        return -1;
    const ry_catalog_switch *e = ry_catalog_find_switch(c, name);
    if (e) {
        *out = e->model;
        return 0;
    }
    const char **names = ry_xcalloc((size_t)c->nswitches + 1, sizeof *names);
    for (int i = 0; i < c->nswitches; i++)
        names[i] = c->switches[i].model.name;
    ry_catalog_unknown(n, what, "switch", names, c->nswitches,
                       "; or give a map {name, radix, speed}");
    free(names);
    return -1;
}

int ry_catalog_get_node(const ry_catalog *c, const ry_ynode *n, const char *what,
                        ry_node_model *out)
{
    const char *name;
    if (ry_yget_string(n, what, &name) < 0)
        return -1;
    const ry_catalog_node *e = ry_catalog_find_node(c, name);
    if (e) {
        *out = e->model;
        return 0;
    }
    const char **names = ry_xcalloc((size_t)c->nnodes + 1, sizeof *names);
    for (int i = 0; i < c->nnodes; i++)
        names[i] = c->nodes[i].model.name;
    ry_catalog_unknown(n, what, "node", names, c->nnodes,
                       "; or give a map {name, gpus_per_node, hb_domain, nic_speed}");
    free(names);
    return -1;
}
