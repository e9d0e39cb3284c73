/* Diagrams in DOT. The aggregated views (summary, rail=N, unit=N) walk the
 * graph once into boxes (a set of switches of one tier and plane, or a set
 * of HB domains) and bundles (the links between two boxes), and draw those:
 * a fabric of a million GPUs gives a few dozen boxes, and every count on
 * the drawing is a count of the graph's nodes and links, not a formula.
 *
 * Boxes are keyed so that rows line up: a switch's key is its pod (tier 1,
 * 2: the tier-2 block it sits in; above: the first pod below it), with the
 * rail in front where rails are drawn apart (rail-only summary, unit view).
 * A row with too many keys is cut into at most COLS ranges of a power-of-two
 * width shared by every row of the plane, so a range of pods below lines up
 * with the blocks above it. Colours are the cabling plan's (ry_rail_color):
 * a line has the colour of its cable, grey when it carries several rails. */
#include "config.h"

#include "emit/emit_dot.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/colors.h"
#include "fabric/names.h"
#include "util/diag.h"
#include "util/proc.h"

#define COLS 8              /* boxes per tier row and plane, when aggregated */
#define LEAF_SINGLE 16      /* rail and unit views name up to this many leaves */
#define UPPER_SINGLE 8      /* ... and this many switches of an upper tier */
#define HB_SINGLE 8         /* the unit view draws up to this many HB domains one by one */
#define HB_CELLS 16         /* rail ports drawn on an HB box of the unit view, at most */
#define LABEL_LINES 4       /* more lines than this, all alike, between two tiers: one note */
#define KEY_BITS 40
#define KEY_MIXED ((1ULL << KEY_BITS) - 1)

#define FONT "Helvetica,Arial,sans-serif"
#define GREY_FILL "#f2f2f2"
#define GREY_LINE "#707070"
#define HB_FILL "#fbf5e6"
#define HB_LINE "#8a7650"

/* ---- small formatting helpers ------------------------------------------- */

/* 1016 -> "1,016" */
static const char *fmt_count(char *buf, size_t n, long long x)
{
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%lld", x < 0 ? -x : x);
    size_t o = 0;
    if (x < 0 && o + 1 < n)
        buf[o++] = '-';
    for (int i = 0; i < len && o + 1 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0 && o + 1 < n)
            buf[o++] = ',';
        if (o + 1 < n)
            buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
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
    for (; *s; s++) {
        switch (*s) {
        case '&': ry_buf_puts(b, "&amp;"); break;
        case '<': ry_buf_puts(b, "&lt;"); break;
        case '>': ry_buf_puts(b, "&gt;"); break;
        case '"': ry_buf_puts(b, "&quot;"); break;
        default: ry_buf_putc(b, *s);
        }
    }
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

/* ---- a small hash map: 64-bit key -> index ------------------------------ */

typedef struct map {
    uint64_t *k;
    int32_t *v;
    size_t cap, n;
} map;

static size_t map_hash(uint64_t k, size_t cap)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 17) & (cap - 1);
}

static void map_free(map *m)
{
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* The value slot of key: -1 when new (the caller sets it). */
static int32_t *map_slot(map *m, uint64_t key)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        uint64_t *nk = ry_xcalloc(nc, sizeof *nk);
        int32_t *nv = ry_xmalloc(nc * sizeof *nv);
        for (size_t i = 0; i < nc; i++)
            nv[i] = -1;
        for (size_t i = 0; i < m->cap; i++) {
            if (m->v[i] < 0)
                continue;
            size_t h = map_hash(m->k[i], nc);
            while (nv[h] >= 0)
                h = (h + 1) & (nc - 1);
            nk[h] = m->k[i];
            nv[h] = m->v[i];
        }
        free(m->k);
        free(m->v);
        m->k = nk;
        m->v = nv;
        m->cap = nc;
    }
    size_t h = map_hash(key, m->cap);
    while (m->v[h] >= 0 && m->k[h] != key)
        h = (h + 1) & (m->cap - 1);
    if (m->v[h] < 0) {
        m->k[h] = key;
        m->n++;
    }
    return &m->v[h];
}

