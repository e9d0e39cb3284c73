#!/bin/sh
# railyard verify on fabrics discovered by the real ibnetdiscover, from the
# ibsim simulator. For each spec below:
#  1. railyard opensm writes the planned subnets (topology.net, loadable by
#     ibsim);
#  2. tests/verify-inject.py turns them into the fabric as found on the
#     floor: random GUIDs under a vendor OUI, vendor switch descriptions
#     (nothing names a planned switch any more), and the spec's cabling
#     faults; it writes the findings verify must report (expected.json).
#     Once with the faults, once without (the "clean" fabric);
#  3. each subnet is loaded into ibsim and ibnetdiscover prints it (directed
#     routes, no subnet manager). The discovered fabric must be the one
#     loaded, and comparing it with the plan here, by hand, must give
#     exactly the expected findings (tests/verify-check.py discovered);
#  4. railyard verify SPEC FABRIC... --format json must report exactly those
#     findings (kind, class, the device and port of each end), the cable
#     labels of the cabling plan, fixes that name the move, as_planned =
#     the planned cables (counted here from the netfiles) less those the
#     findings name, and every discovered switch GUID mapped to its planned
#     name; exit 1 with findings, 0 on the clean fabric;
#  5. --work-order FILE: a CSV row at every injected fault's spot;
#  6. the faults undone: railyard opensm SPEC --fabric (the clean fabric's
#     ibnetdiscover files) writes the subnets with the fabric's GUIDs
#     (tests/verify-check.py files: topology.net, root_guids.conf = the
#     switches planned at the top, cn_guids.conf = the CA ports found,
#     guid2lid, partitions.conf, lfts.dump), and the plan's routes and LIDs
#     under those GUIDs (renamed). Each subnet is loaded into ibsim from the
#     netfile ibnetdiscover ran on; OpenSM's file engine loads lfts.dump
#     with guid2lid in its cache ("opensm -R file -U lfts.dump"); the
#     tables read back from the switches (dump_fts) equal lfts.dump, OpenSM
#     kept our LIDs, every CA-to-CA route is delivered (traced here, on the
#     netfile) and railyard check-routes passes on ours and on the tables
#     read back;
#  7. the faults as found: railyard opensm SPEC --fabric ... --as-found on
#     the faulted fabric; the same files checks, the NICs it says are not
#     cabled are the planned NICs no subnet holds, and on ibsim loaded with
#     the faulted netfile the tables read back equal ours and deliver
#     exactly the deliverable routes: between the CAs of the plan found in
#     that subnet (a NIC a plane- or rail-swap moved counts in the subnet it
#     is cabled to) that the cables a route may use join. The unknown
#     host's CA is in the netfile but in none of our files: no route to or
#     from it is expected, it is left out. A cable within a tier carries no
#     route, so it joins nothing: the NICs of the isolated leaf reach only
#     each other, and railyard must count the other pairs as not delivered.
# Until "railyard help verify" works, stages 4 to 7 are skipped.
# VERIFY_SEED=N draws other GUIDs, descriptions and fault places (default 7).
# Skipped (77) only when OpenSM, ibsim or infiniband-diags are not installed.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
. "$TOP_SRCDIR/tests/ibsim/lib.sh"

missing=$(ib_tools_missing)
command -v ibnetdiscover >/dev/null 2>&1 || missing="$missing ibnetdiscover"
if [ -n "$missing" ]; then
    echo "SKIP: not installed: $missing (Debian: apt-get install opensm ibsim-utils infiniband-diags)"
    exit 77
fi

DATA=$TOP_SRCDIR/tests/data/ib
INJECT=$TOP_SRCDIR/tests/verify-inject.py
CHECK=$TOP_SRCDIR/tests/verify-check.py
SEED=${VERIFY_SEED:-7}
have_verify=no
"$RAILYARD" help verify >/dev/null 2>&1 && have_verify=yes

# The specs and their faults: together every kind and class of finding.
# Free switch ports (for extra, unknown and isolate) only in ro-2tier-h100
# and two-plane; scalable units only in the rail-optimized specs. The
# isolated leaf of two-plane leaves NICs that are found but cannot be
# joined to the others: stage 7 then has pairs no route can deliver.
# dual-tor: a NIC's two ports on a ToR pair of one subnet; its plane-swap
# swaps a GPU's two links between the pair's ToRs.
CASES="ro-2tier-h100:port-swap,rail-swap,unit-swap,uplink,missing,extra,unknown
ro-3tier:port-swap,rail-swap,unit-swap,uplink:2,missing:nic
two-plane:plane-swap,port-swap,extra,unknown,missing,isolate
railonly-2tier:rail-swap,port-swap,uplink,missing
dual-tor:plane-swap,port-swap,rail-swap,uplink,missing:nic"

