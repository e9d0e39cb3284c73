/* check-routes' report: text, JSON and CSV of a ry_rc_result. */
#include "emit/report/emit_route_check.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/numfmt.h"
#include "util/escape.h"

static const char *const reason_key[RY_RC_NREASONS] = {
    "non_minimal", "no_entry", "port0", "unconnected", "wrong_end_port", "no_switch", "loop"
};
static const char *const reason_text[RY_RC_NREASONS] = {
    "arrive", "no LFT entry", "port 0 at a switch that is not the destination",
    "port with no link", "port leading to another end port", "end port not linked to a switch",
    "loop"
};

/* A node's name as the file gives it (a NodeDescription is input), with
 * control bytes shown as \xNN (util/escape.h, TERM). */
#define NAME_MAX_SHOWN 512
static const char *shown(const ry_netfile *nf, int node, char buf[NAME_MAX_SHOWN])
{
    return ry_escape_to(buf, NAME_MAX_SHOWN, ry_netfile_name(nf, node), RY_ESC_TERM);
}

/* An end port: its node's name, with the port number when the node has several. */
static void ep_name(ry_buf *b, const ry_netfile *nf, int port)
{
    const ry_nf_port *p = &nf->ports[port];
    ry_escape_str(b, ry_netfile_name(nf, p->node), RY_ESC_TERM);
    if (nf->nodes[p->node].nports > 1)
        ry_buf_printf(b, " port %d", p->num);
}

static const char *tier_label(int t, char *buf, size_t n)
{
    if (t == 0)
        return "end port";
    if (t < 0)
        return "unranked";
    snprintf(buf, n, "tier %d", t);
    return buf;
}

/* "leaf0:5 > spine0:1 > leaf1:2 > node004" */
static void path_text(ry_buf *b, const ry_netfile *nf, const ry_rc_example *x)
{
    char nm[NAME_MAX_SHOWN];
    for (int i = 0; i < x->npath; i++) {
        const ry_nf_port *p = &nf->ports[x->path[i]];
        ry_buf_printf(b, "%s%s:%d", i ? " > " : "", shown(nf, p->node, nm), p->num);
    }
    /* the port it stops at has no link, so the topology has no record of it */
    if (x->reason == RY_RC_UNCONNECTED && x->at >= 0)
        ry_buf_printf(b, "%s%s:%d", x->npath ? " > " : "", shown(nf, x->at, nm), x->port);
    int last = x->npath ? x->path[x->npath - 1] : -1;
    int peer = last >= 0 && nf->ports[last].num > 0 ? nf->ports[last].peer : -1;
    if (x->reason == RY_RC_NO_ENTRY && x->at >= 0)
        ry_buf_printf(b, "%s%s", x->npath ? " > " : "", shown(nf, x->at, nm));
    else if (peer >= 0)
        ry_buf_printf(b, " > %s", shown(nf, nf->ports[peer].node, nm));
}

/* What went wrong, in words. */
static void why_text(ry_buf *b, const ry_netfile *nf, const ry_rc_example *x)
{
    char nm[NAME_MAX_SHOWN];
    const char *at = x->at >= 0 ? shown(nf, x->at, nm) : "?";
    switch (x->reason) {
    case RY_RC_OK:
        ry_buf_printf(b, "%d links where the shortest path has %d", x->hops, x->shortest);
        break;
    case RY_RC_NO_ENTRY:
        ry_buf_printf(b, "%s has no entry for LID %d", at, x->dst_lid);
        break;
    case RY_RC_PORT0:
        ry_buf_printf(b, "%s sends LID %d to port 0, itself", at, x->dst_lid);
        break;
    case RY_RC_UNCONNECTED:
        ry_buf_printf(b, "%s sends LID %d to port %d, which has no link", at, x->dst_lid,
                      x->port);
        break;
    case RY_RC_WRONG_END: {
        int gp = ry_netfile_port(nf, x->at, x->port), q = gp >= 0 ? nf->ports[gp].peer : -1;
        ry_buf_printf(b, "%s sends LID %d to port %d, which leads to ", at, x->dst_lid, x->port);
        ep_name(b, nf, q);
        break;
    }
    case RY_RC_NO_SWITCH:
        ry_buf_printf(b, "its link leads to %s, not to a switch", at);
        break;
    case RY_RC_LOOP:
        ry_buf_printf(b, "comes back to %s", at);
        break;
    default:
        break;
    }
}

