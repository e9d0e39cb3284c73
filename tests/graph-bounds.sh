#!/bin/sh
# The graph's size bound (railyard(1), LIMITS): forced tiers, a very large
# radix or more planes that would build a graph of more than 67,108,864
# ports are refused before anything is allocated, at the key to blame, with
# the switches, ports and links counted here in closed form from the
# builder's rules (a tier's blocks take d of the blocks below and give each
# position u switches; the top the smallest divisor m of u with m*k >= c*u).
# The closed form is first checked against graphs that are built.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SP="$TOP_SRCDIR/examples/superpod-4su.yaml"

cat >"$TMP/size.py" <<'P'
import sys
def tree(k, leaves, tiers):
    """switches and links above the GPUs of one 1:1 tree of radix k"""
    d = u = k // 2
    t = tiers
    if t == 0:                      # as many as needed
        t, blocks = 2, -(-leaves // d)
        if leaves > k:
            t = 3
            while blocks > k:
                blocks, t = -(-blocks // d), t + 1
    sw, links, blocks, pos = leaves, leaves * u, leaves, 1
    per_tier = [leaves]
    for j in range(2, t + 1):
        if j < t:
            blocks = -(-blocks // d)
            n = blocks * pos * u
            pos *= u
            links += n * u
        else:
            m = next(m for m in range(1, u + 1) if u % m == 0 and m * k >= blocks * u)
            n = pos * m
        per_tier.append(n)
        sw += n
    return sw, links, per_tier, t

def railopt(G, k, tiers, K=8, S=32):
    # one leaf per rail and scalable unit of S domains when S <= k/2
    units = -(-(G // K) // S)
    leaves = K * units * -(-S // (k // 2))
    sw, links, per, t = tree(k, leaves, tiers)
    return sw, sw * k + G, links + G, per, t

G, k, tiers = (int(a) for a in sys.argv[1:4])
sw, ports, links, per, t = railopt(G, k, tiers)
if sys.argv[4] == "bom":
    print(per, links)
else:
    f = lambda v: "{:,}".format(v)
    print("%s switches with %s ports and %s links" % (f(sw), f(ports), f(links)))
P

# (a) the closed form against built graphs: per-tier switches and links
for t in 2 3 4; do
    "$RAILYARD" -q bom "$SP" --set fabric.tiers=$t --format json >"$TMP/b$t.json" 2>"$TMP/b$t.err"
    expect_eq "tiers=$t: bom exit" "$?:$(cat "$TMP/b$t.err")" "0:"
    got=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["switches"]["per_tier"], d["links"]["total"])' "$TMP/b$t.json")
    expect_eq "tiers=$t: closed form = built graph" "$got" "$("$PY" "$TMP/size.py" 1016 64 $t bom)"
done

# (b) tiers 6, 7 and 8 over 1016 GPUs: refused at once, at --set's value
for t in 6 7 8; do
    start=$(date +%s)
    "$RAILYARD" -q validate "$SP" --set fabric.tiers=$t >"$TMP/t$t.out" 2>"$TMP/t$t.err"
    rc=$?
    secs=$(( $(date +%s) - start ))
    expect_eq "tiers=$t: exit" $rc 1
    [ "$secs" -le 5 ] && ok || fail "tiers=$t: took ${secs}s"
    [ -s "$TMP/t$t.out" ] && fail "tiers=$t: wrote to stdout" || ok
    want="--set:1:14: error: fabric.tiers=$t would build $("$PY" "$TMP/size.py" 1016 64 $t msg) (about "
    case $(cat "$TMP/t$t.err") in
        "$want"*"GB); the limit is 67,108,864 ports: use tiers: auto (2 tiers here)") ok ;;
        *) fail "tiers=$t: $(cat "$TMP/t$t.err") (want $want...)" ;;
    esac
done

# (c) radix 65,534 in 3 tiers (1 is enough): from a file, at the tiers key
cat >"$TMP/wide.yaml" <<'Y'
name: wide
cluster:
  nodes: 127
  node: dgx-h100
  scalable_unit: 32
fabric:
  switch: {name: wide, radix: 65534, speed: NDR}
  tiers: 3
Y
start=$(date +%s)
"$RAILYARD" -q bom "$TMP/wide.yaml" >"$TMP/wide.out" 2>"$TMP/wide.err"
expect_eq "radix 65534, 3 tiers: exit" $? 1
secs=$(( $(date +%s) - start ))
[ "$secs" -le 5 ] && ok || fail "radix 65534: took ${secs}s"
# 8 rails x 4 units of 32 domains: 32 leaves, one pod of 32767 spines, and
# the top's smallest m dividing 32767 with m*65534 >= 1*32767 (m = 1)
sw=$((32 + 32767 + 32767)); ports=$((sw * 65534 + 1016)); links=$((1016 + 32 * 32767 + 32767 * 32767))
want=$("$PY" -c 'import sys; f=lambda v: "{:,}".format(int(v)); print("%s switches with %s ports and %s links" % tuple(map(f, sys.argv[1:])))' $sw $ports $links)
grep -qF "$TMP/wide.yaml:8:10: error: fabric.tiers=3 would build $want (about " "$TMP/wide.err" \
    && ok || fail "radix 65534: $(cat "$TMP/wide.err") (want $want)"
grep -q "use tiers: auto (1 tier here)$" "$TMP/wide.err" && ok || fail "radix 65534: the remedy"

# (d) the largest spec with two planes: blamed on the planes; one plane fits
"$RAILYARD" -q validate "$SP" --set cluster.nodes=524288 --set cluster.planes=2 >/dev/null 2>"$TMP/p2.err"
expect_eq "4,194,304 GPUs on 2 planes: exit" $? 1
grep -q "^--set:2:16: error: cluster.planes=2 would build 1,179,648 switches with 83,886,080 ports" \
    "$TMP/p2.err" && ok || fail "planes: $(cat "$TMP/p2.err")"

finish
