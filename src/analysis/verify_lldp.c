/* LLDP neighbour tables into the graph verify compares; see verify_lldp.h. */
#include "analysis/verify_lldp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/hash.h"

/* ---- a string map (open addressing; keys owned) ------------------------------------ */

typedef struct strmap {
    char **key;
    int32_t *val;
    size_t mask, n;
} strmap;

static size_t sm_slot(const strmap *m, const char *k)
{
    size_t i = (size_t)ry_hash_str(k) & m->mask;
    while (m->key[i] && strcmp(m->key[i], k) != 0)
        i = (i + 1) & m->mask;
    return i;
}

static int32_t sm_get(const strmap *m, const char *k)
{
    if (!m->key)
        return -1;
    size_t i = sm_slot(m, k);
    return m->key[i] ? m->val[i] : -1;
}

static void sm_put(strmap *m, const char *k, int32_t v)
{
    if (2 * (m->n + 1) > m->mask + 1) {
        strmap g = { NULL, NULL, m->key ? 2 * m->mask + 1 : 63, 0 };
        g.key = ry_xcalloc(g.mask + 1, sizeof *g.key);
        g.val = ry_xcalloc(g.mask + 1, sizeof *g.val);
        for (size_t i = 0; m->key && i <= m->mask; i++)
            if (m->key[i]) {
                size_t j = sm_slot(&g, m->key[i]);
                g.key[j] = m->key[i];
                g.val[j] = m->val[i];
                g.n++;
            }
        free(m->key);
        free(m->val);
        *m = g;
    }
    size_t i = sm_slot(m, k);
    if (!m->key[i]) {
        m->key[i] = ry_xstrdup(k);
        m->n++;
    }
    m->val[i] = v;
}

static void sm_free(strmap *m)
{
    for (size_t i = 0; m->key && i <= m->mask; i++)
        free(m->key[i]);
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* ---- the builder ---------------------------------------------------------------------- */

typedef struct dev {
    char *name;         /* "leaf0", a NIC's "node001 eth0" */
    char *desc;         /* what verify places it by */
    int sw;
    int32_t planned;    /* a switch's node id, or -1 */
    uint64_t guid;
    int line;
    int next_extra;     /* the next number for a port name the plan does not have */
} dev;

typedef struct prec {
    int32_t dev;
    int num;
    int32_t peer;       /* prec index, -1 */
    int line;
    int32_t at;         /* final port index */
} prec;

typedef struct builder {
    const ry_ethplan *pl;
    const ry_fabric *f;
    ry_name_index *names;
    strmap devs, ports, nics, hosts, locals, swport_any, extra;
    strmap chassis;             /* chassis id -> index in chassis_name */
    const char **chassis_name;  /* borrowed from the tables */
    dev *d;   size_t nd, capd;
    prec *p;  size_t np, capp;
    int extra_base;     /* port numbers from here are no planned switch's */
    uint64_t next_guid;
} builder;

static uint64_t parse_mac(const char *s)
{
    unsigned b[6];
    char tail;
    if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
               &tail) != 6)
        return 0;
    uint64_t g = 0;
    for (int i = 0; i < 6; i++)
        g = g << 8 | b[i];
    return g;
}

static void index_plan(builder *b)
{
    const ry_fabric *f = b->f;
    char name[160], host[96], nd[32];
    int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    for (uint32_t gp = 0; gp < (uint32_t)(f->gpus * f->planes); gp++) {
        ry_host_name(f, (long long)(gp / (uint32_t)f->planes) / gpn, host, sizeof host);
        ry_eth_nic_name(f, gp, nd, sizeof nd);
        snprintf(name, sizeof name, "%s %s", host, nd);
        sm_put(&b->nics, name, (int32_t)gp);
        sm_put(&b->hosts, host, 1);
    }
    for (size_t id = f->first_switch; id < f->nnodes; id++) {
        const ry_node *n = &f->nodes[id];
        if (!ry_node_is_switch(n))
            continue;
        if ((int)n->nports >= b->extra_base)
            b->extra_base = (int)n->nports + 1;
        for (uint32_t k = 0; k < n->nports; k++) {
            ry_eth_port_name(b->pl, n->port0 + k, name, sizeof name);
            if (sm_get(&b->swport_any, name) < 0)
                sm_put(&b->swport_any, name, (int32_t)k + 1);
        }
    }
}

