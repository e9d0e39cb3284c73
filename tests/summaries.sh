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
"$RAILYARD" compare "$SP" --format csv >"$TMP/b/compare.csv"
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
"$RAILYARD" --crlf compare "$SP" --format csv >"$TMP/c/compare.csv"
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
if tot["item"] != "total" or abs(float(tot["extended_price"]) - b["paper_cost"]["total"]) > 0.005:
    errs.append("paper total %s, json %s" % (tot["extended_price"], b["paper_cost"]["total"]))
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

# ---- fat tree: the leaf group against closed forms ---------------------------------------
# 2:1 leaves of radix 128 take whole nodes of 8 GPUs; the test derives the
# leaf group, the units, the last unit and the fullest leaf's down:up from the
# leaf's own port split and the spec's node count.
FT="$EX/fat-tree.yaml"
OS='fabric.oversubscription=["2:1","1:1"]'
"$RAILYARD" validate "$FT" --set "$OS" >"$TMP/ft.txt" 2>"$TMP/ft.err"
expect_eq "fat tree 2:1: validate exit" $? 0
set -- $(sed -n 's/^  leaf *\([0-9]*\) down, \([0-9]*\) up per switch.*/\1 \2/p' "$TMP/ft.txt")
D=${1:-0} U=${2:-0}
expect_eq "fat tree 2:1: leaf split (2:1 of 128, even)" "$D $U" "84 42"
nodes=256 gpn=8
npl=$((D / gpn)); units=$(((nodes + npl - 1) / npl)); last=$((nodes - (units - 1) * npl))
want="scalable unit: a leaf group of $npl nodes ($((npl * gpn)) GPUs), $units units"
[ "$last" -ne "$npl" ] && want="$want (the last has $last nodes)"
expect_eq "fat tree 2:1: the leaf group" "$(grep '^scalable unit:' "$TMP/ft.txt")" "$want"
ratio=$("$PY" -c "print('%.2f' % ($npl * $gpn / $U))")
grep -q "^  leaf .*the fullest $((npl * gpn)):$U cabled ($ratio:1 oversubscribed)$" "$TMP/ft.txt" && ok \
    || fail "fat tree 2:1: effective oversubscription: $(grep '^  leaf' "$TMP/ft.txt")"
grep -q '^rails:' "$TMP/ft.txt" && fail "fat tree: a rails line" || ok
grep -q '^rails: *8, planes: 1$' "$TMP/ft.txt" && fail "fat tree: rails" || ok
"$RAILYARD" validate "$EX/superpod-4su.yaml" >"$TMP/sp.txt"
# 127 nodes in units of 32 HB domains of 8: 4 units, the last of 31
expect_eq "rail-optimized: rails line" "$(grep '^rails:' "$TMP/sp.txt")" "rails:         8, planes: 1"
expect_eq "rail-optimized: units" "$(grep '^scalable unit:' "$TMP/sp.txt")" \
    "scalable unit: 32 HB domains (256 GPUs), 4 units (the last has 31)"
# packed rails: 8 rails of 8 GPUs on radix-16 switches, 16/8 = 2 rails per switch
"$RAILYARD" validate "$TOP_SRCDIR/tests/data/diagrams/packed.yaml" >"$TMP/pk.txt"
expect_eq "packed rails: rails per switch" "$(grep '^rails:' "$TMP/pk.txt")" \
    "rails:         8 (2 per switch), planes: 1"
# one HB domain: singular
"$RAILYARD" validate "$EX/superpod-4su.yaml" --set cluster.gpus=8 >"$TMP/one.txt" 2>&1
grep -q '^HB domain: *8 GPUs, 1 domain$' "$TMP/one.txt" && ok \
    || fail "one HB domain: $(grep '^HB domain' "$TMP/one.txt")"
grep -q '1 unit$' "$TMP/one.txt" && ok || fail "one unit: $(grep '^scalable unit' "$TMP/one.txt")"
grep -Eq '(^|[^0-9])1 (HB domains|domains|units|nodes|GPUs|subnets|tiers)' "$TMP/one.txt" \
    && fail "a plural after 1: $(grep -E '(^|[^0-9])1 (HB domains|domains|units|nodes|GPUs|subnets|tiers)' "$TMP/one.txt")" || ok

# {unit} in host names is the leaf's: every Slurm leaf holds hosts of one
# unit, unit N+1 on leafN (the leaf group is the unit)
"$RAILYARD" slurm "$FT" --set "$OS" --set 'naming.node=gpu-{unit1:02}-{n1:04}' -o "$TMP/sl" \
    >/dev/null 2>&1
