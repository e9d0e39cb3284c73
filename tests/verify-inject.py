#!/usr/bin/python3
"""Turn railyard's planned subnets into a "real" fabric with cabling faults.

    verify-inject.py --plan OPENSM_DIR --out DIR --expect FILE [--seed N]
                     [--fault KIND]...

OPENSM_DIR is what "railyard opensm SPEC -o X" wrote under X/opensm: one
directory per subnet holding topology.net (ibnetdiscover format). For every
subnet DIR/<subnet>/topology.net is written, loadable by ibsim, with

  - every GUID replaced by a random one under the 0x0c42a1 vendor OUI (the
    node ids "S-..."/"H-...", switchguid=/caguid=, the port GUIDs in
    parentheses; a CA's port GUID is its node GUID + 1, as ibsim makes it);
  - every switch's NodeDescription a vendor default that does not name the
    planned switch; the CAs keep theirs ("node001 mlx5_0", set by the host);
  - the faults asked for, in this order, on cables no earlier fault touched:
      port-swap    two NIC cables of one leaf swap their leaf ports
      rail-swap    two NICs of one host on different rails swap cables
      plane-swap   a host's NIC mlx5_i of plane 0 and its mlx5_{i+G} of
                   plane 1 (G NICs a plane) swap cables: each NIC then shows
                   up in the other plane's subnet
      unit-swap    two NICs of one rail in two scalable units swap cables
      uplink[:T]   two cables from tier T to tier T+1 (default 1: leaf to
                   spine; 2: spine to core), from two different lower and to
                   two different upper switches, swap their upper ends
      missing      one leaf-to-spine cable removed
      missing:nic  one NIC cable removed (the NIC is then not discovered)
      extra        a cable between free ports of two switches of one tier
      isolate      every uplink of one leaf removed, and a cable from a free
                   port of that leaf to one of another leaf of its subnet:
                   its NICs are still found, but no route may reach them
      unknown      a CA "node999 mlx5_0", a host not in the plan, cabled to
                   a free leaf port (the next is node998, ...)

A fault may be asked for many times. Each is placed at random among the
places left, in time about the size of its group (the NICs of a leaf, of a
host, of a rail), so hundreds of faults in a fabric of 100,000 cables take
seconds.

FILE gets the findings "railyard verify SPEC FABRIC... --format json" must
print for the result, reduced to what a test compares:

    {"as_planned": N,
     "findings": [{"kind", "class", "planned": {"a": END, "b": END} | null,
                   "found": {"a": END, "b": END} | null}, ...],
     "switches": {"0x<node guid>": "<planned name>", ...}}

END is {"device": D, "port": P}: a NIC is its description with port 1, a
switch its planned name (the description railyard wrote in the plan) and
port; "a" is the lower end. A swap of two cables gives two "miswired"
findings, each naming the cable by its lower end, which stays where it was
planned. as_planned is the planned cable count less the planned cables a
finding names. Everything is a function of the plan and the seed.
"""

import argparse
import json
import os
import random
import re
import sys

OUI = 0x0c42a1
HDR = re.compile(r'^(Switch|Ca|Hca)\s+(\d+)\s+"([^"]+)"\s*(?:#\s*"([^"]*)")?')
SW_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
CA_PORT = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')
RATE = re.compile(r'\b(\d+x[A-Z0-9]+)\s*$')
NIC = re.compile(r'^(\S+) mlx5_(\d+)$')


