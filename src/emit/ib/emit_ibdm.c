/*
 * IBDM (ibutils' InfiniBand data model) files of one subnet.
 *
 * ibdiagnet.topo. Grammar, from ibdm-topo-file(1) and its parser
 * (IBFabric::parseTopology, ibutils 1.5):
 *
 *   # comment                                     whole lines only
 *   SYSTEM-TYPE SYSTEM-NAME                       neither holds a blank or '/'
 *      LOCAL-PORT -<W>x-<L>G-> REM-TYPE REM-NAME REM-PORT
 *                                                 indented, nothing after REM-PORT
 *   (an empty line ends a section)
 *
 * <W>x- is one of 1x 4x 8x 12x and <L>G- one of 2.5G 5G 10G, the SDR, DDR
 * and QDR lane rates: the parser knows no faster lane, and it skips a line
 * of any other form with a warning, the cable then missing from the model.
 * Both parts are optional (4x and 2.5G when absent). We write the width when
 * it is one of those and the lane rate capped at 10G (an NDR link, 4 lanes of
 * 100G, is "-4x-10G->"), and list every true rate in the header with the
 * number of cables at it. Lines are read into 1024 bytes.
 *
 * One section per switch, listing its cabled ports by IB port number
 * ("P61"); hosts appear only as the far end of those lines (ibdm makes a
 * system on its first mention). A switch-to-switch cable is in both switches' sections (ibdm takes
 * the second as the same cable). A host's port is "<rdma>/P1" after the CA's
 * device (the second word of its NodeDescription "<host> mlx5_<i>"). The
 * file holds this subnet only: ibdiagnet compares what one port reaches, and
 * a file of several subnets would report the others' cables missing.
 *
 * Every type needs an IBNL definition (else "Fail to find System class" and
 * nothing is read). ibdiag_ibnl/ holds them: ibdm reads every *.ibnl in the
 * directories of $IBDM_IBNL_PATH, which ibdiagnet 1.x sets to
 * <its -o DIR>/ibdiag_ibnl. IBNL (ibdm-ibnl-file(1)):
 *
 *   TOPSYSTEM <type>
 *   NODE SW 64 <device> U1           a switch node of 64 ports, named U1
 *      1 -> P1                        its port 1 is the system's port P1
 *   NODE CA 1 <device> mlx5_3        a host: one CA node per device
 *      1 -> mlx5_3/P1
 *
 * IBNL has no comments, and SW, CA and HCA are keywords, not device names.
 * The switch type is the spec's switch model. ibdm makes a system with every
 * node of its type, so a host type holds only the CAs a host has on this
 * subnet (a host of a two-plane or rail-only fabric has others elsewhere):
 * "<node model>_mlx5_<numbers>", the numbers N of its mlx5_N devices on the
 * subnet in runs ("dgx-h100_mlx5_0.3-6.9-11"; a NIC table's names of another
 * form count by position), one file per distinct set.
 * Type names keep [A-Za-z0-9_.-]; anything else becomes '_', and a name
 * that does not start with a letter or is a keyword gets "sys_" before it
 * (IBNL reads "16lab" as a number and a name).
 */
#include "config.h"

#include "emit/ib/emit_ibdm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/ib/ib_rate.h"
#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"

/* The "-4x-10G->" of a port line, in the forms ibdm 1.5 reads. */
static void put_arrow(ry_buf *b, int width, double lane)
{
    ry_buf_putc(b, '-');
    if (width == 1 || width == 4 || width == 8 || width == 12)
        ry_buf_printf(b, "%dx-", width);
    if (lane > 0)
        ry_buf_printf(b, "%gG-", lane == 2.5 || lane == 5 ? lane : 10);
    ry_buf_putc(b, '>');
}

/* A system or port name of the topology file: no blanks, no '/'. */
static void topo_word(ry_buf *b, const char *s)
{
    for (; *s; s++)
        ry_buf_putc(b, *s == ' ' || *s == '\t' || *s == '/' ? '_' : *s);
}

/* A type or device name, valid in both files: IBNL's names start with a
 * letter and are not its keywords, so others get "sys_" before them. */
