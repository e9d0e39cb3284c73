#!/bin/sh
# The README's two commands (getting started; the test suite) work in either
# order in one clone, and after a build configured in the source tree the
# conventional way. The orders run in copies of the tree (getting started,
# the test set-up, both again; the test set-up alone; in place), with the
# package installation left out (it needs the network and root) and the test
# command stopped after its set-up (tests/run-all.sh --configure-only): what
# is checked is that neither command depends on what the other left behind.
set -u
top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d "${TMPDIR:-/tmp}/ry-readme.XXXXXX") || exit 99
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT INT TERM HUP
pass=0
fail=0
ok()  { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# the command inside the fence after a marker, without the apt-get steps
readme_cmd() {
    awk -v m="<!-- $1 -->" '$0 == m {s=1; next} s==1 && /^```/ {s=2; next}
        s==2 && /^```/ {exit} s==2' "$top/README" |
        sed 's/^.*apt-get install[^&]*&& *//'
}
main_cmd=$(readme_cmd main-command)
test_cmd=$(readme_cmd test-command)
case $main_cmd in *apt-get*|'') bad "README main command not found or not stripped: $main_cmd"; exit 1 ;; esac
case $test_cmd in *tests/run-all.sh*) ;; *) bad "README test command does not run tests/run-all.sh: $test_cmd"; exit 1 ;; esac
test_setup=$(printf '%s\n' "$test_cmd" | sed 's|tests/run-all.sh|tests/run-all.sh --configure-only|')

# a copy of the sources: the tracked files of a clone, or the whole tree
# of a distribution, without build directories and outputs
copy() {
    mkdir -p "$work/$1"
    tar -C "$top" --exclude=./.git --exclude=./build --exclude='./build-*' \
        --exclude=./_build --exclude=./out --exclude='./railyard-*' \
        --exclude='./autom4te.cache' -cf - . | tar -C "$work/$1" -xf - &&
        chmod -R u+w "$work/$1" &&
        (cd "$work/$1" && { [ ! -f config.status ] || make distclean >/dev/null 2>&1; })
}
# The commands run as the README gives them; make runs a job per processor
# (MAKEFLAGS in the environment), as the test suite's own builds do.
jobs=$(nproc 2>/dev/null || echo 2)
run() {   # run DIR NAME CMD: the command in the copy, its output in a log
    (cd "$work/$1" && MAKEFLAGS="-j$jobs${MAKEFLAGS:+ $MAKEFLAGS}" sh -c "$3") >"$work/$1.$2.log" 2>&1
}

# 1. getting started on a fresh copy, then the test suite's set-up, then
# getting started again and the set-up again: each command after the other
# (one full build; the second getting-started builds on the first's objects)
copy a || { bad "copying the tree"; exit 1; }
if run a main "$main_cmd" && grep -q . "$work/a/out/summary.txt"; then
    ok "getting-started command on a fresh copy"
else
    bad "getting-started command on a fresh copy"; tail -20 "$work/a.main.log"
fi
if run a test "$test_setup"; then
    ok "test command's set-up after the getting-started command"
else
    bad "test command's set-up after the getting-started command"; tail -20 "$work/a.test.log"
fi
rm -rf "$work/a/out"
if run a main2 "$main_cmd" && grep -q . "$work/a/out/summary.txt" && run a test2 "$test_setup"; then
    ok "getting-started, then test again, after the test command's set-up"
else
    bad "getting-started, then test again, after the test command's set-up"; tail -20 "$work"/a.main2.log "$work"/a.test2.log
fi

# 2. the test suite's set-up on a fresh copy
copy b || { bad "copying the tree"; exit 1; }
if run b test1 "$test_setup" && [ -f "$work/b/build/config.status" ]; then
    ok "test command's set-up on a fresh copy"
else
    bad "test command's set-up on a fresh copy"; tail -20 "$work"/b.*.log
fi

# 3. a tree configured in place the conventional way, with an object built
# there, then the test suite's set-up: it must clean the tree (make
# distclean: config.status and the object gone) and configure in build/.
# One object stands for the in-place build: distclean removes every object
# the same way, so the whole build is not needed to show it.
copy c || { bad "copying the tree"; exit 1; }
if run c conv "./bootstrap >/dev/null 2>&1 && ./configure -q && make -s src/main.o >/dev/null" &&
   [ -f "$work/c/config.status" ] && [ -f "$work/c/src/main.o" ] &&
   run c test "$test_setup" && [ ! -f "$work/c/config.status" ] && [ ! -f "$work/c/src/main.o" ] &&
   [ -f "$work/c/build/config.status" ]; then
    ok "test command's set-up after ./configure && make in the source tree"
else
    bad "test command's set-up after ./configure && make in the source tree"; tail -20 "$work"/c.*.log
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
