#!/bin/sh
# ibdiagnet.topo and ibdiag_ibnl/ of every subnet, read by ibutils' ibdmchk.
#
# For every example with InfiniBand switches (under the sanitizers those of
# at most 16,384 GPUs, tests/lib.sh) and the cabling test's specs:
#  (a) the subnets are computed here from cabling.csv alone (connected
#      components of switches and NIC ports) and each opensm/<subnet>/ must
#      hold exactly one of them: its switches as sections, its hosts, CAs
#      and cables as port lines at the right port numbers (the faceplate
#      label of cabling.csv turned into the IB port number), every line in
#      ibdm's grammar (IBFabric::parseTopology's regular expressions), the
#      arrow the written form of the cable's width and lane rate, and the
#      header's rate table counting the cables at each rate;
#  (b) every system type has an IBNL file: the switch with radix ports
#      P1..Pn, a host type with exactly the CAs its hosts have on the subnet;
#  (c) ibdmchk -t in design mode loads the file with IBDM_IBNL_PATH set to
#      the subnet's ibdiag_ibnl/, without an error or a warning, and reports
#      the counts computed in (a): systems = switches + hosts, nodes =
#      switches + CAs, CA-to-CA paths = CAs x (CAs - 1), and no credit loop.
# Debian's ibdmchk 1.5.7 crashes on exit after its report (also on ibutils'
# own example topologies): exit 139 is taken when the report is complete.
# Subnets identical but for their names (the same file bodies, IBNL and
# counts once every word is numbered by its first appearance: the rails of
# a rail-only fabric, the libra examples) are run once; under the
# sanitizers, only subnets of at most 1,024 CAs (tests/lib.sh, sanitized);
# none of more than 8,192 CAs (ibdmchk checks every CA-to-CA path: 16,384
# CAs took it nine minutes), whose files (a) and (b) still check.
# cabling/ holds no topology file. Skipped (77) when ibdmchk (Debian
# package ibutils) is not installed.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

if ! command -v ibdmchk >/dev/null 2>&1; then
    echo "SKIP: ibdmchk (ibutils) not installed"
    exit 77
fi

cat >"$TMP/check.py" <<'P'
import collections, csv, os, re, sys
import yaml

out, spec_path, tdir = sys.argv[1:4]
errs = []
def err(msg):
    if len(errs) < 20:
        errs.append(msg)

spec = yaml.safe_load(open(spec_path))
nodes_cat = yaml.safe_load(open(os.path.join(tdir, "nodes.yaml")))["nodes"]
sw_cat = yaml.safe_load(open(os.path.join(tdir, "switches.yaml")))["switches"]
cl, fab = spec.get("cluster") or {}, spec.get("fabric") or {}
def model(v, cat, default):
    if v is None: v = default
    if isinstance(v, str): return dict(cat.get(v, {}), name=v)
    m = dict(cat.get(v.get("name"), {})); m.update(v); return m
