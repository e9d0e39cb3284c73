#!/bin/sh
# compare's designs view: each design's capex is bom's for that design, the
# switches per tier match the closed forms of a full Clos, the cheapest
# design named is the cheapest, the training figures are the model's and
# whatif's, JSON parses, CSV has a row per design, and a missing option is
# named. (The paper's Table 2 view, --paper, is tests/table2.sh.)
. "${TOP_SRCDIR:-.}/tests/lib.sh"

DESIGNS="rail-optimized rail-only fat-tree"
cat >"$TMP/h100.yaml" <<'Y'
version: 1
name: cmp-h100
cluster:
  gpus: 4096
  node: dgx-h100
fabric:
  switch: qm9700
workload:
  model: gpt-3-175b
Y

# jq-like: json FILE EXPR, with d the document
json() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

"$RAILYARD" compare "$TMP/h100.yaml" --format json >"$TMP/c.json" 2>"$TMP/c.err"
expect_eq "compare SPEC json: exit" $? 0
no_sanitizer "$TMP/c.err"
json "$TMP/c.json" 'len(d["designs"])' >"$TMP/n" 2>&1 && ok || fail "compare json does not parse: $(head -c 300 "$TMP/c.json")"
expect_eq "json: designs" "$(json "$TMP/c.json" '" ".join(x["design"] for x in d["designs"])')" "$DESIGNS"

# ---- capex: the number bom gives for that design --------------------------------------
i=0
for d in $DESIGNS; do
    "$RAILYARD" bom "$TMP/h100.yaml" --set fabric.design=$d --format json >"$TMP/bom.$d.json"
    want=$(json "$TMP/bom.$d.json" 'd["capex"]["total"]')
    got=$(json "$TMP/c.json" "d['designs'][$i]['capex']['total']")
    expect_eq "$d: compare capex = bom capex" "$got" "$want"
    want=$(json "$TMP/bom.$d.json" 'd["switches"]["total"] if isinstance(d["switches"], dict) else d["switches"]')
    expect_eq "$d: switches = bom's" "$(json "$TMP/c.json" "d['designs'][$i]['switches']['total']")" "$want"
    # training: the model's tokens/s for that design; the spine: whatif --fail spine0
    "$RAILYARD" model "$TMP/h100.yaml" --set fabric.design=$d --format json >"$TMP/m.$d.json"
    expect_eq "$d: tokens/s = model's" \
        "$(json "$TMP/c.json" "round(d['designs'][$i]['training']['tokens_per_s'], 3)")" \
        "$(json "$TMP/m.$d.json" 'round(d["tokens_per_s"], 3)')"
    "$RAILYARD" whatif "$TMP/h100.yaml" --set fabric.design=$d --fail spine0 --alone \
        --format json >"$TMP/w.$d.json"
    expect_eq "$d: spine slowdown = whatif's" \
        "$(json "$TMP/c.json" "round(d['designs'][$i]['spine_failure']['slowdown'], 9)")" \
        "$(json "$TMP/w.$d.json" 'round(d["training"]["slowdown"], 9)')"
    expect_eq "$d: tokens/s per \$1M" \
        "$(json "$TMP/c.json" "round(d['designs'][$i]['training']['tokens_per_s_per_musd'], 6)")" \
        "$(json "$TMP/c.json" "round(d['designs'][$i]['training']['tokens_per_s'] / (d['designs'][$i]['capex']['total'] / 1e6), 6)")"
    i=$((i + 1))
done

# ---- the cheapest and the fastest per dollar are the extremes -------------------------
expect_eq "json: cheapest is the min capex" "$(json "$TMP/c.json" 'd["cheapest"]')" \
    "$(json "$TMP/c.json" 'min(d["designs"], key=lambda x: x["capex"]["total"])["design"]')"
expect_eq "json: fastest per dollar is the max" "$(json "$TMP/c.json" 'd["fastest_per_dollar"]')" \
    "$(json "$TMP/c.json" 'max(d["designs"], key=lambda x: x["training"]["tokens_per_s_per_musd"])["design"]')"
"$RAILYARD" compare "$TMP/h100.yaml" >"$TMP/c.txt" 2>&1
expect_eq "text: exit" $? 0
cheap=$(json "$TMP/c.json" 'd["cheapest"]')
grep -q "^cheapest: $cheap, [$][0-9]" "$TMP/c.txt" && ok || fail "text does not name $cheap cheapest: $(tail -3 "$TMP/c.txt")"
grep -q "^fastest per dollar: $(json "$TMP/c.json" 'd["fastest_per_dollar"]'), " "$TMP/c.txt" && ok \
    || fail "text does not name the fastest per dollar: $(tail -3 "$TMP/c.txt")"
