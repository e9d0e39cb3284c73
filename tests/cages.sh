#!/bin/sh
# Cages and media: one module per cage, media chosen by connector, split
# ports named cage/port/split.
#
# For every example (examples/*.yaml; under the sanitizers those of at most
# 16,384 GPUs, tests/lib.sh) and tests/data/cabling/xdr.yaml:
#   - cabling.csv: one medium and one part per cage; every medium fits the
#     form factors of the switch and node models;
#   - counts derived by hand from the spec's numbers (the CASES table below:
#     links, switch and NIC cages in use, and where every link of a side is
#     optical, modules and cables), against cabling.csv and the BOM;
#   - media, lengths, cables and modules re-derived here from the rule
#     (templates/media.yaml's header) and the runs of the routing rule,
#     against cabling.csv and the BOM.
# Then the errors (no medium fits, two media forced into one cage, a forced
# medium that does not fit), a forced medium covering its cage mates, split
# names after a radix override, and catalog errors.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/cabling"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

cat >"$TMP/cages.py" <<'P'
import collections, csv, json, math, os, re, sys
import yaml
import layoutmodel

out, spec_path, bom_path, tdir, case = sys.argv[1:6]
errs = []
def err(msg):
    if len(errs) < 20:
        errs.append(msg)

spec = yaml.safe_load(open(spec_path))
cl, fab = spec.get("cluster", {}), spec.get("fabric") or {}
node, sw, media = layoutmodel.models(spec, tdir)

