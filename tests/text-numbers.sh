#!/bin/sh
# One number style in every text report: the formatter case by case
# (tests/unit/numfmt_test.c), then the reports themselves: no e-notation,
# and no count of 1,000 or more without its thousands grouped.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
"$TOP_BUILDDIR/tests/unit/numfmt_test" >"$TMP/unit" 2>&1
expect_eq "numfmt_test exit" $? 0
grep FAIL "$TMP/unit"

# plain(FILE): the lines holding a number written the way people do not read
# it: 1234567 (a bare run of 4+ digits standing as a word, not inside a
# name, path, GUID or version) or 1.3105e+06.
plain() {
    "$PY" - "$1" <<'P'
import re, sys
bad = []
for n, line in enumerate(open(sys.argv[1], encoding="utf-8", errors="replace"), 1):
    # words: drop paths, names with letters, GUIDs, dotted versions
    words = re.split(r"[\s(),;:\[\]]+", line)
    for i, w in enumerate(words):
        # the user's own text echoed: KEY=VALUE as typed, an operand of a
        # constraint as written (sum == 1000)
        if "=" in w or (i and words[i - 1] in ("==", "<=", ">=")):
            continue
        w = w.strip(".%$")
        if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?[eE][-+]?[0-9]+", w):
            bad.append("%d: e-notation %s" % (n, w))
        elif re.fullmatch(r"-?[0-9]{4,}(\.[0-9]+)?", w):
            bad.append("%d: ungrouped %s" % (n, w))
for b in bad[:10]:
    print(b)
P
}
report() {  # report NAME FILE: FILE holds no number people misread
    out=$(plain "$2")
    [ -z "$out" ] && ok || fail "$1: $(printf '%s' "$out" | head -5 | tr '\n' ';')"
}

SP=$TOP_SRCDIR/examples/superpod-4su.yaml
"$RAILYARD" opensm "$SP" -o "$TMP/sp" >/dev/null 2>&1 || fail "opensm superpod-4su"
"$RAILYARD" check-routes "$TMP/sp/opensm/plane0" >"$TMP/cr.txt" 2>&1
expect_eq "check-routes exit" $? 0
report "check-routes" "$TMP/cr.txt"
# every end port to every other: E (E - 1) routes, grouped
E=$(grep -c '^Ca' "$TMP/sp/opensm/plane0/topology.net")
want=$("$PY" -c "import sys; print(format(int(sys.argv[1]) * (int(sys.argv[1]) - 1), ','))" "$E")
grep -q "^routes  *$want: every end port" "$TMP/cr.txt" && ok || fail "check-routes routes: want $want: $(grep '^routes' "$TMP/cr.txt")"

# verify on a fabric of 2,040 cables with faults of every kind: the summary
# line's counts grouped, as planned = planned - findings naming a planned cable
"$PY" "$TOP_SRCDIR/tests/verify-inject.py" --plan "$TMP/sp/opensm" --out "$TMP/vf" \
    --expect "$TMP/vf.exp" --seed 3 --fault port-swap --fault rail-swap --fault missing:nic \
    --fault unknown --fault missing --fault extra --fault uplink --fault isolate >/dev/null
expect_eq "verify-inject exit" $? 0
"$RAILYARD" verify "$SP" "$TMP/vf/plane0/topology.net" >"$TMP/verify.txt" 2>&1
expect_eq "verify exit" $? 1
report "verify" "$TMP/verify.txt"
grep -q 'gpu[0-9]' "$TMP/verify.txt" && fail "verify: an internal GPU index: $(grep -m1 'gpu[0-9]' "$TMP/verify.txt")" || ok
want=$("$PY" - "$TMP/sp/opensm/plane0/topology.net" "$TMP/vf.exp" <<'P'
import json, re, sys
n = sum(1 for l in open(sys.argv[1]) if re.match(r'^\[\d+\]', l)) // 2
e = json.load(open(sys.argv[2]))
print('%s of %s planned cables as planned' % (format(e['as_planned'], ','), format(n, ',')))
P
)
grep -q "^$want; " "$TMP/verify.txt" && ok || fail "verify summary: want '$want': $(head -n 1 "$TMP/verify.txt")"

