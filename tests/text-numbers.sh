#!/bin/sh
# One number style in every text report: the formatter case by case
# (tests/unit/numfmt_test.c).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
"$TOP_BUILDDIR/tests/unit/numfmt_test" >"$TMP/unit" 2>&1
expect_eq "numfmt_test exit" $? 0
grep FAIL "$TMP/unit"
finish
