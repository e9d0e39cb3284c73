#!/bin/sh
# railyard kubernetes: node-labels.yaml in the label keys of NVIDIA
# topograph v1.0, read with PyYAML and checked by
# tests/data/kubernetes/check-node-labels.py against the cabling plan
# (cabling.csv), the fabric (fabric.json) and the Slurm tree
# (topology.conf) of the same build; the key list is kept in that script
# with the topograph version it was read from. Then: the file is the
# kubernetes group of build, byte for byte; kubectl reads it (when
# installed, offline with --local); the checker finds wrong labels; usage.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data"
EX="$TOP_SRCDIR/examples"

if ! "$PY" -c 'import yaml' 2>/dev/null; then
    fail "python3-yaml is missing: node-labels.yaml cannot be checked"
fi

spec() {
    printf 'name: %s\n%s\n' "$1" "$2" >"$TMP/$1.yaml"
}
. "$TOP_SRCDIR/tests/data/slurm/specs.sh"
scheduler_specs "$TMP"
spec four-tier 'cluster: {gpus: 256, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: {name: s8, radix: 8, speed: HDR}}'
spec su-naming 'cluster: {nodes: 127, node: dgx-h100, scalable_unit: 32}
fabric: {switch: qm9700}
naming: {node: "su{unit1}-dgx{n1:02}"}'

# name|spec|--set|nodes|gpus per node|hb domain|scalable unit|pattern|tiers
cases="superpod|$EX/superpod-4su.yaml||127|8|8|32|node{n1:03}|2
superpod-3tier|$EX/superpod-4su.yaml|cluster.nodes=2048|2048|8|8|32|node{n1:04}|3
b200-2plane|$EX/b200-2plane.yaml||64|8|8|32|node{n1:03}|2
fat-tree|$EX/fat-tree.yaml||256|8|8|0|node{n1:03}|2
gb200-nvl72|$D/slurm/gb200-nvl72.yaml||576|4|72|8|node{n1:03}|2
rail-only|$TMP/rail-only.yaml||64|8|16|8|node{n1:03}|2
split-node|$TMP/split-node.yaml||12|8|4|3|node{n1:03}|2
gh200-small|$TMP/gh200-small.yaml||512|1|256|1|node{n1:03}|1
one-switch|$TMP/one-switch.yaml||8|8|8|0|node{n1:03}|1
four-tier|$TMP/four-tier.yaml||32|8|8|0|node{n1:03}|3
su-naming|$TMP/su-naming.yaml||127|8|8|32|su{unit1}-dgx{n1:02}|2"
printf '%s\n' "$cases" >"$TMP/cases"
while IFS="|" read -r name sp sets nodes gpn hb su pat tiers; do
    out="$TMP/b-$name"
    if [ -n "$sets" ]; then set -- --set "$sets"; else set --; fi
    "$RAILYARD" build "$sp" "$@" --skip opensm,diagrams -o "$out" >"$TMP/$name.log" 2>&1
    expect_eq "$name: build exit" $? 0
    no_sanitizer "$TMP/$name.log"
    "$PY" "$D/kubernetes/check-node-labels.py" "$out" --nodes "$nodes" --gpn "$gpn" --hb "$hb" \
        --su "$su" --pattern "$pat" >"$TMP/$name.chk" 2>&1
    expect_eq "$name: node labels" "$(cat "$TMP/$name.chk")" ok
    # the tiers the file has, counted here from the keys
    expect_eq "$name: fabric tiers" \
        "$(grep -v '^#' "$out/kubernetes/node-labels.yaml" |
            grep -o 'fabric\.topograph\.run/tier-[0-9][0-9]*:' | sort -u | wc -l)" \
        "$tiers"
    "$RAILYARD" kubernetes "$sp" "$@" -o "$TMP/k-$name" >"$TMP/$name.klog" 2>&1
    expect_eq "$name: kubernetes exit" $? 0
    cmp -s "$out/kubernetes/node-labels.yaml" "$TMP/k-$name/kubernetes/node-labels.yaml" && ok ||
        fail "$name: kubernetes and build write different files"
    if command -v kubectl >/dev/null 2>&1; then
        n=$(kubectl label --local -f "$out/kubernetes/node-labels.yaml" railyard-test=1 -o name \
            2>"$TMP/$name.kerr" | grep -c '^node/')
        expect_eq "$name: Node objects kubectl reads" "$n" "$nodes"
    fi
    [ "$name" = superpod ] || rm -rf "$out" "$TMP/k-$name"
done <"$TMP/cases"

# the keys as topograph v1.0 spells them, and a node's labels in full
expect_eq "superpod: node097" \
    "$(sed -n '/name: "node097"/,/^- /p' "$TMP/b-superpod/kubernetes/node-labels.yaml" |
        sed 's/^ *//' | paste -sd' ')" \
    'name: "node097" labels: fabric.topograph.run/tier-0: "su4" fabric.topograph.run/tier-1: "spine" - apiVersion: v1'

