#!/bin/sh
# Benchmark, not part of make check: OpenSM's ftree routing against railyard's
# own routing tables.
#  1. A 4,096-GPU rail-optimized fabric of radix-64 switches (3 tiers, 320
#     switches): "railyard opensm" writes the subnet; ibsim loads its
#     topology.net; "opensm -o -R ftree" routes it. Prints both times, the
#     OpenSM phases read from its log timestamps, and the ratio. Then
#     "opensm -o -R file -U lfts.dump" loads railyard's tables, for scale.
#     And railyard's route computation alone (every table built in memory,
#     nothing written: tests/bench/reroute_bench) against OpenSM's ftree
#     ranking + routing phases, in the same run.
#  2. "railyard opensm" alone on a 32,768-GPU rail-optimized radix-64 spec
#     (2,560 switches, about 35,000 LIDs): time, peak RSS, bytes written,
#     LFT entries (switches x LIDs) per second. The output is deleted.
#
# usage: opensm-vs-railyard.sh [RAILYARD [REROUTE_BENCH]]   (make bench-opensm runs it)
# Needs opensm, ibsim-utils and infiniband-diags, GNU time at /usr/bin/time,
# and about 4 GB free under $TMPDIR for step 2.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TOP_SRCDIR:=$top}"
RAILYARD=${1:-${RAILYARD:-$top/railyard}}
REROUTE_BENCH=${2:-$(dirname "$RAILYARD")/tests/bench/reroute_bench}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/railyard-bench.XXXXXX")
IB_OSM_TIMEOUT=900
IB_SIM_TIMEOUT=300
. "$TOP_SRCDIR/tests/ibsim/lib.sh"

missing=$(ib_tools_missing)
if [ -n "$missing" ]; then
    echo "bench-opensm: not installed: $missing" >&2
    exit 77
fi
[ -x /usr/bin/time ] || { echo "bench-opensm: needs GNU time (/usr/bin/time)" >&2; exit 77; }
[ -x "$RAILYARD" ] || { echo "bench-opensm: no railyard at $RAILYARD" >&2; exit 2; }

# timed OUT CMD...: run CMD, "seconds peak-RSS-KB" into OUT.
timed() {
    _o=$1; shift
    /usr/bin/time -f '%e %M' -o "$_o" "$@"
}

# calc EXPR: floating-point arithmetic.
calc() {
    awk "BEGIN { printf \"%.2f\", $1 }"
}

# phases LOG: OpenSM's phases from its log timestamps (Mon DD HH:MM:SS usec):
#   discovery   first line .. Entering MASTER state (the heavy sweep)
#   setup       .. fabric_dump_general_info (LID assignment, ftree's fabric
#               construction and ranking)
#   routing     .. "<engine> tables configured" (the engine's LFTs computed,
#               their SubnSet(LinearForwardingTable) MADs queued)
#   programming .. SUBNET UP (the MADs answered)
# Prints the four in seconds, "?" where a mark is missing (only ftree logs
# fabric_dump_general_info; for other engines setup+routing is the third).
phases() {
    "$PY" - "$1" <<'EOF'
import re, sys
ts = {}
marks = [("start", "OpenSM"), ("master", "Entering MASTER state"), ("ranked", "fabric_dump_general_info"),
         ("routed", "tables configured on all switches"), ("up", "SUBNET UP")]
r = re.compile(r"^\w+ +\d+ (\d+):(\d+):(\d+) (\d+) ")
for line in open(sys.argv[1], errors="replace"):
    m = r.match(line)
    if not m:
        continue
    t = (int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
         + int(m.group(4)) / 1e6)
    for k, s in marks:
        if k not in ts and s in line:
            ts[k] = t
def span(a, b):
    if a in ts and b in ts:
        d = ts[b] - ts[a]
        return "%.2f" % (d + 86400 if d < 0 else d)
    return "?"
if "ranked" in ts:
    print(span("start", "master"), span("master", "ranked"), span("ranked", "routed"),
          span("routed", "up"))
else:
    print(span("start", "master"), "-", span("master", "routed"), span("routed", "up"))
EOF
}

echo "== 1. 4,096 GPUs, rail-optimized, radix 64: OpenSM ftree on ibsim vs railyard opensm"
spec=$TMP/bench-4096.yaml
cat >"$spec" <<'EOF'
name: bench-4096
cluster:
  gpus: 4096
  node: dgx-h100
fabric:
  design: rail-optimized
  switch: {name: radix64, radix: 64, speed: 400G}
EOF
timed "$TMP/ry.time" "$RAILYARD" opensm "$spec" -o "$TMP/ry4k" >"$TMP/ry4k.out" 2>&1 ||
    { echo "railyard opensm failed:"; cat "$TMP/ry4k.out"; exit 1; }
