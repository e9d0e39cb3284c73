#!/bin/sh
# railyard expand: a fabric grown by phases.
#  (a) NVIDIA's DGX B200 SuperPOD component table (tests/data/fabrics/
#      published-fabrics.yaml) grown row by row, 2 to 4 to 8 to 16 SUs: the
#      switches and cables added are the table's differences, every old cable
#      stays or moves (none is removed), and the uplinks moved are the closed
#      form of a growth that keeps each leaf's uplink k on spine k mod m;
#  (b) the phase is what verify of the new plan finds on the old fabric
#      (railyard's own topology.net of the old plan): the same work order,
#      byte for byte, and the same counts;
#  (c) identity: the cabling rows, OpenSM node names, GUIDs and LIDs, Slurm
#      lines and NetBox rows of what stays
#      are the same in both phases;
#  (d) a rail-only growth; (e) money adds up to the new plan's capex;
#  (f) bad input; (j) switches removed: the work order's rows of the
#      switches installed and removed (every growth above checks them too).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
DATA="$TOP_SRCDIR/tests/data/fabrics/published-fabrics.yaml"

spec() {   # spec NAME NODES NODE SU SWITCH: a DGX SuperPOD of NODES systems
    cat >"$TMP/$1.yaml" <<EOF
version: 1
name: superpod
cluster:
  nodes: $2
  node: $3
  scalable_unit: $4
fabric:
  design: rail-optimized
  switch: $5
EOF
}

# j FILE EXPR: a value of expand.json
j() {
    "$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {"d": d}))' "$1" "$2"
}

# counts DIR WHAT: the work order of expand -o DIR has one row per cable of
# the phase: its rows by action are expand.json's counts (connect: added,
# remove: removed, replace: replaced, move: moved but not replaced) and
# cables.csv's rows by state; and one per switch added (install switch) or
# removed (remove switch), first and last, each at its rack and unit in
# switches.csv, its model there in "to"; it has no other action
counts() {
    "$PY" - "$1" >"$1.counts" <<'PYEOF'
import collections, csv, json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "expand.json")))
wo = list(csv.DictReader(open(os.path.join(sys.argv[1], "work-order.csv"))))
cab = list(csv.DictReader(open(os.path.join(sys.argv[1], "cables.csv"))))
rows = collections.Counter(r["action"] for r in wo)
state = collections.Counter(r["state"] for r in cab)
tot = lambda s: sum(d["cables"][s].values())
moved_replaced = sum(1 for r in cab if r["state"] == "moved" and r["replaced"] == "1")
errs = []
def want(what, got, exp):
    if got != exp: errs.append("%s: %s, want %s" % (what, got, exp))
want("connect rows", rows["connect"], tot("added"))
want("remove rows", rows["remove"], tot("removed"))
want("replace rows", rows["replace"], tot("replaced"))
want("move rows", rows["move"], tot("moved") - moved_replaced)
want("install switch rows", rows["install switch"], sum(d["switches"]["added"].values()))
want("remove switch rows", rows["remove switch"], sum(d["switches"]["removed"].values()))
want("other actions", sorted(set(rows) - {"connect", "remove", "replace", "move", "install switch",
                                          "remove switch"}), [])
want("actions", len(wo), d["work_order"]["actions"])
for a in ("connect", "remove", "replace", "move", "install switch", "remove switch"):
    want("work_order." + a, d["work_order"].get(a.replace(" ", "_")), rows[a])
acts = [r["action"] for r in wo]
first = acts.count("install switch")
last = len(acts) - acts.count("remove switch")
want("install switch rows first, remove switch rows last",
     (acts[:first], acts[last:]), (["install switch"] * first, ["remove switch"] * (len(acts) - last)))
sw = list(csv.DictReader(open(os.path.join(sys.argv[1], "switches.csv"))))
for act, st, rk, ru in (("install switch", "added", "rack", "rack_unit"),
                        ("remove switch", "removed", "old_rack", "old_rack_unit")):
    want(act + " rows: rack, unit, name, model",
         sorted((r["rack"], r["rack_unit"], r["device"], r["to"]) for r in wo if r["action"] == act),
         sorted((r[rk], r[ru], r["name"], r["model"]) for r in sw if r["state"] == st))
    want(act + " rows: no port, no label",
         [r for r in wo if r["action"] == act and (r["port"] or r["cage_port"] or r["label"])], [])
for s in ("kept", "moved", "added", "removed"):
    want("cables.csv " + s, state[s], tot(s))