expect_eq "fat tree 2:1: slurm exit" $? 0
"$PY" - "$TMP/sl/slurm/topology.conf" "$npl" >"$TMP/sl.txt" <<'P'
import re, sys
npl = int(sys.argv[2]); errs = []; n = 0
for line in open(sys.argv[1]):
    m = re.match(r"SwitchName=leaf(\d+) Nodes=(\S+)", line)
    if not m: continue
    n += 1
    leaf, nodes = int(m.group(1)), m.group(2)
    units = set(re.findall(r"gpu-(\d+)-", nodes))
    if units != {"%02d" % (leaf + 1)}:
        errs.append("leaf%d: units %s in %s" % (leaf, sorted(units), nodes))
    first = int(re.search(r"-\[?(\d{4})", nodes).group(1))
    if first != leaf * npl + 1:
        errs.append("leaf%d starts at node %d, want %d" % (leaf, first, leaf * npl + 1))
if n == 0: errs.append("no leaf in topology.conf")
print("\n".join(errs[:5]) if errs else "ok")
P
expect_eq "fat tree 2:1: {unit} is the leaf's" "$(cat "$TMP/sl.txt")" ok

# ---- tables hold any figure: a billion-dollar bill stays in its columns ------------------
"$RAILYARD" bom "$EX/rail-only-gh200.yaml" --set cluster.gpus=262144 >"$TMP/big.txt" 2>&1
expect_eq "262144-GPU bom exit" $? 0
"$PY" - "$TMP/big.txt" >"$TMP/big.chk" <<'P'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
errs = []
def table(head_re, cols):
    i = next((k for k, l in enumerate(lines) if re.match(head_re, l)), None)
    if i is None:
        errs.append("no table %r" % head_re); return []
    head = lines[i]
    ends = [head.index(c) + len(c) for c in cols]     # right-aligned columns end here
    rows = []
    for l in lines[i + 1:]:
        if not l.strip() or l.strip().endswith(":") or re.match(r"^ *[a-z]+: ", l): break
        rows.append(l)
        for c, e in zip(cols, ends):
            if len(l) < e or l[e - 1] == " " or (len(l) > e and l[e] != " "):
                errs.append("%r: column %r does not end at %d" % (l, c, e))
    if not rows: errs.append("table %r has no rows" % head_re)
    return rows
table(r"^tier ", ["switches", "ports", "used", "free", "links below"])
rows = table(r"^  item ", ["count", "unit price", "cost", "power"])
money = [m for r in rows for m in re.findall(r"\$[\d,]+(?:\.\d\d)?", r)]
if not any(float(m[1:].replace(",", "")) >= 1e8 for m in money):
    errs.append("no nine-figure amount in the physical table")
sub = [l for l in lines if l.strip().startswith("subtotal:")]
if not sub or float(re.search(r"\$([\d,.]+)", sub[0]).group(1).replace(",", "")) < 1e9:
    errs.append("no billion-dollar subtotal: %s" % sub)
# cents on every amount of the report or on none
all_money = re.findall(r"\$[\d,]+(?:\.\d+)?", "\n".join(lines))
cents = {"." in m for m in all_money}
if len(cents) != 1: errs.append("cents on some amounts only: %s" % all_money[:12])
print("\n".join(errs[:8]) if errs else "ok")
P
expect_eq "billion-dollar bom: columns aligned, cents consistent" "$(cat "$TMP/big.chk")" ok

# ---- traffic: differences worded by their sign, no type without pairs --------------------
LL="$MD/llama-h100.yaml"
# (traffic compares capex, as bom prints it)
ro=$("$RAILYARD" bom "$LL" --set fabric.design=rail-only --set "$OS" --format json |
     "$PY" -c 'import json,sys; print(json.load(sys.stdin)["capex"]["total"])')
ft=$("$RAILYARD" bom "$LL" --set fabric.design=fat-tree --set "$OS" --format json |
     "$PY" -c 'import json,sys; print(json.load(sys.stdin)["capex"]["total"])')
want=$("$PY" -c "d = 100 * ($ro / $ft - 1); print('%.1f%% %s' % (abs(d), 'more' if d > 0 else 'less'))")
"$RAILYARD" traffic "$LL" --set fabric.design=fat-tree --set "$OS" >"$TMP/tr.txt" 2>/dev/null
expect_eq "traffic exit" $? 0
got=$(sed -n 's/^  rail-only .*  *\([0-9.]*% [a-z]*\)$/\1/p' "$TMP/tr.txt")
expect_eq "traffic: rail-only against the fat tree" "$got" "$want"
grep -q -- '-[0-9.]*% less' "$TMP/tr.txt" && fail "a negative 'less'" || ok
"$RAILYARD" traffic "$MD/small.yaml" --set cluster.hb_domain=8 --set workload.batch=4096 \
    >"$TMP/tr0.txt" 2>/dev/null
expect_eq "traffic without tensor parallelism: exit" $? 0
grep -q '^  type ' "$TMP/tr0.txt" && ok || fail "traffic: no pair table"
pairs=$(sed -n 's/^  [A-Za-z].*) *\([0-9][0-9,]*\) .*/\1/p' "$TMP/tr0.txt")
[ -n "$pairs" ] && ok || fail "traffic: no pair counts"
echo "$pairs" | grep -qx 0 && fail "traffic: a type with 0 pairs" || ok
grep -q '^  TP (tensor parallel' "$TMP/tr0.txt" && fail "traffic: the tensor-parallel row without its pairs" || ok

finish
