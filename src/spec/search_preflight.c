/* Search's preflight (spec/search.h): each value of each axis loaded on the
 * spec by itself. A file of its own, above the loader (spec/load.c) that it
 * calls, while the loader calls search.c's reader of the search section. */
#include "spec/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/yaml.h"
#include "util/buf.h"
#include "util/diag.h"

/* "FILE:LINE:COL", where an override's messages point. */
static void where_of(ry_pos at, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s:%d:%d", at.file ? at.file : "", at.line, at.col);
}

int ry_search_preflight(const ry_spec *s, const char *text, const ry_override *sets, int nsets,
                        const char *templates, const ry_vary *axes, const ry_pos *const *vpos,
                        int naxes)
{
    const ry_search_space *sp = s->search_space;
    if (!axes && sp) {
        axes = sp->axes;
        vpos = (const ry_pos *const *)sp->value_pos;
        naxes = sp->naxes;
    }
    char *own = NULL;
    if (!text && (naxes > 0 || (sp && sp->nworkloads > 0))) {
        if ((strcmp(s->path, "-") == 0 || strcmp(s->path, "<stdin>") == 0) && s->doc) {
            /* standard input cannot be read again: its document, written out */
            ry_buf b;
            ry_buf_init(&b);
            ry_ydoc_emit(s->doc, NULL, &b);
            ry_buf_putc(&b, '\0');
            own = b.data;
        } else if (!(own = ry_search_spec_text(s->path))) {
            return -1;
        }
        text = own;
    }
    int max = nsets + RY_SEARCH_MAX_SETS + 1;
    ry_override *o = ry_xcalloc((size_t)max, sizeof *o);
    if (nsets > 0)
        memcpy(o, sets, (size_t)nsets * sizeof *o);
    char (*where)[1100] = ry_xcalloc(RY_SEARCH_MAX_SETS + 1, sizeof *where);
    int bad = 0;
    /* each value of each axis, by itself */
    for (int k = 0; k < naxes; k++) {
        for (int j = 0; j < axes[k].n; j++) {
            if (vpos && vpos[k])
                where_of(vpos[k][j], where[0], sizeof where[0]);
            else
                snprintf(where[0], sizeof where[0], "--vary %s=%s", axes[k].key,
                         axes[k].values[j]);
            o[nsets] = (ry_override){ axes[k].key, axes[k].values[j], nsets + 1, where[0] };
            ry_spec *t = ry_spec_load_point(s->path, text, o, nsets + 1, templates);
            bad |= !t;
            ry_spec_free(t);
        }
    }
    /* each workload of the mix, by itself; a key it sets is no axis */
    for (int w = 0; sp && w < sp->nworkloads; w++) {
        const ry_search_workload *wl = &sp->workloads[w];
        for (int i = 0; i < wl->n; i++) {
            where_of(wl->sets[i].pos, where[i], sizeof where[i]);
            o[nsets + i] = (ry_override){ wl->sets[i].key, wl->sets[i].value, nsets + i + 1,
                                          where[i] };
            for (int k = 0; k < naxes && w == 0; k++)
                if (strcmp(axes[k].key, wl->sets[i].key) == 0) {
                    char arg[300];
                    snprintf(arg, sizeof arg, "--vary %s", axes[k].key);
                    ry_pos at = vpos && vpos[k] ? vpos[k][0] : (ry_pos){ arg, 0, 0 };
                    ry_error_at(at, "%s is set by every search.workloads entry (line %d): vary "
                                "it there, or leave it out of the workloads", axes[k].key,
                                wl->sets[i].pos.line);
                    bad = 1;
                }
        }
        ry_spec *t = ry_spec_load_point(s->path, text, o, nsets + wl->n, templates);
        bad |= !t;
        ry_spec_free(t);
    }
    free(where);
    free(o);
    free(own);
    return bad ? -1 : 0;
}
