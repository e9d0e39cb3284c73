/* `railyard whatif` as text (one column per design) and JSON. */
#include "emit/model/emit_whatif.h"
#include "emit/model/emit_parallelism.h"

#include "emit/csv.h"
#include "emit/format.h"
#include "util/escape.h"
#include "util/numfmt.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"

#define LABEL_W 40
#define COL_W 36

/* ---- text ---------------------------------------------------------------------------------- */

/* "12,345" */
typedef void (*cell_fn)(char *buf, size_t n, const ry_whatif_side *s, int arg);

static void row(ry_buf *o, const char *label, const ry_whatif_side *sides, int ns, cell_fn fn,
                int arg)
{
    ry_buf_printf(o, "%-*s", LABEL_W, label);
    for (int i = 0; i < ns; i++) {
        char c[128] = "";
        if (sides[i].f)
            fn(c, sizeof c, &sides[i], arg);
        ry_buf_printf(o, "%-*s%s", COL_W, c, strlen(c) + 2 > COL_W ? "  " : "");
    }
    /* no trailing blanks */
    while (o->len && o->data[o->len - 1] == ' ')
        o->len--;
    ry_buf_putc(o, '\n');
}

enum { C_SWDOWN, C_LINKSDOWN, C_CUT, C_DEGR, C_PORTS, C_DOMCUT, C_NOPATH, C_FWD, C_NONE };

static void c_count(char *b, size_t n, const ry_whatif_side *s, int which)
{
    const ry_failure_report *r = s->after, *h = s->before;
    char x[48], y[48];
    switch (which) {
    case C_SWDOWN: ry_num_int(b, n, r->switches_down); break;
    case C_LINKSDOWN: ry_num_int(b, n, r->links_down); break;
    case C_CUT: ry_num_int(b, n, r->gpus_cut); break;
    case C_DEGR: ry_num_int(b, n, r->gpus_degraded); break;
    case C_PORTS: ry_num_int(b, n, r->nic_ports_cut); break;
    case C_DOMCUT: ry_num_int(b, n, r->domains_cut); break;
    case C_NOPATH:
        ry_num_int(x, sizeof x, r->pairs - r->pairs_fabric);
        ry_num_int(y, sizeof y, h->pairs - h->pairs_fabric);
        snprintf(b, n, "%s (%s before)", x, y);
        break;
    case C_FWD: ry_num_int(b, n, r->pairs_forward); break;
    case C_NONE: ry_num_int(b, n, r->pairs_none); break;
    }
}

static void c_cap(char *b, size_t n, const ry_fail_cap *c)
{
    if (c->links == 0) {
        snprintf(b, n, "-");
        return;
    }
    char x[32], y[32];
    ry_num_int(x, sizeof x, c->links_up);
    ry_num_int(y, sizeof y, c->links);
    snprintf(b, n, "%.2f%% (%s/%s)", 100 * ry_fail_cap_kept(c), x, y);
}

enum { G_TIER, G_RAIL, G_PLANE, G_UNIT };

static const ry_fail_cap *cap_of(const ry_failure_report *r, int kind, int i)
{
    switch (kind) {
    case G_TIER: return i >= 1 && i <= r->tiers ? &r->tier[i] : NULL;
    case G_RAIL: return i < r->nrails ? &r->rail[i] : NULL;
    case G_PLANE: return i < r->nplanes ? &r->plane[i] : NULL;
    default: return i < r->nunits ? &r->unit[i] : NULL;
    }
}

static int kind_count(const ry_failure_report *r, int kind)
{
    return kind == G_TIER ? r->tiers + 1 : kind == G_RAIL ? r->nrails
         : kind == G_PLANE ? r->nplanes : r->nunits;
}

static int g_kind;
static void c_group(char *b, size_t n, const ry_whatif_side *s, int i)
{
    const ry_fail_cap *c = cap_of(s->after, g_kind, i);
    if (c)
        c_cap(b, n, c);
}

static void c_oversub(char *b, size_t n, const ry_whatif_side *s, int healthy)
{
    const ry_failure_report *r = s->after;
    char name[64];
    if (healthy) {
        if (r->worst_oversub_healthy > 0)
            snprintf(b, n, "%.2f:1", r->worst_oversub_healthy);
        else
            snprintf(b, n, "- (one tier)");
        return;
    }
    if (r->worst_switch < 0) {
        snprintf(b, n, "-");
        return;
    }
    ry_node_name(s->f, (uint32_t)r->worst_switch, name, sizeof name);
    if (isinf(r->worst_oversub))
        snprintf(b, n, "no uplink (%s)", name);
    else
        snprintf(b, n, "%.2f:1 (%s)", r->worst_oversub, name);
}

static void c_isolated(char *b, size_t n, const ry_whatif_side *s, int arg)
{
    (void)arg;
    ry_num_int(b, n, s->after->switches_isolated);
}

enum { T_BS, T_BEFORE, T_AFTER, T_DPB, T_DPA, T_NVB, T_NVS, T_SLOW };

static void c_ecmp(char *b, size_t n, const ry_whatif_side *s, int which)
{
    const ry_eth_widths *w = which == 1 ? &s->ecmp_before : &s->ecmp_after;
    if (!s->has_ecmp)
        snprintf(b, n, "-");
    else if (which == 2)
        snprintf(b, n, "%lld (%lld before)", s->ecmp_after.unrouted, s->ecmp_before.unrouted);
    else if (w->min == w->max)
        snprintf(b, n, "%d", w->max);
    else
        snprintf(b, n, "%d, %d", w->min, w->max);
}

