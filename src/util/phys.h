/* The physical vocabulary every room reads: InfiniBand generations and
 * the cages (form factors) of switch and NIC ports. One table each, so a
 * generation or a form factor is added in one row. It sits in util/
 * because ibfmt/ (a peer of spec/) reads the generations too.
 *
 * Adding a generation: a row in ry_ib_gens and its enum below (slowest
 * first). Adding a cage: a row in ry_cages (phys.c). */
#ifndef RY_PHYS_H
#define RY_PHYS_H

#include <stddef.h>

/* InfiniBand lane speeds, slowest first: the name ibnetdiscover prints
 * ("4xNDR") and the data rate of one lane in Gb/s. FDR10 (FDR signalling at
 * QDR's data rate) is a lane speed of the wire only, never a generation a
 * catalog names (ry_ib_gen_of_speed skips it). */
typedef enum {
    RY_IB_SDR, RY_IB_DDR, RY_IB_QDR, RY_IB_FDR10, RY_IB_FDR, RY_IB_EDR, RY_IB_HDR, RY_IB_NDR,
    RY_IB_XDR, RY_IB_NGENS
} ry_ib_gen_id;

typedef struct ry_ib_gen {
    const char *name;           /* "NDR" */
    const char *netbox;         /* NetBox's interface type: "infiniband-ndr", or NULL */
    double lane;                /* Gb/s of one lane: NDR 100 */
} ry_ib_gen;

extern const ry_ib_gen ry_ib_gens[RY_IB_NGENS];

/* The generation a speed as written names by its first three letters, any
 * case ("NDR200" and "ndr" are NDR), or NULL. */
const ry_ib_gen *ry_ib_gen_of_speed(const char *speed);
/* The first generation whose lane runs at lane Gb/s, or NULL. */
const ry_ib_gen *ry_ib_gen_of_lane(double lane);

/* Cages by form factor, as a catalog's connector names them. */
typedef struct ry_cage {
    const char *name;           /* "qsfp-dd" */
    int lanes;                  /* electrical lanes: 8 (OSFP, QSFP-DD) or 4 */
    const char *takes[2];       /* older plugs it takes besides its own, or NULL */
    const char *netbox;         /* its name in NetBox's interface types ("qsfpdd") */
    double gbps[4];             /* port rates NetBox has a type for (0 ends) */
} ry_cage;

extern const ry_cage ry_cages[];
extern const size_t ry_ncages;

/* The cage named name, or NULL. */
const ry_cage *ry_cage_named(const char *name);
/* Lanes of a cage named connector: the table's, and for a name not in it 8
 * when it is a variant of an 8-lane form factor ("osfp-rhs": it holds
 * "osfp" or "dd"), else 4. */
int ry_cage_lanes(const char *connector);
/* Whether a cage of form factor cage takes a plug of form factor plug: the
 * same one, or an older one it takes (QSFP112 and QSFP-DD cages take QSFP56
 * and QSFP28 plugs, QSFP56 cages QSFP28 ones). A form factor nobody gave
 * ("") fits everything. */
int ry_cage_fits(const char *cage, const char *plug);

#endif
