#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/report/emit_collective.h"
#include "net/collective.h"
#include "net/flow.h"
#include "spec/libra_words.h"
#include "util/alloc.h"
#include "util/buf.h"

/* A collective as nccl-tests measures it, on the fabric as built: the
 * spec's network: section gives the routing, queue pairs, placement and
 * channels; the options override it. */

enum { O_OP, O_BYTES, O_RANKS, O_SHIFT, O_PLACEMENT, O_ROUTING, O_QPS, O_HASH_QP, O_CHANNELS,
       O_NO_PXN, O_ALGO, O_SHARP, O_NVLS, O_HIER, O_JOBS, O_FABRIC, O_LFTS, O_SWEEP, O_FORMAT, O_OUTPUT, O_FORCE, O_N };
static const ry_option options[] = {
    [O_OP] = { "op", 0, RY_OPT_CHOICE, "OP", "all-reduce|all-gather|reduce-scatter|all-to-all|sendrecv",
               "the collective (required)" },
    [O_BYTES] = { "bytes", 0, RY_OPT_VALUE, "SIZE", NULL,
                  "its size S (required): bytes, or with a unit: kB MB GB TB\n"
                  "(powers of 1000), KiB MiB GiB TiB, or K M G T as nccl-tests'\n"
                  "-b/-e (powers of 1024)" },
    [O_RANKS] = { "ranks", 0, RY_OPT_VALUE, "N", NULL, "GPUs of the job (default: every GPU)" },
    [O_SHIFT] = { "shift", 0, RY_OPT_VALUE, "K", NULL, "sendrecv: rank i sends to rank i + K (default 1)" },
    [O_PLACEMENT] = { "placement", 0, RY_OPT_VALUE, "HOW", NULL,
                      "the job's nodes: contiguous or scattered[:SEED]\n"
                      "(default: network.placement)" },
    [O_ROUTING] = { "routing", 0, RY_OPT_CHOICE, "MODE", "static|ecmp|adaptive",
                    "how the switches route (default: network.routing)" },
    [O_QPS] = { "qps", 0, RY_OPT_VALUE, "N", NULL,
                "queue pairs per connection (default: network.qps_per_connection)" },
    [O_HASH_QP] = { "hash-qp", 0, RY_OPT_FLAG, NULL, NULL, "ECMP hashes the destination queue pair too" },
    [O_CHANNELS] = { "channels", 0, RY_OPT_VALUE, "C", NULL,
                     "rings of a ring collective (default: network.channels,\n"
                     "else NICs per node x 2)" },
    [O_NO_PXN] = { "no-pxn", 0, RY_OPT_FLAG, NULL, NULL,
                   "cross rails from the source's own NIC, not through\n"
                   "the GPU of the destination's rail (NCCL_PXN_DISABLE=1)" },
    [O_ALGO] = { "algo", 0, RY_OPT_CHOICE, "ALGO", "ring|tree|auto",
                 "all-reduce across nodes: ring, tree (NCCL's double\n"
                 "binary tree) or auto, the faster (default: network.algorithm;\n"
                 "network.sharp and network.nvls reduce in the switches)" },
    [O_SHARP] = { "sharp", 0, RY_OPT_FLAG, NULL, NULL,
                  "all-reduce reduces in the InfiniBand switches (SHARP;\n"
                  "default: network.sharp)" },
    [O_NVLS] = { "nvls", 0, RY_OPT_FLAG, NULL, NULL,
                 "all-reduce reduces in the NVLink switches inside an HB\n"
                 "domain (NVLS; default: network.nvls)" },
    [O_HIER] = { "hierarchical", 0, RY_OPT_FLAG, NULL, NULL,
                 "all-to-all in two steps: inside each HB domain to the GPU at the "
                 "destination's place, then between domains (default: network.all_to_all)" },
    [O_JOBS] = { "jobs", 0, RY_OPT_VALUE, "K", NULL,
                 "K jobs of --ranks each on disjoint nodes, placed alike,\n"
                 "all running the collective at once (default 1)" },
    [O_FABRIC] = { "fabric", 0, RY_OPT_LIST, "FILE", NULL,
                   "ibnetdiscover output of a subnet as built (repeatable):\n"
                   "its missing and miswired cables are down, routed around" },
    [O_LFTS] = { "lfts", 0, RY_OPT_LIST, "FILE", NULL,
                 "the forwarding tables of each --fabric subnet, in its order\n"
                 "(OpenSM's opensm-lfts.dump, dump_lfts or ibroute output):\n"
                 "static routes follow them, not railyard's" },
    [O_SWEEP] = { "sweep", 0, RY_OPT_FLAG, NULL, NULL,
                  "every size from 8 B to SIZE, doubling (nccl-tests -b 8 -e SIZE -f 2)" },
    [O_FORMAT] = RY_OPTION_FORMAT("text|json", "text (default) or json"),
    [O_OUTPUT] = RY_OPTION_OUTPUT_FILE,
    [O_FORCE] = RY_OPTION_FORCE_FILE,
    [O_N] = RY_OPTION_END
};

