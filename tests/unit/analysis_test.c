/* The Slurm tree (src/analysis/slurm_tree.c) and the diagrams' boxes and
 * bundles (src/analysis/diagram.c) of the bundled examples, against counts
 * taken from the graph itself: every node under exactly one leaf switch,
 * each level a partition of the one below up to one root, blocks covering
 * the nodes in order with Slurm's sizes; the summary's boxes holding every
 * switch and HB domain and its bundles every link, a rail's view the GPUs
 * of that rail.
 *
 * usage: analysis_test SRCDIR; exits non-zero on a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diagram.h"
#include "analysis/slurm_tree.h"
#include "check.h"
#include "fabric/fabric.h"
#include "spec/spec.h"

static void check_slurm(const char *name, const ry_fabric *f)
{
    ry_err err;
    CHECK(ry_slurm_check(f, &err) == 0, "%s: slurm check: %s", name, err.msg);
    ry_slurm_tree *t = ry_slurm_tree_build(f);
    CHECK(t->nnodes * t->gpn == f->gpus, "%s: %lld nodes of %d GPUs", name, t->nnodes, t->gpn);
    /* every node under one logical leaf, listed once, in order */
    CHECK(t->leaf_start[0] == 0 && t->leaf_start[t->nleaves] == t->nnodes, "%s: leaf ranges",
          name);
    char *seen = calloc((size_t)t->nnodes, 1);
    for (int l = 0; l < t->nleaves; l++)
        for (long long i = t->leaf_start[l]; i < t->leaf_start[l + 1]; i++) {
            long long n = t->leaf_nodes[i];
            CHECK(!seen[n] && t->node_leaf[n] == l, "%s: node %lld under leaf %d", name, n, l);
            seen[n] = 1;
            if (i > t->leaf_start[l])
                CHECK(n > t->leaf_nodes[i - 1], "%s: leaf %d out of order", name, l);
        }
    free(seen);
    /* real leaves: every tier-1 switch in exactly one logical leaf */
    size_t tier1 = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        tier1 += f->nodes[i].tier == 1;
    CHECK(t->rleaf_start[t->nleaves] == tier1, "%s: %zu real leaves of %zu", name,
          t->rleaf_start[t->nleaves], tier1);
    /* levels: partitions, each coarser than the one below, up to one root */
    int sw = 0;
    for (int i = 0; i < t->nlv; i++) {
        const ry_slurm_level *lv = &t->lv[i];
        sw += lv->ngroups;
        if (i == 0)
            continue;
        const ry_slurm_level *prev = &t->lv[i - 1];
        CHECK(lv->ngroups < prev->ngroups, "%s: level %d joins nothing", name, i);
        for (int l = 0; l < t->nleaves; l++)
            CHECK(lv->parent[prev->label[l]] == lv->label[l], "%s: level %d parent of leaf %d",
                  name, i, l);
    }
    CHECK(t->lv[t->nlv - 1].ngroups == 1, "%s: %d roots", name, t->lv[t->nlv - 1].ngroups);
    CHECK(sw == t->nswitches, "%s: %d switches, counted %d", name, t->nswitches, sw);
    long long tsw = 0;
    for (int j = 1; j <= f->tiers; j++)
        tsw += t->tier_switches[j];
    CHECK(tsw == (long long)(f->nnodes - f->first_switch), "%s: %lld switches by tier", name, tsw);
    /* blocks: consecutive node ranges covering every node; Slurm's sizes */
    const ry_slurm_blocks *b = &t->blocks;
    CHECK(b->n > 0 && b->start[0] == 0 && b->start[b->n] == t->nnodes, "%s: block ranges", name);
    for (int i = 0; i < b->n; i++)
        CHECK(b->start[i + 1] - b->start[i] >= b->base, "%s: block %d below the base", name, i);
    CHECK(b->nsizes >= 1 && b->sizes[0] == b->base, "%s: first block size", name);
    for (int i = 1; i < b->nsizes; i++) {
        long long r = b->sizes[i] / b->base;
        CHECK(b->sizes[i] % b->base == 0 && r > 1 && (r & (r - 1)) == 0 && b->sizes[i] > b->sizes[i - 1],
              "%s: block size %lld", name, b->sizes[i]);
    }
    char buf[32];
    CHECK(ry_slurm_block_name(t, 0, buf, sizeof buf)[0] != '\0', "%s: block name", name);
    ry_slurm_tree_free(t);
}

