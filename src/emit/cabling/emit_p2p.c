/* The cable validation tool's files, as its manual (NVIDIA UFM Cable
 * Validation Tool, "P2P File" and "Optional Files", v1.4.0 to v1.6.0)
 * describes them:
 *
 * p2p.xlsx: the tool reads the P2P file as an Excel workbook, every sheet,
 * and finds its columns by their header names; ours are those of the
 * manual's Ethernet example, "Z-RU" included (its A side says "A-U"). One
 * row per cable in link id order, A = the lower end. A-Type and Z-Type are
 * the role, Host or Switch. Ports:
 *   InfiniBand switch  the port as MLNX-OS names it less the slot ("17/1",
 *                      ry_port_label), the manual's "single number or split
 *                      port (e.g. 1/2)"; from XDR on (NVOS, Q3400),
 *                      sw<cage>p<n>, n from 1 over the ports and splits of
 *                      a cage (the manual's sw<port>p<split>: "sw1p1");
 *                      each switch by its own model, its tier's split
 *                      ports counted as the cage's (fabric.tiers);
 *   Ethernet switch    swp<cage> or swp<cage>s<n>, n from 0 over the ports
 *                      of a cage and their splits (Cumulus Linux's names);
 *   InfiniBand host    the NIC port's number from 1 in rail order (i + 1,
 *                      i = GPU in the server + plane * GPUs per server),
 *                      which hca_mapping.csv turns into its RDMA device;
 *   Ethernet host      rail<i + 1>.
 * A port that is a plain number is a number cell, as typed in Excel. The
 * manual names no sheet; ours is "P2P", and past Excel's 1,048,575 data
 * rows the list goes on on "P2P 2", ... (the tool reads every sheet).
 * p2p.csv holds the same cells as text, for diffs and scripts.
 *
 * hca_mapping.csv: "port,hca-name", one row per NIC port of the node model
 * (ry_nic_rdma): without it the tool takes port N for mlx5_<N-1>, which a
 * DGX H100 (mlx5_0, 3, 4, 5, 6, 9, 10, 11) is not.
 *
 * floor.csv: the rack-to-layout file, one row per rack in racks.csv's
 * order; the manual names its categories (data hall or pod, scalable unit,
 * row) but shows its headers only in a picture, so ours are plain: Rack,
 * Building, Data Hall, Row (hall and row, unique on the campus), Scalable
 * Unit (from 1, when every server in the rack, and every server below a
 * leaf in it, is of one unit; else empty).
 *
 * Version 1.7.1 of the manual (2025-11) describes another workbook, a
 * "unified PTP" of Nodes and Links sheets with hosts' ports by netdev name
 * and server profiles for their RDMA names; this is not it.
 *
 * Same input, same bytes: the workbook's creation time is fixed. */
#include "emit/cabling/emit_p2p.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/csv.h"
#include "ooxml/xlsx_table.h"
#include "util/buf.h"
#include "util/cleanup.h"
#include "util/diag.h"

#define NCOLS 10
/* InfiniBand switches from XDR on run NVOS (the manual: XDR on NVOS Q3400
 * switches), whose ports the tool names as NVOS does. */
#define NVOS_GBPS 800.0
#define FLUSH_AT (1u << 20)

static const char *const p2p_cols[NCOLS] = {
    "A-Rack", "A-U", "A-Node Name", "A-Type", "A-Port",
    "Z-Rack", "Z-RU", "Z-Node Name", "Z-Type", "Z-Port"
};

/* ---- names ------------------------------------------------------------------------------------ */

