#!/bin/sh
# railyard init: for every node model of the catalog and a few sizes, the
# starter spec is valid YAML that railyard validate accepts, with the GPUs,
# node and switch asked for (the switch: the catalog's first InfiniBand one
# at the node's NIC port speed, found here from the YAML files); -o never
# replaces a file railyard did not write, or one edited since (nor writes
# through a directory) without --force and leaves nothing behind; a size the node model cannot make, an unknown model
# and missing options are usage errors.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
T="$TOP_SRCDIR/templates"

"$PY" - "$T" <<'PY' >"$TMP/cases" || fail "reading the catalog"
import sys, yaml
T = sys.argv[1]
nodes = yaml.safe_load(open(f"{T}/nodes.yaml"))["nodes"]
switches = yaml.safe_load(open(f"{T}/switches.yaml"))["switches"]
names = {"hdr": 200, "hdr100": 100, "ndr": 400, "ndr200": 200, "xdr": 800, "edr": 100}
def gbps(v):
    v = str(v).lower()
    if v in names: return names[v]
    if v.endswith("t"): return float(v[:-1]) * 1000
    return float(v.rstrip("g"))
for name, n in nodes.items():
    unit = max(n["gpus_per_node"], n["hb_domain"])
    # a NIC port's speed, or the NIC's bandwidth its planes split
    nic = gbps(n["nic_speed"]) if "nic_speed" in n else gbps(n["nic_bandwidth"]) / n.get("planes", 1)
    sw = next((s for s, e in switches.items()
               if e.get("protocol", "infiniband") == "infiniband" and gbps(e["speed"]) == nic), "generic")
    for k in (1, 3, 64):
        print(name, unit * k, sw)
PY
[ -s "$TMP/cases" ] || fail "no node models"
while read -r node gpus sw; do
    f="$TMP/$node-$gpus.yaml"
    "$RAILYARD" -T "$T" init --gpus "$gpus" --node "$node" --name "c-$node" -o "$f" 2>"$TMP/err"
    expect_eq "init $node $gpus: exit" "$?" 0
    [ -s "$TMP/err" ] && fail "init $node $gpus: stderr: $(cat "$TMP/err")"
    if ! "$RAILYARD" -T "$T" validate "$f" --format json >"$TMP/v.json" 2>"$TMP/err"; then
        fail "validate the starter for $node $gpus: $(cat "$TMP/err")"
        continue
    fi
    got=$("$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["name"], j["gpus"], j["node"], j["switch"])' "$TMP/v.json")
    expect_eq "starter for $node $gpus" "$got" "c-$node $gpus $node $sw"
done <"$TMP/cases"

# The starter on standard output is the same file.
"$RAILYARD" -T "$T" init --gpus 1024 --node dgx-h100 >"$TMP/stdout.yaml"
"$RAILYARD" -T "$T" init --gpus 1024 --node dgx-h100 -o "$TMP/file.yaml"
cmp -s "$TMP/stdout.yaml" "$TMP/file.yaml" && ok || fail "standard output and -o differ"
# Every line is a comment, blank or YAML that PyYAML reads; every key is commented.
"$PY" -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d["cluster"]["gpus"] == 1024' \
    "$TMP/file.yaml" && ok || fail "PyYAML reads the starter"
n=$(grep -cE '^ *[a-z_]+: [^#]+#' "$TMP/file.yaml")
k=$(grep -cE '^ *[a-z_]+: ' "$TMP/file.yaml")
expect_eq "every key with a value has a comment" "$n" "$((k - 1))"   # version: 1 has none

# No file railyard did not write is replaced without --force, and none is
# left beside it; its own starter, unedited, is replaced; edited, refused.
echo mine >"$TMP/keep.yaml"
mkdir "$TMP/dir.yaml"
ln -s keep.yaml "$TMP/link.yaml"
for t in keep.yaml dir.yaml link.yaml; do
    "$RAILYARD" -T "$T" init --gpus 8 --node dgx-h100 -o "$TMP/$t" 2>"$TMP/err"
    expect_eq "init -o existing $t: exit" "$?" 3
    case $t in
    dir.yaml) want="cannot write '$TMP/$t': Is a directory" ;;
    *) want="'$TMP/$t' exists and railyard did not write it, or it was changed since; name a new file, or use --force to replace it: nothing written" ;;
    esac
    grep -qF "$want" "$TMP/err" && ok || fail "init -o existing $t: $(cat "$TMP/err")"
