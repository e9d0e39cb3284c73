#!/bin/sh
# verify fails closed, and says why: hosts named otherwise than the plan
# (one message with the naming.node value that reads them, checked by
# verifying again with it), nothing of the plan in the file, a device
# identity twice, a switch of another plane (verify and opensm --as-found),
# a cable joining two subnets (--as-found); --guids refuses a device or a
# GUID twice; a topology file costs memory by its size, not by the port
# counts its headers declare (peak RSS against a bound from the file size).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SPEC=$TOP_SRCDIR/tests/data/ib/ro-2tier-h100.yaml
TWO=$TOP_SRCDIR/tests/data/ib/two-plane.yaml

has() {   # has WHAT FILE PATTERN
    grep -qE -- "$3" "$2" && ok || { fail "$1: no /$3/ in $2"; sed 's/^/    /' "$2" | head -20; }
}
# refused WHAT WANT_EXIT GOT_EXIT: the run failed as wanted and printed no report
refused() {
    expect_eq "$1: exit" "$3" "$2"
    [ -s "$TMP/o" ] && fail "$1: a report despite the error" || ok
    no_sanitizer "$TMP/e"
}

"$RAILYARD" opensm "$SPEC" -o "$TMP/plan" >/dev/null 2>&1 || fail "opensm on the plan"
NET=$TMP/plan/opensm/plane0/topology.net
cas=$(grep -c '^Ca' "$NET")
[ "$cas" -gt 100 ] && ok || fail "the plan has only $cas CAs"

# --- hosts named dgx0001.. where the plan says node001.. ---------------------------
"$PY" - "$NET" "$TMP/dgx.net" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r'"node(\d+) mlx5', lambda m: '"dgx%04d mlx5' % int(m.group(1)), t)
# the switches carry numbered names of their own: ib-l01:MQM9700, ib-s01:MQM9700
t = re.sub(r'"leaf(\d+)"', lambda m: '"ib-l%02d:MQM9700"' % (int(m.group(1)) + 1), t)
t = re.sub(r'"spine(\d+)"', lambda m: '"ib-s%02d:MQM9700"' % (int(m.group(1)) + 1), t)
open(sys.argv[2], 'w').write(t)
EOF
"$RAILYARD" verify "$SPEC" "$TMP/dgx.net" >"$TMP/o" 2>"$TMP/e"
refused "foreign host names" 2 $?
first=$(grep -n '^Ca' "$TMP/dgx.net" | head -1 | cut -d: -f1)
has "foreign host names: where and how many" "$TMP/e" \
    "dgx\.net:$first:1: error: $cas of the $cas CAs found are named as no NIC of the plan"
has "foreign host names: the key" "$TMP/e" 'set naming\.node: "dgx\{n1:04\}" in the spec'
has "foreign host names: an example" "$TMP/e" \
    "then \"dgx0001 mlx5_0\" is the plan's \"node001 mlx5_0\" \\($cas of the $cas CAs would match\\)"
# a pattern the spec refuses (':' is no host-name character) is not proposed
has "foreign switch names: the leaves" "$TMP/e" \
    'leaves are named like "ib-l01:MQM9700", which no naming\.leaf the spec accepts names \("ib-l\{n1:02\}:MQM9700" is refused\): they are placed by their cables'
has "foreign switch names: the spines" "$TMP/e" 'no naming\.spine the spec accepts names \("ib-s\{n1:02\}:MQM9700" is refused\)'
"$RAILYARD" validate "$SPEC" --set 'naming.leaf=ib-l{n1:02}:MQM9700' >/dev/null 2>&1
expect_eq "the spec refuses the leaf pattern the hint did not propose" $? 1
lines=$(wc -l <"$TMP/e")
[ "$lines" -le 5 ] && ok || fail "foreign host names: $lines lines on stderr, want one message"
grep -q 'unplug' "$TMP/e" && fail "foreign host names: per-device lines" || ok
# the key it names makes the plan read the fabric: the switches, named
# otherwise still, are placed by their cables
"$RAILYARD" verify "$SPEC" "$TMP/dgx.net" --set 'naming.node=dgx{n1:04}' >"$TMP/o" 2>"$TMP/e"
expect_eq "with the naming.node it gives: exit" $? 0
has "with the naming.node it gives: all as planned" "$TMP/o" \
    "^$(awk '/^\[/ { n++ } END { print n / 2 }' "$NET") of $(awk '/^\[/ { n++ } END { print n / 2 }' "$NET") planned cables as planned; 0 findings"
