#!/bin/sh
# Every output of a fabric.tiers list names each tier's own switch model,
# with that tier's ports and speeds: examples/megascale.yaml (one model in
# three tiers, the leaves' down ports split), tests/data/tiers/
# ib-two-models.yaml (InfiniBand, two models, both splitting a side) and
# examples/mixed-speed-leaf.yaml (Ethernet, 400G down and 800G up).
#
# The expected tiers are resolved here from the spec and the catalog
# (templates/switches.yaml) in closed form: a side "200G x 64" of a 400G
# model is 64 ports from 32 split in 2, a side left out takes the model's
# ports the other leaves, the top takes them all; a port is named
# cage[/port of the cage][/part] from the model's cages and cage_ports.
# Links: tier 1 = GPUs, tier j = tier j-1's switches x its up ports.
#   build: fabric.json (radix 0, each tier its model and ports, every
#     switch node its tier's ports, links per tier), the diagrams (the
#     title and every switch box name the tier's model and ports by speed;
#     Graphviz's dot renders them), NetBox (a device type per tier with
#     the tier's port names in order and their speeds' interface types,
#     each device of its tier's type and maker), cabling.csv and p2p.csv
#     (each switch end of its model: MLNX-OS names on QM9700, NVOS's
#     sw<cage>p<n> on Q3400, Cumulus's swp<cage>s<n> on split SN5600
#     ports), and on InfiniBand opensm/ (link rates 2xNDR and 4xNDR, an
#     IBNL switch of each model's ports, read by ibdmchk);
#   export: GraphML with each switch's model and ports, no one radix,
#     edge speeds per tier, read by graphml2gv;
#   compare: the tiers named (text, JSON), --radix refused for a list;
#   traffic: a tier list trimmed of nothing costs what it costs.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"
DATA="$TOP_SRCDIR/tests/data/tiers"
have() { command -v "$1" >/dev/null 2>&1; }

if ! "$PY" -c 'import yaml' 2>/dev/null; then
    echo "SKIP: python3-yaml is not installed"
    exit 77
fi

# The expected tiers of a spec, as JSON: per tier its model (catalog
# fields), ports down/up/free with speeds and splits, and the port names.
cat >"$TMP/tiers.py" <<'P'
import json, math, os, re, sys
import yaml
spec = yaml.safe_load(open(sys.argv[1]))
cat = yaml.safe_load(open(os.path.join(sys.argv[2], "switches.yaml")))["switches"]
GEN = {"NDR200": 200, "NDR": 400, "XDR": 800, "HDR": 200, "HDR100": 100}
def gbps(v):
    v = str(v).strip()
    m = re.match(r"^(\d+)G$", v)
    return float(m.group(1)) if m else float(GEN[v])
def side(v):
    if v is None: return None, 0
    a, _, n = str(v).partition("x")
    return gbps(a), int(n) if n else 0