/* ---- views --------------------------------------------------------------- */

int ry_view_parse(const char *text, ry_view *v)
{
    const char *num = NULL;
    if (strcmp(text, "summary") == 0) {
        v->kind = RY_VIEW_SUMMARY;
    } else if (strcmp(text, "full") == 0) {
        v->kind = RY_VIEW_FULL;
    } else if (strncmp(text, "rail=", 5) == 0) {
        v->kind = RY_VIEW_RAIL;
        num = text + 5;
    } else if (strncmp(text, "unit=", 5) == 0) {
        v->kind = RY_VIEW_UNIT;
        num = text + 5;
    } else {
        return -1;
    }
    v->n = 0;
    if (num) {
        char *end;
        errno = 0;
        long long x = strtoll(num, &end, 10);
        if (errno || end == num || *end != '\0')
            return -2;
        v->n = x;
    }
    return 0;
}

void ry_view_list(const ry_fabric *f, char *buf, size_t n)
{
    char r[32] = "0", u[32] = "0";
    if (f->rails > 1)
        snprintf(r, sizeof r, "0-%d", f->rails - 1);
    if (f->num_units > 1)
        snprintf(u, sizeof u, "0-%d", f->num_units - 1);
    snprintf(buf, n, "summary, rail=N (N = %s), unit=N (N = %s), full", r, u);
}

int ry_view_check(const ry_fabric *f, const ry_view *v, char *msg, size_t n)
{
    if (v->kind == RY_VIEW_RAIL && (v->n < 0 || v->n >= f->rails)) {
        if (f->rails == 1)
            snprintf(msg, n, "no rail %lld: %s has one rail, rail=0", v->n, f->spec->name);
        else
            snprintf(msg, n, "no rail %lld: %s has %d rails, rail=0 to rail=%d", v->n,
                     f->spec->name, f->rails, f->rails - 1);
        return -1;
    }
    if (v->kind == RY_VIEW_UNIT && (v->n < 0 || v->n >= f->num_units)) {
        if (f->num_units == 1)
            snprintf(msg, n, "no scalable unit %lld: %s has one, unit=0", v->n, f->spec->name);
        else
            snprintf(msg, n, "no scalable unit %lld: %s has %d, unit=0 to unit=%d", v->n,
                     f->spec->name, f->num_units, f->num_units - 1);
        return -1;
    }
    return 0;
}

/* ---- boxes and bundles ---------------------------------------------------- */

typedef struct box {
    uint64_t tag;           /* sort key: tier (top first), plane, column */
    int hb;                 /* HB domains (GPUs), not switches */
    int single;             /* one switch or one HB domain, drawn by name */
    uint32_t first;         /* first switch, or first GPU */
    int tier, plane;
    long long count;        /* switches, or HB domains */
    long long gpus;         /* GPUs drawn (HB boxes) */
    long long dom_lo, dom_hi;
    int rail_lo, rail_hi;   /* rails carried; -1 none */
    int unit_lo, unit_hi;   /* scalable units (leaves of rail designs, HB domains); -1 none */
    int grp_lo, grp_hi;     /* pods (tier 2) or blocks (higher) */
    int cells;              /* unit view: one port cell per rail and plane */
} box;

typedef struct bundle {
    uint64_t key;
    int up, down;           /* boxes */
    int port;               /* GPU port cell on the lower box, or -1 */
    long long n;
    double gbps;            /* sum over the links */
    double speed;           /* of each link; -1 when they differ */
    int rail;               /* the cables' rail; -1 several; -2 none yet */
} bundle;

