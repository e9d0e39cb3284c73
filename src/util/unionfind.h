/* Union-find over dense ids, with path halving. A set's root is its lowest
 * id, so roots come in id order: a scan from id 0 meets every set first at
 * its root. The caller owns the parent array (up[i] = i to start). */
#ifndef RY_UNIONFIND_H
#define RY_UNIONFIND_H

#include <stdint.h>

static inline uint32_t ry_uf_find(uint32_t *up, uint32_t x)
{
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

static inline void ry_uf_join(uint32_t *up, uint32_t a, uint32_t b)
{
    a = ry_uf_find(up, a);
    b = ry_uf_find(up, b);
    if (a != b)
        up[a > b ? a : b] = a < b ? a : b;
}

#endif
