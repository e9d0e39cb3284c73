/* The cluster spec: the YAML file parsed, checked, catalog entries resolved.
 * Everything downstream (builder, analyses, emitters, models) reads this
 * struct, never the document. Its keys, with type, range, default and unit,
 * are the rows of the schema (spec/schema.c; railyard-spec(5) documents
 * them); the workload:, network: and libra: sections are read in spec/ too
 * (workload.c, libra_spec.c) during ry_spec_load. */
#ifndef RY_SPEC_H
#define RY_SPEC_H

#include <stddef.h>

#include "util/diag.h"

/* Switch tiers of a fabric. 8 is past any real need: 8 tiers of radix-32
 * switches hold 2 x 16^8 (8.6e9) GPUs, far more than RY_MAX_GPUS; only a
 * toy radix needs more, and is refused ("2048 GPUs need more than 8 tiers
 * of radix-4 switches"). It is also what the consumers stop at: OpenSM's
 * fat-tree routing ranks at most 8 levels (its FAT_TREE_MAX_RANK), and a
 * route up and down 8 tiers crosses 15 switches, far inside a directed
 * route's 63 hops. The per-tier arrays of the spec and the fabric are
 * sized by it. */
#define RY_MAX_TIERS 8
#define RY_MAX_PLANES 8     /* NIC ports per GPU (cluster.planes) */
/* GPUs in one spec: far past any cluster built (the largest are a few
 * hundred thousand); the graph itself is bounded by the builder
 * (RY_MAX_PORTS, fabric/fabric.h), since forced tiers or planes can make
 * it far larger than the GPUs alone do. */
#define RY_MAX_GPUS (1 << 22)
#define RY_NAME_MAX 64

typedef enum {
    RY_DESIGN_RAIL_OPTIMIZED = 0,
    RY_DESIGN_RAIL_ONLY = 1,
    RY_DESIGN_FAT_TREE = 2
} ry_design;

const char *ry_design_name(ry_design d);
/* fabric.design rack-tor is read as design fat-tree with rack_tor set. */
#define RY_DESIGN_RACK_TOR_WORD 3
struct ry_spec;
/* The spec's design as it wrote it: rack-tor, or ry_design_name's word. */
const char *ry_spec_design_word(const struct ry_spec *s);

/* A switch model (catalog entry or inline). */
typedef struct ry_switch_model {
    char name[RY_NAME_MAX];
    int radix;              /* ports at port_gbps */
    double port_gbps;       /* speed of one port, Gb/s */
    char speed[16];         /* as written: "400G", "NDR" ... (informational) */
    int ethernet;           /* 0: InfiniBand (subnet manager files apply), 1: Ethernet */
    int units;              /* rack units (0 = unknown: 1U) */
    int cage_ports;         /* ports per cage: 2 for twin-port OSFP (0 = unknown: 1) */
    double price;           /* list price of one switch, USD (0 = unknown) */
    char part[32];          /* vendor part number ("" = unknown) */
    double power_w;         /* maximum power of one switch with its cages full of
                             * optics, watts (0 = unknown) */
    double price_range;     /* percent its price may be off list, either way
                             * (0: the spec's cost.range_switches) */
    /* From the catalog entry only (no spec key yet): */
    char connector[16];     /* cage form factor: "osfp", "qsfp56" ... ("" = any medium fits) */
    int cages;              /* cages on the faceplate; radix / (cages * cage_ports) > 1
                             * means split ports (0 = unknown: no split) */
    char vendor[32];        /* maker, "" = unknown (NetBox's manufacturer) */
    int sharp;              /* 1: its ASIC reduces in the network (InfiniBand SHARP):
                             * network.sharp may be set on a fabric of it */
} ry_switch_model;

