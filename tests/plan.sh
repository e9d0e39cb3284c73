#!/bin/sh
# The full model (model/plan.h, doc/llm-model.md "The full model"): the
# unit test (the paper mode is eq. 1 on every model test's spec; a small
# case's block, compute, communication, overlap and memory terms by hand;
# the search against a brute force), then the commands: memory per GPU
# computed here by hand from the block's shape for three models and
# layouts, the pipeline terms by hand, Llama 3 405B on 2,048 H100 never at
# a tensor size whose weights cannot fit, the 100k-GPU case answered with
# pipeline stages, precision, efficiency and the MFU flag, and the advice
# when nothing fits.
#
# The catalog's H100 (templates/gpus.yaml) is read here: its peaks, GEMM,
# FP8 GEMM and attention efficiencies, HBM size and bandwidth.
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
# h100 KEY: the catalog's figure
h100() {
    "$PY" -c "import yaml, sys; print(yaml.safe_load(open(sys.argv[1]))['gpus']['h100'][sys.argv[2]])" \
        "${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}/gpus.yaml" "$1"
}
H100_MEM=$(h100 memory) H100_HBM=$(h100 hbm) H100_GEMM=$(h100 gemm_efficiency)
H100_GEMM8=$(h100 gemm_efficiency_fp8) H100_ATTN=$(h100 attention_efficiency)
H100_HALF=$(h100 attention_half_length)
export H100_MEM H100_HBM H100_GEMM H100_GEMM8 H100_ATTN H100_HALF

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
import json, os, sys
# name: parameters, blocks, h, heads, kv heads, ffn, s, V, batch, GPUs, t, p, zero,
# gradient bytes, recompute (the catalog's shapes: templates/llms.yaml, the spec)
cases = [
    ("gpt3", 175e9, 96, 12288, 96, 96, 49152, 2048, 50257, 1536, 1024, 8, 8, 1, 2, "selective", 2),
    ("llama", 405e9, 126, 16384, 128, 8, 53248, 8192, 128256, 2048, 2048, 8, 16, 2, 4, "full", 3),
    ("small", 1.3e9, 24, 2048, 16, 16, 4 * 2048, 1024, 50000, 512, 512, 2, 1, 0, 2, "none", 2),
]
hbm = float(os.environ["H100_MEM"]) * 1e9 * 1.073741824   # the catalog's GB read as GiB
bad = []
for path, (n, P, L, h, a, kv, f, s, V, B, N, t, p, zero, gb, rc, mats) in zip(sys.argv[1:], cases):
    j = json.load(open(path))
    o, m = j["optimum"], j["memory"]
    c, d, v, mb, mbs = o["context"], o["data"], o["virtual"], o["micro_batch"], o["micro_batches"]
    blocks = -(-L // p)
    if mbs != -(-(-(-B // d)) // mb) or not t * c * p * d <= N:
        bad.append("%s: micro-batches %d of %d, GPUs %d" % (n, mbs, mb, t * c * p * d))
    # in flight on the first stage: min(p, m), interleaving adds (p - 1)/(p v) of them
    inflight = min(p, mbs) * (1 + ((p - 1) / (p * v) if v > 1 else 0))
    emb = V * h                         # the first stage: its blocks and the embedding
    phi = ((P - emb) / L * blocks + emb) / t
    r = c * d                           # the weights' replicas
    w = 2 * phi / (r if zero >= 3 else 1)
    g = gb * phi / (r if zero >= 2 else 1)
    opt = 12 * phi / (r if zero >= 1 else 1)
    # bytes kept per token and block: 8 h only sequence parallelism splits;
    # split over t: Q, K, V, the attention output, the softmax statistics
    # (fp32 per head), the MLP's first GEMM outputs and the second's input
    # (GELU: 4 f; SwiGLU: gate, up and their product, 6 f)
    hkv = h * kv / a
    rep, split = 8 * h, 2 * (h + 2 * hkv) + 2 * h + 4 * a + 2 * mats * f
    tok = s * mb / c                    # a micro-batch's tokens on one GPU of the context group
    sp = t if t > 1 else 1              # sequence parallelism (the default)
    if rc == "selective":               # fused attention: the norms are recomputed
        rep -= 4 * h
    full = tok * (rep / sp + split / t)
    if rc == "full":                    # each block's input, and one block's working set
        act = inflight * blocks * tok * 2 * h / sp + tok * (8 * h / sp + split / t)
    else:
        act = inflight * blocks * full
    if p == 1:                          # the output layer's fp32 logits
        act += tok * V / t * 4
    reserve = 2e9 + 0.08 * (hbm - 2e9)
    want = w + g + opt + act + reserve
    got = m["per_gpu_bytes"]
    print("%-5s %s: %.2f GB per GPU (by hand %.2f GB) of %.2f GB"
          % (n, j["layout"]["text"].split(",")[0], got / 1e9, want / 1e9, m["capacity_bytes"] / 1e9))
    if (o["tensor"], o["pipeline"]) != (t, p):
        bad.append("%s: layout %s" % (n, o))
    for k, x in (("weights_bytes", w), ("gradients_bytes", g), ("optimizer_bytes", opt),
                 ("activations_bytes", act), ("reserve_bytes", reserve), ("gather_bytes", 0),
                 ("capacity_bytes", hbm), ("micro_batches_in_flight", inflight),
                 ("per_gpu_bytes", want)):
        if abs(m[k] - x) > 1e-9 * max(x, 1):
            bad.append("%s: %s %g, by hand %g" % (n, k, m[k], x))
    if m["feasible"] != (want <= hbm) or m["recompute"] != rc:
        bad.append("%s: feasible %s recompute %s" % (n, m["feasible"], m["recompute"]))
print("\n".join(bad) if bad else "ok")
P
sed '$d' "$TMP/chk"
expect_eq "memory by hand" "$(tail -n 1 "$TMP/chk")" ok

# ---- the pipeline terms by hand (GPT-3: 8 stages, interleaved) ----------------------
"$PY" - "$TMP/gpt3.json" >"$TMP/chk" <<'P'
import json, os, sys
j = json.load(open(sys.argv[1]))
o, c = j["optimum"], j["constants"]
P, L, h, s, V, B, N, a = 175e9, 96, 12288, 2048, 50257, 1536, 1024, 96
f = 4 * h
t, p = 8, 8
cp, d, v, mb, m = o["context"], o["data"], o["virtual"], o["micro_batch"], o["micro_batches"]
blocks = L // p
tok = s * mb / cp                       # tokens of a micro-batch on one GPU
peak = 989e12                           # H100 dense BF16
rate = peak * float(os.environ["H100_GEMM"]) * tok / (tok + 128)   # a GEMM of tok rows
gemm_flops = 2 * h * 3 * h + 2 * h * h + 2 * 2 * h * f              # QKV, output, MLP
# selective recomputation: the attention core's forward again (4 passes), GEMMs 3
gemm = (tok * blocks * 3 * gemm_flops + tok * 3 * 2 * h * V) / t / rate
keys = s / cp                           # a query's keys in one kernel: the context chunk
attn = tok * blocks * 4 * 2 * s * h / t / (peak * float(os.environ["H100_ATTN"]) *
                                           keys / (keys + float(os.environ["H100_HALF"])))
elem = (2 * (h + h) + 2 * f) / t + 10 * h / t                       # sequence parallel
mem = tok * blocks * 3 * 2 * elem / (float(os.environ["H100_HBM"]) * 1e12)
per_mb = gemm + attn + mem
BF, BS = 7.2e12 / 8 / 2 * 0.8, 400e9 / 8 * 0.9     # one-way, NCCL's share
tp = blocks * 8 * tok * h * 2 * (t - 1) / t / BF
tp_x = tp - min(0.5 * tp, gemm)                     # overlap.tensor 0.5, behind the GEMMs
slot = per_mb + tp_x
bubble = (p - 1) / v * slot
# every GPU sends 2 v m activations of tok h x 2 bytes / t; a stage fills
# 16 domains: across domains on one rail
pp = 2 * v * m * tok * h * 2 / t / BS
phi = ((P - V * h) / L * blocks + V * h) / t        # the first stage's weights per GPU
g = 2 * phi                                         # bf16 gradients
dpx = 2 * g * (cp * d - 1) / (cp * d) / BS          # t = K: every replica across domains
dpx -= min(dpx, per_mb)                             # behind one micro-batch (overlap.data 1)
bad = []
for k, want in (("compute_s", per_mb * m), ("gemm_s", gemm * m), ("attention_s", attn * m),
                ("memory_bound_s", mem * m), ("tp_s", tp_x * m), ("bubble_s", bubble),
                ("pp_s", pp), ("dp_cross_s", dpx), ("dp_in_s", 0.0), ("cp_s", 0.0)):
    if abs(o[k] - want) > 1e-9 * max(want, 1e-30):
        bad.append("%s %g, by hand %g" % (k, o[k], want))
tot = per_mb * m + tp_x * m + bubble + pp + dpx
if abs(o["total_s"] - tot) > 1e-9 * tot:
    bad.append("total %g, by hand %g" % (o["total_s"], tot))
if not o["p2p_cross_domain"] or o["dp_in"] != 1 or o["dp_cross"] != cp * d or cp != 1:
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
json "$TMP/l.json" '"llama 2048: %s, %.1f GB of %.1f GB, T_iter %.2f s, MFU %.1f%%" % (j["layout"]["text"].split(",")[0], j["memory"]["per_gpu_bytes"] / 1e9, j["memory"]["capacity_bytes"] / 1e9, j["optimum"]["total_s"], 100 * j["mfu"])'
json "$TMP/lp.json" '"llama 2048 --paper: TP %d, %.1f GB per GPU: feasible %s, MFU %.1f%% (above published: %s)" % (j["optimum"]["tensor"], j["memory"]["per_gpu_bytes"] / 1e9, j["memory"]["feasible"], 100 * j["mfu"], j["mfu_above_published"])'
# The weights alone: 405e9 x 2 bytes / t; t = 2 would be 405 GB on an 80 GB
# GPU. The capacity: the catalog's 80 GB read as GiB (the HBM as built).
expect_eq "llama 2048: the layout fits" "$(json "$TMP/l.json" 'j["memory"]["feasible"] and abs(j["memory"]["capacity_bytes"] - '"$H100_MEM"' * 1e9 * 1.073741824) < 1 and j["memory"]["per_gpu_bytes"] <= j["memory"]["capacity_bytes"] and 405e9 * 2 / (j["optimum"]["tensor"] * j["optimum"]["pipeline"]) <= 80e9')" True
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
grep -qE "^$D/llama-h100.yaml:[0-9]+:[0-9]+: error: no layout of llama-3-405b fits the h100's 85.9 GB \\(80 GB HBM, in GiB\\): .*what would fit: " "$TMP/e" \
    && ok || fail "llama TP 2 PP 1: $(cat "$TMP/e")"
[ -s "$TMP/o" ] && fail "llama TP 2 PP 1: wrote output" || ok

# ---- 100,000 GPUs with the published batch: pipeline stages give an answer ----------
"$RAILYARD" model "$D/llama-100k.yaml" --format json >"$TMP/k.json" 2>"$TMP/k.err"
expect_eq "llama 100k: exit" $? 0
no_sanitizer "$TMP/k.err"
json "$TMP/k.json" '"llama 100k: %s, %d sequences on the busiest replica, %.1f GB, T_iter %.2f s, MFU %.1f%%" % (j["layout"]["text"].split(", ")[0] + ", %d GPUs idle" % j["layout"]["idle_gpus"], -(-2048 // j["optimum"]["data"]), j["memory"]["per_gpu_bytes"] / 1e9, j["optimum"]["total_s"], 100 * j["mfu"])'
# the GPUs used are t c p d, the rest idle (the layout says how many); MFU
# counts the GPUs used
expect_eq "llama 100k: pipeline stages, every replica a sequence, fits" \
    "$(json "$TMP/k.json" 'j["optimum"]["pipeline"] > 1 and j["optimum"]["data"] <= 2048 and j["optimum"]["tensor"] * j["optimum"]["context"] * j["optimum"]["pipeline"] * j["optimum"]["data"] == j["optimum"]["gpus"] <= 100000 and (j["layout"]["idle_gpus"] == 100000 - j["optimum"]["gpus"]) and j["memory"]["feasible"] and abs(j["mfu"] - j["constants"]["model_flops"] / (j["optimum"]["gpus"] * 989e12 * j["optimum"]["total_s"])) < 1e-9')" True
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
# The layout fixed whole (micro-batches of 1, no context group, one chunk,
# selective recomputation) and the reduction not overlapped, so the terms
# compare across precisions.
prec() {
    n=$1
    shift
    "$RAILYARD" model "$D/gpt3-h100.yaml" --format json --set workload.parallelism.tensor=8 \
        --set workload.parallelism.pipeline=8 --set workload.parallelism.context=1 \
        --set workload.parallelism.virtual=1 --set workload.parallelism.micro_batch=1 \
        --set workload.recompute=selective --set workload.overlap.data=0 "$@" >"$TMP/$n.json"
    expect_eq "$n: exit" $? 0
}
prec p16
prec f8 --set workload.precision=fp8
prec f32 --set workload.precision=fp8 --set workload.gradient_precision=fp32
"$PY" - "$TMP/p16.json" "$TMP/f8.json" "$TMP/f32.json" >"$TMP/chk" <<'P'
import json, os, sys
b, f8, f32 = (json.load(open(p)) for p in sys.argv[1:])
bad = []
def eq(what, a, w):
    if abs(a - w) > 1e-9 * max(abs(a), abs(w), 1e-30):
        bad.append("%s: %r, want %r" % (what, a, w))
g16, g8 = float(os.environ["H100_GEMM"]), float(os.environ["H100_GEMM8"])
# FP8: the GPU's FP8 rate (1979 TFLOP/s dense on H100) at the catalog's FP8 GEMM efficiency
eq("fp8 C", f8["constants"]["C"], 1979e12 * g8)
eq("bf16 C", b["constants"]["C"], 989e12 * g16)
for j in (b, f8, f32):
    o = j["optimum"]
    if (o["tensor"], o["pipeline"], o["context"], o["virtual"], o["micro_batch"]) != (8, 8, 1, 1, 1):
        bad.append("layout %r" % j["layout"])
# FP8 speeds only the GEMMs: the same FLOPs at the FP8 rate (the same few-rows factor)
eq("fp8 GEMMs", f8["optimum"]["gemm_s"] * 1979 * g8, b["optimum"]["gemm_s"] * 989 * g16)
eq("fp8 attention", f8["optimum"]["attention_s"], b["optimum"]["attention_s"])
# ... and adds the casts of every GEMM input (2 bytes read, 1 written), forward
# and backward (x 3): per token and block the QKV and output projections read
# h each, the MLP's two GEMMs h and f = 4 h: 7 h elements, 1/t of them
h, s, L, B, d = 12288, 2048, 96, 1536, f8["optimum"]["data"]
m, blocks = f8["optimum"]["micro_batches"], L // 8
eq("fp8 casts", f8["optimum"]["memory_bound_s"] - b["optimum"]["memory_bound_s"],
   m * s * blocks * 3 * 3 * 7 * h / 8 / (float(os.environ["H100_HBM"]) * 1e12))
# gradients: bf16 by default whatever the compute precision; fp32 doubles them
eq("fp8 gradient reduction", f8["optimum"]["dp_cross_s"], b["optimum"]["dp_cross_s"])
eq("fp32 gradient reduction", f32["optimum"]["dp_cross_s"], 2 * b["optimum"]["dp_cross_s"])
eq("fp32 gradient memory", f32["memory"]["gradients_bytes"], 2 * b["memory"]["gradients_bytes"])
# communication stays 16-bit (doc/llm-model.md): activations between stages
# and the tensor-parallel collectives do not shrink with FP8
eq("fp8 point-to-point", f8["optimum"]["pp_s"], b["optimum"]["pp_s"])
eq("fp8 tensor parallel (its overlap below the GEMMs)", f8["optimum"]["tp_s"], b["optimum"]["tp_s"])
if f8["optimum"]["pp_s"] <= 0:
    bad.append("no point-to-point")
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
        -e 's/^  precision   \([a-z0-9]*\), \([0-9]*\) bytes\{0,1\} per element (gradients.*/\1 \2/p' "$TMP/g.txt")
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
# the default: the GPU catalog's GEMM efficiency (H100's), its FP8 one for FP8 runs
expect_eq "efficiency default" "$(json "$TMP/gpt3.json" '(j["workload"]["compute_efficiency"], j["workload"]["efficiency_default"])')" "($H100_GEMM, True)"
expect_eq "efficiency default, fp8" "$(json "$TMP/f8.json" '(j["workload"]["compute_efficiency"], j["workload"]["efficiency_default"])')" "($H100_GEMM8, True)"

# ---- nothing fits: said, with what would ------------------------------------------------
printf 'name: one\ncluster: {gpus: 8, node: dgx-h100}\nworkload: {model: llama-3-405b, batch: 64}\n' >"$TMP/one.yaml"
"$RAILYARD" model "$TMP/one.yaml" >"$TMP/o" 2>"$TMP/e"
expect_eq "one DGX: exit" $? 1
grep -qE "^$TMP/one.yaml:3:[0-9]+: error: no layout of llama-3-405b fits .*the least is TP 8 x CP [0-9]+ x PP [0-9]+ x DP 1 .*what would fit: .*(GPUs|zero: 3)" "$TMP/e" \
    && ok || fail "one DGX: $(cat "$TMP/e")"
no_sanitizer "$TMP/e"
# the least layout's recomputation in words: "without" for none, never "with none"
"$RAILYARD" model "$D/gpt3-h100.yaml" --set workload.recompute=none --set cluster.gpus=8 \
    >/dev/null 2>"$TMP/e"
expect_eq "one DGX, no recomputation: exit" $? 1
grep -q "x DP 1 without recomputation and ZeRO stage 1" "$TMP/e" && ! grep -q "with none" "$TMP/e" \
    && ok || fail "no recomputation in words: $(cat "$TMP/e")"
"$RAILYARD" model "$D/gpt3-h100.yaml" --set workload.recompute=full --set cluster.gpus=8 \
    >/dev/null 2>"$TMP/e"
grep -q "x DP 1 with full recomputation and ZeRO stage 1" "$TMP/e" && ok \
    || fail "full recomputation in words: $(cat "$TMP/e")"

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
# the capacity is model's: the catalog's 80 GB read as GiB
cap=$("$RAILYARD" model --paper --format json "$TOP_SRCDIR/tests/data/model/llama-h100.yaml" | "$PY" -c 'import json, sys; print("%.0f" % (json.load(sys.stdin)["memory"]["capacity_bytes"] / 1e9))')
expect_eq "paper capacity: 80 GiB" "$cap" "$("$PY" -c "print('%.0f' % ($H100_MEM * 1.073741824))")"
cap1=$("$PY" -c "print('%.1f' % ($H100_MEM * 1.073741824))")
grep -q "eq. 1's layout (--paper) needs .* GB per GPU (a reserve included), more than the $cap1 GB of the h100" "$TMP/tp.err" && ok ||
    fail "traffic --paper: no memory note: $(cat "$TMP/tp.err")"
"$RAILYARD" sweep --paper "$TOP_SRCDIR/tests/data/model/llama-h100.yaml" --vary cluster.gpus=1024,2048 \
    >"$TMP/sp.csv" 2>"$TMP/sp.err"
expect_eq "sweep --paper exit" $? 0
grep -q "sweep --paper: eq. 1's layout fits the GPU's memory at 0 of 2 points" "$TMP/sp.err" && ok ||
    fail "sweep --paper: no memory count: $(cat "$TMP/sp.err")"
finish
