/* Reading LIBRA's sections of a spec: network:, libra: (workload,
 * constraints, objective), with prices from templates/libra-costs.yaml.
 * Each scalar key is read through its row of the spec schema (spec/schema.c:
 * type, range, default, single-key rules); the rules between keys are here.
 * What is read is kept as written (constraints unnormalised, the LLM-derived
 * workload as a flag); model/libra_problem.c makes the problem of it. */
#include "spec/libra_spec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec/catalog.h"
#include "spec/schema.h"
#include "spec/yaml.h"
#include "util/buf.h"

#define MAXD RY_LIBRA_MAX_DIMS
#define MAX_SIZE (1 << 20)
#define MAX_NPUS INT_MAX

double ry_libra_unit_cost(const ry_libra_dim *d)
{
    return d->block == RY_LIBRA_SWITCH ? d->link + d->sw + d->nic : d->link;
}

typedef struct rctx {
    const ry_spec *s;
    const char *templates;
    ry_libra_costs *tech;   /* templates/libra-costs.yaml, loaded when first needed */
    int tech_tried;
    ry_libra_spec *p;
} rctx;

/* ---- small helpers ---------------------------------------------------------------------- */

static ry_pos key_pos(const ry_ynode *map, const char *key)
{
    const ry_ynode *k = ry_ymap_key(map, key);
    return k ? k->pos : map->pos;
}

static int dim_index(const ry_libra_net *n, const char *name)
{
    for (int i = 0; i < n->ndims; i++)
        if (strcmp(n->dim[i].name, name) == 0)
            return i;
    int k = ry_libra_positional(name);
    return k >= 0 && k < n->ndims ? k : -1;
}

static const char *dim_list(const ry_libra_net *n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n->ndims && len + 1 < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", n->dim[i].name);
    return buf;
}

/* ---- the price catalog ------------------------------------------------------------------ */

static const ry_libra_costs *tech_table(rctx *c)
{
    if (!c->tech_tried) {
        c->tech_tried = 1;
        c->tech = ry_libra_costs_load(c->templates);
    }
    return c->tech;
}

/* Prices of the technology the entry n names (its tech key) into d: 0
 * without one, 1 when set, -1 after an error. */
static int tech_prices(rctx *c, const ry_ynode *n, const char *what, ry_libra_dim *d)
{
    ry_keyval v;
    int r = ry_schema_get_as(n, "network.dims[].tech", what, &v);
    if (r <= 0)
        return r;
    const ry_libra_costs *t = tech_table(c);
    if (!t)
        return -1;
    const ry_libra_tech *e = ry_libra_tech_find(t, v.s);
    if (e) {
        d->link = e->link;
        d->sw = e->sw;
        d->nic = e->nic;
        return 1;
    }
    char w[96];
    snprintf(w, sizeof w, "%s.tech", what);
    const char **names = ry_xcalloc((size_t)t->ntechs + 1, sizeof *names);
    for (int k = 0; k < t->ntechs; k++)
        names[k] = t->techs[k].name;
    ry_catalog_unknown(ry_ymap_get(n, "tech"), w, "technology", names, t->ntechs, "");
    free(names);
    return -1;
}

/* ---- network ---------------------------------------------------------------------------- */

/* A key a dimension must have, read into d: missing, it is an error unless
 * quiet (an unknown key was reported, likely the misspelt one). need says
 * what it is. Returns 0, or -1. */
static int dim_required(const ry_ynode *n, const char *key, const char *what, int quiet,
                        const char *need, ry_libra_dim *d)
{
    int r = ry_schema_take(n, key, what, d);
    if (r == 0 && !quiet)
        ry_error_at(n->pos, "%s needs %s", what, need);
    return r > 0 ? 0 : -1;
}

/* Dimension k's name is not one an earlier dimension has. */
static int dim_unique(const ry_ynode *n, const char *what, int k, const ry_libra_net *net)
{
    for (int j = 0; j < k; j++)
        if (strcmp(net->dim[j].name, net->dim[k].name) == 0) {
            ry_error_at(ry_ymap_get(n, "name")->pos, "%s.name: dimension name '%s' is already "
                        "used by network.dims[%d]", what, net->dim[k].name, j);
            return -1;
        }
    return 0;
}

/* Prices: a technology from the catalog, then keys given here; switch and
 * NIC prices belong to switch blocks (blk -1: the block is unknown). */
