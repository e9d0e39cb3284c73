/* The engine's side of the fabric (net/flow.h): its resources and their
 * rates, and each connection's route as the switches forward it.
 *
 * A route is walked hop by hop from the source GPU's port. At each switch
 * the candidate next hops toward the destination port are those the fabric
 * has (InfiniBand: net/updown.h; Ethernet: BGP's next hops, net/eth_routes.h,
 * then the leaf's port to the GPU); a single path keeps one of them, a
 * spreading router all of them at an equal share. The switches a level
 * reaches are merged before the next hop, so a switch reached by several
 * branches forwards their summed share once and every link of the level
 * is listed once. Both routers' paths are minimal (up-down; equal AS-path
 * length), so every branch arrives after the same number of hops.
 *
 * Memory: work arrays per switch (a resource's capacity is worked out
 * when asked for); one up-down walker per subnet reached; on Ethernet, BGP's routes
 * toward the destination leaves last used, within RY_NET_ETH_CACHE bytes. */
#include "net/flow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/ethplan.h"
#include "fabric/names.h"
#include "net/eth_routes.h"
#include "net/fill.h"
#include "net/updown.h"
#include "util/alloc.h"
#include "util/words.h"
#include "util/diag.h"

/* The most hops a route may take: up every tier and down again, and the
 * two GPU links. */
#define RY_NET_HOPS (2 * RY_MAX_TIERS + 2)
/* BGP's routes kept toward destination leaves, at most (bytes): a
 * 131,072-GPU fabric's every leaf fits. */
#define RY_NET_ETH_CACHE ((size_t)256 << 20)

static const char *const routing_names[] = { "static", "ecmp", "adaptive", NULL };

const char *ry_net_routing_name(ry_net_routing r)
{
    return (unsigned)r < sizeof routing_names / sizeof *routing_names - 1 ? routing_names[r] : "?";
}

int ry_net_routing_parse(const char *s)
{
    return ry_word_index(routing_names, s);
}

void ry_net_opts_default(ry_net_opts *o)
{
    memset(o, 0, sizeof *o);
    o->routing = RY_NET_STATIC;
    o->qps = 1;
    o->nvlink_bytes_s = 450e9;
}

/* BGP's routes toward one leaf: per switch of its network (by its index
 * there) the set of next hops it has, an offset into the sets' pool. */
typedef struct eth_dest {
    uint32_t leaf;              /* node id */
    uint64_t used;              /* when last asked for */
    uint32_t *set;              /* NO_SET: no route */
} eth_dest;

#define NO_SET UINT32_MAX

struct ry_net {
    const ry_fabric *f;
    ry_net_opts o;
    int eth;
    size_t nres;
    double *gbps;               /* per link: its rate (ry_link_gbps_at), asked for often */
    ry_flows scratch;           /* ry_net_scratch */

    ry_updown **ud;             /* per subnet, built when first needed */

    ry_ethplan pl;              /* Ethernet: ASNs */
    ry_eth_routes *er;
    /* Every distinct next-hop set any switch has toward any leaf, once:
     * at an offset of pool, its count then its port ids. ht: a set's
     * offset + 1 by its hash, 0 = free. */
    uint32_t *pool;
    size_t npool, cappool;
    uint32_t *ht;
    size_t htcap, htn;
    uint32_t *net_index;        /* per switch: its index in its network */
    uint32_t *net_size;         /* per network (node.subnet): its switches */
    eth_dest *dest;             /* routes toward the leaves asked for lately */
    size_t ndest, capdest, dest_bytes;
    uint64_t clock;
    int32_t *dest_slot;         /* per switch: its slot in dest, or -1 */

    /* failures (ry_net_set_down): NULL when nothing failed */
    uint8_t *node_down;         /* per node: a failed switch */
    uint8_t *link_down;         /* per link: failed, or an end of it failed */
    const ry_net_tables *tables;    /* forwarding tables read from the fabric, or NULL */

    /* work: the switches of a level and of the next, with their shares */
    size_t nsw;
    uint32_t *fr, *nx;
    double *frw, *nxw;
    uint32_t *seen, gen;        /* per switch: == gen when in nx, at pos */
    uint32_t *pos;
    uint32_t *cand;             /* a switch's candidate port ids */
    /* work: the entries of the flow being routed */
    uint32_t *res;
    double *w;
    float *wf;
    size_t nent, capent, capwf;
};

