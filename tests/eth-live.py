#!/usr/bin/python3
"""Boots railyard's Ethernet configs, unmodified, on a fabric of Linux
network namespaces: one namespace per switch (zebra, bgpd and bfdd of
Debian's FRR reading the generated frr.conf) and per server (its generated
ip script), a veth pair per cable. Then checks, each against numbers it
works out itself or railyard's own predictions:

  - every BGP session Established;
  - every NIC reaches every other server's NIC of its rail, and (where the
    design routes between rails) a NIC of every other rail;
  - each leaf's kernel routes to the other leaves' host links carry the
    closed-form ECMP width given on the command line, and whatif's;
  - railyard ethernet --check-routes agrees with every switch's kernel table;
  - after a failure (--fail: a switch taken down), the same again: the
    width drops to what whatif predicts, every pair still reaches, the
    tables agree with the plan of what is left.

Namespaces, links and daemons it starts are its own (names start with a
prefix of this run) and are stopped in all cases: by pid files and by
deleting exactly the namespaces it made.

usage: eth-live.py RAILYARD SPEC WORKDIR --width N[,M] [--cross-rail]
                   [--fail ELEMENT [--down SWITCH:PORT,...] --width-after N[,M]]

--width: the fewest and most next hops (one number: both) of a leaf's
route to another leaf's host link, worked out by hand for the spec.
--fail: what whatif and check-routes are told is down; --down: the
interfaces the test sets down for it (default: every port of the switch
ELEMENT names).
"""
import argparse
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

FRR = "/usr/lib/frr"
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg, flush=True)


def ok(msg):
    print("ok: " + msg, flush=True)


