/* A fabric topology read from ibnetdiscover output or an ibsim netfile:
 * nodes with their ports, the links between ports, GUIDs and LIDs. It is
 * read from the text alone and shares nothing with src/fabric, so checks
 * built on it are independent of railyard's own builder. */
#ifndef RY_NETFILE_H
#define RY_NETFILE_H

/* The largest topology file read: a subnet of 49,151 LIDs takes a few tens
 * of MiB; past this the file is refused, not read on (a named pipe or
 * /dev/zero never ends). Memory is a small multiple of the file's size: a
 * port costs a record only when a line lists it, and the counts, kept in
 * int, cannot reach INT_MAX within this size (a node or port takes at least
 * 7 bytes of text); the reader checks it all the same. */
#define RY_NETFILE_MAX_BYTES (1LL << 30)

#include <stdint.h>

#include "util/phys.h"

#define RY_NF_MAX_PORTS 254   /* ports of a node: InfiniBand addresses 1 .. 254 */

typedef enum { RY_NF_SWITCH = 1, RY_NF_CA = 2, RY_NF_ROUTER = 3 } ry_nf_kind;

typedef struct ry_nf_port {
    int node;          /* owning node */
    int num;           /* port number; 0 is a switch's own (management) port */
    int peer;          /* index of the port at the other end of the link, -1 if none */
    int lid;           /* base LID of end ports and of a switch's port 0; 0 = none */
    int lmc;           /* end ports own LIDs lid .. lid + 2^lmc - 1 */
    uint64_t guid;     /* end ports: the port GUID; switch ports: the node GUID */
    int line;          /* where the port's link (or a switch's header) was read */
    uint8_t width;     /* lanes of the link's "4xNDR" rate as printed, 0 = not printed */
    uint8_t lane;      /* its lane speed (ry_nf_lane), 0 = not printed */
} ry_nf_port;

/* Lane speeds of the rate words ibnetdiscover prints after a link ("4xNDR"). */
/* util/phys.h's generations, one up: 0 is "not printed". */
typedef enum {
    RY_NF_LANE_NONE = 0, RY_NF_SDR = RY_IB_SDR + 1, RY_NF_DDR, RY_NF_QDR, RY_NF_FDR10, RY_NF_FDR,
    RY_NF_EDR, RY_NF_HDR, RY_NF_NDR, RY_NF_XDR, RY_NF_LANE_N = RY_IB_NGENS + 1
} ry_nf_lane;

/* A node's ports are stored as the file lists them, never as many as its
 * header declares: ports[port0] is port 0 (a switch's own port; a placeholder
 * on an end node), then the listed ports by rising number up to
 * ports[port0 + nrec - 1]. ry_netfile_port finds port p of a node. */
typedef struct ry_nf_node {
    ry_nf_kind kind;
    int nports;        /* physical ports the header declares, a switch's port 0 not counted */
    int port0;         /* index of its port 0 */
    int nrec;          /* port records: port 0 and the listed ports */
    int top;           /* the highest port listed (0: none); top == nrec - 1 when the
                        * ports 1 .. top are all listed, each at ports[port0 + p] */
    uint64_t guid;     /* node GUID */
    char *id;          /* the quoted node id */
    char *desc;        /* the quoted NodeDescription of the comment, or NULL */
    int line;
} ry_nf_node;

typedef struct ry_netfile {
    char *path;
    ry_nf_node *nodes;
    int nnodes;
    ry_nf_port *ports;
    int nports;
    int max_lid;       /* highest LID owned by any port */
    int *lid_port;     /* [max_lid + 1]: port owning each LID, or -1 */
    uint64_t *gkey;    /* port GUID -> port index (open addressing) */
    int *gval;
    unsigned gmask;
} ry_netfile;

/* Reads a topology. Errors are printed as file:line:col and parsing goes on
 * to report as many as possible. Returns RY_EXIT_OK, RY_EXIT_INPUT or
 * RY_EXIT_IO; nf needs ry_netfile_free in every case. */
int ry_netfile_load(const char *path, ry_netfile *nf);

/* Flags of ry_netfile_load_flags. */
enum {
    RY_NF_LIDS_OPTIONAL = 1   /* a fabric before its subnet manager ran: no LID, or LID 0, is
                               * no error (the port has lid 0) */
};
int ry_netfile_load_flags(const char *path, ry_netfile *nf, unsigned flags);

/* A lane speed's name ("NDR") and its data rate per lane in Gb/s (NDR: 100). */
const char *ry_nf_lane_name(int lane);
double ry_nf_lane_gbps(int lane);
/* The rate of a port's link in Gb/s (width x lane rate), 0 when not printed. */
double ry_nf_port_gbps(const ry_nf_port *p);
void ry_netfile_free(ry_netfile *nf);


/* The port with this port GUID (a switch's node GUID names its port 0), or -1. */
int ry_netfile_port_by_guid(const ry_netfile *nf, uint64_t guid);

/* The node's description, or its id when it has none. */
const char *ry_netfile_name(const ry_netfile *nf, int node);

/* The index of port p of node (0 .. nports), or -1 when the file lists no
 * link on it. A switch with all its ports cabled keeps them in place, so
 * the first guess is the answer; else a binary search of the node's ports. */
int ry_netfile_port_search(const ry_netfile *nf, int node, int p);
static inline int ry_netfile_port(const ry_netfile *nf, int node, int p)
{
    const ry_nf_node *nd = &nf->nodes[node];
    if (p >= 0 && p <= nd->top && nd->top == nd->nrec - 1)
        return nd->port0 + p;
    return ry_netfile_port_search(nf, node, p);
}

static inline int ry_netfile_is_switch(const ry_netfile *nf, int node)
{
    return nf->nodes[node].kind == RY_NF_SWITCH;
}

#endif