# checks_of LABEL CMD...: run a check of tests/verify-check.py and count its
# "ok" and "FAIL: ..." lines; "# ..." lines are shown.
checks_of() {
    _label=$1; shift
    "$PY" "$CHECK" "$@" >"$TMP/checks.out" 2>&1
    _rc=$?
    while IFS= read -r _l; do
        case $_l in
        ok) ok ;;
        "FAIL: "*) fail "$_label: ${_l#FAIL: }" ;;
        "# "*) printf '  %s: %s\n' "$_label" "${_l#\# }" ;;
        *) printf '    %s\n' "$_l" ;;
        esac
    done <"$TMP/checks.out"
    expect_eq "$_label: verify-check.py exit" "$_rc" 0
}

# planned_cables OPENSM_DIR: the plan's cables, each listed at both ends.
planned_cables() {
    cat "$1"/*/topology.net | awk '/^\[[0-9]+\]/ { n++ } END { print n / 2 }'
}

# discover NAME DIR: every DIR/<subnet>/topology.net into ibsim, and
# ibnetdiscover's output to DIR/disc/<subnet>.net; their list in DIR/fabric.
discover() {
    mkdir -p "$2/disc"
    : >"$2/fabric"
    for _sub in "$2"/*/topology.net; do
        _s=$(basename "$(dirname "$_sub")")
        if ! ib_sim_start "$_sub" "$2/sim-$_s"; then
            fail "$1/$_s: ibsim does not load the rewritten topology.net"
            continue
        fi
        ib_run ibnetdiscover >"$2/disc/$_s.net" 2>"$2/disc/$_s.err"
        expect_eq "$1/$_s: ibnetdiscover exit" $? 0
        ib_sim_stop
        [ -s "$2/disc/$_s.net" ] && ok || fail "$1/$_s: ibnetdiscover printed nothing"
        printf '%s\n' "$2/disc/$_s.net" >>"$2/fabric"
    done
}

# verify_run LABEL SPEC WANT_EXIT EXPECT DIR FABRIC...: stages 4 and 5, the
# plan in $d/plan, the cabling plan in $d/cab, outputs in DIR.
verify_run() {
    _label=$1 _spec=$2 _want=$3 _exp=$4 _o=$5
    shift 5
    # ibsim 0.10 reports every link at 4xSDR, whatever the netfile says:
    # rates are checked on hand-written files (tests/verify.sh)
    "$RAILYARD" verify "$_spec" "$@" --ignore-rates --format json >"$_o/verify.json" \
        2>"$_o/verify.err"
    expect_eq "$_label: verify --format json exit" $? "$_want"
    no_sanitizer "$_o/verify.err"
    checks_of "$_label" json "$d/plan/opensm" "$d/cab/cabling/cabling.csv" \
        "$_exp" "$_o/verify.json"
    "$RAILYARD" verify "$_spec" "$@" --ignore-rates --work-order "$_o/work-order.csv" \
        >"$_o/wo.out" 2>"$_o/wo.err"
    expect_eq "$_label: verify --work-order exit" $? "$_want"
    no_sanitizer "$_o/wo.err"
    if [ -s "$_o/work-order.csv" ]; then
        ok
        checks_of "$_label" work-order "$d/plan/opensm" \
            "$d/cab/cabling/cabling.csv" "$_exp" "$_o/work-order.csv"
    else
        fail "$_label: no work order written"
    fi
}

