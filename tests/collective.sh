#!/bin/sh
# railyard collective: NCCL's collectives as flows on the fabric as built,
# checked against closed forms computed here from the specs' own numbers
# (doc/network-model.md), and its refusals of bad input.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

# spec NAME DESIGN RADIX TAPER: 16 nodes of 8 GPUs with a 400G NIC each.
spec() {
    cat >"$TMP/$1.yaml" <<EOS
version: 1
name: $1
cluster:
  nodes: 16
  node: {name: generic, gpus_per_node: 8, nic_speed: 400G}
fabric:
  design: $2
  switch: {name: sw$3, radix: $3, speed: 400G}
  oversubscription: "$4:1"
EOS
}
# get SPEC KEY ARGS...: one key of collective's JSON report.
get() {
    s=$1 k=$2
    shift 2
    "$RAILYARD" collective "$TMP/$s.yaml" "$@" -f json >"$TMP/out.json" 2>"$TMP/err" &&
        json_get "$TMP/out.json" "$k"
}
# within GOT WANT REL: |GOT - WANT| <= REL x WANT
within() { "$PY" -c 'import sys; g, w, r = map(float, sys.argv[1:]); sys.exit(abs(g - w) > r * w)' "$@"; }

NIC_GBPS=400
GPN=8
NIC_BYTES=$(( NIC_GBPS * 1000 / 8 ))    # MB/s

# A non-blocking rail-optimized InfiniBand fabric: a ring crosses between
# nodes once per channel, C = 2 x NICs channels spread two per NIC, each
# hop carrying 2(n-1)/n S / C; so t = 2(n-1)/n S / (NICs x rate) and
# busbw = NICs per node x the NIC's rate (NVLink is faster).
spec ro rail-optimized 64 1
want=$("$PY" -c "print($GPN * $NIC_BYTES / 1000)")
for op in all-reduce all-gather reduce-scatter; do
    got=$(get ro busbw_gbytes_per_s --op $op --bytes 8G)
    within "${got:-0}" "$want" 0.01 && ok || fail "ring $op busbw on 1:1: got $got GB/s, want $want ($(cat "$TMP/err"))"
done
# The same with a scattered placement and fewer ranks: still one NIC per rail.
got=$(get ro busbw_gbytes_per_s --op all-reduce --bytes 1G --ranks 64 --placement scattered:7)
within "${got:-0}" "$want" 0.01 && ok || fail "scattered all-reduce busbw: got $got, want $want"
expect_eq "scattered placement in the report" "$(json_get "$TMP/out.json" placement)" scattered:7
# algbw = S / t, busbw = algbw x 2(n-1)/n (nccl-tests' definitions)
get ro time_s --op all-reduce --bytes 1G >/dev/null
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1])); n = d["ranks"]
alg = d["bytes"] / d["time_s"] / 1e9
ok = abs(alg - d["algbw_gbytes_per_s"]) < 1e-6 * alg and \
     abs(alg * 2 * (n - 1) / n - d["busbw_gbytes_per_s"]) < 1e-6 * alg
sys.exit(not ok)' "$TMP/out.json" && ok || fail "algbw and busbw are not S/t and x 2(n-1)/n"

# A fat tree of leaves of 16 GPUs (16 ports down, 16/t up): uniform
# all-to-all's traffic leaving a leaf is (n - 16)/n of it and crosses 16/t
# uplinks, against (n - 8)/n of a GPU's on its NIC (its node's share goes
# over NVLink) on 1:1: the slowdown is t (1 - 1/L) / (1 - g/n), exactly
# (to 0.1%), with the static tables (D-mod-K spreads a leaf's
# destinations evenly) and with adaptive routing (each flow spread evenly).
n=$((16 * GPN))
spec ft1 fat-tree 24 1
for t in 2 4; do
    spec ft$t fat-tree $((16 + 16 / t)) $t
    for routing in static adaptive; do
        t1=$(get ft1 time_s --op all-to-all --bytes 1G --routing $routing)
        tt=$(get ft$t time_s --op all-to-all --bytes 1G --routing $routing)
        want=$("$PY" -c "L = $n / 16; print($t * (1 - 1 / L) / (1 - $GPN / $n))")
        got=$("$PY" -c "print(${tt:-0} / ${t1:-1})")
        within "$got" "$want" 0.001 && ok ||
            fail "all-to-all on $t:1 against 1:1 ($routing): slowdown $got, want $want"
    done
    # sendrecv to the next leaf: every GPU's flow goes up, 16 flows on 16/t uplinks
    got=$(get ft$t busbw_gbytes_per_s --op sendrecv --shift 16 --bytes 1G)
    want=$("$PY" -c "print($NIC_BYTES / 1000 / $t)")
    within "${got:-0}" "$want" 0.01 && ok || fail "sendrecv --shift 16 on $t:1: got $got GB/s, want $want"
done
got=$(get ft1 busbw_gbytes_per_s --op sendrecv --shift 16 --bytes 1G)
within "${got:-0}" "$((NIC_BYTES / 1000))" 0.01 && ok || fail "sendrecv --shift 16 on 1:1: got $got, want the NIC's rate"

