/* Design checks (design_check.h). The figures come from walking the graph;
 * the cheaper neighbours from building and pricing them, so a check never
 * disagrees with what `railyard bom` would say about the same design. */
#include "analysis/design_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cabling.h"

#include "fabric/names.h"
#include "util/diag.h"
#include "util/numfmt.h"

/* "$10,723,328": whole dollars with thousands separators. */
static const char *usd(char *buf, size_t cap, double v)
{
    return ry_num_money(buf, cap, v, 0);
}

static void vadd(ry_design_check *c, ry_check_level lv, const char *check, const char *key,
                 const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
static void vadd(ry_design_check *c, ry_check_level lv, const char *check, const char *key,
                 const char *fmt, va_list ap)
{
    if (lv == RY_CHECK_ERROR)
        c->errors++;
    else if (lv == RY_CHECK_WARNING)
        c->warnings++;
    if (c->nfindings == RY_CHECK_MAX_FINDINGS)
        return;
    ry_check_finding *x = &c->finding[c->nfindings++];
    x->level = lv;
    snprintf(x->check, sizeof x->check, "%s", check);
    snprintf(x->key, sizeof x->key, "%s", key);
    vsnprintf(x->msg, sizeof x->msg, fmt, ap);
}

void ry_design_check_add(ry_design_check *c, ry_check_level lv, const char *check,
                         const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(c, lv, check, key, fmt, ap);
    va_end(ap);
}
#define add ry_design_check_add

/* NIC faster than the switch port: the links run at the port's speed. */
static void check_nic(const ry_spec *s, ry_design_check *c)
{
    c->nic_gbps = s->node.nic_gbps;
    c->port_gbps = ry_spec_leaf_gbps(s);
    c->link_gbps = c->nic_gbps < c->port_gbps ? c->nic_gbps : c->port_gbps;
    c->nic_faster = c->nic_gbps > c->port_gbps;
    c->accepted = s->accept_slower_ports;
    if (!c->nic_faster)
        return;
    if (!c->accepted)
        add(c, RY_CHECK_ERROR, "nic-speed", s->n_tier ? "fabric.tiers.0.down" : "fabric.switch",
            "the GPU NICs run at %gG but the %s ports at %gG, so every NIC link would run at "
            "%gG: choose a switch of %gG ports, or set fabric.accept_slower_ports: true",
            c->nic_gbps, s->sw.name[0] ? s->sw.name : "switch", c->port_gbps, c->port_gbps,
            c->nic_gbps);
    else
        add(c, RY_CHECK_NOTE, "nic-speed", "fabric.accept_slower_ports",
            "the %gG NICs link at the switch ports' %gG (fabric.accept_slower_ports); the "
            "model uses %gG", c->nic_gbps, c->port_gbps, c->port_gbps);
}

/* A workload that does not fit the cluster (spec/workload.h): the other
 * commands that do not use it go on without it, the checker says so. */
static void check_workload(const ry_spec *s, ry_design_check *c)
{
    const ry_err *e = &s->workload_misfit;
    if (e->key[0])
        add(c, RY_CHECK_ERROR, "workload-fit", e->key, "%s", e->msg);
}

/* A leaf whose several uplinks all reach one switch loses every path up
 * when that one fails: a single point of failure (a small fabric whose top
 * is one spine). Higher up it is not: a spine whose uplinks reach one core
 * leaves its leaves their other spines. */
static void check_single_upper(const ry_fabric *f, ry_design_check *c)
{
    long long lone = 0, lower = 0;
    uint32_t first = 0, upper = 0;
    int first_up = 0;
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        const ry_node *n = &f->nodes[id];
        if (n->tier != 1 || f->tiers < 2)
            continue;
        int ups = 0, same = 1;
        uint32_t peer = 0;
        for (uint32_t p = n->port0; p < n->port0 + n->nports; p++) {
            int32_t q = f->ports[p].peer;
            if (q < 0)
                continue;
            const ry_node *m = ry_port_node(f, (uint32_t)q);
            if (m->kind != RY_NODE_SWITCH || m->tier <= n->tier)
                continue;
            if (ups++ == 0)
                peer = f->ports[q].owner;
            else
                same &= f->ports[q].owner == peer;
        }
        if (ups < 2)
            continue;
        lower++;
        if (same && lone++ == 0) {
            first = id;
            upper = peer;
            first_up = ups;
        }
    }
    if (!lone)
        return;
    char a[96], b[96];
    ry_node_name(f, first, a, sizeof a);
    ry_node_name(f, upper, b, sizeof b);
    add(c, RY_CHECK_WARNING, "single-upper", "fabric.top_min",
        "%s of %s leaves have all their uplinks on one switch (%s: its %d uplinks all go to "
        "%s), a single point of failure: fabric.top_min: 2 or more spreads them over that "
        "many top switches", ry_n(lone), ry_n(lower), a, first_up, b);
}

