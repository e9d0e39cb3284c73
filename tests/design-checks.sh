#!/bin/sh
# validate's design checks: NIC against switch port speed (and the model's
# link speed under fabric.accept_slower_ports), tier fill and idle ports, a
# cheaper neighbouring size, --strict, the JSON keys; compare choosing the
# scalable unit per radix. Expected figures come from closed forms here.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

# json FILE EXPR: a value from a JSON file (d is the document)
json() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# ---- 16,416 GB200 GPUs on QM9700, given 800G NICs (ConnectX-8, as on GB300
# trays; the catalog's GB200 tray has 400G ConnectX-7) on 400G ports -------
cat >"$TMP/gb.yaml" <<'EOF'
version: 1
name: gb200-qm9700
cluster:
  gpus: 16416
  node: {name: gb200-nvl72, nic_speed: 800G}
fabric:
  switch: qm9700
EOF

# Closed forms of the rail-optimized Clos: K = R = 72 rails, one GPU per rail
# and domain, radix k = 64, 1:1, so d = u = 32; a unit of S = d domains has
# one leaf per rail; pods of d leaves, each with u spines; the top tier gives
# each of the d spine columns the smallest divisor M of u with M*k >= P*u.
# Prints: switches ports links core core_idle cost
closed() {
    "$PY" - "$1" <<'EOF'
import sys
G = int(sys.argv[1]); K = R = 72; k = 64; d = u = k // 2
D = G // K; U = -(-D // d); L = R * U; P = -(-L // d)
M = next(m for m in range(1, u + 1) if u % m == 0 and m * k >= P * u)
core = d * M; sw = L + P * u + core
links = G + L * u + P * u * u
idle = core * k - P * u * u
print(sw, sw * k, links, core, idle, sw * k * 748 + 2 * links * 374)
EOF
}
set -- $(closed 16416); sw1=$1 core1=$4 idle1=$5 cost1=$6
set -- $(closed 16128); sw0=$1 core0=$4 idle0=$5 cost0=$6
expect_eq "closed form: core switches 16416 vs 16128" "$core1 $core0" "512 256"

"$RAILYARD" validate "$TMP/gb.yaml" >"$TMP/nic.out" 2>"$TMP/nic.err"
expect_eq "800G NICs on 400G ports: exit" $? 1
grep -q '^[^:]*gb.yaml:7:11: error: the GPU NICs run at 800G but the qm9700 ports at 400G' \
    "$TMP/nic.err" && ok || fail "800G on 400G: $(cat "$TMP/nic.err")"
grep -q 'fabric.accept_slower_ports: true' "$TMP/nic.err" && ok || fail "names the key"
grep -q ': the design checks fail$' "$TMP/nic.out" && ok || fail "text header: $(head -1 "$TMP/nic.out")"

A="--set fabric.accept_slower_ports=true"
"$RAILYARD" validate "$TMP/gb.yaml" $A >"$TMP/gb.txt" 2>"$TMP/gb.err"
expect_eq "accepted: exit (warnings only)" "$?:$(cat "$TMP/gb.err")" "0:"
grep -q ': ok$' "$TMP/gb.txt" && ok || fail "accepted: ok header"
grep -q '^design checks: 0 errors, 2 warnings$' "$TMP/gb.txt" && ok \
    || fail "checks line: $(grep '^design checks' "$TMP/gb.txt")"
g() { "$PY" -c "import sys; print(format(int(sys.argv[1]), ','))" "$1"; }   # 16128 -> 16,128
grep -q "^warning: tier-fill: core: $(g "$idle1") of $(g $((core1 * 64))) ports idle" "$TMP/gb.txt" && ok \
    || fail "idle core ports: $(grep tier-fill "$TMP/gb.txt")"
grep -q "^warning: cheaper-size: 16,128 GPUs (288 fewer)" "$TMP/gb.txt" && ok \
    || fail "cheaper size: $(grep cheaper "$TMP/gb.txt")"
grep -q "^note: nic-speed: the 800G NICs link at the switch ports' 400G" "$TMP/gb.txt" && ok \
    || fail "accepted note"

"$RAILYARD" validate "$TMP/gb.yaml" $A --strict >/dev/null 2>"$TMP/strict.err"
expect_eq "--strict: warnings are errors" $? 1
expect_eq "--strict: both warnings reported as errors" \
    "$(grep -c ': error: ' "$TMP/strict.err")" 2

