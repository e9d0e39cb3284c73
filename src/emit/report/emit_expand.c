#include "emit/report/emit_expand.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "emit/report/emit_verify.h"
#include "emit/format.h"
#include "emit/text_table.h"
#include "fabric/layout.h"
#include "fabric/names.h"
#include "util/hostlist.h"
#include "util/numfmt.h"

static const char *const state_name[RY_XC_N] = { "kept", "moved", "added", "removed" };

/* "leaf3 port 17", a NIC's "node001 mlx5_0". */
static void end_text(const ry_fabric *f, uint32_t port, char *buf, size_t n)
{
    char dev[160];
    int num;
    ry_verify_plan_end(f, port, dev, sizeof dev, &num);
    if (!ry_node_is_switch(ry_port_node(f, port)) && num == 1)
        snprintf(buf, n, "%s", dev);
    else
        snprintf(buf, n, "%s port %d", dev, num);
}

static int max_tier(const ry_expand *x)
{
    int t = x->old->tiers > x->new->tiers ? x->old->tiers : x->new->tiers;
    return t < RY_XT_N ? t : RY_XT_N - 1;
}

/* The fabric with the more tiers names them. */
static const ry_fabric *namer(const ry_expand *x)
{
    return x->new->tiers >= x->old->tiers ? x->new : x->old;
}

static long long sum_state(const long long (*a)[RY_XT_N], int s)
{
    long long n = 0;
    for (int t = 0; t < RY_XT_N; t++)
        n += a[s][t];
    return n;
}

/* Switches the phase installs (added) or removes. */
static long long switches_of(const ry_expand *x, int state)
{
    return sum_state(x->sw, state);
}

static long long work_rows(const ry_expand *x)
{
    return (long long)x->nwork + switches_of(x, RY_XC_ADDED) + switches_of(x, RY_XC_REMOVED);
}

static void text_side(ry_buf *o, const ry_fabric *f)
{
    ry_buf_printf(o, "%s GPUs, %s switches, %s cables", ry_n(f->gpus),
                  ry_n((long long)(f->nnodes - f->first_switch)), ry_n((long long)f->nlinks));
}

/* What the network costs to run a year before and after the phase, and
 * the new phase's ownership over its cost.years. */
static void ownership_text(ry_buf *o, const ry_capex *a, const ry_capex *b)
{
    ry_buf m[6];
    for (int i = 0; i < 6; i++)
        ry_buf_init(&m[i]);
    ry_money_text(&m[0], a->energy_year, 0);
    ry_money_text(&m[1], b->energy_year, 0);
    ry_money_text(&m[2], a->support_year, 0);
    ry_money_text(&m[3], b->support_year, 0);
    ry_money_text(&m[4], b->ownership, 0);
    ry_money_text(&m[5], b->total, 0);
    ry_buf_printf(o, "running the network a year: energy %s -> %s%s, support %s -> %s\n"
                     "the new phase's ownership over %d year%s: %s (its capex %s, bought or "
                     "reused)\n\n", m[0].data, m[1].data,
                  a->power_unknown || b->power_unknown ? " (a switch's power unknown)" : "",
                  m[2].data, m[3].data, b->years, b->years == 1 ? "" : "s", m[4].data,
                  m[5].data);
    for (int i = 0; i < 6; i++)
        ry_buf_free(&m[i]);
}

static void money_row(ry_text_table *t, const char *what, const ry_x_money *m)
{
    char a[RY_NUM_CAP], b[RY_NUM_CAP], c[RY_NUM_CAP];
    ry_text_table_cell(t, "%s", what);
    ry_text_table_cell(t, "%s", ry_num_money(a, sizeof a, m->bought, 0));
    ry_text_table_cell(t, "%s", ry_num_money(b, sizeof b, m->reused, 0));
    ry_text_table_cell(t, "%s", ry_num_money(c, sizeof c, m->retired, 0));
}