done
expect_eq "the existing file" "$(cat "$TMP/keep.yaml")" mine
expect_eq "nothing left beside it" "$(ls -A "$TMP" | grep -c railyard)" 0
"$RAILYARD" -T "$T" init --gpus 16 --node dgx-h100 -o "$TMP/own.yaml" &&
    "$RAILYARD" -T "$T" init --gpus 8 --node dgx-h100 -o "$TMP/own.yaml" &&
    grep -q 'gpus: 8 ' "$TMP/own.yaml" && ok || fail "init replaces its own unedited starter"
echo '# my note' >>"$TMP/own.yaml"
"$RAILYARD" -T "$T" init --gpus 16 --node dgx-h100 -o "$TMP/own.yaml" 2>/dev/null
expect_eq "init -o an edited starter: exit" "$?" 3
tail -1 "$TMP/own.yaml" | grep -q '# my note' && ok || fail "the edited starter was replaced"
"$RAILYARD" -T "$T" init --gpus 8 --node dgx-h100 -o "$TMP/keep.yaml" --force
"$RAILYARD" -T "$T" validate "$TMP/keep.yaml" >/dev/null && ok || fail "--force: the new spec"
"$RAILYARD" -T "$T" init --gpus 8 --node dgx-h100 -o /dev/null && ok || fail "-o /dev/null"

# Usage errors: exit 2, nothing written.
usage() {   # WHAT MESSAGE ARGS...
    w=$1 m=$2; shift 2
    "$RAILYARD" -T "$T" init "$@" -o "$TMP/u.yaml" 2>"$TMP/err"
    expect_eq "$w: exit" "$?" 2
    grep -qF -- "$m" "$TMP/err" && ok || fail "$w: $(cat "$TMP/err")"
    [ -e "$TMP/u.yaml" ] && fail "$w: wrote the file" || ok
}
usage "NVL72 size" "--gpus must be a multiple of 72 for gb200-nvl72 (an NVLink domain of 72 GPUs): 936 or 1008" \
    --gpus 1000 --node gb200-nvl72
usage "node size" "--gpus must be a multiple of 8 for dgx-h100 (a node of 8 GPUs): 8" --gpus 4 --node dgx-h100
usage "unknown node" "unknown node 'dgx-h10'; did you mean 'dgx-h100'?" --gpus 8 --node dgx-h10
usage "no --gpus" "missing --gpus N" --node dgx-h100
usage "no --node" "missing --node MODEL" --gpus 8
usage "bad --gpus" "--gpus takes a whole number of GPUs" --gpus 8k --node dgx-h100
usage "bad --name" "--name must be lowercase" --gpus 8 --node dgx-h100 --name "My Cluster"
# A catalog description of several lines is one comment line of the starter:
# what follows its line break is no key of the spec.
mkdir -p "$TMP/cat"
printf 'nodes:\n  lab-node:\n    description: "a lab server\\nfabric: {design: fat-tree}"\n    gpus_per_node: 8\n    hb_domain: 8\n    nic_speed: NDR\n' \
    >"$TMP/cat/nodes.yaml"
"$RAILYARD" -T "$TMP/cat" init --gpus 64 --node lab-node -o "$TMP/lab.yaml" 2>"$TMP/err"
expect_eq "init with a description of two lines: exit" "$?" 0
grep -q '^  node: lab-node  *# a lab server\\x0afabric: {design: fat-tree}$' "$TMP/lab.yaml" && ok ||
    fail "the description's comment: $(grep 'node: lab-node' "$TMP/lab.yaml")"
expect_eq "one fabric key" "$(grep -c '^fabric:' "$TMP/lab.yaml")" 1
"$RAILYARD" -T "$TMP/cat" validate "$TMP/lab.yaml" >/dev/null 2>"$TMP/err" && ok ||
    fail "the starter of lab-node: $(cat "$TMP/err")"
finish
