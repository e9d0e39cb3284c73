#!/bin/sh
# railyard build on the bundled examples: the files, their agreement with the
# bill of materials, determinism, --set, and atomic output directories.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"

for spec in "$EX"/*.yaml; do
    b=$(basename "$spec" .yaml)
    if normal_share; then
        # the normal build's share of the full suite (tests/lib.sh): the
        # sanitizer build's run did the rest; same spec, same bytes
        "$RAILYARD" build "$spec" -o "$TMP/$b" >/dev/null 2>"$TMP/$b.err"; expect_eq "build $b" $? 0
        "$RAILYARD" build "$spec" -o "$TMP/$b.again" >/dev/null 2>&1
        diff -r "$TMP/$b" "$TMP/$b.again" >/dev/null && ok || fail "$b: second build differs"
        rm -rf "${TMP:?}/$b" "$TMP/$b.again"
        continue
    fi
    "$RAILYARD" validate "$spec" >"$TMP/$b.val" 2>"$TMP/$b.err"; expect_eq "validate $b" $? 0
    "$RAILYARD" build "$spec" -o "$TMP/$b" >/dev/null 2>>"$TMP/$b.err"; expect_eq "build $b" $? 0
    for f in summary.txt bom.json fabric.json; do
        [ -s "$TMP/$b/$f" ] && ok || fail "$b: $f missing"
    done
    ls -a "$TMP" | grep -q 'railyard-\(tmp\|stage\|old\)' && fail "$b: staging directory left behind" || ok
    # fabric.json counts equal bom.json counts; every link's ports within radix
    "$PY" - "$TMP/$b/fabric.json" "$TMP/$b/bom.json" >"$TMP/$b.py" 2>&1 <<'P'
import json, sys
fab = json.load(open(sys.argv[1])); bom = json.load(open(sys.argv[2]))
nodes = fab["nodes"]; links = fab["links"]
sw = [n for n in nodes if n["kind"] == "switch"]
gpus = [n for n in nodes if n["kind"] == "gpu"]
errs = []
if len(sw) != bom["switches"]["total"]: errs.append("switch count %d vs %d" % (len(sw), bom["switches"]["total"]))
if len(links) != bom["links"]["total"]: errs.append("link count")
if len(gpus) != bom["gpus"]: errs.append("gpu count")
for t, c in enumerate(bom["switches"]["per_tier"], 1):
    if sum(1 for n in sw if n["tier"] == t) != c: errs.append("tier %d count" % t)
seen = set()
for l in links:
    for end in ("a", "b"):
        n = nodes[l[end]["node"]]; p = l[end]["port"]
        if not 1 <= p <= n["ports"]: errs.append("port %d out of range on %s" % (p, n["name"]))
        if (n["id"], p) in seen: errs.append("port used twice: %s/%d" % (n["name"], p))
        seen.add((n["id"], p))
used = sum(n["ports_used"] for n in sw)
if used != bom["ports"]["used"]: errs.append("ports used %d vs %d" % (used, bom["ports"]["used"]))
for k in ("name", "design", "gpus", "tiers", "transceivers"):
    if k not in bom: errs.append("bom.json lacks " + k)
for k in ("total", "switches", "transceivers"):
    if k not in bom["paper_cost"]: errs.append("bom.json lacks paper_cost." + k)
if "cost" in bom: errs.append("bom.json still has cost")
print("\n".join(errs) if errs else "ok")
P
    expect_eq "$b: fabric.json agrees with bom.json" "$(cat "$TMP/$b.py")" ok
    # same spec, same bytes (under the sanitizers, for the examples under
    # 8,192 GPUs: the larger ones write the same files, more of them; in the
    # full suite, the normal build's run does it for every example)
    gpus=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpus"])' "$TMP/$b/bom.json")
    if ! sanitized || { [ "$gpus" -lt 8192 ] && ! sanitizer_share; }; then
        "$RAILYARD" build "$spec" -o "$TMP/$b.again" >/dev/null 2>&1
        diff -r "$TMP/$b" "$TMP/$b.again" >/dev/null && ok || fail "$b: second build differs"
        rm -rf "$TMP/$b.again"
    fi
    # bom --format json is the bom.json of build
    "$RAILYARD" bom "$spec" --format json >"$TMP/$b.bom.json"
    cmp -s "$TMP/$b.bom.json" "$TMP/$b/bom.json" && ok || fail "$b: bom --format json differs from bom.json"
    no_sanitizer "$TMP/$b.err"
    [ "$b" = superpod-4su ] || rm -rf "${TMP:?}/$b"    # the files below use superpod-4su's
done
normal_share && finish

# --set overrides reach the build
spec="$EX/superpod-4su.yaml"
"$RAILYARD" bom "$spec" --set cluster.nodes=64 --format json >"$TMP/set.json" 2>"$TMP/set.err"
expect_eq "--set exit" $? 0
expect_eq "--set cluster.nodes=64 gpus" "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpus"])' "$TMP/set.json")" 512
"$RAILYARD" --set fabric.switch.radix=128 bom "$spec" --format json >"$TMP/set2.json" 2>>"$TMP/set.err"
expect_eq "--set radix before the command" $? 0
expect_eq "--set radix=128 tiers" "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["radix"])' "$TMP/set2.json")" 128
no_sanitizer "$TMP/set.err"

# a failing build leaves an existing output directory as it was, and writes
# nothing new (the existing directory: the example's build from above)
cp -r "$TMP/superpod-4su" "$TMP/keep"
cp -r "$TMP/keep" "$TMP/keep.orig"
"$RAILYARD" build "$spec" --set fabric.switch.radix=63 -o "$TMP/keep" >/dev/null 2>"$TMP/bad.err"
expect_eq "bad --set build exit" $? 1
diff -r "$TMP/keep" "$TMP/keep.orig" >/dev/null && ok || fail "failed build changed the output directory"
"$RAILYARD" build "$spec" --set fabric.switch.radix=63 -o "$TMP/never" >/dev/null 2>&1
[ ! -e "$TMP/never" ] && ok || fail "failed build created its output directory"
# a rebuild into an existing directory replaces the files
"$RAILYARD" build "$spec" --set cluster.nodes=32 -o "$TMP/keep" >/dev/null 2>&1
expect_eq "rebuild exit" $? 0
grep -q '"gpus": 256' "$TMP/keep/bom.json" && ok || fail "rebuild did not replace bom.json"
# output path that is a file
: >"$TMP/afile"
"$RAILYARD" build "$spec" -o "$TMP/afile" >/dev/null 2>"$TMP/e"; rc=$?
[ "$rc" -ne 0 ] && ok || fail "build into a file succeeded"
finish
