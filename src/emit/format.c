/* The shared vocabulary of every report: the format names, money in JSON,
 * the capex object, a physical bill line's item and sizes in bytes.
 * emit/format.h says why they live here. */
#include "emit/format.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "util/numfmt.h"

int ry_format_parse(const char *s, ry_format *out)
{
    if (strcmp(s, "text") == 0)
        *out = RY_FMT_TEXT;
    else if (strcmp(s, "json") == 0)
        *out = RY_FMT_JSON;
    else if (strcmp(s, "csv") == 0)
        *out = RY_FMT_CSV;
    else
        return -1;
    return 0;
}

/* Integral amounts as JSON integers so consumers need no rounding. */
json_t *ry_json_money(double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

json_t *ry_capex_json(const ry_capex *x)
{
    json_t *j = json_pack("{s:o, s:o, s:o, s:o, s:I, s:o, s:s}",
        "total", ry_json_money(round(x->total * 100) / 100),
        "switches", ry_json_money(round(x->switches_cost * 100) / 100),
        "optics", ry_json_money(round(x->optics * 100) / 100),
        "cables", ry_json_money(round(x->cables * 100) / 100),
        "switch_count", (json_int_t)x->switches, "switch_price", ry_json_money(x->switch_price),
        "switch_part", x->switch_part);
    if (x->spare_switches > 0)
        json_object_set_new(j, "spare_switches", json_integer(x->spare_switches));
    json_t *models = json_array();
    for (int i = 0; i < x->nmodels; i++) {
        const ry_capex_model *m = &x->model[i];
        json_array_append_new(models, json_pack("{s:s, s:s, s:I, s:o, s:o}", "name", m->name,
                                                "part", m->part, "count", (json_int_t)m->count,
                                                "price", ry_json_money(m->price),
                                                "cost", ry_json_money(round(m->cost * 100) / 100)));
    }
    json_object_set_new(j, "switch_models", models);
    json_object_set_new(j, "optics_modules", json_integer(x->optics_modules));
    json_object_set_new(j, "cable_count", json_integer(x->cable_count));
    if (x->rack_price > 0) {
        json_object_set_new(j, "racks", ry_json_money(round(x->racks_cost * 100) / 100));
        json_object_set_new(j, "rack_count", json_integer(x->racks));
        json_object_set_new(j, "rack_price", ry_json_money(x->rack_price));
    }
    if (x->spares_pct > 0) {
        json_object_set_new(j, "spares", ry_json_money(round(x->spares * 100) / 100));
        json_object_set_new(j, "spares_pct", json_real(x->spares_pct));
    }
    json_object_set_new(j, "ownership", ry_ownership_json(x));
    return j;
}

/* Money to the cent, watts to the watt. */
static json_t *cents(double v)
{
    return ry_json_money(round(v * 100) / 100);
}

json_t *ry_ownership_json(const ry_capex *x)
{
    json_t *j = json_pack("{s:i, s:f, s:f, s:f, s:o, s:o, s:o, s:o}", "years", x->years,
        "pue", x->pue, "energy_price_usd_kwh", x->energy_price, "support_pct", x->support_pct,
        "capex", cents(x->total),
        "energy", x->power_unknown ? json_null() : cents(x->energy_year * x->years),
        "support", x->switch_price > 0 ? cents(x->support_year * x->years) : json_null(),
        "total", cents(x->ownership));
    /* the total leaves out what is unknown: energy (a switch without power),
     * support (a switch without price) */
    json_object_set_new(j, "partial", json_boolean(x->power_unknown || !(x->switch_price > 0)));
    json_object_set_new(j, "network_power_w",
                        x->power_unknown ? json_null() : json_real(round(x->network_power_w)));
    json_object_set_new(j, "energy_per_year",
                        x->power_unknown ? json_null() : cents(x->energy_year));
    json_object_set_new(j, "support_per_year",
                        x->switch_price > 0 ? cents(x->support_year) : json_null());
    json_object_set_new(j, "spares_used", cents(x->replace_year * x->years));
    json_object_set_new(j, "spares_used_per_year", cents(x->replace_year));
    /* the servers apart: the same in every design of one cluster */
    if (x->server_power_w > 0)
        json_object_set_new(j, "servers", json_pack("{s:f, s:o, s:o}", "power_w",
                            round(x->server_power_w), "energy_per_year",
                            cents(x->server_energy_year), "energy",
                            cents(x->server_energy_year * x->years)));
    return j;
}

json_t *ry_reliability_json(const ry_reliability *r)
{
    json_t *cls = json_array();
    for (int i = 0; i < r->nclass; i++) {
        const ry_rel_class *c = &r->cls[i];
        json_t *j = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:b}", "class", c->name,
                              "rate_key", c->key, "count", c->count, "rate", c->rate,
                              "failures", c->failures, "interrupt_gpu_hours", c->interrupt_gpu_h,
                              "repair_gpu_hours", c->repair_gpu_h, "lost_gpu_hours",
                              c->lost_gpu_h, "network", c->network);
        if (c->network && strstr(c->name, "switches"))
            json_object_set_new(j, "repair", json_string(c->drained ? "drain" : "slowed"));
        json_array_append_new(cls, j);
    }
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:o, s:i, s:o, s:o}", "failures",
                     r->failures, "network_failures", r->network_failures, "lost_gpu_hours",
                     r->lost_gpu_h, "network_lost_gpu_hours", r->network_lost_gpu_h, "goodput",
                     r->goodput, "gpu_hour_usd", r->gpu_hour, "lost_usd",
                     cents(r->lost_usd), "years", r->years, "lost_usd_years",
                     cents(r->lost_usd_years), "classes", cls);
}

const char *ry_pbom_item_name(const ry_pbom_line *l)
{
    return strcmp(l->what, "transceiver") == 0 ? "optics" : l->what;
}

const char *ry_fmt_bytes(char *buf, size_t cap, double bytes)
{
    return ry_num_si(buf, cap, bytes, "B", 3);
}

void ry_gp_terminal(ry_buf *o, int pass, int width, int height, const char *stem)
{
    ry_buf_printf(o, "set terminal %s size %d,%d font 'DejaVu Sans,11' noenhanced\n"
                     "set output '%s.%s'\n", pass ? "svg" : "pngcairo", width, height, stem,
                  pass ? "svg" : "png");
}