static void c_train(char *b, size_t n, const ry_whatif_side *s, int which)
{
    if (!s->trained)
        return;
    const ry_iter_degraded *d = &s->train;
    const ry_failure_report *r = s->after;
    switch (which) {
    case T_BS:
        if (r->gating_domain >= 0)
            snprintf(b, n, "%.2f%% (domain %lld)", 100 * r->bs_ratio, r->gating_domain);
        else
            snprintf(b, n, "%.2f%%", 100 * r->bs_ratio);
        break;
    case T_BEFORE: ry_num_si(b, n, d->before.total, "s", 4); break;
    case T_AFTER:
        if (d->stalled)
            snprintf(b, n, "stalled (no network)");
        else
            ry_num_si(b, n, d->after.total, "s", 4);
        break;
    case T_DPB: ry_num_si(b, n, d->before.dp_cross, "s", 4); break;
    case T_DPA:
        if (d->stalled)
            snprintf(b, n, "-");
        else
            ry_num_si(b, n, d->after.dp_cross, "s", 4);
        break;
    case T_NVB: ry_num_si(b, n, d->fwd_bytes_max, "B", 3); break;
    case T_NVS: {
        char t[RY_NUM_CAP];
        snprintf(b, n, "%s (%.1f%% of the iteration)", ry_num_si(t, sizeof t, d->nvlink_s, "s", 4),
                 d->after.total > 0 && !d->stalled ? 100 * d->nvlink_s / d->after.total : 0.0);
        break;
    }
    case T_SLOW:
        if (d->stalled)
            snprintf(b, n, "-");
        else
            snprintf(b, n, "%.4fx", d->slowdown);
        break;
    }
}

enum { E_BEFORE, E_AFTER, E_DPB, E_DPA, E_SHB, E_SHA, E_SLOW };

/* An engine time, or why there is none. */
static int e_stalled(const ry_whatif_side *s, int after)
{
    return after ? s->eng_unrouted_after > 0 : s->eng_unrouted_before > 0;
}

static void c_engine(char *b, size_t n, const ry_whatif_side *s, int which)
{
    if (!s->routing)
        return;
    if (!s->engine) {
        snprintf(b, n, "-");
        return;
    }
    const ry_plan_cfg *c = which == E_BEFORE || which == E_DPB || which == E_SHB ? s->eng_before
                                                                                 : s->eng_after;
    int after = c == s->eng_after;
    if (e_stalled(s, after) || (which == E_SLOW && e_stalled(s, 0))) {
        snprintf(b, n, which == E_AFTER || which == E_BEFORE ? "stalled (no route)" : "-");
        return;
    }
    switch (which) {
    case E_BEFORE:
    case E_AFTER: ry_num_si(b, n, c->total, "s", 4); break;
    case E_DPB:
    case E_DPA: ry_num_si(b, n, c->dp_cross_s, "s", 4); break;
    case E_SHB:
    case E_SHA:
        snprintf(b, n, "%.4f", c->share_dp);
        break;
    case E_SLOW:
        snprintf(b, n, "%.4fx", s->eng_before->total > 0 ? s->eng_after->total /
                 s->eng_before->total : 1.0);
        break;
    }
}

static void engine_text(ry_buf *o, const ry_whatif_side *sides, int ns)
{
    if (!sides[0].routing)
        return;
    ry_buf_printf(o, "on the flow engine (routing %s; the layout's collectives on the fabric, "
                  "routed around what failed)\n", sides[0].routing);
    row(o, "  iteration time before", sides, ns, c_engine, E_BEFORE);
    row(o, "  iteration time after", sides, ns, c_engine, E_AFTER);
    row(o, "  data parallel across domains before", sides, ns, c_engine, E_DPB);
    row(o, "  data parallel across domains after", sides, ns, c_engine, E_DPA);
    row(o, "  data-parallel share before", sides, ns, c_engine, E_SHB);
    row(o, "  data-parallel share after", sides, ns, c_engine, E_SHA);
    row(o, "  slowdown", sides, ns, c_engine, E_SLOW);
    for (int i = 0; i < ns; i++) {
        const ry_whatif_side *s = &sides[i];
        const char *d = ry_design_name(s->design);
        if (!s->f || !s->routing)
            continue;
        if (!s->engine)
            ry_buf_printf(o, "  %s: not run: %s\n", d, s->eng_err ? s->eng_err : "");
        if (s->engine && s->eng_unrouted_before)
            ry_buf_printf(o, "  %s before: %d phase%s without a route: %s\n", d,
                          s->eng_unrouted_before, s->eng_unrouted_before == 1 ? "" : "s",
                          s->eng_why_before);
        if (s->engine && s->eng_unrouted_after)
            ry_buf_printf(o, "  %s after: %d phase%s without a route: %s\n", d,
                          s->eng_unrouted_after, s->eng_unrouted_after == 1 ? "" : "s",
                          s->eng_why_after);
    }
}

static void elems_text(ry_buf *o, const char *label, const ry_fail_elem *e, int n)
{
    ry_buf_printf(o, "%s", label);
    for (int i = 0; i < n; i++)
        ry_buf_printf(o, "%s%s", i ? ", " : " ", e[i].name);
    if (n == 0)
        ry_buf_puts(o, " (none)");
    ry_buf_putc(o, '\n');
}

