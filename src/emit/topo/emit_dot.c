/* Diagrams in DOT, from the boxes and bundles of analysis/diagram.h (the
 * full view walks the graph itself: every node and link). Colours are the
 * cabling plan's (ry_rail_color): a line has the colour of its cable, grey
 * when it carries several rails. */
#include "config.h"

#include "emit/topo/emit_dot.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/colors.h"
#include "emit/tier_text.h"
#include "util/numfmt.h"
#include "fabric/names.h"
#include "util/escape.h"
#include "util/diag.h"
#include "util/proc.h"

#define FONT "Helvetica,Arial,sans-serif"
#define GREY_FILL "#f2f2f2"
#define GREY_LINE "#707070"
#define HB_FILL "#fbf5e6"
#define HB_LINE "#8a7650"

/* ---- small formatting helpers ------------------------------------------- */

/* 1016 -> "1,016" */
static const char *fmt_count(char *buf, size_t n, long long x)
{
    return ry_num_int(buf, n, x);
}

/* One link's speed: 400 -> "400G". */
static const char *fmt_speed(char *buf, size_t n, double gbps)
{
    snprintf(buf, n, "%gG", gbps);
    return buf;
}

/* Aggregate bandwidth with one decimal: "409.6 Tb/s", "800 Gb/s". */
static const char *fmt_bw(char *buf, size_t n, double gbps)
{
    const char *unit = "Gb/s";
    double v = gbps;
    if (v >= 1e6) {
        v /= 1e6;
        unit = "Pb/s";
    } else if (v >= 1e3) {
        v /= 1e3;
        unit = "Tb/s";
    }
    char num[48];
    snprintf(num, sizeof num, "%.1f", v);
    size_t l = strlen(num);
    if (l > 2 && strcmp(num + l - 2, ".0") == 0)
        num[l - 2] = '\0';
    /* thousands separators on the integer part */
    char *dot = strchr(num, '.');
    long long ip = atoll(num);
    char ipart[40];
    fmt_count(ipart, sizeof ipart, ip);
    snprintf(buf, n, "%s%s %s", ipart, dot ? dot : "", unit);
    return buf;
}

/* Text inside an HTML-like label. */
static void put_html(ry_buf *b, const char *s)
{
    ry_escape_str(b, s, RY_ESC_XML);
}

/* "dgx-h100" -> "DGX H100": short words and words with digits upper-cased. */
static void model_display(const char *in, char *out, size_t n)
{
    size_t o = 0;
    const char *w = in;
    while (*w && o + 1 < n) {
        size_t len = strcspn(w, "-_ ");
        int digit = 0;
        for (size_t i = 0; i < len; i++)
            digit |= w[i] >= '0' && w[i] <= '9';
        int up = digit || len <= 3;
        for (size_t i = 0; i < len && o + 1 < n; i++) {
            char ch = w[i];
            if (up && ch >= 'a' && ch <= 'z')
                ch = (char)(ch - 'a' + 'A');
            out[o++] = ch;
        }
        w += len;
        if (*w) {
            if (o + 1 < n)
                out[o++] = ' ';
            w++;
        }
    }
    out[o] = '\0';
}

static int hexval(char ch)
{
    return ch >= 'a' ? ch - 'a' + 10 : ch >= 'A' ? ch - 'A' + 10 : ch - '0';
}

/* A rail colour mixed with white: pct percent of the colour is kept. */
static void tint(const char *hex, int pct, char out[8])
{
    int v[3];
    for (int i = 0; i < 3; i++) {
        int c = hexval(hex[2 * i]) * 16 + hexval(hex[2 * i + 1]);
        v[i] = 255 - (255 - c) * pct / 100;
    }
    snprintf(out, 8, "#%02x%02x%02x", v[0], v[1], v[2]);
}

/* Whether white text reads better than black on this colour. */
static int is_dark(const char *hex)
{
    int r = hexval(hex[0]) * 16 + hexval(hex[1]);
    int g = hexval(hex[2]) * 16 + hexval(hex[3]);
    int bl = hexval(hex[4]) * 16 + hexval(hex[5]);
    return r * 299 + g * 587 + bl * 114 < 150000;
}

/* "leaves", "spines", "tier-4 switches"; singular when n == 1. */
static const char *tier_noun(char *buf, size_t n, int tier, int tiers, long long count)
{
    const char *t = ry_tier_name(tier, tiers);
    int one = count == 1;
    if (strcmp(t, "leaf") == 0)
        snprintf(buf, n, "%s", one ? "leaf" : "leaves");
    else if (strcmp(t, "switch") == 0)
        snprintf(buf, n, "%s", one ? "switch" : "switches");
    else if (strcmp(t, "top") == 0)
        snprintf(buf, n, "%s", one ? "top switch" : "top switches");
    else if (strcmp(t, "tier") == 0)
        snprintf(buf, n, "tier-%d %s", tier, one ? "switch" : "switches");
    else
        snprintf(buf, n, "%s%s", t, one ? "" : "s");
    return buf;
}

