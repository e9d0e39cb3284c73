#!/bin/sh
# railyard optimize (LIBRA): the model and solver's unit test, known optima
# through the command line, every constraint held, never worse than the
# equal split, the same bytes on every run, ASTRA-sim workload files, the
# plot, and bad input with its file:line:col.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/libra"
EX="$TOP_SRCDIR/examples"

# ---- the unit test: collectives, folded terms, known optima, grids, files
"$TOP_BUILDDIR/tests/unit/libra_test" "$D" >"$TMP/unit" 2>"$TMP/unit.err"
rc=$?
tail -n 1 "$TMP/unit"
grep '^FAIL' "$TMP/unit" | head -20
expect_eq "libra_test exit" "$rc" 0
no_sanitizer "$TMP/unit.err"

# json FILE EXPR: evaluate a Python expression on the JSON report as j
json() {
    "$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- the examples: both objectives, three formats, twice
for f in "$EX"/libra-*.yaml; do
    n=$(basename "$f" .yaml)
    for obj in time perf-per-cost; do
        out="$TMP/$n-$obj"
        "$RAILYARD" optimize "$f" --objective "$obj" --format json -o "$out.json" 2>"$out.err"
        expect_eq "$n $obj: exit" $? 0
        no_sanitizer "$out.err"
        [ -s "$out.json" ] || { fail "$n $obj: no report"; continue; }
        expect_eq "$n $obj: constraints hold to 1e-6" "$(json "$out.json" 'j["max_violation"] <= 1e-6')" True
        expect_eq "$n $obj: every constraint's slack >= -1e-6" \
            "$(json "$out.json" 'all(c["slack"] >= -1e-6 for c in j["constraints"])')" True
        if [ "$obj" = time ]; then
            expect_eq "$n: no slower than the equal split when it is feasible" \
                "$(json "$out.json" 'j["speedup"] >= 1 - 1e-12 or not j["baseline"]["feasible"]')" True
            expect_eq "$n: convex, so every start reaches the optimum" \
                "$(json "$out.json" 'j["solver"]["distinct_optima"] == 1 and j["solver"]["worst_gap"] < 2e-3')" True
        else
            expect_eq "$n: perf-per-cost no worse than the equal split when it is feasible" \
                "$(json "$out.json" 'j["perf_per_cost_gain"] >= 1 - 1e-12 or not j["baseline"]["feasible"]')" True
        fi
        expect_eq "$n $obj: bandwidths sum to the budget" "$(json "$out.json" '
(lambda c: abs(sum(j["optimum"]["bandwidth_gbytes_per_s"]) - float(c["text"].split("==")[1])) <= 1e-6)(
 [c for c in j["constraints"] if c["where"] == "libra.budget"][0])')" True
        "$RAILYARD" optimize "$f" --objective "$obj" --format json -o "$out.2.json" 2>/dev/null
        cmp -s "$out.json" "$out.2.json" && ok || fail "$n $obj: a second run differs"
    done
    "$RAILYARD" optimize "$f" >"$TMP/$n.txt" 2>&1 && ok || fail "$n: text report"
    grep -q '^speedup [0-9.]*x, perf-per-cost gain [0-9.]*x' "$TMP/$n.txt" && ok \
        || fail "$n: text report lacks the speedup line"
    "$RAILYARD" optimize "$f" --format csv >"$TMP/$n.csv" 2>&1 && ok || fail "$n: csv report"
    expect_eq "$n: csv rows (dimensions, total, header)" "$(wc -l <"$TMP/$n.csv" | tr -d ' ')" \
        "$(json "$TMP/$n-time.json" 'len(j["dimensions"]) + 2')"
    "$RAILYARD" validate "$f" >/dev/null 2>&1 && ok || fail "$n: validate"
done
expect_eq "gpt3-constrained: package fixed at 500" \
    "$(json "$TMP/libra-gpt3-constrained-time.json" 'abs(j["optimum"]["bandwidth_gbytes_per_s"][0] - 500) <= 1e-6')" True
expect_eq "gpt3-constrained: the equal split breaks package == 500" \
    "$(json "$TMP/libra-gpt3-constrained-time.json" 'j["baseline"]["feasible"]')" False

# ---- the workload from the LLM section: the layout and compute of
# railyard model (the full model's choice), one block per layer of a stage
"$RAILYARD" model "$EX/libra-llm.yaml" --format json >"$TMP/model.json" 2>/dev/null
expect_eq "llm: the layout of railyard model" "$(json "$TMP/libra-llm-time.json" 'j["layout"]')" \
    "$(json "$TMP/model.json" 'j["layout"]')"
expect_eq "llm: workload from the LLM section" "$(json "$TMP/libra-llm-time.json" "
(lambda o: j['workload']['source'] == 'workload gpt-3-175b: %d of 96 layers (one stage), tensor %d x pipeline %d x data %d'
 % (o['blocks_per_stage'], o['tensor'], o['pipeline'], o['data']) and j['workload']['layers'] == 1)(
 json.load(open('$TMP/model.json'))['optimum'])")" True
expect_eq "llm: the compute and bubble of railyard model" "$(json "$TMP/libra-llm-time.json" "
(lambda m: abs(j['workload']['compute_s'] - m['optimum']['compute_s'] - m['optimum']['bubble_s'])
 <= 1e-9 * m['optimum']['compute_s'])(json.load(open('$TMP/model.json')))")" True
expect_eq "llm: the cluster's two dimensions" \
    "$(json "$TMP/libra-llm-time.json" '[(d["name"], d["size"]) for d in j["dimensions"]]')" "[('hb', 8), ('scale_out', 128)]"

spec() {    # spec NAME BODY: a spec with a 4,096-GPU cluster
    printf 'name: %s\ncluster: {gpus: %s, hb_domain: 8, gpus_per_node: 8}\n%s\n' "$1" "${GPUS:-512}" "$2" >"$TMP/$1.yaml"
}
NET3='network:
  dims:
    - {name: a, block: ring, size: 4, link: 2}
    - {name: b, block: fully-connected, size: 8, link: 4}
    - {name: c, block: switch, size: 16, link: 7.8, switch: 18, nic: 31.6}'

# ---- one all-reduce over three dimensions: bw_i proportional to m_i
spec prop "$NET3
libra:
  budget: 900
  layers:
    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}"
