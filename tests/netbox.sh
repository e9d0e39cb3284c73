#!/bin/sh
# railyard cabling: NetBox's import set (DIR/cabling/netbox/), checked
# against NetBox's own import forms and the devicetype-library schema, as
# kept in tests/data/netbox-import.json with the NetBox version and the
# commits they were read from:
#   - files numbered 01.. in import order, nothing else there;
#   - every CSV header field is a field of its NetBox import form and the
#     form's required fields are there; every choice value (status, face,
#     width, interface and cable type, length unit, termination type) is in
#     NetBox's list; slugs and colours are of NetBox's form;
#   - every reference names an object an earlier file (or an earlier row of
#     the same file) made: location -> site and parent, rack -> site and
#     location, device -> role, manufacturer, device type, site, location,
#     rack; cable ends -> devices and the interfaces of their device types;
#   - the device types validate against the devicetype-library schema
#     (required keys, no others, slug pattern, interface keys and type enum)
#     and NetBox's device type import (its fields and component forms);
#   - racks and rooms agree with racks.csv and rooms.csv, devices with
#     cabling.csv (rack and a_u/z_u of every cable end), units do not overlap
#     within a rack and fit in it, and add up to racks.csv's units_used;
#   - NetBox's model rules (kept there too): device names at most 64
#     characters and unique in lower case, a position with a face and not
#     of a 0U type, role names and slugs and device type models unique;
#   - counts: servers = cluster.nodes of the spec, switches = the bill of
#     materials' (and 48 for the four-unit SuperPOD: 8 rails x 4 units of
#     leaves, 16 spines), cables = links, server cable ends = nodes x GPUs x
#     planes, and every NIC and switch port of a type is a template;
#   - a rack-scale node (one scalable unit of GB300 NVL72): every compute
#     rack (nodes / nodes_per_rack, rounded up) holds per_rack trays of each
#     kind of the catalog's rack_trays, each of its role, of a type of the
#     tray's height, part and maker with no interfaces and no other
#     component list (none is cabled); a type with a component list this
#     check does not know (power ports) fails it;
#   - a 63-character node model with two long tray kinds alike but for
#     their last letter keeps two device types, slugs within 100 characters;
#   - a node and a switch model of one name still make two device types;
#   - a fabric.tiers list of two models with split sides: a device type
#     per tier's model and split, of the tier's ports (the bill of
#     materials' ports per switch of the tier), every cable on them;
#   - every switch type as high as its tier's model (the spec's or the
#     catalog's rack_units, else 1U; layout.switch_units when written): the
#     two models above are 1U and 4U, each switch at its own units;
#   - the same spec gives the same bytes;
#   - the checker itself fails on broken copies (a dangling rack, an
#     interface type NetBox does not know, a field no form has, a device
#     moved off its cabling.csv unit, a cable to an interface no type has;
#     a tray on a server's unit, above the rack, 2U, missing, of another
#     role, without a face, named as another in other case, with power
#     ports; a role slug twice).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
DATA="$TOP_SRCDIR/tests/data/netbox-import.json"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

if ! "$PY" -c 'import yaml' 2>/dev/null; then
    echo "SKIP: python3-yaml is not installed"
    exit 77
fi

cat >"$TMP/check.py" <<'P'
import csv, io, json, os, re, sys
import yaml

cab, spec_path, bom_path, data_path, tdir, nodes_s, planes_s, iftype = sys.argv[1:9]
nodes, planes = int(nodes_s), int(planes_s)
nb = json.load(open(data_path))
errs = []
def err(msg):
    if len(errs) < 20 and msg not in errs:
        errs.append(msg)

d = os.path.join(cab, "netbox")
FILES = ["01-sites.csv", "02-locations.csv", "03-racks.csv", "04-manufacturers.csv",
         "05-device-types", "06-device-roles.csv", "07-devices.csv", "08-cables.csv"]
