#!/bin/sh
# A workload that does not fit the cluster (a batch too small for any
# tensor x pipeline layout, a tensor size that does not divide the HB domain): the
# commands that do not use the workload warn once at its key and write what
# they write for the same spec without the workload; model, traffic,
# optimize (with the workload from the LLM section) and sweep refuse it with
# a file:line:col error, exit 1 (bad input) and write nothing; validate
# reports it as the error finding workload-fit. Errors inside the section
# (not a number, an unknown key) stay errors for every command.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

# 512 GPUs in HB domains of 16 and a model of 24 blocks, context parallelism
# held at 1: a batch of one sequence leaves replicas without one whatever the
# tensor-parallel size (at most 16) and the pipeline stages (at most 24).
# Left free, context parallelism (up to 64, dividing the 1,024-token
# sequence) makes a replica of 16 x 64 x 24 GPUs possible: the same batch
# is accepted and laid out as one replica (below).
GPUS=512 K=16 BATCH=1
mkdir "$TMP/unfit" "$TMP/plain"
head='name: fit
cluster: {gpus: '$GPUS', hb_domain: '$K', gpus_per_node: 8}
fabric: {switch: {name: s16, radix: 16, speed: 400G}}'
printf '%s\n' "$head" >"$TMP/plain/s.yaml"
printf '%s\nworkload:\n  model: {name: toy-1b, parameters: 1.3e9, layers: 24, d_model: 2048, heads: 16, seq_len: 1024, vocab: 50000, mcc: 8, batch: 512}\n  gpu: h100\n  batch: %s\n  parallelism: {context: 1}\n' \
    "$head" "$BATCH" >"$TMP/unfit/s.yaml"
mkdir "$TMP/cp"
grep -v '^  parallelism: {context: 1}$' "$TMP/unfit/s.yaml" >"$TMP/cp/s.yaml"
printf 'libra:\n  budget: 500\n' | cat "$TMP/unfit/s.yaml" - >"$TMP/unfit/libra.yaml"

# Where the warning and the error point: the value of workload.batch.
line=$(grep -n '^  batch: ' "$TMP/unfit/s.yaml" | cut -d: -f1)
col=$(($(sed -n "${line}p" "$TMP/unfit/s.yaml" | sed 's/[0-9].*//' | wc -c)))
WHY="the batch \\($BATCH sequences\\) is too small for $GPUS GPUs"
[ "$line" -gt 0 ] && [ "$col" -eq 10 ] && ok || fail "test setup: batch at $line:$col"

# one_warning FILE CMD: FILE holds exactly one line, the warning of CMD.
one_warning() {
    expect_eq "$2: stderr lines" "$(($(wc -l <"$1")))" 1
    grep -qE "^s\\.yaml:$line:$col: warning: $WHY: .*; ignored by $2\$" "$1" && ok \
        || fail "$2: want one warning at s.yaml:$line:$col ending '; ignored by $2', got: $(cat "$1")"
}

# ---- commands that do not use the workload: one warning, the normal outputs ------
cd "$TMP/plain" || exit 99
"$RAILYARD" bom s.yaml >"$TMP/bom.plain" 2>"$TMP/e" && "$RAILYARD" bom s.yaml --format json \
    >"$TMP/bomj.plain" 2>>"$TMP/e" && "$RAILYARD" build s.yaml -o "$TMP/build.plain" \
    >"$TMP/build.plain.txt" 2>>"$TMP/e"
expect_eq "plain spec: bom and build" $? 0
cd "$TMP/unfit" || exit 99

"$RAILYARD" bom s.yaml >"$TMP/bom.unfit" 2>"$TMP/bom.err"
expect_eq "bom: exit" $? 0
one_warning "$TMP/bom.err" bom
cmp -s "$TMP/bom.plain" "$TMP/bom.unfit" && ok || fail "bom: output differs from the spec without a workload"
"$RAILYARD" bom s.yaml --format json -o "$TMP/bom.json" >/dev/null 2>"$TMP/bomj.err"
expect_eq "bom -o: exit" $? 0
one_warning "$TMP/bomj.err" bom
cmp -s "$TMP/bomj.plain" "$TMP/bom.json" && ok || fail "bom -o: file differs from the spec without a workload"

