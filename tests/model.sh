#!/bin/sh
# The LLM iteration-time model, sweeps and traffic: the unit test
# (tests/unit/model_test.c: terms by hand, optimum = brute force, ideal =
# eq. 3, monotone in K, pair counts and byte totals, routes equal to
# route.c's, link loads flow by flow), then the paper's shapes with the
# catalog, the commands' outputs, determinism and bad workloads.
#
# Assumptions behind the paper comparisons (doc/llm-model.md): GH200 at
# 989 TFLOP/s dense BF16 and 100% efficiency, B_F = 7.68 Tb/s, B_S =
# 400 Gb/s, 6NT FLOPs, S_T = 12 d^2 x 2 bytes, M_cc = rounds x 2 bytes,
# N = 32768, the optimal N_M with N/N_M <= batch.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/model"

"$TOP_BUILDDIR/tests/unit/model_test" >"$TMP/unit" 2>&1
expect_eq "model_test exit" $? 0
tail -n 2 "$TMP/unit"
grep '^FAIL' "$TMP/unit" | head -20
no_sanitizer "$TMP/unit"

# ---- the paper's shapes ---------------------------------------------------------
# Figure 7: iteration time against K for GPT-3 and OPT-175B.
for m in gpt3 opt; do
    "$RAILYARD" sweep --paper "$D/$m-gh200.yaml" --vary cluster.hb_domain=8..1024 >"$TMP/$m.csv" 2>"$TMP/$m.err"
    expect_eq "sweep $m exit" $? 0
    no_sanitizer "$TMP/$m.err"
done
"$PY" - "$TMP/gpt3.csv" "$TMP/opt.csv" >"$TMP/fig7" <<'P'
import csv, sys
paper = {"gpt3": (12.0, 0.95), "opt": (37.0, 7.5)}
bad = []
for path, name in zip(sys.argv[1:], ("gpt3", "opt")):
    t = {int(r["cluster.hb_domain"]): float(r["t_iter_s"])
         for r in csv.DictReader(open(path)) if r["status"] == "ok"}
    ks = sorted(t)
    gain = lambda a, b: 100 * (1 - t[b] / t[a])
    g1, g2 = gain(32, 64), gain(512, 1024)
    print("%-5s K 32->64 %5.2f%% (paper %.2f%%)   K 512->1024 %5.2f%% (paper %.2f%%)"
          % (name, g1, paper[name][0], g2, paper[name][1]))
    # close to the paper: within 1.5 points (32->64) and 1 point (512->1024)
    if abs(g1 - paper[name][0]) > 1.5 or abs(g2 - paper[name][1]) > 1.0:
        bad.append("%s gains %.2f / %.2f far from the paper" % (name, g1, g2))
    # never rises, with diminishing returns (Amdahl)
    for a, b in zip(ks, ks[1:]):
        if t[b] > t[a] * (1 + 1e-12):
            bad.append("%s: T rises from K=%d to K=%d" % (name, a, b))
    gains = [gain(a, b) for a, b in zip(ks, ks[1:])]
    if any(y > x + 1e-9 for x, y in zip(gains, gains[1:])):
        bad.append("%s: gains do not diminish: %s" % (name, gains))
print("\n".join(bad) if bad else "ok")
P
sed '$d' "$TMP/fig7"
expect_eq "Figure 7 shape" "$(tail -n 1 "$TMP/fig7")" ok

# Figure 8: PaLM-540B relative performance at K = 256 rises with the batch.
"$RAILYARD" sweep --paper "$D/palm-gh200.yaml" --vary workload.batch=512..2048 \
    --vary cluster.hb_domain=256,512,1024 >"$TMP/palm.csv" 2>"$TMP/palm.err"
expect_eq "sweep palm exit" $? 0
"$PY" - "$TMP/palm.csv" >"$TMP/fig8" <<'P'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
bad = []
for k in ("256", "512", "1024"):
    rel = [float(r["relative_performance"]) for r in rows if r["cluster.hb_domain"] == k]
    if k == "256":
        print("palm  K 256: relative performance %.1f%% -> %.1f%% (paper 53%% -> 74%%)"
              % (100 * rel[0], 100 * rel[-1]))
    if len(rel) != 3 or not rel[0] < rel[1] < rel[2]:
        bad.append("K %s: relative performance does not rise with the batch: %s" % (k, rel))
print("\n".join(bad) if bad else "ok")
P
sed '$d' "$TMP/fig8"
expect_eq "Figure 8 shape" "$(tail -n 1 "$TMP/fig8")" ok

# ---- model: JSON consistency ------------------------------------------------------
"$RAILYARD" model --paper "$D/gpt3-gh200.yaml" --format json >"$TMP/m.json" 2>"$TMP/m.err"
expect_eq "model json exit" $? 0
no_sanitizer "$TMP/m.err"
"$PY" - "$TMP/m.json" >"$TMP/chk" <<'P'
import json, sys, math
j = json.load(open(sys.argv[1]))
o, i, c = j["optimum"], j["ideal"], j["constants"]
bad = []
close = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
if not close(o["compute_s"] + o["dp_cross_s"] + o["dp_in_s"] + o["tp_s"], o["total_s"]):
    bad.append("terms do not add up")
if o["tensor"] * o["dp_in"] != c["K"] or o["tensor"] * o["dp_in"] * o["dp_cross"] != c["N"]:
    bad.append("N_M x N_Ds != K or x N_Df != N")
if i["hb_domain"] != c["N"] or i["dp_cross"] != 1:
    bad.append("the ideal is not K = N")
