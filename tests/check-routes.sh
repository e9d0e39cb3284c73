#!/bin/sh
# railyard check-routes on hand-made fixtures (tests/data/routes): good tables
# pass, OpenSM's own tables for the same fabric pass, and each broken copy
# fails the check it breaks, naming the route and where it stops. No ibsim.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/routes"
FT="$D/fat-tree"

# run NAME ARGS...: output in $TMP/NAME.out, errors in $TMP/NAME.err, exit in $rc
run() {
    n=$1; shift
    "$RAILYARD" check-routes "$@" >"$TMP/$n.out" 2>"$TMP/$n.err"
    rc=$?
    no_sanitizer "$TMP/$n.err"
}
has() {   # has NAME FILE PATTERN
    grep -qE -- "$3" "$2" && ok || { fail "$1: no /$3/ in"; sed 's/^/    /' "$2" | head -20; }
}

# --- good tables: the subnet directory form, byte-for-byte report ------------
(cd "$FT" && "$RAILYARD" check-routes . >"$TMP/good.out" 2>"$TMP/good.err"); rc=$?
expect_eq "good tables exit" "$rc" 0
cmp -s "$TMP/good.out" "$FT/expected.txt" && ok || { fail "good report differs from expected.txt"; diff "$FT/expected.txt" "$TMP/good.out" | head -20; }
[ -s "$TMP/good.err" ] && fail "good tables warn: $(cat "$TMP/good.err")" || ok
has good "$TMP/good.out" 'credit loops +ok +16 channels, 24 dependencies, no cycle'
has good "$TMP/good.out" 'tier 1 +tier 2 +8 +6 +6 +6\.00'
has good "$TMP/good.out" 'busiest link carries 1 route at worst'
run good2 "$FT/topology.net" --lfts "$FT/lfts.dump"; expect_eq "topology file + --lfts exit" $rc 0
run good3 --topology "$FT/topology.net" --lfts "$FT/lfts.dump"; expect_eq "--topology + --lfts exit" $rc 0
cmp -s "$TMP/good2.out" "$TMP/good3.out" && ok || fail "PATH file and --topology differ"
run good4 "$FT/topology.net" --lfts "$FT/lfts.dump"
cmp -s "$TMP/good2.out" "$TMP/good4.out" && ok || fail "same input, different output"

# --- OpenSM ftree's tables for the same fabric (LIDs reassigned by opensm -r:
# its entries carry portguids and are moved to the topology's LIDs) ---------
for f in opensm-lfts.dump dump_fts.txt; do
    run "osm-$f" "$FT/topology.net" --lfts "$FT/$f"; expect_eq "OpenSM $f exit" $rc 0
    has "OpenSM $f" "$TMP/osm-$f.out" "moved to their portguid's LID"
    has "OpenSM $f" "$TMP/osm-$f.out" '^check-routes: ok$'
    # ibnetdiscover's view of the running fabric has OpenSM's LIDs: nothing moves
    run "ibnet-$f" "$FT/ibnetdiscover.net" --lfts "$FT/$f"; expect_eq "ibnetdiscover + $f exit" $rc 0
    grep -q "moved to" "$TMP/ibnet-$f.out" && fail "ibnetdiscover + $f: LIDs moved" || ok
    has "ibnetdiscover + $f" "$TMP/ibnet-$f.out" '8 end ports'
done

# --- broken tables: FIXTURE EXIT PATTERN (5: a check failed, 1: a malformed file) --
while read -r f want pat; do
    [ -n "$f" ] || continue
    run "$f" "$FT/topology.net" --lfts "$FT/$f" --max-report 3
    expect_eq "$f exit" $rc "$want"
    if [ "$want" -eq 5 ] && [ -s "$TMP/$f.out" ]; then
        has "$f" "$TMP/$f.out" "$pat"
    else
        has "$f" "$TMP/$f.err" "$pat"
    fi
done <<'EOF'
loop.dump 5 ^loops +FAIL +2 routes come back to a switch
loop.dump 5 node001 mlx5_0 \(lid 7\) -> node003 mlx5_0 \(lid 9\): comes back to leaf0; path leaf0:5 > spine0:1 > leaf0$
missing-lid.dump 5 ^reachable +FAIL +54 of 56 routes arrive; 2 stop: no LFT entry: 2$
missing-lid.dump 5 node005 mlx5_0 \(lid 11\) -> node001 mlx5_0 \(lid 7\): leaf2 has no entry for LID 7
unconnected.dump 5 leaf3 sends LID 12 to port 7, which has no link; path leaf3:7$
port0.dump 5 leaf1 sends LID 13 to port 0, itself
wrong-end.dump 5 7 stop: port leading to another end port: 7
wrong-end.dump 5 leaf0 sends LID 8 to port 1, which leads to node001 mlx5_0
non-minimal.dump 5 ^minimal +FAIL +4 of 56 arriving routes are longer than a shortest path
non-minimal.dump 5 6 links where the shortest path has 4; path leaf0:5 > spine0:3 > leaf2:6 > spine1:2 > leaf1:2 > node004 mlx5_0$
non-minimal.dump 5 ^check-routes: FAIL \(minimal\)$
beyond-radix.dump 1 beyond-radix.dump:88:8: error: port 9 is beyond the 8 ports of switch spine1
no-newline.dump 1 no-newline.dump:91:8: error: cannot parse the port.*last line needs a newline
no-block.dump 5 ^reachable +FAIL +32 of 56 routes arrive; 24 stop: no LFT entry: 24
EOF
has no-block "$TMP/no-block.dump.err" 'no-block.dump:77: no switch with GUID 0x0002c902000000ff'
has no-block "$TMP/no-block.dump.err" 'no block for switch spine1'
has loop "$TMP/loop.dump.out" '^minimal +ok'
has loop "$TMP/loop.dump.out" '^reachable +ok +all 54 routes arrive'