static int dim_prices(rctx *c, const ry_ynode *n, const char *what, int quiet, int blk,
                      ry_libra_dim *d)
{
    int tech = tech_prices(c, n, what, d);
    int r1 = ry_schema_take(n, "network.dims[].link", what, d);
    int r2 = ry_schema_take(n, "network.dims[].switch", what, d);
    int r3 = ry_schema_take(n, "network.dims[].nic", what, d);
    int bad = tech < 0 || r1 < 0 || r2 < 0 || r3 < 0;
    if (tech == 0 && r1 == 0 && !quiet) {
        ry_error_at(n->pos, "%s needs prices: tech (a name in templates/libra-costs.yaml) or "
                    "link (USD per GB/s per NPU)", what);
        bad = 1;
    }
    if (blk >= 0 && blk != RY_LIBRA_SWITCH && (r2 > 0 || r3 > 0)) {
        const char *key = r2 > 0 ? "switch" : "nic";
        ry_error_at(key_pos(n, key), "%s.%s: switch and NIC prices apply to switch blocks only "
                    "(this block is %s)", what, key, ry_libra_block_words[blk]);
        bad = 1;
    }
    if (blk >= 0 && blk != RY_LIBRA_SWITCH && tech != 0)
        d->sw = d->nic = 0;     /* a technology's switch price does not apply to a ring */
    return bad ? -1 : 0;
}

static int read_dim(rctx *c, const ry_ynode *n, int k, ry_libra_net *net)
{
    char what[64];
    snprintf(what, sizeof what, "network.dims[%d]", k);
    ry_libra_dim *d = &net->dim[k];
    memset(d, 0, sizeof *d);
    ry_schema_defaults_in(RY_IN_DIM, d);
    d->pos = n->pos;
    if (n->kind != RY_YMAP) {
        ry_error_at(n->pos, "%s must be a map {name, block, size, tech or link} (got %s)", what,
                    ry_ynode_describe(n));
        return -1;
    }
    int bad = ry_schema_check_keys(n, "network.dims[]", what) > 0;
    int quiet = bad;
    if (dim_required(n, "network.dims[].name", what, quiet, "a name, like package or scale_out",
                     d) < 0 || dim_unique(n, what, k, net) < 0)
        bad = 1;
    int blk = -1;
    if (dim_required(n, "network.dims[].block", what, quiet,
                     "a block: ring, fully-connected or switch", d) < 0)
        bad = 1;
    else
        blk = (int)d->block;
    if (dim_required(n, "network.dims[].size", what, quiet,
                     "a size: the NPUs along this dimension", d) < 0)
        bad = 1;
    if (dim_prices(c, n, what, quiet, blk, d) < 0)
        bad = 1;
    return bad ? -1 : 0;
}

static int derive_network(rctx *c, const ry_ynode *root)
{
    const ry_spec *s = c->s;
    ry_libra_net *net = &c->p->net;
    if (s->gpus <= 0 || s->hb_domain <= 0 || s->gpus % s->hb_domain)
        return -1;      /* the cluster's own errors say why */
    const ry_ynode *cl = ry_ymap_key(root, "cluster");
    ry_pos at = cl ? cl->pos : (ry_pos){ s->path, 1, 1 };
    const ry_libra_costs *t = tech_table(c);
    if (!t)
        return -1;
    static const char *const names[2] = { "hb", "scale_out" };
    static const char *const techs[2] = { "node", "pod" };
    net->ndims = 2;
    net->derived = 1;
    for (int i = 0; i < 2; i++) {
        ry_libra_dim *d = &net->dim[i];
        memset(d, 0, sizeof *d);
        snprintf(d->name, sizeof d->name, "%s", names[i]);
        d->block = RY_LIBRA_SWITCH;
        d->size = i == 0 ? s->hb_domain : (int)(s->gpus / s->hb_domain);
        d->pos = at;
        const ry_libra_tech *e = ry_libra_tech_find(t, techs[i]);
        if (!e) {
            ry_pos top = { t->file, 1, 1 };
            ry_error_at(top, "the catalog has no technology '%s', which prices the %s of a "
                        "network derived from the cluster", techs[i],
                        i == 0 ? "HB domain" : "scale-out fabric");
            return -1;
        }
        d->link = e->link;
        d->sw = e->sw;
        d->nic = e->nic;
    }
    net->npus = s->gpus;
    return 0;
}

static int read_network(rctx *c, const ry_ynode *root)
{
    const ry_ynode *nw = ry_ymap_get(root, "network");
    ry_libra_net *net = &c->p->net;
    memset(net, 0, sizeof *net);
    if (!nw || (nw->kind == RY_YMAP && !ry_ymap_get(nw, "dims") &&
                ry_schema_check_keys(nw, "network", NULL) == 0))
        return derive_network(c, root);
    if (ry_yget_map(nw, "network", NULL) < 0)
        return -1;
    int bad = ry_schema_check_keys(nw, "network", NULL) > 0;
    const ry_ynode *dims = ry_ymap_get(nw, "dims");
    if (!dims) {
        if (!bad)
            ry_error_at(key_pos(root, "network"), "network needs dims: a list of {name, block, "
                        "size, tech or link}, innermost dimension first");
        return -1;
    }
    if (dims->kind != RY_YSEQ || dims->n == 0 || dims->n > MAXD) {
        ry_error_at(dims->pos, "network.dims must be a list of 1 to %d dimensions (got %s)",
                    MAXD, dims->kind == RY_YSEQ ? (dims->n ? "more" : "an empty list")
                                                : ry_ynode_describe(dims));
        return -1;
    }
    net->ndims = (int)dims->n;
    for (int k = 0; k < net->ndims; k++)
        bad |= read_dim(c, dims->items[k], k, net) < 0;
    if (bad)
        return -1;
    long long npus = 1;
    for (int k = 0; k < net->ndims; k++) {
        npus *= net->dim[k].size;
        if (npus > MAX_NPUS) {
            ry_error_at(dims->pos, "network has more than %d NPUs", MAX_NPUS);
            return -1;
        }
    }
    net->npus = npus;
    const ry_spec *s = c->s;
    if (s->gpus > 0 && npus != s->gpus) {
        ry_buf b;
        ry_buf_init(&b);
        for (int k = 0; k < net->ndims; k++)
            ry_buf_printf(&b, "%s%d", k ? " x " : "", net->dim[k].size);
        ry_error_at(key_pos(root, "network"), "network has %lld NPUs (%s) but the cluster has "
                    "%lld GPUs: they must be the same machine", npus, b.data, s->gpus);
        ry_buf_free(&b);
        return -1;
    }
    return 0;
}

