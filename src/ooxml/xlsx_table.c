/* A workbook of one table (xlsx_table.h). */
#include "ooxml/xlsx_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ooxml/xlsx_book.h"
#include "util/alloc.h"
#include "util/diag.h"

#define TABLE_MAX_COLS 64
#define MAX_WIDTH 48

struct ry_xlsx_table {
    ry_xbook book;
    lxw_worksheet *ws;
    lxw_format *bold;
    ry_xrows *rows;             /* the current sheet's data rows */
    char sheet[24];
    const char *const *cols;
    int ncols, part;
    lxw_row_t row;
    int width[TABLE_MAX_COLS];
};

static int is_count(const char *s)
{
    if (!*s || strlen(s) > 9)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static void table_widths(ry_xlsx_table *t)
{
    for (int c = 0; t->ws && c < t->ncols; c++)
        worksheet_set_column(t->ws, (lxw_col_t)c, (lxw_col_t)c, t->width[c] + 2, NULL);
}

static void table_sheet(ry_xlsx_table *t)
{
    char name[40];
    if (t->ws)
        table_widths(t);
    if (++t->part == 1)
        snprintf(name, sizeof name, "%s", t->sheet);
    else
        snprintf(name, sizeof name, "%s %d", t->sheet, t->part);
    t->rows = NULL;
    t->ws = ry_xbook_sheet(&t->book, name);
    if (!t->ws)
        return;
    for (int c = 0; c < t->ncols; c++) {
        worksheet_write_string(t->ws, 0, (lxw_col_t)c, t->cols[c], t->bold);
        t->width[c] = (int)strlen(t->cols[c]);
    }
    worksheet_freeze_panes(t->ws, 1, 0);
    t->row = 1;
    t->rows = ry_xbook_rows(&t->book, t->ncols);
}

ry_xlsx_table *ry_xlsx_table_open(const char *path, const char *title, const char *sheet_name,
                                  const char *const *cols, int ncols,
                                  unsigned long long xml_bound)
{
    RY_ASSERT(ncols > 0 && ncols <= TABLE_MAX_COLS);
    ry_xlsx_table *t = ry_xcalloc(1, sizeof *t);
    if (ry_xbook_open(&t->book, path, "table", title, xml_bound) < 0) {
        free(t);
        return NULL;
    }
    snprintf(t->sheet, sizeof t->sheet, "%s", sheet_name);
    t->cols = cols;
    t->ncols = ncols;
    t->bold = workbook_add_format(t->book.wb);
    format_set_bold(t->bold);
    table_sheet(t);
    return t;
}

void ry_xlsx_table_row(ry_xlsx_table *t, const char *const *cells)
{
    if (t->row > RY_XLSX_MAX_ROWS)
        table_sheet(t);
    ry_xrows *r = t->rows;
    if (!r)
        return;
    ry_xrows_row(r, t->row);
    for (int c = 0; c < t->ncols; c++) {
        const char *s = cells[c];
        if (is_count(s))
            ry_xrows_num(r, c, atof(s), -1);
        else
            ry_xrows_str(r, c, s, -1);
        int w = (int)strlen(s);
        if (w > t->width[c])
            t->width[c] = w < MAX_WIDTH ? w : MAX_WIDTH;
    }
    ry_xrows_end(r);
    t->row++;
}

int ry_xlsx_table_close(ry_xlsx_table *t)
{
    table_widths(t);
    int rc = ry_xbook_close(&t->book);
    free(t);
    return rc;
}
