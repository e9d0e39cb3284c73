#!/bin/sh
# SONiC's config_db.json of every switch (railyard ethernet), for the specs
# of tests/data/eth and tests/data/sonic (IPv6 static and SLAAC, the lossy
# profile, split ports):
#   - every file through tests/sonic-check.py: the constraints of SONiC's
#     YANG models (tables, keys, fields, mandatory fields, enums, patterns,
#     ranges, leafrefs), its BGP_NEIGHBOR keys those of the frr.conf beside
#     it, its INTERFACE /31s those of addresses.csv;
#   - closed forms from the specs' numbers: PORT entries per switch (the
#     model's ports counting split parts), BGP_NEIGHBOR entries per switch
#     (its fabric links), their total twice the sessions railyard reports;
#   - the profiles: PFC, buffers and the buffer model only when lossless,
#     IPv6 prefixes and address_family only with ethernet.ipv6, BREAKOUT_CFG
#     only on a tier that splits;
#   - the same bytes from a second run; doc/ethernet.md's BGP_NEIGHBOR excerpt;
#   - planted faults the checker must name.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
CHECK="$TOP_SRCDIR/tests/sonic-check.py"

# spec | role:PORT entries:BGP_NEIGHBOR entries per switch
#   radix r, no split: every switch r ports; a leaf r/2 up, any other switch
#   all r ports to switches. split-tomahawk4: a leaf's 32 down cages split
#   in 2 (64) plus 32 up = 96 ports, 32 neighbours; a spine's 64 ports all
#   to leaves.
while read -r spec expect; do
    name=$(basename "$spec" .yaml)
    out="$TMP/$name"
    if ! "$RAILYARD" ethernet "$TOP_SRCDIR/$spec" -o "$out" >"$TMP/$name.log" 2>&1; then
        fail "$spec: railyard ethernet failed"; sed 's/^/    /' "$TMP/$name.log"; continue
    fi
    no_sanitizer "$TMP/$name.log"
    E="$out/ethernet"
    nsw=$(ls -d "$E"/switches/*/ | wc -l)
    expect_eq "$name: config_db.json files" "$(ls "$E"/switches/*/config_db.json | wc -l)" "$nsw"
    if "$PY" "$CHECK" --frr --addresses "$E/addresses.csv" --expect "$expect" "$E" \
        >"$TMP/$name.chk" 2>&1; then ok; else
        fail "$name: sonic-check"; sed 's/^/    /' "$TMP/$name.chk" | head -20
    fi
    sessions=$(sed -n 's/.*(\([0-9]*\) BGP sessions).*/\1/p' "$TMP/$name.log")
    "$PY" - "$E" "$sessions" "$TOP_SRCDIR/$spec" >"$TMP/$name.prof" 2>&1 <<'P'
import glob, json, os, sys, yaml
E, sessions, spec = sys.argv[1], int(sys.argv[2]), yaml.safe_load(open(sys.argv[3]))
eth = spec.get("ethernet") or {}
v6 = eth.get("ipv6", "off") != "off"
lossless = eth.get("qos", "lossless") == "lossless"
tiers = (spec.get("fabric") or {}).get("tiers")
split = isinstance(tiers, list) and "x" in tiers[0].get("down", "")
# the leaves' switch model and its vendor, from the spec or the catalog
cat = yaml.safe_load(open(os.path.join(os.environ["TOP_SRCDIR"], "templates", "switches.yaml")))["switches"]
model = tiers[0].get("switch") if isinstance(tiers, list) and tiers[0].get("switch") else \
    (spec.get("fabric") or {}).get("switch", "generic")
vendor = (model.get("vendor", "") if isinstance(model, dict) else
          cat.get(model, {}).get("vendor", "")).lower()
