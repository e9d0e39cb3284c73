"""Cable runs on railyard's floor, derived for the tests on their own.

The floor is read from a cabling plan's racks.csv and rooms.csv (where
every rack and room stands) and the spec's layout keys; the routing rule is
the one railyard-spec(5) describes under LAYOUT, written out again here:
railyard's own lengths are never read.

  same rack:      |ha - hb|, between the units' centres
  same room:      (tray - ha) + |dcol| rack_pitch + |drow| row_pitch + (tray - hb)
  other rooms:    (tray - ha) + to_door(a) + along + to_door(b) + (tray - hb)
    to_door(k) = |col + 1/2 - racks_per_row / 2| rack_pitch + (row + 1/2) row_pitch + MARGIN
    along, one building:  |door_a - door_b| (+ hall_gap across the corridor)
    along, two buildings: |door_a - entry_a| + |door_b - entry_b| + hall_gap
                          + |dgrid_x| pitch_x + |dgrid_y| pitch_y
  door = x_m + width_m / 2 of the room; col, row from 0 within the room;
  unit centre h = PLINTH + (u - 1 + units / 2) UNIT. A cable adds the slack
  at both ends.

Used by tests/cabling.sh, tests/cages.sh and tests/layout.sh."""
import csv
import os
import re

UNIT = 0.04445      # one rack unit, metres
PLINTH = 0.1        # floor to the bottom of unit 1
MARGIN = 1.2        # a room's walls to its outer racks (service aisle)
TOL = 0.005         # rooms.csv gives metres to the millimetre

DEFAULTS = dict(rack_pitch=0.6, row_pitch=2.4, tray_height=2.6, slack=0.5, rack_units=48,
                first_unit=2, hall_racks=512, hall_power=20000, halls_per_building=8,
                hall_gap=10, building_gap=50, network="per-unit", rack_power=None)


def models(spec, tdir):
    """The spec's node and switch models as the catalog in tdir completes
    them (an inline model overrides its entry's keys), and the media
    catalog: (node, switch, media)."""
    import yaml
    def load(name, key):
        with open(os.path.join(tdir, name)) as f:
            return yaml.safe_load(f)[key]
    cl, fab = spec.get("cluster", {}), spec.get("fabric") or {}
    def model(v, cat, default):
        if v is None:
            v = default
        if isinstance(v, str):
            return dict(cat.get(v, {}), name=v)
        m = dict(cat.get(v.get("name"), {}))
        m.update(v)
        return m
    node = model(cl.get("node"), load("nodes.yaml", "nodes"), {})
    swcat = load("switches.yaml", "switches")
    sw = model(fab.get("switch"), swcat, {"name": "generic", "radix": 64})
    # a fabric.tiers list: each tier's model (the tier below's when it names
    # none), by name, as cabling.csv's a_type and z_type name them
    sw["tiers"] = {}
    if isinstance(fab.get("tiers"), list):
        cur = fab.get("switch") or {"name": "generic", "radix": 64}
        for t in fab["tiers"]:
            cur = t.get("switch") or cur
            m = model(cur, swcat, {})
            sw["tiers"][m["name"]] = m
    return node, sw, load("media.yaml", "media")


def layout_keys(spec, node, sw):
    """The spec's layout keys over their defaults (railyard-spec(5));
    node and sw are the catalog models with the spec's changes."""
    lay = dict(DEFAULTS, node_units=node.get("rack_units", 8),
               switch_units=sw.get("rack_units", 1),
               nodes_per_rack=node.get("per_rack", 4))
    # each model of a tier list as high as its rack_units (1U when unknown);
    # switch_units the tallest, for how many a network rack holds
    lay["type_units"] = {n: m.get("rack_units") or 1 for n, m in sw.get("tiers", {}).items()}
    if lay["type_units"]:
        lay["switch_units"] = max(lay["type_units"].values())
    if (spec.get("fabric") or {}).get("design") == "fat-tree":
        lay["network"] = "end-of-row"   # a fat tree's leaves stand together
    lay.update(spec.get("layout") or {})
    if "switch_units" in (spec.get("layout") or {}):    # written: every switch that high
        lay["type_units"] = {}
    if lay["rack_power"] is None:   # the node's per_rack x power, kW; 0: no budget
        lay["rack_power"] = node.get("per_rack", 0) * node.get("power", 0) / 1000.0
    return lay


def switch_units(lay, model):
    """Height of a switch of model `model` (cabling.csv's a_type, z_type)."""
    return lay.get("type_units", {}).get(model, lay["switch_units"])


def height(u, units):
    """Height of the centre of a device of `units` units from unit u."""
    return PLINTH + (int(u) - 1 + units / 2.0) * UNIT


