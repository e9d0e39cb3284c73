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
    for w in re.split(r"[\s(),;:=\[\]]+", line):
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

"$RAILYARD" model "$TOP_SRCDIR/examples/moe-h100.yaml" >"$TMP/moe.txt" 2>&1
expect_eq "model moe exit" $? 0
sed -n '/^Mixture of experts/,/^$/p' "$TMP/moe.txt" >"$TMP/moe-part.txt"
[ -s "$TMP/moe-part.txt" ] && ok || fail "model: no mixture-of-experts section"
report "model (mixture of experts)" "$TMP/moe-part.txt"

for sec in switches nodes gpus llms media prices; do
    "$RAILYARD" catalog "$sec" >"$TMP/cat-$sec.txt" 2>&1
    expect_eq "catalog $sec exit" $? 0
    report "catalog $sec" "$TMP/cat-$sec.txt"
done
finish