[ "$(wc -l <"$TMP/c.txt")" -le 40 ] && ok || fail "text is more than a screen: $(wc -l <"$TMP/c.txt") lines"

# ---- CSV: one row per design, the same capex ------------------------------------------
"$RAILYARD" compare "$TMP/h100.yaml" --format csv >"$TMP/c.csv" 2>&1
expect_eq "csv: exit" $? 0
got=$("$PY" - "$TMP/c.csv" "$TMP/c.json" <<'P'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
j = {x["design"]: x for x in json.load(open(sys.argv[2]))["designs"]}
print(len(rows), " ".join(r["design"] for r in rows),
      all(abs(float(r["capex"]) - j[r["design"]]["capex"]["total"]) < 0.005 for r in rows),
      all(int(r["switches"]) == j[r["design"]]["switches"]["total"] for r in rows))
P
)
expect_eq "csv: a row per design, capex and switches as json" "$got" "3 $DESIGNS True True"

# ---- a design that cannot be built: said, the others compared, CSV rows alike ---------
# tiers a spec forces hold for its own design only (as bom --set fabric.design=...)
F="--set fabric.design=rail-only --set fabric.tiers=1"
"$RAILYARD" bom "$TMP/h100.yaml" $F >/dev/null 2>"$TMP/f.bom.err"
expect_eq "bom of the unbuildable design: exit" $? 1
"$RAILYARD" compare "$TMP/h100.yaml" $F --format csv >"$TMP/f.csv" 2>&1
expect_eq "compare with one design unbuildable: exit" $? 0
got=$("$PY" - "$TMP/f.csv" <<'P2'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
print(len(rows), sorted(set(len(r) for r in rows)) == [len(rows[0])],
      [r[0] for r in rows[1:] if r[-1]], rows[2][-1].split(":")[0])
P2
)
expect_eq "csv: every row as wide as the header, the error in its row" "$got" \
    "4 True ['rail-only'] fabric.tiers"
"$RAILYARD" compare "$TMP/h100.yaml" $F --format json >"$TMP/f.json" 2>&1
expect_eq "json: the unbuildable design" \
    "$(json "$TMP/f.json" '[x["built"] for x in d["designs"]], d["cheapest"] != "rail-only"')" \
    "([True, False, True], True)"
"$RAILYARD" compare "$TMP/h100.yaml" $F >"$TMP/f.txt" 2>&1
grep -q "^rail-only: not built: fabric.tiers: " "$TMP/f.txt" && ok || fail "text: $(tail -5 "$TMP/f.txt")"

# ---- switches per tier against the closed forms of a full Clos ------------------------
# A non-blocking Clos of radix k over n endpoints has t tiers, the smallest t
# with k^t / 2^(t-1) >= n; tiers 1..t-1 hold ceil(2n/k) switches, the top
# ceil(n/k). Rail-optimized and fat tree: one Clos over N GPUs; rail-only:
# one per rail over N/R, and when N/R <= k, floor(k/(N/R)) rails share a switch.
clos() {    # clos N K: the switches per tier, space-separated
    n=$1 k=$2 t=1 cap=$2
    while [ "$cap" -lt "$n" ]; do t=$((t + 1)); cap=$((cap * k / 2)); done
    out=""
    j=1
    while [ $j -le $t ]; do
        if [ $j -lt $t ]; then s=$(((2 * n + k - 1) / k)); else s=$(((n + k - 1) / k)); fi
        out="$out${out:+ }$s"
        j=$((j + 1))
    done
    echo "$out"
}
railonly() {    # railonly N R K
    n=$(($1 / $2))
    if [ $n -le $3 ]; then per=$(($3 / n)); echo $((($2 + per - 1) / per)); return; fi
    out=""
    for s in $(clos $n $3); do out="$out${out:+ }$(($2 * s))"; done
    echo "$out"
}
for N in 256 4096 32768; do
    "$RAILYARD" compare --gpus $N --node dgx-h100 --switch qm9700 --format json \
        >"$TMP/g$N.json" 2>"$TMP/g$N.err"
    expect_eq "compare --gpus $N: exit" $? 0
    no_sanitizer "$TMP/g$N.err"
    tiers() { json "$TMP/g$N.json" "' '.join(str(t['switches']) for t in d['designs'][$1]['switches']['per_tier'])"; }
    expect_eq "N=$N rail-optimized switches per tier" "$(tiers 0)" "$(clos $N 64)"
    expect_eq "N=$N rail-only switches per tier" "$(tiers 1)" "$(railonly $N 8 64)"
    expect_eq "N=$N fat-tree switches per tier" "$(tiers 2)" "$(clos $N 64)"
    expect_eq "N=$N cheapest is the min capex" "$(json "$TMP/g$N.json" 'd["cheapest"]')" \
        "$(json "$TMP/g$N.json" 'min(d["designs"], key=lambda x: x["capex"]["total"])["design"]')"
    expect_eq "N=$N no workload: no fastest per dollar" \
        "$(json "$TMP/g$N.json" 'd["fastest_per_dollar"]')" "None"