# --- a ring whose shortest routes all turn clockwise: a credit loop --------------
run ring "$D/ring"; expect_eq "ring exit (a check failed)" $rc 5
has ring "$TMP/ring.out" '^credit loops +FAIL +8 channels, 4 dependencies, a cycle of 4:'
has ring "$TMP/ring.out" '^    ring0:2 > ring1:2 > ring2:2 > ring3:2 > ring0$'
has ring "$TMP/ring.out" '^minimal +ok'
has ring "$TMP/ring.out" '^check-routes: FAIL \(credit loops\)$'
run ring-split "$D/ring" --lfts "$D/ring/split.dump"; expect_eq "ring, split turns exit" $rc 0

# --- bad topologies: FIXTURE PATTERN (every one exits 1) -------------------------
while read -r f pat; do
    [ -n "$f" ] || continue
    run "$f" "$D/bad-topology/$f" --lfts "$FT/lfts.dump"
    expect_eq "$f exit" $rc 1
    [ -s "$TMP/$f.out" ] && fail "$f: a report despite errors" || ok
    has "$f" "$TMP/$f.err" "$pat"
done <<'EOF'
one-sided.net one-sided.net:30:5: error: .*\(leaf3\) port 7 is linked to .*\(spine0\) port 5, which does not list the link
crossed.net crossed.net:43:5: error: .*\(spine1\) port 4 is linked to .*\(leaf2\) port 6, but line 22 links that port to .*\(spine1\) port 3
unknown-node.net unknown-node.net:14:5: error: unknown node "S-0002c9020000001O"
duplicate-guid.net duplicate-guid.net:25:1: error: node GUID 0x0002c90200000002 of .*\(leaf3\) is also the GUID of .*\(leaf2\)
duplicate-lid.net duplicate-lid.net:75:1: error: LID 13 of .*\(node008 mlx5_0\) port 1 is also the LID of .*\(node007 mlx5_0\)
port-beyond.net port-beyond.net:36:2: error: port 9 of .*\(spine0\) is beyond its 8 ports
missing-lid.net missing-lid.net:63:45: error: no '# lid N' after the link of .*\(node005 mlx5_0\) port 1
switch-lid.net switch-lid.net:39:58: error: switch .*\(spine1\) has no 'lid N' in its comment
long-line.net long-line.net:3:1025: error: line longer than 1024 characters
EOF

# --- JSON ---------------------------------------------------------------------------
run json "$FT/topology.net" --lfts "$FT/non-minimal.dump" --json; expect_eq "json exit (a check failed)" $rc 5
"$PY" - "$TMP/json.out" >"$TMP/json.py" 2>&1 <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
errs = []
for k in ("topology", "lfts", "routes", "ok", "reachable", "loops", "minimal", "credit_loops",
          "balance", "shifts"):
    if k not in j: errs.append("no key " + k)
if j["ok"] is not False or j["minimal"]["ok"] is not False: errs.append("ok flags")
if j["routes"] != 56 or j["reachable"]["delivered"] != 56: errs.append("counts")
if j["minimal"]["non_minimal"] != 4: errs.append("non_minimal %r" % j["minimal"]["non_minimal"])
f = j["minimal"]["failures"][0]
if (f["src"], f["dst_lid"], f["links"], f["shortest"]) != ("node001 mlx5_0", 10, 6, 4): errs.append("failure %r" % f)
if [p["node"] for p in f["path"]] != ["leaf0", "spine0", "leaf2", "spine1", "leaf1"]: errs.append("path")
if j["topology"]["switches_per_tier"] != [4, 2]: errs.append("tiers")
b = {(g["from_tier"], g["to_tier"]): g for g in j["balance"]}
if b[(0, 1)]["direction"] != "up" or b[(1, 0)]["direction"] != "down": errs.append("directions")
if b[(0, 1)]["min"] != 7 or b[(0, 1)]["max"] != 7: errs.append("end port links")
if j["shifts"]["all"] is not True or j["shifts"]["count"] != 7: errs.append("shifts")
if errs: print("\n".join(errs))
P
[ -s "$TMP/json.py" ] && fail "json: $(cat "$TMP/json.py")" || ok
run json-ring "$D/ring" --json
"$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); c=j["credit_loops"]["cycle"]; sys.exit(not (len(c)==4 and c[0]["node"]=="ring0" and c[0]["port"]==2))' \
    "$TMP/json-ring.out" && ok || fail "json cycle: $(cat "$TMP/json-ring.out" | head -40)"

