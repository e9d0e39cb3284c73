#!/bin/sh
# Leaf names: unit-major by default (one unit's leaves have consecutive
# numbers, rail by rail, and stand in that unit's network rack), rail-major
# with naming.switch_order; and one switch has one name in cabling.csv,
# OpenSM's topology.net, Slurm's topology.conf, GraphML and the diagrams.
# A leaf's unit and rail are derived here from the hosts cabled to it (host
# number / nodes per unit, mlx5_N = rail N), not from railyard's own columns.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

# superpod-4su: 127 DGX H100 (8 GPUs, 8 rails), 32 nodes per unit.
# gb200-nvl72: 4 GPUs per node, 4 rails, 8 NVL72 domains (144 nodes) per unit,
# two leaves per (unit, rail).

for c in "superpod|$EX/superpod-4su.yaml|32" "gb200|$TOP_SRCDIR/tests/data/slurm/gb200-nvl72.yaml|144"; do
    name=${c%%|*}; rest=${c#*|}; spec=${rest%|*}; per_unit=${rest#*|}
    for order in unit-major rail-major; do
        o="$TMP/$name-$order"
        "$RAILYARD" --set naming.switch_order=$order build "$spec" -o "$o" >/dev/null 2>"$TMP/e"
        expect_eq "$name $order: build exit" $? 0
        "$RAILYARD" --set naming.switch_order=$order export "$spec" -o "$o.graphml" 2>"$TMP/e"
        expect_eq "$name $order: export exit" $? 0
        "$RAILYARD" --set naming.switch_order=$order draw "$spec" --view unit=2 --format dot \
            -o "$o.unit2.dot" 2>"$TMP/e"
        expect_eq "$name $order: draw --view unit=2 exit" $? 0
        "$PY" - "$o" "$order" "$per_unit" >"$TMP/py.out" 2>&1 <<'P'
import csv, glob, re, sys
import xml.etree.ElementTree as ET
out, order, per_unit = sys.argv[1], sys.argv[2], int(sys.argv[3])
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)

def host_unit(host):
    return (int(re.search(r"(\d+)$", host).group(1)) - 1) // per_unit

# cabling.csv: every leaf, the (host, NIC) pairs cabled to it and its rack
hosts, rack = {}, {}
for r in csv.DictReader(open(out + "/cabling/cabling.csv")):
    if r["z_device"].startswith("leaf") and r["a_port"].startswith("mlx5_"):
        hosts.setdefault(r["z_device"], set()).add((r["a_device"], r["a_port"]))
        rack.setdefault(r["z_device"], set()).add(r["z_rack"])
check(hosts, "cabling.csv has no host-to-leaf cables")
unit, rail = {}, {}
for leaf, hs in hosts.items():
    us = {host_unit(h) for h, _ in hs}
    rs = {int(p[5:]) for _, p in hs}
    check(len(us) == 1 and len(rs) == 1, "%s serves units %s rails %s" % (leaf, us, rs))
    unit[leaf], rail[leaf] = min(us), min(rs)
num = lambda leaf: int(leaf[4:])
leaves = sorted(hosts, key=num)
check([num(l) for l in leaves] == list(range(len(leaves))), "leaf numbers are not 0..n-1")

# the order of the names
key = (lambda l: (unit[l], rail[l])) if order == "unit-major" else (lambda l: (rail[l], unit[l]))
check([key(l) for l in leaves] == sorted(key(l) for l in leaves),
      "%s: names do not follow (%s): %s" % (order, order, [(l, unit[l], rail[l]) for l in leaves][:12]))

# default: a unit's leaves stand in network racks of their own (one rack per
# unit on the SuperPOD; a GB200 unit's leaves fill two, by leaf of each rail)
kinds = {r["rack"]: r["kind"] for r in csv.DictReader(open(out + "/cabling/racks.csv"))}
if order == "unit-major":
    by_unit, in_rack = {}, {}
    for l in leaves:
        check(len(rack[l]) == 1, "%s is cabled in racks %s" % (l, rack[l]))
        by_unit.setdefault(unit[l], set()).update(rack[l])
        in_rack.setdefault(min(rack[l]), []).append(num(l))
    for u, rs in by_unit.items():
        check(all(kinds.get(r) == "network" for r in rs), "unit %d's leaves stand in %s" % (u, sorted(rs)))
        for v, rs2 in by_unit.items():
            check(u == v or not rs & rs2, "units %d and %d share racks %s" % (u, v, sorted(rs & rs2)))
    check(per_unit != 32 or all(len(rs) == 1 for rs in by_unit.values()),
          "a SuperPOD unit's leaves fill more than one rack: %s" % by_unit)

