/* The catalog as tables (see emit_catalog.h). */
#include "emit/report/emit_catalog.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/escape.h"

static const struct {
    const char *name, *file;
    const char *text_cols;      /* the text table's columns, space-separated */
} sections[RY_CAT_N] = {
    [RY_CAT_SWITCHES] = { "switches", "switches.yaml",
                          "name radix speed protocol rack_units power_w price_usd description" },
    [RY_CAT_NODES] = { "nodes", "nodes.yaml",
                       "name gpu gpus_per_node hb_domain nic_gbps rack_units per_rack power_w "
                       "description" },
    [RY_CAT_GPUS] = { "gpus", "gpus.yaml",
                      "name bf16_tflops fp8_tflops nvlink_gbps memory_gb nic_gbps nodes" },
    [RY_CAT_LLMS] = { "llms", "llms.yaml",
                      "name parameters_b layers d_model heads seq_len vocab precision batch "
                      "experts top_k" },
    [RY_CAT_MEDIA] = { "media", "media.yaml",
                       "name kind speeds_gbps reach_m legs connector cable_price "
                       "cable_price_per_m description" },
    [RY_CAT_PRICES] = { "prices", "libra-costs.yaml", "name link switch nic" },
};

const char *ry_cat_section_name(ry_cat_section s) { return sections[s].name; }
const char *ry_cat_section_file(ry_cat_section s) { return sections[s].file; }

