/* The workload section (see workload.h); the LLM and GPU catalogs are spec/catalog.c's.
 * Each scalar key is read through its row of the spec schema (spec/schema.c:
 * type, range, default, single-key rules); the rules between keys and
 * against the cluster are here. */
#include "spec/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/catalog.h"
#include "spec/schema.h"
#include "util/buf.h"
#include "util/diag.h"

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
    ry_workload *w;
    const ry_ynode *tensor;     /* workload.parallelism.tensor, for its rule's message */
    int bad_model, bad_gpu, bad_batch, bad_tensor;  /* keys that failed: their rules wait */
} wctx;

static ry_llm_catalog *catalog(wctx *c)
{
    if (!c->cat_tried) {
        c->cat_tried = 1;
        c->cat = ry_llm_catalog_load_shared(c->templates);
    }
    return c->cat;
}

/* A model map whose name is in the catalog starts from that entry (when
 * there is a catalog: a complete inline model needs none). */
static int model_start(wctx *c, const char *name, ry_llm *out)
{
    if (!ry_catalog_has_file(c->templates, "llms.yaml") ||
        !ry_catalog_has_file(c->templates, "gpus.yaml"))
        return 0;
    ry_llm_catalog *cat = catalog(c);
    if (!cat)
        return -1;
    const ry_llm *l = ry_llm_find(cat, name);
    if (l)
        *out = *l;
    return 0;
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
    int bad = ry_schema_check_keys(n, what, NULL) > 0;
    ry_keyval name = { .s = "custom" };
    ry_schema_defaults_in(RY_IN_LLM, out);
    int r = ry_schema_get(n, "workload.model.name", &name);
    if (r < 0 || (r > 0 && model_start(c, name.s, out) < 0))
        return -1;
    bad |= ry_llm_read_keys(n, what, out) > 0;
    if (bad)
        return -1;
    snprintf(out->name, sizeof out->name, "%s", name.s);
    if (ry_llm_complete(out, n->pos, what))
        return -1;
    return 0;
}

/* workload.model, then workload.precision, whose default is the model's. */
static void read_workload_model(wctx *c, const ry_ynode *m)
{
    ry_workload *w = c->w;
    const ry_ynode *n = ry_ymap_get(m, "model");
    if (!n) {
        ry_spec_error(c->s, "workload", "workload needs a model: a name from "
                      "templates/llms.yaml (like gpt-3-175b) or a map");
        c->bad_model = 1;
    } else if (read_model(c, n, &w->model) < 0) {
        c->bad_model = 1;
    }
    w->precision = w->model.precision;
    if (ry_schema_take(m, "workload.precision", NULL, w) < 0)
        c->bad_gpu = 1;
}

/* No workload.gpu and a node the GPU catalog does not list. */
static void no_gpu(wctx *c, const ry_llm_catalog *cat)
{
    ry_buf names;
    ry_buf_init(&names);
    for (int i = 0; i < cat->ngpus; i++)
        ry_buf_printf(&names, "%s%s", i ? ", " : "", cat->gpus[i].name);
    ry_spec_error(c->s, "workload", "workload.gpu is required: the node '%s' is not one the "
                  "GPU catalog knows (templates/gpus.yaml has: %s)", c->s->node.name,
                  names.data ? names.data : "nothing");
    ry_buf_free(&names);
}

/* workload.gpu, or the GPU of the cluster's node; then whether it has the
 * precision's tensor cores. */
static void read_gpu(wctx *c, const ry_ynode *m)
{
    ry_workload *w = c->w;
    ry_keyval v;
    int r = ry_schema_get(m, "workload.gpu", &v);
    ry_llm_catalog *cat = r >= 0 ? catalog(c) : NULL;
    const ry_gpu *g = NULL;
    if (!cat)
        c->bad_gpu = 1;
    else if (r > 0 && !(g = ry_gpu_find(cat, v.s)))
        unknown_gpu(cat, ry_ymap_get(m, "gpu"), "workload.gpu");
    else if (r == 0 && !c->s->node.name[0])
        c->bad_gpu = 1;     /* cluster.node was refused: that error is the root */
    else if (r == 0 && !(g = ry_gpu_for_node(cat, c->s->node.name)))
        no_gpu(c, cat);
    if (!g) {
        c->bad_gpu = 1;
    } else {
        w->gpu = *g;
        w->gpu_inferred = r == 0;
    }
    if (!c->bad_gpu && w->precision == RY_PREC_FP8 && !(w->gpu.fp8_flops > 0)) {
        ry_spec_error(c->s, ry_ymap_get(m, "precision") ? "workload.precision" : "workload.model",
                      "precision fp8 needs a GPU with FP8 tensor cores; %s has none (use bf16 or "
                      "fp16)", w->gpu.name);
        c->bad_gpu = 1;
    }
}