/* "rail 3", "rails 0-7"; "" when none. */
static const char *fmt_range(char *buf, size_t n, const char *what, long long lo, long long hi)
{
    if (lo < 0)
        buf[0] = '\0';
    else if (lo == hi)
        snprintf(buf, n, "%s %lld", what, lo);
    else
        snprintf(buf, n, "%ss %lld-%lld", what, lo, hi);
    return buf;
}

/* ---- DOT output ------------------------------------------------------------ */

static void graph_header(ry_buf *b, const ry_fabric *f, const char *what)
{
    const ry_spec *s = f->spec;
    char gpus[32], doms[32];
    long long nd = f->gpus / (s->hb_domain > 0 ? s->hb_domain : 1);
    ry_buf_puts(b, "digraph railyard {\n");
    ry_buf_puts(b, "  graph [fontname=\"" FONT "\", newrank=true, nodesep=0.35, ranksep=0.9, "
                   "pad=0.3, labelloc=t, fontsize=16,\n    label=<<B>");
    put_html(b, s->name);
    ry_buf_puts(b, "</B>: ");
    put_html(b, what);
    ry_buf_printf(b, "<BR/><FONT POINT-SIZE=\"11\">%s, %s GPUs in %s HB domain%s of %d, "
                  "%d rail%s, ",
                  ry_design_name(f->design), fmt_count(gpus, sizeof gpus, f->gpus),
                  fmt_count(doms, sizeof doms, nd), nd == 1 ? "" : "s", s->hb_domain, f->rails,
                  f->rails == 1 ? "" : "s");
    if (f->planes > 1)
        ry_buf_printf(b, "%d planes, ", f->planes);
    if (s->n_tier > 0) {
        /* a fabric.tiers list: each tier's model and its ports, a line each */
        char ports[128];
        ry_buf_printf(b, "%d tier%s:", f->tiers, f->tiers == 1 ? "" : "s");
        for (int t = 1; t <= f->tiers; t++) {
            ry_buf_printf(b, "<BR/>%s ", ry_tier_name(t, f->tiers));
            put_html(b, f->tier[t].sw->name);
            ry_buf_printf(b, " (%s)", ry_tier_ports_text(ports, sizeof ports, &f->tier[t]));
        }
        ry_buf_puts(b, "</FONT>>];\n");
    } else {
        ry_buf_printf(b, "%d tier%s of ", f->tiers, f->tiers == 1 ? "" : "s");
        put_html(b, s->sw.name);
        ry_buf_printf(b, " (%d x %gG)</FONT>>];\n", s->sw.radix, s->sw.port_gbps);
    }
    ry_buf_puts(b, "  node [fontname=\"" FONT "\", fontsize=11];\n");
    ry_buf_puts(b, "  edge [fontname=\"" FONT "\", fontsize=10, fontcolor=\"#333333\", dir=none];\n");
}

/* A strip of rail colours (one cell per rail, the palette's twelve at most),
 * nested so that the box's padding keeps it inside the rounded border. */
static void colour_strip(ry_buf *b, int ncol, int lo, int hi)
{
    int n = hi - lo + 1;
    if (n > 12)
        n = 12;
    ry_buf_printf(b, "<TR><TD COLSPAN=\"%d\" CELLPADDING=\"2\"><TABLE BORDER=\"0\" "
                     "CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\"><TR>", ncol);
    for (int i = 0; i < n; i++)
        ry_buf_printf(b, "<TD BGCOLOR=\"#%s\" HEIGHT=\"5\" WIDTH=\"%d\"></TD>",
                      ry_rail_color(lo + i), 96 / n);
    ry_buf_puts(b, "</TR></TABLE></TD></TR>");
}

static void host_range(const ry_diagram *c, const ry_diagram_box *x, char *buf, size_t n)
{
    const ry_fabric *f = c->f;
    int gpn = c->gpn;
    long long n0 = x->dom_lo * c->K / gpn;
    long long n1 = (x->dom_hi * c->K + c->K - 1) / gpn;
    char a[96], z[96];
    ry_host_name(f, n0, a, sizeof a);
    ry_host_name(f, n1, z, sizeof z);
    if (n0 == n1)
        snprintf(buf, n, "%s", a);
    else
        snprintf(buf, n, "%s - %s", a, z);
}

