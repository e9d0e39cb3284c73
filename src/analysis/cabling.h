/* The cabling plan: one cable per link with its medium and stock length,
 * and the physical bill of materials. */
#ifndef RY_CABLING_H
#define RY_CABLING_H

#include <stdint.h>

#include "fabric/layout.h"

typedef enum { RY_MEDIA_DAC, RY_MEDIA_LACC, RY_MEDIA_AOC, RY_MEDIA_MMF, RY_MEDIA_SMF } ry_media_kind;

typedef struct ry_media_end {   /* what plugs into a cage at one end */
    char part[40];
    int ports;                  /* ports one unit serves: 2 = twin-port */
    double price, power;        /* USD and W per unit */
} ry_media_end;

typedef struct ry_medium {
    char name[32];
    char description[128];
    int kind;                   /* ry_media_kind */
    double speeds[8];           /* Gb/s */
    int nspeeds;
    double lengths[32];         /* stock lengths, ascending; the last is the reach */
    int nlengths;
    char cable_part[40];        /* may hold "{len}" */
    double cable_price, cable_price_per_m;
    double power;               /* W per end, active cables */
    int has_switch_end, has_node_end;
    ry_media_end switch_end, node_end;
} ry_medium;

typedef struct ry_cable {
    uint16_t medium;            /* index into media */
    uint16_t len_idx;           /* index into the medium's lengths */
    float routed_m;             /* routed length plus slack, before rounding up */
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
    ry_medium *media;
    int nmedia;
    ry_cable *cables;           /* one per link, indexed by link id */
    ry_pbom_line *bom;          /* sorted: cables by medium and length, then transceivers by part */
    int nbom;
    long long ncables, ntransceivers;
    double cost_cables, cost_transceivers, cost_total, power_w, cable_m;
} ry_cabling;

/* Loads templates/media.yaml from the catalog directory; NULL on error
 * (printed with file:line:col). */
int ry_media_load(const char *templates_dir, ry_medium **media, int *nmedia);

/* Chooses media and lengths for every link and sums the physical BOM.
 * -1 with err set when a link has no medium of its speed long enough
 * (the error names the link and its length). */
int ry_cabling_build(const ry_fabric *f, const ry_layout *lay, ry_medium *media, int nmedia,
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

/* A switch port's name on the faceplate: "17/1" for port 33 of a switch
 * whose cages hold two ports, else the port number. */
int ry_port_label(const ry_fabric *f, uint32_t port, char *buf, size_t n);

/* Unique label of a cable: "<spec name>-<link number, 1-based, 6 digits>". */
int ry_cable_label(const ry_fabric *f, uint32_t link, char *buf, size_t n);

const char *ry_media_kind_name(int kind);

#endif
