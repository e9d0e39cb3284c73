#include "emit/report/emit_compare.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "util/numfmt.h"
#include "emit/text_table.h"
#include "emit/tier_text.h"
#include "fabric/names.h"
#include "model/plan.h"
#include "spec/workload.h"

static int most_tiers(const ry_compare_design *d, int n)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].tiers > t)
            t = d[i].tiers;
    return t;
}

/* Media over every design, in the order they first appear. */
static int media_union(const ry_compare_design *d, int n, const char **names, int cap)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < d[i].nmedia; k++) {
            int j = 0;
            while (j < m && strcmp(names[j], d[i].media[k].name) != 0)
                j++;
            if (j == m && m < cap)
                names[m++] = d[i].media[k].name;
        }
    return m;
}

static long long medium_cables(const ry_compare_design *d, const char *name)
{
    for (int k = 0; k < d->nmedia; k++)
        if (strcmp(d->media[k].name, name) == 0)
            return d->media[k].cables;
    return 0;
}

static const char *workload_name(const ry_spec *s)
{
    return s->workload && s->workload->model.name[0] ? s->workload->model.name : "the workload";
}

static int any_modeled(const ry_compare_design *d, int n)
{
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].modeled)
            return 1;
    return 0;
}

/* ---- text -------------------------------------------------------------------------------- */

/* Rows of counts or money: a label, then one cell per design ("-" where it
 * was not built). */
typedef struct row {
    ry_text_table *t;
    const ry_compare_design *d;
    int n;
} row;

static void count_row(row *r, const char *name, size_t off)
{
    ry_text_table_cell(r->t, "%s", name);
    for (int i = 0; i < r->n; i++) {
        char b[RY_NUM_CAP] = "-";
        if (r->d[i].ok)
            ry_num_int(b, sizeof b, *(const long long *)((const char *)&r->d[i] + off));
        ry_text_table_cell(r->t, "%s", b);
    }
}

static void money_row(row *r, const char *name, size_t off, int cents)
{
    ry_text_table_cell(r->t, "%s", name);
    for (int i = 0; i < r->n; i++) {
        ry_buf m;
        ry_buf_init(&m);
        if (r->d[i].ok)
            ry_money_text(&m, *(const double *)((const char *)&r->d[i] + off), cents);
        else
            ry_buf_puts(&m, "-");
        ry_text_table_cell(r->t, "%s", m.data);
        ry_buf_free(&m);
    }
}

/* Whether design d has a tier-k switch failure to show. */
static int has_fail(const ry_compare_design *d, int k)
{
    return d->ok && k <= d->tiers && d->fail[k].tier == k;
}

/* The modeled designs within the model's resolution of the fastest: when
 * more than one, the speed does not decide between them. */
static int same_speed(const ry_compare_design *d, int n, int *which)
{
    double fast = INFINITY;
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].modeled && d[i].iter_s < fast)
            fast = d[i].iter_s;
    int k = 0;
    for (int i = 0; i < n && k < 8; i++)
        if (d[i].ok && d[i].modeled && d[i].iter_s <= fast * (1 + RY_PLAN_RESOLUTION))
            which[k++] = i;
    return k;
}

static void same_speed_text(ry_buf *o, const ry_compare_design *d, int n)
{
    int which[8], k = same_speed(d, n, which);
    if (k < 2)
        return;
    ry_buf_puts(o, "same speed: ");
    for (int i = 0; i < k; i++)
        ry_buf_printf(o, "%s%s", i ? (i + 1 == k ? " and " : ", ") : "",
                      ry_design_name(d[which[i]].design));
    ry_buf_printf(o, " train within %g%% of each other, closer than the model resolves: "
                  "their capex decides\n", RY_PLAN_RESOLUTION * 100);
}

