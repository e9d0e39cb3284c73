/* Node names derived from ids (never stored): gpu17, leaf3, spine0, core12,
 * with a "pN-" prefix when the fabric has several planes. */
#ifndef RY_NAMES_H
#define RY_NAMES_H

#include "fabric/fabric.h"

const char *ry_tier_name(int tier, int tiers);
int ry_node_name(const ry_fabric *f, uint32_t id, char *buf, size_t n);

/* Host name of server `node` from the spec's naming pattern; by default
 * node{n1:0W}, W the digits of the server count, at least 3. */
int ry_host_name(const ry_fabric *f, long long node, char *buf, size_t n);

/* With a naming pattern in the spec (naming.node, .leaf, .spine, .core):
 * 0 when every server and switch gets a name of its own, else -1 with err
 * naming the key and the name given twice. Without one: 0 at once (the
 * default names never meet). */
int ry_names_unique(const ry_fabric *f, ry_err *err);

/* NodeDescription of a GPU's NIC port (port id = gpu * planes + plane):
 * "<host> <rdma>", rdma = the node model's name of NIC port i (ry_nic_rdma:
 * its NIC table, else mlx5_<i>), i = GPU index in the node + plane * GPUs per
 * node. */
int ry_ca_desc(const ry_fabric *f, uint32_t gpu_port, char *buf, size_t n);

/* Planned devices by name: a NIC port by its NodeDescription, a switch by
 * its node name. Names are regenerated to compare, never stored. */
typedef struct ry_name_index ry_name_index;
ry_name_index *ry_name_index_new(const ry_fabric *f);
void ry_name_index_free(ry_name_index *ix);
/* The NIC port (gpu * planes + plane) described so, or -1. */
int32_t ry_name_index_nic(const ry_name_index *ix, const char *desc);
/* The switch (node id) so named, or -1. */
int32_t ry_name_index_switch(const ry_name_index *ix, const char *name);

#endif
