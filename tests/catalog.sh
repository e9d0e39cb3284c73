#!/bin/sh
# railyard catalog: each section's table has one row per entry of its
# catalog file, read here with PyYAML, and its key figures as the file
# gives them; --format json holds the same entries; a bad section is a
# usage error. railyard catalog schema: a valid JSON Schema (draft-07,
# checked by python3-jsonschema) that every bundled example satisfies and
# that rejects an unknown key, a wrong type, an out-of-range value and a
# word not in a key's list, each where railyard validate rejects it too.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
T="$TOP_SRCDIR/templates"
EX="$TOP_SRCDIR/examples"

if ! "$PY" -c 'import yaml, jsonschema' 2>/dev/null; then
    fail "python3-yaml and python3-jsonschema are needed"
    finish
fi

# The text tables against the files: rows, and the figures of each entry.
for sec in switches nodes gpus llms media prices; do
    "$RAILYARD" -T "$T" catalog "$sec" >"$TMP/$sec.txt" 2>"$TMP/err" || fail "catalog $sec: exit $?"
    [ -s "$TMP/err" ] && fail "catalog $sec wrote to stderr: $(cat "$TMP/err")"
    "$RAILYARD" -T "$T" catalog "$sec" --format json >"$TMP/$sec.json" || fail "catalog $sec --format json"
done
"$PY" - "$T" "$TMP" <<'PY' >"$TMP/py.out" 2>&1 || fail "tables: $(cat "$TMP/py.out")"
import json, sys, yaml
T, D = sys.argv[1], sys.argv[2]
files = {"switches": ("switches.yaml", "switches"), "nodes": ("nodes.yaml", "nodes"),
         "gpus": ("gpus.yaml", "gpus"), "llms": ("llms.yaml", "llms"),
         "media": ("media.yaml", "media"), "prices": ("libra-costs.yaml", "technologies")}
# per section: the text column and the file key that must agree
figures = {"switches": [("radix", "radix"), ("speed", "speed"), ("price_usd", "price")],
           "nodes": [("gpus_per_node", "gpus_per_node"), ("hb_domain", "hb_domain"),
                     ("power_w", "power")],
           "gpus": [("bf16_tflops", "bf16_tflops"), ("memory_gb", "memory")],
           "llms": [("layers", "layers"), ("d_model", "d_model"), ("vocab", "vocab")],
           "media": [("kind", "kind")],
           "prices": [("link", "link"), ("switch", "switch")]}
bad = []
for sec, (f, top) in files.items():
    entries = yaml.safe_load(open(f"{T}/{f}"))[top]
    lines = open(f"{D}/{sec}.txt").read().splitlines()
    head = lines[0].split()
    rows = {l.split()[0]: l for l in lines[1:]}
    if list(rows) != list(entries):
        bad.append(f"{sec}: rows {list(rows)} != entries {list(entries)}")
        continue
    # columns are aligned: every row's cell starts or ends at its header's column
    for col, key in figures[sec]:
        i = head.index(col)
        for name, e in entries.items():
            want = e.get(key)
            cells = rows[name].split()
            # descriptions come last, so the first len(head)-1 cells are figures
            got = cells[i]
            if want is None or want == 0:
                ok = got in ("-", "0")
            elif isinstance(want, (int, float)) and not isinstance(want, bool):
                ok = float(got.replace(",", "")) == float(want)
            else:
                ok = got.lower() == str(want).lower()
            if not ok:
                bad.append(f"{sec} {name} {col}: table '{got}', file '{want}'")
    j = json.load(open(f"{D}/{sec}.json"))
    if list(j) != [sec] or [e["name"] for e in j[sec]] != list(entries):
        bad.append(f"{sec}: json names differ from the file")
    for e in j[sec]:
        if "description" in entries[e["name"]] and e.get("description") != entries[e["name"]]["description"]:
            bad.append(f"{sec} {e['name']}: json description differs")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
[ -s "$TMP/py.out" ] || ok