static void emit_text(ry_buf *o, const ry_spec *s, const ry_compare_design *d, int n)
{
    char g[RY_NUM_CAP];
    ry_num_int(g, sizeof g, s->gpus);
    char dom[RY_NUM_CAP];
    ry_num_int(dom, sizeof dom, s->gpus / s->hb_domain);
    if (s->n_tier) {
        /* a fabric.tiers list: each tier its switch, no one radix */
        ry_buf_printf(o, "%s: %s GPUs of %s on fabric.tiers: ", s->name, g,
                      s->node.name[0] ? s->node.name : "inline");
        ry_spec_tiers_text(o, s, ", ");
        ry_buf_printf(o, "\n%s HB domains of %d, %d rails, %d plane%s\n\n", dom, s->hb_domain,
                      s->rails, s->planes, s->planes == 1 ? "" : "s");
    } else {
        ry_buf_printf(o, "%s: %s GPUs of %s on %s (radix %d)\n%s HB domains of %d, %d rails, "
                      "%d plane%s\n\n", s->name, g, s->node.name[0] ? s->node.name : "inline",
                      s->sw.name, s->sw.radix, dom, s->hb_domain, s->rails, s->planes,
                      s->planes == 1 ? "" : "s");
    }
    ry_text_table t;
    char align[8] = "l";
    for (int i = 0; i < n; i++)
        strcat(align, "r");
    ry_text_table_init(&t, align);
    row r = { &t, d, n };
    ry_text_table_cell(&t, "%s", "");
    for (int i = 0; i < n; i++)
        ry_text_table_cell(&t, "%s", ry_design_name(d[i].design));

    ry_text_table_cell(&t, "%s", "tiers");
    for (int i = 0; i < n; i++)
        d[i].ok ? ry_text_table_cell(&t, "%d", d[i].tiers) : ry_text_table_cell(&t, "-");
    int tiers = most_tiers(d, n);
    for (int k = 1; k <= tiers; k++) {
        char name[32];
        snprintf(name, sizeof name, "  %s switches", ry_tier_name(k, tiers));
        ry_text_table_cell(&t, "%s", name);
        for (int i = 0; i < n; i++) {
            char b[RY_NUM_CAP] = "-";
            if (d[i].ok && k <= d[i].tiers)
                ry_num_int(b, sizeof b, d[i].tier_switches[k]);
            ry_text_table_cell(&t, "%s", b);
        }
    }
    count_row(&r, "switches", offsetof(ry_compare_design, switches));
    count_row(&r, "optics (modules)", offsetof(ry_compare_design, optics));
    count_row(&r, "cables", offsetof(ry_compare_design, cables));
    const char *media[RY_COMPARE_MAX_MEDIA * 3];
    int nm = media_union(d, n, media, (int)(sizeof media / sizeof media[0]));
    for (int k = 0; k < nm; k++) {
        ry_text_table_cell(&t, "  %s", media[k]);
        for (int i = 0; i < n; i++) {
            char b[RY_NUM_CAP] = "-";
            if (d[i].ok)
                ry_num_int(b, sizeof b, medium_cables(&d[i], media[k]));
            ry_text_table_cell(&t, "%s", b);
        }
    }
    ry_text_table_cell(&t, "%s", "racks / halls");
    for (int i = 0; i < n; i++)
        if (d[i].ok) {
            ry_num_int(g, sizeof g, d[i].racks);
            ry_text_table_cell(&t, "%s / %d", g, d[i].halls);
        } else {
            ry_text_table_cell(&t, "-");
        }
    ry_text_table_cell(&t, "%s", "power, kW");
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].power_w > 0) {
            ry_num_int(g, sizeof g, llround(d[i].power_w / 1000));
            ry_text_table_cell(&t, "%s", g);
        } else {
            ry_text_table_cell(&t, "-");
        }
    int cents = 0, racks = 0, spares = 0;
    for (int i = 0; i < n; i++) {
        cents |= ry_money_has_cents(d[i].capex) | ry_money_has_cents(d[i].capex_switches) |
                 ry_money_has_cents(d[i].capex_optics) | ry_money_has_cents(d[i].capex_cables);
        racks |= d[i].capex_racks > 0;
        spares |= d[i].capex_spares > 0;
    }
    money_row(&r, "capex", offsetof(ry_compare_design, capex), cents);
    money_row(&r, "  switches", offsetof(ry_compare_design, capex_switches), cents);
    money_row(&r, "  optics", offsetof(ry_compare_design, capex_optics), cents);
    money_row(&r, "  cables", offsetof(ry_compare_design, capex_cables), cents);
    if (racks)
        money_row(&r, "  racks", offsetof(ry_compare_design, capex_racks), cents);
    if (spares)
        money_row(&r, "  spares", offsetof(ry_compare_design, capex_spares), cents);
    money_row(&r, "capex per GPU", offsetof(ry_compare_design, capex_per_gpu), 0);
    int years = 0;
    for (int i = 0; i < n; i++)
        if (d[i].ok)
            years = d[i].years;
    char own[64];
    snprintf(own, sizeof own, "ownership, %d year%s", years, years == 1 ? "" : "s");
    money_row(&r, own, offsetof(ry_compare_design, ownership), 0);
    ry_text_table_cell(&t, "%s", "  of it the network's energy");
    for (int i = 0; i < n; i++) {
        if (!d[i].ok || d[i].power_unknown) {
            ry_text_table_cell(&t, "%s", d[i].ok ? "unknown" : "-");
            continue;
        }
        ry_buf m;
        ry_buf_init(&m);
        ry_money_text(&m, round(d[i].own_energy), 0);
        ry_text_table_cell(&t, "%s", m.data);
        ry_buf_free(&m);
    }
    int modeled = any_modeled(d, n);
    if (modeled) {
        ry_text_table_cell(&t, "%s", "layout (tensor x pipeline x data)");
        for (int i = 0; i < n; i++)
            if (!d[i].modeled)
                ry_text_table_cell(&t, "-");
            else if (d[i].cp > 1)
                ry_text_table_cell(&t, "%lld x %lld x %lld cp %lld", d[i].t, d[i].p, d[i].d,
                                   d[i].cp);
            else
                ry_text_table_cell(&t, "%lld x %lld x %lld", d[i].t, d[i].p, d[i].d);
        ry_text_table_cell(&t, "%s", "iteration, s");
        for (int i = 0; i < n; i++)
            d[i].modeled ? ry_text_table_cell(&t, "%.4f", d[i].iter_s) : ry_text_table_cell(&t, "-");
        ry_text_table_cell(&t, "%s", "tokens/s");
        for (int i = 0; i < n; i++) {
            char b[RY_NUM_CAP] = "-";
            if (d[i].modeled)
                ry_num_int(b, sizeof b, llround(d[i].tokens_per_s));
            ry_text_table_cell(&t, "%s", b);
        }
        ry_text_table_cell(&t, "%s", "tokens/s per $1M capex");
        for (int i = 0; i < n; i++) {
            char b[RY_NUM_CAP] = "-";
            if (d[i].modeled && d[i].capex > 0)
                ry_num_int(b, sizeof b, llround(d[i].tokens_per_s_per_musd));
            ry_text_table_cell(&t, "%s", b);
        }
        ry_text_table_cell(&t, "%s", "tokens per $ of ownership");
        for (int i = 0; i < n; i++) {
            char b[RY_NUM_CAP] = "-";
            if (d[i].modeled && d[i].ownership > 0)
                ry_num_int(b, sizeof b, llround(d[i].tokens_per_usd_owned));
            ry_text_table_cell(&t, "%s", b);
        }
    }
    /* one switch of each tier down, leaves first: the bandwidth the slowest
     * HB domain keeps, the GPUs cut off and (modeled) the slowdown */
    for (int k = 1; k <= tiers; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s down: kept/cut%s", ry_tier_name(k, tiers),
                 modeled ? "/slow" : "");
        ry_text_table_cell(&t, "%s", name);
        for (int i = 0; i < n; i++) {
            if (!has_fail(&d[i], k)) {
                ry_text_table_cell(&t, "-");
                continue;
            }
            const ry_compare_fail *x = &d[i].fail[k];
            char cut[RY_NUM_CAP], slow[32] = "";
            ry_num_int(cut, sizeof cut, x->gpus_cut);
            if (d[i].modeled && x->stalled)
                snprintf(slow, sizeof slow, "/stalled");
            else if (d[i].modeled)
                snprintf(slow, sizeof slow, "/%.3fx", x->slowdown);
            ry_text_table_cell(&t, "%.1f%%/%s%s", 100 * x->bw_kept, cut, slow);
        }
    }
    /* the failures of a year and what they cost */
    double price = 0;
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].rel.ok)
            price = d[i].rel.gpu_hour;
    ry_text_table_cell(&t, "%s", "failures a year (network's)");
    char fa[RY_NUM_CAP], fb[RY_NUM_CAP];
    for (int i = 0; i < n; i++)
        d[i].ok && d[i].rel.ok
            ? ry_text_table_cell(&t, "%s (%s)", ry_num_fixed(fa, sizeof fa, d[i].rel.failures, 1),
                                 ry_num_fixed(fb, sizeof fb, d[i].rel.network_failures, 1))
            : ry_text_table_cell(&t, "-");
    ry_text_table_cell(&t, "%s", "GPU-hours the network loses a year");
    for (int i = 0; i < n; i++) {
        char a[RY_NUM_CAP] = "-";
        if (d[i].ok && d[i].rel.ok)
            ry_num_int(a, sizeof a, llround(d[i].rel.network_lost_gpu_h));
        ry_text_table_cell(&t, "%s", a);
    }
    ry_text_table_cell(&t, "%s", "goodput");
    for (int i = 0; i < n; i++)
        d[i].ok && d[i].rel.ok ? ry_text_table_cell(&t, "%.3f%%", 100 * d[i].rel.goodput)
                               : ry_text_table_cell(&t, "-");
    char lost[64];
    ry_buf pm;
    ry_buf_init(&pm);
    ry_money_text(&pm, price, ry_money_has_cents(price));
    snprintf(lost, sizeof lost, "all failures' cost a year, %s a GPU-h", pm.data);
    ry_buf_free(&pm);
    ry_text_table_cell(&t, "%s", lost);
    for (int i = 0; i < n; i++) {
        ry_buf m;
        ry_buf_init(&m);
        d[i].ok && d[i].rel.ok ? ry_money_text(&m, d[i].rel.lost_usd, 0) : ry_buf_puts(&m, "-");
        ry_text_table_cell(&t, "%s", m.data);
        ry_buf_free(&m);
    }
    ry_text_table_write(&t, o, "");
    ry_buf_putc(o, '\n');
    for (int i = 0; i < n; i++)
        if (!d[i].ok)
            ry_buf_printf(o, "%s: not built: %s\n", ry_design_name(d[i].design), d[i].err);
    for (int i = 0; i < n; i++)
        if (d[i].ok)
            ry_tier_entries_text(o, s, d[i].design, d[i].tiers, &d[i].entries);
    if (modeled)
        ry_buf_printf(o, "workload: %s, the full model, each design at its fastest layout, "
                      "kept when a switch is down\n", workload_name(s));
    ry_buf_puts(o, "failures: at the reliability section's rates, else its defaults "
                   "(railyard-spec(5), RELIABILITY)\n");
    int no_power = 0, no_price = 0;
    for (int i = 0; i < n; i++)
        if (d[i].ok) {
            no_power |= d[i].power_unknown;
            no_price |= !(d[i].switch_price > 0);
        }
    if (no_power || no_price)
        ry_buf_printf(o, "note: the ownership leaves out %s\n",
                      no_power && no_price ? "the energy and the support (a switch without power "
                                             "or price)"
                      : no_power ? "the energy (a switch without power)"
                                 : "the support (a switch without price)");
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].rel.ok && d[i].rel.overrun)
            ry_buf_printf(o, "warning: %s: the failures would lose more GPU-hours than a year "
                             "holds; the model (one failure at a time, each repaired before the "
                             "next) does not hold at this size or with these rates\n",
                          ry_design_name(d[i].design));
    int c = ry_compare_cheapest(d, n), f = ry_compare_fastest_per_dollar(d, n);
    if (c >= 0) {
        ry_buf m;
        ry_buf_init(&m);
        ry_money_text(&m, d[c].capex, cents);
        ry_buf_printf(o, "cheapest: %s", ry_design_name(d[c].design));
        for (int i = c + 1; i < n; i++)     /* ties, named together */
            if (d[i].ok && d[i].capex == d[c].capex)
                ry_buf_printf(o, " = %s", ry_design_name(d[i].design));
        ry_buf_printf(o, ", %s", m.data);
        ry_buf_free(&m);
        const char *sep = " (";
        for (int i = 0; i < n; i++)
            if (d[i].ok && d[i].capex > d[c].capex) {
                ry_buf_printf(o, "%s%.1f%% below %s", sep, 100 * (1 - d[c].capex / d[i].capex),
                              ry_design_name(d[i].design));
                sep = ", ";
            }
        ry_buf_puts(o, sep[0] == ',' ? ")\n" : "\n");
    }
    if (f >= 0) {
        ry_num_int(g, sizeof g, llround(d[f].tokens_per_s_per_musd));
        ry_buf_printf(o, "fastest per dollar: %s, %s tokens/s per $1M\n",
                      ry_design_name(d[f].design), g);
    }
    same_speed_text(o, d, n);
    for (int i = 0; i < n; i++)
        if (d[i].ok && d[i].switch_price <= 0) {
            const char *unpriced = s->sw.name;
            for (int j = 1; j <= s->n_tier; j++)    /* a tier list: the first unpriced model */
                if (!(ry_spec_tier_switch(s, j)->price > 0)) {
                    unpriced = ry_spec_tier_switch(s, j)->name;
                    break;
                }
            ry_buf_printf(o, "note: %s has no price; the capex leaves the switches out\n",
                          unpriced);
            break;
        }
}

