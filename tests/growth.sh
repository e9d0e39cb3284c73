#!/bin/sh
# Reserve mode (growth.target_nodes / growth.target_gpus): a phase is the
# target's fabric cut down, so growing to the target only adds.
#  - superpod-4su at 32 nodes (1 SU) with target 127 (4 SUs): its cabling.csv
#    rows (label and both ends) are a subset of the target's, its switches a
#    subset by name, and every switch and CA has the target's LID
#    (topology.net of its OpenSM files);
#  - counts against closed forms: 8 leaves per SU present, the target's
#    spines; a one-pod phase of a 3-tier target (the fat-tree variant at 512
#    nodes) buys no core; on the rail-optimized one, whose pods take the
#    leaves rail-major, one SU reaches every pod and every core;
#  - validate's reserve lines: switches bought early and their capex, cables
#    of the phase without reserve that would move, none with it;
#  - a target equal to the cluster changes nothing; a smaller one (or one
#    not a whole HB domain, or both keys) is an error at file:line:col, exit 1,
#    nothing written; outputs are deterministic.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

SP=$TOP_SRCDIR/examples/superpod-4su.yaml
PHASE="--set cluster.nodes=32 --set growth.target_nodes=127"

"$RAILYARD" -q build "$SP" $PHASE -o "$TMP/phase" >"$TMP/phase.out" 2>"$TMP/phase.err"
expect_eq "phase build exit" $? 0
no_sanitizer "$TMP/phase.err"
"$RAILYARD" -q build "$SP" -o "$TMP/target" >"$TMP/target.out" 2>"$TMP/target.err"
expect_eq "target build exit" $? 0

# subset CHECK A B KEYS...: every row of CSV A (by the columns KEYS) is a
# row of CSV B; prints "rows-of-A missing".
subset() {
    "$PY" - "$@" <<'EOF'
import csv, sys
a, b, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
def rows(p):
    return [tuple(r[k] for k in keys) for r in csv.DictReader(open(p))]
ra, rb = rows(a), set(rows(b))
missing = [r for r in ra if r not in rb]
for r in missing[:3]:
    print("missing:", r, file=sys.stderr)
print(len(ra), len(missing))
EOF
}

read -r n miss <<EOF
$(subset "$TMP/phase/cabling/cabling.csv" "$TMP/target/cabling/cabling.csv" \
    label a_device a_port z_device z_port)
EOF
expect_eq "phase cables (8 leaves x 64 ports)" "$n" 512
expect_eq "phase cables not in the target (by label and ends)" "$miss" 0

# lids TOPOLOGY: "name lid" of every switch and CA port of a topology.net
lids() {
    "$PY" - "$1" <<'EOF'
import re, sys
for l in open(sys.argv[1]):
    m = re.search(r'# "([^"]+)".* lid (\d+)', l)
    if m and (l.startswith("Switch") or l.startswith("[")):
        print(m.group(1).replace(" ", "/"), m.group(2))
EOF
}
lids "$TMP/phase/opensm/plane0/topology.net" | sort -u >"$TMP/phase.lids"
lids "$TMP/target/opensm/plane0/topology.net" | sort -u >"$TMP/target.lids"
nsw=$(grep -c '^Switch' "$TMP/phase/opensm/plane0/topology.net")
expect_eq "phase switches in topology.net (8 leaves, 16 spines)" "$nsw" 24
expect_eq "phase ports with a LID (24 switches, 256 CAs)" "$(wc -l <"$TMP/phase.lids")" 280
expect_eq "phase LIDs that are not the target's (switches and CAs by name)" \
    "$(comm -23 "$TMP/phase.lids" "$TMP/target.lids" | wc -l)" 0
comm -23 "$TMP/phase.lids" "$TMP/target.lids" | head -3
# switch names: a subset of the target's
names() { sed -n 's/^Switch.*# "\([^"]*\)".*/\1/p' "$1" | sort; }
names "$TMP/phase/opensm/plane0/topology.net" >"$TMP/phase.sw"
names "$TMP/target/opensm/plane0/topology.net" >"$TMP/target.sw"
expect_eq "phase switches the target has not" "$(comm -23 "$TMP/phase.sw" "$TMP/target.sw" | wc -l)" 0


