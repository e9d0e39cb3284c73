#!/usr/bin/python3
"""Checks SONiC config_db.json files against the constraints of SONiC's own
YANG models (sonic-buildimage, src/sonic-yang-models/yang-models/), encoded
here by hand: table names, key shapes, field names, mandatory fields, enums,
patterns (full match, as YANG's XSD regular expressions), ranges, and the
leafrefs between tables (a port, map, scheduler or profile named must exist).

Checked against sonic-buildimage
  086b03bd70f9e211aaaf5f6aefe0790b508d2a94 (2026-08-23): sonic-port,
    sonic-breakout_cfg, sonic-device_metadata, sonic-loopback-interface,
    sonic-interface, sonic-dscp-tc-map, sonic-tc-queue-map,
    sonic-tc-priority-group-map, sonic-pfc-priority-queue-map,
    sonic-port-qos-map, sonic-scheduler, sonic-queue, sonic-wred-profile,
    sonic-buffer-pg, sonic-buffer-profile, sonic-buffer-pool,
    sonic-default-lossless-buffer-parameter, sonic-lossless-traffic-pattern,
    sonic-types (yang-templates/sonic-types.yang.j2);
  022dec1f9d1e90879bf715ba6c33fa6883f76de6: sonic-bgp-neighbor and
    sonic-bgp-common after pull request 27370 (BGP_NEIGHBOR keyed by an
    interface name, address_family v4|v6|both).

The config_db.json files of tests/sonic.sh's specs, turned into RFC 7951
JSON, also pass yanglint 2.1.30 (libyang-tools) against those models.

Beyond YANG, what CONFIG_DB consumers need of the same data: no lane in two
PORT entries, a BREAKOUT_CFG mode NxSPEEDG matching its cage's ports.

usage: sonic-check.py [--expect ROLE:PORTS:NEIGHBORS,...] [--addresses CSV]
                      [--frr] FILE_OR_DIR...
  a directory: every switches/*/config_db.json under it
  --expect     PORT and BGP_NEIGHBOR entries per switch of each
               DEVICE_METADATA type (BackEndToRRouter:16:8,BackEndLeafRouter:16:16)
  --addresses  addresses.csv: its (switch, port, switch_address/31) rows must
               be the INTERFACE /31s of all the files, and no more
  --frr        each file's BGP_NEIGHBOR keys must be the `neighbor X interface`
               lines of the frr.conf beside it
Prints one line per problem (file: table|key: what); exit 1 on any."""
import csv
import glob
import ipaddress
import json
import os
import re
import sys

# ---- sonic-types ---------------------------------------------------------------------------
IP4_PREFIX = (r'(([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])\.){3}'
              r'([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])'
              r'/(([0-9])|([1-2][0-9])|(3[0-2]))')
IP6_PREFIX = [(r'((:|[0-9a-fA-F]{0,4}):)([0-9a-fA-F]{0,4}:){0,5}'
               r'((([0-9a-fA-F]{0,4}:)?(:|[0-9a-fA-F]{0,4}))|'
               r'(((25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])\.){3}'
               r'(25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])))'
               r'(/(([0-9])|([0-9]{2})|(1[0-1][0-9])|(12[0-8])))'),
              (r'(([^:]+:){6}(([^:]+:[^:]+)|(.*\..*)))|'
               r'((([^:]+:)*[^:]+)?::(([^:]+:)*[^:]+)?)(/.+)')]
MAP_NAME = r'[a-zA-Z0-9]{1}([-a-zA-Z0-9_]{0,31})'
ADMIN = ("up", "down")
BOOL = ("true", "false")
DEVICE_TYPES = (
    "ToRRouter|LeafRouter|SpineChassisFrontendRouter|ChassisBackendRouter|ASIC|MgmtToRRouter|"
    "MgmtLeafRouter|MgmtSpineRouter|MgmtAccessRouter|LowerMgmtAggregator|UpperMgmtAggregator|"
    "SpineRouter|BackEndSpineRouter|UpperSpineRouter|FabricSpineRouter|LowerSpineRouter|"
    "BackEndToRRouter|BackEndLeafRouter|EPMS|MgmtTsToR|BmcMgmtToRRouter|MiniTs|LeafTs|SpineTs|"
    "CoreTs|ConsoleServer|TerminalServer|SonicHost|SmartSwitchDPU|FilterLeaf|NetworkBmc|"
    "MseeRouter|not-provisioned|LowerRegionalHub|FabricRegionalHub|UpperRegionalHub")


