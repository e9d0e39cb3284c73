#!/usr/bin/python3
"""railyard verify on an Ethernet fabric's LLDP tables, taken live: the
fabric of a spec booted by tests/eth-live.py's Fabric (namespaces, a veth
pair per cable; no FRR) with lldpd in every namespace, each chassis named
as its switch or host. Each switch's `lldpcli -f json show neighbors` and
SONiC's `show lldp table` made from the same data (the layout of
sonic-utilities scripts/lldpshow at commit b67b1bbc968f: tabulate's
"simple" table) are handed to verify:

  - the fabric cabled as planned: no findings, every planned cable as planned;
  - cabled with faults made before lldpd starts (given with --fault, each
    a recabling of the Fabric's cable list): exactly the findings expected,
    kind, class and cable, in both formats, and the work order names them.

usage: verify-lldp.py RAILYARD SPEC WORKDIR
"""
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("eth_live", os.path.join(HERE, "eth-live.py"))
live = importlib.util.module_from_spec(spec)
spec.loader.exec_module(live)
sh, ok, fail = live.sh, live.ok, live.fail


def start_lldpd(fab):
    """One lldpd per namespace, named as its device, sending every second."""
    d = os.path.join(fab.work, "lldpd")
    os.makedirs(d, exist_ok=True)
    os.chmod(fab.work, 0o755)
    os.chmod(d, 0o755)
    for name in fab.switches + fab.hosts:
        conf = os.path.join(d, name + ".conf")
        with open(conf, "w") as fp:
            fp.write("configure system hostname %s\nconfigure lldp tx-interval 1\n" % name)
        pid = os.path.join(d, name + ".pid")
        fab.pidfiles.append(pid)
        sh("ip", "netns", "exec", fab.ns(name), "lldpd", "-u", sock(fab, name), "-p", pid,
           "-O", conf)


def sock(fab, name):
    return os.path.join(fab.work, "lldpd", name + ".sock")


def neighbors(fab, sw):
    r = sh("ip", "netns", "exec", fab.ns(sw), "lldpcli", "-u", sock(fab, sw), "-f", "json",
           "show", "neighbors", capture=True, check=False)
    return r.stdout


def entries(text):
    """(local port, system name, port id, port descr, capability) of a JSON table."""
    j = json.loads(text or "{}").get("lldp", {})
    ifs = j.get("interface", []) if isinstance(j, dict) else []
    if isinstance(ifs, dict):
        ifs = [{k: v} for k, v in ifs.items()]
    out = []
    for e in ifs:
        for lport, v in e.items():
            (name, ch), = v["chassis"].items()
            caps = "".join({"Router": "R", "Bridge": "B"}.get(c["type"], "O")
                           for c in ch.get("capability", []) if c.get("enabled"))
            out.append((lport, name, v["port"]["id"]["value"], v["port"].get("descr", ""), caps))
    return out


def collect(fab, outdir, want, timeout=60):
    """Waits until each switch sees its cabled ports' neighbours by their
    own names, then writes SWITCH.json; returns the tables."""
    names = set(fab.switches) | set(fab.hosts)
    end = time.time() + timeout
    while True:
        tables = {sw: neighbors(fab, sw) for sw in fab.switches}
        good = all(len(entries(tables[sw])) == want[sw] and
                   all(e[1] in names for e in entries(tables[sw])) for sw in fab.switches)
        if good or time.time() > end:
            break
        time.sleep(1)
    os.makedirs(outdir, exist_ok=True)
    for sw, text in tables.items():
        with open(os.path.join(outdir, sw + ".json"), "w") as fp:
            fp.write(text)
    return good, tables


def sonic_table(rows):
    """show lldp table as scripts/lldpshow prints it (tabulate "simple")."""
    hdr = ["LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"]
    key = lambda r: [re.findall("[A-Za-z]+", r[0]) + [int(n) for n in re.findall(r"\d+", r[0])]]
    rows = sorted(rows, key=key)
    w = [max([len(hdr[c])] + [len(r[c]) for r in rows]) for c in range(5)]
    line = lambda cells: "  ".join(c.ljust(w[i]) for i, c in enumerate(cells))
    out = ["Capability codes: (R) Router, (B) Bridge, (O) Other", line(hdr),
           "  ".join("-" * x for x in w)]
    out += [line([r[0], r[1], r[2], r[4], r[3]]) for r in rows]
    out += ["-" * 50, "Total entries displayed:  %d" % len(rows)]
    return "\n".join(out) + "\n"


