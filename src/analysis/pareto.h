/* The Pareto front of points with two costs to minimise (capex and
 * iteration time, capex and slowdown under failure): a point is on the
 * front when no other point is at most as costly in both and cheaper in
 * one. Points with equal costs are all on the front or all off it. */
#ifndef RY_PARETO_H
#define RY_PARETO_H

#include <stddef.h>

/* on[i] = 1 for the points on the front among those with ok[i] set (ok
 * NULL: every point), 0 otherwise. x and y are finite or +INFINITY (a
 * point stalled on one axis is on the front only if nothing beats it on
 * the other). O(n log n); returns the number on the front. */
size_t ry_pareto_front(const double *x, const double *y, const unsigned char *ok, size_t n,
                       unsigned char *on);

#endif