# the checker finds labels that disagree with the fabric
b="$TMP/b-superpod"
cp -r "$b" "$TMP/wrong"
sed -i '/name: "node001"/,/^- /s/tier-0: "su1"/tier-0: "su2"/' "$TMP/wrong/kubernetes/node-labels.yaml"
"$PY" "$D/kubernetes/check-node-labels.py" "$TMP/wrong" --nodes 127 --gpn 8 --hb 8 --su 32 \
    >"$TMP/wrong.chk" 2>&1
grep -q "cabling: leaf leaf0 serves nodes of tier-0 \['su1', 'su2'\]" "$TMP/wrong.chk" && ok ||
    fail "checker: a node in the wrong unit: $(cat "$TMP/wrong.chk")"
cp "$b/kubernetes/node-labels.yaml" "$TMP/wrong/kubernetes/"
sed -i 's/fabric\.topograph\.run\/tier-1:/fabric.topograph.run\/tier1:/' "$TMP/wrong/kubernetes/node-labels.yaml"
"$PY" "$D/kubernetes/check-node-labels.py" "$TMP/wrong" --nodes 127 --gpn 8 --hb 8 --su 32 \
    >"$TMP/wrong.chk" 2>&1
grep -q "node001: keys \['fabric.topograph.run/tier-0', 'fabric.topograph.run/tier1'\]" \
    "$TMP/wrong.chk" && ok || fail "checker: a misspelt key: $(cat "$TMP/wrong.chk")"

# usage; bad input writes nothing
"$RAILYARD" kubernetes "$EX/superpod-4su.yaml" >/dev/null 2>&1
expect_eq "kubernetes without -o" $? 2
spec same-names 'cluster: {nodes: 4, node: dgx-h100}
naming: {node: "dgx{unit1}"}'
"$RAILYARD" kubernetes "$TMP/same-names.yaml" -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
expect_eq "repeated host names: exit" $? 1
[ ! -e "$TMP/bad" ] && ok || fail "repeated host names: output written"

# Node names: host names in lowercase, as the kubelet registers them; every
# name an RFC 1123 subdomain (checked here, and by kubectl when installed)
spec caps 'cluster: {nodes: 127, node: dgx-h100, scalable_unit: 32}
fabric: {switch: qm9700}
naming: {node: "DGX-SU{unit1}.Node{n1:03}"}'
"$RAILYARD" kubernetes "$TMP/caps.yaml" -o "$TMP/caps" >/dev/null 2>"$TMP/caps.err"
expect_eq "capitals: exit" "$?:$(cat "$TMP/caps.err")" "0:"
"$PY" - "$TMP/caps/kubernetes/node-labels.yaml" >"$TMP/caps.chk" 2>&1 <<'P'
import re, sys, yaml
label = r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"
ok = re.compile(r"^%s(\.%s)*$" % (label, label))
names = [i["metadata"]["name"] for i in yaml.safe_load(open(sys.argv[1]))["items"]]
want = ["dgx-su%d.node%03d" % ((n - 1) // 32 + 1, n) for n in range(1, 128)]
bad = [n for n in names if len(n) > 253 or not ok.match(n)]
print("ok" if names == want and not bad else "names %s..., invalid %s" % (names[:3], bad[:3]))
P
expect_eq "capitals: lowercase, valid node names" "$(cat "$TMP/caps.chk")" ok
if command -v kubectl >/dev/null 2>&1; then
    n=$(kubectl label --local -f "$TMP/caps/kubernetes/node-labels.yaml" railyard-test=1 -o name \
        2>"$TMP/caps.kerr" | grep -c '^node/')
    expect_eq "capitals: Node objects kubectl reads" "$n" 127
fi
# '_' has no lowercase that Kubernetes takes: exit 1 at naming.node,
# naming the first host; build says how to leave the labels out
spec under 'cluster: {nodes: 16, node: dgx-h100}
naming: {node: "dgx_{n1:02}"}'
"$RAILYARD" kubernetes "$TMP/under.yaml" -o "$TMP/under" >/dev/null 2>"$TMP/under.err"
expect_eq "'_': kubernetes exit" $? 1
grep -q "^$TMP/under.yaml:3:16: error: host name 'dgx_01' is no Kubernetes node name, even in lowercase" \
    "$TMP/under.err" && ok || fail "'_': $(cat "$TMP/under.err")"
[ ! -e "$TMP/under" ] && ok || fail "'_': output written"
"$RAILYARD" build "$TMP/under.yaml" --skip opensm,diagrams -o "$TMP/under" >/dev/null 2>"$TMP/under.err"
expect_eq "'_': build exit" $? 1
grep -q "change naming.node (or leave the kubernetes files out with --skip)$" "$TMP/under.err" && ok \
    || fail "'_' build: $(cat "$TMP/under.err")"
[ ! -e "$TMP/under" ] && ok || fail "'_' build: output written"
"$RAILYARD" -q build "$TMP/under.yaml" --skip opensm,diagrams,kubernetes -o "$TMP/under" >/dev/null 2>&1
expect_eq "'_': build --skip kubernetes exit" $? 0
finish
