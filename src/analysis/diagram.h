/* What a diagram of a fabric shows: the views, and for the aggregated ones
 * the boxes and bundles that emit/topo/emit_dot.c draws.
 *
 * Views: summary (each tier's switches in a few boxes, HB domains in a few
 * more, bundles of links between them), rail=N (the switches that carry one
 * rail), unit=N (one scalable unit and what it reaches above) and full
 * (every node and link; small fabrics only). The aggregated views walk the
 * graph once into boxes (a set of switches of one tier and plane, or a set
 * of HB domains) and bundles (the links between two boxes): a fabric of a
 * million GPUs gives a few dozen boxes, and every count on the drawing is a
 * count of the graph's nodes and links, not a formula.
 *
 * Ownership: ry_diagram_build returns a heap object that owns its arrays;
 * ry_diagram_free (NULL-safe) frees it. The fabric is borrowed and must
 * outlive the diagram. Deterministic: same fabric and view, same boxes and
 * bundles in the same order. */
#ifndef RY_DIAGRAM_H
#define RY_DIAGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"

typedef enum { RY_VIEW_SUMMARY, RY_VIEW_RAIL, RY_VIEW_UNIT, RY_VIEW_FULL } ry_view_kind;

typedef struct ry_view {
    ry_view_kind kind;
    long long n;        /* the rail, or the unit from 0 (unit=N on the command line is N-1) */
} ry_view;

/* Nodes (GPUs and switches) above which the full view needs --force. */
#define RY_DRAW_FULL_LIMIT 2000

/* Parses "summary", "rail=N", "unit=N" or "full": 0, -1 for an unknown view
 * name, -2 for a rail= or unit= without a whole number. */
int ry_view_parse(const char *text, ry_view *v);

/* 0 when the view exists in f; else -1 with msg saying what exists. */
int ry_view_check(const ry_fabric *f, const ry_view *v, char *msg, size_t n);

/* The views a fabric has, for messages: "summary, rail=N (N = 0-7), ...". */
void ry_view_list(const ry_fabric *f, char *buf, size_t n);

/* A box: switches of one tier and plane, or HB domains. */
typedef struct ry_diagram_box {
    uint64_t tag;           /* sort key: tier (top first), plane, column */
    int hb;                 /* HB domains (GPUs), not switches */
    int single;             /* one switch or one HB domain, drawn by name */
    uint32_t first;         /* first switch, or first GPU */
    int tier, plane;
    long long count;        /* switches, or HB domains */
    long long gpus;         /* GPUs drawn (HB boxes) */
    long long dom_lo, dom_hi;
    int rail_lo, rail_hi;   /* rails carried; -1 none */
    int unit_lo, unit_hi;   /* scalable units (leaves of rail designs, HB domains); -1 none */
    int grp_lo, grp_hi;     /* pods (tier 2) or blocks (higher) */
    int cells;              /* unit view: one port cell per rail and plane */
    int32_t pair;           /* fabric.homing dual-tor or dual-plane: the leaf box of
                             * the other plane of the ToR pair (planes 2i and 2i + 1,
                             * the same rails and units), else -1 */
} ry_diagram_box;

/* A bundle: the links between two boxes (to one port cell of the lower). */
typedef struct ry_diagram_bundle {
    uint64_t key;
    int up, down;           /* boxes */
    int port;               /* GPU port cell on the lower box, or -1 */
    long long n;
    double gbps;            /* sum over the links */
    double speed;           /* of each link; -1 when they differ */
    int rail;               /* the cables' rail; -1 several */
    int quiet;              /* drawn without a label: a note stands for it, or
                               the box's text counts it */
} ry_diagram_bundle;

/* Many lines between two tiers, all alike, get one note in the legend
 * instead of a label each: labels of crossing lines are hard to tell apart.
 * n == 0: no note for that tier. */
typedef struct ry_diagram_note {
    long long n;            /* links in each line */
    double speed, gbps;     /* of each link; of each line */
} ry_diagram_note;

typedef struct ry_diagram {
    const ry_fabric *f;     /* borrowed */
    ry_view v;
    int K, gpn, S;          /* GPUs per HB domain, per node; HB domains per unit */
    long long domains;
    /* aggregated views only (none for the full view): */
    ry_diagram_box *bx;     /* switch boxes [0, nsbx), then HB boxes [nsbx, nbx) */
    size_t nbx, nsbx;
    ry_diagram_bundle *bd;  /* by key: upper box, lower box, port */
    size_t nbd;
    ry_diagram_note note[RY_MAX_TIERS + 1];     /* by upper tier */
} ry_diagram;

/* The boxes and bundles of view v of f (v must pass ry_view_check). The
 * full view gets the fabric and view only: it draws the graph itself. */
ry_diagram *ry_diagram_build(const ry_fabric *f, const ry_view *v);
void ry_diagram_free(ry_diagram *d);

/* The cable rail of a link, as the cabling plan colours it: the GPU's rail
 * on a server's cable; above, the upper switch's when it serves one rail;
 * -1 for several. */
int ry_diagram_link_rail(const ry_node *lo, const ry_node *hi);

#endif
