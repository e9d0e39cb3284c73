/* The dispatcher: the command line by the GNU rules, help from the tables,
 * and one path that loads what a command needs, runs it and frees it.
 *
 * GNU rules kept: options and arguments in any order; "--" ends the
 * options; "--name=VALUE" and "--name VALUE"; "-xVALUE" and "-x VALUE";
 * short flags may be grouped; a long option may be shortened to any prefix
 * that names one option. Global options (-T, --set, --help) go before or
 * after the command's name. */
#include "cmd/cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "emit/csv.h"
#include "io/outdir.h"
#include "model/iteration.h"
#include "model/libra.h"
#include "analysis/bom.h"
#include "analysis/slurm_tree.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/progress.h"

/* Options every command takes, and the ones only before a command. */
enum { G_TEMPLATES, G_SET, G_QUIET, G_CRLF, G_HELP, G_VERSION, G_N };
static const ry_option global_options[] = {
    [G_TEMPLATES] = { "templates", 'T', RY_OPT_VALUE, "DIR", NULL,
                      "catalog directory laid over $RAILYARD_TEMPLATES's, then\n"
                      "the installed one's, file by file and entry by entry" },
    [G_SET] = { "set", 's', RY_OPT_LIST, "KEY=VALUE", NULL,
                "override a spec key, e.g. --set cluster.gpus=65536 (repeatable)" },
    [G_QUIET] = { "quiet", 'q', RY_OPT_FLAG, NULL, NULL,
                  "no progress line on standard error (there is one on a\n"
                  "terminal once a run takes more than 2 s)" },
    [G_CRLF] = { "crlf", 0, RY_OPT_FLAG, NULL, NULL,
                 "end CSV records with CR LF (RFC 4180) instead of LF" },
    [G_HELP] = { "help", 'h', RY_OPT_FLAG, NULL, NULL, "this help" },
    [G_VERSION] = { "version", 'V', RY_OPT_FLAG, NULL, NULL, "version" },
    [G_N] = { NULL, 0, 0, NULL, NULL, NULL }
};

/* ---- messages ------------------------------------------------------------------------------- */

static void usage_error_v(const char *cmd, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void usage_error_v(const char *cmd, const char *fmt, va_list ap)
{
    fflush(stdout);
    fputs("railyard: ", stderr);
    if (cmd)
        fprintf(stderr, "%s: ", cmd);
    /* the message may echo an argument: escaped, it cannot drive the terminal */
    ry_buf b;
    ry_buf_init(&b);
    ry_escape_vprintf(&b, RY_ESC_TEXT, fmt, ap);
    fputs(b.data ? b.data : "", stderr);
    ry_buf_free(&b);
    if (cmd)
        fprintf(stderr, "\nTry 'railyard help %s' for more information.\n", cmd);
    else
        fputs("\nTry 'railyard --help' for more information.\n", stderr);
}

static ry_cmd_status usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static ry_cmd_status usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    usage_error_v(cmd, fmt, ap);
    va_end(ap);
    return RY_CMD_USAGE;
}

ry_cmd_status ry_usage(const ry_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    usage_error_v(ctx->cmd ? ctx->cmd->name : NULL, fmt, ap);
    va_end(ap);
    return RY_CMD_USAGE;
}

ry_cmd_status ry_input_status(void)
{
    return (ry_cmd_status)ry_exit_status(RY_CMD_INPUT);
}

unsigned ry_out_flags(const ry_ctx *ctx)
{
    for (int i = 0; ctx->cmd && ctx->cmd->options && ctx->cmd->options[i].name; i++)
        if (strcmp(ctx->cmd->options[i].name, "force") == 0 && ctx->given[i])
            return RY_OUT_FORCE;
    return 0;
}

ry_cmd_status ry_write_output(const ry_ctx *ctx, const char *path, const char *data, size_t len)
{
    ry_progress_end();      /* the output may go to the same terminal */
    return ry_write_file_atomic(path, data ? data : "", len, ry_out_flags(ctx)) < 0 ? RY_CMD_IO
                                                                                   : RY_CMD_OK;
}

