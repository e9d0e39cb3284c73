/* Price sensitivity reports (emit/report/emit_sensitivity.h). */
#include "emit/report/emit_sensitivity.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "emit/format.h"
#include "emit/text_table.h"
#include "util/escape.h"
#include "util/numfmt.h"

static double lo_of(const ry_price_items *p, int i)
{
    const ry_price_item *x = &p->item[i];
    return ry_price_total_with(p, x->kind, x->name, 1 - x->range / 100);
}

static double hi_of(const ry_price_items *p, int i)
{
    const ry_price_item *x = &p->item[i];
    return ry_price_total_with(p, x->kind, x->name, 1 + x->range / 100);
}

/* An item and its swing, for the sort. */
typedef struct swing_key {
    double swing;
    int i;
} swing_key;

static int by_swing(const void *a, const void *b)
{
    const swing_key *x = a, *y = b;
    if (x->swing != y->swing)
        return x->swing > y->swing ? -1 : 1;
    return x->i - y->i;
}

int ry_sensitivity_order(const ry_price_items *p, int *ix)
{
    swing_key k[RY_PRICE_MAX_ITEMS];
    for (int i = 0; i < p->n; i++)
        k[i] = (swing_key){ hi_of(p, i) - lo_of(p, i), i };
    qsort(k, (size_t)p->n, sizeof *k, by_swing);
    for (int i = 0; i < p->n; i++)
        ix[i] = k[i].i;
    return p->n;
}

static void label(char *buf, size_t cap, const ry_price_item *x)
{
    snprintf(buf, cap, "%s %s", ry_price_kind_name(x->kind), x->name);
}

static void money_cell(ry_text_table *t, double v)
{
    ry_buf m;
    ry_buf_init(&m);
    ry_money_text(&m, v, 0);
    ry_text_table_cell(t, "%s", m.data);
    ry_buf_free(&m);
}

void ry_emit_sensitivity_text(ry_buf *o, const ry_price_items *p)
{
    int ix[RY_PRICE_MAX_ITEMS];
    int n = ry_sensitivity_order(p, ix);
    ry_buf_puts(o, "\nprice sensitivity: each item alone at either end of its range "
                   "(cost.range_switches, cost.range_optics, cost.range_cables), largest swing "
                   "first\n");
    ry_text_table t;
    ry_text_table_init(&t, "llrrrrr");
    const char *head[] = { "item", "", "list cost", "range", "capex low", "capex high",
                           "swing" };
    for (int k = 0; k < 7; k++)
        ry_text_table_cell(&t, "%s", head[k]);
    for (int j = 0; j < n; j++) {
        const ry_price_item *x = &p->item[ix[j]];
        ry_text_table_cell(&t, "%s", ry_price_kind_name(x->kind));
        ry_text_table_cell(&t, "%s", x->name);
        money_cell(&t, x->cost);
        ry_text_table_cell(&t, "+/-%g%%", x->range);
        money_cell(&t, lo_of(p, ix[j]));
        money_cell(&t, hi_of(p, ix[j]));
        money_cell(&t, hi_of(p, ix[j]) - lo_of(p, ix[j]));
    }
    ry_text_table_write(&t, o, "  ");
    if (p->unpriced[0])
        ry_buf_printf(o, "  (%s has no price: it is not in the capex, nor here)\n", p->unpriced);
}

json_t *ry_sensitivity_json(const ry_price_items *p)
{
    int ix[RY_PRICE_MAX_ITEMS];
    int n = ry_sensitivity_order(p, ix);
    json_t *a = json_array();
    for (int j = 0; j < n; j++) {
        const ry_price_item *x = &p->item[ix[j]];
        json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:f, s:s, s:o, s:o}", "kind",
                                           ry_price_kind_name(x->kind), "item", x->name,
                                           "list_cost", ry_json_money(round(x->cost * 100) / 100),
                                           "range_pct", x->range, "range_key",
                                           ry_price_range_key(x->kind), "capex_low",
                                           ry_json_money(round(lo_of(p, ix[j]) * 100) / 100),
                                           "capex_high",
                                           ry_json_money(round(hi_of(p, ix[j]) * 100) / 100)));
    }
    return a;
}

void ry_emit_sensitivity_plot(ry_buf *csv, ry_buf *gp, const char *title, const char *base,
                              const ry_price_items *p)
{
    int ix[RY_PRICE_MAX_ITEMS];
    int n = ry_sensitivity_order(p, ix);
    ry_buf_puts(csv, "kind,item,list_cost,range_pct,capex_low,capex_high");
    ry_csv_end(csv);
    for (int j = 0; j < n; j++) {
        const ry_price_item *x = &p->item[ix[j]];
        ry_csv_field(csv, ry_price_kind_name(x->kind));
        ry_buf_putc(csv, ',');
        ry_csv_field(csv, x->name);
        ry_buf_printf(csv, ",%.2f,%g,%.2f,%.2f", x->cost, x->range, lo_of(p, ix[j]),
                      hi_of(p, ix[j]));
        ry_csv_end(csv);
    }
    ry_buf_puts(gp, "# railyard: the capex at either end of each item's price range; run "
                    "with gnuplot\n$D << EOD\n");
    /* the largest swing on top */
    for (int j = 0; j < n; j++)
        ry_buf_printf(gp, "%d %.6f %.6f\n", n - 1 - j, lo_of(p, ix[j]) / 1e6,
                      hi_of(p, ix[j]) / 1e6);
    ry_buf_puts(gp, "EOD\n");
    for (int pass = 0; pass < 2; pass++) {
        ry_gp_terminal(gp, pass, 1000, 120 + 36 * (n > 0 ? n : 1), base);
        ry_buf_puts(gp, "set title ");
        ry_escape_str(gp, title, RY_ESC_GNUPLOT);
        ry_buf_puts(gp, "\nset xlabel 'capex ($M)'\nset grid x\nunset key\n");
        ry_buf_printf(gp, "set yrange [-1:%d]\nset ytics (", n);
        for (int j = 0; j < n; j++) {
            char l[128];
            label(l, sizeof l, &p->item[ix[j]]);
            if (j)
                ry_buf_puts(gp, ", ");
            ry_escape_str(gp, l, RY_ESC_GNUPLOT);
            ry_buf_printf(gp, " %d", n - 1 - j);
        }
        ry_buf_printf(gp, ")\nset arrow 1 from %.6f, graph 0 to %.6f, graph 1 nohead dt 2\n",
                      p->total / 1e6, p->total / 1e6);
        ry_buf_puts(gp, "plot $D using (($2+$3)/2):1:2:3:($1-0.35):($1+0.35) with boxxyerror "
                        "fill solid 0.6 lc rgb '#1f77b4'\n");
    }
}