typedef struct ctx {
    const ry_fabric *f;
    ry_view v;
    int K, gpn, S;
    long long domains;
    int32_t *pod;           /* per switch (id - first_switch) */
    int32_t *boxof;         /* per node: box; -1 not drawn; -2 drawn, no box yet */
    box *bx;
    size_t nbx, capbx, nsbx;        /* nsbx: switch boxes come first */
    map bmap;
    bundle *bd;
    size_t nbd, capbd;
    map dmap;
    int hb_single;
    char *quiet;            /* per bundle: drawn without a label (see note_bundles) */
    char note[RY_MAX_TIERS + 1][160];  /* by upper tier: what each unlabelled line is */
} ctx;

static const ry_node *owner(const ry_fabric *f, uint32_t port)
{
    return &f->nodes[f->ports[port].owner];
}

/* The cable rail of a link, as the cabling plan colours it: the GPU's rail
 * on a server's cable; above, the upper switch's when it serves one rail. */
static int link_rail(const ry_node *lo, const ry_node *hi)
{
    if (lo->kind == RY_NODE_GPU)
        return lo->rail;
    return hi->rail >= 0 && hi->nrails <= 1 ? hi->rail : -1;
}

/* Speed of a link: the switch port's, or the NIC's when that is slower. */
static double link_gbps(const ry_fabric *f, const ry_node *lo)
{
    double g = f->spec->sw.port_gbps;
    if (lo->kind == RY_NODE_GPU && f->spec->node.nic_gbps > 0 && f->spec->node.nic_gbps < g)
        g = f->spec->node.nic_gbps;
    return g;
}

static int carries(const ry_node *n, long long rail)
{
    if (n->rail < 0)
        return 0;
    int nr = n->nrails > 0 ? n->nrails : 1;
    return rail >= n->rail && rail < (long long)n->rail + nr;
}

/* Pod of every switch: leaves the tier-2 block above them, tier 2 its own,
 * higher tiers the first pod below them; 0 where there is no tier 2. */
static void compute_pods(ctx *c)
{
    const ry_fabric *f = c->f;
    size_t nsw = f->nnodes - f->first_switch;
    c->pod = ry_xmalloc((nsw ? nsw : 1) * sizeof *c->pod);
    for (size_t i = 0; i < nsw; i++) {
        const ry_node *n = &f->nodes[f->first_switch + i];
        c->pod[i] = n->tier == 2 ? n->group : n->tier == 1 ? -1 : INT32_MAX;
    }
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *lo = owner(f, f->links[l].lo), *hi = owner(f, f->links[l].hi);
        if (lo->kind == RY_NODE_SWITCH && lo->tier == 1 && hi->tier == 2) {
            int32_t *p = &c->pod[f->ports[f->links[l].lo].owner - f->first_switch];
            if (*p < 0)
                *p = hi->group;
        }
    }
    for (int j = 3; j <= f->tiers; j++)
        for (size_t l = 0; l < f->nlinks; l++) {
            uint32_t a = f->ports[f->links[l].lo].owner, b = f->ports[f->links[l].hi].owner;
            if (f->nodes[b].tier != j || f->nodes[a].kind != RY_NODE_SWITCH)
                continue;
            int32_t pa = c->pod[a - f->first_switch];
            int32_t *pb = &c->pod[b - f->first_switch];
            if (pa >= 0 && pa < *pb)
                *pb = pa;
        }
    for (size_t i = 0; i < nsw; i++)
        if (c->pod[i] < 0 || c->pod[i] == INT32_MAX)
            c->pod[i] = 0;
}

