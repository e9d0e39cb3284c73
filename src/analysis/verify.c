/* Placing a discovered fabric on the plan; see verify.h for the method. */
#include "analysis/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/numfmt.h"
#include "util/escape.h"
#include "util/hash.h"

static void tally(ry_verify *v);

/* ---- names ----------------------------------------------------------------- */

static int is_sw_port(const ry_fabric *f, uint32_t port)
{
    return ry_node_is_switch(ry_port_node(f, port));
}

void ry_verify_plan_end(const ry_fabric *f, uint32_t port, char *dev, size_t n, int *portnum)
{
    if (is_sw_port(f, port)) {
        ry_node_name(f, f->ports[port].owner, dev, n);
        *portnum = ry_port_number(f, port);
    } else {
        ry_ca_desc(f, port, dev, n);
        *portnum = 1;
    }
}

void ry_verify_found_end(const ry_verify *v, ry_vf_port p, char *dev, size_t n, int *portnum)
{
    const ry_netfile *nf = &v->nf[p.file];
    const ry_nf_port *pt = &nf->ports[p.port];
    int32_t m = v->nmap[p.file][pt->node];
    if (m >= 0 && ry_netfile_is_switch(nf, pt->node))
        ry_node_name(v->f, (uint32_t)m, dev, n);
    else    /* a NodeDescription is input: control bytes shown as \xNN */
        ry_escape_to(dev, n, ry_netfile_name(nf, pt->node), RY_ESC_TERM);
    *portnum = pt->num;
}

double ry_verify_planned_gbps(const ry_verify *v, uint32_t link)
{
    return ry_link_gbps(v->f, link);
}

/* ---- placing CAs by description ------------------------------------------- */

/* Unknown devices found while placing, kept until the cables are sorted. */
typedef struct placer {
    ry_verify *v;
    int32_t *ca_at;          /* per planned NIC port: 1 once a CA stands there */
    int32_t *sw_at;          /* per planned switch: 1 once placed */
    uint8_t **why;           /* per file, per node: ry_vu_reason + 1 for unplaced devices */
    int32_t **cand, **votes, **total;    /* per file, per switch node: the last proposal */
    ry_name_index *names;
    ry_verify_accept accept;    /* or NULL: every value proposed */
    void *accept_arg;
} placer;

/* Whether a hint may propose key: value. */
static int accepted(const placer *pc, const char *key, const char *value)
{
    return !pc->accept || pc->accept(pc->accept_arg, key, value);
}

/* "file:line" of a discovered node. */
typedef struct where {
    char s[320];
} where;

static where where_of(const ry_verify *v, int k, int node)
{
    where w;
    snprintf(w.s, sizeof w.s, "%s:%d:1", v->nf[k].path, v->nf[k].nodes[node].line);
    return w;
}

/* Where an error that stops the comparison points: node's record in file k
 * (its header line; the record starts at its first column). */
static void why_at(ry_verify *v, int k, int node)
{
    v->why_at = (ry_pos){ v->nf[k].path, v->nf[k].nodes[node].line, 1 };
}

/* The planned switch that node `node` of file k stands on, or -1 when it
 * is no switch or is not placed. */
static int32_t placed_switch(const ry_verify *v, int k, int node)
{
    int32_t m = v->nmap[k][node];
    return m >= 0 && ry_netfile_is_switch(&v->nf[k], node) ? m : -1;
}

/* The first node of the files placed on planned id m, CAs or switches. */
static void placed_on(const ry_verify *v, int sw, int32_t m, int *fk, int *fi)
{
    for (int k = 0; k < v->nnf; k++)
        for (int i = 0; i < v->nf[k].nnodes; i++)
            if (v->nmap[k][i] == m && ry_netfile_is_switch(&v->nf[k], i) == sw) {
                *fk = k;
                *fi = i;
                return;
            }
    *fk = *fi = 0;
}

static int place_cas(placer *pc, ry_err *err)
{
    ry_verify *v = pc->v;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            if (ry_netfile_is_switch(nf, i))
                continue;
            v->nics_found++;
            const char *d = nf->nodes[i].desc;
            int32_t gp = d ? ry_name_index_nic(pc->names, d) : -1;
            if (gp < 0) {
                pc->why[k][i] = RY_VU_NOT_PLANNED + 1;
                continue;
            }
            if (pc->ca_at[gp]) {
                int ok_, oi;
                placed_on(v, 0, gp, &ok_, &oi);
                why_at(v, k, i);
                ry_err_set(err, NULL, "CA \"%.60s\" is described as \"%.60s\", and so is "
                           "CA \"%.60s\" (%s): a NodeDescription names one NIC; give each "
                           "host its own name", nf->nodes[i].id, d,
                           v->nf[ok_].nodes[oi].id, where_of(v, ok_, oi).s);
                return -1;
            }
            pc->ca_at[gp] = 1;
            v->nmap[k][i] = gp;
            v->nics_placed++;
            /* port 1 is the NIC port; a second port is not in the plan */
            int p1 = ry_netfile_port(nf, i, 1);
            if (p1 >= 0)
                v->pmap[k][p1] = gp;
        }
    }
    return 0;
}

/* ---- placing switches ------------------------------------------------------- */

static void place_switch(placer *pc, int k, int node, uint32_t id)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    const ry_nf_node *nd = &v->nf[k].nodes[node];
    const ry_node *pn = &f->nodes[id];
    v->nmap[k][node] = (int32_t)id;
    pc->sw_at[id - f->first_switch] = 1;
    pc->why[k][node] = 0;
    for (int i = nd->port0 + 1; i < nd->port0 + nd->nrec; i++) {
        uint32_t p = (uint32_t)v->nf[k].ports[i].num;
        v->pmap[k][i] = p <= pn->nports ? (int32_t)(pn->port0 + p - 1) : -1;
    }
    v->subnet_seen[pn->subnet] = 1;
    v->switches_placed++;
}

static int place_by_name(placer *pc, ry_err *err)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            if (!ry_netfile_is_switch(nf, i) || !nf->nodes[i].desc)
                continue;
            int32_t id = ry_name_index_switch(pc->names, nf->nodes[i].desc);
            if (id < 0)
                continue;
            if (pc->sw_at[id - f->first_switch]) {
                int ok_, oi;
                placed_on(v, 1, id, &ok_, &oi);
                why_at(v, k, i);
                ry_err_set(err, NULL, "switch \"%.60s\" is described as \"%.60s\", and so "
                           "is switch \"%.60s\" (%s): a planned switch's name belongs to one "
                           "switch; correct the description of one of them",
                           nf->nodes[i].id, nf->nodes[i].desc, v->nf[ok_].nodes[oi].id,
                           where_of(v, ok_, oi).s);
                return -1;
            }
            place_switch(pc, k, i, (uint32_t)id);
        }
    }
    return 0;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The planned switch most of a discovered switch's cables point to: each
 * cable to a placed device names the planned peer of that device's port. */
