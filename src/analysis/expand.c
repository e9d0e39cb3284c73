#include "analysis/expand.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/ibplan.h"
#include "fabric/names.h"
#include "spec/yaml.h"
#include "util/diag.h"
#include "util/numfmt.h"

const char *ry_link_tier_name(const ry_fabric *f, int tier, char *buf, size_t n)
{
    snprintf(buf, n, "%s-%s", tier == 0 ? "node" : ry_tier_name(tier, f->tiers),
             ry_tier_name(tier + 1, f->tiers));
    return buf;
}

/* ---- the old fabric as found ------------------------------------------------------------- */

/* Writes f's graph as one netfile: a one-port CA per cabled NIC port,
 * described as plan `named` names its host and NIC (the GPU's own, when the
 * plan has it), then the switches, described by their names, each with its
 * cabled ports. port_of[i] is the plan's port of
 * netfile port i (UINT32_MAX for a switch's port 0 and a CA's placeholder). */
static void fabric_netfile(const ry_fabric *f, const ry_fabric *named, ry_netfile *nf,
                           uint32_t **port_of)
{
    memset(nf, 0, sizeof *nf);
    nf->path = ry_xstrdup("the old plan");
    size_t nca = 0, np = 0, nsw = f->nnodes - f->first_switch;
    uint32_t gports = (uint32_t)(f->gpus * f->planes);
    for (uint32_t p = 0; p < gports; p++)
        if (f->ports[p].peer >= 0)
            nca++;
    for (uint32_t p = gports; p < f->nports; p++)
        np += f->ports[p].peer >= 0;
    nf->nnodes = (int)(nca + nsw);
    nf->nodes = ry_xcalloc((size_t)nf->nnodes + 1, sizeof *nf->nodes);
    nf->nports = (int)(2 * nca + nsw + np);
    nf->ports = ry_xcalloc((size_t)nf->nports + 1, sizeof *nf->ports);
    uint32_t *po = ry_xmalloc(((size_t)nf->nports + 1) * sizeof *po);
    int32_t *at = ry_xmalloc(((size_t)f->nports + 1) * sizeof *at);
    memset(at, 0xff, ((size_t)f->nports + 1) * sizeof *at);
    int node = 0, k = 0;
    char buf[192];
    for (uint32_t p = 0; p < gports; p++) {
        if (f->ports[p].peer < 0)
            continue;
        ry_nf_node *n = &nf->nodes[node];
        uint64_t g = ry_guid_ca(f, p);
        n->kind = RY_NF_CA;
        n->guid = g;
        n->nports = 1;
        snprintf(buf, sizeof buf, "H-%016llx", (unsigned long long)g);
        n->id = ry_xstrdup(buf);
        /* a server is its place in the plan: described as the new plan
         * names it, so a renamed host (a wider number) is still itself */
        uint32_t g_ = p / (uint32_t)f->planes, pl_ = p % (uint32_t)f->planes;
        if ((long long)g_ < named->gpus && pl_ < (uint32_t)named->planes)
            ry_ca_desc(named, g_ * (uint32_t)named->planes + pl_, buf, sizeof buf);
        else
            ry_ca_desc(f, p, buf, sizeof buf);
        n->desc = ry_xstrdup(buf);
        n->port0 = k;
        n->nrec = 2;
        n->top = 1;
        po[k] = UINT32_MAX;
        nf->ports[k++] = (ry_nf_port){ .node = node, .num = 0, .peer = -1, .guid = g };
        po[k] = p;
        at[p] = k;
        nf->ports[k++] = (ry_nf_port){ .node = node, .num = 1, .peer = -1, .guid = g + 1 };
        node++;
    }
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        const ry_node *sw = &f->nodes[id];
        ry_nf_node *n = &nf->nodes[node];
        uint64_t g = ry_guid_switch(f, id);
        n->kind = RY_NF_SWITCH;
        n->guid = g;
        n->nports = (int)sw->nports;
        snprintf(buf, sizeof buf, "S-%016llx", (unsigned long long)g);
        n->id = ry_xstrdup(buf);
        ry_node_name(f, id, buf, sizeof buf);
        n->desc = ry_xstrdup(buf);
        n->port0 = k;
        po[k] = UINT32_MAX;
        nf->ports[k++] = (ry_nf_port){ .node = node, .num = 0, .peer = -1, .guid = g };
        int top = 0;
        for (uint32_t q = 0; q < sw->nports; q++) {
            uint32_t p = sw->port0 + q;
            if (f->ports[p].peer < 0)
                continue;
            po[k] = p;
            at[p] = k;
            top = (int)q + 1;
            nf->ports[k++] = (ry_nf_port){ .node = node, .num = (int)q + 1, .peer = -1,
                                           .guid = g };
        }
        n->nrec = k - n->port0;
        n->top = top;
        node++;
    }
    for (int i = 0; i < k; i++)
        if (po[i] != UINT32_MAX)
            nf->ports[i].peer = at[f->ports[po[i]].peer];
    free(at);
    *port_of = po;
}

