#!/bin/sh
# The example specs of published fabrics (examples/megascale.yaml,
# alibaba-hpn, llama3-roce, juniper-ai-jvd, mixed-speed-leaf,
# gb200-nvl72-superpod) against what their operators published: every
# number below comes from tests/data/fabrics/published-fabrics.yaml (each
# with its source and section there), or is computed here from those
# numbers by the closed forms of a folded Clos. railyard's counts are read
# from `bom --format json` (switches, cabled ports down and up per tier)
# and `validate --format json` (each tier's model, ports, speeds, splits).
# Checked per example: GPUs, switches per tier, links per tier, ports per
# switch at their speeds, the taper, the group sizes (segments, pods,
# stripes), and for NVL72 racks and trays per unit; GB300 NVL72 with four
# planes: its NIC's split, switches and links per plane.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
T="$TOP_SRCDIR/templates"
DATA="$TOP_SRCDIR/tests/data/fabrics/published-fabrics.yaml"
R() { "$RAILYARD" -q -T "$T" "$@"; }

for ex in megascale alibaba-hpn llama3-roce juniper-ai-jvd mixed-speed-leaf \
          gb200-nvl72-superpod; do
    d="$TMP/$ex"
    mkdir -p "$d"
    R bom --format json "$TOP_SRCDIR/examples/$ex.yaml" >"$d/bom.json" 2>"$d/err"
    rc1=$?
    R validate --format json "$TOP_SRCDIR/examples/$ex.yaml" >"$d/val.json" 2>>"$d/err"
    rc2=$?
    if [ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]; then ok; else
        fail "$ex: bom exit $rc1, validate exit $rc2: $(head -3 "$d/err")"; fi
    no_sanitizer "$d/err"
done

# HPN as a ToR pair under one aggregation layer (fabric.homing dual-tor)
# instead of its two planes: one network, the same ToRs.
d="$TMP/hpn-dual-tor"
mkdir -p "$d"
R bom --format json "$TOP_SRCDIR/examples/alibaba-hpn.yaml" --set fabric.homing=dual-tor \
    >"$d/bom.json" 2>"$d/err" || fail "hpn dual-tor: $(head -3 "$d/err")"
no_sanitizer "$d/err"

