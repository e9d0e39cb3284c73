/* railyard: GPU-cluster networks from a YAML spec. Global options, the
 * command table and exit codes; each command lives in src/cmd/. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/diag.h"

static void usage(FILE *fp)
{
    fputs("usage: railyard [--templates DIR] [--set KEY=VALUE]... COMMAND [ARGS]\n"
          "       railyard --help | --version | help COMMAND\n\n"
          "Designs the network of a GPU cluster for LLM training from a YAML spec:\n"
          "rail-optimized, rail-only or fat-tree Clos fabrics, their bill of materials,\n"
          "cost and build-out files.\n\nCommands:\n", fp);
    for (const ry_command *c = ry_commands; c->name; c++)
        fprintf(fp, "  %-10s %s\n", c->name, c->summary);
    fputs("\nCommon options (before or after the command):\n"
          "  -T, --templates DIR   catalog directory (default $RAILYARD_TEMPLATES, then the\n"
          "                        installed one)\n"
          "  -s, --set KEY=VALUE   override a spec key, e.g. --set cluster.gpus=65536\n"
          "  -h, --help            this help\n"
          "  -V, --version         version\n\n"
          "Exit status: 0 ok, 1 bad input, 2 usage, 3 I/O error, 4 internal error.\n"
          "See railyard(1) and railyard-spec(5).\n", fp);
}

int main(int argc, char **argv)
{
    static ry_global g;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        int r = ry_global_option(&g, argc, argv, &i);
        if (r < 0)
            return RY_EXIT_USAGE;
        if (r > 0)
            continue;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return RY_EXIT_OK;
        }
        if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            printf("railyard %s\n", PACKAGE_VERSION);
            return RY_EXIT_OK;
        }
        if (a[0] == '-') {
            fprintf(stderr, "railyard: unknown option '%s'\nTry 'railyard --help'.\n", a);
            return RY_EXIT_USAGE;
        }
        break;
    }
    if (i >= argc) {
        usage(stderr);
        return RY_EXIT_USAGE;
    }
    const char *name = argv[i];
    if (strcmp(name, "help") == 0) {
        if (i + 1 >= argc) {
            usage(stdout);
            return RY_EXIT_OK;
        }
        const ry_command *c = ry_command_find(argv[i + 1]);
        if (!c) {
            fprintf(stderr, "railyard: no command '%s'\nTry 'railyard --help'.\n", argv[i + 1]);
            return RY_EXIT_USAGE;
        }
        ry_command_usage(c, stdout);
        return RY_EXIT_OK;
    }
    const ry_command *c = ry_command_find(name);
    if (!c) {
        fprintf(stderr, "railyard: no command '%s'\nTry 'railyard --help'.\n", name);
        return RY_EXIT_USAGE;
    }
    return c->run(&g, argc - i, argv + i);
}
