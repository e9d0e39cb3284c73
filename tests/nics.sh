#!/bin/sh
# NIC names, capex and the Blackwell Ultra catalog entries.
#
# NIC names: on a DGX H100 the compute NICs of GPUs 0..7 are mlx5_0, 3, 4, 5,
# 6, 9, 10 and 11 (NVIDIA DGX H100/H200 User Guide, "Network Modules"). The
# table is written here, not read from the catalog, and every output that
# names a NIC is read with its own parser: the OpenSM node-name map,
# cn_guids.conf and topology.net, the NetBox import, ibdiagnet's topology and IBNL,
# cabling.csv (rail by rail), p2p.csv through hca_mapping.csv (port -> RDMA
# device) and the
# workbook (openpyxl). A model without a table keeps mlx5_<i>; a spec's own
# table wins over the catalog's; a duplicate name is refused.
#
# Capex: total = switches x the catalog's list price + the optics and cables
# of the physical bill (sum of count x unit price of its lines), then racks
# and spares from cost.rack and cost.spares; the paper model is unchanged.
#
# Model: railyard model runs on dgx-b300 and gb300-nvl72.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/nics"

# ---- DGX H100 names in every output ---------------------------------------------
"$RAILYARD" build "$D/dgx-h100.yaml" -o "$TMP/h100" >"$TMP/h100.out" 2>"$TMP/h100.err"
expect_eq "build dgx-h100 exit" $? 0
no_sanitizer "$TMP/h100.err"

"$PY" - "$TMP/h100" <<'P' >"$TMP/h100.check" 2>&1
import csv, glob, os, re, sys
out = sys.argv[1]
TABLE = ["mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"]
NODES = 32
want = {("node%03d" % (n + 1), TABLE[g]) for n in range(NODES) for g in range(8)}
fails = 0
def check(what, got):
    global fails
    if got != want:
        fails += 1
        extra = sorted(got - want)[:4]
        missing = sorted(want - got)[:4]
        print("FAIL: %s: %d names, %d wanted; extra %s, missing %s"
              % (what, len(got), len(want), extra, missing))

osm = glob.glob(os.path.join(out, "opensm", "*"))
nnm, cng, topo = set(), set(), set()
for d in osm:
    for line in open(os.path.join(d, "node-name-map")):
        m = re.match(r'^0x[0-9a-f]+ "(\S+) (mlx5_\d+)"$', line.strip())
        if m:
            nnm.add((m.group(1), m.group(2)))
    for line in open(os.path.join(d, "cn_guids.conf")):
        if line.startswith("#") or not line.strip():
            continue
        guid, host, dev = line.split()
        cng.add((host, dev))
    for line in open(os.path.join(d, "topology.net")):
        m = re.search(r'# "(\S+) (mlx5_\d+)"', line)
        if m:
            topo.add((m.group(1), m.group(2)))
check("node-name-map", nnm)
check("cn_guids.conf", cng)
check("topology.net", topo)

