#!/bin/sh
# compare with a fabric.tiers list: the spec's own design takes the list as
# written; another design takes it by position, with the tiers its size
# needs. The leaves take entry 0 in every design, tier j entry j - 1; a
# design with fewer tiers than the list leaves the entries above its top
# unused, the entry at its top running every port down; one with more takes
# the top entry again below its top, its ports 1:1 at the entry's down speed.
#
# The switches of each tier of each design are counted here in closed form
# from the spec and the catalog (templates/switches.yaml) for full trees:
# L leaves (per rail tree: units x ceil(S c / d1); per rail-optimized tree
# R times that; per fat tree G / (GPUs per leaf)), then tier j < t takes
# blocks of g_j lower blocks, u_{j-1} switches per position, and the top
# gives each of its positions the smallest m dividing u_{t-1} with
# m D_t >= blocks u_{t-1}; t the fewest tiers whose top takes every block
# (the own design: the list's count). Specs: examples/alibaba-hpn.yaml
# (3 tiers, two planes, a 15:1 taper), examples/megascale.yaml (3 tiers,
# split leaf ports) at 12,288, 49,152 and 512 GPUs, and a megascale-like
# rail-only spec with a 2-entry list that the other designs stretch to 3.
# Checked: tiers and switches per tier (JSON), which entries a design took
# (JSON tier_entries and the text's line, only where not as written), the
# own design's switches as bom's, --paper's switches as the designs view's,
# and model's and traffic's rail-only fabric (its switches and entries).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

if ! "$PY" -c 'import yaml' 2>/dev/null; then
    echo "SKIP: python3-yaml is not installed"
    exit 77
fi

cat >"$TMP/closed.py" <<'P'
import json, math, os, re, sys
import yaml
spec = yaml.safe_load(open(sys.argv[1]))
cat = yaml.safe_load(open(os.path.join(sys.argv[2], "switches.yaml")))["switches"]
GEN = {"NDR200": 200, "NDR": 400, "XDR": 800, "HDR": 200}
def gbps(v):
    m = re.match(r"^(\d+)G$", str(v).strip())
    return float(m.group(1)) if m else float(GEN[str(v).strip()])
def side(v):
    if v is None: return None, 0
    a, _, n = str(v).partition("x")
    return gbps(a), int(n) if n else 0

cl, fab = spec["cluster"], spec["fabric"]
ent = fab["tiers"]
n = len(ent)
prev = None
for e in ent:                     # an entry without a switch takes the one below
    e["switch"] = e.get("switch", prev)
    prev = e["switch"]
gpn = cl["node"]["gpus_per_node"]
K, R = gpn, gpn                   # these nodes: an HB domain of one node, a rail per GPU
G = cl["gpus"] if "gpus" in cl else cl["nodes"] * gpn
planes = cl.get("planes", 1)
own = fab["design"]