errs = []
nb = 0
hosts = sum(1 for _ in open(E + "/addresses.csv")) - 1
p31 = p64 = 0
for f in sorted(glob.glob(E + "/switches/*/config_db.json")):
    d = json.load(open(f))
    sw = f.split("/")[-2]
    md = d["DEVICE_METADATA"]["localhost"]
    nb += len(d.get("BGP_NEIGHBOR", {}))
    cabled = [k for k, v in d["PORT"].items() if v.get("admin_status") == "up"]
    if sorted(cabled) != sorted(d["PORT_QOS_MAP"]):
        errs.append("%s: PORT_QOS_MAP is not the cabled ports" % sw)
    pfc = [v.get("pfc_enable") for v in d["PORT_QOS_MAP"].values()]
    if lossless != (pfc and all(p == "3" for p in pfc)) or (not lossless and any(pfc)):
        errs.append("%s: pfc_enable %s, profile %s" % (sw, set(pfc), eth.get("qos", "lossless")))
    if sorted(k for k in d.get("PFC_WD", {}) if k != "GLOBAL") != (sorted(cabled) if lossless else []):
        errs.append("%s: PFC_WD not on every cabled port when lossless, or when lossy" % sw)
    # the dynamic buffer model is Mellanox's (NVIDIA Spectrum) alone; others
    # keep the traditional one, whose buffermgrd makes the lossless PGs
    want_model = (("dynamic" if vendor in ("nvidia", "mellanox") else "traditional")
                  if lossless else None)
    if md.get("buffer_model") != want_model or \
       len(d.get("BUFFER_PG", {})) != (len(cabled) if want_model == "dynamic" else 0):
        errs.append("%s: buffer model %s / BUFFER_PG not as the profile and vendor (%s)" %
                    (sw, md.get("buffer_model"), want_model))
    lengths = set(d.get("CABLE_LENGTH", {}).get("AZURE", {}).values())
    if want_model == "traditional" and not lengths <= {"5m", "40m", "300m"}:
        errs.append("%s: traditional model with cable lengths %s, not pg_profile_lookup's" %
                    (sw, sorted(lengths)))
    lo = [k for k in d["LOOPBACK_INTERFACE"] if "|" in k]
    if len(lo) != 1 + v6 or (v6 and not any(k.endswith("/128") for k in lo)):
        errs.append("%s: loopback prefixes %s" % (sw, lo))
    af = set(v["address_family"] for v in d.get("BGP_NEIGHBOR", {}).values())
    if d.get("BGP_NEIGHBOR") and af != {"both" if v6 else "v4"}:
        errs.append("%s: address_family %s" % (sw, af))
    for v in d.get("BGP_NEIGHBOR", {}).values():
        peer = json.load(open("%s/switches/%s/config_db.json" % (E, v["name"])))
        if v["asn"] != peer["DEVICE_METADATA"]["localhost"]["bgp_asn"]:
            errs.append("%s: neighbour %s asn %s is not its bgp_asn" % (sw, v["name"], v["asn"]))
    p31 += sum(k.endswith("/31") for k in d["INTERFACE"])
    p64 += sum(k.endswith("/64") for k in d["INTERFACE"])
    bo = d.get("BREAKOUT_CFG", {})
    if split and md["type"] == "BackEndToRRouter":
        modes = sorted(v["brkout_mode"] for v in bo.values())
        if modes != ["1x400G"] * 32 + ["2x200G"] * 32:
            errs.append("%s: BREAKOUT_CFG %s" % (sw, modes[:3]))
    elif bo:
        errs.append("%s: BREAKOUT_CFG on a tier that does not split" % sw)
if nb != 2 * sessions:
    errs.append("BGP_NEIGHBOR entries %d, want twice the %d sessions" % (nb, sessions))
if p31 != hosts or p64 != (hosts if v6 else 0):
    errs.append("host-link prefixes: %d /31, %d /64 for %d NIC ports" % (p31, p64, hosts))
print("\n".join(errs) if errs else "ok")
P
    expect_eq "$name: profiles and totals" "$(head -5 "$TMP/$name.prof")" ok
    "$RAILYARD" ethernet "$TOP_SRCDIR/$spec" -o "$TMP/again-$name" >/dev/null 2>&1
    if diff -r "$E/switches" "$TMP/again-$name/ethernet/switches" >/dev/null; then ok; else
        fail "$name: a second run gives other bytes"; fi
done <<'EOF'
tests/data/eth/ro-2tier.yaml BackEndToRRouter:16:8,BackEndLeafRouter:16:16
tests/data/eth/ro-3tier.yaml BackEndToRRouter:8:4,BackEndLeafRouter:8:8,SpineRouter:8:8
tests/data/eth/rail-only.yaml BackEndToRRouter:4:2,BackEndLeafRouter:4:4
tests/data/sonic/ro-3tier-v6-lossy.yaml BackEndToRRouter:8:4,BackEndLeafRouter:8:8,SpineRouter:8:8
tests/data/sonic/rail-only-slaac.yaml BackEndToRRouter:4:2,BackEndLeafRouter:4:4
tests/data/sonic/split-tomahawk4.yaml BackEndToRRouter:96:32,BackEndLeafRouter:64:64
tests/data/sonic/spectrum4.yaml BackEndToRRouter:128:64,BackEndLeafRouter:128:128
EOF

