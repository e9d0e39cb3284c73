#!/bin/sh
# railyard whatif: GPU pairs that reach each other when a NIC's two ports
# sit on a ToR pair (fabric.homing), against closed forms computed here
# from the cabling plan (cabling.csv: which GPUs each ToR takes, how many
# aggregation switches there are), and against a count of our own on the
# cabled graph for random failures:
#   - dual-tor (the pair's two ToRs under one aggregation layer, one
#     network): one ToR of pair A and the other ToR of pair B lost, every
#     GPU keeps a port and every pair a path (out of A's GPU by one port,
#     through the aggregation layer, into B's GPU by its other port);
#     both ToRs of a pair lost, its L GPUs are cut off: C(N,2) - C(N-L,2)
#     pairs lost, however many single ToRs of other pairs are lost too;
#     the aggregation layer lost, only GPUs of the same ToR pair reach each
#     other (each ToR its own island): P * C(L,2);
#   - dual-plane (the pair's ToRs in two planes, two networks): a pair
#     reaches when one plane connects it: one ToR of pair A (plane 0) and
#     the other of pair B (plane 1) lost, the L * L pairs of A and B lose
#     their path; plane 0's aggregation layer lost and pair A's plane-1
#     ToR, A's GPUs reach only each other: L * (N - L) pairs lost;
#   - single homing counts as before (a plane is a network);
#   - --random draws (the sweep's generator) give the count of our own.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SPEC="$TOP_SRCDIR/tests/data/ib/dual-tor.yaml"

for h in dual-tor dual-plane single; do
    "$RAILYARD" cabling "$SPEC" --set fabric.homing=$h -o "$TMP/cab-$h" >/dev/null 2>"$TMP/cab.err"
    expect_eq "cabling $h: exit" $? 0
    no_sanitizer "$TMP/cab.err"
done
# four ToR pairs a GPU on radix-8 switches (three tiers, ToRs of 4 GPUs)
EIGHT="--set cluster.planes=8 --set fabric.switch.radix=8"
# shellcheck disable=SC2086  # EIGHT is two options
"$RAILYARD" cabling "$SPEC" $EIGHT -o "$TMP/cab-dual-tor8" >/dev/null 2>"$TMP/cab.err"
expect_eq "cabling dual-tor, 8 planes: exit" $? 0
no_sanitizer "$TMP/cab.err"
# spines CABLING [PREFIX]: the aggregation switches (of plane PREFIX), as a --fail list
spines() {
    awk -F, -v p="${2:-p[0-9]+}" '$12 ~ "^" p "-spine" {print $12}' "$TMP/cab-$1/cabling/cabling.csv" |
        sort -u | tr '\n' ',' | sed 's/,$//'
}
for h in dual-tor dual-plane dual-tor8; do
    [ -n "$(spines $h)" ] && ok || fail "$h: no aggregation switch in cabling.csv"
done

# whatif HOMING NAME ELEMENTS...: the JSON into $TMP/HOMING-NAME.json
whatif() {
    h=$1 name=$2
    shift 2
    "$RAILYARD" whatif "$SPEC" --set fabric.homing="$h" --alone --format json "$@" \
        >"$TMP/$h-$name.json" 2>"$TMP/whatif.err"
    expect_eq "whatif $h $name: exit" $? 0
    no_sanitizer "$TMP/whatif.err"
}

whatif dual-tor cross --fail p0-leaf0,p1-leaf1
whatif dual-tor pair --fail p0-leaf0,p1-leaf0
whatif dual-tor pair-cross --fail p0-leaf0,p1-leaf0,p0-leaf1,p1-leaf2
whatif dual-tor cross-spine --fail p0-leaf0,p1-leaf1,p0-spine0,p0-spine3
whatif dual-tor no-agg --fail "$(spines dual-tor)"
whatif dual-tor no-agg-cross --fail "$(spines dual-tor)",p0-leaf0,p1-leaf1
whatif dual-plane cross --fail p0-leaf0,p1-leaf1
whatif dual-plane pair --fail p0-leaf0,p1-leaf0
whatif dual-plane no-agg0 --fail "$(spines dual-plane p0)"
whatif dual-plane no-agg0-pair --fail "$(spines dual-plane p0)",p1-leaf0
whatif single cross --fail p0-leaf0,p1-leaf1
# four ToR pairs a GPU, every aggregation switch lost: each ToR an island
# shellcheck disable=SC2086
"$RAILYARD" whatif "$SPEC" $EIGHT --alone --format json --fail "$(spines dual-tor8)" \
    >"$TMP/dual-tor8-no-agg.json" 2>"$TMP/whatif.err"
expect_eq "whatif dual-tor, 8 planes, no aggregation: exit" $? 0
no_sanitizer "$TMP/whatif.err"
for h in dual-tor dual-plane single; do
    for seed in 1 2 3 4 5 6; do
        whatif "$h" random$seed --random leaf:$((seed % 4 + 1)),spine:$seed --seed $seed
    done
    whatif "$h" random-cable --random cable:40,nic:6 --seed 7
done

"$PY" - "$SPEC" "$TMP" >"$TMP/out" <<'P'
import csv, itertools, json, sys, yaml
spec, tmp = sys.argv[1:]
s = yaml.safe_load(open(spec))
gpn = s["cluster"]["node"]["gpus_per_node"]
N = s["cluster"]["nodes"] * gpn
checks = bad = 0

def check(what, got, want):
    global checks, bad
    checks += 1
    if got != want:
        bad += 1
        print(f"FAIL: {what}: got {got}, want {want}")

def c2(n):
    return n * (n - 1) // 2

