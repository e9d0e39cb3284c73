/* OpenSM files. Formats follow OpenSM 3.3's parsers (osm_ucast_file.c for
 * the LFT file, cl_nodenamemap.c for GUID lists, osm_prtn_config.c for
 * partitions) and ibsim's netfile reader: every GUID carries 0x, every line
 * of the LFT file ends with a newline, no LID beyond the subnet's max LID. */
#include "config.h"

#include "emit/ib/emit_opensm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/route.h"
#include "emit/ib/emit_ibdm.h"
#include "emit/ib/ib_rate.h"
#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"

/* The " 2xNDR" tail of a link's line: lanes and lane speed as ibnetdiscover
 * prints them (infiniband-diags 44.0, ibnetdiscover.c: widths 1x 2x 4x 8x
 * 12x, speeds SDR .. NDR, XDR from 49.0), so a diff against a discovered
 * fabric flags only what differs. Empty when the rate has no IB name. */
static void link_rate(const ry_fabric *f, uint32_t port, char *buf, size_t n)
{
    int width;
    double lane;
    int32_t lk = f->ports[port].link;
    buf[0] = '\0';
    if (lk < 0)
        return;
    ry_ib_link_rate(f, (uint32_t)lk, &width, &lane);
    const char *sp = ry_ib_lane_name(lane);
    if (width && sp)
        snprintf(buf, n, " %dx%s", width, sp);
}

/* Whether any link of the subnet runs at a lane speed ibsim 0.10 cannot
 * parse (NDR, XDR): it then keeps its default and brings the link up at
 * SDR. */
static int beyond_ibsim010(const ry_fabric *f, const ry_subnet *sn)
{
    for (size_t c = 0; c < sn->nca; c++) {
        int width;
        double lane;
        int32_t lk = f->ports[sn->ca[c]].link;
        if (lk < 0)
            continue;
        ry_ib_link_rate(f, (uint32_t)lk, &width, &lane);
        if (lane >= 100)
            return 1;
    }
    for (size_t i = 0; i < sn->nsw; i++) {
        const ry_node *n = &f->nodes[sn->sw[i]];
        for (uint32_t p = 0; p < n->nports; p++) {
            int width;
            double lane;
            int32_t lk = f->ports[n->port0 + p].link;
            if (lk < 0)
                continue;
            ry_ib_link_rate(f, (uint32_t)lk, &width, &lane);
            if (lane >= 100)
                return 1;
        }
    }
    return 0;
}

static FILE *open_in(ry_outdir *o, const char *prefix, const ry_subnet *sn, const char *file)
{
    char rel[256];
    snprintf(rel, sizeof rel, "%s/%s/%s", prefix, sn->name, file);
    return ry_outdir_open(o, rel);
}

static void switch_name(const ry_fabric *f, uint32_t node, char *buf, size_t n)
{
    ry_node_name(f, node, buf, n);
}

/* The failed elements (ry_emit_opensm_failed): the files describe the
 * subnet without them. Both NULL when nothing failed. */
typedef struct down {
    const uint8_t *node, *link;
} down;

static int node_down(const down *d, uint32_t node) { return d->node && d->node[node]; }

/* A port whose link, or a node at either end, failed (or with no link). */
static int port_down(const ry_fabric *f, const down *d, uint32_t port)
{
    const ry_port *p = &f->ports[port];
    if (p->peer < 0)
        return 1;
    return (d->link && p->link >= 0 && d->link[p->link]) || node_down(d, p->owner) ||
           node_down(d, f->ports[p->peer].owner);
}

/* Survivors of a subnet, for the files' headers. */
static void survivors(const ry_ibplan *pl, const ry_subnet *sn, const down *d, size_t *nsw,
                      size_t *nca)
{
    *nsw = *nca = 0;
    for (size_t i = 0; i < sn->nsw; i++)
        *nsw += !node_down(d, sn->sw[i]);
    for (size_t c = 0; c < sn->nca; c++)
        *nca += !port_down(pl->f, d, sn->ca[c]);
}