# ---- neighbours and cable lengths: DEVICE_NEIGHBOR names each cabled port's
# other end, both ends of a switch link naming each other, a host's port as
# addresses.csv has it; CABLE_LENGTH the cabling plan's stock length of the
# cable (railyard cabling's cabling.csv), rounded up to whole metres, and
# under the traditional buffer model up to the next length of the
# platforms' pg_profile_lookup.ini (5, 40, 300 m)
"$RAILYARD" cabling "$TOP_SRCDIR/tests/data/eth/ro-2tier.yaml" -o "$TMP/ro-cab" >/dev/null 2>&1 ||
    fail "cabling of ro-2tier"
got=$("$PY" - "$TMP/ro-2tier/ethernet" "$TMP/ro-cab/cabling/cabling.csv" <<'P'
import csv, glob, json, math, os, sys
E, cab = sys.argv[1], sys.argv[2]
db = {os.path.basename(os.path.dirname(f)): json.load(open(f))
      for f in glob.glob(E + "/switches/*/config_db.json")}
addr = {(r["host"], r["rdma"]): r for r in csv.DictReader(open(E + "/addresses.csv"))}
errs, n = [], 0
for sw, d in db.items():
    up = [k for k, v in d["PORT"].items() if v.get("admin_status") == "up"]
    if sorted(d.get("DEVICE_NEIGHBOR", {})) != sorted(up):
        errs.append("%s: DEVICE_NEIGHBOR is not its cabled ports" % sw)
    if sorted(d.get("CABLE_LENGTH", {}).get("AZURE", {})) != sorted(up):
        errs.append("%s: CABLE_LENGTH is not its cabled ports" % sw)
    for port, nb in d.get("DEVICE_NEIGHBOR", {}).items():
        if nb["name"] in db:
            back = db[nb["name"]]["DEVICE_NEIGHBOR"].get(nb["port"], {})
            if back != {"name": sw, "port": port}:
                errs.append("%s %s: %s %s does not name it back" % (sw, port, nb["name"], nb["port"]))
for r in csv.DictReader(open(cab)):
    a = addr.get((r["a_device"], r["a_port"]))
    if not a:
        continue
    n += 1
    d = db[a["switch"]]
    m = math.ceil(float(r["length_m"]))
    if d["DEVICE_METADATA"]["localhost"].get("buffer_model") == "traditional":
        m = next(x for x in (5, 40, 300, 10**9) if m <= x)   # pg_profile_lookup.ini's lengths
    want = "%dm" % min(m, 300)
    if d["CABLE_LENGTH"]["AZURE"].get(a["port"]) != want:
        errs.append("%s %s: cable length %s, cabling.csv %s" % (a["switch"], a["port"],
                    d["CABLE_LENGTH"]["AZURE"].get(a["port"]), want))
    if d["DEVICE_NEIGHBOR"][a["port"]] != {"name": a["host"], "port": a["netdev"]}:
        errs.append("%s %s: neighbour %s" % (a["switch"], a["port"], d["DEVICE_NEIGHBOR"][a["port"]]))
print("\n".join(errs[:5]) if errs else "ok %d" % n)
P
)
expect_eq "DEVICE_NEIGHBOR and CABLE_LENGTH against addresses.csv and cabling.csv" "$got" \
    "ok $(tail -n +2 "$TMP/ro-2tier/ethernet/addresses.csv" | wc -l)"

# ---- port names, aliases, indexes and lanes as the platform's own file has them:
# sonic-buildimage device/mellanox/x86_64-nvidia_sn5600-r0/Mellanox-SN5600-O128/
# port_config.ini at commit bb73a8a1 (name, lanes, alias, index), rows kept here
got=$("$PY" - "$TMP/spectrum4/ethernet/switches/leaf0/config_db.json" <<'P'
import json, sys
rows = """Ethernet0 0,1,2,3 etp1a 1
Ethernet4 4,5,6,7 etp1b 1
Ethernet8 8,9,10,11 etp2a 2
Ethernet12 12,13,14,15 etp2b 2
Ethernet252 252,253,254,255 etp32b 32
Ethernet256 256,257,258,259 etp33a 33
Ethernet508 508,509,510,511 etp64b 64"""
port = json.load(open(sys.argv[1]))["PORT"]
bad = []
for r in rows.splitlines():
    name, lanes, alias, index = r.split()
    p = port.get(name, {})
    if (p.get("lanes"), p.get("alias"), p.get("index")) != (lanes, alias, index):
        bad.append("%s: %s %s %s" % (name, p.get("lanes"), p.get("alias"), p.get("index")))
print("; ".join(bad) if bad else "ok")
P
)
expect_eq "sn5600-400g ports as Mellanox-SN5600-O128's port_config.ini" "$got" ok

