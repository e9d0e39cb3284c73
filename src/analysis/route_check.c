#include "analysis/route_check.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

enum { ST_NEW = 0, ST_BUSY, ST_OK, ST_FAIL };

typedef struct ctx {
    const ry_netfile *nf;
    const ry_lft *lft;
    ry_rc_result *r;
    int max_report;
    int updown;
    int S, E;
    int *sw_node;        /* [S]: topology node of each switch */
    int *node_sw;        /* [nnodes]: switch index, -1 for end nodes */
    int *ep_port;        /* [E]: topology port of each end port, by LID */
    int *ep_sw;          /* [E]: switch at the other end of its link, -1 if none */
    int *port_ep;        /* [nports]: end port index of a topology port, or -1 */
    int *peer_sw;        /* [nports]: switch at the other end, or -1 */
    int *peer_ep;        /* [nports]: end port at the other end, or -1 */
    int *srcs_at;        /* [S]: end ports linked to each switch */
    int *src_sw, nsrc_sw;/* switches with end ports (the leaves) */
    int *direct, ndirect;/* end ports whose link does not lead to a switch */
    int *tier;           /* [S]: 1 = leaf, 0 = no end port reachable */
    uint16_t **sd;       /* [S]: for leaves, switch hops from every switch (up-down mode:
                            the shortest up*-down* path's), 0xffff for none */
    /* one destination at a time */
    uint8_t *st, *why;
    int *dist, *at, *atport, *outp, *nxt, *stk, *vis, nvis, *ord, *cnt;
    long long *flow;
    int *mark, stamp;
    /* totals */
    unsigned long long *linkflow; /* [nports]: routes leaving by each port */
    long long *okcnt;             /* [S]: destination LIDs each switch delivers to */
    long long *selfok;            /* [E]: own LIDs the end port's switch delivers to */
    /* channel dependency graph */
    int *chan;                    /* [nports]: channel of a switch-to-switch port, or -1 */
    int *chan_port, nchan;
    size_t *bitoff;               /* [nchan]: first word of the channel's out-port bits */
    uint64_t *bits;
    /* shifts: which switches deliver to each end port's base LID */
    uint64_t *okbits;
    size_t okwords;
} ctx;

static inline const uint8_t *row_of(const ctx *c, int s) { return ry_lft_row(c->lft, c->sw_node[s]); }
/* Port p of switch s, or -1 when the topology lists no link on it. */
static inline int port_index(const ctx *c, int s, int p) { return ry_netfile_port(c->nf, c->sw_node[s], p); }