/* ---- group sizes ------------------------------------------------------------------------ */

static int group_value(const ry_libra_net *net, const ry_ynode *n, const char *what, int i,
                       int *out)
{
    long long v;
    if (ry_yget_int(n, what, -1, MAX_SIZE, &v) < 0)
        return -1;
    int size = net->dim[i].size;
    if (v <= 1) {
        *out = 1;   /* -1, 0 and 1: the dimension is not used (LIBRA writes -1) */
        return 0;
    }
    if (v > size || size % v) {
        ry_error_at(n->pos, "%s: a group of %lld NPUs on dimension '%s' of size %d; it must "
                    "divide the size", what, v, net->dim[i].name, size);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A list with one size per dimension, a map {dimension: size}, or all/none. */
static int read_groups(const ry_libra_net *net, const ry_ynode *n, const char *what, int *g)
{
    char w[128];
    for (int i = 0; i < MAXD; i++)
        g[i] = 1;
    if (n->kind == RY_YSCALAR && !ry_ynode_is_null(n)) {
        if (strcmp(n->value, "all") == 0) {
            for (int i = 0; i < net->ndims; i++)
                g[i] = net->dim[i].size;
            return 0;
        }
        if (strcmp(n->value, "none") == 0)
            return 0;
    }
    if (n->kind == RY_YSEQ) {
        if ((int)n->n != net->ndims) {
            ry_error_at(n->pos, "%s must have one group size per dimension: %d (got %zu)", what,
                        net->ndims, n->n);
            return -1;
        }
        int bad = 0;
        for (int i = 0; i < net->ndims; i++) {
            snprintf(w, sizeof w, "%s[%d]", what, i);
            bad |= group_value(net, n->items[i], w, i, &g[i]) < 0;
        }
        return bad ? -1 : 0;
    }
    if (n->kind == RY_YMAP) {
        int bad = 0;
        for (size_t k = 0; k < n->n; k++) {
            const char *key = n->keys[k]->value;
            int i = dim_index(net, key);
            char list[256];
            if (i < 0) {
                const char *names[MAXD];
                for (int j = 0; j < net->ndims; j++)
                    names[j] = net->dim[j].name;
                const char *hint = ry_suggest(key, names, net->ndims);
                ry_error_at(n->keys[k]->pos, "%s: no dimension '%s'%s%s%s (dimensions: %s)",
                            what, key, hint ? "; did you mean '" : "", hint ? hint : "",
                            hint ? "'?" : "", dim_list(net, list, sizeof list));
                bad = 1;
                continue;
            }
            snprintf(w, sizeof w, "%s.%s", what, key);
            bad |= group_value(net, n->items[k], w, i, &g[i]) < 0;
        }
        return bad ? -1 : 0;
    }
    ry_error_at(n->pos, "%s must be a list of group sizes per dimension, a map {dimension: "
                "size}, all or none (got %s)", what, ry_ynode_describe(n));
    return -1;
}

/* ---- workload in YAML ------------------------------------------------------------------- */

/* The row of a phase's key, "libra.layers[].forward.compute"; key "" gives
 * the phase's own. */
static const char *phase_key(char *buf, size_t cap, int phase, const char *key)
{
    snprintf(buf, cap, "libra.layers[].%s%s%s", ry_libra_phase_name(phase), *key ? "." : "", key);
    return buf;
}

/* The phase's group sizes: its own, the defaults, or an error when its
 * collective (cv, NULL when none was given) has none. */
static int phase_groups(rctx *c, const ry_ynode *n, const char *what, int phase,
                        const ry_libra_groups *dflt, const ry_ynode *cv, ry_libra_phase *ph)
{
    const ry_ynode *gv = ry_ymap_get(n, "groups");
    char w[160];
    snprintf(w, sizeof w, "%s.groups", what);
    if (gv)
        return read_groups(&c->p->net, gv, w, ph->group);
    if (dflt->have[phase]) {
        memcpy(ph->group, dflt->group[phase], sizeof ph->group);
    } else if (cv && ph->coll != RY_COLL_NONE) {
        ry_error_at(cv->pos, "%s: no group sizes for this collective: give groups here, "
                    "libra.groups.%s or libra.tensor_parallel", what, ry_libra_phase_name(phase));
        return -1;
    }
    return 0;
}

static int read_phase(rctx *c, const ry_ynode *n, const char *what, int phase,
                      const ry_libra_groups *dflt, ry_libra_phase *ph)
{
    char key[64];
    ry_keyval v;
    if (ry_ynode_is_null(n))
        return 0;
    if (n->kind != RY_YMAP) {
        ry_error_at(n->pos, "%s must be a map {compute, collective, bytes, groups} (got %s)",
                    what, ry_ynode_describe(n));
        return -1;
    }
    int bad = ry_schema_check_keys(n, phase_key(key, sizeof key, phase, ""), what) > 0;
    /* A plain number of compute is in libra.time_unit. */
    int r = ry_schema_get_as(n, phase_key(key, sizeof key, phase, "compute"), what, &v);
    if (r < 0)
        bad = 1;
    else if (r > 0)
        ph->compute = v.i ? v.d * ry_libra_time_scale(c->p->time_unit) : v.d;
    const ry_ynode *cv = ry_ymap_get(n, "collective");
    const ry_ynode *bv = ry_ymap_get(n, "bytes");
    if (ry_schema_take(n, phase_key(key, sizeof key, phase, "collective"), what, ph) < 0) {
        bad = 1;
        /* A word that names no collective: bytes then have none to go with. */
        if (cv->kind == RY_YSCALAR && !ry_ynode_is_null(cv))
            cv = NULL;
    }
    if (ry_schema_take(n, phase_key(key, sizeof key, phase, "bytes"), what, ph) < 0)
        bad = 1;
    if (cv && ph->coll != RY_COLL_NONE && !bv) {
        ry_error_at(cv->pos, "%s: a collective needs bytes, its size", what);
        bad = 1;
    }
    if (bv && !cv) {
        ry_error_at(bv->pos, "%s: bytes without a collective; add collective: all-reduce (or "
                    "another)", what);
        bad = 1;
    }
    if (phase_groups(c, n, what, phase, dflt, cv, ph) < 0)
        bad = 1;
    return bad ? -1 : 0;
}

/* Entry k of libra.layers, appended to the workload. */
static int read_layer(rctx *c, const ry_ynode *l, size_t k, const ry_libra_groups *dflt)
{
    char what[64], w[96];
    snprintf(what, sizeof what, "libra.layers[%zu]", k);
    if (l->kind != RY_YMAP) {
        ry_error_at(l->pos, "%s must be a map {name, count, forward, input_grad, "
                    "weight_grad} (got %s)", what, ry_ynode_describe(l));
        return -1;
    }
    int bad = ry_schema_check_keys(l, "libra.layers[]", what) > 0;
    ry_libra_layer *ly = ry_libra_workload_add(&c->p->wl);
    snprintf(ly->name, sizeof ly->name, "layer%zu", k);
    if (ry_schema_take(l, "libra.layers[].name", what, ly) < 0)
        bad = 1;
    if (ry_schema_take(l, "libra.layers[].count", what, ly) < 0)
        bad = 1;
    for (int p = 0; p < RY_PHASES; p++) {
        const ry_ynode *v = ry_ymap_get(l, ry_libra_phase_name(p));
        snprintf(w, sizeof w, "%s.%s", what, ry_libra_phase_name(p));
        if (v && read_phase(c, v, w, p, dflt, &ly->ph[p]) < 0)
            bad = 1;
    }
    return bad ? -1 : 0;
}

static int read_layers(rctx *c, const ry_ynode *n, const ry_libra_groups *dflt)
{
    ry_libra_workload *wl = &c->p->wl;
    if (n->kind != RY_YSEQ || n->n == 0) {
        ry_error_at(n->pos, "libra.layers must be a list of layers {name, count, forward, "
                    "input_grad, weight_grad} (got %s)", n->kind == RY_YSEQ ? "an empty list"
                                                                          : ry_ynode_describe(n));
        return -1;
    }
    int bad = 0;
    for (size_t k = 0; k < n->n; k++)
        if (read_layer(c, n->items[k], k, dflt) < 0)
            bad = 1;
    snprintf(wl->source, sizeof wl->source, "libra.layers (%d)", wl->nlayers);
    return bad ? -1 : 0;
}

/* ---- workload from the LLM section ------------------------------------------------------ */

/* Neither layers nor a file: the workload section's LLM gives the workload,
 * one block per layer (model/libra_problem.c computes it). */
static int derive_workload(rctx *c, const ry_ynode *lb, long long tp_given)
{
    ry_libra_spec *p = c->p;
    /* A workload that does not fit the cluster is refused when the
     * problem is built (model/libra_problem.c), by the commands that build it. */
    if (!c->s->workload && !c->s->workload_misfit.key[0]) {
        ry_error_at(p->pos, "libra needs a workload: layers (a list in the spec), "
                    "workload_file (an ASTRA-sim workload file) or a workload section (the "
                    "LLM trained)");
        return -1;
    }
    p->from_workload = 1;
    p->tensor_parallel = tp_given;
    p->tensor_parallel_pos = key_pos(lb, "tensor_parallel");
    return 0;
}

/* ---- constraints ------------------------------------------------------------------------ */

typedef struct lin {
    double c[MAXD];
    double cost;
    double k;
} lin;

typedef struct cparse {
    const char *s;
    size_t i;
    const ry_libra_net *net;
    const ry_ynode *node;
    const char *what;
    int shift;              /* s is the node's text: columns point into it */
} cparse;

static void cp_error(const cparse *cp, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void cp_error(const cparse *cp, size_t at, const char *fmt, ...)
{
    ry_pos pos = cp->node->pos;
    /* Columns inside a one-line scalar; quotes shift them by one. */
    if (cp->shift && !strchr(cp->s, '\n'))
        pos.col += (int)at + (cp->node->quoted ? 1 : 0);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ry_error_at(pos, "%s: %s (in '%s')", cp->what, msg, cp->s);
}

static void skip_ws(cparse *cp)
{
    while (isspace((unsigned char)cp->s[cp->i]))
        cp->i++;
}

static int cp_number(cparse *cp, double *v)
{
    const char *p = cp->s + cp->i;
    if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))))
        return 0;
    char *end;
    errno = 0;
    *v = strtod(p, &end);
    if (errno || !isfinite(*v)) {
        cp_error(cp, cp->i, "number out of range");
        return -1;
    }
    cp->i += (size_t)(end - p);
    return 1;
}