/* The text of an HB box: l1 bold, l2 and l3 small. */
static void hb_text(const ry_diagram *c, const ry_diagram_box *x, char *l1, char *l2, char *l3, size_t n)
{
    char model[RY_NAME_MAX + 8], cnt[32], hosts[200];
    const char *mn = c->f->spec->node.name;
    /* an inline node without a name of its own is just a node */
    int named = mn[0] && strcmp(mn, "custom") != 0 && strcmp(mn, "generic") != 0;
    if (named)
        model_display(mn, model, sizeof model);
    else
        snprintf(model, sizeof model, "%s", x->count == 1 ? "node" : "nodes");
    host_range(c, x, hosts, sizeof hosts);
    fmt_count(cnt, sizeof cnt, x->count);
    int server = c->gpn == c->K;        /* a server is the HB domain */
    if (x->single && server)
        snprintf(l1, n, "%s", hosts);
    else if (x->single)
        snprintf(l1, n, "HB domain %lld", x->dom_lo);
    else if (server)
        snprintf(l1, n, "%s %s", cnt, model);
    else
        snprintf(l1, n, "%s HB domain%s", cnt, x->count == 1 ? "" : "s");
    if (server)
        snprintf(l2, n, "%s%s%d GPUs, NVLink", x->single && named ? model : "",
                 x->single && named ? ", " : "", c->K);
    else if (c->gpn < c->K)
        snprintf(l2, n, "%d GPUs, NVLink (%d %s%s)", c->K, c->K / c->gpn,
                 named ? "x " : "", named ? model : "nodes");
    else
        snprintf(l2, n, "%d GPUs, NVLink (%d per %s)", c->K, c->gpn / c->K,
                 named ? model : "node");
    l3[0] = '\0';
    if (c->v.kind == RY_VIEW_RAIL) {
        char g[32];
        snprintf(l3, n, "%s rail-%lld GPU%s: %s", fmt_count(g, sizeof g, x->gpus), c->v.n,
                 x->gpus == 1 ? "" : "s", hosts);
    } else if (!(x->single && server)) {
        snprintf(l3, n, "%s", hosts);
    }
    if (x->cells && x->gpus > x->cells) {
        size_t len = strlen(l3);
        snprintf(l3 + len, n - len, "%s%lld links per port", len ? "; " : "",
                 x->gpus / x->cells * c->f->planes);
    }
}

/* The text of a switch box. */
static void switch_text(const ry_diagram *c, const ry_diagram_box *x, char *l1, char *l2, size_t n)
{
    const ry_fabric *f = c->f;
    char t[64], r[64], u[64], per[48];
    if (x->single) {
        ry_node_name(f, x->first, l1, n);
    } else {
        char cnt[32];
        snprintf(l1, n, "%s %s", fmt_count(cnt, sizeof cnt, x->count),
                 tier_noun(t, sizeof t, x->tier, f->tiers, x->count));
    }
    fmt_range(r, sizeof r, "rail", x->rail_lo, x->rail_hi);
    per[0] = '\0';
    int nr = x->rail_hi - x->rail_lo + 1;
    if (!x->single && f->design == RY_DESIGN_RAIL_ONLY && x->rail_lo >= 0 && nr > 1
        && x->count % nr == 0 && x->count > nr)
        snprintf(per, sizeof per, " (%lld per rail)", x->count / nr);
    u[0] = '\0';
    if (x->unit_lo >= 0 && f->num_units > 1) {
        if (x->unit_lo == 0 && x->unit_hi == f->num_units - 1 && !x->single)
        {
            char nu[32];
            snprintf(u, sizeof u, "%s units", fmt_count(nu, sizeof nu, f->num_units));
        }
        else
            fmt_range(u, sizeof u, "unit", x->unit_lo + 1, x->unit_hi + 1);   /* from 1 */
    } else if (x->tier >= 2 && x->tier < f->tiers && x->grp_lo >= 0) {
        fmt_range(u, sizeof u, x->tier == 2 ? "pod" : "block", x->grp_lo + 1,
                  x->grp_hi + 1);   /* from 1, as Slurm's podN and t3-blockN */
    }
    snprintf(l2, n, "%s%s%s%s", r, per, r[0] && u[0] ? ", " : "", u);
}

static void text_row(ry_buf *b, int ncol, const char *text, int bold)
{
    if (!text[0])
        return;
    ry_buf_printf(b, "<TR><TD COLSPAN=\"%d\">%s", ncol, bold ? "<B>" : "<FONT POINT-SIZE=\"9\">");
    put_html(b, text);
    ry_buf_printf(b, "%s</TD></TR>", bold ? "</B>" : "</FONT>");
}

