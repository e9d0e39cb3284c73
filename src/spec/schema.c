/* The spec schema: the table of keys, the generic reader, defaults and
 * checks that follow from it, and the rules between keys.
 *
 * How to add a key is at the top of schema.h. The table is the reference:
 * railyard-spec(5) documents exactly its rows (tests/spec-keys.sh). A
 * default is written as a spec would write it and read by the same code as
 * a spec's value, so a default always passes its own rules. */
#include "spec/schema.h"

#include "spec/catalog_words.h"
#include "spec/libra_words.h"
#include "spec/pattern.h"
#include "spec/workload_types.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/inet.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_GPUS RY_MAX_GPUS
#define MAX_DOMAIN (1 << 20)    /* GPUs per node or HB domain */
#define MAX_RADIX 65535         /* ports are numbered in 16 bits */
#define MAX_PLANES RY_MAX_PLANES
#define MAX_STRING (RY_NAME_MAX - 1)
#define WIDE_RANGE 1000000      /* integers beyond: "an integer >= min", as ry_yget_int says */

static const char *const design_names[] = { "rail-optimized", "rail-only", "fat-tree", "rack-tor",
                                             NULL };   /* rack-tor: read as a fat tree */
static const char *const homings[] = { "single", "dual-tor", "dual-plane", NULL };  /* RY_HOMING_* */
static const char *const protocols[] = { "infiniband", "ethernet", NULL };
static const char *const ipv6_modes[] = { "off", "static", "slaac", NULL };   /* RY_IPV6_* */
static const char *const qos_profiles[] = { "lossless", "lossy", NULL };       /* RY_QOS_* */
static const char *const cost_models[] = { "paper", NULL };
static const char *const search_objectives[] = { "capex", "ownership", NULL };
static const char *const routing_engines[] = { "file", "ftree", "updn", "minhop", NULL };
static const char *const switch_orders[] = { "unit-major", "rail-major", NULL };
static const char *const routing_words[] = { "static", "ecmp", "adaptive", NULL };
static const char *const hash_seed_words[] = { "per-switch", "same", NULL };
static const char *const algorithm_words[] = { "ring", "tree", "auto", NULL };
static const char *const all_to_all_words[] = { "direct", "hierarchical", NULL };
static const char *const network_places[] = { "per-unit", "end-of-row", "middle-of-row",
                                               "in-rack", NULL };   /* RY_NETWORK_* */
static const char *const flops_conventions[] = { "6NT", "korthikanti", "architecture", NULL };   /* ry_flops_conv */
const char *const ry_recompute_names[] = { "none", "full", "selective", NULL };
const char *const ry_grad_precision_names[] = { "bf16", "fp32", NULL };
const char *const ry_fp8_recipe_names[] = { "delayed", "tensorwise", "blockwise", "mxfp8", NULL };
const char *const ry_mlp_names[] = { "gelu", "swiglu", NULL };

const char *ry_design_name(ry_design d)
{
    return (unsigned)d < 3 ? design_names[d] : "?";
}

const char *ry_spec_design_word(const ry_spec *s)
{
    return s->rack_tor ? design_names[RY_DESIGN_RACK_TOR_WORD] : ry_design_name(s->design);
}