# OpenSM topology.net: the same leaf name has the same CAs
net, cur = {}, None
for path in glob.glob(out + "/opensm/*/topology.net"):
    for line in open(path):
        m = re.match(r'Switch\s.*# "([^"]+)"', line)
        if m:
            cur = m.group(1); continue
        if line.startswith("Ca") or not line.strip():
            cur = None; continue
        m = re.match(r'\[\d+\]\s+"H-[^#]*# "(\S+) (mlx5_\d+)"', line)
        if cur and m:
            net.setdefault(cur, set()).add((m.group(1), m.group(2)))
check({l: hs for l, hs in net.items() if l.startswith("leaf")} == hosts,
      "topology.net's leaves and their CAs differ from cabling.csv's")

# GraphML: leaf name -> host names of its GPUs
ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
g = ET.parse(out + ".graphml").getroot()
keys = {k.get("attr.name"): k.get("id") for k in g.iter("{%s}key" % ns["g"])}
host_of, name_of = {}, {}
for n in g.iter("{%s}node" % ns["g"]):
    d = {x.get("key"): x.text for x in n.findall("g:data", ns)}
    name_of[n.get("id")] = d.get(keys["name"])
    if d.get(keys["host"]):
        host_of[n.get("id")] = d[keys["host"]]
gml = {}
for e in g.iter("{%s}edge" % ns["g"]):
    s, t = e.get("source"), e.get("target")
    if s in host_of and name_of.get(t, "").startswith("leaf"):
        gml.setdefault(name_of[t], set()).add(host_of[s])
check(gml == {l: {h for h, _ in hs} for l, hs in hosts.items()},
      "GraphML's leaves and their hosts differ from cabling.csv's")

# Slurm topology.conf: block suN (N = unit + 1) lists its unit's leaves
def expand(s):
    r = []
    for part in s.split(","):
        a, _, b = part.partition("-")
        r += range(int(a), int(b or a) + 1)
    return r
slurm = {}
for line in open(out + "/slurm/topology.conf"):
    m = re.match(r"# su(\d+): .* leaves: leaf\[([0-9,-]+)\]", line)
    if m:
        slurm[int(m.group(1)) - 1] = sorted(expand(m.group(2)))
want = {}
for l in leaves:
    want.setdefault(unit[l], []).append(num(l))
check(slurm == {u: sorted(v) for u, v in want.items()},
      "topology.conf's units and leaves %s differ from cabling.csv's %s" % (slurm, want))

# units count from 1 everywhere: draw --view unit=2 is Slurm's su2 and GraphML's
# unit 2, the second unit of host numbers
dot = open(out + ".unit2.dot").read()
drawn = {int(x) for x in re.findall(r"\bleaf(\d+)\b", dot)}
check(drawn == set(want[1]), "unit=2 diagram shows leaves %s, want %s" % (sorted(drawn), want[1]))
check("scalable unit 2 of %d" % len(want) in dot, "unit=2 diagram is not titled 'scalable unit 2 of %d'" % len(want))
gunit = {}
for n in g.iter("{%s}node" % ns["g"]):
    d = {x.get("key"): x.text for x in n.findall("g:data", ns)}
    if (d.get(keys["name"]) or "").startswith("leaf"):
        gunit[d[keys["name"]]] = int(d[keys["unit"]])
check(gunit == {l: unit[l] + 1 for l in leaves}, "GraphML's leaf units are not the hosts' units counted from 1")
if order == "unit-major":
    for u, ns_ in want.items():
        check(ns_ == list(range(ns_[0], ns_[0] + len(ns_))), "unit %d's leaves %s are not consecutive" % (u, ns_))
