#!/bin/sh
# The full model times its layout's collectives on the flow engine over the
# fabric as built (railyard(1), model; doc/network-model.md):
#  - a non-blocking InfiniBand fabric with adaptive routing keeps every
#    share at 1, and the iteration equals the analytic one (the closed form:
#    nothing contends); its static tables put two of the data-parallel
#    rings' hops out of one leaf on one uplink (the hop that closes a ring
#    and the hop into the next scalable unit): half the NIC's rate, for the
#    layout the analytic shares choose (pinned here); left free, the model
#    takes the layout fastest on the engine, no slower than that one;
#  - on an Ethernet fabric plain ECMP hashes data-parallel rings onto shared
#    uplinks: the data share drops below 1 and the iteration slows; adaptive
#    routing (an even spread) gives the shares back; hashing the queue pair
#    with more queue pairs lies between;
#  - --analytic leaves the engine out;
#  - traffic's link loads come from the engine (below).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

net() {     # net OUT SPEC ARGS...: the model's JSON; prints "data_share iteration analytic"
    out=$1
    shift
    "$RAILYARD" model "$@" -f json >"$TMP/$out.json" 2>"$TMP/$out.err"
    expect_eq "model $out: exit" $? 0
    "$PY" -c '
import json, sys
j = json.load(open(sys.argv[1]))
n = j.get("network")
if n is None:
    print("none", j["optimum"]["total_s"])
else:
    s = n["shares"]
    print(min(s.values()), s["data"], n["iteration_s"], n["analytic_iteration_s"], j["optimum"]["total_s"], n["phases"])
' "$TMP/$out.json"
}

# ---- InfiniBand, 1:1 ----------------------------------------------------------------------
set -- $(net ib "$EX/superpod-4su.yaml" --set workload.model=llama-3-70b --set network.routing=adaptive)
expect_eq "non-blocking InfiniBand, adaptive: every share 1" "$1" "1.0"
expect_eq "non-blocking InfiniBand, adaptive: the engine's iteration is the analytic one" "$3" "$4"
expect_eq "the optimum's total is the engine's" "$5" "$3"
[ "$6" -ge 1 ] && ok || fail "no phase ran on the engine ($6)"
PIN="--set workload.parallelism.tensor=4 --set workload.parallelism.context=2 --set workload.parallelism.pipeline=2"
# shellcheck disable=SC2086
set -- $(net ibs "$EX/superpod-4su.yaml" --set workload.model=llama-3-70b $PIN)
expect_eq "non-blocking InfiniBand, static: two ring hops on one uplink" "$2" "0.5"
"$PY" -c "import sys; sys.exit(not ($3 > $4))" && ok ||
    fail "static routing's collisions do not slow the iteration ($3 against $4)"
pinned=$3
set -- $(net ibf "$EX/superpod-4su.yaml" --set workload.model=llama-3-70b)
"$PY" -c "import sys; sys.exit(not ($3 <= $pinned))" && ok ||
    fail "static routing, layout free: $3 s, slower than the pinned layout's $pinned s"

# ---- Ethernet: hashing ------------------------------------------------------------------------
ETH="--set cluster.gpus=4096 --set workload.model=llama-3-70b --set workload.gpu=h100"
# the analytic shares' iteration (--analytic), which every share 1 gives too
set -- $(net an "$EX/llama3-roce.yaml" $ETH --set network.qps_per_connection=1 --analytic)
expect_eq "--analytic: no network object" "$1" "none"
analytic=$2
set -- $(net ecmp "$EX/llama3-roce.yaml" $ETH --set network.qps_per_connection=1 --set network.hash_qp=false)
ecmp_share=$2 ecmp_t=$3
"$PY" -c "import sys; sys.exit(not ($ecmp_share < 1 and $ecmp_t > $analytic * 1.05))" && ok ||
    fail "plain ECMP: data share $ecmp_share, iteration $ecmp_t against $analytic analytic"
set -- $(net qp "$EX/llama3-roce.yaml" $ETH --set network.qps_per_connection=16 --set network.hash_qp=true)
qp_share=$2
"$PY" -c "import sys; sys.exit(not ($ecmp_share < $qp_share <= 1))" && ok ||
    fail "queue pairs hashed: data share $qp_share, not above plain ECMP's $ecmp_share"
