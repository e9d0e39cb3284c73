#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/route_check.h"
#include "cmd/cmd.h"
#include "emit/report/emit_route_check.h"
#include "ibfmt/lftfile.h"
#include "ibfmt/netfile.h"
#include "util/buf.h"
#include "util/diag.h"

enum { O_LFTS, O_TOPOLOGY, O_FORMAT, O_JSON, O_SHIFTS, O_MAX_REPORT, O_UPDOWN, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_LFTS] = { "lfts", 0, RY_OPT_VALUE, "FILE", NULL,
                 "the LFTs: railyard's lfts.dump, OpenSM's opensm-lfts.dump\n"
                 "or dump_fts output" },
    [O_TOPOLOGY] = { "topology", 0, RY_OPT_VALUE, "FILE", NULL,
                     "the topology, ibnetdiscover or ibsim netfile format" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|json|csv", "text (default), json, or csv: one row per check"),
    [O_JSON] = { "json", 0, RY_OPT_FLAG, NULL, NULL, "the same as --format json" },
    [O_SHIFTS] = { "shifts", 0, RY_OPT_VALUE, "all|N", NULL,
                   "shift permutations to measure: all, or N evenly spaced\n"
                   "(default all up to 4096 end ports, else 256; 0 for none)" },
    [O_MAX_REPORT] = { "max-report", 0, RY_OPT_VALUE, "N", NULL,
                       "failing routes listed per check (default 10)" },
    [O_UPDOWN] = { "updown", 0, RY_OPT_FLAG, NULL, NULL,
                   "judge against up*-down* paths (tables routed around\n"
                   "failures): a pair with no such path may go unrouted\n"
                   "(counted apart), a route is minimal when no up-down\n"
                   "path is shorter" },
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status parse_count(const ry_ctx *ctx, int row, int *out)
{
    const char *v = ry_opt(ctx, row);
    char *end;
    if (!v)
        return RY_CMD_OK;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end != '\0' || x < 0 || x > 1000000000L)
        return ry_usage(ctx, "--%s takes a whole number (got '%s')", options[row].name, v);
    *out = (int)x;
    return RY_CMD_OK;
}

static ry_cmd_status parse_opts(const ry_ctx *ctx, ry_rc_opts *opts)
{
    opts->shifts = RY_RC_SHIFTS_AUTO;
    opts->max_report = 10;
    opts->updown = ry_flag(ctx, O_UPDOWN);
    const char *shifts = ry_opt(ctx, O_SHIFTS);
    ry_cmd_status rc = RY_CMD_OK;
    if (shifts && strcmp(shifts, "all") == 0)
        opts->shifts = RY_RC_SHIFTS_ALL;
    else if ((rc = parse_count(ctx, O_SHIFTS, &opts->shifts)))
        return rc;
    if (ry_flag(ctx, O_JSON) && ctx->fmt != RY_FMT_JSON && ry_opt(ctx, O_FORMAT))
        return ry_usage(ctx, "--json and --format %s say different things", ry_opt(ctx, O_FORMAT));
    return parse_count(ctx, O_MAX_REPORT, &opts->max_report);
}

static ry_cmd_status check(ry_ctx *ctx)
{
    ry_rc_opts opts;
    ry_cmd_status rc = parse_opts(ctx, &opts);
    if (rc)
        return rc;
    if (ry_flag(ctx, O_JSON))
        ctx->fmt = RY_FMT_JSON;
    if (!ctx->arg && !ry_opt(ctx, O_TOPOLOGY))
        return ry_usage(ctx, "missing PATH");
    return RY_CMD_OK;
}

/* The topology and LFT files: PATH is a subnet directory (topology.net,
 * lfts.dump) or a topology file; --topology and --lfts name them too. */
static ry_cmd_status find_files(const ry_ctx *ctx, ry_buf *topo, ry_buf *lfts)
{
    const char *path = ctx->arg, *t = ry_opt(ctx, O_TOPOLOGY), *l = ry_opt(ctx, O_LFTS);
    if (path) {
        struct stat sb;
        if (stat(path, &sb) < 0) {
            ry_error("cannot read '%s': %s", path, strerror(errno));
            return RY_CMD_IO;
        }
        if (S_ISDIR(sb.st_mode)) {
            const char *sep = path[strlen(path) - 1] == '/' ? "" : "/";
            if (!t)
                ry_buf_printf(topo, "%s%stopology.net", path, sep);
            if (!l)
                ry_buf_printf(lfts, "%s%slfts.dump", path, sep);
        } else if (t) {
            return ry_usage(ctx, "PATH '%s' is a topology file and --topology names another",
                            path);
        } else {
            t = path;
        }
    }
    if (t)
        ry_buf_puts(topo, t);
    if (l)
        ry_buf_puts(lfts, l);
    if (!lfts->len)
        return ry_usage(ctx, "missing the forwarding tables: PATH is a file, so --lfts FILE "
                        "is needed");
    return RY_CMD_OK;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_rc_opts opts;
    parse_opts(ctx, &opts);
    ry_buf topo, lfts;
    ry_buf_init(&topo);
    ry_buf_init(&lfts);
    ry_netfile nf;
    ry_lft lft;
    memset(&nf, 0, sizeof nf);
    memset(&lft, 0, sizeof lft);
    ry_cmd_status rc = find_files(ctx, &topo, &lfts);
    if (rc == RY_CMD_OK)
        rc = (ry_cmd_status)ry_netfile_load(topo.data, &nf);
    if (rc == RY_CMD_OK)
        rc = (ry_cmd_status)ry_lft_load(lfts.data, &nf, &lft);
    ry_rc_result res;
    ry_err err;
    if (rc == RY_CMD_OK && ry_route_check(&nf, &lft, &opts, &res, &err) < 0) {
        ry_error("%s: %s", nf.path, err.msg);
        rc = RY_CMD_INPUT;
    } else if (rc == RY_CMD_OK) {
        ry_buf out;
        ry_buf_init(&out);
        ry_emit_route_check(&out, &nf, &lft, &res, ctx->fmt);
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
        if (rc == RY_CMD_OK && !ry_route_check_ok(&res))
            rc = RY_CMD_CHECKS;
        ry_buf_free(&out);
        ry_route_check_free(&res);
    }
    ry_lft_free(&lft);
    ry_netfile_free(&nf);
    ry_buf_free(&topo);
    ry_buf_free(&lfts);
    return rc;
}

const ry_cmd_entry ry_cmd_check_routes = {
    .name = "check-routes",
    .synopsis = "PATH [--lfts FILE] [--topology FILE] [--format text|json|csv] [--shifts all|N] "
                "[--updown] [-o FILE [--force]]",
    .summary = "prove a subnet's routing tables deliver, loop-free, minimal and deadlock-free",
    .positional = "PATH",
    .positional_optional = 1,
    .options = options,
    .details = "PATH is a subnet directory holding topology.net and lfts.dump (as\n"
               "DIR/opensm/<subnet>/), or a topology file (then --lfts).\n"
               "Reads only the files, not the spec. Follows every end port's route to every\n"
               "end-port LID: each must arrive, never revisit a switch and take a shortest\n"
               "path, and the routes must have no credit loop. Also reports routes per link\n"
               "by tier and the busiest link under shift permutations. With --updown (for\n"
               "tables routed around failures) switches are ranked by hops from the leaves,\n"
               "a pair with no up*-down* path may go unrouted and is counted apart, and a\n"
               "route is minimal when no up*-down* path is shorter. Exits 5 when a check\n"
               "fails, 1 when a file is malformed or the topology has no end port.\n",
    .check = check,
    .run = run,
};