/* Marks what the view draws: boxof = -2 for drawn nodes, -1 for the rest. */
static void select_nodes(ctx *c)
{
    const ry_fabric *f = c->f;
    c->boxof = ry_xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *c->boxof);
    for (size_t i = 0; i < f->nnodes; i++) {
        const ry_node *n = &f->nodes[i];
        int on = 1;
        if (c->v.kind == RY_VIEW_RAIL)
            on = n->kind == RY_NODE_GPU ? n->rail == c->v.n : carries(n, c->v.n);
        else if (c->v.kind == RY_VIEW_UNIT)
            on = n->kind == RY_NODE_GPU && n->group / c->S == c->v.n;
        c->boxof[i] = on ? -2 : -1;
    }
    if (c->v.kind != RY_VIEW_UNIT)
        return;
    /* the unit's leaves, then upwards every switch a drawn switch links to */
    for (int j = 0; j < f->tiers; j++)
        for (size_t l = 0; l < f->nlinks; l++) {
            uint32_t a = f->ports[f->links[l].lo].owner, b = f->ports[f->links[l].hi].owner;
            if (f->nodes[a].tier == j && c->boxof[a] == -2)
                c->boxof[b] = -2;
        }
}

static box *new_box(ctx *c, uint64_t tag, int32_t *slot)
{
    if (c->nbx == c->capbx) {
        c->capbx = c->capbx ? c->capbx * 2 : 64;
        c->bx = ry_xrealloc(c->bx, c->capbx * sizeof *c->bx);
    }
    box *x = &c->bx[c->nbx];
    memset(x, 0, sizeof *x);
    x->tag = tag;
    x->rail_lo = x->rail_hi = -1;
    x->unit_lo = x->unit_hi = -1;
    x->grp_lo = x->grp_hi = -1;
    x->dom_lo = x->dom_hi = -1;
    *slot = (int32_t)c->nbx++;
    return x;
}

static void widen(int *lo, int *hi, int a, int b)
{
    if (a < 0)
        return;
    if (*lo < 0 || a < *lo)
        *lo = a;
    if (b > *hi)
        *hi = b;
}

