#include "analysis/bom.h"

#include <stdio.h>
#include <string.h>

#include "fabric/layout.h"
#include "fabric/names.h"

void ry_bom_compute(const ry_fabric *f, ry_bom *b)
{
    const ry_spec *s = f->spec;
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", s->name);
    b->design = f->design;
    b->gpus = f->gpus;
    b->tiers = f->tiers;
    b->planes = f->planes;
    b->subnets = f->nsubnets;
    b->radix = f->spec->n_tier ? 0 : f->radix;     /* 0: each tier its own (fabric.tiers) */

    for (size_t i = 0; i < f->nnodes; i++) {
        const ry_node *n = &f->nodes[i];
        if (n->kind != RY_NODE_SWITCH)
            continue;
        ry_bom_tier *t = &b->tier[n->tier];
        t->switches++;
        t->ports += n->nports;
        int down = 0, up = 0;
        double down_gbps = 0, up_gbps = 0;
        for (uint32_t p = 0; p < n->nports; p++) {
            uint32_t port = n->port0 + p;
            const ry_port *pt = &f->ports[port];
            if (pt->peer < 0)
                continue;
            t->ports_used++;
            /* The link's speed from the ends at hand: the peer's node is
             * read anyway (its tier), so only the link itself is looked up. */
            uint32_t peer = (uint32_t)pt->peer;
            const ry_node *pn = &f->nodes[f->ports[peer].owner];
            double gbps = 0;
            if (pt->link >= 0)
                gbps = f->links[pt->link].lo == port ? ry_link_gbps_at(f, port, n, peer, pn)
                                                     : ry_link_gbps_at(f, peer, pn, port, n);
            if (pn->tier < n->tier)
                down++, down_gbps += gbps;
            else
                up++, up_gbps += gbps;
        }
        t->ports_down += down;
        t->ports_up += up;
        if (down > t->sw_down || (down == t->sw_down && up < t->sw_up) || t->switches == 1) {
            t->sw_down = down;
            t->sw_up = up;
            t->sw_down_gbps = down_gbps;
            t->sw_up_gbps = up_gbps;
        }
        if (n->nrails > t->max_rails)
            t->max_rails = n->nrails;
    }
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *hi = &f->nodes[f->ports[f->links[l].hi].owner];
        const ry_node *lo = &f->nodes[f->ports[f->links[l].lo].owner];
        b->tier[hi->tier].links++;
        if (lo->kind == RY_NODE_GPU)
            b->endpoints++;
    }
    for (int t = 1; t <= b->tiers; t++) {
        b->switches += b->tier[t].switches;
        b->switch_ports += b->tier[t].ports;
        b->switch_ports_used += b->tier[t].ports_used;
        b->links += b->tier[t].links;
    }
    b->transceivers = 2 * b->links;
    b->price_transceiver = s->transceiver_cost;
    b->price_port = s->switch_port_cost;
    b->cost_transceivers = (double)b->transceivers * s->transceiver_cost;
    b->cost_switches = (double)b->switch_ports * s->switch_port_cost;
    b->cost_total = b->cost_transceivers + b->cost_switches;
}

int ry_bom_waste(const ry_bom *b, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (b->tiers > 1 && b->tier[1].sw_up > b->tier[1].sw_down) {
        snprintf(buf, cap, "leaf: %d ports down and %d up", b->tier[1].sw_down, b->tier[1].sw_up);
        return 1;
    }
    for (int t = 1; t <= b->tiers; t++) {
        const ry_bom_tier *x = &b->tier[t];
        if (x->ports > 0 && (double)x->ports_used < RY_BOM_FILL_LOW * (double)x->ports) {
            snprintf(buf, cap, "%s: %.1f%% of ports cabled", ry_tier_name(t, b->tiers),
                     100.0 * (double)x->ports_used / (double)x->ports);
            return 1;
        }
    }
    return 0;
}

void ry_capex_reprice(const ry_spec *s, ry_capex *out)
{
    out->rack_price = s->rack_cost;
    out->racks_cost = (double)out->racks * s->rack_cost;
    out->spares_pct = s->spares_pct;
    double hw = out->switches_cost + out->optics + out->cables;
    out->spares = hw * s->spares_pct / 100.0;
    out->total = hw + out->racks_cost + out->spares;
    /* a year of 8,766 hours (365.25 days) */
    double kwh_price = 8766.0 / 1000.0 * s->own_pue * s->own_energy_price;
    out->years = s->own_years;
    out->pue = s->own_pue;
    out->energy_price = s->own_energy_price;
    out->support_pct = s->own_support_pct;
    out->energy_year = out->network_power_w * kwh_price;
    out->server_energy_year = out->server_power_w * kwh_price;
    out->support_year = out->switches_cost * s->own_support_pct / 100.0;
    out->replace_year = out->switches_cost * s->rel.switch_rate +
                        (out->optics + out->cables) * s->rel.cable_rate;
    out->ownership = out->total + (double)out->years *
                                      (out->energy_year + out->support_year + out->replace_year);
}

