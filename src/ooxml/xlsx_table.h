/* A workbook of one table, for files that other tools read as Excel (the
 * cable validation tool's P2P file): a bold, frozen header row, then rows
 * of text cells, where a cell that is a plain count (up to 9 digits) is a
 * number, as typed in Excel. Past Excel's 1,048,575 data rows the table
 * goes on on sheet "NAME 2", "NAME 3", ..., each with the header. Columns
 * are as wide as their longest cell (at most 48). libxlsxwriter writes
 * the sheets around their rows and the rows are put in by xlsx_rows.h
 * (xlsx_book.h); the creation time is fixed, so the same rows give the
 * same bytes. */
#ifndef RY_XLSX_TABLE_H
#define RY_XLSX_TABLE_H

typedef struct ry_xlsx_table ry_xlsx_table;

/* Starts the workbook at path; xml_bound is an upper bound of its sheets'
 * XML in bytes (it decides shared memory for the temporary files and
 * ZIP64). NULL (error printed) on failure. */
ry_xlsx_table *ry_xlsx_table_open(const char *path, const char *title, const char *sheet,
                                  const char *const *cols, int ncols,
                                  unsigned long long xml_bound);
/* Adds a row of ncols cells. */
void ry_xlsx_table_row(ry_xlsx_table *t, const char *const *cells);
/* Writes the workbook and frees t; -1 (error printed) on failure. */
int ry_xlsx_table_close(ry_xlsx_table *t);

#endif
