#include "util/hostlist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

#define MAX_DIGITS 18   /* a trailing number longer than this stays text */

/* ---- compression ------------------------------------------------------------------------- */

/* A name split before its trailing number. */
typedef struct split {
    size_t plen;                /* text before the number */
    const char *digits;         /* the number as written */
    size_t dlen;                /* its width; 0: the name stays as it is */
    unsigned long long v;
} split;

static void split_name(const char *s, split *sp)
{
    size_t len = strlen(s), i = len;
    while (i > 0 && isdigit((unsigned char)s[i - 1]))
        i--;
    sp->plen = i;
    sp->digits = s + i;
    sp->dlen = len - i;
    sp->v = 0;
    if (i == 0 || sp->dlen > MAX_DIGITS) {
        sp->plen = len;
        sp->dlen = 0;
        return;
    }
    for (size_t k = 0; k < sp->dlen; k++)
        sp->v = sp->v * 10 + (unsigned long long)(sp->digits[k] - '0');
}

typedef struct range {
    const char *lo_text;        /* the low end as written; its length is the width */
    size_t width;
    unsigned long long lo, hi;
} range;

typedef struct group {
    const char *prefix;
    size_t plen;
    range *r;
    size_t n, cap;
} group;

static void group_flush(ry_buf *out, group *g, int *first)
{
    if (!g->n)
        return;
    if (!*first)
        ry_buf_putc(out, ',');
    *first = 0;
    ry_buf_add(out, g->prefix, g->plen);
    if (g->n == 1 && g->r[0].lo == g->r[0].hi) {
        ry_buf_add(out, g->r[0].lo_text, g->r[0].width);
    } else {
        ry_buf_putc(out, '[');
        for (size_t i = 0; i < g->n; i++) {
            const range *r = &g->r[i];
            if (i)
                ry_buf_putc(out, ',');
            ry_buf_add(out, r->lo_text, r->width);
            if (r->hi != r->lo)
                ry_buf_printf(out, "-%0*llu", (int)r->width, r->hi);
        }
        ry_buf_putc(out, ']');
    }
    g->n = 0;
}

static void group_add_range(group *g, const split *sp)
{
    RY_ALLOC_GROW(g->r, g->n + 1, g->cap);
    g->r[g->n++] = (range){ sp->digits, sp->dlen, sp->v, sp->v };
}

/* Whether a number written as sp prints the same at width w. */
static int same_at_width(const split *sp, size_t w)
{
    return sp->dlen == w || (sp->dlen > w && sp->digits[0] != '0');
}

void ry_hostlist_compress_buf(ry_buf *out, const char *const *names, size_t n)
{
    group g = { 0 };
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        split sp;
        split_name(names[i], &sp);
        if (!sp.dlen) {
            group_flush(out, &g, &first);
            if (!first)
                ry_buf_putc(out, ',');
            first = 0;
            ry_buf_puts(out, names[i]);
            continue;
        }
        if (g.n && g.plen == sp.plen && memcmp(g.prefix, names[i], sp.plen) == 0) {
            range *r = &g.r[g.n - 1];
            if (sp.v == r->hi + 1 && same_at_width(&sp, r->width) &&
                r->hi - r->lo + 1 < RY_HOSTLIST_MAX_RANGE) {
                r->hi = sp.v;
                continue;
            }
            if (sp.v > r->hi) {
                group_add_range(&g, &sp);
                continue;
            }
        }
        group_flush(out, &g, &first);
        g.prefix = names[i];
        g.plen = sp.plen;
        group_add_range(&g, &sp);
    }
    group_flush(out, &g, &first);
    free(g.r);
}

char *ry_hostlist_compress(const char *const *names, size_t n)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_hostlist_compress_buf(&b, names, n);
    if (!b.data)
        return ry_xstrdup("");
    return b.data;
}

/* ---- expansion --------------------------------------------------------------------------- */

typedef struct seg {
    const char *text;           /* literal text, or NULL for a bracket group */
    size_t len;
    range *r;                   /* the group's ranges */
    size_t nr;
    unsigned long long count;   /* names the group stands for */
} seg;

typedef struct namevec {
    char **v;
    size_t n, cap;
} namevec;

static void namevec_push(namevec *a, char *s)
{
    RY_ALLOC_GROW(a->v, a->n + 1, a->cap);
    a->v[a->n++] = s;
}

static int parse_number(const char *p, const char *end, unsigned long long *v, size_t *w)
{
    size_t len = (size_t)(end - p);
    if (len == 0 || len > MAX_DIGITS)
        return -1;
    *v = 0;
    for (const char *q = p; q < end; q++) {
        if (!isdigit((unsigned char)*q))
            return -1;
        *v = *v * 10 + (unsigned long long)(*q - '0');
    }
    *w = len;
    return 0;
}

