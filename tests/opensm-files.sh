#!/bin/sh
# railyard opensm without a subnet manager: file formats OpenSM's parsers
# insist on, the GUID/LID plan against its closed forms, routes proved by
# check-routes on several fabrics, determinism, and bad input.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/ib"

spec() {    # spec NAME YAML-BODY: write a spec file
    printf 'name: %s\n%s\n' "$1" "$2" >"$TMP/$1.yaml"
}
spec two-tier 'cluster: {nodes: 20, node: dgx-h100, scalable_unit: 8}
fabric: {switch: {name: s32, radix: 32, speed: NDR}}'
spec three-tier 'cluster: {gpus: 256, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: {name: s8, radix: 8, speed: HDR}}'
spec oversub 'cluster: {gpus: 96, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: {name: s12, radix: 12, speed: HDR}, oversubscription: "2:1"}'
spec rail-only 'cluster: {gpus: 512, hb_domain: 16, gpus_per_node: 8}
fabric: {design: rail-only, switch: {name: s16, radix: 16, speed: HDR}}'
spec packed 'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
fabric: {design: rail-only, switch: {name: s16, radix: 16, speed: HDR}}'
spec fat 'cluster: {gpus: 120, hb_domain: 8, gpus_per_node: 8, planes: 2}
fabric: {design: fat-tree, switch: {name: s16, radix: 16, speed: HDR}}'
spec lmc 'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: {name: s16, radix: 16, speed: HDR}}
infiniband: {lmc: 2, routing_engine: updn}'

for s in two-tier three-tier oversub rail-only packed fat lmc; do
    out="$TMP/out-$s"
    "$RAILYARD" opensm "$TMP/$s.yaml" -o "$out" >"$TMP/$s.log" 2>&1
    expect_eq "$s: opensm exit" $? 0
    no_sanitizer "$TMP/$s.log"
    "$RAILYARD" bom "$TMP/$s.yaml" --format json >"$TMP/$s.bom.json"
    nsub=$(ls "$out/opensm" | wc -l | tr -d ' ')
    expect_eq "$s: one directory per subnet" "$nsub" \
        "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["subnets"])' "$TMP/$s.bom.json")"
    for d in "$out"/opensm/*/; do
        n=$(basename "$d")
        for f in topology.net root_guids.conf cn_guids.conf lfts.dump partitions.conf \
                 node-name-map guid2lid opensm.conf; do
            [ -s "$d/$f" ] && ok || fail "$s/$n: $f missing"
        done
        # GUID lists: every non-comment line starts with 0x and 16 hex digits
        bad=$(grep -hv '^#' "$d/root_guids.conf" "$d/cn_guids.conf" "$d/node-name-map" \
              | grep -cvE '^0x[0-9a-f]{16}( |$)')
        expect_eq "$s/$n: GUID lines" "$bad" 0
        # LFT file: last byte a newline, no LID above the header's max, no port 255
        [ "$(tail -c 1 "$d/lfts.dump" | od -An -c | tr -d ' ')" = '\n' ] && ok \
            || fail "$s/$n: lfts.dump lacks a final newline"
        "$PY" - "$d" >"$TMP/chk" <<'P'
import re, sys, os
d = sys.argv[1]
errs = []
maxlid = None
ports = {}
for line in open(os.path.join(d, "topology.net")):
    m = re.match(r'switchguid=0x([0-9a-f]+)', line)
    if m: cur = int(m.group(1), 16)
    m = re.match(r'Switch\t(\d+) ', line)
    if m: ports[cur] = int(m.group(1))
sw = None
for line in open(os.path.join(d, "lfts.dump")):
    m = re.match(r'Unicast lids \[0-(\d+)\] of switch Lid \d+ guid 0x([0-9a-f]{16}) ', line)
    if m:
        maxlid = int(m.group(1)); sw = int(m.group(2), 16)
        if sw not in ports: errs.append("header for unknown switch %x" % sw)
        continue
    m = re.match(r'0x([0-9a-f]{4}) (\d{3})( portguid 0x[0-9a-f]{16}:)?$', line.rstrip("\n"))
    if m:
        lid, port = int(m.group(1), 16), int(m.group(2))
        if lid > maxlid or lid == 0: errs.append("lid %d beyond max %d" % (lid, maxlid))
        if port > ports.get(sw, 0): errs.append("port %d beyond radix" % port)
    elif not re.match(r'\d+ lids dumped$', line): errs.append("odd line: " + line.strip())
print("\n".join(errs[:5]) if errs else "ok")
P
        expect_eq "$s/$n: lfts.dump lines" "$(cat "$TMP/chk")" ok
        # routes proved by the independent checker
        "$RAILYARD" check-routes "$d" >"$TMP/cr.txt" 2>&1
        expect_eq "$s/$n: check-routes" $? 0
        no_sanitizer "$TMP/cr.txt"
    done
    # switch GUIDs from what the name shows: base + 2^33 + plane * 2^28 +
    # tier * 2^24 + number, unique over the fabric's subnets
    tiers=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["tiers"])' "$TMP/$s.bom.json")
    cat "$out"/opensm/*/node-name-map >"$TMP/maps"
    "$PY" - "$tiers" "$TMP/maps" >"$TMP/chk" <<'P'