ry_net *ry_net_new(const ry_fabric *f, const ry_net_opts *o, ry_err *err)
{
    if ((unsigned)o->routing > RY_NET_ADAPTIVE) {
        ry_err_set(err, "routing", "unknown routing %d; expected static, ecmp or adaptive",
                   (int)o->routing);
        return NULL;
    }
    int eth = f->spec && ry_spec_is_ethernet(f->spec);
    if (o->routing == RY_NET_ECMP && !eth) {
        ry_err_set(err, "routing",
                   "ecmp is for Ethernet fabrics; InfiniBand routes static or adaptive");
        return NULL;
    }
    if (o->qps < 1) {
        ry_err_set(err, "qps", "%d queue pairs per connection; expected 1 or more", o->qps);
        return NULL;
    }
    if (!(o->nvlink_bytes_s > 0) || !isfinite(o->nvlink_bytes_s)) {
        ry_err_set(err, "nvlink", "NVLink rate %g bytes/s; expected a positive rate",
                   o->nvlink_bytes_s);
        return NULL;
    }
    size_t nres = 2 * f->nlinks + 2 * (size_t)f->gpus;
    if (nres > UINT32_MAX) {
        ry_err_set(err, NULL, "%zu links and %lld GPUs: more resources than the engine numbers",
                   f->nlinks, f->gpus);
        return NULL;
    }
    ry_net *n = ry_xcalloc(1, sizeof *n);
    n->f = f;
    n->o = *o;
    n->eth = eth;
    n->nres = nres;
    n->gbps = ry_xcalloc(f->nlinks + 1, sizeof *n->gbps);
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_link *k = &f->links[l];
        n->gbps[l] = ry_link_gbps_at(f, k->lo, ry_port_node(f, k->lo), k->hi,
                                     ry_port_node(f, k->hi));
    }
    n->ud = ry_xcalloc(f->nsubnets > 0 ? (size_t)f->nsubnets : 1, sizeof *n->ud);
    n->nsw = f->nnodes - f->first_switch;
    size_t S = n->nsw ? n->nsw : 1;
    n->fr = ry_xmalloc(S * sizeof *n->fr);
    n->nx = ry_xmalloc(S * sizeof *n->nx);
    n->frw = ry_xmalloc(S * sizeof *n->frw);
    n->nxw = ry_xmalloc(S * sizeof *n->nxw);
    n->seen = ry_xcalloc(S, sizeof *n->seen);
    n->pos = ry_xmalloc(S * sizeof *n->pos);
    uint32_t radix = 1;
    for (size_t i = f->first_switch; i < f->nnodes; i++)
        if (f->nodes[i].nports > radix)
            radix = f->nodes[i].nports;
    n->cand = ry_xmalloc(radix * sizeof *n->cand);
    if (eth) {
        if (ry_ethplan_build(f, &n->pl, err) < 0) {
            n->eth = 0;     /* nothing of the plan to free */
            ry_net_free(n);
            return NULL;
        }
        n->er = ry_eth_routes_new(f, &n->pl);
        n->dest_slot = ry_xmalloc(S * sizeof *n->dest_slot);
        n->net_index = ry_xmalloc(S * sizeof *n->net_index);
        n->net_size = ry_xcalloc(f->nsubnets > 0 ? (size_t)f->nsubnets : 1, sizeof *n->net_size);
        for (size_t i = 0; i < n->nsw; i++) {
            int32_t k = f->nodes[f->first_switch + i].subnet;
            n->dest_slot[i] = -1;
            n->net_index[i] = k >= 0 && k < f->nsubnets ? n->net_size[k]++ : 0;
        }
    }
    return n;
}

void ry_net_free(ry_net *n)
{
    if (!n)
        return;
    for (int k = 0; k < n->f->nsubnets; k++)
        ry_updown_free(n->ud[k]);
    free(n->ud);
    free(n->gbps);
    ry_flows_free(&n->scratch);
    if (n->eth) {
        ry_eth_routes_free(n->er);
        ry_ethplan_free(&n->pl);
    }
    for (size_t i = 0; i < n->ndest; i++)
        free(n->dest[i].set);
    free(n->dest);
    free(n->pool);
    free(n->ht);
    free(n->net_index);
    free(n->net_size);
    free(n->dest_slot);
    free(n->node_down);
    free(n->link_down);
    free(n->fr);
    free(n->nx);
    free(n->frw);
    free(n->nxw);
    free(n->seen);
    free(n->pos);
    free(n->cand);
    free(n->res);
    free(n->w);
    free(n->wf);
    free(n);
}

const ry_fabric *ry_net_fabric(const ry_net *n) { return n->f; }
int ry_net_hashes(const ry_net *n) { return n->eth && n->o.routing != RY_NET_ADAPTIVE; }
void ry_net_set_seed(ry_net *n, uint32_t seed) { n->o.seed = seed; }
size_t ry_net_resources(const ry_net *n) { return n->nres; }
int ry_net_qps(const ry_net *n) { return n->o.qps; }

void ry_net_set_down(ry_net *n, const uint8_t *node_down, const uint8_t *link_down)
{
    const ry_fabric *f = n->f;
    /* the routes known so far were the old set's */
    for (int k = 0; k < f->nsubnets; k++) {
        ry_updown_free(n->ud[k]);
        n->ud[k] = NULL;
    }
    for (size_t i = 0; i < n->ndest; i++) {
        n->dest_slot[n->dest[i].leaf - f->first_switch] = -1;
        free(n->dest[i].set);
    }
    n->ndest = 0;
    n->dest_bytes = 0;
    free(n->node_down);
    free(n->link_down);
    n->node_down = n->link_down = NULL;
    int any = 0;
    for (size_t i = 0; node_down && !any && i < f->nnodes; i++)
        any = node_down[i] != 0;
    for (size_t l = 0; link_down && !any && l < f->nlinks; l++)
        any = link_down[l] != 0;
    if (!any)
        return;
    n->node_down = ry_xcalloc(f->nnodes ? f->nnodes : 1, 1);
    n->link_down = ry_xcalloc(f->nlinks ? f->nlinks : 1, 1);
    for (size_t i = 0; node_down && i < f->nnodes; i++)
        n->node_down[i] = f->nodes[i].kind != RY_NODE_GPU && node_down[i];
    for (size_t l = 0; l < f->nlinks; l++) {
        const ry_link *k = &f->links[l];
        n->link_down[l] = (link_down && link_down[l]) ||
                          n->node_down[f->ports[k->lo].owner] ||
                          n->node_down[f->ports[k->hi].owner];
    }
}

