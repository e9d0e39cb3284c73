/* LLDP neighbour tables: lldpd's JSON read with Jansson, SONiC's text table
 * by the columns of its dashed rule. See lldp.h for the formats. */
#include "netfmt/lldp.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/input.h"

static const char json_want[] = "expected the JSON of lldpcli -f json show neighbors";
static const char text_want[] = "expected SONiC's show lldp table";

/* ---- the file ------------------------------------------------------------------ */

/* The whole file, NUL-terminated; NULL with an I/O error printed. */
static char *slurp(const char *path, size_t *len)
{
    const char *why = NULL;
    FILE *fp = ry_input_fopen(path, &why);
    if (!fp) {
        ry_io_error("%s: %s", path, why ? why : strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = ry_xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            if ((long long)cap > RY_LLDP_MAX_BYTES) {
                fclose(fp);
                free(buf);
                ry_error_at((ry_pos){ path, 0, 0 }, "larger than %lld MiB; not an LLDP table",
                            RY_LLDP_MAX_BYTES >> 20);
                *len = (size_t)-1;
                return NULL;
            }
            cap *= 2;
            buf = ry_xrealloc(buf, cap);
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0)
            break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        free(buf);
        ry_io_error("%s: cannot read", path);
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

static int line_at(const char *buf, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off; i++)
        line += buf[i] == '\n';
    return line;
}

static ry_lldp_nbr *add_nbr(ry_lldp *t, size_t *cap)
{
    if (t->nn + 1 > *cap) {
        *cap = *cap ? 2 * *cap : 32;
        t->n = ry_xrealloc(t->n, *cap * sizeof *t->n);
    }
    ry_lldp_nbr *x = &t->n[t->nn++];
    memset(x, 0, sizeof *x);
    return x;
}

static char *dup_str(json_t *s)
{
    return ry_xstrdup(json_is_string(s) ? json_string_value(s) : "");
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

typedef struct jdoc {
    const char *path, *buf;
    size_t start, end;          /* the document's bytes */
    size_t cursor;              /* where the last interface key was found */
} jdoc;

/* The line of the next "name": key in the document, else of its start. */
static int key_line(jdoc *d, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = d->cursor; i + n + 2 <= d->end; i++)
        if (d->buf[i] == '"' && strncmp(d->buf + i + 1, name, n) == 0 && d->buf[i + 1 + n] == '"') {
            d->cursor = i + n + 2;
            return line_at(d->buf, i);
        }
    return line_at(d->buf, d->start);
}

static int jbad(const char *path, int line, const char *what)
{
    ry_error_at((ry_pos){ path, line, 1 }, "%s; %s", what, json_want);
    return -1;
}

/* One interface's neighbour: {"via":..., "chassis": {...}, "port": {...}}. */
static int read_iface(ry_lldp *t, size_t *cap, jdoc *d, const char *name, json_t *o)
{
    int line = key_line(d, name);
    char what[160];
    json_t *ch = json_object_get(o, "chassis"), *port = json_object_get(o, "port");
    if (!json_is_object(o) || !json_is_object(ch) || !json_is_object(port)) {
        snprintf(what, sizeof what, "interface \"%.60s\" has no chassis or no port object", name);
        return jbad(d->path, line, what);
    }
    ry_lldp_nbr *x = add_nbr(t, cap);
    x->line = line;
    x->lport = ry_xstrdup(name);
    json_t *cid = json_object_get(ch, "id");
    if (json_is_object(cid) && json_object_get(cid, "type")) {
        x->rsys = ry_xstrdup("");       /* no system name sent: the chassis alone */
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
            return jbad(d->path, line, what);
        }
        x->rsys = ry_xstrdup(sys);
        cid = json_object_get(val, "id");
    }
    x->rchassis = dup_str(json_object_get(cid, "value"));
    json_t *pid = json_object_get(port, "id");
    json_t *pval = json_object_get(pid, "value"), *ptype = json_object_get(pid, "type");
    if (!json_is_string(pval)) {
        snprintf(what, sizeof what, "interface \"%.60s\": the port has no id value", name);
        return jbad(d->path, line, what);
    }
    x->rport_id = dup_str(pval);
    x->rport_descr = dup_str(json_object_get(port, "descr"));
    x->rport_is_name = json_is_string(ptype) && (strcmp(json_string_value(ptype), "ifname") == 0 ||
                                                 strcmp(json_string_value(ptype), "local") == 0);
    return 0;
}