set -- $(net ar "$EX/llama3-roce.yaml" $ETH --set network.routing=adaptive)
expect_eq "adaptive routing: every share 1" "$1" "1.0"
expect_eq "adaptive routing: the analytic iteration" "$3" "$analytic"


# ---- the text names it --------------------------------------------------------------------------
"$RAILYARD" model "$EX/llama3-roce.yaml" $ETH --set network.qps_per_connection=1 >"$TMP/text" 2>&1
grep -q '^  network     the layout.s collectives run on the fabric as built (static routing' "$TMP/text" &&
    ok || fail "the text has no network line: $(grep -n network "$TMP/text" | head -3)"

# ---- traffic: the links' loads from the engine --------------------------------------------
# `traffic` places the layout's cross-domain traffic on the engine
# (railyard(1), traffic). Closed forms, computed here from its own JSON and
# links.csv:
#  - bytes are conserved: what the GPUs put on the network (the data-parallel
#    stage-1 bytes and the stage boundaries' bytes, types.*.bytes) is the sum
#    over the GPU links' up direction, and comes down the GPU links again;
#    above, each tier's links carry as many bytes up as down;
#  - on a non-blocking InfiniBand fabric routed adaptive each tier carries
#    the bytes --analytic's up-down routes put on it;
#  - on Ethernet, plain ECMP's hash loads the busiest leaf-spine link more
#    than adaptive routing's even spread, with the same bytes per tier;
#  - the same spec gives the same bytes; --analytic and --paper leave the
#    engine out; past the engine's phase bound the analytic routes are kept
#    and the report says so.
traffic() {   # traffic OUT SPEC ARGS...: JSON and links.csv in $TMP/OUT
    out=$1
    shift
    rm -rf "$TMP/$out"
    "$RAILYARD" traffic "$@" -f json -o "$TMP/$out" >"$TMP/$out.json" 2>"$TMP/$out.err"
    expect_eq "traffic $out: exit ($(head -c 300 "$TMP/$out.err"))" $? 0
    no_sanitizer "$TMP/$out.err"
}
tiers() {     # tiers OUT...: a Python check of the runs' loads; prints "ok" or what is wrong
    "$PY" - "$TMP" "$@" <<'P'
import csv, json, sys
tmp, runs = sys.argv[1], sys.argv[2:]
bad = []
def close(a, b):   # links.csv has 9 digits; a spread's shares are floats
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1)
res = {}
for r in runs:
    j = json.load(open("%s/%s.json" % (tmp, r)))
    n = j["network"]
    up, down = {}, {}
    for row in csv.DictReader(open("%s/%s/links.csv" % (tmp, r))):
        t = int(row["tier"])
        up[t] = up.get(t, 0) + float(row["bytes_up"])
        down[t] = down.get(t, 0) + float(row["bytes_down"])
    sent = j["types"]["dp-cross"]["bytes"] + j["types"]["pp"]["bytes"]
    if not close(up[1], sent) or not close(down[1], sent):
        bad.append("%s: GPU links up %g down %g, the GPUs send %g" % (r, up[1], down[1], sent))
    if not close(n["bytes"], sent):
        bad.append("%s: network bytes %g, the GPUs send %g" % (r, n["bytes"], sent))
    for t in up:
        if not close(up[t], down[t]):
            bad.append("%s: tier %d up %g down %g" % (r, t, up[t], down[t]))
    res[r] = (n, {t["tier"]: t["bytes"] for t in n["per_tier"]})
first = runs[0]
for r in runs[1:]:
    for t, b in res[first][1].items():
        if not close(b, res[r][1][t]):
            bad.append("tier %d: %s %g, %s %g" % (t, first, b, r, res[r][1][t]))
print("; ".join(bad) if bad else "ok")
P
}
IBT="--set cluster.gpus=1024 --set workload.model=llama-3-70b"   # no GPU idle
traffic ib-ar "$EX/superpod-4su.yaml" $IBT --set network.routing=adaptive
traffic ib-an "$EX/superpod-4su.yaml" $IBT --analytic
expect_eq "InfiniBand adaptive: bytes conserved, each tier's the analytic routes'" \
    "$(tiers ib-ar ib-an)" ok
expect_eq "the engine's report says so" "$(json_get "$TMP/ib-ar.json" network loads)" engine
"$PY" -c 'import json, sys; sys.exit("loads" in json.load(open(sys.argv[1]))["network"])' \
    "$TMP/ib-an.json" && ok || fail "--analytic: the report names the engine"