"$RAILYARD" build s.yaml -o "$TMP/build.unfit" >"$TMP/build.unfit.txt" 2>"$TMP/build.err"
expect_eq "build: exit" $? 0
one_warning "$TMP/build.err" build
: >"$TMP/d"
[ -s "$TMP/build.unfit/bom.json" ] && diff -r "$TMP/build.plain" "$TMP/build.unfit" >"$TMP/d" && ok \
    || fail "build: outputs differ from the spec without a workload: $(head -n 3 "$TMP/d")"
expect_eq "build: report" "$(sed "s|$TMP/build.unfit|DIR|" "$TMP/build.unfit.txt")" \
    "$(sed "s|$TMP/build.plain|DIR|" "$TMP/build.plain.txt")"

for c in cabling opensm slurm; do
    "$RAILYARD" "$c" s.yaml -o "$TMP/$c" >/dev/null 2>"$TMP/$c.err"
    expect_eq "$c: exit" $? 0
    one_warning "$TMP/$c.err" "$c"
    [ -d "$TMP/$c/$c" ] && diff -r "$TMP/build.plain/$c" "$TMP/$c/$c" >/dev/null && ok \
        || fail "$c: files differ from build's"
done
for c in draw export compare; do
    "$RAILYARD" "$c" s.yaml >"$TMP/$c.out" 2>"$TMP/$c.err"
    expect_eq "$c: exit" $? 0
    one_warning "$TMP/$c.err" "$c"
    [ -s "$TMP/$c.out" ] && ok || fail "$c: no output"
done

# ---- commands that use it: refused at the key, exit 1, nothing written ------------
# refused NAME FILE ARGS...: exit 1, the error at the batch, no warning, no stdout
refused() {
    name=$1
    shift
    "$RAILYARD" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    expect_eq "$name: exit" $? 1
    grep -qE "^s\\.yaml:$line:$col: error: $WHY: " "$TMP/$name.err" && ok \
        || fail "$name: want the error at s.yaml:$line:$col, got: $(cat "$TMP/$name.err")"
    grep -q 'warning' "$TMP/$name.err" && fail "$name: a warning besides the error" || ok
    [ -s "$TMP/$name.out" ] && fail "$name: wrote to standard output" || ok
}
refused model model s.yaml -o "$TMP/model.txt"
[ -e "$TMP/model.txt" ] && fail "model: -o file written" || ok
refused traffic traffic s.yaml -o "$TMP/traffic"
[ -e "$TMP/traffic" ] && fail "traffic: -o dir written" || ok
cp s.yaml s.yaml.orig && cp libra.yaml s.yaml     # the workload from the LLM section
refused optimize optimize s.yaml -o "$TMP/opt.json"
[ -e "$TMP/opt.json" ] && fail "optimize: -o file written" || ok
cp s.yaml.orig s.yaml
# sweep: the point is invalid, the others run
"$RAILYARD" sweep s.yaml --vary workload.batch=$BATCH,512 >"$TMP/sweep.csv" 2>"$TMP/sweep.err"
expect_eq "sweep: exit" $? 0
expect_eq "sweep: rows" "$(cut -d, -f1,2 "$TMP/sweep.csv" | tail -n +2 | tr '\n' ' ')" "$BATCH,invalid 512,ok "
grep -qE "error: $WHY" "$TMP/sweep.err" && ok || fail "sweep: no error for the point: $(cat "$TMP/sweep.err")"

# optimize with its own layers does not use the workload section
sed -n '1,/^libra:/p' libra.yaml >s.yaml
printf '  budget: 500\n  layers:\n    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}\n' >>s.yaml
"$RAILYARD" optimize s.yaml -o "$TMP/opt2.json" >/dev/null 2>"$TMP/opt2.err"
rc=$?
if grep -q 'error' "$TMP/opt2.err"; then
    fail "optimize with layers: $(cat "$TMP/opt2.err")"
else
    expect_eq "optimize with layers: exit" $rc 0
    one_warning "$TMP/opt2.err" optimize
    [ -s "$TMP/opt2.json" ] && ok || fail "optimize with layers: nothing written"
fi
cp s.yaml.orig s.yaml

