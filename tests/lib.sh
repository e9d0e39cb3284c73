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

# A build with AddressSanitizer and UndefinedBehaviorSanitizer (configure
# --enable-sanitizers): railyard runs under the sanitizers on every case
# but the largest examples', which build-outputs.sh alone builds there; a
# program that only reads railyard's files (ibdmchk, LibreOffice) reads
# the large ones in the normal build's suite alone: the files are the
# same bytes in both builds.
sanitized() { [ "${RAILYARD_SANITIZED:-no}" = yes ]; }

# The full suite (tests/run-all.sh) runs a test that calls sanitized or
# $(examples) in both builds (tests/suite.sh), each doing its share:
# RAILYARD_SUITE is "sanitizers" in the sanitizer build's run (make
# check-sanitized) and "normal" in the normal build's (make check-normal,
# make distcheck-normal); empty in a plain make check, which does it all.
# normal_share: this is the normal build's run of such a test in the full
# suite, where the sanitizer build's run has done all but what it leaves
# to the normal build (the checks under "if ! sanitized"): a test may skip
# there what the other run did.
normal_share() { [ "${RAILYARD_SUITE:-}" = normal ] && ! sanitized; }
# sanitizer_share: the sanitizer build's run of such a test in the full
# suite, which may leave to the normal build's run what it does there.
sanitizer_share() { [ "${RAILYARD_SUITE:-}" = sanitizers ] && sanitized; }

# examples: the bundled examples' paths, a line each; under the sanitizers
# only those of at most 16,384 GPUs (tests/build-outputs.sh builds every
# example under them; the larger ones' other checks are the normal
# build's). The paths must hold no white space.
examples() {
    for e in "$TOP_SRCDIR"/examples/*.yaml; do
        if sanitized; then
            g=$("$RAILYARD" bom -f json "$e" 2>/dev/null |
                "$PY" -c 'import json, sys; print(json.load(sys.stdin)["gpus"])' 2>/dev/null)
            [ "${g:-0}" -gt 16384 ] && continue
        fi
        echo "$e"
    done
}

# doc_blocks DOC MIN REGENERATE: every fenced block of DOC whose first line
# is "$ COMMAND" runs in order in one scratch directory whose examples/ is
# the source tree's, with railyard the one under test first on PATH, and
# must exit 0 and print what the block shows (tests/doc-blocks.py); DOC
# shows at least MIN. REGENERATE 1 rewrites the blocks from the output.
doc_blocks() {
    mkdir "$TMP/bin" "$TMP/work"
    ln -s "$RAILYARD" "$TMP/bin/railyard"
    ln -s "$TOP_SRCDIR/examples" "$TMP/work/examples"
    PATH=$TMP/bin:$PATH "$PY" "$TOP_SRCDIR/tests/doc-blocks.py" "$1" "$TMP/work" "$3" \
        >"$TMP/blocks.out" 2>&1
    expect_eq "the block runner's exit" $? 0
    grep -v '^blocks ' "$TMP/blocks.out"
    nblocks=$(sed -n 's/^blocks \([0-9]*\) bad .*/\1/p' "$TMP/blocks.out")
    nbad=$(sed -n 's/^blocks [0-9]* bad \([0-9]*\)$/\1/p' "$TMP/blocks.out")
    [ "${nblocks:-0}" -ge "$2" ] && ok || fail "$1 shows ${nblocks:-0} commands, want at least $2"
    expect_eq "blocks whose output differs or that fail" "${nbad:-?}" 0
}

# json_get FILE KEY...: one value of a JSON document by keys
json_get() {
    "$PY" -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v[k]
print(v)' "$@"
}

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
    # the wall time, for tests/run-all.sh's table of the tests' times (also
    # appended to RAILYARD_TIMES when it names a file: "SECONDS TEST BUILD")
    printf 'elapsed: %d s\n' $(($(date +%s) - T0))
    if [ -n "${RAILYARD_TIMES:-}" ]; then
        printf '%d %s %s\n' $(($(date +%s) - T0)) "$(basename "$0" .sh)" \
            "$(sanitized && echo sanitizers || echo normal)" >>"$RAILYARD_TIMES"
    fi
    printf '%d checks, %d failed\n' "$checks" "$fails"
    [ "$fails" -eq 0 ]
    exit $?
}
