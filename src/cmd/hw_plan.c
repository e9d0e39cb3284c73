/* --fabric, --as-found, --guids and --lids of opensm and build. */
#include <stdlib.h>
#include <string.h>

#include "analysis/hw_guids.h"
#include "analysis/verify.h"
#include "cmd/cmd.h"
#include "emit/report/emit_verify.h"
#include "ibfmt/guidfile.h"
#include "ibfmt/lftfile.h"
#include "ibfmt/netfile.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/diag.h"

ry_hw_args ry_hw_args_of(const ry_ctx *ctx, int first)
{
    ry_hw_args hw = { ctx->list[first], ctx->given[first], ry_flag(ctx, first + 1),
                      ry_opt(ctx, first + 2), ry_opt(ctx, first + 3), ry_flag(ctx, first + 4) };
    return hw;
}

static ry_cmd_status status_of(int exit_code)
{
    return exit_code == RY_EXIT_IO ? RY_CMD_IO : exit_code ? RY_CMD_INPUT : RY_CMD_OK;
}

/* Routes the as-found fabric: the plan is remade on it; what it cannot
 * deliver is listed. */
static ry_cmd_status plan_as_found(ry_ctx *ctx, const ry_verify *v)
{
    ry_err err;
    long long left;
    if (ry_fabric_as_found(v, &ctx->as_found, &left, &err) < 0) {
        ry_error("the fabric as found: %s", err.msg);
        return RY_CMD_INPUT;
    }
    ry_ibplan planned = ctx->ibplan;
    int bad = ry_ibplan_build(&ctx->as_found, &ctx->ibplan, &err) < 0 ||
              ry_ibplan_keep_lids_of(&ctx->ibplan, &planned, &err) < 0;
    ry_ibplan_free(&planned);
    if (bad) {
        ry_error("the fabric as found: %s", err.msg);
        return RY_CMD_INPUT;
    }
    ry_hole *holes = NULL;
    size_t n = ry_as_found_holes(v, &ctx->ibplan, &holes);
    ry_buf b;
    ry_buf_init(&b);
    ry_emit_as_found(&b, v, &ctx->ibplan, left, holes, n);
    fputs(b.data ? b.data : "", stderr);
    ry_buf_free(&b);
    free(holes);
    return RY_CMD_OK;
}

static ry_cmd_status from_fabric(ry_ctx *ctx, const ry_hw_args *hw)
{
    ry_netfile *nf = ry_xcalloc((size_t)hw->nfabric, sizeof *nf);
    ry_cmd_status rc = RY_CMD_OK;
    for (int k = 0; k < hw->nfabric; k++) {
        ry_cmd_status r = status_of(ry_netfile_load_flags(hw->fabric[k], &nf[k],
                                                          RY_NF_LIDS_OPTIONAL));
        if (r > rc)
            rc = r;
    }
    ry_verify v;
    ry_err err;
    memset(&v, 0, sizeof v);
    unsigned flags = hw->ignore_rates ? RY_VERIFY_NO_RATES : 0;
    if (rc == RY_CMD_OK && ry_verify_run_hinted(&ctx->fabric, nf, hw->nfabric, flags,
                                                ry_spec_accepts, ctx, &v, &err) < 0) {
        ry_verify_print_error(&v, &err);
        rc = RY_CMD_INPUT;
    }
    if (rc == RY_CMD_OK && v.nfindings && !hw->as_found) {
        ry_buf b;
        ry_buf_init(&b);
        ry_emit_verify(&b, &v, &ctx->ibplan, &ctx->phys.lay, RY_FMT_TEXT);
        fputs(b.data ? b.data : "", stderr);
        ry_buf_free(&b);
        ry_error("the fabric is not cabled as planned (%zu findings above): fix it and run "
                 "again, or write the files for the fabric as it is with --as-found",
                 v.nfindings);
        rc = RY_CMD_INPUT;
    }
    if (rc == RY_CMD_OK && hw->as_found)
        rc = plan_as_found(ctx, &v);
    if (rc == RY_CMD_OK && ry_hw_guids_from_fabric(&v, &ctx->ibplan, hw->as_found, &err) < 0) {
        ry_error("%s", err.msg);
        rc = RY_CMD_INPUT;
    }
    ry_verify_free(&v);
    for (int k = 0; k < hw->nfabric; k++)
        ry_netfile_free(&nf[k]);
    free(nf);
    return rc;
}

