#!/bin/sh
# `railyard search` of a 16,384-GPU cluster (tests/bench/search-16k.yaml:
# 10,395 points, 189 distinct fabrics each priced 55 ways), on one thread and
# on every processor: wall time against the target of 60 s, peak RSS, and
# the same bytes from both (stdout and every file of -o DIR). Then the worst
# case per point: 189 points that are all distinct fabrics, searched whole and
# bounded by a target time and a budget (the points beyond them pruned).
#
#   sh tests/bench/search-bench.sh path/to/railyard
set -u
RY=${1:?usage: search-bench.sh RAILYARD}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RAILYARD_TEMPLATES:=$top/templates}"
export RAILYARD_TEMPLATES
out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-search-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
spec="$top/tests/bench/search-16k.yaml"
n=$(nproc)
echo "railyard search $spec; $n CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for j in "$n" 1; do
    /usr/bin/time -f '%e %U %S %M' -o "$out/time$j" "$RY" -q search "$spec" -j "$j" \
        -o "$out/run$j" >"$out/log$j" 2>"$out/err$j" || { echo "railyard failed:"; cat "$out/err$j"; exit 1; }
    read -r secs user sys kb <"$out/time$j"
    echo "  -j $j: $secs s ($user s user, $sys s system), peak RSS $((kb / 1024)) MB (target: 60 s)"
    [ "$j" = 1 ] && break
done
head -1 "$out/log$n" | sed 's/^/  /'
if cmp -s "$out/log$n" "$out/log1" && diff -r "$out/run$n" "$out/run1" >/dev/null; then
    echo "  same bytes with -j $n and -j 1: yes"
else
    echo "  same bytes with -j $n and -j 1: NO"
    exit 1
fi
# every point a fabric of its own: prices fixed, spare switches varied instead
/usr/bin/time -f '%e %U %S %M' -o "$out/time-f" "$RY" -q search "$spec" -j "$n" \
    --vary cost.spares=0 --vary cost.rack=0 >"$out/log-f" 2>&1 || { cat "$out/log-f"; exit 1; }
read -r secs user sys kb <"$out/time-f"
pts=$(head -1 "$out/log-f" | sed 's/.*; \([0-9,]*\) points.*/\1/')
echo "  distinct fabrics only ($pts points): $secs s ($user s user), peak RSS $((kb / 1024)) MB"
/usr/bin/time -f '%e %U %S %M' -o "$out/time-b" "$RY" -q search "$spec" -j "$n" \
    --vary cost.spares=0 --vary cost.rack=0 --target-time 5.6 --budget 9e7 >"$out/log-b" 2>&1 ||
    { cat "$out/log-b"; exit 1; }
read -r secs user sys kb <"$out/time-b"
echo "  the same, --target-time 5.6 --budget 9e7: $secs s ($user s user);" \
    "$(head -1 "$out/log-b" | sed 's/.*points (\(.*\)); \([0-9,]*\) fabrics\{0,1\} built.*/\1; \2 built/')"
