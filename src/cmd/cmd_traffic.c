#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bom.h"
#include "analysis/moe_traffic.h"
#include "analysis/traffic.h"
#include "cmd/cmd.h"
#include "emit/model/emit_model.h"
#include "emit/model/emit_model_plot.h"
#include "emit/model/emit_moe.h"
#include "io/outdir.h"
#include "model/iteration.h"
#include "model/moe.h"
#include "model/plan.h"
#include "util/diag.h"

enum { O_FORMAT, O_OUTPUT, O_FORCE, O_PAPER, O_COST, O_ANALYTIC, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default) or json"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("also write DIR/traffic.json, links.csv (bytes per link),\n"
                                      "heatmap.csv and heatmap.png (heatmap.pgm without gnuplot);\n"
                                      "for a MoE model a2a-links.csv and a2a-gpus.csv"),
    [O_FORCE] = RY_OPTION_FORCE,
    [O_PAPER] = RY_OPTION_PAPER,
    [O_COST] = RY_OPTION_COST,
    [O_ANALYTIC] = { "analytic", 0, RY_OPT_FLAG, NULL, NULL,
                     "route the traffic up-down in closed form, each flow on its one\n"
                     "path, not on the flow engine over the fabric as built (blind to\n"
                     "routing, hashing and placement); the model's time analytic too" },
    [O_N] = RY_OPTION_END
};

/* The heatmap: PNG through gnuplot, else a PGM. *name gets the file name. */
static int heatmap(const ry_spec *s, const ry_traffic *t, ry_buf *img, const char **name)
{
    ry_buf gp, m1, m4, msg;
    ry_buf_init(&gp);
    ry_buf_init(&m1);
    ry_buf_init(&m4);
    ry_buf_init(&msg);
    int ok = 0;
    if (ry_gnuplot_program()) {
        ry_emit_heatmap_script(&gp, s, t);
        ry_heatmap_matrix(&m1, t, 0);
        ry_heatmap_matrix(&m4, t, 1);
        ry_plotdir *pd = ry_plotdir_new();
        if (pd && ry_plotdir_write(pd, "heatmap.gp", gp.data, gp.len) == 0 &&
            ry_plotdir_write(pd, "heatmap-1.bin", m1.data, m1.len) == 0 &&
            ry_plotdir_write(pd, "heatmap-4.bin", m4.data, m4.len) == 0 &&
            ry_plotdir_run(pd, "heatmap.gp", &msg) == 0 &&
            ry_plotdir_read(pd, "heatmap.png", img) == 0) {
            ok = 1;
            *name = "heatmap.png";
        } else if (msg.len)
            ry_warn("no heatmap.png: %s; writing heatmap.pgm", msg.data);
        ry_plotdir_free(pd);
    } else
        ry_warn("gnuplot is not installed: the heatmap is heatmap.pgm (install gnuplot-nox for "
                "heatmap.png)");
    if (!ok) {
        ry_buf_reset(img);
        ry_emit_heatmap_pgm(img, t);
        *name = "heatmap.pgm";
    }
    ry_buf_free(&gp);
    ry_buf_free(&m1);
    ry_buf_free(&m4);
    ry_buf_free(&msg);
    return 0;
}

