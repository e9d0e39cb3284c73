#include "analysis/pareto.h"

#include <stdlib.h>

#include "util/diag.h"

typedef struct item {
    double x, y;
    size_t i;
} item;

static int by_x_then_y(const void *a, const void *b)
{
    const item *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

size_t ry_pareto_front(const double *x, const double *y, const unsigned char *ok, size_t n,
                       unsigned char *on)
{
    item *v = ry_xcalloc(n ? n : 1, sizeof *v);
    size_t m = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        on[i] = 0;
        if (!ok || ok[i])
            v[m++] = (item){ x[i], y[i], i };
    }
    qsort(v, m, sizeof *v, by_x_then_y);
    /* Walking up x: a point is on the front when its y is below every y
     * seen at a smaller x, or equal to the front's last point (a tie in
     * both costs). */
    double best_y = 0, last_x = 0;
    int any = 0;
    for (size_t k = 0; k < m; k++) {
        int keep;
        if (!any)
            keep = 1;
        else if (v[k].y < best_y)
            keep = 1;
        else
            keep = v[k].y == best_y && v[k].x == last_x;
        if (keep) {
            on[v[k].i] = 1;
            count++;
            if (!any || v[k].y < best_y || v[k].x != last_x) {
                best_y = v[k].y;
                last_x = v[k].x;
            }
            any = 1;
        }
    }
    free(v);
    return count;
}
