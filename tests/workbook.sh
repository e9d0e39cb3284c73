#!/bin/sh
# cabling.xlsx as technicians use it: every sheet's print setup, the BOM's
# formulas and their cached values, rows in their rail's colour (the
# palette of src/emit/colors.c, read here) with a legend, the Labels sheet
# (a record per cable, split like Cables), and the workbook printed to PDF
# by LibreOffice: landscape A4 pages (A3 for the 23 columns of Cables), no
# more than the rows allow, every
# sheet one page wide with its header row on each page. Expectations come
# from cabling.csv, racks.csv, railyard bom and the page geometry. A
# fabric.tiers list of two models: a switch line per model, and LibreOffice
# recalculating the workbook (its cached results zeroed) reaches railyard
# bom's totals.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/cabling"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"
COLORS="$TOP_SRCDIR/src/emit/colors.c"

cat >"$TMP/wb.py" <<'P'
import collections, csv, json, math, os, re, sys
import openpyxl

xlsx, cab, bom_path, colors_c = sys.argv[1:5]
errs, said = [], set()
def err(msg):
    if len(errs) < 20: errs.append(msg)
def err_once(kind, msg):        # for a check made on every row
    if kind not in said: said.add(kind); err(msg)
def cell(v):
    if v is None: return ""
    if isinstance(v, float) and v.is_integer(): v = int(v)
    return str(v)

# ---- the palette, as the diagrams use it ----------------------------------------------------
src = open(colors_c).read()
pal = re.findall(r'\{\s*"([0-9a-f]{6})",\s*"([a-z]+)"\s*\}', src.split("palette[12]")[1])
several = re.findall(r'if \(rail < 0\)\s*return "([^"]+)";', src)     # hex, then name
if len(pal) != 12 or len(several) != 2: err("colors.c: palette %s, grey %s" % (pal, several))
def colour(rail):               # rail: "" (several rails) or a number
    return tuple(several) if rail == "" else pal[int(rail) % 12]

def rgb(h): return [int(h[i:i + 2], 16) for i in (0, 2, 4)]
def lum(h):                     # WCAG relative luminance
    c = [x / 255 for x in rgb(h)]
    c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
def contrast(a, b):
    la, lb = sorted((lum(a), lum(b)))
    return (lb + 0.05) / (la + 0.05)
def is_tint(t, c):
    # t lies on the way from c to white, the same fraction k on each channel
    return any(all(abs(x + (255 - x) * k / 100 - y) <= 1 for x, y in zip(rgb(c), rgb(t)))
               for k in range(30, 81))

def fill(c):
    f = c.fill
    if f is None or f.fill_type != "solid" or not isinstance(f.fgColor.rgb, str): return None
    return f.fgColor.rgb[-6:].lower()
def font_rgb(c):
    v = c.font.color.rgb if c.font is not None and c.font.color is not None else None
    return v[-6:].lower() if isinstance(v, str) else "000000"

# ---- the plan -------------------------------------------------------------------------------
rows = list(csv.DictReader(open(os.path.join(cab, "cabling.csv"), newline="")))
by_label = {r["label"]: r for r in rows}
racks = [r["rack"] for r in csv.DictReader(open(os.path.join(cab, "racks.csv"), newline=""))]
bom = json.load(open(bom_path))
phys = bom["physical"]
lines = phys["lines"]
name = bom["name"]

wb = openpyxl.load_workbook(xlsx)                       # formulas
wv = openpyxl.load_workbook(xlsx, data_only=True)       # cached values
names = wb.sheetnames
def parts(base):
    p = [n for n in names if n == base or re.match(re.escape(base) + r" \d+$", n)]
    want = [base] + ["%s %d" % (base, k) for k in range(2, len(p) + 1)]
    if p != want: err("%s: parts %s" % (base, p))
    return p

