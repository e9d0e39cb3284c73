#!/bin/sh
# One training layout everywhere: model, traffic, optimize, whatif and sweep
# print the layout the full model chooses (TP x CP x PP with its chunks x DP
# x EP, idle GPUs, recomputation) in the same words, for Llama 3 405B on
# 16,384 H100 (a SuperPOD of 2,048 DGX H100) and on 2,048: the words of
# `model --format json`, checked here against its own sizes; --paper keeps
# eq. 1's. traffic's pipeline point-to-point bytes (per pair, on the network,
# on the links) and the model's point-to-point term against a closed form
# computed here; a layout whose domains hold whole stages, on rail-optimized
# and rail-only; and the same refusal as model when nothing fits the GPU's
# memory.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

# The 16,384-GPU SuperPOD: examples/superpod-4su.yaml with 2,048 nodes.
sed -e 's/^  nodes: 127 .*/  nodes: 2048/' -e 's/^name: superpod-4su/name: llama-16k/' \
    "$TOP_SRCDIR/examples/superpod-4su.yaml" >"$TMP/l16k.yaml"
printf 'workload:\n  model: llama-3-405b\nlibra:\n  budget: 500\n' >>"$TMP/l16k.yaml"
cp "$TOP_SRCDIR/tests/data/model/llama-h100.yaml" "$TMP/l2k.yaml"
printf 'libra:\n  budget: 500\n' >>"$TMP/l2k.yaml"

# words FILE: the layout's words of a text report (its "layout: " line)
words() {  # the text groups thousands ("DP 2,048"); JSON and CSV do not
    sed -n 's/^layout: //p' "$1" | sed 's/\([0-9]\),\([0-9][0-9][0-9]\)/\1\2/g'
}
# jwords FILE: the same from a JSON report
jwords() {
    "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["layout"]["text"])' "$1"
}
# cwords FILE: the last column of sweep.csv's first row
cwords() {
    "$PY" -c 'import csv, sys; print(list(csv.DictReader(open(sys.argv[1])))[0]["layout"])' "$1"
}

# owords FILE: the words a model JSON's optimum and memory give, built here
# (doc/railyard.1: TP t x [CP c x ]PP p[ (v chunks per GPU)] x DP d x EP e[,
# n GPUs idle], R recomputation (the full model's choice))
owords() {
    "$PY" - "$1" <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
o = j["optimum"]
w = "TP %d x " % o["tensor"]
if o["context"] > 1:
    w += "CP %d x " % o["context"]
w += "PP %d" % o["pipeline"]
if o["virtual"] > 1:
    w += " (%d chunks per GPU)" % o["virtual"]
w += " x DP %d x EP %d" % (o["data"], o["expert"])
idle = j["constants"]["N"] - o["gpus"]
if o["gpus"] != o["tensor"] * o["context"] * o["pipeline"] * o["data"] or idle < 0:
    w += " (GPUs %r)" % o["gpus"]
if idle:
    w += ", %d GPUs idle" % idle
rc = j["memory"]["recompute"]
print(w + ", %s recomputation (the full model's choice)" % ("no" if rc == "none" else rc))
P
}

