/* cabling.xlsx: sheet "Cables" (the columns of cabling.csv, numbers as
 * numbers), "Labels" (a record per cable for label printing: the label,
 * the rail in its colour and both ends), "BOM" (the physical bill of
 * materials, its costs and totals as formulas), "Rails" (the colours'
 * legend) and the racks: one sheet per rack named after it (its elevation
 * from the top down, one row per cabled port with the cable, where its
 * other end goes, as "R01-09 U2 leaf0 1/1", and the part, medium and
 * length to take), or, past a number of racks, one list "Racks" with a row
 * per device (rack, unit, device, model, cables). A cable's rows are
 * filled with a tint of its rail's colour (emit/colors.h, the diagrams'
 * colours). Every sheet is set up to print: landscape A4 (Cables, of 23
 * columns, on A3), one page wide, the header row repeated (print_setup).
 *
 * Excel takes 1,048,576 rows a sheet, the header included: a list longer
 * than that continues on "Cables 2", "Cables 3", ... ("Labels 2", "Racks 2",
 * ...), each with the header row. The limits come from the caller
 * (ry_xlsx_limits), so a test can split a small fabric's lists. No other
 * limit of libxlsxwriter
 * is within reach: every string is a name of at most 255 bytes (cells take
 * 32,767 characters), there are no URLs, and in constant_memory mode strings
 * are written inline (no shared-string table) and each sheet's rows go
 * straight to a temporary file of its own (rows strictly in order), one
 * open file per sheet until the workbook is closed. When the soft limit on
 * open files is too low for one sheet per rack we raise it to the hard
 * limit; if even that is too low, the racks go to the Racks list and a
 * warning says so. A workbook whose XML could pass 4 GiB is written with
 * ZIP64 records (a zip member or archive of 4 GiB needs them).
 *
 * The lists' data rows (Cables, Labels, Racks), nearly all of a large
 * workbook, do not go through libxlsxwriter: it writes their sheets with
 * the header row, and the rows are deflated on the side and put in when it
 * has finished (ooxml/xlsx_rows.h), at a fifth of the time. The rack sheets and
 * the short sheets are libxlsxwriter's own.
 *
 * Same input, same bytes: the document's creation time is fixed (libxlsxwriter
 * would write the current time) and the zip entries carry fixed dates. */
#include "emit/cabling/emit_xlsx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "emit/colors.h"
#include "emit/format.h"
#include "ooxml/xlsx_book.h"
#include "util/cleanup.h"
#include "util/diag.h"

#define MAX_WIDTH 48
#define PAPER_A4 9                          /* Excel's paper codes */
#define PAPER_A3 8
/* A sheet of more columns than this (Cables: 23) prints on A3: fitted to
 * one A4 width its text shrinks past reading; A3 gives it 1.4 times the
 * width. */
#define A4_MAX_COLS 12
/* Text in 9 point on rows of 11.25 (15 pixels; the default is 11 on 15
 * points): a third more rows to a printed page, still read at arm's length
 * in front of a rack. (LibreOffice paginates rows of 12 points with a
 * blank page here and there.) */
#define FONT_PT 9
#define ROW_PT 11.25
#define MAX_COLOURS 32                      /* distinct rail colours (colors.c has 13) */

/* A sheet being written: the next row, and the widest text per column for
 * the column widths set at the end. A list (Cables, Racks) is a chain of
 * sheets: "NAME", "NAME 2", ..., each with the header and at most max data
 * rows. */
typedef struct sheet {
    lxw_worksheet *ws;
    lxw_row_t row;
    int ncols;
    int width[24];
    const char *name;
    const char *const *cols;
    int part;                   /* 1 for the list's first sheet */
    ry_xrows *rows;             /* a list's data rows, when streamed (ooxml/xlsx_rows.h) */
    size_t left;                /* data rows still to write, this sheet's included */
    size_t max;                 /* data rows a sheet holds */
} sheet;

typedef struct book {
    ry_xbook x;                 /* the workbook and its lists' rows (ooxml/xlsx_book.h) */
    lxw_workbook *wb;           /* x.wb */
    lxw_format *plain, *bold, *money;
    /* A format per rail colour, made when first used: a tint for the rows
     * of the rail's cables, the colour itself for a swatch. Keyed by the
     * pointer ry_rail_color returns (a fixed palette). */
    const char *hex[MAX_COLOURS];
    lxw_format *tint[MAX_COLOURS], *swatch[MAX_COLOURS];
    int ncolours;
    long long *rail_cables;     /* per rail + 1 (index 0: several rails) */
    int tinted;                 /* cable rows in their rail's tint (not past a sheet of them) */
    char header[LXW_HEADER_FOOTER_MAX + 1];
} book;

static void note(sheet *s, int col, size_t len)
{
    if ((int)len > s->width[col])
        s->width[col] = (int)len;
}

/* An empty text leaves the cell out, or blank with its format (a row's
 * fill runs through). */
static void put_str(book *b, sheet *s, int col, const char *v, lxw_format *fmt)
{
    if (s->rows) {
        if (v && *v) {
            if (!fmt)
                fmt = b->plain;
            note(s, col, strlen(v));
        }
        ry_xrows_str(s->rows, col, v, fmt ? lxw_format_get_xf_index(fmt) : -1);
        return;
    }
    if (!v || !*v) {
        if (fmt && worksheet_write_blank(s->ws, s->row, (lxw_col_t)col, fmt) != LXW_NO_ERROR)
            b->x.failed = 1;
        return;
    }
    if (!fmt)
        fmt = b->plain;
    char esc[2048];
    const char *t = ry_xlsx_text(v, esc, sizeof esc);
    if (!t || worksheet_write_string(s->ws, s->row, (lxw_col_t)col, t, fmt) != LXW_NO_ERROR)
        b->x.failed = 1;
    note(s, col, strlen(v));
}