# ---- print setup, every sheet -----------------------------------------------------------------
title = "Cabling plan of %s" % name
for n in names:
    ws = wb[n]
    ps = ws.page_setup
    # fitToWidth: absent means 1 (ECMA-376 default), fitToHeight 0: as many pages as it takes
    got = (ps.orientation, int(ps.paperSize or 0), bool(ws.sheet_properties.pageSetUpPr
           and ws.sheet_properties.pageSetUpPr.fitToPage), int(ps.fitToWidth if ps.fitToWidth is not None else 1),
           int(ps.fitToHeight if ps.fitToHeight is not None else 1), ws.print_title_rows,
           bool(ws.print_options.gridLines))
    # Cables (23 columns) prints on A3 (Excel's paper 8), the others on A4 (9)
    paper = 8 if re.match(r"Cables( \d+)?$", n) else 9
    if got != ("landscape", paper, True, 1, 0, "$1:$1", True):
        err("%s: print setup (orientation, paper, fit, wide, tall, titles, gridlines) %s" % (n, got))
    hf = (ws.oddHeader.left.text, ws.oddHeader.right.text, ws.oddFooter.center.text)
    if hf != (title.replace("&", "&&"), "&A", "Page &P of &N"):
        err("%s: header and footer %s" % (n, hf))

# ---- BOM: lines and totals as formulas, cached values the plan's ------------------------------
fb, vb = wb["BOM"], wv["BOM"]
def ref(r):
    m = re.match(r"([A-Z])(\d+)$", r); return m.group(1), int(m.group(2))
def value(col, row):
    v = fb["%s%d" % (col, row)].value
    return evaluate(v) if isinstance(v, str) and v.startswith("=") else (v or 0)
def rng(a):
    (c0, r0), (c1, r1) = (ref(x) for x in a.split(":"))
    if c0 != c1 or r1 < r0: raise ValueError(a)
    return [value(c0, r) for r in range(r0, r1 + 1)]
def evaluate(f):                # the formula forms the workbook may hold, nothing else
    m = re.match(r"=([A-Z]\d+)\*([A-Z]\d+)$", f)
    if m: return value(*ref(m.group(1))) * value(*ref(m.group(2)))
    m = re.match(r"=([A-Z]\d+(?:\+[A-Z]\d+)*)$", f)          # one cell or a sum of cells
    if m: return sum(value(*ref(r)) for r in m.group(1).split("+"))
    m = re.match(r"=\(([A-Z]\d+(?:\+[A-Z]\d+)*)\)\*([A-Z]\d+)/100$", f)   # spares: a share
    if m: return sum(value(*ref(r)) for r in m.group(1).split("+")) * value(*ref(m.group(2))) / 100
    m = re.match(r"=SUM\(([A-Z]\d+:[A-Z]\d+)\)$", f)
    if m: return sum(rng(m.group(1)))
    m = re.match(r"=SUMPRODUCT\(([A-Z]\d+:[A-Z]\d+),([A-Z]\d+:[A-Z]\d+)\)$", f)
    if m: return sum(a * b for a, b in zip(rng(m.group(1)), rng(m.group(2))))
    if f == "=0": return 0
    raise ValueError("unexpected formula %s" % f)
def formula_cell(coord, want):
    f, v = fb[coord].value, vb[coord].value
    if not (isinstance(f, str) and f.startswith("=")):
        err("BOM %s: %r is no formula" % (coord, f)); return
    try:
        e = evaluate(f)
    except (ValueError, TypeError) as x:
        err("BOM %s: %s: %s" % (coord, f, x)); return
    tol = 0.005 + 1e-9 * abs(want)     # half a cent; a metre, a watt alike
    if not isinstance(v, (int, float)) or abs(v - want) > tol or abs(e - want) > tol:
        err("BOM %s: %s evaluates to %s, cached %r, the plan %s" % (coord, f, e, v, want))
item = {"cable": "cable", "transceiver": "optics"}     # the sheet's word for the JSON's
for k, l in enumerate(lines):
    x = k + 2
    got = [cell(vb.cell(x, c).value) for c in range(1, 7)]
    want = [item[l["what"]], l["part"], l["medium"], cell(l.get("length_m")), cell(l["count"]), cell(l["unit_price"])]
    if got != want: err("BOM row %d: %s, want %s" % (x, got, want))
    if fb["G%d" % x].value != "=E%d*F%d" % (x, x): err("BOM G%d: %r, want count x unit price" % (x, fb["G%d" % x].value))
    formula_cell("G%d" % x, l["cost"])
# then the switches (and racks when priced) as lines, priced by the catalog:
# a line per model of a fabric.tiers list (bom's capex.switch_models), else one
capex = bom["capex"]
x = len(lines) + 2
models = capex.get("switch_models") or [{"name": "", "part": capex["switch_part"], "count": capex["switch_count"],
                                         "price": capex["switch_price"], "cost": capex["switches"]}]