want("replaced in cables.csv", sum(r["replaced"] == "1" for r in cab), tot("replaced"))
print("\n".join(errs) if errs else "ok")
PYEOF
    expect_eq "$2: the work order's rows are the phase's counts" "$(cat "$1.counts")" ok
}

# grow ID NODE SU SWITCH RADIX MAXSU: the published table's rows (up to MAXSU
# SUs) grown one into the next; each phase checked against the table's
# differences and the closed form of the uplinks that stay
grow() {
    id=$1 node=$2 su=$3 sw=$4 k=$5 max=$6
    "$PY" - "$DATA" "$id" "$max" >"$TMP/$id.rows" <<'PYEOF'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
d = next(x for x in doc["fabrics"] if x["id"] == sys.argv[2])
t = next(x for x in d["tables"] if x["name"] == "components")
col = {c: i for i, c in enumerate(t["columns"])}
for r in t["rows"]:
    if r[col["su"]] <= int(sys.argv[3]):
        print(" ".join(str(r[col[c]] or 0) if c in col else "0" for c in
                       ("su", "nodes", "leaf", "spine", "core", "cables_node_leaf",
                        "cables_leaf_spine", "cables_spine_core")))
PYEOF
    prev=""
    while read -r row; do
        set -- $row
        spec "$id-$1" "$2" "$node" "$su" "$sw"
        if [ -n "$prev" ]; then
            x="$TMP/x-$id-${prev%% *}-$1"
            "$RAILYARD" expand "$TMP/$id-${prev%% *}.yaml" "$TMP/$id-$1.yaml" -q -o "$x" \
                >"$x.txt" 2>"$x.err"
            expect_eq "$id ${prev%% *}->$1 SUs: exit" $? 0
            no_sanitizer "$x.err"
            counts "$x" "$id ${prev%% *}->$1 SUs"
            "$PY" - "$x/expand.json" "$x/cables.csv" "$k" $prev $row \
                "$TOP_SRCDIR/templates/switches.yaml" "$sw" >"$x.chk" <<'PYEOF'
import csv, json, sys, yaml
d = json.load(open(sys.argv[1]))
k = int(sys.argv[3])
# the switch's cage: its model's ports per cage (cage_ports, times the
# split when its radix counts more ports than its cages hold)
m = yaml.safe_load(open(sys.argv[20]))["switches"][sys.argv[21]]
cage = m.get("cage_ports", 1)
if m.get("cages") and m["radix"] % (m["cages"] * cage) == 0:
    cage *= m["radix"] // (m["cages"] * cage)
o = dict(zip(("su", "nodes", "leaf", "spine", "core", "cnl", "cls", "csc"), map(int, sys.argv[4:12])))
n = dict(zip(o, map(int, sys.argv[12:20])))
errs = []
def want(what, got, exp):
    if got != exp: errs.append("%s: got %s, want %s" % (what, got, exp))
sw, cab = d["switches"], d["cables"]
want("leaves added", sw["added"]["leaf"], n["leaf"] - o["leaf"])
want("spines added", sw["added"]["spine"], n["spine"] - o["spine"])
want("cores added", sw["added"].get("core", 0), n["core"] - o["core"])
want("switches removed", sum(sw["removed"].values()), 0)
wo = list(csv.DictReader(open(sys.argv[2].replace("cables.csv", "work-order.csv"))))
want("work order: switches installed",
     sum(r["action"] == "install switch" for r in wo),
     n["leaf"] - o["leaf"] + n["spine"] - o["spine"] + n["core"] - o["core"])
want("work order: spines installed",
     sum(r["action"] == "install switch" and r["device"].startswith("spine") for r in wo),
     n["spine"] - o["spine"])
want("work order: switches removed", sum(r["action"] == "remove switch" for r in wo), 0)
want("node cables kept", cab["kept"]["node-leaf"], o["cnl"])
want("node cables added", cab["added"]["node-leaf"], n["cnl"] - o["cnl"])
want("node cables moved", cab["moved"]["node-leaf"], 0)
want("cables removed", sum(cab["removed"].values()), 0)
kl, ml, al = (cab[s]["leaf-spine"] for s in ("kept", "moved", "added"))
want("old uplinks kept or moved", kl + ml, o["cls"])
want("new uplinks", kl + ml + al, n["cls"])
if n["core"] == 0:
    # two tiers to two: per = u / m links from a leaf to each spine, in
    # bundles of b (the cage's ports when b divides per, else 1): a leaf's
    # uplink i is position i mod b of bundle B = i div b, which goes to
    # spine B mod m as its (B div m)-th bundle there, at spine port
    # ((B div m) * (k div per) + x) * b + i mod b (x: the leaf's rank, unit
    # by unit); it stays where both the spine and the port stay
    u = k // 2
    def at(i, m, x):
        per = u // m
        b = cage if per % cage == 0 else 1
        B = i // b
        return (B % m, ((B // m) * (k // per) + x) * b + i % b)
    stay = sum(1 for x in range(o["leaf"]) for i in range(u)
               if at(i, o["spine"], x) == at(i, n["spine"], x))
    want("uplinks moved", ml, o["cls"] - stay)
else:
    want("spine-core cables added", cab["added"]["spine-core"], n["csc"] - o["csc"])
# the downtime is the old links taken down (moved, removed, replaced), by
# tier and rail; a GPU is cut off when its NIC cable is down or its leaf
# has every uplink down
rows = list(csv.DictReader(open(sys.argv[2])))
isdown = lambda r: r["state"] in ("moved", "removed") or (r["state"] == "kept" and r["replaced"] == "1")
by = {}
for r in rows:
    if r["state"] != "added" and isdown(r):
        by[(r["tier"], r["rail"])] = by.get((r["tier"], r["rail"]), 0) + 1
got = {(x["tier"], "" if x["rail"] is None else str(x["rail"])): x["down"]
       for x in d["downtime"]["links"] if x["down"]}
want("links down by tier and rail", got, by)
ups, nic = {}, {}
for r in rows:
    if r["state"] == "added":
        continue
    lo = r["old_lower"].split()[0]
    if r["tier"] == "leaf-spine":
        u = ups.setdefault(lo, [0, 0]); u[0] += 1; u[1] += isdown(r)
    elif r["tier"] == "node-leaf":
        nic[r["old_lower"]] = (r["old_upper"].split()[0], isdown(r))
cut = {n for n, (leaf, dn) in nic.items() if dn or (leaf in ups and ups[leaf][0] == ups[leaf][1])}
want("NIC ports cut off", d["downtime"]["nic_ports_cut_off"], len(cut))
print("\n".join(errs) if errs else "ok")
PYEOF
            expect_eq "$id ${prev%% *}->$1 SUs against the table" "$(cat "$x.chk")" ok
        fi
        prev=$row
    done <"$TMP/$id.rows"
}
# NVIDIA DGX B200 SuperPOD (NDR, 32 DGX a SU): a core tier from 16 SUs
grow nvidia-superpod-b200 dgx-b200 32 qm9700 64 16
# NVIDIA DGX B300 SuperPOD (XDR, 72 DGX a SU): 8 then 18 spines at 2 and 4 SUs
grow nvidia-superpod-b300-xdr dgx-b300 72 q3400 144 8
for f in nvidia-superpod-b200-16 nvidia-superpod-b300-xdr-8; do
    [ -s "$TMP/$f.yaml" ] && ok || fail "no row of $f grown"
done
cp "$TMP/nvidia-superpod-b200-2.yaml" "$TMP/su2.yaml"
cp "$TMP/nvidia-superpod-b200-4.yaml" "$TMP/su4.yaml"
cp "$TMP/nvidia-superpod-b200-8.yaml" "$TMP/su8.yaml"
cp -r "$TMP/x-nvidia-superpod-b200-2-4" "$TMP/x-2-4"

# same_as_verify WO DIR WHAT: expand's work order is verify's, row for row,
# but for the switches installed and removed (verify sees cables) and the
# cables replaced (kept or moved, but too short or of another
# medium: verify sees ports, not cables): expand's "replace" rows, and the
# "move" rows verify has of the same labels
same_as_verify() {
    "$PY" - "$1" "$2/work-order.csv" >"$2.same" <<'PYEOF'
import sys
v, x = (open(p).read().splitlines() for p in sys.argv[1:])
rep = {l.split(",")[5] for l in x[1:] if l.split(",")[6] == "replace"}
v = [l for l in v if l.split(",")[5] not in rep or l.split(",")[6] != "move"]
x = [l for l in x if l.split(",")[6] not in ("replace", "install switch", "remove switch")]
bad = [(a, b) for a, b in zip(v, x) if a != b]
print("ok" if v == x else "%d against %d rows; first difference %s" % (len(v), len(x), bad[:1]))
PYEOF
    expect_eq "$3" "$(cat "$2.same")" ok
}

# (b) the phase is verify's findings of the new plan on the old fabric
"$RAILYARD" opensm "$TMP/su2.yaml" -q -o "$TMP/o2" >/dev/null 2>&1
expect_eq "opensm of 2 SUs" $? 0
"$RAILYARD" verify "$TMP/su4.yaml" "$TMP/o2/opensm/plane0/topology.net" \
    --work-order "$TMP/wo.csv" >"$TMP/v.txt" 2>"$TMP/v.err"
expect_eq "verify of 4 SUs on the 2-SU fabric: findings" $? 1
same_as_verify "$TMP/wo.csv" "$TMP/x-2-4" "the work order is verify's"
J="$TMP/x-2-4/expand.json"
line=$(head -1 "$TMP/v.txt")
want="$(j "$J" '"{:,} of {:,}".format(sum(d["cables"]["kept"].values()), d["new"]["cables"])')"
case "$line" in "$want planned cables as planned; "*) ok ;;
    *) fail "verify says '$line', expand $want" ;; esac
mr=$(awk -F, '$1 == "moved" && $2 == 1' "$TMP/x-2-4/cables.csv" | wc -l)
case "$line" in *" $(j "$J" '"{:,} missing, {:,} unexpected, {:,} miswired,".format(d["work_order"]["connect"], d["work_order"]["remove"], d["work_order"]["move"] + '"$mr"')')"*) ok ;;
    *) fail "verify's counts '$line' against expand's" ;; esac