/* workload.batch or workload.batch_tokens, else the model's batch. */
static void read_batch(wctx *c, const ry_ynode *m)
{
    ry_workload *w = c->w;
    const ry_ynode *nb = ry_ymap_get(m, "batch"), *nt = ry_ymap_get(m, "batch_tokens");
    ry_keyval v;
    if (nb && nt) {
        ry_error_at(nt->pos, "give workload.batch (sequences) or workload.batch_tokens, not both");
        c->bad_batch = 1;
    } else if (nb) {
        if (ry_schema_take(m, "workload.batch", NULL, w) < 0)
            c->bad_batch = 1;
    } else if (nt) {
        if (ry_schema_get(m, "workload.batch_tokens", &v) < 0) {
            c->bad_batch = 1;
        } else if (!c->bad_model && v.i % w->model.seq_len) {
            ry_error_at(nt->pos, "workload.batch_tokens (%lld) must be a multiple of the "
                        "model's sequence length %d (%s)", v.i, w->model.seq_len, w->model.name);
            c->bad_batch = 1;
        } else if (!c->bad_model) {
            w->batch = v.i / w->model.seq_len;
        }
    } else if (!c->bad_model) {
        w->batch = w->model.batch;
    }
    if (!c->bad_model && !c->bad_batch)
        w->tokens = w->batch * w->model.seq_len;
}

/* workload.parallelism and workload.overlap, the maps of the section the
 * table reads. */
static void read_parallelism(void *ctx, const ry_key *k, const ry_ynode *par)
{
    wctx *c = ctx;
    int is_null;
    int overlap = strcmp(k->key, "workload.overlap") == 0;
    RY_ASSERT(overlap || strcmp(k->key, "workload.parallelism") == 0);
    if (ry_yget_map(par, k->key, &is_null) < 0) {
        c->bad_tensor |= !overlap;
        return;
    }
    if (is_null)
        return;
    ry_schema_check_keys(par, k->key, NULL);
    if (!overlap)
        c->tensor = ry_ymap_get(par, "tensor");
    if (ry_schema_read(par, k->key, c->w, NULL, NULL) && !overlap)
        c->bad_tensor = 1;
}

/* workload.parallelism.expert against the model: a MoE model's, dividing
 * its experts. (Against the tensor-parallel size: model/moe.c.) */
static void expert_rules(wctx *c, const ry_ynode *m)
{
    const ry_ynode *par = ry_ymap_get(m, "parallelism");
    const ry_ynode *n = par && par->kind == RY_YMAP ? ry_ymap_get(par, "expert") : NULL;
    const ry_llm *l = &c->w->model;
    if (!n || c->bad_model || c->bad_tensor || c->w->expert == 0)
        return;
    if (l->moe.experts <= 0)
        ry_error_at(n->pos, "workload.parallelism.expert needs a mixture-of-experts model; %s "
                    "has no moe: section (remove the key, or give the model one)", l->name);
    else if (c->w->expert > l->moe.experts || l->moe.experts % c->w->expert)
        ry_error_at(n->pos, "workload.parallelism.expert (%d) must divide the %d routed experts "
                    "of %s (each GPU of the group holds the same number)", c->w->expert,
                    l->moe.experts, l->name);
}

/* first_stage_layers and last_stage_layers are at most the model's
 * blocks (all of them: two stages). */
static void stage_rules(wctx *c, const ry_ynode *m)
{
    const ry_ynode *par = ry_ymap_get(m, "parallelism");
    const ry_llm *l = &c->w->model;
    if (!par || par->kind != RY_YMAP || c->bad_model)
        return;
    const ry_ynode *f = ry_ymap_get(par, "first_stage_layers");
    const ry_ynode *g = ry_ymap_get(par, "last_stage_layers");
    const ry_ynode *n = g ? g : f;
    int fs = c->w->first_stage, ls = c->w->last_stage, p = c->w->pipeline, L = l->layers;
    if (!n)
        return;
    if (fs + ls > L)
        ry_error_at(n->pos, "workload.parallelism: first_stage_layers (%d) and "
                    "last_stage_layers (%d) are more than the %d blocks of %s (together "
                    "they may be all of them, with two pipeline stages)", fs, ls, L, l->name);
    else if (p == 1)
        ry_error_at(n->pos, "workload.parallelism: first_stage_layers and last_stage_layers "
                    "need pipeline stages, and pipeline is 1 (set it to 2 or more, or auto)");
    else if (p == 2 && fs && ls && fs + ls != L)
        ry_error_at(n->pos, "workload.parallelism: with two pipeline stages, first_stage_layers "
                    "(%d) and last_stage_layers (%d) must be the %d blocks of %s", fs, ls, L,
                    l->name);
    else if (p > 2 && L - fs - ls < p - (fs > 0) - (ls > 0))
        ry_error_at(n->pos, "workload.parallelism: first_stage_layers (%d) and "
                    "last_stage_layers (%d) leave %d of the %d blocks of %s, fewer than the "
                    "%d stages between them", fs, ls, L - fs - ls, L, l->name,
                    p - (fs > 0) - (ls > 0));
}