static int read_version(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v);
static int read_budget(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v);
static int parse_quantity(const ry_key *k, const char *text, double *out);
static void quantity_suffixes(const ry_key *k, char *buf, size_t cap);
static int read_cycle_time(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v);
static int read_compute(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v);
static int read_bytes(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v);
static int read_collective(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v);
static int check_host_pattern(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_model_name(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_llm_name(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_fraction(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_slowdown(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_dim_name(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_prefix4(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_prefix6(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);
static int check_placement(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v);

/* Where a row's value goes. */
#define FIELD(type, in_, f) \
    .in = in_, .off = offsetof(type, f), .size = sizeof(((type *)0)->f)
#define SPEC(f) FIELD(ry_spec, RY_IN_SPEC, f)
#define NODE(f) FIELD(ry_node_model, RY_IN_NODE, f)
#define SWITCH(f) FIELD(ry_switch_model, RY_IN_SWITCH, f)
#define WORKLOAD(f) FIELD(ry_workload, RY_IN_WORKLOAD, f)
#define LLM(f) FIELD(ry_llm, RY_IN_LLM, f)
#define LIBRA(f) FIELD(ry_libra_spec, RY_IN_LIBRA, f)
#define DIM(f) FIELD(ry_libra_dim, RY_IN_DIM, f)
#define LAYER(f) FIELD(ry_libra_layer, RY_IN_LAYER, f)
#define PHASE(f) FIELD(ry_libra_phase, RY_IN_PHASE, f)

#define SECTION(name, fl, d) { .key = name, .type = RY_KEY_SECTION, .flags = fl, .doc = d }
#define INT(lo, hi) .type = RY_KEY_INT, .min = lo, .max = hi
#define NUMBER(lo, hi) .type = RY_KEY_NUMBER, .dmin = lo, .dmax = hi
#define ENUM(w) .type = RY_KEY_ENUM, .words = w
#define STRING(len) .type = RY_KEY_STRING, .max = len
#define CUSTOM(what) .type = RY_KEY_CUSTOM, .type_doc = what
#define AUTO_INT(lo, hi) .type = RY_KEY_AUTO_INT, .min = lo, .max = hi
#define READ(fn, what) .read = fn, .type_doc = what

/* The rows of one phase of a libra.layers entry (forward, input_grad,
 * weight_grad): the same keys, each its own row. */
#define PHASE_ROWS(ph, d)                                                                       \
    { .key = "libra.layers[]." ph, CUSTOM("map"), .flags = RY_KEY_READER, .bad = RY_BAD_OTHER, \
      .doc = d },                                                                              \
    { .key = "libra.layers[]." ph ".compute", NUMBER(0, 1e300), READ(read_compute, "time"),    \
      .flags = RY_KEY_READER, PHASE(compute), .def = "0", .bad = RY_BAD_OTHER,                 \
      .doc = "compute time" },                                                                 \
    { .key = "libra.layers[]." ph ".collective", ENUM(ry_coll_names), .read = read_collective, \
      .flags = RY_KEY_READER, PHASE(coll), .def = "none", .bad = RY_BAD_OTHER,                 \
      .doc = "the collective after the compute" },                                             \
    { .key = "libra.layers[]." ph ".bytes", NUMBER(0, 1e300), READ(read_bytes, "size"),        \
      .flags = RY_KEY_READER, PHASE(bytes), .def = "0", .unit = "bytes", .bad = RY_BAD_OTHER,  \
      .doc = "the collective's size" },                                                        \
    { .key = "libra.layers[]." ph ".groups", CUSTOM("group sizes"), .flags = RY_KEY_READER,    \
      .def_doc = "libra.groups." ph ", else from libra.tensor_parallel", .bad = RY_BAD_OTHER,  \
      .doc = "NPUs of the collective's group on each dimension" }

const ry_key ry_spec_keys[] = {
    { .key = "version", INT(1, 1), .read = read_version,
      .doc = "the spec format version; if present it must be 1" },
    { .key = "name", .type = RY_KEY_NAME, .flags = RY_KEY_REQUIRED, SPEC(name),
      .bad = RY_BAD_NAME, .doc = "the cluster's name, used in output file names" },

    SECTION("cluster", RY_KEY_REQUIRED, "the servers: node model and how many"),
    { .key = "cluster.nodes", INT(1, MAX_GPUS), .flags = RY_KEY_READER, .unit = "servers",
      .bad = RY_BAD_GPUS, .doc = "servers; give exactly one of nodes and gpus" },
    { .key = "cluster.gpus", INT(1, MAX_GPUS), .flags = RY_KEY_READER, SPEC(gpus),
      .unit = "GPUs", .bad = RY_BAD_GPUS, .doc = "total GPUs; give exactly one of nodes and gpus" },
    { .key = "cluster.node", CUSTOM("catalog name or map"), .flags = RY_KEY_READER,
      .def_doc = "custom", .bad = RY_BAD_NODE, .doc = "the node (server) model" },
    { .key = "cluster.node.name", STRING(MAX_STRING), .flags = RY_KEY_READER, NODE(name),
      .check = check_model_name,
      .def_doc = "custom", .bad = RY_BAD_NODE,
      .doc = "a catalog entry to start from, or the model's own name" },
    { .key = "cluster.node.gpus_per_node", INT(1, MAX_DOMAIN), NODE(gpus_per_node),
      .def_doc = "the catalog entry's", .unit = "GPUs", .bad = RY_BAD_NODE,
      .doc = "GPUs per server" },
    { .key = "cluster.node.hb_domain", INT(1, MAX_DOMAIN), NODE(hb_domain),
      .def_doc = "the catalog entry's", .unit = "GPUs", .bad = RY_BAD_NODE,
      .doc = "GPUs per high-bandwidth (NVLink) domain" },
    { .key = "cluster.node.nic_speed", .type = RY_KEY_SPEED, NODE(nic_gbps),
      .def_doc = "nic_bandwidth / planes, else the switch's speed", .bad = RY_BAD_NODE,
      .doc = "speed of a GPU's NIC port" },
    { .key = "cluster.node.nic_bandwidth", .type = RY_KEY_SPEED, NODE(nic_total_gbps),
      .def_doc = "nic_speed x planes", .bad = RY_BAD_NODE,
      .doc = "a GPU's NIC bandwidth, split evenly over its planes (a port per plane)" },
    { .key = "cluster.node.description", STRING(0), .bad = RY_BAD_NODE, .doc = "one line" },
    { .key = "cluster.node.rack_units", INT(1, 64), .flags = RY_KEY_ZERO_UNSET, NODE(units),
      .unit = "rack units", .bad = RY_BAD_NODE, .doc = "height of one server" },
    { .key = "cluster.node.planes", INT(1, MAX_PLANES), .flags = RY_KEY_ZERO_UNSET, NODE(planes),
      .def_doc = "1", .bad = RY_BAD_NODE,
      .doc = "NIC ports per GPU the node is built with (cluster.planes's default)" },
    { .key = "cluster.node.per_rack", INT(1, 1024), .flags = RY_KEY_ZERO_UNSET,
      NODE(per_rack), .unit = "servers", .bad = RY_BAD_NODE,
      .doc = "servers per rack, as usually installed" },
    { .key = "cluster.node.power", NUMBER(0, 1e7), NODE(power_w), .def = "0",
      .def_doc = "the catalog entry's, else 0 (unknown)", .unit = "W", .bad = RY_BAD_NODE,
      .doc = "maximum power of one server" },
    { .key = "cluster.node.cage_ports", INT(1, 8), .flags = RY_KEY_ZERO_UNSET,
      NODE(cage_ports), .def_doc = "1", .unit = "ports", .bad = RY_BAD_NODE,
      .doc = "NIC ports per cage: 2 for twin-port OSFP" },
    { .key = "cluster.node.nics", CUSTOM("list of maps"), .flags = RY_KEY_READER,
      .def_doc = "the catalog entry's, else mlx5_<i>", .bad = RY_BAD_NODE,
      .doc = "compute NIC ports in rail order (GPU, then plane)" },
    { .key = "cluster.node.nics[].rdma", STRING(15), .flags = RY_KEY_READER | RY_KEY_REQUIRED,
      .bad = RY_BAD_NODE, .doc = "RDMA device name, as in the NodeDescription" },
    { .key = "cluster.node.nics[].netdev", STRING(15), .flags = RY_KEY_READER,
      .bad = RY_BAD_NODE, .doc = "network interface name" },
    { .key = "cluster.node.nics[].cage", STRING(15), .flags = RY_KEY_READER,
      .bad = RY_BAD_NODE, .doc = "faceplate cage and port label" },
    { .key = "cluster.node.rack_trays", CUSTOM("list of maps"), .flags = RY_KEY_READER,
      .def_doc = "the catalog entry's, else none", .bad = RY_BAD_NODE,
      .doc = "the rack's trays besides its servers (replaces the entry's list)" },
    { .key = "cluster.node.rack_trays[].kind", STRING(31),
      .flags = RY_KEY_READER | RY_KEY_REQUIRED, .bad = RY_BAD_NODE,
      .doc = "the tray's kind, like nvlink-switch-tray" },
    { .key = "cluster.node.rack_trays[].part", STRING(47), .flags = RY_KEY_READER,
      .bad = RY_BAD_NODE, .doc = "model or part name" },
    { .key = "cluster.node.rack_trays[].per_rack", INT(1, 64),
      .flags = RY_KEY_READER | RY_KEY_REQUIRED, .unit = "trays", .bad = RY_BAD_NODE,
      .doc = "trays of the kind in one rack" },
    { .key = "cluster.node.rack_trays[].rack_units", INT(1, 64),
      .flags = RY_KEY_READER | RY_KEY_REQUIRED, .unit = "rack units", .bad = RY_BAD_NODE,
      .doc = "height of one tray" },
    { .key = "cluster.node.rack_trays[].power", NUMBER(0, 1e7), .flags = RY_KEY_READER,
      .def = "0", .def_doc = "0 (unknown)", .unit = "W", .bad = RY_BAD_NODE,
      .doc = "maximum power of one tray" },
    { .key = "cluster.gpus_per_node", INT(1, MAX_DOMAIN), .flags = RY_KEY_READER,
      SPEC(node.gpus_per_node), .def = "8",
      .def_doc = "the node's, else cluster.hb_domain, else 8", .unit = "GPUs",
      .bad = RY_BAD_GPN, .doc = "GPUs per server" },
    { .key = "cluster.hb_domain", INT(1, MAX_DOMAIN), .flags = RY_KEY_READER, SPEC(hb_domain),
      .def = "8", .def_doc = "the node's, else cluster.gpus_per_node", .unit = "GPUs",
      .bad = RY_BAD_HB, .doc = "K, GPUs per high-bandwidth (NVLink) domain" },
    { .key = "cluster.rails", INT(1, MAX_DOMAIN), .flags = RY_KEY_READER, SPEC(rails),
      .def_doc = "cluster.hb_domain", .bad = RY_BAD_RAILS,
      .doc = "GPU g of an HB domain is on rail g mod rails" },
    { .key = "cluster.planes", INT(1, MAX_PLANES), SPEC(planes), .def = "1",
      .def_doc = "the node's planes, else 1",
      .bad = RY_BAD_PLANES, .doc = "NIC ports per GPU, one network plane each" },
    { .key = "cluster.scalable_unit", INT(0, INT_MAX), SPEC(scalable_unit), .def = "0",
      .unit = "HB domains", .bad = RY_BAD_SU,
      .doc = "HB domains per scalable unit; 0 fills a leaf" },

    SECTION("fabric", 0, "the switches and how they are joined"),
    { .key = "fabric.design", ENUM(design_names), SPEC(design), .def = "rail-optimized",
      .bad = RY_BAD_OTHER, .doc = "how GPUs attach to leaves and leaves to spines" },
    { .key = "fabric.homing", ENUM(homings), SPEC(homing), .def = "single", .bad = RY_BAD_PLANES,
      .doc = "how a NIC's ports reach the leaves: each its own plane, or two on a ToR pair" },
    { .key = "fabric.switch", CUSTOM("catalog name or map"), .def = "generic",
      .bad = RY_BAD_SWITCH, .doc = "the switch model" },
    { .key = "fabric.switch.name", STRING(MAX_STRING), .flags = RY_KEY_READER, SWITCH(name),
      .check = check_model_name,
      .def = "generic", .bad = RY_BAD_SWITCH,
      .doc = "a catalog entry to start from, or the model's own name" },
    { .key = "fabric.switch.radix", INT(4, MAX_RADIX), .flags = RY_KEY_EVEN, SWITCH(radix),
      .def = "64", .unit = "ports", .bad = RY_BAD_SWITCH, .doc = "ports at the switch's speed" },
    { .key = "fabric.switch.speed", .type = RY_KEY_SPEED, SWITCH(port_gbps),
      .off2 = offsetof(ry_switch_model, speed), .size2 = sizeof(((ry_switch_model *)0)->speed),
      .def = "400G", .def_doc = "the node's NIC speed, else 400G", .bad = RY_BAD_SWITCH,
      .doc = "speed of one port" },
    { .key = "fabric.switch.description", STRING(0), .bad = RY_BAD_SWITCH, .doc = "one line" },
    { .key = "fabric.switch.protocol", ENUM(protocols), SWITCH(ethernet), .def = "infiniband",
      .bad = RY_BAD_SWITCH, .doc = "InfiniBand gets subnet-manager files, Ethernet does not" },
    { .key = "fabric.switch.rack_units", INT(1, 64), .flags = RY_KEY_ZERO_UNSET, SWITCH(units),
      .def_doc = "1", .unit = "rack units", .bad = RY_BAD_SWITCH, .doc = "height of a switch" },
    { .key = "fabric.switch.cage_ports", INT(1, 8), .flags = RY_KEY_ZERO_UNSET,
      SWITCH(cage_ports), .def_doc = "1", .unit = "ports", .bad = RY_BAD_SWITCH,
      .doc = "ports per cage: 2 for twin-port OSFP" },
    { .key = "fabric.switch.price", NUMBER(0, 1e300), SWITCH(price), .def = "0",
      .def_doc = "the catalog entry's, else 0 (unknown)", .unit = "USD", .bad = RY_BAD_SWITCH,
      .doc = "list price of one switch, for the capex total" },
    { .key = "fabric.switch.price_range", NUMBER(0, 100), SWITCH(price_range), .def = "0",
      .def_doc = "the catalog entry's, else 0 (cost.range_switches)", .unit = "percent",
      .bad = RY_BAD_SWITCH,
      .doc = "how far below or above list its price may be (--sensitivity)" },
    { .key = "fabric.switch.power", NUMBER(0, 1e7), SWITCH(power_w), .def = "0",
      .def_doc = "the catalog entry's, else 0 (unknown)", .unit = "W", .bad = RY_BAD_SWITCH,
      .doc = "maximum power of one switch with its cages full of optics" },
    { .key = "fabric.switch.part", STRING(31), SWITCH(part),
      .def_doc = "the catalog entry's", .bad = RY_BAD_SWITCH,
      .doc = "vendor part number of the switch" },
    { .key = "fabric.oversubscription", CUSTOM("D:U or a list of them"), .def = "1:1",
      .bad = RY_BAD_OVERSUB, .doc = "down-links to up-links per tier, leaf tier first" },
    { .key = "fabric.tiers", .type = RY_KEY_AUTO_INT, .min = 1, .max = RY_MAX_TIERS,
      .type_doc = "auto, a count, or a list of tiers", .flags = RY_KEY_READER,
      SPEC(tiers), .def = "auto", .bad = RY_BAD_TIERS,
      .doc = "switch tiers; a list gives each tier, leaves first" },
    { .key = "fabric.tiers[].switch", CUSTOM("catalog name or map"), .flags = RY_KEY_READER,
      .def_doc = "the tier below's; the leaves: fabric.switch", .bad = RY_BAD_TIERS,
      .doc = "the tier's switch model" },
    { .key = "fabric.tiers[].down", CUSTOM("speed, or SPEED x N"), .flags = RY_KEY_READER,
      .def_doc = "the model's port speed; N from the taper", .bad = RY_BAD_TIERS,
      .doc = "speed of the down ports (a port split at a lower one) and how many" },
    { .key = "fabric.tiers[].up", CUSTOM("speed, or SPEED x N"), .flags = RY_KEY_READER,
      .def_doc = "the model's port speed; N from the taper", .bad = RY_BAD_TIERS,
      .doc = "speed of the up ports and how many; the top tier has none" },
    { .key = "fabric.tiers[].taper", CUSTOM("D:U"), .flags = RY_KEY_READER, .def = "1:1",
      .bad = RY_BAD_TIERS, .doc = "bandwidth down to bandwidth up; U > D is allowed" },
    { .key = "fabric.tiers[].group", INT(1, MAX_RADIX), .flags = RY_KEY_READER,
      .def_doc = "as many as the down ports take", .unit = "blocks", .bad = RY_BAD_TIERS,
      .doc = "tier-below blocks per block (pod, segment) of tiers 2 and up, not the top" },
    { .key = "fabric.top_min", INT(1, MAX_RADIX), SPEC(top_min), .def = "1", .unit = "switches",
      .bad = RY_BAD_OTHER,
      .doc = "top-tier switches per column at least (the spines of two tiers)" },
    { .key = "fabric.full_units", .type = RY_KEY_BOOL, SPEC(full_units), .def = "false",
      .bad = RY_BAD_OTHER,
      .doc = "a partial scalable unit gets the leaves and cables of a whole one" },
    { .key = "fabric.accept_slower_ports", .type = RY_KEY_BOOL, SPEC(accept_slower_ports),
      .def = "false", .bad = RY_BAD_OTHER,
      .doc = "NICs faster than the switch ports run at the ports' speed, not an error" },

    SECTION("cost", 0, "the price model"),
    { .key = "cost.model", ENUM(cost_models), .def = "paper", .bad = RY_BAD_COST,
      .doc = "transceivers plus switch ports" },
    { .key = "cost.transceiver", NUMBER(0, 1e300), SPEC(transceiver_cost), .def = "374",
      .unit = "USD", .bad = RY_BAD_COST, .doc = "price of one transceiver, two per link" },
    { .key = "cost.switch_port", NUMBER(0, 1e300), SPEC(switch_port_cost), .def = "748",
      .unit = "USD", .bad = RY_BAD_COST, .doc = "price of one switch port" },
    { .key = "cost.rack", NUMBER(0, 1e300), SPEC(rack_cost), .def = "0", .unit = "USD",
      .bad = RY_BAD_COST, .doc = "price of one rack with its PDUs, in the capex total" },
    { .key = "cost.spares", NUMBER(0, 100), SPEC(spares_pct), .def = "0", .unit = "percent",
      .bad = RY_BAD_COST, .doc = "spares, a share of switches, optics and cables in the capex" },
    { .key = "cost.years", INT(1, 50), SPEC(own_years), .def = "5", .unit = "years",
      .bad = RY_BAD_COST, .doc = "life the cost of ownership counts" },
    { .key = "cost.pue", NUMBER(1, 5), SPEC(own_pue), .def = "1.3", .bad = RY_BAD_COST,
      .doc = "power usage effectiveness: the site's watts for each watt of the devices" },
    { .key = "cost.energy_price", NUMBER(0, 100), SPEC(own_energy_price), .def = "0.08",
      .unit = "USD/kWh", .bad = RY_BAD_COST, .doc = "price of a kilowatt-hour at the meter" },
    { .key = "cost.range_switches", NUMBER(0, 100), SPEC(range_switches), .def = "20",
      .unit = "percent", .bad = RY_BAD_COST,
      .doc = "switch prices may be this far below or above list (--sensitivity)" },
    { .key = "cost.range_optics", NUMBER(0, 100), SPEC(range_optics), .def = "30",
      .unit = "percent", .bad = RY_BAD_COST,
      .doc = "optics prices may be this far below or above list (--sensitivity)" },
    { .key = "cost.range_cables", NUMBER(0, 100), SPEC(range_cables), .def = "20",
      .unit = "percent", .bad = RY_BAD_COST,
      .doc = "cable prices may be this far below or above list (--sensitivity)" },
    { .key = "cost.support", NUMBER(0, 100), SPEC(own_support_pct), .def = "10",
      .unit = "percent", .bad = RY_BAD_COST,
      .doc = "support contracts a year, a share of the switches' price" },

    SECTION("infiniband", 0, "the GUID and LID plan and the OpenSM files"),
    { .key = "infiniband.guid_base", .type = RY_KEY_GUID, SPEC(ib.guid_base),
      .def = "0x0002c90000000000", .bad = RY_BAD_OTHER, .doc = "base of the GUID plan" },
    { .key = "infiniband.lmc", INT(0, 7), SPEC(ib.lmc), .def = "0", .bad = RY_BAD_OTHER,
      .doc = "LID mask control: 2^lmc LIDs per CA port" },
    { .key = "infiniband.routing_engine", ENUM(routing_engines), .flags = RY_KEY_TEXT,
      SPEC(ib.routing_engine), .def = "file", .bad = RY_BAD_OTHER,
      .doc = "what opensm.conf selects" },
    { .key = "infiniband.lft_portguid", .type = RY_KEY_BOOL, SPEC(ib.lft_portguid),
      .def = "true", .bad = RY_BAD_OTHER, .doc = "LFT lines name the destination's port GUID" },
    { .key = "infiniband.pkey_base", INT(1, 0x7ffe), SPEC(ib.pkey_base), .def = "0x0100",
      .bad = RY_BAD_OTHER, .doc = "P_Key of rail 0's partition" },

    SECTION("ethernet", 0, "addresses, ASNs and RoCE QoS of an Ethernet fabric's configs"),
    { .key = "ethernet.asn_base", INT(1, 4294967294LL), SPEC(eth.asn_base), .def = "4200000000",
      .bad = RY_BAD_OTHER, .doc = "the first switch's BGP ASN (RFC 6996's private 4-byte range "
      "starts here)" },
    { .key = "ethernet.loopbacks", STRING(47), SPEC(eth.loopbacks), .def = "10.255.0.0/16",
      .check = check_prefix4, .bad = RY_BAD_OTHER,
      .doc = "IPv4 prefix the switches' loopback /32s come from" },
    { .key = "ethernet.hosts", STRING(47), SPEC(eth.hosts), .def = "10.0.0.0/9",
      .check = check_prefix4, .bad = RY_BAD_OTHER,
      .doc = "IPv4 prefix the host links' /31s come from, one per NIC port" },
    { .key = "ethernet.ipv6", ENUM(ipv6_modes), SPEC(eth.ipv6), .def = "off", .bad = RY_BAD_OTHER,
      .doc = "IPv6 on host links: off, static (::2 of a /64 per link) or slaac (the ToR "
      "advertises the /64)" },
    { .key = "ethernet.ipv6_prefix", STRING(47), SPEC(eth.ipv6_prefix),
      .def = "fd52:6169:6c00::/40", .check = check_prefix6, .bad = RY_BAD_OTHER,
      .doc = "IPv6 prefix: its first /64 for loopbacks, then a /64 per host link" },
    { .key = "ethernet.qos", ENUM(qos_profiles), SPEC(eth.qos), .def = "lossless",
      .bad = RY_BAD_OTHER, .doc = "RoCE QoS: lossless (PFC on priority 3, ECN) or lossy (ECN "
      "only, PFC off)" },
    { .key = "ethernet.mtu", INT(1280, 9216), SPEC(eth.mtu), .def = "9000", .unit = "bytes",
      .bad = RY_BAD_OTHER, .doc = "MTU of the host NICs (switch ports take 9216)" },

    SECTION("naming", 0, "host and switch names"),
    { .key = "naming.node", STRING(0), SPEC(node_pattern),
      .def_doc = "node{n1:0W}, W = the digits of the server count, at least 3",
      .check = check_host_pattern, .bad = RY_BAD_OTHER, .doc = "host name pattern of the servers" },
    { .key = "naming.leaf", STRING(0), SPEC(leaf_pattern),
      .def_doc = "leaf{n} (switch{n} when one tier)", .check = check_host_pattern,
      .bad = RY_BAD_OTHER, .doc = "name pattern of the leaves (tier 1)" },
    { .key = "naming.spine", STRING(0), SPEC(spine_pattern), .def_doc = "spine{n}",
      .check = check_host_pattern, .bad = RY_BAD_OTHER, .doc = "name pattern of tier 2" },
    { .key = "naming.core", STRING(0), SPEC(core_pattern), .def_doc = "core{n}",
      .check = check_host_pattern, .bad = RY_BAD_OTHER, .doc = "name pattern of tier 3" },
    { .key = "naming.switch_order", ENUM(switch_orders), SPEC(switch_order), .def = "unit-major",
      .bad = RY_BAD_OTHER, .doc = "how leaves are numbered: a unit's leaves next to each other "
      "(unit-major) or a rail's (rail-major)" },

    SECTION("layout", 0, "racks and rows, for cable lengths"),
    { .key = "layout.rows", INT(1, 10000), .flags = RY_KEY_ZERO_UNSET, SPEC(layout.rows),
      .def_doc = "as many as needed", .bad = RY_BAD_OTHER, .doc = "rows available" },
    { .key = "layout.racks_per_row", INT(1, 10000), .flags = RY_KEY_ZERO_UNSET,
      SPEC(layout.racks_per_row), .def_doc = "shaped for short runs", .bad = RY_BAD_OTHER,
      .doc = "racks in a row" },
    { .key = "layout.rack_units", INT(4, 80), SPEC(layout.rack_units), .def = "48",
      .unit = "rack units", .bad = RY_BAD_OTHER, .doc = "height of a rack" },
    { .key = "layout.first_unit", INT(1, 80), SPEC(layout.first_unit), .def = "2",
      .bad = RY_BAD_OTHER, .doc = "lowest unit equipment uses" },
    { .key = "layout.nodes_per_rack", INT(1, 1024), SPEC(layout.nodes_per_rack), .def = "4",
      .def_doc = "the node's per_rack, else 4", .unit = "servers", .bad = RY_BAD_OTHER,
      .doc = "servers per compute rack" },
    { .key = "layout.node_units", INT(1, 80), SPEC(layout.node_units), .def = "8",
      .def_doc = "the node's rack_units, else 8", .unit = "rack units", .bad = RY_BAD_OTHER,
      .doc = "height of a server" },
    { .key = "layout.switch_units", INT(1, 80), SPEC(layout.switch_units), .def = "1",
      .def_doc = "the switch's rack_units, else 1", .unit = "rack units",
      .bad = RY_BAD_OTHER, .doc = "height of a switch" },
    { .key = "layout.network", ENUM(network_places), SPEC(layout.network), .def = "per-unit",
      .def_doc = "per-unit; end-of-row for a fat tree", .bad = RY_BAD_OTHER, .doc = "where leaves stand" },
    { .key = "layout.rack_pitch", NUMBER(0.1, 100), SPEC(layout.rack_pitch), .def = "0.6",
      .unit = "metres", .bad = RY_BAD_OTHER, .doc = "distance between rack centres in a row" },
    { .key = "layout.row_pitch", NUMBER(0.5, 1000), SPEC(layout.row_pitch), .def = "2.4",
      .unit = "metres", .bad = RY_BAD_OTHER, .doc = "distance between rows" },
    { .key = "layout.tray_height", NUMBER(0.5, 20), SPEC(layout.tray_height), .def = "2.6",
      .unit = "metres", .bad = RY_BAD_OTHER, .doc = "height of the overhead cable tray" },
    { .key = "layout.slack", NUMBER(0, 50), SPEC(layout.slack), .def = "0.5", .unit = "metres",
      .bad = RY_BAD_OTHER, .doc = "slack at each end of a cable" },
    { .key = "layout.hall_racks", INT(1, 1000000), SPEC(layout.hall_racks), .def = "512",
      .unit = "racks", .bad = RY_BAD_OTHER, .doc = "most racks in one data hall" },
    { .key = "layout.hall_power", NUMBER(1, 1e9), SPEC(layout.hall_power), .def = "20000",
      .unit = "kW", .bad = RY_BAD_OTHER, .doc = "power budget of a data hall" },
    { .key = "layout.rack_power", NUMBER(0, 1e6), SPEC(layout.rack_power), .def = "0",
      .def_doc = "the node's per_rack x power", .unit = "kW", .bad = RY_BAD_OTHER,
      .doc = "power budget of a rack" },
    { .key = "layout.switches_per_rack", INT(1, 1000), .flags = RY_KEY_ZERO_UNSET,
      SPEC(layout.switches_per_rack), .def_doc = "as space and rack power allow",
      .unit = "switches", .bad = RY_BAD_OTHER, .doc = "most switches in a network rack" },
    { .key = "layout.halls_per_building", INT(1, 10000), SPEC(layout.halls_per_building),
      .def = "8", .unit = "halls", .bad = RY_BAD_OTHER, .doc = "most data halls in a building" },
    { .key = "layout.hall_gap", NUMBER(0, 10000), SPEC(layout.hall_gap), .def = "10",
      .unit = "metres", .bad = RY_BAD_OTHER,
      .doc = "corridor between neighbouring rooms of a building" },
    { .key = "layout.building_gap", NUMBER(0, 100000), SPEC(layout.building_gap), .def = "50",
      .unit = "metres", .bad = RY_BAD_OTHER, .doc = "distance between neighbouring buildings" },

    SECTION("growth", 0, "the final size the cluster grows to in phases (reserve mode)"),
    { .key = "growth.target_nodes", INT(1, MAX_GPUS), .flags = RY_KEY_ZERO_UNSET,
      SPEC(growth.target_nodes), .unit = "servers", .def_doc = "the cluster's size", .bad = RY_BAD_OTHER,
      .doc = "servers of the final phase; give at most one of target_nodes and target_gpus" },
    { .key = "growth.target_gpus", INT(1, MAX_GPUS), .flags = RY_KEY_ZERO_UNSET,
      SPEC(growth.target_gpus), .unit = "GPUs", .def_doc = "the cluster's size", .bad = RY_BAD_OTHER,
      .doc = "GPUs of the final phase; give at most one of target_nodes and target_gpus" },

    SECTION("reliability", 0, "failure rates and repair times, for goodput and lost GPU-hours"),
    { .key = "reliability.gpu_rate", NUMBER(0, 100), SPEC(rel.gpu_rate), .def = "0.111",
      .unit = "a GPU-year", .bad = RY_BAD_OTHER,
      .doc = "GPU failures (GPU, HBM, SRAM, its processor, thermal, silent corruption)" },
    { .key = "reliability.host_rate", NUMBER(0, 100), SPEC(rel.host_rate), .def = "0.152",
      .unit = "a server-year", .bad = RY_BAD_OTHER,
      .doc = "server failures (host maintenance, SSD, power supply, chassis, CPU, memory)" },
    { .key = "reliability.nic_rate", NUMBER(0, 100), SPEC(rel.nic_rate), .def = "0.0029",
      .unit = "a NIC port-year", .bad = RY_BAD_OTHER, .doc = "NIC failures" },
    { .key = "reliability.software_rate", NUMBER(0, 100), SPEC(rel.software_rate),
      .def = "0.026", .unit = "a GPU-year", .bad = RY_BAD_OTHER,
      .doc = "interruptions of the software (bugs, collective timeouts, dependencies)" },
    { .key = "reliability.switch_rate", NUMBER(0, 100), SPEC(rel.switch_rate), .def = "0.078",
      .unit = "a switch-year", .bad = RY_BAD_OTHER, .doc = "switch failures" },
    { .key = "reliability.cable_rate", NUMBER(0, 100), SPEC(rel.cable_rate), .def = "0.0067",
      .unit = "a link-year", .bad = RY_BAD_OTHER, .doc = "cable and optics failures" },
    { .key = "reliability.repair_node", NUMBER(0, 1e6), SPEC(rel.repair_node), .def = "24",
      .unit = "hours", .bad = RY_BAD_OTHER,
      .doc = "a failed server (or its GPU or NIC) out of the job until repaired" },
    { .key = "reliability.repair_switch", NUMBER(0, 1e6), SPEC(rel.repair_switch), .def = "4",
      .unit = "hours", .bad = RY_BAD_OTHER, .doc = "a failed switch until replaced" },
    { .key = "reliability.repair_cable", NUMBER(0, 1e6), SPEC(rel.repair_cable), .def = "2",
      .unit = "hours", .bad = RY_BAD_OTHER, .doc = "a failed cable until replaced" },
    { .key = "reliability.checkpoint", NUMBER(0, 1e6), SPEC(rel.checkpoint), .def = "15",
      .unit = "minutes", .bad = RY_BAD_OTHER,
      .doc = "checkpoint interval: an interruption loses half of it" },
    { .key = "reliability.restart", NUMBER(0, 1e6), SPEC(rel.restart), .def = "10",
      .unit = "minutes", .bad = RY_BAD_OTHER,
      .doc = "from an interruption to training again, from the last checkpoint" },
    { .key = "reliability.gpu_hour", NUMBER(0, 1e6), SPEC(rel.gpu_hour), .def = "2", .unit = "USD",
      .bad = RY_BAD_OTHER, .doc = "what a GPU-hour is worth, to price the hours lost" },

    SECTION("spares", 0, "spare switches and cables kept on site (whatif --sweep)"),
    { .key = "spares.switches", INT(0, 1000000), SPEC(spares.switches), .def = "0",
      .unit = "switches", .bad = RY_BAD_OTHER,
      .doc = "spare switches: a scenario's first failed switches are swapped" },
    { .key = "spares.uplinks", INT(0, 1000), SPEC(spares.uplinks), .def = "0",
      .unit = "cables per switch", .bad = RY_BAD_OTHER,
      .doc = "spare uplink cables per switch: its first failed uplinks are replaced" },

    SECTION("cabling", 0, "media forced per tier or per link"),
    { .key = "cabling.tiers", CUSTOM("map of tier to medium"), .bad = RY_BAD_OTHER,
      .doc = "medium per tier, 1 = GPU to leaf" },
    { .key = "cabling.links", CUSTOM("list of maps"), .bad = RY_BAD_OTHER,
      .doc = "medium for single links" },
    { .key = "cabling.links[].end", STRING(0), .flags = RY_KEY_READER | RY_KEY_REQUIRED,
      .bad = RY_BAD_OTHER, .doc = "a switch and port, or a host and NIC" },
    { .key = "cabling.links[].medium", STRING(0), .flags = RY_KEY_READER | RY_KEY_REQUIRED,
      .bad = RY_BAD_OTHER, .doc = "a medium from templates/media.yaml" },

    SECTION("network", 0, "the flow-level engine's routing, a collective's placement; "
            "LIBRA's network dimensions"),
    { .key = "network.routing", ENUM(routing_words), SPEC(net.routing), .def = "static",
      .bad = RY_BAD_OTHER, .doc = "how switches route the flows of railyard collective" },
    { .key = "network.qps_per_connection", INT(1, 64), SPEC(net.qps), .def = "1",
      .unit = "queue pairs", .bad = RY_BAD_OTHER,
      .doc = "queue pairs of one connection, as NCCL_IB_QPS_PER_CONNECTION" },
    { .key = "network.hash_qp", .type = RY_KEY_BOOL, SPEC(net.hash_qp), .def = "false",
      .bad = RY_BAD_OTHER, .doc = "ECMP hashes the RoCE destination queue pair too" },
    { .key = "network.hash_seed", ENUM(hash_seed_words), SPEC(net.same_seed), .def = "per-switch",
      .bad = RY_BAD_OTHER,
      .doc = "ECMP: each switch hashes with a seed of its own, or every switch the same "
             "(the same hash at every tier polarises: flows pinned below stay pinned above)" },
    { .key = "network.placement", STRING(31), SPEC(net.placement), .def = "contiguous",
      .check = check_placement, .bad = RY_BAD_OTHER,
      .doc = "a job's nodes: contiguous, or scattered[:SEED]" },
    { .key = "network.channels", AUTO_INT(1, 1024), SPEC(net.channels), .def = "auto",
      .def_doc = "auto: NICs per node x 2", .unit = "rings", .bad = RY_BAD_OTHER,
      .doc = "rings of a ring collective (NCCL's channels)" },
    { .key = "network.algorithm", ENUM(algorithm_words), SPEC(net.algorithm), .def = "ring",
      .bad = RY_BAD_OTHER,
      .doc = "all-reduce across nodes: ring, tree (NCCL's double binary tree) or auto "
             "(the faster)" },
    { .key = "network.all_to_all", ENUM(all_to_all_words), SPEC(net.all_to_all), .def = "direct",
      .bad = RY_BAD_OTHER,
      .doc = "railyard collective's all-to-all: direct (every GPU to every GPU at once, across rails through "
             "the GPU of the destination's rail, as NCCL's PXN) or hierarchical (inside "
             "each HB domain first, then between domains, one step after the other)" },
    { .key = "network.sharp", .type = RY_KEY_BOOL, SPEC(net.sharp), .def = "false",
      .bad = RY_BAD_OTHER,
      .doc = "all-reduce reduces in the InfiniBand switches (SHARP; switches with sharp: "
             "true in the catalog)" },
    { .key = "network.nvls", .type = RY_KEY_BOOL, SPEC(net.nvls), .def = "false",
      .bad = RY_BAD_OTHER,
      .doc = "all-reduce reduces in the NVLink switches inside an HB domain (NVLS)" },
    /* network.dims and below: read by spec/libra_spec.c. */
    { .key = "network.dims", CUSTOM("list of maps"), .flags = RY_KEY_READER,
      .bad = RY_BAD_OTHER, .doc = "the dimensions, innermost first" },
    { .key = "network.dims[].name", STRING(0), .flags = RY_KEY_READER | RY_KEY_REQUIRED,
      DIM(name), .check = check_dim_name, .bad = RY_BAD_OTHER,
      .doc = "the dimension's name in constraints" },
    { .key = "network.dims[].block", ENUM(ry_libra_block_words),
      .flags = RY_KEY_READER | RY_KEY_REQUIRED, DIM(block), .bad = RY_BAD_OTHER,
      .doc = "the building block" },
    { .key = "network.dims[].size", INT(1, 1 << 20), .flags = RY_KEY_READER | RY_KEY_REQUIRED,
      DIM(size), .unit = "NPUs", .bad = RY_BAD_OTHER, .doc = "NPUs along the dimension" },
    { .key = "network.dims[].tech", STRING(0), .flags = RY_KEY_READER, .bad = RY_BAD_OTHER,
      .doc = "prices from templates/libra-costs.yaml" },
    { .key = "network.dims[].link", NUMBER(0, 1e12), .flags = RY_KEY_READER, DIM(link),
      .def_doc = "the tech's", .unit = "USD per GB/s per NPU", .bad = RY_BAD_OTHER,
      .doc = "the price of the links" },
    { .key = "network.dims[].switch", NUMBER(0, 1e12), .flags = RY_KEY_READER, DIM(sw),
      .def = "0", .def_doc = "the tech's, else 0", .unit = "USD per GB/s per NPU",
      .bad = RY_BAD_OTHER, .doc = "the price of a switch block's switches" },
    { .key = "network.dims[].nic", NUMBER(0, 1e12), .flags = RY_KEY_READER, DIM(nic),
      .def = "0", .def_doc = "the tech's, else 0", .unit = "USD per GB/s per NPU",
      .bad = RY_BAD_OTHER, .doc = "the price of a switch block's NICs" },

    SECTION("libra", 0, "LIBRA's workload, budget and constraints"),
    { .key = "libra.objective", ENUM(ry_libra_objective_words), LIBRA(objective),
      .def = "time", .bad = RY_BAD_OTHER, .doc = "what optimize minimises" },
    { .key = "libra.budget", .type = RY_KEY_NUMBER, READ(read_budget, "number or string"),
      .flags = RY_KEY_READER, .unit = "GB/s per NPU", .bad = RY_BAD_OTHER,
      .doc = "the total bandwidth per NPU" },
    { .key = "libra.cost_budget", .type = RY_KEY_NUMBER, READ(read_budget, "number or string"),
      .flags = RY_KEY_READER, .unit = "USD", .bad = RY_BAD_OTHER, .doc = "the network's cost" },
    { .key = "libra.constraints", CUSTOM("list of strings"), .flags = RY_KEY_READER,
      .bad = RY_BAD_OTHER, .doc = "linear constraints on the bandwidths" },
    { .key = "libra.baseline", CUSTOM("list of numbers"), .flags = RY_KEY_READER,
      .def_doc = "the budget split equally", .unit = "GB/s per NPU", .bad = RY_BAD_OTHER,
      .doc = "the design to compare with" },
    { .key = "libra.starts", INT(1, 1000), LIBRA(starts), .def = "12", .bad = RY_BAD_OTHER,
      .doc = "starting points of the solver" },
    { .key = "libra.plot_dims", CUSTOM("list of two names"), .flags = RY_KEY_READER,
      .def_doc = "both of a 2-D network, else the two busiest", .bad = RY_BAD_OTHER,
      .doc = "the dimensions optimize --plot sweeps" },
    { .key = "libra.layers", CUSTOM("list of maps"), .flags = RY_KEY_READER,
      .bad = RY_BAD_OTHER, .doc = "the workload: one iteration's layers" },
    { .key = "libra.layers[].name", STRING(0), .flags = RY_KEY_READER, LAYER(name),
      .def_doc = "layerN", .bad = RY_BAD_OTHER, .doc = "the layer's name in reports" },
    { .key = "libra.layers[].count", INT(1, 1000000000), .flags = RY_KEY_READER, LAYER(count),
      .def = "1", .bad = RY_BAD_OTHER, .doc = "how many times the layer repeats" },
    PHASE_ROWS("forward", "the forward pass"),
    PHASE_ROWS("input_grad", "the input gradient"),
    PHASE_ROWS("weight_grad", "the weight gradient"),
    { .key = "libra.workload_file", STRING(0), .flags = RY_KEY_READER, .bad = RY_BAD_OTHER,
      .doc = "an ASTRA-sim 1.0 workload file, instead of layers" },
    { .key = "libra.cycle_time", NUMBER(0, 1e300), READ(read_cycle_time, "time"),
      .flags = RY_KEY_READER, LIBRA(cycle_time), .def = "1ns", .bad = RY_BAD_OTHER,
      .doc = "one compute cycle of the workload file" },
    { .key = "libra.time_unit", ENUM(ry_libra_time_units), LIBRA(time_unit), .def = "ms",
      .bad = RY_BAD_OTHER, .doc = "the unit of plain numbers in layers' compute" },
    { .key = "libra.tensor_parallel", INT(1, INT_MAX), .flags = RY_KEY_READER,
      .unit = "NPUs", .bad = RY_BAD_OTHER, .doc = "group sizes from a tensor-parallel degree" },
    { .key = "libra.groups", CUSTOM("map"), .flags = RY_KEY_READER, .bad = RY_BAD_OTHER,
      .doc = "group sizes per phase" },
    { .key = "libra.groups.forward", CUSTOM("group sizes"), .flags = RY_KEY_READER,
      .bad = RY_BAD_OTHER, .doc = "for forward phases without groups" },
    { .key = "libra.groups.input_grad", CUSTOM("group sizes"), .flags = RY_KEY_READER,
      .bad = RY_BAD_OTHER, .doc = "for input-gradient phases without groups" },
    { .key = "libra.groups.weight_grad", CUSTOM("group sizes"), .flags = RY_KEY_READER,
      .bad = RY_BAD_OTHER, .doc = "for weight-gradient phases without groups" },

    /* Read by spec/workload.c. */
    SECTION("workload", 0, "the LLM trained on the cluster"),
    { .key = "workload.model", CUSTOM("catalog name or map"),
      .flags = RY_KEY_READER | RY_KEY_REQUIRED, .bad = RY_BAD_OTHER,
      .doc = "the LLM, from templates/llms.yaml or given as a map" },
    { .key = "workload.model.name", STRING(0), .flags = RY_KEY_READER, .check = check_llm_name,
      .def_doc = "custom", .bad = RY_BAD_OTHER,
      .doc = "a catalog entry to start from, or the model's own name" },
    { .key = "workload.model.description", STRING(0), .bad = RY_BAD_OTHER, .doc = "one line" },
    { .key = "workload.model.parameters", NUMBER(1e3, 1e16), LLM(parameters),
      .def_doc = "the catalog entry's", .bad = RY_BAD_OTHER, .doc = "total parameters" },
    { .key = "workload.model.layers", INT(1, 1000000), LLM(layers),
      .def_doc = "the catalog entry's", .unit = "blocks", .bad = RY_BAD_OTHER,
      .doc = "transformer blocks" },
    { .key = "workload.model.d_model", INT(1, 10000000), LLM(d_model),
      .def_doc = "the catalog entry's", .bad = RY_BAD_OTHER, .doc = "the hidden size" },
    { .key = "workload.model.heads", INT(1, 1000000), LLM(heads),
      .def_doc = "the catalog entry's, else unknown", .bad = RY_BAD_OTHER,
      .doc = "attention heads" },
    { .key = "workload.model.seq_len", INT(1, 100000000), LLM(seq_len),
      .def_doc = "the catalog entry's", .unit = "tokens", .bad = RY_BAD_OTHER,
      .doc = "sequence length" },
    { .key = "workload.model.vocab", INT(1, 1000000000), LLM(vocab),
      .def_doc = "the catalog entry's", .unit = "tokens", .bad = RY_BAD_OTHER,
      .doc = "vocabulary size" },
    { .key = "workload.model.mcc", INT(1, 1000), LLM(mcc), .def_doc = "the catalog entry's",
      .bad = RY_BAD_OTHER, .doc = "tensor-parallel collective rounds per block" },
    { .key = "workload.model.precision", ENUM(ry_precision_names), LLM(precision), .def = "bf16",
      .def_doc = "the catalog entry's, else bf16", .bad = RY_BAD_OTHER,
      .doc = "the model's precision" },
    { .key = "workload.model.batch", INT(1, 1000000000000LL), LLM(batch),
      .def_doc = "the catalog entry's", .unit = "sequences", .bad = RY_BAD_OTHER,
      .doc = "the published global batch" },
    { .key = "workload.model.kv_heads", INT(1, 1000000), LLM(kv_heads),
      .def_doc = "the catalog entry's, else heads", .bad = RY_BAD_OTHER,
      .doc = "key/value heads (fewer than heads: grouped-query attention)" },
    { .key = "workload.model.ffn_hidden", INT(1, 1000000000), LLM(ffn_hidden),
      .def_doc = "the catalog entry's, else 4 x d_model", .bad = RY_BAD_OTHER,
      .doc = "the dense MLP's hidden size" },
    { .key = "workload.model.mlp", ENUM(ry_mlp_names), LLM(mlp), .def = "gelu",
      .def_doc = "the catalog entry's, else gelu", .bad = RY_BAD_OTHER,
      .doc = "the MLP: gelu (two matrices) or swiglu (three)" },
    { .key = "workload.model.dropout", .type = RY_KEY_BOOL, LLM(dropout), .def = "false",
      .def_doc = "the catalog entry's, else false", .bad = RY_BAD_OTHER,
      .doc = "dropout after attention and MLP (its masks are kept for backward)" },
    { .key = "workload.model.head_dim", INT(1, 1000000), LLM(head_dim),
      .def_doc = "the catalog entry's, else d_model / heads", .bad = RY_BAD_OTHER,
      .doc = "query and key size of one attention head" },
    { .key = "workload.model.v_head_dim", INT(1, 1000000), LLM(v_head_dim),
      .def_doc = "the catalog entry's, else head_dim", .bad = RY_BAD_OTHER,
      .doc = "value size of one attention head" },
    { .key = "workload.model.q_lora_rank", INT(1, 1000000), LLM(q_lora_rank),
      .def_doc = "the catalog entry's, else none", .bad = RY_BAD_OTHER,
      .doc = "latent attention: the queries' low-rank projection" },
    { .key = "workload.model.kv_lora_rank", INT(1, 1000000), LLM(kv_lora_rank),
      .def_doc = "the catalog entry's, else none (plain attention)", .bad = RY_BAD_OTHER,
      .doc = "latent attention: the keys' and values' shared low-rank projection" },
    { .key = "workload.model.qk_rope_head_dim", INT(0, 1000000), LLM(qk_rope_head_dim),
      .def = "0", .def_doc = "the catalog entry's, else 0", .bad = RY_BAD_OTHER,
      .doc = "latent attention: the rotary part of head_dim, one key for all heads" },
    { .key = "workload.model.window", INT(1, 100000000), LLM(window),
      .def_doc = "the catalog entry's, else none", .unit = "tokens", .bad = RY_BAD_OTHER,
      .doc = "sliding-window attention: the keys a query sees" },
    { .key = "workload.model.window_layers", INT(1, 1000000), LLM(window_layers),
      .def_doc = "the catalog entry's, else every block", .unit = "blocks",
      .bad = RY_BAD_OTHER, .doc = "blocks whose attention has the window" },
    { .key = "workload.model.mtp_layers", INT(0, 1000), LLM(mtp_layers), .def = "0",
      .def_doc = "the catalog entry's, else 0", .unit = "blocks", .bad = RY_BAD_OTHER,
      .doc = "multi-token prediction: blocks after the last, each with its output layer" },
    { .key = "workload.model.moe", CUSTOM("map"), .flags = RY_KEY_READER, .bad = RY_BAD_OTHER,
      .def_doc = "none: a dense model", .doc = "mixture of experts: the model's expert blocks" },
    { .key = "workload.model.moe.experts", INT(2, 1000000), LLM(moe.experts),
      .def_doc = "the catalog entry's", .bad = RY_BAD_OTHER,
      .doc = "routed experts per MoE block" },
    { .key = "workload.model.moe.top_k", INT(1, 1000000), LLM(moe.top_k),
      .def_doc = "the catalog entry's", .bad = RY_BAD_OTHER,
      .doc = "routed experts each token goes to" },
    { .key = "workload.model.moe.shared_experts", INT(0, 1000000), LLM(moe.shared_experts),
      .def = "0", .def_doc = "the catalog entry's, else 0",
      .bad = RY_BAD_OTHER, .doc = "experts every token goes through, computed locally" },
    { .key = "workload.model.moe.expert_hidden", INT(1, 100000000), LLM(moe.expert_hidden),
      .def_doc = "the catalog entry's", .bad = RY_BAD_OTHER,
      .doc = "FFN hidden size of one expert" },
    { .key = "workload.model.moe.active_parameters", NUMBER(1e3, 1e16),
      LLM(moe.active_parameters), .def_doc = "the catalog entry's",
      .bad = RY_BAD_OTHER, .doc = "parameters a token goes through" },
    { .key = "workload.model.moe.dense_layers", INT(0, 1000000), LLM(moe.dense_layers),
      .def = "0", .def_doc = "the catalog entry's, else 0",
      .unit = "blocks", .bad = RY_BAD_OTHER, .doc = "leading blocks with a dense MLP" },
    { .key = "workload.model.moe.every", INT(1, 1000000), LLM(moe.every),
      .def = "1", .def_doc = "the catalog entry's, else 1", .unit = "blocks",
      .bad = RY_BAD_OTHER, .doc = "after the dense blocks, every n-th block is MoE" },
    { .key = "workload.gpu", STRING(0), .flags = RY_KEY_READER,
      .def_doc = "the GPU of the cluster's node", .bad = RY_BAD_OTHER,
      .doc = "a GPU from templates/gpus.yaml" },
    { .key = "workload.batch", INT(1, 1000000000000LL), .flags = RY_KEY_READER, WORKLOAD(batch),
      .def_doc = "the model's", .unit = "sequences", .bad = RY_BAD_OTHER,
      .doc = "the global batch" },
    { .key = "workload.batch_tokens", INT(1, 1000000000000000LL),
      .flags = RY_KEY_READER, .unit = "tokens", .bad = RY_BAD_OTHER,
      .doc = "the global batch in tokens, instead of batch" },
    { .key = "workload.precision", ENUM(ry_precision_names), .flags = RY_KEY_READER,
      WORKLOAD(precision), .def_doc = "the model's", .bad = RY_BAD_OTHER,
      .doc = "bytes per element and the FLOP/s used" },
    { .key = "workload.parallelism", CUSTOM("map"), .bad = RY_BAD_OTHER,
      .doc = "how the model is split over the GPUs" },
    { .key = "workload.parallelism.tensor", AUTO_INT(1, 1 << 30), WORKLOAD(tensor),
      .def = "auto", .unit = "GPUs", .bad = RY_BAD_OTHER,
      .doc = "the tensor-parallel group size" },
    { .key = "workload.parallelism.expert", AUTO_INT(1, 1 << 30), WORKLOAD(expert),
      .def = "auto", .unit = "GPUs", .bad = RY_BAD_OTHER,
      .doc = "the expert-parallel group size (MoE models)" },
    { .key = "workload.parallelism.pipeline", AUTO_INT(1, 1 << 20), WORKLOAD(pipeline),
      .def = "auto", .unit = "stages", .bad = RY_BAD_OTHER,
      .doc = "pipeline-parallel stages (1 with --paper)" },
    { .key = "workload.parallelism.micro_batch", AUTO_INT(1, 1 << 30), WORKLOAD(micro_batch),
      .def = "auto", .unit = "sequences", .bad = RY_BAD_OTHER,
      .doc = "sequences per pipeline micro-batch" },
    { .key = "workload.parallelism.context", AUTO_INT(1, 1 << 20), WORKLOAD(context),
      .def = "auto", .unit = "GPUs", .bad = RY_BAD_OTHER,
      .doc = "context-parallel group size: a sequence split over GPUs (ring attention)" },
    { .key = "workload.parallelism.first_stage_layers", INT(1, 1000000), WORKLOAD(first_stage),
      .def_doc = "an even split", .unit = "blocks", .bad = RY_BAD_OTHER,
      .doc = "blocks of the first pipeline stage (the rest split evenly)" },
    { .key = "workload.parallelism.last_stage_layers", INT(1, 1000000), WORKLOAD(last_stage),
      .def_doc = "an even split", .unit = "blocks", .bad = RY_BAD_OTHER,
      .doc = "blocks of the last pipeline stage (the output layer's)" },
    { .key = "workload.parallelism.virtual", AUTO_INT(1, 1 << 20), WORKLOAD(virtual_stages),
      .def = "auto", .unit = "chunks", .bad = RY_BAD_OTHER,
      .doc = "interleaved pipeline: model chunks per GPU (1: plain 1F1B)" },
    { .key = "workload.parallelism.data", AUTO_INT(1, 1 << 30), WORKLOAD(data),
      .def = "auto", .unit = "replicas", .bad = RY_BAD_OTHER,
      .doc = "data-parallel replicas (fewer than the GPUs allow leaves GPUs idle)" },
    { .key = "workload.parallelism.sequence", .type = RY_KEY_BOOL, WORKLOAD(sequence_parallel),
      .def = "true", .bad = RY_BAD_OTHER,
      .doc = "sequence parallelism: norms and dropout split over the tensor group" },
    { .key = "workload.parallelism.zero", INT(0, 3), WORKLOAD(zero), .def = "1",
      .bad = RY_BAD_OTHER,
      .doc = "ZeRO stage: data parallelism shards 1 optimizer, 2 +gradients, 3 +weights" },
    { .key = "workload.parallelism.expert_tensor", INT(1, 1024), WORKLOAD(expert_tensor),
      .def = "1", .unit = "GPUs", .bad = RY_BAD_OTHER,
      .doc = "expert tensor parallelism: each expert's matrices split over this many GPUs" },
    { .key = "workload.parallelism.fsdp", .type = RY_KEY_BOOL, WORKLOAD(fsdp),
      .def = "false", .bad = RY_BAD_OTHER,
      .doc = "ZeRO-3 as FSDP gathers: once for a block's forward, once for its backward" },
    { .key = "workload.fp8_recipe", ENUM(ry_fp8_recipe_names), WORKLOAD(fp8_recipe),
      .def = "delayed", .bad = RY_BAD_OTHER,
      .doc = "how FP8 GEMM inputs are scaled: the casts' memory traffic" },
    { .key = "workload.gradient_precision", ENUM(ry_grad_precision_names),
      WORKLOAD(grad_precision), .def = "bf16", .bad = RY_BAD_OTHER,
      .doc = "the data-parallel gradient reduction's (the full model)" },
    { .key = "workload.compute_efficiency", NUMBER(0, 1), .type_doc = "number, > 0 and <= 1",
      .check = check_fraction, WORKLOAD(efficiency), .def = "1",
      .def_doc = "1 with --paper, else the GPU's gemm_efficiency", .bad = RY_BAD_OTHER,
      .doc = "fraction of the peak FLOP/s reached (the full model: by the GEMMs)" },
    { .key = "workload.flops_convention", ENUM(flops_conventions), WORKLOAD(flops),
      .def = "6NT", .def_doc = "6NT with --paper, else architecture", .bad = RY_BAD_OTHER,
      .doc = "how the model's FLOPs (MFU) are counted" },
    { .key = "workload.flash_attention", .type = RY_KEY_BOOL, WORKLOAD(flash_attention),
      .def = "true", .bad = RY_BAD_OTHER,
      .doc = "fused attention: no s x s scores stored or moved (the full model)" },
    { .key = "workload.overlap", CUSTOM("map"), .bad = RY_BAD_OTHER,
      .doc = "how much communication hides behind compute (the full model)" },
    { .key = "workload.overlap.data", NUMBER(0, 1), WORKLOAD(overlap_data), .def = "1",
      .bad = RY_BAD_OTHER,
      .doc = "data-parallel reduce-scatter/all-gather (and ZeRO-3 gathers) behind backward and forward" },
    { .key = "workload.overlap.tensor", NUMBER(0, 1), WORKLOAD(overlap_tensor), .def = "0.5",
      .bad = RY_BAD_OTHER, .doc = "tensor-parallel collectives behind the GEMMs" },
    { .key = "workload.overlap.context", NUMBER(0, 1), WORKLOAD(overlap_context), .def = "1",
      .bad = RY_BAD_OTHER, .doc = "the context-parallel ring behind attention" },
    { .key = "workload.overlap.expert", NUMBER(0, 1), WORKLOAD(overlap_expert), .def = "0",
      .bad = RY_BAD_OTHER, .doc = "the expert all-to-all behind compute (DualPipe-style: 1)" },
    { .key = "workload.recompute", ENUM(ry_recompute_names), WORKLOAD(recompute), .def = "none",
      .def_doc = "none with --paper, else the least that fits",
      .bad = RY_BAD_OTHER, .doc = "activation recomputation" },
    { .key = "workload.activation_offload", INT(0, 1000000), WORKLOAD(offload), .def = "0",
      .unit = "blocks", .bad = RY_BAD_OTHER,
      .doc = "blocks whose kept activations wait in host memory for backward" },

    /* Read by spec/search.c. */
    SECTION("search", 0, "the design space railyard search explores"),
    { .key = "search.vary", CUSTOM("map of spec key to values"), .flags = RY_KEY_READER,
      .def_doc = "none: the default space (railyard(1), search)", .bad = RY_BAD_OTHER,
      .doc = "spec keys and their values (a list; ranges as sweep --vary takes them)" },
    { .key = "search.workloads", CUSTOM("list of maps"), .flags = RY_KEY_READER,
      .def_doc = "the spec's workload", .bad = RY_BAD_OTHER,
      .doc = "workloads weighed, each its workload keys over the spec's and a weight" },
    { .key = "search.failures", CUSTOM("list of scenarios"), .flags = RY_KEY_READER,
      .def_doc = "[spine:1, leaf:1, plane]", .bad = RY_BAD_OTHER,
      .doc = "failures whose mean slowdown each point reports: plane or KIND:N" },
    { .key = "search.seeds", INT(1, 1000), SPEC(search.seeds), .def = "4", .unit = "draws",
      .bad = RY_BAD_OTHER, .doc = "random draws per KIND:N failure scenario" },
    { .key = "search.target_time", NUMBER(0, 1e9), SPEC(search.target_time), .def = "0",
      .unit = "seconds", .bad = RY_BAD_OTHER,
      .doc = "the answer's iteration time at most this (0: no target)" },
    { .key = "search.budget", NUMBER(0, 1e15), SPEC(search.budget), .def = "0", .unit = "USD",
      .bad = RY_BAD_OTHER, .doc = "the answer's capex at most this (0: no budget)" },
    { .key = "search.max_slowdown", NUMBER(0, 1e6), .type_doc = "number, 0 or >= 1",
      .check = check_slowdown, SPEC(search.max_slowdown), .def = "0", .bad = RY_BAD_OTHER,
      .doc = "the answer's expected slowdown under the failures at most this (0: no limit)" },
    { .key = "search.objective", ENUM(search_objectives), SPEC(search.objective),
      .def = "capex", .bad = RY_BAD_OTHER,
      .doc = "what the front and the answer price: the capex, or the cost of ownership over "
             "cost.years" },
    { .key = "search.threads", INT(0, 256), SPEC(search.threads), .def = "0",
      .unit = "threads", .bad = RY_BAD_OTHER,
      .doc = "points evaluated at once (0: one per processor)" },
    { .key = "search.published", CUSTOM("list of maps"), .flags = RY_KEY_READER,
      .bad = RY_BAD_OTHER, .doc = "names for the points that make a published design" },
    { .key = "search.published[].name", STRING(63), .flags = RY_KEY_READER | RY_KEY_REQUIRED,
      .bad = RY_BAD_OTHER, .doc = "the design's name on the table and the plot" },
    { .key = "search.published[].set", CUSTOM("map of spec key to value"),
      .flags = RY_KEY_READER | RY_KEY_REQUIRED, .bad = RY_BAD_OTHER,
      .doc = "the values a point takes to be the design" },

    { .key = "x-*", .type = RY_KEY_ANY, .doc = "ignored: a place for YAML anchors" },
};

const size_t ry_spec_nkeys = sizeof ry_spec_keys / sizeof ry_spec_keys[0];

const ry_key *ry_key_find(const char *key)
{
    for (size_t i = 0; i < ry_spec_nkeys; i++)
        if (strcmp(ry_spec_keys[i].key, key) == 0)
            return &ry_spec_keys[i];
    return NULL;
}

/* The last part of a dotted key: what the map holding it calls it. */
static const char *last_part(const char *key)
{
    const char *dot = strrchr(key, '.');
    return dot ? dot + 1 : key;
}

static int in_section(const ry_key *k, const char *section)
{
    size_t len = strlen(section);
    if (len == 0)
        return strchr(k->key, '.') == NULL;
    return strncmp(k->key, section, len) == 0 && k->key[len] == '.' &&
           strchr(k->key + len + 1, '.') == NULL;
}

/* ---- single-key rules --------------------------------------------------------------- */

static int read_version(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v)
{
    (void)k;
    if (n->kind != RY_YSCALAR || n->quoted || strcmp(n->value, "1") != 0) {
        ry_error_at(n->pos, "%s must be 1 (got %s): this railyard reads spec version 1", what,
                    ry_ynode_describe(n));
        return -1;
    }
    v->i = 1;
    return 0;
}

/* Names reach file paths, CSV, XLSX, DOT, GraphML, Slurm and ibnetdiscover
 * files: only characters every one of them carries as they are, and never a
 * first character a spreadsheet reads as a formula or a shell as an option. */
static int name_char(char c, int upper)
{
    return (c >= 'a' && c <= 'z') || (upper && c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-';
}

static int name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* A model's name (cluster.node.name, fabric.switch.name). */
static int check_model_name(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    const char *p = v->s;
    int ok = name_start(*p);
    for (; ok && *p; p++)
        ok = name_char(*p, 1);
    if (!ok) {
        char shown[RY_SHOWN_MAX];
        ry_error_at(pos, "%s must be letters, digits, '.', '_' or '-', starting with a letter or "
                    "digit (got '%s')", what, ry_shown(shown, v->s));
        return -1;
    }
    return 0;
}

static int name_ok(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= RY_NAME_MAX || !name_start(name[0]))
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
              *p == '-'))
            return 0;
    return 1;
}

/* Host names: checked by formatting a sample. */
static int check_prefix4(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    ry_prefix4 p;
    const char *why;
    if (ry_prefix4_parse(v->s, &p, &why) < 0) {
        ry_error_at(pos, "%s: %s (got '%s'); expected an IPv4 prefix such as 10.0.0.0/9", what,
                    why, v->s);
        return -1;
    }
    if ((why = ry_prefix4_special(&p))) {
        ry_error_at(pos, "%s: %s meets %s; expected a range of unicast addresses such as "
                    "10.0.0.0/9 (RFC 1918's private ranges)", what, v->s, why);
        return -1;
    }
    return 0;
}

static int check_prefix6(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    ry_prefix6 p;
    const char *why = NULL;
    if (ry_prefix6_parse(v->s, &p, &why) < 0 || p.len > 56) {
        ry_error_at(pos, "%s: %s (got '%s'); expected an IPv6 prefix of /56 or shorter such as "
                    "fd52:6169:6c00::/40", what, why ? why : "longer than /56", v->s);
        return -1;
    }
    if ((why = ry_prefix6_special(&p))) {
        ry_error_at(pos, "%s: %s meets %s; expected a range of unicast addresses such as "
                    "fd52:6169:6c00::/40 (a unique local range)", what, v->s, why);
        return -1;
    }
    return 0;
}

static int check_host_pattern(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    const char *s = v->s;
    char sample[RY_NAME_MAX], why[160];
    if (strlen(s) >= RY_NAME_MAX ||
        ry_name_pattern(s, 123456, 1234, sample, sizeof sample, why, sizeof why) < 0) {
        ry_error_at(pos, "%s: %s (got '%s'); expected text with {n}, {n1}, {unit} or {unit1}, "
                    "optionally with a width as in node{n1:03}", what,
                    strlen(s) >= RY_NAME_MAX ? "too long" : why, s);
        return -1;
    }
    int plain = name_start(sample[0]);
    for (const char *p = sample; plain && *p; p++)
        plain = name_char(*p, 1);
    if (!plain) {
        char shown[RY_SHOWN_MAX];
        ry_error_at(pos, "%s: host names must be letters, digits, '.', '_' or '-', starting with "
                    "a letter or digit (got '%s', which gives '%s')", what, ry_shown(shown, s),
                    sample);
        return -1;
    }
    if (!strstr(s, "{n}") && !strstr(s, "{n1}") && !strstr(s, "{n:") && !strstr(s, "{n1:")) {
        ry_error_at(pos, "%s must contain {n} or {n1} so that every %s gets its own name "
                    "(got '%s')", what, strcmp(k->key, "naming.node") == 0 ? "server" : "switch",
                    s);
        return -1;
    }
    return 0;
}

/* workload.model.name: the characters of a catalog name, as templates/llms.yaml's. */
static int check_llm_name(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    if (!ry_catalog_name_ok(v->s)) {
        ry_error_at(pos, "%s must be lowercase letters, digits, '.', '_' or '-', at most %d "
                    "characters (got '%.80s')", what, RY_NAME_MAX - 1, v->s);
        return -1;
    }
    return 0;
}

/* workload.compute_efficiency: no GPU computes at 0 of its peak. */
static int check_fraction(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    if (!(v->d > 0)) {
        ry_error_at(pos, "%s must be a fraction in (0, 1] (got %s)", what, v->s);
        return -1;
    }
    return 0;
}

/* search.max_slowdown: none (0), or a slowdown, which is never below 1. */
static int check_slowdown(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    if (v->d != 0 && v->d < 1) {
        ry_error_at(pos, "%s must be 0 (no limit) or a slowdown of at least 1, like 1.02 "
                    "(got %s)", what, v->s);
        return -1;
    }
    return 0;
}

/* network.dims[].name: a name constraints can use. */
static int check_dim_name(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    int why = ry_libra_dim_name_check(v->s);
    if (why == 1)
        ry_error_at(pos, "%s must be a lowercase letter then letters, digits or '_', at most %d "
                    "characters, and not bwN (got '%s')", what, RY_LIBRA_NAME_MAX - 1, v->s);
    else if (why == 2)
        ry_error_at(pos, "%s: '%s' is a reserved word in constraints", what, v->s);
    return why ? -1 : 0;
}

/* libra.budget, libra.cost_budget: a number > 0 (v->d, v->s NULL), or text
 * that may start with the comparison (v->s). */
static int read_budget(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v)
{
    (void)k;
    if (n->kind == RY_YSCALAR && !n->quoted && !ry_ynode_is_null(n)) {
        char sfx[128];
        int r = parse_quantity(k, n->value, &v->d);
        if (r >= 0 && v->d > 0)
            return 0;
        quantity_suffixes(k, sfx, sizeof sfx);
        if (r >= 0)
            ry_error_at(n->pos, "%s must be > 0 %s (got %s)", what, k->unit, n->value);
        else
            ry_error_at(n->pos, "%s must be a number > 0 %s, optionally followed by %s (got %s)",
                        what, k->unit, sfx, ry_ynode_describe(n));
        return -1;
    }
    return ry_yget_string(n, what, &v->s);
}

/* A time: 1 with v->d in seconds, 0 for a plain number (v->d the number),
 * or -1 after an error; plain says what a plain number counts. */
static int get_time(const char *what, const ry_ynode *n, const char *plain, ry_keyval *v)
{
    int r = -1;
    if (n->kind == RY_YSCALAR && !ry_ynode_is_null(n))
        r = ry_libra_parse_time(n->value, &v->d);
    if (r < 0)
        ry_error_at(n->pos, "%s must be a time >= 0 like 9.4ms, 120us or a plain number of %s "
                    "(got %s)", what, plain, ry_ynode_describe(n));
    return r;
}

/* libra.cycle_time: plain numbers are nanoseconds, as LIBRA reads them. */
static int read_cycle_time(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v)
{
    (void)k;
    int r = get_time(what, n, "nanoseconds", v);
    if (r == 0)
        v->d *= 1e-9;
    return r < 0 ? -1 : 0;
}

/* A phase's compute: a plain number is in libra.time_unit, another key, so
 * the reader scales it: v->i is 1 for a plain number. */
static int read_compute(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v)
{
    (void)k;
    int r = get_time(what, n, "libra.time_unit", v);
    v->i = r == 0;
    return r < 0 ? -1 : 0;
}

static int read_bytes(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v)
{
    (void)k;
    if (n->kind != RY_YSCALAR || ry_ynode_is_null(n) || ry_libra_parse_bytes(n->value, &v->d) < 0) {
        ry_error_at(n->pos, "%s must be a size >= 0 like 805306368, 768MiB or 1.5GB (got %s)",
                    what, ry_ynode_describe(n));
        return -1;
    }
    return 0;
}

/* A collective as LIBRA's spec or ASTRA-sim writes it: all-reduce, ALLREDUCE. */
static int read_collective(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v)
{
    (void)k;
    ry_coll c;
    if (ry_yget_string(n, what, &v->s) < 0)
        return -1;
    if (ry_coll_parse(v->s, &c) < 0) {
        ry_error_at(n->pos, "%s must be all-reduce, reduce-scatter, all-gather, all-to-all or "
                    "none (got '%s')", what, v->s);
        return -1;
    }
    v->i = c;
    return 0;
}

/* ---- units (railyard-spec(5), UNITS) ------------------------------------------------------ */

/* A symbol a value of a unit may end in, and what it multiplies by. */
typedef struct {
    const char *sym;
    double scale;
} unit_sym;

/* The symbols of the units whose values are not counts; every unit also
 * takes its own name ("0.5 metres", "8 GPUs"). The rest (GPUs, servers,
 * ports, tokens, USD, ... and rows without a unit) are counts: they take the
 * prefixes k, M, G, T (powers of 1000) and Ki, Mi, Gi, Ti (powers of 1024). */
static const struct {
    const char *unit;
    unit_sym syms[5];
} unit_syms[] = {
    { "metres", { { "m", 1 }, { "cm", 0.01 }, { "mm", 0.001 }, { "km", 1000 } } },
    { "W", { { "W", 1 }, { "kW", 1e3 } } },
    { "kW", { { "kW", 1 }, { "W", 1e-3 }, { "MW", 1e3 } } },
    { "percent", { { "%", 1 } } },
    { "rack units", { { "U", 1 } } },
    { "GB/s per NPU", { { "GB/s", 1 } } },
    { "USD per GB/s per NPU", { { NULL, 0 } } },
};

static const unit_sym count_prefixes[] = {
    { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 },
    { "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 }, { "Ti", 1099511627776.0 },
    { NULL, 0 }
};

/* The symbols of a row's unit; NULL for a count. */
static const unit_sym *unit_symbols(const ry_key *k)
{
    for (size_t i = 0; k->unit && i < sizeof unit_syms / sizeof unit_syms[0]; i++)
        if (strcmp(k->unit, unit_syms[i].unit) == 0)
            return unit_syms[i].syms;
    return NULL;
}

size_t ry_key_unit_suffixes(const ry_key *k, const char **out, size_t cap)
{
    const unit_sym *s = unit_symbols(k);
    size_t n = 0;
    for (int i = 0; s ? s[i].sym != NULL : count_prefixes[i].sym != NULL; i++)
        if (n < cap)
            out[n++] = s ? s[i].sym : count_prefixes[i].sym;
    if (k->unit && n < cap)
        out[n++] = k->unit;
    return n;
}

/* The scale of suffix for row k: 0 when the row does not take it. A count
 * takes a prefix with or without its unit's name after it ("4k GPUs"). */
static double suffix_scale(const ry_key *k, const char *suffix)
{
    const unit_sym *s = unit_symbols(k);
    size_t len;
    if (k->unit && strcmp(suffix, k->unit) == 0)
        return 1;
    for (int i = 0; s && s[i].sym; i++)
        if (strcmp(suffix, s[i].sym) == 0)
            return s[i].scale;
    for (int i = 0; !s && count_prefixes[i].sym; i++) {
        len = strlen(count_prefixes[i].sym);
        if (strncmp(suffix, count_prefixes[i].sym, len) != 0)
            continue;
        const char *rest = suffix + len;
        if (*rest == ' ')
            rest++;
        if (*rest == '\0' || (k->unit && strcmp(rest, k->unit) == 0))
            return count_prefixes[i].scale;
    }
    return 0;
}

/* A number with an optional suffix of row k's unit, in decimal with an
 * optional sign, fraction and exponent: 1 with *out scaled, 0 for a plain
 * number, -1 when it is neither. */
static int parse_quantity(const ry_key *k, const char *text, double *out)
{
    const char *p = text;
    if (*p == '+' || *p == '-')
        p++;
    if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno == ERANGE || !isfinite(v))
        return -1;
    for (const char *q = text; q < end; q++)
        if (!strchr("0123456789.+-eE", *q))
            return -1;      /* hexadecimal floats, inf, nan */
    if (*end == '\0') {
        *out = v;
        return 0;
    }
    const char *suf = end;
    if (*suf == ' ')
        suf++;
    double scale = *suf ? suffix_scale(k, suf) : 0;
    if (scale == 0)
        return -1;
    *out = v * scale;
    return isfinite(*out) ? 1 : -1;
}

/* What row k's value must be, with its unit: "an integer in 1..8",
 * "a whole number of GPUs >= 1", "an even number of ports >= 4",
 * "0..50 metres", ">= 0 USD". */
static void quantity_expected(const ry_key *k, char *buf, size_t cap)
{
    const char *u = k->unit;
    char range[64];
    if (k->type == RY_KEY_NUMBER) {
        if (k->dmax >= 1e300)
            snprintf(range, sizeof range, ">= %g", k->dmin);
        else
            snprintf(range, sizeof range, "%g..%g", k->dmin, k->dmax);
        if (u)
            snprintf(buf, cap, "%s %s", range, u);
        else
            snprintf(buf, cap, "a number %s%s", k->dmax >= 1e300 ? "" : "in ", range);
        return;
    }
    if (k->flags & RY_KEY_EVEN)
        snprintf(range, sizeof range, ">= %lld", k->min);
    else if (k->max <= WIDE_RANGE)
        snprintf(range, sizeof range, "in %lld..%lld", k->min, k->max);
    else
        snprintf(range, sizeof range, ">= %lld", k->min);
    snprintf(buf, cap, "%s%s%s%s %s", k->type == RY_KEY_AUTO_INT ? "auto or " : "",
             k->flags & RY_KEY_EVEN ? "an even number" : u ? "a whole number" : "an integer",
             u ? " of " : "", u ? u : "", range);
}

/* The suffixes row k takes, for messages: "m, cm, mm, km or metres". */
static void quantity_suffixes(const ry_key *k, char *buf, size_t cap)
{
    const char *sfx[16];
    size_t n = ry_key_unit_suffixes(k, sfx, 16), len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                i == 0 ? "" : i + 1 < n ? ", " : " or ", sfx[i]);
}

/* INT, AUTO_INT and NUMBER rows: a number in the row's range, with a
 * suffix of its unit. Messages name the unit. */
static int get_quantity(const ry_key *k, const char *what, const ry_ynode *n, ry_keyval *v)
{
    char exp[128], sfx[128];
    int isint = k->type != RY_KEY_NUMBER, range = 0, ok;
    long long x = 0;
    double d = 0;

    int scalar = n->kind == RY_YSCALAR && !ry_ynode_is_null(n);
    if (k->type == RY_KEY_AUTO_INT && scalar && strcasecmp(n->value, "auto") == 0) {
        v->i = 0;
        return 0;
    }
    quantity_expected(k, exp, sizeof exp);
    /* Integers as ry_yget_int reads them (0x.., 0o..), else with a suffix. */
    ok = scalar && !n->quoted && isint && ry_yscalar_int(n, &x, &range);
    if (!ok && scalar && !n->quoted && parse_quantity(k, n->value, &d) >= 0) {
        ok = !isint || d == floor(d);
        if (ok && isint) {
            range = d > 9e18 ? 1 : d < -9e18 ? -1 : 0;
            x = range ? 0 : (long long)d;
        }
    }
    if (!ok) {
        const char *hint = "";
        if (scalar && n->quoted && parse_quantity(k, n->value, &d) >= 0)
            hint = "; write it without quotes";
        /* A count that small has no use for k or Ki. */
        sfx[0] = '\0';
        if (k->type == RY_KEY_NUMBER || k->max >= 1000 || unit_symbols(k))
            quantity_suffixes(k, sfx, sizeof sfx);
        ry_error_at(n->pos, "%s must be %s%s%s (got %s%s)", what, exp,
                    sfx[0] ? ", optionally followed by " : "", sfx, ry_ynode_describe(n), hint);
        return -1;
    }
    if (!isint) {
        if (d < k->dmin || d > k->dmax) {
            ry_error_at(n->pos, "%s must be %s (got %s)", what, exp, n->value);
            return -1;
        }
        v->d = d;
        v->s = n->value;
        return 0;
    }
    if ((range > 0 || x > k->max) && (k->max > WIDE_RANGE || (k->flags & RY_KEY_EVEN))) {
        ry_error_at(n->pos, "%s is too large (got %s; at most %lld%s%s)", what, n->value, k->max,
                    k->unit ? " " : "", k->unit ? k->unit : "");
        return -1;
    }
    if (range || x < k->min || x > k->max || ((k->flags & RY_KEY_EVEN) && x % 2)) {
        ry_error_at(n->pos, "%s must be %s (got %s)", what, exp, n->value);
        return -1;
    }
    v->i = x;
    return 0;
}

/* A hex string ("0x0002c90000000000") or a number. The plan adds less than
 * 2^33 + 2^31 (a switch's GUID, ry_guid_switch), which must not wrap. */
static int get_guid(const char *what, const ry_ynode *n, ry_keyval *v)
{
    char *end = NULL;
    unsigned long long g = 0;
    int ok = n->kind == RY_YSCALAR && n->value && n->value[0] != '-';
    if (ok) {
        errno = 0;
        g = strtoull(n->value, &end, 0);
        ok = errno == 0 && end != n->value && *end == '\0';
    }
    if (!ok) {
        ry_error_at(n->pos, "%s must be a 64-bit GUID like 0x0002c90000000000 (got %s)", what,
                    ry_ynode_describe(n));
        return -1;
    }
    if (g > 0xFFFFFFF000000000ULL || g == 0) {
        ry_error_at(n->pos, "%s 0x%016llx leaves no room for the plan (CA GUIDs use base + "
                    "2^32.., switches base + 2^33..): use a non-zero base below "
                    "0xfffffff000000000", what, g);
        return -1;
    }
    v->u = g;
    return 0;
}

int ry_key_get(const ry_key *k, const ry_ynode *n, const char *what, ry_keyval *v)
{
    int b, i;
    RY_ASSERT(k != NULL && n != NULL);
    memset(v, 0, sizeof *v);
    if (!what)
        what = k->key;
    if (k->read) {
        if (k->read(k, what, n, v) < 0)
            return -1;
    } else {
        switch (k->type) {
        case RY_KEY_INT:
        case RY_KEY_AUTO_INT:
        case RY_KEY_NUMBER:
            if (get_quantity(k, what, n, v) < 0)
                return -1;
            break;
        case RY_KEY_BOOL:
            if (ry_yget_bool(n, what, &b) < 0)
                return -1;
            v->i = b;
            break;
        case RY_KEY_STRING:
            if (ry_yget_string(n, what, &v->s) < 0)
                return -1;
            if (k->max > 0 && strlen(v->s) > (size_t)k->max) {
                ry_error_at(n->pos, "%s is longer than %lld characters", what, k->max);
                return -1;
            }
            break;
        case RY_KEY_NAME:
            if (ry_yget_string(n, what, &v->s) < 0)
                return -1;
            if (!name_ok(v->s)) {
                char shown[RY_SHOWN_MAX];
                ry_error_at(n->pos, "%s must be lowercase letters, digits, '.', '_' or '-', "
                            "starting with a letter or digit, at most %d characters (got '%s')",
                            what, RY_NAME_MAX - 1, ry_shown(shown, v->s));
                return -1;
            }
            break;
        case RY_KEY_ENUM:
            if (ry_yget_enum(n, what, k->words, &i) < 0)
                return -1;
            v->i = i;
            v->s = k->words[i];
            break;
        case RY_KEY_SPEED: {
            char text[16];
            if (ry_yget_speed(n, what, &v->d, text, sizeof text) < 0)
                return -1;
            v->s = n->value;
            break;
        }
        case RY_KEY_GUID:
            if (get_guid(what, n, v) < 0)
                return -1;
            break;
        default:
            RY_ASSERT(!"a row of this type holds no scalar");
        }
    }
    if (k->check && k->check(k, what, n->pos, v) < 0)
        return -1;
    return 0;
}

int ry_key_get_item(const char *key, const ry_ynode *n, const char *what, double min,
                    double max, double *out)
{
    const ry_key *k = ry_key_find(key);
    RY_ASSERT(k != NULL);
    ry_key item = *k;
    item.type = RY_KEY_NUMBER;
    item.dmin = min;
    item.dmax = max;
    item.read = NULL;
    item.check = NULL;
    ry_keyval v;
    if (ry_key_get(&item, n, what, &v) < 0)
        return -1;
    *out = v.d;
    return 0;
}

int ry_schema_get(const ry_ynode *map, const char *key, ry_keyval *v)
{
    return ry_schema_get_as(map, key, NULL, v);
}

int ry_schema_get_as(const ry_ynode *map, const char *key, const char *prefix, ry_keyval *v)
{
    const ry_key *k = ry_key_find(key);
    RY_ASSERT(k != NULL);
    const ry_ynode *n = ry_ymap_get(map, last_part(key));
    if (!n)
        return 0;
    char what[160];
    if (prefix)
        snprintf(what, sizeof what, "%s.%s", prefix, last_part(key));
    return ry_key_get(k, n, prefix ? what : NULL, v) < 0 ? -1 : 1;
}

int ry_schema_entry_field(const ry_ynode *e, const char *list, const char *field,
                          const char *what, size_t i, const char *hint, char *w, size_t wcap,
                          ry_keyval *kv, const ry_ynode **v)
{
    char row[64];
    snprintf(row, sizeof row, "%s[].%s", list, field);
    const ry_key *k = ry_key_find(row);
    RY_ASSERT(k != NULL);
    *v = ry_ymap_get(e, field);
    snprintf(w, wcap, "%s[%zu].%s", what, i, field);
    if (!*v) {
        if (!(k->flags & RY_KEY_REQUIRED))
            return 0;
        ry_error_at(e->pos, "%s is missing (%s)", w, hint ? hint : k->doc);
        return -1;
    }
    if (!kv)
        return 1;
    RY_ASSERT(k->type != RY_KEY_CUSTOM);
    return ry_key_get(k, *v, w, kv) < 0 ? -1 : 1;
}

int ry_schema_take(const ry_ynode *map, const char *key, const char *prefix, void *base)
{
    ry_keyval v;
    int r = ry_schema_get_as(map, key, prefix, &v);
    if (r > 0)
        ry_key_store(ry_key_find(key), base, &v);
    return r;
}

/* ---- storing, defaults ----------------------------------------------------------------- */

void ry_key_store(const ry_key *k, void *base, const ry_keyval *v)
{
    char *p = (char *)base + k->off;
    if (!k->size)
        return;
    switch (k->type) {
    case RY_KEY_INT:
    case RY_KEY_AUTO_INT:
    case RY_KEY_BOOL:
    case RY_KEY_ENUM:
        if (k->type == RY_KEY_ENUM && (k->flags & RY_KEY_TEXT)) {
            snprintf(p, k->size, "%s", v->s);
        } else if (k->size == sizeof(long long)) {
            *(long long *)(void *)p = v->i;
        } else {
            RY_ASSERT(k->size == sizeof(int));
            *(int *)(void *)p = (int)v->i;
        }
        break;
    case RY_KEY_NUMBER:
    case RY_KEY_SPEED:
        RY_ASSERT(k->size == sizeof(double));
        *(double *)(void *)p = v->d;
        if (k->size2)
            snprintf((char *)base + k->off2, k->size2, "%s", v->s);
        break;
    case RY_KEY_GUID:
        RY_ASSERT(k->size == sizeof(unsigned long long));
        *(unsigned long long *)(void *)p = v->u;
        break;
    case RY_KEY_STRING:
    case RY_KEY_NAME:
        snprintf(p, k->size, "%s", v->s);
        break;
    default:
        RY_ASSERT(!"a row of this type has no field");
    }
}

static void *base_of(const ry_key *k, const ry_spec *s)
{
    switch (k->in) {
    case RY_IN_SPEC:
        return (void *)s;
    case RY_IN_NODE:
        return (void *)&s->node;
    case RY_IN_SWITCH:
        return (void *)&s->sw;
    default:
        RY_ASSERT(!"the row's field is not in a ry_spec");
        return NULL;
    }
}

/* A scalar holding text, as if a spec had it at pos. */
static ry_ynode scalar(const char *text, int quoted, ry_pos pos)
{
    ry_ynode n;
    memset(&n, 0, sizeof n);
    n.kind = RY_YSCALAR;
    n.value = (char *)text;
    n.quoted = quoted;
    n.pos = pos;
    return n;
}

void ry_schema_defaults_in(ry_key_in in, void *base)
{
    ry_pos here = { "railyard-spec(5)", 0, 0 };
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const ry_key *k = &ry_spec_keys[i];
        ry_keyval v;
        if (k->in != in || !k->size || !k->def)
            continue;
        ry_ynode n = scalar(k->def, k->type == RY_KEY_STRING || k->type == RY_KEY_NAME, here);
        RY_ASSERT(ry_key_get(k, &n, NULL, &v) == 0);
        ry_key_store(k, base, &v);
    }
}

void ry_schema_defaults(ry_spec *s)
{
    ry_schema_defaults_in(RY_IN_SPEC, s);
    ry_schema_defaults_in(RY_IN_NODE, &s->node);
    ry_schema_defaults_in(RY_IN_SWITCH, &s->sw);
}

/* ---- reading a section ------------------------------------------------------------------- */

int ry_schema_check_keys(const ry_ynode *map, const char *section, const char *what)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < ry_spec_nkeys; i++)
        if (in_section(&ry_spec_keys[i], section)) {
            RY_ASSERT(n + 1 < sizeof names / sizeof names[0]);
            names[n++] = last_part(ry_spec_keys[i].key);
        }
    names[n] = NULL;
    return ry_ycheck_keys(map, what ? what : section, names);
}

unsigned ry_schema_read(const ry_ynode *map, const char *section, void *base,
                        ry_schema_custom_fn custom, void *ctx)
{
    unsigned bad = 0;
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const ry_key *k = &ry_spec_keys[i];
        ry_keyval v;
        if (!in_section(k, section) || k->type == RY_KEY_SECTION || k->type == RY_KEY_ANY ||
            (k->flags & RY_KEY_READER))
            continue;
        const ry_ynode *n = ry_ymap_get(map, last_part(k->key));
        if (!n)
            continue;
        if (k->type == RY_KEY_CUSTOM) {
            if (custom)
                custom(ctx, k, n);
        } else if (ry_key_get(k, n, NULL, &v) < 0) {
            bad |= k->bad;
        } else {
            ry_key_store(k, base, &v);
        }
    }
    return bad;
}

