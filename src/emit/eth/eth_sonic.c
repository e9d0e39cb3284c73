/* SONiC's CONFIG_DB of every switch as switches/<switch>/config_db.json
 * (what `config load` or `sonic-cfggen -j FILE --write-to-db` takes): the
 * tables, keys and fields of sonic-buildimage's YANG models
 * (src/sonic-yang-models/yang-models/sonic-*.yang), every value a string as
 * CONFIG_DB holds it, keys sorted.
 *
 *   DEVICE_METADATA     hostname, bgp_asn, type (ry_eth_role),
 *                       docker_routing_config_mode "separated": bgpcfgd
 *                       renders FRR's BGP from BGP_NEIGHBOR (the frr.conf
 *                       beside this file is the same routing for "split-
 *                       unified", FRR's own file instead)
 *   PORT                every port of the model, split parts counted: lanes,
 *                       speed (Mb/s), alias, mtu 9216, fec, admin_status up
 *                       when cabled
 *   BREAKOUT_CFG        each cage of a switch whose tier splits ports
 *   LOOPBACK_INTERFACE  Loopback0 and its /32 (and /128 with IPv6)
 *   INTERFACE           the ToR's /31 (and /64) of each host link; each
 *                       fabric port bare with ipv6_use_link_local_only, so
 *                       it has an IPv6 link-local address and no other
 *   BGP_NEIGHBOR        unnumbered peers keyed by interface name, the
 *                       remote ASN of the plan: sonic-buildimage from the
 *                       merge of its pull request 27370 (bgpcfgd: BGP
 *                       unnumbered neighbors; sonic-bgp-neighbor.yang's
 *                       neighbor key takes a PORT name, sonic-bgp-common's
 *                       address_family v4|v6|both)
 *   QoS                 the RoCE profile of ry_roce_qos_of: DSCP_TO_TC_MAP,
 *                       TC_TO_QUEUE_MAP, TC_TO_PRIORITY_GROUP_MAP,
 *                       MAP_PFC_PRIORITY_TO_QUEUE (lossless), PORT_QOS_MAP,
 *                       SCHEDULER, QUEUE, WRED_PROFILE on every cabled port
 *   buffers (lossless)  NVIDIA's (Spectrum) switches: the dynamic model;
 *                       others: buffer_model traditional, the lossless PG
 *                       left to buffermgrd (pg_profile_lookup.ini);
 *                       dynamic: BUFFER_PG of the RoCE
 *                       priority group with profile "NULL" (headroom sized
 *                       by buffermgrd from speed, cable length and MTU),
 *                       DEFAULT_LOSSLESS_BUFFER_PARAMETER and
 *                       LOSSLESS_TRAFFIC_PATTERN as SONiC's buffers_config.j2
 *                       writes them
 *   DEVICE_NEIGHBOR     each cabled port's other end: switch and port, or
 *                       host and NIC netdev
 *   CABLE_LENGTH        AZURE: each cabled port's cable, the plan's stock
 *                       length rounded up to metres (the buffer headroom
 *                       depends on it)
 *   PFC_WD (lossless)   the PFC watchdog on every cabled port, with the
 *                       values `pfcwd start_default` gives (sonic-utilities
 *                       pfcwd/main.py: detection and restoration 200 ms,
 *                       action drop, polled every 200 ms, each times
 *                       1 + (ports - 1) / 32); pfcwd_sw_enable alone starts
 *                       nothing (default_pfcwd_status is disable)
 *
 * Left to the platform (its port_config.ini / platform.json, hwsku and
 * buffer templates): the SerDes lane numbers (lanes here are the logical
 * lanes the port names count, Ethernet<first lane>; a platform whose lanes
 * are numbered otherwise keeps its own), hwsku, platform, mac, the buffer
 * pools and lossy buffer profiles. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "emit/json_out.h"
#include "emit/eth/eth.h"
#include "fabric/names.h"

/* Map and profile names (pattern [a-zA-Z0-9][-a-zA-Z0-9_]{0,31}); AZURE
 * is the name buffermgrd reads its lossless parameters under. */