/* ---- setup ---------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void setup(ctx *c)
{
    const ry_netfile *nf = c->nf;
    ry_rc_result *r = c->r;
    c->node_sw = ry_xmalloc((size_t)nf->nnodes * sizeof *c->node_sw);
    c->sw_node = ry_xmalloc((size_t)nf->nnodes * sizeof *c->sw_node);
    for (int i = 0; i < nf->nnodes; i++) {
        c->node_sw[i] = -1;
        if (ry_netfile_is_switch(nf, i)) {
            c->node_sw[i] = c->S;
            c->sw_node[c->S++] = i;
        }
    }
    /* end ports: cabled ports of end nodes, which all have LIDs */
    uint64_t *key = ry_xmalloc(((size_t)nf->nports + 1) * sizeof *key);
    for (int i = 0; i < nf->nports; i++) {
        const ry_nf_port *p = &nf->ports[i];
        if (!ry_netfile_is_switch(nf, p->node) && p->peer >= 0 && p->lid > 0)
            key[c->E++] = (uint64_t)p->lid << 32 | (uint64_t)i;
    }
    qsort(key, (size_t)c->E, sizeof *key, cmp_u64);
    c->ep_port = ry_xmalloc(((size_t)c->E + 1) * sizeof *c->ep_port);
    for (int e = 0; e < c->E; e++)
        c->ep_port[e] = (int)(key[e] & 0xffffffffu);
    free(key);
    c->port_ep = ry_xmalloc((size_t)nf->nports * sizeof *c->port_ep);
    c->peer_sw = ry_xmalloc((size_t)nf->nports * sizeof *c->peer_sw);
    c->peer_ep = ry_xmalloc((size_t)nf->nports * sizeof *c->peer_ep);
    for (int i = 0; i < nf->nports; i++)
        c->port_ep[i] = -1;
    for (int e = 0; e < c->E; e++)
        c->port_ep[c->ep_port[e]] = e;
    for (int i = 0; i < nf->nports; i++) {
        int q = nf->ports[i].peer;
        c->peer_sw[i] = q >= 0 ? c->node_sw[nf->ports[q].node] : -1;
        c->peer_ep[i] = q >= 0 ? c->port_ep[q] : -1;
    }
    c->ep_sw = ry_xmalloc((size_t)(c->E + 1) * sizeof *c->ep_sw);
    c->srcs_at = ry_xcalloc((size_t)c->S + 1, sizeof *c->srcs_at);
    c->direct = ry_xmalloc((size_t)(c->E + 1) * sizeof *c->direct);
    for (int e = 0; e < c->E; e++) {
        c->ep_sw[e] = c->peer_sw[c->ep_port[e]];
        if (c->ep_sw[e] >= 0)
            c->srcs_at[c->ep_sw[e]]++;
        else
            c->direct[c->ndirect++] = e;
    }
    c->src_sw = ry_xmalloc((size_t)(c->S + 1) * sizeof *c->src_sw);
    for (int s = 0; s < c->S; s++)
        if (c->srcs_at[s])
            c->src_sw[c->nsrc_sw++] = s;

    r->switches = c->S;
    r->end_ports = c->E;
    r->ep_port = ry_xmalloc((size_t)(c->E + 1) * sizeof *r->ep_port);
    memcpy(r->ep_port, c->ep_port, (size_t)c->E * sizeof *c->ep_port);
    for (int e = 0; e < c->E; e++)
        r->dest_lids += 1 << nf->ports[c->ep_port[e]].lmc;

    size_t S1 = (size_t)c->S + 1;
    c->st = ry_xcalloc(S1, 1);
    c->why = ry_xcalloc(S1, 1);
    c->dist = ry_xcalloc(S1, sizeof *c->dist);
    c->at = ry_xcalloc(S1, sizeof *c->at);
    c->atport = ry_xcalloc(S1, sizeof *c->atport);
    c->outp = ry_xcalloc(S1, sizeof *c->outp);
    c->nxt = ry_xcalloc(S1, sizeof *c->nxt);
    c->stk = ry_xcalloc(S1, sizeof *c->stk);
    c->vis = ry_xcalloc(S1, sizeof *c->vis);
    c->ord = ry_xcalloc(S1, sizeof *c->ord);
    c->cnt = ry_xcalloc(S1 + 2, sizeof *c->cnt);
    c->flow = ry_xcalloc(S1, sizeof *c->flow);
    c->mark = ry_xcalloc(S1, sizeof *c->mark);
    c->linkflow = ry_xcalloc((size_t)nf->nports + 1, sizeof *c->linkflow);
    c->okcnt = ry_xcalloc(S1, sizeof *c->okcnt);
    c->selfok = ry_xcalloc((size_t)c->E + 1, sizeof *c->selfok);
    r->max_hops = c->S + 2;
    r->hops = ry_xcalloc((size_t)r->max_hops + 1, sizeof *r->hops);
    c->okwords = ((size_t)c->S + 63) / 64;
    c->okbits = ry_xcalloc((size_t)c->E * c->okwords + 1, sizeof *c->okbits);
}

/* Up-down mode: d[s] becomes the length of the shortest up*-down* path from
 * s to leaf L (0xffff for none): first all-down paths, switches by rising
 * rank, then paths that climb first, by falling rank. Unranked switches
 * (tier 0) carry none. order is scratch for S switches. */
