#!/bin/sh
# doc/search.md shows railyard's own output: every fenced block whose first
# line is "$ COMMAND" is rerun here, in order, in one scratch directory whose
# examples/ is the source tree's (so a file one block writes is there for
# the next), with railyard the one under test first on PATH, and must exit
# 0 and print exactly the lines the block shows.
#
# After a change to what search prints, rewrite the blocks from the current
# output (from the top of the source tree, with the program in build/):
#
#   RAILYARD=build/railyard TOP_SRCDIR=. sh tests/search-doc.sh --regenerate
#
# and read the prose around them again: it cites the points by number.
#
# Then what the note says of the search, from points.csv against closed
# forms worked out here: the two fronts (no modeled point cheaper and at
# least as good), the answer (the cheapest point within 1% of the fastest
# point's time), front.csv and front/ holding exactly the front's points,
# each front spec priced by railyard bom at the capex points.csv gives, the
# same bytes on 1 and 2 threads, and the facts the prose states.
case $RAILYARD in /*) ;; *) RAILYARD=$PWD/$RAILYARD ;; esac
case ${TOP_SRCDIR:-.} in /*) ;; *) TOP_SRCDIR=$PWD/${TOP_SRCDIR:-.} ;; esac
. "$TOP_SRCDIR/tests/lib.sh"
DOC=$TOP_SRCDIR/doc/search.md
SPEC=$TOP_SRCDIR/examples/search-h100.yaml
regenerate=0
[ "${1:-}" = "--regenerate" ] && regenerate=1

# ---- the quoted blocks -------------------------------------------------------------------
doc_blocks "$DOC" 4 "$regenerate"
if [ "$regenerate" = 1 ]; then
    echo "doc/search.md rewritten: check the prose's numbers, then rerun without --regenerate"
    finish
fi

# ---- the search itself, against closed forms -------------------------------------------------
O=$TMP/out
"$RAILYARD" search "$SPEC" -j 2 -o "$O" >"$TMP/j2.txt" 2>"$TMP/j2.err"
expect_eq "search -o exit" $? 0
no_sanitizer "$TMP/j2.err"
"$RAILYARD" search "$SPEC" -j 1 >"$TMP/j1.txt" 2>"$TMP/j1.err"
expect_eq "search -j 1 exit" $? 0
if cmp -s "$TMP/j1.txt" "$TMP/j2.txt"; then ok; else
    fail "search prints differently on 1 and 2 threads:"; diff "$TMP/j1.txt" "$TMP/j2.txt" | head -10
fi
for f in points.csv front.csv search.gp; do
    [ -s "$O/$f" ] && ok || fail "search -o wrote no $f"
done
if grep -q 'gnuplot is not installed' "$TMP/j2.err"; then
    echo "note: gnuplot not installed: search.png and search.svg not checked"
else
    head -c 8 "$O/search.png" | od -An -c | grep -q 'P   N   G' && ok || fail "search.png is not a PNG"
    grep -q '<svg' "$O/search.svg" && ok || fail "search.svg is not SVG"
fi

cat >"$TMP/closed.py" <<'P'
import csv, math, os, sys
o = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(o, "points.csv"))))
bad = []
def f(r, k):
    v = r[k]
    return math.inf if v == "inf" else float(v)
ok = [r for r in rows if r["iteration_s"] != ""]
if len(rows) != 24 or len(ok) != 24:
    bad.append(f"{len(rows)} points, {len(ok)} modeled; want 24 and 24")
# a point is on a front when no modeled point is at most as dear and at most
# as slow (or as slowed by the failures) with one of the two strictly less
def front(y, pts):
    on = set()
    for r in pts:
        c, t = f(r, "capex"), f(r, y)
        if not any(f(q, "capex") <= c and f(q, y) <= t and (f(q, "capex") < c or f(q, y) < t)
                   for q in pts):
            on.add(r["point"])
    return on
# a point that stalls under a failure is on no failure front, and is no answer
runs = [r for r in ok if r["stalls"] == ""]
for col, y, pts in (("front", "iteration_s", ok), ("front_failure", "slowdown", runs)):
    want = front(y, pts)
    got = {r["point"] for r in rows if r[col] == "1"}
    if want != got:
        bad.append(f"{col}: points.csv says {sorted(got, key=int)}, the closed form {sorted(want, key=int)}")
fastest = min(f(r, "iteration_s") for r in runs)
meets = [r for r in runs if f(r, "iteration_s") <= fastest * 1.01]
answer = min(meets, key=lambda r: (f(r, "capex"), f(r, "iteration_s"), int(r["point"])))
got = [r["point"] for r in rows if r["answer"] == "1"]
if got != [answer["point"]]:
    bad.append(f"answer: points.csv says {got}, the closed form {answer['point']}")
if {r["point"] for r in meets} != {r["point"] for r in rows if r["meets"] == "1"}:
    bad.append("meets: not the points that do not stall within 1% of the fastest of them")
fr = list(csv.DictReader(open(os.path.join(o, "front.csv"))))
if [r["point"] for r in fr] != [r["point"] for r in rows if r["front"] == "1"]:
    bad.append("front.csv is not the front's rows of points.csv")
width = len(str(len(rows)))
files = sorted(os.listdir(os.path.join(o, "front")))
want = sorted("point-%0*d.yaml" % (width, int(r["point"])) for r in fr)
if files != want:
    bad.append(f"front/ holds {files}, want {want}")
# what the note states
by = {r["point"]: r for r in rows}
def has(p, **kv):
    return all(by[p][k] == v for k, v in kv.items())
if not has("14", design="rail-only", **{"fabric.oversubscription": "1:1", "fabric.switch": "qm9790"}):
    bad.append("#14 is not rail-only 1:1 on qm9790")
if answer["point"] != "17":
    bad.append(f"the answer is #{answer['point']}, the note says #17")
if not has("17", design="rail-only", **{"fabric.oversubscription": "[2:1, 1:1]", "fabric.switch": "qm9790"}):
    bad.append("#17 is not rail-only with its leaves tapered 2:1 on qm9790")
if by["14"]["front_failure"] != "0":
    bad.append("#14 is on the failure front: the note says it is off it")
if by["14"]["tensor"] != "8" or by["17"]["tensor"] != "8" or \
        by["14"]["iteration_s.llama-3-70b"] != by["17"]["iteration_s.llama-3-70b"]:
    bad.append("#14 and #17: the note says both lay the 70B out alike, its time the same")
for r in ok:
    want_tiers = {"rail-only": "2", "rail-optimized": "3", "fat-tree": "3"}[r["design"]]
    if r["tiers"] != want_tiers:
        bad.append(f"#{r['point']}: {r['design']} has {r['tiers']} tiers, the note says {want_tiers}")
    stalls = r["stalls"] == "leaf:1"
    if stalls != (r["design"] == "fat-tree"):
        bad.append(f"#{r['point']}: stalls '{r['stalls']}': the note says only the fat trees stall, at a leaf")
for a, b in (("17", "23"), ("14", "20")):
    if by[a]["capex"] != by[b]["capex"] or by[a]["iteration_s"] != by[b]["iteration_s"]:
        bad.append(f"#{a} and #{b} differ: the note says they are one fabric")
if by["1"]["published"] != "DGX SuperPOD" or by["2"]["published"] != "rail-only paper":
    bad.append("the published designs are not #1 and #2")
# the differences and counts the prose cites
def capex(p): return round(f(by[p], "capex"))
for a, b, want in (("2", "14", 768000), ("14", "17", 2195560), ("19", "14", 3733328)):
    if capex(a) - capex(b) != want:
        bad.append(f"capex #{a} - #{b}: {capex(a) - capex(b)}, the note says {want}")
for p, want in (("1", "320"), ("2", "192"), ("14", "192")):
    if by[p]["switches"] != want:
        bad.append(f"#{p}: {by[p]['switches']} switches, the note says {want}")
for p, want in (("13", "1.0296"), ("14", "1.0309"), ("22", "1.0304"), ("17", "1.0325")):
    if "%.4f" % f(by[p], "slowdown") != want:
        bad.append(f"#{p}: slowdown {by[p]['slowdown']}, the note says {want}x")
if by["22"]["front_failure"] != "1" or by["22"]["design"] != "rail-optimized":
    bad.append("#22 is not a rail-optimized point on the failure front")
if int(by["13"]["racks"]) != int(by["1"]["racks"]) - 1:
    bad.append("#13 does not stand in one rack fewer than #1")
for r in bad:
    print("FAIL-LINE: " + r)
print("answer", answer["point"], answer["capex"])
for r in fr:
    print("front", r["point"], r["capex"])
P
"$PY" "$TMP/closed.py" "$O" >"$TMP/closed.out" 2>&1
expect_eq "closed forms' exit" $? 0
grep '^FAIL-LINE' "$TMP/closed.out" | sed 's/^FAIL-LINE: /FAIL: /'
expect_eq "closed-form mismatches" "$(grep -c '^FAIL-LINE' "$TMP/closed.out")" 0
[ "$(grep -c '^front ' "$TMP/closed.out")" -ge 2 ] && ok || fail "a front of fewer than 2 points"

# each front spec is a spec railyard reads, priced as points.csv says
grep '^front ' "$TMP/closed.out" | while read -r _ p capex; do
    y=$(printf '%s/front/point-%02d.yaml' "$O" "$p")
    "$RAILYARD" bom "$y" >"$TMP/bom.$p" 2>&1 || echo "FAIL: railyard bom $y: $(head -3 "$TMP/bom.$p")"
    got=$(sed -n 's/^  total: *\$\([0-9,]*\).*/\1/p' "$TMP/bom.$p" | tr -d ,)
    want=$(printf '%.0f' "$capex")
    [ "$got" = "$want" ] || echo "FAIL: bom of front point $p: capex $got, points.csv $want"