# ... and on the old fabric as the real ibnetdiscover finds it in ibsim
. "$TOP_SRCDIR/tests/ibsim/lib.sh"
missing=$(ib_tools_missing)
command -v ibnetdiscover >/dev/null 2>&1 || missing="$missing ibnetdiscover"
if [ -n "$missing" ]; then
    echo "note: not installed: $missing; verify on a discovered fabric not checked"
elif ib_sim_start "$TMP/o2/opensm/plane0/topology.net" "$TMP/sim"; then
    ib_run ibnetdiscover >"$TMP/disc.net" 2>"$TMP/disc.err"
    expect_eq "ibnetdiscover of the 2-SU fabric" $? 0
    ib_sim_stop
    "$RAILYARD" verify "$TMP/su4.yaml" "$TMP/disc.net" --ignore-rates \
        --work-order "$TMP/wo-disc.csv" >/dev/null 2>"$TMP/vd.err"
    expect_eq "verify of 4 SUs on the discovered 2-SU fabric: findings" $? 1
    same_as_verify "$TMP/wo-disc.csv" "$TMP/x-2-4" "the work order is verify's on the discovered fabric"
else
    fail "ibsim does not load the 2-SU fabric"
fi

# (c) identity: a cable kept in place (not replaced) has the same cabling.csv
# row in both phases; a switch kept has the same name and GUID
"$RAILYARD" cabling "$TMP/su2.yaml" -q -o "$TMP/c2" >/dev/null 2>&1
"$RAILYARD" cabling "$TMP/su4.yaml" -q -o "$TMP/c4" >/dev/null 2>&1
"$RAILYARD" opensm "$TMP/su4.yaml" -q -o "$TMP/o4" >/dev/null 2>&1
"$PY" - "$TMP/x-2-4/cables.csv" "$TMP/c2/cabling/cabling.csv" "$TMP/c4/cabling/cabling.csv" \
    "$TMP/x-2-4/switches.csv" "$TMP/o2/opensm/plane0/node-name-map" \
    "$TMP/o4/opensm/plane0/node-name-map" >"$TMP/ident" <<'PYEOF'