"$RAILYARD" optimize "$TMP/prop.yaml" --format json -o "$TMP/prop.json" 2>"$TMP/prop.err"
expect_eq "prop: exit" $? 0
# m = 2S(c-1)/c ascending: 1.5 S, 2 (S/4)(7/8), 2 (S/32)(15/16)
expect_eq "prop: bw proportional to bytes per dimension" "$(json "$TMP/prop.json" '
(lambda m, bw: all(abs(bw[i] - 900 * m[i] / sum(m)) <= 1e-5 for i in range(3)))(
 [1.5, 2 * 0.25 * 7 / 8, 2 / 32 * 15 / 16], j["optimum"]["bandwidth_gbytes_per_s"])')" True
expect_eq "prop: every dimension busy for the same time" "$(json "$TMP/prop.json" '
max(d["busy_s"] for d in j["dimensions"]) - min(d["busy_s"] for d in j["dimensions"]) <= 1e-9')" True

# ---- a fixed dimension and an ordering that binds
spec fixed "$NET3
libra:
  budget: 900
  constraints: [\"a == 100\", \"b <= c\"]
  layers:
    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}"
"$RAILYARD" optimize "$TMP/fixed.yaml" --format json -o "$TMP/fixed.json" 2>"$TMP/fixed.err"
expect_eq "fixed: exit" $? 0
expect_eq "fixed: a == 100 and b == c (the ordering binds)" "$(json "$TMP/fixed.json" '
(lambda bw: abs(bw[0] - 100) <= 1e-6 and abs(bw[1] - bw[2]) <= 1e-6 and abs(sum(bw) - 900) <= 1e-6)(j["optimum"]["bandwidth_gbytes_per_s"])')" True
expect_eq "fixed: the ordering is reported binding" \
    "$(json "$TMP/fixed.json" '[c["binding"] for c in j["constraints"]]')" "[True, True, True]"

