/* Long worksheets' rows as deflated XML, spliced into a workbook
 * (xlsx_rows.h). */
#include "ooxml/xlsx_rows.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <unzip.h>
#include <zip.h>

#include "util/diag.h"

#define IN_CAP ((size_t)1 << 18)    /* XML gathered before deflating */
#define OUT_CAP ((size_t)1 << 18)
#define CELL_MAX 2048               /* a cell's tags and number, at most */
#define LEVEL 1                     /* fast: the rows are most of the file */

struct ry_xrows {
    int sheet, ncols;
    FILE *fp;                       /* the deflated rows */
    char *path;
    z_stream zs;
    unsigned char *in, *out;
    size_t inlen;
    uLong crc;
    unsigned long long xml_bytes;   /* uncompressed */
    unsigned long long z_bytes;     /* deflated, in fp */
    long long last_row;             /* -1 before the first */
    char ref[12];                   /* the current row's number, 1-based */
    int ref_len;
    char (*col)[4];                 /* the columns' letters */
    int err;
};

static void col_name(int c, char *out)
{
    char tmp[4];
    int n = 0;
    for (c++; c > 0; c = (c - 1) / 26)
        tmp[n++] = (char)('A' + (c - 1) % 26);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
}

ry_xrows *ry_xrows_new(const char *dir, int sheet, int ncols)
{
    RY_ASSERT(ncols > 0 && ncols <= 16384);
    ry_xrows *w = ry_xcalloc(1, sizeof *w);
    w->col = ry_xcalloc((size_t)ncols, sizeof *w->col);
    w->sheet = sheet;
    w->ncols = ncols;
    w->last_row = -1;
    for (int c = 0; c < ncols; c++)
        col_name(c, w->col[c]);
    size_t n = strlen(dir) + 32;
    w->path = ry_xmalloc(n);
    snprintf(w->path, n, "%s/rows%d.z", dir, sheet);
    w->fp = fopen(w->path, "w+b");
    if (!w->fp) {
        ry_error("cannot create '%s': %s", w->path, strerror(errno));
        free(w->path);
        free(w->col);
        free(w);
        return NULL;
    }
    w->in = ry_xmalloc(IN_CAP);
    w->out = ry_xmalloc(OUT_CAP);
    w->crc = crc32(0L, Z_NULL, 0);
    int rc = deflateInit2(&w->zs, LEVEL, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    RY_ASSERT(rc == Z_OK);      /* only out of memory fails */
    return w;
}

/* Deflates what is gathered (flush: Z_NO_FLUSH, or Z_SYNC_FLUSH to end on
 * a byte boundary with no last block). */
static void pump(ry_xrows *w, int flush)
{
    w->crc = crc32(w->crc, w->in, (uInt)w->inlen);
    w->xml_bytes += w->inlen;
    w->zs.next_in = w->in;
    w->zs.avail_in = (uInt)w->inlen;
    do {
        w->zs.next_out = w->out;
        w->zs.avail_out = (uInt)OUT_CAP;
        int rc = deflate(&w->zs, flush);
        RY_ASSERT(rc != Z_STREAM_ERROR);
        size_t got = OUT_CAP - w->zs.avail_out;
        if (got && fwrite(w->out, 1, got, w->fp) != got)
            w->err = 1;
        w->z_bytes += got;
    } while (w->zs.avail_out == 0 || w->zs.avail_in > 0);
    w->inlen = 0;
}

static inline void room(ry_xrows *w, size_t need)
{
    if (w->inlen + need > IN_CAP)
        pump(w, Z_NO_FLUSH);
}

static inline void put(ry_xrows *w, const char *s, size_t n)
{
    memcpy(w->in + w->inlen, s, n);
    w->inlen += n;
}
#define PUT(w, lit) put((w), (lit), sizeof(lit) - 1)

/* v in decimal, as "%lld" writes it (snprintf's parsing of the format is
 * most of a number cell's cost, and a large workbook has tens of millions). */
static inline void put_int(ry_xrows *w, long long v)
{
    char tmp[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        tmp[n++] = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        w->in[w->inlen++] = '-';
    while (n > 0)
        w->in[w->inlen++] = (unsigned char)tmp[--n];
}

void ry_xrows_row(ry_xrows *w, uint32_t row)
{
    RY_ASSERT((long long)row > w->last_row);
    w->last_row = row;
    w->ref_len = snprintf(w->ref, sizeof w->ref, "%lu", (unsigned long)row + 1);
    room(w, 32);
    PUT(w, "<row r=\"");
    put(w, w->ref, (size_t)w->ref_len);
    PUT(w, "\">");
}

void ry_xrows_end(ry_xrows *w)
{
    room(w, 8);
    PUT(w, "</row>");
}

/* <c r="B7" s="3" (without its end). */
static void cell_start(ry_xrows *w, int col, int xf)
{
    RY_ASSERT(col >= 0 && col < w->ncols);
    PUT(w, "<c r=\"");
    put(w, w->col[col], strlen(w->col[col]));
    put(w, w->ref, (size_t)w->ref_len);
    if (xf >= 0) {
        PUT(w, "\" s=\"");
        put_int(w, xf);
    }
    PUT(w, "\"");
}

/* Whether p starts "_xHHHH_", which a reader takes for an escaped
 * character (ECMA-376 Part 1, 22.9.2.19 ST_Xstring): its '_' is then
 * written as _x005F_. */
static int escape_like(const unsigned char *p)
{
    if (p[0] != '_' || p[1] != 'x')
        return 0;
    for (int i = 2; i < 6; i++)
        if (!isxdigit(p[i]))
            return 0;
    return p[6] == '_';
}

const char *ry_xlsx_text(const char *t, char *buf, size_t cap)
{
    const char *p = t;
    while ((p = strchr(p, '_')) && !escape_like((const unsigned char *)p))
        p++;
    if (!p)
        return t;
    size_t n = 0;
    for (p = t; *p; p++) {
        int esc = *p == '_' && escape_like((const unsigned char *)p);
        if (n + (esc ? 7 : 1) >= cap)
            return NULL;
        if (esc) {
            memcpy(buf + n, "_x005F_", 7);
            n += 7;
        } else {
            buf[n++] = *p;
        }
    }
    buf[n] = '\0';
    return buf;
}

void ry_xrows_str(ry_xrows *w, int col, const char *t, int xf)
{
    if (!t || !*t) {
        if (xf >= 0) {
            room(w, CELL_MAX);
            cell_start(w, col, xf);
            PUT(w, "/>");
        }
        return;
    }
    size_t n = strlen(t);
    room(w, CELL_MAX + 7 * n);
    cell_start(w, col, xf);
    /* Leading or trailing blanks survive only with xml:space. */
    if (t[0] == ' ' || t[0] == '\t' || t[0] == '\n' || t[n - 1] == ' ' || t[n - 1] == '\t'
        || t[n - 1] == '\n')
        PUT(w, " t=\"inlineStr\"><is><t xml:space=\"preserve\">");
    else
        PUT(w, " t=\"inlineStr\"><is><t>");
    for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
        if (*p == '&')
            PUT(w, "&amp;");
        else if (*p == '<')
            PUT(w, "&lt;");
        else if (*p == '>')
            PUT(w, "&gt;");
        else if (*p < 0x20 && *p != '\t' && *p != '\n')
            w->inlen += (size_t)snprintf((char *)w->in + w->inlen, 8, "_x%04X_", *p);
        else if (*p == '_' && escape_like(p))
            PUT(w, "_x005F_");  /* the text "_x0041_", not an escaped "A" */
        else
            w->in[w->inlen++] = *p;
    }
    PUT(w, "</t></is></c>");
}

void ry_xrows_num(ry_xrows *w, int col, double v, int xf)
{
    room(w, CELL_MAX);
    cell_start(w, col, xf);
    PUT(w, "><v>");
    if (v == (double)(long long)v && v > -1e15 && v < 1e15)
        put_int(w, (long long)v);
    else
        w->inlen += (size_t)snprintf((char *)w->in + w->inlen, 32, "%.16G", v);
    PUT(w, "</v></c>");
}

void ry_xrows_free(ry_xrows *w)
{
    if (!w)
        return;
    deflateEnd(&w->zs);
    if (w->fp)
        fclose(w->fp);
    remove(w->path);
    free(w->path);
    free(w->in);
    free(w->out);
    free(w->col);
    free(w);
}

/* ---- the splice ------------------------------------------------------------------------------ */

/* Deflates n bytes of XML into a new buffer, ending with `flush`. */
static unsigned char *deflate_mem(const char *xml, size_t n, int flush, size_t *out_len)
{
    z_stream zs = { 0 };
    int rc = deflateInit2(&zs, LEVEL, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    RY_ASSERT(rc == Z_OK);
    size_t cap = deflateBound(&zs, (uLong)n) + 16;
    unsigned char *out = ry_xmalloc(cap);
    zs.next_in = (unsigned char *)xml;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    rc = deflate(&zs, flush);
    RY_ASSERT(rc == (flush == Z_FINISH ? Z_STREAM_END : Z_OK) && zs.avail_in == 0);
    *out_len = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

/* A member's whole uncompressed text (NUL-terminated). */
static char *read_member(unzFile uf, size_t n)
{
    char *buf = ry_xmalloc(n + 1);
    if (unzOpenCurrentFile(uf) != UNZ_OK) {
        free(buf);
        return NULL;
    }
    size_t got = 0;
    int k;
    while (got < n && (k = unzReadCurrentFile(uf, buf + got, (unsigned)(n - got))) > 0)
        got += (size_t)k;
    if (unzCloseCurrentFile(uf) != UNZ_OK || got != n) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static zip_fileinfo file_info(const unz_file_info64 *in)
{
    zip_fileinfo zi = { 0 };
    zi.tmz_date.tm_sec = in->tmu_date.tm_sec;
    zi.tmz_date.tm_min = in->tmu_date.tm_min;
    zi.tmz_date.tm_hour = in->tmu_date.tm_hour;
    zi.tmz_date.tm_mday = in->tmu_date.tm_mday;
    zi.tmz_date.tm_mon = in->tmu_date.tm_mon;
    zi.tmz_date.tm_year = in->tmu_date.tm_year;
    zi.dosDate = in->dosDate;
    zi.internal_fa = in->internal_fa;
    zi.external_fa = in->external_fa;
    return zi;
}

/* A member as it is: its deflated bytes, its CRC and size. */
static int copy_member(unzFile uf, zipFile zf, const char *name, const unz_file_info64 *info,
                       unsigned char *buf, size_t cap)
{
    int method, level;
    if (unzOpenCurrentFile2(uf, &method, &level, 1) != UNZ_OK)
        return -1;
    zip_fileinfo zi = file_info(info);
    if (zipOpenNewFileInZip2_64(zf, name, &zi, NULL, 0, NULL, 0, NULL, method, level, 1,
                                info->uncompressed_size >= 0xffffffffu) != ZIP_OK) {
        unzCloseCurrentFile(uf);
        return -1;
    }
    int k, rc = 0;
    while ((k = unzReadCurrentFile(uf, buf, (unsigned)cap)) > 0)
        if (zipWriteInFileInZip(zf, buf, (unsigned)k) != ZIP_OK)
            rc = -1;
    if (k < 0)
        rc = -1;
    unzCloseCurrentFile(uf);
    if (zipCloseFileInZipRaw64(zf, info->uncompressed_size, info->crc) != ZIP_OK)
        rc = -1;
    return rc;
}

/* The sheet with its rows: libxlsxwriter's XML up to </sheetData> (the
 * dimension widened to the rows), the rows, and the rest. */
static int splice_member(unzFile uf, zipFile zf, const char *name, const unz_file_info64 *info,
                         ry_xrows *w, unsigned char *buf, size_t cap)
{
    char *xml = read_member(uf, (size_t)info->uncompressed_size);
    if (!xml)
        return -1;
    char *end = strstr(xml, "</sheetData>");
    char *dim = strstr(xml, "<dimension ref=\"");
    if (!end) {
        free(xml);
        return -1;
    }
    /* The start: up to the dimension's range, the new range, on to </sheetData>. */
    size_t n = (size_t)(end - xml);
    char *head = ry_xmalloc(n + 64);
    size_t hn;
    if (dim && dim < end && w->last_row >= 0) {
        dim += strlen("<dimension ref=\"");
        char *q = strchr(dim, '"');
        if (!q || q > end) {
            free(head);
            free(xml);
            return -1;
        }
        hn = (size_t)(dim - xml);
        memcpy(head, xml, hn);
        hn += (size_t)snprintf(head + hn, 64, "A1:%s%lld", w->col[w->ncols - 1], w->last_row + 1);
        memcpy(head + hn, q, (size_t)(end - q));
        hn += (size_t)(end - q);
    } else {
        memcpy(head, xml, n);
        hn = n;
    }
    const char *tail = end;
    size_t tn = strlen(tail);

    /* The rows' stream ends on a byte boundary, its last block not final. */
    pump(w, Z_SYNC_FLUSH);
    size_t hz, tz;
    unsigned char *hd = deflate_mem(head, hn, Z_SYNC_FLUSH, &hz);
    unsigned char *td = deflate_mem(tail, tn, Z_FINISH, &tz);
    uLong crc = crc32(crc32(0L, Z_NULL, 0), (const unsigned char *)head, (uInt)hn);
    crc = crc32_combine(crc, w->crc, (z_off_t)w->xml_bytes);
    crc = crc32_combine(crc, crc32(crc32(0L, Z_NULL, 0), (const unsigned char *)tail, (uInt)tn),
                        (z_off_t)tn);
    unsigned long long size = hn + w->xml_bytes + tn;
    free(head);
    free(xml);

    int rc = 0;
    zip_fileinfo zi = file_info(info);
    if (w->err || fflush(w->fp) != 0 || fseek(w->fp, 0, SEEK_SET) != 0
        || zipOpenNewFileInZip2_64(zf, name, &zi, NULL, 0, NULL, 0, NULL, Z_DEFLATED, LEVEL, 1,
                                   size >= 0xffffffffu) != ZIP_OK) {
        free(hd);
        free(td);
        return -1;
    }
    if (zipWriteInFileInZip(zf, hd, (unsigned)hz) != ZIP_OK)
        rc = -1;
    size_t k;
    while ((k = fread(buf, 1, cap, w->fp)) > 0)
        if (zipWriteInFileInZip(zf, buf, (unsigned)k) != ZIP_OK)
            rc = -1;
    if (ferror(w->fp))
        rc = -1;
    if (zipWriteInFileInZip(zf, td, (unsigned)tz) != ZIP_OK)
        rc = -1;
    if (zipCloseFileInZipRaw64(zf, size, crc) != ZIP_OK)
        rc = -1;
    free(hd);
    free(td);
    return rc;
}

int ry_xlsx_splice(const char *src, const char *dst, ry_xrows **rows, int n)
{
    unzFile uf = unzOpen64(src);
    if (!uf) {
        ry_error("cannot read the workbook '%s'", src);
        for (int i = 0; i < n; i++)
            ry_xrows_free(rows[i]);
        return -1;
    }
    zipFile zf = zipOpen64(dst, APPEND_STATUS_CREATE);
    if (!zf) {
        ry_error("cannot create '%s'", dst);
        unzClose(uf);
        for (int i = 0; i < n; i++)
            ry_xrows_free(rows[i]);
        return -1;
    }
    size_t cap = (size_t)1 << 20;
    unsigned char *buf = ry_xmalloc(cap);
    int rc = 0, done = 0;
    for (int k = unzGoToFirstFile(uf); k == UNZ_OK && rc == 0; k = unzGoToNextFile(uf)) {
        unz_file_info64 info;
        char name[256];
        if (unzGetCurrentFileInfo64(uf, &info, name, sizeof name, NULL, 0, NULL, 0) != UNZ_OK) {
            rc = -1;
            break;
        }
        int sheet = 0;
        char rest = 0;
        ry_xrows *w = NULL;
        if (sscanf(name, "xl/worksheets/sheet%d.xm%c", &sheet, &rest) == 2 && rest == 'l')
            for (int i = 0; i < n; i++)
                if (rows[i] && rows[i]->sheet == sheet)
                    w = rows[i];
        if (w) {
            rc = splice_member(uf, zf, name, &info, w, buf, cap);
            done++;
        } else {
            rc = copy_member(uf, zf, name, &info, buf, cap);
        }
    }
    if (rc == 0 && done != n)
        rc = -1;
    if (zipClose(zf, NULL) != ZIP_OK)
        rc = -1;
    unzClose(uf);
    free(buf);
    for (int i = 0; i < n; i++)
        ry_xrows_free(rows[i]);
    if (rc != 0)
        ry_error("cannot write the workbook '%s' (its rows could not be put into the sheets)", dst);
    return rc;
}
