/* LIBRA's words and scalars: the names of blocks, collectives, phases and
 * objectives, the time and byte units, the names a dimension may take. The
 * schema's rows check values with them and the readers of spec/libra_spec.c
 * print them; a file of its own below both, so that neither calls back. */
#include "spec/libra_words.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/diag.h"

#define MAXD RY_LIBRA_MAX_DIMS

/* Words in the order of their enums. */
const char *const ry_libra_block_words[] = { "ring", "fully-connected", "switch", NULL };
const char *const ry_libra_objective_words[] = { "time", "perf-per-cost", NULL };
const char *const ry_coll_names[] = { "none", "all-reduce", "reduce-scatter", "all-gather",
                                      "all-to-all", NULL };
static const char *const phase_words[] = { "forward", "input_grad", "weight_grad", NULL };
const char *const ry_libra_time_units[] = { "ns", "us", "ms", "s", NULL };
static const double time_scale[] = { 1e-9, 1e-6, 1e-3, 1 };
static const char *const reserved_names[] = { "sum", "total", "cost", NULL };

const char *ry_libra_block_name(ry_libra_block b)
{
    return (unsigned)b < 3 ? ry_libra_block_words[b] : "?";
}

const char *ry_coll_name(ry_coll c)
{
    return (unsigned)c < 5 ? ry_coll_names[c] : "?";
}

const char *ry_libra_phase_name(int phase)
{
    return phase >= 0 && phase < RY_PHASES ? phase_words[phase] : "?";
}

double ry_libra_time_scale(int unit)
{
    RY_ASSERT(unit >= 0 && (size_t)unit < sizeof time_scale / sizeof time_scale[0]);
    return time_scale[unit];
}

const char *ry_libra_objective_name(ry_libra_objective o)
{
    return o == RY_LIBRA_PERF_PER_COST ? "perf-per-cost" : "time";
}

int ry_coll_parse(const char *s, ry_coll *out)
{
    /* Compare with the separators dropped: all-reduce, all_reduce, ALLREDUCE. */
    char squeezed[32];
    size_t n = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '-' || *p == '_' || *p == ' ')
            continue;
        if (n + 1 >= sizeof squeezed)
            return -1;
        squeezed[n++] = (char)tolower((unsigned char)*p);
    }
    squeezed[n] = '\0';
    static const char *const plain[] = { "none", "allreduce", "reducescatter", "allgather",
                                         "alltoall" };
    for (int i = 0; i < 5; i++)
        if (strcmp(squeezed, plain[i]) == 0) {
            *out = (ry_coll)i;
            return 0;
        }
    return -1;
}

static int name_ok(const char *s)
{
    if (!(*s >= 'a' && *s <= 'z'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return strlen(s) < RY_LIBRA_NAME_MAX;
}

/* bw0, bw1, ...: the positional names every dimension also has. */
int ry_libra_positional(const char *s)
{
    if (strncmp(s, "bw", 2) != 0 || !isdigit((unsigned char)s[2]))
        return -1;
    char *end;
    long v = strtol(s + 2, &end, 10);
    return *end || v >= MAXD ? -1 : (int)v;
}

/* A number with an optional unit from a table: 1 with *out scaled by the
 * unit, 0 for a plain number (*out the number), -1 when it is neither. */
static int number_unit(const char *text, const char *const *units, const double *scale,
                       double *out)
{
    char *end;
    errno = 0;
    while (isspace((unsigned char)*text))
        text++;
    if (!(isdigit((unsigned char)*text) || *text == '.'))
        return -1;
    double v = strtod(text, &end);
    if (errno || !isfinite(v))
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    if (!*end) {
        *out = v;
        return 0;
    }
    for (int i = 0; units[i]; i++)
        if (strcasecmp(end, units[i]) == 0) {
            *out = v * scale[i];
            return 1;
        }
    return -1;
}

static const char *const byte_units[] = { "B", "kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB",
                                          NULL };
static const double byte_scale[] = { 1, 1e3, 1e6, 1e9, 1e12, 1024.0, 1048576.0, 1073741824.0,
                                     1099511627776.0 };

int ry_libra_parse_time(const char *text, double *out)
{
    return number_unit(text, ry_libra_time_units, time_scale, out);
}

int ry_libra_parse_bytes(const char *text, double *out)
{
    return number_unit(text, byte_units, byte_scale, out) < 0 ? -1 : 0;
}

int ry_libra_dim_name_check(const char *name)
{
    if (!name_ok(name) || ry_libra_positional(name) >= 0)
        return 1;
    for (int r = 0; reserved_names[r]; r++)
        if (strcmp(name, reserved_names[r]) == 0)
            return 2;
    return 0;
}