def _read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Floor:
    """racks.csv and rooms.csv of one cabling plan, and runs on that floor."""

    def __init__(self, cabling_dir, lay):
        self.lay = lay
        self.errors = []
        self.rooms = {}
        for r in _read(os.path.join(cabling_dir, "rooms.csv")):
            d = dict(r)
            for k in ("building", "grid_x", "grid_y", "side", "rows", "racks_per_row", "racks"):
                d[k] = int(r[k])
            for k in ("building_x_m", "building_y_m", "entry_m", "x_m", "width_m", "depth_m",
                      "power_kw"):
                d[k] = float(r[k])
            d["door"] = d["x_m"] + d["width_m"] / 2
            if r["room"] in self.rooms:
                self.errors.append("rooms.csv: room %s twice" % r["room"])
            self.rooms[r["room"]] = d
        self.racks = {}
        self.rack_order = []
        for r in _read(os.path.join(cabling_dir, "racks.csv")):
            d = dict(r)
            d["row"], d["col"] = int(r["row"]) - 1, int(r["position"]) - 1  # from 0
            d["building"] = int(r["building"])
            d["units_used"] = int(r["units_used"])
            d["power_kw"] = float(r["power_kw"])
            if r["rack"] in self.racks:
                self.errors.append("racks.csv: rack %s twice" % r["rack"])
            if r["room"] not in self.rooms:
                self.errors.append("racks.csv: rack %s in room %s, not in rooms.csv"
                                   % (r["rack"], r["room"]))
            self.racks[r["rack"]] = d
            self.rack_order.append(r["rack"])
        # the campus grid's pitch: a building's place over its grid cell
        self.pitch = [None, None]
        for rm in self.rooms.values():
            for i, (g, m) in enumerate(((rm["grid_x"], rm["building_x_m"]),
                                        (rm["grid_y"], rm["building_y_m"]))):
                if g > 0:
                    p = m / g
                    if self.pitch[i] is None:
                        self.pitch[i] = p
                    elif abs(self.pitch[i] - p) > TOL:
                        self.errors.append("rooms.csv: %s: grid pitch %g m, elsewhere %g m"
                                           % (rm["room"], p, self.pitch[i]))
                elif abs(m) > TOL:
                    self.errors.append("rooms.csv: %s: grid cell 0 at %g m" % (rm["room"], m))

    def to_door(self, k):
        rm = self.rooms[k["room"]]
        return abs(k["col"] + 0.5 - rm["racks_per_row"] / 2.0) * self.lay["rack_pitch"] + \
            (k["row"] + 0.5) * self.lay["row_pitch"] + MARGIN

    def run_m(self, rack_a, ha, rack_b, hb):
        """The routed run between heights ha in rack_a and hb in rack_b, before slack."""
        lay = self.lay
        if rack_a == rack_b:
            return abs(ha - hb)
        x, y = self.racks[rack_a], self.racks[rack_b]
        ends = (lay["tray_height"] - ha) + (lay["tray_height"] - hb)
        if x["room"] == y["room"]:
            return ends + abs(x["col"] - y["col"]) * lay["rack_pitch"] + \
                abs(x["row"] - y["row"]) * lay["row_pitch"]
        p, q = self.rooms[x["room"]], self.rooms[y["room"]]
        if p["building"] == q["building"]:
            along = abs(p["door"] - q["door"]) + (lay["hall_gap"] if p["side"] != q["side"] else 0)
        else:
            along = abs(p["door"] - p["entry_m"]) + abs(q["door"] - q["entry_m"]) + lay["hall_gap"]
            for i, g in enumerate(("grid_x", "grid_y")):
                if p[g] != q[g]:
                    along += abs(p[g] - q[g]) * self.pitch[i]
        return ends + self.to_door(x) + along + self.to_door(y)

    def need_m(self, r):
        """The run of a cabling.csv row plus the slack at both ends (tier 1:
        the A end is a server)."""
        lay = self.lay
        ua = lay["node_units"] if r["tier"] == "1" else switch_units(lay, r["a_type"])
        return self.run_m(r["a_rack"], height(r["a_u"], ua),
                          r["z_rack"], height(r["z_u"], switch_units(lay, r["z_type"]))) + 2 * lay["slack"]

    def name_errors(self):
        """Rack names against their room, row and position: "R01-03" when
        the floor is one room, else "H02-R01-03" and "N1-R01-03"."""
        errs = []
        one = len(self.rooms) == 1
        for n, k in self.racks.items():
            rm = k["room"]
            want = "R%02d-%02d" % (k["row"] + 1, k["col"] + 1)
            if not one:
                want = rm + "-" + want
            if n != want:
                errs.append("racks.csv: %s in %s row %d position %d, named %s"
                            % (n, rm, k["row"] + 1, k["col"] + 1, want))
            kind = self.rooms.get(rm, {}).get("kind")
            if not (kind == "hall" and re.match(r"H\d{2,}$", rm) or
                    kind == "network" and re.match(r"N\d+$", rm)):
                errs.append("racks.csv: %s: room %s of kind %s" % (n, rm, kind))
            if kind and not (k["row"] < self.rooms[rm]["rows"] and
                             k["col"] < self.rooms[rm]["racks_per_row"]):
                errs.append("racks.csv: %s beyond the %d rows of %d racks of %s"
                            % (n, self.rooms[rm]["rows"], self.rooms[rm]["racks_per_row"], rm))
            if kind and k["building"] != self.rooms[rm]["building"]:
                errs.append("racks.csv: %s in building %d, its room in %d"
                            % (n, k["building"], self.rooms[rm]["building"]))
        return errs

    def row_errors(self, r):
        """A cabling.csv row's racks exist and its a_row/z_row are theirs."""
        errs = []
        for e in "az":
            k = self.racks.get(r[e + "_rack"])
            if k is None:
                errs.append("%s: %s_rack %s not in racks.csv" % (r["label"], e, r[e + "_rack"]))
            elif int(r[e + "_row"]) != k["row"] + 1:
                errs.append("%s: %s_row %s, rack %s in row %d"
                            % (r["label"], e, r[e + "_row"], r[e + "_rack"], k["row"] + 1))
        return errs
