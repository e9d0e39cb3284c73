/* A Linux forwarding table as `ip -j route show` prints it (iproute2's
 * JSON): each route's destination and the interfaces of its next hops. Read
 * from the text alone, sharing nothing with src/fabric, so a check built on
 * it is independent of railyard's own plan. */
#ifndef RY_KROUTES_H
#define RY_KROUTES_H

#include <stddef.h>

#include "util/diag.h"

/* The largest dump read (a switch's table of a large fabric is a few MiB);
 * a larger file is refused before it is read. */
#define RY_KROUTES_MAX_BYTES (256LL << 20)

typedef struct ry_kroute {
    char dst[48];       /* "10.0.0.16/31"; a host route as printed, "10.255.0.5" */
    char proto[16];     /* "bgp", "kernel", ... ("" when not printed) */
    int first, n;       /* its next hops' devices: dev[first .. first + n) */
} ry_kroute;

typedef struct ry_kroutes {
    ry_kroute *r;  size_t nr;
    char (*dev)[16]; size_t ndev;
} ry_kroutes;

/* Reads path (a regular file: io/input.h); 0 (k->r allocated, also for
 * no routes), -1 with a "file:line:col: what" error printed (not JSON, not
 * a list of routes, a field of the wrong type, larger than the limit), or
 * -2 when it cannot be read (a FIFO, a device, a directory: an I/O error
 * printed). Time is linear in the file; memory is the file and the routes
 * read from it, never Jansson's tree of more than one route. */
int ry_kroutes_read(const char *path, ry_kroutes *k);
void ry_kroutes_free(ry_kroutes *k);

#endif
