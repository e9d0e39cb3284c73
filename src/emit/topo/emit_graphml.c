/* GraphML with libxml2's xmlTextWriter, streamed. Node ids are the node
 * names (gpu17, leaf3, p1-spine0), so graph tools show them as labels; edge
 * ids are e<link id>. An edge runs from the lower end of a link (source) to
 * the upper end (target) in an undirected graph; its tier is the upper
 * end's tier, as in fabric.json (1: GPU to leaf). With a cabling plan an
 * edge also carries its cable as cabling.csv lists it: label, medium, kind,
 * part and stock length. A fabric.tiers list has no one radix: the graph
 * then gives none, and each switch its model and ports. */
#include "config.h"

#include "emit/topo/emit_graphml.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "fabric/names.h"
#include "util/diag.h"

#define NS "http://graphml.graphdrawing.org/xmlns"

static const struct gkey {
    const char *id, *dom, *name, *type;
    int tiers_only;         /* declared for a fabric.tiers list only: each tier its model */
} keys[] = {
    { "graph_name", "graph", "name", "string", 0 },
    { "graph_design", "graph", "design", "string", 0 },
    { "graph_gpus", "graph", "gpus", "long", 0 },
    { "graph_hb_domain", "graph", "hb_domain", "int", 0 },
    { "graph_rails", "graph", "rails", "int", 0 },
    { "graph_planes", "graph", "planes", "int", 0 },
    { "graph_tiers", "graph", "tiers", "int", 0 },
    { "graph_radix", "graph", "radix", "int", 0 },
    { "kind", "node", "kind", "string", 0 },
    { "name", "node", "name", "string", 0 },
    { "tier", "node", "tier", "int", 0 },
    { "plane", "node", "plane", "int", 0 },
    { "rail", "node", "rail", "int", 0 },
    { "rails", "node", "rails", "string", 0 },
    { "group", "node", "group", "int", 0 },
    { "unit", "node", "unit", "int", 0 },
    { "hb_domain", "node", "hb_domain", "int", 0 },
    { "host", "node", "host", "string", 0 },
    { "index", "node", "index", "int", 0 },
    { "subnet", "node", "subnet", "int", 0 },
    { "switch", "node", "switch", "string", 1 },
    { "ports", "node", "ports", "int", 1 },
    { "source_port", "edge", "source_port", "int", 0 },
    { "target_port", "edge", "target_port", "int", 0 },
    { "speed_gbps", "edge", "speed_gbps", "double", 0 },
    { "link_tier", "edge", "tier", "int", 0 },
    { "link_plane", "edge", "plane", "int", 0 },
    { "link_rail", "edge", "rail", "int", 0 },
    { "cable_label", "edge", "label", "string", 0 },
    { "cable_medium", "edge", "medium", "string", 0 },
    { "cable_kind", "edge", "kind", "string", 0 },
    { "cable_part", "edge", "part", "string", 0 },
    { "cable_length", "edge", "length_m", "double", 0 },
};

/* What each key means, written as the key's <desc>. */
static const char *const key_desc[] = {
    "spec name", "rail-optimized, rail-only or fat-tree", "GPUs", "GPUs per HB (NVLink) domain",
    "rails", "network planes", "switch tiers", "switch ports",
    "gpu or switch", "node name", "0 for GPUs, 1 = leaf, 2 = spine, ...", "network plane",
    "GPU: its rail; switch: the first rail it carries, -1 if none",
    "rails carried, as first-last",
    ("GPU: HB domain; leaf: scalable unit (rail designs) or leaf group (fat tree); upper "
     "tiers: block"),
    "scalable unit (GPUs and leaves)", "HB domain of a GPU", "server host name of a GPU",
    "GPU: global GPU index; switch: index within its plane and tier",
    "connected component (InfiniBand subnet)",
    "switch model of a switch (its tier's)", "ports of a switch, split ones counted each",
    "port number on the lower end (GPU: NIC port = plane + 1)", "port number on the upper end",
    "link speed, Gb/s", "tier of the upper end", "network plane",
    "rail of the cable (as the cabling plan colours it), -1 for several",
    "cable label, as on cabling.csv", "medium of the cable (media catalog)",
    "kind of medium (dac, acc, aec, aoc, fiber)", "part number of the cable, length filled in",
    "stock length of the cable, metres",
};

