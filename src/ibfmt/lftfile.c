/* OpenSM's file engine is lenient: lines it does not recognise are skipped,
 * blocks for unknown switches are skipped, and a later entry for the same LID
 * wins. Those cases are warnings here. What makes OpenSM give up (and fall
 * back to minhop) is an error, and so are a few things it would silently get
 * wrong: LIDs beyond 16 bits or outside the unicast range, and lines longer
 * than its buffer. */
#include "ibfmt/lftfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util/diag.h"
#include "io/input.h"
#include "util/lines.h"

#define MAX_ERRORS 50
#define MAX_WARNINGS 10
/* OpenSM reads with fgets(line, 1023): a longer line is read as two. */
#define MAX_LINE 1021
#define UNICAST_END 0xBFFF

typedef struct lparser {
    const char *path;
    int line, errors;
} lparser;

static void lerr(lparser *ps, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void lerr(lparser *ps, int col, const char *fmt, ...)
{
    va_list ap;
    ry_pos pos = { ps->path, ps->line, col };
    va_start(ap, fmt);
    ry_verror_at(pos, fmt, ap);
    va_end(ap);
    ps->errors++;
}

void ry_lft_free(ry_lft *l)
{
    for (int i = 0; l->row && i < l->nnodes; i++)
        free(l->row[i]);
    free(l->row);
    free(l->none);
    free(l->path);
    memset(l, 0, sizeof *l);
}

static int col_of(const char *line, const char *p) { return (int)(p - line) + 1; }

/* Hex digits at p, as strtoull(p, end, 16) reads plain digits (callers have
 * checked there is no sign or space first); *ovf is set past 64 bits. Files
 * of 90 million entries make this worth having. */
static unsigned long long hex_at(char *p, char **end, int *ovf)
{
    unsigned long long v = 0;
    for (;; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9')
            d = (unsigned)(*p - '0');
        else if (*p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (*p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            break;
        if (v >> 60)
            *ovf = 1;
        v = v << 4 | d;
    }
    *end = p;
    return v;
}


/* The LID an entry is moved to through its portguid, remembered per written
 * LID: every block repeats the same (LID, portguid) pairs. */
typedef struct remap_memo {
    uint64_t guid[0x10000];
    int lid[0x10000];       /* 0: not remembered; -1: GUID unknown */
} remap_memo;

static unsigned long remap(const ry_netfile *nf, remap_memo *m, unsigned long lid,
                           unsigned long long guid, long long *moved)
{
    if (m->lid[lid] && m->guid[lid] == guid) {
        if (m->lid[lid] > 0 && (unsigned long)m->lid[lid] != lid)
            (*moved)++;
        return m->lid[lid] > 0 ? (unsigned long)m->lid[lid] : lid;
    }
    unsigned long to = lid;
    int pi = ry_netfile_port_by_guid(nf, guid);
    if (pi >= 0 && nf->ports[pi].lid > 0) {
        unsigned long base = (unsigned long)nf->ports[pi].lid;
        unsigned long mask = (1ul << nf->ports[pi].lmc) - 1;
        if (lid < base || lid > base + mask)
            to = base + (lid & mask);
    }
    m->guid[lid] = guid;
    m->lid[lid] = pi >= 0 ? (int)to : -1;
    if (to != lid)
        (*moved)++;
    return to;
}

/* A block header: returns the switch node, or -1 (block skipped). */
static int parse_header(lparser *ps, const ry_netfile *nf, ry_lft *l, int *block_line,
                        char *line, char *p, int *unknown)
{
    char *q = strstr(p, " guid 0x"), *e;
    if (!q) {
        lerr(ps, col_of(line, p), "cannot parse the switch header: no ' guid 0x<GUID>'");
        return -1;
    }
    char *g = q + 8;
    errno = 0;
    unsigned long long guid = strtoull(g, &e, 16);
    if (e == g || errno || !isspace((unsigned char)*e)) {
        lerr(ps, col_of(line, g), "cannot parse the switch GUID: it must be hex followed by "
             "whitespace");
        return -1;
    }
    int pi = ry_netfile_port_by_guid(nf, guid);
    if (pi < 0 || !ry_netfile_is_switch(nf, nf->ports[pi].node)) {
        if ((*unknown)++ < MAX_WARNINGS)
            ry_warn("%s:%d: no switch with GUID 0x%016llx in %s; its block is skipped",
                    ps->path, ps->line, guid, nf->path);
        return -1;
    }
    int node = nf->ports[pi].node;
    size_t n = (size_t)l->max_lid + 1;
    if (l->row[node]) {
        ry_warn("%s:%d: a second block for switch %s (the first is on line %d) replaces it",
                ps->path, ps->line, ry_netfile_name(nf, node), block_line[node]);
    } else {
        l->row[node] = ry_xmalloc(n);
        l->blocks++;
    }
    memset(l->row[node], RY_LFT_NONE, n);
    block_line[node] = ps->line;
    return node;
}

/* "0x<lid> <port> ... [portguid 0x<guid>[ :]] ..." for switch node cur. */
static void parse_entry(lparser *ps, const ry_netfile *nf, ry_lft *l, remap_memo *memo,
                        int cur, char *line, char *p, long long *collisions)
{
    char *v = p + 2, *e;
    int ovf = 0;
    unsigned long long lid64 = hex_at(v, &e, &ovf);
    if (e == v || !isspace((unsigned char)*e)) {
        lerr(ps, col_of(line, v), "cannot parse the LID: expected hex digits and whitespace");
        return;
    }
    unsigned long lid = (unsigned long)lid64;
    if (ovf || lid64 > 0xffff) {
        lerr(ps, col_of(line, v), "LID 0x%.*s does not fit in 16 bits", (int)(e - v), v);
        return;
    }
    p = e;
    while (isspace((unsigned char)*p))
        p++;
    unsigned long port = 0;
    int bad = !isdigit((unsigned char)*p);
    for (e = p; !bad && isdigit((unsigned char)*e); e++)
        port = port < 100000 ? port * 10 + (unsigned long)(*e - '0') : port;
    bad = bad || !isspace((unsigned char)*e);
    if (bad) {
        lerr(ps, col_of(line, p), "cannot parse the port: expected a decimal number and "
             "whitespace%s", *p && !strchr(p, '\n') ? " (the last line needs a newline)" : "");
        return;
    }
    const ry_nf_node *sw = &nf->nodes[cur];
    if (port > (unsigned long)sw->nports) {
        lerr(ps, col_of(line, p), "port %lu is beyond the %d ports of switch %s", port,
             sw->nports, ry_netfile_name(nf, cur));
        return;
    }
    /* OpenSM moves the entry to the LID its portguid has now */
    char *q = strstr(e, " portguid 0x");
    if (q) {
        char *g = q + 12;
        ovf = 0;
        unsigned long long guid = hex_at(g, &e, &ovf);
        if (e != g && !ovf && (isspace((unsigned char)*e) || *e == ':'))
            lid = remap(nf, memo, lid, guid, &l->remapped);
    }
    if (lid == 0 || lid > UNICAST_END) {
        lerr(ps, col_of(line, v), "LID 0x%04lx is not a unicast LID (1 to 0x%x)", lid,
             UNICAST_END);
        return;
    }
    if (lid > (unsigned long)l->max_lid) {
        l->ignored++;
        return;
    }
    uint8_t *r = l->row[cur];
    if (r[lid] != RY_LFT_NONE && r[lid] != port)
        (*collisions)++;
    r[lid] = (uint8_t)port;
    l->entries++;
}

int ry_lft_load(const char *path, const ry_netfile *nf, ry_lft *l)
{
    memset(l, 0, sizeof *l);
    l->path = ry_xstrdup(path);
    l->nnodes = nf->nnodes;
    l->max_lid = nf->max_lid;
    l->row = ry_xcalloc((size_t)nf->nnodes, sizeof *l->row);
    l->none = ry_xmalloc((size_t)nf->max_lid + 1);
    memset(l->none, RY_LFT_NONE, (size_t)nf->max_lid + 1);
    const char *why;
    FILE *fp = ry_input_fopen(path, &why);
    if (!fp) {
        ry_io_error("cannot read '%s': %s", path, why);
        return RY_EXIT_IO;
    }
    int *block_line = ry_xcalloc((size_t)nf->nnodes, sizeof *block_line);
    remap_memo *memo = ry_xcalloc(1, sizeof *memo);
    lparser ps = { path, 0, 0 };
    int cur = -1, unknown = 0, mcast = 0;
    long long collisions = 0;
    /* No sane file is longer than a line per switch and LID, each under
     * 128 bytes, and some headers: past that it is not read on. */
    unsigned long long nsw = 0;
    for (int i = 0; i < nf->nnodes; i++)
        nsw += ry_netfile_is_switch(nf, i);
    unsigned long long limit = nsw * ((unsigned long long)nf->max_lid + 2) * 128 + (1ULL << 20);
    ry_lines rd;
    ry_lines_init(&rd, fp, MAX_LINE, limit);
    char *line;
    size_t n;
    int too_long;
    while ((line = ry_lines_next(&rd, &n, &too_long)) && ps.errors < MAX_ERRORS) {
        ps.line++;
        size_t len = n - (line[n - 1] == '\n');
        if (too_long || len > MAX_LINE) {
            lerr(&ps, MAX_LINE + 1, "line longer than %d characters: OpenSM would read it as "
                 "two lines", MAX_LINE);
            continue;
        }
        /* a NUL byte ends the line early, as it does for OpenSM's fgets */
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#' || *p == '\0')
            continue;
        if (strncmp(p, "Multicast mlids", 15) == 0) {
            if (!mcast++)
                ry_warn("%s:%d: a multicast table in a unicast LFT file (OpenSM logs ERR 6303)",
                        path, ps.line);
        } else if (strncmp(p, "Unicast lids", 12) == 0) {
            cur = parse_header(&ps, nf, l, block_line, line, p, &unknown);
        } else if (cur >= 0 && strncmp(p, "0x", 2) == 0) {
            parse_entry(&ps, nf, l, memo, cur, line, p, &collisions);
        }
    }
    int rderr = rd.err_no;
    if (rd.too_big && ps.errors < MAX_ERRORS)
        lerr(&ps, 1, "the file is larger than %llu bytes, more than tables for %llu switches "
             "and %d LIDs can take", limit, nsw, nf->max_lid);
    ry_lines_free(&rd);
    fclose(fp);
    int rc = RY_EXIT_OK;
    if (rd.err) {
        ry_io_error("cannot read '%s': %s", path, strerror(rderr ? rderr : EIO));
        rc = RY_EXIT_IO;
    } else if (ps.errors) {
        if (ps.errors >= MAX_ERRORS)
            ry_error("%s: too many errors, giving up", path);
        rc = RY_EXIT_INPUT;
    } else {
        if (unknown > MAX_WARNINGS)
            ry_warn("%s: %d more blocks for switches not in the topology were skipped", path,
                    unknown - MAX_WARNINGS);
        if (collisions)
            ry_warn("%s: %lld entries replace an earlier entry for the same LID of the same "
                    "switch (the later one counts, as in OpenSM)", path, collisions);
        if (l->ignored)
            ry_warn("%s: %lld entries name LIDs above %d, the highest LID in the topology; "
                    "ignored", path, l->ignored, nf->max_lid);
        for (int i = 0; i < nf->nnodes; i++) {
            if (!ry_netfile_is_switch(nf, i) || l->row[i])
                continue;
            if (l->missing++ < MAX_WARNINGS)
                ry_warn("%s: no block for switch %s (GUID 0x%016llx): it has no routes", path,
                        ry_netfile_name(nf, i), (unsigned long long)nf->nodes[i].guid);
        }
        if (l->missing > MAX_WARNINGS)
            ry_warn("%s: %d more switches have no block", path, l->missing - MAX_WARNINGS);
    }
    free(block_line);
    free(memo);
    return rc;
}
