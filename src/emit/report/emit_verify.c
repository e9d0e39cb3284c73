#include "emit/report/emit_verify.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cabling.h"
#include "analysis/hw_guids.h"
#include "emit/csv.h"
#include "fabric/ethplan.h"
#include "util/numfmt.h"
#include "fabric/names.h"
#include "spec/spec.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/hostlist.h"

static const char *const kind_name[RY_VF_NKINDS] = {
    "missing", "unexpected", "miswired", "degraded", "unknown-device"
};
static const char *const class_name[RY_VC_N] = {
    NULL, "port-swap", "rail-swap", "plane-swap", "unit-swap", "uplink", "other"
};

/* One end of a cable, named in the plan's terms and the fabric's. */
typedef struct end {
    char dev[160];
    int port;
    int nic;            /* a NIC: named by its description alone */
    int rack, unit;     /* -1 when the device is not in the plan */
    uint64_t guid;      /* found ends: the port GUID of a CA, the node GUID of a switch */
    char cage[32];      /* a switch port of the plan: cage/port as on the faceplate, or "" */
    char host[128];     /* a NIC of the plan: its host and NIC as cabling.csv names them */
    char nicname[32];   /* ("node001", "mlx5_0"), else "" */
    char ifname[32];    /* an Ethernet fabric's planned interface: "Ethernet8", "eth0", else "" */
} end;

/* The interface name of planned port id `port` (a switch port or a NIC's). */
static void ifname_of(const ry_verify *v, uint32_t port, end *e)
{
    if (!v->eth)
        return;
    if (ry_node_is_switch(ry_port_node(v->f, port)))
        ry_eth_port_name(v->eth, port, e->ifname, sizeof e->ifname);
    else
        ry_eth_nic_name(v->f, port, e->ifname, sizeof e->ifname);
}

/* The host and NIC names of planned NIC port gp (gpu * planes + plane): the
 * two words of its NodeDescription (ry_ca_desc), split where the host's
 * name ends. */
static void nic_names(const ry_fabric *f, uint32_t gp, end *e)
{
    char desc[160];
    int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
    long long gpu = gp / (uint32_t)f->planes;
    int len = ry_host_name(f, gpu / gpn, e->host, sizeof e->host);
    ry_ca_desc(f, gp, desc, sizeof desc);
    if (len > 0 && (size_t)len < sizeof e->host && strncmp(desc, e->host, (size_t)len) == 0 &&
        desc[len] == ' ')
        snprintf(e->nicname, sizeof e->nicname, "%s", desc + len + 1);
    else
        e->host[0] = e->nicname[0] = '\0';
}

/* The faceplate name of port (1-based) of planned switch node, or "". */
static void cage_of(const ry_fabric *f, uint32_t node, int port, char *buf, size_t n)
{
    buf[0] = '\0';
    const ry_node *nd = &f->nodes[node];
    if (ry_node_is_switch(nd) && port >= 1 && (uint32_t)port <= nd->nports)
        ry_port_label(f, nd->port0 + (uint32_t)port - 1, buf, n);
}

static void plan_end(const ry_verify *v, const ry_layout *lay, uint32_t port, end *e)
{
    const ry_fabric *f = v->f;
    int units;
    memset(e, 0, sizeof *e);
    ry_verify_plan_end(f, port, e->dev, sizeof e->dev, &e->port);
    e->nic = !ry_node_is_switch(ry_port_node(f, port));
    if (!e->nic)
        cage_of(f, f->ports[port].owner, e->port, e->cage, sizeof e->cage);
    else
        nic_names(f, port, e);
    ifname_of(v, port, e);
    ry_layout_where(lay, f->ports[port].owner, &e->rack, &e->unit, &units);
}

static void found_end(const ry_verify *v, const ry_layout *lay, ry_vf_port p, end *e)
{
    const ry_netfile *nf = &v->nf[p.file];
    const ry_nf_port *pt = &nf->ports[p.port];
    int sw = ry_netfile_is_switch(nf, pt->node), units;
    memset(e, 0, sizeof *e);
    ry_verify_found_end(v, p, e->dev, sizeof e->dev, &e->port);
    e->nic = !sw;
    e->guid = sw ? nf->nodes[pt->node].guid : pt->guid;
    e->rack = e->unit = -1;
    int32_t m = v->nmap[p.file][pt->node];
    if (m >= 0) {
        uint32_t node = sw ? (uint32_t)m : v->f->ports[m].owner;
        ry_layout_where(lay, node, &e->rack, &e->unit, &units);
        if (sw)
            cage_of(v->f, node, e->port, e->cage, sizeof e->cage);
        else
            nic_names(v->f, (uint32_t)m, e);
        if (sw && e->port >= 1 && (uint32_t)e->port <= v->f->nodes[node].nports)
            ifname_of(v, v->f->nodes[node].port0 + (uint32_t)e->port - 1, e);
        else if (!sw && pt->num == 1)
            ifname_of(v, (uint32_t)m, e);
    }
}