int ry_spec_accepts(void *arg, const char *key, const char *value)
{
    const ry_ctx *ctx = arg;
    if (!ctx->arg || ctx->nsets >= RY_MAX_SETS)
        return 0;
    ry_override sets[RY_MAX_SETS + 1];
    memcpy(sets, ctx->sets, (size_t)ctx->nsets * sizeof *sets);
    sets[ctx->nsets] = (ry_override){ key, value, ctx->nsets + 1, "a hint" };
    /* the spec's words about the value are not the user's to read */
    ry_buf sink;
    ry_buf_init(&sink);
    int before = ry_error_count();
    ry_diag_capture(&sink);
    ry_spec *s = ry_spec_load(ctx->arg, sets, ctx->nsets + 1, ry_templates_dir(ctx->templates));
    ry_diag_capture(NULL);
    if (before == 0)
        ry_error_reset();
    ry_buf_free(&sink);
    int ok = s != NULL;
    ry_spec_free(s);
    return ok;
}

/* ---- help ----------------------------------------------------------------------------------- */

#define HELP_COL 21

/* "  -o, --output FILE", or "  --view VIEW" for an option with no short name. */
static int option_left(const ry_option *o, char *buf, size_t cap)
{
    if (o->shrt)
        return snprintf(buf, cap, "  -%c, --%s%s%s", o->shrt, o->name, o->arg ? " " : "",
                        o->arg ? o->arg : "");
    return snprintf(buf, cap, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* --set changes a spec: a command that reads none does not offer it. */
static int takes_set(const ry_cmd_entry *c)
{
    return c->positional && (strcmp(c->positional, "SPEC") == 0 ||
                             strcmp(c->positional, "OLD") == 0);
}

/* The rows of opts; global: the common options, as c takes them (c NULL:
 * every command's). */
static void print_options(FILE *fp, const ry_option *opts, int global, const ry_cmd_entry *c)
{
    char left[96];
    int col = HELP_COL;
    for (const ry_option *o = opts; o && o->name; o++)
        if (option_left(o, left, sizeof left) + 2 > col)
            col = option_left(o, left, sizeof left) + 2;
    for (const ry_option *o = opts; o && o->name; o++) {
        if (global && o == &global_options[G_VERSION])
            continue;
        if (global && c && o == &global_options[G_SET] && !takes_set(c))
            continue;
        int n = option_left(o, left, sizeof left);
        fprintf(fp, "%s%*s", left, col - n, "");
        for (const char *h = o->help; *h; h++) {
            fputc(*h, fp);
            if (*h == '\n')
                fprintf(fp, "%*s", col, "");
        }
        fputc('\n', fp);
    }
}

/* The words the help texts use, each said once (railyard help terms;
 * railyard(1), TERMS, says the same). */
static const char *const terms[][2] = {
    { "HB domain", "the GPUs joined by a high-bandwidth interconnect (NVLink and\n"
                   "NVSwitch): 8 in a DGX H100, 72 in a GB200 NVL72 rack" },
    { "rail", "the GPUs of the same position in every HB domain, and the NIC\n"
              "ports and leaf switches they use: rail 0 is GPU 0 of every server" },
    { "rail-optimized", "a Clos whose leaves each hold one rail of a scalable unit, with\n"
                        "spines (and cores) joining every rail (NVIDIA's DGX SuperPOD)" },
    { "rail-only", "a Clos per rail and no switch between rails: traffic between rails\n"
                   "crosses the HB domain instead" },
    { "fat tree", "a Clos whose leaves each hold whole servers, every NIC port of a\n"
                  "server on one leaf" },
    { "scalable unit (SU)", "the servers a rail-optimized fabric builds as one block: one leaf\n"
                            "per rail (cluster.scalable_unit, in HB domains)" },
    { "leaf, spine, core", "the switch tiers from the servers up: tier 1, 2 and 3" },
    { "plane", "an independent copy of the fabric, each NIC port of a GPU on its own\n"
               "plane (cluster.node.planes)" },
    { "taper", "a tier with fewer ports up than down (fabric.oversubscription,\n"
               "down:up: 2:1 has half the uplinks); 1:1 is non-blocking" },
    { "subnet", "an InfiniBand fabric one subnet manager (OpenSM) runs: a plane, or\n"
                "a rail of a rail-only fabric" },
    { "capex", "the network's price at list prices: switches, optics, cables (and\n"
               "racks and spares when the spec prices them); not the servers" },
    { "ownership", "the capex with what the network costs to run over cost.years:\n"
                   "energy, support, spares used" },
    { "goodput", "the share of a year's GPU-hours the training job keeps after its\n"
                 "failures (reliability section)" },
    { "front", "the points no other point beats on both price and time (or slowdown):\n"
               "the Pareto front of railyard search" },
    { NULL, NULL }
};

static void terms_help(FILE *fp)
{
    fputs("Terms the commands and their help use (railyard(1), TERMS):\n\n", fp);
    for (int i = 0; terms[i][0]; i++) {
        fprintf(fp, "  %s\n      ", terms[i][0]);
        for (const char *p = terms[i][1]; *p; p++) {
            fputc(*p, fp);
            if (*p == '\n')
                fputs("      ", fp);
        }
        fputc('\n', fp);
    }
}

static void command_help(const ry_cmd_entry *c, FILE *fp)
{
    fprintf(fp, "usage: railyard %s %s\n\n%s.\n\n", c->name, c->synopsis, c->summary);
    print_options(fp, c->options, 0, c);
    if (c->details)
        fputs(c->details, fp);
    fputs("\nCommon options:\n", fp);
    print_options(fp, global_options, 1, c);
    fputs("\nTerms (HB domain, rail, plane, taper, SU, ...): railyard help terms\n", fp);
}

static void main_help(const ry_cmd_entry *const *table, FILE *fp)
{
    fputs("usage: railyard [--templates DIR] [--set KEY=VALUE]... [--quiet] COMMAND [ARGS]\n"
          "       railyard --help | --version | help COMMAND | help terms\n\n"
          "Designs the network of a GPU cluster for LLM training from a YAML spec:\n"
          "rail-optimized, rail-only or fat-tree Clos fabrics, their bill of materials,\n"
          "cost and build-out files.\n\nCommands:\n", fp);
    for (const ry_cmd_entry *const *c = table; *c; c++)
        fprintf(fp, "  %-13s %s\n", (*c)->name, (*c)->summary);
    fputs("\nCommon options (before or after the command):\n", fp);
    print_options(fp, global_options, 0, NULL);
    fputs("\nExit status: 0 ok, 1 bad input, 2 usage, 3 I/O error, 4 internal error;\n"
          "check-routes: 5 when a check fails; verify exits as diff(1) does: 0 as planned,\n"
          "1 findings, 2 bad input or a fabric that cannot be compared with the plan.\n"
          "Terms (HB domain, rail, plane, taper, SU, ...): railyard help terms.\n"
          "See railyard(1) and railyard-spec(5).\n", fp);
}

/* ---- the command line ----------------------------------------------------------------------- */

/* The options a parse sees: the command's rows first, then the global ones. */
typedef struct optset {
    const ry_option *cmd;       /* may be NULL */
    int ncmd;
    const ry_option *global;
    int nglobal;
} optset;

static int optset_n(const optset *os) { return os->ncmd + os->nglobal; }

static const ry_option *optset_at(const optset *os, int i)
{
    return i < os->ncmd ? &os->cmd[i] : &os->global[i - os->ncmd];
}

static int count_rows(const ry_option *o)
{
    int n = 0;
    while (o && o[n].name)
        n++;
    return n;
}

/* Where parsed values go: per row of the optset. */
typedef struct optvals {
    const char **val;
    int *given;
    const char ***list;
    int *nlist;
} optvals;

static ry_cmd_status take_value(const char *cmd, const ry_option *o, int row, const char *v,
                                optvals *ov)
{
    if (o->type != RY_OPT_FLAG && !*v)
        return usage_error(cmd, "--%s needs a value%s%s", o->name, o->arg ? " " : "",
                           o->arg ? o->arg : "");
    if (o->type == RY_OPT_CHOICE) {
        size_t n = strlen(v);
        const char *w = o->choices;
        int ok = 0;
        while (*w && !ok) {
            size_t m = strcspn(w, "|");
            ok = m == n && strncmp(w, v, n) == 0;
            w += m + (w[m] == '|');
        }
        if (!ok) {
            ry_buf b;
            ry_buf_init(&b);
            for (const char *p = o->choices; *p; p++) {
                if (*p != '|') {
                    ry_buf_putc(&b, *p);
                    continue;
                }
                ry_buf_puts(&b, strchr(p + 1, '|') ? ", " : " or ");
            }
            usage_error(cmd, "--%s takes %s (got '%s')", o->name, b.data, v);
            ry_buf_free(&b);
            return RY_CMD_USAGE;
        }
    }
    ov->given[row]++;
    ov->val[row] = v;
    if (o->type == RY_OPT_LIST) {
        ov->list[row] = ry_xrealloc(ov->list[row], (size_t)(ov->nlist[row] + 2) * sizeof(char *));
        ov->list[row][ov->nlist[row]++] = v;
        ov->list[row][ov->nlist[row]] = NULL;
    }
    return RY_CMD_OK;
}

/* The row of a long option given as "name" (the text between "--" and any
 * '='): an exact name, else the one option it is a prefix of. -1 after a
 * usage error. */
static int find_long(const char *cmd, const optset *os, const char *name, size_t len)
{
    int found = -1, nfound = 0;
    for (int i = 0; i < optset_n(os); i++) {
        const ry_option *o = optset_at(os, i);
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (strlen(o->name) == len)
            return i;
        /* the same option twice in the set (never) would not be ambiguous */
        if (found < 0 || strcmp(optset_at(os, found)->name, o->name) != 0)
            nfound++;
        found = i;
    }
    if (nfound == 1)
        return found;
    if (nfound > 1) {
        ry_buf b;
        ry_buf_init(&b);
        for (int i = 0; i < optset_n(os); i++)
            if (strncmp(optset_at(os, i)->name, name, len) == 0)
                ry_buf_printf(&b, " --%s", optset_at(os, i)->name);
        usage_error(cmd, "option '--%.*s' is ambiguous; it could be:%s", (int)len, name, b.data);
        ry_buf_free(&b);
        return -1;
    }
    const char *best = NULL;
    int bestd = 3;
    char *given = ry_xmalloc(len + 1);
    memcpy(given, name, len);
    given[len] = '\0';
    for (int i = 0; i < optset_n(os); i++) {
        int d = ry_edit_distance(given, optset_at(os, i)->name);
        if (d < bestd) {
            bestd = d;
            best = optset_at(os, i)->name;
        }
    }
    if (best)
        usage_error(cmd, "unknown option '--%s'; did you mean '--%s'?", given, best);
    else
        usage_error(cmd, "unknown option '--%s'", given);
    free(given);
    return -1;
}

/* Parses argv[from..to) against os. Positional arguments go to pos[] (at
 * most maxpos; more is an error unless stop_at_positional, which stops at
 * the first one and returns its index in *stopped). */
typedef struct parse_job {
    const char *cmd;            /* for messages; NULL before a command */
    const optset *os;
    optvals *ov;
    const char **pos;
    int maxpos;
    int npos;
    const char *posname;        /* "SPEC", for "one SPEC at a time" */
    int stop_at_positional;
    int stopped;
} parse_job;

static ry_cmd_status parse_argv(parse_job *j, int argc, char **argv, int from)
{
    int only_positional = 0;
    j->stopped = -1;
    for (int i = from; i < argc; i++) {
        const char *a = argv[i];
        if (only_positional || a[0] != '-' || a[1] == '\0') {
            if (j->stop_at_positional) {
                j->stopped = i;
                return RY_CMD_OK;
            }
            if (j->npos >= j->maxpos) {
                if (j->maxpos == 0)
                    return usage_error(j->cmd, "unexpected argument '%s'", a);
                if (j->maxpos > 1)
                    return usage_error(j->cmd, "at most %d arguments (got '%s' and more)",
                                       j->maxpos, a);
                return usage_error(j->cmd, "one %s at a time (got '%s' and '%s')", j->posname,
                                   j->pos[0], a);
            }
            j->pos[j->npos++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_positional = 1;
            if (j->stop_at_positional) {
                j->stopped = i + 1 < argc ? i + 1 : -1;
                return RY_CMD_OK;
            }
            continue;
        }
        if (a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            int row = find_long(j->cmd, j->os, name, len);
            if (row < 0)
                return RY_CMD_USAGE;
            const ry_option *o = optset_at(j->os, row);
            const char *v = "";
            if (o->type == RY_OPT_FLAG) {
                if (eq)
                    return usage_error(j->cmd, "option '--%s' takes no value (got '%s')",
                                       o->name, a);
            } else if (eq) {
                v = eq + 1;
            } else if (i + 1 < argc) {
                v = argv[++i];
            } else {
                return usage_error(j->cmd, "option '--%s' needs a value%s%s", o->name,
                                   o->arg ? " " : "", o->arg ? o->arg : "");
            }
            if (take_value(j->cmd, o, row, v, j->ov))
                return RY_CMD_USAGE;
            continue;
        }
        /* a group of short options: flags, then at most one taking a value */
        for (const char *p = a + 1; *p; p++) {
            int row = -1;
            for (int k = 0; k < optset_n(j->os) && row < 0; k++)
                if (optset_at(j->os, k)->shrt == *p)
                    row = k;
            if (row < 0)
                return usage_error(j->cmd, "unknown option '-%c'%s%s%s", *p,
                                   p != a + 1 ? " in '" : "", p != a + 1 ? a : "",
                                   p != a + 1 ? "'" : "");
            const ry_option *o = optset_at(j->os, row);
            if (o->type == RY_OPT_FLAG) {
                if (take_value(j->cmd, o, row, "", j->ov))
                    return RY_CMD_USAGE;
                continue;
            }
            const char *v;
            if (p[1])
                v = p + 1;
            else if (i + 1 < argc)
                v = argv[++i];
            else
                return usage_error(j->cmd, "option '-%c' needs a value%s%s", *p,
                                   o->arg ? " " : "", o->arg ? o->arg : "");
            if (take_value(j->cmd, o, row, v, j->ov))
                return RY_CMD_USAGE;
            break;
        }
    }
    return RY_CMD_OK;
}

/* ---- loading what a command needs ------------------------------------------------------------ */

/* The layout and cabling plan. A layout or plan that cannot be made goes
 * to *err (when given) or is reported at its key; a catalog that does not
 * load is reported by its loader (-2). */
static int plan_cabling_err(ry_ctx *ctx, ry_err *err)
{
    ry_err e;
    ry_physical *ph = &ctx->phys;
    memset(ph, 0, sizeof *ph);
    if (ry_layout_build(&ctx->fabric, &ph->lay, &e) < 0)
        goto bad;
    if (!(ph->media = ry_media_catalog_load(ry_templates_dir(ctx->templates)))) {
        ry_layout_free(&ph->lay);
        return -2;
    }
    if (ry_cabling_build(&ctx->fabric, &ph->lay, ph->media, &ph->cab, &e) < 0) {
        ry_layout_free(&ph->lay);
        ry_media_catalog_free(ph->media);
        goto bad;
    }
    return 0;
bad:
    if (err)
        *err = e;
    else
        ry_spec_error(ctx->spec, e.key, "%s", e.msg);
    return -1;
}

static int plan_cabling(ry_ctx *ctx)
{
    return plan_cabling_err(ctx, NULL) < 0 ? -1 : 0;
}

int ry_ctx_try_cabling(ry_ctx *ctx, ry_err *err)
{
    if (ctx->needs & RY_NEED_CABLING)
        return 0;
    int rc = plan_cabling_err(ctx, err);
    if (rc == 0)
        ctx->needs |= RY_NEED_CABLING;
    return rc;
}

/* Loads and builds what needs asks for and ctx does not hold yet, in the
 * order of the data flow; returns an exit code. */
static ry_cmd_status load_needs(ry_ctx *ctx, unsigned needs)
{
    ry_err err;
    if ((needs & RY_NEED_SPEC) && !ctx->spec) {
        ry_progress_step("reading %s", ctx->arg);
        ctx->spec = ry_spec_load(ctx->arg, ctx->sets, ctx->nsets, ry_templates_dir(ctx->templates));
        if (!ctx->spec)
            return ry_input_status();
        ctx->needs |= RY_NEED_SPEC;
    }
    ry_spec *s = ctx->spec;
    if ((needs & RY_NEED_FABRIC) && !(ctx->needs & RY_NEED_FABRIC)) {
        ry_progress_step("building the fabric of %lld GPUs", s->gpus);
        if (ry_fabric_build(s, &ctx->fabric, &err) < 0) {
            ry_spec_error(s, err.key, "%s", err.msg);
            return RY_CMD_INPUT;
        }
        ctx->needs |= RY_NEED_FABRIC;
    }
    if ((needs & RY_NEED_BOM) && !(ctx->needs & RY_NEED_BOM)) {
        ry_progress_step("counting the bill of materials");
        ry_bom_compute(&ctx->fabric, &ctx->bom);
        ctx->needs |= RY_NEED_BOM;
    }
    if ((needs & RY_NEED_IBPLAN) && !(ctx->needs & RY_NEED_IBPLAN)) {
        ry_progress_step("planning GUIDs, LIDs and routes");
        if (ry_ibplan_build(&ctx->fabric, &ctx->ibplan, &err) < 0) {
            /* where the OpenSM files are optional, name the way out */
            if (strcmp(ctx->cmd->name, "build") == 0)
                ry_spec_error(s, err.key, "%s (or leave the OpenSM files out with --skip opensm)",
                              err.msg);
            else if (strcmp(ctx->cmd->name, "whatif") == 0)
                ry_spec_error(s, err.key, "%s (or leave the re-routed OpenSM files out: no -o)",
                              err.msg);
            else
                ry_spec_error(s, err.key, "%s", err.msg);
            return RY_CMD_INPUT;
        }
        ctx->needs |= RY_NEED_IBPLAN;
    }
    if ((needs & RY_NEED_ETHPLAN) && !(ctx->needs & RY_NEED_ETHPLAN)) {
        ry_progress_step("planning ASNs and addresses");
        if (ry_ethplan_build(&ctx->fabric, &ctx->ethplan, &err) < 0) {
            if (strcmp(ctx->cmd->name, "build") == 0)
                ry_spec_error(s, err.key, "%s (or leave the Ethernet configs out with --skip "
                              "ethernet)", err.msg);
            else
                ry_spec_error(s, err.key, "%s", err.msg);
            return RY_CMD_INPUT;
        }
        ctx->needs |= RY_NEED_ETHPLAN;
    }
    if ((needs & RY_NEED_SLURM) && !(ctx->needs & RY_NEED_SLURM)) {
        ry_progress_step("making the Slurm tree");
        if (ry_slurm_check(&ctx->fabric, &err) < 0) {
            ry_spec_error(s, err.key, "%s", err.msg);
            return RY_CMD_INPUT;
        }
        ctx->slurm = ry_slurm_tree_build(&ctx->fabric);
        ctx->needs |= RY_NEED_SLURM;
    }
    if ((needs & RY_NEED_CABLING) && !(ctx->needs & RY_NEED_CABLING)) {
        ry_progress_step("laying out racks and planning cables");
        if (plan_cabling(ctx) < 0)
            return RY_CMD_INPUT;
        ctx->needs |= RY_NEED_CABLING;
    }
    if ((needs & RY_NEED_MODEL) && !ctx->model) {
        ry_progress_step("the iteration-time model");
        ctx->model = ry_xcalloc(1, sizeof *ctx->model);
        if (ry_model_compute(s, ctx->model) < 0)
            return RY_CMD_INPUT;
        ctx->needs |= RY_NEED_MODEL;
    }
    if ((needs & RY_NEED_LIBRA) && !ctx->libra) {
        ry_progress_step("the LIBRA problem");
        ctx->libra = ry_xcalloc(1, sizeof *ctx->libra);
        if (ry_libra_problem_build(s, ctx->libra) < 0)
            return RY_CMD_INPUT;
        ctx->needs |= RY_NEED_LIBRA;
    }
    return RY_CMD_OK;
}

static void free_needs(ry_ctx *ctx)
{
    if (ctx->libra) {
        ry_libra_problem_free(ctx->libra);
        free(ctx->libra);
    }
    free(ctx->model);
    if (ctx->needs & RY_NEED_CABLING) {
        ry_cabling_free(&ctx->phys.cab);
        ry_layout_free(&ctx->phys.lay);
        ry_media_catalog_free(ctx->phys.media);
    }
    if (ctx->needs & RY_NEED_IBPLAN)
        ry_ibplan_free(&ctx->ibplan);
    if (ctx->needs & RY_NEED_ETHPLAN)
        ry_ethplan_free(&ctx->ethplan);
    ry_fabric_free(&ctx->as_found);
    ry_slurm_tree_free(ctx->slurm);
    if (ctx->needs & RY_NEED_FABRIC)
        ry_fabric_free(&ctx->fabric);
    ry_spec_free(ctx->spec);
    for (int i = 0; i < RY_MAX_OPTS; i++)
        free(ctx->list[i]);
}

/* ---- main ------------------------------------------------------------------------------------ */

static const ry_cmd_entry *find_command(const ry_cmd_entry *const *table, const char *name)
{
    for (const ry_cmd_entry *const *c = table; *c; c++)
        if (strcmp((*c)->name, name) == 0)
            return *c;
    return NULL;
}

static ry_cmd_status no_command(const ry_cmd_entry *const *table, const char *name)
{
    const char *best = NULL;
    int bestd = 3;
    for (const ry_cmd_entry *const *c = table; *c; c++) {
        int d = ry_edit_distance(name, (*c)->name);
        if (d < bestd || (d == bestd && best && strncmp((*c)->name, name, strlen(name)) == 0)) {
            bestd = d;
            best = (*c)->name;
        }
        /* a unique prefix is no command name, but it is what was meant */
        if (!best && strncmp((*c)->name, name, strlen(name)) == 0)
            best = (*c)->name;
    }
    if (best)
        return usage_error(NULL, "no command '%s'; did you mean '%s'?", name, best);
    return usage_error(NULL, "no command '%s'", name);
}

/* Applies the global option values parsed into the rows of global_options. */
static ry_cmd_status take_globals(ry_ctx *ctx, const optvals *ov, int base)
{
    if (ov->given[base + G_TEMPLATES])
        ctx->templates = ov->val[base + G_TEMPLATES];
    if (ov->given[base + G_QUIET])
        ctx->quiet = 1;
    if (ov->given[base + G_CRLF])
        ry_csv_set_crlf(1);
    for (int k = 0; k < ov->nlist[base + G_SET]; k++) {
        const char *v = ov->list[base + G_SET][k];
        if (ctx->nsets == RY_MAX_SETS)
            return usage_error(ctx->cmd ? ctx->cmd->name : NULL,
                               "too many --set options (at most %d)", RY_MAX_SETS);
        /* Split KEY=VALUE in place; value stays NULL when '=' is missing and
         * the spec loader reports it with the argument's position. */
        char *eq = strchr((char *)v, '=');
        ry_override *o = &ctx->sets[ctx->nsets];
        o->key = v;
        o->value = NULL;
        if (eq) {
            *eq = '\0';
            o->value = eq + 1;
        }
        o->argno = ctx->nsets + 1;
        o->where = NULL;
        ctx->nsets++;
    }
    return RY_CMD_OK;
}

/* A workload that does not fit the cluster, once everything the command
 * needs is loaded: a command that uses the workload has refused it by now
 * (the model and LIBRA call ry_workload_check_fit), so this one does not
 * use it; say so with the rule's words at its key, and go on. */
static void warn_workload_unused(const ry_ctx *ctx)
{
    const ry_err *e = &ctx->spec->workload_misfit;
    if (e->key[0])
        ry_warn_at(ry_spec_pos(ctx->spec, e->key), "%s; ignored by %s", e->msg, ctx->cmd->name);
}

static ry_cmd_status run_command(const ry_cmd_entry *c, ry_ctx *ctx, int argc, char **argv,
                                 int from)
{
    int ncmd = count_rows(c->options);
    RY_ASSERT(ncmd + G_N <= 2 * RY_MAX_OPTS && ncmd <= RY_MAX_OPTS);
    optset os = { c->options, ncmd, global_options, G_HELP + 1 };   /* no --version here */
    const char *val[2 * RY_MAX_OPTS] = { 0 }, **list[2 * RY_MAX_OPTS] = { 0 };
    int given[2 * RY_MAX_OPTS] = { 0 }, nlist[2 * RY_MAX_OPTS] = { 0 };
    optvals ov = { val, given, list, nlist };
    const char *pos[1 + RY_MAX_MORE] = { NULL };
    int maxpos = c->positional ? 1 + (c->more_positional ? RY_MAX_MORE : 0) : 0;
    parse_job j = { c->name, &os, &ov, pos, maxpos, 0,
                    c->positional ? c->positional : "", 0, -1 };
    ry_cmd_status rc = parse_argv(&j, argc, argv, from);
    if (rc == RY_CMD_OK)
        rc = take_globals(ctx, &ov, ncmd);
    for (int i = 0; i < ncmd; i++) {
        ctx->val[i] = val[i];
        ctx->given[i] = given[i];
        ctx->list[i] = list[i];
    }
    free(list[ncmd + G_SET]);
    if (rc != RY_CMD_OK)
        return rc;
    if (given[ncmd + G_HELP]) {
        command_help(c, stdout);
        return RY_CMD_OK;
    }
    ctx->arg = pos[0];
    for (int i = 1; i < j.npos; i++)
        ctx->more[ctx->nmore++] = pos[i];
    if (c->positional && !c->positional_optional && !ctx->arg)
        return ry_usage(ctx, "missing %s", c->positional);
    if (c->more_positional && !c->more_positional_optional && ctx->nmore == 0)
        return ry_usage(ctx, "missing %s", c->more_positional);
    int takes_spec = takes_set(c);
    if (ctx->nsets && !(takes_spec && ctx->arg))
        return ry_usage(ctx, "--set changes a spec, and %s", takes_spec
                        ? "no SPEC is given" : "this command reads no spec");
    for (int i = 0; i < ncmd; i++)
        if (c->options[i].type == RY_OPT_CHOICE && strcmp(c->options[i].name, "format") == 0 &&
            val[i] && ry_format_parse(val[i], &ctx->fmt) < 0)
            ctx->fmt = RY_FMT_TEXT;   /* a format of its own (draw, export): the run reads it */
    int out_file = 0;
    for (int i = 0; i < ncmd; i++)
        if (strcmp(c->options[i].name, "output") == 0) {
            ctx->out = val[i];
            out_file = c->options[i].arg && strcmp(c->options[i].arg, "FILE") == 0;
        }
    if ((c->needs & RY_NEED_OUTDIR) && !ctx->out)
        return ry_usage(ctx, "missing -o DIR");
    /* a file that will not be replaced is said before the run does its work */
    if (out_file && ctx->out && ry_output_file_check(ctx->out, ry_out_flags(ctx)) < 0)
        return RY_CMD_IO;
    if (c->check && (rc = c->check(ctx)) != RY_CMD_OK)
        return rc;
    ry_progress_begin(c->name, ctx->quiet);
    unsigned needs = c->needs;
    if (needs & (RY_NEED_FABRIC | RY_NEED_BOM | RY_NEED_IBPLAN | RY_NEED_ETHPLAN | RY_NEED_CABLING |
                 RY_NEED_SLURM | RY_NEED_MODEL | RY_NEED_LIBRA))
        needs |= RY_NEED_SPEC;
    if (needs & (RY_NEED_BOM | RY_NEED_IBPLAN | RY_NEED_ETHPLAN | RY_NEED_CABLING | RY_NEED_SLURM))
        needs |= RY_NEED_FABRIC;
    if ((needs & RY_NEED_SPEC) && !ctx->arg)
        needs = 0;      /* an optional SPEC left out (compare --gpus) */
    rc = load_needs(ctx, needs & ~(unsigned)(RY_NEED_IBPLAN | RY_NEED_ETHPLAN | RY_NEED_CABLING |
                                             RY_NEED_SLURM | RY_NEED_MODEL | RY_NEED_LIBRA));
    if (rc == RY_CMD_OK && ctx->spec && c->needs_more)
        needs |= c->needs_more(ctx);
    if (rc == RY_CMD_OK && needs)
        rc = load_needs(ctx, needs);
    if (rc == RY_CMD_OK && ctx->spec && !c->reports_workload_fit)
        warn_workload_unused(ctx);
    if (rc == RY_CMD_OK) {
        ry_progress_step("computing");
        rc = c->run(ctx);
    }
    ry_progress_end();
    return rc;
}

int ry_cmd_main(const ry_cmd_entry *const *table, int argc, char **argv)
{
    ry_ctx *ctx = ry_xcalloc(1, sizeof *ctx);
    const ry_cmd_entry *ran = NULL;
    optset os = { NULL, 0, global_options, G_N };
    const char *val[G_N] = { 0 }, **list[G_N] = { 0 };
    int given[G_N] = { 0 }, nlist[G_N] = { 0 };
    optvals ov = { val, given, list, nlist };
    parse_job j = { NULL, &os, &ov, NULL, 0, 0, "", 1, -1 };
    ry_cmd_status rc = parse_argv(&j, argc, argv, 1);
    if (rc == RY_CMD_OK)
        rc = take_globals(ctx, &ov, 0);
    free(list[G_SET]);
    if (rc != RY_CMD_OK)
        goto out;
    if (given[G_HELP]) {
        main_help(table, stdout);
        goto out;
    }
    if (given[G_VERSION]) {
        printf("railyard %s\n", PACKAGE_VERSION);
        goto out;
    }
    if (j.stopped < 0) {
        main_help(table, stderr);
        rc = RY_CMD_USAGE;
        goto out;
    }
    const char *name = argv[j.stopped];
    if (strcmp(name, "help") == 0) {
        if (j.stopped + 1 >= argc) {
            main_help(table, stdout);
            goto out;
        }
        if (strcmp(argv[j.stopped + 1], "terms") == 0) {
            terms_help(stdout);
            goto out;
        }
        const ry_cmd_entry *c = find_command(table, argv[j.stopped + 1]);
        if (!c)
            rc = no_command(table, argv[j.stopped + 1]);
        else
            command_help(c, stdout);
        goto out;
    }
    const ry_cmd_entry *c = find_command(table, name);
    if (!c) {
        rc = no_command(table, name);
        goto out;
    }
    ctx->cmd = ran = c;
    rc = run_command(c, ctx, argc, argv, j.stopped + 1);
out:
    free_needs(ctx);
    free(ctx);
    /* A file that could not be read makes "bad input" an I/O error. */
    rc = (ry_cmd_status)ry_exit_status((int)rc);
    if (ran && ran->checks_exit_1 && rc == RY_CMD_INPUT)
        rc = RY_CMD_USAGE;
    else if (ran && ran->checks_exit_1 && rc == RY_CMD_CHECKS)
        rc = RY_CMD_INPUT;
    return (int)rc;
}