static void examples_text(ry_buf *o, const ry_netfile *nf, const ry_rc_result *r,
                          const ry_rc_example *x, int n, long long total)
{
    for (int i = 0; i < n; i++) {
        const ry_nf_port *s = &nf->ports[r->ep_port[x[i].src]];
        ry_buf_puts(o, "    ");
        ep_name(o, nf, r->ep_port[x[i].src]);
        ry_buf_printf(o, " (lid %d) -> ", s->lid);
        ep_name(o, nf, r->ep_port[x[i].dst]);
        ry_buf_printf(o, " (lid %d): ", x[i].dst_lid);
        why_text(o, nf, &x[i]);
        if (x[i].npath || (x[i].reason == RY_RC_UNCONNECTED && x[i].at >= 0)) {
            ry_buf_puts(o, "; path ");
            path_text(o, nf, &x[i]);
        }
        ry_buf_putc(o, '\n');
    }
    if (total > n)
        ry_buf_printf(o, "    and %lld more\n", total - n);
}

static void check_line(ry_buf *o, const char *name, int ok)
{
    ry_buf_printf(o, "%-13s %-4s  ", name, ok ? "ok" : "FAIL");
}

static void report_text(ry_buf *o, const ry_netfile *nf, const ry_lft *lft,
                        const ry_rc_result *r)
{
    char b1[32], b2[32];
    ry_buf_printf(o, "topology      %s: %s switch%s", nf->path, ry_n(r->switches),
                  r->switches == 1 ? "" : "es");
    if (r->tiers > 0) {
        ry_buf_puts(o, " (");
        for (int t = 1; t <= r->tiers; t++)
            ry_buf_printf(o, "%s%s at tier %d", t > 1 ? ", " : "", ry_n(r->per_tier[t]), t);
        if (r->per_tier[0])
            ry_buf_printf(o, ", %s reaching no end port", ry_n(r->per_tier[0]));
        ry_buf_putc(o, ')');
    }
    ry_buf_printf(o, ", %s end port%s", ry_n(r->end_ports), r->end_ports == 1 ? "" : "s");
    if (r->dest_lids != r->end_ports)
        ry_buf_printf(o, " with %s LIDs", ry_n(r->dest_lids));
    ry_buf_printf(o, "\nlfts          %s: %s switch block%s, %s entries", lft->path,
                  ry_n(lft->blocks), lft->blocks == 1 ? "" : "s", ry_n(lft->entries));
    if (lft->remapped)
        ry_buf_printf(o, ", %s moved to their portguid's LID", ry_n(lft->remapped));
    if (lft->missing)
        ry_buf_printf(o, ", %s switch%s without a block", ry_n(lft->missing),
                      lft->missing == 1 ? "" : "es");
    ry_buf_printf(o, "\nroutes        %s: every end port to every end-port LID but its own\n\n",
                  ry_n(r->pairs));

    check_line(o, "reachable", !r->stopped);
    if (!r->stopped && r->updown) {
        ry_buf_printf(o, "%s routes arrive; %s pairs have no up*-down* path and no route\n",
                      ry_n(r->delivered), ry_n(r->unroutable));
    } else if (!r->stopped) {
        ry_buf_printf(o, "all %s routes arrive\n", ry_n(r->delivered));
    } else {
        ry_buf_printf(o, "%s of %s routes arrive; %s stop:", ry_n(r->delivered), ry_n(r->pairs),
                      ry_n(r->stopped));
        for (int k = 1, n = 0; k < RY_RC_NREASONS; k++)
            if (k != RY_RC_LOOP && r->reason[k])
                ry_buf_printf(o, "%s %s: %s", n++ ? "," : "", reason_text[k], ry_n(r->reason[k]));
        if (r->updown)
            ry_buf_printf(o, "; %s pairs have no up*-down* path", ry_n(r->unroutable));
        ry_buf_putc(o, '\n');
        examples_text(o, nf, r, r->stops, r->nstops, r->stopped);
    }
    check_line(o, "loops", !r->looped);
    if (!r->looped) {
        ry_buf_puts(o, "no route comes back to a switch\n");
    } else {
        ry_buf_printf(o, "%s route%s come%s back to a switch\n", ry_n(r->looped),
                      r->looped == 1 ? "" : "s", r->looped == 1 ? "s" : "");
        examples_text(o, nf, r, r->loops, r->nloops, r->looped);
    }
    check_line(o, "minimal", !r->nonminimal);
    if (!r->nonminimal) {
        ry_buf_printf(o, "every arriving route is a shortest %spath\n",
                      r->updown ? "up*-down* " : "");
    } else {
        ry_buf_printf(o, "%s of %s arriving routes are longer than a shortest %spath\n",
                      ry_n(r->nonminimal), ry_n(r->delivered), r->updown ? "up*-down* " : "");
        examples_text(o, nf, r, r->longer, r->nlonger, r->nonminimal);
    }
    check_line(o, "credit loops", !r->cycle_len);
    ry_buf_printf(o, "%s channels, %s dependencies, ", ry_n(r->channels), ry_n(r->dependencies));
    if (!r->cycle_len) {
        ry_buf_puts(o, "no cycle\n");
    } else {
        ry_buf_printf(o, "a cycle of %d:\n    ", r->cycle_len);
        char nm[NAME_MAX_SHOWN];
        for (int i = 0; i < r->cycle_len; i++) {
            const ry_nf_port *p = &nf->ports[r->cycle[i]];
            ry_buf_printf(o, "%s:%d > ", shown(nf, p->node, nm), p->num);
        }
        ry_buf_printf(o, "%s\n", shown(nf, nf->ports[r->cycle[0]].node, nm));
    }

    ry_buf_puts(o, "\nroute lengths");
    for (int h = 1, n = 0; h <= r->max_hops; h++)
        if (r->hops[h])
            ry_buf_printf(o, "%s %d link%s: %s", n++ ? "," : "", h, h == 1 ? "" : "s",
                          ry_n(r->hops[h]));
    if (!r->delivered)
        ry_buf_puts(o, " none");
    ry_buf_puts(o, "\n\nroutes per directed link\n");
    ry_buf_printf(o, "  %-10s %-10s %8s %10s %10s %12s\n", "from", "to", "links", "min", "max",
                  "mean");
    for (int i = 0; i < r->ngroups; i++) {
        const ry_rc_group *g = &r->groups[i];
        char mean[RY_NUM_CAP];
        ry_buf_printf(o, "  %-10s %-10s %8s %10s %10s %12s\n",
                      tier_label(g->from, b1, sizeof b1), tier_label(g->to, b2, sizeof b2),
                      ry_n(g->links), ry_n((long long)g->min), ry_n((long long)g->max),
                      ry_num_fixed(mean, sizeof mean, (double)g->sum / (double)g->links, 2));
    }
    ry_buf_puts(o, "\nshift permutations ");
    if (!r->shift_count) {
        ry_buf_puts(o, "none\n");
    } else {
        ry_buf_printf(o, "(end port i to i+s by LID, %s%s shift%s): the busiest link carries "
                      "%s route%s at worst (s = %d), %.2f on average\n",
                      r->shift_all ? "all " : "", ry_n(r->shift_count), r->shift_count == 1 ? "" : "s",
                      ry_n((long long)r->shift_max), r->shift_max == 1 ? "" : "s", r->shift_worst,
                      r->shift_mean);
    }
    if (ry_route_check_ok(r)) {
        ry_buf_puts(o, "\ncheck-routes: ok\n");
    } else {
        const char *names[4] = { "reachable", "loops", "minimal", "credit loops" };
        int bad[4] = { r->stopped > 0, r->looped > 0, r->nonminimal > 0, r->cycle_len > 0 };
        ry_buf_puts(o, "\ncheck-routes: FAIL (");
        for (int i = 0, n = 0; i < 4; i++)
            if (bad[i])
                ry_buf_printf(o, "%s%s", n++ ? ", " : "", names[i]);
        ry_buf_puts(o, ")\n");
    }
}

