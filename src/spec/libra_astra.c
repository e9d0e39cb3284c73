/* ASTRA-sim 1.0 workload files (and LIBRA's header-less variant of them).
 *
 * ASTRA-sim reads the rows as a stream of whitespace-separated words, so a
 * row may wrap; this reader does the same and keeps each word's line and
 * column for messages. */
#include "spec/libra_spec.h"
#include "spec/yaml.h"
#include "util/buf.h"
#include "util/words.h"
#include "io/input.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

#define MAX_FILE (64L << 20)

typedef struct word {
    const char *s;      /* NUL-terminated inside the file buffer */
    int line, col;
} word;

typedef struct wordlist {
    word *w;
    int n, cap;
} wordlist;

static void push(wordlist *l, const char *s, int line, int col)
{
    RY_ALLOC_GROW(l->w, l->n + 1, l->cap);
    l->w[l->n++] = (word){ s, line, col };
}

/* Policies, as ASTRA-sim spells them. */
enum {
    POL_DATA, POL_MODEL, POL_DATA_MODEL, POL_MODEL_DATA, POL_TRANSFORMER, POL_TRANSFORMER_FIB,
    POL_DLRM, POL_DLRM_ENHANCED, POL_CUSTOMIZED, POL_MICRO, POL_INFERENCE, NPOL
};
static const char *const policies[] = {
    "DATA", "MODEL", "HYBRID_DATA_MODEL", "HYBRID_MODEL_DATA", "HYBRID_TRANSFORMER",
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD", "HYBRID_DLRM", "HYBRID_DLRM_ENHANCED", "HYBRID_CUSTOMIZED",
    "MICRO", "DISTRIBUTED_INFERENCE", NULL
};

static int policy_of(const char *s)
{
    return ry_word_index(policies, s);
}

int ry_libra_split_tp(const ry_libra_net *net, long long tp, int *tensor, int *data, char *why,
                      size_t cap)
{
    long long rem = tp;
    if (tp < 1) {
        snprintf(why, cap, "the tensor-parallel group must hold at least 1 NPU (got %lld)", tp);
        return -1;
    }
    for (int i = 0; i < net->ndims; i++) {
        int n = net->dim[i].size;
        if (rem == 1) {
            tensor[i] = 1;
            data[i] = n;
        } else if (rem % n == 0) {
            tensor[i] = n;
            data[i] = 1;
            rem /= n;
        } else if (n % rem == 0) {
            tensor[i] = (int)rem;
            data[i] = n / (int)rem;
            rem = 1;
        } else {
            snprintf(why, cap, "a tensor-parallel group of %lld NPUs does not fit the dimensions "
                     "innermost first: %lld NPUs are left for dimension '%s' of size %d, and "
                     "neither divides the other", tp, rem, net->dim[i].name, n);
            return -1;
        }
    }
    if (rem != 1) {
        snprintf(why, cap, "a tensor-parallel group of %lld NPUs is larger than the network's "
                 "%lld NPUs", tp, net->npus);
        return -1;
    }
    return 0;
}

