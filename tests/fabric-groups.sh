#!/bin/sh
# What a tapered fabric leaves each collective (doc/llm-model.md,
# "Communication and iteration time"): two pods of four racks (16 GPUs a
# rack, 64 a pod), their cluster switches tapered D:U, 128 GPUs. The
# model's layout numbers ranks tensor first, then context, data, stages;
# the job's ranks fill the pods in order. Closed forms, computed here:
#
#  - tensor 8 x context 2 x data 8, one stage: the context ring (16 GPUs,
#    two HB domains) stays in a pod and keeps the whole network; the
#    data-parallel reduction runs across domains over the G = c d = 16
#    ranks of each tensor position, N / G = 8 rings, each spanning both
#    pods and leaving each pod once: 8 flows against the pod's uplinks,
#    P U / D NICs' worth, so share = min(1, P U / D / 8), and the exposed
#    data-parallel time (overlap.data 0) is the 1:1 fabric's / share;
#  - tensor 8 x data 8 x pipeline 2: a stage fills a pod, so the
#    data-parallel rings stay in it (share 1), and every GPU of a stage
#    sends across the stage boundary out of its pod: the uniform U / D;
#  - the share across the fabric (traffic spread everywhere): U / D.
#
# Those are the analytic shares (--analytic), read from the cluster
# switch's nominal D:U. The flow engine runs on the fabric as built, where
# each of a pod's 4 leaves spreads its 16 uplinks over 16 cluster switches,
# one link each: 16 switches a pod with 4 cables down and U up, so a pod
# leaves with S U links, S = 16. Its closed forms (routing adaptive, the
# even spread): data share min(1, S U / 8), pipeline share min(1, S U / 64).
. "${TOP_SRCDIR:-.}/tests/lib.sh"

spec() {  # UP CONTEXT DATA PIPELINE
    cat <<EOF
version: 1
name: two-pods
cluster:
  gpus: 128
  node: {name: grand-teton, gpus_per_node: 8, nic_speed: 400G}
fabric:
  design: rack-tor
  tiers:
    - {switch: tomahawk4, down: "400G x 16", up: "400G x 16"}
    - {switch: tomahawk4, down: "400G x 16", up: "400G x $1", group: 4}
    - {switch: tomahawk4}
layout:
  nodes_per_rack: 2
workload:
  model: llama-3-8b
  gpu: h100
  batch: 64
  recompute: none
  parallelism: {tensor: 8, context: $2, data: $3, pipeline: $4, virtual: 1, micro_batch: 1}
  overlap: {data: 0, context: 0}
EOF
}

for up in 1 2 3 16; do
    for lay in "2 8 1" "1 8 2"; do
        name="up$up-$(echo "$lay" | tr ' ' -)"
        # shellcheck disable=SC2086
        spec "$up" $lay >"$TMP/$name.yaml"
        "$RAILYARD" model "$TMP/$name.yaml" --analytic --format json >"$TMP/$name.json" 2>"$TMP/$name.err"
        expect_eq "model $name" $? 0
        no_sanitizer "$TMP/$name.err"
        "$RAILYARD" model "$TMP/$name.yaml" --set network.routing=adaptive --format json \
            >"$TMP/$name-engine.json" 2>"$TMP/$name.err"
        expect_eq "model $name on the engine" $? 0
        no_sanitizer "$TMP/$name.err"
    done
done

"$PY" - "$TMP" >"$TMP/out" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
P, D, N, t = 64, 16, 128, 8
bad = []
def load(up, lay):
    return json.load(open("%s/up%d-%s.json" % (tmp, up, lay)))
def near(a, b):
    return abs(a - b) <= 1e-12 * max(1, abs(b))