/* ---- checking a spec built in code --------------------------------------------------------- */

/* The field's value as a spec would write it; NULL when it means "not given". */
static const char *field_text(const ry_key *k, const void *base, char *buf, size_t cap)
{
    const char *p = (const char *)base + k->off;
    long long i = 0;
    double d;
    switch (k->type) {
    case RY_KEY_INT:
    case RY_KEY_AUTO_INT:
    case RY_KEY_BOOL:
    case RY_KEY_ENUM:
        if (k->type == RY_KEY_ENUM && (k->flags & RY_KEY_TEXT))
            return p;
        i = k->size == sizeof(long long) ? *(const long long *)(const void *)p
                                         : *(const int *)(const void *)p;
        if (i == 0 && (k->flags & RY_KEY_ZERO_UNSET))
            return NULL;
        if (k->type == RY_KEY_ENUM && i < 0)    /* left to the code that uses it */
            return NULL;
        if (k->type == RY_KEY_AUTO_INT && i == 0)
            return "auto";
        if (k->type == RY_KEY_BOOL)
            return i ? "true" : "false";
        if (k->type == RY_KEY_ENUM) {
            for (int w = 0; k->words[w]; w++)
                if (w == i)
                    return k->words[w];
            return "?";
        }
        snprintf(buf, cap, "%lld", i);
        return buf;
    case RY_KEY_NUMBER:
    case RY_KEY_SPEED:
        d = *(const double *)(const void *)p;
        snprintf(buf, cap, "%g", d);
        if (strtod(buf, NULL) != d)
            snprintf(buf, cap, "%.17g", d);
        return buf;
    case RY_KEY_GUID:
        snprintf(buf, cap, "0x%llx", *(const unsigned long long *)(const void *)p);
        return buf;
    case RY_KEY_STRING:
    case RY_KEY_NAME:
        return p;
    default:
        return NULL;
    }
}