/* A figure as the catalog gives it: whole numbers stay whole. */
static json_t *num(double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

/* The description an entry of a catalog file gives, or "" (the LLM, GPU
 * and price structs keep none). */
static const char *doc_description(const ry_ydoc *d, const char *top, const char *name)
{
    const ry_ynode *e = d && d->root ? ry_ymap_get(d->root, top) : NULL;
    e = e ? ry_ymap_get(e, name) : NULL;
    const ry_ynode *v = e ? ry_ymap_get(e, "description") : NULL;
    return v && v->kind == RY_YSCALAR ? v->value : "";
}

static json_t *switch_rows(const ry_catalog *c)
{
    json_t *a = json_array();
    for (int i = 0; i < c->nswitches; i++) {
        const ry_catalog_switch *e = &c->switches[i];
        const ry_switch_model *m = &e->model;
        json_array_append_new(a, json_pack(
            "{s:s, s:s, s:i, s:s, s:o, s:s, s:i, s:i, s:i, s:s, s:o, s:o, s:s, s:s}",
            "name", m->name, "vendor", e->vendor ? e->vendor : "", "radix", m->radix,
            "speed", m->speed, "port_gbps", num(m->port_gbps),
            "protocol", m->ethernet ? "ethernet" : "infiniband", "rack_units",
            m->units ? m->units : 1, "cages", m->cages, "cage_ports",
            m->cage_ports ? m->cage_ports : 1, "connector", m->connector,
            "power_w", num(m->power_w), "price_usd", num(m->price), "part", m->part,
            "description", e->description ? e->description : ""));
    }
    return a;
}

static json_t *node_rows(const ry_catalog *c, const ry_llm_catalog *llm)
{
    json_t *a = json_array();
    for (int i = 0; i < c->nnodes; i++) {
        const ry_catalog_node *e = &c->nodes[i];
        const ry_node_model *m = &e->model;
        const ry_gpu *g = llm ? ry_gpu_for_node(llm, m->name) : NULL;
        json_t *trays = json_array();
        for (int k = 0; k < m->ntrays; k++) {
            const ry_rack_tray *t = &m->trays[k];
            json_array_append_new(trays, json_pack("{s:s, s:s, s:i, s:i, s:o}", "kind", t->kind,
                                                   "part", t->part, "per_rack", t->per_rack,
                                                   "rack_units", t->units, "power_w",
                                                   num(t->power_w)));
        }
        json_array_append_new(a, json_pack(
            "{s:s, s:s, s:s, s:i, s:i, s:o, s:i, s:i, s:i, s:o, s:s, s:i, s:o, s:s}",
            "name", m->name, "vendor", e->vendor ? e->vendor : "", "gpu", g ? g->name : "",
            "gpus_per_node", m->gpus_per_node, "hb_domain", m->hb_domain,
            "nic_gbps", num(m->nic_gbps), "rack_units", m->units, "per_rack", m->per_rack,
            "cage_ports", m->cage_ports ? m->cage_ports : 1, "power_w", num(m->power_w),
            "connector", m->connector, "nics", m->nnics, "rack_trays", trays,
            "description", e->description ? e->description : ""));
    }
    return a;
}

static json_t *gpu_rows(const ry_llm_catalog *c)
{
    json_t *a = json_array();
    for (int i = 0; i < c->ngpus; i++) {
        const ry_gpu *g = &c->gpus[i];
        json_t *nodes = json_array();
        const char *p = c->gpu_nodes && c->gpu_nodes[i] ? c->gpu_nodes[i] : "";
        while (*p) {
            size_t n = strcspn(p, "\n");
            json_array_append_new(nodes, json_stringn(p, n));
            p += n + (p[n] == '\n');
        }
        json_array_append_new(a, json_pack(
            "{s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "name", g->name,
            "bf16_tflops", num(g->bf16_flops / 1e12), "fp8_tflops", num(g->fp8_flops / 1e12),
            "nvlink_gbps", num(g->nvlink_gbps), "memory_gb", num(g->memory_bytes / 1e9),
            "nic_gbps", num(g->nic_gbps), "nodes", nodes));
        json_object_set_new(json_array_get(a, json_array_size(a) - 1), "description",
                            json_string(doc_description(c->gpu_doc, "gpus", g->name)));
    }
    return a;
}

static json_t *llm_rows(const ry_llm_catalog *c)
{
    json_t *a = json_array();
    for (int i = 0; i < c->nllms; i++) {
        const ry_llm *l = &c->llms[i];
        json_t *o = json_pack(
            "{s:s, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:I, s:i, s:i}", "name", l->name,
            "parameters", num(l->parameters), "parameters_b", num(round(l->parameters / 1e8) / 10),
            "layers", l->layers, "d_model", l->d_model, "heads", l->heads, "seq_len", l->seq_len,
            "vocab", l->vocab, "mcc", l->mcc, "precision", ry_precision_name(l->precision),
            "batch", (json_int_t)l->batch, "experts", l->moe.experts, "top_k", l->moe.top_k);
        if (l->moe.experts)
            json_object_set_new(o, "active_parameters", num(l->moe.active_parameters));
        json_object_set_new(o, "description",
                            json_string(doc_description(c->llm_doc, "llms", l->name)));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *media_rows(const ry_media_catalog *c)
{
    json_t *a = json_array();
    for (int i = 0; i < c->nmedia; i++) {
        const ry_medium *m = &c->media[i];
        json_t *speeds = json_array(), *lengths = json_array();
        for (int k = 0; k < m->nspeeds; k++)
            json_array_append_new(speeds, num(m->speeds[k]));
        for (int k = 0; k < m->nlengths; k++)
            json_array_append_new(lengths, num(m->lengths[k]));
        json_array_append_new(a, json_pack(
            "{s:s, s:s, s:o, s:o, s:o, s:i, s:s, s:s, s:o, s:o, s:o, s:s}", "name", m->name,
            "kind", ry_media_kind_name(m->kind), "speeds_gbps", speeds,
            "reach_m", num(m->nlengths ? m->lengths[m->nlengths - 1] : 0), "lengths_m", lengths,
            "legs", m->legs ? m->legs : 1, "connector", m->connector, "cable_part", m->cable_part,
            "cable_price", num(m->cable_price), "cable_price_per_m", num(m->cable_price_per_m),
            "power_w", num(m->power), "description", m->description));
    }
    return a;
}

static json_t *price_rows(const ry_libra_costs *c)
{
    json_t *a = json_array();
    for (int i = 0; i < c->ntechs; i++) {
        const ry_libra_tech *t = &c->techs[i];
        json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o, s:s}", "name", t->name, "link",
                                           num(t->link), "switch", num(t->sw), "nic", num(t->nic), "description",
                                           doc_description(c->doc, "technologies", t->name)));
    }
    return a;
}

static json_t *section_rows(const ry_cat_sources *src, ry_cat_section s)
{
    switch (s) {
    case RY_CAT_SWITCHES: return src->cat ? switch_rows(src->cat) : NULL;
    case RY_CAT_NODES: return src->cat ? node_rows(src->cat, src->llm) : NULL;
    case RY_CAT_GPUS: return src->llm ? gpu_rows(src->llm) : NULL;
    case RY_CAT_LLMS: return src->llm ? llm_rows(src->llm) : NULL;
    case RY_CAT_MEDIA: return src->media ? media_rows(src->media) : NULL;
    case RY_CAT_PRICES: return src->prices ? price_rows(src->prices) : NULL;
    default: return NULL;
    }
}

