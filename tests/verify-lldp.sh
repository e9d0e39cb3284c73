#!/bin/sh
# railyard verify on LLDP neighbour tables of an Ethernet fabric.
# Always: tables written here from the plan's own cabling (addresses.csv
# and frr.conf's descriptions) in lldpd's JSON and SONiC's show lldp table
# verify clean (also with hosts announcing their FQDN in capitals); one
# with two NICs swapped gives two port-swap findings; a
# neighbour without a system name is known by its chassis id; bad
# tables (malformed JSON, a SONiC header without its rule, a total that
# disagrees, one interface cabled twice, LLDP tables for an InfiniBand spec,
# LLDP and ibnetdiscover files mixed) exit 2 with file:line:col, nothing on
# stdout.
# As root with lldpd and network namespaces: tests/verify-lldp.py boots
# tests/data/eth/ro-2tier.yaml (8 leaves, 4 spines, 8 servers of 8 NICs)
# with lldpd in every namespace and checks a clean fabric and one with a
# port swap on leaf0, a rail swap on node003, node006's eth7 on leaf6 (in
# the port of node005's eth6, whose cable is gone) and leaf0's first uplink
# by name missing: exactly these findings, in both formats. The expected
# cables: leaf0's uplink k is Ethernet(64 + 8k) (8 lanes a port), to spine
# k mod 4 on its port 0 + (k / 4) x 8 (leaf0's rank 0, 16 down ports over
# 2 links a pair), so the first by name, Ethernet104 (k = 5), is spine1's
# port 8, Ethernet64; server n's NIC is on port n of its rail's leaf,
# Ethernet(8(n-1)).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SPEC=$TOP_SRCDIR/tests/data/eth/ro-2tier.yaml

"$RAILYARD" ethernet "$SPEC" -o "$TMP/plan" >/dev/null 2>&1 || fail "ethernet on the plan"
E=$TMP/plan/ethernet

# tables FORMAT DIR [SWAP]: each switch's table from the plan; SWAP=1 swaps
# node001's and node002's eth0 on leaf0.
tables() {
    "$PY" - "$E" "$1" "$2" "${3:-0}" <<'PYEOF'
import csv, os, re, sys
e, fmt, out, swap = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
os.makedirs(out, exist_ok=True)
nb = {}
for n in csv.DictReader(open(os.path.join(e, "addresses.csv"))):
    nb.setdefault(n["switch"], []).append((n["port"], n["host"], n["netdev"]))
sws = os.listdir(os.path.join(e, "switches"))
for sw in sws:
    text = open(os.path.join(e, "switches", sw, "frr.conf")).read()
    for port, peer, pport in re.findall(r"^interface (\S+)\n description (\S+) (\S+)\n", text, re.M):
        if peer in sws:
            nb.setdefault(sw, []).append((port, peer, pport))
if swap:
    rows = nb["leaf0"]
    i = [k for k, r in enumerate(rows) if r[1:] in (("node001", "eth0"), ("node002", "eth0"))]
    (a, b) = i
    rows[a], rows[b] = (rows[a][0],) + rows[b][1:], (rows[b][0],) + rows[a][1:]
mac = lambda s: ":".join("%02x" % ((sum(map(ord, s)) * (k + 7)) & 0xff) for k in range(6))
for sw, rows in nb.items():
    if fmt == "json":
        ifs = ['{"%s": {"via": "LLDP", "chassis": {"%s": {"id": {"type": "mac", "value": "%s"}}}, '
               '"port": {"id": {"type": "mac", "value": "%s"}, "descr": "%s"}}}'
               % (p, peer, mac(peer), mac(peer + pp), pp) for p, peer, pp in rows]
        body = '{"lldp": {"interface": [\n%s\n]}}\n' % ",\n".join(ifs)
        open(os.path.join(out, sw + ".json"), "w").write(body)
    else:
        hdr = ["LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"]
        cells = [[p, peer, pp, "R", pp] for p, peer, pp in rows]
        w = [max([len(hdr[c])] + [len(r[c]) for r in cells]) for c in range(5)]
        line = lambda r: "  ".join(x.ljust(w[i]) for i, x in enumerate(r))
        t = ["Capability codes: (R) Router, (B) Bridge, (O) Other", line(hdr),
             "  ".join("-" * x for x in w)] + [line(r) for r in cells]
        t += ["-" * 50, "Total entries displayed:  %d" % len(cells)]
        open(os.path.join(out, sw + ".txt"), "w").write("\n".join(t) + "\n")
PYEOF
}

