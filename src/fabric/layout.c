#include "fabric/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

#define UNIT_M 0.04445      /* one rack unit */
#define PLINTH_M 0.1        /* floor to the bottom of unit 1 */

typedef struct seq {        /* racks in placement order, before rows are known */
    ry_rack *r;
    int n, cap;
} seq;

static int add_rack(seq *q, int kind)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 64;
        q->r = ry_xrealloc(q->r, (size_t)q->cap * sizeof *q->r);
    }
    memset(&q->r[q->n], 0, sizeof q->r[q->n]);
    q->r[q->n].kind = (uint8_t)kind;
    return q->n++;
}

/* Scalable unit of a server. */
static long long server_unit(const ry_fabric *f, long long server, int gpn)
{
    long long dom = server * gpn / f->spec->hb_domain;
    return f->su_domains > 0 ? dom / f->su_domains : 0;
}

/* The server a leaf serves first: its lowest cabled GPU. */
static long long leaf_server(const ry_fabric *f, uint32_t sw, int gpn)
{
    const ry_node *n = &f->nodes[sw];
    for (uint32_t p = 0; p < n->nports; p++) {
        int32_t peer = f->ports[n->port0 + p].peer;
        if (peer >= 0 && f->nodes[f->ports[peer].owner].kind == RY_NODE_GPU)
            return f->ports[peer].owner / gpn;
    }
    return 0;
}

typedef struct leaf_key {
    long long server;
    uint32_t id;
} leaf_key;