# ECMP as balls into bins. One AI zone of Meta's RoCE fabric
# (examples/llama3-roce.yaml, 3,072 GPUs): L = 192 rack switches of m = 16
# GPUs, each with b = 16 uplinks, one to each cluster switch, and one link
# from a cluster switch down to each rack. sendrecv --shift 16k sends every
# GPU of a rack to the rack k further on: each rack hashes its m flows
# onto its b uplinks, and the down link from a cluster switch carries what
# that rack sent it. With one queue pair and no queue-pair hash the fullest
# link holds K flows and the slowest flow runs at R / K: K = R / busbw. K
# is the largest of L independent draws of the fullest of b bins after m
# balls, whose law is exact: P(max <= k) = m! / b^m [x^m] (sum_{i<=k}
# x^i / i!)^b, to the power L. Over eight shifts (eight sets of 5-tuples)
# every K lies in the law's central 99% and their mean within 0.75 of
# the expectation (about 3.4 standard errors).
ZONE="$TOP_SRCDIR/examples/llama3-roce.yaml"
ks=""
for k in 1 2 3 4 5 6 7 8; do
    "$RAILYARD" collective "$ZONE" --set cluster.gpus=3072 --op sendrecv --shift $((16 * k)) \
        --bytes 1G --routing ecmp --qps 1 --set network.hash_qp=false -f json >"$TMP/bb.json" 2>"$TMP/err"
    ks="$ks $("$PY" -c "import json, sys; print(round(50 / json.load(open(sys.argv[1]))['busbw_gbytes_per_s'], 6))" "$TMP/bb.json")"
done
"$PY" - 16 16 192 $ks >"$TMP/bb" 2>&1 <<'EOP'
import sys
from fractions import Fraction
from math import factorial
m, b, L = map(int, sys.argv[1:4])
ks = [float(x) for x in sys.argv[4:]]
def p_max_le(k):
    poly = [Fraction(1)]
    term = [Fraction(1, factorial(i)) for i in range(k + 1)]
    for _ in range(b):
        out = [Fraction(0)] * min(len(poly) + k, m + 1)
        for i, a in enumerate(poly):
            for j, c in enumerate(term):
                if i + j <= m:
                    out[i + j] += a * c
        poly = out
    return float(poly[m] * factorial(m) / Fraction(b) ** m) if m < len(poly) else 0.0
cdf = [p_max_le(k) ** L for k in range(m + 1)]
expect = sum(1 - c for c in cdf)
lo = min(k for k in range(m + 1) if cdf[k] > 0.005)
hi = min(k for k in range(m + 1) if cdf[k] >= 0.995)
mean = sum(ks) / len(ks)
print("K %s: mean %.3f, expected %.3f, central 99%% %d..%d" % (ks, mean, expect, lo, hi))
ok = all(abs(k - round(k)) < 1e-6 and lo <= round(k) <= hi for k in ks) and abs(mean - expect) <= 0.75
sys.exit(not ok)
EOP
expect_eq "ECMP's fullest link against balls into bins ($(cat "$TMP/bb"))" $? 0
cat "$TMP/bb"

# Rail-only: all-to-all runs through PXN; a sendrecv across rails runs
# through PXN and is refused without it (no route between rails).
spec rail rail-only 64 1
got=$(get rail busbw_gbytes_per_s --op all-to-all --bytes 1G)
[ -n "$got" ] && within "$got" "$got" 0 && ok || fail "rail-only all-to-all: $(cat "$TMP/err")"
got=$(get rail busbw_gbytes_per_s --op sendrecv --shift 9 --bytes 1G)
within "${got:-0}" "$((NIC_BYTES / 1000))" 0.01 && ok || fail "rail-only sendrecv across rails with PXN: got $got"
# An HB domain of many nodes (examples/rail-only-gh200.yaml: DGX GH200,
# 256 superchips of one GPU each on one NVLink domain): PXN crosses rails
# through the GPU of the destination's rail in another node of the
# domain. All-to-all over n = 512 ranks (2 domains of K = 256): a GPU's
# (n - K)/n of S leaves its domain through its NIC at R, so busbw =
# R (n - 1)/(n - K).
got=$("$RAILYARD" collective "$TOP_SRCDIR/examples/rail-only-gh200.yaml" --op all-to-all --bytes 1G \
    --ranks 512 -f json 2>"$TMP/err" >"$TMP/out.json" && json_get "$TMP/out.json" busbw_gbytes_per_s)
within "${got:-0}" "$("$PY" -c "print($NIC_BYTES / 1000 * 511 / 256)")" 0.001 && ok ||
    fail "rail-only all-to-all across GH200 domains: got $got ($(cat "$TMP/err"))"
# Hierarchical all-to-all (--hierarchical, network.all_to_all): the NVLink
# step, then the network step. A GPU sends (K-1)/K of S over NVLink at
# 450 GB/s, then (n-K)/n of S through its NIC at R, so on a non-blocking
# fabric t = S ((K-1)/K / 450 GB/s + (n-K)/n / R): on rail-only and on
# rail-optimized alike (the second step stays on the rails), with DGX-like
# nodes (K = 8, n = 128) and GH200 domains (K = 256, n = 512).
for d in rail-only rail-optimized; do
    got=$(get rail time_s --op all-to-all --bytes 1G --hierarchical --set fabric.design=$d)
    want=$("$PY" -c "S = 2**30; K = $GPN; n = 16 * K; print(S * ((K - 1) / K / 450e9 + (n - K) / n / ($NIC_BYTES * 1e6)))")
    within "${got:-0}" "$want" 1e-6 && ok || fail "hierarchical all-to-all on $d: got $got s, want $want ($(cat "$TMP/err"))"
    expect_eq "hierarchical in the report ($d)" "$(json_get "$TMP/out.json" algorithm)" hierarchical