/* Port number of the port so named of planned switch id, or 0. */
static int planned_port(const builder *b, int32_t id, const char *pname)
{
    const ry_node *n = &b->f->nodes[id];
    char name[96];
    for (uint32_t k = 0; k < n->nports; k++) {
        ry_eth_port_name(b->pl, n->port0 + k, name, sizeof name);
        if (strcmp(name, pname) == 0)
            return (int)k + 1;
    }
    return 0;
}

static int32_t get_dev(builder *b, const char *name, const char *desc, int sw, int32_t planned,
                       int line)
{
    int32_t i = sm_get(&b->devs, name);
    if (i >= 0)
        return i;
    RY_ALLOC_GROW(b->d, b->nd + 1, b->capd);
    dev *d = &b->d[b->nd];
    d->name = ry_xstrdup(name);
    d->desc = ry_xstrdup(desc);
    d->sw = sw;
    d->planned = planned;
    d->guid = 0;
    d->line = line;
    d->next_extra = planned >= 0 ? (int)b->f->nodes[planned].nports + 1 : b->extra_base;
    sm_put(&b->devs, name, (int32_t)b->nd);
    return (int32_t)b->nd++;
}

/* The number of the port so named of switch device di, 0 when the plan
 * has no port of that name. */
static int known_port(const builder *b, int32_t di, const char *pname)
{
    const dev *d = &b->d[di];
    int num = d->planned >= 0 ? planned_port(b, d->planned, pname) : sm_get(&b->swport_any, pname);
    return num > 0 ? num : 0;
}

/* A port name the plan does not have: a number of its own past the
 * switch's planned ports, the same for each mention. */
static int extra_port(builder *b, int32_t di, const char *pname)
{
    char key[160];
    snprintf(key, sizeof key, "%d/%.140s", (int)di, pname);
    int32_t num = sm_get(&b->extra, key);
    if (num < 0) {
        num = b->d[di].next_extra++;
        sm_put(&b->extra, key, num);
    }
    return (int)num;
}

/* One end of a cable: device sys's interface, one of cand[0..nc) (the
 * first that names a planned interface, else cand[0]). */
typedef struct endp {
    int32_t dev;
    int num;
} endp;

/* Whether name is a device of the plan, or has a table of its own. */
static int known_name(builder *b, const char *name)
{
    return ry_name_index_switch(b->names, name) >= 0 || sm_get(&b->hosts, name) >= 0 ||
           sm_get(&b->locals, name) >= 0;
}

/* The plan's name of a system name as hosts announce it: as it is when the
 * plan (or a table) knows it, else in lower case, else without its domain
 * (node001.cluster.example, NODE001): the name as sent when none is known. */
static const char *plan_name(builder *b, const char *sys, char *buf, size_t n)
{
    if (known_name(b, sys))
        return sys;
    size_t i = 0;
    for (; sys[i] && i + 1 < n; i++)
        buf[i] = (char)(sys[i] >= 'A' && sys[i] <= 'Z' ? sys[i] - 'A' + 'a' : sys[i]);
    buf[i] = '\0';
    if (known_name(b, buf))
        return buf;
    char *dot = strchr(buf, '.');
    if (dot && dot > buf) {
        *dot = '\0';
        if (known_name(b, buf))
            return buf;
    }
    return sys;
}

static endp end_of(builder *b, const char *sys, const char *chassis, const char *const *cand,
                   int nc, int line)
{
    endp e = { -1, 1 };
    char name[600], desc[600], canon[256];
    sys = plan_name(b, sys, canon, sizeof canon);
    int32_t sw = ry_name_index_switch(b->names, sys);
    if (sw >= 0 || sm_get(&b->locals, sys) >= 0) {
        e.dev = get_dev(b, sys, sys, 1, sw, line);
        e.num = 0;
        for (int k = 0; k < nc && !e.num; k++)
            e.num = known_port(b, e.dev, cand[k]);
        if (!e.num)
            e.num = extra_port(b, e.dev, cand[0]);
    } else {
        const char *port = cand[0];
        int32_t gp = -1;
        if (sm_get(&b->hosts, sys) >= 0)
            for (int k = 0; k < nc && gp < 0; k++) {
                snprintf(name, sizeof name, "%s %s", sys, cand[k]);
                if ((gp = sm_get(&b->nics, name)) >= 0)
                    port = cand[k];
            }
        snprintf(name, sizeof name, "%s %s", sys, port);
        if (gp >= 0)
            ry_ca_desc(b->f, (uint32_t)gp, desc, sizeof desc);
        else
            snprintf(desc, sizeof desc, "%s", name);
        e.dev = get_dev(b, name, desc, 0, -1, line);
    }
    uint64_t g = parse_mac(chassis);
    if (g && !b->d[e.dev].guid)
        b->d[e.dev].guid = g;
    return e;
}

