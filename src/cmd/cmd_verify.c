#include <stdlib.h>
#include <string.h>

#include "analysis/verify.h"
#include "cmd/cmd.h"
#include "emit/emit_verify.h"
#include "ibfmt/netfile.h"
#include "util/buf.h"
#include "util/diag.h"

enum { O_FORMAT, O_JSON, O_WORK_ORDER, O_IGNORE_RATES, O_OUTPUT, O_N };
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

static ry_cmd_status run(ry_ctx *ctx)
{
    ry_netfile *nf = ry_xcalloc((size_t)ctx->nmore, sizeof *nf);
    ry_cmd_status rc = load_fabrics(ctx, nf);
    ry_verify v;
    ry_err err;
    memset(&v, 0, sizeof v);
    unsigned flags = ry_flag(ctx, O_IGNORE_RATES) ? RY_VERIFY_NO_RATES : 0;
    if (rc == RY_CMD_OK && ry_verify_run(&ctx->fabric, nf, ctx->nmore, flags, &v, &err) < 0) {
        ry_verify_print_error(&v, &err);
        rc = RY_CMD_INPUT;
    }
    ry_buf out;
    ry_buf_init(&out);
    const char *wo = ry_opt(ctx, O_WORK_ORDER);
    if (rc == RY_CMD_OK && wo) {
        ry_emit_work_order(&out, &v, &ctx->phys.lay);
        rc = ry_write_output(ctx, wo, out.data, out.len);
        ry_buf_reset(&out);
    }
    if (rc == RY_CMD_OK) {
        ry_emit_verify(&out, &v, &ctx->ibplan, &ctx->phys.lay, ctx->fmt);
        rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    }
    if (rc == RY_CMD_OK && v.nfindings > 0)
        rc = RY_CMD_CHECKS;
    ry_buf_free(&out);
    ry_verify_free(&v);
    for (int k = 0; k < ctx->nmore; k++)
        ry_netfile_free(&nf[k]);
    free(nf);
    return rc;
}

const ry_cmd_entry ry_cmd_verify = {
    .name = "verify",
    .synopsis = "SPEC FABRIC... [--format text|json] [--work-order FILE] [--ignore-rates] "
                "[-o FILE]",
    .summary = "compare the fabric as built (ibnetdiscover's output) with the plan",
    .positional = "SPEC",
    .more_positional = "FABRIC",
    .checks_exit_1 = 1,
    .options = options,
    .details = "FABRIC is what ibnetdiscover prints for a subnet of the plan (its default\n"
               "format), one file per subnet, as many as are at hand. NICs are recognised by\n"
               "their NodeDescription (\"node001 mlx5_0\"), switches by their description when\n"
               "it names a planned switch, else by which planned devices hang off them.\n"
               "Findings: missing, unexpected, miswired (port-swap, rail-swap, plane-swap,\n"
               "unit-swap, uplink, other), degraded, unknown-device; each with the cable's\n"
               "label, the fix and what it costs.\n"
               "When the files cannot be compared with the plan (nothing of it placed, too\n"
               "few hosts named as the plan names them, a device identity twice, a switch\n"
               "of another subnet), one error says why and which naming.* key would help.\n"
               "Exit status: 0 when every cable is as planned, 1 when there are findings,\n"
               "2 when the spec, a FABRIC file or the command line is wrong or nothing can\n"
               "be compared, 3 when a file cannot be read or written.\n",
    .needs = RY_NEED_IBPLAN | RY_NEED_CABLING,
    .check = check,
    .run = run,
};
