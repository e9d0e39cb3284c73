#!/bin/sh
# railyard cabling: every file of the cabling plan read back by a reader of
# its own (a strict RFC 4180 parser, openpyxl, LibreOffice when installed)
# and checked against the graph, the layout's
# routing rule, the media catalog and the bill of materials; determinism,
# build's copy, and bad input.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/cabling"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

cat >"$TMP/check.py" <<'P'
import collections, json, math, os, re, sys
import yaml
import layoutmodel

out, spec_path, bom_path, tdir = sys.argv[1:5]
errs = []
def err(msg):
    if len(errs) < 20:
        errs.append(msg)

# ---- strict RFC 4180, records ending with EOL (LF; CR LF under --crlf) ----------------
EOL = os.environ.get("CSV_EOL", "\n")
def rfc4180(path):
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        err("%s: not UTF-8: %s" % (path, e)); return []
    name = os.path.basename(path)
    if not text.endswith(EOL) or (EOL == "\n" and "\r" in text):
        err("%s: records do not end with %r" % (name, EOL)); return []
    recs, i, n = [], 0, len(text)
    while i < n:
        rec = []
        while True:
            if text[i] == '"':
                i += 1; buf = []
                while True:
                    if i >= n:
                        err("%s: unterminated quoted field" % name); return recs
                    c = text[i]
                    if c == '"':
                        if i + 1 < n and text[i + 1] == '"':
                            buf.append('"'); i += 2; continue
                        i += 1; break
                    buf.append(c); i += 1
                f = "".join(buf)
                if not re.search(r'[,"\r\n]', f):
                    err("%s: record %d: field %r quoted without need" % (name, len(recs) + 1, f))
            else:
                j = i
                while j < n and text[j] not in ',"\r\n':
                    j += 1
                if j < n and text[j] == '"':
                    err("%s: record %d: bare quote in an unquoted field" % (name, len(recs) + 1)); return recs
                f = text[i:j]; i = j
            rec.append(f)
            if i < n and text[i] == ",":
                i += 1
                if i == n:
                    err("%s: file ends after a comma" % name); return recs
                continue
            if text.startswith(EOL, i):
                i += len(EOL); break
            err("%s: record %d: bare CR or LF" % (name, len(recs) + 1)); return recs
        recs.append(rec)
    for k, r in enumerate(recs):
        if len(r) != len(recs[0]):
            err("%s: record %d has %d fields, the header %d" % (name, k + 1, len(r), len(recs[0])))
    return recs

def table(path, header):
    recs = rfc4180(path)
    if not recs:
        err("%s: empty" % path); return []
    if recs[0] != header.split(","):
        err("%s: header %s" % (os.path.basename(path), ",".join(recs[0])))
    return [dict(zip(recs[0], r)) for r in recs[1:]]

# ---- the spec, resolved against the catalog (only what the checks need) -----------------
spec = yaml.safe_load(open(spec_path))
nodes_cat = yaml.safe_load(open(os.path.join(tdir, "nodes.yaml")))["nodes"]
sw_cat = yaml.safe_load(open(os.path.join(tdir, "switches.yaml")))["switches"]
media = yaml.safe_load(open(os.path.join(tdir, "media.yaml")))["media"]
cl, fab = spec.get("cluster", {}), spec.get("fabric", {})
def model(v, cat):
    if v is None: return {}
    if isinstance(v, str): return dict(cat.get(v, {}), name=v)
    m = dict(cat.get(v.get("name"), {})); m.update(v); return m
node, sw = model(cl.get("node"), nodes_cat), model(fab.get("switch"), sw_cat)
lay = layoutmodel.layout_keys(spec, node, sw)
table(os.path.join(out, "racks.csv"), "rack,room,building,row,position,kind,units_used,power_kw")
table(os.path.join(out, "rooms.csv"), "room,kind,building,grid_x,grid_y,building_x_m,building_y_m,"
      "entry_m,side,x_m,width_m,depth_m,rows,racks_per_row,racks,power_kw")
