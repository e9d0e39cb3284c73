#!/bin/sh
# Power figures of the node and switch models (cluster.node.power,
# fabric.switch.power).
#
#   - Every entry of templates/nodes.yaml and templates/switches.yaml has a
#     power > 0, and `validate --format json` reports, for a spec naming the
#     entry, the watts the catalog file gives (read here with PyYAML, not by
#     railyard).
#   - An inline model overrides the entry's power, and --set overrides both.
#   - Without a power the figure is 0 (unknown).
#   - A negative power is an error at its file:line:col, in a spec and in a
#     catalog file, with exit 1 and nothing on stdout.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

# power_of KIND NAME: the entry's power as the catalog file writes it.
power_of() {
    "$PY" - "$TPL/$1.yaml" "$1" "$2" <<'P'
import sys, yaml
path, kind, name = sys.argv[1:4]
e = yaml.safe_load(open(path))[kind][name]
print(e.get("power", 0))
P
}

# json_field FILE KEY: a top-level number of validate's JSON, as %g.
json_field() {
    "$PY" -c 'import json, sys; print("%g" % json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# validate SPEC OUT [ARGS...]: validate --format json into OUT; prints the exit.
validate() {
    spec=$1 out=$2
    shift 2
    "$RAILYARD" "$@" validate "$spec" --format json >"$out" 2>"$out.err"
    echo $?
}

# ---- every catalog entry reaches the spec ----------------------------------------------------
entries() {
    "$PY" -c 'import sys, yaml; [print(k) for k in yaml.safe_load(open(sys.argv[1]))[sys.argv[2]]]' \
        "$TPL/$1.yaml" "$1"
}
n=0
for node in $(entries nodes); do
    want=$(power_of nodes "$node")
    # Whole HB domains: nodes = hb_domain / gpus_per_node when a domain spans nodes.
    nodes=$("$PY" -c 'import sys, yaml
e = yaml.safe_load(open(sys.argv[1]))["nodes"][sys.argv[2]]
print(max(1, e["hb_domain"] // e["gpus_per_node"]))' "$TPL/nodes.yaml" "$node")
    printf 'name: p\ncluster: {nodes: %s, node: %s}\n' "$nodes" "$node" >"$TMP/n.yaml"
    rc=$(validate "$TMP/n.yaml" "$TMP/n.json")
    expect_eq "$node: validate exit" "$rc" 0
    [ "$("$PY" -c "print($want > 0)")" = True ] && ok || fail "$node: no power in the catalog ($want)"
    expect_eq "$node: node_power_w" "$(json_field "$TMP/n.json" node_power_w)" "$("$PY" -c "print('%g' % $want)")"
    n=$((n + 1))
done
[ "$n" -ge 9 ] && ok || fail "only $n node entries"

n=0
for sw in $(entries switches); do
    want=$(power_of switches "$sw")
    printf 'name: p\ncluster: {gpus: 64}\nfabric: {switch: %s}\n' "$sw" >"$TMP/s.yaml"
    rc=$(validate "$TMP/s.yaml" "$TMP/s.json")
    expect_eq "$sw: validate exit" "$rc" 0
    [ "$("$PY" -c "print($want > 0)")" = True ] && ok || fail "$sw: no power in the catalog ($want)"
    expect_eq "$sw: switch_power_w" "$(json_field "$TMP/s.json" switch_power_w)" "$("$PY" -c "print('%g' % $want)")"
    n=$((n + 1))
done
[ "$n" -ge 14 ] && ok || fail "only $n switch entries"

# ---- overrides ---------------------------------------------------------------------------
cat >"$TMP/o.yaml" <<'Y'
name: over
cluster:
  nodes: 4
  node: {name: dgx-h100, power: 9876.5}
fabric:
  switch: {name: qm9700, power: 1800}
Y
rc=$(validate "$TMP/o.yaml" "$TMP/o.json")
expect_eq "inline override: exit" "$rc" 0
expect_eq "inline node power" "$(json_field "$TMP/o.json" node_power_w)" 9876.5
expect_eq "inline switch power" "$(json_field "$TMP/o.json" switch_power_w)" 1800
rc=$(validate "$TMP/o.yaml" "$TMP/o2.json" --set fabric.switch.power=2100 --set cluster.node.power=0)
expect_eq "--set override: exit" "$rc" 0
expect_eq "--set switch power" "$(json_field "$TMP/o2.json" switch_power_w)" 2100
expect_eq "--set node power 0" "$(json_field "$TMP/o2.json" node_power_w)" 0

# A model without a catalog entry: unknown.
printf 'name: p\ncluster: {gpus: 64, node: {name: mybox, gpus_per_node: 8, hb_domain: 8}}\n' >"$TMP/u.yaml"
rc=$(validate "$TMP/u.yaml" "$TMP/u.json")
expect_eq "no power: exit" "$rc" 0
expect_eq "no power: node" "$(json_field "$TMP/u.json" node_power_w)" 0
expect_eq "no power: switch (generic)" "$(json_field "$TMP/u.json" switch_power_w)" 0

# ---- negative powers ---------------------------------------------------------------------
cat >"$TMP/neg.yaml" <<'Y'
name: neg
cluster:
  nodes: 4
  node: {name: dgx-h100, power: -5}
fabric:
  switch:
    name: qm9700
    power: -1.5
Y
rc=$(validate "$TMP/neg.yaml" "$TMP/neg.json")
expect_eq "negative power: exit" "$rc" 1
[ -s "$TMP/neg.json" ] && fail "negative power: something on stdout" || ok
# Positions counted here: line 4, the column of "-5"; line 8, the column of "-1.5".
c1=$(awk 'NR == 4 { print index($0, "-5") }' "$TMP/neg.yaml")
c2=$(awk 'NR == 8 { print index($0, "-1.5") }' "$TMP/neg.yaml")
grep -q "^$TMP/neg.yaml:4:$c1: error: cluster.node.power must be 0\.\.1e+07 W (got -5)\$" \
    "$TMP/neg.json.err" && ok || fail "negative node power: $(cat "$TMP/neg.json.err")"
grep -q "^$TMP/neg.yaml:8:$c2: error: fabric.switch.power must be 0\.\.1e+07 W (got -1.5)\$" \
    "$TMP/neg.json.err" && ok || fail "negative switch power: $(cat "$TMP/neg.json.err")"

# In a catalog file: the error names the catalog's line and column.
mkdir "$TMP/tpl"
cp "$TPL"/*.yaml "$TMP/tpl/"
"$PY" - "$TMP/tpl/switches.yaml" <<'P'
import re, sys
p = sys.argv[1]
s = open(p).read()
s, n = re.subn(r"(\n  qm9790:\n(?:    .*\n|\s+#.*\n)*?)    power: [0-9.]+", r"\1    power: -7", s, count=1)
assert n == 1
open(p, "w").write(s)
P
line=$(grep -n '^    power: -7' "$TMP/tpl/switches.yaml" | cut -d: -f1)
col=$(awk -v n="$line" 'NR == n { print index($0, "-7") }' "$TMP/tpl/switches.yaml")
printf 'name: p\ncluster: {gpus: 64}\nfabric: {switch: qm8700}\n' >"$TMP/c.yaml"
rc=$(validate "$TMP/c.yaml" "$TMP/c.json" --templates "$TMP/tpl")
expect_eq "negative catalog power: exit" "$rc" 1
[ -s "$TMP/c.json" ] && fail "negative catalog power: something on stdout" || ok
grep -q "^$TMP/tpl/switches.yaml:$line:$col: error: switches.qm9790.power must be 0\.\.1e+07 W" \
    "$TMP/c.json.err" && ok || fail "negative catalog power: $(cat "$TMP/c.json.err")"

no_sanitizer "$TMP/neg.json.err"
finish