/* One compute NIC port of a server, as the vendor's guide names it. */
#define RY_NICS_MAX 64          /* NIC ports in a node's table: 8 GPUs x 8 planes */
typedef struct ry_nic_name {
    char rdma[16];          /* RDMA device: "mlx5_3" */
    char netdev[16];        /* network interface: "ibp64s0" ("" = unknown) */
    char cage[16];          /* faceplate cage and port: "OSFP3P2" ("" = unknown) */
} ry_nic_name;

/* A kind of tray a rack of a rack-scale system holds besides its compute
 * trays (the nodes): NVLink switch trays, power shelves, management
 * switches. Every compute rack holds per_rack of each, above its nodes. */
#define RY_TRAYS_MAX 8          /* tray kinds of a node's rack */
typedef struct ry_rack_tray {
    char kind[32];          /* "nvlink-switch-tray": a device name's stem and role */
    char part[48];          /* model or part name ("" = unknown) */
    int per_rack;           /* trays of the kind in one rack */
    int units;              /* rack units of one tray */
    double power_w;         /* maximum power of one tray, watts (0 = unknown) */
} ry_rack_tray;

/* A node (server) model: catalog entry or inline. */
typedef struct ry_node_model {
    char name[RY_NAME_MAX];
    int gpus_per_node;
    int hb_domain;          /* GPUs per HB domain */
    double nic_gbps;        /* per GPU NIC port */
    double nic_total_gbps;  /* a GPU's NIC bandwidth, split evenly over its planes: each
                             * plane's port gets nic_total_gbps / planes unless nic_speed
                             * is given (0 = not given) */
    int planes;             /* NIC ports per GPU it is built with (0 = unknown: 1) */
    int units;              /* rack units of one node (0 = unknown) */
    int per_rack;           /* nodes per rack, as usually installed (0 = unknown) */
    int cage_ports;         /* NIC ports per cage (0 = unknown: 1) */
    double power_w;         /* maximum power of one node, watts (0 = unknown) */
    int nnics;              /* entries of nics (0: every port is mlx5_<i>) */
    ry_nic_name nics[RY_NICS_MAX];  /* NIC port i = GPU in node + plane * GPUs per node */
    int ntrays;             /* entries of trays (0: the rack holds nodes only) */
    ry_rack_tray trays[RY_TRAYS_MAX];
    char connector[16];     /* NIC cage form factor, from the catalog entry ("" = any) */
    char vendor[32];        /* maker, from the catalog entry ("" = unknown) */
} ry_node_model;

/* The RDMA device name of NIC port i of a node (i = GPU in the node + plane *
 * GPUs per node): the model's table, else "mlx5_<i>". Ports past a shorter
 * table are numbered after the table's highest mlx5 number. Returns what
 * snprintf returns. */
int ry_nic_rdma(const ry_node_model *m, int i, char *buf, size_t n);
/* Its number: N of "mlx5_N" (the table's own names that are not of that
 * form number by position, as the rule would). */
int ry_nic_number(const ry_node_model *m, int i);
/* Its netdev and cage label from the table, or "" (not in the table). */
const char *ry_nic_netdev(const ry_node_model *m, int i);
const char *ry_nic_cage(const ry_node_model *m, int i);
/* Rack units and watts of the trays one rack holds besides its nodes. */
int ry_rack_tray_units(const ry_node_model *m);
double ry_rack_tray_power(const ry_node_model *m);

/* fabric.homing: single, each NIC port its own plane; dual-tor, ports 2i
 * and 2i + 1 on a ToR pair under one aggregation layer (one network for
 * both); dual-plane, ports 2i and 2i + 1 on a ToR pair of two planes, each
 * plane its own network (Alibaba HPN). */
enum { RY_HOMING_SINGLE = 0, RY_HOMING_DUAL_TOR, RY_HOMING_DUAL_PLANE };

/* ethernet.ipv6 and ethernet.qos. */
enum { RY_IPV6_OFF = 0, RY_IPV6_STATIC, RY_IPV6_SLAAC };
enum { RY_QOS_LOSSLESS = 0, RY_QOS_LOSSY };