/* ---- JSON ------------------------------------------------------------------------- */

static json_t *jstr_buf(void (*fn)(ry_buf *, const ry_netfile *, int), const ry_netfile *nf,
                        int arg)
{
    ry_buf b;
    ry_buf_init(&b);
    fn(&b, nf, arg);
    json_t *j = json_string(b.data ? b.data : "");
    ry_buf_free(&b);
    return j;
}

static json_t *jguid(uint64_t g)
{
    char s[24];
    snprintf(s, sizeof s, "0x%016llx", (unsigned long long)g);
    return json_string(s);
}

static json_t *jnode_port(const ry_netfile *nf, int node, int num)
{
    json_t *j = json_object();
    char nm[NAME_MAX_SHOWN];
    json_object_set_new(j, "node", json_string(shown(nf, node, nm)));
    json_object_set_new(j, "guid", jguid(nf->nodes[node].guid));
    json_object_set_new(j, "port", json_integer(num));
    return j;
}

static json_t *jport(const ry_netfile *nf, int port)
{
    return jnode_port(nf, nf->ports[port].node, nf->ports[port].num);
}

static json_t *examples_json(const ry_netfile *nf, const ry_rc_result *r,
                             const ry_rc_example *x, int n)
{
    json_t *a = json_array();
    char nm[NAME_MAX_SHOWN];
    for (int i = 0; i < n; i++) {
        json_t *j = json_object();
        json_object_set_new(j, "src", jstr_buf(ep_name, nf, r->ep_port[x[i].src]));
        json_object_set_new(j, "src_lid", json_integer(nf->ports[r->ep_port[x[i].src]].lid));
        json_object_set_new(j, "dst", jstr_buf(ep_name, nf, r->ep_port[x[i].dst]));
        json_object_set_new(j, "dst_lid", json_integer(x[i].dst_lid));
        json_object_set_new(j, "reason", json_string(reason_key[x[i].reason]));
        if (x[i].reason == RY_RC_OK) {
            json_object_set_new(j, "links", json_integer(x[i].hops));
            json_object_set_new(j, "shortest", json_integer(x[i].shortest));
        } else {
            json_object_set_new(j, "at", x[i].at >= 0 ? json_string(shown(nf, x[i].at, nm))
                                                      : json_null());
            json_object_set_new(j, "at_guid", x[i].at >= 0 ? jguid(nf->nodes[x[i].at].guid)
                                                           : json_null());
            json_object_set_new(j, "port", x[i].port >= 0 ? json_integer(x[i].port) : json_null());
        }
        ry_buf b;
        ry_buf_init(&b);
        why_text(&b, nf, &x[i]);
        json_object_set_new(j, "message", json_string(b.data ? b.data : ""));
        ry_buf_free(&b);
        json_t *path = json_array();
        for (int k = 0; k < x[i].npath; k++)
            json_array_append_new(path, jport(nf, x[i].path[k]));
        if (x[i].reason == RY_RC_UNCONNECTED && x[i].at >= 0)
            json_array_append_new(path, jnode_port(nf, x[i].at, x[i].port));
        json_object_set_new(j, "path", path);
        json_array_append_new(a, j);
    }
    return a;
}

