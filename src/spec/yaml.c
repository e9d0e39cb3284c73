/* YAML loading with positions on top of libyaml's event API.
 *
 * The event API (rather than yaml_document_t) lets us register an anchor only
 * once its node is complete, which rules out cycles, and count the expanded
 * size of every node as it closes, which stops alias bombs before anything
 * walks them. */
#include "spec/yaml.h"

#include "util/buf.h"
#include "util/diag.h"
#include "util/hash.h"
#include "io/input.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

/* ---- nodes ----------------------------------------------------------------- */

static ry_ynode *node_new(ry_ydoc *d, ry_ykind kind, ry_pos pos)
{
    ry_ynode *n = ry_xcalloc(1, sizeof *n);
    n->kind = kind;
    n->pos = pos;
    n->size = 1;
    RY_ALLOC_GROW(d->all, d->nall + 1, d->capall);
    d->all[d->nall++] = n;
    return n;
}

static ry_ynode *scalar_new(ry_ydoc *d, ry_pos pos, const char *value, int quoted)
{
    ry_ynode *n = node_new(d, RY_YSCALAR, pos);
    n->value = ry_xstrdup(value);
    n->quoted = quoted;
    return n;
}

static void node_append(ry_ynode *parent, ry_ynode *key, ry_ynode *item)
{
    if (parent->kind == RY_YMAP)
        RY_ALLOC_GROW2(parent->items, parent->keys, parent->n + 1, parent->cap);
    else
        RY_ALLOC_GROW(parent->items, parent->n + 1, parent->cap);
    if (parent->kind == RY_YMAP) {
        parent->keys[parent->n] = key;
        key->refs++;
    }
    parent->items[parent->n++] = item;
    item->refs++;
}

void ry_ydoc_free(ry_ydoc *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nall; i++) {
        free(d->all[i]->value);
        free(d->all[i]->keys);
        free(d->all[i]->items);
        free(d->all[i]);
    }
    free(d->all);
    free(d->file);
    ry_ydoc_free(d->under);
    free(d);
}

/* ---- copies ------------------------------------------------------------------- */

/* The copier: the aliased nodes (refs > 1) copied so far, by their
 * address (open addressing, at most half full). */
typedef struct copier {
    const ry_ydoc *from;
    ry_ydoc *to;
    const ry_ynode **old;
    ry_ynode **new;
    size_t cap, n;
} copier;

static size_t copier_slot(const copier *c, const ry_ynode *n)
{
    size_t i = (size_t)ry_hash_u64((uint64_t)(uintptr_t)n) & (c->cap - 1);
    while (c->old[i] && c->old[i] != n)
        i = (i + 1) & (c->cap - 1);
    return i;
}

static void copier_put(copier *c, const ry_ynode *n, ry_ynode *m)
{
    if (2 * (c->n + 1) > c->cap) {
        copier g = *c;
        g.cap = c->cap ? 2 * c->cap : 64;
        g.n = 0;
        g.old = ry_xcalloc(g.cap, sizeof *g.old);
        g.new = ry_xcalloc(g.cap, sizeof *g.new);
        for (size_t i = 0; i < c->cap; i++)
            if (c->old[i])
                copier_put(&g, c->old[i], c->new[i]);
        free(c->old);
        free(c->new);
        *c = g;
    }
    size_t i = copier_slot(c, n);
    c->old[i] = n;
    c->new[i] = m;
    c->n++;
}

static ry_ynode *copy_node(copier *c, const ry_ynode *n)
{
    if (n->refs > 1 && c->cap) {
        size_t i = copier_slot(c, n);
        if (c->old[i])
            return c->new[i];
    }
    ry_pos pos = n->pos;
    if (pos.file == c->from->file)
        pos.file = c->to->file;
    ry_ynode *m = node_new(c->to, n->kind, pos);
    m->value = n->value ? ry_xstrdup(n->value) : NULL;
    m->quoted = n->quoted;
    m->size = n->size;
    if (n->refs > 1)
        copier_put(c, n, m);
    for (size_t i = 0; i < n->n; i++) {
        ry_ynode *key = n->kind == RY_YMAP ? copy_node(c, n->keys[i]) : NULL;
        node_append(m, key, copy_node(c, n->items[i]));
    }
    return m;
}

ry_ydoc *ry_ydoc_copy(const ry_ydoc *d, const char *const *skip)
{
    ry_ydoc *to = ry_xcalloc(1, sizeof *to);
    to->file = ry_xstrdup(d->file);
    to->events = d->events;
    copier c = { .from = d, .to = to };
    const ry_ynode *r = d->root;
    if (r && r->kind == RY_YMAP && skip) {
        ry_pos pos = r->pos;
        if (pos.file == d->file)
            pos.file = to->file;
        to->root = node_new(to, RY_YMAP, pos);
        to->root->size = r->size;
        for (size_t i = 0; i < r->n; i++) {
            int skipped = 0;
            for (int k = 0; skip[k] && !skipped; k++)
                skipped = strcmp(r->keys[i]->value, skip[k]) == 0;
            if (!skipped)
                node_append(to->root, copy_node(&c, r->keys[i]), copy_node(&c, r->items[i]));
        }
    } else if (r) {
        to->root = copy_node(&c, r);
    }
    if (to->root)
        to->root->refs++;
    free(c.old);
    free(c.new);
    return to;
}

static unsigned long size_add(unsigned long a, unsigned long b)
{
    unsigned long s = a + b;
    return (s < a || s > RY_YAML_MAX_NODES + 1UL) ? RY_YAML_MAX_NODES + 1UL : s;
}

/* ---- the event loader --------------------------------------------------------- */

