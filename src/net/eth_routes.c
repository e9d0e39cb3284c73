/* BGP's routes on an Ethernet fabric: one breadth-first pass per
 * destination (eth_routes.h has the rule). */
#include "net/eth_routes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/names.h"
#include "util/diag.h"

ry_eth_routes *ry_eth_routes_new(const ry_fabric *f, const ry_ethplan *pl)
{
    ry_eth_routes *r = ry_xcalloc(1, sizeof *r);
    size_t nsw = f->nnodes - f->first_switch + 1;
    r->f = f;
    r->pl = pl;
    r->dist = ry_xcalloc(nsw, sizeof *r->dist);
    r->best = ry_xcalloc(nsw, sizeof *r->best);
    r->nh0 = ry_xcalloc(nsw, sizeof *r->nh0);
    r->nhn = ry_xcalloc(nsw, sizeof *r->nhn);
    r->front = ry_xcalloc(nsw, sizeof *r->front);
    r->next = ry_xcalloc(nsw, sizeof *r->next);
    return r;
}

void ry_eth_routes_free(ry_eth_routes *r)
{
    if (!r)
        return;
    free(r->dist);
    free(r->best);
    free(r->nh0);
    free(r->nhn);
    free(r->nh);
    free(r->front);
    free(r->next);
    free(r);
}

