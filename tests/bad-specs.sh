#!/bin/sh
# Bad input is rejected with exit code 1 and a file:line:col message.
#
# For every FILE<TAB>REGEX line of tests/data/bad/expected.txt, both
#   railyard validate FILE
#   railyard build FILE -o DIR
# must exit 1, print something matching REGEX (grep -E) on stderr, print no
# sanitizer report, and build must not leave DIR behind. Then the same for
# bad --set overrides, and the good specs must still pass.
#
# Environment (set by `make check`): RAILYARD, the built binary; TOP_SRCDIR;
# RAILYARD_TEMPLATES (default $TOP_SRCDIR/templates).
set -u

: "${RAILYARD:?RAILYARD must point at the built railyard}"
: "${TOP_SRCDIR:=.}"
: "${RAILYARD_TEMPLATES:=$TOP_SRCDIR/templates}"
export RAILYARD_TEMPLATES

dir=$TOP_SRCDIR/tests/data/bad
expected=$dir/expected.txt
good=$TOP_SRCDIR/tests/data/good/catalog-names.yaml
tab=$(printf '\t')

tmp=$(mktemp -d "${TMPDIR:-/tmp}/railyard-bad-specs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

fails=0
checks=0

fail() {
    fails=$((fails + 1))
    printf 'FAIL: %s\n' "$*"
}

# run_bad WHAT REGEX COMMAND...: COMMAND must exit 1 with REGEX on stderr.
run_bad() {
    what=$1 regex=$2
    shift 2
    checks=$((checks + 1))
    "$@" </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$tmp/stderr"; then
        fail "$what: sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error' "$tmp/stderr")"
    elif [ "$rc" -ne 1 ]; then
        fail "$what: exit code $rc, want 1: $(head -n1 "$tmp/stderr")"
    elif ! grep -qE -e "$regex" "$tmp/stderr"; then
        fail "$what: stderr does not match '$regex': $(head -n1 "$tmp/stderr")"
    fi
}

if [ ! -r "$expected" ]; then
    echo "FAIL: cannot read $expected"
    exit 1
fi

# Every bad spec needs an expectation, so none is silently skipped.
for f in "$dir"/*.yaml "$dir"/*.d; do
    [ -e "$f" ] || continue
    name=${f##*/}
    checks=$((checks + 1))
    grep -q "^$name$tab" "$expected" || fail "$name: no line in expected.txt"
done

while IFS="$tab" read -r file regex; do
    case $file in '' | '#'*) continue ;; esac
    if [ -z "$regex" ]; then
        fail "expected.txt: no regex for $file"
        continue
    fi
    if [ ! -e "$dir/$file" ]; then
        fail "$file: listed in expected.txt but missing"
        continue
    fi
    run_bad "validate $file" "$regex" "$RAILYARD" validate "$dir/$file"
    rm -rf "$tmp/out"
    run_bad "build $file" "$regex" "$RAILYARD" build "$dir/$file" -o "$tmp/out"
    checks=$((checks + 1))
    if [ -e "$tmp/out" ]; then
        fail "build $file: left $tmp/out behind"
        rm -rf "$tmp/out"
    fi
done <"$expected"

# --set errors: file "--set", line = which --set, column = offset in KEY=VALUE.
run_bad "--set radix" '^--set:1:21: error: fabric\.switch\.radix must be an even number of ports >= 4 \(got 63\)' \
    "$RAILYARD" validate --set fabric.switch.radix=63 "$good"
run_bad "--set typo" "^--set:2:9: error: unknown key 'nodse' in cluster; did you mean 'nodes'\\?" \
    "$RAILYARD" validate --set cluster.gpus=64 --set cluster.nodse=4 "$good"
run_bad "--set without =" '^--set:1:1: error: --set needs KEY=VALUE' \
    "$RAILYARD" validate --set fabric.tiers "$good"
run_bad "--set gpus multiple" '^--set:1:14: error: cluster\.gpus must be a multiple of 8' \
    "$RAILYARD" validate --set cluster.gpus=100 "$good"
run_bad "--set quoted number" '^--set:1:14: error: cluster\.gpus must be a whole number of GPUs >= 1, optionally followed by k, M, G, T, Ki, Mi, Gi, Ti or GPUs \(got the string "64"' \
    "$RAILYARD" validate --set 'cluster.gpus="64"' "$good"
run_bad "--set broken YAML" '^--set:1:[0-9]+: error: invalid YAML' \
    "$RAILYARD" validate --set 'fabric.oversubscription=[2:1' "$good"
run_bad "--set unknown switch" "^--set:1:15: error: fabric\\.switch: unknown switch 'qm9070'; did you mean 'qm9700'\\?" \
    "$RAILYARD" validate --set fabric.switch=qm9070 "$good"
run_bad "--set empty key part" "^--set:1:1: error: bad key 'cluster\\.\\.gpus'" \
    "$RAILYARD" validate --set cluster..gpus=3 "$good"
run_bad "--set design" "^--set:1:15: error: fabric\\.design must be .*did you mean 'rail-only'\\?" \
    "$RAILYARD" validate --set fabric.design=rail-onyl "$good"
run_bad "--set both errors" '^--set:2:21: error: fabric\.switch\.radix must be an even number' \
    "$RAILYARD" validate --set cluster.rails=3 --set fabric.switch.radix=7 "$good"
run_bad "--set both errors (first)" '^--set:1:15: error: cluster\.rails must divide' \
    "$RAILYARD" validate --set cluster.rails=3 --set fabric.switch.radix=7 "$good"

# One root error, not its cascade: a misspelt node with a workload is one
# error at cluster.node (the workload's GPU, inferred from the node, is not
# reported missing as well).
checks=$((checks + 1))
printf 'name: m\ncluster: {gpus: 2048, node: dgx-h10}\nworkload: {model: llama-3-405b}\n' >"$tmp/misspelt.yaml"
"$RAILYARD" model "$tmp/misspelt.yaml" </dev/null >/dev/null 2>"$tmp/stderr"
rc=$?
n=$(grep -c 'error:' "$tmp/stderr")
if [ "$rc" -ne 1 ] || [ "$n" -ne 1 ] || ! grep -q "misspelt.yaml:2:29: error: cluster.node: unknown node 'dgx-h10'; did you mean 'dgx-h100'" "$tmp/stderr"; then
    fail "misspelt node: exit $rc, $n errors: $(cat "$tmp/stderr")"
fi

# Good specs pass, also with overrides that reshape them.
run_good() {
    what=$1
    shift
    checks=$((checks + 1))
    "$@" </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [ "$rc" -ne 0 ] || grep -qE 'Sanitizer|runtime error' "$tmp/stderr"; then
        fail "$what: exit code $rc: $(head -n1 "$tmp/stderr")"
    fi
}
for f in "$TOP_SRCDIR"/tests/data/good/*.yaml "$TOP_SRCDIR"/examples/*.yaml; do
    [ -e "$f" ] || continue
    run_good "validate ${f#"$TOP_SRCDIR"/}" "$RAILYARD" validate "$f"
done
run_good "--set radix on a catalog switch" "$RAILYARD" validate --set fabric.switch.radix=128 "$good"
run_good "--set gpus replaces nodes" "$RAILYARD" validate --set cluster.gpus=256 "$good"

printf '%d checks, %d failed\n' "$checks" "$fails"
[ "$fails" -eq 0 ]