print("\n".join("FAIL: " + b for b in bad) or "ok")
P
        if [ "$(cat "$TMP/py.out")" = ok ]; then ok; else
            fail "$name $order: names disagree"; sed 's/^/    /' "$TMP/py.out" | head -20
        fi
    done
    # whatif counts units from 1 too: a leaf of the second unit hurts "unit 2"
    # columns by their header names: a_device (a host) and z_device (its leaf)
    l=$(awk -F, -v U="$per_unit" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["z_device"] ~ /^leaf/ && $c["a_device"] ~ /[0-9]$/ {
            h = $c["a_device"]; sub(/^[^0-9]*/, "", h); if (h + 0 > U) { print $c["z_device"]; exit } }' \
        "$TMP/$name-unit-major/cabling/cabling.csv")
    "$RAILYARD" whatif "$spec" --fail "$l" --alone >"$TMP/w.txt" 2>&1
    grep -qE '^  unit 2 ' "$TMP/w.txt" && ! grep -qE '^  unit 1 ' "$TMP/w.txt" && ok ||
        fail "$name: whatif --fail $l (second unit) does not report unit 2: $(grep unit "$TMP/w.txt")"
    cmp -s "$TMP/$name-unit-major/cabling/cabling.csv" "$TMP/$name-rail-major/cabling/cabling.csv" &&
        fail "$name: unit-major and rail-major give the same cabling.csv" || ok
    # only leaf names change, and with them the leaf GUIDs (base + 2^33 +
    # tier 1 * 2^24 + the number the name shows): other GUIDs, LIDs and
    # routes are the same
    lg=$(printf '0x%010x' $(( (0x0002c90000000000 + (1 << 33) + (1 << 24)) >> 24 )))
    for f in lfts.dump guid2lid root_guids.conf; do
        sed "s/leaf[0-9]*/leaf/g; s/$lg[0-9a-f]\{6\}/leafguid/g" "$TMP/$name-unit-major/opensm/plane0/$f" >"$TMP/u"
        sed "s/leaf[0-9]*/leaf/g; s/$lg[0-9a-f]\{6\}/leafguid/g" "$TMP/$name-rail-major/opensm/plane0/$f" >"$TMP/r"
        cmp -s "$TMP/u" "$TMP/r" && ok || fail "$name: opensm/plane0/$f differs between the orders"
    done
    for order in unit-major rail-major; do
        lf="$TMP/$name-$order/opensm/plane0/lfts.dump"
        sed -n "s/.* guid \(0x[0-9a-f]*\) ('\(p0-\)\{0,1\}leaf\([0-9]*\)'):\$/\1 \3/p" "$lf" >"$TMP/lg"
        bad=$(while read g n; do [ $((g)) -eq $((lg * 16777216 + n)) ] || echo "$g $n"; done <"$TMP/lg" | head -3)
        expect_eq "$name $order: leaf GUIDs from their names" "$bad" ""
        expect_eq "$name $order: leaves in lfts.dump" "$(wc -l <"$TMP/lg" | tr -d ' ')" \
            "$(grep -c "leaf[0-9]*'):\$" "$lf")"
    done
    cmp -s "$TMP/$name-unit-major/opensm/plane0/lfts.dump" "$TMP/$name-rail-major/opensm/plane0/lfts.dump" &&
        fail "$name: lfts.dump names the leaves alike in both orders" || ok
done

# naming.leaf / naming.spine: every output names the switch by the pattern,
# and a pattern that names two devices alike is refused at its key.
"$RAILYARD" build "$EX/superpod-4su.yaml" --set 'naming.leaf=ib-l{unit1}-{n:02}' \
    --set 'naming.spine=ib-s{n1:02}' --skip opensm -o "$TMP/pat" >/dev/null 2>"$TMP/pat.err"
expect_eq "build with switch patterns: exit" $? 0
"$RAILYARD" opensm "$EX/superpod-4su.yaml" --set 'naming.leaf=ib-l{unit1}-{n:02}' \
    --set 'naming.spine=ib-s{n1:02}' -o "$TMP/pat" >/dev/null 2>>"$TMP/pat.err"
expect_eq "opensm with switch patterns: exit" $? 0
"$PY" - "$TMP/pat" >"$TMP/pat.out" <<'P'
import csv, re, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/cabling/cabling.csv")))
sw = {r[e + "_device"] for r in rows for e in ("a", "z") if r[e + "_type"] == "qm9700"}
bad = []
leaves = sorted(x for x in sw if x.startswith("ib-l"))
spines = sorted(x for x in sw if x.startswith("ib-s"))
if len(leaves) != 32 or len(spines) != 16 or len(sw) != 48:
    bad.append("cabling.csv: %d leaves, %d spines, %d switches" % (len(leaves), len(spines), len(sw)))
# a leaf of unit u (1-based) numbered n: ib-l<u>-<nn>, n // 8 == u - 1 in unit-major order
for l in leaves:
    m = re.fullmatch(r"ib-l(\d+)-(\d\d)", l)
    if not m or int(m.group(2)) // 8 != int(m.group(1)) - 1:
        bad.append("leaf name %r does not follow ib-l{unit1}-{n:02}" % l)
if spines != ["ib-s%02d" % k for k in range(1, 17)]:
    bad.append("spines %r" % spines[:4])
topo = set(re.findall(r'^Switch\s+\d+\s+"[^"]+"\s+#\s+"([^"]+)"', open(out + "/opensm/plane0/topology.net").read(), re.M))
if topo != sw:
    bad.append("topology.net's switches differ from cabling.csv's: %r" % sorted(topo ^ sw)[:4])
# Slurm's tree has a logical switch per unit; its comment names the unit's leaves
units = re.findall(r"^# su(\d+): .* leaves: (\S+)", open(out + "/slurm/topology.conf").read(), re.M)
if len(units) != 4 or any(not l.startswith("ib-l%s-" % u) for u, l in units):
    bad.append("topology.conf's units and leaves: %r" % units)
print("\n".join("FAIL: " + b for b in bad) or "ok")
P
expect_eq "switch patterns in cabling, OpenSM and Slurm" "$(cat "$TMP/pat.out")" ok
"$RAILYARD" validate "$EX/superpod-4su.yaml" --set 'naming.leaf=s{n}' --set 'naming.spine=s{n}' \
    >/dev/null 2>"$TMP/dup.err"
expect_eq "colliding switch patterns: exit" $? 1
grep -q "^--set:2:[0-9]*: error: two devices would be named 's0'" "$TMP/dup.err" && ok ||
    fail "colliding patterns: $(cat "$TMP/dup.err")"
"$RAILYARD" validate "$EX/superpod-4su.yaml" --set 'naming.leaf=leaf' >/dev/null 2>"$TMP/nn.err"
expect_eq "a leaf pattern without {n}: exit" $? 1
grep -q "naming.leaf must contain {n} or {n1} so that every switch" "$TMP/nn.err" && ok ||
    fail "pattern without {n}: $(cat "$TMP/nn.err")"
# A fat tree's Slurm switches are its leaves: the pattern's names, as cabled.
"$RAILYARD" build "$EX/fat-tree.yaml" --set 'naming.leaf=ft-l{n:03}' --skip opensm \
    -o "$TMP/ft" >/dev/null 2>"$TMP/ft.err"
expect_eq "fat tree with a leaf pattern: exit" $? 0
"$PY" - "$TMP/ft" >"$TMP/ft.out" <<'P'
import csv, re, sys
out = sys.argv[1]
leaves = {r[e + "_device"] for r in csv.DictReader(open(out + "/cabling/cabling.csv"))
          for e in ("a", "z") if r[e + "_device"].startswith("ft-l")}
slurm = set(re.findall(r"^SwitchName=(\S+) Nodes=", open(out + "/slurm/topology.conf").read(), re.M))
print("ok" if leaves and slurm == leaves else "FAIL: Slurm leaves %r, cabled %r" % (sorted(slurm)[:3], sorted(leaves)[:3]))
P
expect_eq "fat tree: Slurm's leaf switches are the cabled leaves" "$(cat "$TMP/ft.out")" ok
finish
