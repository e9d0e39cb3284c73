#!/bin/sh
# The command line: help, version, usage errors and their exit codes, and
# that the man pages document every command and option --help lists.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

"$RAILYARD" --help >"$TMP/help" 2>&1; expect_eq "--help exit" $? 0
grep -q '^usage: railyard' "$TMP/help" && ok || fail "--help has no usage line"
"$RAILYARD" --version >"$TMP/ver" 2>&1; expect_eq "--version exit" $? 0
grep -qE '^railyard [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/ver" && ok || fail "--version: $(cat "$TMP/ver")"

cmds=$(sed -n '/^Commands:/,/^$/p' "$TMP/help" | awk 'NF>1 {print $1}')
[ -n "$cmds" ] && ok || fail "no commands listed in --help"
for c in $cmds; do
    "$RAILYARD" help "$c" >"$TMP/h.$c" 2>&1; expect_eq "help $c exit" $? 0
    grep -q "^usage: railyard $c" "$TMP/h.$c" && ok || fail "help $c has no usage line"
    "$RAILYARD" "$c" --help >"$TMP/h2.$c" 2>&1; expect_eq "$c --help exit" $? 0
    cmp -s "$TMP/h.$c" "$TMP/h2.$c" && ok || fail "help $c and $c --help differ"
    # every command and each of its long options is in the man page
    grep -qE "^\\.(B|BI|BR|SS) \"?$c( |\"|\$)" "$TOP_SRCDIR/doc/railyard.1" && ok \
        || fail "railyard.1 does not document command $c"
    for o in $(grep -oE -- '--[a-z][a-z-]+' "$TMP/h.$c" | sort -u); do
        oo=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q -- "$oo" "$TOP_SRCDIR/doc/railyard.1" && ok || fail "railyard.1 lacks option $o ($c)"
    done
done

# usage errors: exit 2 with a hint
"$RAILYARD" >/dev/null 2>"$TMP/e"; expect_eq "no command exit" $? 2
"$RAILYARD" frobnicate 2>"$TMP/e"; expect_eq "unknown command exit" $? 2
grep -q "no command 'frobnicate'" "$TMP/e" && ok || fail "unknown command message: $(cat "$TMP/e")"
"$RAILYARD" help frobnicate 2>"$TMP/e"; expect_eq "help unknown exit" $? 2
"$RAILYARD" --bogus 2>"$TMP/e"; expect_eq "unknown global option exit" $? 2
"$RAILYARD" validate 2>"$TMP/e"; expect_eq "validate without spec exit" $? 2
grep -q "missing SPEC" "$TMP/e" && ok || fail "missing SPEC message"
"$RAILYARD" bom --format xml x.yaml 2>"$TMP/e"; expect_eq "bad format exit" $? 2
grep -q "text, json or csv" "$TMP/e" && ok || fail "bad format message: $(cat "$TMP/e")"
"$RAILYARD" build "$TOP_SRCDIR/examples/superpod-4su.yaml" 2>"$TMP/e"; expect_eq "build without -o" $? 2
"$RAILYARD" compare --gpus 0 --hb-domain 8 --radix 64 2>"$TMP/e"; expect_eq "compare --gpus 0" $? 2
"$RAILYARD" compare --gpus 1024 --hb-domain 8 --radix 64,x 2>"$TMP/e"; expect_eq "compare bad radix" $? 2
"$RAILYARD" compare --gpus 1024 --hb-domain 8 --radix 63 2>"$TMP/e"; expect_eq "compare odd radix" $? 1
grep -q "radix" "$TMP/e" && ok || fail "odd radix message: $(cat "$TMP/e")"
"$RAILYARD" compare --gpus 1000 --hb-domain 8 --rails 16 --radix 64 2>"$TMP/e"; expect_eq "compare rails > K" $? 1
"$RAILYARD" validate /nonexistent/spec.yaml 2>"$TMP/e"; rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 3 ] && ok || fail "missing file exit $rc"
grep -q "/nonexistent/spec.yaml" "$TMP/e" && ok || fail "missing file message: $(cat "$TMP/e")"
for f in "$TMP"/e "$TMP"/h.*; do no_sanitizer "$f"; done

# the man pages are well-formed roff
if command -v groff >/dev/null 2>&1 || command -v man >/dev/null 2>&1; then
    for m in "$TOP_SRCDIR/doc/railyard.1" "$TOP_SRCDIR/doc/railyard-spec.5"; do
        w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$m" 2>&1 >/dev/null | grep -v '^$' | head -5)
        [ -z "$w" ] && ok || fail "man warnings in $m: $w"
    done
fi
finish