# ---- field types: each a function (value) -> None or what is wrong ------------------------
def uint(lo, hi):
    def f(v):
        if not re.fullmatch(r'-?[0-9]+', v):
            return "not an integer"
        if not lo <= int(v) <= hi:
            return "out of range %d..%d" % (lo, hi)
    return f


def pattern(*pats):
    def f(v):
        for p in pats:
            if not re.fullmatch(p, v):
                return "does not match %s" % p
    return f


def enum(*vals):
    def f(v):
        if v not in vals:
            return "not one of %s" % "|".join(vals)
    return f


def length(lo, hi):
    def f(v):
        if not lo <= len(v) <= hi:
            return "length not %d..%d" % (lo, hi)
    return f


def ip_address(v):
    try:
        ipaddress.ip_address(v)
    except ValueError:
        return "not an IP address"


def ip_prefix(v):
    if "." in v and ":" not in v:
        return pattern(IP4_PREFIX)(v)
    return pattern(*IP6_PREFIX)(v)


ANY = lambda v: None
U64 = uint(0, 2**64 - 1)

# table: fields {name: (check, mandatory)}
FIELDS = {
    "DEVICE_METADATA": {
        "hostname": (length(1, 63), False),
        "bgp_asn": (uint(0, 4294967295), False),
        "type": (pattern(DEVICE_TYPES), False),
        "docker_routing_config_mode": (pattern("separated|unified|split|split-unified"), False),
        "buffer_model": (pattern("dynamic|traditional"), False),
        "hwsku": (ANY, False), "platform": (length(1, 255), False), "mac": (ANY, False),
    },
    "PORT": {
        "lanes": (length(1, 128), True),
        "speed": (uint(1, 1600000), True),
        "alias": (length(1, 128), False),
        "mtu": (uint(68, 9216), False),
        "fec": (pattern("rs|fc|none|auto"), False),
        "admin_status": (enum(*ADMIN), False),
        "subport": (uint(0, 8), False),
        "index": (uint(0, 65535), False),
        "autoneg": (pattern("on|off"), False),
        "description": (length(0, 255), False),
    },
    "BREAKOUT_CFG": {"brkout_mode": (length(1, 64), False)},
    "LOOPBACK_INTERFACE": {"vrf_name": (ANY, False), "nat_zone": (uint(0, 3), False),
                           "admin_status": (enum(*ADMIN), False)},
    "LOOPBACK_INTERFACE|prefix": {"scope": (enum("global", "local"), False),
                                  "family": (enum("IPv4", "IPv6"), False)},
    "INTERFACE": {"vrf_name": (ANY, False), "nat_zone": (uint(0, 3), False),
                  "mpls": (enum("enable", "disable"), False),
                  "ipv6_use_link_local_only": (enum("enable", "disable"), False),
                  "mac_addr": (ANY, False)},
    "INTERFACE|prefix": {"scope": (enum("global", "local"), False),
                         "family": (enum("IPv4", "IPv6"), False)},
    # BGP_NEIGHBOR_TEMPLATE_LIST: sonic-bgp-cmn-neigh
    "BGP_NEIGHBOR": {
        "asn": (uint(1, 4294967295), False),        # must ". >= 1"
        "holdtime": (uint(0, 65535), False),
        "keepalive": (uint(0, 65535), False),
        "local_addr": (ip_address, False),
        "name": (ANY, False),
        "nhopself": (uint(0, 1), False),
        "rrclient": (uint(0, 1), False),
        "admin_status": (enum(*ADMIN), False),
        "address_family": (pattern("v4|v6|both"), False),
    },
    "PORT_QOS_MAP": {
        "tc_to_pg_map": (ANY, False), "tc_to_queue_map": (ANY, False),
        "pfc_enable": (pattern(r'([0-7](,[0-7])*)?'), False),
        "pfcwd_sw_enable": (pattern(r'([0-7](,[0-7])*)?'), False),
        "pfc_to_queue_map": (ANY, False), "pfc_to_pg_map": (ANY, False),
        "dscp_to_tc_map": (ANY, False), "tc_to_dscp_map": (ANY, False),
        "dot1p_to_tc_map": (ANY, False), "scheduler": (ANY, False),
    },
    "SCHEDULER": {
        "type": (enum("DWRR", "WRR", "STRICT"), False),
        "weight": (uint(1, 100), False),
        "priority": (uint(0, 9), False),
        "meter_type": (enum("packets", "bytes"), False),
        "cir": (U64, False), "pir": (U64, False),
        "cbs": (uint(0, 2**32 - 1), False), "pbs": (uint(0, 2**32 - 1), False),
    },
    "QUEUE": {"scheduler": (ANY, False), "wred_profile": (ANY, False)},
    "WRED_PROFILE": dict(
        [("%s_%s_threshold" % (c, m), (U64, False)) for c in ("green", "yellow", "red")
         for m in ("min", "max")] +
        [("%s_drop_probability" % c, (uint(0, 100), False)) for c in ("green", "yellow", "red")] +
        [("wred_%s_enable" % c, (enum(*BOOL), False)) for c in ("green", "yellow", "red")] +
        [("ecn", (enum("ecn_none", "ecn_green", "ecn_yellow", "ecn_red", "ecn_green_yellow",
                       "ecn_green_red", "ecn_yellow_red", "ecn_all"), False))]),
    "BUFFER_PG": {"profile": (ANY, False)},
    "BUFFER_PROFILE": {"size": (U64, True), "pool": (ANY, True), "static_th": (U64, False),
                       "dynamic_th": (uint(-8, 7), False), "xon": (U64, False),
                       "xoff": (U64, False), "xon_offset": (U64, False),
                       "headroom_type": (enum("static", "dynamic"), False)},
    "BUFFER_POOL": {"type": (enum("ingress", "egress", "both"), True),
                    "mode": (enum("static", "dynamic"), True),
                    "size": (U64, False), "xoff": (U64, False)},
    "DEFAULT_LOSSLESS_BUFFER_PARAMETER": {"default_dynamic_th": (uint(-8, 7), True),
                                          "over_subscribe_ratio": (uint(0, 65535), False)},
    "LOSSLESS_TRAFFIC_PATTERN": {"mtu": (uint(1, 9216), True),
                                 "small_packet_percentage": (uint(0, 100), True)},
    # sonic-pfcwd.yang (sonic-buildimage 9701fa53): a port's fields, GLOBAL's
    "PFC_WD": {"action": (enum("drop", "forward", "alert"), False),
               "detection_time": (uint(100, 5000), False),
               "restoration_time": (uint(100, 60000), False),
               "pfc_stat_history": (pattern("enable|disable"), False)},
    "PFC_WD|GLOBAL": {"POLL_INTERVAL": (uint(100, 1000), False)},
    # sonic-device_neighbor.yang (sonic-buildimage a3488c1a)
    "DEVICE_NEIGHBOR": {"name": (length(1, 255), False), "port": (length(1, 255), False),
                        "mgmt_addr": (ip_address, False), "local_port": (ANY, False),
                        "type": (length(1, 255), False)},
    # sonic-cable-length.yang (sonic-buildimage 9a8b7c00): a list of port: length
    "CABLE_LENGTH": {},
}
# maps: table -> (key leaf check, value leaf check) of the inner list
MAPS = {
    "DSCP_TO_TC_MAP": (pattern(r'6[0-3]|[1-5][0-9]?|[0-9]?'), uint(0, 15)),
    "TC_TO_QUEUE_MAP": (uint(0, 15), pattern(r'[0-9]?')),
    "TC_TO_PRIORITY_GROUP_MAP": (uint(0, 15), pattern(r'[0-7]?')),
    "MAP_PFC_PRIORITY_TO_QUEUE": (pattern(r'[0-7]?'), pattern(r'[0-7]?')),
}
KNOWN = set(t for t in FIELDS if "|" not in t) | set(MAPS)


