/* The catalog's words and scalars: link speeds, the names an entry may
 * take, the precisions. The schema's rows read and check values with them,
 * and so do the catalog's readers (spec/catalog.c); a file of its own below
 * both, so that neither calls back. */
#include "spec/catalog.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/diag.h"
#include "util/phys.h"

/* ---- speeds ------------------------------------------------------------------------ */

/* InfiniBand speeds a spec may name: the generations from FDR at 4x (FDR
 * 56, NDR 400), and the usual split-port names at 2x. */
static int ib_speed(const char *name, double *gbps)
{
    static const struct { const char *name; ry_ib_gen_id gen; } split[] = {
        { "hdr100", RY_IB_HDR }, { "ndr200", RY_IB_NDR },
    };
    for (int i = RY_IB_FDR; i < RY_IB_NGENS; i++)
        if (strcasecmp(name, ry_ib_gens[i].name) == 0) {
            *gbps = 4 * ry_ib_gens[i].lane;
            return 0;
        }
    for (size_t i = 0; i < sizeof split / sizeof *split; i++)
        if (strcmp(name, split[i].name) == 0) {
            *gbps = 2 * ry_ib_gens[split[i].gen].lane;
            return 0;
        }
    return -1;
}

int ry_parse_speed(const char *s, double *gbps)
{
    char buf[32];
    size_t n = 0;

    /* Lowercase, without blanks ("400 Gb/s" is fine). */
    for (; *s; s++) {
        if (isspace((unsigned char)*s))
            continue;
        if (n + 1 >= sizeof buf)
            return -1;
        buf[n++] = (char)tolower((unsigned char)*s);
    }
    buf[n] = '\0';
    if (!n)
        return -1;
    if (ib_speed(buf, gbps) == 0)
        return 0;
    if (!isdigit((unsigned char)buf[0]))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (errno == ERANGE || !(v > 0))
        return -1;
    static const struct {
        const char *unit;
        double scale;
    } units[] = {
        { "", 1 },        { "g", 1 },     { "gb/s", 1 },     { "gbps", 1 },
        { "gbit/s", 1 },  { "gbe", 1 },   { "t", 1000 },     { "tb/s", 1000 },
        { "tbps", 1000 },
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            v *= units[i].scale;
            if (v > 1e6)
                return -1;
            *gbps = v;
            return 0;
        }
    return -1;
}

int ry_yget_speed(const ry_ynode *n, const char *what, double *gbps, char *text, size_t cap)
{
    RY_ASSERT(n != NULL);
    if (n->kind == RY_YSCALAR && !ry_ynode_is_null(n) && strlen(n->value) < cap &&
        ry_parse_speed(n->value, gbps) == 0) {
        snprintf(text, cap, "%s", n->value);
        return 0;
    }
    ry_error_at(n->pos, "%s must be a speed like 400G, 400Gb/s, NDR, HDR, XDR or a number "
                "of Gb/s (got %s)", what, ry_ynode_describe(n));
    return -1;
}

int ry_catalog_name_ok(const char *s)
{
    size_t len = strlen(s);
    int ok = len > 0 && len < RY_NAME_MAX;
    for (const char *p = s; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || isdigit((unsigned char)*p) || *p == '.' ||
             *p == '_' || *p == '-';
    return ok;
}

/* ---- precisions ------------------------------------------------------------------ */

const char *const ry_precision_names[] = { "bf16", "fp16", "fp8", NULL };

const char *ry_precision_name(ry_precision p)
{
    return (unsigned)p < 3 ? ry_precision_names[p] : "?";
}

int ry_precision_bytes(ry_precision p)
{
    return p == RY_PREC_FP8 ? 1 : 2;
}