static ry_cmd_status from_inventory(ry_ctx *ctx, const char *path)
{
    ry_inventory inv;
    ry_err err;
    ry_cmd_status rc = status_of(ry_inventory_load(path, &inv));
    if (rc == RY_CMD_OK && ry_hw_guids_from_inventory(&inv, &ctx->ibplan, &err) < 0) {
        ry_error("%s", err.msg);
        rc = RY_CMD_INPUT;
    }
    ry_inventory_free(&inv);
    return rc;
}

static ry_cmd_status keep_lids(ry_ctx *ctx, const char *path)
{
    ry_guid2lid g;
    ry_err err;
    ry_cmd_status rc = status_of(ry_guid2lid_load(path, &g));
    if (rc == RY_CMD_OK && ry_ibplan_keep_lids(&ctx->ibplan, g.guid, g.lid, g.n, 0, &err) < 0) {
        ry_error("%s: %s", path, err.msg);
        rc = RY_CMD_INPUT;
    }
    ry_guid2lid_free(&g);
    return rc;
}

ry_cmd_status ry_hw_check(const ry_ctx *ctx, const ry_hw_args *hw)
{
    if (hw->as_found && !hw->nfabric)
        return ry_usage(ctx, "--as-found routes the fabric given by --fabric");
    if (hw->guids && hw->nfabric)
        return ry_usage(ctx, "--guids and --fabric both give the GUIDs: use one");
    if (hw->ignore_rates && !hw->nfabric)
        return ry_usage(ctx, "--ignore-rates is about the links of --fabric");
    return RY_CMD_OK;
}

unsigned ry_hw_needs(const ry_hw_args *hw)
{
    /* a refused fabric's findings name racks */
    return hw->nfabric ? RY_NEED_CABLING : 0;
}

ry_cmd_status ry_apply_hardware(ry_ctx *ctx, const ry_hw_args *hw)
{
    if (!(ctx->needs & RY_NEED_IBPLAN))
        return RY_CMD_OK;   /* build without the opensm group */
    ry_cmd_status rc = RY_CMD_OK;
    if (hw->nfabric)
        rc = from_fabric(ctx, hw);
    if (rc == RY_CMD_OK && hw->guids)
        rc = from_inventory(ctx, hw->guids);
    if (rc == RY_CMD_OK && hw->lids)
        rc = keep_lids(ctx, hw->lids);
    return rc;
}

void ry_verify_print_error(const ry_verify *v, const ry_err *err)
{
    if (v->why_at.file)
        ry_error_at(v->why_at, "%s", ry_verify_error(v, err));
    else
        ry_error("%s", ry_verify_error(v, err));
}

/* The routing tables of the subnets as built: each file's LFTs (read
 * against its topology) on the planned switches verify placed, each GPU
 * port's LID as the topology gives it. */
