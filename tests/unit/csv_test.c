/* CSV fields: RFC 4180 quoting, and text kept as it is (no formula guard:
 * the programs that import railyard's CSV read "-x" as "-x"); the escaper
 * of util/escape.h in each of its contexts, case by case; and the SipHash
 * reference vector of the keyed hash; the growth idioms of util/alloc.h
 * (one array, two parallel ones); and ry_buf_printf and ry_buf_putc at
 * every length about the buffer's capacity (printf formats into the spare
 * room and only again once grown). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit/csv.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/hash.h"

static void field(const char *in, const char *want)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_csv_field(&b, in);
    CHECK(strcmp(b.data ? b.data : "", want) == 0, "csv field of [%s]: got [%s], want [%s]", in,
          b.data ? b.data : "", want);
    ry_buf_free(&b);
}

static void esc(ry_esc how, const char *in, const char *want)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_escape_str(&b, in, how);
    CHECK(strcmp(b.data ? b.data : "", want) == 0, "escape %d of [%s]: got [%s], want [%s]",
          (int)how, in, b.data ? b.data : "", want);
    ry_buf_free(&b);
}

/* Appends, from an empty buffer and one of each length to 600, texts of
 * each length to 600 by ry_buf_printf (and a byte by ry_buf_putc), which
 * must read as the same appends by snprintf into a large array. */
static void buf_appends(void)
{
    static char want[2048], text[700];
    for (int pre = 0; pre <= 600; pre += 7) {
        for (int n = 0; n <= 600; n += 13) {
            ry_buf b;
            ry_buf_init(&b);
            memset(text, 'x', (size_t)n);
            text[n] = '\0';
            for (int i = 0; i < pre; i++)
                ry_buf_putc(&b, (char)('a' + i % 26));
            ry_buf_printf(&b, "%s%d", text, n);
            ry_buf_putc(&b, '!');
            int w = 0;
            for (int i = 0; i < pre; i++)
                want[w++] = (char)('a' + i % 26);
            w += snprintf(want + w, sizeof want - (size_t)w, "%s%d!", text, n);
            CHECK(b.len == (size_t)w && strcmp(b.data, want) == 0 && b.len < b.cap,
                  "ry_buf after %d bytes, printf of %d: %zu bytes, want %d", pre, n, b.len, w);
            ry_buf_free(&b);
        }
    }
}

