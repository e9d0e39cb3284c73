/* Numbers for people (emit/numfmt.h), case by case: grouping, significant
 * digits, SI prefixes, lengths and money, and never an e-notation. */
#include <string.h>

#include "check.h"
#include "util/numfmt.h"

#define IS(got, want) CHECK(strcmp((got), (want)) == 0, "got [%s], want [%s]", (got), (want))

int main(void)
{
    char b[RY_NUM_CAP];
    IS(ry_num_int(b, sizeof b, 0), "0");
    IS(ry_num_int(b, sizeof b, 999), "999");
    IS(ry_num_int(b, sizeof b, 1000), "1,000");
    IS(ry_num_int(b, sizeof b, 16384), "16,384");
    IS(ry_num_int(b, sizeof b, 6553600), "6,553,600");
    IS(ry_num_int(b, sizeof b, -1234567), "-1,234,567");
    IS(ry_num_int(b, sizeof b, -9223372036854775807LL - 1), "-9,223,372,036,854,775,808");
    IS(ry_num_fixed(b, sizeof b, 1871.25, 1), "1,871.2");   /* printf's rounding: 1871.25 is exact, to even */
    IS(ry_num_fixed(b, sizeof b, 98041856.4, 0), "98,041,856");
    IS(ry_num_fixed(b, sizeof b, -0.04, 1), "0.0");
    IS(ry_num_fixed(b, sizeof b, 1e20, 0), "100,000,000,000,000,000,000");
    IS(ry_num_sig(b, sizeof b, 1310500, 3), "1,310,000");
    IS(ry_num_sig(b, sizeof b, 0.0012345, 3), "0.00123");
    IS(ry_num_sig(b, sizeof b, 12.5, 3), "12.5");
    IS(ry_num_sig(b, sizeof b, 12.0, 3), "12");
    IS(ry_num_sig(b, sizeof b, 9.9996, 4), "10");
    IS(ry_num_sig(b, sizeof b, 4.05e11, 3), "405,000,000,000");
    IS(ry_num_sig(b, sizeof b, -2.5e-7, 2), "-0.00000025");
    IS(ry_num_sig(b, sizeof b, 0, 3), "0");
    IS(ry_num_si(b, sizeof b, 7.04643e9, "B", 3), "7.05 GB");
    IS(ry_num_si(b, sizeof b, 3.32e15, "B", 3), "3.32 PB");
    IS(ry_num_si(b, sizeof b, 999.6, "B", 3), "1 kB");
    IS(ry_num_si(b, sizeof b, 999.4, "B", 3), "999 B");
    IS(ry_num_si(b, sizeof b, 0.0089, "s", 2), "8.9 ms");
    IS(ry_num_si(b, sizeof b, 2.5e-6, "s", 2), "2.5 us");
    IS(ry_num_si(b, sizeof b, 0, "B", 3), "0 B");
    IS(ry_num_si(b, sizeof b, 5e10, "B/s", 3), "50 GB/s");
    IS(ry_num_si(b, sizeof b, 4e24, "B", 3), "4,000,000 EB");
    IS(ry_num_length(b, sizeof b, 412.5), "412.5 m");
    IS(ry_num_length(b, sizeof b, 1871300), "1,871.3 km");
    IS(ry_num_money(b, sizeof b, 98041856, 0), "$98,041,856");
    IS(ry_num_money(b, sizeof b, 748, 2), "$748.00");
    IS(ry_num_money(b, sizeof b, -1500.5, 2), "-$1,500.50");
    IS(ry_num_money(b, sizeof b, -0.001, 0), "$0");
    /* the ring: 16 texts at once */
    const char *r[16];
    for (int i = 0; i < 16; i++)
        r[i] = ry_n(1000 * i);
    IS(r[0], "0");
    IS(r[15], "15,000");
    IS(r[1], "1,000");
    IS(ry_n_money(98041856.4), "$98,041,856");
    IS(ry_num_money_short(b, sizeof b, 126745590), "$126.7M");
    IS(ry_num_money_short(b, sizeof b, 4681608), "$4.682M");
    IS(ry_num_money_short(b, sizeof b, 12352116), "$12.35M");
    IS(ry_num_money_short(b, sizeof b, 950000), "$950k");
    IS(ry_num_money_short(b, sizeof b, 999960), "$1M");
    IS(ry_num_money_short(b, sizeof b, 1234567890), "$1.235B");
    IS(ry_num_money_short(b, sizeof b, 748), "$748");
    IS(ry_num_money_short(b, sizeof b, -2500000), "-$2.5M");
    IS(ry_n_money(-1500), "-$1,500");
    IS(r[2], "2,000");             /* two more of the ring taken: still there */
    IS(ry_n_money_short(0), "$0");
    /* a buffer too small is cut, never overrun */
    char small[5];
    IS(ry_num_int(small, sizeof small, 123456), "123,");
    /* no e-notation anywhere in a sweep of magnitudes */
    for (int e = -12; e <= 22; e++) {
        double v = 1.234567 * __builtin_pow(10, e);
        ry_num_sig(b, sizeof b, v, 4);
        CHECK(!strchr(b, 'e') && !strchr(b, 'E'), "sig of 1.23e%d: [%s]", e, b);
        ry_num_si(b, sizeof b, v, "B", 3);
        CHECK(strcspn(b, "eE") >= strcspn(b, " "), "si of 1.23e%d: [%s]", e, b);
    }
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
