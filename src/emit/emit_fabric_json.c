#include "emit/emit_fabric_json.h"

#include "fabric/names.h"

/* Names are [a-z0-9-]+ by construction, so no JSON escaping is needed; the
 * spec name is checked against [a-z0-9._-]+ when the spec is loaded. */
void ry_emit_fabric_json(FILE *fp, const ry_fabric *f)
{
    const ry_spec *s = f->spec;
    char name[64];
    fprintf(fp, "{\n  \"name\": \"%s\",\n  \"design\": \"%s\",\n  \"gpus\": %lld,\n"
                "  \"hb_domain\": %d,\n  \"rails\": %d,\n  \"planes\": %d,\n  \"tiers\": %d,\n"
                "  \"radix\": %d,\n  \"subnets\": %d,\n",
            s->name, ry_design_name(f->design), f->gpus, s->hb_domain, f->rails, f->planes,
            f->tiers, f->radix, f->nsubnets);
    fputs("  \"nodes\": [\n", fp);
    for (size_t i = 0; i < f->nnodes; i++) {
        const ry_node *n = &f->nodes[i];
        ry_node_name(f, (uint32_t)i, name, sizeof name);
        uint32_t used = 0;
        for (uint32_t p = 0; p < n->nports; p++)
            used += f->ports[n->port0 + p].peer >= 0;
        fprintf(fp, "    {\"id\": %zu, \"name\": \"%s\", \"kind\": \"%s\", \"tier\": %d, "
                    "\"plane\": %d, \"rail\": %d, \"rails\": %d, \"group\": %d, \"index\": %d, "
                    "\"subnet\": %d, \"ports\": %u, \"ports_used\": %u}%s\n",
                i, name, n->kind == RY_NODE_GPU ? "gpu" : "switch", n->tier, n->plane, n->rail,
                n->kind == RY_NODE_GPU ? 1 : n->nrails, n->group, n->index, n->subnet,
                n->nports, used, i + 1 < f->nnodes ? "," : "");
    }
    fputs("  ],\n  \"links\": [\n", fp);
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_link *k = &f->links[l];
        uint32_t a = f->ports[k->lo].owner, b = f->ports[k->hi].owner;
        fprintf(fp, "    {\"id\": %zu, \"tier\": %d, \"a\": {\"node\": %u, \"port\": %d}, "
                    "\"b\": {\"node\": %u, \"port\": %d}}%s\n",
                l, f->nodes[b].tier, a, ry_port_number(f, k->lo), b, ry_port_number(f, k->hi),
                l + 1 < f->nlinks ? "," : "");
    }
    fputs("  ]\n}\n", fp);
}