import re, sys
tiers = int(sys.argv[1])
tier_of = {"switch": 1, "leaf": 1, "spine": 2, "core": 3, "top": tiers}
errs, seen, nsw = [], set(), 0
for line in open(sys.argv[2]):
    m = re.match(r'0x([0-9a-f]{16}) "([^" ]+)"$', line.rstrip("\n"))
    if not m:
        continue
    g, name = int(m.group(1), 16), m.group(2)
    n = re.match(r'(?:p(\d+)-)?(?:t(\d+)-|([a-z]+))(\d+)$', name)
    if not n:
        errs.append("switch name %s" % name); continue
    plane = int(n.group(1) or 0)
    tier = int(n.group(2)) if n.group(2) else tier_of[n.group(3)]
    want = 0x0002c90000000000 + (1 << 33) + (plane << 28) + (tier << 24) + int(n.group(4))
    if g != want:
        errs.append("%s: GUID 0x%016x, want 0x%016x" % (name, g, want))
    if g in seen:
        errs.append("%s: GUID 0x%016x twice" % (name, g))
    seen.add(g); nsw += 1
print("\n".join(errs[:5]) if errs else "ok" if nsw else "no switches")
P
    expect_eq "$s: switch GUIDs from names" "$(cat "$TMP/chk")" ok
    # same spec, same bytes
    "$RAILYARD" opensm "$TMP/$s.yaml" -o "$out.again" >/dev/null 2>&1
    diff -r "$out" "$out.again" >/dev/null && ok || fail "$s: second run differs"
done

# GUID/LID plan against its closed forms (two-tier: 160 GPUs, 20 nodes)
d="$TMP/out-two-tier/opensm/plane0"
expect_eq "CA count" "$(grep -c '^caguid=' "$d/topology.net")" 160
expect_eq "first CA node GUID" "$(grep -m1 '^caguid=' "$d/topology.net")" "caguid=0x0002c90100000000"
nsw=$(grep -c '^switchguid=' "$d/topology.net")
expect_eq "first switch GUID (leaf0: tier 1, number 0)" "$(grep -m1 '^switchguid=' "$d/topology.net")" \
    "switchguid=$(printf '0x%016x' $((0x0002c90000000000 + (1 << 33) + (1 << 24))))"