ry_flows *ry_net_scratch(ry_net *n)
{
    ry_flows_clear(&n->scratch);
    return &n->scratch;
}

double ry_net_capacity(const ry_net *n, uint32_t res)
{
    const ry_fabric *f = n->f;
    if (res >= n->nres)
        return 0;
    if (res >= 2 * f->nlinks)
        return n->o.nvlink_bytes_s;
    return n->gbps[res / 2] * 1e9 / 8;
}

static double capacity_of(const void *n, uint32_t res)
{
    return ry_net_capacity(n, res);
}

void ry_net_resource_name(const ry_net *n, uint32_t res, char *buf, size_t cap)
{
    const ry_fabric *f = n->f;
    if (!cap)
        return;
    char a[96], b[96];
    if (res < 2 * f->nlinks) {
        const ry_link *l = &f->links[res / 2];
        int up = !(res & 1);
        uint32_t from = up ? l->lo : l->hi, to = up ? l->hi : l->lo;
        ry_node_name(f, f->ports[from].owner, a, sizeof a);
        ry_node_name(f, f->ports[to].owner, b, sizeof b);
        snprintf(buf, cap, "%s p%d -> %s p%d (%s)", a, ry_port_number(f, from), b,
                 ry_port_number(f, to), up ? "up" : "down");
    } else if (res < n->nres) {
        uint32_t g = (res - 2 * (uint32_t)f->nlinks) / 2;
        ry_node_name(f, g, a, sizeof a);
        snprintf(buf, cap, "%s NVLink %s", a, res & 1 ? "in" : "out");
    } else {
        snprintf(buf, cap, "resource %u (none such)", res);
    }
}

int ry_net_run(const ry_net *n, ry_flows *fl, ry_net_result *out, double *load, ry_err *err)
{
    return ry_fill_run(capacity_of, n, n->nres, fl, out, load, NULL, NULL, err);
}

int ry_net_run_each(const ry_net *n, ry_flows *fl, ry_net_result *out, ry_res_visit visit,
                    void *ctx, ry_err *err)
{
    return ry_fill_run(capacity_of, n, n->nres, fl, out, NULL, visit, ctx, err);
}

/* ---- routes ---------------------------------------------------------------------------- */

/* The flow's 5-tuple and queue pair, as ECMP hashes them. */
typedef struct flow_key {
    uint32_t sip, dip;          /* the GPU ports */
    uint32_t sport;             /* UDP source port of the connection */
    uint32_t qp;                /* destination queue pair */
} flow_key;

#define ROCE_PORT 4791
#define UDP_PROTO 17

/* A 64-bit finalizer (murmur3's fmix64): every input bit moves every
 * output bit, so the low bits ECMP takes modulo the next hops are even. */
static uint64_t mix64(uint64_t z)
{
    z ^= z >> 33;
    z *= 0xff51afd7ed558ccdULL;
    z ^= z >> 33;
    z *= 0xc4ceb9fe1a85ec53ULL;
    z ^= z >> 33;
    return z;
}

/* The hash every switch computes on a flow (with its seed). */
static uint64_t flow_hash(const flow_key *k, uint64_t seed, int hash_qp)
{
    uint64_t h = mix64(seed ^ 0x9e3779b97f4a7c15ULL);
    h = mix64(h ^ ((uint64_t)k->sip << 32 | k->dip));
    h = mix64(h ^ ((uint64_t)k->sport << 32 | (uint64_t)UDP_PROTO << 16 | ROCE_PORT));
    if (hash_qp)
        h = mix64(h ^ k->qp);
    return h;
}

static ry_updown *walker(ry_net *n, int k)
{
    if (!n->ud[k])
        n->ud[k] = ry_updown_new_failed(n->f, k, n->node_down, n->link_down);
    return n->ud[k];
}

static uint64_t set_hash(const uint32_t *p, uint32_t k)
{
    uint64_t h = k;
    for (uint32_t i = 0; i < k; i++)
        h = mix64(h ^ ((uint64_t)p[i] << 20));
    return h;
}

