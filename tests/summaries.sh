#!/bin/sh
# What railyard says about a run, checked against figures the test works out
# itself: sweep's counts, reasons and positions; CSV line endings (LF, or CR LF
# under --crlf) for every CSV a build writes; bom --format csv's sections
# against the JSON bill of materials.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"
MD="$TOP_SRCDIR/tests/data/model"

# ---- sweep: counts, one line per reason, positions the user wrote ----------------------
"$RAILYARD" sweep "$MD/small.yaml" --vary cluster.hb_domain=1..16+1 --vary workload.batch=64,512 \
    >"$TMP/sw.csv" 2>"$TMP/sw.err"
expect_eq "sweep with invalid points: exit" $? 0
no_sanitizer "$TMP/sw.err"
# an HB domain is valid when it divides the node's 8 GPUs or is a whole number of nodes
want_valid=0
for h in $(seq 1 16); do
    if [ $((8 % h)) -eq 0 ] || [ $((h % 8)) -eq 0 ]; then want_valid=$((want_valid + 2)); fi
done
want_invalid=$((32 - want_valid))
grep -q "^railyard: sweep: 32 points, $want_valid valid, $want_invalid invalid" "$TMP/sw.err" && ok \
    || fail "sweep count line: $(tail -n 1 "$TMP/sw.err")"
expect_eq "sweep: invalid rows in the CSV" "$(grep -c ',invalid,' "$TMP/sw.csv")" "$want_invalid"
expect_eq "sweep: one line for the one reason" "$(grep -c ': error: ' "$TMP/sw.err")" 1
grep -q "^--vary cluster.hb_domain=3: error: .*must divide one another" "$TMP/sw.err" && ok \
    || fail "sweep: reason not at --vary KEY=VALUE: $(head -n 1 "$TMP/sw.err")"
grep -q "^  ($want_invalid points: cluster.hb_domain=3, workload.batch=64;" "$TMP/sw.err" && ok \
    || fail "sweep: reason's point count: $(sed -n 2p "$TMP/sw.err")"
grep -q -- '--set:' "$TMP/sw.err" && fail "sweep names a --set position the user never typed" || ok
expect_eq "sweep: lines on stderr" "$(wc -l <"$TMP/sw.err" | tr -d ' ')" 3

# a --set of the user's own keeps its position; an error in the file keeps the file's
"$RAILYARD" sweep "$MD/small.yaml" --set cluster.gpus=500 --vary workload.batch=64,512 \
    >/dev/null 2>"$TMP/sw2.err"
expect_eq "sweep, no point valid: exit (bad input)" $? 1
grep -q '^--set:1:14: error: cluster.gpus must be a multiple of 16' "$TMP/sw2.err" && ok \
    || fail "sweep: --set position: $(head -n 1 "$TMP/sw2.err")"
grep -q "^  (2 points: workload.batch=64; workload.batch=512)" "$TMP/sw2.err" && ok \
    || fail "sweep: both points under one reason: $(cat "$TMP/sw2.err")"
grep -q "2 points, 0 valid, 2 invalid (nothing written)" "$TMP/sw2.err" && ok \
    || fail "sweep: all-invalid count line: $(cat "$TMP/sw2.err")"
"$RAILYARD" sweep "$MD/small.yaml" --vary cluster.hb_domain=3,5 -o "$TMP/sw-none" >/dev/null 2>&1
expect_eq "sweep, no point valid, -o: exit" $? 1
[ ! -e "$TMP/sw-none" ] && ok || fail "sweep with no valid point wrote $TMP/sw-none"

# ---- CSV line endings ------------------------------------------------------------------
SP="$EX/superpod-4su.yaml"
"$RAILYARD" build "$SP" -o "$TMP/b" >/dev/null 2>"$TMP/b.err"
expect_eq "build exit" $? 0
"$RAILYARD" bom "$SP" --format csv >"$TMP/b/bom.csv"
n=0
for f in $(find "$TMP/b" -name '*.csv' | sort); do
    n=$((n + 1))
    # awk -F, must see fields without a trailing CR
    got=$(awk -F, '/\r/ { bad++ } END { print bad + 0 }' "$f")
    expect_eq "$(basename "$f"): lines with CR" "$got" 0
    [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] && ok || fail "$f does not end with LF"