class Fabric:
    """The planned subnets as one graph: nodes by plan id, links both ways."""

    def __init__(self):
        self.nodes = {}     # id -> dict(kind, nports, desc, subnet, order)
        self.link = {}      # (id, port) -> (id, port)
        self.subnets = []   # names, in order
        self.rate = {}      # subnet -> "4xNDR"

    def load(self, subnet, path):
        self.subnets.append(subnet)
        cur = None
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                m = HDR.match(line)
                if m:
                    cur = m.group(3)
                    kind = "sw" if m.group(1) == "Switch" else "ca"
                    self.nodes[cur] = {"kind": kind, "nports": int(m.group(2)),
                                       "desc": m.group(4) or cur, "subnet": subnet,
                                       "order": len(self.nodes)}
                    continue
                if cur is None or not line.startswith("["):
                    if not line.strip():
                        cur = None
                    continue
                m = (SW_PORT if self.nodes[cur]["kind"] == "sw" else CA_PORT).match(line)
                if not m:
                    sys.exit("%s: cannot read port line: %s" % (path, line))
                self.link[(cur, int(m.group(1)))] = (m.group(2), int(m.group(3)))
                r = RATE.search(line)
                if r and subnet not in self.rate:
                    self.rate[subnet] = r.group(1)
        for end, peer in self.link.items():
            if self.link.get(peer) != end:
                sys.exit("%s: link %s -> %s is not listed back" % (path, end, peer))

    def cables(self):
        """Every link once, as (lower end, upper end)."""
        seen = []
        for a, b in self.link.items():
            lo, hi = self.order_ends(a, b)
            if lo == a:
                seen.append((lo, hi))
        return seen

    def connect(self, a, b):
        self.link[a] = b
        self.link[b] = a

    def cut(self, a):
        b = self.link.pop(a)
        del self.link[b]
        return b

    # ---- structure, computed once on the plan
    def analyse(self):
        self.tier = {n: 0 for n, d in self.nodes.items() if d["kind"] == "ca"}
        front = list(self.tier)
        t = 0
        while front:
            t += 1
            nxt = []
            for n in front:
                for p in range(1, self.nodes[n]["nports"] + 1):
                    r = self.link.get((n, p))
                    if r and r[0] not in self.tier:
                        self.tier[r[0]] = t
                        nxt.append(r[0])
            front = nxt
        self.host, self.nic, self.plane = {}, {}, {}
        for n, d in self.nodes.items():
            m = NIC.match(d["desc"]) if d["kind"] == "ca" else None
            if m:
                self.host[n], self.nic[n] = m.group(1), int(m.group(2))
            m = re.match(r"plane(\d+)", d["subnet"])
            self.plane[n] = int(m.group(1)) if m else 0
            # a NIC port's plane is its leaf's (p1-leaf3): on a ToR pair under
            # one aggregation layer (fabric.homing dual-tor) both planes'
            # leaves share one subnet
            if d["kind"] == "ca" and (n, 1) in self.link:
                m = re.match(r"p(\d+)-", name_of(self, self.link[(n, 1)][0]))
                if m:
                    self.plane[n] = int(m.group(1))
        # where faults are looked for, grouped once on the plan so that a
        # fault costs the size of its group, not of the fabric: a NIC whose
        # cable no fault touched is still at its planned leaf port
        self.nics = [n for n, d in self.nodes.items()
                     if d["kind"] == "ca" and (n, 1) in self.link]
        self.group = {}
        for n in self.nics:
            for key in (("leaf", self.leaf_of(n)),
                        ("host", self.host.get(n)), ("rail", self.nic.get(n), self.plane[n])):
                if key[1] is not None:
                    self.group.setdefault(key, []).append(n)
        self.per_plane = len({self.nic[n] for n in self.nic if self.plane[n] == 0})
        self.plan_cables = self.cables()
        self.by_tier = {}

    def tier_cables(self, t):
        """The planned cables from tier t up to tier t+1 of one subnet."""
        if t not in self.by_tier:
            self.by_tier[t] = [(lo, hi) for lo, hi in self.plan_cables
                               if self.tier.get(lo[0]) == t and self.tier.get(hi[0]) == t + 1
                               and self.nodes[lo[0]]["subnet"] == self.nodes[hi[0]]["subnet"]]
        return self.by_tier[t]

    def order_ends(self, a, b):
        ka = (self.tier.get(a[0], 0), self.nodes[a[0]]["order"], a[1])
        kb = (self.tier.get(b[0], 0), self.nodes[b[0]]["order"], b[1])
        return (a, b) if ka <= kb else (b, a)

    def leaf_of(self, ca):
        return self.link[(ca, 1)][0]

    def free_ports(self, node):
        return [p for p in range(1, self.nodes[node]["nports"] + 1)
                if (node, p) not in self.link]


