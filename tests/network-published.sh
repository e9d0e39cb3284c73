#!/bin/sh
# railyard collective against published measurements (doc/network-model.md,
# "What it reproduces"): each check names its source and its bound. The
# engine has no protocol overhead and no latency term, so against a
# measured bus bandwidth it is an upper bound a few percent above; where it
# does not reproduce a published figure the check pins what it does give
# and the documentation says why.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

# col OUT SPEC ARGS...: collective's JSON in $TMP/OUT.json; prints
# "busbw time_s", or "0 0" when it failed (its message in $TMP/OUT.err).
col() {
    out=$1
    shift
    if "$RAILYARD" collective "$@" -f json >"$TMP/$out.json" 2>"$TMP/$out.err"; then
        "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["busbw_gbytes_per_s"], d["time_s"])' \
            "$TMP/$out.json"
    else
        echo 0 0
    fi
}
# ran OUT: collective OUT exited 0.
ran() { [ -s "$TMP/$1.json" ] && ok || fail "collective $1: $(cat "$TMP/$1.err")"; }
# holds EXPR MESSAGE: a Python expression that must be true (0 / 0 is false).
holds() {
    "$PY" -c "import sys
try:
    sys.exit(not ($1))
except ZeroDivisionError:
    sys.exit(1)" && ok || fail "$2"
}

# ---- nccl-tests all-reduce busbw, ring, multi-node --------------------------------------------
# NVIDIA's answers on nccl-tests' GitHub issues: a DGX/HGX H100 with 8
# ConnectX-7 NDR 400G reaches about 48 GB/s a NIC and up to about 396 GB/s
# all-reduce busbw with NCCL_ALGO=RING across nodes (NVIDIA/nccl-tests
# issues 290 and 319, 2025); a DGX A100 with 8 HDR 200G, 192 GB/s
# (NVIDIA/nccl issue 812, 2023). Published 384-396 and 192 GB/s; bound:
# published / railyard's in [0.94, 1.0] (railyard's line rate, above by the
# protocols' few percent, never below).
set -- $(col h100 "$EX/superpod-4su.yaml" --op all-reduce --bytes 8G)
ran h100
h100=$1
holds "384 / $h100 >= 0.94 and 396 / $h100 <= 1.0" "DGX H100 SuperPOD all-reduce busbw $h100 GB/s against 384-396 published"
cat >"$TMP/a100.yaml" <<EOS
version: 1
name: dgx-a100-pod
cluster: {nodes: 20, node: dgx-a100}
fabric: {design: rail-optimized, switch: qm8700, oversubscription: "1:1"}
EOS
set -- $(col a100 "$TMP/a100.yaml" --op all-reduce --bytes 8G)
ran a100
a100=$1
holds "0.94 <= 192 / $a100 <= 1.0" "DGX A100 all-reduce busbw $a100 GB/s against 192 published"
echo "all-reduce busbw: DGX H100 $h100 GB/s (published 384-396), DGX A100 $a100 GB/s (published 192)"
# At scale: 248 servers of 8 H200 with 8 x 400G (1,984 GPUs),
# all_reduce_perf at 512 MB with NCCL's default algorithm "typically
# around 350G" bus bandwidth, sometimes under 300 (NVIDIA/nccl-tests issue
# 283, 2025, a user's measurement). railyard: the same on a rail-optimized
# H200 SuperPOD of 248 nodes. Bound: 350 / railyard's in [0.85, 1.0]
# (railyard counts no latency: the 1,984-rank ring's steps, and the run's
# variation, are below it, never above).
set -- $(col h200 "$EX/superpod-4su.yaml" --set cluster.nodes=248 --set cluster.node=dgx-h200 \
    --op all-reduce --bytes 512M)
ran h200
h200=$1
holds "0.85 <= 350 / $h200 <= 1.0" "248 H200 servers: all-reduce busbw $h200 GB/s against about 350 published"
echo "all-reduce busbw at 1,984 H200: $h200 GB/s (published about 350)"

# ---- nccl-tests alltoall busbw --------------------------------------------------------------
# NVIDIA's answers on nccl-tests' GitHub issues (NVIDIA/nccl-tests 130,
# 2023; 267, 2024): alltoall's busbw on N nodes is about N/(N-1)
# times a GPU's NIC bandwidth (alltoall cannot aggregate several NICs),
# about 48 GB/s at 400G (issues 290, 319). railyard on the DGX H100
# SuperPOD, N = 2, 4, 8, 16 nodes: R (n-1)/(n-g) (tests/collective.sh's
# closed form: a GPU's (n-g)/n of S leaves through its NIC). Bound:
# within 5% of 48 N/(N-1) GB/s (the rule is itself rounded: N/(N-1) for
# (n-1)/(n-g)).
a2a=""
for N in 2 4 8 16; do
    set -- $(col a2a$N "$EX/superpod-4su.yaml" --op all-to-all --bytes 1G --ranks $((8 * N)))
    ran a2a$N
    holds "abs($1 / (48 * $N / ($N - 1)) - 1) <= 0.05" "alltoall on $N nodes: $1 GB/s against $("$PY" -c "print(48 * $N / ($N - 1))") by the rule"
    a2a="$a2a $N:$1"
