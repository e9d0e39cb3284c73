/* CSV fields: RFC 4180 quoting and formula neutralisation, case by case,
 * and the SipHash reference vector of the keyed hash. */
#include <string.h>

#include "check.h"
#include "emit/csv.h"
#include "util/buf.h"
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

int main(void)
{
    field("", "");
    field("leaf0/33", "leaf0/33");
    field("a,b", "\"a,b\"");
    field("say \"hi\"", "\"say \"\"hi\"\"\"");
    field("two\nlines", "\"two\nlines\"");
    field("-1", "-1");
    field("+3.5", "+3.5");
    field("-2e3", "-2e3");
    field("=SUM(A1:A9)", "'=SUM(A1:A9)");
    field("+cmd", "'+cmd");
    field("-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0");
    field("@SUM(1)", "'@SUM(1)");
    field("\tx", "'\tx");
    field("\rx", "\"'\rx\"");
    field("=a,b", "\"'=a,b\"");
    field("-0x10", "'-0x10");
    field("-", "'-");

    /* SipHash-2-4, the reference vector: key 00..0f, message 00..0e */
    uint64_t k[2] = { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL };
    unsigned char msg[15];
    for (int i = 0; i < 15; i++)
        msg[i] = (unsigned char)i;
    CHECK(ry_siphash(k, msg, 15) == 0xa129ca6149be45e5ULL, "siphash vector: %016llx",
          (unsigned long long)ry_siphash(k, msg, 15));
    CHECK(ry_siphash(k, msg, 0) == 0x726fdb47dd0e0e31ULL, "siphash of nothing: %016llx",
          (unsigned long long)ry_siphash(k, msg, 0));

    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