sw_first = x
for m in models:
    got = [cell(vb.cell(x, c).value) for c in (1, 5, 6)]
    if got != ["switch", cell(m["count"]), cell(m["price"])]:
        err("BOM row %d: %s, want the switches %s %s x %s" % (x, got, m["name"], m["count"], m["price"]))
    if not str(vb.cell(x, 2).value or "").startswith(m["part"]) or \
       not str(vb.cell(x, 2).value or "").endswith(m["name"]):
        err("BOM row %d: part %r, want %r and %r" % (x, vb.cell(x, 2).value, m["part"], m["name"]))
    if fb["G%d" % x].value != "=E%d*F%d" % (x, x): err("BOM G%d: %r, want count x unit price" % (x, fb["G%d" % x].value))
    formula_cell("G%d" % x, m["cost"])
    x += 1
x -= 1
sw_last = x
if "racks" in capex:
    x += 1
    if [cell(vb.cell(x, c).value) for c in (1, 5, 6)] != ["rack", cell(capex["rack_count"]), cell(capex["rack_price"])]:
        err("BOM row %d: want the racks" % x)
    formula_cell("G%d" % x, capex["racks"])
tot = {vb.cell(r, 1).value: r for r in range(x + 1, vb.max_row + 1) if vb.cell(r, 1).value}
# the filter takes the header and every line, up to the blank row above the totals
blank = next(r for r in range(2, vb.max_row + 2) if not vb.cell(r, 1).value)
if fb.auto_filter.ref != "A1:H%d" % (blank - 1):
    err("BOM filter %s, want A1:H%d (the lines)" % (fb.auto_filter.ref, blank - 1))
want = {"cables", "optics", "switches", "capex"} | {k for k in ("racks", "spares") if k in capex}
if set(tot) != want: err("BOM totals rows %s, want %s" % (sorted(tot), sorted(want)))
else:
    formula_cell("D%d" % tot["cables"], phys["cable_m"])
    formula_cell("E%d" % tot["cables"], phys["cables"])
    formula_cell("G%d" % tot["cables"], phys["cost"]["cables"])
    formula_cell("E%d" % tot["optics"], phys["optics_modules"])
    formula_cell("G%d" % tot["optics"], phys["cost"]["transceivers"])
    formula_cell("E%d" % tot["switches"], capex["switch_count"])
    formula_cell("G%d" % tot["switches"], capex["switches"])
    want_f = "=E%d" % sw_first if sw_first == sw_last else "=SUM(E%d:E%d)" % (sw_first, sw_last)
    if fb["E%d" % tot["switches"]].value != want_f:
        err("BOM E%d: %r, want %s over the switch lines" % (tot["switches"], fb["E%d" % tot["switches"]].value, want_f))
    for k in ("racks", "spares"):
        if k in capex: formula_cell("G%d" % tot[k], capex[k])
    # the sheet's total is the capex railyard bom prints
    formula_cell("G%d" % tot["capex"], capex["total"])
    formula_cell("H%d" % tot["capex"], phys["power_w"])

# ---- Cables: each row in its rail's tint ------------------------------------------------------
tints = {}                      # rail -> the tint its rows carry
ncab = 0
for n in parts("Cables"):
    for row in wb[n].iter_rows(min_row=2):
        r = rows[ncab] if ncab < len(rows) else None
        ncab += 1
        if r is None or row[0].value != r["label"]:
            err("%s: row %s is not %s" % (n, row[0].value, r and r["label"])); break
        fs = {fill(c) for c in row}
        t = tints.setdefault(r["rail"], fill(row[0]))
        if fs != {t} or t is None: err("%s %s: fills %s, want one tint" % (n, r["label"], fs)); break
if ncab != len(rows): err("Cables: %d rows for %d cables" % (ncab, len(rows)))
for rail, t in tints.items():
    c = colour(rail)[0]
    if t is None or not is_tint(t, c): err("rail %r: rows in %s, no tint of %s" % (rail, t, c))
    elif contrast(t, "000000") < 7: err("rail %r: black on %s is hard to read" % (rail, t))
if len(set(tints.values())) != len({colour(r) for r in tints}): err("rails share a tint: %s" % tints)