/* {"lldp": {"interface": {...} or [{...}, ...]}} */
static int read_neighbors(ry_lldp *t, size_t *cap, jdoc *d, json_t *lldp)
{
    int line = line_at(d->buf, d->start);
    if (json_is_array(lldp) && json_array_size(lldp) == 0)
        return 0;
    if (!json_is_object(lldp))
        return jbad(d->path, line, "\"lldp\" is not an object");
    json_t *ifs = json_object_get(lldp, "interface");
    if (!ifs)
        return 0;                       /* no neighbours */
    if (json_is_object(ifs)) {
        const char *k;
        json_t *v;
        json_object_foreach(ifs, k, v)
            if (read_iface(t, cap, d, k, v) < 0)
                return -1;
        return 0;
    }
    if (!json_is_array(ifs))
        return jbad(d->path, line, "\"interface\" is neither an object nor a list");
    for (size_t i = 0; i < json_array_size(ifs); i++) {
        json_t *e = json_array_get(ifs, i);
        if (!json_is_object(e) || json_object_size(e) != 1)
            return jbad(d->path, line, "an \"interface\" entry is not one interface's object");
        const char *k;
        json_t *v;
        json_object_foreach(e, k, v)
            if (read_iface(t, cap, d, k, v) < 0)
                return -1;
    }
    return 0;
}

/* {"local-chassis": {"chassis": {"NAME": {"id": {...}}}}} */
static int read_chassis(ry_lldp *t, jdoc *d, json_t *lc)
{
    json_t *ch = json_object_get(lc, "chassis");
    void *it = json_is_object(ch) ? json_object_iter(ch) : NULL;
    if (!it || !json_is_object(json_object_iter_value(it)) || json_object_iter_next(ch, it))
        return jbad(d->path, line_at(d->buf, d->start),
                    "\"local-chassis\" does not hold one chassis by name (lldpcli -f json show "
                    "chassis, with a system name)");
    free(t->local);
    t->local = ry_xstrdup(json_object_iter_key(it));
    json_t *id = json_object_get(json_object_iter_value(it), "id");
    free(t->local_chassis);
    t->local_chassis = dup_str(json_object_get(id, "value"));
    return 0;
}