if not close(j["relative_performance"], i["total_s"] / o["total_s"]):
    bad.append("relative performance")
# efficiency 1, no recomputation: MFU = HFU = the compute share
if not close(j["mfu"], o["compute_s"] / o["total_s"]) or not close(j["mfu"], j["hfu"]):
    bad.append("MFU %g HFU %g share %g" % (j["mfu"], j["hfu"], o["compute_s"] / o["total_s"]))
if not close(j["tensor_continuous"] / j["tensor_paper_eq2"], 2 * math.sqrt(2)):
    bad.append("eq. 2 vs the continuous optimum")
if c["S_T"] != 12 * 12288 ** 2 * 2 or c["M_cc"] != 16 or c["b"] != 32 * 2 ** 20:
    bad.append("constants S_T %g M_cc %g b %g" % (c["S_T"], c["M_cc"], c["b"]))
ro, rl = j["cost"]["rail_optimized"], j["cost"]["rail_only"]
if (ro["switches"], rl["switches"], ro["transceivers"], rl["transceivers"]) != (2560, 1536, 196608, 131072):
    bad.append("costs differ from Table 2 (32768, radix 64)")
print("\n".join(bad) if bad else "ok")
P
expect_eq "model JSON" "$(cat "$TMP/chk")" ok
"$RAILYARD" model --paper "$D/gpt3-gh200.yaml" >"$TMP/m.txt" 2>&1
for w in "one block's gradients" "tensor-parallel bytes per token, block" "FLOPs per iteration executed" \
    "NVLink (HB domain) bandwidth per GPU" "network bandwidth per GPU" "6 x parameters x tokens" \
    "paper's eq. 2" "ideal: one domain of all GPUs" "MFU" "rail-only"; do
    grep -q "$w" "$TMP/m.txt" && ok || fail "model text lacks '$w'"
done
"$RAILYARD" model --paper "$D/gpt3-gh200.yaml" --set workload.flops_convention=korthikanti \
    --set workload.recompute=full --set workload.compute_efficiency=0.5 --format json >"$TMP/k.json"
"$PY" - "$TMP/k.json" >"$TMP/chk" <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
c, o = j["constants"], j["optimum"]
B, L, s, h, V = 16384, 96, 2048, 12288, 50257
mf = 72 * B * L * s * h * h * (1 + s / (6 * h) + V / (12 * h * L))
ok = abs(c["model_flops"] - mf) < 1e-9 * mf and abs(c["M_flop"] - mf * 4 / 3) < 1e-9 * mf
ok = ok and abs(c["C"] - 0.5 * 989e12) < 1 and abs(j["hfu"] / j["mfu"] - 4 / 3) < 1e-9
print("ok" if ok else "korthikanti/recompute/efficiency: %s" % c)
P
expect_eq "Korthikanti, recomputation, efficiency" "$(cat "$TMP/chk")" ok

# ---- traffic: the paper's 128 GH200 domains on radix-64 switches ---------------------
"$RAILYARD" traffic --paper "$D/gpt3-gh200.yaml" -o "$TMP/t" --format json >"$TMP/t.json" 2>"$TMP/t.err"
expect_eq "traffic exit" $? 0
no_sanitizer "$TMP/t.err"
for f in traffic.json links.csv heatmap.csv; do
    [ -s "$TMP/t/$f" ] && ok || fail "traffic: $f missing"
done
[ -s "$TMP/t/heatmap.png" ] || [ -s "$TMP/t/heatmap.pgm" ] && ok || fail "traffic: no heatmap"
"$PY" - "$TMP/t.json" "$TMP/t/links.csv" "$TMP/t/heatmap.csv" >"$TMP/chk" <<'P'
import csv, json, sys
j = json.load(open(sys.argv[1]))
T, bad = j["types"], []
K = j["hb_domain"]
idle = T["none"]["pair_share"]
inside = T["mp"]["byte_share"] + T["dp-in"]["byte_share"]
print("pairs without traffic %.4f%%, MP + DP stage 2 %.2f%% of the bytes, idle links %d of %d"
      % (100 * idle, 100 * inside, j["network"]["idle"], j["network"]["links"]), file=sys.stderr)
if idle <= 0.99: bad.append("idle pairs %.4f" % idle)
if inside <= 0.90: bad.append("MP + DP stage 2 only %.3f of the bytes" % inside)
if abs(T["mp"]["pairs"] + T["dp-in"]["pairs"]) / j["pairs"] >= 0.0025:
    bad.append("MP + DP stage 2 pairs >= 0.25%")
# the paper: a third of the rail-optimized links carry nothing
if j["network"]["idle"] * 3 != j["network"]["links"]: bad.append("idle links not a third")
tr = j["network"]["per_tier"]
if tr[2]["idle"] != tr[2]["links"] or tr[0]["idle"] or tr[1]["idle"]:
    bad.append("idle links not exactly the spine-core ones: %s" % tr)
