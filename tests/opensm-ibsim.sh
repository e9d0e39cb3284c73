#!/bin/sh
# railyard's OpenSM files on the real OpenSM, running on the ibsim simulator.
# For every fabric in tests/data/ib/ and every subnet railyard writes:
#  (a) ibsim loads topology.net; "opensm -o -R ftree -a root_guids.conf
#      -u cn_guids.conf" (minhop on a one-switch subnet, updn when LMC > 0)
#      routes it without a fallback and keeps the LIDs preset in the
#      netfile; with -r (OpenSM's own LIDs) as well;
#  (b) on a fresh simulator "-R file -U lfts.dump" loads our tables, and
#      dump_fts read back from the switches equals lfts.dump entry for entry;
#      "-F opensm.conf" selects the same; with -r, the file engine moves our
#      entries to OpenSM's LIDs by portguid and every route still arrives;
#  (c) with -P partitions.conf, a CA of every rail holds its rail's P_Key as
#      a full member, and the Default key;
#  (d) our tables and OpenSM's deliver every CA-to-CA route (traced here
#      through the netfile, and by railyard check-routes when it exists;
#      the two must count the same routes per cable), and ours balance no
#      worse than OpenSM's. The table printed at the end sets them side by
#      side.
# Skipped (77) only when OpenSM, ibsim or infiniband-diags are not installed.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
. "$TOP_SRCDIR/tests/ibsim/lib.sh"

missing=$(ib_tools_missing)
if [ -n "$missing" ]; then
    echo "SKIP: not installed: $missing (Debian: apt-get install opensm ibsim-utils infiniband-diags)"
    exit 77
fi

# IB_FABRICS=DIR runs the checks on the specs in DIR instead (for example a
# directory of fabrics being tried out)
DATA=${IB_FABRICS:-$TOP_SRCDIR/tests/data/ib}
TABLE=$TMP/balance.txt
: >"$TABLE"
have_check_routes=no
"$RAILYARD" help check-routes >/dev/null 2>&1 && have_check_routes=yes

# lids FILE: "portguid lid" lines of a guid2lid file, sorted, numbers in
# lower-case hex without leading zeros, for comparing two of them.
lids() {
    [ -r "$1" ] || return 1
    "$PY" -c '
import sys
for l in open(sys.argv[1]):
    t = l.split()
    if len(t) >= 2 and t[0].startswith("0x"):
        print("%x %x" % (int(t[0], 16), int(t[1], 16)))' "$1" | sort
}

# json_get JSON KEY...: one value of a JSON document (a file) by keys.
json_get() {
    "$PY" -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v)' "$@"
}

# pkey_members PARTITIONS GUID2LID: for each partition other than Default,
# "name pkey lid full|limited" for its first and last member port.
pkey_members() {
    "$PY" - "$1" "$2" <<'EOF'
import re, sys
text = "\n".join(l.split("#", 1)[0] for l in open(sys.argv[1]))
g2l = {}
for l in open(sys.argv[2]):
    t = l.split()
    if len(t) >= 2 and t[0].startswith("0x"):
        g2l[int(t[0], 16)] = int(t[1], 16)
for st in text.split(";"):
    if ":" not in st:
        continue
    head, members = st.split(":", 1)
    parts = [p.strip() for p in head.split(",")]
    name, _, pkey = parts[0].partition("=")
    name, pkey = name.strip(), pkey.strip()
    if not pkey or name == "Default" or int(pkey, 16) & 0x7fff == 0x7fff:
        continue
    defmember = "limited"
    for p in parts[1:]:
        if p.startswith("defmember="):
            defmember = p.split("=", 1)[1]
    ms = []
    for m in members.split(","):
        m = m.strip()
        if not m.startswith("0x"):
            continue
        g, _, flag = m.partition("=")
        ms.append((int(g, 16), flag.strip() or defmember))
    for g, flag in ms[:1] + ms[-1:]:
        if g in g2l:
            print(name, "0x%04x" % (int(pkey, 16) & 0x7fff), g2l[g], flag)
        else:
            print(name, "0x%04x" % (int(pkey, 16) & 0x7fff), "none", flag)
EOF
}