/* layout.network: where leaves stand. */
enum { RY_NETWORK_PER_UNIT = 0, RY_NETWORK_END_OF_ROW, RY_NETWORK_MIDDLE_OF_ROW,
       RY_NETWORK_IN_RACK };

typedef struct ry_ratio {
    int down, up;
} ry_ratio;

typedef struct ry_ydoc ry_ydoc;     /* parsed YAML with positions: spec/yaml.h */

/* One entry of fabric.tiers given as a list: a tier's own switch model, port
 * speeds (a port split into several at a lower speed), taper and group size.
 * 0 and empty fields are "not given": the rules of ry_tier_ports fill them. */
typedef struct ry_tier_spec {
    int has_switch;         /* switch named; else fabric.switch */
    ry_switch_model sw;
    double down_gbps, up_gbps;  /* 0: the model's port speed */
    int down_count, up_count;   /* ports at those speeds; 0: from the taper */
    ry_ratio taper;             /* bandwidth down:up; 0:0 = not given */
    int group;                  /* lower blocks per block; 0: as many as ports take */
} ry_tier_spec;

/* Tier j (1 = leaves) of a fabric, resolved: what each switch of the tier
 * is and how its ports are used. Ports [0, down) go down at down_gbps, [down,
 * down + up) go up at up_gbps, the rest of the `ports` are free at the
 * model's speed. A port split in `split` runs at port_gbps / split. */
typedef struct ry_tier_ports {
    const ry_switch_model *sw;  /* borrowed from the spec */
    int ports;                  /* ports of one switch, counting split ones */
    int down, up;
    double down_gbps, up_gbps;
    int down_split, up_split;   /* 1, 2, 4 or 8 */
    int cages_down, cages_up;   /* the model's ports they take */
    int group;                  /* as given; 0: down ports' worth */
    int blocks;                 /* lower blocks per block of the tier: group, else
                                 * as many as its down ports take */
    int round_down, round_up;   /* the taper D:U that gave one side's count from the
                                 * other's, rounded down to whole ports; 0 when the
                                 * count was not rounded */
    int rounded_up_side;        /* 1: the up count was rounded, 0: the down count */
} ry_tier_ports;

/* How the Clos builder (fabric/build_clos.c) groups the GPUs under its
 * leaves, from the spec alone: the builder builds by it, and the model's
 * fabric share (ry_spec_fabric_share) counts by it, so the two cannot
 * differ. Above the leaves, a block of tier j takes ry_tier_ports.blocks
 * blocks of tier j - 1. */
typedef struct ry_leaf_group {
    int down;               /* a leaf's down ports (a leaf below a tier above) */
    int unit_domains;       /* rail designs: HB domains per scalable unit
                             * (cluster.scalable_unit, else as many as a leaf takes) */
    long long leaf_gpus;    /* a fat tree: GPUs under one leaf, whole nodes when a node
                             * fits on one; rack-tor: a rack's */
    long long gpus;         /* GPUs under one leaf group: a scalable unit of every rail,
                             * or one fat-tree leaf */
} ry_leaf_group;