if j["trimmed"]["links"] * 3 != j["fabric"]["links"] * 2: bad.append("trimmed links")
# bytes on the GPU uplinks = the analytic DP stage 1 volume
up = sum(float(r["bytes_up"]) for r in csv.DictReader(open(sys.argv[2])) if r["tier"] == "1")
if abs(up - T["dp-cross"]["bytes"]) > 1e-9 * up: bad.append("uplink bytes %g vs %g" % (up, T["dp-cross"]["bytes"]))
# cross-domain pairs only between GPUs of one rank (one rail)
for r in csv.DictReader(open(sys.argv[3])):
    i, k = int(r["i"]), int(r["j"])
    if r["type"] == "dp-cross" and (i % K != k % K or i // K == k // K): bad.append("pair %d %d" % (i, k))
    if r["type"] in ("mp", "dp-in") and i // K != k // K: bad.append("pair %d %d leaves its domain" % (i, k))
print("\n".join(bad[:5]) if bad else "ok")
P
expect_eq "traffic shapes" "$(cat "$TMP/chk")" ok

# ---- determinism ---------------------------------------------------------------------
"$RAILYARD" traffic "$D/small.yaml" -o "$TMP/d1" >"$TMP/d1.txt" 2>"$TMP/d.err"
expect_eq "traffic small exit" $? 0
"$RAILYARD" traffic "$D/small.yaml" -o "$TMP/d2" >"$TMP/d2.txt" 2>>"$TMP/d.err"
"$RAILYARD" sweep --paper "$D/small.yaml" --vary cluster.hb_domain=2..16 --vary workload.batch=64,512 \
    -o "$TMP/s1" >/dev/null 2>>"$TMP/d.err"
expect_eq "sweep small exit" $? 0
"$RAILYARD" sweep --paper "$D/small.yaml" --vary cluster.hb_domain=2..16 --vary workload.batch=64,512 \
    -o "$TMP/s2" >/dev/null 2>>"$TMP/d.err"
no_sanitizer "$TMP/d.err"
for f in $(ls "$TMP/d1") ; do
    cmp -s "$TMP/d1/$f" "$TMP/d2/$f" && ok || fail "traffic $f differs between runs"
done
cmp -s "$TMP/d1.txt" "$TMP/d2.txt" && ok || fail "traffic report differs between runs"
for f in sweep.csv sweep.gp; do
    cmp -s "$TMP/s1/$f" "$TMP/s2/$f" && ok || fail "sweep $f differs between runs"
done
if command -v gnuplot >/dev/null 2>&1; then
    for f in sweep.png sweep.svg; do
        [ -s "$TMP/s1/$f" ] && ok || fail "sweep: $f missing with gnuplot installed"
        cmp -s "$TMP/s1/$f" "$TMP/s2/$f" && ok || fail "sweep $f differs between runs"
    done
    [ -s "$TMP/d1/heatmap.png" ] && ok || fail "traffic: heatmap.png missing with gnuplot"
fi
# 4 HB-domain sizes x 2 batches, the first key fastest; batch 64 on 512 GPUs
# needs N_M >= 8: the points with K = 2 and 4 are invalid and left empty
expect_eq "sweep rows" "$(($(wc -l <"$TMP/s1/sweep.csv")))" 9
expect_eq "sweep invalid rows" "$(grep -c ',invalid,' "$TMP/s1/sweep.csv")" 2
sed -n 2p "$TMP/s1/sweep.csv" | grep -q '^2,64,invalid,' && ok || fail "sweep row order: $(sed -n 2p "$TMP/s1/sweep.csv")"

# without gnuplot: the CSV and the script, a note, no images
RAILYARD_GNUPLOT=none "$RAILYARD" sweep "$D/small.yaml" --vary workload.batch=512,1024 \
    -o "$TMP/s3" >/dev/null 2>"$TMP/e"
expect_eq "sweep without gnuplot exit" $? 0
[ -s "$TMP/s3/sweep.csv" ] && [ -s "$TMP/s3/sweep.gp" ] && [ ! -e "$TMP/s3/sweep.png" ] && ok \
    || fail "sweep without gnuplot: $(ls "$TMP/s3")"
grep -q "gnuplot is not installed" "$TMP/e" && ok || fail "no note without gnuplot: $(cat "$TMP/e")"
RAILYARD_GNUPLOT=none "$RAILYARD" traffic "$D/small.yaml" -o "$TMP/t3" >/dev/null 2>"$TMP/e"
head -c 2 "$TMP/t3/heatmap.pgm" | grep -q P5 && ok || fail "no PGM heatmap without gnuplot"

# ---- bad workloads: errors at their keys ---------------------------------------------
bad() {     # bad NAME WANT-REGEX WORKLOAD-YAML [CLUSTER-YAML]
    cl=${4:-}
    [ -n "$cl" ] || cl='{gpus: 32768, node: dgx-gh200}'
    printf 'name: %s\ncluster: %s\nworkload:\n%s\n' "$1" "$cl" "$3" >"$TMP/$1.yaml"
    "$RAILYARD" validate "$TMP/$1.yaml" >/dev/null 2>"$TMP/$1.err"
    expect_eq "$1: exit" $? 1
    grep -qE "^$TMP/$1.yaml:[0-9]+:[0-9]+: error: .*$2" "$TMP/$1.err" && ok \
        || fail "$1: want /$2/ at a position, got: $(cat "$TMP/$1.err")"
    no_sanitizer "$TMP/$1.err"
}
bad unknown-model "unknown model 'gtp-3-175b'; did you mean 'gpt-3-175b'" '  model: gtp-3-175b'
bad unknown-gpu "unknown GPU 'h10'; did you mean 'h100'" '  model: opt-175b
  gpu: h10'
bad tensor-divides "tensor \(3\) must divide the HB domain size 256" '  model: opt-175b
  parallelism: {tensor: 3}'
bad tensor-word "tensor must be auto or a whole number of GPUs" '  model: opt-175b
  parallelism: {tensor: many}'
# the batch rules are eq. 1's (no pipeline stages): model --paper refuses them
bad_paper() {   # bad_paper NAME WANT-REGEX WORKLOAD-YAML
    printf 'name: %s\ncluster: {gpus: 32768, node: dgx-gh200}\nworkload:\n%s\n' "$1" "$3" >"$TMP/$1.yaml"
    "$RAILYARD" model --paper "$TMP/$1.yaml" >/dev/null 2>"$TMP/$1.err"
    expect_eq "$1: exit" $? 1
    grep -qE "^$TMP/$1.yaml:[0-9]+:[0-9]+: error: .*$2" "$TMP/$1.err" && ok \
        || fail "$1: want /$2/ at a position, got: $(cat "$TMP/$1.err")"
    "$RAILYARD" validate "$TMP/$1.yaml" >/dev/null 2>"$TMP/$1.verr"
    expect_eq "$1: validate exit (pipeline stages make it fit)" $? 0
    no_sanitizer "$TMP/$1.err"
}
bad_paper batch-dp "smaller than the data-parallel size 2048" '  model: opt-175b
  batch: 1000
  parallelism: {tensor: 16}'
bad_paper batch-domains "smaller than the 128 HB domains" '  model: opt-175b
  batch: 100'
bad both-batches "not both" '  model: opt-175b
  batch: 1024
  batch_tokens: 2Mi'
bad tokens-multiple "multiple of the model.s sequence length 2048" '  model: opt-175b
  batch_tokens: 1000000'
bad fp8-a100 "fp8 needs a GPU with FP8" '  model: opt-175b
  gpu: a100
  precision: fp8'
bad no-gpu "workload.gpu is required" '  model: opt-175b' '{gpus: 512, hb_domain: 8, gpus_per_node: 8}'
bad unknown-key "unknown key 'bach' in workload; did you mean 'batch'" '  model: opt-175b
  bach: 1024'
bad efficiency "compute_efficiency must be" '  model: opt-175b
  compute_efficiency: 1.5'
bad convention "flops_convention must be 6NT, korthikanti or architecture \(got 7NT\)" '  model: opt-175b
  flops_convention: 7NT'
bad inline-model "workload.model has no d_model" '  model: {name: mine, parameters: 1e9, layers: 4, seq_len: 128, vocab: 100, mcc: 8, batch: 64}
  gpu: h100'
bad no-model "workload needs a model" '  batch: 64'
# the error sits on the offending value's line
grep -q "tensor-divides.yaml:5:" "$TMP/tensor-divides.err" && ok \
    || fail "tensor error position: $(cat "$TMP/tensor-divides.err")"
# --set reaches the workload like any key
"$RAILYARD" model "$D/opt-gh200.yaml" --set workload.parallelism.tensor=5 >/dev/null 2>"$TMP/e"
expect_eq "--set tensor=5 exit" $? 1
grep -q "^--set:1:" "$TMP/e" && ok || fail "--set error position: $(cat "$TMP/e")"
"$RAILYARD" model --paper "$D/opt-gh200.yaml" --set workload.parallelism.tensor=5 >/dev/null 2>"$TMP/e"
expect_eq "--set tensor=5 exit" $? 1
grep -q "^--set:1:" "$TMP/e" && ok || fail "--set error position: $(cat "$TMP/e")"
# a spec without a workload
"$RAILYARD" model "$TOP_SRCDIR/examples/superpod-4su.yaml" >/dev/null 2>"$TMP/e"
expect_eq "model without workload exit" $? 1
grep -q "no workload section" "$TMP/e" && ok || fail "no workload message: $(cat "$TMP/e")"

# usage errors
"$RAILYARD" sweep "$D/small.yaml" 2>"$TMP/e"; expect_eq "sweep without --vary" $? 2
"$RAILYARD" sweep "$D/small.yaml" --vary cluster.hb_domain 2>"$TMP/e"; expect_eq "--vary without =" $? 2
"$RAILYARD" sweep "$D/small.yaml" --vary cluster.hb_domain=16..2 2>"$TMP/e"; expect_eq "--vary empty range" $? 2
no_sanitizer "$TMP/e"
"$RAILYARD" model "$D/small.yaml" --format csv 2>"$TMP/e"; expect_eq "model --format csv" $? 2
"$RAILYARD" sweep --paper "$D/small.yaml" --vary workload.batch=1 >/dev/null 2>"$TMP/e"
expect_eq "sweep with no valid point" $? 1
no_sanitizer "$TMP/e"
for a in "--vary x=1..2+0" "--vary x=1..4*1" "--vary x=1..b" "--vary =3" "--vary x=,"; do
    "$RAILYARD" sweep "$D/small.yaml" $a >/dev/null 2>"$TMP/e"
    expect_eq "sweep $a exit" $? 2
    no_sanitizer "$TMP/e"
done
# ---- --explain: each term, its rate and where it comes from ----------------------------------
# The full model on examples/search-h100.yaml (H100, BF16): each term's
# seconds are the optimum's; the GEMMs' rate is the catalog's peak x its
# gemm_efficiency x rows / (rows + 128), rows the micro-batch's tokens over
# the context group, computed here from the catalog; the text has the
# section and says the iteration time once.
"$RAILYARD" model "$TOP_SRCDIR/examples/search-h100.yaml" --explain -f json >"$TMP/ex.json" 2>"$TMP/ex.err"
expect_eq "model --explain -f json: exit" $? 0
"$PY" - "$TMP/ex.json" "$TOP_SRCDIR/templates/gpus.yaml" <<'P' >"$TMP/ex.out"
import json, sys, yaml
j = json.load(open(sys.argv[1]))
gpus = yaml.safe_load(open(sys.argv[2]))["gpus"]
o, rows = j["optimum"], {e["term"]: e for e in j["explain"]}
bad = []
for term, key in (("GEMMs and the output layer", "gemm_s"), ("attention", "attention_s"),
                  ("memory-bound kernels", "memory_bound_s"),
                  ("data parallel across domains", "dp_cross_s")):
    if term not in rows or abs(rows[term]["seconds"] - o[key]) > 1e-12 + 1e-9 * o[key]:
        bad.append("%s: %r, the optimum's %s %r" % (term, rows.get(term), key, o[key]))
g = gpus[j["gpu"]["name"]]
tok = j["model"]["seq_len"] * o["micro_batch"] / max(1, o["context"])
want = g["bf16_tflops"] * 1e12 * g["gemm_efficiency"] * tok / (tok + 128)
got = rows["GEMMs and the output layer"]
if abs(got["rate"] - want) > 1e-6 * want or "gemm_efficiency" not in got["from"]:
    bad.append("GEMM rate %r from %r, want %r from gemm_efficiency" % (got["rate"], got["from"], want))
print("; ".join(bad) if bad else "ok")
P
expect_eq "--explain: the terms' seconds and the GEMM rate" "$(cat "$TMP/ex.out")" ok
"$RAILYARD" model "$TOP_SRCDIR/examples/search-h100.yaml" --explain >"$TMP/ex.txt" 2>&1
grep -q "^Where the terms come from" "$TMP/ex.txt" && grep -q "gemm_efficiency" "$TMP/ex.txt" && ok ||
    fail "--explain: no section: $(tail -5 "$TMP/ex.txt")"
# A routed expert's GEMMs take the tokens that expert sees as their rows:
# an all-MoE model of 128 experts, top-8, on 16 H100 with every size fixed
# (TP 1, PP 1, EP 16 or 4, one sequence a micro-batch): the GEMM seconds
# against the closed form computed here from the block's shape, rows
# top_k ep s / experts for the routed experts and s for the rest.
for ep in 16 4; do
cat >"$TMP/fine.yaml" <<EOF
name: fine
cluster: {gpus: 16, node: dgx-h100}
workload:
  model: {name: fine, parameters: 30500000000, layers: 48, d_model: 2048, heads: 32,
          kv_heads: 4, seq_len: 512, vocab: 151936, ffn_hidden: 768, mlp: swiglu, mcc: 8,
          moe: {experts: 128, top_k: 8, shared_experts: 0, expert_hidden: 768,
                active_parameters: 3300000000, dense_layers: 0}}
  gpu: h100
  batch: 64
  precision: bf16
  recompute: none
  parallelism: {tensor: 1, pipeline: 1, context: 1, data: 16, zero: 1, micro_batch: 1, expert: $ep}
EOF
"$RAILYARD" model "$TMP/fine.yaml" -f json >"$TMP/fine.json" 2>"$TMP/fine.err"
expect_eq "model (fine-grained experts, EP $ep): exit" $? 0
"$PY" - "$TMP/fine.json" "$TOP_SRCDIR/templates/gpus.yaml" "$ep" <<'P' >"$TMP/fine.out"
import json, sys, yaml
j = json.load(open(sys.argv[1]))
g = yaml.safe_load(open(sys.argv[2]))["gpus"]["h100"]
ep = int(sys.argv[3])
o = j["optimum"]
h, hkv, fe, E, k, V, s, L = 2048, 2048 * 4 / 32, 768, 128, 8, 151936, 512, 48
m = 64 / 16                                  # micro-batches of one sequence
peak = g["bf16_tflops"] * 1e12 * g["gemm_efficiency"]
dense = 2 * h * (h + 2 * hkv) + 2 * h * h + 2 * h * E       # projections and the router
routed = 6 * h * fe * k
rows = k * ep * s / E
want = m * s * (3 * L * (dense / (peak * s / (s + 128)) +
                         routed / (peak * 0.55 * rows / (rows + 128))) +
                3 * 2 * h * V / (peak * s / (s + 128)))
got = o["gemm_s"]
print("ok" if abs(got - want) < 1e-9 * want else "gemm_s %r, want %r" % (got, want))
P
expect_eq "a routed expert's GEMM rows (EP $ep)" "$(cat "$TMP/fine.out")" ok
done
# ---- FSDP's gathers: forward and backward, not the recomputed forward ----------------------
# ZeRO-3 with full recomputation gathers a block three times a micro-batch
# and reduce-scatters once; FSDP twice. With 16-bit weights and gradients
# the bytes across domains are (2 x 2 + 2) / (3 x 2 + 2) = 0.75 of ZeRO-3's,
# and fsdp: true with zero: 1 is refused at the key.
for f in false true; do
cat >"$TMP/fsdp.yaml" <<EOF
name: fsdp
cluster: {gpus: 64, node: dgx-h100}
workload:
  model: llama-3-8b
  gpu: h100
  batch: 64
  precision: bf16
  recompute: full
  parallelism: {tensor: 1, pipeline: 1, context: 1, data: 64, zero: 3, micro_batch: 1, fsdp: $f}
EOF
"$RAILYARD" model "$TMP/fsdp.yaml" -f json >"$TMP/fsdp-$f.json" 2>"$TMP/fsdp.err"
expect_eq "model (zero 3, fsdp $f): exit" $? 0
done
"$PY" - "$TMP/fsdp-false.json" "$TMP/fsdp-true.json" <<'P' >"$TMP/fsdp.out"
import json, sys
z, f = (json.load(open(a)) for a in sys.argv[1:3])
bz, bf = z["optimum"]["dp_cross_bytes"], f["optimum"]["dp_cross_bytes"]
ok = bz > 0 and abs(bf / bz - 0.75) < 1e-12 and f["workload"]["fsdp"] and not z["workload"]["fsdp"]
print("ok" if ok else "bytes %r and %r (ratio %r)" % (bz, bf, bf / bz if bz else 0))
P
expect_eq "FSDP gathers twice, ZeRO-3 three times with full recomputation" "$(cat "$TMP/fsdp.out")" ok
sed 's/zero: 3, micro_batch: 1, fsdp: true/zero: 1, micro_batch: 1, fsdp: true/' "$TMP/fsdp.yaml" >"$TMP/fsdp1.yaml"
"$RAILYARD" model "$TMP/fsdp1.yaml" >/dev/null 2>"$TMP/fsdp1.err"
expect_eq "fsdp with zero 1: exit" $? 1
grep -q "fsdp1.yaml:[0-9]*:[0-9]*: .*workload.parallelism.fsdp shards the weights" "$TMP/fsdp1.err" && ok ||
    fail "fsdp with zero 1: $(cat "$TMP/fsdp1.err")"
# ---- attention by the keys a query sees, the head size and a window -------------------------
# A model with heads of 64 (head_dim under d_model / heads), a 512-key
# window on 12 of its 24 blocks, sequences of 8192 over a context group of
# 2, on 8 H100: the attention seconds against the closed form computed here
# from the catalog's attention_efficiency and attention_half_length: the
# rate e x keys / (keys + half) x (64 / 128)^0.5, keys 4096 (the chunk) for
# the full blocks and 512 for the windowed ones, whose queries see
# w - w (w - 1) / 2s keys on average.
cat >"$TMP/win.yaml" <<EOF
name: win
cluster: {gpus: 8, node: dgx-h100}
workload:
  model: {name: win, parameters: 3000000000, layers: 24, d_model: 3072, heads: 32, kv_heads: 8,
          head_dim: 64, seq_len: 8192, vocab: 32000, ffn_hidden: 8192, mlp: swiglu, mcc: 8,
          window: 512, window_layers: 12}
  gpu: h100
  batch: 16
  precision: bf16
  recompute: none
  parallelism: {tensor: 1, pipeline: 1, context: 2, data: 4, zero: 1, micro_batch: 1}
EOF
"$RAILYARD" model "$TMP/win.yaml" -f json >"$TMP/win.json" 2>"$TMP/win.err"
expect_eq "model (a window, heads of 64): exit" $? 0
"$PY" - "$TMP/win.json" "$TOP_SRCDIR/templates/gpus.yaml" <<'P' >"$TMP/win.out"
import json, sys, yaml
j = json.load(open(sys.argv[1]))
g = yaml.safe_load(open(sys.argv[2]))["gpus"]["h100"]
o = j["optimum"]
s, c, w, L, Lw, heads, dk = 8192, 2, 512, 24, 12, 32, 64
e, half = g["attention_efficiency"], g["attention_half_length"]
rate = lambda keys: g["bf16_tflops"] * 1e12 * e * keys / (keys + half) * (dk / 128) ** 0.5
per_key = 2 * 2 * heads * dk                 # QK^T and PV, one key, forward
full = per_key * s / 2                       # causal
win = per_key * (w - w * (w - 1) / (2 * s))
tok = s / c
m = 16 / 4
want = m * tok * 3 * ((L - Lw) * full / rate(s / c) + Lw * win / rate(w))
got = o["attention_s"]
print("ok" if abs(got - want) < 1e-9 * want else "attention_s %r, want %r" % (got, want))
P
expect_eq "attention by keys, head size and window" "$(cat "$TMP/win.out")" ok
# ---- latent attention: the block's FLOPs --------------------------------------------------------
# A dense model with DeepSeek-V3's attention shape, scaled down: 16 heads of
# 192 (128 + a rotary 64), values of 128, queries through a rank of 512,
# keys and values through 256. The block's GEMM and attention FLOPs per
# token against the closed form written here from the projections' shapes.
cat >"$TMP/mla.yaml" <<EOF
name: mla
cluster: {gpus: 8, node: dgx-h100}
workload:
  model: {name: mla, parameters: 500000000, layers: 8, d_model: 2048, heads: 16, seq_len: 4096,
          vocab: 32000, mcc: 8, ffn_hidden: 5504, mlp: swiglu, head_dim: 192, v_head_dim: 128,
          q_lora_rank: 512, kv_lora_rank: 256, qk_rope_head_dim: 64}
  gpu: h100
  batch: 64
EOF
"$RAILYARD" model "$TMP/mla.yaml" -f json >"$TMP/mla.json" 2>"$TMP/mla.err"
expect_eq "model (latent attention): exit" $? 0
"$PY" - "$TMP/mla.json" <<'P' >"$TMP/mla.out"
import json, sys
b = json.load(open(sys.argv[1]))["block"]
h, a, dk, dv, ql, kl, r, f, s = 2048, 16, 192, 128, 512, 256, 64, 5504, 4096
gemm = (2 * (h * ql + ql * a * dk)          # queries: down to the rank, up to every head
        + 2 * h * (kl + r)                  # keys and values down, and the shared rotary key
        + 2 * kl * a * (dk - r + dv)        # up to every head's non-rotary key and value
        + 2 * a * dv * h                    # the output projection
        + 2 * 3 * h * f)                    # the SwiGLU MLP
attn = s * a * (dk + dv)                    # QK^T and PV, causal: half of 2 s a (dk + dv)
bad = []
if abs(b["gemm_flops_per_token"] - gemm) > 1e-9 * gemm:
    bad.append("GEMM FLOPs %r, want %r" % (b["gemm_flops_per_token"], gemm))
if abs(b["attention_flops_per_token"] - attn) > 1e-9 * attn:
    bad.append("attention FLOPs %r, want %r" % (b["attention_flops_per_token"], attn))
print("; ".join(bad) or "ok")
P
expect_eq "latent attention: the block's FLOPs" "$(cat "$TMP/mla.out")" ok
# ---- uneven pipeline stages and multi-token prediction ---------------------------------------
# Llama 3 8B (32 blocks) on 4 stages: even, 8 a stage; first 6 and last 6:
# the two middle stages take ceil(20 / 2) = 10, the busiest; first 6 and
# last 10: the middle ones 8, the last (10 and the output layer) the
# busiest; on two stages with the last 12, the first's 20.
# One MTP block on one stage: model FLOPs 3 b ((l + 1)(GEMM +
# attention) + 2 x output) from the block's own per-token figures.
stages() {  # FIRST LAST PIPELINE MTP
    cat <<EOF
name: stages
cluster: {gpus: 32, node: dgx-h100}
workload:
  model: {name: llama-3-8b, mtp_layers: $4}
  gpu: h100
  batch: 64
  precision: bf16
  parallelism: {tensor: 1, pipeline: $3, context: 1, data: $((32 / $3)), micro_batch: 1$1$2}
EOF
}
for c in "|||4|0|8" "|, first_stage_layers: 6|, last_stage_layers: 6|4|0|10" \
         "|, first_stage_layers: 6|, last_stage_layers: 10|4|0|10" \
         "||, last_stage_layers: 12|2|0|20" "|||1|1|33"; do
    IFS='|' read -r _ f g p mtp want <<EOF
$c
EOF
    stages "$f" "$g" "$p" "$mtp" >"$TMP/stages.yaml"
    "$RAILYARD" model "$TMP/stages.yaml" -f json >"$TMP/stages.json" 2>"$TMP/stages.err"
    expect_eq "stages$f$g, PP $p, MTP $mtp: exit" $? 0
    got=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["optimum"]["blocks_per_stage"])' "$TMP/stages.json")
    expect_eq "stages$f$g, PP $p, MTP $mtp: blocks of the busiest stage" "$got" "$want"
