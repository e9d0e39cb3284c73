#!/bin/sh
# OpenSM files of a subnet after failures (ry_emit_opensm_failed, driven by
# tests/unit/reroute_emit):
#  - nothing failed: byte for byte what "railyard opensm" writes;
#  - a failed leaf, top switch, switch-to-switch link, NIC link: the failed
#    element is absent from the topology, the tables and guid2lid, every
#    survivor keeps its LID, and check-routes proves the tables (every pair
#    arrives, no loop, shortest, no credit loop), also with --updown;
#  - a leaf left with one up-link, to a spine cut off above it: a pair out
#    of its pod has only a valley path; the default check fails on exactly
#    those pairs, --updown counts them apart and passes;
#  - a whole plane failed: its directory is gone, the other plane's files
#    are those without the failure.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EMIT="$TOP_BUILDDIR/tests/unit/reroute_emit"
D=$TOP_SRCDIR/tests/data/ib


# guid_of DIR NAME: a switch's node GUID from node-name-map
guid_of() {
    sed -n "s/^\(0x[0-9a-f]*\) \"$2\"\$/\1/p" "$1/node-name-map"
}

# ports_to DIR SWITCH PATTERN: IB port numbers of SWITCH's lines in
# topology.net whose comment matches PATTERN
ports_to() {
    awk -v sw="\"$2\"" -v pat="$3" '
        /^Switch/ { in_sw = index($0, "# " sw " ") > 0; next }
        /^$/ { in_sw = 0 }
        in_sw && /^\[/ && $0 ~ pat { p = $1; gsub(/[][]/, "", p); print p }' "$1/topology.net"
}

# checked LABEL SUBNETDIR [--updown]: check-routes must pass
checked() {
    _l=$1 _d=$2; shift 2
    "$RAILYARD" check-routes "$@" --format json --shifts 0 -o "$TMP/cr.json" "$_d" 2>"$TMP/cr.err"
    expect_eq "$_l: check-routes $* exit" $? 0
}

for spec in ro-3tier fat-tree railonly-2tier fat-tree-lmc; do
    ref=$TMP/$spec-ref
    "$RAILYARD" opensm "$D/$spec.yaml" -o "$ref" >/dev/null 2>&1
    expect_eq "$spec: railyard opensm exit" $? 0
    "$EMIT" "$D/$spec.yaml" "$TMP/$spec-none" none >/dev/null
    expect_eq "$spec: reroute_emit none exit" $? 0
    diff -r "$ref/opensm" "$TMP/$spec-none/opensm" >"$TMP/diff" 2>&1 && ok ||
        { fail "$spec: files with nothing failed differ from railyard opensm"; head -5 "$TMP/diff"; }

    sub=$(ls "$ref/opensm" | head -n 1)
    r=$ref/opensm/$sub
    leaf=$(sed -n 's/^0x[0-9a-f]* "\(.*\)"$/\1/p' "$r/node-name-map" | sed -n 2p)
    top=$(sed -n 's/^0x[0-9a-f]* \(.*\)$/\1/p' "$r/root_guids.conf" | tail -n 1)
    up=$(ports_to "$r" "$leaf" '"S-' | head -n 1)
    nic=$(ports_to "$r" "$leaf" '"H-' | tail -n 1)
    [ -n "$leaf" ] && [ -n "$top" ] && [ -n "$up" ] && [ -n "$nic" ] && ok ||
        fail "$spec: no leaf/top/ports found ($leaf $top $up $nic)"
    nca=$(grep -c '^Ca' "$r/topology.net")
    leaf_cas=$(ports_to "$r" "$leaf" '"H-' | wc -l)

    for what in "switch $leaf" "switch $top" "link $leaf $up" "link $leaf $nic"; do
        label="$spec, $what"
        out=$TMP/$spec-$(echo "$what" | tr ' ' _)
        "$EMIT" "$D/$spec.yaml" "$out" $what >/dev/null
        expect_eq "$label: exit" $? 0
        d=$out/opensm/$sub
        checked "$label" "$d"
        # every pair of the CAs left arrives (computed from the counts)
        left=$nca
        case $what in
        "switch $leaf") left=$((nca - leaf_cas)) ;;
        "link $leaf $nic") left=$((nca - 1)) ;;
        esac
        lmc=$(sed -n 's/^lmc \([0-9]*\)/\1/p' "$r/opensm.conf")
        want=$((left * (left - 1) * (1 << lmc)))
        expect_eq "$label: routes delivered" "$(json_get "$TMP/cr.json" reachable delivered)" "$want"
        checked "$label" "$d" --updown
        expect_eq "$label: no_updown_path" "$(json_get "$TMP/cr.json" reachable no_updown_path)" 0
        expect_eq "$label: CAs in topology.net" "$(grep -c '^Ca' "$d/topology.net")" "$left"
        case $what in
        switch*)
            g=$(guid_of "$r" "${what#switch }")
            grep -qi "${g#0x}" "$d/topology.net" "$d/lfts.dump" "$d/guid2lid" "$d/root_guids.conf" &&
                fail "$label: the failed switch's GUID is still in the files" || ok
            expect_eq "$label: switches" "$(grep -c '^Switch' "$d/topology.net")" \
                "$(( $(grep -c '^Switch' "$r/topology.net") - 1 ))" ;;
        link*)
            p=${what##* }
            expect_eq "$label: the cable on port $p" "$(ports_to "$d" "$leaf" . | grep -cx "$p")" 0 ;;
        esac
        # survivors keep their LIDs
        sort "$r/guid2lid" >"$TMP/a"
        sort "$d/guid2lid" >"$TMP/b"
        expect_eq "$label: guid2lid lines not in the original" "$(comm -13 "$TMP/a" "$TMP/b" | grep -c .)" 0
    done
done

# A valley: leaf2 of ro-3tier keeps only its up-link to spine0, which loses
# every up-link. leaf2's CAs then reach only their pod, by up-down paths.
r=$TMP/ro-3tier-ref/opensm/plane0
set --
for p in $(ports_to "$r" leaf2 '"S-' | tail -n +2); do set -- "$@" link leaf2 "$p"; done
first=$(ports_to "$r" leaf2 '"S-' | head -n 1)
spine=$(awk -v p="[$first]" '/^Switch/ && /"leaf2"/ { f = 1 } f && $1 == p { print; exit }' "$r/topology.net" |
        sed 's/.*# "\([^"]*\)".*/\1/')
for p in $(ports_to "$r" "$spine" '"S-' ); do
    # the spine's up-links lead to switches that are not leaves
    ports_to "$r" "$spine" '"leaf' | grep -qx "$p" || set -- "$@" link "$spine" "$p"
done
"$EMIT" "$D/ro-3tier.yaml" "$TMP/valley" "$@" >/dev/null
expect_eq "valley: exit" $? 0
d=$TMP/valley/opensm/plane0
# the pod: leaves below the spine; pairs without an up-down path are
# leaf2's CAs to and from every CA outside the pod
pod=0
for l in $(ports_to "$r" "$spine" '"leaf' ); do pod=$((pod + 1)); done
per=$(ports_to "$r" leaf2 '"H-' | wc -l)
nca=$(grep -c '^Ca' "$r/topology.net")
want=$((2 * per * (nca - pod * per)))
[ "$want" -gt 0 ] && ok || fail "valley: no pair cut ($spine, pod $pod)"
"$RAILYARD" check-routes --format json --shifts 0 -o "$TMP/cr.json" "$d" 2>/dev/null
expect_eq "valley: default check-routes exit" $? 5
expect_eq "valley: pairs stopped" "$(json_get "$TMP/cr.json" reachable stopped)" "$want"
checked valley "$d" --updown
expect_eq "valley: --updown pairs without an up-down path" \
    "$(json_get "$TMP/cr.json" reachable no_updown_path)" "$want"
expect_eq "valley: --updown stopped" "$(json_get "$TMP/cr.json" reachable stopped)" 0

# A whole plane
ref=$TMP/two-ref
"$RAILYARD" opensm "$D/two-plane.yaml" -o "$ref" >/dev/null 2>&1
planes=$(ls "$ref/opensm" | wc -l)
[ "$planes" -ge 2 ] && ok || fail "two-plane: $planes subnets"
"$EMIT" "$D/two-plane.yaml" "$TMP/two-p1" plane 1 >/dev/null
expect_eq "plane 1 failed: exit" $? 0
expect_eq "plane 1 failed: subnets left" "$(ls "$TMP/two-p1/opensm" | wc -l)" $((planes - 1))
p0=$(ls "$ref/opensm" | head -n 1)
diff -r "$ref/opensm/$p0" "$TMP/two-p1/opensm/$p0" >/dev/null && ok ||
    fail "plane 1 failed: $p0's files changed"
checked "plane 1 failed" "$TMP/two-p1/opensm/$p0"
finish
