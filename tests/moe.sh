#!/bin/sh
# Mixture of experts: the expert all-to-all of `railyard model` and
# `railyard traffic` against numbers computed here from the catalog
# (templates/llms.yaml, gpus.yaml) and the placement doc/llm-model.md
# states: the bytes of one block by hand, every byte sent received once and
# equal to the model's, the pairs counted one by one, forwarding only over
# links `railyard cabling` lists and never across rails on rail-only, the
# slowdown's sign and size, none where EP groups sit on one rail, dense
# models without the term. The bytes are compared in paper mode (--paper),
# where model and traffic take the same layout; the full model's search
# may choose pipeline stages that traffic does not map.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/moe"
T="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"
S="$D/qwen-ro.yaml"

for d in rail-only rail-optimized; do
    "$RAILYARD" --set fabric.design=$d model --paper --format json "$S" >"$TMP/$d.model.json" 2>"$TMP/err"
    expect_eq "model $d exit" $? 0
    no_sanitizer "$TMP/err"
    "$RAILYARD" --set fabric.design=$d traffic --paper --format json "$S" -o "$TMP/$d" >"$TMP/$d.traffic.json" 2>"$TMP/err"
    expect_eq "traffic $d exit" $? 0
    no_sanitizer "$TMP/err"
done
"$RAILYARD" cabling "$S" -o "$TMP/cab" >/dev/null 2>"$TMP/err"
expect_eq "cabling exit" $? 0

"$PY" - "$T" "$TMP" >"$TMP/chk" <<'P'
import csv, json, sys, yaml
T, tmp = sys.argv[1:]
llm = yaml.safe_load(open(T + "/llms.yaml"))["llms"]["qwen3-235b-a22b"]
gpu = yaml.safe_load(open(T + "/gpus.yaml"))["gpus"]["h100"]
moe = llm["moe"]
N, K, NM, E, R = 256, 8, 2, 64, 8          # the spec: tensor 2, expert 64, rails = K
byt = {"bf16": 2, "fp16": 2, "fp8": 1}[llm["precision"]]
b = llm["batch"] * llm["seq_len"]
t = b / N
V = t * moe["top_k"] * llm["d_model"] * byt          # one GPU, one block, one all-to-all
blocks = (llm["layers"] - moe.get("dense_layers", 0)) // moe.get("every", 1)
passes = 4                                             # dispatch + combine, forward + backward
NDs = K // NM
Ein = min(E, NDs)
pair = V / E * passes * blocks                         # one member to another, per iteration
BF = float(gpu["nvlink"].rstrip("T")) * 1e12 / 8
BS = 400e9 / 8
bad = []
def close(what, got, want, tol=1e-9):
    if abs(got - want) > tol * max(abs(want), 1):
        bad.append("%s: got %r, want %r" % (what, got, want))

