/* The catalog: every file of the templates directory (see catalog.h). */
#include "spec/catalog.h"

#include "spec/schema.h"

#include "util/buf.h"
#include "util/diag.h"
#include "util/hash.h"
#include "util/phys.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>
#include <threads.h>

#ifndef RY_DATADIR
#define RY_DATADIR "/usr/local/share/railyard"
#endif

static const char *installed_dir(void);

const char *ry_templates_dir(const char *option)
{
    if (option && *option)
        return option;
    const char *env = getenv("RAILYARD_TEMPLATES");
    if (env && *env)
        return env;
    return installed_dir();
}

/* ---- loading ------------------------------------------------------------------------ */

/* The one place a catalog file is opened. */
/* ---- the catalog's directories -------------------------------------------------------- *
 *
 * A catalog file is looked up in a chain of directories: -T DIR, then
 * $RAILYARD_TEMPLATES, then the installed catalog. The first directory that
 * has the file gives it; its entries are laid over those of the same file
 * further down the chain, entry by entry: an entry of the same name
 * replaces the one below in its place, a new name is added after them. A
 * file whose top level says `replace: true` is taken alone. */

/* The installed catalog (an uninstalled build's source tree until `make
 * install` has put one in the data directory). */
static const char *installed_dir(void)
{
#ifdef RY_SRC_TEMPLATES
    struct stat st;
    if (stat(RY_DATADIR "/switches.yaml", &st) != 0 && stat(RY_SRC_TEMPLATES, &st) == 0)
        return RY_SRC_TEMPLATES;
#endif
    return RY_DATADIR;
}

/* The directory after dir in the chain, or NULL. */
static const char *next_dir(const char *dir)
{
    const char *env = getenv("RAILYARD_TEMPLATES"), *inst = installed_dir();
    if (strcmp(dir, inst) == 0)
        return NULL;
    if (env && *env && strcmp(dir, env) != 0)
        return env;
    return inst;
}

/* The top-level key of a catalog file. */
static const char *file_top(const char *file)
{
    static const char *const tops[][2] = {
        { "switches.yaml", "switches" }, { "nodes.yaml", "nodes" }, { "media.yaml", "media" },
        { "llms.yaml", "llms" }, { "gpus.yaml", "gpus" }, { "libra-costs.yaml", "technologies" },
    };
    for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++)
        if (strcmp(file, tops[i][0]) == 0)
            return tops[i][1];
    return NULL;
}

static int file_exists(const char *dir, const char *file)
{
    ry_buf path;
    ry_buf_init(&path);
    ry_buf_printf(&path, "%s/%s", dir, file);
    struct stat st;
    int ok = stat(path.data, &st) == 0;
    ry_buf_free(&path);
    return ok;
}

/* A copy of s in lower case (entry names match without regard to case). */
static char *lower_dup(const char *s)
{
    char *t = ry_xstrdup(s);
    for (char *p = t; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return t;
}

/* d's entries by name, for overlay_entries: an open-addressing table under
 * the keyed hash from each lower-cased name to the d entries that have it,
 * in file order (chained through next[]), so that laying n entries over m
 * costs n + m whatever the names. */
typedef struct {
    size_t cap, *slot;      /* slot: 1 + the first entry of a name, 0 if free */
    size_t *next, *head;    /* next entry of the same name (or SIZE_MAX); head: per first
                               entry, the first not yet placed */
    char **lower;
} overlay_index;

static size_t overlay_find(const overlay_index *x, const char *low)
{
    size_t i = (size_t)ry_hash_str(low) & (x->cap - 1);
    while (x->slot[i] && strcmp(x->lower[x->slot[i] - 1], low) != 0)
        i = (i + 1) & (x->cap - 1);
    return i;
}

static void overlay_index_build(overlay_index *x, const ry_ynode *dm)
{
    x->cap = 16;
    while (x->cap < 2 * dm->n)
        x->cap *= 2;
    x->slot = ry_xcalloc(x->cap, sizeof *x->slot);
    x->next = ry_xcalloc(dm->n + 1, sizeof *x->next);
    x->head = ry_xcalloc(dm->n + 1, sizeof *x->head);
    x->lower = ry_xcalloc(dm->n + 1, sizeof *x->lower);
    size_t *last = ry_xcalloc(dm->n + 1, sizeof *last);     /* per first entry: its last */
    for (size_t k = 0; k < dm->n; k++) {
        x->lower[k] = lower_dup(dm->keys[k]->value);
        x->next[k] = SIZE_MAX;
        size_t i = overlay_find(x, x->lower[k]);
        if (!x->slot[i]) {
            x->slot[i] = k + 1;
            x->head[k] = last[k] = k;
        } else {
            size_t first = x->slot[i] - 1;
            x->next[last[first]] = k;
            last[first] = k;
        }
    }
    free(last);
}

/* The first d entry named like name not placed yet (marked placed), or SIZE_MAX. */
static size_t overlay_take(overlay_index *x, const char *name)
{
    if (!x->lower[0])
        return SIZE_MAX;
    char *low = lower_dup(name);
    size_t i = overlay_find(x, low), k = SIZE_MAX;
    free(low);
    if (x->slot[i]) {
        size_t first = x->slot[i] - 1;
        k = x->head[first];
        if (k != SIZE_MAX)
            x->head[first] = x->next[k];
    }
    return k;
}

static void overlay_index_free(overlay_index *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(x->lower[k]);
    free(x->lower);
    free(x->slot);
    free(x->next);
    free(x->head);
}

/* Lays the entries of d's map at top over base's (see above); d keeps base.
 * Linear in the entries of both: catalog files can be large. */
static void overlay_entries(ry_ydoc *d, ry_ydoc *base, const char *top)
{
    d->under = base;
    ry_ynode *dm = d->root ? ry_ymap_get(d->root, top) : NULL;
    const ry_ynode *bm = base->root ? ry_ymap_get(base->root, top) : NULL;
    if (!dm || !bm || dm->kind != RY_YMAP || bm->kind != RY_YMAP)
        return;     /* the loader reports what is wrong with d */
    size_t cap = dm->n + bm->n, n = 0;
    ry_ynode **keys = ry_xcalloc(cap ? cap : 1, sizeof *keys);
    ry_ynode **items = ry_xcalloc(cap ? cap : 1, sizeof *items);
    char *mine = ry_xcalloc(dm->n + 1, 1);     /* d's entries already placed */
    overlay_index x;
    overlay_index_build(&x, dm);
    for (size_t i = 0; i < bm->n; i++) {
        size_t k = overlay_take(&x, bm->keys[i]->value);
        if (k == SIZE_MAX) {
            keys[n] = bm->keys[i];
            items[n] = bm->items[i];
        } else {
            keys[n] = dm->keys[k];
            items[n] = dm->items[k];
            mine[k] = 1;
        }
        n++;
    }
    overlay_index_free(&x, dm->n);
    for (size_t k = 0; k < dm->n; k++)
        if (!mine[k]) {
            keys[n] = dm->keys[k];
            items[n++] = dm->items[k];
        }
    free(mine);
    free(dm->keys);
    free(dm->items);
    dm->keys = keys;
    dm->items = items;
    dm->n = n;
    dm->cap = cap;
}

/* `replace: true` at the top of d: read, and removed so the loaders do not
 * see it. 1 when set, 0 when not, -1 after an error. */
static int take_replace(ry_ydoc *d)
{
    const ry_ynode *n = d->root && d->root->kind == RY_YMAP ? ry_ymap_get(d->root, "replace")
                                                            : NULL;
    int v = 0;
    if (n && ry_yget_bool(n, "replace", &v) < 0)
        return -1;
    if (n)
        ry_ydoc_remove(d, "replace");
    return v;
}

static ry_ydoc *load_file(const char *dir, const char *file, const char *what)
{
    const char *next = next_dir(dir);
    struct stat st;
    /* a -T that is no directory is reported, not passed over */
    if (next && stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && !file_exists(dir, file))
        return load_file(next, file, what);
    ry_buf path;
    ry_buf_init(&path);
    ry_buf_printf(&path, "%s/%s", dir, file);
    ry_ydoc *d = ry_ydoc_load(path.data, what);
    ry_buf_free(&path);
    if (!d)
        return NULL;
    int replace = take_replace(d);
    if (replace < 0) {
        ry_ydoc_free(d);
        return NULL;
    }
    /* the file below, when the chain has one */
    const char *below = next;
    while (below && !file_exists(below, file))
        below = next_dir(below);
    if (replace || !below || !file_top(file))
        return d;
    ry_ydoc *base = load_file(below, file, what);
    if (!base) {
        ry_ydoc_free(d);
        return NULL;
    }
    overlay_entries(d, base, file_top(file));
    return d;
}

int ry_catalog_has_file(const char *dir, const char *file)
{
    struct stat st;
    for (const char *d = dir; d; d = next_dir(d)) {
        if (file_exists(d, file))
            return 1;
        /* as load_file: a -T that is no directory ends the chain */
        if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode))
            return 0;
    }
    return 0;
}