static void propose(placer *pc, int k, int node, int32_t *scratch, int taken_too)
{
    const ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    const ry_netfile *nf = &v->nf[k];
    const ry_nf_node *nd = &nf->nodes[node];
    int n = 0, total = 0;
    for (int i = nd->port0 + 1; i < nd->port0 + nd->nrec; i++) {
        int32_t peer = nf->ports[i].peer;
        if (peer < 0)
            continue;
        int32_t x = v->pmap[k][peer];
        if (x < 0 || f->ports[x].peer < 0)
            continue;
        uint32_t s = f->ports[f->ports[x].peer].owner;
        if (!ry_node_is_switch(&f->nodes[s]))
            continue;
        total++;
        if (taken_too || !pc->sw_at[s - f->first_switch])
            scratch[n++] = (int32_t)s;
    }
    qsort(scratch, (size_t)n, sizeof *scratch, cmp_i32);
    int32_t best = -1;
    int bestn = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && scratch[j] == scratch[i])
            j++;
        if (j - i > bestn) {
            bestn = j - i;
            best = scratch[i];
        }
        i = j;
    }
    pc->cand[k][node] = best;
    pc->votes[k][node] = bestn;
    pc->total[k][node] = total;
}

typedef struct proposal {
    int32_t votes, file, node, sw;
} proposal;

static int cmp_proposal(const void *a, const void *b)
{
    const proposal *x = a, *y = b;
    if (x->votes != y->votes)
        return x->votes > y->votes ? -1 : 1;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return (x->node > y->node) - (x->node < y->node);
}

static void place_by_structure(placer *pc)
{
    ry_verify *v = pc->v;
    int32_t scratch[RY_NF_MAX_PORTS + 1];
    size_t cap = 0;
    for (int k = 0; k < v->nnf; k++)
        cap += (size_t)v->nf[k].nnodes;
    proposal *props = ry_xmalloc((cap ? cap : 1) * sizeof *props);
    for (;;) {
        size_t np = 0;
        for (int k = 0; k < v->nnf; k++) {
            const ry_netfile *nf = &v->nf[k];
            for (int i = 0; i < nf->nnodes; i++) {
                if (!ry_netfile_is_switch(nf, i) || v->nmap[k][i] >= 0)
                    continue;
                propose(pc, k, i, scratch, 0);
                if (pc->cand[k][i] >= 0 && 2 * pc->votes[k][i] > pc->total[k][i])
                    props[np++] = (proposal){ pc->votes[k][i], k, i, pc->cand[k][i] };
            }
        }
        qsort(props, np, sizeof *props, cmp_proposal);
        int placed = 0;
        for (size_t i = 0; i < np; i++) {
            const proposal *p = &props[i];
            if (pc->sw_at[(uint32_t)p->sw - v->f->first_switch])
                continue;
            place_switch(pc, p->file, p->node, (uint32_t)p->sw);
            placed++;
        }
        if (!placed)
            break;
    }
    free(props);
    /* what the switches left over were told, for their findings */
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            if (!ry_netfile_is_switch(nf, i) || v->nmap[k][i] >= 0)
                continue;
            propose(pc, k, i, scratch, 1);
            int r = pc->total[k][i] == 0                     ? RY_VU_NO_VOTES
                    : 2 * pc->votes[k][i] > pc->total[k][i]   ? RY_VU_TAKEN
                                                              : RY_VU_NO_MAJORITY;
            pc->why[k][i] = (uint8_t)(r + 1);
        }
    }
}

/* ---- fail closed ---------------------------------------------------------- */

/* The planned subnet of a placed discovered node, or -1. */
static int32_t placed_subnet(const ry_verify *v, int k, int node)
{
    const ry_fabric *f = v->f;
    int32_t m = v->nmap[k][node];
    if (m < 0)
        return -1;
    if (ry_netfile_is_switch(&v->nf[k], node))
        return f->nodes[m].subnet;
    int32_t pp = f->ports[m].peer;
    return pp < 0 ? -1 : ry_port_node(f, (uint32_t)pp)->subnet;
}

/* A switch whose description puts it in one subnet while most of its cables
 * to placed devices lead to another came from another subnet's file (or
 * another plan's): routing it as found would join two subnets. */
static int check_subnets(ry_verify *v, ry_err *err)
{
    const ry_fabric *f = v->f;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            int32_t m = placed_switch(v, k, i);
            if (m < 0)
                continue;
            int32_t own = f->nodes[m].subnet;
            int same = 0, other = 0, first = -1;
            const ry_nf_node *nd = &nf->nodes[i];
            for (int q = nd->port0 + 1; q < nd->port0 + nd->nrec; q++) {
                int32_t peer = nf->ports[q].peer;
                int32_t sn = peer < 0 ? -1 : placed_subnet(v, k, nf->ports[peer].node);
                if (sn < 0)
                    continue;
                if (sn == own)
                    same++;
                else if (other++ == 0)
                    first = q;
            }
            if (other <= same)
                continue;
            const ry_nf_port *fp = &nf->ports[first], *pp = &nf->ports[fp->peer];
            int32_t pm = v->nmap[k][pp->node];
            char name[96], there[160];
            ry_node_name(f, (uint32_t)m, name, sizeof name);
            if (ry_netfile_is_switch(nf, pp->node))
                ry_node_name(f, (uint32_t)pm, there, sizeof there);
            else
                ry_ca_desc(f, (uint32_t)pm, there, sizeof there);
            why_at(v, k, i);
            ry_err_set(err, NULL, "switch \"%.60s\" is described as \"%.60s\", the plan's "
                       "%s of plane %d, but %d of its %d cables to devices of the plan lead to "
                       "another subnet (port %d to %s, plane %d): a switch of another subnet "
                       "or plan; correct its description, or give each subnet's devices in "
                       "their own file", nd->id, nd->desc ? nd->desc : "",
                       name, f->nodes[m].plane, other, same + other, fp->num, there,
                       ry_netfile_is_switch(nf, pp->node) ? f->nodes[pm].plane
                           : ry_port_node(f, (uint32_t)f->ports[pm].peer)->plane);
            return -1;
        }
    }
    return 0;
}

/* ---- names the plan does not know --------------------------------------------- */

/* A name split around its last run of digits: "dgx0042" is "dgx", 42 (4
 * digits), "". */
typedef struct shape {
    const char *name;       /* borrowed */
    size_t pre, dig;        /* lengths of the prefix and of the digits */
    long long num;
    int file, node;
} shape;

static int shape_of(const char *name, size_t len, int skip, shape *sh)
{
    size_t e = len, b = len;
    for (int r = 0; r <= skip; r++) {
        e = b;
        while (e > 0 && !(name[e - 1] >= '0' && name[e - 1] <= '9'))
            e--;
        b = e;
        while (b > 0 && name[b - 1] >= '0' && name[b - 1] <= '9')
            b--;
        if (e == b)
            return -1;
    }
    sh->name = name;
    if (e - b > 12)
        return -1;
    sh->pre = b;
    sh->dig = e - b;
    sh->num = 0;
    for (size_t i = b; i < e; i++)
        sh->num = sh->num * 10 + (name[i] - '0');
    return 0;
}

