#!/bin/sh
# railyard slurm: hostlist expressions (tests/unit/hostlist_test.c), then the
# Slurm topology files of many fabrics checked by tests/data/slurm/check-slurm.py
# (Slurm's syntax and rules, hostlists expanded in Python, host names from the
# naming pattern, claims checked against fabric.json), golden files,
# determinism and bad input. Slurm itself is not needed; when scontrol is
# installed it expands the hostlists too.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/slurm"
EX="$TOP_SRCDIR/examples"

"$TOP_BUILDDIR/tests/unit/hostlist_test" 3000 >"$TMP/hl.out" 2>&1
expect_eq "hostlist_test exit" $? 0
grep '^FAIL' "$TMP/hl.out" | head -10
no_sanitizer "$TMP/hl.out"

if ! "$PY" -c 'import yaml' 2>/dev/null; then
    fail "python3-yaml is missing: topology.yaml cannot be checked"
fi

spec() {    # spec NAME YAML-BODY: write a spec file
    printf 'name: %s\n%s\n' "$1" "$2" >"$TMP/$1.yaml"
}
spec rail-only 'cluster: {gpus: 512, hb_domain: 16, gpus_per_node: 8}
fabric: {design: rail-only, switch: {name: s16, radix: 16, speed: HDR}}'
spec packed 'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
fabric: {design: rail-only, switch: {name: s16, radix: 16, speed: HDR}}'
spec fat-2plane 'cluster: {gpus: 120, hb_domain: 8, gpus_per_node: 8, planes: 2}
fabric: {design: fat-tree, switch: {name: s16, radix: 16, speed: HDR}}'
spec fat-3tier 'cluster: {gpus: 512, hb_domain: 8, gpus_per_node: 8}
fabric: {design: fat-tree, switch: {name: s16, radix: 16, speed: HDR}}'
spec four-tier 'cluster: {gpus: 256, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: {name: s8, radix: 8, speed: HDR}}'
spec one-switch 'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: qm9700}'
spec gb200-partial 'cluster: {nodes: 162, node: gb200-nvl72, scalable_unit: 8}
fabric: {switch: q3400}'
spec gb200-su6 'cluster: {nodes: 432, node: gb200-nvl72, scalable_unit: 6}
fabric: {switch: qm9700}'
spec split-node 'cluster: {gpus: 96, hb_domain: 4, gpus_per_node: 8, scalable_unit: 3}
fabric: {switch: {name: s16, radix: 16, speed: HDR}}'
spec wide-node 'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
fabric: {design: fat-tree, switch: {name: s8, radix: 8, speed: HDR}}'
spec su-naming 'cluster: {nodes: 127, node: dgx-h100, scalable_unit: 32}
fabric: {switch: qm9700}
naming: {node: "su{unit1}-dgx{n1:02}"}'
spec plain-naming 'cluster: {nodes: 127, node: dgx-h100, scalable_unit: 32}
fabric: {switch: qm9700}
naming: {node: "n{n}"}'
spec tail-naming 'cluster: {nodes: 24, node: dgx-h100, scalable_unit: 8}
fabric: {switch: qm9700}
naming: {node: "dgx{n1}.ib"}'

