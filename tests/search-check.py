#!/usr/bin/env python3
"""railyard search's answer against its definition, from its own numbers.

    search-check.py POINTS.csv FRONT.csv TEXT [--target-time T] [--budget B]
                    [--max-slowdown S] [--full FULL.csv]

From the capex, iteration_s and slowdown of points.csv (the rows with an
iteration time are the points built and modeled), computes by the O(n^2)
definition the Pareto front of capex against iteration time and of capex
against slowdown (a point is on a front when no other point is at most as
costly in both and cheaper in one; "inf" is a stall), the points within the
targets (no stall under the failures; without a time target, within 1% of
the fastest such point's time) and the
cheapest of them (ties: the faster, then the first), and checks
  - points.csv's front, front_failure, meets and answer columns;
  - front.csv: the header and the rows of points.csv on the time front;
  - the text output: the count of points, the two fronts' tables (their
    point numbers, ordered by capex, then time, then number), the answer
    line.
With --full, the points.csv of the same search without targets: the
points pruned here are those over the target time or the budget there
(every point over them pruned, none other), every other row is the full
search's but for the front, front_failure, meets and answer columns, and
the answer is the one the full search's numbers give with the targets.
Prints a FAIL line per mismatch and "N checks, M failed"; exits 1 on any.
"""
import csv
import math
import re
import sys

checks = 0
fails = 0


def expect(what, got, want):
    global checks, fails
    checks += 1
    if got != want:
        fails += 1
        print("FAIL: %s: got %r, want %r" % (what, got, want))


def num(text):
    return math.inf if text == "inf" else float(text)


def front(pts, cost):
    """The points no other point dominates in (capex, cost)."""
    on = set()
    for p in pts:
        x, y = p["capex"], cost(p)
        beaten = False
        for q in pts:
            qx, qy = q["capex"], cost(q)
            if qx <= x and qy <= y and (qx < x or qy < y):
                beaten = True
                break
        if not beaten:
            on.add(p["n"])
    return on


def modeled(rows):
    """The points built and modeled: their numbers, capex, time, slowdown."""
    return [{"n": int(r["point"]), "capex": num(r["capex"]), "t": num(r["iteration_s"]),
             "slow": num(r["slowdown"])} for r in rows if r["iteration_s"] != ""]


def answer_of(pts, target, budget, slow):
    """The points within the targets, and the cheapest of them (or None)."""
    # eligible: runs through every failure, within the budget and the slowdown;
    # without --target-time, as fast as the fastest eligible point within 1%
    elig = [p for p in pts if p["slow"] != math.inf and (budget <= 0 or p["capex"] <= budget)
            and (slow <= 0 or p["slow"] <= slow)]
    if target <= 0 and elig:
        target = min(p["t"] for p in elig) * 1.01
    meets = set(p["n"] for p in elig if p["t"] <= target)
    cands = sorted((p for p in pts if p["n"] in meets),
                   key=lambda p: (p["capex"], p["t"], p["n"]))
    return meets, cands[0]["n"] if cands else None


def check_full(rows, full_csv, target, budget, slow, answer):
    """The pruned search against the full one (see the module's text)."""
    with open(full_csv, newline="") as f:
        full = list(csv.DictReader(f))
    expect("--full: the same points", [r["point"] for r in rows], [r["point"] for r in full])
    marks = ("front", "front_failure", "meets", "answer")
    for r, fr in zip(rows, full):
        n = r["point"]
        pruned = r["why"].startswith("pruned: ")
        over_t = target > 0 and fr["iteration_s"] != "" and float(fr["iteration_s"]) > target
        over_b = budget > 0 and fr["capex"] != "" and float(fr["capex"]) > budget
        if fr["iteration_s"] != "":
            expect("point %s pruned (time %s, capex %s)" % (n, fr["iteration_s"], fr["capex"]),
                   pruned, over_t or over_b)
        elif pruned:
            expect("point %s, not modeled in full, pruned for its capex" % n, over_b, True)
        if not pruned:
            for k in r:
                if k not in marks:
                    expect("point %s %s as in the full search" % (n, k), r[k], fr[k])
    _, want = answer_of(modeled(full), target, budget, slow)
    expect("the answer of the full search's numbers", answer, want)