"$PY" - "$TMP/ib-ar.json" <<'P' && ok || fail "busiest links: $(cat "$TMP/ib-ar.json" | head -c 600)"
import json, sys
n = json.load(open(sys.argv[1]))["network"]
hot = n["busiest_links"]
assert n["phases"] == 2 and n["analytic_phases"] == 0, n
assert 1 <= len(hot) <= 5 and hot[0]["link"] == n["busiest_link"]["link"], hot
assert all(a["utilisation"] >= b["utilisation"] for a, b in zip(hot, hot[1:])), hot
assert "/" in hot[0]["from"] and "/" in hot[0]["to"] and hot[0]["direction"] in ("up", "down")
P

ETT="--set cluster.gpus=1024 --set workload.model=llama-3-70b --set workload.gpu=h100"
traffic ecmp "$EX/llama3-roce.yaml" $ETT --set network.routing=ecmp \
    --set network.qps_per_connection=1 --set network.hash_qp=false
traffic ar "$EX/llama3-roce.yaml" $ETT --set network.routing=adaptive
traffic an "$EX/llama3-roce.yaml" $ETT --analytic
expect_eq "Ethernet: bytes conserved, each tier's the same under ECMP, adaptive, analytic" \
    "$(tiers ecmp ar an)" ok
"$PY" - "$TMP/ecmp/links.csv" "$TMP/ar/links.csv" <<'P' >"$TMP/hot" && ok || fail "ECMP against adaptive: $(cat "$TMP/hot")"
import csv, sys
def top(path):
    return max(max(float(r["bytes_up"]), float(r["bytes_down"]))
               for r in csv.DictReader(open(path)) if r["tier"] == "2")
e, a = top(sys.argv[1]), top(sys.argv[2])
print("busiest leaf-spine link: ECMP %g, adaptive %g" % (e, a))
sys.exit(not e > a * 1.1)
P
"$RAILYARD" traffic "$EX/llama3-roce.yaml" $ETT --set network.routing=ecmp \
    --set network.qps_per_connection=1 --set network.hash_qp=false -o "$TMP/ecmp2" \
    -f json >"$TMP/ecmp2.json" 2>/dev/null
cmp -s "$TMP/ecmp/links.csv" "$TMP/ecmp2/links.csv" && cmp -s "$TMP/ecmp.json" "$TMP/ecmp2.json" &&
    ok || fail "ECMP's loads differ between two runs of one spec"
"$RAILYARD" traffic "$EX/llama3-roce.yaml" $ETT --set network.routing=ecmp >"$TMP/ecmp.txt" 2>&1
grep -q '^On the fat-tree fabric as built (.* on the flow engine: ecmp routing' "$TMP/ecmp.txt" &&
    grep -q '^  busiest links (one way over the iteration):' "$TMP/ecmp.txt" && ok ||
    fail "the text does not name the engine and its busiest links: $(grep -n 'On the\|busiest' "$TMP/ecmp.txt")"
"$RAILYARD" traffic --paper "$EX/llama3-roce.yaml" $ETT -f json >"$TMP/p1.json" 2>/dev/null
"$RAILYARD" traffic --paper --analytic "$EX/llama3-roce.yaml" $ETT -f json >"$TMP/p2.json" 2>/dev/null
cmp -s "$TMP/p1.json" "$TMP/p2.json" && ok || fail "--paper runs the engine"

# The expert all-to-all (tests/data/moe/qwen-ro.yaml: groups of 64 over 16
# HB domains) on the engine too: routed adaptive, each tier carries what the
# up-down routes put on it, and the NICs put the same bytes on the network.
for d in rail-optimized rail-only; do
    traffic "moe-$d" "$TOP_SRCDIR/tests/data/moe/qwen-ro.yaml" --set fabric.design=$d \
        --set network.routing=adaptive
    traffic "moe-$d-an" "$TOP_SRCDIR/tests/data/moe/qwen-ro.yaml" --set fabric.design=$d --analytic
    "$PY" - "$TMP/moe-$d.json" "$TMP/moe-$d-an.json" <<'P' >"$TMP/moe.chk"
import json, sys
e, a = (json.load(open(p))["moe"] for p in sys.argv[1:])
bad = []
if e.get("loads") != "engine" or "loads" in a:
    bad.append("loads %s / %s" % (e.get("loads"), a.get("loads")))
