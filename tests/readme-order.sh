#!/bin/sh
# The README's two commands (getting started; the test suite) work in either
# order in one clone, and after a build configured in the source tree the
# conventional way. Each order runs in its own copy of the tree, with the
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
run() {   # run DIR NAME CMD: the command in the copy, its output in a log
    (cd "$work/$1" && sh -c "$3") >"$work/$1.$2.log" 2>&1
}

# 1. getting started, then the test suite's set-up
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

# 2. the test suite's set-up, then getting started, then the set-up again
copy b || { bad "copying the tree"; exit 1; }
if run b test1 "$test_setup" && run b main "$main_cmd" && run b test2 "$test_setup"; then
    ok "test, getting-started, test again in one copy"
else
    bad "test, getting-started, test again in one copy"; tail -20 "$work"/b.*.log
fi

# 3. a tree built in place the conventional way, then the test suite's set-up
copy c || { bad "copying the tree"; exit 1; }
if run c conv "./bootstrap >/dev/null 2>&1 && ./configure -q && make -s -j2 >/dev/null" &&
   run c test "$test_setup" && [ ! -f "$work/c/config.status" ] && [ -f "$work/c/build/config.status" ]; then
    ok "test command's set-up after ./configure && make in the source tree"
else
    bad "test command's set-up after ./configure && make in the source tree"; tail -20 "$work"/c.*.log
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