FORM = {"01-sites.csv": "SiteImportForm", "02-locations.csv": "LocationImportForm",
        "03-racks.csv": "RackImportForm", "04-manufacturers.csv": "ManufacturerImportForm",
        "06-device-roles.csv": "DeviceRoleImportForm", "07-devices.csv": "DeviceImportForm",
        "08-cables.csv": "CableImportForm"}
got = sorted(os.listdir(d))
if got != FILES: err("netbox/ holds %s, want %s" % (got, FILES))
for i, f in enumerate(FILES):
    if not f.startswith("%02d-" % (i + 1)): err("%s is not numbered %02d" % (f, i + 1))

def table(name):
    path = os.path.join(d, name)
    raw = open(path, "rb").read()
    if not raw.endswith(b"\n") or b"\r" in raw: err("%s: records do not end with LF alone" % name)
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    head, body = rows[0], rows[1:]
    form = nb["forms"][FORM[name]]
    for h in head:
        if h not in form: err("%s: field %r is not a field of NetBox's %s" % (name, h, FORM[name]))
    if len(set(head)) != len(head): err("%s: a field twice" % name)
    req = nb["required"].get(FORM[name], [])
    for r in req:
        if r not in head: err("%s: required field %r missing" % (name, r))
    out = []
    for n, r in enumerate(body, 2):
        if len(r) != len(head): err("%s:%d: %d fields, header %d" % (name, n, len(r), len(head))); continue
        row = dict(zip(head, r))
        for k in req:
            if not row.get(k): err("%s:%d: %s empty" % (name, n, k))
        out.append(row)
    return out

C = nb["choices"]
def choice(name, row, field, cls):
    v = row.get(field, "")
    if v and v not in [str(x) for x in C[cls]]:
        err("%s: %s %r is not one of NetBox's %s" % (name, field, v, cls))

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
HEX = re.compile(r"^[0-9a-f]{6}$")
def slug_ok(name, row):
    if not SLUG.match(row["slug"]): err("%s: slug %r" % (name, row["slug"]))

# ---- sites, locations, racks ------------------------------------------------------------
sites = set()
for r in table("01-sites.csv"):
    choice("sites", r, "status", "SiteStatusChoices"); slug_ok("sites", r)
    sites.add(r["name"])
spec = yaml.safe_load(open(spec_path))
if sites != {spec["name"]}: err("sites %s, want the spec's name %r" % (sites, spec["name"]))

locs = {}
for r in table("02-locations.csv"):
    choice("locations", r, "status", "LocationStatusChoices"); slug_ok("locations", r)
    if r["site"] not in sites: err("location %s: site %r not made before" % (r["name"], r["site"]))
    if r["parent"] and (r["site"], r["parent"]) not in locs:
        err("location %s: parent %r not made before" % (r["name"], r["parent"]))
    if (r["site"], r["name"]) in locs: err("location %s twice" % r["name"])
    locs[(r["site"], r["name"])] = r["parent"]

rooms = list(csv.DictReader(open(os.path.join(cab, "rooms.csv"), newline="")))
want_locs = {("B" + b): "" for b in sorted({r["building"] for r in rooms}, key=int)}
want_locs.update({r["room"]: "B" + r["building"] for r in rooms})
if {n: p for (s, n), p in locs.items()} != want_locs:
    err("locations %s, rooms.csv says %s" % (sorted(locs.items())[:6], sorted(want_locs.items())[:6]))

racks = {}
for r in table("03-racks.csv"):
    choice("racks", r, "status", "RackStatusChoices"); choice("racks", r, "width", "RackWidthChoices")
    if r["site"] not in sites: err("rack %s: site %r not made before" % (r["name"], r["site"]))
    if r["location"] and (r["site"], r["location"]) not in locs:
        err("rack %s: location %r not made before" % (r["name"], r["location"]))
    if (r["site"], r["name"]) in racks: err("rack %s twice" % r["name"])
    racks[(r["site"], r["name"])] = r