done
got=$("$RAILYARD" collective "$TOP_SRCDIR/examples/rail-only-gh200.yaml" --op all-to-all --bytes 1G \
    --ranks 512 --set network.all_to_all=hierarchical -f json 2>"$TMP/err" >"$TMP/out.json" &&
    json_get "$TMP/out.json" time_s)
want=$("$PY" -c "S = 2**30; K = 256; n = 512; print(S * ((K - 1) / K / 450e9 + (n - K) / n / ($NIC_BYTES * 1e6)))")
within "${got:-0}" "$want" 1e-6 && ok || fail "hierarchical all-to-all across GH200 domains: got $got s, want $want ($(cat "$TMP/err"))"
# GB200 NVL72 (HB domains of 72 GPUs in trays of 4, a NIC on each rail in
# every tray): PXN crosses rails inside the source's tray, so a GPU's
# (n - K)/n of S leaves through its own NIC: busbw = R (n - 1)/(n - K), as
# on GH200 (n = 144, 2 domains). The hierarchical run's bound counts one
# network flow a GPU at its place in each other domain: 1,152 ranks (16
# domains) run, where the direct all-to-all (1.3 M flows) is refused.
got=$("$RAILYARD" collective "$TOP_SRCDIR/examples/gb200-nvl72-superpod.yaml" --op all-to-all \
    --bytes 1G --ranks 144 -f json 2>"$TMP/err" >"$TMP/out.json" && json_get "$TMP/out.json" busbw_gbytes_per_s)
within "${got:-0}" "$("$PY" -c "print($NIC_BYTES / 1000 * 143 / 72)")" 1e-6 && ok ||
    fail "NVL72 all-to-all through the tray's NICs: got $got ($(cat "$TMP/err"))"
"$RAILYARD" collective "$TOP_SRCDIR/examples/gb200-nvl72-superpod.yaml" --op all-to-all --bytes 1G \
    --ranks 1152 --hierarchical -f json >"$TMP/out.json" 2>"$TMP/err"
expect_eq "NVL72 hierarchical all-to-all of 1,152 ranks: exit ($(head -c 200 "$TMP/err"))" $? 0
# It is all-to-all's: another operation with --hierarchical is a usage
# error; the key leaves the other operations as they are.
"$RAILYARD" collective "$TMP/rail.yaml" --op all-reduce --bytes 1G --hierarchical >"$TMP/out" 2>"$TMP/err"
expect_eq "--hierarchical on all-reduce: exit" $? 2
grep -q "hierarchical) is all-to-all's" "$TMP/err" && ok || fail "--hierarchical refusal: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "--hierarchical refusal wrote output" || ok
a=$(get rail time_s --op sendrecv --shift 9 --bytes 1G)
b=$(get rail time_s --op sendrecv --shift 9 --bytes 1G --set network.all_to_all=hierarchical)
expect_eq "network.all_to_all leaves sendrecv alone" "$b" "$a"
"$RAILYARD" collective "$TMP/rail.yaml" --op sendrecv --shift 9 --bytes 1G --no-pxn >"$TMP/out" 2>"$TMP/err"
expect_eq "rail-only sendrecv across rails without PXN: exit" $? 1
grep -q 'crosses rails.*PXN' "$TMP/err" && ok || fail "no-PXN refusal: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "no-PXN refusal wrote output" || ok

# --sweep: nccl-tests' sizes 8 B doubling to SIZE, busbw the same at each
# (no latency term).
"$RAILYARD" collective "$TMP/ro.yaml" --op all-reduce --bytes 1M --sweep >"$TMP/sweep" 2>&1
expect_eq "sweep rows" "$(grep -c '^ ' "$TMP/sweep")" 18
expect_eq "sweep busbw values" "$(awk '/^ / {print $NF}' "$TMP/sweep" | sort -u | wc -l | tr -d ' ')" 1
# Deterministic: the same bytes twice.
"$RAILYARD" collective "$TMP/ro.yaml" --op all-reduce --bytes 1M --sweep >"$TMP/sweep2" 2>&1
cmp -s "$TMP/sweep" "$TMP/sweep2" && ok || fail "two runs differ"

# network: in the spec, --set reaching it, the options over it.
"$RAILYARD" collective "$TMP/ro.yaml" --op all-reduce --bytes 1G --set network.channels=4 \
    --set network.placement=scattered:3 --set network.qps_per_connection=2 -f json >"$TMP/out.json"
expect_eq "network.channels" "$(json_get "$TMP/out.json" channels)" 4
expect_eq "network.placement" "$(json_get "$TMP/out.json" placement)" scattered:3
expect_eq "network.qps_per_connection" "$(json_get "$TMP/out.json" qps_per_connection)" 2
"$RAILYARD" collective "$TMP/ro.yaml" --op all-reduce --bytes 1G --set network.channels=4 \
    --channels 6 -f json >"$TMP/out.json"
expect_eq "--channels over network.channels" "$(json_get "$TMP/out.json" channels)" 6