static int read_json(ry_lldp *t, const char *buf, size_t len)
{
    size_t off = 0, cap = 0;
    int docs = 0;
    for (;;) {
        while (off < len && isspace((unsigned char)buf[off]))
            off++;
        if (off >= len)
            break;
        json_error_t je;
        json_t *root = json_loadb(buf + off, len - off,
                                  JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &je);
        if (!root) {
            int base = line_at(buf, off);
            int col = je.column > 0 ? je.column : 1;
            if (je.line <= 1) {         /* the first line of a document may start mid-line */
                size_t bol = off;
                while (bol > 0 && buf[bol - 1] != '\n')
                    bol--;
                col += (int)(off - bol);
            }
            ry_error_at((ry_pos){ t->path, base + (je.line > 0 ? je.line - 1 : 0), col },
                        "%s; %s", je.text, json_want);
            return -1;
        }
        jdoc d = { t->path, buf, off, off + je.position, off };
        int rc = 0;
        json_t *lldp = json_object_get(root, "lldp"), *lc = json_object_get(root, "local-chassis");
        if (!json_is_object(root) || (!lldp && !lc))
            rc = jbad(t->path, line_at(buf, off), "not an object with \"lldp\" or "
                      "\"local-chassis\"");
        if (rc == 0 && lc)
            rc = read_chassis(t, &d, lc);
        if (rc == 0 && lldp)
            rc = read_neighbors(t, &cap, &d, lldp);
        json_decref(root);
        if (rc < 0)
            return -1;
        off += je.position;
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

/* The next line of buf from *off, without its newline (NUL-terminated in place). */
static char *next_line(char *buf, size_t len, size_t *off, int *lineno)
{
    if (*off >= len)
        return NULL;
    char *s = buf + *off, *nl = memchr(s, '\n', len - *off);
    if (nl) {
        *nl = '\0';
        *off = (size_t)(nl - buf) + 1;
    } else {
        *off = len;
    }
    size_t n = strlen(s);
    if (n && s[n - 1] == '\r')
        s[n - 1] = '\0';
    (*lineno)++;
    return s;
}

static char *cell(const char *line, size_t from, size_t to)
{
    size_t n = strlen(line);
    if (from > n)
        from = n;
    if (to > n)
        to = n;
    while (from < to && line[from] == ' ')
        from++;
    while (to > from && line[to - 1] == ' ')
        to--;
    char *s = ry_xmalloc(to - from + 1);
    memcpy(s, line + from, to - from);
    s[to - from] = '\0';
    return s;
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

static int read_text(ry_lldp *t, char *buf, size_t len)
{
    size_t off = 0, cap = 0;
    int lineno = 0;
    char *s;
    while ((s = next_line(buf, len, &off, &lineno)) && strncmp(s, "LocalPort", 9) != 0)
        if (*s && strncmp(s, "Capability codes:", 17) != 0)
            return tbad(t->path, lineno, 1, "no LocalPort header before this line");
    if (!s)
        return tbad(t->path, lineno ? lineno : 1, 1, "no LocalPort header");
    int hline = lineno;
    char *header = s;
    char *rule = next_line(buf, len, &off, &lineno);
    size_t from[C_N], to[C_N];
    int ncol = 0;
    for (size_t i = 0; rule && rule[i] && ncol <= C_N;) {
        if (rule[i] == ' ') {
            i++;
            continue;
        }
        if (rule[i] != '-')
            return tbad(t->path, lineno, (int)i + 1, "the rule under the header holds other "
                        "than dashes and spaces");
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
    if (ncol != C_N)
        return tbad(t->path, rule ? lineno : hline, 1, "the dashed rule under the header does "
                    "not mark 5 columns");
    to[C_N - 1] = (size_t)-1;           /* the last column runs to the end of the line */
    for (int c = 0; c < C_N; c++) {
        char *h = cell(header, from[c], c + 1 < C_N ? from[c + 1] : to[c]);
        int okh = strcmp(h, col_name[c]) == 0;
        free(h);
        if (!okh) {
            char what[96];
            snprintf(what, sizeof what, "column %d of the header is not %s", c + 1, col_name[c]);
            return tbad(t->path, hline, (int)from[c] + 1, what);
        }
    }
    long long total = -1;
    int total_line = 0;
    while ((s = next_line(buf, len, &off, &lineno))) {
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
        ry_lldp_nbr *x = add_nbr(t, &cap);
        x->line = lineno;
        x->lport = cell(s, from[C_LPORT], from[C_RDEV]);
        x->rsys = cell(s, from[C_RDEV], from[C_RPORTID]);
        x->rport_id = cell(s, from[C_RPORTID], from[C_CAP]);
        x->rport_descr = cell(s, from[C_RDESCR], to[C_RDESCR]);
        x->rchassis = ry_xstrdup("");
        x->rport_is_name = x->rport_id[0] && !is_mac(x->rport_id);
        if (!x->lport[0])
            return tbad(t->path, lineno, 1, "a row without LocalPort");
        if (!x->rport_id[0] && !x->rport_descr[0])
            return tbad(t->path, lineno, (int)from[C_RPORTID] + 1, "a row without "
                        "RemotePortID or RemotePortDescr");
    }
    if (total >= 0 && (size_t)total != t->nn) {
        char what[120];
        snprintf(what, sizeof what, "the total says %lld entries, the table has %zu", total,
                 t->nn);
        return tbad(t->path, total_line, 25, what);
    }
    return 0;
}

/* ---- entry points ------------------------------------------------------------------- */

int ry_lldp_read(const char *path, ry_lldp *t)
{
    memset(t, 0, sizeof *t);
    t->path = ry_xstrdup(path);
    t->local = name_of_file(path);
    t->local_chassis = ry_xstrdup("");
    size_t len = 0;
    char *buf = slurp(path, &len);
    if (!buf)
        return len == (size_t)-1 ? -1 : -2;
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        int line = line_at(buf, (size_t)(nul - buf));
        free(buf);
        ry_lldp_free(t);
        return tbad(path, line, 1, "a NUL byte in the file");
    }
    size_t i = 0;
    while (i < len && isspace((unsigned char)buf[i]))
        i++;
    int rc = i < len && buf[i] == '{' ? read_json(t, buf, len) : read_text(t, buf, len);
    free(buf);
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
    for (size_t i = 0; i < t->nn; i++) {
        free(t->n[i].lport);
        free(t->n[i].rsys);
        free(t->n[i].rchassis);
        free(t->n[i].rport_id);
        free(t->n[i].rport_descr);
    }
    free(t->n);
    free(t->path);
    free(t->local);
    free(t->local_chassis);
    memset(t, 0, sizeof *t);
}