def sh(*args, check=True, capture=False, timeout=60):
    r = subprocess.run(args, stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r


class Fabric:
    def __init__(self, railyard, spec, work, sets=()):
        self.ry = railyard
        self.spec = spec
        self.work = work
        self.sets = [x for kv in sets for x in ("--set", kv)]
        self.prefix = "ry%d-" % os.getpid()
        self.made = []          # namespaces this run made
        self.pidfiles = []
        out = os.path.join(work, "out")
        sh(railyard, "ethernet", spec, *self.sets, "-o", out)
        self.dir = os.path.join(out, "ethernet")
        self.switches = sorted(os.listdir(os.path.join(self.dir, "switches")))
        self.nics = list(csv.DictReader(open(os.path.join(self.dir, "addresses.csv"))))
        self.hosts = sorted({n["host"] for n in self.nics})
        self.asn = {r["switch"]: r for r in csv.DictReader(open(os.path.join(self.dir,
                                                                             "asn-plan.csv")))}
        self.links = self.read_switch_links()

    def ns(self, name):
        return self.prefix + name

    def read_switch_links(self):
        """Switch-to-switch cables from the descriptions of frr.conf, each
        seen from both ends (a cable one end does not name is an error)."""
        ends = {}
        for sw in self.switches:
            text = open(os.path.join(self.dir, "switches", sw, "frr.conf")).read()
            for port, peer, pport in re.findall(
                    r"^interface (\S+)\n description (\S+) (\S+)\n", text, re.M):
                if peer in self.switches:
                    ends[(sw, port)] = (peer, pport)
        links = []
        for (a, pa), (b, pb) in sorted(ends.items()):
            if ends.get((b, pb)) != (a, pa):
                fail("%s %s names %s %s, which does not name it back" % (a, pa, b, pb))
            elif (a, pa) < (b, pb):
                links.append((a, pa, b, pb))
        return links

    def up(self, routing=True):
        """Namespaces and cables; with routing (the default) also FRR on
        the switches and the hosts' ip scripts, else every cable's both ends
        up (what LLDP alone needs)."""
        for name in self.switches + self.hosts:
            sh("ip", "netns", "add", self.ns(name))
            self.made.append(self.ns(name))
            sh("ip", "-n", self.ns(name), "link", "set", "lo", "up")
        for sw in self.switches:
            sh("ip", "netns", "exec", self.ns(sw), "sysctl", "-qw", "net.ipv4.ip_forward=1",
               "net.ipv6.conf.all.forwarding=1")
        for a, pa, b, pb in self.links:
            self.cable(a, pa, b, pb)
        # a server's NICs come up when its script runs, after the fabric's
        # switches (as a server boots onto a running fabric)
        for n in self.nics:
            self.cable(n["switch"], n["port"], n["host"], n["netdev"], host_end=not routing)
        if not routing:
            return
        for sw in self.switches:
            self.start_frr(sw)
        for h in self.hosts:
            sh("ip", "netns", "exec", self.ns(h), "sh", os.path.join(self.dir, "hosts", h + ".sh"))

    def cable(self, a, pa, b, pb, host_end=True):
        sh("ip", "link", "add", pa, "netns", self.ns(a), "type", "veth", "peer", "name", pb,
           "netns", self.ns(b))
        for n, p in ((a, pa), (b, pb)) if host_end else ((a, pa),):
            sh("ip", "-n", self.ns(n), "link", "set", p, "mtu", "9216", "up")

    def start_frr(self, sw):
        d = os.path.join(self.work, "frr", sw)
        os.makedirs(d, exist_ok=True)
        shutil.copy(os.path.join(self.dir, "switches", sw, "frr.conf"), d)
        shutil.chown(d, "frr", "frr")
        shutil.chown(os.path.join(d, "frr.conf"), "frr", "frr")
        for daemon in ("zebra", "bgpd", "bfdd"):
            pid = os.path.join(d, daemon + ".pid")
            args = ["ip", "netns", "exec", self.ns(sw), os.path.join(FRR, daemon), "-d",
                    "-i", pid, "--vty_socket", d, "-u", "frr", "-g", "frr",
                    "-f", os.path.join(d, "frr.conf"), "-z", os.path.join(d, "zebra.sock")]
            if daemon == "bfdd":
                args += ["--bfdctl", os.path.join(d, "bfdd.sock")]
            self.pidfiles.append(pid)
            sh(*args)
            if daemon == "zebra":
                self.wait_file(os.path.join(d, "zebra.sock"))

    @staticmethod
    def wait_file(path, timeout=20):
        end = time.time() + timeout
        while not os.path.exists(path) and time.time() < end:
            time.sleep(0.1)

    def vtysh(self, sw, cmd):
        d = os.path.join(self.work, "frr", sw)
        r = sh("ip", "netns", "exec", self.ns(sw), "vtysh", "--vty_socket", d, "-c", cmd,
               capture=True, check=False)
        return r.stdout

    def down(self):
        for pid in self.pidfiles:
            try:
                os.kill(int(open(pid).read().split()[0]), signal.SIGTERM)
            except (OSError, ValueError):
                pass
        time.sleep(0.5)
        for pid in self.pidfiles:
            try:
                os.kill(int(open(pid).read().split()[0]), signal.SIGKILL)
            except (OSError, ValueError):
                pass
        for ns in self.made:
            subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
        self.made = []

    # ---- checks -----------------------------------------------------------------
    def sessions(self, down=()):
        """(established, all) BGP sessions of the switches that are up."""
        est = total = 0
        for sw in self.switches:
            if sw in down:
                continue
            try:
                j = json.loads(self.vtysh(sw, "show bgp summary json") or "{}")
            except json.JSONDecodeError:
                j = {}
            peers = j.get("ipv4Unicast", {}).get("peers", {})
            for name, p in peers.items():
                total += 1
                est += p.get("state") == "Established"
        return est, total

    def bfd_up(self):
        """BFD sessions up, over the switches."""
        up = 0
        for sw in self.switches:
            try:
                peers = json.loads(self.vtysh(sw, "show bfd peers json") or "[]")
            except json.JSONDecodeError:
                peers = []
            up += sum(1 for p in peers if p.get("status") == "up")
        return up

    def dump_tables(self, tdir, down=()):
        os.makedirs(tdir, exist_ok=True)
        for f in os.listdir(tdir):
            os.unlink(os.path.join(tdir, f))
        for sw in self.switches:
            if sw in down:
                continue
            r = sh("ip", "-n", self.ns(sw), "-j", "route", "show", capture=True)
            with open(os.path.join(tdir, sw + ".json"), "w") as fp:
                fp.write(r.stdout)

    def leaf_widths(self, tdir, down=()):
        """Fewest and most next hops of a leaf's route to another leaf's host
        link, read from the kernel tables."""
        owner = {}
        for n in self.nics:
            net = n["address"].split("/")[0].rsplit(".", 1)
            owner["%s.%d/31" % (net[0], int(net[1]) - 1)] = n["switch"]
        widths = []
        for sw in self.switches:
            if self.asn[sw]["role"] != "leaf" or sw in down:
                continue
            for r in json.load(open(os.path.join(tdir, sw + ".json"))):
                o = owner.get(r.get("dst"))
                if o and o != sw and o not in down:
                    widths.append(len(r["nexthops"]) if "nexthops" in r else 1)
        return (min(widths), max(widths)) if widths else (0, 0)

    def check_routes(self, tdir, fails):
        args = [self.ry, "ethernet", self.spec, *self.sets, "--check-routes", tdir]
        for f in fails:
            args += ["--fail", f]
        return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def converge(self, tdir, fails=(), gone=(), timeout=90):
        """Waits until the kernel tables (of the switches not gone) agree
        with the plan; returns the last check's result."""
        end = time.time() + timeout
        while True:
            self.dump_tables(tdir, gone)
            r = self.check_routes(tdir, fails)
            if r.returncode == 0 or time.time() > end:
                return r
            time.sleep(0.5)

    def addr6(self, timeout=60):
        """Each NIC's global IPv6 address, (host, netdev) -> address, once
        every NIC has one (SLAAC takes a router advertisement)."""
        end = time.time() + timeout
        while True:
            got = {}
            for n in self.nics:
                r = sh("ip", "-n", self.ns(n["host"]), "-j", "-6", "addr", "show", "dev",
                       n["netdev"], "scope", "global", capture=True)
                for a in json.loads(r.stdout or "[]"):
                    for ai in a.get("addr_info", []):
                        if "local" in ai and not ai.get("tentative"):
                            got[(n["host"], n["netdev"])] = ai["local"]
            if len(got) == len(self.nics) or time.time() > end:
                return got
            time.sleep(1)

    def pings(self, pairs, six=False):
        """Pings each (host, source address, destination address); the
        failed ones. One shell per server pings its pairs in turn; the
        servers run side by side."""
        by_host = {}
        for p in pairs:
            by_host.setdefault(p[0], []).append(p)
        procs = []
        for h, ps in sorted(by_host.items()):
            script = "".join("ping %s -n -q -c 1 -W 3 -I %s %s >/dev/null 2>&1 || echo %d\n"
                             % ("-6" if six else "-4", p[1], p[2], i) for i, p in enumerate(ps))
            procs.append((ps, subprocess.Popen(["ip", "netns", "exec", self.ns(h), "sh", "-c",
                                                script], stdout=subprocess.PIPE, text=True)))
        bad = []
        for ps, pr in procs:
            out, _ = pr.communicate()
            bad += [ps[int(i)] for i in out.split()]
        return bad

    def ping_pairs(self, cross_rail, cross_plane=False):
        addr = lambda n: n["address"].split("/")[0]
        pairs = []
        for a in self.nics:
            for b in self.nics:
                if a["host"] == b["host"]:
                    continue
                if a["rail"] == b["rail"] and (a["plane"] == b["plane"] or cross_plane):
                    pairs.append((a["host"], addr(a), addr(b)))
            if cross_rail:
                # a NIC of every other rail, on the next server
                nxt = self.hosts[(self.hosts.index(a["host"]) + 1) % len(self.hosts)]
                for b in self.nics:
                    if b["host"] == nxt and b["rail"] != a["rail"] and b["plane"] == a["plane"]:
                        pairs.append((a["host"], addr(a), addr(b)))
        return pairs

    def whatif_width(self, fail=None):
        args = [self.ry, "whatif", self.spec, *self.sets, "--alone", "--format", "json"]
        args += ["--fail", fail] if fail else ["--random", "leaf:0"]
        r = sh(*args, capture=True)
        j = json.loads(r.stdout)
        e = j["ecmp"]
        return e["after_min"], e["after_max"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("railyard")
    ap.add_argument("spec")
    ap.add_argument("work")
    ap.add_argument("--width", required=True)
    ap.add_argument("--cross-rail", action="store_true")
    ap.add_argument("--cross-plane", action="store_true",
                    help="also a NIC's port to the other port of each NIC of its rail "
                         "(ToR pairs of one network: fabric.homing dual-tor)")
    ap.add_argument("--fail")
    ap.add_argument("--down")
    ap.add_argument("--width-after")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--ping6", action="store_true",
                    help="also IPv6 between the same pairs (with --set ethernet.ipv6=...)")
    a = ap.parse_args()
    pair = lambda v: tuple(int(x) for x in (v.split(",") * 2)[:2]) if v else None
    a.width, a.width_after = pair(a.width), pair(a.width_after)
    fab = Fabric(a.railyard, a.spec, a.work, a.set)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(3))
    try:
        run(fab, a)
    finally:
        made = list(fab.made)
        fab.down()
        left = [n for n in sh("ip", "netns", "list", capture=True).stdout.split()
                if n in made]
        (ok if not left else fail)("%d namespaces made, %d left behind" % (len(made), len(left)))
    print("%s: %d failed" % (os.path.basename(a.spec), failures))
    sys.exit(1 if failures else 0)