typedef struct anchor {
    char *name;
    ry_ynode *node;
} anchor;

typedef struct frame {
    ry_ynode *node;
    ry_ynode *key;      /* map: key waiting for its value */
    char *anchor;       /* registered when the collection closes */
} frame;

typedef struct loader {
    ry_ydoc *d;
    yaml_parser_t parser;
    const unsigned char *text;
    size_t len;
    const char *file;
    int line0, col0;    /* position of the text's first character */
    int one_line;       /* a --set value: every position is on line0 */
    anchor *anchors;
    size_t nanchors, capanchors;
    frame *stack;
    size_t depth, capstack;
    ry_ynode *root;
    int ndocs;
    int errors;         /* non-fatal errors (duplicate keys) */
} loader;

static ry_pos mark_pos(const loader *L, yaml_mark_t m)
{
    ry_pos p;
    p.file = L->file;
    p.line = L->line0 + (int)m.line;
    p.col = m.line == 0 ? L->col0 + (int)m.column : (int)m.column + 1;
    if (L->one_line && m.line > 0) {
        /* libyaml ends the stream on a line of its own: say "at the end". */
        p.line = L->line0;
        p.col = L->col0 + (int)L->len;
    }
    return p;
}

/* Byte offset of 0-based (line, col) in the text, treating columns as bytes:
 * good enough to look at the character an error points at. */
static size_t text_offset(const loader *L, size_t line, size_t col)
{
    size_t i = 0;
    while (line > 0 && i < L->len) {
        if (L->text[i++] == '\n')
            line--;
    }
    while (col > 0 && i < L->len && L->text[i] != '\n') {
        i++;
        col--;
    }
    return i;
}

static void parser_error(loader *L)
{
    yaml_parser_t *p = &L->parser;
    ry_pos pos;

    if (p->error == YAML_MEMORY_ERROR) {
        fprintf(stderr, "railyard: out of memory while parsing YAML\n");
        exit(RY_EXIT_INTERNAL);
    }
    if (p->error == YAML_READER_ERROR) {
        /* Bad encoding: libyaml gives a byte offset. */
        size_t line = 0, col = 0;
        for (size_t i = 0; i < p->problem_offset && i < L->len; i++) {
            if (L->text[i] == '\n') {
                line++;
                col = 0;
            } else {
                col++;
            }
        }
        yaml_mark_t m = { 0, line, col };
        pos = mark_pos(L, m);
        ry_error_at(pos, "invalid YAML: %s", p->problem ? p->problem : "cannot read the text");
        return;
    }

    pos = mark_pos(L, p->problem_mark);
    const char *hint = "";
    size_t off = text_offset(L, p->problem_mark.line, p->problem_mark.column);
    if (off < L->len && L->text[off] == '\t')
        hint = "; YAML does not allow tabs for indentation, use spaces";
    if (p->context) {
        ry_pos cpos = mark_pos(L, p->context_mark);
        if (cpos.line != pos.line)
            ry_error_at(pos, "invalid YAML: %s %s (at line %d, column %d)%s", p->problem,
                        p->context, cpos.line, cpos.col, hint);
        else if (cpos.col != pos.col)
            ry_error_at(pos, "invalid YAML: %s %s (at column %d)%s", p->problem, p->context,
                        cpos.col, hint);
        else
            ry_error_at(pos, "invalid YAML: %s %s%s", p->problem, p->context, hint);
    } else {
        ry_error_at(pos, "invalid YAML: %s%s", p->problem ? p->problem : "syntax error", hint);
    }
}

/* Anchors by name in an open-addressing table under the keyed hash: a
 * lookup costs the same for the 240,000th anchor as for the first, whatever
 * the names. */
static size_t anchor_slot(const anchor *tab, size_t cap, const char *name)
{
    size_t i = (size_t)ry_hash_str(name) & (cap - 1);
    while (tab[i].name && strcmp(tab[i].name, name) != 0)
        i = (i + 1) & (cap - 1);
    return i;
}

static void anchor_add(loader *L, const char *name, ry_ynode *n)
{
    if (2 * (L->nanchors + 1) > L->capanchors) {
        size_t cap = L->capanchors ? L->capanchors * 2 : 64;
        anchor *tab = ry_xcalloc(cap, sizeof *tab);
        for (size_t i = 0; i < L->capanchors; i++)
            if (L->anchors[i].name)
                tab[anchor_slot(tab, cap, L->anchors[i].name)] = L->anchors[i];
        free(L->anchors);
        L->anchors = tab;
        L->capanchors = cap;
    }
    anchor *a = &L->anchors[anchor_slot(L->anchors, L->capanchors, name)];
    if (!a->name) {     /* else redefined: the latest definition wins, as YAML says */
        a->name = ry_xstrdup(name);
        L->nanchors++;
    }
    a->node = n;
}

static ry_ynode *anchor_find(const loader *L, const char *name)
{
    if (!L->capanchors)
        return NULL;
    return L->anchors[anchor_slot(L->anchors, L->capanchors, name)].node;
}

static int too_big(ry_pos pos)
{
    ry_error_at(pos, "document too large: with its aliases expanded it has more than %d nodes",
                RY_YAML_MAX_NODES);
    return -1;
}

