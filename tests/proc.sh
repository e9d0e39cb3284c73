#!/bin/sh
# The subprocess runner behind Graphviz and gnuplot (tests/unit/proc_test.c).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
"$TOP_BUILDDIR/tests/unit/proc_test" >"$TMP/out" 2>&1
rc=$?
tail -n 1 "$TMP/out"
grep '^FAIL' "$TMP/out" | head -20
expect_eq "proc_test exit" "$rc" 0
no_sanitizer "$TMP/out"
finish