# --- CSV: one row per check, the counts of the text report ---------------------------
run csv "$FT" --format csv; expect_eq "csv exit" $rc 0
printf '%s\n' "check,ok,failed,total,unit" "reachable,1,0,56,routes" "loops,1,0,56,routes" \
    "minimal,1,0,56,routes" "credit_loops,1,0,16,channels" >"$TMP/csv.want"
cmp -s "$TMP/csv.out" "$TMP/csv.want" && ok || { fail "csv of good tables"; diff "$TMP/csv.want" "$TMP/csv.out"; }
run csv-min "$FT/topology.net" --lfts "$FT/non-minimal.dump" -f csv; expect_eq "csv exit (a check failed)" $rc 5
has "csv non-minimal" "$TMP/csv-min.out" '^minimal,0,4,56,routes$'
run csv-stop "$FT/topology.net" --lfts "$FT/missing-lid.dump" -f csv
has "csv missing LID" "$TMP/csv-stop.out" '^reachable,0,2,56,routes$'
has "csv missing LID" "$TMP/csv-stop.out" '^minimal,1,0,54,routes$'
run csv-ring "$D/ring" -f csv
has "csv ring" "$TMP/csv-ring.out" '^credit_loops,0,4,8,channels$'
run csv-json "$FT" --json --format csv; expect_eq "--json with --format csv exit" $rc 2

# --- a topology with no end port: nothing to route, an error, not "ok" ---------------
mkdir -p "$TMP/lone"
printf '# one switch, no end ports\n\nswitchguid=0x0002c90200000000\nSwitch\t8 "S-0002c90200000000"\t\t# "lone" enhanced port 0 lid 1 lmc 0\n\n' \
    >"$TMP/lone/topology.net"
: >"$TMP/lone/lfts.dump"
for f in text json csv; do
    run "lone-$f" "$TMP/lone" --format $f; expect_eq "no end ports ($f): exit" $rc 1
    has "no end ports ($f)" "$TMP/lone-$f.err" 'topology.net: no end ports in the topology$'
    [ -s "$TMP/lone-$f.out" ] && fail "no end ports ($f): a report: $(head -3 "$TMP/lone-$f.out")" || ok
done

# --- options ------------------------------------------------------------------------
run shifts0 "$FT" --shifts 0; has "--shifts 0" "$TMP/shifts0.out" '^shift permutations none$'
run shifts3 "$FT" --shifts 3; has "--shifts 3" "$TMP/shifts3.out" '3 shifts\)'
run shiftsall "$FT" --shifts all; has "--shifts all" "$TMP/shiftsall.out" 'all 7 shifts'
run maxrep "$FT" --lfts "$FT/wrong-end.dump" --max-report 1
has "--max-report 1" "$TMP/maxrep.out" '^    and 6 more$'
run outfile "$FT" -o "$TMP/report.txt"; expect_eq "-o exit" $rc 0
[ -s "$TMP/outfile.out" ] && fail "-o also wrote to stdout" || ok
(cd "$FT" && "$RAILYARD" check-routes . --output "$TMP/report2.txt")
cmp -s "$TMP/report2.txt" "$FT/expected.txt" && ok || fail "--output differs from stdout"

# --- usage and I/O errors -------------------------------------------------------------
run u1; expect_eq "no PATH exit" $rc 2
has "no PATH" "$TMP/u1.err" 'missing PATH'
run u2 "$FT/topology.net"; expect_eq "topology file without --lfts exit" $rc 2
has "no --lfts" "$TMP/u2.err" '--lfts'
run u3 "$FT" --shifts some; expect_eq "bad --shifts exit" $rc 2
run u4 "$FT" --max-report; expect_eq "--max-report without value exit" $rc 2
run u5 "$FT" --frobnicate; expect_eq "unknown option exit" $rc 2
run u6 "$FT" "$FT"; expect_eq "two PATHs exit" $rc 2
run io1 "$TMP/nonexistent"; expect_eq "missing PATH exit" $rc 3
run io2 "$FT" --lfts "$TMP/nonexistent.dump"; expect_eq "missing --lfts exit" $rc 3
has "missing --lfts" "$TMP/io2.err" 'nonexistent.dump'
run io3 "$TMP" ; expect_eq "directory without topology.net exit" $rc 3
"$RAILYARD" help check-routes >"$TMP/help" 2>&1; expect_eq "help exit" $? 0
for o in --lfts --topology --json --shifts --max-report --output; do
    grep -q -- "$o" "$TMP/help" && ok || fail "help lacks $o"
done
finish