/* Per tier: ports cabled, bandwidth cabled down and up. */
static void check_tiers(const ry_fabric *f, const ry_bom *b, ry_design_check *c)
{
    c->tiers = f->tiers;
    c->price_port = b->price_port;
    c->price_transceiver = b->price_transceiver;
    for (int t = 1; t <= f->tiers; t++) {
        ry_check_tier *x = &c->tier[t];
        x->switches = b->tier[t].switches;
        x->ports = b->tier[t].ports;
        x->used = b->tier[t].ports_used;
        x->idle = x->ports - x->used;
        x->fill = x->ports ? (double)x->used / (double)x->ports : 0.0;
        x->idle_cost = (double)x->idle * b->price_port;
    }
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *hi = ry_port_node(f, f->links[l].hi);
        const ry_node *lo = ry_port_node(f, f->links[l].lo);
        double g = ry_link_gbps(f, (uint32_t)l);
        c->tier[hi->tier].down_gbps += g;
        if (lo->kind == RY_NODE_SWITCH)
            c->tier[lo->tier].up_gbps += g;
    }
    for (int t = 1; t <= f->tiers; t++) {
        const ry_check_tier *x = &c->tier[t];
        if (x->ports == 0 || x->fill >= RY_CHECK_FILL_WARN)
            continue;
        char a[40], p[40];
        add(c, RY_CHECK_WARNING, "tier-fill", "cluster.gpus",
            "%s: %s of %s ports idle (%.1f%% cabled) on %s switches, %s at %s a port "
            "(the rail-only paper's cost model)",
            ry_tier_name(t, f->tiers), ry_n(x->idle), ry_n(x->ports), 100.0 * x->fill,
            ry_n(x->switches),
            usd(a, sizeof a, x->idle_cost), usd(p, sizeof p, c->price_port));
    }
    /* a leaf cabling more up than down buys uplinks its down-links cannot
     * fill (a scalable unit sized for a smaller switch); a growth phase's
     * reserve cables the target's uplinks on purpose */
    const ry_bom_tier *x = &b->tier[1];
    if (f->tiers > 1 && !f->reserve && x->sw_up > x->sw_down)
        add(c, RY_CHECK_WARNING, "tier-uplinks", "cluster.scalable_unit",
            "leaf: the fullest switch cables %d ports down and %d up: %d uplinks more than its "
            "down-links can fill; a scalable unit that fills the leaves (cluster.scalable_unit: "
            "0) needs fewer switches above", x->sw_down, x->sw_up, x->sw_up - x->sw_down);
    check_single_upper(f, c);
}

/* Builds and prices the spec with gpus and scalable unit changed. */
static int price_option(const ry_spec *base, long long gpus, int su, ry_check_option *o)
{
    ry_spec s = *base;
    s.gpus = gpus;
    s.nodes = gpus / (base->node.gpus_per_node > 0 ? base->node.gpus_per_node : 1);
    s.scalable_unit = su;
    ry_fabric f;
    ry_err err;
    if (ry_fabric_build(&s, &f, &err) < 0)
        return -1;
    ry_bom b;
    ry_bom_compute(&f, &b);
    memset(o, 0, sizeof *o);
    o->gpus = gpus;
    o->su_domains = f.su_domains;
    o->units = f.num_units;
    o->tiers = f.tiers;
    o->top_switches = b.tier[f.tiers].switches;
    o->cost = b.cost_total;
    ry_fabric_free(&f);
    return 0;
}

static long long gcd(long long a, long long b)
{
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Neighbours: a few GPU counts below the spec's (fewer HB domains, whole
 * scalable units) and scalable units one either side. The best one that
 * saves more than RY_CHECK_SAVING_WARN of the cost per GPU is proposed. */
