/* The flow engine's routes and resources (src/net/netgraph.c), against
 * what the fabric and the rest of railyard say, on small fabrics of
 * tests/data:
 *   - every resource's capacity is its link's rate (or the NVLink rate),
 *     and its name reads as its ends;
 *   - InfiniBand static: every GPU pair's route is the walk of the linear
 *     forwarding tables analysis/route.c writes, GPU to GPU; across leaves
 *     of a 2-tier fabric it crosses 4 links;
 *   - InfiniBand adaptive: a leaf spreads a flow evenly over its uplinks
 *     (weight 1/n each), and every hop's weights sum to 1;
 *   - Ethernet ECMP: many connections from one leaf to another spread over
 *     the leaf's uplinks as balls into bins (bounds computed here), and
 *     hashing the queue pairs (4 of them) makes the spread more even;
 *   - polarisation on a 3-tier fabric: with one seed each middle switch
 *     sends everything it gets up one link; a seed per switch uses them all;
 *   - NVLink inside an HB domain, PXN through another GPU of the domain;
 *   - errors: ecmp on InfiniBand, no queue pairs, no NVLink rate, GPUs
 *     of two rails of a rail-only fabric, a GPU or plane out of range;
 *   - failures (ry_net_set_down), InfiniBand static and adaptive, Ethernet
 *     ECMP and adaptive: a top switch and every fifth link between switches
 *     down, every GPU pair's route crosses no dead link and no dead switch
 *     and routes whenever both NIC ports live (the 2- and 3-tier fabrics
 *     here keep an up-down path); a dead NIC port is no route, named; with
 *     nothing down again the routes are the healthy engine's, entry for
 *     entry;
 *   - collectives (net/collective.h): several jobs placed on disjoint
 *     nodes, the scattered draw continued from one job's; the tree's flows
 *     (2 C (n-1): every chain and tree edge both ways) and time 4 S / (C R)
 *     on a non-blocking fabric; SHARP's time max(2(g-1)/g S / NVL, S/(g R))
 *     on Quantum-2 and its refusal on switches without it;
 *   - a group phase's loads (ry_coll_groups_load), placed in batches, are
 *     bit for bit those of its flows built at once and summed here, and a
 *     pipeline's groups sent both ways are twice the flows one way.
 * With "big" it also routes a 16,384-GPU ring (8 channels, InfiniBand
 * static and Ethernet ECMP) and prints the time it took.
 *
 * usage: net_test SRCDIR [big]; exits non-zero on a failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/route.h"
#include "check.h"
#include "fabric/fabric.h"
#include "fabric/ibplan.h"
#include "net/collective.h"
#include "net/flow.h"
#include "net/updown.h"
#include "spec/spec.h"

static const char *srcdir;
static char tdir[4096];

static ry_spec *load(const char *rel, ry_fabric *f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", srcdir, rel);
    ry_spec *s = ry_spec_load(path, NULL, 0, tdir);
    CHECK(s != NULL, "cannot load %s", path);
    if (!s)
        return NULL;
    ry_err err;
    if (ry_fabric_build(s, f, &err) < 0) {
        CHECK(0, "%s: %s", rel, err.msg);
        ry_spec_free(s);
        return NULL;
    }
    return s;
}

static ry_net *engine(const ry_fabric *f, ry_net_routing r)
{
    ry_net_opts o;
    ry_net_opts_default(&o);
    o.routing = r;
    ry_err err;
    ry_net *n = ry_net_new(f, &o, &err);
    CHECK(n != NULL, "engine: %s", err.msg);
    return n;
}

static int is_leaf_port(const ry_fabric *f, uint32_t p) { return ry_port_node(f, p)->tier == 1; }
static uint32_t nres_of(const ry_flows *fl, size_t i) { return (uint32_t)(fl->off[i + 1] - fl->off[i]); }

/* ---- capacities and names ----------------------------------------------------------------- */

static void test_capacity(const ry_fabric *f, const char *name)
{
    ry_net_opts o;
    ry_net_opts_default(&o);
    o.nvlink_bytes_s = 123e9;
    ry_err err;
    ry_net *n = ry_net_new(f, &o, &err);
    CHECK(n != NULL, "%s: %s", name, err.msg);
    if (!n)
        return;
    CHECK(ry_net_fabric(n) == f, "%s: fabric", name);
    CHECK(ry_net_resources(n) == 2 * f->nlinks + 2 * (size_t)f->gpus, "%s: %zu resources", name,
          ry_net_resources(n));
    long long bad = 0;
    for (size_t l = 0; l < f->nlinks; l++) {
        double want = ry_link_gbps(f, (uint32_t)l) * 1e9 / 8;
        bad += ry_net_capacity(n, (uint32_t)(2 * l)) != want ||
               ry_net_capacity(n, (uint32_t)(2 * l + 1)) != want || !(want > 0);
    }
    for (long long g = 0; g < f->gpus; g++)
        bad += ry_net_capacity(n, (uint32_t)(2 * f->nlinks + 2 * g)) != 123e9 ||
               ry_net_capacity(n, (uint32_t)(2 * f->nlinks + 2 * g + 1)) != 123e9;
    CHECK(bad == 0, "%s: %lld capacities differ from the links' rates", name, bad);

    char buf[256];
    ry_net_resource_name(n, 0, buf, sizeof buf);
    const ry_link *l0 = &f->links[0];
    char want[256];
    snprintf(want, sizeof want, "gpu%d p%d -> ", ry_port_node(f, l0->lo)->index,
             ry_port_number(f, l0->lo));
    CHECK(strncmp(buf, want, strlen(want)) == 0 && strstr(buf, "(up)"), "%s: resource 0 is '%s'",
          name, buf);
    ry_net_resource_name(n, 1, buf, sizeof buf);
    CHECK(strncmp(buf, "leaf", 4) == 0 && strstr(buf, "-> gpu") && strstr(buf, "(down)"),
          "%s: resource 1 is '%s'", name, buf);
    ry_net_resource_name(n, (uint32_t)(2 * f->nlinks + 2 * 3), buf, sizeof buf);
    CHECK(strcmp(buf, "gpu3 NVLink out") == 0, "%s: '%s'", name, buf);
    ry_net_resource_name(n, (uint32_t)(2 * f->nlinks + 2 * 3 + 1), buf, sizeof buf);
    CHECK(strcmp(buf, "gpu3 NVLink in") == 0, "%s: '%s'", name, buf);
    ry_net_free(n);
}

/* ---- InfiniBand static: the LFTs --------------------------------------------------------- */

/* The resource of leaving by port p. */
static uint32_t dir_res(const ry_fabric *f, uint32_t p)
{
    uint32_t l = (uint32_t)f->ports[p].link;
    return 2 * l + (f->links[l].lo == p ? 0 : 1);
}

