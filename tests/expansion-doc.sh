#!/bin/sh
# doc/expansion.md shows railyard's own output: every fenced block whose
# first line is "$ COMMAND" is rerun here, in order, in one scratch directory
# whose examples/ is the source tree's, with railyard the one under test
# first on PATH, and must exit 0 and print exactly the lines the block shows.
#
# After a change to what expand prints, rewrite the blocks (from the top of
# the source tree, with the program in build/):
#
#   RAILYARD=build/railyard TOP_SRCDIR=. sh tests/expansion-doc.sh --regenerate
#
# and read the prose around them again: it cites the numbers.
case $RAILYARD in /*) ;; *) RAILYARD=$PWD/$RAILYARD ;; esac
case ${TOP_SRCDIR:-.} in /*) ;; *) TOP_SRCDIR=$PWD/${TOP_SRCDIR:-.} ;; esac
. "$TOP_SRCDIR/tests/lib.sh"
DOC=$TOP_SRCDIR/doc/expansion.md
regenerate=0
[ "${1:-}" = "--regenerate" ] && regenerate=1

doc_blocks "$DOC" 5 "$regenerate"
[ "$regenerate" = 1 ] && echo "doc/expansion.md rewritten: check the prose's numbers"

# What the prose states, from the example's own numbers: 8 then 16 spines,
# half the uplinks moved, no GPU cut off.
grep -q '^spine  *8  *8  *0$' "$DOC" && ok || fail "the doc's switch table: 8 spines kept, 8 added"
finish
