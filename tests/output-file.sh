#!/bin/sh
# One output rule for -o FILE: a file railyard did not write, or one changed
# since railyard wrote it, is replaced only with --force (else exit 3, the
# file untouched, nothing left beside it); railyard's own file, unchanged,
# is replaced by the next run; an empty file (a name from mktemp) is
# written. Run for every command whose help offers -o FILE: the table below
# must name each of them, so a new command cannot go untested.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SPEC=$TOP_SRCDIR/tests/data/ib/ro-2tier-h100.yaml
"$RAILYARD" opensm "$SPEC" -o "$TMP/plan" >/dev/null 2>&1 || fail "opensm on the plan"
NET=$TMP/plan/opensm/plane0/topology.net

# COMMAND ARGS... (exit 0 on success; verify of the plan's own fabric too)
cat >"$TMP/cases" <<CASES
bom $SPEC
catalog switches
check-routes $TMP/plan/opensm/plane0
collective $SPEC --op all-reduce --bytes 1MB
compare $SPEC
draw $SPEC --format dot
export $SPEC --format json
init --gpus 8 --node dgx-h100
model $TOP_SRCDIR/tests/data/model/llama-h100.yaml
optimize $TOP_SRCDIR/examples/libra-gpt3.yaml
verify $SPEC $NET
CASES

# Every command whose help offers -o FILE has a case.
"$RAILYARD" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' \
    >"$TMP/commands"
[ "$(wc -l <"$TMP/commands")" -ge 20 ] && ok || fail "the command list: $(cat "$TMP/commands")"
while read -r c; do
    "$RAILYARD" help "$c" | grep -q -- '--output FILE' || continue
    grep -q "^$c " "$TMP/cases" && ok || fail "$c writes -o FILE and has no case here"
    "$RAILYARD" help "$c" | grep -q -- '--force' && ok || fail "$c: no --force in its help"
done <"$TMP/commands"

n=0
while read -r c args; do
    n=$((n + 1))
    f=$TMP/out$n
    # a file of the user's: refused, untouched, nothing beside it
    echo mine >"$f"
    # shellcheck disable=SC2086
    "$RAILYARD" $c $args -o "$f" >"$TMP/o" 2>"$TMP/e"
    expect_eq "$c over a file of the user's: exit" "$?" 3
    grep -qF "'$f' exists and railyard did not write it" "$TMP/e" && ok ||
        fail "$c over a file of the user's: $(cat "$TMP/e")"
    expect_eq "$c: the user's file" "$(cat "$f")" mine
    expect_eq "$c: nothing beside it" "$(ls -A "$TMP" | grep -c "out$n.*railyard")" 0
    # --force replaces it
    # shellcheck disable=SC2086
    "$RAILYARD" $c $args -o "$f" --force >/dev/null 2>"$TMP/e" && ok || fail "$c --force: $(cat "$TMP/e")"
    [ "$(cat "$f")" != mine ] && [ -s "$f" ] && ok || fail "$c --force did not write"
    cp "$f" "$TMP/first"
    # its own file, unchanged: replaced without --force, with the same bytes
    # shellcheck disable=SC2086
    "$RAILYARD" $c $args -o "$f" >/dev/null 2>"$TMP/e" && ok || fail "$c over its own file: $(cat "$TMP/e")"
    cmp -s "$f" "$TMP/first" && ok || fail "$c: the same run wrote other bytes"
    # changed since: refused
    echo edit >>"$f"
    # shellcheck disable=SC2086
    "$RAILYARD" $c $args -o "$f" >/dev/null 2>"$TMP/e"
    expect_eq "$c over its file, edited: exit" "$?" 3
    tail -1 "$f" | grep -qx edit && ok || fail "$c replaced an edited file"
    # an empty file holds nothing to lose
    : >"$f"
    # shellcheck disable=SC2086
    "$RAILYARD" $c $args -o "$f" >/dev/null 2>"$TMP/e" && ok || fail "$c over an empty file: $(cat "$TMP/e")"
    cmp -s "$f" "$TMP/first" && ok || fail "$c over an empty file: other bytes"
done <"$TMP/cases"

# verify's second file, --work-order FILE, under the same rule, asked before
# either file is written
echo mine >"$TMP/wo.csv"
"$RAILYARD" verify "$SPEC" "$NET" --work-order "$TMP/wo.csv" -o "$TMP/report" >/dev/null 2>"$TMP/e"
expect_eq "verify --work-order over a file of the user's: exit" "$?" 3
expect_eq "the work order file" "$(cat "$TMP/wo.csv")" mine
[ -e "$TMP/report" ] && fail "verify wrote its report though the work order was refused" || ok

# the refusal comes before the work: export of a large fabric refuses at once
echo mine >"$TMP/big.json"
"$RAILYARD" export "$SPEC" --set cluster.nodes=2048 --set cluster.scalable_unit=32 \
    --set fabric.tiers=3 -o "$TMP/big.json" 2>"$TMP/e" >/dev/null
expect_eq "export over a file of the user's, before building: exit" "$?" 3
grep -c . "$TMP/e" | grep -qx 1 && ok || fail "one message: $(cat "$TMP/e")"
finish