static int check_name(const ry_ynode *key, const char *file_kind)
{
    const char *s = key->value;
    int ok = ry_catalog_name_ok(s);
    if (!ok)
        ry_error_at(key->pos, "%s name '%s' must be lowercase letters, digits, '.', '_' "
                    "or '-', at most %d characters", file_kind, s, RY_NAME_MAX - 1);
    return ok ? 0 : -1;
}

/* A well-formed entry: a valid name holding a map. */
static int entry_start(const ry_ynode *name, const ry_ynode *ent, const char *kind)
{
    if (check_name(name, kind) < 0)
        return -1;
    if (ent->kind != RY_YMAP) {
        ry_error_at(ent->pos, "%s '%s' must be a map of keys (got %s)", kind, name->value,
                    ry_ynode_describe(ent));
        return -1;
    }
    return 0;
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

/* A connector (cage form factor) such as osfp or qsfp56: [a-z0-9-]+, at
 * most 15 characters. */
static int read_connector(const ry_ynode *n, const char *what, char out[16])
{
    const char *s;
    if (ry_yget_string(n, what, &s) < 0)
        return -1;
    size_t len = strlen(s);
    int ok = len > 0 && len < 16;
    for (const char *p = s; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || isdigit((unsigned char)*p) || *p == '-';
    if (!ok) {
        ry_error_at(n->pos, "%s must be a form factor like osfp, qsfp56 or qsfp112: lowercase "
                    "letters, digits and '-', at most 15 characters (got '%s')", what, s);
        return -1;
    }
    memcpy(out, s, len + 1);
    return 0;
}

/* The catalog-only keys of a switch or node entry: connector, and a
 * switch's cages (which must divide its ports evenly). */
static int entry_cages(const ry_ynode *ent, const ry_ynode *name, const char *kind,
                       char connector[16], int *cages, int radix, int cage_ports)
{
    char what[160];
    int bad = 0;
    const ry_ynode *v = entry_key(kind, ent, name, "connector", 0, what, sizeof what);
    if (v)
        bad |= read_connector(v, what, connector) < 0;
    if (!cages || !(v = entry_key(kind, ent, name, "cages", 0, what, sizeof what)))
        return bad ? -1 : 0;
    long long k;
    if (ry_yget_int(v, what, 1, 65535, &k) < 0)
        return -1;
    int cp = cage_ports > 0 ? cage_ports : 1;
    if (radix > 0 && radix % (k * cp)) {
        ry_error_at(v->pos, "%s: %d ports do not fill %lld cages of %d port%s evenly", what,
                    radix, k, cp, cp == 1 ? "" : "s");
        return -1;
    }
    *cages = (int)k;
    return bad ? -1 : 0;
}

static int load_switches(ry_catalog *c)
{
    static const char *const keys[] = { "description", "vendor", "radix", "speed", "protocol",
                                        "rack_units", "cage_ports", "price", "power", "part",
                                        "cages", "connector", "sharp", "price_range", NULL };
    const ry_ynode *e = ry_catalog_entries(c->switch_doc, "switches");
    int errors = 0;
    if (!e)
        return -1;
    c->switches = ry_xcalloc(e->n, sizeof *c->switches);
    for (size_t i = 0; i < e->n; i++) {
        const ry_ynode *name = e->keys[i], *ent = e->items[i];
        /* read into a fresh entry: a rejected one leaves nothing behind */
        ry_catalog_switch *s = &c->switches[c->nswitches];
        memset(s, 0, sizeof *s);
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
                                                "cage_ports", "price", "power", "part",
                                                "price_range", NULL };
        bad |= entry_rows(ent, name, "switches", "fabric.switch", row_keys, 2, &s->model) < 0;
        bad |= entry_cages(ent, name, "switches", s->model.connector, &s->model.cages,
                           s->model.radix, s->model.cage_ports) < 0;
        const ry_ynode *sv = entry_key("switches", ent, name, "sharp", 0, what, sizeof what);
        if (sv)
            bad |= ry_yget_bool(sv, what, &s->model.sharp) < 0;
        if (bad) {
            errors++;
            continue;
        }
        snprintf(s->model.name, sizeof s->model.name, "%s", name->value);
        snprintf(s->model.vendor, sizeof s->model.vendor, "%s", s->vendor ? s->vendor : "");
        s->pos = name->pos;
        c->nswitches++;
    }
    return errors ? -1 : 0;
}

/* A device name as Linux takes it and a script can write unquoted: 1 to 15
 * of A-Z a-z 0-9 _ . -, not starting with '-' (an option to ip(8) and
 * dcb(8)), not "." or ".." (a directory in /sys/class/net/NAME/ paths).
 * The kernel refuses '/', ':' and white space in an interface's name; the
 * rest of punctuation would reach hosts/<host>.sh, a root script. */
static int device_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 15 || s[0] == '-' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return 0;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
            return 0;
    return 1;
}

/* A node's NIC table: a list of {rdma, netdev, cage} in NIC port order (GPU
 * in the node, then plane), from a catalog entry or a spec's cluster.node.
 * Errors at the node; what is "nodes.dgx-h100.nics" or "cluster.node.nics". */
int ry_read_nics(const ry_ynode *n, const char *what, ry_node_model *out)
{
    static const char *const fields[] = { "rdma", "netdev", "cage" };
    if (n->kind != RY_YSEQ) {
        ry_error_at(n->pos, "%s must be a list of {rdma, netdev, cage} (got %s)", what,
                    ry_ynode_describe(n));
        return -1;
    }
    if (n->n > RY_NICS_MAX) {
        ry_error_at(n->pos, "%s has %zu entries, at most %d", what, n->n, RY_NICS_MAX);
        return -1;
    }
    int bad = 0;
    out->nnics = 0;
    for (size_t i = 0; i < n->n; i++) {
        const ry_ynode *e = n->items[i];
        ry_nic_name *nic = &out->nics[i];
        char w[200];
        memset(nic, 0, sizeof *nic);
        if (e->kind != RY_YMAP) {
            ry_error_at(e->pos, "%s entries are maps {rdma: mlx5_0, netdev: ibp24s0, cage: "
                        "OSFP4P2} (got %s)", what, ry_ynode_describe(e));
            bad = 1;
            continue;
        }
        snprintf(w, sizeof w, "%s entry", what);
        bad |= ry_schema_check_keys(e, "cluster.node.nics[]", w) > 0;
        for (int f = 0; f < 3; f++) {
            const ry_ynode *v;
            ry_keyval kv;
            int r = ry_schema_entry_field(e, "cluster.node.nics", fields[f], what, i,
                                          "the RDMA device, like mlx5_0", w, sizeof w, &kv, &v);
            if (r <= 0) {
                bad |= r < 0;
                continue;
            }
            char *dst = f == 0 ? nic->rdma : f == 1 ? nic->netdev : nic->cage;
            snprintf(dst, sizeof nic->rdma, "%s", kv.s);
            char shown[RY_SHOWN_MAX];
            if (f == 0) {
                for (size_t j = 0; j < i; j++)
                    if (strcmp(out->nics[j].rdma, kv.s) == 0) {
                        ry_error_at(v->pos, "%s: '%s' is also entry %zu's", w,
                                    ry_shown(shown, kv.s), j);
                        bad = 1;
                    }
            }
            /* an empty netdev is an unknown one (eth<i>) */
            if (f < 2 && (f == 0 || kv.s[0]) && !device_name_ok(kv.s)) {
                ry_error_at(v->pos, "%s must be a device name like %s: 1 to 15 letters, digits, "
                            "'_', '.' or '-', not starting with '-', not '.' or '..' (got '%s')",
                            w, f == 0 ? "mlx5_0" : "ibp24s0", ry_shown(shown, kv.s));
                bad = 1;
            }
        }
    }
    if (bad)
        return -1;
    out->nnics = (int)n->n;
    return 0;
}