# The placement, member by member: DP rank q = domain * NDs + rank / NM.
def gpu_of(q, p):
    return (q // NDs) * K + (q % NDs) * NM + p
groups = []
for p in range(NM):
    for q0 in range(0, N // NM, E):
        groups.append([gpu_of(q, p) for q in range(q0, q0 + E)])
assert sorted(g for gr in groups for g in gr) == list(range(N))
cnt = {"nvlink": 0, "same_rail": 0, "cross_rail": 0}
for gr in groups:
    for s in gr:
        for d in gr:
            if s == d:
                continue
            if s // K == d // K:
                cnt["nvlink"] += 1
            elif (s % K) % R == (d % K) % R:
                cnt["same_rail"] += 1
            else:
                cnt["cross_rail"] += 1
total = N * (E - 1) * pair

for design in ("rail-only", "rail-optimized"):
    m = json.load(open("%s/%s.model.json" % (tmp, design)))["moe"]
    pb = m["pass_bytes"]
    # one block, one all-to-all, by hand
    close(design + " bytes per block", pb["sent"], V)
    close(design + " NVLink per block", pb["nvlink"], V * (Ein - 1) / E)
    close(design + " network per block", pb["network"], V * (E - Ein) / E)
    close(design + " blocks", m["moe_blocks"], blocks)
    tr = json.load(open("%s/%s.traffic.json" % (tmp, design)))["moe"]
    # every byte sent is received once, and both are the model's
    close(design + " sent", tr["sent"], total)
    close(design + " received", tr["received"], total)
    model_total = N * passes * blocks * (pb["nvlink"] + pb["network"])
    close(design + " model bytes", model_total, total)
    close(design + " network = delivered", tr["delivered"], tr["network"])
    close(design + " network bytes", tr["network"], N * m["rail_optimized"]["network_bytes"])
    for k in cnt:
        if tr["pairs"][k] != cnt[k]:
            bad.append("%s pairs %s: %d, counted %d" % (design, k, tr["pairs"][k], cnt[k]))
    fwd = cnt["cross_rail"] * pair if design == "rail-only" else 0
    close(design + " forwarded", tr["forwarded"], fwd)
    links = list(csv.DictReader(open("%s/%s/a2a-links.csv" % (tmp, design))))
    gpus = list(csv.DictReader(open("%s/%s/a2a-gpus.csv" % (tmp, design))))   # %.9g
    up = sum(float(r["bytes_up"]) for r in links if r["tier"] == "1")
    down = sum(float(r["bytes_down"]) for r in links if r["tier"] == "1")
    close(design + " GPU uplinks", up, tr["network"], 1e-7)
    close(design + " GPU downlinks", down, tr["network"], 1e-7)
    close(design + " forward out", sum(float(g["forward_out"]) for g in gpus), fwd, 1e-7)
    close(design + " forward in", sum(float(g["forward_in"]) for g in gpus), fwd, 1e-7)
    # each GPU by its host and NIC, as the cabling plan names them
    cab = {(r["a_device"], r["a_port"]) for r in csv.DictReader(open(tmp + "/cab/cabling/cabling.csv"))}
    miss = [(g["host"], g["nic"]) for g in gpus if (g["host"], g["nic"]) not in cab]
    if miss or len(gpus) != len({(g["host"], g["nic"]) for g in gpus}):
        bad.append("%s a2a-gpus.csv: %d GPUs not in cabling.csv, e.g. %r" % (design, len(miss), miss[:2]))
    if design == "rail-only":
        # the NVLink hop per GPU is the model's (the busiest forwarder)
        worst = max(float(g["forward_out"]) for g in gpus)
        close("forward per GPU", worst, m["forwarded_bytes"], 1e-7)
        # slowdown: only the forwarding hop is added, over B_F
        ro, opt = m["rail_only"], m["rail_optimized"]
        close("opt time", opt["all_to_all_s"], opt["nvlink_bytes"] / BF + opt["network_bytes"] / BS)
        close("slowdown", m["slowdown"], (m["forwarded_bytes"] / BF) / opt["all_to_all_s"])
        if not (ro["all_to_all_s"] > opt["all_to_all_s"] and 0.01 < m["slowdown"] < 0.15):
            bad.append("slowdown %.4f not in (1%%, 15%%)" % m["slowdown"])
        print("rail-only all-to-all %+.2f%%" % (100 * m["slowdown"]))
        # No link the rail-only fabric does not have: every loaded link is a
        # cable of `railyard cabling`, and GPU links go to their own rail.
        cab = list(csv.DictReader(open(tmp + "/cab/cabling/cabling.csv")))
        pairs = {}
        for c in cab:
            pairs[(c["a_device"], c["z_device"])] = c
            pairs[(c["z_device"], c["a_device"])] = c
        rail_of_sw = {}
        for c in cab:
            if c["tier"] == "1":
                rail_of_sw.setdefault(c["z_device"], set()).add(c["rail"])
        used = 0
        for r in links:
            if float(r["bytes_up"]) + float(r["bytes_down"]) == 0:
                continue
            used += 1
            lo, hi = r["lower"], r["upper"]
            if r["tier"] == "1":
                # a GPU's end is its host and NIC, mlx5_<i> for GPU i of the
                # node (a custom node model), as cabling.csv names it
                g = (int(lo[4:]) - 1) * 8 + int(r["lower_port"][5:])
                c = pairs.get((lo, hi))
                if not c or c["a_port"] != r["lower_port"] or int(c["rail"]) != (g % K) % R:
                    bad.append("loaded link %s-%s is not a cable of rail %d" % (lo, hi, g % K))
            elif (lo, hi) not in pairs:
                bad.append("loaded link %s-%s is not a cable" % (lo, hi))
        rails = [s for s in rail_of_sw.values() if len(s) != 1]
        if rails:
            bad.append("a rail-only leaf serves several rails: %s" % rails)
        if used == 0:
            bad.append("no link carries the all-to-all")
print("\n".join(bad) if bad else "ok")
P
sed '$d' "$TMP/chk"
expect_eq "all-to-all bytes, pairs, links and slowdown" "$(tail -n 1 "$TMP/chk")" ok

# Tensor parallelism over the whole domain: each group holds one GPU per
# domain, all of one rank, so on one rail: nothing to forward.
"$RAILYARD" --set workload.parallelism.tensor=8 --set workload.parallelism.expert=32 \
    model --paper --format json "$S" >"$TMP/tp8.json" 2>"$TMP/err"
expect_eq "tp8 exit" $? 0
expect_eq "tp8 slowdown" "$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1]))["moe"]; print(m["slowdown"], m["forwarded_bytes"], m["ep_per_domain"])' "$TMP/tp8.json")" "0.0 0.0 1"

# Dense models get no term, and their numbers do not move.
"$RAILYARD" model --format json "$TOP_SRCDIR/tests/data/model/small.yaml" >"$TMP/dense.json" 2>"$TMP/err"
expect_eq "dense exit" $? 0
expect_eq "dense has no moe" "$("$PY" -c 'import json,sys; print("moe" in json.load(open(sys.argv[1])))' "$TMP/dense.json")" False
"$RAILYARD" model "$TOP_SRCDIR/tests/data/model/small.yaml" >"$TMP/dense.txt" 2>&1
if grep -q "Mixture of experts" "$TMP/dense.txt"; then fail "dense text has a MoE section"; else ok; fi

# An expert-parallel size that does not fit the tensor-parallel size: eq. 1
# places expert groups on the data-parallel GPUs of one tensor position,
# 64 domains of N_Ds = 2 where the cluster has 32.
sed 's/tensor: 2, expert: 64/tensor: 4, expert: 128/' "$S" >"$TMP/bad.yaml"
"$RAILYARD" model --paper "$TMP/bad.yaml" >"$TMP/out" 2>"$TMP/err"
expect_eq "bad EP exit" $? 1
if grep -qE '^.*bad\.yaml:[0-9]+:[0-9]+: error: workload\.parallelism\.expert \(128\) spans 64 HB domains' "$TMP/err"; then ok; else fail "bad EP message: $(cat "$TMP/err")"; fi
[ -s "$TMP/out" ] && fail "bad EP: wrote output" || ok
# The full model places them inside a pipeline stage (its t c d GPUs, across
# tensor positions): TP 4 x CP 1 x DP 16 is a stage of 64 GPUs, too few for
# 128; the largest size it places is 64 (it divides the 128 experts and 64).
sed 's/tensor: 2, expert: 64/tensor: 4, data: 16, context: 1, expert: 128/' "$S" >"$TMP/bad2.yaml"
"$RAILYARD" model "$TMP/bad2.yaml" >"$TMP/out" 2>"$TMP/err"
expect_eq "bad EP (full model) exit" $? 1
if grep -qE '^.*bad2\.yaml:[0-9]+:[0-9]+: error: workload\.parallelism\.expert \(128\) must divide the 128 routed experts and the GPUs of one pipeline stage .*the largest size that fits is 64$' "$TMP/err"; then ok; else fail "bad EP (full model) message: $(cat "$TMP/err")"; fi
[ -s "$TMP/out" ] && fail "bad EP (full model): wrote output" || ok
# ... and places 128 when the stage may grow to 128 GPUs (data left to auto).
sed 's/tensor: 2, expert: 64/tensor: 4, context: 1, expert: 128/' "$S" >"$TMP/ok2.yaml"
"$RAILYARD" model --format json "$TMP/ok2.yaml" >"$TMP/ok2.json" 2>"$TMP/err"
expect_eq "EP 128 in a stage of 128 or more GPUs" "$("$PY" -c 'import json,sys; o=json.load(open(sys.argv[1]))["optimum"]; print(o["expert"], (o["tensor"] * o["context"] * o["data"]) % 128)' "$TMP/ok2.json")" "128 0"

# The catalog's MoE models on the bundled example (examples/moe-h100.yaml).
for llm in mixtral-8x22b deepseek-v3 qwen3-235b-a22b; do
    "$RAILYARD" --set workload.model=$llm model --format json "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/$llm.json" 2>"$TMP/err"
    expect_eq "$llm exit" $? 0
    no_sanitizer "$TMP/err"
    s=$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1]))["moe"]; print("ok" if 0 <= m["slowdown"] < 0.2 else m["slowdown"])' "$TMP/$llm.json")
    expect_eq "$llm slowdown in [0, 20%)" "$s" ok