static void updown_distances(ctx *c, int L, uint16_t *d, int *order)
{
    const ry_netfile *nf = c->nf;
    int n = 0;
    for (int t = 1; t <= c->r->tiers; t++)
        for (int s = 0; s < c->S; s++)
            if (c->tier[s] == t)
                order[n++] = s;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            int s = order[pass ? n - 1 - i : i];
            int best = pass ? d[s] : (s == L ? 0 : 0xffff);
            const ry_nf_node *nd = &nf->nodes[c->sw_node[s]];
            for (int q = nd->port0 + 1; q < nd->port0 + nd->nrec; q++) {
                int t = c->peer_sw[q];
                if (t < 0 || !c->tier[t] ||
                    (pass ? c->tier[t] <= c->tier[s] : c->tier[t] >= c->tier[s]))
                    continue;
                if (d[t] != 0xffff && d[t] + 1 < best)
                    best = d[t] + 1;
            }
            d[s] = (uint16_t)best;
        }
    for (int s = 0; s < c->S; s++)
        if (!c->tier[s])
            d[s] = 0xffff;
}

/* Tiers by breadth-first search up from the leaves (switches with end ports),
 * and from each leaf the switch-hop distance to every switch. */
static void rank_switches(ctx *c)
{
    const ry_netfile *nf = c->nf;
    ry_rc_result *r = c->r;
    int *queue = ry_xmalloc(((size_t)c->S + 1) * sizeof *queue);
    int head = 0, tail = 0;
    c->tier = ry_xcalloc((size_t)c->S + 1, sizeof *c->tier);
    for (int k = 0; k < c->nsrc_sw; k++) {
        c->tier[c->src_sw[k]] = 1;
        queue[tail++] = c->src_sw[k];
    }
    while (head < tail) {
        int s = queue[head++];
        const ry_nf_node *n = &nf->nodes[c->sw_node[s]];
        for (int i = n->port0 + 1; i < n->port0 + n->nrec; i++) {
            int t = c->peer_sw[i];
            if (t >= 0 && !c->tier[t]) {
                c->tier[t] = c->tier[s] + 1;
                queue[tail++] = t;
            }
        }
    }
    for (int s = 0; s < c->S; s++)
        if (c->tier[s] > r->tiers)
            r->tiers = c->tier[s];
    r->per_tier = ry_xcalloc((size_t)r->tiers + 1, sizeof *r->per_tier);
    for (int s = 0; s < c->S; s++)
        r->per_tier[c->tier[s]]++;

    c->sd = ry_xcalloc((size_t)c->S + 1, sizeof *c->sd);
    for (int k = 0; k < c->nsrc_sw; k++) {
        int L = c->src_sw[k];
        uint16_t *d = ry_xmalloc((size_t)c->S * sizeof *d);
        memset(d, 0xff, (size_t)c->S * sizeof *d);
        head = tail = 0;
        d[L] = 0;
        queue[tail++] = L;
        while (head < tail) {
            int s = queue[head++];
            const ry_nf_node *n = &nf->nodes[c->sw_node[s]];
            for (int i = n->port0 + 1; i < n->port0 + n->nrec; i++) {
                int t = c->peer_sw[i];
                if (t >= 0 && d[t] == 0xffff) {
                    d[t] = d[s] + 1 < 0xfffe ? (uint16_t)(d[s] + 1) : 0xfffe;
                    queue[tail++] = t;
                }
            }
        }
        if (c->updown)
            updown_distances(c, L, d, queue);
        c->sd[L] = d;
    }
    free(queue);
}

/* Channels: directed switch-to-switch links. The dependencies of a channel
 * into switch t are one bit per port of t. */
