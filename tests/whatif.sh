#!/bin/sh
# railyard whatif: failures against closed forms computed here from the
# specs' own numbers, never from railyard's outputs:
#   - a two-tier fabric losing one of its S spines keeps (S-1)/S of the
#     leaf-spine tier, of every rail's leaf uplinks, and of every HB
#     domain's network bandwidth; the worst leaf is then S/(S-1) oversubscribed;
#   - rail-only losing leaf L cuts off exactly the NICs cabling.csv cables to L,
#     and the pairs without a fabric path follow from the rail sizes;
#   - a two-plane fabric losing a plane halves B_S and doubles the
#     cross-domain data-parallel term, eq. 1 evaluated here (--paper: the
#     training checks are eq. 1's; tests/whatif-sweep.sh checks the full
#     model's);
#   - a cable by its label, as SWITCH/PORT and (for a NIC's cable) as
#     HOST/NIC is the same failure;
#   - unknown elements are refused with what was expected; --random is
#     the same for a seed;
#   - the flow engine on the fabric routed around the failures (below):
#     the data-parallel share a leaf's lost uplinks or a lost spine leave,
#     a dead route reported, --analytic giving the analytic report alone.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
E="$TOP_SRCDIR/examples"
T="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

# ---- one spine of a two-tier rail-optimized fabric ----------------------------------------
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail spine0 --alone --format json \
    >"$TMP/spine.json" 2>"$TMP/spine.err"
expect_eq "spine0 exit" $? 0
no_sanitizer "$TMP/spine.err"
"$PY" - "$E/superpod-4su.yaml" "$T/nodes.yaml" "$T/switches.yaml" "$TMP/spine.json" \
    >"$TMP/spine.out" <<'P'