/* ---- JSON -------------------------------------------------------------------------------- */

static json_t *num(double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

static json_t *design_json(const ry_compare_design *d)
{
    json_t *j = json_pack("{s:s, s:b}", "design", ry_design_name(d->design), "built", d->ok);
    if (!d->ok) {
        json_object_set_new(j, "error", json_string(d->err));
        return j;
    }
    json_t *tiers = json_array();
    for (int k = 1; k <= d->tiers; k++)
        json_array_append_new(tiers, json_pack("{s:i, s:s, s:I}", "tier", k, "name",
                                               ry_tier_name(k, d->tiers), "switches",
                                               (json_int_t)d->tier_switches[k]));
    json_t *media = json_object();
    for (int k = 0; k < d->nmedia; k++)
        json_object_set_new(media, d->media[k].name, json_integer(d->media[k].cables));
    json_object_set_new(j, "tiers", json_integer(d->tiers));
    if (d->entries.by_position)
        json_object_set_new(j, "tier_entries", ry_tier_entries_json(d->tiers, &d->entries));
    json_object_set_new(j, "subnets", json_integer(d->subnets));
    json_object_set_new(j, "switches", json_pack("{s:I, s:o}", "total", (json_int_t)d->switches,
                                                 "per_tier", tiers));
    json_object_set_new(j, "optics", json_integer(d->optics));
    json_object_set_new(j, "cables", json_pack("{s:I, s:o}", "total", (json_int_t)d->cables,
                                               "by_medium", media));
    json_object_set_new(j, "gpus", json_integer(d->gpus));
    json_object_set_new(j, "nodes", json_integer(d->nodes));
    json_object_set_new(j, "gpu_ports", json_integer(d->gpu_ports));
    json_object_set_new(j, "racks", json_integer(d->racks));
    json_object_set_new(j, "halls", json_integer(d->halls));
    json_object_set_new(j, "power_w", num(round(d->power_w)));
    json_object_set_new(j, "capex", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
        "total", num(d->capex), "switches", num(d->capex_switches), "optics",
        num(d->capex_optics), "cables", num(d->capex_cables), "racks", num(d->capex_racks),
        "spares", num(d->capex_spares), "per_gpu", json_real(round(d->capex_per_gpu * 100) / 100)));
    json_object_set_new(j, "ownership", json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "years",
        d->years, "capex", num(d->capex), "spares_used", num(round(d->own_replace * 100) / 100),
        "energy", d->power_unknown ? json_null() : num(round(d->own_energy * 100) / 100),
        "support", num(round(d->own_support * 100) / 100),
        "total", num(round(d->ownership * 100) / 100),
        "network_power_w", d->power_unknown ? json_null() : num(round(d->network_power_w))));
    if (d->modeled)
        json_object_set_new(j, "training", json_pack("{s:I, s:I, s:I, s:f, s:f, s:f}",
            "tensor", (json_int_t)d->t, "pipeline", (json_int_t)d->p, "data", (json_int_t)d->d,
            "iteration_s", d->iter_s, "tokens_per_s", d->tokens_per_s,
            "tokens_per_s_per_musd", d->tokens_per_s_per_musd));
    if (d->modeled) {
        json_object_set_new(json_object_get(j, "training"), "tokens_per_usd_owned",
                            json_real(round(d->tokens_per_usd_owned)));
        json_object_set_new(json_object_get(j, "training"), "context", json_integer(d->cp));
    }
    if (d->modeled && d->analytic_iter_s > 0)
        json_object_set_new(json_object_get(j, "training"), "analytic_iteration_s",
                            json_real(d->analytic_iter_s));
    if (d->spine) {
        json_t *sp = json_pack("{s:s, s:f, s:I}", "switch", d->spine_name, "bandwidth_kept",
                               d->spine_bw_kept, "gpus_cut", (json_int_t)d->spine_gpus_cut);
        if (d->modeled) {
            json_object_set_new(sp, "stalled", json_boolean(d->spine_stalled));
            json_object_set_new(sp, "slowdown",
                                d->spine_stalled ? json_null() : json_real(d->spine_slowdown));
        }
        json_object_set_new(j, "spine_failure", sp);
    } else {
        json_object_set_new(j, "spine_failure", json_null());
    }
    json_t *fails = json_array();
    for (int k = 1; k <= d->tiers; k++) {
        const ry_compare_fail *x = &d->fail[k];
        if (x->tier != k)
            continue;
        json_t *fj = json_pack("{s:s, s:s, s:f, s:I, s:I}", "tier", ry_tier_name(k, d->tiers),
                               "switch", x->name, "bandwidth_kept", x->bw_kept, "gpus_cut",
                               (json_int_t)x->gpus_cut, "gpus_drained",
                               (json_int_t)x->gpus_drained);
        if (d->modeled) {
            json_object_set_new(fj, "stalled", json_boolean(x->stalled));
            json_object_set_new(fj, "slowdown", x->stalled ? json_null() : json_real(x->slowdown));
        }
        json_array_append_new(fails, fj);
    }
    json_object_set_new(j, "switch_failures", fails);
    if (d->rel.ok)
        json_object_set_new(j, "reliability", ry_reliability_json(&d->rel));
    return j;
}

