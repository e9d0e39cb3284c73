#!/bin/sh
# railyard's Ethernet configs booted unmodified on live fabrics of Linux
# network namespaces with Debian's FRR (tests/eth-live.py says what is
# checked): a 2-tier rail-optimized fabric (8 leaves, 4 spines, 8 servers
# of 8 NICs) with a spine lost, a rail-only fabric with a cable lost, a
# 3-tier fabric with a middle-tier switch lost, and dual-ToR hosts with a
# ToR lost; IPv6 too on the rail-only and 3-tier ones
# (SLAAC from the ToRs' advertisements, and static addresses). The ECMP widths given
# here are worked out by hand from each spec:
#   ro-2tier   a leaf's 8 uplinks reach every other leaf: 8; spine0 takes
#              2 of each leaf's uplinks: 6 everywhere
#   rail-only  a rail's 2 leaves share one spine over 2 links each: 2; with
#              leaf0's first uplink down leaf0 has 1, the other leaves 2
#   ro-3tier   4 uplinks per leaf and per middle switch: 4; spine0 down
#              leaves its block's leaves 3 and the others 4
#   dual-tor   each ToR's 4 uplinks, 2 to each of 2 spines: 4; one ToR of a
#              pair down changes no other leaf's routes: 4, and every GPU
#              still reaches every other of its rail over its other port
# Skipped (77) unless run as root with FRR, iproute2 and ping installed.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

if [ "$(id -u)" != 0 ] || [ ! -x /usr/lib/frr/bgpd ] || ! command -v ping >/dev/null 2>&1 ||
   ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root, network namespaces and Debian's frr, iproute2 and iputils-ping"
    exit 77
fi

D=$TOP_SRCDIR/tests/data/eth
live() {    # live NAME ARGS...: one fabric; its own checks count as one each
    name=$1; shift
    w=$TMP/$name
    mkdir -p "$w" && chmod 755 "$TMP" "$w"
    $PY "$TOP_SRCDIR/tests/eth-live.py" "$RAILYARD" "$D/$name.yaml" "$w" "$@" >"$w.log" 2>&1
    rc=$?
    sed 's/^/  /' "$w.log"
    n=$(grep -c '^ok:' "$w.log")
    checks=$((checks + n))
    if [ "$rc" != 0 ] || [ "$n" -lt 14 ]; then
        fail "$name: exit $rc, $n checks passed"
    fi
    no_sanitizer "$w.log"
}

live ro-2tier --width 8 --cross-rail --fail spine0 --width-after 6
live rail-only --width 2 --fail leaf0/3 --down leaf0:Ethernet16 --width-after 1,2 \
    --set ethernet.ipv6=slaac --ping6
live ro-3tier --width 4 --cross-rail --fail spine0 --width-after 3,4 \
    --set ethernet.ipv6=static --ping6
live dual-tor --width 4 --cross-rail --cross-plane --fail p0-leaf0 --width-after 4
finish
