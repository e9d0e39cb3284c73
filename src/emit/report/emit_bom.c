#include "emit/report/emit_bom.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/growth.h"
#include "emit/csv.h"
#include "emit/report/emit_checks.h"
#include "emit/report/emit_sensitivity.h"
#include "util/numfmt.h"
#include "emit/text_table.h"
#include "emit/tier_text.h"
#include "fabric/names.h"

/* Money in one report shows cents on every amount or on none. */
static int cents_mode;

static const char *plural(long long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void money_cell(ry_text_table *t, double v)
{
    ry_buf m;
    ry_buf_init(&m);
    ry_money_text(&m, v, cents_mode);
    ry_text_table_cell(t, "%s", m.data);
    ry_buf_free(&m);
}

static void bom_text(ry_buf *o, const ry_bom *b)
{
    ry_buf_printf(o, "%s: %s fabric, %s GPU%s, %d tier%s", b->name,
                  ry_design_name(b->design), ry_n(b->gpus), plural(b->gpus, "", "s"), b->tiers,
                  plural(b->tiers, "", "s"));
    if (b->radix > 0)
        ry_buf_printf(o, " of radix-%d switches", b->radix);
    else
        ry_buf_puts(o, " (fabric.tiers)");
    if (b->planes > 1)
        ry_buf_printf(o, ", %d planes", b->planes);
    ry_buf_printf(o, ", %d subnet%s\n\n", b->subnets, plural(b->subnets, "", "s"));
    ry_text_table t;
    ry_text_table_init(&t, "lrrrrr");
    const char *head[] = { "tier", "switches", "ports", "used", "free", "links below" };
    for (int i = 0; i < 6; i++)
        ry_text_table_cell(&t, "%s", head[i]);
    for (int i = 1; i <= b->tiers + 1; i++) {
        const ry_bom_tier *x = &b->tier[i <= b->tiers ? i : 0];
        int total = i > b->tiers;
        ry_text_table_cell(&t, "%s", total ? "total" : ry_tier_name(i, b->tiers));
        ry_text_table_cell(&t, "%s", ry_n(total ? b->switches : x->switches));
        ry_text_table_cell(&t, "%s", ry_n(total ? b->switch_ports : x->ports));
        ry_text_table_cell(&t, "%s", ry_n(total ? b->switch_ports_used : x->ports_used));
        ry_text_table_cell(&t, "%s", ry_n(total ? b->switch_ports - b->switch_ports_used
                                               : x->ports - x->ports_used));
        ry_text_table_cell(&t, "%s", ry_n(total ? b->links : x->links));
    }
    ry_text_table_write(&t, o, "");
}

/* The counts under the tiers: two counts of optics, each by its own name. */
static void counts_text(ry_buf *o, const ry_bom *b, const ry_capex *x)
{
    ry_buf_printf(o, "\nGPU ports cabled:  %s\n", ry_n(b->endpoints));
    ry_buf_printf(o, "cable ends:        %s (2 per link)\n", ry_n(b->transceivers));
    if (x) {
        ry_buf_printf(o, "optics (modules):  %s (one per cabled cage)\n", ry_n(x->optics_modules));
        ry_buf_printf(o, "cables:            %s\n", ry_n(x->cable_count));
    }
}

/* The rail-only paper's model: every switch port and every cable end
 * (its transceivers) at one price each. Shown only when asked for. */
static void paper_text(ry_buf *o, const ry_bom *b)
{
    ry_buf_puts(o, "\nrail-only paper's cost model (");
    ry_money_text(o, b->price_port, cents_mode);
    ry_buf_puts(o, " a port, ");
    ry_money_text(o, b->price_transceiver, cents_mode);
    ry_buf_puts(o, " a transceiver; not a capex figure)\n");
    ry_text_table t;
    ry_text_table_init(&t, "lrl");
    ry_buf d;
    ry_buf_init(&d);
    ry_text_table_cell(&t, "switch ports:");
    money_cell(&t, b->cost_switches);
    ry_buf_printf(&d, "(%s ports x ", ry_n(b->switch_ports));
    ry_money_text(&d, b->price_port, cents_mode);
    ry_text_table_cell(&t, "%s)", d.data);
    ry_buf_reset(&d);
    ry_text_table_cell(&t, "transceivers (2 per link):");
    money_cell(&t, b->cost_transceivers);
    ry_buf_printf(&d, "(%s x ", ry_n(b->transceivers));
    ry_money_text(&d, b->price_transceiver, cents_mode);
    ry_text_table_cell(&t, "%s)", d.data);
    ry_text_table_cell(&t, "total:");
    money_cell(&t, b->cost_total);
    ry_text_table_cell(&t, "%s", "");
    ry_buf_free(&d);
    ry_text_table_write(&t, o, "  ");
}

static json_t *bom_json(const ry_bom *b)
{
    json_t *sw = json_array(), *ln = json_array(), *tiers = json_array();
    for (int t = 1; t <= b->tiers; t++) {
        const ry_bom_tier *x = &b->tier[t];
        json_array_append_new(sw, json_integer(x->switches));
        json_array_append_new(ln, json_integer(x->links));
        json_array_append_new(tiers, json_pack("{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I}",
            "tier", t, "name", ry_tier_name(t, b->tiers), "switches", (json_int_t)x->switches,
            "ports", (json_int_t)x->ports, "ports_used", (json_int_t)x->ports_used,
            "ports_free", (json_int_t)(x->ports - x->ports_used),
            "ports_down", (json_int_t)x->ports_down, "ports_up", (json_int_t)x->ports_up));
    }
    return json_pack("{s:s, s:s, s:I, s:i, s:i, s:i, s:i, s:{s:I, s:o}, s:{s:I, s:I, s:I}, "
                     "s:{s:I, s:o}, s:o, s:I, s:I, s:{s:s, s:o, s:o, s:o, s:o, s:o}}",
        "name", b->name, "design", ry_design_name(b->design), "gpus", (json_int_t)b->gpus,
        "tiers", b->tiers, "radix", b->radix, "planes", b->planes, "subnets", b->subnets,
        "switches", "total", (json_int_t)b->switches, "per_tier", sw,
        "ports", "total", (json_int_t)b->switch_ports, "used", (json_int_t)b->switch_ports_used,
        "free", (json_int_t)(b->switch_ports - b->switch_ports_used),
        "links", "total", (json_int_t)b->links, "per_tier", ln,
        "tier_detail", tiers,
        "gpu_ports", (json_int_t)b->endpoints,
        "transceivers", (json_int_t)b->transceivers,
        "paper_cost", "model", "paper", "total", ry_json_money(b->cost_total),
        "switches", ry_json_money(b->cost_switches), "transceivers", ry_json_money(b->cost_transceivers),
        "price_per_port", ry_json_money(b->price_port),
        "price_per_transceiver", ry_json_money(b->price_transceiver));
}

static json_t *physical_json(const ry_cabling *c)
{
    json_t *lines = json_array();
    for (int i = 0; i < c->nbom; i++) {
        const ry_pbom_line *l = &c->bom[i];
        json_t *j = json_pack("{s:s, s:s, s:s, s:I, s:o, s:o, s:o}", "what", l->what, "part",
                              l->part, "medium", l->medium, "count", (json_int_t)l->count,
                              "unit_price", ry_json_money(l->unit_price), "cost", ry_json_money(l->cost),
                              "power_w", json_real(round(l->power_w * 100) / 100));
        if (l->length_m > 0)
            json_object_set_new(j, "length_m", json_real(l->length_m));
        json_array_append_new(lines, j);
    }
    int nnet = c->lay->nrooms - c->lay->nhalls;
    json_t *j = json_pack("{s:i, s:i, s:i, s:i, s:i, s:o, s:I, s:I, s:o, s:o, s:{s:o, s:o, s:o}, s:o}",
        "racks", c->lay->nracks, "rows", c->lay->nrows, "halls", c->lay->nhalls,
        "network_rooms", nnet, "buildings", c->lay->nbuildings,
        "longest_run_m", json_real(round(c->longest_m * 10) / 10), "cables", (json_int_t)c->ncables,
        "transceivers", (json_int_t)c->ntransceivers,
        "cable_m", json_real(round(c->cable_m * 10) / 10),
        "power_w", json_real(round(c->power_w * 10) / 10),
        "cost", "total", ry_json_money(round(c->cost_total * 100) / 100),
        "cables", ry_json_money(round(c->cost_cables * 100) / 100),
        "transceivers", ry_json_money(round(c->cost_transceivers * 100) / 100), "lines", lines);
    /* "transceivers" above counts modules: the same count by its own name */
    json_object_set_new(j, "optics_modules", json_integer(c->ntransceivers));
    return j;
}

static void physical_text(ry_buf *o, const ry_cabling *c)
{
    const ry_layout *lay = c->lay;
    int nnet = lay->nrooms - lay->nhalls;
    char len[RY_NUM_CAP], pw[RY_NUM_CAP];
    ry_buf_printf(o, "\nphysical bill of materials (%s rack%s in %s row%s", ry_n(lay->nracks),
                  plural(lay->nracks, "", "s"), ry_n(lay->nrows), plural(lay->nrows, "", "s"));
    if (lay->nrooms > 1)
        ry_buf_printf(o, "; %s hall%s and %s network room%s in %s building%s", ry_n(lay->nhalls),
                      plural(lay->nhalls, "", "s"), ry_n(nnet), plural(nnet, "", "s"),
                      ry_n(lay->nbuildings),
                      plural(lay->nbuildings, "", "s"));
    ry_buf_printf(o, "; longest run %s; cable lengths from the layout)\n",
                  ry_num_length(len, sizeof len, c->longest_m));
    ry_text_table t;
    ry_text_table_init(&t, "lllrrrrr");
    const char *head[] = { "item", "part", "medium", "length", "count", "unit price", "cost",
                           "power" };
    for (int i = 0; i < 8; i++)
        ry_text_table_cell(&t, "%s", head[i]);
    for (int i = 0; i < c->nbom; i++) {
        const ry_pbom_line *l = &c->bom[i];
        ry_text_table_cell(&t, "%s", ry_pbom_item_name(l));
        ry_text_table_cell(&t, "%s", l->part);
        ry_text_table_cell(&t, "%s", l->medium);
        if (l->length_m > 0)
            ry_text_table_cell(&t, "%s m", ry_num_sig(len, sizeof len, l->length_m, 6));
        else
            ry_text_table_cell(&t, "%s", "");
        ry_text_table_cell(&t, "%s", ry_n(l->count));
        money_cell(&t, l->unit_price);
        money_cell(&t, l->cost);
        ry_text_table_cell(&t, "%s W", ry_num_fixed(pw, sizeof pw, l->power_w, 0));
    }
    ry_text_table_write(&t, o, "  ");
    ry_text_table_init(&t, "lrl");
    ry_text_table_cell(&t, "cables:");
    money_cell(&t, c->cost_cables);
    ry_text_table_cell(&t, "(%s cables, %s in all)", ry_n(c->ncables),
                       ry_num_length(len, sizeof len, c->cable_m));
    ry_text_table_cell(&t, "optics:");
    money_cell(&t, c->cost_transceivers);
    ry_text_table_cell(&t, "(%s modules)", ry_n(c->ntransceivers));
    ry_text_table_cell(&t, "subtotal:");
    money_cell(&t, c->cost_total);
    ry_text_table_cell(&t, "(optics and active cables draw %s W)",
                       ry_num_fixed(pw, sizeof pw, c->power_w, 0));
    ry_text_table_write(&t, o, "  ");
}

/* A rack-scale node's racks: every tray kind with its count. */
static json_t *trays_json(const ry_capex *x)
{
    json_t *lines = json_array();
    for (int i = 0; i < x->ntrays; i++) {
        const ry_tray_line *l = &x->trays[i];
        json_array_append_new(lines, json_pack("{s:s, s:s, s:i, s:I, s:i, s:o, s:o}", "kind",
            l->kind, "part", l->part, "per_rack", l->per_rack, "count", (json_int_t)l->count,
            "rack_units", l->units, "power_w", json_real(round(l->power_w * 100) / 100),
            "power_w_total", json_real(round(l->power_w * (double)l->count * 100) / 100)));
    }
    return json_pack("{s:i, s:i, s:o, s:o}", "racks", x->tray_racks, "rack_units", x->rack_units,
                     "rack_power_w", json_real(round(x->rack_power_w * 100) / 100), "lines",
                     lines);
}

static void trays_text(ry_buf *o, const ry_capex *x)
{
    char pw[RY_NUM_CAP], tot[RY_NUM_CAP];
    ry_buf_printf(o, "\nrack trays (%s compute rack%s of %dU", ry_n(x->tray_racks),
                  plural(x->tray_racks, "", "s"), x->rack_units);
    if (x->rack_power_w > 0)
        ry_buf_printf(o, ", %s W", ry_num_fixed(pw, sizeof pw, x->rack_power_w, 0));
    ry_buf_puts(o, " each when full)\n");
    ry_text_table t;
    ry_text_table_init(&t, "llrrrrr");
    const char *head[] = { "kind", "part", "per rack", "count", "units", "power", "power total" };
    for (int i = 0; i < 7; i++)
        ry_text_table_cell(&t, "%s", head[i]);
    for (int i = 0; i < x->ntrays; i++) {
        const ry_tray_line *l = &x->trays[i];
        ry_text_table_cell(&t, "%s", l->kind);
        ry_text_table_cell(&t, "%s", l->part);
        ry_text_table_cell(&t, "%d", l->per_rack);
        ry_text_table_cell(&t, "%s", ry_n(l->count));
        ry_text_table_cell(&t, "%dU", l->units);
        ry_text_table_cell(&t, "%s W", ry_num_fixed(pw, sizeof pw, l->power_w, 0));
        ry_text_table_cell(&t, "%s W",
                           ry_num_fixed(tot, sizeof tot, l->power_w * (double)l->count, 0));
    }
    ry_text_table_write(&t, o, "  ");
}

/* "(512 x tomahawk4 at $30,000.00)", or where to set a missing price. */
static void switch_text(ry_buf *d, long long count, const char *name, const char *part,
                        double price, const char *key)
{
    ry_buf_reset(d);
    ry_buf_printf(d, "(%s x %s", ry_n(count), name);
    if (part[0])
        ry_buf_printf(d, " %s", part);
    if (price > 0) {
        ry_buf_puts(d, " at ");
        ry_money_text(d, price, cents_mode);
        ry_buf_putc(d, ')');
    } else {
        ry_buf_printf(d, ": no price in the catalog; set %s)", key);
    }
}

static void capex_text(ry_buf *o, const ry_capex *x)
{
    ry_buf_puts(o, "\ncapex (list prices, estimates)\n");
    ry_text_table t;
    ry_text_table_init(&t, "lrl");
    ry_buf d;
    ry_buf_init(&d);
    ry_text_table_cell(&t, "switches:");
    money_cell(&t, x->switches_cost);
    if (x->nmodels > 1) {
        /* one line per model, under the total */
        ry_text_table_cell(&t, "(%s of %d models)", ry_n(x->switches), x->nmodels);
        for (int i = 0; i < x->nmodels; i++) {
            const ry_capex_model *m = &x->model[i];
            char key[48];
            snprintf(key, sizeof key, "fabric.tiers[%d].switch.price", m->tier - 1);
            ry_text_table_cell(&t, "%s", "");
            money_cell(&t, m->cost);
            switch_text(&d, m->count, m->name, m->part, m->price, key);
            if (i == 0 && x->spare_switches > 0)
                ry_buf_printf(&d, ", %s of them spares", ry_n(x->spare_switches));
            ry_text_table_cell(&t, "%s", d.data);
        }
    } else {
        switch_text(&d, x->switches, x->switch_name, x->switch_part, x->switch_price,
                    "fabric.switch.price");
        if (x->spare_switches > 0)
            ry_buf_printf(&d, ", %s of them spares", ry_n(x->spare_switches));
        ry_text_table_cell(&t, "%s", d.data);
    }
    ry_text_table_cell(&t, "optics:");
    money_cell(&t, x->optics);
    ry_text_table_cell(&t, "(%s modules)", ry_n(x->optics_modules));
    ry_text_table_cell(&t, "cables:");
    money_cell(&t, x->cables);
    ry_text_table_cell(&t, "(%s)", ry_n(x->cable_count));
    if (x->rack_price > 0) {
        ry_buf_reset(&d);
        ry_text_table_cell(&t, "racks:");
        money_cell(&t, x->racks_cost);
        ry_buf_printf(&d, "(%s x ", ry_n(x->racks));
        ry_money_text(&d, x->rack_price, cents_mode);
        ry_text_table_cell(&t, "%s)", d.data);
    }
    if (x->spares_pct > 0) {
        ry_text_table_cell(&t, "spares:");
        money_cell(&t, x->spares);
        ry_text_table_cell(&t, "(%g%% of switches, optics and cables)", x->spares_pct);
    }
    ry_text_table_cell(&t, "total:");
    money_cell(&t, x->total);
    if (x->total >= 1e4)
        ry_text_table_cell(&t, "(%s)", ry_n_money_short(x->total));
    else
        ry_text_table_cell(&t, "%s", "");
    ry_buf_free(&d);
    ry_text_table_write(&t, o, "  ");
}

static void ownership_text(ry_buf *o, const ry_capex *x)
{
    ry_buf d;
    ry_buf_init(&d);
    ry_buf_printf(o, "\ncost of ownership over %d year%s (cost.years; PUE %g, %g USD/kWh, support "
                     "%g%% a year)\n", x->years, x->years == 1 ? "" : "s", x->pue,
                  x->energy_price, x->support_pct);
    ry_text_table t;
    ry_text_table_init(&t, "lrl");
    char kw[RY_NUM_CAP];
    ry_text_table_cell(&t, "capex:");
    money_cell(&t, x->total);
    ry_text_table_cell(&t, "%s", "");
    ry_text_table_cell(&t, "energy:");
    if (x->power_unknown) {
        ry_text_table_cell(&t, "unknown");
        ry_text_table_cell(&t, "(a switch model has no power: fabric.switch.power)");
    } else {
        money_cell(&t, x->energy_year * x->years);
        ry_buf_reset(&d);
        ry_money_text(&d, x->energy_year, cents_mode);
        ry_text_table_cell(&t, "(the switches draw %s kW: %s a year)",
                           ry_num_fixed(kw, sizeof kw, x->network_power_w / 1000, 1), d.data);
    }
    ry_text_table_cell(&t, "support:");
    if (!(x->switch_price > 0)) {
        ry_text_table_cell(&t, "unknown");
        ry_text_table_cell(&t, "(a switch model has no price: fabric.switch.price)");
    } else {
        money_cell(&t, x->support_year * x->years);
        ry_buf_reset(&d);
        ry_money_text(&d, x->support_year, cents_mode);
        ry_text_table_cell(&t, "(%g%% of the switches' price: %s a year)", x->support_pct,
                           d.data);
    }
    ry_text_table_cell(&t, "spares used:");
    money_cell(&t, x->replace_year * x->years);
    ry_buf_reset(&d);
    ry_money_text(&d, x->replace_year, cents_mode);
    ry_text_table_cell(&t, "(the failed switches, optics and cables bought again: %s a year)",
                       d.data);
    ry_text_table_cell(&t, "ownership:");
    money_cell(&t, x->ownership);
    ry_text_table_cell(&t, "%s", x->power_unknown && !(x->switch_price > 0)
                                     ? "(without the energy and the support)"
                                 : x->power_unknown ? "(without the energy)"
                                 : !(x->switch_price > 0) ? "(without the support)" : "");
    ry_text_table_write(&t, o, "  ");
    if (x->server_power_w > 0) {
        ry_buf_reset(&d);
        ry_money_text(&d, x->server_energy_year * x->years, cents_mode);
        ry_buf_printf(o, "  the servers draw %s kW more: %s of energy over the years, the same in "
                         "every design, not in the total\n",
                      ry_num_fixed(kw, sizeof kw, x->server_power_w / 1000, 1), d.data);
    }
    ry_buf_free(&d);
}

static int report_cents_capex(const ry_capex *x)
{
    double w[] = { x->switches_cost, x->switch_price, x->optics, x->cables, x->racks_cost,
                   x->rack_price, x->spares, x->total };
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (ry_money_has_cents(w[i]))
            return 1;
    return 0;
}

/* Whether any amount of the report has cents: then all of them show cents.
 * b: the paper's model's amounts, when the report shows them (else NULL). */
static int report_cents(const ry_bom *b, const ry_cabling *phys, const ry_capex *x)
{
    if (b) {
        double v[] = { b->cost_switches, b->cost_transceivers, b->cost_total, b->price_port,
                       b->price_transceiver };
        for (size_t i = 0; i < sizeof v / sizeof *v; i++)
            if (ry_money_has_cents(v[i]))
                return 1;
    }
    for (int i = 0; phys && i < phys->nbom; i++)
        if (ry_money_has_cents(phys->bom[i].unit_price) || ry_money_has_cents(phys->bom[i].cost))
            return 1;
    if (phys && (ry_money_has_cents(phys->cost_cables) ||
                 ry_money_has_cents(phys->cost_transceivers) ||
                 ry_money_has_cents(phys->cost_total)))
        return 1;
    return x && report_cents_capex(x);
}

/* ---- CSV: one table, a section column --------------------------------------------------- */

#define CSV_COLS 18
static const char *const csv_head[CSV_COLS] = {
    "section", "item", "tier", "part", "medium", "length_m", "quantity", "unit_price",
    "extended_price", "power_w", "switches", "ports", "ports_used", "ports_free", "links_below",
    "transceivers", "cost_switches", "cost_transceivers"
};
enum { C_SECTION, C_ITEM, C_TIER, C_PART, C_MEDIUM, C_LENGTH, C_QTY, C_UNIT, C_EXT, C_POWER,
       C_SWITCHES, C_PORTS, C_USED, C_FREE, C_LINKS, C_XCVR, C_COST_SW, C_COST_XCVR };

static void tier_row(ry_buf *o, const char *item, const char *tier, long long sw, long long ports,
                     long long used, long long links, long long xcvr, double cs, double ct)
{
    ry_csv_rec r = { .n = CSV_COLS };
    ry_csv_set(&r, C_SECTION, "paper");
    ry_csv_set(&r, C_ITEM, "%s", item);
    ry_csv_set(&r, C_TIER, "%s", tier);
    ry_csv_set(&r, C_EXT, "%.2f", cs + ct);
    ry_csv_set(&r, C_SWITCHES, "%lld", sw);
    ry_csv_set(&r, C_PORTS, "%lld", ports);
    ry_csv_set(&r, C_USED, "%lld", used);
    ry_csv_set(&r, C_FREE, "%lld", ports - used);
    ry_csv_set(&r, C_LINKS, "%lld", links);
    ry_csv_set(&r, C_XCVR, "%lld", xcvr);
    ry_csv_set(&r, C_COST_SW, "%.2f", cs);
    ry_csv_set(&r, C_COST_XCVR, "%.2f", ct);
    ry_csv_put(o, &r);
}

static void capex_row(ry_buf *o, const char *item, const char *part, long long qty,
                      double unit, double ext)
{
    ry_csv_rec r = { .n = CSV_COLS };
    ry_csv_set(&r, C_SECTION, "capex");
    ry_csv_set(&r, C_ITEM, "%s", item);
    ry_csv_set(&r, C_PART, "%s", part);
    if (qty >= 0)
        ry_csv_set(&r, C_QTY, "%lld", qty);
    if (unit > 0)
        ry_csv_set(&r, C_UNIT, "%.2f", unit);
    ry_csv_set(&r, C_EXT, "%.2f", ext);
    ry_csv_put(o, &r);
}

/* The paper model's tiers (section "paper"), the physical bill of materials
 * (section "physical": every cable and transceiver part with its quantity,
 * unit and extended price) and the capex lines (section "capex"). */
static void bom_csv(ry_buf *o, const ry_bom *b, const ry_cabling *phys, const ry_capex *capex)
{
    ry_csv_row(o, csv_head, CSV_COLS);
    char tier[16];
    for (int t = 1; t <= b->tiers; t++) {
        const ry_bom_tier *x = &b->tier[t];
        snprintf(tier, sizeof tier, "%d", t);
        tier_row(o, ry_tier_name(t, b->tiers), tier, x->switches, x->ports, x->ports_used,
                 x->links, 2 * x->links, (double)x->ports * b->price_port,
                 2.0 * (double)x->links * b->price_transceiver);
    }
    tier_row(o, "total", "", b->switches, b->switch_ports, b->switch_ports_used, b->links,
             b->transceivers, b->cost_switches, b->cost_transceivers);
    if (phys) {
        for (int i = 0; i < phys->nbom; i++) {
            const ry_pbom_line *l = &phys->bom[i];
            ry_csv_rec r = { .n = CSV_COLS };
            ry_csv_set(&r, C_SECTION, "physical");
            ry_csv_set(&r, C_ITEM, "%s", l->what);
            ry_csv_set(&r, C_PART, "%s", l->part);
            ry_csv_set(&r, C_MEDIUM, "%s", l->medium);
            if (l->length_m > 0)
                ry_csv_set(&r, C_LENGTH, "%g", l->length_m);
            ry_csv_set(&r, C_QTY, "%lld", l->count);
            ry_csv_set(&r, C_UNIT, "%.2f", l->unit_price);
            ry_csv_set(&r, C_EXT, "%.2f", l->cost);
            ry_csv_set(&r, C_POWER, "%.2f", l->power_w);
            ry_csv_put(o, &r);
        }
        ry_csv_rec r = { .n = CSV_COLS };
        ry_csv_set(&r, C_SECTION, "physical");
        ry_csv_set(&r, C_ITEM, "total");
        ry_csv_set(&r, C_EXT, "%.2f", phys->cost_total);
        ry_csv_set(&r, C_POWER, "%.2f", phys->power_w);
        ry_csv_put(o, &r);
    }
    if (capex) {
        if (capex->nmodels > 1)
            for (int i = 0; i < capex->nmodels; i++)
                capex_row(o, "switches", capex->model[i].part[0] ? capex->model[i].part
                                                                 : capex->model[i].name,
                          capex->model[i].count, capex->model[i].price, capex->model[i].cost);
        else
            capex_row(o, "switches", capex->switch_part, capex->switches, capex->switch_price,
                      capex->switches_cost);
        capex_row(o, "optics", "", -1, 0, capex->optics);
        capex_row(o, "cables", "", -1, 0, capex->cables);
        if (capex->rack_price > 0)
            capex_row(o, "racks", "", capex->racks, capex->rack_price, capex->racks_cost);
        if (capex->spares_pct > 0)
            capex_row(o, "spares", "", -1, 0, capex->spares);
        capex_row(o, "total", "", -1, 0, capex->total);
        /* the cost of ownership over cost.years (section "ownership"); an
         * unknown figure (energy without a switch's power, support without
         * its price) is left empty */
        const char *what[] = { "capex", "energy", "support", "spares used", "total" };
        double v[] = { capex->total, capex->energy_year * capex->years,
                       capex->support_year * capex->years, capex->replace_year * capex->years,
                       capex->ownership };
        int known[] = { 1, !capex->power_unknown, capex->switch_price > 0, 1, 1 };
        for (int i = 0; i < 5; i++) {
            ry_csv_rec r = { .n = CSV_COLS };
            ry_csv_set(&r, C_SECTION, "ownership");
            ry_csv_set(&r, C_ITEM, "%s", what[i]);
            if (known[i])
                ry_csv_set(&r, C_EXT, "%.2f", v[i]);
            ry_csv_put(o, &r);
        }
        /* a rack-scale node's trays: counted, not priced (section "racks") */
        for (int i = 0; i < capex->ntrays; i++) {
            const ry_tray_line *l = &capex->trays[i];
            ry_csv_rec r = { .n = CSV_COLS };
            ry_csv_set(&r, C_SECTION, "racks");
            ry_csv_set(&r, C_ITEM, "%s", l->kind);
            ry_csv_set(&r, C_PART, "%s", l->part);
            ry_csv_set(&r, C_QTY, "%lld", l->count);
            ry_csv_set(&r, C_POWER, "%.2f", l->power_w * (double)l->count);
            ry_csv_put(o, &r);
        }
    }
}

void ry_emit_bom(ry_buf *o, const ry_bom *b, const ry_cabling *phys, const ry_capex *capex,
                 ry_format fmt, int paper)
{
    ry_emit_bom_sens(o, b, phys, capex, fmt, paper, NULL);
}

void ry_emit_bom_sens(ry_buf *o, const ry_bom *b, const ry_cabling *phys, const ry_capex *capex,
                      ry_format fmt, int paper, const ry_price_items *sens)
{
    if (fmt == RY_FMT_JSON) {
        json_t *j = bom_json(b);
        /* "transceivers" counts cable ends (the paper's count): its own name too */
        json_object_set_new(j, "cable_ends", json_integer(b->transceivers));
        if (phys)
            json_object_set_new(j, "physical", physical_json(phys));
        if (capex)
            json_object_set_new(j, "capex", ry_capex_json(capex));
        if (capex && capex->ntrays)
            json_object_set_new(j, "rack_trays", trays_json(capex));
        if (sens)
            json_object_set_new(j, "sensitivity", ry_sensitivity_json(sens));
        ry_json_out(o, j, 0);
    } else if (fmt == RY_FMT_CSV) {
        bom_csv(o, b, phys, capex);
    } else {
        cents_mode = report_cents(paper ? b : NULL, phys, capex);
        bom_text(o, b);
        counts_text(o, b, capex);
        if (capex) {
            capex_text(o, capex);
            ownership_text(o, capex);
        }
        if (phys)
            physical_text(o, phys);
        if (capex && capex->ntrays)
            trays_text(o, capex);
        if (paper)
            paper_text(o, b);
        if (sens)
            ry_emit_sensitivity_text(o, sens);
    }
}

void ry_emit_capex_text(ry_buf *o, const ry_capex *x)
{
    cents_mode = report_cents_capex(x);
    capex_text(o, x);
    ownership_text(o, x);
}

void ry_emit_paper_cost_line(ry_buf *o, const ry_bom *b)
{
    int was = cents_mode;
    cents_mode = ry_money_has_cents(b->price_port) || ry_money_has_cents(b->price_transceiver) ||
                 ry_money_has_cents(b->cost_total);
    ry_buf_puts(o, "rail-only paper's cost model (");
    ry_money_text(o, b->price_port, cents_mode);
    ry_buf_puts(o, " a port, ");
    ry_money_text(o, b->price_transceiver, cents_mode);
    ry_buf_puts(o, " a transceiver): ");
    ry_money_text(o, b->cost_total, cents_mode);
    ry_buf_printf(o, " for %s switch ports and %s transceivers (2 per link); not a capex "
                     "figure\n", ry_n(b->switch_ports), ry_n(b->transceivers));
    cents_mode = was;
}

/* "80:42 (1.90:1)" for a switch's cabled down- and up-links; the ratio is
 * of their capacity (a slower NIC link counts at its own speed). */
static void ratio_text(ry_buf *o, const ry_bom_tier *x)
{
    ry_buf_printf(o, "%d:%d cabled", x->sw_down, x->sw_up);
    if (x->sw_up_gbps > 0) {
        double r = x->sw_down_gbps / x->sw_up_gbps;
        if (fabs(r - 1.0) < 0.005)
            ry_buf_puts(o, " (1:1, non-blocking)");
        else if (r < 1.0)
            ry_buf_printf(o, " (1:%.2f, more up than down)", 1.0 / r);
        else
            ry_buf_printf(o, " (%.2f:1 oversubscribed)", r);
    }
}

/* "64 x 200G (32 ports split in 2)" */
static void side_text(ry_buf *o, int n, double gbps, int split, int ports)
{
    ry_buf_printf(o, "%s x %gG", ry_n(n), gbps);
    if (split > 1)
        ry_buf_printf(o, " (%s port%s split in %d)", ry_n(ports), plural(ports, "", "s"), split);
}

/* Why a tier's taper is not the one asked: its side counted from the other
 * by the taper was rounded down to whole ports, so that the tier buys no
 * more ports on that side than the taper gives; one port more would give
 * the taper on the other side of the one asked. */
static void rounding_text(ry_buf *o, const ry_tier_ports *p)
{
    if (!p->round_down)
        return;
    double D = p->round_down, U = p->round_up;
    double down_bw = p->down * p->down_gbps, up_bw = p->up * p->up_gbps;
    int up = p->rounded_up_side;        /* the side counted from the other */
    int given = up ? p->down : p->up, got = up ? p->up : p->down;
    double exact = up ? down_bw * U / (D * p->up_gbps) : up_bw * D / (U * p->down_gbps);
    double next = up ? down_bw / (up_bw + p->up_gbps) : (down_bw + p->down_gbps) / up_bw;
    char x[RY_NUM_CAP], r1[RY_NUM_CAP];
    ry_num_sig(x, sizeof x, exact, 4);
    ry_num_sig(r1, sizeof r1, next, 4);
    ry_buf_printf(o, " (%g:%g asked: %s %s make %s %s, rounded down to %s whole ports so that %s; "
                  "%s %s would give %s:1)", D, U, ry_n(given), up ? "down" : "up", x,
                  up ? "up" : "down", ry_n(got),
                  up ? "no more uplinks are bought than asked"
                     : "the tier is no more oversubscribed than asked",
                  ry_n(got + 1), up ? "up" : "down", r1);
}

/* The tiers of a fabric.tiers list: each tier's model, its ports down and
 * up with their speeds, free ports, the taper as planned and as cabled. */
static void tiers_text(ry_buf *o, const ry_fabric *f, const ry_bom *b)
{
    ry_buf_printf(o, "tiers:         %d (fabric.tiers), leaves first\n", f->tiers);
    for (int t = 1; t <= f->tiers; t++) {
        const ry_tier_ports *p = &f->tier[t];
        const ry_bom_tier *x = &b->tier[t];
        int spare = p->sw->radix - p->cages_down - p->cages_up;
        ry_buf_printf(o, "  %-6s %s x %s (%d x %gG): ", ry_tier_name(t, f->tiers),
                      ry_n(x->switches), p->sw->name, p->sw->radix, p->sw->port_gbps);
        side_text(o, p->down, p->down_gbps, p->down_split, p->cages_down);
        ry_buf_puts(o, " down");
        if (t < f->tiers) {
            ry_buf_puts(o, ", ");
            side_text(o, p->up, p->up_gbps, p->up_split, p->cages_up);
            ry_buf_puts(o, " up");
        }
        if (spare > 0)
            ry_buf_printf(o, ", %d free", spare);
        if (t < f->tiers) {
            double r = p->down * p->down_gbps / (p->up * p->up_gbps);
            if (fabs(r - 1.0) < 0.005)
                ry_buf_puts(o, "; taper 1:1");
            else if (r < 1.0)
                ry_buf_printf(o, "; taper 1:%.3g (more up than down)", 1.0 / r);
            else
                ry_buf_printf(o, "; taper %.4g:1", r);
            rounding_text(o, p);
            ry_buf_puts(o, "\n         the fullest ");
            ratio_text(o, x);
        } else {
            ry_buf_printf(o, "; the fullest has %d cabled", x->sw_down);
        }
        if (t > 1 && t < f->tiers)  /* what a block of the tier joins */
            ry_buf_printf(o, "; blocks of %d %s%s", p->blocks,
                          t == 2 ? "leaves" : ry_tier_name(t - 1, f->tiers), t == 2 ? "" : "s");
        ry_buf_putc(o, '\n');
    }
}

void ry_emit_summary(ry_buf *o, const ry_spec *s, const ry_fabric *f, const ry_bom *b,
                     const ry_capex *capex, const char *unpriced, int paper)
{
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long domains = s->gpus / s->hb_domain;
    ry_buf_printf(o, "name:          %s\n", s->name);
    ry_buf_printf(o, "design:        %s%s\n", ry_spec_design_word(s),
                  s->rack_tor ? " (a fat tree whose leaf takes one rack's NICs)" : "");
    ry_buf_printf(o, "GPUs:          %s (%s node%s of %d, %s)\n", ry_n(s->gpus), ry_n(s->nodes),
                  plural(s->nodes, "", "s"), gpn, s->node.name[0] ? s->node.name : "inline");
    ry_buf_printf(o, "HB domain:     %s GPU%s, %s domain%s\n", ry_n(s->hb_domain),
                  plural(s->hb_domain, "", "s"), ry_n(domains), plural(domains, "", "s"));
    if (s->design == RY_DESIGN_FAT_TREE) {
        /* No rails: a leaf takes whole nodes, and its group is the unit. */
        ry_buf_printf(o, "planes:        %d%s\n", s->planes,
                      s->homing == RY_HOMING_DUAL_TOR ? " (dual-tor: a NIC's ports on a ToR pair)"
                      : s->homing == RY_HOMING_DUAL_PLANE
                      ? " (dual-plane: a NIC's ports on a ToR pair, one ToR per plane)" : "");
        long long per = f->unit_gpus > 0 ? f->unit_gpus : s->gpus;
        long long last = s->gpus - (long long)(f->num_units - 1) * per;
        if (per % gpn == 0)
            ry_buf_printf(o, "scalable unit: a leaf group of %s node%s (%s GPUs)", ry_n(per / gpn),
                          plural(per / gpn, "", "s"), ry_n(per));
        else
            ry_buf_printf(o, "scalable unit: a leaf group of %s GPUs", ry_n(per));
        ry_buf_printf(o, ", %s unit%s", ry_n(f->num_units), plural(f->num_units, "", "s"));
        if (last != per)
            ry_buf_printf(o, " (the last has %s %s)", ry_n(last % gpn == 0 ? last / gpn : last),
                          last % gpn == 0 ? plural(last / gpn, "node", "nodes")
                                          : plural(last, "GPU", "GPUs"));
        ry_buf_putc(o, '\n');
    } else {
        int per_switch = b->tier[1].max_rails;
        ry_buf_printf(o, "rails:         %d", s->rails);
        if (per_switch > 1)
            ry_buf_printf(o, " (%d per switch)", per_switch);
        ry_buf_printf(o, ", planes: %d", s->planes);
        if (s->homing == RY_HOMING_DUAL_TOR)
            ry_buf_printf(o, " (dual-tor: a NIC's ports on a ToR pair, %d network%s)",
                          s->planes / 2, s->planes / 2 == 1 ? "" : "s");
        else if (s->homing == RY_HOMING_DUAL_PLANE)
            ry_buf_puts(o, " (dual-plane: a NIC's ports on a ToR pair, one ToR per plane)");
        ry_buf_putc(o, '\n');
        long long last = domains - (long long)(f->num_units - 1) * f->su_domains;
        ry_buf_printf(o, "scalable unit: %s HB domain%s (%s GPUs)%s", ry_n(f->su_domains),
                      plural(f->su_domains, "", "s"), ry_n((long long)f->su_domains * s->hb_domain),
                      s->scalable_unit ? "" : ", fills a leaf");
        ry_buf_printf(o, ", %s unit%s", ry_n(f->num_units), plural(f->num_units, "", "s"));
        if (f->num_units > 1 && last != f->su_domains)
            ry_buf_printf(o, " (the last has %s)", ry_n(last));
        ry_buf_putc(o, '\n');
    }
    if (s->n_tier > 0) {
        tiers_text(o, f, b);
        ry_buf_printf(o, "subnets:       %d\n\n", f->nsubnets);
        goto tables;
    }
    ry_buf_printf(o, "switch:        %s, %d ports at %gG\n", s->sw.name, s->sw.radix, s->sw.port_gbps);
    ry_buf_printf(o, "tiers:         %d%s\n", f->tiers, s->tiers ? "" : " (auto)");
    for (int t = 1; t <= f->tiers; t++) {
        const ry_bom_tier *x = &b->tier[t];
        ry_buf_printf(o, "  %-6s %s down, %s up per switch", ry_tier_name(t, f->tiers),
                      ry_n(f->down_ports[t]), ry_n(f->up_ports[t]));
        if (t < f->tiers) {
            ry_buf_puts(o, "; the fullest ");
            ratio_text(o, x);
        } else {
            ry_buf_printf(o, "; the fullest has %d cabled", x->sw_down);
        }
        ry_buf_putc(o, '\n');
    }
    ry_buf_printf(o, "subnets:       %d\n\n", f->nsubnets);
tables:
    cents_mode = report_cents(paper ? b : NULL, NULL, capex);
    bom_text(o, b);
    counts_text(o, b, capex);
    if (capex)
        capex_text(o, capex);
    else
        ry_buf_printf(o, "\ncapex: not priced (no cabling plan: %s)\n",
                      unpriced && unpriced[0] ? unpriced : "none was made");
    if (paper)
        paper_text(o, b);
}

void ry_emit_growth(ry_buf *o, const ry_growth *g, const char *failed)
{
    if (!g) {
        ry_buf_printf(o, "\ngrowth reserve: not counted (%s)\n", failed && failed[0] ? failed
                                                                                   : "unknown");
        return;
    }
    ry_buf_printf(o, "\ngrowth reserve: this phase is the fabric of %s nodes (%s GPUs) cut down\n",
                  ry_n(g->target_nodes), ry_n(g->target_gpus));
    long long sw = g->switches_with - g->switches_without;
    long long units = g->switch_units_with - g->switch_units_without;
    int racks = g->with.racks - g->without.racks;
    ry_buf_puts(o, "  costs now:   ");
    ry_money_text(o, g->with.total - g->without.total, cents_mode);
    ry_buf_puts(o, " of capex: ");
    ry_money_text(o, g->with.total, cents_mode);
    ry_buf_puts(o, " with the reserve, ");
    ry_money_text(o, g->without.total, cents_mode);
    ry_buf_printf(o, " without\n               %s switch%s bought early (%s with, %s without), "
                  "%s rack unit%s, %d rack%s\n", ry_n(sw), plural(sw, "", "es"),
                  ry_n(g->switches_with), ry_n(g->switches_without), ry_n(units),
                  plural(units, "", "s"), racks, plural(racks, "", "s"));
    const ry_growth_later *w = &g->without_later, *r = &g->with_later;
    ry_buf_printf(o, "  saves later: built without it, growing to the target would\n"
                  "                 move or remove %s of the phase's %s cable%s (%s replaced),\n"
                  "                 retire %s of its %s switch%s and ",
                  ry_n(w->moved), ry_n(w->cables), plural(w->cables, "", "s"),
                  ry_n(w->replaced), ry_n(w->switches_retired), ry_n(g->switches_without),
                  plural(g->switches_without, "", "es"));
    ry_money_text(o, w->retired, cents_mode);
    ry_buf_printf(o, " of switches, cables and optics,\n"
                  "                 cut off %s GPUs while the cables move, relocate %s devices;\n"
                  "               with it, %s of %s cables move, %s devices are relocated\n",
                  ry_n(w->gpus_cut), ry_n(w->relocated), ry_n(r->moved), ry_n(r->cables),
                  ry_n(r->relocated));
}

void ry_emit_summary_skipped(ry_buf *o, const char *const *group, const int *earlier, int n)
{
    for (int i = 0; i < n; i++) {
        if (i == 0)
            ry_buf_putc(o, '\n');
        if (earlier[i])
            ry_buf_printf(o, "%s/: skipped (--skip): its files are from an earlier run, kept as "
                          "they were, and may not match this spec\n", group[i]);
        else
            ry_buf_printf(o, "%s/: skipped (--skip): not written\n", group[i]);
    }
}

void ry_emit_compare(ry_buf *o, const ry_spec *s, const ry_compare_row *rows, int nrows,
                     ry_format fmt)
{
    const ry_bom *so, *ro, *ft;
    if (fmt == RY_FMT_JSON) {
        json_t *arr = json_array();
        for (int i = 0; i < nrows; i++) {
            json_t *designs = json_object();
            for (int d = 0; d < 3; d++) {
                json_t *bj = bom_json(&rows[i].bom[d]);
                if (rows[i].entries[d].by_position)     /* a tier list taken by position */
                    json_object_set_new(bj, "tier_entries",
                                        ry_tier_entries_json(rows[i].bom[d].tiers,
                                                             &rows[i].entries[d]));
                json_object_set_new(designs, ry_design_name((ry_design)d), bj);
            }
            json_array_append_new(arr, json_pack("{s:I, s:i, s:i, s:o, s:o, s:i, s:b}",
                "gpus", (json_int_t)rows[i].gpus, "hb_domain", rows[i].hb_domain,
                "radix", rows[i].radix, "reduction",
                json_real(round(rows[i].reduction * 10.0) / 10.0), "designs", designs,
                "scalable_unit_domains", rows[i].su_domains,
                "scalable_unit_from_spec", rows[i].su_from_spec));
        }
        ry_json_out(o, json_pack("{s:o}", "rows", arr), 0);
        return;
    }
    if (fmt == RY_FMT_CSV) {
        ry_buf_puts(o, "gpus,hb_domain,radix,sota_switches,rail_only_switches,sota_transceivers,"
                       "rail_only_transceivers,sota_cost,rail_only_cost,reduction_pct,"
                       "fat_tree_switches,fat_tree_transceivers,fat_tree_cost");
        ry_csv_end(o);
        for (int i = 0; i < nrows; i++) {
            so = &rows[i].bom[RY_DESIGN_RAIL_OPTIMIZED];
            ro = &rows[i].bom[RY_DESIGN_RAIL_ONLY];
            ft = &rows[i].bom[RY_DESIGN_FAT_TREE];
            ry_buf_printf(o, "%lld,%d,%d,%lld,%lld,%lld,%lld,%.2f,%.2f,%.1f,%lld,%lld,%.2f%s",
                          rows[i].gpus, rows[i].hb_domain, rows[i].radix, so->switches,
                          ro->switches, so->transceivers, ro->transceivers, so->cost_total,
                          ro->cost_total, rows[i].reduction, ft->switches, ft->transceivers,
                          ft->cost_total, ry_csv_eol());
        }
        return;
    }
    if (s && s->n_tier) {
        ry_buf_puts(o, "fabric.tiers: ");
        ry_spec_tiers_text(o, s, ", ");
        ry_buf_puts(o, "\n\n");
    }
    ry_buf_printf(o, "%7s %5s %6s | %-24s | %-24s | %9s\n", "", "", "", "rail-optimized",
                  "rail-only", "cost");
    ry_buf_printf(o, "%7s %5s %6s | %9s %14s | %9s %14s | %9s\n", "GPUs", "K", "radix",
                  "switches", "transceivers", "switches", "transceivers", "reduction");
    for (int i = 0; i < nrows; i++) {
        so = &rows[i].bom[RY_DESIGN_RAIL_OPTIMIZED];
        ro = &rows[i].bom[RY_DESIGN_RAIL_ONLY];
        char rx[16];
        snprintf(rx, sizeof rx, rows[i].radix ? "%d" : "tiers", rows[i].radix);
        ry_buf_printf(o, "%7lld %5d %6s | %9lld %14lld | %9lld %14lld | %8.1f%%\n", rows[i].gpus,
                      rows[i].hb_domain, rx, so->switches, so->transceivers,
                      ro->switches, ro->transceivers, rows[i].reduction);
    }
    ry_buf_puts(o, "\ncost (paper model)\n");
    cents_mode = 0;
    for (int i = 0; i < nrows; i++)
        for (int d = 0; d < 3; d++)
            cents_mode |= ry_money_has_cents(rows[i].bom[d].cost_total);
    for (int i = 0; i < nrows; i++) {
        so = &rows[i].bom[RY_DESIGN_RAIL_OPTIMIZED];
        ro = &rows[i].bom[RY_DESIGN_RAIL_ONLY];
        ft = &rows[i].bom[RY_DESIGN_FAT_TREE];
        if (rows[i].radix)
            ry_buf_printf(o, "  radix %d: rail-optimized ", rows[i].radix);
        else
            ry_buf_puts(o, "  fabric.tiers: rail-optimized ");
        ry_money_text(o, so->cost_total, cents_mode);
        ry_buf_puts(o, ", rail-only ");
        ry_money_text(o, ro->cost_total, cents_mode);
        ry_buf_printf(o, ", fat-tree ");
        ry_money_text(o, ft->cost_total, cents_mode);
        ry_buf_printf(o, " (%lld switches)\n", ft->switches);
        for (int d = 0; d < 3; d++)
            if (rows[i].entries[d].by_position) {
                ry_buf_puts(o, "  ");
                ry_tier_entries_text(o, s, (ry_design)d, rows[i].bom[d].tiers,
                                     &rows[i].entries[d]);
            }
    }
    ry_buf_puts(o, "\nscalable unit per radix (HB domains):");
    for (int i = 0; i < nrows; i++) {
        if (rows[i].radix)
            ry_buf_printf(o, "%s radix %d: %d%s", i ? "," : "", rows[i].radix,
                          rows[i].su_domains, rows[i].su_from_spec ? " (the spec's)" : "");
        else
            ry_buf_printf(o, "%s fabric.tiers: %d%s", i ? "," : "", rows[i].su_domains,
                          rows[i].su_from_spec ? " (the spec's)" : "");
    }
    ry_buf_puts(o, "\n  (a unit that fills a leaf of each radix unless the spec sets its own)\n");
}

/* validate's growth figures: amounts as json_money, counts as integers */
static json_t *growth_later_json(const ry_growth_later *l)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:o, s:I, s:I}",
                     "cables", (json_int_t)l->cables, "moved", (json_int_t)l->moved,
                     "replaced", (json_int_t)l->replaced,
                     "switches_retired", (json_int_t)l->switches_retired,
                     "retired", ry_json_money(l->retired), "gpus_cut_off", (json_int_t)l->gpus_cut,
                     "relocated", (json_int_t)l->relocated);
}

