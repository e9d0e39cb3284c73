/* Design checks: what `railyard validate` says about a built fabric beyond
 * "it parses". Each finding is an error (the design is wrong as written), a
 * warning (it works, but wastes money) or a note; the figures behind them
 * (per-tier fill, bandwidth cabled down and up, idle ports and their price,
 * a cheaper neighbouring size) are kept for the emitters.
 *
 * ry_design_check_compute fills a caller-owned struct and allocates
 * nothing; it builds neighbouring fabrics to price them (the builder and the
 * bill of materials, not a formula), so it costs a few builds of the
 * fabric. */
#ifndef RY_DESIGN_CHECK_H
#define RY_DESIGN_CHECK_H

#include "analysis/bom.h"

#define RY_CHECK_MAX_FINDINGS 24
/* A tier with less than this share of its ports cabled is flagged. */
#define RY_CHECK_FILL_WARN RY_BOM_FILL_LOW
/* A neighbouring design is proposed when it saves more than this share of
 * the cost per GPU. */
#define RY_CHECK_SAVING_WARN 0.10
/* Neighbours are priced by building them: up to seven builds of the
 * fabric, a few seconds at this size, so larger specs skip it (a note). */
#define RY_CHECK_NEIGHBOUR_MAX_GPUS (1LL << 17)

typedef enum { RY_CHECK_NOTE = 0, RY_CHECK_WARNING = 1, RY_CHECK_ERROR = 2 } ry_check_level;

typedef struct ry_check_finding {
    ry_check_level level;
    char check[24];         /* "nic-speed", "workload-fit", "tier-fill", "cheaper-size" */
    char key[64];           /* the spec key to blame (for file:line:col), or "" */
    char msg[400];
} ry_check_finding;

typedef struct ry_check_tier {
    long long switches, ports, used, idle;
    double fill;            /* used / ports */
    double idle_cost;       /* idle ports at the price of a port */
    double down_gbps;       /* bandwidth cabled to the tier below */
    double up_gbps;         /* bandwidth cabled to the tier above (0 at the top) */
} ry_check_tier;

/* A design near the spec's, built and priced. */
typedef struct ry_check_option {
    long long gpus;
    int su_domains;         /* HB domains per scalable unit */
    int units;
    int tiers;
    long long top_switches;
    double cost;
    double saving;          /* share of the spec's total cost saved */
    double saving_per_gpu;  /* share of the spec's cost per GPU saved */
} ry_check_option;

typedef struct ry_design_check {
    double nic_gbps, port_gbps;
    double link_gbps;       /* what a NIC link runs at: the slower of the two */
    int nic_faster;         /* 1: NIC faster than the switch port */
    int accepted;           /* fabric.accept_slower_ports */
    int tiers;
    ry_check_tier tier[RY_MAX_TIERS + 1];   /* [1..tiers] */
    /* Idle ports and neighbours are priced by the rail-only paper's cost
     * model (a neighbour's capex would need its own layout and cabling). */
    double price_port, price_transceiver;
    double cost, cost_per_gpu;
    ry_check_option spec_option;            /* the spec itself, as an option */
    int has_cheaper;
    ry_check_option cheaper;                /* the best option saving > RY_CHECK_SAVING_WARN */
    int options_tried;
    int nfindings, errors, warnings;
    ry_check_finding finding[RY_CHECK_MAX_FINDINGS];
} ry_design_check;

/* Checks the fabric f (built from f->spec) with its bill of materials b. */
void ry_design_check_compute(const ry_fabric *f, const ry_bom *b, ry_design_check *c);

/* Runs nearer than this share of their medium's reach are flagged. */
#define RY_CHECK_REACH_WARN 0.9
/* Network racks holding less than RY_CHECK_RACK_FILL_WARN of the switches
 * they could (by space and power) are flagged when they are more than
 * RY_CHECK_RACK_FILL_SHARE of all racks: a unit's leaves in a rack beside
 * it are fine, a floor of which a quarter is nearly empty racks is not. */
#define RY_CHECK_RACK_FILL_WARN (1.0 / 3)
#define RY_CHECK_RACK_FILL_SHARE 0.25

struct ry_cabling;
/* Adds the floor's checks from the layout and cabling plan: runs near
 * their medium's reach, racks over their power budget, and a note with
 * the halls, rooms, buildings and longest run. */
void ry_design_check_physical(const struct ry_cabling *cab, ry_design_check *c);

/* Adds a finding (a full list drops it). */
void ry_design_check_add(ry_design_check *c, ry_check_level lv, const char *check,
                         const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