static json_t *sens_json(const ry_spec *s, const ry_compare_design *d, int n);

static void emit_json(ry_buf *o, const ry_spec *s, const ry_compare_design *d, int n, int sens)
{
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, design_json(&d[i]));
    int c = ry_compare_cheapest(d, n), f = ry_compare_fastest_per_dollar(d, n);
    json_t *j = json_pack("{s:s, s:I, s:s, s:i, s:i, s:i, s:s, s:i}", "name", s->name,
                          "gpus", (json_int_t)s->gpus, "node", s->node.name[0] ? s->node.name
                          : "inline", "hb_domain", s->hb_domain, "rails", s->rails, "planes",
                          s->planes, "switch", s->sw.name, "radix",
                          s->n_tier ? 0 : s->sw.radix);
    if (s->n_tier) {
        /* a fabric.tiers list: radix 0 (as bom.json), each tier its switch and ports */
        json_t *tl = json_array();
        for (int k = 1; k <= s->n_tier; k++) {
            ry_tier_ports tp;
            ry_err err;
            if (ry_tier_ports_of(s, s->n_tier, k, &tp, &err) < 0)
                continue;
            json_array_append_new(tl, json_pack("{s:i, s:s, s:s, s:i, s:f, s:i, s:i, s:f, s:i, "
                                                "s:f}", "tier", k, "name",
                                                ry_tier_name(k, s->n_tier), "switch",
                                                tp.sw->name, "radix", tp.sw->radix, "port_gbps",
                                                tp.sw->port_gbps, "ports", tp.ports, "down",
                                                tp.down, "down_gbps", tp.down_gbps, "up", tp.up,
                                                "up_gbps", tp.up_gbps));
        }
        json_object_set_new(j, "tier_switches", tl);
    }
    json_object_set_new(j, "workload", any_modeled(d, n) ? json_string(workload_name(s))
                                                          : json_null());
    json_object_set_new(j, "designs", arr);
    json_object_set_new(j, "cheapest", c >= 0 ? json_string(ry_design_name(d[c].design))
                                              : json_null());
    json_object_set_new(j, "fastest_per_dollar", f >= 0 ? json_string(ry_design_name(d[f].design))
                                                        : json_null());
    /* the designs the model cannot tell apart by speed (two or more), else [] */
    int which[8], k = same_speed(d, n, which);
    json_t *same = json_array();
    for (int i = 0; k > 1 && i < k; i++)
        json_array_append_new(same, json_string(ry_design_name(d[which[i]].design)));
    json_object_set_new(j, "same_speed", same);
    json_object_set_new(j, "resolution", json_real(RY_PLAN_RESOLUTION));
    if (sens)
        json_object_set_new(j, "sensitivity", sens_json(s, d, n));
    ry_json_out(o, j, 0);
}