/* The cells of group x on every side, joined (to find equal neighbours). */
static void group_key(char *key, size_t n, const ry_whatif_side *sides, int ns, int x)
{
    size_t len = 0;
    key[0] = '\0';
    for (int i = 0; i < ns && len + 1 < n; i++) {
        char c[128] = "";
        if (sides[i].f)
            c_group(c, sizeof c, &sides[i], x);
        len += (size_t)snprintf(key + len, n - len, "%s|", c);
    }
}

static int group_low(const ry_whatif_side *sides, int ns, int kind, int x)
{
    for (int i = 0; i < ns; i++) {
        const ry_fail_cap *c = sides[i].f ? cap_of(sides[i].after, kind, x) : NULL;
        if (c && c->links && c->gbps_up < c->gbps)
            return 1;
    }
    return 0;
}

/* Rows of a group kind whose capacity is below 100% on some side; a run of
 * neighbours with the same cells on every side is one row ("rails 8-15"). */
static void group_rows(ry_buf *o, const char *what, const ry_whatif_side *sides, int ns, int kind,
                       int first)
{
    int max = 0, shown = 0;
    for (int i = 0; i < ns; i++)
        if (sides[i].f && kind_count(sides[i].after, kind) > max)
            max = kind_count(sides[i].after, kind);
    g_kind = kind;
    for (int x = first; x < max; x++) {
        if (kind != G_TIER && !group_low(sides, ns, kind, x))
            continue;
        char label[64];
        int last = x;
        if (kind == G_TIER) {
            /* named by the design with the most tiers */
            const ry_whatif_side *s = NULL;
            for (int i = 0; i < ns; i++)
                if (sides[i].f && (!s || sides[i].f->tiers > s->f->tiers))
                    s = &sides[i];
            char tn[32];
            ry_fail_tier_name(s->f, x, tn, sizeof tn);
            snprintf(label, sizeof label, "  %s links", tn);
        } else {
            char k0[512], k1[512];
            group_key(k0, sizeof k0, sides, ns, x);
            while (last + 1 < max && group_low(sides, ns, kind, last + 1)) {
                group_key(k1, sizeof k1, sides, ns, last + 1);
                if (strcmp(k0, k1) != 0)
                    break;
                last++;
            }
            int base = kind == G_UNIT;      /* units count from 1, as in Slurm's suN */
            if (last > x)
                snprintf(label, sizeof label, "  %ss %d-%d", what, x + base, last + base);
            else
                snprintf(label, sizeof label, "  %s %d", what, x + base);
        }
        row(o, label, sides, ns, c_group, x);
        shown += last - x + 1;
        x = last;
    }
    if (kind != G_TIER && max > 0 && shown < max)
        ry_buf_printf(o, "  %-*s100%%\n", LABEL_W - 2, shown ? (kind == G_RAIL ? "other rails"
                      : kind == G_PLANE ? "other planes" : "other units") : (kind == G_RAIL ?
                      "every rail" : kind == G_PLANE ? "every plane" : "every unit"));
}