/* Group sizes of each phase under a policy; -1 with a message on failure. */
static int policy_groups(int pol, long long mp, const ry_libra_net *net, int first_layer,
                         int g[RY_PHASES][RY_LIBRA_MAX_DIMS], char *why, size_t cap)
{
    int d = net->ndims;
    for (int p = 0; p < RY_PHASES; p++)
        for (int i = 0; i < RY_LIBRA_MAX_DIMS; i++)
            g[p][i] = 1;
    int model[RY_LIBRA_MAX_DIMS], data[RY_LIBRA_MAX_DIMS];
    for (int i = 0; i < d; i++) {
        model[i] = 1;
        data[i] = net->dim[i].size;
    }
    switch (pol) {
    case POL_DLRM:
    case POL_DLRM_ENHANCED:
        if (first_layer)    /* ASTRA-sim: the embedding layer talks over every dimension */
            for (int i = 0; i < d; i++)
                model[i] = net->dim[i].size;
        break;
    case POL_DATA:
    case POL_MICRO:
        break;
    case POL_MODEL:
    case POL_INFERENCE:
        for (int i = 0; i < d; i++) {
            model[i] = net->dim[i].size;
            data[i] = 1;
        }
        break;
    case POL_DATA_MODEL:    /* model parallel on the first dimension, data on the rest */
        model[0] = net->dim[0].size;
        data[0] = 1;
        break;
    case POL_MODEL_DATA:    /* data parallel on the first dimension, model on the rest */
        for (int i = 1; i < d; i++) {
            model[i] = net->dim[i].size;
            data[i] = 1;
        }
        if (d == 1) {
            model[0] = 1;
        }
        break;
    case POL_TRANSFORMER:
    case POL_TRANSFORMER_FIB:
        if (mp < 1) {
            snprintf(why, cap, "%s needs model_parallel_NPU_group: G on the first line",
                     policies[pol]);
            return -1;
        }
        if (ry_libra_split_tp(net, mp, model, data, why, cap) < 0)
            return -1;
        break;
    default:
        snprintf(why, cap, "%s cannot be used for one layer", policies[pol]);
        return -1;
    }
    for (int i = 0; i < d; i++) {
        g[RY_PHASE_FWD][i] = g[RY_PHASE_IG][i] = model[i];
        g[RY_PHASE_WG][i] = data[i];
    }
    if ((pol == POL_DLRM || pol == POL_DLRM_ENHANCED) && first_layer)
        for (int i = 0; i < d; i++)
            g[RY_PHASE_WG][i] = net->dim[i].size;
    return 0;
}

static int number(const word *w, const char *path, const char *what, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(w->s, &end);
    if (end == w->s || *end || errno || !isfinite(v) || v < 0) {
        ry_error_at((ry_pos){ path, w->line, w->col }, "%s must be a number >= 0 (got '%s')",
                    what, w->s);
        return -1;
    }
    *out = v;
    return 0;
}

static int integer(const word *w, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(w->s, &end, 10);
    if (end == w->s || *end || errno)
        return -1;
    *out = v;
    return 0;
}

