#include "cmd/cmd.h"

#include "emit/outdir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/diag.h"

const ry_command ry_commands[] = {
    { "validate", ry_cmd_validate, "SPEC",
      "parse and check a spec, print a one-screen summary",
      "Reads SPEC, applies --set overrides, checks every key and rule, builds the\n"
      "fabric and prints a summary. Exits 1 with file:line:col errors on bad input.\n" },
    { "bom", ry_cmd_bom, "SPEC [--format text|json|csv] [-o FILE]",
      "bill of materials and cost of the fabric",
      "  -f, --format FMT   text (default), json or csv\n"
      "  -o, --output FILE  write to FILE instead of standard output\n" },
    { "compare", ry_cmd_compare,
      "SPEC | --gpus N --hb-domain K --radix R[,R...] [--format text|json|csv]",
      "rail-optimized, rail-only and fat-tree side by side per switch radix",
      "  SPEC               compare the designs for the spec's cluster\n"
      "  --gpus N           number of GPUs (instead of a spec)\n"
      "  --hb-domain K      GPUs per HB domain (rails default to K)\n"
      "  --rails R          rails per HB domain (default K)\n"
      "  --planes P         network planes (default 1)\n"
      "  --radix R[,R...]   switch radices to compare (with a spec: default its switch)\n"
      "  -f, --format FMT   text (default), json or csv\n"
      "  -o, --output FILE  write to FILE instead of standard output\n" },
    { "build", ry_cmd_build, "SPEC -o DIR [--skip GROUP[,GROUP...]]",
      "build the fabric and write every output into DIR",
      "  -o, --output DIR   output directory (created; files replaced atomically)\n"
      "  --skip GROUPS      leave out output groups: opensm, cabling, slurm, diagrams\n"
      "Writes DIR/summary.txt, DIR/bom.json, DIR/fabric.json, DIR/cabling/ (see\n"
      "railyard cabling), DIR/slurm/ (see railyard slurm), DIR/diagrams/ (the summary,\n"
      "rail 0 and unit 0 views, see railyard draw) and, for InfiniBand fabrics,\n"
      "DIR/opensm/<subnet>/ (see railyard opensm).\n" },
    { "cabling", ry_cmd_cabling, "SPEC -o DIR",
      "the cabling plan: racks, cable lengths, media, spreadsheets",
      "  -o, --output DIR   output directory; files go to DIR/cabling/\n"
      "Writes cabling.csv (one row per cable), cabling.xlsx (cables, bill of materials,\n"
      "one sheet per rack), netbox-cables.csv, p2p.csv (cable validation sheet) and,\n"
      "for InfiniBand, ibdiagnet.topo.\n" },
    { "draw", ry_cmd_draw,
      "SPEC [--view VIEW] [-o FILE] [--format dot|svg|png|pdf] [--force] | SPEC --dir DIR",
      "diagrams of the fabric: summary, one rail, one scalable unit, or everything",
      "  --view VIEW        summary (default): each tier's switches and the HB domains\n"
      "                     in a few boxes, bundles of links with counts and bandwidth;\n"
      "                     rail=N: the switches that carry rail N and the HB domains\n"
      "                     below them; unit=N: scalable unit N, its leaves by rail and\n"
      "                     the tiers above it reaches; full: every node and link\n"
      "  -o, --output FILE  write to FILE instead of standard output\n"
      "  -f, --format FMT   dot, svg, png or pdf (default: from FILE's extension, else\n"
      "                     dot); all but dot run Graphviz's dot program\n"
      "  --force            draw the full view of a fabric over 2,000 nodes\n"
      "  --dir DIR          write DIR/diagrams/ as railyard build does: summary, rail0\n"
      "                     and unit0, in DOT and (with Graphviz) SVG\n" },
    { "export", ry_cmd_export, "SPEC [--format graphml|json] [-o FILE]",
      "the whole graph for graph tools: GraphML or JSON",
      "  -f, --format FMT   graphml (default): every GPU and switch and every link, with\n"
      "                     their attributes as GraphML keys; json: fabric.json\n"
      "  -o, --output FILE  write to FILE instead of standard output\n" },
    { "opensm", ry_cmd_opensm, "SPEC -o DIR",
      "OpenSM subnet-manager files and routing tables, one directory per subnet",
      "  -o, --output DIR   output directory; files go to DIR/opensm/<subnet>/\n"
      "Per subnet: topology.net (ibnetdiscover format, loads in ibsim), root_guids.conf,\n"
      "cn_guids.conf, lfts.dump (routing tables for opensm -R file -U), partitions.conf,\n"
      "node-name-map, guid2lid and opensm.conf.\n" },
    { "slurm", ry_cmd_slurm, "SPEC -o DIR",
      "Slurm topology files: tree and block plugins, and topology.yaml",
      "  -o, --output DIR   output directory; files go to DIR/slurm/\n"
      "Writes topology.conf (topology/tree: one logical leaf switch per scalable unit,\n"
      "or per leaf on a fat tree, up to one root), topology-block.conf (topology/block:\n"
      "HB domains as blocks when they span nodes, else the leaf switches) and\n"
      "topology.yaml (both, for Slurm 25.05 and later). Host names follow naming.node.\n" },
    { "check-routes", ry_cmd_check_routes,
      "PATH [--lfts FILE] [--topology FILE] [--json] [--shifts all|N] [-o FILE]",
      "prove a subnet's routing tables deliver, loop-free, minimal and deadlock-free",
      "  PATH               a subnet directory holding topology.net and lfts.dump (as\n"
      "                     DIR/opensm/<subnet>/), or a topology file (then --lfts)\n"
      "  --lfts FILE        the LFTs: railyard's lfts.dump, OpenSM's opensm-lfts.dump\n"
      "                     or dump_fts output\n"
      "  --topology FILE    the topology, ibnetdiscover or ibsim netfile format\n"
      "  --json             the report as JSON\n"
      "  --shifts all|N     shift permutations to measure: all, or N evenly spaced\n"
      "                     (default all up to 4096 end ports, else 256; 0 for none)\n"
      "  --max-report N     failing routes listed per check (default 10)\n"
      "  -o, --output FILE  write to FILE instead of standard output\n"
      "Reads only the files, not the spec. Follows every end port's route to every\n"
      "end-port LID: each must arrive, never revisit a switch and take a shortest\n"
      "path, and the routes must have no credit loop. Also reports routes per link\n"
      "by tier and the busiest link under shift permutations. Exits 1 when a check\n"
      "fails.\n" },
    { "optimize", ry_cmd_optimize,
      "SPEC [--objective time|perf-per-cost] [--format text|json|csv] [-o FILE] [--plot DIR]",
      "LIBRA: the bandwidth of each network dimension for a training workload",
      "  --objective OBJ    time (default) or perf-per-cost (time x network cost);\n"
      "                     overrides libra.objective\n"
      "  -f, --format FMT   text (default), json or csv\n"
      "  -o, --output FILE  write to FILE instead of standard output\n"
      "  --plot DIR         also write DIR/libra-split.{csv,gp,png,svg}: time and cost\n"
      "                     against the split between two dimensions (runs gnuplot)\n"
      "Reads network: (or, without it, two dimensions from cluster:) and libra: from\n"
      "SPEC and finds the bandwidth per NPU of every dimension that minimises the\n"
      "iteration time, or time x cost, under the budget and constraints; reports it\n"
      "against the budget split equally.\n" },
    { "model", ry_cmd_model, "SPEC [--format text|json] [-o FILE]",
      "iteration time of the spec's LLM workload, its optimum and its cost",
      "  -f, --format FMT   text (default) or json\n"
      "  -o, --output FILE  write to FILE instead of standard output\n"
      "The rail-only paper's model (needs a workload: section, see railyard-spec(5)):\n"
      "the iteration time and its terms at the tensor-parallel size that minimises it,\n"
      "the ideal (one HB domain of all GPUs), relative performance, MFU and HFU, every\n"
      "constant used, and the network cost of rail-optimized and rail-only fabrics.\n" },
    { "sweep", ry_cmd_sweep, "SPEC --vary KEY=VALUES [--vary KEY=VALUES]... [-o DIR]",
      "the model over a grid of spec values: CSV and plots",
      "  --vary KEY=VALUES  a spec key and its values: a list (512,1024,2048), a range\n"
      "                     A..B (A, 2A, 4A, ... up to B), A..B+STEP or A..B*FACTOR;\n"
      "                     repeatable: every combination is a point\n"
      "  -o, --output DIR   write DIR/sweep.csv, sweep.gp, sweep.png and sweep.svg\n"
      "                     (standard output gets the CSV without -o)\n"
      "Values apply like --set before validation; a point whose spec is invalid is\n"
      "reported and left empty. The plots draw the iteration time (ideal dashed) and\n"
      "the relative performance against the first --vary key, one line per value of\n"
      "the others. Without gnuplot only the CSV and the script are written.\n" },
    { "traffic", ry_cmd_traffic, "SPEC [-o DIR] [--format text|json]",
      "the LLM traffic per GPU pair and on the fabric's links, and the trimmed fabric",
      "  -f, --format FMT   text (default) or json\n"
      "  -o, --output DIR   also write DIR/traffic.json, links.csv (bytes per link),\n"
      "                     heatmap.csv and heatmap.png (heatmap.pgm without gnuplot)\n"
      "Pairs and bytes of one iteration by type (tensor parallel, data parallel across\n"
      "and inside HB domains, none), the cross-domain traffic routed up-down over the\n"
      "built fabric, the links that carry nothing, and the bill of materials of the\n"
      "fabric without them beside the rail-only one.\n" },
    { NULL, NULL, NULL, NULL, NULL }
};