static void whatif_text(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_whatif_side *sides,
                        int ns)
{
    char g[32];
    ry_num_int(g, sizeof g, s->gpus);
    ry_buf_printf(o, "what if: %s, %s GPUs, HB domain %d, %d rail%s, %d plane%s\n", s->name, g,
                  s->hb_domain, s->rails, s->rails == 1 ? "" : "s", s->planes,
                  s->planes == 1 ? "" : "s");
    if (sides[0].as_built_files)
        ry_buf_printf(o, "as built (%lld file%s): %d cable%s missing or miswired, down before the "
                      "failures\n", sides[0].as_built_files,
                      sides[0].as_built_files == 1 ? "" : "s", sides[0].nbase,
                      sides[0].nbase == 1 ? "" : "s");
    elems_text(o, "failed:", sides[0].elems, sides[0].nelems);
    for (int i = 1; i < ns; i++) {
        if (!sides[i].f) {
            ry_buf_printf(o, "counterpart %s: cannot be built: %s\n",
                          ry_design_name(sides[i].design), sides[i].err ? sides[i].err : "");
            continue;
        }
        char label[64];
        snprintf(label, sizeof label, "on %s:", ry_design_name(sides[i].design));
        elems_text(o, label, sides[i].elems, sides[i].nelems);
        if (sides[i].nunmapped)
            elems_text(o, "  no counterpart for:", sides[i].unmapped, sides[i].nunmapped);
    }
    ry_buf_putc(o, '\n');
    ry_buf_printf(o, "%-*s", LABEL_W, "");
    for (int i = 0; i < ns; i++) {
        char h[64];
        snprintf(h, sizeof h, "%s%s", ry_design_name(sides[i].design), i == 0 ? " (spec)" : "");
        ry_buf_printf(o, "%-*s", COL_W, h);
    }
    while (o->len && o->data[o->len - 1] == ' ')
        o->len--;
    ry_buf_putc(o, '\n');
    row(o, "switches down", sides, ns, c_count, C_SWDOWN);
    row(o, "links down", sides, ns, c_count, C_LINKSDOWN);
    ry_buf_puts(o, "connectivity\n");
    row(o, "  GPUs cut off the network", sides, ns, c_count, C_CUT);
    row(o, "  GPUs with a plane lost", sides, ns, c_count, C_DEGR);
    row(o, "  GPU NIC ports cut", sides, ns, c_count, C_PORTS);
    row(o, "  HB domains cut off", sides, ns, c_count, C_DOMCUT);
    row(o, "  GPU pairs without a fabric path", sides, ns, c_count, C_NOPATH);
    row(o, "    of them reached over NVLink", sides, ns, c_count, C_FWD);
    row(o, "    of them not reached at all", sides, ns, c_count, C_NONE);
    ry_buf_puts(o, "capacity kept (links up, by link speed)\n");
    group_rows(o, "tier", sides, ns, G_TIER, 1);
    group_rows(o, "rail", sides, ns, G_RAIL, 0);
    group_rows(o, "plane", sides, ns, G_PLANE, 0);
    group_rows(o, "unit", sides, ns, G_UNIT, 0);
    ry_buf_puts(o, "oversubscription (down:up capacity up)\n");
    row(o, "  worst before", sides, ns, c_oversub, 1);
    row(o, "  worst after", sides, ns, c_oversub, 0);
    row(o, "  switches with no uplink left", sides, ns, c_isolated, 0);
    if (sides[0].has_ecmp) {
        ry_buf_puts(o, "BGP routes leaf to leaf (ECMP next hops)\n");
        row(o, "  fewest, most", sides, ns, c_ecmp, 0);
        row(o, "  before", sides, ns, c_ecmp, 1);
        row(o, "  leaf pairs without a route", sides, ns, c_ecmp, 2);
    }
    if (!pl) {
        ry_buf_puts(o, "training: the spec has no workload section (add one to model the "
                    "iteration time)\n");
        return;
    }
    if (pl->paper)
        ry_buf_printf(o, "training: %s, tensor %s, HB domain %s (the rail-only paper's iteration-time "
                      "model, its eq. 1, --paper; the job keeps its layout)\n",
                      pl->base.w.model.name, ry_n(pl->base.best.NM), ry_n(pl->base.best.K));
    else
        ry_buf_printf(o, "training: %s, tensor %s x pipeline %s x data %s, HB domain %s "
                      "(the full model; the job keeps its layout)\n", pl->base.w.model.name,
                      ry_n(pl->best.t), ry_n(pl->best.p), ry_n(pl->best.d), ry_n(pl->base.in.K));
    row(o, "  network bandwidth kept (slowest)", sides, ns, c_train, T_BS);
    row(o, "  iteration time before", sides, ns, c_train, T_BEFORE);
    row(o, "  iteration time after", sides, ns, c_train, T_AFTER);
    row(o, "  data parallel across domains before", sides, ns, c_train, T_DPB);
    row(o, "  data parallel across domains after", sides, ns, c_train, T_DPA);
    row(o, "  NVLink forwarding per GPU, iteration", sides, ns, c_train, T_NVB);
    row(o, "  NVLink forwarding time", sides, ns, c_train, T_NVS);
    row(o, "  slowdown", sides, ns, c_train, T_SLOW);
    char mb[RY_NUM_CAP];
    /* eq. 1 keeps the all-to-all a term apart; the full model's iteration
     * holds what compute does not hide of it, before and after alike. */
    if (pl->base.has_moe && pl->paper)
        ry_buf_printf(o, "  (%s's expert all-to-all, %s an iteration on this fabric healthy, "
                      "is left out: the times above are the dense terms')\n",
                      pl->base.w.model.name, ry_num_si(mb, sizeof mb, pl->base.moe_s, "s", 4));
    else if (pl->base.has_moe)
        ry_buf_printf(o, "  (the times include %s's expert all-to-all: %s an iteration exposed "
                      "on this fabric healthy)\n", pl->base.w.model.name,
                      ry_num_si(mb, sizeof mb, pl->best.moe, "s", 4));
    engine_text(o, sides, ns);
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *elems_json(const ry_fail_elem *e, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(e[i].name));
    return a;
}

static json_t *cap_json(const ry_fail_cap *c)
{
    return json_pack("{s:I, s:I, s:f, s:f, s:f}", "links", (json_int_t)c->links, "links_up",
                     (json_int_t)c->links_up, "gbps", c->gbps, "gbps_up", c->gbps_up,
                     "capacity_kept", ry_fail_cap_kept(c));
}

/* {key: value, links, links_up, ...}: the name first */
static json_t *cap_json_named(const char *key, json_t *value, const ry_fail_cap *c)
{
    json_t *x = json_object(), *t = cap_json(c);
    json_object_set_new(x, key, value);
    json_object_update(x, t);
    json_decref(t);
    return x;
}

static json_t *caps_json(const ry_fail_cap *c, int n, const char *key, int base)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, cap_json_named(key, json_integer(i + base), &c[i]));
    return a;
}

