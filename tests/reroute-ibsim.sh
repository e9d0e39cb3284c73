#!/bin/sh
# Tables routed around a failed switch, on the real OpenSM: ibsim loads the
# topology without the failed spine (tests/unit/reroute_emit), "opensm -o -R
# file -U lfts.dump" loads our re-routed tables, and the tables read back
# from the switches (dump_fts) equal lfts.dump entry for entry; OpenSM keeps
# the survivors' LIDs (guid2lid), and check-routes proves what the switches
# hold. Skipped (77) when OpenSM, ibsim or infiniband-diags are missing.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
. "$TOP_SRCDIR/tests/ibsim/lib.sh"

missing=$(ib_tools_missing)
if [ -n "$missing" ]; then
    echo "SKIP: not installed: $missing"
    exit 77
fi
EMIT="$TOP_BUILDDIR/tests/unit/reroute_emit"

# lids FILE: "portguid lid" of a guid2lid file, sorted, hex without zeros
lids() {
    "$PY" -c '
import sys
for l in open(sys.argv[1]):
    t = l.split()
    if len(t) >= 2 and t[0].startswith("0x"):
        print("%x %x" % (int(t[0], 16), int(t[1], 16)))' "$1" | sort
}

spec=$TOP_SRCDIR/tests/data/ib/ro-3tier.yaml
"$EMIT" "$spec" "$TMP/out" switch spine3 >/dev/null
expect_eq "reroute_emit exit" $? 0
d=$TMP/out/opensm/plane0
grep -q '"spine3"' "$d/topology.net" && fail "spine3 still in topology.net" || ok
"$RAILYARD" check-routes --shifts 0 "$d" >"$TMP/cr.txt" 2>&1
expect_eq "check-routes on the re-routed files" $? 0

if ib_sim_start "$d/topology.net" "$TMP/sim"; then
    ok
    ib_opensm "$TMP/file" -l 0 -R file -U "$d/lfts.dump"
    expect_eq "opensm -R file exit" $? 0
    ib_subnet_up "$TMP/file/osm.log" && ok || fail "no SUBNET UP"
    expect_eq "engine" "$(ib_engine "$TMP/file/osm.log")" file
    if ib_fallback "$TMP/file/osm.log" >"$TMP/fallback"; then
        fail "the file engine reports a fallback or error:"
        head -n 5 "$TMP/fallback" | sed 's/^/    /'
    else
        ok
    fi
    lids "$TMP/file/cache/guid2lid" >"$TMP/lids.osm"
    lids "$d/guid2lid" >"$TMP/lids.ours"
    [ -s "$TMP/lids.ours" ] && cmp -s "$TMP/lids.osm" "$TMP/lids.ours" && ok ||
        fail "OpenSM's LIDs differ from guid2lid"
    ib_dump_lfts "$TMP/live.fts" "$TMP/file/cache/guid2lid"
    expect_eq "dump_fts exit" $? 0
    if ib_lft_diff "$d/lfts.dump" "$TMP/live.fts" >"$TMP/lftdiff"; then
        ok
    else
        fail "switch LFTs differ from the re-routed lfts.dump:"
        sed 's/^/    /' "$TMP/lftdiff"
    fi
    # the switches hold 39 tables, as many as the topology's switches
    expect_eq "switch tables read back" "$(grep -c '^Unicast lids' "$TMP/live.fts")" \
        "$(grep -c '^Switch' "$d/topology.net")"
    "$RAILYARD" check-routes --shifts 0 --lfts "$TMP/live.fts" "$d/topology.net" \
        >"$TMP/cr-live.txt" 2>&1
    expect_eq "check-routes on the tables read back" $? 0
    ib_sim_stop
else
    fail "ibsim does not load the topology without spine3"
fi
finish
