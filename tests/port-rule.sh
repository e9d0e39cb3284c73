#!/bin/sh
# The top tier's port rule: a fabric that grows keeps what stays: superpod-4su built at 1, 2 and 4
# scalable units (32, 64, 127 nodes) and an InfiniBand fat tree at 64, 128
# and 256 nodes. The top tier's ports follow the rule (uplink k of a leaf
# to spine k mod m as copy q = k / m, on spine port x + q * C with
# C = d / (u / m) and x the leaf's unit-major rank), every node cable stays,
# a leaf-spine cable stays when k mod m does (old cables * m_old / m_new
# when m doubles), and every switch keeps its name's GUID.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

# build NAME SPEC SETTINGS...: cabling and OpenSM files in $TMP/NAME
build() {
    n=$1 spec=$2; shift 2
    "$RAILYARD" build "$spec" "$@" --skip slurm,kubernetes,diagrams -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: build exit" $? 0
    no_sanitizer "$TMP/$n.log"
}

# grow OLD NEW: the closed forms above, checked on the two builds' files
grow() {
    "$PY" - "$TMP/$1" "$TMP/$2" >"$TMP/grow.out" <<'P'
import csv, glob, json, os, re, sys
def num(s):
    return int(re.findall(r"\d+", s)[-1])
def load(d):
    rows = list(csv.DictReader(open(os.path.join(d, "cabling", "cabling.csv"))))
    bom = json.load(open(os.path.join(d, "bom.json")))
    ups = [r for r in rows if r["tier"] == "2"]
    leaves = sorted({r["a_device"] for r in ups}, key=num)
    spines = sorted({r["z_device"] for r in ups}, key=num)
    c, m, d = len(leaves), len(spines), bom["radix"]
    u = len(ups) // c
    down = min(int(r["a_port"]) for r in ups) - 1   # leaf down ports
    return rows, ups, c, m, u, d, down
def key(r):
    return tuple(sorted([(r["a_device"], r["a_port"]), (r["z_device"], r["z_port"])]))
def sw_guids(d):
    g = {}
    for f in glob.glob(os.path.join(d, "opensm", "*", "node-name-map")):
        for line in open(f):
            m = re.match(r'(0x[0-9a-f]{16}) "([^" ]+)"$', line.rstrip("\n"))
            if m:
                g[m.group(2)] = m.group(1)
    return g
bad = []
sizes = []
for d in sys.argv[1:]:
    rows, ups, c, m, u, k, down = load(d)
    # m: the smallest divisor of u with m * k >= c * u
    want_m = min(x for x in range(1, u + 1) if u % x == 0 and x * k >= c * u)
    if m != want_m:
        bad.append("%s: %d spines, want %d" % (d, m, want_m))
    C = k // (u // m)
    for r in ups:
        kk = int(r["a_port"]) - 1 - down
        i, q, x = kk % m, kk // m, num(r["a_device"])
        if num(r["z_device"]) != i or int(r["z_port"]) != x + q * C + 1:
            bad.append("%s: %s port %s to %s port %s, want spine%d port %d"
                       % (d, r["a_device"], r["a_port"], r["z_device"], r["z_port"], i, x + q * C + 1))
            break
    sizes.append((rows, ups, m))
(rows0, ups0, m0), (rows1, ups1, m1) = sizes
new = {key(r) for r in rows1}
nodes0 = [r for r in rows0 if r["tier"] == "1"]
kept_nodes = sum(key(r) in new for r in nodes0)
kept_ups = sum(key(r) in new for r in ups0)
if kept_nodes != len(nodes0):
    bad.append("node cables kept %d of %d" % (kept_nodes, len(nodes0)))
if m1 % m0 == 0 and kept_ups * m1 != len(ups0) * m0:
    bad.append("leaf-spine cables kept %d of %d, want %d (m %d -> %d)"
               % (kept_ups, len(ups0), len(ups0) * m0 // m1, m0, m1))
g0, g1 = sw_guids(sys.argv[1]), sw_guids(sys.argv[2])
if not g0:
    bad.append("no switch GUIDs")
for name, g in g0.items():
    if g1.get(name) != g:
        bad.append("%s: GUID %s, then %s" % (name, g, g1.get(name)))
        break
print("\n".join(bad[:5]) if bad else "ok %d/%d %d/%d" % (kept_nodes, len(nodes0), kept_ups, len(ups0)))
P
    case $(cat "$TMP/grow.out") in
        ok*) ok ;;
        *) fail "$1 -> $2: $(cat "$TMP/grow.out")" ;;
    esac
}

for n in 32 64 127; do
    build "sp$n" "$EX/superpod-4su.yaml" --set cluster.nodes=$n
done
grow sp32 sp64
expect_eq "sp32 -> sp64 kept" "$(cat "$TMP/grow.out")" "ok 256/256 128/256"
grow sp64 sp127
grow sp32 sp127

for n in 64 128 256; do
    build "ft$n" "$EX/fat-tree.yaml" --set cluster.nodes=$n --set fabric.switch=qm9700
done
grow ft64 ft128
grow ft128 ft256

finish
