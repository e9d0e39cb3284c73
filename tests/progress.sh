#!/bin/sh
# The progress line: on a terminal (a pty from script(1)), once the run is
# older than RAILYARD_PROGRESS_DELAY seconds (0 here, so every step shows),
# each step of build in the order the data flows, rewritten in place with
# \r and ESC[K, and erased before the closing line on standard output and
# before an error message; nothing with --quiet, nothing within the default
# 2 s, and nothing when standard error is not a terminal.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
T="$TOP_SRCDIR/templates"
SP="$TOP_SRCDIR/examples/superpod-4su.yaml"
CR=$(printf '\r')
ESC=$(printf '\033')

# Not a terminal: nothing on standard error, even with no delay.
RAILYARD_PROGRESS_DELAY=0 "$RAILYARD" -T "$T" build "$SP" -o "$TMP/a" >"$TMP/out" 2>"$TMP/err"
expect_eq "build, stderr a file: exit" "$?" 0
expect_eq "build, stderr a file: stderr" "$(cat "$TMP/err")" ""
# --quiet and -q, before and after the command
for q in "--quiet validate $SP" "-q validate $SP" "validate $SP --quiet" "validate -q $SP"; do
    # shellcheck disable=SC2086
    "$RAILYARD" -T "$T" $q >/dev/null 2>"$TMP/err"
    expect_eq "railyard $q: exit" "$?" 0
done
"$RAILYARD" -q --help | grep -q -- '-q, --quiet' && ok || fail "--help does not list --quiet"

if ! script -qec true /dev/null >/dev/null 2>&1; then
    echo "script(1) from util-linux is missing: the terminal checks are skipped"
    finish
fi
tty_run() {     # FILE ARGS...: railyard ARGS on a pty, everything it printed into FILE
    f=$1; shift
    script -qec "$(printf '%s ' "$@")" /dev/null >"$f" 2>&1
}

RAILYARD_PROGRESS_DELAY=0 tty_run "$TMP/tty" "$RAILYARD" -T "$T" build "$SP" -o "$TMP/b"
expect_eq "build on a terminal: exit" "$?" 0
# the steps, in order
steps=$(tr '\r' '\n' <"$TMP/tty" | sed -n "s/^${ESC}\[Krailyard build: \(.*\) ([0-9]* s)\$/\1/p" | uniq)
want="reading $SP
building the fabric of 1016 GPUs
counting the bill of materials
planning GUIDs, LIDs and routes
making the Slurm tree
laying out racks and planning cables
computing
writing $TMP/b/opensm/
writing $TMP/b/cabling/
writing $TMP/b/slurm/
writing $TMP/b/kubernetes/
writing $TMP/b/diagrams/
writing $TMP/b/fabric.json
publishing $TMP/b"
expect_eq "the steps of build" "$steps" "$want"
# Every step every time: the cabling plan's workbook thread silences
# descriptor 2 around its library's calls, and a step painted meanwhile was
# lost (one run in three). Three more runs, each with every step.
for r in 1 2 3; do
    rm -rf "$TMP/b$r"
    RAILYARD_PROGRESS_DELAY=0 tty_run "$TMP/tty$r" "$RAILYARD" -T "$T" build "$SP" -o "$TMP/b$r"
    got=$(tr '\r' '\n' <"$TMP/tty$r" | sed -n "s/^${ESC}\[Krailyard build: \(.*\) ([0-9]* s)\$/\1/p" |
          uniq | sed "s|$TMP/b$r|$TMP/b|")
    expect_eq "the steps of build, run $r" "$got" "$want"
    rm -rf "$TMP/b$r"
done
# erased right before the closing line, and nothing after it
last=$(tr '\r' '\n' <"$TMP/tty" | grep -v '^$' | tail -1)
# the capex shortened as bom's text shortens it (tests/text-numbers.sh checks that)
short=$("$RAILYARD" bom "$SP" | sed -n 's/^  total: .*  (\(\$.*\))$/\1/p')
expect_eq "the closing line, after the line is erased" "$last" \
    "${ESC}[Ksuperpod-4su: 1,016 GPUs, 48 switches, 2,040 links, capex $short written to $TMP/b/"
# the files are the same as without a terminal
diff -r "$TMP/a" "$TMP/b" >/dev/null && ok || fail "build on a terminal wrote other files"

# Output streamed to the terminal (export's GraphML): the line is erased first.
RAILYARD_PROGRESS_DELAY=0 tty_run "$TMP/x" "$RAILYARD" -T "$T" export "$SP"
expect_eq "export on a terminal: exit" "$?" 0
head=$(sed -n '1s/<?xml.*//p' "$TMP/x")
case "$head" in
*"${CR}${ESC}[K") ok ;;
*) fail "export: the line is not erased before the GraphML: $(printf '%s' "$head" | cat -v | tail -c 200)" ;;
esac
[ "$(sed -n '2,$p' "$TMP/x" | grep -c "$ESC")" = 0 ] && ok || fail "export: the line amid the GraphML"
grep -q '</graphml>' "$TMP/x" && ok || fail "export: no GraphML on the terminal"

# --quiet: no line
RAILYARD_PROGRESS_DELAY=0 tty_run "$TMP/q" "$RAILYARD" -T "$T" --quiet build "$SP" -o "$TMP/c"
expect_eq "--quiet on a terminal: exit" "$?" 0
grep -q "$ESC" "$TMP/q" && fail "--quiet: $(cat -v "$TMP/q")" || ok
# the default delay: a run of well under 2 s shows none
tty_run "$TMP/d" "$RAILYARD" -T "$T" validate "$SP"
grep -q "$ESC" "$TMP/d" && fail "a short run showed the line: $(cat -v "$TMP/d" | head -3)" || ok

# An error starts on an erased line.
printf 'name: bad\ncluster: {gpus: 12, node: dgx-h100}\n' >"$TMP/bad.yaml"
RAILYARD_PROGRESS_DELAY=0 tty_run "$TMP/e" "$RAILYARD" -T "$T" build "$TMP/bad.yaml" -o "$TMP/e.out"
expect_eq "error on a terminal: exit" "$?" 1
grep -q "${CR}${ESC}\[K$TMP/bad.yaml:2:[0-9]*: error: cluster.gpus must be a multiple of 8" "$TMP/e" \
    && ok || fail "error on a terminal: $(cat -v "$TMP/e")"
finish
