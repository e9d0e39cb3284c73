#include "emit/report/emit_search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "emit/format.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/numfmt.h"

static const char *design_word(int d)
{
    return ry_design_name((ry_design)d);
}

/* t x p x d, with the context and expert groups when there are some */
static void layout_text(char *buf, size_t cap, const ry_search_point *p)
{
    int n = snprintf(buf, cap, "%lld x %lld x %lld", p->t, p->p, p->d);
    if (p->c > 1 && n > 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, " cp %lld", p->c);
    if (p->ep > 1 && n > 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, " ep %lld", p->ep);
}

static void slowdown_text(char *buf, size_t cap, const ry_search_point *p)
{
    if (p->stalls[0])
        snprintf(buf, cap, "stalls (%s)", p->stalls);
    else if (p->scenarios == 0)
        snprintf(buf, cap, "none applies");
    else
        snprintf(buf, cap, "%.4fx", p->slowdown);
}

/* The points that stall, by the first scenario that stalls them. */
static void stalls(ry_buf *out, const ry_search_result *r)
{
    int any = 0;
    for (int i = 0; i < r->nfailures; i++) {
        long long n = 0, first = -1;
        for (long long p = 0; p < r->npoints; p++)
            if (r->pts[p].ok && strcmp(r->pts[p].stalls, r->failures[i]) == 0 && n++ == 0)
                first = p;
        if (n)
            ry_buf_printf(out, "%sstalls at %s: %s point%s (like #%lld), on no slowdown front, "
                          "never the answer\n", any++ ? "" : "\n", r->failures[i], ry_n(n),
                          n == 1 ? "" : "s", first + 1);
    }
}

/* What the front prices: "capex", or "ownership" (cost.years of it). */
static const char *price_word(const ry_search_result *r)
{
    return r->objective ? "ownership" : "capex";
}

/* The points of a front, in order of price (the objective's) then time
 * then index. */
typedef struct key {
    double capex, iter;
    long long i;
} key;

