#!/bin/sh
# railyard draw on a 1,048,576-GPU fabric (the SuperPOD example grown to
# 131,072 DGX H100 on radix-64 QM9700 switches: four tiers, 114,688
# switches, 4.2 million links): wall time and peak RSS of the summary view
# end to end (spec, fabric, DOT, and Graphviz's dot rendering SVG), against
# the target of 5 s; then the rail and unit views, the size of the DOT, and
# a second run that must give the same bytes.
#
#   sh tests/bench/draw-bench.sh path/to/railyard [GPUS]
set -u
RY=${1:?usage: draw-bench.sh RAILYARD [GPUS]}
GPUS=${2:-1048576}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-draw-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
spec="$top/examples/superpod-4su.yaml"
command -v dot >/dev/null 2>&1 || { echo "Graphviz's dot is not installed"; exit 1; }

echo "railyard draw, $spec with cluster.gpus=$GPUS; $(dot -V 2>&1)"
run() {     # run NAME ARGS...: time one railyard draw
    name=$1
    shift
    /usr/bin/time -f '%e %M' -o "$out/$name.time" "$RY" draw "$spec" --set cluster.gpus="$GPUS" \
        "$@" >"$out/$name.log" 2>&1 || { echo "railyard failed:"; cat "$out/$name.log"; exit 1; }
    read -r secs kb <"$out/$name.time"
    printf '  %-34s %6.2f s, peak RSS %4d MB\n' "$name" "$secs" "$((kb / 1024))"
}
run "summary, DOT" -o "$out/summary.dot"
run "summary, SVG (with dot)" -o "$out/summary.svg"
run "summary, SVG again" -o "$out/summary2.svg"
run "summary, PNG (with dot)" -o "$out/summary.png"
run "rail=0, SVG" --view rail=0 -o "$out/rail0.svg"
run "unit=0, SVG" --view unit=0 -o "$out/unit0.svg"
/usr/bin/time -f '%e' -o "$out/dot.time" dot -Tsvg "$out/summary.dot" -o "$out/dot.svg"
printf '  %-34s %6.2f s\n' "dot -Tsvg alone on the summary" "$(cat "$out/dot.time")"
printf '  summary DOT: %d bytes, %d boxes, %d lines of links\n' "$(wc -c <"$out/summary.dot")" \
    "$(grep -c '^ *b[0-9]* \[shape=' "$out/summary.dot")" "$(grep -c '^  b[0-9]*.* -> b[0-9]*.*label=' "$out/summary.dot")"
same=yes
cmp -s "$out/summary.svg" "$out/summary2.svg" || same=no
echo "  same SVG bytes in both runs: $same"
read -r secs kb <"$out/summary, SVG (with dot).time"
awk -v s="$secs" 'BEGIN { printf "  target 5 s for the summary SVG: %s (%.2f s)\n", s < 5 ? "met" : "MISSED", s }'
[ "$same" = yes ]