static int write_dir(const char *dir, unsigned flags, const ry_spec *s, const ry_fabric *f,
                     const ry_traffic *t,
                     const ry_traffic_map *map, const ry_buf *json, const ry_moe_traffic *mt)
{
    ry_buf links, pairs, img;
    ry_buf_init(&links);
    ry_buf_init(&pairs);
    ry_buf_init(&img);
    const char *imgname = NULL;
    ry_emit_traffic_links(&links, f, map);
    ry_emit_heatmap_pairs(&pairs, t);
    heatmap(s, t, &img, &imgname);
    ry_outdir *o = ry_outdir_begin(dir, flags);
    int bad = !o;
    ry_outdir_own(o, "heatmap.png");
    ry_outdir_own(o, "heatmap.pgm");
    struct {
        const char *name;
        const ry_buf *b;
    } files[] = { { "traffic.json", json }, { "links.csv", &links }, { "heatmap.csv", &pairs },
                  { imgname, &img } };
    for (size_t i = 0; !bad && i < sizeof files / sizeof files[0]; i++) {
        bad = ry_outdir_put(o, files[i].name, files[i].b->data, files[i].b->len) < 0;
    }
    if (mt) {
        ry_buf a2a, gpus;
        ry_buf_init(&a2a);
        ry_buf_init(&gpus);
        ry_emit_traffic_links(&a2a, f, &mt->net);
        ry_emit_moe_gpus(&gpus, f, mt);
        bad = bad || ry_outdir_put(o, "a2a-links.csv", a2a.data, a2a.len) < 0 ||
              ry_outdir_put(o, "a2a-gpus.csv", gpus.data, gpus.len) < 0;
        ry_buf_free(&a2a);
        ry_buf_free(&gpus);
    }
    if (o) {
        if (bad)
            ry_outdir_abort(o);
        else
            bad = ry_outdir_commit(o) < 0;
    }
    ry_buf_free(&links);
    ry_buf_free(&pairs);
    ry_buf_free(&img);
    return bad ? -1 : 0;
}

/* The plan's layout and sizes, as traffic takes them: the biggest stage's
 * blocks, the busiest replica's tokens (D times), a block's gradients in the
 * reduction's precision (the paper's: 12 d_model^2 in the compute's; the
 * full model's: the block's own parameters, experts as their expert group
 * holds them), and the point-to-point of the model's pipeline term: per
 * micro-batch and chunk, one 16-bit activation of s mb d_model elements
 * split over the tensor and context groups, each way. */
static void traffic_in(const ry_plan *pl, ry_traffic_in *ti)
{
    const ry_iter_in *in = &pl->base.in;
    const ry_plan_cfg *c = &pl->best;
    double seq = pl->base.w.model.seq_len;
    memset(ti, 0, sizeof *ti);
    /* The GPUs the layout uses (the rest idle); a context group's GPUs are
     * replicas of the same weights, so they reduce gradients as data ranks. */
    ti->N = pl->paper || c->gpus <= 0 ? in->N : c->gpus;
    ti->K = in->K;
    ti->NM = c->t;
    ti->PP = c->p;
    ti->layers = c->blocks;
    ti->d_model = in->d_model;
    /* eq. 1 spreads the batch evenly (--paper keeps its numbers) */
    ti->b = pl->paper ? in->b : (double)c->seqs * seq * (double)c->d;
    ti->M_cc = in->M_cc;
    if (pl->paper) {
        ti->S_T = 12 * in->d_model * in->d_model * pl->grad_bytes;
        ti->p2p = (double)c->m * seq * (double)c->mb * in->d_model * pl->base.bytes /
                  (double)c->t;
        return;
    }
    const ry_plan_arch *a = &pl->arch;
    double ep = c->ep > 0 ? (double)c->ep : 1, cp = c->c > 0 ? (double)c->c : 1;
    ti->S_T = (a->dense_params + a->expert_params * (double)c->t / ep) * pl->grad_bytes;
    ti->p2p = (double)c->m * (double)(c->v > 0 ? c->v : 1) * seq * (double)c->mb *
              in->d_model * 2 / ((double)c->t * cp);
}

/* The layout, and the traffic's loads: on the flow engine over the fabric
 * as built (the model's engine, its time the engine's too), or, with
 * --analytic or --paper, the up-down routes in closed form. A MoE model's
 * expert all-to-all too, into *mt (*has_mt 1). -1 after an error printed,
 * nothing left to free. */