/* "leaf3 port 17", or a NIC's "node001 mlx5_0"; on an Ethernet fabric
 * by interface names, "leaf3 Ethernet64", "node001 eth0". */
static void end_text(char *buf, size_t n, const end *e)
{
    if (e->ifname[0] && e->nic && e->host[0])
        snprintf(buf, n, "%s %s", e->host, e->ifname);
    else if (e->ifname[0] && !e->nic)
        snprintf(buf, n, "%s %s", e->dev, e->ifname);
    else if (e->nic && e->port == 1)
        snprintf(buf, n, "%s", e->dev);
    else
        snprintf(buf, n, "%s port %d", e->dev, e->port);
}

static void label_of(const ry_verify *v, const ry_vf_finding *x, char *buf, size_t n)
{
    if (x->link >= 0)
        ry_cable_label(v->f, (uint32_t)x->link, buf, n);
    else
        buf[0] = '\0';
}

/* The planned and found ends of a finding. */
typedef struct ends {
    end pa, pb, fa, fb;
    int has_plan, has_fa, has_fb;
} ends;

static void ends_of(const ry_verify *v, const ry_layout *lay, const ry_vf_finding *x, ends *e)
{
    memset(e, 0, sizeof *e);
    if (x->link >= 0) {
        plan_end(v, lay, v->f->links[x->link].lo, &e->pa);
        plan_end(v, lay, v->f->links[x->link].hi, &e->pb);
        e->has_plan = 1;
    }
    if (x->fa.file >= 0) {
        found_end(v, lay, x->fa, &e->fa);
        e->has_fa = 1;
    }
    if (x->fb.file >= 0) {
        found_end(v, lay, x->fb, &e->fb);
        e->has_fb = 1;
    }
}

static void fix_text(const ry_verify *v, const ry_vf_finding *x, const ends *e, ry_buf *b)
{
    char label[96], t1[200], t2[200];
    label_of(v, x, label, sizeof label);
    switch (x->kind) {
    case RY_VF_MISSING:
        end_text(t1, sizeof t1, &e->pa);
        end_text(t2, sizeof t2, &e->pb);
        ry_buf_printf(b, "connect %s to %s with cable %s", t1, t2, label);
        break;
    case RY_VF_UNEXPECTED:
        end_text(t1, sizeof t1, &e->fa);
        end_text(t2, sizeof t2, &e->fb);
        ry_buf_printf(b, "remove the cable from %s to %s", t1, t2);
        break;
    case RY_VF_MISWIRED:
        end_text(t1, sizeof t1, x->moved_hi ? &e->fb : &e->fa);
        end_text(t2, sizeof t2, x->moved_hi ? &e->pb : &e->pa);
        ry_buf_printf(b, "move cable %s from %s to %s", label, t1, t2);
        break;
    case RY_VF_DEGRADED: {
        end_text(t1, sizeof t1, &e->fa);
        end_text(t2, sizeof t2, &e->fb);
        const ry_nf_port *p = &v->nf[x->fa.file].ports[x->fa.port];
        if (!p->lane)
            p = &v->nf[x->fb.file].ports[x->fb.port];
        ry_buf_printf(b, "reseat or replace cable %s from %s to %s: it runs at %dx%s", label, t1,
                      t2, p->width, ry_nf_lane_name(p->lane));
        break;
    }
    default: {
        const char *dev = e->fa.dev;
        char where[200] = "";
        if (e->has_fb)
            end_text(where, sizeof where, &e->fb);
        if (x->reason == RY_VU_NOT_PLANNED && x->cand >= 0) {
            char nic[160];
            int pn;
            ry_verify_plan_end(v->f, (uint32_t)x->cand, nic, sizeof nic, &pn);
            ry_buf_printf(b, "%s stands where the plan has %s (its cable, on %s, says so): "
                          "give it the plan's name", dev, nic, where);
        } else if (x->reason == RY_VU_NOT_PLANNED)
            ry_buf_printf(b, "%s is no NIC of the plan: unplug it from %s, or add its host "
                          "to the spec", dev, where);
        else if (x->reason == RY_VU_NO_VOTES)
            ry_buf_printf(b, "switch %s has no cable to a recognised device: check its "
                          "cabling", dev);
        else {
            char cand[96] = "?";
            if (x->cand >= 0)
                ry_node_name(v->f, (uint32_t)x->cand, cand, sizeof cand);
            if (x->reason == RY_VU_TAKEN)
                ry_buf_printf(b, "%s of its %s cables say it is %s, where another switch with "
                              "more agreeing cables stands: check which one is %s",
                              ry_n(x->votes), ry_n(x->total), cand, cand);
            else
                ry_buf_printf(b, "its cables disagree on where it stands (%s of %s say %s): "
                              "check its cabling", ry_n(x->votes), ry_n(x->total), cand);
        }
    }
    }
}

