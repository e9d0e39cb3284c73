#!/bin/sh
# railyard search against what it claims to be:
#   - the fronts and the answer: tests/search-check.py computes from
#     points.csv's own numbers, by the O(n^2) definition, the Pareto fronts
#     of capex against iteration time and against slowdown, the points
#     within the targets and the cheapest of them, and checks the front,
#     front_failure, meets and answer columns, front.csv and the text
#     output against them, without targets and with targets taken between
#     the points' own values;
#   - the numbers are bom's, model's and whatif's: every point's capex is
#     `railyard bom SPEC --set KEY=VALUE...` of its values, its iteration
#     time and layout `railyard model`'s, a plane's slowdown `railyard
#     whatif --fail plane0`'s, a mix's time the weighted mean of model's;
#   - front/point-N.yaml validates and gives its row's capex and time (the
#     YAML writer's round trip), without the search section;
#   - the same spec gives the same bytes on 1, 2 and 3 threads;
#   - text from the spec is text in search.gp: a published name's
#     backquotes run nothing, in search or in gnuplot; a value of several
#     lines is refused, one with ': ' or '#' gives front specs that parse;
#   - memory: the builds running at once keep within ulimit -v and --memory;
#     a point larger than --memory alone says so;
#   - a point that cannot be built or modeled says why, the others run;
#   - bad input: the bad search sections of tests/data/bad (search-*.yaml,
#     their messages in expected.txt) exit 1 at file:line:col and write
#     nothing; bad options exit 2; a directory railyard did not write is
#     refused.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/search"
CHECK="$TOP_SRCDIR/tests/search-check.py"
SPACE="$D/space.yaml"

# run NAME CMD...: stdout to $TMP/NAME.out, stderr to $TMP/NAME.err; sets rc.
run() {
    name=$1
    shift
    "$@" </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err"
    rc=$?
    no_sanitizer "$TMP/$name.err"
}

# check_py WHAT ARGS...: search-check.py must pass.
check_py() {
    what=$1
    shift
    if "$PY" "$CHECK" "$@" >"$TMP/check.out" 2>&1; then
        ok
    else
        fail "$what: $(grep -v '^[0-9]* checks' "$TMP/check.out" | head -5)"
    fi
}

# csv_col FILE POINT COLUMN: a column of a point's row, by the header's name.
csv_col() {
    "$PY" - "$@" <<'P'
import csv, sys
path, point, col = sys.argv[1:]
for r in csv.DictReader(open(path, newline="")):
    if r["point"] == point:
        print(r[col])
P
}

# ---- ry_pareto_front against its O(n^2) definition (tests/unit/pareto_test.c) -----------------
"${TOP_BUILDDIR:-.}/tests/unit/pareto_test" >"$TMP/pareto" 2>&1
expect_eq "pareto_test exit" $? 0
grep -q ' 0 failed$' "$TMP/pareto" && ok || fail "pareto_test: $(head -5 "$TMP/pareto")"
no_sanitizer "$TMP/pareto"

# ---- the fronts and the answer, in closed form ------------------------------------------------
run s1 "$RAILYARD" search "$SPACE" -o "$TMP/s1" -j2
expect_eq "search exit" "$rc" 0
for f in points.csv front.csv search.gp; do
    [ -s "$TMP/s1/$f" ] && ok || fail "-o DIR: no $f"
done
# gnuplot, the script's reader, drew it: a PNG and an SVG, and no warning
if command -v gnuplot >/dev/null 2>&1; then
    head -c 8 "$TMP/s1/search.png" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' && ok \
        || fail "search.png is no PNG"
    grep -q '<svg' "$TMP/s1/search.svg" && ok || fail "search.svg is no SVG"
    grep -q 'no plot' "$TMP/s1.err" && fail "gnuplot refused search.gp: $(cat "$TMP/s1.err")" || ok
fi
# 3 designs x 3 tapers x 2 plane counts, the first key fastest
expect_eq "points" "$(tail -n +2 "$TMP/s1/points.csv" | wc -l | tr -d ' ')" 18
expect_eq "point 17's values" "$(sed -n 18p "$TMP/s1/points.csv" | cut -d, -f1-4)" \
    "17,rail-only,4:1,2"
check_py "no targets" "$TMP/s1/points.csv" "$TMP/s1/front.csv" "$TMP/s1.out"
# --format csv is points.csv
"$RAILYARD" search "$SPACE" -f csv -j2 >"$TMP/s1.csv" 2>/dev/null
cmp -s "$TMP/s1.csv" "$TMP/s1/points.csv" && ok || fail "-f csv differs from points.csv"
# the fronts are not trivial: more than one point each, not every point
nf=$(grep -c ',1,[01],[01],[01],[^,]*,[^,]*,[^,]*$' "$TMP/s1/front.csv")
[ "$nf" -ge 2 ] && [ "$nf" -lt 18 ] && ok || fail "time front of $nf points"
# the published design's label on its point alone
expect_eq "published" "$(awk -F, 'NR > 1 && $(NF-2) != "" { print $1 ":" $(NF-2) }' \
    "$TMP/s1/points.csv")" "1:SuperPOD"
grep -q '^  SuperPOD  *#1  ' "$TMP/s1.out" && ok || fail "text: no published design line"