/* A name the servers' or a switch tier's NetBox role has: "server", "switch"
 * (the one tier of a one-tier fabric), "leaf", "spine", "core", "top",
 * "tier<N>", in any case: NetBox's role slugs are the names in lower case. */
static int reserved_role(const char *k)
{
    static const char *const names[] = { "server", "switch", "leaf", "spine", "core", "top" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcasecmp(k, names[i]) == 0)
            return 1;
    if (strncasecmp(k, "tier", 4) != 0 || !k[4])
        return 0;
    for (k += 4; *k; k++)
        if (!isdigit((unsigned char)*k))
            return 0;
    return 1;
}

/* A rack's trays besides its nodes: a list of {kind, part, per_rack,
 * rack_units, power}, from a catalog entry or a spec's cluster.node (which
 * replaces the entry's list whole). Errors at the entry. */
int ry_read_trays(const ry_ynode *n, const char *what, ry_node_model *out)
{
    static const char *const fields[] = { "kind", "part", "per_rack", "rack_units", "power" };
    enum { NF = sizeof fields / sizeof *fields };
    if (n->kind != RY_YSEQ) {
        ry_error_at(n->pos, "%s must be a list of {kind, part, per_rack, rack_units, power} "
                    "(got %s)", what, ry_ynode_describe(n));
        return -1;
    }
    if (n->n > RY_TRAYS_MAX) {
        ry_error_at(n->pos, "%s has %zu entries, at most %d", what, n->n, RY_TRAYS_MAX);
        return -1;
    }
    int bad = 0;
    ry_rack_tray got[RY_TRAYS_MAX];
    for (size_t i = 0; i < n->n; i++) {
        const ry_ynode *e = n->items[i];
        ry_rack_tray *t = &got[i];
        char w[200];
        memset(t, 0, sizeof *t);
        if (e->kind != RY_YMAP) {
            ry_error_at(e->pos, "%s entries are maps {kind: nvlink-switch-tray, part: ..., "
                        "per_rack: 9, rack_units: 1, power: 400} (got %s)", what,
                        ry_ynode_describe(e));
            bad = 1;
            continue;
        }
        snprintf(w, sizeof w, "%s entry", what);
        bad |= ry_schema_check_keys(e, "cluster.node.rack_trays[]", w) > 0;
        for (int f = 0; f < NF; f++) {
            const ry_ynode *v;
            ry_keyval kv;
            int r = ry_schema_entry_field(e, "cluster.node.rack_trays", fields[f], what, i,
                                          NULL, w, sizeof w, &kv, &v);
            if (r <= 0) {
                bad |= r < 0;
                continue;
            }
            switch (f) {
            case 0:
                snprintf(t->kind, sizeof t->kind, "%s", kv.s);
                if (!*kv.s || reserved_role(kv.s)) {
                    ry_error_at(v->pos, "%s must be a name like nvlink-switch-tray, not "
                                "empty, server, switch or a switch tier's in any case (got '%s')",
                                w, kv.s);
                    bad = 1;
                }
                for (const char *p = kv.s; *p; p++)
                    if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_') {
                        ry_error_at(v->pos, "%s must be a name of letters, digits, '-' and "
                                    "'_' like nvlink-switch-tray (got '%s')", w, kv.s);
                        bad = 1;
                        break;
                    }
                for (size_t j = 0; j < i; j++)
                    if (strcasecmp(got[j].kind, kv.s) == 0) {
                        ry_error_at(v->pos, "%s: '%s' is also entry %zu's ('%s'; NetBox "
                                    "compares them in lower case)", w, kv.s, j, got[j].kind);
                        bad = 1;
                    }
                break;
            case 1: snprintf(t->part, sizeof t->part, "%s", kv.s); break;
            case 2: t->per_rack = (int)kv.i; break;
            case 3: t->units = (int)kv.i; break;
            default: t->power_w = kv.d; break;
            }
        }
    }
    if (bad)
        return -1;
    memcpy(out->trays, got, n->n * sizeof *got);
    out->ntrays = (int)n->n;
    return 0;
}

static int load_nodes(ry_catalog *c)
{
    static const char *const keys[] = { "description", "vendor", "gpus_per_node", "hb_domain",
                                        "nic_speed", "rack_units", "per_rack", "power", "cage_ports",
                                        "nics", "connector", "rack_trays", "planes",
                                        "nic_bandwidth", NULL };
    const ry_ynode *e = ry_catalog_entries(c->node_doc, "nodes");
    int errors = 0;
    if (!e)
        return -1;
    c->nodes = ry_xcalloc(e->n, sizeof *c->nodes);
    for (size_t i = 0; i < e->n; i++) {
        const ry_ynode *name = e->keys[i], *ent = e->items[i];
        /* read into a fresh entry: a rejected one leaves nothing behind */
        ry_catalog_node *nd = &c->nodes[c->nnodes];
        memset(nd, 0, sizeof *nd);
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
                                                "rack_units", "per_rack", "power", "cage_ports",
                                                "planes", "nic_bandwidth", NULL };
        bad |= entry_rows(ent, name, "nodes", "cluster.node", row_keys, 2, &nd->model) < 0;
        /* A NIC port's speed, or the NIC's bandwidth split over the entry's
         * planes: one of them. */
        const ry_ynode *ns = ry_ymap_get(ent, "nic_speed"), *nb = ry_ymap_get(ent, "nic_bandwidth");
        if (!ns && !nb) {
            ry_error_at(name->pos, "catalog entry '%s' has no nic_speed (a NIC port's speed) "
                        "or nic_bandwidth (a GPU's NIC bandwidth, split over its planes)",
                        name->value);
            bad = 1;
        } else if (ns && nb) {
            ry_error_at(nb->pos, "nodes.%.60s gives nic_speed and nic_bandwidth: give one, the "
                        "port's speed or the NIC's bandwidth that its planes split", name->value);
            bad = 1;
        } else if (nb && nd->model.nic_total_gbps > 0) {
            nd->model.nic_gbps = nd->model.nic_total_gbps /
                                 (nd->model.planes > 0 ? nd->model.planes : 1);
        }
        const ry_ynode *nics = ry_ymap_get(ent, "nics");
        if (nics) {
            snprintf(what, sizeof what, "nodes.%.60s.nics", name->value);
            bad |= ry_read_nics(nics, what, &nd->model) < 0;
        }
        const ry_ynode *trays = ry_ymap_get(ent, "rack_trays");
        if (trays) {
            snprintf(what, sizeof what, "nodes.%.60s.rack_trays", name->value);
            bad |= ry_read_trays(trays, what, &nd->model) < 0;
        }
        bad |= entry_cages(ent, name, "nodes", nd->model.connector, NULL, 0, 0) < 0;
        int gpn = nd->model.gpus_per_node, k = nd->model.hb_domain;   /* 0: not read */
        const ry_ynode *hb = ry_ymap_get(ent, "hb_domain");
        if (hb && gpn > 0 && k > 0 && k % gpn && gpn % k) {
            ry_error_at(hb->pos, "nodes.%.60s.hb_domain must divide, "
                        "or be a multiple of, gpus_per_node (%d) (got %d)", name->value, gpn, k);
            bad = 1;
        }
        if (bad) {
            errors++;
            continue;
        }
        snprintf(nd->model.name, sizeof nd->model.name, "%s", name->value);
        snprintf(nd->model.vendor, sizeof nd->model.vendor, "%s", nd->vendor ? nd->vendor : "");
        nd->pos = name->pos;
        c->nnodes++;
    }
    return errors ? -1 : 0;
}

