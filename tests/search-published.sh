#!/bin/sh
# Published designs against `railyard search`, each claim checked against
# numbers this test computes itself:
#
# 1. The rail-only paper's Table 2 (tests/data/search/rail-only-table2.yaml):
#    for each cluster and switch radix of the table, rail-only is on the
#    front of capex against iteration time and rail-optimized ("SOTA") is
#    not; the two train the paper's LLMs in the same time (the paper's
#    claim; the time of each workload from `railyard model`, their mean the
#    search's); the switch counts are the Clos closed forms of the table;
#    the paper's cost model gives the table's reductions; and the full
#    capex of every point is `railyard bom`'s.
#
#    Where the full capex differs from the paper's cost model, and why. The
#    paper prices every port of every switch at $748 and two transceivers
#    per link, GPU to leaf included, at $374 each. The search prices a
#    point as `railyard bom` does: the switches at list price (here the
#    paper's $748 a port, tests/data/search/paper-switches), one module per
#    cabled cage at the catalog's price for its medium and reach (NDR
#    multimode $780-1,450, single-mode $1,100 at the spine and core's
#    lengths; active copper for the shortest runs, no module at all), and
#    the cables by length. Optics then weigh about 60% of the bill instead
#    of 36-40%, and the optics shrink by the ratio of the links (rail-only
#    keeps 1/2, 2/3, 1/3, 1/2 of them at radix 32, 64, 128, 256), less than
#    the switches do (3/7, 3/5, 1/5, 1/3): the full capex is cut by less
#    than the paper's model says, in every row (the test requires it).
#
# 2. Meta's 24K-GPU RoCE cluster with Llama 3 405B's layout
#    (tests/data/search/llama3-roce-taper.yaml): the aggregation taper from
#    1:1 to 8:1. The optics and cables of each point follow from the up
#    ports a cluster switch keeps, floor(192 / taper); the iteration time
#    from the one term the taper touches, the pipeline's point-to-point
#    where a stage boundary meets a pod's edge (tensor x data = 1,024
#    flows against the 16 x up uplinks of a pod); the front and the answer
#    are recomputed from the points; 1:1 and 7:1 are checked against
#    `railyard bom` and `railyard model`.
#
# The search's wall time is printed (it runs with -j2).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/search"
CAT="$D/paper-switches"
T2="$D/rail-only-table2.yaml"
M="$D/llama3-roce-taper.yaml"

