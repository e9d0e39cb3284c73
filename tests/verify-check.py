#!/usr/bin/python3
"""Checks of tests/verify-ibsim.sh, independent of railyard's verify code.

    verify-check.py names PLAN
        PLAN: railyard's opensm/ directory. The plan's topology.net names
        every node as its node-name-map does.
    verify-check.py discovered PLAN LOADED DISC EXPECT
        LOADED: the subnets loaded into ibsim (LOADED/<subnet>/topology.net);
        DISC: what ibnetdiscover printed for them (DISC/<subnet>.net);
        EXPECT: the injector's expected findings. Checks that the discovered fabric is
        the one loaded (the same nodes, descriptions and links), that nothing
        of the plan's GUIDs or switch names is left in it, and that comparing
        it with the plan by hand gives exactly the expected findings.
    verify-check.py json PLAN CABLING EXPECT GOT
        GOT is the output of "railyard verify --format json"; CABLING the
        plan's cabling.csv (cable labels and racks).
    verify-check.py work-order PLAN CABLING EXPECT CSV
    verify-check.py files PLAN LOADED EXPECT OUT
        OUT: what "railyard opensm SPEC --fabric ..." wrote under opensm/ for
        the fabric loaded into ibsim (LOADED/<subnet>/topology.net). Checks
        that its files carry the fabric's GUIDs: topology.net is the loaded
        fabric less what no route may use (a CA the plan does not know, a
        cable within a tier), named as planned; root_guids.conf the loaded
        switches planned at the top tier; cn_guids.conf, guid2lid,
        partitions.conf and lfts.dump the ports of that fabric.
    verify-check.py renamed PLAN OUT
        OUT as above, for a fabric cabled as planned: its routing tables
        and LIDs are the plan's, entry for entry, once every GUID is read
        as the name it stands for (node-name-map, cn_guids.conf).
    verify-check.py not-cabled PLAN LOADED STDERR
        STDERR: what "railyard opensm ... --as-found" printed. The NICs it
        lists as not cabled are the planned NICs missing from every loaded
        subnet; the pairs of cabled NICs it counts as not delivered are the
        ordered pairs of planned NICs of one subnet that no path over the
        cables a route may use joins (as in routes below).
    verify-check.py routes PLAN NET LFT OSM_G2L OURS_G2L [CR_JSON CR_EXIT]...
        NET: the netfile loaded into ibsim; LFT: the tables read back from
        its switches (dump_fts); OSM_G2L: OpenSM's guid2lid after the run,
        OURS_G2L railyard's. OpenSM kept our LIDs, and the routes delivered
        between the CAs the plan knows are exactly the deliverable ones.
        CR_JSON, CR_EXIT: "railyard check-routes --json" on our subnet and
        its exit status: it counts the same routes, and fails (5) on
        reachability alone, exactly when some pair cannot be joined.

Output: a line "ok" per passed check, "FAIL: ..." per failed one, and
"# ..." lines to show.
"""

import csv
import json
import os
import re
import sys
from collections import Counter

HDR = re.compile(r'^(Switch|Ca|Hca)\s+(\d+)\s+"([^"]+)"\s*(?:#\s*"([^"]*)")?')
SW_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
CA_PORT = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')
NIC = re.compile(r'^\S+ mlx5_\d+$')


def ok():
    print("ok")


def fail(msg):
    print("FAIL: " + msg)


def check(cond, msg):
    ok() if cond else fail(msg)


def guid_of(nid):
    """A node id "S-<guid>"/"H-<guid>" as ibnetdiscover prints it."""
    return int(nid[2:], 16)


def read_net(path):
    """nodes {guid: (kind, desc)}, links {frozenset((guid, port), (guid, port))}."""
    nodes, links = {}, set()
    cur = kind = None
    with open(path, errors="replace") as f:
        for line in f:
            m = HDR.match(line)
            if m:
                cur = guid_of(m.group(3))
                kind = "sw" if m.group(1) == "Switch" else "ca"
                nodes[cur] = (kind, m.group(4))
                continue
            if cur is None or not line.startswith("["):
                if not line.strip():
                    cur = None
                continue
            m = (SW_PORT if kind == "sw" else CA_PORT).match(line)
            if m:
                links.add(frozenset(((cur, int(m.group(1))),
                                     (guid_of(m.group(2)), int(m.group(3))))))
    return nodes, links


def subnets(d):
    return sorted(s for s in os.listdir(d) if os.path.isfile(os.path.join(d, s, "topology.net")))


