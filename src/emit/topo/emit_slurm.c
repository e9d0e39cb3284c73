/* Slurm topology files, from the tree and blocks of analysis/slurm_tree.h.
 * Formats follow Slurm's topology.conf(5) and topology.yaml(5) and the
 * parsers behind them: a SwitchName has Nodes= or Switches=, never both,
 * and at most 64 characters; every child switch is defined; BlockSizes
 * starts with the base block's node count and each further size is the
 * base times a power of two (at most 2^15). Each file's comments say what
 * its names stand for, and which Slurm reads it under what name, as
 * Slurm's source has it: BlockSizes is parsed from 24.05 on
 * (src/plugins/topology/block/block_record.c of slurm-24-05-0-1), 23.11's
 * topology/block takes only BlockName and BlockLevels (topology_block.c of
 * slurm-23-11-0-1), and either plugin reads the file named topology.conf
 * (src/interfaces/topology.c, get_extra_conf_path("topology.conf")). */
#include "emit/topo/emit_slurm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/comment.h"
#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/hostlist.h"

/* ---- writing ------------------------------------------------------------------------------- */

static void node_list(ry_buf *out, const ry_slurm_tree *t, const long long *ids, long long n)
{
    const char **names = ry_xmalloc((size_t)(n ? n : 1) * sizeof *names);
    for (long long i = 0; i < n; i++)
        names[i] = t->host[ids[i]];
    ry_hostlist_compress_buf(out, names, (size_t)n);
    free(names);
}

/* Child switch names of group g of level i (i >= 1). */
static void child_list(ry_buf *out, const ry_slurm_tree *t, int i, int g)
{
    const ry_slurm_level *lv = &t->lv[i], *prev = &t->lv[i - 1];
    const char **names = ry_xmalloc((size_t)prev->ngroups * sizeof *names);
    size_t n = 0;
    for (int c = 0; c < prev->ngroups; c++)
        if (lv->parent[c] == g)
            names[n++] = prev->name[c];
    ry_hostlist_compress_buf(out, names, n);
    free(names);
}

/* The cluster in one line. */
static void explain_cluster(ry_buf *c, const ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    ry_buf_printf(c, "%lld nodes (%lld GPUs, %d per node, %d per HB domain), %s, %d switch "
                  "tier%s", t->nnodes, f->gpus, t->gpn, f->spec->hb_domain,
                  ry_design_name(f->design), f->tiers, f->tiers == 1 ? "" : "s");
    if (f->planes > 1)
        ry_buf_printf(c, ", %d planes", f->planes);
    ry_buf_puts(c, ".\n\n");
}