/* ---- CSV --------------------------------------------------------------------------------- */

static void emit_csv(ry_buf *o, const ry_compare_design *d, int n)
{
    int tiers = most_tiers(d, n), modeled = any_modeled(d, n);
    const char *media[RY_COMPARE_MAX_MEDIA * 3];
    int nm = media_union(d, n, media, (int)(sizeof media / sizeof media[0]));
    ry_buf_puts(o, "design,tiers");
    for (int k = 1; k <= tiers; k++)
        ry_buf_printf(o, ",%s_switches", ry_tier_name(k, tiers));
    ry_buf_puts(o, ",switches,optics,cables");
    for (int k = 0; k < nm; k++) {
        ry_buf_puts(o, ",");
        char h[48];
        snprintf(h, sizeof h, "cables_%s", media[k]);
        ry_csv_field(o, h);
    }
    ry_buf_puts(o, ",racks,halls,power_kw,capex,capex_switches,capex_optics,capex_cables,"
                   "capex_racks,capex_spares,capex_per_gpu,ownership,ownership_energy,"
                   "ownership_support");
    if (modeled)
        ry_buf_puts(o, ",tensor,pipeline,data,iteration_s,tokens_per_s,tokens_per_s_per_musd,"
                       "tokens_per_usd_owned");
    ry_buf_puts(o, ",spine_failed,spine_bandwidth_kept");
    if (modeled)
        ry_buf_puts(o, ",spine_slowdown");
    ry_buf_puts(o, ",failures_a_year,network_failures_a_year,lost_gpu_hours_a_year,"
                   "network_lost_gpu_hours_a_year,goodput,lost_usd_a_year,error");
    ry_csv_end(o);
    for (int i = 0; i < n; i++) {
        const ry_compare_design *x = &d[i];
        ry_buf_puts(o, ry_design_name(x->design));
        if (!x->ok) {
            int empty = 1 + tiers + 3 + nm + 13 + (modeled ? 7 : 0) + 2 + (modeled ? 1 : 0) + 6;
            for (int k = 0; k < empty; k++)
                ry_buf_putc(o, ',');
            ry_buf_putc(o, ',');
            ry_csv_field(o, x->err);
            ry_csv_end(o);
            continue;
        }
        ry_buf_printf(o, ",%d", x->tiers);
        for (int k = 1; k <= tiers; k++)
            k <= x->tiers ? ry_buf_printf(o, ",%lld", x->tier_switches[k]) : ry_buf_puts(o, ",0");
        ry_buf_printf(o, ",%lld,%lld,%lld", x->switches, x->optics, x->cables);
        for (int k = 0; k < nm; k++)
            ry_buf_printf(o, ",%lld", medium_cables(x, media[k]));
        ry_buf_printf(o, ",%d,%d,%.1f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f", x->racks, x->halls,
                      x->power_w / 1000, x->capex, x->capex_switches, x->capex_optics,
                      x->capex_cables, x->capex_racks, x->capex_spares, x->capex_per_gpu);
        ry_buf_printf(o, ",%.2f", x->ownership);
        x->power_unknown ? ry_buf_puts(o, ",") : ry_buf_printf(o, ",%.2f", x->own_energy);
        ry_buf_printf(o, ",%.2f", x->own_support);
        if (modeled) {
            if (x->modeled)
                ry_buf_printf(o, ",%lld,%lld,%lld,%.6f,%.1f,%.3f,%.0f", x->t, x->p, x->d,
                              x->iter_s, x->tokens_per_s, x->tokens_per_s_per_musd,
                              x->tokens_per_usd_owned);
            else
                ry_buf_puts(o, ",,,,,,,");
        }
        if (x->spine) {
            ry_buf_puts(o, ",");
            ry_csv_field(o, x->spine_name);
            ry_buf_printf(o, ",%.6f", x->spine_bw_kept);
        } else {
            ry_buf_puts(o, ",,");
        }
        if (modeled) {
            if (x->spine && x->modeled && !x->spine_stalled)
                ry_buf_printf(o, ",%.6f", x->spine_slowdown);
            else if (x->spine && x->modeled)
                ry_buf_puts(o, ",stalled");
            else
                ry_buf_puts(o, ",");
        }
        if (x->rel.ok)
            ry_buf_printf(o, ",%.3f,%.3f,%.1f,%.1f,%.6f,%.2f", x->rel.failures,
                          x->rel.network_failures, x->rel.lost_gpu_h,
                          x->rel.network_lost_gpu_h, x->rel.goodput, x->rel.lost_usd);
        else
            ry_buf_puts(o, ",,,,,,");
        ry_buf_puts(o, ",");
        ry_csv_end(o);
    }
}