# osm_file LABEL NET SUBNET_DIR WORK: ibsim on NET (the fabric as cabled),
# OpenSM's file engine loads SUBNET_DIR/lfts.dump, our guid2lid in its LID
# cache; the tables read back must be ours and deliver exactly the
# deliverable routes (tests/verify-check.py routes); railyard check-routes
# on our tables and on those read back counts the same routes, and fails on
# reachability alone, when some pair cannot be joined (an isolated leaf).
osm_file() {
    _label=$1 _net=$2 _sd=$3 _w=$4
    mkdir -p "$_w/osm/cache"
    cp "$_sd/guid2lid" "$_w/osm/cache/guid2lid"
    _lmc=$(sed -n 's/^lmc[[:space:]][[:space:]]*\([0-9][0-9]*\).*/\1/p' "$_sd/opensm.conf" | head -n 1)
    if ! ib_sim_start "$_net" "$_w/sim"; then
        fail "$_label: ibsim does not load the netfile"
        return
    fi
    ib_opensm "$_w/osm" -l "${_lmc:-0}" -R file -U "$_sd/lfts.dump"
    expect_eq "$_label: opensm -R file -U lfts.dump exit" $? 0
    ib_dump_lfts "$_w/live.fts" "$_w/osm/cache/guid2lid"
    expect_eq "$_label: dump_fts exit" $? 0
    ib_sim_stop
    ib_subnet_up "$_w/osm/osm.log" && ok || fail "$_label: OpenSM: no SUBNET UP"
    expect_eq "$_label: engine that configured the tables" \
        "$(ib_engine "$_w/osm/osm.log")" file
    if ib_fallback "$_w/osm/osm.log" >"$_w/fallback"; then
        fail "$_label: OpenSM reports a fallback or error:"
        head -n 5 "$_w/fallback" | sed 's/^/    /'
    else
        ok
    fi
    if ib_lft_diff "$_sd/lfts.dump" "$_w/live.fts" >"$_w/lftdiff"; then
        ok
        printf '  %s: tables read back = lfts.dump: %s\n' "$_label" "$(head -n 1 "$_w/lftdiff")"
    else
        fail "$_label: switch LFTs differ from lfts.dump:"
        sed 's/^/    /' "$_w/lftdiff"
    fi
    "$RAILYARD" check-routes "$_sd" --json >"$_w/cr.json" 2>"$_w/cr.err"
    _rc1=$?
    no_sanitizer "$_w/cr.err"
    "$RAILYARD" check-routes "$_sd" --lfts "$_w/live.fts" --json >"$_w/cr-live.json" \
        2>"$_w/cr-live.err"
    _rc2=$?
    no_sanitizer "$_w/cr-live.err"
    checks_of "$_label" routes "$d/plan/opensm" "$_net" "$_w/live.fts" \
        "$_w/osm/cache/guid2lid" "$_sd/guid2lid" "$_w/cr.json" "$_rc1" \
        "$_w/cr-live.json" "$_rc2"
}

# json_len FILE KEY: a number in a JSON file, or the length of a list or map
json_len() {
    "$PY" -c 'import json, sys
v = json.load(open(sys.argv[1]))[sys.argv[2]]
print(v if isinstance(v, int) else len(v))' "$1" "$2"
}