# verify's naming hint, every host renamed: 1,016 CAs, grouped
sed -E 's/"node([0-9]+) mlx5/"dgx\1 mlx5/' "$TMP/sp/opensm/plane0/topology.net" >"$TMP/renamed.net"
"$RAILYARD" verify "$SP" "$TMP/renamed.net" >/dev/null 2>"$TMP/hint.txt"
expect_eq "verify, hosts renamed: exit" $? 2
grep -q '1,016 of the 1,016 CAs found are named as no NIC of the plan' "$TMP/hint.txt" && ok ||
    fail "verify hint: $(head -c 300 "$TMP/hint.txt")"
sed -E 's/^[^ ]+:[0-9]+:[0-9]+: //' "$TMP/hint.txt" >"$TMP/hint-words.txt"   # the position is no count
report "verify hint" "$TMP/hint-words.txt"

"$RAILYARD" model "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/moe.txt" 2>&1
expect_eq "model moe exit" $? 0
sed -n '/^Mixture of experts/,/^$/p' "$TMP/moe.txt" >"$TMP/moe-part.txt"
[ -s "$TMP/moe-part.txt" ] && ok || fail "model: no mixture-of-experts section"
report "model (mixture of experts)" "$TMP/moe-part.txt"

# bom, validate and build's summary.txt of the SuperPOD at 2,048 nodes: every
# count grouped, powers and lengths with their units
"$RAILYARD" bom "$SP" --set cluster.nodes=2048 >"$TMP/bom.txt" 2>&1
expect_eq "bom 2048 exit" $? 0
report "bom" "$TMP/bom.txt"
"$RAILYARD" validate "$SP" --set cluster.nodes=2048 >"$TMP/val.txt" 2>&1
expect_eq "validate 2048 exit" $? 0
report "validate" "$TMP/val.txt"
"$RAILYARD" build "$SP" --set cluster.nodes=2048 -o "$TMP/b2048" >/dev/null 2>"$TMP/b2048.err"
expect_eq "build 2048 exit" $? 0
# build named the routing tables' size before writing them, and the flag
# that leaves them out: the estimate within 1% of the file written, its
# entries every LID (the file's lines less a header and a trailer a switch)
"$PY" - "$TMP/b2048.err" "$TMP/b2048/opensm/plane0/lfts.dump" <<'P2' && ok || fail "build's size estimate: $(cat "$TMP/b2048.err")"
import os, re, sys
err = open(sys.argv[1]).read()
m = re.search(r"routing tables \(opensm/\*/lfts\.dump: ([0-9,]+) entries, every LID on every "
              r"switch\) take about ([0-9.]+) MB, the largest part of .*; --skip opensm leaves "
              r"them out", err)
assert m, err
size = os.path.getsize(sys.argv[2])
lines = sum(1 for _ in open(sys.argv[2]))
heads = sum(1 for l in open(sys.argv[2]) if l.startswith("Unicast lids"))
assert int(m.group(1).replace(",", "")) == lines - 2 * heads, (m.group(1), lines, heads)
assert abs(float(m.group(2)) * 1e6 - size) <= 0.01 * size, (m.group(2), size)
P2
"$RAILYARD" build "$SP" --set cluster.nodes=2048 --skip opensm,cabling -o "$TMP/b2048n" >/dev/null 2>"$TMP/err"
[ -s "$TMP/err" ] && fail "build --skip opensm still names the routing tables: $(cat "$TMP/err")" || ok
"$RAILYARD" build "$SP" -o "$TMP/b127" >/dev/null 2>"$TMP/err"
[ -s "$TMP/err" ] && fail "build of 1,016 GPUs names its small routing tables: $(cat "$TMP/err")" || ok
report "build summary.txt" "$TMP/b2048/summary.txt"
# no abbreviation a planner cannot know (the paper's "SOTA") in the reports
"$RAILYARD" compare --paper --gpus 16384 --hb-domain 8 --radix 64 >"$TMP/cmp.txt" 2>&1
expect_eq "compare --paper exit" $? 0
grep -q 'SOTA' "$TMP/cmp.txt" "$TMP/bom.txt" "$TMP/val.txt" "$TMP/b2048/summary.txt" \
    && fail "an abbreviation: $(grep -h -m1 SOTA "$TMP/cmp.txt" "$TMP/bom.txt" "$TMP/val.txt")" || ok