static void box_node(ry_buf *b, const ry_diagram *c, size_t i)
{
    const ry_fabric *f = c->f;
    const ry_diagram_box *x = &c->bx[i];
    char l1[320], l2[320], l3[320];
    l2[0] = l3[0] = '\0';
    const char *fill = GREY_FILL, *line = GREY_LINE;
    char tfill[8], tline[8];
    if (x->hb) {
        fill = HB_FILL;
        line = HB_LINE;
        hb_text(c, x, l1, l2, l3, sizeof l1);
    } else {
        if (x->rail_lo >= 0 && x->rail_lo == x->rail_hi) {
            const char *rc = ry_rail_color(x->rail_lo);
            tint(rc, 18, tfill);
            tint(rc, 100, tline);
            fill = tfill;
            line = tline;
        }
        switch_text(c, x, l1, l2, sizeof l1);
        if (f->spec->n_tier > 0 && x->tier >= 1 && x->tier <= f->tiers) {
            /* each tier its own model: the box says which, and its ports */
            const ry_tier_ports *t = &f->tier[x->tier];
            char ports[128];
            snprintf(l3, sizeof l3, "%s: %s", t->sw->name,
                     ry_tier_ports_text(ports, sizeof ports, t));
        }
    }
    ry_buf_printf(b, "  b%zu [shape=plain, label=<<TABLE BORDER=\"1\" CELLBORDER=\"0\" "
                     "CELLSPACING=\"0\" CELLPADDING=\"3\" STYLE=\"rounded\" COLOR=\"%s\" "
                     "BGCOLOR=\"%s\">", i, line, fill);
    if (x->cells) {
        /* the NIC ports by rail (and plane), in the rail's colour; lines
         * leave from their tops */
        ry_buf_puts(b, "<TR><TD CELLPADDING=\"2\"><TABLE BORDER=\"0\" CELLBORDER=\"0\" "
                       "CELLSPACING=\"1\" CELLPADDING=\"1\"><TR>");
        for (int p = 0; p < x->cells; p++) {
            int rail = p / f->planes;
            const char *rc = ry_rail_color(rail);
            char lab[32];
            if (f->planes > 1)
                snprintf(lab, sizeof lab, "%d.%d", rail, p % f->planes);
            else
                snprintf(lab, sizeof lab, "%d", rail);
            ry_buf_printf(b, "<TD PORT=\"p%d\" BGCOLOR=\"#%s\" WIDTH=\"14\"><FONT "
                             "POINT-SIZE=\"7\" COLOR=\"%s\">%s</FONT></TD>",
                          p, rc, is_dark(rc) ? "white" : "black", lab);
        }
        ry_buf_puts(b, "</TR></TABLE></TD></TR>");
    }
    text_row(b, 1, l1, 1);
    text_row(b, 1, l2, 0);
    text_row(b, 1, l3, 0);
    if (!x->hb && x->rail_lo >= 0)
        colour_strip(b, 1, x->rail_lo, x->rail_hi);
    ry_buf_puts(b, "</TABLE>>];\n");
}

static void bundle_edge(ry_buf *b, const ry_diagram *c, size_t i)
{
    const ry_diagram_bundle *e = &c->bd[i];
    char col[8] = "#9e9e9e";
    snprintf(col, sizeof col, "#%s", ry_rail_color(e->rail));
    /* lines to a port cell fan out from the middle of the leaf's bottom */
    if (e->port >= 0)
        ry_buf_printf(b, "  b%d:s -> b%d:p%d:n", e->up, e->down, e->port);
    else
        ry_buf_printf(b, "  b%d -> b%d", e->up, e->down);
    int pw = 1;
    for (long long n = e->n; n > 4; n /= 4)
        pw++;
    ry_buf_printf(b, " [color=\"%s\", penwidth=%d", col, pw > 5 ? 5 : pw);
    if (!e->quiet && (e->n > 1 || c->v.kind == RY_VIEW_SUMMARY)) {
        char n[32], sp[32], bw[48];
        fmt_count(n, sizeof n, e->n);
        if (e->speed > 0)
            ry_buf_printf(b, ", label=\"%s x %s = %s\"", n, fmt_speed(sp, sizeof sp, e->speed),
                          fmt_bw(bw, sizeof bw, e->gbps));
        else
            ry_buf_printf(b, ", label=\"%s links = %s\"", n, fmt_bw(bw, sizeof bw, e->gbps));
    }
    ry_buf_puts(b, "];\n");
}

/* A legend row of rail colours, lo to hi (the palette's twelve at most). */
static void rail_row(ry_buf *b, const ry_fabric *f, int lo, int hi, int span)
{
    int n = hi - lo + 1 > 12 ? 12 : hi - lo + 1;
    /* coloured squares in one line of text: Graphviz would stretch a row
     * of table cells to the legend's width */
    ry_buf_printf(b, "<TR><TD COLSPAN=\"%d\" ALIGN=\"LEFT\"><FONT POINT-SIZE=\"10\">rail ", span);
    for (int i = 0; i < n; i++)
        ry_buf_printf(b, "<FONT POINT-SIZE=\"14\" COLOR=\"#%s\">&#9632;</FONT>%d  ",
                      ry_rail_color(lo + i), lo + i);
    ry_buf_printf(b, "<FONT POINT-SIZE=\"14\" COLOR=\"#%s\">&#9632;</FONT>several%s</FONT>"
                     "</TD></TR>",
                  ry_rail_color(-1), f->rails > 12 && n == 12 ? " (colours repeat every 12 rails)" : "");
}

/* The legend: what a box and a line are, the rail colours, and the totals
 * per tier of what is drawn. */