static void setup_channels(ctx *c)
{
    const ry_netfile *nf = c->nf;
    c->chan = ry_xmalloc(((size_t)nf->nports + 1) * sizeof *c->chan);
    c->chan_port = ry_xmalloc(((size_t)nf->nports + 1) * sizeof *c->chan_port);
    c->bitoff = ry_xmalloc(((size_t)nf->nports + 1) * sizeof *c->bitoff);
    size_t words = 0;
    for (int i = 0; i < nf->nports; i++) {
        c->chan[i] = -1;
        int t = c->peer_sw[i];
        if (t < 0 || !ry_netfile_is_switch(nf, nf->ports[i].node) || nf->ports[i].num == 0)
            continue;
        c->chan[i] = c->nchan;
        c->chan_port[c->nchan] = i;
        c->bitoff[c->nchan] = words;
        words += ((size_t)nf->nodes[c->sw_node[t]].nports + 1 + 63) / 64;
        c->nchan++;
    }
    c->bits = ry_xcalloc(words + 1, sizeof *c->bits);
    c->r->channels = c->nchan;
}

/* ---- one destination LID ---------------------------------------------------- */

/* Resolves the route from switch s0 to lid (owned by end port owner) and from
 * every switch on the way: state, hops to the destination, or why it fails. */
static void resolve(ctx *c, int s0, int lid, int owner)
{
    int top = 0, cur = s0, fs, fdist = 0, fwhy = 0, fat = -1, fport = -1;
    for (;;) {
        if (c->st[cur] == ST_BUSY) {
            fs = ST_FAIL;
            fwhy = RY_RC_LOOP;
            fat = c->sw_node[cur];
            fport = -1;
            break;
        }
        if (c->st[cur] == ST_OK) {
            fs = ST_OK;
            fdist = c->dist[cur];
            break;
        }
        if (c->st[cur] == ST_FAIL) {
            fs = ST_FAIL;
            fwhy = c->why[cur];
            fat = c->at[cur];
            fport = c->atport[cur];
            break;
        }
        c->st[cur] = ST_BUSY;
        c->stk[top++] = cur;
        c->vis[c->nvis++] = cur;
        int p = row_of(c, cur)[lid];
        c->outp[cur] = p;
        c->nxt[cur] = -1;
        fs = ST_FAIL;
        fat = c->sw_node[cur];
        fport = p;
        if (p == RY_LFT_NONE) {
            fwhy = RY_RC_NO_ENTRY;
            fport = -1;
            break;
        }
        if (p == 0) {
            fwhy = RY_RC_PORT0;
            break;
        }
        int gp = port_index(c, cur, p);
        if (gp < 0) {
            fwhy = RY_RC_UNCONNECTED;
            break;
        }
        if (c->peer_ep[gp] >= 0) {
            if (c->peer_ep[gp] == owner) {
                fs = ST_OK;
                fdist = 0;
            } else {
                fwhy = RY_RC_WRONG_END;
            }
            break;
        }
        if (c->peer_sw[gp] < 0) {
            fwhy = RY_RC_UNCONNECTED;
            break;
        }
        cur = c->nxt[cur] = c->peer_sw[gp];
    }
    while (top > 0) {
        int s = c->stk[--top];
        if (fs == ST_OK) {
            c->st[s] = ST_OK;
            c->dist[s] = ++fdist;
        } else {
            c->st[s] = ST_FAIL;
            c->why[s] = (uint8_t)fwhy;
            c->at[s] = fat;
            c->atport[s] = fport;
        }
    }
}

/* The route from switch s as a list of the ports it leaves by, for a report. */
static void trace(ctx *c, ry_rc_example *x, int s, int lid)
{
    int cap = 8;
    x->path = ry_xmalloc((size_t)cap * sizeof *x->path);
    x->npath = 0;
    c->stamp++;
    for (int cur = s; cur >= 0;) {
        if (c->mark[cur] == c->stamp)
            break;
        c->mark[cur] = c->stamp;
        int p = row_of(c, cur)[lid];
        if (p == RY_LFT_NONE)
            break;
        int gp = port_index(c, cur, p);
        if (gp < 0)
            break;
        RY_ALLOC_GROW(x->path, x->npath + 1, cap);
        x->path[x->npath++] = gp;
        cur = p == 0 ? -1 : c->peer_sw[gp];
    }
}