class Checker:
    def __init__(self):
        self.errs = []

    def err(self, path, where, msg):
        self.errs.append("%s: %s: %s" % (path, where, msg))

    def fields(self, path, table, key, entry, spec):
        where = "%s|%s" % (table.split("|")[0], key)
        if not isinstance(entry, dict):
            self.err(path, where, "not an object")
            return
        for f, v in entry.items():
            if f not in spec:
                self.err(path, where, "field %s not in the YANG model" % f)
            elif not isinstance(v, str):
                self.err(path, where, "%s: CONFIG_DB values are strings" % f)
            else:
                why = spec[f][0](v)
                if why:
                    self.err(path, where, "%s=%r %s" % (f, v, why))
        for f, (_, mandatory) in spec.items():
            if mandatory and f not in entry:
                self.err(path, where, "mandatory %s missing" % f)

    def check(self, path, db):
        e = lambda where, msg: self.err(path, where, msg)
        for t in db:
            if t not in KNOWN:
                e(t, "table not among those checked")
        ports = db.get("PORT", {})
        get = lambda t: db.get(t, {})

        md = get("DEVICE_METADATA")
        if set(md) - {"localhost"}:
            e("DEVICE_METADATA", "the only key is localhost")
        for k, v in md.items():
            self.fields(path, "DEVICE_METADATA", k, v, FIELDS["DEVICE_METADATA"])

        lanes_of = {}
        for k, v in ports.items():
            if length(1, 128)(k):
                e("PORT|" + k, "name length not 1..128")
            self.fields(path, "PORT", k, v, FIELDS["PORT"])
            lanes = v.get("lanes", "")
            if not re.fullmatch(r'[0-9]+(,[0-9]+)*', lanes):
                e("PORT|" + k, "lanes %r not a comma list of lane numbers" % lanes)
                continue
            for l in lanes.split(","):
                if int(l) in lanes_of:
                    e("PORT|" + k, "lane %s also in %s" % (l, lanes_of[int(l)]))
                lanes_of[int(l)] = k

        for k, v in get("BREAKOUT_CFG").items():
            if length(1, 255)(k):
                e("BREAKOUT_CFG|" + k, "port length not 1..255")
            self.fields(path, "BREAKOUT_CFG", k, v, FIELDS["BREAKOUT_CFG"])
            m = re.fullmatch(r'([1-8])x([0-9]+)G(\[.*\])?', v.get("brkout_mode", ""))
            if not m:
                e("BREAKOUT_CFG|" + k, "brkout_mode %r not NxSPEEDG" % v.get("brkout_mode"))
                continue
            if k not in ports:
                e("BREAKOUT_CFG|" + k, "its first port is not in PORT")
                continue
            n, g = int(m.group(1)), int(m.group(2))
            first = int(ports[k]["lanes"].split(",")[0])
            nl = len(ports[k]["lanes"].split(","))
            parts = [lanes_of.get(first + i * nl) for i in range(n)]
            if None in parts or any(ports[p].get("speed") != str(g * 1000) for p in parts):
                e("BREAKOUT_CFG|" + k, "%s: not %d ports of %dG on the cage's lanes" %
                  (v["brkout_mode"], n, g))

        for t in ("LOOPBACK_INTERFACE", "INTERFACE"):
            bare = set(k for k in get(t) if "|" not in k)
            for k, v in get(t).items():
                name, _, pfx = k.partition("|")
                if t == "LOOPBACK_INTERFACE" and length(1, 15)(name):
                    e(t + "|" + k, "interface name length not 1..15")
                if t == "INTERFACE" and name not in ports:
                    e(t + "|" + k, "%s is not in PORT (leafref)" % name)
                if pfx:
                    self.fields(path, t + "|prefix", k, v, FIELDS[t + "|prefix"])
                    why = ip_prefix(pfx)
                    if why:
                        e(t + "|" + k, "ip-prefix %s %s" % (pfx, why))
                    if name not in bare:
                        e(t + "|" + k, "%s has no entry of its own (must)" % name)
                else:
                    self.fields(path, t, k, v, FIELDS[t])

        for k, v in get("BGP_NEIGHBOR").items():
            ok = (ip_address(k) is None or k in ports or
                  re.fullmatch(r'Vlan([0-9]{1,3}|[1-3][0-9]{3}|[4][0][0-8][0-9]|[4][0][9][0-4])', k)
                  or re.fullmatch(r'(Ethernet|Eth|PortChannel|Po)[0-9]+\.[0-9]+', k)
                  or k in get("PORTCHANNEL"))
            if not ok:
                e("BGP_NEIGHBOR|" + k, "neither an IP address nor a PORT, PortChannel, Vlan or "
                  "subinterface name")
            self.fields(path, "BGP_NEIGHBOR", k, v, FIELDS["BGP_NEIGHBOR"])

        for t, (kc, vc) in MAPS.items():
            for name, m in get(t).items():
                if pattern(MAP_NAME)(name) or length(1, 32)(name):
                    e(t + "|" + name, "map name")
                for a, b in m.items():
                    if kc(a) or not isinstance(b, str) or vc(b):
                        e(t + "|" + name, "entry %r: %r" % (a, b))

        refs = {"tc_to_pg_map": "TC_TO_PRIORITY_GROUP_MAP", "tc_to_queue_map": "TC_TO_QUEUE_MAP",
                "dscp_to_tc_map": "DSCP_TO_TC_MAP", "pfc_to_queue_map": "MAP_PFC_PRIORITY_TO_QUEUE",
                "scheduler": "SCHEDULER", "wred_profile": "WRED_PROFILE"}

        def leafrefs(where, v):
            for f, t in refs.items():
                if f in v and v[f] not in get(t):
                    e(where, "%s %s is not in %s (leafref)" % (f, v[f], t))

        for k, v in get("PORT_QOS_MAP").items():
            if k != "global" and k not in ports:
                e("PORT_QOS_MAP|" + k, "ifname is neither global nor a PORT")
            self.fields(path, "PORT_QOS_MAP", k, v, FIELDS["PORT_QOS_MAP"])
            leafrefs("PORT_QOS_MAP|" + k, v)
        for k, v in get("SCHEDULER").items():
            self.fields(path, "SCHEDULER", k, v, FIELDS["SCHEDULER"])
        for k, v in get("WRED_PROFILE").items():
            if pattern(MAP_NAME)(k) or length(1, 32)(k):
                e("WRED_PROFILE|" + k, "profile name")
            self.fields(path, "WRED_PROFILE", k, v, FIELDS["WRED_PROFILE"])
            for c in ("green", "yellow", "red"):
                lo, hi = v.get(c + "_min_threshold"), v.get(c + "_max_threshold")
                if lo and hi and lo.isdigit() and hi.isdigit() and int(hi) < int(lo):
                    e("WRED_PROFILE|" + k, "%s max threshold below min (must)" % c)
        for k, v in get("QUEUE").items():
            ifname, _, q = k.partition("|")
            if not q:
                e("QUEUE|" + k, "key is not ifname|qindex")
            if ifname != "CPU" and ifname not in ports:
                e("QUEUE|" + k, "ifname %s is not a PORT (leafref)" % ifname)
            self.fields(path, "QUEUE", k, v, FIELDS["QUEUE"])
            leafrefs("QUEUE|" + k, v)
        for k, v in get("BUFFER_PG").items():
            port, _, pg = k.partition("|")
            if port not in ports:
                e("BUFFER_PG|" + k, "port %s is not a PORT (leafref)" % port)
            if not re.fullmatch(r'[0-7]((-)[0-7])?', pg):
                e("BUFFER_PG|" + k, "pg_num %r" % pg)
            self.fields(path, "BUFFER_PG", k, v, FIELDS["BUFFER_PG"])
            prof = v.get("profile")
            if prof is not None and prof != "NULL" and prof not in get("BUFFER_PROFILE"):
                e("BUFFER_PG|" + k, "profile %s is neither NULL nor a BUFFER_PROFILE" % prof)
        for t in ("BUFFER_PROFILE", "BUFFER_POOL", "DEFAULT_LOSSLESS_BUFFER_PARAMETER",
                  "LOSSLESS_TRAFFIC_PATTERN"):
            for k, v in get(t).items():
                self.fields(path, t, k, v, FIELDS[t])
                if t == "BUFFER_PROFILE" and v.get("pool") not in get("BUFFER_POOL"):
                    e(t + "|" + k, "pool is not a BUFFER_POOL (leafref)")
        for k, v in get("DEVICE_NEIGHBOR").items():
            if length(1, 255)(k):
                e("DEVICE_NEIGHBOR|" + k, "key length not 1..255")
            self.fields(path, "DEVICE_NEIGHBOR", k, v, FIELDS["DEVICE_NEIGHBOR"])
            if "local_port" in v and v["local_port"] not in ports:
                e("DEVICE_NEIGHBOR|" + k, "local_port is not a PORT (leafref)")
        for name, m in get("CABLE_LENGTH").items():
            if pattern(r"[a-zA-Z0-9]{1}([-a-zA-Z0-9_]{0,31})")(name) or length(1, 32)(name):
                e("CABLE_LENGTH|" + name, "list name")
            for port, ln in m.items():
                if port not in ports:
                    e("CABLE_LENGTH|" + name, "port %s is not a PORT (leafref)" % port)
                if not isinstance(ln, str) or pattern(r"[0-9]+m|None")(ln):
                    e("CABLE_LENGTH|" + name, "length %r of %s" % (ln, port))
        wd = get("PFC_WD")
        poll = wd.get("GLOBAL", {}).get("POLL_INTERVAL")
        for k, v in wd.items():
            if k == "GLOBAL":
                self.fields(path, "PFC_WD|GLOBAL", k, v, FIELDS["PFC_WD|GLOBAL"])
                continue
            if k not in ports:
                e("PFC_WD|" + k, "ifname is neither GLOBAL nor a PORT (leafref)")
            self.fields(path, "PFC_WD", k, v, FIELDS["PFC_WD"])
            for f in ("detection_time", "restoration_time"):
                if poll and v.get(f, "").isdigit() and poll.isdigit() and int(v[f]) < int(poll):
                    e("PFC_WD|" + k, "%s below POLL_INTERVAL (must)" % f)
        for k, v in get("PORT_QOS_MAP").items():
            if v.get("pfcwd_sw_enable") and k not in wd:
                e("PORT_QOS_MAP|" + k, "pfcwd_sw_enable without a PFC_WD entry: the watchdog "
                  "never runs (default_pfcwd_status is disable)")
        if md.get("localhost", {}).get("buffer_model") != "dynamic":
            for k, v in get("BUFFER_PG").items():
                if v.get("profile") == "NULL":
                    e("BUFFER_PG|" + k, "profile NULL (dynamic headroom) outside the dynamic "
                      "buffer model")