void ry_capex_compute(const ry_spec *s, const ry_bom *b, const ry_cabling *c, ry_capex *out)
{
    memset(out, 0, sizeof *out);
    out->switches = b->switches;
    out->switch_price = s->sw.price;
    out->switch_name = s->sw.name;
    out->switch_part = s->sw.part;
    for (int t = 1; t <= b->tiers; t++) {
        const ry_switch_model *m = ry_spec_tier_switch(s, t);
        ry_capex_model *x = NULL;
        for (int i = 0; i < out->nmodels; i++)
            if (strcmp(out->model[i].name, m->name) == 0)
                x = &out->model[i];
        if (!x) {
            x = &out->model[out->nmodels++];
            snprintf(x->name, sizeof x->name, "%s", m->name);
            snprintf(x->part, sizeof x->part, "%s", m->part);
            x->price = m->price;
            x->power_w = m->power_w;
            x->price_range = m->price_range;
            x->tier = t;
        }
        /* installed switches draw power; spares on the shelf do not */
        if (m->power_w > 0)
            out->network_power_w += (double)b->tier[t].switches * m->power_w;
        else
            out->power_unknown = 1;
        /* spare switches are bought with the leaves, of the leaves' model */
        long long n = b->tier[t].switches + (t == 1 ? s->spares.switches : 0);
        x->count += n;
        x->cost += (double)n * m->price;
        out->switches_cost += (double)n * m->price;
        if (!(m->price > 0))
            out->switch_price = 0;
    }
    out->spare_switches = b->tiers >= 1 ? s->spares.switches : 0;
    out->switches += out->spare_switches;
    out->optics = c->cost_transceivers;
    out->cables = c->cost_cables;
    out->racks = c->lay->nracks;
    if (out->power_unknown)
        out->network_power_w = 0;
    if (s->node.power_w > 0) {
        out->server_power_w = (double)s->nodes * s->node.power_w;
        for (int i = 0; i < c->lay->nracks; i++)
            out->server_power_w += (double)c->lay->racks[i].trays * ry_rack_tray_power(&s->node);
    }
    ry_capex_reprice(s, out);
    out->optics_modules = c->ntransceivers;
    out->cable_count = c->ncables;
    const ry_node_model *m = &s->node;
    if (!m->ntrays)
        return;
    for (int i = 0; i < c->lay->nracks; i++)
        out->tray_racks += c->lay->racks[i].trays;
    int npr = s->layout.nodes_per_rack;
    ry_tray_line *l = &out->trays[0];
    snprintf(l->kind, sizeof l->kind, "compute-tray");
    snprintf(l->part, sizeof l->part, "%s", m->name);
    l->per_rack = npr;
    l->count = s->nodes;
    l->units = c->lay->node_units;
    l->power_w = m->power_w;
    out->rack_units = npr * l->units + ry_rack_tray_units(m);
    out->rack_power_w = npr * m->power_w + ry_rack_tray_power(m);
    for (int k = 0; k < m->ntrays; k++) {
        const ry_rack_tray *t = &m->trays[k];
        l = &out->trays[k + 1];
        snprintf(l->kind, sizeof l->kind, "%s", t->kind);
        snprintf(l->part, sizeof l->part, "%s", t->part);
        l->per_rack = t->per_rack;
        l->count = (long long)out->tray_racks * t->per_rack;
        l->units = t->units;
        l->power_w = t->power_w;
    }
    out->ntrays = m->ntrays + 1;
}

int ry_fabric_capex(const ry_fabric *f, const ry_media_catalog *media, ry_bom *b, ry_capex *out,
                    ry_err *err)
{
    ry_bom own;
    if (!b)
        b = &own;
    ry_bom_compute(f, b);
    memset(out, 0, sizeof *out);
    ry_layout lay;
    if (ry_layout_build(f, &lay, err) < 0)
        return -1;
    ry_cabling c;
    if (ry_cabling_build(f, &lay, media, &c, err) < 0) {
        ry_layout_free(&lay);
        return -1;
    }
    ry_capex_compute(f->spec, b, &c, out);
    ry_cabling_free(&c);
    ry_layout_free(&lay);
    return 0;
}

void ry_design_capex(const ry_spec *s, ry_design d, const ry_media_catalog *media,
                     ry_designs_capex *c, int i)
{
    ry_spec t;
    ry_spec_as_design(s, d, &t);
    ry_fabric f;
    ry_err e;
    c->ok[i] = 0;
    if (ry_fabric_build(&t, &f, &e) < 0) {
        ry_err_text(&e, c->err[i], sizeof c->err[i]);
        return;
    }
    if (ry_fabric_capex(&f, media, &c->bom[i], &c->capex[i], &e) < 0)
        ry_err_text(&e, c->err[i], sizeof c->err[i]);
    else
        c->ok[i] = 1;
    ry_tier_entries_of(&t, f.tiers, &c->entries[i]);
    /* the capex borrows the switch's names from the spec, not from the copy */
    c->capex[i].switch_name = s->sw.name;
    c->capex[i].switch_part = s->sw.part;
    ry_fabric_free(&f);
}

void ry_designs_capex_compute(const ry_spec *s, const ry_media_catalog *media, ry_designs_capex *c)
{
    memset(c, 0, sizeof *c);
    ry_design_capex(s, RY_DESIGN_RAIL_OPTIMIZED, media, c, 0);
    ry_design_capex(s, RY_DESIGN_RAIL_ONLY, media, c, 1);
}
