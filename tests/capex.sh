#!/bin/sh
# One cost across the reports: the capex that validate (text and JSON),
# build's summary.txt and bom.json, the workbook's BOM sheet, bom, model and
# traffic print for a spec is one number, and it is the closed form of the
# counts times the catalog's prices (switches.yaml, media.yaml), computed
# here. No report leads with the rail-only paper's cost model, which shows
# only with --cost paper, after the capex; the word "transceiver" names only
# the paper's count (two per link), "optics (modules)" the modules, "cable
# ends" the two per link.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"
EX="$TOP_SRCDIR/examples"

# reports NAME SPEC [--set ...]: every report of the spec into $TMP/NAME.*
reports() {
    n=$1 s=$2
    shift 2
    "$RAILYARD" bom "$s" "$@" --format json >"$TMP/$n.bom.json" 2>"$TMP/$n.err"
    expect_eq "$n: bom json exit" $? 0
    "$RAILYARD" bom "$s" "$@" >"$TMP/$n.bom.txt" 2>>"$TMP/$n.err"
    expect_eq "$n: bom exit" $? 0
    "$RAILYARD" bom "$s" "$@" --cost paper >"$TMP/$n.bom-paper.txt" 2>>"$TMP/$n.err"
    expect_eq "$n: bom --cost paper exit" $? 0
    "$RAILYARD" validate "$s" "$@" >"$TMP/$n.validate.txt" 2>>"$TMP/$n.err"
    expect_eq "$n: validate exit" $? 0
    "$RAILYARD" validate "$s" "$@" --cost paper >"$TMP/$n.validate-paper.txt" 2>>"$TMP/$n.err"
    expect_eq "$n: validate --cost paper exit" $? 0
    "$RAILYARD" validate "$s" "$@" --format json >"$TMP/$n.validate.json" 2>>"$TMP/$n.err"
    expect_eq "$n: validate json exit" $? 0
    "$RAILYARD" -q build "$s" "$@" --skip opensm,slurm,kubernetes,diagrams -o "$TMP/$n.out" \
        >/dev/null 2>>"$TMP/$n.err"
    expect_eq "$n: build exit" $? 0
    no_sanitizer "$TMP/$n.err"
}

# The spec's own design, the other rail design (for model), both with a workload.
MOE="$EX/moe-h100.yaml"
reports superpod "$EX/superpod-4su.yaml"
reports priced "$EX/superpod-4su.yaml" --set cost.rack=12000 --set cost.spares=5 \
    --set cluster.nodes=64
reports moe "$MOE" --set fabric.design=rail-optimized
reports moe-ro "$MOE"
for f in "" "--cost paper"; do
    k=${f:+-paper}
    # shellcheck disable=SC2086
    "$RAILYARD" model "$MOE" $f >"$TMP/moe.model$k.txt" 2>>"$TMP/moe.err"
    expect_eq "model $f exit" $? 0
    # shellcheck disable=SC2086
    "$RAILYARD" traffic "$MOE" --set fabric.design=rail-optimized $f \
        >"$TMP/moe.traffic$k.txt" 2>>"$TMP/moe.err"
    expect_eq "traffic $f exit" $? 0
done
"$RAILYARD" compare "$MOE" >"$TMP/moe.compare.txt" 2>>"$TMP/moe.err"
expect_eq "compare exit" $? 0
"$RAILYARD" model "$MOE" --format json >"$TMP/moe.model.json" 2>>"$TMP/moe.err"
expect_eq "model json exit" $? 0
"$RAILYARD" traffic "$MOE" --set fabric.design=rail-optimized --format json \
    >"$TMP/moe.traffic.json" 2>>"$TMP/moe.err"
expect_eq "traffic json exit" $? 0
no_sanitizer "$TMP/moe.err"

"$PY" - "$TMP" "$TPL" <<'P' >"$TMP/check.out" 2>&1
import json, os, re, sys, yaml
import openpyxl
tmp, tpl = sys.argv[1:3]
errs = []
def err(m):
    if len(errs) < 30: errs.append(m)
def rd(p): return open(os.path.join(tmp, p)).read()
def js(p): return json.load(open(os.path.join(tmp, p)))
def near(a, b): return abs(a - b) <= 0.01 + 1e-12 * abs(b)
def dollars(s): return float(s.replace("$", "").replace(",", ""))
def num(s): return int(s.replace(",", ""))
MONEY = r"\$[\d,]+(?:\.\d\d)?"

switches = yaml.safe_load(open(os.path.join(tpl, "switches.yaml")))["switches"]
media = yaml.safe_load(open(os.path.join(tpl, "media.yaml")))["media"]
def module_price(medium, part):
    m = media[medium]
    for side in ("switch_end", "node_end"):
        ends = m.get(side) or []
        for e in ends if isinstance(ends, list) else [ends]:
            if e["part"] == part: return e["price"]
    raise KeyError("%s: no module %s" % (medium, part))