def main(argv):
    expect, addresses, frr, paths = {}, None, False, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--expect":
            i += 1
            for item in argv[i].split(","):
                role, p, n = item.split(":")
                expect[role] = (int(p), int(n))
        elif a == "--addresses":
            i += 1
            addresses = argv[i]
        elif a == "--frr":
            frr = True
        else:
            paths.append(a)
        i += 1
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "**", "switches", "*", "config_db.json"),
                                      recursive=True))
        else:
            files.append(p)
    if not files:
        print("sonic-check: no config_db.json given")
        return 2
    c = Checker()
    slash31 = set()
    for f in files:
        try:
            db = json.load(open(f))
        except ValueError as x:
            c.errs.append("%s: not JSON: %s" % (f, x))
            continue
        c.check(f, db)
        host = db.get("DEVICE_METADATA", {}).get("localhost", {})
        role = host.get("type")
        if role in expect:
            p, n = expect[role]
            if len(db.get("PORT", {})) != p:
                c.err(f, "PORT", "%d entries, want %d" % (len(db.get("PORT", {})), p))
            if len(db.get("BGP_NEIGHBOR", {})) != n:
                c.err(f, "BGP_NEIGHBOR", "%d entries, want %d" % (len(db.get("BGP_NEIGHBOR", {})), n))
        elif expect:
            c.err(f, "DEVICE_METADATA", "type %r has no expectation" % role)
        for k in db.get("INTERFACE", {}):
            name, _, pfx = k.partition("|")
            if pfx.endswith("/31"):
                slash31.add((host.get("hostname"), name, pfx))
        if frr:
            conf = open(os.path.join(os.path.dirname(f), "frr.conf")).read()
            want = set(re.findall(r'^ neighbor (\S+) interface', conf, re.M))
            if want != set(db.get("BGP_NEIGHBOR", {})):
                c.err(f, "BGP_NEIGHBOR", "keys differ from frr.conf's interface neighbors: %s" %
                      sorted(want ^ set(db.get("BGP_NEIGHBOR", {})))[:4])
    if addresses:
        rows = set((r["switch"], r["port"], r["switch_address"] + "/31")
                   for r in csv.DictReader(open(addresses)))
        if rows != slash31:
            c.errs.append("%s: INTERFACE /31s differ: %d only in the CSV, %d only in CONFIG_DB "
                          "(e.g. %s)" % (addresses, len(rows - slash31), len(slash31 - rows),
                                         sorted(rows ^ slash31)[:2]))
    for x in c.errs[:40]:
        print(x)
    if len(c.errs) > 40:
        print("... and %d more" % (len(c.errs) - 40))
    print("sonic-check: %d files, %d problems" % (len(files), len(c.errs)))
    return 1 if c.errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
