/* Which prices move a capex, and by how much: the capex's priced items
 * (each switch model, each optics part, each cable medium) with their
 * share of the hardware at list prices and a range of prices (the spec's
 * cost.range_switches, cost.range_optics, cost.range_cables: percent
 * below and above list). Changing one item's price by a factor f changes
 * the capex by (f - 1) x its cost x (1 + cost.spares / 100): spares are a
 * share of the hardware, racks are not priced by item. */
#ifndef RY_SENSITIVITY_H
#define RY_SENSITIVITY_H

#include "analysis/bom.h"
#include "analysis/cabling.h"

#define RY_PRICE_MAX_ITEMS 48

typedef enum { RY_PRICE_SWITCH, RY_PRICE_OPTICS, RY_PRICE_CABLE } ry_price_kind;

typedef struct ry_price_item {
    ry_price_kind kind;
    char name[48];              /* switch model, optics part, cable medium */
    double cost;                /* its hardware at list prices */
    double range;               /* percent below and above list */
} ry_price_item;

typedef struct ry_price_items {
    int n;
    ry_price_item item[RY_PRICE_MAX_ITEMS];
    double total;               /* the capex */
    double spares_pct;
    char unpriced[48];          /* the first item with no price (not in item[]), or "" */
} ry_price_items;

/* The items of capex x (with its cabling plan c), at s's ranges. Items
 * past RY_PRICE_MAX_ITEMS are left out (none in the catalog's designs). */
void ry_price_items_of(const ry_spec *s, const ry_capex *x, const ry_cabling *c,
                       ry_price_items *out);

/* The capex with the items of kind `kind` named `name` (NULL: every item
 * of the kind) at f times their list price. */
double ry_price_total_with(const ry_price_items *p, ry_price_kind kind, const char *name,
                           double f);

/* "switch", "optics", "cable". */
const char *ry_price_kind_name(ry_price_kind k);
/* A kind's range, percent: the spec's cost.range_switches, _optics or
 * _cables. */
double ry_price_range(const ry_spec *s, ry_price_kind k);
/* The spec key of a kind's range. */
const char *ry_price_range_key(ry_price_kind k);

#endif