# ---- doc/ethernet.md quotes leaf0's first neighbour of tests/data/eth/ro-2tier.yaml -----
got=$("$PY" - "$TOP_SRCDIR/doc/ethernet.md" "$TMP/ro-2tier/ethernet/switches/leaf0/config_db.json" <<'P'
import json, re, sys
doc = open(sys.argv[1]).read()
m = re.search(r'^"BGP_NEIGHBOR": \{\n(.*?\n    \}),\n```', doc, re.S | re.M)
if not m:
    print("no BGP_NEIGHBOR excerpt"); sys.exit()
quoted = json.loads("{" + m.group(1) + "}")
d = json.load(open(sys.argv[2]))["BGP_NEIGHBOR"]
print("ok" if all(d.get(k) == v for k, v in quoted.items()) else "differs: %s" % quoted)
P
)
expect_eq "doc/ethernet.md's BGP_NEIGHBOR excerpt" "$got" ok

# ---- planted faults: each must be named --------------------------------------------------
good="$TMP/split-tomahawk4/ethernet/switches/leaf0/config_db.json"
if "$PY" "$CHECK" "$good" >/dev/null; then ok; else fail "the unplanted file fails"; fi
while IFS='%' read -r what code want; do
    rm -f "$TMP/fault.json"
    "$PY" - "$good" "$TMP/fault.json" "$code" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=4, sort_keys=True)
P
    if "$PY" "$CHECK" "$TMP/fault.json" >"$TMP/fault.out" 2>&1; then
        fail "planted fault passes: $what"
    elif grep -q -- "$want" "$TMP/fault.out"; then ok; else
        fail "planted fault $what: not named ($want):"; sed 's/^/    /' "$TMP/fault.out" | head -5
    fi
done <<'EOF'
a PORT without its speed%del d["PORT"]["Ethernet0"]["speed"]%PORT|Ethernet0: mandatory speed missing
a neighbour on no port%d["BGP_NEIGHBOR"]["Ethernet9999"] = d["BGP_NEIGHBOR"].pop("Ethernet256")%BGP_NEIGHBOR|Ethernet9999: neither an IP address
PFC on priority 8%d["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] = "3,8"%PORT_QOS_MAP|Ethernet0: pfc_enable='3,8' does not match
a queue's WRED profile missing%d["QUEUE"]["Ethernet0|3"]["wred_profile"] = "NOPE"%wred_profile NOPE is not in WRED_PROFILE
a /31 on a port with no entry%del d["INTERFACE"]["Ethernet0"]%Ethernet0 has no entry of its own
two ports on one lane%d["PORT"]["Ethernet4"]["lanes"] = "3,4,5,6"%lane 3 also in
a device type SONiC lacks%d["DEVICE_METADATA"]["localhost"]["type"] = "Leaf"%type='Leaf' does not match
a breakout its cage's ports are not%d["BREAKOUT_CFG"]["Ethernet0"]["brkout_mode"] = "4x100G"%4x100G: not 4 ports of 100G
a WRED max below its min%d["WRED_PROFILE"]["ROCE_ECN"]["green_max_threshold"] = "1000"%green max threshold below min
an integer where CONFIG_DB has strings%d["PORT"]["Ethernet0"]["mtu"] = 9216%mtu: CONFIG_DB values are strings
a PFC watchdog never started%del d["PFC_WD"]["Ethernet0"]%pfcwd_sw_enable without a PFC_WD entry
a watchdog faster than its poll%d["PFC_WD"]["Ethernet0"]["detection_time"] = "100"%detection_time below POLL_INTERVAL
a cable length in feet%d["CABLE_LENGTH"]["AZURE"]["Ethernet0"] = "10ft"%length '10ft' of Ethernet0
a neighbour table on no port%d["DEVICE_NEIGHBOR"]["Ethernet0"]["local_port"] = "Ethernet9999"%local_port is not a PORT
EOF

finish
