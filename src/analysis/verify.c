/* Placing a discovered fabric on the plan; see verify.h for the method. */
#include "analysis/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/diag.h"
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
} placer;

static void place_cas(placer *pc)
{
    ry_verify *v = pc->v;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            if (ry_netfile_is_switch(nf, i))
                continue;
            const char *d = nf->nodes[i].desc;
            int32_t gp = d ? ry_name_index_nic(pc->names, d) : -1;
            if (gp < 0) {
                pc->why[k][i] = RY_VU_NOT_PLANNED + 1;
                continue;
            }
            if (pc->ca_at[gp]) {
                pc->why[k][i] = RY_VU_DUPLICATE + 1;
                continue;
            }
            pc->ca_at[gp] = 1;
            v->nmap[k][i] = gp;
            /* port 1 is the NIC port; a second port is not in the plan */
            v->pmap[k][nf->nodes[i].port0 + 1] = gp;
        }
    }
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
    for (int p = 1; p <= nd->nports; p++)
        v->pmap[k][nd->port0 + p] =
            (uint32_t)p <= pn->nports ? (int32_t)(pn->port0 + (uint32_t)p - 1) : -1;
    v->subnet_seen[pn->subnet] = 1;
    v->switches_placed++;
}

static void place_by_name(placer *pc)
{
    ry_verify *v = pc->v;
    const ry_fabric *f = v->f;
    for (int k = 0; k < v->nnf; k++) {
        const ry_netfile *nf = &v->nf[k];
        for (int i = 0; i < nf->nnodes; i++) {
            if (!ry_netfile_is_switch(nf, i) || !nf->nodes[i].desc)
                continue;
            int32_t id = ry_name_index_switch(pc->names, nf->nodes[i].desc);
            if (id >= 0 && !pc->sw_at[id - f->first_switch])
                place_switch(pc, k, i, (uint32_t)id);
        }
    }
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
    for (int p = 1; p <= nd->nports; p++) {
        int32_t peer = nf->ports[nd->port0 + p].peer;
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

/* ---- sorting the cables ------------------------------------------------------ */

typedef struct sorter {
    ry_verify *v;
    ry_vf_finding *x;
    size_t n, cap;
} sorter;

static ry_vf_finding *add_finding(sorter *s, int kind)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->x = ry_xrealloc(s->x, s->cap * sizeof *s->x);
    }
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
            if (nfound == capf) {
                capf = capf ? capf * 2 : 256;
                fl = ry_xrealloc(fl, capf * sizeof *fl);
            }
            fl[nfound++] = c;
        }
    }
    for (size_t i = 0; i < nfound; i++)
        sort_other(&s, fl[i].a, fl[i].b, fl[i].ka, fl[i].kb, claimed);
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

/* ---- the whole run ------------------------------------------------------------ */

typedef struct guid_at {
    uint64_t guid;
    int file;
} guid_at;

static int cmp_guid_at(const void *a, const void *b)
{
    const guid_at *x = a, *y = b;
    if (x->guid != y->guid)
        return x->guid < y->guid ? -1 : 1;
    return (x->file > y->file) - (x->file < y->file);
}

/* The same switch in two files is the same subnet given twice. */
static int check_files(const ry_netfile *nf, int nnf, ry_err *err)
{
    size_t n = 0;
    for (int k = 0; k < nnf; k++)
        n += (size_t)nf[k].nnodes;
    guid_at *g = ry_xmalloc((n ? n : 1) * sizeof *g);
    n = 0;
    for (int k = 0; k < nnf; k++)
        for (int i = 0; i < nf[k].nnodes; i++)
            if (ry_netfile_is_switch(&nf[k], i))
                g[n++] = (guid_at){ nf[k].nodes[i].guid, k };
    qsort(g, n, sizeof *g, cmp_guid_at);
    int rc = 0;
    for (size_t i = 1; i < n && !rc; i++)
        if (g[i].guid == g[i - 1].guid && g[i].file != g[i - 1].file) {
            ry_err_set(err, NULL, "switch 0x%016llx is in %s and in %s: give each subnet once",
                       (unsigned long long)g[i].guid, nf[g[i - 1].file].path, nf[g[i].file].path);
            rc = -1;
        }
    free(g);
    return rc;
}

int ry_verify_run(const ry_fabric *f, const ry_netfile *nf, int nnf, unsigned flags, ry_verify *v,
                  ry_err *err)
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
                  ry_name_index_new(f) };
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
    place_cas(&pc);
    place_by_name(&pc);
    place_by_structure(&pc);
    sort_cables(&pc);
    tally(v);
    if (v->nfindings)
        qsort(v->findings, v->nfindings, sizeof *v->findings, cmp_finding);
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
    return 0;
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
    memset(v, 0, sizeof *v);
}

/* ---- impact ---------------------------------------------------------------------- */

static int kept(uint8_t st)
{
    return st == RY_VL_OK || st == RY_VL_DEGRADED || st == RY_VL_ON_SWITCH;
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
        *k += kept(v->state[pt->link]);
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
        t->kept += kept(v->state[l]);
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
    im->loses_link = !kept(v->state[x->link]);
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
