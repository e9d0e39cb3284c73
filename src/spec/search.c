#include "spec/search.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/schema.h"
#include "spec/yaml.h"
#include "util/buf.h"
#include "io/input.h"

/* A scalar's text: numbers and words as written. */
static const char *scalar(const ry_ynode *n, const char *what)
{
    const char *v = NULL;
    if (n->kind != RY_YSCALAR || ry_ynode_is_null(n)) {
        ry_error_at(n->pos, "%s: expected a value (a number or a word) (got %s)", what,
                    ry_ynode_describe(n));
        return NULL;
    }
    return ry_yget_string(n, what, &v) == 0 ? v : NULL;
}

/* A dotted spec key search may set: not the search section itself, not
 * the cluster's name. */
static int settable(const char *key, ry_pos pos, const char *what)
{
    int bad = !*key || key[0] == '.' || key[strlen(key) - 1] == '.' || strstr(key, "..");
    for (const char *p = key; *p && !bad; p++)
        bad = !(isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-');
    if (bad) {
        ry_error_at(pos, "%s: '%s' is not a spec key: expected names joined by dots, like "
                    "fabric.tiers.1.taper or cluster.planes", what, key);
        return -1;
    }
    if (strcmp(key, "search") == 0 || strncmp(key, "search.", 7) == 0 ||
        strcmp(key, "name") == 0 || strcmp(key, "version") == 0) {
        ry_error_at(pos, "%s: '%s' cannot be varied: expected a key of cluster, fabric, "
                    "cost, layout, spares, cabling or workload", what, key);
        return -1;
    }
    return 0;
}

static int settable_key(const ry_ynode *k, const char *what)
{
    return settable(k->value, k->pos, what);
}

/* Whether a row of the schema starts with prefix followed by a dot or "[]". */
static int rows_under(const char *prefix)
{
    size_t len = strlen(prefix);
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const char *k = ry_spec_keys[i].key;
        if (strncmp(k, prefix, len) == 0 && (k[len] == '.' || strncmp(k + len, "[]", 2) == 0))
            return 1;
    }
    return 0;
}

/* Whether dotted key names a spec key as --set would set it: a row of the
 * schema (a list's entries by their index: fabric.tiers.1.taper is the
 * row fabric.tiers[].taper), a section of rows, a place inside a row whose
 * value is free-form (cabling.tiers.1), or an x- key. */
static int spec_key_known(const char *key)
{
    if (strncmp(key, "x-", 2) == 0)
        return 1;
    char path[256] = "";
    size_t len = 0;
    const char *p = key;
    while (*p) {
        size_t n = strcspn(p, ".");
        if (len) {
            const ry_key *row = ry_key_find(path);
            if (row && (row->type == RY_KEY_CUSTOM || row->type == RY_KEY_ANY) &&
                !rows_under(path))
                return 1;   /* the rest is the row's own */
        }
        int index = n > 0 && strspn(p, "0123456789") == n;
        int w = index && len ? snprintf(path + len, sizeof path - len, "[]")
                             : snprintf(path + len, sizeof path - len, "%s%.*s", len ? "." : "",
                                        (int)n, p);
        if (w < 0 || (size_t)w >= sizeof path - len)
            return 0;
        len += (size_t)w;
        p += n;
        if (*p == '.')
            p++;
    }
    return ry_key_find(path) != NULL || rows_under(path);
}

/* The row nearest key, as "did you mean" offers it; NULL when none is near. */
static const char *nearest_key(const char *key)
{
    const char *best = NULL;
    int best_d = 4;
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const char *k = ry_spec_keys[i].key;
        if (strncmp(k, "search", 6) == 0 || strchr(k, '*'))
            continue;
        int d = ry_edit_distance(key, k);
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best;
}

/* An error at pos when key is no spec key; -1 then. */
static int known_key(const char *key, ry_pos pos, const char *what)
{
    if (spec_key_known(key))
        return 0;
    const char *near = nearest_key(key);
    char shown[RY_SHOWN_MAX];
    if (near)
        ry_error_at(pos, "%s: unknown key '%s'; did you mean '%s'?", what,
                    ry_shown(shown, key), near);
    else
        ry_error_at(pos, "%s: unknown key '%s': expected a key of the spec, like "
                    "fabric.oversubscription or cluster.planes (railyard catalog schema)",
                    what, ry_shown(shown, key));
    return -1;
}

int ry_search_key_check(const char *key, ry_pos pos, const char *what)
{
    return settable(key, pos, what) < 0 || known_key(key, pos, what) < 0 ? -1 : 0;
}

