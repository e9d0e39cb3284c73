/* The rows of a long worksheet, written straight into deflated XML, and the
 * workbook put together around them.
 *
 * libxlsxwriter writes every sheet's XML to a temporary file and deflates
 * it at level 6 when the workbook is closed; for a list of millions of
 * cables that is nine tenths of the time railyard takes. A long list is
 * therefore written twice over: libxlsxwriter writes its sheet with the
 * header row only (and everything around the rows: widths, panes, filter,
 * page set-up, styles), and the rows go here, as SpreadsheetML <row>
 * elements, through zlib at level 1 into a temporary file of their own.
 * ry_xlsx_splice then copies libxlsxwriter's workbook member by member as
 * it is (the deflated bytes, not decompressed), except that into each such
 * sheet it puts the rows before </sheetData> (and their range into its
 * <dimension>). The rows' deflate stream ends on a byte boundary without
 * a last block (Z_SYNC_FLUSH), so the sheet's start, the rows and its end
 * are three deflate streams laid end to end, one member of the zip; its
 * CRC combines theirs (crc32_combine). Measured with `railyard cabling` of
 * the SuperPOD example at 65,536 GPUs (2 CPUs): 2.1 to 2.4 s with the
 * splice, 7.0 to 7.2 s with the same rows written by libxlsxwriter in
 * constant_memory mode; at 1,048,576 GPUs that difference alone would pass
 * the build's 60 s target.
 *
 * Cells are written as libxlsxwriter writes them in constant_memory mode:
 * a reference (A2), a style index (lxw_format_get_xf_index), inline
 * strings, numbers as %.16G. Rows must come in order, cells in a row in
 * column order.
 *
 * What this leans on in libxlsxwriter's output (tests/unit/xlsx_pin_test
 * checks each against the library built with, at `make check`): sheet N is
 * the member xl/worksheets/sheetN.xml, N counting sheets in the order they
 * were added; it holds one <dimension ref="..."/> before <sheetData> and one
 * </sheetData>; the header row it wrote is row 1, its cells inline strings
 * with the style index lxw_format_get_xf_index gives; the member is
 * deflated, so it can be copied as it is. */
#ifndef RY_XLSX_ROWS_H
#define RY_XLSX_ROWS_H

#include <stddef.h>
#include <stdint.h>

/* Excel's rows a sheet, the header row excluded (1,048,576 in all). */
#define RY_XLSX_MAX_ROWS 1048575

typedef struct ry_xrows ry_xrows;

/* Rows of worksheet number `sheet` (1-based, the order sheets were added
 * to the workbook) with ncols columns, into a temporary file under dir.
 * NULL (error printed) on failure. */
ry_xrows *ry_xrows_new(const char *dir, int sheet, int ncols);
/* Starts row `row` (0-based, as libxlsxwriter counts). */
void ry_xrows_row(ry_xrows *w, uint32_t row);
/* A cell of the current row; xf < 0 writes no style. A NULL or empty
 * text is a blank cell (left out when xf < 0). */
void ry_xrows_str(ry_xrows *w, int col, const char *text, int xf);
void ry_xrows_num(ry_xrows *w, int col, double v, int xf);
/* Text "_xHHHH_" (4 hex digits) reads as one escaped character in
 * SpreadsheetML; ry_xrows_str writes the '_' of such a run as "_x005F_" so
 * it reads back as written. libxlsxwriter (1.1) writes it as it is:
 * ry_xlsx_text gives the text to hand it, escaped the same way (text
 * itself when there is nothing to escape, else buf; NULL when buf of cap
 * bytes is too short). */
const char *ry_xlsx_text(const char *text, char *buf, size_t cap);
/* Ends the current row. */
void ry_xrows_end(ry_xrows *w);
void ry_xrows_free(ry_xrows *w);

/* Writes to `dst` the workbook `src` (as libxlsxwriter wrote it) with the
 * rows of each of the n sheets put into it. Every ry_xrows is finished
 * and freed. 0, or -1 with an error printed (dst may then be partly
 * written: the caller's output directory discards it). */
int ry_xlsx_splice(const char *src, const char *dst, ry_xrows **rows, int n);

#endif