/* A cell of the text table: lists joined by ',', 0 and "" as "-". */
static char *cell(const json_t *v)
{
    ry_buf b;
    ry_buf_init(&b);
    if (json_is_array(v)) {
        size_t i;
        const json_t *x;
        json_array_foreach(v, i, x) {
            char *c = cell(x);
            ry_buf_printf(&b, "%s%s", i ? "," : "", c);
            free(c);
        }
    } else if (json_is_string(v)) {     /* a description is input: escaped */
        ry_escape_str(&b, json_string_value(v), RY_ESC_TERM);
    } else if (json_is_integer(v)) {
        if (json_integer_value(v))
            ry_buf_puts(&b, ry_n((long long)json_integer_value(v)));
    } else if (json_is_real(v)) {
        char n[RY_NUM_CAP];
        ry_buf_puts(&b, ry_num_sig(n, sizeof n, json_real_value(v), 6));
    }
    if (!b.len)
        ry_buf_puts(&b, "-");
    char *s = ry_xstrdup(b.data);
    ry_buf_free(&b);
    return s;
}

#define MAX_COLS 16

static void text_table(ry_buf *out, const json_t *rows, const char *cols_text)
{
    char colbuf[256];
    const char *cols[MAX_COLS];
    int ncols = 0;
    snprintf(colbuf, sizeof colbuf, "%s", cols_text);
    for (char *p = strtok(colbuf, " "); p && ncols < MAX_COLS; p = strtok(NULL, " "))
        cols[ncols++] = p;
    size_t nrows = json_array_size(rows);
    char **cells = ry_xcalloc(nrows * (size_t)ncols + 1, sizeof *cells);
    int width[MAX_COLS], right[MAX_COLS];
    for (int c = 0; c < ncols; c++) {
        width[c] = (int)strlen(cols[c]);
        right[c] = 1;
    }
    for (size_t r = 0; r < nrows; r++)
        for (int c = 0; c < ncols; c++) {
            const json_t *v = json_object_get(json_array_get(rows, r), cols[c]);
            char *s = cells[r * (size_t)ncols + (size_t)c] = cell(v);
            if ((int)strlen(s) > width[c])
                width[c] = (int)strlen(s);
            if (json_is_string(v) || json_is_array(v))
                right[c] = 0;   /* numbers right-aligned, words left */
        }
    for (size_t r = 0; r <= nrows; r++) {
        ry_buf line;
        ry_buf_init(&line);
        for (int c = 0; c < ncols; c++) {
            const char *s = r == 0 ? cols[c] : cells[(r - 1) * (size_t)ncols + (size_t)c];
            int last = c == ncols - 1;
            if (right[c])
                ry_buf_printf(&line, "%*s", width[c], s);
            else
                ry_buf_printf(&line, "%-*s", last ? 0 : width[c], s);
            if (!last)
                ry_buf_puts(&line, "  ");
        }
        while (line.len && line.data[line.len - 1] == ' ')
            line.data[--line.len] = '\0';
        ry_buf_printf(out, "%s\n", line.data);
        ry_buf_free(&line);
    }
    for (size_t i = 0; i < nrows * (size_t)ncols; i++)
        free(cells[i]);
    free(cells);
}

void ry_emit_catalog(ry_buf *out, const ry_cat_sources *src, unsigned which, ry_format fmt)
{
    int many = 0;
    for (int s = 0; s < RY_CAT_N; s++)
        many += (which >> s) & 1;
    json_t *all = json_object();
    int printed = 0;
    for (int s = 0; s < RY_CAT_N; s++) {
        if (!((which >> s) & 1))
            continue;
        json_t *rows = section_rows(src, (ry_cat_section)s);
        if (!rows)
            continue;
        if (fmt == RY_FMT_JSON) {
            json_object_set_new(all, sections[s].name, rows);
            continue;
        }
        if (many > 1)
            ry_buf_printf(out, "%s%s (%s):\n", printed++ ? "\n" : "", sections[s].name,
                          sections[s].file);
        text_table(out, rows, sections[s].text_cols);
        json_decref(rows);
    }
    if (fmt == RY_FMT_JSON)
        ry_json_out(out, json_incref(all), 0);
    json_decref(all);
}