def mutated(fab, tdir):
    """The checker must see a kernel table that lost a next hop, and one
    route too many: copies of the live tables with one route changed."""
    mdir = tdir + "-mutated"
    for kind in ("lost", "extra"):
        shutil.rmtree(mdir, ignore_errors=True)
        shutil.copytree(tdir, mdir)
        leaf = next(sw for sw in fab.switches if fab.asn[sw]["role"] == "leaf")
        path = os.path.join(mdir, leaf + ".json")
        routes = json.load(open(path))
        bgp = [r for r in routes if r.get("protocol") == "bgp"]
        if kind == "lost":
            r = next((r for r in bgp if "nexthops" in r), None)
            if r is None:       # single next hops: drop the route's
                r = bgp[0]
                del r["dev"]
            else:
                r["nexthops"].pop()
        else:
            routes.append({"dst": fab.asn[leaf]["loopback"], "protocol": "bgp", "dev": "lo"})
        json.dump(routes, open(path, "w"))
        res = fab.check_routes(mdir, [])
        (ok if res.returncode == 5 else fail)("a table with a %s route: check-routes exit %d "
                                              "(5 expected): %s" % (
            kind, res.returncode, res.stdout.strip().splitlines()[0] if res.stdout else ""))


def run(fab, a):
    fab.up()
    ok("%d switches, %d servers, %d switch cables, %d NIC cables up"
       % (len(fab.switches), len(fab.hosts), len(fab.links), len(fab.nics)))
    end = time.time() + 90
    while True:
        est, total = fab.sessions()
        if (est == total == 2 * len(fab.links)) or time.time() > end:
            break
        time.sleep(0.5)
    if est == total == 2 * len(fab.links):
        ok("all %d BGP sessions Established (%d cables, both ends)" % (total, len(fab.links)))
    else:
        fail("%d of %d BGP sessions Established; %d expected" % (est, total,
                                                                  2 * len(fab.links)))
    end = time.time() + 30
    while fab.bfd_up() < 2 * len(fab.links) and time.time() < end:
        time.sleep(0.5)
    up = fab.bfd_up()
    (ok if up == 2 * len(fab.links) else fail)("%d BFD sessions up, %d expected (one per cable "
                                               "end)" % (up, 2 * len(fab.links)))
    tdir = os.path.join(a.work, "tables")
    r = fab.converge(tdir)
    (ok if r.returncode == 0 else fail)("check-routes: " + r.stdout.strip().replace("\n", "; "))
    mutated(fab, tdir)
    w = fab.leaf_widths(tdir)
    (ok if w == a.width else fail)(
        "leaf-to-leaf ECMP width in the kernel %s, closed form %s" % (w, a.width))
    ww = fab.whatif_width()
    (ok if ww == w else fail)("whatif predicts leaf-to-leaf ECMP %s, the kernel has %s" % (ww, w))
    pairs = fab.ping_pairs(a.cross_rail, a.cross_plane)
    bad = fab.pings(pairs)
    (ok if not bad else fail)("%d of %d NIC pairs reach each other%s" % (
        len(pairs) - len(bad), len(pairs), "" if not bad else "; first failed: %s" % (bad[:3],)))
    if a.ping6:
        six = fab.addr6()
        (ok if len(six) == len(fab.nics) else fail)(
            "%d of %d NICs have a global IPv6 address" % (len(six), len(fab.nics)))
        by_addr = {n["address"].split("/")[0]: (n["host"], n["netdev"]) for n in fab.nics}
        p6 = [(h, six.get(by_addr[s4], "::"), six.get(by_addr[d4], "::")) for h, s4, d4 in pairs]
        bad = fab.pings(p6, six=True)
        (ok if not bad else fail)("IPv6: %d of %d NIC pairs reach each other%s" % (
            len(p6) - len(bad), len(p6), "" if not bad else "; first failed: %s" % (bad[:3],)))
    if not a.fail:
        return
    # a switch down (its ports down, its daemons left running: a dead box),
    # or the interfaces --down names
    sw = a.fail
    downs = [d.split(":") for d in a.down.split(",")] if a.down else []
    if not downs:
        for line in sh("ip", "-n", fab.ns(sw), "-o", "link", "show",
                       capture=True).stdout.splitlines():
            dev = line.split(":")[1].strip().split("@")[0]
            if dev != "lo":
                downs.append((sw, dev))
    for n, dev in downs:
        sh("ip", "-n", fab.ns(n), "link", "set", dev, "down")
    gone = [sw] if sw in fab.switches else []
    r = fab.converge(tdir, [sw], gone)
    (ok if r.returncode == 0 else fail)("after %s down, check-routes --fail %s: %s"
                                        % (sw, sw, r.stdout.strip().replace("\n", "; ")))
    w = fab.leaf_widths(tdir, gone)
    (ok if w == a.width_after else fail)(
        "after %s down, leaf-to-leaf ECMP width in the kernel %s, closed form %s"
        % (sw, w, a.width_after))
    ww = fab.whatif_width(sw)
    (ok if ww == w else fail)("whatif --fail %s predicts ECMP %s, the kernel has %s" % (sw, ww, w))
    # a NIC port on a switch that is down is cut; every other pair reaches
    on = {n["address"].split("/")[0]: n["switch"] for n in fab.nics}
    left = [p for p in pairs if on[p[1]] not in gone and on[p[2]] not in gone]
    bad = fab.pings(left)
    (ok if not bad else fail)("after %s down, %d of %d NIC pairs reach each other (%d pairs "
                              "with a NIC port on it left out)" % (
        sw, len(left) - len(bad), len(left), len(pairs) - len(left)))


if __name__ == "__main__":
    main()
