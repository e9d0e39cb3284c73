#!/bin/sh
# Rack-scale NVLink racks (GB200 and GB300 NVL72): the catalog's rack_trays
# (NVLink switch trays, power shelves, management switches) are counted
# wherever hardware is. For 576 GPUs (8 racks of 72) every tray kind's count
# in the bill of materials (JSON, text, CSV and the workbook's BOM sheet) is
# racks x per_rack, the racks and per_rack read here from
# templates/nodes.yaml; a compute rack's power (racks.csv) is the sum of its
# trays' power and the rack figure the catalog cites (120 kW for GB200, 135
# kW less the compute tray's rounding for GB300), and its units the sum of
# its trays'; NetBox's devices put every tray of a rack at its own units
# within the rack's height; a spec's cluster.node.rack_trays replaces the
# list; a malformed list, in a spec or in the catalog, is an error at its
# file:line:col with nothing written; servers and trays taller than the rack
# are refused.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
T="$TOP_SRCDIR/templates"
R() { "$RAILYARD" -q -T "$T" "$@"; }

spec() {    # spec FILE NODE-YAML
    cat >"$1" <<EOF
name: nvl
cluster:
  node: $2
  gpus: 576
fabric:
  switch: qm9700
EOF
}

for node in gb200-nvl72 gb300-nvl72; do
    d="$TMP/$node"
    mkdir -p "$d"
    spec "$d/s.yaml" "$node"
    R bom --format json "$d/s.yaml" >"$d/bom.json" 2>"$d/err"
    R bom "$d/s.yaml" >"$d/bom.txt" 2>>"$d/err"
    R bom --format csv "$d/s.yaml" >"$d/bom.csv" 2>>"$d/err"
    R cabling "$d/s.yaml" -o "$d/cab" >/dev/null 2>>"$d/err"
    R validate "$d/s.yaml" --set layout.rack_power=119 >"$d/val.txt" 2>>"$d/err"
    no_sanitizer "$d/err"
    "$PY" - "$T/nodes.yaml" "$node" "$d" 576 <<'PY'
import csv, json, re, sys, yaml, zipfile
cat, node, d, gpus = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
bad = 0
def check(what, got, want):
    global bad
    if got != want:
        print(f"FAIL: {node}: {what}: got {got!r}, want {want!r}")
        bad = 1
e = yaml.safe_load(open(cat))["nodes"][node]
trays = e.get("rack_trays")
if not trays:
    print(f"FAIL: {node}: the catalog entry has no rack_trays"); sys.exit(1)
