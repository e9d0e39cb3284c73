#!/bin/sh
# make fuzz-smoke: each libFuzzer target for FUZZ_SECONDS (default 60) from
# its seeds, FUZZ_JOBS targets at a time (default: the processors, at most
# 4; the wall time is about targets / jobs x FUZZ_SECONDS); a finding is
# copied into tests/fuzz/corpus/TARGET/ to be kept. Needs a build
# configured with --enable-fuzzing (clang).
set -u
top=${TOP_SRCDIR:?}
build=${TOP_BUILDDIR:?}
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
[ "$jobs" -le 4 ] || jobs=4
. "$top/tests/fuzz/seeds.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/railyard-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
targets=${FUZZ_ONLY:-$FUZZ_TARGETS}
for t in $targets; do
    bin="$build/tests/fuzz/fuzz_$t"
    [ -x "$bin" ] || { echo "no $bin: configure with --enable-fuzzing CC=clang"; exit 2; }
done

fuzz() {    # fuzz TARGET: one target from its seeds; its exit in $work/TARGET.rc
    t=$1
    mkdir -p "$work/$t" "$work/$t-found"
    for d in $(fuzz_seeds "$t"); do
        [ -d "$top/$d" ] && find "$top/$d" -maxdepth 1 -type f -size -1024k -exec cp {} "$work/$t/" \;
    done
    "$build/tests/fuzz/fuzz_$t" "$work/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
        -max_len=65536 -close_fd_mask=2 -artifact_prefix="$work/$t-found/" -print_final_stats=1 \
        >"$work/$t.log" 2>&1
    echo $? >"$work/$t.rc"
}

report() {  # report TARGET: its line; a finding is kept and fails the run
    t=$1
    rc=$(cat "$work/$t.rc" 2>/dev/null || echo '?')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
    cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -1)
    found=$(ls "$work/$t-found" | wc -l)
    printf '%-9s %8s runs in %ss, %s, corpus %s, findings %s (exit %s)\n' "$t" "${execs:-?}" \
        "$secs" "${cov:-cov: ?}" "$(ls "$work/$t" | wc -l)" "$found" "$rc"
    if [ "$found" -gt 0 ]; then
        status=1
        mkdir -p "$top/tests/fuzz/corpus/$t"
        cp "$work/$t-found"/* "$top/tests/fuzz/corpus/$t/"
        tail -30 "$work/$t.log"
    fi
}

# JOBS targets at a time, then each one's line, in the targets' order
set -- $targets
while [ $# -gt 0 ]; do
    batch=
    n=0
    while [ $# -gt 0 ] && [ "$n" -lt "$jobs" ]; do
        fuzz "$1" &
        batch="$batch $1"; n=$((n + 1)); shift
    done
    wait
    for t in $batch; do
        report "$t"
    done
done
exit $status