# check_subnet LABEL DIR: (a) to (d) on one subnet directory.
check_subnet() {
    label=$1 d=$2 w=$TMP/run/$1
    mkdir -p "$w"
    for f in topology.net root_guids.conf cn_guids.conf lfts.dump \
             partitions.conf node-name-map guid2lid opensm.conf; do
        [ -s "$d/$f" ] && ok || fail "$label: $f missing or empty"
    done
    [ -s "$d/topology.net" ] && [ -s "$d/lfts.dump" ] || return
    nsw=$(grep -c '^Switch' "$d/topology.net")
    nca=$(grep -cE '^(Ca|Hca)[[:space:]]' "$d/topology.net")
    # OpenSM must be told the LMC to keep the LID ranges preset in ibsim
    lmc=$(sed -n 's/^lmc[[:space:]][[:space:]]*\([0-9][0-9]*\).*/\1/p' "$d/opensm.conf" | head -n 1)
    lmc=${lmc:-0}
    if [ "$nsw" -eq 1 ]; then
        engine=minhop   # ftree needs two switches
        set -- -l "$lmc" -R minhop
    elif [ "$lmc" -gt 0 ]; then
        engine=updn     # ftree needs LMC 0
        set -- -l "$lmc" -R updn -a "$d/root_guids.conf"
    else
        engine=ftree
        set -- -l 0 -R ftree -a "$d/root_guids.conf" -u "$d/cn_guids.conf"
    fi

    # (a) OpenSM's own routing on our topology, LIDs as preset
    if ! ib_sim_start "$d/topology.net" "$w/sim1"; then
        fail "$label: ibsim does not load topology.net"
        return
    fi
    ib_opensm "$w/$engine" "$@"
    expect_eq "$label: opensm -R $engine exit" $? 0
    ib_subnet_up "$w/$engine/osm.log" && ok || fail "$label: $engine: no SUBNET UP"
    expect_eq "$label: engine that configured the tables" \
        "$(ib_engine "$w/$engine/osm.log")" "$engine"
    if ib_fallback "$w/$engine/osm.log" >"$w/fallback1"; then
        fail "$label: $engine run reports a fallback or error:"
        head -n 5 "$w/fallback1" | sed 's/^/    /'
    else
        ok
    fi
    if [ "$engine" = ftree ]; then
        # ftree saw our fabric: every CA a compute node, every switch ranked
        ncn=$(grep -c '^0x' "$d/cn_guids.conf")
        want="Fabric has $nca CAs, $nca CA ports ($ncn of them CNs), $nsw switches"
        grep -qF "$want" "$w/ftree/osm.log" && ok ||
            fail "$label: ftree log lacks '$want'"
        nroot=$(grep -c '^0x' "$d/root_guids.conf")
        want="Fabric has $nroot switches at rank 0 (roots)"
        grep -qF "$want" "$w/ftree/osm.log" && ok ||
            fail "$label: ftree log lacks '$want'"
    fi
    # without -r, OpenSM keeps the LIDs ibsim preset from the netfile
    if lids "$w/$engine/cache/guid2lid" >"$w/lids.osm" &&
       lids "$d/guid2lid" >"$w/lids.ours" && [ -s "$w/lids.ours" ] &&
       cmp -s "$w/lids.osm" "$w/lids.ours"; then
        ok
    else
        fail "$label: OpenSM's LIDs differ from guid2lid"
        diff "$w/lids.ours" "$w/lids.osm" | head -n 5 | sed 's/^/    /'
    fi
    # with -r, OpenSM assigns its own LIDs and still routes with the engine
    ib_opensm "$w/$engine-r" -r "$@"
    expect_eq "$label: opensm -r -R $engine exit" $? 0
    expect_eq "$label: engine with -r" "$(ib_engine "$w/$engine-r/osm.log")" "$engine"
    ib_fallback "$w/$engine-r/osm.log" >/dev/null &&
        fail "$label: $engine -r run reports a fallback or error" || ok
    ib_sim_stop

    # (b) + (c) our tables and partitions, on a fresh simulator so no entry
    # of the previous run is left in a switch
    if ! ib_sim_start "$d/topology.net" "$w/sim2"; then
        fail "$label: ibsim does not load topology.net again"
        return
    fi
    ib_opensm "$w/file" -l "$lmc" -R file -U "$d/lfts.dump" -P "$d/partitions.conf"
    expect_eq "$label: opensm -R file exit" $? 0
    ib_subnet_up "$w/file/osm.log" && ok || fail "$label: file: no SUBNET UP"
    expect_eq "$label: file engine used" "$(ib_engine "$w/file/osm.log")" file
    if ib_fallback "$w/file/osm.log" >"$w/fallback2"; then
        fail "$label: file run reports a fallback or error:"
        head -n 5 "$w/fallback2" | sed 's/^/    /'
    else
        ok
    fi
    grep -q 'Partition configuration in error' "$w/file/osm.log" &&
        fail "$label: OpenSM rejected partitions.conf" || ok
    ib_dump_lfts "$w/live.fts" "$w/file/cache/guid2lid"
    expect_eq "$label: dump_fts exit" $? 0
    if ib_lft_diff "$d/lfts.dump" "$w/live.fts" >"$w/lftdiff"; then
        ok
    else
        fail "$label: switch LFTs differ from lfts.dump:"
        sed 's/^/    /' "$w/lftdiff"
    fi
    # opensm.conf names the files relative to the subnet directory
    want=$(sed -n 's/^routing_engine[[:space:]][[:space:]]*\([a-z0-9_-]*\).*/\1/p' "$d/opensm.conf")
    (cd "$d" && ib_opensm "$w/conf" -F opensm.conf)
    expect_eq "$label: opensm -F opensm.conf exit" $? 0
    expect_eq "$label: engine with opensm.conf" "$(ib_engine "$w/conf/osm.log")" "${want:-minhop}"
    ib_fallback "$w/conf/osm.log" >/dev/null &&
        fail "$label: opensm.conf run reports a fallback or error" || ok
    pkey_members "$d/partitions.conf" "$d/guid2lid" >"$w/members"
    [ -s "$w/members" ] && ok || fail "$label: no rail partition in partitions.conf"
    while read -r pname pkey plid flag; do
        if [ "$plid" = none ]; then
            fail "$label: a member of $pname has no LID in guid2lid"
            continue
        fi
        want=$pkey
        [ "$flag" = full ] && want=$(printf '0x%04x' $((pkey | 0x8000)))
        ib_run smpquery pkeys "$plid" >"$w/pkeys.$plid" 2>&1
        if grep -qw "$want" "$w/pkeys.$plid"; then ok; else
            fail "$label: CA lid $plid of $pname lacks P_Key $want"
            head -n 2 "$w/pkeys.$plid" | sed 's/^/    /'
        fi
        grep -qwE '0x7fff|0xffff' "$w/pkeys.$plid" && ok ||
            fail "$label: CA lid $plid lacks the Default P_Key"
    done <"$w/members"
    ib_sim_stop

    # LIDs that are not ours: with -r OpenSM assigns its own, and the file
    # engine moves every entry of lfts.dump to its portguid's new LID (a
    # file written without portguids is only valid with our LIDs)
    if ! grep -q ' portguid 0x' "$d/lfts.dump"; then
        :
    elif ib_sim_start "$d/topology.net" "$w/sim3"; then
        ib_opensm "$w/file-r" -r -l "$lmc" -R file -U "$d/lfts.dump"
        expect_eq "$label: opensm -r -R file exit" $? 0
        expect_eq "$label: file engine with -r" "$(ib_engine "$w/file-r/osm.log")" file
        ib_fallback "$w/file-r/osm.log" >/dev/null &&
            fail "$label: file -r run reports a fallback or error" || ok
        ib_dump_lfts "$w/live-r.fts" "$w/file-r/cache/guid2lid"
        expect_eq "$label: dump_fts exit after -r" $? 0
        ib_route_stats "$d/topology.net" "$w/live-r.fts" "$w/file-r/cache/guid2lid" \
            >"$w/live-r.json"
        expect_eq "$label: routes delivered after OpenSM moved the LIDs" \
            "$(json_get "$w/live-r.json" delivered)" "$(json_get "$w/live-r.json" pairs)"
        ib_sim_stop
    else
        fail "$label: ibsim does not load topology.net a third time"
    fi

    # (d) every route delivered, and balance: ours against OpenSM's
    ib_route_stats "$d/topology.net" "$d/lfts.dump" "$d/guid2lid" >"$w/ours.json"
    ib_route_stats "$d/topology.net" "$w/$engine/opensm-lfts.dump" \
        "$d/guid2lid" >"$w/osm.json"
    for who in ours osm; do
        if [ "$(json_get "$w/$who.json" delivered)" = "$(json_get "$w/$who.json" pairs)" ] &&
           [ "$(json_get "$w/$who.json" cas)" -eq "$nca" ]; then
            ok
        else
            fail "$label: $who tables do not deliver every CA pair:"
            json_get "$w/$who.json" failures | sed 's/^/    /'
        fi
    done
    if [ "$have_check_routes" = yes ]; then
        "$RAILYARD" check-routes "$d" --json >"$w/cr-ours.json" 2>"$w/cr-ours.err"
        expect_eq "$label: check-routes on lfts.dump" $? 0
        "$RAILYARD" check-routes "$d" --lfts "$w/$engine/opensm-lfts.dump" --json \
            >"$w/cr-osm.json" 2>"$w/cr-osm.err"
        expect_eq "$label: check-routes on OpenSM's $engine tables" $? 0
        # the tables read back from the switches (dump_fts format)
        "$RAILYARD" check-routes "$d" --lfts "$w/live.fts" >"$w/cr-live.out" 2>&1
        expect_eq "$label: check-routes on dump_fts output" $? 0
        # and with LIDs OpenSM reassigned (-r): entries found by portguid
        for f in "$engine-r/opensm-lfts.dump" live-r.fts; do
            [ -f "$w/$f" ] || continue
            "$RAILYARD" check-routes "$d" --lfts "$w/$f" >"$w/cr-r.out" 2>&1
            expect_eq "$label: check-routes on $f" $? 0
            no_sanitizer "$w/cr-r.out"
        done
        no_sanitizer "$w/cr-ours.err"
        no_sanitizer "$w/cr-live.out"
        # the flow engine routed by OpenSM's own tables (collective --lfts),
        # where one file is the whole fabric: every pair routed
        if [ "$(ls -d "$(dirname "$d")"/*/ | wc -l)" -eq 1 ]; then
            "$RAILYARD" collective "$spec" --op all-to-all --bytes 1G --routing static \
                --fabric "$d/topology.net" --lfts "$w/$engine/opensm-lfts.dump" -f json \
                >"$w/coll-osm.json" 2>"$w/coll-osm.err"
            expect_eq "$label: collective on OpenSM's $engine tables (--lfts): exit ($(head -c 200 "$w/coll-osm.err"))" $? 0
            no_sanitizer "$w/coll-osm.err"
            expect_eq "$label: collective routed by the tables found" \
                "$(json_get "$w/coll-osm.json" routes)" lfts
        fi
    fi
    crs=
    [ "$have_check_routes" = yes ] && crs="$w/cr-ours.json $w/cr-osm.json"
    # shellcheck disable=SC2086
    "$PY" - "$label" "$engine" "$w/ours.json" "$w/osm.json" $crs \
        >>"$TABLE" 2>"$w/cmp.err" <<'EOF'
import json, sys
label, engine = sys.argv[1], sys.argv[2]
mine = [json.load(open(f)) for f in sys.argv[3:5]]     # traced here
names = {1: "leaf", 2: "spine", 3: "core"}
order = {"leaf": 1, "spine": 2, "core": 3}
def key(t):
    a, b = (order.get(x, 9) for x in t.split(">"))
    return (0, a) if a < b else (1, -a)     # up the tree, then down

def from_check_routes(path):
    r = json.load(open(path))
    tiers = {}
    for b in r.get("balance", []):
        if b["from_tier"] >= 1 and b["to_tier"] >= 1:   # switch to switch
            t = "%s>%s" % (names.get(b["from_tier"], "t%d" % b["from_tier"]),
                           names.get(b["to_tier"], "t%d" % b["to_tier"]))
            tiers[t] = {k: b[k] for k in ("links", "max", "min", "mean")}
    return {"tiers": tiers, "shift_worst": r.get("shifts", {}).get("max", 0)}

errs, worse = [], []
if len(sys.argv) > 5:
    figs = [from_check_routes(f) for f in sys.argv[5:7]]
    src = "check-routes"
    # two independent tracers must count the same routes per cable
    for who, a, b in zip(("ours", "OpenSM's"), mine, figs):
        for t in set(a["tiers"]) | set(b["tiers"]):
            x, y = a["tiers"].get(t), b["tiers"].get(t)
            if not x or not y or any(abs(x[k] - y[k]) > 0.01 for k in ("links", "max", "min", "mean")):
                errs.append("%s tables, %s: traced %s, check-routes %s" % (who, t, x, y))
else:
    figs, src = mine, "traced"
o, f = figs
rows = []
fmt = lambda s: "%d/%d/%.1f" % (s["max"], s["min"], s["mean"]) if s else "-"
for t in sorted(set(o["tiers"]) | set(f["tiers"]), key=key):
    a, b = o["tiers"].get(t), f["tiers"].get(t)
    rows.append(("%-34s %-11s %-16s %-16s" % ("" if rows else label + " " + engine,
                                              t, fmt(a), fmt(b))).rstrip())
    if a and b and a["max"] > b["max"]:
        worse.append("%s max %d > %d" % (t, a["max"], b["max"]))
if not rows:
    rows.append("%-34s %-11s %-16s %-16s" % (label + " " + engine, "(no cables)", "-", "-"))
rows[0] += "   %d/%d (%s)" % (o["shift_worst"], f["shift_worst"], src)
if o["shift_worst"] > f["shift_worst"]:
    worse.append("shift congestion %d > %d" % (o["shift_worst"], f["shift_worst"]))
print("\n".join(rows))
if errs or worse:
    sys.stderr.write("; ".join(errs + worse) + "\n")
    sys.exit(1 if worse else 2)
EOF
    case $? in
    0) ok; ok ;;
    1) ok; fail "$label: our routes balance worse than OpenSM $engine: $(cat "$w/cmp.err")" ;;
    *) fail "$label: route counts of check-routes and the test's tracer differ: $(cat "$w/cmp.err")"
       ok ;;
    esac
}