/* Attach a finished node (new, or an alias target) to the open collection. */
static int add_child(loader *L, ry_ynode *child, ry_pos at)
{
    if (L->depth == 0) {
        L->root = child;
        child->refs++;
        return 0;
    }
    frame *f = &L->stack[L->depth - 1];
    ry_ynode *parent = f->node;
    parent->size = size_add(parent->size, child->size);
    if (parent->size > RY_YAML_MAX_NODES)
        return too_big(at);
    if (parent->kind == RY_YMAP) {
        if (!f->key) {
            if (child->kind != RY_YSCALAR) {
                ry_error_at(at, "a map key must be a plain word or string (got %s)",
                            ry_ynode_describe(child));
                return -1;
            }
            f->key = child;
            return 0;
        }
        node_append(parent, f->key, child);
        f->key = NULL;
    } else {
        node_append(parent, NULL, child);
    }
    return 0;
}

/* qsort has no context argument: the keys per thread (search loads its
 * points' specs and catalogs on several threads at once). */
static _Thread_local ry_ynode *const *sort_keys;

static int key_cmp_ctx(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(sort_keys[i]->value, sort_keys[j]->value);
    return c ? c : (i < j ? -1 : i > j);
}

static void dup_error(ry_ynode *first, ry_ynode *again)
{
    if (first->pos.file == again->pos.file)
        ry_error_at(again->pos, "duplicate key '%s' (first given at line %d, column %d)",
                    again->value, first->pos.line, first->pos.col);
    else
        ry_error_at(again->pos, "duplicate key '%s'", again->value);
}

/* Duplicate keys are errors at the later key. Small maps: pairwise; large
 * ones (hostile input) by sorting, so a huge map costs n log n. */
static int check_duplicates(ry_ynode *m)
{
    int found = 0;
    if (m->n <= 16) {
        for (size_t i = 1; i < m->n; i++)
            for (size_t j = 0; j < i; j++)
                if (strcmp(m->keys[i]->value, m->keys[j]->value) == 0) {
                    dup_error(m->keys[j], m->keys[i]);
                    found++;
                    break;
                }
        return found;
    }
    size_t *idx = ry_xmalloc(m->n * sizeof *idx);
    for (size_t i = 0; i < m->n; i++)
        idx[i] = i;
    sort_keys = m->keys;
    qsort(idx, m->n, sizeof *idx, key_cmp_ctx);
    /* Sorted by (key, position): the first of a run is the first given. */
    for (size_t i = 0; i < m->n;) {
        size_t j = i + 1;
        while (j < m->n && strcmp(m->keys[idx[j]]->value, m->keys[idx[i]]->value) == 0) {
            dup_error(m->keys[idx[i]], m->keys[idx[j]]);
            found++;
            j++;
        }
        i = j;
    }
    free(idx);
    return found;
}

static int is_str_tag(const yaml_char_t *tag)
{
    return tag && (strcmp((const char *)tag, YAML_STR_TAG) == 0 ||
                   strcmp((const char *)tag, "!!str") == 0);
}

static int handle_event(loader *L, yaml_event_t *ev)
{
    ry_ydoc *d = L->d;
    ry_pos pos = mark_pos(L, ev->start_mark);
    ry_ynode *n;

    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (L->ndocs > 0) {
            ry_error_at(pos, "a second YAML document starts here; a spec file holds exactly one");
            return -1;
        }
        return 0;
    case YAML_DOCUMENT_END_EVENT:
        L->ndocs++;
        return 0;
    case YAML_ALIAS_EVENT: {
        const char *name = (const char *)ev->data.alias.anchor;
        n = anchor_find(L, name);
        if (!n) {
            ry_error_at(pos, "alias '*%s' names no anchor defined before it "
                        "(an anchor must be complete, not around its own alias)", name);
            return -1;
        }
        return add_child(L, n, pos);
    }
    case YAML_SCALAR_EVENT: {
        if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length)) {
            ry_error_at(pos, "a NUL character (\\0) cannot be part of a value");
            return -1;
        }
        char *v = ry_xmalloc(ev->data.scalar.length + 1);
        memcpy(v, ev->data.scalar.value, ev->data.scalar.length);
        v[ev->data.scalar.length] = '\0';
        n = node_new(d, RY_YSCALAR, pos);
        n->value = v;
        n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
                    is_str_tag(ev->data.scalar.tag);
        if (ev->data.scalar.anchor)
            anchor_add(L, (const char *)ev->data.scalar.anchor, n);
        return add_child(L, n, pos);
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        if (L->depth >= RY_YAML_MAX_DEPTH) {
            ry_error_at(pos, "YAML nested too deeply (more than %d levels)", RY_YAML_MAX_DEPTH);
            return -1;
        }
        int is_map = ev->type == YAML_MAPPING_START_EVENT;
        const yaml_char_t *a = is_map ? ev->data.mapping_start.anchor
                                      : ev->data.sequence_start.anchor;
        n = node_new(d, is_map ? RY_YMAP : RY_YSEQ, pos);
        RY_ALLOC_GROW(L->stack, L->depth + 1, L->capstack);
        frame *f = &L->stack[L->depth++];
        f->node = n;
        f->key = NULL;
        f->anchor = a ? ry_xstrdup((const char *)a) : NULL;
        return 0;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: {
        RY_ASSERT(L->depth > 0);
        frame f = L->stack[--L->depth];
        n = f.node;
        if (n->kind == RY_YMAP)
            L->errors += check_duplicates(n);
        if (f.anchor) {
            anchor_add(L, f.anchor, n);
            free(f.anchor);
        }
        return add_child(L, n, n->pos);
    }
    default:
        return 0;
    }
}

/* Parse text into d's node pool; *root gets the document's root (NULL when
 * the text holds no document). Returns 0 or -1 (errors printed). */
