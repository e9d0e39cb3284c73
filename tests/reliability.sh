#!/bin/sh
# Expected failures and their cost (the reliability section) in compare,
# against arithmetic done here from compare's own counts:
#
#   - per class: failures a year = components x rate (GPUs, servers, NIC
#     ports, software per GPU, the switches of each tier, every cable);
#   - every failure loses the restart and half a checkpoint interval on
#     every GPU; a server's, GPU's or NIC's failure then drains the server
#     for repair_node hours; a cable drains its server when it is a
#     server's (node links over all links); a switch drains the GPUs it
#     cuts off or, with a workload, slows the whole job by its slowdown for
#     repair_switch hours, whichever loses less;
#   - goodput = 1 - lost / (GPUs x 8,766 h); dollars at gpu_hour, and over
#     cost.years;
#   - at 16,384 GPUs, rail-only (fewer switches and cables) loses fewer
#     GPU-hours to the network than rail-optimized: the designs differ;
#   - text (the network's GPU-hours) and CSV (goodput) give the JSON's
#     figures; a bad rate is refused at its key.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

SETS="--set cluster.nodes=2048 --set reliability.gpu_rate=0.2 --set reliability.host_rate=0.1
      --set reliability.nic_rate=0.01 --set reliability.software_rate=0.05
      --set reliability.switch_rate=0.1 --set reliability.cable_rate=0.01
      --set reliability.repair_node=10 --set reliability.repair_switch=3
      --set reliability.repair_cable=1 --set reliability.checkpoint=20
      --set reliability.restart=5 --set reliability.gpu_hour=3 --set cost.years=4"
# shellcheck disable=SC2086
"$RAILYARD" compare "$EX/superpod-4su.yaml" $SETS --format json >"$TMP/c.json" 2>"$TMP/err"
expect_eq "compare json exit" $? 0
# shellcheck disable=SC2086
"$RAILYARD" compare "$EX/superpod-4su.yaml" $SETS >"$TMP/c.txt" 2>>"$TMP/err"
expect_eq "compare text exit" $? 0
# shellcheck disable=SC2086
"$RAILYARD" compare "$EX/superpod-4su.yaml" $SETS --format csv >"$TMP/c.csv" 2>>"$TMP/err"
expect_eq "compare csv exit" $? 0
# with a workload: a switch may run the job slowed rather than drain
# shellcheck disable=SC2086
"$RAILYARD" compare "$EX/moe-h100.yaml" --set reliability.repair_switch=3 --format json \
    >"$TMP/m.json" 2>>"$TMP/err"
expect_eq "compare with a workload: exit" $? 0
no_sanitizer "$TMP/err"

