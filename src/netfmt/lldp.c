/* LLDP neighbour tables: lldpd's JSON read with Jansson, SONiC's text table
 * by the columns of its dashed rule. See lldp.h for the formats. */
#include "netfmt/lldp.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/diag.h"
#include "io/input.h"
#include "util/lines.h"

static const char json_want[] = "expected the JSON of lldpcli -f json show neighbors";
static const char text_want[] = "expected SONiC's show lldp table";

/* ---- the file ------------------------------------------------------------------ */

/* Refuses a file past the limit; -1 with the error printed. */
static int too_big(const char *path)
{
    ry_error_at((ry_pos){ path, 0, 0 }, "larger than %lld MiB; not an LLDP table",
                RY_LLDP_MAX_BYTES >> 20);
    return -1;
}

/* The rest of fp, NUL-terminated, at most the limit (sized by fstat, grown
 * only when the file grows meanwhile); NULL with the error printed, *rc -1
 * (too large) or -2 (cannot read). */
static char *slurp(FILE *fp, const char *path, size_t *len, int *rc)
{
    struct stat st;
    size_t cap = fstat(fileno(fp), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 2 : 4096;
    if (cap > (size_t)RY_LLDP_MAX_BYTES + 2)
        cap = (size_t)RY_LLDP_MAX_BYTES + 2;
    size_t n = 0;
    char *buf = ry_xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            if (n > (size_t)RY_LLDP_MAX_BYTES)
                break;
            cap = cap * 2 > (size_t)RY_LLDP_MAX_BYTES + 2 ? (size_t)RY_LLDP_MAX_BYTES + 2 : cap * 2;
            buf = ry_xrealloc(buf, cap);
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(fp)) {
        free(buf);
        ry_io_error("%s: cannot read", path);
        *rc = -2;
        return NULL;
    }
    if (n > (size_t)RY_LLDP_MAX_BYTES) {
        free(buf);
        *rc = too_big(path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The file's name without directory and extension: the device it is of. */
static char *name_of_file(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot > b ? (size_t)(dot - b) : strlen(b);
    char *s = ry_xmalloc(n + 1);
    memcpy(s, b, n);
    s[n] = '\0';
    return s;
}

/* ---- the neighbours' strings: blocks of the table's own ---------------------------- */

struct ry_lldp_chunk {
    struct ry_lldp_chunk *next;
    size_t used, cap;
    char data[];
};

#define CHUNK (64u << 10)

/* A copy of s[0..n) with a NUL, kept until ry_lldp_free. */
static char *keep(ry_lldp *t, const char *s, size_t n)
{
    struct ry_lldp_chunk *c = t->chunks;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > CHUNK ? n + 1 : CHUNK;
        c = ry_xmalloc(sizeof *c + cap);
        c->used = 0;
        c->cap = cap;
        c->next = t->chunks;
        t->chunks = c;
    }
    char *d = c->data + c->used;
    memcpy(d, s, n);
    d[n] = '\0';
    c->used += n + 1;
    return d;
}

static char *keep_str(ry_lldp *t, const char *s)
{
    return keep(t, s, strlen(s));
}

static ry_lldp_nbr *add_nbr(ry_lldp *t, size_t *cap)
{
    RY_ALLOC_GROW(t->n, t->nn + 1, *cap);
    ry_lldp_nbr *x = &t->n[t->nn++];
    memset(x, 0, sizeof *x);
    return x;
}

static char *dup_str(ry_lldp *t, json_t *s)
{
    return keep_str(t, json_is_string(s) ? json_string_value(s) : "");
}

int ry_lldp_sniff(const char *path)
{
    const char *why;
    FILE *fp = ry_input_fopen(path, &why);
    if (!fp)
        return -1;
    char head[512];
    size_t n = fread(head, 1, sizeof head - 1, fp);
    fclose(fp);
    head[n] = '\0';
    const char *p = head;
    while (*p && isspace((unsigned char)*p))
        p++;
    return *p == '{' || strncmp(p, "Capability codes:", 17) == 0 ||
           strncmp(p, "LocalPort", 9) == 0;
}

/* ---- lldpd's JSON ---------------------------------------------------------------- */

/* A file of JSON documents. The levels that may hold many entries (the
 * documents, their "lldp" object, its "interface" list or object) are
 * walked here; each interface, and every other value, is one small
 * document for Jansson. So memory is the file and one interface's tree, and
 * each interface's line is where its key is, found on the way. */
typedef struct jrd {
    ry_lldp *t;
    const char *buf;
    size_t len;
    size_t cap;                 /* of t->n */
    ry_linepos lines;
} jrd;

static size_t jws(const jrd *r, size_t off)
{
    while (off < r->len && (r->buf[off] == ' ' || r->buf[off] == '\t' || r->buf[off] == '\n' ||
                            r->buf[off] == '\r'))
        off++;
    return off;
}

static int jline(jrd *r, size_t off)
{
    return ry_linepos_at(&r->lines, off, NULL);
}

static int jbad(const char *path, int line, const char *what)
{
    ry_error_at((ry_pos){ path, line, 1 }, "%s; %s", what, json_want);
    return -1;
}

/* An error at buf[off], its line and column. */
static int jbad_at(jrd *r, size_t off, const char *what)
{
    int col, line = ry_linepos_at(&r->lines, off, &col);
    ry_error_at((ry_pos){ r->t->path, line, col }, "%s; %s", what, json_want);
    return -1;
}

/* The JSON value at *off, moved past it; NULL with Jansson's error placed
 * in the file. any 0: an array or object only (a document). */
static json_t *jvalue(jrd *r, size_t *off, int any)
{
    json_error_t je;
    json_t *v = json_loadb(r->buf + *off, r->len - *off, JSON_REJECT_DUPLICATES |
                           JSON_DISABLE_EOF_CHECK | (any ? JSON_DECODE_ANY : 0), &je);
    if (!v) {
        /* Jansson counts from the value; its first line starts mid-line */
        int col0, line = ry_linepos_at(&r->lines, *off, &col0);
        int col = (je.column > 0 ? je.column : 1) + (je.line <= 1 ? col0 - 1 : 0);
        ry_error_at((ry_pos){ r->t->path, line + (je.line > 0 ? je.line - 1 : 0), col },
                    "%s; %s", je.text, json_want);
        return NULL;
    }
    *off += je.position;
    return v;
}

/* The keys of one object, checked for repeats when it ends (sorted), as
 * Jansson's JSON_REJECT_DUPLICATES would. */
typedef struct jkey {
    char *k;
    size_t at;
} jkey;

typedef struct jkeys {
    jkey *v;
    size_t n, cap;
} jkeys;

static int cmp_jkey(const void *x, const void *y)
{
    const jkey *a = x, *b = y;
    int c = strcmp(a->k, b->k);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* 0, or -1 with the first repeated key (in the file's order) reported. */
static int jkeys_check(jrd *r, jkeys *ks)
{
    qsort(ks->v, ks->n, sizeof *ks->v, cmp_jkey);
    size_t dup = (size_t)-1;
    for (size_t i = 1; i < ks->n; i++)
        if (strcmp(ks->v[i].k, ks->v[i - 1].k) == 0 &&
            (dup == (size_t)-1 || ks->v[i].at < ks->v[dup].at))
            dup = i;
    if (dup == (size_t)-1)
        return 0;
    char what[160];
    snprintf(what, sizeof what, "duplicate object key \"%.100s\"", ks->v[dup].k);
    return jbad_at(r, ks->v[dup].at, what);
}

static void jkeys_free(jkeys *ks)
{
    for (size_t i = 0; i < ks->n; i++)
        free(ks->v[i].k);
    free(ks->v);
}

/* What a member's value is read by: the value at *off, moved past it. */
typedef int (*jmember)(jrd *r, void *arg, const char *key, size_t at, size_t *off);

/* The object at *off ('{' there), each member by fn; *off moved past it. */
static int jobject(jrd *r, size_t *off, jmember fn, void *arg)
{
    size_t o = jws(r, *off + 1);
    jkeys ks = { 0 };
    int rc = 0;
    if (o < r->len && r->buf[o] == '}') {
        *off = o + 1;
        return 0;
    }
    for (;;) {
        size_t at = o;
        if (o >= r->len || r->buf[o] != '"') {
            rc = jbad_at(r, o, "string or '}' expected");
            break;
        }
        json_t *k = jvalue(r, &o, 1);
        if (!k) {
            rc = -1;
            break;
        }
        RY_ALLOC_GROW(ks.v, ks.n + 1, ks.cap);
        ks.v[ks.n++] = (jkey){ ry_xstrdup(json_string_value(k)), at };
        json_decref(k);
        o = jws(r, o);
        if (o >= r->len || r->buf[o] != ':') {
            rc = jbad_at(r, o, "':' expected");
            break;
        }
        o = jws(r, o + 1);
        if ((rc = fn(r, arg, ks.v[ks.n - 1].k, at, &o)) < 0)
            break;
        o = jws(r, o);
        if (o < r->len && r->buf[o] == ',') {
            o = jws(r, o + 1);
            continue;
        }
        if (o < r->len && r->buf[o] == '}') {
            o++;
            break;
        }
        rc = jbad_at(r, o, "',' or '}' expected");
        break;
    }
    if (rc == 0)
        rc = jkeys_check(r, &ks);
    jkeys_free(&ks);
    *off = o;
    return rc;
}

/* One interface's neighbour: {"via":..., "chassis": {...}, "port": {...}}. */
static int read_iface(jrd *r, int line, const char *name, json_t *o)
{
    ry_lldp *t = r->t;
    char what[160];
    json_t *ch = json_object_get(o, "chassis"), *port = json_object_get(o, "port");
    if (!json_is_object(o) || !json_is_object(ch) || !json_is_object(port)) {
        snprintf(what, sizeof what, "interface \"%.60s\" has no chassis or no port object", name);
        return jbad(t->path, line, what);
    }
    ry_lldp_nbr *x = add_nbr(t, &r->cap);
    x->line = line;
    x->lport = keep_str(t, name);
    json_t *cid = json_object_get(ch, "id");
    if (json_is_object(cid) && json_object_get(cid, "type")) {
        x->rsys = keep_str(t, "");      /* no system name sent: the chassis alone */
    } else {
        const char *sys = NULL;
        json_t *val = NULL;
        void *it = json_object_iter(ch);
        if (it) {
            sys = json_object_iter_key(it);
            val = json_object_iter_value(it);
        }
        if (!sys || !json_is_object(val) || json_object_iter_next(ch, it)) {
            snprintf(what, sizeof what, "interface \"%.60s\": the chassis is not one system "
                     "name with its id", name);
            return jbad(t->path, line, what);
        }
        x->rsys = keep_str(t, sys);
        cid = json_object_get(val, "id");
    }
    x->rchassis = dup_str(t, json_object_get(cid, "value"));
    json_t *pid = json_object_get(port, "id");
    json_t *pval = json_object_get(pid, "value"), *ptype = json_object_get(pid, "type");
    if (!json_is_string(pval)) {
        snprintf(what, sizeof what, "interface \"%.60s\": the port has no id value", name);
        return jbad(t->path, line, what);
    }
    x->rport_id = dup_str(t, pval);
    x->rport_descr = dup_str(t, json_object_get(port, "descr"));
    x->rport_is_name = json_is_string(ptype) && (strcmp(json_string_value(ptype), "ifname") == 0 ||
                                                 strcmp(json_string_value(ptype), "local") == 0);
    return 0;
}

/* A member of "interface": {"NAME": {...}, ...}. */
static int iface_member(jrd *r, void *arg, const char *key, size_t at, size_t *off)
{
    (void)arg;
    json_t *v = jvalue(r, off, 1);
    int rc = v ? read_iface(r, jline(r, at), key, v) : -1;
    json_decref(v);
    return rc;
}

/* "interface": [{"NAME": {...}}, ...], each entry one interface's object. */
static int iface_list(jrd *r, size_t *off)
{
    size_t o = jws(r, *off + 1);
    if (o < r->len && r->buf[o] == ']') {
        *off = o + 1;
        return 0;
    }
    for (;;) {
        int line = jline(r, o < r->len && r->buf[o] == '{' ? jws(r, o + 1) : o);
        json_t *e = jvalue(r, &o, 1);
        if (!e)
            return -1;
        int rc = 0;
        if (!json_is_object(e) || json_object_size(e) != 1) {
            rc = jbad(r->t->path, line, "an \"interface\" entry is not one interface's object");
        } else {
            const char *k;
            json_t *v;
            json_object_foreach(e, k, v)
                rc = read_iface(r, line, k, v);
        }
        json_decref(e);
        if (rc < 0)
            return -1;
        o = jws(r, o);
        if (o < r->len && r->buf[o] == ',') {
            o = jws(r, o + 1);
            continue;
        }
        if (o < r->len && r->buf[o] == ']') {
            *off = o + 1;
            return 0;
        }
        return jbad_at(r, o, "',' or ']' expected");
    }
}

/* A member of "lldp": {"interface": {...} or [{...}, ...]}. */
static int lldp_member(jrd *r, void *arg, const char *key, size_t at, size_t *off)
{
    (void)arg;
    int is_ifs = strcmp(key, "interface") == 0;
    if (is_ifs && *off < r->len && r->buf[*off] == '{')
        return jobject(r, off, iface_member, NULL);
    if (is_ifs && *off < r->len && r->buf[*off] == '[')
        return iface_list(r, off);
    json_t *v = jvalue(r, off, 1);
    json_decref(v);
    if (v && is_ifs)
        return jbad(r->t->path, jline(r, at), "\"interface\" is neither an object nor a list");
    return v ? 0 : -1;
}

/* {"local-chassis": {"chassis": {"NAME": {"id": {...}}}}} */
static int read_chassis(ry_lldp *t, int line, json_t *lc)
{
    json_t *ch = json_object_get(lc, "chassis");
    void *it = json_is_object(ch) ? json_object_iter(ch) : NULL;
    if (!it || !json_is_object(json_object_iter_value(it)) || json_object_iter_next(ch, it))
        return jbad(t->path, line, "\"local-chassis\" does not hold one chassis by name (lldpcli "
                    "-f json show chassis, with a system name)");
    free(t->local);
    t->local = ry_xstrdup(json_object_iter_key(it));
    json_t *id = json_object_get(json_object_iter_value(it), "id");
    json_t *v = json_object_get(id, "value");
    free(t->local_chassis);
    t->local_chassis = ry_xstrdup(json_is_string(v) ? json_string_value(v) : "");
    return 0;
}

/* A member of a document: "lldp" (show neighbors), "local-chassis" (show
 * chassis); *arg counts the two. */
static int doc_member(jrd *r, void *arg, const char *key, size_t at, size_t *off)
{
    int *known = arg;
    if (strcmp(key, "lldp") == 0) {
        ++*known;
        if (*off < r->len && r->buf[*off] == '{')
            return jobject(r, off, lldp_member, NULL);
        json_t *v = jvalue(r, off, 1);
        int rc = !v ? -1 : json_is_array(v) && json_array_size(v) == 0 ? 0
                 : jbad(r->t->path, jline(r, at), "\"lldp\" is not an object");
        json_decref(v);
        return rc;
    }
    json_t *v = jvalue(r, off, 1);
    int rc = v ? 0 : -1;
    if (v && strcmp(key, "local-chassis") == 0) {
        ++*known;
        rc = read_chassis(r->t, jline(r, at), v);
    }
    json_decref(v);
    return rc;
}

static int read_json(ry_lldp *t, const char *buf, size_t len)
{
    jrd r = { t, buf, len, 0, { 0 } };
    ry_linepos_init(&r.lines, buf);
    size_t off = 0;
    int docs = 0;
    for (;;) {
        off = jws(&r, off);
        if (off >= len)
            break;
        int line = jline(&r, off), known = 0;
        if (buf[off] != '{') {
            json_t *v = jvalue(&r, &off, 0);        /* Jansson's word for what is wrong */
            json_decref(v);
            return v ? jbad(t->path, line, "not an object with \"lldp\" or \"local-chassis\"")
                     : -1;
        }
        if (jobject(&r, &off, doc_member, &known) < 0)
            return -1;
        if (!known)
            return jbad(t->path, line, "not an object with \"lldp\" or \"local-chassis\"");
        docs++;
    }
    if (!docs)
        return jbad(t->path, 1, "no JSON document");
    return 0;
}

/* ---- SONiC's show lldp table ----------------------------------------------------- */

enum { C_LPORT, C_RDEV, C_RPORTID, C_CAP, C_RDESCR, C_N };
static const char *const col_name[C_N] = {
    "LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"
};

/* The lines of the table, read a block at a time. */
typedef struct tlines {
    ry_lines r;
    const char *path;
    int lineno;
    int rc;                     /* -1 (bad line, too large) or -2 (cannot read) once stopped */
} tlines;

/* The next line without its newline (NUL-terminated in place, valid until
 * the next call); NULL at the end or with an error printed (rc). */
static char *next_line(tlines *l)
{
    size_t n;
    int too_long;
    char *s = ry_lines_next(&l->r, &n, &too_long);
    if (!s) {
        if (l->r.err) {
            ry_io_error("%s: cannot read: %s", l->path, strerror(l->r.err_no));
            l->rc = -2;
        } else if (l->r.too_big) {
            l->rc = too_big(l->path);
        }
        return NULL;
    }
    l->lineno++;
    if (n && s[n - 1] == '\n')
        s[--n] = '\0';
    if (n && s[n - 1] == '\r')
        s[--n] = '\0';
    if (too_long || n > RY_LLDP_MAX_LINE) {
        ry_error_at((ry_pos){ l->path, l->lineno, RY_LLDP_MAX_LINE + 1 }, "line longer than %d "
                    "characters; %s", RY_LLDP_MAX_LINE, text_want);
        l->rc = -1;
        return NULL;
    }
    const char *nul = memchr(s, '\0', n);
    if (nul) {
        ry_error_at((ry_pos){ l->path, l->lineno, (int)(nul - s) + 1 }, "a NUL byte in the "
                    "file; %s", text_want);
        l->rc = -1;
        return NULL;
    }
    return s;
}

/* The cell of line (n bytes) between columns from and to, spaces trimmed:
 * its bytes [*a, *b). */
static void cell_span(const char *line, size_t n, size_t from, size_t to, size_t *a, size_t *b)
{
    if (from > n)
        from = n;
    if (to > n)
        to = n;
    while (from < to && line[from] == ' ')
        from++;
    while (to > from && line[to - 1] == ' ')
        to--;
    *a = from;
    *b = to;
}

static char *cell(ry_lldp *t, const char *line, size_t n, size_t from, size_t to)
{
    size_t a, b;
    cell_span(line, n, from, to, &a, &b);
    return keep(t, line + a, b - a);
}

static int tbad(const char *path, int line, int col, const char *what)
{
    ry_error_at((ry_pos){ path, line, col }, "%s; %s", what, text_want);
    return -1;
}

static int is_mac(const char *s)
{
    int hex = 0, colons = 0;
    for (; *s; s++) {
        if (isxdigit((unsigned char)*s))
            hex++;
        else if (*s == ':' || *s == '-')
            colons++;
        else
            return 0;
    }
    return hex == 12 && colons == 5;
}

static int read_text(ry_lldp *t, tlines *l)
{
    size_t cap = 0;
    char *s;
    while ((s = next_line(l)) && strncmp(s, "LocalPort", 9) != 0)
        if (*s && strncmp(s, "Capability codes:", 17) != 0)
            return tbad(t->path, l->lineno, 1, "no LocalPort header before this line");
    if (!s)
        return l->rc ? l->rc : tbad(t->path, l->lineno ? l->lineno : 1, 1, "no LocalPort header");
    int hline = l->lineno;
    char *header = ry_xstrdup(s);       /* the next line may move it */
    size_t hn = strlen(header);
    char *rule = next_line(l);
    size_t from[C_N], to[C_N];
    int ncol = 0, rc = l->rc;
    for (size_t i = 0; rule && rule[i] && ncol <= C_N && rc == 0;) {
        if (rule[i] == ' ') {
            i++;
            continue;
        }
        if (rule[i] != '-') {
            rc = tbad(t->path, l->lineno, (int)i + 1, "the rule under the header holds other "
                      "than dashes and spaces");
            break;
        }
        size_t j = i;
        while (rule[j] == '-')
            j++;
        if (ncol < C_N) {
            from[ncol] = i;
            to[ncol] = j;
        }
        ncol++;
        i = j;
    }
    if (rc == 0 && ncol != C_N)
        rc = tbad(t->path, rule ? l->lineno : hline, 1, "the dashed rule under the header does "
                  "not mark 5 columns");
    if (rc == 0)
        to[C_N - 1] = (size_t)-1;       /* the last column runs to the end of the line */
    for (int c = 0; c < C_N && rc == 0; c++) {
        size_t a, b;
        cell_span(header, hn, from[c], c + 1 < C_N ? from[c + 1] : to[c], &a, &b);
        if (b - a != strlen(col_name[c]) || memcmp(header + a, col_name[c], b - a) != 0) {
            char what[96];
            snprintf(what, sizeof what, "column %d of the header is not %s", c + 1, col_name[c]);
            rc = tbad(t->path, hline, (int)from[c] + 1, what);
        }
    }
    free(header);
    if (rc < 0)
        return rc;
    long long total = -1;
    int total_line = 0;
    while ((s = next_line(l))) {
        int lineno = l->lineno;
        if (strncmp(s, "Total entries displayed:", 24) == 0) {
            char *end;
            errno = 0;
            total = strtoll(s + 24, &end, 10);
            while (*end == ' ')
                end++;
            if (errno || *end || total < 0)
                return tbad(t->path, lineno, 25, "the total is not a count");
            total_line = lineno;
            continue;
        }
        size_t k = strspn(s, "-");
        if (!*s || (k > 0 && !s[k]))
            continue;                   /* the closing rule, empty lines */
        if (total >= 0)
            return tbad(t->path, lineno, 1, "a row after the total");
        size_t n = strlen(s);
        ry_lldp_nbr *x = add_nbr(t, &cap);
        x->line = lineno;
        x->lport = cell(t, s, n, from[C_LPORT], from[C_RDEV]);
        x->rsys = cell(t, s, n, from[C_RDEV], from[C_RPORTID]);
        x->rport_id = cell(t, s, n, from[C_RPORTID], from[C_CAP]);
        x->rport_descr = cell(t, s, n, from[C_RDESCR], to[C_RDESCR]);
        x->rchassis = x->rport_descr + strlen(x->rport_descr);     /* "" */
        x->rport_is_name = x->rport_id[0] && !is_mac(x->rport_id);
        if (!x->lport[0])
            return tbad(t->path, lineno, 1, "a row without LocalPort");
        if (!x->rport_id[0] && !x->rport_descr[0])
            return tbad(t->path, lineno, (int)from[C_RPORTID] + 1, "a row without "
                        "RemotePortID or RemotePortDescr");
    }
    if (l->rc)
        return l->rc;
    if (total >= 0 && (size_t)total != t->nn) {
        char what[120];
        snprintf(what, sizeof what, "the total says %lld entries, the table has %zu", total,
                 t->nn);
        return tbad(t->path, total_line, 25, what);
    }
    return 0;
}

/* ---- entry points ------------------------------------------------------------------- */

/* Reads the open fp of path: JSON when its first byte that is no space is
 * '{', else SONiC's table. */
static int read_file(ry_lldp *t, FILE *fp, const char *path)
{
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && st.st_size > RY_LLDP_MAX_BYTES)
        return too_big(path);           /* before a byte is read */
    int c;
    while ((c = getc(fp)) != EOF && isspace(c))
        ;
    if (ferror(fp) || fseek(fp, 0, SEEK_SET) != 0) {
        ry_io_error("%s: cannot read: %s", path, strerror(errno));
        return -2;
    }
    if (c != '{') {
        tlines l = { .path = path };
        ry_lines_init(&l.r, fp, RY_LLDP_MAX_LINE + 1, RY_LLDP_MAX_BYTES);   /* +1: a '\r' */
        int rc = read_text(t, &l);
        ry_lines_free(&l.r);
        return rc;
    }
    size_t len = 0;
    int rc = 0;
    char *buf = slurp(fp, path, &len, &rc);
    if (!buf)
        return rc;
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        ry_linepos lines;
        ry_linepos_init(&lines, buf);
        rc = tbad(path, ry_linepos_at(&lines, (size_t)(nul - buf), NULL), 1,
                  "a NUL byte in the file");
    } else {
        rc = read_json(t, buf, len);
    }
    free(buf);
    return rc;
}

int ry_lldp_read(const char *path, ry_lldp *t)
{
    memset(t, 0, sizeof *t);
    t->path = ry_xstrdup(path);
    t->local = name_of_file(path);
    t->local_chassis = ry_xstrdup("");
    const char *why = NULL;
    FILE *fp = ry_input_fopen(path, &why);
    int rc;
    if (!fp) {
        ry_io_error("%s: %s", path, why ? why : strerror(errno));
        rc = -2;
    } else {
        rc = read_file(t, fp, path);
        fclose(fp);
    }
    if (rc == 0 && !t->local[0])
        rc = tbad(path, 1, 1, "no device name: the file is named after no switch and holds no "
                  "local-chassis");
    if (rc < 0)
        ry_lldp_free(t);
    return rc;
}

void ry_lldp_free(ry_lldp *t)
{
    if (!t)
        return;
    while (t->chunks) {
        struct ry_lldp_chunk *c = t->chunks;
        t->chunks = c->next;
        free(c);
    }
    free(t->n);
    free(t->path);
    free(t->local);
    free(t->local_chassis);
    memset(t, 0, sizeof *t);
}
