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

int ry_tier_ports_of(const ry_spec *s, int t, int j, ry_tier_ports *out, ry_err *err)
{
    const ry_tier_spec *e = j - 1 < s->n_tier ? &s->tier[j - 1] : NULL;
    char kd[48], ku[48], kt[48];
    snprintf(kd, sizeof kd, "fabric.tiers.%d.down", j - 1);
    snprintf(ku, sizeof ku, "fabric.tiers.%d.up", j - 1);
    snprintf(kt, sizeof kt, "fabric.tiers.%d", j - 1);
    memset(out, 0, sizeof *out);
    out->sw = e ? &e->sw : &s->sw;
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
    } else if (uc) {
        cu = cages(uc, out->up_split);
        cd = has_taper ? (int)((long long)cu * r.down / r.up) : P - cu;
    } else {
        int unit = P / (r.down + r.up);
        if (unit < 1) {
            char ktp[48];
            snprintf(ktp, sizeof ktp, "fabric.tiers.%d.taper", j - 1);
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
    return j >= 1 && j - 1 < s->n_tier ? &s->tier[j - 1].sw : &s->sw;
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
    int t = s->n_tier ? s->n_tier : RY_MAX_TIERS + 1;
    ry_tier_ports p;
    ry_err err;
    if (ry_tier_ports_of(s, t, 1, &p, &err) < 0 || p.down < 1 || s->hb_domain < 1 ||
        s->rails < 1)
        return 0;
    /* GPUs under one leaf group: a scalable unit of every rail, or a fat
     * tree's leaf of whole nodes. */
    long long K = s->hb_domain, c = K / s->rails, size;
    if (s->design == RY_DESIGN_FAT_TREE) {
        long long gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
        size = s->rack_tor ? s->layout.nodes_per_rack * gpn
               : gpn <= p.down ? p.down / gpn * gpn : p.down;
    } else {
        long long S = s->scalable_unit > 0 ? s->scalable_unit : (c <= p.down ? p.down / c : 1);
        size = S * K;
    }
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
        ry_tier_ports q;
        if (j + 1 >= t || ry_tier_ports_of(s, t, j + 1, &q, &err) < 0)
            break;
        size *= q.group > 0 ? q.group : q.down;
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