done
"$PY" - "$TMP/stages.json" <<'P' >"$TMP/mtp.out"
import json, sys
j = json.load(open(sys.argv[1]))
b, tok = j["block"], j["workload"]["batch_tokens"]
want = 3 * tok * (33 * (b["gemm_flops_per_token"] + b["attention_flops_per_token"]) +
                  2 * b["output_flops_per_token"])
print("ok" if abs(b["model_flops"] - want) < 1e-9 * want else "%r, want %r" % (b["model_flops"], want))
P
expect_eq "one MTP block: the model FLOPs" "$(cat "$TMP/mtp.out")" ok
stages ", first_stage_layers: 20" ", last_stage_layers: 16" 4 0 >"$TMP/stages.yaml"
"$RAILYARD" model "$TMP/stages.yaml" >/dev/null 2>"$TMP/stages.err"
expect_eq "first and last stages holding more than every block: exit" $? 1
grep -q "stages.yaml:[0-9]*:[0-9]*: .*are more than the 32 blocks" "$TMP/stages.err" && ok ||
    fail "first and last stages holding more than every block: $(cat "$TMP/stages.err")"
# All of them on two stages: 20 and 12, the first the busiest.
stages ", first_stage_layers: 20" ", last_stage_layers: 12" 2 0 >"$TMP/stages.yaml"
"$RAILYARD" model "$TMP/stages.yaml" -f json >"$TMP/stages.json" 2>"$TMP/stages.err"
expect_eq "two stages of 20 and 12: exit" $? 0
got=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["optimum"]["blocks_per_stage"])' "$TMP/stages.json")
expect_eq "two stages of 20 and 12: blocks of the busiest stage" "$got" 20
# ---- FP8 recipes: what their casts move --------------------------------------------------------
# Llama 3 8B in FP8 on 8 H200, the layout fixed: only the memory-bound
# kernels move with the recipe, by the casts' bytes per element: tensorwise
# 5 against delayed's 3, blockwise 2 + 2 (1 + 4/128): the differences stand as
# 2 to 1.0625, and the GEMMs and attention do not move.
for r in delayed tensorwise blockwise; do
cat >"$TMP/fp8.yaml" <<EOF
name: fp8
cluster: {gpus: 8, node: dgx-h200}
workload:
  model: llama-3-8b
  gpu: h200
  batch: 64
  precision: fp8
  fp8_recipe: $r
  recompute: none
  parallelism: {tensor: 1, pipeline: 1, context: 1, data: 8, micro_batch: 1}
