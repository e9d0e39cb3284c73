#!/bin/sh
# The whole test suite: a normal build, the suite under AddressSanitizer
# and UndefinedBehaviorSanitizer, the fuzz targets built with clang and run
# briefly, and `make distcheck`, which runs the normal build's tests on the
# normal build of the distribution tarball. Each test runs once, in the
# build that can catch what it checks (the comment at TESTS in
# Makefile.am): the sanitizer build's share (make check-sanitized in
# build-san/), the normal build's (make distcheck-normal); a test that runs
# in both builds, each doing its share, is counted once. Builds happen out
# of tree in build/, build-san/ and build-fuzz/. At the end, each test's
# time per build and each phase's; the last line is the total: "N passed,
# N failed". RAILYARD_SKIP_DISTCHECK=1 runs the normal build's tests with
# make check-normal in build/ instead of distcheck.
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

harness() {  # harness OUTPUT: keep the per-test lines of a make check's output
    if grep -q '^# TOTAL: ' "$1"; then
        sed -n 's/^\(PASS\|FAIL\|ERROR\|XPASS\|XFAIL\|SKIP\): \(.*\)$/\1 \2/p' "$1" \
            >>"$results"
    else    # the harness did not run (a build failure, no summary)
        failn=$((failn + 1))
    fi
}

count() {   # the tests' totals: a test counts once, failed if any build failed it
    awk '{ r[$2] = r[$2] " " $1 }
         END { for (t in r) {
                   if (r[t] ~ / (FAIL|ERROR|XPASS)/) f++
                   else if (r[t] ~ / (PASS|XFAIL)/) p++
               }
               printf "%d %d\n", p, f }' "$results"
}

phase() {   # phase NAME SINCE: the wall time of a phase, for the table at the end
    phases="$phases$(printf '   %5d  %s' $(($(date +%s) - $2)) "$1")
"
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
# the tests' results, "RESULT TEST" lines from the harness of each build
# (counted once per test at the end), and their times (tests/lib.sh)
results=$top/build/test-results.txt
RAILYARD_TIMES=$top/build/test-times.txt
export RAILYARD_TIMES
: >"$results"
: >"$RAILYARD_TIMES"
phases=
t_start=$(date +%s)

# The normal build's tests run once: in make distcheck below (the same
# configure flags, from the files the tarball holds and with the sources
# read-only), or here when distcheck is skipped.
t=$(date +%s)
if step configure sh -c 'cd build && ../configure -q' && step make make -C build -j"$jobs" -s; then
    phase "normal build" "$t"
    if [ "${RAILYARD_SKIP_DISTCHECK:-}" = 1 ]; then
        t=$(date +%s)
        echo "== make check-normal (the normal build's tests)"
        make -C build -j"$jobs" check-normal 2>&1 | tee build/check-normal.log
        harness build/check-normal.log
        phase "normal build's tests (make check-normal)" "$t"
    fi
fi

# Whether a test writes into the source tree (make distcheck, which holds
# the sources read-only, runs only the normal build's tests): what git sees
# outside the build directories, ignored files too, before and after the
# sanitizer build's tests.
tree_state() {
    [ -e .git ] && command -v git >/dev/null 2>&1 &&
        git status --porcelain --ignored --untracked-files=all -- . \
            ':(exclude)build' ':(exclude)build-*' 2>/dev/null
}
t=$(date +%s)
if step configure-sanitizers sh -c 'cd build-san && ../configure -q --enable-sanitizers' \
   && step make-sanitizers make -C build-san -j"$jobs" -s; then
    phase "sanitizer build" "$t"
    t=$(date +%s)
    before=$(tree_state)
    echo "== make check-sanitized (AddressSanitizer, UndefinedBehaviorSanitizer)"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        make -C build-san -j"$jobs" check-sanitized 2>&1 | tee build-san/check-sanitized.log
    harness build-san/check-sanitized.log
    phase "sanitizer build's tests (make check-sanitized)" "$t"
    after=$(tree_state)
    if [ "$before" = "$after" ]; then
        pass=$((pass + 1))
    else
        echo "FAILED: the tests changed the source tree:"
        printf '%s\n%s\n' "$before" "$after" | sort | uniq -u | sed 's/^/    /'
        failn=$((failn + 1))
    fi
fi

# The libFuzzer targets build with clang (./configure --enable-fuzzing) and
# each runs for a few seconds from its seeds (make fuzz-smoke); a finding fails.
t=$(date +%s)
if command -v clang >/dev/null 2>&1; then
    mkdir -p build-fuzz
    if step configure-fuzzing sh -c 'cd build-fuzz && ../configure -q --enable-fuzzing CC=clang' \
       && step make-fuzzing make -C build-fuzz -j"$jobs" -s; then
        phase "fuzzing build" "$t"
        t=$(date +%s)
        if step fuzz-smoke make -C build-fuzz -j"$jobs" -s fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-5}"; then
            pass=$((pass + 1))
        fi
        phase "fuzz-smoke" "$t"
    fi
