/* The as-built graph of an Ethernet fabric from LLDP neighbour tables, in
 * the form ry_verify_run compares with the plan (one ry_netfile), so an
 * Ethernet fabric gets the same findings, classes, fixes and work order as
 * an InfiniBand one.
 *
 * Given the tables (netfmt/lldp.h: one per device, which names its own
 * device) and the Ethernet plan (interface names):
 *   devices   a system name the plan does not know is read in lower case,
 *             then without its domain (NODE001.cluster.example: node001);
 *             a system name that is a planned switch is that switch; one
 *             that is a planned host is a host, and each of its interfaces
 *             a NIC (a CA of the graph, described as the plan describes the
 *             NIC the netdev names, ry_ca_desc, so verify places it); a
 *             name with a table of its own is a switch verify places by its
 *             cables; any other name is a device the plan does not have. A
 *             neighbour that sent no system name takes the name its chassis
 *             id has elsewhere (a show chassis in a table, or another
 *             table's neighbour), else it is named by the chassis id.
 *   ports     a switch port is numbered as the plan numbers the port of
 *             that name (Ethernet<first lane>): of this switch, else of any
 *             planned switch with a port so named; a name no switch has is
 *             numbered past the switch's ports (never in the plan). Of a
 *             neighbour's port id and description, the one that names a
 *             planned interface of the device is taken (lldpd on Linux
 *             sends the MAC as id and the name as description), else the
 *             id when its subtype is a name, else the description.
 *   cables    each neighbour entry is a cable; seen from both ends it is one.
 *             An interface seen cabled to two different ports fails closed
 *             (tables of different times, or two neighbours on a port).
 * A switch's GUID in the graph is its chassis MAC where a table gives it,
 * a host NIC's port GUID its host's; else a number from 0xffff000000000000
 * up (never a MAC).
 *
 * Ownership: nf is filled with heap memory that ry_netfile_free frees (also
 * after a failure). Nothing is printed. */
#ifndef RY_VERIFY_LLDP_H
#define RY_VERIFY_LLDP_H

#include "fabric/ethplan.h"
#include "ibfmt/netfile.h"
#include "netfmt/lldp.h"
#include "util/diag.h"

/* 0, or -1 with err set and *at the table entry it is about. */
int ry_lldp_graph(const ry_ethplan *pl, const ry_lldp *t, int nt, ry_netfile *nf, ry_err *err,
                  ry_pos *at);

#endif
