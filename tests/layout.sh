#!/bin/sh
# The physical layout over a range of sizes: properties of railyard-spec(5)'s
# LAYOUT section checked on the cabling plan (cabling.csv, racks.csv,
# rooms.csv) and the BOM, every number computed here on its own (the runs by
# tests/layoutmodel.py):
#   (a) every cable as long as its routed run and within its medium's reach;
#   (b) a data hall within layout.hall_racks and layout.hall_power, the power
#       summed from the devices in it at their catalog power;
#   (c) a network rack within the rack power budget;
#   (d) scalable units, level-1 blocks and pods (union-find over the links of
#       tiers 1 and 2, servers of one HB domain together) never split across
#       halls when every such block fits in a hall; HB domains never;
#   (e) rooms of one building apart along the corridor on each side,
#       buildings apart on the campus grid;
#   (f) rack names from room, row and position; every device in a rack of
#       racks.csv, in units of its own; racks' and rooms' units, power and
#       size as their contents say; each switch as high as its model
#       (a fabric.tiers list of a 1U and a 4U model) or layout.switch_units;
#   (g) 65,536 GPUs (8192 DGX H100) with no run over 150 m;
#   (h) 1,048,576 GPUs: the BOM's longest run within the reach of the
#       catalog's longest NDR medium (under the sanitizers: the same four
#       tiers at 131,072 GPUs, the largest plan of (a)-(f));
#   (i) a hall too small for one HB domain: a positional error, nothing written;
#   (j) a fat tree of 16,384 GPUs stands its leaves together by default: its
#       racks within 10% of the closed form (compute racks, then leaves and
#       upper tiers at as many switches a rack as space and power allow) and
#       of the rail-optimized design's; per-unit leaf racks warned about
#       (rack-fill), the bundled examples not.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"
EX="$TOP_SRCDIR/examples"

cat >"$TMP/layout.py" <<'P'
import collections, csv, json, math, os, re, sys
import yaml
import layoutmodel
from layoutmodel import TOL

out, spec_path, bom_path, tdir, max_run = sys.argv[1:6]
sets = sys.argv[6:]             # the --set KEY=VALUE railyard was given
errs = []
def err(msg):
    if len(errs) < 20:
        errs.append(msg)

spec = yaml.safe_load(open(spec_path))
for kv in sets:
    key, v = kv.split("=", 1)
    d, ks = spec, key.split(".")
    for k in ks[:-1]:
        d = d.setdefault(k, {})
    d[ks[-1]] = yaml.safe_load(v)
