/* Commands as data: each src/cmd/cmd_X.c defines one ry_cmd_entry (name,
 * synopsis, summary, option table, what it needs, run function); main.c
 * lists the entries; one dispatcher (cmd.c) parses the command line by the
 * GNU rules, prints --help from the tables, loads and builds what the entry
 * needs once, runs it and frees everything on one path.
 *
 * Adding a command: 4 things to do
 *   1. src/cmd/cmd_NAME.c: an option table (one row per option, with its
 *      type and help text; index the rows with an enum and read the values
 *      with ry_opt(ctx, O_X) or ry_flag(ctx, O_X)), a run function taking a
 *      ry_ctx, and `const ry_cmd_entry ry_cmd_NAME = { ... }` saying what it
 *      needs (RY_NEED_*: the dispatcher loads those before run is called
 *      and frees them after).
 *   2. Declare it below (extern const ry_cmd_entry ry_cmd_NAME) and add it
 *      to the table in src/main.c, in the order `railyard --help` lists.
 *   3. Add the file to librailyard_a_SOURCES in Makefile.am.
 *   4. Document it in doc/railyard.1 (tests/cli.sh checks that every
 *      command has a section there) and test it.
 * A command that writes an output group of `railyard build` reuses the
 * group's row in cmd_groups.c instead of writing its own files.
 *
 * Ownership: everything reachable from a ry_ctx belongs to the dispatcher;
 * run functions borrow it and free only what they allocate themselves. */
#ifndef RY_CMD_H
#define RY_CMD_H

#include <stdio.h>

#include "analysis/cabling.h"
#include "emit/format.h"
#include "emit/ib/emit_opensm.h"
#include "io/outdir.h"
#include "fabric/fabric.h"
#include "fabric/ethplan.h"
#include "fabric/ibplan.h"
#include "net/flow.h"
#include "emit/eth/eth.h"
#include "spec/spec.h"

#define RY_MAX_SETS 256
#define RY_MAX_OPTS 24
#define RY_MAX_MORE 256     /* further positional arguments (verify's FABRIC files) */

typedef enum ry_opt_type {
    RY_OPT_FLAG,        /* --force: no value */
    RY_OPT_VALUE,       /* --view VIEW: a non-empty value */
    RY_OPT_CHOICE,      /* --format FMT: one of the '|'-separated words in arg */
    RY_OPT_LIST         /* --vary KEY=VALUES: repeatable, every value kept */
} ry_opt_type;

/* One row of a command's option table. */
typedef struct ry_option {
    const char *name;   /* long name without "--"; NULL ends the table */
    char shrt;          /* short letter, or 0 */
    ry_opt_type type;
    const char *arg;    /* the value's name in the help: "FILE" */
    const char *choices;/* RY_OPT_CHOICE: the values, "text|json|csv" */
    const char *help;   /* the help text; '\n' starts a continuation line */
} ry_option;

/* What an entry needs before its run function is called. */
enum {
    RY_NEED_SPEC = 1 << 0,      /* the positional argument is a spec: loaded with -T, --set */
    RY_NEED_FABRIC = 1 << 1,    /* the graph (implies the spec) */
    RY_NEED_IBPLAN = 1 << 2,    /* the InfiniBand plan: GUIDs, LIDs, subnets, routes */
    RY_NEED_CABLING = 1 << 3,   /* layout and cabling plan */
    RY_NEED_SLURM = 1 << 4,     /* the Slurm host names check, tree and blocks */
    RY_NEED_MODEL = 1 << 5,     /* the workload's iteration-time model */
    RY_NEED_LIBRA = 1 << 6,     /* the LIBRA problem */
    RY_NEED_BOM = 1 << 7,       /* the bill of materials of the fabric */
    RY_NEED_OUTDIR = 1 << 8,    /* -o DIR is required */
    RY_NEED_ETHPLAN = 1 << 9    /* the Ethernet plan: ASNs, addresses, names */
};

/* The physical side of a fabric: layout, media catalog, cabling plan. */
typedef struct ry_physical {
    ry_layout lay;
    ry_media_catalog *media;
    ry_cabling cab;
} ry_physical;

struct ry_model;
struct ry_libra_problem;
struct ry_cmd_entry;