/* The offset of next-hop set p[0 .. k) in the pool, added when new. */
static uint32_t intern(ry_net *n, const uint32_t *p, uint32_t k)
{
    if (2 * (n->htn + 1) > n->htcap) {
        size_t cap = n->htcap ? 2 * n->htcap : 1024;
        uint32_t *ht = ry_xcalloc(cap, sizeof *ht);
        for (size_t i = 0; i < n->htcap; i++) {
            if (!n->ht[i])
                continue;
            const uint32_t *q = &n->pool[n->ht[i] - 1];
            size_t j = set_hash(q + 1, q[0]) & (cap - 1);
            while (ht[j])
                j = (j + 1) & (cap - 1);
            ht[j] = n->ht[i];
        }
        free(n->ht);
        n->ht = ht;
        n->htcap = cap;
    }
    size_t j = set_hash(p, k) & (n->htcap - 1);
    for (; n->ht[j]; j = (j + 1) & (n->htcap - 1)) {
        const uint32_t *q = &n->pool[n->ht[j] - 1];
        if (q[0] == k && memcmp(q + 1, p, k * sizeof *p) == 0)
            return n->ht[j] - 1;
    }
    RY_ASSERT(n->npool + 1 + k < UINT32_MAX);
    RY_ALLOC_GROW(n->pool, n->npool + 1 + k, n->cappool);
    uint32_t off = (uint32_t)n->npool;
    n->pool[n->npool++] = k;
    memcpy(&n->pool[n->npool], p, k * sizeof *p);
    n->npool += k;
    n->ht[j] = off + 1;
    n->htn++;
    return off;
}

/* BGP's routes toward leaf d: kept, or computed (into the slot least
 * recently used once the routes kept fill RY_NET_ETH_CACHE). */
static const eth_dest *eth_routes(ry_net *n, uint32_t d)
{
    const ry_fabric *f = n->f;
    int32_t slot = n->dest_slot[d - f->first_switch];
    if (slot >= 0) {
        n->dest[slot].used = ++n->clock;
        return &n->dest[slot];
    }
    int32_t net = f->nodes[d].subnet;
    size_t size = n->net_size[net] * sizeof(uint32_t);
    if (n->ndest && n->dest_bytes + size > RY_NET_ETH_CACHE) {
        slot = 0;
        for (size_t i = 1; i < n->ndest; i++)
            if (n->dest[i].used < n->dest[slot].used)
                slot = (int32_t)i;
        eth_dest *e = &n->dest[slot];
        n->dest_slot[e->leaf - f->first_switch] = -1;
        n->dest_bytes -= n->net_size[f->nodes[e->leaf].subnet] * sizeof(uint32_t);
        e->set = ry_xrealloc(e->set, size ? size : 1);
    } else {
        RY_ALLOC_GROW(n->dest, n->ndest + 1, n->capdest);
        slot = (int32_t)n->ndest++;
        n->dest[slot].set = ry_xmalloc(size ? size : 1);
    }
    n->dest_bytes += size;
    eth_dest *e = &n->dest[slot];
    e->leaf = d;
    e->used = ++n->clock;
    ry_eth_routes *r = n->er;
    ry_eth_routes_to(r, d, n->link_down);
    for (size_t i = 0; i < n->nsw; i++) {
        if (f->nodes[f->first_switch + i].subnet != net)
            continue;
        uint32_t k = r->nhn[i];
        e->set[n->net_index[i]] = k && r->dist[i] > 0 ? intern(n, &r->nh[r->nh0[i]], k) : NO_SET;
    }
    n->dest_slot[d - f->first_switch] = slot;
    return e;
}

/* What a route is walked with. */
typedef struct walk {
    uint32_t sp, dp;            /* GPU ports */
    uint32_t dleaf;             /* the switch dp hangs from */
    ry_updown *u;               /* InfiniBand */
    const eth_dest *e;          /* Ethernet */
    flow_key key;
} walk;

/* The candidate next hops of switch x toward the destination, as port
 * ids: their count and *ports; 0 when x has no route. */
static size_t candidates(ry_net *n, const walk *wk, uint32_t x, const uint32_t **ports)
{
    const ry_fabric *f = n->f;
    if (x == wk->dleaf) {
        n->cand[0] = (uint32_t)f->ports[wk->dp].peer;
        *ports = n->cand;
        return 1;
    }
    if (n->eth) {
        uint32_t set = wk->e->set[n->net_index[x - f->first_switch]];
        if (set == NO_SET)
            return 0;
        *ports = &n->pool[set + 1];
        return n->pool[set];
    }
    const uint32_t *p;
    size_t k = ry_updown_candidates(wk->u, x, wk->dp, &p);
    for (size_t i = 0; i < k; i++)
        n->cand[i] = f->nodes[x].port0 + p[i];
    *ports = n->cand;
    return k;
}

/* The port switch x's forwarding table names toward wk->dp: -1 when none. */
static long long table_port(const ry_net *n, const walk *wk, uint32_t x)
{
    const ry_fabric *f = n->f;
    const ry_net_tables *t = n->tables;
    uint32_t g = f->ports[wk->dp].owner;
    size_t gp = (size_t)g * (size_t)f->planes + (wk->dp - f->nodes[g].port0);
    uint16_t lid = t->gpu_lid[gp];
    if (lid == 0 || lid > t->max_lid)
        return -1;
    size_t sw = x - f->first_switch;
    uint8_t num = t->port[sw * ((size_t)t->max_lid + 1) + lid];
    if (num == 255)
        return -1;
    int32_t p = t->port_id[sw * 256 + num];
    if (p < 0 || f->ports[p].owner != x || f->ports[p].peer < 0 ||
        (n->link_down && n->link_down[f->ports[p].link]))
        return -1;
    return p;
}

