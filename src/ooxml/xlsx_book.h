/* A workbook as railyard writes one: libxlsxwriter in constant_memory mode
 * writes it into a private scratch directory, the long sheets' data rows
 * are deflated beside it (xlsx_rows.h) and put in when it is closed, into
 * the file asked for.
 *
 * libxlsxwriter prints its failures itself, as "[ERROR] ..." lines on
 * stderr (a full $TMPDIR gives several for one workbook). Its calls that
 * touch files run here with stderr on /dev/null, under the stderr lock (the
 * workbook has a thread of its own: another thread's diagnostic waits
 * rather than vanish); the failure is reported once, in railyard's words,
 * from the value returned.
 *
 * Same rows, same bytes: the document's creation time is fixed
 * (libxlsxwriter would write the current time) and the zip entries carry
 * fixed dates. */
#ifndef RY_XLSX_BOOK_H
#define RY_XLSX_BOOK_H

#include <xlsxwriter.h>

#include "ooxml/xlsx_rows.h"

/* The bound of a workbook's XML past which the temporary files leave
 * shared memory for the disk: tmpfs pages are memory. */
#define RY_XLSX_SHM_XML ((unsigned long long)1 << 30)

typedef struct ry_xbook {
    lxw_workbook *wb;
    int nsheets;                /* sheets added */
    int failed;                 /* a sheet or cell was refused: closing fails */
    char *path;                 /* the workbook's */
    char *tmp;                  /* the scratch directory */
    char *inner;                /* libxlsxwriter's workbook, before the rows go in */
    ry_xrows **rows;            /* the sheets' rows to put in */
    int nrows, cap_rows;
} ry_xbook;

/* Starts the workbook to be written to path, with title in its properties,
 * its scratch directory tagged tag; xml_bound, an upper bound of its sheets'
 * XML in bytes, decides shared memory (up to RY_XLSX_SHM_XML) and ZIP64
 * (past 4 GiB). 0, or -1 (error printed). */
int ry_xbook_open(ry_xbook *b, const char *path, const char *tag, const char *title,
                  unsigned long long xml_bound);
/* Adds a worksheet (number b->nsheets from then on); NULL, and b->failed
 * set, when libxlsxwriter refuses it. */
lxw_worksheet *ry_xbook_sheet(ry_xbook *b, const char *name);
/* The data rows of the last sheet added, of ncols columns, put in when the
 * workbook is closed; NULL, and b->failed set, on failure. */
ry_xrows *ry_xbook_rows(ry_xbook *b, int ncols);
/* Writes the workbook with its rows and frees all but b itself. 0, or -1
 * (error printed; the file may then be partly written). */
int ry_xbook_close(ry_xbook *b);

/* Open files for one temporary file per sheet (libxlsxwriter keeps each
 * open until the workbook is closed): 1 when the limit allows sheets of
 * them (raised towards the hard limit if need be), else 0. */
int ry_xlsx_enough_files(long long sheets);

#endif