ru = spec.get("layout", {}).get("rack_units", 48)
rk_csv = list(csv.DictReader(open(os.path.join(cab, "racks.csv"), newline="")))
if [(k[1], v["location"]) for k, v in racks.items()] != [(r["rack"], r["room"]) for r in rk_csv]:
    err("03-racks.csv and racks.csv disagree on racks or rooms")
for v in racks.values():
    if v["u_height"] != str(ru): err("rack %s: u_height %s, layout.rack_units %s" % (v["name"], v["u_height"], ru))

# ---- manufacturers, device types, roles ---------------------------------------------------
mfrs = set()
for r in table("04-manufacturers.csv"):
    slug_ok("manufacturers", r); mfrs.add(r["name"])

# the node's rack trays (cluster.node.rack_trays, else the catalog's): a
# compute rack holds per_rack of each kind, a device type "<node>-<kind>" each
nodecat = yaml.safe_load(open(os.path.join(tdir, "nodes.yaml")))["nodes"]
node = spec["cluster"].get("node")
nname = node if isinstance(node, str) else node["name"] if isinstance(node, dict) else ""
ncat = dict(nodecat.get(nname, {}), **(node if isinstance(node, dict) else {}))
ntrays = node["rack_trays"] if isinstance(node, dict) and "rack_trays" in node else ncat.get("rack_trays", [])
tray_of = {"%s-%s" % (nname, t["kind"]): t for t in ntrays}
npr = spec.get("layout", {}).get("nodes_per_rack", ncat.get("per_rack", 4))
tray_racks = -(-nodes // npr) if ntrays else 0

L = nb["devicetype_library"]
dt_fields = set(nb["forms"]["DeviceTypeImportForm"]) | set(nb["devicetype_related"])
if_fields = set(nb["interface_template_fields"])
if_enum = set(L["interface_type_enum"]) & set(C["InterfaceTypeChoices"])
types = {}
tdir_nb = os.path.join(d, "05-device-types")
for f in sorted(os.listdir(tdir_nb)):
    if not f.endswith(".yaml"): err("device types: %s is not a .yaml file" % f); continue
    t = yaml.safe_load(open(os.path.join(tdir_nb, f)))
    if not isinstance(t, dict): err("%s: not a map" % f); continue
    for k in t:
        if k not in L["devicetype_properties"]: err("%s: key %r not in the devicetype-library schema" % (f, k))
        if k not in dt_fields: err("%s: key %r not in NetBox's device type import" % (f, k))
    for k in L["devicetype_required"]:
        if k not in t: err("%s: required key %r missing" % (f, k))
    for k, n in L["max_length"].items():
        if k in t and (not isinstance(t[k], str) or len(t[k]) > n): err("%s: %s %r" % (f, k, t.get(k)))
    if not re.match(L["slug_pattern"], str(t.get("slug", ""))): err("%s: slug %r" % (f, t.get("slug")))
    if f != str(t.get("slug")) + ".yaml": err("%s: not named after its slug" % f)
    u = t.get("u_height")
    if not isinstance(u, (int, float)) or isinstance(u, bool) or u < 0 or (u * 2) % 1:
        err("%s: u_height %r" % (f, u))
    if not isinstance(t.get("is_full_depth"), bool): err("%s: is_full_depth %r" % (f, t.get("is_full_depth")))
    if t.get("manufacturer") not in mfrs: err("%s: manufacturer %r not made before" % (f, t.get("manufacturer")))
    for k in t:
        if k in nb["devicetype_related"] and k != "interfaces":
            err("%s: %s, a component list this check does not check" % (f, k))
    tt = tray_of.get(t.get("model"))
    if tt and (u != tt["rack_units"] or t.get("part_number", "") != tt.get("part", "")
               or t.get("manufacturer") != ncat.get("vendor", "Generic")):
        err("%s: u_height %r part %r of %r, the tray is %dU %r of %r" % (f, u, t.get("part_number"),
            t.get("manufacturer"), tt["rack_units"], tt.get("part", ""), ncat.get("vendor")))
    names = set()
    for i in t.get("interfaces", []):
        if not isinstance(i, dict): err("%s: interface %r" % (f, i)); continue
        for k in i:
            if k not in L["interface_properties"] or k not in if_fields:
                err("%s: interface key %r" % (f, k))
        for k in L["interface_required"]:
            if k not in i: err("%s: interface without %s" % (f, k))
        for k, n in L["interface_max_length"].items():
            if k in i and (not isinstance(i[k], str) or len(i[k]) > n): err("%s: interface %s %r" % (f, k, i[k]))
        if i.get("type") not in if_enum:
            err("%s: interface type %r not in NetBox's and the library's lists" % (f, i.get("type")))
        if iftype != "-" and i.get("type") != iftype:
            err("%s: interface %s type %r, want %r" % (f, i.get("name"), i.get("type"), iftype))
        if i.get("name") in names: err("%s: interface %s twice" % (f, i.get("name")))
        names.add(i.get("name"))
    if (t.get("manufacturer"), t.get("model")) in types: err("%s: model %r twice" % (f, t.get("model")))
    types[(t.get("manufacturer"), t.get("model"))] = (t, names)

roles, role_slugs = set(), set()
for r in table("06-device-roles.csv"):
    slug_ok("roles", r)
    if not HEX.match(r["color"]): err("role %s: colour %r" % (r["name"], r["color"]))
    if r["name"] in roles or r["slug"] in role_slugs: err("role %s: name or slug %r twice" % (r["name"], r["slug"]))
    roles.add(r["name"]); role_slugs.add(r["slug"])

# ---- devices --------------------------------------------------------------------------------
devs, occupied, lnames, units, trays = {}, {}, {}, {}, {}
for r in table("07-devices.csv"):
    choice("devices", r, "status", "DeviceStatusChoices"); choice("devices", r, "face", "DeviceFaceChoices")
    n = r["name"]
    if r["role"] not in roles: err("device %s: role %r not made before" % (n, r["role"]))
    if r["manufacturer"] not in mfrs: err("device %s: manufacturer %r" % (n, r["manufacturer"]))
    ty = types.get((r["manufacturer"], r["device_type"]))
    if not ty: err("device %s: device type %r of %r not made before" % (n, r["device_type"], r["manufacturer"])); continue
    if r["site"] not in sites: err("device %s: site %r" % (n, r["site"]))
    if (r["site"], r["location"]) not in locs: err("device %s: location %r" % (n, r["location"]))
    rk = racks.get((r["site"], r["rack"]))
    if not rk: err("device %s: rack %r not made before" % (n, r["rack"])); continue
    if rk["location"] != r["location"]: err("device %s: rack %s stands in %s, not %s" % (n, r["rack"], rk["location"], r["location"]))
    pos, uh = int(r["position"]), ty[0]["u_height"]
    if pos < 1 or pos + uh - 1 > int(rk["u_height"]): err("device %s: units %d..%d outside its rack" % (n, pos, pos + uh - 1))
    for u in range(pos, pos + int(uh)):
        if (r["rack"], u) in occupied: err("device %s: unit %d of %s taken by %s" % (n, u, r["rack"], occupied[(r["rack"], u)]))
        occupied[(r["rack"], u)] = n
    if n.lower() in lnames: err("device %s: name taken by %s (NetBox compares them without case)" % (n, lnames[n.lower()]))
    if len(n) > nb["model_rules"]["device_name_max"]: err("device %s: name longer than %d" % (n, nb["model_rules"]["device_name_max"]))
    if not r["face"]: err("device %s: a position and no face" % n)
    if uh == 0: err("device %s: a 0U type at a position" % n)
    lnames[n.lower()] = n
    units[r["rack"]] = units.get(r["rack"], 0) + uh
    tt = tray_of.get(r["device_type"])
    if tt:
        if r["role"] != tt["kind"]: err("tray %s: role %r, its kind %r" % (n, r["role"], tt["kind"]))
        trays[(r["rack"], tt["kind"])] = trays.get((r["rack"], tt["kind"]), 0) + 1
    devs[n] = (r, ty[1])

# ---- cables ----------------------------------------------------------------------------------
cables = table("08-cables.csv")
used = set()
server_ends = 0
for n, r in enumerate(cables, 2):
    choice("cables", r, "type", "CableTypeChoices"); choice("cables", r, "status", "LinkStatusChoices")
    choice("cables", r, "length_unit", "CableLengthUnitChoices")
    if r["color"] and not HEX.match(r["color"]): err("cable %d: colour %r" % (n, r["color"]))
    for s in "ab":
        if r["side_%s_type" % s] not in nb["cable_termination_types"]: err("cable %d: type %r" % (n, r["side_%s_type" % s]))
        dv = devs.get(r["side_%s_device" % s])
        if not dv: err("cable %d: device %r not made before" % (n, r["side_%s_device" % s])); continue
        if r["side_%s_name" % s] not in dv[1]:
            err("cable %d: %s has no interface %r" % (n, r["side_%s_device" % s], r["side_%s_name" % s]))
        key = (r["side_%s_device" % s], r["side_%s_name" % s])
        if key in used: err("cable %d: %s %s cabled twice" % (n, *key))
        used.add(key)
        if dv[0]["role"] == "server": server_ends += 1

# ---- against cabling.csv and the bill of materials ---------------------------------------------
cab_rows = list(csv.DictReader(open(os.path.join(cab, "cabling.csv"), newline="")))
if len(cab_rows) != len(cables): err("%d cables, cabling.csv %d" % (len(cables), len(cab_rows)))
for c, r in zip(cab_rows, cables):
    # NetBox's interfaces carry the switch's own names (cage/port)
    if (c["a_device"], c["a_cage_port"] or c["a_port"], c["z_device"], c["z_cage_port"], c["label"]) != \
       (r["side_a_device"], r["side_a_name"], r["side_b_device"], r["side_b_name"], r["label"]):
        err("cable %s: ends differ from cabling.csv" % c["label"]); break
for c in cab_rows:
    for s in "az":
        dv = devs.get(c[s + "_device"])
        if dv and (dv[0]["rack"], dv[0]["position"]) != (c[s + "_rack"], c[s + "_u"]):
            err("device %s: %s U%s, cabling.csv says %s U%s" % (c[s + "_device"], dv[0]["rack"], dv[0]["position"], c[s + "_rack"], c[s + "_u"]))
            break

bom = json.load(open(bom_path))
gpn = spec["cluster"]["gpus_per_node"] if "gpus_per_node" in spec["cluster"] else ncat["gpus_per_node"]
servers = [v for v in devs.values() if v[0]["role"] == "server"]
if len(servers) != nodes: err("%d servers, the spec has %d" % (len(servers), nodes))
ntray = tray_racks * sum(t["per_rack"] for t in ntrays)
if len(devs) != nodes + bom["switches"]["total"] + ntray:
    err("%d devices, want %d servers + %d switches + %d trays" % (len(devs), nodes, bom["switches"]["total"], ntray))
srv_racks = {v[0]["rack"] for v in servers}
want_trays = {(k, t["kind"]): t["per_rack"] for k in srv_racks for t in ntrays}
if len(srv_racks) != (tray_racks or len(srv_racks)) or trays != want_trays:
    err("trays by rack and kind %s, want %d racks of %s" % (sorted(trays.items())[:4], tray_racks,
        [(t["kind"], t["per_rack"]) for t in ntrays]))
for r in rk_csv:
    if units.get(r["rack"], 0) != int(r["units_used"]):
        err("rack %s: devices take %d units, racks.csv says %s" % (r["rack"], units.get(r["rack"], 0), r["units_used"]))
if len(cables) != bom["links"]["total"]: err("%d cables, %d links" % (len(cables), bom["links"]["total"]))
if server_ends != nodes * gpn * planes: err("%d server cable ends, want %d x %d x %d" % (server_ends, nodes, gpn, planes))
# a switch's ports: its tier's in the bill of materials (ports / switches),
# the role its tier's name ("tierN" for an unnamed middle tier)
tier_ports = {}
for x in bom["tier_detail"]:
    tier_ports[x["name"] if x["name"] != "tier" else "tier%d" % x["tier"]] = x["ports"] // x["switches"]
for (m, model), (t, names) in types.items():
    want = {gpn * planes} if any(v[0]["role"] == "server" and v[0]["device_type"] == model for v in devs.values()) \
        else {0} if model in tray_of else \
        {tier_ports.get(v[0]["role"]) for v in devs.values() if v[0]["device_type"] == model}
    if {len(names)} != want: err("type %s: %d interfaces, want %s" % (model, len(names), sorted(want, key=str)))
# a switch type is as high as its tier's model (the spec's rack_units, else
# the catalog's, else 1U), or layout.switch_units when the spec sets it
swcat = yaml.safe_load(open(os.path.join(tdir, "switches.yaml")))["switches"]
fab = spec.get("fabric", {})
def model_units(sw):
    if isinstance(sw, str): sw = {"name": sw}
    return sw.get("rack_units") or swcat.get(sw.get("name"), {}).get("rack_units") or 1
tier_of_role = {x["name"] if x["name"] != "tier" else "tier%d" % x["tier"]: x["tier"] for x in bom["tier_detail"]}
def tier_switch(t):             # a tier's model: its own, else the tier below's, else fabric.switch
    for k in range(t - 1, -1, -1):
        if isinstance(fab.get("tiers"), list) and fab["tiers"][k].get("switch"): return fab["tiers"][k]["switch"]
    return fab.get("switch", "generic")
for v in devs.values():
    t = tier_of_role.get(v[0]["role"])
    if t is None: continue
    want = spec.get("layout", {}).get("switch_units") or model_units(tier_switch(t))
    got = types[(v[0]["manufacturer"], v[0]["device_type"])][0]["u_height"]
    if got != want: err("type %s (%s): u_height %r, its model is %dU" % (v[0]["device_type"], v[0]["role"], got, want))
print("\n".join(errs) if errs else "ok")
print("devices %d cables %d" % (len(devs), len(cables)), file=sys.stderr)
P

# check NAME SPEC NODES PLANES IFTYPE [--set ...]: run, check, and check the checker
check() {
    n=$1 s=$2 nodes=$3 planes=$4 ift=$5
    shift 5
    "$RAILYARD" cabling "$s" "$@" -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: cabling exit" $? 0
    no_sanitizer "$TMP/$n.log"
    "$RAILYARD" bom "$s" "$@" --format json >"$TMP/$n.bom.json" 2>>"$TMP/$n.log"
    expect_eq "$n: bom exit" $? 0
    "$PY" "$TMP/check.py" "$TMP/$n/cabling" "$s" "$TMP/$n.bom.json" "$DATA" "$TPL" \
        "$nodes" "$planes" "$ift" >"$TMP/$n.chk" 2>"$TMP/$n.err"
    expect_eq "$n: import set checked" "$(cat "$TMP/$n.chk" "$TMP/$n.err")" \
        "ok$(printf '\ndevices ')$(($(grep -c . "$TMP/$n/cabling/netbox/07-devices.csv") - 1)) cables $(($(grep -c . "$TMP/$n/cabling/cabling.csv") - 1))"
}

check superpod-4su "$TOP_SRCDIR/examples/superpod-4su.yaml" 127 1 400gbase-x-osfp
# 127 DGX H100 and the reference architecture's 32 leaves and 16 spines
expect_eq "superpod-4su: devices" "$(($(grep -c . "$TMP/superpod-4su/cabling/netbox/07-devices.csv") - 1))" 175
check b200-2plane "$TOP_SRCDIR/examples/b200-2plane.yaml" 64 2 infiniband-ndr
check superpod-8k "$TOP_SRCDIR/examples/superpod-4su.yaml" 8192 1 400gbase-x-osfp --set cluster.nodes=8192
expect_eq "superpod-8k: halls" "$(grep -c ',data hall' "$TMP/superpod-8k/cabling/netbox/02-locations.csv")" 8

# a rack-scale node: one scalable unit of GB300 NVL72 (4 racks of 18 compute
# trays), its NVLink switch trays, power shelves and management switches
cat >"$TMP/gb300.yaml" <<'EOF'
version: 1
name: gb300-su
cluster:
  node: gb300-nvl72
  nodes: 72
  scalable_unit: 4
fabric:
  design: rail-optimized
  switch: qm9700                  # the catalog's GB300: two planes of 400G NIC ports
EOF
check gb300 "$TMP/gb300.yaml" 72 2 400gbase-x-osfp
# 4 racks of 9 + 8 + 2 trays, counted by their names
expect_eq "gb300: trays" "$(grep -c -- '-tray-\|-shelf-\|-mgmt-switch-' "$TMP/gb300/cabling/netbox/07-devices.csv")" 76

# a fabric.tiers list of two models, both splitting a side: leaves
# qm9700 with 64 x 200G down (32 ports split in 2) and 32 x 400G up,
# spines q3400 with 128 x 400G down (64 of its 800G ports split in 2). Each tier
# has its own device type, with that tier's port names (the cables end on
# them) and as many interfaces as the bill of materials' ports per switch
check tiers "$TOP_SRCDIR/tests/data/tiers/ib-two-models.yaml" 256 1 -
expect_eq "tiers: device types" "$(ls "$TMP/tiers/cabling/netbox/05-device-types" | tr '\n' ' ')" \
    "generic-hgx-h100.yaml nvidia-q3400-128x400g.yaml nvidia-qm9700-64x200g-32x400g.yaml "

# the longest names: a 63-character node model and two 31-character tray
# kinds alike up to their last letter; the slugs "generic-<model>-<kind>"
# would run past NetBox's 100 characters, and each type keeps its own
# (slugs: nvidia-q3400, generic- and the model, two cut to 100)
N63=rack-scale-node-with-a-model-name-as-long-as-a-spec-allows-it-1
cat >"$TMP/long.yaml" <<EOF
version: 1
name: long
cluster:
  node:
    name: $N63
    gpus_per_node: 4
    hb_domain: 72
    nic_speed: 800G
    rack_units: 1
    per_rack: 18
    rack_trays:
      - {kind: nvlink-switch-tray-variant-aaaa, per_rack: 2, rack_units: 1}
      - {kind: nvlink-switch-tray-variant-aaab, per_rack: 3, rack_units: 2}
  nodes: 36
  scalable_unit: 2
fabric:
  switch: q3400
EOF
check long "$TMP/long.yaml" 36 1 -
expect_eq "long: model and slug lengths" "$(printf '%s' "$N63" | wc -c) $(ls "$TMP/long/cabling/netbox/05-device-types" |
    awk '{ print length($0) - 5 }' | sort -n | tr '\n' ' ')" "63 12 71 100 100 "

