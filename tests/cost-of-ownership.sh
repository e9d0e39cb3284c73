#!/bin/sh
# The cost of ownership (cost.years, cost.pue, cost.energy_price,
# cost.support) against arithmetic done here:
#
#   - bom's JSON: energy = the installed switches (counts from the bill, the
#     watts from templates/switches.yaml read here with PyYAML) x 8,766 h a
#     year x PUE x the price x years; support = the switches' capex x the
#     share x years; spares used = (the switches' capex x switch_rate + the
#     optics' and cables' x cable_rate) x years; total = capex + all three;
#     the servers' energy apart
#     (nodes x the node's watts from templates/nodes.yaml);
#   - two designs of one cluster (rail-optimized and rail-only) side by side
#     in compare's JSON and text: each the same as bom's for that design;
#   - bom's text states the same total, to the dollar;
#   - expand: each phase's ownership is bom's of that phase;
#   - search --objective ownership: the answer is the point of least
#     ownership among those that meet the targets (points.csv), and the
#     front is the Pareto front of ownership against time, recomputed here;
#   - bad figures are refused at their key, file:line:col, nothing printed.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"
EX="$TOP_SRCDIR/examples"

SETS="--set cost.years=4 --set cost.pue=1.25 --set cost.energy_price=0.11 --set cost.support=12
      --set reliability.switch_rate=0.05 --set reliability.cable_rate=0.01"
for d in rail-optimized rail-only; do
    # shellcheck disable=SC2086
    "$RAILYARD" bom "$EX/superpod-4su.yaml" $SETS --set fabric.design=$d --format json \
        >"$TMP/$d.json" 2>"$TMP/err"
    expect_eq "bom json $d exit" $? 0
    # shellcheck disable=SC2086
    "$RAILYARD" bom "$EX/superpod-4su.yaml" $SETS --set fabric.design=$d >"$TMP/$d.txt" \
        2>>"$TMP/err"
    expect_eq "bom text $d exit" $? 0
done
# shellcheck disable=SC2086
"$RAILYARD" compare "$EX/superpod-4su.yaml" $SETS --format json >"$TMP/cmp.json" 2>>"$TMP/err"
expect_eq "compare json exit" $? 0
# shellcheck disable=SC2086
"$RAILYARD" compare "$EX/superpod-4su.yaml" $SETS >"$TMP/cmp.txt" 2>>"$TMP/err"
expect_eq "compare text exit" $? 0
no_sanitizer "$TMP/err"

