#!/bin/sh
# railyard verify and the hardware options of opensm, on fabric files made
# here from the plan's own topology (no simulator; tests/verify-ibsim.sh runs
# the real ibnetdiscover): the plan with vendor switch descriptions and GUIDs
# no guid_base can give verifies clean; links printed slower are degraded;
# LID-less files are read; exit codes follow diff (0, 1 findings, 2 bad
# input, 3 I/O); the work order is a CSV; opensm --fabric writes the
# fabric's GUIDs, refuses a fabric with findings unless --as-found, whose
# tables check-routes proves; --guids from an inventory gives the same
# files as --fabric; --lids keeps a guid2lid's LIDs.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SPEC=$TOP_SRCDIR/tests/data/ib/ro-2tier-h100.yaml
TWO=$TOP_SRCDIR/tests/data/ib/two-plane.yaml

has() {   # has WHAT FILE PATTERN
    grep -qE -- "$3" "$2" && ok || { fail "$1: no /$3/ in $2"; sed 's/^/    /' "$2" | head -20; }
}

# real NETFILE OUT: the plan as a fabric would print it. Switch descriptions
# become a vendor's default; every GUID g becomes 0x0c42a1 followed by the
# low 40 bits of g times an odd constant (a bijection, so GUIDs stay unique
# and none is base + 2^32 + 16n or base + 2^33 + n). Prints "GUID NAME" of
# each switch, as it is now, to OUT.switches.
real() {
    "$PY" - "$1" "$2" <<'EOF'
import re, sys
src, out = sys.argv[1], sys.argv[2]
M = (1 << 40) - 1
def g(x):
    return (0x0c42a1 << 40) | ((x * 0x9E3779B1) & M)
text = open(src).read()
text = re.sub(r'([SH]-|0x)([0-9a-f]{16})', lambda m: '%s%016x' % (m.group(1), g(int(m.group(2), 16))), text)
text = re.sub(r'\]\(([0-9a-f]+)\)', lambda m: '](%x)' % g(int(m.group(1), 16)), text)
names = []
def desc(m):
    names.append((m.group(2), m.group(3)))
    return 'Switch\t%s "S-%s"\t\t# "Quantum-2 Mellanox Technologies" enhanced' % (m.group(1), m.group(2))
text = re.sub(r'Switch\t(\d+) "S-([0-9a-f]{16})"\t\t# "([^"]*)" enhanced', desc, text)
open(out, 'w').write(text)
with open(out + '.switches', 'w') as f:
    for guid, name in names:
        f.write('0x%s %s\n' % (guid, name))
EOF
}

# planned_cables NETFILE: links counted from the file, each listed on both ends
planned_cables() {
    awk '/^\[/ { n++ } END { print n / 2 }' "$1"
}

"$RAILYARD" opensm "$SPEC" -o "$TMP/plan" >/dev/null 2>&1 || fail "opensm on the plan"
NET=$TMP/plan/opensm/plane0/topology.net
real "$NET" "$TMP/fab.net"
want=$(planned_cables "$NET")
[ "$want" -gt 600 ] && ok || fail "the plan has only $want cables"
grep -q 0002c9 "$TMP/fab.net" && fail "a derived GUID is left in the fabric" || ok

# --- clean fabric -------------------------------------------------------------
"$RAILYARD" verify "$SPEC" "$TMP/fab.net" >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "clean exit" $? 0
no_sanitizer "$TMP/v.err"
has "summary line" "$TMP/v.out" "^$want of $want planned cables as planned; 0 findings:"
"$RAILYARD" verify "$SPEC" "$TMP/fab.net" --format json >"$TMP/v.json" 2>"$TMP/v.err"
expect_eq "clean json exit" $? 0
"$PY" - "$TMP/v.json" "$TMP/fab.net.switches" "$want" <<'EOF' >"$TMP/check" 2>&1
import json, sys
v = json.load(open(sys.argv[1]))
want = {l.split()[0]: l.split()[1] for l in open(sys.argv[2])}
assert sorted(v) == ['as_planned', 'findings', 'switches', 'verified'], sorted(v)
assert v['as_planned'] == int(sys.argv[3]), v['as_planned']
assert (v['verified']['cables'], v['verified']['of_planned']) == (int(sys.argv[3]),) * 2, v['verified']
assert v['findings'] == []
assert v['switches'] == want, 'switch placement differs'
print('ok')
EOF
has "clean json: keys, count, every switch placed on its planned name" "$TMP/check" '^ok$'