import json, sys, yaml
spec, nodes, switches, out = sys.argv[1:]
s = yaml.safe_load(open(spec))
node = yaml.safe_load(open(nodes))["nodes"][s["cluster"]["node"]]
sw = yaml.safe_load(open(switches))["switches"][s["fabric"]["switch"]]
k = sw["radix"]
gpn, K = node["gpus_per_node"], node["hb_domain"]
R = K                                    # rails default to the HB domain
n = s["cluster"]["nodes"]
gpus = n * gpn
su = s["cluster"]["scalable_unit"]       # nodes per unit: one leaf per rail per unit here
units = -(-n // su)
d1 = u1 = k // 2                         # 1:1
assert su * gpn // R <= d1               # a unit's rail fits on one leaf
leaves = R * units
# the top tier: the smallest M dividing u1 with M*k >= leaves*u1 (a full Clos)
S = min(m for m in range(1, u1 + 1) if u1 % m == 0 and m * k >= leaves * u1)
j = json.load(open(out))
bad = []
def near(what, got, want, tol=1e-9):
    if abs(got - want) > tol * max(1, abs(want)):
        bad.append("%s: got %r, want %r" % (what, got, want))
tiers = {t["tier"]: t for t in j["tiers"]}
near("leaf-spine capacity_kept", tiers["leaf-spine"]["capacity_kept"], (S - 1) / S)
near("leaf-spine links", tiers["leaf-spine"]["links"], leaves * u1)
near("leaf-spine links_up", tiers["leaf-spine"]["links_up"], leaves * u1 * (S - 1) // S)
near("gpu-leaf capacity_kept", tiers["gpu-leaf"]["capacity_kept"], 1.0)
# every rail: its GPUs' cables, all up, and its leaves' uplinks, (S-1)/S up
for r in j["rails"]:
    g = gpus // R
    want = (g + units * u1 * (S - 1) / S) / (g + units * u1)
    near("rail %d capacity_kept" % r["rail"], r["capacity_kept"], want)
# the fullest leaf (a whole unit's rail) is the worst
near("worst oversubscription", j["oversubscription"]["worst_after"],
     (su * gpn // R) / (u1 * (S - 1) / S))
c = j["connectivity"]
for key in ("gpus_cut", "nic_ports_cut", "pairs_no_fabric_path", "pairs_unreachable"):
    near(key, c[key], 0)
near("links_down", j["links_down"], leaves * u1 // S)
print("S =", S, "leaves =", leaves)
for b in bad:
    print("FAIL:", b)
P
expect_eq "the checker ran" $? 0
expect_eq "spine closed forms" "$(grep -c '^FAIL' "$TMP/spine.out")" 0
grep '^FAIL' "$TMP/spine.out"

# ... and every HB domain keeps (S-1)/S of its network bandwidth for training
cat >"$TMP/gpt.yaml" <<'Y'
workload:
  model: gpt-3-175b
Y
sed '/^cost:/,$d' "$E/superpod-4su.yaml" >"$TMP/sp.yaml"
cat "$TMP/gpt.yaml" >>"$TMP/sp.yaml"
"$RAILYARD" whatif "$TMP/sp.yaml" --fail spine0 --alone --paper --format json >"$TMP/spt.json" 2>"$TMP/spt.err"
expect_eq "spine0 with a workload exit" $? 0
"$PY" - "$TMP/spt.json" >"$TMP/spt.out" <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
t = j["training"]
leafspine = [x for x in j["tiers"] if x["tier"] == "leaf-spine"][0]
keep = leafspine["links_up"] / leafspine["links"]     # (S-1)/S, checked above
if abs(t["bs_ratio"] - keep) > 1e-9:
    print("FAIL: bs_ratio %r, want %r" % (t["bs_ratio"], keep))
if abs(t["dp_cross_after_s"] - t["dp_cross_before_s"] / keep) > 1e-6 * t["dp_cross_after_s"]:
    print("FAIL: dp_cross after %r, want %r" % (t["dp_cross_after_s"], t["dp_cross_before_s"] / keep))
if t["nvlink_extra_bytes_max"] != 0:
    print("FAIL: a uniform loss forwards nothing, got %r" % t["nvlink_extra_bytes_max"])
P
expect_eq "the checker ran" $? 0
expect_eq "spine0 training" "$(grep -c '^FAIL' "$TMP/spt.out")" 0
grep '^FAIL' "$TMP/spt.out"

# ... and a lost NIC: its domain keeps (K-1)/K, the GPU's all-reduce bytes
# cross NVLink out and back
"$RAILYARD" whatif "$TMP/sp.yaml" --fail node001/mlx5_0 --paper --format json >"$TMP/nic.json" 2>&1
expect_eq "NIC with a workload exit" $? 0
"$PY" - "$TMP/sp.yaml" "$T/nodes.yaml" "$T/llms.yaml" "$TMP/nic.json" >"$TMP/nic.out" <<'P'
import json, sys, yaml
spec, nodes, llms, out = sys.argv[1:]
s = yaml.safe_load(open(spec))
node = yaml.safe_load(open(nodes))["nodes"][s["cluster"]["node"]]
llm = yaml.safe_load(open(llms))["llms"][s["workload"]["model"]]
N = s["cluster"]["nodes"] * node["gpus_per_node"]
K = node["hb_domain"]
l, d = llm["layers"], llm["d_model"]
V = l * 2 * (12 * d * d * 2) * (N // K - 1) / N      # one GPU's stage-1 bytes
j = json.load(open(out))
for side in (j, j["counterpart"]):
    t = side["training"]
    for what, got, want in (("bs_ratio", t["bs_ratio"], (K - 1) / K),
                            ("dp_cross after", t["dp_cross_after_s"], t["dp_cross_before_s"] * K / (K - 1)),
                            ("V", t["allreduce_bytes_per_gpu"], V),
                            ("NVLink bytes, busiest GPU", t["nvlink_extra_bytes_max"], 2 * V),
                            ("NVLink bytes, all", t["nvlink_extra_bytes_total"], 2 * V)):
        if abs(got - want) > 1e-8 * abs(want):
            print("FAIL: %s: got %r, want %r" % (what, got, want))
P
expect_eq "the checker ran" $? 0
expect_eq "NIC forwarding" "$(grep -c '^FAIL' "$TMP/nic.out")" 0
grep '^FAIL' "$TMP/nic.out"

# ---- a leaf of a rail-only fabric against cabling.csv -----------------------------------------
RO="--set fabric.design=rail-only"
# shellcheck disable=SC2086
"$RAILYARD" cabling "$E/superpod-4su.yaml" $RO -o "$TMP/cab" >/dev/null 2>"$TMP/cab.err"
expect_eq "rail-only cabling exit" $? 0
for L in leaf0 leaf5 leaf13; do
    # shellcheck disable=SC2086
    "$RAILYARD" whatif "$E/superpod-4su.yaml" $RO --fail $L --format json >"$TMP/$L.json" \
        2>"$TMP/$L.err"
    expect_eq "rail-only $L exit" $? 0
    no_sanitizer "$TMP/$L.err"
    "$PY" - "$TMP/cab/cabling/cabling.csv" "$L" "$TMP/$L.json" >"$TMP/$L.out" <<'P'
import csv, json, sys
path, leaf, out = sys.argv[1:]
rows = list(csv.DictReader(open(path)))
cabled = sorted("%s/%s" % (r["a_device"], r["a_port"]) for r in rows
                if r["z_device"] == leaf and r["tier"] == "1")
rail_size = {}
for r in rows:
    if r["tier"] == "1":
        rail_size[r["rail"]] = rail_size.get(r["rail"], 0) + 1
j = json.load(open(out))
c = j["connectivity"]
got = sorted(c["nics_cut"])
if got != cabled:
    print("FAIL: %s cut %d NICs, cabling.csv cables %d to it (first difference: %s)"
          % (leaf, len(got), len(cabled), sorted(set(got) ^ set(cabled))[:3]))
if c["gpus_cut"] != len(cabled):
    print("FAIL: gpus_cut %d, want %d" % (c["gpus_cut"], len(cabled)))
# no fabric path: every pair across rails, and the cut GPUs with their own rail
N = sum(rail_size.values())
cross = (N * N - sum(v * v for v in rail_size.values())) // 2
rail = [r["rail"] for r in rows if r["z_device"] == leaf and r["tier"] == "1"][0]
x = len(cabled)
same = x * (rail_size[rail] - x) + x * (x - 1) // 2
if c["pairs_no_fabric_path_before"] != cross:
    print("FAIL: pairs without a path before %d, want %d" % (c["pairs_no_fabric_path_before"], cross))
if c["pairs_no_fabric_path"] != cross + same:
    print("FAIL: pairs without a path %d, want %d" % (c["pairs_no_fabric_path"], cross + same))
# an HB domain of 8 has its other rails: NVLink reaches everyone
if c["pairs_unreachable"] != 0 or c["pairs_forwarded_nvlink"] != cross + same:
    print("FAIL: forwarded %d unreachable %d" % (c["pairs_forwarded_nvlink"], c["pairs_unreachable"]))
P
expect_eq "the checker ran" $? 0
    expect_eq "rail-only $L cuts its cabled NICs" "$(grep -c '^FAIL' "$TMP/$L.out")" 0
    grep '^FAIL' "$TMP/$L.out"
done

# ---- a plane of a two-plane fabric: B_S halves, the DP term doubles ------------------------
cat "$E/b200-2plane.yaml" "$TMP/gpt.yaml" >"$TMP/2p.yaml"
"$RAILYARD" whatif "$TMP/2p.yaml" --fail plane1 --paper --format json >"$TMP/2p.json" 2>"$TMP/2p.err"
expect_eq "plane1 exit" $? 0
no_sanitizer "$TMP/2p.err"
"$PY" - "$TMP/2p.yaml" "$T/nodes.yaml" "$T/llms.yaml" "$TMP/2p.json" >"$TMP/2p.out" <<'P'
import json, sys, yaml
spec, nodes, llms, out = sys.argv[1:]
s = yaml.safe_load(open(spec))
node = yaml.safe_load(open(nodes))["nodes"][s["cluster"]["node"]["name"]]
llm = yaml.safe_load(open(llms))["llms"][s["workload"]["model"]]
j = json.load(open(out))
N = s["cluster"]["nodes"] * node["gpus_per_node"]
K = node["hb_domain"]
P = s["cluster"]["planes"]
nic = float(s["cluster"]["node"]["nic_speed"].rstrip("G"))
B_S = nic * P * 1e9 / 8                       # bytes/s per GPU, every plane
l, d = llm["layers"], llm["d_model"]
S_T = 12 * d * d * 2                          # fp16: two bytes per element
NDf = N // K
dp = l * 2 * S_T * (NDf - 1) / (N * B_S)      # eq. 1, DP across domains
bad = []
def near(what, got, want):
    if abs(got - want) > 1e-8 * abs(want):
        bad.append("%s: got %r, want %r" % (what, got, want))
for side in (j, j["counterpart"]):
    t = side["training"]
    near("B_S before", t["bs_before_bytes_per_s"], B_S)
    near("B_S after", t["bs_after_bytes_per_s"], B_S / 2)
    near("dp_cross before", t["dp_cross_before_s"], dp)
    near("dp_cross after", t["dp_cross_after_s"], 2 * dp)
    near("T_iter after - before", t["t_iter_after_s"] - t["t_iter_before_s"], dp)
    planes = side["planes"]
    near("plane 1 kept", planes[1]["capacity_kept"] + 1, 1)
    near("plane 0 kept", planes[0]["capacity_kept"], 1)
    c = side["connectivity"]
    near("GPUs with a plane lost", c["gpus_degraded"], N)
for b in bad:
    print("FAIL:", b)
P
expect_eq "the checker ran" $? 0
expect_eq "plane closed forms" "$(grep -c '^FAIL' "$TMP/2p.out")" 0
grep '^FAIL' "$TMP/2p.out"

# ---- one cable, three names -------------------------------------------------------------------
"$RAILYARD" cabling "$E/superpod-4su.yaml" -o "$TMP/cab2" >/dev/null 2>&1
# the first switch-to-switch cable and the first NIC cable of cabling.csv
sw_label=$(awk -F, 'NR > 1 && $23 + 0 == 2 { print $1; exit }' "$TMP/cab2/cabling/cabling.csv")
nic_label=$(awk -F, 'NR > 1 && $23 + 0 == 1 { print $1; exit }' "$TMP/cab2/cabling/cabling.csv")
nic_name=$(awk -F, 'NR > 1 && $23 + 0 == 1 { print $5 "/" $7; exit }' "$TMP/cab2/cabling/cabling.csv")
strip() { "$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); j.pop("failed"); j["counterpart"].pop("failed"); print(json.dumps(j, sort_keys=True))' "$1"; }
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "$sw_label" --format json >"$TMP/l1.json"
expect_eq "fail by label exit" $? 0
canon=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["failed"][0])' "$TMP/l1.json")
case $canon in */*) ok ;; *) fail "a cable is named SWITCH/PORT (got '$canon')" ;; esac
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "$canon" --format json >"$TMP/l2.json"
expect_eq "label = SWITCH/PORT" "$(strip "$TMP/l1.json")" "$(strip "$TMP/l2.json")"
expect_eq "one link down" "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["links_down"])' "$TMP/l1.json")" 1
# whatif's name of the cable is its upper end in cabling.csv (z_device/z_port)
expect_eq "whatif's SWITCH/PORT = cabling.csv's z_device/z_port" \
    "$(awk -F, -v L="$sw_label" 'NR > 1 && $1 == L { print $12 "/" $14; exit }' "$TMP/cab2/cabling/cabling.csv")" "$canon"
# and by its lower switch end's number (a_device/a_port)
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "$(awk -F, -v L="$sw_label" 'NR > 1 && $1 == L { print $5 "/" $7; exit }' "$TMP/cab2/cabling/cabling.csv")" \
    --format json >"$TMP/l4.json"
expect_eq "label = a_device/a_port of cabling.csv" "$(strip "$TMP/l1.json")" "$(strip "$TMP/l4.json")"
# the same cable by its switch end's cage form in cabling.csv (a_device/a_cage_port)
sw_port=$(awk -F, -v L="$sw_label" 'NR > 1 && $1 == L { print $5 "/" $8; exit }' "$TMP/cab2/cabling/cabling.csv")
case $sw_port in leaf*/*/*|spine*/*/*) ok ;; *) fail "cabling.csv's switch end is '$sw_port', not SWITCH/CAGE/PORT" ;; esac
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "$sw_port" --format json >"$TMP/l3.json"
expect_eq "label = SWITCH/CAGE/PORT of cabling.csv" "$(strip "$TMP/l1.json")" "$(strip "$TMP/l3.json")"
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "$nic_label" --format json >"$TMP/n1.json"
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "$nic_name" --format json >"$TMP/n2.json"
expect_eq "NIC label = HOST/NIC" "$(strip "$TMP/n1.json")" "$(strip "$TMP/n2.json")"
expect_eq "HOST/NIC named" "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["failed"][0])' "$TMP/n2.json")" "$nic_name"

# ---- errors -----------------------------------------------------------------------------------
for bad in leaf9999 nosuch node001/mlx5_99 leaf0/999 rail8 plane1 superpod-4su-999999; do
    "$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "$bad" >"$TMP/bad.out" 2>"$TMP/bad.err"
    rc=$?
    expect_eq "--fail $bad exit" $rc 2
    expect_eq "--fail $bad writes nothing" "$(wc -c <"$TMP/bad.out" | tr -d ' ')" 0
    if grep -q "expected" "$TMP/bad.err" && grep -q -- "$bad" "$TMP/bad.err"; then ok; else
        fail "--fail $bad: no error naming it and what was expected"; cat "$TMP/bad.err"; fi
done
for bad in leaf:x bogus:1 leaf:1000 ":"; do
    "$RAILYARD" whatif "$E/superpod-4su.yaml" --random "$bad" >/dev/null 2>"$TMP/bad.err"
    expect_eq "--random $bad exit" $? 2
done
"$RAILYARD" whatif "$E/superpod-4su.yaml" >/dev/null 2>&1
expect_eq "nothing to fail exit" $? 2
# -o DIR: the subnet as railyard opensm lays it out, without the failed
# elements, its tables routed around them (proven by check-routes; the
# router's own tests are tests/reroute*.sh); the report still on stdout.
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail spine3,leaf5,node001/mlx5_0 --alone \
    -o "$TMP/routed" >"$TMP/o.out" 2>"$TMP/o.err"
expect_eq "-o DIR exit" $? 0
no_sanitizer "$TMP/o.err"
grep -q "1 subnet routed around the failures written to $TMP/routed/opensm/" "$TMP/o.err" && ok ||
    fail "-o DIR: no line naming what was written: $(cat "$TMP/o.err")"
grep -q "^failed: spine3, leaf5" "$TMP/o.out" && ok || fail "-o DIR: no report on stdout"
P0="$TMP/routed/opensm/plane0"
for f in topology.net lfts.dump guid2lid root_guids.conf cn_guids.conf opensm.conf; do
    [ -s "$P0/$f" ] && ok || fail "-o DIR: no $f"
done
grep -q '"spine3"' "$P0/topology.net" && fail "spine3 is still in topology.net" || ok
grep -q '"leaf5"' "$P0/topology.net" && fail "leaf5 is still in topology.net" || ok
grep -q '"leaf4"' "$P0/topology.net" && ok || fail "leaf4 is missing from topology.net"
"$RAILYARD" opensm "$E/superpod-4su.yaml" -o "$TMP/healthy" >/dev/null 2>&1
"$PY" - "$TMP/healthy/opensm/plane0/topology.net" "$P0/topology.net" >"$TMP/o.chk" <<'P'
import re, sys
def switches(p):
    return re.findall(r'^Switch\s+\d+\s+"[^"]+"\s+#\s+"([^"]+)"', open(p).read(), re.M)
h, r = switches(sys.argv[1]), switches(sys.argv[2])
if sorted(set(h) - set(r)) != ["leaf5", "spine3"]:
    print("FAIL: switches gone %r, want leaf5 and spine3" % sorted(set(h) - set(r)))
P
grep FAIL "$TMP/o.chk" && fail "-o DIR: the switches written" || ok
"$RAILYARD" check-routes "$P0" --updown >"$TMP/o.rc" 2>&1
expect_eq "check-routes --updown on the re-routed subnet" $? 0
grep -q "^check-routes: ok" "$TMP/o.rc" && ok || fail "check-routes: $(tail -3 "$TMP/o.rc")"

# ---- --random: the same for a seed, of the kinds asked -----------------------------------------
r() { "$RAILYARD" whatif "$E/superpod-4su.yaml" --random leaf:2,spine:1,nic:3 --seed "$1" --format json; }
r 5 >"$TMP/r5a.json"; r 5 >"$TMP/r5b.json"
if cmp -s "$TMP/r5a.json" "$TMP/r5b.json"; then ok; else fail "--random --seed 5 differs between runs"; fi
"$PY" - "$TMP/r5a.json" >"$TMP/r.out" <<'P'
import json, re, sys
f = json.load(open(sys.argv[1]))["failed"]
kinds = [("leaf" if re.fullmatch(r"leaf\d+", x) else "spine" if re.fullmatch(r"spine\d+", x)
          else "nic" if re.fullmatch(r"node\d+/mlx5_\d+", x) else "?") for x in f]
if sorted(kinds) != sorted(["leaf"] * 2 + ["spine"] + ["nic"] * 3) or len(set(f)) != len(f):
    print("FAIL: drew", f)
P
expect_eq "the checker ran" $? 0
expect_eq "--random kinds" "$(grep -c '^FAIL' "$TMP/r.out")" 0
cat "$TMP/r.out"
differs=0
for seed in 6 7 8 9; do
    r $seed >"$TMP/rs.json"
    cmp -s "$TMP/r5a.json" "$TMP/rs.json" || differs=1
done
expect_eq "other seeds draw other sets" $differs 1

# ---- as built: a cable left out of the discovered fabric is down before ---------------------
IB=$TOP_SRCDIR/tests/data/ib/ro-2tier-h100.yaml
"$RAILYARD" opensm "$IB" -o "$TMP/plan" >/dev/null 2>&1 || fail "opensm on the plan"
"$PY" - "$TMP/plan/opensm/plane0/topology.net" "$TMP/asbuilt.net" <<'P'
import sys
src, dst = sys.argv[1:]
out = []
for b in open(src).read().split("\n\n"):
    # node001 mlx5_0's CA and the leaf port that cables it: the cable is missing
    if "\nCa\t" in "\n" + b and '"node001 mlx5_0"' in b:
        continue
    out.append("\n".join(l for l in b.split("\n") if '"node001 mlx5_0"' not in l))
open(dst, "w").write("\n\n".join(out))
P
"$RAILYARD" whatif "$IB" --fabric "$TMP/asbuilt.net" --format json >"$TMP/ab.json" 2>"$TMP/ab.err"
expect_eq "--fabric alone exit" $? 0
no_sanitizer "$TMP/ab.err"
"$RAILYARD" whatif "$IB" --fabric "$TMP/asbuilt.net" --fail node001/mlx5_0,spine0 --format json \
    >"$TMP/ab2.json" 2>"$TMP/ab2.err"
expect_eq "--fabric with --fail exit" $? 0
"$RAILYARD" whatif "$IB" --fail node001/mlx5_0,spine0 --format json >"$TMP/ab3.json" 2>&1
"$PY" - "$TMP/ab.json" "$TMP/ab2.json" "$TMP/ab3.json" >"$TMP/ab.out" <<'P'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:])
def check(what, got, want):
    if got != want:
        print("FAIL: %s: got %r, want %r" % (what, got, want))
check("as-built links down", a["as_built_links_down"], 1)
check("as-built: the NIC cut", a["connectivity"]["nics_cut"], ["node001/mlx5_0"])
check("as-built: GPUs cut", a["connectivity"]["gpus_cut"], 1)
check("as-built: one link down", a["links_down"], 1)
# failing the missing cable again changes nothing: the same as without --fabric
# "before" of the as-built already lacks the cable
check("pairs without a path before", b["connectivity"]["pairs_no_fabric_path_before"],
      b["connectivity"]["gpus"] - 1)
b["connectivity"].pop("pairs_no_fabric_path_before")
c["connectivity"].pop("pairs_no_fabric_path_before")
for key in ("links_down", "connectivity", "tiers", "rails", "units", "training"):
    check("as built + failures = failures: " + key, b[key], c[key])
P
expect_eq "the checker ran" $? 0
expect_eq "--fabric" "$(grep -c '^FAIL' "$TMP/ab.out")" 0
grep '^FAIL' "$TMP/ab.out"
"$RAILYARD" whatif "$IB" --fabric "$TMP/nosuch.net" >/dev/null 2>&1
expect_eq "--fabric unreadable exit" $? 3

# a rail swap (two NICs of one host trade cables) leaves both NICs cabled to
# the fabric: nothing is down before, no GPU is cut off
"$PY" "$TOP_SRCDIR/tests/verify-inject.py" --plan "$TMP/plan/opensm" --out "$TMP/rswap" \
    --expect "$TMP/rswap.exp" --seed 3 --fault rail-swap >/dev/null
expect_eq "rail-swap injected" $? 0
"$RAILYARD" whatif "$IB" --fabric "$TMP/rswap/plane0/topology.net" --format json >"$TMP/rs.json" 2>"$TMP/rs.err"
expect_eq "--fabric with a rail swap: exit" $? 0
expect_eq "--fabric with a rail swap: down, cut" "$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["connectivity"]; print(d["as_built_links_down"], c["gpus_cut"], len(c["nics_cut"]))' "$TMP/rs.json")" "0 0 0"

# ---- text: aligned columns, both designs ----------------------------------------------------
# leaves are named unit-major: unit u's rail r is leaf(u*8 + r); rail 0 of the
# last unit (u = 3) is leaf24 and serves 127 - 3*32 = 31 nodes
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail leaf$((3 * 8 + 0)) >"$TMP/t.txt" 2>"$TMP/t.err"
expect_eq "text exit" $? 0
grep -q "rail-optimized (spec) *rail-only" "$TMP/t.txt" && ok || fail "no design header"
grep -q "GPUs cut off the network  *31  *31$" "$TMP/t.txt" && ok || {
    fail "leaf24 of superpod-4su cuts 31 GPUs on both designs"; cat "$TMP/t.txt"; }

# A list with blanks, and an element given twice: one failure each.
"$RAILYARD" whatif "$E/superpod-4su.yaml" --fail "leaf1, leaf1 ,spine0" --alone >"$TMP/dup.txt" 2>&1
expect_eq "--fail with blanks and a repeat: exit" $? 0
grep -q "^failed: leaf1, spine0$" "$TMP/dup.txt" && ok || fail "--fail list: $(grep '^failed' "$TMP/dup.txt")"

# ---- the flow engine on the degraded fabric --------------------------------------------------
# A non-blocking two-tier fat tree of radix-16 switches (InfiniBand, and
# Ethernet at the same 400G), routing adaptive: a leaf takes one 8-GPU node
# on its R/2 down ports and has U = R/2 uplinks, one to each of S = L U / R
# spines (L = 128 / 8 leaves). Tensor 8 x data 16: the data-parallel
# reduction runs as 8 rings (one per tensor position) through the 16 nodes,
# each leaving every leaf once: U flows out of a leaf and U in, each at its
# NIC's rate on a healthy fabric. Closed forms (the even spread over the
# live up-down ports, or over BGP's live next hops):
#   - k of leaf0's uplinks down: its U flows out (and in) share U - k
#     links, share (U - k) / U; the exposed data-parallel time (overlap 0)
#     is the healthy one over it;
#   - j spines down: every leaf keeps U - j uplinks, share (S - j) / S;
#   - a NIC down: the other g - 1 GPUs of its node relay its ring's flows
#     over NVLink, each NIC carrying 1 + 1/(g - 1) of its own: share
#     (g - 1)/g, the analytic bandwidth kept too;
#   - a leaf down (below): its node's every port, nothing can relay: the
#     phase has no route, reported, not timed.
for net in ib:qm9700 eth:sn5600-400g; do
    sw=${net#*:}
    net=${net%%:*}
    cat >"$TMP/ft-$net.yaml" <<Y
version: 1
name: ft-128
cluster:
  nodes: 16
  node: hgx-h100
fabric:
  design: fat-tree
  switch: {name: $sw, radix: 16}
  oversubscription: "1:1"
  tiers: 2
network:
  routing: adaptive
workload:
  model: llama-3-8b
  gpu: h100
  batch: 64
  recompute: none
  parallelism: {tensor: 8, data: 16, pipeline: 1, virtual: 1, micro_batch: 1}
  overlap: {data: 0}
Y
    # leaf0's ports: 1..8 down to its node, 9..16 up
    for run in k3:leaf0/9,leaf0/10,leaf0/11 s1:spine0 s2:spine0,spine5 nic:node003/mlx5_0; do
        "$RAILYARD" whatif "$TMP/ft-$net.yaml" --alone --fail "${run#*:}" --format json \
            >"$TMP/e-$net-${run%%:*}.json" 2>"$TMP/e.err"
        expect_eq "engine $net: ${run#*:} exit" $? 0
        no_sanitizer "$TMP/e.err"
    done
done
cp "$TMP/ft-ib.yaml" "$TMP/ft.yaml"
"$PY" - "$TMP" >"$TMP/e.out" <<'P'
import json, sys
tmp = sys.argv[1]
R, gpus, gpn = 16, 128, 8
U = R // 2                     # a leaf's uplinks (1:1), one node below it
L = gpus // gpn
S = L * U // R
bad = []
def near(what, got, want, tol=1e-6):
    if got is None or abs(got - want) > tol * max(1, abs(want)):
        bad.append("%s: got %r, want %r" % (what, got, want))
for net in ("ib", "eth"):
    for name, links_down, want in (("k3", 3, (U - 3) / U), ("s1", L, (S - 1) / S),
                                   ("s2", 2 * L, (S - 2) / S)):   # a spine: one link to each leaf
        j = json.load(open("%s/e-%s-%s.json" % (tmp, net, name)))
        name = net + " " + name
        tiers = {t["tier"]: t for t in j["tiers"]}
        near(name + " leaf-spine links up", tiers["leaf-spine"]["links_up"], L * U - links_down, 0)
        e = j["engine"]
        b, a = e["before"], e["after"]
        print("%s: data-parallel share %r (closed form %r), analytic bandwidth kept %r"
              % (name, a["share_data"], want, j["training"]["bs_ratio"]))
        near(name + " routing", 0 if e["routing"] == "adaptive" else 1, 0, 0)
        near(name + " share before", b["share_data"], 1.0)
        near(name + " share after", a["share_data"], want)
        near(name + " data-parallel time", a["dp_cross_s"], b["dp_cross_s"] / want)
        near(name + " before = the healthy model", b["t_iter_s"], j["training"]["t_iter_before_s"])
        near(name + " slowdown", e["slowdown"], a["t_iter_s"] / b["t_iter_s"], 1e-9)
        if e["stalled"] or a["unrouted_phases"] or a["no_route"] is not None:
            bad.append("%s: a route is missing: %r" % (name, a))
for net in ("ib", "eth"):
    j = json.load(open("%s/e-%s-nic.json" % (tmp, net)))
    e = j["engine"]
    b, a = e["before"], e["after"]
    name = net + " nic"
    want = (gpn - 1) / gpn
    print("%s: data-parallel share %r (closed form %r), analytic bandwidth kept %r"
          % (name, a["share_data"], want, j["training"]["bs_ratio"]))
    if e["stalled"] or a["unrouted_phases"] or a["no_route"] is not None:
        bad.append("%s: a dead NIC is not relayed: %r" % (name, e))
    near(name + " share after", a["share_data"], want)
    near(name + " analytic bandwidth kept", j["training"]["bs_ratio"], want)
    near(name + " data-parallel time", a["dp_cross_s"], b["dp_cross_s"] / want)
for b in bad:
    print("FAIL: " + b)
P
expect_eq "engine closed forms: the checker ran" $? 0
expect_eq "engine closed forms" "$(grep -c '^FAIL' "$TMP/e.out")" 0
cat "$TMP/e.out"
# the dead route in the text, a failed leaf too; deterministic
"$RAILYARD" whatif "$TMP/ft.yaml" --fail leaf3 >"$TMP/e1.txt" 2>"$TMP/e.err"
expect_eq "engine: a failed leaf exit" $? 0
no_sanitizer "$TMP/e.err"
grep -q "^  fat-tree after: 1 phase without a route: no route from .* down" "$TMP/e1.txt" && ok ||
    fail "a failed leaf: no dead route reported: $(sed -n '/flow engine/,$p' "$TMP/e1.txt")"
grep -q "^  iteration time after  *stalled (no route)" "$TMP/e1.txt" && ok ||
    fail "a failed leaf: the engine's time after is not stalled"
"$RAILYARD" whatif "$TMP/ft.yaml" --fail leaf3 >"$TMP/e2.txt" 2>&1
cmp -s "$TMP/e1.txt" "$TMP/e2.txt" && ok || fail "two engine runs differ"
# --analytic: the report without the engine's section, nothing else changed
"$RAILYARD" whatif "$TMP/ft.yaml" --fail spine0 --analytic >"$TMP/an.txt" 2>&1
expect_eq "--analytic exit" $? 0
"$RAILYARD" whatif "$TMP/ft.yaml" --fail spine0 >"$TMP/en.txt" 2>&1
awk '/^on the flow engine/ { skip = 1; next } skip && /^  / { next } { skip = 0; print }' \
    "$TMP/en.txt" >"$TMP/en-cut.txt"
cmp -s "$TMP/an.txt" "$TMP/en-cut.txt" && ok || fail "--analytic differs beyond the engine's section"
grep -q "flow engine" "$TMP/an.txt" && fail "--analytic ran the engine" || ok
"$RAILYARD" whatif "$TMP/ft.yaml" --fail spine0 --analytic --format json >"$TMP/an.json" 2>&1
expect_eq "--analytic JSON has no engine" \
    "$("$PY" -c 'import json,sys; print("engine" in json.load(open(sys.argv[1])))' "$TMP/an.json")" False
finish