static void side_json(json_t *j, const ry_whatif_side *s, const ry_model *m)
{
    const ry_failure_report *r = s->after, *h = s->before;
    const ry_fabric *f = s->f;
    json_object_set_new(j, "as_built_links_down", json_integer(s->nbase));
    json_object_set_new(j, "switches_down", json_integer(r->switches_down));
    json_object_set_new(j, "links_down", json_integer(r->links_down));
    json_object_set_new(j, "connectivity", json_pack(
        "{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
        "gpus", (json_int_t)r->gpus, "gpus_cut", (json_int_t)r->gpus_cut,
        "gpus_degraded", (json_int_t)r->gpus_degraded, "nic_ports_cut",
        (json_int_t)r->nic_ports_cut, "domains_cut", (json_int_t)r->domains_cut,
        "pairs", (json_int_t)r->pairs, "pairs_no_fabric_path_before",
        (json_int_t)(h->pairs - h->pairs_fabric), "pairs_no_fabric_path",
        (json_int_t)(r->pairs - r->pairs_fabric), "pairs_forwarded_nvlink",
        (json_int_t)r->pairs_forward, "pairs_unreachable", (json_int_t)r->pairs_none));
    json_t *cut = json_array();
    for (size_t i = 0; i < s->ncut_listed; i++) {
        char desc[160];
        ry_ca_desc(f, s->cut[i], desc, sizeof desc);
        char *sp = strrchr(desc, ' ');
        if (sp)
            *sp = '/';
        json_array_append_new(cut, json_string(desc));
    }
    json_object_set_new(json_object_get(j, "connectivity"), "nics_cut", cut);
    json_object_set_new(json_object_get(j, "connectivity"), "nics_cut_complete",
                        json_boolean(s->ncut_listed == s->ncut));
    json_t *tiers = json_array();
    for (int t = 1; t <= r->tiers; t++) {
        char tn[32];
        ry_fail_tier_name(f, t, tn, sizeof tn);
        json_array_append_new(tiers, cap_json_named("tier", json_string(tn), &r->tier[t]));
    }
    json_object_set_new(j, "tiers", tiers);
    json_object_set_new(j, "rails", caps_json(r->rail, r->nrails, "rail", 0));
    json_object_set_new(j, "planes", caps_json(r->plane, r->nplanes, "plane", 0));
    json_object_set_new(j, "units", caps_json(r->unit, r->nunits, "unit", 1));
    char name[64] = "";
    if (r->worst_switch >= 0)
        ry_node_name(f, (uint32_t)r->worst_switch, name, sizeof name);
    json_object_set_new(j, "oversubscription", json_pack(
        "{s:o, s:o, s:o, s:I}", "worst_before", num_or_null(r->worst_oversub_healthy),
        "worst_after", r->worst_switch >= 0 ? num_or_null(r->worst_oversub) : json_null(),
        "worst_switch", r->worst_switch >= 0 ? json_string(name) : json_null(),
        "switches_isolated", (json_int_t)r->switches_isolated));
    if (s->has_ecmp)
        json_object_set_new(j, "ecmp", json_pack(
            "{s:I, s:i, s:i, s:I, s:i, s:i, s:I, s:I}", "leaf_pairs",
            (json_int_t)s->ecmp_after.pairs, "before_min", s->ecmp_before.min, "before_max",
            s->ecmp_before.max, "unrouted_before", (json_int_t)s->ecmp_before.unrouted,
            "after_min", s->ecmp_after.min, "after_max", s->ecmp_after.max, "unrouted",
            (json_int_t)s->ecmp_after.unrouted, "leaf_pairs_before",
            (json_int_t)s->ecmp_before.pairs));
    if (!m || !s->trained) {
        json_object_set_new(j, "training", json_null());
        return;
    }
    const ry_iter_degraded *d = &s->train;
    json_object_set_new(j, "training", json_pack(
        "{s:f, s:o, s:f, s:f, s:f, s:o, s:f, s:o, s:f, s:f, s:f, s:f, s:o, s:o, s:b}",
        "bs_ratio", r->bs_ratio, "gating_domain",
        r->gating_domain >= 0 ? json_integer(r->gating_domain) : json_null(),
        "bs_before_bytes_per_s", d->bs_before, "bs_after_bytes_per_s", d->bs_after,
        "t_iter_before_s", d->before.total, "t_iter_after_s", num_or_null(d->after.total),
        "dp_cross_before_s", d->before.dp_cross, "dp_cross_after_s",
        num_or_null(d->after.dp_cross), "allreduce_bytes_per_gpu", d->v_bytes,
        "nvlink_extra_bytes_max", d->fwd_bytes_max, "nvlink_extra_bytes_total",
        d->fwd_bytes_total, "nvlink_extra_s", d->nvlink_s, "nvlink_extra_share",
        num_or_null(d->after.total > 0 ? d->nvlink_s / d->after.total : 0), "slowdown",
        num_or_null(d->slowdown), "stalled", d->stalled));
    if (!s->routing)
        return;
    json_t *e = json_object();
    json_object_set_new(e, "routing", json_string(s->routing));
    if (!s->engine) {
        json_object_set_new(e, "error", json_string(s->eng_err ? s->eng_err : ""));
    } else {
        for (int k = 0; k < 2; k++) {
            const ry_plan_cfg *c = k ? s->eng_after : s->eng_before;
            int un = k ? s->eng_unrouted_after : s->eng_unrouted_before;
            /* a phase without a route has no time: nothing of it is given */
            json_object_set_new(e, k ? "after" : "before", json_pack(
                "{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o}",
                "t_iter_s", un ? json_null() : json_real(c->total),
                "dp_cross_s", un ? json_null() : json_real(c->dp_cross_s),
                "pp_s", un ? json_null() : json_real(c->pp),
                "share_data", un ? json_null() : json_real(c->share_dp),
                "share_pipeline", un ? json_null() : json_real(c->share_pp),
                "share_context", un ? json_null() : json_real(c->share_cp),
                "share_expert", un ? json_null() : json_real(c->share_ep),
                "unrouted_phases", un,
                "no_route", un ? json_string(k ? s->eng_why_after : s->eng_why_before)
                               : json_null()));
        }
        int stalled = s->eng_unrouted_before || s->eng_unrouted_after;
        json_object_set_new(e, "slowdown", stalled || !(s->eng_before->total > 0) ? json_null()
                            : json_real(s->eng_after->total / s->eng_before->total));
        json_object_set_new(e, "stalled", json_boolean(stalled));
    }
    json_object_set_new(j, "engine", e);
}

