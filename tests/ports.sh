#!/bin/sh
# One port, two forms, the same everywhere: cabling.csv's a_port/z_port hold
# a switch port's InfiniBand number, which must be the port topology.net
# (the OpenSM files) gives the same cable, and a_cage_port/z_cage_port its
# cage/port[/split] form, derived here from the switch model's cages, cage
# ports and radix (templates/switches.yaml). traffic's links.csv names the
# ends as cabling.csv does, so the two join on device and port.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

# ---- cabling.csv against topology.net and the switch model ----------------------------------
for ex in superpod-4su b200-2plane; do
    "$RAILYARD" --quiet cabling "$EX/$ex.yaml" -o "$TMP/$ex-cab" >"$TMP/$ex.log" 2>&1 &&
    "$RAILYARD" --quiet opensm "$EX/$ex.yaml" -o "$TMP/$ex-osm" >>"$TMP/$ex.log" 2>&1
    expect_eq "$ex: cabling and opensm exit" $? 0
    "$PY" - "$EX/$ex.yaml" "$TOP_SRCDIR/templates/switches.yaml" "$TMP/$ex-cab/cabling/cabling.csv" \
        "$TMP/$ex-osm/opensm" >"$TMP/$ex.chk" 2>&1 <<'P'
import csv, glob, os, re, sys, yaml
spec_path, cat_path, cab_path, osm = sys.argv[1:]
spec = yaml.safe_load(open(spec_path))
sw = spec["fabric"]["switch"]
model = yaml.safe_load(open(cat_path))["switches"][sw if isinstance(sw, str) else sw["name"]]
cp, radix = model.get("cage_ports", 1), model["radix"]
split = radix // (model["cages"] * cp)
bad = []
def cage_form(n):       # the switch OS's name of IB port n, from the model alone
    p = n - 1
    f = [p // (cp * split) + 1] + ([p // split % cp + 1] if cp > 1 else []) + \
        ([p % split + 1] if split > 1 else [])
    return "/".join(map(str, f)) if len(f) > 1 else str(n)

rows = list(csv.DictReader(open(cab_path, newline="")))
cab = set()
for r in rows:
    end = []
    for e in "az":
        dev, port, cage = r[e + "_device"], r[e + "_port"], r[e + "_cage_port"]
        if e == "a" and r["tier"] == "1":
            if not re.fullmatch(r"mlx5_\d+", port) or cage:
                bad.append("%s: server end %s %r" % (r["label"], port, cage))
            end.append((dev, port))
        else:
            if not port.isdigit() or not 1 <= int(port) <= radix:
                bad.append("%s: %s_port %r is no port of a %d-port switch" % (r["label"], e, port, radix))
                continue
            if cage != cage_form(int(port)):
                bad.append("%s: port %s written %r, the model gives %r" % (r["label"], port, cage, cage_form(int(port))))
            end.append((dev, int(port)))
    cab.add(frozenset(end))

# topology.net (ibnetdiscover's format), every subnet: [port] peer[port] # "desc"
net = set()
sect = re.compile(r'^Switch\s+\d+\s+"S-[0-9a-f]+"\s+#\s+"([^"]+)"')
line = re.compile(r'^\[(\d+)\]\s+"([SH])-[0-9a-f]+"\[(\d+)\]\S*\s+#\s+"([^"]+)"')
files = glob.glob(os.path.join(osm, "*", "topology.net")) or glob.glob(os.path.join(osm, "topology.net"))
for path in files:
    me = None
    for l in open(path):
        m = sect.match(l)
        if m: me = m.group(1); continue
        if l.startswith("Ca"): me = None
        m = line.match(l)
        if m and me:
            p, kind, q, desc = int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
            other = tuple(desc.split(" ", 1)) if kind == "H" else (desc, q)
            net.add(frozenset([(me, p), other]))
if not files: bad.append("no topology.net")
if cab != net:
    bad.append("cables %d, topology.net links %d; in cabling.csv only: %s; in topology.net only: %s"
               % (len(cab), len(net), sorted(map(sorted, cab - net))[:2], sorted(map(sorted, net - cab))[:2]))
print("\n".join(bad[:5]) if bad else "ok")
P
    expect_eq "$ex: port numbers as topology.net's, cage forms as the model's" "$(cat "$TMP/$ex.chk")" ok
done
# the examples named in the documentation: port 33 of a QM9700 is 17/1
grep -q ',leaf0,qm9700,33,17/1,' "$TMP/superpod-4su-cab/cabling/cabling.csv" && ok ||
    fail "superpod-4su: no leaf0 port 33 = 17/1"
grep -q ',qm9700-ndr200,127,32/2/1,' "$TMP/b200-2plane-cab/cabling/cabling.csv" && ok ||
    fail "b200-2plane: no port 127 = 32/2/1"

# ---- traffic's links.csv joins cabling.csv --------------------------------------------------
S="$EX/moe-h100.yaml"
"$RAILYARD" --quiet cabling "$S" -o "$TMP/moe-cab" >"$TMP/moe.log" 2>&1 &&
"$RAILYARD" --quiet traffic "$S" -o "$TMP/moe-tr" >>"$TMP/moe.log" 2>&1
expect_eq "moe-h100: cabling and traffic exit" $? 0
"$PY" - "$TMP/moe-cab/cabling/cabling.csv" "$TMP/moe-tr" >"$TMP/join.chk" 2>&1 <<'P'
import csv, json, os, sys
cab_path, tr = sys.argv[1:]
cab = {(r["a_device"], r["a_port"], r["z_device"], r["z_port"]): r
       for r in csv.DictReader(open(cab_path, newline=""))}
bad, loaded = [], 0
for name in ("links.csv", "a2a-links.csv"):
    path = os.path.join(tr, name)
    if not os.path.exists(path):
        bad.append("no " + name); continue
    links = list(csv.DictReader(open(path, newline="")))
    for r in links:
        key = (r["lower"], r["lower_port"], r["upper"], r["upper_port"])
        if float(r["bytes_up"]) + float(r["bytes_down"]) > 0:
            loaded += 1
        if key not in cab:
            bad.append("%s: link %s %s not in cabling.csv" % (name, r["link"], key))
    if len(links) != len(cab):
        bad.append("%s: %d links, cabling.csv %d" % (name, len(links), len(cab)))
bl = json.load(open(os.path.join(tr, "traffic.json")))["network"]["busiest_link"]
lo, up = bl["lower"].rsplit("/", 1), bl["upper"].rsplit("/", 1)
if tuple(lo + up) not in cab: bad.append("busiest link %s - %s not in cabling.csv" % (bl["lower"], bl["upper"]))
if loaded == 0: bad.append("no link carries traffic")
print("\n".join(bad[:5]) if bad else "ok")
P
expect_eq "traffic's links join cabling.csv on device and port" "$(cat "$TMP/join.chk")" ok
finish