int32_t ry_expand_old_link(const ry_expand *x, ry_vf_port p)
{
    if (p.file != 0 || p.port < 0 || p.port >= x->nf.nports || x->nf_port[p.port] == UINT32_MAX)
        return -1;
    return x->old->ports[x->nf_port[p.port]].link;
}

/* ---- money --------------------------------------------------------------------------------- */

/* Per medium of a cabling plan: its modules' cost over its links. */
static double *module_share(const ry_cabling *c)
{
    double *share = ry_xcalloc((size_t)c->nmedia + 1, sizeof *share);
    long long *n = ry_xcalloc((size_t)c->nmedia + 1, sizeof *n);
    for (size_t l = 0; l < c->f->nlinks; l++)
        n[c->cables[l].medium]++;
    for (int i = 0; i < c->nbom; i++) {
        if (strcmp(c->bom[i].what, "transceiver") != 0)
            continue;
        for (int m = 0; m < c->nmedia; m++)
            if (strcmp(c->media[m].name, c->bom[i].medium) == 0)
                share[m] += c->bom[i].cost;
    }
    for (int m = 0; m < c->nmedia; m++)
        share[m] = n[m] ? share[m] / (double)n[m] : 0;
    free(n);
    return share;
}

/* A link's share of the plan's cables and optics: its cable (a splitter's
 * over its legs) and its medium's modules over the medium's links. */
static double cable_share(const ry_cabling *c, const double *mod, uint32_t link)
{
    const ry_cable *k = &c->cables[link];
    const ry_medium *m = &c->media[k->medium];
    double cable = m->cable_price + m->cable_price_per_m * m->lengths[k->len_idx];
    return cable / (m->legs > 1 ? m->legs : 1) + mod[k->medium];
}

/* Whether old cable la of a serves as new cable lb of b: the same medium,
 * and long enough (a longer one stays, its slack in the tray). */
static int cable_serves(const ry_cabling *a, uint32_t la, const ry_cabling *b, uint32_t lb)
{
    const ry_cable *x = &a->cables[la], *y = &b->cables[lb];
    return strcmp(a->media[x->medium].name, b->media[y->medium].name) == 0 &&
           ry_cable_length(a, la) >= ry_cable_length(b, lb);
}

static double switch_price(const ry_fabric *f, uint32_t id)
{
    return ry_spec_tier_switch(f->spec, f->nodes[id].tier)->price;
}

/* ---- downtime ------------------------------------------------------------------------------ */

static int link_tier(const ry_fabric *f, uint32_t link)
{
    int t = ry_port_node(f, f->links[link].lo)->tier;
    return t < RY_XT_N ? t : RY_XT_N - 1;
}

/* The rail slot of a link: its lower end's rail, or the last slot. */
static int rail_slot(const ry_fabric *f, uint32_t link, int rails)
{
    const ry_node *lo = ry_port_node(f, f->links[link].lo);
    int r = lo->rail;
    if (lo->kind == RY_NODE_SWITCH && lo->nrails > 1)
        r = -1;
    return r >= 0 && r < rails ? r : rails;
}

