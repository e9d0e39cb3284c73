#!/bin/sh
# -T DIR laid over the catalog below it: a file DIR lacks comes from
# $RAILYARD_TEMPLATES, then the installed catalog; a file DIR has adds its
# entries to that file's, an entry of the same name replacing the one below
# in its place; `replace: true` takes the file alone. Errors are at the
# file that has them; a -T that is no directory is an I/O error.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
T="$TOP_SRCDIR/templates"
RAILYARD_TEMPLATES=$T
export RAILYARD_TEMPLATES

names() {   # FILE TOP: the entry names of a catalog file, in order
    "$PY" -c 'import sys, yaml; print(" ".join(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]]))' "$1" "$2"
}
rows() {    # the first column of a catalog table, less its header
    awk 'NR > 1 { printf "%s%s", sep, $1; sep = " " } END { print "" }'
}

# One new switch, one changed: the rest of switches.yaml and every other file stay.
mkdir "$TMP/one"
cat >"$TMP/one/switches.yaml" <<'Y'
switches:
  qm9700:
    description: "QM9700 at our price"
    radix: 64
    speed: NDR
    price: 12345
  lab-switch:
    description: "a lab switch"
    radix: 16
    speed: NDR
Y
want="$(names "$T/switches.yaml" switches) lab-switch"
got=$("$RAILYARD" -T "$TMP/one" catalog switches | rows)
expect_eq "switches laid over" "$got" "$want"
got=$("$RAILYARD" -T "$TMP/one" catalog switches | awk '$1 == "qm9700" { print $7 }')
expect_eq "qm9700 replaced in place: price" "$got" 12,345
got=$("$RAILYARD" -T "$TMP/one" catalog nodes | rows)
expect_eq "nodes from below" "$got" "$(names "$T/nodes.yaml" nodes)"
printf 'name: lab\ncluster: {nodes: 4, node: dgx-h100}\nfabric: {switch: lab-switch}\n' >"$TMP/lab.yaml"
"$RAILYARD" -T "$TMP/one" validate "$TMP/lab.yaml" --format json >"$TMP/lab.json" 2>"$TMP/err"
expect_eq "validate with the new switch: exit" "$?" 0
got=$("$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["switch"], j["radix"])' "$TMP/lab.json")
expect_eq "validate with the new switch" "$got" "lab-switch 16"
"$RAILYARD" validate "$TMP/lab.yaml" >/dev/null 2>"$TMP/err"
expect_eq "the new switch without -T: exit" "$?" 1

# replace: true takes the file alone.
{ echo 'replace: true'; cat "$TMP/one/switches.yaml"; } >"$TMP/only.yaml"
mkdir "$TMP/only" && mv "$TMP/only.yaml" "$TMP/only/switches.yaml"
got=$("$RAILYARD" -T "$TMP/only" catalog switches | rows)
expect_eq "replace: true" "$got" "qm9700 lab-switch"
sed -i 's/^replace: true/replace: maybe/' "$TMP/only/switches.yaml"
"$RAILYARD" -T "$TMP/only" catalog switches >/dev/null 2>"$TMP/err"
expect_eq "replace: maybe: exit" "$?" 1
grep -q "only/switches.yaml:1:10: error: replace" "$TMP/err" && ok || fail "replace: maybe: $(cat "$TMP/err")"

# Three layers: -T, then $RAILYARD_TEMPLATES, then the installed catalog.
mkdir "$TMP/env"
printf 'nodes:\n  lab-node:\n    description: "x"\n    gpus_per_node: 4\n    hb_domain: 4\n    nic_speed: NDR\n' \
    >"$TMP/env/nodes.yaml"
got=$(RAILYARD_TEMPLATES="$TMP/env" "$RAILYARD" -T "$TMP/one" catalog nodes | rows)
case "$got" in
*" lab-node") ok ;;
*) fail "nodes of \$RAILYARD_TEMPLATES under -T: $got" ;;
esac

# An error in the file laid over is at its line:col; nothing is printed.
mkdir "$TMP/bad"
printf 'switches:\n  s1:\n    description: "x"\n    radix: 63\n    speed: NDR\n' >"$TMP/bad/switches.yaml"
"$RAILYARD" -T "$TMP/bad" catalog switches >"$TMP/out" 2>"$TMP/err"
expect_eq "bad catalog: exit" "$?" 1
grep -q 'bad/switches.yaml:4:' "$TMP/err" && ok || fail "bad catalog: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "bad catalog: wrote a table" || ok

# A rejected node entry leaves nothing behind for the next one (its slot
# once kept the rejected entry's hb_domain and the next entry, which has
# none, crashed on it): exit 1 and both entries' errors.
mkdir "$TMP/rej"
printf 'nodes:\n  a: {description: a, gpus_per_node: 6, hb_domain: 8, nic_speed: NDR}\n  b: {description: b}\n' \
    >"$TMP/rej/nodes.yaml"
"$RAILYARD" -T "$TMP/rej" catalog nodes >"$TMP/out" 2>"$TMP/err"
expect_eq "rejected node then one without hb_domain: exit" "$?" 1
grep -q 'rej/nodes.yaml:2:52: error: nodes.a.hb_domain must divide' "$TMP/err" && ok \
    || fail "rejected node a: $(cat "$TMP/err")"
grep -q "rej/nodes.yaml:3:3: error: catalog entry 'b' has no gpus_per_node" "$TMP/err" && ok \
    || fail "node b after a rejected one: $(cat "$TMP/err")"