static ry_rc_example *add_example(ry_rc_example **list, int *n, int max)
{
    if (*n >= max)
        return NULL;
    if (!*list)
        *list = ry_xcalloc((size_t)max, sizeof **list);
    ry_rc_example *x = &(*list)[(*n)++];
    memset(x, 0, sizeof *x);
    x->at = -1;
    x->port = -1;
    return x;
}

/* Lists failing routes to this destination, sources by LID, while there is
 * room in the lists. */
static void collect_examples(ctx *c, int lid, int owner, int want_stop, int want_loop,
                             int want_long)
{
    ry_rc_result *r = c->r;
    int L = c->ep_sw[owner];
    for (int x = 0; x < c->E; x++) {
        if (x == owner)
            continue;
        int s = c->ep_sw[x];
        ry_rc_example *ex = NULL;
        if (s < 0) {
            int q = c->peer_ep[c->ep_port[x]];
            if (want_stop && q != owner && (ex = add_example(&r->stops, &r->nstops, c->max_report))) {
                ex->reason = RY_RC_NO_SWITCH;
                ex->at = q >= 0 ? c->nf->ports[c->ep_port[q]].node : -1;
            }
        } else if (c->st[s] == ST_FAIL) {
            int lp = c->why[s] == RY_RC_LOOP;
            if (!lp && c->updown && L >= 0 && c->sd[L][s] == 0xffff)
                continue;   /* no up-down path: not a failure in this mode */
            if (lp ? want_loop : want_stop)
                ex = lp ? add_example(&r->loops, &r->nloops, c->max_report)
                        : add_example(&r->stops, &r->nstops, c->max_report);
            if (ex) {
                ex->reason = c->why[s];
                ex->at = c->at[s];
                ex->port = c->atport[s];
            }
        } else if (want_long && c->st[s] == ST_OK && c->dist[s] > c->sd[L][s] + 1) {
            if ((ex = add_example(&r->longer, &r->nlonger, c->max_report))) {
                ex->reason = RY_RC_OK;
                ex->hops = c->dist[s] + 1;
                ex->shortest = c->sd[L][s] + 2;
            }
        }
        if (ex) {
            ex->src = x;
            ex->dst = owner;
            ex->dst_lid = lid;
            if (s >= 0)
                trace(c, ex, s, lid);
        }
        want_stop = want_stop && r->nstops < c->max_report;
        want_loop = want_loop && r->nloops < c->max_report;
        want_long = want_long && r->nlonger < c->max_report;
        if (!want_stop && !want_loop && !want_long)
            break;
    }
}