done
echo "alltoall busbw (nodes:GB/s):$a2a; rule 48 N/(N-1)"

# ---- Meta: E-ECMP and queue-pair scaling ------------------------------------------------------
# Gangidi et al., "RDMA over Ethernet for Distributed AI Training at Meta
# Scale", SIGCOMM 2024, as Meta's engineering blog of 2024-08-05 quotes
# it: hashing the RoCE destination queue pair (E-ECMP) with more queue
# pairs per connection gave "up to 40%" on AllReduce against plain ECMP with one. On
# one AI zone of examples/llama3-roce.yaml (3,072 GPUs) railyard's ring
# all-reduce gains too, but more: plain ECMP puts K of a rack's 16 channel
# hops on one of its 16 uplinks (K the fullest bin of 192 racks' draws,
# 5..8 in tests/collective.sh's law), busbw = 800 / K; E-ECMP with 4 queue
# pairs spreads 64 flows, with 16 queue pairs 256, which fill the NICs.
# Bound: gain > 1, plain = 800 / K with K in 5..8 (not Meta's 1.4: see
# doc/network-model.md).
ZONE="--set cluster.gpus=3072 --op all-reduce --bytes 1G --routing ecmp"
set -- $(col plain "$EX/llama3-roce.yaml" $ZONE --qps 1 --set network.hash_qp=false)
ran plain
plain=$1
set -- $(col e4 "$EX/llama3-roce.yaml" $ZONE --qps 4 --set network.hash_qp=true)
ran e4
e4=$1
set -- $(col e16 "$EX/llama3-roce.yaml" $ZONE --qps 16 --set network.hash_qp=true)
ran e16
e16=$1
holds "$plain < $e4 <= $e16 and $e16 >= 0.95 * 400" "E-ECMP: plain $plain, 4 QPs $e4, 16 QPs $e16 GB/s"
holds "abs(800 / $plain - round(800 / $plain)) < 1e-6 and 5 <= round(800 / $plain) <= 8" \
    "plain ECMP all-reduce $plain GB/s is not 800 / K for K in 5..8"
echo "E-ECMP: plain ECMP $plain GB/s, 4 QPs hashed $e4 (x$("$PY" -c "print(round($e4 / $plain, 2))")), 16 QPs $e16 (x$("$PY" -c "print(round($e16 / $plain, 2))")); Meta: up to x1.4"

# ---- Alibaba HPN: hash polarisation -----------------------------------------------------------
# Qian et al., "Alibaba HPN: A Data Center Network for Large Language Model
# Training", SIGCOMM 2024 (abstract; hash polarisation): with the same
# hash on every switch of a 3-tier Clos, a middle switch sends the flows its ToR picked
# it for up a few of its uplinks only (polarisation); HPN's 2-tier
# dual-plane pod makes one hash decision (at the ToR) between any two of
# its GPUs, so nothing can polarise. railyard: sendrecv across the top tier
# of MegaScale's 3-tier 1:1 Clos (examples/megascale.yaml, shift 4,096: a
# third of the job away) with one seed against a seed per switch; and
# between segments of HPN's pod (examples/alibaba-hpn.yaml, shift 1,024).
# Bound: polarised < half the per-switch busbw on 3 tiers; on HPN's pod one
# seed within 0.8-1.25 of per-switch (other draws, no polarisation).
MS="$EX/megascale.yaml --op sendrecv --shift 4096 --bytes 1G --routing ecmp"
set -- $(col msp $MS --set network.hash_seed=per-switch)
ran msp
ms_ps=$1
set -- $(col mss $MS --set network.hash_seed=same)
ran mss
ms_same=$1
holds "$ms_same < 0.5 * $ms_ps" "3-tier polarisation: one seed $ms_same GB/s, per switch $ms_ps"
HPN="$EX/alibaba-hpn.yaml --op sendrecv --shift 1024 --bytes 1G --routing ecmp"
set -- $(col hps $HPN --set network.hash_seed=per-switch)
ran hps
hpn_ps=$1
set -- $(col hss $HPN --set network.hash_seed=same)
ran hss
hpn_same=$1
holds "0.8 <= $hpn_same / $hpn_ps <= 1.25" "HPN pod: one seed $hpn_same GB/s, per switch $hpn_ps"
echo "polarisation: 3 tiers one seed $ms_same GB/s against per switch $ms_ps; HPN pod $hpn_same against $hpn_ps"

# ---- MegaScale: ToR ports split in two -------------------------------------------------------
# Jiang et al., "MegaScale: Scaling Large Language Model Training to More
# Than 10,000 GPUs", NSDI 2024, section 3.6: each 400G ToR port split into
# two 200G downlinks, so an uplink has twice a NIC's rate and ECMP
# conflicts cost less. No before/after figure is published: the direction
# only. railyard: sendrecv shift 256 under ECMP on examples/megascale.yaml
# against the same fabric with 400G NICs, 32 down and 32 up a ToR. Bound:
# a larger share of the NIC's rate with the split ports.
cat >"$TMP/ms400.yaml" <<EOS
version: 1
name: ms400
cluster:
  gpus: 12288
  node: {name: hgx-h800, gpus_per_node: 8, nic_speed: 400G}