for fmt in json sonic; do
    tables $fmt "$TMP/$fmt"
    "$RAILYARD" verify "$SPEC" "$TMP/$fmt"/* >"$TMP/v.out" 2>"$TMP/v.err"
    expect_eq "$fmt: clean exit" $? 0
    no_sanitizer "$TMP/v.err"
    grep -q '^128 of 128 planned cables as planned; 0 findings' "$TMP/v.out" && ok ||
        { fail "$fmt: clean summary"; head -3 "$TMP/v.out"; }
    tables $fmt "$TMP/$fmt-swap" 1
    "$RAILYARD" verify "$SPEC" "$TMP/$fmt-swap"/* >"$TMP/v.out" 2>"$TMP/v.err"
    expect_eq "$fmt: swap exit" $? 1
    cp "$TMP/v.out" "$TMP/$fmt-swap.out"
    n=$(grep -c '^miswired (port-swap)' "$TMP/v.out")
    expect_eq "$fmt: two port-swap findings" "$n" 2
    grep -q '^126 of 128 planned cables as planned; 2 findings' "$TMP/v.out" && ok ||
        { fail "$fmt: swap summary"; head -3 "$TMP/v.out"; }
    grep -q '^  fix:     move cable eth-ro-node001-mlx5_0 from leaf0 Ethernet8 to leaf0 Ethernet0$' \
        "$TMP/v.out" && ok || { fail "$fmt: the fix by interface names"; cat "$TMP/v.out"; }
done

# impact judged for a routed fabric (a /31 a link, BGP over the interface):
# two NICs swapped on a leaf lose their links (each address is its planned
# port's); leaf0's uplinks to spine0 and spine1 swapped lose nothing
grep -q '^  impact:  node001 eth0 loses its link to rail 0 (its /31 is its planned port.s: on another port it reaches no gateway)' \
    "$TMP/json-swap.out" && ok || fail "routed impact of a NIC swap: $(grep impact "$TMP/json-swap.out")"
"$PY" - "$TMP/json" "$TMP/upswap" <<'PYEOF' >/dev/null
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
t = {f[:-5]: json.load(open(os.path.join(src, f))) for f in os.listdir(src)}
def entries(sw):
    return [(k, v) for e in t[sw]["lldp"]["interface"] for k, v in e.items()]
def peer(v):
    (n, c), = v["chassis"].items()
    return n
up = {}
for k, v in entries("leaf0"):
    p = peer(v)
    if p in ("spine0", "spine1") and p not in up:
        up[p] = (k, v)
(x, vx), (z, vz) = up["spine0"], up["spine1"]
vx["chassis"], vz["chassis"] = vz["chassis"], vx["chassis"]
vx["port"], vz["port"] = vz["port"], vx["port"]
for sw, old, new in (("spine0", x, z), ("spine1", z, x)):
    for k, v in entries(sw):
        if peer(v) == "leaf0" and v["port"]["descr"] == old:
            v["port"]["descr"] = new
            break
for sw, j in t.items():
    json.dump(j, open(os.path.join(dst, sw + ".json"), "w"), indent=1)
print(x, z)
PYEOF
"$RAILYARD" verify "$SPEC" "$TMP/upswap"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "uplinks swapped between spines: exit" $? 1
expect_eq "uplinks swapped between spines: two uplink findings" "$(grep -c '^miswired (uplink)' "$TMP/v.out")" 2
expect_eq "uplinks swapped between spines: nothing lost" \
    "$(grep -c '^  impact:  no bandwidth lost: BGP peers over the interface as cabled' "$TMP/v.out")" 2

# a spine that announces a name the plan does not give is placed by its
# cables, and the report says so (the file and the tables name it spine-x)
mkdir -p "$TMP/renamed-spine"
for f in "$TMP/json"/*.json; do
    n=$(basename "$f"); [ "$n" = spine1.json ] && n=spine-x.json
    sed 's/"spine1"/"spine-x"/g' "$f" >"$TMP/renamed-spine/$n"
done
"$RAILYARD" verify "$SPEC" "$TMP/renamed-spine"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "a spine under another name: exit" $? 0
grep -q '^switches: 12 of 12 discovered placed (1 by its cables under a name the plan does not give: "spine-x" stands where it has spine1)' \
    "$TMP/v.out" && ok || fail "a spine under another name: $(head -3 "$TMP/v.out")"

# hosts that announce their FQDN, or their name in capitals, are the plan's
# hosts: the name in lower case, without its domain
mkdir -p "$TMP/fqdn"
for f in "$TMP/json"/*.json; do
    sed -E 's/"(node[0-9]+)": \{"id"/"\U\1\E.cluster.example": {"id"/' "$f" >"$TMP/fqdn/$(basename "$f")"
done
grep -q '"NODE001.cluster.example"' "$TMP/fqdn/leaf0.json" && ok || fail "the FQDN tables"
"$RAILYARD" verify "$SPEC" "$TMP/fqdn"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "hosts by FQDN in capitals: exit" $? 0
grep -q '^128 of 128 planned cables as planned; 0 findings' "$TMP/v.out" && ok ||
    { fail "hosts by FQDN: $(head -3 "$TMP/v.out")"; }
# a name that is no host's even so stays a device the plan does not have
sed -E 's/"NODE001.cluster.example"/"node001x.cluster.example"/' "$TMP/fqdn/leaf0.json" >"$TMP/fqdn/leaf0.x" &&
    mv "$TMP/fqdn/leaf0.x" "$TMP/fqdn/leaf0.json"
"$RAILYARD" verify "$SPEC" "$TMP/fqdn"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "a host name no host has: exit" $? 1
grep -q '^unknown-device' "$TMP/v.out" && ok || fail "node001x: no unknown device: $(head -3 "$TMP/v.out")"

# a host running no LLDP agent: the switches do not see it; the summary
# says so, not only its cables missing (node003's, counted in the plan)
mkdir -p "$TMP/silent"
"$PY" - "$TMP/json" "$TMP/silent" <<'PYEOF'
import json, os, sys
for f in os.listdir(sys.argv[1]):
    j = json.load(open(os.path.join(sys.argv[1], f)))
    j["lldp"]["interface"] = [e for e in j["lldp"]["interface"]
                              if not any("node003" in v["chassis"] for v in e.values())]
    json.dump(j, open(os.path.join(sys.argv[2], f), "w"), indent=1)
PYEOF
n3=$(grep -c '^node003,' "$E/addresses.csv")
"$RAILYARD" verify "$SPEC" "$TMP/silent"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "a silent host: exit" $? 1
grep -q "^  hosts not seen: 1 host (node003) with none of its $n3 cables found: it sends no LLDP (is lldpd running there?)" "$TMP/v.out" &&
    ok || fail "a silent host: $(head -6 "$TMP/v.out")"

# a neighbour that sends no system name is known by its chassis id, which
# other tables give with the name (node001's NICs on leaf1..7)
mkdir -p "$TMP/unnamed"
cp "$TMP/json"/*.json "$TMP/unnamed/"
"$PY" - "$TMP/unnamed/leaf0.json" <<'PYEOF'
import json, sys
j = json.load(open(sys.argv[1]))
for e in j["lldp"]["interface"]:
    for v in e.values():
        (n, c), = v["chassis"].items()
        if n == "node001":
            v["chassis"] = c
json.dump(j, open(sys.argv[1], "w"), indent=1)
PYEOF
grep -q '"node001"' "$TMP/unnamed/leaf0.json" && fail "node001 still named in leaf0's table" || ok
"$RAILYARD" verify "$SPEC" "$TMP/unnamed"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "unnamed neighbour: exit" $? 0
"$RAILYARD" verify "$SPEC" "$TMP/unnamed/leaf0.json" >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "unnamed neighbour, leaf0's table alone: exit" $? 1
grep -q '^unknown-device' "$TMP/v.out" && ok || { fail "no unknown device"; head "$TMP/v.out"; }

# a file named after no switch that holds show chassis, then the neighbours
mkdir -p "$TMP/chassis"
cp "$TMP/json"/*.json "$TMP/chassis/"
{ printf '{\n  "local-chassis": {\n    "chassis": {\n      "leaf0": {"id": {"type": "mac", "value": "02:00:00:00:00:01"}}\n    }\n  }\n}\n'
  cat "$TMP/json/leaf0.json"; } >"$TMP/chassis/switch-a.json"
rm "$TMP/chassis/leaf0.json"
"$RAILYARD" verify "$SPEC" "$TMP/chassis"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "show chassis names the switch: exit" $? 0
sed 's/"leaf0"/"leaf1"/' "$TMP/chassis/switch-a.json" >"$TMP/chassis/switch-b.json"
"$RAILYARD" verify "$SPEC" "$TMP/chassis"/* >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "two tables of one switch: exit" $? 2
grep -q "switch-b.json:1:1: error: a table of leaf1 again (.*leaf1.json is one)" "$TMP/v.err" && ok ||
    fail "two tables of one switch: $(cat "$TMP/v.err")"

# bad (WHAT FILE PATTERN): exit 2, the error matches, nothing on stdout
bad() {
    "$RAILYARD" verify "$SPEC" "$2" >"$TMP/b.out" 2>"$TMP/b.err"
    rc=$?
    expect_eq "$1: exit" $rc 2
    grep -qE -- "$3" "$TMP/b.err" && ok || { fail "$1: no /$3/ in"; cat "$TMP/b.err"; }
    [ -s "$TMP/b.out" ] && fail "$1: output written" || ok
    no_sanitizer "$TMP/b.err"
}
mkdir -p "$TMP/bad"
printf '{"lldp": {"interface": [\n  {"Ethernet0": {"chassis": }}\n]}}\n' >"$TMP/bad/leaf0.json"
bad "malformed JSON" "$TMP/bad/leaf0.json" 'leaf0.json:2:29: error: .*expected the JSON of lldpcli'
printf '{"lldp": {"interface": {"Ethernet0": {"chassis": {}}}}}\n' >"$TMP/bad/leaf1.json"
bad "no port" "$TMP/bad/leaf1.json" 'leaf1.json:1:1: error: interface "Ethernet0" has no chassis or no port'
printf 'LocalPort    RemoteDevice\nEthernet0    node001\n' >"$TMP/bad/leaf2.txt"
bad "no rule" "$TMP/bad/leaf2.txt" 'leaf2.txt:2:1: error: the rule under the header holds other than dashes'
sed '$s/  [0-9]*$/  3/' "$TMP/sonic/leaf3.txt" >"$TMP/bad/leaf3.txt"
bad "a wrong total" "$TMP/bad/leaf3.txt" 'leaf3.txt:[0-9]+:25: error: the total says 3 entries, the table has 16'
sed 's/"Ethernet8"/"Ethernet0"/' "$TMP/json/leaf4.json" >"$TMP/bad/leaf4.json"
bad "one interface twice" "$TMP/bad/leaf4.json" 'leaf4.json:3:1: error: leaf4 Ethernet0 is seen cabled to node00[0-9] eth[0-9] here and to node00[0-9] eth[0-9] in an earlier entry'
{ head -n 3 "$TMP/sonic/leaf5.txt"; printf 'Ethernet0  %5000s\n' x; } >"$TMP/bad/leaf5.txt"
bad "a line past 4,096 characters" "$TMP/bad/leaf5.txt" 'leaf5.txt:4:4097: error: line longer than 4096 characters'
nb='{"chassis": {"n": {"id": {"value": "x"}}}, "port": {"id": {"value": "e"}}}'
printf '{"lldp": {"interface": {\n"Ethernet0": %s,\n"Ethernet4": %s,\n"Ethernet0": %s}}}\n' "$nb" "$nb" "$nb" \
    >"$TMP/bad/leaf6.json"
bad "an interface's key twice" "$TMP/bad/leaf6.json" 'leaf6.json:4:1: error: duplicate object key "Ethernet0"'
"$RAILYARD" verify "$SPEC" "$TMP/json/leaf0.json" "$TOP_SRCDIR/tests/data/eth/ro-2tier.yaml" \
    >"$TMP/b.out" 2>"$TMP/b.err"
expect_eq "mixed files: exit" $? 2
grep -q "1 of the 2 files are LLDP tables" "$TMP/b.err" && ok || fail "mixed files: $(cat "$TMP/b.err")"
"$RAILYARD" verify "$TOP_SRCDIR/tests/data/ib/ro-2tier-h100.yaml" "$TMP/json/leaf0.json" \
    >"$TMP/b.out" 2>"$TMP/b.err"
expect_eq "LLDP for InfiniBand: exit" $? 2
grep -q "LLDP tables are read for an Ethernet fabric" "$TMP/b.err" && ok ||
    fail "LLDP for InfiniBand: $(cat "$TMP/b.err")"

"$RAILYARD" verify "$SPEC" "$TMP/json/leaf0.json" "$TMP/no-such.json" >"$TMP/b.out" 2>"$TMP/b.err"
expect_eq "a table that cannot be read: exit" $? 3
grep -q "no-such.json" "$TMP/b.err" && ok || fail "unreadable: $(cat "$TMP/b.err")"

# ---- live ---------------------------------------------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v lldpd >/dev/null 2>&1 || ! ip netns list >/dev/null 2>&1
then
    echo "SKIP (live part): needs root, network namespaces and lldpd"
    finish
fi
W=$TMP/live
mkdir -p "$W" && chmod 755 "$TMP" "$W"
k=5 m=4 C=$((16 / (8 / 4)))   # spine: 16 ports down over 8 / 4 links a pair
EXPECT='[["missing", null, ["leaf0 Ethernet'$((64 + 8 * k))'", "spine'$((k % m))' Ethernet'$((8 * (k / m * C)))'"]],
 ["missing", null, ["node005 eth6", "leaf6 Ethernet32"]],
 ["miswired", "port-swap", ["node001 eth0", "leaf0 Ethernet0"]],
 ["miswired", "port-swap", ["node002 eth0", "leaf0 Ethernet8"]],
 ["miswired", "rail-swap", ["node003 eth1", "leaf1 Ethernet16"]],
 ["miswired", "rail-swap", ["node003 eth2", "leaf2 Ethernet16"]],
 ["miswired", "rail-swap", ["node006 eth7", "leaf7 Ethernet40"]]]'
$PY "$TOP_SRCDIR/tests/verify-lldp.py" "$RAILYARD" "$SPEC" "$W" "$EXPECT" >"$W.log" 2>&1
rc=$?
sed 's/^/  /' "$W.log"
n=$(grep -c '^ok:' "$W.log")
checks=$((checks + n))
if [ "$rc" != 0 ] || [ "$n" -lt 10 ]; then
    fail "live: exit $rc, $n checks passed"
fi
no_sanitizer "$W.log"
finish