# counts by closed forms: radix k = 64, 1:1, 8 rails, an SU of 32 nodes
k=64 rails=8
# tiers KEY...: per-tier switch counts of bom -f json, space separated
tiers() {
    "$RAILYARD" bom -f json "$SP" "$@" 2>"$TMP/bom.err" |
        "$PY" -c 'import json, sys; print(" ".join(str(x) for x in json.load(sys.stdin)["switches"]["per_tier"]))'
}
su=1
leaves=$((rails * su))
tleaves=$((rails * 4))
tspines=$((tleaves * (k / 2) / k))
expect_eq "1 SU of a 4-SU target: leaves, spines (the target's)" "$(tiers $PHASE)" "$leaves $tspines"
expect_eq "2 SUs of a 4-SU target" \
    "$(tiers --set cluster.nodes=64 --set growth.target_nodes=127)" "$((rails * 2)) $tspines"
expect_eq "the whole target with a target of itself" \
    "$(tiers --set growth.target_nodes=127)" "$tleaves $tspines"
# a one-pod phase of a 3-tier target: a fat-tree leaf takes k/2 = 32 GPUs
# (4 nodes), a pod k/2 leaves (128 nodes); 512 nodes need 3 tiers. 32 nodes
# are 8 leaves in pod 0: its k/2 spines are the top, no core.
ft="--set fabric.design=fat-tree --set cluster.nodes=32 --set growth.target_nodes=512"
expect_eq "fat tree, 32 of 512 nodes: leaves, the pod's spines, no core" \
    "$(tiers $ft)" "$((32 * 8 / (k / 2))) $((k / 2))"
expect_eq "fat tree, 512 nodes: 3 tiers" \
    "$(tiers --set fabric.design=fat-tree --set cluster.nodes=512 | wc -w)" 3
# rail-optimized at 512 nodes: 128 leaves, pods of 32 taken rail-major (a
# pod holds 2 rails of every SU), so one SU's 8 leaves reach all 4 pods:
# every spine (4 x 32). A spine then holds 2 of the SU's leaves (8 x 32
# uplinks over 128 spines) and keeps 2 of its 32 uplinks, its first, which
# go to the first of the 2 cores of its position: k/2 cores of the
# target's 128 x 32 / 64. The other cores and spine-core cables come in the
# phase that needs them, and move nothing then.
expect_eq "rail-optimized, 32 of 512 nodes: every pod's spines, a core per position" \
    "$(tiers --set cluster.nodes=32 --set growth.target_nodes=512)" "8 128 $((k / 2))"
expect_eq "rail-optimized, 32 of 512 nodes: 2 uplinks a spine" \
    "$("$RAILYARD" bom -f json "$SP" --set cluster.nodes=32 --set growth.target_nodes=512 2>/dev/null |
       "$PY" -c 'import json, sys; print(json.load(sys.stdin)["links"]["per_tier"])')" \
    "[256, 256, 256]"
# fabric.full_units: a phase of half an SU keeps every leaf of its SU
expect_eq "16 nodes, full_units: the SU's 8 leaves" \
    "$(tiers --set cluster.nodes=16 --set growth.target_nodes=127 --set fabric.full_units=true)" \
    "8 $tspines"
# without full_units half an SU still takes one leaf a rail (a leaf takes 32 GPUs of a rail)
expect_eq "16 nodes: a leaf per rail" \
    "$(tiers --set cluster.nodes=16 --set growth.target_nodes=127)" "8 $tspines"

