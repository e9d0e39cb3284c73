#!/bin/sh
# make fuzz-smoke: each libFuzzer target for FUZZ_SECONDS (default 60) from
# its seeds; a finding is copied into tests/fuzz/corpus/TARGET/ to be kept.
# Needs a build configured with --enable-fuzzing (clang).
set -u
top=${TOP_SRCDIR:?}
build=${TOP_BUILDDIR:?}
secs=${FUZZ_SECONDS:-60}
. "$top/tests/fuzz/seeds.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/railyard-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
for t in ${FUZZ_ONLY:-$FUZZ_TARGETS}; do
    bin="$build/tests/fuzz/fuzz_$t"
    [ -x "$bin" ] || { echo "no $bin: configure with --enable-fuzzing CC=clang"; exit 2; }
    mkdir -p "$work/$t" "$work/$t-found"
    for d in $(fuzz_seeds "$t"); do
        [ -d "$top/$d" ] && find "$top/$d" -maxdepth 1 -type f -size -1048576c -exec cp {} "$work/$t/" \;
    done
    "$bin" "$work/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
        -close_fd_mask=2 -artifact_prefix="$work/$t-found/" -print_final_stats=1 \
        >"$work/$t.log" 2>&1
    rc=$?
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
done
exit $status
