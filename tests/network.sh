#!/bin/sh
# The flow-level network engine (net/): max-min fair rates by progressive
# filling against hand-solved cases and the definition on random instances
# (tests/unit/flow_test.c); the resources and routes of connections against
# the fabric, the forwarding tables and the balls-into-bins bounds of ECMP
# (tests/unit/net_test.c), and a 16,384-GPU ring of 8 channels routed on
# InfiniBand and Ethernet within a generous time (a second or so each
# unsanitized; recomputing BGP's routes per connection took half a minute).
. "${TOP_SRCDIR:-.}/tests/lib.sh"

"${TOP_BUILDDIR:-.}/tests/unit/flow_test" >"$TMP/flow" 2>&1
expect_eq "flow_test exit" $? 0
grep -q ' 0 failed$' "$TMP/flow" && ok || fail "flow_test: $(head -5 "$TMP/flow")"

timeout -k 5 30 "${TOP_BUILDDIR:-.}/tests/unit/net_test" "${TOP_SRCDIR:-.}" big >"$TMP/net" 2>&1
rc=$?
[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && ok || fail "net_test: still running after 30 s"
expect_eq "net_test exit" $rc 0
grep -q ' 0 failures$' "$TMP/net" && ok || fail "net_test: $(grep -m 5 FAIL "$TMP/net")"
grep 'ring of' "$TMP/net"
no_sanitizer "$TMP/net"
finish