/* Characters a number takes on screen, roughly: digits, separators and two
 * decimals for money, a few for a fraction (no printf per cell: a million
 * cells). */
static size_t num_width(double v, int money)
{
    size_t n = v < 0 ? 2 : 1;
    for (double a = v < 0 ? -v : v; a >= 10 && n < 20; a /= 10)
        n++;
    if (money)
        return n + n / 3 + 3;
    return v == (double)(long long)v ? n : n + 4;
}

static void put_num(book *b, sheet *s, int col, double v, lxw_format *fmt)
{
    if (!fmt)
        fmt = b->plain;
    if (s->rows)
        ry_xrows_num(s->rows, col, v, lxw_format_get_xf_index(fmt));
    else if (worksheet_write_number(s->ws, s->row, (lxw_col_t)col, v, fmt) != LXW_NO_ERROR)
        b->x.failed = 1;
    note(s, col, num_width(v, fmt == b->money));
}

/* A formula with its value computed here, so that readers which do not
 * recalculate show it too. */
static void put_formula(book *b, sheet *s, int col, const char *formula, double v,
                        lxw_format *fmt)
{
    if (!fmt)
        fmt = b->plain;
    if (worksheet_write_formula_num(s->ws, s->row, (lxw_col_t)col, formula, fmt, v)
        != LXW_NO_ERROR)
        b->x.failed = 1;
    note(s, col, num_width(v, fmt == b->money));
}

/* ---- colours ---------------------------------------------------------------------------------- */

static unsigned hex_rgb(const char *hex)
{
    return (unsigned)strtoul(hex, NULL, 16);
}

/* Each channel three fifths of the way to white: light enough for black
 * text, still telling the twelve hues apart. */
static unsigned tint_of(unsigned rgb)
{
    unsigned out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        unsigned c = (rgb >> sh) & 0xff;
        out |= (c + (255 - c) * 3 / 5) << sh;
    }
    return out;
}

/* The format of a rail's rows (swatch 0: the tint) or of its swatch (the
 * colour itself, white text on a dark one); NULL past MAX_COLOURS. */
static lxw_format *rail_fmt(book *b, int rail, int swatch)
{
    const char *hex = ry_rail_color(rail);
    int i = 0;
    while (i < b->ncolours && b->hex[i] != hex)
        i++;
    if (i == b->ncolours) {
        if (i == MAX_COLOURS)
            return NULL;
        unsigned rgb = hex_rgb(hex);
        unsigned lum = (299 * (rgb >> 16) + 587 * ((rgb >> 8) & 0xff) + 114 * (rgb & 0xff)) / 1000;
        b->hex[i] = hex;
        b->tint[i] = workbook_add_format(b->wb);
        format_set_font_size(b->tint[i], FONT_PT);
        format_set_pattern(b->tint[i], LXW_PATTERN_SOLID);
        format_set_bg_color(b->tint[i], (lxw_color_t)tint_of(rgb));
        b->swatch[i] = workbook_add_format(b->wb);
        format_set_font_size(b->swatch[i], FONT_PT);
        format_set_pattern(b->swatch[i], LXW_PATTERN_SOLID);
        format_set_bg_color(b->swatch[i], (lxw_color_t)rgb);
        format_set_font_color(b->swatch[i], lum < 140 ? LXW_COLOR_WHITE : LXW_COLOR_BLACK);
        format_set_align(b->swatch[i], LXW_ALIGN_CENTER);   /* apart from its neighbours */
        b->ncolours++;
    }
    return swatch ? b->swatch[i] : b->tint[i];
}

/* ---- sheets ----------------------------------------------------------------------------------- */

/* Every sheet prints landscape on A4 (A3 when wider than A4_MAX_COLS
 * columns), one page wide however long, the header row on every page,
 * gridlines as cell borders, the plan's name, the sheet's name and "page P
 * of N" in the margins. */
static void print_setup(book *b, lxw_worksheet *ws, int ncols)
{
    lxw_header_footer_options hf = { .margin = 0.25 };
    worksheet_set_default_row(ws, ROW_PT, LXW_FALSE);
    worksheet_set_landscape(ws);
    worksheet_set_paper(ws, ncols > A4_MAX_COLS ? PAPER_A3 : PAPER_A4);
    worksheet_fit_to_pages(ws, 1, 0);
    worksheet_gridlines(ws, LXW_SHOW_ALL_GRIDLINES);
    worksheet_set_margins(ws, 0.4, 0.4, 0.6, 0.6);
    if (worksheet_repeat_rows(ws, 0, 0) != LXW_NO_ERROR
        || worksheet_set_header_opt(ws, b->header, &hf) != LXW_NO_ERROR
        || worksheet_set_footer_opt(ws, "&CPage &P of &N", &hf) != LXW_NO_ERROR)
        b->x.failed = 1;
}

/* Header row in bold, frozen, with an autofilter over it and the rows below
 * down to filter_last (set first: in constant_memory mode libxlsxwriter
 * refuses ranges over rows already written out). */
static void start_sheet(book *b, sheet *s, const char *name, const char *const *cols,
                        lxw_row_t filter_last)
{
    memset(s, 0, sizeof *s);
    s->ws = ry_xbook_sheet(&b->x, name);
    if (!s->ws)
        return;
    for (s->ncols = 0; cols[s->ncols]; s->ncols++)
        put_str(b, s, s->ncols, cols[s->ncols], b->bold);
    print_setup(b, s->ws, s->ncols);
    s->row = 1;
    worksheet_freeze_panes(s->ws, 1, 0);
    if (worksheet_autofilter(s->ws, 0, 0, filter_last, (lxw_col_t)(s->ncols - 1)) != LXW_NO_ERROR)
        b->x.failed = 1;
}