# the same for switches (a rejected radix must not judge the next cages)
printf 'switches:\n  s1: {description: x, radix: 63, speed: NDR}\n  s2: {description: y, speed: NDR, cages: 7}\n' \
    >"$TMP/rej/switches.yaml"
"$RAILYARD" -T "$TMP/rej" catalog switches >"$TMP/out" 2>"$TMP/err"
expect_eq "rejected switch then one without radix: exit" "$?" 1
grep -q "rej/switches.yaml:3:3: error: catalog entry 's2' has no radix" "$TMP/err" && ok \
    || fail "switch s2 after a rejected one: $(cat "$TMP/err")"
grep -q 'cages' "$TMP/err" && fail "s2 judged by s1's radix: $(cat "$TMP/err")" || ok

# Two layers of 80,000 entries of the same names: every entry of the upper
# layer replaces its namesake in place, in time linear in the entries (this
# took minutes when each entry was looked for among all the others). The
# entries are no maps, so each is reported once, at the upper file.
mkdir "$TMP/big-lo" "$TMP/big-hi"
awk 'BEGIN { print "nodes:"; for (i = 0; i < 80000; i++) printf "  n%d: lo\n", i }' \
    >"$TMP/big-lo/nodes.yaml"
awk 'BEGIN { print "nodes:"; for (i = 79999; i >= 0; i--) printf "  n%d: hi\n", i }' \
    >"$TMP/big-hi/nodes.yaml"
RAILYARD_TEMPLATES="$TMP/big-lo" timeout -k 5 60 "$RAILYARD" -T "$TMP/big-hi" catalog nodes \
    >"$TMP/out" 2>"$TMP/err"
expect_eq "two layers of 80,000 entries: exit (124: still running after 60 s)" "$?" 1
got=$(grep -c "big-hi/nodes.yaml:[0-9]*:[0-9]*: error: node 'n[0-9]*' must be a map" "$TMP/err")
expect_eq "80,000 entries, each reported at the upper layer" "$got" 80000
grep -q big-lo "$TMP/err" && fail "an entry of the lower layer was not replaced" || ok
# in the lower layer's order: n0 first (line 80001 of the upper file), n79999 last (line 2)
got=$(sed -n '1s/.*nodes.yaml:\([0-9]*\):.*/\1/p;$s/.*nodes.yaml:\([0-9]*\):.*/\1/p' "$TMP/err" | tr '\n' ' ')
expect_eq "replaced in place" "$got" "80001 2 "

# An inline model or node map named after a catalog entry starts from it when
# -T lacks the entry's file, as without -T (the lookup once asked -T alone:
# "workload.model has no parameters", a node without its power).
mkdir "$TMP/sw" "$TMP/llm"
cp "$T/switches.yaml" "$TMP/sw/" && cp "$T/llms.yaml" "$TMP/llm/"
printf 'name: ov\ncluster: {gpus: 1024, node: dgx-h100}\nworkload:\n  model: {name: gpt-3-175b, layers: 80}\n' \
    >"$TMP/ov.yaml"
"$RAILYARD" model "$TMP/ov.yaml" --format json >"$TMP/ov0.json" 2>"$TMP/err"
expect_eq "model override without -T: exit" "$?" 0
"$RAILYARD" -T "$TMP/sw" model "$TMP/ov.yaml" --format json >"$TMP/ov1.json" 2>"$TMP/err"
expect_eq "model override under a -T of switches only: exit" "$?" 0
cmp -s "$TMP/ov0.json" "$TMP/ov1.json" && ok || fail "model override: -T changed the JSON: $(cat "$TMP/err")"
got=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["model"]["layers"])' "$TMP/ov1.json" 2>&1)
expect_eq "model override under -T: layers" "$got" 80
"$RAILYARD" -T "$TMP/sw" model "$TMP/ov.yaml" >"$TMP/ov1.txt" 2>&1
grep -q "gpt-3-175b: 175,000,000,000 parameters, 80 blocks" "$TMP/ov1.txt" && ok \
    || fail "model override under -T, text: $(head -5 "$TMP/ov1.txt")"
printf 'name: nd\ncluster: {gpus: 64, node: {name: dgx-h100, gpus_per_node: 8, hb_domain: 4}}\n' \
    >"$TMP/nd.yaml"
"$RAILYARD" validate "$TMP/nd.yaml" --format json >"$TMP/nd0.json" 2>"$TMP/err"
"$RAILYARD" -T "$TMP/llm" validate "$TMP/nd.yaml" --format json >"$TMP/nd1.json" 2>>"$TMP/err"
cmp -s "$TMP/nd0.json" "$TMP/nd1.json" && ok || fail "node map under a -T of llms only: $(cat "$TMP/err")"
want=$("$PY" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["nodes"]["dgx-h100"]["power"])' "$T/nodes.yaml")
got=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["node_power_w"])' "$TMP/nd1.json" 2>&1)
expect_eq "node map under -T: the entry's power" "$got" "$want"

# A -T that is no directory is not passed over.
"$RAILYARD" -T "$TMP/nowhere" catalog switches >/dev/null 2>"$TMP/err"
expect_eq "-T nowhere: exit" "$?" 3
grep -q "nowhere/switches.yaml" "$TMP/err" && ok || fail "-T nowhere: $(cat "$TMP/err")"
finish