/* The port of one cable end as the tool wants it (see above). */
static void p2p_port(const ry_cab_names *nm, const ry_cab_end *e, char *buf, size_t n)
{
    const ry_fabric *f = nm->f;
    int eth = ry_spec_is_ethernet(f->spec);
    if (e->is_server) {
        const ry_node *nd = &f->nodes[e->node];
        int i = (int)(e->node % (uint32_t)nm->gpn) + (int)(e->port - nd->port0) * nm->gpn;
        snprintf(buf, n, eth ? "rail%d" : "%d", i + 1);
    } else if (eth || ry_node_model_of(f, &f->nodes[e->node])->port_gbps >= NVOS_GBPS) {
        /* the switch's own model (its tier's), its port split as its tier
         * splits it: a cage holds cage_ports x the model's split x the tier's */
        const ry_node *nd = &f->nodes[e->node];
        ry_switch_model m = *ry_node_model_of(f, nd);
        int cp, k, sub, parts;
        int phys = ry_switch_port_phys(f, nd, e->port - nd->port0, &sub, &parts);
        m.radix *= parts;
        ry_switch_cage_shape(&m, &cp, &k);
        int p = phys * parts + sub, per = cp * k;
        if (!eth)
            snprintf(buf, n, "sw%dp%d", p / per + 1, p % per + 1);
        else if (per > 1)
            snprintf(buf, n, "swp%ds%d", p / per + 1, p % per);
        else
            snprintf(buf, n, "swp%d", p + 1);
    } else {
        snprintf(buf, n, "%s", e->port_name);
    }
}

/* One cable's ten cells. */
typedef struct p2p_row {
    const char *txt[NCOLS];
    char a_u[12], z_u[12], a_port[48], z_port[48];
} p2p_row;

static void p2p_row_of(const ry_cab_names *nm, uint32_t link, p2p_row *p)
{
    ry_cab_row r;
    ry_cab_row_of(nm, link, &r);
    snprintf(p->a_u, sizeof p->a_u, "%d", r.a.unit);
    snprintf(p->z_u, sizeof p->z_u, "%d", r.z.unit);
    p2p_port(nm, &r.a, p->a_port, sizeof p->a_port);
    p2p_port(nm, &r.z, p->z_port, sizeof p->z_port);
    const char *t[NCOLS] = {
        r.a.rack_name, p->a_u, r.a.device, r.a.is_server ? "Host" : "Switch", p->a_port,
        r.z.rack_name, p->z_u, r.z.device, r.z.is_server ? "Host" : "Switch", p->z_port
    };
    memcpy(p->txt, t, sizeof t);
}

/* ---- p2p.xlsx and p2p.csv --------------------------------------------------------------------- */

static void csv_row(ry_buf *o, const p2p_row *p)
{
    ry_csv_row(o, p->txt, NCOLS);
}

static int write_p2p(ry_outdir *o, const char *prefix, const ry_cab_names *nm)
{
    const ry_fabric *f = nm->f;
    char *path = ry_outdir_path_in(o, prefix, "p2p.xlsx");
    if (!path)
        return -1;
    FILE *fp = ry_outdir_open_in(o, prefix, "p2p.csv");
    if (!fp) {
        free(path);
        return -1;
    }
    /* About 80 bytes of XML a cell, 120 at most */
    unsigned long long bound = (unsigned long long)(f->nlinks + 1) * NCOLS * 120;
    char title[160];
    snprintf(title, sizeof title, "P2P file of %s", f->spec->name);
    ry_xlsx_table *x = ry_xlsx_table_open(path, title, "P2P", p2p_cols, NCOLS, bound);
    free(path);
    if (!x) {
        ry_outdir_close(o, fp);
        return -1;
    }
    ry_buf cb;
    ry_buf_init(&cb);
    ry_csv_row(&cb, p2p_cols, NCOLS);
    p2p_row p;
    for (size_t l = 0; l < f->nlinks; l++) {
        p2p_row_of(nm, (uint32_t)l, &p);
        ry_xlsx_table_row(x, p.txt);
        csv_row(&cb, &p);
        if (cb.len >= FLUSH_AT) {
            fwrite(cb.data, 1, cb.len, fp);
            ry_buf_reset(&cb);
        }
    }
    fwrite(cb.data, 1, cb.len, fp);
    ry_buf_free(&cb);
    int bad = ry_outdir_close(o, fp) < 0;
    bad |= ry_xlsx_table_close(x) < 0;
    return bad ? -1 : 0;
}