static int load_text(ry_ydoc *d, const char *file, const unsigned char *text, size_t len,
                     int line0, int col0, int one_line, ry_ynode **root)
{
    loader L;
    int rc = 0;

    memset(&L, 0, sizeof L);
    L.d = d;
    L.text = text;
    L.len = len;
    L.file = file;
    L.line0 = line0;
    L.col0 = col0;
    L.one_line = one_line;
    *root = NULL;

    if (!yaml_parser_initialize(&L.parser)) {
        fprintf(stderr, "railyard: out of memory while parsing YAML\n");
        exit(RY_EXIT_INTERNAL);
    }
    yaml_parser_set_input_string(&L.parser, text, len);

    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&L.parser, &ev)) {
            parser_error(&L);
            rc = -1;
            break;
        }
        if (++d->events > RY_YAML_MAX_NODES) {
            ry_error_at(mark_pos(&L, ev.start_mark),
                        "document too large: more than %d YAML nodes", RY_YAML_MAX_NODES);
            yaml_event_delete(&ev);
            rc = -1;
            break;
        }
        int done = ev.type == YAML_STREAM_END_EVENT;
        rc = handle_event(&L, &ev);
        yaml_event_delete(&ev);
        if (rc || done)
            break;
    }
    if (rc == 0 && L.errors)
        rc = -1;

    for (size_t i = 0; i < L.capanchors; i++)
        free(L.anchors[i].name);
    free(L.anchors);
    for (size_t i = 0; i < L.depth; i++)
        free(L.stack[i].anchor);
    free(L.stack);
    yaml_parser_delete(&L.parser);
    if (rc == 0)
        *root = L.root;
    return rc;
}

static ry_ydoc *doc_new(const char *file)
{
    ry_ydoc *d = ry_xcalloc(1, sizeof *d);
    d->file = ry_xstrdup(file);
    return d;
}

ry_ydoc *ry_ydoc_load_string(const char *file, const char *text, size_t len)
{
    ry_ydoc *d = doc_new(file);
    if (load_text(d, d->file, (const unsigned char *)text, len, 1, 1, 0, &d->root) < 0) {
        ry_ydoc_free(d);
        return NULL;
    }
    return d;
}

static char *read_all(int fd, size_t *len, int *err)
{
    size_t cap = 4096, n = 0;
    char *buf = ry_xmalloc(cap);
    for (;;) {
        if (n > (size_t)RY_YAML_MAX_BYTES) {    /* one byte past the limit is enough to know */
            free(buf);
            *err = EFBIG;
            return NULL;
        }
        if (n == cap) {
            cap = cap * 2 > (size_t)RY_YAML_MAX_BYTES + 1 ? (size_t)RY_YAML_MAX_BYTES + 1 : cap * 2;
            buf = ry_xrealloc(buf, cap);
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *err = errno;
            free(buf);
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    *len = n;
    return buf;
}

ry_ydoc *ry_ydoc_load(const char *path, const char *what)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    ry_pos top = { name, 1, 1 };
    const char *why = NULL;
    int fd = is_stdin ? 0 : ry_input_open(path, &why);
    int err = 0;

    if (fd < 0) {
        /* a directory, FIFO, device or socket too: never read (exit 3) */
        ry_io_error_at(top, "cannot read %s: %s", what, why);
        return NULL;
    }
    size_t len = 0;
    char *text = read_all(fd, &len, &err);
    if (!is_stdin)
        close(fd);
    if (!text) {
        /* An oversized file is the wrong input (exit 1); a file that
         * cannot be read is an I/O error (exit 3). */
        if (err == EFBIG)
            ry_error_at(top, "cannot read %s: larger than %ld MiB", what,
                        (long)(RY_YAML_MAX_BYTES >> 20));
        else
            ry_io_error_at(top, "cannot read %s: %s", what, strerror(err));
        return NULL;
    }
    ry_ydoc *d = ry_ydoc_load_string(name, text, len);
    free(text);
    return d;
}

/* ---- looking things up --------------------------------------------------------- */

int ry_ynode_is_null(const ry_ynode *n)
{
    if (!n)
        return 1;
    if (n->kind != RY_YSCALAR || n->quoted)
        return 0;
    const char *v = n->value;
    return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
           !strcmp(v, "NULL");
}

static int looks_numeric(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (*s == '.')
        s++;
    return isdigit((unsigned char)*s);
}

const char *ry_ynode_describe(const ry_ynode *n)
{
    static _Thread_local char buf[128];
    if (ry_ynode_is_null(n))
        return "nothing";
    if (n->kind == RY_YMAP)
        return "a map";
    if (n->kind == RY_YSEQ)
        return "a list";
    const char *v = n->value;
    int len = (int)strlen(v), max = 60;
    const char *more = len > max ? "..." : "";
    if (n->quoted)
        snprintf(buf, sizeof buf, "the string \"%.*s%s\"", max, v, more);
    else if (looks_numeric(v))
        snprintf(buf, sizeof buf, "%.*s%s", max, v, more);
    else
        snprintf(buf, sizeof buf, "'%.*s%s'", max, v, more);
    return buf;
}

static ssize_t map_index(const ry_ynode *map, const char *key)
{
    if (!map || map->kind != RY_YMAP)
        return -1;
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->keys[i]->value, key) == 0)
            return (ssize_t)i;
    return -1;
}

ry_ynode *ry_ymap_get(const ry_ynode *map, const char *key)
{
    ssize_t i = map_index(map, key);
    return i < 0 ? NULL : map->items[i];
}

ry_ynode *ry_ymap_key(const ry_ynode *map, const char *key)
{
    ssize_t i = map_index(map, key);
    return i < 0 ? NULL : map->keys[i];
}

/* A list index written as a part of a dotted key: digits only. */
static int part_index(const char *s, size_t len, size_t *out)
{
    size_t v = 0;
    if (len == 0 || len > 9)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    *out = v;
    return 1;
}