# agree NAME SPEC PAPER(0|1) [WANT]: every command's layout is WANT's (the
# full model: model's own, checked against its optimum)
agree() {
    n=$1 spec=$2 paper=$3 want=${4:-}
    p=""
    [ "$paper" = 1 ] && p=--paper
    # shellcheck disable=SC2086
    {
        "$RAILYARD" model $p "$spec" >"$TMP/$n-model.txt" 2>"$TMP/$n.err"
        expect_eq "$n: model exit" $? 0
        "$RAILYARD" model $p --format json "$spec" >"$TMP/$n-model.json" 2>>"$TMP/$n.err"
        if [ "$paper" = 0 ]; then
            want=$(jwords "$TMP/$n-model.json")
            expect_eq "$n: model json's words are its optimum's" "$(owords "$TMP/$n-model.json")" "$want"
            echo "$n: $want"
        fi
        "$RAILYARD" traffic $p "$spec" >"$TMP/$n-traffic.txt" 2>>"$TMP/$n.err"
        expect_eq "$n: traffic exit" $? 0
        "$RAILYARD" traffic $p --format json "$spec" >"$TMP/$n-traffic.json" 2>>"$TMP/$n.err"
        "$RAILYARD" whatif $p "$spec" --fail leaf0 >"$TMP/$n-whatif.txt" 2>>"$TMP/$n.err"
        expect_eq "$n: whatif exit" $? 0
        "$RAILYARD" whatif $p --format json "$spec" --fail leaf0 >"$TMP/$n-whatif.json" 2>>"$TMP/$n.err"
        "$RAILYARD" sweep $p "$spec" --vary workload.batch=2048 >"$TMP/$n-sweep.csv" 2>>"$TMP/$n.err"
        expect_eq "$n: sweep exit" $? 0
    }
    no_sanitizer "$TMP/$n.err"
    expect_eq "$n: model" "$(words "$TMP/$n-model.txt")" "$want"
    expect_eq "$n: model json" "$(jwords "$TMP/$n-model.json")" "$want"
    expect_eq "$n: traffic" "$(words "$TMP/$n-traffic.txt")" "$want"
    expect_eq "$n: traffic json" "$(jwords "$TMP/$n-traffic.json")" "$want"
    expect_eq "$n: whatif" "$(words "$TMP/$n-whatif.txt")" "$want"
    expect_eq "$n: whatif json" "$(jwords "$TMP/$n-whatif.json")" "$want"
    expect_eq "$n: sweep" "$(cwords "$TMP/$n-sweep.csv")" "$want"
    if [ "$paper" = 0 ]; then   # optimize has no --paper: it takes the full model's
        "$RAILYARD" optimize "$spec" >"$TMP/$n-optimize.txt" 2>>"$TMP/$n.err"
        expect_eq "$n: optimize exit" $? 0
        "$RAILYARD" optimize --format json "$spec" >"$TMP/$n-optimize.json" 2>>"$TMP/$n.err"
        expect_eq "$n: optimize" "$(words "$TMP/$n-optimize.txt")" "$want"
        expect_eq "$n: optimize json" "$(jwords "$TMP/$n-optimize.json")" "$want"
    fi
    # nothing falls back to another layout, and nothing says so
    if grep -q "one-stage\|mapping the layout of eq. 1" "$TMP/$n.err"; then
        fail "$n: a fallback: $(cat "$TMP/$n.err")"
    else
        ok
    fi
}

# The full model's own choices (context parallel and interleaved stages
# among them), and with the context and the chunks fixed to 1 (the layouts
# the point-to-point checks below map).
agree l16k "$TMP/l16k.yaml" 0
agree l2k "$TMP/l2k.yaml" 0
for n in l16k l2k; do
    sed 's/^workload:$/workload:\n  parallelism: {context: 1, virtual: 1}/' "$TMP/$n.yaml" >"$TMP/$n-c1.yaml"
    grep -q 'parallelism: {context: 1, virtual: 1}' "$TMP/$n-c1.yaml" || fail "$n-c1: not pinned"
    agree "$n-c1" "$TMP/$n-c1.yaml" 0
done
# --paper: eq. 1's one stage, TP 8 (the 16k case) and TP 2 (2,048), no memory limit
agree l16k-paper "$TMP/l16k.yaml" 1 "TP 8 x PP 1 x DP 2048 x EP 1, no recomputation (eq. 1's choice, --paper)"
agree l2k-paper "$TMP/l2k.yaml" 1 "TP 2 x PP 1 x DP 1024 x EP 1, no recomputation (eq. 1's choice, --paper)"
# the full model's choices have pipeline stages: the layout words are not
# eq. 1's one stage
for n in l16k l2k l16k-c1 l2k-c1; do
    expect_eq "$n: pipeline stages" "$("$PY" -c 'import json, sys
print(json.load(open(sys.argv[1]))["optimum"]["pipeline"] > 1)' "$TMP/$n-model.json")" True
done

