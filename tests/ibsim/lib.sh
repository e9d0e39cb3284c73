# Helpers to run the real OpenSM on the ibsim simulator. Sourced by POSIX sh
# scripts after tests/lib.sh (or standalone: set PY and TMP first).
#
#   ib_tools_missing          names of the missing programs, empty if all there
#   ib_sim_start NET DIR      start a private ibsim on NET, log in DIR/ibsim.log
#   ib_sim_stop               stop it (also done on exit)
#   ib_opensm DIR ARGS...     run "opensm -o" once against it, log DIR/osm.log,
#                             dumps in DIR, LID cache DIR/cache
#   ib_run TOOL ARGS...       run an infiniband-diags tool against it
#   ib_dump_lfts OUT          read every switch's LFT back (dump_fts format)
#   ib_engine LOG             the engine that configured the tables ("ftree", ...)
#   ib_fallback LOG           print the log lines that show a fallback or error
#   ib_lft_diff A B           compare two LFT files (OpenSM dump or dump_fts)
#   ib_route_stats NET LFT    trace every CA-to-CA route; balance figures (JSON)
#
# Each simulator gets its own IBSIM_SOCKNAME so parallel runs and other users
# of the machine never meet; each OpenSM run gets its own OSM_CACHE_DIR so
# nothing is read from or written to /var/cache/opensm. ibsim runs with -n (no
# console): with a console and stdin at EOF it spins at 100% CPU.

: "${PY:=/usr/bin/python3}"
: "${IB_OSM_TIMEOUT:=120}"      # seconds for one opensm -o run
: "${IB_SIM_TIMEOUT:=120}"      # seconds for ibsim to load a netfile
IB_SIM_PID=
IB_SIM_N=0

ib_cleanup() {
    ib_sim_stop
}
# tests/lib.sh removes $TMP on exit; stop the simulator first.
trap 'ib_cleanup; rm -rf "${TMP:-/nonexistent}"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# opensm and the diags live in /usr/sbin, which is not in every user's PATH
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH=$PATH:/usr/sbin; export PATH ;; esac

ib_tools_missing() {
    _m=
    for _t in ibsim ibsim-run opensm dump_fts smpdump smpquery timeout; do
        command -v "$_t" >/dev/null 2>&1 || _m="$_m $_t"
    done
    [ -r /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so ] || \
        ls /usr/lib/*/umad2sim/libumad2sim.so >/dev/null 2>&1 || \
        _m="$_m libumad2sim.so"
    printf '%s' "${_m# }"
}

# The ibsim size options a netfile needs: -N nodes, -S switches, -P ports
# (a switch uses nports+1, a CA nports), each at least the built-in default,
# and -L when the LIDs preset in the netfile pass ibsim 0.10's LFT cap.
ib_sim_size_args() {
    awk '
    /^Switch[ \t]/ { s++; n++; p += $2 + 1 }
    /^(Ca|Hca|Rt)[ \t]/ { n++; p += $2 }
    {
        while (match($0, /lid [0-9]+/)) {
            l = substr($0, RSTART + 4, RLENGTH - 4) + 0
            if (l > maxlid) maxlid = l
            $0 = substr($0, RSTART + RLENGTH)
        }
    }
    END {
        N = 2048; S = 256; P = 13312; L = 30720
        if (n + 16 > N) N = n + 16
        if (s + 16 > S) S = s + 16
        if (p + 64 > P) P = p + 64
        printf "-N %d -S %d -P %d", N, S, P
        if (maxlid + 64 > L) printf " -L %d", (int((maxlid + 64) / 64) + 1) * 64
        printf "\n"
    }' "$1"
}

# The node id (the quoted name after Ca/Hca) of the first CA in a netfile.
ib_first_ca() {
    sed -n 's/^\(Ca\|Hca\)[ \t][ \t]*[0-9][0-9]*[ \t][ \t]*"\([^"]*\)".*/\2/p' "$1" | head -n 1
}