# Tree all-reduce (--algo tree): NCCL's double binary tree across the
# nodes, a chain inside each. Every edge carries S / C up and down; a node
# inside one tree (two children) sends 3 S / C on that tree's channel and
# S / C as a leaf of the other, and each NIC serves one channel of each:
# t = 4 S / (C R) with C = 2 x NICs, so busbw = NICs x R x (n-1)/n, a
# little under the ring's NICs x R.
n=$((16 * GPN))
want=$("$PY" -c "print($GPN * $NIC_BYTES / 1000 * ($n - 1) / $n)")
got=$(get ro busbw_gbytes_per_s --algo tree --op all-reduce --bytes 8G)
within "${got:-0}" "$want" 0.0005 && ok || fail "tree all-reduce busbw: got $got GB/s, want $want ($(cat "$TMP/err"))"
expect_eq "tree: algorithm reported" "$(json_get "$TMP/out.json" algorithm)" tree
got=$(get ro busbw_gbytes_per_s --op all-reduce --bytes 8G --set network.algorithm=tree)
within "${got:-0}" "$want" 0.0005 && ok || fail "network.algorithm=tree: got $got GB/s, want $want"
# network.algorithm is all-reduce's: an all-gather runs its ring.
got=$(get ro busbw_gbytes_per_s --op all-gather --bytes 8G --set network.algorithm=tree)
within "${got:-0}" "$((GPN * NIC_BYTES / 1000))" 0.0005 && ok || fail "all-gather under network.algorithm=tree: got $got ($(cat "$TMP/err"))"
# auto: the faster, here the ring (NICs x R against the tree's x (n-1)/n).
got=$(get ro busbw_gbytes_per_s --algo auto --op all-reduce --bytes 8G)
within "${got:-0}" "$((GPN * NIC_BYTES / 1000))" 0.0005 && ok || fail "auto all-reduce: got $got, want the ring's"
expect_eq "auto: ring reported" "$(json_get "$TMP/out.json" algorithm)" ring

# NVLS (network.nvls): inside an HB domain each GPU sends S to the NVLink
# switch and receives S back, t = S / NVL, so a job within one domain has
# busbw = NVL x 2(n-1)/n; its ring moves 2(n-1)/n S on each GPU's NVLink
# (busbw = NVL). NVL is the engine's NVLink rate, 450 GB/s each way.
NVL=450
got=$(get ro busbw_gbytes_per_s --op all-reduce --bytes 8G --ranks 8 --set network.nvls=true)
want=$("$PY" -c "print($NVL * 2 * 7 / 8)")
within "${got:-0}" "$want" 0.0005 && ok || fail "NVLS in one node: got $got GB/s, want $want ($(cat "$TMP/err"))"
expect_eq "nvls: algorithm reported" "$(json_get "$TMP/out.json" algorithm)" nvls
got=$(get ro busbw_gbytes_per_s --op all-reduce --bytes 8G --ranks 8)
within "${got:-0}" "$NVL" 0.0005 && ok || fail "ring in one node: got $got GB/s, want $NVL"
# GB200 NVL72: 72 GPUs of 18 nodes in one NVLink domain.
cat >"$TMP/nvl72.yaml" <<EOS
version: 1
name: nvl72
cluster:
  nodes: 36
  node: gb200-nvl72
fabric:
  design: rail-optimized
  switch: q3400
EOS
got=$(get nvl72 busbw_gbytes_per_s --op all-reduce --bytes 8G --ranks 72 --set network.nvls=true)
want=$("$PY" -c "print($NVL * 2 * 71 / 72)")
within "${got:-0}" "$want" 0.0005 && ok || fail "NVLS in an NVL72 domain: got $got GB/s, want $want ($(cat "$TMP/err"))"