def name_of(fab, node):
    """The name verify reports: a NIC's description, a switch's planned name."""
    return fab.nodes[node]["desc"]


def end(fab, e):
    return {"device": name_of(fab, e[0]), "port": e[1]}


class Injector:
    def __init__(self, fab, rng):
        self.fab, self.rng = fab, rng
        self.touched = set()        # ends no later fault may use
        self.findings = []
        self.log = []

    def free(self, *ends):
        return not any(e in self.touched for e in ends)

    def touch(self, *ends):
        self.touched.update(ends)

    def draw(self, items, ok):
        """A random item of items for which ok holds, or None: a few random
        draws, then every item in turn from a random place. Quick when most
        items will do, as on a large fabric, and sure to find one if any will."""
        n = len(items)
        if not n:
            return None
        for _ in range(16):
            x = items[self.rng.randrange(n)]
            if ok(x):
                return x
        start = self.rng.randrange(n)
        for i in range(n):
            x = items[(start + i) % n]
            if ok(x):
                return x
        return None

    def pick(self, what, items, ok=lambda x: True):
        x = self.draw(items, ok)
        if x is None:
            sys.exit("no place for a %s fault in this fabric" % what)
        return x

    def pick_pair(self, what, items, ok, partners, match):
        """a, then b of partners(a), both ok, with match(a, b)."""
        got = []

        def first(a):
            if not ok(a):
                return False
            b = self.draw(partners(a), lambda b: b != a and ok(b) and match(a, b))
            got[:] = [b]
            return b is not None
        return self.pick(what, items, first), got[0]

    def free_nic(self, n):
        """Whether NIC n's cable is in the plan's place, untouched by faults."""
        e = self.fab.link.get((n, 1))
        return e is not None and self.free((n, 1), e)

    def swap_nics(self, cls, n1, n2):
        """n1 and n2 swap cables: each is now where the other was planned."""
        f = self.fab
        e1, e2 = f.link[(n1, 1)], f.link[(n2, 1)]
        self.touch((n1, 1), (n2, 1), e1, e2)
        f.cut((n1, 1))
        f.cut((n2, 1))
        f.connect((n1, 1), e2)
        f.connect((n2, 1), e1)
        for n, planned, found in ((n1, e1, e2), (n2, e2, e1)):
            self.findings.append({"kind": "miswired", "class": cls,
                                  "planned": {"a": end(f, (n, 1)), "b": end(f, planned)},
                                  "found": {"a": end(f, (n, 1)), "b": end(f, found)}})
        self.log.append("%s: %s (%s %d) <-> %s (%s %d)" % (
            cls, name_of(f, n1), name_of(f, e1[0]), e1[1],
            name_of(f, n2), name_of(f, e2[0]), e2[1]))

    def nic_pair(self, what, key, match):
        f = self.fab
        return self.pick_pair(what, f.nics, self.free_nic,
                              lambda a: f.group.get(key(a), ()), match)

    def port_swap(self):
        f = self.fab
        pair = self.nic_pair("port-swap", lambda a: ("leaf", f.leaf_of(a)), lambda a, b: True)
        self.swap_nics("port-swap", *pair)

    def rail_swap(self):
        f = self.fab
        pair = self.nic_pair("rail-swap", lambda a: ("host", f.host.get(a)),
                             lambda a, b: f.plane[a] == f.plane[b] and f.nic[a] != f.nic[b]
                             and f.leaf_of(a) != f.leaf_of(b))
        self.swap_nics("rail-swap", *pair)

    def plane_swap(self):
        f = self.fab
        pair = self.nic_pair("plane-swap", lambda a: ("host", f.host.get(a)),
                             lambda a, b: {f.plane[a], f.plane[b]} == {0, 1} and
                             abs(f.nic[a] - f.nic[b]) == f.per_plane and
                             (f.nic[a] < f.nic[b]) == (f.plane[a] < f.plane[b]))
        self.swap_nics("plane-swap", *pair)

    def unit_swap(self):
        f = self.fab
        pair = self.nic_pair("unit-swap", lambda a: ("rail", f.nic.get(a), f.plane[a]),
                             lambda a, b: f.host[a] != f.host[b] and
                             f.leaf_of(a) != f.leaf_of(b))
        self.swap_nics("unit-swap", *pair)

    def uplink(self, t=1):
        f = self.fab
        cs = f.tier_cables(t)
        (l1, s1), (l2, s2) = self.pick_pair(
            "uplink", cs, lambda c: self.free(*c), lambda c: cs,
            lambda c, d: c[0][0] != d[0][0] and c[1][0] != d[1][0] and
            f.nodes[c[0][0]]["subnet"] == f.nodes[d[0][0]]["subnet"])
        self.touch(l1, s1, l2, s2)
        f.cut(l1)
        f.cut(l2)
        f.connect(l1, s2)
        f.connect(l2, s1)
        for lo, planned, found in ((l1, s1, s2), (l2, s2, s1)):
            self.findings.append({"kind": "miswired", "class": "uplink",
                                  "planned": {"a": end(f, lo), "b": end(f, planned)},
                                  "found": {"a": end(f, lo), "b": end(f, found)}})
        self.log.append("uplink: %s %d -> %s %d and %s %d -> %s %d swap upper ends" % (
            name_of(f, l1[0]), l1[1], name_of(f, s1[0]), s1[1],
            name_of(f, l2[0]), l2[1], name_of(f, s2[0]), s2[1]))

    def missing(self, what=""):
        f = self.fab
        if what == "nic":
            # the NIC is then left out of the netfile: ibnetdiscover could
            # not reach it anyway
            n = self.pick("missing", f.nics, self.free_nic)
            lo, hi = (n, 1), f.link[(n, 1)]
        else:
            lo, hi = self.pick("missing", f.tier_cables(1), lambda c: self.free(*c))
        self.touch(lo, hi)
        f.cut(lo)
        self.findings.append({"kind": "missing", "class": None,
                              "planned": {"a": end(f, lo), "b": end(f, hi)}, "found": None})
        self.log.append("missing: %s %d - %s %d" % (name_of(f, lo[0]), lo[1],
                                                    name_of(f, hi[0]), hi[1]))

    def free_ends(self, node):
        return [(node, p) for p in self.fab.free_ports(node) if self.free((node, p))]

    def extra(self):
        f = self.fab
        sws = [n for n, d in f.nodes.items() if d["kind"] == "sw"]
        a, b = self.pick_pair("extra", sws, lambda n: bool(self.free_ends(n)), lambda a: sws,
                              lambda a, b: f.tier[a] == f.tier[b] and
                              f.nodes[a]["subnet"] == f.nodes[b]["subnet"])
        ea = self.pick("extra", self.free_ends(a))
        eb = self.pick("extra", self.free_ends(b))
        self.touch(ea, eb)
        f.connect(ea, eb)
        lo, hi = f.order_ends(ea, eb)
        self.findings.append({"kind": "unexpected", "class": None, "planned": None,
                              "found": {"a": end(f, lo), "b": end(f, hi)}})
        self.log.append("extra: %s %d - %s %d" % (name_of(f, lo[0]), lo[1],
                                                  name_of(f, hi[0]), hi[1]))

    def isolate(self):
        f = self.fab

        def uplinks(n):
            return [((n, p), f.link[(n, p)]) for p in range(1, f.nodes[n]["nports"] + 1)
                    if (n, p) in f.link and f.tier.get(f.link[(n, p)][0]) == 2]
        leaves = [n for n, d in f.nodes.items() if d["kind"] == "sw" and f.tier[n] == 1]
        pairs = [(a, b) for a in leaves for b in leaves
                 if a != b and f.nodes[a]["subnet"] == f.nodes[b]["subnet"] and
                 uplinks(a) and not any(e[0] == a for e in self.touched) and
                 any(f.tier.get(f.link.get((a, p), ("", 0))[0]) == 0
                     for p in range(1, f.nodes[a]["nports"] + 1)) and
                 self.free_ends(a) and self.free_ends(b)]
        a, b = self.pick("isolate", pairs)
        ea = self.pick("isolate", self.free_ends(a))
        eb = self.pick("isolate", self.free_ends(b))
        cut = uplinks(a)
        for lo, hi in cut:
            self.touch(lo, hi)
            f.cut(lo)
            self.findings.append({"kind": "missing", "class": None,
                                  "planned": {"a": end(f, lo), "b": end(f, hi)}, "found": None})
        self.touch(ea, eb)
        f.connect(ea, eb)
        lo, hi = f.order_ends(ea, eb)
        self.findings.append({"kind": "unexpected", "class": None, "planned": None,
                              "found": {"a": end(f, lo), "b": end(f, hi)}})
        self.log.append("isolate: %s loses its %d uplinks; %s %d - %s %d" % (
            name_of(f, a), len(cut), name_of(f, lo[0]), lo[1], name_of(f, hi[0]), hi[1]))

    def unknown(self):
        """A host the plan does not have: node999, else node998, ..."""
        f = self.fab
        leaves = [n for n, d in f.nodes.items() if d["kind"] == "sw" and f.tier[n] == 1]
        e = self.pick("unknown", self.free_ends(
            self.pick("unknown", leaves, lambda n: bool(self.free_ends(n)))))
        hosts = set(f.host.values())
        i = 999
        while "node%d" % i in hosts:
            i -= 1
        desc = "node%d mlx5_0" % i
        n = "H-unknown-node%d" % i
        f.nodes[n] = {"kind": "ca", "nports": 1, "desc": desc,
                      "subnet": f.nodes[e[0]]["subnet"], "order": len(f.nodes)}
        f.tier[n] = 0
        f.host[n], f.nic[n] = "node%d" % i, 0
        self.touch(e, (n, 1))
        f.connect((n, 1), e)
        self.findings.append({"kind": "unknown-device", "class": None, "planned": None,
                              "found": {"a": end(f, (n, 1)), "b": end(f, e)}})
        self.log.append("unknown: %s on %s %d" % (desc, name_of(f, e[0]), e[1]))


