/* Per-tier switches, port speeds, splits and tapers (fabric.tiers as a list).
 *
 * A tier's switch has `radix` ports at port_gbps (its catalog entry). A side
 * (down or up) may run its ports split: a 400G port as 2 x 200G, an 800G one
 * as 2 x 400G, 4 x 200G or 8 x 100G. The taper D:U is bandwidth down to
 * bandwidth up; since every side is a split of the same ports, it is also
 * the ratio of the model's ports each side takes, so a spec without a list
 * (fabric.oversubscription, one switch model at one speed) resolves to
 * exactly the ports it always had. Counts given for a side win over the
 * taper; a side left out takes what the other leaves (the rest go up). */
#include "spec/spec.h"

#include <stdio.h>
#include <string.h>

#include "util/diag.h"

/* Ways a port may split: its lanes. 8 only from 800G (eight 100G lanes). */
static int split_ok(double port_gbps, int split)
{
    if (split == 1 || split == 2 || split == 4)
        return 1;
    return split == 8 && port_gbps >= 800;
}

static int side_split(const ry_switch_model *sw, double gbps, const char *key, int j,
                      const char *side, int *split, ry_err *err)
{
    double S = sw->port_gbps;
    if (!(gbps > 0) || gbps == S) {
        *split = 1;
        return 0;
    }
    double q = S / gbps;
    int n = (int)(q + 0.5);
    if (gbps > S) {
        ry_err_set(err, key, "tier %d runs its %s ports at %gG, faster than the %gG ports of "
                   "%s", j, side, gbps, S, sw->name);
        return -1;
    }
    if (q - n > 1e-9 || n - q > 1e-9 || !split_ok(S, n)) {
        ry_err_set(err, key, "a %gG port of %s cannot split into %gG ports: it splits into 2 "
                   "or 4%s (%gG, %gG%s)", S, sw->name, gbps, S >= 800 ? " or 8" : "", S / 2,
                   S / 4, S >= 800 ? ", 100G" : "");
        return -1;
    }
    *split = n;
    return 0;
}

static int cages(int count, int split)
{
    return (count + split - 1) / split;
}

int ry_tier_entry(const ry_spec *s, int t, int j, ry_tier_use *use)
{
    int n = s->n_tier;
    *use = RY_TIER_AS_LISTED;
    if (!s->tiers_by_position)
        return j - 1 < n ? j - 1 : -1;
    int i = (j < n ? j : n) - 1;
    if (j == t && i < n - 1)
        *use = RY_TIER_AS_TOP;
    else if (j < t && i == n - 1)
        *use = RY_TIER_REPEATED;
    return i;
}

void ry_tier_entries_of(const ry_spec *s, int tiers, ry_tier_entries *out)
{
    memset(out, 0, sizeof *out);
    if (!s->tiers_by_position || tiers == s->n_tier)
        return;     /* the list as written */
    out->by_position = 1;
    for (int t = 1; t <= tiers; t++)
        out->entry[t] = ry_tier_entry(s, tiers, t, &out->use[t]);
}