# ---- the spec's numbers -------------------------------------------------------------------
gpn = cl.get("gpus_per_node", node.get("gpus_per_node", 8))
gpus = cl["gpus"] if "gpus" in cl else cl["nodes"] * gpn
servers = gpus // gpn
planes = cl.get("planes", 1)
rails = cl.get("rails", cl.get("hb_domain", node.get("hb_domain", 8)))
su = cl.get("scalable_unit", 0)
R = sw.get("radix", 64)
node_cp = node.get("cage_ports", 1) or 1
sw_cp = sw.get("cage_ports", 1) or 1
split = 1
if sw.get("cages") and R % (sw["cages"] * sw_cp) == 0:
    split = max(1, R // (sw["cages"] * sw_cp))
ppc = sw_cp * split                      # switch ports (links) per cage
layout = layoutmodel.layout_keys(spec, node, sw)

# ---- counts derived by hand -----------------------------------------------------------------
def ceil(a, b): return -(-a // b)
def rail_optimized_2tier():
    """Per plane: scalable units of `su` servers (0: half a leaf's ports,
    one GPU per server on each rail leaf); a leaf per rail per unit, its
    GPUs on ports 1.., its R/2 up-links on ports R/2+1..R; spines take the
    leaves' up-links on all R ports."""
    per_su = su if su else R // 2
    units = [min(per_su, servers - k) for k in range(0, servers, per_su)]
    leaves = len(units) * rails
    spines = leaves * (R // 2) // R
    cages = sum(rails * (ceil(n, ppc) + (R // 2) // ppc) for n in units) + spines * (R // ppc)
    return dict(links=planes * (servers * gpn + leaves * R // 2),
                switch_cages=planes * cages)
def all_ports(switches):
    """Every port of every switch cabled."""
    return dict(links=switches * R // 2 + gpus * planes // 2, switch_cages=switches * R // ppc)
def gb200():
    units, half = gpus // (su * 72), R // 2
    per = su * 72 // rails                               # GPUs of a rail in a unit
    fills = [min(half, per - k) for k in range(0, per, half)]   # a rail's leaves' GPUs
    leaves = [f for _ in range(units * rails) for f in fills]
    pods = [leaves[k:k + half] for k in range(0, len(leaves), half)]
    spines = [(len(p), half) for p in pods for _ in range(half)]   # (down, up) cabled
    cores_per_pos = next(m for m in range(1, half + 1) if half % m == 0 and m * R >= len(pods) * half)
    # a core's ports: the per links of each of the c = len(pods) members go
    # in bundles of b (a cage's ports, when b divides per), bundle copy q of
    # member x on ports (q * C + x) * b + j, C = R // per (room for the pods
    # to come)
    per = half // cores_per_pos
    b = ppc if per % ppc == 0 else 1
    core_ports = {(q * (R // per) + x) * b + j
                  for x in range(len(pods)) for q in range(per // b) for j in range(b)}
    cages = sum(ceil(f, ppc) + half // ppc for f in leaves)
    cages += sum(ceil(d, ppc) + ceil(u, ppc) for d, u in spines)
    cages += half * cores_per_pos * len({p // ppc for p in core_ports})
    links = gpus + len(leaves) * half + len(spines) * half
    return dict(links=links, switch_cages=cages)

CASES = {
    # 127 DGX H100 in 4 units of 32 (the last 31), QM9700: 32 leaves, 16
    # spines; the last unit's leaves leave port 32 free, cage 16 still in use.
    # Every run is optical: a twin-port module per switch cage, MMA4Z00-NS,
    # and per NIC cage (4 per DGX), MMA4Z00-NS-FLT.
    "superpod-4su": lambda: dict(rail_optimized_2tier(),
        modules={"MMA4Z00-NS": rail_optimized_2tier()["switch_cages"],
                 "MMA4Z00-NS-FLT": servers * planes * ceil(gpn, node_cp)}),
    # 64 DGX B200 at 200G, 2 planes, split QM9700 (4 links a cage): per plane
    # 16 leaves of 8 + 16 cages, 8 spines of 32. NDR200 splitter fibres:
    # one per two links.
    "b200-2plane": lambda: dict(rail_optimized_2tier(),
        modules={"MMA4Z00-NS": rail_optimized_2tier()["switch_cages"],
                 "MMA4Z00-NS-FLT": servers * planes * ceil(gpn, node_cp)},
        cables=rail_optimized_2tier()["links"] // 2),
    # 1024 GPUs, generic radix 64 (one port a cage): 32 leaves, 16 spines.
    "libra-llm": rail_optimized_2tier,
    # 4096 GPUs on radix 64, three tiers: G/(R/2) leaves, as many spines,
    # half as many cores.
    **{n: (lambda: all_ports(gpus // (R // 2) * 5 // 2))
       for n in ("libra-1t", "libra-gpt3", "libra-gpt3-constrained", "libra-turing-nlg")},
    # the same three tiers on QM9700 (twin-port cages) for 512 DGX H100,
    # the spec's own point of its search; the short runs are active copper
    # (no module) where the layout puts them, so modules are not counted here.
    "search-h100": lambda: all_ports(gpus // (R // 2) * 5 // 2),
    # the same three tiers for 2,048 DGX H100 (decision-16k): 512 leaves,
    # 512 spines, 256 cores, every port cabled.
    "decision-16k": lambda: all_ports(gpus // (R // 2) * 5 // 2),
    # fat tree, 2 tiers: G/(R/2) leaves, half as many spines.
    "fat-tree": lambda: all_ports(gpus // (R // 2) * 3 // 2),
    # rail-only: a two-tier Clos per rail of G/rails GPUs.
    "rail-only-gh200": lambda: all_ports(rails * (gpus // rails) // (R // 2) * 3 // 2),
    # rail-only on 128 DGX H100 and QM9700: per rail 128 GPUs, 4 leaves and
    # 2 spines, every port cabled.
    "moe-h100": lambda: all_ports(rails * (gpus // rails) // (R // 2) * 3 // 2),
    # 36 DGX B300 (800G, twin-port cages) on Q3400 (72 twin-port cages of
    # XDR): one unit, 8 leaves of 18 + 36 cages, 4 spines; 1.6T twin-port
    # modules at both ends.
    # 2,304 GB200 GPUs (4 units of 8 NVL72 racks), 4 rails, QM9700 at 1:1
    # (twin-port cages): 144 GPUs a rail and unit fill 4 leaves of 32 and
    # one of 16; 80 leaves in pods of 32, 32 spines a pod; at the top each
    # of 32 positions takes its 3 pods' 96 uplinks on 2 cores of 64, each
    # pod's 16 links to a core in 8 cages, every fourth cage (a fourth
    # pod's room between).
    "gb200-nvl72-superpod": lambda: gb200(),
    "xdr": lambda: dict(rail_optimized_2tier(),
        modules={"MMS4A00-XM": rail_optimized_2tier()["switch_cages"],
                 "MMS4A00-XM-FLT": servers * planes * ceil(gpn, node_cp)}),
}
if case not in CASES:
    print("no counts derived by hand for %s: add it to CASES in tests/cages.sh" % case); sys.exit()
exp = CASES[case]()
exp["node_cages"] = servers * planes * ceil(gpn, node_cp)

# ---- cabling.csv ---------------------------------------------------------------------------
rows = list(csv.DictReader(open(os.path.join(out, "cabling.csv"), newline="")))
bom = json.load(open(bom_path))
phys = bom["physical"]
def sw_cage(label):
    f = [int(x) for x in label.split("/")]
    if len(f) != 1 + (sw_cp > 1) + (split > 1):
        err("port %s: not cage%s%s" % (label, "/port" if sw_cp > 1 else "", "/split" if split > 1 else ""))
    if len(f) == 1: return (f[0] - 1) // ppc
    if (sw.get("cages") and f[0] > sw["cages"]) or (sw_cp > 1 and f[1] > sw_cp) or \
       (split > 1 and f[-1] > split):
        err("port %s beyond %s cages of %d ports split %d" % (label, sw.get("cages"), sw_cp, split))
    return f[0] - 1
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
def cage_of(r, e):
    p = r[e + "_port"]
    if r["tier"] == "1" and e == "a":
        return ("n", r[e + "_device"], nic_cage(NIC[p]))
    return ("s", r[e + "_device"], sw_cage(r[e + "_cage_port"]))

if len(rows) != exp["links"]: err("%d links, by hand %d" % (len(rows), exp["links"]))
in_cage = collections.defaultdict(set)
for k, r in enumerate(rows):
    for e in "az":
        in_cage[cage_of(r, e)].add((r["media"], r["part"]))
two = [c for c, v in in_cage.items() if len(v) > 1]
if two: err("%d cages hold two media or parts, e.g. %s %s" % (len(two), two[0], sorted(in_cage[two[0]])))
nsw = sum(1 for c in in_cage if c[0] == "s")
nnd = sum(1 for c in in_cage if c[0] == "n")
if nsw != exp["switch_cages"]: err("switch cages in use %d, by hand %d" % (nsw, exp["switch_cages"]))
if nnd != exp["node_cages"]: err("NIC cages in use %d, by hand %d" % (nnd, exp["node_cages"]))

# ---- the rule, re-derived ----------------------------------------------------------------------
FITS = {("qsfp112", "qsfp56"), ("qsfp112", "qsfp28"), ("qsfp-dd", "qsfp56"),
        ("qsfp-dd", "qsfp28"), ("qsfp56", "qsfp28")}
def fits(cage, plug):
    return not cage or not plug or cage == plug or (cage, plug) in FITS
def module(m, side):
    """The module medium m puts in a cage of side "s" or "n"; None for a
    cable's own end; False when nothing of m fits."""
    md = media[m]
    mdl, ports = (node, node_cp) if side == "n" else (sw, sw_cp)
    ends = md.get("node_end" if side == "n" else "switch_end")
    if ends is None:
        return None if fits(mdl.get("connector", ""), md.get("connector", "")) else False
    if isinstance(ends, dict): ends = [ends]
    ok_ = [e for e in ends if fits(mdl.get("connector", ""), e.get("connector", md.get("connector", "")))
           and e.get("ports", 1) >= ports]
    return min(ok_, key=lambda e: e.get("ports", 1)) if ok_ else False
SPEEDS = {"EDR": 100, "HDR100": 100, "HDR": 200, "NDR200": 200, "NDR": 400, "XDR": 800}
def gbps(s):
    s = str(s).upper()
    return float(SPEEDS[s]) if s in SPEEDS else float(s.rstrip("G"))

# runs by the routing rule (tests/layoutmodel.py) on the floor of racks.csv and rooms.csv
floor = layoutmodel.Floor(out, layout)
for e in floor.errors: err(e)
need_of = []
for r in rows:
    bad = floor.row_errors(r)
    for e in bad: err(e)
    need_of.append(0.0 if bad else floor.need_m(r))

up = {}
def find(x):
    while up.setdefault(x, x) != x:
        up[x] = up[up[x]]; x = up[x]
    return x
for k, r in enumerate(rows):
    for e in "az":
        a, b = find(("l", k)), find(cage_of(r, e))
        if a != b: up[a] = b
groups = collections.defaultdict(list)
for k in range(len(rows)): groups[find(("l", k))].append(k)
gcages = collections.defaultdict(list)
for c in in_cage: gcages[find(c)].append(c)
order = list(media)
want_m, want_len = {}, {}
cables, modules = collections.Counter(), collections.Counter()
for g, ks in groups.items():
    need = max(need_of[k] for k in ks)
    cg = gcages[g]
    best = None
    for m in order:
        md = media[m]
        if any(float(rows[k]["speed_gbps"]) not in [gbps(x) for x in md["speeds"]] for k in ks): continue
        mods = [module(m, c[0]) for c in cg]
        if any(x is False for x in mods): continue
        stock = [float(x) for x in md["lengths"] if float(x) + 1e-9 >= need]
        if not stock: continue
        L = stock[0]
        legs = md.get("legs", 1)
        cost = ceil(len(ks), legs) * (md["cable"]["price"] + md["cable"].get("price_per_m", 0) * L) + \
            sum(x["price"] for x in mods if x)
        if best is None or cost < best[0] - 1e-9: best = (cost, m, L, mods)
    if best is None: err("no medium for the group of %s" % rows[ks[0]]["label"]); continue
    _, m, L, mods = best
    for k in ks: want_m[k], want_len[k] = m, L
    for x in mods:
        if x: modules[x["part"]] += 1
    per_z = collections.Counter(cage_of(rows[k], "z") for k in ks)
    part = rows[ks[0]]["part"]
    for c, n in per_z.items(): cables[(m, L)] += ceil(n, media[m].get("legs", 1))
bad = [k for k in range(len(rows)) if (rows[k]["media"], float(rows[k]["length_m"])) != (want_m.get(k), want_len.get(k))]
if bad:
    k = bad[0]
    err("%d links differ from the rule, e.g. %s: %s %s m, the rule %s %s m" % (
        len(bad), rows[k]["label"], rows[k]["media"], rows[k]["length_m"], want_m.get(k), want_len.get(k)))
got_x = collections.Counter({l["part"]: l["count"] for l in phys["lines"] if l["what"] == "transceiver"})
if +got_x != +modules: err("modules: BOM %s, the rule %s" % (dict(got_x), dict(modules)))
got_c = collections.Counter({(l["medium"], float(l["length_m"])): l["count"] for l in phys["lines"] if l["what"] == "cable"})
if +got_c != +cables: err("cables: BOM %s, the rule %s" % (sorted(got_c.items())[:4], sorted(cables.items())[:4]))
for part, n in exp.get("modules", {}).items():
    if got_x.get(part, 0) != n: err("modules %s: BOM %d, by hand %d" % (part, got_x.get(part, 0), n))
if "modules" in exp and sum(got_x.values()) != sum(exp["modules"].values()):
    err("modules: BOM %s, by hand %s" % (dict(got_x), exp["modules"]))
if "cables" in exp and phys["cables"] != exp["cables"]:
    err("cables: BOM %d, by hand %d" % (phys["cables"], exp["cables"]))
# every medium in use fits the models' form factors
for m in {r["media"] for r in rows}:
    for side, mdl in (("s", sw), ("n", node)):
        if module(m, side) is False and any(r["media"] == m and (side == "s" or r["tier"] == "1") for r in rows):
            err("%s does not fit the cages of %s" % (m, mdl.get("name")))
print("\n".join(errs) if errs else "ok")
P

# check NAME SPEC: the cabling plan and the BOM of SPEC against the rule and CASES
check() {
    n=$1 s=$2
    "$RAILYARD" cabling "$s" -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: cabling exit" $? 0
    no_sanitizer "$TMP/$n.log"
    "$RAILYARD" bom "$s" --format json >"$TMP/$n.bom.json" 2>>"$TMP/$n.log"
    expect_eq "$n: bom exit" $? 0
    "$PY" "$TMP/cages.py" "$TMP/$n/cabling" "$s" "$TMP/$n.bom.json" "$TPL" "$n" >"$TMP/$n.chk" 2>&1
    expect_eq "$n: cages and media" "$(cat "$TMP/$n.chk")" ok
}
# A tier list (fabric.tiers) gives each tier its own model and splits: its
# cages are checked by tiers.py below instead of the one-model CASES.
cat >"$TMP/tiers.py" <<'P'
import collections, csv, json, sys, yaml
cab, val_path, bom_path, tdir = sys.argv[1:5]
rows = list(csv.DictReader(open(cab, newline="")))
val, bom = json.load(open(val_path)), json.load(open(bom_path))
media = yaml.safe_load(open(tdir + "/media.yaml"))["media"]
cat = yaml.safe_load(open(tdir + "/switches.yaml"))["switches"]
tiers = {t["tier"]: t for t in val["tier_ports"]}
detail = {t["tier"]: t for t in bom["tier_detail"]}
errs = []
FITS = {("qsfp112", "qsfp56"), ("qsfp112", "qsfp28"), ("qsfp-dd", "qsfp56"),
        ("qsfp-dd", "qsfp28"), ("qsfp56", "qsfp28")}
def fits(cage, plug):
    return not cage or not plug or cage == plug or (cage, plug) in FITS
# a switch port's cage: the first part of its name (cage, cage/port,
# cage/split or cage/port/split)
in_cage = collections.defaultdict(set)
tier_of = {}
for r in rows:
    t = int(r["tier"])
    tier_of[r["z_device"]] = t
    in_cage[(r["z_device"], r["z_cage_port"].split("/")[0])].add((r["media"], r["part"]))
    if t > 1:
        tier_of[r["a_device"]] = t - 1
        in_cage[(r["a_device"], r["a_cage_port"].split("/")[0])].add((r["media"], r["part"]))
    for dev, tt in ((r["z_device"], t), (r["a_device"], t - 1)):
        if tt < 1:
            continue
        conn = cat.get(tiers[tt]["switch"], {}).get("connector", "")
        md = media[r["media"]]
        ends = md.get("switch_end") or [{}]
        plugs = [e.get("connector", md.get("connector", "")) for e in
                 (ends if isinstance(ends, list) else [ends])]
        if not any(fits(conn, plug) for plug in plugs):
            errs.append("%s (tier %d, %s): medium %s (%s) does not fit" % (dev, tt, conn, r["media"], plugs))
two = [c for c, v in in_cage.items() if len(v) > 1]
if two:
    errs.append("%d cages hold two media or parts, e.g. %s" % (len(two), two[0]))
# cages in use by hand: a non-top switch's cabled down ports and all its
# up ports, each side's ports `split` to a cage; the top's cabled down ports
# (a twin-port cage holds two of the model's ports)
want = 0
def up(a, b): return -(-a // b)
for t, p in tiers.items():
    n = detail[t]["switches"]
    cp = cat.get(p["switch"], {}).get("cage_ports", 1) or 1
    if p["up_ports"]:
        want += n * (up(up(p["fullest_down_cabled"], p["down_split"]), cp) +
                     up(p["up_ports"] // p["up_split"], cp))
    else:
        want += detail[t]["ports_down"] // p["down_split"] // cp
got = sum(1 for c in in_cage if tier_of.get(c[0], 0) >= 1)
if got != want:
    errs.append("switch cages in use %d, by hand %d" % (got, want))
if len(rows) != sum(d["ports_down"] for d in detail.values()):
    errs.append("%d links, the tiers' cabled down ports %d" % (len(rows), sum(d["ports_down"] for d in detail.values())))
print("\n".join(errs) if errs else "ok")
P
for s in $(examples); do
    n=$(basename "$s" .yaml)
    if grep -q '^  tiers:$' "$s"; then
        "$RAILYARD" cabling "$s" -o "$TMP/$n" >/dev/null 2>"$TMP/$n.log"
        expect_eq "$n: cabling exit" $? 0
        "$RAILYARD" validate --format json "$s" >"$TMP/$n.val.json" 2>>"$TMP/$n.log"
        "$RAILYARD" bom --format json "$s" >"$TMP/$n.bom.json" 2>>"$TMP/$n.log"
        no_sanitizer "$TMP/$n.log"
        expect_eq "$n: cages and media (per tier)" \
            "$("$PY" "$TMP/tiers.py" "$TMP/$n/cabling/cabling.csv" "$TMP/$n.val.json" \
                "$TMP/$n.bom.json" "$TPL" 2>&1)" ok
        continue
    fi
    check "$n" "$s"
done
check xdr "$D/xdr.yaml"

# DGX H100 NIC cages are twin-port: the SuperPOD's BOM has 127 x 4 twin-port
# modules at the servers and no single-port one.
"$PY" - "$TMP/superpod-4su.bom.json" >"$TMP/dgx.chk" <<'P'
import json, sys
lines = [l for l in json.load(open(sys.argv[1]))["physical"]["lines"] if l["what"] == "transceiver"]
got = {l["part"]: l["count"] for l in lines}
print("ok" if got.get("MMA4Z00-NS-FLT") == 127 * 4 and "MMA4Z00-NS400" not in got else got)
P
expect_eq "superpod: DGX H100 NIC modules twin-port" "$(cat "$TMP/dgx.chk")" ok

# Split ports: cage/port/split as the switch's OS names them, also when a
# spec changes a catalog entry's radix (the entry's 32 cages stay).
grep -q ',p0-leaf0,qm9700-ndr200,128,32/2/2,' "$TMP/b200-2plane/cabling/cabling.csv" && ok ||
    fail "b200-2plane: no port 128 = 32/2/2 (the last of 32 split twin-port cages)"
grep -qE ',[0-9]+/[0-9]+/[3-9],|,(3[3-9]|[4-9][0-9])/[0-9]+/' "$TMP/b200-2plane/cabling/cabling.csv" &&
    fail "b200-2plane: a split port beyond 32 cages of 2 ports split in 2" || ok
cat >"$TMP/radix.yaml" <<'Y'
name: radix
cluster: {nodes: 16, node: dgx-h100}
fabric: {switch: {name: qm9700, radix: 128, speed: NDR200}}
Y
"$RAILYARD" cabling "$TMP/radix.yaml" -o "$TMP/radix" >"$TMP/radix.log" 2>&1
expect_eq "radix override: exit" $? 0
cut -d, -f15 "$TMP/radix/cabling/cabling.csv" | grep -vx z_cage_port | grep -cvE '^([1-9]|[12][0-9]|3[0-2])/[12]/[12]$' \
    >"$TMP/radix.bad"
expect_eq "radix override: ports named cage/port/split" "$(cat "$TMP/radix.bad")" 0

# A forced medium covers its link's cage mates: leaf0/1 forced onto
# ndr-smf takes leaf0/2 (same cage), and the NICs' cage mates (a DGX H100's
# OSFP4 holds GPU 0's mlx5_0 and GPU 3's mlx5_5) with their leaf3 ports.
cat >"$TMP/force.yaml" <<'Y'
name: force
cluster: {nodes: 16, node: dgx-h100}
fabric: {switch: qm9700}
cabling: {links: [{end: leaf0/1, medium: ndr-smf}]}
Y
"$RAILYARD" cabling "$TMP/force.yaml" -o "$TMP/force" >"$TMP/force.log" 2>&1
expect_eq "forced medium: exit" $? 0
expect_eq "forced medium: the cage group on ndr-smf" \
    "$(grep -E ',node00[12],dgx-h100,mlx5_[05],.*,leaf[03],qm9700,[12],1/[12],ndr-smf,' "$TMP/force/cabling/cabling.csv" | wc -l | tr -d ' ')/$(grep -c ',ndr-smf,' "$TMP/force/cabling/cabling.csv")" "4/4"

# Errors: exit 1, file:line:col at the key to change, the link named, nothing written.
bad() {     # bad NAME PATTERN: the spec $TMP/NAME.yaml fails with PATTERN
    "$RAILYARD" cabling "$TMP/$1.yaml" -o "$TMP/$1" >"$TMP/$1.out" 2>"$TMP/$1.err"
    expect_eq "$1: exit" $? 1
    no_sanitizer "$TMP/$1.err"
    grep -qE "$2" "$TMP/$1.err" && ok || fail "$1: $(cat "$TMP/$1.err")"
    [ -e "$TMP/$1" ] && fail "$1: output written" || ok
}
cat >"$TMP/nofit.yaml" <<'Y'
name: nofit
cluster:
  nodes: 16
  node: dgx-a100
fabric: {switch: qm9700-ndr200}
Y
# the link named is one of the failing cage group's (the one with its
# longest run): its structure is checked, not which one
bad nofit "nofit.yaml:5:18: error: link node[0-9]{3}/mlx5_[0-9]+ - switch[0-9]+/[0-9]+ at 200G: no medium .* fits the twin-port osfp cages of qm9700-ndr200 and the qsfp56 cages of dgx-a100"
cat >"$TMP/twice.yaml" <<'Y'
name: twice
cluster: {nodes: 16, node: dgx-h100}
fabric: {switch: qm9700}
cabling:
  links:
    - {end: leaf0/1, medium: ndr-smf}
    - {end: leaf0/2, medium: ndr-mmf}
Y
bad twice "twice.yaml:[0-9]+:[0-9]+: error: links node001/mlx5_0 - leaf0/1 \(ndr-smf\) and node002/mlx5_0 - leaf0/2 \(ndr-mmf\) share cages"
cat >"$TMP/misfit.yaml" <<'Y'
name: misfit
cluster: {nodes: 16, node: {name: dgx-b200, nic_speed: 200G}}
fabric: {switch: qm9700-ndr200}
cabling: {tiers: {1: hdr-aoc}}
Y
bad misfit "misfit.yaml:4:[0-9]+: error: link node[0-9]{3}/mlx5_[0-9]+ - switch[0-9]+/[0-9]+ needs [0-9.]+ m at 200G but medium hdr-aoc does not fit the twin-port osfp cages of qm9700-ndr200 and the twin-port osfp cages of dgx-b200"

# A catalog with single-port NIC modules only: DGX H100's twin-port cages
# take none of them, and the error says so.
mkdir -p "$TMP/tpl"
cp "$TPL"/*.yaml "$TMP/tpl/"
cat >"$TMP/tpl/media.yaml" <<'Y'
replace: true   # this file alone, not laid over the installed media
media:
  sr4:
    kind: mmf
    speeds: [400G]
    connector: osfp
    lengths: [50]
    cable: {part: F, price: 1}
    switch_end: {part: T2, ports: 2, price: 2}
    node_end: {part: T1, ports: 1, price: 1}
Y
cat >"$TMP/single.yaml" <<'Y'
name: single
cluster: {nodes: 16, node: dgx-h100}
fabric: {switch: qm9700}
Y
"$RAILYARD" --templates "$TMP/tpl" cabling "$TMP/single.yaml" -o "$TMP/single" >/dev/null 2>"$TMP/single.err"
expect_eq "single-port NIC modules only: exit" $? 1
grep -q "no medium .* fits the twin-port osfp cages of qm9700 and the twin-port osfp cages of dgx-h100" \
    "$TMP/single.err" && ok || fail "single-port NIC modules only: $(cat "$TMP/single.err")"

# Catalog errors at the catalog file's line:col.
cp "$TPL/switches.yaml" "$TMP/tpl/switches.yaml"
sed -i '0,/^    connector: osfp$/s//    connector: "OSFP 2"/; 0,/^    cages: 40$/s//    cages: 39/' "$TMP/tpl/switches.yaml"
"$RAILYARD" --templates "$TMP/tpl" cabling "$TMP/single.yaml" -o "$TMP/cat" >/dev/null 2>"$TMP/cat.err"
expect_eq "catalog errors: exit" $? 1
grep -qE "switches.yaml:[0-9]+:[0-9]+: error: switches.qm9700.connector must be a form factor" "$TMP/cat.err" &&
    ok || fail "bad connector: $(cat "$TMP/cat.err")"
grep -qE "switches.yaml:[0-9]+:[0-9]+: error: switches.qm8700.cages: 40 ports do not fill 39 cages" "$TMP/cat.err" &&
    ok || fail "bad cages: $(cat "$TMP/cat.err")"

# One table of cage form factors (util/phys.c): no other source file names
# one in a table of its own.
others=$(grep -rlE '"(osfp|qsfp-dd|qsfp112|qsfp56|qsfp28)"' "$TOP_SRCDIR/src" --include='*.c' |
    sed "s|^$TOP_SRCDIR/||" | grep -v '^src/util/phys.c$')
expect_eq "the cages' table is util/phys.c alone" "$others" ""

finish