# a node and a switch of the same name: two device types all the same
check same-name "$TOP_SRCDIR/tests/data/cabling/three-tier.yaml" 32 1 infiniband-hdr \
    --set fabric.switch.name=custom
expect_eq "same-name: device types" "$(ls "$TMP/same-name/cabling/netbox/05-device-types" | tr '\n' ' ')" \
    "generic-custom-switch.yaml generic-custom.yaml "

# same spec, same bytes
"$RAILYARD" cabling "$TOP_SRCDIR/examples/b200-2plane.yaml" -o "$TMP/again" >/dev/null 2>&1
diff -r "$TMP/b200-2plane/cabling/netbox" "$TMP/again/cabling/netbox" >/dev/null && ok ||
    fail "b200-2plane: a second run differs"

# The checker fails on broken copies (of the run B, spec BS, BN nodes, BP planes).
B=b200-2plane BS="$TOP_SRCDIR/examples/b200-2plane.yaml" BN=64 BP=2
broken() {   # broken WHAT SED-SCRIPT FILE (relative to netbox/)
    rm -rf "$TMP/broken"
    cp -r "$TMP/$B/cabling" "$TMP/broken"
    sed -i "$2" "$TMP/broken/netbox/$3"
    "$PY" "$TMP/check.py" "$TMP/broken" "$BS" "$TMP/$B.bom.json" "$DATA" "$TPL" "$BN" "$BP" - \
        >"$TMP/broken.chk" 2>/dev/null
    grep -q "$4" "$TMP/broken.chk" && ok || fail "checker missed $1: $(head -3 "$TMP/broken.chk")"
}
broken "a dangling rack" '2s/,R01-01,/,R99-01,/' 07-devices.csv "rack 'R99-01' not made before"
broken "an unknown interface type" '0,/infiniband-ndr/s//infiniband-ndr400/' \
    05-device-types/nvidia-qm9700-ndr200.yaml "interface type 'infiniband-ndr400'"