/* A name: sum, total, cost, bwN, bw[N] or a dimension. */
static int cp_atom(cparse *cp, lin *out, double mult)
{
    size_t at = cp->i;
    const char *p = cp->s + cp->i;
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return 0;
    char name[64];
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_') {
        if (n + 1 < sizeof name)
            name[n] = p[n];
        n++;
    }
    name[n < sizeof name ? n : sizeof name - 1] = '\0';
    cp->i += n;
    if (strcmp(name, "bw") == 0 && cp->s[cp->i] == '[') {
        char *end;
        long k = strtol(cp->s + cp->i + 1, &end, 10);
        if (*end != ']' || end == cp->s + cp->i + 1) {
            cp_error(cp, cp->i, "expected bw[N]");
            return -1;
        }
        cp->i = (size_t)(end - cp->s) + 1;
        if (k < 0 || k >= cp->net->ndims) {
            cp_error(cp, at, "bw[%ld]: the network has dimensions 0..%d", k,
                     cp->net->ndims - 1);
            return -1;
        }
        out->c[k] += mult;
        return 1;
    }
    if (strcmp(name, "sum") == 0 || strcmp(name, "total") == 0) {
        for (int i = 0; i < cp->net->ndims; i++)
            out->c[i] += mult;
        return 1;
    }
    if (strcmp(name, "cost") == 0) {
        out->cost += mult;
        return 1;
    }
    int k = dim_index(cp->net, name);
    if (k < 0) {
        const char *names[MAXD + 3];
        int nn = 0;
        for (int j = 0; j < cp->net->ndims; j++)
            names[nn++] = cp->net->dim[j].name;
        names[nn++] = "sum";
        names[nn++] = "cost";
        const char *hint = ry_suggest(name, names, nn);
        char list[256];
        cp_error(cp, at, "unknown name '%s'%s%s%s; use a dimension (%s), bwN, sum or cost", name,
                 hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "",
                 dim_list(cp->net, list, sizeof list));
        return -1;
    }
    out->c[k] += mult;
    return 1;
}