# ---- a cost budget alone (the baseline: equal bandwidth at that cost) and a
# chain of bounds
spec cost "$NET3
libra:
  cost_budget: 2e7
  constraints: [\"10 <= c <= 20\"]
  layers:
    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}"
"$RAILYARD" optimize "$TMP/cost.yaml" --format json -o "$TMP/cost.json" 2>"$TMP/e"
expect_eq "cost budget: exit" $? 0
expect_eq "cost budget: the cost is at most 2e7 and 10 <= c <= 20" "$(json "$TMP/cost.json" '
j["optimum"]["libra_cost_usd"] <= 2e7 * (1 + 1e-9) and 10 - 1e-6 <= j["optimum"]["bandwidth_gbytes_per_s"][2] <= 20 + 1e-6')" True
expect_eq "cost budget: the baseline is equal bandwidth at the budget" "$(json "$TMP/cost.json" '
(lambda b: max(b) - min(b) <= 1e-9 * max(b) and abs(j["baseline"]["libra_cost_usd"] - 2e7) <= 1e-3)(j["baseline"]["bandwidth_gbytes_per_s"])')" True
expect_eq "cost budget: kinds" "$(json "$TMP/cost.json" '[c["kind"] for c in j["constraints"]]')" "['cost', 'bound', 'bound']"

# ---- infeasible and unbounded problems: clear errors naming the constraints
spec infeasible "$NET3
libra:
  budget: 400
  constraints:
    - \"a == 500\"
    - \"b >= c + 10\"
    - \"c >= b\"
  layers:
    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}"
"$RAILYARD" optimize "$TMP/infeasible.yaml" >"$TMP/out" 2>"$TMP/e"
expect_eq "infeasible: exit" $? 1
[ ! -s "$TMP/out" ] && ok || fail "infeasible: printed a result"
grep -q "infeasible.yaml:[0-9]*:[0-9]*: error: infeasible constraints" "$TMP/e" && ok \
    || fail "infeasible: message: $(cat "$TMP/e")"
grep -q "note: libra.budget: sum == 400" "$TMP/e" && grep -q "note: libra.constraints\[0\]: a == 500" "$TMP/e" \
    && ok || fail "infeasible: budget and fixed value named: $(cat "$TMP/e")"
grep -q "note: libra.constraints\[1\]: b >= c + 10" "$TMP/e" && grep -q "note: libra.constraints\[2\]: c >= b" "$TMP/e" \
    && ok || fail "infeasible: contradictory orderings named: $(cat "$TMP/e")"
no_sanitizer "$TMP/e"

spec unbounded "$NET3
libra:
  baseline: [100, 100, 100]
  constraints: [\"a <= 300\"]
  layers:
    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}"
"$RAILYARD" optimize "$TMP/unbounded.yaml" >/dev/null 2>"$TMP/e"
expect_eq "unbounded: exit" $? 1
grep -q "dimension 'b' has no upper limit" "$TMP/e" && ok || fail "unbounded: $(cat "$TMP/e")"

spec ppc-le "$NET3
libra:
  budget: \"<= 900\"
  objective: perf-per-cost
  layers:
    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}"
"$RAILYARD" optimize "$TMP/ppc-le.yaml" >/dev/null 2>"$TMP/e"
expect_eq "perf-per-cost under '<=' alone: exit" $? 1
grep -q "perf-per-cost has no optimum here" "$TMP/e" && ok || fail "ppc <=: $(cat "$TMP/e")"
"$RAILYARD" optimize "$TMP/ppc-le.yaml" --objective time >/dev/null 2>"$TMP/e"
expect_eq "time under '<= 900': exit" $? 0

# ---- bad specs: every error at its file:line:col
bad() {     # bad WHAT PATTERN BODY [EXIT]: exit 1 (bad input) unless told
    what=$1 pat=$2
    spec bad "$3"
    "$RAILYARD" optimize "$TMP/bad.yaml" >/dev/null 2>"$TMP/e"
    rc=$?
    [ "$rc" -eq "${4:-1}" ] && ok || fail "$what: exit $rc"
    grep -qE "$pat" "$TMP/e" && ok || fail "$what: got: $(head -3 "$TMP/e")"
    no_sanitizer "$TMP/e"
}
LAYER='  layers:
    - {name: g, weight_grad: {compute: 10ms, collective: all-reduce, bytes: 4e9, groups: all}}'