def verify(fab, files, extra=()):
    r = subprocess.run([fab.ry, "verify", fab.spec, "--format", "json"] + list(extra) + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r


def summary(v):
    """(kind, class, planned ends by interface) of each finding, sorted."""
    out = []
    for x in v["findings"]:
        p = x["planned"]
        name = lambda e: "%s %s" % (e.get("host", e["device"]), e.get("interface", e["port"]))
        ends = (name(p["a"]), name(p["b"])) if p else None
        out.append((x["kind"], x["class"], ends))
    return sorted(out, key=str)


# ---- faults: recablings of the Fabric's lists before anything starts ------------------

def nic(fab, host, netdev):
    return next(n for n in fab.nics if n["host"] == host and n["netdev"] == netdev)


def port_swap(fab):
    """Two servers' NICs swapped on the ports of one leaf."""
    a, b = nic(fab, fab.hosts[0], "eth0"), nic(fab, fab.hosts[1], "eth0")
    a["port"], b["port"] = b["port"], a["port"]


def rail_swap(fab):
    """One server's two NICs swapped between their leaves."""
    a, b = nic(fab, fab.hosts[2], "eth1"), nic(fab, fab.hosts[2], "eth2")
    (a["switch"], a["port"]), (b["switch"], b["port"]) = (b["switch"], b["port"]), (a["switch"], a["port"])


def wrong_leaf(fab):
    """A NIC on the port of another leaf whose own cable is not there."""
    gone = nic(fab, fab.hosts[4], "eth6")
    moved = nic(fab, fab.hosts[5], "eth7")
    fab.nics.remove(gone)
    moved["switch"], moved["port"] = gone["switch"], gone["port"]


def missing(fab):
    """One leaf uplink not cabled."""
    fab.links.pop(0)


FAULTS = [port_swap, rail_swap, wrong_leaf, missing]


def run(fab, faults, tag):
    for f in faults:
        f(fab)
    want = {sw: 0 for sw in fab.switches}
    for a, pa, b, pb in fab.links:
        want[a] += 1
        want[b] += 1
    for n in fab.nics:
        want[n["switch"]] += 1
    fab.up(routing=False)
    start_lldpd(fab)
    d = os.path.join(fab.work, "lldp-" + tag)
    good, tables = collect(fab, d, want)
    (ok if good else fail)("%s: every switch sees its %d cabled neighbours by name" % (
        tag, sum(want.values())))
    sdir = d + "-sonic"
    os.makedirs(sdir, exist_ok=True)
    for sw, text in tables.items():
        with open(os.path.join(sdir, sw + ".txt"), "w") as fp:
            fp.write(sonic_table(entries(text)))
    return sorted(os.path.join(d, f) for f in os.listdir(d)), \
        sorted(os.path.join(sdir, f) for f in os.listdir(sdir))


def main():
    ry, specf, work = sys.argv[1:4]
    expect = json.loads(sys.argv[4]) if len(sys.argv) > 4 else None
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(3))
    results = {}
    for tag, faults in (("clean", []), ("faults", FAULTS)):
        fab = live.Fabric(ry, specf, os.path.join(work, tag))
        try:
            jfiles, tfiles = run(fab, faults, tag)
        finally:
            made = list(fab.made)
            fab.down()
            left = [n for n in sh("ip", "netns", "list", capture=True).stdout.split()
                    if n.split()[0] in made]
            (ok if not left else fail)("%s: %d namespaces made, %d left behind" % (
                tag, len(made), len(left)))
        for fmt, files in (("json", jfiles), ("sonic", tfiles)):
            wo = os.path.join(work, tag, fmt + "-work-order.csv")
            r = verify(fab, files, ["--work-order", wo])
            try:
                v = json.loads(r.stdout)
            except json.JSONDecodeError:
                fail("%s %s: verify exit %d: %s" % (tag, fmt, r.returncode, r.stderr.strip()))
                continue
            results[(tag, fmt)] = (r.returncode, v)
            open(os.path.join(work, tag, fmt + ".json"), "w").write(r.stdout)
            if "AddressSanitizer" in r.stderr or "runtime error" in r.stderr:
                fail("%s %s: sanitizer: %s" % (tag, fmt, r.stderr[:300]))
    # the clean fabric
    for fmt in ("json", "sonic"):
        if ("clean", fmt) not in results:
            continue
        rc, v = results[("clean", fmt)]
        ver = v["verified"]
        (ok if rc == 0 and not v["findings"] and v["as_planned"] == ver["of_planned"] and
         ver["nics_placed"] == ver["nics_found"] else fail)(
            "clean %s: exit %d, %d findings, %d of %d planned cables as planned, %d of %d NICs "
            "placed, %d of %d switches" % (fmt, rc, len(v["findings"]), v["as_planned"],
                                           ver["of_planned"], ver["nics_placed"],
                                           ver["nics_found"], ver["switches_placed"],
                                           ver["switches_found"]))
    for fmt in ("json", "sonic"):
        if ("faults", fmt) not in results:
            continue
        rc, v = results[("faults", fmt)]
        got = summary(v)
        print("faults %s: %s" % (fmt, json.dumps(got)))
        if expect is not None:
            want = sorted((tuple(x[:2]) + (tuple(x[2]) if x[2] else None,) for x in expect),
                          key=str)
            (ok if rc == 1 and got == want else fail)(
                "faults %s: exit %d; findings %s; expected %s" % (fmt, rc, got, want))
    if ("faults", "json") in results and ("faults", "sonic") in results:
        # the same but for the GUIDs: SONiC's table gives no chassis id
        strip = lambda v: re.sub(r'"guid": "0x[0-9a-f]+"', "", json.dumps(v["findings"]))
        a, b = results[("faults", "json")][1], results[("faults", "sonic")][1]
        (ok if strip(a) == strip(b) else fail)(
            "the SONiC tables give the same findings as lldpd's JSON (GUIDs aside)")
        wo = open(os.path.join(work, "faults", "json-work-order.csv")).read().splitlines()
        (ok if len(wo) == 1 + len(a["findings"]) else fail)(
            "the work order has a row per finding: %d rows, %d findings" % (
                len(wo) - 1, len(a["findings"])))
    print("%s: %d failed" % (os.path.basename(specf), live.failures))
    sys.exit(1 if live.failures else 0)


if __name__ == "__main__":
    main()