def read_plan(plan):
    """The plan with names: links as frozensets of (name, port), where a NIC
    is its description and port 1, a switch its planned name; and the tier
    of every name (NIC 0, leaf 1, ...)."""
    nodes, links = {}, set()
    for s in subnets(plan):
        n, l = read_net(os.path.join(plan, s, "topology.net"))
        nodes.update(n)
        links |= l
    name = {g: d for g, (k, d) in nodes.items()}
    named = {frozenset((name[g], p) for g, p in l) for l in links}
    tier = {d: 0 for g, (k, d) in nodes.items() if k == "ca"}
    front, t = list(tier), 0
    adj = {}
    for l in named:
        a, b = tuple(l)
        adj.setdefault(a[0], set()).add(b[0])
        adj.setdefault(b[0], set()).add(a[0])
    while front:
        t += 1
        nxt = []
        for n in front:
            for r in adj.get(n, ()):
                if r not in tier:
                    tier[r] = t
                    nxt.append(r)
        front = nxt
    return nodes, named, tier


def end_key(e):
    if e is None:
        return None
    return (e["device"], int(e["port"]))


def link_of(pair):
    return frozenset((end_key(pair["a"]), end_key(pair["b"])))


def show(link):
    return " - ".join("%s %d" % e for e in sorted(link))


# ---- the plan's names
def names(plan):
    """The names the expectations use (the descriptions of the plan's
    topology.net) are those of its node-name-map, subnet by subnet."""
    for s in subnets(plan):
        nodes, _ = read_net(os.path.join(plan, s, "topology.net"))
        nnm = {}
        path = os.path.join(plan, s, "node-name-map")
        if not os.path.isfile(path):
            fail("%s: no node-name-map" % s)
            continue
        for line in open(path):
            m = re.match(r'\s*(0x[0-9a-fA-F]+)\s+"([^"]*)"', line)
            if m:
                nnm[int(m.group(1), 16)] = m.group(2)
        bad = [(g, d, nnm.get(g)) for g, (k, d) in nodes.items() if nnm.get(g) != d]
        check(not bad, "%s: topology.net and node-name-map name %d nodes differently, "
              "e.g. %s" % (s, len(bad), ["0x%016x %s/%s" % b for b in bad[:3]]))


# ---- stage 3: the discovered fabric
def discovered(plan, loaded, disc, expect):
    pnodes, plinks, _ = read_plan(plan)
    exp = json.load(open(expect))
    swname = {int(g, 16): n for g, n in exp["switches"].items()}
    planned_names = {d for k, d in pnodes.values() if k == "sw"}
    dnodes, dlinks = {}, set()
    for s in subnets(loaded):
        ln, ll = read_net(os.path.join(loaded, s, "topology.net"))
        dpath = os.path.join(disc, s + ".net")
        if not os.path.isfile(dpath):
            fail("%s: no ibnetdiscover output" % s)
            continue
        n, l = read_net(dpath)
        nsw = sum(1 for k, d in n.values() if k == "sw")
        nca = len(n) - nsw
        print("# %s: ibnetdiscover found %d switches, %d CAs, %d links "
              "(loaded %d, %d, %d)" % (s, nsw, nca, len(l),
                                       sum(1 for k, d in ln.values() if k == "sw"),
                                       sum(1 for k, d in ln.values() if k == "ca"), len(ll)))
        check(n == ln, "%s: discovered nodes (GUID, type, description) differ from "
              "the loaded netfile: %d vs %d, e.g. %s" % (
                  s, len(n), len(ln), sorted(set(n.items()) ^ set(ln.items()))[:3]))
        check(l == ll, "%s: discovered links differ from the loaded netfile: %d vs %d" % (
            s, len(l), len(ll)))
        left = [g for g in n if g in pnodes]
        check(not left, "%s: planned GUIDs discovered: %s" % (
            s, ", ".join("0x%016x" % g for g in left[:3])))
        names = [d for k, d in n.values() if k == "sw" and d in planned_names]
        check(not names, "%s: switches describe themselves with planned names: %s"
              % (s, names[:3]))
        dnodes.update(n)
        dlinks |= l
    dsw = {g for g, (k, d) in dnodes.items() if k == "sw"}
    check(dsw == set(swname), "discovered switch GUIDs (%d) are not those of the "
          "expected switch map (%d)" % (len(dsw), len(swname)))

    # the plan against the discovered fabric, by hand: NICs by description,
    # switches by the injector's GUID map
    def name(g):
        k, d = dnodes[g]
        return d if k == "ca" else swname.get(g, "0x%016x" % g)
    found = {frozenset((name(g), p) for g, p in l) for l in dlinks}
    lost, new = plinks - found, found - plinks
    want_lost, want_new = set(), set()
    for x in exp["findings"]:
        if x["kind"] in ("miswired", "missing"):
            want_lost.add(link_of(x["planned"]))
        if x["kind"] in ("miswired", "unexpected", "unknown-device"):
            want_new.add(link_of(x["found"]))
    shows = lambda ls: [show(l) for l in sorted(ls, key=sorted)[:6]]
    check(lost == want_lost, "planned cables not discovered that no fault explains: %s; "
          "cables a fault moved or removed but discovered as planned: %s"
          % (shows(lost - want_lost), shows(want_lost - lost)))
    check(new == want_new, "discovered cables not planned that no fault explains: %s; "
          "cables a fault put in but not discovered: %s"
          % (shows(new - want_new), shows(want_new - new)))
    descs = Counter(d for k, d in dnodes.values() if k == "ca")
    check(max(descs.values(), default=1) == 1, "CA descriptions discovered twice: %s"
          % [d for d, c in descs.items() if c > 1][:3])
    pnames = {d for k, d in pnodes.values()}
    for x in exp["findings"]:
        if x["kind"] == "unknown-device":
            check(x["found"]["a"]["device"] not in pnames, "unknown device %s is in the plan"
                  % x["found"]["a"]["device"])
    check(len(plinks & found) == exp["as_planned"],
          "%d planned cables discovered as planned, expected as_planned %d"
          % (len(plinks & found), exp["as_planned"]))
    kinds = Counter(x["kind"] + ("/" + x["class"] if x["class"] else "") for x in exp["findings"])
    print("# %d CAs, %d switches, %d of %d planned cables as planned; faults seen: %s"
          % (sum(1 for k, d in dnodes.values() if k == "ca"), len(dsw),
             len(plinks & found), len(plinks),
             ", ".join("%s x%d" % kv for kv in sorted(kinds.items())) or "none"))