static void check_diagram(const char *name, const ry_fabric *f)
{
    ry_view v = { RY_VIEW_SUMMARY, 0 };
    ry_diagram *d = ry_diagram_build(f, &v);
    long long sw = 0, doms = 0, gpus = 0, links = 0;
    for (size_t i = 0; i < d->nbx; i++) {
        const ry_diagram_box *x = &d->bx[i];
        CHECK((i >= d->nsbx) == (x->hb != 0), "%s: box %zu out of place", name, i);
        if (x->hb) {
            doms += x->count;
            gpus += x->gpus;
        } else {
            sw += x->count;
        }
        if (i > 0 && (i >= d->nsbx) == (i - 1 >= d->nsbx))
            CHECK(d->bx[i - 1].tag < x->tag, "%s: boxes out of order at %zu", name, i);
    }
    for (size_t i = 0; i < d->nbd; i++) {
        links += d->bd[i].n;
        CHECK(d->bd[i].up < (int)d->nbx && d->bd[i].down < (int)d->nbx, "%s: bundle %zu", name, i);
        if (i)
            CHECK(d->bd[i - 1].key < d->bd[i].key, "%s: bundles out of order at %zu", name, i);
    }
    CHECK(sw == (long long)(f->nnodes - f->first_switch), "%s: summary: %lld switches", name, sw);
    CHECK(doms == d->domains && gpus == f->gpus, "%s: summary: %lld domains, %lld GPUs", name,
          doms, gpus);
    CHECK(links == (long long)f->nlinks, "%s: summary: %lld links of %zu", name, links, f->nlinks);
    ry_diagram_free(d);

    /* rail 0: its GPUs, and one link per GPU and plane below the leaves */
    v = (ry_view){ RY_VIEW_RAIL, 0 };
    char msg[256];
    CHECK(ry_view_check(f, &v, msg, sizeof msg) == 0, "%s: rail=0: %s", name, msg);
    d = ry_diagram_build(f, &v);
    gpus = links = 0;
    for (size_t i = d->nsbx; i < d->nbx; i++)
        gpus += d->bx[i].gpus;
    for (size_t i = 0; i < d->nbd; i++)
        if (d->bx[d->bd[i].down].hb)
            links += d->bd[i].n;
    long long want = 0;
    for (size_t g = 0; g < f->first_switch; g++)
        want += f->nodes[g].rail == 0;
    CHECK(gpus == want, "%s: rail=0: %lld GPUs, want %lld", name, gpus, want);
    CHECK(links == want * f->planes, "%s: rail=0: %lld GPU links", name, links);
    ry_diagram_free(d);

    v = (ry_view){ RY_VIEW_RAIL, f->rails };
    CHECK(ry_view_check(f, &v, msg, sizeof msg) < 0 && strstr(msg, "no rail"),
          "%s: rail=%d accepted", name, f->rails);
    v = (ry_view){ RY_VIEW_FULL, 0 };
    d = ry_diagram_build(f, &v);
    CHECK(d->nbx == 0 && d->nbd == 0, "%s: full view with boxes", name);
    ry_diagram_free(d);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: analysis_test SRCDIR\n");
        return 2;
    }
    const char *examples[] = { "superpod-4su", "fat-tree", "b200-2plane", "rail-only-gh200" };
    char path[4096], tdir[4096];
    snprintf(tdir, sizeof tdir, "%s/templates", argv[1]);
    for (size_t i = 0; i < sizeof examples / sizeof *examples; i++) {
        snprintf(path, sizeof path, "%s/examples/%s.yaml", argv[1], examples[i]);
        ry_spec *s = ry_spec_load(path, NULL, 0, tdir);
        CHECK(s != NULL, "cannot load %s", path);
        if (!s)
            continue;
        ry_fabric f;
        ry_err err;
        if (ry_fabric_build(s, &f, &err) < 0) {
            CHECK(0, "%s: %s", examples[i], err.msg);
            ry_spec_free(s);
            continue;
        }
        check_slurm(examples[i], &f);
        check_diagram(examples[i], &f);
        ry_fabric_free(&f);
        ry_spec_free(s);
    }

    ry_view v;
    CHECK(ry_view_parse("rail=3", &v) == 0 && v.kind == RY_VIEW_RAIL && v.n == 3, "rail=3");
    CHECK(ry_view_parse("unit=x", &v) == -2, "unit=x");
    CHECK(ry_view_parse("bogus", &v) == -1, "bogus");
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