else
    echo "FAILED: no clang for the fuzz targets"
    failn=$((failn + 1))
fi

# make distcheck: the tarball, and the normal build's tests on its normal
# build (make distcheck-normal); their results are read from
# build/distcheck.log; when it fails, the logs stay under
# build/railyard-*/_build/sub/tests/. Then the tarball holds every file of
# the clone but .gitignore: the sanitizer build's tests ran on the clone.
if [ "${RAILYARD_SKIP_DISTCHECK:-}" != 1 ]; then
    t=$(date +%s)
    rm -f build/railyard-*.tar.gz
    if step distcheck make -C build -j"$jobs" distcheck-normal >build/distcheck.log 2>&1; then
        pass=$((pass + 1))
    else
        tail -40 build/distcheck.log
    fi
    grep -E '^(PASS|FAIL|ERROR|XPASS|XFAIL|SKIP|# [A-Z]*:)' build/distcheck.log
    harness build/distcheck.log
    phase "make distcheck (the normal build's tests on the tarball)" "$t"
    tarball=$(ls -t build/railyard-*.tar.gz 2>/dev/null | head -n 1)
    if [ -n "$tarball" ] && [ -e .git ] && command -v git >/dev/null 2>&1; then
        echo "== the tarball holds the clone's files"
        missing=$(git ls-files | grep -vx '.gitignore' | sort >build/dist-want.txt &&
            tar -tzf "$tarball" | sed -n 's|^railyard-[^/]*/||p' | sort >build/dist-have.txt &&
            comm -23 build/dist-want.txt build/dist-have.txt)
        if [ -s build/dist-want.txt ] && [ -z "$missing" ]; then
            pass=$((pass + 1))
        else
            echo "FAILED: not in $tarball:"; printf '%s\n' "$missing" | head -20 | sed 's/^/    /'
            failn=$((failn + 1))
        fi
    fi
fi

# The README's two commands, in either order, in one copy of the tree.
t=$(date +%s)
if step readme-order tests/readme-order.sh; then
    pass=$((pass + 1))
fi
phase "readme-order (tests/readme-order.sh)" "$t"

# each test's time in each build, and each phase's
for b in sanitizers normal; do
    if grep -q " $b\$" "$RAILYARD_TIMES"; then
        echo "== the tests' times, $b build (wall seconds; a test that exited early is not listed)"
        awk -v b="$b" '$3 == b { printf "   %5d  %s\n", $1, $2 }' "$RAILYARD_TIMES" | sort -k1,1rn -k2
        awk -v b="$b" '$3 == b { s += $1; n++ }
            END { printf "   %5d  the sum of %d tests\n", s, n }' "$RAILYARD_TIMES"
    fi
done
phase "the whole run from the normal build on" "$t_start"
echo "== the phases (wall seconds)"
printf '%s' "$phases"

if grep -qE '^(FAIL|ERROR|XPASS) ' "$results"; then
    echo "== the tests that failed"
    grep -E '^(FAIL|ERROR|XPASS) ' "$results" | sed 's/^/   /'
fi
set -- $(count)
pass=$((pass + $1))
failn=$((failn + $2))
echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