const ry_command *ry_command_find(const char *name)
{
    for (const ry_command *c = ry_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

void ry_command_usage(const ry_command *c, FILE *fp)
{
    fprintf(fp, "usage: railyard %s %s\n\n%s.\n\n%s", c->name, c->synopsis, c->summary, c->help);
    fputs("\nCommon options:\n"
          "  -T, --templates DIR   catalog directory (default $RAILYARD_TEMPLATES, then the\n"
          "                        installed one)\n"
          "  -s, --set KEY=VALUE   override a spec key (repeatable)\n"
          "  -h, --help            this help\n", fp);
}

int ry_usage_error(const ry_command *c, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("railyard: ", stderr);
    if (c)
        fprintf(stderr, "%s: ", c->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'railyard help %s' for more information.\n", c ? c->name : "");
    return RY_EXIT_USAGE;
}

/* Value of an option given as "--opt VALUE" or "--opt=VALUE". */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
    const char *a = argv[*i];
    size_t n = strlen(opt);
    if (a[n] == '=')
        return a + n + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int is_opt(const char *a, const char *lng, const char *shrt)
{
    size_t n = strlen(lng);
    if (strncmp(a, lng, n) == 0 && (a[n] == '\0' || a[n] == '='))
        return 1;
    return shrt && strcmp(a, shrt) == 0;
}

int ry_global_option(ry_global *g, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (is_opt(a, "--templates", "-T")) {
        const char *v = opt_value(argc, argv, i, strncmp(a, "--", 2) == 0 ? "--templates" : "-T");
        if (!v)
            return ry_usage_error(NULL, "%s needs a directory", a), -1;
        g->templates = v;
        return 1;
    }
    if (is_opt(a, "--set", "-s")) {
        const char *v = opt_value(argc, argv, i, strncmp(a, "--", 2) == 0 ? "--set" : "-s");
        if (!v)
            return ry_usage_error(NULL, "%s needs KEY=VALUE", a), -1;
        if (g->nsets == RY_MAX_SETS)
            return ry_usage_error(NULL, "too many --set options (at most %d)", RY_MAX_SETS), -1;
        /* Split KEY=VALUE in place; value stays NULL when '=' is missing and
         * the spec loader reports it with the argument's position. */
        char *eq = strchr((char *)v, '=');
        g->sets[g->nsets].key = v;
        g->sets[g->nsets].value = NULL;
        if (eq) {
            *eq = '\0';
            g->sets[g->nsets].value = eq + 1;
        }
        g->sets[g->nsets].argno = g->nsets + 1;
        g->nsets++;
        return 1;
    }
    return 0;
}

ry_spec *ry_cmd_load_spec(ry_global *g, const char *path)
{
    return ry_spec_load(path, g->sets, g->nsets, ry_templates_dir(g->templates));
}

int ry_opt_arg(const ry_command *c, int argc, char **argv, int *i, const char *lng,
               const char *shrt, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(lng);
    if (strncmp(a, lng, n) == 0 && a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (strcmp(a, lng) != 0 && !(shrt && strcmp(a, shrt) == 0))
        return 0;
    if (*i + 1 >= argc) {
        ry_usage_error(c, "%s needs a value", a);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

int ry_cmd_spec_dir(ry_global *g, const ry_command *c, int argc, char **argv,
                    const char **dir, ry_spec **sp, ry_fabric *f)
{
    const char *path = NULL;
    const ry_optspec opts[] = { { "--output", "-o", dir, NULL }, { NULL, NULL, NULL, NULL } };
    *dir = NULL;
    int rc = ry_cmd_parse_spec(g, c, argc, argv, opts, &path);
    if (rc >= 0)
        return rc;
    if (!*dir)
        return ry_usage_error(c, "missing -o DIR");
    rc = ry_cmd_spec_fabric(g, path, sp, f);
    return rc ? rc : -1;
}

int ry_cmd_write_dir(const char *dir, int (*emit)(ry_outdir *o, const void *arg), const void *arg)
{
    ry_outdir *o = ry_outdir_begin(dir);
    if (!o)
        return RY_EXIT_IO;
    if (emit(o, arg) < 0) {
        ry_outdir_abort(o);
        return RY_EXIT_IO;
    }
    return ry_outdir_commit(o) < 0 ? RY_EXIT_IO : RY_EXIT_OK;
}

int ry_cmd_parse(ry_global *g, const ry_command *c, int argc, char **argv,
                 const ry_optspec *opts, const char **pos)
{
    for (int i = 1; i < argc; i++) {
        int r = ry_global_option(g, argc, argv, &i);
        if (r < 0)
            return RY_EXIT_USAGE;
        if (r > 0)
            continue;
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            ry_command_usage(c, stdout);
            return RY_EXIT_OK;
        }
        const ry_optspec *o = opts;
        for (; o && o->lng; o++) {
            if (!o->val) {
                if (strcmp(a, o->lng) == 0 || (o->shrt && strcmp(a, o->shrt) == 0)) {
                    *o->flag = 1;
                    break;
                }
                continue;
            }
            r = ry_opt_arg(c, argc, argv, &i, o->lng, o->shrt, o->val);
            if (r < 0)
                return RY_EXIT_USAGE;
            if (r > 0)
                break;
        }
        if (o && o->lng)
            continue;
        if (a[0] == '-' && a[1] != '\0')
            return ry_usage_error(c, "unknown option '%s'", a);
        if (!pos)
            return ry_usage_error(c, "unexpected argument '%s'", a);
        if (*pos)
            return ry_usage_error(c, "one %.*s at a time (got '%s' and '%s')",
                                  (int)strcspn(c->synopsis, " |"), c->synopsis, *pos, a);
        *pos = a;
    }
    return -1;
}

int ry_cmd_parse_spec(ry_global *g, const ry_command *c, int argc, char **argv,
                      const ry_optspec *opts, const char **pos)
{
    int rc = ry_cmd_parse(g, c, argc, argv, opts, pos);
    if (rc < 0 && !*pos)
        return ry_usage_error(c, "missing %.*s", (int)strcspn(c->synopsis, " |"), c->synopsis);
    return rc;
}

int ry_cmd_format(const ry_command *c, const char *name, int csv_ok, ry_format *fmt)
{
    ry_format f;
    if (!name)
        return 0;
    if (ry_format_parse(name, &f) < 0 || (f == RY_FMT_CSV && !csv_ok)) {
        ry_usage_error(c, "--format takes %s (got '%s')", csv_ok ? "text, json or csv" : "text or json",
                       name);
        return -1;
    }
    *fmt = f;
    return 0;
}