#define QOS_MAP "ROCE"
#define WRED_NAME "ROCE_ECN"
#define BUF_PARAM "AZURE"
/* DWRR weights: SONiC's qos_config.j2 gives its lossless queues' scheduler
 * 15 and the others' 14. */
#define W_ROCE 15
#define W_OTHER 14

static void set_str(json_t *o, const char *k, const char *v)
{
    json_object_set_new(o, k, json_string(v));
}

static void set_int(json_t *o, const char *k, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    json_object_set_new(o, k, json_string(b));
}

static json_t *table(json_t *db, const char *name)
{
    json_t *t = json_object_get(db, name);
    if (!t) {
        t = json_object();
        json_object_set_new(db, name, t);
    }
    return t;
}

static json_t *entry(json_t *db, const char *tab, const char *key)
{
    json_t *t = table(db, tab), *e = json_object_get(t, key);
    if (!e) {
        e = json_object();
        json_object_set_new(t, key, e);
    }
    return e;
}

/* The QoS tables every switch shares; dynamic: the dynamic buffer
 * model's own two. */
static void qos_tables(json_t *db, const ry_roce_qos *q, int dynamic)
{
    json_t *m = entry(db, "DSCP_TO_TC_MAP", QOS_MAP);
    for (int d = 0; d < 64; d++) {
        char k[8];
        snprintf(k, sizeof k, "%d", d);
        set_int(m, k, d == q->roce_dscp ? q->roce_prio : d == q->cnp_dscp ? q->cnp_prio : 0);
    }
    json_t *tq = entry(db, "TC_TO_QUEUE_MAP", QOS_MAP);
    json_t *tp = entry(db, "TC_TO_PRIORITY_GROUP_MAP", QOS_MAP);
    for (int tc = 0; tc < 8; tc++) {
        char k[8];
        snprintf(k, sizeof k, "%d", tc);
        set_int(tq, k, tc);
        set_int(tp, k, tc == q->roce_prio ? q->roce_prio : 0);
    }
    if (q->pfc) {
        json_t *pq = entry(db, "MAP_PFC_PRIORITY_TO_QUEUE", QOS_MAP);
        for (int p = 0; p < 8; p++) {
            char k[8];
            snprintf(k, sizeof k, "%d", p);
            set_int(pq, k, p);
        }
    }
    if (q->pfc && dynamic) {
        set_int(entry(db, "DEFAULT_LOSSLESS_BUFFER_PARAMETER", BUF_PARAM), "default_dynamic_th",
                0);
        json_t *lt = entry(db, "LOSSLESS_TRAFFIC_PATTERN", BUF_PARAM);
        set_int(lt, "mtu", 1024);
        set_int(lt, "small_packet_percentage", 100);
    }
    set_str(entry(db, "SCHEDULER", "scheduler.strict"), "type", "STRICT");
    json_t *s = entry(db, "SCHEDULER", "scheduler.roce");
    set_str(s, "type", "DWRR");
    set_int(s, "weight", W_ROCE);
    s = entry(db, "SCHEDULER", "scheduler.default");
    set_str(s, "type", "DWRR");
    set_int(s, "weight", W_OTHER);
    json_t *w = entry(db, "WRED_PROFILE", WRED_NAME);
    static const char *const color[] = { "green", "yellow", "red" };
    for (int c = 0; c < 3; c++) {
        char k[48];
        snprintf(k, sizeof k, "wred_%s_enable", color[c]);
        set_str(w, k, "true");
        snprintf(k, sizeof k, "%s_min_threshold", color[c]);
        set_int(w, k, 1024LL * q->ecn_min_kb);
        snprintf(k, sizeof k, "%s_max_threshold", color[c]);
        set_int(w, k, 1024LL * q->ecn_max_kb);
        snprintf(k, sizeof k, "%s_drop_probability", color[c]);
        set_int(w, k, q->ecn_prob);
    }
    set_str(w, "ecn", "ecn_all");
}

/* A queue's scheduler: strict for CNPs, the RoCE weight for RoCE. */
static const char *queue_sched(const ry_roce_qos *q, int i)
{
    return i == q->cnp_prio ? "scheduler.strict" : i == q->roce_prio ? "scheduler.roce"
                                                                     : "scheduler.default";
}