static void legend(ry_buf *b, const ry_diagram *c)
{
    const ry_fabric *f = c->f;
    char n1[32], n2[32], bw[48], t[64];
    ry_buf_puts(b, "  legend [shape=plain, label=<<TABLE BORDER=\"1\" COLOR=\"#bbbbbb\" "
                   "CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\">");
    ry_buf_puts(b, "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\"><B>Legend</B></TD></TR>");
    ry_buf_puts(b, "<TR><TD ALIGN=\"LEFT\"><B>tier</B></TD><TD ALIGN=\"RIGHT\"><B>drawn</B></TD>"
                   "<TD ALIGN=\"RIGHT\"><B>links below</B></TD><TD ALIGN=\"RIGHT\"><B>bandwidth"
                   "</B></TD></TR>");
    for (int tier = f->tiers; tier >= 1; tier--) {
        long long sw = 0, links = 0;
        double g = 0;
        for (size_t i = 0; i < c->nsbx; i++)
            if (c->bx[i].tier == tier)
                sw += c->bx[i].count;
        for (size_t i = 0; i < c->nbd; i++)
            if (!c->bx[c->bd[i].up].hb && c->bx[c->bd[i].up].tier == tier) {
                links += c->bd[i].n;
                g += c->bd[i].gbps;
            }
        if (!sw)
            continue;
        ry_buf_printf(b, "<TR><TD ALIGN=\"LEFT\">%d: %s</TD><TD ALIGN=\"RIGHT\">%s %s</TD>"
                         "<TD ALIGN=\"RIGHT\">%s</TD><TD ALIGN=\"RIGHT\">%s</TD></TR>",
                      tier, ry_tier_name(tier, f->tiers), fmt_count(n1, sizeof n1, sw),
                      tier_noun(t, sizeof t, tier, f->tiers, sw), fmt_count(n2, sizeof n2, links),
                      links ? fmt_bw(bw, sizeof bw, g) : "");
    }
    long long doms = 0, gpus = 0;
    for (size_t i = c->nsbx; i < c->nbx; i++) {
        doms += c->bx[i].count;
        gpus += c->bx[i].gpus;
    }
    ry_buf_printf(b, "<TR><TD ALIGN=\"LEFT\">0: GPUs</TD><TD ALIGN=\"RIGHT\">%s HB domain%s</TD>"
                     "<TD ALIGN=\"RIGHT\">%s GPUs</TD><TD></TD></TR>",
                  fmt_count(n1, sizeof n1, doms), doms == 1 ? "" : "s",
                  fmt_count(n2, sizeof n2, gpus));
    ry_buf_printf(b, "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\" BALIGN=\"LEFT\"><FONT POINT-SIZE=\"9\">"
                     "Box: switches of one tier and plane (count, rails carried, units or pods),"
                     "<BR/>or HB domains: GPUs joined by NVLink, with their host names.<BR/>"
                     "Line: a bundle of links, count x speed = bandwidth; colour of its cables'"
                     "<BR/>rail, grey when they carry several rails (as in the cabling plan).");
    for (int tt = f->tiers; tt >= 1; tt--)
        if (c->note[tt].n) {
            char note[160], cnt[32], sp[32], nbw[48];
            snprintf(note, sizeof note, "Each line from a %s down to a %s: %s x %s = %s.",
                     ry_tier_name(tt, f->tiers),
                     tt > 1 ? ry_tier_name(tt - 1, f->tiers) : "box of HB domains",
                     fmt_count(cnt, sizeof cnt, c->note[tt].n),
                     fmt_speed(sp, sizeof sp, c->note[tt].speed),
                     fmt_bw(nbw, sizeof nbw, c->note[tt].gbps));
            ry_buf_puts(b, "<BR/>");
            put_html(b, note);
        }
    ry_buf_puts(b, "</FONT></TD></TR>");
    if (c->v.kind == RY_VIEW_RAIL)
        rail_row(b, f, (int)c->v.n, (int)c->v.n, 4);
    else
        rail_row(b, f, 0, f->rails - 1, 4);
    ry_buf_puts(b, "</TABLE>>];\n");
}

static void pair_edges(ry_buf *b, const ry_diagram *c);

/* Planes p and p + 1 of fabric.homing dual-tor or dual-plane, one box
 * (cluster_pairN, N = p / 2) holding both. dual-plane: each plane is a
 * network up to the top, so its upper tiers stand in a box of their own
 * (cluster_planeP) inside; dual-tor: the two planes are one network under
 * one aggregation layer, whose switches stand in the pair's box itself.
 * The leaves stand in the pair's box, each beside the other ToR of its
 * pair: the ToR pair lines join neighbours and cross no plane's box. The
 * leaves' order, for the row's invisible chain, is appended to row1. */