now() { date +%s%N; }
secs=0
timed() {   # timed OUT ERR CMD...: runs CMD, adds its wall time to $secs
    o=$1 e=$2
    shift 2
    t0=$(now)
    "$@" >"$o" 2>"$e"
    rc=$?
    t1=$(now)
    secs=$(awk -v s="$secs" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", s + (b - a) / 1e9 }')
    return $rc
}

# ---- 1. the rail-only paper's Table 2 ----------------------------------------------
: >"$TMP/cases"
for case in 32768:32 32768:64 32768:128 32768:256 65536:64 65536:128 65536:256; do
    n=${case%:*} r=${case#*:}
    sw=radix$r-400g
    timed "$TMP/s-$n-$r.csv" "$TMP/s-$n-$r.err" "$RAILYARD" search -T "$CAT" "$T2" -q -j2 \
        --set cluster.gpus=$n --vary fabric.switch=$sw --format csv
    expect_eq "search N=$n radix $r exits" $? 0
    no_sanitizer "$TMP/s-$n-$r.err"
    for d in rail-optimized rail-only; do
        "$RAILYARD" bom -T "$CAT" "$T2" --set cluster.gpus=$n --set fabric.design=$d \
            --set fabric.switch=$sw --format csv >"$TMP/b-$n-$r-$d.csv" 2>"$TMP/b.err"
        expect_eq "bom N=$n radix $r $d exits" $? 0
    done
    echo "$n $r" >>"$TMP/cases"
done
# Each workload's time on both designs, from the model (two of the cases).
for case in 32768:64 65536:128; do
    n=${case%:*} r=${case#*:}
    for d in rail-optimized rail-only; do
        for w in gpt-3-175b:16384 opt-175b: palm-540b:; do
            m=${w%:*} b=${w#*:}
            "$RAILYARD" model -T "$CAT" "$T2" --set cluster.gpus=$n --set fabric.design=$d \
                --set fabric.switch=radix$r-400g --set workload.model=$m \
                ${b:+--set workload.batch=$b} --format json >"$TMP/m-$n-$r-$d-$m.json" 2>"$TMP/m.err"
            expect_eq "model N=$n radix $r $d $m exits" $? 0
        done
    done
done
# The whole table at 32,768 GPUs in one search: every radix at once.
timed "$TMP/all.txt" "$TMP/all.err" "$RAILYARD" search -T "$CAT" "$T2" -q -j2
expect_eq "search over every radix exits" $? 0
no_sanitizer "$TMP/all.err"

"$PY" - "$TMP" >"$TMP/paper.out" 2>&1 <<'PYEOF'
import csv, json, math, sys
tmp = sys.argv[1]
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)

# The paper's Table 2 as printed: N, radix -> SOTA switches, rail-only
# switches, SOTA transceivers, rail-only transceivers, reduction (%).
TABLE2 = {(32768, 32): (7168, 3072, 262144, 131072, 54.5),
          (32768, 64): (2560, 1536, 196608, 131072, 37.5),
          (32768, 128): (1280, 256, 196608, 65536, 75.0),
          (32768, 256): (384, 128, 131072, 65536, 60.0),
          (65536, 64): (5120, 3072, 393216, 262144, 37.5),
          (65536, 128): (2560, 1536, 393216, 262144, 37.5),
          (65536, 256): (1280, 256, 393216, 131072, 75.0)}
K = 256                     # GPUs of a DGX GH200 HB domain, one rail each

def clos(n, k):
    """Tiers, switches and links of a non-blocking folded Clos of radix-k
    switches over n endpoints (doc: reference Clos sizing rules)."""
    t = 1
    while k ** t / 2 ** (t - 1) < n:
        t += 1
    sw = (t - 1) * math.ceil(2 * n / k) + math.ceil(n / k) if t > 1 else 1
    return t, sw, t * n

def paper(n, k):
    """Switches and transceivers of SOTA and rail-only, by the closed forms."""
    t, s, links = clos(n, k)
    per_rail = n // K
    if per_rail <= k:
        # a rail fits in one switch: floor(k / per_rail) rails share it
        ro_sw, ro_links = math.ceil(K / (k // per_rail)), n
    else:
        rt, rs, rl = clos(per_rail, k)
        ro_sw, ro_links = K * rs, K * rl
    return s, ro_sw, 2 * links, 2 * ro_links

def rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))

def bom(path):
    """capex and paper-model totals of a `railyard bom --format csv`."""
    out = {}
    for r in rows(path):
        if r["section"] == "capex":
            out[r["item"]] = out.get(r["item"], 0) + float(r["extended_price"])
        if r["section"] == "paper" and r["item"] == "total":
            out["paper"] = float(r["extended_price"])
            out["paper_switches"] = int(r["switches"])
            out["paper_transceivers"] = int(r["transceivers"])
    return out

print("Table 2 on the paper's cluster (GH200, K = 256), full capex against the paper's cost model")
print("%6s %5s | %14s %14s %6s | %14s %14s %6s | %s" % (
    "N", "radix", "SOTA capex", "rail-only", "full", "SOTA (paper)", "rail-only", "paper",
    "iteration s (SOTA = rail-only), front"))
cases = [tuple(int(x) for x in l.split()) for l in open(tmp + "/cases")]
for n, k in cases:
    ss, rs, st, rt, red = TABLE2[(n, k)]
    cs, cr, cst, crt = paper(n, k)
    check((cs, cr, cst, crt) == (ss, rs, st, rt),
          "N=%d radix %d: the closed forms give %s, Table 2 prints %s" %
          (n, k, (cs, cr, cst, crt), (ss, rs, st, rt)))
    pts = {r["fabric.design"]: r for r in rows("%s/s-%d-%d.csv" % (tmp, n, k))}
    check(sorted(pts) == ["rail-only", "rail-optimized"], "N=%d radix %d: points %s" % (n, k, sorted(pts)))
    if len(bad):
        continue
    so, ro = pts["rail-optimized"], pts["rail-only"]
    # front membership and the answer: rail-only, not SOTA
    check(ro["front"] == "1" and ro["answer"] == "1", "N=%d radix %d: rail-only not the front's answer (front %s answer %s)" % (n, k, ro["front"], ro["answer"]))
    check(so["front"] == "0", "N=%d radix %d: SOTA on the front" % (n, k))
    check(so["published"] == "Table 2 SOTA r%d" % k and ro["published"] == "Table 2 rail-only r%d" % k,
          "N=%d radix %d: labels %r %r" % (n, k, so["published"], ro["published"]))
    # the paper's claim: the same iteration time
    check(so["iteration_s"] == ro["iteration_s"], "N=%d radix %d: iteration %s (SOTA) vs %s (rail-only)" %
          (n, k, so["iteration_s"], ro["iteration_s"]))
    # switch counts and prices: the closed forms; the switches' capex at $748 a port
    check(int(so["switches"]) == ss and int(ro["switches"]) == rs,
          "N=%d radix %d: switches %s / %s, want %d / %d" % (n, k, so["switches"], ro["switches"], ss, rs))
    for p, sw in ((so, ss), (ro, rs)):
        check(abs(float(p["capex_switches"]) - sw * k * 748) < 0.01,
              "N=%d radix %d %s: switch capex %s, want %d" % (n, k, p["design"], p["capex_switches"], sw * k * 748))
    # full capex: the bill of materials of the same point
    b = {d: bom("%s/b-%d-%d-%s.csv" % (tmp, n, k, d)) for d in pts}
    for d, p in pts.items():
        for col, item in (("capex", "total"), ("capex_switches", "switches"),
                          ("capex_optics", "optics"), ("capex_cables", "cables")):
            check(abs(float(p[col]) - b[d][item]) < 0.01,
                  "N=%d radix %d %s: search %s %s, bom %s %.2f" % (n, k, d, col, p[col], item, b[d][item]))
    # the paper's cost model: bom's paper section is the closed form, whose reduction is Table 2's
    cost = {"rail-optimized": ss * k * 748 + st * 374, "rail-only": rs * k * 748 + rt * 374}
    for d in pts:
        check(abs(b[d]["paper"] - cost[d]) < 0.01, "N=%d radix %d %s: bom --cost paper %.2f, closed form %d" %
              (n, k, d, b[d]["paper"], cost[d]))
    pred = 100 * (1 - cost["rail-only"] / cost["rail-optimized"])
    check("%.1f" % pred == "%.1f" % red, "N=%d radix %d: paper-model reduction %.1f%%, Table 2 %.1f%%" % (n, k, pred, red))
    full = 100 * (1 - b["rail-only"]["total"] / b["rail-optimized"]["total"])
    check(0 < full < pred, "N=%d radix %d: full-capex reduction %.1f%% not within (0, %.1f%%)" % (n, k, full, pred))
    print("%6d %5d | %14.0f %14.0f %5.1f%% | %14.0f %14.0f %5.1f%% | %s, rail-only %s" % (
        n, k, float(so["capex"]), float(ro["capex"]), full, cost["rail-optimized"], cost["rail-only"], pred,
        ro["iteration_s"], "on the front" if ro["front"] == "1" else "off"))

# Each workload on its own: the same time on both designs, and the search's
# time the mean of the three (weights 1 1 1).
for n, k in ((32768, 64), (65536, 128)):
    t = {}
    for d in ("rail-optimized", "rail-only"):
        for m in ("gpt-3-175b", "opt-175b", "palm-540b"):
            j = json.load(open("%s/m-%d-%d-%s-%s.json" % (tmp, n, k, d, m)))
            t[d, m] = j["optimum"]["total_s"]
            if m == "opt-175b":
                check(j["optimum"]["dp_cross_s"] > 0, "N=%d %s %s: no cross-domain data-parallel time to compare" % (n, d, m))
    for m in ("gpt-3-175b", "opt-175b", "palm-540b"):
        check(t["rail-optimized", m] == t["rail-only", m], "N=%d radix %d %s: model %.9f (SOTA) vs %.9f (rail-only)" %
              (n, k, m, t["rail-optimized", m], t["rail-only", m]))
        print("  N=%d radix %d %-10s %.6f s on both designs" % (n, k, m, t["rail-only", m]))
    mean = sum(t["rail-only", m] for m in ("gpt-3-175b", "opt-175b", "palm-540b")) / 3
    got = float(rows("%s/s-%d-%d.csv" % (tmp, n, k))[0]["iteration_s"])
    check(abs(got - mean) < 1e-6, "N=%d radix %d: search iteration %.6f, mean of the model's %.6f" % (n, k, got, mean))

for b_ in bad:
    print("FAIL: " + b_)
sys.exit(1 if bad else 0)
PYEOF
expect_eq "rail-only paper: the claims hold" $? 0
cat "$TMP/paper.out"

# Every radix at once: the times are equal, so only the cheapest, rail-only
# at radix 256, is on the front; each radix's pair is compared above.
grep -q "^  Table 2 rail-only r256 *#8 .* on the time front, .* failure front$" "$TMP/all.txt" && ok \
    || fail "rail-only r256 not on the front of every radix: $(cat "$TMP/all.txt")"
expect_eq "published designs off the front of every radix" \
    "$(grep -c '^  Table 2 .* off the time front, .* failure front$' "$TMP/all.txt")" 7
grep -q "^answer: #8," "$TMP/all.txt" && ok || fail "the answer over every radix is not #8"

# ---- 2. Meta's aggregation taper ---------------------------------------------------
timed "$TMP/meta.csv" "$TMP/meta.err" "$RAILYARD" search "$M" -q -j2 --format csv
expect_eq "search llama3-roce-taper exits" $? 0
no_sanitizer "$TMP/meta.err"
timed "$TMP/meta.txt" "$TMP/meta2.err" "$RAILYARD" search "$M" -q -j2
expect_eq "search llama3-roce-taper (text) exits" $? 0
for t in 1:1 7:1; do
    f=$(echo "$t" | tr : -)
    "$RAILYARD" bom "$M" --set fabric.tiers.1.taper=$t --format csv >"$TMP/mb-$f.csv" 2>"$TMP/mb.err"
    expect_eq "bom taper $t exits" $? 0
    "$RAILYARD" model "$M" --set fabric.tiers.1.taper=$t --format json >"$TMP/mm-$f.json" 2>"$TMP/mm.err"
    expect_eq "model taper $t exits" $? 0
done

"$PY" - "$TMP" >"$TMP/meta.out" 2>&1 <<'PYEOF'
import csv, json, sys
tmp = sys.argv[1]
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)
def rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))