/* The one next hop of switch x on a single path: -1 when none. */
static long long pick(ry_net *n, const walk *wk, uint32_t x)
{
    const ry_fabric *f = n->f;
    if (!n->eth && n->tables)
        return table_port(n, wk, x);
    if (!n->eth) {
        int p = ry_updown_next(wk->u, x, wk->dp);
        return p < 0 ? -1 : (long long)f->nodes[x].port0 + p;
    }
    const uint32_t *c;
    size_t k = candidates(n, wk, x, &c);
    if (k <= 1)
        return k ? (long long)c[0] : -1;
    uint64_t seed = n->o.seed;
    if (n->o.per_switch_seed)
        seed ^= x;
    return c[flow_hash(&wk->key, seed, n->o.hash_qp) % k];
}

static void add_entry(ry_net *n, uint32_t res, double w)
{
    if (n->nent == n->capent) {
        n->capent = n->capent ? 2 * n->capent : 64;
        n->res = ry_xreallocarray(n->res, n->capent, sizeof *n->res);
        n->w = ry_xreallocarray(n->w, n->capent, sizeof *n->w);
    }
    n->res[n->nent] = res;
    n->w[n->nent++] = w;
}

/* The resource of leaving by port p (a link's direction). */
static uint32_t out_res(const ry_fabric *f, uint32_t p)
{
    int32_t l = f->ports[p].link;
    return 2 * (uint32_t)l + (f->links[l].lo == p ? 0 : 1);
}

/* The most GPUs of an HB domain that relay for one whose port is down. */
#define RY_NET_RELAYS 8

/* no_route's `at` for a failed NIC port (its link or its leaf) at either end. */
#define DEAD_SRC (UINT32_MAX - 1)
#define DEAD_DST (UINT32_MAX - 2)

static void no_route(const ry_net *n, const walk *wk, uint32_t at, ry_err *err)
{
    const ry_fabric *f = n->f;
    char a[96], b[96], c[96];
    ry_node_name(f, f->ports[wk->sp].owner, a, sizeof a);
    ry_node_name(f, f->ports[wk->dp].owner, b, sizeof b);
    int plane = (int)(wk->sp - f->nodes[f->ports[wk->sp].owner].port0);
    if (at == DEAD_SRC || at == DEAD_DST) {
        ry_err_set(err, NULL, "no route from %s to %s on plane %d: %s's NIC port there is down "
                   "(its cable or its leaf failed)", a, b, plane, at == DEAD_SRC ? a : b);
        return;
    }
    if (at == UINT32_MAX) {
        ry_err_set(err, NULL, "no route from %s to %s on plane %d: their ports are not in "
                   "one network", a, b, plane);
        return;
    }
    ry_node_name(f, at, c, sizeof c);
    ry_err_set(err, NULL, "no route from %s to %s on plane %d: %s has no next hop toward %s",
               a, b, plane, c, b);
}

/* Appends the route from wk->sp to wk->dp to the flow's entries: the
 * GPU's link, then level by level. */
static int route(ry_net *n, const walk *wk, ry_err *err)
{
    const ry_fabric *f = n->f;
    int spread = n->o.routing == RY_NET_ADAPTIVE;
    add_entry(n, out_res(f, wk->sp), 1.0);
    size_t nf = 1;
    n->fr[0] = f->ports[f->ports[wk->sp].peer].owner;
    n->frw[0] = 1.0;
    for (int hop = 0; nf; hop++) {
        if (hop > RY_NET_HOPS) {
            if (n->tables && !spread) {
                char a[96], b[96];
                ry_node_name(f, f->ports[wk->sp].owner, a, sizeof a);
                ry_node_name(f, f->ports[wk->dp].owner, b, sizeof b);
                ry_err_set(err, NULL, "the forwarding tables (--lfts) send %s's route to %s "
                           "round a loop (more than %d hops)", a, b, RY_NET_HOPS);
            } else {
                ry_err_set(err, NULL, "internal: a route of more than %d hops", RY_NET_HOPS);
            }
            return -1;
        }
        if (++n->gen == 0) {
            memset(n->seen, 0, n->nsw * sizeof *n->seen);
            n->gen = 1;
        }
        size_t nn = 0;
        for (size_t i = 0; i < nf; i++) {
            uint32_t x = n->fr[i];
            const uint32_t *c = n->cand;
            size_t k;
            if (spread) {
                k = candidates(n, wk, x, &c);
            } else {
                long long p = pick(n, wk, x);
                k = p >= 0;
                n->cand[0] = (uint32_t)p;
            }
            if (k == 0) {
                no_route(n, wk, x, err);
                if (n->tables && !spread) {
                    size_t at = strlen(err->msg);
                    snprintf(err->msg + at, sizeof err->msg - at,
                             " in its forwarding table (--lfts)");
                }
                return -1;
            }
            double share = n->frw[i] / (double)k;
            for (size_t j = 0; j < k; j++) {
                uint32_t p = c[j];
                add_entry(n, out_res(f, p), share);
                uint32_t peer = (uint32_t)f->ports[p].peer;
                uint32_t y = f->ports[peer].owner;
                if (y < f->first_switch) {
                    if (peer != wk->dp) {
                        ry_err_set(err, NULL, "internal: a route toward port %u ends at port %u",
                                   wk->dp, peer);
                        return -1;
                    }
                    continue;
                }
                uint32_t yi = y - f->first_switch;
                if (n->seen[yi] == n->gen) {
                    n->nxw[n->pos[yi]] += share;
                } else {
                    n->seen[yi] = n->gen;
                    n->pos[yi] = (uint32_t)nn;
                    n->nx[nn] = y;
                    n->nxw[nn++] = share;
                }
            }
        }
        uint32_t *t = n->fr;
        n->fr = n->nx;
        n->nx = t;
        double *tw = n->frw;
        n->frw = n->nxw;
        n->nxw = tw;
        nf = nn;
    }
    return 0;
}

