# Shared helpers for the shell tests. Sourced; expects RAILYARD, TOP_SRCDIR.
set -u
: "${RAILYARD:?RAILYARD must point at the built railyard}"
: "${TOP_SRCDIR:=.}"
fails=0
checks=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/railyard-test.XXXXXX")
T0=$(date +%s)
trap 'rm -rf "$TMP"' EXIT

# Debian's python3 (its python3-* packages belong to /usr/bin/python3).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
# The tests' own Python modules (tests/layoutmodel.py), imported from the
# source tree without writing bytecode into it.
PYTHONPATH="$TOP_SRCDIR/tests${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE

ok()   { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); printf 'FAIL: %s\n' "$*"; }

# expect_eq WHAT GOT WANT
expect_eq() {
    if [ "$2" = "$3" ]; then ok; else fail "$1: got '$2', want '$3'"; fi
}

# No sanitizer report may appear in any output.
no_sanitizer() {
    if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$1" 2>/dev/null; then
        fail "sanitizer report in $1"; sed 's/^/    /' "$1" | head -20
    else
        ok
    fi
}

finish() {
    # the wall time, for tests/run-all.sh's list of the slowest tests
    printf 'elapsed: %d s\n' $(($(date +%s) - T0))
    printf '%d checks, %d failed\n' "$checks" "$fails"
    [ "$fails" -eq 0 ]
    exit $?
}