flat = {lay: load(16, lay) for lay in ("2-8-1", "1-8-2")}
for up in (1, 2, 3):
    uniform = up / D
    # context 2 x data 8, one stage
    j = load(up, "2-8-1")
    c, d = 2, 8
    G = c * d
    flows = N // G                      # one ring per tensor position, each leaving a pod once
    want = min(1.0, P * up / D / flows)
    fs = j["fabric_share"]
    g = fs.get("groups", {})
    o, o1 = j["optimum"], flat["2-8-1"]["optimum"]
    print("U/D %d/%d: data share %.6f (closed form %.6f), context %.6f, uniform %.6f"
          % (up, D, g.get("data", -1), want, g.get("context", -1), fs["share"]))
    if not near(fs["share"], uniform):
        bad.append("up %d: uniform share %r, want %r" % (up, fs["share"], uniform))
    if not near(g.get("data", -1), want):
        bad.append("up %d: data-parallel share %r, want %r" % (up, g.get("data"), want))
    if g.get("context") != 1 or g.get("tensor") != 1:
        bad.append("up %d: a group inside a pod lost bandwidth: %r" % (up, g))
    if not (o["cp_cross_domain"] and o["cp_s"] > 0 and near(o["cp_s"], o1["cp_s"])):
        bad.append("up %d: the context ring (across HB domains, in a pod) moved: %r vs %r"
                   % (up, o["cp_s"], o1["cp_s"]))
    if not (o["dp_cross_s"] > 0 and near(o["dp_cross_s"], o1["dp_cross_s"] / want)):
        bad.append("up %d: data-parallel time %r, want the 1:1 fabric's %r / %r"
                   % (up, o["dp_cross_s"], o1["dp_cross_s"], want))
    # data 8 x pipeline 2: a stage is a pod
    j = load(up, "1-8-2")
    g = j["fabric_share"].get("groups", {})
    o, o1 = j["optimum"], flat["1-8-2"]["optimum"]
    print("U/D %d/%d: stages across pods %.6f (closed form %.6f), data inside a pod %.6f"
          % (up, D, g.get("pipeline", -1), uniform, g.get("data", -1)))
    if not near(g.get("pipeline", -1), uniform):
        bad.append("up %d: pipeline share %r, want %r" % (up, g.get("pipeline"), uniform))
    if g.get("data") != 1 or not near(o["dp_cross_s"], o1["dp_cross_s"]):
        bad.append("up %d: data-parallel rings inside a pod slowed: %r" % (up, g))
    if not near(o["pp_s"], o1["pp_s"] / uniform):
        bad.append("up %d: pipeline time %r, want %r / %r" % (up, o["pp_s"], o1["pp_s"], uniform))
