#!/bin/sh
# Price sensitivity against arithmetic done here:
#
#   - bom --sensitivity: each item (switch model, optics part, cable
#     medium, summed from bom's own JSON lines) alone at (1 -/+ range) x
#     list moves the capex by -/+ range x its cost x (1 + spares/100); the
#     items are sorted by that swing; --plot DIR writes the same table as
#     CSV and a script gnuplot draws (sensitivity.png when gnuplot runs);
#   - compare --sensitivity: the cheapest design with each kind and each
#     item at either end, recomputed from each design's bom JSON;
#   - search --sensitivity: the answer with every price of a kind at
#     either end, recomputed from points.csv (the capex repriced, the
#     cheapest of the points that meet the targets);
#   - a model's own price_range replaces the kind's;
#   - --plot without --sensitivity, and --sensitivity with CSV, are usage
#     errors.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"
R="--set cost.range_switches=15 --set cost.range_optics=40 --set cost.range_cables=25 --set cost.spares=5"

# shellcheck disable=SC2086
"$RAILYARD" bom "$EX/superpod-4su.yaml" $R --sensitivity --format json >"$TMP/b.json" 2>"$TMP/err"
expect_eq "bom --sensitivity json: exit" $? 0
# shellcheck disable=SC2086
"$RAILYARD" bom "$EX/superpod-4su.yaml" $R --sensitivity --plot "$TMP/plot" >"$TMP/b.txt" 2>>"$TMP/err"
expect_eq "bom --sensitivity --plot: exit" $? 0
no_sanitizer "$TMP/err"
out=$("$PY" - "$TMP" <<'EOF'
import csv, json, sys
tmp = sys.argv[1]
b = json.load(open(tmp + "/b.json"))
x, ph = b["capex"], b["physical"]
rng = {"switch": 15, "optics": 40, "cable": 25}
items = {}
for m in x["switch_models"]:
    items[("switch", m["name"])] = items.get(("switch", m["name"]), 0) + m["cost"]
for l in ph["lines"]:
    k = ("optics", l["part"]) if l["what"] == "transceiver" else ("cable", l["medium"])
    items[k] = items.get(k, 0) + l["cost"]
total = x["total"]
want = []
for (kind, name), cost in items.items():
    d = rng[kind] / 100 * cost * 1.05
    want.append((-(2 * d), kind, name, round(total - d, 2), round(total + d, 2)))
want.sort()
got = [(-(s["capex_high"] - s["capex_low"]), s["kind"], s["item"], s["capex_low"], s["capex_high"])
       for s in b["sensitivity"]]
errs = []
if len(got) != len(want):
    errs.append("%d items, want %d" % (len(got), len(want)))
for g, w in zip(got, want):
    if g[1:3] != w[1:3] or abs(g[3] - w[3]) > 0.011 or abs(g[4] - w[4]) > 0.011:
        errs.append("got %s, want %s" % (g, w))
rows = list(csv.DictReader(open(tmp + "/plot/sensitivity.csv")))
if [(r["kind"], r["item"]) for r in rows] != [(w[1], w[2]) for w in want]:
    errs.append("sensitivity.csv rows %s" % [(r["kind"], r["item"]) for r in rows])
text = open(tmp + "/b.txt").read()
if "price sensitivity" not in text or want and want[0][2] not in text.split("price sensitivity")[1]:
    errs.append("text lacks the table")
print("\n".join(errs) if errs else "ok")
EOF
)
expect_eq "bom: the tornado against the closed form" "$out" ok
[ -s "$TMP/plot/sensitivity.gp" ] && ok || fail "no sensitivity.gp"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$TMP/plot/sensitivity.png" ] && [ -s "$TMP/plot/sensitivity.svg" ] && ok ||
        fail "gnuplot is here but drew no sensitivity.png/svg"
fi
"$RAILYARD" bom "$EX/superpod-4su.yaml" --plot "$TMP/p2" >/dev/null 2>"$TMP/e"
expect_eq "--plot without --sensitivity: exit" $? 2
"$RAILYARD" bom "$EX/superpod-4su.yaml" --sensitivity --format csv >/dev/null 2>"$TMP/e"
expect_eq "--sensitivity --format csv: exit" $? 2

# a model's own range (fabric.switch.price_range, as a catalog entry may
# give) replaces cost.range_switches for that model alone
"$RAILYARD" bom "$EX/superpod-4su.yaml" --set 'fabric.switch={name: qm9700, price_range: 5}' \
    --sensitivity --format json >"$TMP/r.json" 2>"$TMP/err"
