#!/bin/sh
# railyard whatif --sweep: sweeps of random failures against closed forms
# computed here from the specs' own numbers:
#   - n of the S spines of a full two-tier fabric: every draw keeps (S-n)/S
#     of every HB domain's bandwidth (mean = worst), and the slowdown is
#     (T + D (S/(S-n) - 1)) / T, D the cross-domain all-reduce time
#     V / B_S (V from the model's shapes, B_S from the NIC speed);
#   - n leaves of a fabric of full units cut off n x (GPUs per leaf);
#   - spares: with spares.switches = k in the spec, n spine failures
#     are n - k; the spares the sweep asks for are the fewest that bring
#     the worst slowdown under --target, read off the sweep without spares;
#     more uplink spares never make a cable sweep worse;
#   - the same seeds give the same bytes; -o DIR writes the CSV, the
#     gnuplot script and, with gnuplot, the plots; bad input is refused.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
E="$TOP_SRCDIR/examples"
T="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

# superpod-4su with 128 nodes (4 full units of 32) and GPT-3 as the workload
sed -e '/^cost:/,$d' -e 's/^\(  *nodes:\).*/\1 128/' "$E/superpod-4su.yaml" >"$TMP/sp.yaml"
printf 'workload:\n  model: gpt-3-175b\n' >>"$TMP/sp.yaml"
grep -q '^  *nodes: 128' "$TMP/sp.yaml" && ok || fail "the spec was not set to 128 nodes"

# ---- spines: deterministic in n -----------------------------------------------------------
"$RAILYARD" whatif "$TMP/sp.yaml" --sweep spine=0..5 --seeds 7 --alone --paper --format json \
    >"$TMP/spine.json" 2>"$TMP/spine.err"
expect_eq "spine sweep exit" $? 0
no_sanitizer "$TMP/spine.err"
"$RAILYARD" whatif "$TMP/sp.yaml" --fail spine0 --alone --paper --format json >"$TMP/one.json" 2>&1
expect_eq "one spine exit" $? 0
"$PY" - "$TMP/sp.yaml" "$T/nodes.yaml" "$T/switches.yaml" "$T/llms.yaml" "$TMP/spine.json" \
    "$TMP/one.json" >"$TMP/spine.out" <<'P'