# Meta's 1:7 aggregation taper over 192 down ports: 192/7 uplinks round down
# to whole ports, and validate says which way and why, with the taper one
# more port would give (computed here from the ports the bom counts)
R validate "$TOP_SRCDIR/examples/llama3-roce.yaml" >"$TMP/meta-val.txt" 2>&1
d=$(grep -o '192 x 400G down, [0-9]* x 400G up' "$TMP/meta-val.txt" | head -1)
down=$(echo "$d" | cut -d' ' -f1) up=$(echo "$d" | cut -d' ' -f5)
want=$("$PY" -c 'import sys
d, u = int(sys.argv[1]), int(sys.argv[2])
assert u == d // 7
print("taper %s:1 (7:1 asked: %d down make %s up, rounded down to %d whole ports so that no more uplinks are bought than asked; %d up would give %s:1)" % (
    ("%.4g" % (d / u)), d, "%.4g" % (d / 7), u, u + 1, "%.4g" % (d / (u + 1))))' "$down" "$up")
grep -qF "$want" "$TMP/meta-val.txt" && ok || fail "Meta's taper rounding: want '$want': $(grep taper "$TMP/meta-val.txt")"

# Meta's rack switches stand in their racks: every GPU cable stays in its rack.
R cabling "$TOP_SRCDIR/examples/llama3-roce.yaml" -o "$TMP/meta-cab" >/dev/null 2>"$TMP/cab.err" ||
    fail "llama3-roce cabling: $(head -3 "$TMP/cab.err")"
no_sanitizer "$TMP/cab.err"

# A ToR of a pair lost (two segments of HPN): its GPUs keep their other
# port; both ToRs of the pair lost: the same GPUs are cut off, for the pair
# takes the same GPUs on both sides. For both homings.
for h in dual-plane dual-tor; do
    for f in p0-leaf0 p0-leaf0,p1-leaf0; do
        R whatif --format json "$TOP_SRCDIR/examples/alibaba-hpn.yaml" --set cluster.nodes=256 \
            --set fabric.homing=$h --fail $f >"$TMP/whatif-$h-$f.json" 2>"$TMP/whatif.err" ||
            fail "whatif $h $f: $(head -3 "$TMP/whatif.err")"
        no_sanitizer "$TMP/whatif.err"
    done
done

# A ToR pair's two ToRs stand in two racks: each GPU's two cables (NIC
# ports i and i + 8 of its host) end in different racks, for both homings.
for h in dual-plane dual-tor; do
    R cabling "$TOP_SRCDIR/examples/alibaba-hpn.yaml" --set cluster.nodes=256 --set fabric.homing=$h \
        -o "$TMP/hpn-cab-$h" >/dev/null 2>"$TMP/cab.err" || fail "hpn cabling $h: $(head -3 "$TMP/cab.err")"
    no_sanitizer "$TMP/cab.err"
done

# Diagrams: in a unit of HPN, each rail's ToR pair is joined by a dashed
# "ToR pair" line (8 rails, 8 pairs), and Graphviz draws it.
R draw "$TOP_SRCDIR/examples/alibaba-hpn.yaml" --set cluster.nodes=256 --view unit=1 \
    -o "$TMP/hpn-unit1.dot" 2>"$TMP/draw.err" || fail "hpn draw: $(head -3 "$TMP/draw.err")"
no_sanitizer "$TMP/draw.err"
expect_eq "hpn unit 1: ToR pairs drawn" "$(grep -c 'ToR pair' "$TMP/hpn-unit1.dot")" \
    "$("$PY" -c 'import yaml, sys; print(yaml.safe_load(open(sys.argv[1]))["cluster"]["node"]["gpus_per_node"])' \
       "$TOP_SRCDIR/examples/alibaba-hpn.yaml")"
pair_ok=$(grep 'ToR pair' "$TMP/hpn-unit1.dot" | grep -c 'dir=none, style=dashed')
expect_eq "hpn unit 1: pair lines carry no link" "$pair_ok" 8
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$TMP/hpn-unit1.dot" -o "$TMP/hpn-unit1.svg" 2>/dev/null && [ -s "$TMP/hpn-unit1.svg" ] &&
        ok || fail "dot cannot draw the HPN unit"
fi

# The full model on Meta's cluster: traffic across pods gets what the 1:7
# aggregation taper leaves; the same cluster at 1:1 gets the whole NIC and
# is no slower.
for taper in 7:1 1:1; do
    R model --format json "$TOP_SRCDIR/examples/llama3-roce.yaml" --set workload.model=llama-3-70b \
        --set workload.batch=2048 --set workload.gpu=h100 --set "fabric.tiers.1.taper=$taper" \
        >"$TMP/model-$taper.json" 2>"$TMP/model.err" || fail "model at $taper: $(head -3 "$TMP/model.err")"
    no_sanitizer "$TMP/model.err"
done

# A NIC faster than a split leaf port: validate's error at the tier's down.
R validate "$TOP_SRCDIR/tests/data/tiers/nic-faster-than-split.yaml" >/dev/null 2>"$TMP/nic.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "nic-faster-than-split.yaml:5:30: error: the GPU NICs run at 400G but the sn5600 ports at 200G" "$TMP/nic.err"; then
    ok; else fail "NIC faster than a split port: exit $rc: $(head -3 "$TMP/nic.err")"; fi
no_sanitizer "$TMP/nic.err"

# A partial GB200 unit (5 of its 8 racks): with fabric.full_units the unit
# gets every leaf of a whole one (NVIDIA: build the whole unit's leaves and
# leaf-spine cables), without it only those its servers need.
for fu in false true; do
    d="$TMP/partial-$fu"
    mkdir -p "$d"
    R bom --format json "$TOP_SRCDIR/examples/gb200-nvl72-superpod.yaml" --set cluster.gpus=2088 \
        --set fabric.full_units=$fu >"$d/bom.json" 2>"$d/err" || fail "partial unit ($fu): $(head -3 "$d/err")"
    no_sanitizer "$d/err"
done

# GB300 NVL72 with four planes (the catalog's gb300-nvl72 has two): the
# tray's 800G ConnectX-8 split into four 200G ports, on 200G leaves
# (qm9700-ndr200), as cluster.node.planes and as cluster.planes; the two
# planes of the catalog on 400G leaves beside it. Four 400G ports would be
# 1.6T from an 800G NIC: refused at the nic_speed.
for p in node4 cluster4 node2; do
    case $p in
        node4) node='{name: gb300-nvl72, planes: 4}' planes='' sw=qm9700-ndr200 ;;
        cluster4) node=gb300-nvl72 planes='  planes: 4' sw=qm9700-ndr200 ;;
        node2) node=gb300-nvl72 planes='' sw=qm9700 ;;
    esac
    d="$TMP/gb300-$p"
    mkdir -p "$d"
    printf 'name: gb300-%s\ncluster:\n  node: %s\n  gpus: 2304\n  rails: 4\n  scalable_unit: 8\n%s\nfabric:\n  design: rail-optimized\n  switch: %s\n' \
        "$p" "$node" "$planes" "$sw" >"$d/s.yaml"
    R bom --format json "$d/s.yaml" >"$d/bom.json" 2>"$d/err" &&
        R validate --format json "$d/s.yaml" >"$d/val.json" 2>>"$d/err" &&
        R model --format json "$d/s.yaml" --set workload.model=llama-3-70b --set workload.batch=2048 \
            >"$d/model.json" 2>>"$d/err" || fail "gb300 $p: $(head -3 "$d/err")"
    no_sanitizer "$d/err"
