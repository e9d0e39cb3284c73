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
# --- text from input never reaches the terminal raw (util/escape.h): one corpus
# of ESC sequences (CSI, OSC with BEL), CR, a C1 CSI byte, its UTF-8 form,
# a byte that is no UTF-8, a comma and quotes, through every place that
# prints it. raw FILE...: fails when a file holds an ESC byte.
ESC=$(printf '\033')
raw() {
    for f; do
        grep -q "$ESC" "$f" && fail "a raw ESC in $(basename "$f"): $(cat -v "$f" | grep -m1 '\^\[')" || ok
    done
}
hostile_desc=$(printf 'evil\033[2J\033]0;pwned\007\rnode\233x\377\302\233, q')
hostile_shown='evil\\x1b\[2J\\x1b\]0;pwned\\x07\\x0dnode\\x9bx\\xff\\xc2\\x9b, q'
# verify: a NIC of the plan's topology with another GUID and the corpus as
# its NodeDescription is an unknown device, named in the text report, the
# JSON and the work order
TWO=$TOP_SRCDIR/tests/data/ib/two-plane.yaml
"$RAILYARD" opensm "$TWO" -o "$TMP/two" >/dev/null 2>&1 || fail "opensm on two-plane"
HOSTILE_DESC=$hostile_desc "$PY" - "$TMP/two/opensm/plane0/topology.net" "$TMP/evil.net" <<'P'
import os, sys
t = open(sys.argv[1], 'rb').read()
d = os.environb[b'HOSTILE_DESC']
t = t.replace(b'"node001 mlx5_0"', b'"' + d + b'"').replace(b'0002c90100000000', b'0c42a1aaaaaaaaaa')
open(sys.argv[2], 'wb').write(t)
P
grep -q "$ESC" "$TMP/evil.net" && ok || fail "the hostile fabric file holds no ESC"
run vtext "$RAILYARD" verify "$TWO" "$TMP/evil.net" --work-order "$TMP/wo.csv"
expect_eq "verify, hostile NodeDescription: exit (findings)" $rc 1
raw "$TMP/vtext.out" "$TMP/vtext.err" "$TMP/wo.csv"
grep -q "^  found:   $hostile_shown (0x" "$TMP/vtext.out" && ok \
    || fail "verify text: the description shown: $(grep found "$TMP/vtext.out" | cat -v)"
grep -q ",check unknown device,\"$hostile_shown\"\$" "$TMP/wo.csv" && ok \
    || fail "work order: the description shown: $(grep unknown "$TMP/wo.csv" | cat -v)"
"$PY" -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], newline=""))); assert len(r) == 3 and all(len(x) == 8 for x in r), r' \
    "$TMP/wo.csv" && ok || fail "the work order is no CSV of 3 rows of 8 fields"
run vjson "$RAILYARD" verify "$TWO" "$TMP/evil.net" --format json
raw "$TMP/vjson.out" "$TMP/vjson.err"
"$PY" -c 'import json, sys; v = json.load(open(sys.argv[1])); d = [x for x in v["findings"] if x["kind"] == "unknown-device"][0]["found"]["a"]["device"]; assert d.startswith("evil\\x1b[2J\\x1b]0;pwned\\x07\\x0dnode"), d' \
    "$TMP/vjson.out" && ok || fail "verify JSON: $(head -c 300 "$TMP/vjson.out")"
# an error naming a file named in the spec (libra.workload_file)
{ sed -n '/^libra:/q;p' "$TOP_SRCDIR/examples/libra-llm.yaml"; printf 'libra:\n  budget: 500\n  workload_file: "w\\e[31mred\\e]0;t\\a"\n'; } \
    >"$TMP/wesc.yaml"
run wesc "$RAILYARD" optimize "$TMP/wesc.yaml"
expect_eq "workload_file named with escapes: exit (I/O)" $rc 3
raw "$TMP/wesc.err"
grep -q 'w\\x1b\[31mred\\x1b\]0;t\\x07:1:1: error: cannot read' "$TMP/wesc.err" && ok \
    || fail "workload_file path shown: $(cat -v "$TMP/wesc.err")"