static void one_destination(ctx *c, int lid, int owner, int base)
{
    ry_rc_result *r = c->r;
    int L = c->ep_sw[owner];
    c->nvis = 0;
    for (int k = 0; k < c->nsrc_sw; k++)
        resolve(c, c->src_sw[k], lid, owner);

    long long stop = 0, loop = 0, longer = 0;
    int maxd = 0, nok = 0;
    for (int i = 0; i < c->nvis; i++) {
        int s = c->vis[i];
        long long f0 = c->srcs_at[s] - (s == L);
        c->flow[s] = f0;
        if (c->st[s] == ST_OK) {
            c->okcnt[s]++;
            if (base)
                c->okbits[(size_t)owner * c->okwords + (size_t)s / 64] |= 1ULL << (s % 64);
            if (f0) {
                r->delivered += f0;
                r->hops[c->dist[s] + 1] += f0;
                if (c->dist[s] > c->sd[L][s] + 1)
                    longer += f0;
            }
            if (c->dist[s] > maxd)
                maxd = c->dist[s];
            nok++;
        } else if (c->why[s] == RY_RC_LOOP) {
            loop += f0;
        } else if (c->updown && L >= 0 && c->sd[L][s] == 0xffff) {
            r->unroutable += f0;
        } else {
            stop += f0;
            r->reason[c->why[s]] += f0;
        }
    }
    if (L >= 0 && c->st[L] == ST_OK)
        c->selfok[owner]++;
    /* end ports linked straight to another end port arrive only there */
    for (int k = 0; k < c->ndirect; k++) {
        int x = c->direct[k];
        if (x == owner)
            continue;
        if (c->peer_ep[c->ep_port[x]] == owner) {
            r->delivered++;
            r->hops[1]++;
            c->linkflow[c->ep_port[x]]++;
        } else {
            stop++;
            r->reason[RY_RC_NO_SWITCH]++;
        }
    }
    r->pairs += c->E - 1;
    r->stopped += stop;
    r->looped += loop;
    r->nonminimal += longer;

    /* flows in order of decreasing distance, so each switch has all its
     * incoming routes before passing them on */
    memset(c->cnt, 0, ((size_t)maxd + 2) * sizeof *c->cnt);
    for (int i = 0; i < c->nvis; i++)
        if (c->st[c->vis[i]] == ST_OK)
            c->cnt[c->dist[c->vis[i]]]++;
    for (int d = maxd, pos = 0; d >= 0; d--) {
        int n = c->cnt[d];
        c->cnt[d] = pos;
        pos += n;
    }
    for (int i = 0; i < c->nvis; i++) {
        int s = c->vis[i];
        if (c->st[s] == ST_OK)
            c->ord[c->cnt[c->dist[s]]++] = s;
    }
    for (int i = 0; i < nok; i++) {
        int s = c->ord[i], t = c->nxt[s];
        if (!c->flow[s])
            continue;
        int gp = port_index(c, s, c->outp[s]);
        c->linkflow[gp] += (unsigned long long)c->flow[s];
        if (t >= 0) {
            c->flow[t] += c->flow[s];
            if (c->nxt[t] >= 0) {
                int ch = c->chan[gp], q = c->outp[t];
                c->bits[c->bitoff[ch] + (size_t)q / 64] |= 1ULL << (q % 64);
            }
        }
    }

    int ws = stop && r->nstops < c->max_report, wl = loop && r->nloops < c->max_report;
    int wm = longer && r->nlonger < c->max_report;
    if (ws || wl || wm)
        collect_examples(c, lid, owner, ws, wl, wm);
    for (int i = 0; i < c->nvis; i++)
        c->st[c->vis[i]] = ST_NEW;
}

/* ---- credit loops ------------------------------------------------------------ */

static void find_cycle(ctx *c)
{
    ry_rc_result *r = c->r;
    const ry_netfile *nf = c->nf;
    int n = c->nchan;
    for (int ch = 0; ch < n; ch++) {
        int t = c->peer_sw[c->chan_port[ch]];
        int np = nf->nodes[c->sw_node[t]].nports;
        for (int q = 0; q <= np; q++)
            if (c->bits[c->bitoff[ch] + (size_t)q / 64] >> (q % 64) & 1)
                r->dependencies++;
    }
    uint8_t *color = ry_xcalloc((size_t)n + 1, 1);
    int *stk = ry_xmalloc(((size_t)n + 1) * sizeof *stk);
    int *next = ry_xmalloc(((size_t)n + 1) * sizeof *next);
    int *pos = ry_xmalloc(((size_t)n + 1) * sizeof *pos);
    for (int root = 0; root < n && !r->cycle; root++) {
        if (color[root])
            continue;
        int top = 0;
        stk[top] = root;
        next[top++] = 0;
        color[root] = 1;
        pos[root] = 0;
        while (top > 0 && !r->cycle) {
            int ch = stk[top - 1];
            int t = c->peer_sw[c->chan_port[ch]];
            const ry_nf_node *tn = &nf->nodes[c->sw_node[t]];
            int q = next[top - 1], d = -1;
            for (; q <= tn->nports; q++)
                if (c->bits[c->bitoff[ch] + (size_t)q / 64] >> (q % 64) & 1) {
                    d = c->chan[port_index(c, t, q)];
                    break;
                }
            if (d < 0) {
                color[ch] = 2;
                top--;
                continue;
            }
            next[top - 1] = q + 1;
            if (color[d] == 1) {
                r->cycle_len = top - pos[d];
                r->cycle = ry_xmalloc((size_t)r->cycle_len * sizeof *r->cycle);
                for (int i = 0; i < r->cycle_len; i++)
                    r->cycle[i] = c->chan_port[stk[pos[d] + i]];
            } else if (color[d] == 0) {
                color[d] = 1;
                pos[d] = top;
                stk[top] = d;
                next[top++] = 0;
            }
        }
    }
    free(color);
    free(stk);
    free(next);
    free(pos);
}

