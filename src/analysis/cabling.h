/* The cabling plan: one cable per link with its medium and stock length,
 * and the physical bill of materials. */
#ifndef RY_CABLING_H
#define RY_CABLING_H

#include <stdint.h>

#include "fabric/layout.h"
#include "spec/catalog.h"

typedef struct ry_cable {
    uint16_t medium;            /* index into media */
    uint16_t len_idx;           /* index into the medium's lengths */
    float routed_m;             /* routed length plus slack, before rounding up (the
                                 * stock length covers the longest of its group) */
} ry_cable;

/* One line of the physical bill of materials. */
typedef struct ry_pbom_line {
    char what[16];              /* "cable" or "transceiver" */
    char part[48];              /* part with the length code filled in */
    char medium[32];
    double length_m;            /* cables: stock length; transceivers: 0 */
    long long count;
    double unit_price, cost, power_w;
} ry_pbom_line;

typedef struct ry_cabling {
    const ry_fabric *f;
    const ry_layout *lay;
    const ry_medium *media;     /* borrowed from the media catalog */
    int nmedia;
    ry_cable *cables;           /* one per link, indexed by link id */
    ry_pbom_line *bom;          /* sorted: cables by medium and length, then transceivers by part */
    int nbom;
    long long ncables, ntransceivers;
    double cost_cables, cost_transceivers, cost_total, power_w, cable_m;
    double longest_m;           /* the longest routed run, slack included */
} ry_cabling;

/* Chooses media from the catalog (spec/catalog.h: ry_media_catalog_load)
 * and lengths for every link, one medium and length for all the links
 * whose cages are shared (a cage holds one module), and sums the physical
 * BOM. -1 with err set when a forced medium is not in the catalog, links
 * sharing cages are forced onto different media, or a link has no medium
 * of its speed that fits its cages and reaches far enough (the error names
 * the link, its length and the cages). The plan borrows the catalog: free
 * it after the plan. */
int ry_cabling_build(const ry_fabric *f, const ry_layout *lay, const ry_media_catalog *cat,
                     ry_cabling *c, ry_err *err);
void ry_cabling_free(ry_cabling *c);

/* Stock length of a cable, in metres. */
static inline double ry_cable_length(const ry_cabling *c, uint32_t link)
{
    const ry_cable *k = &c->cables[link];
    return c->media[k->medium].lengths[k->len_idx];
}

/* The cable's part number with its length code. */
int ry_cable_part(const ry_cabling *c, uint32_t link, char *buf, size_t n);

/* A switch port's name as the switch's OS writes it, less the slot: cage,
 * port of the cage when a cage holds several, split when ports are split.
 * "17/1" is port 33 of a Quantum-2 QM9700 (MLNX-OS: IB1/17/1), "32/2/1"
 * port 127 of one with every port split (NDR200), "5/2" port 10 of a
 * split QM8700 (HDR100); a port alone in its cage is its number. */
int ry_port_label(const ry_fabric *f, uint32_t port, char *buf, size_t n);
/* The same for port `number` (1-based) of a switch model: every switch of
 * a model names its ports alike (NetBox's interface templates). */
int ry_switch_port_label(const ry_switch_model *sw, int number, char *buf, size_t n);


/* Unique label of a cable, named after its lower end, where it stays when
 * the fabric grows: "<spec name>-<host>-<NIC>" for a NIC's cable
 * ("superpod-node001-mlx5_0"), "<spec name>-<switch>-<port number>" for a
 * switch's uplink ("superpod-leaf3-33"). A cable keeps its label from one
 * phase to the next as long as its lower end stays in place. */
int ry_cable_label(const ry_fabric *f, uint32_t link, char *buf, size_t n);


#endif