cl, fab = spec.get("cluster", {}), spec.get("fabric") or {}
node, sw, media = layoutmodel.models(spec, tdir)
lay = layoutmodel.layout_keys(spec, node, sw)
gpn = cl.get("gpus_per_node", node.get("gpus_per_node", 8))
servers = (cl["gpus"] if "gpus" in cl else cl["nodes"] * gpn) // gpn
hb = cl.get("hb_domain", node.get("hb_domain", gpn))
per_hb = max(1, hb // gpn)                      # servers of one HB domain
su = cl.get("scalable_unit", 0)
node_kw, sw_kw = node.get("power", 0) / 1000.0, sw.get("power", 0) / 1000.0
# a fabric.tiers list: each switch draws its model's power; racks are
# packed for the most power-hungry one
type_kw = {n: m.get("power", 0) / 1000.0 for n, m in sw["tiers"].items()}
if type_kw: sw_kw = max(type_kw.values())
bom = json.load(open(bom_path))
phys = bom["physical"]

floor = layoutmodel.Floor(out, lay)
for e in floor.errors + floor.name_errors(): err(e)
racks, rooms = floor.racks, floor.rooms

# ---- cabling.csv, streamed: runs (a), where every device stands, blocks ----------------------
reach = {m: float(md["lengths"][-1]) for m, md in media.items()}
dev = {}                        # name -> (rack, lowest unit, units, server index or -1, kW)
def find(p, x):
    while p.setdefault(x, x) != x:
        p[x] = p[p[x]]; x = p[x]
    return x
def join(p, a, b):
    a, b = find(p, a), find(p, b)
    if a != b: p[a] = b
uf = {1: {}, 2: {}}             # union-find over devices joined by links of tier <= 1, <= 2
longest_L = longest_need = 0.0
nrows = 0
def place(name, rack, u, units, server, label, kw):
    idx = int(re.search(r"(\d+)$", name).group(1)) - 1 if server else -1
    v = (rack, int(u), units, idx, kw)
    if dev.setdefault(name, v) != v:
        err("%s: %s at %s U%s, elsewhere %s U%d" % (label, name, rack, u, dev[name][0], dev[name][1]))
with open(os.path.join(out, "cabling.csv"), newline="") as f:
    rd = csv.reader(f)
    c = {h: i for i, h in enumerate(next(rd))}
    A_R, A_U, A_D, Z_R, Z_U, Z_D = (c[k] for k in ("a_rack", "a_u", "a_device", "z_rack", "z_u", "z_device"))
    A_T, Z_T = c["a_type"], c["z_type"]
    MED, LEN, TIER, LAB = c["media"], c["length_m"], c["tier"], c["label"]
    A_ROW, Z_ROW = c["a_row"], c["z_row"]
    nu, su_ = lay["node_units"], lay["switch_units"]
    for r in rd:
        nrows += 1
        tier = int(r[TIER])
        server = tier == 1
        ra, rz = racks.get(r[A_R]), racks.get(r[Z_R])
        if ra is None or rz is None:
            err("%s: rack %s or %s not in racks.csv" % (r[LAB], r[A_R], r[Z_R])); continue
        if int(r[A_ROW]) != ra["row"] + 1 or int(r[Z_ROW]) != rz["row"] + 1:
            err("%s: rows %s/%s, racks.csv %d/%d" % (r[LAB], r[A_ROW], r[Z_ROW], ra["row"] + 1, rz["row"] + 1))
        ua, uz = nu if server else layoutmodel.switch_units(lay, r[A_T]), layoutmodel.switch_units(lay, r[Z_T])
        place(r[A_D], r[A_R], r[A_U], ua, server, r[LAB], node_kw if server else type_kw.get(r[A_T], sw_kw))
        place(r[Z_D], r[Z_R], r[Z_U], uz, False, r[LAB], type_kw.get(r[Z_T], sw_kw))
        # (a) at least the routed run (both slacks), at most the medium's reach
        need = floor.run_m(r[A_R], layoutmodel.height(r[A_U], ua),
                           r[Z_R], layoutmodel.height(r[Z_U], uz)) + 2 * lay["slack"]
        L = float(r[LEN])
        if L + TOL < need: err("%s: %g m for a run of %.3f m (%s to %s)" % (r[LAB], L, need, r[A_R], r[Z_R]))
        if r[MED] not in reach: err("%s: unknown medium %s" % (r[LAB], r[MED]))
        elif L > reach[r[MED]]: err("%s: %g m beyond the reach of %s" % (r[LAB], L, r[MED]))
        longest_L, longest_need = max(longest_L, L), max(longest_need, need)
        for t in (1, 2):
            if tier <= t: join(uf[t], r[A_D], r[Z_D])
if nrows != bom["links"]["total"]: err("cabling.csv: %d rows, BOM %d links" % (nrows, bom["links"]["total"]))
srv = sorted(d for d, v in dev.items() if v[3] >= 0)
if sorted(v[3] for v in dev.values() if v[3] >= 0) != list(range(servers)):
    err("servers cabled: %d, numbered %s.., the spec has %d" % (len(srv), srv[:2], servers))
nsw = len(dev) - len(srv)
if nsw != bom["switches"]["total"]: err("switches cabled %d, BOM %d" % (nsw, bom["switches"]["total"]))
by_index = {v[3]: d for d, v in dev.items() if v[3] >= 0}
for t in (1, 2):                # servers of one HB domain stand together
    for s in range(servers):
        if s % per_hb and s in by_index: join(uf[t], by_index[s], by_index[s - s % per_hb])

# ---- (f) devices in racks: units of their own, racks' use and power ---------------------------------
in_rack = collections.defaultdict(list)
for d, (rk, u, units, idx, kw) in dev.items():
    in_rack[rk].append((u, u + units - 1, d, idx >= 0, kw))
for rk, items in in_rack.items():
    items.sort()
    for (a0, a1, ad, _, _), (b0, b1, bd, _, _) in zip(items, items[1:]):
        if b0 <= a1: err("%s: %s (U%d-%d) and %s (U%d) share units" % (rk, ad, a0, a1, bd, b0))
    if items[0][0] < lay["first_unit"] or items[-1][1] > lay["rack_units"]:
        err("%s: units %d..%d outside %d..%d" % (rk, items[0][0], items[-1][1], lay["first_unit"], lay["rack_units"]))
    used = sum(b - a + 1 for a, b, _, _, _ in items)
    kw = sum(x for _, _, _, _, x in items)
    k = racks[rk]
    if used != k["units_used"]: err("racks.csv: %s uses %d units, its devices %d" % (rk, k["units_used"], used))
    if abs(kw - k["power_kw"]) > 0.002: err("racks.csv: %s draws %g kW, its devices %g" % (rk, k["power_kw"], kw))
    want = "compute" if any(s for _, _, _, s, _ in items) else "network"
    if k["kind"] != want: err("racks.csv: %s is %s, holds %s" % (rk, k["kind"], want))
# per-unit racks all hold something; rows of end/middle-of-row are laid
# whole, so the last row of a hall may end in empty racks
empty = [n for n in racks if n not in in_rack]
if empty and lay["network"] == "per-unit": err("racks without a device: %s" % empty[:3])
rows_with = {(k["room"], k["row"]) for n, k in racks.items() if n in in_rack}
if any((racks[n]["room"], racks[n]["row"]) not in rows_with for n in empty):
    err("a row without a device: %s" % [n for n in empty if (racks[n]["room"], racks[n]["row"]) not in rows_with][:3])
if len(racks) != phys["racks"]: err("racks.csv: %d racks, BOM %d" % (len(racks), phys["racks"]))

# rooms: racks, size and power as their racks say
room_racks = collections.defaultdict(list)
for n, k in racks.items(): room_racks[k["room"]].append(k)
for n, rm in rooms.items():
    ks = room_racks[n]
    if len(ks) != rm["racks"]: err("rooms.csv: %s has %d racks, racks.csv %d" % (n, rm["racks"], len(ks)))
    rows_ = max((k["row"] for k in ks), default=-1) + 1
    if rows_ != rm["rows"]: err("rooms.csv: %s has %d rows, its racks %d" % (n, rm["rows"], rows_))
    w = rm["racks_per_row"] * lay["rack_pitch"] + 2 * layoutmodel.MARGIN
    dp = rm["rows"] * lay["row_pitch"] + 2 * layoutmodel.MARGIN
    if abs(w - rm["width_m"]) > TOL or abs(dp - rm["depth_m"]) > TOL:
        err("rooms.csv: %s is %g x %g m, %d racks a row in %d rows need %g x %g m"
            % (n, rm["width_m"], rm["depth_m"], rm["racks_per_row"], rm["rows"], w, dp))
    kw = sum(dev[d][4] for k in ks for _, _, d, _, _ in in_rack[k["rack"]])
    if abs(kw - rm["power_kw"]) > 0.01 + 1e-6 * kw: err("rooms.csv: %s draws %g kW, its devices %g" % (n, rm["power_kw"], kw))
    # (b) a hall within its racks and power
    if rm["kind"] == "hall":
        if len(ks) > lay["hall_racks"]: err("hall %s: %d racks, hall_racks %d" % (n, len(ks), lay["hall_racks"]))
        if kw > lay["hall_power"] * (1 + 1e-9): err("hall %s: %g kW, hall_power %g" % (n, kw, lay["hall_power"]))
halls = [n for n, rm in rooms.items() if rm["kind"] == "hall"]
nets = [n for n, rm in rooms.items() if rm["kind"] == "network"]
if (len(halls), len(nets)) != (phys["halls"], phys["network_rooms"]):
    err("rooms.csv: %d halls, %d network rooms; BOM %d, %d" % (len(halls), len(nets), phys["halls"], phys["network_rooms"]))
if len(rooms) == 1 and nets: err("one room, and that a network room")

# (c) network racks within the rack power budget
if lay["rack_power"] > 0:
    for n, k in racks.items():
        if k["kind"] == "network" and k["power_kw"] > lay["rack_power"] + 1e-6:
            err("network rack %s: %g kW over the budget of %g kW" % (n, k["power_kw"], lay["rack_power"]))

# ---- (d) blocks never split across halls -------------------------------------------------------------
def room_of(d): return racks[dev[d][0]]["room"]
# switches a network rack holds: its space, the power budget, switches_per_rack
spr = (lay["rack_units"] - lay["first_unit"] + 1) // lay["switch_units"]
if lay.get("switches_per_rack"): spr = min(spr, lay["switches_per_rack"])
elif lay["rack_power"] > 0 and sw_kw > 0: spr = min(spr, int(lay["rack_power"] / sw_kw))
def fits(g):
    """At least its servers' racks and its switches' racks, and its power, within a hall."""
    s = sum(1 for d in g if dev[d][3] >= 0)
    return math.ceil(s / lay["nodes_per_rack"]) + math.ceil((len(g) - s) / spr) <= lay["hall_racks"] and \
        s * node_kw + sum(dev[d][4] for d in g if dev[d][3] < 0) <= lay["hall_power"]
def whole(label, groups, servers_only=False):
    """Every group in one hall when every group fits one; returns how many
    groups were checked (0 when some does not fit)."""
    if not all(fits(g) for g in groups): return 0
    for g in groups:
        where = {room_of(d) for d in g if not servers_only or dev[d][3] >= 0}
        if len(where) > 1:
            err("%s of %s.. split across %s" % (label, sorted(g)[0], sorted(where)[:4])); break
    return len(groups)
def groups_of(p):      # the blocks with servers (upper switches stand apart)
    g = collections.defaultdict(list)
    for d in dev: g[find(p, d)].append(d)
    return [x for x in g.values() if any(dev[d][3] >= 0 for d in x)]
hbs = [[by_index[s] for s in range(k, min(k + per_hb, servers)) if s in by_index] for k in range(0, servers, per_hb)]
for g in hbs:
    if len({room_of(d) for d in g}) > 1: err("HB domain of %s split across halls" % g[0]); break
checked = {"hb": len(hbs)}
if su:
    units = [[by_index[s] for s in range(k, min(k + su, servers)) if s in by_index] for k in range(0, servers, su)]
    checked["su"] = whole("scalable unit", units, servers_only=True)
checked["unit"] = whole("level-1 block", groups_of(uf[1]))
checked["pod"] = whole("pod", groups_of(uf[2]))

# ---- (e) rooms apart along the corridor, buildings apart on the grid -----------------------------------
blds = collections.defaultdict(list)
for n, rm in rooms.items(): blds[rm["building"]].append(rm)
foot = {}
for b, rms in blds.items():
    for side in (0, 1):
        s = sorted((rm for rm in rms if rm["side"] == side), key=lambda rm: rm["x_m"])
        for p, q in zip(s, s[1:]):
            if q["x_m"] + TOL < p["x_m"] + p["width_m"] + lay["hall_gap"]:
                err("building %d side %d: %s (%g..%g m) and %s (from %g m) closer than hall_gap %g"
                    % (b, side, p["room"], p["x_m"], p["x_m"] + p["width_m"], q["room"], q["x_m"], lay["hall_gap"]))
    if len({(rm["grid_x"], rm["grid_y"], rm["building_x_m"], rm["building_y_m"], rm["entry_m"]) for rm in rms}) != 1:
        err("building %d: its rooms disagree on its place" % b)
    nh = sum(1 for rm in rms if rm["kind"] == "hall")
    if nh > lay["halls_per_building"]: err("building %d: %d halls, halls_per_building %d" % (b, nh, lay["halls_per_building"]))
    length = max(rm["x_m"] + rm["width_m"] for rm in rms)
    depth = sum(max([rm["depth_m"] for rm in rms if rm["side"] == sd] or [0]) for sd in (0, 1)) + lay["hall_gap"]
    if not -TOL <= rms[0]["entry_m"] <= length + TOL: err("building %d: entry %g m outside 0..%g" % (b, rms[0]["entry_m"], length))
    foot[b] = (rms[0]["building_x_m"], rms[0]["building_y_m"], length, depth, rms[0]["grid_x"], rms[0]["grid_y"])
if len(blds) != phys["buildings"]: err("rooms.csv: %d buildings, BOM %d" % (len(blds), phys["buildings"]))
fl = sorted(foot.items())
for i, (a, (ax, ay, al, ad, agx, agy)) in enumerate(fl):
    for b, (bx, by, bl, bd, bgx, bgy) in fl[i + 1:]:
        gap = max(bx - (ax + al), ax - (bx + bl), by - (ay + ad), ay - (by + bd))
        if gap + TOL < lay["building_gap"]:
            err("buildings %d and %d: %g m apart, building_gap %g" % (a, b, gap, lay["building_gap"]))
        if (agx, agy) == (bgx, bgy): err("buildings %d and %d in one grid cell" % (a, b))

# ---- the BOM's longest run; (g) a limit on every run ------------------------------------------------------
if abs(phys["longest_run_m"] - longest_need) > 0.05 + TOL:     # the BOM's to 0.1 m, slack included
    err("BOM longest run %g m, the longest here %.3f m" % (phys["longest_run_m"], longest_need))
if max_run != "-":
    if longest_L > float(max_run): err("a cable of %g m, over %s m" % (longest_L, max_run))
    if phys["longest_run_m"] > float(max_run): err("BOM longest run %g m, over %s m" % (phys["longest_run_m"], max_run))
if errs:
    print("\n".join(errs))
else:
    print("ok")
    print("%d racks (%d empty), %d halls, %d network rooms, %d buildings; longest cable %g m, "
          "run %.1f m; whole: %s" % (len(racks), len(empty), len(halls), len(nets), len(blds), longest_L,
                                     longest_need, " ".join("%s %d" % kv for kv in checked.items())),
          file=sys.stderr)
P

# check NAME MAXRUN SPEC [KEY=VALUE...]: railyard cabling and bom with
# --set KEY=VALUE, then every property (MAXRUN: a limit on every run, or -)
check() {
    n=$1 mx=$2 s=$3
    shift 3
    sets=
    for kv in "$@"; do sets="$sets --set $kv"; done
    # shellcheck disable=SC2086
    "$RAILYARD" cabling "$s" $sets -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: cabling exit" $? 0
    no_sanitizer "$TMP/$n.log"
    # shellcheck disable=SC2086
    "$RAILYARD" bom "$s" $sets --format json >"$TMP/$n.bom.json" 2>>"$TMP/$n.log"
    expect_eq "$n: bom exit" $? 0
    "$PY" "$TMP/layout.py" "$TMP/$n/cabling" "$s" "$TMP/$n.bom.json" "$TPL" "$mx" "$@" \
        >"$TMP/$n.chk" 2>"$TMP/$n.info"
    expect_eq "$n: layout properties" "$(cat "$TMP/$n.chk")" ok
    printf '%s: %s\n' "$n" "$(cat "$TMP/$n.info")"
    rm -rf "${TMP:?}/$n"     # the largest plans take a few hundred MB
}

sp="$EX/superpod-4su.yaml"
for n in 1 16 127 128 1024 4096; do
    check "superpod-$n" - "$sp" "cluster.nodes=$n"
done
# (g) 65,536 GPUs: no run over 150 m
check superpod-8192 150 "$sp" cluster.nodes=8192
# 131,072 GPUs: two buildings
check superpod-16384 - "$sp" cluster.nodes=16384
# small halls and buildings: many of each at a small scale
check superpod-small-halls - "$sp" cluster.nodes=2048 layout.hall_racks=80 layout.halls_per_building=2
check superpod-end-of-row - "$sp" cluster.nodes=4096 layout.network=end-of-row
check superpod-middle-of-row - "$sp" cluster.nodes=1024 layout.network=middle-of-row layout.hall_racks=120
check rail-only "-" "$EX/rail-only-gh200.yaml"
check rail-only-small-halls "-" "$EX/rail-only-gh200.yaml" cluster.gpus=8192 layout.hall_racks=40 layout.halls_per_building=3
check fat-tree "-" "$EX/fat-tree.yaml"
check fat-tree-8192 "-" "$EX/fat-tree.yaml" cluster.nodes=8192
check fat-tree-small-halls "-" "$EX/fat-tree.yaml" cluster.nodes=2048 layout.hall_racks=60 layout.halls_per_building=2
# a fabric.tiers list of a 1U and a 4U model (QM9700 leaves, Q3400
# spines): each switch stands at its own height (runs from the centre of
# its units, racks' units used), in network racks per unit and at the end
# of rows; layout.switch_units written makes every switch that high
tw="$TOP_SRCDIR/tests/data/tiers/ib-two-models.yaml"
check two-heights "-" "$tw"
check two-heights-end-of-row "-" "$tw" layout.network=end-of-row layout.racks_per_row=12
check two-heights-in-rack "-" "$tw" layout.network=in-rack
check two-heights-2u "-" "$tw" layout.switch_units=2

# (h) 1,048,576 GPUs: the BOM only (4 million cables); its longest run
# within the longest reach of an NDR medium of the catalog
# A sanitizer build runs a few times slower: there the BOM is of 131,072
# GPUs (two buildings, the same four tiers), the plan cabled above; the
# normal build checks the 1,048,576.
if grep -qa __asan_init "$RAILYARD"; then
    big="131,072 GPUs" nodes=16384
else
    big="1,048,576 GPUs" nodes=131072
fi
"$RAILYARD" bom "$sp" --set cluster.nodes=$nodes --format json >"$TMP/1m.json" 2>"$TMP/1m.log"
expect_eq "$big: bom exit" $? 0
no_sanitizer "$TMP/1m.log"
"$PY" - "$TMP/1m.json" "$TPL/media.yaml" $((nodes * 8)) >"$TMP/1m.chk" 2>&1 <<'P'
import json, sys, yaml
bom, media = json.load(open(sys.argv[1])), yaml.safe_load(open(sys.argv[2]))["media"]
ndr = max(float(m["lengths"][-1]) for m in media.values()
          if any(str(s).upper() in ("NDR", "400G") for s in m["speeds"]))
p = bom["physical"]
errs = []
if p["longest_run_m"] > ndr: errs.append("longest run %g m, NDR reaches %g m" % (p["longest_run_m"], ndr))
if not p["halls"] > 1 or not p["buildings"] > 1: errs.append("halls %d, buildings %d" % (p["halls"], p["buildings"]))
# non-blocking: every tier carries as many links as there are GPUs (radix 64: 4 tiers)
gpus = int(sys.argv[3])
if bom["gpus"] != gpus: errs.append("%d GPUs, want %d" % (bom["gpus"], gpus))
if bom["links"]["total"] != 4 * gpus: errs.append("%d links, want 4 tiers of %d" % (bom["links"]["total"], gpus))
print("\n".join(errs) if errs else "ok")
P
expect_eq "$big: longest run within NDR's reach" "$(cat "$TMP/1m.chk")" ok

# (i) a hall smaller than one HB domain (256 GH200 nodes, 16 to a rack):
# the error at layout.hall_racks' value, nothing written
cat >"$TMP/small-hall.yaml" <<'Y'
name: small-hall
cluster:
  gpus: 32768
  node: dgx-gh200
fabric:
  design: rail-only
  switch: {name: radix64-400g, radix: 64, speed: 400G}
layout:
  hall_racks: 8
Y
"$RAILYARD" cabling "$TMP/small-hall.yaml" -o "$TMP/small-hall" >"$TMP/small-hall.out" 2>"$TMP/small-hall.err"
expect_eq "small hall: exit" $? 1
no_sanitizer "$TMP/small-hall.err"
grep -qE "^$TMP/small-hall\.yaml:9:15: error: .*HB domain.*layout\.hall_racks" "$TMP/small-hall.err" && ok ||
    fail "small hall: $(cat "$TMP/small-hall.err")"
[ -e "$TMP/small-hall" ] && fail "small hall: output written" || ok

# (j) the fat tree's floor plan at 16,384 GPUs (2048 HGX H100)
ft="$EX/fat-tree.yaml"
"$RAILYARD" -q bom "$ft" --set cluster.nodes=2048 --format json >"$TMP/ft16k.json" 2>"$TMP/ft16k.err"
expect_eq "fat tree 16k: bom exit" "$?:$(cat "$TMP/ft16k.err")" "0:"
"$RAILYARD" -q bom "$ft" --set cluster.nodes=2048 --set fabric.design=rail-optimized --format json \
    >"$TMP/ro16k.json" 2>"$TMP/ro16k.err"
expect_eq "rail-optimized 16k: bom exit" "$?:$(cat "$TMP/ro16k.err")" "0:"
"$PY" - "$ft" "$TPL" "$TMP/ft16k.json" "$TMP/ro16k.json" >"$TMP/ft16k.chk" 2>&1 <<'P'
import json, math, sys, yaml
import layoutmodel
spec = yaml.safe_load(open(sys.argv[1]))
spec["cluster"]["nodes"] = 2048
node, sw, _ = layoutmodel.models(spec, sys.argv[2])
lay = layoutmodel.layout_keys(spec, node, sw)
ft, ro = (json.load(open(p)) for p in sys.argv[3:5])
space = (lay["rack_units"] - lay["first_unit"] + 1) // lay["switch_units"]
spr = min(space, int(lay["rack_power"] * 1000 // sw["power"])) if lay["rack_power"] and sw.get("power") else space
tiers = ft["switches"]["per_tier"]
need = (math.ceil(2048 / lay["nodes_per_rack"]) + math.ceil(tiers[0] / spr)
        + math.ceil(sum(tiers[1:]) / spr))
got, rail = ft["physical"]["racks"], ro["physical"]["racks"]
errs = []
if lay["network"] != "end-of-row": errs.append("default network %s" % lay["network"])
if not need <= got <= 1.10 * need: errs.append("fat tree: %d racks, closed form %d" % (got, need))
if not got <= 1.10 * rail: errs.append("fat tree: %d racks, rail-optimized %d" % (got, rail))
print("\n".join(errs) if errs else "ok")
print("fat tree %d racks, closed form %d (%d a network rack), rail-optimized %d"
      % (got, need, spr, rail), file=sys.stderr)
P
expect_eq "fat tree 16k: racks near the closed form" "$(head -1 "$TMP/ft16k.chk")" ok
sed -n 2p "$TMP/ft16k.chk"
# per-unit leaves of a fat tree, one to a rack: the rack-fill warning, at
# layout.network (line 30) under --strict
"$RAILYARD" -q validate "$EX/superpod-4su.yaml" --set cluster.nodes=2048 --set fabric.design=fat-tree \
    >"$TMP/ft-pu.out" 2>&1
expect_eq "fat tree per-unit: exit (a warning)" $? 0
grep -q '^warning: rack-fill: 5[0-9][0-9] of [0-9]* racks are network racks under a third full (down to 1 switch where' \
    "$TMP/ft-pu.out" && ok || fail "rack-fill warning: $(grep -i 'rack' "$TMP/ft-pu.out")"
"$RAILYARD" -q validate "$EX/superpod-4su.yaml" --set cluster.nodes=2048 --set fabric.design=fat-tree \
    --strict >/dev/null 2>"$TMP/ft-pu.err"
expect_eq "fat tree per-unit: --strict exit" $? 1
grep -q "superpod-4su.yaml:30:12: error: [0-9]* of [0-9]* racks are network racks under a third full" \
    "$TMP/ft-pu.err" && ok || fail "strict rack-fill at layout.network: $(cat "$TMP/ft-pu.err")"
for e in $(examples); do
    "$RAILYARD" -q validate "$e" >"$TMP/ex.out" 2>&1
    grep -q 'rack-fill' "$TMP/ex.out" && fail "$(basename "$e"): $(grep rack-fill "$TMP/ex.out")" || ok
done

finish
