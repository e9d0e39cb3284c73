/* ry_pareto_front against its definition, checked in O(n^2): point i (with
 * ok[i]) is on the front when no other point j (with ok[j]) has x[j] <= x[i]
 * and y[j] <= y[i] with one of them strictly less. Cases by hand (ties in
 * one cost and in both, +INFINITY on either axis, the ok mask, none), then
 * random sets drawn from a few values so ties and infinities are common. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pareto.h"
#include "check.h"

static size_t definition(const double *x, const double *y, const unsigned char *ok, size_t n,
                         unsigned char *on)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        on[i] = 0;
        if (ok && !ok[i])
            continue;
        int beaten = 0;
        for (size_t j = 0; j < n && !beaten; j++)
            beaten = j != i && (!ok || ok[j]) && x[j] <= x[i] && y[j] <= y[i] &&
                     (x[j] < x[i] || y[j] < y[i]);
        on[i] = !beaten;
        count += on[i];
    }
    return count;
}

/* ry_pareto_front's answer against the definition's. */
static void compare(const char *what, const double *x, const double *y, const unsigned char *ok,
                    size_t n)
{
    unsigned char got[64], want[64];
    if (n > sizeof got) {
        CHECK(0, "%s: at most %zu points", what, sizeof got);
        return;
    }
    memset(got, 7, sizeof got);
    size_t ng = ry_pareto_front(x, y, ok, n, got);
    size_t nw = definition(x, y, ok, n, want);
    CHECK(ng == nw, "%s: %zu on the front, want %zu", what, ng, nw);
    for (size_t i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s: point %zu (%g, %g%s): on = %d, want %d", what, i, x[i],
              y[i], ok && !ok[i] ? ", not ok" : "", got[i], want[i]);
}

/* The exact front wanted, by hand: on as a string of 0 and 1. */
static void expect(const char *what, const double *x, const double *y, const unsigned char *ok,
                   size_t n, const char *on)
{
    unsigned char got[64];
    size_t count = ry_pareto_front(x, y, ok, n, got), want = 0;
    for (size_t i = 0; i < n; i++) {
        want += on[i] == '1';
        CHECK(got[i] == (on[i] == '1'), "%s: point %zu: on = %d, want %c", what, i, got[i],
              on[i]);
    }
    CHECK(count == want, "%s: count %zu, want %zu", what, count, want);
    compare(what, x, y, ok, n);
}

int main(void)
{
    const double inf = INFINITY;

    /* a staircase with points behind it */
    {
        double x[] = { 1, 2, 3, 4, 2.5, 5, 3 };
        double y[] = { 9, 5, 4, 1, 6, 1, 4 };
        expect("staircase", x, y, NULL, 7, "1111001");
    }
    /* equal cost in one axis: the cheaper in the other wins */
    {
        double x[] = { 5, 5, 5, 1 };
        double y[] = { 3, 2, 2, 9 };
        expect("ties in x", x, y, NULL, 4, "0111");
        double y2[] = { 2, 2, 2, 2 };
        double x2[] = { 4, 3, 3, 5 };
        expect("ties in y", x2, y2, NULL, 4, "0110");
    }
    /* equal in both: all on or all off */
    {
        double x[] = { 2, 2, 2, 1 };
        double y[] = { 2, 2, 2, 3 };
        expect("ties in both, on", x, y, NULL, 4, "1111");
        double y2[] = { 2, 2, 2, 1 };
        expect("ties in both, off", x, y2, NULL, 4, "0001");
    }
    /* +INFINITY: a stall is on the front only when nothing beats it on the
     * other axis; two stalls of one capex tie */
    {
        double x[] = { 1, 2, 3, 1, 4 };
        double y[] = { inf, 5, inf, inf, 3 };
        expect("infinite y", x, y, NULL, 5, "11011");
        double x2[] = { inf, inf, 3, 2 };
        double y2[] = { 1, 0.5, 2, 3 };
        expect("infinite x", x2, y2, NULL, 4, "0111");
        double x3[] = { inf, inf };
        double y3[] = { inf, inf };
        expect("both infinite", x3, y3, NULL, 2, "11");
    }
    /* the ok mask: a point left out neither is on the front nor beats any */
    {
        double x[] = { 1, 2, 3, 4 };
        double y[] = { 1, 2, 3, 0 };
        unsigned char ok[] = { 0, 1, 0, 1 };
        expect("ok mask", x, y, ok, 4, "0101");
        unsigned char none[] = { 0, 0, 0, 0 };
        expect("ok mask, none", x, y, none, 4, "0000");
    }
    /* no points; one point */
    {
        unsigned char on[1] = { 9 };
        CHECK(ry_pareto_front(NULL, NULL, NULL, 0, on) == 0, "no points: a front");
        double x[] = { 7 }, y[] = { inf };
        expect("one point", x, y, NULL, 1, "1");
    }
    /* negative and zero costs order as numbers */
    {
        double x[] = { -1, 0, -0.0, 3 };
        double y[] = { 5, 4, 4, -2 };
        expect("signs", x, y, NULL, 4, "1111");
    }

    /* random sets: few distinct values, so ties, duplicates and stalls */
    srand(12345);
    static const double vals[] = { 0, 1, 2, 2.5, 3, 7, 1e9, INFINITY };
    for (int round = 0; round < 20000; round++) {
        size_t n = (size_t)(rand() % 40);
        double x[64], y[64];
        unsigned char ok[64];
        int nv = 2 + rand() % 7;
        for (size_t i = 0; i < n; i++) {
            x[i] = vals[rand() % nv];
            y[i] = vals[rand() % nv];
            if (rand() % 3 == 0)
                x[i] += (rand() % 1000) / 1000.0;
            ok[i] = rand() % 5 != 0;
        }
        char what[64];
        snprintf(what, sizeof what, "random set %d", round);
        compare(what, x, y, round % 2 ? ok : NULL, n);
        if (failures > 20)
            break;
    }

    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