static void end_sheet(sheet *s)
{
    if (!s->ws)
        return;
    /* Widths count characters of the default font (11 point). */
    for (int c = 0; c < s->ncols; c++) {
        int w = (s->width[c] * FONT_PT + 10) / 11 + 2;
        worksheet_set_column(s->ws, (lxw_col_t)c, (lxw_col_t)c, w > MAX_WIDTH ? MAX_WIDTH : w,
                             NULL);
    }
}

/* The name of a list's k-th sheet: "Cables", "Cables 2", ... */
static void part_name(const char *name, int k, char *out, size_t n)
{
    if (k == 1)
        snprintf(out, n, "%s", name);
    else
        snprintf(out, n, "%s %d", name, k);
}

static void open_part(book *b, sheet *s)
{
    char name[32];
    const char *base = s->name, *const *cols = s->cols;
    int part = s->part;
    size_t left = s->left, max = s->max;
    part_name(base, part, name, sizeof name);
    start_sheet(b, s, name, cols, (lxw_row_t)(left < max ? left : max));
    if (s->ws)
        s->rows = ry_xbook_rows(&b->x, s->ncols);
    s->name = base;
    s->cols = cols;
    s->part = part;
    s->left = left;
    s->max = max;
}

/* Starts a list of nrows data rows, max (>= 1) to a sheet. */
static void start_list(book *b, sheet *s, const char *name, const char *const *cols,
                       size_t nrows, size_t max)
{
    s->name = name;
    s->cols = cols;
    s->part = 1;
    s->left = nrows;
    s->max = max;
    open_part(b, s);
}

/* Before each data row of a list: a full sheet is closed and the next one
 * started. 0, or -1 when a sheet was refused. */
static int next_row(book *b, sheet *s)
{
    if (s->row > s->max) {
        end_sheet(s);
        s->part++;
        open_part(b, s);
    }
    if (!s->ws || !s->rows)
        return -1;
    ry_xrows_row(s->rows, s->row);
    return 0;
}

/* After each data row of a list. */
static void row_done(sheet *s)
{
    if (s->rows)
        ry_xrows_end(s->rows);
    s->row++;
    s->left--;
}

/* Sheets a list of nrows takes (one, with its header, when empty). */
static size_t list_sheets(size_t nrows, size_t max)
{
    return nrows ? (nrows + max - 1) / max : 1;
}

/* "R01-09 U2 leaf0 1/1": one end of a cable in one cell. */
static void far_end(char *buf, size_t n, const ry_cab_end *e);

/* ---- Cables ----------------------------------------------------------------------------------- */

static void end_cells(book *b, sheet *s, int col, const ry_cab_end *e, lxw_format *fmt)
{
    put_num(b, s, col, e->row, fmt);
    put_str(b, s, col + 1, e->rack_name, fmt);
    put_num(b, s, col + 2, e->unit, fmt);
    put_str(b, s, col + 3, e->device, fmt);
    put_str(b, s, col + 4, e->type, fmt);
    /* as cabling.csv: the port's number (a server's NIC name), then a
     * switch port's cage/port */
    if (e->is_server) {
        put_str(b, s, col + 5, e->port_name, fmt);
        put_str(b, s, col + 6, NULL, fmt);
    } else {
        put_num(b, s, col + 5, e->number, fmt);
        put_str(b, s, col + 6, e->port_name, fmt);
    }
}

static const char *const cable_cols[] = {
    "label", "a_row", "a_rack", "a_u", "a_device", "a_type", "a_port", "a_cage_port", "z_row",
    "z_rack", "z_u", "z_device", "z_type", "z_port", "z_cage_port", "media", "kind", "part",
    "length_m", "speed_gbps", "rail", "plane", "tier", NULL
};

/* Rows filled with the tint of the cable's rail; the cables per rail
 * counted for the Rails sheet. */
static void write_cables(book *b, const ry_cab_names *nm, size_t max)
{
    sheet s;
    start_list(b, &s, "Cables", cable_cols, nm->f->nlinks, max);
    ry_cab_row r;
    for (size_t l = 0; l < nm->f->nlinks; l++, row_done(&s)) {
        if (next_row(b, &s) < 0)
            return;
        ry_cab_row_of(nm, (uint32_t)l, &r);
        lxw_format *fmt = b->tinted ? rail_fmt(b, r.rail, 0) : NULL;
        if (r.rail < nm->f->rails)
            b->rail_cables[r.rail + 1]++;
        put_str(b, &s, 0, r.label, fmt);
        end_cells(b, &s, 1, &r.a, fmt);
        end_cells(b, &s, 8, &r.z, fmt);
        put_str(b, &s, 15, r.medium->name, fmt);
        put_str(b, &s, 16, ry_media_kind_name(r.medium->kind), fmt);
        put_str(b, &s, 17, r.part, fmt);
        put_num(b, &s, 18, r.length_m, fmt);
        put_num(b, &s, 19, r.gbps, fmt);
        if (r.rail >= 0)
            put_num(b, &s, 20, r.rail, fmt);
        else
            put_str(b, &s, 20, NULL, fmt);
        put_num(b, &s, 21, r.plane, fmt);
        put_num(b, &s, 22, r.tier, fmt);
    }
    end_sheet(&s);
}

/* ---- Labels ----------------------------------------------------------------------------------- */

static const char *const label_cols[] = {
    "label", "rail", "colour", "a_end", "z_end", "part", "length_m", NULL
};

/* A record per cable, in label order: what a label printer's database
 * import takes, and printed, a strip per cable to cut along the gridlines:
 * the label, the rail in its colour, both ends as the rack sheets' "to"
 * cell, the part and length to pick the cable by. */