/* What the tree's names stand for. */
static void explain_tree(ry_buf *c, const ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    const ry_spec *s = f->spec;
    const char *plane_note = f->planes > 1 ? ", in every plane" : "";
    if (f->tiers <= 1) {
        if (f->design == RY_DESIGN_RAIL_ONLY)
            ry_buf_printf(c, "Every rail fits in one switch, so rails are packed into %lld "
                          "switches%s; rail-switches stands for all of them: each node is on "
                          "every one, rail by rail.\n", t->tier_switches[1], plane_note);
        else
            ry_buf_printf(c, "One switch%s holds every node: switch.\n",
                          f->planes > 1 ? " per plane" : "");
        return;
    }
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    char ports[160];
    if (gpn >= f->rails)
        snprintf(ports, sizeof ports, "has one NIC port per rail, each cabled to its rail's leaf");
    else        /* a node narrower than the rails (one GH200 superchip) */
        snprintf(ports, sizeof ports, "sits on %d of the %d rails, %s cabled to its rail's leaf", gpn,
                 f->rails, gpn == 1 ? "its NIC port" : "each NIC port");
    if (t->rail_design)
        ry_buf_printf(c, "Slurm's tree gives each node one leaf switch, but a %s node %s "
                      "in the node's scalable "
                      "unit (%d HB domains, %d GPUs). So each leaf switch here is logical: suN "
                      "stands for all the rail leaves of scalable unit N%s, which together "
                      "connect its nodes rail by rail.%s\n",
                      ry_design_name(f->design), ports, f->su_domains,
                      f->su_domains * s->hb_domain, plane_note,
                      t->merged ? " A node whose GPUs fall in two units joins them: suN then "
                                  "also stands for the units after N that it was joined with "
                                  "(see the leaves listed with each switch)." : "");
    else
        ry_buf_printf(c, "%s: leafN is the fabric's leaf N%s%s.\n",
                      t->merged ? "Nodes are wider than a leaf" : "Each leaf holds whole nodes",
                      f->planes > 1 ? " (pP-leafN in every plane P, which serve the same "
                                      "nodes)" : "",
                      t->merged ? " with the leaves its nodes share, so each node is under one "
                                  "leaf switch (see the leaves listed with each switch)" : "");
    for (int i = 1; i < t->nlv; i++) {
        const ry_slurm_level *lv = &t->lv[i];
        const char *what = t->rail_design ? "units" : "leaves";
        if (lv->tier > f->tiers) {
            ry_buf_printf(c, "%s joins %s that share no switch.\n", lv->name[0], what);
        } else if (lv->ngroups > 1) {
            char tag[32];
            snprintf(tag, sizeof tag, lv->tier == 2 ? "podN" : "t%d-blockN", lv->tier);
            ry_buf_printf(c, "%s: %s share tier-%d%s switches%s, so traffic among them stays "
                          "below tier %d.\n", tag,
                          t->rail_design ? "units whose rail leaves" : "leaves that", lv->tier,
                          lv->tier == 2 ? " (spine)" : lv->tier == 3 ? " (core)" : "",
                          t->rail_design ? (f->planes > 1 ? " on every rail and plane"
                                                          : " on every rail")
                                         : (f->planes > 1 ? " in every plane" : ""),
                          lv->tier + 1);
        } else if (f->design == RY_DESIGN_RAIL_ONLY) {
            ry_buf_printf(c, "Rails never join in a rail-only fabric: each rail has its own "
                          "%s switches (%lld in all, %d rails%s). %s stands for them together: "
                          "nodes of different units reach each other rail by rail through "
                          "their rail's own %ss (traffic between rails first crosses the HB "
                          "domain), so to Slurm they act as one switch above the units.\n",
                          ry_slurm_tier_word(lv->tier), t->tier_switches[lv->tier], f->rails,
                          f->planes > 1 ? " per plane" : "", lv->name[0], ry_slurm_tier_word(lv->tier));
        } else {
            ry_buf_printf(c, "%s stands for the %lld %s switches (tier %d) that join all %s%s.\n",
                          lv->name[0], t->tier_switches[lv->tier], ry_slurm_tier_word(lv->tier),
                          lv->tier, what,
                          lv->tier < f->tiers ? (t->rail_design ? " rail by rail (the tiers above "
                                                                  "join the rails)"
                                                                : " (the tiers above join the "
                                                                  "planes)")
                                              : "");
        }
    }
}

/* The blocks and their sizes. topology-block.conf (Slurm 24.05 on) starts
 * BlockSizes at the smallest block, as 24.05 and 24.11 require (a block
 * under the first size is fatal there: block_record.c of slurm-24-11-0-1,
 * "children count lower than bblock_node_cnt"); topology.yaml (25.05 on,
 * where that check is gone: slurm-25-05-0-1) starts at the largest, a full
 * unit, so a job of whole units is counted in whole units. */