/* The end of the host in a NodeDescription "HOST NIC". */
static size_t host_len(const char *d)
{
    const char *sp = strchr(d, ' ');
    return sp ? (size_t)(sp - d) : strlen(d);
}

/* Same prefix and suffix (the text around the number)? */
static int same_shape(const shape *a, size_t alen, const shape *b, size_t blen)
{
    if (!a->dig || !b->dig)
        return 0;   /* no number */
    size_t as = alen - a->pre - a->dig, bs = blen - b->pre - b->dig;
    return a->pre == b->pre && as == bs && memcmp(a->name, b->name, a->pre) == 0 &&
           memcmp(a->name + a->pre + a->dig, b->name + b->pre + b->dig, as) == 0;
}

/* The pattern most names of len(i) share, as naming.* writes it: prefix,
 * {n} when the numbers start at 0 (else {n1}), a width when they are
 * zero-padded, suffix. Returns the index in sh of its first name and sets
 * *count, or -1 when no name has a number (or the text holds braces). */
static int common_pattern(shape *sh, const size_t *len, int n, char *pat, size_t cap,
                          long long *base, int *count)
{
    /* the number is the run of digits that varies ("ib-l{n1:02}:MQM9700"): the
     * run, from the last, under which most names share the text around it */
    int skip = 0, most = 0;
    for (int r = 0; r < 4; r++) {
        int got = 0;
        shape a, x;
        if (n == 0 || shape_of(sh[0].name, len[0], r, &a) < 0)
            break;
        long long first = a.num;
        int differs = 0;
        for (int i = 0; i < n; i++)
            if (shape_of(sh[i].name, len[i], r, &x) == 0 && same_shape(&a, len[0], &x, len[i])) {
                got++;
                differs |= x.num != first;
            }
        if (differs && got > most) {
            most = got;
            skip = r;
        }
    }
    for (int i = 0; i < n; i++)
        if (shape_of(sh[i].name, len[i], skip, &sh[i]) < 0)
            sh[i].pre = sh[i].dig = 0;      /* same_shape matches it with nothing */
    int best = -1, bestn = 0;
    /* a few candidates are enough: the names of one fabric share one shape */
    for (int c = 0; c < n && c < 8; c++) {
        int cnt = 0;
        for (int i = 0; i < n; i++)
            cnt += same_shape(&sh[c], len[c], &sh[i], len[i]);
        if (cnt > bestn) {
            bestn = cnt;
            best = c;
        }
    }
    if (best < 0)
        return -1;
    long long lo = -1, hi = -1;
    int padded = 0, wide = 1;
    for (int i = 0; i < n; i++)
        if (same_shape(&sh[best], len[best], &sh[i], len[i])) {
            if (lo < 0 || sh[i].num < lo)
                lo = sh[i].num;
            if (sh[i].num > hi)
                hi = sh[i].num;
            padded |= sh[i].dig > 1 && sh[i].name[sh[i].pre] == '0';
            wide &= sh[i].dig == sh[best].dig;
        }
    if (bestn > 1 && lo == hi)
        return -1;      /* one number on every name: a model, not a count ("MT4129") */
    const shape *b = &sh[best];
    size_t suf = len[best] - b->pre - b->dig;
    if (memchr(b->name, '{', len[best]) || memchr(b->name, '}', len[best]))
        return -1;
    char w[16] = "";
    if (padded && wide)
        snprintf(w, sizeof w, ":0%d", (int)b->dig);
    snprintf(pat, cap, "%.*s{%s%s}%.*s", (int)(b->pre > 64 ? 64 : b->pre), b->name,
             lo == 0 ? "n" : "n1", w, (int)(suf > 64 ? 64 : suf), b->name + b->pre + b->dig);
    *base = lo == 0 ? 0 : 1;
    *count = bestn;
    return best;
}

/* How the fabric names its switches, by the tier its cables give it (1: a
 * CA hangs off it), into b: "leaves are named like "ib-l01" (naming.leaf:
 * "ib-l{n1:02}")". Nothing when they carry no numbered names. */
static void switch_names(const placer *pc, ry_buf *b)
{
    const ry_verify *v = pc->v;
    static const char *const key[] = { "", "naming.leaf", "naming.spine", "naming.core" };
    static const char *const what[] = { "", "leaves", "spines", "cores" };
    size_t cap = 1;
    for (int k = 0; k < v->nnf; k++)
        cap += (size_t)v->nf[k].nnodes;
    shape *sh = ry_xmalloc(cap * sizeof *sh);
    size_t *len = ry_xmalloc(cap * sizeof *len);
    uint8_t *tier = ry_xmalloc(cap);
    int n = 0;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        /* a switch with a CA below is a leaf, one with a leaf below a spine, else a core */
        uint8_t *leaf = ry_xcalloc((size_t)nf->nnodes + 1, 1);
        for (int i = 0; i < nf->nports; i++) {
            int32_t p = nf->ports[i].peer;
            if (p >= 0 && ry_netfile_is_switch(nf, nf->ports[i].node) &&
                !ry_netfile_is_switch(nf, nf->ports[p].node))
                leaf[nf->ports[i].node] = 1;
        }
        for (int i = 0; i < nf->nnodes; i++) {
            const ry_nf_node *nd = &nf->nodes[i];
            if (!ry_netfile_is_switch(nf, i) || !nd->desc || v->nmap[k][i] >= 0)
                continue;   /* placed by its name: the plan names it so */
            int t = leaf[i] ? 1 : 3;
            for (int q = nd->port0 + 1; q < nd->port0 + nd->nrec && t == 3; q++) {
                int32_t p = nf->ports[q].peer;
                if (p >= 0 && leaf[nf->ports[p].node])
                    t = 2;
            }
            size_t l = strlen(nd->desc);
            if (shape_of(nd->desc, l, 0, &sh[n]) == 0) {
                len[n] = l;
                tier[n] = (uint8_t)t;
                sh[n].file = k;
                sh[n++].node = i;
            }
        }
        free(leaf);
    }
    for (int t = 1; t <= 3; t++) {
        /* the names of tier t first, in order */
        int m = 0;
        for (int i = 0; i < n; i++)
            if (tier[i] == t) {
                shape x = sh[m];
                size_t y = len[m];
                uint8_t z = tier[m];
                sh[m] = sh[i];
                len[m] = len[i];
                tier[m] = tier[i];
                sh[i] = x;
                len[i] = y;
                tier[i] = z;
                m++;
            }
        char pat[160];
        long long base;
        int cnt, c = common_pattern(sh, len, m, pat, sizeof pat, &base, &cnt);
        if (c >= 0 && accepted(pc, key[t], pat))
            ry_buf_printf(b, "\n  %s are named like \"%.60s\" (%s: \"%s\" would name %s of them; "
                          "without it they are placed by their cables)", what[t], sh[c].name,
                          key[t], pat, ry_n(cnt));
        else if (c >= 0)
            ry_buf_printf(b, "\n  %s are named like \"%.60s\", which no %s the spec accepts "
                          "names (\"%s\" is refused): they are placed by their cables",
                          what[t], sh[c].name, key[t], pat);
        for (int i = 0; i < m; i++)
            tier[i] = 0;   /* done */
    }
    free(sh);
    free(len);
    free(tier);
}