typedef struct ent {
    uint32_t res;
    double w;
} ent;

static int cmp_ent(const void *a, const void *b)
{
    const ent *x = a, *y = b;
    return x->res < y->res ? -1 : x->res > y->res;
}

/* One entry per resource: the shares of one summed (a link two branches
 * reach; none on the fabrics built, where branches meet only at switches). */
static void merge_entries(ry_net *n)
{
    if (n->nent < 2)
        return;
    ent *e = ry_xreallocarray(NULL, n->nent, sizeof *e);
    for (size_t i = 0; i < n->nent; i++)
        e[i] = (ent){ n->res[i], n->w[i] };
    qsort(e, n->nent, sizeof *e, cmp_ent);
    size_t m = 0;
    for (size_t i = 0; i < n->nent; i++) {
        if (m && e[m - 1].res == e[i].res)
            e[m - 1].w += e[i].w;
        else
            e[m++] = e[i];
    }
    for (size_t i = 0; i < m; i++) {
        n->res[i] = e[i].res;
        n->w[i] = e[i].w;
    }
    n->nent = m;
    free(e);
}

static void add_flow(ry_net *n, ry_flows *fl, double bytes)
{
    if (n->nent > n->capwf) {
        n->capwf = n->capent;
        free(n->wf);
        n->wf = ry_xmalloc(n->capwf * sizeof *n->wf);
    }
    int ones = 1;
    for (size_t i = 0; i < n->nent; i++) {
        double w = n->w[i] > 1 ? 1 : n->w[i];
        n->wf[i] = (float)w;
        ones &= n->wf[i] == 1.0f;
    }
    ry_flows_add(fl, bytes, n->res, ones ? NULL : n->wf, n->nent);
}

static int gpu_ok(const ry_net *n, uint32_t g, const char *what, ry_err *err)
{
    if ((long long)g < n->f->gpus)
        return 0;
    ry_err_set(err, NULL, "%s GPU %u: the fabric has GPUs 0 to %lld", what, g, n->f->gpus - 1);
    return -1;
}

static void nvlink_entries(ry_net *n, uint32_t out, uint32_t in)
{
    uint32_t base = 2 * (uint32_t)n->f->nlinks;
    add_entry(n, base + 2 * out, 1.0);
    add_entry(n, base + 2 * in + 1, 1.0);
}

/* The connection's qps flows after the `pre` entries already in place
 * (NVLink of a PXN hop or of a relay): from GPU src's port on plane to
 * dst's, then over NVLink to GPU to when dst is a relay for it. */
static int connect_ports(ry_net *n, ry_flows *fl, size_t pre, uint32_t src, uint32_t dst,
                         uint32_t to, int plane, uint32_t conn, double bytes, ry_err *err)
{
    const ry_fabric *f = n->f;
    walk wk;
    memset(&wk, 0, sizeof wk);
    wk.sp = f->nodes[src].port0 + (uint32_t)plane;
    wk.dp = f->nodes[dst].port0 + (uint32_t)plane;
    if (f->ports[wk.sp].peer < 0 || f->ports[wk.dp].peer < 0) {
        no_route(n, &wk, UINT32_MAX, err);
        return -1;
    }
    if (n->link_down && (n->link_down[f->ports[wk.sp].link] || n->link_down[f->ports[wk.dp].link])) {
        no_route(n, &wk, n->link_down[f->ports[wk.sp].link] ? DEAD_SRC : DEAD_DST, err);
        return -1;
    }
    uint32_t sleaf = f->ports[f->ports[wk.sp].peer].owner;
    wk.dleaf = f->ports[f->ports[wk.dp].peer].owner;
    if (f->nodes[sleaf].subnet != f->nodes[wk.dleaf].subnet) {
        no_route(n, &wk, UINT32_MAX, err);
        return -1;
    }
    if (n->eth) {
        wk.e = eth_routes(n, wk.dleaf);
        wk.key.sip = wk.sp;
        wk.key.dip = wk.dp;
        wk.key.sport = 0xC000u | (conn & 0x3FFFu);     /* the dynamic range */
    } else {
        int k = f->nodes[sleaf].subnet;
        wk.u = k >= 0 && k < f->nsubnets ? walker(n, k) : NULL;
        if (!wk.u || ry_updown_index(wk.u, wk.dp) < 0) {
            no_route(n, &wk, UINT32_MAX, err);
            return -1;
        }
    }
    /* the queue pairs part only where the hash tells them apart */
    int apart = n->eth && n->o.hash_qp && n->o.routing != RY_NET_ADAPTIVE;
    for (int q = 0; q < n->o.qps; q++) {
        if (q == 0 || apart) {
            n->nent = pre;
            wk.key.qp = conn * (uint32_t)n->o.qps + (uint32_t)q;
            if (route(n, &wk, err) < 0)
                return -1;
            if (n->o.routing == RY_NET_ADAPTIVE)
                merge_entries(n);
            if (to != dst)
                nvlink_entries(n, dst, to);
        }
        add_flow(n, fl, bytes / n->o.qps);
    }
    return 0;
}