static int cmp_tag(const void *a, const void *b)
{
    const box *x = a, *y = b;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* Sorts boxes [from, nbx) by tag and renumbers the nodes that point at them. */
static void sort_boxes(ctx *c, size_t from)
{
    size_t n = c->nbx - from;
    if (n == 0)
        return;
    uint64_t *tags = ry_xmalloc(n * sizeof *tags);
    for (size_t i = 0; i < n; i++)
        tags[i] = c->bx[from + i].tag;
    qsort(c->bx + from, n, sizeof *c->bx, cmp_tag);
    /* tags are unique: find each old box's new place */
    int32_t *remap = ry_xmalloc(n * sizeof *remap);
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (c->bx[from + mid].tag < tags[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        remap[i] = (int32_t)(from + lo);
    }
    for (size_t i = 0; i < c->f->nnodes; i++)
        if (c->boxof[i] >= (int32_t)from)
            c->boxof[i] = remap[c->boxof[i] - (int32_t)from];
    free(remap);
    free(tags);
}

static long long pow2_width(long long span, int cols)
{
    long long w = 1;
    while ((span + w - 1) / w > cols)
        w *= 2;
    return w;
}

static void make_switch_boxes(ctx *c)
{
    const ry_fabric *f = c->f;
    int P = f->planes, T = f->tiers;
    size_t nsw = f->nnodes - f->first_switch;
    int32_t maxpod = 0;
    for (size_t i = 0; i < nsw; i++)
        if (c->pod[i] > maxpod)
            maxpod = c->pod[i];
    long long podw = 1;
    while (podw <= maxpod)
        podw *= 2;
    int rail_major = c->v.kind == RY_VIEW_UNIT
                     || (c->v.kind == RY_VIEW_SUMMARY && f->design == RY_DESIGN_RAIL_ONLY);

    long long *kmin = ry_xmalloc((size_t)P * sizeof *kmin), *kmax = ry_xmalloc((size_t)P * sizeof *kmax);
    long long *rowcount = ry_xcalloc((size_t)P * (size_t)(T + 1), sizeof *rowcount);
    for (int p = 0; p < P; p++) {
        kmin[p] = -1;
        kmax[p] = -1;
    }
    long long *key = ry_xmalloc((nsw ? nsw : 1) * sizeof *key);
    for (size_t i = 0; i < nsw; i++) {
        uint32_t id = f->first_switch + (uint32_t)i;
        const ry_node *n = &f->nodes[id];
        if (c->boxof[id] != -2)
            continue;
        key[i] = c->pod[i] + (rail_major ? (long long)(n->rail < 0 ? 0 : n->rail) * podw : 0);
        if (kmin[n->plane] < 0 || key[i] < kmin[n->plane])
            kmin[n->plane] = key[i];
        if (key[i] > kmax[n->plane])
            kmax[n->plane] = key[i];
        rowcount[(size_t)n->plane * (size_t)(T + 1) + n->tier]++;
    }
    for (size_t i = 0; i < nsw; i++) {
        uint32_t id = f->first_switch + (uint32_t)i;
        const ry_node *n = &f->nodes[id];
        if (c->boxof[id] != -2)
            continue;
        long long rows = rowcount[(size_t)n->plane * (size_t)(T + 1) + n->tier];
        int single = c->v.kind != RY_VIEW_SUMMARY
                     && rows <= (n->tier == 1 ? LEAF_SINGLE : UPPER_SINGLE);
        long long w = pow2_width(kmax[n->plane] - kmin[n->plane] + 1, COLS);
        uint64_t col = single ? (uint64_t)n->index : (uint64_t)((key[i] - kmin[n->plane]) / w);
        uint64_t tag = ((uint64_t)(15 - n->tier) << 56) | ((uint64_t)n->plane << KEY_BITS) | col;
        int32_t *slot = map_slot(&c->bmap, tag);
        box *x;
        if (*slot < 0) {
            x = new_box(c, tag, slot);
            x->single = single;
            x->first = id;
            x->tier = n->tier;
            x->plane = n->plane;
        } else {
            x = &c->bx[*slot];
        }
        c->boxof[id] = *slot;
        x->count++;
        widen(&x->rail_lo, &x->rail_hi, n->rail, n->rail + (n->nrails > 0 ? n->nrails : 1) - 1);
        if (n->tier >= 2)
            widen(&x->grp_lo, &x->grp_hi, n->group, n->group);
        if (n->tier == 1 && f->design != RY_DESIGN_FAT_TREE && T > 1)
            widen(&x->unit_lo, &x->unit_hi, n->group, n->group);
    }
    free(key);
    free(rowcount);
    free(kmin);
    free(kmax);
    sort_boxes(c, 0);
    c->nsbx = c->nbx;
}

static void make_hb_boxes(ctx *c)
{
    const ry_fabric *f = c->f;
    long long d0 = 0, d1 = c->domains;
    long long w = 1;
    if (c->v.kind == RY_VIEW_UNIT) {
        d0 = c->v.n * c->S;
        d1 = d0 + c->S < c->domains ? d0 + c->S : c->domains;
        /* few rails: the domains in up to COLS boxes, each with a port per
         * rail, one line per port to its rail's leaf; many rails: one box */
        long long nd = d1 - d0;
        int cells = (long long)f->rails * f->planes <= HB_CELLS;
        c->hb_single = cells && nd <= HB_SINGLE;
        w = c->hb_single ? 1 : cells ? pow2_width(nd, COLS) : pow2_width(nd, 1);
    }
    for (long long d = d0; d < d1; d++) {
        uint32_t g0 = (uint32_t)(d * c->K);
        uint64_t key = KEY_MIXED;
        int first = 1, shown = 0;
        for (uint32_t g = g0; g < g0 + (uint32_t)c->K; g++) {
            if (c->boxof[g] != -2)
                continue;
            shown++;
            if (c->v.kind == RY_VIEW_UNIT)
                continue;
            /* the box of the leaf its plane-0 port hangs off */
            int32_t peer = f->ports[f->nodes[g].port0].peer;
            int32_t lb = peer < 0 ? -1 : c->boxof[f->ports[peer].owner];
            uint64_t k = lb < 0 ? KEY_MIXED : (uint64_t)lb;
            if (first)
                key = k;
            else if (k != key)
                key = KEY_MIXED;
            first = 0;
        }
        if (!shown)
            continue;
        if (c->v.kind == RY_VIEW_UNIT)
            key = (uint64_t)((d - d0) / w);
        uint64_t tag = (15ULL << 56) | key;
        int32_t *slot = map_slot(&c->bmap, tag);
        box *x;
        if (*slot < 0) {
            x = new_box(c, tag, slot);
            x->hb = 1;
            x->single = c->v.kind == RY_VIEW_UNIT && c->hb_single;
            x->first = g0;
            if (c->v.kind == RY_VIEW_UNIT && (long long)f->rails * f->planes <= HB_CELLS)
                x->cells = f->rails * f->planes;
        } else {
            x = &c->bx[*slot];
        }
        x->count++;
        x->gpus += shown;
        if (x->dom_lo < 0)
            x->dom_lo = d;
        x->dom_hi = d;
        widen(&x->unit_lo, &x->unit_hi, (int)(d / c->S), (int)(d / c->S));
        for (uint32_t g = g0; g < g0 + (uint32_t)c->K; g++) {
            if (c->boxof[g] != -2)
                continue;
            c->boxof[g] = *slot;
            widen(&x->rail_lo, &x->rail_hi, f->nodes[g].rail, f->nodes[g].rail);
        }
    }
    sort_boxes(c, c->nsbx);
}

static int cmp_bundle(const void *a, const void *b)
{
    const bundle *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void make_bundles(ctx *c)
{
    const ry_fabric *f = c->f;
    for (size_t l = 0; l < f->nlinks; l++) {
        uint32_t lp = f->links[l].lo, hp = f->links[l].hi;
        uint32_t a = f->ports[lp].owner, b = f->ports[hp].owner;
        int32_t ba = c->boxof[a], bb = c->boxof[b];
        if (ba < 0 || bb < 0)
            continue;
        const ry_node *lo = &f->nodes[a], *hi = &f->nodes[b];
        int port = -1;
        if (c->bx[ba].cells)
            port = lo->rail * f->planes + (int)(lp - lo->port0);
        uint64_t key = ((uint64_t)bb << 40) | ((uint64_t)ba << 16) | (uint64_t)(port + 1);
        int32_t *slot = map_slot(&c->dmap, key);
        if (*slot < 0) {
            if (c->nbd == c->capbd) {
                c->capbd = c->capbd ? c->capbd * 2 : 64;
                c->bd = ry_xrealloc(c->bd, c->capbd * sizeof *c->bd);
            }
            bundle *nb = &c->bd[c->nbd];
            memset(nb, 0, sizeof *nb);
            nb->key = key;
            nb->up = bb;
            nb->down = ba;
            nb->port = port;
            nb->speed = link_gbps(f, lo);
            nb->rail = -2;
            *slot = (int32_t)c->nbd++;
        }
        bundle *x = &c->bd[*slot];
        double g = link_gbps(f, lo);
        x->n++;
        x->gbps += g;
        if (g != x->speed)
            x->speed = -1;
        int r = link_rail(lo, hi);
        if (x->rail == -2)
            x->rail = r;
        else if (x->rail != r)
            x->rail = -1;
    }
    qsort(c->bd, c->nbd, sizeof *c->bd, cmp_bundle);
}

/* Many lines between two tiers, all alike, get one note in the legend
 * instead of a label each: labels of crossing lines are hard to tell apart.
 * Lines from an HB box's ports are counted in the box's text. */
static void note_bundles(ctx *c)
{
    const ry_fabric *f = c->f;
    c->quiet = ry_xcalloc(c->nbd ? c->nbd : 1, 1);
    for (int t = 1; t <= f->tiers; t++) {
        size_t n = 0;
        int alike = 1;
        const bundle *first = NULL;
        for (size_t i = 0; i < c->nbd; i++) {
            const bundle *e = &c->bd[i];
            if (c->bx[e->up].tier != t || e->port >= 0)
                continue;
            if (first && (e->n != first->n || e->speed != first->speed || e->speed < 0))
                alike = 0;
            if (!first)
                first = e;
            n++;
        }
        if (c->v.kind == RY_VIEW_SUMMARY || n <= LABEL_LINES || !alike)
            continue;
        for (size_t i = 0; i < c->nbd; i++)
            if (c->bx[c->bd[i].up].tier == t)
                c->quiet[i] = 1;
        char cnt[32], sp[32], bw[48];
        snprintf(c->note[t], sizeof c->note[t], "Each line from a %s down to a %s: %s x %s = %s.",
                 ry_tier_name(t, f->tiers), t > 1 ? ry_tier_name(t - 1, f->tiers) : "box of HB domains",
                 fmt_count(cnt, sizeof cnt, first->n), fmt_speed(sp, sizeof sp, first->speed),
                 fmt_bw(bw, sizeof bw, first->gbps));
    }
    for (size_t i = 0; i < c->nbd; i++)
        if (c->bd[i].port >= 0)
            c->quiet[i] = 1;
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
    ry_buf_printf(b, "<BR/><FONT POINT-SIZE=\"11\">%s, %s GPUs in %s HB domains of %d, %d rail%s, ",
                  ry_design_name(f->design), fmt_count(gpus, sizeof gpus, f->gpus),
                  fmt_count(doms, sizeof doms, nd), s->hb_domain, f->rails, f->rails == 1 ? "" : "s");
    if (f->planes > 1)
        ry_buf_printf(b, "%d planes, ", f->planes);
    ry_buf_printf(b, "%d tier%s of ", f->tiers, f->tiers == 1 ? "" : "s");
    put_html(b, s->sw.name);
    ry_buf_printf(b, " (%d x %gG)</FONT>>];\n", s->sw.radix, s->sw.port_gbps);
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

static void host_range(const ctx *c, const box *x, char *buf, size_t n)
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
static void hb_text(const ctx *c, const box *x, char *l1, char *l2, char *l3, size_t n)
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
static void switch_text(const ctx *c, const box *x, char *l1, char *l2, size_t n)
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
            fmt_range(u, sizeof u, "unit", x->unit_lo, x->unit_hi);
    } else if (x->tier >= 2 && x->tier < f->tiers && x->grp_lo >= 0) {
        fmt_range(u, sizeof u, x->tier == 2 ? "pod" : "block", x->grp_lo, x->grp_hi);
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

static void box_node(ry_buf *b, const ctx *c, size_t i)
{
    const ry_fabric *f = c->f;
    const box *x = &c->bx[i];
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

static void bundle_edge(ry_buf *b, const ctx *c, size_t i)
{
    const bundle *e = &c->bd[i];
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
    if (!c->quiet[i] && (e->n > 1 || c->v.kind == RY_VIEW_SUMMARY)) {
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
static void legend(ry_buf *b, const ctx *c)
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
        if (c->note[tt][0]) {
            ry_buf_puts(b, "<BR/>");
            put_html(b, c->note[tt]);
        }
    ry_buf_puts(b, "</FONT></TD></TR>");
    if (c->v.kind == RY_VIEW_RAIL)
        rail_row(b, f, (int)c->v.n, (int)c->v.n, 4);
    else
        rail_row(b, f, 0, f->rails - 1, 4);
    ry_buf_puts(b, "</TABLE>>];\n");
}

static void write_aggregated(ry_buf *b, ctx *c)
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
        snprintf(what, sizeof what, "scalable unit %lld of %d (%s HB domain%s)", c->v.n,
                 f->num_units, fmt_count(cnt, sizeof cnt, doms), doms == 1 ? "" : "s");
    }
    graph_header(b, f, what);

    /* switches, plane by plane (a cluster each when there are several) */
    for (int p = 0; p < f->planes; p++) {
        if (f->planes > 1)
            ry_buf_printf(b, "  subgraph cluster_plane%d {\n  label=<<B>plane %d</B>>; "
                             "style=\"rounded,dashed\"; color=\"#999999\"; fontsize=12;\n", p, p);
        for (size_t i = 0; i < c->nsbx; i++)
            if (c->bx[i].plane == p)
                box_node(b, c, i);
        if (f->planes > 1)
            ry_buf_puts(b, "  }\n");
    }
    for (size_t i = c->nsbx; i < c->nbx; i++)
        box_node(b, c, i);
    legend(b, c);

    /* one row per tier across the planes, boxes kept in their order (rail,
     * pod, unit) by invisible lines; HB domains, then the legend, at the bottom */
    for (int tier = f->tiers; tier >= 0; tier--) {
        long long prev = -1;
        for (size_t i = 0; i < c->nbx; i++) {
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
    ry_buf_puts(b, "}\n");
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
        ry_buf_printf(b, " [color=\"#%s\", tooltip=\"", ry_rail_color(link_rail(lo, hi)));
        /* host names come from the spec's pattern: keep the tooltip a plain string */
        for (const char *p = name; *p; p++)
            if (*p != '"' && *p != '\\')
                ry_buf_putc(b, *p);
        ry_buf_printf(b, " port %d - ", ry_port_number(f, hp));
        for (const char *p = other; *p; p++)
            if (*p != '"' && *p != '\\')
                ry_buf_putc(b, *p);
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

void ry_emit_dot(ry_buf *b, const ry_fabric *f, const ry_view *v)
{
    if (v->kind == RY_VIEW_FULL) {
        write_full(b, f);
        return;
    }
    ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.v = *v;
    c.K = f->spec->hb_domain > 0 ? f->spec->hb_domain : 1;
    c.gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    c.S = f->su_domains > 0 ? f->su_domains : 1;
    c.domains = f->gpus / c.K;
    compute_pods(&c);
    select_nodes(&c);
    make_switch_boxes(&c);
    make_hb_boxes(&c);
    make_bundles(&c);
    note_bundles(&c);
    write_aggregated(b, &c);
    free(c.quiet);
    free(c.pod);
    free(c.boxof);
    free(c.bx);
    free(c.bd);
    map_free(&c.bmap);
    map_free(&c.dmap);
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
    char rel[512];
    snprintf(rel, sizeof rel, "%s/%s", prefix, name);
    return ry_outdir_put(o, rel, b->data, b->len);
}

int ry_emit_diagrams(ry_outdir *o, const char *prefix, const ry_fabric *f)
{
    static const struct { const char *name; ry_view_kind kind; } views[] = {
        { "summary", RY_VIEW_SUMMARY }, { "rail0", RY_VIEW_RAIL }, { "unit0", RY_VIEW_UNIT },
    };
    int render = 1, rc = 0;
    for (size_t i = 0; i < sizeof views / sizeof *views && rc == 0; i++) {
        ry_view v = { views[i].kind, 0 };
        ry_buf dot, svg;
        ry_buf_init(&dot);
        ry_buf_init(&svg);
        ry_emit_dot(&dot, f, &v);
        char file[64];
        snprintf(file, sizeof file, "%s.dot", views[i].name);
        rc = put_file(o, prefix, file, &dot);
        if (rc == 0 && render) {
            int r = ry_dot_render(dot.data, dot.len, "svg", &svg);
            if (r == RY_DOT_MISSING) {
                fprintf(stderr, "railyard: note: Graphviz's dot is not installed: %s/ has the "
                                "DOT files only\n", prefix);
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
