/* Numbers for people; see numfmt.h. Everything goes through one grouping
 * routine over the digits snprintf gives, so that rounding is printf's and
 * the grouping is ours. */
#include "util/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* digits "1234567.89" (optionally "-") -> "1,234,567.89" into buf */
static const char *group(char *buf, size_t cap, const char *digits)
{
    size_t o = 0;
    const char *p = digits;
    if (cap == 0)
        return buf;
    if (*p == '-') {
        if (o + 1 < cap)
            buf[o++] = '-';
        p++;
    }
    size_t intlen = strcspn(p, ".");
    for (size_t i = 0; p[i] && o + 1 < cap; i++) {
        if (i > 0 && i < intlen && (intlen - i) % 3 == 0) {
            buf[o++] = ',';
            if (o + 1 >= cap)
                break;
        }
        buf[o++] = p[i];
    }
    buf[o] = '\0';
    return buf;
}

/* "-0" and "-0.0" are "0" and "0.0" */
static void drop_negative_zero(char *d)
{
    if (d[0] != '-')
        return;
    for (const char *p = d + 1; *p; p++)
        if (*p != '0' && *p != '.')
            return;
    memmove(d, d + 1, strlen(d));
}

const char *ry_num_int(char *buf, size_t cap, long long v)
{
    char d[32];
    snprintf(d, sizeof d, "%lld", v);
    return group(buf, cap, d);
}

const char *ry_num_fixed(char *buf, size_t cap, double v, int decimals)
{
    char d[400];
    if (!isfinite(v))
        return group(buf, cap, isnan(v) ? "n/a" : v > 0 ? "inf" : "-inf");
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    snprintf(d, sizeof d, "%.*f", decimals, v);
    drop_negative_zero(d);
    return group(buf, cap, d);
}

const char *ry_num_sig(char *buf, size_t cap, double v, int sig)
{
    if (sig < 1)
        sig = 1;
    if (sig > 6)
        sig = 6;
    if (!isfinite(v) || v == 0)
        return ry_num_fixed(buf, cap, v, 0);
    /* round to sig digits first, then print with just enough decimals */
    int e = (int)floor(log10(fabs(v)));
    double scale = pow(10, sig - 1 - e);
    double r = round(v * scale) / scale;
    if (r != 0 && (int)floor(log10(fabs(r))) != e)
        e++;                        /* 9.995 -> 10.0: one digit more in front */
    int decimals = sig - 1 - e;
    if (decimals < 0)
        decimals = 0;
    char d[400];
    snprintf(d, sizeof d, "%.*f", decimals, r);
    if (strchr(d, '.')) {           /* no trailing zeros after the point */
        size_t n = strlen(d);
        while (n > 0 && d[n - 1] == '0')
            d[--n] = '\0';
        if (n > 0 && d[n - 1] == '.')
            d[--n] = '\0';
    }
    drop_negative_zero(d);
    return group(buf, cap, d);
}

const char *ry_num_si(char *buf, size_t cap, double v, const char *unit, int sig)
{
    static const char *const up[] = { "", "k", "M", "G", "T", "P", "E" };
    static const char *const down[] = { "", "m", "u", "n", "p" };
    char num[RY_NUM_CAP];
    const char *prefix = "";
    double x = v;
    if (isfinite(x) && x != 0) {
        double lim = 1000 - 0.5 * pow(10, 3 - (sig < 1 ? 1 : sig));   /* rounds to 1,000 */
        size_t u = 0;
        while (fabs(x) >= lim && u + 1 < sizeof up / sizeof up[0]) {
            x /= 1000;
            u++;
        }
        prefix = up[u];
        size_t dn = 0;
        while (u == 0 && fabs(x) < 1 && dn + 1 < sizeof down / sizeof down[0]) {
            x *= 1000;
            dn++;
        }
        if (dn)
            prefix = down[dn];
    }
    ry_num_sig(num, sizeof num, x, sig);
    snprintf(buf, cap, "%s %s%s", num, prefix, unit);
    return buf;
}

const char *ry_num_length(char *buf, size_t cap, double metres)
{
    char num[RY_NUM_CAP];
    if (fabs(metres) < 1000) {
        snprintf(buf, cap, "%s m", ry_num_fixed(num, sizeof num, metres, 1));
        return buf;
    }
    snprintf(buf, cap, "%s km", ry_num_fixed(num, sizeof num, metres / 1000, 1));
    return buf;
}

const char *ry_num_money(char *buf, size_t cap, double v, int decimals)
{
    char num[RY_NUM_CAP];
    ry_num_fixed(num, sizeof num, fabs(v), decimals);
    snprintf(buf, cap, "%s$%s", v < 0 && strcmp(num, "0") != 0 ? "-" : "", num);
    return buf;
}

const char *ry_num_money_short(char *buf, size_t cap, double v)
{
    static const struct { double at; const char *unit; } scale[] = {
        { 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" }, { 1e3, "k" }
    };
    double a = fabs(v);
    const char *sign = v < 0 ? "-" : "";
    char num[RY_NUM_CAP];
    for (size_t i = 0; i < sizeof scale / sizeof *scale; i++) {
        /* 4 significant digits; 999,950 rounds to 1,000k: one step up */
        if (a >= scale[i].at * 0.99995) {
            ry_num_sig(num, sizeof num, a / scale[i].at, 4);
            snprintf(buf, cap, "%s$%s%s", sign, num, scale[i].unit);
            return buf;
        }
    }
    ry_num_sig(num, sizeof num, a, 4);
    snprintf(buf, cap, "%s$%s", a > 0 ? sign : "", num);
    return buf;
}

/* The next of the calling thread's 16 buffers for ry_n and ry_n_money
 * (room for a sign and a '$' before any number of RY_NUM_CAP). */
#define RING_CAP (RY_NUM_CAP + 8)
static char *ring_next(void)
{
    static _Thread_local char ring[16][RING_CAP];
    static _Thread_local unsigned next;
    return ring[next++ % 16];
}

const char *ry_n(long long v)
{
    return ry_num_int(ring_next(), RING_CAP, v);
}

const char *ry_n_money_short(double v)
{
    return ry_num_money_short(ring_next(), RING_CAP, v);
}

const char *ry_n_money(double v)
{
    return ry_num_money(ring_next(), RING_CAP, v, 0);
}
