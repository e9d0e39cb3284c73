#!/bin/sh
# Two devices with one name: a server named like a switch when only
# naming.node is set, a server like a spine, two servers alike, names alike
# but for case (NetBox and DNS compare them in lower case), a server or
# switch named like a rack tray of a rack-scale node. Refused at
# the naming key's value (file:line:col), exit 1, nothing written; names
# that do not meet pass.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SP="$TOP_SRCDIR/examples/superpod-4su.yaml"

# spec FILE NODE [SPINE]: 16 DGX H100 (2 units) with the given patterns
spec() {
    cat >"$1" <<Y
name: clash
cluster:
  nodes: 16
  node: dgx-h100
  scalable_unit: 8
naming:
  node: "$2"
Y
    [ -n "${3:-}" ] && printf '  spine: "%s"\n' "$3" >>"$1"
    return 0
}

# (a) servers leaf1..leaf16 against the default leaf names leaf0..leaf15:
# the server's key is blamed (no switch pattern is set)
spec "$TMP/a.yaml" 'leaf{n1}'
"$RAILYARD" build "$TMP/a.yaml" -o "$TMP/a.out" >"$TMP/a.log" 2>"$TMP/a.err"
expect_eq "server = leaf: exit" $? 1
grep -q "^$TMP/a.yaml:7:9: error: two devices would be named 'leaf[0-9]*' (a server and a leaf)" \
    "$TMP/a.err" && ok || fail "server = leaf: $(cat "$TMP/a.err")"
[ -e "$TMP/a.out" ] && fail "server = leaf: output written" || ok

# (b) through --set on a bundled example: the --set value
"$RAILYARD" -q validate "$SP" --set 'naming.node="leaf{n}"' >/dev/null 2>"$TMP/b.err"
expect_eq "--set server = leaf: exit" $? 1
grep -q "^--set:1:13: error: two devices would be named 'leaf[0-9]*' (a server and a leaf)" \
    "$TMP/b.err" && ok || fail "--set: $(cat "$TMP/b.err")"

# (c) a server and a spine of one pattern: the spine's key (set later)
spec "$TMP/c.yaml" 'sw{n}' 'sw{n}'
"$RAILYARD" -q validate "$TMP/c.yaml" >/dev/null 2>"$TMP/c.err"
expect_eq "server = spine: exit" $? 1
grep -q "^$TMP/c.yaml:8:10: error: two devices would be named 'sw0' (a server and a spine)" \
    "$TMP/c.err" && ok || fail "server = spine: $(cat "$TMP/c.err")"

# (e) servers Leaf0.. against the default leaves leaf0..: one name in NetBox
spec "$TMP/e.yaml" 'Leaf{n}'
"$RAILYARD" -q validate "$TMP/e.yaml" >/dev/null 2>"$TMP/e.err"
expect_eq "server = leaf but for case: exit" $? 1
grep -q "^$TMP/e.yaml:7:9: error: two devices would be named 'leaf[0-9]*' (a server and a leaf)" \
    "$TMP/e.err" && ok || fail "server = leaf but for case: $(cat "$TMP/e.err")"

# (f) GB300 NVL72 servers or leaves named as the trays of rack R01-01 (or
# hall 1's H01-R01-01) are in NetBox: rack-kind-n, in any case (one plane,
# so that the leaves' names carry no plane prefix)
for k in 'node: "R01-01-power-shelf-{n1}"' 'leaf: "r01-01-MGMT-switch-{n1}"' \
         'node: "H01-R01-01-nvlink-switch-tray-{n1}"'; do
    printf 'name: nvl\ncluster:\n  node: gb300-nvl72\n  nodes: 36\n  planes: 1\nnaming:\n  %s\n' "$k" >"$TMP/f.yaml"
    "$RAILYARD" cabling "$TMP/f.yaml" -o "$TMP/f.out" >/dev/null 2>"$TMP/f.err"
    rc=$?
    if [ "$rc" -eq 1 ] && [ ! -e "$TMP/f.out" ] &&
       grep -q "^$TMP/f.yaml:7:9: error: '[^']*' is a rack tray's name in NetBox" "$TMP/f.err"; then ok; else
        fail "$k: exit $rc: $(cat "$TMP/f.err")"; fi
done

# ... but a tray's name without its rack, or after more than a rack's name, passes
for k in 'node: "power-shelf-{n1}"' 'node: "x-R01-01-power-shelf-{n1}"' 'leaf: "R01-01-shelf-{n1}"'; do
    printf 'name: nvl\ncluster:\n  node: gb300-nvl72\n  nodes: 36\n  planes: 1\nnaming:\n  %s\n' "$k" >"$TMP/g.yaml"
    "$RAILYARD" -q validate "$TMP/g.yaml" >/dev/null 2>"$TMP/g.err"
    expect_eq "$k: exit" "$?:$(cat "$TMP/g.err")" "0:"
done

# (d) patterns whose names do not meet pass
for pat in 'gpu-{n1:03}' 'leafy{n1}'; do
    spec "$TMP/d.yaml" "$pat"
    "$RAILYARD" -q slurm "$TMP/d.yaml" -o "$TMP/d.out" >/dev/null 2>"$TMP/d.err"
    expect_eq "$pat: exit" "$?:$(cat "$TMP/d.err")" "0:"
    rm -rf "$TMP/d.out"
done

finish