ry_ynode *ry_ydoc_find(const ry_ydoc *d, const char *dotted, ry_ynode **key_out)
{
    ry_ynode *cur = d ? d->root : NULL, *key = NULL;
    char part[256];
    const char *p = dotted;

    if (key_out)
        *key_out = NULL;
    if (!dotted || !*dotted)
        return cur;
    while (cur) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (len >= sizeof part)
            return NULL;
        memcpy(part, p, len);
        part[len] = '\0';
        size_t idx;
        if (cur->kind == RY_YMAP) {
            ssize_t i = map_index(cur, part);
            if (i < 0)
                return NULL;
            key = cur->keys[i];
            cur = cur->items[i];
        } else if (cur->kind == RY_YSEQ && part_index(part, len, &idx)) {
            if (idx >= cur->n)
                return NULL;
            key = NULL;
            cur = cur->items[idx];
        } else {
            return NULL;
        }
        if (!dot)
            break;
        p = dot + 1;
    }
    if (key_out)
        *key_out = key;
    return cur;
}

/* ---- did you mean ---------------------------------------------------------------- */

static void lower_copy(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[i] = '\0';
}

/* Edit distance counting a swap of two neighbours as one edit ("nodse" is
 * one edit from "nodes"): the usual typo. Strings up to 64 characters. */
static int typo_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int d[65][65];
    if (la > 64 || lb > 64)
        return 99;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *ry_suggest(const char *got, const char *const *words, int n)
{
    char g[72], w[72];
    const char *best = NULL, *prefix = NULL;
    int bestscore = 99;
    size_t glen;

    if (!got || !*got)
        return NULL;
    lower_copy(g, sizeof g, got);
    glen = strlen(g);
    for (int i = 0; n < 0 ? words[i] != NULL : i < n; i++) {
        lower_copy(w, sizeof w, words[i]);
        size_t wlen = strlen(w);
        int dist = typo_distance(g, w);
        /* Ties go to the word of the same length: a swap or a wrong letter
         * is likelier than a letter lost. */
        int score = 2 * dist + (wlen != glen);
        if (dist <= 2 && (size_t)dist < glen && score < bestscore) {
            bestscore = score;
            best = words[i];
        }
        if (!prefix && glen >= 2 && wlen >= 2 &&
            strncmp(g, w, glen < wlen ? glen : wlen) == 0)
            prefix = words[i];
    }
    return best ? best : prefix;
}

/* ---- typed getters --------------------------------------------------------------- */

/* Parses a YAML integer: [+-] decimal digits, 0x hex or 0o octal. Returns 1
 * when s is one; *range is -1/+1 when it does not fit in 64 bits. */
static int parse_int(const char *s, long long *out, int *range)
{
    const char *p = s;
    int neg = 0, base = 10;
    *range = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && p[1] == 'o') {
        base = 8;
        p += 2;
    }
    if (!*p)
        return 0;
    for (const char *q = p; *q; q++) {
        int ok = base == 16 ? isxdigit((unsigned char)*q)
               : base == 8  ? (*q >= '0' && *q <= '7')
                            : isdigit((unsigned char)*q);
        if (!ok)
            return 0;
    }
    errno = 0;
    unsigned long long u = strtoull(p, NULL, base);
    if (errno == ERANGE || u > (unsigned long long)LLONG_MAX + (unsigned long long)neg) {
        *range = neg ? -1 : 1;
        *out = neg ? LLONG_MIN : LLONG_MAX;
        return 1;
    }
    if (neg)
        *out = u == (unsigned long long)LLONG_MAX + 1ULL ? LLONG_MIN : -(long long)u;
    else
        *out = (long long)u;
    return 1;
}

int ry_yscalar_int(const ry_ynode *n, long long *out, int *range)
{
    *range = 0;
    return n && n->kind == RY_YSCALAR && !n->quoted && !ry_ynode_is_null(n) &&
           parse_int(n->value, out, range);
}

static int small_range(long long min, long long max)
{
    return min >= -1000000 && max <= 1000000;
}

static void int_expected(char *buf, size_t cap, long long min, long long max)
{
    if (min == LLONG_MIN && max == LLONG_MAX)
        snprintf(buf, cap, "an integer");
    else if (small_range(min, max))
        snprintf(buf, cap, "an integer in %lld..%lld", min, max);
    else if (min == LLONG_MIN)
        snprintf(buf, cap, "an integer <= %lld", max);
    else
        snprintf(buf, cap, "an integer >= %lld", min);
}

static const char *quoted_hint(const ry_ynode *n)
{
    return n->kind == RY_YSCALAR && n->quoted && looks_numeric(n->value)
               ? "; write it without quotes" : "";
}

int ry_yget_int(const ry_ynode *n, const char *what, long long min, long long max,
                long long *out)
{
    char exp[96];
    long long v;
    int range;

    RY_ASSERT(n != NULL);
    int_expected(exp, sizeof exp, min, max);
    if (n->kind != RY_YSCALAR || n->quoted || ry_ynode_is_null(n) ||
        !parse_int(n->value, &v, &range)) {
        ry_error_at(n->pos, "%s must be %s (got %s%s)", what, exp, ry_ynode_describe(n),
                    quoted_hint(n));
        return -1;
    }
    if (range > 0 || v > max) {
        if (small_range(min, max))
            ry_error_at(n->pos, "%s must be %s (got %s)", what, exp, n->value);
        else
            ry_error_at(n->pos, "%s is too large (got %s; at most %lld)", what, n->value, max);
        return -1;
    }
    if (range < 0 || v < min) {
        ry_error_at(n->pos, "%s must be %s (got %s)", what, exp, n->value);
        return -1;
    }
    *out = v;
    return 0;
}