fabric:
  design: rail-optimized
  tiers:
    - {switch: tomahawk4, down: "400G x 32", up: "400G x 32"}
    - {down: "400G x 32", up: "400G x 32"}
    - {}
EOS
set -- $(col ms200 "$EX/megascale.yaml" --op sendrecv --shift 256 --bytes 1G --routing ecmp)
ran ms200
ms200=$1
set -- $(col ms400 "$TMP/ms400.yaml" --op sendrecv --shift 256 --bytes 1G --routing ecmp)
ran ms400
ms400=$1
holds "$ms200 / 25 > $ms400 / 50" "split ToR ports: $ms200 of 25 GB/s against $ms400 of 50"
echo "MegaScale split ports: $ms200 of 25 GB/s against $ms400 of 50"

# ---- Rail-only: all-to-all through the HB domain ----------------------------------------------
# Wang et al., "Rail-only: A Low-Cost High-Performance Network for Training
# LLMs with Trillion Parameters" (arXiv 2307.12169; earlier versions "How
# to Build Low-cost Networks for Large Language Models (without
# Sacrificing Performance)" and "Optimized Network Architectures for Large
# Language Model Training with Billions of Parameters"), abstract:
# all-to-all on rail-only, forwarded through the HB domain, takes 8.2-11.2%
# longer than on a rail-optimized network. The paper's forwarding is a
# step of its own: the bytes cross the HB domain to the GPU of the
# destination's rail, then the rail network (railyard's hierarchical
# all-to-all, --hierarchical). With NVLink at B_nvl = 450 GB/s a direction,
# NICs at B_net and domains of K GPUs out of n, that costs
# (B_net / B_nvl) ((K-1)/K) n / (n-K) more than the direct all-to-all of
# a rail-optimized fabric.
# railyard:
#  - DGX H100 (examples/superpod-4su.yaml made rail-only, K = 8, 400G):
#    64 and 256 ranks, rail-only hierarchical against rail-optimized
#    direct: the closed form (11.1% and 10.0%, 9.7% as n grows) within
#    1e-6. Bound: inside the paper's 8.2-11.2%.
#  - the paper's own cluster (examples/rail-only-gh200.yaml, DGX GH200 HB
#    domains of 256 superchips, one GPU a node), 1,024 ranks (4 domains):
#    the closed form, 14.8% (11.1% as n grows); a cluster of 4 domains is
#    smaller than any the abstract names. Bound: the closed form.
#  - NCCL's PXN overlaps the NVLink hop with the network (railyard's
#    direct all-to-all): rail-only then equals rail-optimized. Bound: the
#    same time within 1e-6 on the GH200 cluster.
ratio_of() {
    "$PY" -c "print(round(${1:-0} / ${2:-1} - 1, 6))"
}
closed() {  # K n R(GB/s): the hierarchical step's extra time over the direct one's
    "$PY" -c "K, n, R = $1, $2, $3; print(round(R / 450 * (K - 1) / K * n / (n - K), 6))"
}
SP="$EX/superpod-4su.yaml --op all-to-all --bytes 1G"
for n in 64 256; do
    set -- $(col roh$n $SP --ranks $n --set fabric.design=rail-only --hierarchical)
    ran roh$n
    h=$2
    set -- $(col rod$n $SP --ranks $n --set fabric.design=rail-optimized)
    ran rod$n
    d=$2
    got=$(ratio_of "$h" "$d")
    want=$(closed 8 $n 50)
    holds "abs($got - $want) < 1e-5 and 0.082 <= $got <= 0.112" \
        "DGX H100, $n ranks: rail-only hierarchical $h s against rail-optimized $d s: +$got, closed form +$want"
    echo "rail-only paper, DGX H100 $n ranks: all-to-all +$(ratio_of "$h" "$d") (paper: +0.082 to +0.112)"
done
RO="$EX/rail-only-gh200.yaml --op all-to-all --bytes 1G --ranks 1024"
set -- $(col ro $RO)
ran ro
ro_t=$2
set -- $(col roh $RO --hierarchical)
ran roh
roh_t=$2
set -- $(col ropt $RO --set fabric.design=rail-optimized)
ran ropt
ropt_t=$2
holds "abs(${ro_t:-0} / ${ropt_t:-1} - 1) < 1e-6" "rail-only direct (PXN) all-to-all ${ro_t:-none} s against rail-optimized ${ropt_t:-none} s"
got=$(ratio_of "$roh_t" "$ropt_t")
want=$(closed 256 1024 50)
holds "abs($got - $want) < 1e-5" "GH200 1,024 ranks: hierarchical +$got, closed form +$want"
echo "rail-only all-to-all on GH200, 1,024 ranks: direct (PXN) ${ro_t} s, hierarchical ${roh_t} s (+$got), rail-optimized ${ropt_t} s"

no_sanitizer "$TMP/ro.err"
finish