/* Parses the inside of one bracket group [p, end) into s. */
static int parse_group(const char *p, const char *end, seg *s, char *why, size_t whycap)
{
    size_t cap = 0;
    s->text = NULL;
    s->count = 0;
    for (;;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *e = comma ? comma : end;
        const char *dash = memchr(p, '-', (size_t)(e - p));
        range r;
        size_t hw;
        unsigned long long hi;
        if (parse_number(p, dash ? dash : e, &r.lo, &r.width) < 0 ||
            (dash && parse_number(dash + 1, e, &hi, &hw) < 0)) {
            snprintf(why, whycap, "'%.*s' is not a number or a range N-M of up to %d digits",
                     (int)(e - p), p, MAX_DIGITS);
            return -1;
        }
        r.hi = dash ? hi : r.lo;
        r.lo_text = p;
        if (r.hi < r.lo) {
            snprintf(why, whycap, "range '%.*s' runs backwards", (int)(e - p), p);
            return -1;
        }
        if (r.hi - r.lo + 1 > RY_HOSTLIST_MAX_RANGE) {
            snprintf(why, whycap, "range '%.*s' holds more than %d names", (int)(e - p), p,
                     RY_HOSTLIST_MAX_RANGE);
            return -1;
        }
        RY_ALLOC_GROW(s->r, s->nr + 1, cap);
        s->r[s->nr++] = r;
        s->count += r.hi - r.lo + 1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* Expands one item [p, end) (no top-level separators) onto out, keeping out
 * at most limit names. */
static int expand_item(const char *p, const char *end, unsigned long long limit, namevec *out,
                       char *why, size_t whycap)
{
    seg *segs = NULL;
    size_t nseg = 0, cap = 0;
    unsigned long long total = 1, *idx = NULL;
    ry_buf name;
    int rc = -1;
    ry_buf_init(&name);
    while (p < end) {
        RY_ALLOC_GROW(segs, nseg + 1, cap);
        seg *s = &segs[nseg++];
        memset(s, 0, sizeof *s);
        if (*p == '[') {
            const char *close = memchr(p, ']', (size_t)(end - p));
            if (!close) {
                snprintf(why, whycap, "'[' without ']'");
                goto done;
            }
            if (parse_group(p + 1, close, s, why, whycap) < 0)
                goto done;
            if (s->count > limit / total) {
                total = limit + 1;
                break;
            }
            total *= s->count;
            p = close + 1;
        } else {
            const char *q = p;
            while (q < end && *q != '[')
                q++;
            s->text = p;
            s->len = (size_t)(q - p);
            p = q;
        }
    }
    if (total > limit || out->n + total > limit) {
        snprintf(why, whycap, "more than %llu names", limit);
        goto done;
    }
    /* An odometer over the groups: group k is at offset idx[k] of its range
     * ri[k], so each name costs the same however many ranges a group has
     * (recounting from the first range made a[10,20,...] quadratic). */
    idx = ry_xcalloc(nseg ? nseg : 1, sizeof *idx);
    size_t *ri = ry_xcalloc(nseg ? nseg : 1, sizeof *ri);
    for (unsigned long long c = 0; c < total; c++) {
        ry_buf_reset(&name);
        for (size_t k = 0; k < nseg; k++) {
            const seg *s = &segs[k];
            if (s->text) {
                ry_buf_add(&name, s->text, s->len);
                continue;
            }
            const range *r = &s->r[ri[k]];
            ry_buf_printf(&name, "%0*llu", (int)r->width, r->lo + idx[k]);
        }
        namevec_push(out, ry_xstrdup(name.data ? name.data : ""));
        for (size_t k = nseg; k-- > 0;) {
            const seg *s = &segs[k];
            if (s->text)
                continue;
            if (idx[k] < s->r[ri[k]].hi - s->r[ri[k]].lo) {
                idx[k]++;
                break;
            }
            idx[k] = 0;
            if (++ri[k] < s->nr)
                break;
            ri[k] = 0;
        }
    }
    free(ri);
    rc = 0;
done:
    ry_buf_free(&name);
    free(idx);
    for (size_t k = 0; k < nseg; k++)
        free(segs[k].r);
    free(segs);
    return rc;
}

int ry_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n, char *why,
                       size_t whycap)
{
    namevec out = { 0 };
    const char *p = expr;
    unsigned long long limit = max ? max : (unsigned long long)1 << 32;
    if (limit > (unsigned long long)1 << 40)
        limit = (unsigned long long)1 << 40;
    *names = NULL;
    *n = 0;
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *q = p;
        int depth = 0;
        for (; *q; q++) {
            if (*q == '[') {
                if (depth) {
                    snprintf(why, whycap, "'[' inside brackets");
                    goto fail;
                }
                depth = 1;
            } else if (*q == ']') {
                if (!depth) {
                    snprintf(why, whycap, "']' without '['");
                    goto fail;
                }
                depth = 0;
            } else if (!depth && (*q == ',' || isspace((unsigned char)*q))) {
                break;
            }
        }
        if (depth) {
            snprintf(why, whycap, "'[' without ']'");
            goto fail;
        }
        if (expand_item(p, q, limit, &out, why, whycap) < 0)
            goto fail;
        p = q;
    }
    *names = out.v;
    *n = out.n;
    return 0;
fail:
    ry_hostlist_free(out.v, out.n);
    return -1;
}

void ry_hostlist_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int ry_name_cmp(const char *a, const char *b)
{
    int zeros = 0;      /* the first difference in leading zeros, to break a tie */
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            const char *a0 = a, *b0 = b;
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            const char *as = a, *bs = b;
            while (isdigit((unsigned char)*a))
                a++;
            while (isdigit((unsigned char)*b))
                b++;
            size_t la = (size_t)(a - as), lb = (size_t)(b - bs);
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = memcmp(as, bs, la);
            if (c)
                return c < 0 ? -1 : 1;
            if (!zeros && (as - a0) != (bs - b0))
                zeros = (as - a0) < (bs - b0) ? -1 : 1;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    if (*a || *b)
        return *a ? 1 : -1;
    return zeros;
}
