#!/bin/sh
# The full model's layout search (railyard model): wall time against its
# target (2 s; DeepSeek-V3 on 2,048 GPUs 0.2 s), for Llama 3 70B on 98,304 and 100,000 H100 (every size
# searched: tensor, context, pipeline, interleaving, data with idle GPUs,
# micro-batch, recomputation), DeepSeek-V3 on 2,048 H800 (experts), and
# Llama 3.1 405B at 128K tokens on 16,384 H100. Each runs twice; the second
# run must give the same bytes. Not part of make check.
#
#   sh tests/bench/model-bench.sh path/to/railyard
set -u
RY=${1:?usage: model-bench.sh RAILYARD}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-model-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
for n in 98304 100000; do
    printf 'name: l70-%s\ncluster: {gpus: %s, node: dgx-h100}\nworkload: {model: llama-3-70b}\n' \
        "$n" "$n" >"$out/l70-$n.yaml"
done
printf 'name: dsv3\ncluster: {gpus: 2048, node: dgx-h100}\nworkload: {model: deepseek-v3, gpu: h800}\n' \
    >"$out/dsv3.yaml"
printf 'name: l405-128k\ncluster: {gpus: 16384, node: dgx-h100}\nworkload:\n  model: {name: llama-3-405b, seq_len: 131072}\n  batch: 128\n' \
    >"$out/l405.yaml"
missed=0
for f in l70-98304 l70-100000 dsv3 l405; do
    t0=$(date +%s.%N)
    "$RY" model "$out/$f.yaml" >"$out/$f.1" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    "$RY" model "$out/$f.yaml" >"$out/$f.2" 2>&1
    s=$(echo "$t1 - $t0" | bc)
    same=yes
    cmp -s "$out/$f.1" "$out/$f.2" || same=NO
    printf '%-12s exit %s  %6.2f s  same bytes: %s  %s\n' "$f" "$rc" "$s" "$same" \
        "$(sed -n 2p "$out/$f.1")"
    target=2
    [ "$f" = dsv3 ] && target=0.2
    if [ "$rc" != 0 ] || [ "$same" != yes ] || [ "$(echo "$s > $target" | bc)" = 1 ]; then
        missed=$((missed + 1))
    fi
done
echo "$missed missed the target (or failed)"
[ "$missed" = 0 ]
