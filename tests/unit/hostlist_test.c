/* Hostlist expressions (src/util/hostlist.c): golden compressions and
 * expansions, malformed expressions, and a round trip over random host sets
 * (gaps, zero padding that changes width at 9->10 and 099->100, single
 * hosts, several prefixes, names ending in other characters, numbers going
 * down, duplicates): expand(compress(x)) must give x back in order, and
 * compressing again must give the same expression.
 *
 * usage: hostlist_test [CASES [SEED]]; exits non-zero on a failure. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hostlist.h"

static int failures;

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static void golden(const char *want, size_t n, ...)
{
    const char *names[64];
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        names[i] = va_arg(ap, const char *);
    va_end(ap);
    char *got = ry_hostlist_compress(names, n);
    if (strcmp(got, want) != 0) {
        printf("FAIL compress: got '%s', want '%s'\n", got, want);
        failures++;
    }
    free(got);
}

/* want: the names joined by single spaces. */
static void expands(const char *expr, const char *want)
{
    char **names, why[128];
    size_t n;
    if (ry_hostlist_expand(expr, 0, &names, &n, why, sizeof why) < 0) {
        printf("FAIL expand '%s': %s\n", expr, why);
        failures++;
        return;
    }
    char got[1024] = "";
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(got, " ");
        strcat(got, names[i]);
    }
    if (strcmp(got, want) != 0) {
        printf("FAIL expand '%s': got '%s', want '%s'\n", expr, got, want);
        failures++;
    }
    ry_hostlist_free(names, n);
}

static void rejects(const char *expr, size_t max, const char *reason)
{
    char **names, why[128] = "";
    size_t n;
    if (ry_hostlist_expand(expr, max, &names, &n, why, sizeof why) == 0) {
        printf("FAIL expand '%s': accepted, want an error\n", expr);
        failures++;
        ry_hostlist_free(names, n);
    } else if (!strstr(why, reason)) {
        printf("FAIL expand '%s': reason '%s' lacks '%s'\n", expr, why, reason);
        failures++;
    }
}