cab = os.path.join(out, "cabling")
with open(os.path.join(cab, "netbox", "08-cables.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
check("netbox/08-cables.csv", {(r["side_a_device"], r["side_a_name"]) for r in rows
                            if r["side_a_device"].startswith("node")})

ibt = set()
types, ibnl = set(), set()
for d in osm:
    here = set()
    for line in open(os.path.join(d, "ibdiagnet.topo")):
        m = re.match(r"^\s+P\d+ -\S*> (\S+) (\S+) (mlx5_\d+)/P1$", line)
        if m:
            here.add(m.group(1))
            ibt.add((m.group(2), m.group(3)))
    types |= here
    for t in here:
        for line in open(os.path.join(d, "ibdiag_ibnl", t + ".ibnl")):
            m = re.match(r"^NODE CA 1 \S+ (\S+)$", line)
            if m:
                ibnl.add(m.group(1))
check("ibdiagnet.topo", ibt)
# the host type: a DGX H100's CAs on the subnet, by mlx5 number in runs
if types != {"dgx-h100_mlx5_0.3-6.9-11"} or ibnl != set(TABLE):
    fails += 1
    print("FAIL: ibdiagnet.topo host types %s with CAs %s, want dgx-h100_mlx5_0.3-6.9-11 "
          "with %s" % (sorted(types), sorted(ibnl), TABLE))

with open(os.path.join(cab, "cabling.csv"), newline="") as f:
    rows = [r for r in csv.DictReader(f) if r["a_type"] == "dgx-h100"]
check("cabling.csv", {(r["a_device"], r["a_port"]) for r in rows})
bad = [r["label"] for r in rows if r["a_port"] != TABLE[int(r["rail"])]]
if bad:
    fails += 1
    print("FAIL: cabling.csv: %d GPU ports not named by their rail's NIC, e.g. %s" % (len(bad), bad[:3]))

with open(os.path.join(cab, "hca_mapping.csv"), newline="") as f:
    hca = {r["port"]: r["hca-name"] for r in csv.DictReader(f)}
with open(os.path.join(cab, "p2p.csv"), newline="") as f:
    rows = [r for r in csv.DictReader(f) if r["A-Type"] == "Host"]
p2p = {(r["A-Node Name"], hca.get(r["A-Port"], "?")) for r in rows}
check("p2p.csv through hca_mapping.csv", p2p)

try:
    import openpyxl
except ImportError:
    print("SKIP-XLSX")
else:
    wb = openpyxl.load_workbook(os.path.join(cab, "cabling.xlsx"), read_only=True)
    seen = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            for v in row:
                if isinstance(v, str):
                    seen.update(re.findall(r"\bmlx5_\d+\b", v))
    if seen != set(TABLE):
        fails += 1
        print("FAIL: cabling.xlsx names %s, want exactly %s" % (sorted(seen), TABLE))
print("python-fails", fails)
P
cat "$TMP/h100.check" | grep -v '^python-fails' | grep -v '^SKIP-XLSX'
expect_eq "dgx-h100 names in every output" "$(sed -n 's/^python-fails //p' "$TMP/h100.check")" 0

# ---- a model without a table keeps mlx5_<i> -------------------------------------
"$RAILYARD" opensm "$D/hgx-h100.yaml" -o "$TMP/hgx" >/dev/null 2>"$TMP/hgx.err"
expect_eq "opensm hgx-h100 exit" $? 0
got=$(sed -n 's/^0x[0-9a-f]* "node001 \(mlx5_[0-9]*\)"$/\1/p' "$TMP"/hgx/opensm/*/node-name-map | sort -t_ -k2n | tr '\n' ' ')
expect_eq "hgx-h100 NIC names" "$got" "mlx5_0 mlx5_1 mlx5_2 mlx5_3 mlx5_4 mlx5_5 mlx5_6 mlx5_7 "

# Two planes on a DGX H100: plane 1's ports come after the table's mlx5_11.
"$RAILYARD" opensm "$D/dgx-h100.yaml" --set cluster.planes=2 --set fabric.tiers=auto \
    -o "$TMP/h2p" >/dev/null 2>"$TMP/h2p.err"
expect_eq "opensm dgx-h100 2 planes exit" $? 0
got=$(sed -n 's/^0x[0-9a-f]* "node001 \(mlx5_[0-9]*\)"$/\1/p' "$TMP"/h2p/opensm/*/node-name-map | sort -t_ -k2n | tr '\n' ' ')
expect_eq "dgx-h100 2-plane NIC names" "$got" \
    "mlx5_0 mlx5_3 mlx5_4 mlx5_5 mlx5_6 mlx5_9 mlx5_10 mlx5_11 mlx5_12 mlx5_13 mlx5_14 mlx5_15 mlx5_16 mlx5_17 mlx5_18 mlx5_19 "

# ---- a spec's own table ----------------------------------------------------------
"$RAILYARD" opensm "$D/override.yaml" -o "$TMP/own" >/dev/null 2>"$TMP/own.err"
expect_eq "opensm own table exit" $? 0
got=$(grep -h '"node002 ' "$TMP"/own/opensm/*/node-name-map | sed 's/.*"node002 \(mlx5_[0-9]*\)"/\1/' | tr '\n' ' ')
# GUIDs are planned GPU by GPU, so the map lists GPU 0's NIC first.
expect_eq "own table in node-name-map (GPU order)" "$got" \
    "mlx5_7 mlx5_6 mlx5_5 mlx5_4 mlx5_3 mlx5_2 mlx5_1 mlx5_0 "
"$RAILYARD" validate "$D/dup.yaml" >/dev/null 2>"$TMP/dup.err"
rc=$?
[ "$rc" -ne 0 ] && ok || fail "a duplicate NIC name is accepted"
grep -q "dup.yaml:7:.*cluster.node.nics\[1\].rdma: 'mlx5_0' is also entry 0's" "$TMP/dup.err" && ok ||
    fail "duplicate NIC message: $(cat "$TMP/dup.err")"

# ---- capex -----------------------------------------------------------------------
"$RAILYARD" bom "$D/dgx-h100.yaml" --format json >"$TMP/bom.json" 2>"$TMP/bom.err"
expect_eq "bom json exit" $? 0
"$RAILYARD" bom "$D/dgx-h100.yaml" --format json --set cost.rack=12000 --set cost.spares=5 \
    >"$TMP/bom2.json" 2>>"$TMP/bom.err"
expect_eq "bom json with racks and spares exit" $? 0
"$RAILYARD" bom "$D/dgx-h100.yaml" >"$TMP/bom.txt" 2>>"$TMP/bom.err"
expect_eq "bom text exit" $? 0
"$RAILYARD" bom "$D/dgx-h100.yaml" --cost paper >"$TMP/bom-paper.txt" 2>>"$TMP/bom.err"
expect_eq "bom --cost paper exit" $? 0
no_sanitizer "$TMP/bom.err"
"$PY" - "$TMP/bom.json" "$TMP/bom2.json" "$TMP/bom.txt" "$TOP_SRCDIR/templates/switches.yaml" \
    "$TMP/bom-paper.txt" \
    <<'P' >"$TMP/capex.check" 2>&1
import json, sys, yaml
b1, b2 = (json.load(open(p)) for p in sys.argv[1:3])
text = open(sys.argv[3]).read()
price = yaml.safe_load(open(sys.argv[4]))["switches"]["qm9700"]["price"]
fails = 0
def eq(what, got, want):
    global fails
    if abs(got - want) > 0.011:
        fails += 1
        print("FAIL: %s: got %r, want %r" % (what, got, want))
for b in (b1, b2):
    lines = b["physical"]["lines"]
    optics = sum(l["count"] * l["unit_price"] for l in lines if l["what"] == "transceiver")
    cables = sum(l["count"] * l["unit_price"] for l in lines if l["what"] != "transceiver")
    sw = b["switches"]["total"] * price
    c = b["capex"]
    eq("capex.switches", c["switches"], sw)
    eq("capex.optics", c["optics"], optics)
    eq("capex.cables", c["cables"], cables)
    eq("capex.switch_count", c["switch_count"], b["switches"]["total"])
    if b is b1:
        eq("capex.total", c["total"], sw + optics + cables)
        for k in ("racks", "spares"):
            if k in c:
                fails += 1
                print("FAIL: capex.%s present without its key" % k)
    else:
        racks = b["physical"]["racks"] * 12000
        eq("capex.racks", c["racks"], racks)
        eq("capex.spares", c["spares"], 0.05 * (sw + optics + cables))
        eq("capex.total with racks and spares", c["total"], 1.05 * (sw + optics + cables) + racks)
    # The paper's model as it always was: every port at $748, 2 transceivers per link at $374.
    eq("paper_cost.total", b["paper_cost"]["total"], b["ports"]["total"] * 748 + b["links"]["total"] * 2 * 374)
if c["switch_part"] != "MQM9700-NS2F":
    fails += 1
    print("FAIL: switch_part %r" % c["switch_part"])
total = "{:,.0f}".format(b1["capex"]["total"])
import re
if not re.search(r"^  total: +\$%s(\.\d\d)?(  \(\$[0-9.]+[kMBT]\))?$" % re.escape(total), text.split("capex (")[-1], re.M):
    fails += 1
    print("FAIL: the text's capex block lacks total $%s" % total)
# The paper's model only when asked, named with its two prices, after the capex.
paper = open(sys.argv[5]).read()
head = "rail-only paper's cost model ($748 a port, $374 a transceiver"
if head in text or "transceivers (2 per link)" in text:
    fails += 1
    print("FAIL: the paper's model without --cost paper")
if head not in paper or paper.index(head) < paper.index("capex ("):
    fails += 1
    print("FAIL: --cost paper lacks the paper's model after the capex")
want = "{:,}".format(b1["ports"]["total"] * 748 + b1["links"]["total"] * 2 * 374)
if not re.search(r"^  total: +\$%s(\.00)?$" % re.escape(want), paper.split(head)[-1], re.M):
    fails += 1
    print("FAIL: --cost paper's total is not $%s" % want)
print("python-fails", fails)
P
grep -v '^python-fails' "$TMP/capex.check"
expect_eq "capex = switches x price + optics + cables" "$(sed -n 's/^python-fails //p' "$TMP/capex.check")" 0

# A switch without a price: capex says so and leaves it out.
"$RAILYARD" bom "$D/hgx-h100.yaml" --set fabric.switch.price=0 >"$TMP/noprice.txt" 2>&1
expect_eq "bom without a switch price exit" $? 0
grep -q "no price in the catalog; set fabric.switch.price" "$TMP/noprice.txt" && ok ||
    fail "no note for a switch without a price"

# ---- railyard model on Blackwell Ultra -------------------------------------------
for n in dgx-b300:b300:2250 gb300-nvl72:gb300:2500; do
    node=${n%%:*}; rest=${n#*:}; gpu=${rest%%:*}; tf=${rest#*:}
    "$RAILYARD" model "$D/model-$node.yaml" >"$TMP/model-$node.txt" 2>"$TMP/model-$node.err"
    expect_eq "model on $node exit" $? 0
    no_sanitizer "$TMP/model-$node.err"
    grep -q "gpu  *$gpu (from the node): $tf TFLOP/s" "$TMP/model-$node.txt" && ok ||
        fail "model on $node: no '$gpu ... $tf TFLOP/s' line"
done
# gb200-nvl72's NIC is 400G (ConnectX-7): a switch without a speed takes it.
"$RAILYARD" validate "$D/gb200.yaml" --format json >"$TMP/gb200.json" 2>&1
expect_eq "validate gb200-nvl72 exit" $? 0
"$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["port_gbps"])' "$TMP/gb200.json" >"$TMP/gb200.speed"
expect_eq "gb200-nvl72 NIC speed" "$(cat "$TMP/gb200.speed")" "400.0"

finish
