#!/bin/sh
# railyard traffic at 65,536 GPUs: wall time and peak RSS against the
# targets of 10 s and 2 GB, for three clusters that stress different parts:
#   - the paper's: 256 GH200 HB domains of 256 on radix-64 switches,
#     rail-optimized (N_Df = 256: few flows per GPU, a third of the links
#     idle), with every output file (links.csv, heatmap);
#   - 8,192 DGX H100 (HB domains of 8, N_Df = 8,192: 537 million flows,
#     aggregated per destination), rail-optimized;
#   - the same as a fat tree (same-rank GPUs spread over every leaf: the
#     most source leaves per destination).
# A second run of the first must give the same bytes. Not part of make check.
#
#   sh tests/bench/traffic-bench.sh path/to/railyard
set -u
RY=${1:?usage: traffic-bench.sh RAILYARD}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-traffic-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

cat >"$out/h100.yaml" <<'EOF'
name: h100-64k
cluster: {nodes: 8192, node: dgx-h100}
fabric: {switch: qm9700}
workload: {model: gpt-3-175b, batch: 16384}
EOF
gh="$top/tests/data/model/gpt3-gh200.yaml"
missed=0
run() {     # run LABEL OUTDIR ARGS...
    label=$1 dir=$2
    shift 2
    /usr/bin/time -f '%e %M' -o "$out/time" "$RY" traffic "$@" ${dir:+-o "$dir"} >"$out/log" 2>&1 \
        || { echo "railyard failed:"; cat "$out/log"; exit 1; }
    read -r secs kb <"$out/time"
    flows=$(sed -n 's/^  flows \([0-9]*\),.*/\1/p' "$out/log")
    idle=$(sed -n 's/^  all .* \([0-9.]*%\)$/\1/p' "$out/log")
    ok=$(awk -v s="$secs" -v k="$kb" 'BEGIN { print (s < 10 && k < 2097152) ? "met" : "MISSED" }')
    [ "$ok" = met ] || missed=1
    printf '  %-44s %6.2f s  %6d MB  %11s flows  idle links %-6s targets %s\n' "$label" "$secs" \
        $((kb / 1024)) "$flows" "$idle" "$ok"
}
echo "railyard traffic, 65,536 GPUs (targets: 10 s, 2 GB)"
run "GH200 K=256, rail-optimized, radix 64, -o" "$out/a" "$gh" --set cluster.gpus=65536
run "same, second run" "$out/b" "$gh" --set cluster.gpus=65536
run "DGX H100 K=8, rail-optimized, qm9700" "" "$out/h100.yaml"
run "DGX H100 K=8, fat tree, qm9700" "" "$out/h100.yaml" --set fabric.design=fat-tree
ls -l "$out/a" | awk 'NR > 1 { printf "  %-16s %8.1f MB\n", $9, $5 / 1048576 }'
same=yes
for f in "$out"/a/*; do
    cmp -s "$f" "$out/b/$(basename "$f")" || { same=no; echo "  DIFFERS: $(basename "$f")"; }
done
echo "  same bytes in both runs: $same"
[ "$same" = yes ] && [ "$missed" -eq 0 ]