static int by_capex(const void *a, const void *b)
{
    const key *p = a, *q = b;
    if (p->capex != q->capex)
        return p->capex < q->capex ? -1 : 1;
    if (p->iter != q->iter)
        return p->iter < q->iter ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

static long long sorted(const ry_search_result *r, int fail_front, long long **out)
{
    long long n = 0;
    key *k = ry_xcalloc((size_t)(r->npoints ? r->npoints : 1), sizeof *k);
    for (long long i = 0; i < r->npoints; i++)
        if (fail_front ? r->pts[i].front_fail : r->pts[i].front)
            k[n++] = (key){ r->pts[i].price, r->pts[i].iter_s, i };
    qsort(k, (size_t)n, sizeof *k, by_capex);
    long long *ix = ry_xcalloc((size_t)(n ? n : 1), sizeof *ix);
    for (long long j = 0; j < n; j++)
        ix[j] = k[j].i;
    free(k);
    *out = ix;
    return n;
}

/* Rows of a front the table shows; the rest are in front.csv and
 * points.csv. */
#define TABLE_ROWS 20

/* The table: a column per axis, then the numbers. */
static void table(ry_buf *out, const ry_search_result *r, const long long *ix, long long all)
{
    long long n = all > TABLE_ROWS ? TABLE_ROWS : all;
    int w[RY_SEARCH_MAX_AXES + 8];
    for (int k = 0; k < r->naxes; k++) {
        w[k] = (int)strlen(r->axes[k].key);
        for (long long j = 0; j < n; j++) {
            int l = (int)strlen(r->pts[ix[j]].values[k]);
            if (l > w[k])
                w[k] = l;
        }
    }
    int wl = 16;
    for (long long j = 0; j < n; j++) {
        char lay[96];
        layout_text(lay, sizeof lay, &r->pts[ix[j]]);
        if ((int)strlen(lay) > wl)
            wl = (int)strlen(lay);
    }
    ry_buf_puts(out, "   #  ");
    for (int k = 0; k < r->naxes; k++)
        ry_buf_printf(out, "%-*s  ", w[k], r->axes[k].key);
    char price[32];
    if (r->objective)
        snprintf(price, sizeof price, "ownership, %dy", r->years);
    ry_buf_printf(out, "%14s  %12s  %13s  %-*s  %16s\n", r->objective ? price : "capex",
                  "iteration, s",
                  "tokens/s/$1M", wl, "layout t x p x d", "slowdown");
    for (long long j = 0; j < n; j++) {
        const ry_search_point *p = &r->pts[ix[j]];
        char money[48], lay[96], slow[96], tpm[32];
        ry_buf_printf(out, "%4lld  ", ix[j] + 1);
        for (int k = 0; k < r->naxes; k++)
            ry_buf_printf(out, "%-*s  ", w[k], p->values[k]);
        layout_text(lay, sizeof lay, p);
        slowdown_text(slow, sizeof slow, p);
        ry_num_int(tpm, sizeof tpm, (long long)llround(p->tokens_per_musd));
        ry_buf_printf(out, "%14s  %12.4f  %13s  %-*s  %16s", ry_num_money(money, sizeof money,
                      p->price, 0), p->iter_s, tpm, wl, lay, slow);
        if (p->label >= 0 && r->space)
            ry_buf_printf(out, "  %s", r->space->labels[p->label].name);
        if (ix[j] == r->answer)
            ry_buf_puts(out, "  <- answer");
        ry_buf_putc(out, '\n');
    }
    if (all > n)
        ry_buf_printf(out, "   ... %s more, dearer (every point: points.csv, or --format csv)\n",
                      ry_n(all - n));
}

/* The reasons points failed, each once with how many points it hit: the
 * messages with their numbers masked. */
static void mask(const char *s, char *buf, size_t cap)
{
    size_t k = 0;
    for (const char *p = s; *p && k + 1 < cap; p++) {
        if (*p >= '0' && *p <= '9') {
            while (p[1] >= '0' && p[1] <= '9')
                p++;
            buf[k++] = '#';
        } else {
            buf[k++] = *p;
        }
    }
    buf[k] = '\0';
}

static void reasons(ry_buf *out, const ry_search_result *r, int pruned)
{
    enum { MAXR = 8 };
    long long first[MAXR], count[MAXR];
    char shape[MAXR][400];
    int n = 0;
    long long more = 0;
    for (long long i = 0; i < r->npoints; i++) {
        if (r->pts[i].ok || r->pts[i].pruned != pruned)
            continue;
        char m[400];
        mask(r->pts[i].why, m, sizeof m);
        int k = 0;
        while (k < n && strcmp(shape[k], m) != 0)
            k++;
        if (k == n) {
            if (n == MAXR) {
                more++;
                continue;
            }
            snprintf(shape[n], sizeof shape[n], "%s", m);
            first[n] = i;
            count[n++] = 0;
        }
        count[k]++;
    }
    for (int k = 0; k < n; k++) {
        const ry_search_point *p = &r->pts[first[k]];
        ry_buf_printf(out, "  %s point%s, like #%lld (", ry_n(count[k]), count[k] == 1 ? "" : "s",
                      first[k] + 1);
        for (int a = 0; a < r->naxes; a++)
            ry_buf_printf(out, "%s%s=%s", a ? ", " : "", r->axes[a].key, p->values[a]);
        ry_buf_printf(out, "): %s\n", p->why);
    }
    if (more)
        ry_buf_printf(out, "  %s more point%s for other reasons (points.csv says each)\n",
                      ry_n(more), more == 1 ? "" : "s");
}

/* Points whose ports carry nothing, and points with an unpriced switch
 * (their capex leaves it out): a count and the first of each. */
static void warnings(ry_buf *out, const ry_search_result *r)
{
    long long waste = 0, unpriced = 0, fw = -1, fu = -1;
    for (long long i = 0; i < r->npoints; i++) {
        const ry_search_point *p = &r->pts[i];
        if (!p->built)
            continue;
        if (p->waste[0] && waste++ == 0)
            fw = i;
        if (p->unpriced[0] && unpriced++ == 0)
            fu = i;
    }
    if (waste)
        ry_buf_printf(out, "warning: %s point%s buy%s switch ports that carry nothing (#%lld: "
                      "%s; the waste column of points.csv names each)\n", ry_n(waste),
                      waste == 1 ? "" : "s", waste == 1 ? "s" : "", fw + 1, r->pts[fw].waste);
    if (unpriced)
        ry_buf_printf(out, "warning: %s point%s price%s a switch at $0 (#%lld: %s has no price; "
                      "set fabric.switch.price): %s capex leave%s it out\n", ry_n(unpriced),
                      unpriced == 1 ? "" : "s", unpriced == 1 ? "s" : "", fu + 1,
                      r->pts[fu].unpriced, unpriced == 1 ? "its" : "their",
                      unpriced == 1 ? "s" : "");
}

void ry_emit_search_text(ry_buf *out, const ry_search_result *r)
{
    const ry_spec *s = r->spec;
    long long bad = r->npoints - r->nok - r->pruned;
    long long lo = 0, hi = 0;
    for (long long i = 0; i < r->npoints; i++) {
        long long g = r->pts[i].built ? r->pts[i].gpus : 0;
        if (g && (!lo || g < lo))
            lo = g;
        if (g > hi)
            hi = g;
    }
    if (!lo)
        lo = hi = s->gpus;
    ry_buf_printf(out, "search: %s, %s", s->name, ry_n(lo));
    if (hi != lo)
        ry_buf_printf(out, " to %s", ry_n(hi));
    ry_buf_printf(out, " GPUs; %s point%s", ry_n(r->npoints), r->npoints == 1 ? "" : "s");
    if (r->space_note && r->space_note[0])
        ry_buf_printf(out, " of the default space (%s; search.vary or --vary chooses another)",
                      r->space_note);
    if (bad || r->pruned) {
        ry_buf_printf(out, " (%s built and modeled", ry_n(r->nok));
        if (r->pruned)
            ry_buf_printf(out, ", %s pruned", ry_n(r->pruned));
        ry_buf_printf(out, ", %s not)", ry_n(bad));
    }
    ry_buf_printf(out, "; %s fabric%s built", ry_n(r->fabrics_built),
                  r->fabrics_built == 1 ? "" : "s");
    if (r->keyed > r->fabrics)
        ry_buf_puts(out, " (points that differ only in prices, names or addresses share one)");
    ry_buf_puts(out, "\n");
    for (int k = 0; k < r->naxes; k++) {
        ry_buf_printf(out, "  %s:", r->axes[k].key);
        for (int j = 0; j < r->axes[k].n && j < 12; j++)
            ry_buf_printf(out, " %s", r->axes[k].values[j]);
        if (r->axes[k].n > 12)
            ry_buf_printf(out, " ... (%d values)", r->axes[k].n);
        ry_buf_putc(out, '\n');
    }
    ry_buf_puts(out, "workload:");
    for (int w = 0; w < r->nworkloads; w++)
        ry_buf_printf(out, "%s %s", w ? "," : "", r->workloads[w].label);
    if (r->nworkloads > 1) {
        ry_buf_puts(out, " (weights");
        for (int w = 0; w < r->nworkloads; w++)
            ry_buf_printf(out, " %g", r->workloads[w].weight);
        ry_buf_puts(out, "; time: their weighted mean; tokens/s: the mix's tokens over its "
                         "time)");
    }
    ry_buf_puts(out, "\nfailures:");
    for (int i = 0; i < r->nfailures; i++)
        ry_buf_printf(out, "%s %s", i ? "," : "", r->failures[i]);
    int random = 0;
    for (int i = 0; i < r->nfailures; i++)
        random += strcmp(r->failures[i], "plane") != 0;
    if (random)
        ry_buf_printf(out, " (KIND:N: %d draw%s each)", r->seeds, r->seeds == 1 ? "" : "s");
    if (r->nfailures)
        ry_buf_puts(out, "; a point's slowdown: the mean over the scenarios that apply to it, "
                         "the job keeping its layout\n");
    else
        ry_buf_puts(out, " none (every slowdown is 1)\n");
    for (int i = 0; i < r->nfailures; i++) {
        if (r->applied[i] == r->nok || r->nok == 0 ||
            (r->applied[i] == 0 && r->default_failures && strcmp(r->failures[i], "plane") == 0))
            continue;
        if (r->applied[i] == 0)
            ry_buf_printf(out, "  %s applies to no point (no such switch, or one plane)\n",
                          r->failures[i]);
        else
            ry_buf_printf(out, "  %s applies to %s of the %s points (the others have no such "
                          "switch, or one plane)\n", r->failures[i], ry_n(r->applied[i]),
                          ry_n(r->nok));
    }
    warnings(out, r);

    long long *ix;
    long long n = sorted(r, 0, &ix);
    ry_buf_printf(out, "\nfront, %s against iteration time: %s point%s\n", price_word(r),
                  ry_n(n), n == 1 ? "" : "s");
    table(out, r, ix, n);
    free(ix);
    if (r->nfailures) {
        n = sorted(r, 1, &ix);
        ry_buf_printf(out, "\nfront, %s against slowdown under the failures: %s point%s\n",
                      price_word(r), ry_n(n), n == 1 ? "" : "s");
        table(out, r, ix, n);
        free(ix);
        stalls(out, r);
    }

    /* the published designs wherever they fall */
    for (int l = 0; r->space && l < r->space->nlabels; l++) {
        if (l == 0)
            ry_buf_puts(out, "\npublished designs:\n");
        const char *name = r->space->labels[l].name;
        long long first = -1, shown = 0;
        for (long long i = 0; i < r->npoints; i++) {
            const ry_search_point *p = &r->pts[i];
            if (p->label != l)
                continue;
            if (first < 0)
                first = i;
            if (!p->ok)
                continue;
            shown++;
            char money[48], slow[96];
            slowdown_text(slow, sizeof slow, p);
            ry_buf_printf(out, "  %-24s #%lld  %s  %.4f s  %s  %s the time front, %s the "
                          "failure front\n", name, i + 1,
                          ry_num_money(money, sizeof money, p->price, 0), p->iter_s, slow,
                          p->front ? "on" : "off", p->front_fail || !r->nfailures ? "on" : "off");
        }
        if (shown)
            continue;
        if (first < 0)
            ry_buf_printf(out, "  %-24s not in this search (its values are not all among the "
                          "points')\n", name);
        else
            ry_buf_printf(out, "  %-24s #%lld  %s\n", name, first + 1,
                          r->pts[first].pruned ? "pruned (points.csv says why)"
                                               : "not built or modeled (points.csv says why)");
    }

    ry_buf_puts(out, "\nanswer: ");
    char tgt[256] = "";
    size_t tl = 0;
    if (r->as_fast && isfinite(r->fastest))
        tl += (size_t)snprintf(tgt + tl, sizeof tgt - tl, "iteration <= %.4f s (as fast as the "
                               "fastest such point, within %g%%: what the model resolves)", r->target_time,
                               RY_SEARCH_AS_FAST * 100);
    else if (r->target_time > 0)
        tl += (size_t)snprintf(tgt + tl, sizeof tgt - tl, "%siteration <= %g s", tl ? ", " : "",
                               r->target_time);
    if (r->budget > 0) {
        char money[48];
        tl += (size_t)snprintf(tgt + tl, sizeof tgt - tl, "%scapex <= %s", tl ? ", " : "",
                               ry_num_money(money, sizeof money, r->budget, 0));
    }
    if (r->max_slowdown > 0)
        tl += (size_t)snprintf(tgt + tl, sizeof tgt - tl, "%sslowdown <= %gx", tl ? ", " : "",
                               r->max_slowdown);
    if (r->nfailures)
        snprintf(tgt + tl, sizeof tgt - tl, "%sno stall under the failures", tl ? ", " : "");
    if (r->answer < 0) {
        ry_buf_printf(out, "no point meets %s\n", tgt);
    } else {
        const ry_search_point *p = &r->pts[r->answer];
        char money[48], slow[96];
        slowdown_text(slow, sizeof slow, p);
        ry_buf_printf(out, "#%lld, the %s with %s:\n ", r->answer + 1,
                      r->objective ? "point of least ownership" : "cheapest point", tgt);
        for (int k = 0; k < r->naxes; k++)
            ry_buf_printf(out, "%s %s=%s", k ? "," : "", r->axes[k].key, p->values[k]);
        ry_buf_printf(out, "\n  %s, %s", design_word(p->design),
                      ry_num_money(money, sizeof money, p->capex, 0));
        if (r->objective)
            ry_buf_printf(out, " capex, %s over %d year%s", ry_num_money(money, sizeof money,
                          p->ownership, 0), r->years, r->years == 1 ? "" : "s");
        ry_buf_printf(out, ", %.4f s per iteration, %s under the failures\n", p->iter_s, slow);
        if (p->unpriced[0])
            ry_buf_printf(out, "  (its capex leaves out %s, which has no price)\n", p->unpriced);
    }
    if (r->pruned) {
        ry_buf_puts(out, "\npruned (they cannot be the answer):\n");
        reasons(out, r, 1);
    }
    if (bad) {
        ry_buf_puts(out, "\nnot built or modeled:\n");
        reasons(out, r, 0);
    }
}

void ry_emit_search_sensitivity(ry_buf *out, const ry_search_result *r, const double range[3],
                                double support_pct, double switch_rate, double cable_rate)
{
    static const char *const kinds[] = { "switches", "optics", "cables" };
    if (r->answer < 0)
        return;
    ry_buf_printf(out, "\nprice sensitivity: the answer (#%lld) with every price of a kind at "
                       "either end of its range (cost.range_switches, cost.range_optics, "
                       "cost.range_cables)\n  %-9s %7s  %-16s %s\n", r->answer + 1, "prices",
                  "range", "answer low", "answer high");
    int flips = 0;
    for (int k = 0; k < 3; k++) {
        char cell[2][32], rg[48];
        for (int e = 0; e < 2; e++) {
            long long a = ry_search_answer_with(r, k, 1 + (e ? 1 : -1) * range[k] / 100,
                                                support_pct, switch_rate, cable_rate);
            if (a < 0)
                snprintf(cell[e], sizeof cell[e], "none");
            else
                snprintf(cell[e], sizeof cell[e], "#%lld%s", a + 1,
                         a != r->answer ? " (flips)" : "");
            flips += a != r->answer;
        }
        snprintf(rg, sizeof rg, "+/-%g%%", range[k]);
        ry_buf_printf(out, "  %-9s %7s  %-16s %s\n", kinds[k], rg, cell[0], cell[1]);
    }
    if (flips)
        ry_buf_printf(out, "the answer flips at %d end%s of a range: it depends on those prices\n",
                      flips, flips == 1 ? "" : "s");
    else
        ry_buf_printf(out, "the answer holds at either end of every range\n");
}

/* ",VALUE" with decimals places; "inf" for a stall. */
static void num(ry_buf *b, double v, int decimals)
{
    ry_buf_putc(b, ',');
    if (isfinite(v))
        ry_buf_printf(b, "%.*f", decimals, v);
    else if (v > 0)
        ry_buf_puts(b, "inf");
}

void ry_emit_search_csv(ry_buf *out, const ry_search_result *r, int front_only)
{
    ry_buf_puts(out, "point");
    for (int k = 0; k < r->naxes; k++) {
        ry_buf_putc(out, ',');
        ry_csv_field(out, r->axes[k].key);
    }
    ry_buf_puts(out, ",design,tiers,switches,optics,cables,racks,power_kw,capex,capex_switches,"
                     "capex_optics,capex_cables,capex_racks,capex_spares,ownership,tensor,pipeline,data,"
                     "context,expert,iteration_s,fastest_s,tokens_per_s,tokens_per_s_per_musd,"
                     "slowdown,stalls,scenarios,front,front_failure,meets,answer,published,waste,why");
    for (int w = 0; r->nworkloads > 1 && w < r->nworkloads; w++) {
        char name[96];
        snprintf(name, sizeof name, "iteration_s.%s", r->workloads[w].label);
        ry_buf_putc(out, ',');
        ry_csv_field(out, name);
    }
    ry_csv_end(out);
    for (long long i = 0; i < r->npoints; i++) {
        const ry_search_point *p = &r->pts[i];
        if (front_only && !p->front)
            continue;
        ry_buf_printf(out, "%lld", i + 1);
        for (int k = 0; k < r->naxes; k++) {
            ry_buf_putc(out, ',');
            ry_csv_field(out, p->values[k]);
        }
        if (p->built) {
            ry_buf_printf(out, ",%s,%d,%lld,%lld,%lld,%d", design_word(p->design), p->tiers,
                          p->switches, p->optics, p->cables, p->racks);
            num(out, p->power_w / 1000, 3);
            num(out, p->capex, 2);
            num(out, p->capex_switches, 2);
            num(out, p->capex_optics, 2);
            num(out, p->capex_cables, 2);
            num(out, p->capex_racks, 2);
            num(out, p->capex_spares, 2);
            num(out, p->ownership, 2);
        } else {
            ry_buf_puts(out, ",,,,,,,,,,,,,,");
        }
        if (p->ok) {
            ry_buf_printf(out, ",%lld,%lld,%lld,%lld,%lld", p->t, p->p, p->d, p->c, p->ep);
            num(out, p->iter_s, 6);
            if (p->fastest_s > 0)
                num(out, p->fastest_s, 6);
            else
                ry_buf_putc(out, ',');
            num(out, p->tokens_per_s, 1);
            num(out, p->tokens_per_musd, 2);
            num(out, p->slowdown, 6);
            ry_buf_putc(out, ',');
            ry_csv_field(out, p->stalls);
            ry_buf_printf(out, ",%d", p->scenarios);
        } else if (p->fastest_s > 0) {
            ry_buf_puts(out, ",,,,,,");
            num(out, p->fastest_s, 6);
            ry_buf_puts(out, ",,,,,");
        } else {
            ry_buf_puts(out, ",,,,,,,,,,,,");
        }
        ry_buf_printf(out, ",%d,%d,%d,%d,", p->front, p->front_fail, p->meets, i == r->answer);
        if (p->label >= 0 && r->space)
            ry_csv_field(out, r->space->labels[p->label].name);
        ry_buf_putc(out, ',');
        ry_csv_field(out, p->built ? p->waste : "");
        ry_buf_putc(out, ',');
        ry_csv_field(out, p->ok ? "" : p->why);
        for (int w = 0; r->nworkloads > 1 && w < r->nworkloads; w++) {
            if (p->ok)
                num(out, p->iter_w[w], 6);
            else
                ry_buf_putc(out, ',');
        }
        ry_csv_end(out);
    }
}

void ry_emit_search_plot(ry_buf *o, const ry_search_result *r)
{
    ry_buf_printf(o, "# railyard search: %s against iteration time; run with gnuplot\n",
                  price_word(r));
    /* every modeled point, by design */
    for (int d = 0; d < 3; d++) {
        ry_buf_printf(o, "$D%d << EOD\n", d);
        for (long long i = 0; i < r->npoints; i++)
            if (r->pts[i].ok && r->pts[i].design == d)
                ry_buf_printf(o, "%.6f %.6f\n", r->pts[i].price / 1e6, r->pts[i].iter_s);
        ry_buf_puts(o, "EOD\n");
    }
    long long *ix;
    long long n = sorted(r, 0, &ix);
    ry_buf_puts(o, "$front << EOD\n");
    for (long long j = 0; j < n; j++)
        ry_buf_printf(o, "%.6f %.6f\n", r->pts[ix[j]].price / 1e6, r->pts[ix[j]].iter_s);
    ry_buf_puts(o, "EOD\n");
    free(ix);
    int have[3] = { 0 };
    for (long long i = 0; i < r->npoints; i++)
        if (r->pts[i].ok)
            have[r->pts[i].design] = 1;
    for (int pass = 0; pass < 2; pass++) {
        ry_gp_terminal(o, pass, 1200, 720, "search");
        ry_buf_puts(o, "set title ");
        char title[256];
        snprintf(title, sizeof title, "%s: %s against iteration time (%lld points, front "
                 "of %lld)", r->spec->name, price_word(r), r->nok, r->nfront);
        ry_escape_str(o, title, RY_ESC_GNUPLOT);
        ry_buf_printf(o, "\nset xlabel '%s ($M)'\n", price_word(r));
        ry_buf_puts(o, "set ylabel 'iteration time (s)'\n"
                       "set grid\nset key top right box opaque\nunset label\n"
                       "set offsets graph 0.05, graph 0.2, graph 0.08, graph 0.08\n");
        int lab = 1;
        for (long long i = 0; r->space && i < r->npoints; i++) {
            const ry_search_point *p = &r->pts[i];
            if (p->label < 0 || !p->ok)
                continue;
            ry_buf_printf(o, "set label %d ", lab++);
            ry_escape_str(o, r->space->labels[p->label].name, RY_ESC_GNUPLOT);
            ry_buf_printf(o, " at %.6f,%.6f offset 1,1 point pt 6 ps 2\n", p->price / 1e6,
                          p->iter_s);
        }
        if (r->answer >= 0) {
            const ry_search_point *p = &r->pts[r->answer];
            ry_buf_printf(o, "set label %d 'answer' at %.6f,%.6f offset 1,-1 point pt 4 ps 2.5 "
                          "lc rgb '#d62728'\n", lab++, p->price / 1e6, p->iter_s);
        }
        ry_buf_puts(o, "plot ");
        static const char *const color[] = { "#1f77b4", "#2ca02c", "#ff7f0e" };
        int first = 1;
        for (int d = 0; d < 3; d++) {
            if (!have[d])
                continue;
            ry_buf_printf(o, "%s$D%d using 1:2 with points pt 7 ps 0.6 lc rgb '%s' title '%s'",
                          first ? "" : ", ", d, color[d], design_word(d));
            first = 0;
        }
        ry_buf_printf(o, "%s$front using 1:2 with steps lw 2 lc rgb '#000000' title 'front', "
                      "$front using 1:2 with points pt 5 lc rgb '#000000' notitle\n"
                      "set output\n", first ? "" : ", ");
    }
}