/* expr := [+-] term {[+-] term}; term := NUM ['*' atom] | atom ['*' NUM] */
static int cp_expr(cparse *cp, lin *out)
{
    memset(out, 0, sizeof *out);
    int first = 1;
    for (;;) {
        skip_ws(cp);
        double sign = 1;
        char ch = cp->s[cp->i];
        if (ch == '+' || ch == '-') {
            sign = ch == '-' ? -1 : 1;
            cp->i++;
            skip_ws(cp);
        } else if (!first) {
            return 0;
        }
        size_t at = cp->i;
        double num;
        int r = cp_number(cp, &num);
        if (r < 0)
            return -1;
        if (r > 0) {
            skip_ws(cp);
            if (cp->s[cp->i] == '*') {
                cp->i++;
                skip_ws(cp);
                r = cp_atom(cp, out, sign * num);
                if (r < 0)
                    return -1;
                if (r == 0) {
                    cp_error(cp, cp->i, "expected a dimension name after '*'");
                    return -1;
                }
            } else {
                out->k += sign * num;
            }
        } else {
            lin a;
            memset(&a, 0, sizeof a);
            r = cp_atom(cp, &a, 1);
            if (r < 0)
                return -1;
            if (r == 0) {
                cp_error(cp, at, cp->s[at] ? "expected a number or a dimension name at '%.1s'"
                                           : "expected a number or a dimension name%.0s",
                         cp->s + at);
                return -1;
            }
            double m = 1;
            skip_ws(cp);
            if (cp->s[cp->i] == '*') {
                cp->i++;
                skip_ws(cp);
                r = cp_number(cp, &m);
                if (r <= 0) {
                    if (r == 0)
                        cp_error(cp, cp->i, "expected a number after '*'");
                    return -1;
                }
            }
            for (int i = 0; i < MAXD; i++)
                out->c[i] += sign * m * a.c[i];
            out->cost += sign * m * a.cost;
        }
        first = 0;
    }
}