"$RAILYARD" bom "$SP" --set cluster.nodes=2048 --format json >"$TMP/bom.json" 2>&1
# the tier table's total: ports = switches x radix, links = the tiers' links
# summed, grouped; the cable line's total length from the physical lines
want=$("$PY" - "$TMP/bom.json" <<'P2'
import json, sys
b = json.load(open(sys.argv[1]))
ports = b["switches"]["total"] * b["radix"]
links = sum(b["links"]["per_tier"])
print("total %s %s %s 0 %s" % (format(b["switches"]["total"], ","), format(ports, ","),
                               format(ports, ","), format(links, ",")))
P2
)
got=$(grep '^total ' "$TMP/bom.txt" | tr -s ' ')
expect_eq "bom total row" "$got" "$want"
# the capex total shortened beside it, to 4 significant digits, and in
# build's one-line summary
want=$("$PY" - "$TMP/bom.json" <<'P2'
import json, sys
t = json.load(open(sys.argv[1]))["capex"]["total"]
for at, u in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
    if t >= at * 0.99995:
        v = float("%.4g" % (t / at))
        print("$%s%s" % (("%f" % v).rstrip("0").rstrip("."), u))
        break
P2
)
grep -q "^  total: .*  ($(printf '%s' "$want" | sed 's/[$.]/\\&/g'))$" "$TMP/bom.txt" && ok ||
    fail "bom total shortened: want ($want): $(grep '^  total:' "$TMP/bom.txt")"
"$RAILYARD" build "$SP" --set cluster.nodes=2048 --skip opensm -o "$TMP/b2048s" >"$TMP/b.out" 2>&1
grep -qF ", capex $want written to" "$TMP/b.out" && ok || fail "build summary capex: want $want: $(cat "$TMP/b.out")"
want=$("$PY" - "$TMP/bom.json" <<'P2'
import json, sys
p = json.load(open(sys.argv[1]))["physical"]
ls = [l for l in p["lines"] if l["what"] == "cable"]
n = sum(l["count"] for l in ls)
m = sum(l["count"] * l["length_m"] for l in ls)
print("(%s cables, %s km in all)" % (format(n, ","), format(round(m / 1000, 1), ",.1f")))
P2
)
grep '^  cables: ' "$TMP/bom.txt" | grep -qF -- "$want" && ok \
    || fail "bom cables line: want '$want': $(grep '^  cables:' "$TMP/bom.txt")"

for sec in switches nodes gpus llms media prices; do
    "$RAILYARD" catalog "$sec" >"$TMP/cat-$sec.txt" 2>&1
    expect_eq "catalog $sec exit" $? 0
    report "catalog $sec" "$TMP/cat-$sec.txt"
done
# model, traffic and whatif on llama-3-405b over 16,384 H100 GPUs: every
# number grouped or with an SI unit, no symbol of the paper's model standing
# alone, and the tokens of an iteration = batch x sequence, grouped.
cat >"$TMP/l405.yaml" <<'Y'
name: l405
cluster: {gpus: 16384, node: dgx-h100}
fabric: {switch: qm9700}
workload: {model: llama-3-405b}
Y
"$RAILYARD" model "$TMP/l405.yaml" >"$TMP/m405.txt" 2>&1
expect_eq "model 405b exit" $? 0
"$RAILYARD" model --paper "$TMP/l405.yaml" >"$TMP/m405p.txt" 2>&1
expect_eq "model --paper 405b exit" $? 0
"$RAILYARD" traffic "$TMP/l405.yaml" >"$TMP/t405.txt" 2>&1
expect_eq "traffic 405b exit" $? 0
"$RAILYARD" whatif "$TMP/l405.yaml" --fail leaf3 >"$TMP/w405.txt" 2>&1
expect_eq "whatif 405b exit" $? 0
"$RAILYARD" whatif --paper "$TMP/l405.yaml" --fail leaf3 >"$TMP/w405p.txt" 2>&1
expect_eq "whatif --paper 405b exit" $? 0
for f in m405 m405p t405 w405 w405p; do
    report "$f" "$TMP/$f.txt"
    grep -nE '(^|[^A-Za-z_])(B_F|B_S|N_M|N_Ds|N_Df|T_iter|T_ideal|6NT|MP)([^A-Za-z_]|$)' "$TMP/$f.txt" >"$TMP/sym" &&
        fail "$f: a symbol of the paper's model: $(head -n 2 "$TMP/sym" | tr '\n' ';')" || ok