static ry_cmd_status tables_of(const ry_fabric *f, const ry_netfile *nf, const ry_verify *v,
                               const char *const *files, const char *const *lfts, int n,
                               ry_net_tables *t)
{
    int max_lid = 0;
    for (int k = 0; k < n; k++)
        max_lid = nf[k].max_lid > max_lid ? nf[k].max_lid : max_lid;
    size_t nsw = f->nnodes - f->first_switch, lids = (size_t)max_lid + 1;
    t->max_lid = max_lid;
    t->gpu_lid = ry_xcalloc((size_t)f->gpus * (size_t)f->planes + 1, sizeof *t->gpu_lid);
    t->port = ry_xmalloc(nsw * lids + 1);
    memset(t->port, 255, nsw * lids + 1);
    t->port_id = ry_xmalloc((nsw * 256 + 1) * sizeof *t->port_id);
    for (size_t i = 0; i < nsw * 256 + 1; i++)
        t->port_id[i] = -1;
    ry_cmd_status rc = RY_CMD_OK;
    for (int k = 0; k < n && rc == RY_CMD_OK; k++) {
        ry_lft lft;
        rc = status_of(ry_lft_load(lfts[k], &nf[k], &lft));
        if (rc == RY_CMD_OK && lft.blocks == 0) {
            ry_error("%s: no switch of %s has a table in it: the tables of another subnet, or "
                     "not a forwarding-table dump (opensm-lfts.dump, dump_lfts, ibroute)",
                     lfts[k], files[k]);
            rc = RY_CMD_INPUT;
        }
        for (int i = 0; rc == RY_CMD_OK && i < nf[k].nnodes; i++) {
            const ry_nf_node *nd = &nf[k].nodes[i];
            for (int r = 0; r < nd->nrec; r++) {
                int pi = nd->port0 + r, pid = v->pmap[k][pi];
                const ry_nf_port *pp = &nf[k].ports[pi];
                if (pid < 0)
                    continue;
                uint32_t owner = f->ports[pid].owner;
                if (owner < f->first_switch && pp->lid > 0 && pp->lid <= 65535)
                    t->gpu_lid[(size_t)owner * (size_t)f->planes +
                               ((uint32_t)pid - f->nodes[owner].port0)] = (uint16_t)pp->lid;
                else if (owner >= f->first_switch && pp->num >= 0 && pp->num < 256)
                    t->port_id[(owner - f->first_switch) * 256 + (size_t)pp->num] = pid;
            }
            int32_t s = v->nmap[k][i];
            if (nd->kind != RY_NF_SWITCH || s < (int32_t)f->first_switch || !lft.row[i])
                continue;
            memcpy(&t->port[((size_t)s - f->first_switch) * lids], lft.row[i],
                   (size_t)nf[k].max_lid + 1);
        }
        ry_lft_free(&lft);
    }
    return rc;
}

ry_cmd_status ry_as_built(const ry_fabric *f, const char *const *files, int n,
                          const char *const *lfts, int nlfts, uint8_t *link_down,
                          ry_net_tables *tables)
{
    if (f->spec && ry_spec_is_ethernet(f->spec)) {
        ry_error("--fabric reads ibnetdiscover's output of an InfiniBand fabric; %s is Ethernet "
                 "(its fabric as found is LLDP's: railyard verify reads it)", f->spec->name);
        return RY_CMD_INPUT;
    }
    ry_netfile *nf = ry_xcalloc((size_t)n + 1, sizeof *nf);
    ry_cmd_status rc = RY_CMD_OK;
    for (int k = 0; k < n; k++) {
        ry_cmd_status x = status_of(ry_netfile_load_flags(files[k], &nf[k], RY_NF_LIDS_OPTIONAL));
        if (x == RY_CMD_IO || (x != RY_CMD_OK && rc == RY_CMD_OK))
            rc = x;
    }
    ry_verify v;
    ry_err err;
    memset(&v, 0, sizeof v);
    if (rc == RY_CMD_OK && ry_verify_run(f, nf, n, RY_VERIFY_NO_RATES, &v, &err) < 0) {
        ry_verify_print_error(&v, &err);
        rc = RY_CMD_INPUT;
    }
    for (size_t l = 0; rc == RY_CMD_OK && l < f->nlinks; l++)
        link_down[l] = v.state[l] == RY_VL_MISSING ||
                       (v.state[l] == RY_VL_MOVED &&
                        ry_port_node(f, f->links[l].lo)->kind != RY_NODE_GPU);
    if (rc == RY_CMD_OK && nlfts)
        rc = tables_of(f, nf, &v, files, lfts, n, tables);
    ry_verify_free(&v);
    for (int k = 0; k < n; k++)
        ry_netfile_free(&nf[k]);
    free(nf);
    return rc;
}

ry_cmd_status ry_as_built_down(const ry_fabric *f, const char *const *files, int n,
                               uint8_t *link_down)
{
    return ry_as_built(f, files, n, NULL, 0, link_down, NULL);
}