"$RAILYARD" validate "$TMP/gb.yaml" $A --format json >"$TMP/gb.json"
expect_eq "json exit" $? 0
expect_eq "json: existing keys kept" \
    "$(json "$TMP/gb.json" 'd["valid"], d["gpus"], d["bom"]["switches"]["total"]')" \
    "(True, 16416, $sw1)"
expect_eq "json: checks keys" \
    "$(json "$TMP/gb.json" 'sorted(d["checks"])')" \
    "['cheaper', 'errors', 'findings', 'nic', 'ok', 'options_tried', 'paper_cost', 'paper_cost_per_gpu', 'price_per_port', 'strict', 'tiers', 'warnings']"
expect_eq "json: counts" "$(json "$TMP/gb.json" 'd["checks"]["errors"], d["checks"]["warnings"], d["checks"]["ok"]')" \
    "(0, 2, True)"
expect_eq "json: NIC link" "$(json "$TMP/gb.json" 'd["checks"]["nic"]')" \
    "{'nic_gbps': 800.0, 'port_gbps': 400.0, 'link_gbps': 400.0, 'nic_faster': True, 'accepted': True}"
expect_eq "json: core tier" \
    "$(json "$TMP/gb.json" '[(t["switches"], t["ports_idle"], t["idle_cost"]) for t in d["checks"]["tiers"] if t["name"] == "core"]')" \
    "[($core1, $idle1, $((idle1 * 748)).0)]"
# spines of 32 down and 32 up at 400G
sp=$((sw1 - 576 - core1))
expect_eq "json: spine bandwidth" \
    "$(json "$TMP/gb.json" '[(int(t["down_gbps"]), int(t["up_gbps"]), t["oversubscription"]) for t in d["checks"]["tiers"] if t["name"] == "spine"]')" \
    "[($((sp * 32 * 400)), $((sp * 32 * 400)), 1.0)]"
want_saving=$("$PY" -c "print(round((1 - $cost0 / $cost1) * 1000) / 10, round((1 - ($cost0 / 16128) / ($cost1 / 16416)) * 1000) / 10)")
expect_eq "json: cheaper option" \
    "$(json "$TMP/gb.json" '" ".join(str(x) for x in (lambda c: (c["gpus"], c["top_switches"], int(c["paper_cost"]), c["saving_pct"], c["saving_per_gpu_pct"]))(d["checks"]["cheaper"]))')" \
    "16128 $core0 $cost0 $want_saving"
expect_eq "json: paper_cost" "$(json "$TMP/gb.json" 'int(d["checks"]["paper_cost"])')" "$cost1"

"$RAILYARD" validate "$TMP/gb.yaml" $A --strict --format json >"$TMP/gbs.json" 2>/dev/null
expect_eq "json --strict: exit and ok" "$?:$(json "$TMP/gbs.json" 'd["checks"]["ok"], d["checks"]["strict"]')" \
    "1:(False, True)"

# 16,128 GPUs: whole units, a full core tier, nothing cheaper nearby.
"$RAILYARD" validate "$TMP/gb.yaml" $A --set cluster.gpus=16128 --strict --format json \
    >"$TMP/gb0.json" 2>"$TMP/gb0.err"
expect_eq "16128: --strict passes" "$?:$(cat "$TMP/gb0.err")" "0:"
expect_eq "16128: no warnings, core full" \
    "$(json "$TMP/gb0.json" 'd["checks"]["warnings"], d["checks"]["cheaper"], [t["ports_idle"] for t in d["checks"]["tiers"]][-1]')" \
    "(0, None, $idle0)"
expect_eq "closed form: 16128 core idle" "$idle0" 0

# ---- 400G NICs on an HDR QM8700 ----
cat >"$TMP/hdr.yaml" <<'EOF'
name: hdr
cluster: {nodes: 32, node: dgx-h100}
fabric: {switch: qm8700}
EOF
"$RAILYARD" validate "$TMP/hdr.yaml" --format json >"$TMP/hdr.json" 2>"$TMP/hdr.err"
expect_eq "400G NICs on HDR: exit" $? 1
grep -q 'error: the GPU NICs run at 400G but the qm8700 ports at 200G' "$TMP/hdr.err" && ok \
    || fail "HDR message: $(cat "$TMP/hdr.err")"
