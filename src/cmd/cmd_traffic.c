#include <stdio.h>
#include <string.h>

#include "analysis/bom.h"
#include "analysis/compare.h"
#include "analysis/traffic.h"
#include "cmd/cmd.h"
#include "emit/emit_model.h"
#include "emit/emit_model_plot.h"
#include "emit/outdir.h"
#include "model/iteration.h"
#include "util/diag.h"

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

static int write_dir(const char *dir, const ry_spec *s, const ry_fabric *f, const ry_traffic *t,
                     const ry_traffic_map *map, const ry_buf *json)
{
    ry_buf links, pairs, img;
    ry_buf_init(&links);
    ry_buf_init(&pairs);
    ry_buf_init(&img);
    const char *imgname = NULL;
    ry_emit_traffic_links(&links, f, map);
    ry_emit_heatmap_pairs(&pairs, t);
    heatmap(s, t, &img, &imgname);
    ry_outdir *o = ry_outdir_begin(dir);
    int bad = !o;
    struct {
        const char *name;
        const ry_buf *b;
    } files[] = { { "traffic.json", json }, { "links.csv", &links }, { "heatmap.csv", &pairs },
                  { imgname, &img } };
    for (size_t i = 0; !bad && i < sizeof files / sizeof files[0]; i++) {
        bad = ry_outdir_put(o, files[i].name, files[i].b->data, files[i].b->len) < 0;
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

int ry_cmd_traffic(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("traffic");
    const char *path = NULL, *dir = NULL, *fmtname = NULL;
    ry_format fmt = RY_FMT_TEXT;
    const ry_optspec opts[] = { { "--format", "-f", &fmtname, NULL }, { "--output", "-o", &dir, NULL },
                                { NULL, NULL, NULL, NULL } };
    int rc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    if (ry_cmd_format(c, fmtname, 0, &fmt) < 0)
        return RY_EXIT_USAGE;

    ry_spec *s;
    ry_fabric f;
    rc = ry_cmd_spec_fabric(g, path, &s, &f);
    if (rc)
        return rc;
    ry_model m;
    if (ry_model_compute(s, &m) < 0) {
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    ry_traffic t;
    const ry_iter_in *in = &m.in;
    ry_traffic_in ti = { in->N, in->K, m.best.NM, in->layers, in->d_model, in->b, in->S_T,
                         in->M_cc };
    ry_traffic_plan(s, &ti, &t);
    ry_traffic_map map;
    ry_err err;
    if (ry_traffic_map_fabric(&f, &t, &map, &err) < 0) {
        ry_spec_error(s, err.key, "%s", err.msg);
        ry_traffic_map_free(&map);
        ry_fabric_free(&f);
        ry_spec_free(s);
        return RY_EXIT_INPUT;
    }
    ry_bom full, trimmed;
    ry_bom_compute(&f, &full);
    ry_fabric tf;
    ry_fabric_trim(&f, &map, &tf);
    ry_bom_compute(&tf, &trimmed);
    ry_fabric_free(&tf);
    /* The rail-only fabric of the same cluster, beside the trimmed one. */
    ry_design_cost cost;
    memset(&cost, 0, sizeof cost);
    if (s->design != RY_DESIGN_RAIL_ONLY)
        cost.ok[1] = ry_design_bom(s, RY_DESIGN_RAIL_ONLY, &cost.bom[1], cost.err[1],
                                         sizeof cost.err[1]) == 0;

    ry_buf out, json;
    ry_buf_init(&out);
    ry_buf_init(&json);
    ry_emit_traffic(&out, s, &m, &t, &map, &full, &trimmed, &cost, fmt);
    if (dir)
        ry_emit_traffic(&json, s, &m, &t, &map, &full, &trimmed, &cost, RY_FMT_JSON);
    rc = RY_EXIT_OK;
    if (dir && write_dir(dir, s, &f, &t, &map, &json) < 0)
        rc = RY_EXIT_IO;
    if (rc == RY_EXIT_OK && ry_write_file_atomic(NULL, out.data, out.len) < 0)
        rc = RY_EXIT_IO;
    ry_buf_free(&out);
    ry_buf_free(&json);
    ry_traffic_map_free(&map);
    ry_fabric_free(&f);
    ry_spec_free(s);
    return rc;
}
