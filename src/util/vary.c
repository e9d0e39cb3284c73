#include "util/vary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

static void add_value(ry_vary *v, const char *s)
{
    RY_ALLOC_GROW(v->values, v->n + 1, v->cap);
    v->values[v->n++] = ry_xstrdup(s);
}

static void number_text(char *buf, size_t cap, double x)
{
    if (x == floor(x) && fabs(x) < 9e15)
        snprintf(buf, cap, "%.0f", x);
    else
        snprintf(buf, cap, "%.10g", x);
}

/* "A..B" (A, 2A, 4A, ... up to B), "A..B+S" (steps of S), "A..B*F" (times F). */
static int expand_range(ry_vary *v, const char *item, const char **why)
{
    const char *dots = strstr(item, "..");
    if (!dots || dots == item)
        return 0;
    /* "8..1024": strtod would take "8." as the first number. */
    char first[64];
    size_t n = (size_t)(dots - item);
    if (n >= sizeof first)
        return 0;
    memcpy(first, item, n);
    first[n] = '\0';
    char *end;
    double a = strtod(first, &end);
    if (end == first || *end)
        return 0;
    const char *p = dots + 2;
    double b = strtod(p, &end);
    if (end == p) {
        *why = "a range needs numbers on both sides of '..'";
        return -1;
    }
    double step = 2;
    int mult = 1;
    if (*end == '+' || *end == '*') {
        mult = *end == '*';
        p = end + 1;
        step = strtod(p, &end);
        if (end == p) {
            *why = "a step after '+' or '*' must be a number";
            return -1;
        }
    }
    if (*end) {
        *why = "a range is A..B, A..B+STEP or A..B*FACTOR";
        return -1;
    }
    if (!isfinite(a) || !isfinite(b) || !isfinite(step) || b < a) {
        *why = "a range A..B needs A <= B";
        return -1;
    }
    if (mult ? !(a > 0 && step > 1) : !(step > 0)) {
        *why = mult ? "a multiplying range needs A > 0 and a factor > 1"
                    : "a range's step must be > 0";
        return -1;
    }
    for (double x = a; x <= b * (1 + 1e-12); x = mult ? x * step : x + step) {
        if (v->n >= RY_VARY_MAX_VALUES) {
            *why = "too many values (at most 4096 per key)";
            return -1;
        }
        char buf[64];
        number_text(buf, sizeof buf, x);
        add_value(v, buf);
    }
    return 1;
}

typedef struct vref {
    const char *s;
    int i;
} vref;

static int cmp_vref(const void *x, const void *y)
{
    const vref *a = x, *b = y;
    int c = strcmp(a->s, b->s);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

int ry_vary_dup(const ry_vary *v)
{
    if (v->n < 2)
        return -1;
    vref *r = ry_xmalloc((size_t)v->n * sizeof *r);
    for (int i = 0; i < v->n; i++)
        r[i] = (vref){ v->values[i], i };
    qsort(r, (size_t)v->n, sizeof *r, cmp_vref);
    /* each run of one text is in the order given: its second is a repeat */
    int first = -1;
    for (int i = 1; i < v->n; i++)
        if (strcmp(r[i].s, r[i - 1].s) == 0 && (i < 2 || strcmp(r[i - 1].s, r[i - 2].s) != 0) &&
            (first < 0 || r[i].i < first))
            first = r[i].i;
    free(r);
    return first;
}

void ry_vary_free(ry_vary *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->values[i]);
    free(v->values);
    free(v->key);
}

int ry_vary_add(ry_vary *v, const char *item, const char **why)
{
    /* a value is one YAML scalar on one line: it is written after its key
     * in a comment line of each front/point-N.yaml, and into plots' labels */
    for (const char *p = item; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            *why = "a value is one line of text, without line breaks, tabs or other control "
                   "characters";
            return -1;
        }
    int r = expand_range(v, item, why);
    if (r < 0)
        return -1;
    if (r == 0) {
        if (v->n >= RY_VARY_MAX_VALUES) {
            *why = "too many values (at most 4096 per key)";
            return -1;
        }
        add_value(v, item);
    }
    return 0;
}

int ry_vary_parse(const char *arg, ry_vary *v, const char **why)
{
    const char *eq = strchr(arg, '=');
    memset(v, 0, sizeof *v);
    if (!eq || eq == arg || !eq[1]) {
        *why = "expected KEY=VALUES, like cluster.hb_domain=8..1024 or "
               "workload.batch=512,1024,2048";
        return -1;
    }
    v->key = ry_xstrdup(arg);
    v->key[eq - arg] = '\0';
    char *list = ry_xstrdup(eq + 1);
    int rc = 0;
    /* items end at a comma outside brackets, braces and quotes: a value may
     * be a YAML list or map, like [2:1, 1:1] */
    int depth = 0;
    char quote = 0;
    char *item = list;
    for (char *p = list;; p++) {
        if (quote && *p) {
            if (*p == quote)
                quote = 0;
            continue;
        }
        if (*p == '"' || *p == '\'')
            quote = *p;
        else if (*p == '[' || *p == '{')
            depth++;
        else if ((*p == ']' || *p == '}') && depth > 0)
            depth--;
        if (*p && (*p != ',' || depth > 0))
            continue;
        int end = !*p;
        *p = '\0';
        while (*item == ' ')
            item++;
        size_t n = strlen(item);
        while (n && item[n - 1] == ' ')
            item[--n] = '\0';
        if (*item && rc == 0)
            rc = ry_vary_add(v, item, why);
        if (end)
            break;
        item = p + 1;
    }
    free(list);
    if (rc == 0 && v->n == 0) {
        *why = "no values";
        rc = -1;
    }
    int dup = rc == 0 ? ry_vary_dup(v) : -1;
    if (dup >= 0) {
        static _Thread_local char msg[160];
        snprintf(msg, sizeof msg, "the value '%.100s' is given twice", v->values[dup]);
        *why = msg;
        rc = -1;
    }
    if (rc < 0) {
        ry_vary_free(v);
        memset(v, 0, sizeof *v);
    }
    return rc;
}