static void downtime(ry_expand *x)
{
    const ry_fabric *f = x->old;
    int R = f->rails, W = R + 1;
    x->rails = R;
    x->down = ry_xcalloc((size_t)RY_XT_N * (size_t)W, sizeof *x->down);
    x->links = ry_xcalloc((size_t)RY_XT_N * (size_t)W, sizeof *x->links);
    x->gpus_cut_rail = ry_xcalloc((size_t)R + 1, sizeof *x->gpus_cut_rail);
    uint8_t *down = ry_xcalloc(f->nlinks + 1, 1);
    for (size_t l = 0; l < f->nlinks; l++) {
        down[l] = x->old_state[l] != RY_XC_KEPT;
        size_t i = (size_t)link_tier(f, (uint32_t)l) * (size_t)W + (size_t)rail_slot(f, (uint32_t)l, R);
        x->links[i]++;
        x->down[i] += down[l];
    }
    for (size_t l = 0; l < x->new->nlinks; l++)
        if (x->replaced[l] && x->old_of_new[l] >= 0 && !down[x->old_of_new[l]]) {
            uint32_t o = (uint32_t)x->old_of_new[l];
            down[o] = 1;
            x->down[(size_t)link_tier(f, o) * (size_t)W + (size_t)rail_slot(f, o, R)]++;
        }
    /* a leaf whose every uplink is down cuts its NICs off the rest of the plane */
    uint8_t *iso = ry_xcalloc(f->nnodes - f->first_switch + 1, 1);
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        const ry_node *n = &f->nodes[id];
        if (n->tier != 1 || f->tiers < 2)
            continue;
        int ups = 0, up_down = 0;
        for (uint32_t q = 0; q < n->nports; q++) {
            const ry_port *p = &f->ports[n->port0 + q];
            if (p->link < 0 || ry_port_node(f, (uint32_t)p->peer)->tier <= 1)
                continue;
            ups++;
            up_down += down[p->link];
        }
        if (ups > 0 && up_down == ups) {
            iso[id - f->first_switch] = 1;
            x->leaves_isolated++;
        }
    }
    for (long long g = 0; g < f->gpus; g++) {
        int cut = 0;
        for (int p = 0; p < f->planes; p++) {
            const ry_port *pt = &f->ports[g * f->planes + p];
            if (pt->link < 0)
                continue;
            uint32_t leaf = f->ports[pt->peer].owner;
            if (down[pt->link] || iso[leaf - f->first_switch]) {
                x->ports_cut++;
                cut = 1;
            }
        }
        if (cut) {
            x->gpus_cut++;
            int r = f->nodes[g].rail;
            x->gpus_cut_rail[r >= 0 && r < R ? r : R]++;
        }
    }
    free(iso);
    free(down);
}

/* ---- racks -------------------------------------------------------------------------------- */

int ry_expand_relocated(const ry_expand *x, uint32_t old_node, uint32_t new_node)
{
    int r0, u0, r1, u1, n;
    ry_layout_where(x->oc->lay, old_node, &r0, &u0, &n);
    ry_layout_where(x->nc->lay, new_node, &r1, &u1, &n);
    char a[64], b[64];
    ry_rack_name(x->oc->lay, r0, a, sizeof a);
    ry_rack_name(x->nc->lay, r1, b, sizeof b);
    return u0 != u1 || strcmp(a, b) != 0;
}

static void relocations(ry_expand *x)
{
    const ry_fabric *o = x->old;
    for (size_t i = 0; i < o->nnodes - o->first_switch; i++)
        if (x->sw_new[i] >= 0)
            x->relocated_switches +=
                ry_expand_relocated(x, o->first_switch + (uint32_t)i, (uint32_t)x->sw_new[i]);
    int gpn = o->spec->node.gpus_per_node > 0 ? o->spec->node.gpus_per_node : 1;
    char a[128], b[128];
    for (long long g = 0; g < o->gpus && g < x->new->gpus; g += gpn) {
        x->servers++;
        x->relocated_servers += ry_expand_relocated(x, (uint32_t)g, (uint32_t)g);
        ry_host_name(o, g / gpn, a, sizeof a);
        ry_host_name(x->new, g / gpn, b, sizeof b);
        x->renamed_servers += strcmp(a, b) != 0;
    }
}

