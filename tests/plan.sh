#!/bin/sh
# The full model (model/plan.h, doc/llm-model.md "The full model"): the
# unit test (eq. 1 as its one-stage case on every model test's spec, the
# bubble, point-to-point and memory terms by hand, the search against a
# brute force), then the commands: memory per GPU computed here by hand for
# three models and layouts, the pipeline terms by hand, Llama 3 405B on
# 2,048 H100 never at a tensor size whose weights cannot fit, the 100k-GPU
# case answered with pipeline stages, precision, efficiency and the MFU flag,
# and the advice when nothing fits.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/model"

"$TOP_BUILDDIR/tests/unit/plan_test" "$TOP_SRCDIR/templates" "$D/gpt3-gh200.yaml" \
    "$D/opt-gh200.yaml" "$D/palm-gh200.yaml" "$D/small.yaml" >"$TMP/unit" 2>&1
expect_eq "plan_test exit" $? 0
cat "$TMP/unit" | grep -v '^FAIL' | sed 's|^.*/||'
grep '^FAIL' "$TMP/unit" | head -20
no_sanitizer "$TMP/unit"

# json FILE EXPR: a Python expression of the JSON document j.
json() {
    "$PY" -c "import json, sys; j = json.load(open(sys.argv[1])); print($2)" "$1"
}

# ---- memory by hand: three models, three layouts --------------------------------
# mem NAME SPEC SETS... : the model's JSON with the layout the sets fix
mem() {
    n=$1 spec=$2
    shift 2
    sets=""
    for a in "$@"; do sets="$sets --set $a"; done
    # shellcheck disable=SC2086
    "$RAILYARD" model "$spec" --format json $sets >"$TMP/$n.json" 2>"$TMP/$n.err"
    expect_eq "$n: exit" $? 0
    no_sanitizer "$TMP/$n.err"
}
mem gpt3 "$D/gpt3-h100.yaml" workload.parallelism.tensor=8 workload.parallelism.pipeline=8 \
    workload.recompute=selective
mem llama "$D/llama-h100.yaml" workload.parallelism.tensor=8 workload.parallelism.pipeline=16 \
    workload.recompute=full workload.gradient_precision=fp32 workload.parallelism.zero=2
mem small "$D/small.yaml" workload.parallelism.tensor=2 workload.parallelism.pipeline=1 \
    workload.recompute=none workload.parallelism.zero=0