static int cmp_leaf(const void *a, const void *b)
{
    const leaf_key *x = a, *y = b;
    if (x->server != y->server)
        return x->server < y->server ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Places the switches of ids[] into network racks appended to q. */
static void place_switches(ry_layout *lay, seq *q, const uint32_t *ids, size_t n, int per_rack)
{
    const ry_fabric *f = lay->f;
    int first = f->spec->layout.first_unit;
    for (size_t i = 0; i < n; i++) {
        int rack = i % (size_t)per_rack == 0 ? add_rack(q, RY_RACK_NETWORK) : q->n - 1;
        size_t k = i % (size_t)per_rack;
        lay->sw_rack[ids[i] - f->first_switch] = rack;
        lay->sw_unit[ids[i] - f->first_switch] = (int16_t)(first + (int)k * lay->switch_units);
        q->r[rack].used_units += lay->switch_units;
    }
}

int ry_layout_build(const ry_fabric *f, ry_layout *lay, ry_err *err)
{
    const ry_spec *s = f->spec;
    memset(lay, 0, sizeof *lay);
    lay->f = f;
    lay->node_units = s->layout.node_units;
    lay->switch_units = s->layout.switch_units;
    int gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    lay->gpus_per_node = gpn;
    long long servers = f->gpus / gpn;
    size_t nsw = f->nnodes - f->first_switch;
    lay->node_rack = ry_xmalloc((size_t)servers * sizeof *lay->node_rack);
    lay->node_unit = ry_xmalloc((size_t)servers * sizeof *lay->node_unit);
    lay->sw_rack = ry_xmalloc((nsw ? nsw : 1) * sizeof *lay->sw_rack);
    lay->sw_unit = ry_xmalloc((nsw ? nsw : 1) * sizeof *lay->sw_unit);
    int room = s->layout.rack_units - s->layout.first_unit + 1;
    int npr = s->layout.nodes_per_rack, spr = room / lay->switch_units;
    int rpr = s->layout.racks_per_row;
    int mode = s->layout.network;

    /* Leaves by the row of the server they serve first; upper tiers apart. */
    uint32_t *leaves = ry_xmalloc((nsw ? nsw : 1) * sizeof *leaves);
    uint32_t *upper = ry_xmalloc((nsw ? nsw : 1) * sizeof *upper);
    long long *leaf_srv = ry_xmalloc((nsw ? nsw : 1) * sizeof *leaf_srv);
    size_t nleaves = 0, nupper = 0;
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        if (f->nodes[i].tier == 1 && f->tiers > 1) {
            leaf_srv[nleaves] = leaf_server(f, (uint32_t)i, gpn);
            leaves[nleaves++] = (uint32_t)i;
        } else {
            upper[nupper++] = (uint32_t)i;
        }
    }
    /* Leaves in the order of the servers they serve, by id within. */
    leaf_key *keys = ry_xmalloc((nleaves ? nleaves : 1) * sizeof *keys);
    for (size_t i = 0; i < nleaves; i++)
        keys[i] = (leaf_key){ leaf_srv[i], leaves[i] };
    qsort(keys, nleaves, sizeof *keys, cmp_leaf);
    for (size_t i = 0; i < nleaves; i++) {
        leaf_srv[i] = keys[i].server;
        leaves[i] = keys[i].id;
    }
    free(keys);

    seq q = { 0 };
    int rc = 0, rows_needed = 0;
    if (mode == 0) {
        /* per-unit: each scalable unit's compute racks, then its leaves' racks */
        long long sv = 0;
        size_t li = 0;
        while (sv < servers) {
            long long u = server_unit(f, sv, gpn);
            int k = npr;
            int rack = -1;
            for (; sv < servers && server_unit(f, sv, gpn) == u; sv++) {
                if (k == npr) {
                    rack = add_rack(&q, RY_RACK_COMPUTE);
                    k = 0;
                }
                lay->node_rack[sv] = rack;
                lay->node_unit[sv] = (int16_t)(s->layout.first_unit + k * lay->node_units);
                q.r[rack].used_units += lay->node_units;
                k++;
            }
            size_t l0 = li;
            while (li < nleaves && server_unit(f, leaf_srv[li], gpn) == u)
                li++;
            place_switches(lay, &q, leaves + l0, li - l0, spr);
        }
        place_switches(lay, &q, leaves + li, nleaves - li, spr);
        for (int i = 0; i < q.n; i++) {
            q.r[i].row = i / rpr;
            q.r[i].col = i % rpr;
        }
        rows_needed = q.n ? q.r[q.n - 1].row + 1 : 0;
    } else {
        /* end-of-row / middle-of-row: rows of compute racks with nnet network
         * racks each, enough for the leaves whose first server is in the row */
        if (rpr < 2) {
            ry_err_set(err, "layout.racks_per_row", "layout.network %s needs at least 2 racks per "
                       "row (got racks_per_row: %d)", mode == 1 ? "end-of-row" : "middle-of-row",
                       rpr);
            rc = -1;
            goto out;
        }
        int nnet = 1;
        for (;; nnet++) {
            if (nnet >= rpr) {
                ry_err_set(err, "layout.racks_per_row", "rows of %d racks cannot hold both the "
                           "servers and the leaves serving them: use more racks per row or "
                           "layout.network: per-unit", rpr);
                rc = -1;
                goto out;
            }
            long long per_row = (long long)(rpr - nnet) * npr;
            size_t li = 0;
            int fits = 1;
            for (long long row = 0; li < nleaves; row++) {
                size_t c = 0;
                while (li < nleaves && leaf_srv[li] / per_row == row)
                    li++, c++;
                if (c > (size_t)nnet * (size_t)spr)
                    fits = 0;
            }
            if (fits)
                break;
        }
        int ncomp = rpr - nnet, netcol = mode == 1 ? ncomp : ncomp / 2;
        long long per_row = (long long)ncomp * npr;
        long long nrows = (servers + per_row - 1) / per_row;
        size_t li = 0;
        for (long long row = 0; row < nrows; row++) {
            int base = q.n;
            for (int c = 0; c < rpr; c++) {
                int r = add_rack(&q, c >= netcol && c < netcol + nnet ? RY_RACK_NETWORK
                                                                      : RY_RACK_COMPUTE);
                q.r[r].row = (int)row;
                q.r[r].col = c;
            }
            for (long long k = 0; k < per_row && row * per_row + k < servers; k++) {
                long long sv = row * per_row + k;
                int c = (int)(k / npr);
                if (c >= netcol)
                    c += nnet;
                lay->node_rack[sv] = base + c;
                lay->node_unit[sv] = (int16_t)(s->layout.first_unit + (int)(k % npr) * lay->node_units);
                q.r[base + c].used_units += lay->node_units;
            }
            size_t k = 0;
            for (; li < nleaves && leaf_srv[li] / per_row == row; li++, k++) {
                int r = base + netcol + (int)(k / (size_t)spr);
                lay->sw_rack[leaves[li] - f->first_switch] = r;
                lay->sw_unit[leaves[li] - f->first_switch] =
                    (int16_t)(s->layout.first_unit + (int)(k % (size_t)spr) * lay->switch_units);
                q.r[r].used_units += lay->switch_units;
            }
        }
        rows_needed = (int)nrows;
    }
    /* Upper tiers (and one-switch fabrics) in rows of their own. */
    {
        int first = q.n;
        place_switches(lay, &q, upper, nupper, spr);
        int row0 = rows_needed;
        for (int i = first; i < q.n; i++) {
            q.r[i].row = row0 + (i - first) / rpr;
            q.r[i].col = (i - first) % rpr;
        }
        if (q.n > first)
            rows_needed = q.r[q.n - 1].row + 1;
    }
    if (s->layout.rows > 0 && rows_needed > s->layout.rows) {
        ry_err_set(err, "layout.rows", "the layout is too small: %lld servers (%d per rack) and "
                   "%zu switches need %d rows of %d racks (got rows: %d); add rows or racks per "
                   "row", servers, npr, nsw, rows_needed, rpr, s->layout.rows);
        rc = -1;
        goto out;
    }
    lay->racks = q.r;
    lay->nracks = q.n;
    lay->nrows = rows_needed;
    q.r = NULL;
out:
    free(q.r);
    free(leaves);
    free(upper);
    free(leaf_srv);
    if (rc < 0)
        ry_layout_free(lay);
    return rc;
}