done
# --radix replaces the switch model's: radix 32 needs three tiers at 4096
"$RAILYARD" compare --gpus 4096 --node dgx-h100 --switch qm9700 --radix 32 --format json \
    >"$TMP/r32.json" 2>&1
expect_eq "--radix 32: rail-optimized per tier" \
    "$(json "$TMP/r32.json" "' '.join(str(t['switches']) for t in d['designs'][0]['switches']['per_tier'])")" \
    "$(clos 4096 32)"
# --model: the catalog LLM, as the spec's workload section gives it
"$RAILYARD" compare --gpus 4096 --node dgx-h100 --switch qm9700 --model gpt-3-175b --format json \
    >"$TMP/gm.json" 2>&1
expect_eq "--model: tokens/s as the spec's workload" \
    "$(json "$TMP/gm.json" "[round(x['training']['tokens_per_s'], 3) for x in d['designs']]")" \
    "$(json "$TMP/c.json" "[round(x['training']['tokens_per_s'], 3) for x in d['designs']]")"

# ---- usage: the missing option is named -----------------------------------------------
usage() {   # usage WHAT WANT ARGS...: exit 2, WANT in the message
    what=$1 want=$2
    shift 2
    "$RAILYARD" compare "$@" >"$TMP/u.out" 2>"$TMP/u.err"
    expect_eq "$what: exit" $? 2
    grep -qF -- "$want" "$TMP/u.err" && ok || fail "$what: '$want' not in: $(cat "$TMP/u.err")"
    [ -s "$TMP/u.out" ] && fail "$what: wrote to stdout" || ok
}
usage "--gpus alone" "needs --node MODEL and --switch MODEL" --gpus 1024
usage "--gpus --node" "needs --switch MODEL" --gpus 1024 --node dgx-h100
usage "--gpus --switch" "needs --node MODEL" --gpus 1024 --switch qm9700
usage "--paper without --radix" "missing --radix" --paper --gpus 1024 --hb-domain 8
usage "--paper without --hb-domain" "missing --hb-domain K" --paper --gpus 1024 --radix 64
usage "radix list without --paper" "--paper" "$TMP/h100.yaml" --radix 32,64
usage "--node with --paper" "--node is for the designs view" --paper --gpus 1024 --node dgx-h100
# an unknown model is the catalog's error, at the option
"$RAILYARD" compare --gpus 1024 --node dgx-h1000 --switch qm9700 >/dev/null 2>"$TMP/u.err"
expect_eq "unknown node: exit" $? 1
grep -q -- "--node.*dgx-h100" "$TMP/u.err" && ok || fail "unknown node: $(cat "$TMP/u.err")"

# ---- the same speed: the designs the model cannot tell apart --------------------------------
# same_speed lists the modeled designs within the resolution of the fastest
# (two or more), computed here from the designs' own iteration times; on
# an Ethernet fabric with plain ECMP at 4,096 GPUs the hashed collisions
# set the designs apart, and the text names the same-speed ones.
same_check() {     # same_check NAME SPEC ARGS...
    name=$1
    shift
    "$RAILYARD" compare "$@" --format json >"$TMP/ss-$name.json" 2>"$TMP/ss-$name.err"
    expect_eq "compare $name: exit" $? 0
    "$PY" - "$TMP/ss-$name.json" <<'PY' && ok || fail "compare $name: same_speed is not the designs within the resolution"
import json, sys
j = json.load(open(sys.argv[1]))
d = [x for x in j["designs"] if "training" in x]
fast = min(x["training"]["iteration_s"] for x in d)
want = [x["design"] for x in d if x["training"]["iteration_s"] <= fast * (1 + j["resolution"])]
want = want if len(want) > 1 else []
print(j["same_speed"], want)
sys.exit(0 if j["same_speed"] == want and j["resolution"] == 0.01 else 1)
PY
}
same_check h100 "$TOP_SRCDIR/examples/search-h100.yaml"
"$RAILYARD" compare "$TOP_SRCDIR/examples/search-h100.yaml" >"$TMP/ss.txt" 2>&1
grep -q '^same speed: rail-optimized, rail-only and fat-tree train within 1% of each other' "$TMP/ss.txt" &&
    ok || fail "the text does not name the same-speed designs: $(grep -i speed "$TMP/ss.txt")"
same_check roce "$TOP_SRCDIR/examples/llama3-roce.yaml" --set cluster.gpus=4096 \
    --set workload.model=llama-3-70b --set workload.gpu=h100 --set network.qps_per_connection=1
finish
