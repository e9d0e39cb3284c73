/* The grammar is ibsim's (sim_net.c) as ibnetdiscover writes it: keywords at
 * column 0, a node header followed by one "[port]" line per cabled port, GUID
 * lines before a node, and everything else ignored. LIDs, which ibsim reads
 * only as presets, are required here: routes are tables of LIDs. */
#include "ibfmt/netfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util/diag.h"
#include "io/input.h"
#include "util/hash.h"
#include "util/lines.h"

#define MAX_LINE 1024          /* characters, without the newline */
#define MAX_ERRORS 50
#define MAX_PORTS RY_NF_MAX_PORTS
#define UNICAST_END 0xBFFF

/* A link as listed on one side; resolved once every node is known. */
typedef struct pending {
    int port;          /* local port index */
    char *rid;         /* remote node id */
    int rport;
    int line, col;     /* position of the local "[port]" */
    int rcol, pcol;    /* positions of the remote id and the remote port */
} pending;

typedef struct parser {
    ry_netfile *nf;
    const char *path;
    int line;
    int errors;
    size_t cap_nodes, cap_ports;
    pending *pend;
    int npend, cap_pend;
    int *listed;       /* per port: index of its pending link + 1, 0 = not listed */
    int cur;           /* node whose port lines follow, or -1 */
    unsigned flags;    /* RY_NF_* */
    uint64_t next_guid[4], abs_guid[4];
} parser;