/* 1 when asn is on x's best path. */
static int on_path(const ry_eth_routes *r, uint32_t x, uint32_t asn)
{
    const ry_fabric *f = r->f;
    for (;;) {
        uint32_t i = x - f->first_switch;
        if (r->pl->asn[i] == asn)
            return 1;
        if (r->dist[i] == 0)
            return 0;
        x = r->best[i];
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* 1 when port p's link is up and leads to a switch; its peer's owner in *y. */
static int switch_peer(const ry_fabric *f, uint32_t p, const uint8_t *link_down, uint32_t *y)
{
    const ry_port *pt = &f->ports[p];
    if (pt->peer < 0 || (link_down && pt->link >= 0 && link_down[pt->link]))
        return 0;
    *y = f->ports[pt->peer].owner;
    return f->nodes[*y].kind == RY_NODE_SWITCH;
}

void ry_eth_routes_to(ry_eth_routes *r, uint32_t dest, const uint8_t *link_down)
{
    const ry_fabric *f = r->f;
    size_t nsw = f->nnodes - f->first_switch;
    for (size_t i = 0; i < nsw; i++) {
        r->dist[i] = -1;
        r->nhn[i] = 0;
    }
    r->nnh = 0;
    r->dist[dest - f->first_switch] = 0;
    r->front[0] = dest;
    size_t nfront = 1;
    for (int32_t k = 0; nfront; k++) {
        /* the switches a level-k switch offers its path to and that take
         * it: level k + 1 */
        size_t nnext = 0;
        for (size_t a = 0; a < nfront; a++) {
            uint32_t x = r->front[a], y;
            const ry_node *n = &f->nodes[x];
            for (uint32_t p = n->port0; p < n->port0 + n->nports; p++) {
                if (!switch_peer(f, p, link_down, &y))
                    continue;
                int32_t dy = r->dist[y - f->first_switch];
                if (dy >= 0 && dy <= k)
                    continue;
                if (dy == k + 1 || on_path(r, x, r->pl->asn[y - f->first_switch]))
                    continue;
                r->dist[y - f->first_switch] = k + 1;
                r->next[nnext++] = y;
            }
        }
        if (nnext > 1)
            qsort(r->next, nnext, sizeof *r->next, cmp_u32);
        /* each one's next hops: its links to a level-k switch whose path
         * lacks its ASN, in port order; its path the lowest such switch's */
        for (size_t b = 0; b < nnext; b++) {
            uint32_t y = r->next[b], x, yi = y - f->first_switch;
            const ry_node *n = &f->nodes[y];
            uint32_t asn = r->pl->asn[yi];
            r->nh0[yi] = (uint32_t)r->nnh;
            r->best[yi] = UINT32_MAX;
            for (uint32_t p = n->port0; p < n->port0 + n->nports; p++) {
                if (!switch_peer(f, p, link_down, &x) || r->dist[x - f->first_switch] != k ||
                    on_path(r, x, asn))
                    continue;
                RY_ALLOC_GROW(r->nh, r->nnh + 1, r->cap);
                r->nh[r->nnh++] = p;
                r->nhn[yi]++;
                if (x < r->best[yi])
                    r->best[yi] = x;
            }
        }
        uint32_t *t = r->front;
        r->front = r->next;
        r->next = t;
        nfront = nnext;
    }
}

void ry_eth_leaf_widths(ry_eth_routes *r, const uint8_t *node_down, const uint8_t *link_down,
                        ry_eth_widths *w)
{
    const ry_fabric *f = r->f;
    memset(w, 0, sizeof *w);
    for (uint32_t d = f->first_switch; d < f->nnodes; d++) {
        const ry_node *dn = &f->nodes[d];
        if (dn->tier != 1 || (node_down && node_down[d]))
            continue;
        ry_eth_routes_to(r, d, link_down);
        for (uint32_t s = f->first_switch; s < f->nnodes; s++) {
            const ry_node *sn = &f->nodes[s];
            if (s == d || sn->tier != 1 || sn->subnet != dn->subnet ||
                (node_down && node_down[s]))
                continue;
            w->pairs++;
            uint32_t n = r->nhn[s - f->first_switch];
            if (r->dist[s - f->first_switch] < 0 || n == 0) {
                w->unrouted++;
                continue;
            }
            if (w->min == 0 || (int)n < w->min)
                w->min = (int)n;
            if ((int)n > w->max)
                w->max = (int)n;
        }
    }
}

/* A kernel route's destination as the plan's: the switch whose prefix it
 * is, or -1 (not a plan prefix). dst is "a.b.c.d/len" or a host address. */
static int64_t dest_of(const ry_ethplan *pl, const char *dst)
{
    const ry_fabric *f = pl->f;
    char buf[64];
    ry_prefix4 p;
    const char *why;
    snprintf(buf, sizeof buf, strchr(dst, '/') ? "%s" : "%s/32", dst);
    if (ry_prefix4_parse(buf, &p, &why) < 0)
        return -1;
    uint64_t nsw = f->nnodes - f->first_switch;
    if (p.len == 32 && p.addr > pl->lo.addr && p.addr - pl->lo.addr <= nsw)
        return (int64_t)f->first_switch + (p.addr - pl->lo.addr - 1);
    uint64_t nics = (uint64_t)f->gpus * (uint64_t)f->planes;
    if (p.len == 31 && p.addr >= pl->hosts.addr && (p.addr - pl->hosts.addr) / 2 < nics) {
        int32_t peer = f->ports[(p.addr - pl->hosts.addr) / 2].peer;
        return peer < 0 ? -1 : (int64_t)f->ports[peer].owner;
    }
    return -1;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void shown(ry_eth_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void shown(ry_eth_check *c, const char *fmt, ...)
{
    if (c->nshown >= RY_ETH_CHECK_SHOWN)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->shown[c->nshown++], sizeof c->shown[0], fmt, ap);
    va_end(ap);
}

/* The sorted names of n ports (of pl's switches), space-separated. */
static void names_of(const ry_ethplan *pl, const uint32_t *ports, int n, char (*tmp)[16],
                     char *out, size_t cap)
{
    for (int i = 0; i < n; i++)
        ry_eth_port_name(pl, ports[i], tmp[i], sizeof tmp[0]);
    qsort(tmp, (size_t)n, sizeof tmp[0], cmp_name);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "%s%s", i ? " " : "", tmp[i]);
    }
}

void ry_eth_check_tables(const ry_ethplan *pl, const ry_kroutes *tables, const uint8_t *node_down,
                         const uint8_t *link_down, ry_eth_check *c)
{
    const ry_fabric *f = pl->f;
    size_t nsw = f->nnodes - f->first_switch;
    memset(c, 0, sizeof *c);
    /* each table's BGP routes by destination switch: dest[i][k] for route k */
    int64_t **dest = ry_xcalloc(nsw ? nsw : 1, sizeof *dest);
    uint8_t **seen = ry_xcalloc(nsw ? nsw : 1, sizeof *seen);
    for (size_t i = 0; i < nsw; i++) {
        if (!tables[i].r)
            continue;
        c->tables++;
        dest[i] = ry_xcalloc(tables[i].nr + 1, sizeof **dest);
        seen[i] = ry_xcalloc(tables[i].nr + 1, 1);
        for (size_t k = 0; k < tables[i].nr; k++)
            dest[i][k] = strcmp(tables[i].r[k].proto, "bgp") == 0 ?
                         dest_of(pl, tables[i].r[k].dst) : -2;
    }
    /* each switch's host links: its prefixes are its loopback and those */
    long long *hosts = ry_xcalloc(nsw ? nsw : 1, sizeof *hosts);
    long long *found = ry_xcalloc(nsw ? nsw : 1, sizeof *found);
    for (uint64_t q = 0; q < (uint64_t)f->gpus * (uint64_t)f->planes; q++)
        if (f->ports[q].peer >= 0)
            hosts[f->ports[f->ports[q].peer].owner - f->first_switch]++;
    ry_eth_routes *r = ry_eth_routes_new(f, pl);
    char (*tmp)[16] = ry_xcalloc(RY_ETH_MAX_PATHS + 65536, sizeof *tmp);
    char want[4096], got[4096], sw[96];
    for (uint32_t d = f->first_switch; d < f->nnodes; d++) {
        if (node_down && node_down[d])
            continue;
        ry_eth_routes_to(r, d, link_down);
        for (size_t i = 0; i < nsw; i++) {
            uint32_t s = f->first_switch + (uint32_t)i;
            found[i] = 0;
            if (!tables[i].r || s == d || (node_down && node_down[s]))
                continue;
            int routed = r->dist[i] > 0 && r->nhn[i] > 0;
            names_of(pl, r->nh + r->nh0[i], routed ? (int)r->nhn[i] : 0, tmp, want, sizeof want);
            for (size_t k = 0; k < tables[i].nr; k++) {
                if (dest[i][k] != (int64_t)d)
                    continue;
                seen[i][k] = 1;
                const ry_kroute *kr = &tables[i].r[k];
                ry_node_name(f, s, sw, sizeof sw);
                if (!routed) {
                    c->extra++;
                    shown(c, "%s: %s: the plan has no route; the kernel has one", sw, kr->dst);
                    continue;
                }
                c->routes++;
                found[i]++;
                int kn = kr->n < RY_ETH_MAX_PATHS + 65536 ? kr->n : RY_ETH_MAX_PATHS + 65536;
                for (int j = 0; j < kn; j++)
                    snprintf(tmp[j], sizeof tmp[0], "%s", tables[i].dev[kr->first + j]);
                qsort(tmp, (size_t)kn, sizeof tmp[0], cmp_name);
                got[0] = 0;
                for (int j = 0; j < kn; j++) {
                    size_t l = strlen(got);
                    snprintf(got + l, sizeof got - l, "%s%s", j ? " " : "", tmp[j]);
                }
                if (strcmp(want, got) == 0) {
                    c->agree++;
                } else {
                    c->differ++;
                    shown(c, "%s: %s: planned over %s; the kernel's over %s", sw, kr->dst, want,
                          got);
                }
            }
        }
        /* the planned routes with no kernel route: d's loopback and host
         * links, less those found above */
        for (size_t i = 0; i < nsw; i++) {
            uint32_t s = f->first_switch + (uint32_t)i;
            if (!tables[i].r || s == d || (node_down && node_down[s]) || r->dist[i] <= 0 ||
                !r->nhn[i] || found[i] >= 1 + hosts[d - f->first_switch])
                continue;
            long long lost = 1 + hosts[d - f->first_switch] - found[i];
            char dn[96];
            ry_node_name(f, s, sw, sizeof sw);
            ry_node_name(f, d, dn, sizeof dn);
            c->routes += lost;
            c->missing += lost;
            shown(c, "%s: %lld of the %lld prefixes of %s (loopback, host links) planned, not "
                  "in the kernel", sw, lost, 1 + hosts[d - f->first_switch], dn);
        }
    }
    for (size_t i = 0; i < nsw; i++) {
        for (size_t k = 0; tables[i].r && k < tables[i].nr; k++)
            if (dest[i][k] == -1)
                c->foreign++;
            else if (dest[i][k] >= 0 && !seen[i][k]) {
                /* a route to a down switch's prefix, or one the plan does not reach */
                c->extra++;
                ry_node_name(f, f->first_switch + (uint32_t)i, sw, sizeof sw);
                shown(c, "%s: %s: the plan has no route; the kernel has one", sw,
                      tables[i].r[k].dst);
            }
        free(dest[i]);
        free(seen[i]);
    }
    free(dest);
    free(seen);
    free(hosts);
    free(found);
    free(tmp);
    ry_eth_routes_free(r);
}