static void pair_cluster(ry_buf *b, const ry_diagram *c, int p, size_t *row1, size_t *nrow1)
{
    const ry_fabric *f = c->f;
    int dual_tor = f->spec->homing == RY_HOMING_DUAL_TOR;
    int q = p + 1 < f->planes ? p + 1 : p;
    ry_buf_printf(b, "  subgraph cluster_pair%d {\n  label=<<B>planes %d and %d</B>: paired ToRs%s>; "
                     "style=\"rounded\"; color=\"#777777\"; fontsize=12;\n",
                  p / 2, p, q, dual_tor ? " under one aggregation layer" : "");
    for (int pl = p; pl <= q; pl++) {
        int any = 0;
        for (size_t i = 0; i < c->nsbx; i++)
            any |= c->bx[i].plane == pl && c->bx[i].tier >= 2;
        if (!any)
            continue;
        if (!dual_tor)
            ry_buf_printf(b, "  subgraph cluster_plane%d {\n  label=<<B>plane %d</B>>; "
                             "style=\"rounded,dashed\"; color=\"#999999\"; fontsize=12;\n",
                          pl, pl);
        for (size_t i = 0; i < c->nsbx; i++)
            if (c->bx[i].plane == pl && c->bx[i].tier >= 2)
                box_node(b, c, i);
        if (!dual_tor)
            ry_buf_puts(b, "  }\n");
    }
    /* leaves: each of plane p, then the other ToR of its pair; then the
     * unpaired of plane p + 1 */
    for (size_t i = 0; i < c->nsbx; i++) {
        const ry_diagram_box *x = &c->bx[i];
        if (x->tier != 1 || x->plane != p)
            continue;
        if (x->pair >= 0)       /* a box of its own keeps the two together */
            ry_buf_printf(b, "  subgraph cluster_tor%zu {\n  label=\"\"; style=\"rounded,dotted\"; "
                             "color=\"#bbbbbb\";\n", i);
        box_node(b, c, i);
        row1[(*nrow1)++] = i;
        if (x->pair >= 0) {
            box_node(b, c, (size_t)x->pair);
            row1[(*nrow1)++] = (size_t)x->pair;
            ry_buf_puts(b, "  }\n");
        }
    }
    for (size_t i = 0; i < c->nsbx; i++)
        if (q != p && c->bx[i].tier == 1 && c->bx[i].plane == q && c->bx[i].pair < 0) {
            box_node(b, c, i);
            row1[(*nrow1)++] = i;
        }
    ry_buf_puts(b, "  }\n");
}

static void write_aggregated(ry_buf *b, const ry_diagram *c)
{
    const ry_fabric *f = c->f;
    char what[160], cnt[32];
    if (c->v.kind == RY_VIEW_SUMMARY) {
        snprintf(what, sizeof what, "summary");
    } else if (c->v.kind == RY_VIEW_RAIL) {
        snprintf(what, sizeof what, "rail %lld of %d", c->v.n, f->rails);
    } else {
        long long doms = 0;
        for (size_t i = c->nsbx; i < c->nbx; i++)
            doms += c->bx[i].count;
        snprintf(what, sizeof what, "scalable unit %lld of %d (%s HB domain%s)", c->v.n + 1,
                 f->num_units, fmt_count(cnt, sizeof cnt, doms), doms == 1 ? "" : "s");
    }
    graph_header(b, f, what);

    /* switches, plane by plane (a cluster each when there are several); ToR
     * pairs (fabric.homing) by pair of planes */
    size_t *row1 = ry_xmalloc((c->nsbx ? c->nsbx : 1) * sizeof *row1);
    size_t nrow1 = 0;
    if (f->spec->homing == RY_HOMING_SINGLE) {
        for (int p = 0; p < f->planes; p++) {
            if (f->planes > 1)
                ry_buf_printf(b, "  subgraph cluster_plane%d {\n  label=<<B>plane %d</B>>; "
                                 "style=\"rounded,dashed\"; color=\"#999999\"; fontsize=12;\n",
                              p, p);
            for (size_t i = 0; i < c->nsbx; i++)
                if (c->bx[i].plane == p)
                    box_node(b, c, i);
            if (f->planes > 1)
                ry_buf_puts(b, "  }\n");
        }
        for (size_t i = 0; i < c->nsbx; i++)
            if (c->bx[i].tier == 1)
                row1[nrow1++] = i;
    } else {
        for (int p = 0; p < f->planes; p += 2)
            pair_cluster(b, c, p, row1, &nrow1);
    }
    for (size_t i = c->nsbx; i < c->nbx; i++)
        box_node(b, c, i);
    legend(b, c);

    /* one row per tier across the planes, boxes kept in their order (rail,
     * pod, unit) by invisible lines; HB domains, then the legend, at the bottom */
    for (int tier = f->tiers; tier >= 0; tier--) {
        long long prev = -1;
        for (size_t k = 0; k < (tier == 1 ? nrow1 : c->nbx); k++) {
            size_t i = tier == 1 ? row1[k] : k;
            if (c->bx[i].tier != tier || (tier == 0) != c->bx[i].hb)
                continue;
            if (prev < 0)
                ry_buf_puts(b, "  { rank=same;");
            else
                ry_buf_printf(b, " b%lld -> b%zu [style=invis];", prev, i);
            ry_buf_printf(b, " b%zu;", i);
            prev = (long long)i;
        }
        if (prev >= 0)
            ry_buf_puts(b, " }\n");
    }
    if (c->nbx > c->nsbx)
        ry_buf_printf(b, "  b%zu -> legend [style=invis, weight=0];\n", c->nbx - 1);

    for (size_t i = 0; i < c->nbd; i++)
        bundle_edge(b, c, i);
    pair_edges(b, c);
    ry_buf_puts(b, "}\n");
    free(row1);
}