static void whatif_json(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_whatif_side *sides,
                        int ns)
{
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(s->name));
    json_object_set_new(j, "gpus", json_integer(s->gpus));
    json_object_set_new(j, "design", json_string(ry_design_name(sides[0].design)));
    json_object_set_new(j, "failed", elems_json(sides[0].elems, sides[0].nelems));
    const ry_model *m = pl ? &pl->base : NULL;
    if (pl)
        json_object_set_new(j, "workload",
                            json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "model", m->w.model.name,
                                      "mode", pl->paper ? "paper" : "full", "tensor",
                                      (json_int_t)(pl->paper ? m->best.NM : pl->best.t),
                                      "pipeline", (json_int_t)(pl->paper ? 1 : pl->best.p),
                                      "data", (json_int_t)(pl->paper ? m->in.N / m->best.NM
                                                                     : pl->best.d),
                                      "hb_domain", (json_int_t)m->in.K));
    if (pl) {
        ry_parallelism lay;
        ry_plan_parallelism(pl, &lay);
        json_object_set_new(j, "layout", ry_parallelism_json(&lay));
    }
    if (pl && m->has_moe)
        json_object_set_new(json_object_get(j, "workload"), "moe_all_to_all_left_out_s",
                            json_real(m->moe_s));
    side_json(j, &sides[0], m);
    if (ns > 1) {
        json_t *c = json_object();
        json_object_set_new(c, "design", json_string(ry_design_name(sides[1].design)));
        if (!sides[1].f) {
            json_object_set_new(c, "error", json_string(sides[1].err ? sides[1].err : ""));
        } else {
            json_object_set_new(c, "failed", elems_json(sides[1].elems, sides[1].nelems));
            json_object_set_new(c, "unmapped", elems_json(sides[1].unmapped, sides[1].nunmapped));
            side_json(c, &sides[1], m);
        }
        json_object_set_new(j, "counterpart", c);
    } else {
        json_object_set_new(j, "counterpart", json_null());
    }
    ry_json_out(o, j, 10);
}

void ry_emit_whatif(ry_buf *o, const ry_spec *s, const ry_plan *pl, const ry_whatif_side *sides,
                    int nsides, ry_format fmt)
{
    if (fmt == RY_FMT_JSON) {
        whatif_json(o, s, pl, sides, nsides);
    } else if (pl) {
        ry_parallelism lay;
        ry_buf t;
        ry_plan_parallelism(pl, &lay);
        ry_buf_init(&t);
        whatif_text(&t, s, pl, sides, nsides);
        ry_emit_with_parallelism(o, t.data, t.len, &lay);
        ry_buf_free(&t);
    } else
        whatif_text(o, s, pl, sides, nsides);
}

/* ---- sweeps -------------------------------------------------------------------------------- */

static const char *spare_unit(const ry_whatif_sweep *w)
{
    return strcmp(w->kind, "cable") == 0 ? "spare uplinks per switch" : "spare switches";
}

static void sweep_text(ry_buf *o, const ry_whatif_sweep *w)
{
    const ry_spec *s = w->s;
    char g[32];
    ry_num_int(g, sizeof g, s->gpus);
    ry_buf_printf(o, "what if: %s, %s GPUs; %d..%d random %s failures, %d draw%s each "
                  "(seeds %llu..%llu)\n", s->name, g, w->lo, w->hi, w->kind, w->seeds,
                  w->seeds == 1 ? "" : "s", w->seed0, w->seed0 + (unsigned long long)w->seeds - 1);
    if (s->spares.switches || s->spares.uplinks)
        ry_buf_printf(o, "spares swapped in (spec): %d switch%s, %d uplink%s per switch\n",
                      s->spares.switches, s->spares.switches == 1 ? "" : "es", s->spares.uplinks,
                      s->spares.uplinks == 1 ? "" : "s");
    if (!w->m)
        ry_buf_puts(o, "no workload: section in the spec, so no slowdown (add one to model the "
                       "iteration time)\n");
    for (int d = 0; d < w->nsides; d++) {
        ry_buf_printf(o, "\n%s%s\n", ry_design_name(w->side[d].design), d == 0 ? " (spec)" : "");
        if (w->side[d].err) {
            ry_buf_printf(o, "  not swept: %s\n", w->side[d].err);
            continue;
        }
        if (w->m && w->side[d].engine)
            ry_buf_printf(o, "  slowdown on the flow engine (routing %s; the layout's "
                          "collectives routed around each draw's failures)\n",
                          w->routing);
        else if (w->m && w->side[d].engine_err)
            ry_buf_printf(o, "  slowdown analytic: the flow engine could not be used (%s)\n",
                          w->side[d].engine_err);
        ry_buf_printf(o, "  %8s  %-19s  %-19s  %-19s  %s\n", "failures",
                      w->m ? "slowdown mean/worst" : "", "bandwidth kept", "GPUs cut off",
                      "stalled");
        for (int n = w->lo; n <= w->hi; n++) {
            const ry_fsweep_stats *p = &w->side[d].pts[n - w->lo];
            if (!p->ok) {
                ry_buf_printf(o, "  %8d  (the design has fewer than %d)\n", n, n);
                continue;
            }
            char slow[40] = "", bw[40], cut[40];
            if (w->m) {
                if (isfinite(p->slow_mean))
                    snprintf(slow, sizeof slow, "%.4fx %.4fx", p->slow_mean, p->slow_worst);
                else
                    snprintf(slow, sizeof slow, "-");
            }
            snprintf(bw, sizeof bw, "%.2f%% %.2f%%", 100 * p->bw_mean, 100 * p->bw_worst);
            snprintf(cut, sizeof cut, "%.3f%% %.3f%%", 100 * p->cut_mean, 100 * p->cut_worst);
            ry_buf_printf(o, "  %8d  %-19s  %-19s  %-19s  %d/%d\n", n, slow, bw, cut, p->stalled,
                          p->runs);
        }
    }
    if (w->m && w->side[0].needed != -2) {
        ry_buf_printf(o, "\n%s in all (the spec's included) to keep the worst slowdown of %d %s "
                      "failure%s at or under %.4gx%s:\n", spare_unit(w), w->hi, w->kind,
                      w->hi == 1 ? "" : "s", w->target,
                      strcmp(w->kind, "cable") == 0 ? " (a NIC's cable has no spare)" : "");
        for (int d = 0; d < w->nsides; d++) {
            if (w->side[d].err)
                continue;
            if (w->side[d].needed >= 0)
                ry_buf_printf(o, "  %-22s %d\n", ry_design_name(w->side[d].design),
                              w->side[d].needed);
            else
                ry_buf_printf(o, "  %-22s more than %d\n", ry_design_name(w->side[d].design),
                              w->spares_max);
        }
    }
    ry_buf_puts(o, "\n(slowdown: iteration time after / before, mean over the draws that run; bandwidth "
                   "kept: the slowest HB domain's\nnetwork bandwidth; stalled: draws where an HB "
                   "domain has no network left)\n");
}