static double pct(long long k, long long t)
{
    return t > 0 ? 100.0 * (double)k / (double)t : 0.0;
}

static void impact_text(const ry_verify *v, const ry_vf_finding *x, ry_buf *b)
{
    const ry_fabric *f = v->f;
    ry_vf_impact im;
    ry_verify_impact(v, x, &im);
    char name[160], plane[32] = "";
    if (f->planes > 1)
        snprintf(plane, sizeof plane, " on plane %d", im.plane);
    if (x->kind == RY_VF_UNEXPECTED) {
        ry_buf_puts(b, "no bandwidth lost; the plan's routing tables do not use this cable");
        return;
    }
    if (x->kind == RY_VF_UNKNOWN) {
        ry_buf_puts(b, "not in the plan: nothing is routed to it");
        return;
    }
    if (x->kind == RY_VF_DEGRADED) {
        char got[RY_NUM_CAP], want[RY_NUM_CAP];
        ry_buf_printf(b, "the link carries %s of %s Gb/s planned (%.1f%%)",
                      ry_num_sig(got, sizeof got, im.found_gbps, 6),
                      ry_num_sig(want, sizeof want, im.planned_gbps, 6),
                      im.planned_gbps > 0 ? 100 * im.found_gbps / im.planned_gbps : 0.0);
        return;
    }
    if (!im.loses_link && (v->flags & RY_VERIFY_ROUTED)) {
        ry_buf_puts(b, "no bandwidth lost: BGP peers over the interface as cabled, but the "
                       "cable is not where the plan and its records put it");
        return;
    }
    if (!im.loses_link) {
        ry_buf_puts(b, "no bandwidth lost, but routing tables written for the plan send its "
                       "traffic to the planned port until the cable is moved");
        return;
    }
    if (im.gpu >= 0) {
        /* the NIC as cabling.csv names it, host and NIC: "node001 mlx5_3";
         * on an Ethernet fabric as the host names it, "node001 eth3" */
        end nic;
        memset(&nic, 0, sizeof nic);
        ifname_of(v, f->links[x->link].lo, &nic);
        if (nic.ifname[0])
            nic_names(f, f->links[x->link].lo, &nic);
        if (nic.ifname[0] && nic.host[0]) {
            snprintf(name, sizeof name, "%s %s", nic.host, nic.ifname);
        } else {
            ry_ca_desc(f, f->links[x->link].lo, name, sizeof name);
        }
        ry_buf_printf(b, "%s loses its link to rail %d%s", name, im.rail, plane);
        if ((v->flags & RY_VERIFY_ROUTED) && x->kind == RY_VF_MISWIRED)
            ry_buf_puts(b, " (its /31 is its planned port's: on another port it reaches no "
                           "gateway)");
        if (im.total > 0)
            ry_buf_printf(b, "; rail %d of scalable unit %d%s keeps %s of %s NIC links (%.1f%%)",
                          im.rail, im.unit + 1, plane, ry_n(im.kept), ry_n(im.total),
                          pct(im.kept, im.total));
        return;
    }
    ry_node_name(f, (uint32_t)im.sw, name, sizeof name);
    ry_buf_printf(b, "%s keeps %s of %s uplinks", name, ry_n(im.sw_kept), ry_n(im.sw_total));
    if (im.scope == 2)
        ry_buf_printf(b, "; scalable unit %d%s keeps %s of %s leaf uplinks (%.1f%%)", im.unit + 1,
                      plane, ry_n(im.kept), ry_n(im.total), pct(im.kept, im.total));
    else
        ry_buf_printf(b, "; %s%s keeps %s of %s %s uplinks (%.1f%%)",
                      f->planes > 1 ? "" : "the fabric", f->planes > 1 ? plane + 4 : "",
                      ry_n(im.kept), ry_n(im.total), ry_tier_name(im.tier, f->tiers),
                      pct(im.kept, im.total));
}

/* A finding in words: its ends, cable label, fix and impact. */
typedef struct said {
    ends e;
    char label[96];
    ry_buf fix, impact;
} said;