# usage errors that echo an argument
run uesc "$RAILYARD" validate "--bogus$hostile_desc"
expect_eq "unknown option with escapes: exit" $rc 2
raw "$TMP/uesc.err"
grep -q "$hostile_shown" "$TMP/uesc.err" && ok || fail "usage error: $(cat -v "$TMP/uesc.err")"
run uesc2 "$RAILYARD" "cmd$hostile_desc"
expect_eq "unknown command with escapes: exit" $rc 2
raw "$TMP/uesc2.err"
# diagnostics quoting a catalog file, and a catalog table printing one
mkdir "$TMP/escT"
printf 'nodes:\n  "k\\e[31m": {description: x}\n' >"$TMP/escT/nodes.yaml"
run cesc "$RAILYARD" -T "$TMP/escT" catalog nodes
expect_eq "catalog name with an escape: exit" $rc 1
raw "$TMP/cesc.err"
grep -q "node name 'k\\\\x1b\[31m' must be" "$TMP/cesc.err" && ok || fail "catalog name: $(cat -v "$TMP/cesc.err")"
printf 'nodes:\n  lab: {description: "d\\e[2J\\e]0;t\\a", gpus_per_node: 8, hb_domain: 8, nic_speed: NDR}\n' \
    >"$TMP/escT/nodes.yaml"
run cdesc "$RAILYARD" -T "$TMP/escT" catalog nodes
expect_eq "catalog description with escapes: exit" $rc 0
raw "$TMP/cdesc.out"
grep -q '^lab .*d\\x1b\[2J\\x1b\]0;t\\x07$' "$TMP/cdesc.out" && ok || fail "catalog table: $(grep lab "$TMP/cdesc.out" | cat -v)"

# --- CSV that other programs import keeps its text: a vendor starting with '-'
# and a description starting with '=' reach NetBox's CSV as they are (no
# apostrophe), and no device-type file name starts with '-'
mkdir "$TMP/nbT"
printf 'nodes:\n  lab-node: {description: "=HYPERLINK(1)", vendor: "-Acme", gpus_per_node: 8, hb_domain: 8, nic_speed: NDR}\n' \
    >"$TMP/nbT/nodes.yaml"
printf 'name: lab\ncluster: {nodes: 4, node: lab-node}\nfabric: {switch: qm9700}\n' >"$TMP/nb.yaml"
run nb "$RAILYARD" -T "$TMP/nbT" cabling "$TMP/nb.yaml" -o "$TMP/nb"
expect_eq "cabling with vendor -Acme: exit" $rc 0
got=$("$PY" -c 'import csv, sys; print([r for r in csv.DictReader(open(sys.argv[1]))][0]["name"])' \
    "$TMP/nb/cabling/netbox/04-manufacturers.csv")
expect_eq "NetBox manufacturer read back by Python's csv" "$got" "-Acme"
got=$("$PY" -c 'import csv, sys; print(sorted({r["manufacturer"] for r in csv.DictReader(open(sys.argv[1]))}))' \
    "$TMP/nb/cabling/netbox/07-devices.csv")
expect_eq "NetBox devices' manufacturers" "$got" "['-Acme', 'NVIDIA']"
got=$(ls "$TMP/nb/cabling/netbox/05-device-types" | tr '\n' ' ')
expect_eq "device-type files" "$got" "acme-lab-node.yaml nvidia-qm9700.yaml "
grep -rq "'-Acme\|'=" "$TMP/nb/cabling" && fail "an apostrophe guard in a CSV: $(grep -rl "'-Acme\|'=" "$TMP/nb/cabling")" || ok