check() {
"$PY" - "$@" <<'EOF'
import csv, json, re, sys
path, mode = sys.argv[1], sys.argv[2]
R = dict(gpu=0.2, host=0.1, nic=0.01, sw=0.1, cable=0.01, soft=0.05, rn=10, rs=3, rc=1,
         ck=20, rst=5, price=3, years=4)
if mode == "defaults":
    R = dict(gpu=0.111, host=0.152, nic=0.0029, sw=0.078, cable=0.0067, soft=0.026, rn=24, rs=3,
             rc=2, ck=15, rst=10, price=2, years=5)
d = json.load(open(path))
errs = []
def near(what, got, want, rel=1e-9):
    if abs(got - want) > rel * max(1, abs(want)):
        errs.append("%s: %s, want %s" % (what, got, want))
out = {}
for x in d["designs"]:
    if not x.get("built", True):
        continue
    G, nodes, ports = x["gpus"], x["nodes"], x["gpu_ports"]
    gpn = G / nodes
    cables = x["cables"]["total"]
    inter = G * (R["rst"] + R["ck"] / 2) / 60
    fails = {f["tier"]: f for f in x["switch_failures"]}
    rows = [("GPUs", G, R["gpu"], gpn * R["rn"]), ("servers", nodes, R["host"] * gpn / 8, gpn * R["rn"]),
            ("NICs", ports, R["nic"], gpn * R["rn"]), ("software", G, R["soft"], 0)]
    for t in x["switches"]["per_tier"]:
        f = fails[t["name"]]
        # a switch's cut GPUs take their servers out whole: one GPU a server
        # on a rail's leaf, all of a server's on a fat tree's leaf
        per = gpn if x["design"] == "fat-tree" and t["name"] == "leaf" else 1
        want_drained = -(-f["gpus_cut"] // per) * gpn
        if f["gpus_drained"] != want_drained:
            errs.append("%s %s: drained %s, want %s" % (x["design"], t["name"], f["gpus_drained"], want_drained))
        drain = want_drained * R["rs"] if want_drained else float("inf")
        if f.get("slowdown") and not f.get("stalled"):
            slow = G * (1 - 1 / f["slowdown"]) * R["rs"]
        else:
            slow = float("inf") if want_drained else 0
        rows.append((t["name"] + " switches", t["switches"], R["sw"], min(drain, slow)))
    rows.append(("cables", cables, R["cable"], ports / cables * gpn * R["rc"]))
    lost = fl = net = 0
    got = {c["class"]: c for c in x["reliability"]["classes"]}
    for name, n, rate, repair in rows:
        c = got.get(name)
        if not c:
            errs.append("%s: no class %s" % (x["design"], name))
            continue
        near("%s %s failures" % (x["design"], name), c["failures"], n * rate)
        near("%s %s lost" % (x["design"], name), c["lost_gpu_hours"], n * rate * (inter + repair))
        fl += n * rate
        lost += n * rate * (inter + repair)
        if "switches" in name or name == "cables":
            net += n * rate * (inter + repair)
    r = x["reliability"]
    near(x["design"] + " failures", r["failures"], fl)
    near(x["design"] + " lost", r["lost_gpu_hours"], lost)
    near(x["design"] + " network lost", r["network_lost_gpu_hours"], net)
    near(x["design"] + " goodput", r["goodput"], 1 - lost / (G * 8766))
    near(x["design"] + " dollars", r["lost_usd"], lost * R["price"], 1e-6)
    near(x["design"] + " dollars over the years", r["lost_usd_years"], lost * R["price"] * R["years"], 1e-6)
    out[x["design"]] = (r, lost)
if mode == "custom":
    ro, rl = out["rail-optimized"][0], out["rail-only"][0]
    if not rl["network_lost_gpu_hours"] < ro["network_lost_gpu_hours"]:
        errs.append("rail-only %s not below rail-optimized %s" % (rl["network_lost_gpu_hours"],
                                                                 ro["network_lost_gpu_hours"]))
    text = open(sys.argv[3]).read()
    row = [l for l in text.splitlines() if l.startswith("GPU-hours the network loses a year")][0]
    want = [format(round(out[k][0]["network_lost_gpu_hours"]), ",")
            for k in ("rail-optimized", "rail-only", "fat-tree")]
    if row.split()[6:] != want:
        errs.append("text row %s, want %s" % (row, want))
    rows = {r["design"]: r for r in csv.DictReader(open(sys.argv[4]))}
    for k in out:
        near(k + " csv goodput", float(rows[k]["goodput"]), out[k][0]["goodput"], 1e-5)
else:
    # a workload: some switch class runs slowed, or drains, as the cheaper says
    kinds = set(c.get("repair") for x in d["designs"] for c in x["reliability"]["classes"])
    if not kinds & {"slowed", "drain"}:
        errs.append("no switch class says how it is repaired: %s" % kinds)
print("\n".join(errs) if errs else "ok")
EOF
}
expect_eq "reliability against the closed form" "$(check "$TMP/c.json" custom "$TMP/c.txt" "$TMP/c.csv")" ok
expect_eq "reliability with a workload, defaults" "$(check "$TMP/m.json" defaults)" ok

# a bad rate, at its key
sed 's/^cost:/reliability:\n  switch_rate: -1\ncost:/' "$EX/superpod-4su.yaml" >"$TMP/bad.yaml"
"$RAILYARD" compare "$TMP/bad.yaml" >"$TMP/o" 2>"$TMP/e"
expect_eq "a negative rate: exit" $? 1
line=$(grep -n "^  switch_rate:" "$TMP/bad.yaml" | cut -d: -f1)
grep -q "bad.yaml:$line:[0-9]*: .*reliability.switch_rate" "$TMP/e"
expect_eq "a negative rate: at its key ($(head -c 200 "$TMP/e"))" $? 0
expect_eq "a negative rate: nothing printed" "$(wc -c <"$TMP/o" | tr -d ' ')" 0
finish