# name|spec|--set|nodes|gpus per node|hb domain|scalable unit|pattern
cases="superpod|$EX/superpod-4su.yaml||127|8|8|32|node{n1:03}
superpod-3tier-1pod|$EX/superpod-4su.yaml|cluster.nodes=1024|1024|8|8|32|node{n1:04}
superpod-3tier|$EX/superpod-4su.yaml|cluster.nodes=2048|2048|8|8|32|node{n1:04}
b200-2plane|$EX/b200-2plane.yaml||64|8|8|32|node{n1:03}
fat-tree|$EX/fat-tree.yaml||256|8|8|0|node{n1:03}
gh200-rail-only|$EX/rail-only-gh200.yaml||32768|1|256|32|node{n1:05}
gb200-nvl72|$D/gb200-nvl72.yaml||576|4|72|8|node{n1:03}
rail-only|$TMP/rail-only.yaml||64|8|16|8|node{n1:03}
packed|$TMP/packed.yaml||8|8|8|0|node{n1:03}
fat-2plane|$TMP/fat-2plane.yaml||15|8|8|0|node{n1:03}
fat-3tier|$TMP/fat-3tier.yaml||64|8|8|0|node{n1:03}
four-tier|$TMP/four-tier.yaml||32|8|8|0|node{n1:03}
one-switch|$TMP/one-switch.yaml||8|8|8|0|node{n1:03}
gb200-partial|$TMP/gb200-partial.yaml||162|4|72|8|node{n1:03}
gb200-su6|$TMP/gb200-su6.yaml||432|4|72|6|node{n1:03}
split-node|$TMP/split-node.yaml||12|8|4|3|node{n1:03}
wide-node|$TMP/wide-node.yaml||8|8|8|0|node{n1:03}
su-naming|$TMP/su-naming.yaml||127|8|8|32|su{unit1}-dgx{n1:02}
plain-naming|$TMP/plain-naming.yaml||127|8|8|32|n{n}
tail-naming|$TMP/tail-naming.yaml||24|8|8|8|dgx{n1}.ib"

printf '%s\n' "$cases" >"$TMP/cases"
while IFS="|" read -r name sp sets nodes gpn hb su pat; do
    out="$TMP/out-$name"
    if [ -n "$sets" ]; then set -- --set "$sets"; else set --; fi
    "$RAILYARD" slurm "$sp" "$@" -o "$out" >"$TMP/$name.log" 2>&1
    expect_eq "$name: slurm exit" $? 0
    no_sanitizer "$TMP/$name.log"
    for f in topology.conf topology-block.conf topology.yaml slurm.conf.fragment gres.conf; do
        [ -s "$out/slurm/$f" ] && ok || fail "$name: $f missing"
    done
    "$RAILYARD" build "$sp" "$@" --skip opensm,cabling -o "$TMP/fab-$name" >/dev/null 2>&1
    expect_eq "$name: build for fabric.json" $? 0
    "$PY" "$D/check-slurm.py" "$out/slurm" --nodes "$nodes" --gpn "$gpn" --hb "$hb" \
        --su "$su" --pattern "$pat" --fabric "$TMP/fab-$name/fabric.json" >"$TMP/$name.chk" 2>&1
    expect_eq "$name: Slurm files" "$(cat "$TMP/$name.chk")" ok
    rm -rf "$TMP/fab-$name"
    # same spec, same bytes
    "$RAILYARD" slurm "$sp" "$@" -o "$out.again" >/dev/null 2>&1
    diff -r "$out" "$out.again" >/dev/null && ok || fail "$name: second run differs"
done <"$TMP/cases"

# the shapes the files claim (grep the Slurm lines, not the comments)
lines() { grep -v '^#' "$TMP/out-$1/slurm/$2" | grep -v '^$'; }
expect_eq "superpod tree" "$(lines superpod topology.conf | tr '\n' ' ')" \
    "SwitchName=su1 Nodes=node[001-032] SwitchName=su2 Nodes=node[033-064] SwitchName=su3 Nodes=node[065-096] SwitchName=su4 Nodes=node[097-127] SwitchName=spine Switches=su[1-4] "
expect_eq "superpod block sizes" "$(lines superpod topology-block.conf | tail -1)" "BlockSizes=31,62,124"
# topology.yaml is read by Slurm 25.05 and later only, which take a block
# smaller than the first size (block_record.c: 24.11's "children count lower
# than bblock_node_cnt" fatal is gone in slurm-25-05-0-1): its sizes start
# at the full unit, so a 64-node job is counted as two units, not three
# 31-node blocks
expect_eq "superpod topology.yaml block sizes from the full unit" \
    "$(sed -n '/^    block_sizes:/,/^    blocks:/p' "$TMP/out-superpod/slurm/topology.yaml" | grep -o '[0-9][0-9]*' | tr '\n' ,)" \
    "32,64,128,"
