#!/bin/sh
# One rule for units (railyard-spec(5), UNITS), from the outside: a spec's
# numbers with their units or prefixes give the same outputs as the plain
# numbers; optimize's columns say bytes or bits and hold what they say;
# traffic's link rates and utilisation against a computation here from
# links.csv, the model's iteration time and the spec's link speed.
# (Every key's suffixes and range errors: tests/unit/spec_keys_test.)
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

# ---- counts: 4k GPUs is 4000, 4Ki is 4096 ----------------------------------------
spec() {    # spec FILE GPUS SLACK POWER
    printf 'name: u\ncluster: {gpus: %s}\nfabric: {switch: {radix: 64}}\n' "$2" >"$1"
    printf 'layout: {slack: %s, hall_power: %s, rack_units: 48U}\n' "$3" "$4" >>"$1"
    printf 'cost: {transceiver: %s}\n' "$5" >>"$1"
}
spec "$TMP/plain.yaml" 4000 0.5 20000 374
spec "$TMP/units.yaml" 4k 50cm 20MW 0.374k
spec "$TMP/plain2.yaml" 4096 0.5 20000 374
spec "$TMP/units2.yaml" 4Ki "0.5 m" "20000 kW" "374 USD"
for f in plain units plain2 units2; do
    "$RAILYARD" bom --format json "$TMP/$f.yaml" >"$TMP/$f.json" 2>"$TMP/$f.err"
    expect_eq "bom $f: exit" $? 0
    "$RAILYARD" cabling "$TMP/$f.yaml" -o "$TMP/$f.cab" >/dev/null 2>>"$TMP/$f.err"
    expect_eq "cabling $f: exit" $? 0
done
expect_eq "4k GPUs" "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpus"])' "$TMP/units.json")" 4000
expect_eq "4Ki GPUs" "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpus"])' "$TMP/units2.json")" 4096
cmp -s "$TMP/plain.json" "$TMP/units.json" && ok || fail "4k, 50cm, 20MW, 0.374k: another bill of materials than 4000, 0.5, 20000, 374"
cmp -s "$TMP/plain2.json" "$TMP/units2.json" && ok || fail "4Ki, '0.5 m', '20000 kW': another bill of materials than the plain numbers"
diff -r "$TMP/plain.cab" "$TMP/units.cab" >/dev/null && ok || fail "slack 50cm: other cables than slack 0.5"

# ---- range errors name the unit ------------------------------------------------------
"$RAILYARD" validate --set layout.slack="60 m" "$TMP/plain.yaml" >/dev/null 2>"$TMP/e"
expect_eq "slack 60 m: exit" $? 1
grep -q "error: layout.slack must be 0\.\.50 metres (got 60 m)\$" "$TMP/e" && ok || fail "slack 60 m: $(cat "$TMP/e")"
"$RAILYARD" validate --set cluster.gpus=5M "$TMP/plain.yaml" >/dev/null 2>"$TMP/e"
grep -q "error: cluster.gpus is too large (got 5M; at most [0-9]* GPUs)\$" "$TMP/e" && ok || fail "5M GPUs: $(cat "$TMP/e")"
"$RAILYARD" validate --set layout.slack=0.5M "$TMP/plain.yaml" >/dev/null 2>"$TMP/e"
grep -q "error: layout.slack must be 0\.\.50 metres, optionally followed by m, cm, mm, km or metres (got 0.5M)\$" "$TMP/e" \
    && ok || fail "slack 0.5M (mega): $(cat "$TMP/e")"

# ---- optimize: GB/s columns say so, and bandwidth_gbps is bits -------------------------
"$RAILYARD" optimize "$EX/libra-gpt3.yaml" --format csv >"$TMP/o.csv" 2>"$TMP/e"
expect_eq "optimize csv: exit" $? 0
"$RAILYARD" optimize "$EX/libra-gpt3.yaml" --format json >"$TMP/o.json" 2>"$TMP/e"
expect_eq "optimize json: exit" $? 0
"$PY" - "$TMP/o.csv" "$TMP/o.json" >"$TMP/chk" <<'P'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
j = json.load(open(sys.argv[2]))
head = list(rows[0].keys())
want = ["dim", "name", "block", "size", "unit_cost_usd_per_gbytes_per_s", "traffic_gbytes",
        "bandwidth_gbytes_per_s", "bandwidth_gbps", "busy_s", "baseline_bandwidth_gbytes_per_s",
        "baseline_busy_s", "time_s", "libra_cost_usd", "baseline_time_s", "baseline_libra_cost_usd",
        "speedup", "perf_per_cost_gain"]