static int32_t get_port(builder *b, endp e, int line)
{
    char key[48];
    snprintf(key, sizeof key, "%d/%d", (int)e.dev, e.num);
    int32_t i = sm_get(&b->ports, key);
    if (i >= 0)
        return i;
    RY_ALLOC_GROW(b->p, b->np + 1, b->capp);
    b->p[b->np] = (prec){ e.dev, e.num, -1, line, -1 };
    sm_put(&b->ports, key, (int32_t)b->np);
    return (int32_t)b->np++;
}

/* "leaf0 Ethernet8", "node001 eth0" of a port record, for errors. */
static void port_text(const builder *b, int32_t i, char *buf, size_t n)
{
    const dev *d = &b->d[b->p[i].dev];
    if (!d->sw)
        snprintf(buf, n, "%s", d->name);
    else if (d->planned >= 0 && b->p[i].num <= (int)b->f->nodes[d->planned].nports)
        ry_eth_port_name(b->pl, b->f->nodes[d->planned].port0 + (uint32_t)b->p[i].num - 1,
                         buf, n);
    else
        snprintf(buf, n, "%s port %d", d->name, b->p[i].num);
    if (d->sw && d->planned >= 0 && b->p[i].num <= (int)b->f->nodes[d->planned].nports) {
        char t[96];
        snprintf(t, sizeof t, "%s", buf);
        snprintf(buf, n, "%s %s", d->name, t);
    }
}

static int add_entry(builder *b, const ry_lldp *t, const ry_lldp_nbr *x, ry_err *err, ry_pos *at)
{
    const char *lc[1] = { x->lport };
    endp a = end_of(b, t->local, t->local_chassis, lc, 1, x->line);
    const char *rc[2];
    int nc = 0;
    if (x->rport_is_name || !x->rport_descr[0]) {
        rc[nc++] = x->rport_id;
        if (x->rport_descr[0])
            rc[nc++] = x->rport_descr;
    } else {
        rc[nc++] = x->rport_descr;
        rc[nc++] = x->rport_id;
    }
    /* no system name sent: the name another table gives the chassis */
    const char *sys = x->rsys;
    int32_t named = sys[0] || !x->rchassis[0] ? -1 : sm_get(&b->chassis, x->rchassis);
    if (named >= 0)
        sys = b->chassis_name[named];
    else if (!sys[0])
        sys = x->rchassis[0] ? x->rchassis : "(no name)";
    endp e = end_of(b, sys, x->rchassis, rc, nc, x->line);
    int32_t pa = get_port(b, a, x->line), pb = get_port(b, e, x->line);
    if (b->p[pa].peer == pb && b->p[pb].peer == pa)
        return 0;                   /* the cable seen from its other end */
    if (pa != pb && b->p[pa].peer < 0 && b->p[pb].peer < 0) {
        b->p[pa].peer = pb;
        b->p[pb].peer = pa;
        return 0;
    }
    char sa[200], sb[200], sc[200];
    port_text(b, pa, sa, sizeof sa);
    port_text(b, pb, sb, sizeof sb);
    int32_t other = b->p[pa].peer >= 0 ? b->p[pa].peer : b->p[pb].peer;
    if (other >= 0)
        port_text(b, other, sc, sizeof sc);
    else
        snprintf(sc, sizeof sc, "itself");
    *at = (ry_pos){ t->path, x->line, 1 };
    ry_err_set(err, NULL, "%.180s is seen cabled to %.180s here and to %.180s in an earlier "
               "entry; expected one neighbour per interface (tables of one time)",
               pa == pb ? sa : b->p[pa].peer >= 0 ? sa : sb,
               pa == pb ? sa : b->p[pa].peer >= 0 ? sb : sa, sc);
    return -1;
}

static int cmp_prec(const void *x, const void *y)
{
    const prec *a = *(prec *const *)x, *c = *(prec *const *)y;
    if (a->dev != c->dev)
        return a->dev < c->dev ? -1 : 1;
    return (a->num > c->num) - (a->num < c->num);
}

