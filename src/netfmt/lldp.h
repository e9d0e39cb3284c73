/* LLDP neighbour tables, as a switch (or a server) reports who is at the
 * other end of each of its interfaces. Two formats are read:
 *
 *   lldpd's JSON     `lldpcli -f json show neighbors`: lldp.interface is an
 *                    object (one interface) or a list of one-key objects,
 *                    each interface's chassis keyed by the system name (or
 *                    holding "id" alone when none was sent) and its port
 *                    with an id (type, value) and a descr. The file may
 *                    hold `lldpcli -f json show chassis` first (the two
 *                    outputs one after the other): its local-chassis names
 *                    the device whose table it is.
 *   SONiC's table    `show lldp table` (sonic-utilities scripts/lldpshow: a
 *                    tabulate "simple" table under the line of capability
 *                    codes: LocalPort RemoteDevice RemotePortID Capability
 *                    RemotePortDescr, a dashed rule whose dash runs give the
 *                    columns, then "Total entries displayed:  N").
 *
 * Neither neighbour table names its own device, so the device is the
 * local-chassis of a show chassis in the file, else the file's name without
 * its directory and extension (leaf3.json, leaf3.txt: leaf3).
 *
 * Read from the text alone, sharing nothing with src/fabric, like
 * ibfmt/netfile.h. ry_lldp_read returns heap strings that ry_lldp_free
 * frees (NULL-safe on a zeroed table, also after a failure); the
 * neighbours' strings live in blocks of the table's own, so a row costs its
 * record and its text, not five allocations.
 *
 * Time is linear in the file, and lines are counted once. Memory: SONiC's
 * table is read a line at a time (its rows alone are kept); the JSON file is
 * held, and Jansson reads one interface of it at a time, never a tree of a
 * whole document (railyard(1) LIMITS states the bytes per byte). */
#ifndef RY_LLDP_H
#define RY_LLDP_H

#include <stddef.h>

/* The largest table read (a 512-port switch's JSON is about 1 MiB); a
 * larger file is refused before it is read. */
#define RY_LLDP_MAX_BYTES (64LL << 20)
/* The longest line of SONiC's table (its rows are under 200 characters). */
#define RY_LLDP_MAX_LINE 4096

typedef struct ry_lldp_nbr {
    char *lport;        /* the local interface */
    char *rsys;         /* the neighbour's system name, "" when it sent none */
    char *rchassis;     /* its chassis id ("2e:dd:3e:ea:32:45"), "" when not given */
    char *rport_id;     /* its port id (a MAC for lldpd on Linux, else the name) */
    char *rport_descr;  /* its port description (lldpd on Linux: the interface name), "" */
    int rport_is_name;  /* 1 when the port id's subtype says it is a name (ifname, local) */
    int line;           /* where the entry starts */
} ry_lldp_nbr;

typedef struct ry_lldp {
    char *path;
    char *local;        /* the device whose table it is */
    char *local_chassis;/* its chassis id from show chassis, or "" */
    ry_lldp_nbr *n;
    size_t nn;
    struct ry_lldp_chunk *chunks;   /* private: the neighbours' strings */
} ry_lldp;

/* 1 when path starts like an LLDP table of either format (a '{', or
 * SONiC's header line), 0 when not (ibnetdiscover's text), -1 when it
 * cannot be read (the reader then reports why). */
int ry_lldp_sniff(const char *path);

/* Reads path. 0, or -1 with a "file:line:col: what, expected what" error
 * printed (RY_EXIT_INPUT), or -2 when it cannot be read (an I/O error
 * printed, RY_EXIT_IO). */
int ry_lldp_read(const char *path, ry_lldp *t);
void ry_lldp_free(ry_lldp *t);

#endif