/* ---- what a phase models ------------------------------------------------------------------- */

/* The key of s that gives a tier's switch model. */
static void switch_key(const ry_spec *s, int tier, char *buf, size_t n)
{
    const ry_switch_model *m = ry_spec_tier_switch(s, tier);
    snprintf(buf, n, "fabric.switch");
    for (int i = 0; i < s->n_tier; i++)
        if (m == &s->tier[i].sw)
            snprintf(buf, n, "fabric.tiers.%d.switch", i);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when a switch of tier t of old has the name of one of new (given in
 * buf). */
static int tier_name_shared(const ry_fabric *old, const ry_fabric *new, int t, char *buf,
                            size_t n)
{
    size_t k = 0, cap = new->nnodes - new->first_switch + 1;
    char **names = ry_xmalloc(cap * sizeof *names);
    for (uint32_t id = new->first_switch; id < new->nnodes; id++)
        if (new->nodes[id].tier == t) {
            ry_node_name(new, id, buf, n);
            names[k++] = ry_xstrdup(buf);
        }
    qsort(names, k, sizeof *names, cmp_str);
    int found = 0;
    for (uint32_t id = old->first_switch; id < old->nnodes && !found && k; id++) {
        if (old->nodes[id].tier != t)
            continue;
        ry_node_name(old, id, buf, n);
        const char *key = buf;
        found = bsearch(&key, names, k, sizeof *names, cmp_str) != NULL;
    }
    for (size_t i = 0; i < k; i++)
        free(names[i]);
    free(names);
    return found;
}

int ry_expand_check(const ry_fabric *old, const ry_fabric *new, ry_err *err)
{
    const ry_spec *o = old->spec, *n = new->spec;
    if (new->gpus < old->gpus || n->nodes < o->nodes) {
        /* a shrink retires servers: their cables and leaves would be
         * devices the new plan does not know */
        int by_gpus = n->doc && ry_ydoc_find(n->doc, "cluster.gpus", NULL);
        char g[32];
        snprintf(g, sizeof g, "%s", ry_n(old->gpus));
        ry_err_set(err, by_gpus ? "cluster.gpus" : "cluster.nodes",
                   "expand grows a fabric; NEW has fewer GPUs/nodes than OLD: %s GPUs on %lld "
                   "nodes against %s on %lld (a shrink retires servers, which a phase does "
                   "not model)", ry_n(new->gpus), n->nodes, g, o->nodes);
        return -1;
    }
    if (strcmp(o->node.name, n->node.name) != 0 || o->node.gpus_per_node != n->node.gpus_per_node ||
        old->planes != new->planes) {
        ry_err_set(err, "cluster.node",
                   "expand keeps the servers that stand: cluster.node is %s in OLD (%d GPUs "
                   "each, %d plane%s) and %s in NEW (%d GPUs, %d plane%s); replacing servers "
                   "is not a phase of growth", o->node.name, o->node.gpus_per_node, old->planes,
                   old->planes == 1 ? "" : "s", n->node.name, n->node.gpus_per_node,
                   new->planes, new->planes == 1 ? "" : "s");
        return -1;
    }
    /* a switch kept by name is the same switch: of the same model */
    int T = old->tiers < new->tiers ? old->tiers : new->tiers;
    char a[128];
    int shared = old->nnodes == old->first_switch;
    for (int t = 1; t <= T && !shared; t++)
        shared = tier_name_shared(old, new, t, a, sizeof a);
    if (!shared) {
        ry_node_name(old, old->first_switch, a, sizeof a);
        ry_err_set(err, "fabric",
                   "expand keeps the switches that stand, and no switch of OLD (%s of %lld) "
                   "stands in NEW: NEW is a fabric built anew (another design, size or "
                   "switch model), not a phase of growth", a,
                   (long long)(old->nnodes - old->first_switch));
        return -1;
    }
    for (int t = 1; t <= T; t++) {
        const ry_switch_model *mo = ry_spec_tier_switch(o, t), *mn = ry_spec_tier_switch(n, t);
        if (strcmp(mo->name, mn->name) == 0 && mo->radix == mn->radix &&
            mo->cage_ports == mn->cage_ports)
            continue;
        if (!tier_name_shared(old, new, t, a, sizeof a))
            continue;
        char key[48];
        switch_key(n, t, key, sizeof key);
        ry_err_set(err, key,
                   "expand keeps the switches that stand: %s (the %s switches) is %s of %d "
                   "ports in OLD and %s of %d ports in NEW, and %s stands in both; a switch of "
                   "another model or port count has other ports and cages, so a phase "
                   "cannot keep its cables: keep the model, or replace the tier apart from a "
                   "growth", key,
                   ry_tier_name(t, old->tiers), mo->name, mo->radix, mn->name, mn->radix, a);
        return -1;
    }
    return 0;
}

/* ---- the work order ------------------------------------------------------------------------ */

static void work_push(ry_expand *x, size_t *cap, const ry_vf_finding *f, int replace)
{
    RY_ALLOC_GROW2(x->work, x->work_replace, x->nwork + 1, *cap);
    x->work[x->nwork] = *f;
    x->work_replace[x->nwork++] = (uint8_t)replace;
    if (replace)
        x->wo_replace++;
    else if (f->kind == RY_VF_MISSING)
        x->wo_connect++;
    else if (f->kind == RY_VF_MISWIRED)
        x->wo_move++;
    else
        x->wo_remove++;
}

/* One row per cable of the phase: verify's finding where it has one, else
 * the row its state needs. nf_at: per old port, its netfile port. */
static void work_order(ry_expand *x, const int32_t *nf_at)
{
    const ry_fabric *old = x->old, *new = x->new;
    uint8_t *done_old = ry_xcalloc(old->nlinks + 1, 1), *done_new = ry_xcalloc(new->nlinks + 1, 1);
    size_t cap = 0;
    for (size_t i = 0; i < x->v.nfindings; i++) {
        const ry_vf_finding *fd = &x->v.findings[i];
        int32_t l = fd->link;
        int32_t ol = fd->fb.file >= 0 ? ry_expand_old_link(x, fd->fa) : -1;
        if (fd->kind == RY_VF_MISSING && x->new_state[l] == RY_XC_ADDED && !done_new[l]) {
            done_new[l] = 1;
            work_push(x, &cap, fd, 0);
        } else if (fd->kind == RY_VF_MISWIRED && x->new_state[l] == RY_XC_MOVED && !done_new[l]) {
            done_new[l] = 1;
            if (ol >= 0)
                done_old[ol] = 1;
            work_push(x, &cap, fd, x->replaced[l]);
        } else if (fd->kind == RY_VF_UNEXPECTED && ol >= 0 && x->old_state[ol] == RY_XC_REMOVED &&
                   !done_old[ol]) {
            done_old[ol] = 1;
            work_push(x, &cap, fd, 0);
        }
    }
    ry_vf_finding f;
    for (size_t l = 0; l < new->nlinks; l++) {
        int add = x->new_state[l] == RY_XC_ADDED && !done_new[l];
        int rep = x->new_state[l] == RY_XC_KEPT && x->replaced[l];
        if (!add && !rep)
            continue;
        memset(&f, 0, sizeof f);
        f.kind = RY_VF_MISSING;
        f.link = (int32_t)l;
        f.fa.file = f.fb.file = -1;
        f.cand = -1;
        work_push(x, &cap, &f, rep);
    }
    for (size_t l = 0; l < old->nlinks; l++) {
        if (x->old_state[l] != RY_XC_REMOVED || done_old[l])
            continue;
        /* a cable of a device the new plan drops: verify's unknown device */
        memset(&f, 0, sizeof f);
        f.kind = RY_VF_UNEXPECTED;
        f.link = -1;
        f.fa = (ry_vf_port){ 0, nf_at[old->links[l].lo] };
        f.fb = (ry_vf_port){ 0, nf_at[old->links[l].hi] };
        f.cand = -1;
        work_push(x, &cap, &f, 0);
    }
    free(done_old);
    free(done_new);
}

/* ---- the comparison ------------------------------------------------------------------------ */

int ry_expand_run(const ry_fabric *old, const ry_cabling *oc, const ry_fabric *new,
                  const ry_cabling *nc, ry_expand *x, ry_err *err)
{
    memset(x, 0, sizeof *x);
    if (ry_expand_check(old, new, err) < 0)
        return -1;
    x->old = old;
    x->new = new;
    x->oc = oc;
    x->nc = nc;
    ry_bom ob, nb;
    ry_bom_compute(old, &ob);
    ry_bom_compute(new, &nb);
    ry_capex_compute(old->spec, &ob, oc, &x->capex_old);
    ry_capex_compute(new->spec, &nb, nc, &x->capex_new);
    fabric_netfile(old, new, &x->nf, &x->nf_port);
    /* a switch is kept under its own name only: one the new plan does not
     * name is not placed where it stands by its cables, its cables are
     * removed */
    if (ry_verify_run(new, &x->nf, 1, RY_VERIFY_NO_RATES | RY_VERIFY_BY_NAME, &x->v, err) < 0) {
        const char *why = ry_verify_error(&x->v, err);
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "the old plan cannot be found in the new one: %s", why);
        ry_err_set(err, err->key, "%s", msg);
        return -1;
    }
    size_t osw = old->nnodes - old->first_switch, nsw = new->nnodes - new->first_switch;
    x->sw_new = ry_xmalloc((osw + 1) * sizeof *x->sw_new);
    x->sw_old = ry_xmalloc((nsw + 1) * sizeof *x->sw_old);
    memset(x->sw_new, 0xff, (osw + 1) * sizeof *x->sw_new);
    memset(x->sw_old, 0xff, (nsw + 1) * sizeof *x->sw_old);
    /* the netfile's switches are the old plan's, in order, after its CAs */
    int nca = x->nf.nnodes - (int)osw;
    for (size_t i = 0; i < osw; i++) {
        int32_t m = x->v.nmap[0][nca + (int)i];
        uint32_t oid = old->first_switch + (uint32_t)i;
        /* kept only under its own name: a switch placed by structure under
         * another name is a new switch where an old one stood */
        char a[128], b[128];
        if (m >= 0) {
            ry_node_name(old, oid, a, sizeof a);
            ry_node_name(new, (uint32_t)m, b, sizeof b);
            if (strcmp(a, b) != 0)
                m = -1;
        }
        if (m >= 0) {
            x->sw_new[i] = m;
            x->sw_old[(uint32_t)m - new->first_switch] = (int32_t)oid;
        }
    }
    for (size_t i = 0; i < osw; i++) {
        int t = old->nodes[old->first_switch + i].tier;
        x->sw[x->sw_new[i] >= 0 ? RY_XC_KEPT : RY_XC_REMOVED][t < RY_XT_N ? t : RY_XT_N - 1]++;
    }
    for (size_t i = 0; i < nsw; i++)
        if (x->sw_old[i] < 0) {
            int t = new->nodes[new->first_switch + i].tier;
            x->sw[RY_XC_ADDED][t < RY_XT_N ? t : RY_XT_N - 1]++;
        }

    /* cables: kept unless a finding says otherwise */
    x->old_state = ry_xcalloc(old->nlinks + 1, 1);
    x->new_state = ry_xcalloc(new->nlinks + 1, 1);
    x->replaced = ry_xcalloc(new->nlinks + 1, 1);
    x->old_of_new = ry_xmalloc((new->nlinks + 1) * sizeof *x->old_of_new);
    memset(x->old_of_new, 0xff, (new->nlinks + 1) * sizeof *x->old_of_new);
    for (size_t i = 0; i < x->v.nfindings; i++) {
        const ry_vf_finding *fd = &x->v.findings[i];
        int32_t ol = fd->fb.file >= 0 ? ry_expand_old_link(x, fd->fa) : -1;
        switch (fd->kind) {
        case RY_VF_MISSING:
            x->new_state[fd->link] = RY_XC_ADDED;
            break;
        case RY_VF_UNEXPECTED:
            if (ol >= 0)
                x->old_state[ol] = RY_XC_REMOVED;
            break;
        case RY_VF_MISWIRED:
            x->new_state[fd->link] = RY_XC_MOVED;
            if (ol >= 0) {
                x->old_state[ol] = RY_XC_MOVED;
                x->old_of_new[fd->link] = ol;
            }
            break;
        default:
            break;
        }
    }
    /* kept cables: the new link at the planned port of an old cable's lower end */
    int32_t *nf_at = ry_xmalloc(((size_t)old->nports + 1) * sizeof *nf_at);
    memset(nf_at, 0xff, ((size_t)old->nports + 1) * sizeof *nf_at);
    for (int i = 0; i < x->nf.nports; i++)
        if (x->nf_port[i] != UINT32_MAX)
            nf_at[x->nf_port[i]] = i;
    for (size_t l = 0; l < old->nlinks; l++) {
        if (x->old_state[l] != RY_XC_KEPT)
            continue;
        int32_t k = nf_at[old->links[l].lo];
        int32_t np = k >= 0 ? x->v.pmap[0][k] : -1;
        int32_t nl = np >= 0 ? new->ports[np].link : -1;
        if (nl >= 0 && x->new_state[nl] == RY_XC_KEPT && x->old_of_new[nl] < 0)
            x->old_of_new[nl] = (int32_t)l;
        else    /* not found in place after all: taken as removed */
            x->old_state[l] = RY_XC_REMOVED;
    }
    for (size_t l = 0; l < new->nlinks; l++)
        if (x->new_state[l] == RY_XC_KEPT && x->old_of_new[l] < 0)
            x->new_state[l] = RY_XC_ADDED;
    for (size_t l = 0; l < old->nlinks; l++)
        if (x->old_state[l] != RY_XC_MOVED)
            x->cab[x->old_state[l]][link_tier(old, (uint32_t)l)]++;
    for (size_t l = 0; l < new->nlinks; l++) {
        int t = link_tier(new, (uint32_t)l);
        if (x->new_state[l] == RY_XC_MOVED)
            x->cab[RY_XC_MOVED][t]++;
        else if (x->new_state[l] == RY_XC_ADDED)
            x->cab[RY_XC_ADDED][t]++;
    }

    /* money */
    double *om = module_share(oc), *nm = module_share(nc);
    for (size_t l = 0; l < new->nlinks; l++) {
        double share = cable_share(nc, nm, (uint32_t)l);
        int32_t o = x->old_of_new[l];
        if (o >= 0 && !cable_serves(oc, (uint32_t)o, nc, (uint32_t)l)) {
            x->replaced[l] = 1;
            x->replaced_n[link_tier(new, (uint32_t)l)]++;
        }
        if (o >= 0 && !x->replaced[l])
            x->cab_money.reused += share;
        else
            x->cab_money.bought += share;
        if (o >= 0 && x->replaced[l])
            x->cab_money.retired += cable_share(oc, om, (uint32_t)o);
    }
    for (size_t l = 0; l < old->nlinks; l++)
        if (x->old_state[l] == RY_XC_REMOVED)
            x->cab_money.retired += cable_share(oc, om, (uint32_t)l);
    free(om);
    free(nm);
    for (size_t i = 0; i < nsw; i++) {
        double p = switch_price(new, new->first_switch + (uint32_t)i);
        if (x->sw_old[i] >= 0)
            x->sw_money.reused += p;
        else
            x->sw_money.bought += p;
    }
    for (size_t i = 0; i < osw; i++)
        if (x->sw_new[i] < 0)
            x->sw_money.retired += switch_price(old, old->first_switch + (uint32_t)i);
    work_order(x, nf_at);
    free(nf_at);
    downtime(x);
    relocations(x);
    return 0;
}

void ry_expand_free(ry_expand *x)
{
    if (!x)
        return;
    ry_verify_free(&x->v);
    ry_netfile_free(&x->nf);
    free(x->nf_port);
    free(x->old_of_new);
    free(x->old_state);
    free(x->new_state);
    free(x->replaced);
    free(x->sw_new);
    free(x->sw_old);
    free(x->down);
    free(x->links);
    free(x->gpus_cut_rail);
    free(x->work);
    free(x->work_replace);
    memset(x, 0, sizeof *x);
}
