#!/bin/sh
# railyard verify at 32,768 GPUs (the SuperPOD example grown to 4,096 DGX
# H100: 98,304 cables, 2,560 switches, one subnet): wall time and peak RSS
# against the targets of 2 s and 500 MB, and at 4,096 and 16,384 GPUs the
# time per cable, to show that matching grows about linearly with the links.
# For each size:
#  1. railyard build writes the plan: opensm/plane0/topology.net (the plan
#     in ibnetdiscover's format) and cabling/cabling.csv (cable labels and
#     racks); no command writes topology.net without the routing tables, so
#     they are written without port GUIDs (a third of the size, about 1 GB
#     at 32,768 GPUs) and deleted at once;
#  2. tests/verify-inject.py turns the plan into the fabric as found: random
#     GUIDs, vendor switch descriptions (switches are placed by their
#     cables) and, in the same places for the same size, 60 faults of each
#     kind that applies (uplink:2 where there are core switches; extra
#     cables and unknown hosts only if switch ports are free: the SuperPOD
#     has none), with the findings expected;
#  3. railyard verify SPEC FABRIC --format json five times (the same bytes;
#     the fastest run for the scaling: a loaded machine only slows runs
#     down), the text report, and --work-order FILE, each timed; the
#     targets apply to the first JSON run, the text and the work order.
#     verify must exit 1, and tests/verify-check.py checks the fabric
#     against the plan by hand, and verify's findings, labels, fixes and
#     work order against the injector's.
#
#   sh tests/bench/verify-bench.sh path/to/railyard [NODES...]
#
# NODES: DGX H100 servers per size (8 GPUs each), default 512 2048 4096; the
# targets apply to the last. About a minute and 1.2 GB in $TMPDIR (default
# /tmp) at the largest size. Not part of make check.
set -u
RY=${1:?usage: verify-bench.sh RAILYARD [NODES...]}
shift
SIZES=${*:-512 2048 4096}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-verify-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
spec="$top/examples/superpod-4su.yaml"
FAULTS="port-swap rail-swap unit-swap uplink missing missing:nic"
PER_KIND=60
RUNS=5
SEED=1

# timed FILE CMD...: wall time, peak RSS and CPU time (user + system) of
# CMD into FILE ("secs kb cpu"); the exit status of CMD.
timed() {
    _t=$1
    shift
    /usr/bin/time -f '%e %M %U %S' -o "$_t.raw" "$@"
    _rc=$?
    tail -n 1 "$_t.raw" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' >"$_t"
    return $_rc
}

# verify_run NAME CMD...: a timed verify that must exit 1 (findings).
verify_run() {
    _n=$1
    shift
    timed "$d/$_n.time" "$RY" verify "$spec" --set cluster.nodes="$nodes" "$@" 2>"$d/$_n.err"
    _rc=$?
    if [ $_rc -ne 1 ]; then
        echo "  verify ($_n) exit $_rc, want 1 (findings):"
        cat "$d/$_n.err"
        bad=1
    fi
}

# checks LABEL MODE ARGS...: tests/verify-check.py, its FAIL lines shown.
checks() {
    _label=$1
    shift
    "$PY" "$top/tests/verify-check.py" "$@" >"$d/check.out" 2>&1 || bad=1
    _fails=$(grep -c '^FAIL' "$d/check.out")
    if [ "$_fails" -ne 0 ] || [ "$(grep -c '^ok$' "$d/check.out")" -eq 0 ]; then
        echo "  $_label: $_fails checks failed:"
        grep -v '^ok$' "$d/check.out" | head -20 | sed 's/^/    /'
        bad=1
    fi
}

echo "railyard verify, $spec, cluster.nodes = $SIZES (x 8 GPUs);" \
     "$PER_KIND faults of each kind; load: $(uptime | sed 's/.*load average/load average/')"