static void check_neighbours(const ry_fabric *f, const ry_bom *b, ry_design_check *c)
{
    const ry_spec *s = f->spec;
    c->cost = b->cost_total;
    c->cost_per_gpu = s->gpus > 0 ? b->cost_total / (double)s->gpus : 0.0;
    c->spec_option = (ry_check_option){ .gpus = s->gpus, .su_domains = f->su_domains,
                                        .units = f->num_units, .tiers = f->tiers,
                                        .top_switches = b->tier[f->tiers].switches,
                                        .cost = b->cost_total };
    if (!(c->cost_per_gpu > 0))
        return;
    if (s->gpus > RY_CHECK_NEIGHBOUR_MAX_GPUS) {
        add(c, RY_CHECK_NOTE, "cheaper-size", "cluster.gpus",
            "neighbouring sizes are not priced above %s GPUs (railyard compare and bom "
            "--set cluster.gpus=... price them one at a time)", ry_n(RY_CHECK_NEIGHBOUR_MAX_GPUS));
        return;
    }
    long long K = s->hb_domain, gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long step = K / gcd(K, gpn) * gpn;
    long long unit = (long long)f->su_domains * K;
    long long cand[8];
    int su[8], n = 0;
    long long whole = s->gpus / unit * unit / step * step;
    cand[n] = whole, su[n++] = s->scalable_unit;
    for (int j = 1; j <= 4; j++)
        cand[n] = s->gpus - j * step, su[n++] = s->scalable_unit;
    if (s->design != RY_DESIGN_FAT_TREE) {
        cand[n] = s->gpus, su[n++] = f->su_domains - 1;
        cand[n] = s->gpus, su[n++] = f->su_domains + 1;
    }
    for (int i = 0; i < n; i++) {
        if (cand[i] <= 0 || cand[i] < s->gpus - s->gpus / 10 || su[i] < 0 ||
            (cand[i] == s->gpus && su[i] == s->scalable_unit) ||
            (cand[i] == s->gpus && su[i] == 0))
            continue;
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= cand[j] == cand[i] && su[j] == su[i];
        ry_check_option o;
        if (dup || price_option(s, cand[i], su[i], &o) < 0)
            continue;
        c->options_tried++;
        o.saving = 1.0 - o.cost / c->cost;
        o.saving_per_gpu = 1.0 - (o.cost / (double)o.gpus) / c->cost_per_gpu;
        if (o.saving_per_gpu <= RY_CHECK_SAVING_WARN)
            continue;
        if (!c->has_cheaper || o.saving_per_gpu > c->cheaper.saving_per_gpu + 1e-9 ||
            (fabs(o.saving_per_gpu - c->cheaper.saving_per_gpu) <= 1e-9 &&
             o.gpus > c->cheaper.gpus)) {
            c->cheaper = o;
            c->has_cheaper = 1;
        }
    }
    if (!c->has_cheaper)
        return;
    const ry_check_option *o = &c->cheaper;
    char a[40], z[40];
    if (o->gpus != s->gpus)
        add(c, RY_CHECK_WARNING, "cheaper-size", "cluster.gpus",
            "%s GPUs (%s fewer) cost %s, %.1f%% less than the %s GPUs' %s and %.1f%% less "
            "per GPU by the rail-only paper's cost model: %d scalable unit%s of %d HB domains, "
            "%s top-tier switches instead of %s",
            ry_n(o->gpus), ry_n(s->gpus - o->gpus), usd(a, sizeof a, o->cost), 100.0 * o->saving,
            ry_n(s->gpus), usd(z, sizeof z, c->cost), 100.0 * o->saving_per_gpu, o->units,
            o->units == 1 ? "" : "s", o->su_domains, ry_n(o->top_switches),
            ry_n(c->spec_option.top_switches));
    else
        add(c, RY_CHECK_WARNING, "cheaper-size", "cluster.scalable_unit",
            "scalable units of %d HB domains (%d units) cost %s for the same %s GPUs, "
            "%.1f%% less than units of %d (%s; the rail-only paper's cost model)", o->su_domains,
            o->units, usd(a, sizeof a, o->cost), ry_n(o->gpus), 100.0 * o->saving, f->su_domains,
            usd(z, sizeof z, c->cost));
}

/* The default host names take as many digits as the server count needs
 * (at least 3): without a growth target, the phase that crosses the next
 * power of ten renames every server (node999 -> node0999). */
static void check_host_width(const ry_fabric *f, ry_design_check *c)
{
    const ry_spec *s = f->spec;
    if (s->node_pattern[0] || f->reserve)
        return;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long nodes = f->gpus / gpn, limit = 999;
    int w = 3;
    while (nodes > limit && w < 12) {
        limit = limit * 10 + 9;
        w++;
    }
    add(c, RY_CHECK_NOTE, "host-width", "growth.target_nodes",
        "host names take %d digits (node%0*d..); a phase grown past %s servers renames every "
        "server: growth.target_nodes (or naming.node) fixes the width now", w, w, 1,
        ry_n(limit));
}

void ry_design_check_compute(const ry_fabric *f, const ry_bom *b, ry_design_check *c)
{
    memset(c, 0, sizeof *c);
    check_nic(f->spec, c);
    check_workload(f->spec, c);
    check_host_width(f, c);
    check_tiers(f, b, c);
    check_neighbours(f, b, c);
}

/* Network racks under RY_CHECK_RACK_FILL_WARN full, and many of them: the
 * leaves of small units (a fat tree's unit is one leaf) each in a rack of
 * their own make a floor far larger than it needs to be. */