done
[ "$n" -ge 10 ] && ok || fail "only $n CSV files in the build"
# --crlf: every record of those files ends with CR LF
"$RAILYARD" --crlf build "$SP" -o "$TMP/c" >/dev/null 2>&1
"$RAILYARD" bom "$SP" --format csv --crlf >"$TMP/c/bom.csv"
for f in $(cd "$TMP/c" && find . -name '*.csv' | sort); do
    lf=$(tr -cd '\n' <"$TMP/c/$f" | wc -c)
    crlf=$(grep -c "$(printf '\r')\$" "$TMP/c/$f")
    expect_eq "--crlf $f: records ending with CR LF" "$crlf" "$lf"
    tr -d '\r' <"$TMP/c/$f" | cmp -s - "$TMP/b/$f" && ok || fail "--crlf $f differs beyond its line ends"
done

# ---- bom --format csv: the tiers, the physical bill and the capex, in sections ---------
"$RAILYARD" bom "$SP" --format json >"$TMP/bom.json"
"$PY" - "$TMP/b/bom.csv" "$TMP/bom.json" >"$TMP/bom.txt" <<'P'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
b = json.load(open(sys.argv[2]))
errs = []
sec = lambda s: [r for r in rows if r["section"] == s]
paper = sec("paper")
for t, d in enumerate(b["tier_detail"]):
    r = paper[t]
    got = (r["item"], int(r["switches"]), int(r["ports"]), int(r["ports_used"]), int(r["ports_free"]))
    want = (d["name"], d["switches"], d["ports"], d["ports_used"], d["ports_free"])
    if got != want: errs.append("paper tier %d: %s, json %s" % (t + 1, got, want))
tot = paper[-1]
if tot["item"] != "total" or abs(float(tot["extended_price"]) - b["cost"]["total"]) > 0.005:
    errs.append("paper total %s, json %s" % (tot["extended_price"], b["cost"]["total"]))
phys = sec("physical")
lines = b["physical"]["lines"]
if len(phys) != len(lines) + 1: errs.append("%d physical rows, json %d lines" % (len(phys), len(lines)))
for r, l in zip(phys, lines):
    got = (r["item"], r["part"], r["medium"], int(r["quantity"]), float(r["unit_price"]), float(r["extended_price"]))
    want = (l["what"], l["part"], l["medium"], l["count"], float(l["unit_price"]), float(l["cost"]))
    if got != want: errs.append("physical %s, json %s" % (got, want))
    if abs(int(r["quantity"]) * float(r["unit_price"]) - float(r["extended_price"])) > 0.01:
        errs.append("physical %s: quantity x unit price != extended" % r["part"])
s = sum(float(r["extended_price"]) for r in phys[:-1])
if abs(s - float(phys[-1]["extended_price"])) > 0.01 or abs(s - b["physical"]["cost"]["total"]) > 0.01:
    errs.append("physical lines sum to %.2f, total row %s, json %s" % (s, phys[-1]["extended_price"], b["physical"]["cost"]["total"]))
capex = {r["item"]: r for r in sec("capex")}
if abs(float(capex["total"]["extended_price"]) - b["capex"]["total"]) > 0.005:
    errs.append("capex total %s, json %s" % (capex["total"]["extended_price"], b["capex"]["total"]))
sw = capex["switches"]
if (int(sw["quantity"]), sw["part"]) != (b["capex"]["switch_count"], b["capex"]["switch_part"]):
    errs.append("capex switches %s" % sw)
print("\n".join(errs[:8]) if errs else "ok")
P
expect_eq "bom csv against bom json" "$(cat "$TMP/bom.txt")" ok

finish