# ---- the pipeline's point-to-point against a closed form ----------------------------
# pp MODEL.json TRAFFIC.json LINKS.csv: checks traffic's pp bytes and the
# model's term. Per micro-batch one activation of seq x mb / CP tokens x
# d_model elements (16-bit: the model keeps communication 16-bit, FP8 runs
# too), split over the TP group's GPUs, crosses every stage boundary forward
# and its gradient backward. The model's term (doc/llm-model.md): a GPU
# sends 2 v m of them (v m with two stages of one chunk: one way), m =
# ceil(ceil(B / DP) / mb), at the network's one-way
# rate x 0.9 (or NVLink's, half the catalog's both-ways figure, x 0.8).
# traffic maps one chunk per GPU without context groups: per iteration
# 2 x (PP-1) x (TP x DP GPUs per stage) x m activations; on the network the
# boundaries whose stages are in different HB domains.
pp() {
    "$PY" - "$1" "$2" "$3" <<'P'
import csv, json, sys
m = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
o = m["optimum"]; c = m["constants"]
TP, PP, DP, CP, v = o["tensor"], o["pipeline"], o["data"], o["context"], o["virtual"]
B, seq, h = m["workload"]["batch"], m["model"]["seq_len"], m["model"]["d_model"]
mb = o["micro_batch"]
mbs = -(-(-(-B // DP)) // mb)
bad = []
def eq(what, a, b):
    if abs(a - b) > 1e-9 * max(abs(a), abs(b), 1):
        bad.append("%s: %r, want %r" % (what, a, b))
eq("micro-batches", o["micro_batches"], mbs)
x = seq * mb / CP * h * 2 / TP              # one activation, one GPU of the group
bw = c["B_S"] * 0.9 if o["p2p_cross_domain"] else c["B_F"] / 2 * 0.8
ways = 2 if PP > 2 or v > 1 else 1         # two stages of one chunk: each GPU sends one way
eq("the model's p2p term", o["pp_s"] * bw, ways * v * mbs * x)
if CP != 1 or v != 1:
    bad.append("traffic maps CP 1 and one chunk per GPU; the layout has CP %d, %d chunks" % (CP, v))
K, N, td = c["K"], o["gpus"], TP * DP
closed = 2 * (PP - 1) * td * mbs * x
eq("pp bytes per iteration", t["types"]["pp"]["bytes"], closed)
eq("pp pairs", t["types"]["pp"]["pairs"], (PP - 1) * td)
eq("pp bytes per pair, both ways", t["types"]["pp"]["bytes_per_pair"], 2 * mbs * x)
cross = sum(1 for i in range(1, PP) if (i * td) // K != (i * td - 1) // K)
eq("pp bytes on the network", t["network"]["pp_bytes"], 2 * cross * td * mbs * x)
eq("pp flows (one plane)", t["network"]["pp_flows"], 2 * cross * td)
# links.csv: what GPUs put on their uplinks is the network's bytes (DP stage 1 and pp)
up = sum(float(r["bytes_up"]) for r in csv.DictReader(open(sys.argv[3])) if r["tier"] == "1")
# (links.csv prints whole bytes: a relative 1e-6)
if abs(up - t["network"]["bytes"]) > 1e-6 * t["network"]["bytes"]:
    bad.append("gpu uplinks carry the network bytes: %r, want %r" % (up, t["network"]["bytes"]))
# DP stage 1 on the network: each GPU sends its N_Df - 1 peers 2 x blocks x S_T / (TP DP),
# S_T a block's gradients: its parameters (the model's block) in the reduction's bytes
blk = m["block"]
S_T = (blk["dense_parameters"] + blk["expert_parameters"] * TP / o["expert"]) * m["gradient_bytes"]
dp = N * (o["dp_cross"] - 1) * 2 * o["blocks_per_stage"] * S_T / (TP * DP)
eq("dp stage 1 plus pp is the network's", t["network"]["bytes"], dp + t["network"]["pp_bytes"])
print("; ".join(bad) if bad else "ok %.1f TB" % (closed / 1e12))
P
}
for n in l16k-c1 l2k-c1; do
    "$RAILYARD" traffic "$TMP/$n.yaml" --format json -o "$TMP/$n-out" >/dev/null 2>"$TMP/$n-o.err"
    expect_eq "$n: traffic -o exit" $? 0
    r=$(pp "$TMP/$n-model.json" "$TMP/$n-traffic.json" "$TMP/$n-out/links.csv")
    case $r in ok*) ok ;; *) fail "$n: pipeline point-to-point: $r" ;; esac
    # the text's total is the closed form's
    expect_eq "$n: activations and gradients between stages" \
        "$(grep 'PP (pipeline, adjacent stages)' "$TMP/$n-traffic.txt" | awk '{print $(NF-2), $(NF-1)}')" "${r#ok }"
done
# --paper has one stage: no pipeline traffic
expect_eq "l16k --paper: no pp pairs" \
    "$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["types"]["pp"]["pairs"])' "$TMP/l16k-paper-traffic.json")" 0

# A domain holding whole stages (HB domain 64, TP 2 x CP 1 x PP 16 x DP 16: two
# stages a domain, 7 of the 15 boundaries cross domains). On rail-only the
# crossing pairs are on different rails: forwarded over NVLink to the
# receiver's rail first, then routed on that rail.
for d in rail-optimized rail-only; do
    set -- --set cluster.hb_domain=64 --set workload.parallelism.tensor=2 \
        --set workload.parallelism.pipeline=16 --set workload.parallelism.context=1 \
        --set workload.parallelism.virtual=1 --set fabric.design=$d
    "$RAILYARD" "$@" model --format json "$TOP_SRCDIR/tests/data/model/small.yaml" >"$TMP/w-$d-model.json" 2>"$TMP/w.err"
    expect_eq "whole stages $d: model exit" $? 0
    "$RAILYARD" "$@" traffic --format json -o "$TMP/w-$d" "$TOP_SRCDIR/tests/data/model/small.yaml" \
        >"$TMP/w-$d-traffic.json" 2>>"$TMP/w.err"
    expect_eq "whole stages $d: traffic exit" $? 0
    no_sanitizer "$TMP/w.err"
    expect_eq "whole stages $d: layout" "$(jwords "$TMP/w-$d-traffic.json")" \
        "TP 2 x PP 16 x DP 16 x EP 1, no recomputation (the full model's choice)"
    r=$(pp "$TMP/w-$d-model.json" "$TMP/w-$d-traffic.json" "$TMP/w-$d/links.csv")
    case $r in ok*) ok ;; *) fail "whole stages $d: pipeline point-to-point: $r" ;; esac
    # heatmap.csv lists pp pairs: GPU g and g + 32 (TP 2 x DP 16 a stage)
    expect_eq "whole stages $d: heatmap pairs" \
        "$(awk -F, '$3 == "pp" && $2 - $1 != 32 { bad++ } $3 == "pp" { n++ } END { print n + 0, bad + 0 }' "$TMP/w-$d/heatmap.csv")" "224 0"
done

# ---- nothing fits: every command refuses as model does ------------------------------
for c in model traffic optimize; do
    "$RAILYARD" --set cluster.nodes=4 "$c" "$TMP/l16k.yaml" >/dev/null 2>"$TMP/nf-$c.err"
    expect_eq "no fit: $c exit" $? 1
done
"$RAILYARD" --set cluster.nodes=4 whatif "$TMP/l16k.yaml" --fail rail0 >/dev/null 2>"$TMP/nf-whatif.err"
expect_eq "no fit: whatif exit" $? 1
grep -q "no layout of llama-3-405b fits the h100's 85.9 GB (80 GB HBM, in GiB)" "$TMP/nf-model.err" && ok ||
    fail "no fit: model's reason: $(cat "$TMP/nf-model.err")"
for c in traffic optimize whatif; do
    expect_eq "no fit: $c says model's reason" "$(grep 'error:' "$TMP/nf-$c.err")" \
        "$(grep 'error:' "$TMP/nf-model.err")"
done
finish