expect_eq "max LID = switches + CAs" "$(sed -n 's/^Unicast lids \[0-\([0-9]*\)\].*/\1/p' "$d/lfts.dump" | sort -u)" $((nsw + 160))
expect_eq "guid2lid records" "$(grep -c '^0x' "$d/guid2lid")" $((nsw + 160))
expect_eq "rail partitions" "$(grep -c '^rail[0-9]*=0x01' "$d/partitions.conf")" 8
# lmc 2: each CA an aligned block of 4 LIDs
d="$TMP/out-lmc/opensm/plane0"
"$PY" - "$d/guid2lid" >"$TMP/lmc" <<'P'
import sys
bad = 0
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3:
        lo, hi = int(f[1], 16), int(f[2], 16)
        if hi != lo and (hi - lo != 3 or lo % 4): bad += 1
print(bad)
P
expect_eq "lmc 2 LID blocks" "$(cat "$TMP/lmc")" 0
# packed rail-only: ports are limited members of Default, rails full members of their own
p=$(ls -d "$TMP"/out-packed/opensm/*/ | head -1)
grep -q 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;' "$p/partitions.conf" && ok \
    || fail "packed rails share full Default membership"
expect_eq "packed subnet names" "$(ls "$TMP/out-packed/opensm" | head -2 | tr '\n' ' ')" "plane0-rails0-1 plane0-rails2-3 "

# bad input: clear error, exit 1, nothing written
bad() {     # bad WHAT REGEX SPEC-BODY
    printf 'name: bad\n%s\n' "$3" >"$TMP/bad.yaml"
    rm -rf "$TMP/badout"
    "$RAILYARD" opensm "$TMP/bad.yaml" -o "$TMP/badout" >/dev/null 2>"$TMP/bad.err"
    expect_eq "$1: exit" $? 1
    grep -qE "$2" "$TMP/bad.err" && ok || fail "$1: message '$(cat "$TMP/bad.err")' lacks /$2/"
    [ ! -e "$TMP/badout" ] && ok || fail "$1: output written"
    no_sanitizer "$TMP/bad.err"
}
bad "too many LIDs" 'bad.yaml:2:1: error: subnet plane0 needs [0-9]+ LIDs \([0-9]+ switches \+ 49152 end ports x 1\) but InfiniBand has 49151 unicast LIDs' \
    'cluster: {gpus: 49152, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: qm9700}'
bad "LMC beyond the LID space" 'needs .* LIDs .* x 4\)' \
    'cluster: {gpus: 16384, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: qm9700}
infiniband: {lmc: 2, routing_engine: updn}'
bad "radix above 254" 'bad.yaml:3:[0-9]+: error: a 256-port switch is not InfiniBand' \
    'cluster: {gpus: 1024, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: {name: big, radix: 256}}'
bad "Ethernet switch" 'is an Ethernet switch' \
    'cluster: {gpus: 1024, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: sn5600}'
bad "LMC with ftree" 'bad.yaml:4:[0-9]+: error: infiniband.lmc 1 cannot be routed by ftree' \
    'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: qm9700}
infiniband: {lmc: 1, routing_engine: ftree}'
bad "GUID base" 'infiniband.guid_base' \
    'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
infiniband: {guid_base: "0xzz"}'
# build refuses the same, and --skip opensm builds without the OpenSM files
printf 'name: big\ncluster: {gpus: 49152, hb_domain: 8, gpus_per_node: 8}\nfabric: {switch: qm9700}\n' >"$TMP/big.yaml"
"$RAILYARD" build "$TMP/big.yaml" -o "$TMP/bigout" >/dev/null 2>"$TMP/e"
expect_eq "build over the LID space" $? 1
[ ! -e "$TMP/bigout" ] && ok || fail "failed build wrote output"
"$RAILYARD" build "$TMP/big.yaml" --skip opensm -o "$TMP/bigout" >/dev/null 2>"$TMP/e"
expect_eq "build --skip opensm" $? 0
[ -s "$TMP/bigout/bom.json" ] && [ ! -e "$TMP/bigout/opensm" ] && ok || fail "--skip opensm output"
finish
