/* InfiniBand link rates: lanes times a lane speed. */
#include "emit/ib_rate.h"

#include <stddef.h>
#include <strings.h>

/* Lane rates by generation, with the names ibnetdiscover prints for them
 * (infiniband-diags' dump_linkspeedext_compat: SDR to NDR in 44.0, XDR from
 * 49.0). */
static const struct { const char *name; double lane; } gen[] = {
    { "SDR", 2.5 }, { "DDR", 5 }, { "QDR", 10 }, { "FDR", 14 }, { "EDR", 25 },
    { "HDR", 50 }, { "NDR", 100 }, { "XDR", 200 },
};

static int ib_width_ok(double w)
{
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 12;
}

static double known_lane(double lane)
{
    for (size_t i = 0; i < sizeof gen / sizeof *gen; i++)
        if (lane == gen[i].lane)
            return lane;
    return 0;
}

void ry_ib_link_width(const ry_spec *s, double gbps, int *width, double *lane)
{
    *width = 0;
    *lane = 0;
    for (size_t i = 0; i < sizeof gen / sizeof *gen; i++)
        if (strncasecmp(s->sw.speed, gen[i].name, 3) == 0) {
            if (ib_width_ok(gbps / gen[i].lane)) {
                *width = (int)(gbps / gen[i].lane);
                *lane = gen[i].lane;
                return;
            }
            break;
        }
    int lanes = 4;
    long long faceplate = (long long)s->sw.cages * (s->sw.cage_ports > 0 ? s->sw.cage_ports : 1);
    if (faceplate > 0 && s->sw.radix > faceplate && s->sw.radix % faceplate == 0 &&
        4 % (s->sw.radix / faceplate) == 0)
        lanes = 4 / (int)(s->sw.radix / faceplate);
    if (known_lane(gbps / lanes) > 0) {
        *width = lanes;
        *lane = gbps / lanes;
    } else if (lanes != 4 && known_lane(gbps / 4) > 0) {
        *width = 4;
        *lane = gbps / 4;
    }
}

const char *ry_ib_lane_name(double lane)
{
    for (size_t i = 0; i < sizeof gen / sizeof *gen; i++)
        if (lane == gen[i].lane)
            return gen[i].name;
    return NULL;
}