# ---- Labels: a record per cable, both ends, the rail in its colour ---------------------------
def end(r, e): return "%s U%s %s %s" % (r[e + "_rack"], r[e + "_u"], r[e + "_device"], r[e + "_cage_port"] or r[e + "_port"])  # as on the switch
got = []
for n in parts("Labels"):
    ws = wb[n]
    hdr = [c.value for c in ws[1]]
    if hdr != ["label", "rail", "colour", "a_end", "z_end", "part", "length_m"]: err("%s: header %s" % (n, hdr))
    for row in ws.iter_rows(min_row=2):
        got.append([cell(c.value) for c in row])
        r = by_label.get(row[0].value)
        if r is None: continue
        hx, cname = colour(r["rail"])
        if (fill(row[1]), fill(row[2])) != (hx, hx): err_once("swatch", "%s %s: swatch %s, want %s" % (n, r["label"], fill(row[2]), hx))
        elif contrast(hx, font_rgb(row[2])) < 3: err_once("text", "%s %s: text on %s unreadable" % (n, r["label"], hx))
        if {fill(c) for c in row[:1] + row[3:]} != {tints.get(r["rail"])}: err_once("tint", "%s %s: row not in the rail's tint" % (n, r["label"]))
want = [[r["label"], r["rail"], colour(r["rail"])[1], end(r, "a"), end(r, "z"), r["part"], r["length_m"]] for r in rows]
if got != want:
    bad = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    err("Labels: %d rows for %d cables; first difference at %d: %s vs %s" % (len(got), len(want), bad,
        got[bad] if bad < len(got) else None, want[bad] if bad < len(want) else None))

# ---- Rails: the legend ------------------------------------------------------------------------
count = collections.Counter(r["rail"] for r in rows)
order = sorted((k for k in count if k != ""), key=int) + ([""] if "" in count else [])
leg = [[cell(c.value) for c in row] for row in wb["Rails"].iter_rows(min_row=2)]
wl = [[k or "several", colour(k)[1], colour(k)[0], tints.get(k), str(count[k])] for k in order]
if leg != wl: err("Rails: %s, want %s" % (leg[:3], wl[:3]))
for row in wb["Rails"].iter_rows(min_row=2):
    k = "" if row[0].value == "several" else cell(row[0].value)
    if (fill(row[0]), fill(row[3])) != (colour(k)[0], tints.get(k)): err("Rails %s: fills %s" % (k, (fill(row[0]), fill(row[3]))))

# ---- rack sheets: rows in the tint of their cable's rail ------------------------------------
for n in names:
    if n not in racks: continue
    for row in wb[n].iter_rows(min_row=2):
        r = by_label.get(row[4].value)
        if r and {fill(c) for c in row} != {tints.get(r["rail"])}: err("%s %s: not in the rail's tint" % (n, r["label"])); break
print("\n".join(errs) if errs else "ok")
P

# pdf.py PDF XLSX TEXTDIR PAGES: LibreOffice's print of the workbook. PAGES
# from pdfinfo (empty: counted here); TEXTDIR: a text file per page
# (Ghostscript's txtwrite), or empty.
cat >"$TMP/pdf.py" <<'P'
import math, os, re, sys
import openpyxl
pdf, xlsx, tdir, pages = sys.argv[1:5]
errs = []
def err(msg):
    if len(errs) < 20: errs.append(msg)
data = open(pdf, "rb").read()
n = int(pages) if pages else len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
# every page landscape: A4 (842 x 595 points), or A3 (1191 x 842) for Cables
A4, A3 = (841.9, 595.3), (1190.6, 841.9)
def near(wh, want): return abs(wh[0] - want[0]) <= 1.5 and abs(wh[1] - want[1]) <= 1.5
boxes = set((float(w), float(h)) for w, h in
            re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data))
if not boxes or any(not near(b, A4) and not near(b, A3) for b in boxes):
    err("page sizes %s, want A4 or A3 landscape" % boxes)