# ib_sim_start NETFILE DIR [SIM_HOST]
# Starts ibsim in the background and waits until it has loaded the fabric.
# Exports IBSIM_SOCKNAME and SIM_HOST (default: the first CA) for ib_run and
# ib_opensm. Returns non-zero, with the log shown, if ibsim dies or hangs.
ib_sim_start() {
    ib_sim_stop
    IB_SIM_N=$((IB_SIM_N + 1))
    IBSIM_SOCKNAME=ry$$s$IB_SIM_N
    SIM_HOST=${3:-$(ib_first_ca "$1")}
    export IBSIM_SOCKNAME SIM_HOST
    mkdir -p "$2"
    IB_SIM_LOG=$2/ibsim.log
    # shellcheck disable=SC2046
    ibsim -s -n $(ib_sim_size_args "$1") "$1" >"$IB_SIM_LOG" 2>&1 </dev/null &
    IB_SIM_PID=$!
    _i=0
    while ! grep -q 'MaxMcastCap' "$IB_SIM_LOG" 2>/dev/null; do
        if ! kill -0 "$IB_SIM_PID" 2>/dev/null; then
            wait "$IB_SIM_PID" 2>/dev/null
            IB_SIM_PID=
            printf 'ibsim died loading %s:\n' "$1" >&2
            tail -n 5 "$IB_SIM_LOG" | sed 's/^/    /' >&2
            return 1
        fi
        _i=$((_i + 1))
        if [ "$_i" -gt $((IB_SIM_TIMEOUT * 10)) ]; then
            printf 'ibsim did not become ready on %s\n' "$1" >&2
            ib_sim_stop
            return 1
        fi
        sleep 0.1
    done
    # ibsim prints the fabric before it binds its sockets; a client that
    # comes earlier is refused and umad2sim sleeps 2 s before it tries
    # again. Wait for the control socket (an abstract one, listed in
    # /proc/net/unix as @NAME:ctl) where that list can be read.
    if [ -r /proc/net/unix ]; then
        _i=0
        while ! grep -q "@$IBSIM_SOCKNAME:ctl" /proc/net/unix 2>/dev/null &&
              kill -0 "$IB_SIM_PID" 2>/dev/null && [ "$_i" -lt 50 ]; do
            _i=$((_i + 1))
            sleep 0.1
        done
    fi
    return 0
}

ib_sim_stop() {
    if [ -n "$IB_SIM_PID" ]; then
        kill "$IB_SIM_PID" 2>/dev/null
        wait "$IB_SIM_PID" 2>/dev/null
        IB_SIM_PID=
    fi
    return 0
}

# ib_run TOOL ARGS...: a client of the running simulator. ibsim-run breaks
# when LD_PRELOAD is already set (sanitizer runtimes), so clear it.
ib_run() {
    env -u LD_PRELOAD ibsim-run "$@"
}

