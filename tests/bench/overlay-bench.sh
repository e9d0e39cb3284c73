#!/bin/sh
# -T catalog overlays: two layers of N valid node entries (N = 20,000,
# 40,000, 80,000) with the same names, the upper one over the lower; the
# time of `catalog nodes` at each N. Linear merging shows as time doubling
# with N; the quadratic merge it replaced took minutes at 80,000.
set -u
ry=${1:?usage: overlay-bench.sh RAILYARD}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/railyard-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for n in 20000 40000 80000; do
    mkdir -p "$tmp/$n/lo" "$tmp/$n/hi"
    for side in lo hi; do
        awk -v n="$n" -v s="$side" 'BEGIN { print "nodes:"
            for (i = 0; i < n; i++)
                printf "  n%d: {description: %s, gpus_per_node: 8, hb_domain: 8, nic_speed: NDR}\n", i, s }' \
            >"$tmp/$n/$side/nodes.yaml"
    done
    t0=$(date +%s.%N)
    RAILYARD_TEMPLATES="$tmp/$n/lo" "$ry" -T "$tmp/$n/hi" catalog nodes >"$tmp/out" || exit 1
    t1=$(date +%s.%N)
    rows=$(grep -c ' hi$' "$tmp/out")
    printf '%6d entries per layer: %6.2f s, %d rows from the upper layer\n' "$n" \
        "$(echo "$t1 - $t0" | bc)" "$rows"
done