enum { OP_LE, OP_EQ, OP_GE };

static int cp_op(cparse *cp, int *op)
{
    skip_ws(cp);
    const char *p = cp->s + cp->i;
    if (p[0] == '<' && p[1] == '=') {
        *op = OP_LE;
        cp->i += 2;
    } else if (p[0] == '>' && p[1] == '=') {
        *op = OP_GE;
        cp->i += 2;
    } else if (p[0] == '=' && p[1] == '=') {
        *op = OP_EQ;
        cp->i += 2;
    } else if (p[0] == '=') {
        *op = OP_EQ;
        cp->i += 1;
    } else if (p[0] == '<' || p[0] == '>') {
        cp_error(cp, cp->i, "strict '%c' has no optimum to reach; use '%c='", p[0], p[0]);
        return -1;
    } else {
        return 0;
    }
    return 1;
}

/* Adds the relation (a op b) to the spec. */
static int add_relation(rctx *c, const cparse *cp, const lin *a, int op, const lin *b,
                        const char *where)
{
    ry_libra_spec *p = c->p;
    const ry_libra_net *net = &p->net;
    double k = a->k - b->k, cost = a->cost - b->cost, mx = 0, diff[MAXD];
    for (int i = 0; i < net->ndims; i++) {
        diff[i] = a->c[i] - b->c[i];
        double coef = diff[i] + cost * (double)net->npus * ry_libra_unit_cost(&net->dim[i]);
        if (fabs(coef) > mx)
            mx = fabs(coef);
    }
    if (!(mx > 0)) {
        cp_error(cp, 0, cost != 0 ? "the network's prices are all 0, so cost does not depend on "
                                    "the bandwidth" : "no bandwidth in it");
        return -1;
    }
    RY_ALLOC_GROW(p->rels, p->nrels + 1, p->caprels);
    ry_libra_rel *r = &p->rels[p->nrels++];
    memset(r, 0, sizeof *r);
    memcpy(r->c, diff, (size_t)net->ndims * sizeof *diff);
    r->cost = cost;
    r->k = k;
    r->op = op == OP_LE ? RY_LIBRA_LE : op == OP_EQ ? RY_LIBRA_EQ : RY_LIBRA_GE;
    snprintf(r->text, sizeof r->text, "%s", cp->s);
    snprintf(r->where, sizeof r->where, "%s", where);
    r->pos = cp->node->pos;
    return 0;
}

/* One constraint written as text: e1 op e2 [op e3]; text replaces the
 * node's own (for budgets, which are written as a number). */
static int parse_constraint(rctx *c, const ry_ynode *n, const char *where, const char *text)
{
    const char *s = text;
    if (!s && ry_yget_string(n, where, &s) < 0)
        return -1;
    cparse cp = { s, 0, &c->p->net, n, where, text == NULL };
    lin e[3];
    int ops[2], ne = 0;
    if (cp_expr(&cp, &e[ne++]) < 0)
        return -1;
    for (;;) {
        int op, r = cp_op(&cp, &op);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        if (ne == 3) {
            cp_error(&cp, cp.i, "at most two comparisons, as in 100 <= node <= 400");
            return -1;
        }
        ops[ne - 1] = op;
        if (cp_expr(&cp, &e[ne++]) < 0)
            return -1;
    }
    skip_ws(&cp);
    if (cp.s[cp.i]) {
        cp_error(&cp, cp.i, "unexpected '%.1s'", cp.s + cp.i);
        return -1;
    }
    if (ne < 2) {
        cp_error(&cp, cp.i, "expected ==, <= or >=");
        return -1;
    }
    if (ne == 3 && (ops[0] == OP_EQ || ops[1] == OP_EQ || ops[0] != ops[1])) {
        cp_error(&cp, 0, "a chain must go one way, as in 100 <= node <= 400");
        return -1;
    }
    for (int k = 0; k + 1 < ne; k++)
        if (add_relation(c, &cp, &e[k], ops[k], &e[k + 1], where) < 0)
            return -1;
    return 0;
}

/* libra.budget or libra.cost_budget (key) as a constraint: a number N is
 * sum == N (cost <= N), text may give the operator. */