expect_eq "GB200 NVL72 topology.yaml block sizes as the .conf's (all blocks full)" \
    "$(sed -n '/^    block_sizes:/,/^    blocks:/p' "$TMP/out-gb200-nvl72/slurm/topology.yaml" | grep -o '[0-9][0-9]*' | tr '\n' ,)" \
    "18,36,72,144,288,576,"
expect_eq "3-tier, units in one pod per rail: root above the units" \
    "$(lines superpod-3tier-1pod topology.conf | tail -1)" "SwitchName=spine Switches=su[1-32]"
expect_eq "3-tier, two pods per rail" "$(lines superpod-3tier topology.conf | tail -3 | tr '\n' ' ')" \
    "SwitchName=pod1 Switches=su[1-32] SwitchName=pod2 Switches=su[33-64] SwitchName=core Switches=pod[1-2] "
expect_eq "rail-only root" "$(lines rail-only topology.conf | tail -1)" "SwitchName=rail-spines Switches=su[1-4]"
expect_eq "rail-only blocks: HB domains of 2 nodes" "$(lines rail-only topology-block.conf | head -1)" \
    "BlockName=hbd1 Nodes=node[001-002]"
expect_eq "packed rail-only: one switch" "$(lines packed topology.conf)" "SwitchName=rail-switches Nodes=node[001-008]"
expect_eq "fat tree leaves" "$(lines fat-tree topology.conf | head -1)" "SwitchName=leaf0 Nodes=node[001-008]"
expect_eq "GB200 blocks: NVL72 racks" "$(lines gb200-nvl72 topology-block.conf | sed -n '1p;32,33p' | tr '\n' ' ')" \
    "BlockName=hbd1 Nodes=node[001-018] BlockName=hbd32 Nodes=node[559-576] BlockSizes=18,36,72,144,288,576 "
expect_eq "GB200 units of 6 racks: no size straddles a unit" \
    "$(lines gb200-su6 topology-block.conf | tail -1)" "BlockSizes=18,36,144,288"
expect_eq "a node in two units joins them" "$(lines split-node topology.conf | tail -1)" \
    "SwitchName=spine Switches=su[1,3,5,7]"
expect_eq "a node wider than a leaf joins its leaves" "$(lines wide-node topology.conf | head -1)" \
    "SwitchName=leaf0 Nodes=node001"
expect_eq "custom naming" "$(lines su-naming topology.conf | sed -n '1p;4p' | tr '\n' ' ')" \
    "SwitchName=su1 Nodes=su1-dgx[01-32] SwitchName=su4 Nodes=su4-dgx[97-127] "
expect_eq "unpadded names across 9/10 and 99/100" "$(lines plain-naming topology.conf | sed -n '1p;4p' | tr '\n' ' ')" \
    "SwitchName=su1 Nodes=n[0-31] SwitchName=su4 Nodes=n[96-126] "
expect_eq "names ending in letters stay whole" "$(lines tail-naming topology.conf | head -1)" \
    "SwitchName=su1 Nodes=dgx1.ib,dgx2.ib,dgx3.ib,dgx4.ib,dgx5.ib,dgx6.ib,dgx7.ib,dgx8.ib"