/* The graph: each device a node, its port 0 then its ports by number. */
static void lay_out(builder *b, const ry_lldp *t, int nt, ry_netfile *nf)
{
    memset(nf, 0, sizeof *nf);
    nf->path = ry_xstrdup(nt == 1 ? t[0].path : "the LLDP tables");
    nf->nnodes = (int)b->nd;
    nf->nodes = ry_xcalloc(b->nd ? b->nd : 1, sizeof *nf->nodes);
    nf->nports = (int)(b->np + b->nd);
    nf->ports = ry_xcalloc((size_t)nf->nports + 1, sizeof *nf->ports);
    prec **order = ry_xmalloc((b->np ? b->np : 1) * sizeof *order);
    for (size_t i = 0; i < b->np; i++)
        order[i] = &b->p[i];
    qsort(order, b->np, sizeof *order, cmp_prec);
    size_t k = 0, at = 0;
    for (size_t di = 0; di < b->nd; di++) {
        dev *d = &b->d[di];
        if (!d->guid)
            d->guid = b->next_guid++;
        ry_nf_node *n = &nf->nodes[di];
        n->kind = d->sw ? RY_NF_SWITCH : RY_NF_CA;
        n->guid = d->guid;
        n->id = ry_xstrdup(d->name);
        n->desc = ry_xstrdup(d->desc);
        n->line = d->line;
        n->port0 = (int)at;
        nf->ports[at++] = (ry_nf_port){ .node = (int)di, .num = 0, .peer = -1, .guid = d->guid,
                                        .line = d->line };
        int top = 0;
        for (; k < b->np && order[k]->dev == (int32_t)di; k++) {
            order[k]->at = (int32_t)at;
            top = order[k]->num;
            nf->ports[at++] = (ry_nf_port){ .node = (int)di, .num = order[k]->num, .peer = -1,
                                            .guid = d->guid, .line = order[k]->line };
        }
        n->nrec = (int)at - n->port0;
        n->top = top;
        n->nports = d->sw ? (d->planned >= 0 ? (int)b->f->nodes[d->planned].nports : top) : 1;
        if (n->nports < top)
            n->nports = top;
    }
    for (size_t i = 0; i < b->np; i++)
        if (b->p[i].peer >= 0)
            nf->ports[b->p[i].at].peer = b->p[b->p[i].peer].at;
    free(order);
}

int ry_lldp_graph(const ry_ethplan *pl, const ry_lldp *t, int nt, ry_netfile *nf, ry_err *err,
                  ry_pos *at)
{
    builder b;
    memset(&b, 0, sizeof b);
    memset(nf, 0, sizeof *nf);
    b.pl = pl;
    b.f = pl->f;
    b.names = ry_name_index_new(pl->f);
    b.next_guid = 0xffff000000000000ull;
    index_plan(&b);
    size_t nch = 0;
    for (int k = 0; k < nt; k++)
        nch += 1 + t[k].nn;
    b.chassis_name = ry_xmalloc((nch ? nch : 1) * sizeof *b.chassis_name);
    nch = 0;
    for (int k = 0; k < nt; k++) {
        sm_put(&b.locals, t[k].local, k);
        if (t[k].local_chassis[0] && sm_get(&b.chassis, t[k].local_chassis) < 0) {
            b.chassis_name[nch] = t[k].local;
            sm_put(&b.chassis, t[k].local_chassis, (int32_t)nch++);
        }
        for (size_t i = 0; i < t[k].nn; i++)
            if (t[k].n[i].rsys[0] && t[k].n[i].rchassis[0] &&
                sm_get(&b.chassis, t[k].n[i].rchassis) < 0) {
                b.chassis_name[nch] = t[k].n[i].rsys;
                sm_put(&b.chassis, t[k].n[i].rchassis, (int32_t)nch++);
            }
    }
    int rc = 0;
    for (int k = 0; k < nt && rc == 0; k++)
        for (size_t i = 0; i < t[k].nn && rc == 0; i++)
            rc = add_entry(&b, &t[k], &t[k].n[i], err, at);
    if (rc == 0)
        lay_out(&b, t, nt, nf);
    for (size_t i = 0; i < b.nd; i++) {
        free(b.d[i].name);
        free(b.d[i].desc);
    }
    free(b.d);
    free(b.p);
    sm_free(&b.devs);
    sm_free(&b.ports);
    sm_free(&b.nics);
    sm_free(&b.hosts);
    sm_free(&b.locals);
    sm_free(&b.swport_any);
    sm_free(&b.extra);
    sm_free(&b.chassis);
    free(b.chassis_name);
    ry_name_index_free(b.names);
    return rc;
}
