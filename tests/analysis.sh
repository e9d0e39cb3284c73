#!/bin/sh
# The Slurm tree and the diagrams' boxes and bundles of the examples, against
# counts taken from the graph (tests/unit/analysis_test.c).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
"$TOP_BUILDDIR/tests/unit/analysis_test" "$TOP_SRCDIR" >"$TMP/out" 2>&1
rc=$?
tail -n 1 "$TMP/out"
grep '^FAIL' "$TMP/out" | head -20
expect_eq "analysis_test exit" "$rc" 0
no_sanitizer "$TMP/out"
finish