static void say(const ry_verify *v, const ry_layout *lay, const ry_vf_finding *x, said *s)
{
    ends_of(v, lay, x, &s->e);
    label_of(v, x, s->label, sizeof s->label);
    ry_buf_init(&s->fix);
    ry_buf_init(&s->impact);
    fix_text(v, x, &s->e, &s->fix);
    impact_text(v, x, &s->impact);
    ry_buf_putc(&s->fix, '\0');      /* never NULL data */
    ry_buf_putc(&s->impact, '\0');
}

static void said_free(said *s)
{
    ry_buf_free(&s->fix);
    ry_buf_free(&s->impact);
}

/* ---- text ---------------------------------------------------------------------- */

static void summary_line(ry_buf *out, const ry_verify *v)
{
    ry_buf_printf(out, "%s of %s planned cables as planned; %s finding%s:", ry_n(v->as_planned),
                  ry_n(v->planned), ry_n((long long)v->nfindings), v->nfindings == 1 ? "" : "s");
    for (int k = 0; k < RY_VF_NKINDS; k++)
        ry_buf_printf(out, "%s %s %s", k ? "," : "", ry_n(v->count[k]), kind_name[k]);
    ry_buf_putc(out, '\n');
}

/* The plan's subnets: InfiniBand's by the subnet plan; an Ethernet
 * fabric's (pl NULL) are its connected networks, network0 and up. */
static int subnet_count(const ry_verify *v, const ry_ibplan *pl)
{
    return pl ? pl->nsubnets : v->f->nsubnets;
}

static const char *subnet_name(const ry_ibplan *pl, int k, char *buf, size_t n)
{
    if (pl)
        return pl->subnets[k].name;
    snprintf(buf, n, "network%d", k);
    return buf;
}

static void subnets_line(ry_buf *out, const ry_verify *v, const ry_ibplan *pl)
{
    char nb[32];
    ry_buf_printf(out, "switches: %s of %s discovered placed", ry_n(v->switches_placed),
                  ry_n(v->switches_found));
    if (v->by_cables) {
        char found[4 * sizeof v->by_cables_found], plan[96];
        ry_escape_to(found, sizeof found, v->by_cables_found, RY_ESC_TERM);
        ry_node_name(v->f, (uint32_t)v->by_cables_at, plan, sizeof plan);
        ry_buf_printf(out, " (%s by %s cables under a name the plan does not give: \"%s\" "
                      "stands where it has %s)", ry_n(v->by_cables),
                      v->by_cables == 1 ? "its" : "their", found, plan);
    }
    ry_buf_puts(out, "; subnets verified:");
    int any = 0;
    for (int k = 0; k < subnet_count(v, pl); k++)
        if (v->subnet_seen[k])
            ry_buf_printf(out, "%s %s", any++ ? "," : "", subnet_name(pl, k, nb, sizeof nb));
    if (!any)
        ry_buf_puts(out, " none");
    any = 0;
    for (int k = 0; k < subnet_count(v, pl); k++)
        if (!v->subnet_seen[k])
            ry_buf_printf(out, "%s %s", any++ ? "," : "; not in the files:",
                          subnet_name(pl, k, nb, sizeof nb));
    ry_buf_putc(out, '\n');
}

static void text_end(ry_buf *out, const ry_layout *lay, const end *e, int found)
{
    char t[200];
    end_text(t, sizeof t, e);
    ry_buf_puts(out, t);
    if (found)
        ry_buf_printf(out, " (0x%016llx)", (unsigned long long)e->guid);
    else if (e->rack >= 0) {
        char rack[32];
        ry_rack_name(lay, e->rack, rack, sizeof rack);
        ry_buf_printf(out, " (%s U%d)", rack, e->unit);
    }
}