typedef struct ry_spec {
    const char *path;       /* source file name as given, for messages */
    ry_ydoc *doc;           /* the parsed document; NULL for built-in specs */

    char name[RY_NAME_MAX];

    /* cluster */
    long long gpus;         /* total GPUs (from cluster.gpus or nodes * gpus_per_node) */
    long long nodes;        /* servers: gpus / gpus_per_node */
    ry_node_model node;
    int hb_domain;          /* K */
    int rails;              /* default K; GPU g of an HB domain is on rail g mod rails */
    int planes;             /* NIC ports per GPU, one network plane each */
    int scalable_unit;      /* HB domains per scalable unit; 0 = fill a leaf */

    /* fabric */
    ry_design design;
    int rack_tor;           /* fabric.design rack-tor: a fat tree whose leaf takes one rack */
    int homing;             /* RY_HOMING_*: how a NIC's ports reach the leaves */
    ry_switch_model sw;
    int n_oversub;          /* entries in oversub; 0 = all 1:1 */
    ry_ratio oversub[RY_MAX_TIERS]; /* [0] = leaf tier, [1] = tier 2, ...; tiers past the list are 1:1 */
    int tiers;              /* 0 = auto */
    int n_tier;             /* entries of fabric.tiers given as a list (then tiers = n_tier) */
    int tiers_by_position;  /* 1: the list was written for another design, and this one's
                             * tiers take its entries by position (ry_tier_entry) */
    ry_tier_spec tier[RY_MAX_TIERS];    /* [0] = leaves */
    int accept_slower_ports;/* NICs faster than the switch ports run at the ports' speed */
    int full_units;         /* a partial last scalable unit gets every leaf of a whole one */
    int top_min;            /* at least this many top switches per column (fabric.top_min) */

    /* infiniband: GUID/LID plan and OpenSM files */
    struct {
        unsigned long long guid_base;  /* CA node GUIDs at base + 2^32 + 16*i, switches from base + 2^33 (ry_guid_switch) */
        int lmc;                       /* 0..7; ftree needs 0 */
        char routing_engine[16];       /* what opensm.conf selects: file, ftree, updn, minhop */
        int lft_portguid;              /* LFT lines carry the destination port GUID */
        int pkey_base;                 /* rail r gets P_Key pkey_base + r */
    } ib;

    /* ethernet: addresses, ASNs and RoCE QoS of an Ethernet fabric's
     * configuration (fabric/ethplan.h) */
    struct {
        long long asn_base;     /* the first switch's ASN */
        char loopbacks[48];     /* IPv4 prefix of the switches' loopbacks */
        char hosts[48];         /* IPv4 prefix the host links' /31s come from */
        int ipv6;               /* RY_IPV6_*: IPv6 on host links */
        char ipv6_prefix[48];   /* IPv6 prefix: loopbacks and a /64 per host link */
        int qos;                /* RY_QOS_*: the RoCE profile */
        int mtu;                /* host NICs' MTU */
    } eth;

    /* layout: racks and rows (see railyard-spec(5)) */
    struct {
        int rows;               /* 0 = as many as needed */
        int racks_per_row, rack_units, first_unit;
        int nodes_per_rack, node_units, switch_units;
        int switch_units_set;   /* layout.switch_units written: every switch that high;
                                 * else each its model's rack_units (switch_units is then
                                 * the tallest, for how many a rack holds) */
        int network;            /* 0 per-unit, 1 end-of-row, 2 middle-of-row; -1 unset:
                                 * end-of-row for a fat tree, else per-unit */
        double rack_pitch, row_pitch, tray_height, slack;
        int hall_racks;         /* most racks in one data hall */
        double hall_power;      /* power budget of a hall, kW */
        double rack_power;      /* power budget of a rack, kW (0: the node's per_rack x power) */
        int switches_per_rack;  /* 0: as many as space and rack power allow */
        int halls_per_building;
        double hall_gap;        /* metres between neighbouring rooms of a building */
        double building_gap;    /* metres between neighbouring buildings */
    } layout;

    /* growth: the size the cluster grows to in phases (reserve mode,
     * fabric/reserve.h). target_gpus is 0 when the section is absent or
     * the target is the cluster's own size (nothing is reserved). */
    struct {
        long long target_nodes;     /* as written (0: not given) */
        long long target_gpus;      /* as written, then the target in GPUs */
    } growth;

    /* reliability: failure rates, repair times and what the job does, for
     * the expected goodput and lost GPU-hours (analysis/reliability.h) */
    struct {
        double gpu_rate, host_rate, nic_rate, software_rate;   /* a component-year */
        double switch_rate, cable_rate;                        /* a component-year */
        double repair_node, repair_switch, repair_cable;       /* hours */
        double checkpoint, restart;                            /* minutes */
        double gpu_hour;                                       /* USD */
    } rel;

    /* spares: kept on site, swapped in after a failure (whatif --sweep) */
    struct {
        int switches;           /* spare switches: a scenario's first N failed switches */
        int uplinks;            /* spare cables per switch: its first N failed uplinks */
    } spares;

    /* cabling: media forced per tier or per link */
    struct {
        char tier_medium[RY_MAX_TIERS + 1][32];     /* [tier]; "" = cheapest that reaches */
        int nlinks;
        struct ry_link_override {
            char end[96];       /* "leaf3/33" or "node001/mlx5_3" */
            char medium[32];
            int index;          /* position in cabling.links, for messages */
        } *links;
    } cabling;

    /* naming: server host names; "{n1:03}" = 1-based index, 3 digits */
    char node_pattern[RY_NAME_MAX];
    /* switch names by tier ("" = leaf{n}, spine{n}, core{n}); leaves take {unit} */
    char leaf_pattern[RY_NAME_MAX], spine_pattern[RY_NAME_MAX], core_pattern[RY_NAME_MAX];
    int switch_order;           /* 0 unit-major, 1 rail-major (leaf numbers) */

    /* cost (model "paper") */
    double transceiver_cost;   /* per transceiver; 2 per link */
    double switch_port_cost;   /* per switch port, every port of every switch */
    /* capex (list prices: switches from the catalog, optics and cables from
     * the cabling plan) */
    double rack_cost;          /* per rack of the layout, with its PDUs (0: left out) */
    double spares_pct;         /* spares, percent of switches, optics and cables */
    /* cost of ownership: the capex plus what the network costs to run over
     * its life (analysis/bom.h, ry_capex) */
    int own_years;             /* years of life */
    double own_pue;            /* site watts over IT watts */
    double own_energy_price;   /* USD per kWh at the meter */
    double own_support_pct;    /* support contracts, percent of the switches' price a year */
    /* price ranges, percent below and above list (analysis/sensitivity.h) */
    double range_switches, range_optics, range_cables;

    /* workload: the LLM trained (spec/workload.h); NULL without the section,
     * and NULL when it does not fit the cluster: then workload_misfit.key
     * names the key to blame and .msg says why (ry_workload_check_fit); the
     * key is "" otherwise. */
    struct ry_workload *workload;
    ry_err workload_misfit;
    /* A batch too small for eq. 1 without pipeline stages (every replica
     * needs a sequence): the paper mode's refusal; the workload is kept. */
    ry_err workload_paper_misfit;

    /* network: the flow-level engine's routing and the placement of a
     * collective's job (net/flow.h, net/collective.h; railyard collective's
     * defaults, its options override them) */
    struct {
        int routing;            /* RY_NET_ROUTING_WORDS index: static, ecmp, adaptive */
        int qps;                /* queue pairs per connection */
        int hash_qp;            /* ECMP hashes the destination queue pair too */
        int same_seed;          /* network.hash_seed: 0 per-switch, 1 same */
        char placement[32];     /* "contiguous", "scattered" or "scattered:SEED" */
        int channels;           /* rings; 0 = auto: NICs per node x 2 */
        int algorithm;          /* all-reduce across nodes: 0 ring, 1 tree, 2 auto */
        int sharp;              /* all-reduce reduces in the switches (SHARP) */
        int nvls;               /* all-reduce reduces in the NVSwitches (NVLS) */
        int all_to_all;         /* 0 direct, 1 hierarchical (two steps) */
    } net;

    /* network.dims and libra: (spec/libra_spec.h); NULL without both */
    struct ry_libra_spec *libra;

    /* search: the design space railyard search explores (spec/search.h);
     * NULL without the section. The targets are 0 when not given. */
    struct ry_search_space *search_space;
    struct {
        double target_time;     /* seconds per iteration (the mix's weighted mean) */
        double budget;          /* capex, USD */
        double max_slowdown;    /* expected slowdown under the failures */
        int seeds;              /* random draws per KIND:N failure */
        int threads;            /* 0: one per processor */
        int objective;          /* 0 capex, 1 ownership (cost.years of it) */
    } search;
} ry_spec;