static int read_budget(rctx *c, const ry_ynode *lb, const char *key, int cost)
{
    char text[128];
    ry_keyval v;
    int r = ry_schema_get(lb, key, &v);
    if (r <= 0)
        return r;
    if (!v.s) {
        snprintf(text, sizeof text, cost ? "cost <= %.17g" : "sum == %.17g", v.d);
    } else {
        const char *p = v.s;
        while (isspace((unsigned char)*p))
            p++;
        int has_op = *p == '<' || *p == '=' || *p == '>';
        snprintf(text, sizeof text, "%s %s%s", cost ? "cost" : "sum",
                 has_op ? "" : (cost ? "<= " : "== "), p);
    }
    return parse_constraint(c, ry_ymap_get(lb, cost ? "cost_budget" : "budget"), key, text);
}

/* ---- the libra section ------------------------------------------------------------------ */

static int read_plot_dims(rctx *c, const ry_ynode *n)
{
    const ry_libra_net *net = &c->p->net;
    if (n->kind != RY_YSEQ || n->n != 2) {
        ry_error_at(n->pos, "libra.plot_dims must be a list of two dimension names (got %s)",
                    ry_ynode_describe(n));
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        const char *s;
        char w[64], list[256];
        snprintf(w, sizeof w, "libra.plot_dims[%d]", k);
        if (ry_yget_string(n->items[k], w, &s) < 0)
            return -1;
        int i = dim_index(net, s);
        if (i < 0) {
            ry_error_at(n->items[k]->pos, "%s: no dimension '%s' (dimensions: %s)", w, s,
                        dim_list(net, list, sizeof list));
            return -1;
        }
        c->p->plot_dims[k] = i;
    }
    if (c->p->plot_dims[0] == c->p->plot_dims[1]) {
        ry_error_at(n->pos, "libra.plot_dims must name two different dimensions");
        return -1;
    }
    return 0;
}

/* libra.baseline; without it the problem takes the budget split equally. */
static int read_baseline(rctx *c, const ry_ynode *lb)
{
    ry_libra_spec *p = c->p;
    int d = p->net.ndims;
    const ry_ynode *n = ry_ymap_get(lb, "baseline");
    p->has_budget = ry_ymap_get(lb, "budget") || ry_ymap_get(lb, "cost_budget");
    if (!n)
        return 0;
    if (n->kind != RY_YSEQ || (int)n->n != d) {
        ry_error_at(n->pos, "libra.baseline must list one bandwidth (GB/s) per dimension: "
                    "%d (got %s)", d, ry_ynode_describe(n));
        return -1;
    }
    int bad = 0;
    for (int i = 0; i < d; i++) {
        char w[64];
        snprintf(w, sizeof w, "libra.baseline[%d]", i);
        bad |= ry_key_get_item("libra.baseline", n->items[i], w, 0, 1e12, &p->baseline[i]) < 0;
    }
    p->has_baseline = 1;
    return bad ? -1 : 0;
}

/* Default group sizes from libra.tensor_parallel into dflt: 0 when it is
 * not given, 1 with *tp set, -1 after an error. */
static int tp_groups(rctx *c, const ry_ynode *lb, ry_libra_groups *dflt, long long *tp)
{
    const ry_libra_net *net = &c->p->net;
    ry_keyval v;
    int tpd[MAXD], dpd[MAXD];
    char why[256];
    int r = ry_schema_get(lb, "libra.tensor_parallel", &v);
    if (r <= 0)
        return r;
    if (ry_libra_split_tp(net, v.i, tpd, dpd, why, sizeof why) < 0) {
        ry_error_at(ry_ymap_get(lb, "tensor_parallel")->pos, "libra.tensor_parallel: %s", why);
        return -1;
    }
    for (int i = 0; i < MAXD; i++)
        dflt->group[RY_PHASE_FWD][i] = dflt->group[RY_PHASE_IG][i] =
            dflt->group[RY_PHASE_WG][i] = 1;
    for (int i = 0; i < net->ndims; i++) {
        dflt->group[RY_PHASE_FWD][i] = dflt->group[RY_PHASE_IG][i] = tpd[i];
        dflt->group[RY_PHASE_WG][i] = dpd[i];
    }
    for (int ph = 0; ph < RY_PHASES; ph++)
        dflt->have[ph] = 1;
    *tp = v.i;
    return 1;
}

/* libra.groups: default group sizes per phase, over those of tensor_parallel. */
static void phase_defaults(rctx *c, const ry_ynode *lb, ry_libra_groups *dflt)
{
    const ry_ynode *v = ry_ymap_get(lb, "groups");
    if (!v || ry_yget_map(v, "libra.groups", NULL) < 0 ||
        ry_schema_check_keys(v, "libra.groups", NULL) > 0)
        return;
    for (int ph = 0; ph < RY_PHASES; ph++) {
        const ry_ynode *g = ry_ymap_get(v, ry_libra_phase_name(ph));
        char w[64];
        snprintf(w, sizeof w, "libra.groups.%s", ry_libra_phase_name(ph));
        if (g && read_groups(&c->p->net, g, w, dflt->group[ph]) == 0)
            dflt->have[ph] = 1;
    }
}