# what each file says of the Slurm that reads it (Slurm's source: BlockSizes
# from 24.05, slurm-24-05-0-1 block_record.c; 23.11 has BlockLevels only;
# both plugins read topology.conf, src/interfaces/topology.c)
hdr() { grep '^#' "$TMP/out-superpod/slurm/$1" | tr '\n' ' ' | sed 's/# //g'; }
case "$(hdr topology-block.conf)" in
*"Needs Slurm 24.05 or later"*"23.11's topology/block knows only BlockLevels"*"Install it as topology.conf"*) ok ;;
*) fail "topology-block.conf does not say it needs Slurm 24.05 and the name topology.conf" ;;
esac
# the trade-off of the partly filled unit's 31 on Slurm 25.05, and the way out
case "$(hdr topology-block.conf)" in
*"BlockSizes: 31, the smallest block's node count (su4 is partly filled)"*"Slurm 24.05 and 24.11 refuse a smaller one"*"The price, on Slurm 25.05 and later"*"a job of two full blocks (64 nodes) needs three"*"use topology.yaml: its block sizes start at the full block's 32"*) ok ;;
*) fail "topology-block.conf does not state what BlockSizes=31 costs on Slurm 25.05" ;;
esac
case "$(hdr topology.yaml)" in
*"block_sizes: 32, the largest block's node count, though su4 holds 31: Slurm 25.05 and later take a block smaller"*) ok ;;
*) fail "topology.yaml does not say why its block sizes start at 32" ;;
esac
hdr_gb() { grep '^#' "$TMP/out-gb200-nvl72/slurm/$1" | tr '\n' ' ' | sed 's/# //g'; }
case "$(hdr_gb topology-block.conf)" in
*"The price"*) fail "topology-block.conf of full blocks speaks of a price" ;;
*) ok ;;
esac
case "$(hdr topology.conf)" in
*"TopologyPlugin=topology/tree"*"Slurm from 22.05 on"*) ok ;;
*) fail "topology.conf does not say which plugin and Slurm read it" ;;
esac
grep -q '^#TopologyPlugin=topology/block$' "$TMP/out-superpod/slurm/slurm.conf.fragment" && ok ||
    fail "slurm.conf.fragment lacks the block plugin's line"

# golden files: the SuperPOD example and a GB200 NVL72 cluster
for g in superpod:superpod-4su gb200-nvl72:gb200-nvl72; do
    for f in topology.conf topology-block.conf topology.yaml slurm.conf.fragment gres.conf; do
        if cmp -s "$TMP/out-${g%%:*}/slurm/$f" "$D/${g#*:}/$f"; then ok; else
            fail "${g%%:*}: $f differs from tests/data/slurm/${g#*:}/$f"
            diff -u "$D/${g#*:}/$f" "$TMP/out-${g%%:*}/slurm/$f" | head -20
        fi
    done
done

# Slurm's own hostlist reader, when Slurm is installed
if command -v scontrol >/dev/null 2>&1 && scontrol show hostnames 'n[1-2]' >/dev/null 2>&1; then
    for name in superpod plain-naming gb200-nvl72; do
        grep -h '^SwitchName=.* Nodes=\|^BlockName=' "$TMP/out-$name/slurm/topology.conf" \
            "$TMP/out-$name/slurm/topology-block.conf" | sed 's/.* Nodes=//' >"$TMP/exprs"
        while read -r e; do
            a=$(scontrol show hostnames "$e" | tr '\n' ' ')
            b=$("$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import importlib.util as u
s = u.spec_from_file_location("c", sys.argv[1] + "/check-slurm.py"); m = u.module_from_spec(s); s.loader.exec_module(m)
print(" ".join(m.expand(sys.argv[2])) + " ")' "$D" "$e")
            expect_eq "scontrol show hostnames $e" "$a" "$b"
        done <"$TMP/exprs"
    done
fi

# bad input: a naming pattern that repeats names; usage errors
spec same-names 'cluster: {nodes: 4, node: dgx-h100}
naming: {node: "dgx{unit1}"}'
"$RAILYARD" slurm "$TMP/same-names.yaml" -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
expect_eq "repeated host names: exit" $? 1
grep -q "same-names.yaml:3:[0-9]*: error: naming.node must contain {n} or {n1}" \
    "$TMP/bad.err" && ok || fail "repeated host names message: $(cat "$TMP/bad.err")"
[ ! -e "$TMP/bad" ] && ok || fail "repeated host names: output written"
"$RAILYARD" slurm "$EX/superpod-4su.yaml" >/dev/null 2>"$TMP/e"
expect_eq "slurm without -o" $? 2
"$RAILYARD" slurm -o "$TMP/x" >/dev/null 2>"$TMP/e"
expect_eq "slurm without SPEC" $? 2
no_sanitizer "$TMP/bad.err"
finish