done
# The bundled MoE example in the full model: its fastest layout has pipeline
# stages, and traffic maps that layout (the one `model` reports), not eq. 1's.
"$RAILYARD" traffic --format json "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/ex.json" 2>"$TMP/ex.err"
expect_eq "traffic on examples/moe-h100.yaml exit" $? 0
"$RAILYARD" model --format json "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/exm.json" 2>/dev/null
expect_eq "traffic maps the model's layout" \
    "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["layout"])' "$TMP/ex.json")" \
    "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["layout"])' "$TMP/exm.json")"
if grep -q "one-stage\|eq. 1" "$TMP/ex.err"; then fail "traffic falls back: $(cat "$TMP/ex.err")"; else ok; fi
"$RAILYARD" traffic --paper --format json "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/exp.json" 2>/dev/null
cmp -s "$TMP/ex.json" "$TMP/exp.json" && fail "the full model's traffic is eq. 1's" || ok
# The full model (the default): its iteration time already holds the
# all-to-all's exposed part (optimum.moe_s, moe.in_iteration_s); each
# design's "with the all-to-all" is the iteration without that part plus the
# design's all-to-all, so the spec's own design (its all-to-all exposed
# whole here) gives the iteration itself: nothing counted twice. The text
# says the iteration holds it.
"$RAILYARD" model --format json "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/full.json" 2>"$TMP/full.err"
expect_eq "model (full) on examples/moe-h100.yaml exit" $? 0
"$PY" - "$TMP/full.json" >"$TMP/full.out" <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
T, m, exp = j["optimum"]["total_s"], j["moe"], j["optimum"]["moe_s"]
if abs(m["in_iteration_s"] - exp) > 1e-9 * max(exp, 1e-9):
    print("FAIL: in_iteration_s %r, the optimum's moe_s %r" % (m["in_iteration_s"], exp))