static int plan_and_map(ry_ctx *ctx, ry_plan *pl, ry_traffic *t, ry_traffic_map *map,
                        ry_moe_traffic *mt, int *has_mt)
{
    const ry_spec *s = ctx->spec;
    int paper = ctx->given[O_PAPER] > 0;
    int engine = !paper && !ry_flag(ctx, O_ANALYTIC);
    ry_plan_net pn = { 0 };
    ry_err err = { { 0 }, { 0 } };
    memset(map, 0, sizeof *map);
    *has_mt = 0;
    if (engine && ry_plan_net_init(&pn, &ctx->fabric, &err) < 0) {
        ry_spec_error(s, err.key[0] ? "network" : NULL, "%s", err.msg);
        return -1;
    }
    if ((engine ? ry_plan_compute_on(s, &pn, pl) : ry_plan_compute(s, paper, pl)) < 0) {
        ry_plan_net_free(&pn);
        return -1;
    }
    pl->net = NULL;                 /* pn goes before the report */
    ry_traffic_in ti;
    traffic_in(pl, &ti);
    ry_traffic_plan(s, &ti, t);
    int rc = engine ? ry_traffic_map_engine(pn.net, &pn.job, t, map, &err)
                    : ry_traffic_map_fabric(&ctx->fabric, t, map, &err);
    const ry_model *m = &pl->base;
    if (rc == 0 && m->has_moe) {
        /* its own link loads; the trimmed fabric keeps the links it uses too */
        const ry_moe_a2a *a = &m->moe;
        ry_moe_traffic_in mi = { ti.N, m->in.K, m->moe_in.NM, a->ep,
                                 a->pass_bytes / (double)a->ep * m->moe_in.passes *
                                 m->moe_in.blocks };
        rc = engine ? ry_moe_traffic_map_engine(pn.net, &pn.job, &mi, mt, &err)
                    : ry_moe_traffic_map(&ctx->fabric, &mi, mt, &err);
        if (rc < 0)
            ry_moe_traffic_free(mt);
        *has_mt = rc == 0;
    }
    ry_plan_net_free(&pn);
    if (rc < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_traffic_map_free(map);
        return -1;
    }
    return 0;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    const ry_spec *s = ctx->spec;
    ry_plan *pl = ry_xcalloc(1, sizeof *pl);
    int paper = ctx->given[O_PAPER] > 0;
    ry_traffic t;
    ry_traffic_map map;
    ry_moe_traffic mt, *mtp = NULL;
    int has_mt;
    if (plan_and_map(ctx, pl, &t, &map, &mt, &has_mt) < 0) {
        free(pl);
        return RY_CMD_INPUT;
    }
    if (has_mt)
        mtp = &mt;
    if (paper && pl->best.mem.capacity > 0 && !pl->best.mem.feasible)
        ry_warn("eq. 1's layout (--paper) needs %.1f GB per GPU (a reserve included), more than "
                "the %.1f GB of the %s (its HBM in GiB): "
                "the paper's model ignores memory (without --paper the full model chooses one "
                "that fits)",
                pl->best.mem.total / 1e9, pl->best.mem.capacity / 1e9, pl->base.w.gpu.name);
    const ry_model *m = &pl->base;
    ry_err err;
    ry_traffic_map both = map;
    if (mtp) {
        size_t nl = ctx->fabric.nlinks ? ctx->fabric.nlinks : 1;
        both.up = ry_xcalloc(nl, sizeof *both.up);
        both.down = ry_xcalloc(nl, sizeof *both.down);
        for (size_t l = 0; l < ctx->fabric.nlinks; l++) {
            both.up[l] = map.up[l] + mt.net.up[l];
            both.down[l] = map.down[l] + mt.net.down[l];
        }
    }
    ry_bom trimmed;
    ry_fabric tf;
    ry_fabric_trim(&ctx->fabric, &both, &tf);
    if (mtp) {
        free(both.up);
        free(both.down);
    }
    /* The capex of the fabric, of the trimmed one (laid out and cabled
     * anew) and of the rail-only fabric of the same cluster. */
    ry_designs_capex designs;
    memset(&designs, 0, sizeof designs);
    designs.paper = ry_cost_paper(ry_opt(ctx, O_COST));
    ry_capex full_cx, trim_cx;
    ry_traffic_capex cost = { NULL, NULL, &designs, "" };
    ry_media_catalog *media = ry_media_catalog_load(ry_templates_dir(ctx->templates));
    if (!media) {
        ry_fabric_free(&tf);
        ry_traffic_map_free(&map);
        if (mtp)
            ry_moe_traffic_free(mtp);
        free(pl);
        return ry_input_status();
    }
    if (ry_fabric_capex(&ctx->fabric, media, NULL, &full_cx, &err) == 0)
        cost.full = &full_cx;
    else
        snprintf(cost.unpriced, sizeof cost.unpriced, "%s", err.msg);
    if (ry_fabric_capex(&tf, media, &trimmed, &trim_cx, &err) == 0)
        cost.trimmed = &trim_cx;
    else if (!cost.unpriced[0])
        snprintf(cost.unpriced, sizeof cost.unpriced, "the trimmed fabric: %s", err.msg);
    ry_fabric_free(&tf);
    if (s->design != RY_DESIGN_RAIL_ONLY)
        ry_design_capex(s, RY_DESIGN_RAIL_ONLY, media, &designs, 1);
    ry_media_catalog_free(media);

    /* The links' load over the iteration of the mapped layout. */
    ry_traffic_load load;
    ry_traffic_load_compute(&ctx->fabric, &map, pl->best.total, &load);

    ry_parallelism lay;
    ry_plan_parallelism(pl, &lay);
    ry_buf out, json;
    ry_buf_init(&out);
    ry_buf_init(&json);
    ry_emit_traffic(&out, s, &ctx->fabric, m, &lay, &t, &map, &load, &ctx->bom, &trimmed, &cost,
                    ctx->fmt);
    if (mtp)
        ry_emit_moe_traffic(&out, s, m, &ctx->fabric, mtp, ctx->fmt);
    if (ctx->out) {
        ry_emit_traffic(&json, s, &ctx->fabric, m, &lay, &t, &map, &load, &ctx->bom, &trimmed, &cost,
                        RY_FMT_JSON);
        if (mtp)
            ry_emit_moe_traffic(&json, s, m, &ctx->fabric, mtp, RY_FMT_JSON);
    }
    ry_cmd_status rc = RY_CMD_OK;
    if (ctx->out
        && write_dir(ctx->out, ry_out_flags(ctx), s, &ctx->fabric, &t, &map, &json, mtp) < 0)
        rc = RY_CMD_IO;
    if (rc == RY_CMD_OK)
        rc = ry_write_output(ctx, NULL, out.data, out.len);
    ry_buf_free(&out);
    ry_buf_free(&json);
    ry_traffic_map_free(&map);
    if (mtp)
        ry_moe_traffic_free(mtp);
    free(pl);
    return rc;
}

