#!/bin/sh
# doc/failures.md shows railyard's own output: every fenced block that
# starts with "$ railyard ..." is rerun here (from the source tree, where
# its example paths are) and must print exactly the lines the block shows.
# The figure the note draws is checked for the plot the sweep writes.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
DOC="$TOP_SRCDIR/doc/failures.md"

"$PY" - "$DOC" "$TMP" >"$TMP/cmds" <<'P'
import sys
doc, tmp = sys.argv[1:]
lines = open(doc).read().split("\n")
n, i = 0, 0
while i < len(lines):
    if lines[i] == "```" and i + 1 < len(lines) and lines[i + 1].startswith("$ railyard "):
        j = i + 2
        while lines[j] != "```":
            j += 1
        open("%s/want%d" % (tmp, n), "w").write("\n".join(lines[i + 2:j]) + "\n")
        print(lines[i + 1][len("$ railyard "):])
        n += 1
        i = j
    i += 1
P
count=$(wc -l <"$TMP/cmds")
[ "$count" -ge 5 ] && ok || fail "doc/failures.md shows $count commands, want at least 5"
k=0
while read -r args; do
    # shellcheck disable=SC2086  # the arguments as the document writes them
    (cd "$TOP_SRCDIR" && "$RAILYARD" $args) >"$TMP/got$k" 2>"$TMP/err$k"
    expect_eq "railyard $args: exit" $? 0
    no_sanitizer "$TMP/err$k"
    if cmp -s "$TMP/want$k" "$TMP/got$k"; then
        ok
    else
        fail "railyard $args: the output differs from doc/failures.md:"
        diff "$TMP/want$k" "$TMP/got$k" | head -10
    fi
    k=$((k + 1))
done <"$TMP/cmds"

# The figure: the sweep's own SVG, with both designs' curves.
grep -q 'failures-gh200-spine.svg' "$DOC" && ok || fail "the note does not show its figure"
svg="$TOP_SRCDIR/doc/failures-gh200-spine.svg"
grep -q '<svg' "$svg" && ok || fail "failures-gh200-spine.svg is not SVG"
for d in rail-only rail-optimized; do
    grep -q ">$d<" "$svg" && ok || fail "the figure has no curve named $d"
done
finish