static int write_topology(ry_outdir *o, const char *prefix, const ry_ibplan *pl,
                          const ry_subnet *sn, const down *d)
{
    const ry_fabric *f = pl->f;
    FILE *fp = open_in(o, prefix, sn, "topology.net");
    if (!fp)
        return -1;
    char width[16];
    char name[96], peer_name[96];
    size_t nsw, nca;
    survivors(pl, sn, d, &nsw, &nca);
    fprintf(fp, "# railyard %s: subnet %s of %s, ibnetdiscover format (loadable by ibsim)\n"
                "# %zu switches, %zu CAs, LIDs 1..%u, lmc %d\n",
            PACKAGE_VERSION, sn->name, f->spec->name, nsw, nca, sn->max_lid, pl->lmc);
    if (nsw != sn->nsw || nca != sn->nca)
        fprintf(fp, "# without %zu failed switches and %zu CAs cut off by a failure\n",
                sn->nsw - nsw, sn->nca - nca);
    if (beyond_ibsim010(f, sn))
        fputs("# ibsim 0.10 cannot parse NDR or XDR and brings those links up at SDR "
              "(ibsim 0.12 reads NDR)\n", fp);
    fputc('\n', fp);
    for (size_t i = 0; i < sn->nsw; i++) {
        uint32_t id = sn->sw[i];
        const ry_node *n = &f->nodes[id];
        if (node_down(d, id))
            continue;
        uint64_t g = ry_plan_sw_guid(pl, id);
        switch_name(f, id, name, sizeof name);
        fprintf(fp, "switchguid=0x%016llx\nSwitch\t%u \"S-%016llx\"\t\t# \"%s\" enhanced port 0 "
                    "lid %u lmc 0\n",
                (unsigned long long)g, n->nports, (unsigned long long)g, name,
                pl->sw_lid[id - f->first_switch]);
        for (uint32_t p = 0; p < n->nports; p++) {
            int32_t peer = f->ports[n->port0 + p].peer;
            if (peer < 0 || port_down(f, d, n->port0 + p))
                continue;
            uint32_t po = f->ports[peer].owner;
            const ry_node *pn = &f->nodes[po];
            link_rate(f, n->port0 + p, width, sizeof width);
            if (pn->kind == RY_NODE_GPU) {
                uint64_t cg = ry_plan_ca_guid(pl, (uint32_t)peer);
                ry_ca_desc(f, (uint32_t)peer, peer_name, sizeof peer_name);
                fprintf(fp, "[%u]\t\"H-%016llx\"[1](%llx)\t\t# \"%s\" lid %u%s\n", p + 1,
                        (unsigned long long)cg,
                        (unsigned long long)ry_plan_ca_port_guid(pl, (uint32_t)peer), peer_name,
                        pl->ca_lid[peer], width);
            } else {
                uint64_t pg = ry_plan_sw_guid(pl, po);
                switch_name(f, po, peer_name, sizeof peer_name);
                fprintf(fp, "[%u]\t\"S-%016llx\"[%d]\t\t# \"%s\" lid %u%s\n", p + 1,
                        (unsigned long long)pg, ry_port_number(f, (uint32_t)peer), peer_name,
                        pl->sw_lid[po - f->first_switch], width);
            }
        }
        fputc('\n', fp);
    }
    for (size_t c = 0; c < sn->nca; c++) {
        uint32_t gp = sn->ca[c];
        if (port_down(f, d, gp))
            continue;
        uint64_t cg = ry_plan_ca_guid(pl, gp);
        uint32_t sw = f->ports[f->ports[gp].peer].owner;
        ry_ca_desc(f, gp, name, sizeof name);
        switch_name(f, sw, peer_name, sizeof peer_name);
        link_rate(f, gp, width, sizeof width);
        fprintf(fp, "caguid=0x%016llx\nCa\t1 \"H-%016llx\"\t\t# \"%s\"\n"
                    "[1](%llx)\t\"S-%016llx\"[%d]\t\t# lid %u lmc %d \"%s\" lid %u%s\n\n",
                (unsigned long long)cg, (unsigned long long)cg, name,
                (unsigned long long)ry_plan_ca_port_guid(pl, gp),
                (unsigned long long)ry_plan_sw_guid(pl, sw),
                ry_port_number(f, (uint32_t)f->ports[gp].peer), pl->ca_lid[gp], pl->lmc,
                peer_name, pl->sw_lid[sw - f->first_switch], width);
    }
    return ry_outdir_close(o, fp);
}