/* What most likely explains the findings, before them: one screen. */
static void causes_text(ry_buf *out, const ry_verify *v)
{
    const ry_fabric *f = v->f;
    char a[96], b[96];
    long long cls[RY_VC_N] = { 0 };
    for (size_t i = 0; i < v->nfindings; i++)
        if (v->findings[i].kind == RY_VF_MISWIRED)
            cls[v->findings[i].cls]++;
    ry_buf_puts(out, "likeliest causes:\n");
    if (v->renamed_hosts) {
        int gpn = f->spec->node.gpus_per_node > 0 ? f->spec->node.gpus_per_node : 1;
        long long servers = f->gpus / gpn;
        /* a NodeDescription is input: control bytes shown as \xNN */
        char found[4 * sizeof v->renamed_found];
        ry_escape_to(found, sizeof found, v->renamed_found, RY_ESC_TERM);
        int one = v->renamed_hosts == 1;
        ry_buf_printf(out, "  renamed hosts: %s host%s (%s CA%s) carr%s names the plan does not "
                      "give, on the cables of its hosts (\"%s\" stands where the plan has "
                      "\"%s\"): %s findings, their CAs unknown and their cables missing. Give "
                      "%s the plan's name%s (NodeDescription \"HOST NIC\") and discover again",
                      ry_n(v->renamed_hosts), one ? "" : "s", ry_n(v->renamed_cas),
                      v->renamed_cas == 1 ? "" : "s", one ? "ies" : "y", found, v->renamed_plan,
                      ry_n(2 * v->renamed_cas), one ? "it" : "them", one ? "" : "s");
        if (v->renamed_pattern[0])
            ry_buf_printf(out, "; or, to name every host so, set naming.node: \"%s\" and "
                          "rename the other %s", v->renamed_pattern,
                          ry_n(servers - v->renamed_hosts));
        ry_buf_puts(out, "\n");
    }
    if (v->silent_hosts) {
        int one = v->silent_hosts == 1;
        ry_buf_printf(out, "  hosts not seen: %s host%s (%s) with none of %s %s cables found",
                      ry_n(v->silent_hosts), one ? "" : "s", v->silent_first,
                      one ? "its" : "their", ry_n(v->silent_links));
        if (v->eth)
            ry_buf_printf(out, ": %s no LLDP (is lldpd running there?), so the switches do not "
                          "see %s: start it and read the tables again\n",
                          one ? "it sends" : "they send", one ? "it" : "them");
        else
            ry_buf_puts(out, ": powered off, or cabled to another subnet's switches\n");
    }
    if (v->absent_switches) {
        ry_node_name(f, (uint32_t)v->absent_first, a, sizeof a);
        ry_buf_printf(out, "  switches not found: %s%s%s%s: %s %s planned cables are "
                      "missing; power %s on, or check that %s subnet's file holds %s\n",
                      a, v->absent_switches > 1 ? " and " : "",
                      v->absent_switches > 1 ? ry_n(v->absent_switches - 1) : "",
                      v->absent_switches > 2 ? " others" : v->absent_switches > 1 ? " other" : "",
                      v->absent_switches > 1 ? "their" : "its", ry_n(v->absent_links),
                      v->absent_switches > 1 ? "them" : "it", v->absent_switches > 1 ? "each" : "its",
                      v->absent_switches > 1 ? "them" : "it");
    }
    if (v->misnamed_switches) {
        ry_node_name(f, (uint32_t)v->misnamed_at, a, sizeof a);
        ry_node_name(f, (uint32_t)v->misnamed_as, b, sizeof b);
        ry_buf_printf(out, "  names swapped: %s switch%s cabled as another planned switch "
                      "than %s name%s (the one named %s is cabled as %s): swap the names or "
                      "configurations back, not the cables\n", ry_n(v->misnamed_switches),
                      v->misnamed_switches == 1 ? " is" : "es are",
                      v->misnamed_switches == 1 ? "its" : "their",
                      v->misnamed_switches == 1 ? " says" : "s say", a, b);
    }
    if (v->count[RY_VF_MISWIRED]) {
        ry_buf_printf(out, "  cables moved: %s miswired:", ry_n(v->count[RY_VF_MISWIRED]));
        int any = 0;
        for (int c = 1; c < RY_VC_N; c++)
            if (cls[c])
                ry_buf_printf(out, "%s %s %s", any++ ? "," : "", ry_n(cls[c]), class_name[c]);
        ry_buf_puts(out, "\n");
    }
    if (v->count[RY_VF_DEGRADED])
        ry_buf_printf(out, "  slow links: %s cables run below their planned rate: reseat or "
                      "replace them\n", ry_n(v->count[RY_VF_DEGRADED]));
    ry_buf_printf(out, "the %s finding%s, one by one:\n", ry_n((long long)v->nfindings),
                  v->nfindings == 1 ? "" : "s");
}

static void emit_text(ry_buf *out, const ry_verify *v, const ry_ibplan *pl, const ry_layout *lay)
{
    summary_line(out, v);
    subnets_line(out, v, pl);
    if (v->nfindings)
        causes_text(out, v);
    for (size_t i = 0; i < v->nfindings; i++) {
        const ry_vf_finding *x = &v->findings[i];
        said w;
        say(v, lay, x, &w);
        const ends *e = &w.e;
        ry_buf_printf(out, "\n%s", kind_name[x->kind]);
        if (x->cls)
            ry_buf_printf(out, " (%s)", class_name[x->cls]);
        if (w.label[0])
            ry_buf_printf(out, " cable %s", w.label);
        ry_buf_putc(out, '\n');
        if (e->has_plan) {
            ry_buf_puts(out, "  planned: ");
            text_end(out, lay, &e->pa, 0);
            ry_buf_puts(out, " -- ");
            text_end(out, lay, &e->pb, 0);
            ry_buf_putc(out, '\n');
        }
        if (e->has_fa) {
            ry_buf_puts(out, "  found:   ");
            text_end(out, lay, &e->fa, 1);
            if (e->has_fb) {
                ry_buf_puts(out, " -- ");
                text_end(out, lay, &e->fb, 1);
            }
            ry_buf_putc(out, '\n');
        }
        ry_buf_printf(out, "  fix:     %s\n  impact:  %s\n", w.fix.data, w.impact.data);
        said_free(&w);
    }
}