for d in ("rail_only", "rail_optimized"):
    x = m[d]
    want = T - exp + x["all_to_all_s"]
    if abs(x["t_iter_with_a2a_s"] - want) > 1e-9 * want:
        print("FAIL: %s: with the all-to-all %r, want %r" % (d, x["t_iter_with_a2a_s"], want))
own = m[m["design"].replace("-", "_")]
if exp >= own["all_to_all_s"] * (1 - 1e-9) and abs(own["t_iter_with_a2a_s"] - T) > 1e-9 * T:
    print("FAIL: the spec's design with its all-to-all %r, the iteration %r" % (own["t_iter_with_a2a_s"], T))
P
grep FAIL "$TMP/full.out" && fail "full model: the all-to-all counted once" || ok
"$RAILYARD" model "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/full.txt" 2>/dev/null
grep -q "^Mixture of experts (expert all-to-all: the iteration time above holds its exposed part" \
    "$TMP/full.txt" && ok || fail "full model: the MoE section does not say the iteration holds it"
grep -q "iteration time + all-to-all" "$TMP/full.txt" && fail "full model: the all-to-all added again" || ok
# ---- the full model's all-to-all: inside a stage, with the recomputation chosen, in the headline ----
# Qwen3 on the example: the expert group fits in one stage (t c d GPUs); the
# passes follow the recomputation the model runs (6 with full, 4 otherwise,
# whatever the spec's own setting: selective recomputes no expert); the
# iteration time, tokens per second and MFU include the exposed all-to-all.
for rc in none selective full; do
    "$RAILYARD" --set workload.model=qwen3-235b-a22b --set workload.recompute=$rc model \
        --format json "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/rc-$rc.json" 2>"$TMP/err"
    expect_eq "qwen3 recompute $rc: exit" $? 0