EOF
"$RAILYARD" model "$TMP/fp8.yaml" -f json >"$TMP/fp8-$r.json" 2>"$TMP/fp8.err"
expect_eq "fp8_recipe $r: exit" $? 0
done
"$PY" - "$TMP" <<'P' >"$TMP/fp8.out"
import json, sys
j = {r: json.load(open("%s/fp8-%s.json" % (sys.argv[1], r))) for r in ("delayed", "tensorwise", "blockwise")}
o = {r: j[r]["optimum"] for r in j}
bad = []
ratio = (o["tensorwise"]["memory_bound_s"] - o["delayed"]["memory_bound_s"]) / \
        (o["blockwise"]["memory_bound_s"] - o["delayed"]["memory_bound_s"])
if abs(ratio - 2 / 1.0625) > 1e-9:
    bad.append("the casts' differences stand as %r, want %r" % (ratio, 2 / 1.0625))
for k in ("gemm_s", "attention_s"):
    if len({o[r][k] for r in o}) != 1:
        bad.append("%s moved with the recipe" % k)
if [j[r]["workload"]["fp8_recipe"] for r in ("delayed", "tensorwise", "blockwise")] != ["delayed", "tensorwise", "blockwise"]:
    bad.append("the JSON's fp8_recipe")
print("; ".join(bad) or "ok")
P
expect_eq "FP8 recipes: the casts' bytes" "$(cat "$TMP/fp8.out")" ok
# ---- the new keys' rules: each refused at its key, file:line:col -------------------------------
bad_key() {  # NAME MODEL-EXTRA WORKLOAD-EXTRA PATTERN
    cat >"$TMP/bad-$1.yaml" <<EOF
name: bad
cluster: {gpus: 16, node: dgx-h100}
workload:
  model: {name: qwen3-30b-a3b$2}
  gpu: h100$3
EOF
    "$RAILYARD" model "$TMP/bad-$1.yaml" >/dev/null 2>"$TMP/bad.err"
    expect_eq "$1: exit" $? 1
    grep -q "bad-$1.yaml:[0-9]*:[0-9]*: error: .*$4" "$TMP/bad.err" && ok ||
        fail "$1: $(cat "$TMP/bad.err")"
    no_sanitizer "$TMP/bad.err"
}
bad_key rope-big ", kv_lora_rank: 512, qk_rope_head_dim: 1000" "" "qk_rope_head_dim (1000) must be less than the head's 128"
bad_key q-lora-alone ", q_lora_rank: 512" "" "q_lora_rank needs kv_lora_rank"
bad_key head-huge ", head_dim: 1000000" "" "attention projections hold .* more than the model's"
bad_key window-layers ", window_layers: 10" "" "window_layers needs a window"
bad_key mtp-deep ", mtp_layers: 1000" "" "mtp_layers (1000) must be at most the model's 48 layers"
bad_key recipe-bf16 "" "
  precision: bf16
  fp8_recipe: mxfp8" "fp8_recipe is how FP8 GEMM inputs are scaled, and the workload's precision is bf16"