static void emit_text(ry_buf *o, const ry_expand *x)
{
    const ry_fabric *nf = namer(x);
    int T = max_tier(x);
    char tn[64];
    ry_buf_printf(o, "expand %s -> %s\n", x->old->spec->name, x->new->spec->name);
    ry_buf_puts(o, "  old: ");
    text_side(o, x->old);
    ry_buf_puts(o, "\n  new: ");
    text_side(o, x->new);
    ry_buf_puts(o, "\n\n");

    ry_text_table t;
    ry_text_table_init(&t, "lrrr");
    ry_text_table_cell(&t, "switches");
    ry_text_table_cell(&t, "kept");
    ry_text_table_cell(&t, "added");
    ry_text_table_cell(&t, "removed");
    for (int k = 1; k <= T; k++) {
        ry_text_table_cell(&t, "%s", ry_tier_name(k, nf->tiers));
        ry_text_table_cell(&t, "%s", ry_n(x->sw[RY_XC_KEPT][k]));
        ry_text_table_cell(&t, "%s", ry_n(x->sw[RY_XC_ADDED][k]));
        ry_text_table_cell(&t, "%s", ry_n(x->sw[RY_XC_REMOVED][k]));
    }
    ry_text_table_cell(&t, "total");
    ry_text_table_cell(&t, "%s", ry_n(sum_state(x->sw, RY_XC_KEPT)));
    ry_text_table_cell(&t, "%s", ry_n(sum_state(x->sw, RY_XC_ADDED)));
    ry_text_table_cell(&t, "%s", ry_n(sum_state(x->sw, RY_XC_REMOVED)));
    ry_text_table_write(&t, o, "");
    ry_buf_putc(o, '\n');

    ry_text_table_init(&t, "lrrrrr");
    ry_text_table_cell(&t, "cables");
    for (int s = 0; s < RY_XC_N; s++)
        ry_text_table_cell(&t, "%s", state_name[s]);
    ry_text_table_cell(&t, "replaced");
    long long rep = 0;
    for (int k = 0; k < T; k++) {
        ry_text_table_cell(&t, "%s", ry_link_tier_name(nf, k, tn, sizeof tn));
        for (int s = 0; s < RY_XC_N; s++)
            ry_text_table_cell(&t, "%s", ry_n(x->cab[s][k]));
        ry_text_table_cell(&t, "%s", ry_n(x->replaced_n[k]));
        rep += x->replaced_n[k];
    }
    ry_text_table_cell(&t, "total");
    for (int s = 0; s < RY_XC_N; s++)
        ry_text_table_cell(&t, "%s", ry_n(sum_state(x->cab, s)));
    ry_text_table_cell(&t, "%s", ry_n(rep));
    ry_text_table_write(&t, o, "");
    ry_buf_puts(o, "(moved: unplugged at one end and plugged in elsewhere; replaced: kept or\n"
                   "moved, but of another medium or too short for the new plan)\n");
    ry_buf_printf(o, "relocated: %s of %s servers, %s of %s kept switches (another rack or "
                  "rack unit\nin the new layout)\n", ry_n(x->relocated_servers), ry_n(x->servers),
                  ry_n(x->relocated_switches), ry_n(sum_state(x->sw, RY_XC_KEPT)));
    if (x->renamed_servers)
        ry_buf_printf(o, "renamed: %s of %s servers (the new plan names them otherwise: a wider number)\n",
                      ry_n(x->renamed_servers), ry_n(x->servers));
    ry_buf_putc(o, '\n');

    ry_text_table_init(&t, "lrrr");
    ry_text_table_cell(&t, "capex of the phase");
    ry_text_table_cell(&t, "bought");
    ry_text_table_cell(&t, "reused");
    ry_text_table_cell(&t, "retired");
    money_row(&t, "switches", &x->sw_money);
    money_row(&t, "cables and optics", &x->cab_money);
    ry_x_money sum = { x->sw_money.bought + x->cab_money.bought,
                       x->sw_money.reused + x->cab_money.reused,
                       x->sw_money.retired + x->cab_money.retired };
    money_row(&t, "total", &sum);
    ry_text_table_write(&t, o, "");
    ry_buf_putc(o, '\n');
    ownership_text(o, &x->capex_old, &x->capex_new);

    int W = x->rails + 1;
    long long down = 0;
    for (int i = 0; i < RY_XT_N * W; i++)
        down += x->down[i];
    ry_buf_puts(o, "downtime while the phase is cabled (old links taken down: moved, removed,\n"
                   "replaced)\n");
    if (!down) {
        ry_buf_puts(o, "  none: every old cable stays in place\n");
    } else {
        ry_text_table_init(&t, "lrrr");
        ry_text_table_cell(&t, "  links");
        ry_text_table_cell(&t, "rail");
        ry_text_table_cell(&t, "down");
        ry_text_table_cell(&t, "of");
        /* rails alike in a run share a row: "0-7" */
        for (int k = 0; k < RY_XT_N; k++)
            for (int r = 0; r < W; r++) {
                size_t i = (size_t)k * (size_t)W + (size_t)r;
                if (!x->down[i])
                    continue;
                int e = r;
                while (e + 1 < x->rails && r < x->rails && x->down[i + (size_t)(e + 1 - r)] ==
                       x->down[i] && x->links[i + (size_t)(e + 1 - r)] == x->links[i])
                    e++;
                ry_text_table_cell(&t, "  %s", ry_link_tier_name(x->old, k, tn, sizeof tn));
                if (r >= x->rails)
                    ry_text_table_cell(&t, "all");
                else if (e > r)
                    ry_text_table_cell(&t, "%d-%d", r, e);
                else
                    ry_text_table_cell(&t, "%d", r);
                ry_text_table_cell(&t, "%s", ry_n(x->down[i]));
                ry_text_table_cell(&t, "%s", ry_n(x->links[i]));
                r = e;
            }
        ry_text_table_write(&t, o, "");
        ry_buf_puts(o, "  (a row of several rails: each of them)\n");
    }
    ry_buf_printf(o, "  GPUs cut off: %s of %s (%s NIC ports; %s leaves with every uplink "
                  "down)\n", ry_n(x->gpus_cut), ry_n(x->old->gpus), ry_n(x->ports_cut),
                  ry_n(x->leaves_isolated));
    if (x->gpus_cut) {
        ry_buf_puts(o, "  by rail:");
        const char *sep = " ";
        for (int r = 0; r < x->rails; r++) {
            if (!x->gpus_cut_rail[r])
                continue;
            int e = r;
            while (e + 1 < x->rails && x->gpus_cut_rail[e + 1] == x->gpus_cut_rail[r])
                e++;
            if (e > r)
                ry_buf_printf(o, "%s%s each on rails %d-%d", sep, ry_n(x->gpus_cut_rail[r]), r, e);
            else
                ry_buf_printf(o, "%s%s on rail %d", sep, ry_n(x->gpus_cut_rail[r]), r);
            sep = ", ";
            r = e;
        }
        if (x->gpus_cut_rail[x->rails])
            ry_buf_printf(o, "%s%s of no one rail", sep, ry_n(x->gpus_cut_rail[x->rails]));
        ry_buf_putc(o, '\n');
    }
    ry_buf_printf(o, "\nwork order: %s actions (install switch %s, connect %s, move %s, "
                  "remove %s, replace %s, remove switch %s)\n", ry_n(work_rows(x)),
                  ry_n(switches_of(x, RY_XC_ADDED)), ry_n(x->wo_connect), ry_n(x->wo_move),
                  ry_n(x->wo_remove), ry_n(x->wo_replace), ry_n(switches_of(x, RY_XC_REMOVED)));
}