# The spec: 24,576 GPUs, 16 a rack, 192 racks a pod under 16 cluster
# switches of 192 down ports; the job TP 8 x PP 16 x DP 128.
GPUS, PER_RACK, RACKS_POD, CLUSTER_DOWN = 24576, 16, 192, 192
pods = GPUS // (PER_RACK * RACKS_POD)                   # 8
cluster_sw = GPUS // CLUSTER_DOWN                       # 128
per_pod = cluster_sw // pods                            # 16
flows = 8 * 128                                         # a stage: tensor x data GPUs

pts = rows(tmp + "/meta.csv")
by = {p["fabric.tiers.1.taper"]: p for p in pts}
check(sorted(by) == ["%d:1" % i for i in range(1, 9)], "tapers %s" % sorted(by))
mm = {t: json.load(open("%s/mm-%s.json" % (tmp, t.replace(":", "-")))) for t in ("1:1", "7:1")}
base, pp1 = mm["1:1"]["optimum"]["total_s"], mm["1:1"]["optimum"]["pp_s"]
for t, p in sorted(by.items()):
    d = int(t.split(":")[0])
    up = CLUSTER_DOWN // d
    # optics: two modules per rack-to-cluster and cluster-to-aggregation
    # link (GPU to rack switch on copper); cables: every link
    check(int(p["optics"]) == 2 * (GPUS + cluster_sw * up), "%s: optics %s, want %d" % (t, p["optics"], 2 * (GPUS + cluster_sw * up)))
    check(int(p["cables"]) == 2 * GPUS + cluster_sw * up, "%s: cables %s, want %d" % (t, p["cables"], 2 * GPUS + cluster_sw * up))
    # time: the pipeline's point-to-point over a pod's uplinks, the rest unchanged
    share = min(1.0, per_pod * up / flows)
    want = base + pp1 * (1 / share - 1)
    check(abs(float(p["iteration_s"]) - want) < 2e-6, "%s: iteration %s, closed form %.6f" % (t, p["iteration_s"], want))