# SHARP (network.sharp, on switches the catalog marks sharp: true): each
# node reduces inside (a reduce-scatter and an all-gather over NVLink,
# 2(g-1)/g S on each GPU's NVLink) and its GPUs send their S/g shards up
# their NICs and receive the reduced shards down: S per node each way, not
# 2(n-1)/n S. t = max(2(g-1)/g S / NVL, S / (g R)); with NVLS inside too,
# t = max(S / NVL, S / (g R)). Both beat the ring's NICs x R.
sed 's/switch: {name: sw64, radix: 64, speed: 400G}/switch: qm9700/' "$TMP/ro.yaml" >"$TMP/q.yaml"
S=$((8 << 30))
got=$(get q busbw_gbytes_per_s --op all-reduce --bytes 8G --set network.sharp=true)
want=$("$PY" -c "
S, g, n, R, V = $S, $GPN, $n, $NIC_BYTES * 1e6, $NVL * 1e9
t = max(2 * (g - 1) / g * S / V, S / g / R); print(S / t * 2 * (n - 1) / n / 1e9)")
within "${got:-0}" "$want" 0.0005 && ok || fail "SHARP all-reduce: got $got GB/s, want $want ($(cat "$TMP/err"))"
expect_eq "sharp: algorithm reported" "$(json_get "$TMP/out.json" algorithm)" sharp
"$PY" -c "import sys; sys.exit(not ${got:-0} > $GPN * $NIC_BYTES / 1000)" && ok || fail "SHARP busbw $got is not above the ring's"
got=$(get q busbw_gbytes_per_s --op all-reduce --bytes 8G --set network.sharp=true --set network.nvls=true)
want=$("$PY" -c "
S, g, n, R, V = $S, $GPN, $n, $NIC_BYTES * 1e6, $NVL * 1e9
t = max(S / V, S / g / R); print(S / t * 2 * (n - 1) / n / 1e9)")
within "${got:-0}" "$want" 0.0005 && ok || fail "SHARP with NVLS: got $got GB/s, want $want ($(cat "$TMP/err"))"
expect_eq "sharp and nvls: algorithm reported" "$(json_get "$TMP/out.json" algorithm)" nvls+sharp
# --sharp and --nvls are the keys' flags: the same bytes
cp "$TMP/out.json" "$TMP/keys.json"
get q busbw_gbytes_per_s --op all-reduce --bytes 8G --sharp --nvls >/dev/null
cmp -s "$TMP/keys.json" "$TMP/out.json" && ok || fail "--sharp --nvls differ from the keys: $(cat "$TMP/err")"
"$RAILYARD" collective "$TMP/q.yaml" --op all-to-all --bytes 1G --sharp >"$TMP/out" 2>"$TMP/err"
expect_eq "--sharp with all-to-all: exit" $? 2
grep -q -- "--sharp is all-reduce's" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
    fail "--sharp with all-to-all: $(cat "$TMP/err")"
# Refused at the key: switches without SHARP, an Ethernet fabric, an HB
# domain of one GPU; nothing written.
refuse() {
    yaml=$1 pat=$2
    shift 2
    "$RAILYARD" collective "$yaml" --op all-reduce --bytes 1G "$@" >"$TMP/out" 2>"$TMP/err"
    expect_eq "exit of $yaml $*" $? 1
    grep -q -- "$pat" "$TMP/err" && ok || fail "message of $yaml $*: $(cat "$TMP/err")"
    [ -s "$TMP/out" ] && fail "$yaml $* wrote output" || ok
}
cat "$TMP/ro.yaml" >"$TMP/nosharp.yaml"
printf 'network:\n  sharp: true\n' >>"$TMP/nosharp.yaml"
refuse "$TMP/nosharp.yaml" "nosharp.yaml:11:[0-9]*: error: the sw64 switches of tier 1 do not reduce in the network"
sed 's/radix: 64, speed: 400G}/radix: 64, speed: 400G, protocol: ethernet}/' "$TMP/ro.yaml" >"$TMP/eth.yaml"
refuse "$TMP/eth.yaml" "--set:1:[0-9]*: error: SHARP reduces in InfiniBand switches" --set network.sharp=true
# the flag on the same fabric: a usage error naming it (exit 2), nothing written
"$RAILYARD" collective "$TMP/eth.yaml" --op all-reduce --bytes 1G --sharp >"$TMP/out" 2>"$TMP/err"
expect_eq "--sharp on Ethernet: exit" $? 2
grep -q "SHARP reduces in InfiniBand switches" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
    fail "--sharp on Ethernet: $(cat "$TMP/err")"
sed 's/gpus_per_node: 8,/gpus_per_node: 8, hb_domain: 1,/' "$TMP/ro.yaml" >"$TMP/hb1.yaml"
refuse "$TMP/hb1.yaml" "HB domain is 1 GPU" --set network.nvls=true

# Several jobs at once (--jobs): a fat tree of 2 leaves (its pods) of 2
# nodes (16 GPUs, 8 uplinks: 2:1), two jobs of 2 nodes doing all-to-all. Each
# GPU sends S/16 to each of the 8 GPUs of the other node of its job: S/2
# on its NIC. Contiguous, each job fills a leaf and nothing goes up: each
# takes (S/2) / R, as alone. Scattered so that each job has a node on each
# leaf, every leaf sends 16 x S/2 over 8 uplinks: S each, t = S / R, twice
# as long. The closed form is computed from the nodes each job got.
cat >"$TMP/two.yaml" <<EOS
version: 1
name: two
cluster:
  nodes: 4
  node: {name: generic, gpus_per_node: 8, nic_speed: 400G}
fabric:
  design: fat-tree
  switch: {name: sw24, radix: 24, speed: 400G}
  oversubscription: "2:1"
EOS
jobs_want() {
    "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1])); S = d["bytes"]; R = float(sys.argv[2]) * 1e6
g, leaf_nodes, up = 8, 2, 8
n = d["ranks"]; per = S / n                    # bytes to each peer
nodes = {}; leaves = {}
for j in d["each_job"]:
    for x in j["node_indexes"]:
        nodes[x] = j["job"]
load = {}
for x, j in nodes.items():
    peers = [y for y, k in nodes.items() if k == j and y // leaf_nodes != x // leaf_nodes]
    load[x // leaf_nodes] = load.get(x // leaf_nodes, 0) + g * per * g * len(peers)
nic = per * (n - g)
t = max([nic / R] + [b / (up * R) for b in load.values()])
print(t)' "$TMP/out.json" "$NIC_BYTES"
}
alone=$(get two time_s --op all-to-all --bytes 1G --ranks 16 --routing adaptive)
want=$("$PY" -c "print((1 << 30) / 2 / ($NIC_BYTES * 1e6))")
within "${alone:-0}" "$want" 0.0005 && ok || fail "one job alone: got $alone s, want $want"
got=$(get two time_s --op all-to-all --bytes 1G --ranks 16 --routing adaptive --jobs 2)
expect_eq "two contiguous jobs: jobs" "$(json_get "$TMP/out.json" jobs)" 2
want=$(jobs_want)
within "${got:-0}" "${want:-1}" 0.0005 && ok || fail "two contiguous jobs: got $got s, want $want ($(cat "$TMP/err"))"
within "${got:-0}" "${alone:-1}" 0.0005 && ok || fail "two contiguous jobs slow each other: $got s against $alone alone"
got=$(get two time_s --op all-to-all --bytes 1G --ranks 16 --routing adaptive --jobs 2 --placement scattered:4)
want=$(jobs_want)
within "${got:-0}" "${want:-1}" 0.0005 && ok || fail "two scattered jobs: got $got s, want $want ($(cat "$TMP/err"))"
"$PY" -c "import sys; sys.exit(not ${got:-0} > 1.9 * ${alone:-1})" && ok || fail "two scattered jobs: $got s, not twice the $alone s alone"
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1])); a, b = d["each_job"]
ok = set(a["node_indexes"]).isdisjoint(b["node_indexes"]) and \
     abs(d["time_s"] - max(a["time_s"], b["time_s"])) <= 1e-12 and \
     all(x // 2 != y // 2 for x, y in [a["node_indexes"], b["node_indexes"]])
sys.exit(not ok)' "$TMP/out.json" && ok || fail "scattered:4 jobs are not disjoint, straddling, with the slowest on top"
"$RAILYARD" collective "$TMP/two.yaml" --op all-to-all --bytes 1G --ranks 16 --jobs 3 >"$TMP/out" 2>"$TMP/err"
expect_eq "three jobs of 2 nodes on 4: exit" $? 2
grep -q '3 jobs of 16 ranks take 2 nodes each, 6 in all; the cluster has 4' "$TMP/err" && ok || fail "jobs refusal: $(cat "$TMP/err")"

# Bad input: a clear error, the exit code, nothing written.
bad() {
    want=$1 pat=$2
    shift 2
    rm -f "$TMP/o.txt"
    "$RAILYARD" collective "$TMP/ro.yaml" "$@" -o "$TMP/o.txt" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_eq "exit of $*" "$rc" "$want"
    grep -q -- "$pat" "$TMP/err" && ok || fail "message of $*: $(cat "$TMP/err")"
    [ -e "$TMP/o.txt" ] || [ -s "$TMP/out" ] && fail "$* wrote output" || ok
}
bad 2 "--op takes" --op broadcast --bytes 1G
bad 2 "--op is required" --bytes 1G
bad 2 "--bytes must be a size" --op all-reduce --bytes 0
bad 2 "--bytes must be a size" --op all-reduce --bytes lots
bad 2 "--bytes must be a size" --op all-reduce --bytes 8X
bad 2 "more than the cluster's 128 GPUs" --op all-reduce --bytes 1G --ranks 129
bad 2 "--ranks must be" --op all-reduce --bytes 1G --ranks 1
bad 2 "ecmp is for Ethernet" --op all-reduce --bytes 1G --routing ecmp
bad 1 "ecmp is for Ethernet" --op all-reduce --bytes 1G --set network.routing=ecmp
bad 1 "network.placement must be" --op all-reduce --bytes 1G --set network.placement=spread
bad 2 "--placement must be" --op all-reduce --bytes 1G --placement scattered:x
bad 2 "--shift is sendrecv's" --op all-reduce --bytes 1G --shift 3
bad 2 "sends each of the 128 ranks to itself" --op sendrecv --bytes 1G --shift 128
bad 2 "tree is an all-reduce algorithm" --op all-gather --bytes 1G --algo tree
bad 2 "--algo takes" --op all-reduce --bytes 1G --algo star
bad 1 "network.algorithm must be" --op all-reduce --bytes 1G --set network.algorithm=star
bad 2 "--jobs must be" --op all-reduce --bytes 1G --jobs 0
# The flow bound: an all-to-all of 2,048 ranks is 4,192,256 flows.
cat >"$TMP/big.yaml" <<EOS
version: 1
name: big
cluster:
  nodes: 256
  node: {name: generic, gpus_per_node: 8, nic_speed: 400G}
fabric:
  design: rail-optimized
  switch: {name: sw64, radix: 64, speed: 400G}
EOS
"$RAILYARD" collective "$TMP/big.yaml" --op all-to-all --bytes 1G >"$TMP/out" 2>"$TMP/err"
expect_eq "all-to-all past the flow bound: exit" $? 2
grep -q 'choose fewer --ranks' "$TMP/err" && ok || fail "flow bound message: $(cat "$TMP/err")"
no_sanitizer "$TMP/err"
# ---- as built: --fabric -------------------------------------------------------------------
# A non-blocking two-tier fat tree of radix-16 InfiniBand switches, one
# 8-GPU node a leaf, U = 8 uplinks a leaf, routed adaptive. Its
# ibnetdiscover file as planned, with k = 3 of leaf0's uplinks left out:
# sendrecv --shift 8 sends node 1's 8 flows out of leaf0 (and node 16's
# into it) over U - k live links, so busbw = R (U - k) / U, R a NIC's
# 50 GB/s; the planned file gives R.
cat >"$TMP/ab.yaml" <<'Y'
version: 1
name: ft-128
cluster: {nodes: 16, node: hgx-h100}
fabric: {design: fat-tree, switch: {name: qm9700, radix: 16}, oversubscription: "1:1", tiers: 2}
network: {routing: adaptive}
Y
"$RAILYARD" opensm "$TMP/ab.yaml" -o "$TMP/ab-plan" >/dev/null 2>&1 || fail "opensm on the plan"
"$PY" - "$TMP/ab-plan/opensm/plane0/topology.net" "$TMP/ab.net" <<'P'
import re, sys
src, dst = sys.argv[1:]
cur, guid, keep = None, None, []
lines = open(src).read().split("\n")
for line in lines:
    m = re.match(r'Switch\s+\d+\s+"(S-[0-9a-f]+)"\s+# "leaf0"', line)
    if m:
        guid = m.group(1)
for line in lines:
    m = re.match(r'Switch\s+\d+\s+"S-[0-9a-f]+"\s+# "([^"]+)"', line)
    if m:
        cur = m.group(1)
    if cur == "leaf0" and re.match(r"\[(9|10|11)\]\s", line):
        continue                                   # leaf0's end of the cable
    if re.search(r'"%s"\[(9|10|11)\]' % guid, line):
        continue                                   # the spine's end
    keep.append(line)
open(dst, "w").write("\n".join(keep))
P
for f in planned:"$TMP/ab-plan/opensm/plane0/topology.net" asbuilt:"$TMP/ab.net"; do
    "$RAILYARD" collective "$TMP/ab.yaml" --op sendrecv --shift 8 --bytes 1G \
        --fabric "${f#*:}" -f json >"$TMP/ab-${f%%:*}.json" 2>"$TMP/err"
    expect_eq "--fabric ${f%%:*}: exit ($(head -c 300 "$TMP/err"))" $? 0
    no_sanitizer "$TMP/err"
done
"$PY" - "$TMP/ab-planned.json" "$TMP/ab-asbuilt.json" <<'P' >"$TMP/ab.out"
import json, sys
R, U, k = 400e9 / 8 / 1e9, 8, 3
p, a = (json.load(open(x)) for x in sys.argv[1:3])
bad = []
for name, j, down, want in (("planned", p, 0, R), ("as built", a, k, R * (U - k) / U)):
    if j["as_built_cables_down"] != down:
        bad.append("%s: %r cables down, want %d" % (name, j["as_built_cables_down"], down))
    if abs(j["busbw_gbytes_per_s"] - want) > 1e-6 * want:
        bad.append("%s: busbw %r, want %r" % (name, j["busbw_gbytes_per_s"], want))
print("; ".join(bad) if bad else "ok")
P
expect_eq "--fabric: the missing uplinks routed around, busbw R (U-k)/U" "$(cat "$TMP/ab.out")" ok
"$RAILYARD" collective "$TMP/ab.yaml" --op sendrecv --bytes 1G --fabric "$TMP/nosuch.net" \
    >"$TMP/out" 2>"$TMP/err"
expect_eq "--fabric unreadable: exit" $? 3
[ ! -s "$TMP/out" ] && ok || fail "--fabric unreadable: output written"
# an Ethernet fabric's as-found is LLDP's: ibnetdiscover's file refused
sed 's/switch: {name: qm9700, radix: 16}/switch: {name: sn5600-400g, radix: 16}/' "$TMP/ab.yaml" \
    >"$TMP/ab-eth.yaml"
"$RAILYARD" collective "$TMP/ab-eth.yaml" --op sendrecv --shift 8 --bytes 1G --fabric "$TMP/ab.net" \
    >"$TMP/out" 2>"$TMP/err"
expect_eq "--fabric on Ethernet: exit" $? 1
grep -q "is Ethernet" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
    fail "--fabric on Ethernet: $(cat "$TMP/err")"
# ---- the subnet manager's tables: --lfts ----------------------------------------------------
# The same fat tree routed static by the forwarding tables as found, read
# against its topology (railyard's own lfts.dump, then edited):
#   - as written: the same busbw as railyard's static routing (its tables
#     are the engine's);
#   - leaf0 sending every LID it forwards up out of port 9: node 0's 8
#     flows of sendrecv --shift 8 share one uplink, busbw R/8;
#   - spine0 sending every LID back down to leaf0 as well: the routes loop,
#     refused and named; leaf0 with no entry up: no route, named.
LFT="$TMP/ab-plan/opensm/plane0/lfts.dump" TOPO="$TMP/ab-plan/opensm/plane0/topology.net"
"$PY" - "$LFT" "$TOPO" "$TMP" <<'P'
import re, sys
lft, topo, tmp = sys.argv[1:]
# spine0's port to leaf0, from the topology
cur, back = None, None
for line in open(topo):
    m = re.match(r'Switch\s+\d+\s+"S-[0-9a-f]+"\s+# "([^"]+)"', line)
    if m:
        cur = m.group(1)
    m = re.match(r'\[(\d+)\]\s+"S-[0-9a-f]+"\[\d+\]\s+# "leaf0"', line)
    if cur == "spine0" and m:
        back = int(m.group(1))
def edit(name, fn):
    out, sw = [], None
    for line in open(lft).read().split("\n"):
        m = re.search(r"\('([^']*)'\)", line)
        if line.startswith("Unicast lids") and m:
            sw = m.group(1)
        m = re.match(r"(0x[0-9a-fA-F]+) (\d+)(.*)$", line)
        if m:
            line = fn(sw, m.group(1), int(m.group(2)), m.group(3))
            if line is None:
                continue
        out.append(line)
    open("%s/%s" % (tmp, name), "w").write("\n".join(out))
up9 = lambda sw, lid, p, rest: "%s %03d%s" % (lid, 9 if sw == "leaf0" and p >= 9 else p, rest)
edit("skew.dump", up9)
edit("loop.dump", lambda sw, lid, p, rest: "%s %03d%s" % (lid, back, rest) if sw == "spine0" and p != 0
     else up9(sw, lid, p, rest))
edit("gap.dump", lambda sw, lid, p, rest: None if sw == "leaf0" and p >= 9 else "%s %03d%s" % (lid, p, rest))
P
lfts() {    # OUT TABLE: busbw of sendrecv --shift 8, static, as built with TABLE ("" none)
    out=$1 table=$2
    # shellcheck disable=SC2086
    "$RAILYARD" collective "$TMP/ab.yaml" --op sendrecv --shift 8 --bytes 1G --routing static \
        --fabric "$TOPO" ${table:+--lfts "$table"} -f json >"$TMP/$out.json" 2>"$TMP/$out.err"
    echo $?
}
expect_eq "--lfts as written: exit" "$(lfts own "$LFT")" 0
expect_eq "railyard's static routing: exit" "$(lfts none "")" 0
expect_eq "--lfts as written: railyard's busbw" "$(json_get "$TMP/own.json" busbw_gbytes_per_s)" \
    "$(json_get "$TMP/none.json" busbw_gbytes_per_s)"
expect_eq "--lfts leaf0 up port 9 only: exit" "$(lfts skew "$TMP/skew.dump")" 0
got=$(json_get "$TMP/skew.json" busbw_gbytes_per_s)
within "${got:-0}" "$("$PY" -c "print($NIC_BYTES / 1000 / 8)")" 1e-6 && ok ||
    fail "--lfts leaf0 up port 9 only: busbw $got, want R/8"
expect_eq "--lfts with a loop: exit" "$(lfts loop "$TMP/loop.dump")" 1
grep -q "forwarding tables (--lfts) send .* round a loop" "$TMP/loop.err" && [ ! -s "$TMP/loop.json" ] && ok ||
    fail "--lfts loop: $(cat "$TMP/loop.err")"
expect_eq "--lfts without an entry up: exit" "$(lfts gap "$TMP/gap.dump")" 1
grep -q "leaf0 has no next hop .* in its forwarding table (--lfts)" "$TMP/gap.err" && ok ||
    fail "--lfts gap: $(cat "$TMP/gap.err")"
# a cable the tables route over is missing from the topology: the tables
# found are the routes, so that route is refused, not relayed
"$PY" - "$TOPO" "$TMP/cut.net" <<'P'
import re, sys
src, dst = sys.argv[1:]
lines = open(src).read().split("\n")
guid = next(re.match(r'Switch\s+\d+\s+"(S-[0-9a-f]+)"\s+# "leaf0"', l).group(1) for l in lines
            if re.match(r'Switch\s+\d+\s+"(S-[0-9a-f]+)"\s+# "leaf0"', l))
cur, keep = None, []
for line in lines:
    m = re.match(r'Switch\s+\d+\s+"S-[0-9a-f]+"\s+# "([^"]+)"', line)
    if m:
        cur = m.group(1)
    if (cur == "leaf0" and re.match(r"\[9\]\s", line)) or re.search(r'"%s"\[9\]' % guid, line):
        continue
    keep.append(line)
open(dst, "w").write("\n".join(keep))
P
"$RAILYARD" collective "$TMP/ab.yaml" --op sendrecv --shift 8 --bytes 1G --routing static \
    --fabric "$TMP/cut.net" --lfts "$TMP/skew.dump" >"$TMP/out" 2>"$TMP/err"
expect_eq "--lfts over a missing cable: exit" $? 1
grep -q "in its forwarding table (--lfts)" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
    fail "--lfts over a missing cable: $(cat "$TMP/err")"
# a file with no table of the subnet's switches (here: the topology itself)
"$RAILYARD" collective "$TMP/ab.yaml" --op sendrecv --shift 8 --bytes 1G --routing static \
    --fabric "$TOPO" --lfts "$TOPO" >"$TMP/out" 2>"$TMP/err"
expect_eq "--lfts with no table in it: exit" $? 1
grep -q "no switch of .* has a table in it" "$TMP/err" && ok || fail "--lfts no table: $(cat "$TMP/err")"
for bad in "--lfts $LFT" "--fabric $TOPO --lfts $LFT --lfts $LFT" "--fabric $TOPO --lfts $LFT --routing adaptive"; do
    # shellcheck disable=SC2086
    "$RAILYARD" collective "$TMP/ab.yaml" --op sendrecv --shift 8 --bytes 1G --routing static \
        $bad >"$TMP/out" 2>"$TMP/err"
    expect_eq "collective $bad: exit" $? 2
    [ ! -s "$TMP/out" ] && ok || fail "collective $bad: output written"
done
finish