static json_t *by_tier(const ry_expand *x, const long long *a, int links)
{
    const ry_fabric *nf = namer(x);
    json_t *o = json_object();
    char tn[64];
    int T = max_tier(x);
    for (int k = links ? 0 : 1; k <= (links ? T - 1 : T); k++)
        json_object_set_new(o, links ? ry_link_tier_name(nf, k, tn, sizeof tn)
                                     : ry_tier_name(k, nf->tiers),
                            json_integer(a[k]));
    return o;
}

static json_t *money_json(const ry_x_money *m)
{
    return json_pack("{s:f,s:f,s:f}", "bought", m->bought, "reused", m->reused, "retired",
                     m->retired);
}

static json_t *side_json(const ry_fabric *f)
{
    return json_pack("{s:s,s:I,s:I,s:I}", "name", f->spec->name, "gpus", (json_int_t)f->gpus,
                     "switches", (json_int_t)(f->nnodes - f->first_switch), "cables",
                     (json_int_t)f->nlinks);
}

static void emit_json(ry_buf *o, const ry_expand *x)
{
    json_t *sw = json_object(), *cab = json_object();
    for (int s = 0; s < RY_XC_N; s++) {
        if (s != RY_XC_MOVED)
            json_object_set_new(sw, state_name[s], by_tier(x, x->sw[s], 0));
        json_object_set_new(cab, state_name[s], by_tier(x, x->cab[s], 1));
    }
    json_object_set_new(cab, "replaced", by_tier(x, x->replaced_n, 1));
    json_t *links = json_array();
    char tn[64];
    int W = x->rails + 1;
    for (int k = 0; k < RY_XT_N; k++)
        for (int r = 0; r < W; r++) {
            size_t i = (size_t)k * (size_t)W + (size_t)r;
            if (!x->links[i])
                continue;
            json_t *row = json_pack("{s:s,s:I,s:I}", "tier",
                                    ry_link_tier_name(x->old, k, tn, sizeof tn), "down",
                                    (json_int_t)x->down[i], "of", (json_int_t)x->links[i]);
            json_object_set_new(row, "rail", r < x->rails ? json_integer(r) : json_null());
            json_array_append_new(links, row);
        }
    json_t *rails = json_array();
    json_t *renamed = json_integer(x->renamed_servers);
    for (int r = 0; r < x->rails; r++)
        json_array_append_new(rails, json_integer(x->gpus_cut_rail[r]));
    json_t *doc = json_pack(
        "{s:o,s:o,s:o,s:o,s:{s:I,s:I},s:{s:o,s:o},s:{s:o,s:I,s:I,s:I,s:o},"
        "s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I}}",
        "old", side_json(x->old), "new", side_json(x->new), "switches", sw, "cables", cab,
        "relocated", "servers", (json_int_t)x->relocated_servers, "switches",
        (json_int_t)x->relocated_switches,
        "capex", "switches", money_json(&x->sw_money), "cables_and_optics",
        money_json(&x->cab_money), "downtime", "links", links, "gpus_cut_off",
        (json_int_t)x->gpus_cut, "nic_ports_cut_off", (json_int_t)x->ports_cut,
        "leaves_isolated", (json_int_t)x->leaves_isolated, "gpus_cut_off_by_rail", rails,
        "work_order", "actions", (json_int_t)work_rows(x), "install_switch",
        (json_int_t)switches_of(x, RY_XC_ADDED), "connect", (json_int_t)x->wo_connect, "move",
        (json_int_t)x->wo_move, "remove", (json_int_t)x->wo_remove, "replace",
        (json_int_t)x->wo_replace, "remove_switch", (json_int_t)switches_of(x, RY_XC_REMOVED));
    json_object_set_new(json_object_get(doc, "relocated"), "renamed_servers", renamed);
    json_object_set_new(doc, "ownership", json_pack("{s:o, s:o}", "old",
                        ry_ownership_json(&x->capex_old), "new", ry_ownership_json(&x->capex_new)));
    ry_json_out(o, doc, 17);
}