int ry_yget_number(const ry_ynode *n, const char *what, double min, double max, double *out)
{
    char exp[96];
    RY_ASSERT(n != NULL);
    if (max >= 1e300)
        snprintf(exp, sizeof exp, "a number >= %g", min);
    else
        snprintf(exp, sizeof exp, "a number in %g..%g", min, max);

    double v = 0;
    int ok = n->kind == RY_YSCALAR && !n->quoted && !ry_ynode_is_null(n) &&
             looks_numeric(n->value);
    if (ok) {
        char *end;
        errno = 0;
        v = strtod(n->value, &end);
        ok = *end == '\0' && errno != ERANGE && isfinite(v);
    }
    if (!ok) {
        ry_error_at(n->pos, "%s must be %s (got %s%s)", what, exp, ry_ynode_describe(n),
                    quoted_hint(n));
        return -1;
    }
    if (v < min || v > max) {
        ry_error_at(n->pos, "%s must be %s (got %s)", what, exp, n->value);
        return -1;
    }
    *out = v;
    return 0;
}

int ry_yget_string(const ry_ynode *n, const char *what, const char **out)
{
    RY_ASSERT(n != NULL);
    if (n->kind != RY_YSCALAR || ry_ynode_is_null(n)) {
        ry_error_at(n->pos, "%s must be a string (got %s)", what, ry_ynode_describe(n));
        return -1;
    }
    *out = n->value;
    return 0;
}

int ry_yget_bool(const ry_ynode *n, const char *what, int *out)
{
    static const char *const yes[] = { "true", "yes", "on" };
    static const char *const no[] = { "false", "no", "off" };
    RY_ASSERT(n != NULL);
    if (n->kind == RY_YSCALAR && !n->quoted) {
        for (int i = 0; i < 3; i++) {
            if (strcasecmp(n->value, yes[i]) == 0) {
                *out = 1;
                return 0;
            }
            if (strcasecmp(n->value, no[i]) == 0) {
                *out = 0;
                return 0;
            }
        }
    }
    ry_error_at(n->pos, "%s must be true or false (got %s)", what, ry_ynode_describe(n));
    return -1;
}

int ry_yget_enum(const ry_ynode *n, const char *what, const char *const *words, int *out)
{
    RY_ASSERT(n != NULL);
    if (n->kind == RY_YSCALAR && !ry_ynode_is_null(n)) {
        for (int i = 0; words[i]; i++)
            if (strcasecmp(n->value, words[i]) == 0) {
                *out = i;
                return 0;
            }
    }
    ry_buf b;
    ry_buf_init(&b);
    for (int i = 0; words[i]; i++)
        ry_buf_printf(&b, "%s%s", i ? (words[i + 1] ? ", " : " or ") : "", words[i]);
    const char *s = n->kind == RY_YSCALAR ? ry_suggest(n->value, words, -1) : NULL;
    if (s)
        ry_error_at(n->pos, "%s must be %s (got %s); did you mean '%s'?", what, b.data,
                    ry_ynode_describe(n), s);
    else
        ry_error_at(n->pos, "%s must be %s (got %s)", what, b.data, ry_ynode_describe(n));
    ry_buf_free(&b);
    return -1;
}

int ry_yget_map(const ry_ynode *n, const char *what, int *is_null)
{
    RY_ASSERT(n != NULL);
    if (is_null)
        *is_null = 0;
    if (n->kind == RY_YMAP)
        return 0;
    if (ry_ynode_is_null(n)) {
        if (is_null) {
            *is_null = 1;
            return 0;
        }
    }
    ry_error_at(n->pos, "%s must be a map of keys (got %s)", what, ry_ynode_describe(n));
    return -1;
}

static int key_allowed(const char *key, const char *pattern)
{
    size_t n = strlen(pattern);
    if (n > 0 && pattern[n - 1] == '*')
        return strncmp(key, pattern, n - 1) == 0;
    return strcmp(key, pattern) == 0;
}

int ry_ycheck_keys(const ry_ynode *map, const char *what, const char *const *allowed)
{
    int bad = 0, nwords = 0;
    const char **words;

    if (!map || map->kind != RY_YMAP)
        return 0;
    /* Names to suggest: the allowed keys without the prefix patterns. */
    for (int j = 0; allowed[j]; j++)
        nwords++;
    words = ry_xcalloc((size_t)nwords + 1, sizeof *words);
    nwords = 0;
    for (int j = 0; allowed[j]; j++)
        if (allowed[j][0] && allowed[j][strlen(allowed[j]) - 1] != '*')
            words[nwords++] = allowed[j];

    for (size_t i = 0; i < map->n; i++) {
        const ry_ynode *k = map->keys[i];
        int ok = 0;
        for (int j = 0; allowed[j] && !ok; j++)
            ok = key_allowed(k->value, allowed[j]);
        if (ok)
            continue;
        bad++;
        char where[160];
        if (what && *what)
            snprintf(where, sizeof where, "key '%.60s' in %.60s", k->value, what);
        else
            snprintf(where, sizeof where, "top-level key '%.60s'", k->value);
        const char *s = ry_suggest(k->value, words, nwords);
        if (s) {
            ry_error_at(k->pos, "unknown %s; did you mean '%s'?", where, s);
        } else {
            ry_buf b;
            ry_buf_init(&b);
            for (int j = 0; j < nwords; j++)
                ry_buf_printf(&b, "%s%s", j ? ", " : "", words[j]);
            ry_error_at(k->pos, "unknown %s (expected one of: %s)", where, b.data ? b.data : "");
            ry_buf_free(&b);
        }
    }
    free(words);
    return bad;
}