ry_catalog *ry_catalog_load(const char *dir)
{
    ry_catalog *c = ry_xcalloc(1, sizeof *c);
    int rc = 0;
    c->refs = 1;
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

/* ---- catalogs shared by the process ------------------------------------------------------ *
 *
 * A spec's load reads the catalog, and a search loads its spec again for
 * each value of its axes and for each point (thousands): parsing the same
 * files every time was most of such a run. The shared loads keep the last
 * catalog of each kind, keyed by the directory chain and the bytes of each
 * of the kind's files in every directory of it, all read again at each call
 * (cheap beside parsing): a file changed, added or removed (the fuzz targets
 * rewrite theirs between runs) loads afresh. A failed load is not kept, so
 * its errors are printed at every call, as an unshared load prints them.
 * Holders share the object read-only; it counts its holders (refs, under
 * shared_lock) and _free drops one, freeing it with the last. */

static mtx_t shared_lock;
static once_flag shared_once = ONCE_FLAG_INIT;

static void shared_init(void)
{
    mtx_init(&shared_lock, mtx_plain);
}

/* Drops a holder of refs; 1 when it was the last (the object is to be freed). */
static int shared_drop(int *refs)
{
    call_once(&shared_once, shared_init);
    mtx_lock(&shared_lock);
    int last = --*refs <= 0;
    mtx_unlock(&shared_lock);
    return last;
}

/* The key: each directory of the chain (its path, whether it is one) and
 * each file's bytes there, or its absence; every field with its length. */
static void shared_key(ry_buf *key, const char *dir, const char *const files[2])
{
    const char *env = getenv("RAILYARD_TEMPLATES");
    ry_buf_printf(key, "%zu:%s", env ? strlen(env) : 0, env ? env : "");
    for (const char *d = dir; d; d = next_dir(d)) {
        struct stat st;
        int is_dir = stat(d, &st) == 0 && S_ISDIR(st.st_mode);
        ry_buf_printf(key, "%zu:%s%d", strlen(d), d, is_dir);
        for (int i = 0; i < 2 && is_dir; i++) {
            ry_buf path;
            ry_buf_init(&path);
            ry_buf_printf(&path, "%s/%s", d, files[i]);
            /* only a regular file's bytes, of a size the loader reads (a
             * FIFO would block here; the load reports it) */
            FILE *fp = NULL;
            int err = 0;
            if (stat(path.data, &st) != 0)
                err = errno;
            else if (S_ISREG(st.st_mode) && st.st_size <= (off_t)RY_YAML_MAX_BYTES &&
                     !(fp = fopen(path.data, "rb")))
                err = errno;
            ry_buf_free(&path);
            if (!fp) {
                ry_buf_printf(key, "-%d,%o;", err, err ? 0u : (unsigned)st.st_mode);
                continue;
            }
            char chunk[8192];
            size_t n, start = key->len;
            ry_buf_puts(key, "+");
            while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
                ry_buf_add(key, chunk, n);
            ry_buf_printf(key, "%d;%zu;", ferror(fp), key->len - start);
            fclose(fp);
        }
    }
}

typedef struct shared_slot {
    ry_buf key;
    void *cat;                  /* the kept catalog (one holder), or NULL */
    void *(*load)(const char *dir);
    int *(*refs)(void *cat);
    void (*release)(void *cat);
} shared_slot;

static void *shared_load(shared_slot *slot, const char *dir, const char *const files[2])
{
    call_once(&shared_once, shared_init);
    ry_buf key;
    ry_buf_init(&key);
    shared_key(&key, dir, files);
    mtx_lock(&shared_lock);
    void *cat = slot->cat;
    if (cat && slot->key.len == key.len && memcmp(slot->key.data, key.data, key.len) == 0)
        ++*slot->refs(cat);
    else
        cat = NULL;
    mtx_unlock(&shared_lock);
    if (cat) {
        ry_buf_free(&key);
        return cat;
    }
    if (!(cat = slot->load(dir))) {
        ry_buf_free(&key);
        return NULL;
    }
    mtx_lock(&shared_lock);
    void *old = slot->cat;
    ++*slot->refs(cat);         /* the slot's */
    slot->cat = cat;
    ry_buf_free(&slot->key);
    slot->key = key;
    mtx_unlock(&shared_lock);
    slot->release(old);
    return cat;
}

static void *cat_load(const char *dir) { return ry_catalog_load(dir); }
static int *cat_refs(void *c) { return &((ry_catalog *)c)->refs; }
static void cat_release(void *c) { ry_catalog_free(c); }
static shared_slot shared_cat = { .load = cat_load, .refs = cat_refs, .release = cat_release };

ry_catalog *ry_catalog_load_shared(const char *dir)
{
    static const char *const files[2] = { "switches.yaml", "nodes.yaml" };
    return shared_load(&shared_cat, dir, files);
}

const ry_catalog_switch *ry_catalog_ib_switch_at(const ry_catalog *c, double gbps)
{
    for (int i = 0; i < c->nswitches; i++)
        if (!c->switches[i].model.ethernet && c->switches[i].model.port_gbps == gbps)
            return &c->switches[i];
    return NULL;
}

void ry_catalog_free(ry_catalog *c)
{
    if (!c || !shared_drop(&c->refs))
        return;
    free(c->switches);
    free(c->nodes);
    ry_ydoc_free(c->switch_doc);
    ry_ydoc_free(c->node_doc);
    free(c->dir);
    free(c);
}

/* ---- media ------------------------------------------------------------------------------ */

static const char *const kind_names[] = { "dac", "lacc", "aoc", "mmf", "smf", NULL };

const char *ry_media_kind_name(int kind)
{
    return kind >= 0 && kind < 5 ? kind_names[kind] : "?";
}

static int read_end(const ry_ynode *n, const char *what, ry_media_end *e)
{
    static const char *const keys[] = { "part", "ports", "price", "power", "connector", NULL };
    int is_null;
    if (ry_yget_map(n, what, &is_null) < 0 || is_null)
        return -1;
    int bad = ry_ycheck_keys(n, what, keys) > 0;
    const ry_ynode *v = ry_ymap_get(n, "part");
    const char *part;
    char w[96];
    if (!v) {
        ry_error_at(n->pos, "%s needs a part", what);
        return -1;
    }
    snprintf(w, sizeof w, "%s.part", what);
    if (ry_yget_string(v, w, &part) < 0)
        return -1;
    snprintf(e->part, sizeof e->part, "%s", part);
    long long ports = 1;
    if ((v = ry_ymap_get(n, "ports"))) {
        snprintf(w, sizeof w, "%s.ports", what);
        bad |= ry_yget_int(v, w, 1, 8, &ports) < 0;
    }
    e->ports = (int)ports;
    if ((v = ry_ymap_get(n, "price"))) {
        snprintf(w, sizeof w, "%s.price", what);
        bad |= ry_yget_number(v, w, 0, 1e9, &e->price) < 0;
    }
    if ((v = ry_ymap_get(n, "power"))) {
        snprintf(w, sizeof w, "%s.power", what);
        bad |= ry_yget_number(v, w, 0, 1e4, &e->power) < 0;
    }
    if ((v = ry_ymap_get(n, "connector"))) {
        snprintf(w, sizeof w, "%s.connector", what);
        bad |= read_connector(v, w, e->connector) < 0;
    }
    return bad ? -1 : 0;
}

/* switch_end or node_end: one module (a map) or a list of them, e.g. a
 * single-port and a twin-port module of the same optics. */
static int read_ends(const ry_ynode *n, const char *what, ry_media_end *ends, int *nends)
{
    if (n->kind != RY_YSEQ) {
        *nends = 1;
        return read_end(n, what, &ends[0]);
    }
    if (n->n == 0 || n->n > RY_MEDIA_MAX_ENDS) {
        ry_error_at(n->pos, "%s must be a module {part, ports, price, power} or a list of 1 to "
                    "%d of them", what, RY_MEDIA_MAX_ENDS);
        return -1;
    }
    int bad = 0;
    for (size_t i = 0; i < n->n; i++) {
        char w[112];
        snprintf(w, sizeof w, "%s.%zu", what, i);
        bad |= read_end(n->items[i], w, &ends[i]) < 0;
    }
    *nends = (int)n->n;
    return bad ? -1 : 0;
}

static int read_medium(const ry_ynode *name, const ry_ynode *ent, ry_medium *m)
{
    static const char *const keys[] = { "description", "kind", "speeds", "lengths", "cable",
                                        "switch_end", "node_end", "power", "connector", "legs",
                                        "price_range", NULL };
    char what[96];
    int bad = 0, is_null;
    snprintf(what, sizeof what, "media.%.40s", name->value);
    if (ry_yget_map(ent, what, &is_null) < 0 || is_null)
        return -1;
    bad |= ry_ycheck_keys(ent, what, keys) > 0;
    snprintf(m->name, sizeof m->name, "%.31s", name->value);
    const ry_ynode *v;
    const char *str;
    char w[128];
    if ((v = ry_ymap_get(ent, "description")) && ry_yget_string(v, what, &str) == 0)
        snprintf(m->description, sizeof m->description, "%s", str);
    snprintf(w, sizeof w, "%s.kind", what);
    if (!(v = ry_ymap_get(ent, "kind")) || ry_yget_enum(v, w, kind_names, &m->kind) < 0) {
        if (!v)
            ry_error_at(ent->pos, "%s needs a kind (dac, lacc, aoc, mmf, smf)", what);
        bad = 1;
    }
    v = ry_ymap_get(ent, "speeds");
    if (!v || v->kind != RY_YSEQ || v->n == 0 || v->n > 8) {
        ry_error_at(v ? v->pos : ent->pos, "%s.speeds must be a list of 1 to 8 speeds", what);
        bad = 1;
    } else {
        for (size_t i = 0; i < v->n; i++) {
            char text[32];
            snprintf(w, sizeof w, "%s.speeds", what);
            if (ry_yget_speed(v->items[i], w, &m->speeds[m->nspeeds], text, sizeof text) < 0)
                bad = 1;
            else
                m->nspeeds++;
        }
    }
    v = ry_ymap_get(ent, "lengths");
    if (!v || v->kind != RY_YSEQ || v->n == 0 || v->n > 32) {
        ry_error_at(v ? v->pos : ent->pos, "%s.lengths must be a list of 1 to 32 stock lengths "
                    "in metres, ascending", what);
        bad = 1;
    } else {
        for (size_t i = 0; i < v->n; i++) {
            double x;
            snprintf(w, sizeof w, "%s.lengths", what);
            if (ry_yget_number(v->items[i], w, 0.1, 100000, &x) < 0) {
                bad = 1;
                continue;
            }
            if (m->nlengths > 0 && x <= m->lengths[m->nlengths - 1]) {
                ry_error_at(v->items[i]->pos, "%s must ascend (%g after %g)", w, x,
                            m->lengths[m->nlengths - 1]);
                bad = 1;
            }
            m->lengths[m->nlengths++] = x;
        }
    }
    v = ry_ymap_get(ent, "cable");
    if (!v) {
        ry_error_at(ent->pos, "%s needs a cable {part, price, price_per_m}", what);
        bad = 1;
    } else {
        static const char *const ckeys[] = { "part", "price", "price_per_m", NULL };
        snprintf(w, sizeof w, "%s.cable", what);
        if (ry_yget_map(v, w, &is_null) < 0 || is_null) {
            bad = 1;
        } else {
            bad |= ry_ycheck_keys(v, w, ckeys) > 0;
            const ry_ynode *x = ry_ymap_get(v, "part");
            if (x && ry_yget_string(x, w, &str) == 0)
                snprintf(m->cable_part, sizeof m->cable_part, "%s", str);
            if ((x = ry_ymap_get(v, "price")))
                bad |= ry_yget_number(x, w, 0, 1e9, &m->cable_price) < 0;
            if ((x = ry_ymap_get(v, "price_per_m")))
                bad |= ry_yget_number(x, w, 0, 1e9, &m->cable_price_per_m) < 0;
        }
    }
    if ((v = ry_ymap_get(ent, "switch_end"))) {
        snprintf(w, sizeof w, "%s.switch_end", what);
        bad |= read_ends(v, w, m->ends[RY_END_SWITCH], &m->nends[RY_END_SWITCH]) < 0;
    }
    if ((v = ry_ymap_get(ent, "node_end"))) {
        snprintf(w, sizeof w, "%s.node_end", what);
        bad |= read_ends(v, w, m->ends[RY_END_NODE], &m->nends[RY_END_NODE]) < 0;
    }
    if ((v = ry_ymap_get(ent, "power"))) {
        snprintf(w, sizeof w, "%s.power", what);
        bad |= ry_yget_number(v, w, 0, 1e4, &m->power) < 0;
    }
    if ((v = ry_ymap_get(ent, "connector"))) {
        snprintf(w, sizeof w, "%s.connector", what);
        bad |= read_connector(v, w, m->connector) < 0;
    }
    if ((v = ry_ymap_get(ent, "price_range"))) {
        snprintf(w, sizeof w, "%s.price_range", what);
        bad |= ry_yget_number(v, w, 0, 100, &m->price_range) < 0;
    }
    long long legs = 1;
    if ((v = ry_ymap_get(ent, "legs"))) {
        snprintf(w, sizeof w, "%s.legs", what);
        bad |= ry_yget_int(v, w, 1, 8, &legs) < 0;
    }
    m->legs = (int)legs;
    return bad ? -1 : 0;
}

ry_media_catalog *ry_media_catalog_load(const char *dir)
{
    ry_ydoc *d = load_file(dir, "media.yaml", "media catalog (see --templates, RAILYARD_TEMPLATES)");
    if (!d)
        return NULL;
    const ry_ynode *e = ry_catalog_entries(d, "media");
    if (e && (e->n == 0 || e->n > 65535)) {
        ry_error_at(e->pos, "the media catalog needs a map 'media:' of cables and optics");
        e = NULL;
    }
    if (!e) {
        ry_ydoc_free(d);
        return NULL;
    }
    ry_media_catalog *c = ry_xcalloc(1, sizeof *c);
    c->media = ry_xcalloc(e->n, sizeof *c->media);
    c->nmedia = (int)e->n;
    int bad = 0;
    for (int i = 0; i < c->nmedia; i++)
        bad |= read_medium(e->keys[i], e->items[i], &c->media[i]) < 0;
    ry_ydoc_free(d);
    if (bad) {
        ry_media_catalog_free(c);
        return NULL;
    }
    return c;
}

void ry_media_catalog_free(ry_media_catalog *c)
{
    if (!c)
        return;
    free(c->media);
    free(c);
}

int ry_media_find(const ry_media_catalog *c, const char *name)
{
    for (int i = 0; c && i < c->nmedia; i++)
        if (strcasecmp(c->media[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- LLMs and GPUs ------------------------------------------------------------------- */

static const char *const gpu_keys[] = { "description", "bf16_tflops", "fp8_tflops", "nvlink",
                                        "memory", "hbm", "gemm_efficiency",
                                        "gemm_efficiency_fp8", "attention_efficiency",
                                        "attention_half_length", "nic",
                                        "mx_formats", "nodes", NULL };

/* ---- LLM entries (catalog or inline) ------------------------------------------------ */

int ry_llm_moe_blocks(const ry_llm *l)
{
    if (l->moe.experts <= 0 || l->moe.every <= 0 || l->layers <= l->moe.dense_layers)
        return 0;
    return (l->layers - l->moe.dense_layers) / l->moe.every;
}

/* The moe: map of a model: its keys through their rows. */
static int read_moe(const ry_ynode *n, const char *what, ry_llm *l)
{
    static const char *const keys[] = {
        "workload.model.moe.experts", "workload.model.moe.top_k",
        "workload.model.moe.shared_experts", "workload.model.moe.expert_hidden",
        "workload.model.moe.active_parameters", "workload.model.moe.dense_layers",
        "workload.model.moe.every", NULL
    };
    char sub[200];
    snprintf(sub, sizeof sub, "%s.moe", what ? what : "workload.model");
    int is_null;
    if (ry_yget_map(n, sub, &is_null) < 0)
        return 1;
    if (is_null) {
        ry_error_at(n->pos, "%s must be a map {experts, top_k, expert_hidden, active_parameters, "
                    "...} (or be left out for a dense model)", sub);
        return 1;
    }
    int bad = ry_schema_check_keys(n, "workload.model.moe", sub) > 0;
    for (int i = 0; keys[i]; i++)
        bad += ry_schema_take(n, keys[i], sub, l) < 0;
    return bad;
}

/* Where a moe: key's rule prints: the key, else the moe: map, else the model. */
static ry_pos moe_pos(const ry_ynode *m, const char *key)
{
    const ry_ynode *moe = ry_ymap_get(m, "moe");
    const ry_ynode *k = moe && moe->kind == RY_YMAP ? ry_ymap_get(moe, key) : NULL;
    return k ? k->pos : moe ? moe->pos : m->pos;
}

/* The rules between a MoE model's keys. Expert weights are counted as
 * SwiGLU MLPs (three d_model x expert_hidden matrices, as every catalog
 * entry's): those of all experts must fit in the parameters, those a token
 * goes through in the active parameters. */
static int check_moe(const ry_ynode *m, const char *what, const ry_llm *l)
{
    const struct ry_llm_moe *e = &l->moe;
    const char *w = what ? what : "workload.model";
    if (!e->top_k || !e->expert_hidden || !(e->active_parameters > 0)) {
        const char *missing = !e->top_k ? "top_k" : !e->expert_hidden ? "expert_hidden"
                                                                      : "active_parameters";
        ry_error_at(moe_pos(m, "experts"), "%s.moe has no %s (a mixture of experts needs experts, "
                    "top_k, expert_hidden and active_parameters)", w, missing);
        return 1;
    }
    if (e->top_k > e->experts) {
        ry_error_at(moe_pos(m, "top_k"), "%s.moe.top_k (%d) must be at most the %d routed experts",
                    w, e->top_k, e->experts);
        return 1;
    }
    if (l->parameters > 0 && e->active_parameters > l->parameters) {
        ry_error_at(moe_pos(m, "active_parameters"), "%s.moe.active_parameters (%.4g) must be at "
                    "most the model's parameters (%.4g)", w, e->active_parameters, l->parameters);
        return 1;
    }
    if (l->layers > 0 && e->dense_layers >= l->layers) {
        ry_error_at(moe_pos(m, "dense_layers"), "%s.moe.dense_layers (%d) must be fewer than the "
                    "model's %d layers: a mixture of experts has at least one MoE block", w,
                    e->dense_layers, l->layers);
        return 1;
    }
    int blocks = ry_llm_moe_blocks(l);
    if (l->layers > 0 && blocks < 1) {
        ry_error_at(moe_pos(m, "every"), "%s.moe.every (%d) leaves no MoE block among the %d "
                    "layers after the %d dense ones", w, e->every, l->layers - e->dense_layers,
                    e->dense_layers);
        return 1;
    }
    double per = 3.0 * l->d_model * (double)e->expert_hidden * blocks;
    if (l->parameters > 0 && l->d_model > 0 &&
        per * (e->experts + e->shared_experts) > l->parameters) {
        ry_error_at(moe_pos(m, "expert_hidden"), "%s.moe: %d MoE blocks of %d experts with hidden "
                    "size %d hold %.4g parameters (3 x d_model x expert_hidden each), more than "
                    "the model's %.4g", w, blocks, e->experts + e->shared_experts,
                    e->expert_hidden, per * (e->experts + e->shared_experts), l->parameters);
        return 1;
    }
    if (l->d_model > 0 && per * (e->top_k + e->shared_experts) > e->active_parameters) {
        ry_error_at(moe_pos(m, "active_parameters"), "%s.moe.active_parameters (%.4g) is less "
                    "than the %.4g parameters of the %d experts a token goes through in %d MoE "
                    "blocks", w, e->active_parameters, per * (e->top_k + e->shared_experts),
                    e->top_k + e->shared_experts, blocks);
        return 1;
    }
    return 0;
}

/* The position of key in m, else of the first of the others present, else
 * of m. */
static ry_pos key_pos(const ry_ynode *m, const char *key, const char *const *others)
{
    const ry_ynode *k = ry_ymap_get(m, key);
    for (int i = 0; !k && others && others[i]; i++)
        k = ry_ymap_get(m, others[i]);
    return k ? k->pos : m->pos;
}

/* The rules between the attention's and the block's keys: latent
 * attention's ranks only with kv_lora_rank, its rotary part inside the
 * head; a window on some of the blocks; the projections' parameters within
 * the model's. */
static int check_attention(const ry_ynode *m, const char *w, const ry_llm *l)
{
    static const char *const shape[] = { "head_dim", "v_head_dim", "kv_lora_rank", "q_lora_rank",
                                         "heads", "kv_heads", NULL };
    if (!l->kv_lora_rank && (l->q_lora_rank || l->qk_rope_head_dim)) {
        const char *k = l->q_lora_rank ? "q_lora_rank" : "qk_rope_head_dim";
        ry_error_at(key_pos(m, k, NULL), "%s.%s needs kv_lora_rank: it belongs to latent "
                    "attention, which kv_lora_rank sets (give it, or remove %s)", w, k, k);
        return 1;
    }
    double h = l->d_model, heads = l->heads ? l->heads : (h / 128 >= 1 ? (int)(h / 128) : 1);
    double dk = l->head_dim ? l->head_dim : h / heads;
    if (l->kv_lora_rank && l->qk_rope_head_dim >= dk) {
        ry_error_at(key_pos(m, "qk_rope_head_dim", NULL), "%s.qk_rope_head_dim (%d) must be "
                    "less than the head's %g (head_dim: its rotary part and the rest)", w,
                    l->qk_rope_head_dim, dk);
        return 1;
    }
    if (l->window_layers && !l->window) {
        ry_error_at(key_pos(m, "window_layers", NULL), "%s.window_layers needs a window "
                    "(window: the keys a query sees)", w);
        return 1;
    }
    if (l->layers > 0 && l->window_layers > l->layers) {
        ry_error_at(key_pos(m, "window_layers", NULL), "%s.window_layers (%d) must be at most "
                    "the model's %d layers", w, l->window_layers, l->layers);
        return 1;
    }
    if (l->layers > 0 && l->mtp_layers > l->layers) {
        ry_error_at(key_pos(m, "mtp_layers", NULL), "%s.mtp_layers (%d) must be at most the "
                    "model's %d layers", w, l->mtp_layers, l->layers);
        return 1;
    }
    /* The projections' weights, as model/plan.c counts their FLOPs. */
    double kv = l->kv_heads ? l->kv_heads : heads, dv = l->v_head_dim ? l->v_head_dim : dk;
    double qd = heads * dk, per = h * (qd + kv * dk + kv * dv) + heads * dv * h;
    if (l->kv_lora_rank) {
        double r = l->qk_rope_head_dim, ql = l->q_lora_rank, kl = l->kv_lora_rank;
        per = (ql > 0 ? h * ql + ql * qd : h * qd) + h * (kl + r) + kl * heads * (dk - r + dv) +
              heads * dv * h;
    }
    if (l->parameters > 0 && l->layers > 0 && h > 0 && per * l->layers > l->parameters) {
        ry_error_at(key_pos(m, "head_dim", shape), "%s: %d blocks' attention projections hold "
                    "%.4g parameters (heads %g of %g, key/value heads %g of %g), more than the "
                    "model's %.4g", w, l->layers, per * l->layers, heads, dk, kv, dv,
                    l->parameters);
        return 1;
    }
    return 0;
}

int ry_llm_read_keys(const ry_ynode *m, const char *what, ry_llm *l)
{
    /* The rows of workload.model's keys, in the order their errors print. */
    static const char *const keys[] = {
        "workload.model.layers", "workload.model.d_model", "workload.model.heads",
        "workload.model.seq_len", "workload.model.vocab", "workload.model.mcc",
        "workload.model.parameters", "workload.model.batch", "workload.model.precision",
        "workload.model.description", "workload.model.kv_heads", "workload.model.ffn_hidden",
        "workload.model.mlp", "workload.model.dropout", "workload.model.head_dim",
        "workload.model.v_head_dim", "workload.model.q_lora_rank",
        "workload.model.kv_lora_rank", "workload.model.qk_rope_head_dim",
        "workload.model.window", "workload.model.window_layers", "workload.model.mtp_layers",
        NULL
    };
    int bad = 0;
    for (int i = 0; keys[i]; i++)
        bad += ry_schema_take(m, keys[i], what, l) < 0;
    const ry_ynode *moe = ry_ymap_get(m, "moe");
    if (moe)
        bad += read_moe(moe, what, l);
    if (!bad && l->moe.experts > 0)
        bad += check_moe(m, what, l);
    if (!bad)
        bad += check_attention(m, what, l);
    return bad;
}

int ry_llm_complete(const ry_llm *l, ry_pos pos, const char *what)
{
    const char *missing = !(l->parameters > 0) ? "parameters"
                          : !l->layers         ? "layers"
                          : !l->d_model        ? "d_model"
                          : !l->seq_len        ? "seq_len"
                          : !l->vocab          ? "vocab"
                          : !l->mcc            ? "mcc"
                                               : NULL;
    if (!missing)
        return 0;
    ry_error_at(pos, "%s has no %s (a model needs parameters, layers, d_model, seq_len, vocab "
                "and mcc)", what, missing);
    return 1;
}

static int load_llms(ry_llm_catalog *c)
{
    const ry_ynode *e = ry_catalog_entries(c->llm_doc, "llms");
    int errors = 0;
    if (!e)
        return -1;
    c->llms = ry_xcalloc(e->n ? e->n : 1, sizeof *c->llms);
    for (size_t i = 0; i < e->n; i++) {
        const ry_ynode *name = e->keys[i], *ent = e->items[i];
        char what[160];
        if (entry_start(name, ent, "model") < 0) {
            errors++;
            continue;
        }
        snprintf(what, sizeof what, "llms.%.60s", name->value);
        ry_llm l;
        memset(&l, 0, sizeof l);
        ry_schema_defaults_in(RY_IN_LLM, &l);
        int bad = ry_schema_check_keys(ent, "workload.model", what) > 0;
        bad |= ry_llm_read_keys(ent, what, &l) > 0;
        if (!bad)
            bad |= ry_llm_complete(&l, name->pos, what);
        if (!bad && !ry_ymap_get(ent, "batch")) {
            ry_error_at(name->pos, "%s has no batch (the published global batch, sequences)",
                        what);
            bad = 1;
        }
        if (bad) {
            errors++;
            continue;
        }
        snprintf(l.name, sizeof l.name, "%s", name->value);
        c->llms[c->nllms++] = l;
    }
    return errors ? -1 : 0;
}

static int load_gpus(ry_llm_catalog *c)
{
    const ry_ynode *e = ry_catalog_entries(c->gpu_doc, "gpus");
    int errors = 0;
    if (!e)
        return -1;
    c->gpus = ry_xcalloc(e->n ? e->n : 1, sizeof *c->gpus);
    c->gpu_nodes = ry_xcalloc(e->n ? e->n : 1, sizeof *c->gpu_nodes);
    for (size_t i = 0; i < e->n; i++) {
        const ry_ynode *name = e->keys[i], *ent = e->items[i];
        char what[160], key[200];
        if (entry_start(name, ent, "GPU") < 0) {
            errors++;
            continue;
        }
        snprintf(what, sizeof what, "gpus.%.60s", name->value);
        ry_gpu g;
        memset(&g, 0, sizeof g);
        int bad = ry_ycheck_keys(ent, what, gpu_keys) > 0;
        const ry_ynode *v = ry_ymap_get(ent, "description");
        const char *str;
        snprintf(key, sizeof key, "%s.description", what);
        if (!v) {
            ry_error_at(name->pos, "catalog entry '%s' has no description", name->value);
            bad = 1;
        } else if (ry_yget_string(v, key, &str) < 0)
            bad = 1;
        double tf = 0;
        v = ry_ymap_get(ent, "bf16_tflops");
        snprintf(key, sizeof key, "%s.bf16_tflops", what);
        if (!v) {
            ry_error_at(name->pos, "catalog entry '%s' has no bf16_tflops", name->value);
            bad = 1;
        } else if (ry_yget_number(v, key, 0.001, 1e9, &tf) < 0)
            bad = 1;
        g.bf16_flops = tf * 1e12;
        v = ry_ymap_get(ent, "fp8_tflops");
        snprintf(key, sizeof key, "%s.fp8_tflops", what);
        tf = 0;
        if (v && ry_yget_number(v, key, 0.001, 1e9, &tf) < 0)
            bad = 1;
        g.fp8_flops = tf * 1e12;
        char text[16];
        v = ry_ymap_get(ent, "nvlink");
        snprintf(key, sizeof key, "%s.nvlink", what);
        if (!v) {
            ry_error_at(name->pos, "catalog entry '%s' has no nvlink", name->value);
            bad = 1;
        } else if (ry_yget_speed(v, key, &g.nvlink_gbps, text, sizeof text) < 0)
            bad = 1;
        v = ry_ymap_get(ent, "memory");
        snprintf(key, sizeof key, "%s.memory", what);
        tf = 0;
        if (v && ry_yget_number(v, key, 0.001, 1e6, &tf) < 0)
            bad = 1;
        g.memory_bytes = tf * 1e9;
        /* The full model's kernel rates (doc/llm-model.md, "Compute"). */
        static const struct { const char *key; double lo, hi, scale; size_t off; } rates[] = {
            { "hbm", 0.001, 1e4, 1e12, offsetof(ry_gpu, hbm_bytes_s) },
            { "gemm_efficiency", 0.01, 1, 1, offsetof(ry_gpu, gemm_eff) },
            { "gemm_efficiency_fp8", 0.01, 1, 1, offsetof(ry_gpu, gemm_eff_fp8) },
            { "attention_efficiency", 0.01, 1, 1, offsetof(ry_gpu, attn_eff) },
            { "attention_half_length", 1, 1e9, 1, offsetof(ry_gpu, attn_half) },
        };
        for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
            v = ry_ymap_get(ent, rates[r].key);
            snprintf(key, sizeof key, "%s.%s", what, rates[r].key);
            tf = 0;
            if (v && ry_yget_number(v, key, rates[r].lo, rates[r].hi, &tf) < 0)
                bad = 1;
            *(double *)((char *)&g + rates[r].off) = tf * rates[r].scale;
        }
        v = ry_ymap_get(ent, "mx_formats");
        snprintf(key, sizeof key, "%s.mx_formats", what);
        if (v && ry_yget_bool(v, key, &g.mx_formats) < 0)
            bad = 1;
        v = ry_ymap_get(ent, "nic");
        snprintf(key, sizeof key, "%s.nic", what);
        if (v && ry_yget_speed(v, key, &g.nic_gbps, text, sizeof text) < 0)
            bad = 1;
        ry_buf nodes;
        ry_buf_init(&nodes);
        ry_buf_puts(&nodes, "");
        v = ry_ymap_get(ent, "nodes");
        snprintf(key, sizeof key, "%s.nodes", what);
        if (v && v->kind != RY_YSEQ) {
            ry_error_at(v->pos, "%s must be a list of node names (got %s)", key,
                        ry_ynode_describe(v));
            bad = 1;
        }
        for (size_t k = 0; v && v->kind == RY_YSEQ && k < v->n; k++)
            if (ry_yget_string(v->items[k], key, &str) < 0)
                bad = 1;
            else
                ry_buf_printf(&nodes, "%s\n", str);
        if (bad) {
            ry_buf_free(&nodes);
            errors++;
            continue;
        }
        snprintf(g.name, sizeof g.name, "%s", name->value);
        c->gpu_nodes[c->ngpus] = ry_xstrdup(nodes.data ? nodes.data : "");
        ry_buf_free(&nodes);
        c->gpus[c->ngpus++] = g;
    }
    return errors ? -1 : 0;
}

ry_llm_catalog *ry_llm_catalog_load(const char *dir)
{
    ry_llm_catalog *c = ry_xcalloc(1, sizeof *c);
    int rc = 0;
    c->refs = 1;
    c->llm_doc = load_file(dir, "llms.yaml", "catalog (see --templates, RAILYARD_TEMPLATES)");
    c->gpu_doc = load_file(dir, "gpus.yaml", "catalog (see --templates, RAILYARD_TEMPLATES)");
    if (!c->llm_doc || load_llms(c) < 0)
        rc = -1;
    if (!c->gpu_doc || load_gpus(c) < 0)
        rc = -1;
    if (rc < 0) {
        ry_llm_catalog_free(c);
        return NULL;
    }
    return c;
}

void ry_llm_catalog_free(ry_llm_catalog *c)
{
    if (!c || !shared_drop(&c->refs))
        return;
    for (int i = 0; c->gpu_nodes && i < c->ngpus; i++)
        free(c->gpu_nodes[i]);
    free(c->gpu_nodes);
    free(c->llms);
    free(c->gpus);
    ry_ydoc_free(c->llm_doc);
    ry_ydoc_free(c->gpu_doc);
    free(c);
}

static void *llm_load(const char *dir) { return ry_llm_catalog_load(dir); }
static int *llm_refs(void *c) { return &((ry_llm_catalog *)c)->refs; }
static void llm_release(void *c) { ry_llm_catalog_free(c); }
static shared_slot shared_llm = { .load = llm_load, .refs = llm_refs, .release = llm_release };

ry_llm_catalog *ry_llm_catalog_load_shared(const char *dir)
{
    static const char *const files[2] = { "llms.yaml", "gpus.yaml" };
    return shared_load(&shared_llm, dir, files);
}

const ry_llm *ry_llm_find(const ry_llm_catalog *c, const char *name)
{
    for (int i = 0; c && i < c->nllms; i++)
        if (strcasecmp(c->llms[i].name, name) == 0)
            return &c->llms[i];
    return NULL;
}

const ry_gpu *ry_gpu_find(const ry_llm_catalog *c, const char *name)
{
    for (int i = 0; c && i < c->ngpus; i++)
        if (strcasecmp(c->gpus[i].name, name) == 0)
            return &c->gpus[i];
    return NULL;
}

const ry_gpu *ry_gpu_for_node(const ry_llm_catalog *c, const char *node)
{
    for (int i = 0; c && i < c->ngpus; i++) {
        const char *p = c->gpu_nodes[i];
        size_t n = strlen(node);
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            if (len == n && strncasecmp(p, node, n) == 0)
                return &c->gpus[i];
            p += len + (nl ? 1 : 0);
        }
    }
    return NULL;
}

/* ---- LIBRA prices ----------------------------------------------------------------------- */

static int tech_price(const ry_ynode *map, const char *key, const char *what, double *out)
{
    const ry_ynode *n = ry_ymap_get(map, key);
    if (!n)
        return 0;
    char w[160];
    snprintf(w, sizeof w, "%s.%s", what, key);
    return ry_yget_number(n, w, 0, 1e12, out) < 0 ? -1 : 0;
}

ry_libra_costs *ry_libra_costs_load(const char *dir)
{
    static const char *const keys[] = { "description", "link", "switch", "nic", NULL };
    ry_ydoc *d = load_file(dir, "libra-costs.yaml",
                           "price catalog (see --templates, RAILYARD_TEMPLATES)");
    if (!d)
        return NULL;
    const ry_ynode *e = ry_catalog_entries(d, "technologies");
    if (!e) {
        ry_ydoc_free(d);
        return NULL;
    }
    ry_libra_costs *c = ry_xcalloc(1, sizeof *c);
    c->doc = d;
    c->file = d->file;
    c->techs = ry_xcalloc(e->n ? e->n : 1, sizeof *c->techs);
    int bad = 0;
    for (size_t i = 0; i < e->n; i++) {
        const ry_ynode *name = e->keys[i], *ent = e->items[i];
        char what[96];
        if (entry_start(name, ent, "technology") < 0) {
            bad = 1;
            continue;
        }
        snprintf(what, sizeof what, "technologies.%.60s", name->value);
        ry_libra_tech *t = &c->techs[c->ntechs];
        memset(t, 0, sizeof *t);
        int b = ry_ycheck_keys(ent, what, keys) > 0;
        b |= tech_price(ent, "link", what, &t->link) < 0;
        b |= tech_price(ent, "switch", what, &t->sw) < 0;
        b |= tech_price(ent, "nic", what, &t->nic) < 0;
        if (b) {
            bad = 1;
            continue;
        }
        t->name = name->value;
        c->ntechs++;
    }
    if (bad) {
        ry_libra_costs_free(c);
        return NULL;
    }
    return c;
}

void ry_libra_costs_free(ry_libra_costs *c)
{
    if (!c)
        return;
    free(c->techs);
    ry_ydoc_free(c->doc);
    free(c);
}

const ry_libra_tech *ry_libra_tech_find(const ry_libra_costs *c, const char *name)
{
    for (int i = 0; c && i < c->ntechs; i++)
        if (strcasecmp(c->techs[i].name, name) == 0)
            return &c->techs[i];
    return NULL;
}

/* ---- lookups --------------------------------------------------------------------------- */

const ry_catalog_switch *ry_catalog_find_switch(const ry_catalog *c, const char *name)
{
    for (int i = 0; c && i < c->nswitches; i++)
        if (strcasecmp(c->switches[i].model.name, name) == 0)
            return &c->switches[i];
    return NULL;
}

void ry_switch_cage_shape(const ry_switch_model *sw, int *ports, int *split)
{
    int cp = sw->cage_ports > 0 ? sw->cage_ports : 1, k = 1;
    if (sw->cages > 0 && sw->radix % (sw->cages * cp) == 0)
        k = sw->radix / (sw->cages * cp);
    *ports = cp;
    *split = k > 1 ? k : 1;
}

int ry_switch_same_shape(const ry_switch_model *a, const ry_switch_model *b)
{
    return a->radix == b->radix && a->port_gbps == b->port_gbps && a->ethernet == b->ethernet &&
           a->units == b->units && a->cage_ports == b->cage_ports && a->cages == b->cages &&
           a->power_w == b->power_w && strcmp(a->connector, b->connector) == 0;
}

const ry_catalog_node *ry_catalog_find_node(const ry_catalog *c, const char *name)
{
    for (int i = 0; c && i < c->nnodes; i++)
        if (strcasecmp(c->nodes[i].model.name, name) == 0)
            return &c->nodes[i];
    return NULL;
}

void ry_catalog_unknown_text(char *buf, size_t cap, const char *what, const char *kind,
                             const char *got, const char **names, int count, const char *hint)
{
    const char *s = ry_suggest(got, names, count);
    if (s) {
        snprintf(buf, cap, "%s: unknown %s '%s'; did you mean '%s'?", what, kind, got, s);
        return;
    }
    ry_buf b;
    ry_buf_init(&b);
    for (int i = 0; i < count; i++)
        ry_buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    snprintf(buf, cap, "%s: unknown %s '%s' (the catalog has: %s%s)", what, kind, got,
             count ? b.data : "nothing", hint);
    ry_buf_free(&b);
}

void ry_catalog_unknown(const ry_ynode *n, const char *what, const char *kind,
                        const char **names, int count, const char *hint)
{
    char msg[4096];
    ry_catalog_unknown_text(msg, sizeof msg, what, kind, n->value, names, count, hint);
    ry_error_at(n->pos, "%s", msg);
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