import csv, sys
x, c2, c4, sw, m2, m4 = sys.argv[1:]
old = {r["label"]: r for r in csv.DictReader(open(c2))}
new = {r["label"]: r for r in csv.DictReader(open(c4))}
errs, kept = [], 0
for r in csv.DictReader(open(x)):
    if r["state"] == "kept" and r["replaced"] == "0":
        kept += 1
        if r["label"] != r["old_label"]: errs.append("kept cable relabelled: %s" % r)
        else:
            # the same but where the new layout moved a rack (expand counts
            # those as relocated)
            a, b = dict(old.get(r["label"], {})), dict(new.get(r["label"], {}))
            for e in (a, b):
                for c in ("a_row", "a_rack", "a_u", "z_row", "z_rack", "z_u"):
                    e.pop(c, None)
            if not a or a != b: errs.append("kept cable %s: rows differ" % r["label"])
    if r["state"] in ("moved", "kept") and r["label"] != r["old_label"] and \
       r["new_lower"] == r["old_lower"]:
        errs.append("a cable whose lower end stays changes its label: %s" % r["label"])
def names(p):
    return {l.split()[1].strip('"'): l.split()[0] for l in open(p) if l.startswith("0x")}
rows = list(csv.DictReader(open(sw)))
every = {r["name"] for r in rows}
a = {n: g for n, g in names(m2).items() if n in every}
b = names(m4)
same = [n for n in a if n in b and a[n] == b[n]]
ks = [r["name"] for r in rows if r["state"] == "kept"]
if sorted(ks) != sorted(a): errs.append("kept switches %d, old switches %d" % (len(ks), len(a)))
if sorted(same) != sorted(a): errs.append("%d of %d old switches keep their GUID" % (len(same), len(a)))
print("\n".join(errs) if errs else "ok %d" % kept)
PYEOF
case "$(cat "$TMP/ident")" in "ok "[1-9]*) ok ;; *) fail "identity: $(head -3 "$TMP/ident")" ;; esac