static int write_guid_lists(ry_outdir *o, const char *prefix, const ry_ibplan *pl,
                            const ry_subnet *sn, const down *d)
{
    const ry_fabric *f = pl->f;
    char name[96];
    FILE *fp = open_in(o, prefix, sn, "root_guids.conf");
    if (!fp)
        return -1;
    fprintf(fp, "# Root (top-tier) switch node GUIDs of subnet %s, for opensm -a / "
                "root_guid_file (ftree, updn)\n", sn->name);
    for (size_t i = 0; i < sn->nsw; i++) {
        uint32_t id = sn->sw[i];
        if (f->nodes[id].tier != sn->tiers || node_down(d, id))
            continue;
        switch_name(f, id, name, sizeof name);
        fprintf(fp, "0x%016llx %s\n", (unsigned long long)ry_plan_sw_guid(pl, id), name);
    }
    if (ry_outdir_close(o, fp) < 0)
        return -1;

    fp = open_in(o, prefix, sn, "cn_guids.conf");
    if (!fp)
        return -1;
    fprintf(fp, "# Compute-node CA port GUIDs of subnet %s, for opensm -u / cn_guid_file\n",
            sn->name);
    for (size_t c = 0; c < sn->nca; c++) {
        if (port_down(f, d, sn->ca[c]))
            continue;
        ry_ca_desc(f, sn->ca[c], name, sizeof name);
        fprintf(fp, "0x%016llx %s\n", (unsigned long long)ry_plan_ca_port_guid(pl, sn->ca[c]),
                name);
    }
    if (ry_outdir_close(o, fp) < 0)
        return -1;

    fp = open_in(o, prefix, sn, "node-name-map");
    if (!fp)
        return -1;
    fprintf(fp, "# Node GUID to name map of subnet %s (OpenSM node_name_map_name, "
                "infiniband-diags --node-name-map)\n", sn->name);
    for (size_t i = 0; i < sn->nsw; i++) {
        if (node_down(d, sn->sw[i]))
            continue;
        switch_name(f, sn->sw[i], name, sizeof name);
        fprintf(fp, "0x%016llx \"%s\"\n", (unsigned long long)ry_plan_sw_guid(pl, sn->sw[i]), name);
    }
    for (size_t c = 0; c < sn->nca; c++) {
        if (port_down(f, d, sn->ca[c]))
            continue;
        ry_ca_desc(f, sn->ca[c], name, sizeof name);
        fprintf(fp, "0x%016llx \"%s\"\n", (unsigned long long)ry_plan_ca_guid(pl, sn->ca[c]), name);
    }
    if (ry_outdir_close(o, fp) < 0)
        return -1;

    fp = open_in(o, prefix, sn, "guid2lid");
    if (!fp)
        return -1;
    for (size_t i = 0; i < sn->nsw; i++) {
        if (node_down(d, sn->sw[i]))
            continue;
        unsigned lid = pl->sw_lid[sn->sw[i] - f->first_switch];
        fprintf(fp, "0x%016llx 0x%04x 0x%04x\n\n",
                (unsigned long long)ry_plan_sw_guid(pl, sn->sw[i]), lid, lid);
    }
    for (size_t c = 0; c < sn->nca; c++) {
        if (port_down(f, d, sn->ca[c]))
            continue;
        unsigned lid = pl->ca_lid[sn->ca[c]];
        fprintf(fp, "0x%016llx 0x%04x 0x%04x\n\n",
                (unsigned long long)ry_plan_ca_port_guid(pl, sn->ca[c]), lid,
                lid + (1u << pl->lmc) - 1);
    }
    return ry_outdir_close(o, fp);
}

/* Default partition, then one per rail. In a subnet of several isolated
 * rails (rail-only, packed) ports are only limited members of Default, so
 * rails cannot talk to each other; elsewhere Default is full (any to any). */
