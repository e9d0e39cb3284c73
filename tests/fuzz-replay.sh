#!/bin/sh
# Every fuzz target on its seeds and on every input fuzzing ever found: no
# crash, no sanitizer report, no hang (the replay drivers are built in every
# build; with --enable-sanitizers they run under ASan and UBSan); and no
# target with a spec-loading prologue of its own.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
. "$TOP_SRCDIR/tests/fuzz/seeds.sh"
# A target loads a spec and builds its fabric through fuzz.h's fuzz_spec
# (the input, an example or a fixture), not by a prologue of its own.
own=$(grep -l -e 'ry_spec_load' -e 'ry_fabric_build' "$TOP_SRCDIR"/tests/fuzz/*.c)
expect_eq "targets that load a spec or build a fabric themselves" "$own" ""
for t in $FUZZ_TARGETS; do
    bin="$TOP_BUILDDIR/tests/fuzz/replay_$t"
    [ -x "$bin" ] || { fail "no replay driver for $t"; continue; }
    dirs=""
    for d in $(fuzz_seeds "$t"); do dirs="$dirs $TOP_SRCDIR/$d"; done
    # shellcheck disable=SC2086
    timeout -k 5 600 "$bin" $dirs >"$TMP/$t.out" 2>"$TMP/$t.err"; rc=$?
    expect_eq "replay $t exit" $rc 0
    no_sanitizer "$TMP/$t.err"
    n=$(sed -n 's/^\([0-9]*\) inputs$/\1/p' "$TMP/$t.out")
    [ "${n:-0}" -gt 0 ] && ok || fail "replay $t ran no input"
    printf '%s: %s inputs\n' "$t" "${n:-0}"
done
finish