# ... and expand -o writes the new phase's files as build does, its LIDs the
# old phase's: every GUID of the old subnet keeps its LID; the Slurm lines
# of the old units (their leaves' hosts) are the same
"$RAILYARD" build "$TMP/su2.yaml" -q -o "$TMP/b2" >/dev/null 2>&1
expect_eq "build of 2 SUs" $? 0
"$RAILYARD" expand "$TMP/su2.yaml" "$TMP/su4.yaml" -q -o "$TMP/p4" >/dev/null 2>"$TMP/p4.err"
expect_eq "expand -o of 2 to 4 SUs" $? 0
counts "$TMP/p4" "2 to 4 SUs"
for f in opensm/plane0/guid2lid cabling/cabling.csv slurm/topology.conf expand.txt; do
    [ -s "$TMP/p4/$f" ] && ok || fail "expand -o wrote no $f"
done
"$PY" - "$TMP/b2/opensm/plane0/guid2lid" "$TMP/p4/opensm/plane0/guid2lid" \
    "$TMP/b2/slurm/topology.conf" "$TMP/p4/slurm/topology.conf" >"$TMP/lids" <<'PYEOF'
import sys
def lids(p):
    return {l.split()[0]: l.split()[1] for l in open(p) if l.startswith("0x")}
a, b = lids(sys.argv[1]), lids(sys.argv[2])
errs = ["%s: LID %s, was %s" % (g, b.get(g), l) for g, l in a.items() if b.get(g) != l]
if len(set(b.values())) != len(b): errs.append("a LID twice")
def leaves(p):
    return {l.split()[0]: l for l in open(p) if l.startswith("SwitchName=") and " Nodes=" in l}
sa, sb = leaves(sys.argv[3]), leaves(sys.argv[4])
errs += ["slurm: %s changed" % k for k in sa if sa[k] != sb.get(k)]
print("\n".join(errs[:5]) if errs else "ok %d" % len(a))
PYEOF
case "$(cat "$TMP/lids")" in "ok "[1-9]*) ok ;; *) fail "identity of LIDs: $(head -3 "$TMP/lids")" ;; esac
# OpenSM reads the new phase's files with the old LIDs: its file engine
# loads expand's lfts.dump on the grown fabric in ibsim and the subnet comes up
if [ -z "$missing" ]; then
    P4=$TMP/p4/opensm/plane0
    if ib_sim_start "$P4/topology.net" "$TMP/sim4"; then
        ib_opensm "$TMP/osm4" -R file -U "$P4/lfts.dump"
        expect_eq "opensm on the grown fabric with the kept LIDs: exit" $? 0
        ib_sim_stop
        ib_subnet_up "$TMP/osm4/osm.log" && ok || fail "opensm: no SUBNET UP on the grown fabric"
        expect_eq "opensm: file engine" "$(ib_engine "$TMP/osm4/osm.log")" file
        if ib_fallback "$TMP/osm4/osm.log" >"$TMP/osm4.fb"; then
            fail "opensm reports a fallback or error: $(head -3 "$TMP/osm4.fb")"
        else
            ok
        fi
    else
        fail "ibsim does not load the grown fabric"
    fi
fi

# the NetBox set: a cable kept in place (not replaced) has the same row in
# both phases, and so has a switch kept in its rack
"$PY" - "$TMP/b2/cabling/netbox" "$TMP/p4/cabling/netbox" "$TMP/p4/cables.csv" \
    "$TMP/p4/switches.csv" >"$TMP/nb" <<'PYEOF'
import csv, os, sys
a, b, cab, sw = sys.argv[1:]
def rows(d, f, key):
    return {r[key]: r for r in csv.DictReader(open(os.path.join(d, f)))}