if not a["network"] > 0:
    bad.append("nothing crosses the network")
if abs(e["network"] - a["network"]) > 1e-6 * a["network"]:
    bad.append("network %g against %g" % (e["network"], a["network"]))
for x, y in zip(e["per_tier"], a["per_tier"]):
    if abs(x["bytes"] - y["bytes"]) > 1e-6 * max(y["bytes"], 1):
        bad.append("tier %d: %g against %g" % (x["tier"], x["bytes"], y["bytes"]))
    if x["busiest"] > y["busiest"] * (1 + 1e-6):
        bad.append("tier %d: busiest %g above the up-down routes' %g" % (x["tier"], x["busiest"], y["busiest"]))
print("; ".join(bad) or "ok")
P
    expect_eq "expert all-to-all on the engine, $d" "$(cat "$TMP/moe.chk")" ok
done

# 4,096 GPUs: the data-parallel groups of 512 are 4096 x 511 x 2 flows,
# past the engine's bound: routed up-down as --analytic routes them, said.
ETB="--set cluster.gpus=4096 --set workload.model=llama-3-70b --set workload.gpu=h100"
traffic big "$EX/llama3-roce.yaml" $ETB --set network.routing=adaptive
traffic big-an "$EX/llama3-roce.yaml" $ETB --analytic
expect_eq "past the bound: the analytic routes' tiers" "$(tiers big big-an)" ok
expect_eq "past the bound: counted" "$(json_get "$TMP/big.json" network analytic_phases)" 1
"$RAILYARD" traffic "$EX/llama3-roce.yaml" $ETB >"$TMP/big.txt" 2>&1
grep -q '^  data routed up-down instead: more flows than the 1,048,576 one phase of the engine holds$' "$TMP/big.txt" && ok ||
    fail "past the bound, the text does not say so: $(sed -n '/^On the/,/^  links/p' "$TMP/big.txt")"

# ---- scale --------------------------------------------------------------------------------------
# 131,072 GPUs (4 tiers, 1.3 million resources; phases of 131,072 flows):
# the engine's memory follows a phase's flows and the resources two of them
# share, not every resource of the fabric, and the fabric and the engine
# are freed before the designs' capex is counted: within an address space
# of 175 MB (the engine once held ten arrays per resource, 250 MB), well
# within a timeout. Under the sanitizers, whose shadow memory cannot live
# under a cap, the timeout alone.
cat >"$TMP/big.yaml" <<EOS
version: 1
name: big
cluster: {nodes: 16384, node: dgx-h100}
fabric: {switch: qm9700, oversubscription: "1:1", tiers: auto}
workload: {model: llama-3-70b}
EOS
if sanitized; then
    timeout -k 5 600 "$RAILYARD" model "$TMP/big.yaml" -f json >"$TMP/big.json" 2>"$TMP/big.err"
else
    (ulimit -v 175000 && exec timeout -k 5 120 "$RAILYARD" model "$TMP/big.yaml" -f json) \
        >"$TMP/big.json" 2>"$TMP/big.err"
fi
rc=$?
expect_eq "131,072 GPUs on the engine: exit ($(head -c 300 "$TMP/big.err"))" $rc 0
expect_eq "131,072 GPUs: phases on the engine" "$(json_get "$TMP/big.json" network phases)" 3
no_sanitizer "$TMP/big.err"
# traffic there: the stage boundaries (245,760 flows) placed on the engine
# in batches, the data-parallel groups of 1,024 (268 million flows) past the
# bound and routed up-down, in the same address space.
if sanitized; then
    timeout -k 5 600 "$RAILYARD" traffic "$TMP/big.yaml" -f json >"$TMP/bigt.json" 2>"$TMP/bigt.err"
else
    (ulimit -v 175000 && exec timeout -k 5 120 "$RAILYARD" traffic "$TMP/big.yaml" -f json) \
        >"$TMP/bigt.json" 2>"$TMP/bigt.err"
fi
rc=$?
expect_eq "traffic on 131,072 GPUs: exit ($(head -c 300 "$TMP/bigt.err"))" $rc 0
expect_eq "traffic on 131,072 GPUs: phases on the engine, kept analytic" \
    "$(json_get "$TMP/bigt.json" network phases) $(json_get "$TMP/bigt.json" network analytic_phases)" "1 1"
no_sanitizer "$TMP/bigt.err"

finish