import json, sys, yaml
spec, nodes, switches, llms, out, one = sys.argv[1:]
s = yaml.safe_load(open(spec))
node = yaml.safe_load(open(nodes))["nodes"][s["cluster"]["node"]]
sw = yaml.safe_load(open(switches))["switches"][s["fabric"]["switch"]]
llm = yaml.safe_load(open(llms))["llms"][s["workload"]["model"]]
k = sw["radix"]
gpn, K = node["gpus_per_node"], node["hb_domain"]
N = s["cluster"]["nodes"] * gpn
units = s["cluster"]["nodes"] // s["cluster"]["scalable_unit"]
leaves = K * units                       # a leaf per rail per unit
S = leaves * (k // 2) // k               # spines: every leaf uplink, k ports each
l, d = llm["layers"], llm["d_model"]
V = l * 2 * (12 * d * d * 2) * (N // K - 1) / N     # one GPU's cross-domain all-reduce bytes
names = {"EDR": 100, "HDR": 200, "NDR200": 200, "NDR": 400, "XDR": 800}
sp = str(node.get("nic_speed", "400G"))
gbps = names[sp] if sp in names else int(sp.rstrip("G"))
D = V / (gbps * 1e9 / 8)
T = json.load(open(one))["training"]["t_iter_before_s"]
j = json.load(open(out))
pts = j["designs"][0]["points"]
if [p["failures"] for p in pts] != list(range(0, 6)):
    print("FAIL: points %r" % [p["failures"] for p in pts])
for p in pts:
    n = p["failures"]
    keep = (S - n) / S
    want = (T + D * (S / (S - n) - 1)) / T
    for what, got, w in (("bandwidth mean", p["bandwidth_kept_mean"], keep),
                         ("bandwidth worst", p["bandwidth_kept_worst"], keep),
                         ("slowdown mean", p["slowdown_mean"], want),
                         ("slowdown worst", p["slowdown_worst"], want),
                         ("GPUs cut", p["gpus_cut_worst"], 0)):
        if abs(got - w) > 1e-6 * max(1, abs(w)):
            print("FAIL: %d spines: %s %r, want %r" % (n, what, got, w))
    if p["draws"] != 7 or p["stalled"] != 0:
        print("FAIL: %d spines: %r draws, %r stalled" % (n, p["draws"], p["stalled"]))
print("S=%d" % S)
P
grep FAIL "$TMP/spine.out" && fail "spine sweep against (S-n)/S" || ok
S=$(sed -n 's/^S=//p' "$TMP/spine.out")
[ "${S:-0}" -gt 5 ] && ok || fail "spines: $S"

# ---- the full model (the default): the same failures move every term over B_S --------------
# A spine of S lost: every term over the network takes S/(S-1) as long; the
# layout is kept. Here: the cross-domain part of the data-parallel
# reduction and a stage boundary's point-to-point (on one rail) when it
# crosses domains; nothing else of this layout uses the network (checked).
# The reduction's raw times are recomputed here from the model's shape
# (doc/llm-model.md, "Communication and iteration time"): the first stage's
# weights per GPU phi = ((P - V h)/l x blocks + V h)/t, G = 2 phi bytes
# (bf16 gradients), reduce-scatter and all-gather inside the domains
# (2 G (d_in - 1)/d_in at NVLink one-way x 0.8) then across (2 G/d_in
# (d_x - 1)/d_x at the NIC x 0.9); it hides behind one micro-batch's compute
# (overlap.data 1), the rest is exposed. T_iter after = before + the
# exposed reduction's growth + pp/(S-1).
"$RAILYARD" whatif "$TMP/sp.yaml" --fail spine0 --alone --format json >"$TMP/full.json" 2>&1
expect_eq "full model, one spine exit" $? 0
"$RAILYARD" model "$TMP/sp.yaml" --format json >"$TMP/model.json" 2>&1
expect_eq "full model exit" $? 0
"$PY" - "$TMP/full.json" "$TMP/model.json" "$S" "$T/llms.yaml" >"$TMP/full.out" <<'P'
import json, sys, yaml
w, m, S = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
llm = yaml.safe_load(open(sys.argv[4]))["llms"]["gpt-3-175b"]
t, b, c = w["training"], m["optimum"], m["constants"]
if w["workload"]["mode"] != "full" or w["workload"]["pipeline"] != b["pipeline"] or w["workload"]["tensor"] != b["tensor"]:
    print("FAIL: whatif's layout %r, the model's TP %r PP %r" % (w["workload"], b["tensor"], b["pipeline"]))
if abs(t["t_iter_before_s"] - b["total_s"]) > 1e-9 * b["total_s"]:
    print("FAIL: T_iter before %r, the model's %r" % (t["t_iter_before_s"], b["total_s"]))
# what else could use the network: none in this layout (else this closed form is not it)
if b["cp_cross_domain"] and b["context"] > 1 or b["moe_s"] or m["workload"]["zero"] != 1:
    print("FAIL: the layout uses the network otherwise: %r" % b)
P, l, h, V = float(llm["parameters"]), llm["layers"], llm["d_model"], llm["vocab"]
phi = ((P - V * h) / l * b["blocks_per_stage"] + V * h) / b["tensor"]
G = 2 * phi
din, dx = b["dp_in"], b["dp_cross"]
bnv, bnet = c["B_F"] / 2 * 0.8, c["B_S"] * 0.9
dp_in = 2 * G * (din - 1) / din / bnv
dp_x = 2 * G / din * (dx - 1) / dx / bnet
window = b["compute_s"] / b["micro_batches"]
def exposed(dp):
    return dp - min(dp, window)
before = exposed(dp_in + dp_x)
if abs(b["dp_in_s"] + b["dp_cross_s"] - before) > 1e-9 * max(before, 1e-3):
    print("FAIL: DP exposed %r, by hand %r" % (b["dp_in_s"] + b["dp_cross_s"], before))
after = exposed(dp_in + dp_x * S / (S - 1))
if not after > before:
    print("FAIL: the failure moves nothing (DP %r -> %r): not a test" % (before, after))
moved = after - before + (b["pp_s"] / (S - 1) if b["p2p_cross_domain"] else 0)
want = t["t_iter_before_s"] + moved
if abs(t["t_iter_after_s"] - want) > 1e-6 * want:
    print("FAIL: T_iter after %r, want %r" % (t["t_iter_after_s"], want))
print("T_iter %.6f -> %.6f s: DP exposed %.6f -> %.6f s, pp %.6f s x S/(S-1), S = %d"
      % (t["t_iter_before_s"], t["t_iter_after_s"], before, after, b["pp_s"], S))
P
grep -v FAIL "$TMP/full.out"
grep FAIL "$TMP/full.out" && fail "the full model after a spine" || ok

# ---- leaves: n x GPUs per leaf cut off, on both designs ------------------------------------
"$RAILYARD" whatif "$TMP/sp.yaml" --sweep leaf=0..4 --seeds 5 --format json \
    >"$TMP/leaf.json" 2>"$TMP/leaf.err"
expect_eq "leaf sweep exit" $? 0
"$PY" - "$TMP/sp.yaml" "$T/nodes.yaml" "$TMP/leaf.json" >"$TMP/leaf.out" <<'P'
import json, sys, yaml
spec, nodes, out = sys.argv[1:]
s = yaml.safe_load(open(spec))
node = yaml.safe_load(open(nodes))["nodes"][s["cluster"]["node"]]
N = s["cluster"]["nodes"] * node["gpus_per_node"]
per_leaf = s["cluster"]["scalable_unit"]     # one GPU of each node of a unit on its rail's leaf
j = json.load(open(out))
if [d["design"] for d in j["designs"]] != ["rail-optimized", "rail-only"]:
    print("FAIL: designs %r" % [d["design"] for d in j["designs"]])
for d in j["designs"]:
    for p in d["points"]:
        want = p["failures"] * per_leaf / N
        for what in ("gpus_cut_mean", "gpus_cut_worst"):
            if abs(p[what] - want) > 1e-9:
                print("FAIL: %s, %d leaves: %s %r, want %r" % (d["design"], p["failures"], what, p[what], want))
P
grep FAIL "$TMP/leaf.out" && fail "leaf sweep against n x GPUs per leaf" || ok

# ---- spares ---------------------------------------------------------------------------------
sed 's/^workload:/spares:\n  switches: 2\nworkload:/' "$TMP/sp.yaml" >"$TMP/spares.yaml"
"$RAILYARD" whatif "$TMP/spares.yaml" --sweep spine=0..5 --seeds 7 --alone --paper --format json \
    --target 5% >"$TMP/spares.json" 2>"$TMP/spares.err"
expect_eq "spares sweep exit" $? 0
no_sanitizer "$TMP/spares.err"
"$PY" - "$TMP/spine.json" "$TMP/spares.json" >"$TMP/spares.out" <<'P'
import json, sys
plain = json.load(open(sys.argv[1]))["designs"][0]["points"]
spared = json.load(open(sys.argv[2]))
if spared["spares"] != {"switches": 2, "uplinks": 0}:
    print("FAIL: spares %r" % spared["spares"])
d = spared["designs"][0]
for p in d["points"]:
    q = plain[max(0, p["failures"] - 2)]
    if abs(p["slowdown_worst"] - q["slowdown_worst"]) > 1e-9:
        print("FAIL: %d spines with 2 spares: %r, want %r" % (p["failures"], p["slowdown_worst"], q["slowdown_worst"]))
# the fewest spares that keep 5 failures at or under 1.05, from the sweep without spares
need = min(sp for sp in range(0, 6) if plain[5 - sp]["slowdown_worst"] <= 1.05 + 1e-12)
got = d["spares_needed"]
if got["count"] != need or got["failures"] != 5 or abs(got["target"] - 1.05) > 1e-12:
    print("FAIL: spares needed %r, want %d" % (got, need))
if need in (0, 5):
    print("FAIL: the target does not discriminate (need %d)" % need)
P
grep FAIL "$TMP/spares.out" && fail "spares" || ok

for u in 0 1 3; do
    sed "s/^workload:/spares:\n  uplinks: $u\nworkload:/" "$TMP/sp.yaml" >"$TMP/up$u.yaml"
    "$RAILYARD" whatif "$TMP/up$u.yaml" --sweep cable=0..40+ --seeds 6 --alone --format json \
        >"$TMP/up$u.json" 2>"$TMP/up$u.err"
done
grep -q "bad range" "$TMP/up0.err" && ok || fail "cable=0..40+ not refused: $(cat "$TMP/up0.err")"
for u in 0 1 3; do
    "$RAILYARD" whatif "$TMP/up$u.yaml" --sweep cable=0..40 --seeds 6 --alone --format json \
        >"$TMP/up$u.json" 2>"$TMP/up$u.err"
    expect_eq "cable sweep, $u spare uplinks, exit" $? 0
done
"$PY" - "$TMP/up0.json" "$TMP/up1.json" "$TMP/up3.json" >"$TMP/up.out" <<'P'
import json, sys
w = [[p["slowdown_worst"] for p in json.load(open(f))["designs"][0]["points"]] for f in sys.argv[1:]]
for a, b, names in ((w[0], w[1], "0 -> 1"), (w[1], w[2], "1 -> 3")):
    if any(y > x + 1e-12 for x, y in zip(a, b)):
        print("FAIL: more uplink spares made a sweep worse (%s): %r %r" % (names, a, b))
if not any(y < x - 1e-12 for x, y in zip(w[0], w[2])):
    print("FAIL: 3 uplink spares changed nothing in 40 cable failures")
P
grep FAIL "$TMP/up.out" && fail "uplink spares" || ok

# ---- same seeds, same bytes; files ----------------------------------------------------------
"$RAILYARD" whatif "$TMP/sp.yaml" --sweep leaf=0..3 --seeds 4 --seed 9 >"$TMP/a.txt" 2>&1
"$RAILYARD" whatif "$TMP/sp.yaml" --sweep leaf=0..3 --seeds 4 --seed 9 >"$TMP/b.txt" 2>&1
cmp -s "$TMP/a.txt" "$TMP/b.txt" && ok || fail "two sweeps with the same seeds differ"
grep -q "seeds 9\.\.12" "$TMP/a.txt" && ok || fail "the text does not name the seeds: $(head -1 "$TMP/a.txt")"
"$RAILYARD" whatif "$TMP/sp.yaml" --sweep leaf=0..3 --seeds 4 -o "$TMP/out" >"$TMP/o.txt" 2>"$TMP/o.err"
expect_eq "sweep -o exit" $? 0
for f in whatif-sweep.csv whatif-sweep.gp; do
    [ -s "$TMP/out/$f" ] && ok || fail "no $f"
done
expect_eq "CSV rows (header + 2 designs x 4 points)" "$(wc -l <"$TMP/out/whatif-sweep.csv")" 9
if command -v gnuplot >/dev/null 2>&1; then
    for f in whatif-sweep.png whatif-sweep.svg; do
        [ -s "$TMP/out/$f" ] && ok || fail "gnuplot is installed but there is no $f"
    done
    grep -q "<svg" "$TMP/out/whatif-sweep.svg" && ok || fail "whatif-sweep.svg is not SVG"
fi

# ---- bad input ------------------------------------------------------------------------------
bad() {
    _want=$1; shift
    "$RAILYARD" whatif "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
    _rc=$?
    [ "$_rc" -eq 2 ] && ok || fail "whatif $*: exit $_rc, want 2"
    grep -q -- "$_want" "$TMP/bad.err" && ok || fail "whatif $*: no '$_want' in: $(cat "$TMP/bad.err")"
    [ -s "$TMP/bad.out" ] && fail "whatif $*: wrote to standard output" || ok
}
bad "KIND=LO..HI" "$TMP/sp.yaml" --sweep leaf
bad "bad range" "$TMP/sp.yaml" --sweep leaf=3..1
bad "no switch of kind 'router'" "$TMP/sp.yaml" --sweep router=0..2
# every tier of a three-tier fabric named, nothing elided
bad "expected leaf, spine, core, cable or nic" "$E/search-h100.yaml" --sweep router=0..2
bad "does not go with --fail" "$TMP/sp.yaml" --sweep leaf=0..2 --fail leaf0
bad "whole number from 1" "$TMP/sp.yaml" --sweep leaf=0..2 --seeds 0
bad "slowdown from 1" "$TMP/sp.yaml" --sweep leaf=0..2 --target 0.5
bad "needs a workload" "$E/superpod-4su.yaml" --sweep leaf=0..2 --target 1.2
bad "go with --sweep" "$TMP/sp.yaml" --fail leaf0 --seeds 3
bad "no spare repairs a NIC" "$TMP/sp.yaml" --sweep nic=0..2 --target 1.2
bad "--paper needs a workload" "$E/superpod-4su.yaml" --sweep leaf=0..2 --paper
# Without a workload a draw stalls when an HB domain has no network left:
# all S spines down.
"$RAILYARD" whatif "$E/superpod-4su.yaml" --sweep spine=$((S - 1))..$S --seeds 2 --alone \
    --format json >"$TMP/st.json" 2>&1
expect_eq "no-workload sweep to every spine exit" $? 0
expect_eq "stalled draws (S-1, S spines)" "$("$PY" -c 'import json,sys; print([p["stalled"] for p in json.load(open(sys.argv[1]))["designs"][0]["points"]])' "$TMP/st.json")" "[0, 2]"
# more than the fabric has: the point is reported, not an error
"$RAILYARD" whatif "$TMP/sp.yaml" --sweep spine=$((S - 1))..$((S + 1)) --seeds 2 --alone \
    --format json >"$TMP/many.json" 2>&1
expect_eq "sweep past the spines exit" $? 0
"$PY" - "$TMP/many.json" "$S" >"$TMP/many.out" <<'P'
import json, sys
S = int(sys.argv[2])
v = [(p["failures"], p["valid"]) for p in json.load(open(sys.argv[1]))["designs"][0]["points"]]
if v != [(S - 1, True), (S, True), (S + 1, False)]:
    print("FAIL: %r" % v)
P
grep FAIL "$TMP/many.out" && fail "points past the fabric's spines" || ok

# ---- the flow engine: a sweep's draw is the single whatif of the same draw ----------------
# rail-only, 2 random spines: seed k of --sweep spine=2..2 --seed k draws
# what --random spine:2 --seed k draws, and its slowdown is that run's on
# the engine (the layout routed around them), or with --analytic the
# analytic rerun's. Some draw must cost something (both spines of a rail:
# its units cut apart, relayed through the other rails).
RO="$TMP/sp.yaml --set fabric.design=rail-only --alone --format json"
costly=0
for k in 1 2 3 4 5 6 7 8; do
    for mode in engine analytic; do
        extra=""
        [ $mode = analytic ] && extra=--analytic
        # shellcheck disable=SC2086
        "$RAILYARD" whatif $RO --random spine:2 --seed $k $extra >"$TMP/one$k.json" 2>&1
        # shellcheck disable=SC2086
        "$RAILYARD" whatif $RO --sweep spine=2..2 --seeds 1 --seed $k $extra >"$TMP/sw$k.json" 2>&1
        got=$("$PY" - "$TMP/one$k.json" "$TMP/sw$k.json" $mode <<'P'
import json, sys
one, sw, mode = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
d = sw["designs"][0]
want = one["engine"]["slowdown"] if mode == "engine" else one["training"]["slowdown"]
got = d["points"][0]["slowdown_mean"]
ok = d["slowdown_on"] == mode and want is not None and abs(got - want) <= 1e-9 * want
print("%s %r %r %s" % ("ok" if ok else "bad", got, want, d["slowdown_on"]))
P
)
        case "$got" in
        ok*) ok ;;
        *) fail "spine:2 seed $k ($mode): the sweep's slowdown against the single run's: $got" ;;
        esac
        [ $mode = engine ] && "$PY" -c "import sys; sys.exit(not float('${got#* }'.split()[0]) > 1)" 2>/dev/null &&
            costly=$((costly + 1))
    done
done
[ "$costly" -ge 1 ] && ok || fail "no draw of 2 spines costs rail-only anything on the engine: not a test"

finish