static void write_labels(book *b, const ry_cab_names *nm, size_t max)
{
    sheet s;
    start_list(b, &s, "Labels", label_cols, nm->f->nlinks, max);
    ry_cab_row r;
    char end[256];
    for (size_t l = 0; l < nm->f->nlinks; l++, row_done(&s)) {
        if (next_row(b, &s) < 0)
            return;
        ry_cab_row_of(nm, (uint32_t)l, &r);
        lxw_format *fmt = rail_fmt(b, r.rail, 0), *sw = rail_fmt(b, r.rail, 1);
        put_str(b, &s, 0, r.label, fmt);
        if (r.rail >= 0)
            put_num(b, &s, 1, r.rail, sw);
        else
            put_str(b, &s, 1, NULL, sw);
        put_str(b, &s, 2, ry_rail_color_name(r.rail), sw);
        far_end(end, sizeof end, &r.a);
        put_str(b, &s, 3, end, fmt);
        far_end(end, sizeof end, &r.z);
        put_str(b, &s, 4, end, fmt);
        put_str(b, &s, 5, r.part, fmt);
        put_num(b, &s, 6, r.length_m, fmt);
    }
    end_sheet(&s);
}

/* ---- Rails ------------------------------------------------------------------------------------ */

/* The legend: each rail with cables, its colour (the swatch), the tint its
 * rows carry and its cables; "several" for the cables of several rails. */
static void write_rails(book *b, const ry_cab_names *nm)
{
    static const char *const cols[] = { "rail", "colour", "hex", "row_tint", "cables", NULL };
    sheet s;
    int n = 0;
    for (int r = -1; r < nm->f->rails; r++)
        n += b->rail_cables[r + 1] > 0;
    start_sheet(b, &s, "Rails", cols, (lxw_row_t)(n ? n : 1));
    if (!s.ws)
        return;
    char hex[8];
    for (int i = 0; i <= nm->f->rails; i++) {
        int r = i < nm->f->rails ? i : -1;     /* "several" last */
        if (!b->rail_cables[r + 1])
            continue;
        lxw_format *sw = rail_fmt(b, r, 1), *fmt = rail_fmt(b, r, 0);
        if (r >= 0)
            put_num(b, &s, 0, r, sw);
        else
            put_str(b, &s, 0, "several", sw);
        put_str(b, &s, 1, ry_rail_color_name(r), sw);
        put_str(b, &s, 2, ry_rail_color(r), NULL);
        snprintf(hex, sizeof hex, "%06x", tint_of(hex_rgb(ry_rail_color(r))));
        put_str(b, &s, 3, hex, fmt);
        put_num(b, &s, 4, (double)b->rail_cables[r + 1], NULL);
        s.row++;
    }
    end_sheet(&s);
}

/* ---- BOM -------------------------------------------------------------------------------------- */

/* "=SUM(G2:G9)" over the rows first..last (1-based) of a column, "=0" over
 * none. */
static void sum_of(char *buf, size_t n, char col, int first, int last)
{
    if (last < first)
        snprintf(buf, n, "=0");
    else
        snprintf(buf, n, "=SUM(%c%d:%c%d)", col, first, col, last);
}

/* A priced line of the capex beyond the cables and optics (switches,
 * racks): count x unit price as a formula. */
static void capex_line(book *b, sheet *s, const char *what, const char *part, long long count,
                       double unit, double cost)
{
    char fm[64];
    int x = (int)s->row + 1;
    put_str(b, s, 0, what, NULL);
    put_str(b, s, 1, part, NULL);
    put_num(b, s, 4, (double)count, NULL);
    put_num(b, s, 5, unit, b->money);
    snprintf(fm, sizeof fm, "=E%d*F%d", x, x);
    put_formula(b, s, 6, fm, cost, b->money);
    s->row++;
}

/* A total row that repeats one line of the bill: its count (column E) and
 * cost (column G) as formulas over that line's row. */
static void total_of_line(book *b, sheet *s, const char *label, int row, int last,
                          double count, double cost)
{
    char fm[48];
    put_str(b, s, 0, label, b->bold);
    if (last > row)
        snprintf(fm, sizeof fm, "=SUM(E%d:E%d)", row, last);
    else
        snprintf(fm, sizeof fm, "=E%d", row);
    put_formula(b, s, 4, fm, count, NULL);
    if (last > row)
        snprintf(fm, sizeof fm, "=SUM(G%d:G%d)", row, last);
    else
        snprintf(fm, sizeof fm, "=G%d", row);
    put_formula(b, s, 6, fm, cost, b->money);
    s->row++;
}

/* Lines priced as count x unit price and totals as sums over the lines,
 * as formulas (a reader who changes a price sees the totals follow); the
 * cached values are the plan's own sums. The lines come cables first, then
 * optics modules (analysis/cabling.h), so each total sums one block; with
 * the capex (may be NULL) the switches and racks follow as lines, then a
 * rack-scale node's trays (count and power, no price), and the
 * totals end in the capex: cables, optics, switches, racks and spares, the
 * total `railyard bom` prints. */