int ry_tier_ports_of(const ry_spec *s, int t, int j, ry_tier_ports *out, ry_err *err)
{
    ry_tier_use use;
    int i = ry_tier_entry(s, t, j, &use);
    ry_tier_spec m;
    const ry_tier_spec *e = NULL;
    if (i >= 0) {
        /* an entry taken by position keeps its switch and down speed; its
         * counts, taper and group were written for another place */
        m = s->tier[i];
        if (use != RY_TIER_AS_LISTED) {
            m.up_gbps = use == RY_TIER_REPEATED ? m.down_gbps : 0;
            m.down_count = m.up_count = m.group = 0;
            m.taper = (ry_ratio){ 0, 0 };
        }
        e = &m;
    }
    int key = i >= 0 ? i : j - 1;
    char kd[48], ku[48], kt[48];
    snprintf(kd, sizeof kd, "fabric.tiers.%d.down", key);
    snprintf(ku, sizeof ku, "fabric.tiers.%d.up", key);
    snprintf(kt, sizeof kt, "fabric.tiers.%d", key);
    memset(out, 0, sizeof *out);
    out->sw = i >= 0 ? &s->tier[i].sw : &s->sw;     /* the spec's, not the copy's */
    const ry_switch_model *sw = out->sw;
    int P = sw->radix;
    double S = sw->port_gbps;
    out->down_gbps = e && e->down_gbps > 0 ? e->down_gbps : S;
    out->up_gbps = e && e->up_gbps > 0 ? e->up_gbps : S;
    out->group = e ? e->group : 0;
    if (side_split(sw, out->down_gbps, kd, j, "down", &out->down_split, err) < 0)
        return -1;
    if (j >= t) {
        /* The top: every port down. */
        out->up_split = 1;
        out->up_gbps = 0;
        out->cages_down = P;
        out->down = P * out->down_split;
        if (e && e->down_count > 0) {
            if (cages(e->down_count, out->down_split) > P) {
                ry_err_set(err, kd, "tier %d's %d x %gG down need %d ports of %s, which has %d",
                           j, e->down_count, out->down_gbps,
                           cages(e->down_count, out->down_split), sw->name, P);
                return -1;
            }
            out->down = e->down_count;
            out->cages_down = cages(e->down_count, out->down_split);
        }
        out->ports = out->down + (P - out->cages_down);
        out->blocks = out->group > 0 ? out->group : out->down;
        return 0;
    }
    if (side_split(sw, out->up_gbps, ku, j, "up", &out->up_split, err) < 0)
        return -1;
    ry_ratio r = { 1, 1 };
    int has_taper = 0;
    if (e && e->taper.down > 0) {
        r = e->taper;
        has_taper = 1;
    } else if (j - 1 < s->n_oversub) {
        r = s->oversub[j - 1];
        has_taper = 1;
    }
    int dc = e ? e->down_count : 0, uc = e ? e->up_count : 0;
    int cd, cu;
    if (dc && uc) {
        cd = cages(dc, out->down_split);
        cu = cages(uc, out->up_split);
    } else if (dc) {
        cd = cages(dc, out->down_split);
        cu = has_taper ? (int)((long long)cd * r.up / r.down) : P - cd;
        if (has_taper && (long long)cd * r.up % r.down) {
            out->round_down = r.down;
            out->round_up = r.up;
            out->rounded_up_side = 1;
        }
    } else if (uc) {
        cu = cages(uc, out->up_split);
        cd = has_taper ? (int)((long long)cu * r.down / r.up) : P - cu;
        if (has_taper && (long long)cu * r.down % r.up) {
            out->round_down = r.down;
            out->round_up = r.up;
        }
    } else {
        int unit = P / (r.down + r.up);
        if (unit < 1) {
            char ktp[48];
            snprintf(ktp, sizeof ktp, "fabric.tiers.%d.taper", key);
            ry_err_set(err, e && e->taper.down ? ktp : "fabric.oversubscription",
                       "a %d:%d taper needs at least %d ports, and %s has %d", r.down, r.up,
                       r.down + r.up, sw->name, P);
            return -1;
        }
        cd = unit * r.down;
        cu = unit * r.up;
    }
    if (cd + cu > P) {
        ry_err_set(err, dc || uc ? (uc ? ku : kd) : kt, "tier %d needs %d ports of %s down "
                   "and %d up, and it has %d", j, cd, sw->name, cu, P);
        return -1;
    }
    if (cd < 1) {
        ry_err_set(err, has_taper && !dc ? kt : kd, "tier %d of %s has no port left to go "
                   "down (%d up of its %d)", j, sw->name, cu, P);
        return -1;
    }
    if (cu < 1) {
        ry_err_set(err, has_taper && !uc ? kt : ku, "tier %d of %s has no port left to go up "
                   "(%d down of its %d); the top tier is the last entry of fabric.tiers",
                   j, sw->name, cd, P);
        return -1;
    }
    out->cages_down = cd;
    out->cages_up = cu;
    out->down = dc ? dc : cd * out->down_split;
    out->up = uc ? uc : cu * out->up_split;
    out->ports = out->down + out->up + (P - cd - cu);
    out->blocks = out->group > 0 ? out->group : out->down;
    return 0;
}

int ry_spec_leaf_group(const ry_spec *s, ry_leaf_group *g)
{
    ry_tier_ports leaf;
    ry_err err;
    memset(g, 0, sizeof *g);
    /* a leaf's ports do not depend on the tier count, so long as a tier is above */
    if (ry_tier_ports_of(s, 2, 1, &leaf, &err) < 0 || leaf.down < 1 || leaf.up < 1 ||
        s->hb_domain < 1 || s->rails < 1)
        return -1;
    long long K = s->hb_domain, c = K / s->rails, d1 = leaf.down;
    long long gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    g->down = leaf.down;
    g->unit_domains = s->scalable_unit > 0 ? s->scalable_unit : (c <= d1 ? (int)(d1 / c) : 1);
    g->leaf_gpus = s->rack_tor ? (long long)s->layout.nodes_per_rack * gpn
                   : gpn <= d1 ? d1 / gpn * gpn : d1;
    g->gpus = s->design == RY_DESIGN_FAT_TREE ? g->leaf_gpus : g->unit_domains * K;
    return 0;
}

double ry_spec_leaf_gbps(const ry_spec *s)
{
    if (s->n_tier > 0 && s->tier[0].down_gbps > 0)
        return s->tier[0].down_gbps;
    return s->sw.port_gbps;
}

const ry_switch_model *ry_spec_tier_switch(const ry_spec *s, int j)
{
    ry_tier_use use;
    /* the entry's switch does not depend on the tier count, only its ports */
    int i = j >= 1 ? ry_tier_entry(s, RY_MAX_TIERS + 1, j, &use) : -1;
    return i >= 0 ? &s->tier[i].sw : &s->sw;
}