void ry_layout_free(ry_layout *lay)
{
    free(lay->racks);
    free(lay->node_rack);
    free(lay->node_unit);
    free(lay->sw_rack);
    free(lay->sw_unit);
    memset(lay, 0, sizeof *lay);
}

void ry_layout_where(const ry_layout *lay, uint32_t node, int *rack, int *unit, int *units)
{
    const ry_fabric *f = lay->f;
    if (f->nodes[node].kind == RY_NODE_GPU) {
        long long sv = node / (uint32_t)lay->gpus_per_node;
        *rack = lay->node_rack[sv];
        *unit = lay->node_unit[sv];
        *units = lay->node_units;
    } else {
        *rack = lay->sw_rack[node - f->first_switch];
        *unit = lay->sw_unit[node - f->first_switch];
        *units = lay->switch_units;
    }
}

int ry_rack_name(const ry_layout *lay, int rack, char *buf, size_t n)
{
    return snprintf(buf, n, "R%02d-%02d", lay->racks[rack].row + 1, lay->racks[rack].col + 1);
}

double ry_layout_route_m(const ry_layout *lay, uint32_t a, uint32_t b)
{
    const ry_spec *s = lay->f->spec;
    int ra, ua, na, rb, ub, nb;
    ry_layout_where(lay, a, &ra, &ua, &na);
    ry_layout_where(lay, b, &rb, &ub, &nb);
    double ha = PLINTH_M + (ua - 1 + na / 2.0) * UNIT_M;
    double hb = PLINTH_M + (ub - 1 + nb / 2.0) * UNIT_M;
    if (ra == rb)
        return fabs(ha - hb);
    const ry_rack *x = &lay->racks[ra], *y = &lay->racks[rb];
    double along = fabs((double)(x->col - y->col)) * s->layout.rack_pitch +
                   fabs((double)(x->row - y->row)) * s->layout.row_pitch;
    return (s->layout.tray_height - ha) + along + (s->layout.tray_height - hb);
}