# ---- validate: the error finding workload-fit, at the key ---------------------------
"$RAILYARD" validate s.yaml --format json >"$TMP/v.json" 2>"$TMP/v.err"
expect_eq "validate: exit" $? 1
expect_eq "validate: stderr" "$(grep -cE "^s\\.yaml:$line:$col: error: $WHY: " "$TMP/v.err") $(($(wc -l <"$TMP/v.err")))" "1 1"
expect_eq "validate: finding" "$("$PY" -c '
import json, sys
try:
    c = json.load(open(sys.argv[1]))["checks"]
except ValueError:
    sys.exit("no JSON")
print(c["ok"], c["errors"], [(f["level"], f["check"], f["key"]) for f in c["findings"] if f["check"] == "workload-fit"])
' "$TMP/v.json")" "False 1 [('error', 'workload-fit', 'workload.batch')]"

# ---- a tensor size that does not divide the HB domain: the same two ways ------------
"$RAILYARD" bom s.yaml --set workload.batch=512 --set workload.parallelism.tensor=5 >/dev/null 2>"$TMP/t.err"
expect_eq "tensor 5: bom exit" $? 0
expect_eq "tensor 5: bom warning" "$(grep -cE "^--set:2:[0-9]+: warning: workload\\.parallelism\\.tensor \\(5\\) must divide the HB domain size $K: .*; ignored by bom\$" "$TMP/t.err") $(($(wc -l <"$TMP/t.err")))" "1 1"
"$RAILYARD" model s.yaml --set workload.batch=512 --set workload.parallelism.tensor=5 >/dev/null 2>"$TMP/t.err"
expect_eq "tensor 5: model exit" $? 1
grep -qE "^--set:2:[0-9]+: error: workload\\.parallelism\\.tensor \\(5\\) must divide" "$TMP/t.err" && ok \
    || fail "tensor 5: model error: $(cat "$TMP/t.err")"

# ---- a workload that fits: no warning; errors in the section fail every command -----
"$RAILYARD" bom s.yaml --set workload.batch=512 >/dev/null 2>"$TMP/fit.err"
expect_eq "fitting workload: bom exit, stderr" "$? $(($(wc -l <"$TMP/fit.err")))" "0 0"
for bad in "workload.batch=many|workload\\.batch must be a whole number of sequences" \
           "workload.bach=512|unknown key 'bach' in workload" \
           "workload.compute_efficiency=2|compute_efficiency must be"; do
    set_arg=${bad%%|*} want=${bad#*|}
    rm -rf "$TMP/badout"
    "$RAILYARD" bom s.yaml --set "$set_arg" -o "$TMP/badout" >/dev/null 2>"$TMP/bad.err"
    expect_eq "bom --set $set_arg: exit" $? 1
    grep -qE "error: .*$want" "$TMP/bad.err" && ok || fail "bom --set $set_arg: $(cat "$TMP/bad.err")"
    [ -e "$TMP/badout" ] && fail "bom --set $set_arg: -o file written" || ok
    "$RAILYARD" build s.yaml --set "$set_arg" -o "$TMP/badout" >/dev/null 2>"$TMP/bad.err"
    expect_eq "build --set $set_arg: exit" $? 1
    [ -e "$TMP/badout" ] && fail "build --set $set_arg: output written" || ok
done
cat "$TMP"/*.err >"$TMP/all.err"
no_sanitizer "$TMP/all.err"

# ---- context parallelism counted: the same batch fits with it free ------------------------
"$RAILYARD" model "$TMP/cp/s.yaml" --analytic -f json >"$TMP/cp.json" 2>"$TMP/cp.err"
expect_eq "batch of 1 with context parallelism free: model exit ($(head -c 200 "$TMP/cp.err"))" $? 0
"$PY" - "$TMP/cp.json" <<'P' && ok || fail "batch of 1 with context parallelism free: $(head -c 300 "$TMP/cp.json")"
import json, sys
o = json.load(open(sys.argv[1]))["optimum"]
# one replica of the one sequence (the planner may leave GPUs idle)
sys.exit(not (o["data"] == 1 and o["tensor"] * o["context"] * o["pipeline"] <= 512))
P
finish