bad=0
missed=0
same=yes
: >"$out/scaling"
for nodes in $SIZES; do
    d=$out/$nodes
    mkdir -p "$d"
    # 1. the plan
    if ! timed "$d/build.time" "$RY" build "$spec" --set cluster.nodes="$nodes" \
            --set infiniband.lft_portguid=false --skip slurm,diagrams -o "$d/plan" \
            >"$d/build.log" 2>&1; then
        echo "railyard build failed:"
        cat "$d/build.log"
        exit 1
    fi
    rm -f "$d"/plan/opensm/*/lfts.dump
    faults=$FAULTS
    # spine-to-core cables where there is a third tier
    grep -q '# "core[0-9]' "$d"/plan/opensm/*/topology.net && faults="$faults uplink:2"
    set --
    for f in $faults; do
        i=0
        while [ $i -lt $PER_KIND ]; do set -- "$@" --fault "$f"; i=$((i + 1)); done
    done
    free=$(cat "$d"/plan/opensm/*/topology.net | awk '
        /^Switch/ { free += $2 } /^\[/ && sw { free-- }
        /^Switch/ { sw = 1 } /^(Ca|Hca)[ \t]/ { sw = 0 } END { print free + 0 }')
    if [ "$free" -gt 0 ]; then
        i=0
        while [ $i -lt $PER_KIND ] && [ $i -lt $((free / 4)) ]; do
            set -- "$@" --fault extra --fault unknown
            i=$((i + 1))
        done
    fi
    # 2. the fabric as found
    if ! timed "$d/inject.time" "$PY" "$top/tests/verify-inject.py" --plan "$d/plan/opensm" \
            --out "$d/fabric" --expect "$d/expect.json" --seed $SEED "$@" \
            >"$d/inject.log" 2>&1; then
        echo "verify-inject.py failed:"
        tail -5 "$d/inject.log"
        exit 1
    fi
    set --
    for f in "$d"/fabric/*/topology.net; do set -- "$@" "$f"; done
    cables=$(cat "$@" | awk '/^\[[0-9]+\]/ { n++ } END { print n / 2 }')
    planned=$(cat "$d"/plan/opensm/*/topology.net | awk '/^\[[0-9]+\]/ { n++ } END { print n / 2 }')
    # 3. verify, checked
    i=1
    while [ $i -le $RUNS ]; do
        verify_run json$i "$@" --format json -o "$d/verify$i.json"
        i=$((i + 1))
    done
    verify_run text "$@" -o "$d/report.txt"
    verify_run work-order "$@" --work-order "$d/work-order.csv" -o "$d/report2.txt"
    for p in "$d"/verify[2-9]*.json "$d/report2.txt"; do
        case $p in *.json) q=$d/verify1.json ;; *) q=$d/report.txt ;; esac
        cmp -s "$p" "$q" || { same=no; echo "  DIFFERS: $(basename "$p") $(basename "$q")"; }
    done
    mkdir -p "$d/disc"
    for s in "$d"/fabric/*/; do
        s=$(basename "$s")
        ln -s "$d/fabric/$s/topology.net" "$d/disc/$s.net"
    done
    checks "$nodes: fabric" discovered "$d/plan/opensm" "$d/fabric" "$d/disc" "$d/expect.json"
    checks "$nodes: json" json "$d/plan/opensm" "$d/plan/cabling/cabling.csv" \
        "$d/expect.json" "$d/verify1.json"
    checks "$nodes: work order" work-order "$d/plan/opensm" "$d/plan/cabling/cabling.csv" \
        "$d/expect.json" "$d/work-order.csv"
    findings=$("$PY" -c 'import json, sys
from collections import Counter
x = json.load(open(sys.argv[1]))["findings"]
c = Counter(f["kind"] + ("/" + f["class"] if f["class"] else "") for f in x)
print(len(x), ", ".join("%s %d" % kv for kv in sorted(c.items())))' "$d/verify1.json")
    read -r bsecs _ _ <"$d/build.time"
    read -r isecs ikb _ <"$d/inject.time"
    read -r secs kb cpu <"$d/json1.time"
    # the JSON runs: the fastest (wall, CPU), the median and the slowest
    read -r wmin wmed wmax <<EOF
$(cat "$d"/json[0-9]*.time | sort -g | awk '{ w[NR] = $1 }
    END { print w[1], w[int((NR + 1) / 2)], w[NR] }')
EOF
    cmin=$(cat "$d"/json[0-9]*.time | awk '{ print $3 }' | sort -g | head -n 1)
    read -r tsecs tkb tcpu <"$d/text.time"
    read -r wsecs wkb wcpu <"$d/work-order.time"
    echo "$((nodes * 8)) GPUs: $planned cables planned, $cables found, findings ${findings%% *}" \
         "(${findings#* })"
    printf '  plan (railyard build) %.2f s; injector %.2f s, %d MB\n' "$bsecs" "$isecs" \
        $((ikb / 1024))
    printf '  verify --format json  %6.2f s (CPU %5.2f s) %5d MB; %d runs: %.2f / %.2f / %.2f s' \
        "$secs" "$cpu" $((kb / 1024)) $RUNS "$wmin" "$wmed" "$wmax"
    echo " (min / median / max)"
    printf '  verify (text report)  %6.2f s (CPU %5.2f s) %5d MB\n' "$tsecs" "$tcpu" $((tkb / 1024))
    printf '  verify --work-order   %6.2f s (CPU %5.2f s) %5d MB   (%d rows)\n' "$wsecs" "$wcpu" \
        $((wkb / 1024)) $(($(wc -l <"$d/work-order.csv") - 1))
    printf '%s %s %s %s\n' $((nodes * 8)) "$cables" "$wmin" "$cmin" >>"$out/scaling"
    # the targets, on the slowest and largest of the first JSON run, the
    # text report and the work order
    tmax=$(printf '%s\n' "$secs" "$tsecs" "$wsecs" | sort -g | tail -n 1)
    kmax=$(cat "$d"/json[0-9]*.time "$d/text.time" "$d/work-order.time" |
        awk '{ print $2 }' | sort -n | tail -n 1)
    rm -rf "$d/plan" "$d/fabric"
done
echo "scaling of verify --format json (the fastest of $RUNS runs, wall and CPU; the last"
echo "column is the CPU time each cable adds to the size before, fixed costs left out):"
awk 'BEGIN { printf "  %7s %8s %7s %7s %12s %12s %14s\n", "GPUs", "cables", "wall s", "CPU s",
             "wall us/cab", "CPU us/cab", "CPU us/added" }
     { d = NR > 1 && $2 > c ? sprintf("%.2f", ($4 - t) * 1e6 / ($2 - c)) : "-"
       printf "  %7d %8d %7.2f %7.2f %12.2f %12.2f %14s\n", $1, $2, $3, $4,
              $3 * 1e6 / $2, $4 * 1e6 / $2, d
       c = $2; t = $4 }' "$out/scaling"
echo "same bytes in every run (JSON; text report with and without --work-order): $same"
awk -v s="$tmax" -v k="$kmax" -v g=$((nodes * 8)) 'BEGIN {
    printf "at %d GPUs, the slowest of the first JSON run, text and work order:\n", g
    printf "  target 2 s: %s (%.2f s); target 500 MB: %s (%d MB)\n",
        s < 2 ? "met" : "MISSED", s, k / 1024 < 500 ? "met" : "MISSED", k / 1024 }'
awk -v s="$tmax" -v k="$kmax" 'BEGIN { exit !(s < 2 && k / 1024 < 500) }' || missed=1
[ "$same" = yes ] && [ "$bad" -eq 0 ] && [ "$missed" -eq 0 ]
