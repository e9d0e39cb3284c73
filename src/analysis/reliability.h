/* The failures a cluster can expect and what they cost its training job:
 * per class of component (GPUs, servers, NICs, the software, the switches
 * of each tier, the cables) a yearly rate per component (the spec's
 * reliability section), the expected failures a year, and the GPU-hours
 * each loses:
 *   - every failure interrupts the job, which restarts from its last
 *     checkpoint: every GPU of the job loses the restart and, on average,
 *     half a checkpoint interval;
 *   - then, until the component is repaired, the job goes on without it:
 *     a server's failure (its GPU, NIC or itself) drains the server; a
 *     cable to a server drains the server; a switch's failure either
 *     drains the servers of the GPUs it cuts off or runs the whole job
 *     slowed down by it (the slowdown of the layout kept), whichever loses
 *     less (one that cuts nothing off only slows); a cable between
 *     switches is routed around.
 * Goodput is one minus the lost GPU-hours over the GPU-hours of a year,
 * at least 0 (overrun says when the failures would lose more: the model
 * takes one failure at a time, repaired before the next);
 * the dollars are the lost GPU-hours at reliability.gpu_hour. The designs
 * of one cluster differ in their switches and cables and in what one
 * switch's failure cuts off or slows (the blast radius). */
#ifndef RY_RELIABILITY_H
#define RY_RELIABILITY_H

#include "fabric/fabric.h"

#define RY_REL_MAX_CLASSES (5 + RY_MAX_TIERS)

typedef struct ry_rel_class {
    char name[24];          /* "GPUs", "servers", "NICs", "software", "leaf switches", ..., "cables" */
    const char *key;        /* its rate's spec key */
    double count;           /* components */
    double rate;            /* failures a component-year */
    double failures;        /* expected a year */
    double interrupt_gpu_h; /* lost to one failure's restart */
    double repair_gpu_h;    /* lost to one failure's repair */
    double lost_gpu_h;      /* a year: failures x (interrupt + repair) */
    int network;            /* a switch or cable */
    int drained;            /* a switch: its repair drains the GPUs it cuts off (else runs slowed) */
} ry_rel_class;

typedef struct ry_reliability {
    int ok;                 /* computed */
    int nclass;
    ry_rel_class cls[RY_REL_MAX_CLASSES];
    long long gpus;
    double failures, lost_gpu_h, goodput;       /* a year; goodput at least 0 */
    int overrun;            /* the failures would lose more than the year holds */
    double network_failures, network_lost_gpu_h;
    double gpu_hour, lost_usd;                  /* USD a GPU-hour; lost a year */
    int years;
    double lost_usd_years;
} ry_reliability;

/* A year of 8,766 hours (365.25 days). */
#define RY_HOURS_A_YEAR 8766.0

/* What a design holds, and what one switch of each tier does down. */
typedef struct ry_rel_input {
    long long gpus, nodes, gpu_ports;
    int gpus_per_node;
    long long node_links, switch_links;         /* cables to servers, between switches */
    int tiers;
    long long switches[RY_MAX_TIERS + 1];       /* [1..tiers] */
    long long gpus_cut[RY_MAX_TIERS + 1];       /* the GPUs of the servers one switch of the
                                                 * tier cuts off, drained whole */
    double slowdown[RY_MAX_TIERS + 1];          /* of the job, one down (0: not modeled) */
    int stalled[RY_MAX_TIERS + 1];
    int years;                                  /* cost.years */
} ry_rel_input;

/* The yearly failures and their cost for in, at s's reliability section. */
void ry_reliability_compute(const struct ry_spec *s, const ry_rel_input *in, ry_reliability *out);

#endif
