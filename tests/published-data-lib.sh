# What tests/published-runs-data.sh and tests/published-fabrics-data.sh
# share: the checker run on the data file and faults planted in copies of it
# (tests/published_data.py). Sourced after tests/lib.sh, with
#   DATA     the data file
#   CHECK    its checker
#   LIST     the file's list of entries (runs, fabrics)
#   PRELUDE  Python statements naming parts of the loaded file `doc` for
#            the planted changes (r = doc["runs"][0], ...)
PUBDATA="$TOP_SRCDIR/tests/published_data.py"

# check_data: the checker passes the data file, prints one ok line per entry
# (shown) and nothing on stderr. Sets n, the number of entries.
check_data() {
    "$PY" "$CHECK" "$DATA" >"$TMP/out" 2>"$TMP/err"
    expect_eq "checker exit on the data file" $? 0
    sed 's/^/    /' "$TMP/out"
    [ -s "$TMP/err" ] && { fail "checker wrote to stderr"; sed 's/^/    /' "$TMP/err"; }
    n=$("$PY" "$PUBDATA" count "$DATA" "$LIST")
    expect_eq "one ok line per entry of $LIST" "$(grep -c '^ok ' "$TMP/out")" "$n"
}

# plant NAME WANT CODE: a copy of the data changed by CODE (after PRELUDE);
# the checker must fail with a FAIL line naming WANT (a grep pattern).
plant() {
    "$PY" "$PUBDATA" plant "$DATA" "$TMP/$1.yaml" "$PRELUDE" "$3"
    "$PY" "$CHECK" "$TMP/$1.yaml" >"$TMP/$1.out" 2>&1
    rc=$?
    expect_eq "$1: checker exit" $rc 1
    grep -q "^FAIL .*$2" "$TMP/$1.out" && ok || { fail "$1: no FAIL line with '$2'"; grep FAIL "$TMP/$1.out" | sed 's/^/    /'; }
}