/* GPU g's port on plane is cabled and up (its cable and its leaf alive). */
static int port_up(const ry_net *n, uint32_t g, int plane)
{
    const ry_fabric *f = n->f;
    uint32_t p = f->nodes[g].port0 + (uint32_t)plane;
    return f->ports[p].peer >= 0 && !(n->link_down && n->link_down[f->ports[p].link]);
}

/* The network (subnet) g's port on plane is in; the port is cabled. */
static int port_net(const ry_net *n, uint32_t g, int plane)
{
    const ry_fabric *f = n->f;
    uint32_t p = f->nodes[g].port0 + (uint32_t)plane;
    return f->nodes[f->ports[f->ports[p].peer].owner].subnet;
}

uint32_t ry_net_domain(const ry_fabric *f, uint32_t g, uint32_t *end)
{
    uint32_t first = g, e = g + 1;
    while (first > 0 && f->nodes[first - 1].group == f->nodes[g].group)
        first--;
    while ((long long)e < f->gpus && f->nodes[e].group == f->nodes[g].group)
        e++;
    *end = e;
    return first;
}

/* Up to RY_NET_RELAYS GPUs of g's HB domain, other than g and not, with a
 * port up on plane and, when net >= 0, in that network: in domain order
 * from the one after g, wrapping. Their count. */
static size_t relays(const ry_net *n, uint32_t g, uint32_t not, int plane, int net,
                     uint32_t *out)
{
    const ry_fabric *f = n->f;
    uint32_t end, first = ry_net_domain(f, g, &end);
    size_t k = 0;
    for (uint32_t i = 1; i < end - first && k < RY_NET_RELAYS; i++) {
        uint32_t r = first + (g - first + i) % (end - first);
        if (r != not && port_up(n, r, plane) && (net < 0 || port_net(n, r, plane) == net))
            out[k++] = r;
    }
    return k;
}

/* The flows of fl from start on, their bytes times k. */
static void scale_flows(ry_flows *fl, size_t start, double k)
{
    for (size_t i = start; i < fl->n; i++)
        fl->bytes[i] *= k;
}

/* One relayed pair: src over NVLink to a (when a is not src), a's port to
 * b's, b over NVLink to dst (when b is not dst), one byte; 1 when routed. */
static int try_pair(ry_net *n, ry_flows *fl, size_t pre, uint32_t src, uint32_t a, uint32_t b,
                    uint32_t dst, int plane, uint32_t conn, ry_err *err)
{
    if (b == src || a == dst)
        return 0;
    n->nent = pre;
    if (a != src)
        nvlink_entries(n, src, a);
    return connect_ports(n, fl, n->nent, a, b, dst, plane, conn, 1.0, err) == 0;
}

/* What a (src itself or its relay) sends to dst: to dst when that routes,
 * else through the GPUs of dst's domain in a's network that route, evenly;
 * one byte in all. 1 when anything routed. */
static int from_relay(ry_net *n, ry_flows *fl, size_t pre, uint32_t src, uint32_t a, uint32_t dst,
                      int plane, uint32_t conn, ry_err *err)
{
    int net = port_net(n, a, plane);
    if (port_up(n, dst, plane) && port_net(n, dst, plane) == net &&
        try_pair(n, fl, pre, src, a, dst, dst, plane, conn, err))
        return 1;
    uint32_t b[RY_NET_RELAYS];
    size_t nb = relays(n, dst, a, plane, net, b), ok = 0, start = fl->n;
    for (size_t j = 0; j < nb; j++)
        ok += (size_t)try_pair(n, fl, pre, src, a, b[j], dst, plane, conn, err);
    if (ok)
        scale_flows(fl, start, 1.0 / (double)ok);
    return ok > 0;
}

/* The connection from src's port on plane to dst's. When something is
 * down and a port at either end is down, or the fabric left no route
 * between them (a leaf cut off above), the GPUs of their HB domains relay
 * over NVLink, the bytes spread evenly: src sends itself when it can reach
 * dst or a GPU of dst's domain, else through the GPUs of its domain that
 * can; each sender reaches dst straight when it can, else through the GPUs
 * of dst's domain in its network (rail-only: both ends relayed). */