/* fabric.homing dual-tor or dual-plane: the leaves of a ToR pair (the
 * boxes paired by analysis/diagram.c) joined by a dashed line, which
 * carries no link: the pair's two ToRs take the same GPUs, one NIC port
 * each. The two leaves stand side by side (pair_cluster), so the line is
 * short and stays in its pair's box. */
static void pair_edges(ry_buf *b, const ry_diagram *c)
{
    for (size_t i = 0; i < c->nsbx; i++) {
        const ry_diagram_box *x = &c->bx[i];
        if (x->tier == 1 && x->plane % 2 == 0 && x->pair >= 0)
            ry_buf_printf(b, "  b%zu -> b%d [dir=none, style=dashed, penwidth=2, "
                             "color=\"#555555\", constraint=false, label=<<FONT "
                             "POINT-SIZE=\"9\">ToR pair</FONT>>];\n", i, x->pair);
    }
}

/* ---- the full view: every node and link ---------------------------------- */

static void write_full(ry_buf *b, const ry_fabric *f)
{
    const ry_spec *s = f->spec;
    int K = s->hb_domain > 0 ? s->hb_domain : 1;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    char name[96], other[96];
    graph_header(b, f, "every node and link");
    ry_buf_puts(b, "  node [shape=box, style=\"rounded,filled\", fontsize=9, margin=\"0.04,0.02\", "
                   "height=0.25, width=0.3];\n");
    /* rows in name order, kept by invisible lines: plane, rail, unit */
    for (int tier = f->tiers; tier >= 1; tier--) {
        ry_buf_puts(b, "  { rank=same;\n");
        long long prev = -1;
        for (size_t i = f->first_switch; i < f->nnodes; i++) {
            const ry_node *n = &f->nodes[i];
            if (n->tier != tier)
                continue;
            char fill[8] = GREY_FILL, line[8] = GREY_LINE;
            if (n->rail >= 0 && n->nrails <= 1) {
                tint(ry_rail_color(n->rail), 25, fill);
                tint(ry_rail_color(n->rail), 100, line);
            }
            ry_node_name(f, (uint32_t)i, name, sizeof name);
            ry_buf_printf(b, "    n%zu [label=\"%s\", fillcolor=\"%s\", color=\"%s\"];\n", i, name,
                          fill, line);
            if (prev >= 0)
                ry_buf_printf(b, "    n%lld -> n%zu [style=invis];\n", prev, i);
            prev = (long long)i;
        }
        ry_buf_puts(b, "  }\n");
    }
    /* an HB domain is one box with a cell per GPU, the links ending on the
     * cells: boxes keep their order in a row, which clusters would not */
    long long domains = f->gpus / K;
    ry_buf_puts(b, "  { rank=same;\n");
    for (long long d = 0; d < domains; d++) {
        ry_buf_printf(b, "    h%lld [shape=plain, style=\"\", label=<<TABLE BORDER=\"1\" "
                         "CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"2\" STYLE=\"rounded\" "
                         "COLOR=\"" HB_LINE "\" BGCOLOR=\"" HB_FILL "\"><TR>", d);
        for (long long g = d * K; g < (d + 1) * K; g++) {
            const char *rc = ry_rail_color(f->nodes[g].rail);
            ry_buf_printf(b, "<TD PORT=\"g%lld\" BGCOLOR=\"#%s\"><FONT POINT-SIZE=\"8\" "
                             "COLOR=\"%s\">%lld</FONT></TD>",
                          g - d * K, rc, is_dark(rc) ? "white" : "black", g - d * K);
        }
        ry_buf_printf(b, "</TR><TR><TD COLSPAN=\"%d\"><FONT POINT-SIZE=\"9\">", K);
        if (gpn == K) {
            ry_host_name(f, d * K / gpn, name, sizeof name);
            put_html(b, name);
        } else {
            ry_buf_printf(b, "HB domain %lld", d);
        }
        ry_buf_puts(b, "</FONT></TD></TR></TABLE>>];\n");
        if (d > 0)
            ry_buf_printf(b, "    h%lld -> h%lld [style=invis];\n", d - 1, d);
    }
    ry_buf_puts(b, "  }\n");
    for (size_t l = 0; l < f->nlinks; l++) {
        uint32_t lp = f->links[l].lo, hp = f->links[l].hi;
        uint32_t a = f->ports[lp].owner, c = f->ports[hp].owner;
        const ry_node *lo = &f->nodes[a], *hi = &f->nodes[c];
        ry_node_name(f, c, name, sizeof name);
        if (lo->kind == RY_NODE_GPU)
            ry_ca_desc(f, lo->index * (uint32_t)f->planes + (lp - lo->port0), other, sizeof other);
        else
            ry_node_name(f, a, other, sizeof other);
        if (lo->kind == RY_NODE_GPU)
            ry_buf_printf(b, "  n%u -> h%d:g%d:n", c, lo->group, (int)(a % (uint32_t)K));
        else
            ry_buf_printf(b, "  n%u -> n%u", c, a);
        ry_buf_printf(b, " [color=\"#%s\", tooltip=\"", ry_rail_color(ry_diagram_link_rail(lo, hi)));
        /* host names come from the spec's pattern: escaped for a DOT string */
        ry_escape_str(b, name, RY_ESC_DOT);
        ry_buf_printf(b, " port %d - ", ry_port_number(f, hp));
        ry_escape_str(b, other, RY_ESC_DOT);
        if (lo->kind == RY_NODE_SWITCH)
            ry_buf_printf(b, " port %d", ry_port_number(f, lp));
        ry_buf_puts(b, "\"];\n");
    }
    ry_buf_puts(b, "  legend [shape=plain, style=\"\", label=<<TABLE BORDER=\"1\" COLOR=\"#bbbbbb\" "
                   "CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\"><TR><TD ALIGN=\"LEFT\">"
                   "<B>Legend</B></TD></TR><TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\"><FONT "
                   "POINT-SIZE=\"9\">Every switch, and every GPU as a cell of its HB domain's box "
                   "(numbered<BR/>within the domain); one line per link, in the colour of its "
                   "cable's rail,<BR/>grey when it carries several rails (as in the cabling plan). "
                   "A switch<BR/>serving one rail has its colour.</FONT></TD></TR>");
    rail_row(b, f, 0, f->rails - 1, 1);
    ry_buf_printf(b, "</TABLE>>];\n  h%lld -> legend [style=invis];\n", domains - 1);
    ry_buf_puts(b, "}\n");
}

