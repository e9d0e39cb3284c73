#!/bin/sh
# LIBRA's solver on a 4-D network of 4,096 NPUs with 100 layers: how long
# `railyard optimize` takes, whole command (spec read, checks, 12 starts,
# report). A report, not a test: the goal is well under a second.
#   two workloads: "transformer" (every layer a tensor-parallel all-reduce in
#   forward and input gradient and a data-parallel gradient all-reduce, every
#   fourth an all-to-all), and "random" (each phase a random collective over
#   random group sizes: hundreds of distinct max terms, the worst case).
# Usage: libra-bench.sh RAILYARD   (RAILYARD_TEMPLATES: the catalog)
set -u
RY=${1:?usage: libra-bench.sh path/to/railyard}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/libra-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

head_spec() {
    cat <<'H'
name: libra-bench
cluster: {gpus: 4096, hb_domain: 8, gpus_per_node: 8}
network:
  dims:
    - {name: package, block: ring, size: 4, tech: chiplet}
    - {name: node, block: fully-connected, size: 8, tech: package}
    - {name: pod, block: ring, size: 4, tech: node}
    - {name: scale_out, block: switch, size: 32, tech: pod}
libra:
  budget: 1000
  constraints: ["package >= node", "pod + scale_out >= 100"]
  layers:
H
}

{ head_spec; awk 'BEGIN {
    for (l = 0; l < 100; l++) {
        c = 2 + (l % 7) * 0.5
        fw = (l % 4 == 3) ? "all-to-all" : "all-reduce"
        printf "    - {name: l%d, forward: {compute: %.3fms, collective: %s, bytes: %d, groups: [4, 4, 1, 1]},\n", l, c, fw, 3e8 + l * 1e6
        printf "       input_grad: {compute: %.3fms, collective: all-reduce, bytes: %d, groups: [4, 4, 1, 1]},\n", c, 3e8 + l * 1e6
        printf "       weight_grad: {compute: %.3fms, collective: all-reduce, bytes: %d, groups: [1, 2, 4, 32]}}\n", c, 7.5e7 + l * 3e5
    }
}'; } >"$TMP/transformer.yaml"

{ head_spec; awk 'BEGIN {
    seed = 12345
    split("4 8 4 32", size, " ")
    split("all-reduce reduce-scatter all-gather all-to-all", coll, " ")
    for (l = 0; l < 100; l++) {
        printf "    - name: l%d\n", l
        split("forward input_grad weight_grad", ph, " ")
        for (p = 1; p <= 3; p++) {
            g = ""
            for (i = 1; i <= 4; i++) {
                seed = (seed * 1103515245 + 12345) % 2147483648
                k = int(seed / 65536) % 3          # 1, half, all of the dimension
                v = k == 0 ? 1 : (k == 1 ? size[i] / 2 : size[i])
                g = g (i > 1 ? ", " : "") v
            }
            seed = (seed * 1103515245 + 12345) % 2147483648
            c = coll[1 + int(seed / 65536) % 4]
            printf "      %s: {compute: 1ms, collective: %s, bytes: %d, groups: [%s]}\n", ph[p], c, 1e8 + (l * 7 + p) * 1e6, g
        }
    }
}'; } >"$TMP/random.yaml"

for w in transformer random; do
    "$RY" optimize "$TMP/$w.yaml" >"$TMP/$w.out" 2>&1 || { echo "$w: optimize failed"; cat "$TMP/$w.out"; exit 1; }
    start=$(date +%s.%N)
    "$RY" optimize "$TMP/$w.yaml" >/dev/null 2>&1
    end=$(date +%s.%N)
    terms=$(sed -n 's/.*%\? \([0-9]*\) max terms\{0,1\}$/\1/p; s/^workload: .*; \([0-9]*\) max term.*/\1/p' "$TMP/$w.out" | head -1)
    speed=$(sed -n 's/^speedup \([0-9.]*x\).*/\1/p' "$TMP/$w.out")
    printf 'libra %-11s 4-D, 100 layers, %s max terms: %.3f s (speedup %s over the equal split)\n' \
        "$w" "$terms" "$(echo "$end - $start" | bc)" "$speed"
done
