#include "emit/report/emit_collective.h"

#include <jansson.h>
#include <string.h>

#include "emit/json_out.h"
#include "util/numfmt.h"

/* nccl-tests' element type and reduction: float, sum where there is one. */
#define ELEM_BYTES 4

static const char *redop(ry_coll_op op)
{
    return op == RY_NCCL_ALL_REDUCE || op == RY_NCCL_REDUCE_SCATTER ? "sum" : "none";
}

static void text(ry_buf *o, const ry_coll_report *r)
{
    const ry_coll_row *last = &r->rows[r->nrows - 1];
    ry_buf_printf(o, "# %s on %s: %s ranks on %s node%s, placement %s\n",
                  ry_coll_op_name(r->op), r->spec, ry_n((long long)r->ranks), ry_n(r->nodes),
                  r->nodes == 1 ? "" : "s",
                  r->placement);
    ry_buf_printf(o, "# routing %s, %d queue pair%s per connection%s, PXN %s", r->routing, r->qps,
                  r->qps == 1 ? "" : "s", r->hash_qp ? " (hashed)" : "", r->pxn ? "on" : "off");
    if (last->r.channels)
        ry_buf_printf(o, ", %d channels", last->r.channels);
    if (r->op == RY_NCCL_SENDRECV)
        ry_buf_printf(o, ", shift %lld", r->shift);
    ry_buf_printf(o, "\n");
    if (r->op == RY_NCCL_ALL_REDUCE)
        ry_buf_printf(o, "# algorithm %s (asked %s%s%s)\n", last->r.algorithm, r->algo,
                      r->sharp ? ", SHARP" : "", r->nvls ? ", NVLS" : "");
    else if (strcmp(last->r.algorithm, "hierarchical") == 0)
        ry_buf_printf(o, "# algorithm hierarchical: inside each HB domain over NVLink, then "
                      "between domains, one step after the other\n");
    if (r->as_built_down >= 0)
        ry_buf_printf(o, "# as built (--fabric): %lld cable%s missing or moved, routed around%s\n",
                      r->as_built_down, r->as_built_down == 1 ? "" : "s",
                      r->lfts ? "; routes by the forwarding tables found (--lfts)" : "");
    if (r->njobs > 1) {
        ry_buf_printf(o, "# %zu jobs at once; the table is the slowest's\n", r->njobs);
        for (size_t j = 0; j < r->njobs; j++) {
            const ry_coll_job *b = &r->jobs[j];
            ry_buf_printf(o, "#   job %zu: nodes from %lld, time %.2f us, algbw %.2f, busbw "
                          "%.2f GB/s\n", j, b->job->first_node, b->r.time_s * 1e6,
                          b->r.algbw / 1e9, b->r.busbw / 1e9);
        }
    }
    ry_buf_printf(o, "#\n");
    ry_buf_printf(o, "#%12s %13s %9s %7s %12s %8s %8s\n", "size", "count", "type", "redop", "time",
                  "algbw", "busbw");
    ry_buf_printf(o, "#%12s %13s %9s %7s %12s %8s %8s\n", "(B)", "(elements)", "", "", "(us)",
                  "(GB/s)", "(GB/s)");
    for (size_t i = 0; i < r->nrows; i++) {
        const ry_coll_row *w = &r->rows[i];
        ry_buf_printf(o, " %12.0f %13.0f %9s %7s %12.2f %8.2f %8.2f\n", w->bytes,
                      w->bytes / ELEM_BYTES, "float", redop(r->op), w->r.time_s * 1e6,
                      w->r.algbw / 1e9, w->r.busbw / 1e9);
    }
    ry_buf_printf(o, "#\n# %s flows, %d filling round%s\n", ry_n((long long)last->r.flows),
                  last->r.net.rounds,
                  last->r.net.rounds == 1 ? "" : "s");
    if (r->bottleneck[0])
        ry_buf_printf(o, "# bottleneck: %s, %.1f%% busy\n", r->bottleneck,
                      last->r.net.bottleneck_util * 100);
}

static json_t *row_json(const ry_coll_row *w)
{
    json_t *j = json_object();
    json_object_set_new(j, "bytes", json_real(w->bytes));
    json_object_set_new(j, "count", json_real(w->bytes / ELEM_BYTES));
    json_object_set_new(j, "time_s", json_real(w->r.time_s));
    json_object_set_new(j, "algbw_gbytes_per_s", json_real(w->r.algbw / 1e9));
    json_object_set_new(j, "busbw_gbytes_per_s", json_real(w->r.busbw / 1e9));
    return j;
}