ca, cb = rows(a, "08-cables.csv", "label"), rows(b, "08-cables.csv", "label")
da, db = rows(a, "07-devices.csv", "name"), rows(b, "07-devices.csv", "name")
errs, n = [], 0
for r in csv.DictReader(open(cab)):
    if r["state"] == "kept" and r["replaced"] == "0":
        n += 1
        if ca.get(r["old_label"]) != cb.get(r["label"]): errs.append("cable %s" % r["label"])
for r in csv.DictReader(open(sw)):
    if r["state"] == "kept" and (r["rack"], r["rack_unit"]) == (r["old_rack"], r["old_rack_unit"]):
        n += 1
        if da.get(r["name"]) != db.get(r["name"]): errs.append("device %s" % r["name"])
errs += ["old device %s gone" % d for d in da if d not in db]
print("\n".join(errs[:5]) if errs else "ok %d" % n)
PYEOF
case "$(cat "$TMP/nb")" in "ok "[1-9]*) ok ;; *) fail "identity in NetBox: $(head -3 "$TMP/nb")" ;; esac

# (d) a rail-only growth: each rail its own two-tier Clos of radix-64 leaves
# (32 GPUs down) and spines; 8 rails of 128 GPUs, then of 256
cat >"$TMP/ro.yaml" <<'EOF'
version: 1
name: ro
cluster:
  nodes: 128
  node: dgx-h100
fabric:
  design: rail-only
  switch: qm9700
EOF
"$RAILYARD" expand "$TMP/ro.yaml" --set cluster.nodes=256 -q -o "$TMP/ro" >/dev/null 2>"$TMP/ro.err"
expect_eq "rail-only expand: exit" $? 0
no_sanitizer "$TMP/ro.err"
counts "$TMP/ro" "rail-only"
J="$TMP/ro/expand.json"
R=8 k=64 d=32
for n in 128 256; do
    l=$(((n + d - 1) / d)); eval "leaf$n=$l spine$n=$((l * (k - d) / k))"
done
expect_eq "rail-only: leaves added" "$(j "$J" 'd["switches"]["added"]["leaf"]')" \
    $((R * (leaf256 - leaf128)))
expect_eq "rail-only: spines added" "$(j "$J" 'd["switches"]["added"]["spine"]')" \
    $((R * (spine256 - spine128)))
expect_eq "rail-only: node cables kept" "$(j "$J" 'd["cables"]["kept"]["node-leaf"]')" $((R * 128))
ols=$((R * leaf128 * (k - d)))
expect_eq "rail-only: uplinks moved" "$(j "$J" 'd["cables"]["moved"]["leaf-spine"]')" \
    $((ols - ols * spine128 / spine256))
expect_eq "rail-only: links down of one tier" \
    "$(j "$J" 'sorted(set(r["tier"] for r in d["downtime"]["links"] if r["down"]))')" \
    "['leaf-spine']"

# (g) planned for growth (growth.target_nodes: the 16-SU table row): every
# phase, 2 to 4 to 8 to 16 SUs, only adds: nothing moves, is removed,
# replaced or relocated, and each phase's cables and switches are all kept
for su in 2 4 8; do
    cp "$TMP/nvidia-superpod-b200-$su.yaml" "$TMP/g$su.yaml"
    printf 'growth:\n  target_nodes: 512\n' >>"$TMP/g$su.yaml"
done
cp "$TMP/nvidia-superpod-b200-16.yaml" "$TMP/g16.yaml"
prev=2
for su in 4 8 16; do
    "$RAILYARD" expand "$TMP/g$prev.yaml" "$TMP/g$su.yaml" -q -f json -o "$TMP/g-$su" \
        >"$TMP/g.json" 2>"$TMP/g.err"
    expect_eq "reserve $prev->$su SUs: exit" $? 0
    counts "$TMP/g-$su" "reserve $prev->$su SUs"
    expect_eq "reserve $prev->$su SUs: moved, removed, replaced, relocated; old kept" \
        "$(j "$TMP/g.json" '[sum(d["cables"][s].values()) for s in ("moved", "removed", "replaced")] + [d["relocated"]["servers"], d["relocated"]["switches"], sum(d["switches"]["removed"].values()), sum(d["cables"]["kept"].values()) == d["old"]["cables"], sum(d["switches"]["kept"].values()) == d["old"]["switches"]]')" \
        "[0, 0, 0, 0, 0, 0, True, True]"
    prev=$su
done