static json_t *jmean(unsigned long long sum, long long n)
{
    return json_real(n ? round((double)sum / (double)n * 100.0) / 100.0 : 0.0);
}

static void report_json(ry_buf *out, const ry_netfile *nf, const ry_lft *lft,
                        const ry_rc_result *r)
{
    json_t *root = json_object(), *j, *a;

    j = json_object();
    json_object_set_new(j, "file", json_string(nf->path));
    json_object_set_new(j, "switches", json_integer(r->switches));
    a = json_array();
    for (int t = 1; t <= r->tiers; t++)
        json_array_append_new(a, json_integer(r->per_tier[t]));
    json_object_set_new(j, "switches_per_tier", a);
    json_object_set_new(j, "unranked_switches", json_integer(r->tiers >= 0 ? r->per_tier[0] : 0));
    json_object_set_new(j, "end_ports", json_integer(r->end_ports));
    json_object_set_new(j, "end_port_lids", json_integer(r->dest_lids));
    json_object_set_new(root, "topology", j);

    j = json_object();
    json_object_set_new(j, "file", json_string(lft->path));
    json_object_set_new(j, "blocks", json_integer(lft->blocks));
    json_object_set_new(j, "entries", json_integer(lft->entries));
    json_object_set_new(j, "remapped", json_integer(lft->remapped));
    json_object_set_new(j, "ignored", json_integer(lft->ignored));
    json_object_set_new(j, "switches_without_block", json_integer(lft->missing));
    json_object_set_new(root, "lfts", j);

    json_object_set_new(root, "routes", json_integer(r->pairs));
    json_object_set_new(root, "ok", json_boolean(ry_route_check_ok(r)));

    j = json_object();
    json_object_set_new(j, "ok", json_boolean(!r->stopped));
    json_object_set_new(j, "delivered", json_integer(r->delivered));
    json_object_set_new(j, "stopped", json_integer(r->stopped));
    if (r->updown)
        json_object_set_new(j, "no_updown_path", json_integer(r->unroutable));
    a = json_object();
    for (int k = 1; k < RY_RC_NREASONS; k++)
        if (k != RY_RC_LOOP)
            json_object_set_new(a, reason_key[k], json_integer(r->reason[k]));
    json_object_set_new(j, "reasons", a);
    json_object_set_new(j, "failures", examples_json(nf, r, r->stops, r->nstops));
    json_object_set_new(root, "reachable", j);

    j = json_object();
    json_object_set_new(j, "ok", json_boolean(!r->looped));
    json_object_set_new(j, "routes", json_integer(r->looped));
    json_object_set_new(j, "failures", examples_json(nf, r, r->loops, r->nloops));
    json_object_set_new(root, "loops", j);

    j = json_object();
    json_object_set_new(j, "ok", json_boolean(!r->nonminimal));
    json_object_set_new(j, "non_minimal", json_integer(r->nonminimal));
    a = json_array();
    for (int h = 1; h <= r->max_hops; h++)
        if (r->hops[h]) {
            json_t *x = json_object();
            json_object_set_new(x, "links", json_integer(h));
            json_object_set_new(x, "routes", json_integer(r->hops[h]));
            json_array_append_new(a, x);
        }
    json_object_set_new(j, "lengths", a);
    json_object_set_new(j, "failures", examples_json(nf, r, r->longer, r->nlonger));
    json_object_set_new(root, "minimal", j);

    j = json_object();
    json_object_set_new(j, "ok", json_boolean(!r->cycle_len));
    json_object_set_new(j, "channels", json_integer(r->channels));
    json_object_set_new(j, "dependencies", json_integer(r->dependencies));
    a = json_array();
    for (int i = 0; i < r->cycle_len; i++)
        json_array_append_new(a, jport(nf, r->cycle[i]));
    json_object_set_new(j, "cycle", a);
    json_object_set_new(root, "credit_loops", j);

    a = json_array();
    for (int i = 0; i < r->ngroups; i++) {
        const ry_rc_group *g = &r->groups[i];
        json_t *x = json_object();
        json_object_set_new(x, "from_tier", json_integer(g->from));
        json_object_set_new(x, "to_tier", json_integer(g->to));
        json_object_set_new(x, "direction", json_string(g->dir == RY_RC_UP ? "up"
                                                        : g->dir == RY_RC_DOWN ? "down" : "level"));
        json_object_set_new(x, "links", json_integer(g->links));
        json_object_set_new(x, "min", json_integer((json_int_t)g->min));
        json_object_set_new(x, "max", json_integer((json_int_t)g->max));
        json_object_set_new(x, "mean", jmean(g->sum, g->links));
        json_array_append_new(a, x);
    }
    json_object_set_new(root, "balance", a);

    j = json_object();
    json_object_set_new(j, "count", json_integer(r->shift_count));
    json_object_set_new(j, "all", json_boolean(r->shift_all));
    json_object_set_new(j, "max", json_integer((json_int_t)r->shift_max));
    json_object_set_new(j, "mean", json_real(round(r->shift_mean * 100.0) / 100.0));
    json_object_set_new(j, "worst_shift", json_integer(r->shift_worst));
    json_object_set_new(root, "shifts", j);

    ry_json_out(out, root, 12);
}

