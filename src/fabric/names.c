#include "fabric/names.h"

#include <stdio.h>

#include "spec/pattern.h"

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

int ry_host_name(const ry_fabric *f, long long node, char *buf, size_t n)
{
    const ry_spec *s = f->spec;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long unit = f->su_domains > 0 ? node * gpn / s->hb_domain / f->su_domains : 0;
    char why[128];
    int len = ry_name_pattern(s->node_pattern[0] ? s->node_pattern : "node{n1:03}", node, unit,
                              buf, n, why, sizeof why);
    if (len < 0)
        len = snprintf(buf, n, "node%lld", node + 1);
    return len;
}

int ry_ca_desc(const ry_fabric *f, uint32_t gpu_port, char *buf, size_t n)
{
    const ry_spec *s = f->spec;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    long long gpu = gpu_port / (uint32_t)f->planes;
    int plane = (int)(gpu_port % (uint32_t)f->planes);
    int len = ry_host_name(f, gpu / gpn, buf, n);
    if (len < 0 || (size_t)len >= n)
        return len;
    return len + snprintf(buf + len, n - (size_t)len, " mlx5_%lld", gpu % gpn + (long long)plane * gpn);
}