read -r ry_s ry_kb <"$TMP/ry.time"
sub=$(ls -d "$TMP/ry4k/opensm"/*/ | head -n 1)
sub=${sub%/}
nsw=$(grep -c '^Switch' "$sub/topology.net")
nca=$(grep -cE '^(Ca|Hca)[[:space:]]' "$sub/topology.net")
echo "subnet $(basename "$sub"): $nsw switches, $nca CAs; ibsim $(ib_sim_size_args "$sub/topology.net")"
printf 'railyard opensm (whole command, every file): %s s, peak RSS %s KB\n' "$ry_s" "$ry_kb"

t0=$(date +%s.%N)
ib_sim_start "$sub/topology.net" "$TMP/sim" || exit 1
t1=$(date +%s.%N)
printf 'ibsim load: %s s\n' "$(calc "$t1 - $t0")"

# -D 0x03 (errors and info, no dumps): the dumps of a fabric this size are
# over 100 MB and would be timed with the routing.
mkdir -p "$TMP/osm-ftree/cache"
OSM_CACHE_DIR=$TMP/osm-ftree/cache timed "$TMP/osm.time" timeout "$IB_OSM_TIMEOUT" \
    env -u LD_PRELOAD ibsim-run opensm -o -e -f "$TMP/osm-ftree/osm.log" -D 0x03 \
    -R ftree -a "$sub/root_guids.conf" -u "$sub/cn_guids.conf" \
    >"$TMP/osm-ftree/opensm.out" 2>&1 </dev/null
rc=$?
read -r osm_s osm_kb <"$TMP/osm.time"
eng=$(ib_engine "$TMP/osm-ftree/osm.log")
printf 'opensm -o -R ftree: %s s, peak RSS %s KB, exit %s, engine %s\n' "$osm_s" "$osm_kb" "$rc" "${eng:-none}"
read -r ph_disc ph_setup routing ph_prog <<EOF
$(phases "$TMP/osm-ftree/osm.log")
EOF
printf '  from its log: discovery %s s, LIDs + ftree ranking %s s, ftree routing %s s, LFT programming %s s\n' \
    "$ph_disc" "$ph_setup" "$routing" "$ph_prog"
ib_fallback "$TMP/osm-ftree/osm.log" | head -n 3

mkdir -p "$TMP/osm-file/cache"
OSM_CACHE_DIR=$TMP/osm-file/cache timed "$TMP/osmf.time" timeout "$IB_OSM_TIMEOUT" \
    env -u LD_PRELOAD ibsim-run opensm -o -e -f "$TMP/osm-file/osm.log" -D 0x03 \
    -R file -U "$sub/lfts.dump" >"$TMP/osm-file/opensm.out" 2>&1 </dev/null
read -r osmf_s osmf_kb <"$TMP/osmf.time"
printf 'opensm -o -R file -U lfts.dump (railyard tables): %s s, engine %s\n' \
    "$osmf_s" "$(ib_engine "$TMP/osm-file/osm.log")"
read -r f_disc _ f_route f_prog <<EOF
$(phases "$TMP/osm-file/osm.log")
EOF
printf '  from its log: discovery %s s, LIDs + loading the file %s s, LFT programming %s s\n' \
    "$f_disc" "$f_route" "$f_prog"
ib_dump_lfts "$TMP/live.fts" "$TMP/osm-file/cache/guid2lid"
printf '  switch LFTs read back (dump_fts) against lfts.dump: %s\n' \
    "$(ib_lft_diff "$sub/lfts.dump" "$TMP/live.fts" | head -n 4)"
ib_sim_stop

# a run under 10 ms reads as 0.00 from time(1)
ry_d=$(calc "($ry_s < 0.01) ? 0.01 : $ry_s")
echo "ratio: OpenSM ftree (whole run) / railyard opensm = $(calc "$osm_s / $ry_d")"
# route computation alone: the best of 5 builds of every table in memory
if [ -x "$REROUTE_BENCH" ]; then
    "$REROUTE_BENCH" "$spec" 4096 5 >"$TMP/rr.out" 2>&1 ||
        { echo "reroute_bench failed:"; cat "$TMP/rr.out"; exit 1; }
    rt=$(sed -n 's/^full_route_s //p' "$TMP/rr.out")
    printf 'railyard route computation alone (tables in memory, best of 5): %s s\n' "$rt"
    case $ph_setup$routing in
    *'?'*|*-*) echo "ratio: OpenSM ftree ranking + routing / railyard routing: no phases in the log" ;;
    *)
        # calc rounds to 0.01: divide in one expression
        printf 'ratio: OpenSM ftree ranking + routing (%s s + %s s) / railyard routing (%s s) = %s\n' \
            "$ph_setup" "$routing" "$rt" \
            "$(calc "($ph_setup + $routing) / (($rt < 0.0001) ? 0.0001 : $rt)")" ;;
    esac
else
    echo "(no $REROUTE_BENCH: make tests/bench/reroute_bench for the routing-alone ratio)"
fi
case $routing in
''|'?') ;;
*) echo "ratio: OpenSM ftree routing alone / railyard opensm = $(calc "$routing / $ry_d")" ;;
esac
rm -rf "$TMP/ry4k" "$TMP/osm-ftree" "$TMP/osm-file" "$TMP/live.fts"

echo
echo "== 2. railyard opensm, 32,768 GPUs, rail-optimized, radix 64"
timed "$TMP/ry32.time" "$RAILYARD" opensm --set cluster.gpus=32768 "$spec" \
    -o "$TMP/ry32k" >"$TMP/ry32k.out" 2>&1 ||
    { echo "railyard opensm failed:"; cat "$TMP/ry32k.out"; exit 1; }
read -r s kb <"$TMP/ry32.time"
bytes=$(du -sb "$TMP/ry32k" | cut -f 1)
lftb=$(cat "$TMP/ry32k"/opensm/*/lfts.dump | wc -c)
# entries = sum over subnets of switches x LIDs of the subnet
entries=0 sws=0 lids=0
for d in "$TMP/ry32k"/opensm/*/; do
    n=$(grep -c '^Switch' "$d/topology.net")
    l=$(grep -c '^0x' "$d/guid2lid")
    sws=$((sws + n)) lids=$((lids + l))
    entries=$((entries + n * l))
done
printf '%s switches, %s LIDs, %s LFT entries\n' "$sws" "$lids" "$entries"
printf 'time %s s, peak RSS %s KB, %s bytes written (lfts.dump %s)\n' "$s" "$kb" "$bytes" "$lftb"
printf 'LFT entries per second: %s\n' "$(awk "BEGIN { printf \"%.0f\", $entries / (($s < 0.01) ? 0.01 : $s) }")"
rm -rf "$TMP/ry32k"