int main(void)
{
    buf_appends();
    field("", "");
    field("leaf0/33", "leaf0/33");
    field("a,b", "\"a,b\"");
    field("say \"hi\"", "\"say \"\"hi\"\"\"");
    field("two\nlines", "\"two\nlines\"");
    field("-1", "-1");
    field("+3.5", "+3.5");
    field("-2e3", "-2e3");
    /* data that starts like a formula stays data */
    field("=SUM(A1:A9)", "=SUM(A1:A9)");
    field("+cmd", "+cmd");
    field("-1+cmd|' /C calc'!A0", "-1+cmd|' /C calc'!A0");
    field("@SUM(1)", "@SUM(1)");
    field("\tx", "\tx");
    field("\rx", "\"\rx\"");
    field("=a,b", "\"=a,b\"");
    field("-0x10", "-0x10");
    field("-", "-");
    /* control bytes and bytes outside UTF-8 are shown */
    field("a\033[2Jb", "a\\x1b[2Jb");
    field("\033]0;x\a,y", "\"\\x1b]0;x\\x07,y\"");
    field("caf\xc3\xa9 \xff", "caf\xc3\xa9 \\xff");

    /* one rule, each context's quoting */
    const char *hostile = "a\033[31m\"b\\\n\t\r\x7f\xc2\x9b\xe9<&>'z";
    esc(RY_ESC_TERM, hostile, "a\\x1b[31m\"b\\\\x0a\\x09\\x0d\\x7f\\xc2\\x9b\\xe9<&>'z");
    esc(RY_ESC_TEXT, hostile, "a\\x1b[31m\"b\\\n\t\\x0d\\x7f\\xc2\\x9b\\xe9<&>'z");
    esc(RY_ESC_CSV, hostile, "\"a\\x1b[31m\"\"b\\\n\t\r\\x7f\\xc2\\x9b\\xe9<&>'z\"");
    esc(RY_ESC_DOT, hostile, "a\\\\x1b[31m\\\"b\\\\\\n\\\\x09\\\\x0d\\\\x7f\\\\xc2\\\\x9b\\\\xe9<&>'z");
    esc(RY_ESC_YAML, hostile, "a\\\\x1b[31m\\\"b\\\\\\n\\t\\r\\\\x7f\\\\xc2\\\\x9b\\\\xe9<&>'z");
    esc(RY_ESC_JSON, hostile, "a\\\\x1b[31m\\\"b\\\\\\n\\t\\r\\\\x7f\\\\xc2\\\\x9b\\\\xe9<&>'z");
    esc(RY_ESC_XML, hostile, "a\\x1b[31m&quot;b\\\n\t&#13;\\x7f\\xc2\\x9b\\xe9&lt;&amp;&gt;&#39;z");
    esc(RY_ESC_LINE, hostile, "a\\x1b[31m\"b\\\\x0a\\x09\\x0d\\x7f\\xc2\\x9b\\xe9<&>'z");
    esc(RY_ESC_GNUPLOT, hostile, "'a\\x1b[31m\"b\\   \\x7f\\xc2\\x9b\\xe9<&>''z'");
    esc(RY_ESC_SHELL, hostile,
        "'a\\x1b[31m\"b\\\\x0a\\x09\\x0d\\x7f\\xc2\\x9b\\xe9<&>'\\''z'");
    /* gnuplot: backquotes, macros and backslashes stay text in single quotes */
    esc(RY_ESC_GNUPLOT, "`touch /tmp/x` @m $0 \\", "'`touch /tmp/x` @m $0 \\'");
    esc(RY_ESC_GNUPLOT, "", "''");
    esc(RY_ESC_GNUPLOT, "it's", "'it''s'");
    /* shell: a plain word as it is, anything else one quoted word */
    esc(RY_ESC_SHELL, "eth0", "eth0");
    esc(RY_ESC_SHELL, "10.0.0.0/9", "10.0.0.0/9");
    esc(RY_ESC_SHELL, "", "''");
    esc(RY_ESC_SHELL, "a b", "'a b'");
    esc(RY_ESC_SHELL, "e;reboot", "'e;reboot'");
    esc(RY_ESC_SHELL, "$(id)`id`", "'$(id)`id`'");
    esc(RY_ESC_SHELL, "it's", "'it'\\''s'");
    esc(RY_ESC_SHELL, "e\nreboot", "'e\\x0areboot'");
    esc(RY_ESC_SHELL, "~root", "'~root'");
    esc(RY_ESC_SHELL, "caf\xc3\xa9", "'caf\xc3\xa9'");
    /* valid UTF-8 passes; overlong forms, surrogates and cut sequences do not */
    esc(RY_ESC_TERM, "\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80");
    esc(RY_ESC_TERM, "\xc0\xaf\xed\xa0\x80\xe2\x82", "\\xc0\\xaf\\xed\\xa0\\x80\\xe2\\x82");
    char cut[16];
    ry_escape_to(cut, sizeof cut, "\033\033\033\033", RY_ESC_TERM);
    CHECK(strcmp(cut, "\\x1b\\x1b\\x1b\\x1") == 0, "escape_to cut: [%s]", cut);
    char shown[RY_SHOWN_MAX];
    CHECK(strcmp(ry_shown(shown, "\033[2J"), "\\x1b[2J") == 0, "ry_shown: [%s]", shown);

    /* SipHash-2-4, the reference vector: key 00..0f, message 00..0e */
    uint64_t k[2] = { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL };
    unsigned char msg[15];
    for (int i = 0; i < 15; i++)
        msg[i] = (unsigned char)i;
    CHECK(ry_siphash(k, msg, 15) == 0xa129ca6149be45e5ULL, "siphash vector: %016llx",
          (unsigned long long)ry_siphash(k, msg, 15));
    CHECK(ry_siphash(k, msg, 0) == 0x726fdb47dd0e0e31ULL, "siphash of nothing: %016llx",
          (unsigned long long)ry_siphash(k, msg, 0));

    /* a row: fields quoted one by one, commas between, the record's end */
    ry_buf row;
    ry_buf_init(&row);
    ry_csv_row(&row, (const char *const[]){ "a", "b,c", "" }, 3);
    ry_csv_fields(&row, (const char *const[]){ "x" }, 1);
    CHECK(strcmp(row.data, "a,\"b,c\",\nx") == 0, "csv row: [%s]", row.data);
    ry_buf_free(&row);
    /* a record set by column, in any order: the cells not set are empty */
    ry_buf_init(&row);
    ry_csv_rec rec = { .n = 4 };
    ry_csv_set(&rec, 2, "%d,%s", 7, "x");
    ry_csv_set(&rec, 0, "%.2f", 1.5);
    ry_csv_put(&row, &rec);
    CHECK(strcmp(row.data, "1.50,,\"7,x\",\n") == 0, "csv record: [%s]", row.data);
    ry_buf_free(&row);

    /* RY_ALLOC_GROW: appends keep what was there, with a count of any type */
    int *v = NULL, nv = 0, capv = 0;
    for (int i = 0; i < 1000; i++) {
        RY_ALLOC_GROW(v, nv + 1, capv);
        v[nv++] = i;
    }
    int same = 1;
    for (int i = 0; i < nv; i++)
        same &= v[i] == i;
    CHECK(same && capv >= nv && capv < 2 * nv, "grow: cap %d for %d", capv, nv);
    free(v);
    char *c = NULL;
    size_t capc = 0;
    RY_ALLOC_GROW(c, 3, capc);
    CHECK(c && capc >= 3, "grow from nothing: cap %zu", capc);
    RY_ALLOC_GROW(c, 2, capc);
    CHECK(capc >= 3, "no shrink: cap %zu", capc);
    RY_ALLOC_GROW(c, 5000, capc);
    CHECK(capc == 5000, "a jump past the factor: cap %zu", capc);
    free(c);
    /* RY_ALLOC_GROW2: two arrays of other element sizes, one capacity */
    long long *key = NULL;
    unsigned char *val = NULL;
    size_t nkv = 0, capkv = 0, grown = 0;
    for (int i = 0; i < 5000; i++) {
        size_t was = capkv;
        RY_ALLOC_GROW2(key, val, nkv + 1, capkv);
        grown += capkv != was;
        key[nkv] = (long long)i << 33;
        val[nkv++] = (unsigned char)i;
    }
    same = 1;
    for (size_t i = 0; i < nkv; i++)
        same &= key[i] == (long long)i << 33 && val[i] == (unsigned char)i;
    CHECK(same && capkv >= nkv && capkv < 2 * nkv && grown < 30,
          "grow2: cap %zu for %zu, %zu times", capkv, nkv, grown);
    RY_ALLOC_GROW2(key, val, 2, capkv);
    CHECK(capkv >= nkv, "grow2 does not shrink: cap %zu", capkv);
    free(key);
    free(val);
    CHECK(ry_alloc_nr(0, 1) == 24 && ry_alloc_nr(100, 101) == 174, "alloc_nr: %zu %zu",
          ry_alloc_nr(0, 1), ry_alloc_nr(100, 101));

    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