# --- LID-less: before a subnet manager ran ------------------------------------
sed 's/lid [0-9][0-9]*/lid 0/g' "$TMP/fab.net" >"$TMP/nolid.net"
"$RAILYARD" verify "$SPEC" "$TMP/nolid.net" >"$TMP/v.out" 2>"$TMP/v.err"
expect_eq "LID 0 everywhere: exit" $? 0

# --- degraded: two links printed at 4xHDR, one at 2xNDR (both ends) ------------
"$PY" - "$TMP/fab.net" "$TMP/slow.net" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
# the first three NIC links of the first switch, on the switch's and the CA's line
slow = {}
cur = None
for i, l in enumerate(lines):
    m = re.match(r'^(Switch|Ca)\t\d+ "([^"]+)"', l)
    if m:
        cur = m.group(2)
        continue
    m = re.match(r'^\[(\d+)\](\([0-9a-f]+\))?\t"([^"]+)"\[(\d+)\]', l)
    if m and cur:
        a, b = (cur, int(m.group(1))), (m.group(3), int(m.group(4)))
        key = tuple(sorted([a, b]))
        if cur.startswith('S-') and m.group(3).startswith('H-') and len(slow) < 3:
            slow.setdefault(key, ['4xHDR', '4xHDR', '2xNDR'][len(slow)])
        if key in slow:
            lines[i] = re.sub(r'4xNDR$', slow[key], l)
open(sys.argv[2], 'w').write('\n'.join(lines))
EOF
"$RAILYARD" verify "$SPEC" "$TMP/slow.net" --format json --work-order "$TMP/wo.csv" \
    >"$TMP/v.json" 2>"$TMP/v.err"
expect_eq "degraded: exit" $? 1
"$PY" - "$TMP/v.json" "$want" <<'EOF' >"$TMP/check" 2>&1
import json, sys
v = json.load(open(sys.argv[1]))
k = [f['kind'] for f in v['findings']]
assert k == ['degraded'] * 3, k
assert v['as_planned'] == int(sys.argv[2]) - 3, v['as_planned']
for f in v['findings']:
    assert f['planned']['a']['device'] == f['found']['a']['device'], f
    assert f['label'] and f['label'] in f['fix'], f
    assert '400 Gb/s planned' in f['impact'], f['impact']
rates = sorted(f['fix'].rsplit(' ', 1)[1] for f in v['findings'])
assert rates == ['2xNDR', '4xHDR', '4xHDR'], rates
print('ok')
EOF
has "degraded: three findings, their rates and labels" "$TMP/check" '^ok$'
printf 'rack,rack_unit,device,port,cage_port,label,action,to\n' >"$TMP/hdr"
head -n 1 "$TMP/wo.csv" | cmp -s - "$TMP/hdr" && ok || fail "work order header: $(head -n 1 "$TMP/wo.csv")"
expect_eq "work order rows" "$(grep -c 'reseat or replace' "$TMP/wo.csv")" 3

# A server with every NIC unplugged: its rows in the order a technician
# counts the ports, mlx5_3 before mlx5_10 (the plan's NIC names, numerically).
"$PY" - "$NET" "$TMP/nonode.net" <<'EOF'
import sys
blocks = open(sys.argv[1]).read().split('\n\n')
out = []
for b in blocks:
    lines = b.split('\n')
    if any(l.startswith(('Ca', 'Hca')) and '"node001 ' in l for l in lines):
        continue
    out.append('\n'.join(l for l in lines if '"node001 ' not in l))
open(sys.argv[2], 'w').write('\n\n'.join(out))
EOF
"$RAILYARD" verify "$SPEC" "$TMP/nonode.net" --work-order "$TMP/nonode.csv" >/dev/null 2>&1
expect_eq "a server unplugged: exit" $? 1
expect_eq "a server unplugged: its ports in counting order" \
    "$(awk -F, '$3 == "node001" { printf "%s ", $4 }' "$TMP/nonode.csv")" \
    "mlx5_0 mlx5_3 mlx5_4 mlx5_5 mlx5_6 mlx5_9 mlx5_10 mlx5_11 "

# --- NICs named as the cabling plan names them ---------------------------------
# A NIC cable removed: the text report, the JSON and the work order name the
# NIC by its host and NIC as cabling.csv writes them (a_device, a_port of the
# cable's row), its rail from the same row; no internal index (gpu17).
"$PY" "$TOP_SRCDIR/tests/verify-inject.py" --plan "$TMP/plan/opensm" --out "$TMP/nic" \
    --expect "$TMP/nic.exp" --seed 5 --fault missing:nic --fault rail-swap >/dev/null
