#include "emit/topo/emit_fabric_json.h"

#include "fabric/names.h"
#include "util/buf.h"
#include "util/escape.h"

/* A switch model's name: a catalog key or an inline name, escaped. */
static void json_str(FILE *fp, const char *s)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_escape_str(&b, s, RY_ESC_JSON);
    if (b.len)
        fwrite(b.data, 1, b.len, fp);
    ry_buf_free(&b);
}

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
            f->tiers, s->n_tier ? 0 : f->radix, f->nsubnets);
    if (s->n_tier) {
        /* a fabric.tiers list: radix 0 (as bom.json), each tier its model and ports */
        fputs("  \"tier_switches\": [\n", fp);
        for (int t = 1; t <= f->tiers; t++) {
            const ry_tier_ports *p = &f->tier[t];
            fprintf(fp, "    {\"tier\": %d, \"name\": \"%s\", \"switch\": \"", t,
                    ry_tier_name(t, f->tiers));
            json_str(fp, p->sw->name);
            fprintf(fp, "\", \"radix\": %d, \"port_gbps\": %g, \"ports\": %d, \"down\": %d, "
                        "\"down_gbps\": %g, \"down_split\": %d, \"up\": %d, \"up_gbps\": %g, "
                        "\"up_split\": %d, \"free\": %d}%s\n",
                    p->sw->radix, p->sw->port_gbps, p->ports, p->down, p->down_gbps,
                    p->down_split, p->up, p->up_gbps, p->up_split,
                    p->ports - p->down - p->up, t < f->tiers ? "," : "");
        }
        fputs("  ],\n", fp);
    }
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