/* One --set KEY=VALUE override, applied to the document before validation.
 * value NULL means the argument had no '=' (an error reported by the loader,
 * unless key itself holds "KEY=VALUE"). Messages about it read
 * "--set:ARGNO:COL:", COL counted in "KEY=VALUE" from 1. */
typedef struct ry_override {
    const char *key;
    const char *value;
    int argno;              /* position on the command line, for messages */
    const char *where;      /* or NULL: what messages name instead of --set:N
                             * ("--vary workload.batch=64"); borrowed */
} ry_override;

/* Where to find the catalog: --templates DIR, $RAILYARD_TEMPLATES, then the
 * installed data directory. */
const char *ry_templates_dir(const char *option);

/* A job's placement as network.placement and `collective --placement`
 * write it: "contiguous" (*scattered 0), "scattered" (seed 1) or
 * "scattered:SEED" (SEED a whole number < 2^64). 0, or -1 for another text. */
int ry_spec_placement_parse(const char *text, int *scattered, unsigned long long *seed);

/* Load, override, validate. On failure prints every error found (file:line:col)
 * and returns NULL. */
ry_spec *ry_spec_load(const char *path, const ry_override *sets, int nsets,
                      const char *templates_dir);
void ry_spec_free(ry_spec *s);
/* The same for a spec held in memory (a command's built-in spec, completed
 * by overrides); file names it in messages. */