unsigned ry_schema_check_struct(const ry_spec *s)
{
    unsigned bad = 0;
    /* Node models are checked through the cluster keys that hold their
     * values; a model's own keys were checked where it was read, as were
     * the keys of the sections a spec built in code has none of. */
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const ry_key *k = &ry_spec_keys[i];
        char buf[64];
        ry_keyval v;
        if (!k->size || (k->in != RY_IN_SPEC && k->in != RY_IN_SWITCH))
            continue;
        const char *text = field_text(k, base_of(k, s), buf, sizeof buf);
        /* an empty string with no default is unset: the default is made
         * where it is used (naming.node's width follows the cluster) */
        if (!text || (k->type == RY_KEY_STRING && !k->def && !text[0]))
            continue;
        ry_ynode n = scalar(text, k->type == RY_KEY_STRING || k->type == RY_KEY_NAME,
                            ry_spec_pos(s, k->key));
        if (ry_key_get(k, &n, NULL, &v) < 0)
            bad |= k->bad;
    }
    return bad;
}

/* ---- the reference: what railyard-spec(5) says of each row ---------------------------------- */

void ry_key_summary(const ry_key *k, char *buf, size_t cap)
{
    ry_buf b;
    ry_buf_init(&b);
    switch (k->type_doc ? RY_KEY_CUSTOM : k->type) {
    case RY_KEY_INT:
        ry_buf_printf(&b, "%s", k->flags & RY_KEY_EVEN ? "even integer" : "integer");
        if (k->min == k->max)
            ry_buf_printf(&b, ", %lld", k->min);
        else
            ry_buf_printf(&b, ", %lld..%lld", k->min, k->max);
        break;
    case RY_KEY_AUTO_INT:
        ry_buf_printf(&b, "auto or integer, %lld..%lld", k->min, k->max);
        break;
    case RY_KEY_NUMBER:
        if (k->dmax >= 1e300)
            ry_buf_printf(&b, "number, >= %g", k->dmin);
        else
            ry_buf_printf(&b, "number, %g..%g", k->dmin, k->dmax);
        break;
    case RY_KEY_BOOL:
        ry_buf_puts(&b, "boolean");
        break;
    case RY_KEY_STRING:
        ry_buf_puts(&b, "string");
        if (k->max > 0)
            ry_buf_printf(&b, ", at most %lld characters", k->max);
        break;
    case RY_KEY_NAME:
        ry_buf_printf(&b, "name, at most %d characters", RY_NAME_MAX - 1);
        break;
    case RY_KEY_ENUM:
        for (int i = 0; k->words[i]; i++)
            ry_buf_printf(&b, "%s%s", i ? (k->words[i + 1] ? ", " : " or ") : "", k->words[i]);
        break;
    case RY_KEY_SPEED:
        ry_buf_puts(&b, "speed");
        break;
    case RY_KEY_GUID:
        ry_buf_puts(&b, "GUID");
        break;
    case RY_KEY_CUSTOM:
        ry_buf_puts(&b, k->type_doc);
        break;
    case RY_KEY_SECTION:
        ry_buf_puts(&b, "section");
        break;
    case RY_KEY_ANY:
        ry_buf_puts(&b, "ignored");
        break;
    }
    if (k->flags & RY_KEY_REQUIRED)
        ry_buf_puts(&b, "; required");
    else if (k->def_doc || k->def)
        ry_buf_printf(&b, "; default %s", k->def_doc ? k->def_doc : k->def);
    if (k->unit)
        ry_buf_printf(&b, "; %s", k->unit);
    snprintf(buf, cap, "%s", b.data ? b.data : "");
    ry_buf_free(&b);
}