has "switches placed by their cables" "$TMP/o" 'switches: 24 of 24 discovered placed'

# switch names a spec can take: proposed, and the values proposed place them
sed -E 's/:MQM9700"/"/' "$TMP/dgx.net" >"$TMP/dgx2.net"
"$RAILYARD" verify "$SPEC" "$TMP/dgx2.net" >"$TMP/o" 2>"$TMP/e"
refused "foreign host and switch names" 2 $?
has "switch names a spec takes: the leaves" "$TMP/e" 'naming\.leaf: "ib-l\{n1:02\}" would name 16 of them'
has "switch names a spec takes: the spines" "$TMP/e" 'naming\.spine: "ib-s\{n1:02\}" would name 8 of them'
"$RAILYARD" verify "$SPEC" "$TMP/dgx2.net" --set 'naming.node=dgx{n1:04}' \
    --set 'naming.leaf=ib-l{n1:02}' --set 'naming.spine=ib-s{n1:02}' --json >"$TMP/o" 2>"$TMP/e"
expect_eq "with the values proposed: exit" $? 0
expect_eq "with the values proposed: every cable as planned" \
    "$("$PY" -c 'import json,sys; v=json.load(open(sys.argv[1]))["verified"]; print(v["cables"] == v["of_planned"], v["switches_placed"])' "$TMP/o")" "True 24"

# --- some hosts renamed: a summary names the cause, the hint only what the spec takes ----
"$PY" - "$NET" "$TMP/part.net" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
# hosts 1 to 5 of 16 renamed dgx0001..dgx0005: by their position
t = re.sub(r'"node(00[1-5]) mlx5', lambda m: '"dgx%04d mlx5' % int(m.group(1)), t)
open(sys.argv[2], 'w').write(t)
EOF
"$RAILYARD" verify "$SPEC" "$TMP/part.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "some hosts renamed: exit (findings)" $? 1
renamed=$(grep -c '^Ca.*"dgx000[1-5] mlx5' "$TMP/part.net")
cables=$(awk '/^\[/ { n++ } END { print n / 2 }' "$NET")
has "some hosts renamed: the counts first" "$TMP/o" \
    "^$((cables - renamed)) of $cables planned cables as planned; $((2 * renamed)) findings: $renamed missing, 0 unexpected, 0 miswired, 0 degraded, $renamed unknown-device"
has "some hosts renamed: the cause" "$TMP/o" \
    "^  renamed hosts: 5 hosts \($renamed CAs\) carry names the plan does not give, on the cables of its hosts \(\"dgx0001\" stands where the plan has \"node001\"\): $((2 * renamed)) findings"
has "some hosts renamed: the pattern, checked" "$TMP/o" 'or, to name every host so, set naming\.node: "dgx\{n1:04\}" and rename the other 11'
# the cause comes before the rows, on one screen
cause_line=$(grep -n 'renamed hosts:' "$TMP/o" | cut -d: -f1)
[ "$cause_line" -le 6 ] && ok || fail "the cause on line $cause_line"
has "some hosts renamed: a row says where" "$TMP/o" \
    'fix:     dgx0001 mlx5_0 stands where the plan has node001 mlx5_0 \(its cable, on leaf'
# a pattern the spec refuses is not proposed (naming.node is a host name: no ':')
sed -E 's/"dgx(000[1-5]) mlx5/"dgx:\1 mlx5/' "$TMP/part.net" >"$TMP/part2.net"
"$RAILYARD" verify "$SPEC" "$TMP/part2.net" >"$TMP/o" 2>"$TMP/e"
has "some hosts renamed, a name no spec takes: the cause" "$TMP/o" 'renamed hosts: 5 hosts'
grep -q 'naming\.node' "$TMP/o" && fail "a naming.node the spec refuses was proposed: $(grep naming "$TMP/o")" || ok

