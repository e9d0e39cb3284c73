/* Reserve cost and savings of a growth target (see growth.h). The graphs
 * are built here and freed before returning; cables meet by the names of
 * their ends in a set of strings local to one comparison. */
#include "analysis/growth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "fabric/reserve.h"
#include "util/diag.h"
#include "util/hash.h"

typedef struct strset {
    char **slot;
    size_t cap;
} strset;

static void set_init(strset *t, size_t n)
{
    t->cap = 16;
    while (t->cap < 2 * n + 16)
        t->cap *= 2;
    t->slot = ry_xcalloc(t->cap, sizeof *t->slot);
}

static size_t set_find(const strset *t, const char *k)
{
    size_t i = (size_t)ry_hash_str(k) & (t->cap - 1);
    while (t->slot[i] && strcmp(t->slot[i], k) != 0)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static void set_add(strset *t, const char *k)
{
    size_t i = set_find(t, k);
    if (!t->slot[i])
        t->slot[i] = ry_xstrdup(k);
}

static int set_has(const strset *t, const char *k)
{
    return t->slot[set_find(t, k)] != NULL;
}

static void set_free(strset *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slot[i]);
    free(t->slot);
}

/* "leaf3:33" or "gpu17/p0": one end of a cable. */
static void end_name(const ry_fabric *f, uint32_t port, char *buf, size_t n)
{
    const ry_node *nd = ry_port_node(f, port);
    char name[96];
    ry_node_name(f, f->ports[port].owner, name, sizeof name);
    if (nd->kind == RY_NODE_GPU)
        snprintf(buf, n, "%s/p%u", name, port - nd->port0);
    else
        snprintf(buf, n, "%s:%d", name, ry_port_number(f, port));
}

static void cable_key(const ry_fabric *f, uint32_t link, char *buf, size_t n)
{
    char a[128], b[128];
    end_name(f, f->links[link].lo, a, sizeof a);
    end_name(f, f->links[link].hi, b, sizeof b);
    snprintf(buf, n, "%s|%s", a, b);
}

/* Cables of f the target's set has not. */
static long long moved(const ry_fabric *f, const strset *target)
{
    long long n = 0;
    char k[300];
    for (size_t l = 0; l < f->nlinks; l++) {
        cable_key(f, (uint32_t)l, k, sizeof k);
        n += !set_has(target, k);
    }
    return n;
}

static long long switch_units(const ry_fabric *f)
{
    const ry_spec *s = f->spec;
    long long u = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_switch_model *m = ry_node_model_of(f, &f->nodes[i]);
        u += s->layout.switch_units_set ? s->layout.switch_units : m->units > 0 ? m->units : 1;
    }
    return u;
}

static int capex_of(const ry_fabric *f, const ry_spec *owner, const ry_media_catalog *media,
                    ry_capex *out, ry_err *err)
{
    if (ry_fabric_capex(f, media, NULL, out, err) < 0)
        return -1;
    /* the capex borrows the switch's names from the spec, not from a copy */
    out->switch_name = owner->sw.name;
    out->switch_part = owner->sw.part;
    return 0;
}

int ry_growth_compute(const ry_fabric *f, const ry_media_catalog *media, ry_growth *g,
                      ry_err *err)
{
    const ry_spec *s = f->spec;
    memset(g, 0, sizeof *g);
    ry_spec plain = *s, ts;
    plain.growth.target_gpus = 0;
    plain.growth.target_nodes = 0;
    ry_reserve_target_spec(s, &ts);
    g->target_gpus = ts.gpus;
    g->target_nodes = ts.nodes;

    ry_fabric without, target;
    if (ry_fabric_build(&plain, &without, err) < 0)
        return -1;
    if (ry_fabric_build(&ts, &target, err) < 0) {
        ry_fabric_free(&without);
        return -1;
    }
    int rc = 0;
    if (capex_of(f, s, media, &g->with, err) < 0 ||
        capex_of(&without, s, media, &g->without, err) < 0)
        rc = -1;
    g->switches_with = (long long)(f->nnodes - f->first_switch);
    g->switches_without = (long long)(without.nnodes - without.first_switch);
    g->switch_units_with = switch_units(f);
    g->switch_units_without = switch_units(&without);

    strset cables, names;
    set_init(&cables, target.nlinks);
    set_init(&names, target.nnodes - target.first_switch);
    char k[300];
    for (size_t l = 0; l < target.nlinks; l++) {
        cable_key(&target, (uint32_t)l, k, sizeof k);
        set_add(&cables, k);
    }
    for (size_t i = target.first_switch; i < target.nnodes; i++) {
        ry_node_name(&target, (uint32_t)i, k, sizeof k);
        set_add(&names, k);
    }
    g->cables_target = (long long)target.nlinks;
    g->cables_without = (long long)without.nlinks;
    g->moved_without = moved(&without, &cables);
    g->cables_with = (long long)f->nlinks;
    g->moved_with = moved(f, &cables);
    for (size_t i = without.first_switch; i < without.nnodes; i++) {
        ry_node_name(&without, (uint32_t)i, k, sizeof k);
        g->switches_retired += !set_has(&names, k);
    }
    set_free(&cables);
    set_free(&names);
    ry_fabric_free(&without);
    ry_fabric_free(&target);
    return rc;
}