static void type_word(ry_buf *b, const char *s)
{
    static const char *const keywords[] = { "SW", "CA", "HCA", "NODE", "SYSTEM", "TOPSYSTEM",
                                            "SUBSYSTEM" };
    int letter = (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z');
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        letter &= strcmp(s, keywords[i]) != 0;
    if (!letter)
        ry_buf_puts(b, "sys_");
    for (; *s; s++) {
        char c = *s;
        int keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '.' || c == '-';
        ry_buf_putc(b, keep ? c : '_');
    }
}

typedef struct rate {
    int width;
    double lane, gbps;
    size_t cables;
} rate;

#define MAX_RATES 16

/* One subnet's hosts, grouped by the set of NIC ports they have on it. */
typedef struct hosts {
    int gpn, nnic;
    long long nservers;
    unsigned char *has;     /* per server x NIC port i: its CA is on the subnet */
    int32_t *type;          /* per server on the subnet: index into first */
    long long *first;       /* per type: its first server (whose row of has is the set) */
    int ntypes;
    size_t nhosts;
    ry_buf names;           /* type names, NUL-terminated, back to back */
    size_t *name;           /* per type: offset into names */
} hosts;

static void hosts_free(hosts *h)
{
    free(h->has);
    free(h->type);
    free(h->first);
    free(h->name);
    ry_buf_free(&h->names);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static void hosts_of(const ry_fabric *f, const ry_subnet *sn, hosts *h)
{
    const ry_spec *s = f->spec;
    memset(h, 0, sizeof *h);
    h->gpn = s->node.gpus_per_node > 0 ? s->node.gpus_per_node : 1;
    h->nnic = h->gpn * f->planes;
    h->nservers = f->gpus / h->gpn;
    size_t ns = (size_t)(h->nservers ? h->nservers : 1);
    /* Only the subnet's CAs are walked (a rail-only fabric has many subnets
     * of few hosts each); calloc leaves untouched pages unwritten. */
    h->has = ry_xcalloc(ns * (size_t)h->nnic, 1);
    h->type = ry_xcalloc(ns, sizeof *h->type);
    long long *seen = ry_xmalloc((sn->nca ? sn->nca : 1) * sizeof *seen);
    for (size_t c = 0; c < sn->nca; c++) {
        uint32_t gp = sn->ca[c];
        long long gpu = gp / (uint32_t)f->planes, v = gpu / h->gpn;
        int i = (int)(gpu % h->gpn) + (int)(gp % (uint32_t)f->planes) * h->gpn;
        h->has[(size_t)v * (size_t)h->nnic + (size_t)i] = 1;
        if (!h->type[v]) {
            h->type[v] = 1;
            seen[h->nhosts++] = v;
        }
    }
    /* types in the order of their first host, by host number */
    qsort(seen, h->nhosts, sizeof *seen, cmp_ll);
    h->first = ry_xmalloc((h->nhosts ? h->nhosts : 1) * sizeof *h->first);
    ry_buf_init(&h->names);
    int *num = ry_xmalloc((size_t)h->nnic * sizeof *num);
    for (size_t k = 0; k < h->nhosts; k++) {
        long long v = seen[k];
        const unsigned char *row = h->has + (size_t)v * (size_t)h->nnic;
        int t = 0;
        while (t < h->ntypes &&
               memcmp(row, h->has + (size_t)h->first[t] * (size_t)h->nnic, (size_t)h->nnic))
            t++;
        h->type[v] = t;
        if (t == h->ntypes)
            h->first[h->ntypes++] = v;
    }
    free(seen);
    h->name = ry_xmalloc((size_t)(h->ntypes ? h->ntypes : 1) * sizeof *h->name);
    for (int t = 0; t < h->ntypes; t++) {
        const unsigned char *row = h->has + (size_t)h->first[t] * (size_t)h->nnic;
        int n = 0;
        for (int i = 0; i < h->nnic; i++)
            if (row[i]) {
                int x = ry_nic_number(&s->node, i), k = n++;
                for (; k > 0 && num[k - 1] > x; k--)
                    num[k] = num[k - 1];
                num[k] = x;
            }
        h->name[t] = h->names.len;
        type_word(&h->names, s->node.name);
        ry_buf_puts(&h->names, "_mlx5_");
        for (int k = 0; k < n;) {
            int e = k;
            while (e + 1 < n && num[e + 1] == num[e] + 1)
                e++;
            ry_buf_printf(&h->names, k ? ".%d" : "%d", num[k]);
            if (e > k)
                ry_buf_printf(&h->names, "-%d", num[e]);
            k = e + 1;
        }
        ry_buf_putc(&h->names, '\0');
    }
    free(num);
}

static int put_file(ry_outdir *o, const char *prefix, const ry_subnet *sn, const char *dir,
                    const char *name, ry_buf *b)
{
    ry_buf rel;
    ry_buf_init(&rel);
    ry_buf_printf(&rel, "%s/%s/%s%s%s", prefix, sn->name, dir, *dir ? "/" : "", name);
    ry_buf_putc(&rel, '\0');
    int rc = ry_outdir_put(o, rel.data, b->data ? b->data : "", b->len);
    ry_buf_free(&rel);
    return rc;
}

/* The switch types: one per model and port count (a tier of fabric.tiers
 * may split its ports), named by the model, and by its ports too when one
 * model comes with two counts. type[tier] indexes name[] and ports[]. */
typedef struct sw_types {
    ry_buf names;
    size_t name[RY_MAX_TIERS + 1];
    int ports[RY_MAX_TIERS + 1];
    int n;
    int type[RY_MAX_TIERS + 1];
} sw_types;

static void sw_types_of(const ry_fabric *f, sw_types *x)
{
    memset(x, 0, sizeof *x);
    ry_buf_init(&x->names);
    const ry_switch_model *model[RY_MAX_TIERS + 1];
    int nports[RY_MAX_TIERS + 1];
    for (int t = 1; t <= f->tiers; t++) {
        model[t] = ry_node_model_of(f, &(ry_node){ .kind = RY_NODE_SWITCH, .tier = (uint8_t)t });
        nports[t] = f->tier[t].sw ? f->tier[t].ports : f->radix;
        int j = 1;
        while (j < t && !(strcmp(model[j]->name, model[t]->name) == 0 && nports[j] == nports[t]))
            j++;
        x->type[t] = j < t ? x->type[j] : x->n++;
        if (j < t)
            continue;
        int i = x->type[t], twice = 0;
        for (int k = 1; k <= f->tiers; k++)
            twice |= strcmp(ry_node_model_of(f, &(ry_node){ .kind = RY_NODE_SWITCH,
                                                             .tier = (uint8_t)k })->name,
                            model[t]->name) == 0 &&
                     (f->tier[k].sw ? f->tier[k].ports : f->radix) != nports[t];
        x->name[i] = x->names.len;
        x->ports[i] = nports[t];
        type_word(&x->names, model[t]->name);
        if (twice)
            ry_buf_printf(&x->names, "_%dp", nports[t]);
        ry_buf_putc(&x->names, '\0');
    }
}

static const char *sw_type_of(const sw_types *x, int tier)
{
    return x->names.data + x->name[x->type[tier]];
}

static int write_ibnl(ry_outdir *o, const char *prefix, const ry_fabric *f, const ry_subnet *sn,
                      const sw_types *st, const hosts *h)
{
    const ry_spec *s = f->spec;
    ry_buf b, file;
    ry_buf_init(&b);
    ry_buf_init(&file);
    int bad = 0;
    /* Every switch of a type owns its ports, cabled or not. */
    for (int i = 0; i < st->n && !bad; i++) {
        const char *sw_type = st->names.data + st->name[i];
        ry_buf_reset(&b);
        ry_buf_reset(&file);
        ry_buf_printf(&b, "\nTOPSYSTEM %s\n\nNODE SW %d %s U1\n", sw_type, st->ports[i],
                      sw_type);
        for (int p = 1; p <= st->ports[i]; p++)
            ry_buf_printf(&b, "   %d -> P%d\n", p, p);
        ry_buf_printf(&file, "%s.ibnl", sw_type);
        ry_buf_putc(&file, '\0');
        bad |= put_file(o, prefix, sn, "ibdiag_ibnl", file.data, &b) < 0;
    }
    char dev[32];
    for (int t = 0; t < h->ntypes && !bad; t++) {
        const char *name = h->names.data + h->name[t];
        const unsigned char *row = h->has + (size_t)h->first[t] * (size_t)h->nnic;
        ry_buf_reset(&b);
        ry_buf_printf(&b, "\nTOPSYSTEM %s\n", name);
        for (int i = 0; i < h->nnic; i++) {
            if (!row[i])
                continue;
            ry_nic_rdma(&s->node, i, dev, sizeof dev);
            ry_buf_puts(&b, "\nNODE CA 1 ConnectX ");
            type_word(&b, dev);
            ry_buf_puts(&b, "\n   1 -> ");
            type_word(&b, dev);
            ry_buf_puts(&b, "/P1\n");
        }
        ry_buf_reset(&file);
        ry_buf_printf(&file, "%s.ibnl", name);
        ry_buf_putc(&file, '\0');
        bad |= put_file(o, prefix, sn, "ibdiag_ibnl", file.data, &b) < 0;
    }
    ry_buf_free(&b);
    ry_buf_free(&file);
    return bad ? -1 : 0;
}

/* Whether a cabled switch port is written (every one is) and counted as a
 * cable (a switch-to-switch cable once, from its lower port id). */
static int cable_counted(const ry_fabric *f, uint32_t port)
{
    int32_t peer = f->ports[port].peer;
    return f->nodes[f->ports[peer].owner].kind == RY_NODE_GPU || (uint32_t)peer > port;
}

static int write_topo(ry_outdir *o, const char *prefix, const ry_fabric *f, const ry_subnet *sn,
                      const sw_types *st, const hosts *h)
{
    const ry_spec *s = f->spec;
    rate rates[MAX_RATES];
    int nrates = 0;
    size_t ncables = 0, nsw = 0;
    for (size_t k = 0; k < sn->nsw; k++) {
        const ry_node *nd = &f->nodes[sn->sw[k]];
        int any = 0;
        for (uint32_t p = 0; p < nd->nports; p++) {
            uint32_t port = nd->port0 + p;
            int32_t lk = f->ports[port].link;
            if (lk < 0 || f->ports[port].peer < 0)
                continue;
            any = 1;
            if (!cable_counted(f, port))
                continue;
            ncables++;
            double gbps = ry_link_gbps(f, (uint32_t)lk), lane;
            int width, r = 0;
            ry_ib_link_rate(f, (uint32_t)lk, &width, &lane);
            while (r < nrates && (rates[r].gbps != gbps || rates[r].width != width ||
                                  rates[r].lane != lane))
                r++;
            if (r == nrates && nrates < MAX_RATES) {
                rates[r].gbps = gbps;
                rates[r].cables = 0;
                rates[r].width = width;
                rates[r].lane = lane;
                nrates++;
            }
            if (r < nrates)
                rates[r].cables++;
        }
        nsw += (size_t)any;
    }

    ry_buf b;
    ry_buf_init(&b);
    char name[160], dev[32];
    /* Plain LF line ends: ibdm reads lines with getline(). */
    ry_buf_printf(&b, "# railyard %s: subnet %s of %s, IBDM topology (ibdm-topo-file(1)).\n",
                  PACKAGE_VERSION, sn->name, s->name);
    ry_buf_printf(&b, "# %zu switches of type%s ", nsw, st->n > 1 ? "s" : "");
    for (int i = 0; i < st->n; i++)
        ry_buf_printf(&b, "%s%s", i ? (i + 1 < st->n ? ", " : " and ") : "",
                      st->names.data + st->name[i]);
    ry_buf_printf(&b, ", %zu hosts with %zu CAs, %zu cables.\n", h->nhosts, sn->nca, ncables);
    ry_buf_puts(&b, "# System types are defined in ibdiag_ibnl/ (IBNL). Check the plan with\n");
    if (sn->nca > 0) {
        uint32_t gp = sn->ca[0];
        long long gpu = gp / (uint32_t)f->planes;
        ry_host_name(f, gpu / h->gpn, name, sizeof name);
        ry_nic_rdma(&s->node, (int)(gpu % h->gpn) + (int)(gp % (uint32_t)f->planes) * h->gpn,
                    dev, sizeof dev);
        ry_buf_puts(&b, "#   IBDM_IBNL_PATH=ibdiag_ibnl ibdmchk -t ibdiagnet.topo -n ");
        topo_word(&b, name);
        ry_buf_putc(&b, '/');
        type_word(&b, dev);
        ry_buf_puts(&b, " -p 1\n");
    }
    ry_buf_puts(&b, "# and compare the subnet with it from a host on it with\n"
                    "#   ibdiagnet -o . -t ibdiagnet.topo   (ibdiagnet reads <-o DIR>/ibdiag_ibnl)\n"
                    "# ibdm reads lane rates of 2.5G, 5G and 10G and widths 1x, 4x, 8x and 12x "
                    "only:\n"
                    "# a faster lane is written 10G, another width left out. Rates:\n");
    for (int r = 0; r < nrates; r++) {
        ry_buf_puts(&b, "#   ");
        if (rates[r].width)
            ry_buf_printf(&b, "%dx %gG a lane, ", rates[r].width, rates[r].lane);
        ry_buf_printf(&b, "%g Gb/s: %zu cables, written ", rates[r].gbps, rates[r].cables);
        put_arrow(&b, rates[r].width, rates[r].lane);
        ry_buf_putc(&b, '\n');
    }

    for (size_t k = 0; k < sn->nsw; k++) {
        uint32_t id = sn->sw[k];
        const ry_node *nd = &f->nodes[id];
        int any = 0;
        for (uint32_t p = 0; p < nd->nports; p++) {
            uint32_t port = nd->port0 + p;
            int32_t lk = f->ports[port].link, peer = f->ports[port].peer;
            if (lk < 0 || peer < 0)
                continue;
            if (!any) {
                ry_node_name(f, id, name, sizeof name);
                ry_buf_printf(&b, "\n%s ", sw_type_of(st, nd->tier));
                topo_word(&b, name);
                ry_buf_putc(&b, '\n');
                any = 1;
            }
            int width;
            double lane;
            ry_ib_link_rate(f, (uint32_t)lk, &width, &lane);
            ry_buf_printf(&b, "   P%u ", p + 1);
            put_arrow(&b, width, lane);
            ry_buf_putc(&b, ' ');
            uint32_t po = f->ports[peer].owner;
            if (f->nodes[po].kind == RY_NODE_GPU) {
                long long gpu = (uint32_t)peer / (uint32_t)f->planes;
                int plane = (int)((uint32_t)peer % (uint32_t)f->planes);
                ry_buf_puts(&b, h->names.data + h->name[h->type[gpu / h->gpn]]);
                ry_buf_putc(&b, ' ');
                ry_host_name(f, gpu / h->gpn, name, sizeof name);
                topo_word(&b, name);
                ry_buf_putc(&b, ' ');
                ry_nic_rdma(&s->node, (int)(gpu % h->gpn) + plane * h->gpn, dev, sizeof dev);
                type_word(&b, dev);
                ry_buf_puts(&b, "/P1\n");
            } else {
                ry_node_name(f, po, name, sizeof name);
                ry_buf_printf(&b, "%s ", sw_type_of(st, f->nodes[po].tier));
                topo_word(&b, name);
                ry_buf_printf(&b, " P%d\n", ry_port_number(f, (uint32_t)peer));
            }
        }
    }
    int rc = put_file(o, prefix, sn, "", "ibdiagnet.topo", &b);
    ry_buf_free(&b);
    return rc;
}

int ry_emit_ibdm(ry_outdir *o, const char *prefix, const ry_ibplan *pl, const ry_subnet *sn)
{
    const ry_fabric *f = pl->f;
    hosts h;
    hosts_of(f, sn, &h);
    sw_types st;
    sw_types_of(f, &st);
    int rc = write_ibnl(o, prefix, f, sn, &st, &h);
    if (rc == 0)
        rc = write_topo(o, prefix, f, sn, &st, &h);
    ry_buf_free(&st.names);
    hosts_free(&h);
    return rc;
}