# two leaves' names swapped: the cause is the names, not 80 cables
sed -e 's/"leaf0"/"TMPX"/g; s/"leaf1"/"leaf0"/g; s/"TMPX"/"leaf1"/g' "$NET" >"$TMP/swap.net"
"$RAILYARD" verify "$SPEC" "$TMP/swap.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "two leaves' names swapped: exit" $? 1
has "two leaves' names swapped: the cause" "$TMP/o" \
    '^  names swapped: 2 switches are cabled as another planned switch than their names say \(the one named leaf1 is cabled as leaf0\)'
# without_device KIND NAME OUT: the plan's fabric with the device whose
# record starts KIND and holds NAME left out, and every cable to it
without_device() {
    "$PY" - "$NET" "$3" "$1" "$2" <<'EOF'
import sys
kind, name = sys.argv[3], sys.argv[4]
blocks = open(sys.argv[1]).read().split('\n\n')
out = [b for b in blocks if not any(l.startswith(kind) and name in l for l in b.split('\n'))]
out = ['\n'.join(l for l in b.split('\n') if name not in l) for b in out]
open(sys.argv[2], 'w').write('\n\n'.join(out))
EOF
}
# a spine not in the file: its cables, counted from the file, are the cause
without_device Switch '"spine3"' "$TMP/nospine.net"
gone=$(grep -c '"spine3"' "$NET")
gone=$((gone - 1))    # its own header
"$RAILYARD" verify "$SPEC" "$TMP/nospine.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "a spine not found: exit" $? 1
has "a spine not found: the cause" "$TMP/o" "^  switches not found: spine3: its $gone planned cables are missing"

# a host of which nothing is in the file (off): named as such
without_device Ca '"node003 ' "$TMP/nohost.net"
n3=$(grep -c '^Ca.*"node003 ' "$NET")
"$RAILYARD" verify "$SPEC" "$TMP/nohost.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "a host off: exit" $? 1
has "a host off: the cause" "$TMP/o" "^  hosts not seen: 1 host \(node003\) with none of its $n3 cables found: powered off"

# hosts whose rdma service never ran keep the NIC's default description
sed -E 's/"node[0-9]+ mlx5_[0-9]+"/"MT4129 ConnectX7 Mellanox Technologies"/' "$NET" >"$TMP/nodesc.net"
"$RAILYARD" verify "$SPEC" "$TMP/nodesc.net" >"$TMP/o" 2>"$TMP/e"
refused "default NIC descriptions" 2 $?
has "default NIC descriptions: why" "$TMP/e" 'name no numbered host.*set them to "HOST NIC"'

# --- nothing of the plan ---------------------------------------------------------------
printf 'Switch 254 "S-1"\n' >"$TMP/one.net"
for fmt in text json; do
    "$RAILYARD" verify "$SPEC" "$TMP/one.net" --format $fmt >"$TMP/o" 2>"$TMP/e"
    refused "nothing of the plan ($fmt)" 2 $?
    has "nothing of the plan ($fmt): message" "$TMP/e" \
        'one\.net: nothing of the plan is in the file: 0 of 1 switches and 0 of 0 CAs placed, 0 planned cables compared'
done
# --json says how much was verified
"$RAILYARD" verify "$SPEC" "$NET" --json >"$TMP/o" 2>"$TMP/e"
expect_eq "clean fabric, json: exit" $? 0
want_cables=$(awk '/^\[/ { n++ } END { print n / 2 }' "$NET")
expect_eq "json verified" "$("$PY" -c 'import json,sys; v=json.load(open(sys.argv[1]))["verified"]; print(v["cables"], v["of_planned"], v["subnets"], v["switches_placed"], v["switches_found"], v["nics_placed"], v["nics_found"])' "$TMP/o")" \
    "$want_cables $want_cables ['plane0'] $(grep -c '^Switch' "$NET") $(grep -c '^Switch' "$NET") $cas $cas"