/* workload.parallelism.fsdp shards the weights: ZeRO-3, which it sets
 * when the spec leaves zero out and needs when the spec sets it. */
static void fsdp_rules(wctx *c, const ry_ynode *m)
{
    const ry_ynode *par = ry_ymap_get(m, "parallelism");
    if (!c->w->fsdp || !par || par->kind != RY_YMAP)
        return;
    const ry_ynode *z = ry_ymap_get(par, "zero");
    if (!z)
        c->w->zero = 3;
    else if (c->w->zero != 3)
        ry_error_at(ry_ymap_get(par, "fsdp")->pos, "workload.parallelism.fsdp shards the weights "
                    "(ZeRO-3), but workload.parallelism.zero is %d (set it to 3, or remove it)",
                    c->w->zero);
}

/* workload.parallelism.expert_tensor: a MoE model's, dividing its experts'
 * hidden size. */
static void etp_rules(wctx *c, const ry_ynode *m)
{
    const ry_ynode *par = ry_ymap_get(m, "parallelism");
    const ry_ynode *n = par && par->kind == RY_YMAP ? ry_ymap_get(par, "expert_tensor") : NULL;
    const ry_llm *l = &c->w->model;
    if (!n || c->bad_model || c->w->expert_tensor <= 1)
        return;
    if (l->moe.experts <= 0)
        ry_error_at(n->pos, "workload.parallelism.expert_tensor needs a mixture-of-experts "
                    "model; %s has no moe: section (remove the key, or give the model one)",
                    l->name);
    else if (l->moe.expert_hidden % c->w->expert_tensor)
        ry_error_at(n->pos, "workload.parallelism.expert_tensor (%d) must divide the experts' "
                    "hidden size %d of %s (each GPU holds an equal slice)",
                    c->w->expert_tensor, l->moe.expert_hidden, l->name);
}

static long long divisor_at_least(long long k, long long need)
{
    for (long long d = need > 1 ? need : 1; d <= k; d++)
        if (k % d == 0)
            return d;
    return 0;
}

/* Rules against the cluster: N GPUs in HB domains of K. A workload that
 * breaks one is well formed but does not fit this cluster: the finding is
 * kept in s->workload_misfit, not printed, since only the commands that
 * use the workload refuse it (ry_workload_check_fit); the others go on
 * without it. The rules stop at the first finding, so there is one. */