typedef struct each_ctx {
    double *got;
    size_t calls;
    unsigned char *seen;
} each_ctx;

static void each_load(void *ctx, uint32_t res, double bytes)
{
    each_ctx *e = ctx;
    e->got[res] = bytes;
    e->seen[res]++;
    e->calls++;
}

static void test_ib_static(void)
{
    ry_fabric f;
    ry_spec *s = load("tests/data/ib/ro-2tier-h100.yaml", &f);
    if (!s)
        return;
    test_capacity(&f, "ro-2tier-h100");
    ry_ibplan pl;
    ry_err err;
    if (ry_ibplan_build(&f, &pl, &err) < 0) {
        CHECK(0, "ibplan: %s", err.msg);
        goto out;
    }
    ry_net *n = engine(&f, RY_NET_STATIC);
    ry_flows fl;
    ry_flows_init(&fl);
    long long pairs = 0, differ = 0, four = 0, across = 0;
    for (int k = 0; k < pl.nsubnets; k++) {
        const ry_subnet *sn = &pl.subnets[k];
        ry_router *r = ry_router_new(&pl, k);
        const uint8_t *lft = ry_router_tables(r);
        size_t stride = (size_t)sn->max_lid + 1;
        int32_t *loc = malloc(f.nnodes * sizeof *loc);
        for (size_t i = 0; i < f.nnodes; i++)
            loc[i] = -1;
        for (size_t i = 0; i < sn->nsw; i++)
            loc[sn->sw[i]] = (int32_t)i;
        for (size_t a = 0; a < sn->nca; a++)
            for (size_t b = 0; b < sn->nca; b++) {
                uint32_t sp = sn->ca[a], dp = sn->ca[b];
                uint32_t src = f.ports[sp].owner, dst = f.ports[dp].owner;
                int plane = (int)(sp - f.nodes[src].port0);
                if (src == dst)
                    continue;
                ry_flows_clear(&fl);
                if (ry_net_connect(n, &fl, src, dst, plane, 0, 0, 1e6, &err) < 0 || fl.n != 1) {
                    CHECK(0, "gpu%u to gpu%u: %s", src, dst, err.msg);
                    continue;
                }
                /* the tables' walk */
                uint32_t want[16];
                size_t nw = 0;
                want[nw++] = dir_res(&f, sp);
                uint32_t x = f.ports[f.ports[sp].peer].owner;
                while (x >= f.first_switch && nw < 16) {
                    int port = lft[(size_t)loc[x] * stride + pl.ca_lid[dp]];
                    if (port == RY_LFT_NONE || port == 0)
                        break;
                    uint32_t p = f.nodes[x].port0 + (uint32_t)port - 1;
                    want[nw++] = dir_res(&f, p);
                    x = f.ports[f.ports[p].peer].owner;
                }
                int same = x == dst && nres_of(&fl, 0) == nw;
                for (size_t i = 0; same && i < nw; i++)
                    same = fl.res[fl.off[0] + i] == want[i] && fl.w[fl.off[0] + i] == 1.0f;
                differ += !same;
                pairs++;
                uint32_t sl = f.ports[f.ports[sp].peer].owner, dl = f.ports[f.ports[dp].peer].owner;
                if (sl != dl) {
                    across++;
                    four += nres_of(&fl, 0) == 4;
                }
            }
        free(loc);
        ry_router_free(r);
    }
    CHECK(pairs > 10000 && differ == 0, "IB static: %lld of %lld routes differ from the LFTs",
          differ, pairs);
    CHECK(across > 0 && four == across, "IB static: %lld of %lld routes across leaves cross 4 "
          "links", four, across);

    /* NVLink: both GPUs of one HB domain */
    ry_flows_clear(&fl);
    CHECK(ry_net_connect(n, &fl, 1, 2, 0, 1, 0, 5e6, &err) == 0 && fl.n == 1 &&
          nres_of(&fl, 0) == 2 && fl.res[0] == 2 * f.nlinks + 2 && fl.res[1] == 2 * f.nlinks + 5 &&
          fl.bytes[0] == 5e6, "NVLink flow");
    /* without nvlink, over the network (two rails: via a spine) */
    ry_flows_clear(&fl);
    CHECK(ry_net_connect(n, &fl, 1, 2, 0, 0, 0, 5e6, &err) == 0 && fl.n == 1 &&
          nres_of(&fl, 0) == 4, "GPUs of one domain over the network");
    /* PXN: gpu1 -> gpu2 over NVLink, then gpu2's port to gpu10 (rail 2, next domain) */
    ry_flows_clear(&fl);
    CHECK(ry_net_connect_via(n, &fl, 1, 2, 10, 0, 0, 5e6, &err) == 0 && fl.n == 1 &&
          nres_of(&fl, 0) == 4 && fl.res[0] == 2 * f.nlinks + 2 &&
          fl.res[1] == 2 * f.nlinks + 5 && fl.res[2] == dir_res(&f, f.nodes[2].port0) &&
          fl.res[3] == dir_res(&f, (uint32_t)f.ports[f.nodes[10].port0].peer),
          "PXN through a GPU on the destination's leaf: %s", err.msg);
    ry_flows_clear(&fl);
    CHECK(ry_net_connect_via(n, &fl, 1, 9, 10, 0, 0, 5e6, &err) < 0 &&
          strstr(err.msg, "gpu1") && strstr(err.msg, "gpu9") && strstr(err.msg, "HB domain"),
          "PXN across domains: %s", err.msg);
    /* queue pairs: qps flows of bytes / qps, on the one path of the LFTs */
    ry_net_opts o;
    ry_net_opts_default(&o);
    o.qps = 4;
    ry_net *q = ry_net_new(&f, &o, &err);
    ry_flows_clear(&fl);
    CHECK(q && ry_net_connect(q, &fl, 0, 100, 0, 0, 3, 8e6, &err) == 0 && fl.n == 4 &&
          fl.bytes[3] == 2e6 && memcmp(&fl.res[fl.off[0]], &fl.res[fl.off[3]],
                                      nres_of(&fl, 0) * sizeof *fl.res) == 0,
          "IB: 4 queue pairs");
    ry_net_free(q);
    /* rates: one connection alone at its NIC's rate; two into one GPU
     * share its link; the NVLink one at the NVLink rate */
    ry_net_result res;
    double nic = ry_link_gbps(&f, (uint32_t)f.ports[f.nodes[0].port0].link) * 1e9 / 8;
    ry_flows_clear(&fl);
    CHECK(ry_net_connect(n, &fl, 0, 100, 0, 0, 0, 1e9, &err) == 0 &&
          ry_net_run(n, &fl, &res, NULL, &err) == 0 && fabs(res.time_s - 1e9 / nic) < 1e-9 &&
          fabs(fl.rate[0] - nic) < 1e-3 * nic, "one flow: %g s, want %g", res.time_s, 1e9 / nic);
    ry_flows_clear(&fl);
    double *load = calloc(ry_net_resources(n), sizeof *load);
    CHECK(ry_net_connect(n, &fl, 0, 100, 0, 0, 0, 1e9, &err) == 0 &&
          ry_net_connect(n, &fl, 16, 100, 0, 0, 0, 1e9, &err) == 0 &&
          ry_net_connect(n, &fl, 97, 98, 0, 1, 0, 1e9, &err) == 0 &&
          ry_net_run(n, &fl, &res, load, &err) == 0 && fabs(fl.rate[0] - nic / 2) < 1e-3 * nic &&
          fabs(fl.rate[2] - 450e9) < 1 && fabs(res.time_s - 2e9 / nic) < 1e-9 &&
          load[fl.res[fl.off[1] - 1]] == 2e9, "two into one: rates %g %g, %g s", fl.rate[0],
          fl.rate[1], res.time_s);
    /* ry_net_run_each: each resource crossed once, with the bytes the load
     * array has, and no other */
    ry_flows_clear(&fl);
    for (uint32_t g = 0; g < (uint32_t)f.gpus; g += 3)
        ry_net_connect(n, &fl, g, (g * 7 + 5) % (uint32_t)f.gpus, 0, 1, g, 1e6 + g, &err);
    memset(load, 0, ry_net_resources(n) * sizeof *load);
    each_ctx ec = { calloc(ry_net_resources(n), sizeof *ec.got), 0,
                   calloc(ry_net_resources(n), 1) };
    ry_net_result r2;
    CHECK(ry_net_run(n, &fl, &res, load, &err) == 0 &&
          ry_net_run_each(n, &fl, &r2, each_load, &ec, &err) == 0 && r2.time_s == res.time_s,
          "ry_net_run_each: %s", err.msg);
    long long off = 0;
    for (size_t r = 0; r < ry_net_resources(n); r++)
        off += ec.got[r] != load[r] || ec.seen[r] > 1;
    CHECK(off == 0 && ec.calls > 0, "ry_net_run_each: %lld resources' bytes differ", off);
    free(ec.got);
    free(ec.seen);
    free(load);
    /* out of range */
    ry_flows_clear(&fl);
    CHECK(ry_net_connect(n, &fl, 0, (uint32_t)f.gpus, 0, 0, 0, 1, &err) < 0 &&
          strstr(err.msg, "GPU 128"), "GPU out of range: %s", err.msg);
    CHECK(ry_net_connect(n, &fl, 0, 9, 1, 0, 0, 1, &err) < 0 && strstr(err.msg, "plane 1"),
          "plane out of range: %s", err.msg);
    CHECK(fl.n == 0, "a refused connection added flows");

    ry_flows_free(&fl);
    ry_net_free(n);
    ry_ibplan_free(&pl);
out:
    ry_fabric_free(&f);
    ry_spec_free(s);
}