# --- one identity twice ----------------------------------------------------------------
l2=$(grep -n '^Ca.*"node002 mlx5_0"' "$NET" | cut -d: -f1)
l1=$(grep -n '^Ca.*"node001 mlx5_0"' "$NET" | cut -d: -f1)
sed 's/^\(Ca.*\)"node002 mlx5_0"/\1"node001 mlx5_0"/' "$NET" >"$TMP/dupca.net"
"$RAILYARD" verify "$SPEC" "$TMP/dupca.net" >"$TMP/o" 2>"$TMP/e"
refused "two CAs described alike" 2 $?
lo=$((l1 < l2 ? l1 : l2)); hi=$((l1 < l2 ? l2 : l1))
has "two CAs described alike: both places" "$TMP/e" \
    "dupca\.net:$hi:1: error: CA \"H-[0-9a-f]+\" is described as \"node001 mlx5_0\", and so is CA \"H-[0-9a-f]+\" \\(.*dupca\.net:$lo:1\\)"
sed 's/^\(Switch.*\)"leaf1"/\1"leaf0"/' "$NET" >"$TMP/dupsw.net"
"$RAILYARD" verify "$SPEC" "$TMP/dupsw.net" >"$TMP/o" 2>"$TMP/e"
refused "two switches described alike" 2 $?
has "two switches described alike: message" "$TMP/e" \
    'dupsw\.net:[0-9]+:1: error: switch "S-[0-9a-f]+" is described as "leaf0", and so is switch'

# --- a switch of another plane ---------------------------------------------------------------
"$RAILYARD" opensm "$TWO" -o "$TMP/two" >/dev/null 2>&1 || fail "opensm on two-plane"
P0=$TMP/two/opensm/plane0/topology.net P1=$TMP/two/opensm/plane1/topology.net
sed 's/"p1-spine3"/"p0-spine3"/' "$P1" >"$TMP/x.net"
at=$(grep -n '^Switch.*"p0-spine3"' "$TMP/x.net" | cut -d: -f1)
"$RAILYARD" verify "$TWO" "$TMP/x.net" >"$TMP/o" 2>"$TMP/e"
refused "a plane-0 spine in plane 1's file" 2 $?
"$RAILYARD" opensm "$TWO" --fabric "$TMP/x.net" --as-found -o "$TMP/o2" >"$TMP/o" 2>"$TMP/e"
refused "--as-found, a plane-0 spine in plane 1's file" 1 $?
[ -e "$TMP/o2" ] && fail "--as-found wrote files despite the error" || ok
has "--as-found, a plane-0 spine: where, what, where it belongs" "$TMP/e" \
    "x\.net:$at:1: error: switch \"S-[0-9a-f]+\" is described as \"p0-spine3\", the plan's p0-spine3 of plane 0, but 16 of its 16 cables to devices of the plan lead to another subnet \\(port 1 to p1-leaf0, plane 1\\)"
grep -q 'internal error' "$TMP/e" && fail "--as-found: internal error" || ok

# one file holding both planes, one uplink of each crossed to the other plane
"$PY" - "$P0" "$P1" "$TMP/both.net" <<'EOF'
import re, sys
a, b, out = sys.argv[1], sys.argv[2], sys.argv[3]
# LIDs are per subnet: one file of two subnets has them twice, so none
t = re.sub(r' lid \d+', '', open(a).read() + '\n' + open(b).read())
def id_of(name):
    return re.search(r'Switch\t\d+ "(S-[0-9a-f]+)"\t\t# "%s"' % name, t).group(1)
l0, s0, l1, s1 = id_of('p0-leaf0'), id_of('p0-spine3'), id_of('p1-leaf0'), id_of('p1-spine3')
lines = t.split('\n')
cur = None
for i, l in enumerate(lines):
    m = re.match(r'Switch\t\d+ "(S-[0-9a-f]+)"', l)
    if m:
        cur = m.group(1)
        continue
    # leaf0 of each plane: its spine3 link goes to the other plane's spine3, and back
    for me, peer, new in ((l0, s0, s1), (l1, s1, s0), (s0, l0, l1), (s1, l1, l0)):
        if cur == me and l.startswith('[') and '"%s"' % peer in l:
            lines[i] = l.replace('"%s"' % peer, '"%s"' % new)