/* libra.workload_file, relative to the file the key is written in (the
 * current directory for --set and standard input). */
static void read_workload_file(rctx *c, const ry_ynode *lb, const ry_libra_groups *dflt)
{
    ry_keyval v;
    if (ry_schema_get(lb, "libra.workload_file", &v) <= 0)
        return;
    ry_buf path;
    ry_buf_init(&path);
    const char *base = ry_ymap_get(lb, "workload_file")->pos.file;
    const char *slash = base ? strrchr(base, '/') : NULL;
    if (v.s[0] != '/' && slash && strcmp(base, "--set") != 0)
        ry_buf_printf(&path, "%.*s/%s", (int)(slash - base), base, v.s);
    else
        ry_buf_puts(&path, v.s);
    ry_libra_read_astra(path.data, &c->p->net, dflt, c->p->cycle_time, &c->p->wl);
    ry_buf_free(&path);
}

/* The workload: YAML layers, a file, or the workload section's LLM (with
 * the tensor-parallel degree when one was given and fits: tp_read > 0). */
static void read_libra_workload(rctx *c, const ry_ynode *lb, const ry_libra_groups *dflt,
                                int tp_read, long long tp)
{
    const ry_ynode *layers = ry_ymap_get(lb, "layers");
    const ry_ynode *file = ry_ymap_get(lb, "workload_file");
    if (layers && file)
        ry_error_at(key_pos(lb, "workload_file"), "libra.layers and libra.workload_file are "
                    "mutually exclusive: give one workload");
    else if (layers)
        read_layers(c, layers, dflt);
    else if (file)
        read_workload_file(c, lb, dflt);
    else if (tp_read >= 0)
        derive_workload(c, lb, tp_read > 0 ? tp : 0);
}

/* Budgets, then libra.constraints, in order. */
static void read_constraints(rctx *c, const ry_ynode *lb)
{
    read_budget(c, lb, "libra.budget", 0);
    read_budget(c, lb, "libra.cost_budget", 1);
    const ry_ynode *v = ry_ymap_get(lb, "constraints");
    if (!v)
        return;
    if (v->kind != RY_YSEQ) {
        ry_error_at(v->pos, "libra.constraints must be a list of constraints like "
                    "\"node >= pod\" (got %s)", ry_ynode_describe(v));
        return;
    }
    for (size_t k = 0; k < v->n; k++) {
        char w[64];
        snprintf(w, sizeof w, "libra.constraints[%zu]", k);
        parse_constraint(c, v->items[k], w, NULL);
    }
}

static void read_libra(rctx *c, const ry_ynode *root, const ry_ynode *lb, int net_ok)
{
    ry_libra_spec *p = c->p;
    p->pos = key_pos(root, "libra");
    if (ry_yget_map(lb, "libra", NULL) < 0)
        return;
    ry_schema_check_keys(lb, "libra", NULL);
    /* objective, starts and time_unit; then cycle_time, as its errors always came. */
    ry_schema_read(lb, "libra", p, NULL, NULL);
    ry_schema_take(lb, "libra.cycle_time", NULL, p);
    if (!net_ok)
        return;     /* the rest names dimensions */

    ry_libra_groups dflt;
    memset(&dflt, 0, sizeof dflt);
    long long tp = 0;
    int tp_read = tp_groups(c, lb, &dflt, &tp);
    phase_defaults(c, lb, &dflt);
    read_libra_workload(c, lb, &dflt, tp_read, tp);
    read_constraints(c, lb);
    const ry_ynode *v = ry_ymap_get(lb, "plot_dims");
    if (v)
        read_plot_dims(c, v);
    read_baseline(c, lb);
}

/* The network: section is LIBRA's when it has dims or a libra: section
 * comes with it; the flow engine's keys alone are not LIBRA's. */
int ry_libra_reads_network(const ry_ynode *root)
{
    const ry_ynode *nw = ry_ymap_get(root, "network");
    if (ry_ymap_get(root, "libra"))
        return 1;
    return nw && (nw->kind != RY_YMAP || ry_ymap_get(nw, "dims"));
}

void ry_libra_spec_read(ry_spec *s, const ry_ynode *root, const char *templates)
{
    const ry_ynode *lb = ry_ymap_get(root, "libra");
    if (!ry_libra_reads_network(root))
        return;
    ry_libra_spec *p = ry_xcalloc(1, sizeof *p);
    ry_schema_defaults_in(RY_IN_LIBRA, p);
    p->plot_dims[0] = p->plot_dims[1] = -1;     /* not given */
    p->has_libra = lb != NULL;
    rctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.templates = templates;
    c.p = p;
    int net_ok = read_network(&c, root) == 0;
    if (lb)
        read_libra(&c, root, lb, net_ok);
    ry_libra_costs_free(c.tech);
    s->libra = p;
}

void ry_libra_spec_free(ry_libra_spec *l)
{
    if (!l)
        return;
    ry_libra_workload_free(&l->wl);
    free(l->rels);
    free(l);
}