/* A cabled port's QoS: its maps, and its queues in runs of one scheduler
 * (QUEUE keys take a range, "Ethernet0|0-2"). */
/* `pfcwd start_default`'s scale for a switch of nports ports. */
static int pfcwd_multiply(int nports)
{
    int m = (nports - 1) / 32 + 1;
    return m > 1 ? m : 1;
}

static void port_qos(json_t *db, const char *pn, const ry_roce_qos *q, int wd_ms, int dynamic)
{
    json_t *p = entry(db, "PORT_QOS_MAP", pn);
    set_str(p, "dscp_to_tc_map", QOS_MAP);
    set_str(p, "tc_to_queue_map", QOS_MAP);
    set_str(p, "tc_to_pg_map", QOS_MAP);
    char k[64];
    if (q->pfc) {
        snprintf(k, sizeof k, "%d", q->roce_prio);
        set_str(p, "pfc_enable", k);
        set_str(p, "pfcwd_sw_enable", k);
        set_str(p, "pfc_to_queue_map", QOS_MAP);
        /* the dynamic model sizes the headroom of a PG whose profile is NULL;
         * the traditional one makes the lossless PG itself (buffermgrd, from
         * the platform's pg_profile_lookup.ini by speed and cable length) */
        snprintf(k, sizeof k, "%s|%d", pn, q->roce_prio);
        if (dynamic)
            set_str(entry(db, "BUFFER_PG", k), "profile", "NULL");
        json_t *wd = entry(db, "PFC_WD", pn);
        set_str(wd, "action", "drop");
        set_int(wd, "detection_time", wd_ms);
        set_int(wd, "restoration_time", wd_ms);
    }
    for (int i = 0; i < 8;) {
        const char *s = queue_sched(q, i);
        int j = i;
        while (j + 1 < 8 && j + 1 != q->roce_prio && i != q->roce_prio &&
               queue_sched(q, j + 1) == s)
            j++;
        if (j == i)
            snprintf(k, sizeof k, "%s|%d", pn, i);
        else
            snprintf(k, sizeof k, "%s|%d-%d", pn, i, j);
        json_t *e = entry(db, "QUEUE", k);
        set_str(e, "scheduler", s);
        if (i == q->roce_prio)
            set_str(e, "wred_profile", WRED_NAME);
        i = j + 1;
    }
}

