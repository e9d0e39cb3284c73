#!/bin/sh
# tests/suite.sh BUILD SRCDIR 'NORMAL_BUILD_TESTS' TEST...: the log files
# (tests/NAME.log, one line, for make check's TEST_LOGS) of the tests that BUILD
# (sanitizers or normal) runs in the full suite, by the rule of the comment
# at TESTS in Makefile.am:
#  - a test whose code (not its comments) calls sanitized or $(examples) of
#    tests/lib.sh, which under the sanitizers leave the largest cases or
#    another program's reading to the normal build: both builds' (each
#    build's run does its share: tests/lib.sh, RAILYARD_SUITE);
#  - else a test of NORMAL_BUILD_TESTS: the normal build's alone;
#  - any other test: the sanitizers' alone.
set -u
build=$1 srcdir=$2 normal=" $3 "
shift 3
logs=
for t in "$@"; do
    if grep -v '^[[:space:]]*#' "$srcdir/$t" 2>/dev/null |
       grep -qE '(^|[^A-Za-z0-9_])sanitized([^A-Za-z0-9_]|$)|\$\(examples\)'; then
        where=both
    else
        case $normal in
        *" $t "*) where=normal ;;
        *) where=sanitizers ;;
        esac
    fi
    if [ "$where" = both ] || [ "$where" = "$build" ]; then
        logs="$logs${logs:+ }${t%.sh}.log"
    fi
done
printf '%s\n' "$logs"