void ry_emit_expand(ry_buf *out, const ry_expand *x, ry_format fmt)
{
    if (fmt == RY_FMT_JSON)
        emit_json(out, x);
    else
        emit_text(out, x);
}

static void where(ry_buf *o, const ry_layout *lay, uint32_t id)
{
    int r, u, n;
    char rack[64];
    ry_layout_where(lay, id, &r, &u, &n);
    ry_rack_name(lay, r, rack, sizeof rack);
    ry_buf_printf(o, ",%s,%d", rack, u);
}

/* A switch's row: old_id or new_id -1 when it is not in that plan. */
static void switch_row(ry_buf *o, const ry_expand *x, int64_t new_id, int64_t old_id)
{
    const ry_fabric *f = new_id >= 0 ? x->new : x->old;
    uint32_t id = (uint32_t)(new_id >= 0 ? new_id : old_id);
    char name[128];
    ry_node_name(f, id, name, sizeof name);
    ry_csv_field(o, name);
    ry_buf_printf(o, ",%s,", ry_tier_name(f->nodes[id].tier, f->tiers));
    ry_csv_field(o, ry_spec_tier_switch(f->spec, f->nodes[id].tier)->name);
    ry_buf_printf(o, ",%s", new_id < 0 ? "removed" : old_id < 0 ? "added" : "kept");
    if (new_id >= 0)
        where(o, x->nc->lay, (uint32_t)new_id);
    else
        ry_buf_puts(o, ",,");
    if (old_id >= 0)
        where(o, x->oc->lay, (uint32_t)old_id);
    else
        ry_buf_puts(o, ",,");
    ry_csv_end(o);
}