/* ---- InfiniBand adaptive ----------------------------------------------------------------- */

/* Sum of a flow's weights on the resources leaving nodes of tier t upward. */
static void check_spread(const ry_fabric *f, const ry_flows *fl, size_t i, const char *what,
                         int want_up, long long *bad)
{
    double sum[RY_MAX_TIERS + 2][2];
    memset(sum, 0, sizeof sum);
    int nup1 = 0;
    for (size_t e = fl->off[i]; e < fl->off[i + 1]; e++) {
        uint32_t r = fl->res[e];
        for (size_t e2 = fl->off[i]; e2 < e; e2++)
            *bad += fl->res[e2] == r;   /* each resource once */
        const ry_link *l = &f->links[r / 2];
        int up = !(r & 1);
        const ry_node *from = ry_port_node(f, up ? l->lo : l->hi);
        sum[from->tier][up] += fl->w[e];
        if (up && from->tier == 1) {
            nup1++;
            *bad += fabs(fl->w[e] - 1.0 / want_up) > 1e-6;
        }
    }
    *bad += nup1 != want_up;
    for (int t = 0; t <= f->tiers; t++)
        for (int u = 0; u < 2; u++)
            *bad += sum[t][u] != 0 && fabs(sum[t][u] - 1) > 1e-5;
    (void)what;
}

static void test_ib_adaptive(void)
{
    const char *files[] = { "tests/data/ib/ro-2tier-h100.yaml", "tests/data/ib/ro-3tier.yaml" };
    for (size_t fi = 0; fi < 2; fi++) {
        ry_fabric f;
        ry_spec *s = load(files[fi], &f);
        if (!s)
            continue;
        ry_net *n = engine(&f, RY_NET_ADAPTIVE);
        ry_flows fl;
        ry_flows_init(&fl);
        ry_err err;
        long long bad = 0, flows = 0;
        for (uint32_t a = 0; a < (uint32_t)f.gpus; a += 3)
            for (uint32_t b = 0; b < (uint32_t)f.gpus; b += 5) {
                uint32_t sl = f.ports[f.ports[f.nodes[a].port0].peer].owner;
                uint32_t dl = f.ports[f.ports[f.nodes[b].port0].peer].owner;
                if (a == b || sl == dl)
                    continue;
                /* the leaf's uplinks: every cabled up port of it */
                int nup = 0;
                for (uint32_t p = f.nodes[sl].port0; p < f.nodes[sl].port0 + f.nodes[sl].nports; p++)
                    nup += f.ports[p].peer >= 0 && !is_leaf_port(&f, (uint32_t)f.ports[p].peer) &&
                           ry_port_node(&f, (uint32_t)f.ports[p].peer)->tier == 2;
                ry_flows_clear(&fl);
                if (ry_net_connect(n, &fl, a, b, 0, 0, 0, 1e6, &err) < 0 || fl.n != 1) {
                    CHECK(0, "%s: gpu%u to gpu%u: %s", files[fi], a, b, err.msg);
                    continue;
                }
                check_spread(&f, &fl, 0, files[fi], nup, &bad);
                flows++;
            }
        CHECK(flows > 100 && bad == 0, "%s: adaptive: %lld of %lld flows not spread evenly",
              files[fi], bad, flows);
        ry_flows_free(&fl);
        ry_net_free(n);
        ry_fabric_free(&f);
        ry_spec_free(s);
    }
}

/* ---- Ethernet ECMP ----------------------------------------------------------------------- */