# (h) hosts numbered wider (768 to 1,024 one-GPU servers: node001 becomes
# node0001) are still themselves: every old NIC cable kept, every host renamed
cat >"$TMP/gh.yaml" <<'EOF'
version: 1
name: gh
cluster:
  gpus: 768
  node: dgx-gh200
fabric:
  design: rail-optimized
  switch: qm9700
EOF
"$RAILYARD" expand "$TMP/gh.yaml" --set cluster.gpus=1024 -q -f json -o "$TMP/gh" \
    >"$TMP/gh.json" 2>"$TMP/gh.err"
expect_eq "768 to 1,024 servers: exit" $? 0
counts "$TMP/gh" "768 to 1,024 servers"
expect_eq "768 to 1,024 servers: renamed, NIC cables kept and added" \
    "$(j "$TMP/gh.json" '[d["relocated"]["renamed_servers"], d["cables"]["kept"]["node-leaf"], d["cables"]["added"]["node-leaf"]]')" \
    "[768, 768, 256]"

# (j) switches removed: a fabric oversubscribed 2:1 at its leaves made
# non-blocking has fewer spines (each leaf's uplinks fill fewer spines
# ports); the spines it drops are the work order's "remove switch" rows, as
# many as bom counts of the two plans, after every cable's row
SP4="$TOP_SRCDIR/examples/superpod-4su.yaml"
sed 's/oversubscription: "1:1"/oversubscription: "2:1"/' "$SP4" >"$TMP/os2.yaml"
"$RAILYARD" expand "$TMP/os2.yaml" "$SP4" -q -o "$TMP/os" >"$TMP/os.txt" 2>"$TMP/os.err"
expect_eq "2:1 to 1:1: exit" $? 0
no_sanitizer "$TMP/os.err"
counts "$TMP/os" "2:1 to 1:1"
spines() {
    "$RAILYARD" bom -f json "$1" | "$PY" -c 'import json, sys
print(next(t["switches"] for t in json.load(sys.stdin)["tier_detail"] if t["name"] == "spine"))'
}
s_old=$(spines "$TMP/os2.yaml") s_new=$(spines "$SP4")
[ "$s_old" -gt "$s_new" ] && ok || fail "2:1 to 1:1: $s_old spines, then $s_new: none to remove"
expect_eq "2:1 to 1:1: remove switch rows, the spines bom drops" \
    "$(grep -c ',,,,remove switch,' "$TMP/os/work-order.csv")" "$((s_old - s_new))"
expect_eq "2:1 to 1:1: the rows' devices" \
    "$(awk -F, '$7 == "remove switch" { print $3 }' "$TMP/os/work-order.csv" | tr '\n' ' ')" \
    "$(i=$s_new; while [ "$i" -lt "$s_old" ]; do printf 'spine%d ' "$i"; i=$((i + 1)); done)"
grep -q "^work order: .* remove switch $((s_old - s_new)))$" "$TMP/os.txt" && ok ||
    fail "2:1 to 1:1: the report's work order line: $(grep '^work order' "$TMP/os.txt")"

# (e) money: bought and reused are the new plan's switches, optics and cables
"$RAILYARD" bom "$TMP/su4.yaml" --format json >"$TMP/bom4.json" 2>/dev/null
"$PY" - "$TMP/x-2-4/expand.json" "$TMP/bom4.json" >"$TMP/money" <<'PYEOF'
import json, sys
x, b = (json.load(open(p)) for p in sys.argv[1:])
c, m = b["capex"], x["capex"]
sw = m["switches"]["bought"] + m["switches"]["reused"]
co = m["cables_and_optics"]["bought"] + m["cables_and_optics"]["reused"]
errs = []
if abs(sw - c["switches"]) > 0.01: errs.append("switches %r, capex %r" % (sw, c["switches"]))
if abs(co - c["optics"] - c["cables"]) > 0.01:
    errs.append("cables and optics %r, capex %r" % (co, c["optics"] + c["cables"]))
if m["switches"]["retired"] != 0: errs.append("switches retired")
print("\n".join(errs) if errs else "ok")
PYEOF
expect_eq "money adds up to the capex" "$(cat "$TMP/money")" ok

