#include "analysis/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

void ry_compare_spec_for(const ry_spec *base, int radix, ry_spec *out)
{
    *out = *base;
    out->sw.radix = radix;
    if (radix != base->sw.radix)
        out->scalable_unit = 0;
}

int ry_compare_one(const ry_spec *base, int radix, ry_compare_row *row, ry_err *err)
{
    memset(row, 0, sizeof *row);
    row->gpus = base->gpus;
    row->hb_domain = base->hb_domain;
    row->radix = base->n_tier ? 0 : radix;     /* 0: each tier its own (fabric.tiers) */
    for (int d = 0; d < 3; d++) {
        ry_spec s = *base;
        s.design = (ry_design)d;
        if (!base->n_tier)
            s.sw.radix = radix;
        else
            ry_spec_as_design(base, (ry_design)d, &s);     /* the list's tiers by position */
        ry_fabric f;
        if (ry_fabric_build(&s, &f, err) < 0)
            return -1;
        ry_bom_compute(&f, &row->bom[d]);
        ry_tier_entries_of(&s, f.tiers, &row->entries[d]);
        if (d == RY_DESIGN_RAIL_OPTIMIZED) {
            row->su_domains = f.su_domains;
            row->su_from_spec = base->scalable_unit > 0;
        }
        ry_fabric_free(&f);
    }
    double sota = row->bom[RY_DESIGN_RAIL_OPTIMIZED].cost_total;
    double ro = row->bom[RY_DESIGN_RAIL_ONLY].cost_total;
    row->reduction = sota > 0 ? 100.0 * (1.0 - ro / sota) : 0.0;
    return 0;
}

int ry_design_bom(const ry_spec *s, ry_design d, ry_bom *b, char *err, size_t cap)
{
    ry_spec t;
    ry_spec_as_design(s, d, &t);
    ry_fabric f;
    ry_err e;
    if (ry_fabric_build(&t, &f, &e) < 0) {
        ry_err_text(&e, err, cap);
        return -1;
    }
    ry_bom_compute(&f, b);
    ry_fabric_free(&f);
    return 0;
}

void ry_design_costs(const ry_spec *s, ry_design_cost *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 2; i++)
        c->ok[i] = ry_design_bom(s, i ? RY_DESIGN_RAIL_ONLY : RY_DESIGN_RAIL_OPTIMIZED,
                                 &c->bom[i], c->err[i], sizeof c->err[i]) == 0;
}

/* ---- the designs side by side, as built and priced ------------------------------------------ */

enum { STAGE_FABRIC = 1, STAGE_LAYOUT, STAGE_CABLING };

ry_design_build *ry_design_build_new(const ry_spec *base, ry_design d,
                                     const ry_media_catalog *media, ry_err *err)
{
    ry_design_build *b = ry_xcalloc(1, sizeof *b);
    ry_spec_as_design(base, d, &b->spec);
    if (ry_fabric_build(&b->spec, &b->fabric, err) < 0)
        goto fail;
    b->stage = STAGE_FABRIC;
    if (b->spec.tiers_by_position)
        b->spec.tiers = b->fabric.tiers;    /* the count built, which fixes each entry's use */
    ry_bom_compute(&b->fabric, &b->bom);
    if (ry_layout_build(&b->fabric, &b->lay, err) < 0)
        goto fail;
    b->stage = STAGE_LAYOUT;
    if (ry_cabling_build(&b->fabric, &b->lay, media, &b->cab, err) < 0)
        goto fail;
    b->stage = STAGE_CABLING;
    ry_capex_compute(&b->spec, &b->bom, &b->cab, &b->capex);
    return b;
fail:
    ry_design_build_free(b);
    return NULL;
}

void ry_design_build_free(ry_design_build *b)
{
    if (!b)
        return;
    if (b->stage >= STAGE_CABLING)
        ry_cabling_free(&b->cab);
    if (b->stage >= STAGE_LAYOUT)
        ry_layout_free(&b->lay);
    if (b->stage >= STAGE_FABRIC)
        ry_fabric_free(&b->fabric);
    free(b);
}

static void count_media(const ry_cabling *c, ry_compare_design *out)
{
    for (int i = 0; i < c->nbom; i++) {
        const ry_pbom_line *l = &c->bom[i];
        if (strcmp(l->what, "cable") != 0)
            continue;
        int m = 0;
        while (m < out->nmedia && strcmp(out->media[m].name, l->medium) != 0)
            m++;
        if (m == out->nmedia) {
            if (out->nmedia == RY_COMPARE_MAX_MEDIA)
                continue;   /* more media than a side-by-side shows; the total still counts */
            snprintf(out->media[m].name, sizeof out->media[m].name, "%s", l->medium);
            out->nmedia++;
        }
        out->media[m].cables += l->count;
        out->media[m].metres += l->length_m * (double)l->count;
    }
}