/* ---- JSON ------------------------------------------------------------------------ */

static json_t *jguid(uint64_t g)
{
    char s[24];
    snprintf(s, sizeof s, "0x%016llx", (unsigned long long)g);
    return json_string(s);
}

static json_t *jend(const ry_layout *lay, const end *e, int found)
{
    json_t *j = json_object();
    json_object_set_new(j, "device", json_string(e->dev));
    json_object_set_new(j, "port", json_integer(e->port));
    if (e->ifname[0])
        json_object_set_new(j, "interface", json_string(e->ifname));
    if (e->host[0]) {
        json_object_set_new(j, "host", json_string(e->host));
        json_object_set_new(j, "nic", json_string(e->nicname));
    }
    if (found)
        json_object_set_new(j, "guid", jguid(e->guid));
    if (e->rack >= 0) {
        char rack[32];
        ry_rack_name(lay, e->rack, rack, sizeof rack);
        json_object_set_new(j, "rack", json_string(rack));
        json_object_set_new(j, "unit", json_integer(e->unit));
    }
    return j;
}

static json_t *jpair(const ry_layout *lay, const end *a, const end *b, int has_b, int found)
{
    json_t *j = json_object();
    json_object_set_new(j, "a", jend(lay, a, found));
    json_object_set_new(j, "b", has_b ? jend(lay, b, found) : json_null());
    return j;
}

typedef struct sw_row {
    uint64_t guid;
    int32_t node;
} sw_row;

static int cmp_sw_row(const void *a, const void *b)
{
    const sw_row *x = a, *y = b;
    return (x->guid > y->guid) - (x->guid < y->guid);
}

static json_t *switches_json(const ry_verify *v)
{
    size_t n = 0, cap = (size_t)v->switches_placed + 1;
    sw_row *rows = ry_xmalloc(cap * sizeof *rows);
    for (int k = 0; k < v->nnf; k++)
        for (int i = 0; i < v->nf[k].nnodes; i++)
            if (ry_netfile_is_switch(&v->nf[k], i) && v->nmap[k][i] >= 0 && n < cap)
                rows[n++] = (sw_row){ v->nf[k].nodes[i].guid, v->nmap[k][i] };
    qsort(rows, n, sizeof *rows, cmp_sw_row);
    json_t *j = json_object();
    char key[24], name[96];
    for (size_t i = 0; i < n; i++) {
        snprintf(key, sizeof key, "0x%016llx", (unsigned long long)rows[i].guid);
        ry_node_name(v->f, (uint32_t)rows[i].node, name, sizeof name);
        json_object_set_new(j, key, json_string(name));
    }
    free(rows);
    return j;
}

/* How much of the plan was compared: a report without findings says
 * nothing about the subnets no file held. */
static json_t *verified_json(const ry_verify *v, const ry_ibplan *pl)
{
    json_t *j = json_object(), *sn = json_array();
    json_object_set_new(j, "cables", json_integer(v->planned));
    json_object_set_new(j, "of_planned", json_integer(v->planned_all));
    char nb[32];
    for (int k = 0; k < subnet_count(v, pl); k++)
        if (v->subnet_seen[k])
            json_array_append_new(sn, json_string(subnet_name(pl, k, nb, sizeof nb)));
    json_object_set_new(j, "subnets", sn);
    json_object_set_new(j, "switches_placed", json_integer(v->switches_placed));
    json_object_set_new(j, "switches_found", json_integer(v->switches_found));
    json_object_set_new(j, "nics_placed", json_integer(v->nics_placed));
    json_object_set_new(j, "nics_found", json_integer(v->nics_found));
    return j;
}