/* A command's run: the parsed command line and what the entry needs. */
typedef struct ry_ctx {
    const struct ry_cmd_entry *cmd;
    const char *templates;          /* -T DIR, or NULL */
    int quiet;                      /* -q: no progress line */
    ry_override sets[RY_MAX_SETS];  /* --set KEY=VALUE, in order */
    int nsets;
    const char *arg;                /* the positional argument, or NULL */
    const char *more[RY_MAX_MORE];  /* the further positional arguments (more_positional) */
    int nmore;
    const char *out;                /* the value of the "output" row (-o), or NULL */
    const char *val[RY_MAX_OPTS];   /* per option row: its (last) value, or NULL */
    int given[RY_MAX_OPTS];         /* per option row: times given */
    const char **list[RY_MAX_OPTS]; /* RY_OPT_LIST rows: every value */
    ry_format fmt;                  /* the value of a text|json|csv --format (text) */
    unsigned needs;                 /* RY_NEED_* loaded */
    ry_spec *spec;
    ry_fabric fabric;
    ry_bom bom;
    ry_ibplan ibplan;
    ry_ethplan ethplan;             /* RY_NEED_ETHPLAN */
    ry_fabric as_found;             /* --as-found: the fabric as cabled, which ibplan then
                                     * plans (nnodes 0 when unused) */
    ry_physical phys;
    struct ry_slurm_tree *slurm;    /* RY_NEED_SLURM */
    struct ry_model *model;
    struct ry_libra_problem *libra;
} ry_ctx;

/* What a command's run function returns: an exit code of railyard(1), the
 * same numbers as util/diag.h's RY_EXIT_* (derived from them, so the two
 * cannot drift apart) and one more of the commands' own. */
typedef enum ry_cmd_status {
    RY_CMD_OK = RY_EXIT_OK,
    RY_CMD_INPUT = RY_EXIT_INPUT,       /* bad input */
    RY_CMD_USAGE = RY_EXIT_USAGE,       /* bad command line */
    RY_CMD_IO = RY_EXIT_IO,             /* a file could not be read or written */
    RY_CMD_INTERNAL = RY_EXIT_INTERNAL,
    RY_CMD_CHECKS = RY_EXIT_INTERNAL + 1    /* check-routes: the files were read, a check failed */
} ry_cmd_status;

typedef struct ry_cmd_entry {
    const char *name;
    const char *synopsis;       /* the arguments, one line */
    const char *summary;        /* what it does, one line */
    const char *positional;     /* "SPEC", "PATH" or NULL when it takes none */
    int positional_optional;    /* 1: the positional argument may be left out */
    const char *more_positional;/* "FABRIC": one or more arguments after the first, or NULL */
    int more_positional_optional;   /* 1: the further arguments may be left out */
    /* 1: exit 1 means "the check found something" (RY_CMD_CHECKS), so bad input
     * exits 2 (verify, like diff and cmp). */
    int checks_exit_1;
    /* A workload that does not fit the cluster (spec->workload_misfit):
     * commands that use it refuse it where they use it (the model, LIBRA);
     * for the others the dispatcher prints one warning, "...; ignored by
     * NAME", and runs them. 1: the run reports it itself (validate). */
    int reports_workload_fit;
    const ry_option *options;   /* NULL-name terminated; may be NULL */
    const char *details;        /* paragraphs after the options, or NULL */
    unsigned needs;             /* RY_NEED_* */
    /* More needs, known once the spec is loaded (build: its groups); may be NULL. */
    unsigned (*needs_more)(const ry_ctx *ctx);
    /* Checks of the options' values before anything is loaded (a usage
     * error: call ry_usage); may be NULL. */
    ry_cmd_status (*check)(ry_ctx *ctx);
    ry_cmd_status (*run)(ry_ctx *ctx);
} ry_cmd_entry;

/* Rows most commands share. */
#define RY_OPTION_OUTPUT_FILE \
    { "output", 'o', RY_OPT_VALUE, "FILE", NULL, "write to FILE instead of standard output" }
#define RY_OPTION_OUTPUT_DIR(help) { "output", 'o', RY_OPT_VALUE, "DIR", NULL, help }
#define RY_OPTION_FORMAT(choices, help) { "format", 'f', RY_OPT_CHOICE, "FMT", choices, help }
#define RY_OPTION_FORCE \
    { "force", 0, RY_OPT_FLAG, NULL, NULL, "write into a non-empty DIR railyard did not write,\n" \
      "and replace files it did not write at paths it writes\n" \
      "(both refused without; see OUTPUT in railyard(1))" }
/* The same for a command whose only output is -o FILE. */
#define RY_OPTION_FORCE_FILE \
    { "force", 0, RY_OPT_FLAG, NULL, NULL, "replace FILE though railyard did not write it (or it\n" \
      "was changed since): refused without (see OUTPUT in\nrailyard(1))" }
#define RY_OPTION_END { NULL, 0, RY_OPT_FLAG, NULL, NULL, NULL }
/* bom, validate, model, traffic: the capex leads every report; --cost paper
 * adds the rail-only paper's cost model, labelled as such. */