nspec=0
while IFS=: read -r fab faults; do
    spec=$DATA/$fab.yaml
    d=$TMP/$fab
    mkdir -p "$d"
    nspec=$((nspec + 1))
    # 1. the plan
    "$RAILYARD" opensm "$spec" -o "$d/plan" >"$d/opensm.out" 2>"$d/opensm.err"
    expect_eq "$fab: railyard opensm exit" $? 0
    no_sanitizer "$d/opensm.err"
    if ls "$d"/plan/opensm/*/topology.net >/dev/null 2>&1; then ok; else
        fail "$fab: no topology.net under opensm/"
        continue
    fi
    checks_of "$fab" names "$d/plan/opensm"
    planned=$(planned_cables "$d/plan/opensm")
    nsw=$(cat "$d"/plan/opensm/*/topology.net | grep -c '^Switch')
    nca=$(cat "$d"/plan/opensm/*/topology.net | grep -cE '^(Ca|Hca)[[:space:]]')
    # 2. the fabric as found, clean and faulted
    set --
    for f in $(echo "$faults" | tr ',' ' '); do set -- "$@" --fault "$f"; done
    "$PY" "$INJECT" --plan "$d/plan/opensm" --out "$d/clean" \
        --expect "$d/clean.json" --seed "$SEED" >"$d/inject-clean.out" 2>&1
    expect_eq "$fab: injector exit (clean)" $? 0
    "$PY" "$INJECT" --plan "$d/plan/opensm" --out "$d/faulted" \
        --expect "$d/faulted.json" --seed "$SEED" "$@" >"$d/inject.out" 2>&1
    expect_eq "$fab: injector exit (faults)" $? 0
    sed "s/^/  $fab: /" "$d/inject.out"
    if [ ! -s "$d/clean.json" ] || [ ! -s "$d/faulted.json" ]; then
        fail "$fab: the injector wrote no expected findings"
        continue
    fi
    # the expectations against counts taken here from the plan
    expect_eq "$fab: clean as_planned = planned cables" \
        "$(json_len "$d/clean.json" as_planned)" "$planned"
    expect_eq "$fab: clean findings" "$(json_len "$d/clean.json" findings)" 0
    expect_eq "$fab: switches in the expected map" \
        "$(json_len "$d/faulted.json" switches)" "$nsw"
    nfind=$("$PY" -c 'import json, sys
print(sum(1 for x in json.load(open(sys.argv[1]))["findings"]
          if x["kind"] in ("miswired", "missing")))' "$d/faulted.json")
    expect_eq "$fab: faulted as_planned = planned less the cables at fault" \
        "$(json_len "$d/faulted.json" as_planned)" $((planned - nfind))
    # 3. ibsim and ibnetdiscover; the CAs discovered are those planned, one
    # more for the unknown host, one less for the NIC whose cable is missing
    for v in clean faulted; do
        discover "$fab/$v" "$d/$v"
        checks_of "$fab/$v" discovered "$d/plan/opensm" "$d/$v" "$d/$v/disc" "$d/$v.json"
        want=$nca
        if [ "$v" = faulted ]; then
            case ",$faults," in *,unknown,*) want=$((want + 1)) ;; esac
            case ",$faults," in *,missing:nic,*) want=$((want - 1)) ;; esac
        fi
        # shellcheck disable=SC2046
        expect_eq "$fab/$v: CAs discovered" \
            "$(cat $(cat "$d/$v/fabric") /dev/null | grep -cE '^(Ca|Hca)[[:space:]]')" "$want"
        # shellcheck disable=SC2046
        expect_eq "$fab/$v: switches discovered" \
            "$(cat $(cat "$d/$v/fabric") /dev/null | grep -c '^Switch')" "$nsw"
    done
    # 4. and 5. railyard verify
    if [ "$have_verify" = yes ]; then
        "$RAILYARD" cabling "$spec" -o "$d/cab" >/dev/null 2>"$d/cab.err"
        expect_eq "$fab: railyard cabling exit" $? 0
        for v in clean faulted; do
            want=1
            [ "$v" = clean ] && want=0
            # shellcheck disable=SC2046
            verify_run "$fab/$v" "$spec" "$want" "$d/$v.json" "$d/$v" $(cat "$d/$v/fabric")
        done
        # 6. and 7. the OpenSM files for the fabric found, on OpenSM
        for v in clean faulted; do
            o=$d/$v/osm
            set -- --ignore-rates
            [ "$v" = faulted ] && set -- "$@" --as-found
            # shellcheck disable=SC2046
            "$RAILYARD" opensm "$spec" -o "$o" "$@" $(sed 's/^/--fabric /' "$d/$v/fabric") \
                >"$o.out" 2>"$o.err"
            expect_eq "$fab/$v: railyard opensm --fabric $* exit" $? 0
            no_sanitizer "$o.err"
            if ! ls "$o"/opensm/*/lfts.dump >/dev/null 2>&1; then
                fail "$fab/$v: railyard opensm --fabric wrote no lfts.dump"
                sed 's/^/    /' "$o.err" | head -n 5
                continue
            fi
            checks_of "$fab/$v" names "$o/opensm"
            checks_of "$fab/$v" files "$d/plan/opensm" "$d/$v" "$d/$v.json" "$o/opensm"
            if [ "$v" = clean ]; then
                [ -s "$o.err" ] && fail "$fab/$v: railyard opensm --fabric says: $(head -n 1 "$o.err")" || ok
                checks_of "$fab/$v" renamed "$d/plan/opensm" "$o/opensm"
            else
                checks_of "$fab/$v" not-cabled "$d/plan/opensm" "$d/$v" "$o.err"
            fi
            for sub in "$o"/opensm/*/; do
                s=$(basename "$sub")
                osm_file "$fab/$v/$s" "$d/$v/$s/topology.net" "${sub%/}" "$d/$v/run-$s"
            done
        done
    fi
done <<EOF
$CASES
EOF
if [ "$nspec" -eq 0 ]; then
    echo "SKIP: no spec could run"
    exit 77
fi
[ "$have_verify" = yes ] || echo "verify not built: stages 4-5 skipped"
finish