/* ---- balance ----------------------------------------------------------------- */

static int node_tier(const ctx *c, int node)
{
    int s = c->node_sw[node];
    if (s < 0)
        return 0;
    return c->tier[s] ? c->tier[s] : -1;
}

static int group_cmp(const void *a, const void *b)
{
    const ry_rc_group *x = a, *y = b;
    int xl = x->from < x->to ? x->from : x->to, yl = y->from < y->to ? y->from : y->to;
    int xh = x->from < x->to ? x->to : x->from, yh = y->from < y->to ? y->to : y->from;
    if (xl != yl)
        return xl < yl ? -1 : 1;
    if (xh != yh)
        return xh < yh ? -1 : 1;
    return (int)x->dir - (int)y->dir;
}

static void add_to_group(ry_rc_result *r, int from, int to, unsigned long long f)
{
    ry_rc_group *g = NULL;
    for (int i = 0; i < r->ngroups; i++)
        if (r->groups[i].from == from && r->groups[i].to == to)
            g = &r->groups[i];
    if (!g) {
        r->groups = ry_xrealloc(r->groups, (size_t)(r->ngroups + 1) * sizeof *r->groups);
        g = &r->groups[r->ngroups++];
        g->from = from;
        g->to = to;
        g->dir = from < to ? RY_RC_UP : from > to ? RY_RC_DOWN : RY_RC_LEVEL;
        g->links = 0;
        g->min = f;
        g->max = f;
        g->sum = 0;
    }
    g->links++;
    g->sum += f;
    if (f < g->min)
        g->min = f;
    if (f > g->max)
        g->max = f;
}

static void balance(ctx *c)
{
    const ry_netfile *nf = c->nf;
    ry_rc_result *r = c->r;
    for (int e = 0; e < c->E; e++)
        if (c->ep_sw[e] >= 0)
            c->linkflow[c->ep_port[e]] = (unsigned long long)(c->okcnt[c->ep_sw[e]] - c->selfok[e]);
    for (int i = 0; i < nf->nports; i++) {
        const ry_nf_port *p = &nf->ports[i];
        if (p->peer < 0)
            continue;
        if (!ry_netfile_is_switch(nf, p->node) && c->port_ep[i] < 0)
            continue;
        add_to_group(r, node_tier(c, p->node), node_tier(c, nf->ports[p->peer].node),
                     c->linkflow[i]);
    }
    if (r->ngroups > 1)
        qsort(r->groups, (size_t)r->ngroups, sizeof *r->groups, group_cmp);
}

/* The worst link load of shift permutations: end port i sends to end port
 * (i + s) mod E, end ports in LID order. */
