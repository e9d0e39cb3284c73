#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "net/eth_routes.h"
#include "analysis/failure.h"
#include "cmd/cmd.h"
#include "fabric/names.h"

enum { O_OUTPUT, O_FORCE, O_CHECK, O_FAIL, O_N };
static const ry_option options[] = {
    [O_OUTPUT] = RY_OPTION_OUTPUT_DIR("output directory; files go to DIR/ethernet/"),
    [O_FORCE] = RY_OPTION_FORCE,
    [O_CHECK] = { "check-routes", 0, RY_OPT_VALUE, "TABLES", NULL,
                  "compare the switches' kernel forwarding tables (TABLES/<switch>.json,\n"
                  "ip -j route show) with the routes the configs make; writes nothing" },
    [O_FAIL] = { "fail", 0, RY_OPT_LIST, "ELEMENT", NULL,
                 "with --check-routes: a switch or cable that is down (as whatif\n"
                 "names them; repeatable)" },
    [O_N] = RY_OPTION_END
};

static ry_cmd_status check(ry_ctx *ctx)
{
    if (ry_opt(ctx, O_CHECK) && ctx->out)
        return ry_usage(ctx, "--check-routes writes nothing: leave out -o");
    if (!ry_opt(ctx, O_CHECK) && !ctx->out)
        return ry_usage(ctx, "missing -o DIR (or --check-routes TABLES)");
    if (ctx->given[O_FAIL] && !ry_opt(ctx, O_CHECK))
        return ry_usage(ctx, "--fail goes with --check-routes");
    return RY_CMD_OK;
}

/* The failures of --fail as a failure set; -1 after an error. */
static int apply_fails(ry_ctx *ctx, ry_failure *fs)
{
    const ry_fabric *f = &ctx->fabric;
    ry_name_index *ix = ry_name_index_new(f);
    int bad = 0;
    for (int i = 0; i < ctx->given[O_FAIL]; i++) {
        const char *list = ctx->list[O_FAIL][i];
        for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
            char one[128];
            snprintf(one, sizeof one, "%.*s", (int)strcspn(p, ","), p);
            ry_fail_elem e;
            ry_err err;
            if (ry_fail_elem_parse(f, ix, one, &e, &err) < 0) {
                ry_error("--fail %s: %s", one, err.msg);
                bad = 1;
                continue;
            }
            ry_failure_apply(f, &e, 1, fs);
        }
    }
    ry_name_index_free(ix);
    return bad ? -1 : 0;
}

static ry_cmd_status run_check(ry_ctx *ctx)
{
    const ry_fabric *f = &ctx->fabric;
    const char *dir = ry_opt(ctx, O_CHECK);
    ry_failure *fs = ry_failure_new(f);
    if (apply_fails(ctx, fs) < 0) {
        ry_failure_free(fs);
        return RY_CMD_USAGE;
    }
    size_t nsw = f->nnodes - f->first_switch;
    ry_kroutes *t = ry_xcalloc(nsw ? nsw : 1, sizeof *t);
    ry_cmd_status rc = RY_CMD_OK;
    char name[96], path[4096];
    for (size_t i = 0; i < nsw && rc == RY_CMD_OK; i++) {
        uint32_t id = f->first_switch + (uint32_t)i;
        if (fs->node_down[id])
            continue;
        ry_node_name(f, id, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s.json", dir, name);
        struct stat st;
        if (stat(path, &st) < 0 && errno == ENOENT) {
            ry_error("%s: no forwarding table of %s (ip -j route show in %s, saved as "
                     "<switch>.json)", path, name, name);
            rc = RY_CMD_INPUT;
            break;
        }
        int r = ry_kroutes_read(path, &t[i]);
        if (r < 0)
            rc = r == -2 ? RY_CMD_IO : RY_CMD_INPUT;
    }
    if (rc == RY_CMD_OK) {
        ry_eth_check c;
        ry_eth_check_tables(&ctx->ethplan, t, fs->node_down, fs->link_down, &c);
        printf("%s: %lld switch tables, %lld routes planned: %lld agree, %lld missing, %lld over "
               "other ports, %lld not planned", ctx->spec->name, c.tables, c.routes, c.agree,
               c.missing, c.differ, c.extra);
        if (c.foreign)
            printf(" (%lld outside the plan's pools, not judged)", c.foreign);
        printf("\n");
        for (int i = 0; i < c.nshown; i++)
            printf("  %s\n", c.shown[i]);
        if (c.missing + c.differ + c.extra > c.nshown)
            printf("  ... and %lld more\n", c.missing + c.differ + c.extra - c.nshown);
        rc = c.missing || c.differ || c.extra ? RY_CMD_CHECKS : RY_CMD_OK;
    }
    for (size_t i = 0; i < nsw; i++)
        ry_kroutes_free(&t[i]);
    free(t);
    ry_failure_free(fs);
    return rc;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    if (ry_opt(ctx, O_CHECK))
        return run_check(ctx);
    /* the cable lengths of the plan, for CABLE_LENGTH; without a plan
     * (media the catalog lacks) SONiC's lengths by role */
    ry_err err;
    if (ry_ctx_try_cabling(ctx, &err) == -2)
        return RY_CMD_INPUT;
    return ry_run_group(ctx, "ethernet");
}

const ry_cmd_entry ry_cmd_ethernet = {
    .name = "ethernet",
    .synopsis = "SPEC -o DIR [--force] | SPEC --check-routes TABLES [--fail ELEMENT]...",
    .summary = "FRR and SONiC switch configs, host addressing and RoCE QoS of an Ethernet fabric",
    .positional = "SPEC",
    .options = options,
    .details = "Writes DIR/ethernet/: switches/<switch>/frr.conf (eBGP unnumbered on every fabric\n"
               "link, BFD, the ASN and loopback of the plan, maximum-paths the planned ECMP\n"
               "width, host links announced), switches/<switch>/config_db.json (the same as\n"
               "SONiC's CONFIG_DB: ports, breakouts, interfaces, unnumbered BGP_NEIGHBOR, RoCE\n"
               "QoS), hosts/<host>.yaml (netplan) and hosts/<host>.sh\n"
               "(the same as ip commands: a /31 per NIC port, a routing table and rule per NIC\n"
               "port), hosts/<host>.qos.sh (the NICs' RoCE QoS), hosts/<host>.nccl.conf (NCCL on\n"
               "the RoCE class: traffic class, GID family, NICs in rail order), asn-plan.csv,\n"
               "addresses.csv and summary.txt. ASNs follow RFC 7938: a leaf its own, a block of a middle\n"
               "tier one, the top tier one per network. The spec's ethernet: section sets the\n"
               "pools, the ASN base, IPv6 and the QoS profile (railyard-spec(5)).\n"
               "--check-routes reads each switch's IPv4 forwarding table and compares every\n"
               "BGP route to a loopback or host link with the next hops BGP takes on the planned\n"
               "fabric (with --fail, on what is left): exit 5 when one differs.\n",
    .needs = RY_NEED_ETHPLAN,
    .check = check,
    .run = run,
};