static void port_entry(json_t *db, const ry_ethplan *pl, uint32_t p, int cabled)
{
    const ry_fabric *f = pl->f;
    const ry_node *n = ry_port_node(f, p);
    int first, sub, split;
    int nl = ry_eth_port_lanes(pl, p, &first);
    int cage = ry_switch_port_phys(f, n, p - n->port0, &sub, &split);
    char pn[32], buf[512];
    ry_eth_port_name(pl, p, pn, sizeof pn);
    json_t *e = entry(db, "PORT", pn);
    size_t len = 0;
    for (int l = 0; l < nl && len < sizeof buf - 16; l++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%d", l ? "," : "", first + l);
    set_str(e, "lanes", buf);
    double g = ry_port_gbps(f, p);
    set_int(e, "speed", (long long)(g * 1000 + 0.5));
    /* "cage" counts the model's ports; a twin-port cage (cage_ports 2, as
     * the SN5600's OSFP) holds two of them: the alias names the faceplate
     * cage and the port's place in it, the index the cage (the transceiver),
     * as the platform's port_config.ini does (Mellanox-SN5600-O128:
     * Ethernet4 is etp1b, index 1) */
    const ry_switch_model *sw = f->tier[n->tier].sw ? f->tier[n->tier].sw : &f->spec->sw;
    int cp = sw->cage_ports > 1 ? sw->cage_ports : 1;
    int phys = cage / cp, pos = (cage % cp) * split + sub, per = cp * split;
    if (per > 1)
        snprintf(buf, sizeof buf, "etp%d%c", phys + 1, 'a' + pos);
    else
        snprintf(buf, sizeof buf, "etp%d", phys + 1);
    set_str(e, "alias", buf);
    set_int(e, "index", phys + 1);
    if (per > 1)
        set_int(e, "subport", pos + 1);
    set_str(e, "mtu", "9216");
    /* RS-FEC for 25G-and-faster lanes (IEEE 802.3 clauses 91, 119, 134:
     * 100G and up need it); none below */
    set_str(e, "fec", g / nl >= 25 ? "rs" : "none");
    set_str(e, "admin_status", cabled ? "up" : "down");
}

/* A link's length as CABLE_LENGTH takes it, whole metres ("3m"): the
 * plan's stock length rounded up; without a plan the length SONiC's buffer
 * template gives the pair of roles (buffers_config.j2's ports2cable:
 * server 5 m, ToR-leaf 40 m, leaf-spine 300 m). */
static void cable_length(const ry_fabric *f, const ry_cabling *cab, uint32_t port, int dynamic,
                         char *buf, size_t n)
{
    int32_t l = f->ports[port].link;
    if (cab && l >= 0) {
        int m = (int)ceil(ry_cable_length(cab, (uint32_t)l) - 1e-9);
        /* the traditional model finds a lossless profile only for the
         * lengths of pg_profile_lookup.ini, 5, 40 and 300 m: the next one up */
        if (!dynamic)
            m = m <= 5 ? 5 : m <= 40 ? 40 : 300;
        snprintf(buf, n, "%dm", m);
        return;
    }
    const ry_node *a = ry_port_node(f, port), *b = ry_port_node(f, (uint32_t)f->ports[port].peer);
    int lo = a->tier < b->tier ? a->tier : b->tier;
    snprintf(buf, n, "%s", lo == 0 ? "5m" : lo == 1 ? "40m" : "300m");
}

static json_t *switch_json(const ry_ethplan *pl, const ry_cabling *cab, uint32_t id)
{
    const ry_fabric *f = pl->f;
    const ry_spec *s = f->spec;
    const ry_node *n = &f->nodes[id];
    int v6 = s->eth.ipv6 != RY_IPV6_OFF;
    ry_roce_qos q;
    ry_roce_qos_of(s->eth.qos, &q);
    json_t *db = json_object();
    char name[96], pn[32], a[64], k[160];
    ry_node_name(f, id, name, sizeof name);

    json_t *md = entry(db, "DEVICE_METADATA", "localhost");
    set_str(md, "hostname", name);
    set_int(md, "bgp_asn", ry_eth_asn(pl, id));
    set_str(md, "type", ry_eth_role(n));
    set_str(md, "docker_routing_config_mode", "separated");
    /* the dynamic buffer model is Mellanox's alone (sonic-device_metadata.yang);
     * every other vendor's platform, and one not named, keeps the
     * traditional one */
    const ry_switch_model *sw = ry_spec_tier_switch(s, n->tier);
    int dynamic = q.pfc && sw && (strcasecmp(sw->vendor, "NVIDIA") == 0 ||
                                  strcasecmp(sw->vendor, "Mellanox") == 0);
    if (q.pfc)
        set_str(md, "buffer_model", dynamic ? "dynamic" : "traditional");

    entry(db, "LOOPBACK_INTERFACE", "Loopback0");
    snprintf(k, sizeof k, "Loopback0|%s/32", ry_ip4_text(ry_eth_loopback(pl, id), a, sizeof a));
    entry(db, "LOOPBACK_INTERFACE", k);
    if (v6) {
        uint8_t x[16];
        ry_eth_loopback6(pl, id, x);
        snprintf(k, sizeof k, "Loopback0|%s/128", ry_ip6_text(x, a, sizeof a));
        entry(db, "LOOPBACK_INTERFACE", k);
    }

    const ry_tier_ports *t = &f->tier[n->tier];
    int splits = t->sw && (t->down_split > 1 || t->up_split > 1);
    qos_tables(db, &q, dynamic);
    if (q.pfc)
        set_int(entry(db, "PFC_WD", "GLOBAL"), "POLL_INTERVAL",
                200 * pfcwd_multiply((int)n->nports));
    for (uint32_t p = n->port0; p < n->port0 + n->nports; p++) {
        int32_t peer = f->ports[p].peer;
        port_entry(db, pl, p, peer >= 0);
        ry_eth_port_name(pl, p, pn, sizeof pn);
        if (splits) {
            int sub, split;
            ry_switch_port_phys(f, n, p - n->port0, &sub, &split);
            if (sub == 0) {
                snprintf(a, sizeof a, "%dx%dG", split,
                         (int)(ry_port_gbps(f, p) + 0.5));
                set_str(entry(db, "BREAKOUT_CFG", pn), "brkout_mode", a);
            }
        }
        if (peer < 0)
            continue;
        port_qos(db, pn, &q, 200 * pfcwd_multiply((int)n->nports), dynamic);
        const ry_node *m = ry_port_node(f, (uint32_t)peer);
        /* who is at the other end, and how far */
        char peer_dev[96], peer_port[32];
        json_t *dn = entry(db, "DEVICE_NEIGHBOR", pn);
        if (m->kind == RY_NODE_GPU) {
            ry_host_name(f, m->index / (f->spec->node.gpus_per_node > 0
                                        ? f->spec->node.gpus_per_node : 1),
                         peer_dev, sizeof peer_dev);
            ry_eth_nic_name(f, (uint32_t)peer, peer_port, sizeof peer_port);
        } else {
            ry_node_name(f, f->ports[peer].owner, peer_dev, sizeof peer_dev);
            ry_eth_port_name(pl, (uint32_t)peer, peer_port, sizeof peer_port);
        }
        set_str(dn, "name", peer_dev);
        set_str(dn, "port", peer_port);
        cable_length(f, cab, p, dynamic, a, sizeof a);
        set_str(entry(db, "CABLE_LENGTH", "AZURE"), pn, a);
        json_t *ie = entry(db, "INTERFACE", pn);
        if (m->kind == RY_NODE_GPU) {
            uint32_t nic = (uint32_t)peer;
            snprintf(k, sizeof k, "%s|%s/31", pn,
                     ry_ip4_text(ry_eth_link_addr(pl, nic), a, sizeof a));
            entry(db, "INTERFACE", k);
            if (v6) {
                uint8_t x[16];
                ry_eth_link6(pl, nic, 1, x);
                snprintf(k, sizeof k, "%s|%s/64", pn, ry_ip6_text(x, a, sizeof a));
                entry(db, "INTERFACE", k);
            }
        } else {
            set_str(ie, "ipv6_use_link_local_only", "enable");
            json_t *nb = entry(db, "BGP_NEIGHBOR", pn);
            char peer_name[96];
            ry_node_name(f, f->ports[peer].owner, peer_name, sizeof peer_name);
            set_int(nb, "asn", ry_eth_asn(pl, f->ports[peer].owner));
            set_str(nb, "name", peer_name);
            set_str(nb, "admin_status", "up");
            set_str(nb, "address_family", v6 ? "both" : "v4");
            /* FRR's datacenter defaults, as frr.conf has them */
            set_int(nb, "keepalive", 3);
            set_int(nb, "holdtime", 9);
        }
    }
    return db;
}

typedef struct sonic_ctx {
    const ry_cabling *cab;
    ry_eth_stats *st;
} sonic_ctx;

static int config_db(FILE *fp, const ry_ethplan *pl, uint32_t id, const char *rel,
                     void *ctx)
{
    (void)rel;
    ry_eth_stats *st = ((const sonic_ctx *)ctx)->st;
    ry_buf b;
    ry_buf_init(&b);
    const sonic_ctx *c = ctx;
    ry_json_out_flags(&b, switch_json(pl, c->cab, id), JSON_INDENT(4) | JSON_SORT_KEYS);
    fwrite(b.data, 1, b.len, fp);
    ry_buf_free(&b);
    st->sonic++;
    return 0;
}

int ry_eth_write_sonic(ry_outdir *o, const char *dir, const ry_ethplan *pl, const ry_cabling *cab,
                       ry_eth_stats *st)
{
    sonic_ctx c = { cab, st };
    return ry_eth_each_switch(o, dir, pl, "config_db.json", config_db, &c);
}
