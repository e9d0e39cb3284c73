#!/bin/sh
# The rail-only paper's Table 2, every number, from the built graphs.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

"$RAILYARD" compare --paper --gpus 32768 --hb-domain 256 --radix 32,64,128,256 --format csv \
    >"$TMP/a.csv" 2>"$TMP/a.err" || fail "compare 32768 exited $?"
"$RAILYARD" compare --paper --gpus 65536 --hb-domain 256 --radix 64,128,256 --format csv \
    >"$TMP/b.csv" 2>"$TMP/b.err" || fail "compare 65536 exited $?"
no_sanitizer "$TMP/a.err"
no_sanitizer "$TMP/b.err"

# gpus radix sota_switches rail_only_switches sota_transceivers rail_only_transceivers reduction
cat >"$TMP/want" <<'T'
32768 32 7168 3072 262144 131072 54.5
32768 64 2560 1536 196608 131072 37.5
32768 128 1280 256 196608 65536 75.0
32768 256 384 128 131072 65536 60.0
65536 64 5120 3072 393216 262144 37.5
65536 128 2560 1536 393216 262144 37.5
65536 256 1280 256 393216 131072 75.0
T
tail -n +2 "$TMP/a.csv" >"$TMP/rows"
tail -n +2 "$TMP/b.csv" >>"$TMP/rows"
awk -F, '{print $1, $3, $4, $5, $6, $7, $10}' "$TMP/rows" >"$TMP/got"
expect_eq "row count" "$(wc -l <"$TMP/got" | tr -d ' ')" 7
i=0
while read -r n r ss rs st rt red; do
    i=$((i + 1))
    got=$(sed -n "${i}p" "$TMP/got")
    set -- $got
    expect_eq "N=$n radix=$r gpus" "$1" "$n"
    expect_eq "N=$n radix=$r radix" "$2" "$r"
    expect_eq "N=$n radix=$r SOTA switches" "$3" "$ss"
    expect_eq "N=$n radix=$r rail-only switches" "$4" "$rs"
    expect_eq "N=$n radix=$r SOTA transceivers" "$5" "$st"
    expect_eq "N=$n radix=$r rail-only transceivers" "$6" "$rt"
    expect_eq "N=$n radix=$r cost reduction" "$7" "$red"
done <"$TMP/want"

# The text table carries the same rows, one decimal on the reduction.
"$RAILYARD" compare --paper --gpus 32768 --hb-domain 256 --radix 32,64,128,256 >"$TMP/a.txt"
for row in "32768   256     32 |      7168         262144 |      3072         131072 |     54.5%" \
           "32768   256    128 |      1280         196608 |       256          65536 |     75.0%"; do
    if grep -qF "$row" "$TMP/a.txt"; then ok; else fail "text table lacks '$row'"; cat "$TMP/a.txt"; fi
done

# JSON agrees with CSV.
"$RAILYARD" compare --paper --gpus 65536 --hb-domain 256 --radix 256 --format json >"$TMP/c.json"
got=$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rows"][0]; d=r["designs"]; print(d["rail-optimized"]["switches"]["total"], d["rail-only"]["switches"]["total"], d["rail-optimized"]["transceivers"], d["rail-only"]["transceivers"], r["reduction"])' "$TMP/c.json")
expect_eq "json row" "$got" "1280 256 393216 131072 75.0"
finish