done >"$TMP/bom.out"
cat "$TMP/bom.out"
expect_eq "front specs priced otherwise by bom" "$(grep -c '^FAIL' "$TMP/bom.out")" 0

# the check can fail: a dominated point put on the front, the answer moved
mutant() {  # mutant WHAT POINT=COLUMN=VALUE...: points.csv so edited must be noticed
    what=$1
    shift
    rm -rf "$TMP/m" && mkdir "$TMP/m" && cp -r "$O/front" "$O/front.csv" "$TMP/m/"
    "$PY" - "$O/points.csv" "$TMP/m/points.csv" "$@" <<'E'
import csv, sys
src, dst, edits = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = list(csv.reader(open(src, newline="")))
head = rows[0]
for e in edits:
    point, col, value = e.split("=", 2)
    for r in rows[1:]:
        if r[0] == point:
            r[head.index(col)] = value
csv.writer(open(dst, "w", newline=""), lineterminator="\n").writerows(rows)
E
    cmp -s "$O/points.csv" "$TMP/m/points.csv" && { fail "$what: the edit changed nothing"; return; }
    "$PY" "$TMP/closed.py" "$TMP/m" >"$TMP/m.out" 2>&1
    grep -q '^FAIL-LINE' "$TMP/m.out" && ok || fail "$what goes unnoticed"
}
mutant "#1 on the front" 1=front=1
mutant "the answer moved to #23" 17=answer=0 23=answer=1

finish