/* Too few CAs carry the plan's NIC names to compare anything: v->why says
 * how the fabric names its hosts and which spec key takes that. */
static int check_names(placer *pc, ry_err *err)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    if (v->nics_found == 0 || v->nics_placed * 2 >= v->nics_found)
        return 0;
    size_t cap = (size_t)v->nics_found + 1;
    shape *sh = ry_xmalloc(cap * sizeof *sh);
    size_t *len = ry_xmalloc(cap * sizeof *len);
    int n = 0, first_k = -1, first_i = 0;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            const char *d = nf->nodes[i].desc;
            if (ry_netfile_is_switch(nf, i) || v->nmap[k][i] >= 0)
                continue;
            if (first_k < 0) {
                first_k = k;
                first_i = i;
            }
            if (!d || shape_of(d, host_len(d), 0, &sh[n]) < 0)
                continue;
            len[n] = host_len(d);
            sh[n].file = k;
            sh[n++].node = i;
        }
    }
    int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    long long servers = f->gpus / gpn;
    char pat[160], plan0[160], host[160], want[320];
    long long base = 1;
    int cnt = 0, c = common_pattern(sh, len, n, pat, sizeof pat, &base, &cnt);
    ry_ca_desc(f, 0, plan0, sizeof plan0);
    ry_buf b;
    ry_buf_init(&b);
    const ry_nf_node *fn = &v->nf[first_k].nodes[first_i];
    why_at(v, first_k, first_i);
    ry_buf_printf(&b, "%s of the %s CAs found are named as no NIC of the plan, so the "
                  "fabric cannot be compared with it (the plan names its NICs like \"%s\")",
                  ry_n(v->nics_found - v->nics_placed), ry_n(v->nics_found), plan0);
    if (c < 0) {
        ry_buf_printf(&b, ":\n  NodeDescriptions such as \"%.60s\" name no numbered host; a host "
                      "whose rdma service has not run keeps its NIC's default description: "
                      "set them to \"HOST NIC\" (node001 mlx5_0) and discover again",
                      fn->desc ? fn->desc : fn->id);
    } else {
        /* what the pattern would place: the host numbered so, with the NIC as found */
        long long hits = 0;
        int ex = -1;
        for (int i = 0; i < n; i++) {
            if (!same_shape(&sh[c], len[c], &sh[i], len[i]))
                continue;
            long long idx = sh[i].num - base;
            if (idx < 0 || idx >= servers)
                continue;
            ry_host_name(f, idx, host, sizeof host);
            snprintf(want, sizeof want, "%s%s", host, sh[i].name + len[i]);
            if (ry_name_index_nic(pc->names, want) >= 0 && hits++ == 0)
                ex = i;
        }
        int ok = accepted(pc, "naming.node", pat);
        if (ok)
            ry_buf_printf(&b, ":\n  the fabric names its hosts like \"%.*s\": set naming.node: "
                          "\"%s\" in the spec", (int)(len[c] > 60 ? 60 : len[c]), sh[c].name, pat);
        else
            ry_buf_printf(&b, ":\n  the fabric names its hosts like \"%.*s\", which no naming.node "
                          "the spec accepts names (\"%s\" is refused): set the hosts' "
                          "NodeDescriptions to the plan's names and discover again",
                          (int)(len[c] > 60 ? 60 : len[c]), sh[c].name, pat);
        if (ok && ex >= 0) {
            ry_host_name(f, sh[ex].num - base, host, sizeof host);
            ry_buf_printf(&b, "; then \"%.80s\" is the plan's \"%s%.40s\" (%s of the %s CAs "
                          "would match)", sh[ex].name, host, sh[ex].name + len[ex], ry_n(hits),
                          ry_n(v->nics_found));
        } else if (ok) {
            ry_buf_printf(&b, "; even then no CA would match: their NIC names (\"%.80s\") or "
                          "numbers are not the plan's (its node model names the NICs)",
                          sh[c].name);
        }
    }
    switch_names(pc, &b);
    free(sh);
    free(len);
    v->why = b.data;
    ry_err_set(err, NULL, "%s", b.data);
    return -1;
}

/* ---- sorting the cables ------------------------------------------------------ */

typedef struct sorter {
    ry_verify *v;
    ry_vf_finding *x;
    size_t n, cap;
} sorter;

static ry_vf_finding *add_finding(sorter *s, int kind)
{
    RY_ALLOC_GROW(s->x, s->n + 1, s->cap);
    ry_vf_finding *x = &s->x[s->n++];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)kind;
    x->link = -1;
    x->fa.file = x->fb.file = -1;
    x->cand = -1;
    s->v->count[kind]++;
    return x;
}

/* Tier of a planned port's node (a NIC: 0). */
static int port_tier(const ry_fabric *f, int32_t port)
{
    return ry_port_node(f, (uint32_t)port)->tier;
}

/* The leaf relation of a NIC and the leaf it is found on. */
static int nic_class(const ry_fabric *f, uint32_t nic, uint32_t found_leaf_port)
{
    const ry_node *q = ry_port_node(f, found_leaf_port);
    int32_t pp = f->ports[nic].peer;
    if (pp < 0 || q->tier != 1)
        return RY_VC_OTHER;
    const ry_node *p = ry_port_node(f, (uint32_t)pp);
    const ry_node *g = ry_port_node(f, nic);
    if (p == q)
        return RY_VC_PORT_SWAP;
    if (p->plane != q->plane)
        return RY_VC_PLANE_SWAP;
    if (q->rail >= 0 && (g->rail < q->rail || g->rail >= q->rail + q->nrails))
        return RY_VC_RAIL_SWAP;
    if (p->group != q->group)
        return RY_VC_UNIT_SWAP;
    return RY_VC_OTHER;
}

/* Class of a cable of planned link l found between planned ports lo and hi. */
static int miswired_class(const ry_fabric *f, uint32_t l, int32_t lo, int32_t hi)
{
    const ry_link *pl = &f->links[l];
    if (lo >= 0 && hi >= 0 && !is_sw_port(f, (uint32_t)lo) && is_sw_port(f, (uint32_t)hi))
        return nic_class(f, (uint32_t)lo, (uint32_t)hi);
    if (lo < 0 || hi < 0 || !is_sw_port(f, (uint32_t)lo) || !is_sw_port(f, pl->lo))
        return RY_VC_OTHER;
    if (f->ports[lo].owner == f->ports[pl->lo].owner &&
        f->ports[hi].owner == f->ports[pl->hi].owner)
        return RY_VC_PORT_SWAP;
    return RY_VC_UPLINK;
}