ry_spec *ry_spec_load_text(const char *file, const char *text, const ry_override *sets,
                           int nsets, const char *templates_dir);
/* The same without reading the search section (search_space stays NULL):
 * a point of a search, loaded once per value or point, does not read the
 * whole space again each time (4,096 values would cost 4,096 times 4,096):
 * the text is parsed once (kept while the same text comes again) and each
 * point loads a copy of it without its search section; the catalog is the
 * process's shared one (ry_catalog_load_shared). */
ry_spec *ry_spec_load_point(const char *file, const char *text, const ry_override *sets,
                            int nsets, const char *templates_dir);

/* A spec with the documented defaults and no document, for built-in runs
 * (railyard compare --gpus ...): name "cluster", an 8-GPU "generic" node
 * (hb_domain 8, 400G), rail-optimized, a "generic" radix-64 400G switch,
 * planes 1, tiers auto, paper costs. gpus is 0: the caller fills it and the
 * fields it wants. rails is 0, meaning hb_domain; ry_spec_check fills it in
 * (and nodes, when 0). */
void ry_spec_defaults(ry_spec *s);

/* Checks every rule on a filled spec (used for built-in specs): prints each
 * error with ry_spec_error, against the spec's positions when it has a
 * document, and returns -1 if there was any, else 0. */
int ry_spec_check(ry_spec *s);

/* Tier j (1 = leaves) of a tree of t tiers: its switch model and ports, from
 * fabric.tiers, else fabric.switch and fabric.oversubscription (spec/tiers.c).
 * -1 with err set (a key under fabric.tiers) when the tier cannot be made. */
int ry_tier_ports_of(const ry_spec *s, int t, int j, ry_tier_ports *out, ry_err *err);
/* How a tier takes its fabric.tiers entry. */
typedef enum {
    RY_TIER_AS_LISTED = 0,  /* as written */
    RY_TIER_AS_TOP,         /* an entry below the list's top as a design's top: its
                             * switch and down speed, every port down */
    RY_TIER_REPEATED        /* the list's top entry again below a design's top: its
                             * switch, ports split 1:1 at its down speed both ways */
} ry_tier_use;

/* The entry of fabric.tiers tier j (1 = leaves) of a t-tier tree takes, and
 * how (*use); -1 when there is no list or no entry j. As written, entry j - 1.
 * With tiers_by_position (another design built from the list, see
 * ry_spec_as_design): the leaves take entry 0 and tier j entry j - 1, the
 * top entry standing for every tier past the list; a design with fewer
 * tiers than the list leaves the entries above its top unused, its top
 * taking the entry at its position as RY_TIER_AS_TOP; one with more takes
 * the top entry again, RY_TIER_REPEATED, below its top. */