static void emit_json(ry_buf *out, const ry_verify *v, const ry_ibplan *pl, const ry_layout *lay)
{
    json_t *root = json_object(), *arr = json_array();
    json_object_set_new(root, "verified", verified_json(v, pl));
    json_object_set_new(root, "as_planned", json_integer(v->as_planned));
    for (size_t i = 0; i < v->nfindings; i++) {
        const ry_vf_finding *x = &v->findings[i];
        said w;
        say(v, lay, x, &w);
        const ends *e = &w.e;
        json_t *j = json_object();
        json_object_set_new(j, "kind", json_string(kind_name[x->kind]));
        json_object_set_new(j, "class", x->cls ? json_string(class_name[x->cls]) : json_null());
        json_object_set_new(j, "planned", e->has_plan ? jpair(lay, &e->pa, &e->pb, 1, 0)
                                                      : json_null());
        json_object_set_new(j, "found", e->has_fa ? jpair(lay, &e->fa, &e->fb, e->has_fb, 1)
                                                  : json_null());
        json_object_set_new(j, "label", w.label[0] ? json_string(w.label) : json_null());
        json_object_set_new(j, "fix", json_string(w.fix.data));
        json_object_set_new(j, "impact", json_string(w.impact.data));
        json_array_append_new(arr, j);
        said_free(&w);
    }
    json_object_set_new(root, "findings", arr);
    json_object_set_new(root, "switches", switches_json(v));
    ry_json_out(out, root, 0);
}

void ry_emit_verify(ry_buf *out, const ry_verify *v, const ry_ibplan *pl, const ry_layout *lay,
                    ry_format fmt)
{
    if (fmt == RY_FMT_JSON)
        emit_json(out, v, pl, lay);
    else
        emit_text(out, v, pl, lay);
}

/* ---- work order ------------------------------------------------------------------ */

typedef struct wo_row {
    long long walk;     /* place on the walk through the halls, -1 = not placed */
    int rack, unit;
    char dev[160];      /* sorted by: a NIC's "node001 mlx5_0" and port 1 */
    int port;
    char col_dev[160];  /* written: the device and port as cabling.csv names them, */
    char col_port[32];  /* "node001", "mlx5_0" for a NIC of the plan, else dev, port */
    char cage[32];      /* the port on the faceplate (cage/port), "" for a NIC */
    char label[96];
    const char *action;
    char to[224];
} wo_row;

static int cmp_wo(const void *a, const void *b)
{
    const wo_row *x = a, *y = b;
    if (x->walk != y->walk)
        return x->walk < 0 ? 1 : y->walk < 0 ? -1 : (x->walk > y->walk) - (x->walk < y->walk);
    if (x->unit != y->unit)
        return (x->unit > y->unit) - (x->unit < y->unit);
    /* mlx5_3 before mlx5_10, leaf9 before leaf10 */
    int c = ry_name_cmp(x->dev, y->dev);
    if (c)
        return c;
    return (x->port > y->port) - (x->port < y->port);
}

static void wo_set(wo_row *r, const end *at, const char *label, const char *action, const end *to,
                   const char *to_text)
{
    r->rack = at->rack;
    r->unit = at->unit;
    snprintf(r->dev, sizeof r->dev, "%s", at->dev);
    r->port = at->port;
    if (at->host[0] && at->port == 1) {     /* a NIC's second port keeps its number */
        snprintf(r->col_dev, sizeof r->col_dev, "%s", at->host);
        snprintf(r->col_port, sizeof r->col_port, "%s", at->nicname);
    } else {
        snprintf(r->col_dev, sizeof r->col_dev, "%s", at->dev);
        snprintf(r->col_port, sizeof r->col_port, "%d", at->port);
    }
    snprintf(r->cage, sizeof r->cage, "%s", at->cage);
    snprintf(r->label, sizeof r->label, "%s", label);
    r->action = action;
    if (to && to->cage[0]) {
        /* a technician reads the faceplate: "leaf3 port 17 (9/1)" */
        char t[180];
        end_text(t, sizeof t, to);
        snprintf(r->to, sizeof r->to, "%s (%s)", t, to->cage);
    } else if (to)
        end_text(r->to, sizeof r->to, to);
    else
        snprintf(r->to, sizeof r->to, "%s", to_text);
}

void ry_emit_work_order(ry_buf *out, const ry_verify *v, const ry_layout *lay)
{
    ry_emit_work_order_of(out, v, v->findings, NULL, v->nfindings, lay);
}

void ry_emit_work_order_of(ry_buf *out, const ry_verify *v, const ry_vf_finding *xs,
                           const uint8_t *replace, size_t nx, const ry_layout *lay)
{
    ry_emit_work_order_header(out);
    ry_emit_work_order_rows(out, v, xs, replace, nx, lay);
}

void ry_emit_work_order_header(ry_buf *out)
{
    ry_buf_puts(out, "rack,rack_unit,device,port,cage_port,label,action,to");
    ry_csv_end(out);
}

long long ry_work_order_walk(const ry_layout *lay, int rack)
{
    if (rack < 0)
        return -1;
    const ry_rack *k = &lay->racks[rack];
    int per_row = lay->rooms[k->room].racks_per_row;
    return ((long long)k->room << 40) + ((long long)k->row << 20) +
           (k->row % 2 ? per_row - 1 - k->col : k->col);
}

