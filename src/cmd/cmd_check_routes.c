#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/route_check.h"
#include "cmd/cmd.h"
#include "emit/outdir.h"
#include "ibfmt/lftfile.h"
#include "ibfmt/netfile.h"
#include "util/buf.h"
#include "util/diag.h"

static int parse_count(const ry_command *c, const char *opt, const char *v, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end != '\0' || x < 0 || x > 1000000000L)
        return ry_usage_error(c, "%s takes a whole number (got '%s')", opt, v);
    *out = (int)x;
    return 0;
}

int ry_cmd_check_routes(ry_global *g, int argc, char **argv)
{
    const ry_command *c = ry_command_find("check-routes");
    const char *path = NULL, *topo = NULL, *lfts = NULL, *output = NULL;
    int json = 0;
    ry_rc_opts opts = { RY_RC_SHIFTS_AUTO, 10 };
    const char *shifts = NULL, *max_report = NULL;
    const ry_optspec popts[] = {
        { "--lfts", NULL, &lfts, NULL },          { "--topology", NULL, &topo, NULL },
        { "--output", "-o", &output, NULL },      { "--shifts", NULL, &shifts, NULL },
        { "--max-report", NULL, &max_report, NULL }, { "--json", NULL, NULL, &json },
        { NULL, NULL, NULL, NULL }
    };
    int prc = ry_cmd_parse(g, c, argc, argv, popts, &path);
    if (prc >= 0)
        return prc;
    if (shifts) {
        if (strcmp(shifts, "all") == 0)
            opts.shifts = RY_RC_SHIFTS_ALL;
        else if (parse_count(c, "--shifts", shifts, &opts.shifts))
            return RY_EXIT_USAGE;
    }
    if (max_report && parse_count(c, "--max-report", max_report, &opts.max_report))
        return RY_EXIT_USAGE;

    /* PATH is a subnet directory (topology.net, lfts.dump) or a topology file */
    char *dtopo = NULL, *dlfts = NULL;
    if (path) {
        struct stat sb;
        if (stat(path, &sb) < 0) {
            ry_error("cannot read '%s': %s", path, strerror(errno));
            return RY_EXIT_IO;
        }
        if (S_ISDIR(sb.st_mode)) {
            size_t n = strlen(path) + 16;
            dtopo = ry_xmalloc(n);
            dlfts = ry_xmalloc(n);
            const char *sep = path[strlen(path) - 1] == '/' ? "" : "/";
            snprintf(dtopo, n, "%s%stopology.net", path, sep);
            snprintf(dlfts, n, "%s%slfts.dump", path, sep);
            if (!topo)
                topo = dtopo;
            if (!lfts)
                lfts = dlfts;
        } else if (topo) {
            return ry_usage_error(c, "PATH '%s' is a topology file and --topology names another",
                                  path);
        } else {
            topo = path;
        }
    }
    if (!topo && !lfts)
        return ry_usage_error(c, "missing PATH");
    if (!topo)
        return ry_usage_error(c, "missing the topology: give PATH or --topology FILE");
    if (!lfts) {
        return ry_usage_error(c, "missing the forwarding tables: PATH is a file, so --lfts FILE "
                              "is needed");
    }

    ry_netfile nf;
    ry_lft lft;
    memset(&lft, 0, sizeof lft);
    int rc = ry_netfile_load(topo, &nf);
    if (rc == RY_EXIT_OK)
        rc = ry_lft_load(lfts, &nf, &lft);
    if (rc == RY_EXIT_OK) {
        ry_rc_result res;
        ry_route_check(&nf, &lft, &opts, &res);
        ry_buf out;
        ry_buf_init(&out);
        if (json)
            ry_route_check_json(&out, &nf, &lft, &res);
        else
            ry_route_check_text(&out, &nf, &lft, &res);
        if (ry_write_file_atomic(output, out.data, out.len) < 0)
            rc = RY_EXIT_IO;
        else if (!ry_route_check_ok(&res))
            rc = RY_EXIT_INPUT;
        ry_buf_free(&out);
        ry_route_check_free(&res);
    }
    ry_lft_free(&lft);
    ry_netfile_free(&nf);
    free(dtopo);
    free(dlfts);
    return rc;
}