/* The unplaced device at either end of a cable, reported once per device. */
static int unknown_end(sorter *s, uint8_t **why, uint8_t **told, ry_vf_port a, ry_vf_port b,
                       placer *pc)
{
    ry_verify *v = s->v;
    ry_vf_port ends[2] = { a, b };
    int any = 0;
    for (int e = 0; e < 2; e++) {
        const ry_nf_port *pt = &v->nf[ends[e].file].ports[ends[e].port];
        int k = ends[e].file;
        if (!why[k][pt->node])
            continue;
        any = 1;
        if (told[k][pt->node])
            continue;
        told[k][pt->node] = 1;
        ry_vf_finding *x = add_finding(s, RY_VF_UNKNOWN);
        x->fa = ends[e];
        x->fb = ends[1 - e];
        x->reason = (uint8_t)(why[k][pt->node] - 1);
        if (ry_netfile_is_switch(&v->nf[k], pt->node)) {
            x->cand = pc->cand[k][pt->node];
            x->votes = pc->votes[k][pt->node];
            x->total = pc->total[k][pt->node];
        }
    }
    return any;
}

/* A found cable that is not a planned link: claims the planned link of its
 * lower end, else of its upper end, when that link is not found in place. */
static void sort_other(sorter *s, ry_vf_port a, ry_vf_port b, int32_t ka, int32_t kb,
                       uint8_t *claimed)
{
    ry_verify *v = s->v;
    const ry_fabric *f = v->f;
    for (int e = 0; e < 2; e++) {
        int32_t anchor = e == 0 ? ka : kb;
        if (anchor < 0 || f->ports[anchor].link < 0)
            continue;
        int32_t l = f->ports[anchor].link;
        if (v->state[l] != RY_VL_UNSEEN || claimed[l])
            continue;
        claimed[l] = 1;
        ry_vf_finding *x = add_finding(s, RY_VF_MISWIRED);
        x->link = l;
        x->fa = a;
        x->fb = b;
        x->moved_hi = e == 0;
        x->cls = (uint8_t)miswired_class(f, (uint32_t)l, ka, kb);
        v->state[l] = x->cls == RY_VC_PORT_SWAP ? RY_VL_ON_SWITCH : RY_VL_MOVED;
        if ((v->flags & RY_VERIFY_ROUTED) && v->state[l] == RY_VL_MOVED && ka >= 0 && kb >= 0 &&
            is_sw_port(f, (uint32_t)ka) && is_sw_port(f, (uint32_t)kb) &&
            port_tier(f, ka) == port_tier(f, (int32_t)f->links[l].lo) &&
            port_tier(f, kb) == port_tier(f, (int32_t)f->links[l].hi))
            v->state[l] = RY_VL_PEERED;
        return;
    }
    ry_vf_finding *x = add_finding(s, RY_VF_UNEXPECTED);
    x->fa = a;
    x->fb = b;
}

/* The found cables in file order, each once (from its lower-numbered port). */
typedef struct found_link {
    ry_vf_port a, b;
    int32_t ka, kb;
} found_link;

static void orient(const ry_fabric *f, found_link *c)
{
    int ta = c->ka >= 0 ? port_tier(f, c->ka) : 0, tb = c->kb >= 0 ? port_tier(f, c->kb) : 0;
    if (ta > tb || (ta == tb && c->ka > c->kb)) {
        ry_vf_port t = c->a;
        c->a = c->b;
        c->b = t;
        int32_t u = c->ka;
        c->ka = c->kb;
        c->kb = u;
    }
}

static double found_gbps(const ry_verify *v, ry_vf_port a, ry_vf_port b)
{
    double x = ry_nf_port_gbps(&v->nf[a.file].ports[a.port]);
    double y = ry_nf_port_gbps(&v->nf[b.file].ports[b.port]);
    return x > 0 && y > 0 ? (x < y ? x : y) : (x > 0 ? x : y);
}

static void sort_cables(placer *pc)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    sorter s = { v, NULL, 0, 0 };
    uint8_t *claimed = ry_xcalloc(f->nlinks ? f->nlinks : 1, 1);
    uint8_t **told = ry_xcalloc((size_t)v->nnf, sizeof *told);
    size_t nfound = 0, capf = 0;
    found_link *fl = NULL;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        told[k] = ry_xcalloc((size_t)nf->nnodes + 1, 1);
        for (int i = 0; i < nf->nports; i++) {
            int32_t j = nf->ports[i].peer;
            if (j < i)
                continue;
            found_link c = { { k, i }, { k, j }, v->pmap[k][i], v->pmap[k][j] };
            orient(f, &c);
            if (unknown_end(&s, pc->why, told, c.a, c.b, pc))
                continue;
            if (c.ka >= 0 && c.kb >= 0 && f->ports[c.ka].peer == c.kb) {
                int32_t l = f->ports[c.ka].link;
                double got = v->flags & RY_VERIFY_NO_RATES ? 0 : found_gbps(v, c.a, c.b);
                if (got > 0 && got < ry_link_gbps(f, (uint32_t)l)) {
                    v->state[l] = RY_VL_DEGRADED;
                    ry_vf_finding *x = add_finding(&s, RY_VF_DEGRADED);
                    x->link = l;
                    x->fa = c.a;
                    x->fb = c.b;
                } else {
                    v->state[l] = RY_VL_OK;
                    v->as_planned++;
                }
                continue;
            }
            RY_ALLOC_GROW(fl, nfound + 1, capf);
            fl[nfound++] = c;
        }
    }
    for (size_t i = 0; i < nfound; i++)
        sort_other(&s, fl[i].a, fl[i].b, fl[i].ka, fl[i].kb, claimed);
    v->planned_all = (long long)f->nlinks;
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *hi = ry_port_node(f, f->links[l].hi);
        if (!v->subnet_seen[hi->subnet]) {
            v->state[l] = RY_VL_UNVERIFIED;
            continue;
        }
        v->planned++;
        if (v->state[l] == RY_VL_UNSEEN) {
            v->state[l] = RY_VL_MISSING;
            add_finding(&s, RY_VF_MISSING)->link = (int32_t)l;
        }
    }
    for (int k = 0; k < v->nnf; k++)
        free(told[k]);
    free(told);
    free(fl);
    free(claimed);
    v->findings = s.x;
    v->nfindings = s.n;
}

/* ---- the likeliest causes ------------------------------------------------------ */

/* CAs the plan does not name, standing on the cables of planned NICs that
 * were not found: hosts renamed. Each such finding's cand is the NIC it
 * stands for; the pattern their names share is proposed when it names each
 * of them as found and the spec accepts it. */
