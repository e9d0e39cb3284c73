/* Designs side by side for one cluster: rail-optimized (the SOTA baseline),
 * rail-only and fat-tree, per switch radix. */
#ifndef RY_COMPARE_H
#define RY_COMPARE_H

#include "analysis/bom.h"
#include "analysis/failure.h"
#include "analysis/reliability.h"
#include "analysis/sensitivity.h"

typedef struct ry_compare_row {
    long long gpus;
    int hb_domain;
    int radix;              /* 0: a fabric.tiers list, each tier its own switch */
    ry_bom bom[3];          /* indexed by ry_design */
    ry_tier_entries entries[3];
    double reduction;       /* rail-only cost saving vs rail-optimized, percent */
    int su_domains;         /* HB domains per scalable unit (rail-optimized) */
    int su_from_spec;       /* 1: the spec's own scalable unit, 0: one that fills a leaf */
} ry_compare_row;

/* The spec of one row: base with the switch radix set to radix. The
 * scalable unit is chosen per radix: the spec's own at the spec's radix,
 * one that fills a leaf of the radix at any other (a unit sized for 64-port
 * leaves would leave half of every 128-port leaf empty, and make the bigger
 * switch look dearer than it is). */
void ry_compare_spec_for(const ry_spec *base, int radix, ry_spec *out);

/* Build the three designs of `base` with the switch radix set to `radix`.
 * A spec with a fabric.tiers list is built with its tiers, each its own
 * switch (another design taking them by position, as ry_spec_as_design
 * says), and the row's radix is 0 (the caller refuses another radix).
 * Returns -1 with err set when a design cannot be built. */
int ry_compare_one(const ry_spec *base, int radix, ry_compare_row *row, ry_err *err);

/* The network cost of one cluster as rail-optimized and rail-only fabrics,
 * both built and their bills of materials walked: what the LLM model and
 * the traffic analysis set beside their results. */
typedef struct ry_design_cost {
    int ok[2];              /* [0] rail-optimized, [1] rail-only */
    ry_bom bom[2];
    char err[2][640];       /* "key: message" when a design cannot be built */
} ry_design_cost;

void ry_design_costs(const ry_spec *s, ry_design_cost *c);
/* One design's bill of materials (forced tiers apply to the spec's own
 * design only). -1 with the reason in err when it cannot be built. */
int ry_design_bom(const ry_spec *s, ry_design d, ry_bom *b, char *err, size_t cap);

/* ---- the designs side by side, as built and priced ------------------------------------------ */

/* One design of a cluster, built as `railyard bom SPEC --set
 * fabric.design=D` builds it (a tier list of another design taken by
 * position, ry_spec_as_design; the spec's tiers then the count built, so
 * the model reads the design's tiers): the fabric, its bill of materials, the
 * layout and cabling plan, and ry_capex_compute's capex (not re-derived).
 * The spec is a copy (the fabric points at it), so the object lives on the
 * heap: ry_design_build_new returns one with a NULL-safe _free, or NULL
 * with err set when the design cannot be built or laid out. The media
 * catalog is borrowed and must outlive the object. */
typedef struct ry_design_build {
    ry_spec spec;           /* base with fabric.design set (its pointers borrowed) */
    ry_fabric fabric;
    ry_bom bom;
    ry_layout lay;
    ry_cabling cab;
    ry_capex capex;
    int stage;              /* what is built, for _free */
} ry_design_build;

ry_design_build *ry_design_build_new(const ry_spec *base, ry_design d,
                                     const ry_media_catalog *media, ry_err *err);
void ry_design_build_free(ry_design_build *b);

#define RY_COMPARE_MAX_MEDIA 16

typedef struct ry_compare_medium {
    char name[32];
    long long cables;
    double metres;          /* stock lengths summed */
} ry_compare_medium;

/* One switch down (the first of its tier, as whatif --fail names it) and
 * what it leaves; with a workload, the slowdown of the layout kept. */