static void sweep_json(ry_buf *o, const ry_whatif_sweep *w)
{
    const ry_spec *s = w->s;
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(s->name));
    json_object_set_new(j, "gpus", json_integer(s->gpus));
    json_object_set_new(j, "kind", json_string(w->kind));
    json_object_set_new(j, "failures", json_pack("[i, i]", w->lo, w->hi));
    json_object_set_new(j, "draws", json_integer(w->seeds));
    if (w->pl) {
        ry_parallelism lay;
        ry_plan_parallelism(w->pl, &lay);
        json_object_set_new(j, "layout", ry_parallelism_json(&lay));
    }
    json_int_t last = (json_int_t)(w->seed0 + (unsigned long long)w->seeds - 1);
    json_object_set_new(j, "seeds", json_pack("[I, I]", (json_int_t)w->seed0, last));
    json_object_set_new(j, "spares", json_pack("{s:i, s:i}", "switches", s->spares.switches,
                                               "uplinks", s->spares.uplinks));
    json_t *ds = json_array();
    for (int d = 0; d < w->nsides; d++) {
        json_t *x = json_object();
        json_object_set_new(x, "design", json_string(ry_design_name(w->side[d].design)));
        json_object_set_new(x, "role", json_string(d == 0 ? "spec" : "counterpart"));
        if (w->side[d].err) {
            json_object_set_new(x, "error", json_string(w->side[d].err));
            json_array_append_new(ds, x);
            continue;
        }
        if (w->m) {
            json_object_set_new(x, "slowdown_on", json_string(w->side[d].engine ? "engine"
                                                                                 : "analytic"));
            if (w->side[d].engine_err)
                json_object_set_new(x, "engine_error", json_string(w->side[d].engine_err));
        }
        json_t *pts = json_array();
        for (int n = w->lo; n <= w->hi; n++) {
            const ry_fsweep_stats *p = &w->side[d].pts[n - w->lo];
            json_t *q = json_object();
            json_object_set_new(q, "failures", json_integer(n));
            json_object_set_new(q, "valid", json_boolean(p->ok));
            if (p->ok) {
                json_object_set_new(q, "draws", json_integer(p->runs));
                json_object_set_new(q, "stalled", json_integer(p->stalled));
                json_object_set_new(q, "gpus_cut_mean", json_real(p->cut_mean));
                json_object_set_new(q, "gpus_cut_worst", json_real(p->cut_worst));
                json_object_set_new(q, "bandwidth_kept_mean", json_real(p->bw_mean));
                json_object_set_new(q, "bandwidth_kept_worst", json_real(p->bw_worst));
                if (w->m) {
                    json_object_set_new(q, "slowdown_mean", num_or_null(p->slow_mean));
                    json_object_set_new(q, "slowdown_worst", num_or_null(p->slow_worst));
                }
            }
            json_array_append_new(pts, q);
        }
        json_object_set_new(x, "points", pts);
        if (w->m && w->side[d].needed != -2)
            json_object_set_new(x, "spares_needed",
                                json_pack("{s:f, s:i, s:s, s:o}", "target", w->target,
                                          "failures", w->hi, "unit", spare_unit(w), "count",
                                          w->side[d].needed >= 0 ? json_integer(w->side[d].needed)
                                                                 : json_null()));
        json_array_append_new(ds, x);
    }
    json_object_set_new(j, "designs", ds);
    ry_json_out(o, j, 10);
}

void ry_emit_whatif_sweep(ry_buf *o, const ry_whatif_sweep *w, ry_format fmt)
{
    if (fmt == RY_FMT_JSON) {
        sweep_json(o, w);
    } else if (w->pl) {
        ry_parallelism lay;
        ry_buf t;
        ry_plan_parallelism(w->pl, &lay);
        ry_buf_init(&t);
        sweep_text(&t, w);
        ry_emit_with_parallelism(o, t.data, t.len, &lay);
        ry_buf_free(&t);
    } else
        sweep_text(o, w);
}