floor = layoutmodel.Floor(out, lay)     # racks.csv, rooms.csv and the routing rule
for e in floor.errors + floor.name_errors(): err(e)
gpn = cl.get("gpus_per_node", node.get("gpus_per_node", 8))
node_cp = node.get("cage_ports", 1) or 1
sw_cp = sw.get("cage_ports", 1) or 1
# split ports: radix over cages * cage_ports links per port (switches.yaml)
radix = sw.get("radix", 64)
sw_split = 1
if sw.get("cages") and radix % (sw["cages"] * sw_cp) == 0:
    sw_split = max(1, radix // (sw["cages"] * sw_cp))
ethernet = sw.get("protocol") == "ethernet"
bom = json.load(open(bom_path))
phys = bom["physical"]

# ---- cabling.csv -------------------------------------------------------------------------
rows = table(os.path.join(out, "cabling.csv"),
             "label,a_row,a_rack,a_u,a_device,a_type,a_port,a_cage_port,z_row,z_rack,z_u,"
             "z_device,z_type,z_port,z_cage_port,media,kind,part,length_m,speed_gbps,rail,plane,"
             "tier")
if len(floor.racks) != phys["racks"]: err("racks.csv: %d racks, BOM %d" % (len(floor.racks), phys["racks"]))
if len(floor.rooms) != phys["halls"] + phys["network_rooms"]:
    err("rooms.csv: %d rooms, BOM %d halls and %d network rooms" % (len(floor.rooms), phys["halls"], phys["network_rooms"]))
if len(rows) != bom["links"]["total"]:
    err("cabling.csv: %d rows for %d links" % (len(rows), bom["links"]["total"]))
labels = [r["label"] for r in rows]
if len(set(labels)) != len(labels): err("labels are not unique")
# a cable is labelled by its lower end (a_), where it stays as the fabric grows
for k, r in enumerate(rows):
    if r["label"] != "%s-%s-%s" % (spec["name"], r["a_device"], r["a_port"]):
        err("row %d: label %s is not its lower end's" % (k + 1, r["label"])); break
ends = collections.Counter()
for r in rows:
    ends[(r["a_device"], r["a_port"])] += 1
    ends[(r["z_device"], r["z_port"])] += 1
dup = [e for e, c in ends.items() if c > 1]
if dup: err("ports used twice: %s" % dup[:3])
# Both forms of a switch port: the IB port number (a_port, z_port) and the
# switch OS's cage/port[/split] (a_cage_port, z_cage_port), derived here
# from the switch model's cages, cage ports and radix; a server's NIC port
# has its name and no cage form.
def cage_label(n):
    p = n - 1
    cage, in_cage, spl = p // (sw_cp * sw_split) + 1, p // sw_split % sw_cp + 1, p % sw_split + 1
    parts = [cage] + ([in_cage] if sw_cp > 1 else []) + ([spl] if sw_split > 1 else [])
    return "/".join(map(str, parts)) if len(parts) > 1 else str(n)
for r in rows:
    for e in ("a", "z"):
        port, cp = r[e + "_port"], r[e + "_cage_port"]
        if port.startswith("mlx5_") or (e == "a" and r["tier"] == "1"):
            if cp != "": err("%s: a server's port %s has a cage form %r" % (r["label"], port, cp))
        elif not port.isdigit() or not 1 <= int(port) <= radix:
            err("%s: %s_port %r is no port number of a %d-port switch" % (r["label"], e, port, radix)); break
        elif cp != cage_label(int(port)):
            err("%s: %s port %s is %r, the model says %r" % (r["label"], e, port, cp, cage_label(int(port)))); break

SPEEDS = {"SDR": 10, "DDR": 20, "QDR": 40, "FDR": 56, "EDR": 100, "HDR100": 100, "HDR": 200,
          "NDR200": 200, "NDR": 400, "XDR": 800}
def gbps(s):
    s = str(s).upper()
    return float(SPEEDS[s]) if s in SPEEDS else float(s.rstrip("G"))

# every run by the routing rule (tests/layoutmodel.py), racks as racks.csv places them
TOL = layoutmodel.TOL
need_of = []
for r in rows:
    bad = floor.row_errors(r)
    for e in bad: err(e)
    need_of.append(0.0 if bad else floor.need_m(r))
def need_m(k): return need_of[k]

for k, r in enumerate(rows):
    md = media.get(r["media"])
    if not md:
        err("%s: unknown medium %s" % (r["label"], r["media"])); continue
    if md["kind"] != r["kind"]: err("%s: kind %s, catalog %s" % (r["label"], r["kind"], md["kind"]))
    L, need = float(r["length_m"]), need_m(k)
    stock = [float(x) for x in md["lengths"]]
    if L not in stock: err("%s: %g m is no stock length of %s" % (r["label"], L, r["media"]))
    if L > stock[-1]: err("%s: beyond the reach of %s" % (r["label"], r["media"]))
    if L + TOL < need: err("%s: %g m for a run of %.3f m" % (r["label"], L, need))
    if float(r["speed_gbps"]) not in [gbps(s) for s in md["speeds"]]:
        err("%s: %s does not carry %s G" % (r["label"], r["media"], r["speed_gbps"]))
    if r["tier"] == "1":
        if r["a_type"] != node.get("name", "generic") and not (node == {} and r["a_type"]):
            err("%s: server type %s" % (r["label"], r["a_type"]))
        if not re.match(r"mlx5_\d+$", r["a_port"]): err("%s: NIC port %s" % (r["label"], r["a_port"]))
        if r["rail"] == "": err("%s: a server's cable without a rail" % r["label"])
    if r["z_type"] != sw.get("name", "generic"): err("%s: switch type %s" % (r["label"], r["z_type"]))
    if not r["tier"].isdigit() or not r["plane"].isdigit() or not re.match(r"\d*$", r["rail"]):
        err("%s: tier/plane/rail %s/%s/%s" % (r["label"], r["tier"], r["plane"], r["rail"]))

# A server's NIC port i (GPU + plane * GPUs per server) by its name: the
# node's NIC table, else mlx5_<n> numbered as spec.c's ry_nic_number; its
# cage: the table's label less the port ("OSFP3P2": OSFP3), else the rule,
# cage_ports ports of one plane in GPU order to a cage.
nics = node.get("nics") or []
def _m5(n):
    mm = re.match(r"mlx5_(\d+)$", n)
    return int(mm.group(1)) if mm else -1
def nic_number(i):
    if i < len(nics):
        v = _m5(nics[i]["rdma"]); return v if v >= 0 else i
    top = max([_m5(x["rdma"]) for x in nics] + [-1, len(nics) - 1])
    return top + 1 + (i - len(nics)) if nics else i
NIC = {(nics[i]["rdma"] if i < len(nics) else "mlx5_%d" % nic_number(i)): i
       for i in range(gpn * cl.get("planes", 1))}
def nic_cage(i):
    lab = nics[i].get("cage", "") if i < len(nics) else ""
    if lab:
        mm = re.match(r"(.+)P\d+$", lab)
        return mm.group(1) if mm else lab
    return (i // gpn, (i % gpn) // node_cp)

# A cage holds one module: the ports of a cage carry one medium and one part.
def sw_cage(label):
    return label.split("/")[0] if "/" in label else str((int(label) - 1) // (sw_cp * sw_split))
def cage_of(r, e):
    if r[e + "_port"].startswith("mlx5_"):
        return ("n", r[e + "_device"], nic_cage(NIC[r[e + "_port"]]))
    return ("s", r[e + "_device"], sw_cage(r[e + "_port"]))
in_cage = collections.defaultdict(set)
for r in rows:
    for e in "az":
        in_cage[cage_of(r, e)].add((r["media"], r["part"]))
two = [c for c, v in in_cage.items() if len(v) > 1]
if two: err("cages holding two media or parts: %s" % [(c, sorted(in_cage[c])) for c in two[:3]])

# Links whose cages are shared form a group with one medium and one stock
# length, the shortest that covers the group's longest run.
up = {}
def find(x):
    while up.setdefault(x, x) != x:
        up[x] = up[up[x]]; x = up[x]
    return x
for k, r in enumerate(rows):
    for e in "az":
        a, b = find(k), find(cage_of(r, e))
        if a != b: up[a] = b
longest = collections.defaultdict(float)
for k, r in enumerate(rows):
    longest[find(k)] = max(longest[find(k)], need_m(k))
for k, r in enumerate(rows):
    if r["media"] not in media: continue
    L, need = float(r["length_m"]), longest[find(k)]
    shorter = [float(x) for x in media[r["media"]]["lengths"] if float(x) < L]
    if shorter and shorter[-1] >= need + TOL:
        err("%s: %g m where %g m reaches the group's longest run (%.2f m)" % (r["label"], L, shorter[-1], need))

# cables by part and length equal the bill of materials: one per row, or
# one per `legs` rows of a cage at the Z (upper) end for splitters
lines = phys["lines"]
want = collections.Counter()
for l in lines:
    if l["what"] == "cable": want[(l["part"], float(l["length_m"]))] += l["count"]
per_z = collections.Counter()
for r in rows:
    per_z[(cage_of(r, "z"), r["part"], float(r["length_m"]), media[r["media"]].get("legs", 1))] += 1
got = collections.Counter()
for (cg, part, L, legs), k in per_z.items():
    got[(part, L)] += (k + legs - 1) // legs
if got != want: err("cables by part and length: rows %s, BOM %s" % (sorted(got.items())[:4], sorted(want.items())[:4]))
if phys["cables"] != sum(got.values()): err("BOM cables %d, rows %d" % (phys["cables"], sum(got.values())))

# transceivers: one module per cabled cage, the medium's end on that side
# whose connector fits and which serves all the cage's ports, fewest ports first
FITS = {("qsfp112", "qsfp56"), ("qsfp112", "qsfp28"), ("qsfp-dd", "qsfp56"),
        ("qsfp-dd", "qsfp28"), ("qsfp56", "qsfp28")}
def fits(cage, plug):
    return not cage or not plug or cage == plug or (cage, plug) in FITS
def module(m, kind):
    md = media[m]
    ends = md.get("node_end" if kind == "n" else "switch_end")
    if ends is None: return None
    if isinstance(ends, dict): ends = [ends]
    model = node if kind == "n" else sw
    ports = node_cp if kind == "n" else sw_cp
    ok_ = [e for e in ends if fits(model.get("connector", ""), e.get("connector", md.get("connector", "")))
           and e.get("ports", 1) >= ports]
    if not ok_: err("medium %s has no module for the cages of %s" % (m, model.get("name"))); return None
    return min(ok_, key=lambda e: e.get("ports", 1))
xcv = collections.Counter()
for (kind, dev, cage), v in in_cage.items():
    e = module(sorted(v)[0][0], kind)
    if e: xcv[e["part"]] += 1
want_x = collections.Counter({l["part"]: l["count"] for l in lines if l["what"] == "transceiver"})
if +xcv != +want_x: err("transceivers: from the rows %s, BOM %s" % (dict(xcv), dict(want_x)))
if phys["transceivers"] != sum(xcv.values()): err("BOM transceivers %d" % phys["transceivers"])

# ---- netbox/08-cables.csv ------------------------------------------------------------------------
nb = table(os.path.join(out, "netbox", "08-cables.csv"),
           "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,"
           "status,label,color,length,length_unit")
NBTYPE = {"dac": "dac-passive", "lacc": "dac-active", "aoc": "aoc", "mmf": "mmf-om4", "smf": "smf-os2"}
rail_color = {}
if len(nb) != len(rows): err("netbox: %d rows" % len(nb))
for r, n in zip(rows, nb):
    # NetBox's interfaces are named as on the device: cage/port at a switch
    exp = dict(side_a_device=r["a_device"], side_a_type="dcim.interface",
               side_a_name=r["a_cage_port"] or r["a_port"],
               side_b_device=r["z_device"], side_b_type="dcim.interface", side_b_name=r["z_cage_port"],
               type=NBTYPE[r["kind"]], status="planned", label=r["label"], length=r["length_m"],
               length_unit="m")
    for k, v in exp.items():
        if n[k] != v: err("netbox %s: %s %r, want %r" % (r["label"], k, n[k], v)); break
    if not re.match(r"[0-9a-f]{6}$", n["color"]): err("netbox %s: colour %r" % (r["label"], n["color"]))
    key = r["rail"] if r["rail"] != "" else None
    if key is None and n["color"] != "9e9e9e": err("netbox %s: several rails but not grey" % r["label"])
    if rail_color.setdefault(key, n["color"]) != n["color"]: err("netbox: rail %s in two colours" % key)
byc = collections.defaultdict(set)
for k, c in rail_color.items():
    if k is not None: byc[c].add(int(k) % 12)
if any(len(v) > 1 for v in byc.values()) or "9e9e9e" in byc: err("netbox: rails share colours: %s" % dict(byc))

# ---- p2p.csv ----------------------------------------------------------------------------------
# The cable validation tool's names (tests/cablevalid.sh reads the workbook):
# a host's port is its NIC port's number from 1 in rail order, "rail<n>" on
# Ethernet; an Ethernet switch port is Cumulus's swp<cage>[s<n>], n from 0,
# an XDR switch's NVOS's sw<cage>p<n>, n from 1, both made here from
# cabling.csv's label "cage[/port][/split]".
eth = sw.get("protocol") == "ethernet"
def face(r, e):                 # a port as the device names it: cage/port at a switch
    return r[e + "_cage_port"] or r[e + "_port"]
def p2p_port(r, e, host):
    v = face(r, e)
    if host: return ("rail%d" if eth else "%d") % (NIC[v] + 1)
    nvos = not eth and gbps(sw.get("speed", "")) >= 800
    if not eth and not nvos: return v
    parts = [int(x) for x in v.split("/")]
    if len(parts) == 1: return "sw%dp1" % parts[0] if nvos else "swp%d" % parts[0]
    sub = (parts[1] - 1) * sw_split + parts[2] - 1 if len(parts) == 3 else parts[1] - 1
    return "sw%dp%d" % (parts[0], sub + 1) if nvos else "swp%ds%d" % (parts[0], sub)
pp = table(os.path.join(out, "p2p.csv"),
           "A-Rack,A-U,A-Node Name,A-Type,A-Port,Z-Rack,Z-RU,Z-Node Name,Z-Type,Z-Port")
if len(pp) != len(rows): err("p2p: %d rows" % len(pp))
for r, p in zip(rows, pp):
    host = r["tier"] == "1"
    exp = {"A-Rack": r["a_rack"], "A-U": r["a_u"], "A-Node Name": r["a_device"],
           "A-Type": "Host" if host else "Switch", "A-Port": p2p_port(r, "a", host),
           "Z-Rack": r["z_rack"], "Z-RU": r["z_u"], "Z-Node Name": r["z_device"], "Z-Type": "Switch",
           "Z-Port": p2p_port(r, "z", False)}
    if p != exp: err("p2p %s: %s, want %s" % (r["label"], p, exp)); break

# ---- no ibdiagnet.topo: it is per subnet, beside the OpenSM files (tests/ibdm.sh) ----------------
if os.path.exists(os.path.join(out, "ibdiagnet.topo")): err("cabling/ibdiagnet.topo written")

# ---- cabling.xlsx ----------------------------------------------------------------------------------
import openpyxl
# values as stored (the BOM's formulas by their cached values)
wb = openpyxl.load_workbook(os.path.join(out, "cabling.xlsx"), data_only=True)
names = wb.sheetnames
racks = []
for r in rows:
    for e in "az":
        if r[e + "_rack"] not in racks: racks.append(r[e + "_rack"])
# one sheet per rack of the layout, racks without cables included
if names[:4] != ["Cables", "Labels", "BOM", "Rails"] or not set(racks) <= set(names[4:]) \
        or len(names) - 4 != phys["racks"]:
    err("xlsx sheets: %s" % names[:6])
if len(set(n.lower() for n in names)) != len(names): err("xlsx: sheet names not unique")
for n in names:
    ws = wb[n]
    if len(n) > 31 or re.search(r"[\[\]:*?/\\]", n): err("xlsx: sheet name %r" % n)
    if ws.freeze_panes != "A2": err("xlsx %s: freeze panes %s" % (n, ws.freeze_panes))
    if not (ws.auto_filter.ref or "").startswith("A1:"): err("xlsx %s: autofilter %r" % (n, ws.auto_filter.ref))
    if not all(c.font.b for c in ws[1] if c.value is not None): err("xlsx %s: header not bold" % n)
    if not ws.column_dimensions["A"].width or ws.column_dimensions["A"].width < 3: err("xlsx %s: no column widths" % n)
def cell(v):
    if v is None: return ""
    if isinstance(v, float) and v.is_integer(): v = int(v)
    return str(v)
csvrows = [[r[k] for k in r] for r in rows]
xr = [[cell(v) for v in row] for row in wb["Cables"].iter_rows(min_row=2, values_only=True)]
if xr != csvrows:
    bad = next((k for k, (a, b) in enumerate(zip(xr, csvrows)) if a != b), None)
    err("xlsx Cables differs from cabling.csv (%d/%d rows; first at %s: %s vs %s)" % (
        len(xr), len(csvrows), bad, xr[bad] if bad is not None else "", csvrows[bad] if bad is not None else ""))
for row in wb["Cables"].iter_rows(min_row=2, max_row=3):
    for c in (row[1], row[3], row[8], row[10], row[13], row[18], row[19], row[21], row[22]):
        if not isinstance(c.value, (int, float)): err("xlsx Cables: %s is not a number" % c.coordinate)
bl = list(wb["BOM"].iter_rows(min_row=2, values_only=True))[:len(lines)]
item = {"cable": "cable", "transceiver": "optics"}     # the sheet's word for the JSON's
for l, x in zip(lines, bl):
    if (item[l["what"]], l["part"], l["medium"], l["count"]) != x[0:3] + (x[4],) or abs(l["cost"] - x[6]) > 0.01:
        err("xlsx BOM: %s vs %s" % (x, l)); break
# below the lines: the switches' line, a blank row, then the totals ending in the capex
tot = {x[0]: x for x in wb["BOM"].iter_rows(min_row=len(lines) + 3, values_only=True) if x[0]}
z = [0] * 8
if abs(tot.get("cables", z)[6] + tot.get("optics", z)[6] - phys["cost"]["total"]) > 0.01 \
        or tot.get("cables", z)[4] != phys["cables"] or tot.get("optics", z)[4] != phys["optics_modules"] \
        or abs(tot.get("capex", z)[6] - bom["capex"]["total"]) > 0.01:
    err("xlsx BOM totals: %s" % tot)
by_rack = collections.defaultdict(set)
devs = collections.defaultdict(set)
for r in rows:
    for e in "az":
        by_rack[r[e + "_rack"]].add(r["label"]); devs[r[e + "_rack"]].add(r[e + "_device"])
ends_at = {}
for r in rows:
    for e, o in ("az", "za"):
        ends_at[(r[e + "_device"], face(r, e))] = (r[e + "_rack"], r["label"], r[e + "_type"],
            r["part"], r["length_m"], "%s U%s %s %s" % (r[o + "_rack"], r[o + "_u"], r[o + "_device"], face(r, o)),
            r["media"])
for n in names[4:]:
    ws = wb[n]
    hdr = [c.value for c in ws[1]]
    if hdr != ["u", "device", "model", "port", "label", "to", "part", "medium", "length_m"]:
        err("xlsx %s: header %s" % (n, hdr)); continue
    vals = list(ws.iter_rows(min_row=2, values_only=True))
    us = [v[0] for v in vals]
    if us != sorted(us, reverse=True): err("xlsx %s: elevation not from the top down" % n)
    if {v[4] for v in vals if v[4]} != by_rack[n]: err("xlsx %s: cables differ from those with an end there" % n)
    if not devs[n] <= {v[1] for v in vals}: err("xlsx %s: devices missing" % n)
    model = {}
    for k, v in enumerate(vals):
        # the model stands on each device's first row only
        first = k == 0 or vals[k - 1][1] != v[1]
        if first: model[v[1]] = v[2]
        elif v[2] is not None: err("xlsx %s: model repeated on %s" % (n, v)); break
        e = ends_at.get((v[1], v[3]))
        if v[3] and (e is None or e[:3] != (n, v[4], model[v[1]]) or e[5] != v[5]):
            err("xlsx %s: %s is not %s" % (n, v, e)); break
        # the cable to take: part, medium and length as cabling.csv has them
        if v[3] and (v[6], v[7], cell(v[8])) != (e[3], e[6], e[4]):
            err("xlsx %s: %s: part, medium, length %s, cabling.csv %s" % (n, v[4], v[6:9], (e[3], e[6], e[4]))); break
print("\n".join(errs) if errs else "ok")
P

# same_bytes A B: two files, or two directories file by file (netbox/)
same_bytes() {
    if [ -d "$1" ]; then diff -r "$1" "$2" >/dev/null; else cmp -s "$1" "$2"; fi
}

# cabling and bom for one spec; then every check
check() {   # check NAME SPEC
    n=$1 s=$2
    "$RAILYARD" cabling "$s" -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: cabling exit" $? 0
    no_sanitizer "$TMP/$n.log"
    "$RAILYARD" bom "$s" --format json >"$TMP/$n.bom.json" 2>>"$TMP/$n.log"
    expect_eq "$n: bom exit" $? 0
    for f in cabling.csv netbox/08-cables.csv p2p.csv p2p.xlsx hca_mapping.csv floor.csv cabling.xlsx; do
        [ -s "$TMP/$n/cabling/$f" ] && ok || fail "$n: $f missing"
    done
    "$PY" "$TMP/check.py" "$TMP/$n/cabling" "$s" "$TMP/$n.bom.json" "$TPL" >"$TMP/$n.chk" 2>&1
    expect_eq "$n: files read back and checked" "$(cat "$TMP/$n.chk")" ok
    # same spec, same bytes
    "$RAILYARD" cabling "$s" -o "$TMP/$n-again" >/dev/null 2>&1
    for f in "$TMP/$n"/cabling/*; do
        same_bytes "$f" "$TMP/$n-again/cabling/$(basename "$f")" && ok || fail "$n: $(basename "$f") differs between runs"
    done
    ls -a "$TMP" | grep -q 'railyard-\(tmp\|stage\|old\)' && fail "$n: staging directory left behind" || ok
}

check superpod "$TOP_SRCDIR/examples/superpod-4su.yaml"
check rail-only "$D/rail-only.yaml"
check three-tier "$D/three-tier.yaml"
check two-plane "$D/two-plane.yaml"
check fat-tree "$D/fat-tree.yaml"

# railyard build writes the same plan
"$RAILYARD" build "$D/two-plane.yaml" -o "$TMP/built" >"$TMP/built.log" 2>&1
expect_eq "build exit" $? 0
no_sanitizer "$TMP/built.log"
for f in "$TMP/two-plane"/cabling/*; do
    same_bytes "$f" "$TMP/built/cabling/$(basename "$f")" && ok || fail "build: cabling/$(basename "$f") differs"
done

# Sheet limits at a small scale (tests/unit/xlsx_test.c writes the workbook
# with the rows a sheet holds and the racks that get a sheet each): the
# Cables list continues on "Cables 2", ... (Labels alike) and the racks become one Racks
# list (a row per device) past the rack count or when a rack's rows do not
# fit on one sheet. Expectations come from cabling.csv, the spec and bom.
cat >"$TMP/split.py" <<'P'
import collections, csv, json, math, os, re, sys
import openpyxl, yaml

xlsx, csv_path, spec_path, bom_path = sys.argv[1:5]
R, K = int(sys.argv[5]), int(sys.argv[6])
errs = []
def err(msg):
    if len(errs) < 20: errs.append(msg)
def cell(v):
    if v is None: return ""
    if isinstance(v, float) and v.is_integer(): v = int(v)
    return str(v)
def part(name, k):
    return name if k == 1 else "%s %d" % (name, k)

rows = list(csv.reader(open(csv_path, newline="")))
hdr, data = rows[0], rows[1:]
col = {h: i for i, h in enumerate(hdr)}
nodes = yaml.safe_load(open(spec_path))["cluster"]["nodes"]
ndev = nodes + json.load(open(bom_path))["switches"]["total"]

# the devices and racks as the CSV shows them
dev = {}                        # device -> [rack, u, model, cables]
rack_rows = collections.Counter()
for r in data:
    for e in "az":
        d = r[col[e + "_device"]]
        v = dev.setdefault(d, [r[col[e + "_rack"]], int(r[col[e + "_u"]]), r[col[e + "_type"]], 0])
        v[3] += 1
        rack_rows[r[col[e + "_rack"]]] += 1
if len(dev) != ndev: err("fixture: %d devices cabled of %d" % (len(dev), ndev))
# every rack of the layout, in its order (racks.csv beside cabling.csv)
racks = [r["rack"] for r in csv.DictReader(open(os.path.join(os.path.dirname(csv_path), "racks.csv"), newline=""))]
if not set(rack_rows) <= set(racks): err("racks cabled but not in racks.csv: %s" % sorted(set(rack_rows) - set(racks))[:3])

wb = openpyxl.load_workbook(xlsx)
names = wb.sheetnames
nparts = max(1, math.ceil(len(data) / R))
want = [part(n, k) for n in ("Cables", "Labels") for k in range(1, nparts + 1)] + ["BOM", "Rails"]
per_rack = len(racks) <= K and max(rack_rows.values()) <= R
if per_rack:
    want += racks
else:
    want += [part("Racks", k) for k in range(1, max(1, math.ceil(ndev / R)) + 1)]
if names != want: err("sheets %s, want %s" % (names, want))

def sheet_rows(n, header, nrows):
    if n not in names: return []
    ws = wb[n]
    got = list(ws.iter_rows(values_only=True))
    if [cell(v) for v in got[0]] != header: err("%s: header %s" % (n, got[0]))
    if not all(c.font.b for c in ws[1] if c.value is not None): err("%s: header not bold" % n)
    if ws.freeze_panes != "A2": err("%s: freeze panes %s" % (n, ws.freeze_panes))
    ref = "A1:%s%d" % (openpyxl.utils.get_column_letter(len(header)), nrows + 1)
    if ws.auto_filter.ref != ref: err("%s: filter %s, want %s" % (n, ws.auto_filter.ref, ref))
    if len(got) - 1 != nrows: err("%s: %d rows, want %d" % (n, len(got) - 1, nrows))
    return got[1:]

# every cable exactly once, in order, R to a sheet
xr = []
for k, n in enumerate(w for w in want if w.startswith("Cables")):
    xr += [[cell(v) for v in r] for r in sheet_rows(n, hdr, min(R, len(data) - k * R))]
if xr != data:
    bad = next((k for k, (a, b) in enumerate(zip(xr, data)) if a != b), None)
    err("cables: %d rows for %d; first difference at %s" % (len(xr), len(data), bad))

if per_rack:
    for n in racks:
        got = sheet_rows(n, ["u", "device", "model", "port", "label", "to", "part", "medium", "length_m"],
                         rack_rows[n])
        if {r[1] for r in got} != {d for d, v in dev.items() if v[0] == n}: err("%s: devices" % n)
else:
    lr = []
    for k, n in enumerate(w for w in want if w.startswith("Racks")):
        lr += sheet_rows(n, ["rack", "u", "device", "model", "cables"], min(R, ndev - k * R))
    # a row per device, racks in layout order, each from the top down
    if sorted(r[2] for r in lr) != sorted(dev): err("racks list: devices differ")
    for r in lr:
        v = dev.get(r[2])
        if v and [r[0], r[1], r[3], r[4]] != v:
            err("racks list: %s, want %s" % (r, v)); break
    keys = [(racks.index(r[0]) if r[0] in racks else -1, -r[1]) for r in lr]
    if keys != sorted(keys): err("racks list: not rack by rack from the top down")
print("\n".join(errs) if errs else "ok")
P
XT="$TOP_BUILDDIR/tests/unit/xlsx_test"
two="$D/two-plane.yaml"
nr=$(($(wc -l <"$TMP/two-plane/cabling/racks.csv") - 1))     # racks of its layout
# rows a sheet holds, racks with a sheet each, and what that exercises
for lim in "1048575 256 Excel's limits" \
           "30 256 86 Cables sheets; racks of 64 to 2048 rows: the list, on 3 sheets" \
           "2048 256 the largest rack just fits: a sheet per rack" \
           "2047 256 the largest rack does not fit: the list" \
           "1048575 $nr $nr racks: a sheet each" \
           "1048575 $((nr - 1)) $nr racks: the list"; do
    set -- $lim
    "$XT" "$TPL" "$two" "$TMP/split-$1-$2.xlsx" "$1" "$2" >"$TMP/split.log" 2>&1
    expect_eq "xlsx_test $1 $2: exit" $? 0
    no_sanitizer "$TMP/split.log"
    "$PY" "$TMP/split.py" "$TMP/split-$1-$2.xlsx" "$TMP/two-plane/cabling/cabling.csv" "$two" \
        "$TMP/two-plane.bom.json" "$1" "$2" >"$TMP/split.chk" 2>&1
    expect_eq "workbook of $1 rows a sheet, $2 rack sheets ($*)" "$(cat "$TMP/split.chk")" ok
done
# with Excel's limits, it is what railyard cabling writes
for f in split-1048575-256 "split-1048575-$nr"; do
    cmp -s "$TMP/$f.xlsx" "$TMP/two-plane/cabling/cabling.xlsx" && ok \
        || fail "$f.xlsx differs from railyard cabling's workbook"
done

# One temporary file per sheet: a low soft limit on open files is raised to
# the hard limit; a hard limit too low for that puts the racks on one sheet.
(ulimit -Sn 40 && exec "$RAILYARD" cabling "$TOP_SRCDIR/examples/superpod-4su.yaml" -o "$TMP/lim-soft") \
    >"$TMP/lim-soft.log" 2>&1
expect_eq "soft open-file limit 40: exit" $? 0
(ulimit -n 30 && exec "$RAILYARD" cabling "$TOP_SRCDIR/examples/superpod-4su.yaml" -o "$TMP/lim-hard") \
    >"$TMP/lim-hard.log" 2>&1
expect_eq "hard open-file limit 30: exit" $? 0
no_sanitizer "$TMP/lim-hard.log"
grep -q "warning: .*one sheet 'Racks'" "$TMP/lim-hard.log" && ok || fail "hard limit: no warning"
# (0 racks with a sheet each: the list)
for lim in "soft 256" "hard 0"; do
    set -- $lim
    "$PY" "$TMP/split.py" "$TMP/lim-$1/cabling/cabling.xlsx" "$TMP/superpod/cabling/cabling.csv" \
        "$TOP_SRCDIR/examples/superpod-4su.yaml" "$TMP/superpod.bom.json" 1048575 "$2" \
        >"$TMP/lim.chk" 2>&1
    expect_eq "open-file limit ($1): sheets" "$(cat "$TMP/lim.chk")" ok
done

# A spreadsheet application opens the workbooks: LibreOffice writes every
# sheet as CSV (the last filter option, -1: LibreOffice 7.2 and later), the
# sheets openpyxl lists, the Cables sheets together the rows of cabling.csv.
# superpod's is as railyard writes it (a sheet per rack); the split ones
# have "Cables 2"... with a sheet per rack, and "Cables 43", "Racks 2".
LO=$(command -v libreoffice || command -v soffice || true)
if [ -n "$LO" ]; then
    mkdir -p "$TMP/lo"
    cp "$TMP/split-2048-256.xlsx" "$TMP/lo/"
    "$XT" "$TPL" "$two" "$TMP/lo/split-60-256.xlsx" 60 256 >"$TMP/split.log" 2>&1
    expect_eq "xlsx_test 60 256: exit" $? 0
    HOME="$TMP" timeout 300 "$LO" -env:UserInstallation="file://$TMP/lo-profile" --headless \
        --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1' \
        --outdir "$TMP/lo" "$TMP/superpod/cabling/cabling.xlsx" "$TMP/lo/split-2048-256.xlsx" \
        "$TMP/lo/split-60-256.xlsx" >"$TMP/lo.log" 2>&1
    expect_eq "libreoffice converts the workbooks" "$?" 0
    if [ -e "$TMP/lo/cabling.csv" ] && [ ! -e "$TMP/lo/cabling-Cables.csv" ]; then
        echo "SKIP: this LibreOffice writes the first sheet only: the sheets are checked with openpyxl only"
    else
        for w in "cabling $TMP/superpod/cabling/cabling.xlsx superpod" \
                 "split-2048-256 $TMP/lo/split-2048-256.xlsx two-plane" \
                 "split-60-256 $TMP/lo/split-60-256.xlsx two-plane"; do
            set -- $w
            "$PY" - "$TMP/lo" "$1" "$2" "$TMP/$3/cabling/cabling.csv" >"$TMP/lo.chk" 2>&1 <<'P'
import csv, os, sys
import openpyxl
d, base, xlsx, ref = sys.argv[1:5]
b = list(csv.reader(open(ref, newline="")))
wb = openpyxl.load_workbook(xlsx, read_only=True)
cables, errs = [], []
for n in wb.sheetnames:
    p = os.path.join(d, "%s-%s.csv" % (base, n))
    if not os.path.exists(p):
        errs.append("no sheet %r" % n); continue
    rows = list(csv.reader(open(p, newline="")))
    if n == "Cables" or n.startswith("Cables "):
        if rows[0] != b[0]: errs.append("%s: header %s" % (n, rows[0]))
        cables += rows[1:]
    elif len(rows) != wb[n].max_row:
        errs.append("%s: %d rows, openpyxl reads %d" % (n, len(rows), wb[n].max_row))
if cables != b[1:]:
    errs.append("Cables sheets: %d rows, cabling.csv %d" % (len(cables), len(b) - 1))
print("\n".join(errs[:10]) if errs else "ok")
P
            expect_eq "libreoffice: $1.xlsx, every sheet" "$(cat "$TMP/lo.chk")" ok
        done
    fi
else
    echo "SKIP: LibreOffice (libreoffice/soffice) not installed: the workbook is checked with openpyxl only"
fi

# Bad input: exit 1, file:line:col, nothing written.
for b in bad-small-layout bad-medium bad-tier-medium bad-reach; do
    "$RAILYARD" cabling "$D/$b.yaml" -o "$TMP/$b" >"$TMP/$b.out" 2>"$TMP/$b.err"
    expect_eq "$b: exit" $? 1
    no_sanitizer "$TMP/$b.err"
    grep -qE "^$D/$b\.yaml:[0-9]+:[0-9]+: error: " "$TMP/$b.err" && ok \
        || fail "$b: no file:line:col error: $(head -2 "$TMP/$b.err")"
    [ -e "$TMP/$b" ] && fail "$b: output written" || ok
    ls -a "$TMP" | grep -q "^\.$b\.railyard-stage" && fail "$b: staging left behind" || ok
done
grep -q "too small" "$TMP/bad-small-layout.err" && ok || fail "bad-small-layout: $(cat "$TMP/bad-small-layout.err")"
grep -q "no-such-cable" "$TMP/bad-medium.err" && ok || fail "bad-medium: $(cat "$TMP/bad-medium.err")"
grep -q "ndr-copper-9000" "$TMP/bad-tier-medium.err" && ok || fail "bad-tier-medium: $(cat "$TMP/bad-tier-medium.err")"
grep -q "reaches that far" "$TMP/bad-reach.err" && ok || fail "bad-reach: $(cat "$TMP/bad-reach.err")"
# An unknown medium is worded as every unknown catalog name, with a did-you-mean.
grep -q "cabling.links.1.medium: unknown medium 'no-such-cable' (the catalog has: ndr-dac, " \
    "$TMP/bad-medium.err" && ok || fail "bad-medium wording: $(cat "$TMP/bad-medium.err")"
"$RAILYARD" cabling "$D/bad-tier-medium.yaml" --set cabling.tiers.1=ndr-dca -o "$TMP/dym" \
    >/dev/null 2>"$TMP/dym.err"
expect_eq "misspelt medium: exit" $? 1
grep -q "unknown medium 'ndr-dca'; did you mean 'ndr-dac'?" "$TMP/dym.err" && ok \
    || fail "misspelt medium: $(cat "$TMP/dym.err")"

finish