expect_eq "a model's own range: exit" $? 0
expect_eq "a model's own range" "$("$PY" -c 'import json, sys
print(sorted((s["kind"], s["range_pct"]) for s in json.load(open(sys.argv[1]))["sensitivity"] if s["kind"] != "optics"))' "$TMP/r.json")" \
    "[('cable', 20.0), ('switch', 5.0)]"

# compare: the cheapest at either end, from each design's bom
S4="$EX/superpod-4su.yaml"
# shellcheck disable=SC2086
"$RAILYARD" compare "$S4" $R --sensitivity --format json >"$TMP/c.json" 2>"$TMP/err"
expect_eq "compare --sensitivity: exit" $? 0
for d in rail-optimized rail-only fat-tree; do
    # shellcheck disable=SC2086
    "$RAILYARD" bom "$S4" $R --set fabric.design=$d --format json >"$TMP/bom-$d.json" 2>>"$TMP/err"
done
no_sanitizer "$TMP/err"
out=$("$PY" - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
rng = {"switch": 15, "optics": 40, "cable": 25}
designs = ["rail-optimized", "rail-only", "fat-tree"]
items, total = {}, {}
for d in designs:
    b = json.load(open("%s/bom-%s.json" % (tmp, d)))
    total[d] = b["capex"]["total"]
    it = {}
    for m in b["capex"]["switch_models"]:
        it[("switch", m["name"])] = it.get(("switch", m["name"]), 0) + m["cost"]
    for l in b["physical"]["lines"]:
        k = ("optics", l["part"]) if l["what"] == "transceiver" else ("cable", l["medium"])
        it[k] = it.get(k, 0) + l["cost"]
    items[d] = it
def cheapest(kind, name, f):
    c = {}
    for d in designs:
        part = sum(v for (k, n), v in items[d].items() if k == kind and (name is None or n == name))
        c[d] = total[d] + (f - 1) * part * 1.05
    return min(designs, key=lambda d: (c[d], designs.index(d)))
c = json.load(open(tmp + "/c.json"))
errs = []
if len(c["sensitivity"]) < 3 + 3:
    errs.append("%d rows" % len(c["sensitivity"]))
for r in c["sensitivity"]:
    f = rng[r["kind"]] / 100
    lo, hi = cheapest(r["kind"], r["item"], 1 - f), cheapest(r["kind"], r["item"], 1 + f)
    if (r["cheapest_low"], r["cheapest_high"]) != (lo, hi):
        errs.append("%s %s: %s/%s, want %s/%s" % (r["kind"], r["item"], r["cheapest_low"],
                                                  r["cheapest_high"], lo, hi))
    if r["flips"] != (lo != c["cheapest"] or hi != c["cheapest"]):
        errs.append("%s %s: flips %s" % (r["kind"], r["item"], r["flips"]))
print("\n".join(errs) if errs else "ok")
EOF
)
expect_eq "compare: the cheapest at either end of each range" "$out" ok

# search: the answer at either end of each kind's range, from points.csv
"$RAILYARD" -q search "$EX/search-h100.yaml" --set cost.range_optics=100 --set cost.range_switches=60 \
    --sensitivity -o "$TMP/s" >"$TMP/s.txt" 2>"$TMP/err"
expect_eq "search --sensitivity: exit" $? 0
no_sanitizer "$TMP/err"
out=$("$PY" - "$TMP" <<'EOF'
import csv, re, sys
tmp = sys.argv[1]
rows = list(csv.DictReader(open(tmp + "/s/points.csv")))
meet = [r for r in rows if r["meets"] == "1"]
col = {"switches": "capex_switches", "optics": "capex_optics", "cables": "capex_cables"}
rng = {"switches": 60, "optics": 100, "cables": 20}
text = open(tmp + "/s.txt").read()
errs = []
for kind in col:
    got = re.search(r"^  %s +\S+ +(#\d+|none)(?: \(flips\))? +(#\d+|none)" % kind, text, re.M)
    for e, f in ((1, 1 - rng[kind] / 100), (2, 1 + rng[kind] / 100)):
        def price(r):
            hw = float(r["capex_switches"]) + float(r["capex_optics"]) + float(r["capex_cables"])
            sp = float(r["capex_spares"]) / hw if hw else 0
            return (float(r["capex"]) + (f - 1) * float(r[col[kind]]) * (1 + sp),
                    float(r["iteration_s"]))
        want = "#" + min(meet, key=price)["point"]
        if not got or got.group(e) != want:
            errs.append("%s at %g: %s, want %s" % (kind, f, got and got.group(e), want))
print("\n".join(errs) if errs else "ok")
EOF
)
expect_eq "search: the answer at either end of each kind's range" "$out" ok
finish
