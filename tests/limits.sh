#!/bin/sh
# railyard(1) LIMITS states measured figures; this checks them against the
# program:
#   - the peak memory (/usr/bin/time) of validate of the largest allowed
#     spec, 4,194,304 GPUs (under a minute, 1.5 GB), against the figure
#     LIMITS states;
#   - the graph bound LIMITS states against the one the builder refuses at;
#   - the size of --guids and --lids files (one byte past it refused).
# Skipped (77) when /usr/bin/time is not installed.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
MAN="$TOP_SRCDIR/doc/railyard.1"
SP="$TOP_SRCDIR/examples/superpod-4su.yaml"
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time is not installed"; exit 77; }

# the LIMITS section, one line
limits=$(sed -n '/^\.SH LIMITS/,/^\.SH /p' "$MAN" | tr '\n' ' ')
# "validate peaks at N MiB" of the largest spec
peak_mib=$(printf '%s' "$limits" | sed -n 's/.*validate peaks at \([0-9][0-9,]*\) MiB.*/\1/p' | tr -d ,)
ports=$(printf '%s' "$limits" | sed -n 's/.*a graph of at most \([0-9][0-9,]*\) ports.*/\1/p' | tr -d ,)
guids=$(printf '%s' "$limits" | sed -n 's/.*\\-\\-guids.*\\-\\-lids[^0-9]*\([0-9][0-9]*\) MiB.*/\1/p')
[ -n "$peak_mib" ] && ok || fail "LIMITS states no validate peak"
[ -n "$ports" ] && ok || fail "LIMITS states no graph bound"
[ -n "$guids" ] && ok || fail "LIMITS states no --guids/--lids size"

# (a) the largest spec's peak: within 10% of the stated figure. A sanitizer
# build keeps shadow memory beside every allocation: its peak says nothing
# of the program's, so (a) is for the normal build only.
if grep -qa __asan_init "$RAILYARD"; then
    echo "sanitizer build: the peak of the largest spec is measured by the normal build"
else
/usr/bin/time -f '%M %e' -o "$TMP/max.time" "$RAILYARD" -q validate "$SP" \
    --set cluster.nodes=524288 >"$TMP/max.out" 2>"$TMP/max.err"
expect_eq "4,194,304 GPUs: validate exit" "$?:$(cat "$TMP/max.err")" "0:"
set -- $(tail -1 "$TMP/max.time")
kb=$1
printf 'validate of 4,194,304 GPUs: %s KB peak in %s s; LIMITS: %s MiB\n' "$1" "$2" "$peak_mib"
if [ -n "$peak_mib" ]; then
    r=$(( kb * 100 / 1024 / peak_mib ))         # percent of the stated peak
    [ "$r" -ge 90 ] && [ "$r" -le 110 ] && ok ||
        fail "4,194,304 GPUs peak at ${kb} KB: ${r}% of LIMITS' ${peak_mib} MiB, want 90..110%"
fi
fi

# (b) the graph bound: the builder refuses one port past it, and names it
"$RAILYARD" -q validate "$SP" --set fabric.tiers=6 >/dev/null 2>"$TMP/t6.err"
expect_eq "tiers=6: exit" $? 1
n=$(sed -n 's/.*the limit is \([0-9,]*\) ports.*/\1/p' "$TMP/t6.err" | tr -d ,)
expect_eq "graph bound: LIMITS = the builder's" "$n" "$ports"

# (c) --guids and --lids: one byte past the size LIMITS states is refused,
# the size itself is not (sparse files of zeros: one long line, so an error
# either way, but the size is named only past it)
truncate -s $((guids * 1048576 + 1)) "$TMP/over" && truncate -s $((guids * 1048576)) "$TMP/at" ||
    fail "cannot make sparse files"
for o in guids lids; do
    timeout -k 5 60 "$RAILYARD" -q build "$SP" --skip diagrams --$o "$TMP/over" -o "$TMP/g" \
        >/dev/null 2>"$TMP/$o.err"
    expect_eq "--$o past $guids MiB: exit" $? 1
    grep -q "^$TMP/over:[0-9]*:1: error: the file is larger than $guids MiB$" "$TMP/$o.err" && ok ||
        fail "--$o: $(cat "$TMP/$o.err") (LIMITS: $guids MiB)"
    timeout -k 5 60 "$RAILYARD" -q build "$SP" --skip diagrams --$o "$TMP/at" -o "$TMP/g" \
        >/dev/null 2>"$TMP/$o.err"
    grep -q "larger than" "$TMP/$o.err" && fail "--$o of $guids MiB refused for its size" || ok
done
rm -f "$TMP/over" "$TMP/at"

finish