static void check_rack_fill(const ry_layout *lay, ry_design_check *c)
{
    int spr = lay->switches_per_rack;
    int nnet = 0, low = 0, least = -1;
    /* switches counted, not units: a fabric.tiers list's models differ in height */
    int *held = ry_xcalloc((size_t)(lay->nracks > 0 ? lay->nracks : 1), sizeof *held);
    for (size_t i = 0; i < lay->f->nnodes - lay->f->first_switch; i++)
        if (lay->sw_rack[i] >= 0)
            held[lay->sw_rack[i]]++;
    for (int i = 0; i < lay->nracks; i++) {
        if (lay->racks[i].kind != RY_RACK_NETWORK)
            continue;
        int n = held[i];
        nnet++;
        if (n < RY_CHECK_RACK_FILL_WARN * spr - 1e-9) {
            low++;
            if (least < 0 || n < least)
                least = n;
        }
    }
    free(held);
    if (low < 2 || low <= RY_CHECK_RACK_FILL_SHARE * lay->nracks)
        return;
    add(c, RY_CHECK_WARNING, "rack-fill", "layout.network",
        "%d of %d racks are network racks under a third full (down to %d switch%s where %d "
        "fit by space and power): stand the leaves together, layout.network: end-of-row or "
        "middle-of-row", low, lay->nracks, least, least == 1 ? "" : "es", spr);
}

void ry_design_check_physical(const ry_cabling *cab, ry_design_check *c)
{
    const ry_layout *lay = cab->lay;
    const ry_fabric *f = cab->f;
    /* runs near the reach of the farthest-reaching medium of their speed:
     * a route longer than planned would have no medium (a run near the
     * reach of a medium chosen as the cheapest has one that goes further) */
    long long near = 0;
    uint32_t worst = 0;
    double worst_share = -1, worst_reach = 0;
    for (size_t l = 0; l < f->nlinks; l++) {
        double gbps = ry_link_gbps(f, (uint32_t)l), reach = 0;
        for (int m = 0; m < cab->nmedia; m++)
            for (int k = 0; k < cab->media[m].nspeeds; k++)
                if (cab->media[m].speeds[k] == gbps)
                    reach = fmax(reach, cab->media[m].lengths[cab->media[m].nlengths - 1]);
        double share = reach > 0 ? cab->cables[l].routed_m / reach : 0;
        if (share >= RY_CHECK_REACH_WARN)
            near++;
        if (share > worst_share) {
            worst_share = share;
            worst = (uint32_t)l;
            worst_reach = reach;
        }
    }
    if (near) {
        char label[128];
        ry_cable_label(f, worst, label, sizeof label);
        add(c, RY_CHECK_WARNING, "reach", "layout",
            "%s cable%s run within %.0f%% of the reach of any medium of their speed (the "
            "nearest: %s, %.1f m of %g m): a longer route than planned would have no medium; "
            "shorten the layout (layout.hall_racks, layout.hall_gap, layout.building_gap)",
            ry_n(near), near == 1 ? "" : "s", (1 - RY_CHECK_REACH_WARN) * 100, label,
            cab->cables[worst].routed_m, worst_reach);
    }
    /* racks over their power budget (network racks are filled within it) */
    if (lay->rack_budget_w > 0) {
        int over = 0;
        double most = 0;
        for (int i = 0; i < lay->nracks; i++)
            if (lay->racks[i].power_w > lay->rack_budget_w * (1 + 1e-9)) {
                over++;
                if (lay->racks[i].power_w > most)
                    most = lay->racks[i].power_w;
            }
        if (over)
            add(c, RY_CHECK_WARNING, "rack-power",
                f->spec->layout.rack_power > 0 ? "layout.rack_power" : "layout.nodes_per_rack",
                "%d rack%s draw up to %.1f kW, over the rack power budget of %.1f kW: fewer "
                "servers per rack (layout.nodes_per_rack) or a larger budget (layout.rack_power)",
                over, over == 1 ? "" : "s", most / 1000, lay->rack_budget_w / 1000);
    } else {
        add(c, RY_CHECK_NOTE, "rack-power", "cluster.node",
            "no rack power budget: the node has no power (cluster.node.power) and no "
            "layout.rack_power is set, so racks are not checked");
    }
    check_rack_fill(lay, c);
    int nnet = lay->nrooms - lay->nhalls;
    add(c, RY_CHECK_NOTE, "layout", "layout",
        "%d racks in %d hall%s, %d network room%s and %d building%s; the longest run is %.1f m",
        lay->nracks, lay->nhalls, lay->nhalls == 1 ? "" : "s", nnet, nnet == 1 ? "" : "s",
        lay->nbuildings, lay->nbuildings == 1 ? "" : "s", cab->longest_m);
}