void ry_emit_expand_switches(ry_buf *out, const ry_expand *x)
{
    ry_buf_puts(out, "name,tier,model,state,rack,rack_unit,old_rack,old_rack_unit");
    ry_csv_end(out);
    const ry_fabric *o = x->old, *n = x->new;
    for (uint32_t id = n->first_switch; id < n->nnodes; id++)
        switch_row(out, x, id, x->sw_old[id - n->first_switch]);
    for (uint32_t id = o->first_switch; id < o->nnodes; id++)
        if (x->sw_new[id - o->first_switch] < 0)
            switch_row(out, x, -1, id);
}

/* ---- the work order ------------------------------------------------------------------------ */

typedef struct sw_wo {
    long long walk;
    int rack, unit;
    uint32_t id;
    char name[128];
} sw_wo;

static int cmp_sw_wo(const void *a, const void *b)
{
    const sw_wo *x = a, *y = b;
    if (x->walk != y->walk)
        return x->walk < 0 ? 1 : y->walk < 0 ? -1 : (x->walk > y->walk) - (x->walk < y->walk);
    if (x->unit != y->unit)
        return (x->unit > y->unit) - (x->unit < y->unit);
    return ry_name_cmp(x->name, y->name);
}

/* The rows of the switches added (in the new layout) or removed (in the
 * old one), along the racks as the cables' rows go. */
static void switch_work(ry_buf *out, const ry_expand *x, int removed)
{
    const ry_fabric *f = removed ? x->old : x->new;
    const ry_layout *lay = removed ? x->oc->lay : x->nc->lay;
    const int32_t *other = removed ? x->sw_new : x->sw_old;
    size_t n = 0;
    sw_wo *rows = ry_xcalloc(f->nnodes - f->first_switch + 1, sizeof *rows);
    for (uint32_t id = f->first_switch; id < f->nnodes; id++) {
        if (other[id - f->first_switch] >= 0)
            continue;
        sw_wo *r = &rows[n++];
        int units;
        r->id = id;
        ry_layout_where(lay, id, &r->rack, &r->unit, &units);
        r->walk = ry_work_order_walk(lay, r->rack);
        ry_node_name(f, id, r->name, sizeof r->name);
    }
    qsort(rows, n, sizeof *rows, cmp_sw_wo);
    char rack[64], unit[32];
    for (size_t i = 0; i < n; i++) {
        rack[0] = unit[0] = '\0';
        if (rows[i].rack >= 0) {
            ry_rack_name(lay, rows[i].rack, rack, sizeof rack);
            snprintf(unit, sizeof unit, "%d", rows[i].unit);
        }
        const char *model = ry_spec_tier_switch(f->spec, f->nodes[rows[i].id].tier)->name;
        ry_csv_row(out, (const char *const[]){ rack, unit, rows[i].name, "", "", "",
                                               removed ? "remove switch" : "install switch",
                                               model }, 8);
    }
    free(rows);
}

