/* Expected failures and their cost (analysis/reliability.h). */
#include "analysis/reliability.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/names.h"
#include "spec/spec.h"

static ry_rel_class *add(ry_reliability *r, const char *name, const char *key, double count,
                         double rate, int network)
{
    ry_rel_class *c = &r->cls[r->nclass++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->key = key;
    c->count = count;
    c->rate = rate;
    c->failures = count * rate;
    c->network = network;
    return c;
}

void ry_reliability_compute(const ry_spec *s, const ry_rel_input *in, ry_reliability *out)
{
    memset(out, 0, sizeof *out);
    out->gpus = in->gpus;
    double G = (double)in->gpus;
    double gpn = in->gpus_per_node > 0 ? in->gpus_per_node : 1;
    /* every failure: the restart and half a checkpoint interval, every GPU */
    double interrupt = G * (s->rel.restart + s->rel.checkpoint / 2) / 60.0;
    ry_rel_class *c;
    c = add(out, "GPUs", "reliability.gpu_rate", G, s->rel.gpu_rate, 0);
    c->repair_gpu_h = gpn * s->rel.repair_node;
    /* host_rate is an 8-GPU server's: a server of other size fails in
     * proportion (its CPUs, memory, disks and power per GPU alike) */
    c = add(out, "servers", "reliability.host_rate", (double)in->nodes,
            s->rel.host_rate * gpn / 8, 0);
    c->repair_gpu_h = gpn * s->rel.repair_node;
    c = add(out, "NICs", "reliability.nic_rate", (double)in->gpu_ports, s->rel.nic_rate, 0);
    c->repair_gpu_h = gpn * s->rel.repair_node;
    add(out, "software", "reliability.software_rate", G, s->rel.software_rate, 0);
    for (int t = 1; t <= in->tiers && t <= RY_MAX_TIERS; t++) {
        char name[24];
        /* one tier: its switches are "switch" by name */
        if (in->tiers == 1)
            snprintf(name, sizeof name, "switches");
        else
            snprintf(name, sizeof name, "%s switches", ry_tier_name(t, in->tiers));
        c = add(out, name, "reliability.switch_rate", (double)in->switches[t],
                s->rel.switch_rate, 1);
        /* drain the servers of what it cuts off, or run slowed: the cheaper;
         * a switch that cuts nothing off leaves only the slowdown */
        double drain = in->gpus_cut[t] > 0 ? (double)in->gpus_cut[t] * s->rel.repair_switch
                                           : INFINITY;
        double slow = in->slowdown[t] > 0 && !in->stalled[t]
                          ? G * (1 - 1 / in->slowdown[t]) * s->rel.repair_switch
                      : in->gpus_cut[t] > 0 ? INFINITY : 0;
        c->drained = drain <= slow;
        c->repair_gpu_h = c->drained ? drain : slow;
    }
    c = add(out, "cables", "reliability.cable_rate", (double)(in->node_links + in->switch_links),
            s->rel.cable_rate, 1);
    /* a server's cable drains the server; a switch's is routed around */
    double links = (double)(in->node_links + in->switch_links);
    c->repair_gpu_h = links > 0 ? (double)in->node_links / links * gpn * s->rel.repair_cable : 0;
    for (int i = 0; i < out->nclass; i++) {
        c = &out->cls[i];
        c->interrupt_gpu_h = interrupt;
        c->lost_gpu_h = c->failures * (c->interrupt_gpu_h + c->repair_gpu_h);
        out->failures += c->failures;
        out->lost_gpu_h += c->lost_gpu_h;
        if (c->network) {
            out->network_failures += c->failures;
            out->network_lost_gpu_h += c->lost_gpu_h;
        }
    }
    out->goodput = G > 0 ? 1 - out->lost_gpu_h / (G * RY_HOURS_A_YEAR) : 0;
    /* more lost than the year holds: the model's premise (one failure at a
     * time, each repaired before the next) does not hold */
    out->overrun = out->goodput < 0;
    if (out->goodput < 0)
        out->goodput = 0;
    out->gpu_hour = s->rel.gpu_hour;
    out->lost_usd = out->lost_gpu_h * s->rel.gpu_hour;
    out->years = in->years;
    out->lost_usd_years = out->lost_usd * in->years;
    out->ok = 1;
}