static uint8_t *find_renamed(placer *pc)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    int planes = f->planes > 0 ? f->planes : 1;
    long long servers = f->gpus / gpn;
    uint8_t *seen = ry_xcalloc((size_t)(servers > 0 ? servers : 1), 1);
    size_t cap = v->nfindings + 1;
    shape *sh = ry_xmalloc(cap * sizeof *sh);
    size_t *len = ry_xmalloc(cap * sizeof *len);
    long long *host = ry_xmalloc(cap * sizeof *host);
    int n = 0;
    for (size_t i = 0; i < v->nfindings; i++) {
        ry_vf_finding *x = &v->findings[i];
        if (x->kind != RY_VF_UNKNOWN || x->reason != RY_VU_NOT_PLANNED || x->fb.file < 0)
            continue;
        int32_t kb = v->pmap[x->fb.file][x->fb.port];
        if (kb < 0 || !is_sw_port(f, (uint32_t)kb))
            continue;
        int32_t p = f->ports[kb].peer;
        if (p < 0 || is_sw_port(f, (uint32_t)p) || f->ports[p].link < 0 ||
            v->state[f->ports[p].link] != RY_VL_MISSING)
            continue;
        x->cand = p;
        v->renamed_cas++;
        long long h = (long long)p / planes / gpn;
        if (h < 0 || h >= servers || seen[h])
            continue;
        seen[h] = 1;
        v->renamed_hosts++;
        const ry_nf_node *nd = &v->nf[x->fa.file].nodes[v->nf[x->fa.file].ports[x->fa.port].node];
        if (!v->renamed_found[0]) {
            const char *d = nd->desc ? nd->desc : nd->id;
            snprintf(v->renamed_found, sizeof v->renamed_found, "%.*s",
                     (int)(host_len(d) < 63 ? host_len(d) : 63), d);
            ry_host_name(f, h, v->renamed_plan, sizeof v->renamed_plan);
        }
        if (nd->desc && shape_of(nd->desc, host_len(nd->desc), 0, &sh[n]) == 0) {
            len[n] = host_len(nd->desc);
            host[n++] = h;
        }
    }
    char pat[160];
    long long base = 1;
    int cnt = 0, c = n ? common_pattern(sh, len, n, pat, sizeof pat, &base, &cnt) : -1;
    long long hits = 0;
    for (int i = 0; c >= 0 && i < n; i++)
        hits += same_shape(&sh[c], len[c], &sh[i], len[i]) && sh[i].num - base == host[i];
    if (c >= 0 && hits == v->renamed_hosts && strlen(pat) < sizeof v->renamed_pattern &&
        accepted(pc, "naming.node", pat))
        snprintf(v->renamed_pattern, sizeof v->renamed_pattern, "%s", pat);
    free(sh);
    free(len);
    free(host);
    return seen;
}

/* Planned hosts of which nothing was found: every NIC cable of theirs in
 * the subnets seen missing, and no renamed CA on them (renamed: per host,
 * 1 when one stands on its cables). */
static void find_silent(placer *pc, const uint8_t *renamed)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    int planes = f->planes > 0 ? f->planes : 1;
    long long servers = f->gpus / gpn;
    for (long long h = 0; h < servers; h++) {
        if (renamed[h])
            continue;
        long long seen = 0, missing = 0;
        for (long long p = h * gpn * planes; p < (h + 1) * gpn * planes; p++) {
            int32_t l = f->ports[p].link;
            if (l < 0 || v->state[l] == RY_VL_UNVERIFIED)
                continue;
            seen++;
            missing += v->state[l] == RY_VL_MISSING;
        }
        if (seen == 0 || missing < seen)
            continue;
        if (v->silent_hosts++ == 0)
            ry_host_name(f, h, v->silent_first, sizeof v->silent_first);
        v->silent_links += missing;
    }
}

/* Planned switches of which nothing was found: every cable missing, no
 * switch placed on them. */
static void find_absent(placer *pc)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    size_t nsw = f->nnodes - f->first_switch;
    long long *tot = ry_xcalloc(nsw ? nsw : 1, sizeof *tot), *miss = ry_xcalloc(nsw ? nsw : 1,
                                                                               sizeof *miss);
    for (size_t l = 0; l < f->nlinks; l++) {
        if (v->state[l] == RY_VL_UNVERIFIED)
            continue;
        uint32_t end[2] = { f->links[l].lo, f->links[l].hi };
        for (int e = 0; e < 2; e++) {
            uint32_t o = f->ports[end[e]].owner;
            if (o < f->first_switch)
                continue;
            tot[o - f->first_switch]++;
            miss[o - f->first_switch] += v->state[l] == RY_VL_MISSING;
        }
    }
    v->absent_first = -1;
    uint8_t *absent = ry_xcalloc(nsw ? nsw : 1, 1);
    for (size_t s = 0; s < nsw; s++)
        if (tot[s] > 0 && miss[s] == tot[s] && !pc->sw_at[s]) {
            absent[s] = 1;
            if (v->absent_switches++ == 0)
                v->absent_first = (int32_t)(f->first_switch + s);
        }
    for (size_t l = 0; v->absent_switches && l < f->nlinks; l++) {
        uint32_t a = f->ports[f->links[l].lo].owner, b = f->ports[f->links[l].hi].owner;
        v->absent_links += (a >= f->first_switch && absent[a - f->first_switch]) ||
                           (b >= f->first_switch && absent[b - f->first_switch]);
    }
    free(absent);
    free(tot);
    free(miss);
}

/* Switches whose name places them where most of their cables say another
 * planned switch stands: names (or configurations) swapped. */
static void find_misnamed(placer *pc)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    v->misnamed_at = v->misnamed_as = -1;
    int32_t *say = NULL;
    size_t cap = 0;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            int32_t m = placed_switch(v, k, i);
            if (m < 0)
                continue;
            const ry_nf_node *nd = &nf->nodes[i];
            size_t n = 0;
            for (int q = nd->port0; q < nd->port0 + nd->nrec; q++) {
                int32_t pp = nf->ports[q].peer;
                int32_t pm = pp >= 0 ? v->pmap[k][pp] : -1;
                int32_t back = pm >= 0 ? f->ports[pm].peer : -1;
                if (back < 0)
                    continue;
                RY_ALLOC_GROW(say, n + 1, cap);
                say[n++] = (int32_t)f->ports[back].owner;
            }
            if (n == 0)
                continue;
            qsort(say, n, sizeof *say, cmp_i32);
            int32_t best = -1;
            size_t bestn = 0;
            for (size_t a = 0, b; a < n; a = b) {
                for (b = a; b < n && say[b] == say[a]; b++)
                    ;
                if (b - a > bestn) {
                    bestn = b - a;
                    best = say[a];
                }
            }
            if (best != m && bestn * 2 > n && v->misnamed_switches++ == 0) {
                v->misnamed_at = m;
                v->misnamed_as = best;
            }
        }
    }
    free(say);
}

/* Switches standing where their cables put them under names the plan
 * does not give (a spine that announces another name). */
static void find_by_cables(placer *pc)
{
    ry_verify *v = pc->v;
    v->by_cables_at = -1;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            int32_t m = placed_switch(v, k, i);
            if (m < 0)
                continue;
            const char *d = nf->nodes[i].desc;
            if (d && ry_name_index_switch(pc->names, d) == m)
                continue;
            if (v->by_cables++ == 0) {
                snprintf(v->by_cables_found, sizeof v->by_cables_found, "%s",
                         d ? d : nf->nodes[i].id);
                v->by_cables_at = m;
            }
        }
    }
}