class Guids:
    """Random GUIDs under the vendor OUI, with room for port GUIDs: CA node
    GUIDs are even, and no GUID (nor a CA's port GUID) is used twice. Drawn
    from their own generator, so a device has the same GUID whatever faults
    are injected."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.used = set()
        self.of = {}

    def __getitem__(self, node):
        if node not in self.of:
            while True:
                g = ((OUI << 40) | self.rng.getrandbits(40)) & ~1
                if g not in self.used and g + 1 not in self.used:
                    break
            self.used.update((g, g + 1))
            self.of[node] = g
        return self.of[node]


def vendor_descs(fab, rng):
    """Switch descriptions as they come from the factory: the same for many."""
    desc = {}
    for i, n in enumerate(n for n, d in fab.nodes.items() if d["kind"] == "sw"):
        if i % 2:
            desc[n] = "Quantum-2 Mellanox Technologies"
        else:
            desc[n] = "MF0;switch-%06x:MQM9700/U1" % rng.getrandbits(24)
    return desc


def write_subnets(fab, guid, desc, out):
    nid = {n: ("S-%016x" if d["kind"] == "sw" else "H-%016x") % guid[n]
           for n, d in fab.nodes.items()}
    pguid = {n: guid[n] + (d["kind"] == "ca") for n, d in fab.nodes.items()}
    for sub in fab.subnets:
        sws = [n for n, d in fab.nodes.items() if d["kind"] == "sw" and d["subnet"] == sub]
        swset = set(sws)
        cas = [n for n, d in fab.nodes.items() if d["kind"] == "ca" and (n, 1) in fab.link
               and fab.link[(n, 1)][0] in swset]
        lid = {n: i + 1 for i, n in enumerate(sws + cas)}
        rate = fab.rate.get(sub, "4xNDR")
        os.makedirs(os.path.join(out, sub), exist_ok=True)
        with open(os.path.join(out, sub, "topology.net"), "w") as f:
            f.write("# subnet %s as found on the floor: %d switches, %d CAs\n\n"
                    % (sub, len(sws), len(cas)))
            for n in sws:
                d = fab.nodes[n]
                f.write("vendid=0x2c9\ndevid=0xd2f2\nswitchguid=0x%016x\n" % guid[n])
                f.write('Switch\t%d "%s"\t\t# "%s" enhanced port 0 lid %d lmc 0\n'
                        % (d["nports"], nid[n], desc[n], lid[n]))
                for p in range(1, d["nports"] + 1):
                    r = fab.link.get((n, p))
                    if r is None:
                        continue
                    rn, rp = r
                    rd = desc.get(rn, fab.nodes[rn]["desc"])
                    if fab.nodes[rn]["kind"] == "ca":
                        f.write('[%d]\t"%s"[%d](%x)\t\t# "%s" lid %d %s\n'
                                % (p, nid[rn], rp, pguid[rn], rd, lid[rn], rate))
                    else:
                        f.write('[%d]\t"%s"[%d]\t\t# "%s" lid %d %s\n'
                                % (p, nid[rn], rp, rd, lid[rn], rate))
                f.write("\n")
            for n in cas:
                d = fab.nodes[n]
                rn, rp = fab.link[(n, 1)]
                f.write("vendid=0x2c9\ndevid=0x1021\ncaguid=0x%016x\n" % guid[n])
                f.write('Ca\t1 "%s"\t\t# "%s"\n' % (nid[n], d["desc"]))
                f.write('[1](%x)\t"%s"[%d]\t\t# lid %d lmc 0 "%s" lid %d %s\n\n'
                        % (pguid[n], nid[rn], rp, lid[n], desc[rn], lid[rn], rate))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plan", required=True, help="railyard's opensm/ directory")
    ap.add_argument("--out", required=True, help="where the faulted subnets go")
    ap.add_argument("--expect", required=True, help="the expected findings (JSON)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fault", action="append", default=[])
    args = ap.parse_args()

    fab = Fabric()
    subs = sorted(d for d in os.listdir(args.plan)
                  if os.path.isfile(os.path.join(args.plan, d, "topology.net")))
    if not subs:
        sys.exit("%s: no subnet directory with a topology.net" % args.plan)
    for s in subs:
        fab.load(s, os.path.join(args.plan, s, "topology.net"))
    fab.analyse()
    planned = len(fab.cables())
    guid = Guids(args.seed)
    for n in fab.nodes:
        guid[n]
    desc = vendor_descs(fab, random.Random(args.seed))
    inj = Injector(fab, random.Random(args.seed + 1))
    for fault in args.fault:
        kind, _, arg = fault.partition(":")
        if kind == "port-swap":
            inj.port_swap()
        elif kind == "rail-swap":
            inj.rail_swap()
        elif kind == "plane-swap":
            inj.plane_swap()
        elif kind == "unit-swap":
            inj.unit_swap()
        elif kind == "uplink":
            inj.uplink(int(arg or 1))
        elif kind == "missing":
            inj.missing(arg)
        elif kind == "extra":
            inj.extra()
        elif kind == "unknown":
            inj.unknown()
        elif kind == "isolate":
            inj.isolate()
        else:
            sys.exit("unknown fault %s" % fault)

    write_subnets(fab, guid, desc, args.out)
    involved = sum(1 for x in inj.findings if x["kind"] in ("miswired", "missing"))
    expect = {"as_planned": planned - involved, "findings": inj.findings,
              "switches": {"0x%016x" % guid[n]: d["desc"] for n, d in fab.nodes.items()
                           if d["kind"] == "sw"}}
    with open(args.expect, "w") as f:
        json.dump(expect, f, indent=1)
        f.write("\n")
    print("%d subnets, %d planned cables, %d findings expected"
          % (len(subs), planned, len(inj.findings)))
    for line in inj.log:
        print("  " + line)


if __name__ == "__main__":
    main()