static void shifts(ctx *c, int want)
{
    ry_rc_result *r = c->r;
    const ry_netfile *nf = c->nf;
    int E = c->E;
    if (E < 2 || want == 0)
        return;
    int k = want;
    if (want == RY_RC_SHIFTS_AUTO)
        k = E <= RY_RC_SHIFTS_ALL_MAX ? E - 1 : RY_RC_SHIFTS_DEFAULT;
    if (want == RY_RC_SHIFTS_ALL || k > E - 1)
        k = E - 1;
    r->shift_count = k;
    r->shift_all = k == E - 1;
    unsigned *load = ry_xcalloc((size_t)nf->nports + 1, sizeof *load);
    int *touched = ry_xmalloc(((size_t)nf->nports + 1) * sizeof *touched);
    double sum = 0;
    for (int j = 0; j < k; j++) {
        int sh = r->shift_all ? j + 1 : 1 + (int)((long long)j * (E - 1) / k);
        int nt = 0;
        unsigned worst = 0;
        for (int i = 0; i < E; i++) {
            int d = (i + sh) % E, s = c->ep_sw[i];
            if (s < 0 && c->peer_ep[c->ep_port[i]] == d && !worst)
                worst = 1;   /* two end ports linked to each other */
            if (s < 0 || !(c->okbits[(size_t)d * c->okwords + (size_t)s / 64] >> (s % 64) & 1))
                continue;
            int lid = nf->ports[c->ep_port[d]].lid;
            if (!worst)
                worst = 1;   /* the source's own link */
            for (;;) {
                int gp = port_index(c, s, row_of(c, s)[lid]);
                if (!load[gp]++)
                    touched[nt++] = gp;
                if (load[gp] > worst)
                    worst = load[gp];
                if (c->peer_ep[gp] >= 0)
                    break;
                s = c->peer_sw[gp];
            }
        }
        for (int i = 0; i < nt; i++)
            load[touched[i]] = 0;
        sum += worst;
        if (worst > r->shift_max) {
            r->shift_max = worst;
            r->shift_worst = sh;
        }
    }
    r->shift_mean = sum / k;
    free(load);
    free(touched);
}

int ry_route_check(const ry_netfile *nf, const ry_lft *lft, const ry_rc_opts *o,
                   ry_rc_result *r, ry_err *err)
{
    memset(r, 0, sizeof *r);
    ctx c;
    memset(&c, 0, sizeof c);
    c.nf = nf;
    c.lft = lft;
    c.r = r;
    c.max_report = o->max_report;
    c.updown = r->updown = o->updown;
    setup(&c);
    /* with no end port there is no route to check: "ok" would claim
     * tables that deliver nothing */
    int empty = c.E == 0;
    if (empty) {
        ry_err_set(err, "", "no end ports in the topology");
    } else {
        rank_switches(&c);
        setup_channels(&c);
        for (int e = 0; e < c.E; e++) {
            const ry_nf_port *p = &nf->ports[c.ep_port[e]];
            for (int k = 0; k < 1 << p->lmc; k++)
                one_destination(&c, p->lid + k, e, k == 0);
        }
        find_cycle(&c);
        balance(&c);
        shifts(&c, o->shifts);
        /* trim the length histogram */
        while (r->max_hops > 0 && !r->hops[r->max_hops])
            r->max_hops--;
    }

    for (int s = 0; c.sd && s < c.S; s++)
        free(c.sd[s]);
    void *tofree[] = { c.sw_node, c.node_sw, c.ep_port, c.ep_sw, c.port_ep, c.peer_sw,
                       c.peer_ep, c.srcs_at, c.src_sw, c.direct, c.tier, c.sd, c.st, c.why,
                       c.dist, c.at, c.atport, c.outp, c.nxt, c.stk, c.vis, c.ord, c.cnt,
                       c.flow, c.mark, c.linkflow, c.okcnt, c.selfok, c.chan, c.chan_port,
                       c.bitoff, c.bits, c.okbits };
    for (size_t i = 0; i < sizeof tofree / sizeof *tofree; i++)
        free(tofree[i]);
    if (empty) {
        ry_route_check_free(r);
        return -1;
    }
    return 0;
}

static void free_examples(ry_rc_example *x, int n)
{
    for (int i = 0; i < n; i++)
        free(x[i].path);
    free(x);
}

void ry_route_check_free(ry_rc_result *r)
{
    free(r->per_tier);
    free(r->ep_port);
    free(r->hops);
    free(r->cycle);
    free(r->groups);
    free_examples(r->stops, r->nstops);
    free_examples(r->loops, r->nloops);
    free_examples(r->longer, r->nlonger);
    memset(r, 0, sizeof *r);
}

int ry_route_check_ok(const ry_rc_result *r)
{
    return !r->stopped && !r->looped && !r->nonminimal && !r->cycle_len;
}