static void write_bom(book *b, const ry_cabling *c, const ry_capex *capex)
{
    static const char *const cols[] = {
        "what", "part", "medium", "length_m", "count", "unit_price_usd", "cost_usd", "power_w",
        NULL
    };
    sheet s;
    char fm[96];
    int racks = capex && capex->rack_price > 0;
    int ntrays = capex ? capex->ntrays : 0;
    /* a switch line per model (capex->nmodels of a fabric.tiers list), else one */
    int swlines = capex ? (capex->nmodels > 1 ? capex->nmodels : 1) : 0;
    lxw_row_t nlines = (lxw_row_t)c->nbom + (lxw_row_t)swlines + (racks ? 1u : 0u) +
                       (lxw_row_t)ntrays;
    start_sheet(b, &s, "BOM", cols, nlines);
    if (!s.ws)
        return;
    int ncab = 0;
    while (ncab < c->nbom && !strcmp(c->bom[ncab].what, "cable"))
        ncab++;
    for (int i = 0; i < c->nbom; i++, s.row++) {
        const ry_pbom_line *p = &c->bom[i];
        int x = (int)s.row + 1;
        put_str(b, &s, 0, ry_pbom_item_name(p), NULL);
        put_str(b, &s, 1, p->part, NULL);
        put_str(b, &s, 2, p->medium, NULL);
        if (p->length_m > 0)
            put_num(b, &s, 3, p->length_m, NULL);
        put_num(b, &s, 4, (double)p->count, NULL);
        put_num(b, &s, 5, p->unit_price, b->money);
        snprintf(fm, sizeof fm, "=E%d*F%d", x, x);
        put_formula(b, &s, 6, fm, p->cost, b->money);
        put_num(b, &s, 7, p->power_w, NULL);
    }
    int sw_row = 0, rack_row = 0;
    if (capex) {
        sw_row = (int)s.row + 1;
        char part[128];
        if (capex->nmodels > 1) {
            for (int i = 0; i < capex->nmodels; i++) {
                const ry_capex_model *m = &capex->model[i];
                snprintf(part, sizeof part, "%s%s%s", m->part, m->part[0] ? " " : "", m->name);
                capex_line(b, &s, "switch", part, m->count, m->price, m->cost);
            }
        } else {
            snprintf(part, sizeof part, "%s%s%s", capex->switch_part,
                     capex->switch_part[0] ? " " : "", capex->switch_name);
            capex_line(b, &s, "switch", part, capex->switches, capex->switch_price,
                       capex->switches_cost);
        }
        if (racks) {
            rack_row = (int)s.row + 1;
            capex_line(b, &s, "rack", "", capex->racks, capex->rack_price, capex->racks_cost);
        }
        /* a rack-scale node's trays: counted with their power, not priced */
        for (int i = 0; i < ntrays; i++, s.row++) {
            const ry_tray_line *l = &capex->trays[i];
            put_str(b, &s, 0, l->kind, NULL);
            put_str(b, &s, 1, l->part, NULL);
            put_num(b, &s, 4, (double)l->count, NULL);
            put_num(b, &s, 7, l->power_w * (double)l->count, NULL);
        }
    }
    /* Totals below a blank row, out of the filter's range; the cables' total
     * length stands in the length column. */
    int cab0 = 2, cab1 = 1 + ncab, x0 = 2 + ncab, x1 = 1 + c->nbom;
    s.row++;
    int cab_row = (int)s.row + 1;
    put_str(b, &s, 0, "cables", b->bold);
    if (ncab)
        snprintf(fm, sizeof fm, "=SUMPRODUCT(D%d:D%d,E%d:E%d)", cab0, cab1, cab0, cab1);
    else
        snprintf(fm, sizeof fm, "=0");
    put_formula(b, &s, 3, fm, c->cable_m, NULL);
    sum_of(fm, sizeof fm, 'E', cab0, cab1);
    put_formula(b, &s, 4, fm, (double)c->ncables, NULL);
    sum_of(fm, sizeof fm, 'G', cab0, cab1);
    put_formula(b, &s, 6, fm, c->cost_cables, b->money);
    s.row++;
    put_str(b, &s, 0, "optics", b->bold);
    sum_of(fm, sizeof fm, 'E', x0, x1);
    put_formula(b, &s, 4, fm, (double)c->ntransceivers, NULL);
    sum_of(fm, sizeof fm, 'G', x0, x1);
    put_formula(b, &s, 6, fm, c->cost_transceivers, b->money);
    s.row++;
    if (!capex) {
        put_str(b, &s, 0, "total", b->bold);
        snprintf(fm, sizeof fm, "=G%d+G%d", cab_row, cab_row + 1);
        put_formula(b, &s, 6, fm, c->cost_total, b->money);
        sum_of(fm, sizeof fm, 'H', 2, 1 + c->nbom);
        put_formula(b, &s, 7, fm, c->power_w, NULL);
        end_sheet(&s);
        return;
    }
    int swt_row = (int)s.row + 1;
    total_of_line(b, &s, "switches", sw_row,
                  sw_row + (capex->nmodels > 1 ? capex->nmodels - 1 : 0),
                  (double)capex->switches, capex->switches_cost);
    /* the capex: its parts' rows summed */
    char parts[64];
    snprintf(parts, sizeof parts, "G%d+G%d+G%d", cab_row, cab_row + 1, swt_row);
    if (racks) {
        total_of_line(b, &s, "racks", rack_row, rack_row, (double)capex->racks,
                      capex->racks_cost);
    }
    int spares_row = 0;
    if (capex->spares_pct > 0) {
        spares_row = (int)s.row + 1;
        put_str(b, &s, 0, "spares", b->bold);
        put_str(b, &s, 1, "percent of switches, optics and cables", NULL);
        put_num(b, &s, 5, capex->spares_pct, NULL);
        snprintf(fm, sizeof fm, "=(%s)*F%d/100", parts, spares_row);
        put_formula(b, &s, 6, fm, capex->spares, b->money);
        s.row++;
    }
    put_str(b, &s, 0, "capex", b->bold);
    int n = snprintf(fm, sizeof fm, "=%s", parts);
    if (racks)
        n += snprintf(fm + n, sizeof fm - (size_t)n, "+G%d", swt_row + 1);
    if (spares_row)
        snprintf(fm + n, sizeof fm - (size_t)n, "+G%d", spares_row);
    put_formula(b, &s, 6, fm, capex->total, b->money);
    sum_of(fm, sizeof fm, 'H', 2, 1 + c->nbom);
    put_formula(b, &s, 7, fm, c->power_w, NULL);
    end_sheet(&s);
}

/* ---- racks ------------------------------------------------------------------------------------ */

/* Devices of every rack, from the top unit down (compressed rows: rack r's
 * devices are dev[first[r] .. first[r+1])), as graph node ids: a server by
 * its first GPU. */
typedef struct rack_index {
    size_t *first;
    uint32_t *dev;
} rack_index;