def table_rows(lines, title):
    """The point numbers of the table under a heading starting title."""
    for i, line in enumerate(lines):
        if line.startswith(title):
            count = int(re.search(r": ([0-9,]+) points?$", line).group(1).replace(",", ""))
            rows = []
            for row in lines[i + 2:]:
                if not row.strip():
                    break
                rows.append(int(row.split()[0]))
            return count, rows
    return None, None


def main(argv):
    points_csv, front_csv, text = argv[1:4]
    target = budget = slow = 0.0
    full = None
    args = argv[4:]
    while args:
        opt, val = args[0], args[1]
        args = args[2:]
        if opt == "--full":
            full = val
            continue
        val = float(val)
        if opt == "--target-time":
            target = val
        elif opt == "--budget":
            budget = val
        elif opt == "--max-slowdown":
            slow = val
        else:
            sys.exit("search-check.py: unknown option " + opt)

    with open(points_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    pts = modeled(rows)
    full_target = target

    on_time = front(pts, lambda p: p["t"])
    # a point that stalls under a failure is on no failure front
    on_fail = front([p for p in pts if p["slow"] != math.inf], lambda p: p["slow"])
    meets, answer = answer_of(pts, target, budget, slow)
    if full:
        check_full(rows, full, full_target, budget, slow, answer)

    for r in rows:
        n = int(r["point"])
        expect("point %d front" % n, r["front"], "1" if n in on_time else "0")
        expect("point %d front_failure" % n, r["front_failure"], "1" if n in on_fail else "0")
        expect("point %d meets" % n, r["meets"], "1" if n in meets else "0")
        expect("point %d answer" % n, r["answer"], "1" if n == answer else "0")
        expect("point %d why" % n, r["why"] != "", r["iteration_s"] == "")

    with open(points_csv) as f:
        plines = f.read().splitlines()
    with open(front_csv) as f:
        flines = f.read().splitlines()
    want = [plines[0]] + [line for line, r in zip(plines[1:], rows) if int(r["point"]) in on_time]
    expect("front.csv", flines, want)

    with open(text) as f:
        lines = f.read().splitlines()
    m = re.match(r"search: .*; ([0-9,]+) points?(?: \(([0-9,]+) built and modeled, "
                 r"(?:[0-9,]+ pruned, )?([0-9,]+) not\))?; ([0-9,]+) fabrics? built( \(points that "
                 r"differ only in prices, names or addresses share one\))?$", lines[0])
    expect("text: first line", bool(m), True)
    if m:
        expect("text: points", int(m.group(1).replace(",", "")), len(rows))
        expect("text: modeled", int((m.group(2) or m.group(1)).replace(",", "")), len(pts))
        # every point of these spaces is a fabric of its own (no cost key varies),
        # built unless its spec or fabric failed
        built = sum(1 for r in rows if r["capex"] != "")
        expect("text: fabrics", int(m.group(4).replace(",", "")), built)
    byn = {p["n"]: p for p in pts}
    for title, on, cost in (("front, capex against iteration time:", on_time, "t"),
                            ("front, capex against slowdown under the failures:", on_fail,
                             "slow")):
        count, shown = table_rows(lines, title)
        want = sorted(on, key=lambda n: (byn[n]["capex"], byn[n]["t"], n))
        expect("text: " + title + " count", count, len(on))
        expect("text: " + title + " rows", shown, want)
    ans = [line for line in lines if line.startswith("answer: ")]
    expect("text: one answer line", len(ans), 1)
    if ans:
        m = re.match(r"answer: #([0-9]+), the cheapest point with ", ans[0])
        expect("text: answer", int(m.group(1)) if m else None, answer)
        if answer is None:
            expect("text: no point meets", ans[0].startswith("answer: no point meets "), True)
        marked = [int(line.split()[0]) for line in lines if line.endswith("<- answer")]
        expect("text: rows marked as the answer",
               set(marked), {answer} if answer in on_time | on_fail else set())

    print("%d checks, %d failed" % (checks, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
