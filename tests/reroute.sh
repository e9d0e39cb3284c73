#!/bin/sh
# Routing around failed switches and links, subnet by subnet, on the test
# fabrics and the examples (tests/unit/reroute_test.c): incremental equals
# full recompute, nothing through a failed element, minimal up-down routes.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
"$TOP_BUILDDIR/tests/unit/reroute_test" "$TOP_SRCDIR" >"$TMP/out" 2>&1
rc=$?
tail -n 1 "$TMP/out"
grep '^FAIL' "$TMP/out" | head -20
expect_eq "reroute_test exit" "$rc" 0
no_sanitizer "$TMP/out"
finish
