#include <stdlib.h>
#include <string.h>

#include "analysis/verify.h"
#include "analysis/verify_lldp.h"
#include "cmd/cmd.h"
#include "io/outdir.h"
#include "emit/report/emit_verify.h"
#include "ibfmt/netfile.h"
#include "netfmt/lldp.h"
#include "util/buf.h"
#include "util/diag.h"

enum { O_FORMAT, O_JSON, O_WORK_ORDER, O_IGNORE_RATES, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default), or json: verified,\n"
                                               "as_planned, findings, switches"),
    [O_JSON] = { "json", 0, RY_OPT_FLAG, NULL, NULL, "the same as --format json" },
    [O_WORK_ORDER] = { "work-order", 0, RY_OPT_VALUE, "FILE", NULL,
                       "also write the work order: a CSV with one physical\n"
                       "action per row, in the order of the racks, devices\n"
                       "and ports named as in cabling.csv" },
    [O_IGNORE_RATES] = { "ignore-rates", 0, RY_OPT_FLAG, NULL, NULL,
                         "do not compare link widths and speeds (a simulator\n"
                         "reports one rate for every link)" },
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

static ry_cmd_status check(ry_ctx *ctx)
{
    if (ry_flag(ctx, O_JSON) && ry_opt(ctx, O_FORMAT) && ctx->fmt != RY_FMT_JSON)
        return ry_usage(ctx, "--json and --format %s say different things", ry_opt(ctx, O_FORMAT));
    if (ry_flag(ctx, O_JSON))
        ctx->fmt = RY_FMT_JSON;
    if (ctx->fmt == RY_FMT_CSV)
        return ry_usage(ctx, "--format takes text or json (the work order is the CSV)");
    /* the second output under -o FILE's rule, asked before either is written */
    if (ry_opt(ctx, O_WORK_ORDER) && ry_output_file_check(ry_opt(ctx, O_WORK_ORDER),
                                                          ry_out_flags(ctx)) < 0)
        return RY_CMD_IO;
    return RY_CMD_OK;
}

static ry_cmd_status load_fabrics(const ry_ctx *ctx, ry_netfile *nf)
{
    ry_cmd_status rc = RY_CMD_OK;
    for (int k = 0; k < ctx->nmore; k++) {
        int r = ry_netfile_load_flags(ctx->more[k], &nf[k], RY_NF_LIDS_OPTIONAL);
        if (r == RY_EXIT_IO)
            rc = RY_CMD_IO;
        else if (r != RY_EXIT_OK && rc == RY_CMD_OK)
            rc = RY_CMD_INPUT;
    }
    return rc;
}

/* An Ethernet fabric's LLDP tables, one per device, into one graph. */
static ry_cmd_status load_lldp(const ry_ctx *ctx, ry_netfile *nf)
{
    ry_lldp *t = ry_xcalloc((size_t)ctx->nmore, sizeof *t);
    ry_cmd_status rc = RY_CMD_OK;
    for (int k = 0; k < ctx->nmore; k++) {
        int r = ry_lldp_read(ctx->more[k], &t[k]);
        if (r == -2)
            rc = RY_CMD_IO;
        else if (r < 0 && rc == RY_CMD_OK)
            rc = RY_CMD_INPUT;
    }
    for (int k = 0; k < ctx->nmore && rc == RY_CMD_OK; k++)
        for (int j = 0; j < k; j++)
            if (strcmp(t[j].local, t[k].local) == 0) {
                ry_error_at((ry_pos){ t[k].path, 1, 1 }, "a table of %s again (%s is one); "
                            "expected one table per device", t[k].local, t[j].path);
                rc = RY_CMD_INPUT;
                break;
            }
    ry_err err;
    ry_pos at;
    if (rc == RY_CMD_OK && ry_lldp_graph(&ctx->ethplan, t, ctx->nmore, nf, &err, &at) < 0) {
        ry_error_at(at, "%s", err.msg);
        rc = RY_CMD_INPUT;
    }
    for (int k = 0; k < ctx->nmore; k++)
        ry_lldp_free(&t[k]);
    free(t);
    return rc;
}

static int is_ethernet(const ry_ctx *ctx)
{
    return ry_spec_is_ethernet(ctx->spec);
}

static unsigned needs_more(const ry_ctx *ctx)
{
    return is_ethernet(ctx) ? RY_NEED_ETHPLAN : RY_NEED_IBPLAN;
}