# (and no medium of the catalog fits both the OSFP NIC cages and the QSFP56
# switch cages: the cabling plan cannot be made, a second error)
expect_eq "HDR json" "$(json "$TMP/hdr.json" 'd["checks"]["errors"], d["checks"]["nic"]["link_gbps"], [(x["check"], x["key"]) for x in d["checks"]["findings"] if x["level"] == "error"]')" \
    "(2, 200.0, [('nic-speed', 'fabric.switch'), ('cabling', 'fabric.switch')])"
grep -q 'error: link node001/mlx5_0 - leaf0/1 at 200G: no medium .* fits the qsfp56 cages of qm8700 and the twin-port osfp cages of dgx-h100' "$TMP/hdr.err" && ok \
    || fail "HDR cabling message: $(cat "$TMP/hdr.err")"

# ---- the floor: racks over their power budget, runs near every medium's reach ----
# 5 DGX H100 in a rack draw 5 x the node's power, over the default budget
# (per_rack 4 x the same power); rows 100 m apart put runs beyond the
# multimode and near the single-mode reach.
"$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" --set layout.nodes_per_rack=5 \
    --format json >"$TMP/pw.json" 2>"$TMP/pw.err"
expect_eq "rack power: exit (a warning)" $? 0
# racks of 5: the 127 servers in units of 32 (32, 32, 32, 31) fill 6 racks
# of 5 per unit
W5=$("$PY" -c 'import yaml; n = yaml.safe_load(open("'"$TOP_SRCDIR"'/templates/nodes.yaml"))["nodes"]["dgx-h100"]; print("%d racks draw up to %.1f kW, over the rack power budget of %.1f kW" % (sum(u // 5 for u in (32, 32, 32, 31)), 5 * n["power"] / 1000, n["per_rack"] * n["power"] / 1000))')
expect_eq "rack power: finding" "$(json "$TMP/pw.json" '[(x["level"], x["key"], x["message"].split(":")[0]) for x in d["checks"]["findings"] if x["check"] == "rack-power"]')" \
    "[('warning', 'layout.nodes_per_rack', '$W5')]"
"$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" --set layout.nodes_per_rack=5 \
    --strict >/dev/null 2>"$TMP/pw.err"
expect_eq "rack power: --strict exit" $? 1
grep -q "^--set:1:23: error: $W5" "$TMP/pw.err" && ok || fail "rack power --strict: $(cat "$TMP/pw.err")"

# Rows of 9 racks 950 m apart: the spines' row stands between the second and third
# unit, so the leaves of the first and last unit are two rows (1.9 km) from
# it, within 10% of the farthest NDR reach in the catalog; the others one.
"$RAILYARD" cabling "$TOP_SRCDIR/examples/superpod-4su.yaml" --set layout.row_pitch=950 --set layout.racks_per_row=9 \
    -o "$TMP/far" >/dev/null 2>&1
expect_eq "far rows: cabling exit" $? 0
"$RAILYARD" validate "$TOP_SRCDIR/examples/superpod-4su.yaml" --set layout.row_pitch=950 --set layout.racks_per_row=9 \
    --format json >"$TMP/far.json" 2>/dev/null
expect_eq "far rows: exit (a warning)" $? 0
far=$("$PY" - "$TMP/far/cabling/cabling.csv" "$TOP_SRCDIR/templates/media.yaml" <<'EOF'
import csv, sys, yaml
media = yaml.safe_load(open(sys.argv[2]))["media"]
reach = max(float(m["lengths"][-1]) for m in media.values() if "400G" in [str(x) for x in m["speeds"]])
rows = list(csv.DictReader(open(sys.argv[1])))
two = sum(1 for r in rows if r["tier"] == "2" and abs(int(r["a_row"]) - int(r["z_row"])) == 2)
print("%d cables run within 10%% of the reach of any medium of their speed (%g m)" % (two, reach))
EOF
)
expect_eq "far rows: reach finding" "$(json "$TMP/far.json" '[(x["level"], x["message"].split(" (the nearest")[0] + " (%g m)" % float(x["message"].split(" of ")[-1].split(" m)")[0])) for x in d["checks"]["findings"] if x["check"] == "reach"]')" \
    "[('warning', '${far}')]"

