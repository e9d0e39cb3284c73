/* The layout's words (see emit_parallelism.h). */
#include "emit/model/emit_parallelism.h"
#include "util/numfmt.h"

#include <stdio.h>
#include <string.h>

#include "spec/workload.h"

static const char *source_text(ry_par_source s)
{
    switch (s) {
    case RY_PAR_PAPER:
        return "eq. 1's choice, --paper";
    case RY_PAR_GIVEN:
        return "libra.tensor_parallel";
    default:
        return "the full model's choice";
    }
}

static const char *source_name(ry_par_source s)
{
    switch (s) {
    case RY_PAR_PAPER:
        return "paper";
    case RY_PAR_GIVEN:
        return "given";
    default:
        return "full";
    }
}

/* grouped: the text reports' "DP 2,048"; else the plain "DP 2048" of CSV and JSON */
static void num(ry_buf *o, const char *prefix, long long v, int grouped)
{
    char plain[32];
    snprintf(plain, sizeof plain, "%lld", v);
    ry_buf_printf(o, "%s%s", prefix, grouped ? ry_n(v) : plain);
}

static void words(ry_buf *o, const ry_parallelism *l, int grouped)
{
    num(o, "TP ", l->tp, grouped);
    if (l->cp > 1)
        num(o, " x CP ", l->cp, grouped);
    num(o, " x PP ", l->pp, grouped);
    if (l->vp > 1)
    {
        num(o, " (", l->vp, grouped);
        ry_buf_puts(o, " chunks per GPU)");
    }
    num(o, " x DP ", l->dp, grouped);
    num(o, " x EP ", l->ep, grouped);
    if (l->etp > 1)
        num(o, " x ETP ", l->etp, grouped);
    if (l->idle > 0) {
        num(o, ", ", l->idle, grouped);
        ry_buf_puts(o, " GPUs idle");
    }
    ry_buf_printf(o, ", %s recomputation (%s)", l->recompute == RY_RECOMPUTE_NONE ? "no"
                  : ry_recompute_names[l->recompute], source_text(l->source));
}

void ry_emit_parallelism_words(ry_buf *o, const ry_parallelism *l)
{
    words(o, l, 0);
}

void ry_emit_parallelism_line(ry_buf *o, const ry_parallelism *l)
{
    ry_buf_puts(o, "layout: ");
    words(o, l, 1);
    ry_buf_putc(o, '\n');
}

json_t *ry_parallelism_json(const ry_parallelism *l)
{
    ry_buf w;
    ry_buf_init(&w);
    ry_emit_parallelism_words(&w, l);
    json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:s}", "tp",
                          (json_int_t)l->tp, "pp", (json_int_t)l->pp, "dp", (json_int_t)l->dp,
                          "ep", (json_int_t)l->ep, "cp", (json_int_t)(l->cp > 1 ? l->cp : 1),
                          "vp", (json_int_t)(l->vp > 1 ? l->vp : 1), "idle_gpus",
                          (json_int_t)l->idle,
                          "recompute", ry_recompute_names[l->recompute], "chosen_by",
                          source_name(l->source), "text", w.data);
    if (l->etp > 1)
        json_object_set_new(j, "etp", json_integer((json_int_t)l->etp));
    ry_buf_free(&w);
    return j;
}

void ry_emit_with_parallelism(ry_buf *o, const char *report, size_t len, const ry_parallelism *l)
{
    const char *nl = memchr(report, '\n', len);
    size_t head = nl ? (size_t)(nl - report) + 1 : len;
    ry_buf_add(o, report, head);
    if (!nl)
        ry_buf_putc(o, '\n');
    ry_emit_parallelism_line(o, l);
    ry_buf_add(o, report + head, len - head);
}