/* ---- CSV -------------------------------------------------------------------------- */

static void report_csv(ry_buf *o, const ry_rc_result *r)
{
    ry_buf_puts(o, "check,ok,failed,total,unit\n");
    ry_buf_printf(o, "reachable,%d,%lld,%lld,routes\n", !r->stopped, r->stopped, r->pairs);
    if (r->updown)
        ry_buf_printf(o, "no_updown_path,1,%lld,%lld,routes\n", r->unroutable, r->pairs);
    ry_buf_printf(o, "loops,%d,%lld,%lld,routes\n", !r->looped, r->looped, r->pairs);
    ry_buf_printf(o, "minimal,%d,%lld,%lld,routes\n", !r->nonminimal, r->nonminimal,
                  r->delivered);
    ry_buf_printf(o, "credit_loops,%d,%d,%d,channels\n", !r->cycle_len, r->cycle_len,
                  r->channels);
}

void ry_emit_route_check(ry_buf *out, const ry_netfile *nf, const ry_lft *lft,
                         const ry_rc_result *r, ry_format fmt)
{
    if (fmt == RY_FMT_JSON)
        report_json(out, nf, lft, r);
    else if (fmt == RY_FMT_CSV)
        report_csv(out, r);
    else
        report_text(out, nf, lft, r);
}