# each page's size, in order: the page tree's /Kids (LibreOffice writes one
# /Pages node), each page's /MediaBox or its parent's
page_size = {}
objs = {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\s*(<<.*?>>)\s*(?:stream|endobj)", data, re.S)}
def box(d): 
    m = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", d)
    return (float(m.group(1)), float(m.group(2))) if m else None
kids = [d for d in objs.values() if re.search(rb"/Type\s*/Pages\b", d)]
if len(kids) == 1:
    order = [int(x) for x in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids\s*\[(.*?)\]", kids[0], re.S).group(1))]
    for k, o in enumerate(order, 1):
        page_size[k] = box(objs.get(o, b"")) or box(kids[0])
if len(page_size) != n: err("%d page sizes read from the page tree, %d pages" % (len(page_size), n))

# A sheet one page wide prints at 100% or smaller: at most ceil(rows / rpp)
# pages, rpp = the rows its printable height holds at 100% less the
# repeated header and one row for rounding. A sheet split across pages
# (columns on a second page) or in portrait breaks the bound.
wb = openpyxl.load_workbook(xlsx)
bound, sheet_bound = 0, {}
for ws in wb.worksheets:
    height = (297 if ws.page_setup.paperSize in (8, "8") else 210) / 25.4 * 72
    m = ws.page_margins
    rpp = int((height - (m.top + m.bottom) * 72) // float(ws.sheet_format.defaultRowHeight)) - 2
    b = max(1, math.ceil((ws.max_row - 1) / rpp))
    sheet_bound[ws.title] = b
    bound += b
if not len(wb.worksheets) <= n <= bound: err("%d pages, want %d to %d" % (n, len(wb.worksheets), bound))
out = ["pages %d bound %d" % (n, bound)]

if tdir:
    title = wb.worksheets[0].oddHeader.left.text.replace("&&", "&")
    seen = []
    for k in range(1, n + 1):
        lines = [l.strip() for l in open(os.path.join(tdir, "p-%04d.txt" % k), errors="replace")
                 if l.strip()]
        if len(lines) < 3 or not lines[0].startswith(title):
            err("page %d: blank or without the page header" % k); continue
        name = lines[0][len(title):].strip()        # the sheet, right of the title
        if name not in sheet_bound: err("page %d: sheet %r" % (k, name)); continue
        if not seen or seen[-1][0] != name: seen.append([name, 0])
        seen[-1][1] += 1
        ws = wb[name]
        want = A3 if re.match(r"Cables( \d+)?$", name) else A4
        if k in page_size and not near(page_size[k], want):
            err("page %d (%s): %s points, want %s" % (k, name, page_size[k], want))

        hdr = " ".join(str(c.value) for c in ws[1] if c.value is not None)
        if " ".join(lines[1].split()) != hdr: err("page %d (%s): first row %r, not the header" % (k, name, lines[1][:60]))
        if not re.search(r"Page %d of %d$" % (k, n), lines[-1]): err("page %d: footer %r" % (k, lines[-1]))
    order = [s for s, c in seen]
    if order != wb.sheetnames: err("sheets printed in the order %s" % order[:6])
    for s, c in seen:
        if c > sheet_bound[s]: err("%s: %d pages, at most %d" % (s, c, sheet_bound[s]))
    out.append(" ".join("%s:%d" % (s, c) for s, c in seen))
    # every cable on one line of the Labels pages, both ends with it: no
    # column printed on a page of its own
    want = {}
    for ws in wb.worksheets:
        if ws.title == "Labels" or ws.title.startswith("Labels "):
            for r in ws.iter_rows(min_row=2, values_only=True):
                want[r[0]] = "".join(str(v) for v in r if v is not None).replace(" ", "")
    got = {}
    for k in range(1, n + 1):
        for l in open(os.path.join(tdir, "p-%04d.txt" % k), errors="replace"):
            f = " ".join(l.split())
            if f.split(" ")[0] in want: got[f.split(" ")[0]] = got.get(f.split(" ")[0], []) + [f]
    missing = [x for x in want if x not in got]
    if missing: err("labels not printed: %s" % missing[:3])
    for x, ls in got.items():
        if not any(want[x] in l.replace(" ", "") for l in ls): err("label %s printed as %r, want %r" % (x, ls[0], want[x])); break
print("\n".join(errs) if errs else "ok")
print("\n".join(out), file=sys.stderr)
P

# run NAME SPEC [ARGS]: the plan and its bill of materials, then the checks
run() {
    n=$1 s=$2
    shift 2
    "$RAILYARD" cabling "$s" "$@" -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: cabling exit" $? 0
    no_sanitizer "$TMP/$n.log"
    "$RAILYARD" bom "$s" "$@" --format json >"$TMP/$n.bom.json" 2>>"$TMP/$n.log"
    expect_eq "$n: bom exit" $? 0
    "$PY" "$TMP/wb.py" "$TMP/$n/cabling/cabling.xlsx" "$TMP/$n/cabling" "$TMP/$n.bom.json" "$COLORS" \
        >"$TMP/$n.chk" 2>&1
    expect_eq "$n: workbook" "$(cat "$TMP/$n.chk")" ok
}

run superpod "$TOP_SRCDIR/examples/superpod-4su.yaml"
# racks and spares priced: their lines and rows, the capex total with them
run priced "$TOP_SRCDIR/examples/superpod-4su.yaml" --set cost.rack=12000 --set cost.spares=5
# two planes in two halls and a network room: racks named H01-R01-01, N1-R01-01
run halls "$D/two-plane.yaml" --set layout.hall_racks=6 --set layout.network=per-unit
grep -q '^H02-R01-01,H02,' "$TMP/halls/cabling/racks.csv" && ok || fail "halls: no second hall in racks.csv"

# a fabric.tiers list of two models (QM9700 leaves, Q3400 spines): a switch
# line per model, the switches' total their sum
run two-models "$TOP_SRCDIR/tests/data/tiers/ib-two-models.yaml"

# Labels continues like Cables: 2,560 cables at 500 rows a sheet
"$TOP_BUILDDIR/tests/unit/xlsx_test" "$TPL" "$D/two-plane.yaml" "$TMP/split.xlsx" 500 256 \
    >"$TMP/split.log" 2>&1
expect_eq "xlsx_test 500 256: exit" $? 0
"$RAILYARD" cabling "$D/two-plane.yaml" -o "$TMP/two-plane" >/dev/null 2>&1
"$RAILYARD" bom "$D/two-plane.yaml" --format json >"$TMP/two-plane.bom.json" 2>/dev/null
"$PY" "$TMP/wb.py" "$TMP/split.xlsx" "$TMP/two-plane/cabling" "$TMP/two-plane.bom.json" "$COLORS" \
    >"$TMP/split.chk" 2>&1
expect_eq "split workbook" "$(cat "$TMP/split.chk")" ok
"$PY" -c 'import openpyxl, sys; print(" ".join(n for n in openpyxl.load_workbook(sys.argv[1], read_only=True).sheetnames if n.startswith("Labels")))' \
    "$TMP/split.xlsx" >"$TMP/split.names" 2>&1
n=$(($(wc -l <"$TMP/two-plane/cabling/cabling.csv") - 1))
want=Labels
k=2
while [ $(((k - 1) * 500)) -lt "$n" ]; do want="$want Labels $k"; k=$((k + 1)); done
expect_eq "split: Labels sheets for $n cables" "$(cat "$TMP/split.names")" "$want"

# The checks fail on a workbook without them: the previous layout (no print
# setup, fixed totals, no Labels) is what this rewrites.
"$PY" - "$TMP/superpod/cabling/cabling.xlsx" "$TMP/broken.xlsx" <<'P' >"$TMP/broken.log" 2>&1
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
wb["Cables"].page_setup.orientation = "portrait"
b = wb["BOM"]
b["G2"] = 1
wb["Labels"].delete_rows(5)
wb.save(sys.argv[2])
P
"$PY" "$TMP/wb.py" "$TMP/broken.xlsx" "$TMP/superpod/cabling" "$TMP/superpod.bom.json" "$COLORS" \
    >"$TMP/broken.chk" 2>&1
for what in "Cables: print setup" "BOM G2" "Labels: 2039 rows"; do
    grep -q "^$what" "$TMP/broken.chk" && ok || fail "a broken workbook passes: no '$what' in $(head -c 300 "$TMP/broken.chk")"
done

# Text that looks like an escape: SpreadsheetML reads "_xHHHH_" as one
# character (ECMA-376 Part 1, 22.9.2.19 ST_Xstring; Excel decodes it), so a
# host named n_x0041_1 must be written n_x005F_x0041_1 or it reads "nA1".
# Checked three ways: the sheets' XML decoded as the standard says (every
# string of cabling.xlsx and p2p.xlsx that names a host names it as
# written); openpyxl 3.0 (which leaves inline strings undecoded) plus that
# decoding; and LibreOffice's CSV of every sheet (literal, no "_x005F_"
# left: escaped once, not twice).
"$RAILYARD" cabling "$D/two-plane.yaml" --set 'naming.node=n_x0041_{n}' -o "$TMP/esc" >"$TMP/esc.log" 2>&1
expect_eq "host names like escapes: cabling exit" $? 0
"$PY" - "$TMP/esc/cabling" <<'P' >"$TMP/esc.chk" 2>&1
import csv, re, sys, zipfile
import openpyxl
d = sys.argv[1]
hosts = set()
for r in csv.DictReader(open(d + "/cabling.csv")):
    for k in ("a_device", "z_device"):
        if r[k].startswith("n_x0041_"): hosts.add(r[k])
def decode(t):     # ST_Xstring: _xHHHH_ is the character HHHH
    return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), t)
errs = []
if not hosts: errs.append("no host named n_x0041_... in cabling.csv")
for f in ("cabling.xlsx", "p2p.xlsx"):
    z = zipfile.ZipFile("%s/%s" % (d, f))
    seen = set()
    for m in z.namelist():
        if not m.startswith("xl/worksheets/sheet"): continue
        for t in re.findall(r"<t[^>]*>([^<]*)</t>", z.read(m).decode()):
            t = decode(t.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
            seen |= set(re.findall(r"n_x0041_\d+|nA\d+", t))
    if seen != hosts: errs.append("%s, decoded: %s, want %s" % (f, sorted(seen)[:4], sorted(hosts)[:4]))
    wb = openpyxl.load_workbook("%s/%s" % (d, f))
    got = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            for v in row:
                if isinstance(v, str): got |= set(re.findall(r"n_x0041_\d+|nA\d+", decode(v)))
    if got != hosts: errs.append("%s, openpyxl: %s, want %s" % (f, sorted(got)[:4], sorted(hosts)[:4]))
print("\n".join(errs) if errs else "ok")
P
expect_eq "host names like escapes read back as written" "$(cat "$TMP/esc.chk")" ok
"$TOP_BUILDDIR/tests/unit/xlsx_pin_test" "$TMP" >"$TMP/pin.log" 2>&1
expect_eq "libxlsxwriter as xlsx_rows.c expects it (tests/unit/xlsx_pin_test)" $? 0
grep -q '^[1-9][0-9]* checks, 0 failed$' "$TMP/pin.log" && ok || { fail "xlsx_pin_test:"; sed 's/^/    /' "$TMP/pin.log"; }

# Printed by LibreOffice to PDF. Under the sanitizers the workbooks are the
# normal build's bytes, read by LibreOffice in its suite (tests/lib.sh).
LO=$(command -v soffice || command -v libreoffice || true)
if sanitized; then
    echo "LibreOffice's reading is the normal build's suite's (a sanitized build)"
elif [ -n "$LO" ]; then
    mkdir -p "$TMP/pdf"
    HOME="$TMP" timeout 300 "$LO" -env:UserInstallation="file://$TMP/lo-profile" --headless \
        --convert-to pdf --outdir "$TMP/pdf" "$TMP/superpod/cabling/cabling.xlsx" >"$TMP/lo.log" 2>&1
    expect_eq "libreoffice prints the workbook" "$?" 0
    pages=
    command -v pdfinfo >/dev/null && pages=$(pdfinfo "$TMP/pdf/cabling.pdf" | sed -n 's/^Pages: *//p')
    tdir=
    if command -v gs >/dev/null; then
        mkdir -p "$TMP/txt"
        gs -q -dNOPAUSE -dBATCH -sDEVICE=txtwrite -sOutputFile="$TMP/txt/p-%04d.txt" \
            "$TMP/pdf/cabling.pdf" >/dev/null 2>&1 && tdir="$TMP/txt"
    else
        echo "SKIP: Ghostscript (gs) not installed: the PDF's pages are counted, not read"
    fi
    "$PY" "$TMP/pdf.py" "$TMP/pdf/cabling.pdf" "$TMP/superpod/cabling/cabling.xlsx" "$tdir" "$pages" \
        >"$TMP/pdf.chk" 2>"$TMP/pdf.info"
    expect_eq "superpod: the PDF" "$(cat "$TMP/pdf.chk")" ok
    sed 's/^/    /' "$TMP/pdf.info"
    mkdir -p "$TMP/esc-csv"
    HOME="$TMP" timeout 300 "$LO" -env:UserInstallation="file://$TMP/lo-profile" --headless \
        --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1' \
        --outdir "$TMP/esc-csv" "$TMP/esc/cabling/cabling.xlsx" >>"$TMP/lo.log" 2>&1
    expect_eq "libreoffice reads the workbook with host names like escapes" "$?" 0
    lit=$(cat "$TMP"/esc-csv/*.csv | grep -o 'n_x0041_[0-9]*' | sort -u | wc -l)
    want=$(tail -n +2 "$TMP/esc/cabling/cabling.csv" | grep -o 'n_x0041_[0-9]*' | sort -u | wc -l)
    expect_eq "libreoffice: hosts named as written" "$lit" "$want"
    cat "$TMP"/esc-csv/*.csv | grep -q '_x005F_\|nA[0-9]' &&
        fail "libreoffice reads an escape where the host name was written" || ok
    # Recalculated by LibreOffice: the two-model workbook with every cached
    # formula result set to 0, opened with recalculation on load (the
    # profile's OOXMLRecalcMode 0: always) and saved again; its totals, as
    # LibreOffice computes them from the formulas, are railyard bom's.
    mkdir -p "$TMP/lo-recalc/user" "$TMP/recalc"
    cat >"$TMP/lo-recalc/user/registrymodifications.xcu" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
X
    "$PY" - "$TMP/two-models/cabling/cabling.xlsx" "$TMP/recalc/zeroed.xlsx" <<'P' >"$TMP/zero.log" 2>&1
import re, sys, zipfile
src, dst = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED)
n = 0
for i in src.infolist():
    data = src.read(i)
    if i.filename.startswith("xl/worksheets/sheet"):
        data, k = re.subn(rb"(<f>[^<]*</f>)<v>[^<]*</v>", rb"\1<v>0</v>", data)
        n += k
    dst.writestr(i, data)
dst.close()
print(n)
P
    expect_eq "two-models: cached results zeroed" "$(test "$(cat "$TMP/zero.log")" -gt 0 && echo yes)" yes
    cat >"$TMP/totals.py" <<'P'
import json, sys
import openpyxl
ws = openpyxl.load_workbook(sys.argv[1], data_only=True)["BOM"]
bom = json.load(open(sys.argv[2]))
capex, phys = bom["capex"], bom["physical"]
errs = []
rows = {}
for r in range(2, ws.max_row + 1):
    rows.setdefault(ws.cell(r, 1).value, []).append(r)
def near(v, want): return isinstance(v, (int, float)) and abs(v - want) <= 0.005 + 1e-9 * abs(want)
sw = rows.get("switch", [])
if len(sw) != len(capex["switch_models"]): errs.append("%d switch lines, %d models" % (len(sw), len(capex["switch_models"])))
for r, m in zip(sw, capex["switch_models"]):
    got = (ws.cell(r, 2).value, ws.cell(r, 5).value, ws.cell(r, 7).value)
    if not (str(got[0]).endswith(m["name"]) and got[1] == m["count"] and near(got[2], m["cost"])):
        errs.append("switch line %d: %s, bom: %s x %s = %s" % (r, got, m["name"], m["count"], m["cost"]))
def total(label, col, want):
    v = ws.cell(rows[label][-1], col).value if label in rows else None
    if not near(v, want): errs.append("%s %s: %r, bom %s" % (label, "EG"[col == 7], v, want))
total("switches", 5, capex["switch_count"])
total("switches", 7, capex["switches"])
total("cables", 5, phys["cables"])
total("cables", 7, phys["cost"]["cables"])
total("optics", 5, phys["optics_modules"])
total("optics", 7, phys["cost"]["transceivers"])
total("capex", 7, capex["total"])
print("\n".join(errs) if errs else "ok")
P
    "$PY" "$TMP/totals.py" "$TMP/recalc/zeroed.xlsx" "$TMP/two-models.bom.json" >"$TMP/zeroed.chk" 2>&1
    grep -q '^capex G: 0,' "$TMP/zeroed.chk" && ok ||
        fail "the totals check passes a workbook whose results are zeroed: $(head -3 "$TMP/zeroed.chk")"
    HOME="$TMP" timeout 300 "$LO" -env:UserInstallation="file://$TMP/lo-recalc" --headless \
        --convert-to xlsx --outdir "$TMP/recalc/out" "$TMP/recalc/zeroed.xlsx" >>"$TMP/lo.log" 2>&1
    expect_eq "libreoffice recalculates the two-model workbook" "$?" 0
    "$PY" "$TMP/totals.py" "$TMP/recalc/out/zeroed.xlsx" "$TMP/two-models.bom.json" >"$TMP/recalc.chk" 2>&1
    expect_eq "two-models: totals as LibreOffice recalculates them" "$(cat "$TMP/recalc.chk")" ok
else
    echo "SKIP: LibreOffice (soffice) not installed: the workbook is not printed"
fi

finish