done
printf 'name: gb300-fast\ncluster:\n  node: {name: gb300-nvl72, planes: 4, nic_speed: 400G}\n  gpus: 2304\nfabric:\n  switch: qm9700\n' \
    >"$TMP/gb300-fast.yaml"
R validate "$TMP/gb300-fast.yaml" >/dev/null 2>"$TMP/fast.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "gb300-fast.yaml:3:51: error: cluster.node.nic_speed: 4 planes of 400G is 1600G per GPU, more than the gb300-nvl72 NIC's 800G (nic_bandwidth)" "$TMP/fast.err"; then
    ok; else fail "4 x 400G from an 800G NIC: exit $rc: $(head -3 "$TMP/fast.err")"; fi
no_sanitizer "$TMP/fast.err"

"$PY" - "$DATA" "$TMP" "$TOP_SRCDIR/examples" "$T/nodes.yaml" >"$TMP/out" 2>&1 <<'PY'
import csv, json, math, sys, yaml
data, tmp, exdir, nodes = sys.argv[1:5]
fab = {f["id"]: f for f in yaml.safe_load(open(data))["fabrics"]}
bad = checks = 0

def v(design, path):
    """A published (or derived-and-checked) number of the data file."""
    f = fab[design]
    sec, field = path.split(".")
    if sec in ("node", "totals"):
        x = f[sec][field]
    else:
        x = next(t for t in f["tiers"] if t["name"] == sec)[field]
    assert x["status"] != "not_published", path
    return x["value"]

def check(ex, what, got, want):
    global bad, checks
    checks += 1
    if got != want:
        print(f"FAIL: {ex}: {what}: got {got!r}, want {want!r}")
        bad += 1

def load(ex):
    b = json.load(open(f"{tmp}/{ex}/bom.json"))
    val = json.load(open(f"{tmp}/{ex}/val.json"))
    tiers = {t["tier"]: t for t in b["tier_detail"]}
    ports = {t["tier"]: t for t in val["tier_ports"]}
    return b, tiers, ports

def tier_shape(ex, ports, j, down, down_gbps, up, up_gbps, split_down=1, split_up=1):
    p = ports[j]
    check(ex, f"tier {j} down ports x speed", (p["down_ports"], p.get("down_gbps")), (down, down_gbps))
    check(ex, f"tier {j} up ports x speed", (p["up_ports"], p.get("up_gbps") if up else 0),
          (up, up_gbps if up else 0))
    check(ex, f"tier {j} splits", (p.get("down_split"), p.get("up_split") if up else 1),
          (split_down, split_up))

def top_switches(lower_up, positions, blocks, top_down):
    """The builder's top: per position of the blocks below, the smallest
    m dividing the uplinks u with m x down >= blocks x u."""
    m = next(m for m in range(1, lower_up + 1)
             if lower_up % m == 0 and m * top_down >= blocks * lower_up)
    return positions * m