/* ---- overrides --------------------------------------------------------------------- */

/* A copy of a shared collection, so a change does not reach other aliases. */
static void make_own(ry_ydoc *d, ry_ynode **slot)
{
    ry_ynode *old = *slot;
    if (old->refs <= 1 || old->kind == RY_YSCALAR)
        return;
    ry_ynode *n = node_new(d, old->kind, old->pos);
    for (size_t i = 0; i < old->n; i++)
        node_append(n, old->kind == RY_YMAP ? old->keys[i] : NULL, old->items[i]);
    n->size = old->size;
    old->refs--;
    n->refs = 1;
    *slot = n;
}

static void replace_slot(ry_ynode **slot, ry_ynode *n)
{
    if (*slot)
        (*slot)->refs--;
    n->refs++;
    *slot = n;
}

/* Makes *slot a map we can change: scalars become {name: scalar}, null an
 * empty map. Lists are left alone. */
static void as_map(ry_ydoc *d, ry_ynode **slot)
{
    ry_ynode *cur = *slot;
    if (cur->kind == RY_YSCALAR) {
        ry_ynode *m = node_new(d, RY_YMAP, cur->pos);
        if (!ry_ynode_is_null(cur))
            node_append(m, scalar_new(d, cur->pos, "name", 0), cur);
        replace_slot(slot, m);
    } else {
        make_own(d, slot);
    }
}

/* Walks parts [0, nparts) of a split key; creates missing maps when create
 * is set. Returns the slot of the last part's value, or NULL. */
static ry_ynode **walk(ry_ydoc *d, char **parts, int nparts, const int *cols, ry_pos at,
                       const char *dotted, int create)
{
    ry_ynode **slot = &d->root;
    if (!d->root) {
        if (!create)
            return NULL;
        ry_pos top = { d->file, 1, 1 };
        replace_slot(slot, node_new(d, RY_YMAP, top));
    }
    for (int i = 0; i < nparts; i++) {
        ry_pos here = at;
        here.col = cols[i];
        size_t idx;
        if ((*slot)->kind == RY_YSEQ && part_index(parts[i], strlen(parts[i]), &idx)) {
            if (idx >= (*slot)->n) {
                if (create)
                    ry_error_at(here, "cannot set %s: the list has %zu items", dotted,
                                (*slot)->n);
                return NULL;
            }
            make_own(d, slot);
            slot = &(*slot)->items[idx];
            continue;
        }
        if ((*slot)->kind == RY_YSEQ) {
            if (create)
                ry_error_at(here, "cannot set %s: there is a list before '%s'", dotted,
                            parts[i]);
            return NULL;
        }
        if (!create && (*slot)->kind != RY_YMAP)
            return NULL;
        as_map(d, slot);
        ry_ynode *m = *slot;
        ssize_t k = map_index(m, parts[i]);
        if (k < 0) {
            if (!create)
                return NULL;
            node_append(m, scalar_new(d, here, parts[i], 0), scalar_new(d, here, "", 0));
            k = (ssize_t)m->n - 1;
        }
        slot = &m->items[k];
    }
    return slot;
}

/* Splits dotted into parts (modifying a copy); cols get 1-based columns
 * relative to at. Returns the number of parts, or -1 for an empty part. */
static int split_key(char *copy, char **parts, int *cols, int max, int col0)
{
    int n = 0;
    char *p = copy;
    for (;;) {
        char *dot = strchr(p, '.');
        if (dot)
            *dot = '\0';
        if (!*p || n == max)
            return -1;
        parts[n] = p;
        cols[n] = col0 + (int)(p - copy);
        n++;
        if (!dot)
            return n;
        p = dot + 1;
    }
}

#define MAX_PARTS 32

int ry_ydoc_set(ry_ydoc *d, const char *dotted, const char *value, ry_pos at)
{
    char *copy = ry_xstrdup(dotted);
    char *parts[MAX_PARTS];
    int cols[MAX_PARTS];
    int rc = -1;
    int nparts = split_key(copy, parts, cols, MAX_PARTS, at.col);

    if (nparts < 0) {
        ry_error_at(at, "bad key '%s': expected names joined by dots, like fabric.switch.radix",
                    dotted);
        goto out;
    }

    int vcol = at.col + (int)strlen(dotted) + 1;
    ry_ynode *v = NULL;
    if (load_text(d, at.file, (const unsigned char *)value, strlen(value), at.line, vcol, 1,
                  &v) < 0)
        goto out;
    if (v) {
        v->refs--;      /* it was the parsed text's root; its one parent is below */
    } else {
        ry_pos vpos = at;
        vpos.col = vcol;
        v = scalar_new(d, vpos, "", 0);
    }

    ry_ynode **slot = walk(d, parts, nparts, cols, at, dotted, 1);
    if (!slot)
        goto out;
    replace_slot(slot, v);
    rc = 0;
out:
    free(copy);
    return rc;
}