# the front and the answer, recomputed
def dominated(a):
    return any(float(b["capex"]) <= float(a["capex"]) and float(b["iteration_s"]) <= float(a["iteration_s"]) and
               (float(b["capex"]), float(b["iteration_s"])) != (float(a["capex"]), float(a["iteration_s"])) for b in pts)
for p in pts:
    check(p["front"] == ("0" if dominated(p) else "1"), "%s: front %s" % (p["fabric.tiers.1.taper"], p["front"]))
fast = min(float(p["iteration_s"]) for p in pts)
ans = min((p for p in pts if float(p["iteration_s"]) <= fast * 1.01), key=lambda p: float(p["capex"]))
check(ans["answer"] == "1" and sum(p["answer"] == "1" for p in pts) == 1, "answer: want %s" % ans["fabric.tiers.1.taper"])
check(by["7:1"]["front"] == "1" and by["1:1"]["front"] == "0", "7:1 front %s, 1:1 front %s" % (by["7:1"]["front"], by["1:1"]["front"]))
check(by["7:1"]["published"] == "Meta 1:7" and by["1:1"]["published"] == "full bisection", "labels")
# 1:1 and 7:1 against bom and model
cap = {}
for t in ("1:1", "7:1"):
    cap[t] = sum(float(r["extended_price"]) for r in rows("%s/mb-%s.csv" % (tmp, t.replace(":", "-")))
                 if r["section"] == "capex" and r["item"] == "total")
    check(abs(float(by[t]["capex"]) - cap[t]) < 0.01, "%s: search capex %s, bom %.2f" % (t, by[t]["capex"], cap[t]))
    check(abs(float(by[t]["iteration_s"]) - mm[t]["optimum"]["total_s"]) < 1e-6,
          "%s: search iteration %s, model %.6f" % (t, by[t]["iteration_s"], mm[t]["optimum"]["total_s"]))