/* Bytes on each uplink of leaf sl (by its up ports in order), from the flows. */
static int uplink_loads(const ry_fabric *f, const ry_flows *fl, uint32_t sl, double *load)
{
    int n = 0;
    const ry_node *L = &f->nodes[sl];
    for (uint32_t p = L->port0; p < L->port0 + L->nports; p++) {
        if (f->ports[p].peer < 0 || ry_port_node(f, (uint32_t)f->ports[p].peer)->tier != 2)
            continue;
        uint32_t r = 2 * (uint32_t)f->ports[p].link;
        load[n] = 0;
        for (size_t i = 0; i < fl->n; i++)
            for (size_t e = fl->off[i]; e < fl->off[i + 1]; e++)
                if (fl->res[e] == r)
                    load[n] += fl->bytes[i] * fl->w[e];
        n++;
    }
    return n;
}

static double max_over_mean(const double *x, int n)
{
    double mx = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        sum += x[i];
        if (x[i] > mx)
            mx = x[i];
    }
    return sum > 0 ? mx / (sum / n) : 0;
}

/* GPUs on leaf l (on plane 0). */
static int gpus_under(const ry_fabric *f, uint32_t l, uint32_t *g, int max)
{
    int n = 0;
    for (uint32_t i = 0; i < (uint32_t)f->gpus && n < max; i++)
        if (f->ports[f->ports[f->nodes[i].port0].peer].owner == l)
            g[n++] = i;
    return n;
}