static void read_vary(ry_search_space *sp, const ry_ynode *m)
{
    if (m->kind != RY_YMAP) {
        ry_error_at(m->pos, "search.vary must be a map of spec keys to their values, like "
                    "{cluster.planes: [1, 2]} (got %s)", ry_ynode_describe(m));
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        const ry_ynode *k = m->keys[i], *v = m->items[i];
        if (settable_key(k, "search.vary") < 0 || known_key(k->value, k->pos, "search.vary") < 0)
            continue;
        if (sp->naxes == RY_SEARCH_MAX_AXES) {
            ry_error_at(k->pos, "search.vary: at most %d keys", RY_SEARCH_MAX_AXES);
            return;
        }
        ry_vary *ax = &sp->axes[sp->naxes];
        memset(ax, 0, sizeof *ax);
        ax->key = ry_xstrdup(k->value);
        int bad = 0;
        size_t n = v->kind == RY_YSEQ ? v->n : 1, pcap = 0;
        for (size_t j = 0; j < n && !bad; j++) {
            const ry_ynode *it = v->kind == RY_YSEQ ? v->items[j] : v;
            char what[160];
            snprintf(what, sizeof what, "search.vary.%s", k->value);
            const char *text = scalar(it, what), *why = NULL;
            int before = ax->n;
            if (!text) {
                bad = 1;
            } else if (ry_vary_add(ax, text, &why) < 0) {
                char shown[RY_SHOWN_MAX];
                ry_error_at(it->pos, "%s: '%s': %s", what, ry_shown(shown, text), why);
                bad = 1;
            } else {
                /* each value where its item was written (a range's all there) */
                RY_ALLOC_GROW(sp->value_pos[sp->naxes], ax->n, pcap);
                for (int q = before; q < ax->n; q++)
                    sp->value_pos[sp->naxes][q] = it->pos;
            }
        }
        if (!bad && ax->n == 0) {
            ry_error_at(v->pos, "search.vary.%s: no values (expected a list like [1, 2])",
                        k->value);
            bad = 1;
        }
        int dup = bad ? -1 : ry_vary_dup(ax);
        if (dup >= 0) {
            ry_error_at(sp->value_pos[sp->naxes][dup], "search.vary.%s: the value '%s' is given "
                        "twice", k->value, ax->values[dup]);
            bad = 1;
        }
        for (int j = 0; j < sp->naxes && !bad; j++)
            if (strcmp(sp->axes[j].key, ax->key) == 0) {
                ry_error_at(k->pos, "search.vary: '%s' is given twice", ax->key);
                bad = 1;
            }
        if (bad) {
            ry_vary_free(ax);
            free(sp->value_pos[sp->naxes]);
            sp->value_pos[sp->naxes] = NULL;
            continue;
        }
        sp->axis_pos[sp->naxes++] = k->pos;
    }
}

static void sets_free(ry_search_set *sets, int n)
{
    for (int i = 0; i < n; i++) {
        free(sets[i].key);
        free(sets[i].value);
    }
}

/* The keys of map m (nested maps flattened to dotted keys) under prefix,
 * added to sets[*n]. On -1 the ones added before the error stay there: the
 * caller frees them (sets_free) with its entry. */
static int read_sets(const ry_ynode *m, const char *prefix, const char *skip, const char *what,
                     ry_search_set *sets, int *n)
{
    for (size_t i = 0; i < m->n; i++) {
        const ry_ynode *k = m->keys[i], *v = m->items[i];
        if (skip && strcmp(k->value, skip) == 0)
            continue;
        char key[256];
        snprintf(key, sizeof key, "%s%s", prefix, k->value);
        if (v->kind == RY_YMAP) {
            char sub[260];
            snprintf(sub, sizeof sub, "%s.", key);
            if (read_sets(v, sub, NULL, what, sets, n) < 0)
                return -1;
            continue;
        }
        if (known_key(key, k->pos, what) < 0)
            return -1;
        const char *text = scalar(v, what);
        if (!text)
            return -1;
        if (*n == RY_SEARCH_MAX_SETS) {
            ry_error_at(k->pos, "%s: at most %d keys", what, RY_SEARCH_MAX_SETS);
            return -1;
        }
        sets[*n].key = ry_xstrdup(key);
        sets[*n].value = ry_xstrdup(text);
        sets[*n].pos = v->pos;
        (*n)++;
    }
    return 0;
}