if head != want:
    print("header", head)
dims = [r for r in rows if r["dim"] != "total"]
for r, d, bw in zip(dims, j["dimensions"], j["optimum"]["bandwidth_gbytes_per_s"]):
    gB, gb = float(r["bandwidth_gbytes_per_s"]), float(r["bandwidth_gbps"])
    # the bits figure is 8 times the bytes figure, and the bytes are the JSON's GB/s
    if abs(gB - gb / 8) > 1e-6 * gB:
        print("dim", r["name"], "GB/s", gB, "Gb/s / 8", gb / 8)
    if abs(gB - bw) > 1e-6 * bw or abs(d["bandwidth_gbytes_per_s"] - bw) > 1e-9 * bw:
        print("dim", r["name"], "csv", gB, "json", bw, d["bandwidth_gbytes_per_s"])
    # a busy time is the traffic in GB over the bandwidth in GB/s
    if abs(float(r["busy_s"]) - float(r["traffic_gbytes"]) / gB) > 1e-6:
        print("dim", r["name"], "busy", r["busy_s"], "traffic / GB/s", float(r["traffic_gbytes"]) / gB)
tot = [r for r in rows if r["dim"] == "total"][0]
budget = 1000   # examples/libra-gpt3.yaml: libra.budget, GB/s per NPU
if abs(float(tot["bandwidth_gbytes_per_s"]) - budget) > 1e-6 or abs(float(tot["bandwidth_gbps"]) - 8 * budget) > 1e-5:
    print("total", tot["bandwidth_gbytes_per_s"], tot["bandwidth_gbps"])
print("done")
P
expect_eq "optimize columns" "$(cat "$TMP/chk")" done
grep -q '^ *budget: 1000' "$EX/libra-gpt3.yaml" && ok || fail "examples/libra-gpt3.yaml: the budget is no longer 1000"
"$RAILYARD" optimize "$EX/libra-gpt3.yaml" --set "libra.budget=1000 GB/s" --format csv >"$TMP/o2.csv" 2>"$TMP/e"
expect_eq "optimize, budget 1000 GB/s: exit" $? 0
cmp -s "$TMP/o.csv" "$TMP/o2.csv" && ok || fail "budget '1000 GB/s': another result than 1000"
"$RAILYARD" optimize "$EX/libra-gpt3.yaml" --set "libra.budget=0GB/s" >/dev/null 2>"$TMP/e"
grep -q "error: libra.budget must be > 0 GB/s per NPU (got 0GB/s)\$" "$TMP/e" && ok || fail "budget 0GB/s: $(cat "$TMP/e")"

# ---- traffic: rates and utilisation over the iteration ---------------------------------
S="$TMP/dense.yaml"
printf 'name: dense\ncluster: {gpus: 1Ki, node: dgx-h100}\nfabric: {switch: qm9700}\n' >"$S"
printf 'workload: {model: gpt-3-175b}\n' >>"$S"
"$RAILYARD" traffic --paper "$S" -o "$TMP/tr" >"$TMP/tr.txt" 2>"$TMP/e"
expect_eq "traffic: exit" $? 0
"$RAILYARD" model --paper --format json "$S" >"$TMP/model.json" 2>"$TMP/e"
expect_eq "model: exit" $? 0
"$PY" - "$TMP/tr/links.csv" "$TMP/tr/traffic.json" "$TMP/model.json" "$TMP/tr.txt" >"$TMP/chk" <<'P'
import csv, json, re, sys
links = list(csv.DictReader(open(sys.argv[1])))
tr = json.load(open(sys.argv[2]))
T = json.load(open(sys.argv[3]))["optimum"]["total_s"]
text = open(sys.argv[4]).read()
speed = 400e9 / 8          # qm9700 and the DGX H100's NICs: 400 Gb/s, in bytes/s
net = tr["network"]
if abs(net["iteration_s"] - T) > 1e-9 * T:
    print("iteration", net["iteration_s"], T)