# --- ByteDance MegaScale (NSDI 2024, section 3.6) ---------------------------------
ex, D = "megascale", "bytedance-megascale"
b, tiers, ports = load(ex)
gpus = v(D, "totals.largest_run_gpus")
check(ex, "GPUs", b["gpus"], gpus)
per_tor = v(D, "tor.servers_per_group")                 # servers (one NIC each) per ToR
tors = gpus // v(D, "node.gpus_per_server") // per_tor * v(D, "tor.per_group")
check(ex, "ToRs", tiers[1]["switches"], tors)
check(ex, "GPUs per ToR group", per_tor * v(D, "node.gpus_per_server"), v(D, "totals.gpus_per_tor_group"))
tier_shape(ex, ports, 1, v(D, "tor.down_count"), v(D, "tor.down_speed"),
           v(D, "tor.up_count"), v(D, "tor.up_speed"), split_down=v(D, "tor.up_speed") // v(D, "tor.down_speed"))
tier_shape(ex, ports, 2, v(D, "tier2.down_count"), 400, v(D, "tier2.up_count"), 400)
check(ex, "ToR taper (bandwidth)", v(D, "tor.down_count") * v(D, "tor.down_speed") /
      (v(D, "tor.up_count") * v(D, "tor.up_speed")), v(D, "tor.taper"))
pods = math.ceil(tors / v(D, "tier2.down_count"))       # a pod: as many ToRs as a tier-2 switch takes
t2 = pods * v(D, "tor.up_count")                        # a ToR on every tier-2 switch of its pod
check(ex, "tier-2 switches", tiers[2]["switches"], t2)
check(ex, "links ToR-tier 2", tiers[1]["ports_up"], tors * v(D, "tor.up_count"))
check(ex, "links tier 2-tier 3", tiers[2]["ports_up"], t2 * v(D, "tier2.up_count"))
check(ex, "tier-3 switches", tiers[3]["switches"],
      top_switches(v(D, "tier2.up_count"), v(D, "tor.up_count"), pods, 64))
check(ex, "tiers", b["tiers"], v(D, "totals.tiers"))

# --- Alibaba HPN (SIGCOMM 2024, sections 5 and 6, Table 1) -------------------------
ex, D = "alibaba-hpn", "alibaba-hpn"
b, tiers, ports = load(ex)
npods = 2
check(ex, "GPUs", b["gpus"], npods * v(D, "totals.pod_gpus"))
check(ex, "planes", b["planes"], v(D, "agg.planes"))
check(ex, "ToRs", tiers[1]["switches"], npods * v(D, "tor.per_pod"))
check(ex, "ToRs per segment", v(D, "tor.per_segment"),
      v(D, "node.gpus_per_host") * v(D, "agg.planes"))   # a ToR per rail and plane
check(ex, "aggregation switches", tiers[2]["switches"], npods * v(D, "agg.per_pod"))
tier_shape(ex, ports, 1, v(D, "tor.down_count"), v(D, "tor.down_speed"),
           v(D, "tor.up_count"), v(D, "tor.up_speed"), split_down=2)
tier_shape(ex, ports, 2, v(D, "agg.down_count"), v(D, "agg.down_speed"), v(D, "agg.up_count"), 400)
taper = v(D, "tor.down_count") * v(D, "tor.down_speed") / (v(D, "tor.up_count") * v(D, "tor.up_speed"))
check(ex, "ToR taper", round(taper, 3), v(D, "tor.taper"))
check(ex, "aggregation taper", v(D, "agg.down_count") / v(D, "agg.up_count"), v(D, "agg.taper"))
check(ex, "links host-ToR", tiers[1]["ports_down"], b["gpus"] * v(D, "agg.planes"))
check(ex, "links ToR-aggregation", tiers[1]["ports_up"], npods * v(D, "tor.per_pod") * v(D, "tor.up_count"))
check(ex, "links aggregation-core", tiers[2]["ports_up"], npods * v(D, "agg.per_pod") * v(D, "agg.up_count"))
check(ex, "segments", b["gpus"] // v(D, "totals.gpus_per_segment"), npods * v(D, "totals.segments_per_pod"))
check(ex, "networks (one per plane)", b["subnets"], v(D, "agg.planes"))
# the same NICs on ToR pairs under one aggregation layer: one network; the
# pairs fill pods of as many ToRs as an aggregation switch takes, each ToR
# on every aggregation switch of its pod
dt = json.load(open(f"{tmp}/hpn-dual-tor/bom.json"))
dtt = {t["tier"]: t for t in dt["tier_detail"]}
tors = npods * v(D, "tor.per_pod")
check(ex, "dual-tor: networks", dt["subnets"], 1)
check(ex, "dual-tor: ToRs", dtt[1]["switches"], tors)
check(ex, "dual-tor: aggregation switches", dtt[2]["switches"],
      math.ceil(tors / v(D, "agg.down_count")) * v(D, "tor.up_count"))
check(ex, "dual-tor: links host-ToR (two per GPU)", dtt[1]["ports_down"], 2 * b["gpus"])

# --- Meta's Llama 3 RoCE cluster (Llama 3 paper, section 3.3.1) --------------------
ex, D = "llama3-roce", "meta-llama3-roce"
b, tiers, ports = load(ex)
check(ex, "GPUs", b["gpus"], v(D, "totals.cluster_gpus"))
check(ex, "rack switches (one per rack)", tiers[1]["switches"], v(D, "totals.racks") * v(D, "rtsw.per_rack"))
tier_shape(ex, ports, 1, v(D, "rtsw.down_count"), v(D, "rtsw.down_speed"), 16, 400)
pods = v(D, "atsw.pods")
up1 = ports[1]["up_ports"]
check(ex, "cluster switches (every rack switch on each of its pod's)", tiers[2]["switches"], pods * up1)
check(ex, "rack switches per pod", ports[2]["group"], v(D, "ctsw.racks_per_pod"))
check(ex, "GPUs per pod", ports[2]["group"] * v(D, "rtsw.gpus_per_rack"), v(D, "totals.pod_gpus"))
agg = ports[2]["down_ports"] / ports[2]["up_ports"]
check(ex, "aggregation taper within a port of 1:7", math.floor(v(D, "ctsw.racks_per_pod") / v(D, "atsw.taper")),
      ports[2]["up_ports"])
check(ex, "aggregation taper >= 7", agg >= v(D, "atsw.taper"), True)
check(ex, "links rack-cluster", tiers[1]["ports_up"], v(D, "totals.racks") * up1)
check(ex, "links cluster-aggregation", tiers[2]["ports_up"], pods * up1 * ports[2]["up_ports"])

# --- Juniper AI JVD (scaling table) ------------------------------------------------
ex, D = "juniper-ai-jvd", "juniper-ai-jvd"
b, tiers, ports = load(ex)
row = next(r for r in next(t for t in fab[D]["tables"] if t["name"] == "scaling")["rows"]
           if r[0] == b["gpus"])
gpus_max, _, stripes, spines, _ = row
check(ex, "GPUs", b["gpus"], gpus_max)
check(ex, "leaves (8 per stripe)", tiers[1]["switches"], stripes * v(D, "leaf.per_stripe"))
check(ex, "spines", tiers[2]["switches"], spines)
leaf_ports = ports[1]["down_ports"] + ports[1]["up_ports"]
check(ex, "servers per stripe = leaf ports / 2", b["gpus"] // stripes // v(D, "node.gpus_per_server"),
      leaf_ports // 2)
check(ex, "leaf taper", ports[1]["down_ports"] / ports[1]["up_ports"], v(D, "leaf.taper"))
check(ex, "at least the minimum of spines", tiers[2]["switches"] >= v(D, "spine.minimum"), True)
check(ex, "links leaf-spine", tiers[1]["ports_up"], tiers[1]["switches"] * ports[1]["up_ports"])

# --- A Spectrum-4 SN5600 leaf at two speeds (SN5000 manual) ------------------------
ex, D = "mixed-speed-leaf", "nvidia-sn5600-leaf"
b, tiers, ports = load(ex)
tier_shape(ex, ports, 1, v(D, "sn5600.down_count"), v(D, "sn5600.down_speed"),
           v(D, "sn5600.up_count"), v(D, "sn5600.up_speed"), split_down=v(D, "sn5600.twin_port_split"))
check(ex, "ports used (800G ports)", ports[1]["down_ports"] // v(D, "sn5600.twin_port_split") +
      ports[1]["up_ports"], v(D, "sn5600.ports_800"))
check(ex, "taper (bandwidth)", v(D, "sn5600.down_count") * v(D, "sn5600.down_speed") /
      (v(D, "sn5600.up_count") * v(D, "sn5600.up_speed")), v(D, "sn5600.taper"))
leaves = b["gpus"] // v(D, "sn5600.down_count")
check(ex, "leaves", tiers[1]["switches"], leaves)
check(ex, "spines", tiers[2]["switches"], top_switches(v(D, "sn5600.up_count"), 1, leaves,
                                                       v(D, "sn5600.ports_800")))

# --- GB200 NVL72 SuperPOD (NVIDIA's reference architecture) -------------------------
ex, D = "gb200-nvl72-superpod", "nvidia-superpod-gb200"
b = json.load(open(f"{tmp}/{ex}/bom.json"))
node = yaml.safe_load(open(nodes))["nodes"]["gb200-nvl72"]
sus = b["gpus"] // v(D, "totals.gpus_per_su")
check(ex, "whole units", b["gpus"] % v(D, "totals.gpus_per_su"), 0)
check(ex, "GPUs per rack", node["gpus_per_node"] * node["per_rack"], v(D, "node.gpus_per_rack"))
lines = {l["kind"]: l["count"] for l in b["rack_trays"]["lines"]}
racks = sus * v(D, "totals.racks_per_su")
check(ex, "compute trays", lines.get("compute-tray"), racks * v(D, "node.compute_trays"))
check(ex, "NVLink switch trays", lines.get("nvlink-switch-tray"), racks * v(D, "node.nvlink_switch_trays"))
check(ex, "racks with trays", b["rack_trays"]["racks"], racks)

# rack-tor: a leaf per rack, in it
val = json.load(open(f"{tmp}/llama3-roce/val.json"))
check("llama3-roce", "design", val["design"], "rack-tor")
rows = [r for r in csv.DictReader(open(f"{tmp}/meta-cab/cabling/cabling.csv", newline="")) if r["tier"] == "1"]
check("llama3-roce", "GPU cables", len(rows), v("meta-llama3-roce", "totals.cluster_gpus"))
check("llama3-roce", "GPU cables leaving their rack", sum(r["a_rack"] != r["z_rack"] for r in rows), 0)
check("llama3-roce", "racks with a rack switch", len({r["z_rack"] for r in rows}), v("meta-llama3-roce", "totals.racks"))

# a ToR of a pair, and the pair, lost
tor_gpus = v("alibaba-hpn", "tor.down_count")               # a ToR's 200G ports: one per GPU of its rail
for h in ("dual-plane", "dual-tor"):
    one = json.load(open(f"{tmp}/whatif-{h}-p0-leaf0.json"))["connectivity"]
    both = json.load(open(f"{tmp}/whatif-{h}-p0-leaf0,p1-leaf0.json"))["connectivity"]
    check("alibaba-hpn", f"{h}: one ToR of a pair lost: GPUs cut off", one["gpus_cut"], 0)
    check("alibaba-hpn", f"{h}: one ToR of a pair lost: GPUs on one port", one["gpus_degraded"], tor_gpus)
    check("alibaba-hpn", f"{h}: the pair lost: GPUs cut off", both["gpus_cut"], tor_gpus)
    check("alibaba-hpn", f"{h}: the pair lost: NIC ports cut", both["nic_ports_cut"], 2 * tor_gpus)

# a pair's ToRs in two racks
for h in ("dual-plane", "dual-tor"):
    rack = {}
    for r in csv.DictReader(open(f"{tmp}/hpn-cab-{h}/cabling/cabling.csv", newline="")):
        if r["tier"] == "1":
            rack[(r["a_device"], int(r["a_port"].split("_")[1]))] = (r["z_rack"], r["z_device"])
    gpn = v("alibaba-hpn", "node.gpus_per_host")
    same = sum(1 for (host, i), (rk, dev) in rack.items() if i < gpn and rack[(host, i + gpn)][0] == rk)
    pairs = sum(1 for (host, i) in rack if i < gpn)
    check("alibaba-hpn", f"{h}: GPU pairs of cables", pairs, 256 * gpn)
    check("alibaba-hpn", f"{h}: a GPU's two cables in one rack", same, 0)

# the model's bandwidth across pods: the cluster switch's up ports over its down ones
ex = "llama3-roce"
b, tiers, ports = load(ex)
m7 = json.load(open(f"{tmp}/model-7:1.json"))
m1 = json.load(open(f"{tmp}/model-1:1.json"))
check(ex, "model: share across pods", round(m7["fabric_share"]["share"], 6),
      round(ports[2]["up_ports"] / ports[2]["down_ports"], 6))
check(ex, "model: tier crossed", m7["fabric_share"]["tier"], 2)
check(ex, "model: share at 1:1", m1["fabric_share"]["share"], 1)
check(ex, "model: 1:7 no faster than 1:1", m7["optimum"]["total_s"] >= m1["optimum"]["total_s"], True)

# the partial unit: 3 whole units and 5 racks of the fourth
rails, leaf_down = 4, 32                                # the example's rails, qm9700 at 1:1
per_rack_rail = v(D, "node.gpus_per_rack") // rails
whole = math.ceil(v(D, "totals.racks_per_su") * per_rack_rail / leaf_down) * rails
part = math.ceil(5 * per_rack_rail / leaf_down) * rails
for fu, want in (("false", 3 * whole + part), ("true", 4 * whole)):
    pb = json.load(open(f"{tmp}/partial-{fu}/bom.json"))
    check(ex, f"leaves of 3 units and 5 racks (full_units {fu})", pb["tier_detail"][0]["switches"], want)
    check(ex, f"leaf uplinks (full_units {fu})", pb["tier_detail"][0]["ports_up"], want * leaf_down)

# --- GB300 NVL72 with four planes (the catalog's node, its NIC split) ---------------
D = "nvidia-gb300-nvl72"
cat = yaml.safe_load(open(nodes))["nodes"]["gb300-nvl72"]
switches = yaml.safe_load(open(nodes.replace("nodes.yaml", "switches.yaml")))["switches"]
nic = v(D, "node.nic_bandwidth")                        # ConnectX-8: 800G per GPU
check("gb300", "catalog: the NIC's bandwidth", cat["nic_bandwidth"], f"{nic}G")
check("gb300", "catalog: its planes", cat["planes"], v(D, "totals.planes"))
check("gb300", "two planes of 400G", v(D, "node.plane_speed"), nic // v(D, "totals.planes"))
gpus, rails, su_racks = 2304, v(D, "node.gpus_per_tray"), 8   # the spec: 4 units of 8 racks
for p, planes, sw in (("node4", 4, "qm9700-ndr200"), ("cluster4", 4, "qm9700-ndr200"),
                      ("node2", v(D, "totals.planes"), "qm9700")):
    ex = f"gb300 {p}"
    b, tiers, ports = load(f"gb300-{p}")
    val = json.load(open(f"{tmp}/gb300-{p}/val.json"))
    m = json.load(open(f"{tmp}/gb300-{p}/model.json"))
    radix = switches[sw]["radix"]
    u = radix // 2                                      # a 1:1 leaf: half its ports up
    check(ex, "GPUs", b["gpus"], gpus)
    check(ex, "planes", b["planes"], planes)
    check(ex, "networks (one per plane)", b["subnets"], planes)
    check(ex, "NIC port speed: the NIC over the planes", val["checks"]["nic"]["nic_gbps"], nic / planes)
    check(ex, "links at the NIC's speed", val["checks"]["nic"]["link_gbps"], nic / planes)
    check(ex, "model: network bandwidth per GPU (B/s), every plane's port", m["constants"]["B_S"],
          nic * 1e9 / 8)
    sus = gpus // (su_racks * v(D, "node.gpus_per_rack"))
    per_rail = su_racks * v(D, "node.gpus_per_rack") // rails   # a unit's GPUs of one rail
    leaves_plane = sus * rails * math.ceil(per_rail / u)
    check(ex, "leaves (per plane, unit and rail, as many as its GPUs fill)", tiers[1]["switches"],
          planes * leaves_plane)
    check(ex, "GPU links (one per GPU and plane)", tiers[1]["ports_down"], gpus * planes)
    check(ex, "leaf ports down x up", (ports[1]["down_ports"], ports[1]["up_ports"]), (u, u))
    if planes == 4:                                     # two tiers: every leaf of a plane on every spine
        check(ex, "spines", tiers[2]["switches"], planes * top_switches(u, 1, leaves_plane, radix))
        check(ex, "links leaf-spine", tiers[1]["ports_up"], planes * leaves_plane * u)
        check(ex, "tiers", b["tiers"], 2)
n4 = json.load(open(f"{tmp}/gb300-node4/bom.json"))
c4 = json.load(open(f"{tmp}/gb300-cluster4/bom.json"))
check("gb300", "cluster.planes: 4 builds what cluster.node.planes: 4 does",
      [(t["switches"], t["ports_down"], t["ports_up"]) for t in c4["tier_detail"]],
      [(t["switches"], t["ports_down"], t["ports_up"]) for t in n4["tier_detail"]])

print(f"{checks} checks, {bad} failed")
sys.exit(1 if bad else 0)
PY
if [ $? -eq 0 ]; then ok; else fail "published numbers: $(grep FAIL "$TMP/out" | head -20)"; fi
cat "$TMP/out"
finish