/* ---- which prices flip the cheapest ---------------------------------------------------------- */

/* One row: every item of a kind (name NULL) or one item, at f x list. */
typedef struct flip_row {
    ry_price_kind kind;
    const char *name;
    double range;
    int cheap[2];               /* the cheapest design at the low and the high end */
} flip_row;

static int cheapest_at(const ry_compare_design *d, int n, ry_price_kind kind, const char *name,
                       double f)
{
    int best = -1;
    double bc = 0;
    for (int i = 0; i < n; i++) {
        if (!d[i].ok)
            continue;
        double c = ry_price_total_with(&d[i].prices, kind, name, f);
        if (best < 0 || c < bc) {
            best = i;
            bc = c;
        }
    }
    return best;
}

/* The kinds whole, then every item of any design, once. */
static int flip_rows(const ry_spec *s, const ry_compare_design *d, int n, flip_row *rows, int cap)
{
    int nr = 0;
    for (int k = 0; k < 3 && nr < cap; k++)
        rows[nr++] = (flip_row){ (ry_price_kind)k, NULL, ry_price_range(s, (ry_price_kind)k),
                                 { 0, 0 } };
    for (int i = 0; i < n; i++)
        for (int j = 0; d[i].ok && j < d[i].prices.n && nr < cap; j++) {
            const ry_price_item *x = &d[i].prices.item[j];
            int seen = 0;
            for (int r = 3; r < nr && !seen; r++)
                seen = rows[r].kind == x->kind && strcmp(rows[r].name, x->name) == 0;
            if (!seen)
                rows[nr++] = (flip_row){ x->kind, x->name, x->range, { 0, 0 } };
        }
    for (int r = 0; r < nr; r++)
        for (int e = 0; e < 2; e++)
            rows[r].cheap[e] = cheapest_at(d, n, rows[r].kind, rows[r].name,
                                           1 + (e ? 1 : -1) * rows[r].range / 100);
    return nr;
}