static void explain_blocks(ry_buf *c, const ry_slurm_tree *t, int for_yaml)
{
    const ry_slurm_blocks *b = &t->blocks;
    const ry_fabric *f = t->f;
    if (b->hb)
        ry_buf_printf(c, "Base blocks are the HB (NVLink) domains: hbdN holds the %d nodes "
                      "(%d GPUs) of HB domain N, so a job within one block never leaves "
                      "NVLink.\n", b->nodes_per_hb, f->spec->hb_domain);
    else if (f->tiers > 1 && t->rail_design)
        ry_buf_printf(c, "Base blocks are the scalable units: a node's HB domain is no larger "
                      "than the node, so the smallest group with a network of its own is a "
                      "unit, whose nodes meet on the unit's rail leaves (suN: unit N).\n");
    else if (f->tiers > 1)
        ry_buf_printf(c, "Base blocks are the leaves: a node's HB domain is no larger than the "
                      "node, so the smallest group with a network of its own is a leaf and "
                      "the nodes on it (leafN: leaf N).\n");
    else
        ry_buf_printf(c, "Every node is on the same switches, so there is one block.\n");
    char nb[32];
    int small = 0;
    while (b->start[small + 1] - b->start[small] != b->base)
        small++;
    if (for_yaml && b->base < b->largest) {
        ry_buf_printf(c, "block_sizes: %lld, the largest block's node count, though %s holds "
                      "%lld: Slurm 25.05 and later take a block smaller than the first size, "
                      "and count a job's blocks in it, so a job of whole blocks (%lld nodes "
                      "for two) stays on blocks that share switches. Slurm joins 2^k "
                      "consecutive blocks into larger ones in the order listed; each further "
                      "size is offered only where the blocks it joins share switches (one "
                      "unit, one pod, or the whole fabric at the top).\n",
                      b->largest, ry_slurm_block_name(t, small, nb, sizeof nb), b->base,
                      2 * b->largest);
        return;
    }
    ry_buf_printf(c, "BlockSizes: %lld, the smallest block's node count", b->base);
    if (b->base < b->largest)
        ry_buf_printf(c, " (%s is partly filled)", ry_slurm_block_name(t, small, nb, sizeof nb));
    ry_buf_puts(c, ": every block must hold at least the first size (Slurm 24.05 and 24.11 "
                "refuse a smaller one). Slurm joins 2^k consecutive blocks into larger ones in "
                "the order listed; each further size is offered only where the blocks it "
                "joins share switches (one unit, one pod, or the whole fabric at the top).\n");
    if (b->base < b->largest)
        ry_buf_printf(c, "The price, on Slurm 25.05 and later (which take a smaller block): "
                      "Slurm counts a job's blocks in the first size, %lld, so a job of two "
                      "full blocks (%lld nodes) needs three and may be placed on other blocks "
                      "than a pair that shares switches (the 2nd and 3rd rather than the 1st "
                      "and 2nd). For 25.05 and later, use topology.yaml: its block sizes "
                      "start at the full block's %lld.\n",
                      b->base, 2 * b->largest, b->largest);
}

/* "suN: 32 nodes, 8 leaves (leaf[0,4,...])" for a logical leaf. */
static void describe_leaf(ry_buf *c, const ry_slurm_tree *t, int l)
{
    const ry_fabric *f = t->f;
    size_t nr = t->rleaf_start[l + 1] - t->rleaf_start[l];
    long long nn = t->leaf_start[l + 1] - t->leaf_start[l];
    ry_buf_printf(c, "%s: %lld node%s", t->lv[0].name[l], nn, nn == 1 ? "" : "s");
    if (f->tiers <= 1 || (!t->rail_design && nr == 1))
        return;
    char **names = ry_xmalloc((nr ? nr : 1) * sizeof *names);
    for (size_t i = 0; i < nr; i++) {
        char buf[96];
        ry_node_name(f, t->rleaf[t->rleaf_start[l] + i], buf, sizeof buf);
        names[i] = ry_xstrdup(buf);
    }
    ry_buf list;
    ry_buf_init(&list);
    ry_hostlist_compress_buf(&list, (const char *const *)names, nr);
    ry_buf_printf(c, ", %zu leaves", nr);
    if (list.len <= 100)
        ry_buf_printf(c, ": %s", list.data);
    ry_buf_free(&list);
    for (size_t i = 0; i < nr; i++)
        free(names[i]);
    free(names);
}

