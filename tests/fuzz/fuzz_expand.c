/* expand: the input is two specs, OLD, a line "%%" and NEW; or OLD, a line
 * "%%set" and lines KEY=VALUE (at most 16) that make NEW of OLD as --set
 * does. Both load with the source tree's catalog, are built, laid out and
 * cabled as the command does, compared, and the phase reported (text, JSON,
 * the switches, the cables and the work order) in memory: nothing is
 * written. */
#include "fuzz.h"

#include <stdlib.h>

#include "analysis/cabling.h"
#include "analysis/expand.h"
#include "emit/report/emit_expand.h"
#include "fabric/layout.h"
#include "spec/catalog.h"

/* Layout, cabling and verify of two fabrics per input: keep them small. */
#define FUZZ_EXPAND_MAX_GPUS 4096

static ry_media_catalog *media;

typedef struct phase {
    fuzz_spec fs;
    ry_layout lay;
    ry_cabling cab;
    int laid, cabled;
} phase;

static int phase_build(phase *p)
{
    ry_err err;
    ry_fabric *f = fuzz_spec_build(&p->fs, FUZZ_EXPAND_MAX_GPUS);
    if (!f || ry_layout_build(f, &p->lay, &err) < 0)
        return -1;
    p->laid = 1;
    if (ry_cabling_build(f, &p->lay, media, &p->cab, &err) < 0)
        return -1;
    p->cabled = 1;
    return 0;
}

static void phase_free(phase *p)
{
    if (p->cabled)
        ry_cabling_free(&p->cab);
    if (p->laid)
        ry_layout_free(&p->lay);
    fuzz_spec_free(&p->fs);
}

/* The line "%%" or "%%set" that ends OLD: its start, or NULL; *sets 1 for
 * "%%set". */
static char *separator(char *text, int *sets)
{
    for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "%%set", 5) == 0 && (line[5] == '\n' || line[5] == '\0')) {
            *sets = 1;
            return line;
        }
        if (strncmp(line, "%%", 2) == 0 && (line[2] == '\n' || line[2] == '\0')) {
            *sets = 0;
            return line;
        }
    }
    return NULL;
}

static void compare(phase *o, phase *n)
{
    ry_expand x;
    ry_err err;
    memset(&x, 0, sizeof x);
    if (o->fs.spec->sw.ethernet == n->fs.spec->sw.ethernet &&
        ry_expand_run(&o->fs.fabric, &o->cab, &n->fs.fabric, &n->cab, &x, &err) == 0) {
        ry_buf b;
        ry_buf_init(&b);
        ry_emit_expand(&b, &x, RY_FMT_TEXT);
        ry_emit_expand(&b, &x, RY_FMT_JSON);
        ry_emit_expand_switches(&b, &x);
        ry_emit_expand_cables(&b, &x);
        ry_emit_expand_work_order(&b, &x);
        ry_buf_free(&b);
    }
    ry_expand_free(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!media && !(media = ry_media_catalog_load(fuzz_templates())))
        abort();
    char *text = fuzz_string(data, size);
    int sets = 0;
    char *sep = separator(text, &sets);
    char *rest = sep ? strchr(sep, '\n') : NULL;
    rest = rest ? rest + 1 : NULL;
    if (sep)
        *sep = '\0';
    phase o = { 0 }, n = { 0 };
    ry_override ov[16] = { { 0 } };
    int nov = 0;
    n.fs.fd = -1;
    /* OLD as a file, NEW of it by --set or as a file of its own */
    fuzz_spec_input(&o.fs, (const uint8_t *)text, strlen(text));
    if (o.fs.fd < 0 || !rest)
        goto done;
    if (sets) {
        for (char *line = rest, *next; line && *line && nov < 16; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            char *eq = strchr(line, '=');
            ov[nov].key = line;
            if (eq) {
                *eq = '\0';
                ov[nov].value = eq + 1;
            }
            ov[nov].argno = nov + 1;
            nov++;
        }
        fuzz_spec_path(&n.fs, o.fs.path, ov, nov, NULL);
    } else {
        fuzz_spec_input(&n.fs, (const uint8_t *)rest, strlen(rest));
    }
    if (phase_build(&o) == 0 && phase_build(&n) == 0)
        compare(&o, &n);
done:
    phase_free(&n);
    phase_free(&o);
    free(text);
    fuzz_done();
    return 0;
}
