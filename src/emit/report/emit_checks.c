#include "emit/report/emit_checks.h"

#include <jansson.h>
#include <math.h>

#include "util/numfmt.h"
#include "emit/text_table.h"
#include "fabric/names.h"

static const char *const level_names[] = { "note", "warning", "error" };

int ry_checks_pass(const ry_design_check *c, int strict)
{
    return c->errors == 0 && (!strict || c->warnings == 0);
}

/* "1.00:1" for down:up bandwidth; "-" at the top, which has no uplinks. */
static void ratio(char *buf, size_t cap, const ry_check_tier *x)
{
    if (x->up_gbps > 0)
        snprintf(buf, cap, "%.2f:1", x->down_gbps / x->up_gbps);
    else
        snprintf(buf, cap, "-");
}

void ry_emit_checks(ry_buf *o, const ry_design_check *c, int strict)
{
    ry_buf_printf(o, "\ndesign checks: %d error%s, %d warning%s%s\n", c->errors,
                  c->errors == 1 ? "" : "s", c->warnings, c->warnings == 1 ? "" : "s",
                  strict ? " (--strict: warnings are errors)" : "");
    ry_buf_printf(o, "NIC links:     %gG (NICs %gG, switch ports %gG)\n", c->link_gbps,
                  c->nic_gbps, c->port_gbps);
    ry_text_table t;
    ry_text_table_init(&t, "lrrrrrrrrr");
    const char *head[] = { "tier", "switches", "ports", "used", "fill", "idle", "idle cost",
                           "down", "up", "down:up" };
    for (int i = 0; i < 10; i++)
        ry_text_table_cell(&t, "%s", head[i]);
    for (int tr = 1; tr <= c->tiers; tr++) {
        const ry_check_tier *x = &c->tier[tr];
        char r[24];
        ratio(r, sizeof r, x);
        ry_buf m;
        ry_buf_init(&m);
        ry_money_text(&m, x->idle_cost, 0);
        ry_text_table_cell(&t, "%s", ry_tier_name(tr, c->tiers));
        char g[RY_NUM_CAP];
        ry_text_table_cell(&t, "%s", ry_n(x->switches));
        ry_text_table_cell(&t, "%s", ry_n(x->ports));
        ry_text_table_cell(&t, "%s", ry_n(x->used));
        ry_text_table_cell(&t, "%.1f%%", 100.0 * x->fill);
        ry_text_table_cell(&t, "%s", ry_n(x->idle));
        ry_text_table_cell(&t, "%s", m.data);
        ry_text_table_cell(&t, "%s", ry_num_si(g, sizeof g, x->down_gbps * 1e9, "b/s", 3));
        ry_text_table_cell(&t, "%s", x->up_gbps > 0 ? ry_num_si(g, sizeof g, x->up_gbps * 1e9, "b/s", 3)
                                                    : "-");
        ry_text_table_cell(&t, "%s", r);
        ry_buf_free(&m);
    }
    ry_text_table_write(&t, o, "");
    char mp[RY_NUM_CAP], mt[RY_NUM_CAP], mg[RY_NUM_CAP];
    ry_buf_printf(o, "(idle cost and neighbouring sizes by the rail-only paper's cost model: %s a "
                  "port, %s a transceiver, %s a GPU; %s neighbouring design%s priced; the "
                  "capex is above)\n",
                  ry_num_money(mp, sizeof mp, c->price_port, ry_money_has_cents(c->price_port) ? 2 : 0),
                  ry_num_money(mt, sizeof mt, c->price_transceiver,
                               ry_money_has_cents(c->price_transceiver) ? 2 : 0),
                  ry_num_money(mg, sizeof mg, c->cost_per_gpu, 0), ry_n(c->options_tried),
                  c->options_tried == 1 ? "" : "s");
    for (int i = 0; i < c->nfindings; i++) {
        const ry_check_finding *x = &c->finding[i];
        ry_buf_printf(o, "%s: %s: %s\n", level_names[x->level], x->check, x->msg);
    }
    if (c->nfindings < c->errors + c->warnings)
        ry_buf_printf(o, "(%d more findings not shown)\n",
                      c->errors + c->warnings - c->nfindings);
}

static json_t *option_json(const ry_check_option *x)
{
    return json_pack("{s:I, s:i, s:i, s:i, s:I, s:f, s:f, s:f}", "gpus", (json_int_t)x->gpus,
                     "scalable_unit_domains", x->su_domains, "scalable_units", x->units,
                     "tiers", x->tiers, "top_switches", (json_int_t)x->top_switches,
                     "paper_cost", x->cost, "saving_pct", round(x->saving * 1000.0) / 10.0,
                     "saving_per_gpu_pct", round(x->saving_per_gpu * 1000.0) / 10.0);
}

json_t *ry_checks_json(const ry_design_check *c, int strict)
{
    json_t *findings = json_array(), *tiers = json_array();
    for (int i = 0; i < c->nfindings; i++) {
        const ry_check_finding *x = &c->finding[i];
        json_array_append_new(findings, json_pack("{s:s, s:s, s:s, s:s}", "level",
                                                  level_names[x->level], "check", x->check,
                                                  "key", x->key, "message", x->msg));
    }
    for (int t = 1; t <= c->tiers; t++) {
        const ry_check_tier *x = &c->tier[t];
        json_t *os = x->up_gbps > 0 ? json_real(x->down_gbps / x->up_gbps) : json_null();
        json_array_append_new(tiers, json_pack(
            "{s:i, s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:o}", "tier", t,
            "name", ry_tier_name(t, c->tiers), "switches", (json_int_t)x->switches,
            "ports", (json_int_t)x->ports, "ports_used", (json_int_t)x->used,
            "ports_idle", (json_int_t)x->idle, "fill", x->fill, "idle_cost", x->idle_cost,
            "down_gbps", x->down_gbps, "up_gbps", x->up_gbps, "oversubscription", os));
    }
    json_t *nic = json_pack("{s:f, s:f, s:f, s:b, s:b}", "nic_gbps", c->nic_gbps, "port_gbps",
                            c->port_gbps, "link_gbps", c->link_gbps, "nic_faster",
                            c->nic_faster, "accepted", c->accepted);
    return json_pack("{s:b, s:b, s:i, s:i, s:o, s:o, s:o, s:f, s:f, s:f, s:i, s:o}",
                     "ok", ry_checks_pass(c, strict), "strict", strict, "errors", c->errors,
                     "warnings", c->warnings, "findings", findings, "nic", nic, "tiers", tiers,
                     "price_per_port", c->price_port, "paper_cost", c->cost,
                     "paper_cost_per_gpu", c->cost_per_gpu, "options_tried", c->options_tried, "cheaper",
                     c->has_cheaper ? option_json(&c->cheaper) : json_null());
}