/* One random host name sequence, compressed, expanded, compared. */
static void round_trip(int caseno)
{
    static const char *prefixes[] = { "node", "gpu", "a", "x-", "rack1-n", "g.", "n",
                                      "su2-node", "b300-" };
    static const char *tails[] = { ".ib", "x", "-a", "-0a" };
    static const unsigned starts[] = { 0, 1, 7, 8, 9, 95, 98, 99, 998, 999, 9998 };
    size_t n = 1 + rnd(rnd(5) == 0 ? 3 : 300);
    char **names = malloc(n * sizeof *names);
    const char *prefix = prefixes[rnd(9)];
    int width = (int)rnd(5);            /* 0 or 1: natural; 2..4 zero-padded */
    unsigned long v = rnd(3) ? starts[rnd(11)] : rnd(100000);
    for (size_t i = 0; i < n; i++) {
        char buf[64];
        uint32_t r = rnd(100);
        if (r < 4)
            prefix = prefixes[rnd(9)];
        else if (r < 7)
            width = (int)rnd(5);
        r = rnd(100);
        if (r < 70)
            v++;
        else if (r < 85)
            v += 2 + rnd(20);
        else if (r < 90)
            v = v > 5 ? v - rnd(6) : v;         /* down or the same: duplicates */
        else if (r < 95)
            v = starts[rnd(11)];
        r = rnd(100);
        if (r < 4)
            snprintf(buf, sizeof buf, "login%c", 'a' + (int)rnd(3));   /* no digits at the end */
        else if (r < 8)
            snprintf(buf, sizeof buf, "%s%0*lu%s", prefix, width, v, tails[rnd(4)]);
        else if (r < 9)
            snprintf(buf, sizeof buf, "%0*lu", width, v);              /* digits only */
        else
            snprintf(buf, sizeof buf, "%s%0*lu", prefix, width, v);
        names[i] = strdup(buf);
    }
    char *expr = ry_hostlist_compress((const char *const *)names, n);
    char **back, why[128];
    size_t nb;
    if (ry_hostlist_expand(expr, 0, &back, &nb, why, sizeof why) < 0) {
        printf("FAIL case %d: '%s' does not expand: %s\n", caseno, expr, why);
        failures++;
    } else {
        size_t i = 0;
        while (i < n && i < nb && strcmp(names[i], back[i]) == 0)
            i++;
        if (i < n || nb != n) {
            printf("FAIL case %d: %zu names, %zu back; first difference at %zu: '%s' vs '%s'\n"
                   "  expression: %.300s\n", caseno, n, nb, i, i < n ? names[i] : "-",
                   i < nb ? back[i] : "-", expr);
            failures++;
        } else {
            char *again = ry_hostlist_compress((const char *const *)back, nb);
            if (strcmp(again, expr) != 0) {
                printf("FAIL case %d: compressing the expansion differs:\n  %.300s\n  %.300s\n",
                       caseno, expr, again);
                failures++;
            }
            free(again);
        }
        ry_hostlist_free(back, nb);
    }
    /* never longer than the plain list, but for the brackets themselves */
    size_t plain = n - 1;
    for (size_t i = 0; i < n; i++)
        plain += strlen(names[i]);
    for (const char *q = expr; *q; q++)
        plain += *q == '[' ? 2 : 0;
    if (strlen(expr) > plain) {
        printf("FAIL case %d: expression longer than the list: %.300s\n", caseno, expr);
        failures++;
    }
    free(expr);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int main(int argc, char **argv)
{
    int cases = argc > 1 ? atoi(argv[1]) : 2000;
    if (argc > 2)
        rng = strtoull(argv[2], NULL, 0) | 1;

    golden("", 0);
    golden("node005", 1, "node005");
    golden("node[001-003]", 3, "node001", "node002", "node003");
    golden("node[01-18,20]", 19, "node01", "node02", "node03", "node04", "node05", "node06",
           "node07", "node08", "node09", "node10", "node11", "node12", "node13", "node14",
           "node15", "node16", "node17", "node18", "node20");
    golden("a[1-3],b[01-02]", 5, "a1", "a2", "a3", "b01", "b02");
    golden("node[9-10]", 2, "node9", "node10");
    golden("node[099-100]", 2, "node099", "node100");
    golden("node[8,009]", 2, "node8", "node009");
    golden("node[99,0100]", 2, "node99", "node0100");
    golden("login,node[1-2],login2x", 4, "login", "node1", "node2", "login2x");
    golden("gpu1.ib,gpu2.ib", 2, "gpu1.ib", "gpu2.ib");
    golden("su1-n[1-2],su2-n[3-4]", 4, "su1-n1", "su1-n2", "su2-n3", "su2-n4");
    golden("node3,node2", 2, "node3", "node2");
    golden("node1,node1", 2, "node1", "node1");
    golden("007,008", 2, "007", "008");
    golden("n[0-1]", 2, "n0", "n1");
    golden("n[00-01]", 2, "n00", "n01");

    expands("tux[0-3,12,18-20]", "tux0 tux1 tux2 tux3 tux12 tux18 tux19 tux20");
    expands("node[08-10]", "node08 node09 node10");
    expands("node[8-10]", "node8 node9 node10");
    expands("node[098-100]", "node098 node099 node100");
    expands("rack[1-2]_node[1-2]", "rack1_node1 rack1_node2 rack2_node1 rack2_node2");
    expands("gpu[1-2].ib", "gpu1.ib gpu2.ib");
    expands("a, b\tc,,d", "a b c d");
    expands("s[0-2,4]", "s0 s1 s2 s4");
    expands("", "");

    rejects("node[1-", 0, "without ']'");
    rejects("node]1", 0, "without '['");
    rejects("node[3-1]", 0, "backwards");
    rejects("node[a]", 0, "not a number");
    rejects("node[[1]]", 0, "inside brackets");
    rejects("node[]", 0, "not a number");
    rejects("node[1,]", 0, "not a number");
    rejects("node[0-65536]", 0, "more than 65536");
    rejects("n[1-10]", 5, "more than 5");
    rejects("a[1-1000]b[1-1000]c[1-1000]d[1-1000]", 0, "more than");

    /* natural order: numbers as numbers, a total order */
    static const char *const sorted[] = { "", "a", "leaf", "leaf2", "leaf9", "leaf09", "leaf10",
                                          "leaf10a", "leaf10b", "mlx5_0", "mlx5_3", "mlx5_10",
                                          "mlx5_11", "node1 mlx5_3", "node1 mlx5_10",
                                          "node2 mlx5_0", "node10 mlx5_0", "z" };
    size_t ns = sizeof sorted / sizeof sorted[0];
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < ns; j++) {
            int c = ry_name_cmp(sorted[i], sorted[j]), want = (i > j) - (i < j);
            if (c != want) {
                printf("FAIL: ry_name_cmp(\"%s\", \"%s\") = %d, want %d\n", sorted[i],
                       sorted[j], c, want);
                failures++;
            }
        }

    for (int c = 0; c < cases; c++)
        round_trip(c);

    printf("hostlist_test: %d round trips, %d failures\n", cases, failures);
    return failures ? 1 : 0;
}
