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

# A -T that is no directory is not passed over.
"$RAILYARD" -T "$TMP/nowhere" catalog switches >/dev/null 2>"$TMP/err"
expect_eq "-T nowhere: exit" "$?" 3
grep -q "nowhere/switches.yaml" "$TMP/err" && ok || fail "-T nowhere: $(cat "$TMP/err")"
finish
