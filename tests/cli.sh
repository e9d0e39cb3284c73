#!/bin/sh
# The command line: help, version, usage errors and their exit codes, and
# that the man pages document every command and option --help lists.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

"$RAILYARD" --help >"$TMP/help" 2>&1; expect_eq "--help exit" $? 0
grep -q '^usage: railyard' "$TMP/help" && ok || fail "--help has no usage line"
# the exit statuses --help states include verify's, which differ (diff(1)'s)
grep -q "verify exits as diff(1) does" "$TMP/help" && ok || fail "--help omits verify's exit statuses"
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
    # --set is offered exactly where it is taken: by the commands that read a
    # SPEC (expand: OLD, whose NEW it changes)
    if head -1 "$TMP/h.$c" | grep -qE ' (SPEC|OLD)'; then
        grep -q -- '--set KEY=VALUE' "$TMP/h.$c" && ok || fail "$c reads a spec and offers no --set"
    else
        grep -q -- '--set' "$TMP/h.$c" && fail "$c --help offers --set, which it refuses" || ok
        "$RAILYARD" "$c" --set a=1 >/dev/null 2>&1; expect_eq "$c --set exit" $? 2
    fi
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
"$RAILYARD" compare --paper --gpus 0 --hb-domain 8 --radix 64 2>"$TMP/e"; expect_eq "compare --gpus 0" $? 2
"$RAILYARD" compare --paper --gpus 1024 --hb-domain 8 --radix 64,x 2>"$TMP/e"; expect_eq "compare bad radix" $? 2
"$RAILYARD" compare --paper --gpus 1024 --hb-domain 8 --radix 63 2>"$TMP/e"; expect_eq "compare odd radix" $? 1
grep -q "radix" "$TMP/e" && ok || fail "odd radix message: $(cat "$TMP/e")"
"$RAILYARD" compare --paper --gpus 1000 --hb-domain 8 --rails 16 --radix 64 2>"$TMP/e"; expect_eq "compare rails > K" $? 1
"$RAILYARD" validate /nonexistent/spec.yaml 2>"$TMP/e"; rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 3 ] && ok || fail "missing file exit $rc"
grep -q "/nonexistent/spec.yaml" "$TMP/e" && ok || fail "missing file message: $(cat "$TMP/e")"

# --- the GNU forms of options ----------------------------------------------------------
SP="$TOP_SRCDIR/examples/superpod-4su.yaml"
"$RAILYARD" bom "$SP" --format csv >"$TMP/ref.csv" 2>"$TMP/e"; expect_eq "bom csv exit" $? 0
[ -s "$TMP/ref.csv" ] && ok || fail "bom csv wrote nothing"
same_csv() {    # same_csv WHAT ARGS...: the run prints exactly the reference CSV
    what=$1; shift
    "$RAILYARD" "$@" >"$TMP/form.out" 2>"$TMP/form.err"; rc=$?
    expect_eq "$what exit" $rc 0
    cmp -s "$TMP/ref.csv" "$TMP/form.out" && ok || fail "$what: output differs: $(head -c 300 "$TMP/form.err")"
}
same_csv "-fVALUE" bom "$SP" -fcsv
same_csv "-f VALUE" bom "$SP" -f csv
same_csv "--format=VALUE" bom "$SP" --format=csv
same_csv "a long prefix" bom "$SP" --form csv
same_csv "a long prefix with =" bom "$SP" --form=csv
same_csv "options before the spec" bom --format csv "$SP"
same_csv "-- before the spec" bom --format csv -- "$SP"
same_csv "global options after the command" bom "$SP" -T "$TOP_SRCDIR/templates" --format csv
same_csv "-TDIR" -T"$TOP_SRCDIR/templates" bom "$SP" --format csv
same_csv "--templ=DIR" --templ="$TOP_SRCDIR/templates" bom "$SP" --format csv
"$RAILYARD" bom "$SP" -ocsv -fcsv >/dev/null 2>&1; rc=$?
expect_eq "-oFILE exit" $rc 0
cmp -s "$TMP/ref.csv" csv && ok || fail "-oFILE did not write FILE"
rm -f csv
"$RAILYARD" bom "$SP" -o "$TMP/o.csv" --format csv 2>/dev/null; cmp -s "$TMP/ref.csv" "$TMP/o.csv" && ok || fail "-o FILE"
# a spec named like an option, after --
cp "$SP" "$TMP/-spec.yaml"
"$RAILYARD" bom --format csv -- "$TMP/-spec.yaml" >"$TMP/dash.out" 2>&1; expect_eq "-- then a dash name" $? 0
# ambiguous and unknown options
"$RAILYARD" draw "$SP" --f 2>"$TMP/e"; expect_eq "ambiguous --f exit" $? 2
grep -q "ambiguous" "$TMP/e" && grep -q -- "--format" "$TMP/e" && grep -q -- "--force" "$TMP/e" \
    && ok || fail "ambiguous message: $(cat "$TMP/e")"
