#!/bin/sh
# The cabling plan at 65,536 GPUs (the SuperPOD example grown to 8,192 DGX
# H100: about 200,000 cables and 2,400 racks): wall time and peak RSS of
# `railyard cabling`, against the targets of 5 s and 500 MB, the size of
# each file, and a second run that must give the same bytes.
#
#   sh tests/bench/cabling-bench.sh path/to/railyard [NODES]
#
# The workbook's sheets go through temporary files in $TMPDIR (default /tmp),
# about 400 MB at this size, one per sheet: the file system there matters.
set -u
RY=${1:?usage: cabling-bench.sh RAILYARD [NODES]}
NODES=${2:-8192}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-cabling-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
spec="$top/examples/superpod-4su.yaml"

echo "railyard cabling, $spec with cluster.nodes=$NODES ($((NODES * 8)) GPUs);" \
     "open files: soft $(ulimit -Sn), hard $(ulimit -Hn); TMPDIR=${TMPDIR:-/tmp}"
for run in 1 2; do
    /usr/bin/time -f '%e %M' -o "$out/time$run" "$RY" cabling "$spec" --set cluster.nodes="$NODES" \
        -o "$out/run$run" >"$out/log$run" 2>&1 || { echo "railyard failed:"; cat "$out/log$run"; exit 1; }
    read -r secs kb <"$out/time$run"
    echo "  run $run: $secs s, peak RSS $((kb / 1024)) MB   ($(cat "$out/log$run"))"
done
ls -l "$out/run1/cabling" | awk 'NR > 1 { printf "  %-20s %8.1f MB\n", $9, $5 / 1048576 }'
same=yes
for f in "$out"/run1/cabling/*; do
    cmp -s "$f" "$out/run2/cabling/$(basename "$f")" || { same=no; echo "  DIFFERS: $(basename "$f")"; }
done
echo "  same bytes in both runs: $same"
read -r secs kb <"$out/time1"
awk -v s="$secs" -v k="$kb" 'BEGIN {
    printf "  target 5 s: %s (%.2f s); target 500 MB: %s (%d MB)\n",
        s < 5 ? "met" : "MISSED", s, k / 1024 < 500 ? "met" : "MISSED", k / 1024 }'
[ "$same" = yes ]
