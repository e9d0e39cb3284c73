#!/bin/sh
# railyard-spec(5) documents exactly the keys of the spec schema (spec/schema.c).
#
# The man page's convention: each key is a `.TP` entry whose next line is
#   .BR full.dotted.key " (summary)"
# with the summary `spec_keys_test --list` prints for the row (type, range,
# default, unit). Every `.TP` in a section (.SH) of keys is such an entry,
# in every section: the table has a row for every key of the spec. Each
# section of the table has its .SH heading. Also runs the schema's unit
# checks.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

prog=$TOP_BUILDDIR/tests/unit/spec_keys_test
man=$TOP_SRCDIR/doc/railyard-spec.5

"$prog" >"$TMP/unit" 2>"$TMP/unit.err"
rc=$?
tail -n 1 "$TMP/unit"
grep '^FAIL' "$TMP/unit" | head -20
expect_eq "spec_keys_test exit" "$rc" 0
no_sanitizer "$TMP/unit.err"

"$prog" --list >"$TMP/list" 2>"$TMP/list.err"
expect_eq "spec_keys_test --list exit" "$?" 0
no_sanitizer "$TMP/list.err"
grep -v '^section	' "$TMP/list" | LC_ALL=C sort >"$TMP/table"
awk -F '\t' '$1 == "section" { print toupper($2) }' "$TMP/list" >"$TMP/sections"
[ -s "$TMP/table" ] && ok || fail "the table lists no keys"

# man_keys FILE: KEY<TAB>SUMMARY for each entry of the man page FILE;
# "BAD<TAB>line" for a .TP in a section of keys that does not follow the
# convention.
man_keys() {
awk '
    /^\.SH / { sec = substr($0, 5); gsub(/"/, "", sec); next }
    /^\.TP/ { tp = 1; next }
    tp {
        tp = 0
        if (sec == "UNITS" || sec == "SPEEDS" || sec == "EXAMPLES" || sec == "FILES" || sec == "SEE ALSO")
            next
        line = $0
        gsub(/\\-/, "-", line)
        if (match(line, /^\.BR [^ ]+ " \(.*\)"$/)) {
            key = line; sub(/^\.BR /, "", key); sub(/ .*/, "", key)
            sum = line; sub(/^\.BR [^ ]+ " \(/, "", sum); sub(/\)"$/, "", sum)
            print key "\t" sum
        } else {
            print "BAD\t" sec ": " $0
        }
    }
' "$1"
}
man_keys "$man" >"$TMP/man.raw"
grep '^BAD	' "$TMP/man.raw" | while IFS='	' read -r _ what; do
    echo "FAIL: railyard-spec(5): a .TP entry that is not '.BR key \" (summary)\"': $what"
done
bad=$(grep -c '^BAD	' "$TMP/man.raw")
expect_eq "man page entries not following the convention" "$bad" 0
grep -v '^BAD	' "$TMP/man.raw" | LC_ALL=C sort >"$TMP/man"

# Keys documented twice would hide a missing one.
dups=$(cut -f1 "$TMP/man" | uniq -d | tr '\n' ' ')
expect_eq "keys documented twice" "$dups" ""

if diff "$TMP/table" "$TMP/man" >"$TMP/diff"; then
    ok
else
    fail "railyard-spec(5) and the schema differ ('<' the table, '>' the man page):"
    grep '^[<>]' "$TMP/diff" | sed 's/^/    /'
fi

# Every section of the table has its heading.
while read -r sec; do
    if grep -q "^\\.SH \"*$sec\"*\$" "$man"; then ok; else fail "no .SH $sec in railyard-spec(5)"; fi
done <"$TMP/sections"

# The check can fail, in every section: a key of the table without its
# entry, an entry for a key the table lacks, or a summary that says another
# default each show in the difference.
# noticed WHAT LINE FILE: the man page FILE differs from the table by LINE
# ("< key<TAB>": the table's row; "> key<TAB>": the man page's entry).
noticed() {
    man_keys "$3" | LC_ALL=C sort >"$TMP/edited"
    if diff "$TMP/table" "$TMP/edited" | grep -qF "$2"; then ok; else fail "$1 goes unnoticed"; fi
}
tab=$(printf '\t')
for key in fabric.switch.radix workload.model.mcc workload.parallelism.tensor \
    'network.dims[].size' libra.starts 'libra.layers[].weight_grad.bytes' libra.groups.forward; do
    # The man page without the key's entry: its .TP and .BR lines.
    awk -v k=".BR $key \"" '
        $0 == ".TP" { held = 1; next }
        held { held = 0; if (index($0, k) == 1) next; print ".TP" }
        { print }' "$man" >"$TMP/man.5"
    noticed "a man page without $key" "< $key$tab" "$TMP/man.5"
done
{
    cat "$man"
    printf '.SH LIBRA\n.TP\n.BR libra.restarts " (integer, 1..1000; default 12)"\nAgain.\n'
} >"$TMP/man.5"
noticed "an entry for a key the table lacks" "> libra.restarts$tab" "$TMP/man.5"
sed '/^\.BR cluster\.scalable_unit /s/default 0/default 2/' "$man" >"$TMP/man.5"
noticed "a wrong default" "> cluster.scalable_unit$tab" "$TMP/man.5"
sed '/^\.BR libra\.time_unit /s/default ms/default s/' "$man" >"$TMP/man.5"
noticed "a wrong default in libra" "> libra.time_unit$tab" "$TMP/man.5"
finish