static void perr(parser *ps, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void perr(parser *ps, int line, int col, const char *fmt, ...)
{
    va_list ap;
    ry_pos pos = { ps->path, line, col };
    va_start(ap, fmt);
    ry_verror_at(pos, fmt, ap);
    va_end(ap);
    ps->errors++;
}

/* ---- hashes: GUID -> index and node id -> index ------------------------- */

/* Keyed: GUIDs and ids come from the file, so their collisions must not be
 * choosable (40,000 chosen GUIDs made every lookup a walk of the table). */
static unsigned hash64(uint64_t x)
{
    return (unsigned)ry_hash_u64(x);
}

static unsigned hash_str(const char *s)
{
    return (unsigned)ry_hash_str(s);
}

static unsigned table_mask(int n)
{
    unsigned cap = 16;
    while (cap < (unsigned)n * 2 + 16)
        cap *= 2;
    return cap - 1;
}

/* Inserts key -> val; returns the value already there, or -1. */
static int guid_insert(uint64_t *key, int *val, unsigned mask, uint64_t k, int v)
{
    for (unsigned h = hash64(k) & mask;; h = (h + 1) & mask) {
        if (val[h] < 0) {
            key[h] = k;
            val[h] = v;
            return -1;
        }
        if (key[h] == k)
            return val[h];
    }
}

int ry_netfile_port_by_guid(const ry_netfile *nf, uint64_t guid)
{
    if (!nf->gval)
        return -1;
    for (unsigned h = hash64(guid) & nf->gmask;; h = (h + 1) & nf->gmask) {
        if (nf->gval[h] < 0)
            return -1;
        if (nf->gkey[h] == guid)
            return nf->gval[h];
    }
}

const char *ry_netfile_name(const ry_netfile *nf, int node)
{
    const ry_nf_node *n = &nf->nodes[node];
    return n->desc && n->desc[0] ? n->desc : n->id;
}

void ry_netfile_free(ry_netfile *nf)
{
    for (int i = 0; i < nf->nnodes; i++) {
        free(nf->nodes[i].id);
        free(nf->nodes[i].desc);
    }
    free(nf->path);
    free(nf->nodes);
    free(nf->ports);
    free(nf->lid_port);
    free(nf->gkey);
    free(nf->gval);
    memset(nf, 0, sizeof *nf);
}

/* ---- lexing helpers ------------------------------------------------------ */

static char *skip_ws(char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static int col_of(const char *line, const char *p) { return (int)(p - line) + 1; }

/* A node in a message: its quoted id, and its description when it has one. */
typedef struct label {
    char s[160];
} label;

static label node_label(const ry_nf_node *n)
{
    label l;
    if (n->desc && n->desc[0] && strcmp(n->desc, n->id) != 0)
        snprintf(l.s, sizeof l.s, "\"%s\" (%s)", n->id, n->desc);
    else
        snprintf(l.s, sizeof l.s, "\"%s\"", n->id);
    return l;
}

/* A quoted string at p (which is '"'): returns a copy and sets *end past the
 * closing quote, or NULL when it is not closed. */
static char *quoted(char *p, char **end)
{
    char *q = strchr(p + 1, '"');
    if (!q)
        return NULL;
    size_t n = (size_t)(q - p - 1);
    char *s = ry_xmalloc(n + 1);
    memcpy(s, p + 1, n);
    s[n] = '\0';
    *end = q + 1;
    return s;
}

/* Reads "lid N" and "lmc M" from the words of a comment, stopping at a quote
 * (the next quoted text describes the other end of a link). With want_desc a
 * leading quoted string is the node's description. *lid stays -1 when absent. */
static void parse_comment(char *c, int want_desc, char **desc, int *lid, int *lmc, char **lidp)
{
    char *p = skip_ws(c);
    if (want_desc && *p == '"') {
        char *e;
        char *d = quoted(p, &e);
        if (d) {
            *desc = d;
            p = e;
        }
    }
    while (*p && *p != '"') {
        p = skip_ws(p);
        char *w = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '"')
            p++;
        size_t n = (size_t)(p - w);
        int is_lid = n == 3 && strncmp(w, "lid", 3) == 0;
        int is_lmc = n == 3 && strncmp(w, "lmc", 3) == 0;
        if (!is_lid && !is_lmc)
            continue;
        char *v = skip_ws(p), *e;
        if (!isdigit((unsigned char)*v))
            continue;
        errno = 0;
        long x = strtol(v, &e, 10);
        if (errno || (*e && *e != ' ' && *e != '\t'))
            continue;
        if (is_lid && *lid < 0) {
            *lid = x > 0xffff ? 0x10000 : (int)x;
            if (lidp)
                *lidp = w;
        } else if (is_lmc && *lmc < 0) {
            *lmc = x > 7 ? 8 : (int)x;
        }
        p = e;
    }
}

/* The link's rate: the last word of the comment, after the quoted names, that
 * reads WIDTHxSPEED ("4xNDR", "2xHDR", "4xFDR10"). */
_Static_assert(RY_NF_FDR10 == RY_IB_FDR10 + 1 && RY_NF_XDR == RY_IB_XDR + 1,
               "ry_nf_lane is util/phys.h's generations, one up");

const char *ry_nf_lane_name(int lane)
{
    return lane > 0 && lane < RY_NF_LANE_N ? ry_ib_gens[lane - 1].name : "";
}

double ry_nf_lane_gbps(int lane)
{
    return lane > 0 && lane < RY_NF_LANE_N ? ry_ib_gens[lane - 1].lane : 0;
}

double ry_nf_port_gbps(const ry_nf_port *p)
{
    return p->width * ry_nf_lane_gbps(p->lane);
}

static void parse_rate(const char *c, ry_nf_port *pt)
{
    const char *q = strrchr(c, '"');
    const char *p = q ? q + 1 : c;
    while (*p) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t");
        const char *x = memchr(p, 'x', n);
        if (x && x > p && x - p <= 2) {
            char *e;
            long w = strtol(p, &e, 10);
            size_t sl = n - (size_t)(x + 1 - p);
            for (int k = 1; e == x && w >= 1 && w <= 12 && k < RY_NF_LANE_N; k++)
                if (strlen(ry_nf_lane_name(k)) == sl && strncmp(x + 1, ry_nf_lane_name(k), sl) == 0) {
                    pt->width = (uint8_t)w;
                    pt->lane = (uint8_t)k;
                }
        }
        p += n;
    }
}

/* ---- building -------------------------------------------------------------- */

/* Room for one more record in ports and listed: capacities grow in size_t,
 * and the counts stay below INT_MAX (the file limit keeps them far below). */
