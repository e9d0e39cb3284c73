/* A fabric grown (or shrunk) from one plan to the next: what stays, what
 * is bought, what moves, and what the work cuts off while it is done.
 *
 * The old plan is taken as the fabric that stands: its graph is written as
 * ibnetdiscover would find it (one ry_netfile in memory, each switch
 * described by its name and each NIC by its NodeDescription) and the new
 * plan is verified against it (analysis/verify.h). So a phase is exactly
 * what `verify` of the new plan reports on the old fabric:
 *
 *   kept      a cable of the old plan that the new plan has between the same
 *             two ports (as planned);
 *   moved     an old cable the new plan has with one end elsewhere
 *             (miswired): it is unplugged at one end and plugged in again;
 *   added     a cable of the new plan the old one does not have (missing);
 *   removed   an old cable the new plan does not have (unexpected).
 * Switches are kept when the new plan has a switch of the same name, added
 * or removed otherwise. A kept or moved cable whose medium differs in the
 * new plan, or whose stock length is short of the new plan's, is replaced: a
 * new cable is bought, the old one retired (a longer one stays, its slack in
 * the tray).
 *
 * The work order is one row per cable of the phase, so that its counts are
 * the report's: verify's finding of a cable where it has one (missing:
 * connect, miswired: move, unexpected: remove), else the row the state
 * needs (a cable of a device the new plan drops is removed, which verify
 * words as an unknown device), and a replaced cable's row is "replace".
 * The switches added and removed (sw_old, sw_new) get a row each around
 * these (emit/report/emit_expand.h).
 *
 * A phase grows a fabric of the same servers and switches: ry_expand_check
 * refuses NEW with fewer GPUs or servers than OLD (a shrink retires
 * servers, which the phase does not model), another server model, or a
 * switch kept by name under another model (its ports are another chassis's,
 * so its cables are not where they were).
 *
 * Money is split by item, at list prices: a switch at its model's price, a
 * cable at its share of the cabling plan's bill (its cable, plus the
 * modules of its medium over the links of that medium), so that bought +
 * reused of the new plan are its switches, optics and cables exactly.
 *
 * Ownership: the expansion borrows both fabrics and cabling plans;
 * ry_expand_free frees what ry_expand_run allocated (NULL-safe). */
#ifndef RY_EXPAND_H
#define RY_EXPAND_H

#include <stdint.h>

#include "analysis/bom.h"
#include "analysis/cabling.h"
#include "analysis/verify.h"
#include "fabric/fabric.h"
#include "ibfmt/netfile.h"

typedef enum {
    RY_XC_KEPT, RY_XC_MOVED, RY_XC_ADDED, RY_XC_REMOVED, RY_XC_N
} ry_xc_state;

/* Link tiers: 0 node–leaf, 1 leaf–spine, 2 spine–core, ... (the lower end's tier). */
#define RY_XT_N (RY_MAX_TIERS + 1)

typedef struct ry_x_money {
    double bought, reused, retired;
} ry_x_money;

typedef struct ry_expand {
    const ry_fabric *old, *new;
    const ry_cabling *oc, *nc;          /* borrowed */
    ry_netfile nf;                      /* the old fabric as found */
    uint32_t *nf_port;                  /* per netfile port: the old plan's port id */
    ry_verify v;                        /* the new plan against nf */
    int32_t *old_of_new;                /* per new link: the old link it reuses (kept or
                                         * moved), or -1 (added) */
    uint8_t *old_state;                 /* per old link: ry_xc_state */
    uint8_t *new_state;                 /* per new link: ry_xc_state */
    uint8_t *replaced;                  /* per new link: 1 when its old cable is replaced */
    int32_t *sw_new;                    /* per old switch (node - first_switch): the new
                                         * switch of its name, or -1 (removed) */
    int32_t *sw_old;                    /* per new switch: the old one, or -1 (added) */
    /* Counts: switches per [state][tier] (kept, added, removed; tier 1..),
     * cables per [state][link tier]. */
    long long sw[RY_XC_N][RY_XT_N];
    long long cab[RY_XC_N][RY_XT_N];
    long long replaced_n[RY_XT_N];
    ry_x_money sw_money, cab_money;     /* switches; cables and optics */
    /* The capex and cost of ownership (analysis/bom.h) of each phase as
     * bom prices it: what the network costs to run before and after. */
    ry_capex capex_old, capex_new;
    /* Downtime while the phase is cabled: old links taken down (moved,
     * removed, replaced) per link tier and per rail (rails + 1 slots: the
     * last for links of no one rail), of the old links there. */
    long long *down, *links;            /* [tier * (rails + 1) + rail slot] */
    int rails;
    long long gpus_cut;                 /* GPUs with a NIC port that loses its path */
    long long *gpus_cut_rail;           /* per rail */
    long long ports_cut;                /* NIC ports that lose their path */
    long long leaves_isolated;          /* leaves whose every uplink is taken down */
    /* Devices the new layout puts in another rack or rack unit (the layout
     * keeps the upper tiers' rows in the middle of a hall, so a grown hall
     * shifts rows): kept switches, and servers of the old plan. */
    long long relocated_switches, relocated_servers, servers;
    /* Servers the new plan names otherwise (a wider host number: node999,
     * node1000); a server is its place in the plan, so it is still itself. */
    long long renamed_servers;
    /* The work order: verify's findings and rows of the phase's own (see
     * above), work_replace[i] 1 for a replaced cable's row. */
    ry_vf_finding *work;
    uint8_t *work_replace;
    size_t nwork;
    long long wo_connect, wo_move, wo_remove, wo_replace;
} ry_expand;

/* 0 when NEW is a growth of OLD that a phase models, else -1 with err set:
 * its key the NEW spec's key that changed ("cluster.nodes", "cluster.node",
 * "fabric.switch" or "fabric.tiers.N.switch"). */
int ry_expand_check(const ry_fabric *old, const ry_fabric *new, ry_err *err);

/* Compares new with old. -1 with err set when ry_expand_check refuses or
 * the plans cannot be compared (verify's reasons: too few hosts named
 * alike, a name twice). */
int ry_expand_run(const ry_fabric *old, const ry_cabling *oc, const ry_fabric *new,
                  const ry_cabling *nc, ry_expand *x, ry_err *err);
void ry_expand_free(ry_expand *x);

/* 1 when the new layout puts old node `old_node` (kept as new_node) in
 * another rack or rack unit. */
int ry_expand_relocated(const ry_expand *x, uint32_t old_node, uint32_t new_node);

/* The old plan's link of a netfile port's cable, or -1. */
int32_t ry_expand_old_link(const ry_expand *x, ry_vf_port p);

/* Short names of the link tiers: "node-leaf", "leaf-spine", "spine-core". */
const char *ry_link_tier_name(const ry_fabric *f, int tier, char *buf, size_t n);

#endif
