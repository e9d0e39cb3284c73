/* Subcommands: argument parsing and wiring only; the work is done by the
 * spec, fabric, analysis and emit modules. */
#ifndef RY_CMD_H
#define RY_CMD_H

#include <stdio.h>

#include "analysis/cabling.h"
#include "emit/emit_bom.h"
#include "spec/spec.h"

#define RY_MAX_SETS 256

/* Options every command takes, before or after its name. */
typedef struct ry_global {
    const char *templates;
    ry_override sets[RY_MAX_SETS];
    int nsets;
} ry_global;

typedef struct ry_command {
    const char *name;
    int (*run)(ry_global *g, int argc, char **argv);
    const char *synopsis;   /* one line: arguments */
    const char *summary;    /* one line: what it does */
    const char *help;       /* the options, for `railyard help NAME` */
} ry_command;

extern const ry_command ry_commands[];
const ry_command *ry_command_find(const char *name);
void ry_command_usage(const ry_command *c, FILE *fp);

/* Handles --templates/-T DIR and --set/-s KEY=VALUE at argv[*i] (advancing
 * *i past a value); returns 1 if consumed, 0 if not a global option, -1 on a
 * usage error (printed). */
int ry_global_option(ry_global *g, int argc, char **argv, int *i);

/* Loads the spec named on the command line with the global overrides. */
ry_spec *ry_cmd_load_spec(ry_global *g, const char *path);

/* Loads a spec and builds its fabric; errors are reported at spec positions.
 * Returns an exit code; on success *sp and *f belong to the caller. */
struct ry_fabric;
int ry_cmd_spec_fabric(ry_global *g, const char *path, ry_spec **sp, struct ry_fabric *f);

/* The physical side of a fabric: layout, media catalog, cabling plan. */
typedef struct ry_physical {
    ry_layout lay;
    ry_medium *media;
    int nmedia;
    ry_cabling cab;
} ry_physical;

/* Lays the fabric out and plans its cables; errors are printed at spec
 * positions. Returns 0, or -1 with nothing to free. */
int ry_cmd_plan_cabling(ry_global *g, const ry_spec *s, const struct ry_fabric *f,
                        ry_physical *ph);
void ry_physical_free(ry_physical *ph);

/* Parses "--opt VALUE", "--opt=VALUE" or "-o VALUE" at argv[*i]: returns 1
 * and sets *val when argv[*i] is that option, 0 when it is not, -1 when the
 * value is missing (usage error printed for command c). */
int ry_opt_arg(const ry_command *c, int argc, char **argv, int *i, const char *lng,
               const char *shrt, const char **val);

/* A value option of a command: --lng VALUE, --lng=VALUE or shrt VALUE; or,
 * with val NULL, a flag (--lng alone) that sets *flag to 1. */
typedef struct ry_optspec {
    const char *lng, *shrt;
    const char **val;
    int *flag;
} ry_optspec;

/* Parses a command's arguments: the common options, -h/--help, the value
 * options in opts (NULL-terminated; may be NULL) and at most one positional
 * argument (*pos, may be NULL if the command takes none). Returns -1 when
 * the arguments are fine, else the exit code to return at once (0 after
 * printing help, 2 after a usage error). */
int ry_cmd_parse(ry_global *g, const ry_command *c, int argc, char **argv,
                 const ry_optspec *opts, const char **pos);

/* ry_cmd_parse for commands whose positional argument is required: a usage
 * error names it when it is missing. */
int ry_cmd_parse_spec(ry_global *g, const ry_command *c, int argc, char **argv,
                      const ry_optspec *opts, const char **pos);

/* The value of --format: sets *fmt (left as is when name is NULL); -1 with
 * a usage error when it is not one of text, json and, if csv_ok, csv. */
int ry_cmd_format(const ry_command *c, const char *name, int csv_ok, ry_format *fmt);

/* For commands of the form "SPEC -o DIR": parses the arguments, requires
 * both, loads the spec and builds its fabric. Returns -1 when the caller
 * goes on (then *sp and *f are its to free), else the exit code. */
int ry_cmd_spec_dir(ry_global *g, const ry_command *c, int argc, char **argv,
                    const char **dir, ry_spec **sp, struct ry_fabric *f);

/* Writes one output group into DIR atomically: emit(o, arg) fills the
 * staging area, which is published only when it returns 0. Returns an
 * exit code. */
struct ry_outdir;
int ry_cmd_write_dir(const char *dir, int (*emit)(struct ry_outdir *o, const void *arg),
                     const void *arg);

/* A usage error for command c: prints it and returns RY_EXIT_USAGE. */
int ry_usage_error(const ry_command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int ry_cmd_validate(ry_global *g, int argc, char **argv);
int ry_cmd_bom(ry_global *g, int argc, char **argv);
int ry_cmd_compare(ry_global *g, int argc, char **argv);
int ry_cmd_build(ry_global *g, int argc, char **argv);
int ry_cmd_check_routes(ry_global *g, int argc, char **argv);
int ry_cmd_opensm(ry_global *g, int argc, char **argv);
int ry_cmd_cabling(ry_global *g, int argc, char **argv);
int ry_cmd_model(ry_global *g, int argc, char **argv);
int ry_cmd_sweep(ry_global *g, int argc, char **argv);
int ry_cmd_traffic(ry_global *g, int argc, char **argv);
int ry_cmd_optimize(ry_global *g, int argc, char **argv);
int ry_cmd_draw(ry_global *g, int argc, char **argv);
int ry_cmd_export(ry_global *g, int argc, char **argv);
int ry_cmd_slurm(ry_global *g, int argc, char **argv);

#endif
