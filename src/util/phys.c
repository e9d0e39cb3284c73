#include "util/phys.h"

#include <string.h>
#include <strings.h>

/* Names as infiniband-diags prints them (dump_linkspeedext_compat: SDR to
 * NDR in 44.0, XDR from 49.0); NetBox's types as its interface list has
 * them. */
const ry_ib_gen ry_ib_gens[RY_IB_NGENS] = {
    [RY_IB_SDR] = { "SDR", "infiniband-sdr", 2.5 },
    [RY_IB_DDR] = { "DDR", "infiniband-ddr", 5 },
    [RY_IB_QDR] = { "QDR", "infiniband-qdr", 10 },
    [RY_IB_FDR10] = { "FDR10", NULL, 10 },
    [RY_IB_FDR] = { "FDR", "infiniband-fdr", 14 },
    [RY_IB_EDR] = { "EDR", "infiniband-edr", 25 },
    [RY_IB_HDR] = { "HDR", "infiniband-hdr", 50 },
    [RY_IB_NDR] = { "NDR", "infiniband-ndr", 100 },
    [RY_IB_XDR] = { "XDR", "infiniband-xdr", 200 },
};

const ry_ib_gen *ry_ib_gen_of_speed(const char *speed)
{
    for (int i = 0; i < RY_IB_NGENS; i++)
        if (i != RY_IB_FDR10 && strncasecmp(speed, ry_ib_gens[i].name, 3) == 0)
            return &ry_ib_gens[i];
    return NULL;
}

const ry_ib_gen *ry_ib_gen_of_lane(double lane)
{
    for (int i = 0; i < RY_IB_NGENS; i++)
        if (lane == ry_ib_gens[i].lane)
            return &ry_ib_gens[i];
    return NULL;
}

const ry_cage ry_cages[] = {
    { "osfp", 8, { NULL, NULL }, "osfp", { 400, 800 } },
    { "qsfp-dd", 8, { "qsfp56", "qsfp28" }, "qsfpdd", { 100, 200, 400, 800 } },
    { "qsfp112", 4, { "qsfp56", "qsfp28" }, "qsfp112", { 400 } },
    { "qsfp56", 4, { "qsfp28", NULL }, "qsfp56", { 200 } },
    { "qsfp28", 4, { NULL, NULL }, "qsfp28", { 100 } },
    { "qsfp", 4, { NULL, NULL }, "qsfpp", { 40 } },
};
const size_t ry_ncages = sizeof ry_cages / sizeof *ry_cages;

const ry_cage *ry_cage_named(const char *name)
{
    for (size_t i = 0; i < ry_ncages; i++)
        if (strcmp(name, ry_cages[i].name) == 0)
            return &ry_cages[i];
    return NULL;
}

int ry_cage_lanes(const char *connector)
{
    const ry_cage *c = ry_cage_named(connector);
    if (c)
        return c->lanes;
    return strstr(connector, "osfp") || strstr(connector, "dd") ? 8 : 4;
}

int ry_cage_fits(const char *cage, const char *plug)
{
    if (!cage[0] || !plug[0] || strcmp(cage, plug) == 0)
        return 1;
    const ry_cage *c = ry_cage_named(cage);
    for (int i = 0; c && i < 2; i++)
        if (c->takes[i] && strcmp(plug, c->takes[i]) == 0)
            return 1;
    return 0;
}
