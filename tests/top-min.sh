#!/bin/sh
# fabric.top_min: the top of a small fabric gets at least that many
# switches. Counted against the builder's rule computed here (the smallest
# m >= top_min that divides a leaf's u uplinks and has the ports, m * k >=
# c * u), read from the graph itself (export JSON: spines, each leaf's
# distinct spines and links to each); validate's single-upper warning when
# every leaf's uplinks reach one spine, and none once spread; a value above
# a leaf's uplinks refused at its key; the routes of the spread fabric
# proven by check-routes.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SPEC=$TOP_SRCDIR/tests/data/ib/ro-2tier-h100.yaml
SMALL="--set cluster.nodes=2 --set fabric.tiers=2 --set fabric.oversubscription=7:1"

shape() {   # shape FILE: spines, leaves, leaf uplinks, distinct spines per leaf, links per pair
    "$PY" - "$1" <<'P'
import json, sys
from collections import Counter
j = json.load(open(sys.argv[1]))
kind = {n["id"]: (n["kind"], n["tier"]) for n in j["nodes"]}
spines = sum(1 for k in kind.values() if k == ("switch", 2))
leaves = [i for i, k in kind.items() if k == ("switch", 1)]
pairs = Counter()
for l in j["links"]:
    a, b = l["a"]["node"], l["b"]["node"]
    if kind[a] == ("switch", 1) and kind[b] == ("switch", 2):
        pairs[(a, b)] += 1
    elif kind[b] == ("switch", 1) and kind[a] == ("switch", 2):
        pairs[(b, a)] += 1
up = {x: sum(n for (a, _), n in pairs.items() if a == x) for x in leaves}
reach = {x: len({b for (a, b) in pairs if a == x}) for x in leaves}
per = set(pairs.values())
print(spines, len(leaves), min(up.values()), min(reach.values()), max(reach.values()),
      ",".join(map(str, sorted(per))))
P
}
# the rule: leaves c, uplinks u, spine ports k
rule() {    # rule C U K LO: the spines of one column
    "$PY" -c 'import sys
c, u, k, lo = map(int, sys.argv[1:])
print(next(m for m in range(max(lo, 1), u + 1) if u % m == 0 and m * k >= c * u))' "$@"
}

"$RAILYARD" export "$SPEC" $SMALL --format json -o "$TMP/one.json" 2>"$TMP/e" || fail "export: $(cat "$TMP/e")"
set -- $(shape "$TMP/one.json")
spines=$1 leaves=$2 u=$3
k=$("$RAILYARD" catalog switches --format json | "$PY" -c 'import json,sys; print([s for s in json.load(sys.stdin)["switches"] if s["name"] == "qm9700"][0]["radix"])')
[ -n "$k" ] && ok || fail "the spine's radix from the catalog"
expect_eq "default: the rule's spines" "$spines" "$(rule "$leaves" "$u" "$k" 1)"
expect_eq "default: one spine, every leaf reaches only it" "$spines $4 $5" "1 1 1"
"$RAILYARD" validate "$SPEC" $SMALL >"$TMP/v" 2>&1
grep -q "^warning: single-upper: $leaves of $leaves leaves have all their uplinks on one switch (leaf0: its $u uplinks all go to spine0), a single point of failure: fabric.top_min" "$TMP/v" &&
    ok || fail "single-upper: $(grep -i single "$TMP/v")"

for lo in 2 3 4 8; do
    "$RAILYARD" export "$SPEC" $SMALL --set fabric.top_min=$lo --format json -o "$TMP/m$lo.json" 2>"$TMP/e" ||
        fail "export top_min $lo: $(cat "$TMP/e")"
    set -- $(shape "$TMP/m$lo.json")
    want=$(rule "$leaves" "$u" "$k" "$lo")
    expect_eq "top_min $lo: spines, every leaf on each, links per pair" "$1 $4 $5 $6" \
        "$want $want $want $((u / want))"
    "$RAILYARD" validate "$SPEC" $SMALL --set fabric.top_min=$lo >"$TMP/v" 2>&1
    grep -q 'single-upper' "$TMP/v" && fail "top_min $lo: still warned" || ok
done
# bom counts the same spines (the count by closed form agrees with the graph)
got=$("$RAILYARD" bom "$SPEC" $SMALL --set fabric.top_min=4 --format json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["switches"]["per_tier"])')
expect_eq "bom per tier, top_min 4" "$got" "[$leaves, $(rule "$leaves" "$u" "$k" 4)]"
# a full fabric is not changed by a smaller minimum
"$RAILYARD" export "$SPEC" --format json -o "$TMP/full.json" >/dev/null 2>&1
"$RAILYARD" export "$SPEC" --set fabric.top_min=3 --format json -o "$TMP/full3.json" >/dev/null 2>&1
cmp -s "$TMP/full.json" "$TMP/full3.json" && ok || fail "top_min 3 changed a fabric of 8 spines"

# more than a leaf's uplinks: refused at the key
"$RAILYARD" validate "$SPEC" $SMALL --set fabric.top_min=$((u + 1)) >/dev/null 2>"$TMP/e"
expect_eq "top_min above the uplinks: exit" $? 1
grep -q "error: fabric.top_min: $((u + 1)), but a leaf has $u uplinks, so it reaches at most $u top switches: set it to $u or less" "$TMP/e" &&
    ok || fail "top_min above the uplinks: $(cat "$TMP/e")"

# the spread fabric routes: every end port reaches every other, loop-free
"$RAILYARD" opensm "$SPEC" $SMALL --set fabric.top_min=4 -o "$TMP/osm" >/dev/null 2>"$TMP/e" || fail "opensm: $(cat "$TMP/e")"
"$RAILYARD" check-routes "$TMP/osm/opensm/plane0" >"$TMP/cr" 2>&1
expect_eq "check-routes on the spread fabric: exit" $? 0
finish