# ---- stages 4 and 5: what verify says
class Cabling:
    """The plan's cabling.csv: a label per planned cable (a frozenset of two
    (name, port) ends) and the rack of every device. Switch ports are
    written there twice: the port number, and as on the faceplate ("C/S",
    cage and port of the cage, when a cage holds several ports, C*(cage
    ports)+S the port number); the faceplate form is read here."""

    def __init__(self, path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        per_cage = {}
        for r in rows:
            for s in ("a", "z"):
                m = re.fullmatch(r"(\d+)/(\d+)", r[s + "_cage_port"])
                if m:
                    t = r[s + "_type"]
                    per_cage[t] = max(per_cage.get(t, 1), int(m.group(2)))
        self.per_cage = {}      # device -> ports a cage
        self.label, self.rack = {}, {}
        for r in rows:
            ends = []
            for s in ("a", "z"):
                dev = r[s + "_device"]
                self.per_cage[dev] = per_cage.get(r[s + "_type"], 1)
                ends.append(self.end(dev, r[s + "_cage_port"] or r[s + "_port"]))
                self.rack[ends[-1][0]] = r[s + "_rack"]
            self.label[frozenset(ends)] = r["label"]

    def end(self, dev, port):
        """(name, port number) of a device and a port as a person writes them:
        "node001", "mlx5_0"; "leaf0", "17/1" or "33"."""
        port = str(port).strip()
        if re.fullmatch(r"mlx5_\d+", port):
            return (dev + " " + port, 1)
        m = re.fullmatch(r"(\d+)/(\d+)", port)
        if m:
            return (dev, (int(m.group(1)) - 1) * self.per_cage.get(dev, 1) + int(m.group(2)))
        try:
            return (dev, int(port))
        except ValueError:
            return (dev, port)

    def port_names(self, e):
        """The ways to write the port of end e: its number, its faceplate label."""
        dev, p = e
        names = [str(p)]
        k = self.per_cage.get(dev, 1)
        if k > 1:
            names.append("%d/%d" % ((p - 1) // k + 1, (p - 1) % k + 1))
        return names


def project(x, tier):
    """A finding reduced to kind, class and the device/port of its ends; an
    unexpected cable between two switches of one tier has no lower end."""
    def pair(p):
        if p is None:
            return None
        a, b = end_key(p.get("a")), end_key(p.get("b"))
        if (x.get("kind") == "unexpected" and a and b and
                tier.get(a[0], 0) == tier.get(b[0], 0)):
            a, b = sorted((a, b))
        return (a, b)
    return (x.get("kind"), x.get("class"), pair(x.get("planned")), pair(x.get("found")))


def fmt(p):
    kind, cls, pl, fo = p
    e = lambda t: "-" if t is None else "/".join("%s %s" % e if e else "-" for e in t)
    return "%s%s planned %s found %s" % (kind, "(%s)" % cls if cls else "", e(pl), e(fo))


def moving(x):
    """(from, to) of the end a miswired cable is moved by."""
    pa, pb = end_key(x["planned"]["a"]), end_key(x["planned"]["b"])
    fa, fb = end_key(x["found"]["a"]), end_key(x["found"]["b"])
    return (fb, pb) if pa == fa else (fa, pa)


def verify_json(plan, cabling, expect, got):
    _, plinks, tier = read_plan(plan)
    cab = Cabling(cabling)
    labels = cab.label
    unlabelled = plinks - set(labels)
    check(not unlabelled, "cabling.csv has no label for %d planned cables, e.g. %s"
          % (len(unlabelled), [show(l) for l in sorted(unlabelled, key=sorted)[:2]]))
    exp = json.load(open(expect))
    try:
        out = json.load(open(got))
    except ValueError as e:
        fail("verify --format json prints no JSON: %s" % e)
        return
    for k in ("as_planned", "findings", "switches"):
        check(k in out, "no %s in verify's JSON" % k)
    check(out.get("as_planned") == exp["as_planned"], "as_planned %s, expected %d"
          % (out.get("as_planned"), exp["as_planned"]))
    check(out.get("switches") == exp["switches"],
          "switches: %d mapped, %d expected; wrong or missing: %s" % (
              len(out.get("switches") or {}), len(exp["switches"]),
              sorted("%s=%s (want %s)" % (g, (out.get("switches") or {}).get(g), n)
                     for g, n in exp["switches"].items()
                     if (out.get("switches") or {}).get(g) != n)[:4]))
    findings = out.get("findings") or []
    try:
        gotp = Counter(project(x, tier) for x in findings)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        fail("findings not in the documented shape: %s" % e)
        return
    wantp = Counter(project(x, tier) for x in exp["findings"])
    for p in sorted((wantp - gotp).elements(), key=str):
        fail("finding not reported: " + fmt(p))
    for p in sorted((gotp - wantp).elements(), key=str):
        fail("finding reported but not injected: " + fmt(p))
    if gotp == wantp:
        ok()
        print("# verify reports the %d injected findings" % len(findings))
    for x in findings:
        what = fmt(project(x, tier))
        check(isinstance(x.get("fix"), str) and x["fix"].strip(), "no fix for " + what)
        check(isinstance(x.get("impact"), str) and x["impact"].strip(), "no impact for " + what)
        if x.get("kind") not in ("miswired", "missing") or not x.get("planned"):
            continue
        want = labels.get(link_of(x["planned"]))
        check(want is not None and x.get("label") == want,
              "label of %s: %s, the cabling plan says %s" % (what, x.get("label"), want))
        if x["kind"] == "miswired" and x.get("found") and x["found"].get("b"):
            frm, to = moving(x)
            texts = ["move cable %s from %s port %s to %s port %s" % (want, frm[0], fp, to[0], tp)
                     for fp, tp in zip(cab.port_names(frm), cab.port_names(to))]
            check(any(t in (x.get("fix") or "") for t in texts), "fix of %s: '%s', want '%s'"
                  % (what, x.get("fix"), "' or '".join(texts)))


def names_end(cab, text, e):
    """Whether text (the "to" column) names the end e: its device, then its
    port by number or by faceplate label."""
    i = text.find(e[0])
    if i < 0:
        return False
    if NIC.match(e[0]):
        return True
    rest = text[i + len(e[0]):]
    return any(re.search(r"(?<![\d/])%s(?![\d/])" % re.escape(p), rest)
               for p in cab.port_names(e))


def work_order(plan, cabling, expect, path):
    cab = Cabling(cabling)
    labels, rack = cab.label, cab.rack
    row_end = lambda r: cab.end((r.get("device") or "").strip(), r.get("port") or "")
    exp = json.load(open(expect))
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = ["rack", "rack_unit", "device", "port", "cage_port", "label", "action", "to"]
    if not rows or rows[0] != head:
        fail("work order header %s, want %s" % (rows[0] if rows else None, ",".join(head)))
        return
    ok()
    bad = [r for r in rows[1:] if len(r) != len(head)]
    check(not bad, "work order rows without %d fields: %s" % (len(head), bad[:3]))
    rows = [dict(zip(head, r)) for r in rows[1:] if len(r) == len(head)]
    for r in rows:
        e = row_end(r)
        if e[0] in rack:
            check(r["rack"] == rack[e[0]], "work order row %s: rack %s, the plan puts "
                  "%s in %s" % (r, r["rack"], e[0], rack[e[0]]))
        check(r["action"].strip(), "work order row without an action: %s" % r)
        # a switch port on the faceplate: its cage/port as cabling.csv names it
        if r["cage_port"]:
            check(r["cage_port"] in cab.port_names(e), "work order row %s: cage_port %s is not "
                  "a name of that port (%s)" % (r, r["cage_port"], sorted(cab.port_names(e))))

    def spots(x):
        """(ends a row may be at, end its "to" must name, label) of a finding."""
        k = x["kind"]
        if k == "miswired":
            frm, to = moving(x)
            return [frm], to, labels.get(link_of(x["planned"]))
        if k == "missing":
            a, b = end_key(x["planned"]["a"]), end_key(x["planned"]["b"])
            return [a, b], None, labels.get(link_of(x["planned"]))
        return [e for e in (end_key(x["found"]["a"]), end_key(x["found"].get("b"))) if e], None, None

    used = set()
    for x in exp["findings"]:
        at, to, label = spots(x)
        hit = None
        for i, r in enumerate(rows):
            if i in used or row_end(r) not in at:
                continue
            if to and not names_end(cab, r["to"], to):
                continue
            if x["kind"] == "missing" and not names_end(cab, r["to"], at[1] if row_end(r) == at[0] else at[0]):
                continue
            hit = i
            break
        check(hit is not None, "no work order row for %s (at %s%s)" % (
            x["kind"], " or ".join("%s %s" % e for e in at), ", to %s %s" % to if to else ""))
        if hit is None:
            continue
        used.add(hit)
        if label:
            check(rows[hit]["label"] == label, "work order row %s: label %s, the cabling "
                  "plan says %s" % (rows[hit], rows[hit]["label"], label))
    all_spots = {e for x in exp["findings"] for e in spots(x)[0]}
    stray = [r for i, r in enumerate(rows) if i not in used and row_end(r) not in all_spots]
    check(not stray, "work order rows for no injected fault: %s" % stray[:3])
    check(len(rows) <= 2 * len(exp["findings"]), "%d work order rows for %d findings"
          % (len(rows), len(exp["findings"])))
    print("# work order: %d rows for %d findings" % (len(rows), len(exp["findings"])))


# ---- stages 6 and 7: railyard's OpenSM files for the fabric found
CA_PGUID = re.compile(r'^\[(\d+)\]\(([0-9a-fA-F]+)\)')
LFT_HDR = re.compile(r"guid 0x([0-9a-fA-F]+)\s")
LFT_ENT = re.compile(r"0x([0-9a-fA-F]+)\s+([0-9]+)\s")
PORTGUID = re.compile(r"portguid 0x([0-9a-fA-F]+)")


def port_guids(path):
    """{CA node GUID: its port 1 GUID} of a netfile (the GUID in parentheses)."""
    pg, cur = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            m = HDR.match(line)
            if m:
                cur = guid_of(m.group(3)) if m.group(1) != "Switch" else None
                continue
            m = CA_PGUID.match(line)
            if m and cur is not None and int(m.group(1)) == 1:
                pg[cur] = int(m.group(2), 16)
    return pg


def plan_cas(plan):
    """The descriptions of the planned NICs, over all subnets."""
    descs = set()
    for s in subnets(plan):
        n, _ = read_net(os.path.join(plan, s, "topology.net"))
        descs |= {d for k, d in n.values() if k == "ca"}
    return descs


def usable(nodes, links, known):
    """The links a route may use in a fabric as found: none to a CA the plan
    does not know, none between two switches of one tier (tiers counted from
    the known CAs: 1 for a switch with one, and so on)."""
    cas = {g for g, (k, d) in nodes.items() if k == "ca" and d in known}
    strange = {g for g, (k, d) in nodes.items() if k == "ca" and d not in known}
    adj = {}
    for l in links:
        (a, _), (b, _) = tuple(l)
        if a in strange or b in strange:
            continue
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    tier = {g: 0 for g in cas}
    front, t = list(cas), 0
    while front:
        t += 1
        nxt = []
        for n in front:
            for r in adj.get(n, ()):
                if r not in tier:
                    tier[r] = t
                    nxt.append(r)
        front = nxt
    out = set()
    for l in links:
        (a, _), (b, _) = tuple(l)
        if a in strange or b in strange:
            continue
        if nodes[a][0] == "sw" and nodes[b][0] == "sw" and tier.get(a) == tier.get(b):
            continue
        out.add(l)
    return cas, out


def deliverable_pairs(nodes, links, known):
    """Ordered pairs of the known CAs of one subnet that a route can join:
    connected by the usable links. Returns (the known CAs, the pairs)."""
    cas, use = usable(nodes, links, known)
    up = {}

    def root(x):
        while up.get(x, x) != x:
            up[x] = up.get(up[x], up[x])
            x = up[x]
        return x
    for l in use:
        (a, _), (b, _) = tuple(l)
        ra, rb = root(a), root(b)
        if ra != rb:
            up[ra] = rb
    comp = {g: root(g) for g in cas}
    return cas, {(a, b) for a in cas for b in cas if a != b and comp[a] == comp[b]}


def read_g2l(path):
    """{port GUID: (base LID, top LID)} of a guid2lid file."""
    out = {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) >= 3 and t[0].startswith("0x"):
                out[int(t[0], 16)] = (int(t[1], 16), int(t[2], 16))
    return out


def read_lft(path):
    """{switch GUID: {LID: port}} and the (LID, port GUID) annotations."""
    lft, notes, sw = {}, [], None
    with open(path, errors="replace") as f:
        for line in f:
            t = line.lstrip()
            if t.startswith("Unicast lids"):
                m = LFT_HDR.search(t)
                sw = int(m.group(1), 16) if m else None
                if sw is not None:
                    lft.setdefault(sw, {})
            elif t.startswith("0x") and sw is not None:
                m = LFT_ENT.match(t)
                if not m:
                    continue
                if int(m.group(2)) != 255:
                    lft[sw][int(m.group(1), 16)] = int(m.group(2))
                g = PORTGUID.search(t)
                if g:
                    notes.append((int(m.group(1), 16), int(g.group(1), 16)))
    return lft, notes


def members(path):
    """The port GUIDs of the partitions other than Default."""
    text = "\n".join(l.split("#", 1)[0] for l in open(path))
    out = set()
    for st in text.split(";"):
        if ":" not in st:
            continue
        head, mem = st.split(":", 1)
        if head.split("=", 1)[0].strip() == "Default":
            continue
        out |= {int(m, 16) for m in re.findall(r"0x[0-9a-fA-F]+", mem)}
    return out


def files(plan, loaded, expect, out):
    known = plan_cas(plan)
    swname = {int(g, 16): n for g, n in json.load(open(expect))["switches"].items()}
    check(subnets(out) == subnets(loaded), "subnets written %s, loaded %s"
          % (subnets(out), subnets(loaded)))
    for s in subnets(loaded):
        o = os.path.join(out, s)
        if not os.path.isdir(o):
            continue
        net = os.path.join(loaded, s, "topology.net")
        ln, ll = read_net(net)
        pg = port_guids(net)
        sws = {g for g, (k, d) in ln.items() if k == "sw"}
        cas, use = usable(ln, ll, known)
        # topology.net: the fabric as found, less what no route may use
        want = {g: ("sw", swname.get(g, "?")) for g in sws}
        want.update({g: ln[g] for g in cas})
        on, ol = read_net(os.path.join(o, "topology.net"))
        check(on == want, "%s: topology.net nodes (GUID, type, name) differ from the "
              "fabric's: %d vs %d, e.g. %s" % (s, len(on), len(want),
                                               sorted(set(on.items()) ^ set(want.items()))[:3]))
        check(ol == use, "%s: topology.net links differ from the fabric's: %d vs %d; "
              "only in topology.net %d, only in the fabric %d" % (
                  s, len(ol), len(use), len(ol - use), len(use - ol)))
        # root_guids.conf: the switches planned at the top tier, by their GUIDs
        pn, _ = read_net(os.path.join(plan, s, "topology.net"))
        roots = set()
        for line in open(os.path.join(plan, s, "root_guids.conf")):
            t = line.split()
            if t and t[0].startswith("0x") and int(t[0], 16) in pn:
                roots.add(pn[int(t[0], 16)][1])
        want_roots = {g for g in sws if swname.get(g) in roots}
        got = {}
        for line in open(os.path.join(o, "root_guids.conf")):
            t = line.split(None, 1)
            if t and t[0].startswith("0x"):
                got[int(t[0], 16)] = t[1].strip() if len(t) > 1 else ""
        check(set(got) == want_roots and len(want_roots) == len(roots),
              "%s: root_guids.conf lists %d GUIDs, the fabric has %d switches planned "
              "at the top tier (%d planned); e.g. %s" % (
                  s, len(got), len(want_roots), len(roots),
                  ["0x%016x" % g for g in sorted(set(got) ^ want_roots)[:3]]))
        # cn_guids.conf: the port GUIDs of the known CAs, named as found
        cn = {}
        for line in open(os.path.join(o, "cn_guids.conf")):
            t = line.split(None, 1)
            if t and t[0].startswith("0x"):
                cn[int(t[0], 16)] = t[1].strip() if len(t) > 1 else ""
        want_cn = {pg.get(g): ln[g][1] for g in cas}
        check(cn == want_cn, "%s: cn_guids.conf lists %d ports, the fabric has %d known "
              "CA ports; e.g. %s" % (s, len(cn), len(want_cn), sorted(
                  ("0x%016x" % g if g else "-", n)
                  for g, n in set(cn.items()) ^ set(want_cn.items()))[:3]))
        # guid2lid: every switch and known CA port, each its own LIDs
        g2l = read_g2l(os.path.join(o, "guid2lid"))
        check(set(g2l) == sws | set(want_cn), "%s: guid2lid has %d ports, the fabric %d "
              "switches and %d known CA ports" % (s, len(g2l), len(sws), len(want_cn)))
        lids = [l for lo, hi in g2l.values() for l in range(lo, hi + 1)]
        check(len(lids) == len(set(lids)), "%s: guid2lid gives a LID twice" % s)
        # lfts.dump: the fabric's switches; each annotated LID its port's
        lft, notes = read_lft(os.path.join(o, "lfts.dump"))
        check(set(lft) == sws, "%s: lfts.dump has %d switches, the fabric %d; %d common"
              % (s, len(lft), len(sws), len(set(lft) & sws)))
        bad = [(l, g) for l, g in notes if g not in g2l or not g2l[g][0] <= l <= g2l[g][1]]
        check(notes and not bad, "%s: lfts.dump: %d of %d portguid notes name no port of "
              "guid2lid with that LID, e.g. %s" % (s, len(bad), len(notes), [
                  "0x%04x 0x%016x" % b for b in bad[:3]]))
        # partitions.conf: the rails' members are known CA ports of the
        # fabric, among them every CA planned in this subnet (one cabled in
        # from another subnet is a member when its rail has a partition here)
        mem = members(os.path.join(o, "partitions.conf"))
        here = {d for k, d in pn.values() if k == "ca"}
        must = {pg.get(g) for g in cas if ln[g][1] in here}
        check(mem <= set(want_cn) and must <= mem, "%s: partitions.conf has %d member "
              "ports, %d not known CA ports of the fabric; %d CA ports planned here in none"
              % (s, len(mem), len(mem - set(want_cn)), len(must - mem)))
        moved = len(cas) - len(must)
        print("# %s: %d switches (%d at the top), %d CAs%s, %d links of the fabric's %d"
              % (s, len(sws), len(want_roots), len(cas),
                 " (%d cabled in from another subnet, %d of them in no rail partition)"
                 % (moved, len(set(want_cn) - must - mem)) if moved else "",
                 len(use), len(ll)))


def named_tables(d):
    """The LFT {(switch name, LID): port} and {port name: LIDs} of a subnet
    directory, GUIDs read as the names node-name-map and cn_guids.conf give."""
    name = {}
    for f in ("node-name-map", "cn_guids.conf"):
        for line in open(os.path.join(d, f)):
            m = re.match(r'\s*(0x[0-9a-fA-F]+)\s+"?([^"\n]*)"?', line)
            if m:
                name[int(m.group(1), 16)] = m.group(2).strip()
    lft, _ = read_lft(os.path.join(d, "lfts.dump"))
    named = {(name.get(sw, sw), lid): p for sw, t in lft.items() for lid, p in t.items()}
    lids = {name.get(g, g): l for g, l in read_g2l(os.path.join(d, "guid2lid")).items()}
    return named, lids


def renamed(plan, out):
    for s in subnets(plan):
        pl, plids = named_tables(os.path.join(plan, s))
        ol, olids = named_tables(os.path.join(out, s))
        diff = sorted(k for k in set(pl) | set(ol) if pl.get(k) != ol.get(k))
        check(not diff, "%s: %d LFT entries differ from the plan's, e.g. %s" % (
            s, len(diff), ["%s lid %d: port %s, planned %s" % (k[0], k[1], ol.get(k), pl.get(k))
                           for k in diff[:3]]))
        ldiff = sorted(str(k) for k in set(plids) | set(olids) if plids.get(k) != olids.get(k))
        check(not ldiff, "%s: %d ports have other LIDs than planned, e.g. %s"
              % (s, len(ldiff), ldiff[:3]))
        print("# %s: the plan's %d LFT entries and %d LIDs under the fabric's GUIDs"
              % (s, len(pl), len(plids)))


def not_cabled(plan, loaded, stderr):
    found, pairs = set(), 0
    for s in subnets(loaded):
        n, l = read_net(os.path.join(loaded, s, "topology.net"))
        found |= {d for k, d in n.values() if k == "ca"}
        cas, ok_pairs = deliverable_pairs(n, l, plan_cas(plan))
        pairs += len(cas) * (len(cas) - 1) - len(ok_pairs)
    want = plan_cas(plan) - found
    text = open(stderr, errors="replace").read()
    got = set(re.findall(r"railyard:\s+(.*?) is not cabled: no route reaches it", text))
    check(got == want, "NICs railyard says are not cabled: %s; planned NICs in no "
          "subnet found: %s" % (sorted(got), sorted(want)))
    # counts as people read them: thousands grouped ("1,984")
    m = re.search(r"([\d,]+) NICs? not cabled; ([\d,]+) pairs? of cabled NICs not delivered", text)
    if not m:
        fail("no summary of the NICs not cabled and pairs not delivered")
        return
    check(m.group(1) == format(len(want), ","), "%s NICs not cabled, want %s"
          % (m.group(1), format(len(want), ",")))
    check(m.group(2) == format(pairs, ","), "%s pairs of cabled NICs not delivered, want %s"
          % (m.group(2), format(pairs, ",")))
    print("# not cabled: %s; %d pairs of cabled NICs cannot be joined"
          % (", ".join(sorted(want)) or "none", pairs))


def routes(plan, net, lftf, osm_g2l, ours_g2l, *crs):
    nodes, links = read_net(net)
    pg = port_guids(net)
    link = {}
    for l in links:
        a, b = tuple(l)
        link[a], link[b] = b, a
    osm, ours = read_g2l(osm_g2l), read_g2l(ours_g2l)
    moved = [g for g in ours if osm.get(g) != ours[g]]
    check(not moved, "OpenSM gave %d of our %d ports other LIDs, e.g. %s" % (
        len(moved), len(ours), ["0x%016x %s/%s" % (g, ours[g], osm.get(g)) for g in moved[:3]]))
    lft, _ = read_lft(lftf)
    cas, want = deliverable_pairs(nodes, links, plan_cas(plan))

    def trace(a, b):
        if pg.get(b) not in osm:
            return "no LID"
        dlid = osm[pg[b]][0]
        n = link.get((a, 1))
        for _ in range(64):
            if n is None:
                return "dead link"
            if nodes[n[0]][0] == "ca":
                return None if n[0] == b else "delivered to " + nodes[n[0]][1]
            out = lft.get(n[0], {}).get(dlid)
            if not out:
                return "no route at 0x%016x" % n[0]
            n = link.get((n[0], out))
        return "loop"
    delivered, why = set(), {}
    for a in cas:
        for b in cas:
            if a == b:
                continue
            e = trace(a, b)
            if e is None:
                delivered.add((a, b))
            else:
                why[(a, b)] = e
    name = lambda g: nodes[g][1]
    check(want - delivered == set(), "%d deliverable routes not delivered, e.g. %s" % (
        len(want - delivered), ["%s -> %s: %s" % (name(a), name(b), why[(a, b)])
                                for a, b in sorted(want - delivered)[:4]]))
    check(delivered - want == set(), "%d routes delivered that cannot be: %s" % (
        len(delivered - want), ["%s -> %s" % (name(a), name(b))
                                for a, b in sorted(delivered - want)[:4]]))
    every = len(cas) * (len(cas) - 1)
    for path, rc in zip(crs[::2], crs[1::2]):
        try:
            cr = json.load(open(path))
            got = (cr["routes"], cr["reachable"]["delivered"], cr["reachable"]["ok"],
                   cr["loops"]["ok"], cr["minimal"]["ok"], cr["credit_loops"]["ok"], cr["ok"])
        except (ValueError, KeyError, TypeError) as e:
            fail("%s: not check-routes JSON: %s" % (path, e))
            continue
        whole = len(want) == every
        check(got == (every, len(want), whole, True, True, True, whole) and
              int(rc) == (0 if whole else 5),
              "check-routes on %s: exit %s, %d routes, %d delivered, ok %s, reachable %s, "
              "loops %s, minimal %s, credit loops %s; want exit %d, %d routes, %d delivered, "
              "loops, minimal and credit loops ok" % (
                  cr.get("lfts", {}).get("file"), rc, got[0], got[1], got[6], got[2],
                  got[3], got[4], got[5], 0 if whole else 5, every, len(want)))
    other = sum(1 for k, d in nodes.values() if k == "ca") - len(cas)
    print("# %d CAs of the plan%s: %d of %d pairs deliverable, %d delivered"
          % (len(cas), " (%d other left out)" % other if other else "",
             len(want), every, len(delivered)))


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "names":
        names(*args)
    elif mode == "discovered":
        discovered(*args)
    elif mode == "json":
        verify_json(*args)
    elif mode == "work-order":
        work_order(*args)
    elif mode == "files":
        files(*args)
    elif mode == "renamed":
        renamed(*args)
    elif mode == "not-cabled":
        not_cabled(*args)
    elif mode == "routes":
        routes(*args)
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