int ry_ydoc_remove(ry_ydoc *d, const char *dotted)
{
    char *copy = ry_xstrdup(dotted);
    char *parts[MAX_PARTS];
    int cols[MAX_PARTS];
    ry_pos at = { d->file, 1, 1 };
    int removed = 0;
    int nparts = split_key(copy, parts, cols, MAX_PARTS, 1);

    /* Find first, so a miss changes nothing (walk copies shared maps). */
    if (nparts > 0 && ry_ydoc_find(d, dotted, NULL)) {
        ry_ynode **slot = walk(d, parts, nparts - 1, cols, at, dotted, 0);
        if (slot && (*slot)->kind == RY_YMAP) {
            make_own(d, slot);
            ry_ynode *m = *slot;
            ssize_t k = map_index(m, parts[nparts - 1]);
            if (k >= 0) {
                m->keys[k]->refs--;
                m->items[k]->refs--;
                memmove(m->keys + k, m->keys + k + 1, (m->n - (size_t)k - 1) * sizeof *m->keys);
                memmove(m->items + k, m->items + k + 1,
                        (m->n - (size_t)k - 1) * sizeof *m->items);
                m->n--;
                removed = 1;
            }
        }
    }
    free(copy);
    return removed;
}

/* ---- writing ------------------------------------------------------------------------------- */

/* A plain scalar that reads back as the same text: no indicator first, no
 * ": " or " #", no surrounding space, nothing YAML would read as null
 * unless it was null; in a flow collection, no flow indicator at all; and
 * no ':' (a YAML 1.1 reader takes 1:1 for a base-60 number). */
static int plain_ok(const char *v, int in_flow)
{
    if (in_flow && strpbrk(v, ",[]{}"))
        return 0;       /* inside {...} or [...] these end the scalar */
    if (strchr(v, ':'))
        return 0;
    if (!*v || strchr("-?:,[]{}#&*!|>'\"%@`", v[0]) || isspace((unsigned char)v[0]))
        return v[0] == '-' && v[1] && !isspace((unsigned char)v[1]) && plain_ok(v + 1, in_flow);
    size_t n = strlen(v);
    if (isspace((unsigned char)v[n - 1]) || v[n - 1] == ':')
        return 0;
    for (const char *p = v; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return 0;
        if ((p[0] == ':' && p[1] == ' ') || (p[0] == ' ' && p[1] == '#'))
            return 0;
    }
    return 1;
}

static void emit_scalar(const ry_ynode *n, int in_flow, ry_buf *out)
{
    const char *v = n->value ? n->value : "";
    if (!n->quoted && (plain_ok(v, in_flow) || ry_ynode_is_null(n))) {
        ry_buf_puts(out, v);
        return;
    }
    ry_buf_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\')
            ry_buf_printf(out, "\\%c", *p);
        else if (*p == '\n')
            ry_buf_puts(out, "\\n");
        else if (*p == '\t')
            ry_buf_puts(out, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            ry_buf_printf(out, "\\x%02x", *p);
        else
            ry_buf_putc(out, (char)*p);
    }
    ry_buf_putc(out, '"');
}

static void emit_flow(const ry_ynode *n, int in_flow, ry_buf *out)
{
    if (n->kind == RY_YSCALAR) {
        emit_scalar(n, in_flow, out);
        return;
    }
    ry_buf_putc(out, n->kind == RY_YMAP ? '{' : '[');
    for (size_t i = 0; i < n->n; i++) {
        if (i)
            ry_buf_puts(out, ", ");
        if (n->kind == RY_YMAP) {
            emit_scalar(n->keys[i], 1, out);
            ry_buf_puts(out, ": ");
        }
        emit_flow(n->items[i], 1, out);
    }
    ry_buf_putc(out, n->kind == RY_YMAP ? '}' : ']');
}

/* A collection whose items are all scalars goes on one line. */
static int flat(const ry_ynode *n)
{
    if (n->kind == RY_YSCALAR || n->n == 0)
        return 1;
    for (size_t i = 0; i < n->n; i++)
        if (n->items[i]->kind != RY_YSCALAR)
            return 0;
    return n->n <= 8;
}

static void emit_block(const ry_ynode *n, int indent, int first_inline, ry_buf *out);

/* The value after "key:" or "- ". */
static void emit_value(const ry_ynode *v, int indent, ry_buf *out)
{
    if (flat(v)) {
        ry_buf_putc(out, ' ');
        emit_flow(v, 0, out);
        ry_buf_putc(out, '\n');
    } else if (v->kind == RY_YMAP) {
        ry_buf_putc(out, '\n');
        emit_block(v, indent + 2, 0, out);
    } else {
        ry_buf_putc(out, '\n');
        emit_block(v, indent + 2, 0, out);
    }
}

static void emit_block(const ry_ynode *n, int indent, int first_inline, ry_buf *out)
{
    for (size_t i = 0; i < n->n; i++) {
        if (!(first_inline && i == 0))
            ry_buf_printf(out, "%*s", indent, "");
        if (n->kind == RY_YMAP) {
            emit_scalar(n->keys[i], 0, out);
            ry_buf_putc(out, ':');
            emit_value(n->items[i], indent, out);
        } else {
            const ry_ynode *it = n->items[i];
            ry_buf_puts(out, "-");
            if (it->kind == RY_YMAP && !flat(it)) {
                ry_buf_putc(out, ' ');
                emit_block(it, indent + 2, 1, out);
            } else {
                emit_value(it, indent, out);
            }
        }
    }
}

void ry_ydoc_emit(const ry_ydoc *d, const char *const *skip, ry_buf *out)
{
    const ry_ynode *r = d->root;
    if (!r)
        return;
    if (r->kind != RY_YMAP) {
        emit_flow(r, 0, out);
        ry_buf_putc(out, '\n');
        return;
    }
    for (size_t i = 0; i < r->n; i++) {
        int skipped = 0;
        for (int k = 0; skip && skip[k] && !skipped; k++)
            skipped = strcmp(r->keys[i]->value, skip[k]) == 0;
        if (skipped)
            continue;
        emit_scalar(r->keys[i], 0, out);
        ry_buf_putc(out, ':');
        emit_value(r->items[i], 0, out);
    }
}