/* ---- cross-key rules ------------------------------------------------------------------------ */

static int has_key(const ry_spec *s, const char *key)
{
    return s->doc && ry_ydoc_find(s->doc, key, NULL) != NULL;
}

/* The first of the keys present in the document, else the last one. */
static const char *blame(const ry_spec *s, const char *a, const char *b, const char *c)
{
    if (has_key(s, a))
        return a;
    if (b && has_key(s, b))
        return b;
    return c ? c : (b ? b : a);
}

/* growth: one of target_nodes and target_gpus, in the cluster's units and
 * at least its size; leaves target_gpus the target in GPUs, 0 when it is
 * the cluster's own size (nothing to reserve). */
static void rules_growth(ry_spec *s, unsigned bad)
{
    long long nodes = s->growth.target_nodes, gpus = s->growth.target_gpus;
    int gpn = s->node.gpus_per_node, k = s->hb_domain;
    s->growth.target_gpus = 0;
    if (!nodes && !gpus)
        return;
    if (has_key(s, "growth.target_nodes") && has_key(s, "growth.target_gpus")) {
        ry_spec_error(s, "growth.target_gpus", "growth.target_nodes and growth.target_gpus are "
                      "mutually exclusive: give one of them");
        return;
    }
    if (bad & (RY_BAD_GPUS | RY_BAD_HB | RY_BAD_GPN | RY_BAD_NODE) || gpn <= 0 || k <= 0)
        return;
    const char *key = nodes ? "growth.target_nodes" : "growth.target_gpus";
    if (nodes && nodes > MAX_GPUS / gpn) {
        ry_spec_error(s, key, "growth.target_nodes is too large: %lld nodes of %d GPUs is more "
                      "than %d GPUs", nodes, gpn, MAX_GPUS);
        return;
    }
    long long target = nodes ? nodes * gpn : gpus;   /* nodes first: gpus may be resolved */
    int unit = k > gpn ? k : gpn;
    if (target % unit) {
        if (nodes)
            ry_spec_error(s, key, "growth.target_nodes must be a multiple of %d, the nodes of one "
                          "HB domain (%d GPUs, %d per node) (got %lld)", unit / gpn, k, gpn,
                          nodes);
        else
            ry_spec_error(s, key, "growth.target_gpus must be a multiple of %d (%s) (got %lld)",
                          unit, k >= gpn ? "the HB domain size cluster.hb_domain"
                                         : "the GPUs per node", gpus);
        return;
    }
    if (target < s->gpus) {
        if (nodes)
            ry_spec_error(s, key, "growth.target_nodes must be at least the cluster's %lld nodes: "
                          "it is the size the cluster grows to (got %lld)", s->nodes, nodes);
        else
            ry_spec_error(s, key, "growth.target_gpus must be at least the cluster's %lld GPUs: "
                          "it is the size the cluster grows to (got %lld)", s->gpus, gpus);
        return;
    }
    s->growth.target_gpus = target > s->gpus ? target : 0;
}