static int write_partitions(ry_outdir *o, const char *prefix, const ry_ibplan *pl,
                            const ry_subnet *sn, const down *d)
{
    const ry_fabric *f = pl->f;
    FILE *fp = open_in(o, prefix, sn, "partitions.conf");
    if (!fp)
        return -1;
    int isolated = f->design == RY_DESIGN_RAIL_ONLY && sn->nrails > 1;
    fprintf(fp, "# Partitions of subnet %s: Default, and one per rail (P_Key 0x%04x + rail)\n",
            sn->name, f->spec->ib.pkey_base);
    fprintf(fp, "Default=0x7fff, ipoib : %s ;\n", isolated ? "ALL=limited, SELF=full" : "ALL=full");
    int r0 = sn->rail0 < 0 ? 0 : sn->rail0, nr = sn->rail0 < 0 ? f->rails : sn->nrails;
    for (int r = r0; r < r0 + nr; r++) {
        int members = 0;
        for (size_t c = 0; c < sn->nca; c++) {
            uint32_t gpu = sn->ca[c] / (uint32_t)f->planes;
            if (f->nodes[gpu].rail != r || port_down(f, d, sn->ca[c]))
                continue;
            if (!members)
                fprintf(fp, "rail%d=0x%04x, ipoib, defmember=full :\n", r,
                        f->spec->ib.pkey_base + r);
            fprintf(fp, "%s    0x%016llx", members ? ",\n" : "",
                    (unsigned long long)ry_plan_ca_port_guid(pl, sn->ca[c]));
            members++;
        }
        if (members)
            fputs(" ;\n", fp);
    }
    return ry_outdir_close(o, fp);
}

static int write_opensm_conf(ry_outdir *o, const char *prefix, const ry_ibplan *pl,
                             const ry_subnet *sn)
{
    const ry_spec *s = pl->f->spec;
    FILE *fp = open_in(o, prefix, sn, "opensm.conf");
    if (!fp)
        return -1;
    fprintf(fp,
            "# OpenSM configuration for subnet %s of %s (opensm -F opensm.conf).\n"
            "# File names are relative: start opensm in this directory, or edit them.\n"
            "# The LFT file carries each destination's port GUID, so OpenSM maps routes to\n"
            "# the LIDs it assigns; to keep railyard's LIDs as well, copy guid2lid into\n"
            "# $OSM_CACHE_DIR (default /var/cache/opensm) before the first sweep.\n"
            "routing_engine %s\n"
            "lfts_file lfts.dump\n"
            "root_guid_file root_guids.conf\n"
            "cn_guid_file cn_guids.conf\n"
            "partition_config_file partitions.conf\n"
            "node_name_map_name node-name-map\n"
            "lmc %d\n",
            sn->name, s->name, s->ib.routing_engine, s->ib.lmc);
    return ry_outdir_close(o, fp);
}

/* The LFT lines are the bulk of the output (switches x LIDs): formatted by
 * hand into a large buffer. */
static char *put_hex(char *p, unsigned long long v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; i--)
        p[i] = hex[v & 15], v >>= 4;
    return p + digits;
}

/* Bytes of an LFT line as write_lfts puts it: "0x0001 000" and, with the
 * port GUID, " portguid 0x0002c90201000000:"; and the newline. */
enum { LFT_LINE = 11, LFT_LINE_GUID = 40 };

void ry_opensm_lfts_estimate(const ry_ibplan *pl, ry_opensm_stats *st)
{
    const ry_fabric *f = pl->f;
    memset(st, 0, sizeof *st);
    unsigned long long line = f->spec->ib.lft_portguid ? LFT_LINE_GUID : LFT_LINE;
    char name[96];
    for (int k = 0; k < pl->nsubnets; k++) {
        const ry_subnet *sn = &pl->subnets[k];
        unsigned long long lids = sn->nsw + ((unsigned long long)sn->nca << pl->lmc);
        st->subnets++;
        for (size_t i = 0; i < sn->nsw; i++) {
            uint32_t id = sn->sw[i];
            switch_name(f, id, name, sizeof name);
            int head = snprintf(NULL, 0, "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx "
                                "('%s'):\n%u lids dumped\n", sn->max_lid,
                                pl->sw_lid[id - f->first_switch],
                                (unsigned long long)ry_plan_sw_guid(pl, id), name, sn->max_lid);
            st->lft_entries += lids;
            st->bytes += lids * line + (unsigned long long)(head > 0 ? head : 0);
        }
    }
}