static int connect_net(ry_net *n, ry_flows *fl, size_t pre, uint32_t src, uint32_t dst, int plane,
                       uint32_t conn, double bytes, ry_err *err)
{
    const ry_fabric *f = n->f;
    if (plane < 0 || plane >= f->planes) {
        ry_err_set(err, NULL, "plane %d: the fabric has planes 0 to %d", plane, f->planes - 1);
        return -1;
    }
    int sup = port_up(n, src, plane), dup = port_up(n, dst, plane);
    /* nothing down, a port not cabled, or two networks by design (rail-only
     * across rails): the route as it is, or none */
    if (!n->link_down || f->ports[f->nodes[src].port0 + (uint32_t)plane].peer < 0 ||
        f->ports[f->nodes[dst].port0 + (uint32_t)plane].peer < 0 ||
        port_net(n, src, plane) != port_net(n, dst, plane))
        return connect_ports(n, fl, pre, src, dst, dst, plane, conn, bytes, err);
    ry_err direct = { { 0 }, { 0 } };
    if (sup && dup) {
        if (connect_ports(n, fl, pre, src, dst, dst, plane, conn, bytes, &direct) == 0)
            return 0;
        /* the forwarding tables found are the routes: none is none */
        if (n->tables && n->o.routing == RY_NET_STATIC) {
            *err = direct;
            return -1;
        }
    } else {
        walk wk;
        memset(&wk, 0, sizeof wk);
        wk.sp = f->nodes[src].port0 + (uint32_t)plane;
        wk.dp = f->nodes[dst].port0 + (uint32_t)plane;
        no_route(n, &wk, sup ? DEAD_DST : DEAD_SRC, &direct);
    }
    ry_err scratch;
    size_t start = fl->n, ok = 0;
    if (sup)
        ok = (size_t)from_relay(n, fl, pre, src, src, dst, plane, conn, &scratch);
    if (!ok) {
        uint32_t a[RY_NET_RELAYS];
        size_t na = relays(n, src, dst, plane, -1, a);
        for (size_t i = 0; i < na; i++)
            ok += (size_t)from_relay(n, fl, pre, src, a[i], dst, plane, conn, &scratch);
    }
    if (!ok) {
        *err = direct;
        size_t at = strlen(err->msg);
        snprintf(err->msg + at, sizeof err->msg - at, ", and no GPU of %s HB domain can relay",
                 sup && dup ? "either" : "its");
        return -1;
    }
    scale_flows(fl, start, bytes / (double)ok);
    return 0;
}

int ry_net_down_any(const ry_net *n) { return n->link_down != NULL; }

void ry_net_set_tables(ry_net *n, const ry_net_tables *t) { n->tables = t; }

void ry_net_tables_free(ry_net_tables *t)
{
    if (!t)
        return;
    free(t->gpu_lid);
    free(t->port);
    free(t->port_id);
    memset(t, 0, sizeof *t);
}

void ry_net_end_loads(const ry_net *n, uint32_t src, uint32_t via, uint32_t dst, int plane,
                      double bytes, ry_res_visit visit, void *ctx)
{
    const ry_fabric *f = n->f;
    uint32_t base = 2 * (uint32_t)f->nlinks;
    if ((long long)src >= f->gpus || (long long)via >= f->gpus || (long long)dst >= f->gpus ||
        src == dst)
        return;
    if (f->nodes[src].group == f->nodes[dst].group) {
        visit(ctx, base + 2 * src, bytes);
        visit(ctx, base + 2 * dst + 1, bytes);
        return;
    }
    if (via != src && f->nodes[via].group == f->nodes[src].group) {
        visit(ctx, base + 2 * src, bytes);
        visit(ctx, base + 2 * via + 1, bytes);
    } else {
        via = src;
    }
    if (plane < 0 || plane >= f->planes)
        return;
    uint32_t sp = f->nodes[via].port0 + (uint32_t)plane, dp = f->nodes[dst].port0 + (uint32_t)plane;
    if (f->ports[sp].peer >= 0)
        visit(ctx, out_res(f, sp), bytes);
    if (f->ports[dp].peer >= 0)
        visit(ctx, out_res(f, (uint32_t)f->ports[dp].peer), bytes);
}

int ry_net_connect(ry_net *n, ry_flows *fl, uint32_t src, uint32_t dst, int plane, int nvlink,
                   uint32_t conn, double bytes, ry_err *err)
{
    if (gpu_ok(n, src, "source", err) < 0 || gpu_ok(n, dst, "destination", err) < 0)
        return -1;
    if (src == dst)
        return 0;   /* nothing crosses a wire */
    const ry_fabric *f = n->f;
    n->nent = 0;
    if (nvlink && f->nodes[src].group == f->nodes[dst].group) {
        nvlink_entries(n, src, dst);
        add_flow(n, fl, bytes);
        return 0;
    }
    return connect_net(n, fl, 0, src, dst, plane, conn, bytes, err);
}

int ry_net_connect_via(ry_net *n, ry_flows *fl, uint32_t src, uint32_t via, uint32_t dst,
                       int plane, uint32_t conn, double bytes, ry_err *err)
{
    if (gpu_ok(n, src, "source", err) < 0 || gpu_ok(n, via, "relay", err) < 0 ||
        gpu_ok(n, dst, "destination", err) < 0)
        return -1;
    const ry_fabric *f = n->f;
    if (f->nodes[src].group != f->nodes[via].group) {
        char a[96], b[96];
        ry_node_name(f, src, a, sizeof a);
        ry_node_name(f, via, b, sizeof b);
        ry_err_set(err, NULL, "%s cannot relay through %s: they are in different HB domains",
                   a, b);
        return -1;
    }
    n->nent = 0;
    if (src != via)
        nvlink_entries(n, src, via);
    if (via == dst) {
        if (n->nent)
            add_flow(n, fl, bytes);
        return 0;
    }
    return connect_net(n, fl, n->nent, via, dst, plane, conn, bytes, err);
}
