/* railyard init's starter spec (see emit_starter.h). Each key written is
 * a row of the schema, with a comment that says what it does; the keys
 * left to their defaults are shown commented out, so the file doubles as a
 * short tour of railyard-spec(5). */
#include "emit/report/emit_starter.h"

#include <stdio.h>
#include <string.h>

#include "util/escape.h"

/* "key: value" padded so the comments line up; the comment (a catalog
 * entry's description among them) on one line. */
static void line(ry_buf *out, const char *indent, const char *kv, const char *comment)
{
    int n = (int)(strlen(indent) + strlen(kv));
    ry_buf_printf(out, "%s%s%*s# ", indent, kv, n < 28 ? 28 - n : 1, "");
    ry_escape_str(out, comment, RY_ESC_LINE);
    ry_buf_putc(out, '\n');
}

void ry_emit_starter(ry_buf *out, const char *name, long long gpus, const ry_catalog_node *node,
                     const ry_catalog_switch *sw)
{
    const ry_node_model *m = &node->model;
    char kv[160], c[320];
    ry_buf_puts(out,
                "# A railyard cluster spec (railyard-spec(5) documents every key).\n"
                "# Check it and see the fabric:   railyard validate FILE\n"
                "# Bill of materials and cost:    railyard bom FILE\n"
                "# Every output (OpenSM, cabling, Slurm, diagrams): railyard build FILE -o DIR\n"
                "# The catalog's models:          railyard catalog\n"
                "version: 1\n");
    snprintf(kv, sizeof kv, "name: %s", name);
    line(out, "", kv, "the cluster's name: lowercase letters, digits, '.', '_', '-'");
    ry_buf_puts(out, "\ncluster:\n");
    snprintf(kv, sizeof kv, "gpus: %lld", gpus);
    snprintf(c, sizeof c, "%lld nodes of %d GPUs", gpus / m->gpus_per_node, m->gpus_per_node);
    line(out, "  ", kv, c);
    snprintf(kv, sizeof kv, "node: %s", m->name);
    snprintf(c, sizeof c, "%.200s", node->description ? node->description : m->name);
    line(out, "  ", kv, c);
    line(out, "  ", "# scalable_unit: 32", "HB domains per scalable unit: one leaf per rail per unit");
    ry_buf_puts(out, "\nfabric:\n");
    line(out, "  ", "design: rail-optimized", "or rail-only, or fat-tree");
    if (sw) {
        snprintf(kv, sizeof kv, "switch: %s", sw->model.name);
        snprintf(c, sizeof c, "%.200s", sw->description ? sw->description : sw->model.name);
        line(out, "  ", kv, c);
    } else {
        snprintf(c, sizeof c, "no InfiniBand switch of the catalog runs at %g Gb/s: a generic one",
                 m->nic_gbps);
        line(out, "  ", "# switch: generic", c);
    }
    line(out, "  ", "oversubscription: \"1:1\"", "down:up ports of the leaves; \"1:1\" is non-blocking");
    line(out, "  ", "tiers: auto", "the fewest tiers of switches that connect every GPU");
    ry_buf_puts(out, "\n# Racks and rows, from which the cables' lengths come:\n# layout:\n");
    if (m->per_rack) {
        snprintf(kv, sizeof kv, "#   nodes_per_rack: %d", m->per_rack);
        line(out, "", kv, "the node model's usual number");
    }
    line(out, "", "#   network: per-unit", "or end-of-row, middle-of-row");
    ry_buf_puts(out, "\n# What a training job takes on it (railyard model, traffic):\n"
                     "# workload:\n");
    line(out, "", "#   model: gpt-3-175b", "an LLM of the catalog (railyard catalog llms)");
    ry_buf_puts(out, "\n# The size it will grow to: each phase is the target cut down, so later\n"
                     "# phases only add, and host names take the target's width (without it,\n"
                     "# the phase that passes 999 servers renames every one: node001 -> node0001):\n"
                     "# growth:\n");
    line(out, "", "#   target_nodes: 1024", "servers of the last phase");
}