# ib_dump_lfts OUT [GUID2LID]: every switch's unicast LFT, read back from the
# switches, in dump_fts format. dump_fts (infiniband-diags 44) reads LFT blocks up to
# ALIGN(LinearFdbTop, 64) / 64 exclusive, so when the top LID is a multiple
# of 64 its entry is never read; that block is then read with smpdump
# (SubnGet(LinearForwardingTable) on the switch's directed route) and the
# entry added to the switch's list, with its port GUID when GUID2LID (OpenSM's
# cache after the run) names the port that holds the LID.
# dump_fts 44 also holds the LFT in a plain char (dump_fts.c, dump_lid's
# caller in rdma-core v44.0): an out port of 128 or more reads negative, is
# taken for "illegal port" and dropped, so a switch of 128 ports or more
# would show routes missing that it holds. dump_fts runs with -a (every
# entry, the true port number beside "(illegal port)"), and a switch with
# such an entry on a port below 255 is read again with ibroute, which holds
# the table as uint8_t (ibroute.c, v44.0); the remaining "(illegal port)"
# entries (255, no route) are dropped as dump_fts drops them without -a.
ib_dump_lfts() {
    ib_run dump_fts -a >"$1.raw" 2>"$1.err" || return 1
    "$PY" - "$1.raw" "$1" ${2:+"$2"} <<'EOF'
import os, re, subprocess, sys
owner = {}
if len(sys.argv) > 3 and os.path.exists(sys.argv[3]):
    for l in open(sys.argv[3]):
        t = l.split()
        if len(t) >= 3 and t[0].startswith("0x"):
            for lid in range(int(t[1], 16), int(t[2], 16) + 1):
                owner[lid] = int(t[0], 16)
HDR = re.compile(r"Unicast lids \[0x[0-9a-f]+-(0x[0-9a-f]+)\] of switch DR path "
                 r"slid \d+; dlid \d+; ([0-9,]+) guid")
env = dict(os.environ)
env.pop("LD_PRELOAD", None)
out, pending = [], None

def flush():
    # the top LID's entry, read from the switch itself
    global pending
    if pending is None:
        return
    top, path = pending
    pending = None
    r = subprocess.run(["ibsim-run", "smpdump", "-D", path, "0x19", str(top // 64)],
                       env=env, capture_output=True, text=True)
    hexs = "".join(w for l in r.stdout.splitlines() if not l.startswith("SMP")
                   for w in l.split())
    if r.returncode != 0 or len(hexs) < 128:
        sys.stderr.write("smpdump of LFT block %d at %s failed\n" % (top // 64, path))
        sys.exit(1)
    port = int(hexs[2 * (top % 64):2 * (top % 64) + 2], 16)
    if port != 0xff:
        g = (" portguid 0x%016x:" % owner[top]) if top in owner else ""
        out.append("0x%04x %03u : (read with smpdump%s)\n" % (top, port, g))

ILLEGAL = re.compile(r"0x[0-9a-f]+ (\d+) : \((?:path #\d+ - )?illegal port\)")

def switch_blocks(lines):
    """dump_fts -a output, each switch's block read again with ibroute when
    it holds a port of 128 .. 254 that dump_fts took for illegal."""
    block, path = [], None
    for line in lines + [None]:
        m = HDR.match(line) if line is not None else None
        if m or line is None or "lids dumped" in line:
            if path and any((lambda e: e and 128 <= int(e.group(1)) < 255)(ILLEGAL.match(l))
                            for l in block):
                r = subprocess.run(["ibsim-run", "ibroute", "-D", path], env=env,
                                   capture_output=True, text=True)
                if r.returncode != 0 or not HDR.match(r.stdout):
                    sys.stderr.write("ibroute -D %s failed: %s\n" % (path, r.stdout + r.stderr))
                    sys.exit(1)
                block = [l + "\n" for l in r.stdout.splitlines() if "lids dumped" not in l]
            yield from (l for l in block if not ILLEGAL.match(l))
            block, path = [], (m.group(2) if m else None)
            if line is not None and not m:
                yield line
                continue
        if line is not None:
            block.append(line)

for line in switch_blocks(open(sys.argv[1]).readlines()):
    m = HDR.match(line)
    if m:
        flush()
        top = int(m.group(1), 16)
        if top and top % 64 == 0:
            pending = (top, m.group(2))
    elif "lids dumped" in line:
        flush()
    out.append(line)
flush()
open(sys.argv[2], "w").writelines(out)
EOF
}

# ib_opensm DIR ARGS...: one "opensm -o" run (route once, exit at SUBNET UP),
# log mask ERROR|INFO|ROUTING so the dumps (opensm-lfts.dump, ...) are
# written to DIR. The LID cache is DIR/cache: empty unless the caller put a
# guid2lid there. Returns opensm's exit status (124 on timeout).
ib_opensm() {
    _d=$1; shift
    mkdir -p "$_d/cache"
    OSM_CACHE_DIR=$_d/cache timeout -k 5 "$IB_OSM_TIMEOUT" \
        env -u LD_PRELOAD ibsim-run opensm -o -e -f "$_d/osm.log" -D 0x43 \
        --dump_files_dir "$_d" "$@" >"$_d/opensm.out" 2>&1 </dev/null
}

# ib_engine LOG: the routing engines that configured the tables, e.g. "ftree".
ib_engine() {
    sed -n 's/.*osm_ucast_mgr_process: \([A-Za-z0-9_]*\) tables configured on all switches.*/\1/p' \
        "$1" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# ib_fallback LOG: print the lines that show a fallback, a routing failure or
# an ftree/file engine error; status 0 if there are any.
ib_fallback() {
    grep -iE 'falling back|Fabric topology is not a fat-tree|cannot build (fwd tables|lid matrices)|No routing engine able|ERR AB|ERR 63|PARSE ERROR|Invalid port|RAN OUT OF LIDS' "$1"
}

# ib_subnet_up LOG: status 0 if the log says SUBNET UP.
ib_subnet_up() {
    grep -q 'SUBNET UP' "$1"
}

# ib_lft_diff A B: parse two unicast LFT files, each either an OpenSM dump
# (opensm-lfts.dump, railyard's lfts.dump) or dump_fts/ibroute output, into
# (switch GUID, LID) -> port and compare. Prints a summary and the first
# differences; status 0 if the tables are equal.
ib_lft_diff() {
    "$PY" - "$1" "$2" <<'EOF'
import re, sys

HDR = re.compile(r"guid 0x([0-9a-fA-F]+)\s")
ENT = re.compile(r"0x([0-9a-fA-F]+)\s+([0-9]+)\s")

def load(path):
    """(switch guid, lid) -> port, read the way OpenSM's file engine reads."""
    lft, sw = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            t = line.lstrip()
            if t.startswith("Unicast lids"):
                m = HDR.search(t)
                sw = int(m.group(1), 16) if m else None
                if sw is not None:
                    lft.setdefault(sw, {})
            elif t.startswith("0x") and sw is not None:
                m = ENT.match(t)
                if m and int(m.group(2)) != 255:
                    lft[sw][int(m.group(1), 16)] = int(m.group(2))
    return lft

a, b = load(sys.argv[1]), load(sys.argv[2])
diffs = []
for sw in sorted(set(a) | set(b)):
    if sw not in a or sw not in b:
        diffs.append("switch 0x%016x only in %s"
                     % (sw, sys.argv[1] if sw in a else sys.argv[2]))
        continue
    ta, tb = a[sw], b[sw]
    for lid in sorted(set(ta) | set(tb)):
        pa, pb = ta.get(lid, "-"), tb.get(lid, "-")
        if pa != pb:
            diffs.append("switch 0x%016x lid 0x%04x: port %s vs %s"
                         % (sw, lid, pa, pb))
print("%d switches, %d entries vs %d switches, %d entries: %d differences"
      % (len(a), sum(map(len, a.values())), len(b),
         sum(map(len, b.values())), len(diffs)))
for d in diffs[:10]:
    print("    " + d)
sys.exit(1 if diffs or not a else 0)
EOF
}

# ib_route_stats NETFILE LFT [GUID2LID]: trace every CA-to-CA route of an
# LFT file (OpenSM dump or dump_fts) through the links of an ibsim netfile and
# print one JSON object:
#   cas, pairs, delivered, failures[]        -- every route must be delivered
#   tiers: {"leaf>spine": {links,max,min,mean}, ...}
#          routes (source CA, destination LID) per directed switch-to-switch
#          cable in all-to-all, per tier and direction; tier 1 = leaves
#   shift_worst, shift_k: the most flows on one link for a shift permutation
#          (CA i sends to the base LID of CA i+k, CAs in LID order), worst
#          over all k
# A CA with LMC m is the destination of its 2^m LIDs. Base LIDs come from the
# portguid annotations of the LFT file, else from GUID2LID (OpenSM cache
# format), else from the "lid N" comments of the netfile; the LMC from the
# netfile's "lmc N".
ib_route_stats() {
    "$PY" - "$@" <<'EOF'
import json, re, sys
from collections import Counter

net, lftf = sys.argv[1], sys.argv[2]
g2l = sys.argv[3] if len(sys.argv) > 3 else None

# ---- netfile: nodes, GUIDs, links, preset LIDs
node_kind, node_guid, node_lid, link = {}, {}, {}, {}
guidset = {"switchguid": None, "caguid": None}
cur = None
hdr = re.compile(r'^(Switch|Ca|Hca|Rt)\s+(\d+)\s+"([^"]+)"(.*)$')
port = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"(?:\[(\d+)\])?(.*)$')
lidre = re.compile(r'\blid (\d+)')
lmcre = re.compile(r'\blid \d+ lmc (\d+)')
node_lmc = {}
with open(net) as f:
    for line in f:
        line = line.rstrip("\n")
        m = re.match(r'^(switchguid|caguid|hcaguids)=(0x[0-9a-fA-F]+)', line)
        if m:
            guidset["switchguid" if m.group(1) == "switchguid" else "caguid"] = int(m.group(2), 16)
            continue
        m = hdr.match(line)
        if m:
            kind = "sw" if m.group(1) == "Switch" else "ca"
            cur = m.group(3)
            node_kind[cur] = kind
            node_guid[cur] = guidset["switchguid" if kind == "sw" else "caguid"]
            guidset["switchguid" if kind == "sw" else "caguid"] = None
            if kind == "sw":
                l = lidre.search(m.group(4))
                if l:
                    node_lid[cur] = int(l.group(1))
            continue
        m = port.match(line)
        if m and cur is not None:
            lp, rid, rp = int(m.group(1)), m.group(2), int(m.group(3) or 1)
            link[(cur, lp)] = (rid, rp)
            if node_kind[cur] == "ca" and cur not in node_lid:
                l = lidre.search(m.group(4))
                if l:
                    node_lid[cur] = int(l.group(1))
                l = lmcre.search(m.group(4))
                node_lmc[cur] = int(l.group(1)) if l else 0
            continue
        if not line.startswith("["):
            cur = None if not line.strip() else cur

# port GUID -> node id: switch port GUID = node GUID; CA port 1 = node + 1
byguid = {}
for n, g in node_guid.items():
    if g is None:
        continue
    byguid[g if node_kind[n] == "sw" else g + 1] = n
sw_by_guid = {g: n for n, g in node_guid.items() if node_kind[n] == "sw" and g is not None}

lid_of = dict(node_lid)
if g2l:
    with open(g2l) as f:
        for line in f:
            t = line.split()
            if len(t) >= 2 and t[0].startswith("0x") and int(t[0], 16) in byguid:
                lid_of[byguid[int(t[0], 16)]] = int(t[1], 16)

# ---- LFT file
H = re.compile(r"guid 0x([0-9a-fA-F]+)\s")
E = re.compile(r"0x([0-9a-fA-F]+)\s+([0-9]+)\s")
PG = re.compile(r"portguid 0x([0-9a-fA-F]+)")
lft, sw = {}, None
annot = {}
with open(lftf, errors="replace") as f:
    for line in f:
        t = line.lstrip()
        if t.startswith("Unicast lids"):
            m = H.search(t)
            sw = sw_by_guid.get(int(m.group(1), 16)) if m else None
            if sw is not None:
                lft.setdefault(sw, {})
        elif t.startswith("0x") and sw is not None:
            m = E.match(t)
            if not m:
                continue
            lid, p = int(m.group(1), 16), int(m.group(2))
            if p != 255:
                lft[sw][lid] = p
            g = PG.search(t)
            if g and int(g.group(1), 16) in byguid:
                n = byguid[int(g.group(1), 16)]
                annot[n] = min(lid, annot.get(n, lid))
lid_of.update(annot)

cas = sorted((n for n in node_kind if node_kind[n] == "ca" and n in lid_of),
             key=lambda n: lid_of[n])
ca_by_lid = {lid_of[n]: n for n in cas}

# ---- switch tiers: 1 for switches with a CA, then BFS upwards
tier = {}
front = []
for (n, p), (r, rp) in link.items():
    if node_kind.get(n) == "sw" and node_kind.get(r) == "ca" and n not in tier:
        tier[n] = 1
        front.append(n)
while front:
    nxt = []
    for n in front:
        for (a, p), (r, rp) in link.items():
            if a == n and node_kind.get(r) == "sw" and r not in tier:
                tier[r] = tier[n] + 1
                nxt.append(r)
    front = nxt
names = {1: "leaf", 2: "spine", 3: "core"}
tname = lambda t: names.get(t, "t%d" % t)

# ---- trace every pair
def trace(src, dst, dlid):
    n, p = link.get((src, 1), (None, None))
    hops = []
    for _ in range(64):
        if n is None:
            return None, "dead link"
        if node_kind[n] == "ca":
            return (hops, None) if n == dst else (None, "delivered to %s" % n)
        out = lft.get(n, {}).get(dlid)
        if out is None:
            return None, "no route at %s" % n
        if out == 0:
            return None, "port 0 at %s" % n
        r = link.get((n, out))
        if r is None:
            return None, "down port %d at %s" % (out, n)
        if node_kind[r[0]] == "sw":
            hops.append((n, out))
        n, p = r
    return None, "loop"

paths = {}
fails = []
use = Counter()
routes = delivered = 0
for s in cas:
    for d in cas:
        if s == d:
            continue
        for dlid in range(lid_of[d], lid_of[d] + (1 << node_lmc.get(d, 0))):
            routes += 1
            h, err = trace(s, d, dlid)
            if err:
                if len(fails) < 10:
                    fails.append("%s -> %s (lid %d): %s" % (s, d, dlid, err))
                continue
            delivered += 1
            use.update(h)
            if dlid == lid_of[d]:
                paths[(s, d)] = h
# every directed switch-to-switch cable (switch, out port), used or not
tiers = {}
for (n, p), (r, rp) in link.items():
    if node_kind.get(n) == "sw" and node_kind.get(r) == "sw":
        key = "%s>%s" % (tname(tier.get(n, 0)), tname(tier.get(r, 0)))
        tiers.setdefault(key, []).append(use.get((n, p), 0))
tstats = {k: {"links": len(v), "max": max(v), "min": min(v),
              "mean": round(sum(v) / len(v), 2)} for k, v in sorted(tiers.items())}

worst, worst_k = 0, 0
N = len(cas)
for k in range(1, N):
    cnt = Counter()
    for i, s in enumerate(cas):
        h = paths.get((s, cas[(i + k) % N]))
        if h:
            cnt.update(h)
    m = max(cnt.values()) if cnt else 0
    if m > worst:
        worst, worst_k = m, k
print(json.dumps({"cas": N, "pairs": routes, "delivered": delivered,
                  "failures": fails, "tiers": tstats,
                  "shift_worst": worst, "shift_k": worst_k}))
EOF
}