static void cluster_rules(wctx *c, const ry_ynode *m)
{
    ry_workload *w = c->w;
    ry_err *e = &c->s->workload_misfit;
    long long N = c->s->gpus, K = c->s->hb_domain;
    if (!(N >= 1 && K >= 1 && N % K == 0))
        return;
    if (!c->bad_tensor && w->tensor > 0 && K % w->tensor) {
        ry_err_set(e, "workload.parallelism.tensor", "workload.parallelism.tensor (%d) must "
                   "divide the HB domain size %lld: a tensor-parallel group stays inside one "
                   "HB domain", w->tensor, K);
        return;
    }
    if (w->expert_tensor > 1 && K % w->expert_tensor) {
        ry_err_set(e, "workload.parallelism.expert_tensor", "workload.parallelism.expert_tensor "
                   "(%d) must divide the HB domain size %lld: an expert's GPUs gather its "
                   "tokens over NVLink, inside one HB domain", w->expert_tensor, K);
        return;
    }
    if (c->bad_tensor || c->bad_batch || c->bad_model)
        return;
    const char *bkey = ry_ymap_get(m, "batch")          ? "workload.batch"
                       : ry_ymap_get(m, "batch_tokens") ? "workload.batch_tokens"
                                                        : "workload.model";
    /* Every model's: even the largest tensor group (the HB domain, or the
     * size the spec sets) times the largest context group (the one the
     * spec sets, else the layout search's largest: a power of two up to 64
     * dividing the sequence) times the most pipeline stages (one block
     * each, or the number the spec sets) leaves replicas without a
     * sequence. */
    long long tmax = w->tensor > 0 ? w->tensor : K;
    long long cmax = w->context > 0 ? w->context : 1;
    for (long long cp = 2; w->context <= 0 && cp <= 64; cp *= 2)
        if (w->model.seq_len > 0 && w->model.seq_len % cp == 0)
            cmax = cp;
    long long pmax = w->pipeline > 0 ? w->pipeline : w->model.layers;
    if ((double)w->batch * (double)tmax * (double)cmax * (double)pmax < (double)N) {
        long long r = tmax * cmax * pmax;
        ry_err_set(e, bkey, "the batch (%lld sequences) is too small for %lld GPUs: even "
                   "tensor-parallel %lld x context-parallel %lld x pipeline %lld leaves %lld "
                   "replicas, and every replica needs at least one sequence", w->batch, N,
                   tmax, cmax, pmax, (N + r - 1) / r);
        return;
    }
    /* The rest are eq. 1's (no pipeline stages): the paper mode's. */
    e = &c->s->workload_paper_misfit;
    if (w->tensor > 0 && w->batch < N / w->tensor)
        ry_err_set(e, bkey, "the batch (%lld sequences) is smaller than the data-parallel "
                   "size %lld (%lld GPUs / tensor-parallel %d): every replica needs at "
                   "least one sequence", w->batch, N / w->tensor, N, w->tensor);
    else if (w->tensor == 0 && w->batch < N / K) {
        long long need = (N + w->batch - 1) / w->batch;
        ry_err_set(e, bkey, "the batch (%lld sequences) is smaller than the %lld HB "
                   "domains: no tensor-parallel size fits (it would need %lld GPUs per "
                   "group, more than the HB domain of %lld)", w->batch, N / K, need, K);
    } else if (w->tensor == 0 && !divisor_at_least(K, (N + w->batch - 1) / w->batch))
        ry_err_set(e, bkey, "no tensor-parallel size dividing the HB domain %lld leaves "
                   "every replica a sequence", K);
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
    ry_schema_check_keys(m, "workload", NULL);
    c.w = ry_xcalloc(1, sizeof *c.w);
    ry_schema_defaults_in(RY_IN_WORKLOAD, c.w);
    read_workload_model(&c, m);
    read_gpu(&c, m);
    read_batch(&c, m);
    /* parallelism, compute_efficiency, flops_convention and recompute. */
    ry_schema_read(m, "workload", c.w, read_parallelism, &c);
    expert_rules(&c, m);
    fsdp_rules(&c, m);
    etp_rules(&c, m);
    stage_rules(&c, m);
    const ry_ynode *rn = ry_ymap_get(m, "fp8_recipe");
    if (rn && !c.bad_model && c.w->precision != RY_PREC_FP8)
        ry_error_at(rn->pos, "workload.fp8_recipe is how FP8 GEMM inputs are scaled, and the "
                    "workload's precision is %s (set precision: fp8, or remove fp8_recipe)",
                    ry_precision_name(c.w->precision));
    else if (rn && !c.bad_gpu && c.w->fp8_recipe == RY_FP8_MXFP8 && c.w->gpu.name[0] &&
             !c.w->gpu.mx_formats)
        ry_error_at(rn->pos, "workload.fp8_recipe: mxfp8 needs tensor cores that take "
                    "microscaled blocks, and the %s's do not (its catalog entry has no "
                    "mx_formats: true; Blackwell's have): use tensorwise, delayed or blockwise",
                    c.w->gpu.name);
    c.w->efficiency_given = ry_ymap_get(m, "compute_efficiency") != NULL;
    c.w->recompute_given = ry_ymap_get(m, "recompute") != NULL;
    c.w->flops_given = ry_ymap_get(m, "flops_convention") != NULL;
    cluster_rules(&c, m);
    ry_llm_catalog_free(c.cat);
    if (ry_error_count() > before || s->workload_misfit.key[0]) {
        free(c.w);
        return;
    }
    s->workload = c.w;
}

int ry_workload_check_fit(const ry_spec *s)
{
    const ry_err *e = &s->workload_misfit;
    if (!e->key[0])
        return 0;
    ry_spec_error(s, e->key, "%s", e->msg);
    return -1;
}

int ry_workload_check_paper_fit(const ry_spec *s)
{
    if (ry_workload_check_fit(s) < 0)
        return -1;
    const ry_err *e = &s->workload_paper_misfit;
    if (!e->key[0])
        return 0;
    ry_spec_error(s, e->key, "%s", e->msg);
    return -1;
}

void ry_workload_free(struct ry_workload *w)
{
    free(w);
}