# Targets between the points' own values: a time between the two fastest
# distinct times, a budget between the middle capexes, a slowdown between
# the middle finite slowdowns.
"$PY" - "$TMP/s1/points.csv" >"$TMP/targets" <<'P'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["iteration_s"]]
times = sorted({float(r["iteration_s"]) for r in rows})
capex = sorted({float(r["capex"]) for r in rows})
slow = sorted({float(r["slowdown"]) for r in rows if r["slowdown"] != "inf"})
mid = lambda v, i: (v[i] + v[i + 1]) / 2
t = "%.6f" % mid(times, 1)
b = "%.2f" % mid(capex, len(capex) // 2)
s = "%.6f" % mid(slow, len(slow) // 2)
print(t, b, s, "%.2f" % (capex[0] / 2), "%.6f" % mid(times, 0))
P
read -r tt bb ss low t0 <"$TMP/targets"
i=0
for targets in "--target-time $tt" "--budget $bb" "--max-slowdown $ss" \
    "--target-time $tt --budget $bb" "--budget $low" "--target-time $t0"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    run "t$i" "$RAILYARD" search "$SPACE" -o "$TMP/t$i" -j2 $targets
    expect_eq "search $targets: exit" "$rc" 0
    # shellcheck disable=SC2086
    check_py "$targets" "$TMP/t$i/points.csv" "$TMP/t$i/front.csv" "$TMP/t$i.out" $targets \
        --full "$TMP/s1/points.csv"
done
grep -q '^answer: no point meets capex <= ' "$TMP/t5.out" && ok ||
    fail "a budget below every point: $(grep answer: "$TMP/t5.out")"
# The fastest possible time bounds every point of its cluster: each modeled
# point's time is at least its fastest_s, the fastest_s of a plane count is
# the time of its non-blocking rail-optimized point (a non-blocking network
# at the NICs' speed), and the time target pruned points both ways: by the
# bound (planes 1 are all slower at best) and by the fabric's own time.
"$PY" - "$TMP/s1/points.csv" >"$TMP/bound.out" <<'P'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
open_time = {r["cluster.planes"]: r["iteration_s"] for r in rows
             if r["fabric.design"] == "rail-optimized" and r["fabric.oversubscription"] == "1:1"}
for r in rows:
    if r["iteration_s"] and float(r["iteration_s"]) < float(r["fastest_s"]):
        print("point %s: %s s, faster than its fastest possible %s s"
              % (r["point"], r["iteration_s"], r["fastest_s"]))
    if r["fastest_s"] != open_time[r["cluster.planes"]]:
        print("point %s: fastest_s %s, the non-blocking point's time %s"
              % (r["point"], r["fastest_s"], open_time[r["cluster.planes"]]))
P
expect_eq "fastest_s bounds and equals the non-blocking time" "$(cat "$TMP/bound.out")" ""
# (between the two fastest times: the fastest of one plane is slower)
grep -q '^  [0-9]* points, like #[0-9]* (.*): pruned: [0-9.]* s an iteration at best' "$TMP/t6.out" &&
    ok || fail "--target-time $t0: no point pruned by its fastest possible time"
grep -q '^  [0-9]* points\{0,1\}, like #[0-9]* (.*): pruned: [0-9.]* s an iteration, over the target time of .* (not built)$' \
    "$TMP/t1.out" && ok || fail "--target-time $tt: no point pruned by its time on its fabric"
grep -q '^  [0-9]* points\{0,1\}, like #[0-9]* (.*): pruned: its capex, .*, is over the budget of ' \
    "$TMP/t2.out" && ok || fail "--budget $bb: no point pruned by its capex"
# the targets of the spec's search section are the options'
sed "s/^  published:/  target_time: $tt\\n  budget: $bb\\n&/" "$SPACE" >"$TMP/targets.yaml"
"$RAILYARD" search "$TMP/targets.yaml" -f csv -j2 >"$TMP/spec-targets.csv" 2>/dev/null
cmp -s "$TMP/spec-targets.csv" "$TMP/t4/points.csv" && ok ||
    fail "search.target_time and search.budget differ from --target-time and --budget"

# ---- the numbers are bom's, model's and whatif's ----------------------------------------------
"$PY" - "$TMP/s1/points.csv" >"$TMP/sets" <<'P'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for r in rows:
    print(r["point"], r["fabric.design"], r["fabric.oversubscription"], r["cluster.planes"])
P
while read -r n design taper planes; do
    # every other point (each design, taper and plane count among them)
    case $n in 1 | 3 | 5 | 6 | 8 | 10 | 11 | 13 | 15 | 18) ;; *) continue ;; esac
    set -- --set fabric.design="$design" --set fabric.oversubscription="$taper" \
        --set cluster.planes="$planes"
    "$RAILYARD" bom "$SPACE" "$@" -f json >"$TMP/bom.json" 2>/dev/null
    bom=$("$PY" -c 'import json,sys; print("%.2f" % json.load(open(sys.argv[1]))["capex"]["total"])' \
        "$TMP/bom.json")
    expect_eq "point $n: capex against bom" "$(csv_col "$TMP/s1/points.csv" "$n" capex)" "$bom"
    case $n in 1 | 6 | 11 | 18) ;; *) continue ;; esac
    "$RAILYARD" model "$SPACE" "$@" -f json >"$TMP/model.json" 2>/dev/null
    got=$(csv_col "$TMP/s1/points.csv" "$n" iteration_s),$(csv_col "$TMP/s1/points.csv" "$n" tensor)
    got=$got,$(csv_col "$TMP/s1/points.csv" "$n" pipeline),$(csv_col "$TMP/s1/points.csv" "$n" data)
    want=$("$PY" -c 'import json,sys; o=json.load(open(sys.argv[1]))["optimum"]
print("%.6f,%d,%d,%d" % (o["total_s"], o["tensor"], o["pipeline"], o["data"]))' "$TMP/model.json")
    expect_eq "point $n: time and layout against model" "$got" "$want"
done <"$TMP/sets"

# One plane of two down, the only failure: whatif's slowdown.
run plane "$RAILYARD" search "$SPACE" --vary cluster.planes=2 --fail plane -f csv -j2
expect_eq "--fail plane: exit" "$rc" 0
for n in 1 5 9; do     # each design, each taper
    set -- $(sed -n "${n}p" "$TMP/sets")
    "$RAILYARD" whatif "$SPACE" --set fabric.design="$2" --set fabric.oversubscription="$3" \
        --set cluster.planes=2 --fail plane0 --alone -f json >"$TMP/whatif.json" 2>/dev/null
    want=$("$PY" -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["training"]["slowdown"])' \
        "$TMP/whatif.json")
    expect_eq "point $n, plane down: slowdown against whatif" \
        "$(csv_col "$TMP/plane.out" "$n" slowdown)" "$want"
done

# A mix of workloads: the weighted mean of model's times.
run mix "$RAILYARD" search "$D/mix.yaml" -f csv -j2
expect_eq "mix: exit" "$rc" 0
for taper in 1:1 4:1; do
    "$RAILYARD" model "$D/mix.yaml" --set fabric.oversubscription=$taper -f json >"$TMP/a.json" 2>/dev/null
    "$RAILYARD" model "$D/mix.yaml" --set fabric.oversubscription=$taper \
        --set workload.model=llama-3-8b --set workload.batch=512 -f json >"$TMP/b.json" 2>/dev/null
    want=$("$PY" -c 'import json,sys
a, b = (json.load(open(f))["optimum"]["total_s"] for f in sys.argv[1:])
print("%.6f" % ((3 * a + b) / 4))' "$TMP/a.json" "$TMP/b.json")
    n=1
    [ $taper = 4:1 ] && n=2
    expect_eq "mix, $taper: time against model's" "$(csv_col "$TMP/mix.out" $n iteration_s)" "$want"
    # the mix's tokens/s: its tokens over its time (3 iterations of a, 1 of b)
    want=$("$PY" -c 'import json,sys
d = [json.load(open(f)) for f in sys.argv[1:]]
tok = [x["tokens_per_s"] * x["optimum"]["total_s"] for x in d]
t = [x["optimum"]["total_s"] for x in d]
print("%.1f" % ((3 * tok[0] + tok[1]) / (3 * t[0] + t[1])))' "$TMP/a.json" "$TMP/b.json")
    expect_eq "mix, $taper: tokens/s, the mix's tokens over its time" \
        "$(csv_col "$TMP/mix.out" $n tokens_per_s)" "$want"
done
# --vary takes a YAML list as one value (commas inside brackets), and
# refuses a value given twice
run brk "$RAILYARD" search "$SPACE" --vary 'fabric.oversubscription=1:1,[2:1, 1:1]' \
    --vary fabric.design=rail-optimized --vary cluster.planes=1 -f csv
expect_eq "--vary a list value: points" "$(tail -n +2 "$TMP/brk.out" | wc -l | tr -d ' ')" 2
expect_eq "--vary a list value: the second" "$(csv_col "$TMP/brk.out" 2 fabric.oversubscription)" \
    "[2:1, 1:1]"
run dup "$RAILYARD" search "$SPACE" --vary cluster.planes=1,2,1
expect_eq "--vary a value twice: exit" "$rc" 2
grep -q "the value '1' is given twice" "$TMP/dup.err" && ok || fail "--vary a value twice: $(head -n1 "$TMP/dup.err")"
# the text says what the table alone would not: a published design outside
# the search, a scenario that applies to some points only, the points that
# stall (counted against points.csv's stalls column)
run outside "$RAILYARD" search "$SPACE" --vary cluster.planes=2
grep -q "^  SuperPOD  *not in this search" "$TMP/outside.out" && ok \
    || fail "a published design outside the search: $(grep -A2 '^published' "$TMP/outside.out")"
run some "$RAILYARD" search "$SPACE" --fail plane --fail leaf:1 -o "$TMP/some"
grep -q "^  plane applies to 9 of the 18 points" "$TMP/some.out" && ok \
    || fail "a scenario of some points: $(grep applies "$TMP/some.out")"
stalled=$("$PY" -c '
import csv, sys
print(sum(1 for r in csv.DictReader(open(sys.argv[1], newline="")) if r["stalls"] == "leaf:1"))' \
    "$TMP/some/points.csv")
[ "$stalled" -gt 0 ] && ok || fail "no point stalls at leaf:1 in the test space"
grep -q "^stalls at leaf:1: $stalled points (like #" "$TMP/some.out" && ok \
    || fail "the stalls line: $(grep '^stalls' "$TMP/some.out"), want $stalled points"
# 0 is no target and the default threads, as in the spec
"$RAILYARD" search "$SPACE" --budget 0 --target-time 0 --max-slowdown 0 -j 0 >"$TMP/zero.txt" 2>&1
"$RAILYARD" search "$SPACE" >"$TMP/none.txt" 2>&1
cmp -s "$TMP/zero.txt" "$TMP/none.txt" && ok || fail "--budget 0 --target-time 0 --max-slowdown 0 -j 0 is not the default"
"$RAILYARD" search "$D/mix.yaml" -j1 >"$TMP/mix.txt" 2>/dev/null
grep -q '^workload: llama-3-70b, llama-3-8b (weights 3 1; ' "$TMP/mix.txt" && ok ||
    fail "mix: workload line: $(grep '^workload' "$TMP/mix.txt")"

# ---- the front's specs: the YAML writer's round trip ------------------------------------------
nyaml=0
for y in "$TMP/s1/front/"point-*.yaml; do
    [ -e "$y" ] || continue
    nyaml=$((nyaml + 1))
    n=${y##*/point-}
    n=${n%.yaml}
    n=${n#0}
    "$RAILYARD" validate "$y" >/dev/null 2>"$TMP/v.err"
    expect_eq "front/point-$n.yaml validates" "$?:$(head -c 300 "$TMP/v.err")" "0:"
    grep -q '^search:' "$y" && fail "front/point-$n.yaml has the search section" || ok
    "$RAILYARD" bom "$y" -f json >"$TMP/bom.json" 2>/dev/null
    "$RAILYARD" model "$y" -f json >"$TMP/model.json" 2>/dev/null
    got=$("$PY" -c 'import json,sys
b, m = (json.load(open(f)) for f in sys.argv[1:])
print("%.2f %.6f" % (b["capex"]["total"], m["optimum"]["total_s"]))' "$TMP/bom.json" "$TMP/model.json")
    expect_eq "front/point-$n.yaml: capex and time" "$got" \
        "$(csv_col "$TMP/s1/points.csv" "$n" capex) $(csv_col "$TMP/s1/points.csv" "$n" iteration_s)"
    # and it is its point's values
    vals=$(sed -n "$((n + 1))p" "$TMP/s1/points.csv" | cut -d, -f2-4)
    "$PY" - "$y" "$vals" <<'P' && ok || fail "front/point-$n.yaml: not the point's values ($vals)"
import sys, yaml
d = yaml.load(open(sys.argv[1]), Loader=yaml.BaseLoader)    # every scalar a string
sys.exit(0 if [d["fabric"]["design"], d["fabric"]["oversubscription"],
               d["cluster"]["planes"]] == sys.argv[2].split(",") else 1)
P
done
expect_eq "front/point-N.yaml: one per point on the front" "$nyaml" \
    "$(tail -n +2 "$TMP/s1/front.csv" | wc -l | tr -d ' ')"

# Scalars that end a plain scalar inside [...] or {...}: the front's specs
# load as the spec does (every scalar read as a string), less its search
# section, with the point's value set.
run flow "$RAILYARD" search "$D/flow.yaml" -o "$TMP/flow"
expect_eq "flow: exit" "$rc" 0
for y in "$TMP/flow/front/"point-*.yaml; do
    "$RAILYARD" validate "$y" >/dev/null 2>"$TMP/v.err"
    expect_eq "${y##*/} of flow.yaml validates" "$?:$(head -c 300 "$TMP/v.err")" "0:"
    "$PY" - "$D/flow.yaml" "$y" <<'P' && ok || fail "${y##*/} of flow.yaml: not the spec's tree"
import sys, yaml
spec, point = (yaml.load(open(f), Loader=yaml.BaseLoader) for f in sys.argv[1:])
del spec["search"]
spec["fabric"]["oversubscription"] = point["fabric"]["oversubscription"]
sys.exit(0 if spec == point and point["fabric"]["oversubscription"] in ("1:1", "2:1") else 1)
P
done

# ---- same spec, same bytes ------------------------------------------------------------------
for j in 1; do
    run "j$j" "$RAILYARD" search "$SPACE" -o "$TMP/j$j" -j$j
    cmp -s "$TMP/j$j.out" "$TMP/s1.out" && ok || fail "-j$j: stdout differs from -j2"
    diff -r "$TMP/j$j" "$TMP/s1" >"$TMP/diff" 2>&1 && ok ||
        fail "-j$j: files differ from -j2: $(head -3 "$TMP/diff")"
done

# ---- points that cannot be built or modeled -------------------------------------------------
run misfit "$RAILYARD" search "$D/misfit.yaml" -o "$TMP/misfit" -j2
expect_eq "misfit: exit" "$rc" 0
head -n1 "$TMP/misfit.out" | grep -q '; 6 points (2 built and modeled, 4 not); 4 fabrics built$' && ok ||
    fail "misfit: first line: $(head -n1 "$TMP/misfit.out")"
grep -q "^  2 points, like #1 (workload.parallelism.tensor=1, fabric.oversubscription=1:1): no layout of llama-3-70b fits" \
    "$TMP/misfit.out" && ok || fail "misfit: no reason for the memory: $(grep -A3 '^not built' "$TMP/misfit.out")"
grep -q "^  2 points, like #5 (workload.parallelism.tensor=1, fabric.oversubscription=64:1): fabric.oversubscription: .*64:1" \
    "$TMP/misfit.out" && ok || fail "misfit: no reason for the taper: $(grep -A3 '^not built' "$TMP/misfit.out")"
expect_eq "misfit: points modeled" \
    "$(awk -F, 'NR > 1 && $NF == "" { printf "%s ", $1 }' "$TMP/misfit/points.csv")" "2 4 "
expect_eq "misfit: 64:1 not built (no capex)" "$(csv_col "$TMP/misfit/points.csv" 6 capex)" ""
check_py "misfit" "$TMP/misfit/points.csv" "$TMP/misfit/front.csv" "$TMP/misfit.out"
# none can: exit 1, the first's reason, nothing written
run none "$RAILYARD" search "$D/misfit.yaml" --vary workload.parallelism.tensor=1 -o "$TMP/none"
expect_eq "no point: exit" "$rc" 1
grep -q "none of the 3 points can be built and modeled; #1 says: no layout of llama-3-70b fits" \
    "$TMP/none.err" && ok || fail "no point: message: $(cat "$TMP/none.err")"
[ -e "$TMP/none" ] && fail "no point: wrote $TMP/none" || ok

# ---- prices: a fabric built once for every set of prices ---------------------------------------
# cost.rack and cost.spares price a fabric without changing it: the 18
# fabrics are built once each, and every point's capex is its fabric's
# switches, optics and cables, its racks times cost.rack, and the spares'
# share of the switches, optics and cables (the capex's definition,
# railyard-spec(5) cost), with the time of its fabric.
run prices "$RAILYARD" search "$SPACE" --vary cost.rack=0,20000 --vary cost.spares=0,5 -f csv -j2
expect_eq "prices: exit" "$rc" 0
run prices_text "$RAILYARD" search "$SPACE" --vary cost.rack=0,20000 --vary cost.spares=0,5 -j2
head -n1 "$TMP/prices_text.out" | grep -q '; 72 points; 18 fabrics built (points that differ only in prices, names or addresses share one)$' \
    && ok || fail "prices: first line: $(head -n1 "$TMP/prices_text.out")"
"$PY" - "$TMP/prices.out" >"$TMP/prices.chk" 2>&1 <<'P'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = 0
base = {}
for r in rows:
    k = (r["fabric.design"], r["fabric.oversubscription"], r["cluster.planes"])
    if r["cost.rack"] == "0" and r["cost.spares"] == "0":
        base[k] = r
for r in rows:
    k = (r["fabric.design"], r["fabric.oversubscription"], r["cluster.planes"])
    b = base[k]
    hw = float(b["capex_switches"]) + float(b["capex_optics"]) + float(b["capex_cables"])
    want = hw + int(b["racks"]) * float(r["cost.rack"]) + hw * float(r["cost.spares"]) / 100
    if abs(float(r["capex"]) - want) > 0.01 or r["iteration_s"] != b["iteration_s"] \
            or r["slowdown"] != b["slowdown"] or r["switches"] != b["switches"]:
        print("point %s: capex %s, want %.2f" % (r["point"], r["capex"], want))
        bad += 1
print("%d of %d points off" % (bad, len(rows)))
sys.exit(1 if bad or len(rows) != 72 else 0)
P
prc=$?
expect_eq "prices: capex of every point from its fabric's ($(tail -n1 "$TMP/prices.chk"))" $prc 0

# spare switches are bought with the leaves: each adds one leaf switch's price
run spares "$RAILYARD" search "$SPACE" --vary fabric.design=rail-optimized \
    --vary fabric.oversubscription=1:1 --vary cluster.planes=1 --vary spares.switches=0,3 -f csv
leaf=$("$RAILYARD" catalog switches -f json | "$PY" -c '
import json, sys
print([s for s in json.load(sys.stdin)["switches"] if s["name"] == "qm9700"][0]["price_usd"])')
expect_eq "spares: 3 spare switches cost 3 of the leaves' switches" \
    "$("$PY" -c '
import csv, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
print("%.2f %s" % (float(r[1]["capex_switches"]) - float(r[0]["capex_switches"]),
                   int(r[1]["switches"]) - int(r[0]["switches"])))' "$TMP/spares.out")" \
    "$("$PY" -c "print('%.2f 3' % (3 * float('$leaf')))")"

# ---- dominated switch models: pruned, not built ----------------------------------------------
# qm8700 and qm8790 are the same switch in the catalog but for the price
# (qm8790 the cheaper): every qm8700 point is pruned, naming qm8790; the
# fronts and the answer are those of the qm8790 points alone; and, run
# alone (nothing to prune), every qm8700 point is dearer than its qm8790
# twin at the same time and slowdown, so pruning dropped no front point.
A100="--set cluster.node=dgx-a100 --vary cluster.planes=1"
run dom "$RAILYARD" search "$SPACE" $A100 --vary fabric.switch=qm8700,qm8790 -f csv -j2
expect_eq "dominated: exit" "$rc" 0
run only90 "$RAILYARD" search "$SPACE" $A100 --vary fabric.switch=qm8790 -f csv -j2
run only00 "$RAILYARD" search "$SPACE" $A100 --vary fabric.switch=qm8700 -f csv -j2
"$PY" - "$TMP/dom.out" "$TMP/only90.out" "$TMP/only00.out" >"$TMP/dom.chk" 2>&1 <<'P'
import csv, sys
dom, o90, o00 = (list(csv.DictReader(open(f, newline=""))) for f in sys.argv[1:4])
bad = []
keys = ("fabric.design", "fabric.oversubscription")
pr = [r for r in dom if r["why"].startswith("pruned: fabric.switch=qm8790 ")]
if len(pr) != 9 or any(r["fabric.switch"] != "qm8700" or r["iteration_s"] for r in pr):
    bad.append("the 9 qm8700 points are not the pruned ones")
def cols(rows, flt):
    return sorted((r[keys[0]], r[keys[1]], r["capex"], r["iteration_s"], r["slowdown"], r["front"],
                   r["front_failure"], r["meets"], r["answer"]) for r in rows if flt(r))
if cols(dom, lambda r: r["fabric.switch"] == "qm8790") != cols(o90, lambda r: True):
    bad.append("the qm8790 points differ from the qm8790 search alone")
t90 = {(r[keys[0]], r[keys[1]]): r for r in o90}
for r in o00:
    t = t90[(r[keys[0]], r[keys[1]])]
    if not (float(r["capex"]) > float(t["capex"]) and r["iteration_s"] == t["iteration_s"]
            and r["slowdown"] == t["slowdown"]):
        bad.append("qm8700 %s/%s is not its twin dearer at the same time" % (r[keys[0]], r[keys[1]]))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
P
prc=$?
expect_eq "dominated: pruned soundly ($(head -n1 "$TMP/dom.chk"))" $prc 0
run domt "$RAILYARD" search "$SPACE" $A100 --vary fabric.switch=qm8700,qm8790 -j2
head -n1 "$TMP/domt.out" | grep -q '; 18 points (9 built and modeled, 9 pruned, 0 not); 9 fabrics built$' \
    && ok || fail "dominated: first line: $(head -n1 "$TMP/domt.out")"

# ---- bad input --------------------------------------------------------------------------------
tab=$(printf '\t')
nbad=0
while IFS="$tab" read -r file regex; do
    case $file in search-*) ;; *) continue ;; esac
    nbad=$((nbad + 1))
    rm -rf "$TMP/bad"
    run bad "$RAILYARD" search "$TOP_SRCDIR/tests/data/bad/$file" -o "$TMP/bad"
    expect_eq "$file: exit" "$rc" 1
    grep -qE -e "$regex" "$TMP/bad.err" && ok || fail "$file: message: $(head -n1 "$TMP/bad.err")"
    [ -e "$TMP/bad" ] && fail "$file: wrote $TMP/bad" || ok
    [ -s "$TMP/bad.out" ] && fail "$file: wrote to stdout" || ok
done <"$TOP_SRCDIR/tests/data/bad/expected.txt"
[ "$nbad" -ge 12 ] && ok || fail "only $nbad bad search specs in expected.txt"

# bad options: usage errors, exit 2, nothing written
for opt in "--vary fabric.design" "--vary cluster.planes=4..2" "--vary cluster.planes=" \
    "--fail leaf" "--fail spine:0" "--fail spine:x" "--budget abc" \
    "--budget -5" "--target-time -1" "--target-time 1e99" "--max-slowdown 0.5" \
    "--seeds 1.5" "--seeds 0" "--threads -1" "--threads 1.5" "-f json"; do
    rm -rf "$TMP/bad"
    # shellcheck disable=SC2086
    run opt "$RAILYARD" search "$SPACE" $opt -o "$TMP/bad"
    expect_eq "search $opt: exit" "$rc" 2
    grep -q -- "${opt%% *}" "$TMP/opt.err" && ok || fail "search $opt: message: $(head -n1 "$TMP/opt.err")"
    [ -e "$TMP/bad" ] && fail "search $opt: wrote $TMP/bad" || ok
done

# a misspelt key of --vary is refused before any point runs (usage, exit 2);
# a value the spec refuses by itself is an error where it was written
# (search.vary's line and column, or --vary KEY=VALUE), exit 1, nothing run
run vkey "$RAILYARD" search "$SPACE" --vary fabric.desing=fat-tree -o "$TMP/vkey"
expect_eq "--vary misspelt key: exit" "$rc" 2
grep -q "^--vary:1:1: error: --vary: unknown key 'fabric.desing'; did you mean 'fabric.design'?" \
    "$TMP/vkey.err" && ok || fail "--vary misspelt key: $(head -n2 "$TMP/vkey.err")"
[ -e "$TMP/vkey" ] && fail "--vary misspelt key: wrote $TMP/vkey" || ok
sed 's/fabric.design: \[rail-optimized, rail-only, fat-tree\]/fabric.design: [rail-optimized, rail-only, fat-tre]/' \
    "$SPACE" >"$TMP/badval.yaml"
line=$(grep -n 'fat-tre\]' "$TMP/badval.yaml" | cut -d: -f1)
col=$(awk -v l="$line" 'NR == l { print index($0, "fat-tre]") }' "$TMP/badval.yaml")
run vval "$RAILYARD" search "$TMP/badval.yaml" -o "$TMP/vval"
expect_eq "search.vary misspelt value: exit" "$rc" 1
grep -q "^$TMP/badval.yaml:$line:$col: error: fabric.design must be .*(got 'fat-tre'); did you mean 'fat-tree'?" \
    "$TMP/vval.err" && ok || fail "search.vary misspelt value: $(head -n2 "$TMP/vval.err")"
[ -s "$TMP/vval.out" ] && fail "search.vary misspelt value: printed a table" || ok
[ -e "$TMP/vval" ] && fail "search.vary misspelt value: wrote $TMP/vval" || ok
# validate checks the same values, and each workload of the mix on the spec
run vval2 "$RAILYARD" validate "$TMP/badval.yaml"
expect_eq "validate: search.vary misspelt value: exit" "$rc" 1
grep -q "^$TMP/badval.yaml:$line:$col: error: fabric.design must be" "$TMP/vval2.err" && ok \
    || fail "validate: search.vary misspelt value: $(head -n2 "$TMP/vval2.err")"
cat "$SPACE" >"$TMP/badwl.yaml"
printf '  workloads:\n    - {model: llama-3-7b, weight: 2}\n' >>"$TMP/badwl.yaml"
wline=$(grep -n 'llama-3-7b' "$TMP/badwl.yaml" | cut -d: -f1)
for cmd in validate search; do
    run badwl "$RAILYARD" $cmd "$TMP/badwl.yaml"
    expect_eq "$cmd: a workload of the mix the spec refuses: exit" "$rc" 1
    grep -q "^$TMP/badwl.yaml:$wline:15: error: workload.model: unknown model 'llama-3-7b'; did you mean 'llama-3-8b'?" \
        "$TMP/badwl.err" && ok || fail "$cmd: bad workload of the mix: $(head -n2 "$TMP/badwl.err")"
done
cat "$SPACE" >"$TMP/wlaxis.yaml"
printf '  workloads:\n    - {model: llama-3-8b}\n' >>"$TMP/wlaxis.yaml"
run wlaxis "$RAILYARD" search "$TMP/wlaxis.yaml" --vary workload.model=llama-3-70b
expect_eq "an axis of a key the workloads set: exit" "$rc" 1
grep -q "^--vary workload.model: error: workload.model is set by every search.workloads entry" \
    "$TMP/wlaxis.err" && ok || fail "an axis of a key the workloads set: $(head -n2 "$TMP/wlaxis.err")"
run failkind "$RAILYARD" search "$SPACE" --fail leef:1
expect_eq "--fail leef:1: exit" "$rc" 2
grep -q "did you mean 'leaf'?" "$TMP/failkind.err" && ok || fail "--fail leef:1: $(head -n1 "$TMP/failkind.err")"
run vnum "$RAILYARD" search "$SPACE" --vary cluster.planes=1,9
expect_eq "--vary value out of range: exit" "$rc" 1
grep -q "^--vary cluster.planes=9: error: cluster.planes must be an integer in 1..8 (got 9)" \
    "$TMP/vnum.err" && ok || fail "--vary value out of range: $(head -n2 "$TMP/vnum.err")"

# Names and values from the spec reach search.gp and front/point-N.yaml as
# text: a published name with backquotes, quotes and a macro is a label
# (gnuplot, running the script, runs nothing); a value of several lines is
# refused at its key or option, and nothing is written.
cat >"$TMP/pub.yaml" <<Y
name: pub
cluster: {gpus: 256, node: dgx-h100}
fabric: {switch: qm9700}
workload: {model: llama-3-70b}
search:
  vary: {cluster.planes: [1, 2]}
  published:
    - name: "\`touch \$P\` \\"q\\" 'x' @m \\\\\\\\ \$(touch \$P)"
      set: {cluster.planes: 1}
Y
P=$TMP/pwned
export P
run pub "$RAILYARD" search "$TMP/pub.yaml" -o "$TMP/pub"
expect_eq "a published name with backquotes: exit" "$rc" 0
[ -e "$TMP/pwned" ] && fail "search ran a published name's backquotes" || ok
if command -v gnuplot >/dev/null 2>&1; then
    (cd "$TMP/pub" && gnuplot search.gp) >"$TMP/pub-gp.err" 2>&1
    expect_eq "gnuplot search.gp with a hostile published name: exit" "$?" 0
    [ -e "$TMP/pwned" ] && fail "gnuplot search.gp ran a published name's backquotes" || ok
fi
grep -q "^set label 1 '\`touch \$P\` \"q\" ''x'' @m \\\\\\\\ \$(touch \$P)' at " \
    "$TMP/pub/search.gp" && ok || fail "the published name's label: $(grep 'label 1' "$TMP/pub/search.gp")"
for opt in vary search; do
    rm -rf "$TMP/vnl"
    if [ $opt = vary ]; then
        run vnl "$RAILYARD" search "$TMP/pub.yaml" -o "$TMP/vnl" \
            --vary "workload.model.description=one,\"two
x: 1\""
        expect_eq "--vary value of two lines: exit" "$rc" 2
        want="^railyard: search: --vary workload.model.description=one,\"two\\\\x0ax: 1.*: a value is one line"
    else
        sed 's/^  vary: .*/  vary: {workload.model.description: [one, "two\\nx: 1"]}/' "$TMP/pub.yaml" \
            >"$TMP/vnl.yaml"
        run vnl "$RAILYARD" search "$TMP/vnl.yaml" -o "$TMP/vnl"
        expect_eq "search.vary value of two lines: exit" "$rc" 1
        want="^$TMP/vnl.yaml:6:44: error: search.vary.workload.model.description: 'two\\\\x0ax: 1': a value is one line"
    fi
    grep -q "$want" "$TMP/vnl.err" && ok || fail "$opt value of two lines: $(head -n2 "$TMP/vnl.err")"
    [ -e "$TMP/vnl" ] && fail "$opt value of two lines: wrote $TMP/vnl" || ok
done
# a value on one line: every front spec is YAML that validates
run vok "$RAILYARD" search "$TMP/pub.yaml" -o "$TMP/vok" --vary 'workload.model.description=one,"two: x # y"'
expect_eq "--vary value with ': ' and '#': exit" "$rc" 0
for y in "$TMP"/vok/front/*.yaml; do
    "$PY" -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$y" 2>"$TMP/vok-py.err" && ok ||
        fail "$y is no YAML: $(tail -1 "$TMP/vok-py.err")"
    "$RAILYARD" validate "$y" >/dev/null 2>&1 && ok || fail "$y does not validate"
done

# -o DIR: a directory railyard did not write is refused and left as it was;
# railyard's own is rewritten, its stale front specs removed
mkdir "$TMP/user"
echo mine >"$TMP/user/notes.txt"
run user "$RAILYARD" search "$SPACE" -o "$TMP/user"
expect_eq "-o a user's dir: exit" "$rc" 3
expect_eq "-o a user's dir: left as it was" "$(ls -A "$TMP/user")" "notes.txt"
run again "$RAILYARD" search "$SPACE" --vary fabric.design=rail-optimized --vary cluster.planes=2 -o "$TMP/s1"
expect_eq "-o its own dir again: exit" "$rc" 0
expect_eq "-o its own dir again: the front's specs are the new front's" \
    "$(ls "$TMP/s1/front" | tr '\n' ' ')" \
    "$(awk -F, 'NR > 1 { printf "point-%d.yaml ", $1 }' "$TMP/s1/front.csv")"
check_py "rerun" "$TMP/s1/points.csv" "$TMP/s1/front.csv" "$TMP/again.out"

# --- memory: the builds at once keep within what the process may take ------------------------------
# Two points of 524,288 GPUs, a build of each maps about 250 MB: two at once
# do not fit under ulimit -v 450 MB, one does. By default the threads are as
# many as the memory holds (one here); -j 2 builds one point at a time
# within it; a point that alone needs more than --memory is not built and
# says why. (ASan cannot run under ulimit -v: not there.)
cat >"$TMP/half.yaml" <<'E'
version: 1
name: half
cluster: {nodes: 65536, node: dgx-h100}
fabric: {switch: qm9700, oversubscription: "1:1", tiers: auto}
workload: {model: llama-3-70b}
search:
  vary:
    fabric.design: [rail-optimized, fat-tree]
  failures: [leaf:1]
  seeds: 1
E
if ! sanitized; then
    for j in 0 2; do
        (ulimit -v 450000 && exec "$RAILYARD" search "$TMP/half.yaml" -q -j $j) \
            >"$TMP/half$j.out" 2>"$TMP/half$j.err"
        expect_eq "524,288 GPUs under ulimit -v 450 MB, -j $j: exit" $? 0
        grep -q "^search: half, 524,288 GPUs; 2 points; 2 fabrics built" "$TMP/half$j.out" && ok \
            || fail "524,288 GPUs, -j $j: $(head -n2 "$TMP/half$j.err")"
    done
fi
run memlow "$RAILYARD" search "$SPACE" --vary fabric.design=rail-only --memory 2M
expect_eq "--memory under a point's build: exit" "$rc" 1
grep -q "not built: its 1,024 GPUs need about .* of memory, more than the search's memory budget of 2.1 MB (--memory)" \
    "$TMP/memlow.err" && ok || fail "--memory under a point's build: $(head -n2 "$TMP/memlow.err")"
# The flow engine's memory is counted with a point's build: DeepSeek-V3 on
# 16,384 GPUs (expert parallel 64) builds in about 17 MB, but the engine's
# biggest phase, the expert all-to-all of every GPU at once (about 1,000,000
# flows), takes about 270 MB (estimated): under --memory 200M the point is
# not built and says why; --analytic, which runs no engine, builds it.
cat >"$TMP/dsv3.yaml" <<'E'
version: 1
name: dsv3
cluster: {gpus: 16384, node: dgx-h100}
fabric: {design: rail-optimized, switch: qm9700}
workload: {model: deepseek-v3, gpu: h800, parallelism: {expert: 64}}
E
run enginemem "$RAILYARD" search "$TMP/dsv3.yaml" --vary fabric.design=rail-optimized --fail plane \
    --memory 200M
expect_eq "--memory 200M, 16,384 GPUs of experts on the engine: exit" "$rc" 1
grep -q "not built: its 16,384 GPUs need about 2[0-9][0-9] MB of memory, more than the search's memory budget of 210 MB" \
    "$TMP/enginemem.err" && ok || fail "the engine's memory not counted: $(head -n2 "$TMP/enginemem.err")"
run enginemem-a "$RAILYARD" search "$TMP/dsv3.yaml" --vary fabric.design=rail-optimized --fail plane \
    --memory 200M --analytic
expect_eq "--memory 200M --analytic, 16,384 GPUs of experts: exit" "$rc" 0
grep -q "^search: dsv3, 16,384 GPUs; 1 point; 1 fabric built" "$TMP/enginemem-a.out" && ok \
    || fail "--analytic: $(head -n2 "$TMP/enginemem-a.err")"
run memok "$RAILYARD" search "$SPACE" --vary fabric.design=rail-only --memory 1G -j 3
expect_eq "--memory 1G -j 3: exit" "$rc" 0
run memdef "$RAILYARD" search "$SPACE" --vary fabric.design=rail-only -j 1
expect_eq "--memory 1G -j 3: the same bytes as -j 1" "$(cat "$TMP/memok.out")" "$(cat "$TMP/memdef.out")"
for bad in 0 12Q 1K -5G; do
    run membad "$RAILYARD" search "$SPACE" --memory "$bad"
    expect_eq "--memory $bad: exit" "$rc" 2
done

# search.vary with 4 keys of 4,096 values: validate loads the spec with each
# of the 16,384 values by itself, parsing the spec's text and the catalog
# once (each load parsing both again took minutes); a bad last value is
# still reported at its own line and column.
"$PY" - "$TMP/wide.yaml" "$TMP/widebad.yaml" >"$TMP/widebad.at" <<'P'
import sys
r = range(4096)
axes = [("cost.rack", [str(1000 + i) for i in r]), ("cost.transceiver", [str(100 + i) for i in r]),
        ("cost.switch_port", [str(500 + i) for i in r]), ("cost.spares", ["%.2f" % (i / 100) for i in r])]
head = ("version: 1\nname: wide\ncluster: {node: dgx-h100, gpus: 1024}\nfabric: {switch: qm9700}\n"
        "workload: {model: llama-3-70b}\nsearch:\n  vary:\n")
for path, last in ((sys.argv[1], None), (sys.argv[2], "101")):
    lines = []
    for key, vals in axes:
        if last and key == "cost.spares":
            vals = vals[:-1] + [last]
        lines.append("    %s: [%s]" % (key, ", ".join(vals)))
    open(path, "w").write(head + "\n".join(lines) + "\n")
line = lines[-1]
print("%d:%d" % (head.count("\n") + len(lines), line.rindex("101") + 1))
P
timeout -k 5 30 "$RAILYARD" -q validate "$TMP/wide.yaml" >/dev/null 2>"$TMP/wide.err"
expect_eq "16,384 values of search.vary: validate within 30 s, exit" $? 0
no_sanitizer "$TMP/wide.err"
timeout -k 5 30 "$RAILYARD" -q validate "$TMP/widebad.yaml" >/dev/null 2>"$TMP/wide.err"
expect_eq "16,384 values, the last out of range: validate within 30 s, exit" $? 1
expect_eq "16,384 values, the last out of range: the message" "$(cat "$TMP/wide.err")" \
    "$TMP/widebad.yaml:$(cat "$TMP/widebad.at"): error: cost.spares must be 0..100 percent (got 101)"

finish