static void test_eth_ecmp(void)
{
    ry_fabric f;
    ry_spec *s = load("tests/data/eth/ro-2tier.yaml", &f);
    if (!s)
        return;
    test_capacity(&f, "eth ro-2tier");
    ry_err err;
    uint32_t la = f.ports[f.ports[f.nodes[0].port0].peer].owner;
    uint32_t lb = 0;
    for (uint32_t i = 1; i < (uint32_t)f.gpus && !lb; i++) {
        uint32_t l = f.ports[f.ports[f.nodes[i].port0].peer].owner;
        if (l != la)
            lb = l;
    }
    uint32_t ga[64], gb[64];
    int na = gpus_under(&f, la, ga, 64), nb = gpus_under(&f, lb, gb, 64);
    double load[64];
    ry_flows fl;
    ry_flows_init(&fl);

    /* many connections: balls into bins */
    for (int per_switch = 0; per_switch < 2; per_switch++) {
        ry_net_opts o;
        ry_net_opts_default(&o);
        o.routing = RY_NET_ECMP;
        o.per_switch_seed = per_switch;
        o.seed = 7;
        ry_net *n = ry_net_new(&f, &o, &err);
        CHECK(n != NULL, "eth engine: %s", err.msg);
        if (!n)
            break;
        ry_flows_clear(&fl);
        int conns = 32;
        long long bad = 0;
        for (int a = 0; a < na; a++)
            for (int b = 0; b < nb; b++)
                for (int c = 0; c < conns; c++) {
                    size_t before = fl.n;
                    if (ry_net_connect(n, &fl, ga[a], gb[b], 0, 0, (uint32_t)c, 1, &err) < 0) {
                        CHECK(0, "eth: %s", err.msg);
                        continue;
                    }
                    bad += fl.n != before + 1 || nres_of(&fl, before) != 4;
                }
        CHECK(bad == 0, "eth: %lld connections not one flow over 4 links", bad);
        int bins = uplink_loads(&f, &fl, la, load);
        double m = (double)fl.n, mean = m / bins, mx = 0, mn = m;
        for (int i = 0; i < bins; i++) {
            mx = load[i] > mx ? load[i] : mx;
            mn = load[i] < mn ? load[i] : mn;
        }
        /* balls into bins: the fullest of n bins holds about
         * m/n + sqrt(2 (m/n) ln n); allow twice the deviation, and the
         * emptiest as far below */
        double dev = sqrt(2 * mean * log((double)bins));
        CHECK(bins == 8 && mx <= mean + 2 * dev && mn >= mean - 2 * dev && mn > 0,
              "eth ECMP (per_switch_seed %d): %d bins, %g flows, max %g min %g, mean %g dev %g",
              per_switch, bins, m, mx, mn, mean, dev);
        ry_net_free(n);
    }

    /* queue pairs: 4 per connection; hashed apart only with hash_qp */
    double ratio[2];
    for (int hq = 0; hq < 2; hq++) {
        ry_net_opts o;
        ry_net_opts_default(&o);
        o.routing = RY_NET_ECMP;
        o.qps = 4;
        o.hash_qp = hq;
        ry_net *n = ry_net_new(&f, &o, &err);
        if (!n)
            break;
        ry_flows_clear(&fl);
        long long same = 0, conns = 0;
        for (int a = 0; a < na; a++)
            for (int b = 0; b < nb; b++) {
                size_t before = fl.n;
                if (ry_net_connect(n, &fl, ga[a], gb[b], 0, 0, 0, 4, &err) < 0 ||
                    fl.n != before + 4) {
                    CHECK(0, "eth qps: %s", err.msg);
                    continue;
                }
                int eq = 1;
                for (int q = 1; q < 4; q++)
                    eq &= fl.bytes[before + q] == 1 &&
                          memcmp(&fl.res[fl.off[before]], &fl.res[fl.off[before + q]],
                                 4 * sizeof *fl.res) == 0;
                same += eq;
                conns++;
            }
        int bins = uplink_loads(&f, &fl, la, load);
        ratio[hq] = max_over_mean(load, bins);
        if (!hq)
            CHECK(same == conns, "without hash_qp %lld of %lld connections split", conns - same,
                  conns);
        else
            CHECK(same < conns / 4, "with hash_qp %lld of %lld connections on one path", same,
                  conns);
        ry_net_free(n);
    }
    CHECK(ratio[1] < ratio[0], "hash_qp: max over mean %g, without %g", ratio[1], ratio[0]);

    /* adaptive: even over the leaf's 8 uplinks */
    ry_net *n = engine(&f, RY_NET_ADAPTIVE);
    ry_flows_clear(&fl);
    long long bad = 0;
    CHECK(ry_net_connect(n, &fl, ga[0], gb[0], 0, 0, 0, 1, &err) == 0 && fl.n == 1,
          "eth adaptive: %s", err.msg);
    if (fl.n == 1)
        check_spread(&f, &fl, 0, "eth adaptive", 8, &bad);
    CHECK(bad == 0, "eth adaptive: not spread evenly");
    ry_net_free(n);

    ry_flows_free(&fl);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

/* ---- polarisation ------------------------------------------------------------------------ */

/* The block (node.group) of the middle switches above GPU g's leaf. */
static int block_of(const ry_fabric *f, uint32_t g)
{
    const ry_node *l = ry_port_node(f, (uint32_t)f->ports[f->nodes[g].port0].peer);
    for (uint32_t p = l->port0; p < l->port0 + l->nports; p++)
        if (f->ports[p].peer >= 0 && ry_port_node(f, (uint32_t)f->ports[p].peer)->tier == 2)
            return ry_port_node(f, (uint32_t)f->ports[p].peer)->group;
    return -1;
}

static void test_polarisation(void)
{
    ry_fabric f;
    ry_spec *s = load("tests/data/eth/ro-3tier.yaml", &f);
    if (!s)
        return;
    ry_err err;
    ry_flows fl;
    ry_flows_init(&fl);
    /* from the GPUs under the first block of middle switches to those
     * under the second: up to the top tier and down again */
    int used[2] = { 0, 0 }, spines[2] = { 0, 0 }, up23 = 0;
    for (int ps = 0; ps < 2; ps++) {
        ry_net_opts o;
        ry_net_opts_default(&o);
        o.routing = RY_NET_ECMP;
        o.per_switch_seed = ps;
        o.seed = 12345;
        ry_net *n = ry_net_new(&f, &o, &err);
        CHECK(n != NULL, "3-tier: %s", err.msg);
        if (!n)
            break;
        ry_flows_clear(&fl);
        for (uint32_t a = 0; a < (uint32_t)f.gpus; a++)
            for (uint32_t b = 0; b < (uint32_t)f.gpus; b++) {
                if (block_of(&f, a) != 0 || block_of(&f, b) != 1)
                    continue;
                for (uint32_t c = 0; c < 8; c++)
                    if (ry_net_connect(n, &fl, a, b, 0, 0, c, 1, &err) < 0)
                        CHECK(0, "3-tier: %s", err.msg);
            }
        /* tier-2 -> tier-3 links used, and the tier-2 switches they leave */
        char *seen = calloc(f.nlinks, 1), *sw = calloc(f.nnodes, 1);
        for (size_t e = 0; e < fl.nent; e++) {
            uint32_t r = fl.res[e];
            if (r & 1 || r >= 2 * f.nlinks)
                continue;
            uint32_t lo = f.links[r / 2].lo;
            if (ry_port_node(&f, lo)->tier != 2)
                continue;
            if (!seen[r / 2])
                used[ps]++;
            seen[r / 2] = 1;
            if (!sw[f.ports[lo].owner])
                spines[ps]++;
            sw[f.ports[lo].owner] = 1;
        }
        if (ps == 0)
            for (size_t l = 0; l < f.nlinks; l++)
                up23 += ry_port_node(&f, f.links[l].lo)->tier == 2 &&
                        ry_port_node(&f, f.links[l].lo)->group == 0;
        free(seen);
        free(sw);
        CHECK(fl.n == 16 * 16 * 8, "3-tier: %zu flows", fl.n);
        ry_net_free(n);
    }
    /* one seed: a middle switch gets the flows whose hash picks it among
     * its leaf's n uplinks, so the same hash picks the same one of its n
     * uplinks for all of them: one link per switch */
    CHECK(spines[0] == 4 && used[0] == spines[0], "one seed: %d tier-2 -> tier-3 links used by "
          "%d tier-2 switches", used[0], spines[0]);
    CHECK(up23 == 16 && used[1] == up23, "per-switch seeds: %d of %d tier-2 -> tier-3 links used",
          used[1], up23);
    ry_flows_free(&fl);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

/* ---- errors ------------------------------------------------------------------------------ */

static void test_errors(void)
{
    ry_fabric f;
    ry_spec *s = load("tests/data/ib/railonly-2tier.yaml", &f);
    if (!s)
        return;
    ry_net_opts o;
    ry_err err;
    ry_net_opts_default(&o);
    o.routing = RY_NET_ECMP;
    memset(&err, 0, sizeof err);
    CHECK(ry_net_new(&f, &o, &err) == NULL && strstr(err.msg, "ecmp is for Ethernet") &&
          strcmp(err.key, "routing") == 0, "ecmp on InfiniBand: %s", err.msg);
    ry_net_opts_default(&o);
    o.qps = 0;
    CHECK(ry_net_new(&f, &o, &err) == NULL && strstr(err.msg, "queue pairs"), "qps 0: %s",
          err.msg);
    ry_net_opts_default(&o);
    o.nvlink_bytes_s = 0;
    CHECK(ry_net_new(&f, &o, &err) == NULL && strstr(err.msg, "NVLink"), "no NVLink: %s",
          err.msg);
    o.nvlink_bytes_s = NAN;
    CHECK(ry_net_new(&f, &o, &err) == NULL, "NVLink NaN");
    CHECK(ry_net_routing_parse("adaptive") == RY_NET_ADAPTIVE &&
          ry_net_routing_parse("ecmp") == RY_NET_ECMP &&
          ry_net_routing_parse("static") == RY_NET_STATIC && ry_net_routing_parse("ECMP") == -1 &&
          strcmp(ry_net_routing_name(RY_NET_ECMP), "ecmp") == 0, "routing words");

    /* rail-only: rails 0 and 1 of two domains share no switch */
    ry_flows fl;
    ry_flows_init(&fl);
    for (int r = 0; r < 2; r++) {
        ry_net *n = engine(&f, r ? RY_NET_ADAPTIVE : RY_NET_STATIC);
        uint32_t a = 0, b = 0;
        while (f.nodes[a].rail != 0)
            a++;
        for (b = 0; b < (uint32_t)f.gpus; b++)
            if (f.nodes[b].rail == 1 && f.nodes[b].group != f.nodes[a].group)
                break;
        char ga[16], gb[16];
        snprintf(ga, sizeof ga, "gpu%u", a);
        snprintf(gb, sizeof gb, "gpu%u", b);
        CHECK(ry_net_connect(n, &fl, a, b, 0, 1, 0, 1, &err) < 0 && strstr(err.msg, ga) &&
              strstr(err.msg, gb) && strstr(err.msg, "plane 0") && fl.n == 0,
              "rail-only across rails: %s", err.msg);
        /* the same rail is routed; NVLink inside the domain too */
        CHECK(ry_net_connect(n, &fl, a, a + 4, 0, 1, 0, 1, &err) == 0 && fl.n == 1 &&
              ry_net_connect(n, &fl, a, a + 1, 0, 1, 0, 1, &err) == 0 && fl.n == 2,
              "rail-only: %s", err.msg);
        ry_flows_clear(&fl);
        ry_net_free(n);
    }
    ry_fabric_free(&f);
    ry_spec_free(s);

    s = load("tests/data/eth/rail-only.yaml", &f);
    if (!s)
        return;
    ry_net *n = engine(&f, RY_NET_ECMP);
    CHECK(ry_net_connect(n, &fl, 0, 5, 0, 0, 0, 1, &err) < 0 && strstr(err.msg, "gpu0") &&
          strstr(err.msg, "gpu5") && strstr(err.msg, "plane 0") && fl.n == 0,
          "Ethernet rail-only across rails: %s", err.msg);
    CHECK(ry_net_connect(n, &fl, 0, 4, 0, 0, 0, 1, &err) == 0 && fl.n == 1,
          "Ethernet rail-only, one rail: %s", err.msg);
    ry_net_free(n);
    ry_flows_free(&fl);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

/* ---- collectives: jobs, tree, SHARP ---------------------------------------------------- */

static void test_collectives(void)
{
    ry_fabric f;
    ry_spec *s = load("tests/data/ib/ro-2tier-h100.yaml", &f);
    if (!s)
        return;
    ry_err err;
    memset(&err, 0, sizeof err);
    /* three scattered jobs of 3 nodes: disjoint, each ascending, the first
     * the single job's draw */
    ry_job one, jobs[3];
    CHECK(ry_job_place(&f, 24, RY_PLACE_SCATTERED, 5, &one, &err) == 0 &&
          ry_jobs_place(&f, 24, 3, RY_PLACE_SCATTERED, 5, jobs, &err) == 0, "place: %s", err.msg);
    int seen[16] = { 0 }, ok = memcmp(one.gpu, jobs[0].gpu, 24 * sizeof *one.gpu) == 0;
    for (int j = 0; j < 3; j++)
        for (int r = 0; r < 24; r++) {
            long long node = jobs[j].gpu[r] / 8;
            ok &= r == 0 || jobs[j].gpu[r] > jobs[j].gpu[r - 1];
            if (r % 8 == 0)
                ok &= !seen[node]++;
        }
    CHECK(ok, "scattered jobs are disjoint, ascending, the first the single job's");
    for (int j = 0; j < 3; j++)
        ry_job_free(&jobs[j]);
    ry_job_free(&one);
    CHECK(ry_jobs_place(&f, 24, 2, RY_PLACE_CONTIGUOUS, 1, jobs, &err) == 0 &&
          jobs[0].first_node == 0 && jobs[1].first_node == 3 && jobs[1].gpu[0] == 24,
          "contiguous jobs: one run after another");
    ry_job_free(&jobs[0]);
    ry_job_free(&jobs[1]);
    CHECK(ry_jobs_place(&f, 64, 3, RY_PLACE_CONTIGUOUS, 1, jobs, &err) < 0 &&
          strcmp(err.key, "jobs") == 0, "3 jobs of 8 nodes on 16: %s", err.msg);

    /* tree on the whole non-blocking fabric, adaptive routing */
    ry_net *n = engine(&f, RY_NET_ADAPTIVE);
    ry_job job;
    CHECK(ry_job_place(&f, (size_t)f.gpus, RY_PLACE_CONTIGUOUS, 1, &job, &err) == 0, "place all");
    ry_coll_opts o;
    ry_coll_opts_default(&o);
    o.algo = RY_ALGO_TREE;
    o.bytes = 1e9;
    ry_coll_result r;
    double nr = (double)job.nranks, C = 16, R = 400e9 / 8, S = o.bytes, g = 8, V = 450e9;
    CHECK(ry_coll_run(n, &job, &o, &r, &err) == 0, "tree: %s", err.msg);
    CHECK((double)r.flows == 2 * C * (nr - 1) && r.channels == 16 &&
          strcmp(r.algorithm, "tree") == 0, "tree flows %zu, want %.0f", r.flows,
          2 * C * (nr - 1));
    CHECK(fabs(r.time_s - 4 * S / (C * R)) < 1e-9 * r.time_s, "tree time %g, want %g", r.time_s,
          4 * S / (C * R));
    /* SHARP on Quantum-2 */
    o.algo = RY_ALGO_RING;
    o.sharp = 1;
    double want = fmax(2 * (g - 1) / g * S / V, S / g / R);
    CHECK(ry_coll_run(n, &job, &o, &r, &err) == 0 && strcmp(r.algorithm, "sharp") == 0 &&
          fabs(r.time_s - want) < 1e-9 * want, "SHARP time %g, want %g (%s)", r.time_s, want,
          err.msg);
    o.op = RY_NCCL_ALL_GATHER;
    o.algo = RY_ALGO_TREE;
    CHECK(ry_coll_run(n, &job, &o, &r, &err) < 0 && strcmp(err.key, "algorithm") == 0,
          "tree all-gather: %s", err.msg);
    ry_job_free(&job);
    ry_net_free(n);
    ry_fabric_free(&f);
    ry_spec_free(s);

    /* switches the catalog does not know reduce nothing */
    s = load("tests/data/ib/railonly-2tier.yaml", &f);
    if (!s)
        return;
    n = engine(&f, RY_NET_STATIC);
    ry_coll_opts_default(&o);
    o.sharp = 1;
    CHECK(ry_job_place(&f, 8, RY_PLACE_CONTIGUOUS, 1, &job, &err) == 0 &&
          ry_coll_run(n, &job, &o, &r, &err) < 0 && strcmp(err.key, "sharp") == 0 &&
          strstr(err.msg, "radix16"), "SHARP on radix16: %s", err.msg);
    ry_job_free(&job);
    ry_net_free(n);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

/* ---- a 16,384-GPU ring ------------------------------------------------------------------- */

/* ---- failures ----------------------------------------------------------------------------- */

static int flows_equal(const ry_flows *a, const ry_flows *b)
{
    if (a->n != b->n || a->nent != b->nent)
        return 0;
    for (size_t i = 0; i <= a->n; i++)
        if (a->off[i] != b->off[i])
            return 0;
    for (size_t e = 0; e < a->nent; e++)
        if (a->res[e] != b->res[e] || (a->w && b->w ? a->w[e] != b->w[e] : a->w != b->w))
            return 0;
    return 1;
}

/* Every GPU pair on plane 0 into fl (those with a route); the pairs
 * without one counted in *none, their first error in why. */
static void all_pairs(ry_net *n, const ry_fabric *f, ry_flows *fl, long long *none, char *why,
                      size_t cap)
{
    for (uint32_t a = 0; a < (uint32_t)f->gpus; a++)
        for (uint32_t b = 0; b < (uint32_t)f->gpus; b++) {
            ry_err err;
            if (a == b || f->nodes[a].group == f->nodes[b].group)
                continue;
            if (ry_net_connect(n, fl, a, b, 0, 0, a ^ b, 1e6, &err) < 0) {
                if (!(*none)++)
                    snprintf(why, cap, "%.200s", err.msg);
            }
        }
}

/* Rail-only: gpu0's port (rail 0) down. A GPU of rail 0 in another node
 * reaches it through both domains: to a node-mate on rail r over NVLink,
 * across rail r's network to gpu0's node-mate on rail r, over NVLink to
 * gpu0; one flow for each of the 3 other rails, a third of the bytes each. */
static void test_relay_rail_only(void)
{
    ry_fabric f;
    ry_spec *s = load("tests/data/ib/railonly-2tier.yaml", &f);
    if (!s)
        return;
    ry_net *n = engine(&f, RY_NET_STATIC);
    uint8_t *ld = calloc(f.nlinks, 1);
    ry_flows fl;
    ry_flows_init(&fl);
    if (!n || !ld)
        goto out;
    ld[f.ports[f.nodes[0].port0].link] = 1;
    ry_net_set_down(n, NULL, ld);
    uint32_t nvl = 2 * (uint32_t)f.nlinks, src = 4;     /* node 1, rail 0 */
    ry_err err = { { 0 }, { 0 } };
    int rc = ry_net_connect(n, &fl, src, 0, 0, 0, 0, 3e6, &err);
    long long ends = 0;
    double sum = 0;
    for (size_t i = 0; rc == 0 && i < fl.n; i++) {
        sum += fl.bytes[i];
        for (size_t e = fl.off[i]; e < fl.off[i + 1]; e++)
            ends += (fl.res[e] == nvl + 2 * src) + (fl.res[e] == nvl + 1);
    }
    CHECK(rc == 0 && fl.n == 3 && fabs(sum - 3e6) < 1e-3 && ends == 6,
          "rail-only relay at both ends: rc %d, %zu flows, %.0f bytes, %lld NVLink ends: %s", rc,
          fl.n, sum, ends, err.msg);
out:
    ry_flows_free(&fl);
    free(ld);
    ry_net_free(n);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

static void test_failed(const char *rel, ry_net_routing r)
{
    ry_fabric f;
    ry_spec *s = load(rel, &f);
    if (!s)
        return;
    const char *rn = ry_net_routing_name(r);
    uint8_t *nd = calloc(f.nnodes, 1), *ld = calloc(f.nlinks, 1);
    /* the first switch of the top tier, every fifth link between switches */
    int top = 0;
    for (size_t i = f.first_switch; i < f.nnodes; i++)
        top = f.nodes[i].tier > top ? f.nodes[i].tier : top;
    for (size_t i = f.first_switch; i < f.nnodes; i++)
        if (f.nodes[i].tier == top) {
            nd[i] = 1;
            break;
        }
    size_t sw_links = 0;
    for (size_t l = 0; l < f.nlinks; l++)
        if (ry_node_is_switch(ry_port_node(&f, f.links[l].lo)) && sw_links++ % 5 == 0)
            ld[l] = 1;
    ry_net *n = engine(&f, r), *h = engine(&f, r);
    ry_flows fl, hf;
    ry_flows_init(&fl);
    ry_flows_init(&hf);
    if (!n || !h)
        goto out;
    ry_net_set_down(n, nd, ld);
    long long none = 0, dead = 0;
    char why[256] = "";
    all_pairs(n, &f, &fl, &none, why, sizeof why);
    for (size_t e = 0; e < fl.nent; e++) {
        uint32_t res = fl.res[e];
        if (res >= 2 * f.nlinks)
            continue;
        const ry_link *k = &f.links[res / 2];
        dead += ld[res / 2] || nd[f.ports[k->lo].owner] || nd[f.ports[k->hi].owner];
    }
    CHECK(dead == 0 && fl.n > 0, "%s %s: %lld entries over a dead link or switch (%zu flows)",
          rel, rn, dead, fl.n);
    CHECK(none == 0, "%s %s: %lld pairs without a route around the failures: %s", rel, rn, none,
          why);
    /* a dead NIC port: the GPUs of its HB domain relay for it over NVLink
     * (sending and receiving); the dead link carries nothing, every byte
     * arrives */
    memset(ld, 0, f.nlinks);
    uint32_t dlink = (uint32_t)f.ports[f.nodes[0].port0].link, nvl = 2 * (uint32_t)f.nlinks;
    ld[dlink] = 1;
    ry_net_set_down(n, nd, ld);
    ry_err err;
    uint32_t far = (uint32_t)f.gpus - 1;
    for (uint32_t dir = 0; dir < 2; dir++) {
        ry_flows_clear(&fl);
        int rc = ry_net_connect(n, &fl, dir ? far : 0, dir ? 0 : far, 0, 0, 0, 1e6, &err);
        double sum = 0;
        long long relayed = 0, over = 0;
        for (size_t i = 0; rc == 0 && i < fl.n; i++) {
            sum += fl.bytes[i];
            for (size_t e = fl.off[i]; e < fl.off[i + 1]; e++) {
                relayed += fl.res[e] == nvl + dir;      /* gpu0's NVLink out, or in */
                over += fl.res[e] < nvl && fl.res[e] / 2 == dlink;
            }
        }
        CHECK(rc == 0 && fl.n >= 1 && fabs(sum - 1e6) < 1e-3 && relayed == (long long)fl.n &&
              over == 0, "%s %s: a dead NIC port %s: rc %d, %zu flows, %.0f bytes, %lld through "
              "its NVLink, %lld over the dead link: %s", rel, rn, dir ? "reached" : "sending", rc,
              fl.n, sum, relayed, over, rc ? err.msg : "");
    }
    /* every port of the domain down: nothing can relay, no route, named */
    for (uint32_t g = 0; g < (uint32_t)f.gpus && f.nodes[g].group == f.nodes[0].group; g++)
        ld[f.ports[f.nodes[g].port0].link] = 1;
    ry_net_set_down(n, nd, ld);
    ry_flows_clear(&fl);
    CHECK(ry_net_connect(n, &fl, 0, far, 0, 0, 0, 1e6, &err) < 0 &&
          strstr(err.msg, "NIC port there is down") != NULL && strstr(err.msg, "relay") != NULL,
          "%s %s: a domain with every port down routes: %s", rel, rn, err.msg);
    CHECK(ry_net_connect(n, &fl, far, 0, 0, 0, 0, 1e6, &err) < 0,
          "%s %s: a domain with every port down is reached", rel, rn);
    /* nothing down: the healthy routes */
    ry_net_set_down(n, NULL, NULL);
    ry_flows_clear(&fl);
    none = 0;
    all_pairs(n, &f, &fl, &none, why, sizeof why);
    all_pairs(h, &f, &hf, &none, why, sizeof why);
    CHECK(none == 0 && flows_equal(&fl, &hf), "%s %s: with nothing down the routes differ from "
          "the healthy engine's", rel, rn);
out:
    ry_flows_free(&fl);
    ry_flows_free(&hf);
    ry_net_free(n);
    ry_net_free(h);
    free(nd);
    free(ld);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void add_load(void *ctx, uint32_t res, double bytes)
{
    ((double *)ctx)[res] += bytes;
}

static void test_group_loads(void)
{
    const char *text = "version: 1\nname: groups\ncluster:\n  gpus: 1024\n  node: dgx-h100\n"
                       "fabric:\n  design: rail-optimized\n  switch: qm9700\n";
    ry_spec *s = ry_spec_load_text("groups.yaml", text, NULL, 0, tdir);
    CHECK(s != NULL, "groups spec");
    if (!s)
        return;
    ry_fabric f;
    ry_err err;
    ry_job job;
    if (ry_fabric_build(s, &f, &err) < 0 ||
        ry_job_place(&f, 1024, RY_PLACE_CONTIGUOUS, 0, &job, &err) < 0) {
        CHECK(0, "groups: %s", err.msg);
        ry_spec_free(s);
        return;
    }
    ry_net *n = engine(&f, RY_NET_ADAPTIVE);
    size_t nr = ry_net_resources(n);
    double *batched = calloc(nr, sizeof *batched), *whole = calloc(nr, sizeof *whole);
    /* groups of 128 GPUs 8 apart (one per node): 1024 x 127 flows, past
     * one batch twice */
    ry_coll_load ld;
    int rc = ry_coll_groups_load(n, &job, RY_NCCL_ALL_TO_ALL, 1024, 8, 128, 128e6, 1, 0,
                                 add_load, batched, &ld, &err);
    CHECK(rc == 0 && ld.flows == 1024 * 127 && ld.net_flows == ld.flows,
          "group loads: rc %d, %zu flows (%zu on the network): %s", rc, ld.flows, ld.net_flows,
          err.msg);
    ry_flows fl;
    ry_flows_init(&fl);
    for (uint32_t r = 0; r < 1024; r++)
        for (uint32_t j = 0; j < 128; j++) {
            uint32_t q = r % 8 + 8 * j;
            if (q != r)
                rc |= ry_net_connect(n, &fl, job.gpu[r], job.gpu[q], 0, 1, 0, 1e6, &err);
        }
    for (size_t i = 0; i < fl.n; i++)
        for (size_t e = fl.off[i]; e < fl.off[i + 1]; e++)
            whole[fl.res[e]] += fl.bytes[i] * fl.w[e];
    long long differ = 0;
    for (size_t r = 0; r < nr; r++)
        differ += batched[r] != whole[r];
    CHECK(rc == 0 && fl.n == ld.flows && differ == 0,
          "group loads in batches: %lld of %zu resources differ from the phase at once", differ,
          nr);
    /* stage boundaries both ways: 4 stages of 256, 3 x 256 pairs each way */
    ry_coll_load one, two;
    rc = ry_coll_groups_load(n, &job, RY_NCCL_SENDRECV, 1024, 256, 4, 1e6, 1, 0, add_load,
                             batched, &one, &err) |
         ry_coll_groups_load(n, &job, RY_NCCL_SENDRECV, 1024, 256, 4, 1e6, 1, 1, add_load,
                             batched, &two, &err);
    CHECK(rc == 0 && one.flows == 3 * 256 && two.flows == 2 * one.flows &&
          two.crossings == 2 * one.crossings, "sendrecv both ways: %zu and %zu flows",
          one.flows, two.flows);
    ry_flows_free(&fl);
    free(batched);
    free(whole);
    ry_net_free(n);
    ry_job_free(&job);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

static void test_big(int eth)
{
    char text[1024];
    snprintf(text, sizeof text,
             "version: 1\nname: ring\ncluster:\n  gpus: 16384\n  node: dgx-h100\n"
             "fabric:\n  design: rail-optimized\n  switch: %s\n",
             eth ? "{name: eth64, radix: 64, speed: 400G, protocol: ethernet}" : "qm9700");
    ry_spec *s = ry_spec_load_text("ring.yaml", text, NULL, 0, tdir);
    CHECK(s != NULL, "ring spec");
    if (!s)
        return;
    ry_fabric f;
    ry_err err;
    if (ry_fabric_build(s, &f, &err) < 0) {
        CHECK(0, "ring: %s", err.msg);
        ry_spec_free(s);
        return;
    }
    double t0 = now();
    ry_net *n = engine(&f, eth ? RY_NET_ECMP : RY_NET_STATIC);
    double t1 = now();
    ry_flows fl;
    ry_flows_init(&fl);
    long long fails = 0;
    for (uint32_t c = 0; c < 8; c++)
        for (uint32_t g = 0; g < (uint32_t)f.gpus; g++)
            fails += ry_net_connect(n, &fl, g, (g + 1) % (uint32_t)f.gpus, 0, 0, c, 1e6, &err) < 0;
    double t2 = now();
    CHECK(fails == 0 && fl.n == 8 * (size_t)f.gpus, "ring: %lld failed: %s", fails, err.msg);
    printf("%s ring of %lld GPUs, 8 channels: engine %.3f s, %zu flows routed in %.3f s, "
           "tiers %d\n", eth ? "Ethernet ECMP" : "InfiniBand static", f.gpus, t1 - t0, fl.n,
           t2 - t1, f.tiers);
    ry_flows_free(&fl);
    ry_net_free(n);
    ry_fabric_free(&f);
    ry_spec_free(s);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: net_test SRCDIR [big]\n");
        return 2;
    }
    srcdir = argv[1];
    snprintf(tdir, sizeof tdir, "%s/templates", srcdir);
    test_ib_static();
    test_ib_adaptive();
    test_eth_ecmp();
    test_polarisation();
    test_errors();
    test_failed("tests/data/ib/fat-tree.yaml", RY_NET_STATIC);
    test_failed("tests/data/ib/fat-tree.yaml", RY_NET_ADAPTIVE);
    test_failed("tests/data/ib/ro-3tier.yaml", RY_NET_STATIC);
    test_failed("tests/data/ib/ro-3tier.yaml", RY_NET_ADAPTIVE);
    test_failed("tests/data/eth/ro-2tier.yaml", RY_NET_ECMP);
    test_failed("tests/data/eth/ro-3tier.yaml", RY_NET_ECMP);
    test_failed("tests/data/eth/ro-3tier.yaml", RY_NET_ADAPTIVE);
    test_relay_rail_only();
    test_collectives();
    test_group_loads();
    if (argc > 2 && strcmp(argv[2], "big") == 0) {
        test_big(0);
        test_big(1);
    }
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