nfab=0
for spec in "$DATA"/*.yaml; do
    fab=$(basename "$spec" .yaml)
    out=$TMP/out/$fab
    "$RAILYARD" opensm "$spec" -o "$out" >"$TMP/$fab.out" 2>"$TMP/$fab.err"
    expect_eq "railyard opensm $fab" $? 0
    no_sanitizer "$TMP/$fab.err"
    nsub=0
    for sub in "$out"/opensm/*/; do
        [ -d "$sub" ] || continue
        nsub=$((nsub + 1))
        check_subnet "$fab/$(basename "$sub")" "${sub%/}"
    done
    [ "$nsub" -gt 0 ] && ok || fail "$fab: no subnet directory under opensm/"
    nfab=$((nfab + 1))
done
if [ -z "${IB_FABRICS:-}" ]; then
    [ "$nfab" -ge 6 ] && ok || fail "only $nfab fabrics in $DATA"

    # build writes the same OpenSM files as the opensm command
    spec=$DATA/ro-2tier-h100.yaml
    "$RAILYARD" build "$spec" -o "$TMP/build" >/dev/null 2>"$TMP/build.err"
    expect_eq "railyard build" $? 0
    diff -r "$TMP/out/ro-2tier-h100/opensm" "$TMP/build/opensm" >/dev/null &&
        ok || fail "build and opensm write different OpenSM files"
    # same spec, same bytes
    "$RAILYARD" opensm "$spec" -o "$TMP/again" >/dev/null 2>&1
    diff -r "$TMP/out/ro-2tier-h100/opensm" "$TMP/again/opensm" >/dev/null &&
        ok || fail "a second railyard opensm run differs"
fi

echo
echo "Routes per switch-to-switch cable in all-to-all (max/min/mean per tier and"
echo "direction), and the worst shift-permutation congestion (flows on one cable):"
printf '%-34s %-11s %-16s %-16s   %s\n' "fabric/subnet engine" tier railyard OpenSM "shift ours/OpenSM"
cat "$TABLE"
finish
