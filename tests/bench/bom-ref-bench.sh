#!/bin/sh
# `railyard bom -f json` of 1,048,576 GPUs (the SuperPOD example grown to
# 131,072 DGX H100) against the same command of a reference commit: the
# reference is built once beside the tree (git archive into CACHE, then
# bootstrap, configure, make; kept between runs), then the two binaries run
# in turn RUNS times, each with its own tree's catalog and example, so a
# loaded machine slows both alike. Prints the median wall time, CPU time
# (user + system) and peak RSS of each and the ratios ours / reference.
#
#   sh tests/bench/bom-ref-bench.sh path/to/railyard CACHE [REF [NODES [RUNS]]]
#
# Needs git (the source tree a checkout) and the build tools; skipped with a
# note otherwise.
set -u
RY=${1:?usage: bom-ref-bench.sh RAILYARD CACHE [REF [NODES [RUNS]]]}
CACHE=${2:?usage: bom-ref-bench.sh RAILYARD CACHE [REF [NODES [RUNS]]]}
REF=${3:-7ff4428}
NODES=${4:-131072}
RUNS=${5:-5}
top=$(cd "$(dirname "$0")/../.." && pwd)

refdir=$(sh "$top/tests/bench/ref-build.sh" "$CACHE" "$REF")
case $? in
0) ;;
77) echo "bom against $REF: skipped (no git checkout with $REF at $top)"; exit 0 ;;
*) echo "bom against $REF: the reference does not build"; exit 1 ;;
esac

out=$(mktemp -d "${TMPDIR:-/tmp}/railyard-bom-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
echo "railyard bom -f json, superpod-4su.yaml with cluster.nodes=$NODES ($((NODES * 8)) GPUs)," \
     "ours against $REF, $RUNS runs each in turn; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
# run WHO BINARY TREE: one timed run, appended to $out/WHO as "secs kb user sys"
run() {
    RAILYARD_TEMPLATES="$3/templates" /usr/bin/time -f '%e %M %U %S' -o "$out/t" \
        "$2" bom "$3/examples/superpod-4su.yaml" --set cluster.nodes="$NODES" -f json \
        >/dev/null 2>"$out/err" || { echo "$1 failed:"; cat "$out/err"; exit 1; }
    tail -n 1 "$out/t" >>"$out/$1"
    read -r secs kb usr sys <"$out/t"
    printf '  %-8s %s s, %s KB, CPU %s s user + %s s sys\n' "$1" "$secs" "$kb" "$usr" "$sys"
}
i=0
while [ "$i" -lt "$RUNS" ]; do
    run ours "$RY" "$top"
    run ref "$refdir/build/railyard" "$refdir/src"
    i=$((i + 1))
done
# median COLUMN FILE
median() { cut -d' ' -f"$1" "$2" | sort -n | awk '{ v[NR] = $1 } END {
    print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for w in ours ref; do awk '{ print $1, $2, $3 + $4 }' "$out/$w" >"$out/$w.c"; done
ts=$(median 1 "$out/ours.c"); tr=$(median 1 "$out/ref.c")
ks=$(median 2 "$out/ours.c"); kr=$(median 2 "$out/ref.c")
cs=$(median 3 "$out/ours.c"); cr=$(median 3 "$out/ref.c")
awk -v ts="$ts" -v tr="$tr" -v ks="$ks" -v kr="$kr" -v cs="$cs" -v cr="$cr" -v ref="$REF" 'BEGIN {
    printf "  ours: %.2f s, CPU %.2f s, peak RSS %d MB (medians)\n", ts, cs, ks / 1024
    printf "  %s: %.2f s, CPU %.2f s, peak RSS %d MB\n", ref, tr, cr, kr / 1024
    printf "  ours / %s: time %.2fx, CPU %.2fx, memory %.2fx\n", ref, ts / tr, cs / cr, ks / kr }'
echo "  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