broken "a field no form has" '1s/^name,slug,status/name,slug,state/' 01-sites.csv "field 'state'"
broken "a device off its unit" '2s/,R01-01,2,/,R01-01,3,/' 07-devices.csv "cabling.csv says R01-01 U2"
broken "a cable to no interface" '2s/,mlx5_0,/,mlx5_99,/' 08-cables.csv "has no interface 'mlx5_99'"
broken "a rack before its room" '3s/,H01,/,H09,/' 03-racks.csv "location 'H09' not made before"
# ... and on broken trays: node018 stands at R01-01 U19, the trays from U20
# (units 20..38: 9 NVLink switch trays, 8 shelves, 2 switches)
B=gb300 BS="$TMP/gb300.yaml" BN=72 BP=1
T1=R01-01-nvlink-switch-tray-1
broken "a tray on a server's unit" "s/^$T1,\\(.*\\),R01-01,20,/$T1,\\1,R01-01,19,/" 07-devices.csv \
    "unit 19 of R01-01 taken by"
broken "a tray above the rack" "s/^$T1,\\(.*\\),R01-01,20,/$T1,\\1,R01-01,49,/" 07-devices.csv \
    "units 49..49 outside its rack"
broken "a 2U tray type" 's/^u_height: 1$/u_height: 2/' 05-device-types/nvidia-gb300-nvl72-power-shelf.yaml \
    "the tray is 1U"
broken "a tray missing" "/^R01-02-mgmt-switch-2,/d" 07-devices.csv "trays by rack and kind"
broken "a tray of another role" "s/^$T1,nvlink-switch-tray,/$T1,mgmt-switch,/" 07-devices.csv \
    "role 'mgmt-switch', its kind 'nvlink-switch-tray'"
broken "a tray without a face" "s/^$T1,\\(.*\\),front,/$T1,\\1,,/" 07-devices.csv "a position and no face"
broken "two names one in lower case" "s/^R01-01-mgmt-switch-2,/R01-01-MGMT-switch-1,/" 07-devices.csv \
    "name taken by R01-01-mgmt-switch-1"
broken "a power port list" '$a power-ports:\n  - name: "PSU1"\n    type: iec-60320-c20' \
    05-device-types/nvidia-gb300-nvl72-power-shelf.yaml "power-ports, a component list"
broken "a role slug twice" '$a Mgmt-Switch,mgmt-switch,607d8b,' 06-device-roles.csv "name or slug 'mgmt-switch' twice"

finish