#define MAX_FLIP_ROWS (3 + 3 * RY_PRICE_MAX_ITEMS)

static void sens_text(ry_buf *o, const ry_spec *s, const ry_compare_design *d, int n)
{
    int base = ry_compare_cheapest(d, n);
    if (base < 0)
        return;
    flip_row rows[MAX_FLIP_ROWS];
    int nr = flip_rows(s, d, n, rows, MAX_FLIP_ROWS);
    ry_buf_printf(o, "\nprice sensitivity: the cheapest design (%s at list prices) with each "
                     "kind, then each item, at either end of its range (cost.range_*)\n",
                  ry_design_name(d[base].design));
    ry_text_table t;
    ry_text_table_init(&t, "lllll");
    const char *head[] = { "prices", "", "range", "cheapest low", "cheapest high" };
    for (int k = 0; k < 5; k++)
        ry_text_table_cell(&t, "%s", head[k]);
    int flips = 0;
    for (int r = 0; r < nr; r++) {
        ry_text_table_cell(&t, "%s", ry_price_kind_name(rows[r].kind));
        ry_text_table_cell(&t, "%s", rows[r].name ? rows[r].name : "(all)");
        ry_text_table_cell(&t, "+/-%g%%", rows[r].range);
        for (int e = 0; e < 2; e++) {
            int c = rows[r].cheap[e];
            ry_text_table_cell(&t, "%s%s", c >= 0 ? ry_design_name(d[c].design) : "-",
                               c != base ? " (flips)" : "");
            flips += c != base;
        }
    }
    ry_text_table_write(&t, o, "  ");
    if (flips)
        ry_buf_printf(o, "the answer flips at %d end%s of a range: the cheapest design depends "
                         "on those prices\n", flips, flips == 1 ? "" : "s");
    else
        ry_buf_printf(o, "the answer holds: %s is the cheapest at either end of every range\n",
                      ry_design_name(d[base].design));
}

