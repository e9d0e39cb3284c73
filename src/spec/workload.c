/* The workload section (see workload.h); the LLM and GPU catalogs are spec/catalog.c's. */
#include "spec/workload.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "spec/catalog.h"
#include "util/buf.h"
#include "util/diag.h"

static const char *const conventions[] = { "6NT", "korthikanti", NULL };
static const char *const recomputes[] = { "none", "full", NULL };
static const char *const workload_keys[] = { "model", "gpu", "batch", "batch_tokens", "precision",
                                             "parallelism", "compute_efficiency",
                                             "flops_convention", "recompute", NULL };
static const char *const parallelism_keys[] = { "tensor", NULL };

static void unknown_llm(const ry_llm_catalog *c, const ry_ynode *n, const char *what)
{
    const char **names = ry_xcalloc((size_t)c->nllms + 1, sizeof *names);
    for (int i = 0; i < c->nllms; i++)
        names[i] = c->llms[i].name;
    ry_catalog_unknown(n, what, "model", names, c->nllms,
                       "; or give a map {name, parameters, layers, d_model, seq_len, vocab, mcc}");
    free(names);
}

static void unknown_gpu(const ry_llm_catalog *c, const ry_ynode *n, const char *what)
{
    const char **names = ry_xcalloc((size_t)c->ngpus + 1, sizeof *names);
    for (int i = 0; i < c->ngpus; i++)
        names[i] = c->gpus[i].name;
    ry_catalog_unknown(n, what, "GPU", names, c->ngpus, "");
    free(names);
}

/* ---- the workload section --------------------------------------------------------------- */

typedef struct wctx {
    ry_spec *s;
    const char *templates;
    ry_llm_catalog *cat;
    int cat_tried;
} wctx;

static ry_llm_catalog *catalog(wctx *c)
{
    if (!c->cat_tried) {
        c->cat_tried = 1;
        c->cat = ry_llm_catalog_load(c->templates);
    }
    return c->cat;
}

/* workload.model: a name or a map. Returns 0 with *out filled, or -1. */
static int read_model(wctx *c, const ry_ynode *n, ry_llm *out)
{
    const char *what = "workload.model";
    memset(out, 0, sizeof *out);
    if (n->kind == RY_YSCALAR && !ry_ynode_is_null(n)) {
        const char *name;
        if (ry_yget_string(n, what, &name) < 0)
            return -1;
        ry_llm_catalog *cat = catalog(c);
        if (!cat)
            return -1;
        const ry_llm *l = ry_llm_find(cat, name);
        if (!l) {
            unknown_llm(cat, n, what);
            return -1;
        }
        *out = *l;
        return 0;
    }
    if (n->kind != RY_YMAP) {
        ry_error_at(n->pos, "%s must be a catalog name (templates/llms.yaml) or a map {name, "
                    "parameters, layers, d_model, seq_len, vocab, mcc} (got %s)", what,
                    ry_ynode_describe(n));
        return -1;
    }
    int bad = ry_ycheck_keys(n, what, ry_llm_keys) > 0;
    const ry_ynode *nm = ry_ymap_get(n, "name");
    const char *name = "custom";
    out->precision = RY_PREC_BF16;
    if (nm) {
        if (ry_yget_string(nm, "workload.model.name", &name) < 0)
            return -1;
        if (!ry_catalog_name_ok(name)) {
            ry_error_at(nm->pos, "workload.model.name must be lowercase letters, digits, '.', "
                        "'_' or '-', at most %d characters (got '%.80s')", RY_NAME_MAX - 1, name);
            return -1;
        }
        /* A catalog name starts from that entry (when there is a catalog:
         * a complete inline model needs none). */
        ry_buf p;
        ry_buf_init(&p);
        ry_buf_printf(&p, "%s/llms.yaml", c->templates);
        int here = access(p.data, F_OK) == 0;
        ry_buf_free(&p);
        if (here) {
            ry_llm_catalog *cat = catalog(c);
            if (!cat)
                return -1;
            const ry_llm *l = ry_llm_find(cat, name);
            if (l)
                *out = *l;
        }
    }
    bad |= ry_llm_read_keys(n, what, out) > 0;
    if (bad)
        return -1;
    snprintf(out->name, sizeof out->name, "%s", name);
    if (ry_llm_complete(out, n->pos, what))
        return -1;
    return 0;
}

/* A token count: an integer, optionally with k, M, G (powers of 1000) or
 * Ki, Mi, Gi (powers of 1024). */
