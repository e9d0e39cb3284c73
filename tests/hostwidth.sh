#!/bin/sh
# Host names of one width: the default naming.node numbers hosts with as many
# digits as the server count needs, at least 3 (node001..node999,
# node0001..node1000); a pattern written in the spec is kept as written.
# The names are read back from cabling.csv and checked against a list made
# here from the count.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

# hosts NAME NODES [--set ...]: the host names of cabling.csv, sorted, one a line
hosts() {
    n=$1; nodes=$2; shift 2
    if "$RAILYARD" --quiet --set cluster.nodes="$nodes" "$@" cabling "$EX/superpod-4su.yaml" \
        -o "$TMP/$n" >"$TMP/$n.out" 2>&1; then
        ok
    else
        fail "$n: cabling failed"; sed 's/^/    /' "$TMP/$n.out" | head
    fi
    "$PY" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
names = {r["a_device"] for r in rows if r["tier"] == "1"}
print("\n".join(sorted(names)))' "$TMP/$n/cabling/cabling.csv" >"$TMP/$n.got"
}

# want NODES WIDTH PREFIX: node<PREFIX>1..node<NODES>, zero-padded to WIDTH
want() {
    "$PY" -c 'import sys
n, w = int(sys.argv[1]), int(sys.argv[2])
print("\n".join(sorted("node%0*d" % (w, i) for i in range(1, n + 1))))' "$1" "$2"
}

for c in 999:3 1000:4 1024:4; do
    nodes=${c%:*} width=${c#*:}
    hosts "n$nodes" "$nodes"
    want "$nodes" "$width" >"$TMP/n$nodes.want"
    if cmp -s "$TMP/n$nodes.got" "$TMP/n$nodes.want"; then ok; else
        fail "$nodes nodes: host names are not node$(printf '%0*d' "$width" 1)..node$nodes"
        diff "$TMP/n$nodes.want" "$TMP/n$nodes.got" | head -5
    fi
    # one width: every name as long as the first
    expect_eq "$nodes nodes: name lengths" "$(awk '{print length($0)}' "$TMP/n$nodes.got" | sort -u)" \
        "$((4 + width))"
done
expect_eq "1000 nodes: the first and last" \
    "$(sed -n '1p;$p' "$TMP/n1000.got" | tr '\n' ' ')" "node0001 node1000 "

# a pattern given in the spec is used as written, even where widths then differ
hosts user 1000 --set 'naming.node=node{n1:03}'
expect_eq "user pattern kept" "$(grep -cE '^node([0-9]{3}|1000)$' "$TMP/user.got")" 1000
expect_eq "user pattern: node999 and node1000" \
    "$(grep -cxE 'node001|node999|node1000' "$TMP/user.got")" 3

# the man page says what the default is
grep -q 'naming.node.*default node{n1:0W}, W = the digits of the server count, at least 3' \
    "$TOP_SRCDIR/doc/railyard-spec.5" && ok || fail "railyard-spec(5): naming.node's default"
# validate's host-width note: the width the default names take, and the
# size that would widen them, unless a growth target fixes them
hw() {
    "$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" "$@" --format json 2>/dev/null |
        "$PY" -c 'import json, sys
print("|".join(f["message"] for f in json.load(sys.stdin)["checks"]["findings"] if f["check"] == "host-width"))'
}
case $(hw) in
*"3 digits (node001..); a phase grown past 999 servers renames every server"*) ok ;;
*) fail "host-width at 127 servers: $(hw)" ;;
esac
case $(hw --set cluster.nodes=1024) in
*"4 digits (node0001..); a phase grown past 9,999 servers"*) ok ;;
*) fail "host-width at 1,024 servers: $(hw --set cluster.nodes=1024)" ;;
esac
expect_eq "host-width with a growth target" "$(hw --set cluster.nodes=64 --set growth.target_nodes=1024)" ""
expect_eq "host-width with naming.node" "$(hw --set 'naming.node=gpu{n1:05}')" ""
"$RAILYARD" init --gpus 1016 --node dgx-h100 | grep -q '^#   target_nodes: 1024 '
expect_eq "init: the starter's commented growth target" $? 0
finish