/* The first switch of tier t down, as whatif --fail names it. */
static void tier_failure(const ry_fabric *f, int t, ry_compare_fail *out)
{
    memset(out, 0, sizeof *out);
    uint32_t id = 0;
    int found = 0;
    for (uint32_t i = f->first_switch; i < f->nnodes && !found; i++)
        if (f->nodes[i].kind == RY_NODE_SWITCH && f->nodes[i].tier == t) {
            id = i;
            found = 1;
        }
    if (!found)
        return;
    ry_fail_elem e = { .kind = RY_FAIL_SWITCH, .id = id };
    ry_fail_elem_name(f, &e);
    ry_failure *fs = ry_failure_new(f);
    ry_failure_ws *ws = ry_failure_ws_new(f);
    ry_failure_report r;
    ry_failure_report_init(&r, f);
    ry_failure_apply(f, &e, 1, fs);
    ry_failure_analyze(ws, fs, &r);
    out->tier = t;
    snprintf(out->name, sizeof out->name, "%s", e.name);
    out->bw_kept = r.bs_ratio;
    out->fwd_max = r.fwd_max;
    out->fwd_sum = r.fwd_sum;
    out->gpus_cut = r.gpus_cut;
    /* a switch carries nrails of a server's NIC ports (one on a rail's leaf,
     * all of them on a fat tree's): its cut GPUs are in gpus_cut / that
     * servers, drained whole */
    int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    long long per = f->nodes[id].nrails > 0 ? f->nodes[id].nrails : 1;
    if (per > gpn)
        per = gpn;
    out->gpus_drained = (r.gpus_cut + per - 1) / per * gpn;
    if (out->gpus_drained > f->gpus)
        out->gpus_drained = f->gpus;
    ry_failure_report_free(&r);
    ry_failure_ws_free(ws);
    ry_failure_free(fs);
}

/* One switch of each tier down; the spine's in the spine fields too. */
static void tier_failures(const ry_fabric *f, ry_compare_design *out)
{
    for (int t = 1; t <= f->tiers && t <= RY_MAX_TIERS; t++)
        tier_failure(f, t, &out->fail[t]);
    const ry_compare_fail *sp = &out->fail[2];
    if (f->tiers < 2 || !sp->tier)
        return;
    out->spine = 1;
    snprintf(out->spine_name, sizeof out->spine_name, "%s", sp->name);
    out->spine_bw_kept = sp->bw_kept;
    out->spine_fwd_max = sp->fwd_max;
    out->spine_fwd_sum = sp->fwd_sum;
    out->spine_gpus_cut = sp->gpus_cut;
}

void ry_compare_design_fill(const ry_design_build *b, ry_compare_design *out)
{
    ry_compare_design_costs(b, out);
    tier_failures(&b->fabric, out);
}

void ry_compare_design_costs(const ry_design_build *b, ry_compare_design *out)
{
    const ry_bom *bom = &b->bom;
    const ry_capex *cx = &b->capex;
    memset(out, 0, sizeof *out);
    out->design = b->spec.design;
    out->ok = 1;
    out->gpus = bom->gpus;
    out->tiers = bom->tiers;
    out->radix = bom->radix;
    out->subnets = bom->subnets;
    for (int t = 1; t <= bom->tiers; t++)
        out->tier_switches[t] = bom->tier[t].switches;
    ry_tier_entries_of(&b->spec, bom->tiers, &out->entries);
    out->switches = bom->switches;
    out->optics = b->cab.ntransceivers;
    out->cables = b->cab.ncables;
    count_media(&b->cab, out);
    out->racks = b->lay.nracks;
    out->halls = b->lay.nhalls;
    for (int i = 0; i < b->lay.nracks; i++)
        out->power_w += b->lay.racks[i].power_w;
    out->switch_price = cx->switch_price;
    out->capex_switches = cx->switches_cost;
    out->capex_optics = cx->optics;
    out->capex_cables = cx->cables;
    out->capex_racks = cx->racks_cost;
    out->capex_spares = cx->spares;
    out->capex = cx->total;
    out->capex_per_gpu = bom->gpus > 0 ? cx->total / (double)bom->gpus : 0;
    out->years = cx->years;
    out->power_unknown = cx->power_unknown;
    out->network_power_w = cx->network_power_w;
    out->own_energy = cx->energy_year * cx->years;
    out->own_support = cx->support_year * cx->years;
    out->own_replace = cx->replace_year * cx->years;
    out->ownership = cx->ownership;
    out->nodes = b->spec.nodes;
    out->gpu_ports = bom->endpoints;
    ry_bom_waste(bom, out->waste, sizeof out->waste);
    ry_price_items_of(&b->spec, cx, &b->cab, &out->prices);
    for (int i = 0; i < cx->nmodels && !out->unpriced[0]; i++)
        if (!(cx->model[i].price > 0))
            snprintf(out->unpriced, sizeof out->unpriced, "%s", cx->model[i].name);
}

int ry_compare_cheapest(const ry_compare_design *d, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (d[i].ok && (best < 0 || d[i].capex < d[best].capex))
            best = i;
    return best;
}

int ry_compare_fastest_per_dollar(const ry_compare_design *d, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].modeled && d[i].capex > 0 &&
            (best < 0 || d[i].tokens_per_s_per_musd > d[best].tokens_per_s_per_musd))
            best = i;
    return best;
}

void ry_compare_reliability(const ry_spec *s, ry_compare_design *d)
{
    ry_rel_input in = { .gpus = d->gpus, .nodes = d->nodes, .gpu_ports = d->gpu_ports,
                        .gpus_per_node = s->node.gpus_per_node, .tiers = d->tiers,
                        .years = d->years };
    in.node_links = d->gpu_ports;
    in.switch_links = d->cables > d->gpu_ports ? d->cables - d->gpu_ports : 0;
    for (int t = 1; t <= d->tiers && t <= RY_MAX_TIERS; t++) {
        in.switches[t] = d->tier_switches[t];
        in.gpus_cut[t] = d->fail[t].gpus_drained;
        in.slowdown[t] = d->modeled ? d->fail[t].slowdown : 0;
        in.stalled[t] = d->fail[t].stalled;
    }
    ry_reliability_compute(s, &in, &d->rel);
    /* the tokens of the years (365.25 days each) are those of the time it
     * trains: at the goodput */
    if (d->modeled && d->rel.ok && d->ownership > 0)
        d->tokens_per_usd_owned = d->tokens_per_s * 31557600.0 * d->years * d->rel.goodput /
                                  d->ownership;
}