/* ---- hca_mapping.csv and floor.csv ------------------------------------------------------------ */

static int write_hca_mapping(ry_outdir *o, const char *prefix, const ry_cab_names *nm)
{
    const ry_fabric *f = nm->f;
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_puts(&b, "port,hca-name");
    ry_csv_end(&b);
    char name[64];
    for (int i = 0; i < nm->gpn * f->planes; i++) {
        ry_nic_rdma(&f->spec->node, i, name, sizeof name);
        ry_buf_printf(&b, "%d,", i + 1);
        ry_csv_field(&b, name);
        ry_csv_end(&b);
    }
    int rc = ry_outdir_put_in(o, prefix, "hca_mapping.csv", b.data, b.len);
    ry_buf_free(&b);
    return rc;
}

/* Per rack: its scalable unit from 0, -1 before any, -2 when two meet. A
 * server's unit is its HB domain over the domains of a unit (as its host
 * name's {su}); a leaf's, that of the servers below it. */
static void su_merge(int *k, int g)
{
    *k = *k == -1 || *k == g ? g : -2;
}

static void rack_su(const ry_cab_names *nm, int *su)
{
    const ry_fabric *f = nm->f;
    const ry_layout *lay = nm->lay;
    for (int r = 0; r < lay->nracks; r++)
        su[r] = -1;
    if (f->su_domains <= 0)
        return;
    for (long long s = 0; s < nm->nservers; s++)
        su_merge(&su[lay->node_rack[s]], f->nodes[(size_t)s * (size_t)nm->gpn].group / f->su_domains);
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const ry_node *nd = &f->nodes[i];
        if (nd->tier != 1)
            continue;
        int g = -1;
        for (uint32_t p = 0; p < nd->nports; p++) {
            int32_t peer = f->ports[nd->port0 + p].peer;
            if (peer < 0)
                continue;
            const ry_node *c = &f->nodes[f->ports[peer].owner];
            if (c->kind == RY_NODE_GPU)
                su_merge(&g, c->group / f->su_domains);
        }
        if (g != -1)
            su_merge(&su[lay->sw_rack[i - f->first_switch]], g);
    }
}

static int write_floor(ry_outdir *o, const char *prefix, const ry_cab_names *nm)
{
    const ry_layout *lay = nm->lay;
    int *su = ry_xmalloc((size_t)(lay->nracks ? lay->nracks : 1) * sizeof *su);
    rack_su(nm, su);
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_puts(&b, "Rack,Building,Data Hall,Row,Scalable Unit");
    ry_csv_end(&b);
    char room[32], row[160];
    for (int i = 0; i < lay->nracks; i++) {
        const ry_rack *k = &lay->racks[i];
        const char *rack = nm->pool + nm->rack[i];
        /* The row is the rack's name less its place in the row. */
        const char *dash = strrchr(rack, '-');
        int len = dash ? (int)(dash - rack) : (int)strlen(rack);
        snprintf(row, sizeof row, "%.*s", len, rack);
        ry_cab_room_name(&lay->rooms[k->room], room, sizeof room);
        ry_csv_field(&b, rack);
        ry_buf_printf(&b, ",%d,%s,", lay->rooms[k->room].building + 1, room);
        ry_csv_field(&b, row);
        ry_buf_putc(&b, ',');
        if (su[i] >= 0)
            ry_buf_printf(&b, "%d", su[i] + 1);
        ry_csv_end(&b);
    }
    free(su);
    int rc = ry_outdir_put_in(o, prefix, "floor.csv", b.data, b.len);
    ry_buf_free(&b);
    return rc;
}

int ry_emit_p2p(ry_outdir *o, const char *prefix, const ry_cab_names *nm)
{
    int bad = write_p2p(o, prefix, nm) < 0;
    bad |= write_hca_mapping(o, prefix, nm) < 0;
    bad |= write_floor(o, prefix, nm) < 0;
    return bad ? -1 : 0;
}