/* validate's growth figures: amounts as json_money, counts as integers */
static json_t *growth_json(const ry_growth *g)
{
    return json_pack("{s:I, s:I, s:{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:i, s:i}, "
                     "s:{s:o, s:o, s:I}}",
                     "target_gpus", (json_int_t)g->target_gpus,
                     "target_nodes", (json_int_t)g->target_nodes,
                     "now", "cost", ry_json_money(g->with.total - g->without.total),
                     "capex_with", ry_json_money(g->with.total),
                     "capex_without", ry_json_money(g->without.total),
                     "switches_with", (json_int_t)g->switches_with,
                     "switches_without", (json_int_t)g->switches_without,
                     "switch_units_with", (json_int_t)g->switch_units_with,
                     "switch_units_without", (json_int_t)g->switch_units_without,
                     "racks_with", g->with.racks, "racks_without", g->without.racks,
                     "later", "without", growth_later_json(&g->without_later),
                     "with", growth_later_json(&g->with_later),
                     "cables_target", (json_int_t)g->cables_target);
}

void ry_emit_validate_json(ry_buf *o, const char *path, const ry_spec *s, const ry_fabric *f,
                           const ry_bom *b, const ry_capex *x, const ry_design_check *checks,
                           int strict, const ry_growth *g)
{
    json_t *tiers = json_array();
    for (int t = 1; t <= f->tiers; t++) {
        const ry_tier_ports *p = &f->tier[t];
        json_t *e = json_pack("{s:i, s:s, s:i, s:i, s:i, s:i}", "tier", t,
                              "name", ry_tier_name(t, f->tiers), "down_ports",
                              f->down_ports[t], "up_ports", f->up_ports[t],
                              "fullest_down_cabled", b->tier[t].sw_down,
                              "fullest_up_cabled", b->tier[t].sw_up);
        if (s->n_tier > 0 && p->sw)
            json_object_update_new(e, json_pack("{s:s, s:i, s:f, s:f, s:i, s:i, s:i}",
                                                "switch", p->sw->name, "ports", p->ports,
                                                "down_gbps", p->down_gbps, "up_gbps", p->up_gbps,
                                                "down_split", p->down_split, "up_split",
                                                p->up_split, "group", p->group));
        json_array_append_new(tiers, e);
    }
    /* Powers are watts, 0 when the model does not say. */
    json_t *j = json_pack("{s:s, s:b, s:s, s:s, s:I, s:I, s:i, s:s, s:o, s:i, s:I, s:i, s:i, s:i, "
                          "s:b, s:i, s:s, s:o, s:i, s:f, s:i, s:b, s:o, s:i}",
                          "spec", path, "valid", 1, "name", s->name,
                          "design", ry_spec_design_word(s), "gpus", (json_int_t)s->gpus,
                          "nodes", (json_int_t)s->nodes, "gpus_per_node", s->node.gpus_per_node,
                          "node", s->node.name[0] ? s->node.name : "inline",
                          "node_power_w", ry_json_money(s->node.power_w),
                          "hb_domain", s->hb_domain,
                          "hb_domains", (json_int_t)(s->gpus / s->hb_domain),
                          "rails", s->rails, "planes", s->planes,
                          "scalable_unit_domains", f->su_domains,
                          "scalable_unit_fills_leaf", s->scalable_unit == 0,
                          "scalable_units", f->num_units, "switch", s->sw.name,
                          "switch_power_w", ry_json_money(s->sw.power_w),
                          "radix", s->n_tier ? 0 : s->sw.radix, "port_gbps", s->sw.port_gbps,
                          "tiers", f->tiers, "tiers_auto", s->tiers == 0,
                          "tier_ports", tiers, "subnets", f->nsubnets);
    json_object_set_new(j, "scalable_unit_gpus", json_integer(f->unit_gpus));
    static const char *const homing[] = { "single", "dual-tor", "dual-plane" };
    json_object_set_new(j, "homing", json_string(homing[s->homing]));
    json_object_set_new(j, "bom", bom_json(b));
    json_object_set_new(json_object_get(j, "bom"), "cable_ends", json_integer(b->transceivers));
    json_object_set_new(j, "capex", x ? ry_capex_json(x) : json_null());
    if (f->reserve)
        json_object_set_new(j, "growth", g ? growth_json(g) : json_null());
    if (checks)
        json_object_set_new(j, "checks", ry_checks_json(checks, strict));
    ry_json_out(o, j, 0);
}