static int parse_count(const char *s, long long *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    double v = strtod(s, &end);
    if (errno == ERANGE || end == s)
        return -1;
    static const struct {
        const char *suffix;
        double scale;
    } units[] = { { "", 1 },    { "k", 1e3 }, { "K", 1e3 }, { "M", 1e6 }, { "G", 1e9 },
                  { "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 } };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].suffix) == 0) {
            double x = v * units[i].scale;
            if (x > 1e15 || x != floor(x) || x < 1)
                return -1;
            *out = (long long)x;
            return 0;
        }
    return -1;
}

static long long divisor_at_least(long long k, long long need)
{
    for (long long d = need > 1 ? need : 1; d <= k; d++)
        if (k % d == 0)
            return d;
    return 0;
}

void ry_workload_read(ry_spec *s, const ry_ynode *root, const char *templates_dir)
{
    const ry_ynode *m = ry_ymap_get(root, "workload");
    int is_null = 0;
    if (!m || ry_yget_map(m, "workload", &is_null) < 0 || is_null)
        return;
    int before = ry_error_count();
    wctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.templates = templates_dir;
    ry_ycheck_keys(m, "workload", workload_keys);

    ry_workload *w = ry_xcalloc(1, sizeof *w);
    w->efficiency = 1.0;
    int bad_model = 0, bad_gpu = 0, bad_batch = 0, bad_tensor = 0;

    const ry_ynode *n = ry_ymap_get(m, "model");
    if (!n) {
        ry_spec_error(s, "workload", "workload needs a model: a name from templates/llms.yaml "
                      "(like gpt-3-175b) or a map");
        bad_model = 1;
    } else if (read_model(&c, n, &w->model) < 0)
        bad_model = 1;
    w->precision = w->model.precision;

    n = ry_ymap_get(m, "precision");
    int v;
    if (n) {
        if (ry_yget_enum(n, "workload.precision", ry_precision_names, &v) < 0)
            bad_gpu = 1;
        else
            w->precision = (ry_precision)v;
    }

    n = ry_ymap_get(m, "gpu");
    if (n) {
        const char *name;
        if (ry_yget_string(n, "workload.gpu", &name) < 0)
            bad_gpu = 1;
        else {
            ry_llm_catalog *cat = catalog(&c);
            const ry_gpu *g = cat ? ry_gpu_find(cat, name) : NULL;
            if (!cat)
                bad_gpu = 1;
            else if (!g) {
                unknown_gpu(cat, n, "workload.gpu");
                bad_gpu = 1;
            } else
                w->gpu = *g;
        }
    } else {
        ry_llm_catalog *cat = catalog(&c);
        const ry_gpu *g = cat ? ry_gpu_for_node(cat, s->node.name) : NULL;
        if (!cat)
            bad_gpu = 1;
        else if (!g) {
            ry_buf names;
            ry_buf_init(&names);
            for (int i = 0; i < cat->ngpus; i++)
                ry_buf_printf(&names, "%s%s", i ? ", " : "", cat->gpus[i].name);
            ry_spec_error(s, "workload", "workload.gpu is required: the node '%s' is not one the "
                          "GPU catalog knows (templates/gpus.yaml has: %s)", s->node.name,
                          names.data ? names.data : "nothing");
            ry_buf_free(&names);
            bad_gpu = 1;
        } else {
            w->gpu = *g;
            w->gpu_inferred = 1;
        }
    }
    if (!bad_gpu && w->precision == RY_PREC_FP8 && !(w->gpu.fp8_flops > 0)) {
        ry_spec_error(s, ry_ymap_get(m, "precision") ? "workload.precision" : "workload.model",
                      "precision fp8 needs a GPU with FP8 tensor cores; %s has none (use bf16 or "
                      "fp16)", w->gpu.name);
        bad_gpu = 1;
    }

    const ry_ynode *nb = ry_ymap_get(m, "batch"), *nt = ry_ymap_get(m, "batch_tokens");
    long long x;
    if (nb && nt) {
        ry_error_at(nt->pos, "give workload.batch (sequences) or workload.batch_tokens, not both");
        bad_batch = 1;
    } else if (nb) {
        if (ry_yget_int(nb, "workload.batch", 1, 1000000000000LL, &x) < 0)
            bad_batch = 1;
        else
            w->batch = x;
    } else if (nt) {
        if (nt->kind != RY_YSCALAR || nt->quoted || parse_count(nt->value, &x) < 0) {
            ry_error_at(nt->pos, "workload.batch_tokens must be a whole number of tokens like "
                        "2097152, 2Mi or 4M (got %s)", ry_ynode_describe(nt));
            bad_batch = 1;
        } else if (!bad_model && x % w->model.seq_len) {
            ry_error_at(nt->pos, "workload.batch_tokens (%lld) must be a multiple of the "
                        "model's sequence length %d (%s)", x, w->model.seq_len, w->model.name);
            bad_batch = 1;
        } else if (!bad_model)
            w->batch = x / w->model.seq_len;
    } else if (!bad_model)
        w->batch = w->model.batch;
    if (!bad_model && !bad_batch)
        w->tokens = w->batch * w->model.seq_len;

    const ry_ynode *par = ry_ymap_get(m, "parallelism");
    const ry_ynode *ntensor = NULL;
    if (par && ry_yget_map(par, "workload.parallelism", &is_null) == 0 && !is_null) {
        ry_ycheck_keys(par, "workload.parallelism", parallelism_keys);
        ntensor = ry_ymap_get(par, "tensor");
        if (ntensor) {
            if (ntensor->kind == RY_YSCALAR && !ntensor->quoted &&
                strcasecmp(ntensor->value, "auto") == 0)
                w->tensor = 0;
            else if (ntensor->kind != RY_YSCALAR || ntensor->quoted ||
                     !isdigit((unsigned char)ntensor->value[0])) {
                ry_error_at(ntensor->pos, "workload.parallelism.tensor must be auto or an integer "
                            ">= 1 (got %s)", ry_ynode_describe(ntensor));
                bad_tensor = 1;
            } else if (ry_yget_int(ntensor, "workload.parallelism.tensor", 1, 1 << 30, &x) < 0)
                bad_tensor = 1;
            else
                w->tensor = (int)x;
        }
    } else if (par && !is_null)
        bad_tensor = 1;

    double d;
    n = ry_ymap_get(m, "compute_efficiency");
    if (n) {
        if (ry_yget_number(n, "workload.compute_efficiency", 0, 1, &d) < 0)
            d = 1;
        else if (!(d > 0))
            ry_error_at(n->pos, "workload.compute_efficiency must be a fraction in (0, 1] (got "
                        "%s)", n->value);
        else
            w->efficiency = d;
    }
    n = ry_ymap_get(m, "flops_convention");
    if (n && ry_yget_enum(n, "workload.flops_convention", conventions, &v) == 0)
        w->flops = (ry_flops_conv)v;
    n = ry_ymap_get(m, "recompute");
    if (n && ry_yget_enum(n, "workload.recompute", recomputes, &v) == 0)
        w->recompute = v;

    /* Rules against the cluster: N GPUs in HB domains of K. */
    long long N = s->gpus, K = s->hb_domain;
    int cluster_ok = N >= 1 && K >= 1 && N % K == 0;
    if (cluster_ok && !bad_tensor && w->tensor > 0 && K % w->tensor) {
        ry_error_at(ntensor->pos, "workload.parallelism.tensor (%d) must divide the HB domain "
                    "size %lld: a tensor-parallel group stays inside one HB domain", w->tensor, K);
        bad_tensor = 1;
    }
    if (cluster_ok && !bad_tensor && !bad_batch && !bad_model) {
        const char *bkey = nb ? "workload.batch" : nt ? "workload.batch_tokens" : "workload.model";
        if (w->tensor > 0 && w->batch < N / w->tensor)
            ry_spec_error(s, bkey, "the batch (%lld sequences) is smaller than the data-parallel "
                          "size %lld (%lld GPUs / tensor-parallel %d): every replica needs at "
                          "least one sequence", w->batch, N / w->tensor, N, w->tensor);
        else if (w->tensor == 0 && w->batch < N / K) {
            long long need = (N + w->batch - 1) / w->batch;
            ry_spec_error(s, bkey, "the batch (%lld sequences) is smaller than the %lld HB "
                          "domains: no tensor-parallel size fits (it would need %lld GPUs per "
                          "group, more than the HB domain of %lld)", w->batch, N / K, need, K);
        } else if (w->tensor == 0 && !divisor_at_least(K, (N + w->batch - 1) / w->batch))
            ry_spec_error(s, bkey, "no tensor-parallel size dividing the HB domain %lld leaves "
                          "every replica a sequence", K);
    }
    ry_llm_catalog_free(c.cat);
    if (ry_error_count() > before) {
        free(w);
        return;
    }
    s->workload = w;
}

void ry_workload_free(struct ry_workload *w)
{
    free(w);
}