#define RY_OPTION_COST \
    { "cost", 0, RY_OPT_CHOICE, "MODEL", "capex|paper", "capex (default): list prices of switches, optics,\n" \
      "cables (racks, spares); paper: the rail-only paper's cost\n" \
      "model besides (every port and transceiver at one price)" }
static inline int ry_cost_paper(const char *v) { return v && v[0] == 'p'; }
/* model, sweep, traffic: the rail-only paper's eq. 1 instead of the full model. */
#define RY_OPTION_PAPER \
    { "paper", 0, RY_OPT_FLAG, NULL, NULL, "the rail-only paper's eq. 1 exactly: one pipeline\n" \
      "stage, no memory limit, efficiency 1 unless set" }

extern const ry_cmd_entry ry_cmd_validate, ry_cmd_bom, ry_cmd_compare, ry_cmd_build,
    ry_cmd_cabling, ry_cmd_draw, ry_cmd_export, ry_cmd_opensm, ry_cmd_ethernet, ry_cmd_slurm, ry_cmd_kubernetes,
    ry_cmd_check_routes, ry_cmd_verify, ry_cmd_expand, ry_cmd_optimize, ry_cmd_model, ry_cmd_sweep, ry_cmd_search,
    ry_cmd_traffic, ry_cmd_collective, ry_cmd_whatif, ry_cmd_catalog, ry_cmd_init;

/* Runs railyard's command line against the NULL-terminated table of
 * entries; returns the exit code. */
int ry_cmd_main(const ry_cmd_entry *const *table, int argc, char **argv);

/* The option row's value, or NULL when it was not given. */
static inline const char *ry_opt(const ry_ctx *ctx, int row) { return ctx->val[row]; }
static inline int ry_flag(const ry_ctx *ctx, int row) { return ctx->given[row] > 0; }