# ---- the model: refused, then run at the slower link ----
# (the data-parallel reduction left exposed, overlap.data 0: the full model
# would hide this small model's behind compute, and the link would not show)
W='workload:
  model: {name: toy-1b, parameters: 1.3e9, layers: 24, d_model: 2048, heads: 16, seq_len: 1024, vocab: 50000, mcc: 8, batch: 512}
  gpu: h100
  overlap: {data: 0}'
for nic in 800 400; do
    for port in 400 800; do
        printf 'name: m\ncluster: {gpus: 512, hb_domain: 16, gpus_per_node: 8, node: {nic_speed: %sG}}\nfabric: {switch: {name: s16, radix: 16, speed: %sG}}\n%s\n' \
            "$nic" "$port" "$W" >"$TMP/m$nic-$port.yaml"
    done
done
"$RAILYARD" model "$TMP/m800-400.yaml" >/dev/null 2>"$TMP/m.err"
expect_eq "model: 800G NICs on 400G ports refused" $? 1
grep -q 'm800-400.yaml:3:10: error: the GPU NICs run at 800G but the switch ports at 400G' \
    "$TMP/m.err" && ok || fail "model message: $(cat "$TMP/m.err")"
"$RAILYARD" model "$TMP/m800-400.yaml" $A --format json >"$TMP/m1.json"
expect_eq "model accepted: exit" $? 0
"$RAILYARD" model "$TMP/m800-800.yaml" --format json >"$TMP/m2.json"
"$RAILYARD" model "$TMP/m400-400.yaml" --format json >"$TMP/m3.json"
expect_eq "model: B_S at 400G, 800G, 400G" \
    "$(json "$TMP/m1.json" 'd["constants"]["B_S"]') $(json "$TMP/m2.json" 'd["constants"]["B_S"]') $(json "$TMP/m3.json" 'd["constants"]["B_S"]')" \
    "$((400 * 1000000000 / 8)).0 $((800 * 1000000000 / 8)).0 $((400 * 1000000000 / 8)).0"
t1=$(json "$TMP/m1.json" 'd["tokens_per_s"]'); t2=$(json "$TMP/m2.json" 'd["tokens_per_s"]')
t3=$(json "$TMP/m3.json" 'd["tokens_per_s"]')
expect_eq "model: accepted 800G-on-400G runs as 400G NICs do" "$t1" "$t3"
[ "$t1" != "$t2" ] && ok || fail "model: the slower link changes nothing ($t1 = $t2)"
"$RAILYARD" model "$TMP/m800-400.yaml" $A | grep -q 'NIC 400 Gb/s x 1 plane of the node (800G NICs at the switch ports' \
    && ok || fail "model text names the slower link"
"$RAILYARD" validate "$TMP/m400-800.yaml" >/dev/null 2>&1
expect_eq "slower NICs than ports: no error" $? 0

# ---- compare: the scalable unit per radix ----
"$RAILYARD" compare --paper "$TOP_SRCDIR/examples/superpod-4su.yaml" --radix 40,64,128 --format json \
    >"$TMP/cmp.json"
expect_eq "compare exit" $? 0
# DGX H100: K = R = 8, one GPU per rail and domain: a leaf of radix k takes
# k/2 domains; the spec's own unit (32) stays at its radix (64).
expect_eq "compare: unit per radix" \
    "$(json "$TMP/cmp.json" '[(r["radix"], r["scalable_unit_domains"], r["scalable_unit_from_spec"]) for r in d["rows"]]')" \
    "[(40, $((40 / 2)), False), (64, 32, True), (128, $((128 / 2)), False)]"
# radix 128, units of 64 of the 127 domains: 2 units, a leaf per rail and
# unit, one switch tier above with the smallest divisor M of 64 with
# M*128 >= 16*64.
expect_eq "compare: radix 128 rail-optimized switches" \
    "$(json "$TMP/cmp.json" 'd["rows"][2]["designs"]["rail-optimized"]["switches"]["total"]')" \
    "$((8 * 2 + 8))"
"$RAILYARD" compare --paper "$TOP_SRCDIR/examples/superpod-4su.yaml" --radix 40,64,128 >"$TMP/cmp.txt"
grep -q '^scalable unit per radix (HB domains): radix 40: 20, radix 64: 32 (the spec.s), radix 128: 64$' \
    "$TMP/cmp.txt" && ok || fail "compare text: $(tail -2 "$TMP/cmp.txt")"

finish
