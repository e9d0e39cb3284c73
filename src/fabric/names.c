#include "fabric/names.h"

#include <stdio.h>

const char *ry_tier_name(int tier, int tiers)
{
    static const char *names[] = { "gpu", "leaf", "spine", "core" };
    if (tier == 1)
        return tiers == 1 ? "switch" : "leaf";
    if (tier == tiers && tier > 3)
        return "top";
    if (tier >= 0 && tier <= 3)
        return names[tier];
    return "tier";
}

int ry_node_name(const ry_fabric *f, uint32_t id, char *buf, size_t n)
{
    const ry_node *nd = &f->nodes[id];
    if (nd->kind == RY_NODE_GPU)
        return snprintf(buf, n, "gpu%d", nd->index);
    const char *t = ry_tier_name(nd->tier, f->tiers);
    int len = 0;
    if (f->planes > 1)
        len = snprintf(buf, n, "p%d-", nd->plane);
    if (len < 0 || (size_t)len >= n)
        return len;
    if (f->tiers > 3 && nd->tier > 3 && nd->tier < f->tiers)
        return len + snprintf(buf + len, n - (size_t)len, "t%d-%d", nd->tier, nd->index);
    return len + snprintf(buf + len, n - (size_t)len, "%s%d", t, nd->index);
}
