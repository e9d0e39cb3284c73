/* Bill of materials, its capex at list prices, and the rail-only paper's
 * cost model, counted by walking the graph.
 *
 * Two counts of optics are kept apart by name everywhere: cable ends (two
 * per link, what the paper's model calls transceivers and prices alike) and
 * optics modules (the cabling plan's parts: one module per cabled cage, so
 * a twin-port module serves two cable ends). The capex prices modules. */
#ifndef RY_BOM_H
#define RY_BOM_H

#include "analysis/cabling.h"
#include "fabric/fabric.h"

typedef struct ry_bom_tier {
    long long switches;
    long long ports;        /* every port of every switch of the tier */
    long long ports_used;   /* cabled */
    long long ports_down;   /* cabled to the tier below */
    long long ports_up;     /* cabled to the tier above */
    long long links;        /* links from the tier below into this tier */
    /* The tier's fullest switch (most cabled down-links, then fewest up):
     * its cabled ports and their capacity, the effective oversubscription
     * a summary states (a 2:1 leaf of 84 down-ports holding 10 nodes of 8
     * GPUs is 80:42). */
    int sw_down, sw_up;
    double sw_down_gbps, sw_up_gbps;
    int max_rails;          /* most rails one switch of the tier carries */
} ry_bom_tier;

typedef struct ry_bom {
    char name[RY_NAME_MAX];
    ry_design design;
    long long gpus;
    long long endpoints;    /* GPU NIC ports cabled */
    int tiers;
    int planes;
    int subnets;
    int radix;              /* 0: per tier (a fabric.tiers list) */
    ry_bom_tier tier[RY_MAX_TIERS + 1];   /* [1..tiers] */
    long long switches;
    long long switch_ports, switch_ports_used;
    long long links;
    long long transceivers;              /* cable ends: two per link (the paper's transceivers) */
    double price_transceiver, price_port;
    double cost_switches, cost_transceivers, cost_total;
} ry_bom;

void ry_bom_compute(const ry_fabric *f, ry_bom *b);

/* A tier with less than this share of its ports cabled wastes ports. */
#define RY_BOM_FILL_LOW 0.75

/* Ports bought that carry nothing: into buf the leaves when the fullest
 * cables more ports up than down ("leaf: 32 ports down and 64 up"), else the first tier under RY_BOM_FILL_LOW cabled
 * ("leaf: 60.0% of ports cabled"); "" when none. Returns 1 when it said
 * something. */
int ry_bom_waste(const ry_bom *b, char *buf, size_t cap);

/* Capital cost at list prices: the switches at the catalog's (or the spec's)
 * price, the optics and cables of the cabling plan's physical bill, and when
 * the spec sets them racks (cost.rack per rack of the layout) and spares
 * (cost.spares percent of the three). Unlike the paper's model it prices
 * every item by its own part and speed. */
/* One kind of tray of the compute racks of a rack-scale node (the node's
 * rack_trays, after its compute trays): how many the layout's compute
 * racks hold. Counted, not priced. */
typedef struct ry_tray_line {
    char kind[32];              /* the compute trays' kind is "compute-tray" */
    char part[RY_NAME_MAX];     /* the compute trays': the node's name */
    int per_rack;               /* in a full rack */
    long long count;            /* in the cluster */
    int units;                  /* rack units of one */
    double power_w;             /* of one (0 = unknown) */
} ry_tray_line;

/* The switches of one model (tiers of one model share a line). */
typedef struct ry_capex_model {
    char name[RY_NAME_MAX], part[32];
    double price;               /* 0: no price */
    double power_w;             /* of one, its cages full (0: unknown) */
    double price_range;         /* percent either way (0: cost.range_switches) */
    long long count;
    double cost;
    int tier;                   /* the lowest tier of the model */
} ry_capex_model;

typedef struct ry_capex {
    long long switches;
    int nmodels;                /* lines of model[], leaves' first */
    ry_capex_model model[RY_MAX_TIERS];
    double switch_price;        /* 0: a switch has no price (then total lacks it); with
                                 * several models, the leaves' */
    const char *switch_name, *switch_part;   /* borrowed from the spec */
    long long spare_switches;   /* spares.switches: in the leaves' model line and its cost */
    double switches_cost, optics, cables;
    int racks;                  /* racks of the layout */
    double rack_price, racks_cost;          /* racks_cost 0 unless cost.rack is set */
    double spares_pct, spares;
    double total;
    long long optics_modules;   /* modules of the cabling plan (one per cabled cage) */
    long long cable_count;      /* cables of the cabling plan */
    /* A rack-scale node's racks (ntrays 0 when the node has no rack_trays):
     * the compute trays, then one line per tray kind. */
    int ntrays;
    ry_tray_line trays[RY_TRAYS_MAX + 1];
    int tray_racks;             /* compute racks holding the trays */
    int rack_units;             /* units of a full rack: compute trays and the others */
    double rack_power_w;        /* power of a full rack */
    /* Cost of ownership over cost.years: the capex, the network's energy
     * (every installed switch at its catalog power, which holds the optics
     * in its cages; spares on the shelf draw nothing) at cost.pue and
     * cost.energy_price, support contracts (cost.support percent of the
     * switches' price a year) and the spares a year's failures use. The servers' energy is counted apart: it is
     * the same in every design of one cluster. */
    double network_power_w;     /* 0 with power_unknown set when a model has no power */
    int power_unknown;          /* a switch model's power is not known */
    double server_power_w;      /* nodes and rack trays at their power (0: unknown) */
    int years;
    double pue, energy_price, support_pct;
    double energy_year, support_year;      /* USD a year */
    double replace_year;                   /* spares used a year: the failed switches, optics
                                            * and cables bought again, at the reliability
                                            * section's switch_rate and cable_rate */
    double server_energy_year;             /* USD a year, apart */
    double ownership;                      /* total + years x (energy, support, replace) */
} ry_capex;

void ry_capex_compute(const ry_spec *s, const ry_bom *b, const ry_cabling *c, ry_capex *out);
/* The parts of out that the cost section prices (racks, spares, the
 * total) again, for s: out computed for a spec that differs from s only
 * in its cost section. */
void ry_capex_reprice(const ry_spec *s, ry_capex *out);

/* The capex of a built fabric: its bill of materials, its layout and a
 * cabling plan from the media catalog, priced by ry_capex_compute; the
 * layout and plan are freed before it returns (the capex borrows only the
 * spec). b may be NULL. -1 with err set when the layout or the plan cannot
 * be made. */
int ry_fabric_capex(const ry_fabric *f, const ry_media_catalog *media, ry_bom *b, ry_capex *out,
                    ry_err *err);

/* The capex of one cluster as rail-optimized and rail-only fabrics (the
 * spec's own tiers only for its own design), each built, laid out, cabled
 * and priced: what the LLM model and the traffic report set beside their
 * results. */
typedef struct ry_designs_capex {
    int ok[2];              /* [0] rail-optimized, [1] rail-only */
    ry_bom bom[2];
    ry_capex capex[2];
    char err[2][640];       /* "key: message" when a design cannot be built or cabled */
    ry_tier_entries entries[2];     /* a fabric.tiers list taken by position */
    int paper;              /* the reports show the paper's model too (set by the caller) */
} ry_designs_capex;

/* One design of the spec's cluster (ok, bom, capex and err of slot i). */
void ry_design_capex(const ry_spec *s, ry_design d, const ry_media_catalog *media,
                     ry_designs_capex *c, int i);
/* Both designs; c is zeroed first. */
void ry_designs_capex_compute(const ry_spec *s, const ry_media_catalog *media,
                              ry_designs_capex *c);

#endif