def line_price(l):              # the catalog's price of one line's part
    m = media[l["medium"]]
    if l["what"] == "cable":
        return m["cable"]["price"] + m["cable"].get("price_per_m", 0) * l["length_m"]
    return module_price(l["medium"], l["part"])

def closed_form(b, sw_name, rack=0, spares=0):
    """capex = switches x catalog price + every line's count x its part's
    catalog price (+ racks x rack price, + spares share of the three)."""
    sw = b["switches"]["total"] * switches[sw_name]["price"]
    lines = b["physical"]["lines"]
    optics = sum(l["count"] * line_price(l) for l in lines if l["what"] != "cable")
    cables = sum(l["count"] * line_price(l) for l in lines if l["what"] == "cable")
    hw = sw + optics + cables
    return hw * (1 + spares / 100) + b["physical"]["racks"] * rack

def block_total(text, what):
    """The total of the first `capex` block: its heading, its parts, 'total:'."""
    m = re.search(r"^capex \(.*\n((?:  .*\n)*)", text, re.M)
    if not m: err("%s: no capex block" % what); return None
    t = re.search(r"^  total: +(%s)(?:  \(\$[0-9.]+[kMBT]\))?$" % MONEY, m.group(1), re.M)
    if not t: err("%s: the capex block has no total" % what); return None
    parts = re.findall(r"^  ([a-z]+): ", m.group(1), re.M)
    return dollars(t.group(1)), parts

def xlsx_capex(path):
    ws = openpyxl.load_workbook(path, data_only=True)["BOM"]
    for row in ws.iter_rows(values_only=True):
        if row[0] == "capex": return row[6]
    err("%s: no capex row in the BOM sheet" % path)

