#!/bin/sh
# The top tier's port rule: a fabric that grows keeps what stays: superpod-4su built at 1, 2 and 4
# scalable units (32, 64, 127 nodes) and an InfiniBand fat tree at 64, 128
# and 256 nodes. The top tier's ports follow the rule: with b a cage's
# ports (the leaves' up side's and the spines' down side's, when they agree
# and b divides per = u / m; else 1), uplink k of a leaf is position
# j = k mod b of bundle B = k / b, which goes to spine B mod m as copy
# q = B / m, on spine port (q * C + x) * b + j with C = d / per and x the
# leaf's unit-major rank; a cage's links go to one switch at both ends;
# every node cable stays, a leaf-spine cable stays when B mod m does (old
# cables * m_old / m_new when m doubles and b stays); and every switch
# keeps its name's GUID.
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
    per = u // m
    C = k // per
    # b: a cage's ports, on the leaves' up side and the spines' down side
    # (the cage of a_cage_port / z_cage_port), when the two agree and b
    # divides per; else 1
    def cage_size(dev, cage):
        n = {}
        for r in ups:
            n.setdefault((r[dev], r[cage].split("/")[0]), set()).add(r[cage])
        return max(len(v) for v in n.values())
    b = cage_size("a_device", "a_cage_port")
    if b != cage_size("z_device", "z_cage_port") or per % b:
        b = 1
    for r in ups:
        kk = int(r["a_port"]) - 1 - down
        B, j, x = kk // b, kk % b, num(r["a_device"])
        i, q = B % m, B // m
        want = (q * C + x) * b + j + 1
        if num(r["z_device"]) != i or int(r["z_port"]) != want:
            bad.append("%s: %s port %s to %s port %s, want spine%d port %d"
                       % (d, r["a_device"], r["a_port"], r["z_device"], r["z_port"], i, want))
            break
    # a cage's links go to one switch, at both ends
    for dev, cage, peer in (("a_device", "a_cage_port", "z_device"),
                            ("z_device", "z_cage_port", "a_device")):
        to = {}
        for r in ups:
            to.setdefault((r[dev], r[cage].split("/")[0]), set()).add(r[peer])
        split = sum(len(v) > 1 for v in to.values())
        if b > 1 and split:
            bad.append("%s: %d cages of the %s side hold links to two switches" % (d, split, dev))
    sizes.append((rows, ups, m, b))
(rows0, ups0, m0, b0), (rows1, ups1, m1, b1) = sizes
new = {key(r) for r in rows1}
nodes0 = [r for r in rows0 if r["tier"] == "1"]
kept_nodes = sum(key(r) in new for r in nodes0)
kept_ups = sum(key(r) in new for r in ups0)
if kept_nodes != len(nodes0):
    bad.append("node cables kept %d of %d" % (kept_nodes, len(nodes0)))
if m1 % m0 == 0 and b0 == b1 and kept_ups * m1 != len(ups0) * m0:
    bad.append("leaf-spine cables kept %d of %d, want %d (m %d -> %d)"
               % (kept_ups, len(ups0), len(ups0) * m0 // m1, m0, m1))
g0, g1 = sw_guids(sys.argv[1]), sw_guids(sys.argv[2])
if not g0:
    bad.append("no switch GUIDs")
for name, g in g0.items():
    if g1.get(name) != g:
        bad.append("%s: GUID %s, then %s" % (name, g, g1.get(name)))
        break
print("\n".join(bad[:5]) if bad else "ok %d/%d %d/%d (m %d -> %d, b %d -> %d)"
      % (kept_nodes, len(nodes0), kept_ups, len(ups0), m0, m1, b0, b1))
P
    echo "$1 -> $2: $(cat "$TMP/grow.out")"
    case $(cat "$TMP/grow.out") in
        ok*) ok ;;
        *) fail "$1 -> $2: $(cat "$TMP/grow.out")" ;;
    esac
}

for n in 32 64 127; do
    build "sp$n" "$EX/superpod-4su.yaml" --set cluster.nodes=$n
done
grow sp32 sp64
expect_eq "sp32 -> sp64 kept" "$(cat "$TMP/grow.out")" "ok 256/256 128/256 (m 4 -> 8, b 2 -> 2)"
grow sp64 sp127
expect_eq "sp64 -> sp127 kept" "$(cat "$TMP/grow.out")" "ok 512/512 256/512 (m 8 -> 16, b 2 -> 2)"
grow sp32 sp127

for n in 64 128 256; do
    build "ft$n" "$EX/fat-tree.yaml" --set cluster.nodes=$n --set fabric.switch=qm9700
done
grow ft64 ft128
# the top reaches one link per spine (per = 1): a cage's two ports now go
# to two spines, so b falls to 1 and the leaf-spine cables move
grow ft128 ft256
expect_eq "ft128 -> ft256 kept" "$(cat "$TMP/grow.out")" "ok 1024/1024 1/1024 (m 16 -> 32, b 2 -> 1)"

finish
