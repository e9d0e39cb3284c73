#!/bin/sh
# `railyard build --skip opensm` of 1,048,576 GPUs (the SuperPOD example
# grown to 131,072 DGX H100: 4,194,304 cables, 114,688 switches, every other
# artefact: summary, bom.json, fabric.json, the cabling plan with its
# workbook, Slurm topology, diagrams): wall time and peak RSS against the
# targets of 60 s and 4 GB, the size of each file, the time of the cabling
# group alone and without its workbook's share, and a second run that must
# give the same bytes. After each run, the floor: the time to write
# the same bytes to the same directory (cp -r of the first run's tree) plus
# the time to deflate the workbooks' XML at level 1, that of their rows
# (nearly all of their bytes), with zlib (deflate_floor, given as
# $DEFLATE_FLOOR; without it no floor); then each run's time over it.
#
#   sh tests/bench/build-bench.sh path/to/railyard [NODES]
#
# Needs about 8 GB in $TMPDIR (default /tmp): two runs and the floor's copy.
set -u
RY=${1:?usage: build-bench.sh RAILYARD [NODES]}
NODES=${2:-131072}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-build-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
spec="$top/examples/superpod-4su.yaml"

echo "railyard build --skip opensm, $spec with cluster.nodes=$NODES ($((NODES * 8)) GPUs);" \
     "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
# The floor: its line, then its seconds on a line of their own
floor() {
    t0=$(date +%s.%N)
    cp -r "$out/run1" "$out/copy"
    t1=$(date +%s.%N)
    rm -rf "$out/copy"
    # shellcheck disable=SC2046 # the workbooks' paths have no spaces
    "$DEFLATE_FLOOR" 1 $(find "$out/run1" -name '*.xlsx' | sort) >"$out/deflate" || return 1
    read -r dsecs xml zb <"$out/deflate"
    awk -v t0="$t0" -v t1="$t1" -v d="$dsecs" -v x="$xml" -v z="$zb" \
        -v b="$(find "$out/run1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')" 'BEGIN {
        c = t1 - t0
        printf "  floor: %.1f s = writing %.0f MB (cp -r) %.1f s + deflating %.0f MB of the" \
               " workbooks'"'"' XML at level 1 (to %.0f MB) %.1f s\n",
               c + d, b / 1048576, c, x / 1048576, z / 1048576, d
        print c + d }'
}
for run in 1 2; do
    /usr/bin/time -f '%e %M %U %S' -o "$out/time$run" "$RY" build "$spec" --set cluster.nodes="$NODES" \
        --skip opensm -o "$out/run$run" >"$out/log$run" 2>&1 || { echo "railyard failed:"; cat "$out/log$run"; exit 1; }
    read -r secs kb usr sys <"$out/time$run"
    echo "  run $run: $secs s (CPU $usr s user + $sys s sys), peak RSS $((kb / 1024)) MB"
    if [ -n "${DEFLATE_FLOOR:-}" ]; then
        echo "  load before floor $run: $(cut -d' ' -f1-3 /proc/loadavg)"
        floor >>"$out/floors" || { echo "deflate_floor failed"; exit 1; }
        tail -n 2 "$out/floors" | head -n 1
    fi
    [ "$run" = 1 ] || continue
    (cd "$out/run1" && find . -type f ! -name '.*' -printf '%P %s\n' | sort) |
        awk '{ printf "    %-34s %9.1f MB\n", $1, $2 / 1048576 }'
done
if [ -s "$out/floors" ]; then
    # each run against the floor measured after it (the load drifts)
    f1=$(sed -n 2p "$out/floors"); f2=$(sed -n 4p "$out/floors")
    read -r s1 _ <"$out/time1"
    read -r s2 _ <"$out/time2"
    awk -v f1="$f1" -v f2="$f2" -v a="$s1" -v b="$s2" 'BEGIN {
        printf "  build / floor: run 1 %.2fx, run 2 %.2fx (target 2x: %s)\n",
            a / f1, b / f2, (a / f1 + b / f2) / 2 <= 2 ? "met" : "MISSED" }'
fi
same=yes
(cd "$out/run1" && find . -type f | sort) >"$out/files"
while read -r f; do
    cmp -s "$out/run1/$f" "$out/run2/$f" || { same=no; echo "  DIFFERS: $f"; }
done <"$out/files"
echo "  same bytes in both runs: $same"
rm -rf "$out/run2"
/usr/bin/time -f '%e %M' -o "$out/time-cab" "$RY" cabling "$spec" --set cluster.nodes="$NODES" \
    -o "$out/cab" >/dev/null 2>&1
read -r csecs ckb <"$out/time-cab"
echo "  railyard cabling alone: $csecs s, peak RSS $((ckb / 1024)) MB"
read -r secs kb <"$out/time1"
awk -v s="$secs" -v k="$kb" 'BEGIN {
    printf "  target 60 s: %s (%.1f s); target 4 GB: %s (%d MB)\n",
        s < 60 ? "met" : "MISSED", s, k / 1024 < 4096 ? "met" : "MISSED", k / 1024 }'
[ "$same" = yes ]