node = model(cl.get("node"), nodes_cat, "generic")
# a tier list (fabric.tiers) names the leaves' model in its first entry
tl = fab.get("tiers")
leaf = tl[0].get("switch") if isinstance(tl, list) and tl and isinstance(tl[0], dict) else None
sw = model(leaf if leaf is not None else fab.get("switch"), sw_cat, "generic")
radix = sw.get("radix", 64)
sw_speed = str(sw.get("speed", node.get("nic_speed", "400G")))
sw_cp = sw.get("cage_ports", 1) or 1
sw_split = 1
if sw.get("cages") and radix % (sw["cages"] * sw_cp) == 0:
    sw_split = max(1, radix // (sw["cages"] * sw_cp))
ethernet = sw.get("protocol") == "ethernet"
word = lambda s: re.sub(r"[ \t/]", "_", s)
def tword(s):         # IBNL names start with a letter and are not keywords
    s = re.sub(r"[^A-Za-z0-9_.-]", "_", s)
    kw = ("SW", "CA", "HCA", "NODE", "SYSTEM", "TOPSYSTEM", "SUBSYSTEM")
    return s if re.match(r"[A-Za-z]", s) and s not in kw else "sys_" + s
sw_type = tword(sw["name"])

if os.path.exists(os.path.join(out, "cabling", "ibdiagnet.topo")):
    err("cabling/ibdiagnet.topo written: topologies are per subnet")
osm = os.path.join(out, "opensm")
if ethernet:
    if os.path.exists(osm): err("opensm/ written for an Ethernet fabric")
    print("\n".join(errs) if errs else "ethernet"); sys.exit(0)

# ---- subnets from cabling.csv: components of switches and NIC ports ------------------------
with open(os.path.join(out, "cabling", "cabling.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
parent = {}
def find(x):
    parent.setdefault(x, x)
    while parent[x] != x:
        parent[x] = parent[parent[x]]; x = parent[x]
    return x
def pnum(label):      # cage/port/split, cage/port, cage/split or the number
    f = [int(x) for x in label.split("/")]
    if sw_cp > 1 and sw_split > 1: return ((f[0] - 1) * sw_cp + f[1] - 1) * sw_split + f[2]
    if sw_cp > 1: return (f[0] - 1) * sw_cp + f[1]
    if sw_split > 1: return (f[0] - 1) * sw_split + f[1]
    return f[0]
def port_no(r, e):    # the IB port number (a_port, z_port), which the cage form must give
    n = int(r[e + "_port"])
    if pnum(r[e + "_cage_port"]) != n:
        err("%s: %s port %d written %s" % (r["label"], e, n, r[e + "_cage_port"]))
    return n
ends = []             # per cable: (a vertex, z vertex, row)
for r in rows:
    z = ("sw", word(r["z_device"]))
    a = ("ca", word(r["a_device"]), r["a_port"]) if r["tier"] == "1" else ("sw", word(r["a_device"]))
    parent[find(a)] = find(z)
    ends.append((a, z, r))
comps = collections.defaultdict(lambda: {"sw": set(), "ca": set(), "cables": []})
for a, z, r in ends:
    c = comps[find(z)]
    for v in (a, z):
        c["sw" if v[0] == "sw" else "ca"].add(v)
    c["cables"].append((a, z, r))

# ---- the written form of a rate (ibdm 1.5: widths 1/4/8/12, lanes 2.5/5/10G) ------------------
GEN = {"SDR": 2.5, "DDR": 5, "QDR": 10, "FDR": 14, "EDR": 25, "HDR": 50, "NDR": 100, "XDR": 200}
def width_lane(gbps):
    lane = GEN.get(sw_speed[:3].upper())
    if lane and gbps / lane in (1, 2, 4, 8, 12): return int(gbps / lane), lane
    if gbps / 4 in GEN.values(): return 4, gbps / 4
    return 0, 0
def arrow(gbps):
    w, l = width_lane(gbps)
    return "-" + ("%dx-" % w if w in (1, 4, 8, 12) else "") + \
        (("%gG-" % (l if l in (2.5, 5) else 10)) if l else "") + ">"

# ---- each subnet's files ------------------------------------------------------------------
sys_re = re.compile(r"^[ \t]*([^/ \t]+)[ \t]+([^/ \t]+)[ \t]*( CFG:(.*))?$")
port_re = re.compile(r"^[ \t]+([^ \t]+)[ \t]+-((1|4|8|12)[xX]-)?((2\.5|5|10)G-)?[>]"
                     r"[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]*$")
rate_re = re.compile(r"^#   (?:(\d+)x (\S+)G a lane, )?(\S+) Gb/s: (\d+) cables, written (\S+)$")
head_re = re.compile(r"^# (\d+) switches of type (\S+), (\d+) hosts with (\d+) CAs, (\d+) cables\.$")
def read_ibnl(path):
    toks = open(path).read().split("\n")
    top, nodes, cur = None, {}, None
    for ln in toks:
        t = ln.split()
        if not t: continue
        if t[0] == "TOPSYSTEM": top = t[1]
        elif t[0] == "NODE": cur = (t[1], int(t[2]), t[4]); nodes[cur] = []
        elif len(t) == 3 and t[1] == "->" and cur: nodes[cur].append((int(t[0]), t[2]))
        else: err("%s: line %r" % (os.path.basename(path), ln))
    return top, nodes

matched = set()
subnets = sorted(os.listdir(osm)) if os.path.isdir(osm) else []
if len(subnets) != len(comps):
    err("%d subnet directories, %d subnets in cabling.csv" % (len(subnets), len(comps)))
for sn in subnets:
    d = os.path.join(osm, sn)
    text = open(os.path.join(d, "ibdiagnet.topo"), "rb").read().decode()
    if "\r" in text or not text.endswith("\n"): err("%s: not LF lines" % sn)
    cur, sections, plines, rates, head = None, [], {}, {}, None
    for ln in text.split("\n")[:-1]:
        if len(ln) >= 1023: err("%s: line longer than ibdm's 1024 bytes" % sn)
        if re.match(r"^[ \t]*#", ln):
            m = rate_re.match(ln)
            if m: rates[float(m.group(3))] = (int(m.group(4)), m.group(5))
            m = head_re.match(ln)
            if m: head = m.groups()
            continue
        if re.match(r"^[ \t]*$", ln): cur = None; continue
        m = sys_re.match(ln)
        if m:
            if m.group(1) != sw_type: err("%s: switch type %s, want %s" % (sn, m.group(1), sw_type))
            cur = m.group(2); sections.append(cur); continue
        m = port_re.match(ln)
        if not m or not cur: err("%s: not ibdm grammar: %r" % (sn, ln)); continue
        arr = ln.split()[1]
        if (cur, m.group(1)) in plines: err("%s: %s %s twice" % (sn, cur, m.group(1)))
        plines[(cur, m.group(1))] = (arr, m.group(6), m.group(7), m.group(8))
    if not sections: err("%s: no switch section" % sn); continue
    if len(set(sections)) != len(sections): err("%s: a switch section twice" % sn)
    key = find(("sw", sections[0]))
    if key not in comps or key in matched:
        err("%s: switch %s in no other subnet's component" % (sn, sections[0])); continue
    matched.add(key)
    c = comps[key]
    if set(("sw", s) for s in sections) != c["sw"]:
        err("%s: switches %d, cabling.csv's subnet %d" % (sn, len(sections), len(c["sw"])))
    hosts = {v[1] for v in c["ca"]}
    # every cable at both of its switch ends, nothing else
    used, by_rate, types = 0, collections.Counter(), collections.defaultdict(set)
    for a, z, r in c["cables"]:
        g = float(r["speed_gbps"]); by_rate[g] += 1
        got = plines.get((z[1], "P%d" % port_no(r, "z")))
        want = (arrow(g), a[1], tword(r["a_port"]) + "/P1") if a[0] == "ca" else \
               (arrow(g), sw_type, a[1], "P%d" % port_no(r, "a"))
        if not got or (got[:1] + got[2:] if a[0] == "ca" else got) != want:
            err("%s: cable %s as %s" % (sn, r["label"], got)); continue
        used += 1
        if a[0] == "ca":
            types[got[1]].add((a[1], tword(r["a_port"])))
        else:
            b = plines.get((a[1], "P%d" % port_no(r, "a")))
            if b != (arrow(g), sw_type, z[1], "P%d" % port_no(r, "z")):
                err("%s: cable %s missing from %s's section: %s" % (sn, r["label"], a[1], b))
            used += 1
    if used != len(plines): err("%s: %d port lines for %d cable ends" % (sn, len(plines), used))
    want_rates = {g: (n, arrow(g)) for g, n in by_rate.items()}
    if rates != want_rates: err("%s: rate table %s, want %s" % (sn, rates, want_rates))
    if head != (str(len(c["sw"])), sw_type, str(len(hosts)), str(len(c["ca"])), str(len(c["cables"]))):
        err("%s: header %s" % (sn, head))
    # IBNL: the switch, and per host type exactly its hosts' CAs here
    ibnl = os.path.join(d, "ibdiag_ibnl")
    files = sorted(os.listdir(ibnl))
    if files != sorted([sw_type + ".ibnl"] + [t + ".ibnl" for t in types]):
        err("%s: IBNL files %s for types %s" % (sn, files, sorted(types)))
    top, nodes = read_ibnl(os.path.join(ibnl, sw_type + ".ibnl"))
    if top != sw_type or list(nodes) != [("SW", radix, "U1")] or \
       nodes[("SW", radix, "U1")] != [(p, "P%d" % p) for p in range(1, radix + 1)]:
        err("%s: %s.ibnl: %s %s" % (sn, sw_type, top, list(nodes)[:2]))
    for t, cas in types.items():
        per_host = collections.defaultdict(set)
        for h, dev in cas: per_host[h].add(dev)
        devs = {frozenset(s) for s in per_host.values()}
        if len(devs) != 1: err("%s: type %s on hosts with different CAs" % (sn, t)); continue
        devs = set(next(iter(devs)))
        top, nodes = read_ibnl(os.path.join(ibnl, t + ".ibnl"))
        if top != t or {n[2] for n in nodes} != devs or \
           any(n[:2] != ("CA", 1) or nodes[n] != [(1, n[2] + "/P1")] for n in nodes):
            err("%s: %s.ibnl: %s %s, want the CAs %s" % (sn, t, top, sorted(nodes), sorted(devs)))
    if sum(len(v) for v in types.values()) != len(c["ca"]):
        err("%s: CAs of the typed hosts %d, want %d" % (sn, sum(len(v) for v in types.values()), len(c["ca"])))
    first = next(a for a, z, r in c["cables"] if a[0] == "ca")
    # subnet, systems, nodes, CA-to-CA paths, the SM's node
    nca = len(c["ca"])
    print("%s %d %d %d %s/%s" % (sn, len(c["sw"]) + len(hosts), len(c["sw"]) + nca, nca * (nca - 1),
                                 first[1], tword(first[2])))
if errs:
    print("\n".join("ERR " + e for e in errs))
P

# runs ibdmchk on one subnet; prints what differs from the counts, or "ok"
run_ibdmchk() { # dir systems nodes paths smnode
    rm -rf "$TMP/run" && mkdir "$TMP/run" &&
    (cd "$TMP/run" && IBDM_IBNL_PATH="$1/ibdiag_ibnl" ibdmchk -t "$1/ibdiagnet.topo" -n "$5" -p 1 \
        >"$TMP/run/out" 2>&1; echo $? >"$TMP/run/rc") 2>/dev/null  # the shell's crash notice
    rc=$(cat "$TMP/run/rc")
    o="$TMP/run/out"
    # ports that ibdmchk's own min-hop routing leaves without a route are
    # reported unused: allowed, when the file cables them
    awk '/^[^ #]/ { s = $2 } /^ / { print s "/" $1 }' "$1/ibdiagnet.topo" | sort >"$TMP/run/cabled"
    sed -n 's/^-W- Unused port://p' "$o" | sort >"$TMP/run/unused"
    if [ -n "$(comm -23 "$TMP/run/unused" "$TMP/run/cabled")" ]; then
        echo "uncabled ports reported unused:"; comm -23 "$TMP/run/unused" "$TMP/run/cabled" | head -3
    elif grep -v '^-W- Unused port:' "$o" | grep -q '^-[EW]-'; then
        grep -v '^-W- Unused port:' "$o" | grep '^-[EW]-' | head -3
    elif ! grep -q "^-I- Defined $2/$3 systems/nodes" "$o"; then grep '^-I- Defined' "$o" || echo "no systems/nodes line"
    elif ! grep -q "^-I- Scanned:$4 CA to CA paths" "$o"; then grep '^-I- Scanned' "$o" || echo "no CA-to-CA scan"
    elif ! grep -q '^-I- no credit loops found' "$o"; then echo "no credit-loop verdict"
    elif [ "$rc" != 0 ] && [ "$rc" != 139 ]; then echo "exit $rc"
    else echo ok
    fi
}

ran=0
big=0
huge=0
seen=""
for s in $(examples) "$TOP_SRCDIR"/tests/data/cabling/rail-only.yaml \
         "$TOP_SRCDIR"/tests/data/cabling/three-tier.yaml "$TOP_SRCDIR"/tests/data/cabling/two-plane.yaml \
         "$TOP_SRCDIR"/tests/data/cabling/fat-tree.yaml "$TOP_SRCDIR"/tests/data/ibdm/*.yaml; do
    n=$(basename "$s" .yaml)
    case "$s" in */tests/data/*) n="data-$n" ;; esac
    d="$TMP/$n"
    "$RAILYARD" cabling "$s" -o "$d" >/dev/null 2>"$TMP/$n.err"
    expect_eq "$n: cabling exit" $? 0
    "$RAILYARD" opensm "$s" -o "$d" >/dev/null 2>>"$TMP/$n.err"
    osm_rc=$?
    no_sanitizer "$TMP/$n.err"
    "$PY" "$TMP/check.py" "$d" "$s" "$TPL" >"$TMP/$n.chk" 2>&1
    if grep -q '^ERR \|Traceback\|Error' "$TMP/$n.chk"; then
        fail "$n: files"; sed 's/^/    /' "$TMP/$n.chk" | grep -v '^    [^ ]* [0-9]' | head -20
        continue
    fi
    if [ "$(cat "$TMP/$n.chk")" = ethernet ]; then
        [ "$osm_rc" != 0 ] && ok || fail "$n: opensm wrote files for an Ethernet fabric"
        continue
    fi
    expect_eq "$n: opensm exit" "$osm_rc" 0
    [ -s "$TMP/$n.chk" ] && ok || fail "$n: no subnet checked"
    while read -r sn sys nodes paths sm; do
        sd="$d/opensm/$sn"
        # the subnet up to names: every word numbered by its first
        # appearance, so the rails of one fabric (the same switches and
        # cables, other names) are one subnet to ibdmchk
        key=$( (grep -v '^#' "$sd/ibdiagnet.topo"; cat "$sd"/ibdiag_ibnl/*
                echo "$sys $nodes $paths $sm" | tr '/' ' ') |
               awk '{ for (i = 1; i <= NF; i++) { if (!($i in id)) id[$i] = n++; printf "%d ", id[$i] }
                      print "" }' | cksum)
        case "$seen" in *"|$key|"*) ok; continue ;; esac
        seen="$seen|$key|"
        # under the sanitizers, subnets of more than 1,024 CAs are the normal
        # build's to check (tests/lib.sh, sanitized)
        if sanitized && [ "$paths" -gt $((1024 * 1023)) ]; then
            big=$((big + 1))
            continue
        fi
        # ibdmchk's path check is quadratic in the CAs: the largest subnets
        # are left out (the same tiers and counts at 4,096 CAs are run)
        if [ "$paths" -gt $((8192 * 8191)) ]; then
            huge=$((huge + 1))
            continue
        fi
        # and in the full suite, the normal build's run checks only those
        # (the sanitizer build's run did the others: tests/lib.sh)
        if normal_share && [ "$paths" -le $((1024 * 1023)) ]; then
            continue
        fi
        r=$(run_ibdmchk "$sd" "$sys" "$nodes" "$paths" "$sm")
        ran=$((ran + 1))
        expect_eq "$n/$sn: ibdmchk ($sys systems, $nodes nodes, $paths CA-to-CA paths)" "$r" ok
    done <"$TMP/$n.chk"
    # same spec, same bytes
    "$RAILYARD" opensm "$s" -o "$d-again" >/dev/null 2>&1
    diff -r "$d/opensm" "$d-again/opensm" >/dev/null && ok || fail "$n: opensm/ differs between runs"
done
[ "$ran" -gt 0 ] && ok || fail "ibdmchk never ran"
echo "ibdmchk ran on $ran distinct subnets"
[ "$big" -gt 0 ] && echo "($big subnets of more than 1,024 CAs left to the normal build's suite)"
[ "$huge" -gt 0 ] && echo "($huge subnets of more than 8,192 CAs not given to ibdmchk)"

# The check fails on a broken file: a host's cable dropped, the rate written
# per lane as ibdm 1.5 cannot read it, a type without its IBNL.
sd="$TMP/superpod-4su/opensm/plane0"
read -r sn sys nodes paths sm <"$TMP/superpod-4su.chk"
broken() { # what sed-script expected-message
    rm -rf "$TMP/broken" && cp -r "$sd" "$TMP/broken" && sed -i "$2" "$TMP/broken/ibdiagnet.topo"
    r=$(run_ibdmchk "$TMP/broken" "$sys" "$nodes" "$paths" "$sm")
    case "$r" in *"$3"*) ok ;; *) fail "broken file ($1): got '$r', want '$3'" ;; esac
}
rm -rf "$TMP/broken" && cp -r "$sd" "$TMP/broken"
expect_eq "the copy passes" "$(run_ibdmchk "$TMP/broken" "$sys" "$nodes" "$paths" "$sm")" ok
broken "a host cable dropped" '0,/-> dgx-h100/{/-> dgx-h100/d}' "-W- CA with no connected ports:"
broken "-4x-100G->" 's/-4x-10G->/-4x-100G->/' "-W- Ignoring '   P1 -4x-100G->"
broken "no IBNL for the switch" "s/^qm9700 /qm9700x /" "-E- Fail to find System class:qm9700x"
finish
