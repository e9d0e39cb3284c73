#!/bin/sh
# The flow-level network engine (net/): max-min fair rates by progressive
# filling against hand-solved cases and the definition on random instances
# (tests/unit/flow_test.c).
. "${TOP_SRCDIR:-.}/tests/lib.sh"

"${TOP_BUILDDIR:-.}/tests/unit/flow_test" >"$TMP/flow" 2>&1
expect_eq "flow_test exit" $? 0
grep -q ' 0 failed$' "$TMP/flow" && ok || fail "flow_test: $(head -5 "$TMP/flow")"
finish