# Every section at once, in order, each under its heading.
"$RAILYARD" -T "$T" catalog >"$TMP/all.txt" || fail "catalog: exit $?"
expect_eq "catalog headings" "$(grep -E '^[a-z]+ \([a-z-]+\.yaml\):$' "$TMP/all.txt" | cut -d' ' -f1 | tr '\n' ' ')" \
    "switches nodes gpus llms media prices "

# Usage errors.
"$RAILYARD" -T "$T" catalog router >/dev/null 2>"$TMP/err"
expect_eq "catalog router: exit" "$?" 2
grep -q "no section 'router'" "$TMP/err" && ok || fail "catalog router: $(cat "$TMP/err")"
"$RAILYARD" -T "$T" catalog switches --format csv >/dev/null 2>&1
expect_eq "catalog --format csv: exit" "$?" 2
# The schema.
"$RAILYARD" catalog schema -o "$TMP/schema.json" || fail "catalog schema: exit $?"
cp "$TOP_SRCDIR/examples/superpod-4su.yaml" "$TMP/base.yaml"
bad_spec() {    # NAME SED-EXPRESSION: a variant of superpod-4su
    sed "$2" "$TMP/base.yaml" >"$TMP/$1.yaml"
    cmp -s "$TMP/base.yaml" "$TMP/$1.yaml" && fail "$1: the edit changed nothing"
    if "$RAILYARD" -T "$T" validate "$TMP/$1.yaml" >/dev/null 2>&1; then
        fail "$1: railyard validate accepts it"
    else
        ok
    fi
}
# Values with their unit or a multiplier, which the spec reader takes.
sed -e 's/^\(  *\)nodes: .*/\1nodes: 0.127k/' -e 's/^\(  *\)slack: .*/\1slack: 50cm/' \
    "$TMP/base.yaml" >"$TMP/units.yaml"
grep -q "0.127k" "$TMP/units.yaml" && ok || fail "units.yaml: the edit changed nothing"
"$RAILYARD" -T "$T" validate "$TMP/units.yaml" >/dev/null 2>&1 && ok ||
    fail "units.yaml: railyard validate refuses it"
bad_spec unknown-key 's/^fabric:/fabric:\n  radixx: 64/'
bad_spec wrong-type 's/^\(  *\)nodes: .*/\1nodes: many/'
bad_spec out-of-range 's/^\(  *\)tiers: auto/\1tiers: 9/'
bad_spec bad-word 's/^\(  *\)design: .*/\1design: torus/'
bad_spec top-key 's/^name:/nmae:/'
"$PY" - "$TMP/schema.json" "$EX" "$TMP" <<'PY' >"$TMP/py.out" 2>&1 || fail "schema: $(cat "$TMP/py.out")"
import glob, json, sys, yaml, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
bad = []
examples = sorted(glob.glob(sys.argv[2] + "/*.yaml"))
if len(examples) < 10:
    bad.append(f"only {len(examples)} examples")
for f in examples:
    for e in v.iter_errors(yaml.safe_load(open(f))):
        bad.append(f"{f}: {list(e.path)}: {e.message}")
if v.is_valid(yaml.safe_load(open(sys.argv[3] + "/base.yaml"))) is not True:
    bad.append("base.yaml rejected")
for e in v.iter_errors(yaml.safe_load(open(sys.argv[3] + "/units.yaml"))):
    bad.append(f"units.yaml: {list(e.path)}: {e.message}")
for name in ["unknown-key", "wrong-type", "out-of-range", "bad-word", "top-key"]:
    if v.is_valid(yaml.safe_load(open(f"{sys.argv[3]}/{name}.yaml"))):
        bad.append(f"{name}: the schema accepts it")
# the schema names every top-level section the man page documents
for sec in ["cluster", "fabric", "cost", "infiniband", "naming", "layout", "spares",
            "cabling", "network", "libra", "workload"]:
    if sec not in schema["properties"]:
        bad.append(f"no section {sec}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
[ -s "$TMP/py.out" ] || ok
finish