static int grow_ports(parser *ps)
{
    ry_netfile *nf = ps->nf;
    if (nf->nports >= INT_MAX - 1) {
        perr(ps, ps->line, 1, "more than %d ports in one file", INT_MAX - 2);
        return -1;
    }
    RY_ALLOC_GROW2(nf->ports, ps->listed, (size_t)nf->nports + 1, ps->cap_ports);
    return 0;
}

static void init_port(parser *ps, int i, int node, int num)
{
    ry_netfile *nf = ps->nf;
    const ry_nf_node *nd = &nf->nodes[node];
    ry_nf_port *pt = &nf->ports[i];
    pt->node = node;
    pt->num = num;
    pt->peer = -1;
    pt->lid = 0;
    pt->lmc = 0;
    pt->guid = nd->kind == RY_NF_SWITCH ? nd->guid : nd->guid + (uint64_t)num;
    pt->line = 0;
    pt->width = pt->lane = 0;
    ps->listed[i] = 0;
}

/* A node with its port 0 only; the ports its lines list are added as they come. */
static int add_node(parser *ps, ry_nf_kind kind, int nports, char *id, char *desc)
{
    ry_netfile *nf = ps->nf;
    if (nf->nnodes >= INT_MAX - 1 || grow_ports(ps) < 0) {
        if (nf->nnodes >= INT_MAX - 1)
            perr(ps, ps->line, 1, "more than %d nodes in one file", INT_MAX - 2);
        free(id);
        free(desc);
        return -1;
    }
    if ((size_t)nf->nnodes == ps->cap_nodes) {
        size_t cap = ps->cap_nodes ? ps->cap_nodes * 2 : 64;
        if (cap > (size_t)INT_MAX)
            cap = (size_t)INT_MAX;
        nf->nodes = ry_xrealloc(nf->nodes, cap * sizeof *nf->nodes);
        ps->cap_nodes = cap;
    }
    int n = nf->nnodes++;
    ry_nf_node *nd = &nf->nodes[n];
    nd->kind = kind;
    nd->nports = nports;
    nd->port0 = nf->nports;
    nd->nrec = 1;
    nd->top = 0;
    nd->guid = ps->next_guid[kind];
    nd->id = id;
    nd->desc = desc;
    nd->line = ps->line;
    ps->next_guid[kind] += kind == RY_NF_SWITCH ? 1 : (uint64_t)nports + 1;
    init_port(ps, nf->nports++, n, 0);
    return n;
}

/* Where port p of node goes among its records (kept by rising number): the
 * index of the first record numbered p or more. */