static void find_causes(placer *pc)
{
    find_by_cables(pc);
    uint8_t *renamed = find_renamed(pc);
    find_silent(pc, renamed);
    free(renamed);
    find_absent(pc);
    find_misnamed(pc);
}

/* Findings by kind, then by planned link (the plan's order), then as found. */
static int cmp_finding(const void *a, const void *b)
{
    const ry_vf_finding *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->link != y->link)
        return x->link < y->link ? -1 : 1;
    if (x->fa.file != y->fa.file)
        return x->fa.file < y->fa.file ? -1 : 1;
    return (x->fa.port > y->fa.port) - (x->fa.port < y->fa.port);
}

/* Nothing compared is no success: a file of nothing the plan knows. */
static int check_compared(const ry_verify *v, ry_err *err)
{
    if (v->planned > 0)
        return 0;
    char files[400] = "";
    size_t at = 0;
    for (int k = 0; k < v->nnf && at < sizeof files - 1; k++)
        at += (size_t)snprintf(files + at, sizeof files - at, "%s%s", k ? ", " : "",
                               v->nf[k].path);
    ry_err_set(err, NULL, "%s: nothing of the plan is in the file%s: %s of %s switches and "
               "%s of %s CAs placed, 0 planned cables compared (a fabric of another plan, "
               "or its devices named as the plan does not name them)", files,
               v->nnf > 1 ? "s" : "", ry_n(v->switches_placed), ry_n(v->switches_found),
               ry_n(v->nics_placed), ry_n(v->nics_found));
    return -1;
}

/* ---- the whole run ------------------------------------------------------------ */

typedef struct guid_at {
    uint64_t guid;
    int file, line, sw;
} guid_at;

static int cmp_guid_at(const void *a, const void *b)
{
    const guid_at *x = a, *y = b;
    if (x->guid != y->guid)
        return x->guid < y->guid ? -1 : 1;
    return (x->file > y->file) - (x->file < y->file);
}

/* The same switch, or CA port, in two files is the same subnet given twice
 * (or two devices with one GUID): switches by node GUID, CAs by the port
 * GUIDs of their cabled ports. Each file has checked its own. */
static int check_files(const ry_netfile *nf, int nnf, ry_err *err)
{
    size_t n = 0;
    for (int k = 0; k < nnf; k++)
        n += (size_t)nf[k].nports;
    guid_at *g = ry_xmalloc((n ? n : 1) * sizeof *g);
    n = 0;
    for (int k = 0; k < nnf; k++)
        for (int i = 0; i < nf[k].nports; i++) {
            const ry_nf_port *p = &nf[k].ports[i];
            int sw = ry_netfile_is_switch(&nf[k], p->node);
            if (sw ? p->num == 0 : p->num > 0 && p->line > 0)
                g[n++] = (guid_at){ p->guid, k, sw ? nf[k].nodes[p->node].line : p->line, sw };
        }
    qsort(g, n, sizeof *g, cmp_guid_at);
    int rc = 0;
    /* a subnet given twice shows first as its switches */
    size_t dup = n;
    for (size_t i = 1; i < n; i++)
        if (g[i].guid == g[i - 1].guid && g[i].file != g[i - 1].file &&
            (dup == n || (g[i].sw && g[i - 1].sw && !(g[dup].sw && g[dup - 1].sw))))
            dup = i;
    for (size_t i = dup; i < n && !rc; i++)
        if (g[i].guid == g[i - 1].guid && g[i].file != g[i - 1].file) {
            if (g[i].sw && g[i - 1].sw)
                ry_err_set(err, NULL, "switch 0x%016llx is in %s and in %s (lines %d and %d): "
                           "give each subnet once", (unsigned long long)g[i].guid,
                           nf[g[i - 1].file].path, nf[g[i].file].path, g[i - 1].line, g[i].line);
            else
                ry_err_set(err, NULL, "%s:%d: GUID 0x%016llx is also the GUID of a %s in %s "
                           "(line %d): one device in two files (give each subnet once) or two "
                           "devices with one GUID", nf[g[i].file].path, g[i].line,
                           (unsigned long long)g[i].guid, g[i - 1].sw ? "switch" : "CA port",
                           nf[g[i - 1].file].path, g[i - 1].line);
            rc = -1;
        }
    free(g);
    return rc;
}

int ry_verify_run(const ry_fabric *f, const ry_netfile *nf, int nnf, unsigned flags, ry_verify *v,
                  ry_err *err)
{
    return ry_verify_run_hinted(f, nf, nnf, flags, NULL, NULL, v, err);
}

int ry_verify_run_hinted(const ry_fabric *f, const ry_netfile *nf, int nnf, unsigned flags,
                         ry_verify_accept accept, void *arg, ry_verify *v, ry_err *err)
{
    memset(v, 0, sizeof *v);
    v->flags = flags;
    v->f = f;
    v->nf = nf;
    v->nnf = nnf;
    if (check_files(nf, nnf, err) < 0)
        return -1;
    size_t nsw = f->nnodes - f->first_switch;
    size_t nnic = (size_t)f->gpus * (size_t)f->planes;
    placer pc = { v, ry_xcalloc(nnic ? nnic : 1, sizeof(int32_t)),
                  ry_xcalloc(nsw ? nsw : 1, sizeof(int32_t)), NULL, NULL, NULL, NULL,
                  ry_name_index_new(f), accept, arg };
    v->nmap = ry_xcalloc((size_t)nnf, sizeof *v->nmap);
    v->pmap = ry_xcalloc((size_t)nnf, sizeof *v->pmap);
    pc.why = ry_xcalloc((size_t)nnf, sizeof *pc.why);
    pc.cand = ry_xcalloc((size_t)nnf, sizeof *pc.cand);
    pc.votes = ry_xcalloc((size_t)nnf, sizeof *pc.votes);
    pc.total = ry_xcalloc((size_t)nnf, sizeof *pc.total);
    for (int k = 0; k < nnf; k++) {
        size_t nn = (size_t)nf[k].nnodes + 1, np = (size_t)nf[k].nports + 1;
        v->nmap[k] = ry_xmalloc(nn * sizeof(int32_t));
        v->pmap[k] = ry_xmalloc(np * sizeof(int32_t));
        memset(v->nmap[k], 0xff, nn * sizeof(int32_t));
        memset(v->pmap[k], 0xff, np * sizeof(int32_t));
        pc.why[k] = ry_xcalloc(nn, 1);
        pc.cand[k] = ry_xmalloc(nn * sizeof(int32_t));
        memset(pc.cand[k], 0xff, nn * sizeof(int32_t));
        pc.votes[k] = ry_xcalloc(nn, sizeof(int32_t));
        pc.total[k] = ry_xcalloc(nn, sizeof(int32_t));
        for (int i = 0; i < nf[k].nnodes; i++)
            v->switches_found += ry_netfile_is_switch(&nf[k], i);
    }
    v->state = ry_xcalloc(f->nlinks ? f->nlinks : 1, 1);
    v->subnet_seen = ry_xcalloc((size_t)(f->nsubnets > 0 ? f->nsubnets : 1), 1);
    int rc = place_cas(&pc, err);
    if (!rc)
        rc = place_by_name(&pc, err);
    if (!rc)
        rc = check_names(&pc, err);
    if (!rc) {
        if (!(flags & RY_VERIFY_BY_NAME))
            place_by_structure(&pc);
        rc = check_subnets(v, err);
    }
    if (!rc) {
        sort_cables(&pc);
        tally(v);
        find_causes(&pc);
        if (v->nfindings)
            qsort(v->findings, v->nfindings, sizeof *v->findings, cmp_finding);
        rc = check_compared(v, err);
    }
    for (int k = 0; k < nnf; k++) {
        free(pc.why[k]);
        free(pc.cand[k]);
        free(pc.votes[k]);
        free(pc.total[k]);
    }
    free(pc.why);
    free(pc.cand);
    free(pc.votes);
    free(pc.total);
    free(pc.ca_at);
    free(pc.sw_at);
    ry_name_index_free(pc.names);
    return rc;
}