bad "unknown dimension in a constraint" "bad.yaml:[0-9]+:23: error: libra.constraints\\[0\\]: unknown name 'bb' \\(did you mean 'b'\\?\\)" \
    "$NET3
libra:
  budget: 900
  constraints: [\"a >= bb\"]
$LAYER"
bad "strict comparison" "error: libra.constraints\\[0\\]: strict '<' has no optimum" "$NET3
libra:
  budget: 900
  constraints: [\"a < b\"]
$LAYER"
bad "chain both ways" "a chain must go one way" "$NET3
libra:
  budget: 900
  constraints: [\"100 <= a >= b\"]
$LAYER"
bad "unknown key in a dimension" "bad.yaml:6:41: error: unknown key 'sise' in network.dims\\[1\\]" \
    "network:
  dims:
    - {name: a, block: ring, size: 4, link: 2}
    - {name: b, block: fully-connected, sise: 8, link: 4}
    - {name: c, block: switch, size: 16, link: 7.8}
libra:
  budget: 900
$LAYER"
bad "bad block" "network.dims\\[0\\].block must be .*did you mean 'ring'" "network:
  dims:
    - {name: a, block: rng, size: 512, link: 2}
libra:
  budget: 900
$LAYER"
bad "switch price on a ring" "network.dims\\[0\\].switch: switch and NIC prices apply to switch blocks only" \
    "network:
  dims:
    - {name: a, block: ring, size: 512, link: 2, switch: 3}
libra:
  budget: 900
$LAYER"
bad "unknown technology" "unknown technology 'pdo'; did you mean 'pod'" "network:
  dims:
    - {name: a, block: switch, size: 512, tech: pdo}
libra:
  budget: 900
$LAYER"
bad "NPUs against the cluster" "network has 256 NPUs \\(4 x 8 x 8\\) but the cluster has 512 GPUs" \
    "network:
  dims:
    - {name: a, block: ring, size: 4, link: 2}
    - {name: b, block: ring, size: 8, link: 2}
    - {name: c, block: ring, size: 8, link: 2}
libra:
  budget: 900
$LAYER"
bad "group not dividing the size" "groups\\[1\\]: a group of 3 NPUs on dimension 'b' of size 8" "$NET3
libra:
  budget: 900
  layers:
    - {name: g, forward: {collective: all-reduce, bytes: 1e9, groups: [4, 3, 1]}}"
bad "collective without groups" "no group sizes for this collective" "$NET3
libra:
  budget: 900
  layers:
    - {name: g, forward: {collective: all-reduce, bytes: 1e9}}"
bad "bytes without collective" "bytes without a collective" "$NET3
libra:
  budget: 900
  layers:
    - {name: g, forward: {bytes: 1e9}}"
bad "bad time" "libra.layers\\[0\\].forward.compute must be a time" "$NET3
libra:
  budget: 900
  layers:
    - {name: g, forward: {compute: 3 fortnights}}"
bad "no workload" "libra needs a workload" "$NET3
libra:
  budget: 900"
bad "no baseline" "libra needs a baseline" "$NET3
libra:
  constraints: [\"a <= 100\"]
$LAYER"
bad "tensor_parallel not fitting" "libra.tensor_parallel: a tensor-parallel group of 3 NPUs" "$NET3
libra:
  budget: 900
  tensor_parallel: 3
$LAYER"
bad "missing workload file" "nonexistent.txt:1:1: error: cannot read workload file" "$NET3
libra:
  budget: 900
  workload_file: nonexistent.txt" 3
bad "unknown libra key" "unknown key 'budegt' in libra; did you mean 'budget'" "$NET3
libra:
  budegt: 900
$LAYER"
# validate reports the same errors
"$RAILYARD" validate "$TMP/bad.yaml" >/dev/null 2>"$TMP/e"
expect_eq "validate: libra errors are input errors" $? 1
grep -q "budegt" "$TMP/e" && ok || fail "validate: $(cat "$TMP/e")"
# ... and those found when the problem is built from the spec
spec bad "$NET3
libra:
  constraints: [\"a <= 100\"]
$LAYER"
"$RAILYARD" validate "$TMP/bad.yaml" >/dev/null 2>"$TMP/e"
expect_eq "validate: no baseline: exit" $? 1
grep -q "bad.yaml:[0-9]*:1: error: libra needs a baseline" "$TMP/e" && ok || fail "validate: $(cat "$TMP/e")"
# an unknown technology with nothing close lists the catalog, as every catalog name
bad "unknown technology, no suggestion" "network.dims\\[0\\].tech: unknown technology 'optical' \\(the catalog has: chiplet, package, node, pod\\)" "network:
  dims:
    - {name: a, block: switch, size: 512, tech: optical}
libra:
  budget: 900
$LAYER"

# ---- ASTRA-sim workload files through the spec
GPUS=4096
NET4='network:
  dims:
    - {name: package, block: ring, size: 4, tech: chiplet}
    - {name: node, block: fully-connected, size: 8, tech: package}
    - {name: pod, block: ring, size: 4, tech: node}
    - {name: scale_out, block: switch, size: 32, tech: pod}'
cp "$D/transformer.txt" "$D/rows-only.txt" "$D/bad-collective.txt" "$TMP/"
spec astra "$NET4
libra:
  budget: 1000
  workload_file: transformer.txt"
"$RAILYARD" optimize "$TMP/astra.yaml" --format json -o "$TMP/astra.json" 2>"$TMP/e"
expect_eq "astra file: exit" $? 0
expect_eq "astra file: 4 layers" "$(json "$TMP/astra.json" 'j["workload"]["layers"]')" 4
expect_eq "astra file: source" "$(json "$TMP/astra.json" '"HYBRID_TRANSFORMER_FWD_IN_BCKWD" in j["workload"]["source"]')" True
# the same layers in YAML give the same answer
spec astra-yaml "$NET4
libra:
  budget: 1000
  tensor_parallel: 16
  time_unit: ns
  layers:
    - {name: attn_qkv, forward: {compute: 4100000}, input_grad: {compute: 4100000, collective: all-reduce, bytes: 402653184}, weight_grad: {compute: 4100000, collective: all-reduce, bytes: 113246208}}
    - {name: attn_out, forward: {compute: 1400000, collective: all-reduce, bytes: 402653184}, input_grad: {compute: 1400000}, weight_grad: {compute: 1400000, collective: all-reduce, bytes: 37748736}}
    - {name: mlp_up, forward: {compute: 5500000}, input_grad: {compute: 5500000, collective: reduce-scatter, bytes: 402653184}, weight_grad: {compute: 5500000, collective: all-reduce, bytes: 150994944}}
    - {name: mlp_down, forward: {compute: 5500000, collective: all-gather, bytes: 25165824}, input_grad: {compute: 5500000}, weight_grad: {compute: 5500000, collective: all-to-all, bytes: 150994944}}"
"$RAILYARD" optimize "$TMP/astra-yaml.yaml" --format json -o "$TMP/astra-yaml.json" 2>"$TMP/e"
expect_eq "astra as yaml: exit" $? 0
expect_eq "astra file and yaml layers agree" "$(json "$TMP/astra.json" "
(lambda k: abs(j['optimum']['time_s'] - k['optimum']['time_s']) <= 1e-12 * k['optimum']['time_s'] and
 all(abs(a - b) <= 1e-6 for a, b in zip(j['optimum']['bandwidth_gbytes_per_s'], k['optimum']['bandwidth_gbytes_per_s'])))(json.load(open('$TMP/astra-yaml.json')))")" True
# LIBRA's header-less rows with the spec's groups
spec rows "$NET4
libra:
  budget: 1000
  groups: {forward: [4, 4, -1, -1], input_grad: [4, 4, -1, -1], weight_grad: [-1, 2, 4, 32]}
  workload_file: rows-only.txt"
"$RAILYARD" optimize "$TMP/rows.yaml" --format json -o "$TMP/rows.json" 2>"$TMP/e"
expect_eq "rows-only file with groups: exit" $? 0
expect_eq "rows-only: 5 layers" "$(json "$TMP/rows.json" 'j["workload"]["layers"]')" 5
spec rows-bad "$NET4
libra:
  budget: 1000
  workload_file: rows-only.txt"
"$RAILYARD" optimize "$TMP/rows-bad.yaml" >/dev/null 2>"$TMP/e"
expect_eq "rows-only without groups: exit" $? 1
grep -q "rows-only.txt:1:1: error: this workload file has no parallelism line" "$TMP/e" && ok \
    || fail "rows-only without groups: $(cat "$TMP/e")"
spec astra-bad "$NET4
libra:
  budget: 1000
  workload_file: bad-collective.txt"
"$RAILYARD" optimize "$TMP/astra-bad.yaml" >/dev/null 2>"$TMP/e"
expect_eq "bad collective in a file: exit" $? 1
grep -q "bad-collective.txt:3:13: error: layer 'moe': unknown forward collective 'ALLTOALL_EP'" "$TMP/e" \
    && ok || fail "bad collective: $(cat "$TMP/e")"
# the spec and its workload file are read once: one warning about trailing text
{ cat "$TMP/transformer.txt"; echo "trailing words"; } >"$TMP/trailing.txt"
spec trailing "$NET4
libra:
  budget: 1000
  workload_file: trailing.txt"
for cmd in validate optimize; do
    "$RAILYARD" $cmd "$TMP/trailing.yaml" >/dev/null 2>"$TMP/e"
    expect_eq "trailing text, $cmd: exit" $? 0
    expect_eq "trailing text, $cmd: one warning" "$(grep -c 'text after the 4 layers' "$TMP/e")" 1
done

# ---- a network derived from the cluster: HB domain and scale-out
GPUS=1024
spec derived "libra:
  budget: 500
  tensor_parallel: 8
  layers:
    - {name: block, count: 96, forward: {compute: 5ms, collective: all-reduce, bytes: 300e6},
       input_grad: {compute: 5ms, collective: all-reduce, bytes: 300e6},
       weight_grad: {compute: 5ms, collective: all-reduce, bytes: 450e6}}"
"$RAILYARD" optimize "$TMP/derived.yaml" --format json -o "$TMP/derived.json" 2>"$TMP/e"
expect_eq "derived: exit" $? 0
expect_eq "derived: two switch dimensions, 8 x 128" \
    "$(json "$TMP/derived.json" '[(d["name"], d["block"], d["size"]) for d in j["dimensions"]]')" \
    "[('hb', 'switch', 8), ('scale_out', 'switch', 128)]"
expect_eq "derived: LIBRA's node and pod prices" \
    "$(json "$TMP/derived.json" '[round(d["unit_cost_usd_per_gbytes_per_s"], 6) for d in j["dimensions"]]')" "[17.0, 57.4]"

# ---- the plot: four files, deterministic, an image and well-formed SVG
if command -v gnuplot >/dev/null 2>&1; then
    "$RAILYARD" optimize "$TMP/derived.yaml" --plot "$TMP/plot1" >/dev/null 2>"$TMP/e"
    expect_eq "plot: exit" $? 0
    no_sanitizer "$TMP/e"
    "$RAILYARD" optimize "$TMP/derived.yaml" --plot "$TMP/plot2" >/dev/null 2>&1
    for f in libra-split.csv libra-split.gp libra-split.png libra-split.svg; do
        [ -s "$TMP/plot1/$f" ] && ok || fail "plot: $f missing"
        cmp -s "$TMP/plot1/$f" "$TMP/plot2/$f" && ok || fail "plot: $f differs between runs"
    done
    expect_eq "plot: PNG signature" "$(head -c 4 "$TMP/plot1/libra-split.png" | od -An -c | tr -d ' ')" '211PNG'
    expect_eq "plot: CSV rows" "$(wc -l <"$TMP/plot1/libra-split.csv" | tr -d ' ')" 200
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout "$TMP/plot1/libra-split.svg" 2>"$TMP/e" && ok || fail "plot: SVG: $(head -3 "$TMP/e")"
    fi
    expect_eq "plot: the curve's minimum is the optimum" "$("$PY" - "$TMP/plot1/libra-split.csv" "$TMP/derived.json" <<'P'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
j = json.load(open(sys.argv[2]))
print(min(float(r["time_s"]) for r in rows) >= j["optimum"]["time_s"] * (1 - 1e-12))
P
)" True
    RAILYARD_GNUPLOT=/nonexistent/gnuplot "$RAILYARD" optimize "$TMP/derived.yaml" --plot "$TMP/plot3" -o "$TMP/plot3.txt" >/dev/null 2>"$TMP/e"
    expect_eq "plot with a missing gnuplot: exit" $? 3
    [ ! -e "$TMP/plot3" ] && [ ! -e "$TMP/plot3.txt" ] && ok || fail "a failed plot left files"
    grep -q "cannot run /nonexistent/gnuplot: not found" "$TMP/e" && ok || fail "missing gnuplot: $(cat "$TMP/e")"
    # a gnuplot that reads the script and fails: its exit status and what it said
    printf '#!/bin/sh\ncat >/dev/null; echo "line 9: unknown terminal" >&2; exit 2\n' >"$TMP/badplot"
    chmod +x "$TMP/badplot"
    RAILYARD_GNUPLOT="$TMP/badplot" "$RAILYARD" optimize "$TMP/derived.yaml" --plot "$TMP/plot5" >/dev/null 2>"$TMP/e"
    expect_eq "plot with a gnuplot that fails: exit" $? 3
    [ ! -e "$TMP/plot5" ] && ok || fail "a failed plot left files"
    grep -q "badplot failed (exit status 2): line 9: unknown terminal" "$TMP/e" && ok || fail "failed gnuplot: $(cat "$TMP/e")"
    # one that exits 0 without an image
    printf '#!/bin/sh\ncat >/dev/null\n' >"$TMP/noplot"
    chmod +x "$TMP/noplot"
    RAILYARD_GNUPLOT="$TMP/noplot" "$RAILYARD" optimize "$TMP/derived.yaml" --plot "$TMP/plot6" >/dev/null 2>"$TMP/e"
    expect_eq "plot with a gnuplot that draws nothing: exit" $? 3
    grep -q "noplot wrote no image" "$TMP/e" && ok || fail "silent gnuplot: $(cat "$TMP/e")"
    RAILYARD_GNUPLOT=none "$RAILYARD" optimize "$TMP/derived.yaml" --plot "$TMP/plot4" >/dev/null 2>"$TMP/e"
    expect_eq "plot without gnuplot: exit" $? 0
    [ -s "$TMP/plot4/libra-split.csv" ] && [ -s "$TMP/plot4/libra-split.gp" ] && [ ! -e "$TMP/plot4/libra-split.png" ] \
        && ok || fail "plot without gnuplot: $(ls "$TMP/plot4" 2>&1)"
    grep -q "warning: no gnuplot" "$TMP/e" && ok || fail "plot without gnuplot: $(cat "$TMP/e")"
fi

# ---- usage errors
"$RAILYARD" optimize "$TMP/derived.yaml" --objective speed >/dev/null 2>"$TMP/e"
expect_eq "bad --objective: exit" $? 2
grep -q "time or perf-per-cost" "$TMP/e" && ok || fail "bad --objective: $(cat "$TMP/e")"
"$RAILYARD" optimize "$TMP/derived.yaml" --format xml >/dev/null 2>&1
expect_eq "bad --format: exit" $? 2
"$RAILYARD" optimize >/dev/null 2>&1
expect_eq "no spec: exit" $? 2
"$RAILYARD" optimize "$TMP/derived.yaml" --set libra.budget=700 --format json -o "$TMP/set.json" 2>/dev/null
expect_eq "--set libra.budget" "$(json "$TMP/set.json" 'abs(sum(j["optimum"]["bandwidth_gbytes_per_s"]) - 700) <= 1e-6')" True

# the examples' specs without a libra section are untouched by it
"$RAILYARD" optimize "$EX/superpod-4su.yaml" >/dev/null 2>"$TMP/e"
expect_eq "a spec without libra: exit" $? 1
grep -q "has no libra section" "$TMP/e" && ok || fail "no libra section: $(cat "$TMP/e")"
finish