void ry_emit_dot(ry_buf *b, const ry_diagram *d)
{
    if (d->v.kind == RY_VIEW_FULL)
        write_full(b, d->f);
    else
        write_aggregated(b, d);
}

/* ---- rendering with Graphviz ---------------------------------------------- */

int ry_dot_render(const char *dot, size_t len, const char *format, ry_buf *out)
{
    char fmtarg[32];
    snprintf(fmtarg, sizeof fmtarg, "-T%s", format);
    const char *argv[] = { "dot", fmtarg, NULL };
    ry_buf err, msg;
    ry_buf_init(&err);
    ry_buf_init(&msg);
    ry_proc p = { argv, NULL, dot, len, out, &err };
    ry_proc_result r;
    int rc = 0;
    if (ry_proc_run(&p, &r) == 0) {
        /* dot's warnings, as if it had written them itself */
        if (err.len)
            fwrite(err.data, 1, err.len, stderr);
        if (r.in_sent != len) {
            ry_error("dot %s did not read the whole diagram", fmtarg);
            rc = -1;
        }
    } else if (r.status == RY_PROC_NOT_FOUND && r.err == ENOENT) {
        rc = RY_DOT_MISSING;
    } else {
        ry_proc_describe(&p, &r, &msg);
        ry_error("%s", msg.data);
        rc = -1;
    }
    ry_buf_free(&err);
    ry_buf_free(&msg);
    return rc;
}

/* ---- the diagrams of railyard build ---------------------------------------- */

static int put_file(ry_outdir *o, const char *prefix, const char *name, const ry_buf *b)
{
    return ry_outdir_put_in(o, prefix, name, b->data, b->len);
}

int ry_emit_diagrams(ry_outdir *o, const char *prefix, const ry_fabric *f)
{
    static const struct { const char *name; ry_view_kind kind; } views[] = {
        { "summary", RY_VIEW_SUMMARY }, { "rail0", RY_VIEW_RAIL }, { "unit1", RY_VIEW_UNIT },
    };
    int render = 1, rc = 0;
    for (size_t i = 0; i < sizeof views / sizeof *views && rc == 0; i++) {
        ry_view v = { views[i].kind, 0 };
        ry_buf dot, svg;
        ry_buf_init(&dot);
        ry_buf_init(&svg);
        ry_diagram *d = ry_diagram_build(f, &v);
        ry_emit_dot(&dot, d);
        ry_diagram_free(d);
        char file[64];
        snprintf(file, sizeof file, "%s.dot", views[i].name);
        rc = put_file(o, prefix, file, &dot);
        if (rc == 0 && render) {
            int r = ry_dot_render(dot.data, dot.len, "svg", &svg);
            if (r == RY_DOT_MISSING) {
                ry_stderr_lock();
                fprintf(stderr, "railyard: note: Graphviz's dot is not installed: %s/ has the "
                                "DOT files only\n", prefix);
                ry_stderr_unlock();
                render = 0;
            } else if (r < 0) {
                ry_warn("%s/ has the DOT files only", prefix);
                render = 0;
            } else {
                snprintf(file, sizeof file, "%s.svg", views[i].name);
                rc = put_file(o, prefix, file, &svg);
            }
        }
        ry_buf_free(&dot);
        ry_buf_free(&svg);
    }
    return rc;
}