static int port_slot(const ry_netfile *nf, const ry_nf_node *nd, int p)
{
    int lo = nd->port0 + 1, hi = nd->port0 + nd->nrec;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (nf->ports[mid].num < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int ry_netfile_port_search(const ry_netfile *nf, int node, int p)
{
    const ry_nf_node *nd = &nf->nodes[node];
    if (p == 0)
        return nd->port0;
    if (p < 0 || p > nd->nports)
        return -1;
    int i = port_slot(nf, nd, p);
    return i < nd->port0 + nd->nrec && nf->ports[i].num == p ? i : -1;
}

/* A record for port p of the node being read (the last one, whose records
 * end the array), kept in order; records moved up keep their pending link. */
static int add_port(parser *ps, int node, int p)
{
    ry_netfile *nf = ps->nf;
    ry_nf_node *nd = &nf->nodes[node];
    RY_ASSERT(nd->port0 + nd->nrec == nf->nports);
    if (grow_ports(ps) < 0)
        return -1;
    int at = port_slot(nf, nd, p);
    for (int i = nf->nports; i > at; i--) {
        nf->ports[i] = nf->ports[i - 1];
        ps->listed[i] = ps->listed[i - 1];
        if (ps->listed[i])
            ps->pend[ps->listed[i] - 1].port = i;
    }
    nf->nports++;
    nd->nrec++;
    if (p > nd->top)
        nd->top = p;
    init_port(ps, at, node, p);
    return at;
}

/* "Switch 36 "id" # "desc" enhanced port 0 lid 5 lmc 0", "Ca 2 "id" # "desc"". */
static void parse_header(parser *ps, char *line, ry_nf_kind kind, size_t kwlen)
{
    char *p = skip_ws(line + kwlen), *e;
    ps->cur = -1;
    if (!isdigit((unsigned char)*p)) {
        perr(ps, ps->line, col_of(line, p), "expected the number of ports after '%.*s'",
             (int)kwlen, line);
        return;
    }
    errno = 0;
    long n = strtol(p, &e, 10);
    if (errno || n < 1 || n > MAX_PORTS) {
        perr(ps, ps->line, col_of(line, p), "a node has 1 to %d ports (got '%.*s')", MAX_PORTS,
             (int)(e - p), p);
        return;
    }
    p = skip_ws(e);
    char *id;
    if (*p != '"' || !(id = quoted(p, &e))) {
        perr(ps, ps->line, col_of(line, p), "expected the node id in double quotes");
        return;
    }
    if (!id[0]) {
        perr(ps, ps->line, col_of(line, p), "empty node id");
        free(id);
        return;
    }
    char *desc = NULL, *lidp = NULL;
    int lid = -1, lmc = -1;
    e = skip_ws(e);
    if (*e == '#')
        parse_comment(e + 1, 1, &desc, &lid, &lmc, &lidp);
    int nd = add_node(ps, kind, (int)n, id, desc);
    if (nd < 0)
        return;
    ps->cur = nd;
    if (kind == RY_NF_SWITCH) {
        ry_nf_port *p0 = &ps->nf->ports[ps->nf->nodes[nd].port0];
        p0->line = ps->line;
        int lid_optional = ps->flags & RY_NF_LIDS_OPTIONAL;
        if (lid_optional && lid <= 0)
            p0->lid = 0;
        else if (lid < 0)
            perr(ps, ps->line, (int)strlen(line) + 1,
                 "switch %s has no 'lid N' in its comment: routes need its LID",
                 node_label(&ps->nf->nodes[nd]).s);
        else if (lid == 0 || lid > UNICAST_END)
            perr(ps, ps->line, col_of(line, lidp), "switch %s has LID %d, not a unicast LID "
                 "(1 to 0x%x)", node_label(&ps->nf->nodes[nd]).s, lid, UNICAST_END);
        else
            p0->lid = lid;
        p0->lmc = 0;   /* a switch owns one LID */
    }
}

/* "[1]  "remote id"[2]  # ..." on a switch, "[1](portguid)  "remote id"[2]  # lid N lmc M ..."
 * on an end node. */
static void parse_port_line(parser *ps, char *line)
{
    ry_netfile *nf = ps->nf;
    if (ps->cur < 0) {
        perr(ps, ps->line, 1, "port line outside a node (after a blank or other line)");
        return;
    }
    ry_nf_node *nd = &nf->nodes[ps->cur];
    char *p = line + 1, *e;
    if (!isdigit((unsigned char)*p)) {
        perr(ps, ps->line, 2, "expected a port number after '['");
        return;
    }
    errno = 0;
    long port = strtol(p, &e, 10);
    if (*e != ']') {
        perr(ps, ps->line, col_of(line, e), "expected ']' after the port number");
        return;
    }
    if (errno || port < 1 || port > nd->nports) {
        perr(ps, ps->line, 2, "port %ld of %s is beyond its %d ports", port,
             node_label(nd).s, nd->nports);
        return;
    }
    int pi = ry_netfile_port(nf, ps->cur, (int)port);
    if (pi >= 0 && ps->listed[pi]) {
        perr(ps, ps->line, 2, "port %ld of %s is listed twice (first on line %d)", port,
             node_label(nd).s, ps->pend[ps->listed[pi] - 1].line);
        return;
    }
    if (pi < 0 && (pi = add_port(ps, ps->cur, (int)port)) < 0)
        return;
    p = e + 1;
    /* "[ext N]" groups and, on end nodes, the port GUID in parentheses */
    for (;;) {
        p = skip_ws(p);
        if (*p == '[') {
            char *q = strchr(p, ']');
            p = q ? q + 1 : p + strlen(p);
        } else if (*p == '(') {
            char *g = p + 1;
            errno = 0;
            unsigned long long guid = strtoull(g, &e, 16);
            if (e == g || *e != ')' || errno) {
                perr(ps, ps->line, col_of(line, p), "expected a port GUID in hex inside '( )'");
                return;
            }
            if (nd->kind != RY_NF_SWITCH)
                nf->ports[pi].guid = guid;
            p = e + 1;
        } else {
            break;
        }
    }
    char *rid;
    if (*p != '"' || !(rid = quoted(p, &e))) {
        perr(ps, ps->line, col_of(line, p), "expected the remote node id in double quotes");
        return;
    }
    pending pd = { pi, rid, 1, ps->line, 1, col_of(line, p), 0 };
    p = e;
    if (*p == '[') {
        pd.pcol = col_of(line, p + 1);
        errno = 0;
        long rp = strtol(p + 1, &e, 10);
        if (e == p + 1 || *e != ']' || errno || rp < 0 || rp > MAX_PORTS) {
            perr(ps, ps->line, col_of(line, p + 1), "expected a remote port number in '[ ]'");
            free(rid);
            return;
        }
        pd.rport = (int)rp;
        p = e + 1;
    }
    char *hash = strchr(p, '#');
    if (hash)
        parse_rate(hash + 1, &nf->ports[pi]);
    if (nd->kind != RY_NF_SWITCH) {
        char *lidp = NULL, *nodesc = NULL;
        int lid = -1, lmc = -1;
        if (hash)
            parse_comment(hash + 1, 0, &nodesc, &lid, &lmc, &lidp);
        if ((ps->flags & RY_NF_LIDS_OPTIONAL) && lid <= 0) {
            nf->ports[pi].lid = 0;
        } else if (lid < 0) {
            perr(ps, ps->line, hash ? col_of(line, hash) : (int)strlen(line) + 1,
                 "no '# lid N' after the link of %s port %ld: routes need its LID",
                 node_label(nd).s, port);
        } else if (lmc > 7) {
            perr(ps, ps->line, col_of(line, lidp), "LMC must be 0 to 7");
        } else if (lid == 0 || lid > UNICAST_END) {
            perr(ps, ps->line, col_of(line, lidp),
                 "%s port %ld has LID %d, not a unicast LID (1 to 0x%x)", node_label(nd).s,
                 port, lid, UNICAST_END);
        } else {
            if (lmc < 0)
                lmc = 0;
            if (lid & ((1 << lmc) - 1))
                perr(ps, ps->line, col_of(line, lidp),
                     "LID %d is not a multiple of 2^LMC (LMC %d)", lid, lmc);
            nf->ports[pi].lid = lid;
            nf->ports[pi].lmc = lmc;
        }
    }
    nf->ports[pi].line = ps->line;
    RY_ALLOC_GROW(ps->pend, ps->npend + 1, ps->cap_pend);
    ps->pend[ps->npend++] = pd;
    ps->listed[pi] = ps->npend;
}

/* "switchguid=0x...", "caguid=0x...", "hcaguids=...", "rtguid=..."; '+' is
 * relative to the last absolute value, as in ibsim. */
static void parse_guid_line(parser *ps, char *line, ry_nf_kind kind)
{
    char *s = strpbrk(line, "=+"), *e;
    if (!s) {
        perr(ps, ps->line, 1, "expected '=' or '+' and a GUID");
        return;
    }
    errno = 0;
    unsigned long long v = strtoull(s + 1, &e, 0);
    if (e == s + 1 || errno) {
        perr(ps, ps->line, col_of(line, s + 1), "expected a GUID (hex with 0x)");
        return;
    }
    if (*s == '=')
        ps->abs_guid[kind] = v;
    ps->next_guid[kind] = ps->abs_guid[kind] + (*s == '+' ? v : 0);
}

static int starts_word(const char *line, const char *kw)
{
    size_t n = strlen(kw);
    return strncmp(line, kw, n) == 0 && (line[n] == ' ' || line[n] == '\t');
}

static int starts_key(const char *line, const char *kw)
{
    size_t n = strlen(kw);
    return strncmp(line, kw, n) == 0 && (line[n] == '=' || line[n] == '+');
}

static void parse_line(parser *ps, char *line)
{
    if (line[0] == '[') {
        parse_port_line(ps, line);
        return;
    }
    ps->cur = -1;
    if (starts_word(line, "Switch"))
        parse_header(ps, line, RY_NF_SWITCH, 6);
    else if (starts_word(line, "Ca"))
        parse_header(ps, line, RY_NF_CA, 2);
    else if (starts_word(line, "Hca"))
        parse_header(ps, line, RY_NF_CA, 3);
    else if (starts_word(line, "Rt"))
        parse_header(ps, line, RY_NF_ROUTER, 2);
    else if (starts_key(line, "switchguid"))
        parse_guid_line(ps, line, RY_NF_SWITCH);
    else if (starts_key(line, "caguid") || starts_key(line, "hcaguids"))
        parse_guid_line(ps, line, RY_NF_CA);
    else if (starts_key(line, "rtguid"))
        parse_guid_line(ps, line, RY_NF_ROUTER);
    else if (starts_word(line, "include"))
        ry_warn("%s:%d: 'include' is not followed; the included nodes are missing", ps->path,
                ps->line);
    /* anything else (comments, sysimgguid=, vendid=, devid=, chassis lines) says
     * nothing about routes */
}

/* ---- after the last line: links, GUIDs and LIDs ---------------------------- */

static int find_id(const ry_netfile *nf, const int *tab, unsigned mask, const char *id)
{
    for (unsigned h = hash_str(id) & mask;; h = (h + 1) & mask) {
        if (tab[h] < 0)
            return -1;
        if (strcmp(nf->nodes[tab[h]].id, id) == 0)
            return tab[h];
    }
}

static void resolve_links(parser *ps)
{
    ry_netfile *nf = ps->nf;
    unsigned mask = table_mask(nf->nnodes);
    int *tab = ry_xmalloc(((size_t)mask + 1) * sizeof *tab);
    memset(tab, 0xff, ((size_t)mask + 1) * sizeof *tab);
    for (int i = 0; i < nf->nnodes; i++) {
        int j = find_id(nf, tab, mask, nf->nodes[i].id);
        if (j >= 0) {
            perr(ps, nf->nodes[i].line, 1, "node id \"%s\" is used twice (first on line %d)",
                 nf->nodes[i].id, nf->nodes[j].line);
            continue;
        }
        for (unsigned h = hash_str(nf->nodes[i].id) & mask;; h = (h + 1) & mask)
            if (tab[h] < 0) {
                tab[h] = i;
                break;
            }
    }
    /* where each listed link points: the remote port index, or -1 */
    int *to = ry_xmalloc((size_t)(ps->npend ? ps->npend : 1) * sizeof *to);
    for (int k = 0; k < ps->npend; k++)
        to[k] = -1;
    for (int k = 0; k < ps->npend && ps->errors < MAX_ERRORS; k++) {
        pending *pd = &ps->pend[k];
        int rn = find_id(nf, tab, mask, pd->rid);
        if (rn < 0) {
            perr(ps, pd->line, pd->rcol, "unknown node \"%s\"", pd->rid);
            continue;
        }
        ry_nf_node *r = &nf->nodes[rn];
        if (pd->rport < 1 || pd->rport > r->nports) {
            perr(ps, pd->line, pd->pcol ? pd->pcol : pd->rcol,
                 "port %d of %s is beyond its %d ports", pd->rport, node_label(r).s,
                 r->nports);
            continue;
        }
        to[k] = ry_netfile_port(nf, rn, pd->rport);
        if (to[k] < 0) {
            const ry_nf_port *a = &nf->ports[pd->port];
            perr(ps, pd->line, pd->rcol,
                 "%s port %d is linked to %s port %d, which does not list the link",
                 node_label(&nf->nodes[a->node]).s, a->num, node_label(r).s, pd->rport);
        }
    }
    for (int k = 0; k < ps->npend && ps->errors < MAX_ERRORS; k++) {
        pending *pd = &ps->pend[k];
        if (to[k] < 0)
            continue;
        const ry_nf_port *a = &nf->ports[pd->port], *b = &nf->ports[to[k]];
        label al = node_label(&nf->nodes[a->node]), bl = node_label(&nf->nodes[b->node]);
        const char *an = al.s, *bn = bl.s;
        if (to[k] == pd->port) {
            perr(ps, pd->line, pd->rcol, "port %d of %s is linked to itself", a->num, an);
            continue;
        }
        int back = ps->listed[to[k]] - 1;
        if (back < 0) {
            perr(ps, pd->line, pd->rcol,
                 "%s port %d is linked to %s port %d, which does not list the link",
                 an, a->num, bn, b->num);
        } else if (to[back] >= 0 && to[back] != pd->port) {
            const ry_nf_port *c = &nf->ports[to[back]];
            perr(ps, pd->line, pd->rcol,
                 "%s port %d is linked to %s port %d, but line %d links that port to %s port %d",
                 an, a->num, bn, b->num, ps->pend[back].line,
                 node_label(&nf->nodes[c->node]).s, c->num);
        } else if (to[back] >= 0) {
            nf->ports[pd->port].peer = to[k];
        }
    }
    free(to);
    free(tab);
}

static void index_guids(parser *ps)
{
    ry_netfile *nf = ps->nf;
    /* node GUIDs are unique */
    unsigned mask = table_mask(nf->nnodes);
    uint64_t *key = ry_xmalloc(((size_t)mask + 1) * sizeof *key);
    int *val = ry_xmalloc(((size_t)mask + 1) * sizeof *val);
    memset(val, 0xff, ((size_t)mask + 1) * sizeof *val);
    for (int i = 0; i < nf->nnodes && ps->errors < MAX_ERRORS; i++) {
        int j = guid_insert(key, val, mask, nf->nodes[i].guid, i);
        if (j >= 0)
            perr(ps, nf->nodes[i].line, 1, "node GUID 0x%016llx of %s is also the GUID of %s "
                 "(line %d)", (unsigned long long)nf->nodes[i].guid,
                 node_label(&nf->nodes[i]).s, node_label(&nf->nodes[j]).s, nf->nodes[j].line);
    }
    free(key);
    free(val);
    /* port GUIDs: a switch's port 0 and every cabled end port */
    int n = 0;
    for (int i = 0; i < nf->nports; i++)
        n += nf->ports[i].num == 0 || nf->ports[i].line > 0;
    nf->gmask = table_mask(n);
    nf->gkey = ry_xmalloc(((size_t)nf->gmask + 1) * sizeof *nf->gkey);
    nf->gval = ry_xmalloc(((size_t)nf->gmask + 1) * sizeof *nf->gval);
    memset(nf->gval, 0xff, ((size_t)nf->gmask + 1) * sizeof *nf->gval);
    for (int i = 0; i < nf->nports && ps->errors < MAX_ERRORS; i++) {
        const ry_nf_port *p = &nf->ports[i];
        int sw = ry_netfile_is_switch(nf, p->node);
        if (sw ? p->num != 0 : p->line == 0)
            continue;
        int j = guid_insert(nf->gkey, nf->gval, nf->gmask, p->guid, i);
        /* two switches with one GUID were reported as node GUIDs above */
        if (j >= 0 && !(sw && ry_netfile_is_switch(nf, nf->ports[j].node)))
            perr(ps, p->line, 1, "port GUID 0x%016llx of %s port %d is also the GUID of %s",
                 (unsigned long long)p->guid, node_label(&nf->nodes[p->node]).s, p->num,
                 node_label(&nf->nodes[nf->ports[j].node]).s);
    }
}

static void index_lids(parser *ps)
{
    ry_netfile *nf = ps->nf;
    int max = 0;
    for (int i = 0; i < nf->nports; i++) {
        const ry_nf_port *p = &nf->ports[i];
        if (p->lid > 0 && p->lid + (1 << p->lmc) - 1 > max)
            max = p->lid + (1 << p->lmc) - 1;
    }
    nf->max_lid = max;
    nf->lid_port = ry_xmalloc(((size_t)max + 1) * sizeof *nf->lid_port);
    memset(nf->lid_port, 0xff, ((size_t)max + 1) * sizeof *nf->lid_port);
    for (int i = 0; i < nf->nports && ps->errors < MAX_ERRORS; i++) {
        const ry_nf_port *p = &nf->ports[i];
        if (p->lid <= 0)
            continue;
        for (int l = p->lid; l < p->lid + (1 << p->lmc); l++) {
            int j = nf->lid_port[l];
            if (j >= 0) {
                const ry_nf_port *q = &nf->ports[j];
                perr(ps, p->line, 1, "LID %d of %s port %d is also the LID of %s port %d "
                     "(line %d)", l, node_label(&nf->nodes[p->node]).s, p->num,
                     node_label(&nf->nodes[q->node]).s, q->num, q->line);
                break;
            }
            nf->lid_port[l] = i;
        }
    }
}

int ry_netfile_load(const char *path, ry_netfile *nf)
{
    return ry_netfile_load_flags(path, nf, 0);
}

int ry_netfile_load_flags(const char *path, ry_netfile *nf, unsigned flags)
{
    memset(nf, 0, sizeof *nf);
    nf->path = ry_xstrdup(path);
    const char *why;
    FILE *fp = ry_input_fopen(path, &why);
    if (!fp) {
        ry_io_error("cannot read '%s': %s", path, why);
        return RY_EXIT_IO;
    }
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.nf = nf;
    ps.path = path;
    ps.cur = -1;
    ps.flags = flags;
    ps.next_guid[RY_NF_SWITCH] = ps.abs_guid[RY_NF_SWITCH] = 0x200000;
    ps.next_guid[RY_NF_CA] = ps.abs_guid[RY_NF_CA] = 0x100000;
    ps.next_guid[RY_NF_ROUTER] = ps.abs_guid[RY_NF_ROUTER] = 0x300000;
    ry_lines rdr;
    ry_lines_init(&rdr, fp, MAX_LINE + 1, RY_NETFILE_MAX_BYTES);   /* +1: a '\r' before the newline */
    char *line;
    size_t len;
    int too_long;
    while ((line = ry_lines_next(&rdr, &len, &too_long)) && ps.errors < MAX_ERRORS) {
        ps.line++;
        ssize_t n = (ssize_t)len;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (too_long || n > MAX_LINE) {
            perr(&ps, ps.line, MAX_LINE + 1, "line longer than %d characters", MAX_LINE);
            ps.cur = -1;
            continue;
        }
        if (memchr(line, '\0', (size_t)n)) {
            perr(&ps, ps.line, (int)strlen(line) + 1, "NUL byte in a text file");
            continue;
        }
        parse_line(&ps, line);
    }
    int rd = rdr.err, rderr = rdr.err_no;
    if (rdr.too_big && ps.errors < MAX_ERRORS)
        perr(&ps, ps.line + 1, 1, "the file is larger than %d MiB, more than any topology",
             (int)(RY_NETFILE_MAX_BYTES >> 20));
    ry_lines_free(&rdr);
    fclose(fp);
    int rc = RY_EXIT_OK;
    if (rd) {
        ry_io_error("cannot read '%s': %s", path, strerror(rderr ? rderr : EIO));
        rc = RY_EXIT_IO;
    } else {
        if (ps.errors < MAX_ERRORS)
            resolve_links(&ps);
        if (ps.errors < MAX_ERRORS)
            index_guids(&ps);
        if (ps.errors < MAX_ERRORS)
            index_lids(&ps);
        if (ps.errors >= MAX_ERRORS)
            ry_error("%s: too many errors, giving up", path);
        if (ps.errors)
            rc = RY_EXIT_INPUT;
        else if (nf->nnodes == 0) {
            ry_error_at((ry_pos){ path, 0, 0 }, "no Switch or Ca nodes in the file");
            rc = RY_EXIT_INPUT;
        }
    }
    for (int k = 0; k < ps.npend; k++)
        free(ps.pend[k].rid);
    free(ps.pend);
    free(ps.listed);
    return rc;
}