expect_eq "missing:nic injected" $? 0
"$RAILYARD" cabling "$SPEC" -o "$TMP/cab" >/dev/null 2>&1 || fail "cabling on the plan"
"$RAILYARD" verify "$SPEC" "$TMP/nic/plane0/topology.net" >"$TMP/nic.txt" 2>"$TMP/v.err"
expect_eq "missing NIC cable: exit" $? 1
"$RAILYARD" verify "$SPEC" "$TMP/nic/plane0/topology.net" --json \
    --work-order "$TMP/nic.csv" >"$TMP/nic.json" 2>"$TMP/v.err"
expect_eq "missing NIC cable, json: exit" $? 1
"$PY" - "$TMP/nic.exp" "$TMP/cab/cabling/cabling.csv" "$TMP/nic.txt" "$TMP/nic.json" \
    "$TMP/nic.csv" <<'EOF2' >"$TMP/check" 2>&1
import csv, json, re, sys
exp = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
text = open(sys.argv[3]).read()
got = json.load(open(sys.argv[4]))
wo = list(csv.DictReader(open(sys.argv[5])))
miss = [x for x in exp['findings'] if x['kind'] == 'missing']
assert len(miss) == 1, miss
nic = miss[0]['planned']['a']['device']
host, port = nic.split(' ')
r = [r for r in rows if (r['a_device'], r['a_port']) == (host, port)]
assert len(r) == 1, (nic, r)
r = r[0]
want = 'impact:  %s %s loses its link to rail %s' % (r['a_device'], r['a_port'], r['rail'])
assert want in text, 'no "%s" in the text report' % want
bad = re.findall(r'\bgpu[0-9]+', text + json.dumps(got) + open(sys.argv[5]).read())
assert not bad, 'internal GPU indices: %s' % bad[:3]
f = [x for x in got['findings'] if x['kind'] == 'missing']
a = f[0]['planned']['a']
assert (a['host'], a['nic'], a['device']) == (host, port, nic), a
assert f[0]['label'] == r['label'], (f[0]['label'], r['label'])
# every NIC end of the JSON carries its host and NIC, and they make its device
ends = [e for x in got['findings'] for p in ('planned', 'found') if x[p]
        for e in (x[p]['a'], x[p]['b']) if e and re.match(r'node\d+ mlx5_', e['device'])]
assert len(ends) >= 3, ends
for e in ends:
    assert e['device'] == '%s %s' % (e['host'], e['nic']), e
w = [x for x in wo if x['action'] == 'connect' and x['label'] == r['label']]
assert len(w) == 1, (r['label'], wo)
w = w[0]
assert (w['rack'], w['rack_unit'], w['device'], w['port']) == \
    (r['a_rack'], r['a_u'], r['a_device'], r['a_port']), (w, r)
print('ok')
EOF2
has "missing NIC cable: named as cabling.csv names it in text, JSON and work order" \
    "$TMP/check" '^ok$'

# --- exit codes and errors -----------------------------------------------------
printf 'Switch\t4 "S-1"\t\t# "x" lid 1\n[9]\t"H-2"[1]\n' >"$TMP/bad.net"
"$RAILYARD" verify "$SPEC" "$TMP/bad.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "malformed fabric: exit" $? 2
has "malformed fabric: file:line:col" "$TMP/e" 'bad\.net:2:2: error: port 9 .* beyond its 4 ports'
"$RAILYARD" verify "$SPEC" "$TMP/nonexistent.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "unreadable fabric: exit" $? 3
"$RAILYARD" verify "$SPEC" >"$TMP/o" 2>"$TMP/e"
expect_eq "no FABRIC: exit" $? 2
has "no FABRIC: message" "$TMP/e" 'missing FABRIC'
"$RAILYARD" verify "$SPEC" "$TMP/fab.net" "$TMP/fab.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "a subnet given twice: exit" $? 2
has "a subnet given twice: message" "$TMP/e" 'is in .*fab\.net and in .*fab\.net'
"$RAILYARD" verify "$SPEC" "$TMP/fab.net" --set cluster.nodes=-1 >"$TMP/o" 2>"$TMP/e"
expect_eq "bad spec: exit" $? 2
"$RAILYARD" verify "$SPEC" "$TMP/fab.net" --format csv >"$TMP/o" 2>"$TMP/e"
expect_eq "--format csv: exit" $? 2