bad_key stages-pp1 "" "
  parallelism: {pipeline: 1, first_stage_layers: 10}" "need pipeline stages, and pipeline is 1"
bad_key stages-two "" "
  parallelism: {pipeline: 2, first_stage_layers: 40, last_stage_layers: 4}" "with two pipeline stages, first_stage_layers (40) and last_stage_layers (4) must be the 48 blocks"
bad_key mxfp8-hopper "" "
  precision: fp8
  fp8_recipe: mxfp8" "mxfp8 needs tensor cores that take microscaled blocks, and the h100's do not"
bad_key etp-domain "" "
  parallelism: {expert: 8, expert_tensor: 16}" "expert_tensor (16) must divide the HB domain size 8"
bad_key etp-hidden "" "
  parallelism: {expert: 8, expert_tensor: 5}" "expert_tensor (5) must divide the experts' hidden size 768"
# ---- expert tensor parallelism --------------------------------------------------------------
# Qwen3-30B-A3B on 16 H100, EP 8, with and without ETP 2: each expert's
# weights over 16 GPUs, not 8: the 16-bit weights per GPU fall by
# 2 x P_e (1/8 - 1/16), P_e = 3 d_model f_e experts blocks computed here;
# a routed expert's GEMMs take twice the rows; the layout says ETP 2.
for e in 1 2; do
cat >"$TMP/etp.yaml" <<EOF
name: etp
cluster: {gpus: 16, node: dgx-h100}
workload:
  model: qwen3-30b-a3b
  gpu: h100
  batch: 64
  recompute: none
  parallelism: {tensor: 1, pipeline: 1, context: 1, data: 16, micro_batch: 1, expert: 8, expert_tensor: $e}