# validate: the reserve's cost and savings. Without the reserve 1 SU has
# 8 x 32 / 64 = 4 spines: 12 switches bought early at the qm9700's price.
"$RAILYARD" validate "$SP" $PHASE >"$TMP/val" 2>"$TMP/val.err"
expect_eq "validate exit" $? 0
price=$(sed -n 's/.*x qm9700 [^ ]* at \$\([0-9,]*\)).*/\1/p' "$TMP/val" | head -n 1 | tr -d ,)
early=$((tspines - leaves * (k / 2) / k))
# what it costs now: the capex of the phase with the reserve less without
# (bom of each), the switches bought early and the longer runs to where the
# target's layout stands them
capex() { "$RAILYARD" bom -f json "$SP" "$@" 2>/dev/null | "$PY" -c 'import json, sys
print(round(json.load(sys.stdin)["capex"]["total"]))'; }
with=$(capex $PHASE)
without=$(capex $PHASE --set growth.target_nodes=32)
cost=$((with - without))
[ "$cost" -ge $((early * price)) ] && ok || fail "reserve cost $cost under $early x \$$price"
grep -q "  costs now:   \$$(printf "%d" "$cost" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') of capex" "$TMP/val" &&
    ok || fail "validate: reserve cost is not \$$cost (bom with less without): $(grep 'costs now' "$TMP/val")"
grep -q "$early switches bought early ($((leaves + tspines)) with, $((leaves + tspines - early)) without)" \
    "$TMP/val" && ok || fail "validate: switches bought early: $(grep 'bought early' "$TMP/val")"
grep -q "with it, 0 of 512 cables move, 0 devices are relocated" "$TMP/val" && ok ||
    fail "validate: the reserve phase moves cables"
moved=$(sed -n 's/.*move or remove \([0-9,]*\) of the phase.s 512 cables.*/\1/p' "$TMP/val")
# the top tier's port rule (uplink i to spine i mod m): of a leaf's k/2
# uplinks, those on the 4 spines of the phase built without the reserve
# stay where the target's 16 spines take them, k/2 x 4/16; its 256 GPU
# cables stay
ospines=$((leaves * (k / 2) / k))
expect_eq "validate: cables that would move without the reserve" "$moved" \
    $((leaves * (k / 2) - leaves * (k / 2) * ospines / tspines))

# the same figures in validate -f json
"$RAILYARD" validate -f json "$SP" $PHASE >"$TMP/val.json" 2>/dev/null
expect_eq "json: growth.now.cost" "$(json_get "$TMP/val.json" growth now cost)" "$cost"
expect_eq "json: switches bought early" \
    $(($(json_get "$TMP/val.json" growth now switches_with) - \
       $(json_get "$TMP/val.json" growth now switches_without))) "$early"
expect_eq "json: cables of the reserve phase that move" \
    "$(json_get "$TMP/val.json" growth later with moved)" 0
expect_eq "json: cables of the target (32 leaves x 64 - 8 GPUs of the missing node)" \
    "$(json_get "$TMP/val.json" growth later cables_target)" $((tleaves * k - 8))
expect_eq "json: no growth without a target" \
    "$("$RAILYARD" validate -f json "$SP" | grep -c '"growth"')" 0

# a target equal to the cluster: the same outputs as without one
"$RAILYARD" -q build "$SP" --set growth.target_nodes=127 -o "$TMP/same" >/dev/null 2>&1
diff -r -x summary.txt -x .railyard-manifest "$TMP/target" "$TMP/same" >"$TMP/same.diff" &&
    ok || fail "a target equal to the cluster changes the outputs: $(head -n 3 "$TMP/same.diff")"
# deterministic
"$RAILYARD" -q build "$SP" $PHASE -o "$TMP/phase2" >/dev/null 2>&1
diff -r "$TMP/phase" "$TMP/phase2" >/dev/null && ok || fail "two builds of the phase differ"

# bad targets: file:line:col, exit 1, nothing written
bad() {
    printf '%s\n' "$1" >"$TMP/$2.yaml.tail"
    sed 's/^  nodes: 127 .*/  nodes: 32/' "$SP" | cat - "$TMP/$2.yaml.tail" >"$TMP/$2.yaml"
    "$RAILYARD" -q build "$TMP/$2.yaml" -o "$TMP/$2.out" >/dev/null 2>"$TMP/$2.err"
    expect_eq "$2: exit" $? 1
    [ -e "$TMP/$2.out" ] && fail "$2: wrote $TMP/$2.out" || ok
    grep -qE "^$TMP/$2\\.yaml:$3: error: $4" "$TMP/$2.err" && ok ||
        fail "$2: want $3: $4, got: $(cat "$TMP/$2.err")"
}
line=$(($(wc -l <"$SP") + 2))
bad "growth:
  target_nodes: 16" small "$line:17" "growth\\.target_nodes must be at least the cluster's 32 nodes"
bad "growth:
  target_gpus: 1020" odd "$line:16" "growth\\.target_gpus must be a multiple of 8"
bad "growth:
  target_nodes: 127
  target_gpus: 1016" both "$((line + 1)):16" "growth\\.target_nodes and growth\\.target_gpus are mutually exclusive"
"$RAILYARD" validate "$SP" --set cluster.nodes=32 --set growth.target_gpus=8 >/dev/null 2>"$TMP/set.err"
expect_eq "--set growth.target_gpus=8: exit" $? 1
grep -q "^--set:2:20: error: growth.target_gpus must be at least the cluster's 256 GPUs" \
    "$TMP/set.err" && ok || fail "--set: $(cat "$TMP/set.err")"

finish