open(out, 'w').write('\n'.join(lines))
EOF
"$RAILYARD" verify "$TWO" "$TMP/both.net" >"$TMP/o" 2>"$TMP/e"
expect_eq "two planes crossed: verify finds it (exit)" $? 1
has "two planes crossed: two miswired uplinks" "$TMP/o" ' 2 miswired'
"$RAILYARD" opensm "$TWO" --fabric "$TMP/both.net" --as-found -o "$TMP/o3" >"$TMP/o" 2>"$TMP/e"
refused "--as-found, a cable across planes" 1 $?
has "--as-found, a cable across planes: message" "$TMP/e" \
    'both\.net:[0-9]+: the cable from p[01]-leaf0 port [0-9]+ \(plane [01]\) to p[01]-spine3 port [0-9]+ \(plane [01]\) joins two subnets of the plan'
grep -q 'internal error' "$TMP/e" && fail "--as-found across planes: internal error" || ok

# --- --guids: one row per device, one device per GUID ------------------------------------------
"$RAILYARD" opensm "$SPEC" -o "$TMP/hw" --fabric "$NET" >/dev/null 2>&1 || fail "opensm --fabric"
D=$TMP/hw/opensm/plane0
{
    echo "host,nic,port_guid,node_guid"
    grep -v mlx5 "$D/node-name-map" | sed -n 's/^\(0x[0-9a-f]*\) "\([^"]*\)"$/\2,\1/p'
    grep -v '^#' "$D/cn_guids.conf" | while read -r port host nic; do
        node=$(grep "\"$host $nic\"" "$D/node-name-map" | cut -d' ' -f1)
        echo "$host,$nic,$port,$node"
    done
} >"$TMP/inv.csv"
"$RAILYARD" opensm "$SPEC" -o "$TMP/inv" --guids "$TMP/inv.csv" >"$TMP/o" 2>"$TMP/e"
expect_eq "--guids, a good inventory: exit" $? 0
# leaf1 given leaf0's GUID
g0=$(grep '^leaf0,' "$TMP/inv.csv" | cut -d, -f2)
sed "s/^leaf1,.*/leaf1,$g0/" "$TMP/inv.csv" >"$TMP/dupg.csv"
ln=$(grep -n '^leaf1,' "$TMP/dupg.csv" | cut -d: -f1); l0=$(grep -n '^leaf0,' "$TMP/dupg.csv" | cut -d: -f1)
"$RAILYARD" opensm "$SPEC" -o "$TMP/g1" --guids "$TMP/dupg.csv" >"$TMP/o" 2>"$TMP/e"
refused "--guids, one GUID on two switches" 1 $?
[ -e "$TMP/g1" ] && fail "--guids, one GUID twice: files written" || ok
has "--guids, one GUID twice: file:line" "$TMP/e" \
    "dupg\.csv:$ln:1: error: GUID $g0 of switch 'leaf1' is also a GUID of switch 'leaf0' \\(line $l0\\)"
# node002's NIC given node001's port GUID
p1=$(grep '^node001,mlx5_0,' "$TMP/inv.csv" | cut -d, -f3)
sed "s/^\(node002,mlx5_0,\)[^,]*,/\1$p1,/" "$TMP/inv.csv" >"$TMP/dupp.csv"
"$RAILYARD" opensm "$SPEC" -o "$TMP/g2" --guids "$TMP/dupp.csv" >"$TMP/o" 2>"$TMP/e"
refused "--guids, one port GUID on two NICs" 1 $?
has "--guids, one port GUID twice: message" "$TMP/e" \
    "dupp\.csv:[0-9]+:1: error: GUID $p1 of NIC 'node00[12] mlx5_0' is also a GUID of NIC 'node00[12] mlx5_0'"
# a row given twice
{ cat "$TMP/inv.csv"; grep '^node003,mlx5_0,' "$TMP/inv.csv"; } >"$TMP/duprow.csv"
n=$(wc -l <"$TMP/duprow.csv"); f3=$(grep -n '^node003,mlx5_0,' "$TMP/inv.csv" | cut -d: -f1)
"$RAILYARD" opensm "$SPEC" -o "$TMP/g3" --guids "$TMP/duprow.csv" >"$TMP/o" 2>"$TMP/e"
refused "--guids, a row twice" 1 $?
has "--guids, a row twice: file:line" "$TMP/e" \
    "duprow\.csv:$n:1: error: NIC 'node003 mlx5_0' is listed twice \\(first on line $f3\\)"