static int write_tree_conf(ry_outdir *o, const char *prefix, const ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    FILE *fp = ry_outdir_open_in(o, prefix, "topology.conf");
    if (!fp)
        return -1;
    ry_buf c, line;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_printf(&c, "Slurm topology of %s for the topology/tree plugin (slurm.conf: "
                  "TopologyPlugin=topology/tree), written by railyard from the spec. "
                  "Install it as topology.conf beside slurm.conf; the tree plugin reads it in "
                  "every Slurm from 22.05 on.\n",
                  f->spec->name);
    explain_cluster(&c, t);
    explain_tree(&c, t);
    ry_put_comment(fp, c.data);
    for (int l = 0; l < t->nleaves; l++) {
        ry_buf_reset(&c);
        describe_leaf(&c, t, l);
        fputc('\n', fp);
        ry_put_comment(fp, c.data);
        ry_buf_reset(&line);
        node_list(&line, t, t->leaf_nodes + t->leaf_start[l], t->leaf_start[l + 1] - t->leaf_start[l]);
        fprintf(fp, "SwitchName=%s Nodes=%s\n", t->lv[0].name[l], line.data);
    }
    for (int i = 1; i < t->nlv; i++) {
        fputc('\n', fp);
        for (int g = 0; g < t->lv[i].ngroups; g++) {
            ry_buf_reset(&line);
            child_list(&line, t, i, g);
            fprintf(fp, "SwitchName=%s Switches=%s\n", t->lv[i].name[g], line.data);
        }
    }
    ry_buf_free(&c);
    ry_buf_free(&line);
    return ry_outdir_close(o, fp);
}

static void put_block_sizes(FILE *fp, const ry_slurm_blocks *b, const char *sep)
{
    for (int i = 0; i < b->nsizes; i++)
        fprintf(fp, "%s%lld", i ? sep : "", b->sizes[i]);
}

static int write_block_conf(ry_outdir *o, const char *prefix, const ry_slurm_tree *t)
{
    const ry_slurm_blocks *b = &t->blocks;
    FILE *fp = ry_outdir_open_in(o, prefix, "topology-block.conf");
    if (!fp)
        return -1;
    ry_buf c, line;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_printf(&c, "Slurm topology of %s for the topology/block plugin (slurm.conf: "
                  "TopologyPlugin=topology/block), written by railyard from the spec.\n"
                  "Needs Slurm 24.05 or later: BlockSizes came with 24.05, and 23.11's "
                  "topology/block knows only BlockLevels and refuses this file. Install it "
                  "as topology.conf beside slurm.conf (the one name either plugin reads), in "
                  "place of the tree's topology.conf.\n",
                  t->f->spec->name);
    explain_cluster(&c, t);
    explain_blocks(&c, t, 0);
    ry_put_comment(fp, c.data);
    fputc('\n', fp);
    char nb[32];
    for (int i = 0; i < b->n; i++) {
        ry_buf_reset(&line);
        node_list(&line, t, b->nodes + b->start[i], b->start[i + 1] - b->start[i]);
        fprintf(fp, "BlockName=%s Nodes=%s\n", ry_slurm_block_name(t, i, nb, sizeof nb), line.data);
    }
    fputs("BlockSizes=", fp);
    put_block_sizes(fp, b, ",");
    fputc('\n', fp);
    ry_buf_free(&c);
    ry_buf_free(&line);
    return ry_outdir_close(o, fp);
}

static int write_yaml(ry_outdir *o, const char *prefix, const ry_slurm_tree *t)
{
    const ry_slurm_blocks *b = &t->blocks;
    FILE *fp = ry_outdir_open_in(o, prefix, "topology.yaml");
    if (!fp)
        return -1;
    ry_buf c, line;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_printf(&c, "Slurm topology of %s for Slurm 25.05 and later (topology.yaml beside "
                  "slurm.conf; Slurm then ignores topology.conf), written by railyard from "
                  "the spec. Two topologies: \"tree\" (topology/tree), the cluster default, "
                  "and \"block\" (topology/block), for partitions that name it "
                  "(Topology=block).\n",
                  t->f->spec->name);
    explain_cluster(&c, t);
    explain_tree(&c, t);
    ry_buf_puts(&c, "\n");
    explain_blocks(&c, t, 1);
    ry_put_comment(fp, c.data);
    fputs("- topology: tree\n  cluster_default: true\n  tree:\n    switches:\n", fp);
    for (int l = 0; l < t->nleaves; l++) {
        ry_buf_reset(&line);
        node_list(&line, t, t->leaf_nodes + t->leaf_start[l], t->leaf_start[l + 1] - t->leaf_start[l]);
        fprintf(fp, "      - switch: \"%s\"\n        nodes: \"%s\"\n", t->lv[0].name[l], line.data);
    }
    for (int i = 1; i < t->nlv; i++)
        for (int g = 0; g < t->lv[i].ngroups; g++) {
            ry_buf_reset(&line);
            child_list(&line, t, i, g);
            fprintf(fp, "      - switch: \"%s\"\n        children: \"%s\"\n", t->lv[i].name[g],
                    line.data);
        }
    fputs("- topology: block\n  cluster_default: false\n  block:\n    block_sizes:\n", fp);
    for (int i = 0; i < b->nsizes; i++)    /* from the full block: explain_blocks */
        fprintf(fp, "      - %lld\n", b->sizes[i] / b->base * b->largest);
    fputs("    blocks:\n", fp);
    char nb[32];
    for (int i = 0; i < b->n; i++) {
        ry_buf_reset(&line);
        node_list(&line, t, b->nodes + b->start[i], b->start[i + 1] - b->start[i]);
        fprintf(fp, "      - block: \"%s\"\n        nodes: \"%s\"\n",
                ry_slurm_block_name(t, i, nb, sizeof nb), line.data);
    }
    ry_buf_free(&c);
    ry_buf_free(&line);
    return ry_outdir_close(o, fp);
}