/* The whole file, or NULL with *why set (errno EFBIG past MAX_FILE). */
static char *slurp(const char *path, size_t *len, const char **why)
{
    FILE *fp = ry_input_fopen(path, why);
    if (!fp)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = ry_xmalloc(cap);
    for (;;) {
        if (n > (size_t)MAX_FILE) {     /* one byte past the limit is enough to know */
            fclose(fp);
            free(buf);
            errno = EFBIG;
            return NULL;
        }
        if (n + 1 >= cap) {
            cap = cap * 2 > (size_t)MAX_FILE + 2 ? (size_t)MAX_FILE + 2 : cap * 2;
            buf = ry_xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0)
            break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int ry_libra_read_astra(const char *path, const ry_libra_net *net, const ry_libra_groups *given,
                        double cycle_s, ry_libra_workload *w)
{
    size_t len;
    const char *open_why = NULL;
    char *buf = slurp(path, &len, &open_why);
    if (!buf) {
        if (!open_why && errno == EFBIG)
            ry_error_at((ry_pos){ path, 1, 1 }, "workload file larger than %ld MiB",
                        (long)(MAX_FILE >> 20));
        else
            ry_io_error_at((ry_pos){ path, 1, 1 }, "cannot read workload file: %s",
                           open_why ? open_why : strerror(errno));
        return -1;
    }
    int before = ry_error_count();
    if (memchr(buf, '\0', len)) {
        ry_error_at((ry_pos){ path, 1, 1 }, "workload file is binary, not ASTRA-sim text");
        free(buf);
        return -1;
    }

    /* Words with their positions; the header is told apart by line. */
    wordlist words = { 0 };
    {
        int line = 1, col = 1;
        char *p = buf;
        while (*p) {
            if (*p == '\n') {
                *p++ = '\0';
                line++;
                col = 1;
                continue;
            }
            if (isspace((unsigned char)*p)) {
                *p++ = '\0';
                col++;
                continue;
            }
            push(&words, p, line, col);
            while (*p && !isspace((unsigned char)*p)) {
                p++;
                col++;
            }
        }
    }

    int pol = -1, at = 0, declared = -1;
    long long mp = 0;
    ry_pos top = { path, 1, 1 };
    if (words.n == 0) {
        ry_error_at(top, "workload file has no layers");
        goto out;
    }
    pol = policy_of(words.w[0].s);
    if (pol >= 0) {
        /* Header: the policy and its "key: value" words, up to the end of line. */
        int line = words.w[0].line;
        at = 1;
        while (at < words.n && words.w[at].line == line) {
            if (strcmp(words.w[at].s, "model_parallel_NPU_group:") == 0 && at + 1 < words.n &&
                words.w[at + 1].line == line) {
                if (integer(&words.w[at + 1], &mp) < 0 || mp < 1) {
                    ry_error_at((ry_pos){ path, words.w[at + 1].line, words.w[at + 1].col },
                                "model_parallel_NPU_group must be a whole number >= 1 (got '%s')",
                                words.w[at + 1].s);
                    goto out;
                }
                at++;
            }
            at++;
        }
        if (at >= words.n) {
            ry_error_at((ry_pos){ path, line + 1, 1 }, "expected the number of layers after "
                        "the parallelism line");
            goto out;
        }
        long long v;
        if (integer(&words.w[at], &v) < 0 || v < 1 || v > 10000000) {
            ry_error_at((ry_pos){ path, words.w[at].line, words.w[at].col },
                        "the second line must be the number of layers, a whole number >= 1 "
                        "(got '%s')", words.w[at].s);
            goto out;
        }
        declared = (int)v;
        at++;
    } else {
        /* LIBRA's files: rows only; the first word is a layer name. A first
         * line of a few words is more likely a misspelt policy. */
        int l0 = words.w[0].line, nw = 0;
        for (int k = 0; k < words.n && words.w[k].line == l0; k++)
            nw++;
        if (nw < 12) {
            /* Quote the first word only when it could be a misspelt name: of
             * any other file (--set libra.workload_file=/etc/passwd) the
             * message repeats nothing. */
            const char *w0 = words.w[0].s;
            size_t wl = strlen(w0);
            int namelike = wl <= RY_SHOWN_CHARS && strspn(w0, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                          "abcdefghijklmnopqrstuvwxyz0123456789_") == wl;
            const char *hint = namelike ? ry_suggest(w0, policies, -1) : NULL;
            if (namelike)
                ry_error_at(top, "unknown parallelism '%s'%s%s%s; expected DATA, MODEL, "
                            "HYBRID_TRANSFORMER, ... (ASTRA-sim 1.0), or a layer row of 12 "
                            "fields", w0, hint ? " (did you mean '" : "", hint ? hint : "",
                            hint ? "'?)" : "");
            else
                ry_error_at(top, "not an ASTRA-sim workload file: the first line is neither a "
                            "parallelism line (DATA, MODEL, HYBRID_TRANSFORMER, ...) nor a "
                            "layer row of 12 fields");
            goto out;
        }
        int ok = 1;
        for (int p = 0; p < RY_PHASES; p++)
            ok &= given && given->have[p];
        if (!ok) {
            ry_error_at(top, "this workload file has no parallelism line (LIBRA's form), so "
                        "the spec must give the group sizes of all three phases: "
                        "libra.groups or libra.tensor_parallel");
            goto out;
        }
    }

    int per_row = pol == POL_CUSTOMIZED ? 13 : 12;
    static const char *const phase_words[] = { "forward", "input-gradient", "weight-gradient" };
    int row = 0;
    while (at < words.n && (declared < 0 || row < declared)) {
        if (words.n - at < per_row) {
            const word *e = &words.w[words.n - 1];
            ry_error_at((ry_pos){ path, words.w[at].line, words.w[at].col },
                        "layer %d ('%s') is cut short: %d of the %d fields (name, reserved, "
                        "then compute, type and bytes of forward, input gradient and weight "
                        "gradient, then update time%s) before the end at line %d",
                        row + 1, words.w[at].s, words.n - at, per_row,
                        per_row == 13 ? ", parallelism" : "", e->line);
            goto out;
        }
        const word *f = &words.w[at];
        ry_libra_layer *ly = ry_libra_workload_add(w);
        snprintf(ly->name, sizeof ly->name, "%s", f[0].s);
        long long reserved;
        if (integer(&f[1], &reserved) < 0)
            ry_error_at((ry_pos){ path, f[1].line, f[1].col }, "layer '%s': the second field "
                        "must be a whole number (ASTRA-sim's reserved -1) (got '%s')", f[0].s,
                        f[1].s);
        for (int p = 0; p < RY_PHASES; p++) {
            const word *c = &f[2 + 3 * p];
            char what[96];
            double cycles, bytes;
            snprintf(what, sizeof what, "layer '%.40s': %s compute time", f[0].s,
                     phase_words[p]);
            if (number(&c[0], path, what, &cycles) == 0)
                ly->ph[p].compute = cycles * cycle_s;
            if (ry_coll_parse(c[1].s, &ly->ph[p].coll) < 0)
                ry_error_at((ry_pos){ path, c[1].line, c[1].col }, "layer '%s': unknown "
                            "%s collective '%s'; expected NONE, ALLREDUCE, REDUCESCATTER, "
                            "ALLGATHER or ALLTOALL", f[0].s, phase_words[p], c[1].s);
            snprintf(what, sizeof what, "layer '%.40s': %s bytes", f[0].s, phase_words[p]);
            if (number(&c[2], path, what, &bytes) == 0)
                ly->ph[p].bytes = bytes;
        }
        double update;
        number(&f[11], path, "update time", &update);

        int g[RY_PHASES][RY_LIBRA_MAX_DIMS];
        char why[256] = "";
        int lp = pol == POL_CUSTOMIZED ? policy_of(f[12].s) : pol;
        if (pol == POL_CUSTOMIZED && (lp < 0 || lp == POL_CUSTOMIZED)) {
            ry_error_at((ry_pos){ path, f[12].line, f[12].col }, "layer '%s': unknown "
                        "parallelism '%s' for HYBRID_CUSTOMIZED", f[0].s, f[12].s);
            lp = -1;
        }
        int pg = 0;
        if (lp >= 0) {
            pg = policy_groups(lp, mp, net, row == 0, g, why, sizeof why);
            if (pg < 0) {
                int all = 1;
                for (int p = 0; p < RY_PHASES; p++)
                    all &= given && given->have[p];
                if (!all) {
                    ry_pos wp = pol == POL_CUSTOMIZED ? (ry_pos){ path, f[12].line, f[12].col }
                                                      : top;
                    ry_error_at(wp, "%s", why);
                    /* one message for the whole file */
                    if (pol != POL_CUSTOMIZED)
                        goto out;
                }
            }
        }
        for (int p = 0; p < RY_PHASES; p++) {
            const int *src = given && given->have[p] ? given->group[p] : (pg == 0 && lp >= 0
                                                                          ? g[p] : NULL);
            if (src)
                memcpy(ly->ph[p].group, src, sizeof ly->ph[p].group);
        }
        at += per_row;
        row++;
    }
    if (declared > 0 && row < declared) {
        ry_error_at((ry_pos){ path, 2, 1 }, "the file declares %d layers but has %d", declared,
                    row);
    } else if (at < words.n) {
        ry_warn("%s:%d:%d: text after the %d layers the file declares is ignored", path,
                    words.w[at].line, words.w[at].col, declared);
    }
    snprintf(w->source, sizeof w->source, "%s (%s, %d layers)", path,
             pol >= 0 ? policies[pol] : "LIBRA rows", row);
out:
    free(words.w);
    free(buf);
    return ry_error_count() > before ? -1 : 0;
}