static json_t *job_json(size_t index, const ry_coll_job *b)
{
    json_t *j = json_object(), *nodes = json_array();
    long long prev = -1;
    for (size_t i = 0; i < b->job->nranks; i++) {
        long long node = (long long)b->job->gpu[i] / b->gpn;
        if (node != prev)
            json_array_append_new(nodes, json_integer(node));
        prev = node;
    }
    json_object_set_new(j, "job", json_integer((json_int_t)index));
    json_object_set_new(j, "ranks", json_integer((json_int_t)b->job->nranks));
    json_object_set_new(j, "node_indexes", nodes);
    json_object_set_new(j, "algorithm", json_string(b->r.algorithm));
    json_object_set_new(j, "time_s", json_real(b->r.time_s));
    json_object_set_new(j, "algbw_gbytes_per_s", json_real(b->r.algbw / 1e9));
    json_object_set_new(j, "busbw_gbytes_per_s", json_real(b->r.busbw / 1e9));
    json_object_set_new(j, "flows", json_integer((json_int_t)b->r.flows));
    return j;
}

static void json(ry_buf *o, const ry_coll_report *r)
{
    const ry_coll_row *last = &r->rows[r->nrows - 1];
    json_t *j = json_object();
    json_object_set_new(j, "spec", json_string(r->spec));
    json_object_set_new(j, "op", json_string(ry_coll_op_name(r->op)));
    json_object_set_new(j, "bytes", json_real(last->bytes));
    json_object_set_new(j, "ranks", json_integer((json_int_t)r->ranks));
    json_object_set_new(j, "nodes", json_integer(r->nodes));
    json_object_set_new(j, "placement", json_string(r->placement));
    json_object_set_new(j, "routing", json_string(r->routing));
    json_object_set_new(j, "qps_per_connection", json_integer(r->qps));
    json_object_set_new(j, "hash_qp", json_boolean(r->hash_qp));
    json_object_set_new(j, "pxn", json_boolean(r->pxn));
    json_object_set_new(j, "channels", json_integer(last->r.channels));
    if (r->op == RY_NCCL_SENDRECV)
        json_object_set_new(j, "shift", json_integer(r->shift));
    json_object_set_new(j, "time_s", json_real(last->r.time_s));
    json_object_set_new(j, "algbw_gbytes_per_s", json_real(last->r.algbw / 1e9));
    json_object_set_new(j, "busbw_gbytes_per_s", json_real(last->r.busbw / 1e9));
    json_t *b = json_object();
    json_object_set_new(b, "resource", r->bottleneck[0] ? json_string(r->bottleneck) : json_null());
    json_object_set_new(b, "utilisation", json_real(last->r.net.bottleneck_util));
    json_object_set_new(j, "bottleneck", b);
    json_object_set_new(j, "flows", json_integer((json_int_t)last->r.flows));
    json_object_set_new(j, "rounds", json_integer(last->r.net.rounds));
    json_object_set_new(j, "algorithm", json_string(last->r.algorithm));
    json_object_set_new(j, "algorithm_asked", json_string(r->algo));
    json_object_set_new(j, "sharp", json_boolean(r->sharp));
    json_object_set_new(j, "nvls", json_boolean(r->nvls));
    json_object_set_new(j, "jobs", json_integer((json_int_t)r->njobs));
    if (r->as_built_down >= 0) {
        json_object_set_new(j, "as_built_cables_down", json_integer(r->as_built_down));
        json_object_set_new(j, "routes", json_string(r->lfts ? "lfts" : "railyard"));
    }
    if (r->njobs > 1) {
        json_t *a = json_array();
        for (size_t i = 0; i < r->njobs; i++)
            json_array_append_new(a, job_json(i, &r->jobs[i]));
        json_object_set_new(j, "each_job", a);
    }
    if (r->nrows > 1) {
        json_t *a = json_array();
        for (size_t i = 0; i < r->nrows; i++)
            json_array_append_new(a, row_json(&r->rows[i]));
        json_object_set_new(j, "sweep", a);
    }
    ry_json_out(o, j, 10);
}

void ry_emit_collective(ry_buf *out, const ry_coll_report *r, ry_format fmt)
{
    if (!r->nrows)
        return;
    if (fmt == RY_FMT_JSON)
        json(out, r);
    else
        text(out, r);
}