out=$("$PY" - "$TMP" "$TPL" "$EX/superpod-4su.yaml" <<'EOF'
import json, re, sys, yaml
tmp, tpl, spec = sys.argv[1:4]
sw = yaml.safe_load(open(tpl + "/switches.yaml"))["switches"]
nodes = yaml.safe_load(open(tpl + "/nodes.yaml"))["nodes"]
s = yaml.safe_load(open(spec))
node_w = nodes[s["cluster"]["node"]]["power"]
YEARS, PUE, PRICE, SUPPORT = 4, 1.25, 0.11, 12
errs = []
def near(what, got, want, tol=0.01):
    if got is None or abs(got - want) > tol:
        errs.append("%s: %s, want %.2f" % (what, got, want))
cmp = json.load(open(tmp + "/cmp.json"))
designs = {d["design"]: d for d in cmp["designs"]}
for d in ("rail-optimized", "rail-only"):
    b = json.load(open("%s/%s.json" % (tmp, d)))
    x = b["capex"]
    own = x["ownership"]
    watts = 0
    for m in x["switch_models"]:
        watts += m["count"] * sw[m["name"]]["power"]   # no spares in this spec
    energy_year = watts / 1000 * 8766 * PUE * PRICE
    support_year = x["switches"] * SUPPORT / 100
    spares_year = x["switches"] * 0.05 + (x["optics"] + x["cables"]) * 0.01
    near(d + " network_power_w", own["network_power_w"], watts, 0.5)
    near(d + " energy", own["energy"], energy_year * YEARS)
    near(d + " support", own["support"], support_year * YEARS)
    near(d + " spares used", own["spares_used"], spares_year * YEARS)
    near(d + " total", own["total"], x["total"] + (energy_year + support_year + spares_year) * YEARS)
    if own["years"] != YEARS or own["pue"] != PUE:
        errs.append("%s: years %s pue %s" % (d, own["years"], own["pue"]))
    gpus = b["gpus"]
    near(d + " servers' energy", own["servers"]["energy"],
         gpus // 8 * node_w / 1000 * 8766 * PUE * PRICE * YEARS)
    # compare's design is bom's
    c = designs[d]["ownership"]
    near(d + " compare total", c["total"], own["total"])
    near(d + " compare energy", c["energy"], own["energy"])
    near(d + " compare support", c["support"], own["support"])
    # bom's text, to the dollar
    t = open("%s/%s.txt" % (tmp, d)).read()
    m = re.search(r"cost of ownership over 4 years.*?\n  ownership: +\$([0-9,]+)", t, re.S)
    if not m or int(m.group(1).replace(",", "")) != round(own["total"]):
        errs.append("%s text total %s, json %.2f" % (d, m and m.group(1), own["total"]))
# compare's text row holds both designs' totals
t = open(tmp + "/cmp.txt").read()
row = [l for l in t.splitlines() if l.startswith("ownership, 4 years")]
want = ["$" + format(round(designs[d]["ownership"]["total"]), ",")
        for d in ("rail-optimized", "rail-only")]
if not row or row[0].split()[3:5] != want:
    errs.append("compare row %s, want %s" % (row, want))
print("\n".join(errs) if errs else "ok")
EOF
)
expect_eq "ownership against the closed form" "$out" "ok"

# a switch without power or price: the energy and the support unknown, the
# total marked partial, not a figure that reads as zero
"$RAILYARD" bom "$EX/superpod-4su.yaml" --set 'fabric.switch={name: x, radix: 64, speed: NDR}' \
    --format json >"$TMP/u.json" 2>/dev/null
expect_eq "an unpriced, unpowered switch: energy, support, partial, total" \
    "$("$PY" -c 'import json, sys
o = json.load(open(sys.argv[1]))["capex"]["ownership"]
print(o["energy"], o["support"], o["partial"], abs(o["total"] - o["capex"] - o["spares_used"]) < 0.01)' "$TMP/u.json")" "None None True True"
"$RAILYARD" bom "$EX/superpod-4su.yaml" --set 'fabric.switch={name: x, radix: 64, speed: NDR}' 2>/dev/null |
    grep -q '^  ownership: .*(without the energy and the support)$'
expect_eq "an unpriced, unpowered switch: the text says what the total leaves out" $? 0
# bom's CSV: the ownership section holds the JSON's figures, empty where unknown
# shellcheck disable=SC2086
"$RAILYARD" bom "$EX/superpod-4su.yaml" $SETS --format csv >"$TMP/b.csv" 2>/dev/null
"$RAILYARD" bom "$EX/superpod-4su.yaml" --set 'fabric.switch={name: x, radix: 64, speed: NDR}' \
    --format csv >"$TMP/u.csv" 2>/dev/null
expect_eq "bom csv: the ownership section" "$("$PY" -c 'import csv, json, sys
def own(f):
    return {r["item"]: r["extended_price"] for r in csv.DictReader(open(f)) if r["section"] == "ownership"}
o, j, u = own(sys.argv[1]), json.load(open(sys.argv[2]))["capex"]["ownership"], own(sys.argv[3])
print(abs(float(o["total"]) - j["total"]) < 0.01, abs(float(o["spares used"]) - j["spares_used"]) < 0.01,
      u["energy"] == "" and u["support"] == "")' "$TMP/b.csv" "$TMP/rail-optimized.json" "$TMP/u.csv")" "True True True"

# expand: the running costs before and after a phase, and the new phase's
# ownership, are bom's of each phase
"$RAILYARD" expand "$EX/superpod-4su.yaml" --set cluster.nodes=255 --format json >"$TMP/x.json" 2>"$TMP/err"
expect_eq "expand json exit" $? 0
"$RAILYARD" bom "$EX/superpod-4su.yaml" --set cluster.nodes=255 --format json >"$TMP/new.json" 2>>"$TMP/err"
"$RAILYARD" bom "$EX/superpod-4su.yaml" --format json >"$TMP/old.json" 2>>"$TMP/err"
no_sanitizer "$TMP/err"
expect_eq "expand: the phases' ownership is bom's" \
    "$("$PY" -c 'import json, sys
x, o, n = (json.load(open(f)) for f in sys.argv[1:4])
print(x["ownership"]["old"] == o["capex"]["ownership"], x["ownership"]["new"] == n["capex"]["ownership"],
      x["ownership"]["new"]["total"] > x["ownership"]["old"]["total"])' "$TMP/x.json" "$TMP/old.json" "$TMP/new.json")" \
    "True True True"

# search priced by ownership
"$RAILYARD" -q search "$EX/search-h100.yaml" --objective ownership --fail spine:1 --seeds 1 \
    --format csv >"$TMP/points.csv" 2>"$TMP/err"
expect_eq "search --objective ownership exit" $? 0
no_sanitizer "$TMP/err"
out=$("$PY" - "$TMP/points.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["iteration_s"]]
errs = []
meets = [r for r in rows if r["meets"] == "1"]
best = min(meets, key=lambda r: (float(r["ownership"]), float(r["iteration_s"])))
answer = [r for r in rows if r["answer"] == "1"]
if len(answer) != 1 or float(answer[0]["ownership"]) != float(best["ownership"]):
    errs.append("answer %s, least ownership %s" % ([a["point"] for a in answer], best["point"]))
if float(best["ownership"]) <= float(best["capex"]):
    errs.append("ownership %s not above capex %s" % (best["ownership"], best["capex"]))
# the front: no point both no dearer and no slower, one of them strictly
for r in rows:
    o, t = float(r["ownership"]), float(r["iteration_s"])
    dom = any(float(q["ownership"]) <= o and float(q["iteration_s"]) <= t and
              (float(q["ownership"]) < o or float(q["iteration_s"]) < t) for q in rows)
    if (r["front"] == "1") == dom:
        errs.append("point %s front %s, dominated %s" % (r["point"], r["front"], dom))
print("\n".join(errs) if errs else "ok")
EOF
)
expect_eq "search: the answer and the front priced by ownership" "$out" "ok"
"$RAILYARD" -q search "$EX/search-h100.yaml" --objective price >"$TMP/o" 2>"$TMP/e"
expect_eq "search --objective price exit" $? 2
grep -q "objective takes capex or ownership" "$TMP/e"
expect_eq "search --objective price says what it takes" $? 0

# bad figures, at their key
for kv in "pue: 0.5" "years: 0" "energy_price: -1" "support: 120"; do
    sed "s/^cost:/cost:\n  $kv/" "$EX/superpod-4su.yaml" >"$TMP/bad.yaml"
    "$RAILYARD" bom "$TMP/bad.yaml" >"$TMP/o" 2>"$TMP/e"
    expect_eq "cost.$kv: exit" $? 1
    k=${kv%%:*}
    line=$(grep -n "^  $k:" "$TMP/bad.yaml" | cut -d: -f1)
    grep -q "bad.yaml:$line:[0-9]*: .*cost\.$k" "$TMP/e"
    expect_eq "cost.$kv: refused at its key ($(head -c 200 "$TMP/e"))" $? 0
    expect_eq "cost.$kv: nothing printed" "$(wc -c <"$TMP/o" | tr -d ' ')" 0
done
finish
