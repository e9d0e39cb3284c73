#!/bin/sh
# Hostile input: every reader gives a located error or an answer in bounded
# time and memory, whatever the file holds (each case here once made railyard
# hang, grow without bound or crash).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
T=${HOSTILE_TIMEOUT:-120}

# CSV fields and the keyed hash, case by case (tests/unit/csv_test.c)
"$TOP_BUILDDIR/tests/unit/csv_test" >"$TMP/csv-unit" 2>&1
expect_eq "csv_test exit" $? 0
grep FAIL "$TMP/csv-unit" | head -5

# run NAME CMD...: under timeout; rc, out and err kept
run() {
    name=$1; shift
    timeout -k 5 "$T" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"; rc=$?
    [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && ok || fail "$name: still running after $T s"
    no_sanitizer "$TMP/$name.err"
}

# --- check-routes on a file with no newline: one line, never the whole file in memory
# (sparse files of zeros: as endless as /dev/zero up to the size limits)
head -c 4000 /dev/zero >"$TMP/small-zeros"
truncate -s $((1025 * 1024 * 1024)) "$TMP/zeros.net"
run zero-topology "$RAILYARD" check-routes "$TMP/zeros.net" --lfts "$TMP/small-zeros"
expect_eq "zeros as topology exit" $rc 1
grep -q '^[^:]*/zeros.net:1:1025: error: line longer than 1024 characters' "$TMP/zero-topology.err" && ok \
    || fail "zeros topology message: $(head -3 "$TMP/zero-topology.err")"
grep -q 'larger than 1024 MiB' "$TMP/zero-topology.err" && ok \
    || fail "zeros topology: no size limit message: $(head -3 "$TMP/zero-topology.err")"
rm -f "$TMP/zeros.net"
FT="$TOP_SRCDIR/tests/data/routes/fat-tree"
truncate -s $((2 * 1024 * 1024)) "$TMP/zeros.lft"
run zero-lfts "$RAILYARD" check-routes "$FT/topology.net" --lfts "$TMP/zeros.lft"
expect_eq "zeros as LFTs exit" $rc 1
grep -q '^[^:]*/zeros.lft:1:1022: error: line longer than 1021 characters' "$TMP/zero-lfts.err" && ok \
    || fail "zeros LFT message: $(head -3 "$TMP/zero-lfts.err")"
grep -q 'larger than [0-9]* bytes, more than tables for 6 switches and 14 LIDs' "$TMP/zero-lfts.err" \
    && ok || fail "zeros LFT: no size limit: $(head -3 "$TMP/zero-lfts.err")"
# A device is not read at all (it may never end): refused as an I/O error.
run dev-topology "$RAILYARD" check-routes /dev/zero --lfts "$TMP/small-zeros"
expect_eq "/dev/zero as topology exit" $rc 3
grep -q "cannot read '/dev/zero': a character device, not a regular file" "$TMP/dev-topology.err" \
    && ok || fail "/dev/zero topology message: $(head -3 "$TMP/dev-topology.err")"
run dev-lfts "$RAILYARD" check-routes "$FT/topology.net" --lfts /dev/zero
expect_eq "/dev/zero as LFTs exit" $rc 3

# --- YAML: 240,000 anchors and as many aliases (5.5 MB, inside the node limit)
"$PY" - "$TMP/anchors.yaml" <<'P'
import sys
n = 240000
with open(sys.argv[1], "w") as f:
    f.write("version: 1\nname: anchors\nx-defs:\n")
    for i in range(n):
        f.write("  - &a%d %d\n" % (i, i))
    f.write("x-uses:\n")
    for i in range(n):
        f.write("  - *a%d\n" % (n - 1 - i))
    f.write("cluster:\n  gpus: 64\n  hb_domain: 8\nfabric:\n  switch: {name: s, radix: 16, speed: 400G}\n")
P
run anchors "$RAILYARD" validate "$TMP/anchors.yaml"
expect_eq "240,000 anchors exit" $rc 0
# the same names redefined: the latest definition wins
printf 'version: 1\nname: &n first\nx-a: &n second\nx-b: [*n]\ncluster: {gpus: 64, hb_domain: 8}\n' >"$TMP/redef.yaml"
run redef "$RAILYARD" validate "$TMP/redef.yaml"
expect_eq "redefined anchor exit" $rc 0
grep -q '^name: *first' "$TMP/redef.out" && ok || fail "redefined anchor: $(head -3 "$TMP/redef.out")"

# --- the spec size limit is the one the message states
"$PY" - "$TMP/big.yaml" <<'P'
import sys
limit = 64 << 20
head = b"version: 1\nname: big\ncluster: {gpus: 64, hb_domain: 8}\n"
line = b"#" + b"x" * 1022 + b"\n"
with open(sys.argv[1], "wb") as f:
    f.write(head)
    left = limit + 1 - len(head)
    while left > 0:
        chunk = line if left >= len(line) else b"#" * left
        f.write(chunk)
        left -= len(chunk)
P
run big "$RAILYARD" validate "$TMP/big.yaml"
expect_eq "a spec one byte over 64 MiB exit" $rc 1
grep -q 'larger than 64 MiB' "$TMP/big.err" && ok || fail "size limit message: $(cat "$TMP/big.err")"
truncate -s $((64 * 1024 * 1024)) "$TMP/big.yaml"
run big-ok "$RAILYARD" validate "$TMP/big.yaml"
grep -q 'larger than' "$TMP/big-ok.err" && fail "a spec of exactly 64 MiB refused: $(cat "$TMP/big-ok.err")" || ok

# --- a topology whose 40,000 port GUIDs collide under an unkeyed 64-bit mix
"$PY" - "$TMP/collide.net" <<'P'
import sys
M = (1 << 64) - 1
C = 0xff51afd7ed558ccd
CINV = pow(C, -1, 1 << 64)
def unmix(y):       # the inverse of x ^= x>>33; x *= C; x ^= x>>33
    y ^= y >> 33
    y = (y * CINV) & M
    y ^= y >> 33
    return y
leaves, per = 160, 250
out = []
for l in range(leaves):
    sw = 0x0002c90200000000 + l
    out.append("switchguid=0x%016x" % sw)
    out.append('Switch\t%d "S-%016x"\t\t# "leaf%d" enhanced port 0 lid %d lmc 0' % (per, sw, l, l + 1))
    for p in range(per):
        i = l * per + p
        guid = unmix(((i + 1) << 32) | 0x5eed)      # every low 32 bits the same
        out.append('[%d]\t"H-%016x"[1](%x)\t\t# "node%05d mlx5_0" lid %d 4xHDR' % (p + 1, guid ^ 1, guid, i, leaves + 1 + i))
    out.append("")
for l in range(leaves):
    for p in range(per):
        i = l * per + p
        guid = unmix(((i + 1) << 32) | 0x5eed)
        out.append('Ca\t1 "H-%016x"\t\t# "node%05d mlx5_0"' % (guid ^ 1, i))
        out.append('[1](%x)\t"S-%016x"[%d]\t\t# lid %d lmc 0 "leaf%d" lid %d 4xHDR' % (guid, 0x0002c90200000000 + l, p + 1, leaves + 1 + i, l, l + 1))
        out.append("")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
P
: >"$TMP/empty.dump"
run collide "$RAILYARD" check-routes "$TMP/collide.net" --lfts "$TMP/empty.dump" --shifts 0
[ "$rc" -eq 5 ] || [ "$rc" -eq 0 ] && ok || fail "colliding GUIDs exit $rc: $(head -3 "$TMP/collide.err")"
grep -q '40,000 end ports' "$TMP/collide.out" && ok || fail "colliding GUIDs: $(head -5 "$TMP/collide.out")"
# --- 4,000 cabling.links overrides at 8,192 GPUs: resolved through one index
"$PY" - "$TMP/overrides.yaml" <<'P'
import sys
with open(sys.argv[1], "w") as f:
    f.write("version: 1\nname: overrides\ncluster: {nodes: 1024, node: dgx-h100}\n"
            "fabric: {switch: qm9700}\ncabling:\n  links:\n")
    nics = [0, 3, 4, 5, 6, 9, 10, 11]   # a DGX H100's compute NICs (its user guide)
    for i in range(4000):
        n = i // 8 + 1
        # 1,024 nodes: the default host names have 4 digits (node0001..node1024)
        f.write("    - {end: node%04d/mlx5_%d, medium: ndr-smf}\n" % (n, nics[i % 8]))
P
run overrides "$RAILYARD" bom "$TMP/overrides.yaml" --format json
expect_eq "4,000 overrides exit" $rc 0
"$PY" -c '
import json, sys
j = json.load(open(sys.argv[1]))
n = sum(c["count"] for c in j["physical"]["lines"] if c["what"] == "cable" and c["medium"] == "ndr-smf")
sys.exit(0 if n >= 4000 else "%d single-mode cables for 4000 overrides" % n)' "$TMP/overrides.out" \
    && ok || fail "4,000 overrides: $(head -c 300 "$TMP/overrides.out")"
# --- libra.workload_file: a directory is an I/O error, another file's text is not echoed
printf 'version: 1\nname: w\ncluster: {gpus: 4096, node: dgx-h100}\nnetwork:\n  dims:\n    - {name: a, block: ring, size: 4, tech: chiplet}\n    - {name: b, block: switch, size: 1024, tech: pod}\nlibra:\n  budget: 1000\n  workload_file: w.txt\n' >"$TMP/w.yaml"
mkdir -p "$TMP/w.txt"
run wdir "$RAILYARD" optimize "$TMP/w.yaml"
expect_eq "workload_file a directory exit" $rc 3
grep -q 'Is a directory' "$TMP/wdir.err" && ok || fail "workload_file directory: $(cat "$TMP/wdir.err")"
rmdir "$TMP/w.txt"
printf 'secret:x:0:0:owner:/home/secret:/bin/sh\nline two\n' >"$TMP/w.txt"
run wother "$RAILYARD" optimize "$TMP/w.yaml"
expect_eq "workload_file another file exit" $rc 1
grep -q 'not an ASTRA-sim workload file' "$TMP/wother.err" && ok || fail "workload_file other: $(cat "$TMP/wother.err")"
grep -q 'secret' "$TMP/wother.err" && fail "the message repeats the file: $(cat "$TMP/wother.err")" || ok
head -c $((64 * 1024 * 1024 + 1)) /dev/zero | tr '\0' 'x' >"$TMP/w.txt"
run wbig "$RAILYARD" optimize "$TMP/w.yaml"
expect_eq "workload_file over 64 MiB exit" $rc 1
grep -q 'larger than 64 MiB' "$TMP/wbig.err" && ok || fail "workload_file size: $(cat "$TMP/wbig.err")"
rm -f "$TMP/w.txt"

# --- a control character quoted into a message is shown, not sent to the terminal
run esc "$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" --set 'fabric.design="rail\e[31m-only"'
expect_eq "escape in a value exit" $rc 1
grep -q "$(printf '\033')" "$TMP/esc.err" && fail "a raw escape reached the terminal" || ok
grep -q 'rail\\x1b\[31m-only' "$TMP/esc.err" && ok || fail "escape shown: $(cat -A "$TMP/esc.err" | head -3)"
# --- the largest cluster a spec may hold (railyard(1) LIMITS): 4,194,304 GPUs
run gpus-cap "$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" --set cluster.gpus=4194312
expect_eq "GPUs past the limit exit" $rc 1
grep -q '^--set:1:14: error: cluster.gpus is too large (got 4194312; at most 4194304 GPUs)' "$TMP/gpus-cap.err" \
    && ok || fail "GPU limit message: $(cat "$TMP/gpus-cap.err")"
run nodes-cap "$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" --set cluster.nodes=524289
expect_eq "nodes past the GPU limit exit" $rc 1
grep -q 'more than 4194304 GPUs' "$TMP/nodes-cap.err" && ok || fail "node limit message: $(cat "$TMP/nodes-cap.err")"
# --- names that reach outputs: letters, digits, '.', '_', '-' (railyard-spec(5) NAMES IN OUTPUTS)
for v in 'fabric.switch={name: "s16, \"lab\"", radix: 64}' 'fabric.switch={name: "=cmd|calc", radix: 64}' \
         'cluster.node={name: "a\nb", gpus_per_node: 8}' 'name=-rf' 'naming.node="=n{n}"' 'naming.node="n {n}"'; do
    run name "$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" --set "$v"
    expect_eq "name [$v] exit" $rc 1
    grep -q '^--set:1:[0-9]*: error: ' "$TMP/name.err" && ok || fail "name [$v]: $(cat "$TMP/name.err")"
done
finish