void ry_emit_whatif_sweep_csv(ry_buf *o, const ry_whatif_sweep *w)
{
    ry_buf_puts(o, "design,kind,failures,draws,stalled,slowdown_mean,slowdown_worst,"
                   "bandwidth_kept_mean,bandwidth_kept_worst,gpus_cut_mean,gpus_cut_worst");
    ry_csv_end(o);
    for (int d = 0; d < w->nsides; d++) {
        if (w->side[d].err)
            continue;
        for (int n = w->lo; n <= w->hi; n++) {
            const ry_fsweep_stats *p = &w->side[d].pts[n - w->lo];
            if (!p->ok)
                continue;
            ry_buf_printf(o, "%s,%s,%d,%d,%d,", ry_design_name(w->side[d].design), w->kind, n,
                          p->runs, p->stalled);
            if (w->m && isfinite(p->slow_mean))
                ry_buf_printf(o, "%.6f,%.6f,", p->slow_mean, p->slow_worst);
            else
                ry_buf_puts(o, ",,");
            ry_buf_printf(o, "%.6f,%.6f,%.6f,%.6f%s", p->bw_mean, p->bw_worst, p->cut_mean,
                          p->cut_worst, ry_csv_eol());
        }
    }
}

void ry_emit_whatif_sweep_script(ry_buf *o, const ry_whatif_sweep *w)
{
    ry_buf t;
    ry_buf_init(&t);
    ry_buf_printf(&t, "railyard whatif --sweep: %s failures on %s.", w->kind, w->s->name);
    ry_buf_puts(o, "# ");
    ry_escape_str(o, t.data, RY_ESC_LINE);
    ry_buf_puts(o, "\n# Run: gnuplot whatif-sweep.gp (writes whatif-sweep.png and "
                   "whatif-sweep.svg)\n");
    for (int d = 0; d < w->nsides; d++) {
        ry_buf_printf(o, "$D%d << EOD\n", d);
        for (int n = w->lo; n <= w->hi && !w->side[d].err; n++) {
            const ry_fsweep_stats *p = &w->side[d].pts[n - w->lo];
            if (!p->ok)
                continue;
            double sm = w->m ? p->slow_mean : p->bw_mean, sw = w->m ? p->slow_worst : p->bw_worst;
            if (!isfinite(sm))
                ry_buf_printf(o, "%d ? ? %.6f %.6f\n", n, 100 * p->cut_mean, 100 * p->cut_worst);
            else
                ry_buf_printf(o, "%d %.6f %.6f %.6f %.6f\n", n, w->m ? sm : 100 * sm,
                              w->m ? sw : 100 * sw, 100 * p->cut_mean, 100 * p->cut_worst);
        }
        ry_buf_puts(o, "EOD\n");
    }
    /* The spec's design wide and pale under its counterpart, narrow: where
     * the two agree (a lost leaf costs both the same) both stay visible. */
    ry_buf_puts(o, "set datafile missing '?'\nset style data linespoints\nset grid\n"
                   "set linetype 1 lc rgb '#9ecae1' lw 6 pt 7 ps 2\n"
                   "set linetype 2 lc rgb '#d62728' lw 2 pt 5 ps 0.8\n");
    ry_buf_reset(&t);
    ry_buf_printf(&t, "%s failures", w->kind);
    ry_buf_puts(o, "set xlabel ");
    ry_escape_str(o, t.data, RY_ESC_GNUPLOT);
    ry_buf_printf(o, "\nset xrange [%g:%g]\nset xtics 1\n", w->lo - 0.3, w->hi + 0.3);
    ry_buf_reset(&t);
    ry_buf_printf(&t, "%s: %d draws per point (solid: mean, dashed: worst)", w->s->name,
                  w->seeds);
    for (int pass = 0; pass < 2; pass++) {
        ry_gp_terminal(o, pass, 1400, 560, "whatif-sweep");
        ry_buf_puts(o, "set multiplot layout 1,2 title ");
        ry_escape_str(o, t.data, RY_ESC_GNUPLOT);
        ry_buf_putc(o, '\n');
        ry_buf_puts(o, "set key top left box opaque\n");
        if (w->m)
            ry_buf_puts(o, "set ylabel 'iteration time after / before'\nset yrange [1:*]\n"
                           "set title 'Iteration time'\nplot ");
        else
            ry_buf_puts(o, "set ylabel 'network bandwidth kept, slowest HB domain (%)'\n"
                           "set yrange [0:105]\nset title 'Bandwidth kept'\nplot ");
        for (int d = 0; d < w->nsides; d++)
            ry_buf_printf(o, "%s$D%d using 1:2 lt %d title '%s', $D%d using 1:3 lt %d dt 2 notitle",
                          d ? ", " : "", d, d + 1, ry_design_name(w->side[d].design), d, d + 1);
        ry_buf_puts(o, "\nset ylabel 'GPUs cut off the network (%)'\nset yrange [0:*]\n"
                       "set title 'GPUs cut off'\nplot ");
        for (int d = 0; d < w->nsides; d++)
            ry_buf_printf(o, "%s$D%d using 1:4 lt %d title '%s', $D%d using 1:5 lt %d dt 2 notitle",
                          d ? ", " : "", d, d + 1, ry_design_name(w->side[d].design), d, d + 1);
        ry_buf_puts(o, "\nunset multiplot\nset output\n");
    }
    ry_buf_free(&t);
}