"$PY" - "$TMP/gpt3.json" "$TMP/llama.json" "$TMP/small.json" >"$TMP/chk" <<'P'
import json, math, sys
# name: parameters, blocks, h, heads, s, V, batch, GPUs, t, p, zero, gradient bytes, recompute
cases = [
    ("gpt3", 175e9, 96, 12288, 96, 2048, 50257, 1536, 1024, 8, 8, 1, 2, "selective"),
    ("llama", 405e9, 126, 16384, 128, 8192, 128256, 2048, 2048, 8, 16, 2, 4, "full"),
    ("small", 1.3e9, 24, 2048, 16, 1024, 50000, 512, 512, 2, 1, 0, 2, "none"),
]
bad = []
for path, (n, P, L, h, a, s, V, B, N, t, p, zero, gb, rc) in zip(sys.argv[1:], cases):
    j = json.load(open(path))
    o, m = j["optimum"], j["memory"]
    d = N // (t * p)
    blocks = -(-L // p)
    seqs = -(-B // d)
    inflight = min(p, seqs)             # 1F1B: the first stage holds p micro-batches of 1
    emb = V * h                         # the first stage: its blocks and the embedding
    phi = ((P - emb) / L * blocks + emb) / t
    w = 2 * phi / (d if zero >= 3 else 1)
    g = gb * phi / (d if zero >= 2 else 1)
    opt = 12 * phi / (d if zero >= 1 else 1)
    sbh = s * 1 * h
    if rc == "none":                    # Korthikanti et al. 2022, sequence parallel
        act = inflight * blocks * sbh * (34 + 5 * a * s / h) / t
    elif rc == "selective":
        act = inflight * blocks * sbh * 34 / t
    else:
        act = inflight * blocks * 2 * sbh / t + sbh * 34 / t
    want = w + g + opt + act
    got = m["per_gpu_bytes"]
    print("%-5s TP %d x PP %d x DP %d, %s: %.2f GB per GPU (by hand %.2f GB) of %.0f GB"
          % (n, o["tensor"], o["pipeline"], o["data"], rc, got / 1e9, want / 1e9,
             m["capacity_bytes"] / 1e9))
    if (o["tensor"], o["pipeline"], o["data"]) != (t, p, d):
        bad.append("%s: layout %s" % (n, o))
    for k, v in (("weights_bytes", w), ("gradients_bytes", g), ("optimizer_bytes", opt),
                 ("activations_bytes", act), ("per_gpu_bytes", want)):
        if abs(m[k] - v) > 1e-9 * v:
            bad.append("%s: %s %g, by hand %g" % (n, k, m[k], v))
    if m["feasible"] != (want <= m["capacity_bytes"]) or m["recompute"] != rc:
        bad.append("%s: feasible %s recompute %s" % (n, m["feasible"], m["recompute"]))
print("\n".join(bad) if bad else "ok")
P
sed '$d' "$TMP/chk"
expect_eq "memory by hand" "$(tail -n 1 "$TMP/chk")" ok

# ---- the pipeline terms by hand (GPT-3: 8 stages, 96 micro-batches) -----------------
"$PY" - "$TMP/gpt3.json" >"$TMP/chk" <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
o, c = j["optimum"], j["constants"]
P, L, h, s, B, N = 175e9, 96, 12288, 2048, 1536, 1024
t, p, d = 8, 8, 16
m = B // d                              # micro-batches of one sequence per replica
C = 989e12 * 0.43                       # H100 dense, the default efficiency
F = 6 * P * B * s + 4 * B * s * s * h * L    # 6NT + selective recomputation's attention
compute = F * (B / d / B) * (12 / L) / (t * C)
BF, BS = 7.2e12 / 8, 400e9 / 8
tp = 12 * 8 * 2 * (m * s) * h * (t - 1) / t / BF
bubble = (p - 1) / m * (compute + tp)
# a middle stage: m activations forward, m gradients back, s h x 2 bytes / t each,
# across HB domains (a stage fills 16 domains) on one rail: B_S
pp = 2 * m * s * h * 2 / t / BS
g = 12 * 12 * h * h * 2 / t             # 12 blocks' gradients, 1/t of them, bf16
dpx = 2 * g * (d - 1) / d / BS          # t = K: all 16 replicas across domains
bad = []
for k, want in (("compute_s", compute), ("tp_s", tp), ("bubble_s", bubble), ("pp_s", pp),
                ("dp_cross_s", dpx), ("dp_in_s", 0.0)):
    if abs(o[k] - want) > 1e-9 * max(want, 1e-30):
        bad.append("%s %g, by hand %g" % (k, o[k], want))
tot = compute + bubble + tp + pp + dpx
if abs(o["total_s"] - tot) > 1e-9 * tot:
    bad.append("total %g, by hand %g" % (o["total_s"], tot))
if not o["p2p_cross_domain"] or o["dp_in"] != 1 or o["dp_cross"] != 16:
    bad.append("layout %s" % o)
print("\n".join(bad) if bad else "ok")
P
expect_eq "pipeline terms by hand" "$(cat "$TMP/chk")" ok

# ---- Llama 3 405B on 2,048 DGX H100 ----------------------------------------------------
"$RAILYARD" model "$D/llama-h100.yaml" --format json >"$TMP/l.json" 2>"$TMP/l.err"
expect_eq "llama 2048: exit" $? 0
"$RAILYARD" model "$D/llama-h100.yaml" --paper --format json >"$TMP/lp.json" 2>>"$TMP/l.err"
expect_eq "llama 2048 --paper: exit" $? 0
"$RAILYARD" model "$D/llama-h100.yaml" >"$TMP/l.txt" 2>>"$TMP/l.err"
no_sanitizer "$TMP/l.err"
json "$TMP/l.json" '"llama 2048: TP %d x PP %d x DP %d, %.1f GB of %.0f GB, T_iter %.2f s, MFU %.1f%%" % (j["optimum"]["tensor"], j["optimum"]["pipeline"], j["optimum"]["data"], j["memory"]["per_gpu_bytes"] / 1e9, j["memory"]["capacity_bytes"] / 1e9, j["optimum"]["total_s"], 100 * j["mfu"])'
json "$TMP/lp.json" '"llama 2048 --paper: TP %d, %.1f GB per GPU: feasible %s, MFU %.1f%% (above published: %s)" % (j["optimum"]["tensor"], j["memory"]["per_gpu_bytes"] / 1e9, j["memory"]["feasible"], 100 * j["mfu"], j["mfu_above_published"])'
# The weights alone: 405e9 x 2 bytes / t; t = 2 would be 405 GB on an 80 GB GPU.
expect_eq "llama 2048: the layout fits" "$(json "$TMP/l.json" 'j["memory"]["feasible"] and j["memory"]["per_gpu_bytes"] <= 80e9 and 405e9 * 2 / (j["optimum"]["tensor"] * j["optimum"]["pipeline"]) <= 80e9')" True
expect_eq "llama 2048: never TP 2" "$(json "$TMP/l.json" 'j["optimum"]["tensor"] != 2')" True
expect_eq "llama 2048: below the published MFU" "$(json "$TMP/l.json" 'j["mfu"] <= 0.552 and not j["mfu_above_published"]')" True
# --paper keeps eq. 1's choice (TP 2 at 80% MFU) and says it cannot fit
expect_eq "llama 2048 --paper: eq. 1's TP 2, reported not to fit, MFU flagged" \
    "$(json "$TMP/lp.json" '(j["optimum"]["tensor"], j["memory"]["feasible"], j["mfu_above_published"])')" "(2, False, True)"
grep -q "does NOT fit" "$TMP/l.txt" && fail "llama 2048: the chosen layout is said not to fit" || ok
"$RAILYARD" model "$D/llama-h100.yaml" --paper 2>&1 | grep -q "warning: MFU 80.0% is above" && ok \
    || fail "llama 2048 --paper: no MFU warning in the text"
# TP 2 without pipeline stages: refused for memory, with what would fit
"$RAILYARD" model "$D/llama-h100.yaml" --set workload.parallelism.tensor=2 \
    --set workload.parallelism.pipeline=1 >"$TMP/o" 2>"$TMP/e"
expect_eq "llama TP 2 PP 1: exit" $? 1
grep -qE "^$D/llama-h100.yaml:[0-9]+:[0-9]+: error: no layout of llama-3-405b fits the h100's 80.0 GB: .*what would fit: " "$TMP/e" \
    && ok || fail "llama TP 2 PP 1: $(cat "$TMP/e")"
[ -s "$TMP/o" ] && fail "llama TP 2 PP 1: wrote output" || ok

# ---- 100,000 GPUs with the published batch: pipeline stages give an answer ----------
"$RAILYARD" model "$D/llama-100k.yaml" --format json >"$TMP/k.json" 2>"$TMP/k.err"
expect_eq "llama 100k: exit" $? 0
no_sanitizer "$TMP/k.err"
json "$TMP/k.json" '"llama 100k: TP %d x PP %d x DP %d, %d sequences on the busiest replica, %.1f GB, T_iter %.2f s, MFU %.1f%%" % (j["optimum"]["tensor"], j["optimum"]["pipeline"], j["optimum"]["data"], -(-2048 // j["optimum"]["data"]), j["memory"]["per_gpu_bytes"] / 1e9, j["optimum"]["total_s"], 100 * j["mfu"])'
expect_eq "llama 100k: pipeline stages, every replica a sequence, fits" \
    "$(json "$TMP/k.json" 'j["optimum"]["pipeline"] > 1 and j["optimum"]["data"] <= 2048 and j["optimum"]["tensor"] * j["optimum"]["pipeline"] * j["optimum"]["data"] == 100000 and j["memory"]["feasible"]')" True
# the bubble share, from the JSON terms, and the note the text gives above 25%
"$RAILYARD" model "$D/llama-100k.yaml" >"$TMP/k.txt" 2>>"$TMP/k.err"
share=$(json "$TMP/k.json" '"%.0f" % (100 * j["optimum"]["bubble_s"] / j["optimum"]["total_s"])')
if [ "$share" -gt 25 ]; then
    grep -q "note: the pipeline bubble is $share% of the iteration" "$TMP/k.txt" && ok \
        || fail "llama 100k: no bubble note for $share%"
else
    grep -q "note: the pipeline bubble" "$TMP/k.txt" && fail "llama 100k: a bubble note at $share%" || ok
fi
"$RAILYARD" model --paper "$D/llama-100k.yaml" >/dev/null 2>"$TMP/e"
expect_eq "llama 100k --paper: refused as before" $? 1
grep -q "smaller than the 12500 HB domains" "$TMP/e" && ok || fail "llama 100k --paper: $(cat "$TMP/e")"

# ---- precision: FP8 compute, gradients reduced in their own precision ----------------
"$RAILYARD" model "$D/gpt3-h100.yaml" --format json --set workload.precision=fp8 \
    --set workload.parallelism.tensor=8 --set workload.parallelism.pipeline=8 \
    --set workload.recompute=selective >"$TMP/f8.json"
expect_eq "fp8: exit" $? 0
"$RAILYARD" model "$D/gpt3-h100.yaml" --format json --set workload.precision=fp8 \
    --set workload.gradient_precision=fp32 --set workload.parallelism.tensor=8 \
    --set workload.parallelism.pipeline=8 --set workload.recompute=selective >"$TMP/f32.json"
"$PY" - "$TMP/gpt3.json" "$TMP/f8.json" "$TMP/f32.json" >"$TMP/chk" <<'P'
import json, sys
b, f8, f32 = (json.load(open(p)) for p in sys.argv[1:])
bad = []
# FP8: the GPU's FP8 rate (1979 TFLOP/s dense on H100), compute time halved
if abs(f8["constants"]["C"] - 1979e12 * 0.43) > 1: bad.append("fp8 C %g" % f8["constants"]["C"])
if abs(f8["optimum"]["compute_s"] * 1979 - b["optimum"]["compute_s"] * 989) > 1e-9 * b["optimum"]["compute_s"] * 989:
    bad.append("fp8 compute")
# gradients: bf16 by default whatever the compute precision; fp32 doubles them
if abs(f8["optimum"]["dp_cross_s"] - b["optimum"]["dp_cross_s"]) > 1e-12: bad.append("fp8 halved the gradient bytes")
if abs(f32["optimum"]["dp_cross_s"] - 2 * b["optimum"]["dp_cross_s"]) > 1e-12: bad.append("fp32 gradients")
if abs(f32["memory"]["gradients_bytes"] - 2 * b["memory"]["gradients_bytes"]) > 1: bad.append("fp32 gradient memory")
# activations sent between stages and tensor-parallel bytes follow the compute precision
if abs(f8["optimum"]["pp_s"] * 2 - b["optimum"]["pp_s"]) > 1e-12: bad.append("fp8 point-to-point")
print("\n".join(bad) if bad else "ok")
P
expect_eq "precision" "$(cat "$TMP/chk")" ok

# The gradients' word is that of the bytes the model counts: an fp16 run's
# 16-bit reduction is fp16 (once "bf16" whatever the compute); eq. 1 counts
# them in the compute precision.
# grads NAME WORD BYTES ARGS...: the precision line and the memory line
grads() {
    n=$1 word=$2 bytes=$3
    shift 3
    "$RAILYARD" model "$D/gpt3-h100.yaml" "$@" >"$TMP/g.txt" 2>&1
    got=$(sed -n -e 's/.*gradients reduced in \([a-z0-9]*\) (\([0-9]*\) bytes).*/\1 \2/p' \
        -e 's/^  precision   \([a-z0-9]*\), \([0-9]*\) bytes per element (gradients.*/\1 \2/p' "$TMP/g.txt")
    expect_eq "$n: gradients reduced in" "$got" "$word $bytes"
    got=$(sed -n 's/^  gradients (\([a-z0-9]*\)) .*/\1/p' "$TMP/g.txt")
    expect_eq "$n: memory line" "$got" "$word"
}
grads "fp16" fp16 2
grads "bf16" bf16 2 --set workload.precision=bf16
grads "fp16, fp32 gradients" fp32 4 --set workload.gradient_precision=fp32
grads "fp8" bf16 2 --set workload.precision=fp8
grads "fp8 --paper" fp8 1 --paper --set workload.precision=fp8

# One pipeline stage has no point-to-point: no line in the text; the JSON's
# term is 0 and crosses no domain. Two stages have the line.
"$RAILYARD" model "$D/small.yaml" --set workload.parallelism.pipeline=1 >"$TMP/p1.txt" 2>&1
"$RAILYARD" model "$D/small.yaml" --set workload.parallelism.pipeline=1 --format json >"$TMP/p1.json"
expect_eq "one stage: JSON" "$(json "$TMP/p1.json" '(j["optimum"]["pipeline"], j["optimum"]["pp_s"], j["optimum"]["p2p_cross_domain"])')" \
    "(1, 0.0, False)"
grep -q "pipeline point-to-point" "$TMP/p1.txt" && fail "one stage: a point-to-point line" || ok
grep -q "^  iteration time" "$TMP/p1.txt" && ok || fail "one stage: $(cat "$TMP/p1.txt")"
"$RAILYARD" model "$D/small.yaml" --set workload.parallelism.pipeline=2 >"$TMP/p2.txt" 2>&1
grep -q "^  pipeline point-to-point (network) " "$TMP/p2.txt" && ok \
    || fail "two stages: no point-to-point line: $(cat "$TMP/p2.txt")"

# ---- efficiency: the default, the input, the MFU flag --------------------------------
"$RAILYARD" model "$D/small.yaml" --format json --set workload.compute_efficiency=1 >"$TMP/e1.json"
expect_eq "efficiency input and the MFU flag" "$(json "$TMP/e1.json" '(j["workload"]["compute_efficiency"], j["workload"]["efficiency_default"], j["mfu_above_published"] == (j["mfu"] > 0.552))')" "(1.0, False, True)"
expect_eq "efficiency default" "$(json "$TMP/gpt3.json" '(j["workload"]["compute_efficiency"], j["workload"]["efficiency_default"])')" "(0.43, True)"

# ---- nothing fits: said, with what would ------------------------------------------------
printf 'name: one\ncluster: {gpus: 8, node: dgx-h100}\nworkload: {model: llama-3-405b, batch: 64}\n' >"$TMP/one.yaml"
"$RAILYARD" model "$TMP/one.yaml" >"$TMP/o" 2>"$TMP/e"
expect_eq "one DGX: exit" $? 1
grep -qE "^$TMP/one.yaml:3:[0-9]+: error: no layout of llama-3-405b fits .*the least is TP 8 x PP [0-9]+ x DP 1 .*what would fit: .*(GPUs|zero: 3)" "$TMP/e" \
    && ok || fail "one DGX: $(cat "$TMP/e")"
no_sanitizer "$TMP/e"

# ---- sweep and traffic: the full model by default -------------------------------------
"$RAILYARD" sweep "$D/small.yaml" --vary cluster.hb_domain=8,16 >"$TMP/s.csv" 2>"$TMP/e"
expect_eq "sweep: exit" $? 0
expect_eq "sweep: the full model's columns" "$(head -n 1 "$TMP/s.csv" | tr ',' '\n' | grep -cE '^(pipeline|memory_bytes|capacity_bytes|t_bubble_s|t_pp_s)$')" 5
"$RAILYARD" traffic "$D/small.yaml" --format json >"$TMP/t.json" 2>"$TMP/e"
expect_eq "traffic: exit" $? 0
"$RAILYARD" model "$D/small.yaml" --format json >"$TMP/m1.json"
expect_eq "traffic: the full model's layout" "$(json "$TMP/t.json" 'j["layout"]')" \
    "$(json "$TMP/m1.json" 'j["layout"]')"
expect_eq "traffic: its tensor size is the model's" "$(json "$TMP/t.json" 'j["tensor"]')" \
    "$(json "$TMP/m1.json" 'j["optimum"]["tensor"]')"
no_sanitizer "$TMP/e"
# --paper keeps eq. 1's output and says apart (stderr) whether its layout
# fits the GPU's memory: Llama-3-405B at TP 2 does not; the CSV of a paper
# sweep is the same with and without the note.
"$RAILYARD" traffic --paper "$TOP_SRCDIR/tests/data/model/llama-h100.yaml" >"$TMP/tp.out" 2>"$TMP/tp.err"
expect_eq "traffic --paper exit" $? 0
grep -q "eq. 1's layout (--paper) needs .* GB per GPU, more than the h100's 80 GB" "$TMP/tp.err" && ok ||
    fail "traffic --paper: no memory note: $(cat "$TMP/tp.err")"
"$RAILYARD" sweep --paper "$TOP_SRCDIR/tests/data/model/llama-h100.yaml" --vary cluster.gpus=1024,2048 \
    >"$TMP/sp.csv" 2>"$TMP/sp.err"
expect_eq "sweep --paper exit" $? 0
grep -q "sweep --paper: eq. 1's layout fits the GPU's memory at 0 of 2 points" "$TMP/sp.err" && ok ||
    fail "sweep --paper: no memory count: $(cat "$TMP/sp.err")"
finish