void ry_spec_rules_cluster(ry_spec *s, unsigned bad)
{
    int k = s->hb_domain, gpn = s->node.gpus_per_node;

    if (k <= 0)
        bad |= RY_BAD_HB;
    if (gpn <= 0)
        bad |= RY_BAD_GPN;
    if (s->rails <= 0)
        bad |= RY_BAD_RAILS;
    if (!(bad & (RY_BAD_HB | RY_BAD_GPN)) && k % gpn && gpn % k) {
        const char *key = blame(s, "cluster.hb_domain", "cluster.gpus_per_node", "cluster.node");
        ry_spec_error(s, key, "cluster.hb_domain (%d) and cluster.gpus_per_node (%d) must divide "
                      "one another: an HB domain is part of a node or a whole number of nodes",
                      k, gpn);
        bad |= RY_BAD_HB;
    }
    if (!(bad & (RY_BAD_GPUS | RY_BAD_HB | RY_BAD_GPN | RY_BAD_NODE))) {
        int unit = k > gpn ? k : gpn;
        if (s->gpus % unit) {
            if (has_key(s, "cluster.nodes"))
                ry_spec_error(s, "cluster.nodes", "cluster.nodes must be a multiple of %d, the "
                              "nodes of one HB domain (%d GPUs, %d per node) (got %lld)",
                              unit / gpn, k, gpn, s->nodes);
            else
                ry_spec_error(s, "cluster.gpus", "cluster.gpus must be a multiple of %d (%s) "
                              "(got %lld)", unit,
                              k >= gpn ? "the HB domain size cluster.hb_domain"
                                       : "the GPUs per node",
                              s->gpus);
            bad |= RY_BAD_GPUS;
        }
    }
    rules_growth(s, bad);
    if (!(bad & RY_BAD_PLANES) && s->homing != RY_HOMING_SINGLE && s->planes % 2)
        ry_spec_error(s, has_key(s, "fabric.homing") ? "fabric.homing" : "cluster.planes",
                      "fabric.homing %s puts a NIC's ports on ToR pairs, two by two: "
                      "cluster.planes (NIC ports per GPU) must be even (got %d)",
                      s->homing == RY_HOMING_DUAL_TOR ? "dual-tor" : "dual-plane", s->planes);
    if (!(bad & (RY_BAD_RAILS | RY_BAD_HB))) {
        if (s->rails > k)
            ry_spec_error(s, "cluster.rails", "cluster.rails must be at most the HB domain size "
                          "%d: each GPU of a domain sits on one rail (got %d)", k, s->rails);
        else if (k % s->rails)
            ry_spec_error(s, "cluster.rails", "cluster.rails must divide the HB domain size %d "
                          "(got %d)", k, s->rails);
    }
}