# --- two planes, one file: the other subnet is not verified ----------------------
"$RAILYARD" opensm "$TWO" -o "$TMP/two" >/dev/null 2>&1 || fail "opensm two-plane"
real "$TMP/two/opensm/plane0/topology.net" "$TMP/p0.net"
real "$TMP/two/opensm/plane1/topology.net" "$TMP/p1.net"
"$RAILYARD" verify "$TWO" "$TMP/p0.net" >"$TMP/v.out" 2>"$TMP/e"
expect_eq "one plane of two: exit" $? 0
has "one plane of two: summary" "$TMP/v.out" 'subnets verified: plane0; not in the files: plane1'
"$RAILYARD" verify "$TWO" "$TMP/p0.net" "$TMP/p1.net" >"$TMP/v.out" 2>"$TMP/e"
expect_eq "both planes: exit" $? 0
all=$(( $(planned_cables "$TMP/two/opensm/plane0/topology.net") + $(planned_cables "$TMP/two/opensm/plane1/topology.net") ))
has "both planes: every cable" "$TMP/v.out" "^$all of $all planned cables as planned"

# --- opensm --fabric: the fabric's GUIDs -------------------------------------------
"$RAILYARD" opensm "$SPEC" -o "$TMP/hw" --fabric "$TMP/fab.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "opensm --fabric: exit" $? 0
D=$TMP/hw/opensm/plane0
grep -q 0002c9 "$D"/*.conf "$D/guid2lid" "$D/lfts.dump" "$D/topology.net" "$D/node-name-map" \
    && fail "a derived GUID is left in the files written with --fabric" || ok
# root_guids.conf holds the spines' fabric GUIDs, as placed
grep '^0x' "$D/root_guids.conf" | sort >"$TMP/roots"
grep ' spine' "$TMP/fab.net.switches" | sort >"$TMP/roots.want"
cmp -s "$TMP/roots" "$TMP/roots.want" && ok || { fail "root_guids.conf is not the fabric's spines"; diff "$TMP/roots.want" "$TMP/roots" | head; }
# cn_guids.conf: every port GUID of a CA in the fabric file, and only those
sed -n 's/^\[1\](\([0-9a-f]*\)).*/0x\1/p' "$TMP/fab.net" | "$PY" -c '
import sys
for l in sys.stdin: print("0x%016x" % int(l, 16))' | sort >"$TMP/cn.want"
grep '^0x' "$D/cn_guids.conf" | cut -d' ' -f1 | sort >"$TMP/cn"
cmp -s "$TMP/cn" "$TMP/cn.want" && ok || fail "cn_guids.conf is not the fabric's CA port GUIDs"
"$RAILYARD" check-routes "$D" >"$TMP/o" 2>"$TMP/e"
expect_eq "check-routes on the --fabric files" $? 0

# refused with findings: nothing written
"$RAILYARD" opensm "$SPEC" -o "$TMP/refused" --fabric "$TMP/slow.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "opensm --fabric with findings: exit" $? 1
has "refusal names the findings" "$TMP/e" 'not cabled as planned \(3 findings above\)'
[ -e "$TMP/refused" ] && fail "a refused run wrote $TMP/refused" || ok
"$RAILYARD" opensm "$SPEC" -o "$TMP/slowok" --fabric "$TMP/slow.net" --ignore-rates >"$TMP/o" 2>"$TMP/e"
expect_eq "opensm --fabric --ignore-rates with degraded links: exit" $? 0
diff -r "$TMP/hw/opensm" "$TMP/slowok/opensm" >/dev/null && ok || fail "--ignore-rates files differ from the clean fabric's"
"$RAILYARD" opensm "$SPEC" -o "$TMP/x" --as-found >"$TMP/o" 2>"$TMP/e"
expect_eq "--as-found without --fabric: exit" $? 2

# --as-found: a missing NIC cable and two swapped uplinks, routed around
"$PY" - "$TMP/fab.net" "$TMP/faulty.net" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
blocks = text.split('\n\n')
# drop the first CA's cable (its block and the switch's line naming it)
ca = next(b for b in blocks if b.startswith('caguid='))
cid = re.search(r'^Ca\t1 "([^"]+)"', ca, re.M).group(1)
blocks.remove(ca)
text = '\n\n'.join(blocks)
text = '\n'.join(l for l in text.split('\n') if not (l.startswith('[') and '"%s"' % cid in l))
open(sys.argv[2], 'w').write(text)
EOF
"$RAILYARD" opensm "$SPEC" -o "$TMP/af" --fabric "$TMP/faulty.net" --as-found >"$TMP/o" 2>"$TMP/e"
expect_eq "--as-found: exit" $? 0
has "--as-found lists the NIC no route reaches" "$TMP/e" 'node001 mlx5_0 is not cabled: no route reaches it'
"$RAILYARD" check-routes "$TMP/af/opensm/plane0" >"$TMP/o" 2>"$TMP/e"
expect_eq "check-routes on the --as-found files" $? 0
expect_eq "--as-found: end ports" "$(grep -c '^Ca' "$TMP/af/opensm/plane0/topology.net")" \
    "$(($(grep -c '^Ca' "$TMP/fab.net") - 1))"
