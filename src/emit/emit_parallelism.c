/* The layout's words (see emit_parallelism.h). */
#include "emit/emit_parallelism.h"
#include "util/numfmt.h"

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
static void words(ry_buf *o, const ry_parallelism *l, int grouped)
{
    if (grouped)
        ry_buf_printf(o, "TP %s x PP %s x DP %s x EP %s", ry_n(l->tp), ry_n(l->pp), ry_n(l->dp),
                      ry_n(l->ep));
    else
        ry_buf_printf(o, "TP %lld x PP %lld x DP %lld x EP %lld", l->tp, l->pp, l->dp, l->ep);
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
    json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:s, s:s, s:s}", "tp", (json_int_t)l->tp, "pp",
                          (json_int_t)l->pp, "dp", (json_int_t)l->dp, "ep", (json_int_t)l->ep,
                          "recompute", ry_recompute_names[l->recompute], "chosen_by",
                          source_name(l->source), "text", w.data);
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
