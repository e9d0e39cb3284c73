#!/bin/sh
# The flow engine's cost (net/): wall time and peak RSS of
#   (a) railyard model of Llama 3 70B and of DeepSeek-V3 (expert parallel
#       64: an expert all-to-all of about 970,000 flows) on 16,384 H100, the
#       layout's collectives on the engine (target: 5 s), --analytic beside;
#   (b) the same on 131,072 H100 (target: 60 s);
#   (c) railyard collective on the 16,384 GPUs: an all-reduce of every rank
#       and an all-to-all of 1,024 ranks (the most one phase holds: n(n-1)
#       flows, RY_COLL_MAX_FLOWS); no target, reported;
#   (d) railyard search, 21 fabrics of 16,384 GPUs (3 designs x 7 tapers of
#       tests/bench/search-16k.yaml, one switch, no spares), with the engine,
#       with --analytic, and the same search of the reference commit REF
#       (the tree before the engine, built once in CACHE by ref-build.sh):
#       the time per point, target: the engine no more than 2x the
#       reference's time per point (in CPU seconds, user + system: what a
#       point costs, whatever else the machine runs; wall beside).
# Not part of make check; the targets are reported, not asserted by tests.
#
#   sh tests/bench/collective-bench.sh path/to/railyard [CACHE [REF]]
set -u
RY=${1:?usage: collective-bench.sh RAILYARD [CACHE [REF]]}
CACHE=${2:-}
REF=${3:-7b2e7e7}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-collective-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
for n in 16384 131072; do
    printf 'name: l70-%s\ncluster: {gpus: %s, node: dgx-h100}\nfabric: {switch: qm9700}\nworkload: {model: llama-3-70b}\n' \
        "$n" "$n" >"$out/l70-$n.yaml"
done
# DeepSeek-V3, expert parallel 64: its expert all-to-all, every group at
# once, is the biggest phase (about 970,000 flows)
printf 'name: dsv3-16384\ncluster: {gpus: 16384, node: dgx-h100}\nfabric: {switch: qm9700}\nworkload: {model: deepseek-v3, gpu: h800, parallelism: {expert: 64}}\n' \
    >"$out/dsv3-16384.yaml"
echo "railyard's flow engine; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-44s %9s %9s %9s  %s\n' "case" "wall s" "CPU s" "RSS MB" "target"
missed=0
# timed NAME TARGET-SECONDS COMMAND...: one row; TARGET 0: none
timed() {
    name=$1 target=$2
    shift 2
    /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$@" >"$out/log" 2>&1
    rc=$?
    read -r secs user sys kb <"$out/time"
    cpu=$(echo "$user + $sys" | bc)
    verdict=-
    if [ "$rc" != 0 ]; then
        verdict="FAILED (exit $rc): $(tail -1 "$out/log")"
        missed=$((missed + 1))
    elif [ "$target" != 0 ]; then
        if [ "$(echo "$secs < $target" | bc)" = 1 ]; then verdict="< $target s: met"
        else verdict="< $target s: MISSED"; missed=$((missed + 1)); fi
    fi
    printf '  %-44s %9.2f %9.2f %9d  %s\n' "$name" "$secs" "$cpu" "$((kb / 1024))" "$verdict"
    echo "$secs $cpu" >"$out/secs"
}
for f in l70-16384 dsv3-16384 l70-131072; do
    t=5
    [ "$f" = l70-131072 ] && t=60
    timed "model $f GPUs, engine" $t "$RY" model "$out/$f.yaml" -f json
    grep -o '"analytic_phases": *[0-9]*' "$out/log" | sed 's/^/      /'
    timed "model $f GPUs, --analytic" 0 "$RY" model "$out/$f.yaml" --analytic
done
# the result row (size ... algbw busbw) and the flows
coll_row() {
    awk '!/^#/ && NF >= 7 { printf "      busbw %s GB/s, ", $7 }
         /^# [0-9]+ flows/ { print $2, "flows" }' "$out/log"
}
timed "collective all-reduce 1G, 16384 ranks" 0 \
    "$RY" collective "$out/l70-16384.yaml" --op all-reduce --bytes 1G
coll_row
timed "collective all-to-all 1G, 1024 ranks" 0 \
    "$RY" collective "$out/l70-16384.yaml" --op all-to-all --bytes 1G --ranks 1024
coll_row
set -- --vary fabric.switch=qm9700 --vary spares.switches=0 --vary cost.spares=0 \
    --vary cost.rack=0 --fail leaf:1 --seeds 1 -j 1
# each three times, the least kept (the machine's other work only adds)
best() {  # LABEL BINARY ARGS...: the least wall and CPU of three runs into $out/best
    label=$1
    bin=$2
    shift 2
    : >"$out/runs"
    for i in 1 2 3; do
        timed "$label, run $i" 0 "$bin" -q search "$top/tests/bench/search-16k.yaml" "$@"
        cat "$out/secs" >>"$out/runs"
    done
    awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < c { c = $2 } END { print w, c }' \
        "$out/runs" >"$out/best"
}
best "search 21 points, engine" "$RY" "$@"
read -r eng_wall eng <"$out/best"
best "search 21 points, --analytic" "$RY" "$@" --analytic
read -r ana_wall ana <"$out/best"
ref=""
if [ -n "$CACHE" ]; then
    ref=$(sh "$top/tests/bench/ref-build.sh" "$CACHE" "$REF") || ref=""
fi
if [ -n "$ref" ]; then
    ours_templates=$RAILYARD_TEMPLATES
    RAILYARD_TEMPLATES="$ref/src/templates"     # each tree its own catalog
    best "search 21 points, $REF (before the engine)" "$ref/build/railyard" "$@"
    RAILYARD_TEMPLATES=$ours_templates
    read -r ref_wall refc <"$out/best"
    awk -v e="$eng" -v a="$ana" -v r="$refc" -v ew="$eng_wall" -v rw="$ref_wall" -v ref="$REF" 'BEGIN {
        printf "  search per point: engine %.3f s CPU (%.3f wall), %s %.3f s CPU (%.3f wall): " \
            "%.2fx (target 2x: %s); --analytic %.3f s CPU, engine / analytic %.2fx\n", e / 21, \
            ew / 21, ref, r / 21, rw / 21, e / r, e <= 2 * r ? "met" : "MISSED", a / 21, e / a }'
    [ "$(echo "$eng <= 2 * $refc" | bc)" = 1 ] || missed=$((missed + 1))
else
    awk -v e="$eng" -v a="$ana" -v ref="$REF" 'BEGIN {
        printf "  search per point: engine %.3f s CPU, --analytic %.3f s CPU: %.2fx (no " \
            "reference built: the 2x target is against %s, not judged)\n", e / 21, a / 21, e / a, ref }'
fi
echo "$missed missed a target (or failed)"
[ "$missed" = 0 ]