static void read_workloads(ry_search_space *sp, const ry_ynode *l)
{
    if (l->kind != RY_YSEQ || l->n == 0) {
        ry_error_at(l->pos, "search.workloads must be a list of workloads, like "
                    "[{model: llama-3-405b, weight: 3}, {model: llama-3-70b}] (got %s)",
                    ry_ynode_describe(l));
        return;
    }
    if (l->n > RY_SEARCH_MAX_WORKLOADS) {
        ry_error_at(l->pos, "search.workloads: at most %d workloads (got %zu)",
                    RY_SEARCH_MAX_WORKLOADS, l->n);
        return;
    }
    sp->workloads = ry_xcalloc(l->n, sizeof *sp->workloads);
    for (size_t i = 0; i < l->n; i++) {
        const ry_ynode *e = l->items[i];
        char what[64];
        snprintf(what, sizeof what, "search.workloads[%zu]", i);
        if (e->kind != RY_YMAP || e->n == 0) {
            ry_error_at(e->pos, "%s: expected a map of workload keys, like {model: "
                        "llama-3-70b, weight: 1} (got %s)", what, ry_ynode_describe(e));
            continue;
        }
        ry_search_workload *w = &sp->workloads[sp->nworkloads];
        w->weight = 1;
        const ry_ynode *wt = ry_ymap_get(e, "weight");
        if (wt && ry_yget_number(wt, "search.workloads weight", 1e-9, 1e9, &w->weight) < 0)
            continue;
        if (read_sets(e, "workload.", "weight", what, w->sets, &w->n) < 0) {
            sets_free(w->sets, w->n);
            w->n = 0;
            continue;
        }
        const ry_ynode *mo = ry_ymap_get(e, "model");
        if (mo && mo->kind == RY_YSCALAR)
            snprintf(w->label, sizeof w->label, "%s", mo->value);
        else
            snprintf(w->label, sizeof w->label, "workload %zu", i + 1);
        sp->nworkloads++;
    }
}

int ry_search_failure_check(const char *text, const char **why)
{
    if (strcmp(text, "plane") == 0)
        return 0;
    const char *colon = strchr(text, ':');
    if (!colon || colon == text) {
        *why = "expected plane, or KIND:N like spine:1, leaf:1, switch:2 or cable:4";
        return -1;
    }
    static const char *const kinds[] = { "leaf", "spine", "core", "top", "switch", "cable",
                                          "nic" };
    size_t kl = (size_t)(colon - text);
    int known = kl >= 2 && text[0] == 't' && strspn(text + 1, "0123456789") == kl - 1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !known; i++)
        known = strlen(kinds[i]) == kl && strncmp(text, kinds[i], kl) == 0;
    if (!known) {
        static _Thread_local char msg[160];
        char kind[64];
        snprintf(kind, sizeof kind, "%.*s", (int)(kl < 63 ? kl : 63), text);
        const char *near = ry_suggest(kind, kinds, (int)(sizeof kinds / sizeof kinds[0]));
        snprintf(msg, sizeof msg, "KIND is a tier name (leaf, spine, core, top, tN), switch, "
                 "cable or nic%s%s%s", near ? "; did you mean '" : "", near ? near : "",
                 near ? "'?" : "");
        *why = msg;
        return -1;
    }
    char *end;
    long n = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || n < 1 || n > 1000) {
        *why = "N is a whole number from 1 to 1000";
        return -1;
    }
    return 0;
}

static void read_failures(ry_search_space *sp, const ry_ynode *l)
{
    if (l->kind != RY_YSEQ) {
        ry_error_at(l->pos, "search.failures must be a list like [spine:1, leaf:1, plane] "
                    "(got %s)", ry_ynode_describe(l));
        return;
    }
    sp->nfailures = 0;
    for (size_t i = 0; i < l->n; i++) {
        const char *text = scalar(l->items[i], "search.failures"), *why = NULL;
        if (!text)
            continue;
        if (sp->nfailures == RY_SEARCH_MAX_FAILURES) {
            ry_error_at(l->items[i]->pos, "search.failures: at most %d scenarios",
                        RY_SEARCH_MAX_FAILURES);
            return;
        }
        if (strlen(text) >= sizeof sp->failures[0] || ry_search_failure_check(text, &why) < 0) {
            ry_error_at(l->items[i]->pos, "search.failures: '%s': %s", text,
                        why ? why : "too long");
            continue;
        }
        snprintf(sp->failures[sp->nfailures++], sizeof sp->failures[0], "%s", text);
    }
}