ent = spec["fabric"]["tiers"]
t, out, prev = len(ent), [], None
for j, e in enumerate(ent, 1):
    name = e.get("switch", prev)
    prev = name
    m = cat[name]
    P, S, cp, cages = m["radix"], gbps(m["speed"]), m["cage_ports"], m["cages"]
    assert P == cages * cp, "a model split by the catalog: not covered here"
    dg, dc = side(e.get("down")); dg = dg or S
    sd = int(S / dg)
    if j == t:
        ug, uc, su = 0.0, 0, 1
        down = dc or P * sd
        cd, cu, up = math.ceil(down / sd), 0, 0
    else:
        ug, uc = side(e.get("up")); ug = ug or S
        su = int(S / ug)
        if dc and uc: cd, cu = math.ceil(dc / sd), math.ceil(uc / su)
        elif dc: cd = math.ceil(dc / sd); cu = P - cd
        elif uc: cu = math.ceil(uc / su); cd = P - cu
        else: cd = cu = P // 2
        down, up = dc or cd * sd, uc or cu * su
    free = P - cd - cu
    def label(ph, sub, split):
        c, i = ph // cp + 1, ph % cp + 1
        if cp > 1 and split > 1: return "%d/%d/%d" % (c, i, sub + 1)
        if cp > 1: return "%d/%d" % (c, i)
        if split > 1: return "%d/%d" % (c, sub + 1)
        return "%d" % (ph + 1)
    ports = [(label(i // sd, i % sd, sd), dg) for i in range(down)]
    ports += [(label(cd + i // su, i % su, su), ug) for i in range(up)]
    ports += [(label(cd + cu + i, 0, 1), S) for i in range(free)]
    # ports by speed, runs of one speed joined: "64 x 200G + 32 x 400G"
    runs = []
    for n, g in ((down, dg), (up, ug), (free, S)):
        if n <= 0: continue
        if runs and runs[-1][1] == g: runs[-1][0] += n
        else: runs.append([n, g])
    text = " + ".join("%d x %gG" % (n, g) for n, g in runs)
    tname = ["leaf", "spine", "core"][j - 1] if t == 3 else ["leaf", "spine"][j - 1] if t == 2 else "switch"
    out.append({"tier": j, "name": tname, "switch": name, "vendor": m.get("vendor", "Generic"),
                "radix": P, "port_gbps": S, "cage_ports": cp, "connector": m.get("connector", ""),
                "ib": m.get("protocol", "infiniband") != "ethernet", "speed": m["speed"],
                "down": down, "down_gbps": dg, "down_split": sd, "up": up, "up_gbps": ug,
                "up_split": su, "free": free, "ports": down + up + free, "names": ports,
                "cages_down": cd, "cages_up": cu,
                "text": text})
node = spec["cluster"]["node"]     # a catalog name, or a map over a catalog entry
ncat = yaml.safe_load(open(os.path.join(sys.argv[2], "nodes.yaml")))["nodes"]
node = {"name": node} if isinstance(node, str) else node
node = dict(ncat.get(node["name"], {}), **node)
json.dump({"gpus": spec["cluster"]["gpus"], "gpn": node["gpus_per_node"],
           "nic": gbps(node["nic_speed"]), "tiers": out}, sys.stdout)
P

# The checks of one built spec; prints "ok" or what differs.
cat >"$TMP/check.py" <<'P'
import csv, json, os, re, sys
import xml.etree.ElementTree as ET
import yaml
exp = json.load(open(sys.argv[1]))
out, graphml = sys.argv[2], sys.argv[3]
T = exp["tiers"]
errs = []
def err(m):
    if len(errs) < 25: errs.append(m)

# ---- fabric.json ----
fj = json.load(open(os.path.join(out, "fabric.json")))
if fj["radix"] != 0: err("fabric.json: radix %s, want 0 (each tier its own)" % fj["radix"])
KEYS = ("tier", "name", "switch", "radix", "port_gbps", "ports", "down", "down_gbps",
        "down_split", "up", "up_gbps", "up_split", "free")
got = [{k: x[k] for k in KEYS} for x in fj.get("tier_switches", [])]
want = [{k: x[k] for k in KEYS} for x in T]
if got != want: err("fabric.json tier_switches %s, want %s" % (got, want))
sw_per_tier = {}
for n in fj["nodes"]:
    if n["kind"] != "switch": continue
    sw_per_tier[n["tier"]] = sw_per_tier.get(n["tier"], 0) + 1
    if n["ports"] != T[n["tier"] - 1]["ports"]:
        err("fabric.json: %s has %d ports, its tier %d" % (n["name"], n["ports"], T[n["tier"] - 1]["ports"])); break
links = {}
for l in fj["links"]:
    links[l["tier"]] = links.get(l["tier"], 0) + 1
want_links = {1: exp["gpus"]}
for j in range(2, len(T) + 1):
    want_links[j] = sw_per_tier.get(j - 1, 0) * T[j - 2]["up"]
if links != want_links: err("links per tier %s, want %s" % (links, want_links))
if sw_per_tier.get(1) != exp["gpus"] // T[0]["down"]:
    err("leaves %s, want GPUs / down ports %d" % (sw_per_tier.get(1), exp["gpus"] // T[0]["down"]))

# ---- diagrams ----
dot = open(os.path.join(out, "diagrams", "summary.dot")).read()
title = "%d tiers:" % len(T) + "".join("<BR/>%s %s (%s)" % (x["name"], x["switch"], x["text"]) for x in T)
if title not in dot: err("summary.dot: no title %r" % title)
for x in T:
    box = '<FONT POINT-SIZE="9">%s: %s</FONT>' % (x["switch"], x["text"])
    if box not in dot: err("summary.dot: no %s box %r" % (x["name"], box))
if re.search(r"\d tiers? of ", dot): err("summary.dot: one switch in the title")

# ---- NetBox ----
nb = os.path.join(out, "cabling", "netbox")
IFT = {("qsfp-dd", 200): "200gbase-x-qsfpdd", ("qsfp-dd", 400): "400gbase-x-qsfpdd",
       ("osfp", 400): "400gbase-x-osfp", ("osfp", 800): "800gbase-x-osfp"}
def iftype(x, g):
    t = IFT.get((x["connector"], g))
    return t if t else "infiniband-" + x["speed"][:3].lower() if x["ib"] else "other"
types = {}
for f in os.listdir(os.path.join(nb, "05-device-types")):
    t = yaml.safe_load(open(os.path.join(nb, "05-device-types", f)))
    types[(t["manufacturer"], t["model"])] = t
devs = list(csv.DictReader(open(os.path.join(nb, "07-devices.csv"), newline="")))
mfrs = {r["name"] for r in csv.DictReader(open(os.path.join(nb, "04-manufacturers.csv"), newline=""))}
seen_types = set()
for x in T:
    d = [r for r in devs if r["role"] == x["name"]]
    if len(d) != sw_per_tier.get(x["tier"]): err("netbox: %d %s devices, %s switches" % (len(d), x["name"], sw_per_tier.get(x["tier"])))
    ty = {(r["manufacturer"], r["device_type"]) for r in d}
    if len(ty) != 1: err("netbox: %s devices of types %s" % (x["name"], sorted(ty))); continue
    (mk, model), = ty
    split = x["down_split"] > 1 or x["up_split"] > 1
    want_model = x["switch"] + ("-%dx%gG" % (x["down"], x["down_gbps"]) + ("-%dx%gG" % (x["up"], x["up_gbps"]) if x["up"] else "") if split else "")
    if (mk, model) != (x["vendor"], want_model): err("netbox: %s type %s of %s, want %s of %s" % (x["name"], model, mk, want_model, x["vendor"]))
    if mk not in mfrs: err("netbox: maker %s not in 04-manufacturers.csv" % mk)
    t = types.get((mk, model))
    if not t: err("netbox: no device type %s" % model); continue
    seen_types.add((mk, model))
    got = [(i["name"], i["type"]) for i in t.get("interfaces", [])]
    want = [(n, iftype(x, g)) for n, g in x["names"]]
    if got != want:
        bad = next(i for i in range(min(len(got), len(want)) + 1) if i >= min(len(got), len(want)) or got[i] != want[i])
        err("netbox: type %s: %d interfaces, want %d; first difference at %d: %s, want %s" % (model, len(got), len(want), bad, got[bad:bad + 1], want[bad:bad + 1]))
if len(types) != len(seen_types) + 1: err("netbox: %d device types, want the node's and %d switch types" % (len(types), len(seen_types)))

# ---- cabling.csv and p2p.csv ----
cab = list(csv.DictReader(open(os.path.join(out, "cabling", "cabling.csv"), newline="")))
p2p = list(csv.DictReader(open(os.path.join(out, "cabling", "p2p.csv"), newline="")))
if len(cab) != len(p2p): err("%d cables, p2p %d rows" % (len(cab), len(p2p)))
tier_of = {n["name"]: n["tier"] for n in fj["nodes"] if n["kind"] == "switch"}
def p2p_port(x, number):
    # the port as the switch's OS names it, from its IB/faceplate port number
    p = number - 1
    if p < x["down"]: ph, sub, k = p // x["down_split"], p % x["down_split"], x["down_split"]
    elif p < x["down"] + x["up"]:
        q = p - x["down"]; ph, sub, k = x["cages_down"] + q // x["up_split"], q % x["up_split"], x["up_split"]
    else: ph, sub, k = x["cages_down"] + x["cages_up"] + p - x["down"] - x["up"], 0, 1
    per = x["cage_ports"] * k
    e = (ph % x["cage_ports"]) * k + sub
    if not x["ib"]:
        return "swp%d" % (ph // x["cage_ports"] + 1) + ("s%d" % e if per > 1 else "")
    if x["port_gbps"] >= 800:
        return "sw%dp%d" % (ph // x["cage_ports"] + 1, e + 1)
    return x["names"][p][0]     # MLNX-OS: cage/port[/part]
for c, r in zip(cab, p2p):
    for s, S in (("a", "A"), ("z", "Z")):
        dv = c[s + "_device"]
        if dv not in tier_of: continue
        x = T[tier_of[dv] - 1]
        if c[s + "_type"] != x["switch"]: err("cabling.csv %s: %s is a %s, want %s" % (c["label"], dv, c[s + "_type"], x["switch"])); break
        number = int(c[s + "_port"])
        if x["ib"] and c[s + "_cage_port"] != x["names"][number - 1][0]:
            err("cabling.csv %s: %s port %d is %s, want %s" % (c["label"], dv, number, c[s + "_cage_port"], x["names"][number - 1][0])); break
        want = p2p_port(x, number)
        if r[S + "-Port"] != want: err("p2p %s: %s port %s, want %s" % (c["label"], dv, r[S + "-Port"], want)); break
    if len(errs) > 20: break

# ---- GraphML ----
NS = "{http://graphml.graphdrawing.org/xmlns}"
root = ET.parse(graphml).getroot()
keys = {k.get("id"): k.get("attr.name") for k in root.findall(NS + "key")}
g = root.find(NS + "graph")
gd = {keys[d.get("key")]: d.text for d in g.findall(NS + "data")}
if "radix" in gd: err("graphml: graph radix %s for a tier list" % gd["radix"])
nodes = {}
for n in g.findall(NS + "node"):
    v = {keys[d.get("key")]: d.text for d in n.findall(NS + "data")}
    nodes[n.get("id")] = v
    if v["kind"] == "switch":
        x = T[int(v["tier"]) - 1]
        if (v.get("switch"), v.get("ports")) != (x["switch"], str(x["ports"])):
            err("graphml: %s is %s with %s ports, want %s with %d" % (n.get("id"), v.get("switch"), v.get("ports"), x["switch"], x["ports"])); break
for e in g.findall(NS + "edge"):
    v = {keys[d.get("key")]: d.text for d in e.findall(NS + "data")}
    j = int(v["tier"])
    want = min(exp["nic"], T[0]["down_gbps"]) if j == 1 else T[j - 2]["up_gbps"]
    if float(v["speed_gbps"]) != want or (j > 1 and want != T[j - 1]["down_gbps"]):
        err("graphml: edge %s of tier %d at %s, want %g" % (e.get("id"), j, v["speed_gbps"], want)); break
print("\n".join(errs) if errs else "ok")
P

for s in "$TOP_SRCDIR/examples/megascale.yaml" "$DATA/ib-two-models.yaml" \
         "$TOP_SRCDIR/examples/mixed-speed-leaf.yaml"; do
    n=$(basename "$s" .yaml)
    "$PY" "$TMP/tiers.py" "$s" "$TPL" >"$TMP/$n.exp" || { fail "$n: expected tiers"; continue; }
    "$RAILYARD" build "$s" -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: build exit" $? 0
    "$RAILYARD" export "$s" --format graphml -o "$TMP/$n.graphml" 2>>"$TMP/$n.log"
    expect_eq "$n: export exit" $? 0
    no_sanitizer "$TMP/$n.log"
    expect_eq "$n: outputs by tier" "$("$PY" "$TMP/check.py" "$TMP/$n.exp" "$TMP/$n" "$TMP/$n.graphml" 2>&1)" ok

    # Graphviz reads the diagrams and the graph
    if have dot; then
        dot -Tsvg "$TMP/$n/diagrams/summary.dot" -o "$TMP/$n.svg" 2>"$TMP/$n.dot.err"
        expect_eq "$n: dot renders summary.dot" "$?:$(head -c 300 "$TMP/$n.dot.err")" "0:"
        for m in $("$PY" -c 'import json,sys; print(" ".join(sorted({x["switch"] for x in json.load(open(sys.argv[1]))["tiers"]})))' "$TMP/$n.exp"); do
            grep -q ">$m: " "$TMP/$n.svg" && ok || fail "$n: the SVG names no $m box"
        done
    fi
    if have graphml2gv && have gc; then
        graphml2gv "$TMP/$n.graphml" -o "$TMP/$n.gv" 2>/dev/null
        got=$(gc -n -e "$TMP/$n.gv" | awk '{print $1, $2}')
        want=$("$PY" -c 'import json,sys; f=json.load(open(sys.argv[1])); print(len(f["nodes"]), len(f["links"]))' "$TMP/$n/fabric.json")
        expect_eq "$n: graphml2gv nodes and edges" "$got" "$want"
    fi
done

# InfiniBand: link rates by each end's model (NDR200 down: 2 lanes of NDR;
# 400G to the Q3400 spines: 4 lanes of NDR, the QM9700's generation), the
# IBNL of each model with its tier's ports, and ibdmchk reading the plan
O="$TMP/ib-two-models/opensm/plane0"
# links to hosts (switch sections' "H-" lines, the CAs' own) and between
# switches (each in both switches' sections), by rate
rates=$(awk '/^\[[0-9]+\]\t"H-/ { k = "H" } /^\[[0-9]+\]\t"S-/ { k = "S" } /^\[1\]\(/ { k = "C" }
             /^\[/ { n[k " " $NF]++ } END { for (r in n) print r, n[r] }' "$O/topology.net" | sort | tr '\n' ' ')
expect_eq "ib: topology.net rates" "$rates" "$("$PY" -c 'import json,sys; e=json.load(open(sys.argv[1]))
g, t = e["gpus"], e["tiers"]
print("C 2xNDR %d H 2xNDR %d S 4xNDR %d " % (g, g, 2 * g // t[0]["down"] * t[0]["up"]))' "$TMP/ib-two-models.exp")"
for m in qm9700:96 q3400:208; do
    grep -q "^NODE SW ${m#*:} " "$O/ibdiag_ibnl/${m%%:*}.ibnl" && ok ||
        fail "ib: ${m%%:*}.ibnl is not a switch of ${m#*:} ports: $(grep '^NODE' "$O/ibdiag_ibnl/${m%%:*}.ibnl" | head -1)"
done
if have ibdmchk; then
    # systems: 36 switches + 256 hosts; nodes: 36 switches + 2048 CAs
    rm -rf "$TMP/run" && mkdir "$TMP/run"
    (cd "$TMP/run" && IBDM_IBNL_PATH="$O/ibdiag_ibnl" ibdmchk -t "$O/ibdiagnet.topo" \
        -n node001/mlx5_0 -p 1 >"$TMP/run/out" 2>&1; true) 2>/dev/null  # Debian's 1.5.7 crashes on exit
    sw=$("$PY" -c 'import json,sys; print(sum(1 for n in json.load(open(sys.argv[1]))["nodes"] if n["kind"] == "switch"))' \
         "$TMP/ib-two-models/fabric.json")
    grep -q "^-I- Defined $((sw + 2048 / 8))/$((sw + 2048)) systems/nodes" "$TMP/run/out" && ok ||
        fail "ibdmchk: $(grep -m1 '^-I- Defined' "$TMP/run/out" || grep -m3 '^-E-' "$TMP/run/out")"
    expect_eq "ibdmchk: errors" "$(grep -c '^-E-' "$TMP/run/out")" 0
fi

# every Q3400 port split: 288 ports, more than InfiniBand numbers (254);
# no subnet-manager file is written for it
sed 's/down: "NDR x 128"/down: "NDR"/' "$DATA/ib-two-models.yaml" >"$TMP/ib288.yaml"
"$RAILYARD" opensm "$TMP/ib288.yaml" -o "$TMP/ib288" >"$TMP/e" 2>&1
expect_eq "288 IB ports: exit" $? 1
grep -q "ib288.yaml:12:7: error: tier 2's q3400 has 288 ports with its split ones" "$TMP/e" && ok ||
    fail "288 IB ports: $(cat "$TMP/e")"
[ ! -e "$TMP/ib288" ] && ok || fail "288 IB ports: files written"

# compare: the tiers named; one radix for every tier refused
"$RAILYARD" compare "$DATA/ib-two-models.yaml" >"$TMP/cmp.txt" 2>&1
expect_eq "compare exit" $? 0
expect_eq "compare: the tiers" "$(head -1 "$TMP/cmp.txt")" \
    "ib-two-models: 2,048 GPUs of hgx-h100 on fabric.tiers: $("$PY" -c 'import json,sys
print(", ".join("%s %s (%s)" % (x["name"], x["switch"], x["text"]) for x in json.load(open(sys.argv[1]))["tiers"]))' \
    "$TMP/ib-two-models.exp")"
"$RAILYARD" compare "$DATA/ib-two-models.yaml" --format json >"$TMP/cmp.json" 2>&1
expect_eq "compare json: radix and tier models" "$("$PY" -c 'import json,sys; j=json.load(open(sys.argv[1]))
print(j["radix"], [(x["switch"], x["ports"]) for x in j["tier_switches"]])' "$TMP/cmp.json")" \
    "0 $("$PY" -c 'import json,sys; print([(x["switch"], x["ports"]) for x in json.load(open(sys.argv[1]))["tiers"]])' \
    "$TMP/ib-two-models.exp")"
"$RAILYARD" compare "$DATA/ib-two-models.yaml" --paper --radix 64 >"$TMP/e" 2>&1
expect_eq "compare --paper --radix: exit" $? 1
grep -q "fabric.tiers gives each tier its own switch" "$TMP/e" && ok || fail "compare --paper --radix: $(cat "$TMP/e")"
"$RAILYARD" compare "$DATA/ib-two-models.yaml" --paper >"$TMP/e" 2>&1
expect_eq "compare --paper: exit" $? 0
grep -q "^   2048     8  tiers |" "$TMP/e" && grep -q "^fabric.tiers: leaf qm9700" "$TMP/e" && ok ||
    fail "compare --paper of a tier list: $(head -4 "$TMP/e")"
"$RAILYARD" compare "$DATA/ib-two-models.yaml" --radix 128 >"$TMP/e" 2>&1
expect_eq "compare --radix: exit" $? 1
grep -q "^--radix: error: sets fabric.switch, and this spec's fabric.tiers" "$TMP/e" && ok ||
    fail "compare --radix: $(cat "$TMP/e")"

# traffic: a workload over every link trims nothing, and the trimmed fabric
# (each tier its model and split ports) costs what the fabric costs. The
# up-down routes (--analytic) use every uplink; ECMP's hash (the engine's
# default on this Ethernet fabric) may leave some idle.
sed 's/^name: mixed-speed-leaf/name: mixed-wl/' "$TOP_SRCDIR/examples/mixed-speed-leaf.yaml" >"$TMP/wl.yaml"
printf 'workload:\n  model: gpt-3-175b\n' >>"$TMP/wl.yaml"
"$RAILYARD" traffic --analytic "$TMP/wl.yaml" >"$TMP/tr.txt" 2>&1
expect_eq "traffic exit" $? 0
grep -q "trimmed: every link carries traffic; nothing is removed" "$TMP/tr.txt" && ok ||
    fail "traffic: something trimmed: $(grep trimmed "$TMP/tr.txt")"
grep -q "^  trimmed .* the same$" "$TMP/tr.txt" && ok ||
    fail "traffic: the trimmed fabric's capex differs: $(grep '^  trimmed' "$TMP/tr.txt")"

# same spec, same bytes
"$RAILYARD" build "$DATA/ib-two-models.yaml" -o "$TMP/again" >/dev/null 2>&1
diff -r "$TMP/ib-two-models" "$TMP/again" >/dev/null && ok || fail "ib-two-models: a second build differs"

# the down side counted from the up ports by the taper: 9 up at 7:2 make
# 31.5 down, rounded down (the tier no more oversubscribed than asked);
# validate says so, with the taper one port more would give (computed here)
sed 's/^  tiers: 2$/  tiers:\n    - {up: "400G x 9", taper: "7:2"}\n    - {}/' \
    "$TOP_SRCDIR/tests/data/ib/ro-2tier-h100.yaml" >"$TMP/round.yaml"
grep -q 'taper: "7:2"' "$TMP/round.yaml" && ok || fail "the rounding spec"
want=$("$PY" -c 'print("(7:2 asked: 9 up make %.4g down, rounded down to %d whole ports so that the tier is no more oversubscribed than asked; %d down would give %.4g:1)" % (9 * 7 / 2, 9 * 7 // 2, 9 * 7 // 2 + 1, (9 * 7 // 2 + 1) / 9))')
"$RAILYARD" validate "$TMP/round.yaml" >"$TMP/round.txt" 2>&1
grep -qF "$want" "$TMP/round.txt" && ok || fail "rounding of the down side: want '$want': $(grep asked "$TMP/round.txt")"
finish