best = max(links, key=lambda l: max(float(l["bytes_up"]), float(l["bytes_down"])))
b = max(float(best["bytes_up"]), float(best["bytes_down"]))
util = b / (T * speed)
bl = net["busiest_link"]
if abs(bl["utilisation"] - util) > 1e-6 * util or abs(bl["gbytes_per_s"] - b / T / 1e9) > 1e-6 * b / T / 1e9:
    print("busiest", bl, "by hand", util, b / T / 1e9)
if bl["speed_gbps"] != 400:
    print("speed", bl["speed_gbps"])
for t in net["per_tier"]:
    ls = [l for l in links if int(l["tier"]) == t["tier"]]
    tot = sum(float(l["bytes_up"]) + float(l["bytes_down"]) for l in ls)
    mb = max(max(float(l["bytes_up"]), float(l["bytes_down"])) for l in ls)
    mean = tot / (2 * len(ls)) / T / 1e9
    if abs(t["mean_gbytes_per_s"] - mean) > 1e-6 * mean:
        print("tier", t["tier"], "mean", t["mean_gbytes_per_s"], mean)
    if abs(t["busiest_utilisation"] - mb / (T * speed)) > 1e-6:
        print("tier", t["tier"], "utilisation", t["busiest_utilisation"], mb / (T * speed))
# the text: the busiest link's share as a percentage, no e-notation
# (its rate with an SI prefix: "579 MB/s", "1.2 GB/s")
m = re.search(r"busiest link: ([0-9.,]+) ([kMGT]?)B/s one way .* ([0-9.]+)% of its 50 GB/s", text)
rate = m and float(m.group(1).replace(",", "")) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)] / 1e9
if not m or abs(float(m.group(3)) - 100 * util) > 0.006 or abs(rate - b / T / 1e9) > 0.05 * b / T / 1e9:
    print("text", m and m.groups(), 100 * util)
if re.search(r"[0-9]e[+-][0-9]", text):
    print("e-notation in the text")
print("done")
P
expect_eq "traffic rates and utilisation" "$(cat "$TMP/chk")" done
# ---- libra.baseline: its items take the key's unit like every number --------------------
sed 's/^  budget: 1000 .*/  budget: 1000\n  baseline: [400, 300, 200, 100]/' \
    "$TOP_SRCDIR/examples/libra-gpt3.yaml" >"$TMP/lb1.yaml"
sed 's/^  budget: 1000 .*/  budget: 1000\n  baseline: [400GB\/s, 300, 200 GB\/s, 100 GB\/s per NPU]/' \
    "$TOP_SRCDIR/examples/libra-gpt3.yaml" >"$TMP/lb2.yaml"
grep -q "400GB/s" "$TMP/lb2.yaml" && ok || fail "lb2.yaml: the edit changed nothing"
"$RAILYARD" optimize "$TMP/lb1.yaml" --format json >"$TMP/lb1.json" 2>&1
expect_eq "baseline, plain numbers: exit" $? 0
"$RAILYARD" optimize "$TMP/lb2.yaml" --format json >"$TMP/lb2.json" 2>&1
expect_eq "baseline with units: exit" $? 0
cmp -s "$TMP/lb1.json" "$TMP/lb2.json" && ok || fail "libra.baseline with units differs from plain numbers"
"$PY" -c 'import json,sys; b=json.load(open(sys.argv[1]))["baseline"]; sys.exit(0 if b else 1)' "$TMP/lb1.json" &&
    ok || fail "optimize reports no baseline"
sed 's/^  budget: 1000 .*/  budget: 1000\n  baseline: [400, 3 parsecs, 200, 100]/' \
    "$TOP_SRCDIR/examples/libra-gpt3.yaml" >"$TMP/lb3.yaml"
"$RAILYARD" optimize "$TMP/lb3.yaml" >/dev/null 2>"$TMP/lb3.err"
expect_eq "baseline with a wrong unit: exit" $? 1
grep -q "libra.baseline\[1\] must be 0..1e+12 GB/s per NPU" "$TMP/lb3.err" && ok ||
    fail "baseline unit error: $(cat "$TMP/lb3.err")"

finish
