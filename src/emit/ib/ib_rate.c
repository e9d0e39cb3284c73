/* InfiniBand link rates: lanes times a lane speed. */
#include "emit/ib/ib_rate.h"

#include "analysis/cabling.h"

#include <stddef.h>

#include "util/phys.h"

/* Lane rates by generation: util/phys.h's table. */

static int ib_width_ok(double w)
{
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 12;
}

static double known_lane(double lane)
{
    return ry_ib_gen_of_lane(lane) ? lane : 0;
}

void ry_ib_link_width(const ry_switch_model *sw, int split, double gbps, int *width,
                      double *lane)
{
    *width = 0;
    *lane = 0;
    const ry_ib_gen *g = ry_ib_gen_of_speed(sw->speed);
    if (g && ib_width_ok(gbps / g->lane)) {
        *width = (int)(gbps / g->lane);
        *lane = g->lane;
        return;
    }
    int lanes = 4, cp, k;
    ry_switch_cage_shape(sw, &cp, &k);
    k *= split > 1 ? split : 1;
    if (k > 1 && 4 % k == 0)
        lanes = 4 / k;
    if (known_lane(gbps / lanes) > 0) {
        *width = lanes;
        *lane = gbps / lanes;
    } else if (lanes != 4 && known_lane(gbps / 4) > 0) {
        *width = 4;
        *lane = gbps / 4;
    }
}

void ry_ib_link_rate(const ry_fabric *f, uint32_t link, int *width, double *lane)
{
    double gbps = ry_link_gbps(f, link);
    uint32_t end[2] = { f->links[link].lo, f->links[link].hi };
    *width = 0;
    *lane = 0;
    for (int i = 0; i < 2; i++) {
        const ry_node *n = ry_port_node(f, end[i]);
        if (n->kind != RY_NODE_SWITCH)
            continue;
        int sub, split, w;
        double l;
        ry_switch_port_phys(f, n, end[i] - n->port0, &sub, &split);
        ry_ib_link_width(ry_node_model_of(f, n), split, gbps, &w, &l);
        /* the slower generation of the two ends: what both run */
        if (w && (*lane == 0 || l < *lane)) {
            *width = w;
            *lane = l;
        }
    }
}

const char *ry_ib_lane_name(double lane)
{
    const ry_ib_gen *g = ry_ib_gen_of_lane(lane);
    return g ? g->name : NULL;
}
