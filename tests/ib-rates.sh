#!/bin/sh
# The rate words of topology.net are those ibnetdiscover prints for the
# links: WIDTHxSPEED with the width in lanes and the lane speed's name
# (rdma-core v44.0, infiniband-diags/ibnetdiscover.c, dump_linkwidth_compat:
# 1x 4x 8x 12x 2x; dump_linkspeedext_compat: SDR DDR QDR FDR10 FDR EDR HDR
# NDR, XDR added in v49.0). A split NDR200 port is 2 lanes of NDR ("2xNDR"),
# an HDR100 port 2 lanes of HDR; a diff against a discovered fabric then
# flags only links that really differ. Then, on the real ibsim 0.10 and
# infiniband-diags 44 (Debian):
#  - ibsim 0.10 cannot parse NDR and brings those links up at SDR, which the
#    file's header says;
#  - a switch of more than 128 ports loaded with railyard's tables reads
#    back equal to lfts.dump, ports 128 and up included (dump_fts 44 drops
#    them as "illegal port"; tests/ibsim/lib.sh reads such switches with
#    ibroute).
. "${TOP_SRCDIR:-.}/tests/lib.sh"

# rates SPEC...: every link's rate word of every topology.net, counted
rates() {
    "$RAILYARD" opensm "$@" -o "$TMP/r" >/dev/null 2>"$TMP/r.err" || { cat "$TMP/r.err"; return 1; }
    # every port line ([N]...) ends in one rate word
    cat "$TMP"/r/opensm/*/topology.net | grep '^\[' | sed 's/.* //' | sort | uniq -c | sed 's/^ *//'
    rm -rf "$TMP/r"
}
# links SPEC: port lines of every topology.net (each link listed at both ends)
links() {
    "$RAILYARD" opensm "$@" -o "$TMP/l" >/dev/null 2>&1 || return 1
    cat "$TMP"/l/opensm/*/topology.net | grep -c '^\['
    rm -rf "$TMP/l"
}

S=$TOP_SRCDIR/tests/data/port128/wide136.yaml
B=$TOP_SRCDIR/examples/b200-2plane.yaml
# b200-2plane: qm9700-ndr200, NDR200 NICs
n=$(links "$B")
expect_eq "b200-2plane: every link at 2xNDR" "$(rates "$B")" "$n 2xNDR"
expect_eq "qm9700 at 400G: 4xNDR" "$(rates "$B" --set fabric.switch=qm9700 --set cluster.node.nic_speed=400G)" \
    "$(links "$B" --set fabric.switch=qm9700 --set cluster.node.nic_speed=400G) 4xNDR"
expect_eq "qm8700: 4xHDR" "$(rates "$B" --set fabric.switch=qm8700)" "$(links "$B" --set fabric.switch=qm8700) 4xHDR"
expect_eq "qm8700-hdr100: 2xHDR" "$(rates "$B" --set fabric.switch=qm8700-hdr100 --set cluster.node.nic_speed=100G)" \
    "$(links "$B" --set fabric.switch=qm8700-hdr100 --set cluster.node.nic_speed=100G) 2xHDR"
expect_eq "q3400: 4xXDR" "$(rates "$B" --set fabric.switch=q3400 --set cluster.node.nic_speed=800G)" \
    "$(links "$B" --set fabric.switch=q3400 --set cluster.node.nic_speed=800G) 4xXDR"
# a speed in Gb/s on the split QM9700 (32 twin-port cages, 128 ports): 2 lanes
expect_eq "qm9700 split to 128 ports at 200G: 2xNDR" \
    "$(rates "$B" --set fabric.switch.name=qm9700 --set fabric.switch.radix=128 --set fabric.switch.speed=200G)" \
    "$n 2xNDR"
# a switch the catalog knows nothing of, in Gb/s: 4 lanes
expect_eq "200G, no faceplate known: 4xHDR" "$(rates "$S" --set fabric.switch.speed=200G --set cluster.node.nic_speed=200G)" \
    "$(links "$S") 4xHDR"

# the header says what ibsim 0.10 does with NDR, and only when there is NDR
"$RAILYARD" opensm "$S" -o "$TMP/w" >/dev/null 2>&1
expect_eq "opensm exit" $? 0
d=$TMP/w/opensm/plane0
grep -q '^# ibsim 0.10 cannot parse NDR or XDR and brings those links up at SDR' "$d/topology.net" &&
    ok || fail "topology.net does not say ibsim 0.10 brings NDR links up at SDR"
"$RAILYARD" opensm "$B" --set fabric.switch=qm8700 -o "$TMP/h" >/dev/null 2>&1
grep -q 'ibsim 0.10' "$TMP/h/opensm/plane0/topology.net" &&
    fail "an HDR fabric's topology.net warns of NDR" || ok
# the switch's table sends LIDs out of ports 128 and up (else the test below
# proves nothing)
n128=$(awk '/^0x/ && $2 + 0 >= 128' "$d/lfts.dump" | wc -l)
expect_eq "lfts.dump entries on ports 128..136" "$n128" 9

. "$TOP_SRCDIR/tests/ibsim/lib.sh"
missing=$(ib_tools_missing)
if [ -n "$missing" ]; then
    echo "not installed: $missing: ibsim part skipped"
    finish
fi
if ib_sim_start "$d/topology.net" "$TMP/sim"; then
    ok
    # ibsim 0.10 (Debian ibsim-utils 0.10-2) reads no NDR: SDR, as the header says
    grep -q 'cannot parse speed' "$IB_SIM_LOG" && ok || fail "ibsim parsed NDR (not 0.10?)"
    expect_eq "ibsim: the switch port's speed" \
        "$(ib_run smpquery portinfo -D 0 1 | sed -n 's/^LinkSpeedActive:\.*//p')" "2.5 Gbps"
    ib_opensm "$TMP/file" -l 0 -R file -U "$d/lfts.dump"
    expect_eq "opensm -R file exit" $? 0
    expect_eq "engine" "$(ib_engine "$TMP/file/osm.log")" file
    ib_dump_lfts "$TMP/live.fts" "$TMP/file/cache/guid2lid"
    expect_eq "tables read back" $? 0
    if ib_lft_diff "$d/lfts.dump" "$TMP/live.fts" >"$TMP/lftdiff"; then
        ok
    else
        fail "the 136-port switch's table differs from lfts.dump:"
        sed 's/^/    /' "$TMP/lftdiff"
    fi
    expect_eq "entries read back on ports 128..136" "$(awk '/^0x/ && $2 + 0 >= 128' "$TMP/live.fts" | wc -l)" 9
    ib_sim_stop
else
    fail "ibsim does not load the 136-port fabric"
fi
# One table of InfiniBand generations (util/phys.c): no other source file
# spells a generation's lane rate beside its name.
others=$(grep -rlE '"(SDR|DDR|QDR|FDR|EDR|HDR|NDR|XDR)",[^,]*[0-9]|"(sdr|fdr|edr|hdr|ndr|xdr)", *[0-9]|"infiniband-[a-z]dr"' \
    "$TOP_SRCDIR/src" --include='*.c' | sed "s|^$TOP_SRCDIR/||" | grep -v '^src/util/phys.c$')
expect_eq "the generations' table is util/phys.c alone" "$others" ""
finish