void ry_emit_work_order_rows(ry_buf *out, const ry_verify *v, const ry_vf_finding *xs,
                             const uint8_t *replace, size_t nx, const ry_layout *lay)
{
    wo_row *rows = ry_xcalloc(nx + 1, sizeof *rows);
    size_t n = 0;
    for (size_t i = 0; i < nx; i++) {
        const ry_vf_finding *x = &xs[i];
        ends e;
        ends_of(v, lay, x, &e);
        char label[96];
        label_of(v, x, label, sizeof label);
        wo_row *r = &rows[n++];
        if (replace && replace[i] && x->link >= 0) {
            wo_set(r, &e.pa, label, "replace", &e.pb, NULL);
            continue;
        }
        switch (x->kind) {
        case RY_VF_MISSING:
            wo_set(r, &e.pa, label, "connect", &e.pb, NULL);
            break;
        case RY_VF_UNEXPECTED:
            wo_set(r, &e.fa, label, "remove", &e.fb, NULL);
            break;
        case RY_VF_MISWIRED:
            wo_set(r, x->moved_hi ? &e.fb : &e.fa, label, "move", x->moved_hi ? &e.pb : &e.pa,
                   NULL);
            break;
        case RY_VF_DEGRADED:
            wo_set(r, &e.fa, label, "reseat or replace", &e.fb, NULL);
            break;
        default:
            /* where the unknown device is plugged, when that is a known device */
            if (e.has_fb && e.fb.rack >= 0)
                wo_set(r, &e.fb, label, "check unknown device", NULL, e.fa.dev);
            else
                wo_set(r, &e.fa, label, "check unknown device", NULL, e.has_fb ? e.fb.dev : "");
        }
    }
    /* room by room; in each along row 1, back along row 2, and so on:
     * each rack passed once */
    for (size_t i = 0; i < n; i++)
        rows[i].walk = ry_work_order_walk(lay, rows[i].rack);
    qsort(rows, n, sizeof *rows, cmp_wo);
    char num[32], rack[32];
    for (size_t i = 0; i < n; i++) {
        const wo_row *r = &rows[i];
        rack[0] = num[0] = '\0';
        if (r->rack >= 0) {
            ry_rack_name(lay, r->rack, rack, sizeof rack);
            snprintf(num, sizeof num, "%d", r->unit);
        }
        ry_csv_row(out, (const char *const[]){ rack, num, r->col_dev, r->col_port, r->cage,
                                               r->label, r->action, r->to }, 8);
    }
    free(rows);
}

/* ---- as found ------------------------------------------------------------------ */

void ry_emit_as_found(ry_buf *out, const ry_verify *v, const ry_ibplan *pl, long long left,
                      const ry_hole *holes, size_t n)
{
    const ry_fabric *f = pl->f;
    size_t unreached = 0, shown = 0;
    long long pairs = 0;
    char a[160], b[160];
    for (size_t i = 0; i < n; i++)
        if (holes[i].leaf < 0)
            unreached++;
    ry_buf_printf(out, "railyard: routing the fabric as found: %s finding%s routed around",
                  ry_n((long long)v->nfindings), v->nfindings == 1 ? "" : "s");
    if (left)
        ry_buf_printf(out, ", %s cable%s carrying no route (within a tier, or to a device not "
                      "in the plan)", ry_n(left), left == 1 ? "" : "s");
    ry_buf_puts(out, "\n");
    for (size_t i = 0; i < n; i++) {
        const ry_hole *h = &holes[i];
        ry_ca_desc(f, (uint32_t)h->nic, a, sizeof a);
        if (h->leaf < 0) {
            if (shown++ < 20)
                ry_buf_printf(out, "railyard:   %s is not cabled: no route reaches it\n", a);
            continue;
        }
        pairs += h->sources;
        if (shown++ < 20) {
            ry_node_name(f, (uint32_t)h->leaf, b, sizeof b);
            ry_buf_printf(out, "railyard:   the %s NIC%s on %s cannot reach %s\n", ry_n(h->sources),
                          h->sources == 1 ? "" : "s", b, a);
        }
    }
    if (shown > 20)
        ry_buf_printf(out, "railyard:   ... and %s more\n", ry_n((long long)(shown - 20)));
    ry_buf_printf(out, "railyard: %s NIC%s not cabled; %s pair%s of cabled NICs not "
                  "delivered\n", ry_n((long long)unreached), unreached == 1 ? "" : "s", ry_n(pairs),
                  pairs == 1 ? "" : "s");
}