typedef struct gw {
    xmlTextWriterPtr w;
    int bad;
} gw;

static void chk(gw *g, int rc)
{
    if (rc < 0)
        g->bad = 1;
}

static void data_str(gw *g, const char *key, const char *val)
{
    chk(g, xmlTextWriterStartElement(g->w, BAD_CAST "data"));
    chk(g, xmlTextWriterWriteAttribute(g->w, BAD_CAST "key", BAD_CAST key));
    chk(g, xmlTextWriterWriteString(g->w, BAD_CAST val));
    chk(g, xmlTextWriterEndElement(g->w));
}

static void data_int(gw *g, const char *key, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    data_str(g, key, buf);
}

static void data_num(gw *g, const char *key, double v)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%g", v);
    data_str(g, key, buf);
}

int ry_emit_graphml(FILE *fp, const ry_fabric *f, const ry_cabling *cab)
{
    const ry_spec *s = f->spec;
    xmlOutputBufferPtr out = xmlOutputBufferCreateFile(fp, NULL);
    if (!out) {
        ry_error("cannot write GraphML: out of memory");
        return -1;
    }
    gw g = { xmlNewTextWriter(out), 0 };
    if (!g.w) {
        xmlOutputBufferClose(out);
        ry_error("cannot write GraphML: out of memory");
        return -1;
    }
    chk(&g, xmlTextWriterSetIndent(g.w, 1));
    chk(&g, xmlTextWriterSetIndentString(g.w, BAD_CAST "  "));
    chk(&g, xmlTextWriterStartDocument(g.w, "1.0", "UTF-8", NULL));
    char comment[256];
    snprintf(comment, sizeof comment, " railyard %s: fabric %s, %zu nodes, %zu links ",
             PACKAGE_VERSION, s->name, f->nnodes, f->nlinks);
    chk(&g, xmlTextWriterWriteComment(g.w, BAD_CAST comment));
    chk(&g, xmlTextWriterStartElement(g.w, BAD_CAST "graphml"));
    chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "xmlns", BAD_CAST NS));
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        if (keys[i].tiers_only && !s->n_tier)
            continue;
        chk(&g, xmlTextWriterStartElement(g.w, BAD_CAST "key"));
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "id", BAD_CAST keys[i].id));
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "for", BAD_CAST keys[i].dom));
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "attr.name", BAD_CAST keys[i].name));
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "attr.type", BAD_CAST keys[i].type));
        chk(&g, xmlTextWriterWriteElement(g.w, BAD_CAST "desc", BAD_CAST key_desc[i]));
        chk(&g, xmlTextWriterEndElement(g.w));
    }
    chk(&g, xmlTextWriterStartElement(g.w, BAD_CAST "graph"));
    chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "id", BAD_CAST s->name));
    chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "edgedefault", BAD_CAST "undirected"));
    data_str(&g, "graph_name", s->name);
    data_str(&g, "graph_design", ry_design_name(f->design));
    data_int(&g, "graph_gpus", f->gpus);
    data_int(&g, "graph_hb_domain", s->hb_domain);
    data_int(&g, "graph_rails", f->rails);
    data_int(&g, "graph_planes", f->planes);
    data_int(&g, "graph_tiers", f->tiers);
    if (!s->n_tier)     /* a tier list has a radix per tier: its switches say theirs */
        data_int(&g, "graph_radix", f->radix);

    /* unit of a leaf: that of the first GPU cabled to it */
    size_t nsw = f->nnodes - f->first_switch;
    int *unit = ry_xmalloc((nsw ? nsw : 1) * sizeof *unit);
    for (size_t i = 0; i < nsw; i++)
        unit[i] = -1;
    int S = f->su_domains > 0 ? f->su_domains : 1;
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_node *lo = ry_port_node(f, f->links[l].lo);
        uint32_t hi = f->ports[f->links[l].hi].owner;
        if (lo->kind == RY_NODE_GPU && unit[hi - f->first_switch] < 0)
            unit[hi - f->first_switch] = lo->group / S;
    }

    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    char name[96], buf[96];
    for (size_t i = 0; i < f->nnodes && !g.bad; i++) {
        const ry_node *n = &f->nodes[i];
        int gpu = n->kind == RY_NODE_GPU;
        ry_node_name(f, (uint32_t)i, name, sizeof name);
        chk(&g, xmlTextWriterStartElement(g.w, BAD_CAST "node"));
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "id", BAD_CAST name));
        data_str(&g, "kind", gpu ? "gpu" : "switch");
        data_str(&g, "name", name);
        data_int(&g, "tier", n->tier);
        data_int(&g, "plane", n->plane);
        data_int(&g, "rail", n->rail);
        int nr = gpu ? 1 : n->nrails;
        if (n->rail < 0 || nr <= 0)
            buf[0] = '\0';
        else if (nr == 1)
            snprintf(buf, sizeof buf, "%d", n->rail);
        else
            snprintf(buf, sizeof buf, "%d-%d", n->rail, n->rail + nr - 1);
        data_str(&g, "rails", buf);
        data_int(&g, "group", n->group);
        if (gpu)
            data_int(&g, "unit", n->group / S + 1);     /* units count from 1 */
        else if (n->tier == 1 && unit[i - f->first_switch] >= 0)
            data_int(&g, "unit", unit[i - f->first_switch] + 1);
        if (gpu) {
            data_int(&g, "hb_domain", n->group);
            ry_host_name(f, n->index / gpn, buf, sizeof buf);
            data_str(&g, "host", buf);
        }
        data_int(&g, "index", n->index);
        if (!gpu)
            data_int(&g, "subnet", n->subnet);
        if (!gpu && s->n_tier) {
            data_str(&g, "switch", ry_node_model_of(f, n)->name);
            data_int(&g, "ports", n->nports);
        }
        chk(&g, xmlTextWriterEndElement(g.w));
    }
    free(unit);
    for (size_t l = 0; l < f->nlinks && !g.bad; l++) {
        uint32_t lp = f->links[l].lo, hp = f->links[l].hi;
        const ry_node *lo = ry_port_node(f, lp), *hi = ry_port_node(f, hp);
        char id[32];
        snprintf(id, sizeof id, "e%zu", l);
        chk(&g, xmlTextWriterStartElement(g.w, BAD_CAST "edge"));
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "id", BAD_CAST id));
        ry_node_name(f, f->ports[lp].owner, name, sizeof name);
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "source", BAD_CAST name));
        ry_node_name(f, f->ports[hp].owner, name, sizeof name);
        chk(&g, xmlTextWriterWriteAttribute(g.w, BAD_CAST "target", BAD_CAST name));
        data_int(&g, "source_port", ry_port_number(f, lp));
        data_int(&g, "target_port", ry_port_number(f, hp));
        data_num(&g, "speed_gbps", ry_link_gbps(f, (uint32_t)l));
        data_int(&g, "link_tier", hi->tier);
        data_int(&g, "link_plane", hi->plane);
        int rail = lo->kind == RY_NODE_GPU ? lo->rail
                   : hi->rail >= 0 && hi->nrails <= 1 ? hi->rail : -1;
        data_int(&g, "link_rail", rail);
        if (cab) {
            const ry_medium *m = &cab->media[cab->cables[l].medium];
            ry_cable_label(f, (uint32_t)l, buf, sizeof buf);
            data_str(&g, "cable_label", buf);
            data_str(&g, "cable_medium", m->name);
            data_str(&g, "cable_kind", ry_media_kind_name(m->kind));
            ry_cable_part(cab, (uint32_t)l, buf, sizeof buf);
            data_str(&g, "cable_part", buf);
            data_num(&g, "cable_length", ry_cable_length(cab, (uint32_t)l));
        }
        chk(&g, xmlTextWriterEndElement(g.w));
    }
    chk(&g, xmlTextWriterEndElement(g.w)); /* graph */
    chk(&g, xmlTextWriterEndElement(g.w)); /* graphml */
    chk(&g, xmlTextWriterEndDocument(g.w));
    xmlFreeTextWriter(g.w);
    if (g.bad || ferror(fp)) {
        ry_error("cannot write GraphML");
        return -1;
    }
    return 0;
}
