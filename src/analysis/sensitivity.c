/* Which prices move a capex (analysis/sensitivity.h). */
#include "analysis/sensitivity.h"

#include <stdio.h>
#include <string.h>

const char *ry_price_kind_name(ry_price_kind k)
{
    static const char *const names[] = { "switch", "optics", "cable" };
    return names[k];
}

const char *ry_price_range_key(ry_price_kind k)
{
    static const char *const keys[] = { "cost.range_switches", "cost.range_optics",
                                        "cost.range_cables" };
    return keys[k];
}

double ry_price_range(const ry_spec *s, ry_price_kind k)
{
    return k == RY_PRICE_SWITCH ? s->range_switches
         : k == RY_PRICE_OPTICS ? s->range_optics : s->range_cables;
}

/* Adds cost to the item (kind, name), a new one when there is none. */
static void add(ry_price_items *p, const ry_spec *s, ry_price_kind kind, const char *name,
                double cost)
{
    for (int i = 0; i < p->n; i++)
        if (p->item[i].kind == kind && strcmp(p->item[i].name, name) == 0) {
            p->item[i].cost += cost;
            return;
        }
    if (!(cost > 0) && !p->unpriced[0])
        snprintf(p->unpriced, sizeof p->unpriced, "%s %s", ry_price_kind_name(kind), name);
    if (p->n == RY_PRICE_MAX_ITEMS || !(cost > 0))
        return;
    ry_price_item *x = &p->item[p->n++];
    x->kind = kind;
    snprintf(x->name, sizeof x->name, "%s", name);
    x->cost = cost;
    x->range = ry_price_range(s, kind);
}

void ry_price_items_of(const ry_spec *s, const ry_capex *x, const ry_cabling *c,
                       ry_price_items *out)
{
    memset(out, 0, sizeof *out);
    out->total = x->total;
    out->spares_pct = x->spares_pct;
    for (int i = 0; i < x->nmodels; i++) {
        add(out, s, RY_PRICE_SWITCH, x->model[i].name, x->model[i].cost);
        /* the model's own range, where its catalog entry or the spec gives one */
        if (x->model[i].price_range > 0)
            for (int j = 0; j < out->n; j++)
                if (out->item[j].kind == RY_PRICE_SWITCH &&
                    strcmp(out->item[j].name, x->model[i].name) == 0)
                    out->item[j].range = x->model[i].price_range;
    }
    for (int i = 0; c && i < c->nbom; i++) {
        const ry_pbom_line *l = &c->bom[i];
        int optics = strcmp(l->what, "transceiver") == 0;
        ry_price_kind kind = optics ? RY_PRICE_OPTICS : RY_PRICE_CABLE;
        const char *name = optics ? l->part : l->medium;
        add(out, s, kind, name, l->cost);
        /* the medium's own range, where media.yaml gives one */
        for (int m = 0; m < c->nmedia; m++)
            if (strcmp(c->media[m].name, l->medium) == 0 && c->media[m].price_range > 0)
                for (int j = 0; j < out->n; j++)
                    if (out->item[j].kind == kind && strcmp(out->item[j].name, name) == 0)
                        out->item[j].range = c->media[m].price_range;
    }
}

double ry_price_total_with(const ry_price_items *p, ry_price_kind kind, const char *name,
                           double f)
{
    double d = 0;
    for (int i = 0; i < p->n; i++)
        if (p->item[i].kind == kind && (!name || strcmp(p->item[i].name, name) == 0))
            d += (f - 1) * p->item[i].cost;
    return p->total + d * (1 + p->spares_pct / 100);
}