EOF
"$RAILYARD" model "$TMP/etp.yaml" -f json --explain >"$TMP/etp-$e.json" 2>"$TMP/etp.err"
expect_eq "expert_tensor $e: exit" $? 0
done
"$PY" - "$TMP/etp-1.json" "$TMP/etp-2.json" <<'P' >"$TMP/etp.out"
import json, re, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
pe = 3 * 2048 * 768 * 128 * 48
got = a["memory"]["weights_bytes"] - b["memory"]["weights_bytes"]
if abs(got - 2 * pe * (1 / 8 - 1 / 16)) > 1e-6 * pe:
    bad.append("weights fell by %r, want %r" % (got, 2 * pe * (1 / 8 - 1 / 16)))
rows = [int(re.search(r"\((\d+) tokens an expert", [e for e in j["explain"] if e["term"].startswith("GEMMs")][0]["from"]).group(1)) for j in (a, b)]
if rows[1] != 2 * rows[0]:
    bad.append("rows an expert %r" % rows)
if "x EP 8 x ETP 2," not in b["layout"]["text"] or "ETP" in a["layout"]["text"]:
    bad.append("layouts %r / %r" % (a["layout"]["text"], b["layout"]["text"]))
print("; ".join(bad) or "ok")
P
expect_eq "expert tensor parallelism" "$(cat "$TMP/etp.out")" ok
"$RAILYARD" model "$TOP_SRCDIR/examples/search-h100.yaml" >"$TMP/noex.txt" 2>&1
grep -q "^Where the terms come from" "$TMP/noex.txt" && fail "the section without --explain" || ok
finish