const ry_cmd_entry ry_cmd_traffic = {
    .name = "traffic",
    .synopsis = "SPEC [--paper] [--analytic] [--cost capex|paper] [-o DIR] [--format text|json] "
                "[--force]",
    .summary = "the LLM traffic per GPU pair and on the fabric's links, and the trimmed fabric",
    .positional = "SPEC",
    .options = options,
    .details = "Pairs and bytes of one iteration by type (tensor parallel, data parallel across\n"
               "and inside HB domains, pipeline point-to-point between adjacent stages, none),\n"
               "the cross-domain traffic placed on the flow engine over the fabric as built and\n"
               "routed as the spec's network: section says (static tables, ECMP's hash, adaptive\n"
               "spreading; --analytic and --paper: up-down routes in closed form), the busiest\n"
               "links by name, the links that\n"
               "carry nothing, and the bill of materials and capex of the fabric without them\n"
               "(laid out and cabled anew) beside the rail-only one. The layout is the one\n"
               "`model` chooses (the full model's; nothing fits memory: refused as `model`\n"
               "does); --paper: eq. 1's. For a mixture-of-experts model, the expert all-to-all\n"
               "too: pairs, the NVLink hop of traffic rail-only forwards across rails, and its\n"
               "link loads.\n",
    .needs = RY_NEED_BOM,
    .reports_workload_fit = 1,  /* the model refuses a misfit itself */
    .run = run,
};