/* A usage error of the running command: prints it and returns RY_CMD_USAGE. */
ry_cmd_status ry_usage(const ry_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The exit code for a spec, catalog or plan error already printed. */
ry_cmd_status ry_input_status(void);

/* Whether the run's spec (with its --set overrides) loads and passes every
 * check with key set to value as well: 1 or 0, nothing printed. arg is the
 * ry_ctx; for a hint that proposes a spec value (ry_verify_accept). */
int ry_spec_accepts(void *arg, const char *key, const char *value);

/* The flags of ry_outdir_begin for this run: RY_OUT_FORCE when the
 * command's "force" row was given. */
unsigned ry_out_flags(const ry_ctx *ctx);

/* Writes a whole buffer to -o FILE (ry_opt(ctx, row)) or standard output. */
ry_cmd_status ry_write_output(const ry_ctx *ctx, const char *path, const char *data, size_t len);

/* Makes the layout and cabling plan for a command that can do without
 * them (validate): 0, or -1 with err set when the layout or plan cannot be
 * made, or -2 when the media catalog does not load (reported). The
 * dispatcher frees what it made. */
int ry_ctx_try_cabling(ry_ctx *ctx, ry_err *err);

/* What the groups' emit functions counted, for the single-group commands'
 * closing lines: the caller's, zeroed by ry_write_groups. */
typedef struct ry_group_tally {
    ry_opensm_stats opensm;
    ry_eth_stats eth;
} ry_group_tally;

/* Output groups of `railyard build`, one row each; the single-group
 * commands (opensm, cabling, slurm, kubernetes, draw --dir) write one row. */
typedef struct ry_group {
    const char *name;       /* the --skip name and the directory DIR/<name>/ */
    unsigned needs;         /* RY_NEED_* it needs beyond the fabric */
    /* 1 when the group applies to the spec (opensm: InfiniBand only); NULL: always. */
    int (*applies)(const ry_ctx *ctx);
    /* -1 with err set when the spec cannot give this group (checked before
     * anything is written: exit 1 at err's key); NULL: always can. */
    int (*check)(const ry_ctx *ctx, ry_err *err);
    /* -1 on a write error; may count into t */
    int (*emit)(const ry_ctx *ctx, ry_outdir *o, ry_group_tally *t);
    /* The single-group command's closing line; NULL for none. */
    void (*report)(const ry_ctx *ctx, const char *dir, const ry_group_tally *t);
} ry_group;

/* The groups: opensm, ethernet, cabling, slurm, kubernetes, diagrams; a
 * NULL-name row ends the table. Arrays indexed like ry_groups (want[]) are
 * RY_GROUP_COUNT long; a table of another length than the count does
 * not compile (cmd_groups.c asserts it). */
#define RY_GROUP_COUNT 6
extern const ry_group ry_groups[];
const ry_group *ry_group_find(const char *name);

/* What ry_write_groups does with a group (want[], indexes of ry_groups). */
enum {
    RY_GROUP_DROP = 0,      /* not written; with top, an earlier run's files go */
    RY_GROUP_WRITE = 1,     /* written */
    RY_GROUP_KEEP = 2       /* not written; an earlier run's files stay (--skip) */
};

/* Writes the groups marked RY_GROUP_WRITE in want[] and, when top is set,
 * the top-level files of build, into dir as one transaction; with top, the
 * groups marked RY_GROUP_DROP are replaced by nothing. What the groups
 * counted goes to t when it is not NULL. */
ry_cmd_status ry_write_groups(const ry_ctx *ctx, const char *dir, const int *want,
                              int (*top)(const ry_ctx *ctx, ry_outdir *o), ry_group_tally *t);

/* The run function of a single-group command (opensm, cabling, slurm). */
ry_cmd_status ry_run_group(ry_ctx *ctx, const char *name);

/* The run function of the commands named as their group (opensm, cabling,
 * slurm, kubernetes): ry_run_group with the command's name. */
ry_cmd_status ry_run_group_command(ry_ctx *ctx);

/* The real hardware in the OpenSM files (opensm and build): rows of the
 * option table, and what they ask for. */
#define RY_OPTIONS_HARDWARE                                                                 \
    { "fabric", 0, RY_OPT_LIST, "FILE", NULL,                                               \
      "ibnetdiscover output of a subnet (repeatable): write the\n"                          \
      "fabric's own GUIDs; refused when verify finds anything" },                           \
    { "as-found", 0, RY_OPT_FLAG, NULL, NULL,                                               \
      "with --fabric: route the fabric as it is cabled" },                                  \
    { "guids", 0, RY_OPT_VALUE, "FILE", NULL,                                               \
      "the GUIDs from an inventory CSV: host,nic,port_guid,node_guid\n"                     \
      "and switch,node_guid rows" },                                                        \
    { "lids", 0, RY_OPT_VALUE, "FILE", NULL,                                                \
      "keep the LIDs of a running OpenSM's guid2lid file" },                                \
    { "ignore-rates", 0, RY_OPT_FLAG, NULL, NULL,                                           \
      "with --fabric: a link slower than planned is no finding" }
#define RY_HW_ROWS 5
typedef struct ry_hw_args {
    const char **fabric;    /* --fabric files, nfabric of them */
    int nfabric;
    int as_found;
    const char *guids, *lids;
    int ignore_rates;
} ry_hw_args;

/* The hardware's GUIDs (and LIDs) into ctx->ibplan; with as_found the plan
 * is remade for the fabric as cabled (ctx->as_found). A usage error when
 * the options do not go together. */
ry_cmd_status ry_apply_hardware(ry_ctx *ctx, const ry_hw_args *hw);

/* Prints why ry_verify_run could not compare: at its place in a fabric file
 * (file:line:col) when it has one. */
struct ry_verify;
void ry_verify_print_error(const struct ry_verify *v, const ry_err *err);
/* --fabric FILE... of whatif and collective: the subnets as built
 * (ibnetdiscover output, as verify reads it) compared with the plan. Sets
 * link_down[l] (f->nlinks bytes) for each planned cable found missing and
 * each switch-to-switch cable found moved off its switch; a port swap on
 * the planned switch, a slower link and a NIC cabled to another switch (a
 * rail or unit swap: it still reaches the fabric) are kept. Subnets without
 * a file are taken as planned. The files' errors are said; an Ethernet
 * fabric is refused (its fabric as found is LLDP's). */
ry_cmd_status ry_as_built_down(const ry_fabric *f, const char *const *files, int nfiles,
                               uint8_t *link_down);
/* The same, and with nlfts (= nfiles) forwarding-table files (OpenSM's
 * opensm-lfts.dump, dump_lfts or ibroute output, railyard's lfts.dump),
 * each read against its topology, the tables the engine routes by
 * (ry_net_set_tables; *tables freed by ry_net_tables_free in every case). */
ry_cmd_status ry_as_built(const ry_fabric *f, const char *const *files, int nfiles,
                          const char *const *lfts, int nlfts, uint8_t *link_down,
                          ry_net_tables *tables);
/* The usage rules of the rows (for the command's check) and what they need loaded. */
ry_cmd_status ry_hw_check(const ry_ctx *ctx, const ry_hw_args *hw);
unsigned ry_hw_needs(const ry_hw_args *hw);
/* The rows' values, given the index of the first of RY_OPTIONS_HARDWARE. */
ry_hw_args ry_hw_args_of(const ry_ctx *ctx, int first_row);

#endif