/* "su1,hbd3,rail5": a node set's features ("" when it has none). */
static void set_features(ry_buf *out, const ry_slurm_tree *t, const ry_slurm_nodeset *s)
{
    char nb[32];
    if (t->nleaves > 1)
        ry_buf_printf(out, "%s", t->lv[0].name[s->leaf]);
    if (s->hbd >= 0)
        ry_buf_printf(out, "%s%s", out->len ? "," : "", ry_slurm_block_name(t, s->hbd, nb, sizeof nb));
    for (int i = 0; i < s->nrails; i++)
        ry_buf_printf(out, "%srail%d", out->len ? "," : "", s->rails[i]);
}

static int write_fragment(ry_outdir *o, const char *prefix, const ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    FILE *fp = ry_outdir_open_in(o, prefix, "slurm.conf.fragment");
    if (!fp)
        return -1;
    ry_buf c, line, feat;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_init(&feat);
    ry_buf_printf(&c, "slurm.conf lines for %s, written by railyard from the spec: the nodes "
                  "with their GPUs and features, the partitions and the topology plugin. Paste "
                  "them into slurm.conf, or put this file beside it and add \"Include "
                  "/etc/slurm/slurm.conf.fragment\" (any Slurm from 22.05 on); gres.conf "
                  "goes beside slurm.conf too.\n", f->spec->name);
    explain_cluster(&c, t);
    ry_buf_printf(&c, "Nodes: Gres=gpu:%d, the GPUs of a %s (gres.conf names their devices). "
                  "The spec says nothing of CPUs and memory: add CPUs=, Sockets=, "
                  "CoresPerSocket=, ThreadsPerCore= and RealMemory= to the NodeName lines as "
                  "`slurmd -C` prints them on one node (without them Slurm counts one CPU "
                  "per node), and State= if the nodes are not to register themselves.\n",
                  t->gpn, f->spec->node.name[0] ? f->spec->node.name : "node");
    int rails = 0;
    for (int i = 0; i < t->nsets; i++)
        rails |= t->sets[i].nrails > 0;
    if (t->nleaves > 1 || t->blocks.hb || rails)
        ry_buf_puts(&c, "Features, for --constraint:");
    else
        ry_buf_puts(&c, "Features: none, as every node is under one leaf switch, in an HB "
                    "domain of its own and on every rail.");
    if (t->nleaves > 1)
        ry_buf_printf(&c, " %s, the node's leaf switch in topology.conf (%s);",
                      t->rail_design ? "suN" : "leafN",
                      t->rail_design ? "its scalable unit" : "the fabric's leaf N");
    if (t->blocks.hb)
        ry_buf_puts(&c, " hbdN, its HB (NVLink) domain, a block of topology-block.conf;");
    if (rails)
        ry_buf_puts(&c, " railR, the rails of its GPUs, which are fewer than all (rails "
                    "numbered from 0 as in fabric.json);");
    ry_buf_puts(&c, " every node is on every plane, so planes are no feature.\n");
    ry_buf_puts(&c, "Partitions: all, the default, with every node; ");
    if (t->nleaves > 1)
        ry_buf_printf(&c, "and one per leaf switch of topology.conf, named after it, so a job "
                      "can be kept to one %s (a partition per pod or block would be a subset "
                      "of these or of all).\n",
                      t->rail_design ? "scalable unit" : "leaf");
    else
        ry_buf_puts(&c, "every node is under one leaf switch, so there is no other.\n");
    ry_buf_puts(&c, "Topology: the tree plugin with topology.conf. With Slurm 24.05 or later, "
                "topology/block can be had instead: install topology-block.conf as "
                "topology.conf and use the commented TopologyPlugin line. Either wants "
                "SelectType=select/cons_tres (topology.conf(5) of 24.05 says so; it also "
                "schedules GPUs as Gres), left to slurm.conf here.\n");
    ry_put_comment(fp, c.data);
    fputs("\nGresTypes=gpu\nTopologyPlugin=topology/tree\n#TopologyPlugin=topology/block\n\n",
          fp);
    for (int i = 0; i < t->nsets; i++) {
        const ry_slurm_nodeset *s = &t->sets[i];
        ry_buf_reset(&line);
        ry_buf_reset(&feat);
        node_list(&line, t, t->set_nodes + s->start, s->n);
        set_features(&feat, t, s);
        fprintf(fp, "NodeName=%s Gres=gpu:%d", line.data, t->gpn);
        if (feat.len)
            fprintf(fp, " Features=%s", feat.data);
        fputc('\n', fp);
    }
    fputs("\nPartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n", fp);
    for (int l = 0; t->nleaves > 1 && l < t->nleaves; l++) {
        ry_buf_reset(&line);
        node_list(&line, t, t->leaf_nodes + t->leaf_start[l], t->leaf_start[l + 1] - t->leaf_start[l]);
        fprintf(fp, "PartitionName=%s Nodes=%s MaxTime=INFINITE State=UP\n", t->lv[0].name[l],
                line.data);
    }
    ry_buf_free(&c);
    ry_buf_free(&line);
    ry_buf_free(&feat);
    return ry_outdir_close(o, fp);
}