# the engine, on the fabric as built
S = 16
for up in (1, 2, 3, 16):
    for lay, group, flows in (("2-8-1", "data", N // 16), ("1-8-2", "pipeline", P)):
        j = json.load(open("%s/up%d-%s-engine.json" % (tmp, up, lay)))
        shares = j["network"]["shares"]
        want = min(1.0, S * up / flows)
        print("engine U %d, %s: %s share %.6f (closed form %.6f)"
              % (up, lay, group, shares[group], want))
        if abs(shares[group] - want) > 1e-6:  # the engine's rates are single precision
            bad.append("engine up %d %s: %s share %r, want %r" % (up, lay, group, shares[group], want))
        if j["network"]["analytic_phases"] != 0:
            bad.append("engine up %d %s: a phase fell back to the analytic shares" % (up, lay))
for lay, j in flat.items():
    if j["fabric_share"] != {"share": 1, "tier": 2}:
        bad.append("1:1 %s: %r" % (lay, j["fabric_share"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF
expect_eq "shares of the groups: the closed forms" $? 0
cat "$TMP/out"

# The expert all-to-all under a leaf taper, on the engine (doc/network-model.md,
# "The model's phases"). Expert groups are folded: ep consecutive ranks,
# every GPU of ep/8 nodes. DeepSeek-V3 on 16,384 GPUs, rail-optimized,
# leaves of D = 32 GPUs down and U up; tensor 8, expert 64: a group is 8
# nodes, each rail's 8 GPUs under one leaf, the rest of a member's bytes
# over NVLink (PXN): nothing crosses a leaf's uplinks, share 1 at every
# taper. The phase, every group at once, runs whole on the engine, no phase
# kept analytic. Expert parallel 256 (about 3,900,000 flows) is past the
# memory one phase may take (net/collective.h): kept analytic and counted.
# Then Qwen3-30B-A3B on 256 GPUs, leaves of D = 4 nodes down and U up,
# tensor 8, expert 64: a group's 8 nodes span two leaves of each rail. A
# node's NIC on rail r carries what its 8 GPUs send to GPU r of the 7 other
# nodes, equal shares, 8 - D of them beyond the leaf: the leaf's D NICs
# send D (8 - D)/7 NICs' worth over U uplinks, share min(1, 7 U / (D (8 - D))).
dsv3() {  # UP EP
    cat <<EOF
version: 1
name: dsv3-taper
cluster: {gpus: 16384, node: dgx-h100}
fabric:
  design: rail-optimized
  tiers:
    - {switch: qm9700, down: "400G x 32", up: "400G x $1"}
    - {switch: qm9700}
    - {switch: qm9700}
workload:
  model: deepseek-v3
  gpu: h800
  parallelism: {tensor: 8, expert: $2}
EOF
}
for up in 32 16 8 4; do
    dsv3 $up 64 >"$TMP/dsv3-$up.yaml"
    "$RAILYARD" model "$TMP/dsv3-$up.yaml" --format json >"$TMP/dsv3-$up.json" 2>"$TMP/dsv3.err"
    expect_eq "DeepSeek-V3, 16,384 GPUs, 32 down $up up: exit" $? 0
    no_sanitizer "$TMP/dsv3.err"
done
# The layout is the engine's fastest of the candidates it times: at 4:1 no
# slower than the analytic shares' choice (61 stages) timed on the engine.
dsv3 8 64 | sed 's/expert: 64}/expert: 64, pipeline: 61}/' >"$TMP/dsv3-8-pp61.yaml"
"$RAILYARD" model "$TMP/dsv3-8-pp61.yaml" --format json >"$TMP/dsv3-8-pp61.json" 2>"$TMP/dsv3.err"
expect_eq "DeepSeek-V3, 4:1, 61 stages: exit" $? 0
for up in 1 2 4; do
    cat >"$TMP/q-$up.yaml" <<EOF
version: 1
name: qwen-taper
cluster: {gpus: 256, node: dgx-h100}
fabric:
  design: rail-optimized
  tiers:
    - {switch: qm9700, down: "400G x 4", up: "400G x $up"}
    - {switch: qm9700}
workload:
  model: qwen3-30b-a3b
  gpu: h100
  batch: 1024
  parallelism: {tensor: 8, expert: 64}
EOF
    "$RAILYARD" model "$TMP/q-$up.yaml" --format json >"$TMP/q-$up.json" 2>"$TMP/q.err"
    expect_eq "Qwen3-30B-A3B, 256 GPUs, 4 down $up up: exit" $? 0
    no_sanitizer "$TMP/q.err"
done
# A dense model on the same leaves at 8:1 (32 down, 4 up): Llama 3 405B, every size left to
# the model. Its data-parallel and pipeline groups cross the tapered
# leaves, so the layout search times more than the analytic choice on the
# engine.
dsv3 4 64 | sed 's/model: deepseek-v3/model: llama-3-405b/; /gpu: h800/d; /parallelism:/d' \
    >"$TMP/l405-4.yaml"
"$RAILYARD" model "$TMP/l405-4.yaml" --format json >"$TMP/l405-4.json" 2>"$TMP/l405.err"
expect_eq "Llama 3 405B, 16,384 GPUs, 32 down 4 up: exit" $? 0
got=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["network"]["layouts_timed"])' "$TMP/l405-4.json")
[ "$got" -ge 2 ] && ok || fail "Llama 3 405B at 8:1: $got layouts timed on the engine, want 2 or more"
dsv3 16 256 >"$TMP/dsv3-ep256.yaml"
"$RAILYARD" model "$TMP/dsv3-ep256.yaml" --format json >"$TMP/dsv3-ep256.json" 2>"$TMP/dsv3.err"
expect_eq "DeepSeek-V3, expert parallel 256: exit" $? 0
"$PY" - "$TMP" >"$TMP/out" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
D = 32
bad = []
for up in (1, 2, 4):
    j = json.load(open("%s/q-%d.json" % (tmp, up)))
    want = min(1.0, 7 * up / (4 * (8 - 4)))
    got = j["network"]["shares"]["expert"]
    print("Qwen3-30B-A3B, 4 down %d up: expert share %.6f (closed form %.6f), %s"
          % (up, got, want, j["layout"]["text"]))
    if abs(got - want) > 1e-6 or j["network"]["analytic_phases"] != 0:
        bad.append("qwen up %d: expert share %r, want %r (%d analytic)"
                   % (up, got, want, j["network"]["analytic_phases"]))
for up in (32, 16, 8, 4):
    j = json.load(open("%s/dsv3-%d.json" % (tmp, up)))
    net = j["network"]
    t = D / up
    want = 1.0
    got = net["shares"]["expert"]
    print("taper %g:1: expert share %.6f (closed form %.6f), iteration %.4f s, %s"
          % (t, got, want, net["iteration_s"], j["layout"]["text"]))
    if j["layout"]["tp"] != 8 or j["layout"]["ep"] != 64:
        bad.append("up %d: layout %s" % (up, j["layout"]["text"]))
    if abs(got - want) > 1e-6:
        bad.append("up %d: expert share %r, want %r" % (up, got, want))
    if net["analytic_phases"] != 0:
        bad.append("up %d: %d phase(s) kept analytic" % (up, net["analytic_phases"]))
    # the expert all-to-all's own report has the engine's share too: its
    # all-to-all is the iteration's expert term (which this layout exposes
    # whole)
    a2a = j["moe"]["rail_optimized"]["all_to_all_s"]
    if abs(a2a - j["optimum"]["moe_s"]) > 1e-9 * a2a:
        bad.append("up %d: the MoE report's all-to-all %r s, the iteration's %r s"
                   % (up, a2a, j["optimum"]["moe_s"]))
# a fabric with more uplinks is no slower (the candidates the engine times
# do not depend on the taper)
its = [json.load(open("%s/dsv3-%d.json" % (tmp, up)))["network"]["iteration_s"] for up in (32, 16, 8, 4)]
if any(b < a * (1 - 1e-9) for a, b in zip(its, its[1:])):
    bad.append("iterations against the taper not monotone: %r" % its)
free = json.load(open("%s/dsv3-8.json" % tmp))
pinned = json.load(open("%s/dsv3-8-pp61.json" % tmp))
if pinned["layout"]["pp"] != 61:
    bad.append("the pinned layout is %s" % pinned["layout"]["text"])
if not free["network"]["iteration_s"] <= pinned["network"]["iteration_s"] * (1 + 1e-9):
    bad.append("4:1: the engine's layout %r s, slower than 61 stages on the engine %r s"
               % (free["network"]["iteration_s"], pinned["network"]["iteration_s"]))
# (Folded expert groups leave the 4:1 leaves nothing to slow: the analytic
# choice is the engine's, timed alone.)
if free["network"]["layouts_timed"] < 1:
    bad.append("4:1: %r layouts timed on the engine, want 1 or more" % free["network"]["layouts_timed"])
print("4:1: the engine's layout %.3f s (%s), 61 stages on the engine %.3f s; %d layouts timed"
      % (free["network"]["iteration_s"], free["layout"]["text"].split(",")[0],
         pinned["network"]["iteration_s"], free["network"]["layouts_timed"]))
j = json.load(open("%s/dsv3-ep256.json" % tmp))
if j["network"]["analytic_phases"] < 1:    # one a layout the engine re-times
    bad.append("expert parallel 256: analytic_phases %r, want 1 or more"
               % j["network"]["analytic_phases"])
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF
expect_eq "the expert all-to-all under a leaf taper: the closed form, no phase analytic" $? 0
cat "$TMP/out"
finish
