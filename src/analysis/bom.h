/* Bill of materials and the paper's cost model, counted by walking the graph. */
#ifndef RY_BOM_H
#define RY_BOM_H

#include "fabric/fabric.h"

typedef struct ry_bom_tier {
    long long switches;
    long long ports;        /* every port of every switch of the tier */
    long long ports_used;   /* cabled */
    long long ports_down;   /* cabled to the tier below */
    long long ports_up;     /* cabled to the tier above */
    long long links;        /* links from the tier below into this tier */
} ry_bom_tier;

typedef struct ry_bom {
    char name[RY_NAME_MAX];
    ry_design design;
    long long gpus;
    long long endpoints;    /* GPU NIC ports cabled */
    int tiers;
    int planes;
    int subnets;
    int radix;
    ry_bom_tier tier[RY_MAX_TIERS + 1];   /* [1..tiers] */
    long long switches;
    long long switch_ports, switch_ports_used;
    long long links;
    long long transceivers;              /* paper model: two per link */
    double price_transceiver, price_port;
    double cost_switches, cost_transceivers, cost_total;
} ry_bom;

void ry_bom_compute(const ry_fabric *f, ry_bom *b);

#endif