def first_cost_is_capex(text, what):
    """The first amount of money a report prints is in its capex."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if re.search(MONEY, l) and "a port" not in l:
            # the line is in a capex block or table: a heading above says capex
            head = next((h for h in reversed(lines[:i + 1]) if not h.startswith("  ")), "")
            if "capex" not in head.lower():
                err("%s: the first cost is under %r, not the capex: %r" % (what, head, l))
            return
    err("%s: no cost at all" % what)

def words(text, what, b):
    """'transceiver' only for the paper's count (2 per link) or its heading;
    the counts named by their words are the right ones."""
    for l in text.splitlines():
        if "transceiver" in l and "(2 per link)" not in l and "paper's cost model" not in l:
            err("%s: 'transceiver' outside the paper's model: %r" % (what, l))
        m = re.search(r"transceivers \(2 per link\)[: ]+(?:\$[\d,.]+ +\()?([\d,]+)", l)
        if m and num(m.group(1)) != 2 * b["links"]["total"]:
            err("%s: transceivers (2 per link) %s, want %d" % (what, m.group(1), 2 * b["links"]["total"]))
        m = re.match(r"cable ends: +([\d,]+)", l)
        if m and num(m.group(1)) != 2 * b["links"]["total"]:
            err("%s: cable ends %s, want %d" % (what, m.group(1), 2 * b["links"]["total"]))
        m = re.match(r"optics \(modules\): +([\d,]+)", l)
        mods = sum(x["count"] for x in b["physical"]["lines"] if x["what"] != "cable")
        if m and num(m.group(1)) != mods:
            err("%s: optics modules %s, want %d" % (what, m.group(1), mods))
        if re.search(r"\boptics\b.*\b(%d|%s)\b" % (2 * b["links"]["total"], format(2 * b["links"]["total"], ",")), l) and \
                2 * b["links"]["total"] != mods:
            err("%s: optics counted two per link: %r" % (what, l))

PAPER = "rail-only paper's cost model ($748 a port, $374 a transceiver"
def paper_only_when_asked(plain, paper, what):
    # the design checks' own lines name the model they price by; nothing else may
    rest = [l for l in plain.splitlines() if "paper's cost model" in l and
            not l.startswith("(idle cost") and "cheaper-size" not in l and "tier-fill" not in l]
    if rest: err("%s: the paper's model without --cost paper: %r" % (what, rest[0]))
    if PAPER not in paper:
        err("%s --cost paper: no %r" % (what, PAPER))
    elif paper.index(PAPER) < paper.index("apex"):
        err("%s --cost paper: the paper's model before the capex" % what)

specs = {"superpod": ("qm9700", 0, 0), "priced": ("qm9700", 12000, 5), "moe": ("qm9700", 0, 0),
         "moe-ro": ("qm9700", 0, 0)}
capex = {}
for n, (sw, rack, spares) in specs.items():
    b = js(n + ".bom.json")
    want = closed_form(b, sw, rack, spares)
    got = b["capex"]["total"]
    capex[n] = got
    if not near(got, want): err("%s: bom json capex %.2f, closed form %.2f" % (n, got, want))
    if "racks" in b["capex"] and b["capex"]["racks"] != b["physical"]["racks"] * rack:
        err("%s: racks %s" % (n, b["capex"]["racks"]))
    if b.get("cable_ends") != 2 * b["links"]["total"] or b["physical"].get("optics_modules") != \
            sum(l["count"] for l in b["physical"]["lines"] if l["what"] != "cable"):
        err("%s: cable_ends %s, optics_modules %s" % (n, b.get("cable_ends"), b["physical"].get("optics_modules")))
    got_v = (js(n + ".validate.json").get("capex") or {}).get("total")
    if got_v is None or not near(got_v, want): err("%s: validate json capex %s, want %.2f" % (n, got_v, want))
    got_j = js(n + ".out/bom.json")["capex"]["total"]
    if not near(got_j, want): err("%s: build bom.json capex %s, want %.2f" % (n, got_j, want))
    x = xlsx_capex(os.path.join(tmp, n + ".out/cabling/cabling.xlsx"))
    if x is None or not near(x, want): err("%s: cabling.xlsx BOM capex %s, want %.2f" % (n, x, want))
    for rep in ("bom.txt", "validate.txt", "out/summary.txt", "bom-paper.txt", "validate-paper.txt"):
        text = rd(n + "." + rep)
        r = block_total(text, n + " " + rep)
        if r and not near(r[0], want): err("%s %s: capex %.2f, want %.2f" % (n, rep, r[0], want))
        want_parts = ["switches", "optics", "cables"] + (["racks"] if rack else []) + \
            (["spares"] if spares else []) + ["total"]
        if r and r[1] != want_parts: err("%s %s: capex parts %s, want %s" % (n, rep, r[1], want_parts))
        first_cost_is_capex(text, n + " " + rep)
        words(text, n + " " + rep, b)
    paper_only_when_asked(rd(n + ".bom.txt"), rd(n + ".bom-paper.txt"), n + " bom")
    paper_only_when_asked(rd(n + ".validate.txt"), rd(n + ".validate-paper.txt"), n + " validate")
    paper_only_when_asked(rd(n + ".out/summary.txt"), rd(n + ".bom-paper.txt"), n + " summary.txt")
    # the paper's model, where asked, is the paper's closed form
    p = b["ports"]["total"] * 748 + 2 * b["links"]["total"] * 374
    m = re.search(r"^  total: +(%s)$" % MONEY, rd(n + ".bom-paper.txt").split(PAPER)[-1], re.M)
    if not m or dollars(m.group(1)) != p: err("%s: paper total %s, want %d" % (n, m and m.group(1), p))

# model: both designs' capex, as bom prints each
bo = js("moe.bom.json")
for rep in ("model.txt", "model-paper.txt"):
    text = rd("moe." + rep)
    rows = dict(re.findall(r"^  (rail-optimized|rail-only) +[\d,]+ +[\d,]+ +[\d,]+ +(%s)" % MONEY, text, re.M))
    if not rows: err("%s: no capex rows" % rep)
    for d, n in (("rail-optimized", "moe"), ("rail-only", "moe-ro")):
        if d not in rows or not near(dollars(rows[d]), capex[n]):
            err("%s: %s capex %s, bom says %.2f" % (rep, d, rows.get(d), capex[n]))
    first_cost_is_capex(text, rep)
    words(text, rep, bo)
paper_only_when_asked(rd("moe.model.txt"), rd("moe.model-paper.txt"), "model")
mj = js("moe.model.json")["cost"]
for d, n in (("rail_optimized", "moe"), ("rail_only", "moe-ro")):
    c = mj[d].get("capex") or {}
    if not near(c.get("total", -1), capex[n]): err("model json %s capex %s" % (d, c))
# traffic: the fabric's capex and the rail-only one's
for rep in ("traffic.txt", "traffic-paper.txt"):
    text = rd("moe." + rep)
    rows = dict(re.findall(r"^  (rail-optimized|rail-only|trimmed) +[\d,]+ +[\d,]+ +[\d,]+ +(%s)" % MONEY, text, re.M))
    for d, n in (("rail-optimized", "moe"), ("rail-only", "moe-ro")):
        if d not in rows or not near(dollars(rows[d]), capex[n]):
            err("%s: %s capex %s, bom says %.2f" % (rep, d, rows.get(d), capex[n]))
    first_cost_is_capex(text, rep)
    words(text, rep, bo)
paper_only_when_asked(rd("moe.traffic.txt"), rd("moe.traffic-paper.txt"), "traffic")
tj = js("moe.traffic.json")
fc, rc = (tj[k].get("capex") or {} for k in ("fabric", "rail_only"))
if not near(fc.get("total", -1), capex["moe"]) or not near(rc.get("total", -1), capex["moe-ro"]):
    err("traffic json capex %s %s" % (fc, rc))
# compare's capex row: the same two numbers
m = re.search(r"^capex +(%s) +(%s)" % (MONEY, MONEY), rd("moe.compare.txt"), re.M)
if not m or not near(dollars(m.group(1)), capex["moe"]) or not near(dollars(m.group(2)), capex["moe-ro"]):
    err("compare: capex row %s, bom says %.2f and %.2f" % (m and m.group(0), capex["moe"], capex["moe-ro"]))
print("\n".join(errs) if errs else "ok")
P
expect_eq "one capex across the reports" "$(cat "$TMP/check.out")" ok
finish