def ports(i, use):
    """Entry i as a tier: (down, up, group) by the documented rule."""
    e = ent[i]
    m = cat[e["switch"]]
    P, S = m["radix"], gbps(m["speed"])
    dg, dc = side(e.get("down")); dg = dg or S
    sd = int(S / dg)
    if use in ("as-top", "top"):
        return (dc if use == "top" and dc else P * sd), 0, 0
    if use == "repeated":
        return P // 2 * sd, P // 2 * sd, P // 2 * sd
    ug, uc = side(e.get("up")); ug = ug or S
    su = int(S / ug)
    tp = e.get("taper")
    if dc and uc: cd, cu = -(-dc // sd), -(-uc // su)
    elif dc and tp:
        a, b = map(int, tp.split(":")); cd = -(-dc // sd); cu = cd * b // a
    elif dc: cd = -(-dc // sd); cu = P - cd
    elif uc: cu = -(-uc // su); cd = P - cu
    else: cd = cu = P // 2
    down, up = dc or cd * sd, uc or cu * su
    return down, up, e.get("group", down)

def entry(t, j, listed):
    """The entry tier j of a t-tier tree takes, and how."""
    if listed:
        return j - 1, "top" if j == t else "as-listed"
    i = min(j, n) - 1
    if j == t:
        return i, "as-top" if i < n - 1 else "top"
    return i, "repeated" if i == n - 1 else "as-listed"

def tier(t, j, listed):
    i, use = entry(t, j, listed)
    return ports(i, use)

def tree(L, listed):
    """Tiers and switches per tier of one tree of L leaves."""
    if listed:
        t = n
    else:
        t = 2
        while True:
            blocks = L
            for j in range(2, t):
                blocks = -(-blocks // tier(t, j, False)[2])
            if blocks <= tier(t, t, False)[0]:
                break
            t += 1
    sw, blocks, pos = [L], L, 1
    for j in range(2, t + 1):
        u = tier(t, j - 1, listed)[1]
        if j < t:
            blocks = -(-blocks // tier(t, j, listed)[2])
            sw.append(blocks * pos * u)
            pos *= u
        else:
            D = tier(t, t, listed)[0]
            m = next(m for m in range(1, u + 1) if u % m == 0 and m * D >= blocks * u)
            sw.append(pos * m)
    return t, sw

out = {}
for d in ("rail-optimized", "rail-only", "fat-tree"):
    listed = d == own
    d1 = tier(2, 1, listed)[0]    # a leaf's down ports below a tier above
    S = cl.get("scalable_unit", d1)          # c = K / R = 1 GPU per domain and rail
    doms = G // K
    assert doms % S == 0, "full units only"
    per_unit = -(-S // d1)
    if d == "rail-only":
        top1 = ports(0, "as-top" if n > 1 else "top")[0]
        if not listed and G // R <= top1:     # whole rails on single switches
            t, sw = 1, [-(-R // (top1 // (G // R)))]
        else:
            t, sw = tree(doms // S * per_unit, listed)
            sw = [x * R for x in sw]
    else:
        if d == "rail-optimized":
            L = doms // S * per_unit * R
        else:
            per_leaf = d1 // gpn * gpn
            assert G % per_leaf == 0
            L = G // per_leaf
        t, sw = tree(L, listed)
    sw = [x * planes for x in sw]
    ents = None
    if not listed and t != n:
        ents = [list(entry(t, j, False)) for j in range(1, t + 1)]
        ents = [[i, "as-listed" if u == "top" else u] for i, u in ents]
    out[d] = {"tiers": t, "switches": sw, "entries": ents}
print(json.dumps(out, sort_keys=True))
P

# What compare says, in the same shape.
cat >"$TMP/got.py" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
out = {}
for x in d["designs"]:
    e = x.get("tier_entries")
    out[x["design"]] = {"tiers": x["tiers"],
                        "switches": [t["switches"] for t in x["switches"]["per_tier"]],
                        "entries": [[t["entry"], t["use"]] for t in e] if e else None}
print(json.dumps(out, sort_keys=True))
P

json() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# check NAME SPEC WANT-NOTES: every design against the closed forms; WANT-NOTES
# the designs whose text names the entries they took.
check() {
    name=$1 spec=$2 notes=$3
    "$PY" "$TMP/closed.py" "$spec" "$TPL" >"$TMP/$name.want" 2>"$TMP/$name.pyerr" ||
        { fail "$name: closed forms: $(tail -1 "$TMP/$name.pyerr")"; return; }
    "$RAILYARD" compare "$spec" --format json >"$TMP/$name.json" 2>"$TMP/$name.err"
    expect_eq "$name: compare exit" $? 0
    no_sanitizer "$TMP/$name.err"
    "$PY" "$TMP/got.py" "$TMP/$name.json" >"$TMP/$name.got" 2>&1
    expect_eq "$name: tiers, switches per tier and entries" "$(cat "$TMP/$name.got")" \
        "$(cat "$TMP/$name.want")"
    "$RAILYARD" compare "$spec" >"$TMP/$name.txt" 2>&1
    expect_eq "$name: text exit" $? 0
    expect_eq "$name: designs that say their entries" \
        "$(sed -n 's/^\([a-z-]*\): [0-9] tiers\{0,1\} from fabric\.tiers by position:.*/\1/p' \
            "$TMP/$name.txt" | tr '\n' ' ')" "$notes"
    # the own design is the list as written: bom's fabric
    own=$(json "$TMP/$name.json" 'next(i for i, x in enumerate(d["designs"]) if x["design"] == "'"$(sed -n 's/^ *design: *\([a-z-]*\).*/\1/p' "$spec" | head -1)"'")')
    "$RAILYARD" bom "$spec" --format json >"$TMP/$name.bom.json" 2>&1
    expect_eq "$name: own design's switches = bom's" \
        "$(json "$TMP/$name.json" "d['designs'][$own]['switches']['total']")" \
        "$(json "$TMP/$name.bom.json" 'd["switches"]["total"] if isinstance(d["switches"], dict) else d["switches"]')"
    # --paper builds the designs alike
    "$RAILYARD" compare "$spec" --paper --format json >"$TMP/$name.paper.json" 2>&1
    for d in rail-optimized rail-only fat-tree; do
        expect_eq "$name: --paper $d switches" \
            "$(json "$TMP/$name.paper.json" "d['rows'][0]['designs']['$d']['switches']['total']")" \
            "$(json "$TMP/$name.json" "[x for x in d['designs'] if x['design'] == '$d'][0]['switches']['total']")"
    done
}

check hpn "$TOP_SRCDIR/examples/alibaba-hpn.yaml" "rail-only "
check megascale "$TOP_SRCDIR/examples/megascale.yaml" "rail-only "
sed 's/gpus: 12288/gpus: 49152/' "$TOP_SRCDIR/examples/megascale.yaml" >"$TMP/ms-49k.yaml"
check megascale-49k "$TMP/ms-49k.yaml" ""
sed 's/gpus: 12288/gpus: 512/' "$TOP_SRCDIR/examples/megascale.yaml" >"$TMP/ms-512.yaml"
check megascale-512 "$TMP/ms-512.yaml" "rail-only fat-tree "
cat >"$TMP/ms-rail-only.yaml" <<'Y'
version: 1
name: ms-rail-only
cluster:
  gpus: 12288
  node: {name: hgx-h800, gpus_per_node: 8, nic_speed: 200G}
fabric:
  design: rail-only
  tiers:
    - {switch: tomahawk4, down: "200G x 64", up: "400G x 32"}
    - {}
Y
check ms-rail-only "$TMP/ms-rail-only.yaml" "rail-optimized fat-tree "

# The text's line, word for word, for HPN's rail-only (2 tiers of a 3-entry
# list) and the 2-entry list stretched to 3.
expect_eq "hpn: rail-only's entries" "$(grep '^rail-only: ' "$TMP/hpn.txt")" \
    "rail-only: 2 tiers from fabric.tiers by position: leaf [0], spine [1] as the top (every port down); [2] not used"
expect_eq "ms-rail-only: rail-optimized's entries" "$(grep '^rail-optimized: ' "$TMP/ms-rail-only.txt")" \
    "rail-optimized: 3 tiers from fabric.tiers by position: leaf [0], spine [1] below the top (ports 1:1), core [1]"
expect_eq "megascale-512: rail-only on single switches" "$(grep '^rail-only: ' "$TMP/megascale-512.txt")" \
    "rail-only: 1 tier from fabric.tiers by position: switch [0] as the top (every port down); [1], [2] not used"
"$RAILYARD" compare "$TMP/ms-rail-only.yaml" --paper >"$TMP/paper.txt" 2>&1
grep -q '^  fat-tree: 3 tiers from fabric.tiers by position: leaf \[0\], spine \[1\] below the top (ports 1:1), core \[1\]$' \
    "$TMP/paper.txt" && ok || fail "--paper: no line of the entries: $(cat "$TMP/paper.txt")"

# model prices the other design alike, and says so
"$RAILYARD" model "$TOP_SRCDIR/examples/megascale.yaml" --set workload.model=gpt-3-175b \
    --set workload.gpu=h800 >"$TMP/model.txt" 2>&1
expect_eq "model: exit" $? 0
grep -q '^  rail-only: 2 tiers from fabric.tiers by position: leaf \[0\], spine \[1\] as the top' \
    "$TMP/model.txt" && ok || fail "model: no line of the entries: $(grep -A6 'Network capex' "$TMP/model.txt")"
"$RAILYARD" model "$TOP_SRCDIR/examples/megascale.yaml" --set workload.model=gpt-3-175b \
    --set workload.gpu=h800 --format json >"$TMP/model.json" 2>&1
expect_eq "model: rail-only switches as the closed form" \
    "$(json "$TMP/model.json" 'd["cost"]["rail_only"]["switches"]')" \
    "$(json "$TMP/megascale.want" 'sum(d["rail-only"]["switches"])')"
expect_eq "model: rail-only entries" \
    "$(json "$TMP/model.json" '[[t["entry"], t["use"]] for t in d["cost"]["rail_only"]["tier_entries"]]')" \
    "$(json "$TMP/megascale.want" 'd["rail-only"]["entries"]')"
expect_eq "model: rail-optimized as written" \
    "$(json "$TMP/model.json" '"tier_entries" in d["cost"]["rail_optimized"]')" "False"
# traffic sets the rail-only fabric beside its own, alike
"$RAILYARD" traffic "$TOP_SRCDIR/examples/megascale.yaml" --set workload.model=gpt-3-175b \
    --set workload.gpu=h800 --format json >"$TMP/traffic.json" 2>&1
expect_eq "traffic: rail-only switches as the closed form" \
    "$(json "$TMP/traffic.json" 'd["rail_only"]["switches"]')" \
    "$(json "$TMP/megascale.want" 'sum(d["rail-only"]["switches"])')"
expect_eq "traffic: rail-only entries" \
    "$(json "$TMP/traffic.json" '[[t["entry"], t["use"]] for t in d["rail_only"]["tier_entries"]]')" \
    "$(json "$TMP/megascale.want" 'd["rail-only"]["entries"]')"

finish