void ry_emit_expand_work_order(ry_buf *out, const ry_expand *x)
{
    ry_emit_work_order_header(out);
    switch_work(out, x, 0);
    ry_emit_work_order_rows(out, &x->v, x->work, x->work_replace, x->nwork, x->nc->lay);
    switch_work(out, x, 1);
}

static void cable_cells(ry_buf *o, const ry_fabric *f, int32_t l)
{
    char a[192], b[192];
    if (l < 0) {
        ry_buf_puts(o, ",,");
        return;
    }
    end_text(f, f->links[l].lo, a, sizeof a);
    end_text(f, f->links[l].hi, b, sizeof b);
    ry_csv_field(o, a);
    ry_buf_putc(o, ',');
    ry_csv_field(o, b);
}

static void medium_cells(ry_buf *o, const ry_cabling *c, int32_t l)
{
    if (l < 0) {
        ry_buf_puts(o, ",");
        return;
    }
    ry_csv_field(o, c->media[c->cables[l].medium].name);
    ry_buf_printf(o, ",%g", ry_cable_length(c, (uint32_t)l));
}

static void cable_row(ry_buf *o, const ry_expand *x, const char *state, int replaced,
                      int32_t nl, int32_t ol)
{
    char lab[96];
    const ry_fabric *f = nl >= 0 ? x->new : x->old;
    uint32_t l = (uint32_t)(nl >= 0 ? nl : ol);
    ry_buf_printf(o, "%s,%d,", state, replaced);
    if (nl >= 0) {
        ry_cable_label(x->new, (uint32_t)nl, lab, sizeof lab);
        ry_csv_field(o, lab);
    }
    ry_buf_putc(o, ',');
    if (ol >= 0) {
        ry_cable_label(x->old, (uint32_t)ol, lab, sizeof lab);
        ry_csv_field(o, lab);
    }
    char tn[64];
    const ry_node *lo = ry_port_node(f, f->links[l].lo);
    ry_buf_printf(o, ",%s,", ry_link_tier_name(namer(x), lo->tier, tn, sizeof tn));
    if (lo->rail >= 0 && (lo->kind == RY_NODE_GPU || lo->nrails <= 1))
        ry_buf_printf(o, "%d", lo->rail);
    ry_buf_putc(o, ',');
    cable_cells(o, x->old, ol);
    ry_buf_putc(o, ',');
    cable_cells(o, x->new, nl);
    ry_buf_putc(o, ',');
    medium_cells(o, x->nc, nl);
    ry_buf_putc(o, ',');
    medium_cells(o, x->oc, ol);
    ry_csv_end(o);
}

void ry_emit_expand_cables(ry_buf *out, const ry_expand *x)
{
    ry_buf_puts(out, "state,replaced,label,old_label,tier,rail,old_lower,old_upper,new_lower,"
                     "new_upper,medium,length_m,old_medium,old_length_m");
    ry_csv_end(out);
    for (size_t l = 0; l < x->new->nlinks; l++)
        cable_row(out, x, state_name[x->new_state[l]], x->replaced[l], (int32_t)l,
                  x->old_of_new[l]);
    for (size_t l = 0; l < x->old->nlinks; l++)
        if (x->old_state[l] == RY_XC_REMOVED)
            cable_row(out, x, "removed", 0, -1, (int32_t)l);
}