# (f) bad input: nothing written, a clear error
"$RAILYARD" expand "$TMP/su2.yaml" -q >/dev/null 2>"$TMP/e1"
expect_eq "one spec without --set: usage" $? 2
grep -q "give NEW, or --set" "$TMP/e1" && ok || fail "one spec: $(cat "$TMP/e1")"
"$RAILYARD" expand "$TMP/su2.yaml" "$TMP/su4.yaml" "$TMP/su8.yaml" -q >/dev/null 2>"$TMP/e2"
expect_eq "three specs: usage" $? 2
printf 'version: 1\nname: b\ncluster: {nodes: -3}\n' >"$TMP/bad.yaml"
"$RAILYARD" expand "$TMP/bad.yaml" "$TMP/su4.yaml" -q -o "$TMP/bad-out" >/dev/null 2>"$TMP/e3"
expect_eq "a bad OLD: exit" $? 1
grep -q "bad.yaml:3:[0-9]*: " "$TMP/e3" && ok || fail "a bad OLD: $(cat "$TMP/e3")"
[ ! -e "$TMP/bad-out" ] && ok || fail "a bad OLD wrote $TMP/bad-out"
"$RAILYARD" expand "$TMP/su2.yaml" "$TMP/missing.yaml" -q >/dev/null 2>"$TMP/e4"
expect_eq "a missing NEW: exit" $? 3

# (i) what a phase does not model is refused at the key of NEW that changed,
# nothing written: a kept switch of another model (its ports are another
# chassis's), a shrink (it retires servers), another server model
SP="$TOP_SRCDIR/examples/superpod-4su.yaml"
refused() {    # refused WHAT PATTERN ARGS...: exit 1, PATTERN in the error, no -o DIR
    what=$1 pat=$2
    shift 2
    rm -rf "$TMP/refused"
    "$RAILYARD" expand "$@" -q -o "$TMP/refused" >/dev/null 2>"$TMP/refused.err"
    expect_eq "$what: exit" $? 1
    no_sanitizer "$TMP/refused.err"
    grep -q -- "$pat" "$TMP/refused.err" && ok || fail "$what: $(cat "$TMP/refused.err")"
    [ ! -e "$TMP/refused" ] && ok || fail "$what: wrote $TMP/refused"
}
refused "another leaf and spine model" \
    "^--set:1:[0-9]*: error: .*fabric.switch (the leaf switches) is qm9700 of 64 ports in OLD and q3400 of 144" \
    "$SP" --set fabric.switch=q3400
sed 's/^  switch: qm9700$/  tiers:\n    - switch: qm9700\n    - switch: qm9790/' "$TMP/su4.yaml" \
    >"$TMP/su4-spine.yaml"
refused "the spine tier of another model" \
    "su4-spine.yaml:11:15: error: .*fabric.tiers.1.switch (the spine switches) is qm9700 .* in OLD and qm9790" \
    "$TMP/su2.yaml" "$TMP/su4-spine.yaml"
refused "127 to 64 nodes" \
    "error: expand grows a fabric; NEW has fewer GPUs/nodes than OLD: 512 GPUs on 64 nodes against 1,016 on 127" \
    "$SP" --set cluster.nodes=64
refused "4 to 2 SUs" "su2.yaml:4:[0-9]*: error: expand grows a fabric; NEW has fewer" \
    "$TMP/su4.yaml" "$TMP/su2.yaml"
spec one 16 dgx-h100 8 qm9700
refused "no switch of OLD in NEW (one q3400 for 128 GPUs)" \
    "one.yaml:7:1: error: expand keeps the switches that stand, and no switch of OLD (leaf0 of 24) stands in NEW" \
    "$TMP/one.yaml" --set fabric.switch=q3400
refused "another server model" \
    "error: .*cluster.node is dgx-h100 in OLD .* and dgx-b200 in NEW" "$SP" --set cluster.node=dgx-b200
# a growth of the same models is a phase
"$RAILYARD" expand "$TMP/su2.yaml" --set cluster.nodes=100 -q -o "$TMP/grow100" >/dev/null 2>&1
expect_eq "2 SUs to 100 nodes: exit" $? 0
counts "$TMP/grow100" "2 SUs to 100 nodes"
# spines the new plan drops (3:1 at the same size: 8 of 16): the cables to
# them are removed, one row each (verify words the spines unknown devices)
"$RAILYARD" expand "$SP" --set fabric.oversubscription=3:1 -q -f json -o "$TMP/os3" \
    >"$TMP/os3.json" 2>"$TMP/os3.err"
expect_eq "1:1 to 3:1: exit" $? 0
no_sanitizer "$TMP/os3.err"
expect_eq "1:1 to 3:1: spines and cables removed" \
    "$(j "$TMP/os3.json" '[d["switches"]["removed"]["spine"], d["cables"]["removed"]["leaf-spine"]]')" \
    "[8, 512]"
counts "$TMP/os3" "1:1 to 3:1"

finish