static int write_lfts(ry_outdir *o, const char *prefix, const ry_ibplan *pl,
                      const ry_subnet *sn, int k, const down *d, ry_opensm_stats *st)
{
    const ry_fabric *f = pl->f;
    FILE *fp = open_in(o, prefix, sn, "lfts.dump");
    if (!fp)
        return -1;
    int with_guid = f->spec->ib.lft_portguid;
    uint32_t maxlid = sn->max_lid;
    /* LID -> destination port GUID (none for a failed element's LIDs) */
    uint64_t *lid_guid = ry_xcalloc(maxlid + 1, sizeof *lid_guid);
    for (size_t i = 0; i < sn->nsw; i++)
        if (!node_down(d, sn->sw[i]))
            lid_guid[pl->sw_lid[sn->sw[i] - f->first_switch]] = ry_plan_sw_guid(pl, sn->sw[i]);
    for (size_t c = 0; c < sn->nca; c++)
        for (uint32_t x = 0; x < (1u << pl->lmc) && !port_down(f, d, sn->ca[c]); x++)
            lid_guid[pl->ca_lid[sn->ca[c]] + x] = ry_plan_ca_port_guid(pl, sn->ca[c]);

    ry_router *r = ry_router_new_failed(pl, k, d->node, d->link);
    uint8_t *row = ry_xmalloc(maxlid + 1);
    size_t cap = (size_t)(maxlid + 1) * 40 + 256;
    char *buf = ry_xmalloc(cap);
    char name[96];
    for (size_t i = 0; i < sn->nsw; i++) {
        uint32_t id = sn->sw[i];
        if (node_down(d, id))
            continue;
        ry_router_row(r, i, row);
        switch_name(f, id, name, sizeof name);
        char *p = buf;
        p += snprintf(p, 256, "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx ('%s'):\n",
                      maxlid, pl->sw_lid[id - f->first_switch],
                      (unsigned long long)ry_plan_sw_guid(pl, id), name);
        for (uint32_t lid = 1; lid <= maxlid; lid++) {
            uint8_t port = row[lid];
            if (port == RY_LFT_NONE || !lid_guid[lid])
                continue;
            *p++ = '0';
            *p++ = 'x';
            p = put_hex(p, lid, 4);
            *p++ = ' ';
            *p++ = (char)('0' + port / 100);
            *p++ = (char)('0' + port / 10 % 10);
            *p++ = (char)('0' + port % 10);
            if (with_guid) {
                memcpy(p, " portguid 0x", 12);
                p = put_hex(p + 12, lid_guid[lid], 16);
                *p++ = ':';
            }
            *p++ = '\n';
            st->lft_entries++;
        }
        p += snprintf(p, 64, "%u lids dumped\n", maxlid);
        fwrite(buf, 1, (size_t)(p - buf), fp);
        st->bytes += (unsigned long long)(p - buf);
    }
    free(buf);
    free(row);
    free(lid_guid);
    ry_router_free(r);
    return ry_outdir_close(o, fp);
}

int ry_emit_opensm_failed(ry_outdir *o, const char *prefix, const ry_ibplan *pl,
                          const uint8_t *node_down_of, const uint8_t *link_down_of,
                          ry_opensm_stats *stats)
{
    ry_opensm_stats local, *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    down dn = { node_down_of, link_down_of }, *d = &dn;
    for (int k = 0; k < pl->nsubnets; k++) {
        const ry_subnet *sn = &pl->subnets[k];
        size_t nsw, nca;
        survivors(pl, sn, d, &nsw, &nca);
        if (nsw == 0)
            continue;   /* the whole subnet failed: no directory */
        int whole = nsw == sn->nsw && nca == sn->nca;
        st->subnets++;
        if (write_topology(o, prefix, pl, sn, d) < 0 ||
            write_guid_lists(o, prefix, pl, sn, d) < 0 ||
            write_partitions(o, prefix, pl, sn, d) < 0 ||
            write_opensm_conf(o, prefix, pl, sn) < 0 || write_lfts(o, prefix, pl, sn, k, d, st) < 0 ||
            (whole && ry_emit_ibdm(o, prefix, pl, sn) < 0))
            return -1;
    }
    return 0;
}

int ry_emit_opensm(ry_outdir *o, const char *prefix, const ry_ibplan *pl, ry_opensm_stats *stats)
{
    return ry_emit_opensm_failed(o, prefix, pl, NULL, NULL, stats);
}