dt = mm["7:1"]["optimum"]["total_s"] - base
check(abs(dt - (mm["7:1"]["optimum"]["pp_s"] - pp1)) < 1e-9, "the taper's time is not the pipeline's alone")
saved = cap["1:1"] - cap["7:1"]
check(abs(saved - (float(by["1:1"]["capex"]) - float(by["7:1"]["capex"]))) < 0.02, "capex saved: search and bom differ")
print("Meta's aggregation taper, Llama 3 405B (TP 8 x PP 16 x DP 128 on 16,384 of 24,576 GPUs)")
print("%5s %4s %8s %7s %14s %10s %7s %s" % ("taper", "up", "optics", "share", "capex", "iter s", "front", "answer"))
for t, p in sorted(by.items()):
    up = CLUSTER_DOWN // int(t.split(":")[0])
    print("%5s %4d %8s %7.4f %14.0f %10s %7s %s" % (t, up, p["optics"], min(1.0, per_pod * up / flows),
          float(p["capex"]), p["iteration_s"], p["front"], "answer" if p["answer"] == "1" else ""))
print("7:1 against 1:1: capex saved $%.0f (%.1f%%), iteration %.4f s longer (+%.2f%%), 7:1 %s the front" % (
    saved, 100 * saved / cap["1:1"], dt, 100 * dt / base, "on" if by["7:1"]["front"] == "1" else "off"))
for b_ in bad:
    print("FAIL: " + b_)
sys.exit(1 if bad else 0)
PYEOF
expect_eq "Meta's taper: the claims hold" $? 0
cat "$TMP/meta.out"
grep -q "^  Meta 1:7 *#7 .* on the time front, .* failure front$" "$TMP/meta.txt" && ok || fail "Meta 1:7 not on the front: $(cat "$TMP/meta.txt")"
grep -q "^  full bisection *#1 .* off the time front, .* failure front$" "$TMP/meta.txt" && ok || fail "full bisection not off the front"

echo "search wall time (-j2, every search of this test): $secs s"
finish