# the node GUID of one adapter on two ports of one host is no error
a=$(grep '^node004,mlx5_0,' "$TMP/inv.csv" | cut -d, -f4)
sed "s/^\(node004,mlx5_3,[^,]*,\).*/\1$a/" "$TMP/inv.csv" >"$TMP/dual.csv"
"$RAILYARD" opensm "$SPEC" -o "$TMP/g4" --guids "$TMP/dual.csv" >"$TMP/o" 2>"$TMP/e"
expect_eq "--guids, one adapter's node GUID on two ports of a host: exit" $? 0

# --- port lines in any order: the same fabric ----------------------------------------------------
"$PY" - "$NET" "$TMP/rev.net" <<'EOF'
import sys
out, block = [], []
def flush():
    out.extend(reversed(block)); block.clear()
for l in open(sys.argv[1]).read().split('\n'):
    if l.startswith('['):
        block.append(l)
    else:
        flush(); out.append(l)
flush()
open(sys.argv[2], 'w').write('\n'.join(out))
EOF
"$RAILYARD" verify "$SPEC" "$TMP/rev.net" --json >"$TMP/rev.json" 2>"$TMP/e"
expect_eq "port lines reversed: exit" $? 0
"$RAILYARD" verify "$SPEC" "$NET" --json >"$TMP/fwd.json" 2>"$TMP/e"
cmp -s "$TMP/rev.json" "$TMP/fwd.json" && ok || fail "port lines reversed: another report"
"$RAILYARD" check-routes "$TMP/plan/opensm/plane0" >/dev/null 2>&1
expect_eq "check-routes, lines in order" $? 0
cp "$TMP/rev.net" "$TMP/plan/opensm/plane0/topology.net"
"$RAILYARD" check-routes "$TMP/plan/opensm/plane0" >"$TMP/o" 2>"$TMP/e"
expect_eq "check-routes, port lines reversed: exit" $? 0

# --- memory: by the file's size, not by the ports its headers declare -------------------------------
# peak RSS (GNU time) at most 64 bytes per byte of the file plus 50 MB; a
# header declaring 254 ports once took 255 port records (550 times the file)
rss_check() {   # rss_check WHAT FILE CMD...
    what=$1 file=$2; shift 2
    size=$(wc -c <"$file")
    bound=$((64 * size / 1024 + 50 * 1024))
    if ldd "$RAILYARD" 2>/dev/null | grep -q libasan; then
        /usr/bin/time -v "$@" >"$TMP/o" 2>"$TMP/e"; rc=$?
    else
        # an address-space cap keeps a regression from taking the machine
        (ulimit -v $((4 * bound + 200 * 1024)) && exec /usr/bin/time -v "$@") >"$TMP/o" 2>"$TMP/e"; rc=$?
    fi
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$TMP/e")
    [ -n "$kb" ] && [ "$kb" -le "$bound" ] && ok \
        || fail "$what: peak RSS ${kb:-?} kB for a $size-byte file, bound $bound kB"
}
"$PY" -c 'import sys; sys.stdout.writelines("Switch 254 \"S-%x\"\n" % i for i in range(400000))' >"$TMP/h.net"
rss_check "400,000 headers" "$TMP/h.net" "$RAILYARD" verify "$SPEC" "$TMP/h.net"
expect_eq "400,000 headers: exit (nothing of the plan)" $rc 2
has "400,000 headers: message" "$TMP/e" 'nothing of the plan is in the file: 0 of 400,000 switches'
# pairs of switches linked on their last port only
"$PY" -c '
import sys
w = sys.stdout.write
for i in range(100000):
    w("Switch 254 \"A%x\"\n[254] \"B%x\"[254]\n\nSwitch 254 \"B%x\"\n[254] \"A%x\"[254]\n\n" % (i, i, i, i))
' >"$TMP/far.net"
rss_check "links on port 254 only" "$TMP/far.net" "$RAILYARD" verify "$SPEC" "$TMP/far.net"
expect_eq "links on port 254 only: exit" $rc 2

finish