void ry_spec_rules_ib(ry_spec *s)
{
    if (s->ib.lmc > 0 && strcmp(s->ib.routing_engine, "ftree") == 0)
        ry_spec_error(s, "infiniband.lmc", "infiniband.lmc %d cannot be routed by ftree, which "
                      "needs LMC 0: use lmc: 0 or routing_engine: updn", s->ib.lmc);
}

/* Whether the cluster fits is the layout builder's to say. */
void ry_spec_rules_layout(ry_spec *s)
{
    double top = 0.1 + s->layout.rack_units * 0.04445;
    if (s->layout.tray_height < top)
        ry_spec_error(s, "layout.tray_height", "layout.tray_height %.2f m is below the top of a "
                      "%dU rack (%.2f m): the overhead tray must clear the racks",
                      s->layout.tray_height, s->layout.rack_units, top);
    int room = s->layout.rack_units - s->layout.first_unit + 1;
    if (s->layout.node_units > room)
        ry_spec_error(s, has_key(s, "layout.node_units") ? "layout.node_units" : "layout.rack_units",
                      "a %dU node does not fit in a %dU rack from unit %d", s->layout.node_units,
                      s->layout.rack_units, s->layout.first_unit);
    else if (s->layout.nodes_per_rack * s->layout.node_units > room)
        ry_spec_error(s, has_key(s, "layout.nodes_per_rack") ? "layout.nodes_per_rack"
                                                               : "layout.rack_units",
                      "%d nodes of %dU do not fit in a %dU rack from unit %d (at most %d)",
                      s->layout.nodes_per_rack, s->layout.node_units, s->layout.rack_units,
                      s->layout.first_unit, room / s->layout.node_units);
    else if (s->node.ntrays && s->layout.nodes_per_rack * s->layout.node_units +
                                   ry_rack_tray_units(&s->node) > room)
        ry_spec_error(s, has_key(s, "layout.nodes_per_rack") ? "layout.nodes_per_rack"
                         : has_key(s, "cluster.node.rack_trays") ? "cluster.node.rack_trays"
                                                                  : "layout.rack_units",
                      "%d nodes of %dU and the rack's other trays (%dU, cluster.node.rack_trays) "
                      "do not fit in a %dU rack from unit %d (%d units)",
                      s->layout.nodes_per_rack, s->layout.node_units,
                      ry_rack_tray_units(&s->node), s->layout.rack_units, s->layout.first_unit,
                      room);
    if (s->layout.switch_units > room)
        ry_spec_error(s, "layout.switch_units", "a %dU switch does not fit in a %dU rack",
                      s->layout.switch_units, s->layout.rack_units);
}

int ry_spec_placement_parse(const char *text, int *scattered, unsigned long long *seed)
{
    *scattered = 0;
    *seed = 1;
    if (strcmp(text, "contiguous") == 0)
        return 0;
    if (strncmp(text, "scattered", 9) != 0)
        return -1;
    *scattered = 1;
    if (!text[9])
        return 0;
    if (text[9] != ':' || !isdigit((unsigned char)text[10]))
        return -1;
    char *end;
    errno = 0;
    *seed = strtoull(text + 10, &end, 10);
    return errno || *end ? -1 : 0;
}

/* network.placement: contiguous or scattered[:SEED]. */
static int check_placement(const ry_key *k, const char *what, ry_pos pos, const ry_keyval *v)
{
    (void)k;
    int sc;
    unsigned long long seed;
    if (ry_spec_placement_parse(v->s, &sc, &seed) == 0)
        return 0;
    char shown[RY_SHOWN_MAX];
    ry_error_at(pos, "%s must be contiguous, scattered or scattered:SEED (SEED a whole number) "
                "(got '%s')", what, ry_shown(shown, v->s));
    return -1;
}