# every port keeps the LID it has with the cable in place: the as-found guid2lid
# is the clean one less the uncabled NIC's line
awk 'NF == 3' "$TMP/af/opensm/plane0/guid2lid" | sort >"$TMP/af.lids"
awk 'NF == 3' "$D/guid2lid" | sort >"$TMP/clean.lids"
expect_eq "--as-found: LID lines not in the clean fabric's" "$(comm -23 "$TMP/af.lids" "$TMP/clean.lids" | wc -l)" 0
expect_eq "--as-found: clean LID lines left out" "$(comm -13 "$TMP/af.lids" "$TMP/clean.lids" | wc -l)" 1


# --- --guids: an inventory gives the same files as --fabric ------------------------
{
    echo "host,nic,port_guid,node_guid"
    grep -v mlx5 "$D/node-name-map" | sed -n 's/^\(0x[0-9a-f]*\) "\([^"]*\)"$/\2,\1/p'
    grep -v '^#' "$D/cn_guids.conf" | while read -r port host nic; do
        node=$(grep "\"$host $nic\"" "$D/node-name-map" | cut -d' ' -f1)
        echo "$host,$nic,$port,$node"
    done
} >"$TMP/inv.csv"
"$RAILYARD" opensm "$SPEC" -o "$TMP/inv" --guids "$TMP/inv.csv" >"$TMP/o" 2>"$TMP/e"
expect_eq "opensm --guids: exit" $? 0
diff -r "$TMP/hw/opensm" "$TMP/inv/opensm" >/dev/null && ok || fail "--guids and --fabric files differ"
sed '/^leaf0,/d' "$TMP/inv.csv" >"$TMP/short.csv"
"$RAILYARD" opensm "$SPEC" -o "$TMP/inv2" --guids "$TMP/short.csv" >"$TMP/o" 2>"$TMP/e"
expect_eq "inventory without leaf0: exit" $? 1
has "inventory without leaf0: message" "$TMP/e" 'gives no GUID for leaf0'
printf 'leaf0,0x1\nleaf0,0xzz\n' >"$TMP/bad.csv"
"$RAILYARD" opensm "$SPEC" -o "$TMP/inv2" --guids "$TMP/bad.csv" >"$TMP/o" 2>"$TMP/e"
has "inventory: bad GUID at file:line:col" "$TMP/e" 'bad\.csv:2:7: error: not a GUID'

# --- --lids: a running OpenSM's LIDs are kept ---------------------------------------
awk 'NF == 3 { n++; printf "%s 0x%04x 0x%04x\n", $1, 1000 + n, 1000 + n }' "$D/guid2lid" >"$TMP/g2l"
"$RAILYARD" opensm "$SPEC" -o "$TMP/lids" --fabric "$TMP/fab.net" --lids "$TMP/g2l" >"$TMP/o" 2>"$TMP/e"
expect_eq "--lids: exit" $? 0
awk 'NF == 3' "$TMP/lids/opensm/plane0/guid2lid" | sort >"$TMP/kept"
sort "$TMP/g2l" | cmp -s - "$TMP/kept" && ok || fail "--lids: guid2lid does not keep the LIDs"
"$RAILYARD" check-routes "$TMP/lids/opensm/plane0" >"$TMP/o" 2>"$TMP/e"
expect_eq "check-routes with kept LIDs" $? 0
head -n 2 "$TMP/g2l" | awk '{ print $1, "0x0005 0x0005" }' >"$TMP/clash"
"$RAILYARD" opensm "$SPEC" -o "$TMP/lids2" --fabric "$TMP/fab.net" --lids "$TMP/clash" >"$TMP/o" 2>"$TMP/e"
expect_eq "--lids with one LID twice: exit" $? 1
has "--lids with one LID twice: message" "$TMP/e" 'LID 0x0005 is kept for two ports'

finish
