#!/bin/sh
# Builder properties over generated clusters (tests/unit/property_test.c).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
"$TOP_BUILDDIR/tests/unit/property_test" 300 >"$TMP/out" 2>&1
rc=$?
tail -n 5 "$TMP/out"
grep '^FAIL' "$TMP/out" | head -20
expect_eq "property_test exit" "$rc" 0
no_sanitizer "$TMP/out"
finish