const char *ry_verify_error(const ry_verify *v, const ry_err *err)
{
    return v->why ? v->why : err->msg;
}

void ry_verify_free(ry_verify *v)
{
    if (!v)
        return;
    for (int k = 0; v->nmap && k < v->nnf; k++)
        free(v->nmap[k]);
    for (int k = 0; v->pmap && k < v->nnf; k++)
        free(v->pmap[k]);
    free(v->nmap);
    free(v->pmap);
    free(v->state);
    free(v->subnet_seen);
    free(v->findings);
    free(v->rail_unit);
    free(v->leaf_up);
    free(v->tier_up);
    free(v->why);
    memset(v, 0, sizeof *v);
}

/* ---- impact ---------------------------------------------------------------------- */

/* A planned link that still carries its traffic: in place or slow; on
 * InfiniBand also on another port of its switch (OpenSM routes to the port
 * it finds); on a routed fabric a switch's cable on another port or switch
 * of its tiers, never a NIC's elsewhere (its /31 is its planned port's). */
static int kept(const ry_verify *v, size_t l)
{
    uint8_t st = v->state[l];
    if (st == RY_VL_OK || st == RY_VL_DEGRADED)
        return 1;
    if (!(v->flags & RY_VERIFY_ROUTED))
        return st == RY_VL_ON_SWITCH;
    return st == RY_VL_PEERED ||
           (st == RY_VL_ON_SWITCH && is_sw_port(v->f, v->f->links[l].lo));
}

/* GPU links (down) or uplinks (up) of a switch: planned and kept. */
static void switch_links(const ry_verify *v, uint32_t sw, int up, long long *k, long long *t)
{
    const ry_fabric *f = v->f;
    const ry_node *n = &f->nodes[sw];
    for (uint32_t p = 0; p < n->nports; p++) {
        const ry_port *pt = &f->ports[n->port0 + p];
        if (pt->peer < 0 || pt->link < 0)
            continue;
        const ry_node *o = ry_port_node(f, (uint32_t)pt->peer);
        if (up ? o->tier <= n->tier : o->tier != 0)
            continue;
        (*t)++;
        *k += kept(v, (size_t)pt->link);
    }
}

/* Kept and planned links per group, once: GPU links per (plane, unit, rail),
 * leaf uplinks per (plane, unit), uplinks per (plane, tier). */
static void tally(ry_verify *v)
{
    const ry_fabric *f = v->f;
    int groups = 1;
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        if (f->nodes[i].tier == 1 && f->nodes[i].group + 1 > groups)
            groups = f->nodes[i].group + 1;
    int rails = f->rails > 0 ? f->rails : 1;
    v->ngroups = groups;
    v->rail_unit = ry_xcalloc((size_t)f->planes * (size_t)groups * (size_t)rails,
                              sizeof *v->rail_unit);
    v->leaf_up = ry_xcalloc((size_t)f->planes * (size_t)groups, sizeof *v->leaf_up);
    v->tier_up = ry_xcalloc((size_t)f->planes * (RY_MAX_TIERS + 1), sizeof *v->tier_up);
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *lo = ry_port_node(f, f->links[l].lo), *hi = ry_port_node(f, f->links[l].hi);
        ry_vf_tally *t;
        if (lo->kind == RY_NODE_GPU)
            t = &v->rail_unit[((size_t)hi->plane * (size_t)groups + (size_t)hi->group) *
                              (size_t)rails + (size_t)(lo->rail % rails)];
        else if (lo->tier == 1)
            t = &v->leaf_up[(size_t)lo->plane * (size_t)groups + (size_t)lo->group];
        else
            t = &v->tier_up[(size_t)lo->plane * (RY_MAX_TIERS + 1) + lo->tier];
        t->total++;
        t->kept += kept(v, l);
    }
}

void ry_verify_impact(const ry_verify *v, const ry_vf_finding *x, ry_vf_impact *im)
{
    const ry_fabric *f = v->f;
    memset(im, 0, sizeof *im);
    im->gpu = im->sw = -1;
    if (x->link < 0)
        return;
    const ry_link *l = &f->links[x->link];
    im->loses_link = !kept(v, (size_t)x->link);
    if (x->kind == RY_VF_DEGRADED) {
        im->planned_gbps = ry_link_gbps(f, (uint32_t)x->link);
        im->found_gbps = found_gbps(v, x->fa, x->fb);
    }
    const ry_node *lo = ry_port_node(f, l->lo), *hi = ry_port_node(f, l->hi);
    const ry_vf_tally *t;
    if (lo->kind == RY_NODE_GPU) {
        int rails = f->rails > 0 ? f->rails : 1;
        im->gpu = (int32_t)f->ports[l->lo].owner;
        im->sw = (int32_t)f->ports[l->hi].owner;
        switch_links(v, (uint32_t)im->sw, 0, &im->sw_kept, &im->sw_total);
        im->scope = 1;
        im->plane = hi->plane;
        im->rail = lo->rail;
        im->unit = hi->group;
        t = &v->rail_unit[((size_t)hi->plane * (size_t)v->ngroups + (size_t)hi->group) *
                          (size_t)rails + (size_t)(lo->rail % rails)];
    } else {
        im->sw = (int32_t)f->ports[l->lo].owner;
        switch_links(v, (uint32_t)im->sw, 1, &im->sw_kept, &im->sw_total);
        im->plane = lo->plane;
        im->tier = lo->tier;
        im->unit = lo->group;
        im->scope = lo->tier == 1 ? 2 : 3;
        t = lo->tier == 1 ? &v->leaf_up[(size_t)lo->plane * (size_t)v->ngroups + (size_t)lo->group]
                          : &v->tier_up[(size_t)lo->plane * (RY_MAX_TIERS + 1) + lo->tier];
    }
    im->kept = t->kept;
    im->total = t->total;
}
