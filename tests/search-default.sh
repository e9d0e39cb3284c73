#!/bin/sh
# railyard search on a spec with no search section and no --vary: the
# default space, and the warnings for ports that carry nothing and for
# unpriced switches; validate's tier-uplinks warning.
#
#   - the first line says the default space; its points are the three
#     designs x 1:1, 2:1, 4:1 x the catalog's priced switches of the spec's
#     protocol and the NIC's speed (counted here from switches.yaml with
#     PyYAML);
#   - every point is `railyard bom` of its values with the scalable unit
#     that fills its leaves (cluster.scalable_unit=0): the same capex;
#   - a point's waste column is not empty exactly when bom's JSON shows a
#     tier under 75% cabled, and the text's warning counts those points;
#   - an unpriced switch on an axis: the warning names it;
#   - a failure's slowdown is at least 1 on a tapered fabric timed on the
#     flow engine;
#   - validate: a 128-port leaf under a 32-node scalable unit cables 32
#     ports down and 64 up (a warning at cluster.scalable_unit, with those
#     numbers); a unit that fills the leaf has no such warning.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"
EX="$TOP_SRCDIR/examples"

sed '/^search:/,$d' "$EX/search-h100.yaml" >"$TMP/plain.yaml"
"$RAILYARD" -q search "$TMP/plain.yaml" -o "$TMP/out" >"$TMP/s.txt" 2>"$TMP/s.err"
expect_eq "search without a search section: exit" $? 0
no_sanitizer "$TMP/s.err"
head -n 1 "$TMP/s.txt" | grep -q "points of the default space (the three designs, leaves at 1:1, 2:1 and 4:1, the catalog's priced InfiniBand switches of 400G; scalable units that fill the leaves"
expect_eq "the first line says the default space ($(head -n 1 "$TMP/s.txt"))" $? 0

# every point against bom, with the fitted scalable unit
out=$("$PY" - "$TMP" "$TPL" "$RAILYARD" <<'EOF'
import csv, json, subprocess, sys, yaml
tmp, tpl, ry = sys.argv[1:4]
sw = yaml.safe_load(open(tpl + "/switches.yaml"))["switches"]
want_sw = [n for n, e in sw.items()
           if e.get("protocol", "infiniband") == "infiniband" and str(e["speed"]) in ("NDR", "400G")
           and e.get("price", 0) > 0]
rows = list(csv.DictReader(open(tmp + "/out/points.csv")))
errs = []
if len(rows) != 3 * 3 * len(want_sw):
    errs.append("%d points, want 3 x 3 x %d" % (len(rows), len(want_sw)))
if sorted(set(r["fabric.switch"] for r in rows)) != sorted(want_sw):
    errs.append("switches %s, want %s" % (sorted(set(r["fabric.switch"] for r in rows)), want_sw))
if sorted(set(r["fabric.oversubscription"] for r in rows)) != ["1:1", "2:1", "4:1"]:
    errs.append("tapers")
if sorted(set(r["fabric.design"] for r in rows)) != ["fat-tree", "rail-only", "rail-optimized"]:
    errs.append("designs")
wasted = 0
for r in rows:
    sets = ["--set", "fabric.design=" + r["fabric.design"],
            "--set", "fabric.oversubscription=" + r["fabric.oversubscription"],
            "--set", "fabric.switch=" + r["fabric.switch"], "--set", "cluster.scalable_unit=0"]
    b = json.loads(subprocess.run([ry, "bom", tmp + "/plain.yaml", "--format", "json"] + sets,
                                  capture_output=True, text=True).stdout)
    if abs(b["capex"]["total"] - float(r["capex"])) > 0.01:
        errs.append("point %s: capex %s, bom %s" % (r["point"], r["capex"], b["capex"]["total"]))
    low = [t["name"] for t in b["tier_detail"] if t["ports_used"] < 0.75 * t["ports"]]
    if bool(low) != bool(r["waste"]) or (low and not r["waste"].startswith(low[0] + ":")):
        errs.append("point %s: waste '%s', tiers under 75%% cabled %s" % (r["point"], r["waste"], low))
    wasted += bool(r["waste"])
text = open(tmp + "/s.txt").read()
line = [l for l in text.splitlines() if l.startswith("warning:") and "carry nothing" in l]
if wasted and (not line or not line[0].startswith("warning: %d point" % wasted)):
    errs.append("warning %s, %d points waste" % (line, wasted))
if not wasted and line:
    errs.append("a waste warning without waste: %s" % line)
print("\n".join(errs) if errs else "ok %d" % wasted)
EOF
)
echo "default space: $out"
case $out in
ok*) ok ;;
*) fail "default space against bom: $out" ;;
esac

# an unpriced switch on an axis
"$RAILYARD" -q search "$TMP/plain.yaml" --vary fabric.design=rail-optimized \
    --vary 'fabric.switch={name: mine, radix: 64, speed: NDR}' >"$TMP/u.txt" 2>"$TMP/u.err"
expect_eq "search with an unpriced switch: exit" $? 0
grep -q '^warning: 1 point prices a switch at \$0 (#1: mine has no price; set fabric.switch.price)' \
    "$TMP/u.txt"
expect_eq "the unpriced switch is named" $? 0
grep -q "default space" "$TMP/u.txt"
expect_eq "--vary: not the default space" $? 1

# a failure never speeds a job up: on a 4:1 taper the healthy time comes
# from the flow engine, and the rerun after a failure must be taken on the
# same footing (it read 0.924x before)
"$RAILYARD" -q search "$EX/decision-16k.yaml" --vary fabric.design=rail-only \
    --vary fabric.oversubscription=4:1 --vary fabric.switch=qm9790 --set cluster.scalable_unit=0 \
    -f csv >"$TMP/t.csv" 2>"$TMP/t.err"
expect_eq "a 4:1 taper: exit" $? 0
expect_eq "a 4:1 taper: the slowdown under the failures is at least 1" \
    "$("$PY" -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1])))[0]; print(float(r["slowdown"]) >= 1, r["slowdown"] != "")' "$TMP/t.csv")" "True True"

# validate: uplinks a leaf cannot fill
su=$(sed -n 's/^  scalable_unit: *\([0-9]*\).*/\1/p' "$EX/superpod-4su.yaml")
"$RAILYARD" validate "$EX/superpod-4su.yaml" --set fabric.switch=qm9700-ndr200 \
    --set fabric.accept_slower_ports=true >"$TMP/v.txt" 2>&1
grep -q "^warning: tier-uplinks: leaf: the fullest switch cables $su ports down and 64 up: $((64 - su)) uplinks more" "$TMP/v.txt"
expect_eq "validate: tier-uplinks ($(grep tier-uplinks "$TMP/v.txt"))" $? 0
"$RAILYARD" validate "$EX/superpod-4su.yaml" --set fabric.switch=qm9700-ndr200 \
    --set fabric.accept_slower_ports=true --set cluster.scalable_unit=0 --format json \
    >"$TMP/v.json" 2>/dev/null
expect_eq "validate: no tier-uplinks with a unit that fills the leaf" \
    "$("$PY" -c 'import json, sys; print([f["check"] for f in json.load(open(sys.argv[1]))["checks"]["findings"] if f["check"] == "tier-uplinks"])' "$TMP/v.json")" "[]"
finish