static json_t *sens_json(const ry_spec *s, const ry_compare_design *d, int n)
{
    flip_row rows[MAX_FLIP_ROWS];
    int nr = flip_rows(s, d, n, rows, MAX_FLIP_ROWS);
    int base = ry_compare_cheapest(d, n);
    json_t *a = json_array();
    for (int r = 0; r < nr; r++) {
        json_t *j = json_pack("{s:s, s:o, s:f, s:s, s:s}", "kind", ry_price_kind_name(rows[r].kind),
                              "item", rows[r].name ? json_string(rows[r].name) : json_null(),
                              "range_pct", rows[r].range, "cheapest_low",
                              rows[r].cheap[0] >= 0 ? ry_design_name(d[rows[r].cheap[0]].design) : "",
                              "cheapest_high",
                              rows[r].cheap[1] >= 0 ? ry_design_name(d[rows[r].cheap[1]].design) : "");
        json_object_set_new(j, "flips", json_boolean(rows[r].cheap[0] != base ||
                                                     rows[r].cheap[1] != base));
        json_array_append_new(a, j);
    }
    return a;
}

void ry_emit_designs_sens(ry_buf *o, const ry_spec *s, const ry_compare_design *d, int n,
                          ry_format fmt, int sens)
{
    if (fmt == RY_FMT_JSON) {
        emit_json(o, s, d, n, sens);
    } else if (fmt == RY_FMT_CSV) {
        emit_csv(o, d, n);
    } else {
        emit_text(o, s, d, n);
        if (sens)
            sens_text(o, s, d, n);
    }
}

void ry_emit_designs(ry_buf *o, const ry_spec *s, const ry_compare_design *d, int n,
                     ry_format fmt)
{
    ry_emit_designs_sens(o, s, d, n, fmt, 0);
}