racks = gpus // (e["gpus_per_node"] * e["per_rack"])        # 8 racks of 72
check("racks of 72 GPUs", racks, 8)
want = {"compute-tray": (e["per_rack"], gpus // e["gpus_per_node"], e["rack_units"], e["power"])}
for t in trays:
    want[t["kind"]] = (t["per_rack"], racks * t["per_rack"], t["rack_units"], t.get("power", 0))
check("kinds in the catalog", sorted(want), sorted(["compute-tray", "nvlink-switch-tray", "power-shelf", "mgmt-switch"]))
check("NVLink switch trays a rack", want["nvlink-switch-tray"][0], 9)
rack_w = sum(v[0] * v[3] for v in want.values())
rack_u = sum(v[0] * v[2] for v in want.values())
# the rack figure the catalog cites: 120 kW (GB200); 135 kW for GB300, the
# compute tray rounded down to whole watts (at most 18 x 1 W under)
if node == "gb200-nvl72":
    check("rack power = the cited 120 kW", rack_w, 120000)
else:
    check("rack power within 18 W under the cited 135 kW", 135000 - 18 < rack_w <= 135000, True)
check("rack units fit 48U from unit 2", rack_u <= 47, True)

# bom JSON
j = json.load(open(f"{d}/bom.json"))
rt = j.get("rack_trays")
if rt is None:
    print(f"FAIL: {node}: bom JSON has no rack_trays"); sys.exit(1)
check("json racks", rt["racks"], racks)
check("json rack_units", rt["rack_units"], rack_u)
check("json rack_power_w", rt["rack_power_w"], rack_w)
got = {l["kind"]: (l["per_rack"], l["count"], l["rack_units"], l["power_w"]) for l in rt["lines"]}
check("json lines", got, want)
for l in rt["lines"]:
    check(f"json {l['kind']} power_w_total", l["power_w_total"], l["count"] * l["power_w"])

# bom text: a line per kind with its count
txt = open(f"{d}/bom.txt").read()
for k, v in want.items():
    m = re.search(rf"^  {re.escape(k)} .*? {v[0]} +([0-9,]+) +{v[2]}U", txt, re.M)
    check(f"text line of {k}", m and int(m.group(1).replace(",", "")), v[1])
check("text rack power", f"{racks} compute racks of {rack_u}U, {rack_w:,} W each" in txt, True)

# bom CSV: section racks
rows = [r for r in csv.DictReader(open(f"{d}/bom.csv")) if r["section"] == "racks"]
check("csv lines", {r["item"]: int(r["quantity"]) for r in rows}, {k: v[1] for k, v in want.items()})

# racks.csv: every compute rack holds the trays; units and power are their sums
rk = list(csv.DictReader(open(f"{d}/cab/cabling/racks.csv")))
comp = [r for r in rk if r["kind"] == "compute"]
check("compute racks", len(comp), racks)
for r in comp:
    check(f"{r['rack']} units_used", int(r["units_used"]), rack_u)
    check(f"{r['rack']} power_kw", round(float(r["power_kw"]) * 1000), rack_w)

# validate: a 119 kW budget is exceeded by the full rack (with its trays)
val = open(f"{d}/val.txt").read()
check("rack-power warning at 119 kW", f"{racks} racks draw up to {rack_w / 1000:.1f} kW" in val, True)

# the workbook's BOM sheet: a row per kind with its count
z = zipfile.ZipFile(f"{d}/cab/cabling/cabling.xlsx")
wb = z.read("xl/workbook.xml").decode()
sheets = re.findall(r'<sheet name="([^"]*)" sheetId="(\d+)"', wb)
idx = [i for i, (n, _) in enumerate(sheets) if n == "BOM"]
check("workbook has a BOM sheet", len(idx), 1)
xml = z.read(f"xl/worksheets/sheet{idx[0] + 1}.xml").decode()
sheet = {}
for row in re.findall(r"<row [^>]*>(.*?)</row>", xml):
    cells = dict(re.findall(r'<c r="([A-Z]+)\d+"[^>]*>(?:<is><t[^>]*>|<v>)([^<]*)<', row))
    if "A" in cells and "E" in cells:
        sheet[cells["A"]] = cells["E"]
check("workbook lines", {k: int(float(sheet.get(k, -1))) for k in want}, {k: v[1] for k, v in want.items()})

# NetBox: types per kind; every tray of a rack at its own units in the rack
nb = f"{d}/cab/cabling/netbox"
height = {}
for k, v in want.items():
    model = node if k == "compute-tray" else f"{node}-{k}"
    ty = yaml.safe_load(open(f"{nb}/05-device-types/nvidia-{model}.yaml"))
    check(f"device type of {k}: u_height", ty["u_height"], v[2])
    height[model] = ty["u_height"]
rack_h = {r["name"]: int(r["u_height"]) for r in csv.DictReader(open(f"{nb}/03-racks.csv"))}
roles = {r["name"] for r in csv.DictReader(open(f"{nb}/06-device-roles.csv"))}
check("roles of the tray kinds", all(k in roles for k in want if k != "compute-tray"), True)
per = {}
for r in csv.DictReader(open(f"{nb}/07-devices.csv")):
    if r["device_type"] not in height:
        continue
    per.setdefault(r["rack"], []).append(r)
check("racks with trays in NetBox", len(per), racks)
for rack, devs in sorted(per.items()):
    used = set()
    kinds = {}
    for r in devs:
        kinds[r["role"]] = kinds.get(r["role"], 0) + 1
        h = height[r["device_type"]]
        units = set(range(int(r["position"]), int(r["position"]) + h))
        if used & units or min(units) < 1 or max(units) > rack_h[rack]:
            print(f"FAIL: {node}: {r['name']} at unit {r['position']} ({h}U) overlaps or leaves {rack}")
            bad = 1
        used |= units
    check(f"{rack} devices by kind", kinds, {("server" if k == "compute-tray" else k): v[0] for k, v in want.items()})
    check(f"{rack} units taken", len(used), rack_u)
sys.exit(bad)
PY
    [ $? -eq 0 ] && ok || fail "$node: the rack trays' counts, units and power"
done

# railyard catalog --format json: every node's rack_trays as the YAML gives them.
R catalog nodes --format json >"$TMP/cat.json" 2>"$TMP/cat.err"
"$PY" - "$TMP/cat.json" "$T/nodes.yaml" <<'PY'
import json, sys, yaml
j = json.load(open(sys.argv[1]))
y = yaml.safe_load(open(sys.argv[2]))["nodes"]
got = {n["name"]: n.get("rack_trays") for n in (j["nodes"] if isinstance(j, dict) else j)}
want = {k: [{"kind": t["kind"], "part": t.get("part", ""), "per_rack": t["per_rack"],
             "rack_units": t["rack_units"], "power_w": t.get("power", 0)} for t in v.get("rack_trays", [])]
        for k, v in y.items()}
if got != want or not want["gb200-nvl72"]:
    print(f"FAIL: catalog JSON rack_trays: got {got}, want {want}"); sys.exit(1)
PY
[ $? -eq 0 ] && ok || fail "catalog JSON rack_trays"

# A spec's list replaces the catalog's: 4 2U shelves, no management switches.
d="$TMP/over"
mkdir -p "$d"
cat >"$d/s.yaml" <<'EOF'
name: nvl
cluster:
  node:
    name: gb200-nvl72
    rack_trays:
      - {kind: nvlink-switch-tray, part: "NVLink Switch tray", per_rack: 9, rack_units: 1, power: 400}
      - {kind: power-shelf, per_rack: 4, rack_units: 2, power: 150}
  gpus: 576
fabric:
  switch: qm9700
EOF
R bom --format json "$d/s.yaml" >"$d/bom.json" 2>"$d/err"
R cabling "$d/s.yaml" -o "$d/cab" >/dev/null 2>>"$d/err"
R bom --format json "$d/s.yaml" --set 'cluster.node.rack_trays=[]' >"$d/none.json" 2>>"$d/err"
no_sanitizer "$d/err"
"$PY" - "$d" "$T/nodes.yaml" <<'PY'
import csv, json, sys, yaml
d = sys.argv[1]
e = yaml.safe_load(open(sys.argv[2]))["nodes"]["gb200-nvl72"]
spec = yaml.safe_load(open(f"{d}/s.yaml"))["cluster"]["node"]["rack_trays"]
racks = 576 // (e["gpus_per_node"] * e["per_rack"])
rt = json.load(open(f"{d}/bom.json")).get("rack_trays", {"lines": []})
got = {l["kind"]: l["count"] for l in rt["lines"]}
want = {"compute-tray": 576 // e["gpus_per_node"]}
want.update({t["kind"]: racks * t["per_rack"] for t in spec})
bad = 0
if got != want:
    print(f"FAIL: inline rack_trays counts: got {got}, want {want}"); bad = 1
units = e["per_rack"] * e["rack_units"] + sum(t["per_rack"] * t["rack_units"] for t in spec)
power = e["per_rack"] * e["power"] + sum(t["per_rack"] * t["power"] for t in spec)
for r in csv.DictReader(open(f"{d}/cab/cabling/racks.csv")):
    if r["kind"] == "compute" and (int(r["units_used"]) != units or round(float(r["power_kw"]) * 1000) != power):
        print(f"FAIL: inline rack_trays: {r['rack']}: {r['units_used']}U {r['power_kw']} kW, want {units}U {power} W"); bad = 1
if "rack_trays" in json.load(open(f"{d}/none.json")):
    print("FAIL: rack_trays=[] still counts trays"); bad = 1
sys.exit(bad)
PY
[ $? -eq 0 ] && ok || fail "inline rack_trays"

# Errors at file:line:col, nothing written: a malformed spec list ...
d="$TMP/bad"
mkdir -p "$d"
cat >"$d/s.yaml" <<'EOF'
name: nvl
cluster:
  node:
    name: gb200-nvl72
    rack_trays:
      - {kind: nvlink-switch-tray, per_rack: 9, rack_units: 1}
      - {kind: power-shelf, per_rack: nine, rack_units: 1}
  gpus: 576
fabric:
  switch: qm9700
EOF
R cabling "$d/s.yaml" -o "$d/out" >/dev/null 2>"$d/err"
rc=$?
want=$(awk '/per_rack: nine/ { print FILENAME ":" NR ":" index($0, "nine") ": error: cluster.node.rack_trays[1].per_rack"; exit }' "$d/s.yaml")
if [ "$rc" -eq 1 ] && grep -qF "$want" "$d/err" && [ ! -e "$d/out" ]; then ok; else
    fail "malformed spec rack_trays: exit $rc, want 1, '$want' and nothing written: $(cat "$d/err")"; fi
# ... a tray without its kind, an unknown key
cat >"$d/k.yaml" <<'EOF'
name: nvl
cluster:
  node: {name: gb200-nvl72, rack_trays: [{per_rack: 9, rack_units: 1, watts: 3}]}
  gpus: 576
EOF
R validate "$d/k.yaml" >/dev/null 2>"$d/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "k.yaml:3:.*: error: unknown key 'watts'" "$d/err" &&
   grep -q "k.yaml:3:.*: error: cluster.node.rack_trays\[0\].kind is missing" "$d/err"; then ok; else
    fail "rack_trays entry without kind, with an unknown key: exit $rc: $(cat "$d/err")"; fi
# ... an empty kind, a kind that is a NetBox role already (server, leaf, a
# one-tier fabric's switch), in any case (NetBox's slugs are lower case)
for k in "''" server leaf switch Leaf SERVER Tier3; do
    cat >"$d/r.yaml" <<EOF
name: nvl
cluster:
  node: {name: gb200-nvl72, rack_trays: [{kind: $k, per_rack: 9, rack_units: 1}]}
  gpus: 576
EOF
    R validate "$d/r.yaml" >/dev/null 2>"$d/err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q "r.yaml:3:49: error: cluster.node.rack_trays\\[0\\].kind must be a name" "$d/err"; then ok; else
        fail "rack_trays kind $k: exit $rc: $(cat "$d/err")"; fi
done
# ... two kinds alike but for case: one NetBox slug, device type and names
cat >"$d/c2.yaml" <<'EOF'
name: nvl
cluster:
  node:
    name: gb200-nvl72
    rack_trays:
      - {kind: Power-Shelf, per_rack: 4, rack_units: 1}
      - {kind: power-shelf, per_rack: 4, rack_units: 1}
  gpus: 576
EOF
R cabling "$d/c2.yaml" -o "$d/out3" >/dev/null 2>"$d/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "c2.yaml:7:16: error: cluster.node.rack_trays\[1\].kind: 'power-shelf' is also entry 0's" "$d/err" &&
   [ ! -e "$d/out3" ]; then ok; else
    fail "rack_trays kinds alike but for case: exit $rc: $(cat "$d/err")"; fi
# ... and a malformed catalog entry (a copy of the catalog with per_rack 0)
mkdir -p "$d/cat"
cp "$T"/*.yaml "$d/cat/"
"$PY" - "$d/cat/nodes.yaml" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
i = s.index("gb200-nvl72:")
j = s.index("per_rack: 8,", i)
open(p, "w").write(s[:j] + "per_rack: 0," + s[j + len("per_rack: 8,"):])
PY
spec "$d/c.yaml" gb200-nvl72
"$RAILYARD" -q -T "$d/cat" cabling "$d/c.yaml" -o "$d/out2" >/dev/null 2>"$d/err"
rc=$?
want=$(awk '/per_rack: 0,/ { print FILENAME ":" NR ":" index($0, "per_rack: 0") + 10 ": error: nodes.gb200-nvl72.rack_trays[1].per_rack"; exit }' "$d/cat/nodes.yaml")
if [ "$rc" -eq 1 ] && [ -n "$want" ] && grep -qF "$want" "$d/err" && [ ! -e "$d/out2" ]; then ok; else
    fail "malformed catalog rack_trays: exit $rc, want 1, '$want' and nothing written: $(cat "$d/err")"; fi

# Servers and trays taller than the rack: 18 x 1U + 9 x 4U > 47 units.
cat >"$d/tall.yaml" <<'EOF'
name: nvl
cluster:
  node: {name: gb200-nvl72, rack_trays: [{kind: nvlink-switch-tray, per_rack: 9, rack_units: 4}]}
  gpus: 576
EOF
R validate "$d/tall.yaml" >/dev/null 2>"$d/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "tall.yaml:3:.*error: 18 nodes of 1U and the rack's other trays (36U" "$d/err"; then ok; else
    fail "trays taller than the rack: exit $rc: $(cat "$d/err")"; fi
no_sanitizer "$d/err"

finish