void ry_spec_rules_tiers(ry_spec *s)
{
    int t = s->n_tier;
    if (t == 0)
        return;
    ry_tier_ports prev = { 0 };
    for (int j = 1; j <= t; j++) {
        ry_tier_ports p;
        ry_err err;
        const ry_tier_spec *e = &s->tier[j - 1];
        if (j == t && (e->up_count || e->up_gbps > 0 || e->taper.down)) {
            char k[48];
            snprintf(k, sizeof k, "fabric.tiers.%d.%s", j - 1,
                     e->taper.down ? "taper" : "up");
            ry_spec_error(s, k, "tier %d is the top (the last entry of fabric.tiers): its "
                          "ports all go down, so it takes no up or taper; add a tier above "
                          "it for uplinks", j);
            return;
        }
        if (ry_tier_ports_of(s, t, j, &p, &err) < 0) {
            ry_spec_error(s, err.key, "%s", err.msg);
            return;
        }
        if (j == 1 && t > 1 && e->group > 0) {
            char k[48];
            snprintf(k, sizeof k, "fabric.tiers.0.group");
            ry_spec_error(s, k, "the leaves' group is cluster.scalable_unit (HB domains per "
                          "unit); group applies to tiers 2 and up");
            return;
        }
        if (j > 1 && j < t && e->group > p.down) {
            char k[48];
            snprintf(k, sizeof k, "fabric.tiers.%d.group", j - 1);
            ry_spec_error(s, k, "tier %d's group of %d blocks needs %d down ports per switch, "
                          "and it has %d", j, e->group, e->group, p.down);
            return;
        }
        if (j == t && t > 1 && e->group > 0) {
            char k[48];
            snprintf(k, sizeof k, "fabric.tiers.%d.group", j - 1);
            ry_spec_error(s, k, "tier %d is the top: it takes every block below it, so it "
                          "takes no group", j);
            return;
        }
        if (j > 1 && prev.up_gbps != p.down_gbps) {
            char k[48];
            snprintf(k, sizeof k, "fabric.tiers.%d.up", j - 2);
            ry_spec_error(s, k, "tier %d's uplinks run at %gG and tier %d's downlinks at %gG: "
                          "a link has one speed, give both sides the same", j - 1,
                          prev.up_gbps, j, p.down_gbps);
            return;
        }
        if (p.sw->ethernet != s->tier[0].sw.ethernet) {
            char k[48];
            snprintf(k, sizeof k, "fabric.tiers.%d.switch", j - 1);
            ry_spec_error(s, k, "tier %d's %s is %s and the leaves' %s is %s: one fabric has "
                          "one protocol", j, p.sw->name,
                          p.sw->ethernet ? "Ethernet" : "InfiniBand", s->tier[0].sw.name,
                          s->tier[0].sw.ethernet ? "Ethernet" : "InfiniBand");
            return;
        }
        prev = p;
    }
}

int ry_spec_fabric_blocks(const ry_spec *s, ry_fabric_block *out)
{
    /* a list as written has its tiers; taken by position, the count the
     * design was built with (tiers), else every tier below a top */
    int t = !s->n_tier ? RY_MAX_TIERS + 1
            : !s->tiers_by_position ? s->n_tier
            : s->tiers > 0 ? s->tiers : RY_MAX_TIERS + 1;
    ry_leaf_group lg;
    ry_tier_ports p;
    ry_err err;
    if (ry_spec_leaf_group(s, &lg) < 0)
        return 0;
    long long size = lg.gpus;   /* GPUs under one block of the tier crossed */
    double cut = 1;
    int n = 0;
    for (int j = 1; j < t && n < RY_MAX_TIERS; j++) {
        if (ry_tier_ports_of(s, t, j, &p, &err) < 0 || p.up < 1)
            break;
        double taper = p.down * p.down_gbps / (p.up * p.up_gbps);
        if (taper > 1)
            cut *= taper;
        out[n].tier = j;
        out[n].gpus = size;
        out[n].cut = cut;
        n++;
        if (size >= s->gpus)
            break;      /* a block of the whole cluster: nothing above it is crossed */
        ry_tier_ports q;
        if (j + 1 >= t || ry_tier_ports_of(s, t, j + 1, &q, &err) < 0)
            break;
        size *= q.blocks;
    }
    return n;
}

double ry_spec_fabric_share(const ry_spec *s, long long gpus, int *tier)
{
    ry_fabric_block b[RY_MAX_TIERS];
    int n = ry_spec_fabric_blocks(s, b);
    double cut = 1;
    *tier = 0;
    for (int i = 0; i < n && gpus > b[i].gpus; i++) {
        cut = b[i].cut;
        *tier = b[i].tier;
    }
    return 1 / cut;
}
