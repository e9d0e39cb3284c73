#!/bin/sh
# The whole test suite: a normal build, the suite under AddressSanitizer
# and UndefinedBehaviorSanitizer, the fuzz targets built with clang and run
# briefly, and `make distcheck`, which runs the suite (`make check`) on the
# normal build of the distribution tarball. Builds happen out of tree in
# build/ and build-san/. The last line is the total: "N passed, N failed".
# RAILYARD_SKIP_DISTCHECK=1 runs `make check` in build/ instead of distcheck.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 3
jobs=$(nproc 2>/dev/null || echo 2)

# The tests' scratch files (TMPDIR) on a tmpfs when there is one with room,
# unless TMPDIR is set: the tests write and remove many files, and on a
# disk that costs system time (tests/build-outputs.sh: 60 s on an ext4 /tmp,
# 42 s on /dev/shm). Removed at the end.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
   [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -gt 8000000 ] 2>/dev/null &&
   scratch=$(mktemp -d /dev/shm/railyard-tests.XXXXXX); then
    chmod 755 "$scratch"
    TMPDIR=$scratch
    export TMPDIR
    trap 'rm -rf "$scratch"' EXIT
fi
pass=0
failn=0

count() {   # count LOGFILE: add the Automake harness totals
    if [ -f "$1" ]; then
        p=$(sed -n 's/^# PASS: *//p' "$1" | head -1)
        f=$(sed -n 's/^# FAIL: *//p' "$1" | head -1)
        e=$(sed -n 's/^# ERROR: *//p' "$1" | head -1)
        x=$(sed -n 's/^# XPASS: *//p' "$1" | head -1)
        pass=$((pass + ${p:-0}))
        failn=$((failn + ${f:-0} + ${e:-0} + ${x:-0}))
    else
        failn=$((failn + 1))
    fi
}

slowest() {  # slowest BUILDDIR: the ten tests that took longest there
    echo "== the slowest tests in $1 (wall seconds)"
    grep -H '^elapsed: ' "$1"/tests/*.log 2>/dev/null |
        sed 's|^.*/tests/\(.*\)\.log:elapsed: \([0-9]*\) s$|\2 \1|' | sort -rn | head -10 |
        awk '{ printf "   %5d  %s\n", $1, $2 }'
}

step() {    # step NAME CMD...: a build step that must succeed
    name=$1; shift
    echo "== $name"
    if ! "$@"; then
        echo "FAILED: $name"
        failn=$((failn + 1))
        return 1
    fi
}

# A tree configured in place (./configure at the top, the conventional way)
# keeps out-of-tree builds from configuring ("source directory already
# configured"): clean it first, whatever left it so.
if [ -f config.status ]; then
    echo "== the source tree is configured in place: make distclean there, so that build/ can configure"
    make distclean >/dev/null 2>&1 || rm -f config.status config.h config.log stamp-h1 Makefile
fi

[ -x configure ] || step bootstrap ./bootstrap || { echo "$pass passed, $failn failed"; exit 1; }

mkdir -p build build-san
if [ "${1:-}" = --configure-only ]; then   # the set-up alone (tests/readme-order.sh)
    (cd build && ../configure -q)
    exit $?
fi
# The normal build's suite runs once: in make distcheck below (the same
# configure flags, the same tests, from the files the tarball holds and with
# the sources read-only), or here when distcheck is skipped.
if step configure sh -c 'cd build && ../configure -q' && step make make -C build -j"$jobs" -s &&
   [ "${RAILYARD_SKIP_DISTCHECK:-}" = 1 ]; then
    echo "== make check"
    make -C build -j"$jobs" check || true
    count build/test-suite.log
    [ -f build/test-suite.log ] && grep -E '^(FAIL|ERROR):' build/test-suite.log
    slowest build
fi

if step configure-sanitizers sh -c 'cd build-san && ../configure -q --enable-sanitizers' \
   && step make-sanitizers make -C build-san -j"$jobs" -s; then
    echo "== make check (AddressSanitizer, UndefinedBehaviorSanitizer)"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        make -C build-san -j"$jobs" check || true
    count build-san/test-suite.log
    [ -f build-san/test-suite.log ] && grep -E '^(FAIL|ERROR):' build-san/test-suite.log
    slowest build-san
fi

# The libFuzzer targets build with clang (./configure --enable-fuzzing) and
# each runs for a few seconds from its seeds (make fuzz-smoke); a finding fails.
if command -v clang >/dev/null 2>&1; then
    mkdir -p build-fuzz
    if step configure-fuzzing sh -c 'cd build-fuzz && ../configure -q --enable-fuzzing CC=clang' \
       && step fuzz-smoke make -C build-fuzz -j"$jobs" -s fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-5}"; then
        pass=$((pass + 1))
    fi
else
    echo "FAILED: no clang for the fuzz targets"
    failn=$((failn + 1))
fi

# make distcheck: the tarball, and make check on its normal build. The
# suite's totals are counted from its summary in build/distcheck.log; when
# it fails, the logs stay under build/railyard-*/_build/sub/tests/.
if [ "${RAILYARD_SKIP_DISTCHECK:-}" != 1 ]; then
    if step distcheck make -C build -j"$jobs" distcheck >build/distcheck.log 2>&1; then
        pass=$((pass + 1))
    else
        tail -40 build/distcheck.log
    fi
    count build/distcheck.log
    grep -E '^(FAIL|ERROR):' build/distcheck.log
fi

# The README's two commands, in either order, in one copy of the tree.
if step readme-order tests/readme-order.sh; then
    pass=$((pass + 1))
fi

echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