# --- libxlsxwriter's own "[ERROR]" lines stay off stderr when $TMPDIR is
# full: one railyard error per workbook, exit 3 (needs a private mount)
if unshare -m true 2>/dev/null; then
    mkdir "$TMP/full"
    unshare -m sh -c 'mount -t tmpfs -o size=32k tmpfs "$1" && shift && TMPDIR=$0 "$@"' "$TMP/full" "$TMP/full" \
        "$RAILYARD" cabling "$TOP_SRCDIR/examples/superpod-4su.yaml" -o "$TMP/full-out" \
        >"$TMP/full.out" 2>"$TMP/full.err"
    expect_eq "cabling with a full TMPDIR: exit" $? 3
    grep -q '^\[ERROR\]' "$TMP/full.err" && fail "libxlsxwriter's lines leak: $(head -3 "$TMP/full.err")" || ok
    grep -q '^railyard: error: cannot write the workbook' "$TMP/full.err" && ok \
        || fail "full TMPDIR message: $(cat "$TMP/full.err")"
    [ -e "$TMP/full-out" ] && fail "a full TMPDIR left an output directory" || ok
else
    echo "full TMPDIR case skipped: no private mount namespace here"
fi
# --- LLDP tables, route dumps and search.vary: time linear in the input, and
# memory within the bytes per byte railyard(1) LIMITS states. A cap on the
# address space (100 MiB for the program, then the file's share) holds where
# LIMITS states a rate; under the sanitizers, whose shadow memory cannot live
# under a cap, the timeout alone.
# capped NAME KB CMD...: run under an address space of KB (kilobytes)
capped() {
    name=$1 kb=$2; shift 2
    if sanitized; then
        run "$name" "$@"
    else
        run "$name" sh -c 'ulimit -v "$0" && exec "$@"' "$kb" "$@"
    fi
}
kb_of() { echo $(( $(wc -c <"$1") / 1024 )); }
ETH=$TOP_SRCDIR/tests/data/eth/ro-2tier.yaml
# lldpcli's JSON: 30,000 documents of 4 interfaces (each interface's line
# once took a count from the file's start), and one document of 100,000
# interfaces by name (once Jansson's tree of it all, 25 bytes a byte). Every
# interface is cabled to one port "n e": the comparison stops at the second,
# so the time is the reader's.
mkdir "$TMP/lldp"
"$PY" - "$TMP/lldp" <<'P'
import sys
d = sys.argv[1]
nb = '{"chassis": {"n": {"id": {"value": "x"}}}, "port": {"id": {"value": "e"}}}'
doc = '{"lldp": {"interface": [\n %s\n]}}\n' % ",\n ".join('{"Ethernet%d": %s}' % (k, nb) for k in range(4))
open(d + "/docs.json", "w").write(doc * 30000)
body = ",\n".join('"Ethernet%d": %s' % (i, nb) for i in range(100000))
open(d + "/object.json", "w").write('{"lldp": {"interface": {\n%s\n}}}\n' % body)
# SONiC's table: 2,000,001 rows of 27 bytes (a row is at least 23)
with open(d + "/rows.txt", "w") as f:
    f.write("LocalPort  RemoteDevice  RemotePortID  Capability  RemotePortDescr\n")
    f.write("---------  ------------  ------------  ----------  ---------------\n")
    f.write("E" + " " * 24 + "p\n" + ("E" + " " * 24 + "q\n") * 2000000)
P
for f in docs.json object.json rows.txt; do
    # LIMITS: 2 bytes a byte for either format
    capped "lldp-$f" $((102400 + 2 * $(kb_of "$TMP/lldp/$f"))) "$RAILYARD" verify "$ETH" "$TMP/lldp/$f"
    expect_eq "LLDP $f: exit (bad input: one port cabled twice)" $rc 2
    grep -q "^$TMP/lldp/$f:[34]:1: error: .* is seen cabled to .* in an earlier entry" "$TMP/lldp-$f.err" \
        && ok || fail "LLDP $f: $(head -c 300 "$TMP/lldp-$f.err")"