/* The files' kind: every one LLDP (an Ethernet fabric) or none. */
static ry_cmd_status kind_of_files(const ry_ctx *ctx, int *lldp)
{
    int n = 0;
    for (int k = 0; k < ctx->nmore; k++) {
        int r = ry_lldp_sniff(ctx->more[k]);
        /* a file that cannot be read is taken as the spec's kind: its
         * reader then says why (exit 3) */
        n += r == 1 || (r < 0 && is_ethernet(ctx));
    }
    *lldp = n > 0;
    if (n > 0 && n < ctx->nmore) {
        ry_error("%d of the %d files are LLDP tables, the others not; expected LLDP tables of "
                 "an Ethernet fabric, or ibnetdiscover's output of an InfiniBand one", n,
                 ctx->nmore);
        return RY_CMD_INPUT;
    }
    if (*lldp != is_ethernet(ctx)) {
        ry_error("%s are read for %s fabric; %s is %s", *lldp ? "LLDP tables" : "ibnetdiscover's "
                 "files", *lldp ? "an Ethernet" : "an InfiniBand", ctx->spec->name,
                 is_ethernet(ctx) ? "Ethernet: give lldpcli -f json show neighbors or SONiC's "
                 "show lldp table of each switch" : "InfiniBand: give ibnetdiscover's output");
        return RY_CMD_INPUT;
    }
    return RY_CMD_OK;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_netfile *nf = ry_xcalloc((size_t)ctx->nmore, sizeof *nf);
    int lldp = 0;
    ry_cmd_status rc = kind_of_files(ctx, &lldp);
    int nnf = lldp ? 1 : ctx->nmore;
    if (rc == RY_CMD_OK)
        rc = lldp ? load_lldp(ctx, nf) : load_fabrics(ctx, nf);
    ry_verify v;
    ry_err err;
    memset(&v, 0, sizeof v);
    unsigned flags = ry_flag(ctx, O_IGNORE_RATES) || lldp ? RY_VERIFY_NO_RATES : 0;
    if (lldp)
        flags |= RY_VERIFY_ROUTED;  /* railyard's Ethernet fabrics route: BGP, a /31 a link */
    if (rc == RY_CMD_OK && ry_verify_run_hinted(&ctx->fabric, nf, nnf, flags, ry_spec_accepts, ctx, &v, &err) < 0) {
        ry_verify_print_error(&v, &err);
        rc = RY_CMD_INPUT;
    }
    if (lldp)
        v.eth = &ctx->ethplan;
    ry_buf out;
    ry_buf_init(&out);
    const char *wo = ry_opt(ctx, O_WORK_ORDER);
    if (rc == RY_CMD_OK && wo) {
        ry_emit_work_order(&out, &v, &ctx->phys.lay);
        rc = ry_write_output(ctx, wo, out.data, out.len);
        ry_buf_reset(&out);
    }
    if (rc == RY_CMD_OK) {
        ry_emit_verify(&out, &v, lldp ? NULL : &ctx->ibplan, &ctx->phys.lay, ctx->fmt);
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    }
    if (rc == RY_CMD_OK && v.nfindings > 0)
        rc = RY_CMD_CHECKS;
    ry_buf_free(&out);
    ry_verify_free(&v);
    for (int k = 0; k < nnf; k++)
        ry_netfile_free(&nf[k]);
    free(nf);
    return rc;
}

const ry_cmd_entry ry_cmd_verify = {
    .name = "verify",
    .synopsis = "SPEC FABRIC... [--format text|json] [--work-order FILE] [--ignore-rates] "
                "[-o FILE [--force]]",
    .summary = "compare the fabric as built (ibnetdiscover's output, LLDP tables) with the plan",
    .positional = "SPEC",
    .more_positional = "FABRIC",
    .checks_exit_1 = 1,
    .options = options,
    .details = "FABRIC is what ibnetdiscover prints for a subnet of the plan (its default\n"
               "format), one file per subnet, as many as are at hand. NICs are recognised by\n"
               "their NodeDescription (\"node001 mlx5_0\"), switches by their description when\n"
               "it names a planned switch, else by which planned devices hang off them.\n"
               "For an Ethernet fabric, FABRIC is a switch's LLDP table: lldpcli -f json show\n"
               "neighbors or SONiC's show lldp table, named after the switch (leaf3.json).\n"
               "Findings: missing, unexpected, miswired (port-swap, rail-swap, plane-swap,\n"
               "unit-swap, uplink, other), degraded, unknown-device; each with the cable's\n"
               "label, the fix and what it costs.\n"
               "When the files cannot be compared with the plan (nothing of it placed, too\n"
               "few hosts named as the plan names them, a device identity twice, a switch\n"
               "of another subnet), one error says why and which naming.* key would help.\n"
               "Exit status: 0 when every cable is as planned, 1 when there are findings,\n"
               "2 when the spec, a FABRIC file or the command line is wrong or nothing can\n"
               "be compared, 3 when a file cannot be read or written.\n",
    .needs = RY_NEED_CABLING,
    .needs_more = needs_more,
    .check = check,
    .run = run,
};
