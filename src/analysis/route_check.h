/* An independent check of a fabric's unicast routes: given a topology and
 * the switches' linear forwarding tables (both read from files, not from
 * railyard's graph), follow every end port's route to every end-port LID and
 * prove that each arrives, never revisits a switch, takes a shortest path, and
 * that the routes together have no credit loop; then measure how evenly the
 * routes spread over the links.
 *
 * Routes to one LID form a tree, so each switch's next hop is resolved once
 * per destination (memoised, with colouring to find loops) instead of walking
 * every pair: the cost is about destinations x switches, not pairs x hops.
 *
 * Nothing here prints: ry_route_check fills a ry_rc_result, and
 * emit/report/emit_route_check.h turns it into the text, JSON or CSV report.
 * Ownership: the result owns every array it points to (per_tier, ep_port,
 * hops, cycle, groups, the examples and their paths); ry_route_check_free
 * releases them all and leaves a zeroed struct. Node and port numbers in it
 * index the ry_netfile the check was given, which the caller keeps alive
 * for as long as it reports the result. */
#ifndef RY_ROUTE_CHECK_H
#define RY_ROUTE_CHECK_H

#include <stdint.h>

#include "ibfmt/lftfile.h"
#include "ibfmt/netfile.h"
#include "util/diag.h"

#define RY_RC_SHIFTS_AUTO (-2)  /* all shifts up to RY_RC_SHIFTS_ALL_MAX end ports */
#define RY_RC_SHIFTS_ALL (-1)
#define RY_RC_SHIFTS_ALL_MAX 4096
#define RY_RC_SHIFTS_DEFAULT 256  /* evenly spaced shifts above that */

typedef struct ry_rc_opts {
    int shifts;        /* RY_RC_SHIFTS_AUTO, RY_RC_SHIFTS_ALL, 0 (none) or a count */
    int max_report;    /* failing routes listed per check */
    int updown;        /* judge against up*-down* paths (below) */
} ry_rc_opts;

/* Up-down mode, for tables routed around failures. Switches are ranked
 * 1 + hops from the nearest leaf (a switch with end ports); an up*-down*
 * path climbs to higher ranks, then only descends. A source whose switch
 * has no such path to the destination's leaf may go without a route: that
 * pair is counted in `unroutable`, not as stopped (a loop still fails). A
 * delivered route is non-minimal when it is longer than the shortest
 * up-down path (a shorter valley path does not count against it). The
 * default mode is stricter: every pair must arrive on a shortest path. */

/* Why a route does not arrive. */
typedef enum {
    RY_RC_OK = 0,
    RY_RC_NO_ENTRY,     /* the switch's LFT has no entry for the LID */
    RY_RC_PORT0,        /* port 0 at a switch that is not the destination */
    RY_RC_UNCONNECTED,  /* the LFT port has no link */
    RY_RC_WRONG_END,    /* the LFT port leads to another end port */
    RY_RC_NO_SWITCH,    /* the source's link leads to an end port, not a switch */
    RY_RC_LOOP,         /* the route comes back to a switch */
    RY_RC_NREASONS
} ry_rc_reason;

/* One route reported as failing. */
typedef struct ry_rc_example {
    int src, dst;       /* end ports: indices into ry_rc_result.ep_port */
    int dst_lid;
    ry_rc_reason reason;
    int at;             /* topology node where the route stopped or looped */
    int port;           /* the LFT's port there, -1 for none */
    int hops, shortest; /* in links, for non-minimal routes */
    int *path;          /* topology port indices: the switch ports the route leaves by */
    int npath;
} ry_rc_example;

typedef enum { RY_RC_UP = 0, RY_RC_DOWN, RY_RC_LEVEL } ry_rc_dir;

/* Routes per directed link, for the links from one tier to another
 * (tier 0 = end ports, 1 = leaves, ...; -1 = switches no end port reaches). */
typedef struct ry_rc_group {
    int from, to;
    ry_rc_dir dir;      /* from < to: up; from > to: down */
    long long links;
    unsigned long long min, max, sum;
} ry_rc_group;

typedef struct ry_rc_result {
    /* the fabric as read */
    int switches, end_ports, dest_lids, tiers;
    int *per_tier;                /* [tiers + 1]: switches per tier; [0] = unranked */
    int *ep_port;                 /* [end_ports]: topology port of each, by LID */
    /* 1, 2: every ordered pair (source end port, destination LID) */
    long long pairs, delivered, stopped, looped;
    int updown;                   /* the mode the check ran in */
    long long unroutable;         /* up-down mode: stopped pairs with no up-down path */
    long long reason[RY_RC_NREASONS];
    /* 3 */
    long long nonminimal;
    long long *hops;              /* [max_hops + 1]: delivered routes by length in links */
    int max_hops;
    /* 4: channels are directed switch-to-switch links */
    int channels;
    long long dependencies;
    int *cycle;                   /* switch ports (topology indices) around one cycle */
    int cycle_len;
    /* 5 */
    ry_rc_group *groups;
    int ngroups;
    int shift_count, shift_all, shift_worst;
    unsigned long long shift_max;
    double shift_mean;
    /* failing routes, the first max_report of each kind by destination LID then
     * source LID */
    ry_rc_example *stops, *loops, *longer;
    int nstops, nloops, nlonger;
} ry_rc_result;

/* Runs every check; 0, and r needs ry_route_check_free. -1 with err set
 * (r zeroed, nothing to free) when the topology has no end port, so no
 * route to check. Anything else the parsers accepted is checked. */
int ry_route_check(const ry_netfile *nf, const ry_lft *lft, const ry_rc_opts *o,
                   ry_rc_result *r, ry_err *err);
void ry_route_check_free(ry_rc_result *r);

/* 1 when checks 1-4 hold. */
int ry_route_check_ok(const ry_rc_result *r);

#endif