done
rm -f "$TMP/lldp"/*
# the size limit, 64 MiB, before a byte is read (it once read 128 MiB)
printf '{' >"$TMP/lldp/big.json"
truncate -s $((65 * 1024 * 1024)) "$TMP/lldp/big.json"
capped lldp-big $((102400 + 16384)) "$RAILYARD" verify "$ETH" "$TMP/lldp/big.json"
expect_eq "LLDP of 65 MiB: exit (bad input)" $rc 2
grep -q "^$TMP/lldp/big.json: error: larger than 64 MiB; not an LLDP table$" "$TMP/lldp-big.err" \
    && ok || fail "LLDP of 65 MiB: $(cat "$TMP/lldp-big.err")"
truncate -s $((64 * 1024 * 1024)) "$TMP/lldp/big.json"
run lldp-64 "$RAILYARD" verify "$ETH" "$TMP/lldp/big.json"
expect_eq "LLDP of 64 MiB: exit" $rc 2
grep -q 'larger than' "$TMP/lldp-64.err" && fail "LLDP of exactly 64 MiB refused for its size" || ok
rm -f "$TMP/lldp/big.json"
# ip -j route show: 1,000,000 routes in leaf0's table (once Jansson's tree
# of them all, 18 bytes a byte); the other tables empty
"$RAILYARD" ethernet "$ETH" -o "$TMP/ethplan" >/dev/null 2>&1 || fail "ethernet on $ETH"
mkdir "$TMP/routes"
for sw in $(ls "$TMP/ethplan/ethernet/switches"); do echo '[]' >"$TMP/routes/$sw.json"; done
"$PY" -c '
import sys
r = ("{\"dst\":\"10.%d.%d.%d/32\",\"dev\":\"E\"}" % (i >> 16, (i >> 8) & 255, i & 255) for i in range(1000000))
open(sys.argv[1], "w").write("[" + ",".join(r) + "]")' "$TMP/routes/leaf0.json"
# LIMITS: 7 bytes a byte at most
capped routes $((102400 + 7 * $(kb_of "$TMP/routes/leaf0.json"))) \
    "$RAILYARD" ethernet "$ETH" --check-routes "$TMP/routes"
expect_eq "1,000,000 routes: exit (the plan's routes missing)" $rc 5
grep -q '^eth-ro: 12 switch tables, 824 routes planned: 0 agree, 824 missing' "$TMP/routes.out" \
    && ok || fail "1,000,000 routes: $(head -c 300 "$TMP/routes.out") $(head -c 300 "$TMP/routes.err")"
rm -rf "$TMP/routes" "$TMP/ethplan"
# search.vary: one key of 4,096 values (the most), each loaded on the spec by
# itself, once a check of every pair of values in each of the 4,096 loads. A
# catalog of no nodes and no switches keeps the loads to the spec's own work.
mkdir "$TMP/vT"
printf 'replace: true\nnodes: {}\n' >"$TMP/vT/nodes.yaml"
printf 'replace: true\nswitches: {}\n' >"$TMP/vT/switches.yaml"
cat >"$TMP/vary.yaml" <<'Y'
name: vary-4096
cluster: {gpus: 64, node: {name: n8, gpus_per_node: 8, hb_domain: 8, nic_speed: NDR}}
fabric: {switch: {name: s64, radix: 64}}
search:
  vary: {x-a: [1..4096+1]}
Y
run vary "$RAILYARD" -q -T "$TMP/vT" validate "$TMP/vary.yaml"
expect_eq "search.vary of 4,096 values: validate exit" $rc 0
sed 's/1\.\.4096+1/1..4095+1, 17/' "$TMP/vary.yaml" >"$TMP/vary2.yaml"
run vary2 "$RAILYARD" -q -T "$TMP/vT" validate "$TMP/vary2.yaml"
expect_eq "search.vary of 4,096 values, one twice: exit" $rc 1
grep -q "vary2.yaml:5:27: error: search.vary.x-a: the value '17' is given twice" "$TMP/vary2.err" \
    && ok || fail "search.vary, a value twice: $(cat "$TMP/vary2.err")"
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