"$RAILYARD" bom "$SP" --fromat csv 2>"$TMP/e"; expect_eq "misspelt option exit" $? 2
grep -q "did you mean '--format'" "$TMP/e" && ok || fail "misspelt option hint: $(cat "$TMP/e")"
"$RAILYARD" vaildate "$SP" 2>"$TMP/e"; expect_eq "misspelt command exit" $? 2
grep -q "did you mean 'validate'" "$TMP/e" && ok || fail "misspelt command hint: $(cat "$TMP/e")"
"$RAILYARD" bom "$SP" -o 2>"$TMP/e"; expect_eq "-o without a value" $? 2
grep -q "needs a value" "$TMP/e" && ok || fail "-o without value: $(cat "$TMP/e")"
"$RAILYARD" bom "$SP" -o "" 2>"$TMP/e"; expect_eq "-o ''" $? 2
"$RAILYARD" build "$SP" -o "" 2>"$TMP/e"; expect_eq "build -o ''" $? 2
"$RAILYARD" build "$SP" --output= 2>"$TMP/e"; expect_eq "build --output=''" $? 2
"$RAILYARD" draw "$SP" --force=yes 2>"$TMP/e"; expect_eq "a flag with a value" $? 2
"$RAILYARD" bom "$SP" "$SP" 2>"$TMP/e"; expect_eq "two specs" $? 2
grep -q "one SPEC at a time" "$TMP/e" && ok || fail "two specs: $(cat "$TMP/e")"
"$RAILYARD" -x 2>"$TMP/e"; expect_eq "unknown short option" $? 2
# --set applies to a spec, and is refused where none is read
"$RAILYARD" compare --gpus 1024 --hb-domain 8 --radix 64 --set cluster.planes=2 2>"$TMP/e"
expect_eq "compare --gpus with --set" $? 2
grep -q -- "--set" "$TMP/e" && ok || fail "compare --set message: $(cat "$TMP/e")"
"$RAILYARD" --set cluster.planes=2 check-routes "$TMP" 2>"$TMP/e"; expect_eq "check-routes with --set" $? 2
"$RAILYARD" compare --paper "$SP" --set fabric.switch.radix=32 --format csv >"$TMP/c.csv" 2>&1
expect_eq "compare SPEC --set" $? 0
grep -q '^[0-9]*,[0-9]*,32,' "$TMP/c.csv" && ok || fail "compare SPEC ignored --set: $(head -3 "$TMP/c.csv")"
# validate --format json: the summary's figures, and valid JSON
"$RAILYARD" validate "$SP" --format json >"$TMP/v.json" 2>&1; expect_eq "validate json exit" $? 0
"$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["valid"] and j["gpus"]==1016 and j["nodes"]==127 and j["bom"]["switches"]["total"]==48, j' "$TMP/v.json" \
    && ok || fail "validate json: $(head -c 300 "$TMP/v.json")"
# exit codes of railyard(1): a missing spec is an I/O error
"$RAILYARD" bom /nonexistent/spec.yaml 2>"$TMP/e"; expect_eq "missing spec exit" $? 3
# draw: the format comes from --format or the file's extension, never DOT into a .png or .jpg
"$RAILYARD" draw "$SP" -o "$TMP/x.jpg" 2>"$TMP/e"; expect_eq "draw -o x.jpg exit" $? 2
[ -e "$TMP/x.jpg" ] && fail "draw -o x.jpg wrote a file" || ok
"$RAILYARD" draw "$SP" -o "$TMP/x.png" --format dot 2>"$TMP/e"; expect_eq "draw -o x.png --format dot" $? 2
if command -v dot >/dev/null 2>&1; then
    "$RAILYARD" draw "$SP" -o "$TMP/x.png" 2>"$TMP/e"; expect_eq "draw -o x.png exit" $? 0
    head -c 8 "$TMP/x.png" | od -An -c | grep -q 'P   N   G' && ok || fail "draw -o x.png is no PNG"
    "$RAILYARD" draw "$SP" -o "$TMP/x.PNG" 2>"$TMP/e"; expect_eq "draw -o x.PNG exit" $? 0
    head -c 8 "$TMP/x.PNG" | od -An -c | grep -q 'P   N   G' && ok || fail "draw -o x.PNG is no PNG"
fi
"$RAILYARD" draw "$SP" -o "$TMP/x.gv" 2>"$TMP/e"; expect_eq "draw -o x.gv exit" $? 0
head -1 "$TMP/x.gv" | grep -q graph && ok || fail "draw -o x.gv is no DOT"
for f in "$TMP"/e "$TMP"/h.* "$TMP"/form.err; do no_sanitizer "$f"; done

# the man pages are well-formed roff
if command -v groff >/dev/null 2>&1 || command -v man >/dev/null 2>&1; then
    for m in "$TOP_SRCDIR/doc/railyard.1" "$TOP_SRCDIR/doc/railyard-spec.5"; do
        w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$m" 2>&1 >/dev/null | grep -v '^$' | head -5)
        [ -z "$w" ] && ok || fail "man warnings in $m: $w"
    done
fi
# help terms: the glossary, the same terms as railyard(1)'s TERMS, and
# every command's help points to it
"$RAILYARD" help terms >"$TMP/terms" 2>&1
expect_eq "help terms: exit" $? 0
expect_eq "help terms: the terms are railyard(1)'s TERMS" \
    "$(sed -n 's/^  \([^ ].*\)$/\1/p' "$TMP/terms" | sort | tr '\n' '|')" \
    "$(sed -n '/^\.SH TERMS/,/^\.SH /p' "$TOP_SRCDIR/doc/railyard.1" | sed -n 's/^\.B //p' |
       sed 's/\\-/-/g' | sort | tr '\n' '|')"
[ "$(grep -c '^  [^ ]' "$TMP/terms")" -ge 10 ] && ok || fail "help terms: fewer than 10 terms"
for c in bom compare search model validate; do
    "$RAILYARD" help "$c" | tail -n 1 | grep -q 'railyard help terms$' && ok ||
        fail "help $c does not point to help terms"
done
finish