done
# tokens per iteration: the batch (sequences) x the model's sequence, from
# the JSON's plain numbers, grouped in the text
want=$("$RAILYARD" model --format json "$TMP/l405.yaml" | "$PY" -c '
import json, sys
j = json.load(sys.stdin)
w = j["workload"]; s = j["model"]["seq_len"]
print("%s sequences x %s = %s tokens per iteration" % (format(w["batch"], ","),
      format(s, ","), format(w["batch"] * s, ",")))')
grep -qF "batch       $want" "$TMP/m405.txt" && ok || fail "model tokens: want '$want': $(grep 'batch  ' "$TMP/m405.txt")"
# traffic: every pair of the 16,384 GPUs, N (N - 1) / 2, grouped
want=$("$PY" -c "print(format(16384 * 16383 // 2, ','))")
grep -qE "^  total +$want " "$TMP/t405.txt" && ok || fail "traffic total pairs: want $want: $(grep '^  total' "$TMP/t405.txt")"

# Every command's text (standard output and error) at 16,384 GPUs or its
# own example: the table names each command railyard --help lists, so a new
# one cannot go unchecked. collective prints nccl-tests' own table (plain
# sizes and counts, as nccl-tests does, for diffing against it): only its
# header lines are checked.
BIG="--set cluster.nodes=2048"
FT=$TOP_SRCDIR/examples/fat-tree.yaml
cat >"$TMP/cmds" <<CASES
validate $SP $BIG
bom $SP $BIG
compare $SP $BIG
build $SP $BIG --skip opensm,cabling -o $TMP/all-b
cabling $SP $BIG -o $TMP/all-c
draw $SP $BIG -o $TMP/all.dot
export $SP $BIG --format json -o $TMP/all.json
opensm $SP --set cluster.nodes=512 -o $TMP/all-o
ethernet $FT -o $TMP/all-e
slurm $SP $BIG -o $TMP/all-s
kubernetes $SP $BIG -o $TMP/all-k
check-routes $TMP/sp/opensm/plane0
verify $SP $TMP/vf/plane0/topology.net
expand $SP $BIG
optimize $TOP_SRCDIR/examples/libra-gpt3.yaml
model $TMP/l405.yaml
sweep $TOP_SRCDIR/tests/data/model/palm-gh200.yaml --vary workload.batch=512..2048 -o $TMP/all-sw
search $TOP_SRCDIR/examples/search-h100.yaml
traffic $TMP/l405.yaml
collective $TMP/l405.yaml --op all-reduce --bytes 1GB
whatif $TMP/l405.yaml --fail spine3
catalog prices
init --gpus 16384 --node dgx-h100 -o $TMP/all-init.yaml
CASES
"$RAILYARD" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' \
    >"$TMP/commands"
while read -r c; do
    grep -q "^$c " "$TMP/cmds" && ok || fail "text numbers: no case for $c"
done <"$TMP/commands"
while read -r c args; do
    # shellcheck disable=SC2086
    "$RAILYARD" $c $args >"$TMP/all.txt" 2>&1
    rc=$?
    [ "$rc" -le 1 ] && ok || fail "text numbers: $c exit $rc: $(head -n 3 "$TMP/all.txt")"
    [ -s "$TMP/all.txt" ] || [ "$c" = init ] || [ "$c" = export ] || [ "$c" = draw ] ||
        fail "text numbers: $c printed nothing"
    [ "$c" = collective ] && grep '^#' "$TMP/all.txt" >"$TMP/all.hdr" && mv "$TMP/all.hdr" "$TMP/all.txt"
    report "$c" "$TMP/all.txt"
done <"$TMP/cmds"

# sweep's own lines (its CSV keeps plain numbers): the point limit grouped
"$RAILYARD" sweep "$TMP/l405.yaml" --vary workload.batch=1..4000+1 \
    --vary cluster.gpus=8192,16384,32768,65536,131072,262144 -o "$TMP/swx" >"$TMP/swx.txt" 2>&1
expect_eq "sweep of 24,000 points: exit" $? 2
grep -q "more than 20,000 points" "$TMP/swx.txt" && ok || fail "sweep limit: $(head -n 1 "$TMP/swx.txt")"
report "sweep" "$TMP/swx.txt"
finish
