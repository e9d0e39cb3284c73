#!/bin/sh
# doc/decisions.md shows railyard's own output: every fenced block whose
# first line is "$ COMMAND" is rerun here, in order, in one scratch directory
# whose examples/ is the source tree's, with railyard the one under test
# first on PATH, and must exit 0 and print exactly the lines the block shows.
#
# After a change to what compare, bom or search print, rewrite the blocks
# (from the top of the source tree, with the program in build/):
#
#   RAILYARD=build/railyard TOP_SRCDIR=. sh tests/decisions-doc.sh --regenerate
#
# and read the prose around them again: it cites the numbers. The numbers
# the prose states are checked below against the blocks.
case $RAILYARD in /*) ;; *) RAILYARD=$PWD/$RAILYARD ;; esac
case ${TOP_SRCDIR:-.} in /*) ;; *) TOP_SRCDIR=$PWD/${TOP_SRCDIR:-.} ;; esac
. "$TOP_SRCDIR/tests/lib.sh"
DOC=$TOP_SRCDIR/doc/decisions.md
regenerate=0
[ "${1:-}" = "--regenerate" ] && regenerate=1

doc_blocks "$DOC" 4 "$regenerate"
[ "$regenerate" = 1 ] && echo "doc/decisions.md rewritten: check the prose's numbers"

# What the prose states, against the blocks it stands beside.
for s in '^capex  *\$126,745,590  *\$86,249,380  *\$132,991,342$' \
         '^ownership, 5 years  *\$174,755,172  *\$115,396,897  *\$181,210,156$' \
         '^GPU-hours the network loses a year  *2,096,148  *1,379,073  *2,068,813$' \
         '^goodput  *89.587%  *90.086%  *89.606%$' \
         '^  optics  MMS4X00-NS  *\$26,698,400  *+/-30%  *\$78,239,860  *\$94,258,900  *\$16,019,040$' \
         '^the answer holds: rail-only is the cheapest at either end of every range$' \
         '^  rail-only, \$83,048,030 capex, \$109,107,055 over 5 years, 5.4859 s per iteration'; do
    grep -q "$s" "$DOC" && ok || fail "doc/decisions.md: no line like $s"
done
finish