static void read_labels(ry_search_space *sp, const ry_ynode *l)
{
    if (l->kind != RY_YSEQ) {
        ry_error_at(l->pos, "search.published must be a list of {name, set} (got %s)",
                    ry_ynode_describe(l));
        return;
    }
    sp->labels = ry_xcalloc(l->n ? l->n : 1, sizeof *sp->labels);
    for (size_t i = 0; i < l->n; i++) {
        const ry_ynode *e = l->items[i];
        const ry_ynode *nm = e->kind == RY_YMAP ? ry_ymap_get(e, "name") : NULL;
        const ry_ynode *st = e->kind == RY_YMAP ? ry_ymap_get(e, "set") : NULL;
        if (!nm || !st || st->kind != RY_YMAP) {
            ry_error_at(e->pos, "a search.published entry is {name: TEXT, set: {KEY: VALUE, "
                        "...}}: the values that make a published design (got %s)",
                        ry_ynode_describe(e));
            continue;
        }
        ry_schema_check_keys(e, "search.published[]", "search.published entry");
        ry_search_label *lb = &sp->labels[sp->nlabels];
        const char *name = scalar(nm, "search.published name");
        if (!name)
            continue;
        if (strlen(name) >= sizeof lb->name) {
            ry_error_at(nm->pos, "search.published name: at most %zu characters",
                        sizeof lb->name - 1);
            continue;
        }
        snprintf(lb->name, sizeof lb->name, "%s", name);
        lb->pos = e->pos;
        int bad = 0;
        if (st->n == 0) {
            ry_error_at(st->pos, "search.published '%s': set is empty: expected the values that "
                        "make the design, like {fabric.design: rail-only}", name);
            continue;
        }
        for (int j = 0; j < sp->nlabels && !bad; j++)
            if (strcmp(sp->labels[j].name, name) == 0) {
                ry_error_at(nm->pos, "search.published: the name '%s' is given twice", name);
                bad = 1;
            }
        for (size_t j = 0; j < st->n && !bad; j++)
            bad = settable_key(st->keys[j], "search.published set") < 0;
        if (bad || read_sets(st, "", NULL, "search.published set", lb->sets, &lb->n) < 0) {
            sets_free(lb->sets, lb->n);     /* a refused entry's keys read so far */
            lb->n = 0;
            continue;
        }
        sp->nlabels++;
    }
}

void ry_search_spec_read(ry_spec *s, const ry_ynode *root)
{
    const ry_ynode *m = ry_ymap_get(root, "search");
    int is_null;
    if (!m || ry_yget_map(m, "search", &is_null) < 0 || is_null)
        return;
    ry_schema_check_keys(m, "search", NULL);
    ry_schema_read(m, "search", s, NULL, NULL);
    ry_search_space *sp = ry_xcalloc(1, sizeof *sp);
    sp->nfailures = -1;
    s->search_space = sp;
    const ry_ynode *n;
    if ((n = ry_ymap_get(m, "vary")))
        read_vary(sp, n);
    if ((n = ry_ymap_get(m, "workloads")))
        read_workloads(sp, n);
    if ((n = ry_ymap_get(m, "failures")))
        read_failures(sp, n);
    if ((n = ry_ymap_get(m, "published")))
        read_labels(sp, n);
}

void ry_search_space_free(ry_search_space *sp)
{
    if (!sp)
        return;
    for (int i = 0; i < sp->naxes; i++)
        ry_vary_free(&sp->axes[i]);
    for (int i = 0; i < RY_SEARCH_MAX_AXES; i++)
        free(sp->value_pos[i]);
    for (int i = 0; i < sp->nworkloads; i++)
        sets_free(sp->workloads[i].sets, sp->workloads[i].n);
    free(sp->workloads);
    for (int i = 0; i < sp->nlabels; i++)
        sets_free(sp->labels[i].sets, sp->labels[i].n);
    free(sp->labels);
    free(sp);
}

/* ---- the values on the spec, before a search runs -------------------------------------- */

char *ry_search_spec_text(const char *path)
{
    const char *why = NULL;
    FILE *fp = ry_input_fopen(path, &why);
    if (!fp) {
        ry_io_error("%s: cannot read the spec again: %s", path, why);
        return NULL;
    }
    ry_buf b;
    ry_buf_init(&b);
    char chunk[65536];
    size_t n;
    while (b.len <= (size_t)RY_YAML_MAX_BYTES && (n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        ry_buf_add(&b, chunk, n);
    int bad = ferror(fp);
    fclose(fp);
    if (bad || b.len > (size_t)RY_YAML_MAX_BYTES) {
        if (bad)
            ry_io_error("%s: cannot read the spec again", path);
        else
            ry_error("%s: cannot read the spec again: larger than %ld MiB", path,
                     (long)(RY_YAML_MAX_BYTES >> 20));
        ry_buf_free(&b);
        return NULL;
    }
    ry_buf_putc(&b, '\0');
    return b.data;
}