typedef struct ry_compare_fail {
    int tier;               /* 0: no such tier */
    char name[96];
    double bw_kept;         /* network bandwidth of the slowest HB domain, share kept */
    double fwd_max, fwd_sum;
    long long gpus_cut;     /* GPUs with no NIC port left */
    long long gpus_drained; /* the GPUs of the servers those are in: what draining takes */
    double slowdown;        /* T_iter after over before (modeled designs) */
    int stalled;
} ry_compare_fail;

/* What compare reports of one design: plain numbers, nothing to free.
 * The workload's fields are filled by the caller (the model is not
 * analysis's to run: see ry_compare_spine_failure). */
typedef struct ry_compare_design {
    ry_design design;
    int ok;                 /* 0: not built; err says why */
    char err[640];          /* "key: message" */
    int tiers, radix, subnets;
    long long tier_switches[RY_MAX_TIERS + 1];   /* [1..tiers] */
    ry_tier_entries entries;     /* the fabric.tiers entry of each tier */
    long long switches;
    long long optics;       /* transceiver modules of the cabling plan */
    long long cables;
    int nmedia;
    ry_compare_medium media[RY_COMPARE_MAX_MEDIA];   /* by name */
    int racks, halls;
    double power_w;         /* the layout's racks: servers and switches at their maximum
                             * (a switch's holds the optics in its cages); 0 unknown */
    double switch_price;    /* 0: the capex leaves the switches out */
    double capex_switches, capex_optics, capex_cables, capex_racks, capex_spares;
    double capex, capex_per_gpu;
    /* cost of ownership over `years` (ry_capex): the network's power, its
     * energy and support over the years (energy 0 with power_unknown set) */
    int years, power_unknown;
    /* ports bought and not used: "" or what wastes them (ry_bom_waste);
     * the first switch model without a price */
    char waste[160];
    char unpriced[RY_NAME_MAX];
    ry_price_items prices;      /* the capex's priced items (analysis/sensitivity.h) */
    double network_power_w, own_energy, own_support, own_replace, ownership;
    long long gpus;
    /* the first switch of each tier down, [1..tiers] (the spine's also below) */
    ry_compare_fail fail[RY_MAX_TIERS + 1];
    long long nodes;            /* servers */
    long long gpu_ports;        /* NIC ports cabled */
    /* the expected failures and what they cost (analysis/reliability.h) */
    ry_reliability rel;
    /* one spine switch down (the first switch of tier 2), when there is one */
    int spine;              /* 0: the design has no second tier */
    char spine_name[96];
    double spine_bw_kept;   /* network bandwidth of the slowest HB domain, share kept */
    double spine_fwd_max, spine_fwd_sum;
    long long spine_gpus_cut;
    /* the workload (filled by the caller) */
    int modeled;
    long long t, p, d, cp;  /* the design's best layout (cp: context parallel, 1 none) */
    double iter_s, tokens_per_s, tokens_per_s_per_musd;
    double tokens_per_usd_owned;    /* tokens over the years, at the goodput, per dollar of
                                     * ownership */
    double analytic_iter_s; /* iter_s with the analytic shares of the tapers (no flow engine) */
    double spine_slowdown;  /* T_iter after the spine failure over before */
    int spine_stalled;
} ry_compare_design;

/* Fills out from a built design, and analyses the failure of the first
 * switch of each tier with ry_failure_analyze. */
void ry_compare_design_fill(const ry_design_build *b, ry_compare_design *out);
/* The same without the spine failure (spine fields left 0). */
void ry_compare_design_costs(const ry_design_build *b, ry_compare_design *out);

/* The cheapest design by capex, and the one with the most tokens per
 * second per dollar of capex (among the modeled); -1 when none qualifies.
 * Ties go to the lower ry_design. */
int ry_compare_cheapest(const ry_compare_design *d, int n);
/* d->rel from d's counts and failures (and their slowdowns when modeled),
 * at s's reliability section. */
void ry_compare_reliability(const ry_spec *s, ry_compare_design *d);
int ry_compare_fastest_per_dollar(const ry_compare_design *d, int n);

#endif