def cabling(h):
    """GPU -> its cables (host, port), and the switch-switch cables."""
    rows = list(csv.DictReader(open(f"{tmp}/cab-{h}/cabling/cabling.csv", newline="")))
    hosts = sorted({r["a_device"] for r in rows if r["tier"] == "1"})
    return rows, hosts

def leaf_gpus(h, leaf):
    rows, _ = cabling(h)
    return {(r["a_device"], int(r["a_port"].split("_")[1]) % gpn)
            for r in rows if r["tier"] == "1" and r["z_device"] == leaf}

def conn(h, name):
    return json.load(open(f"{tmp}/{h}-{name}.json"))["connectivity"]

def no_path(h, name):
    return conn(h, name)["pairs_no_fabric_path"]

L = len(leaf_gpus("dual-tor", "p0-leaf0"))
check("dual-tor: a ToR's GPUs", L > 0, True)
check("dual-tor: a pair's ToRs take the same GPUs", leaf_gpus("dual-tor", "p1-leaf0"),
      leaf_gpus("dual-tor", "p0-leaf0"))
rows, _ = cabling("dual-tor")
pairs_of_tors = len({r["z_device"] for r in rows if r["tier"] == "1"}) // 2

# dual-tor: one network
check("dual-tor: one ToR of A, the other of B: GPUs cut", conn("dual-tor", "cross")["gpus_cut"], 0)
check("dual-tor: one ToR of A, the other of B: pairs without a path", no_path("dual-tor", "cross"), 0)
check("dual-tor: ... and two aggregation switches", no_path("dual-tor", "cross-spine"), 0)
check("dual-tor: a pair lost: GPUs cut", conn("dual-tor", "pair")["gpus_cut"], L)
check("dual-tor: a pair lost: pairs without a path", no_path("dual-tor", "pair"), c2(N) - c2(N - L))
check("dual-tor: a pair, one ToR of B, the other of C: pairs without a path",
      no_path("dual-tor", "pair-cross"), c2(N) - c2(N - L))
check("dual-tor: no aggregation: pairs without a path", no_path("dual-tor", "no-agg"),
      c2(N) - pairs_of_tors * c2(L))
check("dual-tor: no aggregation, one ToR of A, the other of B", no_path("dual-tor", "no-agg-cross"),
      c2(N) - pairs_of_tors * c2(L))
# those without a fabric path still reach over NVLink (a domain spans the rails)
check("dual-tor: a pair lost: all reached over NVLink", conn("dual-tor", "pair")["pairs_unreachable"], 0)

# dual-plane: two networks, a pair reaches on either
check("dual-plane: a pair's ToRs take the same GPUs", leaf_gpus("dual-plane", "p1-leaf0"),
      leaf_gpus("dual-plane", "p0-leaf0"))
check("dual-plane: one ToR of A, the other of B", no_path("dual-plane", "cross"), L * L)
check("dual-plane: a pair lost", no_path("dual-plane", "pair"), c2(N) - c2(N - L))
check("dual-plane: plane 0's aggregation lost", no_path("dual-plane", "no-agg0"), 0)
check("dual-plane: plane 0's aggregation and A's plane-1 ToR lost",
      no_path("dual-plane", "no-agg0-pair"), L * (N - L))
check("single: one ToR of A (plane 0), another of B (plane 1)", no_path("single", "cross"), L * L)
# with four pairs a GPU the same GPUs share a ToR in each network (more
# sets of components than GPUs: each GPU holds 2^4 of one shape)
rows, _ = cabling("dual-tor8")
tors8 = len({r["z_device"] for r in rows if r["tier"] == "1"})
L8 = len(leaf_gpus("dual-tor8", "p0-leaf0"))
check("dual-tor, 8 planes: ToRs of a plane take all GPUs", tors8 // 8 * L8, N)
check("dual-tor, 8 planes: no aggregation", no_path("dual-tor8", "no-agg"),
      c2(N) - tors8 // 8 * c2(L8))

# random failures: the pairs whose sets of components meet, on the cabled
# graph (GPUs do not forward; a switch, a cable by its label or
# SWITCH/PORT, a NIC as HOST/mlx5_k)
def count(h, name):
    d = json.load(open(f"{tmp}/{h}-{name}.json"))
    failed = set(d["failed"])
    rows, _ = cabling(h)
    parent = {}
    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    def down(r):
        return (r["label"] in failed or r["a_device"] in failed or r["z_device"] in failed or
                f'{r["z_device"]}/{r["z_port"]}' in failed or
                f'{r["a_device"]}/{r["a_port"]}' in failed)
    comps = {}
    for r in rows:
        if down(r):
            continue
        if r["tier"] == "1":
            gpu = (r["a_device"], int(r["a_port"].split("_")[1]) % gpn)
            comps.setdefault(gpu, []).append(r["z_device"])
        else:
            parent[find(r["a_device"])] = find(r["z_device"])
    sets = [frozenset(find(x) for x in v) for v in comps.values()]
    return sum(1 for a, b in itertools.combinations(sets, 2) if a & b)

for h, name in [(h, n) for h in ("dual-tor", "dual-plane", "single")
                for n in [f"random{i}" for i in range(1, 7)] + ["random-cable"]] + [("dual-tor8", "no-agg")]:
    c = conn(h, name)
    check(f"{h} {name}: pairs with a fabric path", c["pairs"] - c["pairs_no_fabric_path"],
          count(h, name))
print(f"{checks} checks, {bad} failed")
sys.exit(1 if bad else 0)
P
if [ $? -eq 0 ]; then ok; else fail "pair counts: $(grep FAIL "$TMP/out" | head -20)"; fi
cat "$TMP/out"
finish