static _Thread_local const ry_layout *sort_lay;   /* qsort's context, per thread */

static int cmp_dev(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    int ra, ua, na, rb, ub, nb;
    ry_layout_where(sort_lay, a, &ra, &ua, &na);
    ry_layout_where(sort_lay, b, &rb, &ub, &nb);
    if (ua != ub)
        return ua > ub ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void index_racks(const ry_cab_names *nm, rack_index *ix)
{
    const ry_fabric *f = nm->f;
    const ry_layout *lay = nm->lay;
    size_t nsw = f->nnodes - f->first_switch, ndev = (size_t)nm->nservers + nsw;
    ix->first = ry_xcalloc((size_t)lay->nracks + 1, sizeof *ix->first);
    ix->dev = ry_xmalloc((ndev ? ndev : 1) * sizeof *ix->dev);
    for (long long s = 0; s < nm->nservers; s++)
        ix->first[lay->node_rack[s] + 1]++;
    for (size_t i = 0; i < nsw; i++)
        ix->first[lay->sw_rack[i] + 1]++;
    for (int r = 0; r < lay->nracks; r++)
        ix->first[r + 1] += ix->first[r];
    size_t *fill = ry_xmalloc(((size_t)lay->nracks + 1) * sizeof *fill);
    memcpy(fill, ix->first, ((size_t)lay->nracks + 1) * sizeof *fill);
    for (long long s = 0; s < nm->nservers; s++)
        ix->dev[fill[lay->node_rack[s]]++] = (uint32_t)(s * nm->gpn);
    for (size_t i = 0; i < nsw; i++)
        ix->dev[fill[lay->sw_rack[i]]++] = (uint32_t)(f->first_switch + i);
    free(fill);
    sort_lay = lay;
    for (int r = 0; r < lay->nracks; r++)
        qsort(ix->dev + ix->first[r], ix->first[r + 1] - ix->first[r], sizeof *ix->dev, cmp_dev);
}

/* The port id of a device's i-th port: a server's NICs in mlx5 order (GPU
 * within the server, then plane), a switch's ports in order. */
static uint32_t device_port(const ry_cab_names *nm, uint32_t node, uint32_t i)
{
    const ry_fabric *f = nm->f;
    if (f->nodes[node].kind == RY_NODE_GPU)
        return f->nodes[node + i % (uint32_t)nm->gpn].port0 + i / (uint32_t)nm->gpn;
    return f->nodes[node].port0 + i;
}

static uint32_t device_nports(const ry_cab_names *nm, uint32_t node)
{
    const ry_node *nd = &nm->f->nodes[node];
    return nd->kind == RY_NODE_GPU ? (uint32_t)(nm->gpn * nm->f->planes) : nd->nports;
}

/* Cabled ports of a device. */
static size_t device_ncables(const ry_cab_names *nm, uint32_t node)
{
    size_t n = 0;
    for (uint32_t i = 0, np = device_nports(nm, node); i < np; i++)
        n += nm->f->ports[device_port(nm, node, i)].link >= 0;
    return n;
}

/* Rows a device takes on its rack's sheet. */
static size_t device_nrows(const ry_cab_names *nm, uint32_t node)
{
    size_t n = device_ncables(nm, node);
    return n ? n : 1;
}

static size_t rack_nrows(const ry_cab_names *nm, const rack_index *ix, int r)
{
    size_t n = 0;
    for (size_t d = ix->first[r]; d < ix->first[r + 1]; d++)
        n += device_nrows(nm, ix->dev[d]);
    return n;
}

static void far_end(char *buf, size_t n, const ry_cab_end *e)
{
    char u[16];
    size_t len = 0;
    int k = (int)sizeof u;
    unsigned v = e->unit > 0 ? (unsigned)e->unit : 0;
    do
        u[--k] = (char)('0' + v % 10);
    while ((v /= 10) && k > 1);
    u[--k] = 'U';
    const char *part[] = { e->rack_name, " ", u + k, " ", e->device, " ", e->port_name };
    size_t plen[] = { strlen(e->rack_name), 1, sizeof u - (size_t)k, 1, strlen(e->device), 1,
                      strlen(e->port_name) };
    for (size_t i = 0; i < sizeof part / sizeof *part; i++) {
        size_t c = plen[i] < n - 1 - len ? plen[i] : n - 1 - len;
        memcpy(buf + len, part[i], c);
        len += c;
    }
    buf[len] = '\0';
}

/* One row per cabled port of the device (a server's NICs in mlx5 order, a
 * switch's ports in order); a device without cables gets one row. */
static void device_rows(book *b, sheet *s, const ry_cab_names *nm, uint32_t node)
{
    const ry_fabric *f = nm->f;
    const ry_node *nd = &f->nodes[node];
    uint32_t nports = device_nports(nm, node);
    ry_cab_end self;
    char to[256];
    ry_cab_row r;
    int rows = 0;
    for (uint32_t i = 0; i < nports; i++) {
        uint32_t port = device_port(nm, node, i);
        int32_t lk = f->ports[port].link;
        if (lk < 0)
            continue;
        ry_cab_row_of(nm, (uint32_t)lk, &r);
        const ry_cab_end *me = r.a.port == port ? &r.a : &r.z, *far = me == &r.a ? &r.z : &r.a;
        /* The model on the device's first row only; the cable to take
         * (part, medium, length) on every row, in its rail's tint. */
        lxw_format *fmt = rail_fmt(b, r.rail, 0);
        put_num(b, s, 0, me->unit, fmt);
        put_str(b, s, 1, me->device, fmt);
        put_str(b, s, 2, rows ? NULL : me->type, fmt);
        put_str(b, s, 3, me->port_name, fmt);
        put_str(b, s, 4, r.label, fmt);
        far_end(to, sizeof to, far);
        put_str(b, s, 5, to, fmt);
        put_str(b, s, 6, r.part, fmt);
        put_str(b, s, 7, r.medium->name, fmt);
        put_num(b, s, 8, r.length_m, fmt);
        s->row++;
        rows++;
    }
    if (!rows) {
        ry_cab_end_of(nm, nd->port0, &self);
        put_num(b, s, 0, self.unit, NULL);
        put_str(b, s, 1, self.device, NULL);
        put_str(b, s, 2, self.type, NULL);
        s->row++;
    }
}

static const char *const rack_cols[] = {
    "u", "device", "model", "port", "label", "to", "part", "medium", "length_m", NULL
};

/* A worksheet name Excel takes: at most 31 characters, none of []:*?/\,
 * not starting or ending with an apostrophe, not used yet. */
static void sheet_name(book *b, const char *want, int rack, char *out, size_t n)
{
    snprintf(out, n, "%.31s", want);
    for (char *p = out; *p; p++)
        if (strchr("[]:*?/\\", *p))
            *p = '_';
    if (out[0] == '\'')
        out[0] = '_';
    size_t len = strlen(out);
    if (len && out[len - 1] == '\'')
        out[len - 1] = '_';
    if (!len || workbook_validate_sheet_name(b->wb, out) != LXW_NO_ERROR)
        snprintf(out, n, "rack %d", rack + 1);
}

static void write_rack_sheets(book *b, const ry_cab_names *nm, const rack_index *ix,
                              const size_t *nrows)
{
    char name[64];
    sheet s;
    for (int r = 0; r < nm->lay->nracks; r++) {
        sheet_name(b, nm->pool + nm->rack[r], r, name, sizeof name);
        start_sheet(b, &s, name, rack_cols, (lxw_row_t)nrows[r]);
        if (!s.ws)
            break;
        for (size_t d = ix->first[r]; d < ix->first[r + 1]; d++)
            device_rows(b, &s, nm, ix->dev[d]);
        end_sheet(&s);
    }
}

static const char *const list_cols[] = { "rack", "u", "device", "model", "cables", NULL };

/* The Racks list: every device, rack by rack in layout order, each rack
 * from the top unit down; its lowest unit, model and cabled ports. */
static void write_rack_list(book *b, const ry_cab_names *nm, const rack_index *ix, size_t max)
{
    sheet s;
    ry_cab_end e;
    start_list(b, &s, "Racks", list_cols, ix->first[nm->lay->nracks], max);
    for (int r = 0; r < nm->lay->nracks; r++)
        for (size_t d = ix->first[r]; d < ix->first[r + 1]; d++, row_done(&s)) {
            if (next_row(b, &s) < 0)
                return;
            uint32_t node = ix->dev[d];
            ry_cab_end_of(nm, device_port(nm, node, 0), &e);
            put_str(b, &s, 0, e.rack_name, NULL);
            put_num(b, &s, 1, e.unit, NULL);
            put_str(b, &s, 2, e.device, NULL);
            put_str(b, &s, 3, e.type, NULL);
            put_num(b, &s, 4, (double)device_ncables(nm, node), NULL);
        }
    end_sheet(&s);
}

/* ---- size ------------------------------------------------------------------------------------- */

/* Bytes of sheet XML besides the text, at most (libxlsxwriter's
 * worksheet.c): a row's tags, a cell's (<c r="XFD1048576" s="99"
 * t="inlineStr"><is><t xml:space="preserve">...</t></is></c>, or a number
 * of up to 23 characters), and a sheet's header, column widths, panes,
 * filter and header row. */
#define ROW_XML 64
#define CELL_XML 96
#define SHEET_XML 8192
#define FORMULA_XML 64
/* A text's length in the XML: & < > become entities, a control character
 * _xHHHH_. */
static size_t xml_len(const char *t)
{
    size_t n = 0;
    for (; *t; t++)
        n += *t == '&' ? 5 : *t == '<' || *t == '>' ? 4 : (unsigned char)*t < 0x20 ? 7 : 1;
    return n;
}

static void longest(size_t *m, const char *t)
{
    size_t n = xml_len(t);
    if (n > *m)
        *m = n;
}

/* The longest name a cell holds, in the XML. */
static size_t longest_name(const ry_cab_names *nm)
{
    const ry_fabric *f = nm->f;
    const ry_cabling *c = nm->c;
    size_t m = 16;              /* header cells, media kinds */
    for (long long i = 0; i < nm->nservers; i++)
        longest(&m, nm->pool + nm->server[i]);
    for (size_t i = 0; i < f->nnodes - f->first_switch; i++)
        longest(&m, nm->pool + nm->sw[i]);
    for (int i = 0; i < nm->lay->nracks; i++)
        longest(&m, nm->pool + nm->rack[i]);
    for (size_t i = 0; i < f->nports; i++)
        longest(&m, nm->pool + nm->port[i]);
    for (size_t i = 0; i < f->nlinks; i++)
        longest(&m, nm->pool + nm->label[i]);
    for (size_t i = 0; i < (size_t)c->nmedia * 32; i++)
        if (nm->part[i] != SIZE_MAX)
            longest(&m, nm->pool + nm->part[i]);
    for (int i = 0; i < c->nmedia; i++)
        longest(&m, c->media[i].name);
    longest(&m, f->spec->node.name);
    longest(&m, f->spec->sw.name);
    for (int t = 1; t <= f->tiers; t++)
        if (f->tier[t].sw)
            longest(&m, f->tier[t].sw->name);
    return m;
}

/* The workbook's XML, at most: sheet rows by their cells and strings (a
 * rack sheet's "to" cell and a label's ends are a rack, a unit, a device
 * and a port; a BOM row holds formulas of up to FORMULA_XML bytes). */
static unsigned long long xml_bound(const ry_cab_names *nm, const rack_index *ix,
                                    const size_t *nrows, int per_rack, size_t nsheets)
{
    unsigned long long t = longest_name(nm), n = 0;
    n += (unsigned long long)nm->f->nlinks * (ROW_XML + 21 * CELL_XML + 11 * t);
    n += (unsigned long long)nm->f->nlinks * (ROW_XML + 7 * CELL_XML + 12 * t + 32);
    n += (unsigned long long)(nm->c->nbom + 4) * (ROW_XML + 8 * CELL_XML + 3 * t
                                                  + 2 * FORMULA_XML);
    n += (unsigned long long)(nm->f->rails + 2) * (ROW_XML + 5 * CELL_XML + 3 * t);
    if (per_rack)
        for (int r = 0; r < nm->lay->nracks; r++)
            n += (unsigned long long)nrows[r] * (ROW_XML + 9 * CELL_XML + 10 * t + 16);
    else
        n += (unsigned long long)ix->first[nm->lay->nracks] * (ROW_XML + 5 * CELL_XML + 3 * t);
    return n + (unsigned long long)nsheets * SHEET_XML;
}

/* ---- the workbook ----------------------------------------------------------------------------- */

/* The page header: the title on the left ('&' doubled, as Excel's codes
 * start with it), the sheet's name on the right. */
static void page_header(char *out, size_t n, const char *title)
{
    size_t k = 0;
    const char *tail = "&R&A";
    out[k++] = '&';
    out[k++] = 'L';
    for (const char *p = title; *p && k + 2 + strlen(tail) < n; p++) {
        if (*p == '&')
            out[k++] = '&';
        out[k++] = *p;
    }
    snprintf(out + k, n - k, "%s", tail);
}

int ry_emit_cabling_xlsx(const ry_cab_names *nm, const ry_capex *capex, const char *path,
                         const ry_xlsx_limits *lim)
{
    const ry_cabling *c = nm->c;
    const ry_layout *lay = nm->lay;
    size_t max = lim->max_rows ? lim->max_rows : 1;
    rack_index ix;
    index_racks(nm, &ix);
    size_t ndev = ix.first[lay->nracks];
    size_t *nrows = ry_xmalloc(((size_t)lay->nracks + 1) * sizeof *nrows);
    /* A sheet per rack while there are few racks and each fits on one. */
    int per_rack = lay->nracks <= lim->max_rack_sheets;
    for (int r = 0; r < lay->nracks; r++) {
        nrows[r] = rack_nrows(nm, &ix, r);
        if (nrows[r] > max)
            per_rack = 0;
    }
    /* Cables and Labels, BOM and Rails, then the racks. Labels, and the
     * cables' rail tints, only while the cables fit one Excel sheet: past a
     * million cables nobody prints them from a workbook (cabling.csv serves
     * a label printer), and they would add half again to the time the
     * workbook takes. */
    int labels = c->f->nlinks <= RY_XLSX_MAX_ROWS;
    size_t cable_sheets = (size_t)(1 + labels) * list_sheets(c->f->nlinks, max) + 2;
    if (per_rack && !ry_xlsx_enough_files((long long)(cable_sheets + (size_t)lay->nracks))) {
        ry_warn("the limit on open files is too low for one worksheet per rack (%d racks): "
                "cabling.xlsx lists all racks on one sheet 'Racks'", lay->nracks);
        per_rack = 0;
    }
    size_t nsheets = cable_sheets + (per_rack ? (size_t)lay->nracks : list_sheets(ndev, max));
    if (!per_rack)
        ry_xlsx_enough_files((long long)nsheets);
    unsigned long long bound = xml_bound(nm, &ix, nrows, per_rack, nsheets);
#ifdef __GLIBC__
    /* libxlsxwriter callocs 128 KB per constant_memory sheet (a row's worth
     * of cell pointers, 16,384 columns) and touches a few bytes of it. Once a
     * larger block has been freed, glibc serves such sizes from the heap and
     * zeroes them: 256 rack sheets would then cost 32 MB. A fixed mmap
     * threshold keeps them in fresh, lazily zeroed pages. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    /* One temporary file per sheet, in shared memory when the bound is
     * under RY_XLSX_SHM_XML and $TMPDIR does not say otherwise (creating a
     * few hundred files on a disk costs a fraction of a second). The bound
     * counts every sheet's XML, though the lists' rows reach the scratch
     * directory deflated (about a ninth of their XML): it errs towards the
     * disk, where a large workbook's scratch belongs anyway. The directory
     * is private and removed on a signal (util/cleanup.h). */
    char title[160];
    snprintf(title, sizeof title, "Cabling plan of %s", c->f->spec->name);
    book b = { 0 };
    if (ry_xbook_open(&b.x, path, "xlsx", title, bound) < 0) {
        free(nrows);
        free(ix.first);
        free(ix.dev);
        return -1;
    }
    b.wb = b.x.wb;
    page_header(b.header, sizeof b.header, title);
    b.rail_cables = ry_xcalloc((size_t)c->f->rails + 1, sizeof *b.rail_cables);
    b.tinted = labels;
    b.plain = workbook_add_format(b.wb);
    format_set_font_size(b.plain, FONT_PT);
    b.bold = workbook_add_format(b.wb);
    format_set_font_size(b.bold, FONT_PT);
    format_set_bold(b.bold);
    b.money = workbook_add_format(b.wb);
    format_set_font_size(b.money, FONT_PT);
    format_set_num_format(b.money, "#,##0.00");

    write_cables(&b, nm, max);
    if (labels)
        write_labels(&b, nm, max);
    write_bom(&b, c, capex);
    write_rails(&b, nm);
    free(b.rail_cables);
    if (per_rack)
        write_rack_sheets(&b, nm, &ix, nrows);
    else
        write_rack_list(&b, nm, &ix, max);
    free(nrows);
    free(ix.first);
    free(ix.dev);
    return ry_xbook_close(&b.x);
}
