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
    written there as on the faceplate: "C/S" (cage, port of the cage) when a
    cage holds several ports, C*(cage ports)+S the port number."""

    def __init__(self, path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        per_cage = {}
        for r in rows:
            for s in ("a", "z"):
                m = re.fullmatch(r"(\d+)/(\d+)", r[s + "_port"])
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
                ends.append(self.end(dev, r[s + "_port"]))
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
    head = ["rack", "unit", "device", "port", "label", "action", "to"]
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
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