done
"$PY" - "$TMP" <<'P' >"$TMP/hl.out"
import json, sys
for rc in ("none", "selective", "full"):
    j = json.load(open("%s/rc-%s.json" % (sys.argv[1], rc)))
    o, x = j["optimum"], j["moe"]
    want = 6 if rc == "full" else 4
    if j["memory"]["recompute"] != rc:
        print("FAIL: %s: the model ran %s" % (rc, j["memory"]["recompute"]))
    if x["passes"] != want:
        print("FAIL: %s: %d all-to-all passes, want %d" % (rc, x["passes"], want))
    stage = o["tensor"] * o["context"] * o["data"]
    if not (1 < o["expert"] <= stage and stage % o["expert"] == 0 and x["expert_parallel"] == o["expert"]):
        print("FAIL: %s: expert group %d (moe: %d) not inside a stage of %d GPUs"
              % (rc, o["expert"], x["expert_parallel"], stage))
    parts = sum(o[k] for k in ("compute_s", "bubble_s", "tp_s", "cp_s", "moe_s", "pp_s",
                               "dp_in_s", "dp_cross_s"))
    if not o["moe_s"] > 0 or abs(parts - o["total_s"]) > 1e-9 * o["total_s"]:
        print("FAIL: %s: total %r is not its terms %r (all-to-all %r)" % (rc, o["total_s"], parts, o["moe_s"]))
    tokens = j["workload"]["batch_tokens"]
    if abs(j["tokens_per_s"] * o["total_s"] - tokens) > 1e-6 * tokens:
        print("FAIL: %s: tokens per second leave the all-to-all out" % rc)
    print("%s: EP %d in a stage of %d GPUs, %d passes, all-to-all %.3f s of %.3f s"
          % (rc, o["expert"], stage, x["passes"], o["moe_s"], o["total_s"]))
P
cat "$TMP/hl.out"
grep FAIL "$TMP/hl.out" && fail "the all-to-all in the full model" || ok
# whatif keeps the model's iteration: its time before a failure is model's,
# all-to-all included, and the text says the all-to-all is in it.
"$RAILYARD" model --format json "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/wm.json" 2>"$TMP/err" &&
    "$RAILYARD" whatif --format json "$TOP_SRCDIR/examples/moe-h100.yaml" --fail leaf0 \
        >"$TMP/wf.json" 2>>"$TMP/err" &&
    "$RAILYARD" whatif "$TOP_SRCDIR/examples/moe-h100.yaml" --fail leaf0 >"$TMP/wf.txt" 2>>"$TMP/err"
expect_eq "whatif on a MoE model: exit" $? 0
expect_eq "whatif's time before is model's, all-to-all included" \
    "$("$PY" -c 'import json, sys; m = json.load(open(sys.argv[1])); w = json.load(open(sys.argv[2])); t = w["training"]; print(abs(t["t_iter_before_s"] - m["optimum"]["total_s"]) <= 1e-9 * m["optimum"]["total_s"] and m["optimum"]["moe_s"] > 0)' "$TMP/wm.json" "$TMP/wf.json")" True
grep -q "the times include deepseek-v3's expert all-to-all" "$TMP/wf.txt" && ! grep -q "is left out" "$TMP/wf.txt" \
    && ok || fail "whatif's note on the all-to-all: $(grep all-to-all "$TMP/wf.txt")"
finish
