/* What src/ooxml/xlsx_rows.c takes for granted in libxlsxwriter's output,
 * checked against the library this build links (run at `make check`): a
 * libxlsxwriter update that changes any of it fails here, not in a
 * technician's spreadsheet application.
 *
 *  - sheet N (in the order added) is the member xl/worksheets/sheetN.xml,
 *    deflated (copied as it is);
 *  - a sheet holds one <dimension ref="..."/> before <sheetData> and one
 *    </sheetData> after its rows;
 *  - in constant_memory mode a string cell is <c r="A1" s="N"
 *    t="inlineStr"><is><t>..., N being lxw_format_get_xf_index(format);
 *  - it writes the text "_x0041_" as it is (ry_xlsx_text escapes it; were
 *    the library to escape it too, the '_' would be escaped twice);
 * and then that a workbook spliced with ry_xlsx_splice holds the rows, the
 * widened dimension and "_x005F_x0041_" for the text "_x0041_".
 *
 * usage: xlsx_pin_test TMPDIR */
#include <stdlib.h>
#include <string.h>

#include <unzip.h>
#include <xlsxwriter.h>

#include "ooxml/xlsx_rows.h"
#include "check.h"

/* Member `name` of a zip, uncompressed, NUL-terminated; *method its
 * compression. NULL when absent. */
static char *member(const char *zip, const char *name, int *method)
{
    unzFile uf = unzOpen64(zip);
    if (!uf)
        return NULL;
    char *buf = NULL;
    unz_file_info64 info;
    if (unzLocateFile(uf, name, 1) == UNZ_OK &&
        unzGetCurrentFileInfo64(uf, &info, NULL, 0, NULL, 0, NULL, 0) == UNZ_OK &&
        unzOpenCurrentFile(uf) == UNZ_OK) {
        *method = (int)info.compression_method;
        buf = malloc(info.uncompressed_size + 1);
        int k = unzReadCurrentFile(uf, buf, (unsigned)info.uncompressed_size);
        buf[k > 0 ? k : 0] = '\0';
        unzCloseCurrentFile(uf);
    }
    unzClose(uf);
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: xlsx_pin_test TMPDIR\n");
        return 2;
    }
    char src[4096], dst[4096];
    snprintf(src, sizeof src, "%s/pin.xlsx", argv[1]);
    snprintf(dst, sizeof dst, "%s/pin-spliced.xlsx", argv[1]);
    lxw_workbook_options opt = { .constant_memory = LXW_TRUE, .tmpdir = argv[1] };
    lxw_workbook *wb = workbook_new_opt(src, &opt);
    CHECK(wb != NULL, "workbook_new_opt");
    if (!wb)
        return 1;
    lxw_format *plain = workbook_add_format(wb);
    lxw_format *bold = workbook_add_format(wb);
    format_set_bold(bold);
    lxw_format *third = workbook_add_format(wb);
    format_set_italic(third);
    /* sheets named out of order: the member number is the order added */
    lxw_worksheet *a = workbook_add_worksheet(wb, "Zeta");
    lxw_worksheet *b = workbook_add_worksheet(wb, "Alpha");
    worksheet_write_string(a, 0, 0, "first", plain);
    worksheet_write_string(b, 0, 0, "head", bold);
    worksheet_write_string(b, 0, 1, "a_x0041_b", third);
    CHECK(workbook_close(wb) == LXW_NO_ERROR, "workbook_close");
    int bold_xf = lxw_format_get_xf_index(bold), third_xf = lxw_format_get_xf_index(third);

    int method = -1;
    char *s1 = member(src, "xl/worksheets/sheet1.xml", &method);
    CHECK(s1 && strstr(s1, ">first<"), "sheet1.xml is the first sheet added");
    char *s2 = member(src, "xl/worksheets/sheet2.xml", &method);
    CHECK(s2 != NULL, "no member xl/worksheets/sheet2.xml");
    CHECK(method == 8, "sheet2.xml not deflated (method %d)", method);
    if (s2) {
        CHECK(strstr(s2, ">head<") != NULL, "sheet2.xml is not the second sheet added");
        CHECK(count(s2, "<dimension ref=\"") == 1, "sheet2.xml: %d <dimension ref=\"", count(s2, "<dimension ref=\""));
        CHECK(count(s2, "</sheetData>") == 1, "sheet2.xml: %d </sheetData>", count(s2, "</sheetData>"));
        char *dim = strstr(s2, "<dimension ref=\""), *data = strstr(s2, "<sheetData");
        CHECK(dim && data && dim < data, "<dimension> not before <sheetData>");
        char want[128];
        snprintf(want, sizeof want, "<c r=\"A1\" s=\"%d\" t=\"inlineStr\"><is><t>head</t></is></c>", bold_xf);
        CHECK(strstr(s2, want) != NULL, "sheet2.xml lacks %s", want);
        snprintf(want, sizeof want, "<c r=\"B1\" s=\"%d\" t=\"inlineStr\"><is><t>a_x0041_b</t></is></c>",
                 third_xf);
        CHECK(strstr(s2, want) != NULL, "libxlsxwriter no longer writes _x0041_ as it is: lacks %s", want);
    }

    /* the splice: rows 2..3 of sheet 2, one holding the text "_x0041_" */
    ry_xrows *w = ry_xrows_new(argv[1], 2, 2);
    ry_xrows_row(w, 1);
    ry_xrows_str(w, 0, "n_x0041_1", bold_xf);
    ry_xrows_num(w, 1, 42, -1);
    ry_xrows_end(w);
    ry_xrows_row(w, 2);
    ry_xrows_str(w, 1, "_x00e9_ & _x12", -1);
    ry_xrows_end(w);
    CHECK(ry_xlsx_splice(src, dst, &w, 1) == 0, "ry_xlsx_splice");
    char *t2 = member(dst, "xl/worksheets/sheet2.xml", &method);
    CHECK(t2 != NULL, "spliced workbook lacks sheet2.xml");
    if (t2) {
        CHECK(strstr(t2, "<dimension ref=\"A1:B3\"/>") != NULL, "dimension not widened to A1:B3");
        CHECK(strstr(t2, "<t>n_x005F_x0041_1</t>") != NULL, "\"_x0041_\" not written _x005F_x0041_");
        CHECK(strstr(t2, "<t>_x005F_x00e9_ &amp; _x12</t>") != NULL, "second row's text");
        CHECK(count(t2, "</sheetData>") == 1, "spliced sheet: %d </sheetData>", count(t2, "</sheetData>"));
        char *rows = strstr(t2, "<row r=\"2\""), *end = strstr(t2, "</sheetData>");
        CHECK(rows && end && rows < end, "rows not inside <sheetData>");
    }
    char *t1 = member(dst, "xl/worksheets/sheet1.xml", &method);
    CHECK(t1 && s1 && strcmp(t1, s1) == 0, "sheet1.xml changed by the splice");

    char buf[64];
    CHECK(strcmp(ry_xlsx_text("plain_x41_", buf, sizeof buf), "plain_x41_") == 0, "no escape");
    const char *e = ry_xlsx_text("a_x0041__x00FF_", buf, sizeof buf);
    CHECK(e && strcmp(e, "a_x005F_x0041__x005F_x00FF_") == 0, "ry_xlsx_text: %s", e ? e : "NULL");
    CHECK(ry_xlsx_text("_x0041_", buf, 8) == NULL, "ry_xlsx_text overflow");
    free(s1);
    free(s2);
    free(t1);
    free(t2);
    remove(src);
    remove(dst);
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