/* SIZE: ry_libra_parse_bytes' units, or a bare K, M, G or T of 1024 as
 * nccl-tests reads its sizes. 0, or -1 when it is not a size. */
static int parse_size(const char *text, double *out)
{
    if (ry_libra_parse_bytes(text, out) == 0)
        return 0;
    static const char units[] = "KMGT";
    size_t n = strlen(text);
    const char *u = n > 1 ? strchr(units, toupper((unsigned char)text[n - 1])) : NULL;
    if (!u || !*u || !isdigit((unsigned char)text[0]))
        return -1;
    char num[64];
    if (n > sizeof num)
        return -1;
    memcpy(num, text, n - 1);
    num[n - 1] = 0;
    if (ry_libra_parse_bytes(num, out) < 0)
        return -1;
    *out *= pow(1024, (double)(u - units + 1));
    return 0;
}

/* A whole number in lo..hi. */
static int parse_ll(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    if (!text || !*text || isspace((unsigned char)*text))
        return -1;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static ry_cmd_status check(ry_ctx *ctx)
{
    if (!ry_opt(ctx, O_OP))
        return ry_usage(ctx, "--op is required: all-reduce, all-gather, reduce-scatter, all-to-all "
                        "or sendrecv");
    const char *b = ry_opt(ctx, O_BYTES);
    double bytes;
    if (!b)
        return ry_usage(ctx, "--bytes is required: the collective's size, like 8G or 256MiB");
    if (parse_size(b, &bytes) < 0 || !(bytes >= 1) || bytes > 1e18)
        return ry_usage(ctx, "--bytes must be a size from 1 B to 1 EB, like 8G, 256MiB or 1e9 "
                        "(got '%s')", b);
    long long v;
    if (ry_opt(ctx, O_RANKS) && parse_ll(ry_opt(ctx, O_RANKS), 2, RY_MAX_GPUS, &v) < 0)
        return ry_usage(ctx, "--ranks must be a whole number from 2 to %d (got '%s')", RY_MAX_GPUS,
                        ry_opt(ctx, O_RANKS));
    if (ry_opt(ctx, O_SHIFT) && parse_ll(ry_opt(ctx, O_SHIFT), 1, RY_MAX_GPUS, &v) < 0)
        return ry_usage(ctx, "--shift must be a whole number from 1 to %d (got '%s')", RY_MAX_GPUS,
                        ry_opt(ctx, O_SHIFT));
    if (ry_opt(ctx, O_SHIFT) && strcmp(ry_opt(ctx, O_OP), "sendrecv") != 0)
        return ry_usage(ctx, "--shift is sendrecv's (got --op %s)", ry_opt(ctx, O_OP));
    for (int row = O_SHARP; row <= O_NVLS; row++)
        if (ry_flag(ctx, row) && strcmp(ry_opt(ctx, O_OP), "all-reduce") != 0)
            return ry_usage(ctx, "--%s is all-reduce's (got --op %s)", options[row].name,
                            ry_opt(ctx, O_OP));
    if (ry_opt(ctx, O_QPS) && parse_ll(ry_opt(ctx, O_QPS), 1, 64, &v) < 0)
        return ry_usage(ctx, "--qps must be a whole number from 1 to 64 (got '%s')",
                        ry_opt(ctx, O_QPS));
    if (ry_opt(ctx, O_CHANNELS) && parse_ll(ry_opt(ctx, O_CHANNELS), 1, 1024, &v) < 0)
        return ry_usage(ctx, "--channels must be a whole number from 1 to 1024 (got '%s')",
                        ry_opt(ctx, O_CHANNELS));
    if (ry_opt(ctx, O_JOBS) && parse_ll(ry_opt(ctx, O_JOBS), 1, 4096, &v) < 0)
        return ry_usage(ctx, "--jobs must be a whole number from 1 to 4096 (got '%s')",
                        ry_opt(ctx, O_JOBS));
    int sc;
    unsigned long long seed;
    if (ry_opt(ctx, O_PLACEMENT) && ry_spec_placement_parse(ry_opt(ctx, O_PLACEMENT), &sc, &seed) < 0)
        return ry_usage(ctx, "--placement must be contiguous, scattered or scattered:SEED (got '%s')",
                        ry_opt(ctx, O_PLACEMENT));
    return RY_CMD_OK;
}

/* The engine's options: the spec's network: section, then the command line. */
static void net_opts(const ry_ctx *ctx, ry_net_opts *no)
{
    const ry_spec *s = ctx->spec;
    ry_net_opts_default(no);
    no->routing = (ry_net_routing)s->net.routing;
    no->qps = s->net.qps > 0 ? s->net.qps : 1;
    no->hash_qp = s->net.hash_qp;
    no->per_switch_seed = !s->net.same_seed;
    if (ry_opt(ctx, O_ROUTING))
        no->routing = (ry_net_routing)ry_net_routing_parse(ry_opt(ctx, O_ROUTING));
    if (ry_opt(ctx, O_QPS))
        no->qps = atoi(ry_opt(ctx, O_QPS));
    if (ry_flag(ctx, O_HASH_QP))
        no->hash_qp = 1;
}

/* An error of the engine or the collective: against the option that chose
 * it (a usage error), else the spec's key (bad input). */
static ry_cmd_status fail(const ry_ctx *ctx, const ry_err *err)
{
    static const struct {
        const char *key;        /* err->key */
        int row;                /* the option */
        const char *spec_key;   /* the spec's key, or NULL */
    } where[] = {
        { "routing", O_ROUTING, "network.routing" },
        { "network.routing", O_ROUTING, "network.routing" },
        { "qps", O_QPS, "network.qps_per_connection" },
        { "channels", O_CHANNELS, "network.channels" },
        { "ranks", O_RANKS, NULL },
        { "shift", O_SHIFT, NULL },
        { "jobs", O_JOBS, NULL },
        { "algorithm", O_ALGO, "network.algorithm" },
        { "sharp", O_SHARP, "network.sharp" },
        { "nvls", O_NVLS, "network.nvls" },
        { "all_to_all", O_HIER, "network.all_to_all" },
    };
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
        if (strcmp(err->key, where[i].key) == 0) {
            if ((where[i].row >= 0 && ctx->given[where[i].row] > 0) || !where[i].spec_key)
                return ry_usage(ctx, "%s", err->msg);
            ry_spec_error(ctx->spec, where[i].spec_key, "%s", err->msg);
            return RY_CMD_INPUT;
        }
    if (!err->key[0] || strcmp(err->key, "pxn") == 0 || strcmp(err->key, "bytes") == 0)
        ry_error("collective: %s", err->msg);
    else
        ry_spec_error(ctx->spec, err->key, "%s", err->msg);
    return RY_CMD_INPUT;
}

static ry_cmd_status run(ry_ctx *ctx)
{
    const ry_spec *s = ctx->spec;
    const ry_fabric *f = &ctx->fabric;
    ry_err err = { "", "" };
    ry_coll_opts co;
    ry_coll_opts_default(&co);
    co.op = (ry_coll_op)ry_coll_op_parse(ry_opt(ctx, O_OP));
    parse_size(ry_opt(ctx, O_BYTES), &co.bytes);
    long long v;
    if (ry_opt(ctx, O_SHIFT) && parse_ll(ry_opt(ctx, O_SHIFT), 1, RY_MAX_GPUS, &v) == 0)
        co.shift = v;
    co.channels = s->net.channels;
    if (ry_opt(ctx, O_CHANNELS))
        co.channels = atoi(ry_opt(ctx, O_CHANNELS));
    co.pxn = !ry_flag(ctx, O_NO_PXN);
    /* network.algorithm is all-reduce's; --algo tree for another op is refused */
    co.algo = co.op == RY_NCCL_ALL_REDUCE ? s->net.algorithm : RY_ALGO_RING;
    if (ry_opt(ctx, O_ALGO))
        co.algo = ry_coll_algo_parse(ry_opt(ctx, O_ALGO));
    co.sharp = s->net.sharp || ry_flag(ctx, O_SHARP);
    co.nvls = s->net.nvls || ry_flag(ctx, O_NVLS);
    /* network.all_to_all is all-to-all's; --hierarchical for another op is refused */
    co.hierarchical = ry_flag(ctx, O_HIER) || (co.op == RY_NCCL_ALL_TO_ALL && s->net.all_to_all);
    long long njobs = 1;
    if (ry_opt(ctx, O_JOBS) && parse_ll(ry_opt(ctx, O_JOBS), 1, 4096, &v) == 0)
        njobs = v;
    long long ranks = f->gpus;
    if (ry_opt(ctx, O_RANKS) && parse_ll(ry_opt(ctx, O_RANKS), 2, RY_MAX_GPUS, &v) == 0)
        ranks = v;
    if (ranks > f->gpus)
        return ry_usage(ctx, "--ranks %lld is more than the cluster's %lld GPUs", ranks, f->gpus);
    const char *placement = ry_opt(ctx, O_PLACEMENT) ? ry_opt(ctx, O_PLACEMENT) : s->net.placement;
    int scattered = 0;
    unsigned long long seed = 1;
    ry_spec_placement_parse(placement, &scattered, &seed);

    ry_net_opts no;
    net_opts(ctx, &no);
    co.qps = no.qps;
    ry_net *net = ry_net_new(f, &no, &err);
    if (!net)
        return fail(ctx, &err);
    long long ndown = -1;
    ry_net_tables tables;
    memset(&tables, 0, sizeof tables);
    if (ctx->given[O_LFTS] && !ctx->given[O_FABRIC]) {
        ry_net_free(net);
        return ry_usage(ctx, "--lfts goes with --fabric: a table file is read against its "
                        "subnet's topology (ibnetdiscover output)");
    }
    if (ctx->given[O_LFTS] && ctx->given[O_LFTS] != ctx->given[O_FABRIC]) {
        ry_net_free(net);
        return ry_usage(ctx, "--lfts: %d table file%s for %d --fabric file%s: give one a subnet, "
                        "in the order of the topologies", ctx->given[O_LFTS],
                        ctx->given[O_LFTS] == 1 ? "" : "s", ctx->given[O_FABRIC],
                        ctx->given[O_FABRIC] == 1 ? "" : "s");
    }
    if (ctx->given[O_LFTS] && no.routing != RY_NET_STATIC) {
        ry_net_free(net);
        return ry_usage(ctx, "--lfts: the forwarding tables are static routing's; this run "
                        "routes %s", ry_net_routing_name(no.routing));
    }
    if (ctx->given[O_FABRIC]) {
        uint8_t *down = ry_xcalloc(f->nlinks + 1, 1);
        ry_cmd_status st = ry_as_built(f, ctx->list[O_FABRIC], ctx->given[O_FABRIC],
                                       ctx->list[O_LFTS], ctx->given[O_LFTS], down, &tables);
        ndown = 0;
        for (size_t l = 0; st == RY_CMD_OK && l < f->nlinks; l++)
            ndown += down[l];
        if (st == RY_CMD_OK)
            ry_net_set_down(net, NULL, down);
        if (st == RY_CMD_OK && ctx->given[O_LFTS])
            ry_net_set_tables(net, &tables);
        free(down);
        if (st != RY_CMD_OK) {
            ry_net_tables_free(&tables);
            ry_net_free(net);
            return st;
        }
    }
    ry_job *jobs = ry_xcalloc((size_t)njobs, sizeof *jobs);
    ry_coll_result *res = ry_xcalloc((size_t)njobs, sizeof *res);
    ry_cmd_status rc = RY_CMD_OK;
    if (ry_jobs_place(f, (size_t)ranks, (size_t)njobs,
                      scattered ? RY_PLACE_SCATTERED : RY_PLACE_CONTIGUOUS, seed, jobs, &err) < 0) {
        rc = fail(ctx, &err);
        free(jobs);
        jobs = NULL;
    } else if (ry_coll_run_jobs(net, jobs, (size_t)njobs, &co, res, &err) < 0) {
        rc = fail(ctx, &err);
    }
    if (rc != RY_CMD_OK) {
        for (long long j = 0; jobs && j < njobs; j++)
            ry_job_free(&jobs[j]);
        free(jobs);
        free(res);
        ry_net_free(net);
        ry_net_tables_free(&tables);
        return rc;
    }
    /* The table is the slowest job's (the first of them on a tie). */
    long long worst = 0;
    for (long long j = 1; j < njobs; j++)
        if (res[j].time_s > res[worst].time_s)
            worst = j;
    /* The sweep: 8 B doubling up to the size, then the size itself. */
    size_t nrows = 0, cap = 0;
    ry_coll_row *rows = NULL;
    for (double b = 8; ry_flag(ctx, O_SWEEP) && b < co.bytes; b *= 2) {
        RY_ALLOC_GROW(rows, nrows + 1, cap);
        rows[nrows].bytes = b;
        ry_coll_scale(&res[worst], co.bytes, b, &rows[nrows].r);
        nrows++;
    }
    RY_ALLOC_GROW(rows, nrows + 1, cap);
    rows[nrows].bytes = co.bytes;
    rows[nrows++].r = res[worst];
    char bneck[160] = "";
    if (res[worst].net.bottleneck != UINT32_MAX)
        ry_net_resource_name(net, res[worst].net.bottleneck, bneck, sizeof bneck);
    ry_coll_job *jrep = ry_xcalloc((size_t)njobs, sizeof *jrep);
    for (long long j = 0; j < njobs; j++) {
        jrep[j].job = &jobs[j];
        jrep[j].r = res[j];
        jrep[j].gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    }
    ry_coll_report rep = { s->name, co.op, jobs[0].nranks, jobs[0].nodes, placement,
                           ry_net_routing_name(no.routing), no.qps, no.hash_qp, co.pxn,
                           co.shift, rows, nrows, bneck, co.sharp, co.nvls,
                           co.op == RY_NCCL_ALL_REDUCE ? ry_coll_algo_name((ry_coll_algo)co.algo)
                           : co.op == RY_NCCL_ALL_TO_ALL ? (co.hierarchical ? "hierarchical" : "direct")
                           : co.op == RY_NCCL_SENDRECV ? "direct" : "ring",
                           jrep, (size_t)njobs, ndown,
                           ctx->given[O_LFTS] > 0 };
    ry_buf out;
    ry_buf_init(&out);
    ry_emit_collective(&out, &rep, ctx->fmt);
    rc = ry_write_output(ctx, ctx->out, out.data, out.len);
    ry_buf_free(&out);
    free(rows);
    free(jrep);
    for (long long j = 0; j < njobs; j++)
        ry_job_free(&jobs[j]);
    free(jobs);
    free(res);
    ry_net_free(net);
    ry_net_tables_free(&tables);
    return rc;
}

const ry_cmd_entry ry_cmd_collective = {
    .name = "collective",
    .synopsis = "SPEC --op OP --bytes SIZE [--ranks N] [--shift K] [--placement HOW] "
                "[--routing static|ecmp|adaptive] [--qps N] [--hash-qp] [--channels C] [--no-pxn] "
                "[--algo ring|tree|auto] [--sharp] [--nvls] [--hierarchical] [--jobs K] "
                "[--fabric FILE [--lfts FILE]]... "
                "[--sweep] [--format text|json] [-o FILE [--force]]",
    .summary = "a collective's time, algbw and busbw as nccl-tests prints them, on the fabric as built",
    .positional = "SPEC",
    .options = options,
    .details = "The job's ranks are GPUs, placed node by node; their flows are routed as the\n"
               "fabric's switches route them and given max-min fair rates (see\n"
               "doc/network-model.md). Ring collectives (all-reduce, all-gather,\n"
               "reduce-scatter) run C channels, each crossing between nodes on a rail;\n"
               "all-to-all and sendrecv cross rails through the GPU of the destination's\n"
               "rail (PXN) unless --no-pxn. busbw is nccl-tests': algbw x 2(n-1)/n for\n"
               "all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for\n"
               "sendrecv. No latency term: time is linear in the size. All-reduce runs\n"
               "--algo ring or tree (NCCL's double binary tree) across nodes, SHARP in\n"
               "the switches with network.sharp, NVLS in the NVLink switches with\n"
               "network.nvls (or --sharp, --nvls). --hierarchical runs all-to-all in two\n"
               "steps, the NVLink step then the network step, their times added. With\n"
               "--jobs K, K jobs run at once on disjoint nodes; each job's time is shown\n"
               "and the table is the slowest's. With --fabric (ibnetdiscover output, as\n"
               "verify reads it) the cables found missing or moved off their switch are\n"
               "down and the flows go around them; with --lfts (one a --fabric file) the\n"
               "static routes follow the subnet manager's tables as found.\n",
    .needs = RY_NEED_FABRIC,
    .check = check,
    .run = run,
};
