#!/bin/sh
# `railyard ethernet` of a 32,768-GPU RoCE fabric (tests/bench/eth-32k.yaml:
# 1,280 switches, 65,536 BGP sessions, 4,096 servers): every config, wall
# time and peak RSS against the targets of 10 s and 1 GB, the files and
# their size, and a second run that must give the same bytes.
#
#   sh tests/bench/ethernet-bench.sh path/to/railyard
set -u
RY=${1:?usage: ethernet-bench.sh RAILYARD}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-eth-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
spec="$top/tests/bench/eth-32k.yaml"
echo "railyard ethernet $spec; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for run in 1 2; do
    /usr/bin/time -f '%e %U %S %M' -o "$out/time$run" "$RY" ethernet "$spec" -o "$out/run$run" \
        >"$out/log$run" 2>&1 || { echo "railyard failed:"; cat "$out/log$run"; exit 1; }
    read -r secs user sys kb <"$out/time$run"
    echo "  run $run: $secs s ($user s user, $sys s system), peak RSS $((kb / 1024)) MB" \
         "(targets: 10 s, 1024 MB)"
done
echo "  files: $(find "$out/run1/ethernet" -type f | wc -l), $(du -sm "$out/run1/ethernet" | cut -f1) MB"
if diff -r "$out/run1/ethernet" "$out/run2/ethernet" >/dev/null; then
    echo "  same bytes in both runs: yes"
else
    echo "  same bytes in both runs: NO"
    exit 1
fi