int ry_tier_entry(const ry_spec *s, int t, int j, ry_tier_use *use);
/* A fabric.tiers list taken by position (ry_tier_entry) into other tiers
 * than it lists: by_position 1, and per tier [1..tiers] its entry and how
 * it is used. by_position 0 when the design takes the list as written (or
 * there is none). */
typedef struct ry_tier_entries {
    int by_position;
    int entry[RY_MAX_TIERS + 1];
    ry_tier_use use[RY_MAX_TIERS + 1];
} ry_tier_entries;

/* The entries of design spec s (ry_spec_as_design's) built with `tiers`
 * tiers: what a report says of a design that took the list by position. */
void ry_tier_entries_of(const ry_spec *s, int tiers, ry_tier_entries *out);

/* The leaf group of s (see ry_leaf_group); -1 when a leaf cannot be made
 * (no port down or up) or the cluster has no HB domain or rail. */
int ry_spec_leaf_group(const ry_spec *s, ry_leaf_group *g);
/* The switch model of tier j, and the speed of the leaves' down ports. */
const ry_switch_model *ry_spec_tier_switch(const ry_spec *s, int j);
double ry_spec_leaf_gbps(const ry_spec *s);
/* A block of the fabric: the GPUs under one group of tier-j switches (a
 * leaf group for tier 1, a pod for tier 2, ...), which traffic leaves
 * through tier j's uplinks. The job's ranks fill blocks in order. cut is
 * the product of the tapers D:U above 1 of tiers 1 to j: one block's
 * uplinks carry gpus / cut GPUs' worth of NIC bandwidth. */
typedef struct ry_fabric_block {
    int tier;           /* j */
    long long gpus;     /* GPUs under one block */
    double cut;         /* tapers up to tier j (1: none binds) */
} ry_fabric_block;
/* The blocks of every tier below the top with uplinks, lowest first, into
 * out (RY_MAX_TIERS entries); their count (0: the leaves cannot be made).
 * From the spec alone: fabric.tiers or fabric.oversubscription, the unit
 * and group sizes. */
int ry_spec_fabric_blocks(const ry_spec *s, ry_fabric_block *out);
/* The share of a GPU's NIC bandwidth left to traffic spread evenly over
 * the first `gpus` GPUs, after the tapers of the tiers whose uplinks it
 * crosses (1 when it stays under one leaf group or every taper is 1:1 or
 * less); *tier is the highest tier crossed (0: none). From the spec alone:
 * fabric.tiers or fabric.oversubscription, the unit and group sizes. */
double ry_spec_fabric_share(const ry_spec *s, long long gpus, int *tier);
/* The rules of a fabric.tiers list (every tier resolvable, speeds that
 * meet, one protocol); prints at the key. */
void ry_spec_rules_tiers(ry_spec *s);

/* out: the cluster of s as design d. Forced tiers (fabric.tiers) are s's own
 * design's, so another design chooses its own (tiers auto); a tier list
 * becomes the other design's by position (tiers_by_position, ry_tier_entry),
 * its tier count chosen by the builder. */
void ry_spec_as_design(const ry_spec *s, ry_design d, ry_spec *out);

/* Position of a dotted key ("fabric.switch.radix") in the source, or of its
 * nearest present ancestor, or file:1:1. */
ry_pos ry_spec_pos(const ry_spec *s, const char *key);

/* Report an error about a key at its source position; counts as an error. */
void ry_spec_error(const ry_spec *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether the cluster's fabric is Ethernet (fabric.switch.protocol): the one
 * question every room asks, answered by the leaf switch, whose protocol
 * every tier shares (ry_spec_rules_tiers). */
static inline int ry_spec_is_ethernet(const ry_spec *s)
{
    return s->sw.ethernet;
}

#endif