static int write_gres(ry_outdir *o, const char *prefix, const ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    FILE *fp = ry_outdir_open_in(o, prefix, "gres.conf");
    if (!fp)
        return -1;
    ry_buf c, line;
    ry_buf_init(&c);
    ry_buf_init(&line);
    ry_buf_printf(&c, "gres.conf for %s, written by railyard from the spec: the %d GPUs of "
                  "each node (%s) as the device files the NVIDIA driver makes, "
                  "/dev/nvidia0 on. slurm.conf needs GresTypes=gpu (slurm.conf.fragment has "
                  "it). Where slurmd is built with NVML, \"AutoDetect=nvml\" in place of the "
                  "line below finds the GPUs, their links and cores itself.\n",
                  f->spec->name, t->gpn, f->spec->node.name[0] ? f->spec->node.name : "node");
    ry_put_comment(fp, c.data);
    fputs("\n#AutoDetect=nvml\n", fp);
    long long *all = ry_xmalloc((size_t)(t->nnodes ? t->nnodes : 1) * sizeof *all);
    for (long long n = 0; n < t->nnodes; n++)
        all[n] = n;
    node_list(&line, t, all, t->nnodes);
    free(all);
    if (t->gpn > 1)
        fprintf(fp, "NodeName=%s Name=gpu File=/dev/nvidia[0-%d]\n", line.data, t->gpn - 1);
    else
        fprintf(fp, "NodeName=%s Name=gpu File=/dev/nvidia0\n", line.data);
    ry_buf_free(&c);
    ry_buf_free(&line);
    return ry_outdir_close(o, fp);
}

int ry_emit_slurm(ry_outdir *o, const char *prefix, const ry_slurm_tree *t)
{
    if (write_tree_conf(o, prefix, t) < 0 || write_block_conf(o, prefix, t) < 0 ||
        write_yaml(o, prefix, t) < 0 || write_fragment(o, prefix, t) < 0 ||
        write_gres(o, prefix, t) < 0)
        return -1;
    return 0;
}
